"""The recipe file: what a test's steps did, in a form people can read, review and edit."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from ..extraction.model import Bindings, ExtractionRecipe
from ..types import BindingFingerprint, Dialog, Fingerprint
from .pixels import BLOB_PIXELS, MAX_DIFF_RATIO, THRESHOLD

RECIPE_VERSION = 3

CheckKind = Literal["visible", "hidden", "text", "count", "each", "nth", "order", "state",
                    "value", "url", "download", "screenshot"]
Match = Literal["exact", "contains", "pattern"]
State = Literal["checked", "unchecked", "enabled", "disabled", "expanded", "collapsed",
                "selected"]


class Download(BaseModel):
    """What a ``download`` check expects of a file the step downloaded: a name fully
    matching ``name`` (a pattern), a size within ``min_bytes``..``max_bytes``, and, for a
    text, CSV or PDF file, text that ``contains`` each of these."""

    model_config = ConfigDict(extra="forbid")

    name: str
    min_bytes: int = 0
    max_bytes: int | None = None
    contains: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        size = (f"{self.min_bytes:,}-{self.max_bytes:,} bytes" if self.max_bytes is not None
                else f"at least {self.min_bytes:,} bytes")
        text = (", containing " + " and ".join(map(repr, self.contains))) if self.contains \
            else ""
        return f"a download named /{self.name}/ of {size}{text}"


class Screenshot(BaseModel):
    """What a ``screenshot`` check expects: the region (``element``'s box, or ``box`` inside
    it as fractions [left, top, right, bottom]) looks as the baseline picture ``file`` (a PNG
    beside the recipe), with ``masks`` (boxes in fractions of the region) painted over. A
    pixel differs past ``threshold`` (YIQ distance, 0-1); at most ``max_diff_ratio`` of the
    pixels may differ, and no ``blob_pixels`` of them may form a blob (a changed word or
    shape: ``recipes/pixels.py``; 0 looks for none). ``shows`` is what the picture proves,
    for people and for a heal."""

    model_config = ConfigDict(extra="forbid")

    file: str = ""
    shows: str = ""
    box: list[float] | None = None
    masks: list[list[float]] = Field(default_factory=list)
    threshold: float = Field(default=THRESHOLD, ge=0, le=1)
    max_diff_ratio: float = Field(default=MAX_DIFF_RATIO, ge=0, le=1)
    blob_pixels: int = Field(default=BLOB_PIXELS, ge=0)
    size: list[int] = Field(default_factory=list)  # [width, height] of the baseline
    # the baseline's bytes between recording and writing the recipe (never in the file)
    _png: bytes | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _boxes(self) -> Screenshot:
        for what, box in [("box", self.box), *(("mask", m) for m in self.masks)]:
            if box is None:
                continue
            if len(box) != 4 or any(v < 0 or v > 1 for v in box) \
                    or box[0] >= box[2] or box[1] >= box[3]:
                raise ValueError(f"a screenshot's {what} is [left, top, right, bottom], "
                                 f"fractions from 0 to 1 with left < right and top < bottom "
                                 f"(got {box})")
        return self

    @property
    def png(self) -> bytes | None:
        return self._png

    def with_png(self, png: bytes, size: tuple[int, int]) -> Screenshot:
        out = self.model_copy(update={"size": list(size)})
        out._png = png
        return out

    def describe(self) -> str:
        where = f" (box {self.box})" if self.box is not None else ""
        masked = f", {len(self.masks)} part(s) masked" if self.masks else ""
        shows = f" showing {self.shows!r}" if self.shows else ""
        blob = (f", no {self.blob_pixels} of them in one blob" if self.blob_pixels
                else "")
        return (f"the picture{where}{shows} as in {self.file or 'its baseline'} (at most "
                f"{self.max_diff_ratio:.2%} of pixels differing by over {self.threshold:g}"
                f"{blob}{masked})")


class Check(BaseModel):
    """One typed assertion about the page, re-run (auto-waiting) on every replay.

    Modelled on Playwright's ``expect``:

    - ``visible``: ``element`` is visible.
    - ``hidden``: ``element``, or ``text``, is absent or not visible.
    - ``text``: ``element``'s rendered text, or else some visible text of the page (a whole
      element's text or a whole text run, as the page state shows it), equals ``text``
      (``match: exact``, case-sensitive), contains it (``contains``) or fully matches
      ``pattern`` (``pattern``: the parts declared to vary between runs).
    - ``count``: ``count`` items in the ``within`` container, or ``count`` visible elements
      like ``element`` (same place in the same kind of list). With ``change`` instead of a
      ``count``: as many as there were when the step began, plus ``change`` (-1: one item
      fewer), so the recipe pins no number the data decides.
    - ``each``: every item in the ``within`` container, or every visible element like
      ``element`` (the items a ``count`` counts), shows ``text`` as ``match`` says (the
      item's whole rendered text, a part of it, or a ``pattern``), and there is one at least.
    - ``nth``: ``element`` is in the ``index``-th item (from 1) of its list.
    - ``order``: ``texts`` are visible in this order.
    - ``state``: ``element`` is ``state`` (checked, unchecked, enabled, disabled, expanded,
      collapsed, selected).
    - ``value``: ``element``'s value (a select's chosen option text) is ``value``.
    - ``url``: the URL path is ``path`` (or fully matches ``pattern``) and its query has
      ``query``'s parameters with those values.
    - ``download``: the step downloaded a file as ``download`` describes (name pattern, size
      bounds, text it contains).
    - ``screenshot``: ``element``'s region looks as the baseline picture ``screenshot``
      describes, pixel by pixel within a tolerance (a canvas, an SVG, an image).

    ``within`` (a container's fingerprint) scopes any of them. ``held_before`` marks a check
    that already held when the step started: it proves nothing about the step.
    """

    model_config = ConfigDict(extra="forbid")

    # Field order is the order a recipe shows them in: what is expected first.
    expect: CheckKind
    text: str | None = None
    match: Match = "exact"
    pattern: str | None = None
    texts: list[str] = Field(default_factory=list)
    count: int | None = None
    change: int | None = None
    index: int | None = None
    state: State | None = None
    value: str | None = None
    path: str | None = None
    query: dict[str, str] = Field(default_factory=dict)
    download: Download | None = None
    screenshot: Screenshot | None = None
    held_before: bool = False
    element: Fingerprint | None = None
    within: Fingerprint | None = None
    # a ``change`` check's count when the step began (read by the replay before the step's
    # actions, by the recording on the page as the step found it); never in the file
    _start: int | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _complete(self) -> Check:
        if self.change is not None:
            if self.expect != "count":
                raise ValueError(f"an {self.expect!r} check takes no change (only a 'count' "
                                 "check counts from the step's start)")
            if self.count is not None:
                raise ValueError("a 'count' check takes a count or a change (from the "
                                 "step's start), not both")
        need = {
            "visible": ("element",), "state": ("element", "state"), "value": ("element", "value"),
            "nth": ("element", "index"), "count": ("count",) if self.change is None else (),
            "order": ("texts",),
            "download": ("download",), "screenshot": ("element", "screenshot"),
        }.get(self.expect, ())
        missing = [f for f in need if getattr(self, f) in (None, [])]
        if missing:
            raise ValueError(f"an {self.expect!r} check needs {', '.join(missing)}")
        if self.expect == "text" and self.text is None and self.pattern is None:
            raise ValueError("a 'text' check needs text (or a pattern)")
        if self.expect == "hidden" and self.element is None and self.text is None:
            raise ValueError("a 'hidden' check needs an element or a text")
        if self.expect in ("count", "each") and self.element is None and self.within is None:
            raise ValueError(f"a {self.expect!r} check needs an element or a within container")
        if self.expect == "each" and self.text is None and self.pattern is None:
            raise ValueError("an 'each' check needs text (or a pattern)")
        if self.expect == "url" and self.path is None and self.pattern is None \
                and not self.query:
            raise ValueError("a 'url' check needs a path, a pattern or query parameters")
        if self.match == "pattern" and self.pattern is None:
            raise ValueError("match: pattern needs a pattern")
        if self.pattern is not None and self.match != "pattern" \
                and self.expect in ("text", "hidden", "each", "value"):
            raise ValueError(f"an {self.expect!r} check's pattern is read only with match: "
                             "pattern (add it, or remove the pattern)")
        return self

    def describe(self) -> str:
        """What the check expects, in a sentence (placeholders as recorded)."""
        what = self.element.describe() if self.element is not None else None
        scope = f" within {self.within.describe()}" if self.within is not None else ""
        if self.expect == "download" and self.download is not None:
            return self.download.describe()
        if self.expect == "screenshot" and self.screenshot is not None:
            return f"{what}: {self.screenshot.describe()}"
        if self.expect == "url":
            parts = []
            if self.pattern is not None:
                parts.append(f"URL path matching /{self.pattern}/")
            elif self.path is not None:
                parts.append(f"URL path {self.path!r}")
            if self.query:
                parts.append("query " + "&".join(f"{k}={v}" for k, v in self.query.items()))
            return " and ".join(parts)
        if self.expect == "visible":
            return f"{what} is visible{scope}"
        if self.expect == "hidden":
            return f"{what or repr(self.text)} is not visible{scope}"
        if self.expect == "count":
            like = f"elements like {what}" if what else "items"
            if self.change is not None:
                return self._changed(like, scope)
            return f"{self.count} {like}{scope}"
        if self.expect == "each":
            every = f"every element like {what}" if what else "every item"
            return f"{every}{scope} shows {self._wanted(self.text)} (one at least)"
        if self.expect == "nth":
            return f"{what} is in item {self.index} of its list{scope}"
        if self.expect == "order":
            return f"texts in this order{scope}: " + " < ".join(map(repr, self.texts))
        if self.expect == "state":
            return f"{what} is {self.state}{scope}"
        if self.expect == "value":
            return f"{what} has value {self._wanted(self.value)}{scope}"
        if what is None:  # a text of the page, or of the container
            where = self.within.describe() if self.within is not None else "the page"
            return f"{where} shows {self._wanted(self.text)}"
        return f"{what}{scope} shows {self._wanted(self.text)}"

    @property
    def start(self) -> int | None:
        """A ``change`` check's count when the step began, where known (see ``at_start``)."""
        return self._start

    def started(self, start: int | None) -> Check:
        """This check, knowing its count when the step began (a recording's: what the
        claim was verified with)."""
        self._start = start
        return self

    def at_start(self, start: int) -> Check:
        """This ``change`` check as a plain count for a run whose step began with ``start``
        (its description says both: "6 items (7 at the step's start, -1)")."""
        assert self.change is not None
        out = self.model_copy(update={"count": start + self.change})
        out._start = start
        return out

    def _changed(self, like: str, scope: str) -> str:
        assert self.change is not None
        if self.count is not None and self._start is not None:  # a run's: both numbers
            return (f"{self.count} {like}{scope} ({self._start} at the step's start, "
                    f"{self.change:+d})")
        if self.change == 0:
            return f"{like}{scope}: as many as at the step's start"
        fewer = "fewer" if self.change < 0 else "more"
        return f"{like}{scope}: {abs(self.change)} {fewer} than at the step's start"

    def _wanted(self, text: str | None) -> str:
        if self.match == "pattern":
            return f"text matching /{self.pattern}/ (recorded: {text!r})"
        if self.match == "contains":
            return f"text containing {text!r}"
        return f"text {text!r}"

    @property
    def discriminating(self) -> bool:
        return not self.held_before


def upgrade_check_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 check read with its old meaning: an element's text was compared exactly,
    a page text was a substring anywhere, a URL check compared the path."""
    if "url_path" in data:
        return {"expect": "url", "path": data["url_path"]}
    out: dict[str, Any] = {"expect": "text", "text": data.get("text")}
    if data.get("element") is not None:
        out["element"] = data["element"]
    elif data.get("pattern") is None:
        out["match"] = "contains"
    if data.get("pattern") is not None:
        out.update(match="pattern", pattern=data["pattern"])
    return out


class RecipeAction(BaseModel):
    """One action: the tool, its parameters (placeholders kept), and its target's
    fingerprint (never an element id); ``to`` is a drag's drop target. ``dialogs`` are the
    dialogs it opened with their answers, ``opens_tab`` that it opened a new tab: a replay
    answers the same way and fails when they do not come again. ``downloads``: it
    downloaded a file (the step's download check; the export waits for it there)."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    reason: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    target: Fingerprint | None = None
    to: Fingerprint | None = None
    dialogs: list[Dialog] = Field(default_factory=list)
    opens_tab: bool = False
    downloads: bool = False


class Extraction(BaseModel):
    """An extract step's generated recipe: bindings and commands, run with no LLM.
    ``targets`` are the bindings' fingerprints (what each selector matched when recorded;
    recipes recorded before them replay by CSS alone); ``recorded_items`` is how many items
    the recording read."""

    model_config = ConfigDict(extra="forbid")

    fields: list[str] = Field(default_factory=list)
    recorded_items: int | None = None
    bindings: Bindings
    recipe: ExtractionRecipe
    targets: dict[str, BindingFingerprint] = Field(default_factory=dict)


class RecipeStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["do", "check", "extract"]
    text: str
    # The names the step was recorded with (part of its identity; values are not stored).
    # None: recorded before these were stored, so not compared.
    variables: list[str] | None = Field(default_factory=list)
    secrets: list[str] | None = Field(default_factory=list)
    resources: list[str] | None = Field(default_factory=list)
    url: str = ""
    actions: list[RecipeAction] = Field(default_factory=list)
    checks: list[Check] = Field(default_factory=list)
    extraction: Extraction | None = None
    message: str = ""
    # the advice (the task's words, agent/verify.py) the step was recorded over: a reviewer
    # reads whether its checks prove the statement
    doubted: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _extraction_iff_extract(self) -> RecipeStep:
        if (self.kind == "extract") != (self.extraction is not None):
            raise ValueError("an extract step, and only an extract step, has an 'extraction'")
        return self

    def describe(self) -> str:
        return f"{self.kind}({self.text!r})"

    @property
    def unverified(self) -> bool:
        """A ``do`` or ``check`` step whose replay would check nothing the step changed: it
        has no check, or only checks that already held before it (a hand-edited or cut
        recipe, or evidence that discriminates nothing). An extract step reads its items."""
        return self.kind != "extract" and not any(c.discriminating for c in self.checks)

    def why_unverified(self) -> str:
        if not self.checks:
            return "it has no check"
        return ("each of its checks already held before the step ran: "
                + "; ".join(c.describe() for c in self.checks))


class Recipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = RECIPE_VERSION
    test: str
    steps: list[RecipeStep] = Field(default_factory=list)
