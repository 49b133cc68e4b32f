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
