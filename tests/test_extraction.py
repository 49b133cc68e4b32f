"""List-detail extraction (seed 003): recorded with ScriptedLLM, replayed with no LLM, and
compared with the demo app's own data source."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from playwright.sync_api import Browser

from example_suites.demo_shop import DemoShop
from example_suites.demo_shop.catalog import money
from pytest_webtask import WebTask
from pytest_webtask.llm.request import ModelRequest
from pytest_webtask.testing import ScriptedLLM, open_webtask

ROOT = Path(__file__).resolve().parent.parent
BODY = [{"type": "CLICK"}, {"type": "WAIT_FOR", "target": "details"},
        {"type": "EXTRACT_DETAILS"}, {"type": "SAVE", "as": "item"}, {"type": "MARK_DONE"}]
PAGED = [{"type": "WAIT_FOR", "target": "page"}, {"type": "WAIT_FOR", "target": "list"},
         {"type": "REPEAT", "body": [{"type": "FOR_EACH_ITEM_IN_LIST", "body": BODY},
                                     {"type": "CLICK_IF_EXISTS", "target": "next_page"},
                                     {"type": "WAIT_FOR", "target": "list"}]},
         {"type": "END"}]
MODAL_BODY = [*BODY, {"type": "CLOSE_DETAILS"}]
LOADED_MORE = [{"type": "WAIT_FOR", "target": "page"}, {"type": "WAIT_FOR", "target": "list"},
               {"type": "REPEAT", "body": [{"type": "FOR_EACH_ITEM_IN_LIST", "body": MODAL_BODY},
                                           {"type": "LOAD_MORE", "target": "load_more"}]},
               {"type": "END"}]
SCROLLED = [{"type": "WAIT_FOR", "target": "list"},
            {"type": "REPEAT", "body": [{"type": "FOR_EACH_ITEM_IN_LIST", "body": BODY},
                                        {"type": "SCROLL", "target": "page"}]},
            {"type": "END"}]


def strategy(item: str, panel: str, content: list[str], pagination: str = "none",
             generators: str = "None") -> dict:
    lines = "\n".join(f"  - `{c}`" for c in content)
    text = (f"## PAGE UNDERSTANDING\nA catalogue.\n\n## STRATEGY\n\n### VERIFIED SELECTORS\n"
            f"- LIST_ITEM: `{item}`\n- DETAILS_PANEL: `{panel}`\n- DETAILS_CONTENT:\n{lines}\n"
            f"- NEXT_PAGE_BUTTON: {pagination}\n\n### AUTOMATION PLAN\n1. Click each item.\n"
            f"2. NEEDED GENERATORS: {generators}")
    return {"reason": "done exploring", "strategy": text}


def tool(name: str, **args: str) -> dict:
    return {"reason": "look", "tool": name, "parameters": args}


VARIANTS: dict[str, dict[str, Any]] = {
    "panel": {
        "planner": [tool("probeClick", selector=".item-open"),
                    tool("describeElement", selector="aside#detail"),
                    tool("scrollAndObserve", target="page"),
                    strategy(".item-open", "aside#detail",
                             ["aside#detail .d-name", "aside#detail .d-price"],
                             "`a.next-page`")],
        "bindings": {"LIST_ITEM": ".item-open", "DETAILS_PANEL": "aside#detail",
                     "DETAILS_CONTENT": ["aside#detail .d-name"],
                     "CLICK_BEHAVIOR": "shows_panel", "NEXT_PAGE_BUTTON": "a.next-page",
                     "DETAILS_LOADED": {"exists": "aside#detail .d-name"},
                     "FIELDS": {"name": ".d-name", "price": ".d-price"}},
        "commands": PAGED,
    },
    "pages": {
        "planner": [tool("probeClick", selector=".item-link"),
                    tool("scrollAndObserve", target="page"),
                    strategy(".item-link", "article.product", ["h2.p-name", "span.p-price"],
                             "`a.next-page`")],
        "bindings": {"LIST_ITEM": ".item-link", "DETAILS_PANEL": "article.product",
                     "DETAILS_CONTENT": ["h2.p-name"], "CLICK_BEHAVIOR": "navigates",
                     "NEXT_PAGE_BUTTON": "a.next-page",
                     "FIELDS": {"name": ".p-name", "price": ".p-price"}},
        "commands": PAGED,
    },
    "inline": {
        "planner": [tool("probeClick", selector=".item-toggle"),
                    tool("describeElement", selector="div.item-more"),
                    tool("scrollAndObserve", target="page"),
                    strategy(".item-toggle", "div.item-more",
                             ["div.item-more .i-name", "div.item-more .i-price"],
                             "`a.next-page`")],
        "bindings": {"LIST_ITEM": ".item-toggle", "DETAILS_PANEL": "div.item-more",
                     "CLICK_BEHAVIOR": "inline", "NEXT_PAGE_BUTTON": "a.next-page",
                     "FIELDS": {"name": ".i-name", "price": ".i-price"}},
        "commands": PAGED,
    },
    "scroll": {
        "planner": [tool("probeClick", selector=".item-toggle"),
                    tool("scrollAndObserve", target="page"),
                    strategy(".item-toggle", "div.item-more", [])],
        "bindings": {"LIST_ITEM": ".item-toggle", "DETAILS_PANEL": "div.item-more",
                     "CLICK_BEHAVIOR": "inline",
                     "FIELDS": {"name": ".i-name", "price": ".i-price"}},
        "commands": SCROLLED,
    },
    "modal": {
        "planner": [tool("probeClick", selector="li.row"),
                    tool("describeElement", selector="div[role=dialog]"),
                    tool("scrollAndObserve", target="page"),
                    tool("probeClick", selector="button.load-more"),
                    strategy("li.row", "div[role=dialog]",
                             ["div[role=dialog] .m-name", "div[role=dialog] .m-close"],
                             "`button.load-more`")],
        "bindings": {"LIST_ITEM": "li.row", "DETAILS_PANEL": "div[role=dialog]",
                     "CLICK_BEHAVIOR": "shows_panel", "LOAD_MORE_BUTTON": "button.load-more",
                     "DETAILS_CLOSE": "div[role=dialog] .m-close",
                     "DETAILS_LOADED": {"exists": "div[role=dialog] .m-name"},
                     "FIELDS": {"name": ".m-name", "price": ".m-price"}},
        "commands": LOADED_MORE,
    },
}


class PhaseScript:
    """Replies by phase (the system prompt says which): planner turns, fragments, recipes."""

    def __init__(self, planner: list[Any], recipes: list[Any],
                 fragments: list[Any] | None = None) -> None:
        self.queues = {"planner": list(planner), "recipe": list(recipes),
                       "generator": list(fragments or [])}
        self.llm = ScriptedLLM(self)

    def __call__(self, context: ModelRequest) -> Any:
        if context.system.startswith("You explore"):
            kind = "planner"
        elif context.system.startswith("You turn"):
            kind = "recipe"
        else:
            kind = "generator"
        assert self.queues[kind], f"script ran out of {kind} replies"
        return self.queues[kind].pop(0)

    def prompts(self, start: str) -> list[str]:
        return [c.prompt for c in self.llm.calls if c.context.system.startswith(start)]


def script_for(variant: str) -> PhaseScript:
    v = VARIANTS[variant]
    return PhaseScript(v["planner"], [{"bindings": v["bindings"],
                                       "recipe": {"commands": v["commands"]}}])


def expected(shop: DemoShop, query: dict[str, str], max_items: int) -> list[dict[str, str]]:
    """What the app's own data source says the list holds, in order."""
    return [{"name": p.name, "price": money(p.price)}
            for p in shop.visible_products(query)][:max_items]


