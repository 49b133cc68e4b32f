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


def SeeingLLM(script: Any) -> ScriptedLLM:  # noqa: N802 (reads as the class it stands in for)
    """A scripted stand-in for a model that takes screenshots (not a model)."""
    return ScriptedLLM(script, supports_images=True)


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
        statement: str = STATEMENT, **settings: Any) -> Any:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=server.url, llm=llm,
                          test_name="test_chart", artifacts=artifacts,
                          # recording waits for a stable picture: 5 s, as a loaded CI
                          # machine (load 9) took over 1.5 s; a replay that is to fail
                          # waits out its timeout, so replays keep 1.5 s
                          **{"timeout": 5.0 if mode == "record" else 1.5, **settings}) as task:
            task.goto("/chart" + query)
            task.check(statement)
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


def test_eight_unchanged_replays_have_no_false_failure(browser: Browser,
                                                       server: LocalServer,
                                                       recorded: Path) -> None:
    """A guard, not the measurement: ``bench/visual.py --runs N`` counts the false failures
    of many unchanged replays."""
    failures = 0
    for _ in range(8):
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


# -- a changed word: blobs ------------------------------------------------------------------

CLOCK_MASK = [[0.74, 0, 1, 0.09]]  # the clock=1 variant's clock, top right of the canvas


@pytest.fixture
def clocked(browser: Browser, server: LocalServer, tmp_path: Path) -> Path:
    """The chart with a ticking clock in its corner, recorded with the clock masked."""
    recipe = tmp_path / "__webtask__" / "test_visual" / "test_clock.yaml"
    run(browser, server, recipe, "record", "?clock=1",
        llm=SeeingLLM(cite_canvas(masks=CLOCK_MASK)))
    return recipe


@pytest.mark.parametrize("query, what", [
    ("?clock=1&month=Mar:May", "the tallest bar's label, Mar to May"),
    ("?clock=1&unit=k%E2%82%AC", "the axis unit, k$ to k€"),
])
def test_a_one_glyph_change_inside_the_canvas_fails(browser: Browser, server: LocalServer,
                                                     clocked: Path, tmp_path: Path,
                                                     query: str, what: str) -> None:
    # 0.03-0.10% of the picture's pixels: within the ratio, one compact patch of ink
    artifacts = tmp_path / "out"
    with pytest.raises(pytest.fail.Exception) as failed:
        run(browser, server, clocked, "replay", query, artifacts=artifacts, timeout=1)
    message = str(failed.value)
    assert "pixels differ (0.0" in message or "pixels differ (0.1" in message, what
    assert "in one" in message and "(a changed word or shape)" in message, message
    assert (artifacts / "webtask-1-diff.png").exists()


def test_benign_changes_pass_in_eight_replays(browser: Browser, server: LocalServer,
                                              clocked: Path) -> None:
    benign = ["?clock=1",  # the clock ticked on under its mask
              "?clock=1&aa=0.2",  # every edge and glyph anti-aliased differently
              "?clock=1&shift=40",  # the container moved
              "?clock=1&twopass=1"]  # drawn in two passes
    failures = []
    for n in range(8):  # each variant twice
        query = benign[n % len(benign)]
        try:
            run(browser, server, clocked, "replay", query)
        except pytest.fail.Exception as exc:
            failures.append(f"{query}: {exc}")
    assert failures == []


def test_anti_aliasing_is_no_blob_and_a_changed_glyph_is(browser: Browser) -> None:
    """The rule itself, on the chart's pictures: a sub-pixel shift of everything changes
    hundreds of pixels along every edge but none by over half the range; one glyph is one
    compact patch of such pixels."""
    from pytest_webtask.recipes.pixels import compare

    page = browser.new_page(viewport={"width": 800, "height": 600})
    url = (Path(__file__).parent / "pages" / "chart.html").as_uri()

    def picture(query: str) -> Any:
        page.goto(url + query)
        return decode_png(page.locator("canvas").screenshot(animations="disabled",
                                                              scale="css"))

    try:
        base = picture("")
        for query in ("?aa=0.1", "?aa=0.2", "?aa=0.3", "?aa=0.45"):
            assert compare(base, picture(query), blob_pixels=1).blob is None, query
        shifted = compare(base, picture("?aa=0.2"))
        assert shifted.different > 30 and shifted.matches(0.002)  # edges changed, no blob
        for query, least in (("?month=Mar:May", 10), ("?unit=k%E2%82%AC", 8),
                             ("?month=Jun:Jul", 30)):
            result = compare(base, picture(query))
            assert result.blob is not None and result.blob[0] >= least, (query, result)
            assert result.ratio <= 0.002 and not result.matches(0.002)
            assert compare(base, picture(query), blob_pixels=0).matches(0.002)  # rule off
    finally:
        page.close()


