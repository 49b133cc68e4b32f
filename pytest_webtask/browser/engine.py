"""The fingerprint selector engine: a replayed action finds its target, verifies it and acts
on it in one Playwright call.

Registered with Playwright (``selectors.register``) by the ``webtask`` fixtures, it answers
``webtask-fingerprint=<the fingerprint, base64 JSON>`` with the element collector.js's cascade
decides on (``findTarget``: unique, visible, still the same element), or with nothing, so the
action waits for it as it waits for any locator, polling at Playwright's own intervals. Where
it is not registered (a page made without the plugin), the replayer finds the target with an
``evaluate`` first, as it always could.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from ..types import Fingerprint
from .script import COLLECTOR_JS

ENGINE = "webtask-fingerprint"

ENGINE_JS = (
    "(() => {\n"
    f"  const collector = {COLLECTOR_JS.strip()};\n"
    "  const target = (s) => collector({ op: 'target', fp: JSON.parse(atob(s)) });\n"
    "  return {\n"
    "    query(root, s) { return target(s); },\n"
    "    queryAll(root, s) { const el = target(s); return el ? [el] : []; },\n"
    "  };\n"
    "})()"
)


def selector(fp: Fingerprint) -> str:
    """The selector of the element ``fp`` describes, for the engine (ASCII JSON: ``atob``
    gives it back as is)."""
    data = json.dumps(fp.model_dump(), ensure_ascii=True, separators=(",", ":"))
    return f"{ENGINE}={base64.b64encode(data.encode('ascii')).decode('ascii')}"


def unknown(exc: Exception) -> bool:
    """The error Playwright raises for a selector of an engine it does not have."""
    return f'Unknown engine "{ENGINE}"' in str(exc)


def already_registered(exc: Exception) -> bool:
    return f'"{ENGINE}" selector engine has been already registered' in str(exc)


def register(selectors: Any) -> Any:
    """Register the engine with a Playwright's ``selectors`` (the sync API's, or the async
    API's: then await the result). It runs in Playwright's isolated world, beside its own
    selector engines: the page's main world needs no second copy of Playwright's script."""
    return selectors.register(ENGINE, script=ENGINE_JS, content_script=True)
