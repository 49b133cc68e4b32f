"""Test names as recipe file names: the browser parameter pytest-playwright adds is dropped,
so one recipe serves ``--browser chromium`` and ``--browser firefox`` alike."""

from __future__ import annotations

import re

BROWSERS = {"chromium", "firefox", "webkit"}


def recipe_test_name(nodeid_tail: str) -> str:
    """``TestCart::test_add[chromium-blue]`` -> ``TestCart.test_add[blue]``."""
    name = nodeid_tail.replace("::", ".")
    m = re.fullmatch(r"(.*?)\[(.*)\]", name)
    if not m:
        return name
    kept = [p for p in m.group(2).split("-") if p not in BROWSERS]
    return f"{m.group(1)}[{'-'.join(kept)}]" if kept else m.group(1)
