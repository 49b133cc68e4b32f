"""The built-in tools, each defined once for both flavours: name, description, parameters,
recipe handling and exported code. ``_async/element_tools.py`` and ``_async/page_tools.py``
subclass each with what it does to the page (``perform``); ``BUILT_IN`` maps names to these
classes, and ``tool_spec`` looks a name up among them and a plugin's tools, for the code that
needs no browser (the export, recipe compilation)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from .meant import select_meant, slid_meant, typed_meant
from .params import (
    WAIT_SECONDS,
    ClickParams,
    CloseTabParams,
    DialogParams,
    DragParams,
    ElementParams,
    FillParams,
    FindParams,
    NavigateParams,
    NoParams,
    PointerParams,
    PointParams,
    PressParams,
    ScrollParams,
    SelectParams,
    SlideParams,
    TabParams,
    TypeParams,
    UploadParams,
    WaitParams,
)
from .spec import Code, ToolSpec

SCROLL_PX = 600  # what the exported test scrolls by: about most of a screen, as the tool does


class OnElement(ToolSpec):
    """A tool whose action is one Playwright call on its element: ``method``, given the
    typed value when ``typed``. The export writes that call; the recorder and the replayer
    make it too unless the tool's ``perform`` says otherwise."""

    method: ClassVar[str]
    typed: ClassVar[bool] = False

    @classmethod
    def code(cls, c: Code) -> list[str]:
        value = c.expr(str(c.params.get("value", ""))) if cls.typed else ""
        return [f"{c.element()}.{cls.method}({value})"]


class Navigate(ToolSpec):
    name = "navigate"
    description = "Navigate to a URL"
    params_class = NavigateParams
    url_param = "url"

    @classmethod
    def code(cls, c: Code) -> list[str]:
        return [f"page.goto({c.expr(str(c.params['url']))})"]


class Click(OnElement):
    name = "click"
    description = ("Click an element (also to focus a field); times: click it several times "
                   "in a row")
    params_class = ClickParams
    method = "click"

    @classmethod
    def code(cls, c: Code) -> list[str]:
        times = int(c.params.get("times") or 1)
        if times > 1:  # the locator finds it again each time: a re-render replaces it
            return [f"for _ in range({times}):", f"    {c.element()}.click()"]
        return super().code(c)


# A click watched while recording: CLICK_WATCH notes where the next click event goes (the
# capture phase of the element's window sees it first); CLICK_MISSED, after the click, says
# the element it reached when that is neither the element nor inside it ("" when it is,
# when no click event came, or when either is gone from the page: nothing to tell).
CLICK_WATCH = """el => {
  const win = el.ownerDocument.defaultView;
  if (win.__webtaskClick) win.removeEventListener('click', win.__webtaskClick, true);
  el.__webtaskReached = undefined;
  win.__webtaskClick = (e) => {
    win.removeEventListener('click', win.__webtaskClick, true);
    win.__webtaskClick = undefined;
    const path = e.composedPath ? e.composedPath() : [e.target];
    el.__webtaskReached = path.includes(el) ? '' : e.target;
  };
  win.addEventListener('click', win.__webtaskClick, true);
}"""
CLICK_MISSED = """el => {
  const win = el.ownerDocument.defaultView;
  if (win.__webtaskClick) {
    win.removeEventListener('click', win.__webtaskClick, true);
    win.__webtaskClick = undefined;
  }
  const t = el.__webtaskReached;
  el.__webtaskReached = undefined;
  // a page that re-rendered the element as it was pressed clicked its new one: no miss
  if (!t || !el.isConnected || !t.isConnected) return '';
  const cls = typeof t.className === 'string' && t.className.trim()
    ? '.' + t.className.trim().split(/\\s+/).join('.') : '';
  return '<' + t.tagName.toLowerCase() + (t.id ? '#' + t.id : '') + cls + '>';
}"""


