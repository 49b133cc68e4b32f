"""The claims ``done`` takes, documented from the model that reads them (``EvidenceSpec``), and
a reply checked the way the recording's asker will check it, before it is sent there.

The kinds, the fields and their allowed values come from ``EvidenceSpec`` itself; what each
kind reads of them is written here once (tests/test_mcp_parts.py fails when the model has a
kind or a field this page does not document). A reply that the asker could not read would
cost the recording one of its two tries, then end it: the server answers it itself, with
what is wrong and the fields the claim's kind takes, and sends only replies that parse."""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from ..agent.parsing import EvidenceSpec, InvalidReply, ProposalModel, parse_model
from ..agent.reply_schema import MAX_ACTIONS, MAX_EVIDENCE

MAX_TRIES = 3  # malformed replies the server answers on one request before it stops


def _literals(name: str) -> list[str]:
    """The values a field of ``EvidenceSpec`` may take, read from its annotation."""
    found: list[str] = []

    def walk(tp: Any) -> None:
        if typing.get_origin(tp) is Literal:
            found.extend(str(a) for a in typing.get_args(tp))
        elif typing.get_origin(tp) in (typing.Union, types.UnionType):
            for arg in typing.get_args(tp):
                walk(arg)

    walk(EvidenceSpec.model_fields[name].annotation)
    return found


KIND_NAMES = _literals("expect")
STATES = _literals("state")
MATCHES = _literals("match")

# what a field means, wherever a kind reads it (a kind may say more, in its own notes)
FIELDS: dict[str, str] = {
    "expect": "the claim's kind (" + ", ".join(KIND_NAMES) + "; text when left out)",
    "element": "an element id of the page state you were shown (button-0)",
    "within": "the id of a container of the page state (table-0, ul-0, section-1): look only "
              "inside it",
    "text": "a text exactly as the page renders it, case-sensitive",
    "match": " or ".join(MATCHES) + " (exact when left out: the whole text of an element; "
             "contains: a part of it)",
    "varies": "parts of the text that change on every run (an order number, a date), as "
              "shown now: a replay accepts any value there",
    "texts": "texts as the page renders them, each the whole text of an element",
    "count": "a number, 0 or more",
    "change": "instead of count: the count now minus the count when the step began (-1: "
              "one item fewer; +1: one more), so no number the data decides is kept",
    "index": "a position, 1 or more",
    "state": "one of " + ", ".join(STATES),
    "value": "what the field holds (a select: its chosen option's text)",
    "path": "the URL's path (/cart), without the query",
    "query": "query parameters that must be in the URL, {\"q\": \"shirt\"}",
    "box": "[left, top, right, bottom], fractions 0-1 of the element's box",
    "masks": "a list of such boxes over parts that change by themselves (a clock)",
}


COMMON = ("element", "within", "match", "varies")  # read the same way by every kind


@dataclass(frozen=True)
class Kind:
    """One claim kind: what it proves, an example, its fields (``required``: each group is
    a set of fields of which one at least must be given) and notes on fields it reads its
    own way."""

    says: str
    example: dict[str, Any]
    fields: tuple[str, ...]
    required: tuple[tuple[str, ...], ...] = ()
    notes: tuple[tuple[str, str], ...] = ()

    def takes(self, name: str) -> bool:
        return name == "expect" or name in self.fields

    def field_list(self, *, common: bool = True) -> str:
        """The kind's fields: ``index (required): ...``, each with what it means (its own
        note, else the field's meaning; without ``common``, the fields every kind reads
        the same way are named only)."""
        own = dict(self.notes)
        parts = []
        for name in self.fields:
            group = next((g for g in self.required if name in g), None)
            need = ("required" if group is not None and len(group) == 1 else
                    "or " + " or ".join(g for g in group if g != name)
                    if group is not None else "optional")
            note = own.get(name) or (FIELDS[name] if common or name not in COMMON else "")
            parts.append(f"{name} ({need})" + (f": {note}" if note else ""))
        return "; ".join(parts)


