"""Parsing and validating the proposer's reply."""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from ..types import Action
from .models import ProposalResult


class InvalidReply(Exception):
    """The reply is not the JSON object the prompt asks for; ``str()`` says why."""


class _ActionModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    reason: str = ""
    tool: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)


class EvidenceSpec(BaseModel):
    """One typed claim the model makes about the page (see the proposer prompt); a replay
    checks it again. A plain string in ``evidence`` is an element id or an exact visible
    text."""

    model_config = ConfigDict(extra="forbid")
    expect: Literal["visible", "hidden", "text", "count", "each", "nth", "order", "state",
                    "value", "url", "screenshot", "download"] = "text"
    element: str | None = Field(default=None, description="element id from the page state")
    within: str | None = Field(default=None, description="id of a container element")
    text: str | None = None
    match: Literal["exact", "contains"] = "exact"
    varies: list[str] = Field(default_factory=list,
                              description="parts of text that change from run to run")
    texts: list[str] = Field(default_factory=list)
    count: int | None = Field(default=None, ge=0)
    # a "count" claim relative to the step's start: the count now is the count when the
    # step began plus ``change`` (-1: one item fewer), so no number the data decides is kept
    change: int | None = None
    index: int | None = Field(default=None, ge=1)
    state: Literal["checked", "unchecked", "enabled", "disabled", "expanded", "collapsed",
                   "selected"] | None = None
    value: str | None = None
    path: str | None = None
    query: dict[str, str] = Field(default_factory=dict)
    # a "screenshot" claim: the element's picture (or this box of it, fractions [left, top,
    # right, bottom]) shows the statement; parts that change by themselves masked
    box: list[float] | None = None
    masks: list[list[float]] = Field(default_factory=list)

    def describe(self) -> str:
        return self.model_dump_json(exclude_defaults=True)


def as_spec(item: str | EvidenceSpec, element_ids: set[str] | frozenset[str] = frozenset()
            ) -> EvidenceSpec:
    """A plain-string citation as a typed one: an element id's text, or a visible text."""
    if isinstance(item, EvidenceSpec):
        return item
    item = item.strip()
    if item in element_ids:
        return EvidenceSpec(expect="text", element=item)
    return EvidenceSpec(expect="text", text=item)


class ProposalModel(BaseModel):
    """The proposer's reply."""

    model_config = ConfigDict(extra="ignore")
    complete: StrictBool
    message: str = Field(min_length=1)
    actions: list[_ActionModel] = Field(default_factory=list)
    evidence: list[str | EvidenceSpec] = Field(default_factory=list)
    impossible: StrictBool = False


class OutcomeModel(BaseModel):
    """The reply to a yes-or-no question about the task (``page-answered``): a sentence,
    then the answer."""

    model_config = ConfigDict(extra="ignore")
    message: str = Field(min_length=1)
    done: StrictBool


# What one reply may put into the history, the terminal and reports: a model that writes a
# megabyte of "message" must not carry it into every later prompt.
MAX_MESSAGE = 1000
MAX_REASON = 300
MAX_PARAMETERS = 500

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


def extract_json(text: str) -> Any:
    """The JSON value in a reply: the whole text, else the first complete JSON object in it
    (in a ``` fence or in prose; what follows it, braces included, is ignored)."""
    try:
        return json.loads(text.strip())
    except RecursionError:
        raise InvalidReply("it is JSON nested too deeply to read") from None
    except ValueError:
        pass
    for candidate in [m for m in _FENCE.findall(text)] + [text]:
        start = candidate.find("{")
        while start >= 0:
            try:
                value, _end = _DECODER.raw_decode(candidate, start)
                return value
            except RecursionError:
                raise InvalidReply("it is JSON nested too deeply to read") from None
            except ValueError:
                start = candidate.find("{", start + 1)
    raise InvalidReply("it is not JSON")


M = TypeVar("M", bound=BaseModel)


def parse_model(text: str, model: type[M]) -> M:
    """A reply validated as ``model``; InvalidReply says what is wrong, for a re-ask."""
    data = extract_json(text)
    if not isinstance(data, dict):
        raise InvalidReply(f"it is JSON but not an object (got {type(data).__name__})")
    try:
        return model.model_validate(data)
    except RecursionError:
        raise InvalidReply("it is JSON nested too deeply to read") from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidReply(problems) from None


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters cut]"


def proposal_from(model: ProposalModel) -> ProposalResult:
    return ProposalResult(
        complete=model.complete,
        message=cap(model.message, MAX_MESSAGE),
        actions=[Action(a.tool, cap(a.reason, MAX_REASON), a.parameters)
                 for a in model.actions],
        evidence=[e for e in model.evidence if not isinstance(e, str) or e.strip()],
        impossible=model.impossible,
    )


def show(value: Any, limit: int = MAX_PARAMETERS) -> str:
    """A value (an action's parameters) as short text for the history or a log."""
    try:
        text = repr(value)
    except RecursionError:
        text = "(nested too deeply to show)"
    return cap(text, limit)


def action_text(action: Any, execution: Any = None, limit: int = MAX_PARAMETERS,
                named: bool = True) -> str:
    """An action as short text: its tool and parameters and, when ``named`` (the
    ``named-actions`` rule) and it ran on an element, that element as the page named it
    (``type {'element_id': 'input-1', 'value': 'ann'} on textbox "Email"``): an element id
    means nothing once the page changed."""
    text = f"{action.tool} {show(action.parameters, limit)}"
    target = getattr(execution, "target", None)
    return f"{text} on {target.describe()}" if named and target is not None else text


def quote(text: str, limit: int = 500) -> str:
    """A model's reply, shortened for an error message."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")
