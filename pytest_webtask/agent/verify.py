"""``verify_done``: every reason a ``done`` is not yet a recording, at once (DESIGN decision
22). The step agent and the plan agent both call it.

A **refusal** checks a mechanical fact of the page and the step, never the task's words:

- ``claims-hold``: a claim whose id the page state does not hold, or that does not hold on
  the page now (no claim at all, unless the actions downloaded a file);
- ``own-state``: every claim is the state or value of a control the step's own actions set
  (the same element, or inside it: a dropdown's chosen option), or a URL whose query holds
  what they typed, while the actions changed the page beyond those controls (a form sent,
  a list reloaded): what the controls hold is what was set, not the effect;
- ``secret``: a claim holds a secret's value.

**Advice** reads the task's words: it is said once, with what it saw, and a ``done`` after it
records when no refusal holds; the recipe, the step log and the report mark the step with
the advice's name (``doubted``) for a reviewer:

- ``given-values``: a value the task gives was never typed and the page does not show it;
- ``named-options``: an option the task names, offered on its pages, was never chosen;
- ``links-to-go``: a link the task says to go to was never followed;
- ``show-only``: the task says "only" and no claim shows what is gone (each, count, hidden);
- ``chosen-uncited``: a value the task names and an action chose is shown by no claim;
- ``claim-words``: a check's claims hold fewer than half of its statement's words;
- ``pinned-data``: a claim pins a count or a full order the task does not name, though
  replays run on other data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from .guards import (
    Dropdowns,
    acted,
    entered_values,
    links_to_go,
    unchosen_options,
    uncited_choices,
    unrelated_claims,
    untyped_values,
)
from .models import Evidence, Step

HARD = ("claims-hold", "own-state", "secret")
ADVICE = ("given-values", "named-options", "links-to-go", "show-only", "chosen-uncited",
          "claim-words", "pinned-data")


@dataclass(frozen=True)
class Problem:
    """One reason a ``done`` is not a recording yet: ``rule`` names it, ``says`` tells the
    model what was seen; ``hard`` ones refuse, the others advise (once)."""

    rule: str
    says: str
    hard: bool = True


@dataclass
class Done:
    """What a ``done`` is verified against: the task, the resolved claims, the task's steps
    (their actions, results and page changes) and the page state at its start and now."""

    task: str
    statement: str | None  # a check's statement; None for a do task
    evidence: list[Evidence]
    steps: list[Step]
    start: str = ""  # the page state's text when the task began
    now: str = ""
    start_url: str = ""
    now_url: str = ""
    variables: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)  # name -> value, never said
    dropdowns: Dropdowns | None = None
    typed: Callable[[str], bool] = lambda tool: False  # does the tool type text?
    chooses: Callable[[str], bool] = lambda tool: False  # does it choose an option?
    downloaded: bool = False  # the actions downloaded a file (a download check proves it)
    # a claim the page showed when the task began (it proves nothing the actions did)
    held_before: Callable[[Evidence], bool] = lambda ev: False


def verify_done(done: Done, advised: frozenset[str] | set[str] = frozenset()) -> list[Problem]:
    """Every refusal that holds, then every advice not given yet (``advised``), in order."""
    problems = _refusals(done)
    for rule, says in _advice(done):
        if rule not in advised:
            problems.append(Problem(rule, says, hard=False))
    return problems


# -- refusals: facts of the page --------------------------------------------------------

def _refusals(done: Done) -> list[Problem]:
    out = []
    if not done.evidence and not done.downloaded:
        out.append(Problem("claims-hold", "no claim was cited"))
    bad = [f"{e.cited} -> {e.problem}" for e in done.evidence if not e.found]
    if bad:
        out.append(Problem("claims-hold", "these claims do not hold on the page now: "
                           + "; ".join(bad)))
    if done.statement is None and (own := own_state(done)):
        out.append(Problem("own-state", own))
    if said := _secret_said(done):
        out.append(Problem("secret", said))
    return out


_CONTROLS = ("input", "select", "textarea")


def _same(a: object, b: object) -> bool:
    """Is the element fingerprinted ``a`` the one ``b`` fingerprints, or inside it when it
    is a form control (a dropdown's chosen option)?"""
    fa, fb = getattr(a, "xpath", None), getattr(b, "xpath", None)
    if not fa or not fb or getattr(a, "frame", []) != getattr(b, "frame", []):
        return False
    return bool(fa == fb or (getattr(b, "tag", "") in _CONTROLS and fa.startswith(fb + "/")))


_ID = re.compile(r"^\s*-\s+([a-z][a-z0-9]*-\d+)\b")


def _elsewhere(steps: list[Step], acted_ids: set[str], cited: list[object]) -> bool:
    """Did the steps' actions change the page beyond the lines of the elements they acted
    on (the URL, a line of another element)? A step read without its change (the plan
    strategy's): its address changed, or an action ran on another element than the cited
    controls (a button that sends their form)."""
    for step in steps:
        change = step.change
        if change is None:
            for e in step.executions:
                if e.success and (e.url_before != e.url_after or e.target is None
                                  or not any(_same(c, e.target) for c in cited)):
                    return True
            continue
        if change.unchanged or change.values_only:
            continue
        if change.url_before != change.url_after:
            return True
        for line in [*change.added, *change.removed]:
            m = _ID.match(line)
            if m is None or m.group(1) not in acted_ids:
                return True
    return False


def own_state(done: Done) -> str:
    """Why the claims show only what the step's own actions set (a control's state or
    value, by element identity; a URL whose query holds what they typed), the others
    being on the page before the task began, while those actions changed the page beyond
    those controls; "" otherwise."""
    found = [e for e in done.evidence if e.found and e.spec is not None]
    ran = acted(done.steps)
    if not found or not ran:
        return ""
    targets = [e.target for _, e in ran if e.target is not None]
    entered = {v.casefold() for v in entered_values(ran)}
    own = []
    for ev in found:
        spec = ev.spec
        if spec.expect == "url":
            query = [v.casefold() for _, v in parse_qsl(urlsplit(done.now_url).query)]
            if not any(v in entered for v in query):
                return ""
            own.append(f"the URL's query ({', '.join(query)})")
        elif ev.fingerprint is not None and any(_same(ev.fingerprint, t) for t in targets):
            own.append(f"{ev.cited} (a control your actions set)")
        elif not done.held_before(ev):
            return ""  # (one the page showed before the task proves nothing either)
    ids = {str(a.parameters.get("element_id")) for a, _ in ran}
    cited: list[object] = [e.fingerprint for e in found if e.fingerprint is not None]
    if not own or not _elsewhere(done.steps, ids, cited):
        return ""  # setting those controls is all the actions did: their state is the effect
    return ("your claims show only what your own actions set: " + "; ".join(own)
            + ". Your actions changed the page beyond those controls: cite what the page shows "
            "because of them (the list, a count, a message, a line under \"New on the page\")")


def _secret_said(done: Done) -> str:
    for ev in done.evidence:
        spec = ev.spec
        said = " ".join(filter(None, [ev.cited, ev.text, getattr(spec, "text", None),
                                      getattr(spec, "value", None),
                                      *(getattr(spec, "texts", None) or [])]))
        if any((value and value in said) or "{" + name + "}" in said
               for name, value in done.secrets.items()):
            return "a claim holds a secret's value: a recipe never holds one; cite another text"
    return ""


# -- advice: the task's words ------------------------------------------------------------

# "show only the hats", "list only open orders", "only the hats are listed"; not a quoted
# label ("tick 'Show only my tasks'")
_ONLY = re.compile(r"\bonly\b", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|(?<!\w)\'[^\']*\'(?!\w)')
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")


def _advice(done: Done) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    found = [e for e in done.evidence if e.found and e.spec is not None]
    if done.statement is not None:
        statement = done.statement
        for name, value in done.variables.items():  # "{new} is listed": its value's words
            statement = statement.replace("{" + name + "}", value)
        words = unrelated_claims(statement, done.evidence)
        if words:
            out.append(("claim-words", f"the statement's words {', '.join(words)} are in none "
                        "of your claims: a claim proves the statement only when it says it"))
        return out
    ran = acted(done.steps)
    task = done.task
    untyped = untyped_values(task, entered_values(ran), done.start, done.now, done.variables)
    if untyped:
        out.append(("given-values", f"the task gives {', '.join(map(repr, untyped))}, which no "
                    "action typed and the page does not show"))
    if done.dropdowns is not None and (unchosen := unchosen_options(task, done.dropdowns, ran)):
        out.append(("named-options", f"the task names {', '.join(map(repr, unchosen))}, which "
                    "a control on its pages offers and no action chose"))
    if done.now_url and done.now_url == done.start_url:
        clicked = {((e.target.name or e.target.text or "") if e.target else "").casefold()
                   for a, e in ran if not done.typed(a.tool)}
        if links := links_to_go(done.now, task, clicked):
            out.append(("links-to-go", f"the task says to go to {', '.join(links)}, which no "
                        "action followed, and the page is where the task began"))
    if _ONLY.search(_QUOTED.sub(" ", task)) and not any(e.spec.expect in ("each", "count", "hidden")
                                      for e in found):
        out.append(("show-only", "the task says \"only\", and no claim shows that the rest "
                    "is gone: a page that ignored the task and listed everything would hold "
                    "your claims too. Proofs that fail there: every item shows what is kept "
                    "({\"expect\": \"each\", \"within\": \"<list id>\", \"text\": \"...\", "
                    "\"match\": \"contains\"}), the list's count, an item gone (\"hidden\")"))
    chosen = entered_values([(a, e) for a, e in ran if done.chooses(a.tool)])
    if uncited := uncited_choices(done.evidence, task, chosen, done.now):
        out.append(("chosen-uncited", f"the task names {', '.join(map(repr, uncited))}, which "
                    "your actions chose, and no claim shows it outside its control"))
    if pinned := _pinned(found, task):
        out.append(("pinned-data", f"your claims pin {', '.join(map(repr, pinned))}, which the "
                    "task does not name; replays run on other data. If it may differ, prove it "
                    "relative to the step's start (a count with \"change\") or declare it "
                    "(\"varies\")"))
    return out


def _pinned(found: list[Evidence], task: str) -> list[str]:
    """What the claims pin of the data that the task does not name: a list's count (not a
    change), a full order of texts; a text claim's numbers are the model's to declare
    (``varies``)."""
    named = set(_NUMBER.findall(task))
    out: list[str] = []
    for ev in found:
        spec = ev.spec
        if spec.varies or getattr(spec, "change", None) is not None:
            continue
        if spec.expect == "count" and spec.count is not None and str(spec.count) not in named:
            out.append(f"{spec.count} item" + ("" if spec.count == 1 else "s"))
        elif spec.expect == "order" and len(spec.texts) > 2 and not all(
                t.casefold() in task.casefold() for t in spec.texts):
            out.append("the order of " + ", ".join(spec.texts[:3]) + "...")
    return out[:3]
