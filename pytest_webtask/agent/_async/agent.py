"""AsyncAgent: one LLM call per step, driving a real browser."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from playwright.async_api import Page

from ...browser._async.guard import AsyncOriginGuard
from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser.origins import default_origins
from ...browser.page_state import PageState, state_lines
from ...defaults import LLM_MAX_TOKENS, MAX_STEPS, PAGE_CHARS, chosen_page_chars
from ...errors import ProposalError
from ...llm.base import LLM
from ...llm.prompts import get_examples, get_prompt
from ...llm.request import Block, ModelRequest
from ...tools._async.browser_tools import AsyncTool
from ...tools._async.registry import COVERED, AsyncToolRegistry, browser_registry
from ...tools.builtin import Fill, Hover, Press, Slide, Type
from ...tools.meant import REFUSED, choice_values, rule_of
from ...types import Action, ExecutionResult, Secrets, Usage
from ..budget import Budget, page_chars_for_window
from ..changes import field_value, page_change, page_key, plain_line
from ..guards import (
    Dropdowns,
    acted,
    says_something,
)
from ..loops import FutileRepeat, RepeatedFailure
from ..models import Evidence, ProposalResult, Step, TaskResult
from ..parsing import (
    OutcomeModel,
    ProposalModel,
    action_text,
    proposal_from,
    show,
)
from ..policy import Policy
from ..reply_schema import outcome_schema, reply_schema
from ..small.fields import (
    empty_fields,
    line_of,
    no_field_note,
    values_for_fields,
)
from ..small.hints import (
    absent_texts,
    calendar_lines,
    each_candidates,
    hidden_lines,
    hint,
    ordinal_lines,
    page_length,
    page_position_lines,
)
from ..task_context import TaskContext, checked_statement
from ..verify import Done, verify_done
from .asker import AsyncAsker
from .evidence import resolve_evidence
from .small import _HOVER_ASKED, PRESSING, AsyncSmallAgent, AsyncSmallExecuter

log = logging.getLogger("pytest_webtask.agent")

FIRST_QUIET_MS = 250
# advice only an action can satisfy: with ``guard-acts`` (small), the reply after it acts
ACTS_ONLY = frozenset({"given-values", "named-options", "links-to-go"})


class AsyncProposer:
    """Builds the context and makes exactly one LLM call per step (plus one re-ask
    when the reply is unusable).

    The request opens with what stays the same for the whole task (instructions, then the
    tools, in the system message; then the task), so a server's prefix cache reuses it; the
    step history, the page state and, after actions, what they changed and the question
    whether the task is now done come last. The reply schema is made for this request: the
    task's tools and the ids of the page state just read.
    """

    def __init__(self, llm: LLM, task: TaskContext, tools: AsyncToolRegistry,
                 browser: AsyncLLMBrowser, usage: Usage | None = None,
                 budget: Budget | None = None, policy: Policy | None = None) -> None:
        self.llm = llm
        self.task = task
        self.policy = policy if policy is not None else Policy()
        self.tools = tools
        self.browser = browser
        self.usage = usage if usage is not None else Usage()
        self.asker = AsyncAsker(llm, task, self.usage, budget)
        # called after the page is read, before the history is written: what happened
        # between steps (a late navigation the guard stopped) goes into the history
        self.between_steps: Callable[[], None] | None = None
        # called once per step that ran actions, when the next reading shows what they did
        self.after_change: Callable[[Step], None] | None = None
        self.seen: PageState | None = None  # the page state the last request showed
        self.start: PageState | None = None  # the page state the task's first request showed
        self.futile: FutileRepeat | None = None  # what this page no longer offers
        # per step (by its number), the reading its actions ran on
        self.before: dict[int, PageState] = {}
        # a step whose actions undid the one before it (the page went back to how it was):
        # its number; and, per page where such actions ran, those (tool, element id) pairs,
        # not offered on that page again (a model opened a panel, then closed it, and again)
        self.undo: int | None = None
        self.undid: set[int] = set()  # the steps that undid the one before them
        self.hover_futile = False  # a hover ran and the page did not change at all
        self.undoing: list[tuple[tuple[str, list[str]], set[tuple[str, str]]]] = []
        self.hidden = ""  # what shows the task's quoted texts that are hidden now
        self.page_length: int | None = None  # a paged list's page, as a page before showed it

    def paged(self, state_text: str, phrase: str) -> str:
        """The paged-position hint, its page length kept from the pages that show it for
        the last page, which may hold fewer."""
        self.page_length = page_length(state_text, phrase) or self.page_length
        return page_position_lines(state_text, phrase, per_page=self.page_length)

    async def build_context(self, *, done: bool = True, give_up: bool | None = None
                            ) -> ModelRequest:
        page = await self.browser.get_page_context()
        state = self.browser.snapshot
        if self.between_steps is not None:
            self.between_steps()
        last = self.task.steps[-1] if self.task.steps else None
        if (last is not None and last.change is None and last.executions
                and self.seen is not None and state is not None):
            last.change = page_change(self.seen, state)
            self._undid(last, self.seen, state)
            if last.change.unchanged and any(
                    a.tool == Hover.name and e.success
                    for a, e in zip(last.proposal.actions, last.executions, strict=False)):
                self.hover_futile = True  # a hover showed nothing here: ``hover-futile``
            if self.after_change is not None:
                self.after_change(last)
        self.seen = state
        if self.start is None:
            self.start = state
        # a quoted text the page holds only where it is hidden (another tab, a closed
        # section): the control that shows it is named after the hint lines
        phrase = checked_statement(self.task.task) or self.task.task
        policy = self.policy
        self.hidden = hidden_lines(await self.browser.revealers(
            absent_texts(state.text, phrase), phrase), state.text) \
            if state is not None and policy.on("hidden-text") else ""
        policy.use("hidden-text", self.hidden)
        system = get_prompt("agent/proposer", "proposer_system")
        if self.browser.screenshot:  # a model that sees the page may cite pictures
            system += "\n" + get_prompt("agent/proposer", "visual_evidence")
        # the history of facts: a small model copies its own last sentence ("the button has
        # not been clicked") step after step instead of reading what its actions changed
        facts = policy.use("history-facts", policy.on("history-facts") and self.task.steps)
        examples = list(get_examples("agent/demos", "proposer"))
        if checked_statement(self.task.task) is None and policy.on("do-demos"):
            # a do task is shown no check's worked example: a small model copied their
            # "so the statement is false" and gave up a task it had done
            policy.fire("do-demos")
            examples = [(user, reply) for user, reply in examples
                        if checked_statement(demo_task(user)) is None]
        if policy.on("history-facts"):
            examples = [(without_messages(user), reply) for user, reply in examples]
        context = ModelRequest(system=f"{system}\n\n{self.tools.get_tools_context().text}",
                          purpose="step", task=self.task.task, step=len(self.task.steps) + 1,
                          examples=examples)
        policy.use("test-checks", self.task.then_checks)  # shown by the task's block
        context.append(self.task.get_task_context())
        context.append(self.task.get_resources_context())
        named = policy.on("named-actions")
        context.append(self.task.get_steps_context(
            own_words=not facts,
            named=policy.use("named-actions", named and any(
                e.target is not None for s in self.task.steps for e in s.executions))))
        # the question closes the page state's block: what a reader of "the page" gets
        page.text = f"{page.text}\n\n---\n\n{self.question(last, state).text}"
        context.append(page)
        ids = list(state.elements) if state is not None else []
        banned: set[tuple[str, str]] = set()
        if self.futile is not None and policy.on("futile-repeat"):
            banned |= self.futile.banned
        if state is not None and policy.on("undo-ban"):
            # on a page where an action undid the step before it
            banned |= {pair for key, pairs in self.undoing if key == page_key(state)
                       for pair in pairs}
        # a task is given up only once something was tried (a check's statement may be false
        # at once): a small model gives up on what it does not see at first sight
        tried = checked_statement(self.task.task) is not None or any(
            s.executions for s in self.task.steps)
        if give_up is None and not tried and policy.use("try-first", policy.on("try-first")):
            give_up = False
        # a tab tool is not offered while one tab is open: "tab" in a task is most often a
        # tab widget on the page, which a small model would otherwise switch_tab to
        tabs = len(self.browser.page.context.pages)
        # nor a tool for a kind of element the page does not have (slide: a slider)
        shown = state.text if state is not None else ""
        tools = []
        for t in self.tools.tools():
            if getattr(t, "tabs_needed", 1) > tabs and policy.on("tab-tools"):
                policy.fire("tab-tools")
            elif (getattr(t, "shown_by", None) or "") not in shown and policy.on("tool-shown-by"):
                policy.fire("tool-shown-by")
            elif (t.name == "find" and state is not None and state.whole
                  and policy.on("find-cut")):
                policy.fire("find-cut")  # every element is on its line, with its id
            elif (t.name == Hover.name and self.hover_futile and policy.on("hover-futile")
                  and not _HOVER_ASKED.search(self.task.task)):
                policy.fire("hover-futile")  # clicks, not hovers, press things
            else:
                tools.append(t)
        offered = [(t.name, t.params_class) for t in tools]
        # a parameter whose values the page lists (a dropdown's options) is one of them
        choices = {t.name: (spec[0], values) for t in tools
                   if (spec := getattr(t, "choices", None)) and state is not None
                   and policy.on("dropdown-options")
                   and policy.use("dropdown-options", values := choice_values(state.text,
                                                                               spec[1]))}
        context.response_schema = reply_schema(offered, ids, banned,
            impossible=True if give_up is None else give_up, done=done, choices=choices)
        return context  # the asker masks secrets before anything is sent

    def _field_values(self, state_text: str) -> str:
        """``form-values``: the line naming the fields the task's values go in ("" when
        none)."""
        pairs = values_for_fields(state_text, self.task.task)
        return ("The task's values and the fields they go in: " + "; ".join(pairs) + "."
                if pairs else "")

    def _undid(self, last: Step, before: PageState, after: PageState) -> None:
        """Did ``last``'s actions take the page back to how it was before the step before
        it? Then they are not offered on ``before``'s page again."""
        n = len(self.task.steps)
        self.before[n] = before
        self.undo = None
        prev = self.task.steps[-2] if n >= 2 else None
        first = self.before.get(n - 1)
        if (not self.policy.on("undo-ban") or prev is None or first is None
                or prev.change is None or prev.change.unchanged
                or last.change is None or last.change.unchanged or n - 1 in self.undid
                or page_key(first) != page_key(after)):
            return  # (doing again what an undo undid is the way on, no undo)
        self.undo = n - 1
        self.undid.add(n)
        self.policy.fire("undo-ban")
        pairs = {(a.tool, a.parameters["element_id"]) for a, e in
                 zip(last.proposal.actions, last.executions, strict=False)
                 if e.success and isinstance(a.parameters.get("element_id"), str)}
        if pairs:
            self.undoing.append((page_key(before), pairs))

    def question(self, last: Step | None, state: PageState | None = None) -> Block:
        """What the last actions changed, then the question asked first: is the task done
        (for a check, is its statement true)? After the task, the page-state lines that hold
        its words."""
        statement = checked_statement(self.task.task)
        phrase = statement or self.task.task
        policy = self.policy
        said = []
        if state is not None:
            senders = statement is None and policy.on("form-sender")
            lines_said = hint(state.text, phrase, senders=senders) \
                if policy.on("task-lines") else ""
            if policy.use("task-lines", lines_said) and senders and " sends form-" in lines_said:
                policy.fire("form-sender")
            said = [lines_said,
                    self._field_values(state.text) if statement is None
                    and policy.on("form-values") else "",
                    calendar_lines(state.text, phrase) if policy.on("calendar") else "",
                    ordinal_lines(state.text, phrase) if policy.on("position") else "",
                    self.paged(state.text, phrase) if policy.on("paged-position") else ""]
            policy.use("form-values", said[1])
            policy.use("calendar", said[2])
            policy.use("position", said[3])
            policy.use("paged-position", said[4])
        lines = "\n".join(filter(None, [*said[:2], self.hidden, *said[2:]]))
        if statement is not None and (last is None or last.change is None):
            return Block(get_prompt("agent/proposer", "check_question").format(
                statement=statement, lines=lines))
        if last is None or last.change is None:
            return Block(get_prompt("agent/proposer", "first_question").format(
                task=self.task.task, lines=lines))
        named = policy.on("named-actions")
        actions = ", ".join(action_text(a, e, 120, named)
                            for a, e in zip(last.proposal.actions, last.executions, strict=False))
        changes = last.change.describe()
        if self.futile is not None and self.futile.banned and policy.on("futile-repeat"):
            tried = ", ".join(f"{tool} {target}" for tool, target in sorted(self.futile.banned))
            changes += (f"\nTried on this page without changing it, not offered again until "
                        f"the page changes: {tried}.")
        if self.undo is not None and self.undo == len(self.task.steps) - 1:
            before = self.task.steps[self.undo - 1]
            did = ", ".join(action_text(a, e, 120, named) for a, e in zip(
                before.proposal.actions, before.executions, strict=False))
            changes += "\n" + get_prompt("agent/proposer", "undone").format(
                step=self.undo, actions=did).strip()
        return Block(get_prompt("agent/proposer", "changes").format(
            step=len(self.task.steps), actions=actions, changes=changes,
            task=self.task.task, lines=lines))

    async def propose(self, extra: Block | None = None, *, done: bool = True,
                      give_up: bool | None = None) -> ProposalResult:
        """The model's next proposal; without ``done``, its reply schema offers no
        completion; ``give_up`` says whether it offers giving the task up (by default, once
        something was tried, and for a check)."""
        context = await self.build_context(done=done, give_up=give_up)
        context.append(extra)
        model = await self.asker.ask(context, ProposalModel, "reply")
        return proposal_from(model)

    async def outcome(self, question: Block) -> OutcomeModel:
        """The model's yes or no to ``question``, said after the page (one call, the
        request's other blocks as a step's, so a server's prefix cache reuses them)."""
        context = await self.build_context()
        context.append(question)
        context.response_schema = outcome_schema()
        return await self.asker.ask(context, OutcomeModel, "answer")


