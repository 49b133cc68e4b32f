"""The ordinary app (bench/apps/ordinary, issue 73): it serves; each frozen test's claim holds
on it and on its benign ``wrap`` variant (driven with plain Playwright, no agent); each mutant
really breaks the claim of the test that covers it, and not the claims near it; the ``wrap``
variant changes the DOM and not the visible text; and ``bench/recording.py --app ordinary``
starts it and switches its mutants and variant.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Locator, Page

from bench import recording
from bench.apps.ordinary import ANNOUNCEMENTS, ME, MUTANTS, ORDERS, PRODUCTS, TEAM, OrdinaryApp
from bench.apps.ordinary import fresh_tasks as tasks_of_a_fresh_app
from bench.apps.ordinary.mutants import parse
from bench.apps.ordinary.tests import COVERED_BY, TESTS
from bench.common import ROOT


@pytest.fixture(scope="module")
def app() -> Iterator[OrdinaryApp]:
    with OrdinaryApp(mutants=set(), benign=set()) as running:
        yield running


@pytest.fixture
def fresh(app: OrdinaryApp) -> Iterator[OrdinaryApp]:
    """The app as a test starts it: no bug, no variant, fresh data; and so it is left."""
    app.mutants, app.benign, app.toast_seconds = set(), set(), 3.0
    app.reset()
    yield app
    app.mutants, app.benign, app.toast_seconds = set(), set(), 3.0
    app.reset()


def get(app: OrdinaryApp, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(app.url + path) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def post(app: OrdinaryApp, path: str, body: dict[str, Any] | None = None,
         **fields: str) -> tuple[int, str]:
    """A form's POST (``fields``) or a script's JSON POST (``body``) to ``path``."""
    if body is not None:
        request = urllib.request.Request(app.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
    else:
        request = urllib.request.Request(app.url + path,
                                         data=urllib.parse.urlencode(fields).encode())
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


# -- the app serves ----------------------------------------------------------------------


@pytest.mark.bench
def test_the_app_serves_its_pages(fresh: OrdinaryApp) -> None:
    for path, text in [("/", "Good morning, Sam"), ("/shop", "30 products"),
                       ("/shop/all", "Page 1 of 2"), ("/shop/all?page=2", "Trail Beanie"),
                       ("/shop/jackets", "7 products"), ("/orders", "of 40 orders"),
                       ("/orders?status=pending", "Showing 1 to 15 of 18 orders"),
                       ("/orders?status=pending&page=2", "Showing 16 to 18 of 18 orders"),
                       ("/tasks", "8 open tasks"), ("/team", "12 people"),
                       ("/announcements", "Loading announcements"),
                       ("/settings", 'role="switch" aria-checked="false"'),
                       ("/static/ordinary.css", ".switch[aria-checked=true]")]:
        status, body = get(fresh, path)
        assert status == 200 and text in body, path
    assert get(fresh, "/shop/hats")[0] == 404 and get(fresh, "/nope")[0] == 404
    assert "Trail Beanie" not in get(fresh, "/shop/all")[1]  # the first page is full: 24
    assert get(fresh, "/shop/all")[1].count("<h3") == 24
    status, body = get(fresh, "/api/announcements")
    assert status == 200 and json.loads(body)[0]["title"] == "Office closed on 24 December"
    assert get(fresh, "/static/ordinary.css")[1].count("{") >= 60  # a real stylesheet


@pytest.mark.bench
def test_the_scripts_api_keeps_what_it_is_sent(fresh: OrdinaryApp) -> None:
    status, body = post(fresh, "/api/tasks", {"title": "Order toner", "due": "2026-12-20"})
    made = json.loads(body)
    assert status == 201 and made["assignee"] == ME and made["id"] == 9
    assert post(fresh, "/api/tasks", {"title": "", "due": "2026-12-20"})[0] == 400
    assert post(fresh, "/api/tasks/2", {"title": "Book the hall"})[0] == 200
    assert post(fresh, "/api/tasks/1/delete")[0] == 204
    tasks = get(fresh, "/tasks")[1]
    assert "Order toner" in tasks and "Book the hall" in tasks and "Water the plants" not in tasks
    assert "8 open tasks" in tasks  # one made, one deleted
    assert post(fresh, "/api/settings", {"email_notifications": True})[0] == 200
    assert 'aria-checked="true" aria-labelledby="email_notifications-label"' \
        in get(fresh, "/settings")[1]
    assert post(fresh, "/settings", display_name="Sam Ortiz", only_mine="yes")[0] == 200
    assert "4 open tasks" in get(fresh, "/tasks")[1]  # only Sam's, with the new one
    fresh.reset()
    assert "8 open tasks" in get(fresh, "/tasks")[1] and "Water the plants" in get(
        fresh, "/tasks")[1]


@pytest.mark.bench
def test_unknown_mutants_and_variants_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown ordinary app value"):
        parse("search_ignored,nope")
    monkeypatch.setenv("ORDINARY_MUTANT", "search_ignored,toast_missing")
    monkeypatch.setenv("ORDINARY_BENIGN", "wrap")
    app = OrdinaryApp()
    assert app.mutants == {"search_ignored", "toast_missing"} and app.benign == {"wrap"}
    monkeypatch.setenv("ORDINARY_BENIGN", "shuffle")
    with pytest.raises(ValueError, match="ORDINARY_BENIGN"):
        OrdinaryApp()
    with pytest.raises(ValueError, match="unknown mutant"):
        OrdinaryApp(mutants={"nope"}, benign=set())


@pytest.mark.bench
def test_every_mutant_is_covered_by_a_frozen_test() -> None:
    covered = {m for ms in COVERED_BY.values() for m in ms}
    assert covered == set(MUTANTS) and set(COVERED_BY) == set(TESTS)
    assert len(TESTS) >= 12
    frozen = (ROOT / "bench/apps/ordinary/tests.py").read_text()
    assert frozen.startswith("# Frozen validation set (issue 73): written once, never tuned "
                             "on; do not edit to make the agent pass.")


@pytest.mark.bench
def test_the_data_is_what_the_tests_name() -> None:
    names = [p.name for p in PRODUCTS]
    assert len(set(names)) == len(names) == 30
    jackets = [p for p in PRODUCTS if p.category == "jackets"]
    assert len(jackets) == 7 and all("Jacket" in p.name for p in jackets)
    assert not any("Jacket" in p.name for p in PRODUCTS if p.category != "jackets")
    assert names.index("Trail Beanie") >= 24  # on page 2 of All products
    pending = [o for o in ORDERS if o.status == "Pending"]
    assert len(ORDERS) == 40 and len(pending) == 18
    assert any(o.status != "Pending" for o in ORDERS[:15])  # the unfiltered page is mixed
    assert sum("Priya" in m.name for m in TEAM) == 1
    assert ANNOUNCEMENTS[0]["title"] == "Office closed on 24 December"
    tasks = tasks_of_a_fresh_app()
    titles = [t.title for t in tasks]
    mine = [t for t in tasks if t.assignee == ME]
    assert len(tasks) == 8 and len(mine) == 3
    # the tasks the tests change are each used by one test only, and none is another's prefix
    changed = ["Water the plants", "Renew the parking permit", "Book the venue",
               "Call the courier", "Empty the dishwasher"]
    assert all(sum(t.startswith(c) for t in titles) == 1 for c in changed)
    assert all(sum(f"'{c}'" in body for body in TESTS.values()) == 1 for c in changed)


@pytest.mark.parametrize(("module", "shown"), [
    pytest.param("bench.apps.ordinary", "Good morning", marks=pytest.mark.bench),
    ("example_suites.demo_shop", "Add to cart")])
def test_the_app_serves_until_interrupted(python: Any, module: str, shown: str) -> None:
    """``python -m bench.apps.ordinary`` (and the demo shop's, the same
    ``LoopbackApp.serve_until_interrupted``) prints its URL and serves until Ctrl-C; on a
    port in use, it says so."""
    assert python  # marks this test as one that starts processes
    # SIGINT as a terminal sends it: a shell's background job (``cmd &``) starts with SIGINT
    # ignored, and Python then leaves it ignored; the server would never stop
    server = subprocess.Popen([sys.executable, "-m", module, "--port", "0"],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert url, line
        with urllib.request.urlopen(url.group(0) + "/", timeout=10) as reply:
            assert shown in reply.read().decode()
        # a second one on the same port says so, without a traceback
        port = url.group(0).rsplit(":", 1)[1]
        taken = subprocess.run([sys.executable, "-m", module, "--port", port], cwd=ROOT,
                               capture_output=True, text=True, timeout=30)
        assert taken.returncode == 1, taken
        assert f"cannot serve on port {port}:" in taken.stderr and "--port" in taken.stderr
        assert "Traceback" not in taken.stderr
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
    assert server.returncode == 0


# -- the frozen tests' claims, driven with plain Playwright ------------------------------


def soon(page: Page, held: Callable[[], bool], seconds: float = 1.5) -> bool:
    """Whether ``held`` holds within ``seconds`` (polled): what a script does, it does later."""
    waited = 0.0
    while not held():
        if waited >= seconds:
            return False
        page.wait_for_timeout(50)
        waited += 0.05
    return True


def navigate(page: Page, link: Locator) -> None:
    """Follow a link or press a form's button, and wait for the page it loads."""
    with page.expect_navigation():
        link.click()
    page.wait_for_load_state()


