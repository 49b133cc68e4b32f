"""Variables and secrets: the secret value appears in no recipe, log, report or prompt."""

from __future__ import annotations

from tests.plugin.conftest import Inner

SECRET = "lovelace-1815"

SIGN_IN_TEST = '''
import os


def test_sign_in(webtask):
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ["SHOP_PASSWORD"]})


def test_sign_in_fails_later(webtask):
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ["SHOP_PASSWORD"]})
    webtask.check("the cart total is $39.00")
'''


def test_secret_never_written(inner: Inner, dist: list[str]) -> None:
    inner.tests(SIGN_IN_TEST)
    inner.scripts({"sign in as {email}": [
        {"complete": False, "message": "sign in", "actions": [
            {"reason": "email", "tool": "fill",
             "parameters": {"element_id": "input-0", "value": "ada@example.com"}},
            {"reason": "pw", "tool": "fill",
             "parameters": {"element_id": "input-1", "value": "{password}"}},
            {"reason": "go", "tool": "click", "parameters": {"element_id": "button-0"}}]},
        {"complete": True, "message": "signed in", "evidence": ["Signed in as Ada"]}],
        "the cart total is $39.00": [
            {"complete": False, "impossible": True, "message": "the cart is empty"}],
    })
    flags = ["-v", "-rA", "--log-level=DEBUG", "--junitxml=report.xml", "--screenshot=on"]
    result = inner.run(*dist, *flags, env={"SHOP_PASSWORD": SECRET})
    result.assert_outcomes(passed=1, failed=1)
    recipe = inner.recipe("test_sign_in").read_text()
    assert "value: '{email}'" in recipe and "value: '{password}'" in recipe
    assert SECRET not in result.stdout.str() + result.stderr.str()
    assert SECRET not in inner.all_text()  # recipes, junit report, screenshots folder, logs
    prompts = (inner.path / "llm_calls.log").read_text()
    assert SECRET not in prompts
    assert "ada@example.com" in prompts  # a variable's value is shown to the model
    # and the replay, which types the secret for real, still signs in
    replay = inner.run(*dist, *flags, env={"SHOP_PASSWORD": SECRET, "CI": "1",
                                           "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=1, failed=1)
    assert SECRET not in replay.stdout.str() + inner.all_text()


def test_failure_leaves_message_and_screenshot(inner: Inner) -> None:
    inner.tests('''
def test_total(webtask):
    webtask.goto("/")
    webtask.check("the cart total is $39.00")
''')
    inner.scripts({"the cart total is $39.00": [
        {"complete": False, "impossible": True, "message": "the cart is empty"}]})
    result = inner.run()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*check failed: Task impossible: the cart is empty*",
                                 "*(step log and screenshot in *test-results*)"])
    folder = next((inner.path / "test-results").iterdir())
    assert "the cart is empty" in (folder / "webtask-failure.txt").read_text()
    assert (folder / "webtask-failure.png").read_bytes()[:4] == b"\x89PNG"
