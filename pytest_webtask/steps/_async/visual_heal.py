"""AsyncVisualHeal: a visual check whose picture changed, re-recorded only when the model,
shown the baseline and the new picture, says the statement still holds (see
``steps/visual_heal.py``); else the test fails with the three pictures."""

from __future__ import annotations

from ...agent.parsing import InvalidReply, parse_model
from ...errors import PictureMismatch, WebtaskError
from ...recipes.model import RecipeStep
from ...recipes.pixels import png_size
from ..heal import refusal
from ..outcome import Heal
from ..visual_heal import Verdict, ask_context, changed_step, visual_change
from .harness import AsyncStepHarness


class AsyncVisualHeal:
    """Heals one visual check or fails the test with its pictures."""

    def __init__(self, harness: AsyncStepHarness) -> None:
        self.harness = harness

    async def heal_or_fail(self, recorded: RecipeStep, failure: PictureMismatch,
                           message: str) -> Heal:
        """The heal, when the model says the new picture still shows what the check
        states; fails the test otherwise."""
        harness = self.harness
        pictures = failure.pictures
        why_not = refusal(harness.settings, harness.fix_command)
        check_index = failure.check_index
        if why_not is not None or "diff" not in pictures or check_index is None:
            await harness.fail(message + (why_not or ""), pictures)
        check = recorded.checks[check_index]
        assert check.screenshot is not None
        llm = await harness.llm(f"{message}\n  Healing was not tried: ")
        if not getattr(llm, "supports_images", False):
            await harness.fail(message + "\n  Healing was not tried: a visual check is healed "
                               "only by a model that sees images (supports_images)", pictures)
        request = ask_context(check.screenshot.shows or recorded.text, pictures)
        try:
            reply = await llm.agenerate(request)
        except WebtaskError as exc:
            await harness.fail(f"{message}\n  A heal was tried and failed: {exc}", pictures)
        harness.count(reply.usage, heal=True)
        try:
            verdict = parse_model(reply.text, Verdict)
        except InvalidReply as exc:
            await harness.fail(f"{message}\n  A heal was tried and rejected: the model's "
                               f"reply was not a verdict ({exc})", pictures)
        if not verdict.holds:
            await harness.fail(f"{message}\n  A heal was tried and rejected, the recipe is "
                               f"unchanged: the model says the statement no longer holds: "
                               f"{verdict.reason}", pictures)
        actual = pictures["actual"]
        healed = changed_step(recorded, check_index, actual, png_size(actual))
        harness.pictures(pictures)  # shown in the report beside the healed step
        return Heal(healed, [visual_change(check_index, check, failure, verdict)],
                    "1 model call(s)")
