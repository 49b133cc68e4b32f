"""Pictures of a region of the page: an element's box, or a box inside it given as fractions
of the element's, so it follows the element when the page moves it.

A picture is taken once it is stable: the same bytes in ``frames`` consecutive screenshots
(Playwright's ``toHaveScreenshot`` waits the same way), never after a fixed sleep. Masks
(boxes in fractions of the region: a clock, a spinner) are painted over in one flat colour
while the pictures are taken, as Playwright's ``mask`` does, so what moves there neither
keeps the region from settling nor counts as a difference.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ...errors import BrowserError

FRAMES = 2  # consecutive identical screenshots that make a picture stable
MASK_COLOUR = "#ff00ff"  # Playwright's default mask colour
_MASK_ATTR = "data-webtask-mask"

Box = Sequence[float]  # [left, top, right, bottom], each a fraction 0..1

_ADD_MASKS = """([rects, colour, attr]) => {
  document.querySelectorAll(`[${attr}]`).forEach((d) => d.remove());
  for (const [x, y, w, h] of rects) {
    const d = document.createElement('div');
    d.setAttribute(attr, '');
    d.style.cssText = `position:fixed;left:${x}px;top:${y}px;width:${w}px;height:${h}px;` +
      `background:${colour};z-index:2147483647;pointer-events:none;margin:0;border:0`;
    document.documentElement.appendChild(d);
  }
}"""
_REMOVE_MASKS = "(attr) => document.querySelectorAll(`[${attr}]`).forEach((d) => d.remove())"


def check_box(box: Box, what: str = "box") -> list[float]:
    """``box`` as four fractions, left < right and top < bottom; ValueError saying what is
    wrong otherwise."""
    values = [float(v) for v in box]
    if len(values) != 4:
        raise ValueError(f"a {what} is [left, top, right, bottom], 4 numbers, not "
                         f"{len(values)}")
    if any(v < 0 or v > 1 for v in values):
        raise ValueError(f"a {what}'s numbers are fractions of the element's box, from 0 to 1"
                         f" (got {values})")
    if values[0] >= values[2] or values[1] >= values[3]:
        raise ValueError(f"a {what} needs left < right and top < bottom (got {values})")
    return values


async def region(locator: Locator, box: Box | None, timeout_ms: float) -> dict[str, float]:
    """The clip of the element's ``box`` (all of it when None), in the viewport's pixels,
    after scrolling it into view."""
    try:
        await locator.scroll_into_view_if_needed(timeout=timeout_ms)
        bb = await locator.bounding_box(timeout=timeout_ms)
    except PlaywrightError as exc:
        raise BrowserError(f"its box could not be read: {_first_line(exc)}") from None
    if bb is None or bb["width"] < 1 or bb["height"] < 1:
        raise BrowserError("it has no box on the page (not visible, or of zero size)")
    left, top, right, bottom = box if box is not None else (0.0, 0.0, 1.0, 1.0)
    x, y = bb["x"] + left * bb["width"], bb["y"] + top * bb["height"]
    # whole pixels, so two pictures of one region always have one size
    clip: dict[str, float] = {"x": round(x), "y": round(y),
            "width": max(1, round(bb["width"] * (right - left))),
            "height": max(1, round(bb["height"] * (bottom - top)))}
    return clip


def point(bb: dict[str, float], fx: float, fy: float) -> tuple[float, float]:
    """The viewport point at fractions (``fx``, ``fy``) of a bounding box."""
    return bb["x"] + fx * bb["width"], bb["y"] + fy * bb["height"]


async def shoot(page: Page, clip: dict[str, float]) -> bytes:
    """One screenshot of ``clip``: CSS pixels, animations stopped, no caret."""
    return await page.screenshot(clip=clip, animations="disabled", caret="hide",  # type: ignore[arg-type]
                                 scale="css", timeout=10_000)


async def stable_picture(page: Page, locator: Locator, box: Box | None,
                         masks: Sequence[Box], timeout_ms: float, *, frames: int = FRAMES,
                         accept: Callable[[bytes], bool] | None = None
                         ) -> tuple[bytes, bool]:
    """The region's picture once ``frames`` consecutive screenshots are identical (and,
    with ``accept``, once such a picture is accepted: a replay waits for the baseline as
    ``expect`` does), or, at the timeout, the last one taken. Returns (picture, settled):
    settled is False when the timeout came first."""
    deadline = time.monotonic() + timeout_ms / 1000
    clip = await region(locator, box, timeout_ms)
    last: bytes | None = None
    stable: bytes | None = None
    streak = 0
    try:
        await _mask(page, clip, masks)
        while True:
            shot = await shoot(page, clip)
            streak = streak + 1 if shot == last else 1
            last = shot
            if streak >= frames:
                stable = shot
                if accept is None or accept(shot):
                    return shot, True
            if time.monotonic() >= deadline:
                return (stable or shot), False
            # the region moved (a container shifted while settling): follow it
            moved = await region(locator, box, timeout_ms)
            if moved != clip:  # and its masks with it (a clock masked stays masked)
                clip, last, streak = moved, None, 0
                await _mask(page, clip, masks)
    except PlaywrightError as exc:
        raise BrowserError(f"the region could not be pictured: {_first_line(exc)}") from None
    finally:
        if masks:
            try:
                await page.evaluate(_REMOVE_MASKS, _MASK_ATTR)
            except PlaywrightError:
                pass  # the page went away: nothing left to clean


async def _mask(page: Page, clip: dict[str, float], masks: Sequence[Box]) -> None:
    """Paint ``masks`` (fractions of the region) over the region at ``clip``, in place of
    any painted before."""
    if not masks:
        return
    rects = [[clip["x"] + m[0] * clip["width"], clip["y"] + m[1] * clip["height"],
              (m[2] - m[0]) * clip["width"], (m[3] - m[1]) * clip["height"]] for m in masks]
    await page.evaluate(_ADD_MASKS, [rects, MASK_COLOUR, _MASK_ATTR])


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def describe_box(box: Any) -> str:
    """A box for people: ``[0, 0.5, 1, 1]`` (from the left 0%, top 50%...)."""
    return "[" + ", ".join(f"{v:g}" for v in box) + "]"
