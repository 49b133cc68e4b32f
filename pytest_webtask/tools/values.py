"""A step's values: its variables, secrets and resources, and how its ``{placeholders}``
resolve and are put back (``StepValues``). The replay path and the tools need only these;
the agent's ``TaskContext`` is a ``StepValues`` with the task, its history and the prompts.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import WebtaskError
from ..types import Secrets


class ComputedValueError(WebtaskError):
    """A value passed as a callable could not be computed."""


class Computed:
    """A variable's or secret's value passed as a callable (a one-time code from a shared
    secret, a code read from a test inbox): called the first time the step uses it, when
    the value is typed or checked, and kept for the rest of that step; the next step calls
    it again. Recipes and prompts hold only its placeholder.

    A plain function passed as a value is wrapped in one; ``Computed(function)`` says so
    explicitly (an object that is callable but also something else). The step gives it
    its placeholder's name and whether it is a secret (the dict it was passed in)."""

    def __init__(self, function: Callable[[], object], *, name: str = "",
                 secret: bool = False) -> None:
        if not callable(function):
            raise ComputedValueError(
                f"Computed({function!r}): pass a plain function that returns the value")
        self.name = name
        self.function = function
        self.secret = secret
        self._value: str | None = None

    @property
    def known(self) -> str | None:
        """The value, if the step has computed it yet."""
        return self._value

    def value(self) -> str:
        if self._value is None:
            what = f"the {'secret' if self.secret else 'variable'} {{{self.name}}}"
            try:
                got = self.function()
            except Exception as exc:
                raise ComputedValueError(
                    f"{what}: its function raised {type(exc).__name__}: {exc}") from exc
            if inspect.isawaitable(got):
                close = getattr(got, "close", None)
                if close is not None:
                    close()  # never awaited: no "coroutine was never awaited" warning
                raise ComputedValueError(
                    f"{what}: its function returned an awaitable; pass a plain function "
                    "that returns the value (it is called where the value is typed)")
            if got is None or got == "":
                raise ComputedValueError(f"{what}: its function returned {got!r}, not a value")
            self._value = str(got)
        return self._value


def computed_or_text(name: str, value: Any, *, secret: bool) -> str | Computed:
    """A value as a step keeps it: text, or a ``Computed`` for a callable."""
    if isinstance(value, Computed):
        if (value.name, value.secret) == (name, secret):
            return value  # this step's own, handed on (its value is shared)
        # a user's, named by where it was passed: passed as a secret, it is one
        return Computed(value.function, name=name, secret=secret)
    if callable(value) and not isinstance(value, type):
        if inspect.iscoroutinefunction(value):
            kind = "secret" if secret else "variable"
            raise ComputedValueError(
                f"the {kind} {{{name}}} is an async function; pass a plain function that "
                "returns the value (it is called where the value is typed)")
        return Computed(value, name=name, secret=secret)
    return str(value)


@dataclass(kw_only=True)
class StepValues:
    """The values a test step was passed. ``variables`` are shown to the model as
    placeholder names with their values; ``secrets`` as placeholder names only, their values
    never leave this object. ``known`` holds every secret to mask: this step's and those an
    earlier step of the same test registered, whose values may still be on the page.
    ``computed`` holds the variables and secrets passed as callables (``Computed``),
    evaluated when first used. Satisfies ``tools.task.TaskValues``."""

    resources: dict[str, str] = field(default_factory=dict)
    variables: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    known: Secrets = field(default_factory=Secrets)
    computed: dict[str, Computed] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.known.register(self.secrets)

    @staticmethod
    def parse(resources: Mapping[str, Any] | None = None,
              variables: Mapping[str, Any] | None = None,
              secrets: Mapping[str, Any] | None = None,
              known: Secrets | None = None) -> dict[str, Any]:
        """What a caller passes (paths and values of any type; a callable value, or a
        ``Computed``, is computed when the step first uses it) as this class's fields.
        ``known`` (shared, updated with ``secrets``) keeps earlier steps' secrets masked."""
        computed: dict[str, Computed] = {}
        texts: dict[bool, dict[str, str]] = {False: {}, True: {}}
        for secret, values in ((False, variables), (True, secrets)):
            for name, value in (values or {}).items():
                kept = computed_or_text(name, value, secret=secret)
                if isinstance(kept, Computed):
                    computed[name] = kept
                else:
                    texts[secret][name] = kept
        return {"resources": {k: str(v) for k, v in (resources or {}).items()},
                "variables": texts[False], "secrets": texts[True],
                "known": known if known is not None else Secrets(), "computed": computed}

    @classmethod
    def of(cls, *, resources: Mapping[str, Any] | None = None,
               variables: Mapping[str, Any] | None = None,
               secrets: Mapping[str, Any] | None = None,
               known: Secrets | None = None) -> StepValues:
        return cls(**cls.parse(resources, variables, secrets, known))

    def passed(self, *, secret: bool) -> dict[str, Any]:
        """The variables (or secrets) as a caller passes them, computed ones as
        ``Computed`` (so an agent given them shares this step's computed values)."""
        return {**(self.secrets if secret else self.variables),
                **{n: c for n, c in self.computed.items() if c.secret == secret}}

    def names_secret(self, value: str) -> bool:
        """Does a value the model typed hold a secret's placeholder?"""
        return any("{" + name + "}" in value for name in self.passed(secret=True))

    def substitute(self, value: str) -> str:
        """Replace ``{name}`` placeholders in a value typed by the model with their values."""
        for name, real in {**self.variables, **self.secrets}.items():
            value = value.replace("{" + name + "}", real)
        for name, computed in self.computed.items():
            if "{" + name + "}" in value:
                real = computed.value()
                if computed.secret:
                    self.known.register({name: real})  # masked from now on, everywhere
                value = value.replace("{" + name + "}", real)
        return value

    def placeholders(self, text: str, *, variables: bool = True) -> str:
        """Put ``{name}`` back where ``text`` holds a secret's value (always) or a variable's
        value (when ``variables``, and only values of 3+ characters or the whole text, so a
        short value such as "1" is not replaced inside unrelated words)."""
        text = self.known.mask(text)
        if variables:
            values = {**self.variables, **{n: c.known for n, c in self.computed.items()
                                           if not c.secret and c.known is not None}}
            for name, real in sorted(values.items(), key=lambda kv: -len(kv[1])):
                if real and (len(real) >= 3 or text == real):
                    text = text.replace(real, "{" + name + "}")
        return text

    def redact(self, text: str) -> str:
        """Replace any secret value in ``text`` (this task's or an earlier one's) with its
        placeholder."""
        return self.known.mask(text)
