"""The test plan: the flows the explorer found, as Markdown a person edits and the generator
reads back.

    # Test plan: Demo Shop

    App: http://localhost:8000/

    ## Search the catalogue

    Steps:
    1. goto /
    2. do: search for {query}

    Outcome: the list shows Blue Oxford Shirt

    Data:
    - variable query: oxford
    - secret password: $SHOP_PASSWORD
    - file receipt: data/receipt.txt

A flow that ``webtask explore`` did not try, because it changes data on the server, has a
``Not tried while exploring: <why>`` line: ``webtask generate`` leaves it out (nothing is
recorded against the app) until that line is deleted.

A flow is a ``##`` section. Each step is ``goto <path or URL>``, ``do: ...``, ``check: ...``,
``extract: ...``, or a plain sentence (the generator asks the model which kind it is). The
outcome is what the test checks last. ``{name}`` in a step is a variable (its value is the
test's parameter), a secret (read from the named environment variable when the test runs;
never written anywhere) or, for ``do`` steps, a file to upload. A ``## Site map`` section
ends the flows: what follows is for reading, kept as it is.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import WebtaskError

KINDS = ("goto", "do", "check", "extract")
DATA_KINDS = ("variable", "secret", "file")
SITE_MAP = "Site map"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SECRET_ENV = "WEBTASK_SECRET_"

_STEP = re.compile(r"^\s*(\d+)[.)]\s+(.*\S)\s*$")
_PREFIX = re.compile(r"^([A-Za-z][\w ]{0,15}?)\s*:\s*(.*)$")
_GOTO = re.compile(r"^(?:goto|go to)\s+(/\S*|https?://\S+)$", re.IGNORECASE)
_DATA = re.compile(r"^-\s+(\w+)\s+(\w+)\s*(?::\s*(.*\S))?\s*$")
NOT_TRIED = "Not tried while exploring"
_SECTION = re.compile(r"^(Steps|Outcome|Data|Notes|Not tried while exploring)\s*:\s*(.*)$",
                      re.IGNORECASE)


class PlanError(WebtaskError):
    """A plan file that cannot be read: where (file and line), what is wrong, and how to
    write it instead."""


def secret_env(name: str) -> str:
    """The environment variable a secret is read from unless the plan names another."""
    return SECRET_ENV + re.sub(r"\W", "_", name).upper()


def identifier(text: str) -> str:
    out = re.sub(r"\W+", "_", text).strip("_").lower() or "flow"
    return out if not out[0].isdigit() else "_" + out


def anchor(title: str) -> str:
    """The heading's anchor as GitHub and most Markdown viewers make it."""
    slug = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return slug.replace(" ", "-")


@dataclass
class FlowStep:
    """One step of a flow: its kind (``""`` for a plain sentence not classified yet) and
    its text (a path or URL for ``goto``)."""

    kind: str
    text: str

    def render(self) -> str:
        if self.kind == "goto":
            return f"goto {self.text}"
        return f"{self.kind}: {self.text}" if self.kind else self.text


@dataclass
class Flow:
    """A user flow: what a person would do, and what they would check at the end."""

    title: str
    steps: list[FlowStep] = field(default_factory=list)
    outcome: str = ""
    variables: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)  # name -> environment variable
    files: dict[str, str] = field(default_factory=dict)  # name -> path (from the plan's folder)
    notes: str = ""
    not_tried: str = ""  # why exploring did not try it (it writes); generate leaves it out
    line: int = field(default=0, compare=False)  # where its heading is, for messages

    @property
    def test_name(self) -> str:
        return "test_" + identifier(self.title).removeprefix("test_")

    @property
    def anchor(self) -> str:
        return anchor(self.title)

    def placeholders(self, text: str) -> list[str]:
        return PLACEHOLDER.findall(text)


@dataclass
class TestPlan:
    """A test plan: its flows, and what is around them (kept as written)."""

    __test__ = False  # not a pytest test class, whatever its name

    title: str = "Test plan"
    app: str = ""
    intro: str = ""
    flows: list[Flow] = field(default_factory=list)
    site_map: str = ""  # the appendix, kept verbatim


# -- writing ------------------------------------------------------------------------------


def _value(text: str) -> str:
    """A data value as written: quoted (JSON) when spaces at its ends or quotes would be
    lost otherwise."""
    if not text or text != text.strip() or text.startswith('"') or "\n" in text:
        return json.dumps(text, ensure_ascii=False)
    return text


