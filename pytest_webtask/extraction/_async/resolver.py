"""AsyncResolver: a binding's CSS selector -> the selector to use on the page now.

The CSS is tried first and must still fit the binding's fingerprint; when it does not, the
fingerprint's candidates are tried (bind.js). While recording, the first match of every
binding is described, and those descriptions are what the recipe stores.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import ElementHandle, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from ...defaults import TIMEOUT
from ..outcome import BindingMissing
from ..targets import BIND_JS, Target

RESOLVE_JS = "(a) => {" + BIND_JS + "\nreturn WT.resolve(a.scope || document, a); }"
# wait_for_function wants a falsy value until it is done.
WAIT_JS = "(a) => {" + BIND_JS + "\nconst r = WT.resolve(a.scope || document, a);\n" \
          "return r.sel ? r : false; }"


class AsyncResolver:
    def __init__(self, page: Page, targets: dict[str, Target] | None = None, *,
                 record: bool = False, timeout_ms: float = TIMEOUT * 1000) -> None:
        self.page = page
        self.targets: dict[str, Target] = dict(targets or {})
        self.record = record
        self.timeout_ms = timeout_ms
        self.using: dict[str, str] = {}  # key -> the selector that last worked (CSS or fallback)
        self.fallbacks: dict[str, str] = {}  # key -> how it was found, when not by its CSS

    def target(self, key: str, css: str) -> Target | None:
        target = self.targets.get(key)
        return target if target is not None and target.css == css else None

    def args(self, key: str, css: str, *, single: bool, visible: bool, named: bool = False,
             scope: ElementHandle | None = None) -> dict[str, Any]:
        target = self.target(key, css)
        return {"key": key, "css": self.using.get(key, css), "scope": scope, "single": single,
                "visible": visible, "named": named,
                "fp": target.model_dump() if target else None,
                "describe": self.record and target is None and css != "body"}

    def learn(self, key: str, css: str, result: dict[str, Any]) -> str:
        """Keep what resolved (and, while recording, the fingerprint); return the selector."""
        if result.get("fp") and key not in self.targets:
            self.targets[key] = Target.model_validate({**result["fp"], "css": css})
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
        if wait:
            try:
                handle = await self.page.wait_for_function(WAIT_JS, arg=arg, polling="raf",
                                                           timeout=self.timeout_ms)
                return self.learn(key, css, await handle.json_value())
            except PlaywrightTimeoutError:
                pass  # once more below, for the list of what was tried
        result = await self.page.evaluate(RESOLVE_JS, arg)
        if not result.get("sel"):
            self.using.pop(key, None)
            raise BindingMissing(key, css, list(result.get("tried") or []),
                                 self.target(key, css))
        return self.learn(key, css, result)

    def learned(self) -> dict[str, Target]:
        return dict(self.targets)
