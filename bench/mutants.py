"""Mutation bench: do the example suites' replays fail when the demo shop has a real bug?

    .venv/bin/python bench/mutants.py [--jobs 2] [--only NAME[,NAME]] [--clean-runs 5]
                                      [--json PATH] [--suite PATH --covered-by MODULE:NAME]

For each mutant of ``example_suites/demo_shop/mutants.py`` the example suites are replayed
in a subprocess (``pytest example_suites --webtask-replay-only``, CI=true, no model) against
a shop started with that one bug (``WEBTASK_DEMO_MUTANT``). A mutant is killed when a test
fails. The unmutated suites are also replayed ``--clean-runs`` times: any failure there is a
flaky replay, a defect. Each mutant's hand-written ``covered_by`` tests say whether a
survivor slipped past a test about that behaviour (a weak check) or past no test (a gap):
"covered" means one of them ran; tests skipped because their recipes are not recorded yet
count as "pending". Prints a Markdown report; ``--json`` also writes the figures.

``--suite`` replays another suite against the same mutants (``example_suites/generated``,
the suite ``webtask explore``/``generate`` wrote); ``--covered-by`` then names its own map
from a mutant to the tests whose subject it is (``example_suites.generated:COVERED_BY``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from example_suites.demo_shop.mutants import ENV, MUTANTS  # noqa: E402

CLEAN = ""  # the run without a mutant


@dataclass
class Run:
    mutant: str
    returncode: int
    seconds: float
    outcomes: dict[str, str] = field(default_factory=dict)  # "file.py::test[id]" -> outcome
    tail: str = ""

    @property
    def failed(self) -> list[str]:
        return [t for t, o in self.outcomes.items() if o == "failed"]

    @property
    def broken(self) -> bool:
        """The run did not get as far as running the tests (usage error, crash)."""
        return not self.outcomes or self.returncode not in (0, 1)


def replay(mutant: str, timeout: float, suite: str = "example_suites") -> Run:
    """The example suites replayed once against the shop with ``mutant`` switched on."""
    with tempfile.TemporaryDirectory(prefix="webtask-mutant-") as tmp:
        junit = Path(tmp) / "junit.xml"
        env = {**os.environ, "CI": "true", ENV: mutant, "OPENAI_API_KEY": "",
               "WEBTASK_MODEL": ""}
        cmd = [sys.executable, "-m", "pytest", suite, "--webtask-replay-only",
               "-p", "no:cacheprovider", "-q", f"--junit-xml={junit}",
               f"--output={Path(tmp) / 'artifacts'}"]
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=timeout, check=False)
            code, out = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            code, out = -1, f"timed out after {timeout:.0f} s"
        run = Run(mutant, code, time.perf_counter() - t0, tail=out[-3000:])
        if junit.exists():
            run.outcomes = outcomes(junit)
    return run


def outcomes(junit: Path) -> dict[str, str]:
    result = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname", "").rsplit(".", 1)[-1]
        test = f"{module}.py::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            result[test] = "failed"
        elif case.find("skipped") is not None:
            result[test] = "skipped"
        else:
            result[test] = "passed"
    return result


def matching(pattern: str, tests: dict[str, str]) -> dict[str, str]:
    """The collected tests a ``covered_by`` entry names (all parameters of a test)."""
    return {t: o for t, o in tests.items() if t == pattern or t.startswith(pattern + "[")}


@dataclass
class Verdict:
    mutant: str
    description: str
    issue17: bool
    killed: bool
    killed_by: list[str]
    coverage: str  # covered | pending | uncovered
    covering: dict[str, str]  # covering test -> its outcome in this run ("missing": not collected)
    seconds: float
    error: str = ""


def verdict(run: Run, covered_by: dict[str, tuple[str, ...]] | None = None) -> Verdict:
    mutant = MUTANTS[run.mutant]
    patterns = mutant.covered_by if covered_by is None else covered_by.get(run.mutant, ())
    covering: dict[str, str] = {}
    for pattern in patterns:
        covering.update(matching(pattern, run.outcomes) or {pattern: "missing"})
    ran = [t for t, o in covering.items() if o in ("passed", "failed")]
    coverage = ("covered" if ran else
                "pending" if any(o == "skipped" for o in covering.values()) else "uncovered")
    return Verdict(run.mutant, mutant.description, mutant.issue17,
                   killed=bool(run.failed) and not run.broken, killed_by=run.failed,
                   coverage=coverage, covering=covering, seconds=round(run.seconds, 1),
                   error=run.tail if run.broken else "")


def short(test: str) -> str:
    """``test_x.py::test_y[chromium-a]`` -> ``test_y[a]``: the browser is always Chromium."""
    name = test.split("::", 1)[1]
    return name.replace("[chromium]", "").replace("[chromium-", "[")


def report(verdicts: list[Verdict], clean: list[Run]) -> tuple[str, dict[str, object]]:
    killed = [v for v in verdicts if v.killed]
    covered = [v for v in verdicts if v.coverage == "covered"]
    covered_killed = [v for v in covered if v.killed]
    flaky = [r for r in clean if r.failed or r.broken]
    figures: dict[str, object] = {
        "mutants": len(verdicts), "killed": len(killed),
        "covered": len(covered), "covered_killed": len(covered_killed),
        "pending": sum(v.coverage == "pending" for v in verdicts),
        "uncovered": sum(v.coverage == "uncovered" for v in verdicts),
        "clean_runs": len(clean), "flaky_runs": len(flaky),
        "flaky_failures": sorted({t for r in flaky for t in r.failed}),
        "verdicts": [asdict(v) for v in verdicts],
    }

    def pct(a: int, b: int) -> str:
        return f"{a}/{b} ({100 * a / b:.0f}%)" if b else "0/0"

    lines = [
        f"Mutants killed: {pct(len(killed), len(verdicts))}; covered mutants killed: "
        f"{pct(len(covered_killed), len(covered))}; pending (covering tests not recorded "
        f"yet): {figures['pending']}; uncovered: {figures['uncovered']}.",
        f"Unmutated replays: {len(clean)} runs, {len(flaky)} with a failure (flaky)"
        + (f": {', '.join(figures['flaky_failures'])}" if flaky else "") + ".",  # type: ignore[arg-type]
        "",
        "| mutant | bug | killed | killed by | coverage | covering tests |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for v in verdicts:
        mark = " (17)" if v.issue17 else ""
        by = ", ".join(short(t) for t in v.killed_by[:3]) + \
            (f" +{len(v.killed_by) - 3}" if len(v.killed_by) > 3 else "")
        cov = ", ".join(f"{short(t)} ({o})" for t, o in v.covering.items()) or "-"
        state = "ERROR" if v.error else ("yes" if v.killed else "**no**")
        lines.append(f"| `{v.mutant}`{mark} | {v.description} | {state} | {by or '-'} | "
                     f"{v.coverage} | {cov} |")
    survivors = [v for v in verdicts if not v.killed]
    if survivors:
        lines += ["", "Survivors: " + ", ".join(
            f"`{v.mutant}` ({v.coverage})" for v in survivors) + "."]
    for v in verdicts:
        if v.error:
            lines += ["", f"`{v.mutant}` did not run its tests:", "```", v.error, "```"]
    return "\n".join(lines), figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2,
                        help="parallel replays (each runs a Chromium; 2 suits a 2-core machine)")
    parser.add_argument("--only", default="",
                        help="comma-separated mutant names (default: all)")
    parser.add_argument("--clean-runs", type=int, default=5,
                        help="replays of the unmutated suites, to detect flaky replays")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per replay run")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--suite", default="example_suites",
                        help="the suite to replay (default: the hand-written example suites)")
    parser.add_argument("--covered-by", default="", metavar="MODULE:NAME",
                        help="for --suite: a dict mutant -> covering tests (file.py::test)")
    args = parser.parse_args()
    covered_by = None
    if args.covered_by:
        module, _sep, name = args.covered_by.partition(":")
        covered_by = getattr(importlib.import_module(module), name)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(MUTANTS)
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        parser.error(f"unknown mutant(s) {', '.join(unknown)}; known: {', '.join(MUTANTS)}")
    if args.jobs < 1 or args.clean_runs < 0:
        parser.error("--jobs must be at least 1 and --clean-runs at least 0")

    todo = names + [CLEAN] * args.clean_runs
    done = iter(range(1, len(todo) + 1))

    def one(mutant: str) -> Run:
        run = replay(mutant, args.timeout, args.suite)
        state = ("broken" if run.broken else
                 f"{len(run.failed)} failed" if run.failed else "all passed")
        print(f"[{next(done)}/{len(todo)}] {mutant or '(no mutant)'}: {state} "
              f"({run.seconds:.0f} s)", file=sys.stderr, flush=True)
        return run

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = list(pool.map(one, todo))
    verdicts = [verdict(r, covered_by) for r in runs if r.mutant != CLEAN]
    text, figures = report(verdicts, [r for r in runs if r.mutant == CLEAN])
    print(text)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
