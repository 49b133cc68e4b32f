"""``webtask_sign_in``: sign in once per worker, every test starting signed in.

Playwright's answer to "every test signs in again" is a set-up that saves the browser
context's storage state (cookies, local storage) once and starts each test's context from
it; pytest-playwright users pass it through ``browser_context_args``. This fixture does the
same with a recorded sign-in: a function of ``webtask`` steps, recorded once like a test
(its recipe beside the file that defines it) and replayed with no model, run at most once
per session and xdist worker; the state is saved in pytest's temp dir (per worker), never
beside the recipes, and the sign-in is replayed again when the state has expired.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..recipes.naming import recipe_path
from .assembly import _llm_provider, _run_budget, claim_flavour
from .keys import SETTINGS, SIGN_IN

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


class SignIn:
    """The ``webtask_sign_in`` fixture's object: call it with a sign-in function to get the
    path of a saved storage state (``storage_state=`` of a browser context)."""

    def __init__(self, request: pytest.FixtureRequest, folder: Path) -> None:
        self._request = request
        self.folder = folder
        self.runs: dict[str, int] = {}  # sign-ins run in this worker, by name
        # what each name was called with, to make its state again when it expires
        self.calls: dict[str, tuple[Callable[[Any], None], float | None, dict[str, Any]]] = {}

    def __call__(self, steps: Callable[[Any], None], *, name: str = "sign_in",
                 max_age: float | None = None,
                 context_args: dict[str, Any] | None = None) -> Path:
        """The storage state after ``steps(webtask)`` ran, as a file path. Run once per
        session and worker for each ``name``, and again when the saved state has expired:
        a cookie of it is past its expiry, or it is older than ``max_age`` seconds.
        ``context_args`` go to the sign-in's browser context (``base_url`` is the run's)."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise pytest.fail.Exception(
                f"webtask_sign_in(name={name!r}): a name is letters, digits, '_', '.' or '-' "
                "(it names the recipe and the saved state)", pytrace=False)
        if not callable(steps):
            raise pytest.fail.Exception(
                f"webtask_sign_in({steps!r}): pass a function that takes the webtask object "
                "and signs in, e.g. def sign_in(webtask): webtask.goto('/login'); ...",
                pytrace=False)
        self.calls[name] = (steps, max_age, dict(context_args or {}))
        return self.fresh(name)

    def fresh(self, name: str) -> Path:
        """The state of ``name``, made again (replayed) first if it has expired."""
        steps, max_age, context_args = self.calls[name]
        state = self.folder / f"{name}.json"
        if expired(state, max_age) is not None:
            self._run(steps, name, state, context_args)
        return state

    def _run(self, steps: Callable[[Any], None], name: str, state: Path,
             context_args: dict[str, Any]) -> None:
        from ..steps._sync.pipeline import Pipeline
        from ..steps._sync.webtask import WebTask
        from ..steps.services import StepServices, TestInfo
        from ..steps.session import RecipeSession
        from .fixtures import _register_engine

        request = self._request
        config = request.config
        settings = config.stash[SETTINGS]
        source = inspect.getsourcefile(steps)
        if source is None:
            raise pytest.fail.Exception(
                f"webtask_sign_in: {steps!r} has no source file to keep its recipe beside",
                pytrace=False)
        recipe = recipe_path(Path(source), name)
        claim_flavour(request, "sync")
        _register_engine(request)
        base_url = request.getfixturevalue("base_url") or None
        browser = request.getfixturevalue("browser")
        args = dict(context_args)
        if base_url:
            args.setdefault("base_url", base_url)
        context = browser.new_context(**args)
        session = RecipeSession(path=recipe, test_name=name,
                                record_all=settings.mode == "record")
        shown = os.path.relpath(source, config.invocation_params.dir)
        pipe = Pipeline(context.new_page(), session, settings,
                        services=StepServices(llm=_llm_provider(request),
                                              run_budget=_run_budget(config)),
                        test=TestInfo(base_url=base_url, fix_command=(
                            f"pytest --webtask-record with a test that uses {name!r} "
                            f"({shown})")))
        passed = False
        try:
            steps(WebTask(pipe))
            passed = True
            state.parent.mkdir(parents=True, exist_ok=True)
            partial = state.with_suffix(".partial")
            context.storage_state(path=partial)
            partial.replace(state)  # whole or not at all, for a worker reading it
        finally:
            pipe.finish(passed)
            context.close()
        self.runs[name] = self.runs.get(name, 0) + 1


def expired(state: Path, max_age: float | None) -> str | None:
    """Why the saved state must be made again (None: it may be used)."""
    try:
        age = time.time() - state.stat().st_mtime
        data = json.loads(state.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "there is none"
    if max_age is not None and age > max_age:
        return f"it is {age:.0f}s old (max_age={max_age:g})"
    now = time.time()
    for cookie in data.get("cookies", []):
        expires = cookie.get("expires", -1)
        if isinstance(expires, (int, float)) and 0 < expires < now:
            return f"its cookie {cookie.get('name')!r} has expired"
    return None


@pytest.fixture(scope="session")
def webtask_sign_in(request: pytest.FixtureRequest,
                    tmp_path_factory: pytest.TempPathFactory) -> SignIn:
    """Sign in once per session and xdist worker; every test starts signed in. Pass the
    state to pytest-playwright's ``browser_context_args``::

        def sign_in(webtask):
            webtask.goto("/signin")
            webtask.do("sign in as {email}", email="ada@example.com",
                       secrets={"password": os.environ["SHOP_PASSWORD"]})

        @pytest.fixture(scope="session")
        def browser_context_args(browser_context_args, webtask_sign_in):
            return {**browser_context_args, "storage_state": webtask_sign_in(sign_in)}

    The sign-in is recorded once like a test's steps (its recipe beside the file that
    defines ``sign_in``, named after ``name``) and replayed with no model. The state is
    saved in pytest's temp dir, one per worker, and made again (replayed) when a cookie of
    it has expired or it is older than ``max_age`` seconds."""
    sign_in = SignIn(request, tmp_path_factory.getbasetemp() / "webtask-sign-in")
    request.session.stash[SIGN_IN] = sign_in
    return sign_in


@pytest.fixture(autouse=True)
def _webtask_fresh_sign_ins(request: pytest.FixtureRequest) -> None:
    """Before each test (and its browser context): a saved sign-in that has expired since
    is made again, so the test's context starts from a fresh state (the file path that
    ``browser_context_args`` holds is read by every new context)."""
    sign_in = request.session.stash.get(SIGN_IN, None)
    if sign_in is not None:
        for name in list(sign_in.calls):
            sign_in.fresh(name)
