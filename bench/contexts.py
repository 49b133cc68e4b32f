"""What a browser context costs: ``n`` pages each opened, filled with a paragraph, a button
clicked and closed, either each in a new context (as pytest-playwright's ``page`` fixture
does for every test) or all in one, or all in one kept page (``page``: no new renderer). Run
under ``bench/core_seconds.py`` to count the machine's CPU (Chromium's renderers included):

    python bench/core_seconds.py -- .venv/bin/python -m bench.contexts new 40
    python bench/core_seconds.py -- .venv/bin/python -m bench.contexts same 40
    python bench/core_seconds.py -- .venv/bin/python -m bench.contexts page 40
"""

from __future__ import annotations

import sys
import time

from playwright.sync_api import sync_playwright

from pytest_webtask.browser.chromium import launch_args

HTML = ("<!doctype html><title>t</title><main><h1>Hello</h1><button>Go</button><p>"
        + "word " * 200 + "</p></main>")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("new", "same", "page") or not argv[1].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    mode, n = argv[0], int(argv[1])
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        shared = browser.new_context() if mode != "new" else None
        kept = shared.new_page() if shared is not None and mode == "page" else None
        start = time.monotonic()
        for _ in range(n):
            context = shared or browser.new_context()
            page = kept or context.new_page()
            page.set_content(HTML)
            page.get_by_role("button").click()
            if kept is None:
                page.close()
            if shared is None:
                context.close()
        print(f"{mode}: {n} pages in {time.monotonic() - start:.2f} s")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
