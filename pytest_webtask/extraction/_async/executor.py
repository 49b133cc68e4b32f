"""AsyncRecipeExecutor: runs extraction commands against the page. No LLM.

Items are worked through by a key (href or data-id, plus text) so an item is never done
twice, across pagination, load-more, infinite scroll and returns from detail pages. Every
binding is found through its fingerprint (resolver.py). An item whose details fail is
recorded as skipped, its details are closed so the next item is not blocked, and the step
fails at the end unless the test allows that many skipped items: an extraction never
"succeeds" with items silently missing. Any Playwright error becomes an ExtractionError
naming the command, its binding and the URL.

This module is the command interpreter only: elements are found, read and waited for by
the browser's finder (``AsyncFinder``: the collector's ``bind``, ``details``, ``ready`` and
``items`` ops, at Playwright's own intervals), as a replayed ``do`` step finds its targets.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from ...browser._async.finder import AsyncFinder
from ...defaults import TIMEOUT
from ...errors import ExtractionError
from ...types import BindingFingerprint
from ..model import Bindings, Command, Condition, ExtractionRecipe
from ..outcome import BindingMissing, ExtractionOutcome, ItemFailed
from .resolver import AsyncResolver

log = logging.getLogger("pytest_webtask.extraction")

CONTROLS = {"next_page": "NEXT_PAGE_BUTTON", "load_more": "LOAD_MORE_BUTTON",
            "close": "DETAILS_CLOSE"}


class AsyncRecipeExecutor:
    """Executes an ``ExtractionRecipe`` with ``Bindings`` on ``page``. ``targets`` are the
    bindings' recorded fingerprints; ``record`` describes the bindings as they first match
    (returned in ``outcome.targets``); ``recorded_items`` is quoted when a replay fails."""

    def __init__(self, page: Page, bindings: Bindings, *, max_items: int = 20,
                 timeout_ms: float = TIMEOUT * 1000, on_log: Callable[[str], None] | None = None,
                 targets: dict[str, BindingFingerprint] | None = None, record: bool = False,
                 allow_skipped: int = 0, recorded_items: int | None = None) -> None:
        self.page = page
        self.b = bindings
        self.max_items = max_items
        self.timeout_ms = timeout_ms
        self.allow_skipped = allow_skipped
        self.recorded_items = recorded_items
        self._on_log = on_log
        self.finder = AsyncFinder(page, timeout_ms)
        self.resolver = AsyncResolver(self.finder, targets, record=record)
        self.out = ExtractionOutcome()
        self.processed: set[str] = set()
        self._keys: list[str] | None = None  # cached keys of the visible list
        self._item: tuple[Locator, str] | None = None
        self._scope: ElementHandle | None = None  # the inline item's parent, per item
        self._details: dict[str, Any] | None = None
        self._last_text: str | None = None  # the previous item's details text
        self._closed = True  # the current item's details were closed (or never opened)
        self._moved = False  # the list changed (next page, more items) since the last check
        self._stopped = False

    def log(self, line: str) -> None:
        self.out.logs.append(line)
        if self._on_log:
            self._on_log(line)

    async def execute(self, recipe: ExtractionRecipe) -> ExtractionOutcome:
        self.log(f"Starting recipe execution: {recipe.name} (max {self.max_items} items)")
        try:
            await self._run(recipe.commands)
            self._check_skipped()
        except ItemFailed as exc:  # an item command outside FOR_EACH_ITEM_IN_LIST
            self.out.stop_reason = "error"
            raise ExtractionError(f"{exc}{self._so_far(str(exc))}") from None
        except ExtractionError as exc:
            self.out.stop_reason = "error"
            raise ExtractionError(f"{exc}{self._so_far(str(exc))}") from None
        finally:
            self.out.targets = self.resolver.learned()
        for key, how in self.resolver.fallbacks.items():
            self.log(f"{key} found by its fingerprint ({how}), not by its CSS")
        self.log(f"Done: {len(self.out.items)} item(s), {len(self.out.skipped)} skipped, "
                 f"stop reason {self.out.stop_reason}")
        return self.out

    def _check_skipped(self) -> None:
        skipped = self.out.skipped
        if len(skipped) <= self.allow_skipped:
            return
        reasons = "\n".join(f"  - {s['item']!r}: {s['reason']}" for s in skipped[:5])
        more = f"\n  ... and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        allowed = f" (allowed: {self.allow_skipped})" if self.allow_skipped else ""
        raise ExtractionError(
            f"{len(skipped)} item(s) could not be read{allowed}:\n{reasons}{more}\n"
            "If these items may fail, allow it with extract(..., allow_skipped=N).")

    def _so_far(self, message: str) -> str:
        recorded = (f"; {self.recorded_items} when recorded" if self.recorded_items is not None
                    else "")
        where = "" if self.page.url in message else f"; on {self.page.url}"
        return (f"\n({len(self.out.items)} item(s) read before this, "
                f"{len(self.out.skipped)} skipped{recorded}{where})")

    async def _run(self, commands: list[Command]) -> None:
        for command in commands:
            if self._stopped:
                return
            self.out.commands_executed += 1
            try:
                await self._command(command)
            except BindingMissing as exc:
                raise ExtractionError(f"{self._name(command)}: {exc}. If the page changed on "
                                      "purpose, record again: pytest --webtask-record") from None
            except PlaywrightTimeoutError as exc:
                raise ExtractionError(f"{self._name(command)} timed out on {self.page.url}: "
                                      f"{str(exc).splitlines()[0]}") from None
            except PlaywrightError as exc:
                raise ExtractionError(f"{self._name(command)} failed on {self.page.url}: "
                                      f"{str(exc).splitlines()[0]}") from None

    def _name(self, c: Command) -> str:
        """The command and the binding it works on, for messages."""
        if c.selector:
            return f"{c.type} {c.selector!r}"
        binding = {"CLICK_IF_EXISTS": CONTROLS.get(c.target or "next_page", "NEXT_PAGE_BUTTON"),
                   "LOAD_MORE": "LOAD_MORE_BUTTON", "CLOSE_DETAILS": "DETAILS_CLOSE",
                   "CLICK": "LIST_ITEM", "FOR_EACH_ITEM_IN_LIST": "LIST_ITEM",
                   "EXTRACT_DETAILS": "DETAILS_PANEL"}.get(c.type)
        css = getattr(self.b, binding, None) if binding else None
        return f"{c.type} ({binding} {css!r})" if css else c.type

    async def _command(self, c: Command) -> None:
        if c.type == "WAIT_FOR":
            await self._wait_for(c.target or "page")
        elif c.type == "FOR_EACH_ITEM_IN_LIST":
            await self._for_each(c.body)
        elif c.type == "CLICK":
            await self._click(c)
        elif c.type == "EXTRACT_DETAILS":
            await self._extract()
        elif c.type == "SAVE":
            self._save()
        elif c.type == "MARK_DONE":
            if self._item:
                self.processed.add(self._item[1])
        elif c.type == "SCROLL":
            await self._scroll()
        elif c.type == "REPEAT":
            await self._repeat(c)
        elif c.type == "CLICK_IF_EXISTS":
            await self._click_if_exists(c)
        elif c.type == "LOAD_MORE":
            await self._load_more(c)
        elif c.type == "CLOSE_DETAILS":
            await self._close_details()
        elif c.type == "END":
            self._stopped = True
        elif c.type in ("FILL", "SELECT"):
            await self._fill_or_select(c)

    # -- waiting --------------------------------------------------------------------------

    async def _condition(self, key: str, cond: Condition, what: str,
                         scope: ElementHandle | None = None) -> None:
        try:
            if cond.exists is not None:
                await self.resolver.find(key, cond.exists, scope=scope, wait=True)
                return
            assert cond.gone is not None
            root: Page | Locator = self.page
            await root.locator(cond.gone).first.wait_for(state="hidden",
                                                        timeout=self.timeout_ms)
        except (BindingMissing, PlaywrightTimeoutError) as exc:
            # the cascade is worth reading only when something was found but did not fit
            changed = isinstance(exc, BindingMissing) and any(
                not t.endswith(("nothing", "nothing visible")) for t in exc.tried)
            detail = f": {exc}" if changed else ""
            raise ItemFailed(f"{what} condition {'exists' if cond.exists else 'gone'} "
                             f"{cond.exists or cond.gone!r} not met within "
                             f"{self.timeout_ms / 1000:g}s{detail}") from None

    def _cond_key(self, name: str, cond: Condition, binding: str, css: str) -> str:
        """A condition on the binding's own selector shares the binding's fingerprint."""
        return binding if cond.exists == css else name

    async def _wait_for(self, target: str) -> None:
        if target == "page":
            try:
                await self._condition("PAGE_LOADED", self.b.PAGE_LOADED, "PAGE_LOADED")
            except ItemFailed as exc:
                raise ExtractionError(f"{exc} on {self.page.url}") from None
        elif target == "list":
            cond = self.b.LIST_LOADED or Condition(exists=self.b.LIST_ITEM)
            try:
                await self._condition(
                    self._cond_key("LIST_LOADED", cond, "LIST_ITEM", self.b.LIST_ITEM), cond,
                    "LIST_LOADED")
            except ItemFailed as exc:
                raise ExtractionError(
                    f"The LIST_ITEM binding {self.b.LIST_ITEM!r} matches no visible item on "
                    f"{self.page.url} (waited {self.timeout_ms / 1000:g}s; {exc}). If the page "
                    "changed, record again: pytest --webtask-record") from None
        elif target == "details":
            cond = self.b.DETAILS_LOADED or Condition(exists=self.b.DETAILS_PANEL)
            key = self._cond_key("DETAILS_LOADED", cond, "DETAILS_PANEL", self.b.DETAILS_PANEL)
            await self._condition(key, cond, "DETAILS_LOADED", await self._details_scope())
        else:
            raise ExtractionError(f"WAIT_FOR has an unknown target {target!r}: use page, list "
                                  "or details.")

    async def _details_scope(self) -> ElementHandle | None:
        """The clicked item's parent for inline details, else None (the page)."""
        if self.b.CLICK_BEHAVIOR != "inline" or self._item is None:
            return None
        if self._scope is None:
            handle = await self._item[0].evaluate_handle("e => e.parentElement")
            self._scope = handle.as_element()
        return self._scope

    # -- the list -------------------------------------------------------------------------

    def _list_css(self) -> str | None:
        return None if self.b.LIST in ("", "body") else self.resolver.using.get("LIST",
                                                                               self.b.LIST)

    def _item_css(self) -> str:
        return self.resolver.using.get("LIST_ITEM", self.b.LIST_ITEM)

    def _items(self) -> Locator:
        lst = self._list_css()
        return self.page.locator(lst).first.locator(self._item_css()) if lst \
            else self.page.locator(self._item_css())

    async def _resolve_list(self) -> None:
        if self._list_css():
            await self.resolver.find("LIST", self.b.LIST, single=True, visible=False)
        await self.resolver.find("LIST_ITEM", self.b.LIST_ITEM, visible=False)

    async def _next_item(self) -> tuple[Locator, str] | None:
        """The first item not done yet. Keys are read once per list state; when the cached
        ones are all done, they are read again once in case the list changed."""
        read_now = self._keys is None
        while True:
            if self._keys is None:
                await self._resolve_list()
                self._keys = (await self._list(every=True))["keys"]
            for i, key in enumerate(self._keys):
                if key not in self.processed:
                    return self._items().nth(i), key
            if read_now:
                return None
            self._keys, read_now = None, True

    async def _for_each(self, body: list[Command]) -> None:
        list_url = self.page.url
        closes = bool(self.b.DETAILS_CLOSE) or any(c.type == "CLOSE_DETAILS" for c in body)
        while not self._stopped:
            item = await self._next_item()
            if item is None:
                return
            self._item, self._details, self._scope = item, None, None
            try:
                await self._run(body)
            except ItemFailed as exc:
                name = item[1].split("|", 1)[-1]
                self.out.skipped.append({"item": name, "reason": str(exc)})
                self.log(f"Skipped {name!r}: {exc}")
                if closes and not self._closed:
                    # one bad item must not leave a modal over the rest of the list
                    await self._close_details(after_failure=True)
            self.processed.add(item[1])
            if self.b.CLICK_BEHAVIOR == "navigates" and self.page.url != list_url:
                await self.page.go_back()
                self._keys = None
                await self._wait_for("list")

    async def _click(self, c: Command) -> None:
        if c.selector:
            sel = await self.resolver.find(c.selector, c.selector, single=True, named=True,
                                           wait=True)
            await self.page.locator(sel).first.click(timeout=self.timeout_ms)
            return
        if self._item is None:
            raise ExtractionError("CLICK without a selector must be inside FOR_EACH_ITEM_IN_LIST.")
        try:
            await self._item[0].click(timeout=self.timeout_ms)
        except PlaywrightError as exc:
            raise ItemFailed(f"could not click the item: {str(exc).splitlines()[0]}") from None
        self._closed = False

    async def _extract(self) -> None:
        scope = await self._details_scope()
        panel = self.resolver.args("DETAILS_PANEL", self.b.DETAILS_PANEL, single=True,
                                   visible=True, named=True, scope=scope)
        fields = {name: self.resolver.args(f"FIELDS.{name}", css, single=True, visible=False)
                  for name, css in self.b.FIELDS.items()}
        content = [self.resolver.args(f"DETAILS_CONTENT[{i}]", css, single=True, visible=False)
                   for i, css in enumerate(self.b.DETAILS_CONTENT)]
        args = {"op": "details", "scope": scope, "panel": panel, "fields": fields,
                "content": content}

        async def read() -> tuple[dict[str, Any] | None, str]:
            got: dict[str, Any] = await self.finder.call(args)
            if not got["panel"].get("sel"):
                return got, ""  # fails at once, below
            # Details still showing the previous item's text were not loaded for this one:
            # give them until the timeout to change, then fail the item rather than save a
            # copy of the previous one.
            if got["text"] != self._last_text or self.b.CLICK_BEHAVIOR == "inline":
                return got, ""
            return None, got["text"]

        data, previous = await self.finder.until(read)
        if data is None:
            raise ItemFailed(f"the details still show the previous item's "
                             f"({previous[:80]!r}) {self.timeout_ms / 1000:g}s after "
                             "clicking this one")
        if not data["panel"].get("sel"):
            raise ItemFailed("the DETAILS_PANEL binding " + repr(self.b.DETAILS_PANEL)
                             + " finds nothing: " + "; ".join(data["panel"]["tried"]))
        self.resolver.learn("DETAILS_PANEL", self.b.DETAILS_PANEL, data["panel"])
        for name, found in data["learned"].items():
            self.resolver.learn(f"FIELDS.{name}", self.b.FIELDS[name], found)
        if data["missing"]:
            names = "; ".join(f"FIELDS.{n} ({self.b.FIELDS[n]!r}): " + ", ".join(tried)
                              for n, tried in data["missing"].items())
            raise ItemFailed(f"not found in the details: {names}")
        self._last_text = data["text"]
        if self.b.FIELDS:
            self._details = dict(data["fields"])
        else:
            self._details = {"text": data["text"]}
            if self.b.DETAILS_CONTENT:
                self._details["content"] = data["content"]

    def _save(self) -> None:
        if self._details is None:
            raise ItemFailed("SAVE before EXTRACT_DETAILS: nothing to save")
        self.out.items.append(self._details)
        if len(self.out.items) >= self.max_items:
            self.out.stop_reason = "max_items"
            self._stopped = True

    async def _close_details(self, after_failure: bool = False) -> None:
        """Close the details (DETAILS_CLOSE, else Escape) and wait until they are hidden."""
        self._closed = True
        if self.b.CLICK_BEHAVIOR == "navigates":
            return  # the loop goes back to the list
        panel = self.page.locator(self.resolver.using.get("DETAILS_PANEL",
                                                          self.b.DETAILS_PANEL)).first
        if not await panel.is_visible():
            return
        how = "Escape"
        try:
            if self.b.DETAILS_CLOSE:
                sel = await self.resolver.find("DETAILS_CLOSE", self.b.DETAILS_CLOSE,
                                               single=True, named=True)
                await self.page.locator(sel).first.click(timeout=self.timeout_ms)
                how = f"DETAILS_CLOSE {self.b.DETAILS_CLOSE!r}"
            else:
                await self.page.keyboard.press("Escape")
            await panel.wait_for(state="hidden", timeout=self.timeout_ms)
        except (BindingMissing, PlaywrightError) as exc:
            if after_failure:  # try Escape before giving up on the rest of the list
                await self.page.keyboard.press("Escape")
                try:
                    await panel.wait_for(state="hidden", timeout=self.timeout_ms)
                    return
                except PlaywrightError:
                    pass
            raise ExtractionError(
                f"CLOSE_DETAILS: the details ({self.b.DETAILS_PANEL!r}) did not close with "
                f"{how}, so no later item can be opened: {str(exc).splitlines()[0]}") from None

    # -- more items -----------------------------------------------------------------------

    async def _count(self) -> int:
        return int((await self._list())["count"])

    async def _list(self, every: bool = False) -> dict[str, Any]:
        """The list now: {count, keys} (every item's key, else the first's)."""
        got: dict[str, Any] = await self.finder.call(
            {"op": "items", "list": self._list_css(), "item": self._item_css(), "all": every})
        return got

    async def _wait_for_more(self, before: int) -> bool:
        """Wait (up to the timeout) until the list holds more than ``before`` items."""

        async def more() -> tuple[bool | None, str]:
            return (True if (await self._list())["count"] > before else None), ""

        grew, _ = await self.finder.until(more)
        if not grew:
            return False
        self._moved, self._keys = True, None
        return True

    async def _scroll(self) -> None:
        before = await self._count()
        await self.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        if not await self._wait_for_more(before):
            self.log(f"Scrolled: no more items after {self.timeout_ms / 1000:g}s "
                     f"({before} in the list): the list's end")

    async def _control(self, binding: str, css: str) -> str | None:
        """The control's selector once it is enabled; None when it is absent, hidden, or
        stays disabled (the list's end). A control that is present but no longer fits its
        fingerprint fails (BindingMissing), rather than ending the list early."""
        try:
            sel = await self.resolver.find(binding, css, single=True, named=True)
        except BindingMissing as exc:
            if not any("but the first that differs" in t for t in exc.tried):
                self.log(f"{binding} {css!r} is not on the page: the list's end")
                return None
            # present but different: maybe only while it loads ("Loading…"); give it time
            sel = await self.resolver.find(binding, css, single=True, named=True, wait=True)
        async def ready() -> tuple[str | None, str]:
            return (await self.finder.call({"op": "ready", "sel": sel}) or None), ""

        state, _ = await self.finder.until(ready)
        if state is None:
            self.log(f"{binding} {css!r} stayed disabled for {self.timeout_ms / 1000:g}s: "
                     "the list's end")
            return None
        if state == "gone":
            self.log(f"{binding} {css!r} went away: the list's end")
            return None
        return sel

    async def _click_if_exists(self, c: Command) -> None:
        binding = CONTROLS.get(c.target or "next_page", "NEXT_PAGE_BUTTON")
        css = c.selector or getattr(self.b, binding, None)
        if not css:
            return
        key = c.selector or binding
        sel = await self._control(key, css)
        if sel is None:
            return
        await self._resolve_list()
        listed = await self._list()
        url = self.page.url
        await self.page.locator(sel).first.click(timeout=self.timeout_ms)

        async def changed() -> tuple[bool | None, str]:
            # another page (URL) or other items (count or first key)
            if self.page.url != url:
                return True, ""
            try:
                now = await self._list()
            except PlaywrightError:  # the next page is loading
                return None, ""
            return (True if now != listed else None), ""

        moved, _ = await self.finder.until(changed)
        if not moved:
            raise ExtractionError(
                f"CLICK_IF_EXISTS: clicked {key} {css!r} on {url}, but neither the URL nor the "
                f"list changed within {self.timeout_ms / 1000:g}s")
        await self.page.wait_for_load_state()
        self._moved, self._keys = True, None

    async def _load_more(self, c: Command) -> None:
        css = c.selector or self.b.LOAD_MORE_BUTTON
        if not css:
            raise ExtractionError("LOAD_MORE needs the LOAD_MORE_BUTTON binding (or a selector).")
        key = c.selector or "LOAD_MORE_BUTTON"
        sel = await self._control(key, css)
        if sel is None:
            return
        await self._resolve_list()
        before = await self._count()
        await self.page.locator(sel).first.click(timeout=self.timeout_ms)
        if await self._wait_for_more(before):
            return
        if await self._control(key, css) is None:
            return  # clicked, nothing came and the control went away: the list's end
        raise ExtractionError(
            f"LOAD_MORE: clicked {key} {css!r} on {self.page.url}, but no more items arrived "
            f"within {self.timeout_ms / 1000:g}s (still {before}) and the control is still "
            "there")

    async def _repeat(self, c: Command) -> None:
        rounds = c.times or 100
        for _ in range(rounds):
            done, self._moved = len(self.processed), False
            await self._run(c.body)
            if self._stopped or (len(self.processed) == done and not self._moved):
                return
        if c.times is None:
            raise ExtractionError(f"REPEAT stopped after {rounds} rounds while the list still "
                                  "changed: the list never ended")

    async def _fill_or_select(self, c: Command) -> None:
        assert c.selector is not None and c.value is not None
        sel = await self.resolver.find(c.selector, c.selector, single=True, wait=True)
        target = self.page.locator(sel).first
        if c.type == "FILL":
            await target.fill(c.value, timeout=self.timeout_ms)
        else:
            options = await target.evaluate(
                "el => Array.from(el.options).map(o => [o.label.trim(), o.value])")
            value = next((v for label, v in options if c.value in (label, v)), c.value)
            await target.select_option(value=value, timeout=self.timeout_ms)
        self._keys = None
