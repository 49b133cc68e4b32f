"""The agent's guards (docs/agent.md): what keeps a recording honest whatever the rules in
``policy.py`` do, and no setting turns off. Plain functions over the model's resolved claims
and Playwright's messages; the agent (both twins) calls them.

A few readings here serve only switchable rules (``task_numbers``, ``values_of_kind``,
``value_is_one_of`` for ``given-value`` and ``send-last``; ``destroys``, ``asks_to_destroy``
for ``unasked-delete``): they read the task and the page beside the guards' own readings,
and hold nothing back by themselves; the rule that calls them runs only while it is on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from ..browser.page_state import StateLine, state_lines
from ..tools._async.registry import COVERED
from ..tools.meant import read_lines
from ..types import Action, ExecutionResult
from .hints import goes_to, task_words
from .models import Evidence, Step

CONTROL_TAGS = ("input", "select", "textarea")
# a task that asks to set a control (tick a box, choose an option, type a text): its words
_SETS = re.compile(r"\b(?:select|choose|pick|check|tick|uncheck|untick|clear|enter|type|"
                   r"fill|write|input|set|mark|unmark|toggle|switch|turn|put)\b", re.IGNORECASE)
_UNSETS = re.compile(r"\b(?:uncheck|untick|unmark|unselect|deselect|clear|turn off|"
                     r"switch off)\b", re.IGNORECASE)


# what a control that deletes says of itself (its text, label, title, icon or class), and
# the words of a task that asks for something of the kind
_DESTROYS = re.compile(r"(?<![a-z])(?:delete|remove|trash|discard|erase|destroy)", re.IGNORECASE)
_ASKS_TO_DESTROY = re.compile(
    r"\b(?:delet\w*|remov\w*|trash\w*|discard\w*|eras\w*|destroy\w*|clear\w*|empty\w*|"
    r"bin|rid|drop\w*|purge\w*|wipe\w*|cancel\w*|unsubscrib\w*|undo\w*|dismiss\w*)\b",
    re.IGNORECASE)
_SAYS_ITSELF = ("label", "title", "icon", "class", "aria-label", "value", "name")


def destroys(line: StateLine) -> str | None:
    """What the page state's ``line`` says that names it a control that deletes (its text,
    label, title, icon or class: ``icon="delete"``, ``class="trash"``, "Remove"), else
    None."""
    for said in (line.text, *(line.attrs.get(k, "") for k in _SAYS_ITSELF)):
        if said and _DESTROYS.search(said):
            return said
    return None


def asks_to_destroy(task: str) -> bool:
    """Does ``task`` say anything of deleting, removing, clearing or cancelling?"""
    return _ASKS_TO_DESTROY.search(task) is not None


# a number a task gives as a value: "-99", "1", "2.5"; not an ordinal ("3rd"), a time
# ("9:37"), a date ("05/20/2010") or part of a word
_NUMBER = re.compile(r"(?<![\w.:/-])-?\d+(?:\.\d+)?(?![\w:/]|\.\d)")


_DATE = re.compile(r"(?<![\w/-])(\d{1,4})[/-](\d{1,2})[/-](\d{1,4})(?![\w/-])")


def task_numbers(task: str) -> list[str]:
    """The numbers ``task`` gives as values, in order, once each (quoted ones too)."""
    return list(dict.fromkeys(_NUMBER.findall(_DATE.sub(" ", task))))


def _day(text: str) -> tuple[int, int, int] | None:
    """The date ``text`` writes (year, month, day): 2010-05-20, 05/20/2010 (month first,
    as US forms write it; a day over 12 first is read day first)."""
    m = _DATE.search(text)
    if m is None:
        return None
    a, b, c = (int(g) for g in m.groups())
    if len(m.group(1)) == 4:
        return (a, b, c)
    return (c, b, a) if a > 12 else (c, a, b)


def values_of_kind(task: str, kind: str) -> list[str]:
    """The values of ``kind`` ("number", "date") that ``task`` gives, as it writes them."""
    if kind == "date":
        return list(dict.fromkeys(m.group(0) for m in _DATE.finditer(task)))
    return task_numbers(task) if kind == "number" else []


def value_is_one_of(value: str, given: list[str], kind: str) -> bool:
    """Is ``value`` one of the task's ``given`` values of ``kind``, as numbers or days (an
    unreadable value is left to the tool, which says what is wrong with it)?"""
    if kind == "date":
        day = _day(value)
        return day is None or any(_day(g) == day for g in given)
    try:
        wanted = float(value)
    except ValueError:
        return True
    return any(float(g) == wanted for g in given)


def is_control_claim(ev: Evidence) -> bool:
    """Does the claim say only what a form control holds (its state, its value)?"""
    return ev.spec is not None and ev.spec.expect in ("state", "value")


def weak_proof(evidence: list[Evidence], task: str, *, sets_only: bool,
               held_before: Callable[[Evidence], bool] = lambda ev: False) -> str:
    """Why ``evidence`` proves only what a do task's own actions set ("" when it proves
    more). A control's state or value and the URL say what the actions chose, typed or
    sent; they prove the task only when it asks to set controls (its words say so) and its
    actions only set them. Any other task (filter, sort, search, add, sign in) is proven by
    what the page shows because of it: the list, a count, a message; a claim that
    ``held_before`` the task began shows nothing of that."""
    found = [e for e in evidence if e.found and e.spec is not None]
    if not found:
        return ""
    weak = [e for e in found if is_control_claim(e) or e.spec.expect == "url"]
    if not weak or any(e not in weak and not held_before(e) for e in found):
        return ""
    if sets_only and _SETS.search(task) and all(is_control_claim(e) for e in weak):
        return ""
    return "; ".join(_said(e) for e in weak)


# "show only the hats", "list only open orders", "filter to show only ...", "only the
# hats are listed": the task's outcome is what the page no longer shows, as well as what it
# shows ("fill in only the email" restricts the actions, not the page: not read)
_ONLY = re.compile(
    r"\b(?:show|shows|showing|list|lists|listing|display|displays|displaying|filter|"
    r"filters|filtering|narrow|narrows|keep|keeps|see)\s+(?:\w+\s+){0,3}?only\b"
    r"|\bonly\s+(?:\w+\s+){1,5}?(?:are|is|get|gets|stay|stays|remain|remains)\s+"
    r"(?:shown|listed|displayed|visible|left)\b",
    re.IGNORECASE)


def asks_only(task: str) -> bool:
    """Do a do task's words say the page should show only something ("show only the
    hats")?"""
    return bool(_ONLY.search(task))


