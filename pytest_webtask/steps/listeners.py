"""Who hears what a test's steps do: one interface, one list. The plugin's listeners (the
``-v`` line, the live line while recording, the HTML report, the export and the
``pytest_webtask_step_*`` hooks) each take the events they need; the rest are no-ops.

Shared by both twins: every event is a plain call. What needs the page (the report's
screenshots) is taken by the pipeline and handed in, only when a listener ``wants_shots``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import LLMError
from ..llm.base import LLM, LLMReply
from ..llm.request import ModelRequest
from ..recipes.model import RecipeAction
from .outcome import StepOutcome, StepRun


class StepListener:
    """Hears a test's steps. Override the events you need; each default does nothing."""

    wants_shots = False  # the pipeline passes screenshots (masked JPEG) only if one asks

    def page_opened(self, url: str) -> None:
        """``goto(url)`` opened ``url`` (absolute)."""

    def recording_started(self, run: StepRun) -> None:
        """``run`` has no recipe step to replay: the agent records it now."""

    def model_call_started(self) -> None:
        """The model is asked, while a step records."""

    def model_call_finished(self, context: ModelRequest, reply: LLMReply) -> None:
        """The model replied: its context (``to_text()``: the prompt) and its reply (its
        ``usage``: tokens, seconds, timeouts and refusals on the way)."""

    def model_call_failed(self, context: ModelRequest, error: Exception) -> None:
        """The model failed (an ``LLMError``, whose ``usage`` may say what it cost: a
        timeout); the step goes on or fails as the agent decides."""

    def recording_ended(self, run: StepRun) -> None:
        """The recording of ``run`` is over, whatever its end (always after
        ``recording_started``)."""

    def action(self, run: StepRun, action: RecipeAction, shot: bytes | None) -> None:
        """A replayed action is about to act; ``shot``: its target, boxed."""

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        """The step replayed, healed or recorded; ``shot``: the page after it."""

    def pictures(self, run: StepRun, pictures: dict[str, bytes]) -> None:
        """A visual check's pictures (``expected``, ``actual``, ``diff`` PNGs), told before
        the step fails or, for a heal, before it finishes."""

    def step_failed(self, run: StepRun, message: str, shot: bytes | None) -> None:
        """The step fails the test with ``message`` (secrets masked); ``shot``: the page."""

    def test_finished(self, passed: bool) -> None:
        """The test is over (its recipe already stored)."""


class Listeners(StepListener):
    """The listeners of one test, told of each event in their order."""

    def __init__(self, listeners: Sequence[StepListener] = ()) -> None:
        self.listeners = list(listeners)
        self.wants_shots = any(listener.wants_shots for listener in self.listeners)

    def page_opened(self, url: str) -> None:
        for listener in self.listeners:
            listener.page_opened(url)

    def recording_started(self, run: StepRun) -> None:
        for listener in self.listeners:
            listener.recording_started(run)

    def model_call_started(self) -> None:
        for listener in self.listeners:
            listener.model_call_started()

    def model_call_finished(self, context: ModelRequest, reply: LLMReply) -> None:
        for listener in self.listeners:
            listener.model_call_finished(context, reply)

    def model_call_failed(self, context: ModelRequest, error: Exception) -> None:
        for listener in self.listeners:
            listener.model_call_failed(context, error)

    def recording_ended(self, run: StepRun) -> None:
        for listener in self.listeners:
            listener.recording_ended(run)

    def action(self, run: StepRun, action: RecipeAction, shot: bytes | None) -> None:
        for listener in self.listeners:
            listener.action(run, action, shot)

    def step_finished(self, run: StepRun, outcome: StepOutcome, shot: bytes | None) -> None:
        for listener in self.listeners:
            listener.step_finished(run, outcome, shot)

    def pictures(self, run: StepRun, pictures: dict[str, bytes]) -> None:
        for listener in self.listeners:
            listener.pictures(run, pictures)

    def step_failed(self, run: StepRun, message: str, shot: bytes | None) -> None:
        for listener in self.listeners:
            listener.step_failed(run, message, shot)

    def test_finished(self, passed: bool) -> None:
        for listener in self.listeners:
            listener.test_finished(passed)

    def heard(self, llm: LLM) -> LLM:
        """``llm``, telling the listeners of each call (the same object when none hears)."""
        return _Heard(llm, self) if self.listeners else llm


class _Heard:
    """A model whose every call the listeners hear; everything else passes through."""

    def __init__(self, llm: LLM, listeners: Listeners) -> None:
        self._llm = llm
        self._started: Callable[[], None] = listeners.model_call_started
        self._finished: Callable[[ModelRequest, LLMReply], None] = listeners.model_call_finished
        self._failed: Callable[[ModelRequest, Exception], None] = listeners.model_call_failed

    def generate(self, context: ModelRequest) -> LLMReply:
        self._started()
        try:
            reply = self._llm.generate(context)
        except LLMError as exc:
            self._failed(context, exc)
            raise
        self._finished(context, reply)
        return reply

    async def agenerate(self, context: ModelRequest) -> LLMReply:
        self._started()
        try:
            reply = await self._llm.agenerate(context)
        except LLMError as exc:
            self._failed(context, exc)
            raise
        self._finished(context, reply)
        return reply

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llm, name)
