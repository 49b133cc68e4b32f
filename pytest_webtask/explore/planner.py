"""The planner: one model call that turns the site map into the plan's flows."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..agent._sync.asker import Asker
from ..llm.bounded import bounded_schema
from ..llm.prompts import get_prompt
from ..llm.request import Block, ModelRequest
from .plan import PLACEHOLDER, Flow, FlowStep, TestPlan, secret_env
from .sitemap import SiteMap


class _StepModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    kind: Literal["goto", "do", "check", "extract"]
    text: str = Field(min_length=1)


class _FlowModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    title: str = Field(min_length=1)
    steps: list[_StepModel] = Field(min_length=1)
    outcome: str = ""
    variables: dict[str, str] = Field(default_factory=dict)
    secrets: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _declared(self) -> _FlowModel:
        declared = set(self.variables) | set(self.secrets) | set(self.files)
        for text in [s.text for s in self.steps] + [self.outcome]:
            for name in PLACEHOLDER.findall(text):
                if name not in declared:
                    raise ValueError(f"flow {self.title!r} uses {{{name}}} without listing it "
                                     "in variables, secrets or files")
        for step in self.steps:
            if step.kind != "do" and set(PLACEHOLDER.findall(step.text)) & set(self.secrets):
                raise ValueError(f"flow {self.title!r}: only a do step may name a secret")
        if set(PLACEHOLDER.findall(self.outcome)) & set(self.secrets):
            raise ValueError(f"flow {self.title!r}: the outcome may not name a secret")
        return self


class PlanReply(BaseModel):
    """The planner's reply: the flows to test."""

    model_config = ConfigDict(extra="ignore")
    flows: list[_FlowModel] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct(self) -> PlanReply:
        titles = [Flow(title=f.title).test_name for f in self.flows]
        twice = sorted({t for t in titles if titles.count(t) > 1})
        if twice:
            raise ValueError(f"two flows have the same title ({', '.join(twice)})")
        return self


def plan_flows(asker: Asker, site: SiteMap, *, variables: Mapping[str, str],
               secrets: Mapping[str, str], files: Mapping[str, str]) -> list[Flow]:
    """Ask for the flows (one call, re-asked once when unusable). ``secrets`` maps a name
    to the environment variable it is read from; ``files`` a name to its path."""
    context = ModelRequest(system=get_prompt("explore/plan", "system"), purpose="explore:plan",
                      task=site.app, step=1)
    data = [f"- variable {{{k}}} = {v!r}" for k, v in variables.items()]
    data += [f"- secret {{{k}}}" for k in secrets]
    data += [f"- file {k!r}" for k in files]
    context.append(Block(f"The app: {site.app}\n\nTest data you were given:\n"
                         + ("\n".join(data) if data else "(none)")))
    context.append(Block("Site map (YAML):\n\n" + site.as_yaml()))
    context.response_schema = bounded_schema(PlanReply)
    reply = asker.ask(context, PlanReply, "plan")
    flows = []
    for f in reply.flows:
        flows.append(Flow(
            title=f.title.strip(),
            steps=[FlowStep(s.kind, s.text.strip()) for s in f.steps],
            outcome=f.outcome.strip(),
            variables=dict(f.variables),
            secrets={name: secrets.get(name, secret_env(name)) for name in f.secrets},
            files={name: files.get(name, name) for name in f.files},
        ))
    return flows


def make_plan(site: SiteMap, flows: list[Flow], *, title: str, summary: str) -> TestPlan:
    intro = (f"{summary}\n\n"
             "Edit it freely: `webtask generate` reads it back. A flow is a `##` section: "
             "numbered steps, each\n`goto <path>`, `do: ...`, `check: ...` or `extract: ...` "
             "(a plain sentence is classified by\nthe model), the outcome the test checks "
             "last, and the data it needs (`{name}` in a step).\nThe site map at the end "
             "is for reading; the generator ignores it.")
    return TestPlan(title=title, app=site.app, intro=intro, flows=flows,
                site_map=site.as_markdown())


_LINK = re.compile(r"^click link .*\((/[^)]*)\)$")


def untried_flows(site: SiteMap, planned: list[Flow], *, variables: Mapping[str, str],
                  secrets: Mapping[str, str], files: Mapping[str, str]) -> list[Flow]:
    """A flow for each form exploring did not try because it changes data (its page's way,
    then what was to be done), marked not tried so that ``generate`` records nothing against
    the app until a person has read it. Written by the explorer, not the model: a form it
    never submitted is in the plan whatever the model makes of the site map."""
    flows: list[Flow] = []
    taken = {f.test_name for f in planned}
    for page in site.pages:
        for write in page.writes:
            title = ": ".join(t for t in (write.form, write.submit) if t) or \
                f"A form on {page.title}"
            if Flow(title=title).test_name in taken:
                title = f"{title} on {page.title}"
            n = 2
            while Flow(title=title).test_name in taken:
                title, n = f"{title.rsplit(' (', 1)[0]} ({n})", n + 1
            taken.add(Flow(title=title).test_name)
            steps = _way(page.url, page.reached_by, site.app)
            steps += [FlowStep("do", line) for line in write.actions]
            fields = ", ".join(f.name for f in write.fields)
            if not write.actions:
                steps.append(FlowStep("do", (f"fill in {fields} and " if fields else "")
                                      + f'click "{write.submit or "Submit"}"'))
            used = {n for s in steps for n in PLACEHOLDER.findall(s.text)}
            flows.append(Flow(
                title=title, steps=steps,
                variables={k: v for k, v in variables.items() if k in used},
                secrets={k: secrets.get(k, secret_env(k)) for k in used
                         if k in secrets or (k not in variables and k not in files)},
                files={k: v for k, v in files.items() if k in used},
                not_tried=f"{write.why}."))
    return flows


def _way(url: str, reached_by: list[str], app: str) -> list[FlowStep]:
    """The steps to a page: its path when links alone lead there, else the start page
    and what was done on the way."""
    if all(_LINK.match(line) or line.startswith("open ") for line in reached_by):
        parts = urlsplit(url)
        return [FlowStep("goto", (parts.path or "/") + (f"?{parts.query}" if parts.query
                                                       else ""))]
    start = urlsplit(app)
    steps = [FlowStep("goto", start.path or "/")]
    for line in reached_by:
        if line.startswith("open "):
            steps.append(FlowStep("goto", line[5:].strip() or "/"))
        else:
            steps.append(FlowStep("do", line))
    return steps