def write_plan(plan: TestPlan) -> str:
    out = [f"# {plan.title}", ""]
    if plan.app:
        out += [f"App: {plan.app}", ""]
    if plan.intro:
        out += [plan.intro.strip(), ""]
    for flow in plan.flows:
        out += [f"## {flow.title}", "", "Steps:"]
        out += [f"{n}. {step.render()}" for n, step in enumerate(flow.steps, 1)]
        out.append("")
        if flow.outcome:
            out += [f"Outcome: {flow.outcome}", ""]
        data = ([f"- variable {k}: {_value(v)}" for k, v in flow.variables.items()]
                + [f"- secret {k}: ${v}" for k, v in flow.secrets.items()]
                + [f"- file {k}: {_value(v)}" for k, v in flow.files.items()])
        if data:
            out += ["Data:", *data, ""]
        if flow.not_tried:
            out += [*textwrap.wrap(f"{NOT_TRIED}: {flow.not_tried.strip()}", 99,
                                   break_long_words=False, break_on_hyphens=False), ""]
        if flow.notes:
            out += ["Notes:", flow.notes.strip(), ""]
    if plan.site_map:
        out += [f"## {SITE_MAP}", "", plan.site_map.strip(), ""]
    return "\n".join(out).rstrip("\n") + "\n"


# -- reading ------------------------------------------------------------------------------


