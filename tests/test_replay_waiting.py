"""How a replay waits for a step's checks: all tried in one call; those that do not hold yet
polled at ``expect``'s intervals, in turn, so a check is never credited for a moment before
the ones ahead of it held; the collector script reaches every new document."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, LocatorAssertions, Page, Playwright

from pytest_webtask.errors import CheckFailed
from pytest_webtask.recipes._sync.replayer import Replayer
from pytest_webtask.recipes.model import Check
from pytest_webtask.recipes.waits import POLL_MS, backoff
from pytest_webtask.types import Fingerprint
from tests.engine import with_engine, without_engine
from tests.server import LocalServer

# "Saving..." shows until 600 ms after load, "Saved" from 900 ms after load.
PAGE = """<!doctype html><main><h1>Notes</h1><ul id="notes"><li>One</li><li>Two</li></ul>
<p id="busy">Saving...</p>
<script>
setTimeout(() => document.getElementById('busy').remove(), 600);
setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Saved';
  document.querySelector('main').append(p); }, 900);
</script></main>"""


class Counted(Replayer):
    """A replayer that counts its collector calls and the waits between its tries."""

    def __init__(self, page: Page, **kwargs: Any) -> None:
        super().__init__(page, **kwargs)
        self.calls = 0
        self.waits: list[float] = []
        wait = page.wait_for_timeout

        def waited(ms: float) -> None:
            self.waits.append(ms)
            wait(ms)

        page.wait_for_timeout = waited  # type: ignore[method-assign,assignment]

    def collect(self, frame: Any, args: dict[str, Any]) -> Any:
        self.calls += 1
        return super().collect(frame, args)


def text(value: str) -> Check:
    return Check(expect="text", text=value)


@pytest.fixture
def notes(page: Page, server: LocalServer) -> Page:
    server.pages["/notes"] = PAGE
    page.goto(server.url + "/notes")
    page.get_by_text("Saved").wait_for()  # the page as it ends up
    return page


@pytest.mark.parametrize("engine", [True, False], ids=["engine", "page-world"])
def test_checks_that_hold_cost_one_call(engine: bool, browser: Browser, playwright: Playwright,
                                        server: LocalServer,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the selector engine (Playwright's world: one ``count`` of the checks'
    selector, no collector call), or without it (one collector call in the page)."""
    counts: list[str] = []
    count = Locator.count

    def counted(self: Locator) -> int:
        counts.append(str(self))
        return count(self)

    monkeypatch.setattr(Locator, "count", counted)
    if engine:
        with_engine(playwright)
    context = browser.new_context()
    if not engine:
        without_engine(context)
    try:
        page = context.new_page()
        server.pages["/notes"] = PAGE
        page.goto(server.url + "/notes")
        page.get_by_text("Saved").wait_for()  # the page as it ends up
        replayer = Counted(page, timeout_ms=2000)
        within = Fingerprint(tag="ul", css="#notes")
        replayer.run_checks([text("Notes"), Check(expect="count", count=2, within=within),
                             Check(expect="text", text="Two", within=within),
                             Check(expect="url", path="/notes"), text("Saved")], "Step 1")
    finally:
        context.close()
    assert replayer.waits == []
    assert (len(counts), replayer.calls) == ((1, 0) if engine else (0, 1))


@pytest.mark.parametrize("engine", [True, False], ids=["engine", "page-world"])
def test_a_check_that_does_not_hold_yet_is_polled_at_expects_intervals(
        engine: bool, browser: Browser, playwright: Playwright, server: LocalServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the selector engine, a check that does not hold yet is waited for by
    Playwright's ``expect`` in the driver (one call, at its own intervals, as exported code
    waits); without it, polled from here at the same intervals."""
    expects: list[str] = []
    to_have_count = LocatorAssertions.to_have_count

    def counted(self: LocatorAssertions, *args: Any, **kwargs: Any) -> None:
        expects.append(str(args))
        to_have_count(self, *args, **kwargs)

    monkeypatch.setattr(LocatorAssertions, "to_have_count", counted)
    if engine:
        with_engine(playwright)
    context = browser.new_context()
    if not engine:
        without_engine(context)
    try:
        page = context.new_page()
        server.pages["/notes"] = PAGE
        page.goto(server.url + "/notes")
        replayer = Counted(page, timeout_ms=5000)
        replayer.run_checks([text("Notes"), text("Saved"), text("Two")], "Step 1")
        assert page.get_by_text("Saved").count() == 1  # it was waited for
    finally:
        context.close()
    if engine:  # the first try missed: each check then one expect, no wait from here
        assert replayer.waits == [] and len(expects) == 3 and replayer.calls == 0
        return
    # expect's own intervals, in order, until the text came (about 900 ms after load): tried
    # again at once (no wait), then after 20, 50, 100, 100, 500, 500... ms
    assert POLL_MS == (0, 20, 50, 100, 100, 500)
    expected = [20, 50, 100, 100, 500, 500, 500]
    assert len(replayer.waits) >= 4 and replayer.waits == expected[:len(replayer.waits)]
    assert expects == []


def test_intervals_over_a_fifth_of_the_timeout_are_left_out_as_playwright_does() -> None:
    assert backoff(5000) == (0, 20, 50, 100, 100, 500)
    assert backoff(1000) == (0, 20, 50, 100, 100)
    assert backoff(300) == (0, 20, 50)
    assert backoff(10) == (0, 20)  # never a loop of tries without a wait
    assert backoff(0) == (0, 20, 50, 100, 100, 500)  # no timeout: one try


def test_checks_are_waited_for_in_turn_not_credited_for_an_earlier_moment(
        page: Page, server: LocalServer) -> None:
    """"Saving..." shows at first and "Saved" only later: tried together, the second held at
    once, but a check is only credited once those before it hold, and by then it is gone."""
    server.pages["/notes"] = PAGE
    page.goto(server.url + "/notes")
    replayer = Counted(page, timeout_ms=1500)
    with pytest.raises(CheckFailed) as failure:
        replayer.run_checks([text("Saved"), text("Saving...")], "Step 1")
    message = str(failure.value)
    assert message.startswith("Step 1, check 2: expected the page shows text 'Saving...'")
    assert "instead:" in message


def test_a_failing_check_is_named_by_its_number_with_what_the_page_has(notes: Page) -> None:
    replayer = Replayer(notes, timeout_ms=300)
    with pytest.raises(CheckFailed) as failure:
        replayer.run_checks([text("Notes"), text("Three"), text("One")], "Step 2")
    assert str(failure.value).startswith("Step 2, check 2: expected the page shows text "
                                         "'Three'")


def test_a_container_that_is_gone_is_said_in_the_same_call(notes: Page) -> None:
    replayer = Counted(notes, timeout_ms=300)
    gone = Fingerprint(tag="ol", role="list", css="#done")
    ok, instead = replayer.holds(Check(expect="count", count=1, within=gone))
    assert not ok and replayer.calls == 1
    assert instead == "its container list: no visible element matches it"


def test_the_collector_reaches_a_reloaded_and_a_new_document(notes: Page,
                                                             server: LocalServer) -> None:
    replayer = Counted(notes, timeout_ms=2000)
    assert replayer.holds(text("Notes"))[0]
    notes.reload()  # the same URL, a new document: the script is sent again
    assert replayer.holds(text("Notes"))[0]
    server.pages["/other"] = "<p>Elsewhere</p>"
    notes.goto(server.url + "/other")
    assert replayer.holds(text("Elsewhere")) == (True, "")
    assert not replayer.holds(text("Notes"))[0]