_LIST_TAGS = frozenset({"ul", "ol", "menu", "table", "tbody", "dl", "select"})
_LIST_ROLES = frozenset({"list", "listbox", "grid", "table", "tree", "menu", "treegrid"})
# the lists a count within a container finds inside it (``itemsOf`` in checks.js)
_INNER_TAGS, _INNER_ROLES = frozenset({"ul", "ol", "table"}), frozenset(
    {"list", "listbox", "grid", "table"})
# what a list holds one of each (a row of several cells is one item, a card is one)
_ITEM_TAGS = frozenset({"li", "tr", "article", "option", "dt"})
_ITEM_ROLES = frozenset({"listitem", "row", "option", "treeitem", "menuitem"})
_TABLES = frozenset({"grid", "table", "treegrid"})
_NOT_ITEMS = frozenset({"a", "button", "input", "select", "textarea", "option"})
_ASCENT = 4  # an item holds the text it is cited by at most this many lines up
# a run of elements the page state's window left out: "- [12 more items below, ...]"
_SKIPPED = re.compile(r"^\[(\d+) more ")
_CLIPPED = "…"  # the end of a text the page state cut short: no exact text of the page
_COMMON = 50  # a text on more lines than this tells no container apart

Kind = tuple[str, str]


def _tag(line: StateLine) -> str:
    return str(line.id or line.head).rsplit("-", 1)[0]


def _is_list(line: StateLine) -> bool:
    return _tag(line) in _LIST_TAGS or line.attrs.get("role", "") in _LIST_ROLES


def _kind(line: StateLine) -> Kind:
    """What a line is, ids aside: its outer wrapper and its tag (``li``, ``a``)."""
    return line.outer.rsplit("-", 1)[0], _tag(line)


class _Tree:
    """A page state's lines with each one's parent, children, kind and texts, read once
    (a page of thousands of lines is asked about many times). A run of lines the window
    left out counts as that many children of its parent."""

    def __init__(self, text: str) -> None:
        self.lines: list[StateLine] = []
        self.texts: list[str] = []
        self.skipped: list[int] = []  # per line: children the window left out
        for line in state_lines(text):
            skipped = _SKIPPED.match(line.content)
            if skipped:
                # the run is a child of the nearest line above it, less deep
                j = next((k for k in range(len(self.lines) - 1, -1, -1)
                          if self.lines[k].depth < line.depth), None)
                if j is not None:
                    self.skipped[j] += int(skipped.group(1))
                continue
            self.lines.append(line)
            self.skipped.append(0)
            content = line.content
            self.texts.append(line.text or (content[1:-1] if content.startswith('"')
                                            and content.endswith('"') else ""))
        n = len(self.lines)
        self.parent: list[int | None] = [None] * n
        self.end = [n] * n
        self.children: list[list[int]] = [[] for _ in range(n)]
        stack: list[int] = []
        for i, line in enumerate(self.lines):
            while stack and self.lines[stack[-1]].depth >= line.depth:
                self.end[stack.pop()] = i
            if stack:
                self.parent[i] = stack[-1]
                self.children[stack[-1]].append(i)
            stack.append(i)
        self.kinds = [_kind(x) for x in self.lines]
        self.listed = [_is_list(x) for x in self.lines]
        self.ids = {x.id: i for i, x in enumerate(self.lines) if x.id}
        self.by_text: dict[str, list[int]] = {}
        for i, t in enumerate(self.texts):
            if t:
                self.by_text.setdefault(t, []).append(i)
        self._inside: dict[int, frozenset[str]] = {}
        self._main: dict[int, Kind | None] = {}

    def inside(self, i: int) -> frozenset[str]:
        """The texts of line ``i`` and of every line inside it (a dropdown's options too)."""
        if i not in self._inside:
            texts = {t for t in self.texts[i:self.end[i]] if t}
            options = self.lines[i].attrs.get("options")
            if options:
                texts.update(o for o in options.split("|") if o)
            self._inside[i] = frozenset(texts)
        return self._inside[i]

    def ancestors(self, i: int) -> list[int]:
        """Line ``i`` and the lines around it, innermost first."""
        out: list[int] = []
        at: int | None = i
        while at is not None:
            out.append(at)
            at = self.parent[at]
        return out

    def holds(self, outer: int, i: int) -> bool:
        """Is line ``i`` line ``outer`` or inside it?"""
        return outer <= i < self.end[outer]

    def is_item(self, i: int) -> bool:
        """Is line ``i`` one item of a list: a list item, a row, an option by its tag or
        role, or a child of a list?"""
        parent = self.parent[i]
        return (self.kinds[i][0] in _ITEM_TAGS
                or self.lines[i].attrs.get("role", "") in _ITEM_ROLES
                or (parent is not None and self.listed[parent]))

    def item_of(self, i: int) -> int | None:
        """The item that holds line ``i`` (itself, or a few lines up): a list's item by its
        tag, its role or its list, else the nearest line repeated beside its like in a
        container made of such (a card in a grid of cards). None when nothing near it
        repeats."""
        up = self.ancestors(i)[:_ASCENT + 1]
        for j in up:
            if self.is_item(j):
                return j
        return next((j for j in up if (parent := self.parent[j]) is not None
                     and self.main_kind(parent) == self.kinds[j]), None)

    def items(self, container: int, kind: Kind | None) -> list[int]:
        """The lines of ``container``'s items: its children (of ``kind``), a table's rows."""
        line = self.lines[container]
        if kind is None and (_tag(line) == "table" or line.attrs.get("role") in _TABLES):
            # a table's rows, in its row groups (the page state shows a tbody it needs),
            # its header rows aside (checks.js ``itemsOf``)
            return [k for k in range(container + 1, self.end[container])
                    if (self.kinds[k][0] == "tr" or self.lines[k].attrs.get("role") == "row")
                    and not all(self.kinds[c][0] == "th"
                                or self.lines[c].attrs.get("role") == "columnheader"
                                for c in self.children[k])]
        kids = self.children[container]
        return [k for k in kids if self.kinds[k] == kind] if kind is not None else kids

    def count(self, container: int, kind: Kind | None) -> int:
        """How many items (or children of ``kind``) ``container`` holds, what the window
        left out included."""
        return len(self.items(container, kind)) + self.skipped[container]

    def main_kind(self, container: int) -> Kind | None:
        """The kind most of a container's children are (two at least): a grid's cards.
        None when none is (a page's main: a heading, a form, a list)."""
        if container not in self._main:
            kinds = [self.kinds[k] for k in self.children[container]]
            tally: dict[Kind, int] = {}
            for k in kinds:
                tally[k] = tally.get(k, 0) + 1
            best = max(tally, key=lambda k: tally[k], default=None)
            self._main[container] = (best if best is not None and tally[best] >= 2
                                     and 2 * tally[best] >= len(kinds) else None)
        return self._main[container]

    def run(self, container: int) -> tuple[int, Kind] | None:
        """The one longest run of like lines inside ``container`` (two at least, each
        with a text, no controls: cards in a grid), as its parent's line and their kind
        (checks.js ``eachItems``); None when there is none or two as long."""
        best: tuple[int, Kind, int] | None = None
        tie = False
        for j in range(container, self.end[container]):
            runs: dict[Kind, int] = {}
            for k in self.children[j]:
                if self.kinds[k][0] not in _NOT_ITEMS and self.inside(k):
                    runs[self.kinds[k]] = runs.get(self.kinds[k], 0) + 1
            for kind, n in runs.items():
                if n < 2 or (best is not None and n < best[2]):
                    continue
                tie = best is not None and n == best[2]
                if not tie:
                    best = (j, kind, n)
        return (best[0], best[1]) if best is not None and not tie else None

    def sole_list(self, container: int) -> int | None:
        """The one outermost list inside ``container`` (a section around its ``ul``), as
        a count within the container counts it; None when it holds none or several."""
        lists = [j for j in range(container + 1, self.end[container])
                 if _tag(self.lines[j]) in _INNER_TAGS
                 or self.lines[j].attrs.get("role", "") in _INNER_ROLES]
        outer = [j for j in lists if not any(o != j and self.holds(o, j) for o in lists)]
        return outer[0] if len(outer) == 1 else None


