"""What a step's actions changed on the page: the page state before and after, compared line
by line with element ids left out (a re-rendered page numbers its elements again), and the URL.

The next request shows it to the model right after the page state, so a small model reads
"the list now shows 2 products" instead of finding it in a page state it has seen before.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..browser.fields import is_text_field, line_of
from ..browser.page_state import PageState

# "  - button-3 (type=...) ..." -> "- button (type=...) ...": the id's number dropped
_ID = re.compile(r"^(\s*-\s+)([a-z][a-z0-9]*)-\d+\b")
SHOWN = 12  # lines shown of what is new, and of what is gone


def _plain(line: str) -> str:
    return _ID.sub(r"\1\2", line).strip()


# what a field holds, as the page state shows it: its value, a select's choice, a box's tick
_HOLDS = re.compile(r'(?<=[( ])(?:value|selected)="(?:[^"\\]|\\.)*" ?|(?<=[( ])checked\b ?')


def _without_values(line: str) -> str:
    # "- input (value="x")" is "- input" without its value: empty parentheses go too
    return re.sub(r" \(\)", "", _HOLDS.sub("", _plain(line)).replace(" )", ")"))


def field_value(text: str, element_id: str) -> str | None:
    """The value the page state shows for the text field ``element_id`` (None when it shows
    none, or it is no text field: a checkbox's ``value`` is what it sends when ticked, not
    what it holds)."""
    line = line_of(text, element_id)
    return line.attrs.get("value") if line is not None and is_text_field(line) else None


@dataclass
class PageChange:
    """How the page after a step differs from the page the step was proposed on. ``added``
    lines are shown as the new page state has them (with their ids); ``removed`` lines
    without ids (those ids no longer exist)."""

    url_before: str
    url_after: str
    title_before: str = ""
    title_after: str = ""
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def values_only(self) -> bool:
        """Only what fields hold changed (their values, a choice, a tick): nothing was sent
        or shown in answer yet."""
        return (self.url_before == self.url_after and bool(self.added or self.removed)
                and sorted(map(_without_values, self.added))
                == sorted(map(_without_values, self.removed)))

    @property
    def unchanged(self) -> bool:
        return (self.url_before == self.url_after and self.title_before == self.title_after
                and not self.added and not self.removed)

    def summary(self) -> str:
        """One line for the step history."""
        if self.unchanged:
            return "the page did not change"
        parts = []
        if self.url_before != self.url_after:
            parts.append(f"URL {self.url_after}")
        if self.added:
            parts.append(f"{len(self.added)} line(s) new")
        if self.removed:
            parts.append(f"{len(self.removed)} line(s) gone")
        return "the page changed: " + ", ".join(parts)

    def describe(self) -> str:
        """What changed, as the request after the step shows it."""
        if self.unchanged:
            return "The page did not change at all: same URL, same page state."
        lines = []
        if self.url_before != self.url_after:
            lines.append(f"URL: {self.url_before} -> {self.url_after}")
        if self.title_before != self.title_after:
            lines.append(f"Title: {self.title_before!r} -> {self.title_after!r}")
        for name, got, show in (("New on the page", self.added, lambda s: s.strip()),
                                ("Gone from the page", self.removed, _plain)):
            if got:
                lines.append(f"{name}:")
                lines.extend(f"  {show(line)}" for line in got[:SHOWN])
                if len(got) > SHOWN:
                    lines.append(f"  ... and {len(got) - SHOWN} more line(s)")
        if self.values_only:
            lines.append("Only what the fields hold changed: no other line of the page did "
                         "(a form is not sent yet; a control that saves itself shows no "
                         "answer here).")
        return "\n".join(lines)


def plain_line(line: str) -> str:
    """A page-state line as two readings of one page have it: its id's number left out."""
    return _plain(line)


def page_key(state: PageState) -> tuple[str, list[str]]:
    """A reading as two readings of the same page have it: its URL and its lines, ids'
    numbers left out."""
    return state.url, [_plain(x) for x in state.text.splitlines() if x.strip()]


# a text `find` gave an id to: "- text-0 "Audrey"", cut out of the line that held it
_TEXT_ID = re.compile(r"^(\s*-\s+)text-\d+ ")


def _words(lines: list[str]) -> list[str]:
    words: list[str] = []
    for line in lines:
        text = _TEXT_ID.sub(r"\1", line).strip()
        words += (text[2:] if text.startswith("- ") else text).replace('"', " ").split()
    return words


def _only_marked(old: list[str], new: list[str]) -> bool:
    """``new`` is ``old`` with texts given ids by ``find`` (a line cut where the text
    stood, the text on a line of its own): the same words, nothing changed on the page."""
    return (any(_TEXT_ID.match(x) for x in new) and not any(_TEXT_ID.match(x) for x in old)
            and _words(old) == _words(new))


def page_change(before: PageState, after: PageState) -> PageChange:
    """The difference between two readings of the page. A text that ``find`` gave an id
    (its line cut in three) is no change: the page shows the same words."""
    old = before.text.splitlines()
    new = after.text.splitlines()
    matcher = difflib.SequenceMatcher(None, [_plain(x) for x in old], [_plain(x) for x in new],
                                      autojunk=False)
    added: list[str] = []
    removed: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and _only_marked(old[i1:i2], new[j1:j2]):
            continue
        if op in ("replace", "delete"):
            removed.extend(x for x in old[i1:i2] if x.strip())
        if op in ("replace", "insert"):
            added.extend(x for x in new[j1:j2] if x.strip())
    return PageChange(before.url, after.url, before.title, after.title, added, removed)
