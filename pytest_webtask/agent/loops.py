"""Loop detection: the same failing action, again and again, is called out, then stopped."""

from __future__ import annotations

import json
from typing import Any

from ..types import Action, ExecutionResult
from .parsing import show

# The same failing action this many times in a row ends the task.
STOP_AFTER = 3


class RepeatedFailure:
    """Tracks the failing action of consecutive steps. The same one (same tool, target and
    parameters) twice in a row gives a note for the history; a third time, ``exhausted``."""

    def __init__(self) -> None:
        self.last: str | None = None
        self.count = 0
        self.action: Action | None = None
        self.error = ""

    def see(self, actions: list[Action], executions: list[ExecutionResult]) -> str | None:
        """Record a step's outcome; the note to add to its history entry, if any."""
        failed = next(((a, e) for a, e in zip(actions, executions, strict=False)
                       if not e.success), None)
        if failed is None:
            self.last, self.count = None, 0
            return None
        action, execution = failed
        key = _key(action, execution)
        self.count = self.count + 1 if key == self.last else 1
        self.last, self.action, self.error = key, action, execution.error or ""
        if self.count < 2:
            return None
        if self.count >= STOP_AFTER:
            return (f"This is the same failing action {self.count} times in a row: the task "
                    "stops here.")
        return ("You proposed exactly this failing action in the previous step too, with the "
                "same result. Do something different: another element, another tool, or "
                'report the task as "impossible" if it cannot be done.')

    @property
    def exhausted(self) -> bool:
        return self.count >= STOP_AFTER

    def stop_message(self) -> str:
        action = self.action
        what = f"{action.tool} {show(action.parameters, 200)}" if action else "?"
        return (f"Stopped: the same action failed {self.count} times in a row ({what}: "
                f"{self.error}). The model kept repeating it instead of trying something "
                "else.")


def _key(action: Action, execution: ExecutionResult) -> str:
    """Tool, target (its fingerprint when known: element ids change between readings) and
    the other parameters."""
    params: dict[str, Any] = dict(action.parameters)
    target: Any = params.pop("element_id", None)
    if execution.target is not None:
        target = execution.target.model_dump(exclude={"near"})
    try:
        return json.dumps([action.tool, target, params], sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return repr([action.tool, target, show(params)])


class FutileRepeat:
    """Actions that already ran, succeeded and changed nothing on the page (since it last
    changed). Proposing only such actions again is refused before they run: the model is
    asked once more with that fact, and a second such reply ends the task."""

    def __init__(self) -> None:
        self.futile: set[str] = set()
        # (tool, element id) pairs tried on this page, which did not change it: the next
        # request's reply schema does not offer them
        self.banned: set[tuple[str, str]] = set()
        self.refused = 0
        self.actions: list[Action] = []

    def after(self, actions: list[Action], executions: list[ExecutionResult],
              unchanged: bool) -> None:
        """A step's actions ran and the page is now known to have changed or not."""
        if not unchanged:  # a new page (its ids may mean other elements): nothing is banned
            self.futile = set()
            self.banned = set()
            self.refused = 0  # two refusals in a row on one page end the task, not two ever
            return
        for action, execution in zip(actions, executions, strict=False):
            if execution.downloads:
                continue  # it downloaded a file: a change the page state does not show
            if execution.success:
                self.futile.add(_plain_key(action))
            target = action.parameters.get("element_id")
            # it opened a dialog: it did something, whatever the page shows after (a cancel
            # asked for; a dismissal for want of an answer, which the step history tells the
            # model to answer and try again), so it stays offered (sent alone again, it is
            # still refused)
            if isinstance(target, str) and not execution.dialogs:
                self.banned.add((action.tool, target))

    def repeats(self, actions: list[Action]) -> bool:
        """Would these actions only repeat what changed nothing?"""
        return bool(actions) and all(_plain_key(a) in self.futile for a in actions)

    def refuse(self, actions: list[Action]) -> None:
        self.refused += 1
        self.actions = list(actions)

    @property
    def exhausted(self) -> bool:
        return self.refused >= 2

    def stop_message(self, said: str) -> str:
        what = "; ".join(f"{a.tool} {show(a.parameters, 200)}" for a in self.actions)
        return (f"Stopped: the model asked twice more for actions that had already run, "
                f"succeeded and changed nothing on the page ({what}), and never reported the "
                f"task done. Its last message: {said}")


def _plain_key(action: Action) -> str:
    """Tool and parameters as the model gave them: on a page that did not change, an id
    means the same element as before."""
    try:
        return json.dumps([action.tool, action.parameters], sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return repr([action.tool, show(action.parameters)])
