"""The small profile's rules in the step agent (``policy.SMALL``, docs/models.md): actions
held back that a task's words forbid or that a small model gets wrong (``AsyncSmallExecuter``),
and the questions asked again of a reply (``AsyncSmallAgent``). Each runs only while its rule
is on, and the ``standard`` profile switches every one off; their readings of the page and of
the task's words are ``agent/small``. The step agent's ``AsyncExecuter`` and ``AsyncAgent``
take them as their bases."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser.fields import fields_now
from ...browser.page_state import state_lines
from ...errors import ProposalError
from ...llm.prompts import get_prompt
from ...llm.request import Block
from ...tools._async.registry import AsyncToolRegistry
from ...tools.builtin import Hover, Press, Slide
from ...types import Action, ExecutionResult
from ..guards import acted, acted_on, entered_values, untyped_values
from ..models import ProposalResult, Step
from ..parsing import MAX_MESSAGE, EvidenceSpec, action_text, cap
from ..policy import Policy
from ..reply_schema import MAX_EVIDENCE
from ..small.fields import (
    describe,
    empty_fields,
    is_text_field,
    left_empty,
    left_unticked,
    line_of,
    off_task_value,
    ticked_by_task,
    unasked_delete,
    unset_for_send,
)
from ..small.hints import (
    answer_lines,
    expects_answer,
    expects_refusal,
    hides_named,
    name_on_later_page,
    named_buttons,
    page_answers,
    sending_forms,
)
from ..task_context import TaskContext, checked_statement
from ..verify import Done, verify_done
from .evidence import resolve_evidence

if TYPE_CHECKING:
    from .agent import AsyncProposer

# tools that tick a box they act on (an unticked one)
TICKING = frozenset({"check", "click"})

# a task that asks for the pointer over something ("hover over the menu", "mouse over")
_HOVER_ASKED = re.compile(r"\b(?:hover\w*|mouse\s*over|point(?:er)?\s+(?:at|over|to))\b",
                          re.IGNORECASE)

# a task that asks for a field's focus ("Focus into the 3rd textbox")
_FOCUS = re.compile(r"\bfocus(?:es|ed|ing)?\b", re.IGNORECASE)

# tools that press a button (``send-last`` reads them; press reads its key)
PRESSING = frozenset({"click", "double_click"})


class AsyncSmallExecuter:
    """The small profile's holds on an action, before it runs (the executer's base)."""

    tools: AsyncToolRegistry
    browser: AsyncLLMBrowser
    policy: Policy
    task: str
    send_asked: set[str]
    delete_asked: set[str]
    value_asked: set[str]
    later_asked: bool
    open_asked: set[str]
    clicked_on: dict[str, str]

    def holds_back(self, action: Action, touched: dict[str, str]) -> str | None:
        """Why the small profile holds an action back before it runs, after the standard
        checks (``send-last``, ``unasked-delete``, ``given-value``, ``absent-name``,
        ``open-shown``, in that order), or None."""
        return (self.unsent(action, touched) or self.unasked_delete(action)
                or self.off_task_value(action) or self.name_elsewhere(action)
                or self.closes_shown(action))

    def field_refusal(self, action: Action) -> str | None:
        """Why a typing may not run (``left-empty``): the task says its field stays
        empty; why a tick may not (``left-unticked``): the task says its box stays
        unticked."""
        tool, snapshot = self.tools.get(action.tool), self.browser.snapshot
        target, value = action.parameters.get("element_id"), action.parameters.get("value")
        if (action.tool in TICKING and snapshot is not None and isinstance(target, str)
                and self.policy.on("left-unticked")
                and (box := line_of(snapshot.text, target)) is not None
                and "checked" not in box.flags
                and (unticked := left_unticked(self.task, box)) is not None):
            self.policy.fire("left-unticked")
            return (f"The task says {unticked!r}: {describe(box)} stays unticked, so this was "
                    "not run; the reply's next actions ran. Leave it as it is; do the rest of "
                    "the task as it says (send the form as it is when the task says to).")
        if (not getattr(tool, "typed", False) or snapshot is None or not isinstance(target, str)
                or not isinstance(value, str) or not value.strip()):
            return None
        line = line_of(snapshot.text, target)
        if line is None:
            return None
        said = left_empty(self.task, line) if self.policy.on("left-empty") else None
        if said is not None:
            self.policy.fire("left-empty")
            return (f"The task says {said!r}: {describe(line)} stays empty, so this was not "
                    "run; the reply's next actions ran. Type nothing into it; do the rest of the "
                    "task as it says (send the form as it is when the task says to).")
        return None

    async def second_value(self, action: Action, typed: dict[str, str]) -> str | None:
        """Why a typing may not run (``one-value``): an earlier action of this reply typed
        another value into its field, which still holds it (one look at the live field, only
        then; a field a key emptied, a to-do list's input after Enter, takes the next)."""
        tool, snapshot = self.tools.get(action.tool), self.browser.snapshot
        target, value = action.parameters.get("element_id"), action.parameters.get("value")
        if (not self.policy.on("one-value") or not isinstance(target, str)
                or not isinstance(value, str) or snapshot is None
                or not getattr(tool, "typed", False) or getattr(tool, "chooses", False)):
            return None  # a dropdown's own error says more
        before = typed.get(target)
        if before is None or before == value or not before.strip():
            return None
        try:
            now = await self.browser.locator(target).input_value(timeout=1000)
        except Exception:  # noqa: BLE001 - not a field, or gone: the action says so itself
            return None
        if before not in now:
            return None
        self.policy.fire("one-value")
        empty = [f for f in empty_fields(snapshot.text, target)
                 if f.split(" ", 1)[0] not in typed]
        return (f"{target} already got {before!r} from an earlier action of this reply: "
                f"{value!r} would go into the same field. Each value goes into its own "
                "field" + (f"; still empty: {', '.join(empty)}." if empty else "."))

    def unsent(self, action: Action, touched: dict[str, str]) -> str | None:
        """Why a press of a button the task names may not run yet (``send-last``): its form
        (the controls in no form, when it is in none) still lacks what the task gives for it
        (an option it names not chosen, a box it says to tick unticked, a value its words
        give a field not typed), and no earlier action of this reply set those. Held back
        once per button and task: pressed again, it runs (the press may be what shows the
        form)."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        presses = action.tool in PRESSING or (
            action.tool == Press.name and str(action.parameters.get("key", "")) == "Enter")
        if (not presses or snapshot is None or not isinstance(target, str)
                or not self.policy.on("send-last")):
            return None
        found = unset_for_send(self.task, snapshot.text, target, touched)
        if found is None or found[0] in self.send_asked:
            return None
        name, unset = found
        self.send_asked.add(name)
        self.policy.fire("send-last")
        return (f"Not run yet: {target} \"{name}\" would send what the task gives for this "
                f"form unset: {'; '.join(unset)}. Do that first if the task asks for it, "
                f"then press {target} (pressed again, it runs).")

    def closes_shown(self, action: Action) -> str | None:
        """Why a click may not run yet (``open-shown``, ``hints.hides_named``): it closes
        an open section that shows a text the task quotes. Held back once per element:
        clicked again, it runs."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        if (action.tool not in PRESSING or snapshot is None or not isinstance(target, str)
                or not self.policy.on("open-shown") or target in self.open_asked):
            return None
        said = hides_named(self.task, snapshot.text, target, self.clicked_on.get(target))
        if said is not None:
            self.open_asked.add(target)
            self.policy.fire("open-shown")
        return said

    def unasked_delete(self, action: Action) -> str | None:
        """Why a click may not run yet (``unasked-delete``, ``fields.unasked_delete``): its
        element says it deletes and the task says nothing of it. Held back once per
        element: clicked again, it runs."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        if (action.tool not in PRESSING or snapshot is None or not isinstance(target, str)
                or not self.policy.on("unasked-delete") or target in self.delete_asked):
            return None
        said = unasked_delete(self.task, snapshot.text, target)
        if said is not None:
            self.delete_asked.add(target)
            self.policy.fire("unasked-delete")
        return said

    def name_elsewhere(self, action: Action) -> str | None:
        """Why a click may not run yet (``absent-name``, ``hints.name_on_later_page``): the
        task names what this page of a paged list does not show, and the click is not on its
        pager. Held back once per task: clicked again, it runs."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        if (action.tool not in PRESSING or snapshot is None or not isinstance(target, str)
                or not self.policy.on("absent-name") or self.later_asked):
            return None
        said = name_on_later_page(self.task, snapshot.text, target)
        if said is not None:
            self.later_asked = True
            self.policy.fire("absent-name")
        return said

    def off_task_value(self, action: Action) -> str | None:
        """Why a value may not be set yet (``given-value``, ``fields.off_task_value``): a
        slide, or a typing into a date or number field, of a value none of those of its
        kind the task gives. Held back once per control: set again, it runs."""
        target, value = action.parameters.get("element_id"), action.parameters.get("value")
        snapshot, slide = self.browser.snapshot, action.tool == Slide.name
        if (not isinstance(target, str) or not isinstance(value, str) or snapshot is None
                or not (slide or getattr(self.tools.get(action.tool), "typed", False))
                or not self.policy.on("given-value") or target in self.value_asked):
            return None
        said = off_task_value(self.task, snapshot.text, target, value, slide=slide)
        if said is not None:
            self.value_asked.add(target)
            self.policy.fire("given-value")
        return said

    def focus_meant(self, action: Action) -> tuple[Action | None, str] | None:
        """A hover on a text field in a task that says to focus one and nothing of hovering
        (``focus-hover``; quoted texts aside): run as a click on the same field, which
        focuses it (a hover does not); else None."""
        snapshot, target = self.browser.snapshot, action.parameters.get("element_id")
        if (action.tool != Hover.name or snapshot is None or not isinstance(target, str)
                or not self.policy.on("focus-hover") or self.tools.get("click") is None):
            return None
        words = re.sub(r'"[^"]*"|“[^”]*”', " ", self.task)  # its own words, not a quote's
        if not _FOCUS.search(words) or _HOVER_ASKED.search(words):
            return None
        line = line_of(snapshot.text, target)
        if line is None or not is_text_field(line):
            return None
        self.policy.fire("focus-hover")
        return (Action(tool="click", reason=action.reason, parameters={"element_id": target}),
                f"Run as a click on {target}: a hover does not focus a field, a click does.")



