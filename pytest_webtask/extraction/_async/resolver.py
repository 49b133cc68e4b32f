"""AsyncResolver: a binding's CSS selector -> the selector to use on the page now.

The bookkeeping of an extraction's bindings: which selector last worked for each, which
were found by their fingerprint rather than their CSS, and (while recording) the
fingerprints to store. The finding itself is the browser's (``AsyncFinder.binding``, the
collector's ``bind`` op): the CSS is tried first and must still fit the binding's
fingerprint; when it does not, the fingerprint's candidates are tried.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import ElementHandle

from ...browser._async.finder import AsyncFinder
from ...types import BindingFingerprint
from ..outcome import BindingMissing


class AsyncResolver:
    def __init__(self, finder: AsyncFinder,
                 targets: dict[str, BindingFingerprint] | None = None, *,
                 record: bool = False) -> None:
        self.finder = finder
        self.targets: dict[str, BindingFingerprint] = dict(targets or {})
        self.record = record
        self.using: dict[str, str] = {}  # key -> the selector that last worked (CSS or fallback)
        self.fallbacks: dict[str, str] = {}  # key -> how it was found, when not by its CSS

    def target(self, key: str, css: str) -> BindingFingerprint | None:
        target = self.targets.get(key)
        return target if target is not None and target.css == css else None

    def args(self, key: str, css: str, *, single: bool, visible: bool, named: bool = False,
             scope: ElementHandle | None = None) -> dict[str, Any]:
        target = self.target(key, css)
        return {"key": key, "css": self.using.get(key, css), "scope": scope, "single": single,
                "visible": visible, "named": named,
                "fp": target.model_dump(exclude_defaults=True) if target else None,
                "describe": self.record and target is None and css != "body"}

    def learn(self, key: str, css: str, result: dict[str, Any]) -> str:
        """Keep what resolved (and, while recording, the fingerprint); return the selector."""
        if result.get("fp") and key not in self.targets:
            self.targets[key] = BindingFingerprint.model_validate({**result["fp"], "css": css})
        sel = str(result["sel"])
        self.using[key] = sel
        if result.get("via") not in (None, "css"):
            self.fallbacks[key] = f"{result['via']} {sel}"
        return sel

    async def find(self, key: str, css: str, *, single: bool = False, visible: bool = True,
                   named: bool = False, scope: ElementHandle | None = None,
                   wait: bool = False) -> str:
        """The selector to use for ``key`` now; raises BindingMissing. ``wait`` waits up to
        the timeout for a (visible) match."""
        arg = self.args(key, css, single=single, visible=visible, named=named, scope=scope)
        result = await self.finder.binding(arg, wait=wait)
        if not result.get("sel"):
            self.using.pop(key, None)
            raise BindingMissing(key, css, list(result.get("tried") or []),
                                 self.target(key, css))
        return self.learn(key, css, result)

    def learned(self) -> dict[str, BindingFingerprint]:
        return dict(self.targets)
