"""Value types every layer shares: model usage, the agent's actions and what came of them,
secrets and how they are masked, element fingerprints and dialogs as recipes record them.

The bottom floor with ``errors.py``: this module imports nothing else of the package, so the
browser, the tools, the model clients, the agent and the recipes can all use it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import quote, quote_plus

from pydantic import BaseModel, ConfigDict, PrivateAttr


class Fingerprint(BaseModel):
    """Identifying features of an element, taken from the live page.

    ``frame`` lists CSS selectors of the iframes that lead to the element, outermost first.
    Field order here is the order a recipe shows them in.
    """

    model_config = ConfigDict(extra="forbid")

    tag: str
    role: str | None = None
    name: str | None = None
    text: str | None = None
    label: str | None = None
    placeholder: str | None = None
    test_id: str | None = None
    id: str | None = None
    name_attr: str | None = None
    type: str | None = None
    css: str | None = None
    xpath: str | None = None
    frame: list[str] = []
    near: str | None = None

    def describe(self) -> str:
        """A short human description, e.g. ``button "Add to cart"``."""
        what = self.role or self.tag
        label = self.name or self.text or self.label or self.placeholder or self.test_id or ""
        where = f' near "{self.near}"' if self.near else ""
        if label:
            return f'{what} "{label}"{where}'
        return (f"{what} #{self.id}" if self.id else what) + where



class BindingFingerprint(Fingerprint):
    """An extraction binding's fingerprint: what its CSS selector (``css``, the binding as the
    model wrote it) matched when recorded, and how many elements (``count``). Besides the
    fields every fingerprint has (``name`` is the accessible name of a control, matched with its
    digits generalised; ``test_id`` the value of any of the test-id attributes), the matches'
    shared stable attributes (``attrs``; ``has``: present with varying values), their common
    parent (``parent``, as tag[attributes]) and, for one element, its position from the scope
    (``path``). Stored in an extraction recipe's ``targets`` by binding name; found again by
    the collector's ``bind`` op. One whose ``css`` differs from the binding's (someone edited
    the binding) is ignored."""

    css: str
    attrs: dict[str, str] = {}
    has: list[str] = []
    parent: str | None = None
    path: list[str] | None = None
    count: int = 1

    def summary(self) -> str:
        """A short description for error messages."""
        parts = [f"<{self.tag}>"]
        if self.role:
            parts.append(f"role {self.role}")
        if self.name:
            parts.append(f"name {self.name!r}")
        if self.test_id:
            parts.append(f"test id {self.test_id!r}")
        parts += [f"{k}={v!r}" for k, v in self.attrs.items()] + [f"[{k}]" for k in self.has]
        return ", ".join(parts)

class DialogAnswer(BaseModel):
    """How to answer the next dialog: accept (with ``text`` for a prompt) or dismiss.

    A replay also names the dialog it expects (``type``, ``message``): a different dialog is
    dismissed instead, so a changed page never gets a confirmation meant for another one."""

    model_config = ConfigDict(extra="forbid")

    accept: bool
    text: str | None = None
    type: str | None = None
    message: str | None = None

    def fits(self, type_: str, message: str) -> bool:
        return self.type in (None, type_) and self.message in (None, message)


class Dialog(BaseModel):
    """A dialog the page opened during an action, and how it was answered."""

    model_config = ConfigDict(extra="forbid")

    type: str
    message: str
    accept: bool
    text: str | None = None
    # answered as set beforehand (the dialog tool, a recipe), not by default: not stored
    _set: bool = PrivateAttr(default=False)

    @property
    def answer_was_set(self) -> bool:
        return self._set

    def describe(self) -> str:
        answer = "accepted" if self.accept else "dismissed"
        if self.accept and self.text is not None:
            answer += f" with {self.text!r}"
        return f"{self.type} dialog {self.message!r} ({answer})"


class DownloadedFile(BaseModel):
    """A file an action downloaded: its suggested name, its size, and (for text, CSV or
    PDF) its text, cut to ``browser.downloads.TEXT_LIMIT`` characters."""

    model_config = ConfigDict(extra="forbid")

    name: str
    size: int
    text: str | None = None

    def describe(self) -> str:
        return f"{self.name} ({self.size:,} bytes)"


@dataclass
class Usage:
    """LLM usage added up over a task (or a session).

    ``calls``: replies received; ``prompt_tokens``/``completion_tokens``: as the endpoint
    reports them; ``seconds``: wall time spent waiting on the model (failed tries, retries
    and their pauses included); ``timeouts``: requests that ran out of time (each closed,
    none answered); ``refusals``: requests the endpoint refused for their reply format
    (``json_schema``), each asked again in JSON mode. A model that measures none of the last
    three leaves them 0.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    timeouts: int = 0
    refusals: int = 0

    def add(self, other: Usage) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def since(self, start: Usage) -> Usage:
        """What was used after ``start`` (a copy taken earlier)."""
        return Usage(**{f.name: getattr(self, f.name) - getattr(start, f.name)
                        for f in fields(self)})

    def copy(self) -> Usage:
        return replace(self)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