class AsyncSmallAgent:
    """The small profile's questions asked again of a reply (the step agent's base)."""

    browser: AsyncLLMBrowser
    policy: Policy
    proposer: AsyncProposer | None
    tool_registry: AsyncToolRegistry | None
    _task_context: TaskContext | None
    _doubted: set[str]
    _must_send: bool

    if TYPE_CHECKING:  # the step agent's own (``AsyncAgent``): declared for the types only
        async def _ask(self, extra: str | None = None, *, done: bool = True,
                       give_up: bool | None = None) -> Step: ...

        async def _done(self, step: Step) -> Done: ...

        def _acted(self) -> list[tuple[Action, ExecutionResult]]: ...

        def _typed(self) -> dict[str, str]: ...

    def _answered(self) -> list[str]:
        """The alerts the page shows now and did not when a do task began, nor when its last
        actions ran (their answer), right after those actions ran, when the task's words say
        it sends something wrong or nothing (``hints.expects_refusal``), or the test's next
        check expects the alert as a refusal (``small.hints.expects_answer``: "an error says the
        email or password is wrong"), and every value it gives was typed. Asked about once
        per task; none for a check."""
        assert self._task_context is not None
        task = self._task_context.task
        steps = self._task_context.steps
        if ("page_answered" in self._doubted or checked_statement(task) is not None
                or self.proposer is None or self._unsent()
                or not steps or not any(e.success for e in steps[-1].executions)):
            return []  # asked only right after the task's actions ran
        start, now = self.proposer.start, self.browser.snapshot
        before = self.proposer.before.get(len(steps))  # the reading the last actions ran on
        if start is None or now is None or before is None or not self._sent(steps[-1]):
            return []  # an alert that answers only typing is a field's own check, no answer
        if self._unclicked():
            return []  # a button the task names, never pressed: it has not sent it yet
        if any("checked" not in line.flags and ticked_by_task(task, line)
               for line in state_lines(now.text)):
            return []  # a box the task says to tick, unticked: not the task's form
        # an answer to the last actions: an alert an earlier send left on the page (an empty
        # form sent first, its values typed since and never sent) answers nothing they did
        answers = [a for a in page_answers(start.text, now.text)
                   if a in page_answers(before.text, now.text)]
        if expects_refusal(task):
            return answers
        checks = self._task_context.then_checks[:1]  # what the test looks at next
        return [a for a in answers if any(expects_answer(c, a) for c in checks)]

    def _unsent(self) -> list[str]:
        """The values the task states (``guards.stated_values``: "as Ann Lee", "the postcode
        AV1 2BC") that no action typed since the page last changed address (a form filled
        and sent, a welcome page, a link back to an empty form: its answer would answer
        another form than the task's), and that the page shows neither now nor when the task
        began."""
        assert self._task_context is not None and self.proposer is not None
        steps = self._task_context.steps
        since = next((n + 1 for n in range(len(steps) - 2, -1, -1)
                      if (c := steps[n].change) is not None and c.url_before != c.url_after), 0)
        start, now = self.proposer.start, self.browser.snapshot
        task = self._task_context.task
        return untyped_values(task, entered_values(acted(steps[since:])),
                              start.text if start is not None else "",
                              now.text if now is not None else "",
                              {k: str(v) for k, v in self._task_context.variables.items()})

    def _sent(self, step: Step) -> bool:
        """Did an action of ``step`` that types nothing (a click, a key, a choice) run?"""
        registry = self.tool_registry
        assert registry is not None
        return any(e.success and not getattr(registry.get(a.tool), "typed", False)
                   for a, e in zip(step.proposal.actions, step.executions, strict=False))

    async def _outcome(self, step: Step, answers: list[str]) -> Step:
        """``page-answered``: asked yes or no whether the task's actions did every part of
        it, the page's answer being its outcome. Yes: the task done, its claims the answer's
        lines (resolved and held like any claim; where one does not hold, the model's own
        reply stands). No: the model's own reply (``step``) stands."""
        ctx = self._task_context
        assert ctx is not None and self.proposer is not None
        did = "; ".join(action_text(a, e, 120, self.policy.on("named-actions"))
                        for a, e in self._acted())
        why = (get_prompt("agent/proposer", "page_answered_task").format(task=ctx.task)
               if expects_refusal(ctx.task) else
               get_prompt("agent/proposer", "page_answered_check").format(
                   task=ctx.task, check=ctx.then_checks[0]))
        now = self.browser.snapshot
        held = fields_now(now.text) if now is not None and self.policy.on("fields-now") else []
        self.policy.use("fields-now", held)
        fields = f"\nThe form's fields now: {'; '.join(held)}." if held else ""
        try:
            answer = await self.proposer.outcome(Block(get_prompt(
                "agent/proposer", "page_answered").format(
                    answers=", ".join(f'"{a}"' for a in answers), why=why.strip(),
                    actions=did, fields=fields)))
        except ProposalError as error:  # the model's own reply stands; the log says why
            step.note = f"page-answered: {error}"
            return step
        start, now = self.proposer.start, self.browser.snapshot
        if not answer.done or start is None or now is None:
            return step
        lines = answer_lines(start.text, now.text, answers)[:MAX_EVIDENCE]
        done = Step(proposal=ProposalResult(
            complete=True, message=cap(answer.message, MAX_MESSAGE),
            evidence=[EvidenceSpec(expect="text", text=t) for t in lines]), url=now.url)
        done.evidence = await resolve_evidence(self.browser, done.proposal.evidence,
                                               ctx.substitute, task=ctx.task, typed=self._typed())
        if any(p.hard for p in verify_done(await self._done(done))):
            return step  # held to every refusal: else the model's own reply stands
        return done

    async def _second_look(self, step: Step, first: bool) -> Step:
        """The small profile's questions, asked once more of a reply that ends the task:
        given up or called done at first sight (``doubt-first-look``), given up after a try
        (``doubt-give-up``), done with only fields filled or a named button unpressed
        (``unsent-form``, ``named-button``), or not done beside the page's answer
        (``page-answered``). The second answer stands."""
        policy, proposal = self.policy, step.proposal
        doubt = self._doubt(proposal) if first and policy.on("doubt-first-look") else None
        if doubt is not None:
            policy.fire("doubt-first-look")
            if proposal.complete:
                return await self._ask(doubt, done=False, give_up=True)
            return await self._ask(doubt)
        if not first and (proposal.complete or proposal.impossible) and (
                later := self._later_doubt(proposal)) is not None:
            if proposal.impossible:
                return await self._ask(later, give_up=True)
            return await self._ask(later, give_up=False, done=not self._must_send)
        if (not first and not proposal.complete and policy.on("page-answered")
                and (answers := self._answered())):
            policy.fire("page-answered")
            self._doubted.add("page_answered")
            return await self._outcome(step, answers)
        return step

    def _doubt(self, proposal: ProposalResult) -> str | None:
        """What to ask again of a task's first reply that ends it before anything ran: a
        task called done or impossible, or a check's statement called false."""
        assert self._task_context is not None
        statement = checked_statement(self._task_context.task)
        if statement is not None:
            return (get_prompt("agent/proposer", "check_false").format(statement=statement)
                    if proposal.impossible else None)
        if proposal.impossible:
            return get_prompt("agent/proposer", "impossible_untried")
        if proposal.complete:
            return get_prompt("agent/proposer", "complete_untried")
        return None

    def _later_doubt(self, proposal: ProposalResult) -> str | None:
        """What to ask once more, once per task, of a do task ended after it started: given
        up (a small model gives up when one try did not finish it), or called done when the
        last actions only changed what fields hold or a button the task names was never
        clicked (it fills a form, or opens a section, and calls the task done without
        sending it). The second answer stands."""
        assert self._task_context is not None
        ctx = self._task_context
        self._must_send = False
        if checked_statement(ctx.task) is not None or not ctx.steps:
            return None
        policy = self.policy
        if proposal.impossible and "impossible_tried" not in self._doubted:
            if not policy.on("doubt-give-up"):
                return None
            self._doubted.add("impossible_tried")
            policy.fire("doubt-give-up")
            # a button the task names, on the page and never clicked, is what to try first
            named = self._unclicked() if policy.on("named-button") else []
            policy.use("named-button", named)
            said = (f"The task names {', '.join(named)}, which "
                    f"{'is' if len(named) == 1 else 'are'} on the page and which no action of "
                    "yours clicked yet. " if named else "")
            return get_prompt("agent/proposer", "impossible_tried").format(named=said)
        if not proposal.complete or "complete_unsent" in self._doubted:
            return None
        change = ctx.steps[-1].change
        fields_only = change is not None and change.values_only and policy.on("unsent-form")
        named = self._unclicked() if policy.on("named-button") else []
        away = self._elsewhere() if policy.on("paged-position") else ""
        if not fields_only and not named and not away:
            return None
        self._doubted.add("complete_unsent")
        policy.use("named-button", named)
        policy.use("unsent-form", fields_only)
        policy.use("paged-position", away)
        # a button the task names ("click submit") never clicked, or the item at the
        # position it names on another page: acting is the only answer offered (a small
        # model opened the section and called it done, twice)
        self._must_send = bool(named or away)
        said = (f"The task names {', '.join(named)}: no action of yours clicked it yet. "
                if named else "") + (f"{away} " if away else "")
        if change is not None and fields_only:
            said += sending_forms(self.browser.snapshot.text, change.added) \
                if self.browser.snapshot is not None else ""
            return get_prompt("agent/proposer", "complete_values_only").format(named=said)
        return get_prompt("agent/proposer", "complete_unsent").format(named=said)

    def _unclicked(self) -> list[str]:
        """The page's buttons whose whole text the task names and that no action of the
        task clicked (an action that types, fill or select, targets a field)."""
        assert self._task_context is not None and self.tool_registry is not None
        snapshot = self.browser.snapshot
        if snapshot is None:
            return []
        # a link the task says to go to counts while the page is still where the task began
        return named_buttons(snapshot.text, self._task_context.task, self._clicked(),
                             links=self._where_it_began())

    def _elsewhere(self) -> str:
        """What ``paged-position`` says of a position the task names that is on another
        page of the paged list shown ("The 7th item is not on this page: ..."), else ""."""
        assert self._task_context is not None and self.proposer is not None
        snapshot = self.browser.snapshot
        if snapshot is None:
            return ""
        said = self.proposer.paged(snapshot.text, self._task_context.task)
        return " ".join(line for line in said.splitlines() if " is not on this page" in line)

    def _clicked(self) -> set[str]:
        """The texts (or names) of what the task's actions acted on but typed into,
        casefolded, a drag's drop target included ('drag "A" onto "B"')."""
        registry = self.tool_registry
        assert registry is not None
        return acted_on(self._acted(), lambda tool: getattr(registry.get(tool), "typed", False))

    def _where_it_began(self) -> bool:
        """Is the page still at the URL where the task began?"""
        start = self.proposer.start if self.proposer is not None else None
        now = self.browser.snapshot
        return start is not None and now is not None and start.url == now.url