def items(page: Page) -> Locator:
    """The list items of the page's main area (the sidebar's too, on the shop)."""
    return page.get_by_role("main").get_by_role("listitem")


def task(page: Page, title: str) -> Locator:
    return items(page).filter(has=page.get_by_text(title, exact=True))


def category(page: Page) -> bool:
    page.goto("/shop/all")
    assert page.get_by_text("30 products", exact=True).is_visible()
    assert page.get_by_role("heading", level=3).count() == 24
    navigate(page, page.get_by_role("complementary").get_by_role("link", name="Jackets"))
    names = page.get_by_role("heading", level=3).all_inner_texts()
    return (page.url.endswith("/shop/jackets")
            and page.get_by_text("7 products", exact=True).is_visible()
            and len(names) == 7 and all("Jacket" in n for n in names))


def next_page(page: Page) -> bool:
    page.goto("/shop/all")
    navigate(page, page.get_by_role("navigation", name="Pagination")
             .get_by_role("link", name="Next"))
    names = page.get_by_role("heading", level=3).all_inner_texts()
    return (page.get_by_text("Page 2 of 2", exact=True).is_visible()
            and "Trail Beanie" in names and len(names) == 6)


def pending_orders(page: Page) -> bool:
    page.goto("/orders")
    page.get_by_label("Status").select_option(label="Pending")
    navigate(page, page.get_by_role("button", name="Apply"))
    statuses = [row.get_by_role("cell").nth(3).inner_text()
                for row in page.locator("tbody tr").all()]
    return (page.get_by_text("Showing 1 to 15 of 18 orders", exact=True).is_visible()
            and len(statuses) == 15 and set(statuses) == {"Pending"})


