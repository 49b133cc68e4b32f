"""Scripted doubles for exploring: rules that answer the ``explore``, ``plan`` and
``generate`` requests from what each prompt shows, so ``webtask explore`` and ``webtask
generate`` run end to end without a model (``pytest_webtask.testing.scripted_explorer``).

They read the page state and the site map they are given (``read_page_state``), as a model
would, and never know the app in advance: forms, fields, lists and links come from the page.
They are rules, not a model: a test that uses them proves the machinery, not that a model
would find the same flows.

The plan they write uses a small vocabulary that ``recorder.py`` beside this module
(``scripted_recorder``, the scripted model the generated tests are recorded with) reads back:

- ``search for {query}``
- ``choose "M" in "Size" for "Blue Oxford Shirt"`` (``for``: the list item holding it)
- ``type "{email}" into "Email"``
- ``click "Add to cart" for "Blue Oxford Shirt"``
- checks: ``the page shows "A" and "B"``, ``the first item of the list is "X"``
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..llm.request import ModelRequest

DESTRUCTIVE_WORDS = re.compile(
    r"\b(delete|remove|destroy|erase|cancel|reset|deactivate|unsubscribe|close account)\b",
    re.IGNORECASE)
ITEM_TAGS = ("article", "li", "tr")
FIELD_TAGS = ("input", "select", "textarea")
MESSAGE = re.compile(r"required|invalid|error|wrong|please|thank|signed in|order|total|"
                     r"page \d+ of|\d+ (product|item|result)s?\b|category|price", re.IGNORECASE)


# -- reading a page state -----------------------------------------------------------------


@dataclass
class PageNode:
    """One line of a page state: ``id`` (``button-3``, or None), ``tag``, ``attrs`` (a
    flag such as ``disabled`` maps to True), its own ``text``, and its children."""

    tag: str
    id: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    children: list[PageNode] = field(default_factory=list)
    parent: PageNode | None = field(default=None, repr=False)

    def walk(self) -> Iterator[PageNode]:
        yield self
        for child in self.children:
            yield from child.walk()

    def all_text(self) -> str:
        return " ".join(n.text for n in self.walk() if n.text)

    def ancestors(self) -> Iterator[PageNode]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def within(self, *tags: str) -> PageNode | None:
        return next((a for a in self.ancestors() if a.tag in tags), None)

    @property
    def label(self) -> str:
        """What a person calls it: its label, aria-label, placeholder, text or name."""
        a = self.attrs
        return str(a.get("label") or a.get("aria-label") or a.get("placeholder")
                   or self.text or a.get("name") or "")


def _split_head(line: str) -> tuple[list[str], str]:
    """``td > form-0 (attrs) "text"`` -> (["td", "form-0"], ``(attrs) "text"``)."""
    heads: list[str] = []
    rest = line
    while True:
        m = re.match(r"([a-z][\w-]*)( > | |$)", rest)
        if m is None:
            return heads, rest
        heads.append(m.group(1))
        rest = rest[m.end():]
        if m.group(2) != " > ":
            return heads, rest


def _attrs(text: str) -> tuple[dict[str, Any], str]:
    """Parse ``(k="v" flag ...)`` at the start of ``text``; the rest after it."""
    if not text.startswith("("):
        return {}, text
    out: dict[str, Any] = {}
    i = 1
    while i < len(text) and text[i] != ")":
        if text[i] == " ":
            i += 1
            continue
        m = re.match(r"[\w-]+", text[i:])
        if m is None:
            break
        key = m.group(0)
        i += m.end()
        if i < len(text) and text[i] == "=":
            value, end = json.JSONDecoder().raw_decode(text, i + 1)
            out[key] = value
            i = end
        else:
            out[key] = True
    return out, text[i + 1:].lstrip()


def read_page_state(text: str) -> list[PageNode]:
    """The page state's tree (the lines after ``Current Page State``'s header), as nodes."""
    roots: list[PageNode] = []
    stack: list[tuple[int, PageNode]] = []
    for raw in text.splitlines():
        stripped = raw.lstrip(" ")
        if not stripped.startswith("- ") or stripped.startswith("- ["):
            continue
        depth = (len(raw) - len(stripped)) // 2
        body = stripped[2:]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        if body.startswith('"'):
            node = PageNode(tag="#text", text=json.loads(body))
        else:
            heads, rest = _split_head(body)
            if not heads:
                continue
            attrs, rest = _attrs(rest)
            own = json.loads(rest) if rest.startswith('"') else ""
            outer: PageNode | None = None
            for head in heads[:-1]:  # bare wrappers folded onto the line
                wrapper = PageNode(tag=head, parent=parent)
                (parent.children if parent else roots).append(wrapper)
                parent = outer = wrapper
            last = heads[-1]
            m = re.fullmatch(r"([a-z][a-z0-9]*)-(\d+)", last)
            node = PageNode(tag=m.group(1) if m else last, id=last if m else None,
                            attrs=attrs, text=own)
            del outer
        node.parent = parent
        (parent.children if parent else roots).append(node)
        stack.append((depth, node))
    return roots


def _walk(roots: list[PageNode]) -> Iterator[PageNode]:
    for root in roots:
        yield from root.walk()


def page_block(context: ModelRequest) -> str:
    """The text of the prompt's page state block (the last one that has one)."""
    for block in reversed(context.blocks):
        if "Current Page State" in block.text:
            return block.text
    return ""


