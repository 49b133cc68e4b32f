"""The async twin: generated code is current, and its own test run passes."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_sync_twin_is_not_stale(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("unasync", ROOT / "scripts" / "unasync.py")
    assert spec is not None and spec.loader is not None
    unasync = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(unasync)
    assert unasync.main(["--check"]) == 0, capsys.readouterr().out


def test_async_agent_suite_passes_in_its_own_process(python: Callable[..., Any]) -> None:
    """Its own process: an asyncio loop cannot run where pytest-playwright's sync fixtures
    have started."""
    proc = python("-m", "pytest", "tests/async_twin", "-q", "-p", "no:xdist", "-p",
                  "no:randomly", "-p", "no:cacheprovider", env={"WEBTASK_ASYNC_TWIN": "1"},
                  timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert " passed" in last and "skipped" not in last and "deselected" not in last, last
