"""The catalogue pages: one list shown in every layout an extraction must handle.

    /catalog?view=panel    click an item, its details load (fetch) into a side panel
    /catalog?view=pages    each item links to its own page, /catalog/item/<id>
    /catalog?view=inline   click an item, its details expand in place
    /catalog?view=scroll   inline items, more load as you scroll (no pagination)
    /catalog?view=modal    rows behind a "Load more" button (disabled while it loads, gone
                           at the end); a row opens its details (fetch) in a modal dialog
                           over the page, closed by its Close button or Escape

Panel, pages and inline paginate; all take the list page's q (search), category and sort.
``broken`` product ids fail to load their details (HTTP 500), for soft-failure tests.
The modal view also follows the shop's variants: rename_classes, wrapper, slow (every
fetch takes 0.4 s) and disabled_at_end (Load more stays, disabled, at the end) are benign; dead_load_more (the button does nothing), stale_details
(the third row shows the previous row's details) and row_markup (rows are plain divs
without their data attribute) are breaking.
"""

from __future__ import annotations

import html
import json
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from .data import Product

if TYPE_CHECKING:
    from .app import DemoShop

VIEWS = ("panel", "pages", "inline", "scroll", "modal")


def money(value: float) -> str:
    return f"${value:,.2f}"


def product_json(p: Product) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "price": money(p.price), "category": p.category,
            "description": p.description}


def details_html(p: Product, prefix: str) -> str:
    return (f'<h2 class="{prefix}-name">{html.escape(p.name)}</h2>'
            f'<p>Price: <span class="{prefix}-price">{money(p.price)}</span></p>'
            f'<p>Category: <span class="{prefix}-category">{p.category}</span></p>'
            f'<p class="{prefix}-description">{html.escape(p.description)}</p>')


