"""pytester runs of the plugin: an inner project using the demo shop and a ScriptedLLM.

An inner run is in-process (``pytester.runpytest_inprocess``) unless a separate process is
the behaviour under test (xdist's ``-n``, or ``Inner(process=True)``). In-process, the inner
session cannot start a second sync Playwright (the outer session's keeps an event loop in
this thread), so it borrows the outer one, and one browser launched with the same launch
arguments and browser name (``Lender``); what it asks for differently (another browser,
``--headed``, other launch arguments, a remote browser) it launches or connects itself."""

from __future__ import annotations

import json
import os
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


INNER_CONFTEST = '''
import json, os
from pathlib import Path
import pytest
from example_suites.demo_shop import DemoShop
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import ScriptedLLM

SCRIPTS = json.loads(Path(__file__).with_name("scripts.json").read_text())
CALLS = Path(__file__).with_name("llm_calls.log")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    # the demo shop, with the variants (example_suites/demo_shop) named in SHOP_VARIANTS
    variants = {v for v in os.environ.get("SHOP_VARIANTS", "").split(",") if v}
    shop = DemoShop(seed=3, variants=variants).start()
    yield shop.url
    shop.stop()


@pytest.fixture(scope="session")
def webtask_llm():
    if os.environ.get("FORBID_LLM"):
        raise AssertionError("webtask_llm was requested although no step should record")

    def step(context):
        for key, replies in SCRIPTS.items():
            if key in context.task:
                with CALLS.open("a") as fh:
                    fh.write(context.to_text() + "\\n=====\\n")
                return replies[min(context.step - 1, len(replies) - 1)]
        raise KeyError(context.task)

    return ScriptedLLM({"step": step})
'''

ADD_SHIRT = [
    {"complete": False, "message": "pick M and add", "actions": [
        {"reason": "size", "tool": "select",
         "parameters": {"element_id": "select-3", "value": "M"}},
        {"reason": "add", "tool": "click", "parameters": {"element_id": "button-4"}}]},
    {"complete": True, "message": "added", "evidence": ["Blue Oxford Shirt", "Size M"]},
]
CART_TOTAL = [{"complete": True, "message": "total ok", "evidence": ["Total: $39.00"]}]
SIGN_IN = [
    {"complete": False, "message": "sign in", "actions": [
        {"reason": "email", "tool": "fill",
         "parameters": {"element_id": "input-0", "value": "{email}"}},
        {"reason": "pw", "tool": "fill",
         "parameters": {"element_id": "input-1", "value": "{password}"}},
        {"reason": "go", "tool": "click", "parameters": {"element_id": "button-0"}}]},
    {"complete": True, "message": "signed in", "evidence": ["Signed in as Ada"]},
]
DEFAULT_SCRIPTS: dict[str, Any] = {
    "add the Blue Oxford Shirt": ADD_SHIRT,
    "the cart total is $39.00": CART_TOTAL,
    "sign in as {email}": SIGN_IN,
}

