"""Checkout: validation, a file upload, and a confirmation with a generated order number."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_webtask import WebTask


def test_checkout_with_receipt(webtask: WebTask, receipt: Path) -> None:
    webtask.goto("/")
    webtask.do("add the Khaki Chinos in size L to the cart")
    webtask.do("check out as {name} ({email}), address {address}, and upload the receipt",
               name="Ada Lovelace", email="ada@example.com", address="12 St James's Square",
               resources={"receipt": receipt})
    webtask.check("the confirmation lists Khaki Chinos in size L")


@pytest.mark.parametrize("name", ["Ada Lovelace", "Charles Babbage"])
def test_checkout_replays_with_new_data(webtask: WebTask, name: str) -> None:
    """One recipe per parameter, each replayed with its own value."""
    webtask.goto("/")
    webtask.do("add the Wool Beanie to the cart")
    webtask.do("check out as {name} ({email}), address {address}",
               name=name, email="someone@example.com", address="1 Analytical Row")


def test_checkout_validation(webtask: WebTask) -> None:
    webtask.goto("/")
    webtask.do("add the Leather Belt in size M to the cart")
    webtask.do("go to checkout and place the order without filling in the form")
    webtask.check("the form says the address is required")
