"""Settings precedence, in process: command line > @pytest.mark.webtask > ini > environment >
default, and a bad value is a sentence naming the setting. (tests/plugin/test_marker.py and
test_option_budgets.py show the same through pytest.)"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from pytest_webtask.errors import ConfigurationError
from pytest_webtask.settings import FIELDS, Settings


def settings(ini: Mapping[str, Any] | None = None, cli: Mapping[str, Any] | None = None,
             env: Mapping[str, str] | None = None, **kwargs: Any) -> Settings:
    return Settings.from_sources(ini=lambda name: (ini or {}).get(name), cli=cli or {},
                                 environ=env or {}, **kwargs)


def test_defaults_when_nothing_is_set() -> None:
    s = settings()
    for name, (_typ, default, _env, _help) in FIELDS.items():
        assert getattr(s, name) == default, name
    assert s.mode == "auto"


def test_cli_beats_ini_beats_environment_beats_default() -> None:
    env = {"WEBTASK_MAX_STEPS": "7", "WEBTASK_TIMEOUT": "9", "WEBTASK_MAX_LLM_CALLS": "11"}
    ini = {"max_steps": "4", "timeout": "2.5"}
    s = settings(ini=ini, cli={"max_steps": 3}, env=env)
    assert (s.max_steps, s.timeout, s.max_llm_calls, s.max_tokens) == (3, 2.5, 11, 500_000)
    # an ini value left empty is unset: the environment's counts
    assert settings(ini={"timeout": ""}, env=env).timeout == 9.0
    # an option not given on the command line (None) is unset too
    assert settings(cli={"max_steps": None}, env=env).max_steps == 7


def test_a_marker_beats_ini_and_environment_but_not_the_command_line() -> None:
    marker = [pytest.mark.webtask(max_steps=2, timeout=1).mark]
    from_ini = settings(ini={"max_steps": "4", "timeout": "2"}, env={"WEBTASK_MAX_STEPS": "7"})
    assert (lambda s: (s.max_steps, s.timeout))(from_ini.with_markers(marker)) == (2, 1.0)
    from_cli = settings(cli={"max_steps": 3}, ini={"timeout": "2"})
    assert (lambda s: (s.max_steps, s.timeout))(from_cli.with_markers(marker)) == (3, 1.0)


def test_values_are_converted_from_text() -> None:
    s = settings(ini={"strict": "yes", "allowed_origins": "http://a.test  http://b.test",
                      "dynamic": "ORD-\\d+\n\n date \n", "heal": "true", "guard_replay": "1"})
    assert s.strict is True and s.guard_replay is True
    assert s.allowed_origins == ("http://a.test", "http://b.test")
    assert s.dynamic == ("ORD-\\d+", "date")
    assert s.heal == "on"
    assert settings(ini={"strict": "off"}).strict is False


@pytest.mark.parametrize(("ini", "message"), [
    ({"max_tokens": "lots"}, "webtask setting max_tokens should be a int; got 'lots'."),
    ({"timeout": "-1"}, "webtask setting timeout should be 0 or more; got '-1'."),
    ({"guard_replay": "maybe"},
     "webtask setting guard_replay should be true or false; got 'maybe'."),
    ({"heal": "always"}, "webtask heal should be one of off, on, suggest; got 'always'."),
    ({"response_format": "xml"}, "webtask response_format should be one of auto, "
                                 "json_schema, json_object; got 'xml'."),
    ({"connect": "127.0.0.1:3000"}, "webtask connect should be a URL starting with ws:// or "
                                    "wss://; got '127.0.0.1:3000'."),
    ({"dynamic": "("}, "webtask dynamic pattern '(' is not a regular expression"),
    ({"connect": "ws://h:1/x", "connect_cdp": "http://h:2"},
     "webtask: connect (a Playwright browser server) and connect_cdp (a Chromium's CDP "
     "endpoint) exclude each other; set one."),
], ids=["int", "negative", "bool", "heal", "response-format", "endpoint", "pattern",
        "two-endpoints"])
def test_a_bad_value_names_the_setting_and_what_it_should_be(ini: dict[str, str],
                                                             message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        settings(ini=ini)


def test_a_bad_environment_value_is_refused_like_an_ini_one() -> None:
    with pytest.raises(ConfigurationError, match="webtask setting max_steps should be a int"):
        settings(env={"WEBTASK_MAX_STEPS": "many"})


def test_a_marker_with_an_unknown_or_positional_argument_is_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"takes keyword arguments among "
                       r"allowed_origins, .*timeout; got max_stepz\."):
        Settings().with_markers([pytest.mark.webtask(max_stepz=2).mark])
    with pytest.raises(ConfigurationError, match=r"; got 5\."):
        Settings().with_markers([pytest.mark.webtask(5).mark])


def test_ci_from_the_environment_stops_every_model_call(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, ci in (("true", True), ("1", True), ("false", False), ("0", False), ("", False)):
        monkeypatch.setenv("CI", value)
        assert Settings().in_ci is ci, value
        assert Settings().no_model_reason == ("CI is set, so no model is called" if ci else "")
    monkeypatch.delenv("CI")
    assert Settings(mode="replay").no_model_reason == "--webtask-replay-only is set"
