"""Replaying a ``screenshot`` check: the region's picture against its baseline, no model.

The region is found by its element's fingerprint (as any check's element), then pictured
until it is stable and matches the baseline within the check's tolerance, up to the timeout
(``expect``'s way: a chart drawn in two passes is waited for, never slept for). A region
that settles on something else fails with the expected, actual and diff pictures.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Locator, Page

from ...browser._async.pictures import FRAMES, stable_picture
from ...errors import BrowserError, CheckFailed, PictureMismatch
from ..model import Check, Screenshot
from ..pixels import Comparison, Picture, PictureError, compare, decode_png, diff_png


def baseline_of(shot: Screenshot, folder: Path | None, where: str) -> bytes:
    """The baseline's PNG: the one just recorded, else the file beside the recipe."""
    if shot.png is not None:
        return shot.png
    if folder is None or not shot.file:
        raise CheckFailed(f"{where}: the check names no baseline picture, or the recipe's "
                          "folder is unknown; record again: pytest --webtask-record")
    path = folder / shot.file
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CheckFailed(f"{where}: the baseline picture {path} cannot be read "
                          f"({exc.strerror or exc}); commit it with the recipe, or record "
                          "again: pytest --webtask-record") from None


async def verify_picture(page: Page, check: Check, where: str, folder: Path | None,
                         locator: Locator, timeout_ms: float,
                         describe: str) -> Comparison:
    """Wait until the check's region is stable and looks as its baseline; PictureMismatch
    (with the three pictures) when it settles on something else within the timeout."""
    shot = check.screenshot
    assert shot is not None  # Check guarantees it for a screenshot check
    expected_png = baseline_of(shot, folder, where)
    try:
        expected = decode_png(expected_png)
    except PictureError as exc:
        raise CheckFailed(f"{where}: the baseline picture {shot.file} is {exc}") from None
    last: list[tuple[Picture, Comparison]] = []

    def accept(png: bytes) -> bool:
        if png == expected_png:
            last[:] = [(expected, Comparison(0, 0, expected.width * expected.height))]
            return True
        actual = decode_png(png)
        result = compare(expected, actual, shot.threshold, blob_pixels=shot.blob_pixels)
        last[:] = [(actual, result)]
        return result.matches(shot.max_diff_ratio)

    try:
        png, ok = await stable_picture(page, locator, shot.box, shot.masks, timeout_ms,
                                       accept=accept)
    except BrowserError as exc:
        raise CheckFailed(f"{where}: expected {describe}\n  instead: {exc}\n"
                          f"  page: {page.url}") from None
    if ok:
        return last[0][1]
    if not last:  # accept sees only stable pictures: none came
        raise PictureMismatch(
            f"{where}: expected {describe}\n  instead: the region never held still for "
            f"{FRAMES} screenshots running in {timeout_ms / 1000:g}s (mask what moves by "
            f"itself: masks)\n  page: {page.url}", {"expected": expected_png, "actual": png})
    actual, result = last[0]
    pictures = {"expected": expected_png, "actual": png}
    if not result.size:
        pictures["diff"] = diff_png(expected, actual, shot.threshold)
    raise PictureMismatch(
        f"{where}: expected {describe}\n"
        f"  instead: {result.describe()} (allowed: {shot.max_diff_ratio:.2%} over a "
        f"threshold of {shot.threshold:g}, no blob of {shot.blob_pixels} strong pixels)\n"
        f"  page: {page.url}", pictures)
