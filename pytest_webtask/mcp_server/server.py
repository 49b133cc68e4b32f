"""``webtask mcp``: the MCP server (stdio) a coding agent records, runs and heals tests with.

The coding agent is the model. A recording is ``pytest <test> --webtask-record`` in the
project's folder, its model pointed at a loopback endpoint (``bridge.py``) where each model
request waits for the agent's ``act``, ``done`` or ``give_up``: the plugin's own agent,
guards, evidence rules, budgets, secrets and recipe code decide everything, so the recipe is
the one ``--webtask-record`` writes, because it is ``--webtask-record`` that wrote it."""

from __future__ import annotations

import asyncio
import difflib
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..recipes.naming import recipe_path
from . import claims, requests, steplog, testfile
from .bridge import MODEL_NAME, ModelBridge, Parked
from .runs import MODEL_ENV, Finished, Run, tail

INSTRUCTIONS = """\
pytest-webtask records end-to-end web tests written in plain English. You are the model: \
open_test starts the recording of a test (writing the test function when it is new), then \
each model request shows you the task, the step history, the page state (elements with ids \
such as button-0) and the question. Answer each with act (actions by element id), done \
(evidence: claims about the page that prove the task, checked on the page now and by every \
replay) or give_up. The plugin keeps every rule: an unknown id, a claim that does not hold, \
a claim that held before the step, or one that only shows what your own actions set is \
refused, and the refusal is your next request. Secret values are never shown to you: type \
a secret's placeholder ({password}). When the last step is done the recipe is written \
beside the test. run_tests replays with CI rules (no model); heal_test re-does a drifted \
step with you as the model and shows the recipe diff before keep_heal keeps it."""

DONE = f"""Say the task is done (for a check: the statement is true), with 1 to \
{claims.MAX_EVIDENCE} claims about the page now that prove it. Claims are checked on the page \
and kept as the recipe's checks (a replay asserts each): one that does not hold, held before \
the step, or shows only what your own actions set is refused (your next request says why). \
The answer of a do step's done lists the checks its recipe keeps, the plugin's own included \
(the URL a step went to). A reply that cannot be read (an unknown field, an index of 0) is \
answered with what is wrong and the fields of its kind, and not sent: {claims.MAX_TRIES} \
tries a request.

{claims.reference()}"""

ACT = f"""Reply to the current request with the next actions (1 to {claims.MAX_ACTIONS}, run in \
order), naming elements by the ids of the page state you were shown, and `message`: one \
sentence on what the page shows. Returns the next request, which opens with what your \
actions did (an action refused, e.g. an unknown id, says why there). A reply that cannot be \
read (an empty tool) is answered with what is wrong and not sent ({claims.MAX_TRIES} tries a \
request).

The browser tools every task has (upload only when the step has resources; an answer names a \
tool a task has besides these, and read_page(tools=true) lists a task's tools):
"""

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ActionIn(BaseModel):
    """One action, as the task's tools define it."""

    model_config = ConfigDict(extra="forbid")
    tool: str = Field(description="a tool of the task (click, fill, select, check, press...)")
    parameters: dict[str, Any] = Field(default_factory=dict, description="the tool's "
                                       "parameters, e.g. {\"element_id\": \"button-0\"}")
    reason: str = Field(default="", description="why, in a few words")


