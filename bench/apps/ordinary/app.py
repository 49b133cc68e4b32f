"""A small outdoor shop's staff site on http.server: the ordinary app (issue 73).

Ordinary UI patterns, each as a real site builds it: a shop catalogue with a category per
path (``/shop/jackets``), a sidebar, a count and a pager; an orders table filtered by a
status dropdown, with a pager; a settings form whose "Show only my tasks" changes the tasks
page; a switch (``role="switch"``) that saves itself by ``fetch``; announcements built by
script from JSON; a team search that filters as you type; a task list with a "New task"
modal ``<dialog>``, a ``confirm()`` before a delete, a toast that fades, edit in place and a
count of open tasks. One user is signed in implicitly; everything is kept in memory and a
fresh app (or ``reset()``) starts from ``data``'s data. ``mutants`` are the regressions of
``mutants.MUTANTS``; the benign variant ``wrap`` wraps the containers in two more ``<div>``s
and renames every class and the stylesheet's path, leaving the visible text as it was.
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from ..variant import VariantApp
from .data import (
    ANNOUNCEMENTS,
    CATEGORIES,
    ME,
    ME_EMAIL,
    NAME,
    ORDERS,
    ORDERS_PER_PAGE,
    PRODUCTS,
    PRODUCTS_PER_PAGE,
    STATUSES,
    TEAM,
    Task,
    fresh_tasks,
)
from .mutants import BENIGN, BENIGN_ENV, ENV, MUTANTS

Result = tuple[int, str, str, str]  # status, body, content type, location
HTML = "text/html; charset=utf-8"
JSON = "application/json"

STYLE = """
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;
  background:#f5f7f6;font-size:15px}
