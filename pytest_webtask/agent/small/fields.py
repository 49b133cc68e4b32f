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

from ...browser.fields import (
    describe,
    empty_fields,
    end_of,
    field_names,
    in_form,
    is_box,
    is_text_field,
    line_of,
)
from ...browser.page_state import StateLine, state_lines
from ..guards import names_option, names_word, stated_values, ticks_box

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


__all__ = ["describe", "empty_fields", "field_names", "is_box", "is_text_field", "left_empty",
           "left_unticked", "line_of", "ticked_by_task", "unset_for_send",
           "no_field_note", "is_text_field",
           "values_for_fields"]

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


# The kinds of field a task's words name before (or after) a value it gives: each kind's words
# in the task, and the words of a field's label, name or placeholder that say it is one.
_KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "email": (("email", "email address"), ("email",)),
    "password": (("password", "passcode", "pin"), ("password", "passcode", "pin")),
    "username": (("username", "user name", "login"), ("username", "user", "login")),
    "postcode": (("postcode", "post code", "postal code", "zip", "zip code"),
                 ("postcode", "post", "postal", "zip")),
    "phone": (("phone", "phone number", "telephone", "mobile"), ("phone", "telephone", "tel",
                                                                  "mobile")),
    "first name": (("first name", "given name"), ("first", "given")),
    "last name": (("last name", "surname", "family name"), ("last", "surname", "family")),
    "name": (("name", "full name"), ("name",)),
    "address": (("address", "street"), ("address", "street")),
    "city": (("city", "town"), ("city", "town")),
}
_TYPES = {"email": "email", "password": "password", "phone": "tel"}
_AS_NAME = re.compile(r"\bas\s+$", re.IGNORECASE)


def _kind_near(before: str, after: str, value: str) -> str | None:
    """The kind of field the words around a value name: the last field word of the (up to)
    four words before it ("the postcode AV1 2BC", 'the password "x"'), "as" before a name
    ("as Ann Lee"), a field word in "into the ... field" after it, a placeholder's own name
    ("{email}"); an e-mail address is an email's."""
    words = " ".join(re.findall(r"[a-z]+", before.casefold().replace("e-mail", "email"))[-4:])
    found = [(m.end(), len(w), kind) for kind, (said, _) in _KINDS.items() for w in said
             for m in re.finditer(rf"\b{w}\b", words)]
    if found:  # the word nearest the value; of two ending there, the longer ("user name")
        return max(found)[2]
    if _AS_NAME.search(before) and " " in value.strip():
        return "name"
    into = re.match(r"\s*[\"”']?\s*(?:in|into|in to)\s+the\s+([a-z -]+?)\s+(?:field|box|input)\b",
                    after.casefold())
    if into:
        return next((kind for kind, (said, _) in _KINDS.items() if into.group(1) in said), None)
    if value.startswith("{") and value.endswith("}"):
        name = value[1:-1].casefold().replace("_", " ")
        return next((kind for kind, (said, _) in _KINDS.items() if name in said), None)
    if re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", value):
        return "email"
    return None


def _is_kind(line: StateLine, kind: str) -> bool:
    """Is the text field ``line`` one of ``kind`` by its type or by a whole word of its label,
    name or placeholder?"""
    if _TYPES.get(kind) and line.attrs.get("type") == _TYPES[kind]:
        return True
    words = set(re.findall(r"[a-z]+", " ".join(field_names(line)).casefold()
                           .replace("e-mail", "email").replace("_", " ")))
    _, marks = _KINDS[kind]
    if kind == "name":  # "Full name", "Your name": not "User name", "First name"
        return "name" in words and not words & {"user", "first", "last", "given", "family"}
    if kind in ("first name", "last name"):  # "First name"; "Surname" is a last name only
        return bool(words & set(marks)) and bool(words & {"name", "surname"})
    return bool(words & set(marks))


def _value_fields(lines: list[StateLine], task: str, *, labels: bool = False
                  ) -> list[tuple[StateLine, str]]:
    """Each value of the task (``guards.stated_values``) with the one text field of
    ``lines`` its words name, enabled; a value with no field word, or two fields that could
    take it, is left out. With ``labels``, also a value said right after a field's own
    label (``_labelled_value``): a hint's reading only, never a refusal's."""
    fields_ = [line for line in lines if line.id and is_text_field(line)
               and "disabled" not in line.flags and "readonly" not in line.flags]
    out: list[tuple[StateLine, str]] = []
    taken: set[str] = set()
    for value in stated_values(task):
        at = task.find(value)
        if at < 0:
            continue
        kind = _kind_near(task[:at], task[at + len(value):], value)
        if kind is None:
            continue
        found = [line for line in fields_ if _is_kind(line, kind)]
        if len(found) != 1 or found[0].id in taken:
            continue
        taken.add(str(found[0].id))
        out.append((found[0], value))
    given = {value for _, value in out}
    for line in fields_ if labels else []:
        if line.id in taken:
            continue
        labelled = _labelled_value(line, task)
        if labelled is not None and labelled not in given:
            taken.add(str(line.id))
            given.add(labelled)
            out.append((line, labelled))
    return out


