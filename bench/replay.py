"""The example suites replayed, against their own export to plain Playwright code, same run.

    .venv/bin/python bench/replay.py [--rounds 5] [-k EXPR] [--profile] [--no-timing]

``--webtask-export`` writes each replayed test as the pytest-playwright code doing the same
actions and asserting the same outcomes with ``expect``: the fairest baseline there is. The
script exports the example suites once (that run is also the warm-up), then times whole
``pytest`` processes, serially, alternating: the suites replayed with their committed recipes
(``CI=true``, nothing may record) and the exported files run with ``-p no:webtask``, the same
tests in both (the ones with an extract step cannot be exported and are left out of both).
The export writes only a test's webtask steps; the test's own code after its last step (its
Playwright asserts, with the helpers they call) is appended to its exported test, so both
sides run the same calls.
Both sides get the example suites' fixtures: the demo shop, the loopback-only request guard,
this machine's Chromium. Prints each round with the 1-minute load average, the medians and
their ratio, the overhead per test and per replayed action, and per-test medians from JUnit
XML.

``--profile`` adds one run of each side under ``bench/replay_profile.py``: the replay's time
by category (resolving targets, checks, waiting, the actions' Playwright calls, dialogs and
tabs, step bookkeeping, the fixture) and the round trips to the browser per test, beside the
exported code's. ``-k`` narrows both sides to matching tests, for quick iteration.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import CpuMeter, run_env  # noqa: E402
from pytest_webtask.recipes.naming import recipe_path, recipe_test_name  # noqa: E402
from pytest_webtask.recipes.storage import load_recipe  # noqa: E402

EXAMPLES = ROOT / "example_suites"
PROFILE_ENV = "WEBTASK_BENCH_PROFILE"
# The exported files run with the example suites' own fixtures (shop, base URL, the guard
# that every request stays on loopback, this machine's Chromium), nothing of the plugin's.
CONFTEST = '''
import pytest

from example_suites.conftest import _loopback_only, base_url, shop  # noqa: F401
from pytest_webtask.browser.chromium import launch_args

# the password each exported test signs in with (the suites pass it as a secret)
PASSWORDS = {"test_wrong_password_is_refused": "not-the-password"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(autouse=True)
def _secret(request, monkeypatch):
    monkeypatch.setenv("WEBTASK_SECRET_PASSWORD",
                       PASSWORDS.get(request.node.originalname, "lovelace-1815"))
'''


def load() -> float:
    return os.getloadavg()[0]


def pytest_run(args: list[str], cwd: Path, extra_env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           *args], cwd=cwd, capture_output=True, text=True,
                          env=run_env(**(extra_env or {})), timeout=1800, check=False)


def names(node: ast.AST) -> set[str]:
    """The names a piece of code reads or writes."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def own_code(nodeid: str) -> tuple[list[str], list[str]]:
    """What the original test runs after its last webtask call that the export leaves out
    (its own Playwright calls and asserts), as statements the exported test can run, and
    the helper functions of its module they use. Statements that use ``webtask`` (its
    page) or anything but ``page``, ``expect`` and those helpers are left out."""
    file, _, name = nodeid.partition("::")
    tree = ast.parse(source := (ROOT / file).read_text(encoding="utf-8"))
    helpers = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)
               and not f.name.startswith("test_") and not f.decorator_list}
    test = next(f for f in tree.body if isinstance(f, ast.FunctionDef)
                and f.name == name.partition("[")[0])
    last = max(i for i, stmt in enumerate(test.body) if "webtask" in names(stmt))
    allowed = {"page", "expect", *helpers, *dir(builtins)}
    kept = [stmt for stmt in test.body[last + 1:] if names(stmt) <= allowed]
    used = set().union(*(names(stmt) for stmt in kept)) if kept else set()
    return ([ast.get_source_segment(source, stmt) or "" for stmt in kept],
            [ast.get_source_segment(source, helpers[h]) or "" for h in sorted(used & set(helpers))])


