"""The pytest plugin: options, the ``webtask`` fixture, recipes, and the report."""

from __future__ import annotations
