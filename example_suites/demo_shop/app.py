"""The demo shop: server-rendered pages on http.server, sessions in a cookie, no JS framework.

Pages: product list (search, category filter, sort, pagination, details side panel), cart,
sign-in, checkout (validation, receipt upload), order confirmation with a generated number.

``variants`` alter the markup or the behaviour, so tests can check that a replay survives
benign changes and fails on breaking ones:
  benign:   rename_classes, wrapper, reorder, change_ids, slow, disabled_at_end (catalogue),
            slow_cart (the cart page's body comes 1 s after its headers: the page has
            navigated, but is still loading)
  breaking: dead_button, confirmation_text, wrong_product, duplicate_button,
            dead_load_more, stale_details, row_markup (the catalogue's modal view),
            total_wrong (the cart total adds $5)
  drifted (harmless, but beyond the fingerprint cascade: a heal must follow them):
            relabel_add ("Add to cart" reads "Add to bag"), address_second_page (checkout
            asks for the address on a second page, after "Continue"), checkout_in_menu
            (the cart's "Proceed to checkout" link sits in a "Cart options" menu, shown
            after a click on it)
  cookies:  banner_cookie (every response sets a 2 s "banner" cookie, beside the session's)
``mutants`` are realistic bugs (listed with a description in ``mutants.MUTANTS``) for the
mutation bench, ``bench/mutants.py``: a replay must fail when one is switched on.
"""

from __future__ import annotations

import html
import random
import secrets
import threading
import time
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from pytest_webtask.testing import LoopbackApp

from .. import widgets
from . import catalog
from .data import PER_PAGE, PRODUCTS, USERS, Product
from .mutants import MUTANTS

SLOW_CART_S = 1.0  # the slow_cart variant's wait for the cart page's body

SORTS = {"name": "Name", "price_asc": "Price: low to high", "price_desc": "Price: high to low"}

STYLE = """
body{font-family:sans-serif;margin:0;display:flex;flex-direction:column;min-height:100vh}
header{display:flex;gap:1em;padding:.6em 1em;background:#223;color:#fff}
header a{color:#fff}
main{display:flex;gap:1em;padding:1em}
.grid{display:grid;grid-template-columns:repeat(3,14em);gap:1em}
.card{border:1px solid #ccc;padding:.6em;border-radius:6px}
aside{width:16em;border-left:2px solid #ddd;padding-left:1em}
.error{color:#b00}
.plural{display:none}
"""
GIFT_MESSAGE_MAX = 100


def money(value: float) -> str:
    return f"${value:,.2f}"