# tools whose action Playwright holds until the element is enabled
NEEDS_ENABLED = frozenset({"click", "double_click", "fill", "type", "select", "check", "uncheck",
                           "upload", "slide"})


# what a typing into an element that takes no text fails with (``tools.builtin.not_typable``)
NO_TEXT = "takes no text (it is no text field"

DISABLED_LOOKS, DISABLED_WAIT_MS = 4, 250  # a disabled element is refused after about 0.75 s


class AsyncExecuter(AsyncSmallExecuter):
    """Runs a step's actions in order; stops at the first failure or when the page navigated
    or re-rendered under the remaining actions; then waits for the page to settle."""

    def __init__(self, tools: AsyncToolRegistry, browser: AsyncLLMBrowser,
                 settle_timeout_ms: float = 3000, guard: AsyncOriginGuard | None = None,
                 policy: Policy | None = None) -> None:
        self.tools = tools
        self.browser = browser
        self.settle_timeout_ms = settle_timeout_ms
        self.guard = guard
        self.policy = policy if policy is not None else Policy()
        self.task = ""  # the task's words, for the rules that read them (left-empty)
        self.send_asked: set[str] = set()  # the buttons ``send-last`` held back once
        self.delete_asked: set[str] = set()  # the elements ``unasked-delete`` held back once
        self.value_asked: set[str] = set()  # the controls ``given-value`` held back once
        self.later_asked = False  # ``absent-name`` held a click back once
        self.open_asked: set[str] = set()  # the elements ``open-shown`` held back once
        # element id -> the page state its last click ran on (``open-shown`` reads it)
        self.clicked_on: dict[str, str] = {}

    def refusal(self, action: Action) -> str | None:
        """Why an action may not run: it names a tool the task does not have, or an element
        id the page state the model was sent does not have (one from an earlier page, or
        invented). Such an action never reaches the browser."""
        tool = self.tools.get(action.tool)
        if tool is None:
            return None  # the registry says so, listing the tools
        snapshot = self.browser.snapshot
        known = snapshot.elements if snapshot is not None else {}
        for name in ("element_id", "to_element_id"):
            value = action.parameters.get(name)
            if isinstance(value, str) and value not in known:
                return unknown_id(value, list(known))
        return None

    def held(self, action: Action, typed: dict[str, str]) -> str | None:
        """Why a typing is not run (``already-holds``): its text field already holds the
        value, as the page state showed it and no earlier action of this reply typed into
        it. Typing it again would add it twice, filling it changes nothing; the reply's
        next actions still run (a reply that types the name again, then presses Join)."""
        tool, snapshot = self.tools.get(action.tool), self.browser.snapshot
        target, value = action.parameters.get("element_id"), action.parameters.get("value")
        if (self.policy.on("already-holds") and getattr(tool, "typed", False)
                and snapshot is not None and isinstance(target, str) and target not in typed
                and isinstance(value, str) and value
                and field_value(snapshot.text, target) == value):
            self.policy.fire("already-holds")
            return (f"{target} already holds {value!r}: {action.tool} it again would not "
                    "help, so it was not run; the reply's next actions ran. Do the next thing "
                    "the task needs (submit it, or check whether the task is done).")
        return None

    async def disabled(self, action: Action) -> str | None:
        """Why an action on a disabled element may not run (``disabled-target``): the page
        state flagged it disabled and it still is (a few looks at the live element over
        0.75 s, only for such elements: one disabled while the page loads gets enabled).
        Without this, the action waits out its timeout and fails."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        if (action.tool not in NEEDS_ENABLED or snapshot is None or not isinstance(target, str)
                or not self.policy.on("disabled-target")):
            return None
        line = line_of(snapshot.text, target)
        if line is None or "disabled" not in line.flags:
            return None
        locator = self.browser.locator(target)
        for look in range(DISABLED_LOOKS):
            if look:
                await self.browser.page.wait_for_timeout(DISABLED_WAIT_MS)
            try:
                if not await locator.is_disabled(timeout=1000):
                    return None
            except Exception:  # noqa: BLE001 - gone or not found: the action says so itself
                return None
        self.policy.fire("disabled-target")
        empty = empty_fields(snapshot.text, target)
        return (f"{target} is disabled: it cannot be used now, and {action.tool} would only "
                "wait. A form's button is often disabled until its fields are filled"
                + (f"; empty now: {', '.join(empty)}. Fill them first, each with its own value "
                   "from the task, then use it." if empty else "."))

    def instead(self, action: Action) -> tuple[Action | None, str] | None:
        """The action to run in place of ``action`` when its tool says the page state shows
        what it meant on the same element (a select on a radio button checks it), and why;
        (None, why) refuses it (a read-only field typed into); None runs it. Each is a rule
        of the policy (``rule_of``), run only when it is on."""
        tool, snapshot = self.tools.get(action.tool), self.browser.snapshot
        meant = getattr(tool, "instead", None)
        if meant is None or snapshot is None:
            return None
        found = meant(action.parameters, snapshot.text)
        if found is None:
            return None
        rule = rule_of(action.tool, found, slide=Slide.name, fill=Fill.name, typed=Type.name)
        if not self.policy.on(rule):
            return None
        name, params, why = found
        if name == REFUSED:
            self.policy.fire(rule)
            return None, why
        if self.tools.get(name) is None:
            return None  # a task without that tool: the proposed action fails as is
        self.policy.fire(rule)
        return Action(tool=name, reason=action.reason, parameters=params), why

    async def uncover(self, action: Action, result: ExecutionResult
                      ) -> tuple[Action, ExecutionResult, ExecutionResult] | None:
        """An action whose element a pop-up covered (a date picker over the Submit button)
        is tried once more after Escape: the Escape and the action's second try when that
        worked (the step keeps both, so a replay presses Escape too), else None."""
        if (result.success or COVERED not in (result.error or "")
                or self.tools.get(Press.name) is None or not self.policy.on("close-pop-up")
                or says_something(result.error or "")):
            return None
        escape = Action(tool=Press.name, parameters={"key": "Escape"},
                        reason="close what covered the next action's element")
        pressed = await self.tools.execute(escape)
        if not pressed.success:
            return None
        again = await self.tools.execute(action)
        if not again.success:
            return None
        again.output = " ".join(filter(None, [
            "Its element was covered by a pop-up: Escape closed it and it ran.", again.output]))
        self.policy.fire("close-pop-up")
        return escape, pressed, again

    async def execute(self, actions: list[Action]) -> tuple[list[ExecutionResult], str | None]:
        results: list[ExecutionResult] = []
        note = None
        small = self.policy.profile == "small"  # the small profile's holds (small.py)
        typed: dict[str, str] = {}  # element id -> the value an action of this reply typed
        touched: dict[str, str] = {}  # element id -> what an action of this reply gave it
        i = 0
        while i < len(actions):
            i += 1
            action = actions[i - 1]
            meant = self.instead(action) or (self.focus_meant(action) if small else None)
            refusal, why = None, None
            if meant is not None and meant[0] is None:
                refusal = meant[1]
            elif meant is not None and meant[0] is not None:
                # the step keeps the action that ran (history, recipe)
                action = actions[i - 1] = meant[0]
                why = meant[1]
            refusal = refusal or self.refusal(action)
            # what the task says not to do, or what changes nothing, is left out and the
            # reply goes on (the rest of it is the task: "press Join without agreeing")
            held = None if refusal else (self.held(action, typed) or (
                self.field_refusal(action) if small else None))
            refusal = (refusal or held
                       or (await self.second_value(action, typed) if small else None)
                       or await self.disabled(action)
                       or (self.holds_back(action, touched) if small else None))
            result = (ExecutionResult(success=False, error=refusal) if refusal
                      else await self.tools.execute(action))
            target, value = action.parameters.get("element_id"), action.parameters.get("value")
            if (result.success and action.tool in PRESSING and isinstance(target, str)
                    and self.browser.snapshot is not None):
                self.clicked_on[target] = self.browser.snapshot.text
            if (not result.success and NO_TEXT in (result.error or "")
                    and isinstance(target, str) and self.browser.snapshot is not None
                    and self.policy.on("no-field")
                    and (note := no_field_note(self.browser.snapshot.text, target))):
                self.policy.fire("no-field")
                result.error = f"{result.error} {note}"
            if (result.success and getattr(self.tools.get(action.tool), "typed", False)
                    and isinstance(target, str) and isinstance(value, str)):
                typed[target] = value
            if result.success and isinstance(target, str):
                given = [v for k, v in action.parameters.items() if k != "element_id"
                         for v in (v if isinstance(v, list) else [v]) if isinstance(v, str)]
                touched[target] = " ".join(given)
            if (uncovered := await self.uncover(action, result)) is not None:
                escape, pressed, result = uncovered
                actions.insert(i - 1, escape)
                results.append(pressed)
                i += 1
            if why is not None:
                result.output = " ".join(filter(None, [why, result.output]))
            results.append(result)
            remaining = actions[i:]
            if not remaining:
                break
            if not result.success and held is None:  # left out, not failed: go on
                note = (f"Stopped after action {i} failed; the remaining {len(remaining)} "
                        "action(s) were not run.")
                break
            if result.opened_tab or result.page is not None:
                note = (f"Action {i} changed the current tab; the remaining {len(remaining)} "
                        "action(s) were not run. Use the new page state.")
                break
            ids = [a.parameters["element_id"] for a in remaining
                   if isinstance(a.parameters.get("element_id"), str)]
            navigated, detached = await self.browser.stale_ids(ids)
            if navigated and ids:  # actions without element ids still run on the new page
                note = (f"The page navigated after action {i} (now at {self.browser.page.url}); "
                        f"the remaining {len(remaining)} action(s) were not run because their "
                        "element IDs are stale. Use the new page state.")
                break
            if detached:
                note = (f"The page re-rendered after action {i}: {', '.join(detached)} no longer "
                        f"exist; the remaining {len(remaining)} action(s) were not run. Use the "
                        "new page state.")
                break
        await self.browser.settle(timeout_ms=self.settle_timeout_ms)
        # a dialog or a tab that came late belongs to the last action run
        await self.tools.late_events()
        blocked = self.guard.note() if self.guard else None
        return results, " ".join(filter(None, [note, blocked])) or None


def demo_task(user: str) -> str:
    """The task of a worked example's request (its "Task:" block)."""
    return user.split("Task:\n", 1)[-1].split("\n\n---", 1)[0].strip()


