"""AsyncReplayer: runs a recipe step with plain Playwright, verifying as it goes. No LLM."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FrameLocator, Locator, Page

from ...browser.fingerprint import Fingerprint
from ...browser.script import COLLECTOR_JS
from ...errors import WebtaskError
from ...tools._async.browser_tools import perform
from ..compile import absolute_url
from ..model import Check, RecipeAction, RecipeStep
from ..verify import differences, text_matches


class ReplayError(WebtaskError):
    """A recipe step no longer holds: an element is missing, ambiguous or changed, or a
    recorded outcome is not on the page."""


Scope = Page | FrameLocator

# Waits between polls, as Playwright's own auto-wait does: quick at first, then steady.
POLL_MS = (0, 20, 50, 100, 100, 250)


def _poll_ms(attempt: int) -> int:
    return POLL_MS[min(attempt, len(POLL_MS) - 1)]


def _strategies(scope: Scope, fp: Fingerprint) -> list[tuple[str, Locator]]:
    """Ways to find the element, most specific first (the fingerprint cascade)."""
    out: list[tuple[str, Locator]] = []
    if fp.test_id:
        out.append(("test id", scope.get_by_test_id(fp.test_id)))
    if fp.role and fp.name:
        out.append(("role and name", scope.get_by_role(fp.role, name=fp.name, exact=True)))  # type: ignore[arg-type]
    if fp.label:
        out.append(("label", scope.get_by_label(fp.label, exact=True)))
    if fp.placeholder:
        out.append(("placeholder", scope.get_by_placeholder(fp.placeholder, exact=True)))
    if fp.id:
        out.append(("id", scope.locator(f'{fp.tag}[id="{_attr(fp.id)}"]')))
    if fp.name_attr:
        out.append(("name attribute", scope.locator(f'{fp.tag}[name="{_attr(fp.name_attr)}"]')))
    if fp.text and len(fp.text) < 120:
        out.append(("text", scope.locator(fp.tag).filter(
            has_text=re.compile("^" + re.escape(fp.text) + "$"))))
    if fp.css:
        out.append(("CSS path", scope.locator(fp.css)))
    if fp.xpath:
        out.append(("XPath", scope.locator("xpath=" + fp.xpath)))
    return out


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
    ) -> None:
        self.page = page
        self.base_url = base_url
        self.timeout_ms = timeout_ms
        self.substitute = substitute or (lambda v: v)
        self.resources = resources or {}

    async def run_step(self, step: RecipeStep, where: str) -> None:
        """Replay one step: each action on its verified target, then each check."""
        for n, action in enumerate(step.actions, 1):
            await self.run_action(action, f"{where}, action {n} ({action.tool})")
        await self.run_checks(step.checks, where)

    async def run_action(self, action: RecipeAction, where: str) -> None:
        params: dict[str, Any] = dict(action.params)
        locator = await self.resolve(action.target, where) if action.target else None
        if action.tool == "navigate":
            params["url"] = absolute_url(self.substitute(params["url"]), self.base_url,
                                         self.page.url)
        try:
            result = await perform(self.page, action.tool, params, locator,
                                   substitute=self.substitute, resources=self.resources,
                                   timeout_ms=self.timeout_ms)
        except PlaywrightError as exc:
            raise ReplayError(f"{where}: {action.tool} failed on "
                              f"{action.target.describe() if action.target else 'the page'}: "
                              f"{str(exc).strip().splitlines()[0]}") from None
        if not result.success:
            raise ReplayError(f"{where}: {result.error}")

    async def run_checks(self, checks: list[Check], where: str) -> None:
        for n, check in enumerate(checks, 1):
            await self.verify(check, f"{where}, check {n}")

    # -- finding elements -----------------------------------------------------------------

    async def resolve(self, fp: Fingerprint, where: str) -> Locator:
        """The one visible element matching ``fp``, waiting up to the timeout for it."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        attempt = 0
        while True:
            found, problem = await self._find(fp)
            if found is not None:
                return found[0]
            if time.monotonic() >= deadline:
                raise ReplayError(
                    f"{where}: expected {fp.describe()}; {problem}\n"
                    f"  page: {self.page.url}\n"
                    "  If the page changed on purpose, record again: pytest --webtask-record"
                )
            attempt += 1
            await self.page.wait_for_timeout(_poll_ms(attempt))

    async def _find(self, fp: Fingerprint) -> tuple[tuple[Locator, str] | None, str]:
        """(the element's locator and its text, "") or (None, why not)."""
        if fp.frame:
            return await self._find_in_frame(fp)
        try:
            found = await self.page.evaluate(COLLECTOR_JS, {"op": "resolve",
                                                            "fp": fp.model_dump()})
        except PlaywrightError:
            return None, "the page was navigating"
        candidates = [
            (how, [(info, f'[data-webtask-target="{info["token"]}"]') for info in infos])
            for how, infos in found
        ]
        return self._choose(fp, [(how, None, c) for how, c in candidates])

    async def _find_in_frame(self, fp: Fingerprint) -> tuple[tuple[Locator, str] | None, str]:
        """Inside iframes: the same cascade through Playwright's locators."""
        scope: Scope = self.page
        for frame in fp.frame:
            scope = scope.frame_locator(frame)
        candidates = []
        for how, locator in _strategies(scope, fp):
            try:
                infos = await locator.evaluate_all(
                    COLLECTOR_JS, {"op": "fingerprints", "near": bool(fp.near)})
            except PlaywrightError:
                continue  # a frame is not there yet, or it is navigating
            candidates.append((how, locator, [(info, i) for i, info in enumerate(infos)]))
        return self._choose(fp, candidates)

    def _choose(self, fp: Fingerprint, strategies: list[tuple[str, Any, list[tuple[dict, Any]]]]
                ) -> tuple[tuple[Locator, str] | None, str]:
        """The first strategy with visible candidates that are still the same element decides:
        one is the answer; several is an ambiguity. ``where`` of a candidate is a CSS selector
        (main frame) or an index into the strategy's locator (iframes)."""
        seen: list[str] = []
        for how, locator, infos in strategies:
            visible = [(info, where) for info, where in infos if info["visible"]]
            if not visible:
                continue
            same: list[tuple[Fingerprint, dict, Any]] = []
            for info, where in visible:
                current = Fingerprint.model_validate(info["fp"])
                diff = differences(fp, current, several=len(visible) > 1)
                if diff:
                    seen.append(f"by {how}: {current.describe()}, but {', '.join(diff)}")
                else:
                    same.append((current, info, where))
            if len(same) > 1:
                same = [s for s in same if s[0].css == fp.css] or same
            if len(same) == 1:
                _, info, where = same[0]
                target = self.page.locator(where) if isinstance(where, str) else locator.nth(where)
                return (target, info["text"]), ""
            if len(same) > 1:
                return None, (f"{len(same)} elements now match it (found by {how}): "
                              + "; ".join(s[0].describe() for s in same[:3]))
        if not seen:
            return None, "no visible element matches it"
        return None, "no visible element matches it. Closest:\n    " + "\n    ".join(seen[:3])

    # -- checks ---------------------------------------------------------------------------

    async def verify(self, check: Check, where: str) -> None:
        """Wait up to the timeout for ``check`` to hold; fail with what the page has instead."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        attempt = 0
        while True:
            ok, instead = await self._holds(check)
            if ok:
                return
            if time.monotonic() >= deadline:
                raise ReplayError(
                    f"{where}: expected {self._describe(check)}\n  instead: {instead}\n"
                    f"  page: {self.page.url}"
                )
            attempt += 1
            await self.page.wait_for_timeout(_poll_ms(attempt))

    def _describe(self, check: Check) -> str:
        return self.substitute(check.describe())

    def _expected(self, check: Check) -> tuple[str | None, str | None]:
        text = self.substitute(check.text) if check.text is not None else None
        pattern = check.pattern
        if pattern is not None:
            pattern = re.sub(r"\\\{(\w+)\\\}",
                             lambda m: re.escape(self.substitute("{" + m.group(1) + "}")),
                             pattern)
        return text, pattern

    async def _holds(self, check: Check) -> tuple[bool, str]:
        if check.url_path is not None:
            path = urlsplit(self.page.url).path
            want = self.substitute(check.url_path)
            return path == want, f"the URL path is {path!r}"
        text, pattern = self._expected(check)
        if check.element is not None:
            found, problem = await self._find(check.element)
            if found is None:
                return False, problem
            got = found[1]
            return text_matches(got, text, pattern), f"its text is {got!r}"
        needle: str | re.Pattern[str] = re.compile(pattern) if pattern else (text or "")
        try:
            if await self.page.get_by_text(needle).filter(visible=True).count():
                return True, ""
        except PlaywrightError:
            return False, "the page was navigating"
        body = ""
        try:
            body = " ".join((await self.page.locator("body").inner_text(timeout=1000)).split())
        except PlaywrightError:
            pass
        return False, f"no such text is visible; the page shows: {body[:300]!r}"


def _attr(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
