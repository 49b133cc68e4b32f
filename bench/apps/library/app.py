"""A small public library's website on http.server: the bench's second app (issue 45).

Nothing of the demo shop's look or markup: a hover- (and click-) revealed site menu in a
``<nav>``, a catalogue search with a results count, a book's details page (author, year,
shelf, availability) with a Reserve button, opening hours in a definition list, a sign-in
with one known reader, and a "join the library" form validated on the server. Sessions are
kept in a cookie. ``mutants`` are the regressions of ``mutants.MUTANTS``; the benign variant
``wrap`` wraps the landmarks in two more ``<div>``s and renames every class and the
stylesheet's path, leaving the visible text as it was.
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Callable
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from ..variant import VariantApp
from .data import BOOKS, HOURS, NAME, READERS, Book
from .mutants import BENIGN, BENIGN_ENV, ENV, MUTANTS

Result = tuple[int, str, str]  # status, body, location

STYLE = """
*,*::before,*::after{box-sizing:border-box}
html{font-size:17px}
body{margin:0;font-family:Georgia,"Times New Roman",serif;color:#2b2118;background:#fbf7ef}
a{color:#7a3b12}
a:hover{color:#a4521c}
.site-header{display:flex;align-items:center;justify-content:space-between;padding:.8rem 1.5rem;
  background:#3d5a40;color:#fdf8ec;position:relative}
.brand-link{color:#fdf8ec;font-size:1.3rem;text-decoration:none;letter-spacing:.02em}
.site-nav{position:relative}
.menu-toggle{background:transparent;border:1px solid #fdf8ec;color:#fdf8ec;padding:.35rem .8rem;
  font:inherit;cursor:pointer;border-radius:3px}
.menu-list{display:none;position:absolute;top:100%;left:0;min-width:13rem;margin:0;
  padding:.4rem 0;list-style:none;background:#fffdf8;border:1px solid #c9bfa9;
  box-shadow:0 4px 12px rgba(0,0,0,.15);z-index:10}
.site-nav:hover .menu-list,.site-nav:focus-within .menu-list,.site-nav.is-open .menu-list{
  display:block}
.menu-list a{display:block;padding:.4rem 1rem;text-decoration:none;color:#2b2118}
.menu-list a:hover{background:#efe6d2}
.account-links{display:flex;gap:1rem;align-items:center}
.account-links a{color:#fdf8ec}
.page-body{max-width:52rem;margin:0 auto;padding:1.5rem}
.page-title{font-size:1.8rem;margin:.2rem 0 1rem;font-weight:normal}
.lead{font-size:1.1rem;color:#5a4a3a}
.search-box{display:flex;gap:.5rem;align-items:flex-end;margin:1rem 0;padding:1rem;
  background:#efe6d2;border-radius:4px}
.search-box label{display:block;font-size:.9rem;margin-bottom:.2rem}
.search-box input{font:inherit;padding:.35rem .5rem;width:22rem;border:1px solid #a89b82}
.btn{font:inherit;padding:.4rem 1rem;border:0;border-radius:3px;cursor:pointer;
  background:#7a3b12;color:#fff}
.btn:hover{background:#a4521c}
.btn-quiet{background:#d8ccb4;color:#2b2118}
.result-count{font-style:italic;color:#5a4a3a}
.results{padding-left:1.2rem}
.result{margin:.5rem 0}
.result-author::before{content:" \\2014  "}
.result-year{color:#7d6e5b;margin-left:.4rem}
.book-facts{display:grid;grid-template-columns:9rem 1fr;gap:.3rem 1rem}
.book-facts dt{font-weight:bold}
.book-facts dd{margin:0}
.notice{padding:.6rem 1rem;background:#e3efe0;border-left:4px solid #3d5a40}
.hours{display:grid;grid-template-columns:8rem 1fr;gap:.2rem 1rem;max-width:24rem}
.hours dt{font-weight:bold}
.hours dd{margin:0}
.form-row{margin:.8rem 0}
.form-row label{display:block;margin-bottom:.2rem}
.form-row input[type=text],.form-row input[type=email],.form-row input[type=password]{
  font:inherit;padding:.35rem .5rem;width:20rem;border:1px solid #a89b82}
.field-error{color:#a3160b;margin:.2rem 0 0;font-size:.95rem}
.error-summary{border:3px solid #a3160b;padding:.5rem 1rem;margin-bottom:1rem}
.error-summary h2{font-size:1.1rem;margin:.2rem 0}
.alert{color:#a3160b;font-weight:bold}
.news{display:grid;grid-template-columns:repeat(3,1fr);gap:1rem}
.news-item{background:#fffdf8;border:1px solid #d8ccb4;padding:.8rem}
.breadcrumbs{font-size:.9rem;margin-bottom:.5rem}
.site-footer{margin-top:2rem;padding:1rem 1.5rem;background:#2b2118;color:#d8ccb4;
  font-size:.9rem}
"""

# The menu opens on hover (CSS) and on a click (this script), as on many small sites.
MENU_SCRIPT = """<script>
(() => {
  const nav = document.querySelector('.site-nav');
  const toggle = nav.querySelector('.menu-toggle');
  toggle.addEventListener('click', () => {
    const open = nav.classList.toggle('is-open');
    toggle.setAttribute('aria-expanded', String(open));
  });
})();
</script>"""



class LibraryApp(VariantApp):
    """Serve with ``start()`` or as a context manager; ``url`` is the base URL.

    ``mutants`` and ``benign`` default to the environment's ``LIBRARY_MUTANT`` and
    ``LIBRARY_BENIGN``; both are attributes a test or the bench may change between runs.
    """

    WHAT = "library"
    MUTANTS = MUTANTS
    BENIGN = BENIGN
    ENV = ENV
    BENIGN_ENV = BENIGN_ENV
    PREFIX = "lv2"
    STYLE = STYLE
    STYLESHEETS = ("/static/library.css", "/assets/v2/site.css")

    def __init__(self, mutants: set[str] | None = None, benign: set[str] | None = None) -> None:
        super().__init__(mutants, benign)
        self.books = BOOKS
        self.sessions: dict[str, dict[str, Any]] = {}
        self.members: list[dict[str, str]] = []

    # -- lifecycle ------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every visitor's session and every new member (mutants and variants stay)."""
        self.sessions.clear()
        self.members.clear()

    # -- markup helpers -------------------------------------------------------------------

    def page(self, title: str, body: str, sess: dict[str, Any]) -> str:
        c = self.cls
        count = 0 if self.bug("reserve_count_stuck") else len(sess["reservations"])
        reader = sess.get("reader")
        account = (f"<span>Signed in as {html.escape(reader)}</span>"
                   '<a href="/signout">Sign out</a>' if reader
                   else '<a href="/signin">Sign in</a>')
        hours = "#" if self.bug("menu_link_dead") else "/hours"
        nav = (f'<nav class="{c("site-nav")}" aria-label="Site menu">'
               f'<button type="button" class="{c("menu-toggle")}" aria-expanded="false" '
               'aria-controls="site-menu"><span aria-hidden="true">&#9776;</span> Menu</button>'
               f'<ul class="{c("menu-list")}" id="site-menu">'
               '<li><a href="/">Home</a></li><li><a href="/catalogue">Catalogue</a></li>'
               f'<li><a href="{hours}">Opening hours</a></li>'
               '<li><a href="/join">Join the library</a></li>'
               '<li><a href="/signin">Sign in</a></li></ul></nav>')
        header = (f'<header class="{c("site-header")}">'
                  f'<div class="{c("brand")}"><a class="{c("brand-link")}" href="/">'
                  f"{NAME}</a></div>"
                  f"{self.wrap(nav, 'nav')}"
                  f'<div class="{c("account-links")}"><a class="{c("reservations-link")}" '
                  f'href="/reservations">My reservations ({count})</a>{account}</div></header>')
        main = f'<main class="{c("page-body")}">{body}</main>'
        footer = (f'<footer class="{c("site-footer")}"><p>{NAME}, 4 Mill Lane, Alder Vale. '
                  "Telephone 01632 960118.</p><p>Part of the Vale Libraries network.</p></footer>")
        script = MENU_SCRIPT.replace("'.site-nav'", f"'.{c('site-nav')}'") \
            .replace("'.menu-toggle'", f"'.{c('menu-toggle')}'") \
            .replace("'is-open'", f"'{c('is-open')}'")
        return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{html.escape(title)} | {NAME}</title>"
                f'<link rel="stylesheet" href="{self.stylesheet}"></head><body>'
                f"{self.wrap(header, 'header')}{self.wrap(main, 'main')}"
                f"{self.wrap(footer, 'footer')}{script}</body></html>")

    def search_form(self, query: str = "") -> str:
        c = self.cls
        return (f'<form class="{c("search-box")}" method="get" action="/catalogue" '
                'role="search"><div><label for="q">Search the catalogue</label>'
                f'<input id="q" name="q" type="text" value="{html.escape(query)}" '
                'placeholder="Title or author"></div>'
                f'<button class="{c("btn")}" type="submit">Search</button></form>')

    # -- request handling -----------------------------------------------------------------

    def _handle(self, req: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(req.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        cookie = SimpleCookie(req.headers.get("Cookie", ""))
        sid = cookie["lib_session"].value if "lib_session" in cookie else ""
        new_sid = sid not in self.sessions
        if new_sid:
            sid = secrets.token_hex(8)
            self.sessions[sid] = {"reservations": [], "reader": None}
        sess = self.sessions[sid]
        fields: dict[str, str] = {}
        if method == "POST":
            length = int(req.headers.get("Content-Length") or 0)
            raw = req.rfile.read(length).decode()
            fields = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        path = parts.path.rstrip("/") or "/"
        ctype = "text/html; charset=utf-8"
        routes: dict[tuple[str, str], Callable[..., Result]] = {
            ("GET", "/"): self.home, ("GET", "/catalogue"): self.catalogue,
            ("GET", "/hours"): self.hours, ("GET", "/signin"): self.signin_page,
            ("POST", "/signin"): self.signin, ("GET", "/signout"): self.signout,
            ("GET", "/account"): self.account, ("GET", "/join"): self.join_page,
            ("POST", "/join"): self.join, ("GET", "/join/welcome"): self.welcome,
            ("POST", "/reserve"): self.reserve, ("GET", "/reservations"): self.reservations,
        }
        route = routes.get((method, path))
        if method == "GET" and path == self.stylesheet:
            status, body, location = 200, self.css(), ""
            ctype = "text/css; charset=utf-8"
        elif method == "GET" and re.fullmatch(r"/books/\d+", path):
            status, body, location = self.book_page(sess, int(path.rsplit("/", 1)[1]), query)
        elif route is None:
            status, body, location = self.not_found(sess)
        else:
            status, body, location = route(sess, query=query, fields=fields)
        data = body.encode()
        req.send_response(status)
        if new_sid:
            req.send_header("Set-Cookie", f"lib_session={sid}; Path=/; HttpOnly; SameSite=Lax")
        if location:
            req.send_header("Location", location)
        req.send_header("Content-Type", ctype)
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        req.wfile.write(data)

    # -- pages ----------------------------------------------------------------------------

    def not_found(self, sess: dict[str, Any]) -> Result:
        body = (f'<h1 class="{self.cls("page-title")}">Page not found</h1>'
                '<p>Sorry, we could not find that page. <a href="/">Go to the home page</a>.</p>')
        return 404, self.page("Page not found", body, sess), ""

    def home(self, sess: dict[str, Any], **_: Any) -> Result:
        c = self.cls
        news = (("Summer reading challenge", "Children aged 4 to 11 can sign up at the "
                 "front desk from 1 July."),
                ("Knit and natter", "Every Wednesday evening in the community room. "
                 "All welcome, bring your own needles."),
                ("New e-book service", "Members can now borrow e-books and audiobooks "
                 "with their library card number."))
        items = "".join(f'<article class="{c("news-item")}"><h3>{t}</h3><p>{d}</p></article>'
                        for t, d in news)
        body = (f'<h1 class="{c("page-title")}">Welcome to {NAME}</h1>'
                f'<p class="{c("lead")}">Borrow books, e-books and audiobooks, use a computer, '
                "or join one of our reading groups. Membership is free for everyone who lives, "
                "works or studies in the Vale.</p>"
                + self.search_form()
                + f'<section aria-labelledby="news-h"><h2 id="news-h">News and events</h2>'
                f'<div class="{c("news")}">{items}</div></section>')
        return 200, self.page("Home", body, sess), ""

    def matches(self, query: str) -> list[Book]:
        """The books a search for ``query`` lists (every book for an empty query)."""
        q = query.strip().lower()
        if self.bug("search_empty") and q:
            return []
        if not q or self.bug("search_ignored"):
            return list(self.books)
        return [b for b in self.books if q in b.title.lower() or q in b.author.lower()]

    def catalogue(self, sess: dict[str, Any], query: dict[str, str], **_: Any) -> Result:
        c = self.cls
        q = query.get("q", "")
        books = self.matches(q)
        n = len(books)
        if not q.strip():
            count = f"{n} books in the catalogue"
        elif n == 0:
            count = "No books found"
        else:
            count = f"{n} book{'' if n == 1 else 's'} found"
        rows = "".join(
            f'<li class="{c("result")}"><a class="{c("result-title")}" href="/books/{b.id}">'
            f'{html.escape(b.title)}</a> <span class="{c("result-author")}">'
            f'{html.escape(b.author)}</span> <span class="{c("result-year")}">({b.year})</span>'
            "</li>" for b in books)
        heading = (f"Search results for &ldquo;{html.escape(q)}&rdquo;" if q.strip()
                   else "Catalogue")
        body = (f'<h1 class="{c("page-title")}">{heading}</h1>' + self.search_form(q)
                + f'<p class="{c("result-count")}">{count}</p>'
                + (f'<ol class="{c("results")}">{rows}</ol>' if rows else
                   "<p>Check the spelling, or try fewer words.</p>"))
        return 200, self.page("Catalogue", body, sess), ""

    def book_page(self, sess: dict[str, Any], book_id: int, query: dict[str, str]) -> Result:
        c = self.cls
        book = next((b for b in self.books if b.id == book_id), None)
        if book is None:
            return self.not_found(sess)
        author = book.author
        if self.bug("details_wrong_author"):
            author = self.books[book_id % len(self.books)].author
        notice = ""
        if query.get("reserved") == "1":
            notice = (f'<p class="{c("notice")}" role="status">{html.escape(book.title)} is '
                      "reserved for you. We will email you when it is ready to collect.</p>")
        elif query.get("reserved") == "again":
            notice = (f'<p class="{c("notice")}" role="status">You have already reserved '
                      f"{html.escape(book.title)}.</p>")
        facts = (("Author", author), ("Year", str(book.year)), ("Shelf", book.shelf),
                 ("Availability", book.availability))
        body = (f'<nav class="{c("breadcrumbs")}" aria-label="Breadcrumb">'
                f'<a href="/catalogue">Catalogue</a> &rsaquo; {html.escape(book.title)}</nav>'
                f"{notice}"
                f'<article class="{c("book")}"><h1 class="{c("page-title")}">'
                f"{html.escape(book.title)}</h1>"
                f'<dl class="{c("book-facts")}">'
                + "".join(f"<dt>{k}</dt><dd>{html.escape(v)}</dd>" for k, v in facts)
                + "</dl>"
                f'<form method="post" action="/reserve"><input type="hidden" name="book" '
                f'value="{book.id}"><button class="{c("btn")}" type="submit">Reserve</button>'
                "</form></article>")
        return 200, self.page(book.title, body, sess), ""

    def reserve(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> Result:
        book_id = int(fields.get("book", "0") or 0)
        if not any(b.id == book_id for b in self.books):
            return self.not_found(sess)
        if book_id in sess["reservations"]:
            return 303, "", f"/books/{book_id}?reserved=again"
        sess["reservations"].append(book_id)
        return 303, "", f"/books/{book_id}?reserved=1"

    def reservations(self, sess: dict[str, Any], **_: Any) -> Result:
        c = self.cls
        books = [b for i in sess["reservations"] for b in self.books if b.id == i]
        listing = ("<ul>" + "".join(f'<li><a href="/books/{b.id}">{html.escape(b.title)}</a>'
                                    f" by {html.escape(b.author)}</li>" for b in books)
                   + "</ul>") if books else "<p>You have no reservations.</p>"
        body = f'<h1 class="{c("page-title")}">My reservations</h1>{listing}'
        return 200, self.page("My reservations", body, sess), ""

    def hours(self, sess: dict[str, Any], **_: Any) -> Result:
        c = self.cls
        rows = "".join(
            f"<dt>{day}:</dt><dd>"
            + ("12:00 to 16:00" if day == "Sunday" and self.bug("hours_sunday_open") else when)
            + "</dd>" for day, when in HOURS)
        body = (f'<h1 class="{c("page-title")}">Opening hours</h1>'
                "<p>The main library at 4 Mill Lane is open on these days:</p>"
                f'<dl class="{c("hours")}">{rows}</dl>'
                "<p>We are also closed on public holidays. The book drop by the front door "
                "is open at all times.</p>")
        return 200, self.page("Opening hours", body, sess), ""

    def signin_page(self, sess: dict[str, Any], error: str = "", email: str = "",
                    **_: Any) -> Result:
        c = self.cls
        alert = (f'<p class="{c("alert")}" role="alert">{error}</p>'
                 if error and not self.bug("signin_error_hidden") else "")
        body = (f'<h1 class="{c("page-title")}">Sign in to your account</h1>{alert}'
                '<form method="post" action="/signin">'
                f'<div class="{c("form-row")}"><label for="email">Email</label>'
                f'<input id="email" name="email" type="email" value="{html.escape(email)}" '
                'autocomplete="username"></div>'
                f'<div class="{c("form-row")}"><label for="password">Password</label>'
                '<input id="password" name="password" type="password" '
                'autocomplete="current-password"></div>'
                f'<button class="{c("btn")}" type="submit">Sign in</button></form>'
                '<p>Not a member yet? <a href="/join">Join the library</a>.</p>')
        return 200, self.page("Sign in", body, sess), ""

    def signin(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> Result:
        email = fields.get("email", "").strip().lower()
        reader = READERS.get(email)
        right = reader is not None and (reader[0] == fields.get("password", "")
                                        or self.bug("wrong_password_accepted"))
        if not right or reader is None:
            return self.signin_page(sess, error="The email or password is incorrect.",
                                    email=fields.get("email", ""))
        sess["reader"] = reader[1]
        return 303, "", "/account"

    def signout(self, sess: dict[str, Any], **_: Any) -> Result:
        sess["reader"] = None
        return 303, "", "/"

    def account(self, sess: dict[str, Any], **_: Any) -> Result:
        if not sess.get("reader"):
            return 303, "", "/signin"
        body = (f'<h1 class="{self.cls("page-title")}">Welcome back, '
                f'{html.escape(sess["reader"])}</h1><p>You have no loans and no fines.</p>')
        return 200, self.page("Your account", body, sess), ""

    JOIN_FIELDS = (("name", "Full name", "text"), ("email", "Email", "email"),
                   ("postcode", "Postcode", "text"))

    def join_page(self, sess: dict[str, Any], errors: dict[str, str] | None = None,
                  values: dict[str, str] | None = None, **_: Any) -> Result:
        c = self.cls
        errors = {} if errors is None or self.bug("join_errors_hidden") else errors
        values = values or {}
        summary = ""
        if errors:
            summary = (f'<div class="{c("error-summary")}" role="alert"><h2>There is a problem'
                       "</h2><ul>" + "".join(f'<li><a href="#{k}">{v}</a></li>'
                                            for k, v in errors.items()) + "</ul></div>")

        def row(name: str, label: str, kind: str) -> str:
            err = (f'<p class="{c("field-error")}" id="{name}-error">{errors[name]}</p>'
                   if name in errors else "")
            return (f'<div class="{c("form-row")}"><label for="{name}">{label}</label>'
                    f'<input id="{name}" name="{name}" type="{kind}" '
                    f'value="{html.escape(values.get(name, ""))}">{err}</div>')

        rules_err = (f'<p class="{c("field-error")}" id="rules-error">{errors["rules"]}</p>'
                     if "rules" in errors else "")
        ticked = " checked" if values.get("rules") else ""
        body = (f'<h1 class="{c("page-title")}">Join the library</h1>'
                "<p>Membership is free. Fill in the form and collect your card at the front "
                "desk.</p>" + summary
                + '<form method="post" action="/join" novalidate>'
                + "".join(row(*f) for f in self.JOIN_FIELDS)
                + f'<div class="{c("form-row")}"><input id="rules" name="rules" '
                f'type="checkbox" value="yes"{ticked}> <label for="rules">I agree to the '
                f"library's rules</label>{rules_err}</div>"
                f'<button class="{c("btn")}" type="submit">Join</button></form>')
        return 200, self.page("Join the library", body, sess), ""

    def join(self, sess: dict[str, Any], fields: dict[str, str], **_: Any) -> Result:
        errors: dict[str, str] = {}
        if not fields.get("name", "").strip():
            errors["name"] = "Full name is required."
        if "@" not in fields.get("email", ""):
            errors["email"] = "Enter an email address, like name@example.com."
        if not fields.get("postcode", "").strip():
            errors["postcode"] = "Postcode is required."
        if not fields.get("rules"):
            errors["rules"] = "You must agree to the library's rules."
        if errors and not self.bug("join_accepts_empty"):
            return self.join_page(sess, errors=errors, values=fields)
        card = f"AV-{10400 + len(self.members)}"
        self.members.append({**fields, "card": card})
        return 303, "", f"/join/welcome?card={card}&name={quote(fields.get('name', ''))}"

    def welcome(self, sess: dict[str, Any], query: dict[str, str], **_: Any) -> Result:
        name = query.get("name", "").strip()
        hello = f"Welcome to the library, {html.escape(name)}!" if name \
            else "Welcome to the library!"
        body = (f'<h1 class="{self.cls("page-title")}">{hello}</h1>'
                f"<p>Your library card number is {html.escape(query.get('card', ''))}. "
                "Bring some proof of address to the front desk to collect your card.</p>")
        return 200, self.page("Welcome", body, sess), ""


def main() -> None:  # python -m bench.apps.library [--port 8801]
    LibraryApp.main("python -m bench.apps.library", f"the {NAME}", 8801)