@pytest.fixture(scope="module")
def shop() -> Iterator[DemoShop]:
    with DemoShop(per_page=4) as running:
        yield running


def run(browser: Browser, shop: DemoShop, recipe: Path, mode: str, path: str,
        llm: Any = None, max_items: int = 50, artifacts: Path | None = None
        ) -> tuple[list[dict[str, Any]], WebTask]:
    context = browser.new_context()
    try:
        with open_webtask(context.new_page(), recipe, mode, base_url=shop.url, llm=llm,
                          artifacts=artifacts, timeout=2) as task:
            task.goto(path)
            items = task.extract("every product with name and price", max_items=max_items,
                                 fields=["name", "price"])
    finally:
        context.close()
    return items, task


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_record_then_replay_each_variant(browser: Browser, shop: DemoShop, tmp_path: Path,
                                         variant: str) -> None:
    """Each layout records, replays in full, and replays honouring ``max_items``."""
    shop.reset()
    recipe = tmp_path / "r.yaml"
    path = f"/catalog?view={variant}"
    script = script_for(variant)
    recorded, task = run(browser, shop, recipe, "record", path, script.llm)
    assert recorded == expected(shop, {}, 50)
    assert task.stats.llm_calls == len(VARIANTS[variant]["planner"]) + 1
    stored = yaml.safe_load(recipe.read_text())["steps"][0]
    assert stored["kind"] == "extract" and stored["extraction"]["fields"] == ["name", "price"]
    replayed, task = run(browser, shop, recipe, "replay", path)
    assert task.stats.llm_calls == 0 and task.stats.replayed == 1
    assert replayed == expected(shop, {}, 50) and len(replayed) == 13
    # the same recipe replayed with a smaller max_items stops there, across the page break
    # (4 per page)
    items, _ = run(browser, shop, recipe, "replay", path, max_items=5)
    assert items == expected(shop, {}, 5)


