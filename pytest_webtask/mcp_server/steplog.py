"""A pytest plugin ``webtask mcp`` loads into the recordings it starts (``-p``): each step's
end as one JSON line in the file ``WEBTASK_MCP_STEPS`` names, with the checks the recipe
keeps for it, so the agent reads them right after its ``done`` (the plugin's own checks
included: the URL a step went to, a file it downloaded) rather than in the final recipe.

The lines hold what the recipe holds (placeholders, never a secret's value)."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

    from ..steps.outcome import StepOutcome

ENV = "WEBTASK_MCP_STEPS"


def step_line(outcome: StepOutcome) -> dict[str, Any]:
    """What the agent is told of a step that ended: its actions and its checks, each saying
    whether it came from a claim of the model's or was added by the plugin."""
    step = outcome.recipe_step
    cited = {getattr(e.spec, "expect", "text") for e in
             (outcome.result.evidence if outcome.result is not None else [])
             if getattr(e, "found", False)}
    checks = []
    for check in step.checks:
        added = ""
        if check.expect == "url" and "url" not in cited:
            added = "added by the plugin: the step changed the URL"
        elif check.expect == "download":
            added = "added by the plugin: the step downloaded a file"
        checks.append({"says": check.describe(), "expect": check.expect, "added": added,
                       "held_before": check.held_before})
    actions = [f"{a.tool}" + (f" on {a.target.describe()}" if a.target is not None else "")
               for a in step.actions]
    return {"kind": outcome.kind, "text": outcome.text, "how": outcome.how,
            "actions": actions, "checks": checks, "doubted": list(step.doubted)}


def pytest_webtask_step_done(item: pytest.Item, outcome: StepOutcome) -> None:
    path = os.environ.get(ENV)
    if not path:
        return
    try:  # what the agent is told; never a reason for the test to fail
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(step_line(outcome)) + "\n")
    except OSError:
        pass


def read(path: str | os.PathLike[str], skip: int = 0) -> list[dict[str, Any]]:
    """The lines written so far, after the first ``skip``."""
    try:
        with open(path, encoding="utf-8") as lines:
            found = [json.loads(line) for line in lines if line.strip()]
    except (OSError, ValueError):
        return []
    return found[skip:]


def describe(n: int, step: dict[str, Any]) -> str:
    """A step's line as the agent reads it: what the recipe keeps for it."""
    kept = []
    for check in step["checks"]:
        notes = [check["added"]] if check["added"] else []
        if check["held_before"]:
            notes.append("held before the step: it proves nothing of it")
        kept.append(f"  - {check['says']}" + (f" ({'; '.join(notes)})" if notes else ""))
    head = f"Step {n} {step['kind']}({step['text']!r}) {step['how']}"
    acts = (f"; its actions: {', '.join(step['actions'])}" if step["actions"] else "")
    checks = ("\n".join(kept) if kept else "  (none: the step verifies nothing)")
    doubted = step.get("doubted") or []
    marked = (f"\n  Recorded over advice ({', '.join(doubted)}): the recipe marks it "
              "`doubted` for a reviewer." if doubted else "")
    return f"{head}{acts}. The checks a replay asserts:\n{checks}{marked}"
