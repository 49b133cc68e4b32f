"""A step's identity: what a recorded step must share with the test's call to be replayed.

Kind and text, and everything that changes what the step does: extraction fields, the names
of placeholders (variables), secrets and resources. Values are not part of it: a replay
substitutes them. A change is said as what changed, e.g. "the fields changed: + stock".
"""

from __future__ import annotations

from dataclasses import dataclass

from ..recipes.model import RecipeStep

_PARTS = (("fields", "fields"), ("variables", "variable names"),
          ("secrets", "secret names"), ("resources", "resource names"))


@dataclass(frozen=True)
class StepIdentity:
    kind: str
    text: str
    fields: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()

    @classmethod
    def make(cls, kind: str, text: str, *, fields: list[str] | None = None,
             variables: object = (), secrets: object = (), resources: object = ()
             ) -> StepIdentity:
        def names(d: object) -> tuple[str, ...]:
            return tuple(sorted(str(n) for n in (d or ())))  # type: ignore[attr-defined]
        return cls(kind, text, tuple(fields or ()), names(variables), names(secrets),
                   names(resources))

    @classmethod
    def of(cls, step: RecipeStep) -> StepIdentity:
        """The identity a recorded step was recorded with. A part a recipe does not state
        (recorded before identities were stored) is None and matches anything."""
        fields = tuple(step.extraction.fields) if step.extraction is not None else ()
        return cls(step.kind, step.text, fields, *(
            tuple(v) if v is not None else None  # type: ignore[arg-type]
            for v in (step.variables, step.secrets, step.resources)))

    def changes(self, recorded: StepIdentity) -> list[str]:
        """What differs from ``recorded``, said for people; empty when it replays."""
        if (self.kind, self.text) != (recorded.kind, recorded.text):
            what = "kind" if self.kind != recorded.kind else "text"
            return [f"the step's {what} changed: it is {recorded.kind}({recorded.text!r}) in "
                    f"the recipe, {self.kind}({self.text!r}) in the test"]
        out = []
        for attr, label in _PARTS:
            now, then = getattr(self, attr), getattr(recorded, attr)
            if then is None or now == then:
                continue
            diff = [f"+ {n}" for n in now if n not in then] + \
                   [f"- {n}" for n in then if n not in now]
            out.append(f"the {label} changed: {', '.join(diff) or 'their order'}")
        return out