class _Pages:
    """The task's start page and its page at done, compared (``exclusion_unproven``):
    ``acted``, the texts (casefolded) of what the task's actions clicked or chose;
    ``same_page``, whether both are at one URL but for its query (``same_page``)."""

    def __init__(self, start: str, now: str, acted: frozenset[str] = frozenset(),
                 same_page: bool = False, clicked: frozenset[str] = frozenset()) -> None:
        self.start, self.now = _Tree(start), _Tree(now)
        self.start_text = start
        self.acted = acted | clicked
        self.clicked = clicked
        # a filter on the same page brings items of later pages only where the start's
        # list has later pages to bring them from
        self.paged = same_page and bool(_PAGED.search(start))
        self._matches: dict[tuple[bool, int], int | None] = {}
        self._narrowed: dict[tuple[int, Kind | None, Kind | None], bool] = {}

    def match(self, from_start: bool, container: int) -> int | None:
        """The container of the other page that is ``container``: a line of its kind (and
        a list if it is one) whose texts are most like its own (the share of their texts
        both hold: a price every list has does not make two lists one), its id breaking a
        tie; none when none shares a text."""
        key = (from_start, container)
        if key not in self._matches:
            src, dst = (self.start, self.now) if from_start else (self.now, self.start)
            texts, line = src.inside(container), src.lines[container]
            kind, listed = src.kinds[container], src.listed[container]
            # found by its texts, a text many lines share (an "Add" button each card has)
            # aside unless it has no other
            rare = [t for t in texts if len(dst.by_text.get(t, ())) <= _COMMON] or list(texts)
            candidates = {a for t in rare for k in dst.by_text.get(t, ())[:_COMMON]
                          for a in dst.ancestors(k)
                          if dst.kinds[a] == kind and dst.listed[a] == listed}
            best, score = None, (0.0, False, 0)
            for j in candidates:
                other = dst.inside(j)
                shared = len(texts & other)
                here = (shared / len(texts | other), dst.lines[j].id == line.id, -j)
                if here > score:
                    best, score = j, here
            self._matches[key] = best
        return self._matches[key]

    def narrowed(self, container: int, kind: Kind | None, part: Kind | None = None) -> bool:
        key = (container, kind, part)
        if key not in self._narrowed:
            self._narrowed[key] = self._narrower(container, kind, part)
        return self._narrowed[key]

    def _narrower(self, container: int, kind: Kind | None, part: Kind | None) -> bool:
        """Is ``container`` (a list on the page now) the start page's list, with fewer items
        (or children of ``kind``) now? The same list: the start's most like it, still
        holding an item it held, and, on another page than the start's, every item it
        holds now one the start's held (but for those the window left out then: on the
        same page a filter brings items of later pages); not a dropdown's options, nor a list of
        what the actions clicked or chose (the categories that collapse to the chosen
        one): what a filter that ignores its choice leaves as it was. With ``part``: every
        item then and now holds a line of that kind (a count of it counts the items)."""
        start, now = self.start, self.now
        then = self.match(False, container)
        if then is None or _tag(now.lines[container]) == "select":
            return False
        if kind is None and not now.listed[container]:
            kind = start.main_kind(then)
            if kind is None:
                return False  # children of all kinds: no items to count
        before, after = start.items(then, kind), now.items(container, kind)
        for tree, items in ((start, before), (now, after)):
            for j in items:
                texts = {t.casefold() for t in tree.inside(j)}
                first = next((t for t in tree.texts[j:tree.end[j]] if t), "").casefold()
                if texts and (texts <= self.acted or first in self.clicked):
                    return False  # an item is what the task clicked: a list of choices
                if part is not None and not any(tree.kinds[k] == part
                                                for k in range(j + 1, tree.end[j])):
                    return False  # an item without the part: its count is not the list's
        listed_then, shown = start.inside(then), now.inside(container)
        if not any(start.inside(j) and start.inside(j) <= shown for j in before):
            return False  # no item the start's list held: another page's list
        new = sum(1 for j in after if not now.inside(j) <= listed_then)
        if new > start.skipped[then] and not self.paged:
            return False  # another page's list that shares an item with the start's
        return start.count(then, kind) > now.count(container, kind)

    def counted(self, element: str | None, within: str | None) -> int | None:
        """Is a count claim one of a list's items (``within`` the list, or a container
        around one list; elements like ``element``, one item of its list or a part every
        item has, within the list or around it) that the task made fewer? The list's
        line on the page now, else None."""
        listed = self._listed(element, within)
        return listed[0] if listed is not None and self.narrowed(*listed) else None

    def _listed(self, element: str | None, within: str | None, each: bool = False
                ) -> tuple[int, Kind | None, Kind | None] | None:
        """The list a count or an each claim reads (its line now, its items' kind, the
        part of an item it reads), else None: not one list's items. An each claim within
        a container with no one list reads its one longest run of like lines (cards)."""
        now = self.now
        scope = now.ids.get(within) if within else None
        if within and scope is None:
            return None
        if element is not None:
            at = now.ids.get(element)
            if at is None:
                return None
            item = now.item_of(at)
            parent = now.parent[item] if item is not None else None
            if item is None or parent is None:
                return None
            if scope is not None and not now.holds(scope, parent):
                return None  # counted inside one item (or elsewhere): not the list's
            return parent, now.kinds[item], now.kinds[at] if item != at else None
        if scope is None:
            return None
        at = scope
        if not now.listed[at]:
            # a count within a container that is no list counts its children in the page,
            # which the page state does not show (it leaves out the wrappers without an id:
            # a shop's grid of cards is a section's children there); only a list inside it
            inner = now.sole_list(at)
            if inner is None:
                run = now.run(at) if each else None
                return (run[0], run[1], None) if run is not None else None
            at = inner
        return at, None, None

    def sifted(self, element: str | None, within: str | None, text: str, match: str,
               read: int | None) -> int | None:
        """Is an each claim (every item of a list shows ``text``) one of a list the task
        made shorter (``narrowed``) whose start held an item that did not show it: what a
        filter that ignored the task would still list? The list's line now, else None.
        An item shows it when one of its texts, or all of them joined, does: where the
        page state splits a text the claim may still have held at the start. ``read``: how
        many items the claim read on the page; another number than the list's here says
        the page state's list is not the one the claim read."""
        listed = self._listed(element, within, each=True)
        if not text or listed is None or listed[2] is not None or not self.narrowed(*listed):
            return None  # (a part of each item: elements like it are what share its path,
            # which the page state, leaving wrappers out, does not show)
        at, kind, _part = listed
        if element is None and read != self.now.count(at, kind):
            return None
        return at if self._lacked(at, kind, text, match) else None

    def _lacked(self, at: int, kind: Kind | None, text: str, match: str) -> bool:
        """Did an item of the start's list that is ``at`` (a list ``narrowed`` found) show
        no ``text``? (A text the page state cut short may have shown it.)"""
        start = self.start
        then = self.match(False, at)
        assert then is not None  # narrowed found it (a list then as now, by match)

        def shows(t: str) -> bool:
            return t.endswith(_CLIPPED) or (t == text if match == "exact" else text in t)

        for j in start.items(then, kind):
            texts = [t for t in start.texts[j:start.end[j]] if t]
            if texts and not any(shows(t) for t in texts) and not shows(" ".join(texts)):
                return True
        return False

    def shown_item(self, i: int) -> bool:
        """Is line ``i`` of the page now (or its text) one item of a list the task made
        shorter (``narrowed``), a text no other item of it repeats ("Add to cart") and no
        choice the actions made: the list still shows that item?"""
        now = self.now
        item = now.item_of(i)
        parent = now.parent[item] if item is not None else None
        if item is None or parent is None or not self.narrowed(parent, now.kinds[item]):
            return False
        text = now.texts[i]
        if text and text.casefold() in self.acted:
            return False
        # one item's own: no other item repeats it, and nothing outside the list shows it
        # (a banner's link to the same product holds on a page whose list is empty)
        return not text or (sum(1 for j in now.items(parent, now.kinds[item])
                                if text in now.inside(j)) == 1
                            and all(now.holds(parent, k) for k in now.by_text.get(text, ())))

    def gone_item(self, text: str, within: str | None = None) -> int | None:
        """Was ``text`` in an item of a list on the start page (a list's item, a row, a card
        in a grid), a list the page still shows with fewer items (``narrowed``), inside
        ``within`` if given? A text gone with its whole page or panel (a banner a link left
        behind) proves nothing of a filter. The list's line on the page now, else None."""
        start, now = self.start, self.now
        scope = now.ids.get(within) if within else None
        if not text or text.endswith(_CLIPPED) or (within and scope is None):
            return None
        for i in start.by_text.get(text, ()):
            item = start.item_of(i)
            parent = start.parent[item] if item is not None else None
            if item is None or parent is None:
                continue
            there = self.match(True, parent)
            if there is None or start.inside(item) <= now.inside(there):
                continue  # the list is not there, or the item's texts all still are
            if scope is not None and not now.holds(scope, there):
                continue  # hidden inside another container: never there
            if self.narrowed(there, start.kinds[item]):
                return there
        return None

    def recounted(self, text: str, varies: list[str]) -> bool:
        """Is ``text`` (an exact text claim's) a count of what the page lists ("2
        products") that the start page did not show and showed with another number ("3
        products")? One new on the page holds as well on a page that ignores the filter ("4
        categories"), and so does one whose number the claims say varies."""
        numbers = re.findall(r"\d+", text)
        if (not numbers or _COUNTED.search(text) is None
                or f'"{text}"' in self.start_text or any(v and v in text for v in varies)):
            return False
        pattern = re.sub(r"\\d\+", r"(\\d+)", re.sub(r"\d+", r"\\d+", re.escape(text)))
        return any(list(m.groups()) != numbers
                   for m in re.finditer(f'"{pattern}"', self.start_text))


