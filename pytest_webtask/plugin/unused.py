"""Unused recipes and recipe steps, found the way syrupy finds unused snapshots.

A run is complete only when every collected test was selected and every selected test ran:
then a recipe file no test used (in a folder of a test module that ran) is unused, and so are
the steps at the end of a recipe its passing test no longer reaches. On any other run
(``-k``, node ids, a conftest or plugin that deselects, CI shards, ``--sw``, ``-x``, an
interrupted run) nothing is called unused. ``--webtask-prune`` deletes them, on a complete
run only.

Works under pytest-xdist: each worker says whether its collection was whole; the controller
sees which tests ran.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ..recipes.naming import RECIPE_DIR, recipe_file_stem, recipe_test_name

WORKER_KEY = "webtask_collection"


@dataclass(eq=False)  # a plugin object: pluggy hashes it
class RunTracker:
    """What was collected, selected and run in this process (or, on the xdist controller,
    what the workers said)."""

    collected: set[str] = field(default_factory=set)
    selected: list[str] = field(default_factory=list)
    ran: set[str] = field(default_factory=set)
    collect_errors: int = 0
    narrowed: bool = False  # node ids on the command line: their modules ran in part
    worker_problems: list[str] = field(default_factory=list)
    stopped: str = ""

    # -- hooks ----------------------------------------------------------------------------

    def pytest_itemcollected(self, item: pytest.Item) -> None:
        self.collected.add(item.nodeid)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors += 1

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.selected = [item.nodeid for item in session.items]
        config = session.config
        # node ids name part of a module; --lf leaves passing modules uncollected
        self.narrowed = any("::" in str(arg) for arg in config.args) \
            or bool(getattr(config.option, "lf", False))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.ran.add(report.nodeid)

    @pytest.hookimpl(optionalhook=True)  # xdist's hooks, when it is loaded
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.selected = list(ids)  # the controller: every worker collects the same

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        said = getattr(node, "workeroutput", {}).get(WORKER_KEY)
        if error or said is None:
            self.worker_problems.append("a worker stopped before the end")
        elif said:
            self.worker_problems.append(said)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if session.shouldstop or session.shouldfail:
            self.stopped = str(session.shouldstop or session.shouldfail)
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: the controller decides
            workeroutput[WORKER_KEY] = self.collection_problem() or ""

    # -- verdict --------------------------------------------------------------------------

    def collection_problem(self) -> str:
        if self.narrowed:
            return "test ids or --lf narrowed the collection"
        if self.collect_errors:
            return f"{self.collect_errors} collection error(s)"
        if self.collected and set(self.selected) != self.collected:
            left = len(self.collected - set(self.selected))
            return f"{left} of {len(self.collected)} collected test(s) were not selected"
        return ""

    def incomplete(self) -> str:
        """Why this run is not the whole suite, or "" when it is."""
        problem = self.collection_problem() or "; ".join(dict.fromkeys(self.worker_problems))
        if problem:
            return problem
        if self.stopped:
            return f"the run stopped early ({self.stopped})"
        missed = [n for n in self.selected if n not in self.ran]
        if missed:
            return f"{len(missed)} selected test(s) did not run"
        return ""


@dataclass
class RecipeUse:
    """What one test's fixture used: its recipe file and how many steps a passing test ran
    (``steps_used`` is None when the test did not pass)."""

    path: str
    steps_used: int | None
    steps_recorded: int

    def to_json(self) -> str:
        return json.dumps({"path": self.path, "steps_used": self.steps_used,
                           "steps_recorded": self.steps_recorded})

    @classmethod
    def from_json(cls, text: str) -> RecipeUse | None:
        try:
            data = json.loads(text)
            return cls(str(data["path"]), data["steps_used"], int(data["steps_recorded"]))
        except (ValueError, KeyError, TypeError):
            return None

    @property
    def unused_steps(self) -> int:
        if self.steps_used is None:
            return 0
        return max(0, self.steps_recorded - self.steps_used)


BROWSERS = ("chromium", "firefox", "webkit")  # pytest-playwright's browser_name values


def unused_recipes(rootpath: Path, nodeids: set[str] | list[str],
                   recipe_names: dict[str, str] | None = None,
                   used_paths: set[str] | None = None) -> list[Path]:
    """Recipe files of test modules that ran, whose test did not (syrupy's rule).
    ``recipe_names`` holds the name each test's fixture used, ``used_paths`` the files the
    fixtures read (``webtask_recipe_path`` may point anywhere). A test that never reached
    its fixture (skipped, or its setup failed) keeps every name its node id may stand for,
    with or without a browser id: a recipe is called unused only when no test can be its."""
    by_module: dict[Path, set[str]] = {}
    for nodeid in nodeids:
        if "::" not in nodeid:
            continue
        module_id, tail = nodeid.split("::", 1)
        known = (recipe_names or {}).get(nodeid)
        names = {known} if known else \
            {recipe_test_name(tail)} | {recipe_test_name(tail, b) for b in BROWSERS}
        by_module.setdefault(rootpath / module_id, set()).update(names)
    used = {str(Path(p).resolve()) for p in used_paths or ()}
    unused = []
    for module, names in by_module.items():
        folder = module.parent / RECIPE_DIR / module.stem
        if folder.is_dir():
            wanted = {recipe_file_stem(n) for n in names}
            unused += [p for p in sorted(folder.glob("*.yaml"))
                       if p.stem not in wanted and str(p.resolve()) not in used
                       and not p.name.endswith(".healed.yaml")]
    return unused


def unused_pictures(unused: list[Path], folders: set[Path]) -> list[Path]:
    """Baseline pictures in these recipe folders that no recipe there names, the
    ``unused`` recipes left out (their pictures go with them). Proposals of
    ``--webtask-heal=suggest`` (``*.healed.png``) are left for their review, and a folder
    with a recipe that can't be read keeps every picture."""
    if not folders:  # a run of no webtask test: no YAML to import
        return []
    import yaml

    gone = {p.resolve() for p in unused}
    out: list[Path] = []
    for folder in sorted(folders):
        named: set[str] = set()
        try:
            for recipe in folder.glob("*.yaml"):
                if recipe.resolve() not in gone:
                    named |= _pictures_named(yaml.safe_load(recipe.read_text("utf-8")))
        except (OSError, ValueError, yaml.YAMLError):
            continue
        out += [p for p in sorted(folder.glob("*.png"))
                if p.name not in named and not p.name.endswith(".healed.png")]
    return out


def _pictures_named(recipe: Any) -> set[str]:
    """The baseline files a recipe's screenshot checks name (read as plain YAML: any
    version)."""
    steps = recipe.get("steps", []) if isinstance(recipe, dict) else []
    return {str(check["screenshot"]["file"])
            for step in steps if isinstance(step, dict)
            for check in step.get("checks") or [] if isinstance(check, dict)
            and isinstance(check.get("screenshot"), dict) and check["screenshot"].get("file")}


def recipe_folders(rootpath: Path, nodeids: set[str] | list[str]) -> set[Path]:
    """The recipe folders of the test modules these tests are in."""
    modules = {rootpath / n.split("::", 1)[0] for n in nodeids if "::" in n}
    return {m.parent / RECIPE_DIR / m.stem for m in modules
            if (m.parent / RECIPE_DIR / m.stem).is_dir()}


def prune_steps(use: RecipeUse) -> bool:
    """Cut the recipe of a passing test down to the steps it ran."""
    from ..recipes.storage import load_recipe, save_recipe

    path = Path(use.path)
    recipe = load_recipe(path)
    if recipe is None or use.steps_used is None or len(recipe.steps) <= use.steps_used:
        return False
    if use.steps_used == 0:  # the test no longer runs any step: nothing is left to keep
        path.unlink()
        return True
    save_recipe(path, recipe.model_copy(update={"steps": recipe.steps[:use.steps_used]}))
    return True
