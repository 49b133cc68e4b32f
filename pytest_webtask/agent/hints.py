"""The lines of a page state that hold words of the task: shown after the page state, so a
small model that reads a long page finds the element a task or a statement is about (the
"Password" field of "the page has a Password field", the article of "the Canvas Tote Bag").

Only what the page says is matched (an element's text and attribute values), never its id or
tag: "button" in a task does not pick every ``button-N``. Each line names the nearest two
containers with an id (which article an "Add to cart" button is in), what a claim's
``within`` or the choice of a button needs.
"""

from __future__ import annotations

import re

MAX_LINES = 5
MAX_LINE = 200

# words that say nothing about which element is meant
STOP = frozenset("""
a an the and or of to in on at for with by from into onto as is are be been was were it its
this that these those there here page shows show shown has have having contains contain
now only not no any some one all each every then than so if do does done should must can
click select choose enter type fill press open go find check make set use hit button link
field box text list item items element section value named called""".split())

_ID = re.compile(r"^[a-z][a-z0-9]*-\d+$")
_WORD = re.compile(r"[A-Za-z0-9$][A-Za-z0-9$.,'’-]*")


def task_words(phrase: str) -> list[str]:
    """The words of ``phrase`` worth looking for, lower-cased, in order, once each."""
    words = []
    for raw in _WORD.findall(phrase):
        word = raw.strip(".,'’-").lower()
        if len(word) >= 2 and word not in STOP and word not in words:
            words.append(word)
    return words


def matching_lines(state_text: str, phrase: str, limit: int = MAX_LINES) -> list[str]:
    """Up to ``limit`` lines of a page state's element tree that hold words of ``phrase``,
    those holding the most first (a word written as in the phrase counts a little more),
    in page order among equals; each line stripped of its
    indentation, with " (in <id> > <id>)" naming the nearest two containers with an id."""
    words = task_words(phrase)
    if not words:
        return []
    patterns = [re.compile(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])") for w in words]
    exact = [w for w in (raw.strip(".,'’-") for raw in _WORD.findall(phrase))
             if w.lower() in words and w != w.lower()]
    parents: list[tuple[int, str]] = []  # (depth, id) of the containers open at this line
    scored: list[tuple[int, int, str]] = []
    for index, line in enumerate(state_text.splitlines()):
        stripped = line.lstrip(" ")
        if not stripped.startswith("- "):
            continue
        depth = len(line) - len(stripped)
        content = stripped[2:]
        head, _, said = content.partition(" ")
        while parents and parents[-1][0] >= depth:
            parents.pop()
        containers = " > ".join(i for _, i in parents[-2:])
        if _ID.match(head):
            parents.append((depth, head))
        lowered = said.lower()
        score = sum(2 for p in patterns if p.search(lowered))
        # a word as the task writes it ("Eget", not "eget") ranks first
        score += sum(1 for w in exact if w in said)
        if score:
            shown = content if len(content) <= MAX_LINE else content[:MAX_LINE - 3] + "..."
            if containers:
                shown += f" (in {containers})"
            scored.append((-score, index, shown))
    return [shown for _, _, shown in sorted(scored)[:limit]]


def hint(state_text: str, phrase: str) -> str:
    """The block said after the page state: the lines that hold words of ``phrase``, or
    that none does."""
    words = task_words(phrase)
    if not words:
        return ""
    lines = matching_lines(state_text, phrase)
    if not lines:
        return ("No line of the page state above holds any of these words: "
                + ", ".join(words) + ".")
    return ("Lines of the page state above that hold words of it:\n"
            + "\n".join(f"  {line}" for line in lines))
