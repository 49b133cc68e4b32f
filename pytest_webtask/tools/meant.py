"""The action a reply meant when it asked a tool for what the tool cannot do there.

A task that says "Select AU" leads a small model to ``select`` on a radio button, a checkbox,
a menu or the Submit button, which are no dropdowns: the tool can only fail, and the model
rarely finds the right tool from that error. When the page state says unambiguously what was
meant (the radio labelled "AU" is the target; the menu holds one item "Martelle"; the target
is a button), the action runs as that one (``check`` the radio, ``click`` the item or the
button) and the step's history and recording keep the action that ran, so a replay and an
export do what the page needs. Anything less clear runs as proposed and fails with the tool's
own error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..browser.fields import TYPED_INPUTS, empty_fields
from ..browser.page_state import state_lines

TICKED = ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")
CLICKED = ("button", "link", "menuitem", "option", "tab", "treeitem", "gridcell")
CHOSEN = ("combobox", "listbox")


@dataclass
class Line:
    """One element of a page state: its id, attributes, text and depth."""

    id: str
    attrs: dict[str, str]
    text: str
    depth: int
    flags: frozenset[str] = frozenset()  # the attributes without a value: checked, multiple

    @property
    def tag(self) -> str:
        return self.id.rsplit("-", 1)[0]

    @property
    def kind(self) -> str:
        """What the element is, as a tool sees it: ticked, clicked, chosen or other."""
        role = self.attrs.get("role", "")
        if self.tag == "select" or role in CHOSEN:
            return "chosen"
        if (self.tag == "input" and self.attrs.get("type") in ("checkbox", "radio")) \
                or role in TICKED:
            return "ticked"
        if self.tag in ("button", "a") or role in CLICKED \
                or (self.tag == "input" and self.attrs.get("type") in ("submit", "button")):
            return "clicked"
        return "other"

    def says(self, value: str) -> bool:
        """Is ``value`` this element's label or text (case and spaces aside)?"""
        want = _norm(value)
        said = [self.text, self.attrs.get("label", ""), self.attrs.get("aria-label", "")]
        if self.kind == "ticked":  # a label the page state leaves out when it is the value
            said.append(self.attrs.get("value", ""))
        return bool(want) and want in (_norm(s) for s in said)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def read_lines(state_text: str) -> list[Line]:
    """The page state's elements that have an id, in page order (``state_lines``)."""
    return [Line(line.head, line.attrs, line.text, line.depth, line.flags)
            for line in state_lines(state_text) if line.id and line.parsed]


def choice_values(state_text: str, attribute: str) -> dict[str, list[str]]:
    """Per element id, the ``|``-separated items of its ``attribute`` (a dropdown's
    options); an element whose list the page state clipped (``…``) is left out: its other
    items are not known; so is a list that takes several (``multiple``)."""
    out = {}
    for line in read_lines(state_text):
        value = line.attrs.get(attribute)
        if value and not value.endswith("…") and "multiple" not in line.flags:
            items = [v for v in value.split("|") if v.strip()]
            if items:
                out[line.id] = items
    return out


# The tool name ``instead`` gives to refuse an action: the third item says why and what to do.
REFUSED = ""


def rule_of(proposed: str, found: tuple[str, dict[str, Any], str], *, slide: str,
            fill: str, typed: str) -> str:
    """The policy rule (agent/policy.py) an action of the tool named ``proposed``, run as
    ``found``, is: a slider moved, a date or time written in its field's format, a
    read-only field refused, or an action of another kind on the same control."""
    name, _, why = found
    if name == slide:
        return "slider-value"
    if name == REFUSED and "is read-only" in why:
        return "read-only-field"
    if name == fill and proposed in (fill, typed):
        return "field-format"
    return "control-kind"


