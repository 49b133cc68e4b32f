"""``lacks-shown``: a do task given up because "the page does not show" something the task
names, while lines of the page state hold it, is answered once with those lines, acting
only. A small model gave up "Find the email by Audrey and forward it to Hedy" saying the page
showed no email by Audrey, on an inbox whose second row was hers. The rule asks a question
and acts on nothing: the next reply is held to every guard, and where the page truly lacks
what the task names the give-up stands."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

from pytest_webtask import Agent
from pytest_webtask.agent.hints import lacking_shown
from pytest_webtask.llm.prompts import get_prompt
from pytest_webtask.testing import ScriptedLLM

INBOX = """<!doctype html><html><body>
<main>
<div id="list">
  <div class="row" onclick="openMail(this)"><b>Hedy</b> Lorem ipsum dolor</div>
  <div class="row" onclick="openMail(this)"><b>Audrey</b> Ridiculus eget</div>
  <div class="row" onclick="openMail(this)"><b>Bob</b> Sed ut perspiciatis</div>
</div>
<div id="mail" hidden>
  <p id="body"></p>
  <button onclick="document.getElementById('fwd').hidden = false">Forward</button>
  <form id="fwd" hidden onsubmit="sent(); return false">
    <label>To <input id="to"></label> <button>Send</button>
  </form>
</div>
<p id="out" role="status"></p>
</main>
<style>.row { cursor: pointer }</style>
<script>
let from = "";
function openMail(row) {
  from = row.querySelector('b').textContent;
  document.getElementById('list').hidden = true;
  document.getElementById('mail').hidden = false;
  document.getElementById('body').textContent = 'Mail from ' + from;
}
function sent() {
  document.getElementById('out').textContent =
    'Forwarded the mail from ' + from + ' to ' + document.getElementById('to').value;
}
</script>
</body></html>"""

TASK = "Find the email by Audrey and forward that email to Hedy."
LACKS = {"complete": False, "impossible": True, "actions": [],
         "message": "The task cannot be done because the page does not show any email by "
                    "Audrey or any way to forward it."}


def _act(*actions: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"complete": False, "message": "m",
            "actions": [{"tool": t, "parameters": p} for t, p in actions]}


def test_the_reading_refutes_a_lack_only_with_what_lines_hold() -> None:
    state = ('- main-0\n  - div-0\n    - div-1 "Hedy Lorem ipsum dolor"\n'
             '    - div-2 "Audrey Ridiculus eget"\n    - div-3 "Bob Sed ut perspiciatis"')
    clause, words, lines = lacking_shown(LACKS["message"], TASK, state) or ("", [], [])
    assert clause == "any email by Audrey or any way to forward it"
    assert words == ["audrey"]  # "email", "forward": on no line; "way": not the task's
    assert lines == ['div-2 "Audrey Ridiculus eget" (in main-0 > div-0)']
    # other ways of saying it lacks something
    for said in ("There is no email from Audrey here.", "No email by Audrey is shown.",
                 "The email by Audrey is not visible on the page.",
                 "I cannot find the email by Audrey.", "I can't see an email by Audrey.",
                 "The page doesn’t show Audrey.", "The email by Audrey isn't shown."):
        assert lacking_shown(said, TASK, state) is not None, said
    # a word of a text the task quotes counts however many lines hold it, the line saying
    # it as quoted first
    tabs = 'Switch between the tabs to find and click on the link "Eget".'
    lorem = "- div-0\n" + "".join(f'  - p "lorem eget dolor {c}"\n' for c in "abcdefgh")
    found = lacking_shown("The page does not offer a link labeled 'Eget'.", tabs,
                          lorem + '  - span-1 "Eget"\n')
    assert found is not None and found[2][0] == 'span-1 "Eget" (in div-0)', found
    # a hyphenated word is the page's two ("sign-in": "Sign in")
    assert lacking_shown("There is no sign-in link.", "go to the sign-in page",
                         '- nav-0\n  - a-0 "Home"\n  - a-1 "Sign in"') is not None


def test_what_claims_no_lack_or_is_no_line_of_the_page_refutes_nothing() -> None:
    state = ('- main-0\n  - div-0\n    - div-1 "Hedy Lorem ipsum dolor"\n'
             '    - div-2 "Audrey Ridiculus eget"')
    # a verb of doing claims no lack, nor a task not done yet
    for said in ("The click did not change the list for Hedy.", "I could not click the row.",
                 "It does not seem to forward the email to Hedy.", "The task is not done yet.",
                 # what lacks ends at a comma or a conjunction: the way to forward
                 "I did not find a way to forward, although I see the email by Audrey."):
        assert lacking_shown(said, TASK, state) is None, said
    # a word the page says only in an id, a tag, a field's value or the cut lines' summary
    assert lacking_shown("There is no name field.", "Enter Hedy in the name field",
                         '- input-0 (type="text" name="q")') is None
    assert lacking_shown("There is no Load more button.", 'Click "Load more"',
                         '- div-0 "x"\n- [12 more items below, holding 12 element ids]') is None
    assert lacking_shown(LACKS["message"], TASK,
                         '- input-0 (type="search" value="Audrey")\n- p "Results"') is None
    # the page saying it has none of it: the give-up may be right
    assert lacking_shown(LACKS["message"], TASK, state + '\n    - p "No email by Audrey"') is None
    assert lacking_shown(LACKS["message"], TASK, '- p "0 results for Audrey"') is None
    # a word of a quoted text that no line says whole counts as any word (nine "account")
    assert lacking_shown("There is no Delete account button.", 'Click "Delete account"',
                         "".join(f'- a-{i} "account {i}"\n' for i in range(9))) is None


def test_no_lack_claimed_or_nothing_shown_refutes_nothing() -> None:
    state = '- div-0\n  - div-1 "Hedy Lorem ipsum"\n  - div-2 "Bob Sed ut"'
    # Audrey is on no line: the give-up may be right
    assert lacking_shown(LACKS["message"], TASK, state) is None
    shown = state + '\n  - div-3 "Audrey Ridiculus"'
    # a reason that claims no lack
    assert lacking_shown("The forward button did nothing.", TASK, shown) is None
    # a word the task does not say ("Ridiculus"), or that many lines hold
    assert lacking_shown("The page does not show Ridiculus.", TASK, shown) is None
    many = "".join(f'\n  - div-{i} "Audrey {i}"' for i in range(10, 17))
    assert lacking_shown(LACKS["message"], TASK, state + many) is None
    # the page showing the task itself holds no email by Audrey
    assert lacking_shown(LACKS["message"], TASK, state + f'\n  - p "Task: {TASK}"') is None


def test_a_give_up_that_the_page_refutes_is_answered_with_its_lines(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([
        _act(("scroll", {"direction": "down"})),
        LACKS,  # doubt-give-up asks first
        LACKS,  # then lacks-shown, naming Audrey's row
        _act(("click", {"element_id": "div-1"})),
        _act(("click", {"element_id": "button-0"})),
        _act(("type", {"element_id": "input-0", "value": "Hedy"}),
             ("click", {"element_id": "button-1"})),
        {"complete": True, "message": "forwarded"},
    ])
    result = Agent(page, llm).execute(TASK, max_steps=6)
    asked = llm.prompts[3]
    # actions only: never "done" on the strength of a question, nor the same give-up again
    offered = json.dumps(llm.calls[3].context.response_schema)
    assert '"impossible"' not in offered and '"complete": {"const": true}' not in offered
    assert "You said the page lacks any email by Audrey or any way to forward it." in asked
    assert "does show 'audrey':\n- div-1 \"Audrey Ridiculus eget\"" in asked, asked[-800:]
    assert "lacks-shown" in result.steps[1].rules
    assert result.completed, result.message
    assert page.locator("#out").inner_text() == "Forwarded the mail from Audrey to Hedy"


def test_a_page_that_lacks_what_the_task_names_keeps_the_give_up(page: Page) -> None:
    """The variant where the give-up is right: no row is Audrey's. Nothing is asked beyond
    doubt-give-up's one question, and the task ends impossible (a recording fails)."""
    page.set_content(INBOX.replace("Audrey", "Ursula"))
    llm = ScriptedLLM([_act(("scroll", {"direction": "down"})), LACKS, LACKS])
    result = Agent(page, llm).execute(TASK, max_steps=6)
    assert not result.completed and result.impossible
    assert len(llm.prompts) == 3
    assert not any("lacks-shown" in s.rules for s in result.steps)


