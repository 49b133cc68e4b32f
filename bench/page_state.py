"""Page-state size and build time, beside Playwright's aria snapshot, in the same run.

    .venv/bin/python bench/page_state.py [--repeat 9]

Pages: a generated shop page of about 5,000 elements, and seed 001's price form. For each:
characters of output, median milliseconds to build it, and how many interactive elements
(a, button, input, select, textarea) got an id. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from playwright.sync_api import Page, sync_playwright

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.browser.chromium import launch_args

SEED_FORM = """<html><body><div><form>
<label aria-label="Price">Price</label>
<input type="text" name="price" placeholder="Enter price">
<button type="submit">Submit</button></form></div></body></html>"""


def big_page(cards: int = 250) -> str:
    items = []
    for i in range(cards):
        items.append(
            f'<div class="card"><div class="media"><img alt="Product {i}" src="data:,"></div>'
            f'<div class="body"><h3><a href="/p/{i}">Product {i}</a></h3>'
            f'<p class="desc">A fine product number {i}, in <span>blue</span> and '
            f'<span>green</span>.</p><div class="price"><span>$</span><span>{i}.99</span></div>'
            f'<div class="row"><label>Qty <input type="number" name="q{i}" value="1"></label>'
            f'<select name="s{i}"><option>S</option><option>M</option></select>'
            f'<button>Add to cart</button></div></div></div>'
        )
    nav = "".join(f'<li><a href="/c/{c}">Category {c}</a></li>' for c in range(20))
    return (f"<html><body><header><nav><ul>{nav}</ul></nav></header>"
            f"<main><h1>Shop</h1><section class='grid'>{''.join(items)}</section></main>"
            "</body></html>")


def median_ms(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    fn()  # warm-up
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), out


def measure(page: Page, html: str, name: str, repeat: int) -> list[str]:
    page.set_content(html)
    elements = page.evaluate("document.querySelectorAll('*').length")
    interactive = page.evaluate(
        "document.querySelectorAll('a[href],button,input,select,textarea').length")
    browser = LLMBrowser(page, max_chars=10_000_000)
    ours_ms, snap = median_ms(browser.read, repeat)
    aria_ms, aria = median_ms(lambda: page.locator("body").aria_snapshot(), repeat)
    ids = len(snap.elements)  # type: ignore[attr-defined]
    ours_chars, aria_chars = len(snap.text), len(str(aria))  # type: ignore[attr-defined]
    return [
        f"| {name} ({elements} elements) | page state | {ours_chars:,} | {ours_ms:.1f} | "
        f"{ids} / {interactive} |",
        f"| | aria_snapshot | {aria_chars:,} | {aria_ms:.1f} | (no ids) |",
        f"| | ratio ours/aria | {ours_chars / aria_chars:.2f} | {ours_ms / aria_ms:.2f} | |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    rows = ["| page | what | characters | median ms | ids / interactive |",
            "| --- | --- | ---: | ---: | --- |"]
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        page = browser.new_page()
        rows += measure(page, big_page(), "generated shop", args.repeat)
        rows += measure(page, SEED_FORM, "seed 001 form", args.repeat)
        browser.close()
    print("\n".join(rows))


if __name__ == "__main__":
    main()
