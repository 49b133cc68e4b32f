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
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime

from ...browser.fields import end_of, is_box, is_text_field
from ...browser.page_state import StateLine, state_lines
from ...tools.meant import ancestors, field_format, inside, read_lines
from ..guards import _WORD, STOP, goes_to, speaks_of, task_words

MAX_LINES = 5
MAX_COVER = 8  # lines listed when more are needed for each word some line holds
MAX_LINE = 200
MAX_CONTROLS = 6  # a container holding more is a list, not one item


_ID = re.compile(r"^[a-z][a-z0-9]*-\d+$")
_HREF = re.compile(r'\bhref="(?:[^"\\]|\\.)*"')
_LINE_IDS = re.compile(r"(?:- |> )([a-z][a-z0-9]*-\d+)(?= |$)", re.MULTILINE)


def _word_forms(word: str) -> str:
    """A pattern for ``word`` and its plural or singular: "tabs" holds "Tab #2", "coat"
    holds "Coats" ("address", "bus" are no plurals)."""
    stem = word
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        stem = word[:-2] if word.endswith(("ches", "shes", "xes")) else word[:-1]
    return re.escape(stem) + "(?:s|es)?"


def matching_lines(state_text: str, phrase: str, limit: int = MAX_LINES, *,
                   senders: bool = True) -> list[str]:
    """Up to ``limit`` lines of a page state's element tree that hold words of ``phrase``,
    those holding the most first (a word written as in the phrase counts a little more),
    in page order among equals, none holding less than half what the best holds; each
    line stripped of its
    indentation, with " (in <id> > <id>)" naming the nearest two containers with an id."""
    words = task_words(phrase)
    # "expand the section": what is collapsed now is what the task is about
    expanding = bool(_EXPAND.search(phrase))
    if not words and not expanding:
        return []
    patterns = [re.compile(rf"(?<![a-z0-9]){_word_forms(w)}(?![a-z0-9])") for w in words]
    # a text the task quotes, said whole ('the link "aliquet"'): the element the task names
    quoted = [re.compile(rf"(?<![a-z0-9]){re.escape(q.casefold())}(?![a-z0-9])")
              for q in quoted_texts(phrase)]
    exact = [w for w in (raw.strip(".,'’-") for raw in _WORD.findall(phrase))
             if w.lower() in words and w != w.lower()]
    rows = []  # (depth, head, content) of each element line
    parsed = state_lines(state_text)
    ids = set(_LINE_IDS.findall(state_text))
    for line in parsed:
        # a bare text's line is all text: its first word is no head ("Audrey Ridiculus...")
        said = line.content if line.head.startswith('"') else line.rest
        rows.append((line.indent, line.head, said, line.content))
    parents: list[tuple[int, str, int]] = []  # (depth, id, row) of the containers open here
    scored: list[tuple[int, int, str]] = []
    holding: dict[int, set[str]] = {}  # line index -> the task's words it holds
    for index, (depth, head, said, content) in enumerate(rows):
        while parents and parents[-1][0] >= depth:
            parents.pop()
        containers = " > ".join(i for _, i, _ in parents[-2:])
        holder = parents[-1] if parents else None
        if _ID.match(head):
            parents.append((depth, head, index))
        # "td > a-12": an id of the page state is no word of the page ("covid-19" is), nor
        # is a link's address (href="#tabs-2" holds no "tabs" a reader sees)
        lowered = " ".join(w for w in _HREF.sub("", said.lower()).split(" ") if w not in ids)
        if shows_task(content, phrase):
            continue  # the page showing the task itself says nothing of where to act
        score = sum(2 for p in patterns if p.search(lowered))
        # a word as the task writes it ("Eget", not "eget") ranks first
        score += sum(1 for w in exact if w in said)
        if expanding and 'expanded="false"' in said:
            score += 2
        if score and any(q.search(lowered) for q in quoted):
            score += 4  # before the collapsed sections that may hide it ("expand ... to find")
        if score:
            shown = _cut(content)
            if containers:
                shown += f" (in {containers})"
            if holder is not None and not _ID.match(head):
                # a text (a product's name): what can be done with it is beside it
                controls = _controls(rows, holder[2])
                if controls:
                    shown += f"; {holder[1]} holds {', '.join(controls)}"
            form = next((p for p in reversed(parents) if p[1].startswith("form-")), None)
            if senders and form is not None and head.split("-")[0] in FIELDS:
                # a field: nothing happens until its form is sent, and by which button
                buttons = _senders(rows, form[2])
                if buttons:
                    shown += f"; {' or '.join(buttons)} sends {form[1]}"
            scored.append((-score, index, shown))
            holding[index] = {w for w, p in zip(words, patterns, strict=True)
                              if p.search(lowered)}
    if not scored:
        return []
    # a word a single line holds says more of where to act than one many lines hold ("the
    # link aliquet" among six tabs' lines, each holding "tabs"): that line ranks first
    held = Counter(w for words_held in holding.values() for w in words_held)
    scored = [(score - sum(1 for w in holding[index] if held[w] == 1), index, shown)
              for score, index, shown in scored]
    # lines holding less than half what the best holds are noise beside it (every "Add to
    # cart" button beside the product the task names)
    best = -min(scored)[0]
    ranked = sorted(scored)
    chosen = [hit for hit in ranked[:limit] if -hit[0] * 2 >= best]
    # a word of the task some line holds and none chosen does gets its best line, up to
    # MAX_COVER in all ("tick nb, 8q, pK, v8, U6 and click Submit": six lines, each a word)
    covered = set().union(*(holding[i] for _, i, _ in chosen))
    for hit in ranked:
        if len(chosen) >= (MAX_COVER if limit >= MAX_LINES else limit):
            break
        if hit not in chosen and holding[hit[1]] - covered:
            chosen.append(hit)
            covered |= holding[hit[1]]
    return [shown for _, _, shown in sorted(chosen)]


FIELDS = ("input", "select", "textarea")
# ids that name no control to click: fields, containers, pictures (collector.js's lists)
_NOT_CLICKED = FIELDS + ("ul", "ol", "table", "form", "section", "aside", "nav", "main",
                         "article", "dialog", "canvas", "svg", "img", "video")
