"""A test's step counts: their own module, so the terminal summary, which every pytest
process with the plugin makes, imports no recipe model (pydantic) to count nothing."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StepStats:
    """Counts for one test, carried to the terminal summary (also across xdist)."""

    replayed: int = 0
    recorded: int = 0
    failed: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_seconds: float = 0.0  # waiting on the model (Usage.seconds)
    llm_timeouts: int = 0
    llm_refusals: int = 0  # requests refused for their reply format (json_schema)
    # Recorded do-steps none of whose checks discriminates (each held before the step ran).
    weak: list[str] = field(default_factory=list)
    # Replayed do/check steps that checked nothing they changed (RecipeStep.unverified).
    unverified: list[str] = field(default_factory=list)
    # Elements a page showed a secret in, unmasked ("<test>: <when>: <element>"): the
    # test's trace screencast frames and videos are dropped (artifacts.drop_pictures).
    exposed: list[str] = field(default_factory=list)
    healed: int = 0
    heal_llm_calls: int = 0
    # Accepted heals: "<test>: <step>" then the changed actions, one line each.
    heals: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, int | list[str]]:
        return {k: list(v) if isinstance(v, list) else v for k, v in vars(self).items()}
