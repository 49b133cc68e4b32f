"""Dialogs (alert, confirm, prompt, beforeunload) as a recipe records them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class DialogAnswer(BaseModel):
    """How to answer the next dialog: accept (with ``text`` for a prompt) or dismiss.

    A replay also names the dialog it expects (``type``, ``message``): a different dialog is
    dismissed instead, so a changed page never gets a confirmation meant for another one."""

    model_config = ConfigDict(extra="forbid")

    accept: bool
    text: str | None = None
    type: str | None = None
    message: str | None = None

    def fits(self, type_: str, message: str) -> bool:
        return self.type in (None, type_) and self.message in (None, message)


class Dialog(BaseModel):
    """A dialog the page opened during an action, and how it was answered."""

    model_config = ConfigDict(extra="forbid")

    type: str
    message: str
    accept: bool
    text: str | None = None

    def describe(self) -> str:
        answer = "accepted" if self.accept else "dismissed"
        if self.accept and self.text is not None:
            answer += f" with {self.text!r}"
        return f"{self.type} dialog {self.message!r} ({answer})"
