"""Visual checks, measured: mutants killed, false failures, and what a compare costs.

Records two checks on ``tests/pages/chart.html`` with a scripted stand-in for a model that
sees screenshots (not a model: it cites the canvas, as a model would be asked to): a
``screenshot`` check of the chart, and a DOM ``text`` check of its heading, the baseline.
Then, with no model:

- replays the chart check on each mutant (a bar's height, a colour, a missing series, a
  label moved) and each benign change (another moment, two passes, container moved 40 px),
  and ``--runs`` times on the unchanged page;
- times one ``run_checks`` of each check on the unchanged page (median of ``--runs``), and
  the pixel comparison alone (decode + compare) of a mutant's picture, the path a replay
  takes when the bytes differ.

Every figure is printed with the load average (``uptime``) taken beside it.

    python -m bench.visual [--runs 20]
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from pytest_webtask.browser._sync.pictures import region, shoot
from pytest_webtask.browser.chromium import find_chromium
from pytest_webtask.errors import PictureMismatch
from pytest_webtask.recipes._sync.replayer import Replayer
from pytest_webtask.recipes.pixels import compare, decode_png
from pytest_webtask.recipes.storage import load_recipe
from pytest_webtask.testing import ScriptedLLM, open_webtask

MUTANTS = {"a bar's height": "?bar=Mar:60", "a colour": "?color=%23c53030",
           "a missing series": "?series=1", "a label moved": "?label=30"}
BENIGN = {"another moment": "", "two passes": "?twopass=1", "container moved 40 px": "?shift=40"}


PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


class PageServer:
    """tests/pages on loopback (``/chart`` is ``chart.html``)."""

    def __init__(self) -> None:
        handler = functools.partial(Quiet, directory=str(PAGES))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()


class SeeingScript(ScriptedLLM):
    supports_images = True


def load() -> str:
    return "load " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def record(page: Page, url: str, recipe: Path) -> None:
    llm = SeeingScript([
        {"message": "chart", "complete": True, "evidence": [
            {"expect": "screenshot", "element": "canvas-0", "text": "March is the tallest"}]},
        {"message": "heading", "complete": True, "evidence": [
            {"expect": "text", "text": "Quarterly sales"}]}])
    with open_webtask(page, recipe, "record", base_url=url, llm=llm, test_name="bench") as t:
        t.goto("/chart.html")
        t.check("the chart shows March as the tallest bar")
        t.check("the heading says Quarterly sales")


def replay(page: Page, url: str, recipe: Path, query: str) -> str:
    """"" when the chart check holds, else the first line of its failure."""
    steps = load_recipe(recipe)
    assert steps is not None
    page.goto(url + "/chart.html" + query)
    replayer = Replayer(page, base_url=url, timeout_ms=1500, baselines=recipe.parent)
    try:
        replayer.run_checks(steps.steps[0].checks, "chart")
    except PictureMismatch as exc:
        return str(exc).splitlines()[1].strip()
    return ""


def timed(page: Page, url: str, recipe: Path, index: int, runs: int) -> float:
    steps = load_recipe(recipe)
    assert steps is not None
    page.goto(url + "/chart.html")
    replayer = Replayer(page, base_url=url, timeout_ms=1500, baselines=recipe.parent)
    checks = steps.steps[index].checks
    replayer.run_checks(checks, "warm-up")
    ms = []
    for _ in range(runs):
        start = time.perf_counter()
        replayer.run_checks(checks, "timed")
        ms.append((time.perf_counter() - start) * 1000)
    return statistics.median(ms)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    server = PageServer()
    out: dict[str, Any] = {}
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=find_chromium(True))
        page = browser.new_page(viewport={"width": 800, "height": 600})
        recipe = Path(tmp) / "bench.yaml"
        record(page, server.url, recipe)
        killed = {what: replay(page, server.url, recipe, q) for what, q in MUTANTS.items()}
        print(f"mutants killed: {sum(bool(v) for v in killed.values())}/{len(killed)}  "
              f"({load()})")
        for what, why in killed.items():
            print(f"  {what}: {why or 'NOT KILLED'}")
        benign = {what: replay(page, server.url, recipe, q) for what, q in BENIGN.items()}
        print(f"benign changes failed: {sum(bool(v) for v in benign.values())}/{len(benign)}  "
              f"({load()})")
        unchanged = [replay(page, server.url, recipe, "") for _ in range(args.runs)]
        print(f"unchanged replays failed: {sum(bool(v) for v in unchanged)}/{args.runs}  "
              f"({load()})")
        visual = timed(page, server.url, recipe, 0, args.runs)
        print(f"run_checks, screenshot check (unchanged page): {visual:.1f} ms median  "
              f"({load()})")
        text = timed(page, server.url, recipe, 1, args.runs)
        print(f"run_checks, DOM text check: {text:.1f} ms median  ({load()})")
        print(f"ratio screenshot/text: {visual / text:.1f}")
        # the pixel comparison alone, when the bytes differ (a mutant's picture)
        steps = load_recipe(recipe)
        assert steps is not None and steps.steps[0].checks[0].screenshot is not None
        expected_png = (recipe.parent / steps.steps[0].checks[0].screenshot.file).read_bytes()
        page.goto(server.url + "/chart.html?bar=Mar:60")
        actual_png = shoot(page, region(page.locator("canvas"), None, 1500))
        ms = []
        for _ in range(max(3, args.runs // 4)):
            start = time.perf_counter()
            result = compare(decode_png(expected_png), decode_png(actual_png))
            ms.append((time.perf_counter() - start) * 1000)
        print(f"decode + compare of a changed 360x220 picture: {statistics.median(ms):.1f} ms "
              f"median ({result.describe()})  ({load()})")
        out = {"killed": killed, "benign": benign, "unchanged_failed":
               sum(bool(v) for v in unchanged), "visual_ms": visual, "text_ms": text}
        browser.close()
    server.stop()
    return out


if __name__ == "__main__":
    main()
