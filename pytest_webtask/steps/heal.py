"""When a heal may run, and what a failure says about healing: shared by both twins.

A heal re-does a replayed step with the model when one of its elements drifted (missing,
ambiguous, no longer matching its fingerprint). It is kept only if the step's recorded checks
then hold unchanged; a failing check is the outcome under test and is never healed.
"""

from __future__ import annotations

from ..settings import Settings


def heal_command(fix_command: str, mode: str = "on") -> str:
    """The command that heals the test: its ``--webtask-record`` command with the heal flag."""
    flag = "--webtask-heal" if mode == "on" else f"--webtask-heal={mode}"
    return fix_command.replace("--webtask-record", flag, 1)


def refusal(settings: Settings, fix_command: str) -> str | None:
    """Why no heal runs for a drifted element (the sentence that ends the failure), or None
    when it may run."""
    command = heal_command(fix_command)
    why = settings.no_model_reason
    if why:
        return (f"\n  The page may have changed harmlessly: a heal might fix this locally, "
                f"where a model is configured (healing never runs here: {why}):  {command}")
    if settings.heal == "off":
        return (f"\n  If the page changed harmlessly, a heal might fix this (the model re-does "
                f"the step, kept only if its recorded checks hold):  {command}")
    return None
