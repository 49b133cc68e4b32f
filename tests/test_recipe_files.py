"""Recipe files, in process: a broken file says where and what is wrong and is never
touched; a saved recipe reads back the same; pruning cuts a recipe to the steps its test
ran. (tests/plugin/test_corrupt_recipe.py and test_unused.py show the same through pytest.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pytest_webtask.errors import RecipeError
from pytest_webtask.plugin.unused import RecipeUse, prune_steps
from pytest_webtask.recipes.model import Check, Recipe, RecipeAction, RecipeStep
from pytest_webtask.recipes.storage import load_recipe, save_recipe
from pytest_webtask.types import Fingerprint

FIX = "Fix the file by hand, or delete it and record again with `pytest --webtask-record`."


@pytest.mark.parametrize(("content", "message"), [
    ("version: 3\nsteps: [unclosed", "is not valid YAML: "),
    ("version: 7\ntest: t\nsteps: []\n", "has version 7; this pytest-webtask reads version 3. "
     "Upgrade pytest-webtask, or record again with `pytest --webtask-record`."),
    ("version: 3\ntest: t\nsteps:\n- kind: dance\n  text: x\n",
     "is invalid: steps.0.kind: Input should be 'do', 'check' or 'extract'"),
    ("- just a list\n", "should hold a mapping with version, test and steps; it holds list"),
    ("version: 3\ntest: t\nsteps:\n- kind: extract\n  text: items\n",
     "is invalid: steps.0: Value error, an extract step, and only an extract step, has an "
     "'extraction'"),
    ("version: 3\ntest: t\nsteps:\n- kind: do\n  text: x\n  colour: red\n",
     "is invalid: steps.0.colour: Extra inputs are not permitted"),
], ids=["not-yaml", "newer-version", "unknown-kind", "not-a-mapping",
        "extract-without-extraction", "unknown-key"])
def test_a_broken_recipe_names_its_path_and_problem_and_stays_as_it_is(
        tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "test_add.yaml"
    path.write_text(content)
    with pytest.raises(RecipeError) as failure:
        load_recipe(path)
    text = str(failure.value)
    assert text.startswith(f"Recipe {path} {message}"), text
    if "version 7" not in message:
        assert text.endswith(FIX), text
    assert path.read_text() == content


def test_no_file_is_no_recipe(tmp_path: Path) -> None:
    assert load_recipe(tmp_path / "missing.yaml") is None


def test_a_saved_recipe_reads_back_the_same_and_leaves_no_temporary_file(tmp_path: Path
                                                                        ) -> None:
    button = Fingerprint(tag="button", role="button", name="Add to cart",
                         near="Blue Oxford Shirt")
    recipe = Recipe(test="test_add", steps=[
        RecipeStep(kind="do", text="add the {colour} shirt", variables=["colour"],
                   secrets=["password"], url="/", actions=[
                       RecipeAction(tool="fill", params={"value": "{password}"},
                                    target=Fingerprint(tag="input", label="Password")),
                       RecipeAction(tool="click", target=button)],
                   checks=[Check(expect="text", text="Total: $39.00")]),
        RecipeStep(kind="check", text="the cart total is $39.00",
                   checks=[Check(expect="url", path="/cart")])])
    path = tmp_path / "deep" / "folder" / "test_add.yaml"
    save_recipe(path, recipe)
    assert load_recipe(path) == recipe
    assert [p.name for p in path.parent.iterdir()] == ["test_add.yaml"]
    text = path.read_text()
    assert text.startswith("version: 3\ntest: test_add\n")  # a stable order, for reviews
    assert "element_id" not in text
    # saved again over itself: the same bytes (small diffs in pull requests)
    save_recipe(path, load_recipe(path))  # type: ignore[arg-type]
    assert path.read_text() == text


def _three_steps(path: Path) -> None:
    save_recipe(path, Recipe(test="t", steps=[RecipeStep(kind="check", text=f"step {i}")
                                              for i in (1, 2, 3)]))


def test_prune_cuts_a_passing_test_s_recipe_to_the_steps_it_ran(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    _three_steps(path)
    assert prune_steps(RecipeUse(str(path), steps_used=1, steps_recorded=3))
    assert [s["text"] for s in yaml.safe_load(path.read_text())["steps"]] == ["step 1"]
    # nothing more to cut
    assert not prune_steps(RecipeUse(str(path), steps_used=1, steps_recorded=1))


def test_prune_keeps_a_failed_test_s_recipe_and_deletes_one_no_step_uses(tmp_path: Path
                                                                        ) -> None:
    path = tmp_path / "t.yaml"
    _three_steps(path)
    before = path.read_text()
    assert not prune_steps(RecipeUse(str(path), steps_used=None, steps_recorded=3))
    assert path.read_text() == before
    assert prune_steps(RecipeUse(str(path), steps_used=0, steps_recorded=3))
    assert not path.exists()


def test_a_version_1_url_check_becomes_a_typed_one(tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("version: 1\ntest: t\nsteps:\n- kind: do\n  text: x\n  checks:\n"
                    "  - url_path: /cart\n")
    recipe = load_recipe(path)
    assert recipe is not None and recipe.version == 3
    assert recipe.steps[0].checks == [Check(expect="url", path="/cart")]
    assert re.fullmatch(r"version: 1\n.*", path.read_text(), re.DOTALL)  # not rewritten
