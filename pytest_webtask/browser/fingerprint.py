"""Fingerprint: what it takes to find an element again, without its snapshot id."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Fingerprint(BaseModel):
    """Identifying features of an element, taken from the live page.

    ``frame`` lists CSS selectors of the iframes that lead to the element, outermost first.
    Field order here is the order a recipe shows them in.
    """

    model_config = ConfigDict(extra="forbid")

    tag: str
    role: str | None = None
    name: str | None = None
    text: str | None = None
    label: str | None = None
    placeholder: str | None = None
    test_id: str | None = None
    id: str | None = None
    name_attr: str | None = None
    type: str | None = None
    css: str | None = None
    xpath: str | None = None
    frame: list[str] = []
    near: str | None = None

    def describe(self) -> str:
        """A short human description, e.g. ``button "Add to cart"``."""
        what = self.role or self.tag
        label = self.name or self.text or self.label or self.placeholder or self.test_id or ""
        where = f' near "{self.near}"' if self.near else ""
        if label:
            return f'{what} "{label}"{where}'
        return (f"{what} #{self.id}" if self.id else what) + where