def only_my_tasks(page: Page) -> bool:
    page.goto("/settings")
    page.get_by_label("Show only my tasks").check()
    navigate(page, page.get_by_role("button", name="Save"))
    assert page.get_by_role("status").filter(
        has_text="Your settings have been saved.").is_visible()
    assert page.get_by_label("Show only my tasks").is_checked()
    page.goto("/tasks")
    listed = items(page).all_inner_texts()
    return len(listed) == 3 and all(f"Assigned to {ME}" in t for t in listed)


def email_notifications(page: Page) -> bool:
    page.goto("/settings")
    switch = page.get_by_role("switch", name="Email notifications")
    assert switch.get_attribute("aria-checked") == "false"
    sent: list[str] = []
    page.on("requestfinished", lambda r: sent.append(r.url))
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"  # the page flips it at once
    soon(page, lambda: any(u.endswith("/api/settings") for u in sent), 0.5)
    page.goto("/settings")
    return page.get_by_role("switch", name="Email notifications") \
        .get_attribute("aria-checked") == "true"


def announcements(page: Page) -> bool:
    page.goto("/")
    navigate(page, page.get_by_role("navigation", name="Main")
             .get_by_role("link", name="Announcements"))
    title = page.get_by_role("heading", name="Office closed on 24 December")
    return soon(page, title.is_visible) and page.get_by_role("article").count() == 3


