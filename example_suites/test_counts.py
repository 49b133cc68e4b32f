"""Counts: how many products match, how many items the cart holds, what they cost together.
"""

from __future__ import annotations

from pytest_webtask import WebTask


def test_product_count(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.check("the shop lists 13 products, six on this page")
    webtask.do("search for beanie")


def test_same_product_twice(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart twice")
