"""Browsing the demo shop: search, filter and sort, pagination, the details panel."""

from __future__ import annotations

from pytest_webtask import WebTask


def test_search(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("search for linen")
    webtask.check("the list shows White Linen Shirt and Linen Trousers")


def test_filter_and_sort(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("show only jackets, most expensive first")
    webtask.check("the first product is the Green Field Jacket")


def test_pagination(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("go to the second page of products")
    webtask.check("the page shows the Linen Trousers")


def test_details_panel(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("open the details of the Canvas Tote Bag")
    webtask.check("the details panel says it is in the Accessories category")