def test_sorted_list(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    shop.reset()
    recipe = tmp_path / "r.yaml"
    path = "/catalog?view=panel&sort=price_desc"
    run(browser, shop, recipe, "record", path, script_for("panel").llm)
    items, _ = run(browser, shop, recipe, "replay", path)
    assert items == expected(shop, {"sort": "price_desc"}, 50) and len(items) == 13


def test_filtered_list_on_one_page(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    """One page of results: no pagination to find, so the strategy must not cite any."""
    shop.reset()
    planner = list(VARIANTS["panel"]["planner"])
    planner[-1] = strategy(".item-open", "aside#detail", ["aside#detail .d-name"])
    bindings = {**VARIANTS["panel"]["bindings"], "NEXT_PAGE_BUTTON": None}
    script = PhaseScript(planner, [{"bindings": bindings, "recipe": {"commands": PAGED}}])
    recipe = tmp_path / "r.yaml"
    path = "/catalog?view=panel&category=Accessories&sort=price_asc"
    run(browser, shop, recipe, "record", path, script.llm)
    assert "No pagination controls found." in script.prompts("You explore")[-1]
    items, _ = run(browser, shop, recipe, "replay", path)
    assert items == expected(shop, {"category": "Accessories", "sort": "price_asc"}, 50)
    assert [i["name"] for i in items] == ["Wool Beanie", "Canvas Tote Bag", "Leather Belt"]


def test_search_generator_fragment(browser: Browser, shop: DemoShop, tmp_path: Path) -> None:
    shop.reset()
    planner = list(VARIANTS["panel"]["planner"])
    planner[-1] = strategy(".item-open", "aside#detail", ["aside#detail .d-name"],
                           "`a.next-page`", generators="SearchGenerator")
    script = PhaseScript(
        planner,
        [{"bindings": VARIANTS["panel"]["bindings"], "recipe": {"commands": PAGED}}],
        fragments=[{"fragment": [
            {"type": "FILL", "selector": "input[name=q]", "value": "linen"},
            {"type": "CLICK", "selector": "button.apply"},
            {"type": "WAIT_FOR", "target": "list"}]}])
    recipe = tmp_path / "r.yaml"
    recorded, _ = run(browser, shop, recipe, "record", "/catalog?view=panel", script.llm)
    assert recorded == expected(shop, {"q": "linen"}, 50) and len(recorded) == 2
    assert "You are the SearchGenerator" in script.llm.calls[len(planner)].prompt
    replayed, _ = run(browser, shop, recipe, "replay", "/catalog?view=panel")
    assert replayed == recorded


def test_unverified_selector_is_rejected_and_reasked(browser: Browser, shop: DemoShop,
                                                     tmp_path: Path) -> None:
    shop.reset()
    planner = list(VARIANTS["panel"]["planner"])
    guessed = strategy(".item-open", "aside#detail", ["aside#detail .d-name", ".price-tag"])
    planner.insert(-1, guessed)
    script = PhaseScript(planner, [{"bindings": VARIANTS["panel"]["bindings"],
                                    "recipe": {"commands": PAGED}}])
    items, _ = run(browser, shop, tmp_path / "r.yaml", "record", "/catalog?view=panel",
                   script.llm)
    assert len(items) == 13
    after = script.prompts("You explore")[len(planner) - 1]
    assert "REJECTED: these selectors were not verified by any tool call: `.price-tag`" in after


def test_list_item_matching_nothing_fails_hard(browser: Browser, shop: DemoShop,
                                               tmp_path: Path) -> None:
    shop.reset()
    recipe = tmp_path / "r.yaml"
    run(browser, shop, recipe, "record", "/catalog?view=panel", script_for("panel").llm)
    recipe.write_text(recipe.read_text().replace("LIST_ITEM: .item-open",
                                                 "LIST_ITEM: .item-gone"))
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, shop, recipe, "replay", "/catalog?view=panel")
    assert "Replay failed. Step 1 extract('every product with name and price'): The " \
           "LIST_ITEM binding '.item-gone' matches no visible item" in str(failure.value)


def test_one_broken_item_fails_the_replay_and_is_reported(browser: Browser, shop: DemoShop,
                                                          tmp_path: Path) -> None:
    shop.reset()
    recipe = tmp_path / "r.yaml"
    run(browser, shop, recipe, "record", "/catalog?view=panel", script_for("panel").llm)
    broken = shop.visible_products({})[2]
    shop.broken = {broken.id}
    report_dir = tmp_path / "out"
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, shop, recipe, "replay", "/catalog?view=panel", artifacts=report_dir)
    shop.reset()
    assert f"1 item(s) could not be read:\n  - '{broken.name}': DETAILS_LOADED" \
        in str(failure.value)
    report = json.loads((report_dir / "webtask-extract-1.json").read_text())
    assert report["skipped"] == [{"item": broken.name, "reason": report["skipped"][0]["reason"]}]
    assert [i["name"] for i in report["items"]] == [
        i["name"] for i in expected(shop, {}, 50) if i["name"] != broken.name]
    assert report["success"] is False and report["items_found"] == 12
    assert report["stopped_reason"] == "error" and "could not be read" in report["error"]


