"""Which Chromium a launch gets when it names none (browser/chromium.py): pure logic on
fake folders and environments, no browser."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from pytest_webtask.browser import chromium
from pytest_webtask.browser.chromium import ChromiumChoice, choose_chromium


def _executable(path: Path) -> str:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _playwright_build(root: Path, name: str = "chromium", complete: bool = True) -> None:
    revision = chromium._chromium_revision()
    assert revision, "this Playwright's browsers.json names a Chromium revision"
    folder = root / f"{name}-{revision}"
    folder.mkdir(parents=True)
    if complete:
        (folder / "INSTALLATION_COMPLETE").write_text("")


def test_webtask_chromium_wins_and_must_be_an_executable(tmp_path: Path) -> None:
    chosen = _executable(tmp_path / "my-chrome")
    choice = choose_chromium({"WEBTASK_CHROMIUM": chosen})
    assert choice.executable == chosen and not choice.problem
    assert choice.note == f"Chromium from WEBTASK_CHROMIUM: {chosen}"
    wrong = choose_chromium({"WEBTASK_CHROMIUM": str(tmp_path / "nothing")})
    assert wrong.executable is None and wrong.certain
    assert "WEBTASK_CHROMIUM is set to" in wrong.problem and "not an executable" in wrong.problem
    assert "playwright install chromium" in wrong.problem


def test_playwright_s_own_build_counts_only_when_its_revision_is_complete(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)}
    assert not chromium.playwright_has_chromium(env)
    _playwright_build(tmp_path, complete=False)  # an interrupted download
    assert not chromium.playwright_has_chromium(env)
    (tmp_path / "chromium-1").mkdir()  # another release's build
    (tmp_path / "chromium-1" / "INSTALLATION_COMPLETE").write_text("")
    assert not chromium.playwright_has_chromium(env)
    _playwright_build(tmp_path, "chromium_headless_shell")  # --only-shell
    assert chromium.playwright_has_chromium(env)
    monkeypatch.setattr(chromium, "system_chromium", lambda: "/usr/bin/chromium")
    assert choose_chromium(env) == ChromiumChoice()  # nothing to say, nothing to change


def test_a_system_chromium_when_playwright_s_is_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)}
    found = _executable(tmp_path / "chromium")
    monkeypatch.setenv("PATH", str(tmp_path))
    choice = choose_chromium(env)
    assert choice.executable == found and not choice.problem
    assert choice.note == (f"Playwright's own Chromium is not installed; using the system one "
                           f"at {found} (WEBTASK_CHROMIUM chooses another)")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    none = choose_chromium(env)
    assert none.executable is None and none.problem and not none.certain
    assert "playwright install chromium" in none.problem and "WEBTASK_CHROMIUM" in none.problem


def test_a_headless_run_takes_the_system_headless_shell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)}
    full = _executable(tmp_path / "chromium")
    shell = _executable(tmp_path / "chromium-headless-shell")
    monkeypatch.setenv("PATH", str(tmp_path))
    choice = choose_chromium(env)
    assert choice.executable == full and choice.headless_executable == shell
    assert f"its headless shell at {shell} for headless runs" in choice.note
    assert choice.applied({}) == {"executable_path": shell}  # Playwright's default: headless
    assert choice.applied({"headless": True})["executable_path"] == shell
    assert choice.applied({"headless": False})["executable_path"] == full
    assert choice.applied({"channel": "chrome"}) == {"channel": "chrome"}
    # WEBTASK_CHROMIUM is used for both
    chosen = choose_chromium({**env, "WEBTASK_CHROMIUM": full})
    assert chosen.applied({"headless": True})["executable_path"] == full


def test_a_headless_shell_alone_runs_headless_and_explains_a_headed_launch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)}
    shell = _executable(tmp_path / "chromium-headless-shell")
    monkeypatch.setenv("PATH", str(tmp_path))
    choice = choose_chromium(env)
    assert choice.applied({"headless": True}) == {"headless": True, "executable_path": shell}
    assert choice.applied({"headless": False}) == {"headless": False}  # Playwright's own
    assert "headless only" in choice.note and not choice.certain
    missing = Exception("BrowserType.launch: Executable doesn't exist at /x/chrome")
    explained = choice.explain(missing)
    assert explained is not None and "a headed run needs a full Chromium" in explained
    assert "apt-get install chromium" in explained


def test_launch_options_that_name_a_browser_win() -> None:
    choice = ChromiumChoice("/usr/bin/chromium")
    assert choice.applied({"headless": False}) == {"headless": False,
                                                   "executable_path": "/usr/bin/chromium"}
    assert choice.applied({"executable_path": "/opt/mine"}) == {"executable_path": "/opt/mine"}
    assert choice.applied({"channel": "chrome"}) == {"channel": "chrome"}


def test_a_failed_launch_is_explained_only_when_no_chromium_was_there() -> None:
    none = ChromiumChoice(problem=chromium.NO_CHROMIUM)
    missing = Exception("BrowserType.launch: Executable doesn't exist at /x/chrome\n╔═══")
    assert none.explain(missing) == (chromium.NO_CHROMIUM + "\n(Playwright said: "
                                     "BrowserType.launch: Executable doesn't exist at /x/chrome)")
    assert none.explain(Exception("Target page, context or browser has been closed")) is None
    assert ChromiumChoice("/usr/bin/chromium").explain(missing) is None


def test_the_repository_set_up_keeps_an_executable_it_is_given() -> None:
    args = chromium.launch_args({"executable_path": "/opt/mine", "args": ["--x"]})
    assert args["executable_path"] == "/opt/mine"
    assert args["args"][0] == "--x" and "--disable-background-networking" in args["args"]