# signs that a list has later pages: "Page 1 of 3", a next page's link or button
_PAGED = re.compile(r'"(?:[^"]*\bpage \d+ of \d+\b[^"]*|next(?: page)?\s*[»›→>]*|'
                    r'(?:load|show) more\b[^"]*|more results|'
                    r'[^"]*\bof \d+ (?:results|items|products)\b[^"]*|›|»)"'
                    r'|href="[^"]*[?&](?:page|p)=\d', re.IGNORECASE)


def same_page(start_url: str, now_url: str) -> bool:
    """Are both URLs one page: the same path (a trailing slash aside) and fragment, and
    every query parameter the start had keeping its value (a filter adds its own)? A site
    that routes by its query (``?route=...``) goes to another page by changing one."""
    a, b = urlsplit(start_url), urlsplit(now_url)
    if not start_url or (a.scheme, a.netloc, a.path.rstrip("/"), a.fragment) != (
            b.scheme, b.netloc, b.path.rstrip("/"), b.fragment):
        return False
    before, after = parse_qs(a.query, keep_blank_values=True), parse_qs(
        b.query, keep_blank_values=True)
    return all(after.get(k) == v for k, v in before.items())


GONE, SHOWN = "gone", "shown"  # what a "show only" task's claims leave unproven


def exclusion_unproven(evidence: list[Evidence], task: str, start: str, now: str,
                       acted: frozenset[str] = frozenset(), same: bool = False,
                       clicked: frozenset[str] = frozenset()) -> str:
    """Does ``evidence`` for a task that says the page should show only something
    (``asks_only``) lack a claim that anything else is gone? What the page shows (the
    hats' names, a "Category: Hats" line) holds as well on a page that ignores the
    filter and lists everything. What does not, comparing the page state at the task's
    start (``start``) with the one at done (``now``), ``acted`` the texts (casefolded) of
    what the actions clicked or chose, ``same`` whether both are one page (``same_page``):
    a count of a list's items, or of elements like one
    item, where the start page's list held more (``_Pages.narrowed``); a count text the
    start page showed with another number ("3 products", now "2 products"); a text that was
    in an item of such a list, hidden now; that every item of such a list shows a text an
    item of it at the start did not (``_Pages.sifted``: this proves an item shown as well,
    as the claim holds on no empty list). Returns ``GONE`` when no claim proves that;
    else ``SHOWN`` when none shows an item a list holds now (by its text, or its element):
    what is gone holds as well on a page whose list is empty; else ""."""
    found = [e for e in evidence if e.found and e.spec is not None]
    if not found or not asks_only(task):
        return ""
    pages = _Pages(start, now, acted, same, clicked)
    varies = [v for e in found for v in (e.spec.varies or [])]

    lists: set[int] = set()  # the lists (lines now) the claims prove shorter
    recounted = False  # a count text proves it of a list it does not name
    sifted = False  # an each claim proves both: its list holds an item, all of the kind
    for ev in found:
        spec = ev.spec
        text = spec.text or ev.text or ""
        if spec.expect == "each":
            # a part declared to vary is a pattern in the recipe, which other items match
            at = None if spec.varies else pages.sifted(spec.element, spec.within, text,
                                                       spec.match, ev.items)
            sifted = sifted or at is not None
        else:
            at = pages.counted(spec.element, spec.within) if spec.expect == "count" else \
                pages.gone_item(text, spec.within) if spec.expect == "hidden" else None
        if at is not None:
            lists.add(at)
        recounted = recounted or (spec.expect == "text" and spec.match == "exact"
                                  and pages.recounted(text, varies))
    if not lists and not recounted:
        return GONE

    def shows(ev: Evidence) -> bool:  # an item of that list, still shown
        spec, now = ev.spec, pages.now
        if spec.expect not in ("text", "visible"):
            return False
        lines = [now.ids[spec.element]] if spec.element in now.ids else \
            now.by_text.get(spec.text or ev.text or "", [])
        return any(pages.shown_item(i) and (recounted or now.parent[item] in lists)
                   for i in lines if (item := now.item_of(i)) is not None)

    return "" if sifted or any(shows(e) for e in found) else SHOWN


