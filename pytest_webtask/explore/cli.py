"""``webtask explore URL`` and ``webtask generate PLAN`` (also ``python -m pytest_webtask``).

    webtask explore http://localhost:8000/ --plan tests/webtask-plan.md
    webtask generate tests/webtask-plan.md --out tests/test_app.py

``explore`` writes the plan (the flows it found, and the site map); ``generate`` writes the
test module and the recipes of the tests it kept. ``explore --out`` does both.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import ConfigurationError, LLMError, ProposalError, WebtaskError
from .options import FIELDS, ExploreOptions
from .plan import PlanError, secret_env

DEFAULT_PLAN = "tests/webtask-plan.md"


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"{what} takes NAME=VALUE (a name of letters, digits "
                                         f"and _); got {text!r}")
    return name.strip(), value


def _variable(text: str) -> tuple[str, str]:
    return _pair(text, "--var")


def _file(text: str) -> tuple[str, str]:
    return _pair(text, "--file")


def _secret(text: str) -> tuple[str, str]:
    name, sep, env = text.partition("=")
    if not name.strip().isidentifier() or (sep and not env.strip().isidentifier()):
        raise argparse.ArgumentTypeError(
            f"--secret takes NAME or NAME=ENVIRONMENT_VARIABLE (the value is read from the "
            f"environment, never from the command line); got {text!r}")
    return name.strip(), env.strip() or secret_env(name.strip())


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="webtask", description="Explore a web app and write its regression tests "
        "(pytest-webtask).")
    sub = top.add_subparsers(dest="command", required=True,
                             metavar="{explore,generate,mcp}")

    ex = sub.add_parser("explore", help="explore an app and write a test plan",
                        description="Explore the app from URL (its origin only) and write a "
                        "test plan in Markdown: its main user flows and a site map.")
    ex.add_argument("url", help="the start page, e.g. http://localhost:8000/")
    ex.add_argument("--plan", type=Path, default=Path(DEFAULT_PLAN),
                    help=f"where to write the plan (default {DEFAULT_PLAN})")
    ex.add_argument("--out", type=Path, help="also generate the tests into this module")
    ex.add_argument("--force", action="store_true",
                    help="overwrite --out even if webtask generate did not write it")
    for name, (typ, default, env, help_) in FIELDS.items():
        flag = "--" + name.replace("_", "-")
        if typ is bool:
            ex.add_argument(flag, action="store_const", const=True, default=None,
                            help=f"{help_} (env {env})")
        else:
            ex.add_argument(flag, type=typ, default=None, metavar="N",
                            help=f"{help_} (default {default}; env {env})")
    ex.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                    help="another origin the explorer may visit (repeatable)")
    ex.add_argument("--allow-form", action="append", default=[], metavar="PATTERN",
                    help="a form exploring may submit although it changes data: its "
                    "button's text (Archive) or its action path (/loans/archive, /loans/*); "
                    "also one that looks destructive (repeatable)")
    ex.add_argument("--var", action="append", type=_variable, default=[], metavar="NAME=VALUE",
                    help="a value the explorer may type, shown to the model (repeatable)")
    ex.add_argument("--secret", action="append", type=_secret, default=[],
                    metavar="NAME[=ENV]", help="a named test credential, read from the "
                    "environment variable ENV (default WEBTASK_SECRET_<NAME>); the model sees "
                    "its name only (repeatable)")
    ex.add_argument("--file", action="append", type=_file, default=[], metavar="NAME=PATH",
                    help="a file the explorer may upload (repeatable)")
    ex.add_argument("--title", help="the plan's title (default: from the start page)")
    ex.add_argument("--headed", action="store_true", help="show the browser")
    _model_options(ex)

    gen = sub.add_parser("generate", help="write tests from a plan, recorded and replayed",
                         description="Write one pytest test per flow of PLAN, record each "
                         "(pytest --webtask-record) and replay it with CI=true; a test that "
                         "fails either is kept commented out with the reason.")
    gen.add_argument("plan", type=Path, help="the plan (Markdown)")
    gen.add_argument("--out", type=Path, required=True, help="the test module to write")
    gen.add_argument("--force", action="store_true",
                     help="overwrite --out even if webtask generate did not write it")
    gen.add_argument("--allow-form", action="append", default=[], metavar="PATTERN",
                     help="a form exploring did not try that the tests may send to the app: "
                     "its button's text (Subscribe) or its action path (/newsletter); a flow "
                     "through another such form is left out (repeatable)")
    _model_options(gen)
    mcp = sub.add_parser("mcp", help="serve the MCP server a coding agent records tests with",
                         description="Serve the Model Context Protocol over stdio, for a "
                         "coding agent (Claude Code, Cursor, VS Code) to record, run and heal "
                         "tests as the model, and to explore a site (docs/mcp.md). Start it "
                         "in the project's folder; needs pytest-webtask[mcp].")
    mcp.add_argument("--root", type=Path, default=None,
                     help="the project's folder (default: the folder it starts in)")
    for sub_parser in (ex, gen):
        sub_parser.epilog = ("Arguments after -- go to both pytest runs of the generator "
                             "(e.g. -- --base-url http://localhost:8000).")
    return top


def _model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model name (default WEBTASK_MODEL); the endpoint is "
                   "OPENAI_BASE_URL, the key OPENAI_API_KEY")
    p.add_argument("--llm", metavar="MODULE:CALLABLE",
                   help="use the model CALLABLE() returns instead (any object with "
                   "generate(context) -> LLMReply, a ScriptedLLM included)")


def model_factory(args: argparse.Namespace) -> Callable[[], Any]:
    """How to make the model: ``--llm module:callable``, else ``OpenAILLM`` from the
    environment, as recording does."""
    def make() -> Any:
        if args.llm:
            module, sep, attr = args.llm.partition(":")
            if not sep:
                raise ConfigurationError(f"--llm takes MODULE:CALLABLE; got {args.llm!r}.")
            sys.path.insert(0, os.getcwd())
            try:
                factory = getattr(importlib.import_module(module), attr)
            except (ImportError, AttributeError) as exc:
                raise ConfigurationError(f"--llm {args.llm}: {exc}") from None
            return factory()
        from ..llm.openai_llm import OpenAILLM
        try:
            # the settings' variables, as recording reads them (WEBTASK_LLM_TIMEOUT, ...)
            return OpenAILLM.from_env(model=args.model or None)
        except ConfigurationError as exc:
            raise ConfigurationError(f"{exc} Or pass --llm MODULE:CALLABLE.") from None
    return make


class ProgressLine:
    """One line on a terminal, redrawn in place; nothing when output is not a terminal or
    in CI."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.live = out.isatty() and not os.environ.get("CI")
        self.shown = False

    def show(self, text: str) -> None:
        if not self.live:
            return
        width = shutil.get_terminal_size((100, 20)).columns - 1
        self.out.write("\r\x1b[K" + (text if len(text) <= width else text[: width - 1] + "…"))
        self.out.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self.shown = False


