"""``webtask explore`` and ``webtask generate`` end to end on the demo shop, each in its own
process as a user runs them: the plan, the module, its recorded and replayed tests; a test
that fails to record or to replay is left out, never written as passing.

The models are scripts that read the prompts they are shown (``scripted_explorer`` for
exploring and planning, ``scripted_recorder`` for recording): they prove
the machinery, not what a model would do."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from example_suites.demo_shop import DemoShop
from example_suites.demo_shop.mutants import ENV as MUTANT_ENV
from pytest_webtask.explore.plan import load_plan

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "lovelace-1815"  # the demo shop's test user
WEBTASK = Path(sys.executable).with_name("webtask")  # the console script pip installed

CONFTEST = '''
import pytest
from pytest_webtask.testing import scripted_recorder
from pytest_webtask.browser.chromium import launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def webtask_llm():
    return scripted_recorder()
'''


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop(seed=7) as running:
        yield running


Python = Callable[..., subprocess.CompletedProcess[str]]


def runner(python: Python) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``python`` with this module's environment: no CI, no model, the demo password."""
    def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        base: dict[str, str | None] = {"CI": None, "WEBTASK_MODEL": None,
                                       "OPENAI_API_KEY": None, MUTANT_ENV: None,
                                       "PYTHONPATH": str(ROOT),
                                       "WEBTASK_SECRET_PASSWORD": PASSWORD,
                                       "WEBTASK_TIMEOUT": "3"}
        return python(*args, cwd=cwd, env={**base, **env}, timeout=1500)
    return run


def project(tmp_path: Path, conftest: str = CONFTEST) -> Path:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(conftest)
    return tmp_path


def every_file(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)


def test_explore_then_generate_a_suite_that_replays_without_a_model(
        tmp_path: Path, shop: DemoShop, python: Python) -> None:
    run = runner(python)
    root = project(tmp_path)
    # the console script, run by this Python
    explored = run([str(WEBTASK), "explore", shop.url + "/",
                    "--llm", "pytest_webtask.testing:scripted_explorer",
                    "--var", "email=ada@example.com", "--secret", "password",
                    "--allow-writes"], root)
    assert explored.returncode == 0, explored.stdout + explored.stderr
    plan_path = root / "tests" / "webtask-plan.md"
    assert f"wrote 7 flow(s) to {Path('tests/webtask-plan.md')}" in explored.stdout
    plan = load_plan(plan_path)
    assert [f.title for f in plan.flows] == [
        "Search the catalogue", "Filter and sort the list", "Add an item to the cart",
        "Open the details of an item", "Browse to the next page", "Sign in",
        "Checkout validation with an empty form"]
    sign_in = plan.flows[5]
    assert sign_in.secrets == {"password": "WEBTASK_SECRET_PASSWORD"}
    assert sign_in.variables == {"email": "ada@example.com"}
    assert "Please fix the errors below." in plan.flows[6].outcome
    assert plan.app == shop.url + "/" and "### Checkout" in plan.site_map

    generated = run(["-m", "pytest_webtask", "generate",
                     "tests/webtask-plan.md", "--out", "tests/test_app.py"], root)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "7 test(s) kept, recorded and replayed." in generated.stdout
    module = (root / "tests" / "test_app.py").read_text()
    assert module.count("\ndef test_") == 7 and "Left out" not in module
    assert '    """Sign in.\n\n    Plan: webtask-plan.md#sign-in\n' in module
    assert 'password = secret("WEBTASK_SECRET_PASSWORD")' in module
    assert len(list((root / "tests" / "__webtask__" / "test_app").glob("*.yaml"))) == 7
    assert PASSWORD not in every_file(root)

    # with CI set and no model at all, the module passes
    replayed = run(["-m", "pytest", "tests/test_app.py", "-p",
                    "no:cacheprovider", "--webtask-replay-only", "--base-url", shop.url],
                   root, CI="true")
    assert replayed.returncode == 0, replayed.stdout[-3000:]
    assert "7 passed" in replayed.stdout and "LLM: 0 calls" in replayed.stdout
    # that such a module fails on a broken shop: the committed one, made by the same
    # commands, below (test_the_committed_generated_suite_replays_and_fails_on_a_mutant)