def test_session_report_holds_phases_and_recipe(browser: Browser, shop: DemoShop,
                                                tmp_path: Path) -> None:
    shop.reset()
    out = tmp_path / "out"
    run(browser, shop, tmp_path / "r.yaml", "record", "/catalog?view=panel",
        script_for("panel").llm, artifacts=out)
    report = json.loads((out / "webtask-extract-1.json").read_text())
    assert [p["phase"] for p in report["phase_outputs"]] == [
        "StrategyPlanner", "RecipeGenerator", "RecipeExecutor"]
    assert [c["tool"] for c in report["phase_outputs"][0]["tool_calls"]] == [
        "probeClick", "describeElement", "scrollAndObserve"]
    assert "appeared elsewhere on the page (a details panel or dialog)" in \
        report["phase_outputs"][0]["tool_calls"][0]["result"]
    assert report["discovered_bindings"]["LIST_ITEM"] == ".item-open"
    assert report["generated_recipe"]["commands"][0] == {"type": "WAIT_FOR", "target": "page"}
    assert report["stopped_reason"] == "complete" and report["items_found"] == 13


KILLED = """
import os, sys
sys.path.insert(0, {root!r})
from playwright.sync_api import sync_playwright
from example_suites.demo_shop import DemoShop
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.extraction._sync.extractor import Extractor
from pytest_webtask.extraction.log import ExtractionLog
from pytest_webtask.testing import ScriptedLLM, open_webtask
from tests.test_extraction import VARIANTS

planner = list(VARIANTS["panel"]["planner"])
def reply(ctx):
    if ctx.system.startswith("You turn"):
        os._exit(9)  # killed mid-way, in phase 3
    return planner.pop(0)

with DemoShop() as shop, sync_playwright() as p:
    page = p.chromium.launch(**launch_args()).new_page()
    page.goto(shop.url + "/catalog?view=panel")
    report = ExtractionLog(task="t", source_url=page.url, path={path!r})
    Extractor(page, ScriptedLLM(reply), report=report).run("every product", fields=["name"])
"""


