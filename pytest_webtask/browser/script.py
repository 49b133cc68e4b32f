"""The in-page collector script, assembled once from its modules (``collector/*.js``).

The collector is one closure written as modules a person reads one concern at a time
(``MODULES``, in the order they are put together): each is a piece of its body. The
assembled script is an expression whose value is the collector's function, ``call(args)``
(ops.js), the same operations as ever: evaluated, it runs every module's declarations once
and returns ``call``, so where it is installed once in a document (the replay's finder, the
page state's reads, the selector engine) a later call runs only its op. Evaluated with
arguments (``page.evaluate(COLLECTOR_JS, args)``), Playwright calls the function it yields.
``SOURCE`` is it as written, ``COLLECTOR_JS`` as sent.

``COLLECTOR_JS`` is the whole script (about 50 KB, compacted), for one ``evaluate``.
``CALL_JS`` and ``INSTALL_JS`` serve callers that evaluate it many times on a page, as a
replay does: the first call on a document installs the script under a name of this
process's own, and later calls send only a call to it, so the script crosses to the browser
and is compiled once per document rather than once per call (the replayer's ``collect``).
"""

from __future__ import annotations

import secrets
from importlib import resources


def compact(source: str) -> str:
    """A script as it is sent to the browser: without its comment lines and indentation (a
    third of collector.js), line breaks kept, so it reads as the same code. Sent and compiled
    in every document a replay acts in (the selector engine, in Playwright's own world), and
    in the page's world where a check does not hold at once. Holds for scripts with no
    string over several lines (no line ending in a backslash, no template literal across
    lines): tests/test_layout.py checks."""
    lines = (line.strip() for line in source.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


# One per concern; core first (the constants and state the others use), the ops last.
MODULES = ("core", "roles", "visibility", "frames", "fingerprints", "walk", "attributes", "hints",
           "page", "checks", "freeze", "extraction", "ops")


def module_source(name: str) -> str:
    """One module of the collector as written (``collector/<name>.js``)."""
    return resources.files("pytest_webtask.browser").joinpath(
        "collector", f"{name}.js").read_text(encoding="utf-8")


def assemble() -> str:
    """The collector as one script: its modules in order, in a function run at once that
    returns the collector's ``call``."""
    return ("(() => {\n" + "".join(module_source(name) for name in MODULES)
            + "  return call;\n})()\n")


SOURCE = assemble()
COLLECTOR_JS = compact(SOURCE)

# Not enumerable, and not guessable by the page's own scripts.
INSTALLED = "__webtask_collector_" + secrets.token_hex(8)
CALL_JS = f"(args) => {{ const f = window[{INSTALLED!r}]; return f ? f(args) : {INSTALLED!r}; }}"
INSTALL_JS = (f"(args) => {{ const f = {COLLECTOR_JS.strip()};\n"
              f"Object.defineProperty(window, {INSTALLED!r}, {{ value: f, configurable: true }});\n"
              "return f(args); }")