def gone_items(start: str, now: str, acted: frozenset[str] = frozenset(),
               same: bool = False, clicked: frozenset[str] = frozenset(),
               limit: int = 8) -> list[str]:
    """The texts of the start page's list items that are gone now from a list the page
    still shows with fewer items: what a "show only" task's claims may cite as gone
    (``exclusion_unproven``), up to ``limit``, in page order."""
    return _gone(_Pages(start, now, acted, same, clicked), limit)


def _gone(pages: _Pages, limit: int = 8) -> list[str]:
    out: list[str] = []
    offered: set[int | None] = set()  # one text an item: its first (a card's title)
    for i, text in enumerate(pages.start.texts):
        if (not text or text in pages.now.by_text or text in out
                or pages.start.item_of(i) in offered or pages.gone_item(text) is None):
            continue
        out.append(text)
        offered.add(pages.start.item_of(i))
        if len(out) >= limit:
            break
    return out


_WORD = re.compile(r"[^\W\d_][\w'-]{2,}")


def only_hints(start: str, now: str, acted: frozenset[str] = frozenset(),
               same: bool = False, clicked: frozenset[str] = frozenset(),
               limit: int = 2) -> tuple[list[str], list[tuple[str, str]]]:
    """What a "show only" task's claims may cite, the two page states read once: the gone
    items' texts (``gone_items``), and words every item of a list they left shows now and
    an item of it at the start did not, as (the list's id, the word), up to ``limit``
    (what ``_Pages.sifted`` takes: ``each_claim`` cites it)."""
    pages = _Pages(start, now, acted, same, clicked)
    gone = _gone(pages)
    kept: list[tuple[str, str]] = []
    seen: set[int] = set()
    for text in gone:
        there = pages.gone_item(text)
        line = pages.now.lines[there] if there is not None else None
        if there is None or there in seen or line is None or not line.id:
            continue
        seen.add(there)
        listed = pages._listed(None, line.id, each=True)
        if listed is None or listed[0] != there or not pages.narrowed(*listed):
            continue
        items = pages.now.items(there, listed[1])
        joined = [" ".join(t for t in pages.now.texts[j:pages.now.end[j]] if t) for j in items]
        for word in dict.fromkeys(_WORD.findall(joined[0]) if joined else []):
            if len(kept) < limit and all(word in t for t in joined) \
                    and pages._lacked(there, listed[1], word, "contains"):
                kept.append((line.id, word))
    return gone, kept


