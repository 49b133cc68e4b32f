"""One word per idea (GLOSSARY.md); replies that use the words from before a rename still
parse, so scripts and models that learned them keep working."""

from __future__ import annotations

from pathlib import Path

from pytest_webtask.agent.plan_params import PlanStep, ToolInvocation
from pytest_webtask.extraction.model import StepOfStrategy

ROOT = Path(__file__).resolve().parents[1]


def test_the_words_and_their_older_spellings_parse_alike() -> None:
    new = ToolInvocation.model_validate({"tool": "click", "parameters": {"element_id": "b-1"},
                                         "reason": "add it"})
    old = ToolInvocation.model_validate({"tool": "click", "args": {"element_id": "b-1"},
                                         "reasoning": "add it"})
    assert new == old and new.parameters == {"element_id": "b-1"} and new.reason == "add it"
    assert PlanStep.model_validate({"action": "a", "tool": "t", "args": {"x": 1}}).parameters \
        == {"x": 1}
    step = StepOfStrategy.model_validate({"thought": "look", "tool": "probeClick",
                                          "args": {"selector": "li"}})
    assert step.reason == "look" and step.parameters == {"selector": "li"}


def test_prompts_use_the_glossary_words() -> None:
    prompts = "\n".join(p.read_text(encoding="utf-8")
                        for p in (ROOT / "pytest_webtask" / "prompts_data").rglob("*.yaml"))
    for old in ('"args"', '"thought"', '"reasoning"', "PAGINATION_BUTTON", "maxItems"):
        assert old not in prompts, old


# Names an idea had before it got its glossary word: none may come back as an identifier.
RETIRED = {
    "PageSnapshot": "PageState (page state)",
    "StepKey": "StepIdentity (step identity)",
    "tool_name": "Action.tool (action)",
    "SessionReport": "ExtractionLog (extraction log)",
    "Reporter": "TerminalSummary (terminal summary)",
    "StepObserver": "StepListener (listener)",
    "NoReport": "no listener (listener)",
    "StepContext": "StepHarness (step harness)",
    "AsyncStepContext": "AsyncStepHarness (step harness)",
}


def _identifiers(path: Path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[-1])
    return names


def test_retired_words_are_not_names_in_the_code() -> None:
    found = []
    for folder in ("pytest_webtask", "tests", "example_suites", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for word in sorted(_identifiers(path) & set(RETIRED)):
                found.append(f"{path.relative_to(ROOT)}: {word} (say {RETIRED[word]})")
    assert found == []


def test_one_class_name_means_one_thing() -> None:
    """Two classes of the package share no name (``Check`` was both a claim and a tool)."""
    import ast

    seen: dict[str, list[str]] = {}
    for path in sorted((ROOT / "pytest_webtask").rglob("*.py")):
        if "_sync" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                seen.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}


def test_code_comments_and_prompts_name_no_seed_document() -> None:
    """The design documents ("seed 003") are not in this repository: the code says what it
    means instead."""
    import re

    found = [str(p.relative_to(ROOT)) for p in (ROOT / "pytest_webtask").rglob("*")
             if p.suffix in (".py", ".yaml", ".js")
             and re.search(r"\bseeds? ?\d{3}", p.read_text(encoding="utf-8"), re.I)]
    assert found == []
