"""Healing a visual check, shared by both twins: what the model is asked, what it may
answer, and what the heal changes.

A changed picture is the outcome under test, so it is never healed blindly: the model is
shown the statement, the baseline and the new picture, and must say the statement still
holds of the new one. Only then does the new picture become the baseline; the heal shows in
the terminal summary as a visual change, for review, like any heal.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..errors import PictureMismatch
from ..llm.request import Block, ModelRequest
from ..recipes.model import Check, RecipeStep

SYSTEM = ("You review a visual check of a web test. A region of the page was recorded as a "
          "picture proving a statement; the region now looks different. Say whether the NEW "
          "picture still proves the statement (a harmless rendering change: fonts, "
          "anti-aliasing, a slightly different layout) or not (the data, colours, or "
          "content the statement is about changed). Reply with JSON only: "
          '{"holds": true or false, "reason": "one sentence"}.')

SCHEMA = {"type": "object", "properties": {
    "holds": {"type": "boolean"},
    "reason": {"type": "string", "maxLength": 300}},
    "required": ["holds", "reason"], "additionalProperties": False}


class Verdict(BaseModel):
    """The model's answer: does the new picture still show the statement?"""

    model_config = ConfigDict(extra="ignore")
    holds: StrictBool
    reason: str = Field(default="", max_length=1000)


def ask_context(statement: str, pictures: dict[str, bytes]) -> ModelRequest:
    """The request: the statement, then the recorded picture, then the new one."""
    return ModelRequest(
        system=SYSTEM, purpose="visual-heal", task=statement, response_schema=SCHEMA,
        blocks=[Block(f"Statement: {statement}"),
                Block("The recorded picture (the baseline):", image=pictures["expected"]),
                Block("The picture now:", image=pictures["actual"])])


def changed_step(recorded: RecipeStep, index: int, png: bytes, size: tuple[int, int]
                 ) -> RecipeStep:
    """``recorded`` with check ``index``'s baseline replaced by ``png`` (written beside the
    recipe, under the same file name, when the recipe is)."""
    checks = list(recorded.checks)
    check = checks[index]
    assert check.screenshot is not None
    checks[index] = check.model_copy(update={
        "screenshot": check.screenshot.with_png(png, size)})
    return recorded.model_copy(update={"checks": checks})


def visual_change(index: int, check: Check, failure: PictureMismatch, verdict: Verdict
                  ) -> str:
    """The heal's line in the terminal summary."""
    shot = check.screenshot
    assert shot is not None
    why = str(failure).split("instead: ", 1)[-1].split("\n", 1)[0]
    return (f"check {index + 1}: visual change of {shot.file} ({why}); the model says it "
            f"still shows {shot.shows!r}: {verdict.reason}")
