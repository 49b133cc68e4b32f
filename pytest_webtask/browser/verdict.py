"""The verdict of the in-page fingerprint cascade (collector.js ``findTarget``), for people.

The rule itself runs in the page, in the same call that finds the element (and, for a check,
in the same call that evaluates it): the first strategy with visible candidates that are still
the same element decides; one is the answer, several an ambiguity. A candidate is the same
element when no identity field differs (tag, type, role, name, test id, label, placeholder;
ids, classes, CSS paths and XPaths are only ways to find it) and, with look-alikes around, it
is near the same text again. What comes back when nothing is decided is said here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..types import Fingerprint

NOT_VISIBLE = "no visible element matches it"


@dataclass
class Found:
    """An element the cascade found: its frame (a Playwright ``Frame``, async or sync) and an
    attribute selector that holds it."""

    frame: Any
    selector: str


def why_not(verdict: dict[str, Any]) -> str:
    """Why the cascade found no element: several look-alikes, or the closest candidates."""
    if verdict.get("same"):
        return (f"{verdict['count']} elements now match it (found by {verdict['how']}): "
                + "; ".join(Fingerprint.model_validate(fp).describe() for fp in verdict["same"]))
    seen = [f"by {how}: {Fingerprint.model_validate(fp).describe()}, but {', '.join(diff)}"
            for how, fp, diff in verdict.get("seen") or []]
    if not seen:
        return NOT_VISIBLE
    return NOT_VISIBLE + ". Closest:\n    " + "\n    ".join(seen)
