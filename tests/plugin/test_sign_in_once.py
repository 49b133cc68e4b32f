"""``webtask_sign_in``: a recorded sign-in runs once per xdist worker, its storage state
(saved in pytest's temp dir) starts every test signed in, and it is replayed, not recorded
again, when the state expires. Inner projects on the demo shop with a ScriptedLLM."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pytest_webtask.plugin.sign_in import expired
from tests.plugin.conftest import Inner

PASSWORD = "lovelace-1815"

SIGN_IN_CONFTEST = '''
import os
from pathlib import Path
import pytest

LOG = Path(__file__).with_name("sign_ins.log")


def sign_in(webtask):
    with LOG.open("a") as fh:  # counted: once per worker
        fh.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ["SHOP_PASSWORD"]})


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, webtask_sign_in):
    return {**browser_context_args, "storage_state": webtask_sign_in(sign_in)}


@pytest.fixture(scope="session")
def base_url():  # the demo shop, with the bugs in SHOP_MUTANTS and SHOP_VARIANTS
    from example_suites.demo_shop import DemoShop

    mutants = {m for m in os.environ.get("SHOP_MUTANTS", "").split(",") if m}
    variants = {v for v in os.environ.get("SHOP_VARIANTS", "").split(",") if v}
    shop = DemoShop(seed=3, mutants=mutants, variants=variants).start()
    yield shop.url
    shop.stop()
'''

FOUR_TESTS = "\n".join(f'''
def test_signed_in_{n}(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")
''' for n in range(4))

SCRIPTS = {
    "sign in as {email}": [
        {"complete": False, "message": "sign in", "actions": [
            {"reason": "email", "tool": "fill",
             "parameters": {"element_id": "input-0", "value": "{email}"}},
            {"reason": "pw", "tool": "fill",
             "parameters": {"element_id": "input-1", "value": "{password}"}},
            {"reason": "go", "tool": "click", "parameters": {"element_id": "button-0"}}]},
        {"complete": True, "message": "signed in", "evidence": ["Signed in as Ada"]}],
    "Signed in as Ada": [{"complete": True, "message": "yes", "evidence": ["Signed in as Ada"]}],
}


def project(inner: Inner) -> Path:
    inner.scripts(SCRIPTS)
    (inner.path / "conftest_signin.py").write_text(SIGN_IN_CONFTEST)
    # the inner conftest (demo shop, ScriptedLLM) plus the sign-in
    conftest = inner.path / "conftest.py"
    conftest.write_text(conftest.read_text() + "\nfrom conftest_signin import *  # noqa\n")
    inner.tests(FOUR_TESTS, "test_account")
    return inner.path / "sign_ins.log"


@pytest.mark.subprocess
def test_four_tests_on_two_workers_sign_in_once_per_worker_and_replay(inner_process: Inner) -> None:
    inner = inner_process
    log = project(inner)
    env = {"SHOP_PASSWORD": PASSWORD}
    result = inner.run("-n", "2", env=env)
    result.assert_outcomes(passed=4)
    recipe = inner.path / "__webtask__" / "conftest_signin" / "sign_in.yaml"
    assert recipe.exists()
    assert PASSWORD not in recipe.read_text()
    recorded = log.read_text().split()
    # one worker recorded it, the other replayed it: once per worker either way
    assert sorted(recorded) == sorted(set(recorded)) and set(recorded) <= {"gw0", "gw1"}
    assert not list((inner.path / "__webtask__").rglob("*.json"))  # never beside recipes
    assert PASSWORD not in result.stdout.str()

    log.unlink()
    replay = inner.run("-n", "2", env={**env, "CI": "true", "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=4)
    workers = log.read_text().split()
    assert len(workers) == len(set(workers)) and set(workers) <= {"gw0", "gw1"}, workers
    assert inner.llm_calls == 0 or "FORBID_LLM" not in os.environ

    # the shop forgets the sign-in: the sign-in's replay fails, saying why, and no test runs
    # signed out as if it were signed in (one worker: its failure is the same in each)
    log.unlink()
    broken = inner.run("-n", "1", env={**env, "CI": "true", "FORBID_LLM": "1",
                                       "SHOP_MUTANTS": "signin_not_kept"})
    out = broken.stdout.str()
    assert broken.ret != 0
    assert "Replay failed. Step 1 do('sign in as {email}'), check 1: expected the page shows " \
           "text 'Signed in as Ada'" in out, out
    assert PASSWORD not in out


STAY_SIGNED_IN = '''
import json


def test_first(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")


def test_the_session_expires(page, webtask_sign_in):  # (page: run in file order)
    state = webtask_sign_in.folder / "sign_in.json"
    data = json.loads(state.read_text())
    for cookie in data["cookies"]:
        cookie["expires"] = 1  # long past: the browser drops it
    state.write_text(json.dumps(data))


def test_later(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")
'''


def test_an_expired_sign_in_is_replayed_before_the_next_test(inner: Inner) -> None:
    log = project(inner)
    (inner.path / "test_account.py").unlink()
    inner.tests(STAY_SIGNED_IN, "test_expiry")
    env = {"SHOP_PASSWORD": PASSWORD}
    inner.run(env=env).assert_outcomes(passed=3)
    runs = log.read_text().split()
    assert len(runs) == 2 and len(set(runs)) == 1, runs  # recorded, then replayed
    log.unlink()
    calls = inner.llm_calls
    inner.run(env={**env, "CI": "true"}).assert_outcomes(passed=3)
    assert len(log.read_text().split()) == 2
    assert inner.llm_calls == calls  # replayed both times: no model


def test_a_bad_name_is_a_clear_error(inner: Inner) -> None:
    inner.tests('''
def sign_in(webtask):
    pass


def test_it(webtask_sign_in):
    webtask_sign_in(sign_in, name="../escape")
''', "test_bad")
    result = inner.run()
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "webtask_sign_in(name='../escape'): a name is letters, digits" in out
    assert "sign_in.py" not in out.split("webtask_sign_in(name=")[0][-300:]


def test_when_a_saved_state_has_expired(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    assert expired(state, None) == "there is none"
    state.write_text(json.dumps({"cookies": [{"name": "sid", "expires": -1}]}))
    assert expired(state, None) is None  # a session cookie: valid while the run lasts
    assert expired(state, 3600) is None
    os.utime(state, (time.time() - 7200, time.time() - 7200))
    assert expired(state, 3600) == "it is 7200s old (max_age=3600)"
    state.write_text(json.dumps({"cookies": [{"name": "sid", "expires": time.time() - 5}]}))
    assert expired(state, None) == "its cookie 'sid' has expired"



# -- issue 47: what the sign-in left out or got wrong -----------------------------------------

SIGN_IN_IN_A_TEST_MODULE = '''
import os
import pytest


def sign_in(webtask):
    webtask.goto("/signin")
    webtask.do("sign in as {email}", email="ada@example.com",
               secrets={"password": os.environ["SHOP_PASSWORD"]})


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, webtask_sign_in):
    return {**browser_context_args, "storage_state": webtask_sign_in(sign_in)}


def test_signed_in(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")
'''


def test_prune_keeps_a_sign_in_recipe_kept_in_a_test_module_folder(inner: Inner) -> None:
    inner.scripts(SCRIPTS)
    inner.tests(SIGN_IN_IN_A_TEST_MODULE, "test_account")
    env = {"SHOP_PASSWORD": PASSWORD}
    inner.run(env=env).assert_outcomes(passed=1)
    recipe = inner.recipe("sign_in", "test_account")
    assert recipe.exists() and inner.recipe("test_signed_in", "test_account").exists()
    stale = inner.recipe("test_gone", "test_account")  # a recipe whose test is gone
    stale.write_text(inner.recipe("test_signed_in", "test_account").read_text())

    result = inner.run("--webtask-prune", env={**env, "CI": "true"})
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "1 recipe(s) deleted:" in out and "test_gone.yaml" in out, out
    assert not stale.exists()  # pruning works ...
    assert recipe.exists(), out  # ... and leaves the sign-in's recipe
    assert "sign_in.yaml" not in out


def _webtask_properties(junit: Path) -> list[dict[str, object]]:
    import xml.etree.ElementTree as ET

    root = ET.parse(junit).getroot()
    return [json.loads(p.get("value") or "{}") for p in root.iter("property")
            if p.get("name") == "webtask"]


def test_the_summary_and_junit_count_the_sign_in(inner: Inner) -> None:
    project(inner)
    (inner.path / "test_account.py").unlink()
    inner.tests("\n".join(f'''
def test_signed_in_{n}(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")
''' for n in range(2)), "test_two")
    env = {"SHOP_PASSWORD": PASSWORD}
    result = inner.run("--junitxml=junit.xml", env=env)
    result.assert_outcomes(passed=2)
    made = inner.llm_calls  # the sign-in's 2 calls and a check's 1 each
    assert made == 4
    out = result.stdout.str()
    # the sign-in's step and its model calls are in the run's counts
    assert "0 step(s) replayed, 3 recorded, 0 failed" in out, out
    assert f"LLM: {made} call(s)" in out, out
    props = _webtask_properties(inner.path / "junit.xml")
    assert sum(int(p["llm_calls"]) for p in props) == made  # type: ignore[call-overload]
    assert sum(int(p["recorded"]) for p in props) == 3  # type: ignore[call-overload]

    replay = inner.run("--junitxml=junit.xml", env={**env, "CI": "true"})
    replay.assert_outcomes(passed=2)
    assert "3 step(s) replayed, 0 recorded, 0 failed" in replay.stdout.str()
    props = _webtask_properties(inner.path / "junit.xml")
    assert sum(int(p["replayed"]) for p in props) == 3  # type: ignore[call-overload]


def test_a_failing_sign_in_names_the_function_its_recipe_and_the_step(inner: Inner) -> None:
    project(inner)
    (inner.path / "test_account.py").unlink()
    inner.tests(FOUR_TESTS.split("\n\ndef test_signed_in_2")[0], "test_two")
    env = {"SHOP_PASSWORD": PASSWORD}
    inner.run(env=env).assert_outcomes(passed=2)
    broken = inner.run(env={**env, "CI": "true", "SHOP_MUTANTS": "signin_not_kept"})
    broken.assert_outcomes(errors=2)
    out = broken.stdout.str()
    said = ("webtask_sign_in: the sign-in sign_in (conftest_signin.py:9), recipe "
            "__webtask__/conftest_signin/sign_in.yaml, failed at Step 1 do('sign in as "
            "{email}'), so no test can start signed in:")
    assert said in out, out
    assert "check 1: expected the page shows text 'Signed in as Ada'" in out
    assert "Traceback" not in out and "sign_in.py:" not in out  # no plugin traceback
    assert PASSWORD not in out


BANNER_TESTS = '''
import time


def test_first(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")


def test_the_banner_cookie_expires(page):
    time.sleep(2.5)  # the shop's banner cookie lives 2 s; the session cookie lasts


def test_later(webtask):
    webtask.goto("/")
    webtask.check("the page says Signed in as Ada")
'''


def test_an_expired_banner_cookie_is_not_an_expired_sign_in(inner: Inner) -> None:
    log = project(inner)
    (inner.path / "test_account.py").unlink()
    inner.tests(BANNER_TESTS, "test_banner")
    env = {"SHOP_PASSWORD": PASSWORD, "SHOP_VARIANTS": "banner_cookie"}
    inner.run(env=env).assert_outcomes(passed=3)
    assert len(log.read_text().split()) == 1  # signed in once: the banner is not the session
    log.unlink()
    inner.run(env={**env, "CI": "true"}).assert_outcomes(passed=3)
    assert len(log.read_text().split()) == 1


def test_only_the_sign_ins_own_cookies_expire_it(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"cookies": [
        {"name": "sid", "expires": -1},
        {"name": "banner", "expires": time.time() - 5}]}))
    assert expired(state, None) == "its cookie 'banner' has expired"  # none known: any
    assert expired(state, None, own={"sid"}) is None
    state.write_text(json.dumps({"cookies": [
        {"name": "token", "expires": time.time() - 5},
        {"name": "banner", "expires": time.time() - 5}]}))
    assert expired(state, None, own={"token"}) == "its cookie 'token' has expired"
    assert expired(state, None, own=set()) is None  # no cookie of its own: only max_age


def test_computed_is_public() -> None:
    import pytest_webtask
    from pytest_webtask import Computed
    from pytest_webtask.tools.values import Computed as Internal

    assert Computed is Internal and "Computed" in pytest_webtask.__all__
    # passed as a secret, it is one, named by its placeholder, computed afresh each step
    from pytest_webtask.tools.values import computed_or_text

    codes = iter(["111111", "222222"])
    wrapped = Computed(lambda: next(codes))
    first = computed_or_text("code", wrapped, secret=True)
    second = computed_or_text("code", wrapped, secret=True)
    assert isinstance(first, Computed) and isinstance(second, Computed)
    assert (first.name, first.secret, first.value(), first.value()) == \
        ("code", True, "111111", "111111")
    assert second.value() == "222222"
    with pytest.raises(pytest_webtask.WebtaskError, match="pass a plain function"):
        Computed("not a function")  # type: ignore[arg-type]
