"""Default values that the settings share with the code below them (the agent, the page
state, the model client, the replayers), written once: an ``Agent`` or an ``OpenAILLM`` made
by hand behaves as the plugin does by default. Each is named after its setting
(``settings.py``, where the others are)."""

import warnings

MAX_STEPS = 10  # most agent steps per do()
TIMEOUT = 5.0  # seconds a replay waits for an element or a check
PLAN_HORIZON = 3  # agent steps per plan (strategy=plan)
MAX_ITERATIONS = 30  # tool calls per task (strategy=plan)
PAGE_CHARS = 40_000  # the page state's budget in characters
LLM_TIMEOUT = 60.0  # seconds per model request
LLM_MAX_TOKENS = 4096  # max_tokens of every model request
LLM_RETRIES = 2  # retries of a model request the server failed (not one that timed out)


def chosen_page_chars(value: int, old_name_value: int | None) -> int:
    """The page state's budget, given as ``page_chars`` or by its deprecated old name
    ``max_page_chars`` (which warns)."""
    if old_name_value is None:
        return value
    warnings.warn("max_page_chars is deprecated: call it page_chars", DeprecationWarning,
                  stacklevel=3)
    return old_name_value
