"""Replayed extraction of 200 items vs. a hand-written Playwright loop, same run.

    .venv/bin/python bench/extract.py [--repeat 5]

The demo catalogue with 200 generated products, 50 per page, details loading into a side
panel (a fetch per click). The replay runs the RecipeExecutor with the bindings and
commands a recording stores (as example_suites/test_catalog.py's recipe); the hand-written
loop clicks the same items, waits for the same panel and reads the same fields. Both
alternate in fresh browser contexts; the script prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import sys
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

RECIPE = ROOT / "example_suites/__webtask__/test_catalog/test_extract_catalogue.yaml"
ITEMS = 200


def replayed(page: Page, url: str) -> list[dict]:
    spec = Recipe.model_validate(yaml.safe_load(RECIPE.read_text())).steps[0].extraction
    assert spec is not None
    page.goto(url)
    out = RecipeExecutor(page, spec.bindings, max_items=ITEMS).execute(spec.recipe)
    assert len(out.items) == ITEMS, len(out.items)
    return out.items


def hand_written(page: Page, url: str) -> list[dict]:
    page.goto(url)
    items: list[dict] = []
    while True:
        buttons = page.locator(".item-open")
        for i in range(buttons.count()):
            buttons.nth(i).click()
            page.locator("aside#detail .d-name").wait_for()
            items.append(page.locator("aside#detail").evaluate(
                "p => ({name: p.querySelector('.d-name').innerText,"
                " price: p.querySelector('.d-price').innerText,"
                " category: p.querySelector('.d-category').innerText})"))
        nxt = page.locator("a.next-page")
        if not nxt.count():
            assert len(items) == ITEMS, len(items)
            return items
        nxt.click()
        page.wait_for_load_state()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with DemoShop(products=generated_products(ITEMS), per_page=50) as shop, \
            sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        url = shop.url + "/catalog?view=panel"
        a, b = compare(browser, replayed, hand_written, url, args.repeat)
        browser.close()
    print("| extraction | runs | replay median ms | hand-written median ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| {ITEMS} items, panel, 4 pages | {args.repeat} | {a:.0f} | {b:.0f} | {a / b:.2f} |")


if __name__ == "__main__":
    main()
