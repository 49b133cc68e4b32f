"""Widgets: pages that behave the way front-end framework apps do, served by the demo shop
under ``/widgets/``: a TodoMVC-style list (custom checkboxes, hover-only delete with a
confirm, double-click to edit, drag to reorder, a prompt to rename), reports that open in a
new tab, and a 500-row table rendered after the load event.

``variants`` (the demo shop's) break them on purpose, so replays can be shown to fail:
  no_confirm (delete without asking), other_confirm (the confirm says something else),
  no_hover (hovering reveals no delete button), same_tab (reports open in the same tab),
  no_alpha (the list has no Alpha item, so a drop target is missing).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

PAGES = Path(__file__).parent / "pages"
ROWS = 500


def serve(path: str, variants: set[str]) -> str | None:
    """The HTML for ``/widgets/<name>``, or None when there is no such page."""
    name = path.removeprefix("/widgets/").strip("/") or "index"
    if name == "table":
        body = table_page()
    else:
        file = PAGES / f"{name}.html"
        if not name.isidentifier() or not file.is_file():
            return None
        body = file.read_text(encoding="utf-8")
    script = f"<script>window.VARIANTS = {json.dumps(sorted(variants))};</script>"
    return body.replace("</head>", script + "</head>", 1)


def table_page() -> str:
    """A 500-row table of tickets, rendered by script after the load event."""
    rows = [{"name": f"Ticket {n}", "owner": html.escape(["Ada", "Grace", "Linus"][n % 3])}
            for n in range(1, ROWS + 1)]
    return (PAGES / "table.tmpl").read_text(encoding="utf-8").replace(
        "/*ROWS*/", json.dumps(rows))
