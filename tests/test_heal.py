"""Verified heals: a step whose element drifted harmlessly is re-done by the model and kept
only when the step's recorded checks hold; a broken outcome is never healed into a pass.

Each test records a two-step flow on the demo shop (ScriptedLLM), switches on a shop variant
and replays with ``heal``. The "model" that heals is a script reading the page state: it
shows the code paths, not what a real model would choose.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from example_suites.demo_shop import PRODUCTS, DemoShop
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.settings import Settings
from pytest_webtask.testing import ScriptedLLM, open_webtask

ADD = "add the Blue Oxford Shirt in size M to the cart"
CHECKOUT = "check out as {name}"
Reply = Callable[[str, int, str], dict]  # (task, model calls so far in the step, page state)


def act(tool: str, element_id: str, **params: object) -> dict:
    return {"reason": tool, "tool": tool, "parameters": {"element_id": element_id, **params}}


def done(*evidence: Any) -> dict:
    return {"complete": True, "message": "done", "evidence": list(evidence)}


def el(page: str, label: str) -> str:
    """The id the page state gives the element labelled ``label`` (as a model reads it)."""
    found = re.search(rf'^\s*- (?:\w+ > )*(\w+-\d+)\b[^\n]*"{re.escape(label)}"', page,
                      re.MULTILINE)
    assert found, f"{label!r} not in the page state:\n{page}"
    return found.group(1)


def ordered(page: str) -> dict:
    number = re.search(r"Your order number is (ORD-\d+)\.", page)
    assert number, page
    return done("Thank you, Ada!", {"expect": "text", "text": number.group(0),
                                    "varies": [number.group(1)]})


def record_script(task: str, n: int, page: str) -> dict:
    if task == ADD:
        return [{"complete": False, "message": "add it", "actions": [
                    act("select", "select-3", value="M"), act("click", "button-4")]},
                done("Blue Oxford Shirt", "Size M", "Total: $39.00")][n]
    if n == 0:
        return {"complete": False, "message": "to checkout", "actions": [
            act("click", el(page, "Proceed to checkout"))]}
    if n == 1:
        return {"complete": False, "message": "fill and order", "actions": [
            act("fill", "input-0", value="Ada"), act("fill", "input-1", value="ada@example.com"),
            act("fill", "input-2", value="1 Main St"), act("click", "button-1")]}
    return ordered(page)


def llm(script: Reply) -> ScriptedLLM:
    def reply(context: ModelRequest) -> dict:
        task = context.blocks[0].text.split("\n")[1]
        return script(task, context.blocks[1].text.count("\nStep "), context.blocks[-1].text)

    return ScriptedLLM(reply)


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop() as running:
        yield running


class Flow:
    def __init__(self, browser: Browser, shop: DemoShop, recipe: Path) -> None:
        self.browser, self.shop, self.recipe = browser, shop, recipe

    def run(self, mode: str, script: Reply | None = None, **settings: Any) -> Flow:
        self.llm = llm(script or record_script)
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.shop.url,
                              llm=self.llm, test_name="flow",
                              fix_command="pytest --webtask-record 'tests/x.py::flow'",
                              timeout=3.0, **settings) as self.task:
                self.stats = self.task.stats
                self.task.goto("/")
                self.task.do(ADD)
                self.task.do(CHECKOUT, name="Ada")
        finally:
            context.close()
        return self

    def fails(self, script: Reply | None = None, **settings: Any) -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run("auto", script, **settings)
        return str(failure.value)

    def steps(self) -> list[dict]:
        return yaml.safe_load(self.recipe.read_text())["steps"]


@pytest.fixture(scope="module")
def recorded_once(browser: Browser, shop: DemoShop, tmp_path_factory: pytest.TempPathFactory
                  ) -> Path:
    shop.reset()
    recipe = tmp_path_factory.mktemp("heal") / "flow.yaml"
    task = Flow(browser, shop, recipe).run("record")
    assert task.stats.recorded == 2
    return recipe


@pytest.fixture
def flow(browser: Browser, shop: DemoShop, recorded_once: Path, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Flow:
    monkeypatch.delenv("CI", raising=False)
    shop.variants.clear()
    recipe = tmp_path / "flow.yaml"
    shutil.copy(recorded_once, recipe)
    return Flow(browser, shop, recipe)


def last_order(shop: DemoShop) -> dict:
    return list(shop.orders.values())[-1]


# -- harmless drifts: healed, the diff is exactly the changed actions ------------------------

def heal_relabel(task: str, n: int, page: str) -> dict:
    assert task == ADD, task  # only the drifted step is re-done
    # it starts where the replay stopped: on the product list, the size already chosen
    assert n > 0 or 'select-3 (name="size" options="S|M|L" selected="M"' in page, page
    return [{"complete": False, "message": "the button reads Add to bag now", "actions": [
                act("click", "button-4")]},
            done("Blue Oxford Shirt")][min(n, 1)]  # a done asked again: a step


def heal_menu(task: str, n: int, page: str) -> dict:
    assert task == CHECKOUT, task
    if n == 0:
        return {"complete": False, "message": "the link is in a menu", "actions": [
            act("click", el(page, "Cart options"))]}
    if n == 1:
        return {"complete": False, "message": "now the link", "actions": [
            act("click", el(page, "Proceed to checkout"))]}
    return record_script(task, n - 1, page)


def heal_second_page(task: str, n: int, page: str) -> dict:
    assert task == CHECKOUT, task
    if n == 0:
        return {"complete": False, "message": "continue to the address", "actions": [
            act("click", el(page, "Continue"))]}
    if n == 1:
        return {"complete": False, "message": "address and order", "actions": [
            act("fill", el(page, "Address"), value="1 Main St"),
            act("click", el(page, "Place order"))]}
    return ordered(page)


HARMLESS = {
    "relabel_add": (heal_relabel, 0, [
        'action 2: click button "Add to cart" near "Blue Oxford Shirt" -> '
        'click button "Add to bag" near "Blue Oxford Shirt"']),
    "checkout_in_menu": (heal_menu, 1, [
        '+ action 1: click button "Cart options"',
        'action 1 (now 2): click link "Proceed to checkout" -> click link "Proceed to '
        'checkout" (its CSS path, XPath or other attributes changed)']),
    "address_second_page": (heal_second_page, 1, [
        '+ action 4: click button "Continue"',
        "action 4 (now 5): fill textbox \"Address\" value='1 Main St' -> fill textbox "
        "\"Address\" value='1 Main St' (its CSS path, XPath or other attributes changed)"]),
}


@pytest.mark.parametrize("variant", list(HARMLESS))
def test_harmless_drift_is_healed_and_then_replays_without_a_model(
        flow: Flow, shop: DemoShop, variant: str) -> None:
    script, index, diff = HARMLESS[variant]
    before = flow.steps()
    shop.variants = {variant}
    task = flow.run("auto", script, heal="on")
    assert task.stats.healed == 1 and task.stats.replayed == 1
    assert task.stats.heal_llm_calls == len(flow.llm.calls) > 0
    assert task.task.results[index].how == "healed"
    assert task.task.results[index].heal == diff  # exactly the changed actions
    assert task.stats.heals[0].startswith(f"flow: Step {index + 1} do(")
    after = flow.steps()
    # only the healed step's actions changed: its checks, and the other step, are as recorded
    assert after[1 - index] == before[1 - index]
    assert after[index]["checks"] == before[index]["checks"]
    assert {k: v for k, v in after[index].items() if k != "actions"} == \
        {k: v for k, v in before[index].items() if k != "actions"}
    assert after[index]["actions"] != before[index]["actions"]
    blue = next(p for p in PRODUCTS if p.name == "Blue Oxford Shirt")
    assert last_order(shop)["items"] == [{"id": blue.id, "size": "M", "qty": 1}]
    # the next plain replay passes on the drifted shop with no model at all
    orders = len(shop.orders)
    again = flow.run("replay", heal="on")
    assert again.stats.replayed == 2 and again.stats.healed == 0 and not flow.llm.calls
    assert len(shop.orders) == orders + 1 and last_order(shop)["name"] == "Ada"


def test_heal_keeps_the_actions_before_the_drift_as_recorded(flow: Flow, shop: DemoShop
                                                              ) -> None:
    before = flow.steps()[1]["actions"]
    shop.variants = {"address_second_page"}
    flow.run("auto", heal_second_page, heal="on")
    after = flow.steps()[1]["actions"]
    assert after[:3] == before[:3]  # the link and the name and email fields ran as recorded
    assert [a["tool"] for a in after[3:]] == ["click", "fill", "click"]
    assert after[3]["target"]["name"] == "Continue"
    assert after[4]["params"] == {"value": "1 Main St"}


# -- breaking changes: a fooled model's "heal" never turns them into a pass ------------------

def fooled_add(task: str, n: int, page: str) -> dict:
    """Clicks the relabelled button and reports success citing what is on the page."""
    return [{"complete": False, "message": "add it", "actions": [act("click", "button-4")]},
            done("Your cart")][min(n, 1)]


def fooled_checkout(task: str, n: int, page: str) -> dict:
    if n < 2:
        return heal_second_page(task, n, page)
    return done("Order received, Ada!")


BREAKING = {
    "wrong product added": ({"relabel_add", "wrong_product"}, fooled_add,
                            "check 1: expected the page shows text 'Blue Oxford Shirt'"),
    "total wrong": ({"relabel_add", "total_wrong"}, fooled_add,
                    "check 3: expected the page shows text 'Total: $39.00'"),
    "confirmation missing": ({"address_second_page", "confirmation_text"}, fooled_checkout,
                             "check 1: expected the page shows text 'Thank you, Ada!'"),
}


@pytest.mark.parametrize("case", list(BREAKING))
def test_fooled_heal_of_a_broken_outcome_still_fails(flow: Flow, shop: DemoShop,
                                                     case: str) -> None:
    variants, script, expected = BREAKING[case]
    recipe = flow.recipe.read_bytes()
    shop.variants = set(variants)
    message = flow.fails(script, heal="on")
    assert message.startswith("Replay failed.")
    assert "A heal was tried and rejected, the recipe is unchanged: the model re-did the " \
           "step" in message
    assert "but the step's recorded checks did not hold afterwards" in message
    assert expected in message and "after the heal" in message
    assert flow.llm.calls  # the model was asked, and believed
    assert flow.recipe.read_bytes() == recipe
    assert not flow.recipe.with_name("flow.healed.yaml").exists()
    assert flow.stats.healed == 0 and not flow.stats.heals


def test_a_failing_check_is_never_healed(flow: Flow, shop: DemoShop) -> None:
    recipe = flow.recipe.read_bytes()
    shop.variants = {"wrong_product"}  # every element is there; the outcome is wrong
    message = flow.fails(fooled_add, heal="on")
    assert "check 1: expected the page shows text 'Blue Oxford Shirt'" in message
    assert "heal" not in message.lower()
    assert not flow.llm.calls and flow.recipe.read_bytes() == recipe


def test_a_model_that_cannot_redo_the_step_is_rejected(flow: Flow, shop: DemoShop) -> None:
    recipe = flow.recipe.read_bytes()
    shop.variants = {"relabel_add"}

    def gives_up(task: str, n: int, page: str) -> dict:
        return {"complete": False, "impossible": True, "message": "no such button",
                "actions": []}

    message = flow.fails(gives_up, heal="on")
    assert "A heal was tried and rejected, the recipe is unchanged: the model could not " \
           "re-do the step (2 model call(s)): Task impossible: no such button" in message
    assert flow.recipe.read_bytes() == recipe


def test_heal_budget_caps_model_calls(flow: Flow, shop: DemoShop) -> None:
    shop.variants = {"address_second_page"}  # this heal takes three calls
    message = flow.fails(heal_second_page, heal="on", heal_max_llm_calls=2)
    assert len(flow.llm.calls) == 2 and flow.stats.heal_llm_calls == 2
    assert "The step's budget of 2 model calls is used up (webtask_heal_max_llm_calls)" \
        in message


# -- suggest, off, CI, replay-only ----------------------------------------------------------

def test_suggest_writes_a_healed_recipe_beside_the_old_one(flow: Flow, shop: DemoShop) -> None:
    recipe = flow.recipe.read_bytes()
    shop.variants = {"relabel_add"}
    task = flow.run("auto", heal_relabel, heal="suggest")
    assert task.task.results[0].heal and "flow.healed.yaml" in task.stats.heals[0]
    assert flow.recipe.read_bytes() == recipe  # left alone
    healed = yaml.safe_load(flow.recipe.with_name("flow.healed.yaml").read_text())["steps"]
    old = yaml.safe_load(recipe)["steps"]
    assert healed[1] == old[1] and healed[0]["checks"] == old[0]["checks"]
    assert healed[0]["actions"][1]["target"]["name"] == "Add to bag"
    # the recipe still needs the heal: a plain replay fails as before
    assert "Add to cart" in flow.fails(heal="off")


@pytest.mark.parametrize(("settings", "env", "why"), [
    ({"heal": "on"}, {"CI": "true"}, "CI is set, so no model is called"),
    ({"heal": "on", "mode": "replay"}, {}, "--webtask-replay-only is set"),
    ({"heal": "off"}, {}, "If the page changed harmlessly, a heal might fix this"),
])
def test_no_heal_says_how_to_heal(flow: Flow, shop: DemoShop, monkeypatch: pytest.MonkeyPatch,
                                  settings: dict, env: dict, why: str) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    recipe = flow.recipe.read_bytes()
    shop.variants = {"relabel_add"}
    mode = settings.pop("mode", "auto")
    with pytest.raises(pytest.fail.Exception) as failure:
        flow.run(mode, heal_relabel, **settings)
    message = str(failure.value)
    assert "action 2 (click): expected button \"Add to cart\"" in message
    assert why in message
    assert "pytest --webtask-heal 'tests/x.py::flow'" in message
    assert not flow.llm.calls and flow.recipe.read_bytes() == recipe


def test_heal_settings_from_marker_and_bad_values() -> None:
    from pytest_webtask.errors import ConfigurationError

    base = Settings()
    assert base.heal == "off" and base.heal_max_llm_calls == 10
    marked = base.with_markers([pytest.mark.webtask(heal="suggest", heal_max_llm_calls=3).mark])
    assert (marked.heal, marked.heal_max_llm_calls) == ("suggest", 3)
    assert base.with_markers([pytest.mark.webtask(heal=True).mark]).heal == "on"
    with pytest.raises(ConfigurationError, match="webtask heal should be one of off, on, "
                                                 "suggest; got 'always'"):
        base.with_markers([pytest.mark.webtask(heal="always").mark])


def test_a_suggested_heal_is_not_an_unused_recipe(tmp_path: Path) -> None:
    from pytest_webtask.plugin.unused import unused_recipes

    folder = tmp_path / "__webtask__" / "test_x"
    folder.mkdir(parents=True)
    for name in ("test_a.yaml", "test_a.healed.yaml", "test_gone.yaml"):
        (folder / name).write_text("version: 3\n")
    unused = unused_recipes(tmp_path, ["test_x.py::test_a"])
    assert [p.name for p in unused] == ["test_gone.yaml"]
