"""OpenAILLM's transport against the fake server: one set of model settings for every
builder, streamed replies, a deadline for the whole reply, refusals decided at once, a closed
connection named as such, what each reply and failure cost, the server's context window."""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable

import pytest

from pytest_webtask import ConfigurationError, LLMError, OpenAILLM
from pytest_webtask.llm import endpoint, openai_llm
from pytest_webtask.settings import FIELDS
from pytest_webtask.testing import FakeOpenAIServer, Fault
from tests.test_openai_llm import KEY, ctx

ENV = {"WEBTASK_MODEL": "m", "OPENAI_API_KEY": KEY, "WEBTASK_LLM_TIMEOUT": "240",
       "WEBTASK_LLM_MAX_TOKENS": "1024", "WEBTASK_RESPONSE_FORMAT": "json_object",
       "WEBTASK_LLM_RETRIES": "5", "WEBTASK_LLM_RETRY_TIMEOUTS": "yes"}


def _wait_for(condition: Callable[[], object], seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


# -- one set of model settings -------------------------------------------------------------

def test_from_env_reads_every_model_setting_and_keywords_win() -> None:
    llm = OpenAILLM.from_env(environ=ENV)
    assert (llm.model, llm.timeout, llm.max_tokens, llm.response_format, llm.max_retries,
            llm.retry_timeouts) == ("m", 240.0, 1024, "json_object", 5, True)
    assert llm.structured_outputs is False
    given = OpenAILLM.from_env(environ=ENV, timeout=7, max_retries=0, retry_timeouts=False)
    assert (given.timeout, given.max_retries, given.retry_timeouts) == (7, 0, False)
    # a variable that a keyword replaces is not read, so a wrong one does not matter
    assert OpenAILLM.from_env(environ={**ENV, "WEBTASK_LLM_TIMEOUT": "soon"}, timeout=3
                              ).timeout == 3
    with pytest.raises(ConfigurationError, match="WEBTASK_LLM_TIMEOUT should be a number of "
                                                 "seconds; got 'soon'"):
        OpenAILLM.from_env(environ={**ENV, "WEBTASK_LLM_TIMEOUT": "soon"})
    with pytest.raises(ConfigurationError, match="WEBTASK_RESPONSE_FORMAT should be one of"):
        OpenAILLM.from_env(environ={**ENV, "WEBTASK_RESPONSE_FORMAT": "xml"})
    defaults = OpenAILLM.from_env(environ={"WEBTASK_MODEL": "m", "OPENAI_API_KEY": KEY})
    assert (defaults.timeout, defaults.max_tokens, defaults.max_retries,
            defaults.retry_timeouts) == (FIELDS["llm_timeout"].default,
                                         FIELDS["llm_max_tokens"].default,
                                         FIELDS["llm_retries"].default, False)


def test_from_env_reads_the_settings_own_variables() -> None:
    setting = {"model": "model", "base_url": "base_url_llm", "timeout": "llm_timeout",
               "max_tokens": "llm_max_tokens", "response_format": "response_format",
               "max_retries": "llm_retries", "retry_timeouts": "llm_retry_timeouts"}
    for key, env in openai_llm.ENV.items():
        if key != "api_key":
            assert FIELDS[setting[key]].env == env, key


def test_bench_and_explore_build_the_model_from_the_same_settings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.miniwob import parse_args, setup
    from pytest_webtask.explore.cli import model_factory

    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    llm_for, meta = setup(parse_args(["--tasks", "click-test"]))
    bench_llm = llm_for("click-test", "Click the button.")
    explore_llm = model_factory(argparse.Namespace(llm=None, model=None))()
    for llm in (bench_llm, explore_llm):
        assert isinstance(llm, OpenAILLM)
        assert (llm.timeout, llm.max_tokens, llm.response_format, llm.max_retries) == \
            (240.0, 1024, "json_object", 5)
    assert meta["llm"]["timeout"] == 240.0
    assert model_factory(argparse.Namespace(llm=None, model="other"))().model == "other"


# an in-process inner run: no browser, so without pytest-playwright (its hooks do not nest)
INNER = ("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:playwright")


def test_the_fixture_builds_the_model_from_the_settings(pytester: pytest.Pytester,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makepyfile("""
        def test_model(webtask_llm):
            llm = webtask_llm
            assert (llm.timeout, llm.max_tokens, llm.response_format, llm.max_retries,
                    llm.retry_timeouts) == (240.0, 1024, "json_object", 1, True)
        """)
    pytester.makeini("[pytest]\nwebtask_llm_retries = 1\n")  # the ini beats the environment
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    pytester.runpytest(*INNER).assert_outcomes(passed=1)


# -- streaming, deadlines, refusals, closed connections ------------------------------------

def test_replies_are_streamed_with_usage_counted_and_timed() -> None:
    with FakeOpenAIServer(['{"ok": true}']) as fake:
        reply = OpenAILLM("m", base_url=fake.base_url, api_key=KEY).generate(ctx())
    assert reply.text == '{"ok": true}' and not reply.truncated
    assert fake.requests[0]["stream"] is True
    assert fake.requests[0]["stream_options"] == {"include_usage": True}
    usage = reply.usage
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.timeouts,
            usage.refusals) == (1, 100, 10, 0, 0)
    assert 0 < usage.seconds < 5


def test_a_reply_cut_at_max_tokens_is_marked_truncated() -> None:
    with FakeOpenAIServer(['{"words": "' + "x" * 100 + '"}']) as fake:
        reply = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_tokens=4).generate(ctx())
    assert reply.truncated and len(reply.text) == 16


