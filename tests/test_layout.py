"""The package's layout rules, checked on its source: each class exists once, recipes know
nothing of the agent or pytest, loading the plugin is light, the public API is curated."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest_webtask

PACKAGE = Path(pytest_webtask.__file__).parent


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py")) if folder else sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[str]:
    """Absolute names of what a module imports (relative imports resolved)."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            names.append(".".join([*base, *(node.module.split(".") if node.module else [])]))
    return names


def test_a_class_in_an_async_module_is_the_async_twin_of_one_sync_class() -> None:
    """Shared classes (results, errors, requests) live outside _async/_sync, so that the
    sync and async code raise and return the same classes."""
    offenders = []
    for path in _modules(""):
        if path.parent.name != "_async":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("Async"):
                offenders.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert offenders == []


def test_errors_are_one_class_for_both_flavours() -> None:
    from pytest_webtask.errors import ExtractionError, ReplayError
    from pytest_webtask.extraction._async import executor as async_executor
    from pytest_webtask.extraction._sync import executor as sync_executor
    from pytest_webtask.recipes._async import replayer as async_replayer
    from pytest_webtask.recipes._sync import replayer as sync_replayer

    assert async_replayer.ReplayError is sync_replayer.ReplayError is ReplayError
    assert async_executor.ExtractionError is sync_executor.ExtractionError is ExtractionError


def test_recipes_import_neither_the_agent_nor_pytest() -> None:
    bad = [(path.relative_to(PACKAGE).as_posix(), name) for path in _modules("recipes")
           for name in _imports(path)
           if name == "pytest" or name.startswith(("pytest_webtask.agent",
                                                   "pytest_webtask.steps", "_pytest"))]
    assert bad == []


def test_the_fixture_object_is_not_in_recipes() -> None:
    assert not list((PACKAGE / "recipes").rglob("webtask.py"))
    assert pytest_webtask.WebTask.__module__ == "pytest_webtask.steps._sync.webtask"


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    code = ("import sys, pytest_webtask.plugin; "
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in "
            "('openai', 'playwright', 'pydantic', 'yaml') or m.startswith("
            "('pytest_webtask.agent', 'pytest_webtask.steps', 'pytest_webtask.browser'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == []


def test_the_public_api_is_what_a_test_touches() -> None:
    for name in pytest_webtask.__all__:
        assert getattr(pytest_webtask, name) is not None, name
    for internal in ("ProposalResult", "TaskContext", "Fingerprint", "LLM"):
        assert internal not in pytest_webtask.__all__
    # what a model adapter implements and returns (docs/models.md)
    from pytest_webtask.agent.models import Usage
    from pytest_webtask.llm.base import LLMReply
    from pytest_webtask.llm.context import Block, Context
    assert (pytest_webtask.Context, pytest_webtask.Block, pytest_webtask.LLMReply,
            pytest_webtask.Usage) == (Context, Block, LLMReply, Usage)
    assert issubclass(pytest_webtask.ReplayError, pytest_webtask.WebtaskError)
    from pytest_webtask.steps._async.webtask import AsyncWebTask
    assert pytest_webtask.AsyncWebTask is AsyncWebTask
