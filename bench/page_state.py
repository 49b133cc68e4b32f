"""Page-state size and build time, beside Playwright's aria snapshot, in the same run.

    .venv/bin/python bench/page_state.py [--repeat 9]

Pages: a generated shop page of about 5,000 elements, a table with 3,000 interactive
elements, and seed 001's price form. For each: characters of output, median milliseconds to
build it, and how many interactive elements (a, button, input, select, textarea) got an id,
all with no size budget. Then the 3,000-element table with the default budget (40,000
characters): what one step's page state costs at the top and in the middle of the page, and
how many tool calls it takes to get each interactive element's id shown to the model
(0: in the page state; 1: one ``find`` with its row's text returns it). Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from pytest_webtask.browser._sync.llm_browser import LLMBrowser
from pytest_webtask.browser.chromium import launch_args
from pytest_webtask.browser.script import COLLECTOR_JS, compact
from pytest_webtask.defaults import PAGE_CHARS

ROOT = Path(__file__).resolve().parent.parent

SEED_FORM = """<html><body><div><form>
<label aria-label="Price">Price</label>
<input type="text" name="price" placeholder="Enter price">
<button type="submit">Submit</button></form></div></body></html>"""


def big_page(cards: int = 250) -> str:
    items = []
    for i in range(cards):
        items.append(
            f'<div class="card"><div class="media"><img alt="Product {i}" src="data:,"></div>'
            f'<div class="body"><h3><a href="/p/{i}">Product {i}</a></h3>'
            f'<p class="desc">A fine product number {i}, in <span>blue</span> and '
            f'<span>green</span>.</p><div class="price"><span>$</span><span>{i}.99</span></div>'
            f'<div class="row"><label>Qty <input type="number" name="q{i}" value="1"></label>'
            f'<select name="s{i}"><option>S</option><option>M</option></select>'
            f'<button>Add to cart</button></div></div></div>'
        )
    nav = "".join(f'<li><a href="/c/{c}">Category {c}</a></li>' for c in range(20))
    return (f"<html><body><header><nav><ul>{nav}</ul></nav></header>"
            f"<main><h1>Shop</h1><section class='grid'>{''.join(items)}</section></main>"
            "</body></html>")


def big_table(rows: int = 1000) -> str:
    """3 interactive elements a row (a link, a checkbox, a button): 3,000 for 1,000 rows."""
    body = "".join(
        f'<tr><td><a href="/t/{i}">Ticket {i}</a></td><td>Owner {i % 7}</td>'
        f'<td><label>Done <input type="checkbox" name="d{i}"></label></td>'
        f"<td><button>Close ticket {i}</button></td></tr>" for i in range(rows))
    return f"<html><body><h1>Tickets</h1><table><tbody>{body}</tbody></table></body></html>"


def text_cards(cards: int = 1000) -> str:
    """Articles of text with one link each: 3,000 elements, mostly text."""
    return "<html><body><main>" + "".join(
        f"<article><h2>Story {i}</h2><p>Some words about story {i}, long enough to wrap "
        f"once or twice on a page, with <b>bold</b> and <i>slanted</i> parts.</p>"
        f'<a href="/s/{i}">Read story {i}</a></article>' for i in range(cards)
    ) + "</main></body></html>"


def big_form(rows: int = 1000) -> str:
    """A labelled field, a dropdown and a hint a row: 3,000 fields and labels."""
    return "<html><body><form>" + "".join(
        f'<div class="row"><label for="f{i}">Field {i}</label><input id="f{i}" name="f{i}">'
        f'<select name="s{i}"><option>Yes</option><option>No</option></select>'
        f'<small>Hint {i}</small></div>' for i in range(rows)
    ) + "<button>Save</button></form></body></html>"


def aria_widgets(items: int = 1000) -> str:
    """Script-made controls: divs with roles and tabindex, menus, tabs, switches."""
    return "<html><body>" + "".join(
        f'<div role="group" aria-label="Group {i}">'
        f'<div role="button" tabindex="0">Action {i}</div>'
        f'<div role="switch" aria-checked="{str(i % 2 == 0).lower()}" tabindex="0">Switch {i}'
        f'</div><div role="tab" aria-selected="false" tabindex="-1">Tab {i}</div></div>'
        for i in range(items)
    ) + "</body></html>"


def deep_tree(items: int = 600) -> str:
    """Links and buttons five wrappers deep, as component libraries render them."""
    wrap = "<div><div><span><div><div>{}</div></div></span></div></div>"
    return "<html><body>" + "".join(
        wrap.format(f'<a href="/d/{i}">Item {i}</a><button>Edit {i}</button>')
        for i in range(items)
    ) + "</body></html>"


def stylesheet(rules: int = 400) -> str:
    """A stylesheet as a real app ships one: ``rules`` rules of classes, states and media
    queries, a tenth of them ``:hover`` rules (menus and row actions shown on hover)."""
    out = []
    for i in range(rules):
        kind = i % 10
        if kind == 0:
            out.append(f".menu-{i % 40}:hover .submenu-{i % 40} {{ display: block; }}")
        elif kind == 1:
            out.append(f".row:hover .action-{i % 25} {{ visibility: visible; }}")
        elif kind == 2:
            out.append(f"@media (min-width: {600 + i}px) {{ .col-{i} {{ width: {i % 90}%; }} }}")
        elif kind == 3:
            out.append(f".btn-{i}:focus, .btn-{i}:active {{ outline: 2px solid #{i % 999:03d}; }}")
        elif kind == 4:
            out.append(f"nav ul li.item-{i} > a[href^='/c'] {{ color: #{i % 999:03d}; }}")
        else:
            out.append(f".c-{i} {{ margin: {i % 7}px; padding: {i % 5}px; font-size: "
                       f"{12 + i % 6}px; }}")
    return "\n".join(out)


def styled_app(rows: int = 500) -> str:
    """A page of a real app: a 400-rule stylesheet, a menu bar whose submenus show on hover,
    table rows whose actions show on hover, and a custom element with a shadow root (its own
    <style> and a hover rule) in every row: about 3,000 elements, 1,500 interactive."""
    menus = "".join(
        f'<li class="menu menu-{m}"><a href="/m/{m}">Menu {m}</a><ul class="submenu '
        f'submenu-{m}">' + "".join(f'<li><a href="/m/{m}/{k}">Item {m}.{k}</a></li>'
                                     for k in range(4)) + "</ul></li>" for m in range(10))
    body = "".join(
        f'<tr class="row"><td><a href="/t/{i}">Ticket {i}</a></td><td class="c-{i % 400}">'
        f'Owner {i % 7}</td><td><row-tag label="Tag {i}"></row-tag></td>'
        f'<td><button class="btn-{i % 400}">Open {i}</button>'
        f'<button class="action action-{i % 25}">Delete {i}</button></td></tr>'
        for i in range(rows))
    component = """<script>
