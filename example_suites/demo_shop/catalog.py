"""The catalogue pages: one list shown in every layout an extraction must handle.

    /catalog?view=panel    click an item, its details load (fetch) into a side panel
    /catalog?view=pages    each item links to its own page, /catalog/item/<id>
    /catalog?view=inline   click an item, its details expand in place
    /catalog?view=scroll   inline items, more load as you scroll (no pagination)

All views but scroll paginate; all take the list page's q (search), category and sort.
``broken`` product ids fail to load their details (HTTP 500), for soft-failure tests.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from .data import Product

if TYPE_CHECKING:
    from .app import DemoShop

VIEWS = ("panel", "pages", "inline", "scroll")


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
    shown = items[:per] if view == "scroll" else items[(page - 1) * per : page * per]
    rows = "".join(item_html(p, view) for p in shown)
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
    if view != "scroll" and page < pages:
        rest = {k: v for k, v in query.items() if k != "page"}
        nav = (f'<a class="next-page" href="/catalog?{urlencode({**rest, "page": page + 1})}">'
               "Next page</a>")
    aside = '<aside id="detail" hidden></aside>' if view == "panel" else ""
    script = {"panel": PANEL_JS, "inline": INLINE_JS, "scroll": INLINE_JS + SCROLL_JS}.get(
        view, "")
    data = json.dumps({"total": len(items), "query": {k: v for k, v in query.items()
                                                      if k in ("q", "category", "sort")}})
    body = (f'<section><h1>Catalogue</h1>{filters}<p class="count">{len(items)} items</p>'
            f'<ul class="items" data-catalog=\'{html.escape(data)}\'>{rows}</ul>{nav}'
            f"</section>{aside}<script>{script}</script>")
    return 200, f"<!doctype html><html><head><title>Catalogue</title></head><body>{body}</body></html>"


def item_html(p: Product, view: str) -> str:
    name = html.escape(p.name)
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
    if rest:
        product = next((p for p in shop.products if str(p.id) == rest), None)
        if product is None or product.id in shop.broken:
            return 500, json.dumps({"error": "could not load"})
        return 200, json.dumps(product_json(product))
    items = shop.visible_products(query)
    offset, limit = int(query.get("offset", "0")), int(query.get("limit", "6"))
    chunk = items[offset : offset + limit]
    return 200, json.dumps({"html": "".join(item_html(p, "scroll") for p in chunk),
                            "more": offset + limit < len(items)})


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
