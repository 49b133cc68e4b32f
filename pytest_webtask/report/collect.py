"""What the HTML report holds for one test, gathered as it runs (JSON-friendly: it travels
from an xdist worker to the controller as a file). Screenshots are JPEG, masked where a
secret was typed; prompts are what the model was sent, which never holds a secret; every
text passes through the test's secrets' mask once more before it is kept."""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


class ReportPart:
    """One test's steps, model calls and failure, filled by its listener (the plugin's
    ``ReportListener``)."""

    __test__ = False  # not a pytest test class

    def __init__(self, nodeid: str, folder: Path, redact: Callable[[str], str]) -> None:
        self.nodeid = nodeid
        self.folder = folder
        self.redact = redact
        self.started = time.monotonic()
        self.steps: list[dict[str, Any]] = []
        self._calls: list[dict[str, Any]] = []
        self._before: list[str | None] = []  # each replayed action's target, boxed
        self._pictures: dict[str, str] = {}  # a visual check's expected, actual, diff (PNG)

    def action(self, action: Any, shot: bytes | None) -> None:
        self._before.append(_b64(shot))

    def pictures(self, pictures: dict[str, bytes]) -> None:
        """A visual check's pictures, shown side by side with the step that ends next."""
        self._pictures = {name: _b64(png) or "" for name, png in pictures.items()}

    def model_call(self, prompt: str, reply: str, usage: Any = None, error: str = "") -> None:
        """One model call: its prompt, and its reply or the error it failed with; ``usage``
        (a ``Usage``, None when the model counted nothing) gives its tokens, seconds,
        timeouts and refusals."""
        self._calls.append({
            "prompt": self.redact(prompt), "reply": self.redact(reply),
            "error": self.redact(error),
            "tokens": usage.total_tokens if usage is not None else 0,
            "seconds": round(usage.seconds, 3) if usage is not None else 0.0,
            "timeouts": usage.timeouts if usage is not None else 0,
            "refusals": usage.refusals if usage is not None else 0})

    def step_finished(self, outcome: Any, shot: bytes | None) -> None:
        step = outcome.recipe_step
        self.steps.append({
            "kind": outcome.kind, "text": outcome.text, "how": outcome.how,
            "seconds": round(outcome.seconds, 3),
            "actions": [self._action(a, self._before[i] if i < len(self._before) else None)
                        for i, a in enumerate(step.actions)],
            "checks": [{"says": c.describe(), "held": True, "held_before": c.held_before}
                       for c in step.checks],
            "unverified": step.unverified, "doubted": list(step.doubted),
            "message": self.redact(step.message), "calls": self._calls,
            "rules": _rules(outcome.result),
            "items": len(outcome.items), "shot": _b64(shot), "pictures": self._pictures})
        self._calls, self._before, self._pictures = [], [], {}

    def step_failed(self, kind: str, text: str, message: str, seconds: float,
                    shot: bytes | None) -> None:
        actions = [{"tool": "before", "target": f"action {i}", "params": "{}", "before": b}
                   for i, b in enumerate(self._before, 1)]
        self.steps.append({"kind": kind, "text": text, "how": "failed",
                           "seconds": round(seconds, 3), "actions": actions, "checks": [],
                           "message": self.redact(message), "calls": self._calls,
                           "items": 0, "shot": _b64(shot), "pictures": self._pictures})
        self._calls, self._before, self._pictures = [], [], {}

    @staticmethod
    def _action(a: Any, before: str | None) -> dict[str, Any]:
        target = a.target.describe() if a.target is not None else ""
        params = {k: v for k, v in a.params.items() if k != "element_id"}
        return {"tool": a.tool, "target": target, "params": json.dumps(params),
                "before": before}

    def save(self, outcome: str) -> None:
        """Write this test's fragment for the controller to merge."""
        if not self.steps:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"test": self.nodeid, "outcome": outcome,
                "seconds": round(time.monotonic() - self.started, 3),
                "steps": self.steps}
        path = self.folder / f"{uuid.uuid4().hex}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.redact(json.dumps(data)), encoding="utf-8")
        tmp.replace(path)


def _b64(shot: bytes | None) -> str | None:
    return base64.b64encode(shot).decode("ascii") if shot else None


def _rules(result: Any) -> list[str]:
    """The agent's rules (agent/policy.py) that fired while a step recorded, in order."""
    steps = getattr(result, "steps", None) or []
    return list(dict.fromkeys(r for step in steps for r in getattr(step, "rules", [])))
