"""Declared variation (pure functions, no browser): nothing is loosened unless declared."""

from __future__ import annotations

import re

import pytest

from pytest_webtask.recipes.patterns import escape, shape, user_patterns, varying


@pytest.mark.parametrize("text", [
    "Samsung Galaxy S24 in your cart", "Total: $12345.00", "Vitamin B12", "COVID-19",
    "Room 12B", "Order ORD-48213 placed", "2026-11-22 at 10:15",
])
def test_no_part_of_a_text_varies_unless_declared(text: str) -> None:
    assert varying(text, [], []) is None


def test_the_models_varies_sample_becomes_its_shape() -> None:
    pattern = varying("Your order number is ORD-48213.", ["ORD-48213"], [])
    assert pattern == r"Your order number is [A-Z]+-\d+\."
    assert re.fullmatch(pattern, "Your order number is ORD-1.")
    assert not re.fullmatch(pattern, "Your order number is 48213.")
    assert not re.fullmatch(pattern, "Your order number is ORD-48213!")


def test_a_sample_not_in_the_text_changes_nothing() -> None:
    assert varying("Thank you, Ada!", ["ORD-1"], []) is None


def test_user_patterns_and_names() -> None:
    patterns = user_patterns([r"ORD-\d+", "date"])
    pattern = varying("Order ORD-12 shipped on 2026-01-02", [], patterns)
    assert pattern == r"Order ORD-\d+ shipped on \d{4}-\d{2}-\d{2}"
    assert re.fullmatch(pattern, "Order ORD-99999 shipped on 2027-12-31")
    assert not re.fullmatch(pattern, "Order ORD-99999 shipped on tomorrow")


def test_a_broken_user_pattern_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"webtask dynamic pattern '\(' is not a regular"):
        user_patterns(["("])


def test_escape_keeps_text_readable_and_literal() -> None:
    text = "Total: $39.00 (incl. tax) [1/2] a+b? {name}"
    assert re.fullmatch(escape(text), text)
    assert escape("Size M - blue") == "Size M - blue"


def test_shape() -> None:
    assert shape("ORD-48213") == r"[A-Z]+-\d+"
    assert shape("ab12") == r"[a-z]+\d+"
