"""Recipe files on disk: where they live, atomic writes, clear errors for broken ones."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..errors import RecipeError
from .model import RECIPE_VERSION, Recipe, RecipeStep, upgrade_check_v1

# libyaml's loader when PyYAML was built with it: ten times faster than the pure one.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_recipe(path: Path) -> Recipe | None:
    """The recipe at ``path``; None when there is no file. Raises RecipeError when broken."""
    if not path.exists():
        return None
    fix = ("Fix the file by hand, or delete it and record again with "
           "`pytest --webtask-record`.")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RecipeError(f"Recipe {path} is not valid YAML: {_one_line(exc)}. {fix}") from None
    if not isinstance(data, dict):
        raise RecipeError(f"Recipe {path} should hold a mapping with version, test and steps; "
                          f"it holds {type(data).__name__}. {fix}")
    version = data.get("version")
    if version == 1:
        data = _upgrade_v1(data)
    if version in (1, 2):
        data = _upgrade_v2(data)
    elif version != RECIPE_VERSION:
        raise RecipeError(
            f"Recipe {path} has version {version!r}; this pytest-webtask reads version "
            f"{RECIPE_VERSION}. Upgrade pytest-webtask, or record again with "
            "`pytest --webtask-record`."
        )
    try:
        return Recipe.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise RecipeError(f"Recipe {path} is invalid: {problems}. {fix}") from None


def _upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 recipe in today's form: its checks keep their old meaning (see
    ``upgrade_check_v1``); recording again gives the stronger typed checks."""
    steps = []
    for step in data.get("steps") or []:
        if isinstance(step, dict) and isinstance(step.get("checks"), list):
            step = {**step, "checks": [upgrade_check_v1(c) if isinstance(c, dict) else c
                                       for c in step["checks"]]}
        steps.append(step)
    return {**data, "version": 2, "steps": steps}


UNKNOWN_NAMES = ("variables", "secrets", "resources")


def _upgrade_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 did not store the names a step was recorded with (variables, secrets,
    resources): they are unknown (None), so a replay does not compare them."""
    unknown = dict.fromkeys(UNKNOWN_NAMES)
    steps = [{**unknown, **step} if isinstance(step, dict) else step
             for step in data.get("steps") or []]
    return {**data, "version": RECIPE_VERSION, "steps": steps}


def dump_recipe(recipe: Recipe) -> str:
    data = recipe.model_dump(mode="json", exclude_none=True, exclude_defaults=True,
                             by_alias=True)
    data = {"version": recipe.version, **_prune(data)}  # version first and always written
    for step, out in zip(recipe.steps, data.get("steps", []), strict=True):
        for name in UNKNOWN_NAMES:  # recorded before names were stored: keep "unknown"
            if getattr(step, name) is None:
                out[name] = None
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def save_recipe(path: Path, recipe: Recipe) -> None:
    """Write atomically (temp file + rename in the same folder): a reader, or another xdist
    worker, sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(dump_recipe(recipe))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def healed_picture(file: str) -> str:
    """Where ``--webtask-heal=suggest`` proposes a new picture for the baseline ``file``:
    ``<baseline>.healed.png`` beside it, for review."""
    name = Path(file)
    return str(name.with_name(name.stem + ".healed" + (name.suffix or ".png")))


def save_baselines(path: Path, steps: list[RecipeStep], *, healed: bool = False) -> None:
    """Write each new baseline picture of ``steps`` beside the recipe at ``path``
    (atomically, as the recipe), before the recipe that names it; ``healed``: as the
    proposal ``healed_picture`` names, the baseline untouched."""
    for step in steps:
        for check in step.checks:
            shot = check.screenshot
            if shot is None or shot.png is None or not shot.file:
                continue
            target = path.parent / (healed_picture(shot.file) if healed else shot.file)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".tmp",
                                       dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(shot.png)
                os.replace(tmp, target)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise


def _prune(value: Any) -> Any:
    """Drop empty lists and mappings so files stay short."""
    if isinstance(value, dict):
        return {k: _prune(v) for k, v in value.items() if v not in ([], {}, None)}
    if isinstance(value, list):
        return [_prune(v) for v in value]
    return value


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())
