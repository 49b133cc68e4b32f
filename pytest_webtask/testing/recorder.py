"""The scripted recorder (``pytest_webtask.testing.scripted_recorder``): rules that carry out
the steps of a plan ``webtask explore`` wrote with ``scripted_explorer``, as the
``webtask_llm`` of the tests ``webtask generate`` records.

It reads each step's task and the page state it is shown, as a model would, and knows the
small vocabulary of that plan (see ``explorer.py`` beside it): ``search for
X``, ``choose "V" in "Label" [for "Item"]``, ``type "V" into "Label"``, ``click "Text" [for
"Item"]``, and the checks ``the page shows "A" and "B"`` and ``the first item of the list is
"X"``. It never knows the shop in advance: every element id comes from the page state.
When the page does not show what a step names, it says the task is impossible. A script,
not a model: it proves the machinery, not what a model would do.
"""

from __future__ import annotations

import re
from typing import Any

from ..llm.prompts import get_prompt
from ..llm.request import ModelRequest
from . import ScriptedLLM
from .explorer import ITEM_TAGS, page_block, read_page_state

# how a check step's task starts; the statement follows, on the first line
CHECK_PREFIX = get_prompt("agent/proposer", "check_task").split("{statement}")[0]
_INSTRUCTION = re.compile(
    r'search for (?P<query>\S+)'
    r'|choose "(?P<option>[^"]+)" in "(?P<select>[^"]+)"(?: for "(?P<select_item>[^"]+)")?'
    r'|type "(?P<value>[^"]+)" into "(?P<field>[^"]+)"'
    r'|click "(?P<click>[^"]+)"(?: for "(?P<click_item>[^"]+)")?')


class CannotDo(Exception):
    """The page does not show what the step names."""


def _page(context: ModelRequest) -> str:
    """The request's page-state block (a question the agent asks again comes after it)."""
    return page_block(context) or context.blocks[-1].text


def _nodes(context: ModelRequest) -> list[Any]:
    roots = read_page_state(_page(context))
    out: list[Any] = []
    for root in roots:
        out.extend(root.walk())
    return out


def _in_item(nodes: list[Any], item_text: str | None) -> list[Any]:
    """The nodes inside the list item that shows ``item_text`` (all nodes without one)."""
    if not item_text:
        return nodes
    for node in nodes:
        if node.text == item_text:
            item = node.within(*ITEM_TAGS)
            if item is not None:
                return list(item.walk())
    raise CannotDo(f"no list item shows {item_text!r}")


def _named(nodes: list[Any], tags: tuple[str, ...], name: str) -> Any:
    for node in nodes:
        if node.id and node.tag in tags and node.label.strip().lower() == name.lower():
            return node
    raise CannotDo(f"the page shows no {'/'.join(tags)} named {name!r}")


def _act(tool: str, node: Any, **params: Any) -> dict[str, Any]:
    return {"tool": tool, "parameters": {"element_id": node.id, **params},
            "reason": f"{tool} {node.label!r}"}


def _groups(task: str) -> list[list[re.Match[str]]]:
    """The task's instructions, in groups that each end with a click (a click may load
    another page, so what follows waits for the next page state)."""
    groups: list[list[re.Match[str]]] = [[]]
    for m in _INSTRUCTION.finditer(task):
        groups[-1].append(m)
        if m.group("click") or m.group("query"):
            groups.append([])
    return [g for g in groups if g]


def _actions(group: list[re.Match[str]], nodes: list[Any]) -> list[dict[str, Any]]:
    actions = []
    form = None  # the form of the last field filled: a click after it submits that form
    for m in group:
        if m.group("query"):
            box = next((n for n in nodes if n.id and n.tag == "input" and (
                n.attrs.get("type") == "search" or "search" in n.label.lower())), None)
            if box is None:
                raise CannotDo("the page has no search box")
            form = box.within("form")
            button = next((n for n in (form.walk() if form else []) if n.id
                           and n.tag == "button"), None)
            actions.append(_act("fill", box, value=m.group("query")))
            if button is not None:
                actions.append(_act("click", button))
        elif m.group("option"):
            scope = _in_item(nodes, m.group("select_item"))
            actions.append(_act("select", _named(scope, ("select",), m.group("select")),
                                value=m.group("option")))
        elif m.group("value"):
            field = _named(nodes, ("input", "textarea"), m.group("field"))
            form = field.within("form") or form
            actions.append(_act("fill", field, value=m.group("value")))
        else:
            scope = _in_item(nodes, m.group("click_item"))
            tags = ("button", "a", "input")
            try:
                target = _named(list(form.walk()), tags, m.group("click")) if form else None
            except CannotDo:
                target = None
            actions.append(_act("click", target or _named(scope, tags, m.group("click"))))
    return actions