def explore_command(args: argparse.Namespace, err: IO[str]) -> int:
    from playwright.sync_api import sync_playwright

    from ..browser.chromium import launch_args
    from .explorer import Explorer
    from .plan import write_plan
    from .planner import make_plan, plan_flows, untried_flows

    overrides = {name: getattr(args, name) for name in FIELDS}
    options = ExploreOptions.from_env(overrides)
    if args.allow_origin:
        options = dataclasses.replace(options, allowed_origins=tuple(args.allow_origin))
    if args.allow_form:
        options = dataclasses.replace(options, allow_forms=tuple(args.allow_form))
    secrets: dict[str, str] = {}
    secret_envs: dict[str, str] = {}
    for name, env in args.secret:
        value = os.environ.get(env)
        if not value:
            raise ConfigurationError(f"the secret {name!r} is read from the environment "
                                     f"variable {env}, which is not set.")
        secrets[name], secret_envs[name] = value, env
    variables = dict(args.var)
    files: dict[str, str] = {}
    for name, path in args.file:
        if not Path(path).is_file():
            raise ConfigurationError(f"--file {name}={path}: no such file.")
        files[name] = path
    llm = model_factory(args)()
    line = ProgressLine(err)
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args({"headless": not args.headed}))
        try:
            page = browser.new_context().new_page()
            explorer = Explorer(page, llm, options, variables=variables, secrets=secrets,
                                files=files, progress=lambda status: line.show(status.line()))
            try:
                site = explorer.explore(args.url)
            finally:
                line.clear()
        finally:
            browser.close()
    if not site.pages:
        raise WebtaskError(f"No page of {args.url} could be read"
                           + (f": {site.stopped}" if site.stopped else "."))
    plan_files = {n: os.path.relpath(Path(p).resolve(), args.plan.resolve().parent)
                  for n, p in files.items()}
    line.show("[explore] writing the plan: one model call")
    failed = ""
    try:
        flows = plan_flows(explorer.asker, site, variables=variables, secrets=secret_envs,
                           files=plan_files)
    except (ProposalError, LLMError) as exc:  # the site map is kept: write flows by hand
        flows, failed = [], str(exc)
    finally:
        line.clear()
    untried = [] if failed else untried_flows(site, flows, variables=variables,
                                              secrets=secret_envs, files=plan_files)
    flows += untried
    usage = explorer.usage
    tokens = f", {usage.total_tokens} tokens" if usage.total_tokens else ""
    model = getattr(llm, "model", None) or type(llm).__name__  # a script says it is one
    summary = (f"Written by `webtask explore` from {len(site.pages)} page(s) of {args.url} "
               f"({usage.calls} calls to {model}{tokens}, {explorer.elapsed():.0f} s).")
    if failed:
        summary += (f"\n\nNo flows: the plan could not be written ({failed}). Write flows by "
                    "hand from the site map below, or explore again with a larger budget.")
    title = args.title or f"Test plan: {site.pages[0].title}"
    text = write_plan(make_plan(site, flows, title=title, summary=summary))
    text = explorer.secrets.mask(text)  # a secret's value never reaches the file
    args.plan.parent.mkdir(parents=True, exist_ok=True)
    args.plan.write_text(text, encoding="utf-8")
    waited = (f", {usage.seconds:.0f} s waiting for the model" if usage.seconds else "") + \
        (f", {usage.timeouts} timed out" if usage.timeouts else "") + \
        (f", {usage.refusals} refusal(s) of json_schema" if usage.refusals else "")
    print(f"Explored {len(site.pages)} page(s) ({usage.calls} model calls{tokens}{waited}, "
          f"{explorer.elapsed():.0f} s); wrote {len(flows)} flow(s) to {args.plan}.")
    if site.stopped:
        print(f"Exploring stopped early: {site.stopped}")
    if failed:
        print(f"webtask explore: error: no flows were written: {failed}", file=err)
        return 1
    if untried:
        print(f"{len(untried)} of them change data on the server and were not tried while "
              "exploring: generate leaves them out until you delete their `Not tried while "
              "exploring:` line (or explore again with --allow-form).")
    refused = len(site.refusals())
    if refused:
        print(f"{refused} exploration(s) not tried (listed in the plan's site map).")
    if site.blocked:
        print(f"{sum(site.blocked.values())} request(s) that would change data or leave the "
              "allowed origins were stopped (listed in the plan's site map).")
    if args.out is not None:
        return generate_command(args, err, plan_path=args.plan)
    return 0