def each_claim(list_id: str, word: str) -> str:
    """The each claim that every item of ``list_id`` shows ``word``, as the model writes
    it."""
    return (f'{{"expect": "each", "within": "{list_id}", "text": "{word}", '
            '"match": "contains"}')


# a text that counts what the page lists: "2 products", "3 open orders", "1 book found"
_COUNTED = re.compile(r"\b\d+\s+(?:[a-z]+\s+)?[a-z]+s\b|\b1\s+[a-z]+\s+(?:found|listed|shown)\b",
                      re.IGNORECASE)


def asks_to_set(task: str) -> bool:
    """Do the task's words ask to set controls (choose, tick, enter, ...)?"""
    return bool(_SETS.search(task))


# what a page state's line says of a control, not of the page: its options, its value...
_CONTROL_ATTRS = re.compile(r'\b(?:options|selected|value|label|aria-label|placeholder|name|'
                            r'title)="(?:[^"\\]|\\.)*"')


def uncited_choices(evidence: list[Evidence], task: str, chosen: list[str],
                    page: str) -> list[str]:
    """The values of ``chosen`` (what the actions picked in a dropdown) that the task names as
    a word, that the ``page`` state shows outside any control (a cart line "Size M"), and
    that no claim's text shows, a control's own state aside: "add the shirt in size M"
    proven by the shirt's name and the total, never by "Size M" in the cart. A value the
    page shows only in its control ("Price: high to low" of a sort) has nothing to cite."""
    cited = " ".join(t for ev in evidence if ev.spec is not None
                     and ev.spec.expect not in ("hidden", "state", "value", "url")
                     for t in [ev.spec.text or "", *ev.spec.texts])
    shown = _CONTROL_ATTRS.sub("", page)

    def word(value: str, text: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE) is not None

    return [v for v in dict.fromkeys(c.strip() for c in chosen if c.strip())
            if word(v, task) and word(v, shown) and not word(v, cited)]


def _said(ev: Evidence) -> str:
    spec = ev.spec
    if spec.expect == "url":
        return "the URL (" + ", ".join(filter(None, [
            f"path {spec.path}" if spec.path else "",
            *(f"{k}={v}" for k, v in spec.query.items())])) + ")"
    what = spec.value if spec.expect == "value" else spec.state
    return f"{spec.element} holds {what!r}" if what else f"{spec.element}'s own state"


_STATE_WORDS = {"checked": "checked", "ticked": "checked", "on": "checked", "true": "checked",
                "selected": "checked", "yes": "checked", "unchecked": "unchecked",
                "not checked": "unchecked", "unticked": "unchecked", "off": "unchecked",
                "false": "unchecked", "no": "unchecked", "not selected": "unchecked"}


def stated_state(text: str | None, task: str) -> str:
    """The state a claim on a checkbox states: its text's word, else what the task asks."""
    said = " ".join((text or "").lower().split()).strip(" .")
    if said in _STATE_WORDS:
        return _STATE_WORDS[said]
    return "unchecked" if _UNSETS.search(task) else "checked"


_SAYS = re.compile(r'<dialog\b|role="(?:alertdialog|alert|dialog)"|aria-modal="true"|'
                   r'role="status"')


def says_something(error: str) -> bool:
    """Does a covered action's error name a dialog, an alert or a status message as what
    covers it? Such a cover is never closed by the agent's own Escape: what it says may be
    what the test should see (an error dialog), so the model reads it first."""
    covered = error.split(COVERED, 1)[-1] if COVERED in error else ""
    return bool(_SAYS.search(covered))


# What a do task gives to be typed: a quoted text, an e-mail address, a placeholder, the
# word after "password" (or "passcode", "username", "PIN").
_GIVEN = re.compile(
    r'"([^"]+)"|“([^”]+)”|(?<!\w)\'([^\']+)\'(?!\w)'
    r"|([\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(\{[A-Za-z_]\w*\})"
    r"|\b(?:password|passcode|username|user name|pin)\s+(?![\"“'{])(?!(?:is|of|the|a|an|and|"
    r"field|box|to|into|in|with|that|it)\b)([^\s,;]+)", re.IGNORECASE)


def given_values(task: str) -> list[str]:
    """The values a do task gives to type or choose (its quoted texts, e-mail addresses,
    placeholders, the word after "password"), in order, once each."""
    out: list[str] = []
    for match in _GIVEN.finditer(task):
        value = next(g for g in match.groups() if g).strip().rstrip(".")
        if value and value not in out:
            out.append(value)
    return out


# What a do task states a form gets, beyond ``given_values``: a name after "as" ("join as
# Ann Lee"), the value after a field's word ("the email ann.example.org", "the postcode
# AV1 2BC"); never a word that says the field stays empty or names another thing.
_FIELD_WORD = (r"(?:e-?mail(?:\s+address)?|postcode|post\s+code|zip(?:\s+code)?|phone"
               r"(?:\s+number)?|name|address|code)")
_STATED = re.compile(
    r"\bas\s+([A-Z][\w'-]*[a-z][\w'-]*(?:\s+[A-Z][\w'-]*[a-z][\w'-]*)+)"
    rf"|(?i:\b{_FIELD_WORD}\s+(?!(?:is|of|the|a|an|and|or|field|box|to|into|in|with|that|"
    r"it|empty|blank|required|left|as|but|for|on|at)\b))"
    r"([^\s,;]+(?:\s+[A-Za-z0-9]*\d[A-Za-z0-9]*)?)")


def stated_values(task: str) -> list[str]:
    """The values a do task gives (``given_values``), with the names and field values it
    states in words ("as Ann Lee", "the email ann.example.org", "the postcode AV1 2BC"):
    what a form sent as the task says must have been given. Every done is held to them
    (``untyped_values``): "join as Ann Lee with the email ..." done with the email alone
    proves a join without the name."""
    out = given_values(task)
    for match in _STATED.finditer(re.sub(r'"[^"]*"|“[^”]*”', " ", task)):
        value = next(g for g in match.groups() if g).strip().rstrip(".")
        if value and value not in out:
            out.append(value)
    return out


def acted(steps: list[Step]) -> list[tuple[Action, ExecutionResult]]:
    """The actions of ``steps`` that ran successfully, each with its result, in order."""
    return [(a, e) for s in steps
            for a, e in zip(s.proposal.actions, s.executions, strict=False) if e.success]


