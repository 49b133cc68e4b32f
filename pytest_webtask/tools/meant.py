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

from dataclasses import dataclass
from typing import Any

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
    return [Line(line.head, line.attrs, line.text, line.depth)
            for line in state_lines(state_text) if line.id and line.parsed]


def select_meant(params: dict[str, Any], state_text: str, *, check: str, click: str
                 ) -> tuple[str, dict[str, Any], str] | None:
    """The action a ``select`` with ``params`` meant (the ``check`` or ``click`` tool's name,
    its parameters) and why it runs instead, when the page state makes that unambiguous;
    None when the select runs as proposed."""
    target_id, value = params.get("element_id"), params.get("value")
    if not isinstance(target_id, str) or not isinstance(value, str):
        return None
    lines = read_lines(state_text)
    target = next((line for line in lines if line.id == target_id), None)
    if target is None or target.kind == "chosen":
        return None
    said = f"select {value!r} on {target_id} ran as"
    if target.kind == "ticked":
        others = [line for line in lines if line.kind == "ticked" and line.says(value)]
        if target.says(value) or not others:
            return _as(check, target, f"{said} {check} {target.id}: {target.id} is a "
                       f"{_what(target)}, not a dropdown.")
        if len(others) == 1:
            return _as(check, others[0], f"{said} {check} {others[0].id}: {target.id} is a "
                       f"{_what(target)}, not a dropdown; {others[0].id} is the one labelled "
                       f"{value!r}.")
        return None
    if target.kind == "clicked":
        return _as(click, target, f"{said} {click} {target.id}: {target.id} is a "
                   f"{_what(target)}, not a dropdown.")
    # a container (a menu, a list, a group): the one element inside it that says the value
    found = [line for line in inside(lines, target) if line.says(value)]
    if not found:
        return None
    deepest = max(line.depth for line in found)
    found = [line for line in found if line.depth == deepest]
    if len(found) != 1:
        return None
    tool = check if found[0].kind == "ticked" else click
    return _as(tool, found[0], f"{said} {tool} {found[0].id}: {target.id} is not a dropdown; "
               f"{found[0].id} inside it says {value!r}.")


def typed_meant(tool: str, params: dict[str, Any], state_text: str, *, click: str
                ) -> tuple[str, dict[str, Any], str] | None:
    """A ``fill`` or ``type`` into a button or a link ("type Submit into button-0") meant
    to click it; anything else runs as proposed."""
    target_id = params.get("element_id")
    target = next((line for line in read_lines(state_text) if line.id == target_id), None)
    if target is None or target.kind != "clicked":
        return None
    return _as(click, target, f"{tool} on {target.id} ran as {click} {target.id}: "
               f"{target.id} is a {_what(target)}, which takes a click, not text.")


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
