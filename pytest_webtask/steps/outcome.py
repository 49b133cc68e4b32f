"""What a step of a test asked for and how it went: one class each, shared by ``WebTask`` and
``AsyncWebTask``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..agent.models import TaskResult
from ..recipes.model import RecipeStep
from ..tools.values import StepValues
from .identity import StepIdentity


@dataclass
class StepRequest:
    """One call of ``do``/``check``/``extract``: its identity, and the values it is run with
    (variables, secrets and resources by name; extraction options)."""

    key: StepIdentity
    agent_task: str = ""  # what the agent is asked (a check's statement is wrapped)
    variables: dict[str, Any] = field(default_factory=dict)
    secrets: dict[str, Any] = field(default_factory=dict)
    resources: dict[str, Any] = field(default_factory=dict)
    max_items: int = 20
    allow_skipped: int = 0
    # a do's call in the test's source (file, line): the checks after it are read from there
    # when the step is recorded (steps/lookahead.py), never in a replay
    caller: tuple[str, int] | None = None

    @property
    def kind(self) -> str:
        return self.key.kind

    @property
    def text(self) -> str:
        return self.key.text


@dataclass
class StepOutcome:
    """One step of the test: what it was, how it ran (``replayed`` or ``recorded``), the
    recipe step it replayed or wrote, the agent's result if recorded, and an extract step's
    items."""

    kind: str
    text: str
    how: str
    seconds: float
    recipe_step: RecipeStep
    result: TaskResult | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
    heal: list[str] = field(default_factory=list)  # a healed step: its actions' diff

    @property
    def recorded(self) -> bool:
        return self.how == "recorded"


class StepRun:
    """One step while it runs: the request, its values (``StepValues``), its place in the
    test, the path it started at."""

    def __init__(self, request: StepRequest, values: StepValues, index: int,
                 start_path: str = "") -> None:
        self.request = request
        self.values = values
        self.index = index
        self.start_path = start_path
        self.where = f"Step {index + 1} {request.kind}({request.text!r})"
        self.started = time.monotonic()


@dataclass
class Replayed:
    """What a step kind's replay did: an extract step's items, and a verified heal if the
    step's actions were re-done (its recorded checks held after them)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    heal: Heal | None = None


@dataclass
class Recorded:
    """What a step kind's recording did: the recipe step to store, the agent's result (none
    for an extract step), an extract step's items, and ``weak``: every check the step
    compiled to held before it ran, so a replay could pass without the step doing anything."""

    step: RecipeStep
    result: TaskResult | None = None
    items: list[dict[str, Any]] = field(default_factory=list)
    weak: bool = False

@dataclass
class Heal:
    """A verified heal of a replayed step: the step with the model's actions, what changed
    (one line per action), and what it cost."""

    step: RecipeStep
    diff: list[str]
    calls: str  # "3 model call(s)"
