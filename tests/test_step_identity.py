"""Pure parts of the step pipeline, in process: step identity, merged markers, recipe URLs,
and the verdict on whether a run was complete."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_webtask.errors import ConfigurationError
from pytest_webtask.plugin.unused import RecipeUse, RunTracker, unused_recipes
from pytest_webtask.recipes.model import Recipe, RecipeStep
from pytest_webtask.recipes.storage import dump_recipe, load_recipe
from pytest_webtask.recipes.urls import absolute_url, relative_url
from pytest_webtask.settings import Settings
from pytest_webtask.steps.identity import StepIdentity


def test_identity_is_kind_text_fields_and_names_not_values() -> None:
    a = StepIdentity.make("do", "sign in as {email}", variables={"email": "a@x"},
                     secrets={"password": "p1"})
    b = StepIdentity.make("do", "sign in as {email}", variables={"email": "b@y"},
                     secrets={"password": "p2"})
    assert a == b and a.changes(b) == []
    assert StepIdentity.make("extract", "items", fields=["name", "stock"]).changes(
        StepIdentity.make("extract", "items", fields=["name"])) == ["the fields changed: + stock"]
    assert StepIdentity.make("do", "x", resources={"b": 1}).changes(
        StepIdentity.make("do", "x", resources={"a": 1})) == \
        ["the resource names changed: + b, - a"]
    assert StepIdentity.make("check", "x").changes(StepIdentity.make("do", "x")) == \
        ["the step's kind changed: it is do('x') in the recipe, check('x') in the test"]


def test_a_recipe_step_from_before_identities_matches_on_kind_and_text() -> None:
    old = RecipeStep(kind="do", text="x", variables=None, secrets=None, resources=None)
    assert StepIdentity.make("do", "x", secrets={"p": "v"}).changes(StepIdentity.of(old)) == []
    new = RecipeStep(kind="do", text="x", secrets=["p"])
    assert StepIdentity.make("do", "x").changes(StepIdentity.of(new)) == \
        ["the secret names changed: - p"]


def test_markers_merge_closest_first_and_the_command_line_wins() -> None:
    module, cls, func = (pytest.mark.webtask(timeout=1, max_steps=4),
                         pytest.mark.webtask(timeout=2, strict=True),
                         pytest.mark.webtask(timeout=3).mark)
    merged = Settings().with_markers([func, cls.mark, module.mark])  # iter_markers order
    assert (merged.timeout, merged.max_steps, merged.strict) == (3.0, 4, True)
    from_cli = Settings(_from_cli=frozenset({"timeout"}))
    assert from_cli.with_markers([func]).timeout == 5.0
    with pytest.raises(ConfigurationError, match="keyword arguments among"):
        Settings().with_markers([pytest.mark.webtask(colour="red").mark])


def test_a_default_is_written_once_and_the_parts_made_by_hand_share_it() -> None:
    """A setting's default is its field's (FIELDS reads them from Settings); an agent, a
    model client or a replayer made without the plugin starts from the same values."""
    import inspect

    from pytest_webtask import Agent, OpenAILLM, PlanAgent
    from pytest_webtask.browser._sync.llm_browser import LLMBrowser
    from pytest_webtask.extraction._sync.executor import RecipeExecutor
    from pytest_webtask.recipes._sync.replayer import Replayer
    from pytest_webtask.settings import FIELDS
    from pytest_webtask.steps.strategy import StrategyOptions

    s = Settings()
    assert {name: FIELDS[name].default for name in FIELDS} == {
        name: getattr(s, name) for name in FIELDS}
    assert FIELDS["page_chars"][1:3] == (40_000, "WEBTASK_PAGE_CHARS")
    assert FIELDS["allowed_origins"].type is str and FIELDS["timeout"].type is float

    def default(func: object, name: str) -> object:
        return inspect.signature(func).parameters[name].default  # type: ignore[arg-type]

    assert default(Agent, "page_chars") == default(PlanAgent, "page_chars") == \
        default(LLMBrowser, "page_chars") == StrategyOptions.page_chars == s.page_chars
    assert default(Agent.execute, "max_steps") == s.max_steps
    assert default(PlanAgent, "horizon") == StrategyOptions.plan_horizon == s.plan_horizon
    assert default(PlanAgent, "max_iterations") == StrategyOptions.max_iterations == \
        s.max_iterations
    assert default(OpenAILLM, "timeout") == s.llm_timeout
    assert default(OpenAILLM, "max_tokens") == s.llm_max_tokens
    assert default(OpenAILLM, "max_retries") == s.llm_retries
    assert default(OpenAILLM, "retry_timeouts") == s.llm_retry_timeouts
    assert default(OpenAILLM, "response_format") == s.response_format
    assert default(Replayer, "timeout_ms") == default(RecipeExecutor, "timeout_ms") == \
        s.timeout * 1000


@pytest.mark.parametrize(("url", "base", "stored"), [
    ("http://shop.test/cart?x=1", "http://shop.test", "/cart?x=1"),
    ("http://shop.test/app/cart", "http://shop.test/app", "/app/cart"),
    ("http://shop.test/application", "http://shop.test/app", "http://shop.test/application"),
    ("http://shop.test:80/cart", "http://SHOP.test", "/cart"),
    ("https://shop.test/cart", "http://shop.test", "https://shop.test/cart"),
    ("http://shop.test.evil/cart", "http://shop.test", "http://shop.test.evil/cart"),
    ("http://shop.test/cart", None, "http://shop.test/cart"),
])
def test_recipe_urls_compare_origin_then_path_at_a_slash(url: str, base: str | None,
                                                         stored: str) -> None:
    assert relative_url(url, base) == stored
    if base:  # and a stored URL resolves back to the same page
        back = absolute_url(stored, base, "about:blank")
        assert back.lower().replace(":80/", "/") == url.lower().replace(":80/", "/")


def test_a_run_is_complete_only_when_every_collected_test_was_selected_and_ran() -> None:
    run = RunTracker(collected={"t.py::a", "t.py::b"}, selected=["t.py::a", "t.py::b"],
                     ran={"t.py::a", "t.py::b"})
    assert run.incomplete() == ""
    run.selected = ["t.py::a"]
    assert run.incomplete() == "1 of 2 collected test(s) were not selected"
    run.selected, run.ran = ["t.py::a", "t.py::b"], {"t.py::a"}
    assert run.incomplete() == "1 selected test(s) did not run"
    run.ran, run.stopped = {"t.py::a", "t.py::b"}, "Interrupted: 1 failure"
    assert "stopped early" in run.incomplete()
    assert RunTracker(collect_errors=1).incomplete() == "1 collection error(s)"
    assert RunTracker(narrowed=True).incomplete().startswith("test ids or --lf")
    assert RunTracker(worker_problems=["a", "a"]).incomplete() == "a"


def test_recipe_use_travels_as_json_and_counts_unused_steps() -> None:
    use = RecipeUse("/r.yaml", steps_used=1, steps_recorded=3)
    assert RecipeUse.from_json(use.to_json()) == use and use.unused_steps == 2
    assert RecipeUse("/r.yaml", None, 3).unused_steps == 0  # the test did not pass
    assert RecipeUse.from_json("not json") is None


def test_a_test_that_never_reached_its_fixture_keeps_its_recipe(tmp_path: Path) -> None:
    """A skipped test, or one whose setup failed, reported no recipe name: every name its
    node id may stand for (with or without a browser id) keeps its recipe in use."""
    folder = tmp_path / "__webtask__" / "test_m"
    folder.mkdir(parents=True)
    for name in ("test_skipped", "test_gone", "elsewhere"):
        (folder / f"{name}.yaml").write_text("version: 3\ntest: x\n")
    unused = unused_recipes(tmp_path, ["test_m.py::test_skipped[chromium]",
                                       "test_m.py::test_ran[chromium]"],
                            {"test_m.py::test_ran[chromium]": "test_ran"},
                            used_paths={str(folder / "elsewhere.yaml")})
    assert [p.name for p in unused] == ["test_gone.yaml"]


def test_recipe_urls_keep_the_fragment_of_hash_routed_apps() -> None:
    assert relative_url("http://app.test/#/cart?x=1", "http://app.test") == "/#/cart?x=1"
    assert absolute_url("/#/cart?x=1", "http://app.test", "") == "http://app.test/#/cart?x=1"


def test_unknown_names_of_an_older_recipe_survive_a_save(tmp_path: Path) -> None:
    recipe = Recipe(test="t", steps=[RecipeStep(kind="do", text="x", variables=None,
                                                secrets=None, resources=None),
                                     RecipeStep(kind="do", text="y", secrets=["p"])])
    path = tmp_path / "r.yaml"
    path.write_text(dump_recipe(recipe))
    loaded = load_recipe(path)
    assert loaded is not None
    assert [s.secrets for s in loaded.steps] == [None, ["p"]]
