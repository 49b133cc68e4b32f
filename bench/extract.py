"""Replayed extraction of 200 items vs. a hand-written Playwright loop, same run.

    .venv/bin/python bench/extract.py [--repeat 5] [--only panel|modal]

The demo catalogue with 200 generated products, 50 at a time, in two layouts:
- panel: 4 pages, details loading (a fetch per click) into a side panel;
- modal: one list grown by a "Load more" button (disabled while it loads, gone at the end),
  details loading into a modal dialog over the list, closed after each row.
The replay runs the RecipeExecutor with the bindings, commands and binding fingerprints
the example recipes store (example_suites/test_catalog.py); the hand-written loop clicks the
same items, waits for the same details, reads the same fields (and closes the dialog, and
waits for more rows). Both alternate in fresh browser contexts; the script prints medians and
the ratio.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import compare  # noqa: E402
from example_suites.demo_shop import DemoShop, generated_products  # noqa: E402
from pytest_webtask.browser.chromium import launch_args  # noqa: E402
from pytest_webtask.extraction._sync.executor import RecipeExecutor  # noqa: E402
from pytest_webtask.recipes.model import Recipe  # noqa: E402

RECIPES = ROOT / "example_suites/__webtask__/test_catalog"
ITEMS = 200
READ_JS = ("p => ({name: p.querySelector('.{p}-name').innerText,"
           " price: p.querySelector('.{p}-price').innerText})")


def replayed(recipe: str) -> Callable[[Page, str], list[dict]]:
    spec = Recipe.model_validate(yaml.safe_load((RECIPES / recipe).read_text())).steps[0] \
        .extraction
    assert spec is not None

    def flow(page: Page, url: str) -> list[dict]:
        page.goto(url)
        out = RecipeExecutor(page, spec.bindings, max_items=ITEMS,
                             targets=spec.targets).execute(spec.recipe)
        assert len(out.items) == ITEMS and not out.skipped, len(out.items)
        return out.items

    return flow


def hand_written_panel(page: Page, url: str) -> list[dict]:
    page.goto(url)
    items: list[dict] = []
    while True:
        buttons = page.locator(".item-open")
        for i in range(buttons.count()):
            buttons.nth(i).click()
            page.locator("aside#detail .d-name").wait_for()
            items.append(page.locator("aside#detail").evaluate(
                READ_JS.replace("{p}", "d")))
        nxt = page.locator("a.next-page")
        if not nxt.count():
            assert len(items) == ITEMS, len(items)
            return items
        nxt.click()
        page.wait_for_load_state()


def hand_written_modal(page: Page, url: str) -> list[dict]:
    page.goto(url)
    items: list[dict] = []
    rows = page.locator("li[data-product-id]")
    dialog = page.locator("div[role=dialog]")
    more = page.locator("button.load-more")
    done = 0
    while True:
        count = rows.count()
        for i in range(done, count):
            rows.nth(i).click()
            dialog.locator(".m-name").wait_for()
            items.append(dialog.evaluate(READ_JS.replace("{p}", "m")))
            dialog.locator(".m-close").click()
            dialog.wait_for(state="hidden")
        done = count
        if not more.is_visible():
            assert len(items) == ITEMS, len(items)
            return items
        more.click()
        page.wait_for_function(
            "n => document.querySelectorAll('li[data-product-id]').length > n", arg=count)


CASES = {
    "panel": ("/catalog?view=panel", "test_extract_catalogue.yaml", hand_written_panel,
              f"{ITEMS} items, panel, 4 pages"),
    "modal": ("/catalog?view=modal", "test_extract_behind_load_more.yaml", hand_written_modal,
              f"{ITEMS} items, modal, load more x3"),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=sorted(CASES))
    args = parser.parse_args()
    rows = []
    with DemoShop(products=generated_products(ITEMS), per_page=50) as shop, \
            sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        for name, (path, recipe, hand, label) in CASES.items():
            if args.only and name != args.only:
                continue
            a, b = compare(browser, replayed(recipe), hand, shop.url + path, args.repeat)
            rows.append(f"| {label} | {args.repeat} | {a:.0f} | {b:.0f} | {a / b:.2f} |")
        browser.close()
    print("| extraction | runs | replay median ms | hand-written median ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
