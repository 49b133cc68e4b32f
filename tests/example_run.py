"""The one run of the example suites per ``pytest tests``: what CI's replay job does (CI set,
no model, xdist), with the JUnit XML, the HTML report and the export written on the way.
The tests about each (tests/test_example_suites.py, test_report.py, test_export.py) read
this run instead of starting their own.

Under xdist every worker asks for it: the first one runs it, holding a lock in the run's
shared temporary folder, and writes what came out there; the others wait for the lock and
read it."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "example_suites"
RECIPES = EXAMPLES / "__webtask__"
# What CI's replay job runs with: a step without a recipe fails instead of recording, and no
# model is configured (the suites' conftest also fails a page that leaves loopback).
ENV = {"CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": ""}


@dataclass(frozen=True)
class Case:
    """One test of the run, from the JUnit XML."""

    nodeid: str  # "test_cart.py::test_add_to_cart[chromium]"
    outcome: str  # passed, failed, error, skipped
    properties: dict[str, str]

    def stats(self) -> dict[str, int]:
        return json.loads(self.properties.get("webtask", "{}"))

    def export(self) -> dict[str, str]:
        return json.loads(self.properties.get("webtask_export", "{}"))


@dataclass(frozen=True)
class ExampleRun:
    folder: Path
    returncode: int
    stdout: str
    stderr: str
    recipes_before: dict[str, str]
    recipes_after: dict[str, str]

    @property
    def junit(self) -> Path:
        return self.folder / "junit.xml"

    @property
    def report(self) -> Path:
        return self.folder / "report.html"

    @property
    def export(self) -> Path:
        return self.folder / "export"

    def cases(self) -> list[Case]:
        cases = []
        for case in ElementTree.parse(self.junit).getroot().iter("testcase"):
            module = (case.get("classname") or "").rsplit(".", 1)[-1]
            outcome = next((tag for tag in ("failure", "error", "skipped")
                            if case.find(tag) is not None), "passed")
            props = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
            cases.append(Case(f"{module}.py::{case.get('name')}",
                              "failed" if outcome == "failure" else outcome, props))
        return cases

    def failure(self) -> str:
        """What to show when the run did not pass."""
        return f"exit code {self.returncode}\n{self.stdout[-5000:]}\n{self.stderr[-2000:]}"


def recipe_steps() -> list[dict]:
    """Every step of every committed recipe of the example suites."""
    import yaml

    return [step for path in sorted(RECIPES.rglob("*.yaml"))
            for step in yaml.safe_load(path.read_text(encoding="utf-8"))["steps"]]


def recipe_digests() -> dict[str, str]:
    return {str(p.relative_to(RECIPES)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(RECIPES.rglob("*.yaml"))}


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: no lock; each xdist worker runs the suites once
        yield
        return
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def example_run(shared: Path) -> ExampleRun:
    """The run's outcome, from ``shared/example-run`` (running the suites first if no one
    has)."""
    folder = shared / "example-run"
    result = folder / "result.json"
    with _locked(shared / "example-run.lock"):
        if not result.exists():
            folder.mkdir(parents=True, exist_ok=True)
            before = recipe_digests()
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "example_suites", "-p", "no:cacheprovider",
                 "-n", "2", f"--junitxml={folder / 'junit.xml'}",
                 f"--webtask-report={folder / 'report.html'}",
                 f"--webtask-export={folder / 'export'}"],
                cwd=ROOT, capture_output=True, text=True, env={**os.environ, **ENV},
                timeout=900, check=False)
            result.write_text(json.dumps({
                "returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr,
                "recipes_before": before, "recipes_after": recipe_digests()}))
    data = json.loads(result.read_text())
    return ExampleRun(folder=folder, **data)
