"""Framework-style widgets, recorded through the real path (ScriptedLLM) and replayed:
hover-only controls, dialogs, double-click editing, custom checkboxes, drag and drop, new
tabs, a 500-row table. Each has a variant of the page where the replay must fail."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser, Page

from example_suites.demo_shop import DemoShop
from pytest_webtask import Agent, WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

# A reply from (page state, step number); it reads ids off the page as a model would.
Reply = Callable[[str, int], dict[str, Any]]


def act(tool: str, **params: object) -> dict[str, Any]:
    return {"reason": tool, "tool": tool, "parameters": params}


def step(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"complete": False, "message": "working", "actions": list(actions)}


def done(*evidence: str) -> dict[str, Any]:
    return {"complete": True, "message": "done", "evidence": list(evidence)}


def id_of(page: str, pattern: str) -> str:
    """The element id on the first page-state line matching ``pattern``."""
    found = re.search(r"- (?:\w+ > )*([a-z0-9]+-\d+)[^\n]*" + pattern, page)
    assert found, f"no line matches {pattern!r} in:\n{page}"
    return found.group(1)


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop() as running:
        yield running


class Flow:
    """Runs one ``do`` on a widgets page in a fresh context, recording or replaying."""

    def __init__(self, browser: Browser, shop: DemoShop, tmp_path: Path, start: str,
                 task: str, replies: list[Reply], **variables: str) -> None:
        self.browser, self.shop, self.start, self.task = browser, shop, start, task
        self.replies, self.variables = replies, variables
        self.recipe = tmp_path / "flow.yaml"
        self.prompts: list[str] = []

    def reply(self, context: ModelRequest) -> dict[str, Any]:
        history = next(b.text for b in context.blocks if b.text.startswith("Step History:"))
        n = len(re.findall(r"^Step \d+:$", history, flags=re.MULTILINE))
        page = context.blocks[-1].text
        self.prompts.append("\n\n".join(b.text for b in context.blocks))
        # a done refused or advised is a step of the history: the last reply again
        return self.replies[min(n, len(self.replies) - 1)](page, n)

    def run(self, mode: str, variants: set[str] | None = None,
            after: Callable[[WebTask], None] | None = None, **variables: str) -> WebTask:
        self.shop.variants = set(variants or ())
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode, base_url=self.shop.url,
                              llm=ScriptedLLM(self.reply), test_name="flow",
                              timeout=1.5) as task:
                task.goto(self.start)
                task.do(self.task, **{**self.variables, **variables})
                if after is not None:
                    after(task)
        finally:
            context.close()
        return task

    def actions(self) -> list[dict[str, Any]]:
        return yaml.safe_load(self.recipe.read_text())["steps"][0]["actions"]

    def replay_fails(self, variants: set[str]) -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run("replay", variants)
        return str(failure.value)


def todo_titles(task: WebTask) -> list[str]:
    return task.page.locator(".todo-list label").all_inner_texts()


# -- hover, dialogs -------------------------------------------------------------------------

DELETE = [
    lambda page, n: step(act("hover", element_id=id_of(page, r'\n\s+- span-\d+ [^\n]*label="Beta"')
                                                    .replace("span", "li"))),
    # the delete button appeared under the pointer; clicking it without an answer ready
    lambda page, n: step(act("click", element_id=id_of(page, 'aria-label="Delete Beta"'))),
    lambda page, n: step(act("dialog", accept=True),
                         act("click", element_id=id_of(page, 'aria-label="Delete Beta"'))),
    lambda page, n: done("3 items left"),
]


def test_hover_reveals_delete_and_dialogs_are_answered_and_replayed(
    browser: Browser, shop: DemoShop, tmp_path: Path
) -> None:
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "delete Beta", DELETE)
    task = flow.run("record", after=lambda t: assert_titles(t, ["Alpha", "Gamma", "Delta"]))
    assert task.stats.recorded == 1
    first, after_hover, after_dismiss, last = flow.prompts
    # hover-only: not rendered until hovered, but its row says what hovering reveals
    assert '- li-1 (draggable hover-reveals="Delete Beta")' in first
    assert 'aria-label="Delete Beta"' not in first
    assert '(type="button" aria-label="Delete Beta") "×"' in after_hover
    # the unanswered confirm was dismissed, and the model is told so twice
    assert ("A confirm dialog asked 'Delete Beta?': dismissed, as no answer was set "
            "beforehand. To accept it, call the dialog tool with accept=true") in after_dismiss
    assert "A dialog asked: 'Delete Beta?' (confirm); it was dismissed." in after_dismiss
    assert "A dialog asked: 'Delete Beta?' (confirm); it was accepted." in last
    assert '- "3 items left"' in last  # <strong>3</strong>, " ", "items left" as rendered

    # no "dialog" action; and not the click whose confirm was dismissed by default: it
    # changed nothing, so a replay would only click it to be told no every time
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["hover", "click"]
    assert actions[1]["dialogs"] == [{"type": "confirm", "message": "Delete Beta?",
                                      "accept": True}]

    replayed = flow.run("replay", after=lambda t: assert_titles(t, ["Alpha", "Gamma", "Delta"]))
    assert replayed.stats.replayed == 1 and replayed.stats.llm_calls == 0


def assert_titles(task: WebTask, titles: list[str]) -> None:
    assert todo_titles(task) == titles


@pytest.mark.parametrize(("variant", "expected"), [
    ("no_confirm", "expected a confirm dialog 'Delete Beta?', but no dialog appeared within "
                   "1.5s"),
    ("other_confirm", "expected a confirm dialog 'Delete Beta?'; instead the page opened a "
                      "confirm dialog 'Remove Beta for good?' (dismissed)"),
    ("no_hover", "action 2 (click): expected button \"Delete Beta\"; no visible element "
                 "matches it"),
])
def test_dialog_and_hover_replays_fail_clearly(browser: Browser, shop: DemoShop, tmp_path: Path,
                                               variant: str, expected: str) -> None:
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "delete Beta", DELETE)
    flow.run("record")
    message = flow.replay_fails({variant})
    assert message.startswith("Replay failed. Step 1 do('delete Beta')"), message
    assert expected in message, message


def test_unexpected_dialog_fails_the_replay(browser: Browser, shop: DemoShop,
                                            tmp_path: Path) -> None:
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "delete Beta", DELETE)
    flow.run("record")
    flow.recipe.write_text(re.sub(r"\n\s+dialogs:\n(\s+- |\s+)[^\n]*(\n\s+[a-z]+: [^\n]*)*",
                                  "", flow.recipe.read_text()))
    assert "dialogs" not in flow.recipe.read_text()
    message = flow.replay_fails(set())
    assert ("action 2 (click) on button \"Delete Beta\": the page opened a confirm dialog "
            "'Delete Beta?' (dismissed), which the recording did not see") in message


def test_prompt_dialog_answer_is_a_placeholder(browser: Browser, shop: DemoShop,
                                               tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("dialog", accept=True, text="{name}"),
                             act("click", element_id=id_of(page, '"Rename list"'))),
        lambda page, n: done("Groceries"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "rename the list to {name}",
                replies, name="Groceries")
    flow.run("record")
    click = flow.actions()[0]
    assert click["dialogs"] == [{"type": "prompt", "message": "New name for the list?",
                                 "accept": True, "text": "{name}"}]
    flow.run("replay", name="Chores", after=lambda t: expect_title(t, "Chores"))


def expect_title(task: WebTask, title: str) -> None:
    assert task.page.locator("#title").inner_text() == title


# -- double-click, keys, custom checkboxes, drag ------------------------------------------------

def test_double_click_to_edit_with_enter(browser: Browser, shop: DemoShop,
                                         tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("double_click", text="Gamma")),
        lambda page, n: step(act("fill", element_id=id_of(page, 'label="Edit Gamma"|aria-label='
                                                            '"Edit Gamma"'), value="Gamma ray"),
                             act("press", element_id=id_of(page, 'aria-label="Edit Gamma"'),
                                 key="Enter")),
        lambda page, n: done("Gamma ray"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "rename Gamma to Gamma ray", replies)
    flow.run("record")
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["double_click", "fill", "press"]
    assert actions[0]["params"] == {"text": "Gamma"}
    assert actions[0]["target"]["tag"] == "label"
    flow.run("replay", after=lambda t: assert_titles(t, ["Alpha", "Beta", "Gamma ray", "Delta"]))


def test_escape_cancels_an_edit_and_key_combinations_work(browser: Browser, shop: DemoShop,
                                                          tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("double_click", text="Alpha")),
        lambda page, n: step(act("press", element_id=id_of(page, 'aria-label="Edit Alpha"'),
                                 key="Control+A"),
                             act("press", key="Backspace"), act("press", key="Escape")),
        lambda page, n: done("Alpha"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "start editing Alpha, then cancel",
                replies)
    flow.run("record", after=lambda t: assert_titles(t, ["Alpha", "Beta", "Gamma", "Delta"]))
    flow.run("replay", after=lambda t: assert_titles(t, ["Alpha", "Beta", "Gamma", "Delta"]))


def test_custom_checkbox_check_and_uncheck(browser: Browser, shop: DemoShop,
                                           tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("check", element_id=id_of(page, 'label="Alpha"'))),
        # each click re-renders the list (new elements, new ids), so one action per step
        lambda page, n: step(act("check", element_id=id_of(page, 'label="Beta"'))),
        lambda page, n: step(act("uncheck", element_id=id_of(page, 'label="Alpha" checked'))),
        lambda page, n: done("3 items left"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "complete Beta only", replies)
    flow.run("record")
    assert 'span-0 (role="checkbox" label="Alpha" checked)' in flow.prompts[1]
    actions = flow.actions()
    assert [a["tool"] for a in actions] == ["check", "check", "uncheck"]
    assert "3 items left" in flow.prompts[1] and "2 items left" in flow.prompts[2]
    assert actions[0]["target"]["role"] == "checkbox" and actions[0]["target"]["name"] == "Alpha"

    def beta_done(task: WebTask) -> None:
        checked = task.page.locator("[role=checkbox][aria-checked=true]")
        assert checked.count() == 1 and checked.get_attribute("aria-labelledby") == "todo-1"

    flow.run("replay", after=beta_done)


DRAG = [
    lambda page, n: step(act("drag", element_id=id_of(page, r'\n\s+- span-\d+ [^\n]*label="Delta"')
                                                   .replace("span", "li"),
                             to_element_id="li-0")),
    lambda page, n: done("Delta"),
]


def test_drag_to_reorder(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "move Delta to the top", DRAG)
    flow.run("record", after=lambda t: assert_titles(t, ["Delta", "Alpha", "Beta", "Gamma"]))
    drag = flow.actions()[0]
    assert drag["tool"] == "drag"
    assert drag["target"]["name"] == "Delta" and drag["to"]["name"] == "Alpha"
    assert "params" not in drag  # no element id (to_element_id) in a recipe
    flow.run("replay", after=lambda t: assert_titles(t, ["Delta", "Alpha", "Beta", "Gamma"]))
    message = flow.replay_fails({"no_alpha"})
    assert "action 1 (drag) (drop target): expected listitem \"Alpha\"" in message, message


def test_drag_needs_a_known_drop_target(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("drag", element_id="li-3", to_element_id="li-99")),
        lambda page, n: {"complete": False, "impossible": True, "message": "no such target",
                         "actions": []},
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/todos", "drag nowhere", replies)
    with pytest.raises(pytest.fail.Exception):
        flow.run("record")
    assert "Error: Unknown element id 'li-99'" in flow.prompts[1]


# -- tabs, go back, wait ----------------------------------------------------------------------

def test_new_tab_becomes_the_page_and_replays(browser: Browser, shop: DemoShop,
                                              tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("click", element_id=id_of(page, '"Q2 report"'))),
        lambda page, n: done("Revenue: $1,500"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/reports", "open the Q2 report", replies)

    def on_report(task: WebTask) -> None:
        assert task.page.url.endswith("/widgets/report?quarter=Q2")
        assert len(task.page.context.pages) == 2

    flow.run("record", after=on_report)
    assert "It opened a new tab, now the current one:" in flow.prompts[1]
    assert "Tabs (switch_tab to change): [0] 'Reports'" in flow.prompts[1]
    assert "[1] (current) 'Q2 report'" in flow.prompts[1]
    assert flow.actions()[0]["opens_tab"] is True
    flow.run("replay", after=on_report)
    message = flow.replay_fails({"same_tab"})
    assert ("action 1 (click) on link \"Q2 report\": expected a new tab to open, but none "
            "opened within 1.5s") in message, message


def test_switch_and_close_tabs_go_back_and_wait(browser: Browser, shop: DemoShop,
                                                tmp_path: Path) -> None:
    replies: list[Reply] = [
        lambda page, n: step(act("click", element_id=id_of(page, '"Q1 report"'))),
        lambda page, n: step(act("switch_tab", tab=0)),
        lambda page, n: step(act("close_tab", tab=1), act("switch_tab", tab=3)),
        lambda page, n: step(act("navigate", url="/widgets/todos")),
        lambda page, n: step(act("go_back"), act("wait", text="Q3 report")),
        lambda page, n: step(act("wait", text="Q9 report", seconds=0.3)),
        lambda page, n: done("Q3 report"),
    ]
    flow = Flow(browser, shop, tmp_path, "/widgets/reports", "look at Q1, then come back",
                replies)

    def one_tab(task: WebTask) -> None:
        assert [p.url for p in task.page.context.pages] == [task.page.url]
        assert task.page.url.endswith("/widgets/reports")

    flow.run("record", after=one_tab)
    assert "[0] (current) 'Reports'" in flow.prompts[2]
    assert "Tabs (switch_tab" not in flow.prompts[3]
    assert "Error: switch_tab: there is no tab 3; 1 tab(s) are open (0 to 0)." in flow.prompts[3]
    assert "Error: 'Q9 report' did not appear within 0.3s." in flow.prompts[6]
    tools = [a["tool"] for a in flow.actions()]
    assert tools == ["click", "switch_tab", "close_tab", "navigate", "go_back", "wait"]
    flow.run("replay", after=one_tab)


# -- a long page ------------------------------------------------------------------------------

def test_long_table_find_then_act(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    def close_420(page: str, n: int) -> dict[str, Any]:
        return step(act("find", text="Ticket 420"))

    def click_found(page: str, n: int) -> dict[str, Any]:
        # the cell showing the text first, then the controls of its row
        found = re.search(r"Output: 2 element\(s\) match text 'Ticket 420':\n"
                          r'- text-0 "Ticket 420" in "Ticket 420 [^\n]*\n'
                          r"- (button-\d+) [^\n]*\"Close\" in \"Ticket 420 ", flow.prompts[-1])
        assert found, flow.prompts[-1]
        return step(act("click", element_id=found.group(1)))

    flow = Flow(browser, shop, tmp_path, "/widgets/table", "close Ticket 420",
                [close_420, click_found, lambda page, n: done("1 of 500 tickets closed")])

    def closed(task: WebTask) -> None:
        row = task.page.locator("tr", has_text="Ticket 420 ")
        assert row.locator(".status").inner_text() == "closed"

    flow.run("record", after=closed)
    first = flow.prompts[0].split("Current Page State:")[-1].split("\n---\n")[0]
    assert '- td "Ticket 1"' in first and "Ticket 420" not in first
    assert re.search(r"\[\d+ more rows below, holding \d+ element ids: scroll down, or use "
                     r"find\]", first)
    assert len(first) < 12_000
    assert [a["tool"] for a in flow.actions()] == ["click"]  # find is not replayed
    flow.run("replay", after=closed)


def test_new_tab_outside_the_allowed_origins_is_closed(page: Page, server: LocalServer) -> None:
    elsewhere = server.url.replace("127.0.0.1", "localhost") + "/price"
    server.pages["/away"] = f"<a href='{elsewhere}' target='_blank'>Elsewhere</a>"
    page.goto(server.url + "/away")
    llm = ScriptedLLM([
        step(act("click", element_id="a-0")),
        {"complete": True, "message": "done"},
    ])
    agent = Agent(page, llm, allowed_origins=[server.url])
    result = agent.execute("open elsewhere")
    click = result.steps[0].executions[0]
    assert not click.opened_tab and agent.page is page
    assert page.context.pages == [page]
    # the origin guard stops the popup's request before it leaves; the tab is not followed
    assert f"GET {elsewhere} (navigation). Nothing was sent there" in llm.prompts[1]


def test_beforeunload_is_dismissed_unless_answered(page: Page, server: LocalServer) -> None:
    server.pages["/draft"] = (
        "<input name=draft><a href='/price'>Leave</a><script>addEventListener("
        "'beforeunload', (e) => { if (document.querySelector('input').value) "
        "{ e.preventDefault(); e.returnValue = ''; } })</script>")
    page.goto(server.url + "/draft")
    llm = ScriptedLLM([
        step(act("fill", element_id="input-0", value="unsaved"), act("click", element_id="a-0")),
        step(act("dialog", accept=True), act("click", element_id="a-0")),
        {"complete": True, "message": "done"},
    ])
    result = Agent(page, llm).execute("leave the draft")
    first = result.steps[0].executions[1]
    assert [(d.type, d.accept) for d in first.dialogs] == [("beforeunload", False)]
    assert "A beforeunload dialog asked" in llm.prompts[1]
    assert "/draft" in llm.prompts[1].split("Current Page State:")[-1].splitlines()[1]
    assert [(d.type, d.accept) for d in result.steps[1].executions[1].dialogs] == \
        [("beforeunload", True)]
    assert page.url.endswith("/price")
