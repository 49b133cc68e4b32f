"""Replays tell the truth: benign page changes still replay; breaking ones fail clearly.

Each test records a two-step flow on the demo shop with a ScriptedLLM, changes the shop
(a variant), and replays the recipe with no model in a fresh browser context.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Browser

from example_suites.demo_shop import PRODUCTS, DemoShop
from pytest_webtask import WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask

ADD = "add the Blue Oxford Shirt in size M to the cart"
CHECKOUT = "check out as {name}"


def act(tool: str, element_id: str, **params: object) -> dict:
    return {"reason": tool, "tool": tool, "parameters": {"element_id": element_id, **params}}


def script(context: ModelRequest) -> dict:
    """Replies as a model would give them, reading the order number off the page."""
    task = context.blocks[0].text.split("\n")[1]
    n = context.blocks[1].text.count("\nStep ")
    page = context.blocks[-1].text
    if task == ADD:
        return [
            {"complete": False, "message": "add it", "actions": [
                act("select", "select-3", value="M"), act("click", "button-4")]},
            {"complete": True, "message": "added", "evidence": ["Blue Oxford Shirt", "Size M"]},
        ][n]
    if n == 0:
        return {"complete": False, "message": "to checkout", "actions": [act("click", "a-3")]}
    if n == 1:
        return {"complete": False, "message": "fill and order", "actions": [
            act("fill", "input-0", value="Ada"), act("fill", "input-1", value="ada@example.com"),
            act("fill", "input-2", value="1 Main St"), act("click", "button-1")]}
    number = re.search(r"Your order number is (ORD-\d+)\.", page)
    assert number, page
    return {"complete": True, "message": "ordered",
            "evidence": ["Thank you, Ada!",
                         {"expect": "text", "text": number.group(0),
                          "varies": [number.group(1)]}]}


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop() as running:
        yield running


def run_flow(browser: Browser, shop: DemoShop, recipe: Path, mode: str,
             start: str = "/") -> WebTask:
    context = browser.new_context()
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=shop.url,
                          llm=ScriptedLLM(script), test_name="flow", timeout=1.5) as task:
            task.goto(start)
            task.do(ADD)
            task.do(CHECKOUT, name="Ada")
    finally:
        context.close()
    return task


@pytest.fixture
def recorded(browser: Browser, shop: DemoShop, tmp_path: Path) -> Path:
    shop.reset()
    recipe = tmp_path / "flow.yaml"
    task = run_flow(browser, shop, recipe, "record")
    assert task.stats.recorded == 2 and task.stats.llm_calls == 5
    return recipe


@pytest.mark.parametrize("variant", ["rename_classes", "wrapper", "reorder", "change_ids"])
def test_benign_change_still_replays(browser: Browser, shop: DemoShop, recorded: Path,
                                     variant: str) -> None:
    recorded_orders = set(shop.orders)
    shop.variants = {variant}
    task = run_flow(browser, shop, recorded, "replay")
    assert task.stats.replayed == 2 and task.stats.llm_calls == 0
    new = [shop.orders[n] for n in shop.orders if n not in recorded_orders]
    assert len(new) == 1 and new[0]["name"] == "Ada"
    blue = next(p for p in PRODUCTS if p.name == "Blue Oxford Shirt")
    assert new[0]["items"] == [{"id": blue.id, "size": "M", "qty": 1}]


def test_dynamic_order_number_is_a_pattern(browser: Browser, shop: DemoShop,
                                           recorded: Path) -> None:
    checks = yaml.safe_load(recorded.read_text())["steps"][1]["checks"]
    number = next(c for c in checks if "order number" in c["text"])
    assert re.fullmatch(r"Your order number is ORD-\d+\.", number["text"])
    # declared by the model (varies), shown in the recipe; nothing else is loosened
    assert number["pattern"] == r"Your order number is [A-Z]+-\d+\."
    assert number["match"] == "pattern"
    assert {"expect": "text", "text": "Thank you, {name}!"} in checks  # the value -> {name}
    url = next(c for c in checks if c["expect"] == "url")
    assert url["pattern"] == r"/orders/[A-Z]+-\d+"
    before = set(shop.orders)
    run_flow(browser, shop, recorded, "replay")  # a new number, the same recipe
    assert len(set(shop.orders) - before) == 1


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("dead_button", "Step 1 do('add the Blue Oxford Shirt in size M to the cart'), check 2: "
                        "expected the page shows text 'Size M'"),
        ("wrong_product", "Step 1 do('add the Blue Oxford Shirt in size M to the cart'), check "
                          "1: expected the page shows text 'Blue Oxford Shirt'"),
        ("confirmation_text", "Step 2 do('check out as {name}'), check 1: expected the page "
                              "shows text 'Thank you, Ada!'"),
        ("duplicate_button", "action 2 (click): expected button \"Add to cart\" near \"Blue "
                             "Oxford Shirt\"; 2 elements now match it (found by role and name)"),
    ],
)
def test_breaking_change_fails_clearly(browser: Browser, shop: DemoShop, recorded: Path,
                                       variant: str, expected: str) -> None:
    shop.variants = {variant}
    with pytest.raises(pytest.fail.Exception) as failure:
        run_flow(browser, shop, recorded, "replay")
    message = str(failure.value)
    assert message.startswith("Replay failed.")
    assert expected in message
    assert "page: http://127.0.0.1" in message
    if "check" in expected:
        assert "instead:" in message


def test_replay_from_another_page_says_where_it_was_recorded(
    browser: Browser, shop: DemoShop, recorded: Path
) -> None:
    with pytest.raises(pytest.fail.Exception) as failure:
        run_flow(browser, shop, recorded, "replay", start="/signin")
    assert "note: this step was recorded starting at /, but this time it started at /signin" \
        in str(failure.value)
