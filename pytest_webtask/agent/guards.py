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

from ..browser.page_state import state_lines
from ..tools._async.registry import COVERED
from ..tools.meant import read_lines
from ..types import Action, ExecutionResult
from .models import Evidence, Step

# words that say nothing about which element is meant
STOP = frozenset("""
a an the and or of to in on at for with by from into onto as is are be been was were it its
this that these those there here page shows show shown has have having contains contain
now only not no any some one all each every then than so if do does done should must can
click select choose enter type fill press open go find check make set use hit button link
field box text list item items element section value named called""".split())

_WORD = re.compile(r"[A-Za-z0-9$][A-Za-z0-9$.,'’-]*")
_GO = r"\b(?:go(?:es)? to|open|visit|navigate to|follow|head to)\s+(?:the\s+)?"


def task_words(phrase: str) -> list[str]:
    """The words of ``phrase`` worth looking for, lower-cased, in order, once each."""
    words = []
    for raw in _WORD.findall(phrase):
        word = raw.strip(".,'’-").lower()
        if len(word) >= 2 and word not in STOP and word not in words:
            words.append(word)
    return words


def goes_to(tag: str, text: str, task: str) -> bool:
    """Is ``text`` a link's the ``task`` (both casefolded) says to go to ("go to the opening
    hours", "open Settings", "follow Next")?"""
    return (tag == "a" and bool(text)
            and re.search(rf"{_GO}{re.escape(text)}(?!\w)", task) is not None)


CONTROL_TAGS = ("input", "select", "textarea")
_UNSETS = re.compile(r"\b(?:uncheck|untick|unmark|unselect|deselect|clear|turn off|"
                     r"switch off)\b", re.IGNORECASE)


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
