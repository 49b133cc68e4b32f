"""A recorded check as Playwright ``expect`` assertions (they wait, as a replay does)."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote_plus

from ..recipes.model import Check
from ..recipes.pixels import BLOB_PIXELS, MAX_DIFF_RATIO, THRESHOLD
from ..types import Fingerprint
from .locators import like, locator, own, text_rx
from .source import Strings

# The items a container's count counted (the collector's itemsOf), by the container's kind.
ITEMS = {
    "ul": ":scope > li", "ol": ":scope > li", "menu": ":scope > li",
    "table": "tr:has(> td)", "tbody": "tr:has(> td)", "select": "option", "dl": ":scope > dt",
}
ROLE_ITEMS = {"table": "[role=row]:has(> [role=cell])", "grid": "[role=row]:has(> [role=gridcell])",
              "list": "[role=listitem]", "listbox": "[role=option]"}
STATES = {
    "checked": "to_be_checked()", "unchecked": "to_be_checked(checked=False)",
    "enabled": "to_be_enabled()", "disabled": "to_be_disabled()",
    "expanded": 'to_have_attribute("aria-expanded", "true")',
    "collapsed": 'to_have_attribute("aria-expanded", "false")',
    "selected": 'to_have_attribute("aria-selected", "true")',
}


class CannotWrite(Exception):
    """A check no Playwright assertion says as a replay checks it; ``str()`` says why."""


class CheckWriter:
    """``baseline`` gives a ``screenshot`` check's baseline as an expression for its copy
    beside the exported test (None: the export cannot write screenshot checks)."""

    def __init__(self, s: Strings, baseline: Callable[[Check], str] | None = None) -> None:
        self.s = s
        self.baseline = baseline

    def counted(self, c: Check) -> str:
        """The locator of what a ``count`` check counts (read before a step's actions for a
        check with a change)."""
        root = locator(c.within, self.s) if c.within is not None else "page"
        return self._listed(c, root)

    def lines(self, c: Check, start: str | None = None) -> list[str]:
        """``start``: for a ``count`` check with a change, the local that holds its count
        when the step began."""
        s = self.s
        el = locator(c.element, s) if c.element is not None else None
        root = locator(c.within, s) if c.within is not None else "page"
        wanted = self._wanted(c, c.text)
        if c.expect == "visible":
            return [f"expect({el}).to_be_visible()"]
        if c.expect == "hidden":
            if el is not None:
                return [f"expect({el}).to_be_hidden()"]
            return [f"expect({self._text_in(root, c)}.filter(visible=True)).to_have_count(0)"]
        if c.expect == "text":
            if el is None:
                return [f"expect({self._text_in(root, c)}.filter(visible=True).first)"
                        ".to_be_visible()"]
            if c.match == "exact" and len((c.text or "").split()) > 1:
                # the recorded text is rendered text: its spaces may be element borders
                wanted = text_rx(c.text or "", s, whole=True)
            verb = "to_contain_text" if c.match == "contains" else "to_have_text"
            return [f"expect({el}).{verb}({wanted})"]
        if c.expect == "count" and c.change is not None:
            if start is None:
                raise CannotWrite("its count check counts from the step's start, which was "
                                  "not read before the step's actions")
            sign = "-" if c.change < 0 else "+"
            return [f"expect({self._listed(c, root)}).to_have_count("
                    f"{start} {sign} {abs(c.change)})"]
        if c.expect == "count":
            return [f"expect({self._listed(c, root)}).to_have_count({c.count})"]
        if c.expect == "each":
            return self._each(c, root)
        if c.expect == "nth":
            assert c.element is not None
            item = self._nth_item(c.element, c.index or 1)
            if c.element.near:
                item += f".filter(has_text={text_rx(c.element.near, s)})"
            inner = own(c.element, "", s) or f".locator({c.element.tag!r})"
            return [f"expect({item}{inner}).to_have_count(1)"]
        if c.expect == "order":
            target = root if c.within is not None else "page.locator('body')"
            joined = ' + r"[\\s\\S]*" + '.join(s.regex(t) for t in c.texts)
            return [f"expect({target}).to_contain_text(re.compile({joined}), "
                    "use_inner_text=True)"]
        if c.expect == "state":
            return [f"expect({el}).{STATES[c.state or 'checked']}"]
        if c.expect == "value":
            assert c.element is not None
            value = self._wanted(c, c.value)
            if c.element.tag == "select":
                return [f"expect({el}.locator('option:checked')).to_have_text({value})"]
            if c.match == "contains":
                value = f"re.compile({s.regex(c.value or '')})"
            return [f"expect({el}).to_have_value({value})"]
        if c.expect == "url":
            return self._url(c)
        if c.expect == "screenshot":
            return self._picture(c, el)
        if c.expect == "download":
            return self._download(c)
        raise ValueError(f"unknown check {c.expect!r}")

    def _picture(self, c: Check, el: str | None) -> list[str]:
        """``to_have_screenshot``, the helper the writer copies into the file, with the
        check's box, masks and tolerance (the defaults left out)."""
        shot = c.screenshot
        assert shot is not None and el is not None and self.baseline is not None
        args = [el, self.baseline(c), "output_path"]
        if shot.box is not None:
            args.append(f"box={shot.box!r}")
        if shot.masks:
            args.append(f"masks={shot.masks!r}")
        if shot.threshold != THRESHOLD:
            args.append(f"threshold={shot.threshold!r}")
        if shot.max_diff_ratio != MAX_DIFF_RATIO:
            args.append(f"max_diff_ratio={shot.max_diff_ratio!r}")
        if shot.blob_pixels != BLOB_PIXELS:
            args.append(f"blob_pixels={shot.blob_pixels!r}")
        comment = [f"# the picture shows: {' '.join(shot.shows.split())}"] if shot.shows else []
        return [*comment, f"to_have_screenshot(page, {', '.join(args)})"]

    def _download(self, c: Check) -> list[str]:
        """The file the step's ``with page.expect_download() as download_info:`` waited
        for: its name, size and text (``downloaded_text``, the helper the writer adds)."""
        spec = c.download
        assert spec is not None
        lines = ["download = download_info.value",
                 f"assert re.fullmatch({spec.name!r}, download.suggested_filename), "
                 "download.suggested_filename",
                 "download_size, download_text = downloaded_text(download)"]
        high = f" <= {spec.max_bytes}" if spec.max_bytes is not None else ""
        lines.append(f'assert {spec.min_bytes} <= download_size{high}, f"{{download_size:,}} '
                     'bytes"')
        for text in spec.contains:
            lines.append(f"assert {self.s.expr(' '.join(text.split()))} in download_text")
        return lines

    def _wanted(self, c: Check, text: str | None) -> str:
        if c.match == "pattern":
            return f"re.compile({'^(?:' + (c.pattern or '') + ')$'!r})"
        return self.s.expr(text or "")

    def _text_in(self, root: str, c: Check) -> str:
        if c.match == "pattern":
            return f"{root}.get_by_text({self._wanted(c, c.text)})"
        exact = ", exact=True" if c.match == "exact" else ""
        return f"{root}.get_by_text({self.s.expr(c.text or '')}{exact})"

    def _each(self, c: Check, root: str) -> list[str]:
        """Every item's rendered text (``every_item_shows``, the helper the writer adds: a
        dropdown's options and hidden text are none of it, as in a replay; Playwright's
        text assertions read them), and one item at least."""
        s = self.s
        if c.element is None and c.within is not None and c.within.tag not in ITEMS \
                and c.within.role not in ROLE_ITEMS:
            raise CannotWrite("its 'each' check reads the items of a container that is no "
                              "list (the one list inside it, or its run of cards), which "
                              "no Playwright locator says")
        items = self._listed(c, root)
        if c.match == "pattern":
            shows = f"re.compile({'^(?:' + (c.pattern or '') + ')$'!r})"
        else:
            shows = text_rx(c.text or "", s, whole=c.match == "exact")
        return [f"every_item_shows({items}, {shows})"]

    def _listed(self, c: Check, root: str) -> str:
        """The visible items a ``count`` counts and an ``each`` reads: elements like
        ``element``, or the ``within`` container's items."""
        if c.element is not None:
            similar = like(c.element)
            if similar is not None:
                return f"page.locator({similar!r}).filter(visible=True)"
        assert c.within is not None  # Check: a count or each has an element or a container
        return f"{root}.locator({self._items(c.within)!r}).filter(visible=True)"

    @staticmethod
    def _items(container: Fingerprint) -> str:
        if container.role in ROLE_ITEMS and container.tag not in ITEMS:
            return ROLE_ITEMS[container.role]
        return ITEMS.get(container.tag, ":scope > *")

    @staticmethod
    def _nth_item(fp: Fingerprint, index: int) -> str:
        """The index-th item of the list that holds the element, from its XPath: the
        nearest list item or row around it, else the nearest repeated ancestor."""
        parts = (fp.xpath or "").strip("/").split("/")
        for i in range(len(parts) - 1, -1, -1):
            tag = parts[i].split("[")[0]
            if tag in ("li", "tr", "option"):
                break
        else:
            i = max(len(parts) - 2, 0)
            tag = parts[i].split("[")[0]
        parent = "/" + "/".join(parts[:i])
        item = f"xpath={parent}/{tag}"
        rows = ".filter(has=page.locator('td'))" if tag == "tr" else ""
        return f"page.locator({item!r}){rows}.filter(visible=True).nth({index - 1})"

    def _url(self, c: Check) -> list[str]:
        out = []
        if c.pattern is not None:
            rx = r"^[a-z]+://[^/]+(?:" + c.pattern + r")(?:[?#].*)?$"
            out.append(f"expect(page).to_have_url(re.compile({rx!r}))")
        elif c.path is not None:
            out.append("expect(page).to_have_url(re.compile(r\"^[a-z]+://[^/]+\" + "
                       f"{self.s.regex(c.path)} + r\"(?:[?#].*)?$\"))")
        for key, value in c.query.items():
            out.append("expect(page).to_have_url(re.compile(r\"[?&]\" + "
                       f"{re.escape(quote_plus(key)) + '='!r} + "
                       f"re.escape(quote_plus({self.s.expr(value)}))"
                       " + r\"(?:&|#|$)\"))")
        return out
