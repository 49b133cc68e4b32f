"""Parsing and validating the proposer's reply."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from .models import Action, ProposalResult


class InvalidReply(Exception):
    """The reply is not the JSON object the prompt asks for; ``str()`` says why."""


class _ActionModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    reason: str = ""
    tool: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)


class ProposalModel(BaseModel):
    """The proposer's reply (seed 000, plus evidence and impossible)."""

    model_config = ConfigDict(extra="ignore")
    complete: StrictBool
    message: str = Field(min_length=1)
    actions: list[_ActionModel] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
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
        evidence=[e for e in model.evidence if e.strip()],
        impossible=model.impossible,
    )


def quote(text: str, limit: int = 500) -> str:
    """A model's reply, shortened for an error message."""
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")
