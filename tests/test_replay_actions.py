"""A replayed action makes the calls its exported code makes: a check is Playwright's one
``set_checked`` call, a fill its one ``fill`` and a type its one ``press_sequentially``; what
they refuse is said as recording says it, found out only once they failed. A control that
goes away once clicked is still done."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Playwright

from pytest_webtask.browser.script import COLLECTOR_JS
from pytest_webtask.errors import ReplayError
from pytest_webtask.recipes._sync.replayer import Replayer
from pytest_webtask.recipes.model import RecipeAction
from pytest_webtask.types import Fingerprint
from tests.engine import with_engine
from tests.server import LocalServer

# "#gone" leaves the list once ticked (an "Active" filter); "#again" is rendered anew on
# each change; "#stuck" refuses the click; "#plain" is no checkbox; "#ro" is read-only.
PAGE = """<!doctype html><main>
<label>Gone <input type="checkbox" id="gone"
  onchange="this.parentElement.remove()"></label>
<label>Again <input type="checkbox" id="again" onchange="const n = this.cloneNode();
  n.checked = this.checked; n.onchange = this.onchange; this.replaceWith(n)"></label>
<label>Stuck <input type="checkbox" id="stuck" onclick="return false"></label>
<div id="plain" role="button" tabindex="0">Plain</div>
<input id="ro" aria-label="Note" readonly>
</main>"""


@pytest.fixture
def replay(browser: Browser, playwright: Playwright, server: LocalServer,
           monkeypatch: pytest.MonkeyPatch) -> Any:
    """Replays one action on a fresh page of PAGE through the selector engine; returns the
    Locator calls it made."""
    with_engine(playwright)
    calls: list[str] = []
    for name in ("set_checked", "evaluate", "count", "click", "fill", "press_sequentially"):
        method = getattr(Locator, name)

        def counted(self: Locator, *args: Any, _n: str = name, _m: Any = method,
                    **kwargs: Any) -> Any:
            calls.append(_n)
            return _m(self, *args, **kwargs)

        monkeypatch.setattr(Locator, name, counted)
    context = browser.new_context()
    page = context.new_page()
    server.pages["/boxes"] = PAGE
    page.goto(server.url + "/boxes")

    def run(tool: str, css: str, params: dict[str, Any] | None = None) -> list[str]:
        page.evaluate(COLLECTOR_JS, {"op": "collect"})
        found = page.evaluate(COLLECTOR_JS, {"op": "describe", "id": page.locator(
            css).get_attribute("data-webtask-id")})
        action = RecipeAction(tool=tool, params=params or {}, target=Fingerprint(**found))
        calls.clear()
        Replayer(page, timeout_ms=1500).run_action(action, "Step 1, action 1")
        return list(calls)

    yield run, page
    context.close()


def test_a_replayed_check_is_one_call(replay: Any) -> None:
    run, page = replay
    # Playwright's set_checked, one call as exported code makes, after one read of the
    # state: the step's log says when it was already set (a recipe recorded where a switch
    # was off, replayed where it is on)
    assert run("check", "#again") == ["evaluate", "set_checked"]
    assert page.locator("#again").is_checked()
    # already checked: nothing clicked
    assert run("check", "#again") == ["evaluate", "set_checked"]
    assert run("uncheck", "#again") == ["evaluate", "set_checked"]
    assert not page.locator("#again").is_checked()


def test_a_replayed_check_on_a_control_that_goes_away_once_clicked_is_done(
        replay: Any) -> None:
    run, page = replay
    assert run("check", "#gone")[:2] == ["evaluate", "set_checked"]
    assert page.locator("#gone").count() == 0


def test_what_a_replayed_check_refuses_is_said_as_recording_says_it(replay: Any) -> None:
    run, _ = replay
    with pytest.raises(ReplayError, match="the click did not change its state"):
        run("check", "#stuck")
    with pytest.raises(ReplayError, match="work on a checkbox, radio button or switch"):
        run("check", "#plain")


def test_a_replayed_fill_is_one_call_and_a_read_only_field_is_said_after(replay: Any
                                                                         ) -> None:
    run, page = replay
    page.evaluate("document.getElementById('ro').readOnly = false")
    assert run("fill", "#ro", {"value": "hello"}) == ["fill"]
    page.evaluate("document.getElementById('ro').readOnly = true")
    with pytest.raises(ReplayError, match="the field is read-only, typing changes nothing"):
        run("fill", "#ro", {"value": "again"})


def test_a_replayed_type_is_one_call_and_a_read_only_field_is_said_after(replay: Any
                                                                         ) -> None:
    """Its key presses would not refuse a read-only field: the selector engine does not give
    it one, so it waits as fill does, and the failure says why."""
    run, page = replay
    page.evaluate("document.getElementById('ro').readOnly = false")
    assert run("type", "#ro", {"value": "hello"}) == ["press_sequentially"]
    assert page.locator("#ro").input_value() == "hello"
    page.evaluate("document.getElementById('ro').readOnly = true")
    with pytest.raises(ReplayError, match="type failed: the field is read-only, typing "
                                          "changes nothing"):
        run("type", "#ro", {"value": " again"})
    assert page.locator("#ro").input_value() == "hello"
