"""Parsing and validating the proposer's reply."""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from .models import Action, ProposalResult


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
    expect: Literal["visible", "hidden", "text", "count", "nth", "order", "state", "value",
                    "url"] = "text"
    element: str | None = Field(default=None, description="element id from the page state")
    within: str | None = Field(default=None, description="id of a container element")
    text: str | None = None
    match: Literal["exact", "contains"] = "exact"
    varies: list[str] = Field(default_factory=list,
                              description="parts of text that change from run to run")
    texts: list[str] = Field(default_factory=list)
    count: int | None = Field(default=None, ge=0)
    index: int | None = Field(default=None, ge=1)
    state: Literal["checked", "unchecked", "enabled", "disabled", "expanded", "collapsed",
                   "selected"] | None = None
    value: str | None = None
    path: str | None = None
    query: dict[str, str] = Field(default_factory=dict)

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
    """The proposer's reply (seed 000, plus evidence and impossible)."""

    model_config = ConfigDict(extra="ignore")
    complete: StrictBool
    message: str = Field(min_length=1)
    actions: list[_ActionModel] = Field(default_factory=list)
    evidence: list[str | EvidenceSpec] = Field(default_factory=list)
    impossible: StrictBool = False


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The JSON value in a reply: bare, in a ``` fence, or the outermost {...} in prose."""
    candidates = [text.strip()]
    candidates += [m.strip() for m in _FENCE.findall(text)]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise InvalidReply("it is not JSON")


M = TypeVar("M", bound=BaseModel)


def parse_model(text: str, model: type[M]) -> M:
    """A reply validated as ``model``; InvalidReply says what is wrong, for a re-ask."""
    data = extract_json(text)
    if not isinstance(data, dict):
        raise InvalidReply(f"it is JSON but not an object (got {type(data).__name__})")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidReply(problems) from None


def proposal_from(model: ProposalModel) -> ProposalResult:
    return ProposalResult(
        complete=model.complete,
        message=model.message,
        actions=[Action(a.tool, a.reason, a.parameters) for a in model.actions],
        evidence=[e for e in model.evidence if not isinstance(e, str) or e.strip()],
        impossible=model.impossible,
    )


def quote(text: str, limit: int = 500) -> str:
    """A model's reply, shortened for an error message."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")
