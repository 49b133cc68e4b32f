"""async_webtask: the same API with await, in a pytest-asyncio suite of its own."""

from __future__ import annotations

import pytest

from tests.plugin.conftest import Inner

ASYNC_TEST = '''
import pytest


@pytest.mark.asyncio
async def test_add(async_webtask):
    await async_webtask.goto("/")
    await async_webtask.do("add the Blue Oxford Shirt in size M to the cart")
    await async_webtask.check("the cart total is $39.00")
'''

MIXED = ASYNC_TEST + '''

def test_sync(webtask):
    webtask.goto("/")
'''


@pytest.fixture
def inner(inner_process: Inner) -> Inner:
    """async_webtask runs its own event loop: each inner run is a new process."""
    return inner_process


def test_async_record_then_replay(inner: Inner) -> None:
    inner.tests(ASYNC_TEST)
    first = inner.run()
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines(["*0 step(s) replayed, 2 recorded, 0 failed*"])
    second = inner.run(env={"FORBID_LLM": "1"})
    second.assert_outcomes(passed=1)
    second.stdout.fnmatch_lines(["*2 step(s) replayed, 0 recorded, 0 failed*", "*LLM: 0 calls*"])


def test_mixing_sync_and_async_is_a_clear_error(inner: Inner) -> None:
    inner.tests(MIXED)
    result = inner.run()
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed") == 1 and outcomes.get("errors") == 1
    result.stdout.fnmatch_lines(["*webtask cannot run in the same pytest process as "
                                 "async_webtask*Run async suites in their own pytest invocation*"])
