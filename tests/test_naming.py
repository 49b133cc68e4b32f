"""Recipe file names: bounded, injective, and the browser parameter only is dropped."""

from __future__ import annotations

from pathlib import Path

from pytest_webtask.recipes.naming import MAX_STEM, recipe_file_stem, recipe_test_name


def test_plain_names_are_kept() -> None:
    assert recipe_file_stem("TestCart.test_add[blue]") == "TestCart.test_add[blue]"


def test_cleaned_names_do_not_collide_with_plain_ones() -> None:
    names = ["test_x[a/b]", "test_x[a_b]", "test_x[a b]", "test_x[a__b]", "test_x[é]",
             "test_x[e]", "test_x[a b ]", "test_x[a:b]"]
    stems = [recipe_file_stem(n) for n in names]
    assert len(set(stems)) == len(names)
    assert stems[1] == "test_x[a_b]"  # the one already safe is unchanged
    assert stems[0].startswith("test_x[a_b]~")


def test_long_names_are_bounded_and_distinct() -> None:
    a, b = "test_x[" + "a" * 300 + "]", "test_x[" + "a" * 299 + "b]"
    sa, sb = recipe_file_stem(a), recipe_file_stem(b)
    assert len(sa) <= MAX_STEM and len(sb) <= MAX_STEM
    assert sa != sb
    assert recipe_file_stem(a) == sa  # stable


def test_only_the_browser_parameter_is_dropped() -> None:
    assert recipe_test_name("test_a[chromium-mozilla]", "chromium") == "test_a[mozilla]"
    assert recipe_test_name("test_a[firefox-mozilla-firefox]", "firefox") \
        == "test_a[mozilla-firefox]"
    assert recipe_test_name("test_a[chromium-firefox]", "chromium") == "test_a[firefox]"
    assert recipe_test_name("test_a[chromium]", "chromium") == "test_a"
    # no browser parameter: a user's id equal to a browser name stays
    assert recipe_test_name("test_a[firefox]") == "test_a[firefox]"
    assert recipe_test_name("TestC::test_a[webkit-x]", "webkit") == "TestC.test_a[x]"


def test_spaces_are_kept_readable() -> None:
    assert recipe_file_stem("test_x[Ada Lovelace]") == "test_x[Ada Lovelace]"


def test_a_recipe_under_its_old_name_is_pointed_at(tmp_path: Path) -> None:
    from pytest_webtask.recipes.naming import recipe_path
    from pytest_webtask.steps.identity import StepIdentity
    from pytest_webtask.steps.session import RecipeSession

    name = "test_x[a/b]"
    path = recipe_path(tmp_path / "test_mod.py", name)
    path.parent.mkdir(parents=True)
    (path.parent / "test_x[a_b].yaml").write_text("version: 1\n")
    why = RecipeSession(path=path, test_name=name).why_missing(0, StepIdentity.make("do", "t"))
    assert "but there is test_x[a_b].yaml, the name an earlier pytest-webtask gave it" in why
    assert f"rename it to {path.name}" in why
