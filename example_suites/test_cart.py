"""The cart: adding a product in a size, and what the cart then shows."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from pytest_webtask import WebTask


def test_add_to_cart(webtask: WebTask, page: Page) -> None:
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.check("the cart total is $39.00")
    # webtask steps mix freely with plain Playwright on the same page
    expect(page.get_by_role("link", name="Cart (1)")).to_be_visible()