customElements.define('row-tag', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>.tag { padding: 2px; } .tag:hover .x { display: inline; }' +
      ' .x { display: none; }</style><span class="tag"><b>' + this.getAttribute('label') +
      '</b><button class="x">Remove</button></span>';
  }
});
</script>"""
    return (f"<html><head><style>{stylesheet()}\n.submenu {{ display: none; }}\n"
            ".action { visibility: hidden; }</style></head><body>"
            f"<nav><ul>{menus}</ul></nav><main><h1>Tickets</h1><table><tbody>{body}"
            f"</tbody></table></main>{component}</body></html>")


def median_ms(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    fn()  # warm-up
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), out


def measure(page: Page, html: str, name: str, repeat: int) -> list[str]:
    """Ours unbudgeted and with the default budget (what one step costs), beside the aria
    snapshot, alternating in one loop so that the machine's noise falls on all three."""
    page.set_content(html)
    elements = page.evaluate("document.querySelectorAll('*').length")
    interactive = page.evaluate(
        "document.querySelectorAll('a[href],button,input,select,textarea').length")
    whole = LLMBrowser(page, page_chars=10_000_000)
    step = LLMBrowser(page, page_chars=PAGE_CHARS)
    runs: dict[str, Callable[[], object]] = {
        "page state": whole.read, "page state, default budget": step.read,
        "aria_snapshot": lambda: page.locator("body").aria_snapshot()}
    times: dict[str, list[float]] = {k: [] for k in runs}
    outs: dict[str, object] = {k: fn() for k, fn in runs.items()}  # warm-up
    for _ in range(repeat):
        for k, fn in runs.items():
            t0 = time.perf_counter()
            outs[k] = fn()
            times[k].append((time.perf_counter() - t0) * 1000)
    ms = {k: statistics.median(v) for k, v in times.items()}
    chars = {k: len(getattr(o, "text", None) or str(o)) for k, o in outs.items()}
    ids = len(outs["page state"].elements)  # type: ignore[attr-defined]
    aria_ms, aria_chars = ms["aria_snapshot"], chars["aria_snapshot"]
    return [
        f"| {name} ({elements} elements) | page state | {chars['page state']:,} | "
        f"{ms['page state']:.1f} | {ids} / {interactive} | {os.getloadavg()[0]:.2f} |",
        f"| | page state, default budget | {chars['page state, default budget']:,} | "
        f"{ms['page state, default budget']:.1f} | | |",
        f"| | aria_snapshot | {aria_chars:,} | {aria_ms:.1f} | (no ids) | |",
        f"| | ratio ours/aria (whole; budget) | {chars['page state'] / aria_chars:.2f} | "
        f"{ms['page state'] / aria_ms:.2f}; {ms['page state, default budget'] / aria_ms:.2f}"
        " | | |",
    ]