def with_own_code(path: Path, nodeid: str) -> None:
    """Append the original test's own trailing code to its exported test, so both sides
    run the same calls and asserts (the export writes only the webtask steps)."""
    statements, helpers = own_code(nodeid)
    if not statements:
        return
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n"
    if re.search(r"^    page = ", text, re.MULTILINE):  # the export followed a new tab
        text += "    page = page.context.pages[0]  # the page fixture: the first tab\n"
    text += "".join(f"    {line}\n" for stmt in statements for line in stmt.splitlines())
    text += "".join(f"\n\n{helper}\n" for helper in helpers)
    path.write_text(text, encoding="utf-8")


def export(folder: Path, k: str | None) -> dict[str, str]:
    """Replay the suites once with ``--webtask-export``: exported module name -> the node id
    it was exported from."""
    proc = pytest_run(["example_suites", "--webtask-export", str(folder),
                       f"--output={folder / '.artifacts'}", *(["-k", k] if k else [])], ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"the export run failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-2000:]}")
    (folder / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    ids = {}
    for path in sorted(folder.glob("test_*.py")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        m = re.search(r" from (\S+\.py::.+)\.$", first)
        if m is None:
            raise SystemExit(f"{path} does not say which test it was exported from")
        ids[path.stem] = m.group(1)
        with_own_code(path, m.group(1))
    if not ids:
        raise SystemExit("nothing was exported" + (f" for -k {k!r}" if k else ""))
    return ids


def counts(ids: list[str]) -> tuple[int, int, int]:
    """Steps, actions and checks the recipes of these tests replay."""
    steps = actions = checks = 0
    for nodeid in ids:
        file, _, tail = nodeid.partition("::")
        recipe = load_recipe(recipe_path(ROOT / file, recipe_test_name(tail, "chromium")))
        assert recipe is not None, nodeid
        for step in recipe.steps:
            steps += 1
            actions += len(step.actions)
            checks += len(step.checks)
    return steps, actions, checks


class Side:
    """One side of the comparison: how to run it, and what its runs took."""

    def __init__(self, name: str, args: list[str], cwd: Path, n: int,
                 test_of: dict[str, str] | None = None) -> None:
        self.name = name
        self.test_of = test_of  # JUnit classname -> the replayed test's node id
        self.args = args
        self.cwd = cwd
        self.n = n
        self.walls: list[float] = []
        self.cpus: list[float] = []  # the machine's CPU s during the run (CpuMeter)
        self.tests: dict[str, list[float]] = defaultdict(list)  # test name -> seconds

    def run(self, scratch: Path, extra: list[str] | None = None,
            extra_env: dict[str, str] | None = None) -> float:
        junit = scratch / f"{self.name}.xml"
        t0 = time.perf_counter()
        with CpuMeter() as meter:
            proc = pytest_run([*self.args, *(extra or []), f"--junit-xml={junit}",
                               f"--output={scratch / 'artifacts'}"], self.cwd, extra_env)
        wall = time.perf_counter() - t0
        cpu = meter.seconds
        passed = re.search(r"(\d+) passed", proc.stdout)
        if proc.returncode != 0 or not passed or int(passed[1]) != self.n:
            raise SystemExit(f"{self.name} run failed:\n{proc.stdout[-4000:]}\n"
                             f"{proc.stderr[-2000:]}")
        if self.name == "replay" and "0 recorded, 0 failed" not in proc.stdout:
            raise SystemExit(f"the replay recorded or failed a step:\n{proc.stdout[-3000:]}")
        if extra is None:
            self.walls.append(wall)
            self.cpus.append(cpu)
            for case in ET.parse(junit).getroot().iter("testcase"):
                self.tests[self.label(case)].append(float(case.get("time", "0")))
        return wall

    def label(self, case: ET.Element) -> str:
        """The replayed test's node id, for a JUnit test case of either side."""
        classname = case.get("classname", "")
        if self.test_of is not None:
            return self.test_of[classname]
        return classname.replace(".", "/") + ".py::" + case.get("name", "")


def timing(replay: Side, exported: Side, rounds: int, scratch: Path) -> list[float]:
    loads = [load()]
    print("| round | replay s | export s | ratio | replay CPU s | export CPU s | CPU ratio | "
          "load (1 min) after |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in range(rounds):
        order = (replay, exported) if r % 2 == 0 else (exported, replay)
        for side in order:
            side.run(scratch)
        loads.append(load())
        a, b = replay.walls[-1], exported.walls[-1]
        ca, cb = replay.cpus[-1], exported.cpus[-1]
        print(f"| {r + 1} | {a:.1f} | {b:.1f} | {a / b:.3f} | {ca:.1f} | {cb:.1f} | "
              f"{ca / cb:.3f} | {loads[-1]:.2f} |", flush=True)
    return loads


def summary(replay: Side, exported: Side, steps: int, actions: int, checks: int) -> None:
    a, b = statistics.median(replay.walls), statistics.median(exported.walls)
    ratios = [x / y for x, y in zip(replay.walls, exported.walls, strict=True)]
    n = replay.n
    print(f"\n{n} tests ({steps} steps, {actions} actions, {checks} checks), "
          f"{len(replay.walls)} alternating rounds, whole pytest processes\n")
    print("| what | replay | exported code | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| median wall s | {a:.2f} | {b:.2f} | {a / b:.3f} |")
    print(f"| median of the rounds' ratios | | | {statistics.median(ratios):.3f} |")
    ca, cb = statistics.median(replay.cpus), statistics.median(exported.cpus)
    print(f"| median CPU s (the machine, during the run) | {ca:.2f} | {cb:.2f} | {ca / cb:.3f} |")
    ta = statistics.median(sum(v[i] for v in replay.tests.values())
                           for i in range(len(replay.walls)))
    tb = statistics.median(sum(v[i] for v in exported.tests.values())
                           for i in range(len(exported.walls)))
    print(f"| median s inside the tests (JUnit, set-up + call + teardown) | {ta:.2f} | "
          f"{tb:.2f} | {ta / tb:.3f} |")
    print(f"\noverhead of the replay (median wall difference): {(a - b) * 1000 / n:+.0f} ms "
          f"per test, {(a - b) * 1000 / actions:+.1f} ms per action, "
          f"{(a - b) * 1000 / (actions + checks):+.1f} ms per action or check")
    print(f"inside the tests only: {(ta - tb) * 1000 / n:+.0f} ms per test, "
          f"{(ta - tb) * 1000 / actions:+.1f} ms per action")
    print("\n| test | replay median ms | export median ms | difference ms |")
    print("| --- | ---: | ---: | ---: |")
    rows = []
    for name, times in replay.tests.items():
        other = exported.tests.get(name)
        if other:
            x, y = statistics.median(times) * 1000, statistics.median(other) * 1000
            rows.append((x - y, name, x, y))
    for diff, name, x, y in sorted(rows, reverse=True):
        print(f"| {name.partition('::')[2]} | {x:.0f} | {y:.0f} | {diff:+.0f} |")
    print("\nwhere each round's time went beyond the side's medians (the slowest rounds are "
          "the noise to explain): the round's wall, the time inside its tests, and the "
          "tests more than 50 ms over their median\n")
    for side in (replay, exported):
        med = {name: statistics.median(times) for name, times in side.tests.items()}
        for r, wall in enumerate(side.walls):
            inside = sum(times[r] for times in side.tests.values())
            over = sorted(((times[r] - med[name]) * 1000, name)
                          for name, times in side.tests.items())
            slow = ", ".join(f"{name.partition('::')[2]} {ms:+.0f}"
                             for ms, name in reversed(over) if ms > 50)
            print(f"- {side.name} round {r + 1}: wall {wall:.2f} s, inside the tests "
                  f"{inside:.2f} s{'; ' + slow if slow else ''}")


def profile(replay: Side, exported: Side, scratch: Path) -> None:
    """One run of each side under the profiling plugin: time and round trips by category."""
    result = {}
    for side in (replay, exported):
        out = scratch / f"profile-{side.name}.jsonl"
        wall = side.run(scratch, ["-p", "bench.replay_profile"], {PROFILE_ENV: str(out)})
        data = json.loads(out.read_text(encoding="utf-8").splitlines()[-1])
        result[side.name] = (wall, data)
    print(f"\nprofile: one run of each side (load {load():.2f}); exclusive time by category, "
          "and the messages sent to the browser (one round trip each)\n")
    print("| category | replay s | replay CPU s | replay round trips | export s | export CPU s | "
          "export round trips |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    cats: list[str] = []
    for _, data in result.values():
        for cat in data["seconds"]:
            if cat not in cats:
                cats.append(cat)
    (wa, ra), (wb, rb) = result["replay"], result["export"]
    for cat in cats:
        print(f"| {cat} | {ra['seconds'].get(cat, 0):.2f} | {ra.get('cpu', {}).get(cat, 0):.2f} | "
              f"{ra['trips'].get(cat, 0)} | {rb['seconds'].get(cat, 0):.2f} | "
              f"{rb.get('cpu', {}).get(cat, 0):.2f} | {rb['trips'].get(cat, 0)} |")
    sa, sb = sum(ra["tests"].values()), sum(rb["tests"].values())
    ta, tb = sum(ra["trips"].values()), sum(rb["trips"].values())
    ca, cb = sum(ra.get("cpu", {}).values()), sum(rb.get("cpu", {}).values())
    print(f"| **inside the tests** | {sa:.2f} | {ca:.2f} | {ta} | {sb:.2f} | {cb:.2f} | {tb} |")
    print(f"| whole pytest process (wall; its own CPU) | {wa:.2f} | "
          f"{ra.get('process_cpu', 0):.2f} | | {wb:.2f} | {rb.get('process_cpu', 0):.2f} | |")
    n = len(ra["tests"])
    print(f"\nround trips per test: replay {ta / n:.1f}, export {tb / len(rb['tests']):.1f}")
    for name, data in (("replay", ra), ("export", rb)):
        sent = data.get("unawaited", {})
        if sent:
            print(f"{name}: also {sum(sent.values())} message(s) sent without awaiting a reply "
                  "(listener subscriptions): " + ", ".join(f"{c} {k}" for c, k in sent.items()))
    calls = ", ".join(f"{cat} {ra['calls'][cat]}" for cat in ra["calls"])
    print(f"replay's wrapped calls: {calls}")
    tools = ra.get("tool_actions", {})
    if tools:
        print("\nround trips per replayed action, by tool (an exported action is one call, "
              "its locator's own)\n")
        print("| tool | actions | round trips | per action | the driver methods sent |")
        print("| --- | ---: | ---: | ---: | --- |")
        for tool, n in sorted(tools.items(), key=lambda kv: -ra["tool_trips"].get(kv[0], 0)):
            trips = ra["tool_trips"].get(tool, 0)
            sent = ", ".join(f"{key.partition(' ')[2]} {k}" for key, k in sorted(
                ra.get("tool_methods", {}).items(), key=lambda kv: -kv[1])
                if key.partition(" ")[0] == tool)
            print(f"| {tool} | {n} | {trips} | {trips / n:.2f} | {sent} |")
    methods = sorted(set(ra.get("methods", {})) | set(rb.get("methods", {})),
                     key=lambda m: -(ra.get("methods", {}).get(m, 0)
                                     + rb.get("methods", {}).get(m, 0)))
    if methods:
        print("\nround trips by the driver method sent\n")
        print("| method | replay | export |")
        print("| --- | ---: | ---: |")
        for m in methods:
            print(f"| {m} | {ra['methods'].get(m, 0)} | {rb['methods'].get(m, 0)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("-k", dest="k", default=None, help="only tests matching (pytest -k)")
    parser.add_argument("--profile", action="store_true", help="add one profiled run per side")
    parser.add_argument("--no-timing", action="store_true", help="only the profile")
    opts = parser.parse_args()
    print(f"1-minute load average at start: {load():.2f} ({os.cpu_count()} cores)", flush=True)
    with tempfile.TemporaryDirectory(prefix="webtask-replay-bench-") as tmp:
        scratch = Path(tmp)
        folder = scratch / "exported"
        folder.mkdir()
        test_of = export(folder, opts.k)
        ids = sorted(test_of.values())
        steps, actions, checks = counts(ids)
        replay = Side("replay", ids, ROOT, len(ids))
        exported = Side("export", ["-p", "no:webtask", "."], folder, len(ids), test_of)
        if not opts.no_timing:
            loads = timing(replay, exported, opts.rounds, scratch)
            summary(replay, exported, steps, actions, checks)
            print(f"\n1-minute load average: {loads[0]:.2f} at start, {loads[-1]:.2f} at end, "
                  f"{min(loads):.2f}-{max(loads):.2f} over the rounds")
        if opts.profile or opts.no_timing:
            profile(replay, exported, scratch)
    print(f"1-minute load average at end: {load():.2f}")


if __name__ == "__main__":
    main()
