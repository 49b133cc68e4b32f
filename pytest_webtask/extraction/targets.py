"""A binding's fingerprint: what its CSS selector matched when the extraction was recorded.

Stored beside the bindings in the recipe (``targets``, by binding name) and used by the
resolver (``bind.js``) to find the same elements again when the CSS no longer fits, the
way a ``do`` step's fingerprint finds its element. A fingerprint whose ``css`` differs from
the binding's current selector (someone edited the binding) is ignored.
"""

from __future__ import annotations

from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

BIND_JS = resources.files("pytest_webtask.extraction").joinpath("bind.js").read_text("utf-8")


class Target(BaseModel):
    model_config = ConfigDict(extra="forbid")

    css: str
    tag: str
    role: str = ""
    name: str | None = None  # accessible name as a regular expression (digits generalised)
    test_id: str | None = None  # as a CSS attribute selector, e.g. [data-testid="row"]
    id: str | None = None
    attrs: dict[str, str] = Field(default_factory=dict)  # stable attributes with their value
    has: list[str] = Field(default_factory=list)  # stable attributes whose value varies
    parent: str | None = None  # the common parent, as tag[stable attributes]
    path: list[str] | None = None  # tag:nth-of-type steps from the scope (single elements)
    count: int = 1  # matches when recorded

    def summary(self) -> str:
        """A short description for error messages."""
        parts = [f"<{self.tag}>"]
        if self.role:
            parts.append(f"role {self.role}")
        if self.name:
            parts.append(f"name /{self.name}/")
        parts += [f"{k}={v!r}" for k, v in self.attrs.items()] + [f"[{k}]" for k in self.has]
        return ", ".join(parts)