def reachability(page: Page, budget: int = PAGE_CHARS) -> list[str]:
    """Tool calls to get each interactive element's id in front of the model."""
    page.set_content(big_table())
    browser = LLMBrowser(page, page_chars=budget)
    top_ms, top = median_ms(browser.read, 5)
    shown = set(re.findall(r"- (?:\w+ > )*([a-z]+-\d+)", top.text))  # type: ignore[attr-defined]
    ids = list(top.elements)  # type: ignore[attr-defined]
    interactive = page.evaluate(
        "document.querySelectorAll('a[href],button,input,select,textarea').length")
    by_find, find_chars, t0 = 0, [], time.perf_counter()
    for row in range(1000):
        found = page.evaluate(COLLECTOR_JS, {"op": "find", "text": f"Ticket {row}",
                                              "role": "", "limit": 20})
        lines = "\n".join(found["lines"])
        find_chars.append(len(lines))
        mine = {f"a-{row}", f"input-{row}", f"button-{row}"}
        by_find += sum(1 for i in mine if f"- {i} " in lines or f"- {i}(" in lines)
    find_ms = (time.perf_counter() - t0) * 1000 / 1000
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    middle = browser.read()
    return [
        "| what | value |",
        "| --- | ---: |",
        f"| interactive elements / with an id | {interactive} / {len(ids)} |",
        f"| page state at the top: characters / median ms | {len(top.text):,} / "  # type: ignore[attr-defined]
        f"{top_ms:.1f} |",
        f"| page state in the middle: characters | {len(middle.text):,} |",
        f"| ids shown in the first page state (0 tool calls) | {len(shown & set(ids))} |",
        f"| ids returned by find(row text) (1 call, then the action) | {by_find} / "
        f"{interactive} |",
        f"| find output: max characters / mean ms | {max(find_chars):,} / {find_ms:.1f} |",
    ]