# a value after a field's own label in the task, inside a sentence: "from year 1998" (Year),
# "the colour: Teal", and after the verb a doer's label comes of, with "by": "directed by
# Bowen" (Director); a number, a quoted text or a name in capitals, not followed by "to"
# ("change the name of Project X to Y" names the old value, not the one to type)
_LABEL_VALUE = (r'(?:"([^"]+)"|“([^”]+)”|(\d[\d.,/:-]*\d|\d)(?![\w-])'
                r"|([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?))")


def _label_forms(label: str) -> tuple[list[str], list[str]]:
    """The words a task may say a field's one-word label with (itself, its plural), and for
    a doer's word (Director, Publisher) the verb it comes of (directed, published), read
    only before "by"."""
    word = label.casefold()
    stem = re.sub(r"(?:or|er)$", "", word) if len(word) > 5 else word
    verbs = [stem + "ed", stem + "d"] if stem != word else []
    return [word, word + "s"], verbs


def _whole_value(task: str, match: re.Match[str]) -> bool:
    """Is the value ``match`` read all of what stands there (a name's every word in
    capitals: not "Project" of "Project X"), and not followed by "to"?"""
    end = match.end()
    if match.group(4):
        run = re.match(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*", task[match.start(4):])
        end = match.start(4) + (run.end() if run else 0)
        if end != match.end():
            return False
    return re.match(r"\s+to\b", task[end:]) is None


def _labelled_value(line: StateLine, task: str) -> str | None:
    """The value ``task`` says right after the label of the text field ``line`` (one word,
    inside a sentence: "from year 1998"; or its doer's verb and "by": "directed by Bowen"
    for Director), when it says exactly one; the field's other names (name, placeholder)
    are not read: a label is what a reader sees."""
    label = (line.attrs.get("label") or line.attrs.get("beside") or "").strip().rstrip(":")
    if not re.fullmatch(r"[A-Za-z]{3,}", label):
        return None
    nouns, verbs = _label_forms(label)
    # never at a sentence's or a clause's start ("Message Alice that ...": a verb)
    start = r"(?<![.!?;:,\n]\s)(?<![.!?;:,\n])(?<!^)"
    patterns = [rf"{start}(?i:\b(?:{'|'.join(map(re.escape, nouns))}))(?:\s*[:=])?\s+"]
    if verbs:
        patterns.append(rf"(?i:\b(?:{'|'.join(map(re.escape, verbs))})\s+by)\s+")
    found = {next(g for g in m.groups() if g).strip()
             for pattern in patterns for m in re.finditer(pattern + _LABEL_VALUE, task)
             if _whole_value(task, m)}
    found = {v for v in found if v.casefold() not in _NOT_VALUES}
    return found.pop() if len(found) == 1 else None


_NOT_VALUES = frozenset({"i", "a", "the", "and", "or", "then", "click", "submit", "search",
                         "enter", "type", "select"})


MASKED = "••••"  # the collector's value of a password or secret field holding anything


def holds(field: StateLine, value: str) -> bool:
    """Does the text field ``field`` hold ``value``? A password's or a secret's value never
    reaches the page state (it reads ``MASKED`` once anything is typed): holding anything,
    it counts as holding the value, which cannot be told from here."""
    now = field.attrs.get("value")
    return now in (value, MASKED)


def values_for_fields(state_text: str, task: str, limit: int = 4) -> list[str]:
    """Where the task's values (``guards.stated_values``) go, in page order, each as
    ``input-1 (Email) takes 'ann@example.org'``: a value whose field the task's words name
    ("the email ...", "as Ann Lee", "the password ...") when the page has exactly one such
    text field, enabled, not holding that value already. A value with no field word, or two
    fields that could take it, is left out: never a guess."""
    lines = state_lines(state_text)
    out = [(lines.index(field), f"{describe(field)} takes {value!r}")
           for field, value in _value_fields(lines, task, labels=True)
           if not holds(field, value)]
    out += _slider_value(lines, task)
    return [said for _, said in sorted(out)][:limit]


# "select 1 with the slider", "set the slider to 30", "move the volume slider to 7"
_SLIDER_NUMBER = re.compile(r"(-?\d+(?:\.\d+)?)\s+(?:\w+\s+){0,2}?(?:with|on|using)\s+"
                            r"(?:the\s+)?(?:\w+\s+)?slider\b"
                            r"|\bslider\s+(?:\w+\s+){0,2}?to\s+(-?\d+(?:\.\d+)?)\b",
                            re.IGNORECASE)


def _slider_value(lines: list[StateLine], task: str) -> list[tuple[int, str]]:
    """The number the task says the page's one slider takes, beside the slider's line
    (``span-0 (slider) takes '1'``): a number said with the word "slider"; the number the
    page shows beside it is its value now, not the task's."""
    sliders = [i for i, line in enumerate(lines) if line.id and (
        line.attrs.get("role") == "slider" or line.attrs.get("type") == "range")]
    said = {next(g for g in m.groups() if g) for m in _SLIDER_NUMBER.finditer(task)}
    if len(sliders) > 1:  # "the volume slider": the one its label names
        named = {w.casefold() for w in re.findall(r"(\w+)\s+slider\b", task, re.IGNORECASE)}
        sliders = [i for i in sliders if named & set(re.findall(
            r"\w+", " ".join(field_names(lines[i])).casefold()))]
    if len(sliders) != 1 or len(said) != 1:
        return []
    line = lines[sliders[0]]
    if line.attrs.get("value") == next(iter(said)) or (
            line.attrs.get("valuenow") == next(iter(said))):
        return []
    return [(sliders[0], f"{line.id} (slider) takes {next(iter(said))!r}")]


_PRESSES = frozenset({"button", "submit"})
_OPENS = ("expanded", "haspopup", "aria-haspopup", "aria-expanded")


def _button_name(line: StateLine) -> str | None:
    """The name of a button (a button element, the button role, an input of type submit or
    button) that opens nothing (no popup, not expanded or collapsed), else None."""
    tag = (line.id or "").rsplit("-", 1)[0]
    role, kind = line.attrs.get("role"), line.attrs.get("type", "")
    if not (role == "button" or (tag == "button" and role is None)
            or (tag == "input" and kind in _PRESSES)):
        return None
    if kind == "button" and tag == "button":
        kind = ""  # a plain button says nothing of what it does
    if any(k in line.attrs or k in line.flags for k in _OPENS):
        return None
    name = (line.text or line.attrs.get("aria-label") or line.attrs.get("label")
            or line.attrs.get("value") or "").strip()
    return name or None


def _said_whole(name: str, task: str) -> bool:
    """Does ``task`` say every word of ``name`` (case aside; "Add to cart" in "add the shirt
    to the cart")?"""
    words = set(re.findall(r"[a-z0-9]+", name.casefold()))
    return bool(words) and words <= set(re.findall(r"[a-z0-9]+", task.casefold()))


def unset_for_send(task: str, state_text: str, element_id: str,
                   touched: dict[str, str]) -> tuple[str, list[str]] | None:
    """What a press of the button ``element_id`` would send unset, when the task names that
    button: the button's name, and each control of its form (those in no form when it is in
    none)
    that the task gives a value for and that does not hold it, as ``select-0 (Height) shows
    'Medium', the task names 'Large'``: a dropdown offering an option the task names as
    a word while another is chosen (none of the chosen ones named, no text field of the
    form holding that word: "search for Oak" typed is the search box's), a box or radio
    button the task says to tick left unticked, a text field the task's words name for a value it
    gives left without it (``values_for_fields``). Controls in ``touched`` (element id -> the
    value an earlier action of the reply gave it, or "") count as set. None when nothing is
    unset."""
    lines = state_lines(state_text)
    at = next((i for i, line in enumerate(lines) if line.id == element_id), None)
    if at is None:
        return None
    name = _button_name(lines[at])
    if name is None or not _said_whole(name, task):
        return None
    form = in_form(lines, at)
    if form is None:
        # in no form: the controls in none
        in_forms = {j for i, line in enumerate(lines) if line.head.startswith("form")
                    for j in range(i, end_of(lines, i))}
        kept = [line for i, line in enumerate(lines) if i not in in_forms]
    else:
        kept = lines[form[0]:form[1]]
    inside = [line for line in kept if line.id and line.id not in touched
              and "disabled" not in line.flags]
    # a word a text field holds is the field's ("search for Oak": the search box's)
    typed = [*(line.attrs.get("value", "") for line in inside if is_text_field(line)),
             *touched.values()]
    unset: list[str] = []
    for line in inside:
        if "options" in line.attrs:
            offered = [o.strip() for o in line.attrs["options"].split("|") if o.strip()]
            chosen = [o.strip() for o in line.attrs.get("selected", "").split("|") if o.strip()]
            named = [o for o in offered if o not in chosen and names_option(o, task)
                     and not names_word(o, name) and not any(names_word(o, v) for v in typed)]
            if named and not any(names_option(c, task) for c in chosen):
                now = f"shows {chosen[0]!r}" if chosen else "has nothing chosen"
                unset.append(f"{describe(line)} {now}, the task names {named[0]!r}")
        elif (is_box(line) or line.attrs.get("type") == "radio") and "checked" not in line.flags:
            label = (line.attrs.get("label") or line.text).strip()
            if label and (ticks_box(label, task) or ticked_by_task(task, line)):
                unset.append(f"{describe(line)} is not ticked, the task says to tick it")
    by_kind = _value_fields(inside, task)
    unset += [f"{describe(field)} takes {value!r}" for field, value in by_kind
              if not holds(field, value)]
    if not by_kind and not touched:
        # (an earlier action of the reply may have set it another way: a picker's day)
        unset += _one_field(inside, task, name)
    return (name, unset) if unset else None


_PLAIN_TEXT = ("text", "search", "number", "tel", "url", "email")
# a quoted text the task says to type ('Enter "6gH" into the field'); another quoted text
# names something on the page ('click "Details" for "Black Denim Jeans"')
_TYPED_QUOTE = re.compile(
    r"\b(?:type|enter|fill\s+in|write|input|put)\s+(?:in\s+)?[\"“]([^\"”]+)[\"”]",
    re.IGNORECASE)


def _one_field(inside: list[StateLine], task: str, button: str) -> list[str]:
    """A form of one plain text field (a date picker's read-only field too; not a date or
    time input, whose own format differs) sent by a task that gives one value (a quoted
    text it says to type, a date, a number; the button's own name aside): that field takes
    it, unless it holds it already (case aside: "type it in upper case" is the task's to
    say)."""
    texts = [line for line in inside if is_text_field(line) and (
        line.id or "").startswith(("input", "textarea"))
        and line.attrs.get("type", "text") in _PLAIN_TEXT]
    if len(texts) != 1:
        return []
    values = [v for v in dict.fromkeys([*(m.group(1) for m in _TYPED_QUOTE.finditer(task)),
                                        *values_of_kind(task, "date"), *task_numbers(task)])
              if v.casefold() != button.casefold()]
    if len(values) != 1:
        return []
    now = texts[0].attrs.get("value", "")
    if now.casefold() == values[0].casefold() or now == MASKED:
        return []
    return [f"{describe(texts[0])} takes {values[0]!r}"]


_NOT_FIELDS = ("checkbox", "radio", "button", "submit", "reset", "image", "file", "range",
               "color", "hidden")


def no_field_note(state_text: str, target: str) -> str | None:
    """What ``no-field`` adds to a typing into ``target`` refused because it takes no text,
    when no line of the page state is a text field: a click opens the field first; else
    None."""
    lines = state_lines(state_text)
    for at, line in enumerate(lines):
        tag = (line.id or "").rsplit("-", 1)[0]
        kind = line.attrs.get("type", "")
        if (is_text_field(line) or tag in ("textarea", "select")
                or tag == "input" and kind not in _NOT_FIELDS
                or line.attrs.get("role") in ("combobox", "spinbutton")):
            return None
        # an element with an id and nothing in it or on it may be an editable box (the
        # page state shows a contenteditable element so): it may take the text
        if (line.id and not line.text and not line.attrs and line.parsed
                and not (at + 1 < len(lines) and lines[at + 1].depth > line.depth)):
            return None
    return (f"No element of this page takes text now: click what opens a field for it first "
            f"(the item the text is for, {target} itself if it is that item, or a control "
            "that opens an editor or a reply).")


def unasked_delete(task: str, state_text: str, target: str) -> str | None:
    """What ``unasked-delete`` says of a click on ``target``: its line says it deletes (a
    row's trash icon, "Remove") and ``task`` says nothing of deleting, removing, clearing
    or cancelling; else None."""
    if asks_to_destroy(task):
        return None
    line = line_of(state_text, target)
    said = destroys(line) if line is not None else None
    if line is None or said is None:
        return None
    return (f"Not run: {describe(line)} deletes ({said!r}), and the task says nothing of "
            "deleting or removing anything. Act on what the task is about (its lines "
            f"below); if the task does need it, click {target} again and it runs.")


def off_task_value(task: str, state_text: str, target: str, value: str, *,
                   slide: bool) -> str | None:
    """What ``given-value`` says of setting ``target`` to ``value`` (``slide``: a slide;
    else a typing, read only on a date or number field): a value none of those of its kind
    ``task`` gives; else None (also when the task gives none of that kind)."""
    kind = "number" if slide else None
    if kind is None and (line := line_of(state_text, target)) is not None:
        kind = {"number": "number", "date": "date"}.get(line.attrs.get("type", ""))
    given = values_of_kind(task, kind) if kind else []
    if not given or value_is_one_of(value, given, str(kind)):
        return None
    return (f"Not run: the task gives {', '.join(given)}, not {value}. Set {target} to "
            f"the {kind} the task gives for it (set to this again, it runs).")