class DemoShop(LoopbackApp):
    """Start with ``start()`` (or as a context manager); ``url`` is the base URL."""

    def __init__(self, variants: set[str] | None = None, seed: int | None = None,
                 products: tuple[Product, ...] = PRODUCTS, per_page: int = PER_PAGE,
                 mutants: set[str] | None = None) -> None:
        super().__init__()
        self.variants: set[str] = set(variants or ())
        unknown = set(mutants or ()) - MUTANTS.keys()
        if unknown:
            raise ValueError(f"unknown mutant(s): {', '.join(sorted(unknown))}")
        self.mutants: set[str] = set(mutants or ())
        self.products = products  # the data source tests compare with
        self.per_page = per_page
        self.broken: set[int] = set()  # product ids whose details fail to load
        self.sessions: dict[str, dict[str, Any]] = {}
        self.orders: dict[str, dict[str, Any]] = {}
        self._random = random.Random(seed)

    # -- lifecycle ------------------------------------------------------------------------

    def reset(self) -> None:
        self.variants.clear()
        self.sessions.clear()
        self.orders.clear()
        self.broken.clear()

    # -- helpers --------------------------------------------------------------------------

    def cls(self, name: str) -> str:
        return f"x-{name}-renamed" if "rename_classes" in self.variants else name

    def bug(self, name: str) -> bool:
        """Is the mutant ``name`` switched on?"""
        assert name in MUTANTS, name
        return name in self.mutants

    def ident(self, name: str) -> str:
        return f"{name}-v2" if "change_ids" in self.variants else name

    def page(self, title: str, body: str, sess: dict[str, Any]) -> str:
        count = (len(sess["cart"]) if self.bug("cart_count_lines")
                 else sum(item["qty"] for item in sess["cart"]))
        user = sess.get("user")
        account = (f"<span>Signed in as {html.escape(user)}</span>" if user
                   else '<a href="/signin">Sign in</a>')
        content = f"<main>{body}</main>"
        if "wrapper" in self.variants:
            content = f'<div class="{self.cls("layout")}"><div>{content}</div></div>'
        return (
            f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)} - "
            f"Demo Shop</title><style>{STYLE}</style></head><body>"
            f'<header><a href="/">Demo Shop</a><a href="/cart">Cart ({count})</a>'
            f"{account}</header>{content}</body></html>"
        )

    # -- request handling -----------------------------------------------------------------

    def _handle(self, req: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(req.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        cookie = SimpleCookie(req.headers.get("Cookie", ""))
        sid = cookie["sid"].value if "sid" in cookie else ""
        new_sid = sid not in self.sessions
        if new_sid:
            sid = secrets.token_hex(8)
            self.sessions[sid] = {"cart": [], "user": None}
        sess = self.sessions[sid]
        fields: dict[str, str] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if method == "POST":
            fields, files = _read_form(req)
        routes: dict[tuple[str, str], Callable[..., tuple[int, str, str]]] = {
            ("GET", "/"): self.list_page, ("POST", "/cart/add"): self.cart_add,
            ("GET", "/cart"): self.cart_page, ("POST", "/cart/remove"): self.cart_remove,
            ("GET", "/signin"): self.signin_page, ("POST", "/signin"): self.signin,
            ("GET", "/checkout"): self.checkout_page, ("POST", "/checkout"): self.checkout,
        }
        route = routes.get((method, parts.path))
        ctype = "text/html; charset=utf-8"
        if route is None and method == "GET" and parts.path.startswith("/orders/"):
            status, body, location = self.order_page(parts.path.split("/")[-1], sess)
        elif method == "GET" and parts.path == "/catalog":
            (status, body), location = catalog.catalog_page(self, query), ""
        elif method == "GET" and parts.path.startswith("/catalog/item/"):
            (status, body), location = catalog.item_page(self, parts.path.rsplit("/", 1)[-1]), ""
        elif method == "GET" and parts.path.startswith("/widgets"):
            page = widgets.serve(parts.path, self.variants)
            status, location = (200, "") if page is not None else (404, "")
            body = page if page is not None else self.page("Not found", "<h1>Not found</h1>", sess)
        elif method == "GET" and parts.path.startswith("/api/products"):
            (status, body), location = catalog.api(self, parts.path, query), ""
            ctype = "application/json"
        elif route is None:
            status, body, location = 404, self.page("Not found", "<h1>Not found</h1>", sess), ""
        else:
            status, body, location = route(sess, query=query, fields=fields, files=files)
        data = body.encode()
        req.send_response(status)
        if new_sid:
            path = "/cart" if self.bug("lost_session") else "/"
            req.send_header("Set-Cookie", f"sid={sid}; Path={path}; HttpOnly")
        if "banner_cookie" in self.variants:  # short-lived, and not the session
            req.send_header("Set-Cookie", "banner=seen; Max-Age=2; Path=/")
        if location:
            req.send_header("Location", location)
        req.send_header("Content-Type", ctype)
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        if "slow_cart" in self.variants and method == "GET" and parts.path == "/cart":
            req.wfile.flush()  # the navigation commits to an empty document that waits
            time.sleep(SLOW_CART_S)
        req.wfile.write(data)

    # -- pages ----------------------------------------------------------------------------

    def visible_products(self, query: dict[str, str]) -> list[Product]:
        """The products the list shows for a query, before pagination (tests use this)."""
        items = list(self.products)
        q = query.get("q", "").strip().lower()
        if q and not self.bug("search_ignored"):
            items = [p for p in items if q in p.name.lower() or q in p.description.lower()]
        if query.get("category") and not self.bug("category_filter_ignored"):
            items = [p for p in items if p.category == query["category"]]
        sort = "name" if self.bug("sort_ignored") else query.get("sort", "name")
        sign = -1 if self.bug("sort_reversed") else 1
        if sort == "price_asc":
            items.sort(key=lambda p: (sign * p.price, p.name))
        elif sort == "price_desc":
            items.sort(key=lambda p: (-sign * p.price, p.name))
        else:
            items.sort(key=lambda p: p.name)
        return items

    def list_page(self, sess: dict[str, Any], query: dict[str, str], **_: Any) -> tuple:
        items = self.visible_products(query)
        pages = max(1, -(-len(items) // PER_PAGE))
        page = min(max(1, int(query.get("page", "1") or 1)), pages)
        start = (page - 1) * PER_PAGE
        if self.bug("page_overlap") and page > 1:
            start -= 1
        shown = items[start : start + PER_PAGE]
        if "reorder" in self.variants:
            shown = list(reversed(shown))
        cats = sorted({p.category for p in PRODUCTS})
        opts = "".join(
            f'<option value="{c}"{" selected" if query.get("category") == c else ""}>{c}</option>'
            for c in cats)
        swap = {"price_asc": "price_desc", "price_desc": "price_asc"} \
            if self.bug("sort_option_mislabeled") else {}
        chosen = "name" if self.bug("sort_select_resets") else query.get("sort", "name")
        sorts = "".join(
            f'<option value="{swap.get(k, k)}"{" selected" if chosen == swap.get(k, k) else ""}>'
            f"{v}</option>" for k, v in SORTS.items())
        cards = "".join(self.card(p) for p in shown) or "<p>No products match.</p>"
        nav = []
        base = {k: v for k, v in query.items() if k != "page"}
        if page > 1:
            nav.append(f'<a href="/?{urlencode({**base, "page": page - 1})}">Previous page</a>')
        nav.append(f"<span>Page {page} of {pages}</span>")
        if page < pages:
            nav.append(f'<a href="/?{urlencode({**base, "page": page + 1})}">Next page</a>')
        body = (
            '<section><h1>Products</h1>'
            f'<form method="get" action="/" class="{self.cls("filters")}">'
            f'<input type="search" name="q" aria-label="Search products" '
            f'placeholder="Search products" value="{html.escape(query.get("q", ""))}">'
            f'<select name="category" aria-label="Category"><option value="">All categories'
            f"</option>{opts}</select>"
            f'<select name="sort" aria-label="Sort by">{sorts}</select>'
            "<button>Apply</button></form>"
            f'<p class="{self.cls("count")}">{self.product_count(len(items), len(shown))}</p>'
            f'<div class="{self.cls("grid")}">{cards}</div>'
            f'<nav aria-label="Pagination">{" ".join(nav)}</nav></section>'
            f'<aside id="{self.ident("details")}" hidden></aside>'
            + (DETAILS_SCRIPT.replace("panel.hidden = true;", "")
               if self.bug("details_close_broken") else DETAILS_SCRIPT)
        )
        return 200, self.page("Products", body, sess), ""

    def product_count(self, matching: int, shown: int) -> str:
        n = shown if self.bug("count_page_only") else matching
        if n == 1:
            return "1 product"
        # Issue 17's kind of bug: the DOM's text says "products" while the page shows
        # "product", so a check reading textContent passes on what a person sees as wrong.
        suffix = '<span class="plural">s</span>' if self.bug("plural_hidden") else "s"
        return f"{n} product{suffix}"

    def card(self, p: Product) -> str:
        sizes = "".join(f"<option>{s}</option>" for s in p.sizes)
        label = "Add to bag" if "relabel_add" in self.variants else "Add to cart"
        button = f'<button type="submit">{label}</button>'
        shown = p
        if self.bug("details_wrong_product"):
            shown = self.products[(self.products.index(p) + 1) % len(self.products)]
        category = shown.category.lower() if self.bug("category_lowercase") else shown.category
        if "dead_button" in self.variants:
            button = '<button type="button">Add to cart</button>'
        if "duplicate_button" in self.variants:
            button += '<button type="submit">Add to cart</button>'
        return (
            f'<article class="{self.cls("card")}" id="{self.ident(f"product-{p.id}")}">'
            f"<h2>{html.escape(p.name)}</h2>"
            f'<p class="{self.cls("price")}">{money(p.price)}</p>'
            f'<button type="button" class="{self.cls("details")}" '
            f'data-name="{html.escape(shown.name)}" '
            f'data-description="{html.escape(shown.description)}" data-category="{category}"'
            f' data-price="{money(shown.price)}">Details</button>'
            f'<form method="post" action="/cart/add"><input type="hidden" name="product" '
            f'value="{p.id}"><select name="size" aria-label="Size">{sizes}</select>'
            f"{button}</form></article>"
        )

    def cart_add(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> tuple:
        pid = int(fields.get("product", "0") or 0)
        if "wrong_product" in self.variants:
            pid = pid % len(PRODUCTS) + 1
        product = next((p for p in PRODUCTS if p.id == pid), None)
        if product is not None:
            size = fields.get("size", product.sizes[0])
            if self.bug("size_ignored"):
                size = product.sizes[0]
            for item in sess["cart"]:
                if item["id"] == pid and item["size"] == size and not self.bug("cart_merge_lost"):
                    item["qty"] += 1
                    break
            else:
                sess["cart"].append({"id": pid, "size": size, "qty": 1})
        return 303, "", "/cart"

    def cart_rows(self, sess: dict[str, Any]) -> tuple[str, float]:
        rows, total = [], 0.0
        for n, item in enumerate(sess["cart"]):
            p = next(p for p in PRODUCTS if p.id == item["id"])
            total += p.price * (1 if self.bug("total_ignores_qty") else item["qty"])
            total += 5.0 if "total_wrong" in self.variants else 0.0
            rows.append(
                f"<tr><td>{html.escape(p.name)}</td><td>Size {item['size']}</td>"
                f"<td>Qty {item['qty']}</td><td>{money(p.price * item['qty'])}</td>"
                f'<td><form method="post" action="/cart/remove"><input type="hidden" '
                f'name="line" value="{n}"><button>Remove {html.escape(p.name)}</button></form>'
                "</td></tr>")
        return "".join(rows), total

    def cart_page(self, sess: dict[str, Any], **_: Any) -> tuple:
        removed = sess.pop("removed", None)
        notice = (f'<p role="status">Removed {html.escape(removed)} from your cart.</p>'
                  if removed else "")
        if not sess["cart"]:
            body = f'<section><h1>Your cart</h1>{notice}<p>Your cart is empty.</p></section>'
        else:
            rows, total = self.cart_rows(sess)
            body = (f"<section><h1>Your cart</h1>{notice}<table>{rows}</table>"
                    f'<p class="{self.cls("total")}">Total: {money(total)}</p>'
                    + (MENU if "checkout_in_menu" in self.variants
                       else '<a href="/checkout">Proceed to checkout</a>') + "</section>")
        return 200, self.page("Cart", body, sess), ""

    def cart_remove(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> tuple:
        line = int(fields.get("line", "-1") or -1)
        if 0 <= line < len(sess["cart"]):
            sess["removed"] = next(p.name for p in PRODUCTS if p.id == sess["cart"][line]["id"])
            if self.bug("remove_wrong_line"):
                line += 1
            if line < len(sess["cart"]) and not self.bug("remove_does_nothing"):
                del sess["cart"][line]
        return 303, "", "/cart"

    def signin_page(self, sess: dict[str, Any], error: str = "", **_: Any) -> tuple:
        err = (f'<p class="error" role="alert">{error}</p>'
               if error and not self.bug("signin_error_not_shown") else "")
        both = "||" if self.bug("signin_enabled_with_one_field") else "&&"
        disabled = "" if self.bug("signin_button_enabled") else " disabled"
        body = (
            f"<section><h1>Sign in</h1>{err}"
            f'<form method="post" action="/signin">'
            f'<label for="{self.ident("email")}">Email</label>'
            f'<input id="{self.ident("email")}" name="email" type="email">'
            f'<label for="{self.ident("password")}">Password</label>'
            f'<input id="{self.ident("password")}" name="password" type="password">'
            f"<button{disabled}>Sign in</button></form></section>"
            + SIGNIN_SCRIPT.replace("&&", both))
        return 200, self.page("Sign in", body, sess), ""

    def signin(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> tuple:
        user = USERS.get(fields.get("email", "").strip().lower())
        wrong = user is None or user[0] != fields.get("password", "")
        if wrong and not (user is not None and self.bug("wrong_password_accepted")):
            return self.signin_page(sess, error="Wrong email or password.")
        assert user is not None
        if not self.bug("signin_not_kept"):
            sess["user"] = user[1]
        return 303, "", "/"

    def checkout_page(self, sess: dict[str, Any], errors: dict[str, str] | None = None,
                      values: dict[str, str] | None = None, **_: Any) -> tuple:
        if not sess["cart"]:
            body = ('<section><h1>Checkout</h1><p>Your cart is empty.</p>'
                    '<a href="/">Continue shopping</a></section>')
            return 200, self.page("Checkout", body, sess), ""
        errors, values = errors or {}, values or {}
        if self.bug("values_lost_on_error"):
            values = {k: v for k, v in values.items() if k == "gift_wrap"}
        if self.bug("gift_wrap_lost_on_error"):
            values = {k: v for k, v in values.items() if k != "gift_wrap"}

        def field(name: str, label: str, kind: str = "text") -> str:
            err = (f'<span class="error" id="{name}-error">{errors[name]}</span>'
                   if name in errors and not self.bug("errors_not_shown") else "")
            val = html.escape(values.get(name, ""))
            fid = self.ident(name)
            return (f'<p><label for="{fid}">{label}</label>'
                    f'<input id="{fid}" name="{name}" type="{kind}" value="{val}">{err}</p>')

        rows, total = self.cart_rows(sess)
        if "address_second_page" in self.variants and values.get("stage") != "address":
            return self.checkout_first_page(sess, rows, total, errors, field)
        submit = '<button type="submit">Place order</button>'
        if "duplicate_button" in self.variants:
            submit += '<button type="submit">Place order</button>'
        summary = '<p role="alert" class="error">Please fix the errors below.</p>' \
            if errors else ""
        body = (
            f"<section><h1>Checkout</h1>{summary}<table>{rows}</table>"
            f"<p>Total: {money(total)}</p>"
            '<form method="post" action="/checkout" enctype="multipart/form-data">'
            + (self.carried(values) if values.get("stage") == "address" else
               field("name", "Full name") + field("email", "Email", "email"))
            + field("address", "Address")
            + f'<p><label for="{self.ident("receipt")}">Receipt (optional)</label>'
            f'<input id="{self.ident("receipt")}" name="receipt" type="file"></p>'
            + self.gift_fields(values) + submit + "</form></section>"
            + (COUNTER_SCRIPT.replace("textContent =", "textContent +=")
               if self.bug("counter_appends") else COUNTER_SCRIPT))
        return 200, self.page("Checkout", body, sess), ""

    def checkout_first_page(self, sess: dict[str, Any], rows: str, total: float,
                            errors: dict[str, str], field: Any) -> tuple:
        """Variant address_second_page: name and email first; "Continue" asks the rest."""
        body = (f"<section><h1>Checkout</h1><table>{rows}</table><p>Total: {money(total)}</p>"
                '<form method="post" action="/checkout" enctype="multipart/form-data">'
                '<input type="hidden" name="stage" value="address">'
                + field("name", "Full name") + field("email", "Email", "email")
                + '<button type="submit">Continue</button></form></section>')
        return 200, self.page("Checkout", body, sess), ""

    @staticmethod
    def carried(values: dict[str, str]) -> str:
        """The first page's answers, carried on the second (address_second_page)."""
        return ("".join(f'<input type="hidden" name="{k}" value="{html.escape(values.get(k, ""))}">'
                        for k in ("name", "email"))
                + '<input type="hidden" name="stage" value="address">'
                + f"<p>Ordering as {html.escape(values.get('name', ''))}</p>")

    def gift_fields(self, values: dict[str, str]) -> str:
        # After the form's original fields, so the recorded element ids stay as they were.
        ticked = " checked" if values.get("gift_wrap") else ""
        message = values.get("gift_message", "")
        return (f'<p><input id="{self.ident("gift_wrap")}" name="gift_wrap" type="checkbox" '
                f'value="yes"{ticked}><label for="{self.ident("gift_wrap")}">Gift wrap</label></p>'
                f'<p><label for="{self.ident("gift_message")}">Gift message (optional)</label>'
                f'<textarea id="{self.ident("gift_message")}" name="gift_message" '
                f'maxlength="{GIFT_MESSAGE_MAX}">{html.escape(message)}</textarea></p>'
                f'<p id="gift-message-left">{GIFT_MESSAGE_MAX - len(message)} characters left</p>')

    def checkout(self, sess: dict[str, Any], fields: dict[str, str],
                 files: dict[str, tuple[str, bytes]], **_: Any) -> tuple:
        if not sess["cart"]:
            return 303, "", "/checkout"
        if "address_second_page" in self.variants and fields.get("stage") == "address" \
                and "address" not in fields:  # "Continue" on the first page
            return self.checkout_page(sess, values=fields)
        errors = {}
        if not fields.get("name", "").strip():
            errors["name"] = "Name is required."
        if "@" not in fields.get("email", "") and not self.bug("email_not_validated"):
            errors["email"] = "Enter a valid email address."
        if not fields.get("address", "").strip():
            errors["address"] = "Address is required."
        if self.bug("stale_errors"):
            errors = {**sess.get("errors", {}), **errors}
            sess["errors"] = errors
        if errors and not self.bug("validation_skipped"):
            return self.checkout_page(sess, errors=errors, values=fields)
        number = f"ORD-{self._random.randint(10000, 99999)}"
        receipt = None if self.bug("receipt_dropped") else files.get("receipt")
        name = fields.get("email", "") if self.bug("confirmation_wrong_name") else fields["name"]
        gift = bool(fields.get("gift_wrap")) and not self.bug("gift_wrap_ignored")
        self.orders[number] = {"name": name.strip(), "items": list(sess["cart"]),
                               "receipt": receipt, "gift_wrap": gift,
                               "gift_message": fields.get("gift_message", "").strip()}
        if not self.bug("cart_not_emptied"):
            sess["cart"] = []
        return 303, "", f"/orders/{number}"

    def order_page(self, number: str, sess: dict[str, Any]) -> tuple:
        order = self.orders.get(number)
        if order is None:
            return 404, self.page("Not found", "<h1>Order not found</h1>", sess), ""
        thanks = "Order received" if "confirmation_text" in self.variants else "Thank you"
        def name(pid: int) -> str:
            if self.bug("confirmation_wrong_item"):
                pid = pid % len(PRODUCTS) + 1
            return next(p.name for p in PRODUCTS if p.id == pid)

        lines = "".join(f"<li>{html.escape(name(i['id']))}, size {i['size']}, qty {i['qty']}</li>"
                        for i in order["items"])
        receipt = order["receipt"]
        got = (f"<p>Receipt received: {html.escape(receipt[0])}</p>" if receipt and receipt[0]
               else "")
        got += f"<p>Gift wrap: {'yes' if order.get('gift_wrap') else 'no'}</p>"
        if order.get("gift_message"):
            got += f"<p>Gift message: {html.escape(order['gift_message'])}</p>"
        body = (f"<section><h1>{thanks}, {html.escape(order['name'])}!</h1>"
                f'<p class="{self.cls("order-number")}">Your order number is {number}.</p>'
                f"<ul>{lines}</ul>{got}<a href=\"/\">Continue shopping</a></section>")
        return 200, self.page("Order confirmed", body, sess), ""


# Variant checkout_in_menu: the link hides in a menu that a button opens.
MENU = """<nav class="menu"><button type="button" aria-expanded="false"
 onclick="this.setAttribute('aria-expanded', 'true'); this.nextElementSibling.hidden = false"
>Cart options</button><div hidden><a href="/checkout">Proceed to checkout</a></div></nav>"""

DETAILS_SCRIPT = """<script>
for (const b of document.querySelectorAll('button[data-description]')) {
  b.addEventListener('click', () => {
    const panel = document.querySelector('aside');
    panel.innerHTML = '';
    const h = document.createElement('h2'); h.textContent = b.dataset.name;
    const d = document.createElement('p'); d.textContent = b.dataset.description;
    const c = document.createElement('p'); c.textContent = 'Category: ' + b.dataset.category;
    const p = document.createElement('p'); p.textContent = 'Price: ' + b.dataset.price;
    const x = document.createElement('button'); x.textContent = 'Close details';
    x.addEventListener('click', () => { panel.hidden = true; });
    panel.append(h, d, c, p, x);
    panel.hidden = false;
  });
}
</script>"""


SIGNIN_SCRIPT = """<script>
(() => {
  const form = document.querySelector('form[action="/signin"]');
  const [email, password] = form.querySelectorAll('input');
  const button = form.querySelector('button');
  const update = () => { button.disabled = !(email.value && password.value); };
  form.addEventListener('input', update);
})();
</script>"""

COUNTER_SCRIPT = """<script>
(() => {
  const box = document.querySelector('textarea[name="gift_message"]');
  const counter = document.getElementById('gift-message-left');
  box.addEventListener('input', () => {
    counter.textContent = `${box.maxLength - box.value.length} characters left`;
  });
})();
</script>"""


def _read_form(req: BaseHTTPRequestHandler) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
    length = int(req.headers.get("Content-Length") or 0)
    raw = req.rfile.read(length)
    ctype = req.headers.get("Content-Type", "")
    fields: dict[str, str] = {}
    files: dict[str, tuple[str, bytes]] = {}
    if ctype.startswith("multipart/form-data"):
        msg = BytesParser(policy=HTTP).parsebytes(
            b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw)
        for part in msg.iter_parts():
            name = part.get_param("name", header="content-disposition")
            raw_payload = part.get_payload(decode=True)
            payload = raw_payload if isinstance(raw_payload, bytes) else b""
            if part.get_filename() is not None:
                files[str(name)] = (part.get_filename() or "", payload)
            else:
                fields[str(name)] = payload.decode()
    else:
        fields = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
    return fields, files


if __name__ == "__main__":  # python -m example_suites.demo_shop.app
    shop = DemoShop().start()
    print(f"Demo shop at {shop.url} (Ctrl-C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        shop.stop()
