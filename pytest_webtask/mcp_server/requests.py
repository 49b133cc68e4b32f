"""A parked model request as the coding agent reads it, and its replies as the model's JSON.

What the agent reads is the request's own text, unchanged: the task, the step history (each
action's result, a refusal included), the page state and the question with its hint lines,
as the proposer built it and its asker masked it. Around it, only what a model would get from
the request's other parts: which answers its reply schema offers, and the task's tools."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from . import claims
from .bridge import Parked

SEPARATOR = "\n\n---\n\n"  # ModelRequest.user_text's, between blocks
HISTORY = "Step History:"
TOOLS = "Available Tools:"
ALL_BUILTIN = "The browser tools of act's description (read_page(tools=true) lists them)."
CHANGED, CHANGED_END = "What your last actions did", "\n\nThe task: "  # prompts' "changes"


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


_FIELD = re.compile(r"^\s+(Tool|Reason|Parameters|Element|Execution|Error|Output): ?(.*)$")


def compact_step(step: str) -> str:
    """A history step in a few lines: its status and message, one line an action ("1.
    click {'element_id': 'button-0'} on button "Save": ok"), then its page and note lines
    as the history has them."""
    lines = step.splitlines()
    head, out = lines[0].rstrip(":"), []  # "Step 2"
    action: dict[str, str] = {}

    def flush() -> None:
        if action:
            said = f"{action.get('Tool', '?')} {action.get('Parameters', '')}".strip()
            if action.get("Element"):
                said += f" on {action['Element']}"
            said += ": " + ("ok" if action.get("Execution") == "Success" else "FAILED")
            said += "".join(f" ({k.lower()}: {action[k]})" for k in ("Error", "Output")
                            if action.get(k))
            if action.get("Reason"):
                said += f" [why: {action['Reason']}]"
            out.append(f"  {action['n']}. {said}")
            action.clear()

    status = message = ""
    for line in lines[1:]:
        stripped = line.strip()
        if stripped.startswith("Status: "):
            status = stripped[len("Status: "):].lower()
        elif stripped.startswith("Message: "):
            message = stripped[len("Message: "):]
        elif re.fullmatch(r"Action \d+:", stripped):
            flush()
            action["n"] = stripped[len("Action "):-1]
        elif action and (m := _FIELD.match(line)):
            action[m.group(1)] = m.group(2)
        else:
            flush()
            out.append(line)
    flush()
    if not status:
        return step  # not the agent's history format: as it is
    first = f"{head}: {status}" + (f". Message: {message}" if message else "")
    return "\n".join([first, *out])


def history_steps(history: str) -> tuple[str, list[str]]:
    """The history's heading and its steps' texts (each "Step n: ..."), in order."""
    pieces = re.split(r"\n+(?=Step \d+:)", history)
    return pieces[0], [p.strip("\n") for p in pieces[1:]]


@dataclass
class Shown:
    """What the agent was already shown in this run's answers: the tools, the last page
    state (and the request that showed it), the history steps of the current task, what
    the last actions changed, and whether the claims' reference came with a check request."""

    tools: str = ""
    page: str = ""
    page_in: int = 0
    task: str = ""
    steps: list[str] = field(default_factory=list)
    changes: str = ""
    changes_in: int = 0
    opening: str = ""  # the task's block(s) before the history
    opening_in: int = 0
    claims: bool = False
    # a request that is no step (exploring): its instructions and schema, by the request
    # that showed them first
    other: dict[str, int] = field(default_factory=dict)


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


_PARAM = re.compile(r"^\s+- (\w+) \((.*), (required|optional)\): (.*)$")
_GENERIC = ("element_id", "to_element_id")  # "Element ID to click": the name says it


def compact_tools(text: str) -> str:
    """The system prompt's tool list, a line a tool: ``click(element_id, times?: integer):
    what it does``, each parameter's own words kept (but an element id's). Text that is not
    laid out as the agent's prompt lays it out is given as it is."""
    out = []
    for block in re.split(r"\n\s*\n(?=Tool: )", text.split("\n", 1)[-1].strip()):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("Tool: "):
            return text
        name = lines[0][6:].strip()
        said = next((ln[13:].strip() for ln in lines if ln.startswith("Description: ")), "")
        params, notes = [], []
        for line in lines:
            found = _PARAM.match(line)
            if found is None:
                continue
            pname, kind, need, note = found.groups()
            shown = pname + ("" if need == "required" else "?")
            params.append(shown if kind == "string" else f"{shown}: {kind}")
            if pname not in _GENERIC:
                notes.append(f"{pname}: {note}")
        more = (" (" + "; ".join(notes) + ")") if notes else ""
        out.append(f"- {name}({', '.join(params)}): {said}{more}")
    return "\n".join(out)


def builtin_tools() -> str:
    """The browser tools every recording's tasks have (act's description lists them; an
    answer names only what a task has besides them, or lacks), a line a tool."""
    from ..tools._sync.browser_tools import Tool
    from ..tools._sync.registry import BROWSER_TOOLS, UploadTool
    from ..tools.params import render_tool

    classes: list[type[Tool]] = [*BROWSER_TOOLS, UploadTool]
    body = "\n\n".join(render_tool(t.name, t.description, t.params_class) for t in classes)
    return compact_tools(f"{TOOLS}\n\n{body}")


def tools_news(task_tools: str, builtin: str) -> str:
    """What a task's tools are, said against ``builtin`` (act's description): the lines of
    tools it has besides them (a plugin's, a replaced built-in), and those it lacks ("" when
    it has exactly the browser tools, with or without upload)."""
    lines = compact_tools(task_tools).splitlines()
    known = builtin.splitlines()
    names = {ln.split("(", 1)[0] for ln in lines}
    own = [ln for ln in lines if ln not in known]
    lacks = [n for n in (ln.split("(", 1)[0] for ln in known)
             if n not in names and n != "- upload"]
    said = []
    if own:
        said.append("Besides the browser tools of act's description, this task has:\n"
                    + "\n".join(own))
    if lacks:
        said.append("This task does not have: " + ", ".join(n[2:] for n in lacks) + ".")
    return "\n".join(said)


def is_check(task: str) -> bool:
    return task.startswith("Check whether this statement")


def describe(parked: Parked, *, previous: Parked | None = None, shown: Shown | None = None,
             full: bool = False, tools: bool = False, builtin: str = "") -> str:
    """The request as the coding agent reads it. After a reply of the agent's on the same
    task, it opens with what the agent loop answered (a refusal, a claim that does not hold).
    What ``shown`` says the agent read in an earlier answer is not repeated (unless
    ``full``): the history's earlier steps, an unchanged page state, what the last actions
    changed. The task's tools are those of act's description (``builtin``): an answer says
    only what a task has besides them or lacks (once a run), all of them when ``tools``;
    the claims' reference comes with the first check request of a run."""
    found = parts(parked)
    shown = shown if shown is not None else Shown()
    if not found:  # exploring, planning: the instructions and the schema said once a kind
        schema = json.dumps(parked.schema, indent=None) if parked.schema else "(none)"
        system, said_schema = parked.system, schema
        if not full and shown.other.get(parked.system):
            system = f"(as model request {shown.other[parked.system]} gave them)"
        if not full and shown.other.get(schema):
            said_schema = f"(as model request {shown.other[schema]} gave it)"
        shown.other.setdefault(parked.system, parked.number)
        shown.other.setdefault(schema, parked.number)
        return (f"Model request {parked.number} (not a step: reply with the `answer` tool, "
                f"one JSON object that follows the schema below).\n\n"
                f"=== INSTRUCTIONS ===\n{system}\n\n=== REQUEST ===\n{parked.user}\n\n"
                f"=== REPLY SCHEMA ===\n{said_schema}")
    said = []
    same_task = previous is not None and parts(previous).get("task") == found["task"]
    if previous is not None and not same_task:
        said.append(f"(The step before is over. A new step starts: {found['task']})")
    if found["extras"]:
        said.append("The agent loop answered your last reply:\n"
                    + "\n\n".join(found["extras"]))
    head, steps = history_steps(found["history"])
    history = found["history"]
    if shown.task != found["task"]:
        shown.task, shown.steps = found["task"], []
    seen = [s for s in steps if s in shown.steps]
    if not full and seen and steps[:len(seen)] == seen:
        new = steps[len(seen):]
        history = "\n\n".join([f"{head}\n(steps 1-{len(seen)} of this task: as your earlier "
                                "answers showed them)", *map(compact_step, new)])
    elif not full and steps:
        history = "\n\n".join([head, *map(compact_step, steps)])
    shown.steps = steps
    page = found["page"]
    if not full and page == shown.page:
        page = (f"Current Page State: unchanged since model request {shown.page_in} (the "
                "same page state, the same element ids)")
    else:
        shown.page, shown.page_in = page, parked.number
    question = found["question"]
    if not full:  # the actions are the history's last step, just above
        question = re.sub(r"^(What your last actions did \(step \d+): .*?\):$", r"\1):",
                          question, count=1, flags=re.M)
    changes, cut, rest = question.partition(CHANGED_END)
    if changes.startswith(CHANGED) and cut:
        if not full and changes == shown.changes:
            question = (f"{CHANGED}: as model request {shown.changes_in} said (nothing "
                        "ran since)" + cut + rest)
        else:
            shown.changes, shown.changes_in = changes, parked.number
    blocks = parked.user.split(SEPARATOR)
    at = blocks.index(found["history"])
    opening = SEPARATOR.join(blocks[:at])
    if not full and opening == shown.opening:
        opening = f"Task: {found['task']} (as model request {shown.opening_in} gave it)"
    else:
        shown.opening, shown.opening_in = opening, parked.number
    body = SEPARATOR.join([opening, history, page, question])
    done, give_up = offered(parked.schema)
    answers = ["act (actions by element id of the page state above)"]
    answers.append("done (with evidence)" if done else
                   "done is NOT offered on this request (a do task acts first, or the "
                   "question above asks for actions)")
    answers.append("give_up" if give_up else "give_up is NOT offered yet (try something first)")
    text = "\n\n".join([*said, f"=== MODEL REQUEST {parked.number} ===", body,
                        "=== YOUR ANSWERS ===\n" + "; ".join(answers) + "."])
    task_tools = tools_text(parked)
    if task_tools and tools:
        text += ("\n\n=== TOOLS OF THIS TASK (for act) ===\n" + compact_tools(task_tools))
    elif task_tools and (news := tools_news(task_tools, builtin) or ALL_BUILTIN) \
            and news != shown.tools:
        text += "\n\n=== TOOLS OF THIS TASK (for act) ===\n" + news
        shown.tools = news
    if is_check(found["task"]) and (tools or not shown.claims):
        text += ("\n\n=== CLAIMS (for done; its description has each field) ===\n"
                 + claims.reference(compact=True))
        shown.claims = True
    return text


def reply(message: str, *, actions: list[dict[str, Any]] | None = None,
          evidence: list[Any] | None = None, impossible: bool = False) -> str:
    """The model's JSON reply: the next actions, done with evidence, or giving up."""
    if impossible:
        return json.dumps({"message": message, "complete": False, "impossible": True})
    if evidence is not None:
        return json.dumps({"message": message, "complete": True, "evidence": evidence})
    return json.dumps({"message": message, "complete": False, "actions": actions or []})