a{color:#1d6b52}
.topbar{display:flex;align-items:center;gap:2rem;padding:.6rem 1.5rem;background:#1d3b33;
  color:#e6f2ed}
.brand{font-weight:700;font-size:1.15rem;color:#fff;text-decoration:none}
.brand-sub{font-weight:400;opacity:.7;margin-left:.4rem;font-size:.9rem}
.main-nav ul{display:flex;gap:1.1rem;list-style:none;margin:0;padding:0}
.main-nav a{color:#cfe6dc;text-decoration:none;padding:.3rem 0}
.main-nav a[aria-current=page]{color:#fff;border-bottom:2px solid #7fd1ae}
.user-chip{margin-left:auto;font-size:.9rem;opacity:.9}
.content{max-width:64rem;margin:0 auto;padding:1.5rem}
.page-title{font-size:1.6rem;margin:.2rem 0 1rem}
.card-grid{display:grid;grid-template-columns:repeat(3,1fr);gap:1rem}
.card{background:#fff;border:1px solid #dde3e0;border-radius:6px;padding:1rem}
.card h2{font-size:1.05rem;margin:0 0 .4rem}
.shop-layout{display:grid;grid-template-columns:12rem 1fr;gap:1.5rem}
.sidebar h2{font-size:.85rem;text-transform:uppercase;letter-spacing:.06em;color:#52606d}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar a{display:block;padding:.35rem .5rem;border-radius:4px;text-decoration:none}
.sidebar a[aria-current=page]{background:#dff3ea;font-weight:600}
.product-count{color:#52606d;margin:.2rem 0 .8rem}
.product-grid{display:grid;grid-template-columns:repeat(4,1fr);gap:.8rem;list-style:none;
  margin:0;padding:0}
.product-card{background:#fff;border:1px solid #dde3e0;border-radius:6px;padding:.7rem}
.product-image{height:5rem;background:linear-gradient(135deg,#cfe6dc,#9cc9b6);
  border-radius:4px;margin-bottom:.5rem}
.product-name{font-size:.95rem;margin:0 0 .3rem}
.product-price{margin:0;font-weight:600}
.pager{display:flex;gap:1rem;align-items:center;justify-content:center;margin:1.2rem 0}
.pager .disabled{color:#9aa5b1}
.filters{display:flex;gap:.6rem;align-items:center;margin-bottom:.8rem}
.filters select{font:inherit;padding:.3rem}
.btn{font:inherit;padding:.4rem .9rem;border:0;border-radius:4px;background:#1d6b52;
  color:#fff;cursor:pointer}
.btn:hover{background:#155741}
.btn-secondary{background:#e4e9e7;color:#1f2933}
.btn-secondary:hover{background:#d3dbd8}
.btn-small{font:inherit;font-size:.85rem;padding:.2rem .6rem;border:1px solid #c4ccc9;
  border-radius:4px;background:#fff;cursor:pointer}
.btn-danger{color:#b42318;border-color:#f1b5ae}
.table-info{color:#52606d;margin:.4rem 0}
.data-table{width:100%;border-collapse:collapse;background:#fff}
.data-table th,.data-table td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e4e9e7}
.data-table th{background:#eef2f0;font-size:.85rem;text-transform:uppercase;color:#52606d}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem}
.badge-pending{background:#fff4d6;color:#8a5b00}
.badge-shipped{background:#dceefe;color:#0b4f8a}
.badge-delivered{background:#dff3ea;color:#1d6b52}
.badge-cancelled{background:#f3e0de;color:#8a1c12}
.page-head{display:flex;align-items:center;justify-content:space-between}
.task-count{color:#52606d;margin:.2rem 0 .8rem}
.filter-note{background:#eef7f3;border-left:3px solid #1d6b52;padding:.4rem .8rem}
.task-list{list-style:none;margin:0;padding:0;background:#fff;border:1px solid #dde3e0;
  border-radius:6px}
.task{display:flex;justify-content:space-between;align-items:center;padding:.6rem .8rem;
  border-bottom:1px solid #eef2f0}
.task:last-child{border-bottom:0}
.task-title{font-weight:600}
.task-meta{display:block;color:#52606d;font-size:.85rem}
.task-actions{display:flex;gap:.4rem}
.task-title-input{font:inherit;font-weight:600;padding:.2rem .4rem;width:22rem}
.modal{border:0;border-radius:8px;padding:1.2rem 1.5rem;width:26rem;
  box-shadow:0 10px 30px rgba(0,0,0,.25)}
.modal::backdrop{background:rgba(20,30,28,.45)}
.modal h2{margin-top:0}
.field{margin:.7rem 0}
.field label{display:block;margin-bottom:.2rem;font-weight:600}
.field input,.field select{font:inherit;padding:.35rem .5rem;width:100%;
  border:1px solid #c4ccc9;border-radius:4px}
.modal-actions{display:flex;gap:.5rem;justify-content:flex-end;margin-top:1rem}
.toasts{position:fixed;right:1.2rem;bottom:1.2rem;display:flex;flex-direction:column;
  gap:.5rem;z-index:50}
.toast{background:#1f2933;color:#fff;padding:.6rem 1rem;border-radius:6px;
  box-shadow:0 4px 12px rgba(0,0,0,.2);transition:opacity .4s}
.toast-leaving{opacity:0}
.settings-section{background:#fff;border:1px solid #dde3e0;border-radius:6px;
  padding:1rem 1.2rem;margin-bottom:1.2rem}
.settings-section h2{font-size:1.1rem;margin-top:0}
.settings-form{max-width:26rem}
.check-row{display:flex;gap:.5rem;align-items:center;margin:.9rem 0 .2rem}
.hint{color:#52606d;font-size:.85rem;margin:.1rem 0 .6rem}
.notice{background:#dff3ea;border:1px solid #9cc9b6;padding:.5rem .8rem;border-radius:4px}
.switch-row{display:flex;align-items:center;justify-content:space-between;max-width:30rem;
  padding:.5rem 0;border-bottom:1px solid #eef2f0}
.switch-label{font-weight:600}
.switch{position:relative;width:2.6rem;height:1.4rem;border:0;border-radius:999px;
  background:#c4ccc9;cursor:pointer;padding:0}
.switch[aria-checked=true]{background:#1d6b52}
.switch-knob{position:absolute;top:.15rem;left:.15rem;width:1.1rem;height:1.1rem;
  border-radius:50%;background:#fff;transition:left .15s}
.switch[aria-checked=true] .switch-knob{left:1.35rem}
.search-field{max-width:24rem;margin-bottom:.6rem}
.search-field label{display:block;font-weight:600;margin-bottom:.2rem}
.search-field input{font:inherit;width:100%;padding:.4rem .5rem;border:1px solid #c4ccc9;
  border-radius:4px}
.team-count{color:#52606d}
.team-list{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr;
  gap:.6rem}
.member{background:#fff;border:1px solid #dde3e0;border-radius:6px;padding:.6rem .8rem}
.member-name{display:block;font-weight:600}
.member-role{display:block;color:#52606d;font-size:.9rem}
.announcement{background:#fff;border:1px solid #dde3e0;border-radius:6px;padding:.8rem 1rem;
  margin-bottom:.8rem}
.announcement h2{font-size:1.1rem;margin:0 0 .2rem}
.announcement-meta{color:#52606d;font-size:.85rem;margin:0 0 .5rem}
.site-footer{max-width:64rem;margin:2rem auto 1rem;padding:0 1.5rem;color:#7b8794;
  font-size:.85rem}
"""

TOKENS = re.compile(r"@([a-z][a-z-]*[a-z])@")  # a class name in the scripts: @task-title@

# Every page: the toast (``toast(text)``), shown for TOAST_MS, fading out before it goes.
TOAST_SCRIPT = """
function toast(text) {
  if (TOASTS_OFF) return;
  const region = document.querySelector('.@toasts@');
  const note = document.createElement('div');
  note.className = '@toast@';
  note.textContent = text;
  region.appendChild(note);
  setTimeout(() => note.classList.add('@toast-leaving@'), Math.max(TOAST_MS - 400, 0));
  setTimeout(() => note.remove(), TOAST_MS);
}
"""

TASKS_SCRIPT = """
const list = document.querySelector('.@task-list@');
const count = document.querySelector('.@task-count@');
const dialog = document.getElementById('new-task-dialog');
const form = dialog.querySelector('form');

function countText(n) {
  return n === 0 ? 'No open tasks' : n === 1 ? '1 open task' : n + ' open tasks';
}
function recount() {
  if (COUNT_STUCK) return;
  count.textContent = countText(list.querySelectorAll('.@task@').length);
}
async function send(url, body) {
  const reply = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                  body: JSON.stringify(body || {})});
  if (!reply.ok) throw new Error('HTTP ' + reply.status);
  return reply.status === 204 ? null : reply.json();
}
function taskItem(task) {
  const li = document.createElement('li');
  li.className = '@task@';
  li.dataset.id = task.id;
  li.innerHTML = '<div><span class="@task-title@"></span><span class="@task-meta@"></span></div>'
    + '<div class="@task-actions@"><button type="button" class="@btn-small@ @edit@">Edit</button>'
    + '<button type="button" class="@btn-small@ @btn-danger@ @delete@">Delete</button></div>';
  li.querySelector('.@task-title@').textContent = task.title;
  li.querySelector('.@task-meta@').textContent =
    'Assigned to ' + task.assignee + ' \\u00b7 Due ' + task.due;
  return li;
}

document.getElementById('new-task').addEventListener('click', () => {
  form.reset();
  dialog.showModal();
});
dialog.querySelector('.@cancel@').addEventListener('click', () => dialog.close());
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const title = form.elements.title.value.trim();
  const due = form.elements.due.value;
  if (CREATE_LOST) { dialog.close(); return; }
  const task = await send('/api/tasks', {title: title, due: due});
  list.appendChild(taskItem(task));
  recount();
  dialog.close();
  toast('Task created');
});

function startEdit(li) {
  const title = li.querySelector('.@task-title@');
  const actions = li.querySelector('.@task-actions@');
  const old = title.textContent;
  const input = document.createElement('input');
  input.type = 'text';
  input.className = '@task-title-input@';
  input.value = old;
  input.setAttribute('aria-label', 'Task title');
  title.replaceWith(input);
  const kept = [...actions.children];
  actions.replaceChildren();
  const save = document.createElement('button');
  save.type = 'button'; save.className = '@btn-small@'; save.textContent = 'Save';
  const cancel = document.createElement('button');
  cancel.type = 'button'; cancel.className = '@btn-small@'; cancel.textContent = 'Cancel';
  actions.append(save, cancel);
  input.focus();
  input.select();
  const finish = (text) => {
    title.textContent = text;
    input.replaceWith(title);
    actions.replaceChildren(...kept);
  };
  const commit = async () => {
    const text = input.value.trim();
    if (!text) return;
    if (!EDIT_NOT_SAVED) await send('/api/tasks/' + li.dataset.id, {title: text});
    finish(text);
    toast('Task saved');
  };
  save.addEventListener('click', commit);
  cancel.addEventListener('click', () => finish(old));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); commit(); }
    if (event.key === 'Escape') finish(old);
  });
}

async function remove(li) {
  if (!NO_CONFIRM) {
    const sure = window.confirm('Delete this task?');
    if (CONFIRM_INVERTED ? sure : !sure) return;
  }
  await send('/api/tasks/' + li.dataset.id + '/delete');
  li.remove();
  recount();
  toast('Task deleted');
}

list.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (!button) return;
  const li = button.closest('.@task@');
  if (button.classList.contains('@edit@')) startEdit(li);
  else if (button.classList.contains('@delete@')) remove(li);
});
"""

SWITCH_SCRIPT = """
document.querySelectorAll('[role=switch]').forEach((button) => {
  button.addEventListener('click', async () => {
    const on = button.getAttribute('aria-checked') !== 'true';
    button.setAttribute('aria-checked', String(on));
    if (SWITCH_NOT_SAVED) return;
    const reply = await fetch('/api/settings', {
      method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({[button.dataset.setting]: on})});
    if (!reply.ok) button.setAttribute('aria-checked', String(!on));
  });
});
"""

TEAM_SCRIPT = """
const search = document.getElementById('team-search');
const members = [...document.querySelectorAll('.@member@')];
const count = document.querySelector('.@team-count@');
const none = document.querySelector('.@no-match@');
let timer = null;

function filter() {
  const query = SEARCH_IGNORED ? '' : search.value.trim().toLowerCase();
  let shown = 0;
  for (const member of members) {
    const match = member.textContent.toLowerCase().includes(query);
    member.hidden = !match;
    if (match) shown += 1;
  }
  count.textContent = shown === 1 ? '1 person' : shown + ' people';
  none.hidden = shown !== 0;
}
search.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(filter, 250);
});
"""

ANNOUNCEMENTS_SCRIPT = """
(async () => {
  const box = document.getElementById('announcements');
  const reply = await fetch('/api/announcements');
  const items = await reply.json();
  box.replaceChildren();
  if (!items.length) {
    const p = document.createElement('p');
    p.textContent = 'No announcements yet.';
    box.appendChild(p);
    return;
  }
  for (const item of items) {
    const article = document.createElement('article');
    article.className = '@announcement@';
    const h2 = document.createElement('h2');
    h2.textContent = item.title;
    const meta = document.createElement('p');
    meta.className = '@announcement-meta@';
    meta.textContent = 'Posted ' + item.date + ' by ' + item.author;
    const body = document.createElement('p');
    body.textContent = item.body;
    article.append(h2, meta, body);
    box.appendChild(article);
  }
})();
"""

NAV = (("/", "Home"), ("/shop/all", "Shop"), ("/orders", "Orders"), ("/tasks", "Tasks"),
       ("/team", "Team"), ("/announcements", "Announcements"), ("/settings", "Settings"))


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def task_count(n: int) -> str:
    return "No open tasks" if n == 0 else plural(n, "open task", "open tasks")


class OrdinaryApp(VariantApp):
    """Serve with ``start()`` or as a context manager; ``url`` is the base URL.

    ``mutants`` and ``benign`` default to the environment's ``ORDINARY_MUTANT`` and
    ``ORDINARY_BENIGN``; both are attributes a test or the bench may change between runs, as
    is ``toast_seconds`` (how long a toast shows).
    """

    WHAT = "ordinary app"
    MUTANTS = MUTANTS
    BENIGN = BENIGN
    ENV = ENV
    BENIGN_ENV = BENIGN_ENV
    PREFIX = "fh2"
    STYLE = STYLE
    STYLESHEETS = ("/static/ordinary.css", "/assets/v2/staff.css")

    def __init__(self, mutants: set[str] | None = None, benign: set[str] | None = None) -> None:
        super().__init__(mutants, benign)
        self.toast_seconds = 3.0
        self._lock = threading.Lock()
        self.tasks: list[Task] = []
        self.settings: dict[str, Any] = {}
        self.reset()

    # -- lifecycle ------------------------------------------------------------------------

    def reset(self) -> None:
        """The data a fresh app starts with: the tasks and the settings (mutants and variants
        stay)."""
        with self._lock:
            self.tasks = fresh_tasks()
            self.settings = {"display_name": ME, "email": ME_EMAIL,
                             "timezone": "Europe/London", "only_mine": False,
                             "email_notifications": False, "weekly_summary": True}

    # -- markup helpers -------------------------------------------------------------------

    def script(self, source: str, **flags: bool | int) -> str:
        """A page's script: its class names as this variant spells them, its mutants' flags."""
        consts = "".join(f"const {k} = {json.dumps(v)};\n" for k, v in flags.items())
        return "<script>\n(() => {\n" + consts + TOKENS.sub(
            lambda m: self.cls(m.group(1)), source) + "})();\n</script>"

    def page(self, title: str, body: str, here: str, script: str = "",
             **flags: bool) -> str:
        c = self.cls
        links = "".join(
            f'<li><a href="{href}"' + (' aria-current="page"' if href == here else "")
            + f">{label}</a></li>" for href, label in NAV)
        nav = f'<nav class="{c("main-nav")}" aria-label="Main"><ul>{links}</ul></nav>'
        header = (f'<header class="{c("topbar")}"><a class="{c("brand")}" href="/">{NAME}'
                  f'<span class="{c("brand-sub")}">Staff</span></a>{self.wrap(nav, "nav")}'
                  f'<span class="{c("user-chip")}">Signed in as '
                  f'{html.escape(self.settings["display_name"])}</span></header>')
        main = f'<main class="{c("content")}">{body}</main>'
        footer = (f'<footer class="{c("site-footer")}">{NAME} Ltd, Unit 4, Fernhill Trading '
                  "Estate. Staff site: questions to the office on extension 200.</footer>")
        toasts = f'<div class="{c("toasts")}" role="status" aria-live="polite"></div>'
        scripts = self.script(TOAST_SCRIPT + script, TOAST_MS=int(self.toast_seconds * 1000),
                              TOASTS_OFF=self.bug("toast_missing"), **flags) if script else ""
        return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{html.escape(title)} | {NAME} staff</title>"
                f'<link rel="stylesheet" href="{self.stylesheet}"></head><body>'
                f"{self.wrap(header, 'header')}{self.wrap(main, 'main')}"
                f"{self.wrap(footer, 'footer')}{toasts}{scripts}</body></html>")

    def pager(self, page: int, pages: int, href: Callable[[int], str]) -> str:
        c = self.cls
        if pages <= 1:
            return ""
        prev = (f'<a href="{href(page - 1)}" rel="prev">Previous</a>' if page > 1
                else f'<span class="{c("disabled")}">Previous</span>')
        nxt = (f'<a href="{href(page + 1)}" rel="next">Next</a>' if page < pages
               else f'<span class="{c("disabled")}">Next</span>')
        return (f'<nav class="{c("pager")}" aria-label="Pagination">{prev}'
                f"<span>Page {page} of {pages}</span>{nxt}</nav>")

    # -- request handling -----------------------------------------------------------------

    def _handle(self, req: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(req.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        fields: dict[str, str] = {}
        payload: dict[str, Any] = {}
        if method == "POST":
            length = int(req.headers.get("Content-Length") or 0)
            raw = req.rfile.read(length).decode()
            if "json" in req.headers.get("Content-Type", ""):
                try:
                    loaded = json.loads(raw or "{}")
                except ValueError:
                    loaded = None
                payload = loaded if isinstance(loaded, dict) else {}
            else:
                fields = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        path = parts.path.rstrip("/") or "/"
        routes: dict[tuple[str, str], Callable[..., Result]] = {
            ("GET", "/"): self.home, ("GET", "/shop"): lambda **_: self.redirect("/shop/all"),
            ("GET", "/orders"): self.orders, ("GET", "/tasks"): self.tasks_page,
            ("GET", "/team"): self.team, ("GET", "/announcements"): self.announcements,
            ("GET", "/settings"): self.settings_page, ("POST", "/settings"): self.save_settings,
            ("GET", "/api/announcements"): self.api_announcements,
            ("POST", "/api/tasks"): self.api_create_task,
            ("POST", "/api/settings"): self.api_settings,
        }
        task_route = re.fullmatch(r"/api/tasks/(\d+)(/delete)?", path)
        with self._lock:
            if method == "GET" and path == self.stylesheet:
                result: Result = (200, self.css(), "text/css; charset=utf-8", "")
            elif method == "GET" and (shop := re.fullmatch(r"/shop/([a-z]+)", path)):
                result = self.shop(shop.group(1), query)
            elif method == "POST" and task_route:
                result = (self.api_delete_task(int(task_route.group(1))) if task_route.group(2)
                          else self.api_update_task(int(task_route.group(1)), payload))
            elif (method, path) in routes:
                result = routes[(method, path)](query=query, fields=fields, payload=payload)
            else:
                result = self.not_found()
        status, body, ctype, location = result
        data = body.encode()
        req.send_response(status)
        if location:
            req.send_header("Location", location)
        req.send_header("Content-Type", ctype)
        req.send_header("Content-Length", str(len(data)))
        req.send_header("Cache-Control", "no-store")
        req.end_headers()
        req.wfile.write(data)

    @staticmethod
    def redirect(location: str) -> Result:
        return 303, "", HTML, location

    @staticmethod
    def json_reply(value: Any, status: int = 200) -> Result:
        return status, json.dumps(value), JSON, ""

    def not_found(self) -> Result:
        body = (f'<h1 class="{self.cls("page-title")}">Page not found</h1>'
                '<p>There is no page at this address. <a href="/">Back to the start</a>.</p>')
        return 404, self.page("Page not found", body, ""), HTML, ""

    # -- pages ----------------------------------------------------------------------------

    def home(self, **_: Any) -> Result:
        c = self.cls
        first = html.escape(self.settings["display_name"].split(" ")[0])
        cards = (("/shop/all", "Shop", "The catalogue as customers see it, by category."),
                 ("/orders", "Orders", "Every web shop order and where it is."),
                 ("/tasks", "Tasks", "What the office has to do, and who does it."),
                 ("/team", "Team", "Who is who, and how to reach them."),
                 ("/announcements", "Announcements", "News from the office."),
                 ("/settings", "Settings", "Your profile and notifications."))
        items = "".join(f'<section class="{c("card")}"><h2><a href="{href}">{title}</a></h2>'
                        f"<p>{text}</p></section>" for href, title, text in cards)
        body = (f'<h1 class="{c("page-title")}">Good morning, {first}</h1>'
                + self.wrap(f'<div class="{c("card-grid")}">{items}</div>', "cards"))
        return 200, self.page("Home", body, "/"), HTML, ""

    def shop(self, slug: str, query: dict[str, str]) -> Result:
        c = self.cls
        names = dict(CATEGORIES)
        if slug != "all" and slug not in names:
            return self.not_found()
        heading = "All products" if slug == "all" else names[slug]
        products = [p for p in PRODUCTS if slug == "all" or p.category == slug
                    or self.bug("category_ignored")]
        pages = max(1, -(-len(products) // PRODUCTS_PER_PAGE))
        page = min(max(_int(query.get("page"), 1), 1), pages)
        start = 0 if self.bug("pager_stuck") else (page - 1) * PRODUCTS_PER_PAGE
        shown = products[start:start + PRODUCTS_PER_PAGE]
        side = "".join(
            f'<li><a href="/shop/{s}"' + (' aria-current="page"' if s == slug else "")
            + f">{label}</a></li>" for s, label in (("all", "All products"), *CATEGORIES))
        sidebar = (f'<aside class="{c("sidebar")}" aria-label="Categories"><h2>Categories</h2>'
                   f"<ul>{side}</ul></aside>")
        cards = "".join(
            f'<li class="{c("product-card")}"><div class="{c("product-image")}"></div>'
            f'<h3 class="{c("product-name")}">{html.escape(p.name)}</h3>'
            f'<p class="{c("product-price")}">{p.price}</p></li>' for p in shown)
        listing = (f'<section class="{c("catalogue")}">'
                   f'<p class="{c("product-count")}">{plural(len(products), "product", "products")}'
                   "</p>" + self.wrap(f'<ul class="{c("product-grid")}">{cards}</ul>', "grid")
                   + self.pager(page, pages, lambda n: f"/shop/{slug}?page={n}") + "</section>")
        body = (f'<h1 class="{c("page-title")}">{heading}</h1>'
                + self.wrap(f'<div class="{c("shop-layout")}">{sidebar}{listing}</div>', "shop"))
        return 200, self.page(f"{heading} - Shop", body, "/shop/all"), HTML, ""

    def orders(self, query: dict[str, str], **_: Any) -> Result:
        c = self.cls
        status = query.get("status", "").lower()
        if status not in {s.lower() for s in STATUSES}:
            status = ""
        rows = [o for o in ORDERS if not status or o.status.lower() == status
                or self.bug("status_filter_ignored")]
        pages = max(1, -(-len(rows) // ORDERS_PER_PAGE))
        page = min(max(_int(query.get("page"), 1), 1), pages)
        start = (page - 1) * ORDERS_PER_PAGE
        shown = rows[start:start + ORDERS_PER_PAGE]
        options = '<option value="">All statuses</option>' + "".join(
            f'<option value="{s.lower()}"' + (" selected" if s.lower() == status else "")
            + f">{s}</option>" for s in STATUSES)
        filters = (f'<form class="{c("filters")}" method="get" action="/orders">'
                   f'<label for="status">Status</label><select id="status" name="status">'
                   f'{options}</select><button class="{c("btn")}" type="submit">Apply</button>'
                   "</form>")
        info = (f"Showing {start + 1} to {start + len(shown)} of {len(rows)} orders" if rows
                else "No orders")
        body_rows = "".join(
            f"<tr><td>#{o.number}</td><td>{html.escape(o.customer)}</td><td>{o.date}</td>"
            f'<td><span class="{c("badge badge-" + o.status.lower())}">{o.status}</span></td>'
            f"<td>{o.total}</td></tr>" for o in shown)
        table = (f'<table class="{c("data-table")}"><thead><tr><th>Order</th><th>Customer</th>'
                 "<th>Date</th><th>Status</th><th>Total</th></tr></thead>"
                 f"<tbody>{body_rows}</tbody></table>")

        def href(n: int) -> str:
            return "/orders?" + urlencode({**({"status": status} if status else {}), "page": n})

        body = (f'<h1 class="{c("page-title")}">Orders</h1>{filters}'
                f'<p class="{c("table-info")}">{info}</p>' + self.wrap(table, "table")
                + self.pager(page, pages, href))
        return 200, self.page("Orders", body, "/orders"), HTML, ""

    def visible_tasks(self) -> list[Task]:
        mine = self.settings["only_mine"] and not self.bug("show_only_mine_ignored")
        return [t for t in self.tasks if not mine or t.assignee == ME]

    def tasks_page(self, **_: Any) -> Result:
        c = self.cls
        tasks = self.visible_tasks()
        items = "".join(
            f'<li class="{c("task")}" data-id="{t.id}"><div>'
            f'<span class="{c("task-title")}">{html.escape(t.title)}</span>'
            f'<span class="{c("task-meta")}">Assigned to {html.escape(t.assignee)} &middot; '
            f"Due {t.due}</span></div>"
            f'<div class="{c("task-actions")}">'
            f'<button type="button" class="{c("btn-small edit")}">Edit</button>'
            f'<button type="button" class="{c("btn-small btn-danger delete")}">Delete</button>'
            "</div></li>" for t in tasks)
        note = (f'<p class="{c("filter-note")}">Showing only your tasks. You can change this '
                'in <a href="/settings">Settings</a>.</p>' if self.settings["only_mine"] else "")
        dialog = (f'<dialog class="{c("modal")}" id="new-task-dialog" '
                  'aria-labelledby="new-task-heading"><form method="dialog">'
                  '<h2 id="new-task-heading">New task</h2>'
                  f'<div class="{c("field")}"><label for="task-title">Title</label>'
                  '<input id="task-title" name="title" type="text" required></div>'
                  f'<div class="{c("field")}"><label for="task-due">Due date</label>'
                  '<input id="task-due" name="due" type="date" required></div>'
                  f'<div class="{c("modal-actions")}">'
                  f'<button type="button" class="{c("btn btn-secondary cancel")}">Cancel</button>'
                  f'<button type="submit" class="{c("btn")}">Create</button></div>'
                  "</form></dialog>")
        body = (f'<div class="{c("page-head")}"><h1 class="{c("page-title")}">Tasks</h1>'
                f'<button type="button" class="{c("btn")}" id="new-task">New task</button></div>'
                f'<p class="{c("task-count")}">{task_count(len(tasks))}</p>{note}'
                + self.wrap(f'<ul class="{c("task-list")}">{items}</ul>', "tasks") + dialog)
        return 200, self.page("Tasks", body, "/tasks", TASKS_SCRIPT,
                              COUNT_STUCK=self.bug("count_stuck"),
                              CREATE_LOST=self.bug("modal_create_lost"),
                              EDIT_NOT_SAVED=self.bug("edit_in_place_not_saved"),
                              CONFIRM_INVERTED=self.bug("confirm_inverted"),
                              NO_CONFIRM=self.bug("delete_without_confirm")), HTML, ""

    def team(self, **_: Any) -> Result:
        c = self.cls
        items = "".join(
            f'<li class="{c("member")}"><span class="{c("member-name")}">{html.escape(m.name)}'
            f'</span><span class="{c("member-role")}">{html.escape(m.role)}</span>'
            f'<a href="mailto:{m.email}">{m.email}</a></li>' for m in TEAM)
        body = (f'<h1 class="{c("page-title")}">Team</h1>'
                f'<div class="{c("search-field")}"><label for="team-search">Search the team'
                '</label><input id="team-search" type="search" placeholder="Name or role" '
                'autocomplete="off"></div>'
                f'<p class="{c("team-count")}">{plural(len(TEAM), "person", "people")}</p>'
                + self.wrap(f'<ul class="{c("team-list")}">{items}</ul>', "team")
                + f'<p class="{c("no-match")}" hidden>No one matches your search.</p>')
        return 200, self.page("Team", body, "/team", TEAM_SCRIPT,
                              SEARCH_IGNORED=self.bug("search_ignored")), HTML, ""

    def announcements(self, **_: Any) -> Result:
        c = self.cls
        body = (f'<h1 class="{c("page-title")}">Announcements</h1>'
                + self.wrap(f'<div id="announcements" class="{c("announcements")}">'
                            "<p>Loading announcements&hellip;</p></div>", "announcements"))
        return 200, self.page("Announcements", body, "/announcements",
                              ANNOUNCEMENTS_SCRIPT), HTML, ""

    def settings_page(self, query: dict[str, str], **_: Any) -> Result:
        c = self.cls
        s = self.settings
        saved = (f'<p class="{c("notice")}" role="status">Your settings have been saved.</p>'
                 if query.get("saved") == "1" else "")
        zones = "".join(f'<option value="{z}"' + (" selected" if z == s["timezone"] else "")
                        + f">{z}</option>"
                        for z in ("Europe/London", "Europe/Berlin", "America/New_York"))

        def field(name: str, label: str, kind: str) -> str:
            return (f'<div class="{c("field")}"><label for="{name}">{label}</label>'
                    f'<input id="{name}" name="{name}" type="{kind}" '
                    f'value="{html.escape(s[name])}"></div>')

        form = (f'<form class="{c("settings-form")}" method="post" action="/settings">'
                + field("display_name", "Display name", "text")
                + field("email", "Email", "email")
                + f'<div class="{c("field")}"><label for="timezone">Time zone</label>'
                f'<select id="timezone" name="timezone">{zones}</select></div>'
                f'<div class="{c("check-row")}"><input id="only_mine" name="only_mine" '
                f'type="checkbox" value="yes"{" checked" if s["only_mine"] else ""}>'
                '<label for="only_mine">Show only my tasks</label></div>'
                f'<p class="{c("hint")}">The tasks page then lists only the tasks assigned to '
                "you.</p>"
                f'<button class="{c("btn")}" type="submit">Save</button></form>')

        def switch(key: str, label: str, hint: str) -> str:
            return (f'<div class="{c("switch-row")}"><div>'
                    f'<span class="{c("switch-label")}" id="{key}-label">{label}</span>'
                    f'<p class="{c("hint")}">{hint}</p></div>'
                    f'<button type="button" class="{c("switch")}" role="switch" '
                    f'aria-checked="{"true" if s[key] else "false"}" '
                    f'aria-labelledby="{key}-label" data-setting="{key}">'
                    f'<span class="{c("switch-knob")}"></span></button></div>')

        body = (f'<h1 class="{c("page-title")}">Settings</h1>{saved}'
                + self.wrap(f'<section class="{c("settings-section")}" aria-labelledby="'
                            'profile-h"><h2 id="profile-h">Profile and preferences</h2>'
                            f"{form}</section>", "profile")
                + self.wrap(f'<section class="{c("settings-section")}" aria-labelledby="'
                            'notifications-h"><h2 id="notifications-h">Notifications</h2>'
                            + switch("email_notifications", "Email notifications",
                                     "An email when a task is assigned to you.")
                            + switch("weekly_summary", "Weekly summary",
                                     "A summary of the week's orders every Monday.")
                            + "</section>", "notifications"))
        return 200, self.page("Settings", body, "/settings", SWITCH_SCRIPT,
                              SWITCH_NOT_SAVED=self.bug("switch_not_saved")), HTML, ""

    def save_settings(self, fields: dict[str, str], **_: Any) -> Result:
        s = self.settings
        s["display_name"] = fields.get("display_name", "").strip() or s["display_name"]
        s["email"] = fields.get("email", "").strip() or s["email"]
        if fields.get("timezone") in ("Europe/London", "Europe/Berlin", "America/New_York"):
            s["timezone"] = fields["timezone"]
        s["only_mine"] = bool(fields.get("only_mine"))
        return self.redirect("/settings?saved=1")

    # -- the JSON API the scripts call -------------------------------------------------------

    def api_announcements(self, **_: Any) -> Result:
        return self.json_reply([] if self.bug("announcements_empty") else list(ANNOUNCEMENTS))

    def api_settings(self, payload: dict[str, Any], **_: Any) -> Result:
        known = {k: v for k, v in payload.items()
                 if k in ("email_notifications", "weekly_summary") and isinstance(v, bool)}
        if not known:
            return self.json_reply({"error": "nothing to save"}, 400)
        self.settings.update(known)
        return self.json_reply({k: self.settings[k]
                                for k in ("email_notifications", "weekly_summary")})

    def api_create_task(self, payload: dict[str, Any], **_: Any) -> Result:
        title = str(payload.get("title", "")).strip()
        due = str(payload.get("due", "")).strip()
        if not title or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", due):
            return self.json_reply({"error": "a title and a due date are needed"}, 400)
        task = Task(max((t.id for t in self.tasks), default=0) + 1, title, ME, due)
        self.tasks.append(task)
        return self.json_reply(vars(task), 201)

    def api_update_task(self, task_id: int, payload: dict[str, Any]) -> Result:
        task = next((t for t in self.tasks if t.id == task_id), None)
        title = str(payload.get("title", "")).strip()
        if task is None:
            return self.json_reply({"error": "no such task"}, 404)
        if not title:
            return self.json_reply({"error": "a title is needed"}, 400)
        task.title = title
        return self.json_reply(vars(task))

    def api_delete_task(self, task_id: int) -> Result:
        self.tasks = [t for t in self.tasks if t.id != task_id]
        return 204, "", JSON, ""


def _int(value: str | None, default: int) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def main() -> None:  # python -m bench.apps.ordinary [--port 8810]
    OrdinaryApp.main("python -m bench.apps.ordinary", f"{NAME} staff site", 8810,
                     "ORDINARY_PORT")