def click_missed(params: Mapping[str, Any], reached: str, again: str | None) -> str:
    """What a watched click that missed says: what it reached, and what the second try
    (``again``: what it reached with the pointer resting on the element; None: the pointer
    could not rest on it) did."""
    said = (f"click failed: the click reached {reached}, not {params.get('element_id') or 'it'}: "
            "it moves or changes under the pointer (a hover picture not loaded yet, an "
            "animation)")
    if again is None:
        return (f"{said}; the pointer could not rest on it (it has no size or moves while "
                "the pointer is on it).")
    return f"{said}; clicked again with the pointer on it, it reached {again}."


# What a text tool's element refuses, in one call: "read-only" (``el.readOnly``: a field that
# takes no typing), or, for key presses while recording (``keys``), "no-text": no field, text
# area, editable element or text role, and focusing it focuses none (a widget that hands its
# focus on to a field takes them); else "". A mail's row typed into said "ok", keys to nowhere.
TEXT_TARGET = """(el, keys) => {
  if (el.readOnly) return 'read-only';
  if (!keys) return '';
  const takes = (n) => !!n && n.nodeType === 1 && (n.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(n.tagName) ||
    ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(n.getAttribute('role')));
  if (takes(el)) return '';
  if (typeof el.focus === 'function') el.focus();
  let now = el.ownerDocument.activeElement;
  while (now && now.shadowRoot && now.shadowRoot.activeElement) now = now.shadowRoot.activeElement;
  return takes(now) ? '' : 'no-text';
}"""


def not_typable(tool: str, params: Mapping[str, Any]) -> str:
    """What a tool that types keys says of an element that takes no text."""
    target = params.get("element_id") or "it"
    return (f"{tool} failed: {target} takes no text (it is no text field, text area or "
            "editable element, and focusing it focuses none): its key presses would go "
            "nowhere. Type into the field the text goes in (one the page opens for it, "
            "perhaps after a click), or use press for a key.")


class Fill(OnElement):
    name = "fill"
    sets_control = True
    description = "Fill a form field"
    params_class = FillParams
    method = "fill"
    typed = True

    @classmethod
    def instead(cls, params: dict[str, Any], state_text: str
                ) -> tuple[str, dict[str, Any], str] | None:
        return slid_meant(cls.name, params, state_text, slide=Slide.name) \
            or typed_meant(cls.name, params, state_text, click=Click.name, fill=Fill.name,
                           check=CheckBox.name)


class Type(OnElement):
    name = "type"
    sets_control = True
    description = ("Type text key by key, adding to what the field holds: only for a field "
                   "that fill does not work on (an autocomplete, an editor)")
    params_class = TypeParams
    method = "press_sequentially"
    typed = True

    @classmethod
    def instead(cls, params: dict[str, Any], state_text: str
                ) -> tuple[str, dict[str, Any], str] | None:
        return typed_meant(cls.name, params, state_text, click=Click.name,
                           fill=Fill.name, check=CheckBox.name)


class Select(OnElement):
    name = "select"
    chooses = True  # picks one of the options a control offers (agent: chosen-uncited)
    sets_control = True
    description = "Choose an option in a dropdown"
    params_class = SelectParams
    method = "select_option"
    typed = True
    choices = ("value", "options")

    @classmethod
    def instead(cls, params: dict[str, Any], state_text: str
                ) -> tuple[str, dict[str, Any], str] | None:
        # "Select AU": a radio button, a checkbox, a menu or a button is no dropdown
        return slid_meant(cls.name, params, state_text, slide=Slide.name) \
            or select_meant(params, state_text, check=CheckBox.name, click=Click.name,
                            select=cls.name, fill=Fill.name)

    @classmethod
    def code(cls, c: Code) -> list[str]:
        value = c.params.get("value", "")
        if isinstance(value, list):  # several options of a list that takes several
            return [f"{c.element()}.select_option([{', '.join(c.expr(str(v)) for v in value)}])"]
        return super().code(c)


