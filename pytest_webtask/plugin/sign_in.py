"""``webtask_sign_in``: sign in once per worker, every test starting signed in.

Playwright's answer to "every test signs in again" is a set-up that saves the browser
context's storage state (cookies, local storage) once and starts each test's context from
it; pytest-playwright users pass it through ``browser_context_args``. This fixture does the
same with a recorded sign-in: a function of ``webtask`` steps, recorded once like a test
(its recipe beside the file that defines it) and replayed with no model, run at most once
per session and xdist worker; the state is saved in pytest's temp dir (per worker), never
beside the recipes, and the sign-in is replayed again when the state has expired: one of the
sign-in's own cookies is past its expiry (a banner's short-lived cookie is not the session).

The sign-in runs inside some test's set-up, so what it did is told with that test's reports:
its step counts and model calls go to the test's ``webtask`` user property (the terminal
summary and JUnit XML sum them), its recipe path to ``webtask_recipe_path`` (so
``--webtask-prune`` keeps it, wherever it is kept).
"""

from __future__ import annotations

import inspect
import json
import os
import re
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..recipes.naming import recipe_path
from .assembly import _llm_provider, _run_budget, claim_flavour
from .keys import SETTINGS, SIGN_IN

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


@dataclass
class SignInCall:
    """What a sign-in was called with, to make its state again when it expires."""

    steps: Callable[[Any], None]
    max_age: float | None
    context_args: dict[str, Any]
    recipe: Path
    session_cookies: frozenset[str] | None  # named by the caller; None: found by the run


