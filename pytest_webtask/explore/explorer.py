"""The explorer: visits an app from a start page, one model call per page state, and builds
a site map.

Every page state is read as the agent reads it (the page state with element ids) and shown
to the model with the site map so far; the model says what the page is for, its forms,
lists and links, and what to try next (follow a link, submit a form with sample values).
The explorer tries those in turn, breadth first, within:

- the origin guard (the start page's origin and ``allowed_origins``: nothing is sent
  anywhere else, as while recording; other origins' images, styles and scripts too, unless
  ``allow_subresources``),
- its budgets (pages, model calls, tokens, wall time; one call is kept for the plan),
- the write guard (``writes.py``): no request that can change data on the server (a form
  post, a fetch with a body, a method override) leaves the browser unless the user allowed
  it (``allow_writes``, ``allow_forms``), or it is the sign-in with a named secret. An
  exploration that would send one is not tried: its form goes into the site map (and the
  plan) as not tried, with its fields,
- its safety rules, a second guard when writes are allowed: a control or form that looks
  destructive (delete, cancel, remove...), or that the model marked so, is only used when
  ``allow_forms`` names it; a password field is only ever typed into with a named secret,
  whose value the model never sees.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from ..agent._sync.asker import Asker
from ..agent.budget import Budget, BudgetExhausted
from ..agent.task_context import TaskContext
from ..browser._sync.guard import OriginGuard
from ..browser._sync.llm_browser import LLMBrowser
from ..browser.origins import allowed, origin_of
from ..errors import ProposalError, WebtaskError
from ..llm.base import LLM
from ..llm.bounded import bounded_schema
from ..llm.prompts import get_prompt
from ..llm.request import Block, ModelRequest
from ..tools._sync.registry import ToolRegistry, browser_registry
from ..types import Action, Fingerprint, Secrets, Usage
from .options import ExploreOptions
from .sitemap import ExploreReply, FieldInfo, PageInfo, SiteMap, UntriedWrite
from .writes import BlockedWrite, WriteGuard, matches

# The tools exploring may use: pointer and form tools, and opening a URL; never tabs, drags,
# dialogs or waits.
EXPLORE_TOOLS = ("click", "fill", "type", "select", "check", "uncheck", "press", "upload",
                 "hover", "navigate")
NAVIGATION_TIMEOUT_MS = 15_000

# Words that make a control or its form look destructive.
DESTRUCTIVE = re.compile(
    r"\b(delete|remove|destroy|erase|wipe|purge|deactivate|unsubscribe|terminate|revoke|"
    r"cancel|reset|drop|discard|close\s+(my\s+|your\s+|the\s+)?account)\b", re.IGNORECASE)

# The text around an element that says what acting on it does: its own name, and when it
# sits in a form (or submits one), the form's name, action and legend (not its other
# buttons' words: a Cancel beside Create makes no form destructive); and, for
# the site map, the form's fields and the name of the section it sits in.
_SURROUNDINGS_JS = """el => {
  const text = (n) => (n && (n.getAttribute('aria-label') || n.innerText || n.value ||
                             n.getAttribute('title') || '')).replace(/\\s+/g, ' ').trim();
  const form = el.form || el.closest('form');
  const out = {tag: el.tagName.toLowerCase(), type: (el.getAttribute('type') || '').toLowerCase(),
               href: el.tagName === 'A' ? el.getAttribute('href') : null,
               target: el.getAttribute('target') || '', own: text(el), form: null, formId: null,
               formName: '', action: '', method: '', submit: '', fields: []};
  let section = null;
  for (let n = form || el; n && !section; n = n.parentElement) {
    const heading = n.querySelector(':scope > legend, :scope > h1, :scope > h2, :scope > h3, ' +
                                    ':scope > h4');
    if (heading) section = text(heading);
    if (!section && n.previousElementSibling && /^H[1-6]$/.test(n.previousElementSibling.tagName))
      section = text(n.previousElementSibling);
    if (n.tagName === 'MAIN' || n.tagName === 'BODY') break;
  }
  out.formName = (form && form.getAttribute('aria-label')) || section || '';
  if (form) {
    const parts = [form.getAttribute('aria-label') || '', form.getAttribute('action') || '',
                   form.getAttribute('name') || '', form.id || ''];
    // what it submits: its name, action, legend; never another button's words (a form
    // with a Cancel button is no cancelling form: its own Create submits it)
    const submits = form.querySelectorAll('button, input[type=submit], input[type=image]');
    const legend = form.querySelector('legend, h1, h2, h3, h4');
    if (legend) parts.push(text(legend));
    let prev = form.previousElementSibling;
    if (prev && /^H[1-6]$/.test(prev.tagName)) parts.push(text(prev));
    out.form = parts.filter(Boolean).join(' | ');
    out.formId = form.getAttribute('data-webtask-id');
    out.action = new URL(form.action || location.href, location.href).pathname;
    out.method = (form.getAttribute('method') || 'get').toLowerCase();
    const submit = [...submits].find((b) => !['button', 'reset'].includes(
      (b.getAttribute('type') || 'submit').toLowerCase()));
    out.submit = submit ? text(submit) : '';
    for (const f of form.querySelectorAll('input, select, textarea')) {
      const type = (f.getAttribute('type') || f.tagName).toLowerCase();
      if (['hidden', 'submit', 'button', 'reset', 'image'].includes(type)) continue;
      const label = (f.labels && f.labels[0] && f.labels[0].innerText) ||
        f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.name || type;
      out.fields.push({name: label.replace(/\\s+/g, ' ').trim(),
                       kind: type === 'input' ? 'text' : type});
    }
  } else if (el.tagName === 'BUTTON' || el.getAttribute('role') === 'button') {
    out.submit = text(el);
  }
  return out;
}"""


class ExploreStopped(WebtaskError):
    """Exploring cannot go on (a budget is used up): the site map so far is kept."""


@dataclass
class ExploreStatus:
    """What the explorer has done so far, for a progress line."""

    pages: int = 0
    max_pages: int = 0
    usage: Usage = field(default_factory=Usage)
    max_calls: int = 0
    seconds: float = 0.0
    url: str = ""

    def line(self) -> str:
        tokens = self.usage.total_tokens
        shown = f", {tokens / 1000:.1f}k tokens" if tokens else ""
        return (f"[explore {self.pages}/{self.max_pages} pages, {self.usage.calls}/"
                f"{self.max_calls} model calls{shown}, {self.seconds:.0f}s] {self.url}")


@dataclass
class _Planned:
    """One action to replay on a page read again later: its target's fingerprint, so the
    element found under the same id is checked to be the one the model meant."""

    action: Action
    target: Fingerprint | None
    description: str
    control: dict[str, Any] | None = None  # its surroundings when it was planned


@dataclass
class _Step:
    """A step of the way to a page state: open a URL, or run some actions."""

    goto: str | None = None
    actions: list[_Planned] = field(default_factory=list)

    def signature(self) -> str:
        if self.goto is not None:
            return f"goto {self.goto}"
        return repr([(p.action.tool, p.target.describe() if p.target else "",
                      sorted((k, str(v)) for k, v in p.action.parameters.items()
                             if k != "element_id")) for p in self.actions])


@dataclass
class _Visit:
    """A page state to reach: the whole way there from a clean session (no cookies, no
    storage), so every state can be reached again whatever was visited before it."""

    steps: list[_Step]
    reached_by: list[str] = field(default_factory=list)  # the way, for people
    origin: str = ""  # the path of the page the last actions start from
    source: PageInfo | None = None  # the page the last actions start from
    control: dict[str, Any] | None = None  # the surroundings of the last control acted on
    why: str = ""  # why the model wanted it

    def key(self) -> str:
        """Visits that would show nothing new: a link to a URL already queued, or the same
        interaction (the same tools on the same kinds of elements, whatever the values or
        the list item) from a page of the same path."""
        last = self.steps[-1]
        if last.goto is not None:
            return "goto " + _normal(last.goto)
        shape = [(p.action.tool, (p.target.role or p.target.tag) if p.target else "",
                  (p.target.name or p.target.label or p.target.text or "") if p.target else "")
                 for p in last.actions]
        return f"{self.origin} {shape!r}"


class Explorer:
    """Explores an app on ``page`` (a Playwright page of a context it may route and whose
    cookies it clears) with ``llm``. ``variables`` are values the model may type (it sees
    them); ``secrets`` are named test credentials it may type by name only; ``files`` are
    files it may upload. ``progress`` is told the status as it goes."""

    def __init__(self, page: Page, llm: LLM, options: ExploreOptions | None = None, *,
                 variables: Mapping[str, str] | None = None,
                 secrets: Mapping[str, str] | None = None,
                 files: Mapping[str, str] | None = None,
                 progress: Callable[[ExploreStatus], None] | None = None) -> None:
        self.page = page
        self.llm = llm
        self.options = options or ExploreOptions()
        self.secrets = Secrets(secrets)
        self.progress = progress
        self.task = TaskContext.create("Explore the app", variables=variables, secrets=secrets,
                                       resources=files, known=self.secrets)
        self.browser = LLMBrowser(page, page_chars=self.options.page_chars, secrets=self.secrets)
        self.usage = Usage()
        self.budget = Budget(max_calls=self.options.max_llm_calls,
                             max_tokens=self.options.max_tokens,
                             names=("--max-llm-calls", "--max-tokens", "", ""))
        self.asker = Asker(llm, self.task, self.usage, self.budget)
        self.status = ExploreStatus(max_pages=self.options.max_pages,
                                    max_calls=self.options.max_llm_calls)
        self.origins: list[str] = []
        self.guard: OriginGuard | None = None
        self.writes: WriteGuard | None = None
        self._last_writes: list[BlockedWrite] = []
        self._last_started = -1
        # an element's surroundings while one reply is read (its checks ask up to three
        # times per action: one round trip each); None: read every time
        self._around: dict[str, dict[str, Any] | None] | None = None
        self.registry: ToolRegistry | None = None
        self._started = 0.0
        self._seen_states: set[str] = set()
        self._queued: set[str] = set()

    # -- the loop ---------------------------------------------------------------------------

    def explore(self, url: str) -> SiteMap:
        """Explore from ``url`` until nothing is left to try or a budget is used up."""
        self._started = time.monotonic()
        self.origins = [origin_of(url), *self.options.allowed_origins]
        if not allowed(url, self.origins):
            raise WebtaskError(f"Cannot explore {url}: only http(s) pages can be explored.")
        site = SiteMap(app=url)
        context = self.page.context
        # routes run last-registered first: the origin guard, then the write guard
        self.writes = WriteGuard(context, allow_all=self.options.allow_writes,
                                 patterns=self.options.allow_forms,
                                 secrets=self.secrets.values)
        self.writes.start()
        self.guard = OriginGuard(context, self.origins,
                                 subresources=not self.options.allow_subresources)
        self.guard.start()
        every = browser_registry(self.browser, self.task, self.origins)
        self.registry = ToolRegistry([t for t in every.tools() if t.name in EXPLORE_TOOLS])
        self.browser.watch.attach()
        frontier: deque[_Visit] = deque([_Visit(steps=[_Step(goto=url)])])
        self._queued.add(frontier[0].key())
        try:
            while frontier:
                stop = self._budget_left(len(site.pages))
                if stop:
                    site.stopped = stop
                    break
                visit = frontier.popleft()
                reached = self._go(visit, site)
                if self._last_writes and visit.source is not None:
                    self._untried(visit, [w.describe(self.origins[0])
                                          for w in self._last_writes])
                if not reached or self._last_writes:
                    continue
                state = self._state_key()
                if state in self._seen_states:
                    continue
                self._seen_states.add(state)
                try:
                    reply = self._ask(site, visit)
                except ExploreStopped as exc:
                    site.stopped = str(exc)
                    break
                except ProposalError as exc:  # two unusable replies: the page is skipped
                    site.pages.append(PageInfo(
                        url=self.browser.page.url, title=_path(self.browser.page.url),
                        reached_by=list(visit.reached_by),
                        not_tried=[f"the model's reading of this page was unusable: {exc}"]))
                    continue
                info, found = self._read_reply(reply, visit)
                site.pages.append(info)
                self.status.pages = len(site.pages)
                self._tell()
                for new in found:
                    key = new.key()
                    if key not in self._queued:
                        self._queued.add(key)
                        frontier.append(new)
        finally:
            self.browser.watch.detach()
            self.guard.stop()
            self.writes.stop()
            self._note_blocked(site)
        return site

    def _note_blocked(self, site: SiteMap) -> None:
        """Into the site map: every request a guard stopped since the last call."""
        stopped = [w.describe(self.origins[0]) for w in
                   (self.writes.take() if self.writes is not None else [])]
        stopped += self.guard.take() if self.guard is not None else []
        for request in stopped:
            site.blocked[request] = site.blocked.get(request, 0) + 1

    def _untried(self, visit: _Visit, requests: list[str], why: str = "") -> None:
        """The visit's form goes into its page's site map entry as not tried, once."""
        assert visit.source is not None
        control = visit.control or {}
        if requests:
            shown = "; ".join(dict.fromkeys(requests))
            why = (f"it sends {shown}, which may change data on the server; "
                   "--allow-form or --allow-writes allows it")
        write = UntriedWrite(
            form=str(control.get("formName") or ""), submit=str(control.get("submit") or ""),
            action=str(control.get("action") or ""),
            fields=[FieldInfo(name=str(f.get("name") or "field"),
                              kind=str(f.get("kind") or "text"))
                    for f in control.get("fields") or []],
            actions=visit.reached_by[len(visit.source.reached_by):], why=why)
        same = [w for w in visit.source.writes if (w.form, w.submit, w.action) ==
                (write.form, write.submit, write.action)]
        if not same:
            visit.source.writes.append(write)

    def _budget_left(self, pages: int) -> str:
        """Why no further page may be read, or ""."""
        o = self.options
        if pages >= o.max_pages:
            return f"the budget of {o.max_pages} pages (--max-pages) is used up."
        if self.usage.calls + 2 > o.max_llm_calls:
            return (f"the budget of {o.max_llm_calls} model calls (--max-llm-calls) is used "
                    "up (one is kept for the plan).")
        if o.max_tokens and self.usage.total_tokens >= o.max_tokens:
            return (f"the budget of {o.max_tokens} tokens (--max-tokens) is used up "
                    f"({self.usage.total_tokens} used).")
        if self.elapsed() >= o.max_seconds:
            return f"the wall time of {o.max_seconds:g} s (--max-seconds) is up."
        return ""

    def elapsed(self) -> float:
        return time.monotonic() - self._started

    def _tell(self) -> None:
        self.status.usage = self.usage.copy()
        self.status.seconds = self.elapsed()
        self.status.url = self.browser.page.url
        if self.progress is not None:
            self.progress(self.status)

    # -- going somewhere ----------------------------------------------------------------------

    def _go(self, visit: _Visit, site: SiteMap) -> bool:
        """Reach the visit's state from a clean session; False when the way no longer works
        (the page changed, an action failed, a navigation left the allowed origins). The
        writes the guard stopped while the last actions ran are left in ``_last_writes``."""
        self._last_writes, self._last_started = [], -1
        try:
            return self._go_steps(visit)
        finally:
            stopped = self.writes.take() if self.writes is not None else []
            if self._last_started >= 0 and self.writes is not None:
                self._last_writes = [w for w in self.writes.blocked[self._last_started:]
                                     if w.from_action]
            for request in [w.describe(self.origins[0]) for w in stopped] + (
                    self.guard.take() if self.guard is not None else []):
                site.blocked[request] = site.blocked.get(request, 0) + 1

    def _go_steps(self, visit: _Visit) -> bool:
        for tab in self.page.context.pages:  # a tab an earlier visit opened is closed
            if tab is not self.page:
                tab.close()
        page = self.browser.page = self.page
        page.context.clear_cookies()
        fresh = True
        for step in visit.steps:
            if step.goto is not None:
                try:
                    page.goto(step.goto, timeout=NAVIGATION_TIMEOUT_MS)
                except PlaywrightError:
                    return False
                if fresh:  # a clean session: no storage left from an earlier visit
                    fresh = False
                    if page.evaluate(_CLEAR_STORAGE_JS):
                        page.reload(timeout=NAVIGATION_TIMEOUT_MS)
                self.browser.settle()
            else:
                self.browser.read()
                assert self.writes is not None
                if step is visit.steps[-1]:
                    self._last_started = len(self.writes.blocked)
                with self.writes.permit(any(self._named(p.control) for p in step.actions)):
                    for planned in step.actions:
                        if not self._replay(planned):
                            return False
                    self.browser.settle()
            if not allowed(page.url, self.origins):
                return False
        self._tell()
        return True

    def _replay(self, planned: _Planned) -> bool:
        assert self.registry is not None
        element = planned.action.parameters.get("element_id")
        if isinstance(element, str):
            try:
                now = self.browser.describe(element)
            except WebtaskError:
                return False
            if planned.target is not None and not _same(now, planned.target):
                return False
            if self._refusal(planned.action, set()) is not None:
                return False  # the page changed into something destructive: never
        return self.registry.execute(planned.action).success

    # -- asking -------------------------------------------------------------------------------

    def _ask(self, site: SiteMap, visit: _Visit) -> ExploreReply:
        assert self.registry is not None
        page_block = self.browser.get_page_context()
        known = "\n".join(f"- {p.title}: {p.url}" + (f" (after: {'; '.join(p.reached_by)})"
                                                     if p.reached_by else "")
                          for p in site.pages) or "(none yet)"
        how = "; ".join(visit.reached_by) or "opened directly"
        context = ModelRequest(system=get_prompt("explore/explore", "system"), purpose="explore",
                          task=site.app, step=len(site.pages) + 1)
        context.append(Block(
            f"Exploring the app at {site.app}. Allowed origins: {', '.join(self.origins)}.\n"
            f"Page {len(site.pages) + 1} of at most {self.options.max_pages}.\n"
            f"This page was reached by: {how}."))
        context.append(self._data_block())
        context.append(Block(f"Pages explored so far:\n{known}"))
        context.append(self.registry.get_tools_context())
        context.append(page_block)
        context.response_schema = bounded_schema(ExploreReply)
        try:
            return self.asker.ask(context, ExploreReply, "page reading")
        except BudgetExhausted as exc:
            raise ExploreStopped(str(exc)) from None
        finally:
            self._tell()

    def _data_block(self) -> Block:
        lines = []
        for name, value in self.task.variables.items():
            lines.append(f"- {{{name}}} = {value!r} (a variable)")
        for name in self.task.secrets:
            lines.append(f"- {{{name}}} (a secret: type the placeholder itself; the only "
                         "value a password field may take)")
        for name, path in self.task.resources.items():
            lines.append(f"- file {name!r} for the upload tool ({path.rsplit('/', 1)[-1]})")
        if not lines:
            return Block("No test data was given: never type into a password field.")
        return Block("Test data you may type (placeholders are replaced in the browser):\n"
                     + "\n".join(lines))

    # -- reading the reply --------------------------------------------------------------------

    def _read_reply(self, reply: ExploreReply, visit: _Visit) -> tuple[PageInfo, list[_Visit]]:
        self._around = {}  # the page does not change while its reply is read
        try:
            return self._read_explorations(reply, visit)
        finally:
            self._around = None

    def _read_explorations(self, reply: ExploreReply,
                           visit: _Visit) -> tuple[PageInfo, list[_Visit]]:
        snapshot = self.browser.snapshot
        ids = set(snapshot.elements) if snapshot else set()
        info = PageInfo(url=self.browser.page.url, title=reply.title, purpose=reply.purpose,
                        reached_by=list(visit.reached_by), forms=reply.forms,
                        lists=reply.lists, navigation=reply.navigation,
                        messages=[self.secrets.mask(m) for m in reply.messages])
        destructive_forms = {f.element for f in reply.forms if f.destructive and f.element}
        found: list[_Visit] = []
        for exploration in reply.explore:
            actions = [Action(a.tool, a.reason, dict(a.parameters)) for a in exploration.actions]
            controls = [self._control(a, ids) for a in actions]
            targets = [self._target(a) for a in actions]
            described = [_describe(a, t, self._spec(a))
                         for a, t in zip(actions, targets, strict=True)]
            refusal = next((r for r in (self._refusal(a, destructive_forms, ids)
                                        for a in actions) if r), None)
            if refusal is not None:
                last = next((c for c in reversed(controls) if c and c.get("submit")), None)
                if last is not None and "destructive" in refusal:  # a form: in the plan too
                    self._untried(_Visit(steps=[], reached_by=[*visit.reached_by, *described],
                                         source=info, control=last), [], why=refusal)
                else:
                    info.not_tried.append(f"{exploration.why}: {refusal}")
                continue
            link = self._link_target(actions)
            if link is not None:
                if not allowed(link, self.origins):
                    info.not_tried.append(f"{exploration.why}: {link} is outside the allowed "
                                          "origins")
                    continue
                found.append(_Visit(steps=[*visit.steps, _Step(goto=link)],
                                    reached_by=[*visit.reached_by,
                                                f"{described[0]} ({_path(link)})"]))
                continue
            planned = [_Planned(a, t, d, c) for a, t, d, c in zip(actions, targets, described,
                                                                  controls, strict=True)]
            control = next((c for c in reversed(controls) if c and c.get("submit")), None)
            found.append(_Visit(steps=[*visit.steps, _Step(actions=planned)],
                                reached_by=[*visit.reached_by, *described],
                                origin=urlsplit(info.url).path, source=info,
                                control=control, why=exploration.why))
        return info, found

    def _control(self, action: Action, ids: set[str]) -> dict[str, Any] | None:
        """The surroundings of the element an action names, when it is on the page."""
        element = action.parameters.get("element_id")
        if not isinstance(element, str) or element not in ids:
            return None
        return self._surroundings(element)

    def _named(self, control: dict[str, Any] | None) -> bool:
        """Does ``--allow-form`` name this control: its text, its form's submit button,
        or its form's action path?"""
        if not control or not self.options.allow_forms:
            return False
        texts = [str(control.get("own") or ""), str(control.get("submit") or "")]
        return matches(self.options.allow_forms, texts=texts,
                       paths=[str(control.get("action") or "")]) is not None

    def _target(self, action: Action) -> Fingerprint | None:
        element = action.parameters.get("element_id")
        if not isinstance(element, str):
            return None
        try:
            return self.browser.describe(element)
        except WebtaskError:
            return None

    def _spec(self, action: Action) -> Any:
        """The tool an action names, among those exploring may use (None: another)."""
        return self.registry.get(action.tool) if self.registry is not None else None

    def _link_target(self, actions: list[Action]) -> str | None:
        """The URL of a plain same-tab link when the exploration is only a click on it (or
        opens a URL): opened by its URL, so a link many pages show is visited once."""
        if len(actions) != 1:
            return None
        action, spec = actions[0], self._spec(actions[0])
        if spec is None:
            return None
        if spec.url_param:
            return urljoin(self.browser.page.url, str(action.parameters.get(spec.url_param, "")))
        element = action.parameters.get("element_id")
        if getattr(spec, "method", "") != "click" or not isinstance(element, str):
            return None
        info = self._surroundings(element)
        href = str(info.get("href") or "") if info else ""
        if info and info["tag"] == "a" and href and not info["target"] \
                and not href.startswith(("#", "javascript:")):
            return urljoin(self.browser.page.url, href).split("#", 1)[0]
        return None

    def _surroundings(self, element: str) -> dict[str, Any] | None:
        if self._around is not None and element in self._around:
            return self._around[element]
        try:
            got = self.browser.evaluate_on(element, _SURROUNDINGS_JS)
            info: dict[str, Any] | None = dict(got) if got is not None else None
        except (WebtaskError, PlaywrightError):
            info = None
        if self._around is not None:
            self._around[element] = info
        return info

    def _refusal(self, action: Action, destructive_forms: set[str],
                 ids: set[str] | None = None) -> str | None:
        """Why this action must not run while exploring, or None."""
        spec = self._spec(action)
        if spec is None:
            return f"the {action.tool!r} tool is not used while exploring"
        p = action.parameters
        element = p.get("element_id")
        if not isinstance(element, str):
            if spec.url_param is None and "element_id" in spec.params_class.model_fields:
                return (f"{action.tool} on the whole page (no element) is not tried "
                        "while exploring: it needs an element")
            return None
        if ids is not None and element not in ids:
            return f"{element} is not on the page"
        info = self._surroundings(element)
        if info is None:
            return f"{element} could not be read"
        if getattr(spec, "typed", False):
            value = str(p.get("value", ""))
            named = any(value == "{" + name + "}" for name in self.task.secrets)
            if info["type"] == "password" and not named:
                return ("a password field is only typed into with a named secret; none was "
                        "given (--secret)" if not self.task.secrets else
                        "a password field is only typed into with a named secret's "
                        "placeholder, exactly")
            return None
        if self._named(info):
            return None  # the user named it (--allow-form): words do not hold it back
        if info["formId"] and info["formId"] in destructive_forms:
            return (f"it submits a form marked destructive ({_short(info['form'] or info['own'])})"
                    "; --allow-form NAME allows it (allow_forms in webtask mcp)")
        # a key pressed in a form, or a submit button, submits the form: its words count
        submits = "key" in spec.params_class.model_fields or (
            info["tag"] == "button" and info["type"] in ("", "submit")
            or info["tag"] == "input" and info["type"] in ("submit", "image"))
        said = str(info["own"]) + (" | " + str(info["form"]) if submits and info["form"] else "")
        found = DESTRUCTIVE.search(said)
        if found:
            return (f"it looks destructive ({found.group(0)!r} in {_short(said)!r}); "
                    "--allow-form NAME allows it (allow_forms in webtask mcp)")
        return None

    # -- keys ---------------------------------------------------------------------------------

    def _state_key(self) -> str:
        """A page state, as far as exploring goes: its path, and its text with element ids
        and numbers left out (a cart of one and of two items is one page; ``/?page=1`` is
        ``/``)."""
        snapshot = self.browser.read()
        body = re.sub(r"\b[a-z]+\d*-\d+\b", "", snapshot.text)
        body = re.sub(r"\d+", "#", body)
        return urlsplit(snapshot.url).path + "|" + hashlib.sha1(body.encode()).hexdigest()


