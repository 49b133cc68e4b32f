from __future__ import annotations

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
