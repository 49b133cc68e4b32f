"""ExtractionLog: written to disk after every event, so a crash leaves a readable
report of the phases done so far."""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ToolCall:
    tool: str
    args: dict[str, Any]
    result: str


@dataclass
class PhaseOutput:
    phase: str
    timestamp: float
    duration: float = 0.0
    success: bool = False
    output: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    error: str | None = None


@dataclass
class ExtractionLog:
    task: str
    source_url: str
    path: Path | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    started_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    success: bool = False
    items_found: int = 0
    items: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    phase_outputs: list[PhaseOutput] = field(default_factory=list)
    strategy_planner_output: str | None = None
    generated_recipe: dict[str, Any] | None = None
    discovered_bindings: dict[str, Any] | None = None
    commands_executed: int = 0
    logs: list[str] = field(default_factory=list)
    error: str | None = None
    stopped_reason: str | None = None  # complete | max_items | error

    def __post_init__(self) -> None:
        if self.path is not None:
            self.path = Path(self.path)

    def start_phase(self, phase: str) -> PhaseOutput:
        out = PhaseOutput(phase=phase, timestamp=time.time())
        self.phase_outputs.append(out)
        self.save()
        return out

    def end_phase(self, out: PhaseOutput, *, success: bool, output: str | None = None,
                  error: str | None = None) -> None:
        out.duration = time.time() - out.timestamp
        out.success, out.output, out.error = success, output, error
        self.save()

    def log(self, line: str) -> None:
        self.logs.append(line)
        self.save()

    def finish(self, *, success: bool, stopped_reason: str, error: str | None = None) -> None:
        self.ended_at = time.time()
        self.success, self.stopped_reason, self.error = success, stopped_reason, error
        self.items_found = len(self.items)
        self.save()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path")
        data["duration"] = (self.ended_at or time.time()) - self.started_at
        return data

    def save(self) -> None:
        """Atomic rewrite: the file always holds a whole, parseable report."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".report.", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(self.to_dict(), fh, indent=2, default=str)
        os.replace(tmp, self.path)
