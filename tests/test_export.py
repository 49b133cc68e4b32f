"""--webtask-export: the example suites, exported to plain pytest-playwright tests, pass
against the demo shop with the webtask plugin disabled, and fail against a broken shop."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from pytest_webtask.export.locators import CONTAINER_ROLES, locator
from pytest_webtask.export.source import Strings
from pytest_webtask.types import Fingerprint
from tests.example_run import ExampleRun
from tests.plugin.conftest import Lender

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


Python = Callable[..., subprocess.CompletedProcess[str]]


def _pytest(python: Python, args: list[str], cwd: Path, **env: str
            ) -> subprocess.CompletedProcess[str]:
    return python("-m", "pytest", "-p", "no:cacheprovider", *args, cwd=cwd, timeout=900,
                  env={"CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": "",
                       "PYTHONPATH": str(ROOT), "WEBTASK_SECRET_PASSWORD": None,
                       "WEBTASK_SECRET_TEST_WRONG_PASSWORD_IS_REFUSED_PASSWORD": None, **env})


@pytest.fixture
def exported(example_run: ExampleRun) -> tuple[Path, str]:
    """The example suites' export, from the one run of the suites, with a conftest that
    serves the demo shop to the exported files."""
    assert example_run.returncode == 0, example_run.failure()
    folder = example_run.export
    (folder / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    return folder, example_run.stdout


def _passed(proc: subprocess.CompletedProcess[str]) -> int:
    """How many passed, from the last line, which must name nothing else (no failed,
    errors or skipped)."""
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (\w+)", last))
    counts.pop("deselected", None)
    assert set(counts) == {"passed"}, last
    return counts["passed"]


def test_every_replayed_example_is_exported_and_extracts_are_named(
        example_run: ExampleRun, exported: tuple[Path, str]) -> None:
    folder, out = exported
    files = sorted(folder.glob("test_*.py"))
    assert files
    assert f"{len(files)} test file(s) written to {folder}" in out
    # each passing example test is exported, or named with the reason it is not
    cases = example_run.cases()
    written = [Path(c.export()["path"]) for c in cases if "path" in c.export()]
    left_out = [c for c in cases if "skipped" in c.export()]
    assert sorted(written) == files
    assert len(written) + len(left_out) == len(cases)
    assert out.count("not exported:") == len(left_out) > 0
    assert "test_extract_catalogue[chromium]: it has an extract step" in out
    for case in left_out:  # only a test with an extract step is left out
        assert case.export()["skipped"].startswith("it has an extract step"), case
        recipe = yaml.safe_load(Path(case.properties["webtask_recipe_path"]).read_text())
        assert any(step["kind"] == "extract" for step in recipe["steps"]), case
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "pytest_webtask" not in text and "webtask." not in text, path
        assert text.count("\ndef test_") == 1, path
        for value in SECRETS:
            assert value not in text, f"a secret's value is in {path}"
    sign_in = (folder / "test_account__test_sign_in.py").read_text(encoding="utf-8")
    assert "@pytest.mark.parametrize('email', ['ada@example.com'])" in sign_in
    assert ("password = secret('WEBTASK_SECRET_TEST_SIGN_IN_PASSWORD', "
            "'WEBTASK_SECRET_PASSWORD')") in sign_in
    assert ".fill(password)" in sign_in
    assert "get_by_role('button', name='Sign in', exact=True).click()" in sign_in


def test_exported_suites_pass_with_plain_pytest_playwright(exported: tuple[Path, str],
                                                          python: Python) -> None:
    folder, _ = exported
    files = list(folder.glob("test_*.py"))
    assert files
    # one secret name, two values, one run with every test selected: the test that must be
    # refused reads its own variable, every other test the shared one (which would sign it
    # in: it would fail)
    proc = _pytest(python, ["-p", "no:webtask", "-p", "no:xdist", "."], folder,
                   WEBTASK_SECRET_PASSWORD="lovelace-1815",
                   WEBTASK_SECRET_TEST_WRONG_PASSWORD_IS_REFUSED_PASSWORD="not-the-password")
    assert _passed(proc) == len(files)  # every exported file's one test
    assert "deselected" not in proc.stdout


def _pytest_here(pytester: pytest.Pytester, lender: Lender, folder: Path,
                 *files: str) -> pytest.RunResult:
    """Exported files run in this process, on this session's browser (their own run with
    plain pytest-playwright is the test above)."""
    return pytester.runpytest_inprocess("-p", "no:webtask", "-p", "no:cacheprovider",
                                        *(str(folder / f) for f in files),
                                        plugins=[lender.plugin()])


def test_a_test_reads_its_own_secret_before_the_shared_one(
        exported: tuple[Path, str], pytester: pytest.Pytester, lender: Lender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = exported
    # without its own variable, the refused sign-in gets the right password: it fails
    monkeypatch.setenv("WEBTASK_SECRET_PASSWORD", "lovelace-1815")
    monkeypatch.delenv("WEBTASK_SECRET_TEST_WRONG_PASSWORD_IS_REFUSED_PASSWORD", raising=False)
    result = _pytest_here(pytester, lender, folder,
                          "test_account__test_wrong_password_is_refused.py")
    result.assert_outcomes(failed=1)


def test_an_exported_test_fails_when_the_app_breaks(
        exported: tuple[Path, str], pytester: pytest.Pytester, lender: Lender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = exported
    monkeypatch.setenv("WEBTASK_DEMO_MUTANT", "sort_reversed,signin_button_enabled")
    monkeypatch.setenv("WEBTASK_SECRET_PASSWORD", "lovelace-1815")
    broken = _pytest_here(pytester, lender, folder,
                          "test_order__test_jackets_most_expensive_first.py",
                          "test_state__test_sign_in_button_waits_for_both_fields.py")
    broken.assert_outcomes(failed=2)
    assert "to_contain_text" in broken.stdout.str()  # the order check
    assert "to_be_disabled" in broken.stdout.str()  # the state check


def test_an_exported_test_without_its_secret_says_which_variable_to_set(
        exported: tuple[Path, str], pytester: pytest.Pytester, lender: Lender,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = exported
    monkeypatch.delenv("WEBTASK_SECRET_PASSWORD", raising=False)
    result = _pytest_here(pytester, lender, folder, "test_account__test_sign_in.py")
    result.assert_outcomes(failed=1)
    assert ("set the environment variable WEBTASK_SECRET_TEST_SIGN_IN_PASSWORD or "
            "WEBTASK_SECRET_PASSWORD to run this test") in result.stdout.str()


def test_exported_locators_read_as_a_playwright_user_writes_them(
        exported: tuple[Path, str]) -> None:
    folder, _ = exported
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("test_*.py")))
    assert "page.get_by_role('table').get_by_text('Wool Beanie', exact=True)" in text
    assert ("page.get_by_role('article').filter(has_text=re.compile(re.escape('Blue') + "
            "r\"\\s*\" + re.escape('Oxford') + r\"\\s*\" + re.escape('Shirt')))"
            ".get_by_role('button', name='Add to cart', exact=True).click()") in text
    assert "page.get_by_role('row').filter(has_text=re.compile(re.escape('Ticket')" in text
    assert "page.locator('#details')" in text
    assert "locator('*')" not in text  # every card of the example suites has a role


def test_no_locator_is_a_css_path_where_the_element_has_a_role_and_a_name() -> None:
    """Every element and container the example suites' recipes hold: one with a role and a
    name, or a container role alone, is found by role (or label, test id, id), never by its
    CSS path from the root."""
    found = 0
    for path in (ROOT / "example_suites" / "__webtask__").rglob("*.yaml"):
        steps = yaml.safe_load(path.read_text(encoding="utf-8"))["steps"]
        for fp in _fingerprints([s for s in steps if s["kind"] != "extract"]):
            if (fp.role and fp.name) or fp.role in CONTAINER_ROLES:
                found += 1
                written = locator(fp, Strings({}))
                assert "html >" not in written and "xpath=" not in written, (path, written)
    assert found  # the recipes hold such elements: the rule was applied


def _fingerprints(data: object) -> list[Fingerprint]:
    out = []
    if isinstance(data, dict):
        if "tag" in data and ("css" in data or "xpath" in data):
            out.append(Fingerprint.model_validate(data))
        for value in data.values():
            out.extend(_fingerprints(value))
    elif isinstance(data, list):
        for value in data:
            out.extend(_fingerprints(value))
    return out


def test_containers_and_cards_are_found_by_role() -> None:
    s = Strings({})
    table = Fingerprint(tag="table", role="table", css="html > body > main > table",
                        xpath="/html[1]/body[1]/main[1]/table[1]")
    assert locator(table, s) == "page.get_by_role('table')"
    named = Fingerprint(tag="nav", role="navigation", name="Pages", css="html > body > nav")
    assert locator(named, s) == "page.get_by_role('navigation', name='Pages', exact=True)"
    tested = Fingerprint(tag="div", role="dialog", test_id="cart-dialog", css="body > div")
    assert locator(tested, s) == "page.get_by_test_id('cart-dialog')"
    # a nameless <section> has no role for Playwright: its CSS path it is
    section = Fingerprint(tag="section", css="html > body > main > section")
    assert locator(section, s) == "page.locator('html > body > main > section')"
    # a named one is a region (a chart's section cited for a picture), by role and name;
    # a name that is only its text is no label: still its CSS path
    region = Fingerprint(tag="section", name="Revenue by month", css="body > section")
    assert locator(region, s) == \
        "page.get_by_role('region', name='Revenue by month', exact=True)"
    assert locator(region.model_copy(update={"text": "Revenue by month"}), s) == \
        "page.locator('body > section')"
    figure = Fingerprint(tag="figure", name="Sales chart", css="body > figure")
    assert locator(figure, s) == "page.get_by_role('figure', name='Sales chart', exact=True)"
    # one list item of many, by position: its CSS path, not an ambiguous role
    first = Fingerprint(tag="li", role="listitem", css="html > body > ul > li:nth-of-type(1)")
    assert locator(first, s) == "page.locator('html > body > ul > li:nth-of-type(1)')"
    assert locator(Fingerprint(tag="aside", id="details"), s) == "page.locator('#details')"
    assert locator(Fingerprint(tag="aside", id="2nd"), s) == "page.locator(\"[id='2nd']\")"
    close = Fingerprint(tag="button", role="button", name="Close", near="Ticket 420 Ada",
                        xpath="/html[1]/body[1]/table[1]/tbody[1]/tr[420]/td[4]/button[1]")
    assert locator(close, s) == (
        "page.get_by_role('row').filter(has_text=re.compile(re.escape('Ticket') + r\"\\s*\" + "
        "re.escape('420') + r\"\\s*\" + re.escape('Ada')))"
        ".get_by_role('button', name='Close', exact=True)")
    tick = Fingerprint(tag="input", role="checkbox", near="Beta",
                       xpath="/html[1]/body[1]/ul[1]/li[2]/input[1]")
    assert locator(tick, s) == ("page.get_by_role('listitem').filter(has_text=re.compile("
                                "re.escape('Beta'))).get_by_role('checkbox')")


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


BOX = {"tag": "input", "role": "textbox", "name": "Name"}
GO = {"tag": "button", "role": "button", "name": "Go"}
EL = "page.get_by_role('textbox', name='Name', exact=True)"
CANVAS = {"tag": "canvas", "id": "pad"}
PAD = "page.locator('#pad')"
# Each built-in tool a recipe keeps: a recorded action and the lines the export writes.
TOOL_CODE = [
    ({"tool": "navigate", "params": {"url": "/x?q={name}"}}, ['page.goto(f"/x?q={name}")']),
    ({"tool": "click", "params": {}, "target": GO},
     ["page.get_by_role('button', name='Go', exact=True).click()"]),
    ({"tool": "click", "params": {"text": "Edit {name}"}},
     ['page.get_by_text(f"Edit {name}", exact=True).click()']),
    ({"tool": "fill", "params": {"value": "{pw}"}, "target": BOX}, [f"{EL}.fill(pw)"]),
    ({"tool": "type", "params": {"value": "a {name}"}, "target": BOX},
     [f'{EL}.press_sequentially(f"a {{name}}")']),
    ({"tool": "select", "params": {"value": "Blue"}, "target": BOX},
     [f"{EL}.select_option('Blue')"]),
    ({"tool": "press", "params": {"key": "Enter"}}, ["page.keyboard.press('Enter')"]),
    ({"tool": "press", "params": {"key": "Tab"}, "target": BOX}, [f"{EL}.press('Tab')"]),
    ({"tool": "scroll", "params": {"direction": "up"}}, ["page.mouse.wheel(0, -600)"]),
    ({"tool": "scroll", "params": {}}, ["page.mouse.wheel(0, 600)"]),
    ({"tool": "scroll", "params": {}, "target": BOX}, [f"{EL}.scroll_into_view_if_needed()"]),
    ({"tool": "hover", "params": {"text": "Row"}},
     ["page.get_by_text('Row', exact=True).hover()"]),
    ({"tool": "double_click", "params": {}, "target": BOX}, [f"{EL}.dblclick()"]),
    ({"tool": "check", "params": {}, "target": BOX}, [f"{EL}.check()"]),
    ({"tool": "uncheck", "params": {}, "target": BOX}, [f"{EL}.uncheck()"]),
    ({"tool": "drag", "params": {}, "target": BOX, "to": GO},
     [f"source, target = {EL}, page.get_by_role('button', name='Go', exact=True)",
      "a, b = source.bounding_box(), target.bounding_box()",
      "assert a is not None and b is not None",
      'dx = b["x"] + b["width"] / 2 - a["x"] - a["width"] / 2',
      'dy = b["y"] + b["height"] / 2 - a["y"] - a["height"] / 2',
      'at = ({"x": b["width"] / 2, "y": b["height"] * (0.75 if dy > 0 else 0.25)} '
      'if abs(dy) >= abs(dx) else '
      '{"x": b["width"] * (0.75 if dx > 0 else 0.25), "y": b["height"] / 2})',
      "source.drag_to(target, target_position=at)"]),
    ({"tool": "upload", "params": {"resource_names": ["doc"]}, "target": BOX},
     [f"{EL}.set_input_files([HERE / 'doc.txt'])"]),
    ({"tool": "go_back", "params": {}}, ["page.go_back()"]),
    ({"tool": "point", "params": {"action": "double_click", "x": 0.25, "y": 0.75},
      "target": CANVAS},
     [f"{PAD}.scroll_into_view_if_needed()", f"box = {PAD}.bounding_box()",
      "assert box is not None",
      'page.mouse.dblclick(box["x"] + 0.25 * box["width"], box["y"] + 0.75 * box["height"])']),
    ({"tool": "point", "params": {"action": "drag", "x": 0, "y": 0.1, "to_x": 1, "to_y": 0.5},
      "target": CANVAS},
     [f"{PAD}.scroll_into_view_if_needed()", f"box = {PAD}.bounding_box()",
      "assert box is not None",
      'page.mouse.move(box["x"] + 0.0 * box["width"], box["y"] + 0.1 * box["height"])',
      "page.mouse.down()",
      'page.mouse.move(box["x"] + 1.0 * box["width"], box["y"] + 0.5 * box["height"], '
      "steps=10)", "page.mouse.up()"]),
    ({"tool": "wait", "params": {"text": "Hi {name}", "seconds": 2}},
     ['expect(page.get_by_text(f"Hi {name}").filter(visible=True).first)'
      ".to_be_visible(timeout=2000)"]),
    ({"tool": "wait", "params": {"text": "Hi"}},
     ["expect(page.get_by_text('Hi').filter(visible=True).first).to_be_visible(timeout=5000)"]),
    ({"tool": "switch_tab", "params": {"tab": 1}},
     ["page = page.context.pages[1]", "page.bring_to_front()"]),
    ({"tool": "click", "params": {}, "target": GO, "opens_tab": True,
      "dialogs": [{"type": "confirm", "message": "Sure?", "accept": True},
                  {"type": "prompt", "message": "Name?", "accept": False, "text": "{name}"}]},
     ["answer(page, (True, None), (False, name))",
      "with page.context.expect_page() as new_tab:",
      "    page.get_by_role('button', name='Go', exact=True).click()",
      "page = new_tab.value"]),
]


def _export_action(action: dict[str, object], folder: Path) -> str:
    from pytest_webtask.export.trail import Trail
    from pytest_webtask.export.writer import Writer
    from pytest_webtask.recipes.model import RecipeStep

    trail = Trail()
    trail.step(RecipeStep(kind="do", text="act", variables=["name"], secrets=["pw"],
                          resources=["doc"], actions=[action]),
               {"name": "Ada"}, {"doc": folder / "doc.txt"}, {"pw": "x"})
    return Writer(trail, None, folder).source("test_it", "x")


@pytest.mark.parametrize(("action", "lines"), TOOL_CODE,
                         ids=[f"{a['tool']}-{n}" for n, (a, _) in enumerate(TOOL_CODE)])
def test_each_tool_s_action_is_written_as_its_playwright_call(
        action: dict[str, object], lines: list[str], tmp_path: Path) -> None:
    source = _export_action(action, tmp_path)
    body = source.split("    # do: act\n", 1)[1]
    assert body.splitlines() == ["    " + line for line in lines]
    compile(source, "exported.py", "exec")


@pytest.mark.parametrize(("action", "why"), [
    ({"tool": "fill", "params": {"value": "x"}}, "its 'fill' action has no target element"),
    ({"tool": "drag", "params": {}, "target": BOX}, "its 'drag' action has no drop target"),
    ({"tool": "close_tab", "params": {}}, "the 'close_tab' tool, which the export does not"),
    ({"tool": "stamp", "params": {}, "target": BOX}, "the 'stamp' tool, which the export does"),
    ({"tool": "upload", "params": {"resource_names": ["gone"]}, "target": BOX},
     "its upload names the resource 'gone', which the test did not pass"),
])
def test_an_action_the_export_cannot_write_says_why(
        action: dict[str, object], why: str, tmp_path: Path) -> None:
    from pytest_webtask.export.writer import NotExportable

    with pytest.raises(NotExportable, match=why):
        _export_action(action, tmp_path)


def _picture_step(shot: dict[str, object]) -> object:
    from pytest_webtask.recipes.model import RecipeStep

    return RecipeStep(kind="check", text="the chart shows March", checks=[{
        "expect": "screenshot", "element": {"tag": "canvas", "role": "img",
                                            "name": "Sales"}, "screenshot": shot}])


def test_a_screenshot_check_is_written_with_its_baseline_and_the_same_compare(
        tmp_path: Path) -> None:
    from pytest_webtask.export.trail import Trail
    from pytest_webtask.export.writer import export
    from pytest_webtask.recipes import pixels

    recipes = tmp_path / "recipes"
    recipes.mkdir()
    white = pixels.Picture(4, 2, b"\xff" * 32)
    grey = pixels.Picture(4, 2, b"\xff" * 28 + b"\x80\x80\x80\xff")
    (recipes / "t.1-1.png").write_bytes(pixels.encode_png(white))
    trail = Trail(recipe_folder=recipes)
    trail.goto("http://127.0.0.1:8000/chart")
    trail.step(_picture_step({"file": "t.1-1.png", "shows": "March\nis tallest",
                              "box": [0, 0, 0.5, 1], "masks": [[0.9, 0, 1, 0.1]],
                              "threshold": 0.1}), {}, {}, {})
    path = export(trail, base_url="http://127.0.0.1:8000", folder=tmp_path / "out",
                  test_name="test_chart", module="test_visual", origin="x")
    source = path.read_text(encoding="utf-8")
    assert (path.parent / "test_visual__test_chart.py-snapshots" / "t.1-1.png").read_bytes() \
        == (recipes / "t.1-1.png").read_bytes()
    assert "def test_chart(page: Page, output_path: str) -> None:" in source
    assert "    # the picture shows: March is tallest\n" in source
    assert ("to_have_screenshot(page, page.get_by_role('img', name='Sales', exact=True), "
            "HERE / 'test_visual__test_chart.py-snapshots' / 't.1-1.png', output_path, "
            "box=[0.0, 0.0, 0.5, 1.0], masks=[[0.9, 0.0, 1.0, 0.1]], threshold=0.1)") in source
    assert "pytest_webtask" not in source
    # the file runs on its own: its compare is pixels.py's, with the same verdicts
    spec = importlib.util.spec_from_file_location("exported_chart", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    assert "pytest_webtask.recipes" not in str(module.compare.__module__)
    for threshold in (0.1, 0.5):
        ours = pixels.compare(white, grey, threshold)
        theirs = module.compare(module.decode_png(pixels.encode_png(white)),
                                module.decode_png(pixels.encode_png(grey)), threshold)
        assert (theirs.different, theirs.total) == (ours.different, ours.total)
    assert pixels.compare(white, grey, 0.1).different == 1  # not a vacuous comparison


def test_a_screenshot_check_without_its_baseline_is_not_exported(tmp_path: Path) -> None:
    from pytest_webtask.export.trail import Trail
    from pytest_webtask.export.writer import NotExportable, Writer

    trail = Trail(recipe_folder=tmp_path)
    trail.step(_picture_step({"file": "gone.png"}), {}, {}, {})
    with pytest.raises(NotExportable, match=r"the baseline picture .*gone.png of its "
                       "screenshot check cannot be read"):
        Writer(trail, None, tmp_path).source("test_chart", "x")
    assert not list(tmp_path.glob("*.py"))