# -- explore ------------------------------------------------------------------------------


def _data_names(context: ModelRequest) -> tuple[dict[str, str], list[str]]:
    """(variables name -> value, secret names) from the prompt's test data block."""
    variables: dict[str, str] = {}
    secrets: list[str] = []
    for block in context.blocks:
        for m in re.finditer(r"^- \{(\w+)\} = (.+?) \(a variable\)$", block.text, re.MULTILINE):
            try:
                variables[m.group(1)] = str(yaml.safe_load(m.group(2)))
            except yaml.YAMLError:
                variables[m.group(1)] = m.group(2).strip("'\"")
        secrets += re.findall(r"^- \{(\w+)\} \(a secret", block.text, re.MULTILINE)
    return variables, secrets


def _item_name(item: PageNode) -> str:
    heading = next((n for n in item.walk() if n.tag in ("h2", "h3", "h4", "td", "a") and n.text),
                   None)
    return heading.text if heading else item.all_text()[:60]


def _alert(node: PageNode) -> bool:
    """Is it an error summary or a status (``role=alert``/``status``), or inside one?"""
    return any(n.attrs.get("role") in ("alert", "status") for n in (node, *node.ancestors()))


def _lists(roots: list[PageNode]) -> list[tuple[PageNode, list[PageNode]]]:
    """Containers of repeated items (articles, list items, table rows); not a menu of the
    header, not the items of an error summary (those are messages)."""
    out = []
    for node in _walk(roots):
        items = [c for c in node.children if c.tag in ITEM_TAGS]
        if items and not (node.tag == "ul" and node.within("nav", "header")) \
                and not _alert(node):
            out.append((node, items))
    return out


def _local_link(node: PageNode) -> bool:
    href = str(node.attrs.get("href") or "")
    return node.tag == "a" and bool(node.id) and bool(href) \
        and not href.startswith(("http://", "https://", "mailto:", "#", "javascript:"))


