"""Comparing a recorded fingerprint with an element on the page now."""

from __future__ import annotations

import re

from ..browser.fingerprint import Fingerprint

# Identity fields: a change in any of them means it is not the same element. Ids, classes,
# CSS paths and XPaths are only ways to find an element; they may change harmlessly.
_IDENTITY = ("tag", "type", "role", "name", "test_id", "label", "placeholder")


def differences(recorded: Fingerprint, current: Fingerprint, *, several: bool = False) -> list[str]:
    """What differs in identity between the recorded element and a candidate. ``several``:
    other candidates are visible too, so the element must be near the same text again."""
    out = []
    for field in _IDENTITY:
        want = getattr(recorded, field)
        if want is None:
            continue
        have = getattr(current, field)
        if _norm(want) != _norm(have):
            out.append(f"{field} {have!r} instead of {want!r}")
    if recorded.near and (current.near or several) \
            and _norm(recorded.near) != _norm(current.near):
        out.append(f"it is near {current.near!r}, not {recorded.near!r}")
    return out


def text_matches(text: str, expected: str | None, pattern: str | None) -> bool:
    got = _norm(text)
    if pattern is not None:
        return re.fullmatch(pattern, got) is not None
    return got == _norm(expected)


def _norm(value: str | None) -> str:
    return " ".join((value or "").split())
