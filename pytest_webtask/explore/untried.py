"""Forms exploring did not try, read back from the plan's site map, and the flows that go
through them: ``generate`` records none of those against the app until ``--allow-form``
names the form (DESIGN.md decision 19).

A flow the planner wrote (or a person) may submit a form the write guard stopped while
exploring: recording it would send that form to the app, which nobody allowed. The site map
keeps one line per such form (``- Not tried while exploring: form 'Newsletter', submit
'Subscribe' (Email (email)): it sends POST /newsletter (form post), ...``); a flow whose
``do`` step names the form or its button, as whole words, goes through it. The words are
the first guard here; the second is where requests leave: while generate records and
replays, ``closed_forms.py`` stops any write to such a form's path that ``--allow-form`` did
not name, and fails the test saying which form.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .plan import NOT_TRIED, Flow
from .writes import matches

# the pytest plugin that keeps those forms closed while generate records and replays
# (``closed_forms.py``), and where it reads them from
CLOSED_PLUGIN = "pytest_webtask.explore.closed_forms"
CLOSED_ENV = "WEBTASK_GENERATE_CLOSED_FORMS"

_LINE = re.compile(r"^\s*-\s+" + NOT_TRIED + r":\s+(?P<rest>.*\S)\s*$")
_QUOTED = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_NAME = re.compile(rf"^(?:form {_QUOTED})?(?:, )?(?:submit {_QUOTED})?")
_SENDS = re.compile(r"\bsends [A-Z]+ (/[^\s;,()]*)")


@dataclass(frozen=True)
class UntriedForm:
    """A form of the site map that exploring did not try: its name, its button's text, the
    paths it sends to and why it was not tried."""

    form: str
    submit: str
    paths: tuple[str, ...]
    why: str

    def name(self) -> str:
        parts = [f"form {self.form!r}" if self.form else "",
                 f"submit {self.submit!r}" if self.submit else ""]
        return ", ".join(p for p in parts if p)

    def pattern(self) -> str:
        """What ``--allow-form`` takes to name it: its button's text, else its path."""
        return self.submit or (self.paths[0] if self.paths else self.form)

    def allowed(self, patterns: Iterable[str]) -> bool:
        return matches(patterns, texts=[self.submit, self.form], paths=self.paths) is not None

    def named_in(self, text: str) -> bool:
        """Does ``text`` name the form or its button, as whole words (case ignored)?"""
        folded = " ".join(text.split()).casefold()
        return any(re.search(r"(?<!\w)" + re.escape(" ".join(name.split()).casefold())
                             + r"(?!\w)", folded) for name in (self.form, self.submit) if name)


def untried_forms(site_map: str) -> list[UntriedForm]:
    """The forms the site map's ``Not tried while exploring`` lines name (those with a form
    name or a button's text), each once."""
    found: dict[tuple[str, str], UntriedForm] = {}
    for line in site_map.splitlines():
        hit = _LINE.match(line)
        if hit is None:
            continue
        rest = hit.group("rest")
        name = _NAME.match(rest)
        assert name is not None  # every part of it is optional
        form, submit = (_unquote(group) for group in name.groups())
        if not form and not submit:
            continue
        why = rest.split("): ", 1)[1] if "): " in rest else rest[name.end():].lstrip(": ")
        found.setdefault((form, submit), UntriedForm(
            form=form, submit=submit, paths=tuple(dict.fromkeys(_SENDS.findall(why))),
            why=why.strip()))
    return list(found.values())


def goes_through(flow: Flow, forms: Iterable[UntriedForm],
                 allowed: Iterable[str] = ()) -> UntriedForm | None:
    """The first form of ``forms`` a step of ``flow`` that acts (``do``, or a sentence not
    classified) names and ``allowed`` (``--allow-form`` patterns) does not."""
    allowed = list(allowed)
    for form in forms:
        if form.allowed(allowed):
            continue
        if any(step.kind in ("do", "") and form.named_in(step.text) for step in flow.steps):
            return form
    return None


def refusal(form: UntriedForm) -> str:
    """Why a flow through ``form`` is left out, and how to allow it."""
    why = form.why.rstrip(".")
    return (f"it goes through {form.name()}, which exploring did not try ({why}). Recording "
            "it would send that form to the app: to allow it, run webtask generate with "
            f"--allow-form {_shell(form.pattern())}, or explore again with that option.")


def _unquote(group: str | None) -> str:
    if not group:
        return ""
    try:
        return str(ast.literal_eval(group))
    except (ValueError, SyntaxError):
        return group[1:-1]


def _shell(text: str) -> str:
    return text if re.fullmatch(r"[\w/*.-]+", text) else "'" + text.replace("'", "'\\''") + "'"