KINDS: dict[str, Kind] = {
    "text": Kind(
        "the page (or the element, or the container) shows this text",
        {"expect": "text", "text": "Total: $39.00"},
        ("text", "element", "within", "match", "varies"), (("text", "element"),),
        (("element", "that element's text is the claim (its text now when text is left "
                     "out)"),)),
    "visible": Kind(
        "the element is visible", {"expect": "visible", "element": "dialog-0"},
        ("element", "within"), (("element",),)),
    "hidden": Kind(
        "the text (or the element) is gone or not visible (on a do step: it was there "
        "before the step)", {"expect": "hidden", "text": "Blue Oxford Shirt"},
        ("text", "element", "within", "match", "varies"), (("text", "element"),)),
    "count": Kind(
        "the list or table has this many items (within), or this many visible elements "
        "like the element are on the page; on a step that adds or removes one, say the "
        "change instead of the number", {"expect": "count", "within": "table-0",
                                             "count": 3},
        ("count", "change", "within", "element"), (("count", "change"), ("within", "element")),
        (("within", "the list, table or select whose items are counted (a table's rows, "
                    "header rows left out)"),
         ("element", "one item's id: elements like it (same place in the same kind of list)"
                     " are counted"))),
    "each": Kind(
        "every item of the list (or every element like the element) shows the text, and "
        "there is one at least", {"expect": "each", "within": "ul-0", "text": "Jacket",
                                  "match": "contains"},
        ("text", "within", "element", "match", "varies"), (("text",), ("within", "element")),
        (("text", "what every item shows (its whole text; with match contains, a part)"),)),
    "nth": Kind(
        "the element is in the index-th item of its list: items counted from 1 in the "
        "page's order, visible items only; a table's rows from its first row that is not a "
        "header row (a row of th cells only), a list's li, a select's options",
        {"expect": "nth", "element": "td-4", "index": 2},
        ("element", "index", "within"), (("element",), ("index",)),
        (("element", "an element inside the item (a cell of the row, a link of the li)"),
         ("index", "the item's position, 1 for the first (not 0)"))),
    "order": Kind(
        "these texts are visible in this order (top to bottom as the page reads)",
        {"expect": "order", "texts": ["Apple", "Banana", "Cherry"]},
        ("texts", "within"), (("texts",),)),
    "state": Kind(
        "the control is in this state", {"expect": "state", "element": "input-2",
                                         "state": "checked"},
        ("element", "state", "within"), (("element",), ("state",))),
    "value": Kind(
        "the field holds this value", {"expect": "value", "element": "input-0",
                                       "value": "ada@example.com"},
        ("element", "value", "within", "match", "varies"), (("element",), ("value",))),
    "url": Kind(
        "the URL has this path and/or these query parameters",
        {"expect": "url", "path": "/search", "query": {"q": "shirt"}},
        ("path", "query", "varies"), (("path", "query"),),
        (("varies", "parts of the path or of a query value that change on every run (a "
                    "query parameter that varies is left out of the check)"),)),
    "download": Kind(
        "a file the step's actions downloaded holds this text",
        {"expect": "download", "text": "Invoice 2024-001"},
        ("text",), (("text",),),
        (("text", "a text the downloaded file holds (its words, case-sensitive)"),)),
    "screenshot": Kind(
        "the element's picture shows this (only for a model that is shown screenshots: "
        "webtask mcp shows you text, so cite texts and elements instead)",
        {"expect": "screenshot", "element": "canvas-0", "text": "a bar chart with 3 bars"},
        ("element", "text", "box", "masks"), (("element",),),
        (("text", "what the picture shows, in a sentence"),)),
}


