"""Turning what the agent did into a recipe step: actions by fingerprint, typed checks from
the model's evidence.

Each claim the model verified on the page becomes a check of the same kind (text, hidden,
count, nth, order, state, value, url). Nothing is loosened unless declared: parts the model
marked as ``varies`` and the user's ``dynamic`` patterns become a ``pattern`` the recipe shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..agent.models import Evidence, TaskResult
from ..browser.downloads import flat
from ..recipes.model import Check, Download, RecipeAction, RecipeStep, Screenshot
from ..recipes.patterns import escape, varying
from ..recipes.pixels import png_size
from ..recipes.urls import absolute_url, relative_url, url_change
from ..tools.builtin import tool_spec
from ..tools.spec import ToolSpec
from ..tools.values import StepValues
from ..types import DownloadedFile, Fingerprint


def _templated(obj: object, ctx: StepValues) -> object:
    if isinstance(obj, str):
        return ctx.placeholders(obj)
    if isinstance(obj, list):
        return [_templated(v, ctx) for v in obj]
    if isinstance(obj, dict):
        return {k: _templated(v, ctx) for k, v in obj.items()}
    return obj


WORDS = ("name", "text", "label", "placeholder", "near")


def acted_on(fp: Fingerprint | None, ctx: StepValues) -> Fingerprint | None:
    """An action's target as the recipe keeps it: a variable's value in its words (a button
    "Delete Book the venue" for ``{new}`` = "Book the venue") as its placeholder, so that a
    replay with another value finds the element that shows that value (the replayer fills it
    in, as in a check's text); a secret's value never."""
    if fp is None:
        return None
    update = {field: ctx.placeholders(value) for field in WORDS
              if (value := getattr(fp, field))}
    return fp.model_copy(update=update)


class CheckCompiler:
    """Compiles one step's evidence. ``varies`` (the model's samples, from every claim of
    the step) and ``dynamic`` (the user's patterns) say what may change between runs."""

    def __init__(self, ctx: StepValues, varies: list[str], dynamic: list[str]) -> None:
        self.ctx = ctx
        self.varies = varies
        self.dynamic = dynamic

    def matched(self, field: str, value: str, match: str) -> dict[str, Any]:
        """``{field: value}`` with placeholders, and a pattern when part of it is declared to
        vary."""
        shown = self.ctx.placeholders(" ".join(value.split()) if field == "text" else value)
        out: dict[str, Any] = {field: shown, "match": match}
        pattern = varying(shown, self.varies, self.dynamic)
        if pattern is not None:
            out.update(match="pattern", pattern=pattern if match == "exact" else f".*{pattern}.*")
        return out

    def target(self, fp: Fingerprint | None, outcome: str | None) -> Fingerprint | None:
        """A cited element's fingerprint for a check: its own text is the outcome under test
        (it lives in the check), so it is not part of how the element is found."""
        if fp is None:
            return None
        fp = fp.model_copy()
        for field in ("text", "name", "near"):
            value = getattr(fp, field)
            if not value:
                continue
            if field != "near" and outcome is not None and " ".join(value.split()) == outcome:
                setattr(fp, field, None)
            elif varying(value, self.varies, self.dynamic) is not None:
                setattr(fp, field, None)  # declared to vary: can't identify the element
            else:
                setattr(fp, field, self.ctx.placeholders(value))
        return fp

    def container(self, fp: Fingerprint | None) -> Fingerprint | None:
        """A container's fingerprint: what it holds is the outcome, not its identity, so a
        name that is just its content is left out (a label such as aria-label stays)."""
        if fp is None:
            return None
        content_name = fp.name is not None and fp.name == fp.text
        fp = fp.model_copy(update={"text": None, "near": None,
                                   "name": None if content_name else fp.name})
        return self.target(fp, None)

    def check(self, ev: Evidence) -> Check | None:
        spec = ev.spec
        if spec is None or not ev.found:
            return None
        if spec.expect == "url":
            return self.url(spec.path, dict(spec.query))
        if spec.expect == "screenshot":
            return self.picture(ev)
        if spec.expect == "download":  # joins its file's download check (compile_step)
            return None
        outcome = None
        if spec.expect == "text" and ev.fingerprint is not None:
            outcome = " ".join((spec.text if spec.text is not None else ev.text).split())
        fields: dict[str, Any] = dict(
            expect=spec.expect, match=spec.match, count=spec.count,
            change=spec.change, index=spec.index,
            state=spec.state, texts=[self.ctx.placeholders(t) for t in spec.texts],
            element=self.target(ev.fingerprint, outcome), within=self.container(ev.within))
        if spec.expect in ("text", "hidden", "each") and (spec.text is not None or outcome):
            fields.update(self.matched("text", spec.text if spec.text is not None else ev.text,
                                       spec.match))
        if spec.expect == "value" and spec.value is not None:
            fields.update(self.matched("value", spec.value, spec.match))
        return Check(**fields).started(ev.start)

    def picture(self, ev: Evidence) -> Check | None:
        """A ``screenshot`` check: the cited region, its masks, and its picture as the
        baseline (written beside the recipe when the recipe is; ``file`` named then). The
        element is found by its fingerprint; what it shows is the outcome, not its identity."""
        spec = ev.spec
        if ev.image is None:
            return None
        shot = Screenshot(shows=self.ctx.placeholders(spec.text or ""), box=spec.box,
                          masks=list(spec.masks)).with_png(ev.image, png_size(ev.image))
        return Check(expect="screenshot", element=self.container(ev.fingerprint),
                     screenshot=shot)

    def url(self, path: str | None, query: dict[str, str]) -> Check:
        # a query parameter declared to vary is left out
        fields: dict[str, Any] = {"expect": "url", "query": {
            key: self.ctx.placeholders(value) for key, value in query.items()
            if varying(value, self.varies, self.dynamic) is None}}
        if path is not None:
            fields.update(self.matched("path", path, "exact"))
        return Check(**fields)


def compile_step(kind: str, text: str, result: TaskResult, ctx: StepValues,
                 base_url: str | None, start_url: str,
                 dynamic: list[str] | None = None,
                 tools: Mapping[str, type[ToolSpec]] | None = None) -> RecipeStep:
    """The recipe step for a completed task: its successful actions and its checks (a
    ``download`` check for each file its actions downloaded). ``tools``: the plugins' tools
    by name, which say, as the built-ins do, whether a recipe keeps their actions."""
    actions = []
    files: list[DownloadedFile] = []
    for step in result.steps:
        for action, execution in zip(step.proposal.actions, step.executions, strict=False):
            tool = tool_spec(action.tool, tools) or ToolSpec  # unknown: the defaults
            if not execution.success or not tool.replayed or execution.unchanged:
                continue  # (unchanged: its dialog said no, by default, and nothing changed)
            params = dict(_templated(action.parameters, ctx))  # type: ignore[call-overload]
            params.pop("element_id", None)
            params.pop("to_element_id", None)  # ids never reach a recipe: see target and to
            if tool.url_param is not None:
                params[tool.url_param] = relative_url(
                    absolute_url(params[tool.url_param], base_url, start_url), base_url)
            dialogs = [d.model_copy(update={
                "message": ctx.placeholders(d.message),
                "text": ctx.placeholders(d.text) if d.text is not None else None})
                for d in execution.dialogs]
            if execution.hovered:  # the click reached its element after a hover: so will replay
                actions.append(RecipeAction(tool="hover", reason="the click lands after a hover",
                                            target=acted_on(execution.target, ctx)))
            kept = action.tool
            if execution.checked is not None:  # set only by a click that toggled a box
                # a click that turned a checkbox or switch on (off): replayed as setting that
                # state, so a replay where it is already so leaves it (a click would flip it)
                kept = "check" if execution.checked else "uncheck"
                params = {}
            actions.append(RecipeAction(tool=kept, reason=action.reason,
                                        params=params, target=acted_on(execution.target, ctx),
                                        to=acted_on(execution.to, ctx),
                                        dialogs=dialogs, opens_tab=execution.opened_tab,
                                        downloads=bool(execution.downloads)))
            files.extend(execution.downloads)
    evidence = result.evidence
    downloads = [download_check(f, ctx, _cited_in(f, evidence, ctx)) for f in files]
    varies = [ctx.placeholders(v) for e in evidence if e.spec is not None
              for v in e.spec.varies if v]
    compiler = CheckCompiler(ctx, varies, list(dynamic or []))
    checks = [c for c in (compiler.check(e) for e in evidence) if c is not None]
    for c in checks:  # a picture without a word of its own shows what the step says
        if c.screenshot is not None and not c.screenshot.shows:
            c.screenshot.shows = text
    checks += downloads
    final = result.steps[-1].url if result.steps else start_url
    change = url_change(start_url, final)
    if change is not None and not any(c.expect == "url" for c in checks):
        checks.append(compiler.url(*change))
    return RecipeStep(kind=kind, text=text, url=relative_url(start_url, base_url),  # type: ignore[arg-type]
                      actions=actions, checks=checks, doubted=list(result.doubted),
                      message=ctx.redact(result.message))


def _cited_in(file: DownloadedFile, evidence: list[Evidence], ctx: StepValues) -> list[str]:
    """The texts of the step's ``download`` claims that ``file`` holds, as the recipe
    keeps them (placeholders for the values of variables)."""
    cited = []
    for ev in evidence:
        spec = ev.spec
        if spec is None or spec.expect != "download" or not ev.found or not spec.text:
            continue
        text = flat(ctx.substitute(spec.text))
        if file.text is not None and text in flat(file.text):
            cited.append(ctx.placeholders(text))
    return cited


def download_check(file: DownloadedFile, ctx: StepValues, cited: list[str] | None = None
                   ) -> Check:
    """A check that a replay downloads a file like ``file``: a name of the same shape (each
    number may differ), a size within half to twice its own (plus 1 KB), and for a text,
    CSV or PDF file its first lines' words, up to a number in them (a number may vary),
    and then each ``cited`` text exactly: what the model cited the file for (a statement
    about what it holds)."""
    name = escape(ctx.placeholders(file.name))
    # numbers may vary, outside placeholders (\{name\})
    name = "".join(part if part.startswith("\\{") else re.sub(r"\d+", r"\\d+", part)
                   for part in re.split(r"(\\\{\w+\\\})", name))
    contains: list[str] = []
    for line in (file.text or "").splitlines()[:20]:
        line = " ".join(line.split())
        line = re.split(r"\d", line, maxsplit=1)[0].strip()
        if len(re.sub(r"\W", "", line)) >= 3:
            contains.append(ctx.placeholders(line[:80]))
        if len(contains) == 2:
            break
    contains += [c for c in cited or [] if c not in contains]
    return Check(expect="download", download=Download(
        name=name, min_bytes=file.size // 2, max_bytes=file.size * 2 + 1024,
        contains=contains))
