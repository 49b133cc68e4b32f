"""Visual checks: a statement about a canvas chart is recorded from a region a (scripted)
model that sees screenshots cites, its baseline PNG is written beside the recipe, and a
replay compares pixels with no model: the mutants of tests/pages/chart.html fail with the
expected, actual and diff pictures; its benign changes and unchanged reruns pass."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.recipes.pixels import decode_png
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.server import LocalServer

STATEMENT = "the chart shows March as the tallest bar"


class SeeingLLM(ScriptedLLM):
    """A scripted stand-in for a model that takes screenshots (not a model)."""

    supports_images = True


def cite_canvas(box: list[float] | None = None, masks: list[list[float]] | None = None,
                element: str | None = None) -> Any:
    """A reply that cites the canvas of the page state it is shown."""

    def reply(context: ModelRequest) -> dict[str, Any]:
        text = context.to_text()
        found = element or re.search(r"(canvas-\d+)", text)
        assert found, text
        claim: dict[str, Any] = {"expect": "screenshot",
                                 "element": found if isinstance(found, str) else found[1],
                                 "text": "March is the tallest bar"}
        if box is not None:
            claim["box"] = box
        if masks is not None:
            claim["masks"] = masks
        return {"message": "The chart shows it", "complete": True, "evidence": [claim]}

    return reply


def run(browser: Browser, server: LocalServer, recipe: Path, mode: str, query: str = "",
        llm: ScriptedLLM | None = None, artifacts: Path | None = None,
        **settings: Any) -> Any:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url, llm=llm,
                          test_name="test_chart", artifacts=artifacts,
                          **{"timeout": 1.5, **settings}) as task:
            task.goto("/chart" + query)
            task.check(STATEMENT)
    finally:
        context.close()
    return task


@pytest.fixture
def recorded(browser: Browser, server: LocalServer, tmp_path: Path) -> Path:
    recipe = tmp_path / "__webtask__" / "test_visual" / "test_chart.yaml"
    llm = SeeingLLM(cite_canvas())
    run(browser, server, recipe, "record", llm=llm)
    assert "canvas-0" in llm.prompts[0] and "screenshot" in llm.prompts[0]
    assert llm.calls[0].context.images  # the model was shown the page
    return recipe


def test_a_canvas_check_records_a_png_beside_the_recipe(recorded: Path) -> None:
    step = yaml.safe_load(recorded.read_text())["steps"][0]
    check = step["checks"][0]
    assert check["expect"] == "screenshot"
    assert check["element"]["tag"] == "canvas"
    assert check["element"]["name"] == "Sales by month"
    shot = check["screenshot"]
    assert shot["file"] == "test_chart.1-1.png"
    assert shot["shows"] == "March is the tallest bar"
    assert shot["size"] == [360, 220]
    picture = decode_png((recorded.parent / shot["file"]).read_bytes())
    assert (picture.width, picture.height) == (360, 220)
    assert len((recorded.parent / shot["file"]).read_bytes()) < 20_000  # small, reviewable


def test_the_unchanged_page_and_benign_changes_replay(browser: Browser, server: LocalServer,
                                                      recorded: Path) -> None:
    # another moment (the clock outside the chart), two passes, the container moved 40 px
    for query in ("", "?twopass=1", "?shift=40"):
        task = run(browser, server, recorded, "replay", query)
        assert task.stats.replayed == 1, query


@pytest.mark.parametrize("query, what", [
    ("?bar=Mar:60", "a bar's height"),
    ("?color=%23c53030", "a colour"),
    ("?series=1", "a missing series"),
    ("?label=30", "a label moved"),
])
def test_visual_mutants_fail_with_three_pictures(browser: Browser, server: LocalServer,
                                                 recorded: Path, tmp_path: Path, query: str,
                                                 what: str) -> None:
    artifacts = tmp_path / "out"
    with pytest.raises(pytest.fail.Exception) as failed:
        run(browser, server, recorded, "replay", query, artifacts=artifacts)
    message = str(failed.value)
    assert f"Step 1 check({STATEMENT!r}), check 1: expected img \"Sales by month\"" in message, what
    assert "pixels differ" in message
    for name in ("expected", "actual", "diff"):
        path = artifacts / f"webtask-1-{name}.png"
        assert f"{name}: {path}" in message
        assert decode_png(path.read_bytes()).width == 360
    diff = decode_png((artifacts / "webtask-1-diff.png").read_bytes())
    red = sum(1 for k in range(0, len(diff.rgba), 4) if diff.rgba[k:k + 4] == b"\xff\x00\x00\xff")
    assert red > 20, what


def test_a_missing_baseline_fails_saying_what_to_do(browser: Browser, server: LocalServer,
                                                    recorded: Path) -> None:
    (recorded.parent / "test_chart.1-1.png").unlink()
    with pytest.raises(pytest.fail.Exception, match=r"the baseline picture .*test_chart.1-1.png"
                       r" cannot be read .*commit it with the recipe"):
        run(browser, server, recorded, "replay")


def test_a_box_inside_the_canvas_is_compared_alone(browser: Browser, server: LocalServer,
                                                   tmp_path: Path) -> None:
    recipe = tmp_path / "boxed.yaml"
    # the left half of the chart: Jan-Mar
    run(browser, server, recipe, "record", llm=SeeingLLM(cite_canvas(box=[0, 0, 0.5, 1])))
    shot = yaml.safe_load(recipe.read_text())["steps"][0]["checks"][0]["screenshot"]
    assert shot["size"] == [180, 220] and shot["box"] == [0, 0, 0.5, 1]
    run(browser, server, recipe, "replay", "?bar=Jun:70")  # outside the box: passes
    with pytest.raises(pytest.fail.Exception, match="pixels differ"):
        run(browser, server, recipe, "replay", "?bar=Feb:70")


def test_a_spinner_is_masked_and_the_rest_still_compared(browser: Browser,
                                                         server: LocalServer,
                                                         tmp_path: Path) -> None:
    recipe = tmp_path / "spinner.yaml"
    # unmasked, an animated spinner never lets the picture settle: the claim is refused
    with pytest.raises(pytest.fail.Exception, match="kept changing"):
        run(browser, server, recipe, "record", "?spinner=1",
            llm=SeeingLLM([{"message": "m", "complete": True, "evidence": [
                {"expect": "screenshot", "element": "canvas-0"}]}] * 3),
            max_llm_calls=3)
    mask = [[0.9, 0, 1, 0.1]]
    run(browser, server, recipe, "record", "?spinner=1", llm=SeeingLLM(cite_canvas(masks=mask)))
    for _ in range(2):
        run(browser, server, recipe, "replay", "?spinner=1")
    with pytest.raises(pytest.fail.Exception, match="pixels differ"):
        run(browser, server, recipe, "replay", "?spinner=1&series=1")


def test_a_model_that_sees_no_screenshots_cannot_cite_a_picture(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    claim = {"message": "m", "complete": True,
             "evidence": [{"expect": "screenshot", "element": "canvas-0"}]}
    llm = ScriptedLLM([claim] * 3)
    with pytest.raises(pytest.fail.Exception, match="needs a model that sees screenshots"):
        run(browser, server, tmp_path / "blind.yaml", "record", llm=llm, max_llm_calls=3)
    assert "## Pictures" not in llm.prompts[0]  # not offered to a blind model


def test_a_bad_box_is_refused_with_what_is_wrong(browser: Browser, server: LocalServer,
                                                 tmp_path: Path) -> None:
    llm = SeeingLLM(cite_canvas(box=[0.6, 0, 0.2, 1]))
    with pytest.raises(pytest.fail.Exception, match="left < right"):
        run(browser, server, tmp_path / "bad.yaml", "record", llm=llm, max_llm_calls=2)


def test_a_hand_edited_bad_box_is_a_clear_recipe_error(tmp_path: Path) -> None:
    from pytest_webtask.errors import RecipeError
    from pytest_webtask.recipes.storage import load_recipe
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump({"version": 3, "test": "t", "steps": [{
        "kind": "check", "text": "x", "checks": [{
            "expect": "screenshot", "element": {"tag": "canvas"},
            "screenshot": {"file": "t.png", "box": [0, 0, 2, 1]}}]}]}))
    with pytest.raises(RecipeError, match="fractions from 0 to 1"):
        load_recipe(path)


def test_twenty_unchanged_replays_have_no_false_failure(browser: Browser,
                                                        server: LocalServer,
                                                        recorded: Path) -> None:
    failures = 0
    for _ in range(20):
        try:
            run(browser, server, recorded, "replay")
        except pytest.fail.Exception:
            failures += 1
    assert failures == 0


def test_the_report_shows_expected_actual_and_diff_side_by_side(
        browser: Browser, server: LocalServer, recorded: Path, tmp_path: Path) -> None:
    import json

    from pytest_webtask.plugin.step_listeners import ReportListener
    from pytest_webtask.report.collect import ReportPart
    from pytest_webtask.report.html import render
    from pytest_webtask.settings import Settings
    from pytest_webtask.steps._sync.pipeline import Pipeline
    from pytest_webtask.steps._sync.webtask import WebTask
    from pytest_webtask.steps.services import TestInfo
    from pytest_webtask.steps.session import RecipeSession

    part = ReportPart("tests/test_visual.py::test_chart", tmp_path / "parts", lambda t: t)
    context = browser.new_context(viewport={"width": 800, "height": 600})
    pipeline = Pipeline(context.new_page(), RecipeSession(recorded, "test_chart"),
                        Settings(mode="replay", timeout=1), test=TestInfo(base_url=server.url),
                        listeners=[ReportListener(part)])
    task = WebTask(pipeline)
    try:
        task.goto("/chart?series=1")
        with pytest.raises(pytest.fail.Exception, match="pixels differ"):
            task.check(STATEMENT)
    finally:
        pipeline.finish(False)
        context.close()
    [fragment] = list((tmp_path / "parts").glob("*.json"))
    html = render([json.loads(fragment.read_text())])
    pictures = re.search(r"<div class='pictures'>(.*?)</div>", html)
    assert pictures is not None
    assert re.findall(r"<figcaption>(\w+)</figcaption>", pictures[1]) == [
        "expected", "actual", "diff"]
    assert pictures[1].count("src='data:image/png;base64,") == 3


def draw(browser: Browser, server: LocalServer, recipe: Path, mode: str, query: str = "",
         llm: ScriptedLLM | None = None) -> Any:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url, llm=llm,
                          test_name="test_draw", timeout=1.5) as task:
            task.goto("/draw" + query)
            task.do("draw a line from the top-left to the centre of the canvas")
    finally:
        context.close()
    return task


def test_a_drawing_records_and_replays_through_point_actions(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    recipe = tmp_path / "draw.yaml"
    llm = SeeingLLM([
        {"message": "An empty canvas", "complete": False, "actions": [{
            "tool": "point", "reason": "Drag from the top-left to the centre",
            "parameters": {"element_id": "canvas-0", "action": "drag", "x": 0.05, "y": 0.05,
                           "to_x": 0.5, "to_y": 0.5}}]},
        {"message": "A line is drawn", "complete": True, "evidence": [
            {"expect": "text", "text": "1 line(s) drawn"},
            {"expect": "screenshot", "element": "canvas-0", "text": "a line from the top-left "
             "to the centre"}]}])
    draw(browser, server, recipe, "record", llm=llm)
    assert "Tool: point" in llm.prompts[0]  # offered: the model sees the page
    step = yaml.safe_load(recipe.read_text())["steps"][0]
    [action] = step["actions"]
    assert action["tool"] == "point" and action["target"]["tag"] == "canvas"
    assert action["params"] == {"action": "drag", "x": 0.05, "y": 0.05, "to_x": 0.5,
                                "to_y": 0.5}
    picture = decode_png((recipe.parent / step["checks"][1]["screenshot"]["file"]).read_bytes())
    dark = sum(1 for k in range(0, len(picture.rgba), 4) if picture.rgba[k] < 100)
    assert dark > 300  # the line is in the baseline
    # the blank canvas before the step did not look so: the picture proves the step
    assert "held_before" not in step["checks"][1]
    assert draw(browser, server, recipe, "replay").stats.replayed == 1
    # the pad moved 40 px: the point follows the canvas, the picture is the same
    assert draw(browser, server, recipe, "replay", "?shift=40").stats.replayed == 1
    with pytest.raises(pytest.fail.Exception, match="pixels differ"):  # another ink
        draw(browser, server, recipe, "replay", "?ink=%23c53030")


def test_a_point_action_is_offered_only_to_a_model_that_sees(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    llm = ScriptedLLM([{"message": "m", "complete": False, "actions": [{
        "tool": "point", "parameters": {"element_id": "canvas-0", "x": 0.5, "y": 0.5}}]}] * 4)
    with pytest.raises(pytest.fail.Exception, match="point"):
        draw(browser, server, tmp_path / "blind.yaml", "record", llm=llm)
    assert "Tool: point" not in llm.prompts[0]
    assert "Tool: drag" in llm.prompts[0]


def test_a_drag_without_its_end_is_refused_with_the_reason() -> None:
    from pydantic import ValidationError

    from pytest_webtask.tools.params import PointParams
    with pytest.raises(ValidationError, match="a drag needs to_x and to_y"):
        PointParams(element_id="canvas-0", action="drag", x=0.1, y=0.1)
    with pytest.raises(ValidationError, match="less than or equal to 1"):
        PointParams(element_id="canvas-0", x=1.5, y=0.1)


def test_a_heal_keeps_a_new_picture_only_when_the_model_says_it_still_holds(
        browser: Browser, server: LocalServer, recorded: Path, monkeypatch: Any) -> None:
    monkeypatch.delenv("CI", raising=False)
    baseline = recorded.parent / "test_chart.1-1.png"
    before = baseline.read_bytes()
    # a new colour for the second series: the model shown both pictures says no
    no = SeeingLLM({"visual-heal": [{"holds": False, "reason": "the bars changed"}]})
    with pytest.raises(pytest.fail.Exception, match="the model says the statement no longer "
                       "holds: the bars changed"):
        run(browser, server, recorded, "auto", "?bar=Jan:35", llm=no, heal="on")
    assert baseline.read_bytes() == before
    [call] = no.calls
    assert len(call.context.images) == 2 and call.context.task == "March is the tallest bar"
    # the same change, the model says the statement still holds: the baseline is replaced
    yes = SeeingLLM({"visual-heal": [{"holds": True, "reason": "March is still tallest"}]})
    task = run(browser, server, recorded, "auto", "?bar=Jan:35", llm=yes, heal="on")
    assert task.stats.healed == 1
    [heal] = task.stats.heals
    assert "visual change of test_chart.1-1.png" in heal and "March is still tallest" in heal
    assert baseline.read_bytes() != before
    assert run(browser, server, recorded, "replay", "?bar=Jan:35").stats.replayed == 1
    # a model that sees no images is not asked
    with pytest.raises(pytest.fail.Exception, match="only by a model that sees images"):
        run(browser, server, recorded, "auto", "", llm=ScriptedLLM([]), heal="on")


def look_at_chart(context: ModelRequest) -> dict[str, Any]:
    """A ``do`` step that only scrolls, then cites the chart it did not change."""
    canvas = re.search(r"(canvas-\d+)", context.to_text())
    assert canvas, context.to_text()
    if context.step == 1:
        return {"message": "scroll", "complete": False, "actions": [{
            "tool": "scroll", "reason": "look", "parameters": {"direction": "down"}}]}
    return {"message": "done", "complete": True, "evidence": [
        {"expect": "screenshot", "element": canvas[1], "text": "March is the tallest bar"}]}


@pytest.mark.parametrize("query, held", [
    ("", True),
    ("?shift=1000", False),  # below the fold before the step: its pixels then are unknown
])
def test_a_picture_already_there_before_a_do_step_proves_nothing(
        browser: Browser, server: LocalServer, tmp_path: Path, query: str, held: bool) -> None:
    recipe = tmp_path / "look.yaml"
    context = browser.new_context(viewport={"width": 800, "height": 600})
    try:
        with open_webtask(context.new_page(), recipe, "record", base_url=server.url,
                          llm=SeeingLLM({"step": look_at_chart}), test_name="test_look",
                          timeout=1.5) as task:
            task.goto("/chart" + query)
            task.do("scroll down to the chart")
    finally:
        context.close()
    [check] = yaml.safe_load(recipe.read_text())["steps"][0]["checks"]
    assert check["expect"] == "screenshot"
    assert check.get("held_before", False) is held
    # held: named in the summary, nothing the step did is checked
    assert len(task.stats.weak) == int(held)


def test_a_suggested_visual_heal_writes_the_new_picture_for_review(
        browser: Browser, server: LocalServer, recorded: Path, monkeypatch: Any) -> None:
    monkeypatch.delenv("CI", raising=False)
    baseline = recorded.parent / "test_chart.1-1.png"
    before, recipe = baseline.read_bytes(), recorded.read_text()
    yes = SeeingLLM({"visual-heal": [{"holds": True, "reason": "March is still tallest"}]})
    task = run(browser, server, recorded, "auto", "?bar=Jan:35", llm=yes, heal="suggest")
    [heal] = task.stats.heals
    assert "proposed in test_chart.healed.yaml, test_chart.1-1.healed.png" in heal
    assert baseline.read_bytes() == before and recorded.read_text() == recipe  # untouched
    proposed = recorded.parent / "test_chart.1-1.healed.png"
    assert decode_png(proposed.read_bytes()).width == 360
    assert proposed.read_bytes() != before
    healed = yaml.safe_load((recorded.parent / "test_chart.healed.yaml").read_text())
    assert healed["steps"][0]["checks"][0]["screenshot"]["file"] == "test_chart.1-1.png"
    # accepted as the docs say (both renamed over the old ones): the new page replays
    with pytest.raises(pytest.fail.Exception, match="pixels differ"):
        run(browser, server, recorded, "replay", "?bar=Jan:35")
    proposed.replace(baseline)
    (recorded.parent / "test_chart.healed.yaml").replace(recorded)
    assert run(browser, server, recorded, "replay", "?bar=Jan:35").stats.replayed == 1
