"""Order: a sorted list must be in that order, not merely contain the right products.
"""

from __future__ import annotations

from pytest_webtask import WebTask


def test_jackets_most_expensive_first(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("sort the jackets by price, highest first")
    webtask.check("the Green Field Jacket comes first, then the Navy Rain Jacket")


def test_cheapest_first(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("sort all products by price, lowest first")
    webtask.check("the cheapest products come first: Wool Beanie, Canvas Tote Bag, Leather Belt")


def test_second_page_continues_the_first(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("show the next page of products")
    webtask.check("the second page starts with the Leather Belt and does not repeat the "
                  "Khaki Chinos")