def test_a_json_schema_refusal_falls_back_with_exactly_one_more_request(
        caplog: pytest.LogCaptureFixture) -> None:
    # llama.cpp's server answers 500 naming response_format: the SDK used to retry that twice
    with FakeOpenAIServer(['{"ok": 1}', '{"ok": 2}'], refuse_json_schema=500) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)  # default retries: 2
        first = llm.generate(ctx())
        assert [r["response_format"]["type"] for r in fake.requests] == \
            ["json_schema", "json_object"]
        second = llm.generate(ctx())  # decided once, for the object's life
    assert len(fake.requests) == 3 and fake.requests[2]["response_format"]["type"] == \
        "json_object"
    assert (first.text, first.usage.calls, first.usage.refusals) == ('{"ok": 1}', 1, 1)
    assert (second.text, second.usage.refusals) == ('{"ok": 2}', 0)
    assert "refused a json_schema reply format" in caplog.text and KEY not in caplog.text


def test_a_refusal_of_a_forced_json_schema_is_reported_at_once() -> None:
    with FakeOpenAIServer(["{}"], refuse_json_schema=500) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, response_format="json_schema")
        with pytest.raises(LLMError, match="answered HTTP 500: .*response_format") as info:
            llm.generate(ctx())
    assert len(fake.requests) == 1  # the same request cannot fare better: not retried
    assert info.value.usage is not None and info.value.usage.refusals == 1


def test_a_server_that_refuses_stream_options_is_asked_without() -> None:
    with FakeOpenAIServer(["{}"], refuse_stream_options=400) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        assert llm.generate(ctx()).text == "{}"
        assert llm.generate(ctx()).text == "{}"
    assert ["stream_options" in r for r in fake.requests] == [True, False, False]