def without_messages(history: str) -> str:
    """A worked example's text without its step history's "Message:" lines (the
    ``history-facts`` rule shows the model its history that way)."""
    return "\n".join(line for line in history.splitlines()
                     if not line.lstrip().startswith("Message: "))


def unknown_id(element_id: str, known: list[str]) -> str:
    """The error for an id the current page state does not have, with the ids it has (those
    of the same kind first)."""
    kind = element_id.rsplit("-", 1)[0]
    alike = [k for k in known if k.rsplit("-", 1)[0] == kind]
    shown = (alike or known)[:20]
    more = len(alike or known) - len(shown)
    listed = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
    return (f"Unknown element id {element_id!r}: the current page state has no such id (it "
            f"may be from an earlier page). Ids it has{' of that kind' if alike else ''}: "
            f"{listed or 'none'}.")


def new_texts(start: PageState | None, now: PageState | None, limit: int = 5) -> list[str]:
    """The texts the page state ``now`` shows that ``start`` did not, up to ``limit``: text
    of its own first ("Page 2 of 3", a message), then an element's, in page order."""
    if start is None or now is None:
        return []
    quoted = re.compile(r' "((?:[^"\\]|\\.){2,80})"$')
    before = {m.group(1) for line in start.text.splitlines()
              if (m := quoted.search(line.rstrip()))}
    found: dict[str, bool] = {}
    for line in now.text.splitlines():
        m = quoted.search(line.rstrip())
        if m and m.group(1) not in before:
            found.setdefault(m.group(1), not line.lstrip().startswith('- "'))
    return sorted(found, key=lambda t: found[t])[:limit]


