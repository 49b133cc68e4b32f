"""The ``test-checks`` rule: a do task is shown the statements the test checks right after it
(read from the test's own source when the step is recorded), so a test of a failure path
tells the model that an error is what the page should show. It shows, never proves: the
claims still have to hold on the page, and a site that accepts the wrong password records
nothing and fails the replay."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pytest_webtask.steps.lookahead import MAX_CHARS, following_checks
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

SOURCE = '''
def test_sync(webtask, other):
    webtask.do("sign in")                                  # line 3
    webtask.check("an error says the password is wrong")
    webtask.check("""the password field
        is marked""")
    other.check("not this test's webtask")
    webtask.check("not reached")


async def test_async(webtask):
    outcome = await webtask.do(                            # line 12
        "press Join")
    await webtask.check("the form says the name is required")
    webtask.goto("/")
    webtask.check("after a goto: not shown")


def test_nested(webtask, name):
    with something():
        webtask.do("open the menu")                        # line 21
        webtask.check(name)                                # not text: the look ends
        webtask.check("never shown")
    webtask.check("outside the block")


def test_none_after(webtask):
    webtask.do("last")                                     # line 28


def test_many(webtask):
    webtask.do("many")                                     # line 32
    webtask.check("one")
    webtask.check("two")
    webtask.check("three")
    webtask.check("four")
    webtask.check("LONG")
'''


def _file(tmp_path: Path, text: str = SOURCE) -> str:
    path = tmp_path / "test_sample.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def test_the_checks_right_after_a_do_are_read_from_the_tests_source(tmp_path: Path) -> None:
    name = _file(tmp_path)
    assert following_checks((name, 3)) == ("an error says the password is wrong",
                                           "the password field is marked")
    # awaited, assigned, the call over two lines: either line finds it; a goto ends the look
    assert following_checks((name, 12)) == following_checks((name, 13)) == (
        "the form says the name is required",)
    assert following_checks((name, 21)) == ()  # a variable's statement is not read
    assert following_checks((name, 28)) == ()
    assert following_checks((name, 32)) == ("one", "two", "three")  # three at most
    # a line that is no step call, a file that does not exist or does not parse: nothing
    assert following_checks((name, 2)) == ()
    assert following_checks((str(tmp_path / "gone.py"), 3)) == ()
    assert following_checks(None) == ()
    broken = tmp_path / "test_broken.py"
    broken.write_text("def test(webtask:\n    webtask.do('x')\n", encoding="utf-8")
    assert following_checks((str(broken), 2)) == ()


def test_the_caller_is_the_tests_line_for_a_sync_and_an_awaited_step() -> None:
    import inspect

    from pytest_webtask.steps.lookahead import caller_of

    class Steps:
        def do(self) -> Any:
            return caller_of()

        async def ado(self) -> Any:
            return caller_of()

    here = inspect.currentframe()
    assert here is not None
    line = here.f_lineno
    assert Steps().do() == (__file__, line + 1)

    async def test() -> Any:
        return await Steps().ado()
    # driven by hand: this process's event loop may already run (pytest-playwright's)
    with pytest.raises(StopIteration) as finished:
        test().send(None)
    assert finished.value.value == (__file__, line + 4)


def test_an_edited_test_file_is_read_again_and_a_long_statement_is_cut(
        tmp_path: Path) -> None:
    name = _file(tmp_path)
    assert following_checks((name, 28)) == ()
    edited = SOURCE.replace('    webtask.do("last")                                     # line 28',
                            '    webtask.do("last")\n    webtask.check("' + "x" * 300 + '")')
    Path(name).write_text(textwrap.dedent(edited), encoding="utf-8")
    stat = os.stat(name)
    os.utime(name, (stat.st_atime, stat.st_mtime + 5))  # a later edit, whatever the clock
    assert following_checks((name, 28)) == ("x" * MAX_CHARS + "...",)


SIGN_IN = """<!doctype html><title>Sign in</title><main><h1>Sign in</h1>
<form onsubmit="event.preventDefault(); const ok = ACCEPTS_ANY;
  const said = document.querySelector('#said'); said.hidden = false;
  said.textContent = ok ? 'Welcome back, Mara' : 'The email or password is incorrect.'">
