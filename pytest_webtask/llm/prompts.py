"""Prompts live in YAML files under prompts_data/, one file per role."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

# libyaml's parser where PyYAML has it (a check step's task is a prompt: read on replay too)
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _prompts(role: str) -> dict[str, Any]:
    path = resources.files("pytest_webtask").joinpath(f"prompts_data/{role}.yaml")
    return dict(yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader))


def get_prompt(role: str, name: str) -> str:
    """Return prompt ``name`` from ``prompts_data/<role>.yaml`` (e.g. ``agent/proposer``)."""
    return str(_prompts(role)[name]["content"]).strip()


@cache
def get_examples(role: str, name: str) -> tuple[tuple[str, str], ...]:
    """Worked examples ``name`` from ``prompts_data/<role>.yaml``: (user text, reply) pairs,
    shown to a model as earlier turns of its conversation."""
    return tuple((str(turn["user"]).strip(), " ".join(str(turn["reply"]).split()))
                 for turn in _prompts(role)[name])
