"""The plugin's step listeners: the ``pytest_webtask_step_*`` hooks, the ``-v`` line per
step, the live line while a step records, the HTML report and the export. Imported when a
test first uses a fixture."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..export.trail import Ran, Trail
from ..recipes.model import RecipeAction
from ..report.collect import ReportPart
from ..report.progress import Progress, for_terminal
from ..steps.listeners import StepListener
from ..steps.outcome import StepOutcome, StepRun
from ..types import Secrets, Usage
from .keys import EXPORT_PROPERTY
from .webtask_options import export_dir, parts_dir, report_path

if TYPE_CHECKING:
    from ..llm.base import LLMReply
    from ..llm.request import ModelRequest
    from ..tools.spec import ToolSpec


class HookRelay(StepListener):
    """Relays each step's end to ``pytest_webtask_step_done`` / ``pytest_webtask_step_failed``."""

    def __init__(self, item: pytest.Item) -> None:
        self.item = item

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        self.item.config.hook.pytest_webtask_step_done(item=self.item, outcome=outcome)

    def step_failed(self, run: StepRun, message: str, shot: bytes | None) -> None:
        self.item.config.hook.pytest_webtask_step_failed(
            item=self.item, kind=run.request.kind, text=run.request.text, message=message)


class StepLines(StepListener):
    """With -v, a line per step: how it ran, what it holds, how long it took, and for a step
    that called the model, what that cost (calls, tokens, seconds)."""

    def __init__(self, terminal: Any, capture: Any) -> None:
        self.terminal = terminal
        self.capture = capture
        self.used = Usage()  # the model's use since the step started

    def recording_started(self, run: StepRun) -> None:
        self.used = Usage()

    def model_call_finished(self, context: ModelRequest, reply: LLMReply) -> None:
        self.used.add(getattr(reply, "usage", None) or Usage(calls=1))

    def model_call_failed(self, context: ModelRequest, error: Exception) -> None:
        usage = getattr(error, "usage", None)
        if isinstance(usage, Usage):
            self.used.add(usage)

    @classmethod
    def for_terminal(cls, config: pytest.Config) -> StepLines | None:
        """The lines, or None without -v or a terminal (an xdist worker has none)."""
        terminal = config.pluginmanager.get_plugin("terminalreporter")
        if terminal is None or config.get_verbosity() < 1 or hasattr(config, "workerinput"):
            return None
        return cls(terminal, config.pluginmanager.get_plugin("capturemanager"))

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        step = outcome.recipe_step
        counts = (f"{len(outcome.items)} item(s)" if outcome.kind == "extract" else
                  f"{len(step.actions)} action(s), {len(step.checks)} check(s)")
        used, self.used = self.used, Usage()
        model = ""
        if outcome.how != "replayed" and (used.calls or used.timeouts or used.refusals):
            model = (f"; model: {used.calls} call(s), {used.total_tokens} tokens, "
                     f"{used.seconds:.1f}s" + _trouble(used))
        line = f"webtask {run.where}: {outcome.how} ({counts}, {outcome.seconds:.2f}s{model})"
        with self.capture.global_and_fixture_disabled() if self.capture else nullcontext():
            self.terminal.write_line("    " + line)


