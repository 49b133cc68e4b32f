"""A repeated click as one action (issue 47): a calendar's "Previous month" clicked three
times, recorded as one ``click`` with ``times: 3`` although every click renders the calendar
again (the element id the model read names a node that is gone after the first click: the
tool finds the button again by its fingerprint before each click). Replayed with no model;
the replay fails where the button goes back two months, or does nothing once rendered
again. Recorded with a scripted model that reads ids off what it is shown, as a model would
(tests/pages/months.html)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pytest_webtask.tools.params import ClickParams
from tests.server import LocalServer
from tests.test_real_apps import Flow, act, done, line_id, step

TASK = "show March 2024 in the calendar"


def back_three(page: str, history: str, n: int) -> dict[str, Any]:
    if n == 1:  # June 2024 shows: three months back
        return step(act("click", element_id=line_id(page, 'aria-label="Previous month"'),
                        times=3))
    return done("March 2024")


def test_a_repeated_click_on_a_button_rendered_again_records_as_one_action(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    run = Flow(browser, server, tmp_path, "/months", [("do", TASK)], {TASK: [back_three] * 2})

    def march(task: Any) -> None:
        assert task.page.text_content("h2") == "March 2024"

    run.run("record", after=march)
    (action,) = run.recorded()[0]["actions"]
    assert (action["tool"], action["params"]["times"]) == ("click", 3)
    assert action["target"]["name"] == "Previous month"
    task = run.run("replay", after=march)
    assert task.stats.replayed == 1 and task.stats.llm_calls == 0
    message = run.fails("prev_skips")  # two months back each time: December 2023
    assert "Step 1 do('show March 2024 in the calendar'), check 1: expected the page shows " \
           "text 'March 2024'" in message, message
    message = run.fails("prev_once")  # the buttons rendered again do nothing: May 2024
    assert "check 1: expected the page shows text 'March 2024'" in message, message


def test_the_exported_repeated_click_clicks_each_time(page: Page, server: LocalServer) -> None:
    from pytest_webtask.tools.builtin import Click

    class Code:
        params = {"element_id": "button-0", "times": 3}

        def element(self) -> str:
            return 'page.get_by_role("button", name="Previous month")'

    page.goto(server.url + "/months")
    exec("\n".join(Click.code(Code())), {"page": page})  # type: ignore[arg-type]
    assert page.text_content("h2") == "March 2024"


def test_times_is_bounded() -> None:
    assert ClickParams(element_id="button-0").times == 1
    for bad in (0, 25):
        with pytest.raises(ValueError):
            ClickParams(element_id="button-0", times=bad)