<label>Email <input name="email" type="email"></label>
<label>Password <input name="password" type="password"></label>
<button>Sign in</button></form><p id="said" role="alert" hidden></p></main>"""
REFUSES, ACCEPTS_ANY = (SIGN_IN.replace("ACCEPTS_ANY", "false"),
                        SIGN_IN.replace("ACCEPTS_ANY", "true"))
TASK = "sign in with email mara@example.org and password not-my-password"
STATEMENT = "an error says the email or password is wrong"
TYPED = {"complete": False, "message": "m", "actions": [
    {"tool": "fill", "parameters": {"element_id": "input-0", "value": "mara@example.org"}},
    {"tool": "fill", "parameters": {"element_id": "input-1", "value": "not-my-password"}},
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
ERROR = {"complete": True, "message": "done", "evidence": [
    {"expect": "text", "text": "The email or password is incorrect."}]}
SHOWN = "Right after this task, the test checks"


def _sign_in(page: Page, server: LocalServer, recipe: Path, html: str, mode: str,
             llm: ScriptedLLM | None = None, **settings: Any) -> Any:
    server.pages["/signin"] = html
    with open_webtask(page, recipe, mode, base_url=server.url, llm=llm, timeout=1.5,
                      **settings) as task:
        task.goto("/signin")
        outcome = task.do(TASK)
        task.check("an error says the email or password is wrong")  # read as text: STATEMENT
    return outcome


def test_a_do_is_shown_the_check_after_it_and_its_recording_fails_where_no_error_shows(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "signin.yaml"
    llm = ScriptedLLM([TYPED, ERROR, ERROR])
    outcome = _sign_in(page, server, recipe, REFUSES, "record", llm)
    assert f"{SHOWN} (later steps, not this task's; the page should show them once the " \
           f"task is done):\n- {STATEMENT}" in llm.prompts[0]
    assert "test-checks" in outcome.result.steps[0].rules
    assert SHOWN not in llm.prompts[2]  # the check is not shown itself
    # what the recipe proves is the page's error, not the statement the model was shown
    text = recipe.read_text()
    assert "The email or password is incorrect." in text and SHOWN not in text
    assert not _replay_fails(page, server, recipe, REFUSES)
    assert "The email or password is incorrect." in _replay_fails(page, server, recipe,
                                                                  ACCEPTS_ANY)
    # a site that takes any password shows no error: told to expect one, the model's claim
    # of it does not hold, and nothing is recorded
    again = tmp_path / "accepting.yaml"
    with pytest.raises(pytest.fail.Exception) as failed:
        _sign_in(page, server, again, ACCEPTS_ANY, "record", ScriptedLLM([TYPED] + [ERROR] * 9),
                 max_llm_calls=4)
    assert "The email or password is incorrect." in str(failed.value)
    assert not again.exists()


def test_the_rule_switched_off_shows_nothing_and_a_replay_reads_no_source(
        page: Page, server: LocalServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = tmp_path / "signin.yaml"
    llm = ScriptedLLM([TYPED, ERROR, ERROR])
    outcome = _sign_in(page, server, recipe, REFUSES, "record", llm, rules_off="test-checks")
    assert SHOWN not in llm.prompts[0] and STATEMENT not in llm.prompts[0]
    assert "test-checks" not in outcome.result.steps[0].rules
    read: list[Any] = []
    import pytest_webtask.steps.lookahead as lookahead
    monkeypatch.setattr(lookahead, "_checks_after", lambda *a: read.append(a) or ())
    _sign_in(page, server, recipe, REFUSES, "replay")
    assert read == []


def _replay_fails(page: Page, server: LocalServer, recipe: Path, html: str) -> str:
    try:
        _sign_in(page, server, recipe, html, "replay")
    except pytest.fail.Exception as failed:
        return str(failed)
    return ""


# -- the next check speaks of the page's answer: the answer is asked about (page-answered) --

AGAIN = {"complete": False, "message": "The sign-in failed; try again.", "actions": [
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
YES = {"message": "Email and password typed, Sign in pressed.", "done": True}
ANSWERED = "The page answered what your actions sent:"


def test_a_do_whose_next_check_speaks_of_the_alert_is_asked_and_fails_where_no_error_shows(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """The task's words expect nothing wrong ("sign in with ..."), but the check right after
    it speaks of the page's alert: the model, reading the error as a failure, is asked once,
    yes or no; its yes records the alert, and the replay fails on a site that takes any
    password."""
    recipe = tmp_path / "signin.yaml"
    llm = ScriptedLLM([TYPED, AGAIN, YES, ERROR])
    outcome = _sign_in(page, server, recipe, REFUSES, "record", llm)
    assert [ANSWERED in p for p in llm.prompts] == [False, False, True, False]
    assert '"The email or password is incorrect."' in llm.prompts[2]
    assert "page-answered" in outcome.result.steps[-1].rules
    assert "The email or password is incorrect." in recipe.read_text()
    assert not _replay_fails(page, server, recipe, REFUSES)
    assert "The email or password is incorrect." in _replay_fails(page, server, recipe,
                                                                  ACCEPTS_ANY)


def test_a_next_check_that_speaks_of_another_thing_or_denies_asks_nothing() -> None:
    from pytest_webtask.agent.guards import speaks_of
    from pytest_webtask.agent.small.hints import expects_answer
    alert = "The email or password is incorrect."
    assert speaks_of(STATEMENT, alert)  # email, password of email, password, wrong, error
    assert speaks_of("the page says the email or password is incorrect", alert)
    assert not speaks_of("the page says Welcome back, Mara", alert)
    assert not speaks_of("no error says the email or password is incorrect", alert)
    assert not speaks_of("the page does not say the password is incorrect", alert)
    assert not speaks_of("", alert)
    # a check expects the alert as its refusal only when it says something is wrong,
    # missing or not allowed
    assert expects_answer(STATEMENT, alert)
    assert expects_answer("the form says the postcode is required", "Postcode is required.")
    assert expects_answer("the form says you must agree to the library's rules",
                          "There is a problem You must agree to the library's rules.")
    # a success's check sharing words with an error: never
    assert speaks_of("the email address is shown in the header", "Enter an email address.")
    assert not expects_answer("the email address is shown in the header",
                              "Enter an email address.")
    assert not expects_answer("no error is shown", "Error: the email is wrong")
    # a check that says an error went away describes a success (the review's cases)
    for gone in ("the error is gone", "the email error disappears",
                 "the error message is hidden", "the error no longer shows"):
        assert not expects_answer(gone, "Error: the email is invalid"), gone
    # one shared word is not the alert ("email" of "email", "confirmed")
    assert not expects_answer("the page says the email must be confirmed",
                              "Email must be valid")
    # "not allowed" is a refusal's own words; a quoted text is the page's, not a denial
    assert expects_answer("spaces are not allowed in the username",
                          "Spaces are not allowed in the username.")
    assert expects_answer('the page says "Password must not be empty"',
                          "Password must not be empty")


def test_the_answers_lines_are_the_new_lines_of_its_alerts() -> None:
    from pytest_webtask.agent.small.hints import answer_lines, page_answers
    before = ('- main-0\n  - p "Full name is required."\n  - div (role="alert")\n'
              '    - p "Old news"\n  - button-0 "Join"')
    after = ('- main-0\n  - div (role="alert")\n    - h2 "There is a problem"\n'
             '    - p "Full name is required."\n    - p "Postcode is required."\n'
             '  - div (role="alert")\n    - p "Old news"\n  - button-0 "Join"')
    answers = page_answers(before, after)
    assert answers == ["There is a problem Full name is required. Postcode is required."]
    # a line the page showed before the task proves nothing the task did; an alert that
    # was there before is not the answer
    assert answer_lines(before, after, answers) == ["There is a problem",
                                                    "Postcode is required."]
    assert answer_lines(before, after, []) == []


def test_a_next_check_of_another_thing_asks_nothing_and_records_nothing(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """Sign-in refused, and the test's next check is "Welcome back": the refusal is the task
    failing, never offered as its outcome."""
    server.pages["/signin"] = REFUSES
    recipe = tmp_path / "signin.yaml"
    llm = ScriptedLLM([TYPED, AGAIN, AGAIN, AGAIN])
    with pytest.raises(pytest.fail.Exception, match="task not completed"):
        with open_webtask(page, recipe, "record", base_url=server.url, llm=llm, timeout=1.5,
                          max_steps=3) as task:
            task.goto("/signin")
            task.do(TASK)
            task.check("the page says Welcome back, Mara")
    assert not any(ANSWERED in p for p in llm.prompts)
    assert not recipe.exists()


STRICT = """<!doctype html><title>Sign in</title><main><h1>Sign in</h1>
<form onsubmit="event.preventDefault(); const f = this;
  const said = document.querySelector('#said'); said.hidden = false;
  const email = f.email.value, password = f.password.value;
  said.textContent = !email || !password ? 'Enter your email and password.'
    : (ACCEPTS_ANY ? 'Welcome back, Mara' : 'The email or password is incorrect.')">
