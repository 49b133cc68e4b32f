"""A small library site the explorer has never seen, served on loopback for the explore
tests: a searchable catalogue whose titles link to their own pages (as cards on a shelf
page), a page reached only from a "More" menu, a validated "Join the library" form, sign-in,
and an account page with five forms that change data on the server, none of whose words a
list of destructive words would hold against them all: Archive, Unsubscribe, Revoke, Send and
a plain Save (a form post, a form post overriding its method, a fetch DELETE, a fetch with
a JSON body, a form post).

Every request the server receives is in ``.log`` as (method, path), whatever its method, so
a test asserts on what reached the server, not on what the explorer says it sent.
"""

from __future__ import annotations

import html
import json
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from pytest_webtask.testing import LoopbackServer

PASSWORD = "bodleian-1602"
BOOKS = [("The Hobbit", "J. R. R. Tolkien"), ("Middlemarch", "George Eliot"),
         ("Beloved", "Toni Morrison"), ("Dune", "Frank Herbert"),
         ("Persuasion", "Jane Austen")]
WRITES = ("/loans/archive", "/newsletter", "/tokens/1", "/messages", "/preferences")

NAV = ("<header><nav><a href='/'>Home</a> <a href='/catalogue'>Catalogue</a> "
       "<a href='/shelves'>Shelves</a> <a href='/join'>Join</a> <a href='/signin'>Sign in</a>"
       "</nav></header>")
FOOTER = "<footer><a href='http://libraries.invalid/network'>Library network</a></footer>"
MENU = ("<div class='menu'><button type='button' aria-expanded='false' aria-controls='more' "
        "onclick=\"const m = document.getElementById('more'); m.hidden = !m.hidden; "
        "this.setAttribute('aria-expanded', String(!m.hidden))\">More</button>"
        "<ul id='more' hidden><li><a href='/hours'>Opening hours</a></li></ul></div>")

ACCOUNT = """
<h1>Your account</h1>
<p>Signed in as Ada</p>
<section><h2>Old loans</h2>
  <form method="post" action="/loans/archive"><button>Archive</button></form></section>
<section><h2>Newsletter</h2>
  <form method="post" action="/newsletter"><input type="hidden" name="_method" value="DELETE">
  <button>Unsubscribe</button></form></section>
<section><h2>API tokens</h2>
  <p>Token ending 4f2a</p>
  <button type="button" onclick="fetch('/tokens/1', {method: 'DELETE'}).then(
    () => { document.getElementById('tokens').textContent = 'Token revoked'; })">Revoke
  </button><p id="tokens"></p></section>
<section><h2>Ask a librarian</h2>
  <form id="ask"><label>Message <textarea name="message"></textarea></label>
  <button>Send</button></form><p id="sent"></p></section>
<section><h2>Preferences</h2>
  <form method="post" action="/preferences"><label>Pick-up branch
  <select name="branch"><option>Central</option><option>Riverside</option></select></label>
  <button>Save</button></form></section>
<script>
document.getElementById('ask').addEventListener('submit', (e) => {
  e.preventDefault();
  fetch('/messages', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({message: e.target.message.value})}).then(
    () => { document.getElementById('sent').textContent = 'Message sent'; });
});
</script>
"""


def _page(title: str, body: str, menu: bool = False) -> str:
    return (f"<!doctype html><html><head><title>{html.escape(title)} - City Library</title>"
            f"</head><body>{NAV}{MENU if menu else ''}<main>{body}</main>{FOOTER}</body></html>")


def _join_form(errors: list[str], name: str = "", email: str = "") -> str:
    summary = ""
    if errors:
        summary = ("<div role='alert'><p>Please fix the errors below.</p><ul>"
                   + "".join(f"<li>{html.escape(e)}</li>" for e in errors) + "</ul></div>")
    return (f"<h1>Join the library</h1>{summary}"
            "<form method='post' action='/join' novalidate>"
            f"<label>Full name <input name='name' value='{html.escape(name)}'></label>"
            f"<label>Email <input type='email' name='email' value='{html.escape(email)}'>"
            "</label><button>Sign up</button></form>")


