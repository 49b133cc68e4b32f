"""A heal's diff, in process: one line per changed action, saying how its target moved, and
nothing for actions that stayed. (tests/test_heal.py shows the same on drifted shops.)"""

from __future__ import annotations

from pytest_webtask.recipes.diff import action_diff, describe_action
from pytest_webtask.recipes.model import RecipeAction
from pytest_webtask.types import Fingerprint

SHIRT = "Blue Oxford Shirt"


def click(name: str, css: str = "button.add", near: str | None = SHIRT) -> RecipeAction:
    return RecipeAction(tool="click", reason="add it",
                        target=Fingerprint(tag="button", role="button", name=name, near=near,
                                           css=css))


def select(value: str) -> RecipeAction:
    return RecipeAction(tool="select", params={"value": value},
                        target=Fingerprint(tag="select", name_attr="size", label="Size"))


def test_an_action_reads_as_tool_target_and_what_it_was_given() -> None:
    assert describe_action(click("Add to cart")) == \
        'click button "Add to cart" near "Blue Oxford Shirt"'
    assert describe_action(select("M")) == "select select \"Size\" value='M'"
    fill = RecipeAction(tool="fill", params={"value": "{email}"},
                        target=Fingerprint(tag="input", role="textbox", label="Email"))
    assert describe_action(fill) == "fill textbox \"Email\" value='{email}'"  # as stored
    drag = RecipeAction(tool="drag", target=Fingerprint(tag="li", text="A"),
                        to=Fingerprint(tag="li", text="C"))
    assert describe_action(drag) == 'drag li "A" onto li "C"'


def test_the_same_actions_have_no_diff_whatever_the_reason() -> None:
    same = click("Add to cart").model_copy(update={"reason": "another reason"})
    assert action_diff([select("M"), click("Add to cart")], [select("M"), same]) == []


def test_a_relabelled_target_is_one_line_from_old_to_new() -> None:
    assert action_diff([select("M"), click("Add to cart")],
                       [select("M"), click("Add to bag")]) == [
        'action 2: click button "Add to cart" near "Blue Oxford Shirt" -> '
        'click button "Add to bag" near "Blue Oxford Shirt"']


def test_a_target_that_only_moved_says_so_and_an_added_action_is_numbered_anew() -> None:
    menu = RecipeAction(tool="click", target=Fingerprint(tag="button", role="button",
                                                         name="Cart options"))
    old = [click("Proceed", css="a.go")]
    new = [menu, click("Proceed", css="nav a.go")]
    assert action_diff(old, new) == [
        '+ action 1: click button "Cart options"',
        'action 1 (now 2): click button "Proceed" near "Blue Oxford Shirt" -> click button '
        '"Proceed" near "Blue Oxford Shirt" (its CSS path, XPath or other attributes changed)']


def test_a_removed_action_is_named_with_its_old_number() -> None:
    assert action_diff([select("M"), select("L"), click("Add to cart")],
                       [select("M"), click("Add to cart")]) == [
        "- action 2: select select \"Size\" value='L'"]
