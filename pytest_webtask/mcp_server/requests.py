"""A parked model request as the coding agent reads it, and its replies as the model's JSON.

What the agent reads is the request's own text, unchanged: the task, the step history (each
action's result, a refusal included), the page state and the question with its hint lines,
as the proposer built it and its asker masked it. Around it, only what a model would get from
the request's other parts: which answers its reply schema offers, and the task's tools."""

from __future__ import annotations

import json
from typing import Any

from .bridge import Parked

SEPARATOR = "\n\n---\n\n"  # ModelRequest.user_text's, between blocks
HISTORY = "Step History:"
TOOLS = "Available Tools:"


def parts(parked: Parked) -> dict[str, Any]:
    """A step request's parts: ``task``, ``history``, ``page``, ``question``, ``extras``
    (what the agent loop said after the page: a claim that did not hold, a question asked
    again); an empty dict for a request of another kind (exploring, extraction)."""
    blocks = parked.user.split(SEPARATOR)
    at = next((i for i, b in enumerate(blocks) if b.startswith(HISTORY)), None)
    if at is None or len(blocks) < at + 3 or not blocks[0].startswith("Task:"):
        return {}
    return {"task": blocks[0].split("\n", 2)[1] if "\n" in blocks[0] else blocks[0],
            "history": blocks[at], "page": blocks[at + 1], "question": blocks[at + 2],
            "extras": blocks[at + 3:]}


def last_history_step(history: str) -> str:
    """The history's last step (what the agent's last reply did, each action's result)."""
    at = history.rfind("\nStep ")
    return history[at + 1:] if at >= 0 else ""


def offered(schema: dict[str, Any] | None) -> tuple[bool, bool]:
    """Whether a step request's reply schema offers (done, give_up)."""
    if not schema:
        return True, True
    shapes = schema.get("anyOf", [schema])
    done = any(s.get("properties", {}).get("complete", {}).get("const") is True for s in shapes)
    give_up = any("impossible" in s.get("properties", {}) for s in shapes)
    return done, give_up


def tools_text(parked: Parked) -> str:
    system = parked.system
    at = system.find(TOOLS)
    return system[at:] if at >= 0 else ""


def describe(parked: Parked, *, previous: Parked | None = None, tools: bool = False) -> str:
    """The request as the coding agent reads it. After a reply of the agent's on the same
    task, it opens with what that reply did (the agent loop's answer: a refusal, a claim that
    does not hold, the actions' results); ``tools`` adds the task's tools."""
    found = parts(parked)
    if not found:
        schema = json.dumps(parked.schema, indent=None) if parked.schema else "(none)"
        return (f"Model request {parked.number} (not a step: reply with the `answer` tool, "
                f"one JSON object that follows the schema below).\n\n"
                f"=== INSTRUCTIONS ===\n{parked.system}\n\n=== REQUEST ===\n{parked.user}\n\n"
                f"=== REPLY SCHEMA ===\n{schema}")
    said = []
    same_task = previous is not None and parts(previous).get("task") == found["task"]
    if previous is not None and not same_task:
        said.append(f"(The step before is over. A new step starts: {found['task']})")
    if found["extras"]:
        said.append("The agent loop answered your last reply:\n"
                    + "\n\n".join(found["extras"]))
    acted = same_task and previous is not None and (
        found["history"].count("\nStep ") > parts(previous)["history"].count("\nStep "))
    if acted and (last := last_history_step(found["history"])):
        said.append("What your last reply did (from the step history):\n" + last)
    done, give_up = offered(parked.schema)
    answers = ["act (actions by element id of the page state above)"]
    answers.append("done (with evidence)" if done else
                   "done is NOT offered on this request (a do task acts first, or the "
                   "question above asks for actions)")
    answers.append("give_up" if give_up else "give_up is NOT offered yet (try something first)")
    body = parked.user if not found["extras"] else SEPARATOR.join(
        parked.user.split(SEPARATOR)[:-len(found["extras"])])
    text = "\n\n".join([*said, f"=== MODEL REQUEST {parked.number} ===", body,
                        "=== YOUR ANSWERS ===\n" + "; ".join(answers) + "."])
    if tools:
        text += "\n\n=== TOOLS OF THIS TASK (for act) ===\n" + tools_text(parked)
    return text


def reply(message: str, *, actions: list[dict[str, Any]] | None = None,
          evidence: list[Any] | None = None, impossible: bool = False) -> str:
    """The model's JSON reply: the next actions, done with evidence, or giving up."""
    if impossible:
        return json.dumps({"message": message, "complete": False, "impossible": True})
    if evidence is not None:
        return json.dumps({"message": message, "complete": True, "evidence": evidence})
    return json.dumps({"message": message, "complete": False, "actions": actions or []})
