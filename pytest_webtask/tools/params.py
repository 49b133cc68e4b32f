"""Tool parameter models (pydantic) and their rendering for the prompt (the prompt's format)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..llm.json_schema import json_schema


class ToolParams(BaseModel):
    """Base of every tool's parameters: unknown parameters are an error the model sees."""

    model_config = ConfigDict(extra="forbid")


class NavigateParams(ToolParams):
    url: str = Field(description="URL to navigate to (absolute, or relative to the current page)")


class ElementParams(ToolParams):
    element_id: str = Field(description="Element ID from the current page state")


class ClickParams(ToolParams):
    element_id: str = Field(description="Element ID to click")
    times: int = Field(
        default=1, ge=1, le=24, description="Click it this many times in a row (a calendar's "
        "previous-month button 3 times: one action); it is found again before each click")


class FillParams(ToolParams):
    element_id: str = Field(description="Element ID to fill")
    value: str = Field(description="Value to fill")


class TypeParams(ToolParams):
    element_id: str = Field(description="Element ID to type into")
    value: str = Field(description="Text to type")


class SelectParams(ToolParams):
    element_id: str = Field(description="Element ID of the dropdown (select)")
    value: str | list[str] = Field(description="Option to choose: its visible text or its value")


class SlideParams(ToolParams):
    element_id: str = Field(description="Element ID of the slider")
    value: str = Field(description="The number to move it to")


class PressParams(ToolParams):
    key: str = Field(description="Key or combination to press, e.g. Enter, Escape, ArrowDown, "
                     "Control+A, Shift+Tab")
    element_id: str | None = Field(
        default=None, description="Element ID to focus first (omit to press on the page)"
    )


class ScrollParams(ToolParams):
    direction: Literal["down", "up"] = Field(
        default="down", description="Scroll the page down or up by most of a screen"
    )
    element_id: str | None = Field(
        default=None, description="Element ID to scroll into view instead"
    )
    inside: bool = Field(
        default=False, description="With element_id: scroll that element's own content "
        "(a list or text area the page state marks scrolls=...) down or up by most of its "
        "height, instead of bringing it into view"
    )

    @model_validator(mode="after")
    def _inside_what(self) -> ScrollParams:
        if self.inside and self.element_id is None:
            raise ValueError("inside needs the element_id of the element to scroll inside")
        return self


class PointerParams(ToolParams):
    element_id: str | None = Field(default=None, description="Element ID to act on")
    text: str | None = Field(default=None, description="Or the exact text of an element "
                             "that has no ID in the page state")

    @model_validator(mode="after")
    def _one_target(self) -> PointerParams:
        if (self.element_id is None) == (self.text is None):
            raise ValueError("give element_id or text (one of them)")
        return self


class DragParams(ToolParams):
    element_id: str = Field(description="Element ID to drag")
    to_element_id: str = Field(description="Element ID to drop it on")


class PointParams(ToolParams):
    element_id: str = Field(description="Element ID of a canvas, svg, img or other element")
    action: Literal["click", "double_click", "hover", "drag"] = Field(
        default="click", description="What the mouse does at the point")
    x: float = Field(ge=0, le=1, description="Fraction of the element's width from its left")
    y: float = Field(ge=0, le=1, description="Fraction of the element's height from its top")
    to_x: float | None = Field(default=None, ge=0, le=1, description="drag: where it ends, x")
    to_y: float | None = Field(default=None, ge=0, le=1, description="drag: where it ends, y")

    @model_validator(mode="after")
    def _drag_has_an_end(self) -> PointParams:
        if self.action == "drag" and (self.to_x is None or self.to_y is None):
            raise ValueError("a drag needs to_x and to_y, where it ends")
        return self


class NoParams(ToolParams):
    pass


WAIT_SECONDS = 5  # the wait tool's default (a recipe may leave it out)


class WaitParams(ToolParams):
    text: str = Field(description="Text to wait for until it is visible on the page")
    seconds: float = Field(default=WAIT_SECONDS, gt=0, le=15,
                           description="How long to wait at most")


class DialogParams(ToolParams):
    accept: bool = Field(description="true to accept (OK), false to dismiss (Cancel)")
    text: str | None = Field(default=None, description="Text to enter, for a prompt dialog")


class TabParams(ToolParams):
    tab: int = Field(ge=0, description="Tab number, as the page state lists the tabs")


class CloseTabParams(ToolParams):
    tab: int | None = Field(default=None, ge=0,
                            description="Tab number to close (omit for the current tab)")


class FindParams(ToolParams):
    text: str | None = Field(default=None, description="Text the element shows or is named by "
                             "(case-insensitive, part of it is enough)")
    role: str | None = Field(default=None,
                             description="Role such as button, link, checkbox, textbox, row")


class UploadParams(ToolParams):
    element_id: str = Field(description="Element ID of the file input (or its label)")
    resource_names: list[str] = Field(description="Names of the file resources to upload")


def _type_name(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        names = [_type_name(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " | ".join(names) or "any"
    if schema.get("enum"):
        return " | ".join(repr(v) for v in schema["enum"])
    if schema.get("type") == "array":
        return f"array of {_type_name(schema.get('items', {}))}"
    return str(schema.get("type", "any"))


@lru_cache(maxsize=512)
def render_tool(name: str, description: str, params: type[ToolParams]) -> str:
    """``Tool: click`` / ``Description: ...`` / ``Parameters:`` as the prompt shows them
    (made once per tool: every step shows them)."""
    schema = json_schema(params)
    required = set(schema.get("required", []))
    lines = [f"Tool: {name}", f"Description: {description}", "Parameters:"]
    props = schema.get("properties", {})
    if not props:
        lines.append("  (none)")
    for pname, pschema in props.items():
        need = "required" if pname in required else "optional"
        lines.append(f"  - {pname} ({_type_name(pschema)}, {need}): "
                     f"{pschema.get('description', '')}")
    return "\n".join(lines)
