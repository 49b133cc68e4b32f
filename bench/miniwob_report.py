"""What a MiniWoB++ run found: one record per episode, summed per task and overall, written
as JSON and as a Markdown table."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class EpisodeRecord:
    """One episode. ``success`` is the page's raw reward at 1.0 (MiniWoB's own judgement);
    ``error`` is set when the episode could not be run at all (the page did not load, the
    endpoint failed): such an episode counts in ``errors``, not as the model's failure."""

    task: str
    episode: int
    seed: int
    instruction: str = ""
    reward: float = 0.0
    success: bool = False
    episode_done: bool = False
    reason: str = ""
    agent_completed: bool = False
    agent_message: str = ""
    steps: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_s: float = 0.0
    error: str = ""
    trace: list[str] = field(default_factory=list)  # one line per agent step: reply, results


@dataclass
class Summary:
    episodes: int = 0
    successes: int = 0
    errors: int = 0
    steps: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_s: float = 0.0

    def add(self, r: EpisodeRecord) -> None:
        self.episodes += 1
        self.errors += bool(r.error)
        self.successes += r.success
        self.steps += r.steps
        self.calls += r.calls
        self.prompt_tokens += r.prompt_tokens
        self.completion_tokens += r.completion_tokens
        self.wall_s += r.wall_s

    @property
    def run(self) -> int:
        """Episodes that ran (an errored episode measured nothing)."""
        return self.episodes - self.errors

    def figures(self) -> dict[str, Any]:
        n = self.run or 1
        return {
            "episodes": self.episodes, "errors": self.errors, "successes": self.successes,
            "success_rate": round(self.successes / self.run, 3) if self.run else None,
            "mean_steps": round(self.steps / n, 2), "mean_calls": round(self.calls / n, 2),
            "mean_prompt_tokens": round(self.prompt_tokens / n, 1),
            "mean_completion_tokens": round(self.completion_tokens / n, 1),
            "mean_wall_s": round(self.wall_s / n, 2),
            "total_calls": self.calls, "total_prompt_tokens": self.prompt_tokens,
            "total_completion_tokens": self.completion_tokens,
            "total_wall_s": round(self.wall_s, 1),
        }


@dataclass
class RunReport:
    """A whole run: its settings (``meta``: never a key), its episodes, and whether it was
    cut short (Ctrl-C, or an endpoint that stopped answering)."""

    meta: dict[str, Any]
    records: list[EpisodeRecord] = field(default_factory=list)
    stopped: str = ""

    def per_task(self) -> dict[str, Summary]:
        out: dict[str, Summary] = {}
        for r in self.records:
            out.setdefault(r.task, Summary()).add(r)
        return out

    def overall(self) -> Summary:
        total = Summary()
        for r in self.records:
            total.add(r)
        return total

    def to_json(self) -> dict[str, Any]:
        return {"meta": self.meta, "stopped": self.stopped,
                "overall": self.overall().figures(),
                "tasks": {t: s.figures() for t, s in self.per_task().items()},
                "episodes": [asdict(r) for r in self.records]}

    def to_markdown(self) -> str:
        m = self.meta
        who = ("scripted oracle (ScriptedLLM policies: NOT a model)" if m.get("scripted")
               else f"model `{m.get('model')}` at {m.get('base_url')}")
        lines = [f"MiniWoB++ with {who}; strategy `{m.get('strategy')}`, "
                 f"{m.get('episodes')} episode(s) per task, seeds from {m.get('seed')}, "
                 f"max {m.get('max_steps')} steps."]
        if m.get("as_recorded"):
            lines.append("\nAs recorded: evidence required (the guards ask), and an episode "
                         "succeeds only when the agent also completed with evidence that holds.")
        if self.stopped:
            lines.append(f"\nStopped early: {self.stopped} (partial results).")
        lines += ["", "| task | episodes | success | mean steps | mean calls | "
                  "mean prompt tok | mean completion tok | mean wall s | errors |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        rows = [*self.per_task().items(), ("**overall**", self.overall())]
        for task, s in rows:
            f = s.figures()
            rate = "-" if f["success_rate"] is None else f"{f['success_rate']:.0%}"
            # a script is not tokenized: "-", not a cost of 0
            tokens = ("- | -" if m.get("scripted") else
                      f"{f['mean_prompt_tokens']:g} | {f['mean_completion_tokens']:g}")
            lines.append(f"| {task} | {f['episodes']} | {rate} | {f['mean_steps']} | "
                         f"{f['mean_calls']} | {tokens} | {f['mean_wall_s']} | "
                         f"{f['errors']} |")
        return "\n".join(lines) + "\n"

    def write(self, out_dir: Path) -> tuple[Path, Path]:
        out_dir.mkdir(parents=True, exist_ok=True)
        js, md = out_dir / "miniwob.json", out_dir / "miniwob.md"
        js.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        md.write_text(self.to_markdown(), encoding="utf-8")
        return js, md