FLAKY_CONFTEST = CONFTEST + '''
import os
from example_suites.demo_shop import DemoShop


@pytest.fixture(scope="session")
def base_url():
    # a shop whose search breaks when CI is set: what recorded must still replay
    bugs = {"search_ignored"} if os.environ.get("CI") else set()
    with DemoShop(seed=7, mutants=bugs) as shop:
        yield shop.url
'''

PLAN = """\
# Test plan: by hand

## Search the catalogue

Steps:
1. goto /
2. do: search for {query}

Outcome: the page shows "1 product" and "Blue Oxford Shirt"

Data:
- variable query: oxford

## Open the details of an item

Steps:
1. Go to /
2. click "Details" for "Black Denim Jeans"
3. Check that the page shows "Slim fit, stretch denim."

## Something that is not there

Steps:
1. goto /
2. do: search for {query}

Outcome: the page shows "Unicorn Saddle"

Data:
- variable query: oxford
"""


def test_a_test_that_fails_to_record_or_to_replay_is_left_out_with_its_reason(
        tmp_path: Path, python: Python) -> None:
    run = runner(python)
    root = project(tmp_path, FLAKY_CONFTEST)
    (root / "tests" / "webtask-plan.md").write_text(PLAN)
    generated = run(["-m", "pytest_webtask", "generate",
                     "tests/webtask-plan.md", "--out", "tests/test_app.py",
                     "--llm", "pytest_webtask.testing:scripted_explorer"], root)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "1 test(s) kept, recorded and replayed." in generated.stdout
    assert ("left out test_search_the_catalogue: its replay (CI=true, no model) failed: "
            in generated.stdout)
    assert ("left out test_something_that_is_not_there: its recording failed: "
            in generated.stdout)
    module = (root / "tests" / "test_app.py").read_text()
    assert "# Left out: its replay (CI=true, no model) failed:" in module
    assert "# Left out: its recording failed:" in module and "Unicorn Saddle" in module
    assert "# def test_search_the_catalogue(webtask: WebTask, query: str) -> None:" in module
    # the plain sentences were classified by the model (the scripted one here)
    assert textwrap.dedent('''\
        def test_open_the_details_of_an_item(webtask: WebTask) -> None:
            """Open the details of an item.

            Plan: webtask-plan.md#open-the-details-of-an-item
            """
            webtask.goto("/")
            webtask.do('click "Details" for "Black Denim Jeans"')
            webtask.check('the page shows "Slim fit, stretch denim."')
        ''') in module
    recipes = sorted(p.name for p in (root / "tests" / "__webtask__").rglob("*.yaml"))
    assert recipes == ["test_open_the_details_of_an_item.yaml"]
    again = run(["-m", "pytest", "tests/test_app.py", "-p",
                 "no:cacheprovider", "-q"], root, CI="true")
    assert again.returncode == 0 and "1 passed" in again.stdout, again.stdout[-3000:]


def test_the_committed_generated_suite_replays_and_fails_on_a_mutant(python: Python) -> None:
    """example_suites/generated: what `python -m example_suites.generated.regenerate`
    wrote and kept replays with CI=true and no model, and a broken sort fails it."""
    run = runner(python)
    cmd = ["-m", "pytest", "example_suites/generated", "-p",
           "no:cacheprovider", "-q"]
    clean = run(cmd, ROOT, CI="true")
    assert clean.returncode == 0, clean.stdout[-3000:]
    assert "7 passed" in clean.stdout and "LLM: 0 calls" in clean.stdout
    broken = run(cmd, ROOT, CI="true", **{MUTANT_ENV: "sort_reversed"})
    assert broken.returncode == 1
    assert "FAILED example_suites/generated/test_demo_shop.py::test_filter_and_sort_the_list" \
        in broken.stdout
