"""The ``async_webtask`` fixture's browser, with the options pytest-playwright gives ``page``.

pytest-playwright's sync fixtures cannot run beside an asyncio loop, so the async fixture
starts its own async Playwright per test; this module makes that browser honour the same
options: ``--browser``, ``--headed`` and ``browser_type_launch_args``, ``connect_options``
(and the ``connect``/``connect_cdp`` settings), ``--base-url``, ``--device``, the
``browser_context_args`` marker, ``--output``, and ``--screenshot``/``--tracing``/``--video``
with the same file names pytest-playwright writes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..browser.remote import CDP_TIMEOUT_MS, cdp_failed, cdp_unsupported

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

    from ..browser.chromium import ChromiumChoice

SCREENSHOT_TIMEOUT_MS = 5_000


@dataclass(frozen=True)
class BrowserOptions:
    """What one test's browser is started with, read from pytest-playwright's options."""

    browser_name: str = "chromium"
    launch_args: dict[str, Any] = field(default_factory=dict)
    connect_options: dict[str, Any] | None = None
    connect_cdp: str = ""
    context_args: dict[str, Any] = field(default_factory=dict)
    device: str | None = None
    output: Path = Path("test-results")
    screenshot: str = "off"  # on | off | only-on-failure
    full_page_screenshot: bool = False
    tracing: str = "off"  # on | off | retain-on-failure
    video: str = "off"  # on | off | retain-on-failure
    title: str = ""
    chromium: ChromiumChoice | None = None  # what explains a failed launch, if ours

    @classmethod
    def for_test(cls, request: pytest.FixtureRequest, *, browser_name: str | None,
                 launch_args: dict[str, Any], connect_options: dict[str, Any] | None,
                 connect_cdp: str, base_url: str | None, output_path: str) -> BrowserOptions:
        config = request.config

        def option(name: str, default: Any) -> Any:
            try:
                return config.getoption(name)
            except ValueError:  # pytest-playwright not loaded
                return default

        context_args: dict[str, Any] = {"base_url": base_url} if base_url else {}
        marker = next(request.node.iter_markers("browser_context_args"), None)
        if marker is not None:
            context_args.update(marker.kwargs)
        name = browser_name or "chromium"
        chromium = None
        if not (connect_options or connect_cdp):  # a Chromium when Playwright's is missing
            from .launch import launch_options

            launch_args, chromium = launch_options(config, name, dict(launch_args))
        return cls(browser_name=name, launch_args=dict(launch_args), chromium=chromium,
                   connect_options=connect_options, connect_cdp=connect_cdp,
                   context_args=context_args, device=option("device", None),
                   output=Path(output_path), screenshot=option("screenshot", "off"),
                   full_page_screenshot=bool(option("full_page_screenshot", False)),
                   tracing=option("tracing", "off"), video=option("video", "off"),
                   title=request.node.nodeid)

    def keep(self, choice: str, failed: bool) -> bool:
        """Whether an artifact with this ``--screenshot``/``--tracing``/``--video`` choice
        is kept for a test that passed or failed."""
        return choice == "on" or (failed and choice in ("only-on-failure", "retain-on-failure"))


class TestBrowser:
    """One test's async browser: ``start`` gives a page in a fresh context; ``finish`` saves
    what the options keep and closes everything (a remote browser is only disconnected)."""

    __test__ = False  # not a pytest test class

    def __init__(self, options: BrowserOptions) -> None:
        self.options = options
        self.saved: list[Path] = []
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._tmp = Path(tempfile.mkdtemp(prefix="webtask-async-"))

    async def start(self) -> Page:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import async_playwright

        from ..browser import engine

        o = self.options
        self._pw = await async_playwright().start()
        await engine.register(self._pw.selectors)  # before any context: costs no call
        browser_type = getattr(self._pw, o.browser_name)
        if o.connect_cdp:
            problem = cdp_unsupported(o.browser_name)
            if problem:
                pytest.fail(problem, pytrace=False)
            try:
                self._browser = await browser_type.connect_over_cdp(o.connect_cdp,
                                                                    timeout=CDP_TIMEOUT_MS)
            except PlaywrightError as exc:
                pytest.fail(cdp_failed(o.connect_cdp, exc), pytrace=False)
        elif o.connect_options:
            # As pytest-playwright does: the server may launch a browser with these.
            headers = {"x-playwright-launch-options": json.dumps(o.launch_args, default=str),
                       **(o.connect_options.get("headers") or {})}
            self._browser = await browser_type.connect(**{**o.connect_options,
                                                          "headers": headers})
        else:
            explained = None
            try:
                self._browser = await browser_type.launch(**o.launch_args)
            except PlaywrightError as exc:
                explained = o.chromium.explain(exc) if o.chromium is not None else None
                if explained is None:
                    raise
            if explained is not None:  # no Chromium: both fixes, no chained traceback
                pytest.fail(explained, pytrace=False)
        assert self._browser is not None  # launched, connected, or pytest.fail raised
        args = dict(self._pw.devices[o.device]) if o.device else {}
        args.update(o.context_args)
        if o.video in ("on", "retain-on-failure"):
            args["record_video_dir"] = str(self._tmp / "videos")
        self._context = await self._browser.new_context(**args)
        if o.tracing in ("on", "retain-on-failure"):
            await self._context.tracing.start(title=o.title, screenshots=True,
                                              snapshots=True, sources=True)
        return await self._context.new_page()

    async def finish(self, failed: bool) -> list[Path]:
        """Save the kept artifacts into the test's output folder, close, and return them."""
        from playwright.async_api import Error as PlaywrightError

        o = self.options
        try:
            if self._context is not None:
                pages = list(self._context.pages)
                if o.keep(o.tracing, failed):
                    await self._context.tracing.stop(path=str(self._save("trace.zip")))
                elif o.tracing != "off":
                    await self._context.tracing.stop()
                if o.keep(o.screenshot, failed):
                    status = "failed" if failed else "finished"
                    for index, page in enumerate(pages, 1):
                        path = self._save(f"test-{status}-{index}.png")
                        try:
                            await page.screenshot(path=str(path), full_page=o.full_page_screenshot,
                                                  timeout=SCREENSHOT_TIMEOUT_MS)
                        except PlaywrightError:  # a closed or hung page: nothing was written
                            self.saved.remove(path)
                await self._context.close()
                if o.keep(o.video, failed):
                    for index, page in enumerate(pages, 1):
                        if page.video is not None:
                            name = "video.webm" if len(pages) == 1 else f"video-{index}.webm"
                            await page.video.save_as(str(self._save(name)))
        finally:
            if self._browser is not None:
                await self._browser.close()
            if self._pw is not None:
                await self._pw.stop()
            shutil.rmtree(self._tmp, ignore_errors=True)
        return self.saved

    def _save(self, name: str) -> Path:
        self.options.output.mkdir(parents=True, exist_ok=True)
        path = self.options.output / name
        self.saved.append(path)
        return path