def team_search(page: Page) -> bool:
    page.goto("/team")
    assert items(page).count() == 12
    page.get_by_label("Search the team").press_sequentially("Priya", delay=20)

    def filtered() -> bool:
        listed = items(page).all_inner_texts()
        return (len(listed) == 1 and "Priya Natarajan" in listed[0]
                and page.get_by_text("1 person", exact=True).is_visible())

    return soon(page, filtered)


def new_task(page: Page) -> bool:
    page.goto("/tasks")
    page.get_by_role("button", name="New task").click()
    dialog = page.get_by_role("dialog", name="New task")
    assert dialog.is_visible()
    dialog.get_by_label("Title").fill("Order toner")
    dialog.get_by_label("Due date").fill("2026-12-20")
    dialog.get_by_role("button", name="Create").click()
    assert soon(page, dialog.is_hidden)
    made = task(page, "Order toner")
    return soon(page, lambda: made.count() == 1 and "Due 2026-12-20" in made.inner_text())


def answer(page: Page, accept: bool) -> list[str]:
    """Answer the page's next dialog (OK or Cancel); the list gets its message."""
    asked: list[str] = []

    def reply(dialog: Dialog) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", reply)
    return asked


def delete_task(page: Page) -> bool:
    page.goto("/tasks")
    answer(page, accept=True)
    task(page, "Water the plants").get_by_role("button", name="Delete").click()
    return soon(page, lambda: task(page, "Water the plants").count() == 0)


def cancel_delete(page: Page) -> bool:
    page.goto("/tasks")
    asked = answer(page, accept=False)
    task(page, "Renew the parking permit").get_by_role("button", name="Delete").click()
    gone = soon(page, lambda: task(page, "Renew the parking permit").count() == 0, 0.5)
    page.reload()
    return (asked == ["Delete this task?"] and not gone
            and task(page, "Renew the parking permit").count() == 1)


def rename(page: Page, old: str, new: str) -> None:
    task(page, old).get_by_role("button", name="Edit").click()
    title = page.get_by_role("textbox", name="Task title")
    title.fill(new)
    title.press("Enter")
    assert soon(page, lambda: task(page, new).count() == 1)


def rename_task(page: Page) -> bool:
    page.goto("/tasks")
    rename(page, "Book the venue", "Book the venue for the summer party")
    page.goto("/tasks")
    return (task(page, "Book the venue for the summer party").count() == 1
            and task(page, "Book the venue").count() == 0)


def saved_message(page: Page) -> bool:
    page.goto("/tasks")
    rename(page, "Call the courier", "Call the courier about the late parcel")
    return soon(page, page.get_by_text("Task saved", exact=True).is_visible, 0.5)


def task_count(page: Page) -> bool:
    page.goto("/tasks")
    assert page.get_by_text("8 open tasks", exact=True).is_visible()
    answer(page, accept=True)
    task(page, "Empty the dishwasher").get_by_role("button", name="Delete").click()
    return soon(page, page.get_by_text("7 open tasks", exact=True).is_visible)


