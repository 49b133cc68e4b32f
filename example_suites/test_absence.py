"""Absence and scope: what must be gone (a removed item, a fixed error, a closed panel), and
where something must be (in the cart, in the details panel), not merely somewhere.
"""

from __future__ import annotations

from pytest_webtask import WebTask


def test_removed_item_leaves_the_cart(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.goto("/")
    webtask.do("add the Khaki Chinos in size L to the cart as well")
    # The cart then says "Removed Blue Oxford Shirt from your cart.": only a check scoped to
    # the cart's table can say the shirt is gone.
    webtask.do("remove the Blue Oxford Shirt from the cart")


def test_fixed_error_goes_away(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Wool Beanie to the cart")
    webtask.do("go to checkout and place the order without filling in the form")
    webtask.do("fill in the name {name} and place the order again", name="Ada Lovelace")
    webtask.check("the form still asks for a valid email address and the address")


def test_details_panel_closes(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("open the details of the Canvas Tote Bag")
    webtask.check("the details panel shows the Canvas Tote Bag in the Accessories category")
    webtask.do("close the details panel")