def test_killed_run_leaves_a_readable_partial_report(tmp_path: Path,
                                                     python: Callable[..., Any]) -> None:
    """A process killed mid-way (no finally block runs): what was written stays readable."""
    path = tmp_path / "report.json"
    script = tmp_path / "killed.py"
    script.write_text(textwrap.dedent(KILLED.format(root=str(ROOT), path=str(path))))
    proc = python(str(script), timeout=120)
    assert proc.returncode == 9, proc.stderr[-2000:]
    report = json.loads(path.read_text())
    phases = {p["phase"]: p for p in report["phase_outputs"]}
    assert phases["StrategyPlanner"]["success"] is True
    assert "RecipeGenerator" in phases and phases["RecipeGenerator"]["success"] is False
    assert report["ended_at"] is None and report["strategy_planner_output"]


# -- load more + modal (issue 16): one recording, replayed against variants of the page -----

MODAL = "/catalog?view=modal"


@pytest.fixture(scope="module")
def modal_recipe(browser: Browser, shop: DemoShop, tmp_path_factory: pytest.TempPathFactory
                 ) -> Path:
    shop.reset()
    recipe = tmp_path_factory.mktemp("modal") / "r.yaml"
    items, task = run(browser, shop, recipe, "record", MODAL, script_for("modal").llm)
    assert items == expected(shop, {}, 50) and len(items) == 13
    return recipe


def replay_variant(browser: Browser, shop: DemoShop, recipe: Path, tmp_path: Path,
                   *variants: str, **kwargs: Any) -> tuple[list[dict[str, Any]], WebTask]:
    shop.reset()
    shop.variants.update(variants)
    copy = tmp_path / "r.yaml"
    copy.write_text(recipe.read_text())
    try:
        return run(browser, shop, copy, "replay", MODAL, **kwargs)
    finally:
        shop.reset()


def test_modal_recipe_stores_fingerprints_and_count(modal_recipe: Path) -> None:
    extraction = yaml.safe_load(modal_recipe.read_text())["steps"][0]["extraction"]
    assert extraction["recorded_items"] == 13
    targets = extraction["targets"]
    assert targets["LIST_ITEM"]["has"] == ["data-product-id"]
    assert targets["LIST_ITEM"]["parent"] == 'ul[aria-label="Products"]'
    assert targets["DETAILS_PANEL"]["role"] == "dialog"
    assert targets["LOAD_MORE_BUTTON"]["name"] == "Load more"  # matched with digits generalised
    assert targets["FIELDS.price"]["tag"] == "span"


@pytest.mark.parametrize("variants", [("rename_classes",), ("wrapper",), ("slow",),
                                      ("rename_classes", "slow"), ("disabled_at_end",)])
def test_modal_replay_survives_benign_changes(browser: Browser, shop: DemoShop,
                                              modal_recipe: Path, tmp_path: Path,
                                              variants: tuple[str, ...]) -> None:
    items, task = replay_variant(browser, shop, modal_recipe, tmp_path, *variants,
                                 artifacts=tmp_path / "out")
    assert items == expected(shop, {}, 50) and len(items) == 13
    assert task.stats.llm_calls == 0 and task.stats.replayed == 1
    if "rename_classes" in variants:
        logs = json.loads((tmp_path / "out" / "webtask-extract-1.json").read_text())["logs"]
        assert any(line.startswith("LIST_ITEM found by its fingerprint (attributes "
                                   "li[data-product-id])") for line in logs), logs


def fails(browser: Browser, shop: DemoShop, recipe: Path, tmp_path: Path, *variants: str,
          broken: set[int] | None = None, **kwargs: Any) -> str:
    shop.reset()
    shop.broken = set(broken or ())
    with pytest.raises(pytest.fail.Exception) as failure:
        replay_variant_keep_broken(browser, shop, recipe, tmp_path, variants, **kwargs)
    shop.reset()
    message = str(failure.value)
    assert message.startswith("Replay failed. Step 1 extract('every product with name and "
                              "price'): "), message
    return message