@dataclass
class Action:
    """One tool invocation proposed by the model."""

    tool: str
    reason: str
    parameters: dict[str, Any] = field(default_factory=dict)

@dataclass
class ExecutionResult:
    """What happened when one action ran.

    ``target`` is the fingerprint of the element acted on, taken just before acting, so a
    recipe can find it again without the element id (``to`` is a drag's drop target).
    ``dialogs`` are the dialogs the action opened, as answered; ``opened_tab`` says it
    opened a new tab, which became the current one. ``page`` is the page the action left
    current when it changed tabs. ``downloads`` are the files it downloaded.
    """

    success: bool
    error: str | None = None
    output: str = ""
    target: Fingerprint | None = None
    url_before: str = ""
    url_after: str = ""
    to: Fingerprint | None = None
    dialogs: list[Dialog] = field(default_factory=list)
    opened_tab: bool = False
    page: Any = None
    downloads: list[DownloadedFile] = field(default_factory=list)
    # a click that reached its element only after the pointer was moved onto it: the recipe
    # keeps a hover before it
    hovered: bool = False
    # the action changed nothing on the page, and a dialog it opened was dismissed because no
    # answer was set (a click whose confirm said no): a recipe does not keep it
    unchanged: bool = False
    # a click that turned a checkbox or switch on (True) or off (False): a recipe keeps it
    # as check (uncheck), which sets the state rather than flipping it
    checked: bool | None = None


class Secrets:
    """Secret values and their placeholder names. ``mask`` replaces every occurrence of a
    value (and its JSON- and URL-encoded forms) with ``{name}``."""

    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        self._names: dict[str, str] = {}  # value -> name; one value may come under two names
        self.register(secrets or {})

    def register(self, secrets: Mapping[str, str]) -> None:
        for name, value in secrets.items():
            if value:
                self._names.setdefault(value, name)

    def __bool__(self) -> bool:
        return bool(self._names)

    @property
    def values(self) -> list[str]:
        return list(self._names)

    def pairs(self) -> list[tuple[str, str]]:
        """(value or an encoded form of it, ``{name}``), longest first so a secret holding
        another is masked whole."""
        out: dict[str, str] = {}
        for value, name in self._names.items():
            for form in _forms(value):
                out.setdefault(form, "{" + name + "}")
        return sorted(out.items(), key=lambda kv: -len(kv[0]))

    def mask(self, text: str) -> str:
        for value, placeholder in self.pairs():
            text = text.replace(value, placeholder)
        return text

    def mask_bytes(self, data: bytes) -> bytes:
        for value, placeholder in self.pairs():
            data = data.replace(value.encode(), placeholder.encode())
        return data


def _forms(value: str) -> Iterable[str]:
    yield value
    yield json.dumps(value)[1:-1]
    yield json.dumps(value, ensure_ascii=False)[1:-1]
    yield quote_plus(value)
    yield quote(value, safe="")
