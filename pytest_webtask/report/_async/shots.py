"""Screenshots with every secret field masked: the failure screenshot, and the report's
pictures (the page after a step; an action's target: the part of the page around it, the
element boxed by a stylesheet that applies only while the screenshot is taken)."""

from __future__ import annotations

import logging
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ...browser.secret_fields import SECRET_ATTR, SECRET_FIELDS_JS
from ...types import Secrets

log = logging.getLogger("pytest_webtask")

BOX_ATTR = "data-webtask-report-target"
BOX_STYLE = (f"[{BOX_ATTR}]{{outline:3px solid #e0002a !important;"
             "outline-offset:2px !important}")
MARGIN = (240, 160)  # around the element: enough to see where on the page it is


# Mark the target, scroll it into view and read its box, in one round trip (three with
# Playwright's own calls, whose scroll waits two frames for the element to be stable: 62 ms
# of CPU a target's picture, 35 now, bench/README.md "Run report and export"). A target in a
# frame has its box read by Playwright, in the page's coordinates.
_MARK = f"""el => {{
  el.setAttribute('{BOX_ATTR}', '');
  el.scrollIntoView({{block: 'nearest', inline: 'nearest', behavior: 'instant'}});
  if (window !== window.top) return 'frame';
  const r = el.getBoundingClientRect();
  return r.width || r.height ? {{x: r.x, y: r.y, width: r.width, height: r.height}} : null;
}}"""


async def report_clip(page: Page, target: Locator) -> Any:
    """Mark the target for BOX_STYLE and return the region around it, or None (the whole
    viewport) when it has no box."""
    try:
        box = await target.evaluate(_MARK, timeout=1000)
        if box == "frame":
            box = await target.bounding_box(timeout=1000)
    except PlaywrightError:
        return None
    size: Any = page.viewport_size or {"width": 1280, "height": 720}
    if not isinstance(box, dict):
        return None
    x = max(box["x"] - MARGIN[0], 0)
    y = max(box["y"] - MARGIN[1], 0)
    right = min(box["x"] + box["width"] + MARGIN[0], size["width"])
    bottom = min(box["y"] + box["height"] + MARGIN[1], size["height"])
    if right <= x or bottom <= y:
        return None
    return {"x": x, "y": y, "width": right - x, "height": bottom - y}


async def unbox(target: Locator) -> None:
    try:
        await target.evaluate(f"el => el.removeAttribute('{BOX_ATTR}')", timeout=1000)
    except PlaywrightError:
        pass  # gone with the page: nothing left to unmark


async def screenshot_masked(page: Page, secrets: Secrets, **options: Any) -> bytes:
    """A screenshot of ``page`` with every field that shows a secret masked: the one way
    the plugin takes a screenshot."""
    masks = []
    for frame in page.frames:  # each document marks its own: a frame's, of any origin, too
        try:
            if secrets:
                await frame.evaluate(SECRET_FIELDS_JS, {"op": "mark",
                                                        "values": secrets.values})
        except PlaywrightError as exc:
            if frame is page.main_frame:
                raise
            log.debug("could not mark secrets in the frame %s: %s", frame.url, exc)
        masks.append(frame.locator(f"[{SECRET_ATTR}]"))
    return await page.screenshot(mask=masks, **options)


async def report_shot(page: Page, secrets: Secrets, target: Locator | None = None
                      ) -> bytes | None:
    """The page for the HTML report: a small JPEG, secret fields masked. With ``target``:
    the part of the page around it, the element boxed. None when the page cannot be shot."""
    try:
        if target is None:
            return await screenshot_masked(page, secrets, type="jpeg", quality=35,
                                           scale="css")
        clip = await report_clip(page, target)
        return await screenshot_masked(page, secrets, type="jpeg", quality=35, scale="css",
                                       clip=clip, style=BOX_STYLE)
    except PlaywrightError as exc:
        log.debug("no report screenshot: %s", exc)
        return None
    finally:
        if target is not None:
            await unbox(target)
