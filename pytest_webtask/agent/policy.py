"""The agent's policy: every rule that helps a model beyond the seed's loop, named, in one
place (DESIGN decision 20).

The seed's loop is: read the page, ask the model once, run its actions, until it says the
task is done (with evidence that holds on the page) or impossible. A **rule** is anything the
agent adds to help a model through that loop: what it is shown, put otherwise (``view``), a
line said after the page state (``hint``), a
question asked again (``question``), a limit on what the reply may say (``schema``), an
action refused with a reason (``refusal``) or run in another form on the same element
(``rewrite``). Each is a ``Rule`` here, with what it reacts to, what it does and why; the
step log, the failure message and the report name each one that fired on a step; the
``webtask_rules_off`` setting (``WEBTASK_RULES_OFF``) switches any of them off, ``all`` every
one (the bare model, for measuring and for users who want it).

Two promises hold for every rule:

- **General**: it reacts to what any web page or task may have (a form and its button, a
  collapsed section, a date picker, an ordinal in a task), never to one page or one
  benchmark's task.
- **No rule weakens proof**: none changes what a claim says, and none acts on an element the
  model did not name. The **guards** below are not rules: they keep a recording honest (ids
  from the page state only, evidence that holds, claims that say more than what the actions
  set) and cannot be switched off.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..errors import ConfigurationError

Kind = Literal["view", "hint", "question", "schema", "refusal", "rewrite"]


@dataclass(frozen=True)
class Rule:
    """One named rule: what it reacts to, what it does, and why it helps."""

    name: str
    kind: Kind
    reacts_to: str
    does: str
    why: str


RULES: tuple[Rule, ...] = (
    # -- views: what the model is shown, put otherwise than the seed's loop does ----------
    Rule("history-facts", "view",
         "a step after the first",
         "shows the step history without the model's own earlier messages: each step's "
         "actions, their outcome and what they changed on the page (the worked examples "
         "likewise)",
         "a small model copies its last sentence (\"the button has not been clicked\") "
         "step after step instead of reading what its actions changed"),
    Rule("named-actions", "view",
         "a step after actions ran on elements",
         "shows each action with the element it ran on, by role and name as the page named "
         "it (`type {'element_id': 'input-1', ...} on textbox \"Email\"`): in the step "
         "history, in what the last actions did, and in `page-answered`'s question",
         "an element id means nothing once the page changed: a small model, asked whether "
         "its actions did every part of a task, said it had filled a field it never typed in"),
    Rule("fields-now", "view",
         "`page-answered`'s question, on a page with form fields",
         "says what each field of the page's forms holds now, as a reader would (\"Full name: "
         "empty; Email: 'ann@example.org'; I agree to the rules: ticked\"), up to eight",
         "asked whether its actions did every part of a task that leaves a field empty, a "
         "small model said they had filled it: the page state shows each value as an "
         "attribute, which it did not read"),
    Rule("do-demos", "view",
         "a do task (not a check)",
         "shows only the worked examples of do tasks, none of a check's",
         "a small model copied a check example's \"so the statement is false\" into do "
         "tasks and gave up a task it had done"),
    Rule("test-checks", "view",
         "a do task that the test's source follows with check statements written as text "
         "(read from the test file when the step is recorded)",
         "shows those statements (up to three) under the task, as what the page should show "
         "once it is done; the claims must still hold on the page and show more than the "
         "task's own actions set",
         "a test of a failure path (a wrong password, an empty form) expects an error: a "
         "small model took the error for its task failing and tried again until its calls "
         "ran out"),
    # -- hints: lines said after the page state ------------------------------------------
    Rule("task-lines", "hint",
         "words of the task (or of a check's statement) that lines of the page state hold "
         "(a word holds its plural and its singular)",
         "lists up to five such lines, best first (more, up to eight, for words some line "
         "holds that none of those does), each with the two containers around it "
         "and, for a text, the controls of its item; or, where none does and the task names "
         "a kind of control (\"the textbox\"), the page's controls of that kind, up to three; "
         "or says no line holds them",
         "a small model reading a long page misses the element a task names"),
    Rule("form-sender", "hint",
         "a field among the task's lines, inside a form",
         "names the button that sends its form beside the field's line",
         "models fill a form's fields and never send it"),
    Rule("form-values", "hint",
         "a value a do task gives or states for a field its words name (\"the email ...\", "
         "\"as Ann Lee\", \"the password ...\", \"... into the postcode field\"), and exactly "
         "one enabled text field of the page of that kind (by its label, name, placeholder or "
         "type) not holding it yet; or one value said right after a field's one-word label or "
         "the verb a doer's label comes of (\"year 1998\", \"directed by Bowen\"); a number "
         "said with the word slider, for the page's one slider (or the one its label names)",
         "names the field beside the value it takes (\"input-1 (Email) takes "
         "'ann@example.org'\"), up to four; a value with no field word, or two fields that "
         "could take it, is left out",
         "a small model fills one field a step, types a value twice, or types into the wrong "
         "field, and runs out of steps before it sends the form"),
    Rule("hidden-text", "hint",
         "a text the task quotes that the page holds only where it is hidden (another tab, a "
         "closed section or details)",
         "names the control that shows it (aria-controls, a link to its id, a summary, a "
         "labelled tab panel)",
         "a model told a text is absent gives up; the page only hides it"),
    Rule("calendar", "hint",
         "a date in the task on a page that shows a calendar (a month, its days)",
         "names that day's element, or the control that changes the month and how many times",
         "a date picker shows days as bare numbers a model does not tie to a date"),
    Rule("position", "hint",
         "a position the task names (the 3rd, the first, the last; not a first name)",
         "names the item at that position of each list that has one; with a kind of "
         "control named after it (the 3rd checkbox, the 2nd textbox), that control counted "
         "in page order",
         "small models count badly"),
    Rule("paged-position", "hint",
         "a position the task names beyond the items a paged list shows (the 7th result, "
         "3 a page, a next-page control)",
         "says which page holds it and which item of that page it is, and names the control "
         "that goes there (the page's number, else next or previous, how many times); a do "
         "task called done while another page holds it is asked once, offered actions only",
         "the page state shows one page of a list, and a model counts only what it sees"),
    Rule("only-hint", "hint",
         "the show-only advice (a do task that says \"only\", its claims showing nothing "
         "gone), said to a small model",
         "names the each claims the page bears out now: a list every item of which shows a "
         "word of the task (\"Coat\" for \"the Coats category\"), none when an item "
         "still lacks it",
         "a small model told what proves \"only\" does not write an each claim by itself, "
         "and copies one it is shown; the claim is held to every check"),
    Rule("no-field", "hint",
         "a typing refused because its element takes no text, on a page whose state shows "
         "no text field",
         "adds to the error that no element of the page takes text now, and that a click "
         "opens a field first (the item the text is for, or a control that opens an editor "
         "or a reply)",
         "a small model typed its reply into one mail row after another, each refused, and "
         "never opened the mail whose reply box would take it"),
    # -- questions: a reply asked about once more ---------------------------------------
    Rule("act-first", "schema",
         "the first reply of a do task",
         "offers no 'done' (a result already on the page is a check, not a do)",
         "a small model calls a task done when it sees the button it should click"),
    Rule("guard-acts", "schema",
         "the first question in a task of a guard only an action can satisfy (a value the "
         "task gives never typed, an option it names never chosen, a link it says to go to "
         "never followed)",
         "offers actions only, no 'done' (asked after another question of the step that "
         "was answered 'done', too); asked again later, 'done' is offered (and fails while "
         "the guard still finds it)",
         "a small model asked to click the link it had cited answered 'done' again"),
    Rule("try-first", "schema",
         "a do task nothing was tried for yet",
         "offers no 'impossible'",
         "a small model gives up on what it does not see at first sight"),
    Rule("doubt-first-look", "question",
         "a first reply that gives the task up, or calls a check's statement false",
         "asks once more, saying what was not tried or read",
         "first looks at a long page miss what is there"),
    Rule("doubt-give-up", "question",
         "a do task given up after something was tried (once per task)",
         "asks once more whether another way is left",
         "a small model gives up when one try did not finish the task"),
    Rule("unsent-form", "question",
         "a task called done when the last actions only changed what fields hold",
         "asks whether the form was sent, naming the button that sends it",
         "nothing happens on a page until its form is sent"),
    Rule("named-button", "question",
         "a task called done while a button (or a quoted text's element) it names was never "
         "clicked, or the one link or button beside a label it says to click (\"click on "
         "their address\" beside \"Address:\"), or, the page still where the task began, "
         "a link whose text follows a verb that goes there (\"go to the opening hours\", "
         "\"open Paper Moons\")",
         "says so and offers acting only; a do task given up after acting, with such a "
         "button on the page, is told of it in the give-up question",
         "a model opens a section, or fills a form, and calls the task done; or gives up "
         "beside the button it names"),
    Rule("stale-evidence", "question",
         "a do task's claims that all held before its first action",
         "asks for what the actions changed, listing texts new since the task began",
         "a claim that held before proves nothing the actions did"),
    Rule("page-answered", "question",
         "a do task whose words say it sends something wrong or nothing (\"without filling "
         "in\", \"with an invalid email\", \"leave the name blank\", \"the empty form\", "
         "\"and no address\"), or whose test's next check expects the alert as a refusal (it "
         "says something is wrong, missing or not allowed, holds half its words or more, two "
         "at least, and neither denies nor says something went away), not called done right "
         "after its last actions sent something (a click, a key, a choice), no button the task "
         "names left unpressed, while the page shows an alert (role alert or alertdialog, an "
         "open dialog) it did not show when the task began nor when those actions ran, and "
         "that holds no button, every value the task gives or states in words (\"as Ann Lee\", "
         "\"the postcode AV1 2BC\") typed since the page last changed address, no box the task "
         "says to tick left unticked",
         "asks once, yes or no, quoting the alert, why it may be the outcome and the task's "
         "actions: did they do every part of the task? Yes: done, its claims the alert's new "
         "lines, held to every guard (where one refuses it, the model's own reply stands); "
         "no, or a reply unusable twice (said in the step's note): the model's own reply "
         "stands",
         "a small model reads an error as its task not done and sends the form again until "
         "its budget runs out (an empty form's errors, a wrong sign-in), and a free question "
         "did not move it; a task whose words and next check do not expect a refusal is never "
         "asked, so a refused sign-in is never offered as its outcome, and a replay where the "
         "alert is gone fails"),
    Rule("futile-repeat", "refusal",
         "the same actions proposed again on a page they did not change",
         "does not run them, says so and asks once more; they are not offered on that page, "
         "but for one that opened a dialog",
         "a model repeats what did nothing"),
    Rule("undo-ban", "schema",
         "actions that took the page back to how it was before the step before them",
         "says so, and does not offer those actions on that page again",
         "a model opens a panel, closes it, and opens it again until the budget runs out"),
    Rule("tab-tools", "schema",
         "a page with one tab open",
         "offers no tab tools (a 'tab' in a task is most often a tab widget)",
         "a small model switches tabs that do not exist"),
    Rule("tool-shown-by", "schema",
         "a tool for a kind of element the page does not have (slide: a slider)",
         "does not offer it",
         "fewer tools, fewer wrong ones"),
    Rule("find-cut", "schema",
         "a page state shown whole (not cut to the viewport's part for its size, no frame "
         "of another origin read apart)",
         "does not offer find (a pointer tool takes a bare text by its words)",
         "every element find could name is already on its line with its id; a small model "
         "calls find for a task that says \"find\" and reads its answer as no progress, "
         "until its steps run out"),
    Rule("hover-futile", "schema",
         "a hover ran earlier in the task and the page did not change at all after it (no "
         "line new or gone, same address), the task saying nothing of hovering",
         "does not offer hover for the rest of the task",
         "a small model hovers where it means to click (a tab, a field it should focus, the "
         "row it should open) and, told the page did not change, hovers the next element; a "
         "hover that shows something (a menu) changes the page and keeps the tool"),
    Rule("dropdown-options", "schema",
         "a dropdown in the page state, its options listed",
         "limits select's value on it to those options",
         "a reply cannot then choose an option the dropdown does not have"),
    # -- refusals and rewrites: an action refused with a reason, or run on the same element
    Rule("already-holds", "refusal",
         "typing into a text field the text it already holds (as the page state showed it; "
         "no earlier action of the same reply typed into it)",
         "does not run it, saying so; the reply's next actions still run (it changes nothing, "
         "so it stops nothing: a reply that types the name again, then presses Join, joins)",
         "typing it again adds it twice; filling it again changes nothing"),
    Rule("left-empty", "refusal",
         "typing a value into a text field the task says stays empty (\"no address\", "
         "\"leave the postcode empty\", \"without a password\"; every field for \"without "
         "filling in the form\"), the field named by its label, name or placeholder said whole",
         "does not run it, quoting the task's words; the reply's next actions still run",
         "after the page's error a small model fills in what the task said to leave out, and "
         "the recording proves another task (an order with an address)"),
    Rule("left-unticked", "refusal",
         "ticking (check or click) an unticked checkbox the task says stays unticked "
         "(\"without agreeing to the rules\", \"do not subscribe to the newsletter\", "
         "\"leave the gift wrap unticked\"), the box named by the phrase's words, all of them "
         "in its label, name or text",
         "does not run it, quoting the task's words; the reply's next actions still run",
         "a small model ticks the box a failure path leaves out, and the form it sends is "
         "another task's (the rules agreed to)"),
    Rule("one-value", "refusal",
         "a second typing into a field an earlier action of the same reply typed another "
         "value into, the field still holding it (one look at the live field; a to-do "
         "input emptied by Enter takes the next)",
         "refuses it, naming the form's fields that are still empty",
         "a small model types the email and the password into the email field, one over the "
         "other"),
    Rule("disabled-target", "refusal",
         "an action on an element the page state flags disabled and that is still disabled "
         "when its turn comes (the actions before it in the reply may have enabled it)",
         "refuses it at once, naming the empty fields of its form, instead of waiting out "
         "the action's timeout",
         "a form's button is often disabled until its fields are filled: a small model "
         "presses it first, reads the timeout as the page not changing, and never types"),
    Rule("send-last", "refusal",
         "a click (or Enter) on a button the task names, every word of its name (\"click "
         "Save\", \"hit submit\", \"add ... to the cart\"), that opens nothing, while its "
         "form (the controls in no form, when it is in none) still lacks what the task gives "
         "for it: a dropdown showing another option than one the task names (no text field "
         "holding that word), a box or radio button the task says to tick unticked, a value "
         "the task's words give a field (as `form-values` finds it) not typed, or, where the "
         "words name no field, the one value the task gives while the form has one plain "
         "text field not holding it; no earlier action of the reply set those",
         "does not run it, naming each control and what the task gives for it; held back once "
         "per button and task (pressed again, it runs)",
         "a small model presses the task's last button first (\"choose Large, then click "
         "Save\" done by clicking Save): the form goes with the wrong values, and no later step "
         "takes that back"),
    Rule("unasked-delete", "refusal",
         "a click on an element that says it deletes (its text, label, title, icon or class "
         "holds delete, remove, trash, discard, erase or destroy: a row's trash icon) while "
         "the task says nothing of deleting, removing, clearing, emptying or cancelling",
         "does not run it, saying so; held back once per element (clicked again, it runs)",
         "a small model clicks the first icon under the row it means (\"forward the email by "
         "Audrey\" done by clicking the row's trash icon): what the test is about is gone, and "
         "no later step brings it back"),
    Rule("given-value", "refusal",
         "a slide, or a fill or type into a date or number field, of a value that is none "
         "of the values of its kind the task gives (it gives one at least; an ordinal or a "
         "time is no number, a date is read as a day whichever way it is written)",
         "does not run it, naming the task's values; held back once per control (set again, "
         "it runs: the value may be worked out)",
         "a small model slid to the number the page shows beside the slider (\"-9\") for "
         "\"select 1 with the slider\", and typed 2010-05-21 for \"enter 05/20/2010\""),
    Rule("absent-name", "refusal",
         "a click on an element that is no control of a paged list's pager (next, previous, "
         "first, last, a page's number), no field and no search button, while the task names "
         "someone or something (a word in capitals inside a sentence; no day or month) and no "
         "name it gives is on a line of the page, and the list has a next-page control",
         "does not run it, naming what is absent and the next-page control; held back once "
         "per task (clicked again, it runs)",
         "told that a contact the task names is on no line of the page, a small model "
         "clicked the address of the contact it saw (\"Find Casie in the contact book and "
         "click on their address\" done on Etti's)"),
    Rule("open-shown", "refusal",
         "a click on an element that is open (flagged expanded: its own lines or its next "
         "sibling's; or its own last click, on the same element, made the line appear after "
         "it) while what it opened shows, on another element's line, a text the task quotes "
         "(or it and words the task says), and the task says nothing of closing, collapsing or "
         "hiding",
         "does not run it, naming the element that shows the text; held back once per "
         "element (clicked again, it runs)",
         "a small model opened the section that showed the link the task quoted, then "
         "clicked its heading again and again, closing and opening it, until its steps ran "
         "out"),
    Rule("read-only-field", "refusal",
         "typing into a field the page state flags read-only (a date picker's)",
         "refuses it, saying a click on it opens what chooses its value",
         "a read-only field takes no text; its picker does"),
    Rule("control-kind", "rewrite",
         "select on a checkbox, radio or button, or on a text field; fill or type on a "
         "button or a link (its own text, or none), or on a checkbox or radio (its own "
         "label: run as check, which never unticks); several options written as one for a "
         "list that takes several; other text "
         "typed into a button, a link, a box, a radio or an element that takes no text (a "
         "form, a list)",
         "runs it as check, click or fill on that same element, or as one select of those "
         "options; "
         "select on what holds the options (a menu, a group) is refused, naming the one "
         "inside it that says the value; other text typed into a button, a link, a box, a "
         "radio or a form is refused, naming the empty fields of its form (a click would drop "
         "it and follow the link; the browser's own error names no field)",
         "small models call every choice a select"),
    Rule("focus-hover", "rewrite",
         "a hover on a text field in a task that says to focus (\"Focus into the 3rd "
         "textbox\")",
         "runs it as a click on the same field, saying so; the step and the recipe keep the "
         "click",
         "a small model hovers the field it means to focus, and a hover focuses nothing"),
    Rule("field-format", "rewrite",
         "a date or time written as people write it, typed into a date or time field",
         "fills the same field with the same date or time in the field's own format",
         "such a field takes one format only"),
    Rule("slider-value", "rewrite",
         "fill or select of a number on a slider",
         "runs it as slide to that number on the same slider",
         "a slider takes keys, not text"),
    Rule("close-pop-up", "rewrite",
         "an action whose element a pop-up covers (a date picker over a button), the pop-up "
         "being no dialog or alert",
         "presses Escape and runs the action again; both are recorded and replayed",
         "pickers left open cover the next field; a dialog that says something is never "
         "dismissed this way"),
)

BY_NAME = {rule.name: rule for rule in RULES}
ALL = "all"

# The rules written for small local models (a 1.5B model on a CPU, bench/README.md): the
# ``small`` profile adds them; ``standard`` (the default) never runs them, and keeps seed
# 001's step history, the model's own messages in it.
SMALL = frozenset({
    "history-facts", "fields-now", "do-demos", "task-lines", "form-sender", "form-values",
    "hidden-text", "calendar", "position", "paged-position", "only-hint", "no-field",
    "act-first",
    "guard-acts", "try-first", "doubt-first-look", "doubt-give-up", "unsent-form",
    "named-button", "page-answered", "find-cut", "hover-futile", "left-empty", "left-unticked",
    "one-value", "send-last", "unasked-delete", "given-value", "absent-name", "open-shown",
    "focus-hover"})
PROFILES = ("standard", "small")
PROFILE_ENV = "WEBTASK_PROFILE"


def parse_profile(text: str | None) -> str:
    """A profile's name (``standard`` or ``small``; none: ``WEBTASK_PROFILE``, else
    ``standard``). Another is a ConfigurationError naming both."""
    name = (text or os.environ.get(PROFILE_ENV, "")).strip().lower()
    name = name or "standard"
    if name not in PROFILES:
        raise ConfigurationError(
            f"webtask_profile should be one of {', '.join(PROFILES)}; got {text!r}. "
            "docs/models.md says when to choose which.")
    return name


def parse_rules_off(text: str | Iterable[str]) -> frozenset[str]:
    """The rule names a setting switches off (space- or comma-separated; ``all``: every
    one). An unknown name is a ConfigurationError naming the known ones."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    names = {n.strip() for n in items if n.strip()}
    if ALL in names:
        return frozenset(BY_NAME)
    unknown = sorted(names - BY_NAME.keys())
    if unknown:
        raise ConfigurationError(
            f"webtask_rules_off: no agent rule is named {', '.join(map(repr, unknown))}. The "
            f"rules are: {', '.join(BY_NAME)} (or 'all'); docs/agent.md says what each does.")
    return frozenset(names)


class Policy:
    """Which rules are on, and which fired on the step being made (``fired``, in order, once
    each; ``take`` hands them over and starts the next step's list)."""

    def __init__(self, off: str | Iterable[str] = (), profile: str | None = None) -> None:
        self.profile = parse_profile(profile)
        self.off = parse_rules_off(off) | (SMALL if self.profile == "standard" else frozenset())
        self.fired: list[str] = []

    def on(self, name: str) -> bool:
        """Is the rule ``name`` switched on? (A name not in ``RULES`` is a bug here.)"""
        assert name in BY_NAME, name
        return name not in self.off

    def fire(self, name: str) -> None:
        """The rule ``name`` acted on the step being made."""
        assert name in BY_NAME, name
        if name not in self.fired:
            self.fired.append(name)

    def use(self, name: str, happened: object) -> bool:
        """``happened`` (a hint's text, a question, a rewrite) counts as ``name`` firing when
        it is truthy; returns whether it did."""
        if happened:
            self.fire(name)
        return bool(happened)

    def take(self) -> list[str]:
        fired, self.fired = self.fired, []
        return fired
