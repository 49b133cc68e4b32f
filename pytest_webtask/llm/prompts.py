"""Prompts live in YAML files under prompts_data/, one file per role."""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml


@cache
def get_prompt(role: str, name: str) -> str:
    """Return prompt ``name`` from ``prompts_data/<role>.yaml`` (e.g. ``agent/proposer``)."""
    path = resources.files("pytest_webtask").joinpath(f"prompts_data/{role}.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(data[name]["content"]).strip()