# What a slider's value is: ARIA's, a range input's, else jQuery UI's own (its handle says
# nothing); null when none says it. The replay and the exported test read it alike.
SLIDER_VALUE = """el => {
  const aria = el.getAttribute('aria-valuenow');
  if (aria !== null && aria !== '') return Number(aria);
  if (el.tagName === 'INPUT') return Number(el.value);
  const host = el.closest('.ui-slider'), $ = window.jQuery;
  if (host && $ && $.fn && $.fn.slider) return Number($(host).slider('value'));
  return null;
}"""
SLIDE_MAX_KEYS = 1000  # arrow presses a slide may take (a 0-1000 slider, one per step)


class Slide(ToolSpec):
    """A slider moved with the keyboard, as a person using it with keys would: an arrow key
    at a time until the slider says the value (arrows work on ARIA and jQuery UI sliders
    alike, whatever their size or orientation)."""

    name = "slide"
    sets_control = True
    description = 'Move a slider (role="slider") to a number'
    params_class = SlideParams
    shown_by = 'role="slider"'

    @classmethod
    def code(cls, c: Code) -> list[str]:
        el, want = c.element(), c.expr(str(c.params["value"]))
        # as the replay does: it stops as soon as a key does not move the slider (an end, a
        # stuck slider) or steps over the value, not after every key it may take
        return [f"slider, want = {el}, float({want})",
                f"now = slider.evaluate({SLIDER_VALUE!r})",
                f"for _ in range({SLIDE_MAX_KEYS}):",
                "    if now == want:",
                "        break",
                '    slider.press("ArrowRight" if now < want else "ArrowLeft")',
                f"    before, now = now, slider.evaluate({SLIDER_VALUE!r})",
                '    assert now != before, f"the slider stops at {now}: it does not reach {want}"',
                "    assert (before < want) == (now < want) or now == want, \\",
                '        f"the slider steps from {before} to {now}: it has no {want}"',
                'assert now == want, f"the slider stays at {now}, not {want}"']


class Press(ToolSpec):
    name = "press"
    description = "Press a key (Enter, Tab, Escape, ArrowDown...), on an element or the page"
    params_class = PressParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        el, key = c.element_or_none(), c.params["key"]
        return [f"{el}.press({key!r})" if el else f"page.keyboard.press({key!r})"]


# Scrolls an element's own content by most of its height (``sign``: 1 down, -1 up): what
# it scrolled by, or null where its content fits (nothing to scroll inside it). At its end it
# waits, as a person does, for what scrolling there loads (rows appended to the list) to
# settle: until 150 ms pass with no change inside it (600 ms when nothing comes; 3 s at most).
SCROLL_INSIDE_JS = """async (el, sign) => {
  const max = el.scrollHeight - el.clientHeight;
  const style = getComputedStyle(el);
  if (max <= 2 || !/^(auto|scroll|overlay)$/.test(style.overflowY)) return null;
  const before = el.scrollTop;
  el.scrollBy({ top: sign * Math.max(40, Math.round(el.clientHeight * 0.8)), behavior: 'instant' });
  const moved = el.scrollTop - before;
  const end = sign > 0 ? el.scrollTop >= el.scrollHeight - el.clientHeight - 2 : el.scrollTop <= 1;
  if (end) {
    await new Promise((resolve) => {
      let timer = null;
      const done = () => { observer.disconnect(); clearTimeout(cap); resolve(); };
      const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(done, 150);
      });
      observer.observe(el, { childList: true, subtree: true, characterData: true });
      timer = setTimeout(done, 600);
      const cap = setTimeout(done, 3000);
    });
  }
  return moved;
}"""


class Scroll(ToolSpec):
    name = "scroll"
    description = ("Scroll the page, scroll an element into view, or (inside) scroll a list's "
                   "or text area's own content")
    params_class = ScrollParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        el = c.element_or_none()
        sign = -1 if c.params.get("direction") == "up" else 1
        if el and c.params.get("inside"):
            return [f"assert {el}.evaluate({SCROLL_INSIDE_JS!r}, {sign}) is not None, "
                    "'its content no longer scrolls'"]
        if el:
            return [f"{el}.scroll_into_view_if_needed()"]
        return [f"page.mouse.wheel(0, {sign * SCROLL_PX})"]