def test_asked_once_per_task_and_switched_off_by_name(page: Page) -> None:
    page.set_content(INBOX)
    llm = ScriptedLLM([_act(("scroll", {"direction": "down"})), LACKS, LACKS,
                       _act(("scroll", {"direction": "up"})), LACKS])
    result = Agent(page, llm).execute(TASK, max_steps=6)
    assert result.impossible  # the later give-up stands: the question is never a loop
    assert sum("lacks-shown" in s.rules for s in result.steps) == 1

    page.set_content(INBOX)
    llm = ScriptedLLM([_act(("scroll", {"direction": "down"})), LACKS, LACKS])
    result = Agent(page, llm, rules_off="lacks-shown").execute(TASK, max_steps=6)
    assert result.impossible and len(llm.prompts) == 3


def test_at_first_sight_it_follows_doubt_first_look_and_a_later_give_up_stands(
        page: Page) -> None:
    """Given up before anything ran: doubt-first-look asks first, then this rule; its
    answer acts, and a give-up at the next step ends the task (doubt-give-up asks once)."""
    page.set_content(INBOX)
    llm = ScriptedLLM([LACKS, LACKS, _act(("scroll", {"direction": "down"})), LACKS, LACKS])
    result = Agent(page, llm).execute(TASK, max_steps=6)
    assert result.impossible and not result.completed
    assert "doubt-first-look" in result.steps[0].rules
    assert "lacks-shown" in result.steps[0].rules
    assert "You said the page lacks" in llm.prompts[2]
    assert not any("lacks-shown" in s.rules for s in result.steps[1:])
    assert len(llm.prompts) == 5


def test_a_check_called_false_is_never_asked_by_it(page: Page) -> None:
    page.set_content(INBOX)
    false = {"complete": False, "impossible": True, "actions": [],
             "message": "The statement is false: the page does not show any email by Audrey."}
    llm = ScriptedLLM([false, false])
    check = get_prompt("agent/proposer", "check_task").format(
        statement="the page shows an email by Audrey")
    result = Agent(page, llm).execute(check, max_steps=3)
    assert not any("lacks-shown" in s.rules for s in result.steps)
    assert not any("You said the page lacks" in p for p in llm.prompts)
