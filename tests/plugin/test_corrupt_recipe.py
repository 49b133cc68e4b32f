"""A broken recipe fails with its path and what is wrong; it is never overwritten silently."""

from __future__ import annotations

import pytest

from tests.plugin.conftest import TWO_TESTS, Inner


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("version: 1\nsteps: [unclosed", "*is not valid YAML*"),
        ("version: 7\ntest: t\nsteps: []\n",
         "*has version 7; this pytest-webtask reads version 3*"),
        ("version: 1\ntest: t\nsteps:\n- kind: dance\n  text: x\n",
         "*is invalid: steps.0.kind: Input should be 'do', 'check' or 'extract'*"),
        ("- just a list\n", "*should hold a mapping with version, test and steps*"),
    ],
)
def test_corrupt_recipe(inner: Inner, content: str, message: str) -> None:
    inner.tests(TWO_TESTS)
    path = inner.recipe("test_add")
    path.parent.mkdir(parents=True)
    path.write_text(content)
    result = inner.run("-k", "test_add and not again", env={"FORBID_LLM": "1"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*Recipe {path}{message}"])
    assert "Traceback" not in result.stdout.str()
    assert path.read_text() == content


def test_extract_step_without_extraction_is_invalid(inner: Inner) -> None:
    inner.tests(TWO_TESTS)
    path = inner.recipe("test_add")
    path.parent.mkdir(parents=True)
    path.write_text("version: 1\ntest: t\nsteps:\n- kind: extract\n  text: items\n")
    result = inner.run("-k", "test_add and not again", env={"FORBID_LLM": "1"})
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*is invalid: steps.0: Value error, an extract step, and only "
                                 "an extract step, has an 'extraction'*"])