def test_the_timeout_bounds_the_whole_reply_not_each_read() -> None:
    # tokens every 50 ms for 10 s: no single read waits long, the reply does
    with FakeOpenAIServer([Fault.trickle(10.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, timeout=0.6)
        started = time.monotonic()
        with pytest.raises(LLMError, match=r"did not answer within 0.6s \(it had written 2 "
                                           r"characters\)") as info:
            llm.generate(ctx())
        took = time.monotonic() - started
        _wait_for(lambda: fake.cancelled)
    assert took < 2
    assert fake.cancelled == [0] and len(fake.requests) == 1  # closed, not asked again
    assert info.value.usage is not None and info.value.usage.timeouts == 1


def test_a_connection_closed_mid_reply_is_named_as_such() -> None:
    with FakeOpenAIServer([Fault.hangup(after=2)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(LLMError) as info:
            llm.generate(ctx())
    message = str(info.value)
    assert "closed the connection before replying in full" in message
    assert "OPENAI_BASE_URL" not in message and KEY not in message


def test_a_connection_closed_before_any_answer_is_named_and_retried() -> None:
    with FakeOpenAIServer([Fault.hangup()]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(LLMError, match="closed the connection before replying: the "
                                           "server may have crashed"):
            llm.generate(ctx())
    with FakeOpenAIServer([Fault.hangup(), '{"ok": 1}']) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY, max_retries=1)
        assert llm.generate(ctx()).text == '{"ok": 1}'
    assert len(fake.requests) == 2


def test_a_refused_connection_points_at_the_base_url(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    llm = OpenAILLM("m", base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY, max_retries=1)
    with pytest.raises(LLMError, match=r"Could not connect to the model endpoint .* after 1 "
                                       r"retry: check OPENAI_BASE_URL") as info:
        llm.generate(ctx())
    assert "retry 1 of 1" in caplog.text and KEY not in caplog.text
    assert info.value.usage is not None and info.value.usage.calls == 0


def test_ctrl_c_closes_the_connection() -> None:
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("needs Python's own Ctrl-C handler in the main thread")
    with FakeOpenAIServer([Fault.slow(30.0)]) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)

        def interrupt() -> None:
            _wait_for(lambda: fake.requests)
            time.sleep(0.2)
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

        threading.Thread(target=interrupt, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            llm.generate(ctx())
        _wait_for(lambda: fake.cancelled)
    assert fake.cancelled == [0]  # the server saw the client go: it stops generating


# -- the context window --------------------------------------------------------------------

@pytest.mark.parametrize(("props", "models", "size"), [
    ({"default_generation_settings": {"n_ctx": 8192}}, None, 8192),  # llama.cpp
    ({"n_ctx": 4096}, None, 4096),
    (None, [{"id": "x", "meta": {"n_ctx_train": 32768}}], 32768),  # one model, any name
    (None, [{"id": "a", "max_model_len": 1}, {"id": "m", "max_model_len": 16384}], 16384),
    (None, [{"id": "a", "max_model_len": 1}, {"id": "b", "max_model_len": 2}], None),
    (None, [{"id": "gpt-4o"}], None),  # OpenAI's list says no size
    (None, None, None),
])
def test_the_context_window_is_asked_once(props: dict | None, models: list | None,
                                          size: int | None) -> None:
    with FakeOpenAIServer(props=props, models=models) as fake:
        llm = OpenAILLM("m", base_url=fake.base_url, api_key=KEY)
        assert llm.context_window() == size
        asked = list(fake.paths)
        assert llm.context_window() == size
    assert fake.paths == asked and asked[0] == ("GET", "/props")  # remembered
    assert fake.requests == []


def test_the_context_window_of_a_silent_server_is_none_soon() -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        llm = OpenAILLM("m", base_url=f"http://127.0.0.1:{silent.getsockname()[1]}/v1",
                        api_key=KEY)
        started = time.monotonic()
        assert llm.context_window() is None
    assert time.monotonic() - started < endpoint.WINDOW_TIMEOUT + 1.5
    assert OpenAILLM("m", base_url="http://127.0.0.1:9/v1", api_key=KEY).context_window() \
        is None


def test_logs_never_show_the_key(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with FakeOpenAIServer([Fault.http(500, f"bad key {KEY}"), "{}"]) as fake:
        OpenAILLM("m", base_url=fake.base_url, api_key=KEY).generate(ctx())
    assert "HTTP 500" in caplog.text and KEY not in caplog.text