class LiveLine(StepListener):
    """The live line while a step records (report/progress.py): the step, its model calls,
    the time; erased when the recording ends."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress

    @classmethod
    def for_terminal(cls, config: pytest.Config) -> LiveLine | None:
        """The line, or None where nothing is drawn (-q, CI, an xdist worker, a pipe)."""
        progress = for_terminal(config)
        return cls(progress) if progress.live else None

    def recording_started(self, run: StepRun) -> None:
        self.progress.step_started(run.where)

    def model_call_started(self) -> None:
        self.progress.model_call()

    def model_call_finished(self, context: ModelRequest, reply: LLMReply) -> None:
        usage = getattr(reply, "usage", None)
        if isinstance(usage, Usage):
            self.progress.model_trouble(usage.timeouts, usage.refusals)

    def model_call_failed(self, context: ModelRequest, error: Exception) -> None:
        usage = getattr(error, "usage", None)
        if isinstance(usage, Usage):
            self.progress.model_trouble(usage.timeouts, usage.refusals)

    def recording_ended(self, run: StepRun) -> None:
        self.progress.step_finished()


class ReportListener(StepListener):
    """``--webtask-report``: fills the test's ``ReportPart`` (screenshots, model calls) and
    writes its fragment when the test ends."""

    wants_shots = True

    def __init__(self, report: ReportPart) -> None:
        self.report = report

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest, secrets: Secrets
                 ) -> ReportListener | None:
        path = report_path(request.config)
        if path is None:
            return None
        return cls(ReportPart(request.node.nodeid, parts_dir(path), secrets.mask))

    def model_call_finished(self, context: ModelRequest, reply: LLMReply) -> None:
        usage = getattr(reply, "usage", None)
        self.report.model_call(context.to_text(), getattr(reply, "text", str(reply)),
                               usage if isinstance(usage, Usage) else None)

    def model_call_failed(self, context: ModelRequest, error: Exception) -> None:
        usage = getattr(error, "usage", None)
        self.report.model_call(context.to_text(), "", usage if isinstance(usage, Usage)
                               else None, error=str(error))

    def action(self, run: StepRun, action: RecipeAction, shot: bytes | None) -> None:
        self.report.action(action, shot)

    def pictures(self, run: StepRun, pictures: dict[str, bytes]) -> None:
        self.report.pictures(pictures)

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        self.report.step_finished(outcome, shot)

    def step_failed(self, run: StepRun, message: str, shot: bytes | None) -> None:
        self.report.step_failed(run.request.kind, run.request.text, message,
                                time.monotonic() - run.started, shot)

    def test_finished(self, passed: bool) -> None:
        self.report.save("passed" if passed else "failed")


class ExportListener(StepListener):
    """``--webtask-export``: keeps the pages the test opened and the steps it ran (a
    ``Trail``), and writes the test's file when it has passed, or says in its user
    properties why not."""

    def __init__(self, item: pytest.Item, folder: Path, base_url: str | None,
                 test_name: str, recipe: Path | None = None,
                 tools: Mapping[str, type[ToolSpec]] | None = None) -> None:
        self.item = item
        self.tools = tools  # the plugins' tools by name: their code exports their actions
        self.folder = folder
        self.base_url = base_url
        self.test_name = test_name
        self.trail = Trail(recipe_folder=recipe.parent if recipe is not None else None)

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest, base_url: str | None,
                 test_name: str, recipe: Path | None = None,
                 tools: Mapping[str, type[ToolSpec]] | None = None) -> ExportListener | None:
        """The listener when ``--webtask-export`` is on; ``recipe``: the test's recipe
        file, beside which its baseline pictures are; ``tools``: the plugins' tools."""
        folder = export_dir(request.config)
        if folder is None:
            return None
        return cls(request.node, folder, base_url, test_name, recipe, tools)

    def page_opened(self, url: str) -> None:
        self.trail.goto(url)

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        request = run.request
        self.trail.step(outcome.recipe_step, request.variables, request.resources,
                        request.secrets)

    def test_finished(self, passed: bool) -> None:
        from ..export.writer import NotExportable, export

        node = self.item
        if not any(isinstance(e, Ran) for e in self.trail.events):
            return  # no step ran: nothing the export would add to the test
        if not passed:
            outcome = {"test": node.nodeid, "skipped": "the test did not pass"}
        else:
            try:
                path = export(self.trail, base_url=self.base_url, folder=self.folder,
                              test_name=self.test_name, module=node.path.stem,
                              origin=node.nodeid, tools=self.tools)
                outcome = {"test": node.nodeid, "path": str(path)}
            except NotExportable as exc:
                outcome = {"test": node.nodeid, "skipped": str(exc)}
        node.user_properties.append((EXPORT_PROPERTY, json.dumps(outcome)))


def _trouble(used: Usage) -> str:
    return ((f", {used.timeouts} timed out" if used.timeouts else "")
            + (f", {used.refusals} refused json_schema" if used.refusals else ""))
