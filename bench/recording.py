"""Recording plain demo-shop tests with a real model, then replaying them with no model.

    bash ../shared/local-model/serve.sh             # or any OpenAI-compatible endpoint
    export WEBTASK_MODEL=local OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_API_KEY=none
    python -m bench.recording                       # the 10 tests and the quick start's
    python -m bench.recording --tests search,cart --max-calls 8
    python -m bench.recording --app library --mutants   # issue 45's frozen second app
    python -m bench.recording --app ordinary --mutants  # issue 73's ordinary UI patterns

Each test is written into a fresh folder and recorded in its own ``pytest --webtask-record``
process against the demo shop (so one test's figures are its own); every test that recorded
is then replayed in one run with ``CI=true`` and no model. A small ``conftest.py`` logs each
step (how it ran, model calls, tokens, seconds) as JSON lines. Results go to ``--out`` as JSON
and a Markdown table with the model, the machine's cores and the load average. The tests are
the bench's own, written as a user would write them; none of them is in the example suites.

``--app library`` runs the frozen plain tests of the library app (``bench/apps/library``,
issue 45's validation set: never tuned on) instead of the demo shop's; ``--app ordinary``
those of the ordinary app (``bench/apps/ordinary``, issue 73: a staff site of ordinary UI
patterns, its own ``wrap``). ``--mutants`` then replays every test that recorded and
replayed against each mutant its behaviour is about (``COVERED_BY``: each app's own in its
``tests.py``; ``SHOP_COVERED_BY`` below for the shop's, names from
``example_suites/demo_shop/mutants.py``): the replay must fail (killed); and against the
benign variant with its containers wrapped (the library's ``wrap``, the shop's ``wrapper``
with ``rename_classes``): the replay must pass. The mutation bench with the model's
recordings, killed/total per test, in the same JSON and Markdown report.

This is a benchmark of a model's competence, run by hand: the project's tests never call a
model.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bench.apps.library import LibraryApp
from bench.apps.library.tests import COVERED_BY as LIBRARY_COVERED_BY
from bench.apps.library.tests import FAILURES_COVERED_BY as LIBRARY_FAILURES_COVERED_BY
from bench.apps.library.tests import FAILURES_TESTS as LIBRARY_FAILURES_TESTS
from bench.apps.library.tests import FORMS_COVERED_BY as LIBRARY_FORMS_COVERED_BY
from bench.apps.library.tests import FORMS_TESTS as LIBRARY_FORMS_TESTS
from bench.apps.library.tests import HELDOUT_COVERED_BY as LIBRARY_HELDOUT_COVERED_BY
from bench.apps.library.tests import HELDOUT_TESTS as LIBRARY_HELDOUT_TESTS
from bench.apps.library.tests import MIXED_COVERED_BY as LIBRARY_MIXED_COVERED_BY
from bench.apps.library.tests import MIXED_TESTS as LIBRARY_MIXED_TESTS
from bench.apps.library.tests import REFUSALS_COVERED_BY as LIBRARY_REFUSALS_COVERED_BY
from bench.apps.library.tests import REFUSALS_TESTS as LIBRARY_REFUSALS_TESTS
from bench.apps.library.tests import TESTS as LIBRARY_TESTS
from bench.apps.ordinary import OrdinaryApp
from bench.apps.ordinary.tests import COVERED_BY as ORDINARY_COVERED_BY
from bench.apps.ordinary.tests import TESTS as ORDINARY_TESTS
from bench.common import ROOT
from example_suites.demo_shop import DemoShop

# name -> the test's body, as a user writes it. Plain flows of the demo shop: search,
# category, details, add to cart, sign-in page, sort, cart, checkout, pagination.
TESTS: dict[str, str] = {
    "quick_start": '''
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.check("the cart total is $39.00")''',
    "search": '''
    webtask.goto("/")
    webtask.do("search the products for linen")
    webtask.check("the list shows the White Linen Shirt")''',
    "category": '''
    webtask.goto("/")
    webtask.do("show only the products of the Jackets category")
    webtask.check("the Green Field Jacket is listed")''',
    "details": '''
    webtask.goto("/")
    webtask.do("open the details of the Canvas Tote Bag")
    webtask.check("the details say it is in the Accessories category")''',
    "add_to_cart": '''
    webtask.goto("/")
    webtask.do("add the Canvas Tote Bag to the cart")
    webtask.check("the cart shows the Canvas Tote Bag")''',
    "signin_page": '''
    webtask.goto("/")
    webtask.do("open the sign in page")
    webtask.check("the page has a Password field")''',
    "sort": '''
    webtask.goto("/")
    webtask.do("sort the products by price from high to low")
    webtask.check("the first product is the Green Field Jacket")''',
    "empty_cart": '''
    webtask.goto("/")
    webtask.do("open the cart page")
    webtask.check("the cart is empty")''',
    "next_page": '''
    webtask.goto("/")
    webtask.do("go to the next page of products")
    webtask.check("the page says Page 2 of 3")''',
    "checkout": '''
    webtask.goto("/")
    webtask.do("add the Canvas Tote Bag to the cart")
    webtask.do("proceed to checkout")
    webtask.check("the checkout page shows a Place order button")''',
    "wrong_signin": '''
    webtask.goto("/signin")
    webtask.do("sign in with email nobody@example.com and password wrong")
    webtask.check("the page says Wrong email or password.")''',
}

# name -> the demo shop's mutants (example_suites/demo_shop/mutants.py) whose behaviour the test
# is about: a recording that proves its statement fails on each. Written from the tests' words,
# not from any recording: a test whose check is weaker than its task (category: "the Green
# Field Jacket is listed" passes with every product listed) still names the mutant its task
# ("show only the Jackets") is about. Tests with no mutant of theirs map to ().
SHOP_COVERED_BY: dict[str, tuple[str, ...]] = {
    "quick_start": ("size_ignored",),
    "search": ("search_ignored",),
    "category": ("category_filter_ignored",),
    "details": ("details_wrong_product", "category_lowercase"),
    "add_to_cart": (),
    "signin_page": (),
    "sort": ("sort_reversed", "sort_ignored", "sort_option_mislabeled"),
    "empty_cart": (),
    "next_page": ("page_overlap",),
    "checkout": ("lost_session",),
    "wrong_signin": ("signin_error_not_shown",),
}

# Frozen (issue 45, session 9, 2026-11-28): failure paths of the demo shop, written before any
# run of them and before the `test-checks` rule was measured; never tuned on, never edited to
# make the agent pass. Each test's last do is meant to be refused by the shop; the check says
# how. `--app shop-failures`.
FAILURE_TESTS: dict[str, str] = {
    "checkout_empty": '''
    webtask.goto("/")
    webtask.do("add the Canvas Tote Bag to the cart")
    webtask.do("go to checkout and press Place order without filling in the form")
    webtask.check("the form says the name is required")''',
    "checkout_no_address": '''
    webtask.goto("/")
    webtask.do("add the Canvas Tote Bag to the cart")
    webtask.do("proceed to checkout")
    webtask.do("place the order as Ada Lovelace with the email ada@example.com and no address")
    webtask.check("the form says the address is required")''',
    "wrong_password_known": '''
    webtask.goto("/signin")
    webtask.do("sign in as ada@example.com with the password babbage")
    webtask.check("the page says the email or password is wrong")''',
}
FAILURE_COVERED_BY: dict[str, tuple[str, ...]] = {
    "checkout_empty": ("validation_skipped", "errors_not_shown"),
    "checkout_no_address": ("validation_skipped", "errors_not_shown"),
    "wrong_password_known": ("wrong_password_accepted", "signin_error_not_shown"),
}


@dataclass(frozen=True)
class BenchApp:
    """What the harness needs of an app: its tests, the mutants each covers, and a server."""

    name: str
    tests: dict[str, str]
    covered_by: dict[str, tuple[str, ...]]
    benign: str  # the benign variant's name, for the report
    out: str  # the default --out

    def start(self) -> Any:
        """The app, started, with no mutant and no variant."""
        if self.name.startswith("library"):
            return LibraryApp(mutants=set(), benign=set()).start()
        if self.name.startswith("ordinary"):
            return OrdinaryApp(mutants=set(), benign=set()).start()
        return DemoShop(seed=7).start()

    def set_mutant(self, app: Any, mutant: str | None) -> None:
        app.reset()
        app.mutants = {mutant} if mutant else set()

    def set_benign(self, app: Any, on: bool) -> None:
        app.reset()
        app.mutants = set()
        if self.name.startswith(("library", "ordinary")):
            app.benign = {"wrap"} if on else set()
        elif on:
            app.variants = {"wrapper", "rename_classes"}


APPS: dict[str, BenchApp] = {
    "shop": BenchApp("shop", TESTS, SHOP_COVERED_BY, "wrapper+rename_classes",
                     "bench/results/recording"),
    "shop-failures": BenchApp("shop-failures", FAILURE_TESTS, FAILURE_COVERED_BY,
                              "wrapper+rename_classes", "bench/results/recording-shop-failures"),
    "library": BenchApp("library", LIBRARY_TESTS, LIBRARY_COVERED_BY, "wrap",
                        "bench/results/recording-library"),
    "library-2": BenchApp("library-2", LIBRARY_HELDOUT_TESTS, LIBRARY_HELDOUT_COVERED_BY, "wrap",
                          "bench/results/recording-library-2"),
    "library-3": BenchApp("library-3", LIBRARY_FAILURES_TESTS, LIBRARY_FAILURES_COVERED_BY, "wrap",
                          "bench/results/recording-library-3"),
    "library-4": BenchApp("library-4", LIBRARY_FORMS_TESTS, LIBRARY_FORMS_COVERED_BY, "wrap",
                          "bench/results/recording-library-4"),
    "library-5": BenchApp("library-5", LIBRARY_MIXED_TESTS, LIBRARY_MIXED_COVERED_BY, "wrap",
                          "bench/results/recording-library-5"),
    "library-6": BenchApp("library-6", LIBRARY_REFUSALS_TESTS, LIBRARY_REFUSALS_COVERED_BY,
                          "wrap", "bench/results/recording-library-6"),
    "ordinary": BenchApp("ordinary", ORDINARY_TESTS, ORDINARY_COVERED_BY, "wrap",
                         "bench/results/recording-ordinary"),
}

CONFTEST = '''
import json, os, time
import pytest
from pytest_webtask.llm import openai_llm

LOG = os.environ["WEBTASK_BENCH_LOG"]
_generate = openai_llm.OpenAILLM.generate
_current = {"test": ""}


def pytest_runtest_setup(item):
    _current["test"] = item.name.split("[")[0]


def _logged(self, context):
    """Every model reply, for reading what the model did (the bench's own wrapper)."""
    t0 = time.monotonic()
    reply = _generate(self, context)
    with open(LOG.replace(".jsonl", ".replies.jsonl"), "a") as f:
        f.write(json.dumps({"test": _current["test"], "purpose": context.purpose,
                            "task": context.task[:200],
                            "step": context.step, "seconds": round(time.monotonic() - t0, 1),
                            "reply": reply.text}) + "\\n")
    return reply


openai_llm.OpenAILLM.generate = _logged

def pytest_webtask_step_done(item, outcome):
    usage = outcome.result.usage if outcome.result is not None else None
    line = {"test": item.name.split("[")[0], "kind": outcome.kind, "text": outcome.text,
            "how": outcome.how,
            "doubted": list(outcome.recipe_step.doubted or []),
            "seconds": round(outcome.seconds, 2),
            "calls": usage.calls if usage else 0,
            "prompt_tokens": usage.prompt_tokens if usage else 0,
            "completion_tokens": usage.completion_tokens if usage else 0}
    with open(LOG, "a") as f:
        f.write(json.dumps(line) + "\\n")

def pytest_webtask_step_failed(item, kind, text, message):
    with open(LOG, "a") as f:
        f.write(json.dumps({"test": item.name.split("[")[0], "kind": kind, "text": text,
                            "how": "failed",
                            "message": message[:2000]}) + "\\n")
'''


@dataclass
class TestRecord:
    name: str
    recorded: bool = False
    replayed: bool | None = None
    seconds: float = 0.0
    steps: list[dict[str, Any]] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)
    failure: str = ""
    mutants: dict[str, bool] | None = None  # --mutants: mutant -> killed (the replay failed)
    benign_passed: bool | None = None  # --mutants: replayed green on the benign variant
    mutant_failures: dict[str, str] = field(default_factory=dict)  # survivors, benign: why

    @property
    def calls(self) -> int:
        """Model calls the recording made, failed steps' included."""
        return len(self.replies)

    @property
    def model_seconds(self) -> float:
        return round(sum(r.get("seconds", 0.0) for r in self.replies), 1)

    @property
    def doubted(self) -> list[str]:
        """The recorded steps a done was accepted over advice for: "do 'text': rule, rule"."""
        return [f"{s['kind']} '{s['text']}': {', '.join(s['doubted'])}"
                for s in self.steps if s.get("how") == "recorded" and s.get("doubted")]


def write_test(folder: Path, name: str, tests: dict[str, str] = TESTS) -> Path:
    path = folder / f"test_{name}.py"
    path.write_text(f"def test_{name}(webtask):{tests[name]}\n")
    return path


def pytest_run(folder: Path, args: list[str], env: dict[str, str],
               timeout: float) -> tuple[int, str]:
    # the generated folder has no ini: pytest-asyncio's loop scope said, not warned about
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-p", "no:xdist",
           "-p", "no:randomly", "-o", "asyncio_default_fixture_loop_scope=function", *args]
    try:
        done = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout if isinstance(exc.stdout, str) else ""
        return 124, out + f"\n(timed out after {timeout:g}s)"
    return done.returncode, done.stdout + done.stderr


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", choices=sorted(APPS), default="shop",
                    help="the demo shop's tests, or the library's or the ordinary app's "
                         "frozen ones")
    ap.add_argument("--tests", help="comma-separated test names (default: all of the app's)")
    ap.add_argument("--max-calls", type=int, default=10, help="model calls per step at most")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per test at most")
    ap.add_argument("--out", help="results, without suffix (default bench/results/recording, "
                                  "for the library bench/results/recording-library)")
    ap.add_argument("--keep", help="keep the tests and recipes in this folder")
    ap.add_argument("--mutants", action="store_true",
                    help="also replay each replayed test against its mutants (must fail) and "
                         "the benign wrapped variant (must pass)")
    a = ap.parse_args(argv)
    bench = APPS[a.app]
    tests = bench.tests
    if not os.environ.get("WEBTASK_MODEL"):
        print("No model: set WEBTASK_MODEL, OPENAI_BASE_URL and OPENAI_API_KEY "
              "(bash ../shared/local-model/serve.sh prints them).", file=sys.stderr)
        return 2
    names = [n.strip() for n in (a.tests or ",".join(tests)).split(",") if n.strip()]
    unknown = [n for n in names if n not in tests]
    if unknown:
        print(f"Unknown test(s): {', '.join(unknown)}; known: {', '.join(tests)}",
              file=sys.stderr)
        return 2
    folder = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="webtask-rec-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conftest.py").write_text(CONFTEST)
    log = folder / "steps.jsonl"
    log.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WEBTASK_BENCH_LOG": str(log),
           "WEBTASK_MAX_LLM_CALLS": str(a.max_calls)}
    env.pop("CI", None)
    env.setdefault("WEBTASK_LLM_TIMEOUT", "600")
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    load_start = load_average()
    records: list[TestRecord] = []
    shop = bench.start()
    try:
        for name in names:
            rec = TestRecord(name)
            path = write_test(folder, name, tests)
            t0 = time.monotonic()
            code, out = pytest_run(folder, [path.name, "--webtask-record", "--base-url",
                                            shop.url], env, a.timeout)
            rec.seconds = round(time.monotonic() - t0, 1)
            (folder / f"{name}.record.log").write_text(out)
            rec.recorded = code == 0
            if not rec.recorded:
                rec.failure = _failure(out)
            records.append(rec)
            print(f"{name}: {'recorded' if rec.recorded else 'NOT recorded'} in "
                  f"{rec.seconds:.0f}s" + ("" if rec.recorded else f": {rec.failure[:300]}"),
                  flush=True)
            shop.reset()
        done = [r for r in records if r.recorded]
        if done:
            replay_env = {**env, "CI": "true", "WEBTASK_MODEL": "", "OPENAI_API_KEY": ""}
            for rec in done:
                code, out = pytest_run(folder, [f"test_{rec.name}.py", "--base-url", shop.url],
                                       replay_env, 300)
                (folder / f"{rec.name}.replay.log").write_text(out)
                rec.replayed = code == 0
                if not rec.replayed:
                    rec.failure = "replay: " + _failure(out)
                shop.reset()
            if a.mutants:
                for rec in (r for r in done if r.replayed):
                    replay_mutants(bench, shop, folder, rec, replay_env)
    finally:
        shop.stop()
    steps = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    said = log.with_suffix(".replies.jsonl")
    replies = [json.loads(line) for line in said.read_text().splitlines()] \
        if said.exists() else []
    for rec in records:
        rec.steps = [s for s in steps if s["test"] == f"test_{rec.name}"]
        rec.replies = [r for r in replies if r.get("test") == f"test_{rec.name}"]
    report: dict[str, Any] = {
        "started": started, "model": os.environ.get("WEBTASK_MODEL"),
        "base_url": os.environ.get("OPENAI_BASE_URL"), "cores": os.cpu_count(),
        "load_start": load_start, "load_end": load_average(),
        "max_calls_per_step": a.max_calls, "folder": str(folder),
        "tests": [{**_asdict(r, a.mutants), "calls": r.calls, "model_seconds": r.model_seconds,
                   "doubted": r.doubted}
                  for r in records]}
    if a.app != "shop":
        report["app"] = a.app
    if a.mutants:
        report["mutation"] = mutation_summary(bench, records)
    dest = Path(a.out or bench.out)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.with_suffix(".json").write_text(json.dumps(report, indent=1))
    table = markdown(report, records, tests)
    if a.mutants:
        table += mutation_markdown(bench, records)
    dest.with_suffix(".md").write_text(table)
    print(table)
    return 0


def _asdict(rec: TestRecord, mutants: bool) -> dict[str, Any]:
    """A test's record for the JSON; the --mutants fields only when they were measured."""
    row = asdict(rec)
    if not mutants:
        for key in ("mutants", "benign_passed", "mutant_failures"):
            row.pop(key)
    return row


def replay_mutants(bench: BenchApp, app: Any, folder: Path, rec: TestRecord,
                   env: dict[str, str]) -> None:
    """Replay ``rec``'s recipe against each mutant it covers (killed: the replay failed) and
    against the benign variant (it must pass), on the same server (the same base URL)."""
    rec.mutants = {}
    test = f"test_{rec.name}.py"
    try:
        for mutant in bench.covered_by.get(rec.name, ()):
            bench.set_mutant(app, mutant)
            code, out = pytest_run(folder, [test, "--base-url", app.url], env, 300)
            (folder / f"{rec.name}.mutant-{mutant}.log").write_text(out)
            rec.mutants[mutant] = code != 0
            if code == 0:
                rec.mutant_failures[mutant] = "survived: the replay passed"
            print(f"{rec.name} on {mutant}: {'killed' if code else 'SURVIVED'}", flush=True)
        bench.set_benign(app, True)
        code, out = pytest_run(folder, [test, "--base-url", app.url], env, 300)
        (folder / f"{rec.name}.benign.log").write_text(out)
        rec.benign_passed = code == 0
        if code:
            rec.mutant_failures[bench.benign] = _failure(out)
        print(f"{rec.name} on {bench.benign}: {'passed' if code == 0 else 'FAILED'}",
              flush=True)
    finally:
        bench.set_mutant(app, None)
        bench.set_benign(app, False)


def mutation_summary(bench: BenchApp, records: list[TestRecord]) -> dict[str, Any]:
    measured = [r for r in records if r.mutants is not None]
    covered = sum(len(r.mutants or {}) for r in measured)
    killed = sum(sum((r.mutants or {}).values()) for r in measured)
    return {"benign_variant": bench.benign, "tests_measured": len(measured),
            "mutants_covered": covered, "mutants_killed": killed,
            "benign_passed": sum(bool(r.benign_passed) for r in measured),
            "unmeasured": [r.name for r in records if r.mutants is None
                           and bench.covered_by.get(r.name)]}


def mutation_markdown(bench: BenchApp, records: list[TestRecord]) -> str:
    summary = mutation_summary(bench, records)
    rows = [f"\nMutants (replays with CI=true against each covered mutant: killed when the "
            f"replay fails; benign `{bench.benign}`: must pass). Killed "
            f"{summary['mutants_killed']}/{summary['mutants_covered']}; benign passed "
            f"{summary['benign_passed']}/{summary['tests_measured']}.\n",
            "| test | killed | survived | benign | recorded over advice |",
            "| --- | ---: | --- | --- | --- |"]
    for r in records:
        if r.mutants is None:
            why = "not recorded" if not r.recorded else "did not replay"
            rows.append(f"| {r.name} | - | ({why}) | - | - |")
            continue
        survived = ", ".join(m for m, k in r.mutants.items() if not k) or "-"
        rows.append(f"| {r.name} | {sum(r.mutants.values())}/{len(r.mutants)} | {survived} | "
                    f"{'pass' if r.benign_passed else 'FAIL'} | "
                    f"{'; '.join(r.doubted) or '-'} |")
    fails = [f"- {r.name} on {bench.benign}: {r.mutant_failures[bench.benign][:400]}"
             for r in records if r.benign_passed is False]
    return "\n".join(rows) + ("\n\nBenign failures:\n" + "\n".join(fails) if fails
                              else "") + "\n"


def markdown(report: dict[str, Any], records: list[TestRecord],
             tests: dict[str, str] = TESTS) -> str:
    rows = ["| test | recorded | replayed (CI=true) | model calls | steps | record s | "
            "model s per call |", "| --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for r in records:
        per = f"{r.model_seconds / r.calls:.1f}" if r.calls else "-"
        rows.append(f"| {r.name} | {'yes' if r.recorded else 'no'} | "
                    f"{'-' if r.replayed is None else 'yes' if r.replayed else 'no'} | "
                    f"{r.calls} | {len(tests[r.name].strip().splitlines()) - 1} | "
                    f"{r.seconds:.0f} | {per} |")
    n = len(records)
    rec = sum(r.recorded for r in records)
    rep = sum(bool(r.replayed) for r in records)
    app = f"App {report['app']}. " if report.get("app") else ""
    head = (f"{app}Model {report['model']} at {report['base_url']}, {report['cores']} cores, "
            f"load {report['load_start']} at the start, {report['load_end']} at the end, "
            f"{report['started']}. Recorded {rec}/{n}; replayed {rep}/{rec}.\n\n")
    fails = [f"- {r.name}: {r.failure[:400]}" for r in records if r.failure]
    return head + "\n".join(rows) + ("\n\nFailures:\n" + "\n".join(fails) if fails else "") + "\n"


def _failure(out: str) -> str:
    """The failure's own lines: pytest's 'E ' lines, else the output's tail."""
    lines = [ln[1:].strip() for ln in out.splitlines() if ln.startswith("E ")]
    if not lines:
        lines = [ln for ln in out.splitlines() if "Step " in ln and ("do(" in ln or "check(" in ln)]
    text = " ".join(lines) if lines else " ".join(out.strip().splitlines()[-5:])
    return text[:2000]


if __name__ == "__main__":
    sys.exit(main())