def _new_element(element_id: str, start: PageState, now: PageState) -> bool:
    """Is ``element_id`` of the reading ``now`` an element the ``start`` reading did not
    show (a panel the actions opened)?"""
    if element_id not in start.elements:
        return True
    line = next((x for x in state_lines(now.text) if x.id == element_id), None)
    return line is not None and plain_line(f"- {line.content}") not in page_key(start)[1]


class AsyncAgent(AsyncSmallAgent):
    """Completes a task in English on a Playwright page, one LLM call per step.

    ``execute`` runs a whole task; ``set_task`` + ``run_step`` run it step by step. A new
    task always starts from a fresh ``TaskContext``; secrets stay registered (masked) for the
    agent's life, since a page may go on showing a value typed in an earlier task.
    ``allowed_origins`` limits where the agent may go (default: the start page's origin).
    ``budget`` limits model calls and tokens per task.
    """

    def __init__(
        self,
        page: Page,
        llm: LLM,
        *,
        page_chars: int = PAGE_CHARS,
        screenshot: bool | None = None,
        settle_timeout_ms: float = 3000,
        allowed_origins: list[str] | None = None,
        require_evidence: bool = False,
        budget: Budget | None = None,
        secrets: Secrets | None = None,
        block_subresources: bool = False,
        extra_tools: list[type[AsyncTool]] | None = None,
        max_page_chars: int | None = None,
        rules_off: str | list[str] | tuple[str, ...] = (),
        then_checks: tuple[str, ...] | list[str] = (),
        profile: str | None = None,
    ) -> None:
        self.llm = llm
        # the rules that help a model (agent/policy.py), each switchable; ``small`` adds the
        # rules written for small local models
        self.policy = Policy(rules_off, profile)
        self.small = self.policy.profile == "small"
        # what the test checks right after the task (the ``test-checks`` rule shows them)
        self.then_checks = tuple(then_checks)
        self.secrets = secrets if secrets is not None else Secrets()
        page_chars = chosen_page_chars(page_chars, max_page_chars)
        use_images = getattr(llm, "supports_images", False) if screenshot is None else screenshot
        self.page_chars = page_chars  # the budget asked for; a small model context lowers it
        self.browser = AsyncLLMBrowser(page, page_chars=page_chars, screenshot=use_images,
                                       secrets=self.secrets)
        self.settle_timeout_ms = settle_timeout_ms
        self.allowed_origins = allowed_origins
        self.require_evidence = require_evidence
        self.budget = budget
        self.block_subresources = block_subresources
        self.extra_tools = list(extra_tools or [])  # tool classes from plugins (hooks)
        self.guard: AsyncOriginGuard | None = None
        self.usage = Usage()
        self._repeats = RepeatedFailure()
        self._futile = FutileRepeat()
        self._doubted: set[str] = set()  # the later doubts already asked in this task
        self._advised: set[str] = set()  # the advice (verify.ADVICE) given in this task
        self._said_next: str | None = None  # why the last done was not accepted
        self._acts_only = False  # the next reply offers acting only (``guard-acts``)
        self._refusals = 0  # dones refused in a row
        self._dropdowns = Dropdowns()  # the dropdowns the task's pages offered
        # the later doubt found fields filled and a button the task names never clicked
        self._must_send = False
        self._task_context: TaskContext | None = None
        self.tool_registry: AsyncToolRegistry | None = None
        self.proposer: AsyncProposer | None = None
        self.executer: AsyncExecuter | None = None

    @property
    def page(self) -> Page:
        """The current tab: the one an action opened or switched to, else the page given."""
        return self.browser.page

    @property
    def task_context(self) -> TaskContext | None:
        return self._task_context

    async def set_task(self, task: str, max_steps: int = MAX_STEPS,
                       resources: dict[str, str] | None = None,
                       variables: dict[str, Any] | None = None,
                       secrets: dict[str, Any] | None = None) -> None:
        """Start a task for step-by-step execution (``run_step``). The origin guard is on
        from here until ``close()`` (``execute`` closes it when the task ends)."""
        self._task_context = TaskContext.create(task, max_steps=max_steps, resources=resources,
                                                variables=variables, secrets=secrets,
                                                known=self.secrets)
        if checked_statement(task) is None and self.policy.on("test-checks"):
            self._task_context.then_checks = self.then_checks
        await self._fit_window()
        origins = (self.allowed_origins if self.allowed_origins is not None
                   else default_origins(self.page.url))
        self.tool_registry = browser_registry(self.browser, self._task_context, origins,
                                              self.extra_tools)
        self.browser.watch.attach()
        await self.browser.watch.track_windows(self.page)
        self.policy.take()
        self.proposer = AsyncProposer(self.llm, self._task_context, self.tool_registry,
                                      self.browser, usage=self.usage, budget=self.budget,
                                      policy=self.policy)
        self.proposer.between_steps = self._late_requests
        self._repeats = RepeatedFailure()
        self._futile = FutileRepeat()
        self._doubted = set()
        self._advised = set()
        self._said_next = None
        self._acts_only = False
        self._refusals = 0
        self._dropdowns = Dropdowns()
        self._must_send = False
        self.proposer.after_change = self._after_change
        self.proposer.futile = self._futile
        if self.guard is None or self.guard.origins != origins:
            await self.close()
            self.guard = AsyncOriginGuard(self.page.context, origins,
                                          subresources=self.block_subresources)
        await self.guard.start()
        self.executer = AsyncExecuter(self.tool_registry, self.browser, self.settle_timeout_ms,
                                      self.guard, self.policy)
        self.executer.task = task

    async def _fit_window(self) -> None:
        """Lower the page state's budget to what the model's context holds, when its server
        says how large that is (llama.cpp, vLLM; asked once per model object)."""
        ask = getattr(self.llm, "acontext_window", None)
        window = await ask() if callable(ask) else None
        if isinstance(window, int) and window > 0:
            reply = getattr(self.llm, "max_tokens", 0) or LLM_MAX_TOKENS
            self.browser.page_chars = min(self.page_chars,
                                          page_chars_for_window(window, int(reply)))

    def _late_requests(self) -> None:
        """Requests the guard stopped since the last step ended (a timer's navigation, a
        page's own script) go into that step's history entry."""
        late = self.guard.note() if self.guard else None
        if late and self._task_context is not None and self._task_context.steps:
            last = self._task_context.steps[-1]
            last.note = " ".join(filter(None, [last.note, "After this step: " + late]))

    def _after_change(self, step: Step) -> None:
        assert step.change is not None
        self._futile.after(step.proposal.actions, step.executions, step.change.unchanged)

    async def close(self) -> None:
        """Remove the origin guard's route from the browser context."""
        if self.guard is not None:
            await self.guard.stop()

    async def run_step(self) -> Step:
        """Run one step: propose (one LLM call), execute, settle."""
        if self._task_context is None or self.proposer is None or self.executer is None:
            raise RuntimeError("No task set. Call set_task() first.")
        if self._task_context.step_count == 0:
            # apps that render after the load event (client-side routers, web components):
            # a longer quiet window than after an action, where the page was already live
            await self.browser.settle(timeout_ms=self.settle_timeout_ms, quiet_ms=FIRST_QUIET_MS)
        ctx = self._task_context
        policy = self.policy
        first = not ctx.steps
        # a do task acts first: its first reply schema offers no "done" (a step whose result
        # is on the page already is a check), so a small model does not call a task done
        # because it sees the button it should click
        act_first = first and checked_statement(ctx.task) is None and policy.on("act-first")
        policy.use("act-first", act_first)
        said, self._said_next = self._said_next, None
        # after a done that was not accepted, the small profile offers no give-up: it was
        # done, and a small model gives up when asked again
        step = await self._ask(said, done=not act_first and not self._acts_only,
                               give_up=False if said and self.small else None)
        self._acts_only = False
        if self.small:
            step = await self._second_look(step, first)
        if step.proposal.complete and self.require_evidence:
            await self._verify(step)
        proposal = step.proposal
        if self._futile.repeats(proposal.actions) and not proposal.complete \
                and not proposal.impossible and policy.on("futile-repeat"):
            policy.fire("futile-repeat")
            # the same actions again on a page they did not change: not run; asked once more
            self._futile.refuse(proposal.actions)
            step = await self._ask(get_prompt("agent/proposer", "futile_repeat").format(
                actions=", ".join(f"{a.tool} {show(a.parameters, 120)}"
                                  for a in proposal.actions)))
            proposal = step.proposal
            if (self._futile.repeats(proposal.actions) and not proposal.complete
                    and not proposal.impossible):
                self._futile.refuse(proposal.actions)
                step.note = "Not run: these actions already ran and changed nothing."
                step.rules = policy.take()
                ctx.add_step(step)
                return step
        if proposal.actions and not proposal.complete and not proposal.impossible:
            self._refusals = 0
            asked = step.note  # what a question's unusable answer left to say
            step.executions, step.note = await self.executer.execute(proposal.actions)
            step.note = " ".join(filter(None, [asked, step.note])) or None
            repeated = self._repeats.see(proposal.actions, step.executions)
            if repeated:
                step.note = " ".join(filter(None, [step.note, repeated]))
        step.rules = policy.take()
        ctx.add_step(step)
        log.debug("step %d: complete=%s %s", ctx.step_count, proposal.complete,
                  proposal.message)
        return step

    def _stale(self, step: Step) -> list[str]:
        """The texts a do task's claims cite when every one of them is a text the page showed
        before the task's first action (else none): what the actions did is not in them."""
        assert self._task_context is not None and self.proposer is not None
        start = self.proposer.start
        if (start is None or not step.evidence or checked_statement(self._task_context.task)
                or not any(e.success for s in self._task_context.steps for e in s.executions)):
            return []
        texts = []
        for ev in step.evidence:
            if not self._held_before(ev):
                return []
            texts.append(getattr(ev.spec, "text", None) or ev.text)
        return texts

    def _held_before(self, ev: Evidence) -> bool:
        """Is ``ev`` a text claim whose text the page showed when the task began (and not
        inside what the actions opened)?"""
        start = self.proposer.start if self.proposer is not None else None
        if start is None:
            return False
        spec, now = ev.spec, self.browser.snapshot
        text = getattr(spec, "text", None) or ev.text
        if getattr(spec, "expect", "text") != "text" or not text:
            return False
        within = getattr(spec, "within", None)
        if within and now is not None and _new_element(within, start, now):
            return False  # a text the page showed before, now in what the actions opened
        contains = getattr(spec, "match", "exact") == "contains"
        return f'"{text}"' in start.text or (contains and text in start.text)

    def _new_texts(self) -> str:
        """The sentence listing texts on the page now that were not there when the task
        began ("" when none)."""
        fresh = new_texts(self.proposer.start, self.browser.snapshot) \
            if self.proposer is not None else []
        return (" Texts on the page now that were not there before the task: "
                + ", ".join(f'"{t}"' for t in fresh) + ".") if fresh else ""

    async def _done(self, step: Step) -> Done:
        """What ``verify_done`` reads of a step called done."""
        ctx, registry = self._task_context, self.tool_registry
        assert ctx is not None and registry is not None
        await registry.late_events()  # a download that started late
        start = self.proposer.start if self.proposer is not None else None
        now = self.browser.snapshot
        return Done(
            task=ctx.task, statement=checked_statement(ctx.task), evidence=step.evidence,
            steps=ctx.steps, start=start.text if start else "", now=now.text if now else "",
            start_url=start.url if start else "", now_url=now.url if now else "",
            variables={k: str(v) for k, v in ctx.variables.items()},
            secrets={k: str(v) for k, v in ctx.secrets.items()}, dropdowns=self._dropdowns,
            typed=lambda tool: getattr(registry.get(tool), "typed", False),
            chooses=lambda tool: getattr(registry.get(tool), "chooses", False),
            downloaded=any(e.downloads for s in ctx.steps for e in s.executions),
            held_before=self._held_before)

    async def _verify(self, step: Step) -> None:
        """``verify_done`` on a step called done: refused (a fact of the page) or advised (the
        task's words, each once), or its claims all on the page before the task's actions
        (asked once): the step stays incomplete and the next request says why. Accepted, it
        keeps the advice it was given and still draws as ``doubted``."""
        problems = verify_done(await self._done(step))
        hard = [p for p in problems if p.hard]
        fresh = [p for p in problems if not p.hard and p.rule not in self._advised]
        stale = self._stale(step) if not hard and "held-before" not in self._advised \
            and self.policy.on("stale-evidence") else []
        if not hard and not fresh and not stale:
            step.doubted = [p.rule for p in problems if not p.hard]
            self._refusals = 0
            return
        self._advised |= {p.rule for p in fresh}
        said = []
        if hard:
            said.append(get_prompt("agent/proposer", "done_refused").format(
                problems="\n".join(f"- {p.says}." for p in hard)))
        if fresh:
            said.append(get_prompt("agent/proposer", "done_advised").format(
                advice="\n".join(f"- {p.rule}: {p.says}." for p in fresh)))
            now, task = self.browser.snapshot, self._task_context
            if (any(p.rule == "show-only" for p in fresh) and now is not None
                    and task is not None and self.policy.on("only-hint")
                    and (found := each_candidates(now.text, task.task))):
                self.policy.fire("only-hint")
                said.append("Lists on the page now whose every item shows a word of the task "
                            "(the each claim that cites it): " + "; ".join(found))
        if stale and not hard:
            self._advised.add("held-before")
            self.policy.fire("stale-evidence")
            said.append(get_prompt("agent/proposer", "evidence_before").format(
                texts=", ".join(repr(t) for t in stale), new=self._new_texts()))
        step.proposal.complete = False
        # a second refused done in a row ends the task (the model was told why once)
        self._refusals = self._refusals + 1 if hard else 0
        step.note = ("done refused: " if hard else "done questioned: ") + ", ".join(
            dict.fromkeys([p.rule for p in hard + fresh] + (["held-before"] if stale else [])))
        self._said_next = "\n\n".join(said)
        if (not hard and self.policy.on("guard-acts")
                and any(p.rule in ACTS_ONLY for p in fresh)):
            # only an action can satisfy it: the next reply offers acting only (small)
            self.policy.fire("guard-acts")
            self._acts_only = True

    async def _ask(self, extra: str | None = None, *, done: bool = True,
                   give_up: bool | None = None) -> Step:
        """One proposal (with ``extra`` said after the page), as a step; the evidence of a
        complete one resolved on the page."""
        assert self.proposer is not None and self._task_context is not None
        proposal = await self.proposer.propose(Block(extra) if extra is not None else None,
                                               done=done, give_up=give_up)
        snapshot = self.browser.snapshot
        if snapshot is not None:
            self._dropdowns.see(snapshot.text)
        step = Step(proposal=proposal, url=snapshot.url if snapshot else self.page.url)
        if proposal.complete:
            step.evidence = await resolve_evidence(self.browser, proposal.evidence,
                                                   self._task_context.substitute,
                                                   task=self._task_context.task,
                                                   typed=self._typed())
        return step

    def _typed(self) -> dict[str, str]:
        """What the task's actions typed or chose, by element id of the page state now."""
        assert self.tool_registry is not None
        out: dict[str, str] = {}
        for a, _ in self._acted():
            target, value = a.parameters.get("element_id"), a.parameters.get("value")
            if (getattr(self.tool_registry.get(a.tool), "typed", False)
                    and isinstance(target, str) and isinstance(value, str)):
                out[target] = value
        return out

    def _acted(self) -> list[tuple[Action, ExecutionResult]]:
        """The task's actions that ran successfully, each with its result, in order."""
        assert self._task_context is not None
        return acted(self._task_context.steps)

    async def execute(self, task: str, max_steps: int = MAX_STEPS,
                      resources: dict[str, str] | None = None,
                      variables: dict[str, Any] | None = None,
                      secrets: dict[str, Any] | None = None) -> TaskResult:
        """Run a task until the model reports it complete or impossible, or ``max_steps``."""
        await self.set_task(task, max_steps, resources, variables, secrets)
        assert self._task_context is not None and self.proposer is not None
        ctx = self._task_context
        start_usage = self.usage.copy()
        try:
            return await self._run(ctx, max_steps, start_usage)
        finally:
            await self.close()

    async def _run(self, ctx: TaskContext, max_steps: int, start_usage: Usage) -> TaskResult:
        try:
            for _ in range(max_steps):
                step = await self.run_step()
                if step.proposal.impossible:
                    return self._result(False, f"Task impossible: {step.proposal.message}",
                                        start_usage, impossible=True)
                if step.proposal.complete:
                    return self._result(True, step.proposal.message, start_usage)
                if self._refusals >= 2:
                    return self._result(
                        False, "The model reported the task complete twice, and its claims "
                        f"were refused both times. {self._said_next or ''} The model's "
                        f"message: {step.proposal.message}", start_usage)
                if self._repeats.exhausted:
                    return self._result(False, self._repeats.stop_message(), start_usage)
                if self._futile.exhausted:
                    return self._result(False, self._futile.stop_message(step.proposal.message),
                                        start_usage)
        except ProposalError as exc:
            return self._result(False, str(exc), start_usage)
        finally:
            if self.tool_registry is not None:  # what came after the last action is its own
                await self.tool_registry.late_events()
            await self.browser.watch.detach()
        last = ctx.steps[-1].proposal.message if ctx.steps else "no step ran"
        why = self._said_next or ""  # a done refused at the last step: why
        return self._result(
            False, f"Task not completed after {max_steps} steps (max_steps). The model's last "
            f"message: {last}" + (f"\nIts last done was not recorded: {why}" if why else ""),
            start_usage)

    def _result(self, completed: bool, message: str, start: Usage, *,
                impossible: bool = False) -> TaskResult:
        assert self._task_context is not None
        return TaskResult(completed=completed, steps=list(self._task_context.steps),
                          message=self._task_context.redact(message),
                          usage=self.usage.since(start),
                          impossible=impossible)