def explore_reply(context: ModelRequest) -> dict[str, Any]:
    """The explorer's reading of the page in the prompt, by rules (see the module)."""
    text = page_block(context)
    roots = read_page_state(text)
    title_m = re.search(r"^Title: (.*)$", text, re.MULTILINE)
    h1 = next((n.text for n in _walk(roots) if n.tag == "h1" and n.text), "")
    title = h1 or (title_m.group(1).split(" - ")[0] if title_m else "") or "Page"
    variables, secrets = _data_names(context)
    lists = _lists(roots)
    in_item = {id(n) for _, items in lists for item in items for n in item.walk()}

    forms, explore = [], []
    item_forms_seen = False
    for form in (n for n in _walk(roots) if n.tag == "form" and n.id):
        fields = [n for n in form.walk() if n.tag in FIELD_TAGS and n.id
                  and n.attrs.get("type") not in ("hidden", "submit", "button")]
        buttons = [n for n in form.walk() if n.tag == "button" and n.id
                   and n.attrs.get("type") in (None, "submit")]
        submit = buttons[0] if buttons else None
        destructive = bool(submit and DESTRUCTIVE_WORDS.search(submit.label))
        in_list = id(form) in in_item
        if in_list and item_forms_seen:
            continue  # one entry for a form each item repeats
        item_forms_seen = item_forms_seen or in_list
        name = (submit.label if submit else "form") + (" (on each item)" if in_list else "")
        forms.append({"element": form.id, "name": name, "submit": submit.label if submit else "",
                      "destructive": destructive, "fields": [
                          {"element": f.id, "name": f.label,
                           "kind": str(f.attrs.get("type") or f.tag),
                           "options": str(f.attrs.get("options", "")).split("|")
                           if f.attrs.get("options") else []} for f in fields]})
        if destructive or submit is None:
            continue
        explore += _try_form(form, fields, submit, lists, variables, secrets)

    list_info = []
    for container, items in lists:
        details = next((b for b in items[0].walk() if b.tag == "button" and b.id
                        and re.search(r"details|view|more", b.label, re.IGNORECASE)), None)
        names = [_item_name(i) if i.tag != "tr" else ", ".join(
            n.text for n in i.walk() if n.tag == "td" and n.text) for i in items]
        list_info.append({"element": container.id, "name": h1.lower() or "items",
                          "count": len(items), "items": names[:5],
                          "details": f"{details.label!r} opens them on this page"
                          if details else ""})
        if details is not None:
            explore.append({"why": f"the details of {_item_name(items[0])}",
                            "actions": [{"tool": "click",
                                         "parameters": {"element_id": details.id}}]})

    for _container, items in lists:  # an item's own page: one per list, not all
        link = next((n for n in items[0].walk() if _local_link(n)), None)
        if link is not None:
            explore.append({"why": f"the page of {_item_name(items[0])!r}, as each item has",
                            "actions": [{"tool": "click",
                                         "parameters": {"element_id": link.id}}]})

    navigation = []
    links = [n for n in _walk(roots) if _local_link(n) and id(n) not in in_item]
    repeated = {n.label for n in links if sum(m.label == n.label for m in links) > 1}
    followed: set[str] = set()
    for link in links:
        href = str(link.attrs["href"])
        navigation.append({"element": link.id, "name": link.text or link.label, "url": href})
        if link.label in repeated:  # cards' "Read more": one is enough
            if link.label in followed:
                continue
            followed.add(link.label)
        explore.append({"why": f"the page behind {link.text or href!r}",
                        "actions": [{"tool": "click", "parameters": {"element_id": link.id}}]})
    for button in (n for n in _walk(roots) if n.id and n.attrs.get("expanded") == "false"):
        explore.append({"why": f"what the {button.label!r} menu or section shows when open",
                        "actions": [{"tool": "click", "parameters": {"element_id": button.id}}]})

    messages = []
    for node in _walk(roots):
        if id(node) in in_item or node.tag in ("a", "button", "option", "h1", "label") \
                or node.tag in FIELD_TAGS:
            continue
        if node.text and len(node.text) <= 80 and (node.attrs.get("role") == "alert"
                                                   or MESSAGE.search(node.text)
                                                   or node.within("aside")):
            if node.text not in messages:
                messages.append(node.text)
    return {"title": title, "purpose": _purpose(title, forms, list_info),
            "forms": forms, "lists": list_info, "navigation": navigation,
            "messages": messages[:12], "explore": explore}


