"""Budgets: how many model calls and tokens a task (one recorded step) and a whole run may
use. A budget that is used up ends the task with a message naming it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ProposalError
from ..types import Usage


class BudgetExhausted(ProposalError):
    """A call or token budget is used up; ``str()`` says which."""


@dataclass
class RunBudget:
    """Limits for a whole run (one per pytest process: each xdist worker has its own), and
    what the run has used so far. 0 means no limit."""

    max_calls: int = 0
    max_tokens: int = 0
    used: Usage = field(default_factory=Usage)


@dataclass
class Budget:
    """Limits for one task, plus the run's. 0 means no limit. ``setting`` names what to
    change in messages (``webtask_max_llm_calls`` in pytest, a keyword for the agent)."""

    max_calls: int = 0
    max_tokens: int = 0
    run: RunBudget | None = None
    names: tuple[str, str, str, str] = ("max_llm_calls", "max_tokens", "run_max_llm_calls",
                                        "run_max_tokens")

    def check(self, task: Usage) -> None:
        """Raise BudgetExhausted when another model call would go over a budget."""
        calls, tokens, run_calls, run_tokens = self.names
        if self.max_calls and task.calls >= self.max_calls:
            raise BudgetExhausted(f"The step's budget of {self.max_calls} model calls is used "
                                  f"up ({calls}).")
        if self.max_tokens and task.total_tokens >= self.max_tokens:
            raise BudgetExhausted(f"The step's budget of {self.max_tokens} tokens is used up "
                                  f"({task.total_tokens} used; {tokens}).")
        run = self.run
        if run and run.max_calls and run.used.calls >= run.max_calls:
            raise BudgetExhausted(f"The run's budget of {run.max_calls} model calls is used "
                                  f"up ({run_calls}).")
        if run and run.max_tokens and run.used.total_tokens >= run.max_tokens:
            raise BudgetExhausted(f"The run's budget of {run.max_tokens} tokens is used up "
                                  f"({run.used.total_tokens} used; {run_tokens}).")


# A page state's characters per token (its lines are short words, ids and quotes: about 3.5
# on our example pages with Qwen's tokenizer, 3 to be safe), and what the rest of a request holds
# (instructions, tools, the task, the history), in tokens.
CHARS_PER_TOKEN = 3
OTHER_TOKENS = 4000
MIN_PAGE_CHARS = 6000


def page_chars_for_window(window: int, reply_tokens: int) -> int:
    """The page state's budget in characters for a model whose context is ``window`` tokens
    and whose reply may take ``reply_tokens`` (a step's reply needs far fewer than a
    max_tokens of 4096: 1,500 are kept for it at most), so the request fits."""
    room = window - min(reply_tokens, 1500) - OTHER_TOKENS
    return max(MIN_PAGE_CHARS, room * CHARS_PER_TOKEN)
