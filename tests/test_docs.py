"""The README and the docs say what the code does: the two commands come first, every link
leads somewhere, every setting and option is documented, and the adapter example shown is
the one that is type-checked. (The quick start itself is played in
tests/plugin/test_quickstart.py.)"""

from __future__ import annotations

import re
from pathlib import Path

from pytest_webtask.settings import CLI_FIELDS, FIELDS

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_the_readme_opens_with_the_two_commands() -> None:
    first = FENCE.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert first is not None
    assert first.group(1).splitlines() == ["bash scripts/dev.sh examples",
                                           "bash scripts/dev.sh tests"]


def test_every_link_leads_to_a_file_and_heading_that_exist() -> None:
    checked = 0
    for page in PAGES:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            assert where.exists(), f"{page.name}: {target} leads nowhere"
            if anchor and where.suffix == ".md":
                assert anchor in _anchors(where), f"{page.name}: no heading for {target}"
            checked += 1
    assert checked > 30


def test_every_setting_and_option_is_documented() -> None:
    settings = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    for name, (_type, _default, env, _help) in FIELDS.items():
        assert f"`webtask_{name}`" in settings, name
        if env:
            assert f"`{env}`" in settings, env
    source = (ROOT / "pytest_webtask" / "plugin" / "webtask_options.py").read_text(
        encoding="utf-8")
    options = set(re.findall(r'"(--webtask-[a-z-]+)"', source))
    options |= {f"--webtask-{name.replace('_', '-')}" for name in CLI_FIELDS}
    assert len(options) > 10
    for option in options:
        assert f"`{option}" in settings, option


def test_the_adapter_example_in_the_docs_is_the_checked_file() -> None:
    example = (ROOT / "docs" / "examples" / "messages_llm.py").read_text(encoding="utf-8")
    models = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    assert f"```python\n{example.rstrip()}\n```" in models