TWO_TESTS = '''
def test_add(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
    webtask.check("the cart total is $39.00")


def test_add_again(webtask):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


_RECORDED: dict[tuple[str, str, str], dict[Path, bytes]] = {}


class Lender:
    """The outer session's Playwright and browsers, lent to in-process inner runs."""

    def __init__(self, playwright: Any) -> None:
        self.playwright = playwright
        self._browsers: dict[str, Any] = {}

    def browser(self, name: str, launch_args: dict[str, Any]) -> Any:
        key = repr((name, sorted(launch_args.items())))
        browser = self._browsers.get(key)
        if browser is None or not browser.is_connected():
            browser = self._browsers[key] = getattr(self.playwright, name).launch(**launch_args)
        return browser

    def close(self) -> None:
        for browser in self._browsers.values():
            if browser.is_connected():
                browser.close()
        self._browsers.clear()

    def plugin(self) -> Any:
        """A plugin for ``runpytest_inprocess(plugins=...)``: on configure it registers the
        fixtures below, after pytest-playwright (loaded from its entry point), so they win."""
        lender = self

        @pytest.fixture(scope="session")
        def playwright() -> Iterator[Any]:
            yield lender.playwright  # the outer session stops it

        @pytest.fixture(scope="session")
        def browser(launch_browser: Any, browser_name: str, browser_type_launch_args: dict,
                    connect_options: dict | None, pytestconfig: pytest.Config) -> Iterator[Any]:
            if connect_options or pytestconfig.pluginmanager.has_plugin("webtask-remote"):
                remote = launch_browser()  # connects: nothing to lend
                yield remote
                remote.close()
                return
            yield lender.browser(browser_name, browser_type_launch_args)

        fixtures = types.ModuleType("webtask_tests_lent_browser")
        fixtures.playwright = playwright  # type: ignore[attr-defined]
        fixtures.browser = browser  # type: ignore[attr-defined]

        class Register:
            @staticmethod
            def pytest_configure(config: pytest.Config) -> None:
                config.pluginmanager.register(fixtures, "webtask-tests-lent-browser")

        return Register()


class Inner:
    """An inner pytest project in a temp folder."""

    def __init__(self, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                 lender: Lender | None = None, process: bool = False) -> None:
        self.pytester = pytester
        self.path = pytester.path
        self.lender = lender
        self.process = process or lender is None
        monkeypatch.setenv("PYTHONPATH", str(ROOT))
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("WEBTASK_MODEL", raising=False)
        # replays that must fail wait this long for what is gone (the environment is the
        # lowest setting: a test's ini or marker still wins)
        monkeypatch.setenv("WEBTASK_TIMEOUT", "3")
        pytester.makeconftest(INNER_CONFTEST)
        self.scripts(DEFAULT_SCRIPTS)

    def scripts(self, scripts: dict[str, Any]) -> None:
        (self.path / "scripts.json").write_text(json.dumps(scripts))

    def tests(self, source: str, name: str = "test_shop") -> Path:
        return self.pytester.makepyfile(**{name: textwrap.dedent(source)})

    def recorded(self, source: str, name: str = "test_shop") -> None:
        """``tests(source)`` with its recipes in place, as a first passing run leaves them.
        Recorded once per session for the same source and scripts, then copied: tests that
        need recipes as a starting point do not pay for a recording each."""
        self.tests(source, name)
        key = (source, name, (self.path / "scripts.json").read_text())
        if key not in _RECORDED:
            self.run().assert_outcomes(passed=source.count("\ndef test_"))
            folder = self.path / "__webtask__"
            _RECORDED[key] = {p.relative_to(folder): p.read_bytes()
                              for p in folder.rglob("*.yaml")}
            (self.path / "llm_calls.log").unlink(missing_ok=True)
            return
        for rel, data in _RECORDED[key].items():
            target = self.path / "__webtask__" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)

    def run(self, *args: str, env: dict[str, str] | None = None) -> pytest.RunResult:
        """Run pytest on the project: in this process, or in a new one for xdist (``-n``)
        or when this project was made with ``process=True``."""
        old = dict(os.environ)
        os.environ.update(env or {})
        try:
            if self.process or "-n" in args:
                return self.pytester.runpytest_subprocess("-p", "no:cacheprovider", *args,
                                                          timeout=240)
            assert self.lender is not None
            return self.pytester.runpytest_inprocess("-p", "no:cacheprovider", *args,
                                                     plugins=[self.lender.plugin()])
        finally:
            os.environ.clear()
            os.environ.update(old)

    @property
    def llm_calls(self) -> int:
        log = self.path / "llm_calls.log"
        return log.read_text().count("\n=====\n") if log.exists() else 0

    def recipe(self, test: str, module: str = "test_shop") -> Path:
        return self.path / "__webtask__" / module / f"{test}.yaml"

    def all_text(self) -> str:
        """Every file the run left behind, as text (recipes, reports, logs, artifacts);
        not the test sources, which hold the secret by design."""
        out = []
        for p in self.path.rglob("*"):
            if p.is_file() and p.name not in ("scripts.json", "llm_calls.log") \
                    and p.suffix not in (".py", ".pyc"):
                out.append(p.read_bytes().decode("utf-8", "replace"))
        return "\n".join(out)


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, lender: Lender) -> Inner:
    """An inner project whose runs are in this process (xdist's ``-n`` runs excepted)."""
    return Inner(pytester, monkeypatch, lender)


@pytest.fixture
def inner_process(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Inner:
    """An inner project whose every run is a new Python process."""
    return Inner(pytester, monkeypatch, process=True)


@pytest.fixture(params=["serial", pytest.param("xdist", marks=pytest.mark.subprocess)])
def dist(request: pytest.FixtureRequest) -> list[str]:
    """Run once without and once with ``-n 2``: for the tests whose behaviour differs under
    xdist (reports and recipes written from workers, unused recipes on the controller)."""
    return ["-n", "2"] if request.param == "xdist" else []
