"""A reply's JSON schema with every string and list bounded, for generation only.

A small model writing into an unbounded string can repeat itself until ``max_tokens`` ("no
links to other pages, no forms to fill, no links to other pages, ..."): 3,000 tokens, minutes
on a CPU, and a reply cut off. Where the endpoint honours ``json_schema``, these bounds stop
it at the grammar. The pydantic model that checks the reply is left as it is.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .json_schema import json_schema

MAX_STRING = 300
MAX_ITEMS = 20


def bounded_schema(model: type[BaseModel], max_string: int = MAX_STRING,
                   max_items: int = MAX_ITEMS) -> dict[str, Any]:
    """``model``'s JSON schema, every string at most ``max_string`` characters and every
    array at most ``max_items`` items unless the model sets tighter bounds."""
    return _bound(json_schema(model), max_string, max_items)


def _bound(node: Any, max_string: int, max_items: int) -> Any:
    if isinstance(node, list):
        return [_bound(n, max_string, max_items) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _bound(v, max_string, max_items) for k, v in node.items()}
    if out.get("type") == "string" and "enum" not in out and "const" not in out:
        out["maxLength"] = min(out.get("maxLength", max_string), max_string)
    if out.get("type") == "array":
        out["maxItems"] = min(out.get("maxItems", max_items), max_items)
    return out
