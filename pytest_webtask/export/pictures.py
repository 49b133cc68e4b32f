"""The code an exported test needs for its ``screenshot`` checks: Playwright's
``toHaveScreenshot`` for Python, which Python Playwright lacks, written into the file.

The comparison is ``recipes/pixels.py`` itself, copied below the test (its source, not a
re-implementation): the exported test compares with the same YIQ threshold, the same
anti-aliasing test and the same max-diff ratio as a replay, and imports nothing from
pytest-webtask, so it still runs once the package is gone (``-p no:webtask`` or
uninstalled), and a later release that changes that private module cannot break it.
"""

from __future__ import annotations

import inspect
import re

from ..recipes import pixels

# the standard library the copied comparison and the wait below need (imports at the top)
IMPORTS = ["import struct", "import sys", "import time", "import zlib"]
FROM_IMPORTS = ["from array import array", "from collections.abc import Iterable",
                "from dataclasses import dataclass",
                "from itertools import accumulate", "from pathlib import Path"]

TO_HAVE_SCREENSHOT = '''
MASK_COLOUR = "#ff00ff"  # Playwright's default mask colour
_MASKS = """([rects, colour]) => {
  document.querySelectorAll('[data-exported-mask]').forEach((d) => d.remove());
  for (const [x, y, w, h] of rects) {
    const d = document.createElement('div');
    d.setAttribute('data-exported-mask', '');
    d.style.cssText = `position:fixed;left:${x}px;top:${y}px;width:${w}px;height:${h}px;` +
      `background:${colour};z-index:2147483647;pointer-events:none;margin:0;border:0`;
    document.documentElement.appendChild(d);
  }
}"""


def to_have_screenshot(page: Page, locator: Locator, baseline: Path, output_path: str, *,
                       box: list[float] | None = None, masks: list[list[float]] | None = None,
                       threshold: float = THRESHOLD, max_diff_ratio: float = MAX_DIFF_RATIO,
                       blob_pixels: int = BLOB_PIXELS, timeout: float = 5_000) -> None:
    """Playwright's ``toHaveScreenshot`` for Python: wait until the element's region
    (``box``: [left, top, right, bottom] as fractions of its box) is the same in two
    screenshots running and looks as ``baseline``, ``masks`` (fractions of the region)
    painted over; at the timeout, fail with the expected, actual and diff PNGs written to
    ``output_path``."""
    expected_png = baseline.read_bytes()
    expected = decode_png(expected_png)
    deadline = time.monotonic() + timeout / 1000
    clip = _clip(locator, box, timeout)
    _mask(page, clip, masks or [])
    last: bytes | None = None
    stable: tuple[bytes, Comparison] | None = None
    try:
        while True:
            shot = page.screenshot(clip=clip, animations="disabled", caret="hide",
                                   scale="css")
            if shot == last:
                if shot == expected_png:
                    return
                result = compare(expected, decode_png(shot), threshold,
                                 blob_pixels=blob_pixels)
                if result.matches(max_diff_ratio):
                    return
                stable = (shot, result)
            last = shot
            if time.monotonic() >= deadline:
                break
            moved = _clip(locator, box, timeout)  # a container shifted while it settled
            if moved != clip:
                clip, last = moved, None
                _mask(page, clip, masks or [])
    finally:
        _mask(page, clip, [])
    out = Path(output_path)
    out.mkdir(parents=True, exist_ok=True)
    written = {"expected": expected_png, "actual": stable[0] if stable else last or b""}
    if stable is not None and not stable[1].size:
        written["diff"] = diff_png(expected, decode_png(stable[0]), threshold)
    lines = []
    for name, data in written.items():
        path = out / f"{baseline.stem}-{name}.png"
        path.write_bytes(data)
        lines.append(f"  {name}: {path}")
    why = (f"{stable[1].describe()} (allowed: {max_diff_ratio:.2%} over a threshold of "
           f"{threshold:g}, no blob of {blob_pixels} strong pixels)" if stable
           else "the region never held still for two screenshots")
    pytest.fail(f"the picture of {locator} is not {baseline.name}: {why}\\n" + "\\n".join(lines),
                pytrace=False)


def _clip(locator: Locator, box: list[float] | None, timeout: float) -> FloatRect:
    """The region in the viewport's whole pixels, after scrolling it into view."""
    locator.scroll_into_view_if_needed(timeout=timeout)
    bb = locator.bounding_box(timeout=timeout)
    assert bb is not None and bb["width"] >= 1 and bb["height"] >= 1, f"{locator} has no box"
    left, top, right, bottom = box or [0.0, 0.0, 1.0, 1.0]
    return {"x": round(bb["x"] + left * bb["width"]), "y": round(bb["y"] + top * bb["height"]),
            "width": max(1, round(bb["width"] * (right - left))),
            "height": max(1, round(bb["height"] * (bottom - top)))}


def _mask(page: Page, clip: FloatRect, masks: list[list[float]]) -> None:
    rects = [[clip["x"] + m[0] * clip["width"], clip["y"] + m[1] * clip["height"],
              (m[2] - m[0]) * clip["width"], (m[3] - m[1]) * clip["height"]] for m in masks]
    page.evaluate(_MASKS, [rects, MASK_COLOUR])
'''


def compare_source() -> str:
    """``recipes/pixels.py`` without its docstring and imports: the constants, PNG reading
    and writing and the comparison, as the exported file holds them."""
    source = inspect.getsource(pixels)
    start = source.index("\nSIGNATURE = ")
    return source[start:].strip() + "\n"


def helper_source() -> str:
    """Everything an exported test with a ``screenshot`` check adds below its test
    function."""
    return ("# -- Pictures: Playwright's toHaveScreenshot for Python. The comparison is "
            "pytest-webtask's\n# (recipes/pixels.py, copied: this file needs no "
            "pytest-webtask), the wait is Playwright's.\n\n"
            + compare_source() + "\n" + TO_HAVE_SCREENSHOT.lstrip("\n"))


def stdlib_imports() -> list[str]:
    """The modules ``pixels.py`` imports besides ``__future__``, which must be among the
    ones the exported file imports (a new import there would break exported files)."""
    return re.findall(r"^(import \w+|from \w+ import \w+)$", inspect.getsource(pixels), re.M)