_EXPAND = re.compile(r"\b(?:expand|unfold|uncollapse)", re.IGNORECASE)


def _senders(rows: list[tuple[int, str, str, str]], form: int, limit: int = 2) -> list[str]:
    """The buttons inside the form at ``rows[form]`` (its submit buttons, as a page state
    shows them), as ``button-0 "Apply"``."""
    depth = rows[form][0]
    found = []
    for inner, head, said, _ in rows[form + 1:]:
        if inner <= depth:
            break
        if head.startswith("button-") and 'type="button"' not in said \
                or head.startswith("input-") and 'type="submit"' in said:
            found.append(_short(head, said))
    return found[:limit]


def _cut(text: str, limit: int = MAX_LINE) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _controls(rows: list[tuple[int, str, str, str]], container: int,
              limit: int = MAX_CONTROLS) -> list[str]:
    """The elements with an id inside the container at ``rows[container]`` (forms aside:
    their fields and buttons are listed), shortened; none when it holds more than
    ``limit`` (a whole list, not one item)."""
    depth = rows[container][0]
    found = []
    for inner, head, said, _ in rows[container + 1:]:
        if inner <= depth:
            break
        if _ID.match(head) and not head.startswith("form-"):
            found.append(_short(head, said))
    return found if len(found) <= limit else []


def _short(head: str, said: str) -> str:
    """``button-4 "Add to cart"``, ``select-3 (Size: S|M|L)``: an element by its id and
    what names it."""
    attrs = dict(re.findall(r'([\w-]+)="((?:[^"\\]|\\.)*)"', said))
    # an icon's name or title too: "span-4 (more)" says what an icon-only control does
    name = next((attrs[k] for k in ("aria-label", "label", "placeholder", "name", "title",
                                    "icon") if attrs.get(k)), "")
    if said.rstrip().endswith('"') and not said.rstrip().endswith('")'):
        quoted = said.rstrip().rsplit(' "', 1)[-1].strip('"')
        return _cut(f'{head} "{quoted}"', 60)
    if attrs.get("options"):
        return _cut(f"{head} ({name}: {attrs['options']})" if name
                    else f"{head} ({attrs['options']})", 60)
    return f"{head} ({_cut(name, 40)})" if name else head


def hint(state_text: str, phrase: str, *, senders: bool = True) -> str:
    """The block said after the page state: the lines that hold words of ``phrase``, or
    that none does. Without ``senders``, a field's line does not name the button that sends
    its form (a statement to check sends nothing: a small model read "button-0 sends
    form-0" beside the Password field a statement asked about, and called it false)."""
    words = task_words(phrase)
    if not words and not _EXPAND.search(phrase):
        return ""
    lines = matching_lines(state_text, phrase, senders=senders)
    if not lines and (kinds := _kinds_named(state_text, phrase)):
        # "Focus into the textbox": no line says "textbox", but input-0 is one
        return "\n".join(kinds)
    if not lines:
        # a task that names a kind of element ("a textarea") names what ids say, which no
        # line's words hold: "no line holds textarea" beside textarea-0 would mislead
        tags = {m.group(1) for m in re.finditer(r"- (?:\S+ > )*([a-z][a-z0-9]*)-\d+\b",
                                                state_text)}
        if any(w in tags or w.rstrip("s") in tags for w in words):
            return ""  # measured: "no line holds widget" beside it sent the model typing
        return ("No line of the page state above holds any of these words: "
                + ", ".join(words) + ".")
    said = ("Lines of the page state above that hold words of it:\n"
            + "\n".join(f"  {line}" for line in lines))
    # a name the task gives that this page of a paged list does not show (a contact on a
    # later page): said only beside a next-page control (a value to type is absent too)
    following = _next_page(state_text)
    missing = missing_names(state_text, phrase) if following else []
    if missing:
        names = ", ".join(f'"{n}"' for n in missing)
        said += (f"\nNo line of the page state above holds {names}: the list may go on; "
                 f"{following} shows its next page.")
    return said


# a name the task gives: a word in capitals that starts no sentence ("Find Casie in the
# contact book"), not quoted (a quoted text is ``absent_texts``')
_NAME = re.compile(r"(?<![.!?:\"“'] )(?<!^)(?<!\n)(?<!  )\b([A-Z][a-z][A-Za-z'’-]+)\b")


def task_names(task: str) -> list[str]:
    """The names ``task`` gives: words in capitals that start no sentence, not quoted, a
    possessive's "'s" aside ("Find Casie's address": Casie), once each, in order."""
    unquoted = _QUOTED.sub(" ", task)
    return list(dict.fromkeys(re.sub(r"['’]s$", "", m.group(1)) for m in _NAME.finditer(unquoted)
                              if m.group(1).lower() not in STOP))


def missing_names(state_text: str, task: str, limit: int = 3) -> list[str]:
    """The names ``task`` gives (``task_names``, at most ``limit``) that no line of the page
    state holds, case aside, the line showing the task itself aside."""
    names = task_names(task)
    if not names:
        return []
    shown = "\n".join(line for line in state_text.casefold().splitlines()
                      if not shows_task(line, task))
    return [n for n in names
            if not re.search(rf"(?<![a-z0-9]){re.escape(n.casefold())}(?![a-z0-9])", shown)
            ][:limit]


def name_on_later_page(task: str, state_text: str, target: str) -> str | None:
    """What ``absent-name`` says of a click on ``target``: ``task`` names someone or
    something (``missing_names``: no day or month) and no name it gives is on a line of
    this page of a paged list (a task naming one person on the page and another to send to
    is about the one shown), the list has a next-page control, and ``target`` is no control
    of its pager (next, previous, first, last, a page's number) nor a field or a search
    button (a way to find the name); else None."""
    following = _next_page(state_text)
    if not following:
        return None
    every = task_names(task)
    names = [n for n in every if n.lower() not in _CALENDAR]
    missing = [n for n in missing_names(state_text, task, limit=len(every))
               if n.lower() not in _CALENDAR]
    if not missing or len(missing) < len(names):
        return None
    line = next((inner for line in state_lines(state_text)
                 if (inner := _inner(line)).id == target), None)
    if line is None or is_text_field(line):
        return None
    label = _label(line)
    if _pages(label) or _FINDS.match(label):
        return None
    said = ", ".join(f'"{n}"' for n in missing)
    return (f"Not run yet: no line of this page holds {said}, which the task names, and "
            f"{target} is not it. The list may go on: {following} shows its next page; go "
            f"there to find it (clicked again, {target} runs).")