def _purpose(title: str, forms: list[dict[str, Any]], lists: list[dict[str, Any]]) -> str:
    what = [f"{lst['count']} {lst['name']}" for lst in lists]
    what += [f"a form to {f['submit'].lower() or 'submit'}" for f in forms if not f["destructive"]]
    return f"{title}: " + (", ".join(what) if what else "a page to read")


def _try_form(form: PageNode, fields: list[PageNode], submit: PageNode,
              lists: list[tuple[PageNode, list[PageNode]]], variables: dict[str, str],
              secrets: list[str]) -> list[dict[str, Any]]:
    def act(tool: str, node: PageNode, **params: Any) -> dict[str, Any]:
        return {"tool": tool, "parameters": {"element_id": node.id, **params}}

    out = []
    search = next((f for f in fields if f.attrs.get("type") == "search"
                   or re.search(r"search|^q$", str(f.attrs.get("name", "")), re.I)), None)
    selects = [f for f in fields if f.tag == "select"]
    password = next((f for f in fields if f.attrs.get("type") == "password"), None)
    texts = [f for f in fields if f.tag in ("input", "textarea")
             and f.attrs.get("type") in (None, "email", "text", "tel", "number", "url")]
    if search is not None:
        names = [_item_name(i) for _, items in lists for i in items]
        source = names[1] if len(names) > 1 else (names[0] if names else "test")
        term = max(source.split(), key=len).lower()
        out.append({"why": f"search results for {term!r}",
                    "actions": [act("fill", search, value=term), act("click", submit)]})
    if selects and form.within(*ITEM_TAGS) is not None:
        choice = [act("select", s, value=_other_option(s)) for s in selects if _other_option(s)]
        out.append({"why": "what submitting it does", "actions": [*choice, act("click", submit)]})
    elif selects and search is not None or len(selects) > 1:
        choice = [act("select", s, value=str(s.attrs["options"]).split("|")[-1])
                  for s in selects if s.attrs.get("options")]
        out.append({"why": "the list filtered and sorted", "actions": [*choice,
                                                                       act("click", submit)]})
    if password is not None:
        if secrets:
            email = next((f for f in texts if f.attrs.get("type") == "email"
                          or "email" in f.label.lower()), texts[0] if texts else None)
            user = next((n for n, v in variables.items() if "@" in v or "email" in n), None)
            fill = [act("fill", email, value="{" + user + "}")] if email and user else []
            out.append({"why": "signing in with the test credentials", "actions": [
                *fill, act("fill", password, value="{" + secrets[0] + "}"), act("click", submit)]})
    elif texts and search is None:
        out.append({"why": "its validation messages, with the fields left empty",
                    "actions": [act("click", submit)]})
    return out


def _other_option(select: PageNode) -> str:
    options = str(select.attrs.get("options", "")).split("|")
    chosen = select.attrs.get("selected")
    return next((o for o in options[1:] if o != chosen), "")


# -- plan ---------------------------------------------------------------------------------

_CLICK = re.compile(r'^click (\w+) "(.+?)"(?: near "(.+?)")?(?: \(.*\))?$')
_FILL = re.compile(r'^(fill|type|select) (\w+) "(.+?)"(?: near "(.+?)")? with (.+)$')


def _value(text: str) -> str:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text.strip("'\"")
    return str(value)


