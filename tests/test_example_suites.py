"""The example suites replay their committed recipes: zero LLM calls, loopback only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_example_suites_replay_without_a_model_under_xdist() -> None:
    """Under xdist: CI's main job (`scripts/dev.sh examples`) runs them serially already."""
    dist = ["-n", "2"]
    # CI=true: a step without a recipe would fail instead of recording; the suites' conftest
    # also fails any test whose page sends a request off loopback.
    env = {**os.environ, "CI": "true", "OPENAI_API_KEY": "", "WEBTASK_MODEL": ""}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "example_suites", "-p", "no:cacheprovider", *dist],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600, check=False,
    )
    out = proc.stdout
    assert proc.returncode == 0, out[-5000:] + proc.stderr[-2000:]
    assert "66 step(s) replayed, 0 recorded, 0 failed" in out
    assert "LLM: 0 calls" in out
    assert "31 passed" in out
