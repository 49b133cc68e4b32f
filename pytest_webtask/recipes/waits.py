"""Moved to ``browser/waits.py`` (the one wait module, DESIGN decision 17); kept for imports."""

from __future__ import annotations

from ..browser.waits import POLL_MS, backoff

__all__ = ["POLL_MS", "backoff"]
