"""The async twin: generated code is current, and its own test run passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_sync_twin_is_not_stale() -> None:
    proc = subprocess.run([sys.executable, "scripts/unasync.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_async_agent_suite_passes_in_its_own_process() -> None:
    env = {**os.environ, "WEBTASK_ASYNC_TWIN": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/async_twin", "-q", "-p", "no:xdist",
         "-p", "no:randomly"],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "5 passed" in proc.stdout
