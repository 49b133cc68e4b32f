"""Recipe file names from real runs: one file per test, long ids, look-alike ids."""

from __future__ import annotations

from tests.plugin.conftest import Inner

LONG = "x" * 300
IDS_TEST = f'''
import pytest

@pytest.mark.parametrize("who", ["a/b", "a_b", "mozilla", "mozilla-firefox", "{LONG}"])
def test_add(webtask, who):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
'''


def test_each_parametrized_id_gets_its_own_bounded_recipe(inner: Inner) -> None:
    inner.tests(IDS_TEST)
    result = inner.run()
    result.assert_outcomes(passed=5)
    assert "File name too long" not in result.stdout.str()
    files = sorted((inner.path / "__webtask__" / "test_shop").glob("*.yaml"))
    assert len(files) == 5, [f.name for f in files]
    assert all(len(f.name) < 140 for f in files)
    tests = {f.read_text().split("test: ", 1)[1].split("\n", 1)[0] for f in files}
    assert len(tests) == 5  # each file holds a different test
    assert "test_add[mozilla].yaml" in {f.name for f in files}
    assert "test_add[mozilla-firefox].yaml" in {f.name for f in files}
    assert inner.llm_calls == 10
    replay = inner.run(env={"CI": "1", "FORBID_LLM": "1"})
    replay.assert_outcomes(passed=5)


def test_tests_folded_into_one_file_are_a_clear_error(inner: Inner) -> None:
    # on a case-insensitive file system these two would share one recipe file
    inner.tests('''
import pytest

@pytest.mark.parametrize("who", ["Ada", "ada"])
def test_add(webtask, who):
    webtask.goto("/")
    webtask.do("add the Blue Oxford Shirt in size M to the cart")
''')
    result = inner.run()
    result.assert_outcomes(passed=1, errors=1)
    assert "Traceback" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*test_add?chromium-ada? and *test_add?chromium-Ada? would "
                                 "share the recipe file *: rename one of the tests*"])
