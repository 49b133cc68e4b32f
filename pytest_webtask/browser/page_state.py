"""PageState: the page state text and the element ids it defines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Where the collector left the content of an iframe of another origin: its lines go here.
FRAME_SLOT = re.compile(r"^( *)@frame:(f\d+)$", re.MULTILINE)

# An element line: "  - button-3 (type="submit") \"Send\"", or "  - li \"Pens\"" without an id.
ELEMENT_ID = re.compile(r"^[a-z][a-z0-9]*-\d+$")
_LINE = re.compile(r"^(?P<indent> *)- (?P<chain>(?:[a-z][a-z0-9]* > )*)(?P<head>[^ ]*)"
                   r"(?: (?P<rest>.*))?$")
_PARTS = re.compile(r'^(?:\((?P<attrs>.*?)\))? ?(?:"(?P<text>(?:[^"\\]|\\.)*)")?$')
_ATTR = re.compile(r'(\w[\w-]*)="((?:[^"\\]|\\.)*)"')


def _unquote(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


@dataclass(frozen=True)
class StateLine:
    """One element line of a page state as the collector writes it (``renderTree``):
    ``indent`` spaces, ``- ``, the ``head`` (the element id, or the tag of an element
    without one), then ``rest``: its attributes in parentheses and its text in quotes.
    ``attrs`` and ``text`` are read from ``rest`` when it has that form (``parsed``). A
    bare wrapper collapsed onto its one element (``li > div-0 (role="menuitem") "Save"``)
    is its ``chain`` (``li > ``): the line is that element's."""

    indent: int
    head: str
    rest: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    parsed: bool = False
    flags: frozenset[str] = frozenset()  # the attributes without a value: checked, multiple
    chain: str = ""  # the bare wrappers collapsed onto the element: "li > ", "td > "

    @property
    def id(self) -> str | None:
        """The element id, when the line has one (``button-3``)."""
        return self.head if ELEMENT_ID.match(self.head) else None

    @property
    def outer(self) -> str:
        """The line's outermost element as the page state names it: its first wrapper's tag
        (``li`` of ``li > a-5``), else its head."""
        return self.chain.split(" > ", 1)[0] if self.chain else self.head

    @property
    def depth(self) -> int:
        return self.indent // 2

    @property
    def content(self) -> str:
        """The line without its indentation and dash."""
        return self.chain + (f"{self.head} {self.rest}" if self.rest else self.head)


def state_lines(text: str) -> list[StateLine]:
    """The element lines of a page state's text, in page order: the one parser of the
    page state's lines (the agent's change summary and hints, the tools' reading of what a
    reply meant all read lines through it)."""
    out = []
    for raw in text.splitlines():
        m = _LINE.match(raw)
        if m is None:
            continue
        rest = m.group("rest") or ""
        parts = _PARTS.match(rest)
        found = (parts.group("attrs") or "") if parts else ""
        attrs = {k: _unquote(v) for k, v in _ATTR.findall(found)}
        out.append(StateLine(len(m.group("indent")), m.group("head"), rest, attrs,
                             _unquote(parts.group("text") or "") if parts else "",
                             parts is not None,
                             frozenset(re.findall(r"\b[a-z]+\b", _ATTR.sub("", found))),
                             m.group("chain")))
    return out


@dataclass
class FrameDocument:
    """A document of another origin than the page's, read in its own frame: where it is
    (the CSS paths of the iframes leading to it, outermost first, as a fingerprint's
    ``frame`` has them), its origin and the reading's snapshot number there."""

    css: list[str]
    origin: str
    snap: int = 0


@dataclass
class Reading:
    """Where one reading's element ids, frame ids and budget go on, from the page's document
    to each frame of another origin read apart."""

    counters: dict[str, int]
    frames: int
    chars: int


@dataclass
class PageState:
    """One reading of the page. ``elements`` maps an id (``button-0``) to its iframe chain
    (the frame ids of the reading, outermost first). ``documents``: the iframe chains of the
    frames of other origins that were read apart (each with its own collector state), and
    ``frames_not_allowed`` the origins of frames left unread (not allowed)."""

    text: str
    elements: dict[str, list[str]] = field(default_factory=dict)
    url: str = ""
    title: str = ""
    snap: int = 0
    truncated: int = 0
    windowed: bool = False
    documents: dict[tuple[str, ...], FrameDocument] = field(default_factory=dict)
    frames_not_allowed: list[str] = field(default_factory=list)

    @classmethod
    def from_js(cls, data: dict) -> PageState:
        return cls(
            text=data["text"],
            elements={k: v["frames"] for k, v in data["elements"].items()},
            url=data["url"],
            title=data.get("title", ""),
            snap=data["snap"],
            truncated=data.get("truncated", 0),
            windowed=bool(data.get("windowed", False)),
        )

    @property
    def whole(self) -> bool:
        """Does the text show every element the reading gave an id, each on its line? Not
        when the page was over the budget (cut to the viewport's part, the rest counted) or
        frames of other origins were read apart (their readings are budgeted apart)."""
        return not (self.truncated or self.windowed or self.documents)

    def document_of(self, element_id: str) -> tuple[str, ...]:
        """The iframe chain of the document that read ``element_id`` (``()``: the page's
        own, which reads its same-origin iframes too)."""
        chain = tuple(self.elements.get(element_id, ()))
        for n in range(len(chain), 0, -1):
            if chain[:n] in self.documents:
                return chain[:n]
        return ()
