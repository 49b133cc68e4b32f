"""The ``webtask`` section of the terminal summary: step counts, model use, heals, weak
steps, unused recipes and unused recipe steps (what ``--webtask-prune`` removed, when it did).

Counts travel in ``user_properties`` as JSON text, so this works on the xdist controller and in
JUnit XML. Deleting is not done here: ``pytest_sessionfinish`` prunes, this only reports.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..errors import WebtaskError
from .unused import (
    RecipeUse,
    RunTracker,
    prune_steps,
    recipe_folders,
    unused_pictures,
    unused_recipes,
)


class TerminalSummary:
    """Sums each test's step counts (they travel in ``user_properties`` as JSON text, so this
    works on the xdist controller and in JUnit XML) and writes the terminal summary."""

    def __init__(self, config: pytest.Config, tracker: RunTracker) -> None:
        from ..steps.stats import StepStats

        self.config = config
        self.tracker = tracker
        self.stats = StepStats()
        self.recipe_names: dict[str, str] = {}  # node id -> recipe name, from the fixture
        self.uses: list[RecipeUse] = []
        self.used_paths: set[str] = set()
        self.partial = ""  # set at session finish, as the lists below
        self.unused: list[Path] = []
        self.pictures: list[Path] = []  # baseline PNGs no recipe names
        self.steps: list[RecipeUse] = []
        self.prune = False
        self.problems: dict[str, str] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        for key, value in report.user_properties:
            if key == "webtask_recipe" and isinstance(value, str):
                self.recipe_names[report.nodeid] = value
            elif key == "webtask_recipe_path" and isinstance(value, str):
                self.used_paths.add(value)
            elif key == "webtask" and isinstance(value, str):
                try:
                    counts = json.loads(value)
                except ValueError:
                    continue
                for name, count in counts.items():
                    setattr(self.stats, name, getattr(self.stats, name) + count)
            elif key == "webtask_recipe_use" and isinstance(value, str):
                use = RecipeUse.from_json(value)
                if use is not None:
                    self.uses.append(use)

    @pytest.hookimpl(wrapper=True)  # after every other plugin's (the run tracker's) finish
    def pytest_sessionfinish(self) -> Any:
        """Decide what is unused (on a complete run only) and, with ``--webtask-prune``,
        delete the unused recipes and cut the unused steps; the summary reports it."""
        result = yield
        self._settle()
        return result

    def _settle(self) -> None:
        self.partial = self.tracker.incomplete()
        self.unused = [] if self.partial else unused_recipes(
            self.config.rootpath, self.tracker.selected, self.recipe_names, self.used_paths)
        self.pictures = [] if self.partial else unused_pictures(
            self.unused, recipe_folders(self.config.rootpath, self.tracker.selected))
        self.steps = [u for u in self.uses if u.unused_steps]
        self.prune = bool(self.config.getoption("webtask_prune"))
        self.problems = {}  # path -> why it could not be deleted or cut
        if not self.prune or self.partial:
            return
        for path in [*self.unused, *self.pictures]:
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                self.problems[str(path)] = f"could not delete it: {exc}"
        for use in self.steps:
            try:
                prune_steps(use)
            except (OSError, WebtaskError) as exc:
                self.problems[use.path] = f"could not cut it: {exc}"

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        st = self.stats
        partial, unused, steps, prune = self.partial, self.unused, self.steps, self.prune
        pictures = self.pictures
        if not (st.replayed or st.recorded or st.healed or st.failed or unused or pictures
                or st.weak
                or st.unverified or st.exposed or steps or prune):
            return
        tr = terminalreporter
        tr.section("webtask")
        healed = f"{st.healed} healed, " if st.healed or st.heals else ""
        tr.write_line(f"{st.replayed} step(s) replayed, {st.recorded} recorded, {healed}"
                      f"{st.failed} failed")
        tr.write_line(_model_use(st))
        if st.heals or st.heal_llm_calls:
            tr.write_line(f"Heals: {len(st.heals)} accepted, {st.heal_llm_calls} model call(s) "
                          "spent healing; what changed (checks untouched):")
            for heal in st.heals:
                for line in heal.splitlines():
                    tr.write_line(f"  {line}")
        if st.weak:
            tr.write_line(f"{len(st.weak)} recorded step(s) have no check that discriminates "
                          "(every check already held before the step ran, so a replay can't "
                          "tell whether the step worked); add a check(...) after each, or "
                          "run with --webtask-strict to fail them:")
            for where in st.weak:
                tr.write_line(f"  {where}")
        _unchecked(tr, st)
        if prune and partial:
            tr.write_line(f"--webtask-prune: nothing deleted, this run is not the whole suite "
                          f"({partial}); prune on a run of every test.")
        for files, what, why in ((unused, "recipe(s)", "their tests are gone or renamed"),
                                 (pictures, "baseline picture(s)", "no recipe names them")):
            if not files:
                continue
            verb = "deleted" if prune else f"unused: {why} (--webtask-prune deletes them)"
            tr.write_line(f"{len(files)} {what} {verb}:")
            for path in files:
                tr.write_line(f"  {self._shown(path)}")
                if str(path) in self.problems:
                    tr.write_line(f"    {self.problems[str(path)]}")
        if steps:
            verb = "cut" if prune and not partial else \
                "have steps at their end that their passing test no longer runs" + \
                ("" if partial else " (--webtask-prune cuts them)")
            tr.write_line(f"{len(steps)} recipe(s) {verb}:")
            for use in steps:
                tr.write_line(f"  {self._shown(Path(use.path))}: {use.unused_steps} unused "
                              "step(s)")
                if use.path in self.problems:
                    tr.write_line(f"    {self.problems[use.path]}")

    def _shown(self, path: Path) -> Path:
        root = self.config.rootpath
        return path.relative_to(root) if path.is_relative_to(root) else path


def _model_use(st: Any) -> str:
    """The run's model use: calls and tokens, and the seconds spent waiting on the model, the
    requests that timed out and the reply formats refused, where there were any."""
    if not (st.llm_calls or st.llm_timeouts or st.llm_refusals):
        return "LLM: 0 calls"
    line = f"LLM: {st.llm_calls} call(s)"
    if st.prompt_tokens + st.completion_tokens:
        line += f", {st.prompt_tokens} prompt + {st.completion_tokens} completion tokens"
    elif st.llm_calls:
        line += " (the model reported no token counts)"
    if st.llm_seconds:
        line += f", {st.llm_seconds:.1f}s waiting for the model"
    if st.llm_timeouts:
        line += f", {st.llm_timeouts} timed out"
    if st.llm_refusals:
        line += f", {st.llm_refusals} refusal(s) of json_schema"
    return line


def _unchecked(tr: Any, st: Any) -> None:
    """Replays that verified nothing, and secrets a page showed before they could be masked
    (the pictures that may show them were dropped)."""
    if st.unverified:
        tr.write_line(f"{len(st.unverified)} replayed step(s) verified nothing (the recipe "
                      "step has no check, or only checks that held before it, so it passes "
                      "whatever the page did); record each again or add a check(...) after "
                      "it, or run with --webtask-strict to fail them:")
        for where in st.unverified:
            tr.write_line(f"  {where}")
    if st.exposed:
        tr.write_line(f"{len(st.exposed)} element(s) showed a secret that was not masked "
                      "before it was drawn (text the page wrote, or a field no step typed it "
                      "into), so earlier pictures may show it: the screencast frames of these "
                      "tests' traces were dropped and their videos deleted:")
        for where in st.exposed:
            tr.write_line(f"  {where}")