def recorder_llm() -> ScriptedLLM:
    """The scripted model for ``webtask_llm`` while the generated tests record."""
    seen: dict[str, tuple[set[str], str]] = {}  # task -> texts and URL at its first step

    def shown(context: ModelRequest) -> tuple[list[Any], set[str], str]:
        nodes = _nodes(context)
        url = re.search(r"^URL: (\S+)", _page(context), re.MULTILINE)
        return nodes, {n.text for n in nodes if n.text}, url.group(1) if url else ""

    def do(context: ModelRequest) -> dict[str, Any]:
        nodes, texts, url = shown(context)
        if context.step == 1:
            seen[context.task] = (texts, url)
        groups = _groups(context.task)
        try:
            if not groups:
                raise CannotDo("no step of this script's vocabulary is in the task")
            if context.step <= len(groups):
                return {"complete": False, "message": f"part {context.step} of the task",
                        "actions": _actions(groups[context.step - 1], nodes)}
        except CannotDo as exc:
            return {"complete": False, "impossible": True, "message": str(exc), "actions": []}
        before, first_url = seen.get(context.task, (set(), ""))
        new = [n.text for n in nodes if n.text and n.text not in before and len(n.text) <= 80
               and n.tag not in ("option",)]
        evidence: list[Any] = [{"expect": "text", "text": t} for t in dict.fromkeys(new)][:3]
        path = re.sub(r"^https?://[^/]+", "", url).split("?", 1)[0] or "/"
        if url.split("?", 1)[0] != first_url.split("?", 1)[0]:
            evidence.append({"expect": "url", "path": path})
        if not evidence:
            evidence = [{"expect": "text", "text": next(iter(t for t in texts))}]
        return {"complete": True, "message": "done", "evidence": evidence}

    def check(context: ModelRequest) -> dict[str, Any]:
        statement = context.task[len(CHECK_PREFIX):].split("\n", 1)[0]
        nodes, texts, _url = shown(context)
        first = re.fullmatch(r'the first item of the list is "([^"]+)"', statement)
        if first:
            node = next((n for n in nodes if n.text == first.group(1)), None)
            item = node.within(*ITEM_TAGS) if node is not None else None
            if item is None or item.parent is None:
                return _false(f"no list item shows {first.group(1)!r}")
            items = [c for c in item.parent.children if c.tag in ITEM_TAGS]
            if items[0] is not item:
                return _false(f"the first item shows {items[0].all_text()[:80]!r}")
            marker = next((n for n in item.walk() if n.id and n is not item), None)
            if marker is None:
                return _false("the first item has no element to point at")
            return {"complete": True, "message": "it is the first item", "evidence": [
                {"expect": "text", "text": first.group(1)},
                {"expect": "nth", "element": marker.id, "index": 1}]}
        wanted = re.findall(r'"([^"]+)"', statement)
        if not statement.startswith("the page shows ") or not wanted:
            return _false(f"this script cannot judge {statement!r}")
        missing = [w for w in wanted if w not in texts]
        if missing:
            return _false(f"the page does not show {missing[0]!r}")
        return {"complete": True, "message": "the page shows them",
                "evidence": [{"expect": "text", "text": w} for w in wanted]}

    def step(context: ModelRequest) -> dict[str, Any]:
        if context.task.startswith(CHECK_PREFIX):
            return check(context)
        return do(context)

    return ScriptedLLM({"step": step})


def _false(why: str) -> dict[str, Any]:
    return {"complete": False, "impossible": True, "message": why, "actions": []}
