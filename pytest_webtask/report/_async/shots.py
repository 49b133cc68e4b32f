"""The report's picture of an action's target: the part of the page around it, the element
boxed by a stylesheet that applies only while the screenshot is taken."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

BOX_ATTR = "data-webtask-report-target"
BOX_STYLE = (f"[{BOX_ATTR}]{{outline:3px solid #e0002a !important;"
             "outline-offset:2px !important}")
MARGIN = (240, 160)  # around the element: enough to see where on the page it is


async def report_clip(page: Page, target: Locator) -> Any:
    """Mark the target for BOX_STYLE and return the region around it, or None (the whole
    viewport) when it has no box."""
    try:
        await target.evaluate(f"el => el.setAttribute('{BOX_ATTR}', '')", timeout=1000)
        await target.scroll_into_view_if_needed(timeout=1000)
        box = await target.bounding_box(timeout=1000)
    except PlaywrightError:
        return None
    size: Any = page.viewport_size or {"width": 1280, "height": 720}
    if box is None:
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
