"""While `webtask generate` records and replays, the forms exploring did not try stay closed
unless ``--allow-form`` named them: a route on each test's browser context stops a request
that would write to one of their paths before it leaves the browser, as the write guard
did while exploring (DESIGN.md decision 19), and the test fails saying which form.

This is the guard where requests leave, under the refusal by words (``untried.py``) that
leaves out a flow naming such a form before anything runs: a flow that reaches one without
naming it is stopped here. Loaded by the generator only (``-p``), the forms given in
``WEBTASK_GENERATE_CLOSED_FORMS`` (JSON: ``[[path pattern, form], ...]``).
"""

from __future__ import annotations

import fnmatch
import json
import os
from collections.abc import Generator, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Request, Route

from .untried import CLOSED_ENV
from .writes import write_method

_STOPPED = pytest.StashKey[list[str]]()


def closed_forms() -> list[tuple[str, str]]:
    """(path pattern, form) pairs of the forms that stay closed in this run."""
    return [(str(path), str(form)) for path, form in
            json.loads(os.environ.get(CLOSED_ENV) or "[]")]


@pytest.fixture(autouse=True)
def _webtask_closed_forms(request: pytest.FixtureRequest) -> Iterator[None]:
    """Routes the test's browser context so that no write reaches a closed form."""
    closed = closed_forms()
    if not closed or "page" not in request.fixturenames:
        yield
        return
    context = request.getfixturevalue("context")
    stopped = request.node.stash.setdefault(_STOPPED, [])

    def handle(route: Route, sent: Request) -> None:
        try:
            method = write_method(sent)
            path = urlsplit(sent.url).path
            form = next((f for pattern, f in closed if fnmatch.fnmatchcase(path, pattern)),
                        None) if method else None
            if form is None:
                route.fallback()
                return
            stopped.append(f"{method} {path} ({form})")
            if sent.is_navigation_request():
                route.fulfill(status=204)  # the page stays where it was
            else:
                route.abort("blockedbyclient")
        except PlaywrightError:
            pass  # the page or context went away meanwhile

    context.route("**/*", handle)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    stopped = item.stash.get(_STOPPED, [])
    if report.when == "call" and stopped:
        report.outcome = "failed"
        report.longrepr = (
            f"it sent {'; '.join(dict.fromkeys(stopped))}: a form exploring did not try, "
            "stopped before it left the browser. To allow it, run webtask generate with "
            "--allow-form naming the form (its button's text or its path).")