_CLEAR_STORAGE_JS = """() => {
  let n = 0;
  try { n += localStorage.length + sessionStorage.length;
        localStorage.clear(); sessionStorage.clear(); } catch (e) {}
  return n;
}"""


def _describe(action: Action, target: Fingerprint | None, spec: Any) -> str:
    """An action as a person reads it: ``click button "Add to cart" near "Blue Oxford
    Shirt"``, ``fill textbox "Email" with '{email}'``, ``open /cart``."""
    what = target.describe() if target else ""
    p = action.parameters
    if spec is not None and spec.url_param:
        return f"open {p.get(spec.url_param, '')}"
    if spec is not None and getattr(spec, "typed", False):
        return f"{action.tool} {what} with {str(p.get('value', ''))!r}"
    rest = "".join(f" ({key}: {value})" for key, value in p.items()
                   if key not in ("element_id", "to_element_id"))
    return f"{action.tool} {what}{rest}".replace("  ", " ").strip()


def _normal(url: str) -> str:
    parts = urlsplit(url)
    query = "&".join(sorted(parts.query.split("&"))) if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}?{query}"


def _same(now: Fingerprint, then: Fingerprint) -> bool:
    return (now.tag, now.role, now.name, now.label, now.name_attr) == \
        (then.tag, then.role, then.name, then.label, then.name_attr)


def _path(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
