"""An extraction recipe: bindings (abstract targets -> CSS selectors) and commands."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

ClickBehavior = Literal["shows_panel", "navigates", "inline"]
Target = Literal["page", "list", "details"]


class Condition(BaseModel):
    """Ready when ``exists`` is visible, or when ``gone`` is no longer visible."""

    model_config = ConfigDict(extra="forbid")
    exists: str | None = None
    gone: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Condition:
        if (self.exists is None) == (self.gone is None):
            raise ValueError("a condition has exactly one of 'exists' or 'gone'")
        return self


class Bindings(BaseModel):
    """Where things are on the page. ``DETAILS_PANEL`` and ``FIELDS`` selectors are looked up
    inside the clicked item when ``CLICK_BEHAVIOR`` is ``inline``, else on the page.
    ``LOAD_MORE_BUTTON`` adds items to the list in place (LOAD_MORE); ``DETAILS_CLOSE``
    closes a details panel or modal dialog (CLOSE_DETAILS; Escape when unset)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    LIST: str = "body"
    LIST_ITEM: str
    DETAILS_PANEL: str
    DETAILS_CONTENT: list[str] = Field(default_factory=list)
    CLICK_BEHAVIOR: ClickBehavior
    PAGE_LOADED: Condition = Field(default_factory=lambda: Condition(exists="body"))
    LIST_LOADED: Condition | None = None
    DETAILS_LOADED: Condition | None = None
    NEXT_PAGE_BUTTON: str | None = None
    LOAD_MORE_BUTTON: str | None = None
    DETAILS_CLOSE: str | None = None
    FIELDS: dict[str, str] = Field(default_factory=dict)

    def selectors(self) -> dict[str, str]:
        """Every selector by binding name, for verification and error messages."""
        out = {"LIST": self.LIST, "LIST_ITEM": self.LIST_ITEM, "DETAILS_PANEL": self.DETAILS_PANEL}
        out.update({f"DETAILS_CONTENT[{i}]": s for i, s in enumerate(self.DETAILS_CONTENT)})
        for name in ("NEXT_PAGE_BUTTON", "LOAD_MORE_BUTTON", "DETAILS_CLOSE"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        out.update({f"FIELDS.{k}": v for k, v in self.FIELDS.items()})
        return out


CommandType = Literal["WAIT_FOR", "FOR_EACH_ITEM_IN_LIST", "CLICK", "EXTRACT_DETAILS", "SAVE",
                      "MARK_DONE", "SCROLL", "REPEAT", "CLICK_IF_EXISTS", "END",
                      "FILL", "SELECT", "LOAD_MORE", "CLOSE_DETAILS"]


class Command(BaseModel):
    """One recipe command. ``target`` names a binding ('page', 'list', 'details',
    'next_page', 'load_more'); ``selector`` is an explicit CSS selector (generator fragments);
    ``body`` holds the nested commands of FOR_EACH_ITEM_IN_LIST and REPEAT."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: CommandType
    target: str | None = None
    selector: str | None = None
    value: str | None = None
    as_: str | None = Field(default=None, alias="as")
    body: list[Command] = Field(default_factory=list)
    times: int | None = None

    @model_validator(mode="after")
    def _shape(self) -> Command:
        if self.type in ("FOR_EACH_ITEM_IN_LIST", "REPEAT") and not self.body:
            raise ValueError(f"{self.type} needs a body")
        if self.type in ("FILL", "SELECT") and (self.selector is None or self.value is None):
            raise ValueError(f"{self.type} needs a selector and a value")
        return self


class ExtractionRecipe(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = "extract"
    name: str = "Extract items"
    commands: list[Command]
    config: dict[str, Any] = Field(default_factory=dict)


class GeneratedRecipe(BaseModel):
    """RecipeGenerator's single JSON reply (phase 3)."""

    model_config = ConfigDict(extra="ignore")
    bindings: Bindings
    recipe: ExtractionRecipe


class Fragment(BaseModel):
    """A generator's reply (phase 2): commands that set up the list (search, filter, sort)."""

    model_config = ConfigDict(extra="ignore")
    fragment: list[Command] = Field(min_length=1)


class StepOfStrategy(BaseModel):
    """One StrategyPlanner turn: a tool call, or the final English strategy."""

    model_config = ConfigDict(extra="ignore")
    # "reason" and "parameters" are the words (GLOSSARY.md); "thought" and "args" are still
    # read, as replies and scripts written before the rename use them.
    reason: str = Field(default="", validation_alias=AliasChoices("reason", "thought"))
    tool: Literal["probeClick", "describeElement", "scrollAndObserve"] | None = None
    parameters: dict[str, Any] = Field(default_factory=dict,
                                       validation_alias=AliasChoices("parameters", "args"))
    strategy: str | None = None

    @model_validator(mode="after")
    def _one(self) -> StepOfStrategy:
        if (self.tool is None) == (self.strategy is None):
            raise ValueError("reply with either a tool call or the final strategy")
        return self
