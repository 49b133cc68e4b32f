"""A page state's form fields, as the agent's refusals and the tools' rewrites name them:
which elements take typed text, what each is called, which are empty in the form that
holds an element (``agent.fields``, ``tools.meant`` and the executer read them)."""

from __future__ import annotations

from .page_state import StateLine, state_lines

# input types that take typed text (a select on one of them meant to fill it)
TYPED_INPUTS = ("", "text", "search", "email", "number", "tel", "url", "password")


def is_text_field(line: StateLine) -> bool:
    """Does the element take typed text (a text-like input, a textarea, a textbox role)?"""
    tag = (line.id or "").rsplit("-", 1)[0]
    return (tag == "textarea" or (tag == "input" and line.attrs.get("type", "") in TYPED_INPUTS)
            or line.attrs.get("role") in ("textbox", "searchbox"))


def is_box(line: StateLine) -> bool:
    """Is the element a checkbox (an input of that type, or the checkbox or switch role)?"""
    tag = (line.id or "").rsplit("-", 1)[0]
    return ((tag == "input" and line.attrs.get("type") == "checkbox")
            or line.attrs.get("role") in ("checkbox", "switch"))


def field_names(line: StateLine) -> list[str]:
    """What a field is called on the page: its label, name, placeholder or aria-label, or
    the text beside it when nothing names it."""
    return [v for v in (line.attrs.get(k, "") for k in ("label", "name", "placeholder",
                                                          "aria-label", "beside")) if v.strip()]


def form_of(lines: list[StateLine], at: int) -> tuple[int, int]:
    """The lines of the form holding ``lines[at]`` (start, end), else the whole page. Only
    the line's ancestors are read: a form that ended before it (a search button in a box
    after the form) does not hold it."""
    depth = lines[at].depth
    for i in range(at - 1, -1, -1):
        if lines[i].depth < depth:
            depth = lines[i].depth
            if lines[i].head.startswith("form"):
                return i, end_of(lines, i)
    return 0, len(lines)


def in_form(lines: list[StateLine], at: int) -> tuple[int, int] | None:
    """The lines of the form holding ``lines[at]`` (start, end), or None when it is in none
    (``form_of`` gives the whole page then, whose first line may be another form)."""
    start, end = form_of(lines, at)
    inside = (lines[start].head.startswith("form") and start < at < end
              and end == end_of(lines, start))
    return (start, end) if inside else None


def end_of(lines: list[StateLine], at: int) -> int:
    """Where the lines inside ``lines[at]`` end (the next line at its depth or above)."""
    return next((j for j in range(at + 1, len(lines)) if lines[j].depth <= lines[at].depth),
                len(lines))


def describe(line: StateLine) -> str:
    names = field_names(line)
    return f"{line.id} ({names[0]})" if names else str(line.id)


def empty_fields(state_text: str, near: str, limit: int = 4) -> list[str]:
    """The text fields with no value in the form holding the element ``near`` (the whole
    page when it is in none), as ``input-1 (Password)``."""
    lines = state_lines(state_text)
    at = next((i for i, line in enumerate(lines) if line.id == near), None)
    if at is None:
        return []
    start, end = form_of(lines, at)
    out = [describe(line) for line in lines[start:end]
           if line.id and is_text_field(line) and not line.attrs.get("value")
           and "disabled" not in line.flags and "readonly" not in line.flags]
    return out[:limit]


def line_of(state_text: str, element_id: str) -> StateLine | None:
    """The page state's line of ``element_id``, if it has one."""
    return next((line for line in state_lines(state_text) if line.id == element_id), None)


def fields_now(state_text: str, limit: int = 8) -> list[str]:
    """What the page's form fields hold now, in page order, as a reader would say it:
    ``Full name: empty``, ``Email: "ann@example.org"``, ``I agree: ticked``, ``Size: "M"``
    (a dropdown's chosen option). The fields of forms when the page has a form, else every
    field; disabled ones left out; at most ``limit``."""
    lines = state_lines(state_text)
    inside: set[int] = set()
    for i, line in enumerate(lines):
        if line.head.startswith("form"):
            inside.update(range(i + 1, end_of(lines, i)))
    out = []
    for i, line in enumerate(lines):
        if not line.id or (inside and i not in inside) or "disabled" in line.flags:
            continue
        names = field_names(line)
        name = names[0] if names else line.id
        if is_text_field(line):
            value = line.attrs.get("value", "")
            out.append(f'{name}: "{value}"' if value else f"{name}: empty")
        elif is_box(line) or (line.id.startswith("input-") and line.attrs.get("type") == "radio"):
            out.append(f"{name}: {'ticked' if 'checked' in line.flags else 'not ticked'}")
        elif line.id.startswith("select-") and line.attrs.get("selected"):
            out.append(f'{name}: "{line.attrs["selected"]}"')
    return out[:limit]
