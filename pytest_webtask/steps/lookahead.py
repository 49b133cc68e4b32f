"""What the test checks right after a ``do``: read from the test's own source.

``webtask.do("sign in with a wrong password")`` followed by ``webtask.check("an error says
the password is wrong")`` tells the agent what the page should show once the task is done:
an error, for a test of a failure path. The ``test-checks`` rule (agent/policy.py) shows the
agent those statements. Only the statements written as string literals in the statements
that follow the call, in the same block, on the same object, are read; anything else (a
variable, an f-string, a loop) ends the look. Read only when a step is recorded (a replay
never parses a source file), and never an error: a source that cannot be read gives nothing.
"""

from __future__ import annotations

import ast
import linecache
import os
import sys
from functools import lru_cache
from types import FrameType

MAX_CHECKS = 3  # statements shown at most (the block's first ones)
MAX_CHARS = 200  # a statement longer than this is cut (the model sees it, never a recipe)

Caller = tuple[str, int]  # (file name, line) of the statement that called the step


def caller_of(depth: int = 2) -> Caller | None:
    """The (file, line) of the code ``depth`` frames above this call: cheap (no source is
    read); None when there is no such frame."""
    try:
        frame: FrameType | None = sys._getframe(depth)
    except ValueError:
        return None
    return (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


def following_checks(caller: Caller | None) -> tuple[str, ...]:
    """The statements of the ``check`` calls that directly follow the step called at
    ``caller``, on the same object (``webtask``), as the source writes them."""
    if caller is None:
        return ()
    filename, line = caller
    try:
        found = _checks_after(filename, line, _mtime(filename))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    texts = (" ".join(text.split()) for text in found[:MAX_CHECKS])
    return tuple(text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "..."
                 for text in texts)


def _mtime(filename: str) -> float:
    try:
        return os.stat(filename).st_mtime
    except OSError:
        return -1.0


@lru_cache(maxsize=64)
def _tree(filename: str, mtime: float) -> ast.Module | None:
    if mtime < 0:
        return None
    linecache.checkcache(filename)
    source = "".join(linecache.getlines(filename))
    return ast.parse(source, filename) if source else None


@lru_cache(maxsize=64)
def _blocks(filename: str, mtime: float) -> list[list[ast.stmt]]:
    """The file's statement lists (``_bodies``), found once per file (version): a test file
    of many steps is walked once, not once per step."""
    tree = _tree(filename, mtime)
    return [] if tree is None else _bodies(tree)


@lru_cache(maxsize=256)
def _checks_after(filename: str, line: int, mtime: float) -> tuple[str, ...]:
    for body in _blocks(filename, mtime):
        for i, stmt in enumerate(body):
            if not stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                continue
            step = _step_call(stmt)
            if step is None:
                break  # the line is inside this statement, not a step call of its own
            receiver = ast.dump(step.func.value)  # type: ignore[attr-defined]
            texts: list[str] = []
            for after in body[i + 1:]:
                call = _step_call(after)
                if (call is None or call.func.attr != "check"  # type: ignore[attr-defined]
                        or ast.dump(call.func.value) != receiver  # type: ignore[attr-defined]
                        or not call.args or not isinstance(call.args[0], ast.Constant)
                        or not isinstance(call.args[0].value, str)):
                    break
                texts.append(call.args[0].value)
            return tuple(texts)
    return ()


def _bodies(tree: ast.AST) -> list[list[ast.stmt]]:
    """Every list of statements in the tree, innermost last (so a nested block is searched
    after the one that holds it, and the innermost match wins by being found alone)."""
    found: list[list[ast.stmt]] = []
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                found.append(block)
        if isinstance(node, ast.Try):
            found.extend(h.body for h in node.handlers if h.body)
    # a statement in a nested block lies inside its parent's statement too: search the
    # innermost blocks first
    return sorted(found, key=lambda b: -b[0].col_offset)


def _step_call(stmt: ast.stmt) -> ast.Call | None:
    """The ``<object>.<method>(...)`` call a statement is (awaited or not, its value
    assigned or not), else None."""
    value: ast.expr | None
    if isinstance(stmt, ast.Expr):
        value = stmt.value
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        value = stmt.value
    else:
        return None
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value
    return None
