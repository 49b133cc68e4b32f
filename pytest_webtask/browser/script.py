"""The in-page collector script, loaded once from collector.js."""

from __future__ import annotations

from importlib import resources

COLLECTOR_JS = resources.files("pytest_webtask.browser").joinpath("collector.js").read_text(
    encoding="utf-8"
)
