"""AsyncReplayer: runs a recipe step with plain Playwright, verifying as it goes. No LLM."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit
from weakref import WeakSet

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from ...browser._async.finder import AsyncFinder, script_problem
from ...browser._async.watch import AsyncPageWatch
from ...browser.engine import checks_selector, selector
from ...browser.engine import unknown as unknown_engine
from ...browser.secret_fields import HIDE_FIELD_JS
from ...browser.verdict import Found, why_not
from ...defaults import TIMEOUT
from ...errors import CheckFailed, ElementError, PictureMismatch, ReplayError
from ...tools._async.browser_tools import AsyncScene, AsyncTool, found_again
from ...tools._async.element_tools import READ_ONLY, read_only
from ...tools._async.registry import tool_class
from ...types import Dialog, DialogAnswer, DownloadedFile, Fingerprint
from ..model import Check, RecipeAction, RecipeStep
from ..patterns import escape
from ..urls import absolute_url
from .visual import verify_picture

log = logging.getLogger("pytest_webtask")

# A fingerprint's words, which may hold a variable's placeholder (compile.py puts it there).
_WORDS = ("name", "text", "label", "placeholder", "near")

# Browser contexts without the fingerprint selector engine (pages made without the plugin).
_NO_ENGINE: WeakSet[Any] = WeakSet()


class AsyncReplayer:
    """Replays recipe steps on ``page``. Every target is found by its fingerprint, must be
    unique, visible and still the same element; every recorded check must hold again."""

    def __init__(
        self,
        page: Page,
        *,
        base_url: str | None = None,
        timeout_ms: float = TIMEOUT * 1000,
        substitute: Callable[[str], str] | None = None,
        resources: dict[str, str] | None = None,
        tools: Mapping[str, type[AsyncTool]] | None = None,
        before_action: Callable[[RecipeAction, Locator | None], Any] | None = None,
        names_secret: Callable[[str], bool] | None = None,
        baselines: Path | None = None,
    ) -> None:
        # the current page (the tab the step is on) is the finder's: one owner
        self.finder = AsyncFinder(page, timeout_ms)  # finding and waiting, as every step kind does
        self.baselines = baselines  # the recipe's folder: screenshot checks' baselines
        # does a typed value hold a secret's placeholder? (its field is masked first)
        self.names_secret = names_secret or (lambda value: False)
        self.before_action = before_action  # the HTML report shoots the target first
        # the files the step's actions downloaded, for its download checks
        self.downloads: list[DownloadedFile] = []
        # what the actions said beyond success (a control already as wanted): the step's log
        self.notes: list[str] = []
        self.tools = tools  # plugin tools by name: their ``perform`` replays their actions
        self.base_url = base_url
        self.timeout_ms = timeout_ms
        self.substitute = substitute or (lambda v: v)
        self.resources = resources or {}
        # each ``change`` check's count when the step began, by its index in the step's
        # checks (``count_at_start``; a recording sets them from the page it started on)
        self.starts: dict[int, int] = {}

    @property
    def page(self) -> Page:
        """The page the step is on: a tab an action opened becomes it."""
        return self.finder.page

    @page.setter
    def page(self, page: Page) -> None:
        self.finder.page = page

    async def run_step(self, step: RecipeStep, where: str) -> None:
        """Replay one step: each action on its verified target (its dialogs answered as
        recorded, following a tab it opens), then each check. A dialog is the action's that
        was under way or last done when it came, as when recording; one the recording did not
        see, at any time in the step, fails it. ``page`` is the tab the step ended on."""
        await self.count_at_start(step.checks, where)
        watch = AsyncPageWatch(self.page.context)
        watch.attach()
        after = where  # the last action done, for a dialog that comes after it
        try:
            for n, action in enumerate(step.actions, 1):
                at = f"{where}, action {n} ({action.tool})"
                if n > 1:  # a dialog before the first action is the first action's, as recorded
                    self._unexpected(watch, after)
                try:
                    await self.run_action(action, at, watch)
                except ElementError as exc:
                    exc.index = n - 1
                    raise
                after = f"{at} on {self._what(action)}"
            wanted = sum(1 for c in step.checks if c.expect == "download")
            if wanted:  # the downloads the recording saw, however late they start
                await watch.wait_downloads(wanted, self.timeout_ms)
            self.downloads = await watch.take_files()
            await self.run_checks(step.checks, where)
            self._unexpected(watch, after)
        finally:
            await watch.detach()

    @staticmethod
    def _what(action: RecipeAction) -> str:
        return action.target.describe() if action.target else "the page"

    def filled(self, fp: Fingerprint | None) -> Fingerprint | None:
        """``fp`` with the values of the variables its words name as ``{placeholder}`` (a
        button "Delete {new}" is "Delete " and the value passed now), as a check's text is
        filled in. A word that names a secret stays as it is: a selector shows in
        Playwright's logs, a secret must not."""
        if fp is None:
            return None
        update = {field: self.substitute(value) for field in _WORDS
                  if (value := getattr(fp, field)) and "{" in value
                  and not self.names_secret(value)}
        return fp.model_copy(update=update) if update else fp

    async def run_action(self, action: RecipeAction, where: str,
                         watch: AsyncPageWatch | None = None) -> None:
        if action.target is not None or action.to is not None:
            action = action.model_copy(update={"target": self.filled(action.target),
                                               "to": self.filled(action.to)})
        params: dict[str, Any] = dict(action.params)
        engine = self._engine_serves(action)
        tool = tool_class(action.tool, self.tools)
        writable = engine and bool(getattr(tool, "types_keys", False))
        if engine:  # the action's own call finds, verifies and acts on its target
            hide = self.names_secret(str(params.get("value", "")))
            locator = self.page.locator(selector(action.target, hide=hide, writable=writable)) \
                if action.target else None
            to_locator = self.page.locator(selector(action.to)) if action.to else None
        else:
            locator = await self.resolve(action.target, where) if action.target else None
            to_locator = await self.resolve(action.to, where + " (drop target)", keep=True) \
                if action.to else None
        if self.before_action is not None:
            await self.before_action(action, locator)
        if tool is None:
            raise ReplayError(f"{where}: Unknown tool {action.tool!r}.")
        if tool.url_param is not None:
            params[tool.url_param] = absolute_url(self.substitute(params[tool.url_param]),
                                                  self.base_url, self.page.url)
        mine = watch.begin([self._answer(d) for d in action.dialogs]) if watch else 0
        what = self._what(action)
        again = None  # a click several times: the target found again before each one
        if not engine and action.target is not None and int(params.get("times") or 1) > 1:
            again = await found_again(self.page, action.target)
        scene = AsyncScene(self.page, locator=locator, to_locator=to_locator,
                           substitute=self.substitute, resources=self.resources,
                           timeout_ms=self.timeout_ms, watch=watch, replay=True, again=again,
                           by_fingerprint=engine)
        try:
            if locator is not None and not engine \
                    and self.names_secret(str(params.get("value", ""))):
                # masked before the secret is typed: no picture of the page ever shows it
                await locator.evaluate(HIDE_FIELD_JS, timeout=self.timeout_ms)
            result = await tool.perform(params, scene)
        except PlaywrightError as exc:
            if engine and unknown_engine(exc):  # a page made without the plugin
                _NO_ENGINE.add(self.page.context)
                return await self.run_action(action, where, watch)
            if engine:  # was it the element that failed? Then say so, as a resolve would
                await self._still_there(action, where)
                if writable and action.target is not None \
                        and await self._read_only(action.target):
                    raise ReplayError(f"{where}: {read_only(action.tool, params)}") from None
            why = _not_actionable(exc, self.timeout_ms) if locator is not None else None
            if why is not None:
                # the element is there but can't be acted on (hidden, covered, disabled):
                # the page drifted under the action, as for a missing element
                raise ElementError(
                    f"{where}: {action.tool} could not act on {what}: {why}\n"
                    f"  page: {self.page.url}\n"
                    "  If the page changed on purpose, record again: pytest --webtask-record"
                ) from None
            raise ReplayError(f"{where}: {action.tool} failed on {what}: "
                              f"{str(exc).strip().splitlines()[0]}") from None
        if not result.success:
            raise ReplayError(f"{where}: {result.error}")
        if result.output:  # (a check whose control was already on: left so)
            self.notes.append(f"{where} on {what}: {result.output}")
            log.info("%s on %s: %s", where, what, result.output)
        if result.page is not None:
            self.page = result.page
        if watch is not None:
            await self._expect_dialogs(action, watch, mine, f"{where} on {what}")
            if action.opens_tab:
                await self._follow_tab(watch, mine, f"{where} on {what}")

    def _engine_serves(self, action: RecipeAction) -> bool:
        """Whether the action's targets go to the fingerprint selector engine (registered by
        the plugin; an element in an iframe is found first, in its frame)."""
        targets = [fp for fp in (action.target, action.to) if fp is not None]
        return bool(targets) and not any(fp.frame for fp in targets) \
            and self.page.context not in _NO_ENGINE

    async def _still_there(self, action: RecipeAction, where: str) -> None:
        """After a failed action: an ElementError if a target is not on the page (now). A
        drag's drop target is looked at first: the drag had its source in hand (the mouse is
        still down on it, which may leave it looking moved) while it waited for the target."""
        for fp, label in ((action.to, where + " (drop target)"), (action.target, where)):
            if fp is not None:
                found, problem = await self._find(fp, keep=True)
                if found is None:
                    raise self._missing(fp, label, problem)

    async def _read_only(self, fp: Fingerprint) -> bool:
        """After a failed action that types keys: whether its target is read-only (the
        engine did not give it to the action, which waited for it)."""
        found, _ = await self._find(fp, keep=True)
        if found is None:
            return False
        try:
            return bool(await found.frame.locator(found.selector).evaluate(
                READ_ONLY, timeout=self.timeout_ms))
        except PlaywrightError:
            return False

    def _answer(self, dialog: Dialog) -> DialogAnswer:
        return DialogAnswer(accept=dialog.accept, type=dialog.type,
                            message=self.substitute(dialog.message),
                            text=self.substitute(dialog.text) if dialog.text is not None
                            else None)

    async def _expect_dialogs(self, action: RecipeAction, watch: AsyncPageWatch, mine: int,
                              where: str) -> None:
        """The recorded dialogs came (however late after the action, within the timeout),
        saying the same; no other dialog came."""
        want = [self._answer(d) for d in action.dialogs]
        if want:
            await watch.wait_dialogs(mine, len(want), self.timeout_ms)
        seen = watch.take_dialogs(mine)
        for n, got in enumerate(seen):
            if n >= len(want):
                raise ReplayError(_unseen(where, got))
            if not want[n].fits(got.type, got.message):
                raise ReplayError(f"{where}: expected a {want[n].type} dialog "
                                  f"{want[n].message!r}; instead the page opened a "
                                  f"{got.describe()}")
        if len(seen) < len(want):
            missing = want[len(seen)]
            raise ReplayError(f"{where}: expected a {missing.type} dialog {missing.message!r}, "
                              f"but no dialog appeared within {self.timeout_ms / 1000:g}s\n"
                              f"  page: {self.page.url}")

    @staticmethod
    def _unexpected(watch: AsyncPageWatch, after: str) -> None:
        """A dialog that came after the last action's own were checked: not recorded."""
        dialogs = watch.take_dialogs()
        if dialogs:
            raise ReplayError(_unseen(after + " (after it)", dialogs[0]))

    async def _follow_tab(self, watch: AsyncPageWatch, mine: int, where: str) -> None:
        """The action opened a tab when recorded: wait for the one it opens now (however
        late Playwright reports it) and make it the current page."""
        await watch.wait_pages(mine, 1, self.timeout_ms)
        pages = watch.take_pages(mine)
        if not pages:
            raise ReplayError(f"{where}: expected a new tab to open, but none opened within "
                              f"{self.timeout_ms / 1000:g}s\n  page: {self.page.url}")
        page = self.page = pages[-1]
        try:
            await page.wait_for_load_state("load", timeout=self.timeout_ms)
        except PlaywrightError:
            pass  # the checks that follow wait for what they need

    async def count_at_start(self, checks: list[Check], where: str) -> None:
        """Before a step's actions: count what each of its ``change`` checks counts (its
        container's items, or the elements like its element), once the page is quiet,
        waiting up to the timeout for the container or element to be there; kept in
        ``starts``. One that cannot be counted fails the step: its check could not say
        anything."""
        self.starts = {}
        changes = [(n, c) for n, c in enumerate(checks) if c.change is not None]
        if not changes:
            return
        try:  # a list drawn by script after the load: counted once it is drawn
            await self.collect(self.page.main_frame, {"op": "settle", "quiet": 100,
                                                      "max": min(self.timeout_ms, 2000)})
        except PlaywrightError:
            pass  # (a navigation under way: the count below waits for what it counts)
        for n, check in changes:
            got, why = await self._until(partial(self.count_now, check))
            if got is None:
                raise CheckFailed(f"{where}, check {n + 1}: expected {self._describe(check)}, "
                                  f"but what it counts could not be counted when the step "
                                  f"began: {why}\n  page: {self.page.url}")
            self.starts[n] = got

    async def count_now(self, check: Check) -> tuple[int | None, str]:
        """One count (no waiting) of what a ``count`` check counts on the page now: (the
        number, "") or (None, why not: its container or element is not there)."""
        probe = check.model_copy(update={"change": None, "count": -1})
        fp = check.element or check.within
        chain = tuple(fp.frame) if fp is not None else ()
        try:
            frame = await self._frame(chain)
            if frame is None:
                return None, f"its iframe {' > '.join(chain)} is not on the page"
            got = (await self.collect(frame, {"op": "checks",
                                              "checks": [self._item(probe)]}))[0]
        except PlaywrightError as exc:
            return None, script_problem(exc, self.page.url)
        if "within" in got:
            assert check.within is not None
            return None, f"its container {check.within.describe()}: {why_not(got['within'])}"
        if "element" in got:
            return None, why_not(got["element"])
        return int(got["n"]), ""

    def counted_from_start(self, checks: list[Check]) -> list[Check]:
        """``checks`` with each ``change`` check as the plain count it makes this run (its
        count at the step's start, in ``starts``, plus its change)."""
        out = []
        for n, check in enumerate(checks):
            if check.change is not None:
                start = self.starts.get(n, check.start)
                if start is None:
                    raise ReplayError(f"check {n + 1} ({self._describe(check)}): its count "
                                      "at the step's start was not taken")
                check = check.at_start(start)
            out.append(check)
        return out

    async def run_checks(self, checks: list[Check], where: str) -> None:
        """Every check must hold, in order, each waiting up to the timeout. All are first
        tried at once (one call); from the first that does not hold yet, they are waited for
        one by one, as if each had been waited for in turn. Pictures (``screenshot``
        checks) are compared after the others. A ``change`` check holds the count it makes
        from the step's start (``counted_from_start``)."""
        try:
            checks = self.counted_from_start(checks)
        except ReplayError as exc:
            raise ReplayError(f"{where}, {exc}") from None
        numbered = [(n, c) for n, c in enumerate(checks, 1) if c.expect != "screenshot"]
        await self._run_dom_checks([c for _, c in numbered], [n for n, _ in numbered], where)
        for n, check in enumerate(checks, 1):
            if check.expect == "screenshot":
                try:
                    await self.verify_picture(check, f"{where}, check {n}")
                except PictureMismatch as exc:
                    exc.check_index = n - 1
                    raise

    async def verify_picture(self, check: Check, where: str) -> None:
        """Wait for a ``screenshot`` check's region to look as its baseline (visual.py)."""
        assert check.element is not None  # Check guarantees it for a screenshot check
        locator = await self.resolve(check.element, where)
        await verify_picture(self.page, check, where, self.baselines, locator,
                             self.timeout_ms, self._describe(check))

    async def _run_dom_checks(self, checks: list[Check], numbers: list[int], where: str
                              ) -> None:
        """All tried at once through the selector engine; from the first that does not hold
        yet, each waited for in turn through it, at Playwright's intervals (``waits.py``).
        The page's own world is entered only to say why a check failed, or where there is
        no engine (a page made without the plugin): a pass puts no script in it."""
        if not checks or await self._engine_holds(checks):
            return
        if self.page.context in _NO_ENGINE:
            tried = await self.holds_all(checks)
            for i, (check, (ok, instead)) in enumerate(zip(checks, tried, strict=True)):
                if not ok:
                    await self.verify(check, f"{where}, check {numbers[i]}",
                                      tried=(ok, instead))
                    for later, m in zip(checks[i + 1:], numbers[i + 1:], strict=True):
                        await self.verify(later, f"{where}, check {m}")
                    return
            return
        for check, n in zip(checks, numbers, strict=True):
            await self._wait_through_engine(check, f"{where}, check {n}")

    async def _wait_through_engine(self, check: Check, where: str) -> None:
        """Wait up to the timeout for ``check`` to hold, tried through the selector engine;
        when it never does, its failure says what the page has instead (one try in the
        page's world). A check the engine cannot try (it names a secret) is waited for
        there. A check on an element is waited for in the driver, as exported code's
        ``expect`` is: one call, retried at Playwright's own intervals."""
        waited = await self._expect_through_engine(check)
        if waited:
            return
        if waited is False:
            ok, instead = await self.holds(check)
            if not ok:  # (it may hold by now: then it held within the timeout, near enough)
                raise self._check_failed(check, where, instead)
            return

        async def attempt() -> tuple[bool | None, str]:
            held = await self._engine_holds([check])
            if held is None:  # the engine cannot try it: stop, it is waited for below
                return False, ""
            return (True if held else None), ""

        held, _ = await self._until(attempt)
        if held:
            return
        if held is False:
            await self.verify(check, where)
            return
        ok, instead = await self.holds(check)
        if not ok:  # (it may hold by now: then it held within the timeout, near enough)
            raise self._check_failed(check, where, instead)

    async def _expect_through_engine(self, check: Check) -> bool | None:
        """Whether ``check`` (one on the page's elements, not a URL's, a download's or a
        picture's) came to hold within the timeout, waited for by Playwright's ``expect`` on
        the engine's selector for it: one call. None where that cannot say: the check is
        not of that kind, names a secret, there is no engine, its frame is not there (yet),
        or the wait failed with an error (the caller polls then, as before)."""
        if check.expect in ("url", "download", "screenshot") or self.timeout_ms <= 0 \
                or self.page.context in _NO_ENGINE \
                or any(self.names_secret(t) for t in (check.text or "", check.value or "",
                                                      check.pattern or "", *check.texts)):
            return None
        fp = check.element or check.within
        try:
            frame = await self._frame(tuple(fp.frame) if fp else ())
            if frame is None:
                return None
            await expect(frame.locator(checks_selector([self._item(check)]))).to_have_count(
                1, timeout=self.timeout_ms)
        except AssertionError:
            return False
        except PlaywrightError as exc:
            if unknown_engine(exc):  # a page made without the plugin
                _NO_ENGINE.add(self.page.context)
            return None
        return True

    # -- finding elements -----------------------------------------------------------------

    async def _until(self, attempt: Callable[[], Any],
                     tried: tuple[Any, str] | None = None) -> tuple[Any, str]:
        """Try ``attempt`` until a value or the timeout, as the finder waits (``waits.py``)."""
        self.finder.timeout_ms = self.timeout_ms
        return await self.finder.until(attempt, tried)

    async def collect(self, frame: Frame, args: dict[str, Any]) -> Any:
        """The collector's ``op`` on ``frame`` (``AsyncFinder.call``)."""
        return await self.finder.call(args, frame)

    async def resolve(self, fp: Fingerprint, where: str, *, keep: bool = False) -> Locator:
        """The one visible element matching ``fp``, waiting up to the timeout for it
        (``keep``: the locator of the previous resolve stays valid)."""
        fp = self.filled(fp) or fp
        found, problem = await self._until(lambda: self._find(fp, keep=keep))
        if found is None:
            raise self._missing(fp, where, problem)
        return found.frame.locator(found.selector)

    def _missing(self, fp: Fingerprint, where: str, problem: str) -> ElementError:
        return ElementError(
            f"{where}: expected {fp.describe()}; {problem}\n"
            f"  page: {self.page.url}\n"
            "  If the page changed on purpose, record again: pytest --webtask-record"
        )

    async def _frame(self, chain: list[str] | tuple[str, ...]) -> Frame | None:
        return await self.finder.frame_of(chain)

    async def _find(self, fp: Fingerprint, slot: str = "target", *, keep: bool = False
                    ) -> tuple[Found | None, str]:
        """One try of the fingerprint cascade (``AsyncFinder.element``)."""
        return await self.finder.element(fp, slot, keep=keep)

    # -- checks ---------------------------------------------------------------------------

    async def verify(self, check: Check, where: str,
                     tried: tuple[bool, str] | None = None) -> None:
        """Wait up to the timeout for ``check`` to hold, polling as ``expect`` does; fail with
        what the page has instead. ``tried``: the first try, already made."""

        async def attempt() -> tuple[bool | None, str]:
            ok, instead = await self.holds(check)
            return (True if ok else None), instead

        first = None if tried is None else ((True if tried[0] else None), tried[1])
        ok, instead = await self._until(attempt, first)
        if ok is None:
            raise self._check_failed(check, where, instead)

    def _check_failed(self, check: Check, where: str, instead: str) -> CheckFailed:
        return CheckFailed(f"{where}: expected {self._describe(check)}\n  instead: {instead}\n"
                           f"  page: {self.page.url}")

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

    async def holds(self, check: Check, url: str | None = None, *, before: bool = False
                    ) -> tuple[bool, str]:
        """One try of ``check`` (no waiting): (holds, what the page has instead). An absence
        (``hidden``) holds only where the page shows something, except on the page as it was
        before a step (``before``), where it held vacuously: it discriminates nothing."""
        return (await self.holds_all([check], url, before=before))[0]

    async def holds_all(self, checks: list[Check], url: str | None = None, *,
                        before: bool = False) -> list[tuple[bool, str]]:
        """One try of each check (no waiting), in one call for those on the main frame:
        each finds its element and container and is evaluated in the same ``evaluate``."""
        urls, by_frame = _by_frame(checks)
        out = {n: self._local_holds(checks[n], url or self.page.url) for n in urls}
        for chain, indices in by_frame.items():
            for n, result in zip(indices, await self._checks_in(
                    chain, [checks[n] for n in indices], before), strict=True):
                out[n] = result
        return [out[n] for n in range(len(checks))]

    async def _engine_holds(self, checks: list[Check]) -> bool | None:
        """Whether every check holds now, in one call per frame through the selector
        engine (in Playwright's world, where an action's target is found: no script in the
        page's world). None when the engine cannot say: there is none (a page made without
        the plugin), or a check names a secret (a selector shows in Playwright's logs; a
        secret must not)."""
        if self.page.context in _NO_ENGINE or any(
                self.names_secret(t) for c in checks
                for t in (c.text or "", c.value or "", c.pattern or "", *c.texts)):
            return None
        urls, by_frame = _by_frame(checks)
        if not all(self._local_holds(checks[n], self.page.url)[0] for n in urls):
            return False
        try:
            for chain, indices in by_frame.items():
                frame = await self._frame(chain)
                items = [self._item(checks[n]) for n in indices]
                if frame is None or not await frame.locator(checks_selector(items)).count():
                    return False
        except PlaywrightError as exc:
            if unknown_engine(exc):  # a page made without the plugin
                _NO_ENGINE.add(self.page.context)
                return None
            return False  # (a navigation under way: not yet)
        return True

    def _item(self, check: Check) -> dict[str, Any]:
        """A check as the collector's ``checks`` op takes it."""
        element, within = self.filled(check.element), self.filled(check.within)
        return {"check": self._spec(check),
                "element": element.model_dump() if element else None,
                "within": within.model_dump() if within else None}

    async def _checks_in(self, chain: tuple[str, ...], checks: list[Check], before: bool
                         ) -> list[tuple[bool, str]]:
        try:
            frame = await self._frame(chain)
            if frame is None:
                return [(False, f"its iframe {' > '.join(chain)} is not on the page")] * len(checks)
            got = await self.collect(frame, {"op": "checks", "vacuous": before,
                                             "checks": [self._item(c) for c in checks]})
        except PlaywrightError as exc:
            return [(False, script_problem(exc, self.page.url))] * len(checks)
        out = []
        for check, result in zip(checks, got, strict=True):
            if "within" in result:
                assert check.within is not None
                out.append((False, f"its container {check.within.describe()}: "
                                   f"{why_not(result['within'])}"))
            elif "element" in result:
                out.append((False, why_not(result["element"])))
            else:
                out.append((bool(result["ok"]), str(result["got"])))
        return out

    def _local_holds(self, check: Check, url: str) -> tuple[bool, str]:
        if check.expect == "screenshot":  # compared as a picture, by run_checks alone
            return False, "a picture is compared only when the step's checks run"
        if check.expect == "download":
            return self._download_holds(check)
        return self._url_holds(check, url)

    def _download_holds(self, check: Check) -> tuple[bool, str]:
        """A file the step downloaded is as the check describes it (any of them, for a
        step that downloaded several)."""
        spec = check.download
        assert spec is not None  # Check guarantees it for a download check
        if not self.downloads:
            return False, f"no file was downloaded (within {self.timeout_ms / 1000:g}s)"
        name = self.pattern(spec.name)
        problems = []
        for file in self.downloads:
            problem = None
            if re.fullmatch(name, file.name) is None:
                problem = "its name does not match"
            elif file.size < spec.min_bytes or (spec.max_bytes is not None
                                                and file.size > spec.max_bytes):
                problem = "its size is out of bounds"
            else:
                for text in (self.substitute(c) for c in spec.contains):
                    if file.text is None:
                        problem = "it has no text to read"
                        break
                    if " ".join(text.split()) not in " ".join(file.text.split()):
                        problem = f"it does not contain {text!r}"
                        break
            if problem is None:
                return True, ""
            problems.append(f"{file.describe()}: {problem}")
        return False, "the step downloaded " + "; ".join(problems)

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