<label>Email <input name="email" type="email"></label>
<label>Password <input name="password" type="password"></label>
<button>Sign in</button></form><p id="said" role="alert" hidden></p></main>"""
STRICT_REFUSES, STRICT_ACCEPTS_ANY = (STRICT.replace("ACCEPTS_ANY", "false"),
                                      STRICT.replace("ACCEPTS_ANY", "true"))
PRESS = {"complete": False, "message": "m", "actions": [
    {"tool": "click", "parameters": {"element_id": "button-0"}}]}
TYPE_ONLY = {"complete": False, "message": "m", "actions": TYPED["actions"][:2]}


def test_an_alert_left_by_an_earlier_send_is_no_answer_to_values_typed_since(
        page: Page, server: LocalServer, tmp_path: Path) -> None:
    """Sign in pressed on the empty form ("Enter your email and password."), then the
    values typed and never sent: that alert answers nothing the typing did. Asked then, a
    yes would record a sign-in that never sent its password and replay green on a site
    that takes any password. The question waits for the answer to the values sent; the
    recording fails where any password is taken."""
    recipe = tmp_path / "signin.yaml"
    llm = ScriptedLLM([PRESS, TYPE_ONLY, AGAIN, PRESS, YES, ERROR])
    _sign_in(page, server, recipe, STRICT_REFUSES, "record", llm)
    assert [ANSWERED in p for p in llm.prompts] == [False, False, False, False, True, False]
    assert '"The email or password is incorrect."' in llm.prompts[4]
    text = recipe.read_text()
    assert "The email or password is incorrect." in text
    assert "Enter your email and password." not in text
    assert not _replay_fails(page, server, recipe, STRICT_REFUSES)
    assert "The email or password is incorrect." in _replay_fails(page, server, recipe,
                                                                  STRICT_ACCEPTS_ANY)
