"""Explore's replies are generated under a schema whose strings and lists are bounded: a small
model cannot repeat itself to max_tokens inside one string (seen with the local 1.5B model:
3,000 tokens of "no links to other pages, no forms to fill, ...")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from pytest_webtask.explore.planner import PlanReply
from pytest_webtask.explore.sitemap import ExploreReply
from pytest_webtask.llm.bounded import bounded_schema


class Reply(BaseModel):
    why: str
    kind: Literal["a", "b"] = "a"
    short: str = Field(max_length=20)
    items: list[str] = Field(default_factory=list, max_length=3)
    many: list[str] = Field(default_factory=list)


def strings_and_arrays(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") in ("string", "array"):
            found.append(node)
        for value in node.values():
            found += strings_and_arrays(value)
    elif isinstance(node, list):
        for value in node:
            found += strings_and_arrays(value)
    return found


def test_every_string_and_list_is_bounded_tighter_bounds_kept() -> None:
    props = bounded_schema(Reply, max_string=100, max_items=5)["properties"]
    assert props["why"]["maxLength"] == 100
    assert props["short"]["maxLength"] == 20  # the model's own, tighter
    assert "maxLength" not in props["kind"]  # an enum is bounded already
    assert props["items"]["maxItems"] == 3 and props["many"]["maxItems"] == 5
    assert props["many"]["items"]["maxLength"] == 100
    # the model that checks the reply is unchanged
    assert "maxLength" not in Reply.model_json_schema()["properties"]["why"]


def test_explores_page_reading_and_plan_schemas_have_no_unbounded_string() -> None:
    for model in (ExploreReply, PlanReply):
        nodes = strings_and_arrays(bounded_schema(model))
        assert nodes
        for node in nodes:
            if node["type"] == "string" and "enum" not in node:
                assert node["maxLength"] <= 300, (model.__name__, node)
            if node["type"] == "array":
                assert node["maxItems"] <= 20, (model.__name__, node)


def test_a_schema_is_made_once_per_model_and_each_caller_gets_its_own_copy() -> None:
    """The agent asks for every tool's schema on every step: pydantic makes it once per
    class (llm/json_schema.py); a caller that changes its copy changes no one else's."""
    from pytest_webtask.llm import json_schema as cache
    from pytest_webtask.tools.params import ClickParams, render_tool

    first = cache.json_schema(Reply)
    assert first == Reply.model_json_schema()
    first["properties"]["why"]["type"] = "integer"
    first["required"].append("nonsense")
    again = cache.json_schema(Reply)
    assert again == Reply.model_json_schema() and again is not first
    assert cache._made.cache_info().hits >= 1
    shown = render_tool("click", "Click an element", ClickParams)
    assert "element_id (string, required)" in shown and "times (integer, optional)" in shown
    assert render_tool("click", "Click an element", ClickParams) is shown
    assert bounded_schema(Reply)["properties"]["why"]["maxLength"] == 300