def test_a_mask_follows_its_region_when_it_moves_mid_replay(browser: Browser,
                                                            server: LocalServer,
                                                            clocked: Path) -> None:
    # a notice pushes the chart 40 px down after 0.3 s, the bars come 0.3 s later: the
    # clock's mask moves with the region (as the exported code's masks do), so the picture
    # settles and matches
    assert run(browser, server, clocked, "replay", "?clock=1&notice=40",
               timeout=4).stats.replayed == 1
    # the same move with a changed label: compared (not "never held still"), and fails
    with pytest.raises(pytest.fail.Exception) as failed:
        run(browser, server, clocked, "replay", "?clock=1&notice=40&month=Mar:May",
            timeout=2)
    assert "(a changed word or shape)" in str(failed.value), failed.value


def test_a_seeing_model_is_offered_picture_claims_in_the_check_question(
        browser: Browser, server: LocalServer, tmp_path: Path) -> None:
    seeing = SeeingLLM(cite_canvas())
    run(browser, server, tmp_path / "seeing.yaml", "record", llm=seeing)
    assert seeing.supports_images
    question = seeing.calls[0].context.task
    assert question.startswith("Check whether this statement about the current page is "
                               f"true: {STATEMENT}\n")
    assert 'cite a picture claim instead: {"expect": "screenshot"' in question
    # the recipe keeps the statement, not the question
    assert yaml.safe_load((tmp_path / "seeing.yaml").read_text())["steps"][0]["text"] == \
        STATEMENT
    blind = ScriptedLLM([{"message": "m", "complete": True, "evidence": [
        {"expect": "text", "text": "Quarterly sales"}]}])
    assert not blind.supports_images
    run(browser, server, tmp_path / "blind.yaml", "record", llm=blind,
        statement="the page is titled Quarterly sales")
    assert "picture claim" not in blind.calls[0].context.task
    assert "screenshot" not in blind.calls[0].context.task


DASHBOARD = """<!doctype html><meta charset="utf-8"><title>Dashboard</title>
<h1>Dashboard</h1>
<section aria-label="Revenue by month"><h2>Revenue</h2>
<svg width="240" height="100" role="presentation"><polyline points="0,90 60,40 120,60 180,10"
 stroke="#2b6cb0" stroke-width="3" fill="none"/></svg></section>
<section aria-label="Costs by month"><h2>Costs</h2>
<svg width="240" height="100" role="presentation"><rect x="10" y="40" width="40" height="60"
 fill="#dd6b20"/></svg></section>"""


def test_a_named_section_exports_by_role_and_name(browser: Browser, server: LocalServer,
                                                  tmp_path: Path) -> None:
    from pytest_webtask.export.locators import locator
    from pytest_webtask.export.source import Strings
    from pytest_webtask.types import Fingerprint

    server.pages["/dashboard"] = DASHBOARD
    recipe = tmp_path / "dash.yaml"
    llm = SeeingLLM([{"message": "m", "complete": True, "evidence": [{
        "expect": "screenshot", "element": "section-0", "text": "revenue rises"}]}])
    page = browser.new_page(viewport={"width": 800, "height": 600})
    try:
        with open_webtask(page, recipe, "record", base_url=server.url, llm=llm,
                          test_name="test_dash", timeout=1.5) as task:
            task.goto("/dashboard")
            task.check("the revenue chart rises")
        fp = Fingerprint.model_validate(
            yaml.safe_load(recipe.read_text())["steps"][0]["checks"][0]["element"])
        found = locator(fp, Strings({}))
        assert found == "page.get_by_role('region', name='Revenue by month', exact=True)"
        assert eval(found, {"page": page}).count() == 1  # Playwright finds that one section
    finally:
        page.close()
