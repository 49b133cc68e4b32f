"""One finder (DESIGN decision 17): a replayed ``do`` step and a replayed ``extract`` step
find elements with the same in-page library, so they agree on what is visible and on test
ids. Real Chromium, a local page; the ``do`` replay runs a recorded click through the
replayer, the ``extract`` replay runs an extraction recipe through the executor.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from pytest_webtask.errors import ElementError, ExtractionError
from pytest_webtask.extraction._sync.executor import RecipeExecutor
from pytest_webtask.extraction.model import Bindings, Command, ExtractionRecipe
from pytest_webtask.recipes._sync.replayer import Replayer
from pytest_webtask.recipes.model import RecipeAction, RecipeStep
from pytest_webtask.types import BindingFingerprint, Fingerprint
from tests.server import LocalServer

# Each list holds one item; its button records a click on the item. Two lists are not
# visible to a person: one in a closed <details>, one under opacity 0 (the rule the three
# visibility functions of issue 36 disagreed on: a box, but nothing shown).
PAGE = """<!doctype html><html><body>
<ul id="shown"><li class="row" data-testid="product"><button data-testid="buy"
  onclick="this.textContent='Bought'">Buy Alpha</button></li></ul>
<details><summary>More</summary>
  <ul id="closed"><li class="row"><button
    onclick="this.textContent='Bought'">Buy Beta</button></li></ul>
</details>
<div style="opacity: 0"><ul id="faded"><li class="row"><button
  onclick="this.textContent='Bought'">Buy Gamma</button></li></ul></div>
</body></html>"""

HIDDEN = {"closed": "Buy Beta", "faded": "Buy Gamma"}


@pytest.fixture
def finder_page(page: Page, server: LocalServer) -> Page:
    server.pages["/finder"] = PAGE
    page.goto(server.url + "/finder")
    return page


# The hidden cases must fail, so they wait a short time; the found cases get a timeout a
# loaded machine cannot run past (a click took over 300 ms under nine xdist workers).
MISS_MS, FOUND_MS = 300, 10_000


def replay_click(page: Page, target: Fingerprint, timeout_ms: int = FOUND_MS) -> None:
    step = RecipeStep(kind="do", text="buy it", actions=[RecipeAction(tool="click",
                                                                      target=target)])
    Replayer(page, timeout_ms=timeout_ms).run_step(step, "step 1")


def extract(page: Page, item: str, targets: dict[str, BindingFingerprint] | None = None,
            timeout_ms: int = FOUND_MS) -> list[dict]:
    bindings = Bindings(LIST_ITEM=item, DETAILS_PANEL="button", CLICK_BEHAVIOR="inline")
    recipe = ExtractionRecipe(commands=[
        Command(type="WAIT_FOR", target="list"),
        Command(type="FOR_EACH_ITEM_IN_LIST", body=[Command(type="EXTRACT_DETAILS"),
                                                   Command(type="SAVE")]),
    ])
    executor = RecipeExecutor(page, bindings, timeout_ms=timeout_ms, targets=targets)
    return executor.execute(recipe).items


@pytest.mark.parametrize("where", sorted(HIDDEN))
def test_an_element_people_cannot_see_is_invisible_to_both_replays(finder_page: Page,
                                                                   where: str) -> None:
    name = HIDDEN[where]
    with pytest.raises(ElementError, match="no visible element matches it"):
        replay_click(finder_page, Fingerprint(tag="button", role="button", name=name), MISS_MS)
    with pytest.raises(ExtractionError, match="matches no visible item"):
        extract(finder_page, f"#{where} li.row", timeout_ms=MISS_MS)
    assert finder_page.get_by_text(name).text_content() == name  # nothing was clicked


def test_the_same_items_are_found_by_both_replays(finder_page: Page) -> None:
    """The control: the visible list's item and button are found by both."""
    assert extract(finder_page, "#shown li.row") == [{"text": "Buy Alpha"}]
    replay_click(finder_page, Fingerprint(tag="button", role="button", name="Buy Alpha"))
    assert finder_page.locator("#shown button").text_content() == "Bought"


def test_an_element_with_a_test_id_is_found_by_both_replays(finder_page: Page) -> None:
    """Recorded CSS and names that no longer match: both find the element by its test id
    (one list of test-id attributes in the library)."""
    finder_page.evaluate("""() => {
        const li = document.querySelector('#shown li');
        li.className = 'product-card';  // the binding's CSS (li.item) matches nothing now
        li.querySelector('button').textContent = 'Add Alpha';  // nor the recorded name
    }""")
    recorded = BindingFingerprint(css="li.item", tag="li", role="listitem", test_id="product",
                                  count=1)
    assert extract(finder_page, "li.item", {"LIST_ITEM": recorded}) == [{"text": "Add Alpha"}]
    replay_click(finder_page, Fingerprint(tag="button", test_id="buy", css="#gone > button"))
    assert finder_page.locator("#shown button").text_content() == "Bought"