def replay_variant_keep_broken(browser: Browser, shop: DemoShop, recipe: Path, tmp_path: Path,
                               variants: tuple[str, ...], **kwargs: Any) -> None:
    shop.variants.update(variants)
    copy = tmp_path / "r.yaml"
    copy.write_text(recipe.read_text())
    run(browser, shop, copy, "replay", MODAL, **kwargs)


def test_modal_dead_row_fails_and_later_rows_still_read(browser: Browser, shop: DemoShop,
                                                        modal_recipe: Path,
                                                        tmp_path: Path) -> None:
    dead = shop.visible_products({})[1]
    message = fails(browser, shop, modal_recipe, tmp_path, broken={dead.id},
                    artifacts=tmp_path / "out")
    assert (f"1 item(s) could not be read:\n  - '{dead.name} {dead.category}': DETAILS_LOADED "
            "condition exists 'div[role=dialog] .m-name' not met within 2s\n") in message
    assert "allow it with extract(..., allow_skipped=N)" in message
    assert "(12 item(s) read before this, 1 skipped; 13 when recorded;" in message
    assert message.count("could not be read") == 1
    report = json.loads((tmp_path / "out" / "webtask-extract-1.json").read_text())
    # the failed row's modal was closed, so every later row was read
    assert [i["name"] for i in report["items"]] == [
        i["name"] for i in expected(shop, {}, 50) if i["name"] != dead.name]
    assert report["success"] is False and report["stopped_reason"] == "error"
    assert "could not be read" in report["error"]


def test_modal_dead_row_allowed(browser: Browser, shop: DemoShop, modal_recipe: Path,
                                tmp_path: Path) -> None:
    dead = shop.visible_products({})[1]
    shop.reset()
    shop.broken = {dead.id}
    copy = tmp_path / "r.yaml"
    copy.write_text(modal_recipe.read_text())
    context = browser.new_context()
    try:
        with open_webtask(context.new_page(), copy, "replay", base_url=shop.url,
                          timeout=2) as task:
            task.goto(MODAL)
            items = task.extract("every product with name and price", max_items=50,
                                 fields=["name", "price"], allow_skipped=1)
    finally:
        context.close()
        shop.reset()
    assert items == [i for i in expected(shop, {}, 50) if i["name"] != dead.name]


def test_modal_broken_load_more_fails(browser: Browser, shop: DemoShop, modal_recipe: Path,
                                      tmp_path: Path) -> None:
    message = fails(browser, shop, modal_recipe, tmp_path, "dead_load_more")
    assert "LOAD_MORE: clicked LOAD_MORE_BUTTON 'button.load-more' on " in message
    assert "but no more items arrived within 2s (still 4) and the control is still there" \
        in message
    assert "(4 item(s) read before this, 0 skipped; 13 when recorded)" in message


def test_modal_stale_details_fail(browser: Browser, shop: DemoShop, modal_recipe: Path,
                                  tmp_path: Path) -> None:
    second, third = shop.visible_products({})[1:3]
    message = fails(browser, shop, modal_recipe, tmp_path, "stale_details")
    assert f"'{third.name} {third.category}': the details still show the previous item's " \
           f"('{second.name}" in message
    assert "2s after clicking this one" in message


def test_modal_changed_row_markup_fails(browser: Browser, shop: DemoShop, modal_recipe: Path,
                                        tmp_path: Path) -> None:
    message = fails(browser, shop, modal_recipe, tmp_path, "row_markup")
    assert "The LIST_ITEM binding 'li.row' matches no visible item" in message
    assert "record again: pytest --webtask-record" in message


def edited(recipe: Path, tmp_path: Path, edit: Any) -> Path:
    data = yaml.safe_load(recipe.read_text())
    edit(data["steps"][0]["extraction"])
    copy = tmp_path / "edited" / "r.yaml"
    copy.parent.mkdir()
    copy.write_text(yaml.safe_dump(data, sort_keys=False))
    return copy