class _Reader:
    def __init__(self, text: str, where: str) -> None:
        self.lines = text.splitlines()
        self.where = where

    def fail(self, line: int, message: str) -> PlanError:
        return PlanError(f"{self.where}, line {line}: {message}")

    def read(self) -> TestPlan:
        plan = TestPlan(title="")
        flow: Flow | None = None
        section = ""
        intro: list[str] = []
        notes: list[str] = []
        for n, raw in enumerate(self.lines, 1):
            line = raw.rstrip()
            stripped = line.strip()
            if line.startswith("## "):
                if flow is not None:
                    self._finish(flow, notes)
                title = line[3:].strip()
                if title.lower() == SITE_MAP.lower():
                    plan.site_map = "\n".join(self.lines[n:]).strip()
                    flow = None
                    break
                if not title:
                    raise self.fail(n, "a flow heading needs a title (`## Search the catalogue`).")
                flow = Flow(title=title, line=n)
                plan.flows.append(flow)
                section, notes = "", []
                continue
            if line.startswith("# ") and flow is None and not plan.title and not plan.flows:
                plan.title = line[2:].strip()
                continue
            if flow is None:
                if stripped.lower().startswith("app:") and not plan.app:
                    plan.app = stripped[4:].strip()
                elif plan.title or stripped:
                    intro.append(line)
                continue
            if not stripped:
                if section in ("outcome", "not tried while exploring"):
                    section = "after-outcome"
                if section == "notes":
                    notes.append("")
                continue
            head = _SECTION.match(stripped)
            if head and not line[0].isspace():
                section = head.group(1).lower()
                rest = head.group(2).strip()
                if section == "outcome":
                    if flow.outcome:
                        raise self.fail(n, f"flow {flow.title!r} has two Outcome lines.")
                    flow.outcome = rest
                elif section == "notes":
                    notes = [rest] if rest else []
                elif section == "not tried while exploring":
                    flow.not_tried = rest
                elif rest:
                    raise self.fail(n, f"write the {head.group(1)} on the lines after "
                                    f"`{head.group(1)}:`, one per line.")
                continue
            if section == "steps":
                self._step(flow, n, line)
            elif section == "outcome":
                flow.outcome = f"{flow.outcome} {stripped}".strip()
            elif section == "not tried while exploring":
                flow.not_tried = f"{flow.not_tried} {stripped}".strip()
            elif section == "data":
                self._data(flow, n, stripped)
            elif section == "notes":
                notes.append(line)
            else:
                raise self.fail(
                    n, f"unexpected text in flow {flow.title!r}: {stripped!r}. A flow holds "
                    "`Steps:` (numbered steps), `Outcome:`, `Data:` and `Notes:` (free text).")
        if flow is not None:
            self._finish(flow, notes)
        plan.intro = "\n".join(intro).strip()
        plan.title = plan.title or "Test plan"
        self._check_plan(plan)
        return plan

    def _step(self, flow: Flow, n: int, line: str) -> None:
        m = _STEP.match(line)
        if m is None:
            if line[0].isspace() and flow.steps:  # a step continued on the next line
                last = flow.steps[-1]
                last.text = f"{last.text} {line.strip()}"
                return
            raise self.fail(n, f"expected a numbered step (`1. do: add a shirt to the cart`); "
                            f"got {line.strip()!r}.")
        flow.steps.append(self._parse_step(n, m.group(2)))

    def _parse_step(self, n: int, text: str) -> FlowStep:
        goto = _GOTO.match(text)
        if goto:
            return FlowStep("goto", goto.group(1))
        if re.match(r"^(goto|go to)\b", text, re.IGNORECASE) and ":" not in text.split()[0]:
            raise self.fail(n, f"`goto` takes a path or a URL (`goto /cart`); got {text!r}.")
        prefix = _PREFIX.match(text)
        if prefix and " " not in prefix.group(1).strip():
            kind = prefix.group(1).strip().lower()
            body = prefix.group(2).strip()
            if kind == "goto":
                raise self.fail(n, f"write `goto /path` without a colon; got {text!r}.")
            if kind not in KINDS:
                raise self.fail(
                    n, f"unknown step kind {prefix.group(1)!r}: a step starts with "
                    f"{', '.join(k + ':' for k in KINDS[1:])} or `goto`, or is a plain "
                    "sentence (without a colon after its first word) for the generator to "
                    "classify.")
            if not body:
                raise self.fail(n, f"the {kind} step has no text.")
            return FlowStep(kind, body)
        return FlowStep("", text.strip())

    def _data(self, flow: Flow, n: int, line: str) -> None:
        m = _DATA.match(line)
        if m is None or m.group(1).lower() not in DATA_KINDS:
            raise self.fail(
                n, f"expected a data item (`- variable query: linen`, `- secret password: "
                f"$SHOP_PASSWORD`, `- file receipt: data/receipt.txt`); got {line!r}.")
        kind, name, value = m.group(1).lower(), m.group(2), (m.group(3) or "")
        if name in flow.variables or name in flow.secrets or name in flow.files:
            raise self.fail(n, f"{name!r} is declared twice in flow {flow.title!r}.")
        if value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError:
                raise self.fail(n, f"the quoted value of {name!r} is not closed properly: "
                                f"{value}") from None
        if kind == "secret":
            if value and not value.startswith("$"):
                raise self.fail(
                    n, f"a secret names the environment variable it is read from "
                    f"(`- secret {name}: ${secret_env(name)}`), never its value: the plan "
                    "is a file people share.")
            env = value[1:] if value else secret_env(name)
            if not re.fullmatch(r"[A-Za-z_]\w*", env):
                raise self.fail(n, f"{env!r} is not an environment variable name.")
            flow.secrets[name] = env
        elif kind == "file":
            if not value:
                raise self.fail(n, f"the file {name!r} needs a path (`- file {name}: "
                                "data/receipt.txt`, from the plan's folder).")
            flow.files[name] = value
        else:
            flow.variables[name] = value

    def _finish(self, flow: Flow, notes: list[str]) -> None:
        flow.notes = "\n".join(notes).strip()
        where = f"flow {flow.title!r} (line {flow.line})"
        if not flow.steps:
            raise PlanError(f"{self.where}: {where} has no steps: add `Steps:` and numbered "
                            "steps under it.")
        declared = {**flow.variables, **flow.secrets, **flow.files}
        for text, what in [(s.text, f"step {i}") for i, s in enumerate(flow.steps, 1)] + [
                (flow.outcome, "the outcome")]:
            for name in flow.placeholders(text):
                if name not in declared:
                    raise PlanError(
                        f"{self.where}: {where}: {what} uses {{{name}}}, which its Data does "
                        f"not declare: add `- variable {name}: <value>` (or `- secret "
                        f"{name}: ${secret_env(name)}`).")
        for i, step in enumerate(flow.steps, 1):
            used = set(flow.placeholders(step.text))
            if step.kind in ("check", "goto", "extract") and used & set(flow.secrets):
                raise PlanError(f"{self.where}: {where}: step {i} ({step.kind}) names a "
                                "secret; only a `do` step may type one.")
        if set(flow.placeholders(flow.outcome)) & set(flow.secrets):
            raise PlanError(f"{self.where}: {where}: the outcome names a secret; a check "
                            "never shows one.")

    def _check_plan(self, plan: TestPlan) -> None:
        if not plan.flows:
            raise PlanError(f"{self.where}: the plan has no flows: each flow is a `## Title` "
                            "section with numbered steps under `Steps:`.")
        seen: dict[str, Flow] = {}
        for flow in plan.flows:
            other = seen.setdefault(flow.test_name, flow)
            if other is not flow:
                raise PlanError(
                    f"{self.where}: the flows on lines {other.line} and {flow.line} "
                    f"({other.title!r}, {flow.title!r}) would both be {flow.test_name}: "
                    "give one another title.")


def read_plan(text: str, where: str = "the plan") -> TestPlan:
    """Parse a plan; ``PlanError`` names the line and what to write instead."""
    return _Reader(text, where).read()


def load_plan(path: Path) -> TestPlan:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlanError(f"No plan at {path}: write one with `webtask explore URL --plan "
                        f"{path}`.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlanError(f"Cannot read the plan {path}: {exc}") from None
    return read_plan(text, str(path))
