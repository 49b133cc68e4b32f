"""What every tool is, the same for sync and async code: its name, description and
parameters, how a recipe keeps its actions, and the Playwright code the export writes for
them. What a tool does to the page is its ``perform``, in the flavoured class
(``_async/browser_tools.py``'s ``AsyncTool`` and its twin ``Tool``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from .params import ToolParams


class Code(Protocol):
    """What one recorded action's Playwright code is written from. The export implements
    it (locators from fingerprints, strings with the test's parameters and secrets), so a
    tool's ``code`` says only what is its own."""

    @property
    def params(self) -> Mapping[str, Any]:
        """The action's recorded parameters (``{placeholders}`` kept)."""
        ...

    def element(self) -> str:
        """The target's locator; the export refuses an action that has none."""
        ...

    def element_or_none(self) -> str | None:
        """The target's locator, or None for an action on the page."""
        ...

    def drop_target(self) -> str:
        """A drag's drop target's locator."""
        ...

    def expr(self, text: str) -> str:
        """A Python expression for ``text``, its placeholders read from the test's
        parameters and secrets."""
        ...

    def file(self, resource: str) -> str:
        """A Python expression for the path of the file a resource names."""
        ...


class ToolSpec:
    """The flavour-free part of a tool. A plugin's tool (``pytest_webtask.Tool``) gets the
    defaults: replayed, no URL parameter, not exportable."""

    name: ClassVar[str]
    description: ClassVar[str]
    params_class: ClassVar[type[ToolParams]]
    # False: a recipe keeps no action of this tool (its effect is stored elsewhere, or it
    # has none); see ``tools.builtin``.
    replayed: ClassVar[bool] = True
    # The parameter holding a URL, which a recipe keeps relative to the base URL.
    url_param: ClassVar[str | None] = None
    # The open tabs the tool needs to be offered: a tab tool is no use with one tab.
    tabs_needed: ClassVar[int] = 1
    # Sets what a form control holds (a field's text, an option, a box's tick, a slider's
    # value): what such an action did proves only that, never an effect on the page.
    sets_control: ClassVar[bool] = False
    # Offered only on a page whose state holds this text (``slide``: a slider's line).
    shown_by: ClassVar[str | None] = None
    # (parameter, page-state attribute): on a target whose line has that attribute (a
    # dropdown's ``options="S|M|L"``), the parameter is one of its ``|``-separated items, and
    # a reply schema offers only those (a small model chose "S" where the one size is
    # "One size", six times over).
    choices: ClassVar[tuple[str, str] | None] = None

    @classmethod
    def instead(cls, params: dict[str, Any], state_text: str
                ) -> tuple[str, dict[str, Any], str] | None:
        """The action (tool name, parameters) and why, to run in place of this tool's one
        with ``params`` when the page state says that is what it meant (a ``select`` on a
        radio button checks it); None runs it as proposed."""
        return None

    @classmethod
    def code(cls, c: Code) -> list[str] | None:
        """The lines of Playwright code an exported test has for one action of this tool:
        the last line is the action (its dialogs' answers go before it, a tab it opens
        around it). None: the export cannot write it."""
        return None