def _by_frame(checks: list[Check]) -> tuple[list[int], dict[tuple[str, ...], list[int]]]:
    """The checks' indices: the URL and download checks (held by the page's URL or the files
    downloaded, no call), and the others by the iframe chain of their element, else of their
    container (one call per frame)."""
    urls: list[int] = []
    by_frame: dict[tuple[str, ...], list[int]] = {}
    for n, check in enumerate(checks):
        if check.expect in ("url", "download", "screenshot"):
            urls.append(n)
        else:
            fp = check.element or check.within
            by_frame.setdefault(tuple(fp.frame) if fp else (), []).append(n)
    return urls, by_frame


def _unseen(where: str, dialog: Dialog) -> str:
    return (f"{where}: the page opened a {dialog.describe()}, which the recording did not "
            "see\n  If the page changed on purpose, record again: pytest --webtask-record")


# What Playwright's call log says when it waited for an element that never became
# actionable, as a person would say it.
_ACTIONABILITY = (
    ("intercepts pointer events", "it is covered by another element"),
    ("not enabled", "it is disabled"),
    ("not editable", "it is not editable (read-only or disabled)"),
    ("not visible", "it is not visible"),
    ("not stable", "it kept moving"),
    ("outside of the viewport", "it is outside the page's viewport"),
    ("not attached", "it was removed from the page"),
    ("waiting for locator", "it is no longer on the page"),
)
# Lines that say Playwright got past the element's checks: a timeout after them is the
# action's (a slow navigation, a busy page), not the element's.
_ACTED = ("performing", "navigat")


def _not_actionable(exc: Exception, timeout_ms: float) -> str | None:
    """Why the element could not be acted on, when that is what the Playwright error says
    (a timeout waiting for it to be actionable, or the element gone), else None."""
    text = str(exc)
    if not isinstance(exc, PlaywrightTimeoutError) and "not attached" not in text:
        return None
    log = [ln.strip(" -") for ln in text.splitlines()[1:] if ln.strip()] or [text]
    for line in reversed(log):  # the latest state of the wait decides
        for needle, said in _ACTIONABILITY:
            if needle in line:
                cover = line.split(" intercepts pointer events")[0] \
                    if needle == "intercepts pointer events" else ""
                return said + (f" ({cover})" if cover else "") + \
                    f", for {timeout_ms / 1000:g}s"
        if any(word in line for word in _ACTED):
            return None
    return f"it did not become actionable within {timeout_ms / 1000:g}s"
