"""RecipeSession: one test's recipe, matched step by step against what the test asks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..recipes.model import Recipe, RecipeStep
from ..recipes.naming import legacy_file_stem
from ..recipes.storage import load_recipe, save_baselines, save_recipe
from .identity import StepIdentity


@dataclass
class RecipeSession:
    """The recipe of one test. Step ``i`` of the test replays ``recipe.steps[i]`` when its
    identity (``StepIdentity``) is the same; otherwise it must be recorded. Nothing is
    written unless a step was recorded."""

    path: Path
    test_name: str
    record_all: bool = False
    _recipe: Recipe | None = None
    _loaded: bool = False
    steps: list[RecipeStep] = field(default_factory=list)
    dirty: bool = False
    suggested: dict[int, RecipeStep] = field(default_factory=dict)  # heals for review

    def recipe(self) -> Recipe | None:
        if not self._loaded:
            self._loaded = True
            self._recipe = load_recipe(self.path)  # RecipeError for a broken file
        return self._recipe

    def expected(self, index: int, key: StepIdentity) -> RecipeStep | None:
        """The recorded step to replay at ``index``, or None when it must be recorded."""
        if self.record_all:
            return None
        recipe = self.recipe()
        if recipe is None or index >= len(recipe.steps):
            return None
        step = recipe.steps[index]
        return None if key.changes(StepIdentity.of(step)) else step

    def why_missing(self, index: int, key: StepIdentity) -> str:
        recipe = None if self.record_all else self.recipe()
        if recipe is None:
            legacy = self.path.with_name(legacy_file_stem(self.test_name) + ".yaml")
            if legacy != self.path and legacy.exists():
                return (f"there is no recipe {self.path}, but there is {legacy.name}, the "
                        "name an earlier pytest-webtask gave it (names are now unique per "
                        f"test): if it is this test's, rename it to {self.path.name}")
            return f"there is no recipe {self.path}"
        if index >= len(recipe.steps):
            return f"the recipe {self.path} has only {len(recipe.steps)} step(s)"
        old = recipe.steps[index]
        return (f"step {index + 1} of the recipe {self.path} ({old.describe()}) was recorded "
                "for another call: " + "; ".join(key.changes(StepIdentity.of(old))))

    def done(self, index: int, step: RecipeStep, *, recorded: bool) -> None:
        # a new baseline picture is named after the test and the step, beside the recipe
        pictures = [c.screenshot for c in step.checks
                    if c.screenshot is not None and c.screenshot.png is not None
                    and not c.screenshot.file]
        for n, shot in enumerate(pictures, 1):
            shot.file = f"{self.path.stem}.{index + 1}-{n}.png"
        del self.steps[index:]
        self.steps.append(step)
        self.dirty = self.dirty or recorded

    @property
    def healed_path(self) -> Path:
        """Where ``--webtask-heal=suggest`` proposes the healed recipe, for review."""
        return self.path.with_name(self.path.stem + ".healed.yaml")

    def suggest(self, index: int, step: RecipeStep) -> None:
        """A heal to propose beside the recipe instead of replacing it."""
        self.suggested[index] = step

    def finish(self, test_passed: bool) -> bool:
        """Save when a step was recorded. After a failure, recorded steps are kept and the
        old steps after them too, so the next run can pick up where this one stopped.
        Suggested heals go to ``healed_path``, the recipe untouched, and their new pictures
        to ``<baseline>.healed.png``, the baselines untouched."""
        recipe = self._recipe
        if self.suggested and recipe is not None:
            steps = [self.suggested.get(n, step) for n, step in enumerate(recipe.steps)]
            save_baselines(self.path, list(self.suggested.values()), healed=True)
            save_recipe(self.healed_path, Recipe(test=self.test_name, steps=steps))
        if not self.dirty:
            return False
        steps = list(self.steps)
        old = None if self.record_all else self._recipe
        if not test_passed and old is not None:
            steps += old.steps[len(steps):]
        save_baselines(self.path, steps)
        save_recipe(self.path, Recipe(test=self.test_name, steps=steps))
        return True
