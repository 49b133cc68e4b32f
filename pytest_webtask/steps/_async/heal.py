"""AsyncHealer: re-does a replayed step whose element drifted, and keeps the new actions only
when the step's recorded checks hold afterwards (see ``steps/heal.py``)."""

from __future__ import annotations

import logging
from typing import NoReturn

from ...errors import ElementError, ReplayError
from ...recipes.diff import action_diff
from ...recipes.model import RecipeStep
from ...recipes.patterns import user_patterns
from ..compile import compile_step
from ..heal import refusal
from ..outcome import Heal
from .harness import AsyncStepHarness

log = logging.getLogger("pytest_webtask")


class AsyncHealer:
    """Heals one step or fails the test saying why not."""

    def __init__(self, harness: AsyncStepHarness, max_steps: int) -> None:
        self.harness = harness
        self.max_steps = max_steps

    async def heal(self, recorded: RecipeStep, failure: ElementError, message: str
                   ) -> Heal | None:
        """``failure`` stopped the replay of ``recorded`` (``message`` says so). Returns with
        the heal when it holds (the pipeline keeps it or proposes it), None when the recorded
        actions worked the second time; fails the test otherwise."""
        harness = self.harness
        run, s = harness.run, harness.settings
        why_not = refusal(s, harness.fix_command)
        if why_not is not None:
            await harness.fail(message + why_not)
        llm = await harness.llm(f"{message}\n  Healing was not tried: ")
        start_url = harness.page.url
        attempt = await harness.run_agent(llm, self.max_steps, heal=True)
        result = attempt.result
        calls = f"{attempt.usage.calls} model call(s)"
        if result is None or not result.completed:
            why = attempt.stopped or (result.message if result is not None else "")
            await self._reject(message, f"the model could not re-do the step ({calls}): {why}")
        done = compile_step("do", run.request.text, result, run.values, harness.base_url,
                            start_url, user_patterns(s.dynamic), harness.tools)
        # the actions before the failing one ran as recorded; the model's replace the rest
        healed = recorded.model_copy(update={
            "actions": recorded.actions[:failure.index] + done.actions})
        checker = harness.replayer()
        checker.starts = dict(harness.starts)  # counted before the replay's first action
        # what the heal's actions downloaded (a download of the actions replayed before the
        # failing one is not held: such a step's download check fails the heal)
        checker.downloads = [f for s in result.steps for e in s.executions
                             for f in e.downloads]
        try:
            await checker.run_checks(recorded.checks, run.where + " after the heal")
        except ReplayError as exc:
            await self._reject(message, f"the model re-did the step ({calls}), but the "
                               f"step's recorded checks did not hold afterwards: {exc}")
        diff = action_diff(recorded.actions, healed.actions)
        if not diff:  # the recorded actions worked the second time: nothing to change
            log.warning("%s: healed with the recorded actions (%s)", run.where, calls)
            return None
        return Heal(healed, diff, calls)

    async def _reject(self, message: str, why: str) -> NoReturn:
        await self.harness.fail(f"{message}\n  A heal was tried and rejected, the recipe is "
                                f"unchanged: {why}")
