"""Tool parameter models (pydantic) and their rendering for the prompt (seed 001 format)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ToolParams(BaseModel):
    """Base of every tool's parameters: unknown parameters are an error the model sees."""

    model_config = ConfigDict(extra="forbid")


class NavigateParams(ToolParams):
    url: str = Field(description="URL to navigate to (absolute, or relative to the current page)")


class ElementParams(ToolParams):
    element_id: str = Field(description="Element ID from the current page state")


class ClickParams(ToolParams):
    element_id: str = Field(description="Element ID to click")


class FillParams(ToolParams):
    element_id: str = Field(description="Element ID to fill")
    value: str = Field(description="Value to fill")


class TypeParams(ToolParams):
    element_id: str = Field(description="Element ID to type into")
    value: str = Field(description="Text to type")


class SelectParams(ToolParams):
    element_id: str = Field(description="Element ID of the dropdown (select)")
    value: str = Field(description="Option to choose: its visible text or its value")


class PressParams(ToolParams):
    key: str = Field(description="Key to press, e.g. Enter, Tab, Escape, ArrowDown")
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


def render_tool(name: str, description: str, params: type[ToolParams]) -> str:
    """``Tool: click`` / ``Description: ...`` / ``Parameters:`` as seed 001 shows."""
    schema = params.model_json_schema()
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