def _sentences(reached: list[str], variables: dict[str, str]) -> tuple[list[str], dict[str, str],
                                                                       list[str], str]:
    """The do-steps of a way through the app, the variables they use, the secrets, and a
    name for what the last of them does."""
    steps: list[str] = []
    used: dict[str, str] = {}
    secrets: list[str] = []
    pending: list[str] = []
    kind = ""
    for line in reached:
        if line.startswith("open "):
            continue
        if m := _FILL.match(line):
            verb, role, label, near_item, value = m.groups()
            value = _value(value)
            if verb == "select":
                near = f' for "{near_item}"' if near_item else ""
                pending.append(f'choose "{value}" in "{label}"{near}')
                kind = "choose"
                continue
            placeholder = re.fullmatch(r"\{(\w+)\}", value)
            if placeholder and placeholder.group(1) not in variables:
                secrets.append(placeholder.group(1))
            elif placeholder:
                used[placeholder.group(1)] = variables[placeholder.group(1)]
            if role == "searchbox" or "search" in label.lower():
                used["query"] = value
                pending.append("search for {query}")
                kind = "search"
            else:
                pending.append(f'type "{value}" into "{label}"')
                secret = placeholder is not None and placeholder.group(1) in secrets
                kind = "sign in" if secret or kind == "sign in" else "form"
            continue
        if m := _CLICK.match(line):
            near = f' for "{m.group(3)}"' if m.group(3) else ""
            if pending and pending[-1].startswith("search for"):
                steps.append(pending.pop())
                kind = "search"
            else:
                click = f'click "{m.group(2)}"{near}'
                steps.append(", then ".join([" and ".join(pending), click]) if pending
                             else click)
                if kind != "sign in" or not pending:
                    kind = (f"click near:{m.group(2)}" if m.group(3) else
                            kind if pending and kind in ("choose", "form") else
                            f"click:{m.group(2)}")
            pending = []
    if pending:
        steps.append(" and ".join(pending))
    return steps, used, secrets, kind


def _quoted(texts: list[str]) -> str:
    return " and ".join(f'"{t}"' for t in texts)


def plan_reply(context: ModelRequest) -> dict[str, Any]:
    """Flows from the site map in the prompt, by rules (see the module)."""
    text = next((b.text for b in context.blocks if b.text.startswith("Site map (YAML):")), "")
    site = yaml.safe_load(text.split("\n", 1)[1]) if text else {}
    pages = (site or {}).get("pages", [])
    variables, _ = _given(context)
    if not pages:
        return {"flows": []}
    start = pages[0]
    start_messages = set(start.get("messages", []))
    start_items = {i for lst in start.get("lists", []) for i in lst.get("items", [])}
    every_item = {i for p in pages for lst in p.get("lists", []) for i in lst.get("items", [])}
    flows: list[dict[str, Any]] = []
    titles: set[str] = set()
    for page in pages[1:]:
        reached = page.get("reached_by", [])
        steps, used, secrets, kind = _sentences(reached, variables)
        if not steps:
            continue
        messages = [m for m in page.get("messages", []) if m not in start_messages]
        errors = [m for m in messages if re.search(r"required|invalid|valid|wrong|error",
                                                   m, re.I)]
        items = [i for lst in page.get("lists", []) for i in lst.get("items", [])]
        last = reached[-1] if reached else ""
        checks: list[str] = []
        if kind == "search":
            title = "Search the catalogue"
            shown = [m for m in messages if re.search(r"\d", m)][:1] + items[:1]
        elif kind == "choose" and "near" not in last:
            title = "Filter and sort the list"
            shown = [m for m in messages if re.search(r"\d", m)][:1]
            if items:
                checks.append(f'the first item of the list is "{items[0]}"')
        elif kind == "sign in":
            title = "Sign in"
            shown = messages[:1]
        elif errors:
            title = f"{page.get('title', 'Form')} validation with an empty form"
            shown = errors[:2]
        elif (menu := _menu(reached)) is not None:
            title = f"Open {page.get('title', 'the page')} from the {menu} menu"
            shown = [page.get("title", "")] + messages[:1]
        elif (source := _item_source(reached, pages, every_item)) is not None:
            title = f"Open an item of {source}"
            shown = [page.get("title", "")] + messages[:1]
        elif kind.startswith("click near:") and re.search(r"add|cart|basket", kind, re.I):
            title = "Add an item to the cart"
            row = items[0].split(", ") if items else []
            shown = [t for t in row if not t.startswith("$")][:2] + [
                m for m in messages if m.lower().startswith("total")][:1]
        elif kind.startswith("click near:"):
            title = f"Open the {kind.split(':', 1)[1].lower()} of an item"
            shown = messages[:2]
        elif kind.startswith("click:") and re.search(r"next|page \d|load more|show more",
                                                     kind, re.I):
            title = "Browse to the next page"
            shown = [m for m in messages if re.search(r"page \d+ of", m, re.I)][:1] + [
                i for i in items if i not in start_items][:1]
            if items and items[0] not in start_items:
                checks.append(f'the first item of the list is "{items[0]}"')
        else:
            continue
        if not shown or title in titles:
            continue
        titles.add(title)
        flows.append({"title": title,
                      "steps": [{"kind": "goto", "text": "/"}]
                      + [{"kind": "do", "text": s} for s in steps]
                      + [{"kind": "check", "text": c} for c in checks],
                      "outcome": f"the page shows {_quoted(shown)}",
                      "variables": used, "secrets": sorted(set(secrets)), "files": []})
    return {"flows": flows}


