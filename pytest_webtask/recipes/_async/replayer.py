"""AsyncReplayer: runs a recipe step with plain Playwright, verifying as it goes. No LLM."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page

from ...browser._async.watch import AsyncPageWatch
from ...browser.script import COLLECTOR_JS
from ...errors import CheckFailed, ElementError, ReplayError
from ...tools._async.browser_tools import perform
from ...types import Dialog, DialogAnswer, Fingerprint
from ..model import Check, RecipeAction, RecipeStep
from ..patterns import escape
from ..urls import absolute_url
from ..verify import Found, differences

# Waits between polls, as Playwright's own auto-wait does: quick at first, then steady.
POLL_MS = (0, 20, 50, 100, 100, 250)


def _poll_ms(attempt: int) -> int:
    return POLL_MS[min(attempt, len(POLL_MS) - 1)]


class AsyncReplayer:
    """Replays recipe steps on ``page``. Every target is found by its fingerprint, must be
    unique, visible and still the same element; every recorded check must hold again."""

    def __init__(
        self,
        page: Page,
        *,
        base_url: str | None = None,
        timeout_ms: float = 5000,
        substitute: Callable[[str], str] | None = None,
        resources: dict[str, str] | None = None,
        tools: Mapping[str, Any] | None = None,
        before_action: Callable[[RecipeAction, Locator | None], Any] | None = None,
    ) -> None:
        self.page = page
        self.before_action = before_action  # the HTML report shoots the target first
        self.tools = tools  # plugin tools by name: their ``act`` replays their actions
        self.base_url = base_url
        self.timeout_ms = timeout_ms
        self.substitute = substitute or (lambda v: v)
        self.resources = resources or {}

    async def run_step(self, step: RecipeStep, where: str) -> None:
        """Replay one step: each action on its verified target (its dialogs answered as
        recorded, following a tab it opens), then each check. ``page`` is the tab the step
        ended on."""
        watch = AsyncPageWatch(self.page.context)
        watch.attach()
        try:
            for n, action in enumerate(step.actions, 1):
                try:
                    await self.run_action(action, f"{where}, action {n} ({action.tool})",
                                          watch)
                except ElementError as exc:
                    exc.index = n - 1
                    raise
        finally:
            watch.detach()
        await self.run_checks(step.checks, where)

    async def run_action(self, action: RecipeAction, where: str,
                         watch: AsyncPageWatch | None = None) -> None:
        params: dict[str, Any] = dict(action.params)
        locator = await self.resolve(action.target, where) if action.target else None
        to_locator = await self.resolve(action.to, where + " (drop target)", keep=True) \
            if action.to else None
        if self.before_action is not None:
            await self.before_action(action, locator)
        if action.tool == "navigate":
            params["url"] = absolute_url(self.substitute(params["url"]), self.base_url,
                                         self.page.url)
        if watch is not None:
            watch.take_dialogs()
            watch.take_opened()
            watch.answers = [self._answer(d) for d in action.dialogs]
        what = action.target.describe() if action.target else "the page"
        try:
            result = await perform(self.page, action.tool, params, locator,
                                   substitute=self.substitute, resources=self.resources,
                                   timeout_ms=self.timeout_ms, watch=watch,
                                   to_locator=to_locator, custom=self.tools)
        except PlaywrightError as exc:
            raise ReplayError(f"{where}: {action.tool} failed on {what}: "
                              f"{str(exc).strip().splitlines()[0]}") from None
        if not result.success:
            raise ReplayError(f"{where}: {result.error}")
        if result.page is not None:
            self.page = result.page
        if watch is not None:
            await self._expect_dialogs(action, watch, f"{where} on {what}")
            if action.opens_tab:
                await self._follow_tab(watch, f"{where} on {what}")

    def _answer(self, dialog: Dialog) -> DialogAnswer:
        return DialogAnswer(accept=dialog.accept, type=dialog.type,
                            message=self.substitute(dialog.message),
                            text=self.substitute(dialog.text) if dialog.text is not None
                            else None)

    async def _expect_dialogs(self, action: RecipeAction, watch: AsyncPageWatch,
                              where: str) -> None:
        """The recorded dialogs came, saying the same; no other dialog came."""
        want = [self._answer(d) for d in action.dialogs]
        seen: list[Dialog] = []

        async def attempt() -> tuple[bool | None, str]:
            seen.extend(watch.take_dialogs())
            return (True if len(seen) >= len(want) else None), ""

        if want:
            await self._until(attempt)
        else:
            seen.extend(watch.take_dialogs())
        for n, got in enumerate(seen):
            if n >= len(want):
                raise ReplayError(f"{where}: the page opened a {got.describe()}, which the "
                                  "recording did not see\n"
                                  "  If the page changed on purpose, record again: "
                                  "pytest --webtask-record")
            if not want[n].fits(got.type, got.message):
                raise ReplayError(f"{where}: expected a {want[n].type} dialog "
                                  f"{want[n].message!r}; instead the page opened a "
                                  f"{got.describe()}")
        if len(seen) < len(want):
            missing = want[len(seen)]
            raise ReplayError(f"{where}: expected a {missing.type} dialog {missing.message!r}, "
                              f"but no dialog appeared within {self.timeout_ms / 1000:g}s\n"
                              f"  page: {self.page.url}")

    async def _follow_tab(self, watch: AsyncPageWatch, where: str) -> None:
        """The action opened a tab when recorded: wait for it and make it the current page."""

        async def attempt() -> tuple[Page | None, str]:
            opened = watch.take_opened()
            return (opened[-1] if opened else None), ""

        page, _ = await self._until(attempt)
        if page is None:
            raise ReplayError(f"{where}: expected a new tab to open, but none opened within "
                              f"{self.timeout_ms / 1000:g}s\n  page: {self.page.url}")
        self.page = page
        try:
            await page.wait_for_load_state("load", timeout=self.timeout_ms)
        except PlaywrightError:
            pass  # the checks that follow wait for what they need

    async def run_checks(self, checks: list[Check], where: str) -> None:
        for n, check in enumerate(checks, 1):
            await self.verify(check, f"{where}, check {n}")

    # -- finding elements -----------------------------------------------------------------

    async def _until(self, attempt: Callable[[], Any]) -> tuple[Any, str]:
        """Poll ``attempt`` (returning (value or None, why not)) until a value or timeout."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        n = 0
        while True:
            value, problem = await attempt()
            if value is not None or time.monotonic() >= deadline:
                return value, problem
            n += 1
            await self.page.wait_for_timeout(_poll_ms(n))

    async def resolve(self, fp: Fingerprint, where: str, *, keep: bool = False) -> Locator:
        """The one visible element matching ``fp``, waiting up to the timeout for it
        (``keep``: the locator of the previous resolve stays valid)."""
        found, problem = await self._until(lambda: self._find(fp, keep=keep))
        if found is None:
            raise ElementError(
                f"{where}: expected {fp.describe()}; {problem}\n"
                f"  page: {self.page.url}\n"
                "  If the page changed on purpose, record again: pytest --webtask-record"
            )
        return found.frame.locator(found.selector)

    async def _frame(self, fp: Fingerprint) -> Frame | None:
        """The frame holding the element: the main frame, or its iframe chain followed."""
        frame = self.page.main_frame
        for css in fp.frame:
            handle = await frame.query_selector(css)
            child = await handle.content_frame() if handle else None
            if child is None:
                return None
            frame = child
        return frame

    async def _find(self, fp: Fingerprint, slot: str = "target", *, keep: bool = False
                    ) -> tuple[Found | None, str]:
        """One try of the fingerprint cascade (collector.js, in the element's frame, the same
        role and name code as recording): (what was found, "") or (None, why not).

        The first strategy with visible candidates still the same element decides: one is
        the answer; several is an ambiguity. ``slot`` "scope" holds a check's container while
        its element is found in the other slot."""
        try:
            frame = await self._frame(fp)
            if frame is None:
                return None, f"its iframe {' > '.join(fp.frame)} is not on the page"
            found = await frame.evaluate(COLLECTOR_JS, {"op": "resolve", "fp": fp.model_dump(),
                                                        "slot": slot, "keep": keep})
        except PlaywrightError as exc:
            return None, script_problem(exc, self.page.url)
        attr = "data-webtask-scope" if slot == "scope" else "data-webtask-target"
        seen: list[str] = []
        for how, infos in found:
            visible = [info for info in infos if info["visible"]]
            same: list[tuple[Fingerprint, dict[str, Any]]] = []
            for info in visible:
                current = Fingerprint.model_validate(info["fp"])
                diff = differences(fp, current, several=len(visible) > 1, found_by=how)
                if diff:
                    seen.append(f"by {how}: {current.describe()}, but {', '.join(diff)}")
                else:
                    same.append((current, info))
            if len(same) > 1:
                same = [s for s in same if s[0].css == fp.css] or same
            if len(same) == 1:
                selector = f'[{attr}="{same[0][1]["token"]}"]'
                return Found(frame, selector, same[0][1]["text"]), ""
            if same:
                return None, (f"{len(same)} elements now match it (found by {how}): "
                              + "; ".join(s[0].describe() for s in same[:3]))
        if not seen:
            return None, NOT_VISIBLE
        return None, NOT_VISIBLE + ". Closest:\n    " + "\n    ".join(seen[:3])

    # -- checks ---------------------------------------------------------------------------

    async def verify(self, check: Check, where: str) -> None:
        """Wait up to the timeout for ``check`` to hold; fail with what the page has instead."""

        async def attempt() -> tuple[bool | None, str]:
            ok, instead = await self.holds(check)
            return (True if ok else None), instead

        ok, instead = await self._until(attempt)
        if ok is None:
            raise CheckFailed(
                f"{where}: expected {self._describe(check)}\n  instead: {instead}\n"
                f"  page: {self.page.url}"
            )

    def _describe(self, check: Check) -> str:
        return self.substitute(check.describe())

    def _spec(self, check: Check) -> dict[str, Any]:
        """The check as collector.js takes it, placeholders filled in (escaped in patterns)."""
        spec = check.model_dump(exclude={"element", "within", "held_before"})
        for key in ("text", "value"):
            if spec[key] is not None:
                spec[key] = self.substitute(spec[key])
        spec["texts"] = [self.substitute(t) for t in spec["texts"]]
        if spec["pattern"] is not None:
            spec["pattern"] = self.pattern(spec["pattern"])
        return spec

    def pattern(self, pattern: str) -> str:
        return re.sub(r"\\\{(\w+)\\\}",
                      lambda m: escape(self.substitute("{" + m.group(1) + "}")), pattern)

    async def holds(self, check: Check, url: str | None = None) -> tuple[bool, str]:
        """One try of ``check`` (no waiting): (holds, what the page has instead)."""
        if check.expect == "url":
            return self._url_holds(check, url or self.page.url)
        frame, el, scope = self.page.main_frame, None, None
        if check.within is not None:
            found, problem = await self._find(check.within, slot="scope")
            if found is None:
                return False, f"its container {check.within.describe()}: {problem}"
            frame, scope = found.frame, found.selector
        if check.element is not None:
            found, problem = await self._find(check.element)
            if check.expect == "hidden":
                return found is None and problem.startswith(NOT_VISIBLE), (
                    "it is visible" if found is not None else problem)
            if found is None:
                return False, problem
            frame, el = found.frame, found.selector
        try:
            got = await frame.evaluate(COLLECTOR_JS, {"op": "check", "check": self._spec(check),
                                                      "el": el, "scope": scope})
        except PlaywrightError as exc:
            return False, script_problem(exc, self.page.url)
        return bool(got["ok"]), str(got["got"])

    def _url_holds(self, check: Check, url: str) -> tuple[bool, str]:
        parts = urlsplit(url)
        if check.match == "pattern" and check.pattern is not None:
            if re.fullmatch(self.pattern(check.pattern), parts.path) is None:
                return False, f"the URL path is {parts.path!r}"
        elif check.path is not None and parts.path != self.substitute(check.path):
            return False, f"the URL path is {parts.path!r}"
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        for key, want in check.query.items():
            if query.get(key) != self.substitute(want):
                have = f"{key}={query[key]!r}" if key in query else f"no {key}"
                return False, f"the URL's query has {have} (URL {url})"
        return True, ""


NOT_VISIBLE = "no visible element matches it"


def script_problem(exc: Exception, url: str) -> str:
    """A Playwright error from evaluating our script, said as what it is."""
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "Execution context was destroyed" in msg or "navigat" in msg.lower():
        return "the page was navigating"
    return f"the page's script failed while checking ({msg}) on {url}"
