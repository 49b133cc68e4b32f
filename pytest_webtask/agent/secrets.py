"""Secret values registered for a task or a whole test, and how they are masked.

Once passed, a secret stays registered: a field it was typed into keeps showing it on later
steps, so every later prompt, history, report and artifact is masked too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from urllib.parse import quote, quote_plus


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