CLAIMS: dict[str, Callable[[Page], bool]] = {
    "category": category, "next_page": next_page, "pending_orders": pending_orders,
    "only_my_tasks": only_my_tasks, "email_notifications": email_notifications,
    "announcements": announcements, "team_search": team_search, "new_task": new_task,
    "delete_task": delete_task, "cancel_delete": cancel_delete, "rename_task": rename_task,
    "saved_message": saved_message, "task_count": task_count,
}


def holds(browser: Browser, app: OrdinaryApp, name: str) -> bool:
    app.reset()
    context = browser.new_context(base_url=app.url)
    context.set_default_timeout(5000)
    try:
        return CLAIMS[name](context.new_page())
    finally:
        context.close()


@pytest.mark.bench
def test_every_frozen_test_has_its_claim() -> None:
    assert set(CLAIMS) == set(TESTS)


@pytest.mark.bench
@pytest.mark.parametrize("name", list(TESTS))
def test_each_claim_holds_on_the_app_and_its_wrapped_variant(
        browser: Browser, fresh: OrdinaryApp, name: str) -> None:
    assert holds(browser, fresh, name)
    fresh.benign = {"wrap"}
    assert holds(browser, fresh, name)


@pytest.mark.bench
@pytest.mark.parametrize(("name", "mutant"),
                         [(n, m) for n, ms in COVERED_BY.items() for m in ms])
def test_each_mutant_breaks_what_its_test_is_about(
        browser: Browser, fresh: OrdinaryApp, name: str, mutant: str) -> None:
    fresh.mutants = {mutant}
    assert not holds(browser, fresh, name)


# a mutant beside a test it must not break: the bugs are each their own
NEIGHBOURS = [("next_page", "category_ignored"), ("category", "pager_stuck"),
              ("rename_task", "toast_missing"), ("saved_message", "edit_in_place_not_saved"),
              ("delete_task", "count_stuck"), ("delete_task", "delete_without_confirm"),
              ("new_task", "count_stuck"), ("email_notifications", "show_only_mine_ignored")]


@pytest.mark.bench
@pytest.mark.parametrize(("name", "mutant"), NEIGHBOURS)
def test_a_mutant_breaks_no_neighbouring_claim(browser: Browser, fresh: OrdinaryApp,
                                               name: str, mutant: str) -> None:
    assert mutant not in COVERED_BY[name]
    fresh.mutants = {mutant}
    assert holds(browser, fresh, name)


@pytest.mark.bench
def test_the_mutants_break_the_page_as_their_descriptions_say(fresh: OrdinaryApp) -> None:
    """The server-side halves, read without a browser."""
    fresh.mutants = {"category_ignored"}
    jackets = get(fresh, "/shop/jackets")[1]
    assert "30 products" in jackets and "<h1" in jackets and ">Jackets</h1>" in jackets
    fresh.mutants = {"pager_stuck"}
    second = get(fresh, "/shop/all?page=2")[1]
    assert "Page 2 of 2" in second and "Storm Shell Jacket" in second \
        and "Trail Beanie" not in second
    fresh.mutants = {"status_filter_ignored"}
    pending = get(fresh, "/orders?status=pending")[1]
    assert "Showing 1 to 15 of 40 orders" in pending and 'value="pending" selected' in pending
    fresh.mutants = {"announcements_empty"}
    assert json.loads(get(fresh, "/api/announcements")[1]) == []
    fresh.mutants = {"show_only_mine_ignored"}
    post(fresh, "/settings", only_mine="yes")
    assert 'name="only_mine" type="checkbox" value="yes" checked' in get(fresh, "/settings")[1]
    assert "8 open tasks" in get(fresh, "/tasks")[1]