_CALENDAR = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                       "sunday", "january", "february", "march", "april", "may", "june",
                       "july", "august", "september", "october", "november", "december"})
_ENDS = re.compile(r"^(?:[«‹]\s*)?(?:first|last)(?: page)?(?:\s*[»›])?$", re.IGNORECASE)
_FINDS = re.compile(r"^(?:search|find|go|filter)$", re.IGNORECASE)


_CLOSES = re.compile(r"\b(?:close|collapse|hide|fold|shut|minimi[sz]e)\w*", re.IGNORECASE)


def hides_named(task: str, state_text: str, target: str, before: str | None = None
                ) -> str | None:
    """What ``open-shown`` says of a click on ``target``: it is open (flagged expanded, or
    its own last click, on the page ``before``, made the line appear) and the page shows,
    on another element's line, a text ``task`` quotes (that text, or it and words the task
    says: "Block @consectetur" for "Block"), while the task says nothing of closing,
    collapsing or hiding; else None."""
    if _CLOSES.search(task):
        return None
    lines = state_lines(state_text)
    line = next((inner for row in lines if (inner := _inner(row)).id == target), None)
    if line is None:
        return None
    expanded = line.attrs.get("expanded") == "true"
    if before is not None:
        # ids are given afresh on every reading: the same id on another element (the page
        # changed under it) says nothing of what this one opened
        then = next((inner for row in state_lines(before)
                     if (inner := _inner(row)).id == target), None)
        if then is None or _label(then) != _label(line) or then.head != line.head:
            before = None
    if not expanded and before is None:
        return None
    # what it opens comes after it, before the next element like it (the next section's
    # heading, the next tab): a text elsewhere on the page is not what a click on it hides
    at = next(i for i, row in enumerate(lines) if _inner(row).id == target)
    end = next((j for j in range(at + 1, len(lines))
                if lines[j].depth <= lines[at].depth and (
                    _inner(lines[j]).head.split("-")[0] == line.head.split("-")[0]
                    or "expanded" in _inner(lines[j]).attrs)), len(lines))
    if expanded and before is None:
        # an open section's panel: its own lines, or its next sibling's (a heading, then
        # the panel it controls); a text further on is not what it opened
        sibling = next((j for j in range(at + 1, len(lines))
                        if lines[j].depth <= lines[at].depth), len(lines))
        if sibling < len(lines) and lines[sibling].depth == lines[at].depth:
            end = min(end, next((j for j in range(sibling + 1, len(lines))
                                 if lines[j].depth <= lines[at].depth), len(lines)))
        else:
            end = min(end, sibling)
    lines = lines[at + 1:end]
    earlier = {" ".join(r.text.split()).casefold() for r in state_lines(before or "")}
    lowered = " ".join(task.split()).casefold()
    for quote in quoted_texts(task):
        # the text as the task writes it first ("Eget" before "eget": a test reads case)
        rows = sorted(lines, key=lambda row: " ".join(_inner(row).text.split()) != quote)
        for row in rows:
            inner = _inner(row)
            text = " ".join(inner.text.split()).casefold()
            if (inner.id in (None, target) or not text
                    or not (text == quote.casefold()
                            or _quoted_then_named(text, quote.casefold(), lowered))
                    or not expanded and text in earlier):
                continue
            said = "is open" if expanded else "opened what shows it"
            return (f'Not run: {target} "{_label(line)}" {said}, and the page shows '
                    f'{inner.id} "{inner.text}", which the task names: clicking {target} '
                    f"would close it. Act on {inner.id} (clicked again, {target} runs).")
    return None


def _next_page(state_text: str) -> str:
    """The control that shows a paged list's next page (``a-4 ">"``), else ""."""
    for line in state_lines(state_text):
        inner = _inner(line)
        if inner.id is not None and "disabled" not in inner.flags and _NEXT.match(_label(inner)):
            return f'{inner.id} "{_label(inner)}"'
    return ""


_QUOTED = re.compile(r'"([^"]{2,80})"|“([^”]{2,80})”|(?<![A-Za-z])\'([^\']{2,80})\'(?![A-Za-z])')


def quoted_texts(task: str) -> list[str]:
    """The texts ``task`` quotes ('click on the link "aliquet"'), in order, once each."""
    found = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(task)]
    return list(dict.fromkeys(t.strip() for t in found if t.strip()))


def absent_texts(state_text: str, task: str) -> list[str]:
    """The texts ``task`` quotes that no line of the page state holds (case aside): those
    a hidden part of the page (another tab, a closed section) may hold."""
    # a line that quotes the task itself (a page that shows its own instructions) aside
    lowered = "\n".join(line for line in state_text.casefold().splitlines()
                        if not shows_task(line, task))
    return [t for t in quoted_texts(task) if t.casefold() not in lowered]


def shows_task(line: str, task: str) -> bool:
    """Does a page-state line hold the whole of ``task`` (a page showing its own
    instructions: a tutorial, a form's help text)? Never for a task under 20 characters
    ("Submit")."""
    own = " ".join(task.split()).casefold()
    return len(own) >= 20 and own in " ".join(line.replace('\\"', '"').split()).casefold()


def hidden_lines(revealed: list[tuple[str, str]], state_text: str) -> str:
    """Sentences for the quoted texts only a hidden part of the page holds, each with the
    element that shows it: '"aliquet" is on the page but hidden now: click li-2 "Tab #3" to
    show it.' (said "shows it", a small model hovered the tab.)"""
    lines = {line.id: line for line in read_lines(state_text)}
    said = []
    for text, element_id in revealed:
        line = lines.get(element_id)
        said_as = line and (line.text or line.attrs.get("label") or line.attrs.get("aria-label"))
        name = f'{element_id} "{said_as}"' if said_as else element_id
        said.append(f'"{text}" is on the page but hidden now: click {name} to show it.')
    return "\n".join(said)