def generate_command(args: argparse.Namespace, err: IO[str],
                     plan_path: Path | None = None) -> int:
    from .generator import generate
    from .plan import load_plan

    path = plan_path or args.plan
    plan = load_plan(path)
    result = generate(plan, path, args.out, llm=model_factory(args),
                      pytest_args=args.pytest_args,
                      force=getattr(args, "force", False),
                      allow_forms=getattr(args, "allow_form", []),
                      say=lambda text: print(text, file=err, flush=True))
    print(f"Wrote {result.module}: {len(result.kept)} test(s) kept, recorded and replayed.")
    for name, reason in result.left_out.items():
        first = reason.splitlines()[0] if reason else ""
        print(f"  left out {name}: {first}")
    return 0 if result.kept else 1


def mcp_command(err: IO[str], root: Path | None = None) -> int:
    try:
        from ..mcp_server.server import main as serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        print("webtask mcp: error: the MCP SDK is not installed: pip install "
              "\"pytest-webtask[mcp]\" (or pip install mcp)", file=err)
        return 2
    return serve(root)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    args = parser().parse_args(argv)
    args.pytest_args = extra
    err = sys.stderr
    try:
        if args.command == "mcp":
            return mcp_command(err, args.root)
        if args.command == "explore":
            return explore_command(args, err)
        return generate_command(args, err)
    except WebtaskError as exc:
        print(f"webtask {args.command}: error: {exc}", file=err)
        return 2 if isinstance(exc, (ConfigurationError, PlanError)) else 1
    except KeyboardInterrupt:
        print(f"webtask {args.command}: interrupted", file=err)
        return 130


if __name__ == "__main__":
    sys.exit(main())
