"""AsyncHealer: re-does a replayed step whose element drifted, and keeps the new actions only
when the step's recorded checks hold afterwards (see ``steps/heal.py``)."""

from __future__ import annotations

import logging
from typing import NoReturn

from ...errors import ElementError, ReplayError, WebtaskError
from ...recipes.diff import action_diff
from ...recipes.model import RecipeStep
from ...recipes.patterns import user_patterns
from ..compile import compile_step
from ..heal import refusal
from ..outcome import StepRun
from .pipeline import AsyncPipeline

log = logging.getLogger("pytest_webtask")


class AsyncHealer:
    """Heals one step of ``pipe`` or fails the test saying why not."""

    def __init__(self, pipe: AsyncPipeline, run: StepRun, max_steps: int) -> None:
        self.pipe = pipe
        self.run = run
        self.max_steps = max_steps

    async def heal(self, recorded: RecipeStep, failure: ElementError, message: str) -> None:
        """``failure`` stopped the replay of ``recorded`` (``message`` says so). Returns with
        ``run.healed``/``run.heal_diff`` set (or the step suggested) when the heal holds."""
        pipe, run, s = self.pipe, self.run, self.pipe.settings
        why_not = refusal(s, pipe.fix_command)
        if why_not is not None:
            await pipe.fail(message + why_not, run)
        llm = await pipe.llm(run, f"{message}\n  Healing was not tried: ")
        start_url = pipe.page.url
        budget = pipe.budget(s.heal_max_llm_calls, "webtask_heal_max_llm_calls")
        agent = await pipe.runner(llm, self.max_steps, run, budget=budget)
        ctx = run.ctx
        result, stopped = None, ""
        try:
            result = await agent.execute(run.request.agent_task or run.request.text,
                                         self.max_steps, ctx.resources, ctx.variables,
                                         ctx.secrets)
        except WebtaskError as exc:
            stopped = str(exc)
        finally:
            pipe.page = agent.page
        pipe.count(agent.usage)
        pipe.stats.heal_llm_calls += agent.usage.calls
        calls = f"{agent.usage.calls} model call(s)"
        if result is None or not result.completed:
            why = stopped or (result.message if result is not None else "")
            await self._reject(message, f"the model could not re-do the step ({calls}): {why}")
        assert result is not None
        done = compile_step("do", run.request.text, result, ctx, pipe.base_url, start_url,
                            user_patterns(s.dynamic))
        # the actions before the failing one ran as recorded; the model's replace the rest
        healed = recorded.model_copy(update={
            "actions": recorded.actions[:failure.index] + done.actions})
        try:
            await pipe.replayer(run).run_checks(recorded.checks, run.where + " after the heal")
        except ReplayError as exc:
            await self._reject(message, f"the model re-did the step ({calls}), but the "
                               f"step's recorded checks did not hold afterwards: {exc}")
        diff = action_diff(recorded.actions, healed.actions)
        if not diff:  # the recorded actions worked the second time: nothing to change
            log.warning("%s: healed with the recorded actions (%s)", run.where, calls)
            return
        self._accept(healed, diff, calls)

    def _accept(self, healed: RecipeStep, diff: list[str], calls: str) -> None:
        pipe, run = self.pipe, self.run
        suggest = pipe.settings.heal == "suggest"
        if suggest:
            pipe.session.suggest(run.index, healed)
        else:
            run.healed = healed
        run.heal_diff = diff
        where = f"{pipe.session.test_name}: {run.where} ({calls}; " + (
            f"proposed in {pipe.session.healed_path.name})" if suggest else "recipe rewritten)")
        pipe.stats.heals.append("\n".join([where, *(f"    {line}" for line in diff)]))
        log.warning("healed %s", "\n".join([where, *diff]))
        path = pipe.artifact_path(f"webtask-heal-{run.index + 1}.txt")
        if path is not None:  # beside the test's other artifacts, for the report
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(run.ctx.redact("\n".join([where, *diff])) + "\n",
                                encoding="utf-8")
            except OSError as exc:
                log.warning("could not save the heal's diff: %s", exc)

    async def _reject(self, message: str, why: str) -> NoReturn:
        await self.pipe.fail(f"{message}\n  A heal was tried and rejected, the recipe is "
                             f"unchanged: {why}", self.run)
