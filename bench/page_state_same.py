"""The page state of the collector at a git revision against now, on every page at hand.

    .venv/bin/python bench/page_state_same.py REV

A change to the collector that is meant to be a speed-up only must leave what the model
sees as it was: for every page (``tests/pages``, MiniWoB++'s task pages before and in an
episode, the demo shop's pages and widgets, ``bench/page_state.py``'s pages) this reads the
page state with the script at REV and with today's, in the same page, and prints every
difference in the text or the element ids. Exits 1 when one differs.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import json
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page_state import PAGES, baseline_script  # noqa: E402
from example_suites.demo_shop import DemoShop  # noqa: E402
from pytest_webtask.browser.chromium import launch_args  # noqa: E402
from pytest_webtask.browser.script import COLLECTOR_JS  # noqa: E402
from pytest_webtask.defaults import PAGE_CHARS  # noqa: E402

SHOP_PATHS = ["/", "/cart", "/signin", "/checkout", "/catalog", "/catalog?view=panel",
              "/catalog?view=pages", "/catalog?view=inline", "/catalog?view=scroll",
              "/catalog?view=modal", "/?q=shirt", "/?page=2"]


def miniwob_pages() -> list[Path]:
    """MiniWoB++'s task pages, found from its installed distribution (its HTML is all that is
    used of it here: scripts/dev.sh; ``bench/miniwob.py`` shadows the package's name)."""
    try:
        folder = Path(str(importlib.metadata.distribution("miniwob").locate_file(
            "miniwob/html/miniwob")))
    except importlib.metadata.PackageNotFoundError:
        return []
    return sorted(folder.glob("*.html"))


def differences(page: Page, old_js: str, label: str) -> list[str]:
    """The readings' differences (none: the same text and ids)."""
    args = {"op": "collect", "json": True, "maxChars": PAGE_CHARS}
    was, now = (json.loads(page.evaluate(js, args)) for js in (old_js, COLLECTOR_JS))
    if was["text"] == now["text"] and set(was["elements"]) == set(now["elements"]):
        return []
    diff = difflib.unified_diff(was["text"].splitlines(), now["text"].splitlines(),
                                lineterm="")
    lost = sorted(set(was["elements"]) - set(now["elements"]))
    return [f"{label}: differs" + (f" (ids lost: {', '.join(lost)})" if lost else ""),
            *list(diff)[:30]]


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    old_js = baseline_script(sys.argv[1])
    shop = DemoShop(seed=3).start(0)
    urls = [p.resolve().as_uri() for p in sorted((ROOT / "tests" / "pages").glob("*.html"))]
    urls += [p.resolve().as_uri() for p in miniwob_pages()]
    urls += [shop.url + path for path in SHOP_PATHS]
    urls += [f"{shop.url}/widgets/{p.stem}" for p in
             sorted((ROOT / "example_suites" / "widgets" / "pages").glob("*.html"))]
    found: list[str] = []
    readings = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_args())
            page = browser.new_page()
            for url in urls:
                try:
                    page.goto(url, timeout=10_000)
                    page.wait_for_timeout(150)
                except Exception as exc:  # noqa: BLE001 (a page that does not load: said)
                    print(f"skipped {url}: {str(exc).splitlines()[0]}")
                    continue
                found += differences(page, old_js, url)
                readings += 1
                if "/miniwob/" in url:  # the task shows once an episode starts
                    page.evaluate("() => { if (window.core && core.startEpisodeReal) "
                                  "core.startEpisodeReal(); }")
                    page.wait_for_timeout(50)
                    found += differences(page, old_js, url + " (in an episode)")
                    readings += 1
            for name, make in PAGES.items():
                page.set_content(make())
                found += differences(page, old_js, name)
                readings += 1
            browser.close()
    finally:
        shop.stop()
    print("\n".join(found))
    changed = sum(1 for line in found if line.endswith(": differs") or ": differs (" in line)
    print(f"{readings} readings, {changed} differ from {sys.argv[1]}")
    raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