def select_meant(params: dict[str, Any], state_text: str, *, check: str, click: str,
                 select: str, fill: str = "") -> tuple[str, dict[str, Any], str] | None:
    """The action a ``select`` with ``params`` meant (the ``check`` or ``click`` tool's name,
    its parameters) and why it runs instead, when the page state makes that unambiguous;
    several options of a list that takes several, written as one ("Corrine, Catherine"),
    are chosen together; None when the select runs as proposed."""
    target_id, value = params.get("element_id"), params.get("value")
    if not isinstance(target_id, str) or not isinstance(value, str):
        return None
    lines = read_lines(state_text)
    target = next((line for line in lines if line.id == target_id), None)
    if target is None:
        return None
    if target.kind == "chosen":
        options = {_norm(o): o for o in target.attrs.get("options", "").split("|")}
        parts = [p.strip() for p in re.split(r",|;| and ", value) if p.strip()]
        if "multiple" in target.flags and len(parts) > 1 \
                and all(_norm(p) in options for p in parts):
            chosen = [options[_norm(p)] for p in parts]
            return select, {"element_id": target_id, "value": chosen}, (
                f"select {value!r} on {target_id} ran as select {chosen!r}: {target_id} "
                "takes several options at once.")
        return None
    said = f"select {value!r} on {target_id} ran as"
    if target.kind == "ticked":
        others = [line for line in lines if line.kind == "ticked" and line.says(value)]
        if target.says(value) or not others:
            return _as(check, target, f"{said} {check} {target.id}: {target.id} is a "
                       f"{_what(target)}, not a dropdown.")
        if len(others) == 1:  # another element: the model names it, not this rule
            return REFUSED, {}, (f"{target.id} is a {_what(target)}, not a dropdown, and is "
                                 f"not labelled {value!r}; {others[0].id} is: {check} "
                                 f"{others[0].id} if that is what the task means.")
        return None
    if target.kind == "clicked":
        return _as(click, target, f"{said} {click} {target.id}: {target.id} is a "
                   f"{_what(target)}, not a dropdown.")
    if fill and "readonly" not in target.flags and (
            target.tag == "textarea"
            or target.tag == "input" and target.attrs.get("type", "") in TYPED_INPUTS):
        # a text field offers no options: the value is typed into that same field
        return fill, {"element_id": target_id, "value": value}, (
            f"{said} {fill} {target.id}: {target.id} is a text field, not a dropdown.")
    # a container (a menu, a list, a group): the one element inside it that says the value
    found = [line for line in inside(lines, target) if line.says(value)]
    if not found:
        return None
    deepest = max(line.depth for line in found)
    found = [line for line in found if line.depth == deepest]
    if len(found) != 1:
        return None
    tool = check if found[0].kind == "ticked" else click
    return REFUSED, {}, (f"{target.id} is not a dropdown; {found[0].id} inside it says "
                         f"{value!r}: {tool} {found[0].id} if that is what the task means.")


def slid_meant(tool: str, params: dict[str, Any], state_text: str, *, slide: str
               ) -> tuple[str, dict[str, Any], str] | None:
    """A ``fill`` or ``select`` of a number on a slider (``role="slider"``: jQuery UI's
    handle, an ARIA slider; not an ``input type=range``, which fill sets) meant to move it
    there; None otherwise."""
    target_id, value = params.get("element_id"), params.get("value")
    if not isinstance(value, str) or not _NUMBER.fullmatch(value.strip()):
        return None
    target = next((line for line in read_lines(state_text) if line.id == target_id), None)
    if target is None or target.tag == "input" or target.attrs.get("role") != "slider":
        return None
    return slide, {"element_id": target.id, "value": value.strip()}, (
        f"{tool} {value!r} on {target.id} ran as {slide} {value.strip()!r}: {target.id} is a "
        "slider.")


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def typed_meant(tool: str, params: dict[str, Any], state_text: str, *, click: str,
                fill: str, check: str) -> tuple[str, dict[str, Any], str] | None:
    """A ``fill`` or ``type`` into a button or a link of its own text ("type Submit into
    button-0") meant to click it; any other text into one is refused (it is meant for a
    field: a click would drop it and follow the link); a date or a time written as people
    write it ("05/20/2010", "9:37 PM") into a date or time field meant the field's own
    format (``fill`` "2010-05-20", the only text such a field takes); into a read-only
    field (a date picker's) it is refused, saying a click opens what chooses its value (a
    click would drop the value: the model chooses it in what opens).
    Anything else runs as proposed."""
    target_id = params.get("element_id")
    target = next((line for line in read_lines(state_text) if line.id == target_id), None)
    if target is None:
        return None
    value = params.get("value")
    if "readonly" in target.flags:
        return REFUSED, {}, (
            f"{target.id} is read-only: it takes no text. Its value is chosen in what a click "
            f"on it opens (a date picker, a list): click {target.id}, then choose "
            f"{value!r} there." if isinstance(value, str) and value else
            f"{target.id} is read-only: it takes no text. Click it to open what chooses its "
            "value.")
    if target.tag == "input" and isinstance(value, str):
        kind = target.attrs.get("type", "")
        written = field_format(kind, value)
        if written is not None and (written != value or tool != fill):
            return fill, {"element_id": target.id, "value": written}, (
                f"{tool} {value!r} on {target.id} ran as {fill} {written!r}: {target.id} is "
                f"a {kind} field, which takes {_FORMATS[kind][0]}.")
    if target.kind == "ticked" and isinstance(value, str) and target.says(value):
        # its own label typed into a box or a radio: meant to tick it (check never unticks)
        return _as(check, target, f"{tool} {value!r} on {target.id} ran as {check} "
                   f"{target.id}: {target.id} is a {_what(target)}, which is ticked, not "
                   "typed into.")
    if isinstance(value, str) and value.strip() and (
            target.kind == "ticked" or target.tag in _NOT_FIELDS) and not _editable(target):
        # "fill input-3 12345" on a checkbox, "fill form-0 ...": the browser's own error
        # names no field; this one names those the text is for
        empty = empty_fields(state_text, target.id)
        label = target.attrs.get("label") or target.text
        return REFUSED, {}, (
            f"{target.id} is a {_what(target)}" + (f" ({label})" if label else "")
            + ": it takes no text"
            + ("; tick it with check, untick it with uncheck" if target.kind == "ticked"
               else "")
            + f". Type {value!r} into a text field"
            + (f" (empty now: {', '.join(empty)})" if empty else "") + ".")
    if target.kind != "clicked":
        return None
    if isinstance(value, str) and value.strip() and not target.says(value):
        # "type John Doe into a-0": the text is meant for a field; a click would drop it
        # and follow the link
        empty = empty_fields(state_text, target.id)
        return REFUSED, {}, (
            f"{target.id} is a {_what(target)}: it takes a click, not text, and {value!r} "
            f"is not what it says. Type {value!r} into a text field"
            + (f" (empty now: {', '.join(empty)})" if empty else "")
            + f"; click {target.id} only to do what it says.")
    return _as(click, target, f"{tool} on {target.id} ran as {click} {target.id}: "
               f"{target.id} is a {_what(target)}, which takes a click, not text.")


