"""AsyncFinder: "find this element again", for every step kind (DESIGN decision 17).

One in-page library (the collector, ``browser/collector/``: ``visible``, ``roleOf``,
``testId``, and the resolvers ``findTarget`` for a fingerprint and ``bindResolve`` for an
extraction binding), called on a
frame through ``call``: the whole script crosses to the browser once per document, later
calls send only their arguments. One way to wait for what is not there yet: ``until``, at
Playwright's own intervals (``waits.py``). The recipe replayer and the extraction executor
both find through it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from ...defaults import TIMEOUT
from ...types import Fingerprint
from ..script import CALL_JS, INSTALL_JS, INSTALLED
from ..verdict import Found, why_not
from ..waits import backoff

# The URL of the document each frame last had the collector installed on.
_INSTALLED_ON: WeakKeyDictionary[Any, str] = WeakKeyDictionary()


class AsyncFinder:
    """Finds elements on ``page`` (and its frames) with the one in-page library, waiting up to
    ``timeout_ms`` where asked."""

    def __init__(self, page: Page, timeout_ms: float = TIMEOUT * 1000) -> None:
        self.page = page
        self.timeout_ms = timeout_ms

    async def call(self, args: dict[str, Any], frame: Frame | None = None) -> Any:
        """The collector's ``op`` on ``frame`` (the main frame by default), in one call
        (``call_collector``)."""
        return await call_collector(frame or self.page.main_frame, args)

    async def until(self, attempt: Callable[[], Any], tried: tuple[Any, str] | None = None,
                    timeout_ms: float | None = None) -> tuple[Any, str]:
        """Try ``attempt`` (returning (value or None, why not); a coroutine function in the
        async twin) until a value or the timeout,
        waiting between tries as Playwright does (``waits.py``); ``tried``: the first try,
        already made."""
        timeout = self.timeout_ms if timeout_ms is None else timeout_ms
        deadline = time.monotonic() + timeout / 1000
        waits = backoff(timeout)
        n = 0
        value, problem = tried if tried is not None else await attempt()
        while value is None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            wait = min(waits[min(n, len(waits) - 1)], left * 1000)
            if wait > 0:
                await self.page.wait_for_timeout(wait)
            n += 1
            value, problem = await attempt()
        return value, problem

    async def frame_of(self, chain: list[str] | tuple[str, ...]) -> Frame | None:
        """The frame an element is in: the main frame, or its iframe chain followed."""
        frame = self.page.main_frame
        for css in chain:
            handle = await frame.query_selector(css)
            child = await handle.content_frame() if handle else None
            if child is None:
                return None
            frame = child
        return frame

    async def element(self, fp: Fingerprint, slot: str = "target", *, keep: bool = False
                      ) -> tuple[Found | None, str]:
        """One try of the fingerprint cascade (``findTarget``, in the element's frame, the
        same role and name code as recording): (what was found, "") or (None, why not).
        ``slot`` "scope" holds an element while another is found in the other slot;
        ``keep``: the previous call's element stays held."""
        try:
            frame = await self.frame_of(fp.frame)
            if frame is None:
                return None, f"its iframe {' > '.join(fp.frame)} is not on the page"
            verdict = await self.call({"op": "resolve", "fp": fp.model_dump(), "slot": slot,
                                       "keep": keep}, frame)
        except PlaywrightError as exc:
            return None, script_problem(exc, self.page.url)
        if "token" not in verdict:
            return None, why_not(verdict)
        attr = "data-webtask-scope" if slot == "scope" else "data-webtask-target"
        return Found(frame, f'[{attr}="{verdict["token"]}"]'), ""

    async def binding(self, args: dict[str, Any], *, wait: bool = False) -> dict[str, Any]:
        """An extraction binding found again (the collector's ``bind`` op; ``args`` as
        ``bindResolve`` takes them): {sel, via, count[, fp]} or {sel: None, tried}.
        ``wait``: until it is found or the timeout."""

        async def attempt() -> tuple[dict[str, Any] | None, str]:
            try:
                got = await self.call({"op": "bind", **args})
            except PlaywrightError as exc:  # a navigation under way: try again
                return None, script_problem(exc, self.page.url)
            return (got if got.get("sel") else None), ""

        if not wait:
            return dict(await self.call({"op": "bind", **args}))
        found, _ = await self.until(attempt)
        return found if found is not None else dict(await self.call({"op": "bind", **args}))


async def call_collector(frame: Frame, args: dict[str, Any]) -> Any:
    """The collector's ``op`` on ``frame``, in one call: the whole script (about 50 KB),
    which installs the collector in the document, when the frame shows another document than
    it was last installed on (its URL changed), then only the arguments; a document the
    script is not on after all (reloaded at the same URL) costs a second call."""
    if _INSTALLED_ON.get(frame) == frame.url:
        got = await frame.evaluate(CALL_JS, args)
        if not (isinstance(got, str) and got == INSTALLED):
            return got
    got = await frame.evaluate(INSTALL_JS, args)
    _INSTALLED_ON[frame] = frame.url
    return got


def script_problem(exc: Exception, url: str) -> str:
    """A Playwright error from evaluating our script, said as what it is."""
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "Execution context was destroyed" in msg or "navigat" in msg.lower():
        return "the page was navigating"
    return f"the page's script failed while checking ({msg}) on {url}"