_DATE_WORDS = re.compile(r"\b(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|"
                         r"[A-Z][a-z]+ \d{1,2}, \d{4})\b")
_DAY = re.compile(r'^\s*- (?:\S+ > )*(?P<id>[a-z][a-z0-9]*-\d+)(?: \(.*\))? '
                  r'"(?P<day>\d{1,2})"\s*$')


def calendar_lines(state_text: str, task: str) -> str:
    """For each date ``task`` writes ("12/02/2016"), when the page shows a calendar (a
    month's name and year, its days below): the element of that day when the calendar
    shows its month, else which month it shows. A small model looked for "12/02/2016"
    on a date picker's page and clicked the table."""
    rows = state_text.splitlines()
    said = []
    for raw in dict.fromkeys(_DATE_WORDS.findall(task)):
        written = field_format("date", raw)
        if written is None:
            continue
        day = datetime.strptime(written, "%Y-%m-%d")
        month = day.strftime("%B %Y")
        shown = [i for i, row in enumerate(rows) if _MONTH_YEAR.search(row)
                 and not _DATE_WORDS.search(row)]
        if not shown:
            continue
        here = next((i for i in shown if month in rows[i]), None)
        if here is None:
            if sum(1 for row in rows[shown[0] + 1:] if _DAY.match(row)) < 28:
                continue  # no calendar under it
            showing = _MONTH_YEAR.search(rows[shown[0]])
            assert showing is not None
            at = datetime.strptime(showing.group(0), "%B %Y")
            months = (day.year - at.year) * 12 + day.month - at.month
            way = "Next" if months > 0 else "Prev"
            control = next((f'{line.id} "{line.text or way}"' for line in read_lines(state_text)
                            if (line.text or line.attrs.get("title", "")).strip().lower()
                            in ({"next", "next month", "›", "»"} if months > 0 else
                                {"prev", "previous", "previous month", "‹", "«"})), way)
            said.append(f"{raw} is a day of {month}; the calendar shows {showing.group(0)}: "
                        f"{control} changes the month ({abs(months)} times to {month}).")
            continue
        days = [(m.group("id"), int(m.group("day"))) for row in rows[here + 1:]
                if (m := _DAY.match(row))]
        if len(days) < 28:
            continue  # a month named ("Posted March 2016") over no calendar
        # days of the month before come first in some calendars: count from its 1st
        first = next((i for i, (_, d) in enumerate(days) if d == 1), 0)
        found = next((i for i, d in days[first:] if d == day.day), None)
        if found is not None:
            said.append(f'{raw} is {day.strftime("%B")} {day.day}, {day.year}: the calendar '
                        f'shows {month}, and {found} "{day.day}" is that day.')
    return "\n".join(said)


_ORDINAL = re.compile(r"\b(?:(?P<n>\d{1,2})(?:st|nd|rd|th)|(?P<word>first|second|third|"
                      r"fourth|fifth|sixth|seventh|eighth|ninth|tenth|last))\b", re.IGNORECASE)
_NTH = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth")
_ITEMS = ("li", "tr", "option", "article")
_MOVE = re.compile(r"(?:drag|move)\b", re.IGNORECASE)


def _positions(task: str) -> list[int]:
    """The positions ``task`` names, in order: 1 for "the first", -1 for "the last"."""
    positions = []
    for m in _ORDINAL.finditer(task):
        if re.match(r"\s+name\b", task[m.end():], re.IGNORECASE):
            continue  # a first or last name is no position
        word = (m.group("word") or "").lower()
        n = -1 if word == "last" else int(m.group("n")) if m.group("n") else _NTH.index(word) + 1
        if n != 0 and n not in positions:
            positions.append(n)
    return positions


def _lists(lines: list[StateLine], task: str) -> list[tuple[str, list[StateLine], int, int]]:
    """The lists of a page state (a container whose child lines are items of one kind: li,
    tr, article), those holding the task's words first: (container id, items, first line,
    last line)."""
    words = task_words(task)
    lists = []  # (holds task words, order, container id, items, end)
    for index, line in enumerate(lines):
        if line.id is None:
            continue
        children = []
        end = index
        for at, inner in enumerate(lines[index + 1:], index + 1):
            if inner.indent <= line.indent:
                break
            end = at
            if inner.indent == line.indent + 2:
                children.append(_named_item(lines, at))
        # its items: the children of one item kind (a heading or a form beside them aside)
        kinds = [kind for kind in _ITEMS
                 if sum(c.outer.split("-")[0] == kind for c in children) >= 2]
        if len(kinds) != 1:
            continue
        items = [c for c in children if c.outer.split("-")[0] == kinds[0]]
        held = any(w in item.content.lower() for item in items for w in words)
        lists.append((not held, index, line.id, items, end))
    for start, items, end in _link_runs(lines):
        held = any(w in item.content.lower() for item in items for w in words)
        lists.append((not held, start, "the page", items, end))
    return [(container, items, start, end)
            for _, start, container, items, end in sorted(lists, key=lambda t: t[:2])]


def _link_runs(lines: list[StateLine]) -> list[tuple[int, list[StateLine], int]]:
    """The runs of links at the page's top level each followed by text (search results, a
    title link and its lines of text): (first line, the links, last line); two links or
    more. A text is words (a "|" between menu links is none), and a pager's control ends a
    run: a bare row of links is a menu, numbers and arrows are a pager."""
    runs: list[tuple[int, list[StateLine], int]] = []
    links: list[StateLine] = []
    start = end = -1
    texted = True  # the last link has text after it
    for at, line in enumerate([*lines, None]):
        link = (line is not None and line.depth == 0 and not line.chain
                and (line.id or "").startswith("a-") and not _pages(_label(line)))
        text = (line is not None and line.depth == 0 and line.id is None and bool(links)
                and line.head.startswith('"') and re.search(r"[A-Za-z]{3}", line.content))
        if link and texted and line is not None:
            if not links:
                start = at
            links.append(line)
            texted, end = False, at
            continue
        if text and line is not None:
            texted, end = True, at
            continue
        if len(links) >= 2 and texted:
            runs.append((start, links, end))
        elif len(links) >= 3:  # the run's last link had no text: the run before it
            runs.append((start, links[:-1], end - 1))
        links, texted = [], True
        if link and line is not None:  # a link after a link: a new run may start here
            start, links, texted, end = at, [line], False, at
    return runs


