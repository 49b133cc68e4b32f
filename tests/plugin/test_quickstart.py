"""The README's quick start, played as a new user would: a fresh project holding only the
README's test file (no conftest.py, no ini), the plugin installed, the demo shop, a
FakeOpenAIServer as the OpenAI-compatible endpoint, and only a system Chromium (no Playwright
build). The first run records and writes the recipe the README shows; a run with CI=true and
no model replays it.

The endpoint answers from the script below: the recipe it leads to is the README's
illustration, and the README says so. It is not a model's recording."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from example_suites.demo_shop import DemoShop
from pytest_webtask.testing import FakeOpenAIServer
from tests.plugin.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
START = README.index("## Quick start")
SECTION = README[START:README.index("\n## ", START)]
FENCES = re.findall(r"^```(\w*)\n(.*?)^```", SECTION, re.S | re.M)

# What the endpoint answers, in order: the do step's two agent steps, then the check's one.
SCRIPT = [
    {"complete": False, "message": "Choosing the size, then adding the shirt", "actions": [
        {"reason": "Choose size M on the Blue Oxford Shirt card", "tool": "select",
         "parameters": {"element_id": "select-3", "value": "M"}},
        {"reason": "Add the shirt to the cart", "tool": "click",
         "parameters": {"element_id": "button-4"}}]},
    {"complete": True, "message": "The cart holds the Blue Oxford Shirt in size M",
     "evidence": ["Blue Oxford Shirt", "Size M"]},
    {"complete": True, "message": "The cart total is $39.00",
     "evidence": ["Total: $39.00"]},
]


def _block(language: str, containing: str) -> str:
    found = [body for lang, body in FENCES if lang == language and containing in body]
    assert len(found) == 1, f"the quick start has one {language} block with {containing!r}"
    return found[0]


def test_the_quick_start_records_then_replays_in_ci(
        pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    pytester = pytester_process  # the user's own pytest process
    system = shutil.which("chromium") or shutil.which("google-chrome")
    if system is None:
        pytest.skip("needs a system Chromium on PATH")
    test_file = _block("python", "def test_")
    recipe_shown = yaml.safe_load(_block("yaml", "version:"))
    replay_shown = _block("", "CI=true pytest")
    record_command = "pytest --base-url http://127.0.0.1:8800"
    assert record_command in SECTION and "python -m example_suites.demo_shop" in SECTION

    # the user's project: the README's test file and nothing else
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_shop.py").write_text(test_file, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path_factory.mktemp("none")))
    for name in ("CI", "WEBTASK_CHROMIUM", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)

    with DemoShop(seed=3) as shop, FakeOpenAIServer(list(SCRIPT)) as endpoint:
        args = ["-p", "no:cacheprovider", "--base-url", shop.url]
        # the llama.cpp line of the quick start, pointed at the fake endpoint
        monkeypatch.setenv("WEBTASK_MODEL", "local")
        monkeypatch.setenv("OPENAI_BASE_URL", endpoint.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "none")
        recorded = pytester.runpytest_subprocess(*args, timeout=300)
        recorded.assert_outcomes(passed=1)
        recorded.stdout.fnmatch_lines([
            f"webtask: Playwright's own Chromium is not installed; using the system one at "
            f"{system}*", "0 step(s) replayed, 2 recorded, 0 failed", "LLM: 3 call(s), *"])
        assert len(endpoint.requests) == 3
        assert endpoint.requests[0]["model"] == "local"

        recipe = pytester.path / "tests" / "__webtask__" / "test_shop" / "test_add_to_cart.yaml"
        written = yaml.safe_load(recipe.read_text(encoding="utf-8"))
        assert written == recipe_shown, (
            "the README's quick-start recipe is not what the record path writes: update it "
            "from this run's recipe:\n" + recipe.read_text(encoding="utf-8"))

        # CI: no model at all
        monkeypatch.setenv("CI", "true")
        for name in ("WEBTASK_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
            monkeypatch.delenv(name)
        replayed = pytester.runpytest_subprocess(*args, timeout=300)
    replayed.assert_outcomes(passed=1)
    shown = [line for line in replay_shown.splitlines()
             if line.startswith(("tests/", "2 step", "LLM"))]
    assert len(shown) == 3
    replayed.stdout.fnmatch_lines([line.split("[")[0].rstrip() + "*" for line in shown])
    assert len(endpoint.requests) == 3  # the replay asked nothing


def test_the_quick_start_names_a_model_line_per_endpoint() -> None:
    lines = _block("", "WEBTASK_MODEL=").splitlines()
    kinds = [line.rsplit("#", 1)[1].strip() for line in lines]
    assert kinds == ["OpenAI", "Ollama", "llama.cpp server", "vLLM"]
    for line in lines:
        assert line.startswith("export WEBTASK_MODEL=") and "OPENAI_API_KEY=" in line
    # the illustration says what it is
    assert "This recipe is an illustration" in SECTION and "scripted" in SECTION
    assert Path(__file__).name in SECTION
