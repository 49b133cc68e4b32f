"""What a test did, in order, for the export: the pages it opened and the steps it ran with
their variable values and resources. Secret values are never kept, only their names."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..recipes.model import RecipeStep


@dataclass
class Visit:
    url: str


@dataclass
class Ran:
    step: RecipeStep
    variables: dict[str, str]
    resources: dict[str, Path]
    secrets: list[str]
    computed: list[str] = field(default_factory=list)  # values passed as callables


@dataclass
class Trail:
    """Filled by the fixture as the test runs; read once the test has passed.
    ``recipe_folder``: where the recipe's baseline pictures are."""

    events: list[Visit | Ran] = field(default_factory=list)
    recipe_folder: Path | None = None

    def goto(self, url: str) -> None:
        self.events.append(Visit(url))

    def step(self, step: RecipeStep, variables: dict[str, Any], resources: dict[str, Any],
             secrets: dict[str, Any]) -> None:
        computed = sorted(k for k, v in {**variables, **secrets}.items() if callable(v))
        self.events.append(Ran(step, {k: str(v) for k, v in variables.items()
                                      if k not in computed},
                               {k: Path(v) for k, v in resources.items()}, sorted(secrets),
                               computed))