def _pages(label: str) -> bool:
    """Is ``label`` a pager control's (next, previous, first, last, a page's number)?"""
    return bool(_NEXT.match(label) or _PREVIOUS.match(label) or label.isdigit()
                or _ENDS.match(label))


# the kinds of control a position may count ("the 3rd checkbox"), the longest words first
_KIND_WORDS = (
    ("radio button", r"radio(?:\s*buttons?)?"),
    ("checkbox", r"check\s*box(?:es)?|tick\s*box(?:es)?"),
    ("text field", r"(?:input\s*)?text\s*(?:box(?:es)?|fields?|inputs?)|input(?:\s*box)?(?:es|s)?"
                   r"|(?:text\s*)?fields?"),
    ("dropdown", r"drop\s*-?\s*downs?|select\s*box(?:es)?|combo\s*box(?:es)?"),
    ("button", r"buttons?"),
    ("link", r"links?"),
)


def _kinds_named(state_text: str, phrase: str, limit: int = 3) -> list[str]:
    """For each kind of control ``phrase`` names ("the textbox", "a button"), the page's
    controls of that kind when it has 1 to ``limit`` of them: 'The page's text field (the
    task names a text field): input-0 (type="text").'"""
    said = []
    lines = [line for line in state_lines(state_text) if line.id]
    # a kind word the hint would say no line holds ("textbox"; "a Password field" names
    # another thing than the page's one field, and "field" is no word it would say)
    words = task_words(phrase)
    for kind, pattern in _KIND_WORDS:
        if not any(re.fullmatch(pattern, w, re.IGNORECASE) for w in words):
            continue
        of_kind = [_cut(_inner(line).content, 80) for line in lines if _is_kind_of(line, kind)]
        if 0 < len(of_kind) <= limit:
            said.append(f"The page's {kind}{'s' if len(of_kind) > 1 else ''} (the task names "
                        f"a {kind}): {'; '.join(of_kind)}.")
    return said


def _is_kind_of(line: StateLine, kind: str) -> bool:
    tag = (line.id or "").rsplit("-", 1)[0]
    role, typ = line.attrs.get("role"), line.attrs.get("type", "")
    if kind == "radio button":
        return (tag == "input" and typ == "radio") or role == "radio"
    if kind == "checkbox":
        return is_box(line)
    if kind == "text field":
        return is_text_field(line)
    if kind == "dropdown":
        return tag == "select" or role in ("combobox", "listbox")
    if kind == "button":
        return ((tag == "button" and role is None) or role == "button"
                or (tag == "input" and typ in ("submit", "button", "reset")))
    return (tag == "a" and role in (None, "link")) or role == "link"


def _kind_positions(task: str) -> list[tuple[int, str]]:
    """The positions ``task`` names of a kind of control ("the 3rd checkbox", "the first
    text box", "the last link"): (position, kind), the kind said within three words after."""
    found = []
    for m in _ORDINAL.finditer(task):
        after = task[m.end():m.end() + 40]
        if re.match(r"\s+name\b", after, re.IGNORECASE):
            continue  # "the first name field" is no position
        for kind, words in _KIND_WORDS:
            if re.match(rf"\s+(?:\w+\s+){{0,2}}?(?:{words})\b", after, re.IGNORECASE):
                word = (m.group("word") or "").lower()
                n = (-1 if word == "last" else int(m.group("n")) if m.group("n")
                     else _NTH.index(word) + 1)
                if n != 0 and (n, kind) not in found:
                    found.append((n, kind))
                break
    return found


def kind_lines(state_text: str, task: str, limit: int = 3) -> list[str]:
    """For each position of a kind of control ``task`` names, that control counted in page
    order: 'The 3rd checkbox of the page is input-2 (type="checkbox").'"""
    said: list[str] = []
    lines = [line for line in state_lines(state_text) if line.id]
    for n, kind in _kind_positions(task):
        of_kind = [line for line in lines if _is_kind_of(line, kind)]
        if not of_kind or n > len(of_kind):
            continue
        line = of_kind[n - 1] if n > 0 else of_kind[-1]
        place = "last" if n < 0 else _ordinal(n)
        said.append(f"The {place} {kind} of the page ({len(of_kind)} in all) is "
                    f"{_cut(_inner(line).content, 80)}.")
    return said[:limit]


def ordinal_lines(state_text: str, task: str, limit: int = 2) -> str:
    """For each position ``task`` names ("the 3rd position", "the first product"), the item
    at that position of each list that has it (a list's items are its child lines of one
    kind: li, tr, article): 'The 3rd item of ul-0 is li-2 "Martelle".' A small model
    counted Theodosia's own place as the 3rd. Lists holding the task's words come first."""
    positions = _positions(task)
    if not positions:
        return ""
    if _kind_positions(task):  # "the 3rd checkbox": a control of that kind, not a list's item
        return "\n".join(kind_lines(state_text, task))
    said = []
    moving = bool(_MOVE.match(task.strip()))
    for container, items, _, _ in _lists(state_lines(state_text), task):
        for n in positions:
            if n > len(items):
                continue
            item = items[n - 1] if n > 0 else items[-1]
            place = "last" if n < 0 else _ordinal(n)
            if moving:  # a drag names a place, not the item there now
                said.append(f"To move an item to the {place} position of {container}, drag "
                            f"it onto {_cut(item.content, 80)}, the {place} item now.")
            else:
                said.append(f"The {place} item of {container} is {_cut(item.content, 80)}.")
        if len(said) >= limit:
            break
    return "\n".join(said[:limit])