def acted_on(actions: list[tuple[Action, ExecutionResult]],
             typed: Callable[[str], bool]) -> set[str]:
    """The texts (or names), casefolded, of what ``actions`` acted on but typed into (``typed``
    says which tools type), a drag's drop target included ('drag "A" onto "B"')."""
    done = {(e.target.text or e.target.name or "").casefold() for a, e in actions
            if e.target is not None and not typed(a.tool)}
    return done | {(e.to.text or e.to.name or "").casefold() for _, e in actions if e.to}


def links_to_go(state_text: str, task: str, clicked: set[str], limit: int = 3) -> list[str]:
    """The page's links that ``task`` says to go to and whose text is not in ``clicked``
    (case aside), as ``a-0 "Opening hours"``: the guard that a do task went where it says,
    asked while the page is still where the task began."""
    task = " ".join(task.split()).casefold()
    found = []
    for line in read_lines(state_text):
        text = " ".join(line.text.split()).casefold()
        if goes_to(line.tag, text, task) and text not in clicked:
            found.append(f'{line.id} "{line.text}"')
    return found[:limit]


def choices(actions: list[tuple[Action, ExecutionResult]], typed: Callable[[str], bool]
            ) -> tuple[frozenset[str], frozenset[str]]:
    """What ``actions`` clicked (``acted_on``), and that with what they chose or typed
    (``entered_values``), casefolded: the ``clicked`` and ``acted`` of
    ``exclusion_unproven``."""
    clicked = frozenset(acted_on(actions, typed))
    return clicked, clicked | {v.casefold() for v in entered_values(actions)}


def entered_values(actions: list[tuple[Action, ExecutionResult]]) -> list[str]:
    """The texts ``actions`` typed, chose or uploaded: their parameters but the element."""
    return [v for a, _ in actions for k, p in a.parameters.items() if k != "element_id"
            for v in (p if isinstance(p, list) else [p]) if isinstance(v, str)]


def untyped_values(task: str, entered: list[str], before: str, now: str,
                   variables: dict[str, str] | None = None) -> list[str]:
    """The values ``task`` gives that no action ``entered`` (typed, chose, uploaded) and that
    the page showed neither ``before`` the task nor ``now``: a value it gives to type, never
    typed ("sign in with email ..." done by clicking "Sign in" on an empty form). A value the
    page shows is what the task refers to (a link, an item), not one to type. A placeholder
    of a plain variable (``variables``: name -> value) counts as its value too. The values
    are the task's ``stated_values``: those it quotes and those it states in words."""
    said = [e.casefold() for e in entered]
    seen = f"{before}\n{now}".casefold()
    out = []
    for value in stated_values(task):
        forms = [value]
        if value.startswith("{") and value[1:-1] in (variables or {}):
            forms.append(str((variables or {})[value[1:-1]]))
        if not any(_entered_or_seen(f.casefold(), said, seen) for f in forms if f):
            out.append(value)
    return out


def _entered_or_seen(value: str, entered: list[str], seen: str) -> bool:
    return value in seen or any(value in e for e in entered)


_BOXES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})


class Dropdowns:
    """The choices the pages of a task offered (``see`` each page state the model was sent,
    read with ``state_lines``): a dropdown's options (``offered``) and the ones shown chosen
    (``chosen``); a checkbox's or radio button's label (``boxes``) and the ones shown ticked
    (``ticked``)."""

    def __init__(self) -> None:
        self.offered: dict[str, None] = {}
        self.chosen: set[str] = set()
        self.boxes: dict[str, None] = {}
        self.ticked: set[str] = set()

    def see(self, page: str) -> None:
        for line in state_lines(page):
            kind = line.attrs.get("type") or line.attrs.get("role") or ""
            if kind in _BOXES and line.id:
                label = (line.attrs.get("label") or line.text).strip()
                if label:
                    self.boxes.setdefault(label, None)
                    if "checked" in line.flags:
                        self.ticked.add(label)
                continue
            if "options" not in line.attrs:
                continue
            for option in line.attrs["options"].split("|"):
                if option.strip():
                    self.offered.setdefault(option.strip(), None)
            if "selected" in line.attrs:
                self.chosen.update(o.strip() for o in line.attrs["selected"].split("|"))


# A box the task says to tick: its label right after a verb that ticks or chooses it ("tick
# Remember me", "choose Express delivery", "agree to the terms"), that no "not", "don't",
# "never", "without" or "no" stands just before. A label the task names otherwise ("select
# all the emails" beside a "Select all" box, a todo's name beside its done box) is not one.
_TICK = (r"(?:tick|check|select|choose|pick|mark|enable|turn on|switch on|opt in to|"
         r"opt into|agree to|accept)")
_NOT = re.compile(r"\b(?:not|don't|don’t|never|without|no)\s+(?:\w+\s+)?$", re.IGNORECASE)


_LIST_END = re.compile(r"[.;:!?]|\b(?:then|and\s+(?:then\s+)?(?:click|press|hit|submit|tap))\b",
                       re.IGNORECASE)
_LIST_SEP = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)


def _listed(rest: str) -> list[str]:
    """The items of a list of short names at the start of ``rest`` ("nb, 8qiSp3m and U6gHF
    and click Submit": three), each of at most three words; none when one is longer ("words
    similar to mild, delicious" is no list of names) or when there is one item."""
    items = [i.strip().strip("\"“”'").strip() for i in _LIST_SEP.split(_LIST_END.split(rest, 1)[0])]
    items = [re.sub(r"^(?:the|a|an)\s+", "", i, flags=re.IGNORECASE) for i in items if i]
    if len(items) < 2 or any(len(i.split()) > 3 for i in items):
        return []
    return items


def ticks_box(label: str, task: str) -> bool:
    """Does ``task`` say to tick or choose the box labelled ``label`` (a label of one or two
    characters in its own case): right after a verb that ticks, or in a list of short names
    after it ("Select nb, 8qiSp3m, pKybC69 and click Submit" names all three)?"""
    said = re.escape(label) if len(label) <= 2 else f"(?i:{re.escape(label)})"
    for m in re.finditer(rf"(?i:\b{_TICK}\s+(?:the\s+|a\s+|an\s+|[\"“'])?){said}(?!\w)", task):
        if not _NOT.search(task[:m.start()]):
            return True
    for m in re.finditer(rf"(?i:\b{_TICK}\s+)", task):
        if _NOT.search(task[:m.start()]):
            continue
        for item in _listed(task[m.end():]):
            if item == label if len(label) <= 2 else item.casefold() == label.casefold():
                return True
    return False


