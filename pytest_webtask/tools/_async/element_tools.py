"""The built-in tools that act on an element (press and scroll: or on the page). Each is
its ``tools.builtin`` definition plus what it does, for recording and replay alike."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from ...types import ExecutionResult
from ..builtin import (
    CLICK_MISSED,
    CLICK_WATCH,
    SCROLL_INSIDE_JS,
    SLIDE_MAX_KEYS,
    SLIDER_VALUE,
    TEXT_TARGET,
    CheckBox,
    Click,
    DoubleClick,
    Drag,
    Fill,
    Hover,
    Point,
    Press,
    Scroll,
    Select,
    Slide,
    Type,
    UncheckBox,
    Upload,
    click_missed,
    drop_point,
    not_typable,
)
from .browser_tools import AsyncScene, AsyncTool


class AsyncElementTool(AsyncTool):
    """A tool whose action needs its target element. ``on`` does it: by default the
    ``OnElement`` call of its definition (Playwright's ``method``, given the typed value)."""

    method: ClassVar[str]
    typed: ClassVar[bool]

    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        if scene.locator is None:
            return ExecutionResult(success=False, error=f"{cls.name} needs an element_id.")
        error = await cls.on(scene.locator, params, scene)
        return ExecutionResult(success=False, error=error) if error else \
            ExecutionResult(success=True)

    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        """Act on ``el``: None when done, else what went wrong."""
        args = [_value(params, scene)] if cls.typed else []
        await getattr(el, cls.method)(*args, timeout=scene.timeout_ms)
        return None


def _value(params: dict[str, Any], scene: AsyncScene) -> str:
    return scene.substitute(str(params.get("value", "")))


class AsyncClickTool(Click, AsyncElementTool):
    """A click. Recording, a single click is watched: when its click event reached another
    element (an icon whose hover picture replaces it under the pointer: it has no size at
    the moment the button goes down), the pointer is moved onto it, and it is clicked again;
    the result says so (``hovered``) and the recipe keeps a hover before the click, so the
    replay and the exported code do what worked. A click that misses again fails, saying
    what it reached. Replay clicks as recorded, watching nothing."""

    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        el = scene.locator
        if scene.replay or el is None or int(params.get("times") or 1) > 1:
            return await super().perform(params, scene)
        state = await _state(el, scene)
        missed = await _watched_click(el, scene)
        if missed is None:
            return ExecutionResult(success=True, checked=await _turned(el, scene, state))
        try:  # the pointer on it, its hover state settled (a wait for a late picture)
            await el.hover(timeout=min(scene.timeout_ms, HOVER_SETTLE_MS))
        except PlaywrightError:
            return ExecutionResult(success=False, error=click_missed(params, missed, None))
        again = await _watched_click(el, scene)
        if again is None:
            return ExecutionResult(success=True, hovered=True,
                                   checked=await _turned(el, scene, state))
        return ExecutionResult(success=False, error=click_missed(params, missed, again))

    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        times = int(params.get("times") or 1)
        for n in range(times):
            try:
                await (el if n == 0 or scene.again is None else scene.again).click(
                    timeout=scene.timeout_ms)
            except PlaywrightTimeoutError:
                if n == 0:
                    raise
                return (f"click {n + 1} of {times} failed: the element is no longer there "
                        f"to click after click {n} (or not visible and enabled)")
        return None


HOVER_SETTLE_MS = 5000.0  # at most, for a missed click's element to take the pointer


async def _watched_click(el: Locator, scene: AsyncScene) -> str | None:
    """Click ``el``; None when its click event reached it (or could not be told: the page
    went on, the element is gone), else the element it reached (``CLICK_MISSED``)."""
    # a handle, not the locator, is asked after the click: a locator would wait for an
    # element the click took away (a link followed, a row deleted)
    handle = await el.element_handle(timeout=scene.timeout_ms)
    try:
        await handle.evaluate(CLICK_WATCH)
        await el.click(timeout=scene.timeout_ms)
        try:
            reached = await handle.evaluate(CLICK_MISSED)
        except PlaywrightError:
            return None  # navigated: the click did something
        return str(reached) if reached else None
    finally:
        try:
            await handle.dispose()
        except PlaywrightError:
            pass  # its page is gone


class AsyncTextTool(AsyncElementTool):
    """Text into a field, refused on a read-only one: Playwright's fill waits out its
    timeout there, and its key presses change nothing and report no error (a date picker's
    field: "typed" and called done, the value still empty). Recording asks first, so a model
    is told at once. A replayed fill asks nothing, as exported code does: Playwright's fill
    waits for an editable field itself, and only when it timed out is the field asked why.
    A replayed ``type`` (``types_keys``) through the selector engine asks nothing either: the
    engine gives it no read-only field, so it waits as fill does, and the replayer says why
    when it timed out; elsewhere (an element in an iframe) it asks first. Recording, a
    ``type`` into an element that takes no text (``TEXT_TARGET``: a mail's row) is refused:
    its key presses would go nowhere, and say "ok"."""

    types_keys: ClassVar[bool] = False  # key presses, which would not refuse a read-only field

    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        if scene.replay and cls.types_keys and scene.by_fingerprint:
            return await super().on(el, params, scene)
        if scene.replay and cls.method == "fill":
            try:
                return await super().on(el, params, scene)
            except PlaywrightTimeoutError:
                if await el.count() and await el.evaluate(READ_ONLY, timeout=scene.timeout_ms):
                    return cls.read_only(params)
                raise
        # one round trip: read-only, or (key presses, recording) an element taking no text
        wrong = await el.evaluate(TEXT_TARGET, cls.types_keys and not scene.replay,
                                  timeout=scene.timeout_ms)
        if wrong == "read-only":
            return cls.read_only(params)
        if wrong == "no-text":
            return not_typable(cls.name, params)
        return await super().on(el, params, scene)

    @classmethod
    def read_only(cls, params: dict[str, Any]) -> str:
        return read_only(cls.name, params)


def read_only(tool: str, params: dict[str, Any]) -> str:
    """What a tool that types says of a read-only field."""
    field = params.get("element_id") or "it"
    return (f"{tool} failed: the field is read-only, typing changes nothing. Its value is "
            f"chosen another way: click {field} (a date picker or a list opens), then choose "
            "in it.")


# a field that takes no typing: readonly, as the page state's "readonly" flag says (not
# aria-readonly: a hint to assistive technology, typing may still work there)
READ_ONLY = "el => !!el.readOnly"


class AsyncFillTool(Fill, AsyncTextTool):
    pass


class AsyncTypeTool(Type, AsyncTextTool):
    types_keys = True


class AsyncSelectTool(Select, AsyncElementTool):
    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        """Playwright's ``select_option`` with the value (an option's value or its label,
        the first that matches). Recording looks at the options first, so that a model's
        wrong guess is told the options at once; a replay selects at once, as exported code
        does, and looks only when that timed out with the dropdown there: a missing option
        is said with the options it has, anything else (the option or the dropdown
        disabled) is the replayer's to say."""
        given = params.get("value", "")
        value: str | list[str] = [scene.substitute(str(v)) for v in given] \
            if isinstance(given, list) else _value(params, scene)
        if scene.replay:
            try:
                await el.select_option(value, timeout=scene.timeout_ms)
                return None
            except PlaywrightTimeoutError:
                options = await _options(el, scene.timeout_ms) if await el.count() else None
                if options is None or _has_option(value, options):
                    raise
                return _no_option(value, options)
        options = await _options(el, scene.timeout_ms)
        if not _has_option(value, options):
            return _no_option(value, options)
        await el.select_option(value, timeout=scene.timeout_ms)
        return None


async def _options(el: Locator, timeout_ms: float) -> list[list[str]]:
    """A dropdown's options, [label, value] each."""
    return await el.evaluate(  # type: ignore[no-any-return]
        "el => Array.from(el.options || []).map(o => [o.label.trim(), o.value])",
        timeout=timeout_ms)


def _has_option(value: str | list[str], options: list[list[str]]) -> bool:
    if isinstance(value, list):
        return all(_has_option(v, options) for v in value)
    return any(value in (label, v) for label, v in options)


def _no_option(value: str | list[str], options: list[list[str]]) -> str:
    shown = ", ".join(repr(label) for label, _ in options) or "none"
    return f"No option {value!r} in this dropdown; options: {shown}"


class AsyncHoverTool(Hover, AsyncElementTool):
    pass


class AsyncDoubleClickTool(DoubleClick, AsyncElementTool):
    pass


class AsyncSetStateTool(AsyncElementTool):
    """check and uncheck: the control set to ``want``, clicked only when it is not so. A
    replay says when it was already so (the step's log shows it): a recipe recorded where
    the switch was off replays on data where it is on, and leaves it on."""

    want: ClassVar[bool]

    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        el = scene.locator
        if el is None or not scene.replay:
            return await super().perform(params, scene)
        already = await el.evaluate(CHECKED_JS, timeout=scene.timeout_ms) == cls.want
        result = await super().perform(params, scene)
        if result.success and already:
            result.output = (f"it was already {'on' if cls.want else 'off'} (checked: "
                             f"{str(cls.want).lower()}): left as it is, {cls.name} sets the "
                             "state, it does not flip it")
        return result

    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        if scene.by_fingerprint:
            return await replay_checked(el, cls.want, scene.timeout_ms)
        return await set_checked(el, cls.want, scene.timeout_ms)


class AsyncCheckBoxTool(CheckBox, AsyncSetStateTool):
    want = True


class AsyncUncheckBoxTool(UncheckBox, AsyncSetStateTool):
    want = False


class AsyncDragTool(Drag, AsyncElementTool):
    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        if scene.to_locator is None:
            return "drag needs a to_element_id to drop on."
        target = scene.to_locator
        if not scene.replay:  # drag_to scrolls itself; the drop point is the boxes' relation
            await el.scroll_into_view_if_needed(timeout=scene.timeout_ms)
        source_box = await el.bounding_box(timeout=scene.timeout_ms)
        target_box = await target.bounding_box(timeout=scene.timeout_ms)
        at = drop_point(source_box, target_box) if source_box and target_box else None
        await el.drag_to(target, target_position=at, timeout=scene.timeout_ms)  # type: ignore[arg-type]
        return None


class AsyncSlideTool(Slide, AsyncElementTool):
    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        """Arrow keys on the slider, one at a time, until it says the value; it fails as
        soon as a key does not move it (an end, a disabled slider) or one steps over it."""
        text = _value(params, scene)
        try:
            want = float(text)
        except ValueError:
            return f"slide takes a number, not {text!r}."
        now = await el.evaluate(SLIDER_VALUE, timeout=scene.timeout_ms)
        if now is None:
            return ("this slider does not say its value (no aria-valuenow): press ArrowRight "
                    "or ArrowLeft on it and read the value the page shows.")
        start = now
        for _ in range(SLIDE_MAX_KEYS):
            if now == want:
                return None
            key = "ArrowRight" if now < want else "ArrowLeft"
            await el.press(key, timeout=scene.timeout_ms)
            before, now = now, await el.evaluate(SLIDER_VALUE, timeout=scene.timeout_ms)
            if now == before:
                return f"the slider stops at {_number(now)}: it does not reach {text}."
            if (before < want) != (now < want) and now != want:
                return (f"the slider steps from {_number(before)} to {_number(now)}: it has "
                        f"no {text}.")
        if now == want:  # the last key's value
            return None
        return f"the slider went from {_number(start)} to {_number(now)}, not to {text}."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class AsyncPointTool(Point, AsyncElementTool):
    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        """The mouse at fractions of the element's box, taken just before acting (after
        scrolling it into view), so the point follows the element."""
        await el.scroll_into_view_if_needed(timeout=scene.timeout_ms)
        box = await el.bounding_box(timeout=scene.timeout_ms)
        if box is None or box["width"] < 1 or box["height"] < 1:
            return "point needs an element with a box on the page (it is not visible)"
        mouse = scene.page.mouse
        x = box["x"] + float(params["x"]) * box["width"]
        y = box["y"] + float(params["y"]) * box["height"]
        action = params.get("action", "click")
        if action == "drag":
            await mouse.move(x, y)
            await mouse.down()
            await mouse.move(box["x"] + float(params["to_x"]) * box["width"],
                             box["y"] + float(params["to_y"]) * box["height"], steps=10)
            await mouse.up()
        elif action == "double_click":
            await mouse.dblclick(x, y)
        elif action == "hover":
            await mouse.move(x, y)
        else:
            await mouse.click(x, y)
        return None


class AsyncUploadTool(Upload, AsyncElementTool):
    @classmethod
    async def on(cls, el: Locator, params: dict[str, Any], scene: AsyncScene) -> str | None:
        paths, error = resource_paths(params.get("resource_names", []), scene.resources)
        if error:
            return error
        await el.set_input_files(paths, timeout=scene.timeout_ms)
        return None


class AsyncPressTool(Press, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        if scene.locator is None:
            await scene.page.keyboard.press(params["key"])
        else:
            await scene.locator.press(params["key"], timeout=scene.timeout_ms)
        return ExecutionResult(success=True)


class AsyncScrollTool(Scroll, AsyncTool):
    @classmethod
    async def perform(cls, params: dict[str, Any], scene: AsyncScene) -> ExecutionResult:
        sign = -1 if params.get("direction") == "up" else 1
        if scene.locator is not None and params.get("inside"):
            moved = await scene.locator.evaluate(SCROLL_INSIDE_JS, sign,
                                                 timeout=scene.timeout_ms)
            if moved is None:
                return ExecutionResult(success=False, error=(
                    "scroll inside failed: the element's content fits in it, there is "
                    "nothing to scroll inside it (scroll the page, or into view, instead)."))
        elif scene.locator is not None:
            await scene.locator.scroll_into_view_if_needed(timeout=scene.timeout_ms)
        else:
            await scene.page.evaluate(
                "s => window.scrollBy(0, s * Math.round(window.innerHeight * 0.8))", sign
            )
        return ExecutionResult(success=True)


CHECKED_JS = """el => {
  if (el.type === 'checkbox' || el.type === 'radio') return el.checked;
  const role = el.getAttribute('role');
  const roles = ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'];
  if (!roles.includes(role)) return null;
  return el.getAttribute('aria-checked') === 'true';
}"""


async def set_checked(locator: Locator, want: bool, timeout_ms: float) -> str | None:
    """Click a checkbox, radio or switch (native or by role) unless it is already as wanted.
    Not Playwright's ``set_checked``: apps that re-render the control on click leave it no
    element to verify; the new one is checked when still there."""
    state = await locator.evaluate(CHECKED_JS, timeout=timeout_ms)
    if state is None:
        return NOT_CHECKABLE
    if state != want:
        await locator.click(timeout=timeout_ms)
        if await locator.count() and \
                await locator.evaluate(CHECKED_JS, timeout=timeout_ms) != want:
            return NOT_CHANGED
    return None


async def replay_checked(locator: Locator, want: bool, timeout_ms: float) -> str | None:
    """``set_checked`` on replay, where ``locator`` finds its target by fingerprint (the
    selector engine): Playwright's own, one call as exported code makes (it reads the state,
    clicks only when it differs, and reads it again: a control the app re-renders is found
    again by its fingerprint). Its refusals are said as ``set_checked`` says them;
    a control that went away once clicked (a list that hides done items) is done, as
    ``set_checked`` has it, once Playwright has waited for it to come back."""
    try:
        await locator.set_checked(want, timeout=timeout_ms)
        return None
    except PlaywrightError as exc:
        text = str(exc)
        if "Not a checkbox or radio button" in text:
            return NOT_CHECKABLE
        if "did not change its state" in text or "Cannot uncheck radio button" in text:
            return NOT_CHANGED
        if not isinstance(exc, PlaywrightTimeoutError) or "click action done" not in text:
            raise
    if not await locator.count():
        return None  # clicked, then gone: nothing left to verify
    if await locator.evaluate(CHECKED_JS, timeout=timeout_ms) == want:
        return None
    return NOT_CHANGED


NOT_CHECKABLE = ("check and uncheck work on a checkbox, radio button or switch; this element "
                 "is none of them.")
NOT_CHANGED = "the click did not change its state."


async def _state(el: Locator, scene: AsyncScene) -> bool | None:
    """A checkbox's, radio's or switch's state (CHECKED_JS); None for another element, or
    one that cannot be read at once."""
    try:
        state = await el.evaluate(CHECKED_JS, timeout=min(scene.timeout_ms, 1000))
    except PlaywrightError:
        return None
    return state if isinstance(state, bool) else None


async def _turned(el: Locator, scene: AsyncScene, before: bool | None) -> bool | None:
    """The state a click turned its control to (True: on), None when it turned none (not a
    control, gone once clicked, unchanged)."""
    if before is None:
        return None
    try:
        if not await el.count():
            return None
    except PlaywrightError:
        return None
    after = await _state(el, scene)
    return after if after is not None and after != before else None


def resource_paths(names: list[str], resources: Mapping[str, str]) -> tuple[list[Path], str | None]:
    """Files for resource names, or an error naming what is missing."""
    paths = []
    for name in names:
        if name not in resources:
            known = ", ".join(resources) or "none"
            return [], f"Resource not found: {name!r}. Available resources: {known}."
        path = Path(resources[name])
        if not path.is_file():
            return [], f"Resource {name!r} points to a missing file: {path}"
        paths.append(path)
    if not paths:
        return [], "No resource_names given to upload."
    return paths, None
