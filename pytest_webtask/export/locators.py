"""A recorded fingerprint as a Playwright locator, the way a person would write it: role and
accessible name first, then label, placeholder, test id, id, a container by its role alone
(``get_by_role("table")``), and only then a CSS path or an XPath. Where the element has
look-alikes (``near``: twenty "Add to cart" buttons), the locator is scoped to its card: the
list item, row, article or dialog around it that shows the neighbouring text
(``get_by_role("row").filter(has_text=...)``), else the innermost element holding both.
"""

from __future__ import annotations

import re

from ..types import Fingerprint
from .source import Strings

NAME_CLIP = 120  # the collector clips names at this length: a clipped name is not exact
# Roles whose accessible name Playwright takes from their content. For others (a list item)
# the collector's name is its text, which Playwright's name= would not match.
NAME_FROM_CONTENT = {
    "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem",
    "menuitemcheckbox", "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab",
    "tooltip", "treeitem", "textbox", "searchbox", "combobox", "spinbutton", "slider",
}
# Containers a person finds by role alone when they have no name (Playwright gives these
# tags their role whether or not they are named; a nameless <section> or <form> has none).
# A second one on the page makes the locator ambiguous: Playwright's strict mode then fails
# the exported test loudly, never on the wrong element. Items (rows, list items, articles)
# come many to a page: a nameless one keeps its CSS path, which says which one it is.
CONTAINER_ROLES = {
    "table", "grid", "list", "dialog", "alertdialog", "navigation", "main", "listbox", "menu",
    "tabpanel", "tree",
}
# Tags whose role Playwright gives once they are named (a <section> with an aria-label is a
# region; a nameless one has no role): a fingerprint keeps no role for them, as the page
# state shows none, but a name that is a label (not the element's own text) makes one.
NAMED_ROLES = {"section": "region", "form": "form", "figure": "figure"}
# The card around an element with look-alikes, from the tags on its XPath: what it is for
# Playwright's get_by_role.
CARD_ROLES = {"li": "listitem", "tr": "row", "article": "article", "dialog": "dialog"}


def text_rx(text: str, s: Strings, whole: bool = False) -> str:
    """A regex for text as the page's text content holds it: table cells and lines join
    without the spaces the rendered text shows between them. ``whole``: all of it."""
    words = text.split()
    body = ' + r"\\s*" + '.join(s.regex(w) for w in words)
    if whole:
        body = f'r"^\\s*" + {body} + r"\\s*$"'
    return f"re.compile({body})"


def root_of(fp: Fingerprint, page: str = "page") -> str:
    base = page
    for selector in fp.frame:
        base += f".frame_locator({selector!r})"
    return base


def own(fp: Fingerprint, base: str, s: Strings) -> str | None:
    """The element by its own features, or None when it has none that Playwright reads."""
    if not fp.role and fp.name and fp.name != fp.text and fp.tag in NAMED_ROLES:
        fp = fp.model_copy(update={"role": NAMED_ROLES[fp.tag]})
    if fp.role and fp.name and fp.role not in NAME_FROM_CONTENT and not fp.label \
            and fp.text and fp.name in fp.text:
        return (f"{base}.get_by_role({fp.role!r})"
                f".filter(has=page.get_by_text({s.expr(fp.name)}, exact=True))")
    if fp.role and fp.name:
        exact = ", exact=True" if len(fp.name) < NAME_CLIP else ""
        return f"{base}.get_by_role({fp.role!r}, name={s.expr(fp.name)}{exact})"
    if fp.label:
        return f"{base}.get_by_label({s.expr(fp.label)}, exact=True)"
    if fp.placeholder:
        return f"{base}.get_by_placeholder({s.expr(fp.placeholder)}, exact=True)"
    if fp.test_id:
        return f"{base}.get_by_test_id({fp.test_id!r})"
    if fp.id:
        return f"{base}.locator({css_id(fp.id)!r})"
    if fp.role in CONTAINER_ROLES and not fp.name:
        return f"{base}.get_by_role({fp.role!r})"
    if fp.css:
        return f"{base}.locator({fp.css!r})"
    if fp.xpath:
        return f"{base}.locator({'xpath=' + fp.xpath!r})"
    return None


def css_id(value: str) -> str:
    """``#details`` where the id is a plain CSS name, else ``[id='...']``."""
    if re.fullmatch(r"-?[A-Za-z_][\w-]*", value):
        return "#" + value
    return "[id=" + repr(value) + "]"


def card_role(fp: Fingerprint) -> str | None:
    """The role of the innermost list item, row, article or dialog around the element,
    from its XPath's tags (the element itself left out)."""
    tags = [part.split("[")[0] for part in (fp.xpath or "").strip("/").split("/")][:-1]
    for tag in reversed(tags):
        if tag in CARD_ROLES:
            return CARD_ROLES[tag]
    return None


def locator(fp: Fingerprint, s: Strings, page: str = "page") -> str:
    base = root_of(fp, page)
    if fp.near:
        # the element by role alone when it has no name (a row's checkbox)
        # (a `has` locator is relative to the card: written from `page`, never a frame)
        inner = own(fp, "page", s) if fp.name else \
            (f"page.get_by_role({fp.role!r})" if fp.role else f"page.locator({fp.tag!r})")
        assert inner is not None
        role = card_role(fp)
        if role is not None:
            card = f"{base}.get_by_role({role!r}).filter(has_text={text_rx(fp.near, s)})"
        else:
            card = (f"{base}.locator('*').filter(has_text={text_rx(fp.near, s)})"
                    f".filter(has={inner}).last")
        return card + inner[len("page"):]
    found = own(fp, base, s)
    if found is None:
        return f"{base}.locator({fp.tag!r})"
    return found


def like(fp: Fingerprint) -> str | None:
    """Elements at the same place in the same kind of structure: the XPath without
    positions (what a recorded ``count`` of elements like this one counted)."""
    if not fp.xpath:
        return None
    return "xpath=" + re.sub(r"\[\d+\]", "", fp.xpath)
