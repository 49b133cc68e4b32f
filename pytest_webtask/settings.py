"""One frozen settings object per run; a test's marker makes a copy with its overrides.

Precedence: command line > ``@pytest.mark.webtask(...)`` > ini (``webtask_*``) > environment.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from .errors import ConfigurationError

Mode = Literal["auto", "record", "replay"]

# name -> (type, default, environment variable, help)
FIELDS: dict[str, tuple[type, Any, str | None, str]] = {
    "model": (str, "", "WEBTASK_MODEL", "model name for recording (OpenAI-compatible endpoint)"),
    "base_url_llm": (str, "", "OPENAI_BASE_URL", "model endpoint (OpenAI-compatible base URL)"),
    "max_steps": (int, 10, "WEBTASK_MAX_STEPS", "most agent steps per do() while recording"),
    "check_max_steps": (int, 3, None, "most agent steps per check() while recording"),
    "timeout": (float, 5.0, "WEBTASK_TIMEOUT", "seconds a replay waits for an element or check"),
    "allowed_origins": (str, "", None,
                        "space-separated origins the agent may visit besides the base URL's"),
    "llm_timeout": (float, 60.0, None, "seconds per model request"),
    "strategy": (str, "step", "WEBTASK_STRATEGY",
                 "how to record: 'step' (one LLM call per step) or 'plan' (rolling-horizon plans)"),
    "plan_horizon": (int, 3, None, "steps per plan with strategy=plan"),
    "max_iterations": (int, 30, None, "most tool invocations per task with strategy=plan"),
    "page_chars": (int, 40_000, "WEBTASK_PAGE_CHARS",
                   "page-state budget in characters; a longer page shows what is around the "
                   "viewport and counts the rest"),
}
STRATEGIES = ("step", "plan")

# Per-test settings; the model is per session (the webtask_llm fixture).
MARKER_FIELDS = frozenset({"max_steps", "check_max_steps", "timeout", "allowed_origins",
                           "strategy", "plan_horizon", "max_iterations", "page_chars"})


@dataclass(frozen=True)
class Settings:
    mode: Mode = "auto"
    model: str = ""
    base_url_llm: str = ""
    max_steps: int = 10
    check_max_steps: int = 3
    timeout: float = 5.0
    allowed_origins: tuple[str, ...] = ()
    llm_timeout: float = 60.0
    strategy: str = "step"
    plan_horizon: int = 3
    max_iterations: int = 30
    page_chars: int = 40_000

    @property
    def in_ci(self) -> bool:
        return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")

    def with_marker(self, marker: pytest.Mark | None) -> Settings:
        """A copy with a test's ``@pytest.mark.webtask(...)`` overrides applied (the command
        line still wins for what it set)."""
        if marker is None:
            return self
        unknown = set(marker.kwargs) - MARKER_FIELDS
        if marker.args or unknown:
            raise ConfigurationError(
                f"@pytest.mark.webtask takes keyword arguments among "
                f"{', '.join(sorted(MARKER_FIELDS))}; got "
                f"{', '.join(map(repr, marker.args)) or ', '.join(sorted(unknown))}."
            )
        values = {k: _convert(k, v) for k, v in marker.kwargs.items()
                  if k not in self._from_cli}
        return dataclasses.replace(self, **values)

    _from_cli: frozenset[str] = frozenset()


def _convert(name: str, value: Any) -> Any:
    typ = FIELDS[name][0]
    if name == "allowed_origins":
        return tuple(value.split() if isinstance(value, str) else value)
    if name == "strategy" and value not in STRATEGIES:
        raise ConfigurationError(
            f"webtask strategy should be one of {', '.join(STRATEGIES)}; got {value!r}.")
    try:
        return typ(value)
    except (TypeError, ValueError):
        raise ConfigurationError(
            f"webtask setting {name} should be a {typ.__name__}; got {value!r}."
        ) from None


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("webtask", "pytest-webtask: plain-English steps, recorded recipes")
    group.addoption("--webtask-record", action="store_true", default=False,
                    help="record the selected tests' steps again with the model, replacing "
                    "their recipes")
    group.addoption("--webtask-replay-only", action="store_true", default=False,
                    help="never call a model: a step without a recipe fails")
    group.addoption("--webtask-model", default=None, help=FIELDS["model"][3])
    group.addoption("--webtask-max-steps", type=int, default=None, help=FIELDS["max_steps"][3])
    group.addoption("--webtask-timeout", type=float, default=None, help=FIELDS["timeout"][3])
    for name, (_typ, _default, env, help_) in FIELDS.items():
        suffix = f" (env {env})" if env else ""
        parser.addini(f"webtask_{name}", help_ + suffix, default=None)


def build(config: pytest.Config) -> Settings:
    """Settings for the run: CLI > ini > environment > defaults."""
    if config.getoption("webtask_record") and config.getoption("webtask_replay_only"):
        raise pytest.UsageError("--webtask-record and --webtask-replay-only exclude each other.")
    values: dict[str, Any] = {}
    for name, (_typ, default, env, _help) in FIELDS.items():
        raw = config.getini(f"webtask_{name}")
        if raw in (None, "", []) and env:
            raw = os.environ.get(env)
        values[name] = default if raw in (None, "") else _convert(name, raw)
    cli = {}
    for name in ("model", "max_steps", "timeout"):
        opt = config.getoption(f"webtask_{name}")
        if opt is not None:
            cli[name] = _convert(name, opt)
    values.update(cli)
    mode: Mode = "auto"
    if config.getoption("webtask_record"):
        mode = "record"
    elif config.getoption("webtask_replay_only"):
        mode = "replay"
    return Settings(mode=mode, _from_cli=frozenset(cli), **values)
