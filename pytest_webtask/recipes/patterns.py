"""Declared variation: the parts of a checked text that may change between runs.

Nothing is guessed. A part varies only when the model declared it (``varies`` in its
evidence) or the user did (``@pytest.mark.webtask(dynamic=[...])``, ini ``webtask_dynamic``).
The recipe then shows the pattern, so a reviewer sees exactly what was loosened. Patterns
use the regular-expression syntax Python and JavaScript share (``\\d``, ``[A-Z]``, ``+``,
``{n}``, ``(?:...)``), since the replay matches them in the page.
"""

from __future__ import annotations

import re

# Named patterns a user may declare by name instead of a regular expression.
NAMED = {
    "date": r"\d{4}-\d{2}-\d{2}",
    "time": r"\d{1,2}:\d{2}(?::\d{2})?",
    "number": r"\d+",
}

_SPECIAL = set("\\^$.|?*+()[]{}")


def escape(text: str) -> str:
    """``text`` as a pattern matching itself, readable (spaces and dashes stay as they are)."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def shape(sample: str) -> str:
    """A pattern for values shaped like ``sample``: ``ORD-48213`` -> ``[A-Z]+-\\d+``."""
    out = []
    for run in re.finditer(r"\d+|[A-Z]+|[a-z]+|\s+|.", sample):
        piece = run.group(0)
        if piece.isdigit():
            out.append(r"\d+")
        elif piece.isupper() and piece.isalpha():
            out.append("[A-Z]+")
        elif piece.islower() and piece.isalpha():
            out.append("[a-z]+")
        elif piece.isspace():
            out.append(" ")
        else:
            out.append(escape(piece))
    return "".join(out)


def user_patterns(declared: tuple[str, ...] | list[str]) -> list[str]:
    """The user's declared patterns, names resolved; a broken regex is a clear error."""
    out = []
    for item in declared:
        pattern = NAMED.get(item, item)
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"webtask dynamic pattern {item!r} is not a regular expression: "
                             f"{exc}") from None
        out.append(pattern)
    return out


def text_pattern(text: str, parts: list[str], replace: list[str] | None = None) -> str | None:
    """A pattern for ``text`` where each match of a regex in ``parts`` may vary: it is
    replaced by the same index of ``replace`` (default: the regex itself). None when no part
    occurs in ``text``."""
    spans: list[tuple[int, int, str]] = []
    for n, part in enumerate(parts):
        put = replace[n] if replace is not None else part
        for m in re.finditer(part, text):
            if m.end() > m.start() and not any(s < m.end() and m.start() < e for s, e, _ in spans):
                spans.append((m.start(), m.end(), f"(?:{put})" if "|" in put else put))
    if not spans:
        return None
    spans.sort()
    out, last = [], 0
    for start, end, put in spans:
        out.append(escape(text[last:start]))
        out.append(put)
        last = end
    out.append(escape(text[last:]))
    return "".join(out)


def varying(text: str, varies: list[str], dynamic: list[str]) -> str | None:
    """The pattern for ``text`` given the model's ``varies`` samples and the user's patterns."""
    samples = [v for v in varies if v and v in text]
    parts = [re.escape(v) for v in samples] + list(dynamic)
    replace = [shape(v) for v in samples] + list(dynamic)
    return text_pattern(text, parts, replace)
