"""A fresh project's run, as a new user's: no third-party deprecation warning the plugin can
prevent. pytest-playwright's ``base_url`` (an instance-method session fixture that pytest 9
warns about) is replaced by the plugin's own; pytest-asyncio warns in every project that has
not set ``asyncio_default_fixture_loop_scope``, which the README tells a user to set (another
plugin's setting is not ours to choose); ``async_webtask`` without pytest-asyncio says what to
install."""

from __future__ import annotations

import pytest

TEST = """
def test_base(base_url):
    assert base_url == "http://shop.test"
"""


def test_a_fresh_project_s_run_shows_no_deprecation_warning(
        pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)  # as a new project has it: unset
    pytester_process.makepyfile(test_shop=TEST)
    # the one line the README asks of a project, for pytest-asyncio
    pytester_process.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    result = pytester_process.runpytest_subprocess(
        "-p", "no:cacheprovider",
        "-W", "error::DeprecationWarning", "-W", "error::PendingDeprecationWarning",
        "--base-url", "http://shop.test", timeout=120)
    result.assert_outcomes(passed=1)
    said = result.stdout.str() + result.stderr.str()
    assert "Warning" not in said and "warnings summary" not in said


def test_async_webtask_without_pytest_asyncio_says_what_to_install(
        pytester_process: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = pytester_process.mkdir("missing")  # pytest-asyncio that cannot be imported
    (missing / "pytest_asyncio").mkdir()
    (missing / "pytest_asyncio" / "__init__.py").write_text("raise ImportError('absent')\n")
    monkeypatch.setenv("PYTHONPATH", str(missing))
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    pytester_process.makepyfile(test_async="def test_a(async_webtask):\n    pass\n")
    result = pytester_process.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:asyncio",
                                                   timeout=120)
    result.assert_outcomes(errors=1)
    assert 'async_webtask needs pytest-asyncio: pip install pytest-asyncio' in \
        result.stdout.str()