def test_click_if_exists_on_a_load_more_button_waits_for_it(browser: Browser, shop: DemoShop,
                                                            modal_recipe: Path,
                                                            tmp_path: Path) -> None:
    """The issue's crash: REPEAT + CLICK_IF_EXISTS on a button disabled while it loads and
    hidden at the end, with slow fetches. It now waits for the button and for the list."""
    def to_click_if_exists(extraction: dict[str, Any]) -> None:
        extraction["bindings"]["NEXT_PAGE_BUTTON"] = "button.load-more"
        extraction["recipe"]["commands"][2]["body"][1] = {"type": "CLICK_IF_EXISTS",
                                                          "target": "next_page"}
    recipe = edited(modal_recipe, tmp_path, to_click_if_exists)
    shop.reset()
    shop.variants.add("slow")
    try:
        items, task = run(browser, shop, recipe, "replay", MODAL)
    finally:
        shop.reset()
    assert items == expected(shop, {}, 50) and task.stats.llm_calls == 0


def test_playwright_error_becomes_an_extraction_error(browser: Browser, shop: DemoShop,
                                                      modal_recipe: Path,
                                                      tmp_path: Path) -> None:
    def fill_a_row(extraction: dict[str, Any]) -> None:
        extraction["recipe"]["commands"].insert(
            2, {"type": "FILL", "selector": "li.row", "value": "x"})
    recipe = edited(modal_recipe, tmp_path, fill_a_row)
    shop.reset()
    with pytest.raises(pytest.fail.Exception) as failure:
        run(browser, shop, recipe, "replay", MODAL, artifacts=tmp_path / "out")
    message = str(failure.value)
    assert message.startswith("Replay failed. Step 1 extract('every product with name and "
                              f"price'): FILL 'li.row' failed on {shop.url}{MODAL}: "), message
    assert "Error: Element is not an <input>" in message
    assert "_impl" not in message and "Traceback" not in message
    report = json.loads((tmp_path / "out" / "webtask-extract-1.json").read_text())
    assert report["success"] is False and report["stopped_reason"] == "error"
    assert report["error"].startswith("FILL 'li.row' failed on ")
    assert report["ended_at"] is not None


def test_planner_tools_show_attributes_and_a_growing_list(browser: Browser,
                                                          shop: DemoShop) -> None:
    from pytest_webtask.extraction._sync.extractor import PageTools

    shop.reset()
    page = browser.new_page()
    try:
        page.goto(shop.url + MODAL)
        tools = PageTools(page)
        outline = tools.outline()
        assert "li.row [data-product-id=4]" in outline
        assert "div.modal [role=dialog] [aria-modal=true] [aria-label=Product details]" \
            in outline
        grew = tools.probe_click("button.load-more")
        assert "4 more `li.row` appeared beside the ones already there: the list grew " \
               "(load more)" in grew
        assert "inline expansion" not in grew
        opened = tools.probe_click("li[data-product-id]")
        assert "`div.modal` appeared elsewhere on the page (a details panel or dialog)" \
            in opened
        described = tools.describe_element("div[role=dialog]")
        assert "`div[role=dialog] .m-close`: 'Close'" in described
        assert {"li[data-product-id]", "div[role=dialog] .m-close"} <= tools.verified
    finally:
        page.close()


def test_recipe_without_fingerprints_replays_by_css_alone(browser: Browser, shop: DemoShop,
                                                          modal_recipe: Path,
                                                          tmp_path: Path) -> None:
    """Recipes recorded before fingerprints still load and replay; a class rename then
    fails, which is what the fingerprints are for."""
    recipe = edited(modal_recipe, tmp_path, lambda extraction: extraction.pop("targets"))
    shop.reset()
    items, _ = run(browser, shop, recipe, "replay", MODAL)
    assert items == expected(shop, {}, 50)
    shop.variants.add("rename_classes")
    try:
        with pytest.raises(pytest.fail.Exception) as failure:
            run(browser, shop, recipe, "replay", MODAL)
    finally:
        shop.reset()
    assert "The LIST_ITEM binding 'li.row' matches no visible item" in str(failure.value)