_NEXT = re.compile(r"^(?:next(?: page| results?)?(?:\s*[›»>])?|[›»>]{1,2})$", re.IGNORECASE)
_PREVIOUS = re.compile(r"^(?:(?:[‹«<]\s*)?prev(?:ious)?(?: page| results?)?|[‹«<]{1,2})$",
                       re.IGNORECASE)
_PAGE_OF = re.compile(r"\bpage (\d+) of \d+\b", re.IGNORECASE)


_CHAIN = re.compile(r"^(?:[a-z][\w-]* > )+(?=\S)")


def _inner(line: StateLine) -> StateLine:
    """The element a collapsed line ends with (``li > a-3 "2"``: ``a-3 "2"``), else the line."""
    chain = _CHAIN.match(line.content)
    if chain is None:
        return line
    inner = state_lines(" " * line.indent + "- " + line.content[chain.end():])
    return inner[0] if inner else line


def _label(line: StateLine) -> str:
    return " ".join((line.text or line.attrs.get("label") or line.attrs.get("title")
                     or "").split())


_NUMBER = re.compile(r'^(?:[a-z][\w-]* )?(?:\([^)]*\) )?"(\d+)"$')


def _unlinked_number(lines: list[StateLine], near: int) -> int | None:
    """The page a pager shows as the one number among its own that is no control (links to
    1 and 3 around a plain 2): the lines beside the next-page control, at its depth or
    deeper; None unless exactly one number is plain and another is a control."""
    indent = lines[near].indent
    start = near
    while start > 0 and lines[start - 1].indent >= indent:
        start -= 1
    end = near
    while end + 1 < len(lines) and lines[end + 1].indent >= indent:
        end += 1
    plain, linked = [], 0
    for line in lines[start:end + 1]:
        inner = _inner(line)
        if inner.id is not None:
            linked += _label(inner).isdigit()
        elif (number := _NUMBER.match(inner.content)) is not None:
            plain.append(int(number.group(1)))
    return plain[0] if len(plain) == 1 and linked else None


@dataclass(frozen=True)
class _Pager:
    """A paged list as one page state shows it: its pager's controls, the page shown, and
    the list (the longest outside the pager)."""

    controls: list[tuple[int, StateLine]]
    following: tuple[int, StateLine] | None
    previous: tuple[int, StateLine] | None
    current: int
    container: str
    items: list[StateLine]


def _pager(lines: list[StateLine], task: str) -> _Pager | None:
    controls = [(at, inner) for at, line in enumerate(lines)
                if (inner := _inner(line)).id is not None and "disabled" not in inner.flags]
    following = next(((at, line) for at, line in controls if _NEXT.match(_label(line))), None)
    previous = next(((at, line) for at, line in controls if _PREVIOUS.match(_label(line))),
                    None)
    near = following or previous
    if near is None:
        return None
    current = next((int(_label(line)) for _, line in controls
                    if "current" in line.flags and _label(line).isdigit()), None)
    if current is None:
        current = next((int(m.group(1)) for line in lines
                        if (m := _PAGE_OF.search(line.content))), None)
    if current is None:
        current = _unlinked_number(lines, near[0])
    if current is None:
        if previous is not None:
            return None  # another page than the first, and which one is not said
        current = 1
    pager = {side[0] for side in (following, previous) if side is not None}
    lists = [(container, items) for container, items, start, end in _lists(lines, task)
             if not any(start <= at <= end for at in pager)]  # the pager's own list aside
    if not lists:
        return None
    container, items = max(lists, key=lambda t: len(t[1]))  # the first of the longest
    return _Pager(controls, following, previous, current, container, items)


def page_length(state_text: str, task: str) -> int | None:
    """How many items a page of the paged list holds, read on a page that has a next-page
    control (every page before the last holds as many); None where no such page shows."""
    if not any(n > 0 for n in _positions(task)):
        return None
    pager = _pager(state_lines(state_text), task)
    return len(pager.items) if pager is not None and pager.following is not None else None


def page_position_lines(state_text: str, task: str, limit: int = 2,
                        per_page: int | None = None) -> str:
    """For each position ``task`` names beyond what a paged list shows ("the 7th result",
    the page showing 3 and a next-page control), which page holds it, which item of that
    page it is, and the control that goes there (the page's number, else next or
    previous, how many times); on the page that holds it, which item it is. The page shown
    is read from a control marked current, a "Page 2 of 5" text or the one number of the
    pager that is no link (the first page when there is none of these and no previous-page
    control). A page's length is read where the page has a next-page control (the last
    page may hold fewer); on the last page, ``per_page`` is that length as an earlier page
    showed it (``page_length``), else nothing is said. A model counts only what one page
    shows."""
    positions = [n for n in _positions(task) if n > 0]
    if not positions:
        return ""
    found = _pager(state_lines(state_text), task)
    if found is None:
        return ""
    container, items, current = found.container, found.items, found.current
    if found.following is not None:
        per = len(items)
    elif per_page is not None and len(items) <= per_page:
        per = per_page
    else:
        return ""
    said = []
    for n in positions:
        page, at = (n - 1) // per + 1, (n - 1) % per
        if page == current == 1:
            continue  # on the first page: the position hint names it
        if page == current:
            if at < len(items):
                said.append(f"Counted across pages ({per} a page), the {_ordinal(n)} item is "
                            f"on this page, page {current}: the {_ordinal(at + 1)} item of "
                            f"{container}, {_cut(items[at].content, 80)}.")
            continue
        number = next((line for _, line in found.controls if _label(line) == str(page)), None)
        step = found.following if page > current else found.previous
        if number is not None:
            way = f'{number.id} "{page}" goes there'
        elif step is not None:
            times = abs(page - current)
            way = (f'{step[1].id} "{_label(step[1])}" goes to the '
                   f'{"next" if page > current else "previous"} page'
                   + (f" ({times} times to page {page})" if times > 1 else ""))
        else:
            continue
        first = (current - 1) * per + 1
        said.append(f"The {_ordinal(n)} item is not on this page: {container} shows "
                    f"{len(items)} items, the {_ordinal(first)} to the "
                    f"{_ordinal(first + len(items) - 1)} (page {current}). At {per} a page, "
                    f"the {_ordinal(n)} is the {_ordinal(at + 1)} item of page {page}: {way}.")
    return "\n".join(said[:limit])