class Session:
    """What the server holds between tool calls: the process that is running (a recording,
    a heal, an exploration) and how to undo a recording that did not pass."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.run: Run | None = None
        self.lock = asyncio.Lock()
        self.restore_file: tuple[Path, str | None] | None = None  # a new test function
        self.recipe: tuple[Path, str | None] | None = None  # the recipe before recording
        self.test: tuple[Path, str] | None = None
        self.artifacts: Path | None = None
        self.explore_plan: Path | None = None
        self.shown = requests.Shown()  # what this run's answers showed the agent
        self.steps_told = 0  # the run's step lines (steplog) the agent was told of
        self.tries: dict[int, int] = {}  # malformed replies answered here, by request
        self.steps: Path | None = None  # where the recording writes its steps (steplog)
        self.builtin = ""  # the browser tools, as act's description lists them

    def recording(self, what: str, args: list[str]) -> Run:
        """A pytest run that records (or heals) with the agent as its model, telling this
        server each step's checks (steplog, in a file of its own: pytest empties --output)."""
        handle, name = tempfile.mkstemp(prefix="webtask-mcp-steps-", suffix=".jsonl")
        os.close(handle)
        self.steps = Path(name)
        return Run(what, [*args[:2], "-p", "pytest_webtask.mcp_server.steplog", *args[2:]],
                   self.root, bridge=ModelBridge(), env={steplog.ENV: name})

    def news(self) -> str:
        """The steps that ended since the agent was last told, with the checks kept."""
        steps = self.steps
        if steps is None:
            return ""
        new = steplog.read(steps, self.steps_told)
        told = [steplog.describe(self.steps_told + i, step) for i, step in enumerate(new, 1)
                if step["how"] != "replayed"]
        self.steps_told += len(new)
        return "\n\n".join(told)

    # -- the current process --------------------------------------------------------------

    async def stop(self) -> str:
        said = ""
        if self.run is not None and self.run.finished is None:
            await self.run.stop()
            said = f"Stopped the {self.run.what}."
            said += self.undo()
        self.run = None
        return said

    async def start(self, run: Run) -> str:
        self.run = run
        self.shown, self.steps_told, self.tries = requests.Shown(), 0, {}
        await run.start()
        return await self.after()

    async def after(self, timeout: float = 600) -> str:
        """What the agent reads next: the next model request, or how the process ended."""
        run = self.run
        if run is None:
            return "Nothing is running: call open_test, heal_test or explore first."
        event = await run.next(timeout)
        if event is None:
            return (f"The {run.what} is still working (no model request for {timeout:g}s): "
                    "call read_page to wait for it.")
        if isinstance(event, Finished):
            return self._ended(run, event)
        news = self.news()
        text = requests.describe(event, previous=run.previous, shown=self.shown,
                                 builtin=self.builtin)
        return f"{news}\n\n{text}" if news else text

    async def checked(self, text: str, *, done: bool) -> str:
        """Send the reply ``text`` when the recording's asker will read it; else answer it
        here with what is wrong (a try of ``MAX_TRIES`` on this request, said in the
        answer), and stop the recording after the last."""
        problems = claims.reply_problems(text, done=done)
        run = self.run
        if not problems or run is None or run.current is None or run.current.answered:
            return await self.reply(text)
        number = run.current.number
        self.tries[number] = tries = self.tries.get(number, 0) + 1
        why = "\n".join(f"- {p}" for p in problems)
        if tries >= claims.MAX_TRIES:
            stopped = await self.stop()
            return (f"Your reply could not be read (try {tries} of {claims.MAX_TRIES} on model "
                    f"request {number}, the last):\n{why}\n\n{stopped} Start it again with "
                    "open_test.")
        return (f"Your reply was not sent: it could not be read (try {tries} of "
                f"{claims.MAX_TRIES} on model request {number}; the recording goes on, and the "
                f"request waits for your corrected reply):\n{why}")

    async def reply(self, text: str, *, step_only: bool = True) -> str:
        run = self.run
        if run is None or run.finished is not None:
            return "Nothing is waiting for an answer: call open_test, heal_test or explore."
        parked = await run.next(600)
        if not isinstance(parked, Parked):
            return await self.after()
        if step_only and not requests.parts(parked):
            return ("This request is not a step (see read_page): answer it with the `answer` "
                    "tool, one JSON object that follows its schema.")
        parked.answer(text)
        return await self.after()

    # -- how a process ended --------------------------------------------------------------

    def _ended(self, run: Run, end: Finished) -> str:
        if run.what == "recording":
            return self._recorded(end)
        if run.what == "heal":
            return self._healed(end)
        if run.what == "exploration":
            plan = self.explore_plan
            if end.returncode == 0 and plan is not None and plan.exists():
                return (f"Explored: the plan is {plan}.\n\n" + plan.read_text(encoding="utf-8")
                        + "\n\nReview it, then write tests from it (open_test with its steps, "
                        "or `webtask generate`).")
            return "The exploration failed:\n" + tail(end.output)
        return tail(end.output)

    def _recorded(self, end: Finished) -> str:
        assert self.test is not None
        path, name = self.test
        recipe = recipe_path(path, name)
        failure = self._failure_text()
        if end.returncode == 0 and recipe.exists():
            added = (f" The test function {name} was written in {path}." if self.restore_file
                     else "")
            self.restore_file = self.recipe = None
            return (f"Recorded: the test passed and its recipe was written to {recipe}.{added} "
                    "Commit both; CI replays it with no model (run_tests does the same "
                    f"here).\n\n{self._steps_kept()}\n\n" + _summary(end.output))
        undone = self.undo()
        return ("Not recorded: the test did not pass, so nothing is kept as passing that did "
                f"not pass.{undone}\n\n" + (failure or tail(end.output)))

    def _steps_kept(self) -> str:
        """Each step of the recording with its actions and the checks its recipe keeps."""
        steps = self.steps
        lines = steplog.read(steps) if steps is not None else []
        self.steps_told = len(lines)
        return "\n\n".join(steplog.describe(n, step) for n, step in enumerate(lines, 1))

    def undo(self) -> str:
        said = ""
        if self.restore_file is not None:
            testfile.restore(*self.restore_file)
            said += (f" {self.restore_file[0]} is back as it was: the test function written "
                     "for this recording was taken out again.")
        if self.recipe is not None:
            path, text = self.recipe
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(text, encoding="utf-8")
        self.restore_file = self.recipe = None
        return said

    def _healed(self, end: Finished) -> str:
        assert self.test is not None
        path, name = self.test
        recipe = recipe_path(path, name)
        healed = recipe.with_name(recipe.stem + ".healed.yaml")
        if healed.exists():
            diff = "".join(difflib.unified_diff(
                recipe.read_text(encoding="utf-8").splitlines(keepends=True),
                healed.read_text(encoding="utf-8").splitlines(keepends=True),
                str(recipe), str(healed)))
            return (f"A heal passed the step's recorded checks, unchanged: proposed in "
                    f"{healed}, the recipe untouched. Call keep_heal to keep it, or leave it "
                    f"(delete {healed.name}).\n\n{_heals(end.output)}\n\nThe recipe's diff:\n"
                    f"{diff}")
        if end.returncode == 0:
            return "The test passes as recorded: there was nothing to heal.\n" + \
                _summary(end.output)
        return ("No heal was kept: the test still fails (a heal is kept only when the step's "
                "recorded checks hold unchanged; a failing check is the outcome under test "
                "and is never healed).\n\n" + (self._failure_text() or tail(end.output)))

    def _failure_text(self) -> str:
        if self.artifacts is None:
            return ""
        found = sorted(self.artifacts.rglob("webtask-failure.txt"))
        return "\n\n".join(f.read_text(encoding="utf-8") for f in found)


