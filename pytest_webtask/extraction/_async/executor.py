"""AsyncRecipeExecutor (seed 003): runs extraction commands against the page. No LLM.

Items are worked through by a key (href or data-id, plus text) so an item is never done
twice, across pagination, infinite scroll and returns from detail pages. An item whose
details fail is skipped and reported (soft failure); a list that shows no item is a hard
failure naming the binding.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ...errors import WebtaskError
from ..model import Bindings, Command, Condition, ExtractionRecipe

log = logging.getLogger("pytest_webtask.extraction")

ITEM_KEYS_JS = """els => els.map(e => (e.getAttribute('href') || e.dataset.id || '') + '|' +
  (e.innerText || e.textContent || '').replace(/\\s+/g, ' ').trim())"""

# One round trip per item: the panel's text, each field's text, each content selector's text.
EXTRACT_JS = """(panel, args) => {
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const fields = {};
  const missing = [];
  for (const [name, sel] of Object.entries(args.fields)) {
    const el = panel.matches(sel) ? panel : panel.querySelector(sel);
    if (el) fields[name] = norm(el.innerText || el.textContent); else missing.push(name);
  }
  const content = args.content.map((sel) => {
    const el = panel.querySelector(sel);
    return el ? norm(el.innerText || el.textContent) : null;
  });
  return { text: norm(panel.innerText || panel.textContent), fields, missing, content };
}"""


class ExtractionError(WebtaskError):
    """The extraction cannot go on: a binding matches nothing, or no item could be read."""


class ItemFailed(Exception):
    """One item could not be extracted; the others go on."""


@dataclass
class ExtractionOutcome:
    items: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    stop_reason: str = "complete"  # complete | max_items | error
    commands_executed: int = 0
    logs: list[str] = field(default_factory=list)


class AsyncRecipeExecutor:
    """Executes an ``ExtractionRecipe`` with ``Bindings`` on ``page``."""

    def __init__(self, page: Page, bindings: Bindings, *, max_items: int = 20,
                 timeout_ms: float = 5000,
                 on_log: Callable[[str], None] | None = None) -> None:
        self.page = page
        self.b = bindings
        self.max_items = max_items
        self.timeout_ms = timeout_ms
        self._on_log = on_log
        self.out = ExtractionOutcome()
        self.processed: set[str] = set()
        self._keys: list[str] | None = None  # cached keys of the visible list
        self._item: tuple[Locator, str] | None = None
        self._details: dict[str, Any] | None = None
        self._moved = False  # the list changed (next page, scroll) since the last check
        self._stopped = False

    def log(self, line: str) -> None:
        self.out.logs.append(line)
        if self._on_log:
            self._on_log(line)

    async def execute(self, recipe: ExtractionRecipe) -> ExtractionOutcome:
        self.log(f"Starting recipe execution: {recipe.name} (max {self.max_items} items)")
        try:
            await self._run(recipe.commands)
        except ExtractionError:
            self.out.stop_reason = "error"
            raise
        if not self.out.items and self.out.skipped:
            self.out.stop_reason = "error"
            reasons = "; ".join(f"{s['item']}: {s['reason']}" for s in self.out.skipped[:3])
            raise ExtractionError(f"No item could be extracted ({len(self.out.skipped)} "
                                  f"skipped): {reasons}")
        self.log(f"Done: {len(self.out.items)} item(s), {len(self.out.skipped)} skipped, "
                 f"stop reason {self.out.stop_reason}")
        return self.out

    async def _run(self, commands: list[Command]) -> None:
        for command in commands:
            if self._stopped:
                return
            self.out.commands_executed += 1
            await self._command(command)

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
        elif c.type == "END":
            self._stopped = True
        elif c.type in ("FILL", "SELECT"):
            await self._fill_or_select(c)

    # -- waiting --------------------------------------------------------------------------

    async def _condition(self, cond: Condition, scope: Page | Locator, what: str) -> None:
        selector = cond.exists or cond.gone
        assert selector is not None
        try:
            await scope.locator(selector).first.wait_for(
                state="visible" if cond.exists else "hidden", timeout=self.timeout_ms)
        except PlaywrightError:
            raise ItemFailed(f"{what} condition {'exists' if cond.exists else 'gone'} "
                             f"{selector!r} not met within {self.timeout_ms / 1000:g}s") from None

    async def _wait_for(self, target: str) -> None:
        if target == "page":
            try:
                await self._condition(self.b.PAGE_LOADED, self.page, "PAGE_LOADED")
            except ItemFailed as exc:
                raise ExtractionError(f"{exc} on {self.page.url}") from None
        elif target == "list":
            cond = self.b.LIST_LOADED or Condition(exists=self.b.LIST_ITEM)
            try:
                await self._condition(cond, self.page, "LIST_LOADED")
            except ItemFailed:
                raise ExtractionError(
                    f"The LIST_ITEM binding {self.b.LIST_ITEM!r} matches no visible item on "
                    f"{self.page.url} (waited {self.timeout_ms / 1000:g}s). If the page "
                    "changed, record again: pytest --webtask-record") from None
        elif target == "details":
            cond = self.b.DETAILS_LOADED or Condition(exists=self.b.DETAILS_PANEL)
            await self._condition(cond, self._details_scope(), "DETAILS_LOADED")
        else:
            raise ExtractionError(f"WAIT_FOR has an unknown target {target!r}: use page, list "
                                  "or details.")

    def _details_scope(self) -> Page | Locator:
        if self.b.CLICK_BEHAVIOR == "inline" and self._item:
            return self._item[0].locator("xpath=..")  # the item's parent
        return self.page

    # -- the list -------------------------------------------------------------------------

    def _items(self) -> Locator:
        return self.page.locator(self.b.LIST).first.locator(self.b.LIST_ITEM) \
            if self.b.LIST not in ("", "body") else self.page.locator(self.b.LIST_ITEM)

    async def _next_item(self) -> tuple[Locator, str] | None:
        """The first item not done yet. Keys are read once per list state; when the cached
        ones are all done, they are read again once in case the list changed."""
        read_now = self._keys is None
        while True:
            if self._keys is None:
                self._keys = await self._items().evaluate_all(ITEM_KEYS_JS)
            for i, key in enumerate(self._keys):
                if key not in self.processed:
                    return self._items().nth(i), key
            if read_now:
                return None
            self._keys, read_now = None, True

    async def _for_each(self, body: list[Command]) -> None:
        list_url = self.page.url
        while not self._stopped:
            item = await self._next_item()
            if item is None:
                return
            self._item, self._details = item, None
            try:
                await self._run(body)
            except ItemFailed as exc:
                name = item[1].split("|", 1)[-1]
                self.out.skipped.append({"item": name, "reason": str(exc)})
                self.log(f"Skipped {name!r}: {exc}")
            self.processed.add(item[1])
            if self.b.CLICK_BEHAVIOR == "navigates" and self.page.url != list_url:
                await self.page.go_back()
                self._keys = None
                await self._wait_for("list")

    async def _click(self, c: Command) -> None:
        if c.selector:
            await self.page.locator(c.selector).first.click(timeout=self.timeout_ms)
            return
        if self._item is None:
            raise ExtractionError("CLICK without a selector must be inside FOR_EACH_ITEM_IN_LIST.")
        try:
            await self._item[0].click(timeout=self.timeout_ms)
        except PlaywrightError as exc:
            raise ItemFailed(f"could not click the item: {str(exc).splitlines()[0]}") from None

    async def _extract(self) -> None:
        scope = self._details_scope()
        panel = scope.locator(self.b.DETAILS_PANEL).first
        try:
            data = await panel.evaluate(EXTRACT_JS, {"fields": self.b.FIELDS,
                                                     "content": self.b.DETAILS_CONTENT},
                                        timeout=self.timeout_ms)
        except PlaywrightError:
            raise ItemFailed(f"the DETAILS_PANEL binding {self.b.DETAILS_PANEL!r} matches "
                             "nothing") from None
        if data["missing"]:
            names = ", ".join(f"FIELDS.{n} ({self.b.FIELDS[n]!r})" for n in data["missing"])
            raise ItemFailed(f"binding {names} matches nothing in the details")
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

    # -- more items -----------------------------------------------------------------------

    async def _scroll(self) -> None:
        before = await self._items().count()
        await self.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        for _ in range(20):  # up to ~2 s for more items to arrive
            await self.page.wait_for_timeout(100)
            if await self._items().count() > before:
                self._moved, self._keys = True, None
                return

    async def _click_if_exists(self, c: Command) -> None:
        selector = c.selector or (self.b.NEXT_PAGE_BUTTON if c.target in (None, "next_page")
                                  else None)
        if not selector:
            return
        button = self.page.locator(selector).first
        if await button.count() and await button.is_visible():
            await button.click(timeout=self.timeout_ms)
            await self.page.wait_for_load_state()
            self._moved, self._keys = True, None

    async def _repeat(self, c: Command) -> None:
        for _ in range(c.times or 100):
            done, self._moved = len(self.processed), False
            await self._run(c.body)
            if self._stopped or (len(self.processed) == done and not self._moved):
                return

    async def _fill_or_select(self, c: Command) -> None:
        assert c.selector is not None and c.value is not None
        target = self.page.locator(c.selector).first
        try:
            if c.type == "FILL":
                await target.fill(c.value, timeout=self.timeout_ms)
            else:
                options = await target.evaluate(
                    "el => Array.from(el.options).map(o => [o.label.trim(), o.value])")
                value = next((v for label, v in options if c.value in (label, v)), c.value)
                await target.select_option(value=value, timeout=self.timeout_ms)
        except PlaywrightError as exc:
            raise ExtractionError(f"{c.type} {c.selector!r}: {str(exc).splitlines()[0]}") \
                from None
        self._keys = None
