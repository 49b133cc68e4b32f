"""Replay of a recorded multi-step flow vs. a hand-written Playwright script, same run.

    .venv/bin/python bench/replay.py [--repeat 21]

The flow is example_suites' test_checkout_with_receipt (its committed recipe): add a product
in a size, check out with three fields and a file upload, check the confirmation; 7 actions
and 9 typed checks. The hand-written script does the same actions and asserts the same outcomes
with Playwright's own locators and expect(). Both run alternately, each in a fresh browser
context, against the same demo shop; the script prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import compare  # noqa: E402
from example_suites.demo_shop import DemoShop  # noqa: E402
from pytest_webtask.browser.chromium import launch_args  # noqa: E402
from pytest_webtask.testing import open_webtask  # noqa: E402

RECIPE = ROOT / "example_suites/__webtask__/test_checkout/test_checkout_with_receipt.yaml"
RECEIPT = ROOT / "example_suites/data/receipt.txt"
NAME, EMAIL, ADDRESS = "Ada Lovelace", "ada@example.com", "12 St James's Square"


def replayed(page: Page, base_url: str) -> None:
    with open_webtask(page, RECIPE, "replay", base_url=base_url,
                      test_name="test_checkout_with_receipt") as task:
        task.goto("/")
        task.do("add the Khaki Chinos in size L to the cart")
        task.do("check out as {name} ({email}), address {address}, and upload the receipt",
                name=NAME, email=EMAIL, address=ADDRESS, resources={"receipt": RECEIPT})
        task.check("the confirmation lists Khaki Chinos in size L")
    assert task.stats.replayed == 3 and task.stats.llm_calls == 0


def hand_written(page: Page, base_url: str) -> None:
    """The same actions, and the same outcomes as the recipe's typed checks."""
    page.goto(base_url + "/")
    card = page.locator("article").filter(has_text="Khaki Chinos")
    card.get_by_label("Size").select_option("L")
    card.get_by_role("button", name="Add to cart").click()
    cart = page.get_by_role("table")
    expect(cart.get_by_role("row")).to_have_count(1)
    expect(cart.get_by_text("Khaki Chinos", exact=True)).to_be_visible()
    expect(cart.get_by_text("Size L", exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/cart$"))
    page.get_by_role("link", name="Proceed to checkout").click()
    page.get_by_label("Full name").fill(NAME)
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Address").fill(ADDRESS)
    page.get_by_label("Receipt (optional)").set_input_files(RECEIPT)
    page.get_by_role("button", name="Place order").click()
    expect(page.get_by_text(f"Thank you, {NAME}!", exact=True)).to_be_visible()
    expect(page.get_by_text("Receipt received: receipt.txt", exact=True)).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Your order number is [A-Z]+-\d+\.$"))).to_be_visible()
    expect(page).to_have_url(re.compile(r"/orders/[A-Z]+-\d+$"))
    expect(page.get_by_text("Khaki Chinos, size L, qty 1", exact=True)).to_be_visible()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    with DemoShop() as shop, sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        a, b = compare(browser, replayed, hand_written, shop.url, args.repeat)
        browser.close()
    print("| flow | runs | replay median ms | hand-written median ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| checkout (7 actions, 9 checks) | {args.repeat} | {a:.0f} | {b:.0f} | {a / b:.2f} |")


if __name__ == "__main__":
    main()