# elements that never take typed text (whatever their role, unless made editable)
_NOT_FIELDS = frozenset({"form", "main", "nav", "header", "footer", "section", "article",
                         "aside", "ul", "ol", "li", "table", "img", "fieldset"})


def _editable(line: Line) -> bool:
    """Does the element take typed text by its role or its contenteditable?"""
    return (line.attrs.get("role") in ("textbox", "searchbox", "combobox")
            or "contenteditable" in line.flags or "contenteditable" in line.attrs)


# a date or time field's own format (its value, what fill takes), and how people write one
_DATES = ("%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d", "%Y/%m/%d", "%d.%m.%Y", "%B %d, %Y",
          "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y")
_TIMES = ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p", "%I:%M%p", "%I %p", "%I%p")
_FORMATS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "date": ("yyyy-mm-dd", _DATES, "%Y-%m-%d"),
    "time": ("hh:mm (24 hours)", _TIMES, "%H:%M"),
    "month": ("yyyy-mm", ("%m/%Y", "%Y-%m", "%B %Y", "%b %Y", "%m/%y"), "%Y-%m"),
    "datetime-local": ("yyyy-mm-ddThh:mm", tuple(f"{d} {t}" for d in _DATES for t in _TIMES)
                       + tuple(f"{d}T{t}" for d in _DATES for t in _TIMES[:2]),
                       "%Y-%m-%dT%H:%M"),
}


def field_format(kind: str, value: str) -> str | None:
    """``value`` as a field of input type ``kind`` holds it (``date``: "05/20/2010" ->
    "2010-05-20"; month first, as an en-US browser shows dates); None when ``kind`` is no
    date or time field, or ``value`` is no date or time (a placeholder, an empty text)."""
    if kind not in _FORMATS or "{" in value:
        return None
    _, accepted, own = _FORMATS[kind]
    text = " ".join(value.replace(",", ", ").split()).replace(" ,", ",")
    for pattern in accepted:
        try:
            parsed = datetime.strptime(text, pattern)
        except ValueError:
            continue
        seconds = parsed.strftime(":%S") if "%S" in pattern and parsed.second else ""
        return parsed.strftime(own) + seconds
    return None


def ancestors(lines: list[Line], index: int) -> list[Line]:
    """The elements with an id that hold ``lines[index]``, nearest first."""
    found = []
    depth = lines[index].depth
    for line in reversed(lines[:index]):
        if line.depth < depth:
            found.append(line)
            depth = line.depth
    return found


def inside(lines: list[Line], container: Line) -> list[Line]:
    """The elements with an id inside ``container``, in page order."""
    start = lines.index(container)
    out = []
    for line in lines[start + 1:]:
        if line.depth <= container.depth:
            break
        out.append(line)
    return out


def _what(line: Line) -> str:
    kind = line.attrs.get("role") or line.attrs.get("type") or line.tag
    return {"a": "link", "input": "field"}.get(kind, kind)


def _as(tool: str, line: Line, why: str) -> tuple[str, dict[str, Any], str]:
    return tool, {"element_id": line.id}, why