class LibraryApp:
    """The site on a free loopback port (``.url``); ``.log`` holds (method, path) of every
    request in the order received."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        app = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _record(self) -> tuple[str, dict[str, str]]:
                path = urlsplit(self.path).path
                app.log.append((self.command, path))
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    return path, {k: str(v) for k, v in json.loads(raw or "{}").items()}
                return path, {k: v[0] for k, v in parse_qs(raw).items()}

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                path, _ = self._record()
                query = parse_qs(urlsplit(self.path).query)
                signed_in = "session=ada" in (self.headers.get("Cookie") or "")
                if path == "/":
                    return self._send(_page("Home", "<h1>City Library</h1><p>Borrow books, "
                                            "join events, ask a librarian.</p>", menu=True))
                if path == "/catalogue":
                    q = query.get("q", [""])[0].strip().lower()
                    found = [(n, b) for n, b in enumerate(BOOKS, 1) if q in b[0].lower()]
                    items = "".join(f"<li><a href='/book/{n}'>{html.escape(t)}</a> "
                                    f"<span>by {html.escape(a)}</span></li>"
                                    for n, (t, a) in found)
                    count = f"{len(found)} book" + ("" if len(found) == 1 else "s")
                    return self._send(_page("Catalogue", (
                        "<h1>Catalogue</h1><form method='get' action='/catalogue'>"
                        "<input type='search' name='q' aria-label='Search the catalogue'>"
                        f"<button>Search</button></form><p>{count}</p><ul>{items}</ul>")))
                if path == "/shelves":
                    cards = "".join(
                        f"<div class='card'><h3>{html.escape(t)}</h3><p>{html.escape(a)}</p>"
                        f"<a href='/book/{n}'>Read more</a></div>"
                        for n, (t, a) in enumerate(BOOKS[:3], 1))
                    return self._send(_page("New on the shelves", (
                        f"<h1>New on the shelves</h1><div class='cards'>{cards}</div>")))
                if path.startswith("/book/") and path[6:].isdigit() \
                        and 1 <= int(path[6:]) <= len(BOOKS):
                    title, author = BOOKS[int(path[6:]) - 1]
                    return self._send(_page(title, (
                        f"<h1>{html.escape(title)}</h1><p>by {html.escape(author)}</p>"
                        "<p>Shelf 3, available to borrow</p>")))
                if path == "/hours":
                    return self._send(_page("Opening hours", (
                        "<h1>Opening hours</h1><p>Monday to Friday, 9:00 to 18:00</p>")))
                if path == "/join":
                    return self._send(_page("Join", _join_form([])))
                if path == "/signin":
                    return self._send(_page("Sign in", (
                        "<h1>Sign in</h1><form method='post' action='/signin'>"
                        "<label>Email <input type='email' name='email'></label>"
                        "<label>Password <input type='password' name='password'></label>"
                        "<button>Sign in</button></form>")))
                if path == "/account":
                    body = ACCOUNT if signed_in else ("<h1>Your account</h1><p>Sign in to "
                                                      "see your account.</p>")
                    return self._send(_page("Your account", body))
                self._send("<h1>Not found</h1>", 404)

            def do_POST(self) -> None:  # noqa: N802
                path, fields = self._record()
                if path == "/signin":
                    if fields.get("password") == PASSWORD:
                        self.send_response(303)
                        self.send_header("Location", "/account")
                        self.send_header("Set-Cookie", "session=ada; Path=/")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return None
                    return self._send(_page("Sign in", "<h1>Sign in</h1><p role='alert'>"
                                            "Wrong email or password.</p>"), 200)
                if path == "/join":
                    errors = [f"{what} is required." for what, key in
                              (("Full name", "name"), ("Email", "email"))
                              if not fields.get(key, "").strip()]
                    if errors:
                        return self._send(_page("Join", _join_form(
                            errors, fields.get("name", ""), fields.get("email", ""))))
                    return self._send(_page("Welcome", "<h1>Welcome to the library</h1>"))
                return self._done(path)

            def do_PUT(self) -> None:  # noqa: N802
                self._done(self._record()[0])

            def do_DELETE(self) -> None:  # noqa: N802
                self._done(self._record()[0])

            def do_PATCH(self) -> None:  # noqa: N802
                self._done(self._record()[0])

            def do_HEAD(self) -> None:  # noqa: N802 - the origin guard asks where GETs lead
                self._record()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _done(self, path: str) -> None:
                self._send(_page("Done", f"<h1>Done</h1><p>{html.escape(path)} changed.</p>"))

            def _send(self, body: str, status: int = 200) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = LoopbackServer(Handler)
        self.url = self._server.url

    def writes(self) -> list[tuple[str, str]]:
        """What changed (or could have changed) the server: every request but GET and
        HEAD."""
        return [(m, p) for m, p in self.log if m not in ("GET", "HEAD")]

    def stop(self) -> None:
        self._server.stop()
