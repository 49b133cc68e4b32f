"""One frozen settings object per run; a test's marker makes a copy with its overrides.

Precedence: command line > ``@pytest.mark.webtask(...)`` > ini (``webtask_*``) > environment.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

from . import defaults
from .errors import ConfigurationError
from .recipes.patterns import user_patterns

if TYPE_CHECKING:
    import pytest

Mode = Literal["auto", "record", "replay"]

RESPONSE_FORMATS = ("auto", "json_schema", "json_object")
HEAL_MODES = ("off", "on", "suggest")
ENDPOINT_SCHEMES = {"connect": ("ws://", "wss://"),
                    "connect_cdp": ("http://", "https://", "ws://", "wss://")}

# Per-test settings; the model is per session (the webtask_llm fixture).
MARKER_FIELDS = frozenset({"max_steps", "check_max_steps", "timeout", "allowed_origins",
                           "strategy", "plan_horizon", "max_iterations", "max_llm_calls",
                           "max_tokens", "block_subresources", "guard_replay",
                           "dynamic", "strict", "page_chars", "heal",
                           "heal_max_llm_calls", "rules_off", "profile"})
# Settings the command line can set: --webtask-<name with dashes>.
CLI_FIELDS = ("model", "max_steps", "timeout", "max_llm_calls", "max_tokens",
              "run_max_llm_calls", "run_max_tokens", "connect", "connect_cdp")

T = TypeVar("T")


def setting(default: T, help: str, env: str | None = None, *, text: type | None = None) -> T:
    """A setting's default, help and environment variable, written once as its field of
    ``Settings``. ``text``: the type its ini, environment or command-line text converts to
    (by default its default's)."""
    return dataclasses.field(default=default, metadata={
        "type": text or type(default), "env": env, "help": help})


class Field(NamedTuple):
    """A setting as the options, the ini and the environment offer it."""

    type: type
    default: Any
    env: str | None
    help: str


@dataclass(frozen=True)
class Settings:
    """Every setting once: its type, its default, its help and its environment variable
    (``setting``); ``FIELDS`` is read from here."""

    mode: Mode = "auto"
    model: str = setting("", "model name for recording (OpenAI-compatible endpoint)",
                         "WEBTASK_MODEL")
    base_url_llm: str = setting("", "model endpoint (OpenAI-compatible base URL)",
                                "OPENAI_BASE_URL")
    max_steps: int = setting(defaults.MAX_STEPS, "most agent steps per do() while recording",
                             "WEBTASK_MAX_STEPS")
    check_max_steps: int = setting(3, "most agent steps per check() while recording")
    timeout: float = setting(defaults.TIMEOUT,
                             "seconds a replay waits for an element or check", "WEBTASK_TIMEOUT")
    allowed_origins: tuple[str, ...] = setting(
        (), "space-separated origins the agent may visit besides the base URL's", text=str)
    llm_timeout: float = setting(
        defaults.LLM_TIMEOUT, "seconds to wait for one model reply, the whole reply (0: no "
        "limit); a request that takes longer is closed (a local server stops generating) and "
        "fails the step", "WEBTASK_LLM_TIMEOUT")
    llm_retries: int = setting(
        defaults.LLM_RETRIES, "retries of a model request that could not connect, whose "
        "connection was closed, or that was answered HTTP 408, 409, 429 or 5xx",
        "WEBTASK_LLM_RETRIES")
    llm_retry_timeouts: bool = setting(
        False, "retry a model request that timed out too (off: a retry takes as long, and a "
        "local server may still be busy with the first)", "WEBTASK_LLM_RETRY_TIMEOUTS")
    strategy: str = setting(
        "step", "how to record: 'step' (one LLM call per step) or 'plan' (rolling-horizon "
        "plans)", "WEBTASK_STRATEGY")
    plan_horizon: int = setting(defaults.PLAN_HORIZON, "steps per plan with strategy=plan")
    max_iterations: int = setting(defaults.MAX_ITERATIONS,
                                  "most tool invocations per task with strategy=plan")
    dynamic: tuple[str, ...] = setting(
        (), "patterns for text that changes between runs (one per line; regular expressions, "
        "or the names date, time, number): checks match them as patterns", text=str)
    strict: bool = setting(False, "fail a recorded step none of whose checks discriminates")
    max_llm_calls: int = setting(30, "most model calls to record one step (0: no limit)",
                                 "WEBTASK_MAX_LLM_CALLS")
    max_tokens: int = setting(
        500_000, "most tokens (prompt + completion) to record one step (0: no limit)",
        "WEBTASK_MAX_TOKENS")
    run_max_llm_calls: int = setting(
        0, "most model calls in the whole run, per process (0: no limit)",
        "WEBTASK_RUN_MAX_LLM_CALLS")
    run_max_tokens: int = setting(0, "most tokens in the whole run, per process (0: no limit)",
                                  "WEBTASK_RUN_MAX_TOKENS")
    llm_max_tokens: int = setting(
        defaults.LLM_MAX_TOKENS,
        "max_tokens sent with every model request (the reply's length limit)",
        "WEBTASK_LLM_MAX_TOKENS")
    response_format: str = setting(
        "auto", "reply format asked of the model: 'auto' (JSON schema, falling back to JSON "
        "mode), 'json_schema' or 'json_object'", "WEBTASK_RESPONSE_FORMAT")
    block_subresources: bool = setting(
        False, "while recording, also block images, styles, scripts and fonts from other "
        "origins (navigations, form posts and fetch/XHR always are)")
    guard_replay: bool = setting(
        False, "keep the origin guard on during replays too (it routes every request)")
    page_chars: int = setting(
        defaults.PAGE_CHARS, "page-state budget in characters; a longer page shows what is "
        "around the viewport and counts the rest", "WEBTASK_PAGE_CHARS")
    connect: str = setting(
        "", "ws:// endpoint of a Playwright browser server to run the tests' browser on "
        "(fills pytest-playwright's connect_options)", "WEBTASK_CONNECT")
    connect_cdp: str = setting(
        "", "CDP endpoint (http:// or ws://) of a running Chromium to run the tests' browser "
        "on (connect_over_cdp)", "WEBTASK_CONNECT_CDP")
    heal: str = setting(
        "off", "heal a replayed step whose element drifted: 'off', 'on' (rewrite the recipe "
        "when the step's recorded checks hold after the model re-did it) or 'suggest' (write "
        "<recipe>.healed.yaml for review instead)", "WEBTASK_HEAL")
    heal_max_llm_calls: int = setting(10, "most model calls to heal one step (0: no limit)")
    rules_off: str = setting(
        "", "agent rules to switch off while recording, by name (space-separated; 'all': the "
        "bare model); docs/agent.md lists them", "WEBTASK_RULES_OFF")
    profile: str = setting(
        "", "the agent's rules while recording: 'standard' (any capable model; the default) "
        "or 'small' (adds the rules written for small local models); docs/models.md",
        "WEBTASK_PROFILE")
    _from_cli: frozenset[str] = frozenset()  # names the command line set: markers keep off

    @property
    def in_ci(self) -> bool:
        return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")

    @property
    def no_model_reason(self) -> str:
        """Why no model may be called in this run (recording or healing), or "" when one
        may."""
        if self.mode == "replay":
            return "--webtask-replay-only is set"
        return "CI is set, so no model is called" if self.in_ci else ""

    def with_markers(self, markers: list[pytest.Mark]) -> Settings:
        """A copy with a test's ``@pytest.mark.webtask(...)`` overrides applied: module,
        class and function markers merge, the closest winning for a setting they share (give
        them closest first, as ``node.iter_markers`` does). The command line still wins."""
        values: dict[str, Any] = {}
        for marker in reversed(markers):
            unknown = set(marker.kwargs) - MARKER_FIELDS
            if marker.args or unknown:
                raise ConfigurationError(
                    f"@pytest.mark.webtask takes keyword arguments among "
                    f"{', '.join(sorted(MARKER_FIELDS))}; got "
                    f"{', '.join(map(repr, marker.args)) or ', '.join(sorted(unknown))}."
                )
            values.update({k: convert(k, v) for k, v in marker.kwargs.items()
                           if k not in self._from_cli})
        return dataclasses.replace(self, **values) if values else self

    @classmethod
    def from_sources(cls, *, ini: Callable[[str], Any], cli: Mapping[str, Any],
                     mode: Mode = "auto", environ: Mapping[str, str] = os.environ) -> Settings:
        """Settings for a run: ``cli`` (options given on the command line, by setting name)
        > ``ini(name)`` (the ``webtask_<name>`` ini value, None or "" when unset) >
        the setting's environment variable > its default."""
        values: dict[str, Any] = {}
        for name, (_typ, default, env, _help) in FIELDS.items():
            raw = ini(name)
            if raw in (None, "", []) and env:
                raw = environ.get(env)
            values[name] = default if raw in (None, "") else convert(name, raw)
        given = {name: convert(name, value) for name, value in cli.items() if value is not None}
        values.update(given)
        if values["connect"] and values["connect_cdp"]:
            raise ConfigurationError(
                "webtask: connect (a Playwright browser server) and connect_cdp (a Chromium's "
                "CDP endpoint) exclude each other; set one.")
        return cls(mode=mode, _from_cli=frozenset(given), **values)


# name -> the setting's type, default, environment variable and help, from ``Settings``
FIELDS: dict[str, Field] = {
    f.name: Field(f.metadata["type"], f.default, f.metadata["env"], f.metadata["help"])
    for f in dataclasses.fields(Settings) if f.metadata}


def convert(name: str, value: Any) -> Any:
    typ = FIELDS[name].type
    if name == "allowed_origins":
        return tuple(value.split() if isinstance(value, str) else value)
    if name == "dynamic":
        items = value.splitlines() if isinstance(value, str) else list(value)
        items = [str(v).strip() for v in items if str(v).strip()]
        try:
            user_patterns(items)
        except ValueError as exc:
            raise ConfigurationError(str(exc)) from None
        return tuple(items)
    if name == "strict" and isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    if name == "strategy" and (not isinstance(value, str) or not value.strip()):
        # names are checked when a step records: plugins add strategies (hooks)
        raise ConfigurationError(f"webtask strategy should be a name; got {value!r}.")
    if name == "heal":
        if value is True:
            return "on"
        text = str(value).strip().lower()
        text = {"true": "on", "yes": "on", "1": "on", "false": "off", "no": "off", "0": "off",
                "": "off"}.get(text, text)
        if text not in HEAL_MODES:
            raise ConfigurationError(f"webtask heal should be one of {', '.join(HEAL_MODES)}; "
                                     f"got {value!r}.")
        return text
    if name == "rules_off":
        text = " ".join(value) if isinstance(value, (list, tuple)) else str(value)
        from .agent.policy import parse_rules_off  # the agent loads when a step records

        parse_rules_off(text)  # an unknown name: a ConfigurationError naming the known ones
        return " ".join(text.replace(",", " ").split())
    if name == "profile":  # agent/policy.py's PROFILES (the agent loads when a step records)
        text = str(value).strip().lower()
        if text not in ("", "standard", "small"):
            raise ConfigurationError(f"webtask_profile should be one of standard, small; got "
                                     f"{value!r}. docs/models.md says when to choose which.")
        return text
    if name == "response_format" and value not in RESPONSE_FORMATS:
        raise ConfigurationError(
            f"webtask response_format should be one of {', '.join(RESPONSE_FORMATS)}; got "
            f"{value!r}.")
    if name in ENDPOINT_SCHEMES and value and not str(value).startswith(ENDPOINT_SCHEMES[name]):
        raise ConfigurationError(
            f"webtask {name} should be a URL starting with "
            f"{' or '.join(ENDPOINT_SCHEMES[name])}; got {value!r}.")
    if typ is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
        raise ConfigurationError(f"webtask setting {name} should be true or false; got "
                                 f"{value!r}.")
    try:
        converted = typ(value)
    except (TypeError, ValueError):
        raise ConfigurationError(
            f"webtask setting {name} should be a {typ.__name__}; got {value!r}."
        ) from None
    if typ in (int, float) and converted < 0:
        raise ConfigurationError(f"webtask setting {name} should be 0 or more; got {value!r}.")
    return converted
