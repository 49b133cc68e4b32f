"""The recipe file: what a test's steps did, in a form people can read, review and edit."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..browser.fingerprint import Fingerprint
from ..extraction.model import Bindings, ExtractionRecipe
from ..extraction.targets import Target

RECIPE_VERSION = 1


class Check(BaseModel):
    """One deterministic assertion about the page, re-run on every replay.

    Exactly one of: ``element`` (visible, its text equal to ``text`` or matching ``pattern``),
    ``text`` alone (visible somewhere on the page), or ``url_path``.
    ``pattern`` replaces ``text`` when the text held values that change between runs
    (order numbers, dates); ``text`` then stays as what was seen, for people.
    """

    model_config = ConfigDict(extra="forbid")

    element: Fingerprint | None = None
    text: str | None = None
    pattern: str | None = None
    url_path: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Check:
        if self.url_path is None and self.text is None and self.pattern is None:
            raise ValueError("a check needs element + text, text, or url_path")
        return self

    def describe(self) -> str:
        what = self.pattern and f"text matching /{self.pattern}/" or f"text {self.text!r}"
        if self.url_path is not None:
            return f"URL path is {self.url_path!r}"
        if self.element is not None:
            return f"{self.element.describe()} is visible with {what}"
        return f"{what} is visible on the page"


class RecipeAction(BaseModel):
    """One action: the tool, its parameters (placeholders kept), and its target's
    fingerprint (never an element id)."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    reason: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    target: Fingerprint | None = None


class Extraction(BaseModel):
    """An extract step's generated recipe (seed 003): bindings and commands, run with no LLM.
    ``targets`` are the bindings' fingerprints (what each selector matched when recorded;
    recipes recorded before them replay by CSS alone); ``recorded_items`` is how many items
    the recording read."""

    model_config = ConfigDict(extra="forbid")

    fields: list[str] = Field(default_factory=list)
    recorded_items: int | None = None
    bindings: Bindings
    recipe: ExtractionRecipe
    targets: dict[str, Target] = Field(default_factory=dict)


class RecipeStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["do", "check", "extract"]
    text: str
    url: str = ""
    actions: list[RecipeAction] = Field(default_factory=list)
    checks: list[Check] = Field(default_factory=list)
    extraction: Extraction | None = None
    message: str = ""

    @model_validator(mode="after")
    def _extraction_iff_extract(self) -> RecipeStep:
        if (self.kind == "extract") != (self.extraction is not None):
            raise ValueError("an extract step, and only an extract step, has an 'extraction'")
        return self

    def describe(self) -> str:
        return f"{self.kind}({self.text!r})"


class Recipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = RECIPE_VERSION
    test: str
    steps: list[RecipeStep] = Field(default_factory=list)
