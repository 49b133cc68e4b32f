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
    "Add to bag"``, ``+ action 3: ...`` (added), ``- action 2: ...`` (removed). Empty when the
    actions are the same."""
    lines: list[str] = []
    matcher = SequenceMatcher(a=[_same(a) for a in old], b=[_same(a) for a in new],
                              autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(pairs):
            before, after = describe_action(old[i1 + k]), describe_action(new[j1 + k])
            if before == after:  # same description: the fingerprint's finer fields moved
                after += " (its CSS path, XPath or other attributes changed)"
            lines.append(f"action {i1 + k + 1}: {before} -> {after}")
        for k in range(i1 + pairs, i2):
            lines.append(f"- action {k + 1}: {describe_action(old[k])}")
        for k in range(j1 + pairs, j2):
            lines.append(f"+ action {k + 1}: {describe_action(new[k])}")
    return lines
