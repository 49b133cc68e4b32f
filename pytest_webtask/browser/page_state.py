"""PageState: the page state text and the element ids it defines."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageState:
    """One reading of the page. ``elements`` maps an id (``button-0``) to its iframe chain."""

    text: str
    elements: dict[str, list[str]] = field(default_factory=dict)
    url: str = ""
    title: str = ""
    snap: int = 0
    truncated: int = 0

    @classmethod
    def from_js(cls, data: dict) -> PageState:
        return cls(
            text=data["text"],
            elements={k: v["frames"] for k, v in data["elements"].items()},
            url=data["url"],
            title=data.get("title", ""),
            snap=data["snap"],
            truncated=data.get("truncated", 0),
        )
