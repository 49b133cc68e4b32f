"""The site map the explorer builds: one entry per page (or page state) it visited, with
what the model read on it. Also the shape of the explorer's reply for one page."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class FieldInfo(_Model):
    element: str | None = Field(default=None, description="element id from the page state")
    name: str = Field(description="the field's label, as the page shows it")
    kind: str = Field(default="text", description="text, email, password, number, select, "
                      "checkbox, radio, file, textarea, search, ...")
    required: bool = False
    options: list[str] = Field(default_factory=list, description="a select's options")


class FormInfo(_Model):
    element: str | None = Field(default=None, description="element id of the form")
    name: str = Field(description="what the form is for, in a few words")
    fields: list[FieldInfo] = Field(default_factory=list)
    submit: str = Field(default="", description="the submit button's text")
    destructive: bool = Field(default=False, description="true when submitting it deletes, "
                              "cancels, removes or resets something")


class ListInfo(_Model):
    element: str | None = Field(default=None, description="element id of the list container")
    name: str = Field(description="what the list holds")
    count: int | None = Field(default=None, description="how many items the page shows")
    items: list[str] = Field(default_factory=list, description="the first items' names")
    details: str = Field(default="", description="how an item's details are shown, if any")


class LinkInfo(_Model):
    element: str | None = Field(default=None, description="element id of the link")
    name: str
    url: str = ""


class ExploreAction(_Model):
    tool: str
    parameters: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""


class Exploration(_Model):
    why: str = Field(description="what trying this shows (a new page, results, errors)")
    actions: list[ExploreAction] = Field(min_length=1)


class ExploreReply(_Model):
    """The model's reading of one page, and what to try from it."""

    title: str = Field(min_length=1, description="a short name for this page")
    purpose: str = Field(default="", description="what a user does here, in one sentence")
    forms: list[FormInfo] = Field(default_factory=list)
    lists: list[ListInfo] = Field(default_factory=list)
    navigation: list[LinkInfo] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list, description="notable texts: counts, "
                                "errors, confirmations, statuses, exactly as shown")
    explore: list[Exploration] = Field(default_factory=list)


class UntriedWrite(_Model):
    """A form (or control) whose submission would change data on the server, not tried
    while exploring: what it is, its fields, and why it was not tried."""

    form: str = Field(default="", description="the form's name (its legend or heading)")
    submit: str = Field(default="", description="the text of the control that submits it")
    fields: list[FieldInfo] = Field(default_factory=list)
    action: str = Field(default="", description="where it sends (its path)")
    actions: list[str] = Field(default_factory=list, description="what was to be done on "
                               "the page, as people read it")
    why: str = Field(description="why it was not tried")

    def name(self) -> str:
        """``form "Newsletter", submit "Unsubscribe"``."""
        parts = [f"form {self.form!r}" if self.form else "",
                 f"submit {self.submit!r}" if self.submit else ""]
        return ", ".join(p for p in parts if p) or "a control"


class PageInfo(_Model):
    """One visited page state in the site map."""

    url: str
    title: str
    purpose: str = ""
    reached_by: list[str] = Field(default_factory=list,
                                  description="how to get here from the start page")
    forms: list[FormInfo] = Field(default_factory=list)
    lists: list[ListInfo] = Field(default_factory=list)
    navigation: list[LinkInfo] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
    not_tried: list[str] = Field(default_factory=list,
                                 description="explorations the explorer refused, and why")
    writes: list[UntriedWrite] = Field(default_factory=list,
                                       description="forms that change data, not tried")


class SiteMap(_Model):
    app: str
    pages: list[PageInfo] = Field(default_factory=list)
    stopped: str = ""  # why exploring stopped early (a budget), else ""
    blocked: dict[str, int] = Field(default_factory=dict)  # request -> how often stopped

    def as_yaml(self) -> str:
        """The site map as the planner is shown it (element ids left out: they belong to
        page readings that are gone)."""
        data = self.model_dump(exclude_defaults=True, exclude={"stopped", "blocked"})
        for page in data.get("pages", []):
            for key in ("forms", "lists", "navigation"):
                for item in page.get(key, []):
                    item.pop("element", None)
                    for f in item.get("fields", []):
                        f.pop("element", None)
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)

    def as_markdown(self) -> str:
        """The site map for people, at the end of the plan."""
        out: list[str] = []
        if self.stopped:
            out += [f"Exploring stopped early: {self.stopped}", ""]
        for page in self.pages:
            out.append(f"### {page.title}")
            out.append("")
            out.append(f"- URL: {page.url}")
            if page.purpose:
                out.append(f"- Purpose: {page.purpose}")
            if page.reached_by:
                out.append(f"- Reached by: {'; '.join(page.reached_by)}")
            for form in page.forms:
                fields = ", ".join(f.name + (f" ({f.kind})" if f.kind != "text" else "")
                                   for f in form.fields) or "no fields"
                mark = " (destructive: not submitted)" if form.destructive else ""
                submit = f", submit {form.submit!r}" if form.submit else ""
                out.append(f"- Form {form.name}{mark}: {fields}{submit}")
            for lst in page.lists:
                count = f"{lst.count} " if lst.count is not None else ""
                items = f": {', '.join(lst.items)}" if lst.items else ""
                details = f"; details: {lst.details}" if lst.details else ""
                out.append(f"- List of {count}{lst.name}{items}{details}")
            if page.navigation:
                out.append("- Links: " + ", ".join(
                    f"{link.name} ({link.url})" if link.url else link.name
                    for link in page.navigation))
            for message in page.messages:
                out.append(f"- Shows: {message!r}")
            for write in page.writes:
                fields = ", ".join(f.name + (f" ({f.kind})" if f.kind != "text" else "")
                                   for f in write.fields) or "no fields"
                out.append(f"- Not tried while exploring: {write.name()} ({fields}): "
                           f"{write.why}")
            out.append("")
        refusals = self.refusals()
        if refusals:
            out += ["### Not tried", ""]
            for refusal, titles in refusals.items():
                out.append(f"- {refusal}{_where(titles)}")
            out.append("")
        if self.blocked:
            out += ["### Blocked requests", "",
                    "Stopped before they left the browser (nothing was sent):", ""]
            out += [f"- {request}" + (f" ({n} times)" if n > 1 else "")
                    for request, n in self.blocked.items()]
            out.append("")
        return "\n".join(out).strip()

    def refusals(self) -> dict[str, list[str]]:
        """Each distinct refusal once, with the titles of the pages it was made on."""
        out: dict[str, list[str]] = {}
        for page in self.pages:
            for refused in dict.fromkeys(page.not_tried):
                out.setdefault(refused, []).append(page.title)
        return out


def _where(titles: list[str]) -> str:
    """`` (on Home)``, `` (on 11 pages: Home, Catalogue, Join, ...)``."""
    if len(titles) == 1:
        return f" (on {titles[0]})"
    distinct = list(dict.fromkeys(titles))
    shown = ", ".join(distinct[:3]) + (", ..." if len(distinct) > 3 else "")
    return f" (on {len(titles)} pages: {shown})"
