"""Widgets as front-end frameworks render them (served by the demo shop under /widgets/):
controls shown on hover, a confirm before deleting, a prompt, editing in place by
double-click, custom checkboxes, drag to reorder, a report opening in a new tab, and a
500-row table where the row to act on is far below the first screen."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from pytest_webtask import WebTask


def titles(page: Page) -> list[str]:
    return page.locator(".todo-list label").all_inner_texts()


def test_delete_a_todo_after_confirming(webtask: WebTask, page: Page) -> None:
    webtask.goto("/widgets/todos")
    webtask.do("delete Beta")  # hover its row, answer the confirm, click the ×
    webtask.check("Beta is gone and 3 items are left")
    assert titles(page) == ["Alpha", "Gamma", "Delta"]


def test_edit_a_todo_in_place_then_complete_it(webtask: WebTask, page: Page) -> None:
    webtask.goto("/widgets/todos")
    webtask.do("rename Gamma to Gamma ray")  # double-click, type, Enter
    webtask.do("mark Gamma ray as done")  # a role=checkbox, not an <input>
    assert titles(page) == ["Alpha", "Beta", "Gamma ray", "Delta"]
    expect(page.get_by_role("checkbox", name="Gamma ray")).to_be_checked()


def test_reorder_by_drag(webtask: WebTask, page: Page) -> None:
    webtask.goto("/widgets/todos")
    webtask.do("move Delta to the top of the list")
    assert titles(page) == ["Delta", "Alpha", "Beta", "Gamma"]


def test_rename_the_list_through_a_prompt(webtask: WebTask, page: Page) -> None:
    webtask.goto("/widgets/todos")
    webtask.do("rename the list to {name}", name="Groceries")
    expect(page.locator("h1")).to_have_text("Groceries")


def test_report_opens_in_a_new_tab(webtask: WebTask, page: Page) -> None:
    webtask.goto("/widgets/reports")
    webtask.do("open the Q3 report")
    webtask.check("the Q3 revenue is $1,900")
    # webtask.page is the tab the last step ended on; the page fixture stays the first tab
    assert webtask.page.url.endswith("/widgets/report?quarter=Q3")
    assert page.url.endswith("/widgets/reports")


def test_close_a_ticket_far_down_the_table(webtask: WebTask) -> None:
    webtask.goto("/widgets/table")
    webtask.do("close Ticket 420")  # not on the first screen: found with the find tool
    webtask.check("1 of 500 tickets are closed")