@pytest.mark.bench
def test_the_toast_fades_and_goes(browser: Browser, fresh: OrdinaryApp) -> None:
    """A toast shows for ``toast_seconds`` (3 s on the bench), fades, and is removed."""
    fresh.toast_seconds = 0.6
    context = browser.new_context(base_url=fresh.url)
    try:
        page = context.new_page()
        page.goto("/tasks")
        rename(page, "Send the invoices", "Send the December invoices")
        toast = page.get_by_text("Task saved", exact=True)
        assert toast.is_visible()
        assert toast.evaluate("e => e.parentElement.getAttribute('role')") == "status"
        assert soon(page, lambda: toast.count() == 0, 2.0)
    finally:
        context.close()


@pytest.mark.bench
def test_the_toast_shows_for_three_seconds_on_the_bench(fresh: OrdinaryApp) -> None:
    tasks = get(fresh, "/tasks")[1]
    assert "const TOAST_MS = 3000;" in tasks and "const TOASTS_OFF = false;" in tasks


# -- the benign variant --------------------------------------------------------------------

PAGES = ["/", "/shop/all", "/shop/tents?page=1", "/orders?status=shipped", "/tasks", "/team",
         "/announcements", "/settings"]


def shown(browser: Browser, app: OrdinaryApp, path: str) -> dict[str, Any]:
    context = browser.new_context(base_url=app.url)
    try:
        page = context.new_page()
        page.goto(path)
        page.wait_for_function("() => !document.body.innerText.includes('Loading')")
        return page.evaluate("""() => ({
            text: document.body.innerText,
            mainParent: document.querySelector('main').parentElement.tagName,
            parents: [...document.querySelectorAll('header, nav[aria-label="Main"], footer')]
                .map(e => e.parentElement.tagName),
            classes: [...new Set([...document.querySelectorAll('[class]')]
                .flatMap(e => [...e.classList]))],
            stylesheet: document.querySelector('link[rel=stylesheet]').getAttribute('href'),
            headerColour: getComputedStyle(document.querySelector('header')).backgroundColor,
        })""")
    finally:
        context.close()


@pytest.mark.bench
@pytest.mark.parametrize("path", PAGES)
def test_the_wrap_variant_changes_the_dom_not_the_visible_text(
        browser: Browser, fresh: OrdinaryApp, path: str) -> None:
    plain = shown(browser, fresh, path)
    fresh.benign = {"wrap"}
    wrapped = shown(browser, fresh, path)
    assert wrapped["text"] == plain["text"]
    assert plain["mainParent"] == "BODY" and wrapped["mainParent"] == "DIV"
    assert set(plain["parents"]) <= {"BODY", "HEADER"} and set(wrapped["parents"]) == {"DIV"}
    assert plain["classes"] and not set(plain["classes"]) & set(wrapped["classes"])
    assert plain["stylesheet"] != wrapped["stylesheet"]
    # the renamed stylesheet still styles it: the header dark green
    assert plain["headerColour"] == wrapped["headerColour"] == "rgb(29, 59, 51)"


# -- bench/recording.py --app ordinary -----------------------------------------------------


@pytest.mark.bench
def test_the_recording_bench_starts_the_app_and_switches_its_mutants() -> None:
    bench = recording.APPS["ordinary"]
    assert bench.tests is TESTS and bench.covered_by is COVERED_BY and bench.benign == "wrap"
    assert Path(bench.out).name == "recording-ordinary"
    app = bench.start()
    try:
        assert isinstance(app, OrdinaryApp) and app.mutants == set() and app.benign == set()
        post(app, "/api/tasks/1/delete")
        bench.set_mutant(app, "search_ignored")
        assert app.mutants == {"search_ignored"} and "Water the plants" in get(app, "/tasks")[1]
        bench.set_benign(app, True)
        assert app.mutants == set() and app.benign == {"wrap"}
        assert get(app, "/assets/v2/staff.css")[0] == 200
        bench.set_benign(app, False)
        assert app.benign == set()
    finally:
        app.stop()
