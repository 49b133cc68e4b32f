"""--webtask-export: the example suites, exported to plain pytest-playwright tests, pass
against the demo shop with the webtask plugin disabled, and fail against a broken shop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pytest_webtask.export.locators import locator
from pytest_webtask.export.source import Strings
from pytest_webtask.types import Fingerprint

ROOT = Path(__file__).resolve().parent.parent
SECRETS = ("lovelace-1815", "not-the-password")  # the example suites' passwords

# What runs the exported files: the demo shop on a free port as pytest-playwright's
# base_url, and this machine's Chromium. Nothing from pytest-webtask's plugin.
CONFTEST = '''
from __future__ import annotations

import os

import pytest

from example_suites.demo_shop import DemoShop, mutants
from pytest_webtask.browser.chromium import launch_args


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    with DemoShop(seed=7, mutants=mutants.parse(os.environ.get(mutants.ENV, ""))) as shop:
        yield shop.url
'''


def _pytest(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": "",
            "PYTHONPATH": str(ROOT), **env}
    full.pop("WEBTASK_SECRET_PASSWORD", None)
    full.update(env)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, env=full, timeout=900,
                          check=False)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("exported")
    proc = _pytest(["example_suites", "-n", "2", "--webtask-export", str(folder)], ROOT)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    (folder / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    return folder, proc.stdout


def test_every_replayed_example_is_exported_and_extracts_are_named(
        exported: tuple[Path, str]) -> None:
    folder, out = exported
    files = sorted(folder.glob("test_*.py"))
    assert len(files) == 29
    assert f"29 test file(s) written to {folder}" in out
    assert out.count("not exported:") == 2
    assert "test_extract_catalogue[chromium]: it has an extract step" in out
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "pytest_webtask" not in text and "webtask." not in text, path
        for value in SECRETS:
            assert value not in text, f"a secret's value is in {path}"
    sign_in = (folder / "test_account__test_sign_in.py").read_text(encoding="utf-8")
    assert "@pytest.mark.parametrize('email', ['ada@example.com'])" in sign_in
    assert "password = secret('WEBTASK_SECRET_PASSWORD')" in sign_in
    assert ".fill(password)" in sign_in
    assert "get_by_role('button', name='Sign in', exact=True).click()" in sign_in


def test_exported_suites_pass_with_plain_pytest_playwright(exported: tuple[Path, str]) -> None:
    folder, _ = exported
    # one secret name, two values: each test gets its own in the environment
    proc = _pytest(["-p", "no:webtask", "-k", "not wrong_password", "-n", "2", "."], folder,
                   WEBTASK_SECRET_PASSWORD="lovelace-1815")
    assert proc.returncode == 0, proc.stdout[-6000:]
    assert "28 passed" in proc.stdout
    proc = _pytest(["-p", "no:webtask", "-k", "wrong_password", "."], folder,
                   WEBTASK_SECRET_PASSWORD="not-the-password")
    assert proc.returncode == 0, proc.stdout[-6000:]
    assert "1 passed" in proc.stdout


def test_an_exported_test_fails_when_the_app_breaks(exported: tuple[Path, str]) -> None:
    folder, _ = exported
    broken = _pytest(["-p", "no:webtask", "test_order__test_jackets_most_expensive_first.py",
                      "test_state__test_sign_in_button_waits_for_both_fields.py"], folder,
                     WEBTASK_DEMO_MUTANT="sort_reversed,signin_button_enabled",
                     WEBTASK_SECRET_PASSWORD="lovelace-1815")
    assert broken.returncode == 1, broken.stdout[-4000:]
    assert "2 failed" in broken.stdout
    assert "to_contain_text" in broken.stdout  # the order check
    assert "to_be_disabled" in broken.stdout  # the state check


def test_an_exported_test_without_its_secret_says_which_variable_to_set(
        exported: tuple[Path, str]) -> None:
    folder, _ = exported
    proc = _pytest(["-p", "no:webtask", "test_account__test_sign_in.py"], folder)
    assert proc.returncode == 1
    assert "set the environment variable WEBTASK_SECRET_PASSWORD to run this test" in \
        proc.stdout


def test_look_alikes_are_scoped_to_their_card_and_placeholders_become_names() -> None:
    s = Strings({"name": "name"})
    fp = Fingerprint(tag="button", role="button", name="Add to cart", near="Blue {name} Shirt")
    assert locator(fp, s) == (
        "page.locator('*').filter(has_text=re.compile(re.escape('Blue') + r\"\\s*\" + "
        "re.escape(name) + r\"\\s*\" + re.escape('Shirt')))"
        ".filter(has=page.get_by_role('button', name='Add to cart', exact=True)).last"
        ".get_by_role('button', name='Add to cart', exact=True)")
    assert s.expr("Thank you, {name}! {other}") == 'f"Thank you, {name}! {{other}}"'
    assert s.expr("{name}") == "name"
    framed = Fingerprint(tag="input", label="Card number", frame=["iframe#pay"])
    assert locator(framed, s) == \
        "page.frame_locator('iframe#pay').get_by_label('Card number', exact=True)"


def test_one_placeholder_with_two_values_becomes_two_parameters(tmp_path: Path) -> None:
    from pytest_webtask.export.trail import Trail
    from pytest_webtask.export.writer import NotExportable, Writer
    from pytest_webtask.recipes.model import RecipeStep

    box = {"tag": "input", "role": "textbox", "name": "Name"}
    fill = {"tool": "fill", "params": {"value": "{name}"}, "target": box}
    trail = Trail()
    trail.goto("http://127.0.0.1:8000/form")
    for value in ("Ada", "Charles"):
        trail.step(RecipeStep(kind="do", text="type {name}", variables=["name"],
                              actions=[fill]), {"name": value}, {}, {})
    source = Writer(trail, "http://127.0.0.1:8000", tmp_path).source("test_form", "x")
    assert "@pytest.mark.parametrize(('name', 'name_2'), [('Ada', 'Charles')])" in source
    assert "def test_form(page: Page, name: str, name_2: str) -> None:" in source
    assert "page.goto('/form')" in source
    assert ".fill(name)" in source and ".fill(name_2)" in source
    compile(source, "exported.py", "exec")  # valid Python
    recorded = yaml.safe_load((ROOT / "example_suites/__webtask__/test_catalog/"
                               "test_extract_catalogue.yaml").read_text(encoding="utf-8"))
    extract = next(s for s in recorded["steps"] if s["kind"] == "extract")
    trail.step(RecipeStep.model_validate(extract), {}, {}, {})
    with pytest.raises(NotExportable, match="extract step"):
        Writer(trail, None, tmp_path).source("test_form", "x")
