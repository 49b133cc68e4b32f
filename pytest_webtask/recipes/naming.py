"""Test names as recipe file names: one file per test, never two tests per file.

pytest-playwright's own browser parameter is dropped, so one recipe serves ``--browser
chromium`` and ``--browser firefox`` alike; a user's id that happens to equal a browser name
is kept. A name that is not already a short, plain file name is shortened or cleaned and gets
a hash of the full name, so distinct names never share a file.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

# Longest file stem written: well under the 255 bytes most file systems allow, leaving room
# for ".yaml", the atomic writer's temporary prefix and suffix.
MAX_STEM = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-\[\] ]+")
_LEGACY_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-\[\]]+")


def recipe_test_name(nodeid_tail: str, browser: str | None = None) -> str:
    """``TestCart::test_add[chromium-blue]`` -> ``TestCart.test_add[blue]`` when ``browser``
    is ``"chromium"``, the value of pytest-playwright's ``browser_name`` parameter."""
    name = nodeid_tail.replace("::", ".")
    m = re.fullmatch(r"(.*?)\[(.*)\]", name, re.DOTALL)
    if not m or not browser:
        return name
    ids = m.group(2)
    if ids == browser:
        return m.group(1)
    if ids.startswith(browser + "-"):
        ids = ids[len(browser) + 1:]
    elif ids.endswith("-" + browser):
        ids = ids[: -len(browser) - 1]
    return f"{m.group(1)}[{ids}]"


def recipe_file_stem(name: str) -> str:
    """A test name as a file stem: unchanged when it is short and holds only safe characters;
    otherwise cleaned, shortened and suffixed with a hash of the full name (injective)."""
    cleaned = _UNSAFE.sub("_", name).strip("._ ") or "test"
    if cleaned == name and len(name) <= MAX_STEM:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{cleaned[: MAX_STEM - len(digest) - 1]}~{digest}"


def legacy_file_stem(name: str) -> str:
    """The file stem earlier versions used: not injective (``a/b`` and ``a_b`` shared one)
    and unbounded; only read to point at a recipe that should be renamed."""
    return _LEGACY_UNSAFE.sub("_", name).strip("._") or "test"


RECIPE_DIR = "__webtask__"


def recipe_path(test_file: Path, test_name: str) -> Path:
    """``<test dir>/__webtask__/<module stem>/<test name>.yaml``."""
    return test_file.parent / RECIPE_DIR / test_file.stem / f"{recipe_file_stem(test_name)}.yaml"