def reference(*, compact: bool = False) -> str:
    """Every claim kind: its JSON and its fields. ``compact``: one line a kind, the fields
    named (done's description says what each means)."""
    lines = []
    for name, kind in KINDS.items():
        example = json.dumps(kind.example)
        if compact:
            others = [f for f in kind.fields if f not in kind.example]
            more = f" (also: {', '.join(others)})" if others else ""
            lines.append(f"- {name}: {example}{more}: {kind.says}")
        else:
            lines.append(f"- {name}: {kind.says}.\n  {example}\n  "
                         f"{kind.field_list(common=False)}")
    head = ("A claim is a text the page shows (\"Size M\"), an element id (its text), or one "
            "of these (\"expect\" names the kind):")
    common = "Fields read the same way by every kind that takes them: " + "; ".join(
        f"{name}: {FIELDS[name]}" for name in COMMON) + "."
    return "\n".join([head, *lines, *([] if compact else [common])])


def allowed(kind: str) -> str:
    """What a claim of ``kind`` takes, for an answer to a claim that could not be read."""
    found = KINDS.get(kind)
    if found is None:
        return "The kinds: " + ", ".join(KIND_NAMES) + "."
    return (f"A claim of kind {kind!r} ({found.says}) takes: {found.field_list()}. "
            f"Example: {json.dumps(found.example)}")


def claim_problems(n: int, item: Any) -> list[str]:
    """What is wrong with claim ``n`` (from 1) of a done reply, each with the fields its kind
    takes; empty when the asker and the agent loop will read it."""
    if isinstance(item, str):
        return [] if item.strip() else [f"claim {n} is an empty text"]
    if not isinstance(item, dict):
        return [f"claim {n} is neither a text nor a JSON object"]
    kind = item.get("expect", "text")
    said = json.dumps(item)[:300]
    wrong = []
    try:
        spec = EvidenceSpec.model_validate(item)
    except ValidationError as exc:
        for error in exc.errors():
            where = ".".join(str(p) for p in error["loc"]) or "claim"
            msg = error["msg"]
            if error["type"] == "extra_forbidden":
                msg = f"a claim of kind {kind!r} has no field {where!r}"
            wrong.append(f"{where}: {msg}")
    else:
        want = KINDS[spec.expect]
        wrong += [f"{name}: a claim of kind {spec.expect!r} does not read it" for name in item
                  if not want.takes(name)]
        for group in want.required:
            if all(item.get(name) in (None, "", [], {}) for name in group):
                wrong.append(f"{' or '.join(group)}: a claim of kind {spec.expect!r} needs it")
    if not wrong:
        return []
    return [f"claim {n} {said}: " + "; ".join(wrong) + ". " + allowed(str(kind))]


def reply_problems(text: str, *, done: bool) -> list[str]:
    """Why the reply ``text`` (the model's JSON) would not be read as the agent loop reads
    it; empty when it will be. ``done``: it says the task is done (claims, 1 to 3)."""
    problems: list[str] = []
    data = json.loads(text)
    if not str(data.get("message", "")).strip():
        problems.append("message: say in one sentence what the page shows (it is empty)")
    if done:
        evidence = data.get("evidence") or []
        if not 1 <= len(evidence) <= MAX_EVIDENCE:
            problems.append(f"evidence: 1 to {MAX_EVIDENCE} claims (you gave "
                            f"{len(evidence)})")
        for n, item in enumerate(evidence, 1):
            problems += claim_problems(n, item)
    elif "actions" in data:
        actions = data.get("actions") or []
        if not 1 <= len(actions) <= MAX_ACTIONS:
            problems.append(f"actions: 1 to {MAX_ACTIONS} actions (you gave {len(actions)})")
        for n, action in enumerate(actions, 1):
            if not str(action.get("tool", "")).strip():
                problems.append(f"action {n}: its tool is empty")
    if not problems:  # the last word is the asker's own reading
        try:
            parse_model(text, ProposalModel)
        except InvalidReply as exc:
            problems.append(str(exc))
    return problems
