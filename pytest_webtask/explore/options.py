"""The explorer's settings: its budgets and what it may do. Each has one name, one default
and an environment variable; the command line (``--max-pages``, ...) wins over the
environment."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..defaults import PAGE_CHARS
from ..errors import ConfigurationError

# name -> (type, default, environment variable, help)
FIELDS: dict[str, tuple[type, Any, str, str]] = {
    "max_pages": (int, 20, "WEBTASK_EXPLORE_MAX_PAGES",
                  "most pages (page states) to read, one model call each"),
    "max_llm_calls": (int, 30, "WEBTASK_EXPLORE_MAX_LLM_CALLS",
                      "most model calls in all, the plan's included (at least 2)"),
    "max_tokens": (int, 1_000_000, "WEBTASK_EXPLORE_MAX_TOKENS",
                   "most tokens (prompt + completion) in all; 0: no limit"),
    "max_seconds": (float, 600.0, "WEBTASK_EXPLORE_MAX_SECONDS",
                    "wall time for exploring, in seconds (the plan is written after)"),
    "page_chars": (int, PAGE_CHARS, "WEBTASK_PAGE_CHARS",
                   "page-state budget in characters, as for recording"),
    "allow_writes": (bool, False, "WEBTASK_EXPLORE_ALLOW_WRITES",
                     "let exploring send requests that can change data on the server (form "
                     "posts, fetches with a body); a form that looks destructive (delete, "
                     "cancel...) still needs --allow-form"),
    "allow_subresources": (bool, False, "WEBTASK_EXPLORE_ALLOW_SUBRESOURCES",
                           "let pages load images, styles, scripts and fonts from other "
                           "origins (a CDN); navigations, form posts and fetches to them are "
                           "stopped all the same"),
}


@dataclass(frozen=True)
class ExploreOptions:
    max_pages: int = 20
    max_llm_calls: int = 30
    max_tokens: int = 1_000_000
    max_seconds: float = 600.0
    page_chars: int = PAGE_CHARS
    allow_writes: bool = False
    allow_subresources: bool = False
    allowed_origins: tuple[str, ...] = ()  # besides the start page's origin
    # forms exploring may submit: a button's text, or an action path (with a "/"); "*" a
    # wildcard
    allow_forms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.max_pages < 1:
            raise ConfigurationError("max_pages (--max-pages) must be at least 1.")
        if self.max_llm_calls < 2:
            raise ConfigurationError(
                "max_llm_calls (--max-llm-calls) must be at least 2: one page and the plan.")
        if self.max_tokens < 0 or self.max_seconds <= 0 or self.page_chars < 1000:
            raise ConfigurationError(
                "max_tokens must be 0 or more, max_seconds more than 0 and page_chars at "
                "least 1000.")
        for pattern in self.allow_forms:
            if not pattern.strip():
                raise ConfigurationError(
                    "--allow-form takes a button's text (--allow-form Archive) or an action "
                    "path (--allow-form /loans/archive); got an empty one.")

    @classmethod
    def from_env(cls, overrides: Mapping[str, Any] | None = None,
                 environ: Mapping[str, str] | None = None) -> ExploreOptions:
        """Defaults, then the environment, then ``overrides`` (the command line; None
        values are not given)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, (typ, _default, var, _help) in FIELDS.items():
            if env.get(var, "").strip():
                values[name] = _convert(name, typ, env[var], var)
        for name, value in (overrides or {}).items():
            if value is not None:
                values[name] = value
        return dataclasses.replace(cls(), **values) if values else cls()


def _convert(name: str, typ: type, text: str, where: str) -> Any:
    if typ is bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
    else:
        try:
            return typ(text)
        except ValueError:
            pass
    wanted = {bool: "true or false", int: "a whole number"}.get(typ, "a number")
    raise ConfigurationError(f"{where} should be {wanted} ({name}); got {text!r}.")
