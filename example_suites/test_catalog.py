"""Extraction: every item of a paginated list with a details panel, compared with a syrupy
snapshot and with the shop's own data."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from example_suites.demo_shop import DemoShop
from example_suites.demo_shop.catalog import money
from pytest_webtask import WebTask


def test_extract_catalogue(webtask: WebTask, shop: DemoShop,
                           snapshot: SnapshotAssertion) -> None:
    webtask.goto("/catalog?view=panel")
    items = webtask.extract("every product with its name, price and category", max_items=20,
                            fields=["name", "price", "category"])
    assert items == snapshot
    assert items == [{"name": p.name, "price": money(p.price), "category": p.category}
                     for p in shop.visible_products({})]


def test_extract_behind_load_more(webtask: WebTask, shop: DemoShop) -> None:
    """Rows behind a "Load more" button, each row's details in a modal dialog."""
    webtask.goto("/catalog?view=modal")
    items = webtask.extract("every product in the list with its name and price", max_items=50,
                            fields=["name", "price"])
    assert items == [{"name": p.name, "price": money(p.price)}
                     for p in shop.visible_products({})]
