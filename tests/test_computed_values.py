"""Values computed when the step runs: a variable or secret passed as a callable (a TOTP code,
a code read from a test inbox) is called when its step first types or checks it, once per
step run; the recipe and the model see only its placeholder. Recorded with a ScriptedLLM on a
sign-in page whose server checks the code against its clock, and replayed with no model."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from pytest_webtask.agent.task_context import ComputedValueError, TaskContext
from pytest_webtask.export.trail import Trail
from pytest_webtask.export.writer import NotExportable, export
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.recipes.model import RecipeStep
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

SHARED = "JBSWY3DPEHPK3PXP"  # the authenticator's shared secret (base32)
PASSWORD = "lovelace-1815"
TASK = "sign in as {email} with the one-time code"


def totp(shared: str, at: float | None = None, step: int = 30) -> str:
    """RFC 6238's six-digit code for the time ``at`` (now by default)."""
    counter = int((time.time() if at is None else at) // step)
    digest = hmac.new(base64.b32decode(shared), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 1_000_000:06d}"


class Authenticator:
    """The test's authenticator app: each call computes the code for now, and is counted."""

    def __init__(self) -> None:
        self.codes: list[str] = []

    def __call__(self) -> str:
        self.codes.append(totp(SHARED))
        return self.codes[-1]


def sign_in_server(server: LocalServer, skew: float = 0.0) -> None:
    """The sign-in endpoint: the password, and a code for its clock (``skew`` seconds off
    the real one), this window or the one before, as servers allow for typing time."""
    def answer(fields: dict[str, str]) -> tuple[int, str]:
        now = time.time() + skew
        good = {totp(SHARED, now), totp(SHARED, now - 30)}
        if fields.get("password") == PASSWORD and fields.get("code") in good:
            return 200, f"<h1>Welcome</h1><p>Signed in as {fields.get('email')}</p>"
        return 401, "<h1>Sign in failed</h1><p>Wrong password or one-time code</p>"
    server.answers["/totp-signin"] = answer


def line_id(page: str, pattern: str) -> str:
    found = re.search(r"^\s*- (?:\w+ > )*([a-z0-9-]+-\d+)\b[^\n]*" + pattern, page, re.MULTILINE)
    assert found, f"no line matches {pattern!r} in:\n{page}"
    return found.group(1)


def sign_in_reply(context: ModelRequest) -> dict[str, Any]:
    page = context.blocks[-1].text
    if context.step == 1:
        return {"complete": False, "message": "fill the form", "actions": [
            {"reason": "email", "tool": "fill", "parameters": {
                "element_id": line_id(page, '"Email"'), "value": "{email}"}},
            {"reason": "password", "tool": "fill", "parameters": {
                "element_id": line_id(page, '"Password"'), "value": "{password}"}},
            {"reason": "code", "tool": "fill", "parameters": {
                "element_id": line_id(page, '"One-time code"'), "value": "{code}"}},
            {"reason": "go", "tool": "click", "parameters": {
                "element_id": line_id(page, '"Sign in"')}}]}
    return {"complete": True, "message": "signed in", "evidence": ["Signed in as ada@example.com"]}


class SignIn:
    """One sign-in on /totp in a fresh context, recorded or replayed."""

    def __init__(self, browser: Browser, server: LocalServer, tmp_path: Path) -> None:
        self.browser, self.server = browser, server
        self.recipe = tmp_path / "sign_in.yaml"
        self.artifacts = tmp_path / "artifacts"
        self.llm = ScriptedLLM(sign_in_reply)

    def run(self, mode: str, code: object, **values: Any) -> None:
        context = self.browser.new_context()
        try:
            with open_webtask(context.new_page(), self.recipe, mode,
                              base_url=self.server.url,
                              llm=self.llm if mode != "replay" else None,
                              test_name="sign_in", timeout=3.0,
                              artifacts=self.artifacts) as task:
                task.goto("/totp")
                task.do(TASK, email="ada@example.com",
                        secrets={"password": PASSWORD, "code": code}, **values)
        finally:
            context.close()

    def fails(self, code: object, mode: str = "replay") -> str:
        with pytest.raises(pytest.fail.Exception) as failure:
            self.run(mode, code)
        return str(failure.value)


@pytest.fixture
def sign_in(browser: Browser, server: LocalServer, tmp_path: Path) -> SignIn:
    sign_in_server(server)
    return SignIn(browser, server, tmp_path)


def test_a_totp_sign_in_records_and_replays_with_a_code_computed_when_typed(
        sign_in: SignIn, server: LocalServer) -> None:
    app = Authenticator()
    sign_in.run("record", app)
    assert len(app.codes) == 1  # called once, when the step typed it
    recipe = sign_in.recipe.read_text()
    assert "value: '{code}'" in recipe, recipe
    assert "secrets:\n  - code\n  - password" in recipe, recipe
    prompts = "\n".join(sign_in.llm.prompts)
    assert "{code} = (secret, computed when it is typed" in prompts, prompts
    posted = [f for p, f, _ in server.posts if p == "/totp-signin"]
    assert posted[-1]["code"] == app.codes[0]
    for code in app.codes:
        assert code not in recipe and code not in prompts

    sign_in.run("replay", app)  # no model
    assert len(app.codes) == 2
    assert [f for p, f, _ in server.posts if p == "/totp-signin"][-1]["code"] == app.codes[1]


def test_a_code_that_does_not_match_the_servers_clock_fails_the_replay(
        sign_in: SignIn, server: LocalServer) -> None:
    sign_in.run("record", Authenticator())
    # a code fixed when the test was written (ten minutes ago): the server refuses it
    stale = totp(SHARED, time.time() - 600)
    message = sign_in.fails(stale)
    assert "expected the page shows text 'Signed in as ada@example.com'" in message, message
    assert stale not in message
    # the server's clock is five minutes off: the code computed now is refused
    sign_in_server(server, skew=300)
    app = Authenticator()
    message = sign_in.fails(app)
    assert "Signed in as ada@example.com" in message, message
    assert app.codes and app.codes[0] not in message
    failure = (sign_in.artifacts / "webtask-failure.txt").read_text()
    assert app.codes[0] not in failure and PASSWORD not in failure


def test_a_function_that_fails_fails_the_step_with_its_reason(sign_in: SignIn) -> None:
    sign_in.run("record", Authenticator())

    def inbox_empty() -> str:
        raise LookupError("no mail for ada@example.com yet")

    message = sign_in.fails(inbox_empty)
    assert "Step 1 do(" in message and "the secret {code}: its function raised " \
           "LookupError: no mail for ada@example.com yet" in message, message
    assert "Traceback" not in message

    async def from_async_inbox() -> str:
        return "123456"

    message = sign_in.fails(from_async_inbox)
    assert "the secret {code} is an async function; pass a plain function" in message, message
    assert "the secret {code}: its function returned None" in sign_in.fails(lambda: None)


# -- the task context, without a browser ----------------------------------------------------


def test_a_computed_value_is_called_once_per_step_and_only_when_used() -> None:
    calls: list[int] = []

    def code() -> int:
        calls.append(1)
        return 424242

    ctx = TaskContext.create("sign in", variables={"user": "ada", "code": code})
    assert calls == []  # nothing is computed before the step uses it
    shown = ctx.get_task_context().text
    assert "- {code} = (computed when it is typed: type the placeholder {code} itself)" in shown
    assert "424242" not in shown
    assert ctx.substitute("{user}: {code}") == "ada: 424242"
    assert ctx.substitute("{code}") == "424242"
    assert calls == [1]  # the same value for the rest of the step
    assert ctx.placeholders("code 424242 accepted") == "code {code} accepted"
    # an agent given the step's values shares the value already computed
    agent_ctx = TaskContext.create("sign in", variables=ctx.passed(secret=False))
    assert agent_ctx.substitute("{code}") == "424242" and calls == [1]
    # the next step computes it again
    again = TaskContext.create("sign in", variables={"code": code})
    assert again.substitute("{code}") == "424242" and calls == [1, 1]


def test_a_computed_secret_is_masked_from_when_it_is_computed() -> None:
    ctx = TaskContext.create("sign in", secrets={"code": lambda: "987654"})
    assert ctx.names_secret("{code}")
    assert ctx.redact("987654") == "987654"  # not computed yet: nothing to mask
    ctx.substitute("{code}")
    assert ctx.redact("typed 987654") == "typed {code}"
    assert "987654" not in ctx.get_task_context().text


def test_a_callable_is_refused_when_it_cannot_give_a_value() -> None:
    async def later() -> str:
        return "1"

    with pytest.raises(ComputedValueError, match="async function"):
        TaskContext.create("t", secrets={"code": later})
    ctx = TaskContext.create("t", variables={"code": lambda: ""})
    with pytest.raises(ComputedValueError, match=r"returned '', not a value"):
        ctx.substitute("{code}")


def test_the_export_says_a_computed_value_cannot_be_written(tmp_path: Path) -> None:
    trail = Trail()
    step: Callable[[], str] = lambda: "1"  # noqa: E731
    trail.step(RecipeStep(kind="do", text=TASK), {"email": "a@b"}, {}, {"code": step})
    with pytest.raises(NotExportable, match=r"computes \{code\} when it runs"):
        export(trail, base_url=None, folder=tmp_path, test_name="t", module="m", origin="o")
