"""Scripted oracles for MiniWoB++ tasks: ``ScriptedLLM`` policies that read the instruction
and the page state the agent was given, and answer as a model would (the step agent's
proposal, or the planner's plan and tool invocations).

They prove the harness end to end (page, agent, tools, reward) with known answers. They are
not a model: a scripted run's figures are never a model's result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM

# "- button-0 (type="button" title="Close") "Close"", or "- td > a-3 (href="#") "4""
_LINE = re.compile(r'^\s*- (?:\S+ > )*(?P<id>[a-z0-9]+-\d+)'
                   r'(?: \((?P<attrs>.*?)\))?(?: "(?P<text>.*)")?$')
_ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"|(\w+)')
_QUOTED = re.compile(r'"([^"]+)"')


@dataclass
class Element:
    """One element of the page state the agent saw: its id, attributes and text."""

    id: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def tag(self) -> str:
        return self.id.rsplit("-", 1)[0]

    @property
    def name(self) -> str:
        return self.text or self.attrs.get("label", "")


def elements(page_state: str) -> list[Element]:
    """The elements with ids in a page state text (the collector's format)."""
    found = []
    for line in page_state.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        attrs: dict[str, str] = {}
        for key, value, flag in _ATTR.findall(m.group("attrs") or ""):
            if key:
                attrs[key] = value.replace('\\"', '"')
            elif flag:
                attrs[flag] = "true"
        text = (m.group("text") or "").replace('\\"', '"')
        found.append(Element(m.group("id"), attrs, text))
    return found


def act(tool: str, **parameters: Any) -> dict[str, Any]:
    return {"tool": tool, "reason": f"oracle: {tool}", "parameters": parameters}


def _one(els: list[Element], pred: Callable[[Element], bool]) -> Element:
    for el in els:
        if pred(el):
            return el
    raise LookupError("the oracle found no element it needs on the page")


def _named(els: list[Element], name: str, tags: tuple[str, ...] = ()) -> Element:
    return _one(els, lambda e: e.name == name and (not tags or e.tag in tags))


def _submit(els: list[Element], word: str = "submit") -> dict[str, Any]:
    return act("click", element_id=_one(
        els, lambda e: e.tag == "button" and e.text.lower() == word).id)


def _fill(el: Element, value: str) -> list[dict[str, Any]]:
    """Fill unless the page state already shows the value (the planner's re-plans ask
    again from the page as it is)."""
    return [] if el.attrs.get("value") == value else [act("fill", element_id=el.id, value=value)]


def _check(el: Element) -> list[dict[str, Any]]:
    return [] if "checked" in el.attrs else [act("check", element_id=el.id)]


def _inputs(els: list[Element]) -> list[Element]:
    return [e for e in els if e.tag == "input"]


# Each policy: (instruction, elements, page state text) -> the actions still needed.

def click_button(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return [act("click", element_id=_named(els, _QUOTED.findall(q)[0], ("button",)).id)]


def click_link(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return [act("click", element_id=_named(els, _QUOTED.findall(q)[0], ("span", "a")).id)]


def click_button_sequence(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return [act("click", element_id=_named(els, "ONE", ("button",)).id),
            act("click", element_id=_named(els, "TWO", ("button",)).id)]


def click_test_2(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    word = re.search(r"button (\w+)", q)
    assert word is not None
    return [act("click", element_id=_named(els, word.group(1), ("button",)).id)]


def click_dialog(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return [act("click", element_id=_one(els, lambda e: e.attrs.get("title") == "Close").id)]


def click_dialog_2(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    label = _QUOTED.findall(q)[0]
    if label.lower() == "x":
        return click_dialog(q, els)
    return [act("click", element_id=_named(els, label, ("button",)).id)]


def click_tab(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    tab = re.search(r"Tab #\d+", q)
    assert tab is not None
    return [act("click", element_id=_named(els, tab.group(0), ("a",)).id)]


def enter_text(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return _fill(_inputs(els)[0], _QUOTED.findall(q)[0]) + [_submit(els)]


def enter_password(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    word = _QUOTED.findall(q)[0]
    fields = _inputs(els)
    return _fill(fields[0], word) + _fill(fields[1], word) + [_submit(els)]


def login_user(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    user, password = _QUOTED.findall(q)[:2]
    fields = _inputs(els)
    return _fill(fields[0], user) + _fill(fields[1], password) + [_submit(els, "login")]


def choose_list(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.match(r"Select (.+?) from the list", q)
    assert m is not None
    box = _one(els, lambda e: e.tag == "select")
    chosen = [] if box.attrs.get("selected") == m.group(1) else [
        act("select", element_id=box.id, value=m.group(1))]
    return chosen + [_submit(els)]


def click_checkboxes(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.match(r"Select (.*?) and click Submit", q)
    assert m is not None
    words = [w.strip() for w in m.group(1).split(",") if w.strip() and w.strip() != "nothing"]
    out: list[dict[str, Any]] = []
    for word in words:
        out += _check(_named(els, word, ("input",)))
    return out + [_submit(els)]


def click_option(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.match(r"Select (.*?) and click Submit", q)
    assert m is not None
    box = _named(els, m.group(1), ("input",))
    return _check(box) + [_submit(els)]


def focus_text(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    return [act("click", element_id=_inputs(els)[0].id)]


def click_widget(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    kind = _QUOTED.findall(q)[0]
    def is_kind(e: Element) -> bool:
        if kind in ("textarea", "button", "select"):
            return e.tag == kind
        # the page's text widget is <input type="input">, which a browser shows as text
        types = ("text", "input") if kind == "text" else (kind,)
        return e.tag == "input" and e.attrs.get("type", "text") in types
    return [act("click", element_id=_one(els, is_kind).id)]


def enter_date(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.search(r"(\d\d)/(\d\d)/(\d{4})", q)
    assert m is not None
    month, day, year = m.groups()  # a date input's value is ISO, whatever it displays
    return _fill(_inputs(els)[0], f"{year}-{month}-{day}") + [_submit(els)]


def enter_time(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.search(r"(\d+):(\d\d) ([AP]M)", q)
    assert m is not None
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "PM" else 0)
    return _fill(_inputs(els)[0], f"{hour:02d}:{m.group(2)}") + [_submit(els)]


def choose_date_easy(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.search(r"(\d\d)/(\d\d)/\d{4}", q)
    assert m is not None
    days = [e for e in els if e.tag == "a" and e.text.isdigit()]
    if not days:  # the calendar opens when its input is clicked
        return [act("click", element_id=_inputs(els)[0].id)]
    return [act("click", element_id=_named(days, str(int(m.group(2)))).id), _submit(els)]


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def choose_date(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    """The month is changed from the keyboard: jQuery UI's datepicker takes PageUp and
    PageDown (its Prev link has an id, its disabled Next does not)."""
    m = re.search(r"(\d\d)/(\d\d)/(\d{4})", q)
    shown = re.search(r'"(?:Prev )?(?:Next )?(' + "|".join(MONTHS) + r') (\d{4})"', page)
    assert m is not None
    if shown is None:
        return [act("click", element_id=_inputs(els)[0].id)]
    want = int(m.group(3)) * 12 + int(m.group(1)) - 1
    have = int(shown.group(2)) * 12 + MONTHS.index(shown.group(1))
    if want != have:
        key = "PageDown" if want > have else "PageUp"
        return [act("press", element_id=_inputs(els)[0].id, key=key)] * abs(want - have)
    days = [e for e in els if e.tag == "a" and e.text.isdigit()]
    return [act("click", element_id=_named(days, str(int(m.group(2)))).id), _submit(els)]


def click_collapsible(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    header = _one(els, lambda e: e.attrs.get("role") == "tab" and e.tag == "h3")
    opened = [] if header.attrs.get("expanded") == "true" else [
        act("click", element_id=header.id)]
    return opened + [_submit(els)]


def use_slider(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.search(r"Select (-?\d+) with the slider", q)
    assert m is not None
    handle = _one(els, lambda e: e.attrs.get("role") == "slider")
    # as a model writes it: a select (or fill) of the number runs as slide on a slider
    return [act("select", element_id=handle.id, value=m.group(1)), _submit(els)]


def drag_items(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    m = re.search(r"Drag (.+?) (to the top|to the bottom|down by one|up by one|"
                  r"to the (\d+)\w\w)", q)
    assert m is not None
    items = [e for e in els if e.tag == "li" and "draggable" in e.attrs]
    at = next(i for i, e in enumerate(items) if e.name == m.group(1))
    to = {"to the top": 0, "to the bottom": len(items) - 1, "down by one": at + 1,
          "up by one": at - 1}.get(m.group(2), int(m.group(3) or 1) - 1)
    return [act("drag", element_id=items[at].id, to_element_id=items[to].id)]


def scroll_text_2(q: str, els: list[Element], page: str = "") -> list[dict[str, Any]]:
    area = _one(els, lambda e: e.tag == "textarea")
    key = "Control+End" if "bottom" in q else "Control+Home"
    return [act("press", element_id=area.id, key=key), _submit(els)]


POLICIES: dict[str, Callable[[str, list[Element], str], list[dict[str, Any]]]] = {
    "click-button": click_button,
    "click-link": click_link,
    "click-button-sequence": click_button_sequence,
    "click-test-2": click_test_2,
    "click-dialog": click_dialog,
    "click-dialog-2": click_dialog_2,
    "click-tab": click_tab,
    "enter-text": enter_text,
    "enter-password": enter_password,
    "login-user": login_user,
    "choose-list": choose_list,
    "click-checkboxes": click_checkboxes,
    "click-option": click_option,
    "focus-text": focus_text,
    "click-widget": click_widget,
    "enter-date": enter_date,
    "enter-time": enter_time,
    "choose-date-easy": choose_date_easy,
    "choose-date": choose_date,
    "click-collapsible": click_collapsible,
    "use-slider": use_slider,
    "drag-items": drag_items,
    "scroll-text-2": scroll_text_2,
}


def _page_state(text: str) -> str:
    start = text.rfind("Current Page State:")
    return text[start:] if start >= 0 else text


def _schema(context: ModelRequest) -> str:
    return str((context.response_schema or {}).get("title", ""))


_SUGGESTED = re.compile(r"^Suggested tool: (.*)\nSuggested parameters: (.*)$", re.MULTILINE)


def oracle_llm(task: str, instruction: str, horizon: int = 3) -> ScriptedLLM:
    """A ``ScriptedLLM`` solving ``task``: the step agent gets every needed action in one
    proposal; the planner gets them as a plan, each step resolved to the planned call."""
    policy = POLICIES[task]

    def reply(context: ModelRequest) -> Any:
        text = context.to_text()
        kind = _schema(context)
        if kind == "ToolInvocation":  # the planner's step, resolved as planned
            m = _SUGGESTED.search(text)
            if m is None:
                return {"tool": "done", "parameters": {"summary": "no step"}}
            return {"tool": m.group(1), "parameters": json.loads(m.group(2)),
                    "reason": "oracle: as planned"}
        page = _page_state(text)
        actions = policy(instruction, elements(page), page)
        if kind == "Plan":
            steps = [{"action": a["reason"], "tool": a["tool"], "parameters": a["parameters"]}
                     for a in actions[:horizon]]
            return {"steps": steps or [{"action": "finish", "tool": "done"}]}
        if not actions:
            return {"complete": True, "message": "oracle: nothing left to do"}
        return {"complete": False, "message": "oracle", "actions": actions}

    return ScriptedLLM(reply)
