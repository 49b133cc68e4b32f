from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server import LocalServer


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    srv = LocalServer()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def _clear_server(server: LocalServer) -> None:
    server.posts.clear()
    server.requests.clear()
    server.pages.clear()


# Async tests of the async twin cannot share a process with pytest-playwright's sync
# fixtures (their event loop is already running): test_async_twin.py runs them apart.
collect_ignore = [] if os.environ.get("WEBTASK_ASYNC_TWIN") else ["async_twin"]
