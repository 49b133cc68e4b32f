"""What a task says of a form's fields, and which of them are empty: the policy's field
refusals read them (``left-empty``, ``one-value``, ``disabled-target``).

A task that says "place the order with no address", "leave the postcode empty" or "press
Join without filling in the form" names fields that must stay empty: typing into them makes
the recording prove another task (an order with an address). A small model types into them
anyway once the page answers with an error. These functions find the fields the task's words
name, by the field's label, name or placeholder on the page; they never guess a field from a
word the field's label does not hold whole.
"""

from __future__ import annotations

import re

from ..browser.fields import (
    describe,
    empty_fields,
    field_names,
    is_text_field,
    line_of,
)
from ..browser.page_state import StateLine

__all__ = ["describe", "empty_fields", "field_names", "is_box", "is_text_field", "left_empty",
           "left_unticked", "line_of", "ticked_by_task"]

# Every field: "without filling in the form", "without entering anything", "the empty form"
_ALL = re.compile(
    r"\bwithout\s+(?:filling|entering|typing|completing)\s*(?:in|out)?\s*"
    r"(?:the\s+|any\s+|a\s+)?(?:form|fields?|anything)\b"
    r"|\bwithout\s+(?:filling|entering|typing)\s+(?:in|out)?\s*anything\b"
    r"|\b(?:an?|the)\s+(?:empty|blank)\s+form\b"
    r"|\bleave\s+(?:the\s+|every\s+|all\s+(?:the\s+)?)?(?:form|fields?)\s+(?:empty|blank)\b",
    re.IGNORECASE)
# One field, named: "no address", "without a password", "without filling in the email",
# "leave the postcode empty", "with an empty name", "a blank e-mail"
_WORDS = r"([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)"
_NAMED = (
    re.compile(rf"\bno\s+{_WORDS}", re.IGNORECASE),
    re.compile(rf"\bwithout\s+(?:filling\s+in\s+|entering\s+|typing\s+|giving\s+|"
               rf"providing\s+)?(?:a|an|any|the|your)?\s*{_WORDS}", re.IGNORECASE),
    re.compile(rf"\b(?:leave|leaving|left)\s+(?:the\s+|its\s+|your\s+)?{_WORDS}\s+"
               r"(?:field\s+)?(?:empty|blank)\b", re.IGNORECASE),
    re.compile(rf"\b(?:an?|the)\s+(?:empty|blank)\s+{_WORDS}", re.IGNORECASE),
)
_SKIP = frozenset({"a", "an", "the", "any", "field", "box", "and", "or", "with", "then",
                   "press", "click", "in", "of", "to"})


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.casefold().replace("e-mail", "email"))
            if w not in _SKIP}


def _unquoted(task: str) -> str:
    """The task without its quoted values ("type \\"no address\\"" says nothing of the kind)."""
    return re.sub(r'"[^"]*"|“[^”]*”', " ", task)


def left_empty(task: str, line: StateLine) -> str | None:
    """The words of ``task`` that say the field ``line`` stays empty, else None. A field is
    named when one of its names (label, name, placeholder) is said whole by the phrase after
    "no", "without", "leave ... empty" or "an empty"; "no address" names "Address", never
    "Email address"."""
    if not is_text_field(line):
        return None
    said = _unquoted(task)
    every = _ALL.search(said)
    if every is not None:
        return every.group(0)
    names = [_words(n) for n in field_names(line)]
    for pattern in _NAMED:
        for m in pattern.finditer(said):
            phrase = _words(m.group(1))
            if phrase and any(n and n <= phrase for n in names):
                return m.group(0).strip()
    return None


# A box the task says stays unticked: "without agreeing to the rules", "without accepting the
# terms", "without ticking the newsletter box", "do not subscribe to the newsletter", "leave
# the gift wrap unticked"
_UNTICKED = (
    re.compile(rf"\bwithout\s+(?:agreeing|accepting|consenting|ticking|checking|selecting|"
               rf"subscribing|opting)\s+(?:to\s+|in\s+(?:to\s+)?)?(?:the\s+|their\s+|its\s+|"
               rf"your\s+)?{_WORDS}", re.IGNORECASE),
    re.compile(rf"\b(?:do\s+not|don't|never)\s+(?:agree|accept|consent|tick|check|select|"
               rf"subscribe|opt)\s+(?:to\s+|in\s+(?:to\s+)?)?(?:the\s+|their\s+|its\s+|"
               rf"your\s+)?{_WORDS}", re.IGNORECASE),
    re.compile(rf"\b(?:leave|leaving|left)\s+(?:the\s+|its\s+|your\s+)?{_WORDS}\s+"
               r"(?:box\s+|checkbox\s+)?(?:unticked|unchecked|unselected|clear)\b",
               re.IGNORECASE),
)
_BOX_WORDS = frozenset({"box", "checkbox"})


def is_box(line: StateLine) -> bool:
    """Is the element a checkbox (an input of that type, or the checkbox or switch role)?"""
    tag = (line.id or "").rsplit("-", 1)[0]
    return ((tag == "input" and line.attrs.get("type") == "checkbox")
            or line.attrs.get("role") in ("checkbox", "switch"))


def left_unticked(task: str, line: StateLine) -> str | None:
    """The words of ``task`` that say the checkbox ``line`` stays unticked, else None. The
    box is named when the phrase's words after "without agreeing to", "do not tick", "leave
    ... unticked" are all in one of its names or its text ("without agreeing to the rules"
    names "I agree to the library's rules"; never a box whose label lacks "rules")."""
    if not is_box(line):
        return None
    said = _unquoted(task)
    names = [_words(n) for n in [*field_names(line), line.text] if n]
    for pattern in _UNTICKED:
        for m in pattern.finditer(said):
            phrase = _words(m.group(1)) - _BOX_WORDS
            if phrase and any(phrase <= n for n in names):
                return m.group(0).strip()
    return None


# A box the task says to tick: "agreeing to the rules", "accept the terms", "tick Newsletter"
_TICKED = re.compile(
    rf"\b(?:agree|agreeing|accept|accepting|consent|consenting|tick|ticking|check|checking|"
    rf"subscribe|subscribing|opt|opting)\s+(?:to\s+|in\s+(?:to\s+)?)?(?:the\s+|their\s+|"
    rf"its\s+|your\s+)?{_WORDS}", re.IGNORECASE)


def ticked_by_task(task: str, line: StateLine) -> str | None:
    """The words of ``task`` that say to tick the checkbox ``line`` ("agreeing to the rules"
    names "I agree to the library's rules": every word of the phrase in its label), else
    None; never a box the task leaves unticked (``left_unticked``)."""
    if not is_box(line) or left_unticked(task, line) is not None:
        return None
    said = _unquoted(task)
    names = [_words(n) for n in [*field_names(line), line.text] if n]
    for m in _TICKED.finditer(said):
        phrase = _words(m.group(1)) - _BOX_WORDS
        if phrase and any(phrase <= n for n in names):
            return m.group(0).strip()
    return None