class SignIn:
    """The ``webtask_sign_in`` fixture's object: call it with a sign-in function to get the
    path of a saved storage state (``storage_state=`` of a browser context)."""

    def __init__(self, request: pytest.FixtureRequest, folder: Path) -> None:
        self._request = request
        self.folder = folder
        self.runs: dict[str, int] = {}  # sign-ins run in this worker, by name
        self.calls: dict[str, SignInCall] = {}  # what each name was called with
        # the cookies each sign-in's own steps set or changed, and those the server keeps
        # from page scripts (HttpOnly): the ones whose expiry ends the sign-in
        self.own: dict[str, frozenset[str]] = {}
        # told with the next test report (its set-up ran the sign-in): step counts of the
        # sign-ins run since, and recipe paths not told yet
        self.untold_stats: list[dict[str, Any]] = []
        self.untold_paths: set[str] = set()

    def __call__(self, steps: Callable[[Any], None], *, name: str = "sign_in",
                 max_age: float | None = None,
                 context_args: dict[str, Any] | None = None,
                 session_cookies: Collection[str] | None = None) -> Path:
        """The storage state after ``steps(webtask)`` ran, as a file path. Run once per
        session and worker for each ``name``, and again when the saved state has expired:
        a cookie of the sign-in's own is past its expiry, or the state is older than
        ``max_age`` seconds. The sign-in's own cookies are those its ``do`` steps set or
        changed and those page scripts cannot read (HttpOnly), unless ``session_cookies``
        names them. ``context_args`` go to the sign-in's browser context (``base_url`` is
        the run's)."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise pytest.fail.Exception(
                f"webtask_sign_in(name={name!r}): a name is letters, digits, '_', '.' or '-' "
                "(it names the recipe and the saved state)", pytrace=False)
        if not callable(steps):
            raise pytest.fail.Exception(
                f"webtask_sign_in({steps!r}): pass a function that takes the webtask object "
                "and signs in, e.g. def sign_in(webtask): webtask.goto('/login'); ...",
                pytrace=False)
        if isinstance(session_cookies, str) or not (
                session_cookies is None
                or all(isinstance(c, str) and c for c in session_cookies)):
            raise pytest.fail.Exception(
                f"webtask_sign_in(session_cookies={session_cookies!r}): name the sign-in's "
                "cookies in a list, e.g. session_cookies=['sessionid']", pytrace=False)
        source = inspect.getsourcefile(steps)
        if source is None:
            raise pytest.fail.Exception(
                f"webtask_sign_in: {steps!r} has no source file to keep its recipe beside",
                pytrace=False)
        recipe = recipe_path(Path(source), name)
        if name not in self.calls:
            self.untold_paths.add(str(recipe))
        self.calls[name] = SignInCall(
            steps, max_age, dict(context_args or {}), recipe,
            None if session_cookies is None else frozenset(session_cookies))
        return self.fresh(name)

    def fresh(self, name: str) -> Path:
        """The state of ``name``, made again (replayed) first if it has expired."""
        call = self.calls[name]
        state = self.folder / f"{name}.json"
        own = call.session_cookies if call.session_cookies is not None else \
            self.own.get(name)
        if expired(state, call.max_age, own) is not None:
            self._run(call, name, state)
        return state

    def tell(self, report: pytest.TestReport) -> None:
        """Add what the sign-ins did since the last report to this (teardown) report of the
        test whose set-up ran them: the terminal summary and JUnit XML read it there."""
        for stats in self.untold_stats:
            report.user_properties.append(("webtask", json.dumps(stats)))
        for path in sorted(self.untold_paths):
            report.user_properties.append(("webtask_recipe_path", path))
        self.untold_stats, self.untold_paths = [], set()

    def _run(self, call: SignInCall, name: str, state: Path) -> None:
        from ..errors import WebtaskError
        from ..steps._sync.pipeline import Pipeline
        from ..steps.services import StepServices, TestInfo
        from ..steps.session import RecipeSession
        from .fixtures import _register_engine

        request = self._request
        config = request.config
        settings = config.stash[SETTINGS]
        steps, recipe, context_args = call.steps, call.recipe, call.context_args
        source = inspect.getsourcefile(steps) or "?"
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
        task = _watching_webtask()(pipe)
        try:
            try:
                steps(task)
            except (pytest.fail.Exception, WebtaskError) as exc:
                raise pytest.fail.Exception(
                    _failed(call, shown, recipe, config, pipe, exc), pytrace=False) from None
            except Exception as exc:  # the user's code: its traceback, with who it was
                if hasattr(exc, "add_note"):  # Python 3.11+
                    exc.add_note(_failed(call, shown, recipe, config, pipe, None))
                raise
            passed = True
            state.parent.mkdir(parents=True, exist_ok=True)
            partial = state.with_suffix(".partial")
            context.storage_state(path=partial)
            self.own[name] = task.changed | {
                c["name"] for c in context.cookies() if c.get("httpOnly")}
            partial.replace(state)  # whole or not at all, for a worker reading it
        finally:
            try:
                pipe.finish(passed)
            finally:
                self.untold_stats.append(pipe.stats.as_dict())
                context.close()
        self.runs[name] = self.runs.get(name, 0) + 1


def _failed(call: SignInCall, source: str, recipe: Path, config: pytest.Config,
            pipe: Any, exc: BaseException | None) -> str:
    """What a failed sign-in says: the function, its recipe and the step, then why."""
    steps = call.steps
    try:
        line = f":{inspect.getsourcelines(steps)[1]}"
    except (OSError, TypeError):
        line = ""
    try:
        shown_recipe = os.path.relpath(recipe, config.invocation_params.dir)
    except ValueError:
        shown_recipe = str(recipe)
    step = f"Step {len(pipe.results) + 1}"
    reason = "" if exc is None else str(getattr(exc, "msg", None) or exc)
    match = re.match(r"(?:Replay failed\. )?(Step \d+ \w+\('(?:[^'\\]|\\.)*'\))", reason)
    if match:
        step = match.group(1)
    name = getattr(steps, "__qualname__", repr(steps))
    said = (f"webtask_sign_in: the sign-in {name} ({source}{line}), recipe "
            f"{shown_recipe}, failed at {step}, so no test can start signed in")
    return f"{said}:\n{reason}" if reason else said


def _watching_webtask() -> Any:
    """A ``WebTask`` that notes the cookies each ``do`` step sets or changes (made
    lazily: the steps load with the first sign-in)."""
    from ..steps._sync.webtask import WebTask

    class SignInWebTask(WebTask):
        def __init__(self, pipe: Any) -> None:
            super().__init__(pipe)
            self.changed: set[str] = set()

        def do(self, *args: Any, **kwargs: Any) -> Any:
            before = _cookies(self.page)
            try:
                return super().do(*args, **kwargs)
            finally:
                after = _cookies(self.page)
                self.changed |= {n for n, v in after.items() if before.get(n) != v}

    return SignInWebTask


def _cookies(page: Any) -> dict[str, str]:
    try:
        return {c["name"]: c["value"] for c in page.context.cookies()}
    except Exception:  # a closed page: nothing seen
        return {}


def expired(state: Path, max_age: float | None,
            own: Collection[str] | None = None) -> str | None:
    """Why the saved state must be made again (None: it may be used). ``own``: the names
    of the sign-in's cookies, the only ones whose expiry counts (None: every cookie)."""
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
        if own is not None and cookie.get("name") not in own:
            continue
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


def tell_sign_ins(item: pytest.Item, report: pytest.TestReport) -> None:
    """On a test's teardown report: what the sign-ins its set-up ran did (``SignIn.tell``)."""
    sign_in = item.session.stash.get(SIGN_IN, None)
    if sign_in is not None and report.when == "teardown":
        sign_in.tell(report)