_LINK_LINE = re.compile(r'^click link "(.+?)"(?: near "(.+?)")?(?: \((/[^)]*)\))?$')


def _menu(reached: list[str]) -> str | None:
    """The menu a page was opened from: a button clicked on its own (not a form's, after
    its fields), then a link."""
    if len(reached) >= 2 and _LINK_LINE.match(reached[-1]):
        button = re.match(r'^click button "(.+?)"', reached[-2])
        typed = len(reached) >= 3 and _FILL.match(reached[-3])
        if button and not typed:
            return button.group(1)
    return None


def _item_source(reached: list[str], pages: list[dict[str, Any]],
                 items: set[str]) -> str | None:
    """The title of the page whose list or cards a link opened this one from."""
    link = _LINK_LINE.match(reached[-1]) if reached else None
    if link is None or (link.group(1) not in items and link.group(2) not in items):
        return None
    source = next((p for p in pages if p.get("reached_by", []) == reached[:-1]), None)
    return str(source.get("title") or "a list") if source is not None else None


def _given(context: ModelRequest) -> tuple[dict[str, str], list[str]]:
    variables: dict[str, str] = {}
    secrets: list[str] = []
    for block in context.blocks:
        for m in re.finditer(r"^- variable \{(\w+)\} = (.+)$", block.text, re.MULTILINE):
            variables[m.group(1)] = _value(m.group(2))
        secrets += re.findall(r"^- secret \{(\w+)\}$", block.text, re.MULTILINE)
    return variables, secrets


# -- generate -----------------------------------------------------------------------------

_CHECKISH = re.compile(r"^(check that|verify that|make sure that|the |it shows |there )",
                       re.IGNORECASE)


def generate_reply(context: ModelRequest) -> dict[str, Any]:
    """The kind of each step in the prompt's flow, by its first words."""
    text = context.blocks[0].text if context.blocks else ""
    body = text.split("Steps:\n", 1)[-1].split("\n\n", 1)[0]
    steps = []
    for line in body.splitlines():
        m = re.match(r"^\d+\. (.*)$", line)
        if not m:
            continue
        step = m.group(1)
        prefix = re.match(r"^(do|check|extract): (.*)$", step)
        if prefix:
            steps.append({"kind": prefix.group(1), "text": prefix.group(2)})
        elif g := re.match(r"^(?:goto|go to|open) (/\S*|https?://\S+)$", step, re.IGNORECASE):
            steps.append({"kind": "goto", "text": g.group(1)})
        elif _CHECKISH.match(step):
            steps.append({"kind": "check", "text": re.sub(
                r"^(check that|verify that|make sure that) ", "", step, flags=re.IGNORECASE)})
        else:
            steps.append({"kind": "do", "text": step})
    return {"steps": steps}