class Hover(OnElement):
    name = "hover"
    description = ("Move the pointer over an element; controls shown only on hover (a row's "
                   "delete button, a menu) then appear in the next page state")
    params_class = PointerParams
    method = "hover"


class DoubleClick(OnElement):
    name = "double_click"
    description = "Double-click an element (for example to edit an item in place)"
    params_class = PointerParams
    method = "dblclick"


class CheckBox(OnElement):
    name = "check"
    sets_control = True
    description = "Check a checkbox, radio button or switch (nothing happens if already checked)"
    params_class = ElementParams
    method = "check"


class UncheckBox(OnElement):
    name = "uncheck"
    sets_control = True
    description = "Uncheck a checkbox or switch (nothing happens if already unchecked)"
    params_class = ElementParams
    method = "uncheck"


def drop_point(source: Mapping[str, Any], target: Mapping[str, Any]) -> dict[str, float]:
    """Where in ``target``'s box (from its top-left corner) a dragged element is dropped:
    past its centre, a quarter of its size on, in the direction the drag goes, as a person
    drops an item to take another's place (a sortable list moves an item once the pointer
    is past the other's middle; on a drop zone, any point inside it does)."""
    dx = (target["x"] + target["width"] / 2) - (source["x"] + source["width"] / 2)
    dy = (target["y"] + target["height"] / 2) - (source["y"] + source["height"] / 2)
    if abs(dy) >= abs(dx):
        return {"x": target["width"] / 2, "y": target["height"] * (0.75 if dy > 0 else 0.25)}
    return {"x": target["width"] * (0.75 if dx > 0 else 0.25), "y": target["height"] / 2}


class Drag(ToolSpec):
    name = "drag"
    description = "Drag an element and drop it on another element (or in its place)"
    params_class = DragParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        # drop_point's rule, written out: the exported test needs no pytest-webtask
        return [f"source, target = {c.element()}, {c.drop_target()}",
                "a, b = source.bounding_box(), target.bounding_box()",
                "assert a is not None and b is not None",
                'dx = b["x"] + b["width"] / 2 - a["x"] - a["width"] / 2',
                'dy = b["y"] + b["height"] / 2 - a["y"] - a["height"] / 2',
                'at = ({"x": b["width"] / 2, "y": b["height"] * (0.75 if dy > 0 else 0.25)} '
                'if abs(dy) >= abs(dx) else '
                '{"x": b["width"] * (0.75 if dx > 0 else 0.25), "y": b["height"] / 2})',
                "source.drag_to(target, target_position=at)"]


class Point(ToolSpec):
    """A mouse action at a point of an element given as fractions of its box, so it lands on
    the same spot of a canvas, a map or a drawing when the element moves or is resized."""

    name = "point"
    description = ("Click, double-click, hover or drag at a point inside an element (a canvas, "
                   "a chart, an image), given as fractions of its box: x=0 left, x=1 right, "
                   "y=0 top, y=1 bottom; a drag goes from (x, y) to (to_x, to_y)")
    params_class = PointParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        p = c.params
        at = (f'box["x"] + {float(p["x"])!r} * box["width"], '
              f'box["y"] + {float(p["y"])!r} * box["height"]')
        # the box just before acting, after scrolling it into view, as a replay takes it
        el = c.element()
        lines = [f"{el}.scroll_into_view_if_needed()", f"box = {el}.bounding_box()",
                 "assert box is not None"]
        action = p.get("action", "click")
        if action == "drag":
            to = (f'box["x"] + {float(p["to_x"])!r} * box["width"], '
                  f'box["y"] + {float(p["to_y"])!r} * box["height"]')
            return lines + [f"page.mouse.move({at})", "page.mouse.down()",
                            f"page.mouse.move({to}, steps=10)", "page.mouse.up()"]
        call = {"click": "click", "double_click": "dblclick", "hover": "move"}[action]
        return lines + [f"page.mouse.{call}({at})"]


