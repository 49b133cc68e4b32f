"""The ScriptedLLM these example suites were recorded with.

The recipes in ``__webtask__/`` were recorded through the real record path
(``pytest example_suites --webtask-record``) with these scripts standing in for a model: each
file in ``scripts/`` maps a task, as the model is shown it, to the replies given step by step.
They are scripts, not a model's output; re-record with a real model by removing the
``webtask_llm`` override in ``conftest.py`` and setting WEBTASK_MODEL / OPENAI_API_KEY.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM

SCRIPTS = Path(__file__).parent / "scripts"
CHECK_PREFIX = "Check whether this statement about the current page is true: "


def load_scripts() -> dict[str, list[Any]]:
    scripts: dict[str, list[Any]] = {}
    for path in sorted(SCRIPTS.glob("*.yaml")):
        for task, replies in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            if task in scripts:
                raise ValueError(f"task {task!r} is scripted twice (in {path.name})")
            scripts[task] = replies
    return scripts


def task_of(context: ModelRequest) -> str:
    """The task, or the statement under check (its first line after the check's wording)."""
    if context.task.startswith(CHECK_PREFIX):
        return context.task[len(CHECK_PREFIX):].split("\n", 1)[0]
    return context.task


EXTRACTION_PHASES = {"extract:strategy": "planner", "extract:generator": "generator",
                     "extract:recipe": "recipe"}


def extraction_turn(context: ModelRequest) -> tuple[str, str, int]:
    """For extraction phases: (script key, phase, turn from 0)."""
    turn = context.step - 1 if context.purpose == "extract:strategy" else 0
    return f"extract: {context.task}", EXTRACTION_PHASES[context.purpose], turn


def read_page(reply: Any, page: str) -> Any:
    """A reply whose evidence says ``{find: <regex>}`` cites what the page shows, as a model
    reading it would: the whole match as the text, and group 1 declared as ``varies`` (an
    order number that changes on every run)."""
    if not isinstance(reply, dict) or not reply.get("evidence"):
        return reply
    evidence = []
    for item in reply["evidence"]:
        if isinstance(item, dict) and "find" in item:
            found = re.search(item["find"], page)
            if found is None:
                raise LookupError(f"the page state shows nothing like {item['find']!r}")
            item = {"expect": "text", "text": found.group(0),
                    "varies": [found.group(1)] if found.groups() else []}
        evidence.append(item)
    return {**reply, "evidence": evidence}


def scripted_llm() -> ScriptedLLM:
    scripts = load_scripts()

    def extract(context: ModelRequest) -> Any:
        key, phase, turn = extraction_turn(context)
        return scripts[key][0][phase][turn]

    def reply(context: ModelRequest) -> Any:
        task = task_of(context)
        if task not in scripts:
            raise KeyError(f"no script for task {task!r}: add it to {SCRIPTS}")
        step = context.step - 1
        replies = scripts[task]
        if step >= len(replies):
            raise IndexError(f"the script for {task!r} has {len(replies)} replies; "
                             f"step {step + 1} needs another")
        return read_page(replies[step], context.blocks[-1].text)

    return ScriptedLLM({"step": reply, "extract": extract})
