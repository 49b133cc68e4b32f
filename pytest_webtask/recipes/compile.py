"""Turning what the agent did into a recipe step: actions by fingerprint, checks from evidence."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from ..agent.models import Evidence, TaskResult
from ..agent.task_context import TaskContext
from .model import Check, RecipeAction, RecipeStep

# Tokens that change from run to run: ids mixing letters and digits, long numbers, dates,
# times. Small numbers (counts, prices) are kept: they are usually the outcome under test.
_DYNAMIC = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b"
    r"|\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b"
    r"|\b(?=[A-Za-z]*\d)[A-Za-z]+\d[A-Za-z0-9]*\b|\b\d{5,}\b"
)


def is_dynamic(text: str) -> bool:
    return bool(_DYNAMIC.search(text))


def text_pattern(text: str) -> str | None:
    """A regex matching ``text`` with its run-to-run parts generalized; None if it has none."""
    parts, last = [], 0
    for m in _DYNAMIC.finditer(text):
        parts.append(re.escape(text[last : m.start()]))
        parts.append(r"[A-Za-z0-9:\-]+")
        last = m.end()
    if not parts:
        return None
    parts.append(re.escape(text[last:]))
    return "".join(parts)


def relative_url(url: str, base_url: str | None) -> str:
    """``url`` relative to ``base_url`` when under it (path + query), else unchanged."""
    if base_url and url.startswith(base_url.rstrip("/")):
        rest = url[len(base_url.rstrip("/")) :]
        return rest if rest.startswith("/") else "/" + rest
    return url


def absolute_url(url: str, base_url: str | None, current: str) -> str:
    return urljoin(base_url or current, url) if not urlsplit(url).scheme else url


def _templated(obj: object, ctx: TaskContext) -> object:
    if isinstance(obj, str):
        return ctx.placeholders(obj)
    if isinstance(obj, list):
        return [_templated(v, ctx) for v in obj]
    if isinstance(obj, dict):
        return {k: _templated(v, ctx) for k, v in obj.items()}
    return obj


def evidence_check(ev: Evidence, ctx: TaskContext) -> Check | None:
    if not ev.found:
        return None
    text = ctx.placeholders(" ".join(ev.text.split()))
    if not text and ev.fingerprint is None:
        return None
    check = Check(element=ev.fingerprint, text=text)
    pattern = text_pattern(text)
    if pattern:
        check.pattern = pattern
    if ev.fingerprint is not None:
        fp = ev.fingerprint.model_copy()
        # The element's own text and name are the outcome; they live in the check's text.
        for field in ("text", "name"):
            value = getattr(fp, field)
            if value:
                setattr(fp, field, ctx.placeholders(value))
                if is_dynamic(value):
                    setattr(fp, field, None)
        check.element = fp
    return check


# Tools whose effect lives elsewhere in the recipe: a dialog's answer is stored with the
# action that opened the dialog; find only reads the page.
NOT_REPLAYED = ("dialog", "find")


def compile_step(kind: str, text: str, result: TaskResult, ctx: TaskContext,
                 base_url: str | None, start_url: str) -> RecipeStep:
    """The recipe step for a completed task: its successful actions and its checks."""
    actions = []
    for step in result.steps:
        for action, execution in zip(step.proposal.actions, step.executions, strict=False):
            if not execution.success or action.tool_name in NOT_REPLAYED:
                continue
            params = dict(_templated(action.parameters, ctx))  # type: ignore[call-overload]
            params.pop("element_id", None)
            params.pop("to_element_id", None)  # ids never reach a recipe: see target and to
            if action.tool_name == "navigate":
                params["url"] = relative_url(absolute_url(params["url"], base_url, start_url),
                                             base_url)
            dialogs = [d.model_copy(update={
                "message": ctx.placeholders(d.message),
                "text": ctx.placeholders(d.text) if d.text is not None else None})
                for d in execution.dialogs]
            actions.append(RecipeAction(tool=action.tool_name, reason=action.reason,
                                        params=params, target=execution.target, to=execution.to,
                                        dialogs=dialogs, opens_tab=execution.opened_tab))
    checks = [c for c in (evidence_check(e, ctx) for e in result.evidence) if c is not None]
    final = result.steps[-1].url if result.steps else start_url
    start_path, end_path = urlsplit(start_url).path, urlsplit(final).path
    if end_path != start_path and not is_dynamic(end_path):
        checks.append(Check(url_path=end_path))
    return RecipeStep(kind=kind, text=text, url=relative_url(start_url, base_url),  # type: ignore[arg-type]
                      actions=actions, checks=checks,
                      message=ctx.redact(result.message))
