"""Comparing a recorded fingerprint with an element on the page now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..types import Fingerprint


@dataclass
class Found:
    """An element the cascade found: its frame (a Playwright ``Frame``, async or sync) and an
    attribute selector that holds it."""

    frame: Any
    selector: str
    text: str

# Identity fields: a change in any of them means it is not the same element. Ids, classes,
# CSS paths and XPaths are only ways to find an element; they may change harmlessly.
_IDENTITY = ("tag", "type", "role", "name", "test_id", "label", "placeholder")


# Strategies that identify the element by itself: a candidate found by one of them is not
# rejected for lacking a name or label it had at record time (the name may have come from a
# neighbour, a label the new markup doesn't have).
_SELF_IDENTIFYING = ("test id", "id", "name attribute")
_DERIVED = ("name", "label")


def differences(recorded: Fingerprint, current: Fingerprint, *, several: bool = False,
                found_by: str = "") -> list[str]:
    """What differs in identity between the recorded element and a candidate. ``several``:
    other candidates are visible too, so the element must be near the same text again."""
    out = []
    for field in _IDENTITY:
        want = getattr(recorded, field)
        if want is None:
            continue
        have = getattr(current, field)
        if have is None and field in _DERIVED and found_by in _SELF_IDENTIFYING:
            continue
        if _norm(want) != _norm(have):
            out.append(f"{field} {have!r} instead of {want!r}")
    if recorded.near and (current.near or several) \
            and _norm(recorded.near) != _norm(current.near):
        out.append(f"it is near {current.near!r}, not {recorded.near!r}")
    return out


def _norm(value: str | None) -> str:
    return " ".join((value or "").split())
