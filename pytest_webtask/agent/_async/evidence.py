"""The model's evidence as typed claims, checked on the live page with the replay's own rules.

A claim is verified here exactly as a replay will check it (collector.js ``check``): rendered
visible text, exact and case-sensitive unless declared otherwise; a state or value for a form
control. A claim that does not hold now is not evidence: ``found`` is False and ``problem``
says what the page has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from ...browser._async.finder import call_collector
from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser._async.pictures import check_box, stable_picture
from ...browser.downloads import content_problem
from ...errors import BrowserError
from ..guards import CONTROL_TAGS, stated_state
from ..models import Evidence
from ..parsing import EvidenceSpec, as_spec

CHECKABLE_ROLES = ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")


async def resolve_evidence(browser: AsyncLLMBrowser, cited: list[Any],
                           substitute: Callable[[str], str] | None = None, *,
                           task: str = "", typed: dict[str, str] | None = None
                           ) -> list[Evidence]:
    """Each citation as a typed claim with its element's and container's fingerprints,
    ``found`` only when the claim holds on the page now. A claim is compiled as strongly as
    the model stated it, never weaker: a control cited bare claims what ``task`` asks of it
    (a box ticked, unless the task unticks it) or what the task's actions ``typed`` into it
    (by element id), not whatever it shows now."""
    snapshot = browser.snapshot
    ids = set(snapshot.elements) if snapshot is not None else set()
    sub = substitute or (lambda v: v)
    out: list[Evidence] = []
    for item in cited:
        if isinstance(item, dict):
            try:
                item = EvidenceSpec.model_validate(item)
            except ValueError as exc:
                out.append(Evidence(cited=str(item), found=False, problem=f"not a claim: {exc}"))
                continue
        spec = as_spec(item, ids)
        label = item if isinstance(item, str) else spec.describe()
        out.append(await _resolve(browser, spec, label, ids, sub, task, typed or {}))
    return out


async def _resolve(browser: AsyncLLMBrowser, spec: EvidenceSpec, label: str, ids: set[str],
                   sub: Callable[[str], str], task: str = "",
                   typed: dict[str, str] | None = None) -> Evidence:
    ev = Evidence(cited=label, spec=spec, element_id=spec.element)
    for ref in (spec.element, spec.within):
        if ref is not None and ref not in ids:
            return _missing(ev, f"{ref} is not an element id of the current page state")
    if spec.expect == "url":
        return _url_claim(ev, spec, browser.page.url, sub)
    if spec.expect == "screenshot":
        return await _picture_claim(browser, ev, spec)
    if spec.expect == "download":  # a file the task downloaded holds the text
        problem = content_problem(browser.downloaded, sub(spec.text or ""))
        return _missing(ev, problem) if problem else ev
    need = {"visible": "element", "state": "element", "value": "element", "nth": "element"}
    if spec.expect in need and spec.element is None:
        return _missing(ev, f"an {spec.expect!r} claim needs an element id")
    if spec.expect in ("count", "each") and spec.element is None and spec.within is None:
        return _missing(ev, f"a {spec.expect!r} claim needs an element or a within "
                            "container id")
    if spec.change is not None:
        wrong = _change_problem(spec, browser)
        if wrong:
            return _missing(ev, wrong)
    if spec.expect == "each" and not spec.text:
        return _missing(ev, "an 'each' claim needs the text every item shows")
    if spec.expect == "order" and not spec.texts:
        return _missing(ev, "an 'order' claim needs texts")
    try:
        frame = await _frame_of(browser, spec.element or spec.within)
        if (spec.expect == "text" and spec.element is None and spec.within is not None
                and spec.text and await _shows_alone(frame, spec.within, sub(spec.text))):
            # the "container" is the element that shows the text (a link whose text is the
            # claim): cited as that element, found by its name, not as an unnamed container
            spec = spec.model_copy(update={"element": spec.within, "within": None})
            ev.spec, ev.element_id = spec, spec.element
        if spec.within is not None:
            ev.within = await browser.describe(spec.within)
        if spec.element is not None:
            ev.fingerprint = await browser.describe(spec.element)
            el = await call_collector(frame, {"op": "element", "el": _sel(spec.element)})
            ev.text, ev.tag, ev.input_type = el["text"], el["tag"], el["type"]
        spec = _typed_for_control(ev, spec, task, typed or {})
        ev.spec = spec
        check = _js_check(spec, sub)
        if spec.change is not None:  # the count when the step began, plus the change
            assert browser.count_at_start is not None  # (_change_problem: it is there)
            ev.start, why = await browser.count_at_start(ev)
            if ev.start is None:
                return _missing(ev, f"{why}: a change is counted from what was there then "
                                    "(cite the list it is in, within, or an item that was "
                                    "there)")
            check["count"] = ev.start + spec.change
        got = await call_collector(frame, {
            "op": "check", "check": check,
            "el": _sel(spec.element), "scope": _sel(spec.within)})
    except BrowserError as exc:
        return _missing(ev, str(exc))
    except PlaywrightError as exc:
        return _missing(ev, f"the page could not be read: {str(exc).strip().splitlines()[0]}")
    ev.items = got.get("n")
    if spec.change is not None and not got["ok"]:
        assert ev.start is not None
        return _missing(ev, f"{ev.start + spec.change} expected ({ev.start} when the step "
                            f"began, {spec.change:+d}), there are {got.get('n')}")
    if not got["ok"]:
        if _read_when_asked(browser, spec, sub):
            ev.faded = True  # a message that faded while the model read the page
            return ev
        return _missing(ev, got["got"] + await _label_apart(frame, spec, sub))
    return ev


def _read_when_asked(browser: AsyncLLMBrowser, spec: EvidenceSpec,
                     sub: Callable[[str], str]) -> bool:
    """Did the page state the model was just shown hold this page text (no element, no
    container: a status message's words), which the page no longer shows? A message that
    fades (a toast) is gone by the time a slow model replies; the reading is a fact of the
    page, and a replay checks the text right after the step's actions."""
    snapshot = browser.snapshot
    text = sub(spec.text or "")
    if (spec.expect != "text" or spec.element is not None or spec.within is not None
            or not text or snapshot is None):
        return False
    return f'"{text}"' in snapshot.text if spec.match == "exact" else text in snapshot.text


def _change_problem(spec: EvidenceSpec, browser: AsyncLLMBrowser) -> str:
    """Why a claim with a ``change`` cannot be one ("" when it can): only a count changes,
    counted from a start this recording kept (a change of 0: as many as then, what a
    cancel leaves)."""
    if spec.expect != "count":
        return (f"an {spec.expect!r} claim takes no change: only a 'count' claim is counted "
                "from the step's start")
    if spec.count is not None:
        return "a 'count' claim takes a count or a change, not both"
    if browser.count_at_start is None:
        return ("a change is counted from the page as a do step found it, which this "
                "recording did not keep (a check step changes nothing): cite the count")
    return ""


async def _shows_alone(frame: Frame, element_id: str, text: str) -> bool:
    """Is ``text`` the whole text of the element ``element_id`` (spaces aside)?"""
    own = await call_collector(frame, {"op": "element", "el": _sel(element_id)})
    return " ".join(str(own.get("text") or "").split()) == " ".join(text.split())


async def _label_apart(frame: Frame, spec: EvidenceSpec, sub: Callable[[str], str]) -> str:
    """When a text claim "Label: value" fails and the page shows the label and the value as
    texts of their own (a definition list, a table's cells): a sentence saying so, for the
    model to cite each ("" otherwise). The claim is not rewritten: what it proves is the
    model's to say."""
    text = sub(spec.text or "")
    if spec.expect != "text" or spec.element is not None or text.count(": ") != 1:
        return ""
    parts = [p.strip() for p in text.split(": ")]
    if not all(parts):
        return ""
    for part in parts:
        check = _js_check(spec.model_copy(update={"text": part, "match": "exact"}), sub)
        try:
            got = await call_collector(frame, {"op": "check", "check": check, "el": None,
                                               "scope": _sel(spec.within)})
        except (BrowserError, PlaywrightError):
            return ""
        if not got["ok"]:
            return ""
    return (f'; the page shows "{parts[0]}" and "{parts[1]}" as texts of their own: cite '
            "each as a claim of its own")


# How long a picture claim waits for its region to settle (the same picture twice running).
SETTLE_MS = 5000


async def _picture_claim(browser: AsyncLLMBrowser, ev: Evidence, spec: EvidenceSpec
                         ) -> Evidence:
    """A "screenshot" claim: the region's picture, once stable, becomes the baseline a
    replay compares with. Only a model that sees the page can cite one (it picks the region
    from the screenshot it was shown)."""
    if not browser.screenshot:
        return _missing(ev, "a 'screenshot' claim needs a model that sees screenshots "
                            "(supports_images); cite texts or elements instead")
    if spec.element is None:
        return _missing(ev, "a 'screenshot' claim needs the element id of what it shows "
                            "(a canvas, an image, a chart's container)")
    try:
        box = check_box(spec.box) if spec.box is not None else None
        masks = [check_box(m, "mask") for m in spec.masks]
    except ValueError as exc:
        return _missing(ev, str(exc))
    try:
        ev.fingerprint = await browser.describe(spec.element)
        picture, settled = await stable_picture(
            browser.page, browser.locator(spec.element), box, masks, SETTLE_MS)
    except BrowserError as exc:
        return _missing(ev, str(exc))
    if not settled:
        return _missing(ev, f"its picture kept changing for {SETTLE_MS / 1000:g}s: mask "
                            "the parts that move by themselves (masks)")
    ev.image = picture
    return ev


def evidence_problem(evidence: list[Evidence]) -> str:
    """Why ``evidence`` can't prove completion ("" when every claim holds): none cited, or
    each claim that does not hold with what the page has instead."""
    if not evidence:
        return "no evidence was cited"
    bad = [f"{e.cited} -> {e.problem}" for e in evidence if not e.found]
    return "; ".join(bad)


def _typed_for_control(ev: Evidence, spec: EvidenceSpec, task: str,
                       typed: dict[str, str]) -> EvidenceSpec:
    """A form control's "text" is its state or value: a claim citing a checkbox proves it is
    ticked (or not), a field's proves its value, never the control's text ('on'). What the
    claim says comes from the model (its text), else from the task (a box the task unticks
    is unticked, any other ticked; a field holds what the task's actions typed into it),
    never from what the control shows now: that would hold whatever the page did."""
    if spec.expect != "text" or spec.element is None:
        return spec
    role = ev.fingerprint.role if ev.fingerprint else None
    if ev.input_type in ("checkbox", "radio") or role in CHECKABLE_ROLES:
        return spec.model_copy(update={"expect": "state", "text": None,
                                       "state": stated_state(spec.text, task)})
    if ev.tag in CONTROL_TAGS:
        value = spec.text if spec.text is not None else typed.get(spec.element, ev.text)
        return spec.model_copy(update={"expect": "value", "value": value, "text": None})
    if spec.text is None:
        return spec.model_copy(update={"text": ev.text})
    return spec


def _js_check(spec: EvidenceSpec, sub: Callable[[str], str]) -> dict[str, Any]:
    """The claim as collector.js ``check`` takes it, placeholders filled in. It is checked
    literally: a part declared to vary has its value of this run."""
    data: dict[str, Any] = {"expect": spec.expect, "match": spec.match, "state": spec.state,
                            "count": spec.count, "index": spec.index,
                            "texts": [sub(t) for t in spec.texts]}
    for key in ("text", "value"):
        value = getattr(spec, key)
        data[key] = sub(value) if value is not None else None
    return data


def _url_claim(ev: Evidence, spec: EvidenceSpec, url: str, sub: Callable[[str], str]
               ) -> Evidence:
    parts = urlsplit(url)
    if spec.path is not None and sub(spec.path) != parts.path:
        return _missing(ev, f"the URL path is {parts.path!r}")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    for key, want in spec.query.items():
        if query.get(key) != sub(want):
            return _missing(ev, f"the URL's query has {key}={query.get(key)!r}")
    if spec.path is None and not spec.query:
        return _missing(ev, "a 'url' claim needs a path or query parameters")
    return ev


def _missing(ev: Evidence, problem: str) -> Evidence:
    ev.found = False
    ev.problem = problem
    return ev


def _sel(element_id: str | None) -> str | None:
    return f'[data-webtask-id="{element_id}"]' if element_id else None


async def _frame_of(browser: AsyncLLMBrowser, element_id: str | None) -> Frame:
    """The frame an element id lives in (its iframe chain followed from the main frame, to
    a frame of another origin too)."""
    if element_id is None or browser.snapshot is None:
        return browser.page.main_frame
    frame = await browser.frame_of(browser.snapshot.elements.get(element_id, []))
    if frame is None:
        raise BrowserError(f"the iframe of {element_id} is no longer on the page")
    return frame