class Upload(ToolSpec):
    name = "upload"
    description = "Upload file resources to a file input element"
    params_class = UploadParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        el = c.element()
        files = ", ".join(c.file(n) for n in c.params.get("resource_names", []))
        return [f"{el}.set_input_files([{files}])"]


class GoBack(ToolSpec):
    name = "go_back"
    description = "Go back to the previous page of this tab"
    params_class = NoParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        return ["page.go_back()"]


class Wait(ToolSpec):
    name = "wait"
    description = "Wait until a text is visible on the page (at most a few seconds)"
    params_class = WaitParams

    @classmethod
    def code(cls, c: Code) -> list[str]:
        ms = float(c.params.get("seconds") or WAIT_SECONDS) * 1000
        return [f"expect(page.get_by_text({c.expr(str(c.params['text']))}).filter(visible=True)"
                f".first).to_be_visible(timeout={ms:.0f})"]


class AnswerDialog(ToolSpec):
    name = "dialog"
    description = ("Decide the answer to the next dialog (alert, confirm, prompt) the page "
                   "opens; put it BEFORE the action that opens the dialog. A dialog nobody "
                   "answered beforehand is dismissed (an alert is accepted)")
    params_class = DialogParams
    replayed = False  # the answer is stored with the action that opened the dialog

    @classmethod
    def code(cls, c: Code) -> list[str]:
        return []  # the answer is written before the action that opens the dialog


class SwitchTab(ToolSpec):
    name = "switch_tab"
    description = "Make another open tab the current one"
    params_class = TabParams
    tabs_needed = 2

    @classmethod
    def code(cls, c: Code) -> list[str]:
        return [f"page = page.context.pages[{int(c.params['tab'])}]", "page.bring_to_front()"]


class CloseTab(ToolSpec):
    name = "close_tab"
    description = "Close a tab (the current one by default)"
    params_class = CloseTabParams
    tabs_needed = 2


class Find(ToolSpec):
    name = "find"
    description = ("Find elements anywhere on the page, including parts a long page state only "
                   "counts, by text (their own text, name or label, or the text of their row) "
                   "and/or role; returns their element IDs, best match first. A text the page "
                   "state shows without an ID (a label, a cell) gets one, for click, "
                   "double_click or hover")
    params_class = FindParams
    replayed = False  # it only reads the page

    @staticmethod
    def terms(text: str, role: str) -> tuple[str, str]:
        """What to search for: a text copied from a line the page state clipped ("Audrey
        Ridiculus eget… Imperdiet") searches by its part before the first ellipsis (the
        element's text holds no ellipsis); an element id given as a role ("div-4") is no
        role."""
        for mark in ("…", "..."):
            if mark in text and text.split(mark)[0].strip():
                text = text.split(mark)[0].strip()
        if re.fullmatch(r"[a-z][a-z0-9]*-\d+", role.strip()):
            role = ""
        return text, role

    @classmethod
    def code(cls, c: Code) -> list[str]:
        return []


BUILT_IN: dict[str, type[ToolSpec]] = {tool.name: tool for tool in (
    Navigate, Click, Fill, Type, Select, Press, Scroll, Hover, DoubleClick, CheckBox, UncheckBox,
    Drag, GoBack, Wait, AnswerDialog, SwitchTab, CloseTab, Find, Upload, Point, Slide)}


def tool_spec(name: str, plugins: Mapping[str, type[ToolSpec]] | None = None
              ) -> type[ToolSpec] | None:
    """The tool called ``name`` for the code that needs no browser: a plugin's (which
    replaces a built-in of its name), else the built-in one; None when there is none."""
    return (plugins or {}).get(name) or BUILT_IN.get(name)
