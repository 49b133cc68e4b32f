"""A test function written from steps in English, as a person writes one for the ``webtask``
fixture: ``goto``, ``do`` and ``check`` calls, variables as keyword arguments, secrets read
from the environment (their values are never in the file)."""

from __future__ import annotations

import ast
import json
import keyword
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# the parameters of ``do`` and ``check`` themselves: a variable of one of these names would
# be taken for the parameter (``do("...", task="x")`` is a TypeError)
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RESERVED = frozenset({"self", "task", "statement", "resources", "secrets"})


class TestStep(BaseModel):
    """One step of a test to write."""

    model_config = ConfigDict(extra="forbid")
    kind: str = Field(description="goto, do or check")
    text: str = Field(description="goto: a path relative to the base URL; do: a task in "
                      "English; check: a statement about the page")
    uses: list[str] = Field(default_factory=list, description="variables and secrets the "
                            "step takes besides those its text names as {placeholder}")


def _literal(text: str) -> str:
    return json.dumps(text)  # a valid Python string literal, double-quoted


def secret_read(name: str, env: str) -> str:
    """The expression that reads the secret ``name`` from the environment variable ``env``:
    where it is not set (a CI job without it), the test fails saying which and how to set
    it, never with a bare KeyError."""
    why = (f"Set the environment variable {env} (the test's secret {name!r}): export {env}=... "
           "where pytest runs; in CI, from the CI's secrets.")
    return f"os.environ.get({_literal(env)}) or pytest.fail({_literal(why)}, pytrace=False)"


def step_line(step: TestStep, variables: dict[str, str], secrets: dict[str, str]) -> str:
    if step.kind == "goto":
        return f"    webtask.goto({_literal(step.text)})"
    names = list(dict.fromkeys([*PLACEHOLDER.findall(step.text), *step.uses]))
    args = [_literal(step.text)]
    args += [f"{n}={_literal(variables[n])}" for n in names if n in variables]
    if step.kind == "check":
        return f"    webtask.check({', '.join(args)})"
    hidden = [f"{_literal(n)}: {secret_read(n, secrets[n])}" for n in names if n in secrets]
    if hidden:
        args.append("secrets={" + ", ".join(hidden) + "}")
    return f"    webtask.do({', '.join(args)})"


def problems(steps: list[TestStep], variables: dict[str, str], secrets: dict[str, str]
             ) -> list[str]:
    """What is wrong with the steps, for the agent to correct (empty when none)."""
    out = []
    if not steps:
        out.append("a new test needs steps (goto, do, check)")
    for n, step in enumerate(steps, 1):
        if step.kind not in ("goto", "do", "check"):
            out.append(f"step {n}: kind {step.kind!r} is not goto, do or check")
        if not step.text.strip():
            out.append(f"step {n}: its text is empty")
        for name in [*PLACEHOLDER.findall(step.text), *step.uses]:
            if step.kind == "do" and name not in variables and name not in secrets:
                out.append(f"step {n}: {{{name}}} is neither a variable nor a secret of the "
                           "test")
            if step.kind == "check" and name not in variables:
                out.append(f"step {n}: {{{name}}} is not a variable of the test" + (
                    " (a check takes variables only, never a secret: its statement is "
                    "shown)" if name in secrets else ""))
    for name in [*variables, *secrets]:
        if name in RESERVED or keyword.iskeyword(name):
            out.append(f"{name!r} cannot name a variable or a secret: it is a parameter of "
                       "webtask.do()/check() (task, statement, resources, secrets) or a "
                       "Python keyword; choose another name (e.g. " f"{name}_name)")
        elif not NAME.match(name):
            out.append(f"{name!r} is not a name (letters, digits, _)")
    both = set(variables) & set(secrets)
    if both:
        out.append(f"{', '.join(sorted(both))}: a name is a variable or a secret, not both")
    return out


def function_source(name: str, steps: list[TestStep], variables: dict[str, str],
                    secrets: dict[str, str]) -> str:
    lines = [f"def {name}(webtask):"]
    lines += [step_line(s, variables, secrets) for s in steps]
    return "\n".join(lines) + "\n"


def has_test(path: Path, name: str) -> bool:
    """Does the module define a function ``name`` (at its top level or in a class)?"""
    if not path.exists():
        return False
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
               for n in ast.walk(tree))


def replace_test(path: Path, name: str, source: str, *, needs_os: bool) -> str:
    """Replace the module-level function ``name`` (its ``def`` to its last line; decorators
    stay) with ``source``; the module's text before. A ValueError when ``name`` is not a
    function at the module's top level (a method of a class is edited by hand)."""
    before = path.read_text(encoding="utf-8")
    node = next((n for n in ast.parse(before).body
                 if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name),
                None)
    if node is None or node.end_lineno is None:
        raise ValueError(f"{name} is not a function at the top level of {path.name} (a test "
                         "method in a class is not replaced: edit it yourself)")
    lines = before.splitlines(keepends=True)
    text = "".join([*lines[:node.lineno - 1], source, *lines[node.end_lineno:]])
    path.write_text(_imported(text) if needs_os else text, encoding="utf-8")
    return before


def _imported(text: str) -> str:
    """The module's text with ``import os`` and ``import pytest`` (what a secret's read
    takes, ``secret_read``) at its top when it lacks them."""
    for module in ("pytest", "os"):  # os first
        if not re.search(rf"^import {module}$", text, re.M):
            text = (f"import {module}\n" + ("\n" if text and not text.startswith("import")
                                            else "") + text)
    return text


def add_test(path: Path, source: str, *, needs_os: bool) -> str | None:
    """Append the function to the module (made if missing, ``import os`` and ``import
    pytest`` added when the function reads secrets); the module's text before, None when it
    did not exist."""
    before = path.read_text(encoding="utf-8") if path.exists() else None
    text = before or ""
    text = (_imported(text) if needs_os else text).rstrip("\n")
    text = (text + "\n\n\n" if text else "") + source
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return before


def restore(path: Path, before: str | None) -> None:
    if before is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(before, encoding="utf-8")


def as_steps(raw: list[Any]) -> list[TestStep]:
    """Steps given as ``{"kind": "do", "text": ...}`` or ``{"do": ...}``."""
    out = []
    for item in raw:
        if isinstance(item, dict) and "kind" not in item and len(item) == 1:
            (kind, text), = item.items()
            item = {"kind": kind, "text": text}
        out.append(TestStep.model_validate(item))
    return out