def _named_item(lines: list[StateLine], at: int) -> StateLine:
    """``lines[at]``, and when it shows no text of its own (a product card), with the first
    text inside it: 'article-0 (h2 "Blue Oxford Shirt")'."""
    item = lines[at]
    if item.text or not item.parsed:
        return item
    for inner in lines[at + 1:]:
        if inner.indent <= item.indent:
            break
        if inner.text:
            return replace(item, rest=f"{item.rest} ({_cut(inner.content, 60)})".strip())
    return item


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_MONTH_YEAR = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|"
                         r"October|November|December) \d{4}\b")


def sending_forms(state_text: str, changed: list[str]) -> str:
    """For the fields on ``changed`` page-state lines (those whose values changed), the form
    holding each and the buttons that send it, as a sentence each: "select-0 is in form-0,
    which button-0 "Apply" sends: nothing changes on the page until it is pressed."""
    lines = read_lines(state_text)
    ids = {line.id for line in read_lines("\n".join(c.strip() for c in changed))}
    said = []
    for index, line in enumerate(lines):
        form = next((f for f in ancestors(lines, index) if f.tag == "form"), None) \
            if line.id in ids else None
        if form is None:
            continue
        buttons = [f'{b.id} "{b.text}"' if b.text else b.id
                   for b in inside(lines, form) if b.kind == "clicked"]
        if buttons:
            said.append(f"{line.id} is in {form.id}, which {' or '.join(buttons[:2])} "
                        "sends: nothing changes on the page until it is pressed. ")
    return "".join(dict.fromkeys(said))


# "go to the opening hours", "open Paper Moons": a verb that follows a link, before its text


def named_buttons(state_text: str, task: str, clicked: set[str], limit: int = 3, *,
                  links: bool = False) -> list[str]:
    """The page's buttons whose whole text ``task`` names ("hit submit") and whose text is
    not in ``clicked`` (case aside), as ``button-0 "Submit"``. A link, or any other element
    with an id but a field, counts when the task quotes its text ('click on the link
    "aliquet"', a span with a click handler), and (``links``: the page is where the task
    began) a link whose text follows a verb that goes there ("go to the opening hours"):
    the page a link opens may be reached another way (navigate to "/?page=2"), and a link
    a task merely names ("add the Blue Shirt") is no way the task asks to go."""
    quotes = [q.casefold() for q in quoted_texts(task)]
    task = " ".join(task.split()).casefold()
    named = []
    for line in read_lines(state_text):
        if str(line.id or "").startswith("text-"):
            continue  # a text ``find`` gave an id to (a cell, a label): no control to click
        text = " ".join(line.text.split()).casefold()
        quoted = any(f"{q}{text}{e}" in task for q, e in ('""', "''", "“”", "‘’"))
        # a quoted text, then words the task says ("Block" for the user @consectetur: the
        # menu's "Block @consectetur")
        part = any(_quoted_then_named(text, q, task) for q in quotes)
        gone = links and goes_to(line.tag, text, task)
        # a quoted text names any element with an id that shows it (a span styled as a
        # link, with a click handler); unquoted, a button's text
        if ((quoted and line.tag not in _NOT_CLICKED or line.kind == "clicked" and line.tag != "a"
             or gone)
                and text
                and text not in clicked
                and re.search(rf"(?<!\w){re.escape(text)}(?!\w)", task)
                or part and line.tag not in _NOT_CLICKED and text not in clicked):
            named.append(f'{line.id} "{line.text}"')
    named += [found for found in _labelled_controls(state_text, task, clicked)
              if found not in named]
    return named[:limit]


# "click on their address", "click the phone number": what to click, named by its label
_CLICK_THE = re.compile(r"\bclick\s+(?:on\s+)?(?:the|their|his|her|its)\s+"
                        r"([a-z][a-z ]{1,30}?)\s*(?=[.,;!]|\s+(?:and|then|of|for|in|to)\b|$)")


def _labelled_controls(state_text: str, task: str, clicked: set[str]) -> list[str]:
    """The control a task (casefolded) says to click by a label the page shows beside it
    ("click on their address" beside ``"Address:"``): the link or button on the line right
    after the label, or the one such control of a container that holds nothing else but
    the label's text; one with a text, not in ``clicked``."""
    words = {m.group(1).strip() for m in _CLICK_THE.finditer(task)}
    if not words:
        return []
    lines = state_lines(state_text)
    found = []
    for at, line in enumerate(lines):
        label = (line.content.strip().strip('"').strip().rstrip(":").casefold()
                 if line.id is None and line.head.startswith('"') else "")
        if not label or label not in words:
            continue
        after = lines[at + 1] if at + 1 < len(lines) else None
        controls = [after] if (after is not None and after.depth == line.depth
                               and _pressable(after)) else []
        up = next((i for i in range(at - 1, -1, -1) if lines[i].depth < line.depth), None)
        if not controls and up is not None:
            inside = lines[up + 1:end_of(lines, up)]
            pressable = [c for c in inside if _pressable(c)]
            if len(pressable) == 1 and all(c is line or c is pressable[0] or
                                           c.depth > pressable[0].depth for c in inside):
                controls = pressable
        text = " ".join(controls[0].text.split()).casefold() if controls else ""
        if text and text not in clicked:
            found.append(f'{controls[0].id} "{controls[0].text}"')
    return found


def _pressable(line: StateLine) -> bool:
    return bool(line.id) and str(line.id).rsplit("-", 1)[0] in ("a", "button")


def _quoted_then_named(text: str, quote: str, task: str) -> bool:
    """Does an element's ``text`` start with a text the task quotes and say nothing else
    the task does not ('click on the "Block" button' for the user @consectetur: a menu's
    "Block @consectetur")?"""
    if not quote or not text.startswith(quote) or text == quote:
        return False
    rest = text[len(quote):]
    words = re.findall(r"[@#]?\w[\w.'’-]*", rest)
    return (not rest[:1].isalnum()) and bool(words) and all(
        re.search(rf"(?<![\w@#]){re.escape(w)}(?!\w)", task) for w in words)


