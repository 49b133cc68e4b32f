"""The fingerprint selector engine: a replayed action finds its target, verifies it and acts
on it in one Playwright call.

Registered with Playwright (``selectors.register``) by the ``webtask`` fixtures, it answers
``webtask-fingerprint=<base64 JSON>`` with the element collector.js's cascade decides on
(``findTarget``: unique, visible, still the same element), or with nothing, so the action
waits for it as it waits for any locator, polling at Playwright's own intervals. It also
tries a step's checks (``checks_selector``), where they cost no script in the page's own
world. Where it is not registered (a page made without the plugin), the replayer finds the
target with an ``evaluate`` first, as it always could.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from ..types import Fingerprint
from .script import COLLECTOR_JS
from .secret_fields import HIDE_FIELD_JS

ENGINE = "webtask-fingerprint"

ENGINE_JS = (
    "(() => {\n"
    f"  const collector = {COLLECTOR_JS.strip()};\n"
    f"  const hide = {HIDE_FIELD_JS};\n"
    "  const query = (s) => {\n"
    "    const a = JSON.parse(atob(s));\n"
    "    if (a.checks) {  // a step's checks: the page itself when every one holds\n"
    "      let got;  // a document still being built (no body yet) may throw: not yet\n"
    "      try { got = collector({ op: 'checks', checks: a.checks, vacuous: false }); }\n"
    "      catch (e) { return null; }\n"
    "      return got.every((r) => r.ok) ? document.documentElement : null;\n"
    "    }\n"
    "    const el = collector({ op: 'target', fp: a.target });\n"
    "    if (el && a.writable && el.readOnly) return null;  // not yet: it takes no typing\n"
    "    if (el && a.hide) hide(el);  // a secret is typed into it: masked when found\n"
    "    return el;\n"
    "  };\n"
    "  return {\n"
    "    query(root, s) { return query(s); },\n"
    "    queryAll(root, s) { const el = query(s); return el ? [el] : []; },\n"
    "  };\n"
    "})()"
)

# What Playwright is given: the engine's source as a string, evaluated on its first query in
# a document. Playwright's injected script evaluates every registered engine's source each
# time it is set up in a world of a document: Playwright's own world and the page's main
# world alike, whatever ``content_script`` says; compiled there, the collector (~50 KB) cost
# each such world, used or not (a fresh document's first query: 42-45 ms before, 34-36 ms
# after; bench/README.md). The eval runs where Playwright's own does, so a page's
# Content-Security-Policy treats both alike.
STUB_JS = (
    "(() => {\n"
    f"  const source = {json.dumps(ENGINE_JS)};\n"
    "  let engine = null;\n"
    "  const get = () => engine || (engine = (0, eval)(source));\n"
    "  return {\n"
    "    query(root, s) { return get().query(root, s); },\n"
    "    queryAll(root, s) { return get().queryAll(root, s); },\n"
    "  };\n"
    "})()"
)


def _selector(payload: dict[str, Any]) -> str:
    """The engine's selector for ``payload`` (ASCII JSON: ``atob`` gives it back as is)."""
    data = json.dumps(payload, ensure_ascii=True, separators=(",", ":"))
    return f"{ENGINE}={base64.b64encode(data.encode('ascii')).decode('ascii')}"


def selector(fp: Fingerprint, *, hide: bool = False, writable: bool = False) -> str:
    """The selector of the element ``fp`` describes. ``hide``: a secret is typed into it;
    the engine masks the field when it finds it, before Playwright types
    (``HIDE_FIELD_JS``), in the action's own call. ``writable``: keys are typed into it
    (``type``, whose key presses would not refuse a read-only field): a read-only one is
    not found yet, so the action waits for it as Playwright's fill waits to be editable."""
    payload: dict[str, Any] = {"target": fp.model_dump(), "hide": hide}
    if writable:
        payload["writable"] = True
    return _selector(payload)


def checks_selector(items: list[dict[str, Any]]) -> str:
    """The selector that matches the page (its root element) when every one of ``items``
    (the collector's ``checks`` op's) holds, and nothing when one does not: a step's checks
    tried in one call, in Playwright's own world."""
    return _selector({"checks": items})


def unknown(exc: Exception) -> bool:
    """The error Playwright raises for a selector of an engine it does not have."""
    return f'Unknown engine "{ENGINE}"' in str(exc)


def already_registered(exc: Exception) -> bool:
    return f'"{ENGINE}" selector engine has been already registered' in str(exc)


def register(selectors: Any) -> Any:
    """Register the engine with a Playwright's ``selectors`` (the sync API's, or the async
    API's: then await the result). It runs in Playwright's isolated world, beside its own
    selector engines: the page's main world needs no second copy of Playwright's script."""
    return selectors.register(ENGINE, script=STUB_JS, content_script=True)
