"""Variables and secrets: the secret value appears in no recipe, log, report or prompt."""

from __future__ import annotations

import base64
import zipfile

from playwright.sync_api import Page

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


def test_failure_leaves_message_and_screenshot_as_screenshot_says(inner: Inner) -> None:
    inner.tests('''
def test_total(webtask):
    webtask.goto("/")
    webtask.check("the cart total is $39.00")
''')
    inner.scripts({"the cart total is $39.00": [
        {"complete": False, "impossible": True, "message": "the cart is empty"}]})
    result = inner.run("--screenshot=only-on-failure")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*check failed: Task impossible: the cart is empty*",
                                 "*(step log and screenshot in *test-results*)"])
    folder = next((inner.path / "test-results").iterdir())
    assert "the cart is empty" in (folder / "webtask-failure.txt").read_text()
    assert (folder / "webtask-failure.png").read_bytes()[:4] == b"\x89PNG"
    # pytest-playwright's default, --screenshot=off: the step log, no screenshot
    (folder / "webtask-failure.png").unlink()
    quiet = inner.run()
    quiet.assert_outcomes(failed=1)
    quiet.stdout.fnmatch_lines(["*(step log in *test-results*)"])
    assert not list((inner.path / "test-results").rglob("webtask-failure.png"))


LONG_SECRET = "tok-" + "".join(chr(97 + (i * 7) % 26) for i in range(77))  # 81 characters
TOKEN_TEST = '''
import os


def test_token(webtask):
    webtask.goto("/")
    webtask.do("type the token into the search box", secrets={"token": os.environ["TOKEN"]})
    webtask.check("the page says the token was accepted")
'''
TOKEN_SCRIPTS = {
    "type the token into the search box": [
        {"complete": False, "message": "typing", "actions": [
            {"reason": "token", "tool": "fill",
             "parameters": {"element_id": "input-0", "value": "{token}"}}]},
        {"complete": True, "message": "typed", "evidence": ["Blue Oxford Shirt"]}],
    "the page says the token was accepted": [
        {"complete": False, "impossible": True, "message": "no such message"}],
}


def magenta_pixels(page: Page, png: bytes) -> int:
    """Pixels of Playwright's mask colour (#FF00FF) in a PNG, counted by the browser."""
    page.set_content("<canvas></canvas>")
    return page.evaluate("""async (b64) => {
        const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
        const c = document.querySelector('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, img.width, img.height).data; let n = 0;
        for (let i = 0; i < d.length; i += 4)
            if (d[i] > 240 && d[i + 1] < 20 && d[i + 2] > 240) n++;
        return n; }""", base64.b64encode(png).decode())


def test_secret_stays_masked_in_later_steps_and_artifacts(inner: Inner, page: Page) -> None:
    """A secret typed into a plain field in one step: the next step's prompt, the failure
    screenshot, the trace and the reports never show it, not even the part of it that fits
    in the page state's 60-character value."""
    inner.tests(TOKEN_TEST)
    inner.scripts(TOKEN_SCRIPTS)
    result = inner.run("--tracing=retain-on-failure", "--screenshot=only-on-failure",
                       "--junitxml=report.xml", "-rA", env={"TOKEN": LONG_SECRET})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*check failed: Task impossible: no such message*"])
    prompts = (inner.path / "llm_calls.log").read_text().split("\n=====\n")
    # the check's own prompt (the do's shows the statement too: the test-checks rule)
    check_prompt = next(p for p in prompts if "true: the page says the token was accepted" in p)
    assert 'value="••••"' in check_prompt  # the field that received it, masked
    for text in prompts:
        assert LONG_SECRET[:20] not in text
    assert LONG_SECRET[:20] not in result.stdout.str()
    folder = next((inner.path / "test-results").iterdir())
    traces = list(folder.glob("*.zip"))
    assert traces, list(folder.iterdir())
    with zipfile.ZipFile(traces[0]) as trace:
        names = trace.namelist()
        assert any(n.endswith(".trace") for n in names)
        for name in names:
            assert LONG_SECRET.encode() not in trace.read(name), name
    assert LONG_SECRET not in inner.all_text()
    # the failure screenshot masks the field showing the secret
    assert magenta_pixels(page, (folder / "webtask-failure.png").read_bytes()) > 500


def test_secret_in_the_tests_own_failure_is_masked_in_terminal_and_junit(inner: Inner) -> None:
    inner.tests(TOKEN_TEST.replace(
        '    webtask.check("the page says the token was accepted")\n',
        '    print("debug:", os.environ["TOKEN"])\n'
        '    assert webtask.page.input_value("input[type=search]") == "something else"\n'))
    inner.scripts(TOKEN_SCRIPTS)
    result = inner.run("--junitxml=report.xml", "-rA", env={"TOKEN": LONG_SECRET})
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "AssertionError" in out and "{token}" in out
    assert LONG_SECRET[:20] not in out
    junit = (inner.path / "report.xml").read_text()
    assert "{token}" in junit and LONG_SECRET[:20] not in junit