def _summary(output: str) -> str:
    at = output.find("webtask ===")
    return output[output.rfind("\n", 0, at) + 1:].strip() if at >= 0 else tail(output, 8)


def _heals(output: str) -> str:
    at = output.find("Heals:")
    return output[at:].split("\n\n", 1)[0].strip() if at >= 0 else ""


def _secrets(secrets: dict[str, str] | None) -> tuple[dict[str, str], str]:
    """The secrets' environment variables by name, or why they are refused."""
    out = {}
    for name, env in (secrets or {}).items():
        if not NAME.match(name):
            return {}, f"Refused: the secret name {name!r} is not a name (letters, digits, _)."
        if not NAME.match(env or ""):
            return {}, (f"Refused: secrets take the NAME of the environment variable that holds "
                        f"the value (e.g. {{\"{name}\": \"SHOP_PASSWORD\"}}), never a value: a "
                        "secret's value must not pass through you, and you are never shown one.")
        if env not in os.environ:
            return {}, (f"Refused: the environment variable {env} (the secret {name!r}) is not "
                        "set in webtask mcp's environment. Ask the user to set it where the "
                        "MCP server starts (its env in the MCP configuration); never ask for "
                        "its value.")
        out[name] = env
    return out, ""


def build(session: Session | None = None) -> Any:
    """The MCP server and its tools, on ``session`` (one in the current folder)."""
    from mcp.server import MCPServer

    session = session or Session(Path.cwd())
    server = MCPServer("webtask", instructions=INSTRUCTIONS)
    session.builtin = requests.builtin_tools()

    def where(test_file: str) -> Path:
        path = (session.root / test_file).resolve()
        if session.root.resolve() not in path.parents:
            raise ValueError(f"{test_file} is not inside the project ({session.root})")
        return path

    @server.tool()
    async def open_test(test_file: str, test_name: str, base_url: str = "",
                        steps: list[dict[str, Any]] | None = None,
                        variables: dict[str, str] | None = None,
                        secrets: dict[str, str] | None = None,
                        replace: bool = False) -> str:
        """Start recording a test. An existing test (test_file, test_name) is recorded as it
        is written. A new one is written first from `steps`, each {"goto": "/"},
        {"do": "add the blue shirt in size M to the cart"} or {"check": "the cart total is
        $39.00"}, or {"kind": "do", "text": ..., "uses": [...]}. base_url: the site (e.g.
        http://127.0.0.1:8800), unless the project configures one. Returns the first model
        request: answer it with act, done or give_up.

        Variables and secrets. `variables` are values you may see ({"email":
        "ada@example.com"}); a do step's text names one as {email} and the test passes the
        value (do("sign in as {email}", email="ada@example.com")), so the recipe keeps the
        placeholder and replays with other values. `secrets` map a name to the ENVIRONMENT
        VARIABLE that holds its value ({"password": "SHOP_PASSWORD"}), never the value: you
        never see a secret's value, you type its placeholder ({password}) and the browser
        receives the value. A do step takes the variables and secrets its text names as
        {placeholder}; a secret its words do not name (the user wrote "sign in as {email}",
        not "... with {password}") is given in the step's "uses": {"kind": "do", "text":
        "sign in as {email}", "uses": ["password"]}, so the step gets it without changing the
        user's words. The written test reads each secret from its variable and, where the
        variable is not set (a CI job without it), fails saying which variable to set.
        Variable names must not be do()'s or check()'s own parameters (task, statement,
        resources, secrets).

        replace: true with `steps` rewrites an existing test's steps (its function is put
        back as it was if the recording does not pass)."""
        async with session.lock:
            await session.stop()
            if not NAME.match(test_name) or not test_name.startswith("test"):
                return f"Refused: {test_name!r} is not a test function name (test_...)."
            try:
                path = where(test_file)
            except ValueError as exc:
                return f"Refused: {exc}."
            hidden, refused = _secrets(secrets)
            if refused:
                return refused
            values = dict(variables or {})
            exists = testfile.has_test(path, test_name)
            session.restore_file = None
            if exists and steps and not replace:
                return (f"Refused: {test_file} already has {test_name}; record it as written "
                        "(no steps), or give replace: true with the steps to rewrite it, or "
                        "choose another name.")
            if replace and not steps:
                return "Refused: replace: true needs the new steps."
            if not exists or replace:
                try:
                    written = testfile.as_steps(steps or [])
                except ValueError as exc:
                    return f"Refused: the steps are not understood: {exc}"
                wrong = testfile.problems(written, values, hidden)
                if wrong:
                    return "Refused: " + "; ".join(wrong) + "."
                source = testfile.function_source(test_name, written, values, hidden)
                before: str | None
                if exists:
                    try:
                        before = testfile.replace_test(path, test_name, source,
                                                       needs_os=bool(hidden))
                    except ValueError as exc:
                        return f"Refused: {exc}."
                else:
                    before = testfile.add_test(path, source, needs_os=bool(hidden))
                session.restore_file = (path, before)
            recipe = recipe_path(path, test_name)
            session.recipe = (recipe, recipe.read_text(encoding="utf-8")
                              if recipe.exists() else None)
            session.test = (path, test_name)
            session.artifacts = Path(tempfile.mkdtemp(prefix="webtask-mcp-"))
            args = ["-m", "pytest", f"{path.relative_to(session.root.resolve())}::{test_name}",
                    "--webtask-record", "-q", "--output", str(session.artifacts)]
            if base_url:
                args += ["--base-url", base_url]
            said = (f"{'Rewrote' if exists else 'Wrote'} {test_name} "
                    f"{'in' if exists else 'into'} {test_file}:\n\n{source}\n"
                    if session.restore_file else "")
            return said + await session.start(session.recording("recording", args))

    @server.tool()
    async def read_page(tools: bool = False) -> str:
        """The current model request in full: the task, the whole step history (what each of
        your actions did, refusals included), the page state with element ids, and the
        question; then which answers it offers. `tools`: the task's tools again (an answer
        shows them once a recording) and, on a check, the claims. Waits while the browser
        works."""
        async with session.lock:
            run = session.run
            if run is not None and run.current is not None and not run.current.answered:
                return requests.describe(run.current, previous=run.previous,
                                         shown=session.shown, full=True, tools=tools,
                                         builtin=session.builtin)
            return await session.after()

    @server.tool(description=ACT + session.builtin)
    async def act(actions: list[ActionIn], message: str) -> str:
        async with session.lock:
            return await session.checked(requests.reply(
                message, actions=[a.model_dump() for a in actions]), done=False)

    @server.tool(description=DONE)
    async def done(message: str, evidence: list[str | dict[str, Any]]) -> str:
        async with session.lock:
            return await session.checked(requests.reply(message, evidence=evidence),
                                         done=True)

    @server.tool()
    async def give_up(message: str) -> str:
        """Say the task cannot be done (for a check: the statement is false), and what the
        page shows instead. The recording then fails with your message, unless the plugin
        asks you once more (the next request says so)."""
        async with session.lock:
            return await session.reply(requests.reply(message, impossible=True))

    @server.tool()
    async def answer(reply: dict[str, Any]) -> str:
        """Reply to a request that is not a test step (exploring a site: read_page shows its
        instructions and schema) with one JSON object following its schema."""
        import json

        async with session.lock:
            return await session.reply(json.dumps(reply), step_only=False)

    @server.tool()
    async def stop() -> str:
        """Stop what is running (a recording: its new test function is taken out again)."""
        async with session.lock:
            return await session.stop() or "Nothing was running."

    @server.tool()
    async def run_tests(target: str, base_url: str = "") -> str:
        """Replay tests as CI does (CI=true, no model): a test file, a folder or a node id
        (tests/test_shop.py::test_add_to_cart). Returns whether they passed, and on a failure
        the failure's text and where the HTML report is."""
        async with session.lock:
            await session.stop()
            out = session.root / "test-results"
            report = out / "webtask-report.html"
            args = ["-m", "pytest", target, "-q", "--output", str(out),
                    "--webtask-report", str(report)]
            if base_url:
                args += ["--base-url", base_url]
            env: dict[str, str | None] = {"CI": "true", **dict.fromkeys(MODEL_ENV)}
            run = Run("replay", args, session.root, env=env)
            await run.start()
            end = await run.wait()
            if end.returncode == 0:
                return "Passed (replayed with CI=true, no model).\n" + _summary(end.output)
            failures = sorted(out.rglob("webtask-failure.txt"))
            texts = "\n\n".join(f"{f}:\n{f.read_text(encoding='utf-8')}" for f in failures)
            return (f"Failed (exit code {end.returncode}). The report: {report}\n\n"
                    + (texts or "") + "\n\n" + tail(end.output))

    @server.tool()
    async def heal_test(test_file: str, test_name: str, base_url: str = "") -> str:
        """Replay a failing test and let a step whose element drifted (a renamed button, a
        moved field) be re-done with you as the model (pytest --webtask-heal=suggest). The
        heal is kept only if the step's recorded checks hold unchanged; then the recipe's
        diff is shown and keep_heal keeps it. Returns the first model request, if any."""
        async with session.lock:
            await session.stop()
            try:
                path = where(test_file)
            except ValueError as exc:
                return f"Refused: {exc}."
            recipe = recipe_path(path, test_name)
            if not recipe.exists():
                return f"{test_file}::{test_name} has no recipe ({recipe}): record it first."
            recipe.with_name(recipe.stem + ".healed.yaml").unlink(missing_ok=True)
            session.test = (path, test_name)
            session.restore_file = session.recipe = None
            session.artifacts = Path(tempfile.mkdtemp(prefix="webtask-mcp-"))
            args = ["-m", "pytest", f"{path.relative_to(session.root.resolve())}::{test_name}",
                    "--webtask-heal=suggest", "-q", "--output", str(session.artifacts)]
            if base_url:
                args += ["--base-url", base_url]
            return await session.start(session.recording("heal", args))

    @server.tool()
    async def keep_heal(test_file: str, test_name: str) -> str:
        """Keep the heal heal_test proposed: the healed recipe replaces the recipe."""
        async with session.lock:
            try:
                recipe = recipe_path(where(test_file), test_name)
            except ValueError as exc:
                return f"Refused: {exc}."
            healed = recipe.with_name(recipe.stem + ".healed.yaml")
            if not healed.exists():
                return f"There is no proposed heal ({healed}): call heal_test first."
            healed.replace(recipe)
            for picture in recipe.parent.glob(f"{recipe.stem}.*.healed.png"):
                picture.replace(picture.with_name(picture.name.replace(".healed.png", ".png")))
            return f"Kept: {recipe} is the healed recipe. Commit it; run_tests replays it."

    @server.tool()
    async def explore(url: str, plan: str = "tests/webtask-plan.md",
                      variables: dict[str, str] | None = None,
                      secrets: dict[str, str] | None = None,
                      allow_forms: list[str] | None = None, allow_writes: bool = False,
                      max_pages: int = 20) -> str:
        """Explore a site from `url` into a test plan (webtask explore), with you as the
        model and its guards: its origin only, no request that changes data unless
        allow_forms names a form or allow_writes, secrets by environment variable name only.
        Each request is answered with `answer`."""
        async with session.lock:
            await session.stop()
            hidden, refused = _secrets(secrets)
            if refused:
                return refused
            session.explore_plan = (session.root / plan).resolve()
            session.test = None
            args = ["-m", "pytest_webtask", "explore", url, "--plan", plan, "--model",
                    MODEL_NAME, "--max-pages", str(max_pages)]
            for name, value in (variables or {}).items():
                args += ["--var", f"{name}={value}"]
            for name, env in hidden.items():
                args += ["--secret", f"{name}={env}"]
            for pattern in allow_forms or []:
                args += ["--allow-form", pattern]
            if allow_writes:
                args.append("--allow-writes")
            return await session.start(Run("exploration", args, session.root,
                                           bridge=ModelBridge()))

    return server


def main(root: Path | None = None) -> int:
    """Serve over stdio until the client closes it; ``root`` is the project's folder."""
    session = Session((root or Path.cwd()).resolve())
    try:
        build(session).run("stdio")
    finally:  # the client went away: nothing keeps running, nothing half-written stays
        if session.run is not None and session.run.finished is None:
            session.run.kill()
            session.undo()
    return 0
