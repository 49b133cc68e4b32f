"""--webtask-export of visual tests: a screenshot check becomes ``to_have_screenshot`` with its
baseline copied beside the exported test, and a drawing's point actions become mouse calls
at fractions of the element's box. The exported files run with the plugin disabled: they
pass on the unchanged pages (an animated spinner masked) and fail on mutants, with the
expected, actual and diff pictures written where pytest-playwright keeps a test's output."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from pytest_webtask.recipes.pixels import decode_png
from tests.plugin.conftest import ROOT, Inner

PROJECT_CONFTEST = '''
import re
import pytest
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.testing import ScriptedLLM
from tests.server import LocalServer


class SeeingLLM(ScriptedLLM):
    """A scripted stand-in for a model that takes screenshots (not a model)."""

    supports_images = True


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    server = LocalServer()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def webtask_llm():
    def step(context):
        canvas = re.search(r"(canvas-\\d+)", context.to_text())[1]
        if "tallest" in context.task:
            return {"message": "The chart shows it", "complete": True, "evidence": [{
                "expect": "screenshot", "element": canvas, "text": "March is the tallest bar",
                "masks": [[0.9, 0, 1, 0.1]]}]}  # the spinner
        if context.step == 1:
            return {"message": "An empty canvas", "complete": False, "actions": [{
                "tool": "point", "reason": "Drag from the top-left to the centre",
                "parameters": {"element_id": canvas, "action": "drag", "x": 0.05, "y": 0.05,
                               "to_x": 0.5, "to_y": 0.5}}]}
        return {"message": "A line is drawn", "complete": True, "evidence": [
            {"expect": "text", "text": "1 line(s) drawn"},
            {"expect": "screenshot", "element": canvas, "text": "a line to the centre"}]}

    return SeeingLLM({"step": step})
'''

TESTS = '''
def test_chart(webtask):
    webtask.goto("/chart?spinner=1")
    webtask.check("the chart shows March as the tallest bar")


def test_draw(webtask):
    webtask.goto("/draw")
    webtask.do("draw a line from the top-left to the centre of the canvas")
'''

# What runs the exported files of one folder: tests/pages on a free port as
# pytest-playwright's base_url; MUTANTS redirect the pages the tests open to a mutant of each.
EXPORT_CONFTEST = '''
import pytest
from pytest_webtask.browser.chromium import launch_args
from tests.server import LocalServer

MUTANTS = {mutants!r}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def base_url():
    server = LocalServer()
    if MUTANTS.get("chart"):
        server.redirects["/chart"] = "/chart.html?spinner=1&" + MUTANTS["chart"]
    if MUTANTS.get("draw"):
        server.redirects["/draw"] = "/draw.html?" + MUTANTS["draw"]
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, base_url):
    # (pytest-playwright's is made once per session: each folder's pages on its own server)
    return {{**browser_context_args, "base_url": base_url}}
'''

Python = Callable[..., subprocess.CompletedProcess[str]]


def _run_exported(python: Python, cwd: Path, folders: list[str], out: Path
                  ) -> subprocess.CompletedProcess[str]:
    """The exported tests of ``folders`` in one pytest process with the plugin disabled (each
    folder's own conftest: its own server, its own mutants)."""
    return python("-m", "pytest", "-p", "no:webtask", "-p", "no:xdist", "-p",
                  "no:cacheprovider", "--import-mode=importlib", "-rA", "--output", str(out),
                  *folders, cwd=cwd, timeout=300,
                  env={"PYTHONPATH": str(ROOT), "CI": "true"})


def test_visual_tests_export_and_run_without_the_plugin(inner: Inner, python: Python) -> None:
    inner.pytester.makeconftest(PROJECT_CONFTEST)
    inner.tests(TESTS)
    folder = inner.path / "exported"
    result = inner.run("--webtask-record", f"--webtask-export={folder}")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([f"2 test file(s) written to {folder}*"])

    chart = (folder / "test_shop__test_chart.py").read_text(encoding="utf-8")
    draw = (folder / "test_shop__test_draw.py").read_text(encoding="utf-8")
    for text in (chart, draw):
        assert "pytest_webtask" not in text and "webtask." not in text
        assert ", output_path: str) -> None:" in text
    assert ("to_have_screenshot(page, page.get_by_role('img', name='Sales by month', "
            "exact=True), HERE / 'test_shop__test_chart.py-snapshots' / "
            "'test_chart.1-1.png', output_path, masks=[[0.9, 0.0, 1.0, 0.1]])") in chart
    assert "page.mouse.move(box[\"x\"] + 0.5 * box[\"width\"]" in draw
    # the baselines beside the exported tests are the recipes' own
    for test, picture in (("test_chart", "test_chart.1-1.png"),
                          ("test_draw", "test_draw.1-1.png")):
        copied = folder / f"test_shop__{test}.py-snapshots" / picture
        assert copied.read_bytes() == (inner.recipe(test).parent / picture).read_bytes()

    (folder / "conftest.py").write_text(EXPORT_CONFTEST.format(mutants={}), encoding="utf-8")
    # the unchanged pages, twice (the folder and a copy): the spinner keeps turning under its
    # mask; a bar's height and another ink (a copy with mutants): both exported tests fail,
    # with three pictures each. One process runs the three folders.
    shutil.copytree(folder, inner.path / "again")
    shutil.copytree(folder, inner.path / "mutant")
    (inner.path / "mutant" / "conftest.py").write_text(EXPORT_CONFTEST.format(
        mutants={"chart": "bar=Mar:60", "draw": "ink=%23c53030"}), encoding="utf-8")
    out = inner.path / "test-results"
    proc = _run_exported(python, inner.path, ["exported", "again", "mutant"], out)
    assert proc.returncode == 1, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"\b2 failed, 4 passed\b", proc.stdout.strip().splitlines()[-1]), \
        proc.stdout
    for test in ("test_shop__test_chart.py::test_chart", "test_shop__test_draw.py::test_draw"):
        for unchanged in ("exported", "again"):
            assert re.search(rf"^PASSED {unchanged}/{re.escape(test)}\b", proc.stdout,
                             re.MULTILINE), proc.stdout
        assert re.search(rf"^FAILED mutant/{re.escape(test)}\b", proc.stdout,
                         re.MULTILINE), proc.stdout
    for picture in ("test_chart.1-1", "test_draw.1-1"):
        assert re.search(rf"is not {re.escape(picture)}\.png: [\d,]+ of [\d,]+ pixels differ",
                         proc.stdout), proc.stdout
        for name in ("expected", "actual", "diff"):
            [path] = out.glob(f"*/{picture}-{name}.png")
            assert f"{name}: {path}" in proc.stdout
        diff = decode_png(next(out.glob(f"*/{picture}-diff.png")).read_bytes())
        red = sum(1 for k in range(0, len(diff.rgba), 4)
                  if diff.rgba[k:k + 4] == b"\xff\x00\x00\xff")
        assert red > 20, picture
