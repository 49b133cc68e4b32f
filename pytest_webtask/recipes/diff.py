"""A readable diff of a step's actions, for a heal: which action changed and how its target's
fingerprint moved (``button "Add to cart" -> button "Add to bag"``)."""

from __future__ import annotations

from difflib import SequenceMatcher

from .model import RecipeAction


def describe_action(action: RecipeAction) -> str:
    """``click button "Add to cart" near "Blue Oxford Shirt"``, ``fill textbox "Email" with
    '{email}'``: the tool, its target and what it was given (placeholders as stored)."""
    parts = [action.tool]
    if action.target is not None:
        parts.append(action.target.describe())
    if action.to is not None:
        parts.append(f"onto {action.to.describe()}")
    shown = {k: v for k, v in action.params.items() if k not in ("reason",)}
    if shown:
        parts.append(" ".join(f"{k}={v!r}" for k, v in sorted(shown.items())))
    return " ".join(parts)


def _same(action: RecipeAction) -> str:
    """What makes two actions the same one: the whole stored action, its reason aside."""
    return action.model_dump_json(exclude={"reason"})


def action_diff(old: list[RecipeAction], new: list[RecipeAction]) -> list[str]:
    """One line per changed action: ``action 2: click button "Add to cart" -> click button
    "Add to bag"``, ``+ action 3: ...`` (added, numbered as in the new step), ``- action 2:
    ...`` (removed). Empty when the actions are the same."""
    lines: list[str] = []
    outer = SequenceMatcher(a=[_same(a) for a in old], b=[_same(a) for a in new],
                            autojunk=False)
    for tag, i1, i2, j1, j2 in outer.get_opcodes():
        if tag != "equal":
            lines += _changed(old, new, i1, i2, j1, j2)
    return lines


def _changed(old: list[RecipeAction], new: list[RecipeAction], i1: int, i2: int, j1: int,
             j2: int) -> list[str]:
    """A run of changed actions, aligned by what they do to which element (so an action
    whose target only moved pairs with itself, and an added one shows as added)."""
    before = [describe_action(a) for a in old[i1:i2]]
    after = [describe_action(a) for a in new[j1:j2]]
    lines: list[str] = []
    inner = SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, a1, a2, b1, b2 in inner.get_opcodes():
        pairs = a2 - a1 if tag == "equal" else min(a2 - a1, b2 - b1) if tag == "replace" else 0
        for k in range(pairs):
            was, now = i1 + a1 + k + 1, j1 + b1 + k + 1
            name = f"action {was}" + (f" (now {now})" if now != was else "")
            moved = " (its CSS path, XPath or other attributes changed)" if tag == "equal" \
                else ""
            lines.append(f"{name}: {before[a1 + k]} -> {after[b1 + k]}{moved}")
        for k in range(a1 + pairs, a2):
            lines.append(f"- action {i1 + k + 1}: {before[k]}")
        for k in range(b1 + pairs, b2):
            lines.append(f"+ action {j1 + k + 1}: {after[k]}")
    return lines