# A do task whose words say it sends something wrong, or nothing: a refusal is its answer.
# Phrases about what is sent, never a bare word ("empty the cart", "the unknown user's
# email", "sign up without the newsletter" mean to succeed).
_SENT = (r"(?:password|e-?mail(?: address)?|address|code|pin|username|user name|card(?: number)?"
         r"|number|date|value|name|phone(?: number)?|postcode|zip(?: code)?)")
_EXPECTS_REFUSAL = re.compile(
    r"\bwithout\s+(?:filling|entering|typing|choosing|selecting|ticking|checking|giving|"
    r"providing|completing)\b"
    r"|\bwith\s+(?:a|an|the|some)?\s*(?:wrong|invalid|incorrect|expired|mistyped|"
    rf"unregistered|malformed)\s+{_SENT}\b"
    rf"|\b(?:and|with|but)\s+no\s+{_SENT}\b"
    r"|\b(?:leave|leaving|left)\s+(?:\w+\s+){0,4}?(?:empty|blank)\b"
    r"|\b(?:an?|the)\s+(?:empty|blank)\s+(?:form|field|fields|search|box)\b",
    re.IGNORECASE)
_ALERT_ROLES = frozenset({"alert", "alertdialog"})
_DIALOG = re.compile(r"dialog(?:-\d+)?")
_BUTTONS = re.compile(r"button|input")


def expects_refusal(task: str) -> bool:
    """Do the task's own words say it sends something wrong or nothing ("press Join without
    filling in the form", "sign in with an invalid email", "submit the empty form")? Its
    quoted values are not its words ("type \"without filling\"" says nothing of the kind)."""
    return _EXPECTS_REFUSAL.search(re.sub(r'"[^"]*"|“[^”]*”', " ", task)) is not None


def alert_texts(state_text: str) -> list[str]:
    """What the page's alerts say (an element with role alert or alertdialog, an open
    ``dialog``), each as one text: the alert's line and the lines inside it. An alert that
    holds a button (a confirm dialog, a pop-up offering a choice) asks something and says no
    answer; one inside another is said with it."""
    out: list[str] = []
    for texts in _alerts(state_text):
        text = _cut(" ".join(texts))
        if text and text not in out:
            out.append(text)
    return out


def _alerts(state_text: str) -> list[list[str]]:
    """Each alert of the page (``alert_texts``) as the texts of its own lines, in order."""
    lines = state_lines(state_text)
    out: list[list[str]] = []
    until = -1  # the last line of the alert being read: one inside it is its own text
    for n, line in enumerate(lines):
        if n <= until:
            continue
        if (line.attrs.get("role") not in _ALERT_ROLES
                and not _DIALOG.fullmatch(line.outer)):
            continue
        inner = _inside(lines, n)
        until = n + len(inner)
        if any(_BUTTONS.match(x.outer) or x.attrs.get("role") == "button" for x in inner):
            continue
        texts = [t for t in [line.text] + [x.text for x in inner] if t]
        if texts:
            out.append(texts)
    return out


def _inside(lines: list[StateLine], at: int) -> list[StateLine]:
    out = []
    for line in lines[at + 1:]:
        if line.indent <= lines[at].indent:
            break
        out.append(line)
    return out


def page_answers(start_text: str, now_text: str) -> list[str]:
    """The alerts the page shows now that it did not show when the task began: its answer
    to what the task sent ("The email or password is incorrect.")."""
    before = set(alert_texts(start_text))
    return [t for t in alert_texts(now_text) if t not in before]


def answer_lines(start_text: str, now_text: str, answers: list[str]) -> list[str]:
    """The texts of the lines of the alerts ``answers`` names (``page_answers``), each once,
    that the page did not show when the task began: what a claim of the answer cites
    ("There is a problem", "Postcode is required.")."""
    before = state_lines(start_text)
    shown = {line.text for line in before if line.text}
    out: list[str] = []
    for texts in _alerts(now_text):
        if _cut(" ".join(texts)) in answers:
            out += [t for t in texts if t not in shown and t not in out]
    return out


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


def each_candidates(state_text: str, task: str, limit: int = 2) -> list[str]:
    """For ``only-hint``: the ``each`` claims the page now bears out for a word of the task,
    as the model writes them: a list (a container with an id whose children, two at least,
    are of one kind) every item of which shows a form of the word ("Coat" for "the Coats
    category"), in the words the first item shows it. A list that still holds an item
    without it (a filter that listed everything) gives none; the claim is held to every
    check like any other."""
    lines = state_lines(state_text)
    words = [w for w in task_words(task) if len(w) > 3]
    out: list[str] = []
    for at, line in enumerate(lines):
        if line.id is None or len(out) >= limit:
            continue
        kids, end = [], at
        for i in range(at + 1, len(lines)):
            if lines[i].indent <= line.indent:
                break
            end = i
            if lines[i].indent == line.indent + 2:
                kids.append(i)
        if len(kids) < 2:
            continue
        bounds = dict(zip(kids, [*kids[1:], end + 1], strict=True))
        kind_of = {i: lines[i].outer.split("-")[0] for i in kids}
        # its items: the children of the one kind two or more are of (a heading beside them)
        kinds = [k for k, n in Counter(kind_of.values()).items() if n >= 2]
        if len(kinds) != 1:
            continue
        items = [" ".join(t.text for t in lines[a:bounds[a]] if t.text) for a in kids
                 if kind_of[a] == kinds[0]
                 and not any(t.head.split("-")[0] == "th" for t in lines[a:bounds[a]])]
        if len(items) < 2:
            continue
        for word in words:
            first = re.search(rf"(?<!\w){_word_forms(word)}(?!\w)", items[0], re.IGNORECASE)
            if first is None:
                continue
            shown = re.sub(r"(?:es|s)$", "", first.group(0)) if first.group(0)[-1:] in "sS" \
                else first.group(0)
            if all(shown in item for item in items):
                out.append(f'{{"expect": "each", "within": "{line.id}", "text": "{shown}", '
                           '"match": "contains"}')
                break
    return out
