"""Hooks a plugin or a ``conftest.py`` implements to extend pytest-webtask.

Registered through ``pytest_addhooks``. ``flavour`` is ``"sync"`` for the ``webtask`` fixture
and ``"async"`` for ``async_webtask``: return classes and factories of that flavour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

    from ..steps.outcome import StepOutcome


def pytest_webtask_add_tools(flavour: str) -> list[type]:
    """Tool classes the agent may use while recording, besides the built-in ones.

    A tool subclasses ``pytest_webtask.Tool`` (``AsyncTool`` for ``"async"``) with a ``name``,
    a ``description``, a ``params_class`` (a ``ToolParams`` model; give it ``element_id`` to
    act on an element) and ``perform(params, scene)`` returning an ``ExecutionResult``, as
    the built-in tools do. ``perform`` runs when the agent uses the tool and again when a
    recipe replays it; ``scene`` (``pytest_webtask.Scene``, ``AsyncScene``) holds the page,
    the target's ``locator`` (found by element id when recording, by the recorded
    fingerprint on replay) and ``substitute`` for ``{placeholders}``. An optional ``code``
    writes the tool's actions into an exported test. A tool that defines the older static
    ``act(page, params, locator, substitute)`` still works, with a DeprecationWarning.
    """
    return []


def pytest_webtask_add_strategies(flavour: str) -> dict[str, Any]:
    """Recording strategies by name, selectable with ``--webtask-strategy NAME``, the ini
    setting or ``@pytest.mark.webtask(strategy=NAME)``.

    A strategy is a factory ``(page, llm, options: StrategyOptions) -> runner``; the runner
    has ``page``, ``usage`` and ``execute(task, max_steps, resources, variables, secrets) ->
    TaskResult`` (a coroutine for ``"async"``), as ``Agent`` and ``PlanAgent`` do.
    """
    return {}


def pytest_webtask_step_done(item: pytest.Item, outcome: StepOutcome) -> None:
    """A step of ``item`` was replayed or recorded (``outcome.how``); ``outcome.recipe_step``
    is what the recipe holds for it."""


def pytest_webtask_step_failed(item: pytest.Item, kind: str, text: str, message: str) -> None:
    """A step of ``item`` failed; ``message`` is what the test reports (secrets masked)."""