def baseline_script(rev: str) -> str:
    """The collector as sent at git revision ``rev`` (collector.js, or its modules)."""
    def show(path: str) -> str:
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout

    try:
        return compact(show("pytest_webtask/browser/collector.js"))
    except subprocess.CalledProcessError:
        scope: dict[str, object] = {"SHOW": show, "__name__": "baseline"}
        exec(show("pytest_webtask/browser/script.py").split("\nSOURCE = ")[0]  # noqa: S102
             .replace("resources.files(\"pytest_webtask.browser\").joinpath(\n        "
                      "\"collector\", f\"{name}.js\").read_text(encoding=\"utf-8\")",
                      "SHOW(f\"pytest_webtask/browser/collector/{name}.js\")"), scope)
        return compact(scope["assemble"]())  # type: ignore[operator]


PAGES: dict[str, Callable[[], str]] = {
    "app with a 400-rule stylesheet, hover menus, shadow roots": lambda: styled_app(),
    "generated shop": lambda: big_page(),
    "3,000-element table": lambda: big_table(),
    "seed 001 form": lambda: SEED_FORM,
    "3,000 elements of text cards": lambda: text_cards(),
    "3,000-field form": lambda: big_form(),
    "3,000 ARIA widgets": lambda: aria_widgets(),
    "links 5 wrappers deep": lambda: deep_tree(),
}


def against(page: Page, html: str, name: str, old_js: str, repeat: int) -> list[str]:
    """The page state now (``LLMBrowser.read``, installed once per document) beside the
    baseline's script (one ``evaluate`` of it, as reads were made) and the aria snapshot, in
    one alternating loop; the text and the ids must be the same."""
    page.set_content(html)
    now = LLMBrowser(page, page_chars=PAGE_CHARS)

    def old() -> dict[str, object]:
        return dict(json.loads(page.evaluate(old_js, {"op": "collect", "maxChars": PAGE_CHARS,
                                                      "secrets": [], "json": True})))

    runs: dict[str, Callable[[], object]] = {
        "now": now.read, "baseline": old,
        "aria": lambda: page.locator("body").aria_snapshot()}
    outs = {k: fn() for k, fn in runs.items()}
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeat):
        for k, fn in runs.items():
            t0 = time.perf_counter()
            outs[k] = fn()
            times[k].append((time.perf_counter() - t0) * 1000)
    ms = {k: statistics.median(v) for k, v in times.items()}
    got, was = outs["now"], outs["baseline"]
    same = got.text == was["text"] and set(got.elements) == set(was["elements"])  # type: ignore
    return [f"| {name} | {ms['baseline']:.1f} | {ms['now']:.1f} | {ms['aria']:.1f} | "
            f"{ms['baseline'] / ms['aria']:.2f} | {ms['now'] / ms['aria']:.2f} | "
            f"{ms['now'] / ms['baseline']:.2f} | {'yes' if same else '**NO**'} | "
            f"{os.getloadavg()[0]:.2f} |"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--baseline", metavar="REV",
                        help="only the default-budget page state, now against the collector "
                             "at this git revision (and the aria snapshot), per page")
    parser.add_argument("-k", dest="k", default="", help="only pages whose name holds this")
    args = parser.parse_args()
    print(f"1-minute load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    if args.baseline:
        old_js = baseline_script(args.baseline)
        rows = [f"page state with the default budget: now against {args.baseline}, median "
                f"ms of {args.repeat}, one alternating loop per page", "",
                "| page | baseline ms | now ms | aria ms | baseline/aria | now/aria | "
                "now/baseline | same text and ids | load |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_args())
            page = browser.new_page()
            for name, make in PAGES.items():
                if args.k.lower() in name.lower():
                    rows += against(page, make(), name, old_js, args.repeat)
                    print(rows[-1], flush=True)
            browser.close()
        print("\n".join(rows))
        return
    rows = ["| page | what | characters | median ms | ids / interactive | load |",
            "| --- | --- | ---: | ---: | --- | ---: |"]
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args())
        page = browser.new_page()
        for name, make in PAGES.items():
            if args.k.lower() in name.lower():
                rows += measure(page, make(), name, args.repeat)
        rows += ["", "3,000-element table, default budget (40,000 characters):", ""]
        rows += reachability(page)
        browser.close()
    print("\n".join(rows))


if __name__ == "__main__":
    main()
