"""The proposer's reply schema, made for one request: the tools the task may use, each with
its parameters typed, and element ids limited to the ids of the page state just sent.

Where the endpoint honours ``json_schema`` (structured outputs, a grammar in llama.cpp's
server), a reply can then not name a tool that does not exist or an id that is not on the
page. Three shapes: the task is done (evidence, at least one claim), the next actions (at
least one), or the task is impossible. The properties come in the order the model should
think in: first what the page shows now (a sentence: a small model decides better after
saying it), then whether the task is done, then what proves it or what to do.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from ..llm.json_schema import json_schema
from .parsing import MAX_MESSAGE, MAX_REASON

ID_FIELDS = ("element_id", "to_element_id")
MAX_ACTIONS = 5
MAX_EVIDENCE = 3
EXPECTS = ["text", "visible", "hidden", "count", "each", "nth", "order", "state", "value",
           "url", "screenshot", "download"]
_FRACTIONS = {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1},
              "minItems": 4, "maxItems": 4}
STATES = ["checked", "unchecked", "enabled", "disabled", "expanded", "collapsed", "selected"]


def reply_schema(tools: Iterable[tuple[str, type[BaseModel]]], ids: Sequence[str],
                 banned: Collection[tuple[str, str]] = (), *,
                 impossible: bool = True, done: bool = True,
                 choices: Mapping[str, tuple[str, Mapping[str, Sequence[str]]]] | None = None,
                 ) -> dict[str, Any]:
    """The JSON schema of a proposer reply for ``tools`` (name, parameter model) on a page
    whose element ids are ``ids``. ``banned`` (tool, element id) pairs are not offered: what
    was tried on this page and did not change it. A tool whose every target is banned is
    left out. Without ``impossible``, the reply may not give the task up; without ``done``,
    it may not call it done. ``choices`` maps a tool to one of its parameters and, per
    target, the values it may take there (a dropdown's options): on those targets the
    parameter is that enum."""
    ids = list(dict.fromkeys(ids))
    message = {"type": "string", "minLength": 1, "maxLength": MAX_MESSAGE}
    finished = _object({
        "message": message,
        "complete": {"const": True},
        "evidence": {"type": "array", "items": _evidence(ids), "minItems": 1,
                     "maxItems": MAX_EVIDENCE},
    })
    actions = []
    for name, params in tools:
        targets = [i for i in ids if (name, i) not in banned]
        param, values = (choices or {}).get(name, ("", {}))
        chosen = [i for i in targets if values.get(i)]
        for i in chosen:  # this target's own values
            actions.append(_action(name, params, [i],
                                   {param: {"enum": list(dict.fromkeys(values[i]))}}))
        rest = [i for i in targets if i not in chosen]
        if rest or not ids or not _takes_target(params):
            actions.append(_action(name, params, rest if ids else ids))
    todo = _object({
        "message": message,
        "complete": {"const": False},
        "actions": {"type": "array", "items": {"anyOf": actions} if len(actions) > 1
                    else actions[0], "minItems": 1, "maxItems": MAX_ACTIONS},
    })
    give_up = _object({
        "message": message,
        "complete": {"const": False},
        "impossible": {"const": True},
    })
    shapes = [finished] if done else []
    return {"anyOf": [*shapes, todo, *([give_up] if impossible else [])]}


def outcome_schema() -> dict[str, Any]:
    """The JSON schema of a yes-or-no reply (``parsing.OutcomeModel``): a sentence first,
    then the answer."""
    return _object({"message": {"type": "string", "minLength": 1, "maxLength": MAX_MESSAGE},
                    "done": {"type": "boolean"}})


def _takes_target(params: type[BaseModel]) -> bool:
    """Does every call of the tool name an element (a required ``element_id``)?"""
    return "element_id" in json_schema(params).get("required", [])


def _object(properties: dict[str, Any], required: Sequence[str] | None = None
            ) -> dict[str, Any]:
    return {"type": "object", "properties": properties,
            "required": list(properties if required is None else required),
            "additionalProperties": False}


def _id(ids: Sequence[str]) -> dict[str, Any]:
    # a page with no element has no id to offer: any string, refused before it runs
    return {"type": "string", "enum": list(ids)} if ids else {"type": "string"}


def _action(name: str, params: type[BaseModel], ids: Sequence[str],
            fixed: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    return _object({
        "tool": {"const": name},
        "parameters": _parameters(params, ids, fixed or {}),
        "reason": {"type": "string", "maxLength": MAX_REASON},
    }, required=["tool", "parameters"])


def _parameters(params: type[BaseModel], ids: Sequence[str],
                fixed: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """A tool's parameter model as a plain schema: optional fields may be left out (never
    null), ids come from the page, a ``fixed`` parameter has the schema given."""
    schema = json_schema(params)
    defs = schema.get("$defs", {})
    props: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        props[name] = (fixed[name] if name in fixed else
                       _id(ids) if name in ID_FIELDS else _plain(prop, defs))
    required = [n for n in schema.get("required", []) if n in props]
    one_of = [n for n in ("element_id", "text") if n in props and n not in required]
    if len(one_of) == 2 and not required:  # a pointer tool: an element id or a text
        return {"anyOf": [_object({n: props[n]}) for n in one_of]}
    return _object(props, required)


def _plain(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop:
        prop = defs.get(prop["$ref"].rsplit("/", 1)[-1], {})
    if "anyOf" in prop:
        kinds = [p for p in prop["anyOf"] if p.get("type") != "null"]
        if len(kinds) == 1:
            prop = {**kinds[0], **{k: v for k, v in prop.items() if k not in ("anyOf",)}}
    keep = ("type", "enum", "const", "items", "minimum", "maximum", "exclusiveMinimum",
            "minLength", "maxLength")
    out = {k: v for k, v in prop.items() if k in keep}
    if isinstance(out.get("items"), dict):
        out["items"] = _plain(out["items"], defs)
    return out or {"type": "string"}


def _evidence(ids: Sequence[str]) -> dict[str, Any]:
    """A claim: an element id (its text), or a typed claim whose element and container are
    ids of the page."""
    claim = _object({
        "expect": {"enum": EXPECTS},
        "element": _id(ids),
        "within": _id(ids),
        "text": {"type": "string", "maxLength": MAX_MESSAGE},
        "match": {"enum": ["exact", "contains"]},
        "varies": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "texts": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "count": {"type": "integer", "minimum": 0},
        "change": {"type": "integer"},
        "index": {"type": "integer", "minimum": 1},
        "state": {"enum": STATES},
        "value": {"type": "string"},
        "path": {"type": "string"},
        "box": _FRACTIONS,
        "masks": {"type": "array", "items": _FRACTIONS, "maxItems": 5},
    }, required=["expect"])
    return {"anyOf": [_id(ids), claim]} if ids else claim