def catalog_page(shop: DemoShop, query: dict[str, str]) -> tuple[int, str]:
    view = query.get("view", "panel")
    if view not in VIEWS:
        view = "panel"
    items = shop.visible_products(query)
    per = shop.per_page
    pages = max(1, -(-len(items) // per))
    page = min(max(1, int(query.get("page", "1") or 1)), pages)
    shown = items[:per] if view in ("scroll", "modal") else \
        items[(page - 1) * per : page * per]
    rows = "".join(item_html(p, view, shop) for p in shown)
    filters = (
        '<form method="get" action="/catalog" class="filters">'
        f'<input type="hidden" name="view" value="{view}">'
        f'<input type="search" name="q" aria-label="Search" placeholder="Search" '
        f'value="{html.escape(query.get("q", ""))}">'
        '<select name="category" aria-label="Category"><option value="">All</option>'
        + "".join(f'<option{" selected" if query.get("category") == c else ""}>{c}</option>'
                  for c in sorted({p.category for p in shop.products}))
        + '</select><select name="sort" aria-label="Sort">'
        + "".join(f'<option value="{k}"{" selected" if query.get("sort") == k else ""}>{v}'
                  "</option>" for k, v in (("name", "Name"), ("price_asc", "Cheapest"),
                                           ("price_desc", "Dearest")))
        + '</select><button class="apply">Apply</button></form>')
    nav = ""
    if view not in ("scroll", "modal") and page < pages:
        rest = {k: v for k, v in query.items() if k != "page"}
        nav = (f'<a class="next-page" href="/catalog?{urlencode({**rest, "page": page + 1})}">'
               "Next page</a>")
    aside = '<aside id="detail" hidden></aside>' if view == "panel" else ""
    script = {"panel": PANEL_JS, "inline": INLINE_JS, "scroll": INLINE_JS + SCROLL_JS}.get(
        view, "")
    data = json.dumps({"total": len(items), "per": per,
                       "query": {k: v for k, v in query.items() if k in ("q", "category", "sort")}})
    items_list = f'<ul class="items" data-catalog=\'{html.escape(data)}\'>{rows}</ul>'
    if view == "modal":
        items_list, aside, script = modal_parts(shop, data, rows, len(shown) < len(items))
    body = (f'<section><h1>Catalogue</h1>{filters}<p class="count">{len(items)} items</p>'
            f"{items_list}{nav}</section>{aside}<script>{script}</script>")
    return 200, f"<!doctype html><html><head><title>Catalogue</title></head><body>{body}</body></html>"


def item_html(p: Product, view: str, shop: DemoShop) -> str:
    name = html.escape(p.name)
    if view == "modal":
        if "row_markup" in shop.variants:
            return (f'<div class="entry" data-p="{p.id}"><b>{name}</b> · {p.category}</div>')
        return (f'<li class="{shop.cls("row")}" data-product-id="{p.id}">'
                f'<span class="{shop.cls("row-name")}">{name}</span> '
                f'<span class="{shop.cls("row-category")}">{p.category}</span></li>')
    if view == "panel":
        return f'<li class="item"><button class="item-open" data-id="{p.id}">{name}</button></li>'
    if view == "pages":
        return (f'<li class="item"><a class="item-link" href="/catalog/item/{p.id}">{name}</a>'
                "</li>")
    return (f'<li class="item"><button class="item-toggle" aria-expanded="false">{name}'
            f'</button><div class="item-more" hidden>{details_html(p, "i")}</div></li>')


def item_page(shop: DemoShop, pid: str) -> tuple[int, str]:
    product = next((p for p in shop.products if str(p.id) == pid), None)
    if product is None or product.id in shop.broken:
        return 500, "<html><body><h1>Something went wrong</h1></body></html>"
    return 200, (f"<html><head><title>{html.escape(product.name)}</title></head><body>"
                 f'<article class="product">{details_html(product, "p")}</article>'
                 '<a href="javascript:history.back()">Back to the list</a></body></html>')


def api(shop: DemoShop, path: str, query: dict[str, str]) -> tuple[int, str]:
    """/api/products/<id> (details) and /api/products?offset=&limit=&q=... (more items)."""
    rest = path[len("/api/products"):].strip("/")
    if "slow" in shop.variants:
        time.sleep(0.4)
    if rest:
        product = next((p for p in shop.products if str(p.id) == rest), None)
        if product is None or product.id in shop.broken:
            return 500, json.dumps({"error": "could not load"})
        return 200, json.dumps(product_json(product))
    items = shop.visible_products(query)
    offset, limit = int(query.get("offset", "0")), int(query.get("limit", "6"))
    chunk = items[offset : offset + limit]
    view = "modal" if query.get("view") == "modal" else "scroll"
    return 200, json.dumps({"html": "".join(item_html(p, view, shop) for p in chunk),
                            "more": offset + limit < len(items)})


def modal_parts(shop: DemoShop, data: str, rows: str, more: bool) -> tuple[str, str, str]:
    """The modal view's list with its Load more button, the dialog, and the script."""
    c = shop.cls
    wrap = "wrapper" in shop.variants
    items = (f'<ul class="{c("rows")}" aria-label="Products" data-catalog=\'{html.escape(data)}\'>'
             f'{rows}</ul><button type="button" class="{c("load-more")}"'
             f'{"" if more else " hidden"}>Load more</button>')
    body = (f'<div class="{c("m-body")}"><h2 class="{c("m-name")}"></h2>'
            f'<p>Price: <span class="{c("m-price")}"></span></p>'
            f'<p>Category: <span class="{c("m-category")}"></span></p>'
            f'<p class="{c("m-description")}"></p></div>')
    if wrap:
        items, body = f'<div class="{c("list-wrap")}">{items}</div>', f"<div>{body}</div>"
    dialog = (f'<div class="{c("modal")}" role="dialog" aria-modal="true" '
              'aria-label="Product details" style="display:none;position:fixed;inset:0;'
              'background:rgba(0,0,0,.4);align-items:center;justify-content:center">'
              f'<div class="{c("modal-box")}" style="background:#fff;padding:1em;min-width:20em">'
              f'<p class="{c("m-loading")}">Loading…</p>{body}'
              f'<button type="button" class="{c("m-close")}">Close</button></div></div>')
    config = json.dumps({"cls": {k: c(k) for k in ("rows", "load-more", "m-body", "m-name",
                                                     "m-price", "m-category", "m-description",
                                                     "m-loading", "m-close")},
                         "dead": "dead_load_more" in shop.variants,
                         "disable_at_end": "disabled_at_end" in shop.variants,
                         "stale": "stale_details" in shop.variants})
    return items, dialog, f"const CONF = {config};\n{MODAL_JS}"


PANEL_JS = """
const panel = document.getElementById('detail');
for (const b of document.querySelectorAll('.item-open')) {
  b.addEventListener('click', async () => {
    panel.hidden = true; panel.innerHTML = '';
    const r = await fetch('/api/products/' + b.dataset.id);
    if (!r.ok) { panel.innerHTML = '<p class="d-error">Could not load the details.</p>'; panel.hidden = false; return; }
    const p = await r.json();
    const esc = (s) => s.replace(/[&<>]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;'}[c]));
    panel.innerHTML = '<h2 class="d-name">' + esc(p.name) + '</h2><p>Price: <span class="d-price">' + p.price +
      '</span></p><p>Category: <span class="d-category">' + p.category + '</span></p><p class="d-description">' +
      esc(p.description) + '</p><button class="close">Close</button>';
    panel.querySelector('.close').onclick = () => { panel.hidden = true; };
    panel.hidden = false;
  });
}
"""

INLINE_JS = """
document.querySelector('.items').addEventListener('click', (e) => {
  const b = e.target.closest('.item-toggle');
  if (!b) return;
  const more = b.nextElementSibling;
  more.hidden = !more.hidden;
  b.setAttribute('aria-expanded', String(!more.hidden));
});
"""

SCROLL_JS = """
const list = document.querySelector('.items');
const meta = JSON.parse(list.dataset.catalog);
let loading = false, more = list.children.length < meta.total;
async function loadMore() {
  if (loading || !more) return;
  loading = true;
  const q = new URLSearchParams({...meta.query, offset: list.children.length, limit: 6});
  const r = await fetch('/api/products?' + q);
  const data = await r.json();
  list.insertAdjacentHTML('beforeend', data.html);
  more = data.more; loading = false;
}
window.addEventListener('scroll', () => {
  if (window.innerHeight + window.scrollY >= document.body.scrollHeight - 50) loadMore();
});
"""

MODAL_JS = """
const $ = (root, name) => root.querySelector('.' + CONF.cls[name]);
const list = $(document, 'rows'), more = $(document, 'load-more');
const modal = document.querySelector('[role=dialog]'), body = $(modal, 'm-body');
const meta = JSON.parse(list.dataset.catalog);
const close = () => { modal.style.display = 'none'; };
$(modal, 'm-close').onclick = close;
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(); });
more.addEventListener('click', async () => {
  if (CONF.dead) return;
  more.disabled = true; more.textContent = 'Loading…';
  const q = new URLSearchParams({...meta.query, view: 'modal', offset: list.children.length,
                                 limit: meta.per});
  const data = await (await fetch('/api/products?' + q)).json();
  list.insertAdjacentHTML('beforeend', data.html);
  more.textContent = 'Load more';
  if (data.more) more.disabled = false; else if (!CONF.disable_at_end) more.hidden = true;
});
list.addEventListener('click', async (e) => {
  const row = e.target.closest('li, .entry');
  if (!row) return;
  modal.style.display = 'flex';
  if (CONF.stale && Array.from(list.children).indexOf(row) === 2) return;  // the bug
  body.style.display = 'none'; $(modal, 'm-loading').style.display = '';
  const r = await fetch('/api/products/' + (row.dataset.productId || row.dataset.p));
  $(modal, 'm-loading').style.display = 'none';
  if (!r.ok) { $(modal, 'm-loading').style.display = ''; $(modal, 'm-loading').textContent = 'Could not load the details.'; return; }
  const p = await r.json();
  $(modal, 'm-loading').textContent = 'Loading…';
  $(modal, 'm-name').textContent = p.name; $(modal, 'm-price').textContent = p.price;
  $(modal, 'm-category').textContent = p.category;
  $(modal, 'm-description').textContent = p.description;
  body.style.display = '';
});
"""