def names_word(value: str, text: str) -> bool:
    """Does ``text`` hold ``value`` as a word (a value of one or two characters, "M", in its
    own case: "a" is no size A)?"""
    flags = 0 if len(value) <= 2 else re.IGNORECASE
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags) is not None


def names_option(option: str, text: str) -> bool:
    """Does ``text`` name the dropdown option ``option``: as a word (``names_word``), or, an
    option of several words, each of them in its order within a few words ("by price from
    high to low" names "Price: high to low", never "Price: low to high")?"""
    if names_word(option, text):
        return True
    words = re.findall(r"[a-z0-9]+", option.casefold())
    if len(words) < 2:
        return False
    said = re.findall(r"[a-z0-9]+", text.casefold())
    for start, word in enumerate(said):
        if word != words[0]:
            continue
        rest = iter(said[start + 1:start + len(words) + 3])
        if all(w in rest for w in words[1:]):
            return True
    return False


def unchosen_options(task: str, dropdowns: Dropdowns,
                     actions: list[tuple[Action, ExecutionResult]]) -> list[str]:
    """The options of a dropdown the task's pages offered (or the labels of their checkboxes
    and radio buttons the task says to tick) that the task names as a word, that no page
    showed chosen and that no action chose, typed or acted on (a click on a custom list's
    "M", a link to it): "add the shirt in size M" done without touching the size dropdown
    (it says S) proves the shirt and the cart, never the size, and would replay green on a
    shop that ignores the size; "sign in and tick Remember me" done with the box empty
    likewise. A box counts only when the task says to tick or choose it (``ticks_box``): "select
    all the emails" names no "Select all" box to tick, "sign in without ticking Remember
    me" none either."""
    acted_on = [*entered_values(actions),
                *(t for _, e in actions if e.target is not None
                  for t in (e.target.name, e.target.text, e.target.label) if t)]
    options = [o for o in dropdowns.offered if o not in dropdowns.chosen and names_option(o, task)]
    boxes = [b for b in dropdowns.boxes
             if b not in dropdowns.ticked and b not in options and ticks_box(b, task)]
    return [o for o in [*options, *boxes] if not any(names_word(o, t) for t in acted_on)]


# words of a check's statement that say how the page says it, not what it says
_META = frozenset("""says say said tells reads mentions listed lists appears appear displayed
displays visible message messages""".split())


def _alike(a: str, b: str) -> bool:
    """The same word, or its other form ("closed", "close"; "reserve", "reservations")."""
    if a == b:
        return True
    n = max(4, min(len(a), len(b)) - 2)
    return min(len(a), len(b)) >= 4 and a[:n] == b[:n]


# a statement that denies, or says something went away: a text it names is absent
_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|none|without|isn't|doesn't|don't|gone|disappears?|"
    r"disappeared|hidden|hides|cleared|removed|vanish(?:es|ed)?|away|longer)\b",
    re.IGNORECASE)
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|\'[^\']*\'(?!\w)')


def speaks_of(statement: str, text: str) -> bool:
    """Does ``text`` hold half or more of the statement's words (two at least), or other
    forms of them ("The email or password is incorrect." for "the page says the email or
    password is incorrect")? Never for a statement that denies or says something went away
    ("no error is shown", "the error is gone"): a text it names is what it says is absent.
    Quoted texts are the page's words, not the statement's ("the page says \"Password must
    not be empty\"")."""
    words = [w for w in task_words(statement) if w not in _META]
    # a quoted text is what the page says ("Password must not be empty"); "not allowed" is
    # a refusal's own words
    own = re.sub(r"\bnot\s+allowed\b", " ", _QUOTED.sub(" ", statement), flags=re.IGNORECASE)
    if not words or _NEGATION.search(own):
        return False
    said = task_words(text)
    held = [w for w in words if any(_alike(w, c) for c in said)]
    return 2 * len(held) >= len(words) and len(held) >= min(2, len(words))


# words that say a statement is about a refusal: what is wrong, missing or not allowed
_REFUSING = re.compile(
    r"\b(?:errors?|wrong|incorrect|invalid|required|must|cannot|can't|failed|fails|"
    r"refused|rejected|denied|missing|problem|not\s+allowed|too\s+(?:short|long)|already)\b",
    re.IGNORECASE)


def expects_answer(statement: str, alert: str) -> bool:
    """Does a check's statement expect the alert as a refusal: it says something is wrong,
    missing or not allowed ("an error says ...", "... is required", "you must agree") and
    speaks of the alert (``speaks_of``)? A success's check that shares words with an error
    ("the email address is shown in the header", "Enter an email address") does not."""
    return _REFUSING.search(statement) is not None and speaks_of(statement, alert)


MAX_NEAR = 200  # an element around a claim longer than this (a page's main) says nothing of it


def unrelated_claims(statement: str, evidence: list[Evidence]) -> list[str]:
    """The statement's words the claims of a check called true leave out, when they are
    texts that hold fewer than half of them, or another form of them ("closed" for
    "closes"), themselves or in the element each is cited within: a sentence the page shows,
    cited for a statement it does not speak of ("Members can borrow e-books with their
    library card" for "the library is closed on Sunday": one word of three). Empty when they
    hold half or more, when a claim is of another kind (a field's value, a count, a
    picture), or when the statement has no words to look for. An element around a claim
    longer than ``MAX_NEAR`` is not read: a whole page's main holds any word."""
    words = [w for w in task_words(statement) if w not in _META]
    if not words or not evidence:
        return []
    said: list[str] = []
    for ev in evidence:
        spec = ev.spec
        if spec is not None and getattr(spec, "expect", "text") != "text":
            return []
        near = [ev.text, ev.within.text if ev.within is not None else None]
        said += task_words(" ".join([getattr(spec, "text", None) or ev.cited, *(
            t for t in near if t and len(t) <= MAX_NEAR)]))
    left = [w for w in words if not any(_alike(w, c) for c in said)]
    return left if 2 * (len(words) - len(left)) < len(words) else []
