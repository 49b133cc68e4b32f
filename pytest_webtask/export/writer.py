"""A passing test's trail as one pytest-playwright test file that needs no pytest-webtask:
the pages it opened, each replayed action on a Playwright locator, each check as ``expect``.
Variables become the test's parameters; secrets are read from environment variables, the
test's own first (``WEBTASK_SECRET_<TEST>_<NAME>``), then the one every test shares
(``WEBTASK_SECRET_<NAME>``): two tests may use one secret name with different values."""

from __future__ import annotations

import keyword
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from ..recipes.model import Check, RecipeAction, RecipeStep
from ..tools.builtin import tool_spec
from ..tools.spec import ToolSpec
from .checks import CannotWrite, CheckWriter
from .locators import locator
from .pictures import FROM_IMPORTS, IMPORTS, helper_source
from .source import Strings
from .trail import Ran, Trail, Visit

TAKEN = {"page", "expect", "re", "os", "pytest", "Path", "HERE", "secret", "answer",
         "quote_plus", "new_tab", "Page", "box", "output_path", "to_have_screenshot",
         "Locator", "struct", "time", "zlib", "dataclass", "download", "download_info",
         "download_size", "download_text", "downloaded_text", "Download", "BytesIO",
         "PdfReader", "every_item_shows", "SHOWN_TEXTS"}
SECRET_ENV = "WEBTASK_SECRET_"


class NotExportable(Exception):
    """The test ran something a plain Playwright test cannot say (an extract step)."""


def secret_env(name: str, test: str = "") -> str:
    """``WEBTASK_SECRET_<NAME>``, or with ``test`` (the exported function's name) that
    test's own ``WEBTASK_SECRET_<TEST>_<NAME>``."""
    words = f"{test}_{name}" if test else name
    return SECRET_ENV + re.sub(r"\W", "_", words).upper()


def file_name(recipe_name: str, module: str) -> str:
    """``test_<module stem>__<test name>.py``: one flat folder, no two files alike."""
    return f"{module}__{identifier(recipe_name)}.py"


def identifier(text: str) -> str:
    out = re.sub(r"\W+", "_", text).strip("_").lower() or "step"
    return out if not out[0].isdigit() else "_" + out


class Writer:
    """``snapshots``: the folder beside the test, in ``folder``, that its baseline pictures
    are copied to (Playwright's ``<test file>-snapshots``); ``pictures`` holds them (file
    name -> PNG) once ``source`` has run. ``tools``: the plugins' tools by name, whose
    ``code`` writes their actions as a built-in's does."""

    def __init__(self, trail: Trail, base_url: str | None, folder: Path,
                 snapshots: str = "snapshots",
                 tools: Mapping[str, type[ToolSpec]] | None = None) -> None:
        self.trail = trail
        self.tools = tools
        self.base_url = base_url
        self.folder = folder
        self.snapshots = snapshots
        self.pictures: dict[str, bytes] = {}
        self.params: dict[str, str] = {}  # parameter name -> value
        self.variables: dict[tuple[str, str], str] = {}  # (placeholder, value) -> parameter
        self.secrets: dict[str, str] = {}  # secret name -> local name
        self.used: set[str] = set(TAKEN)

    def _local(self, wanted: str) -> str:
        name = identifier(wanted)
        if keyword.iskeyword(name):
            name += "_"
        base, n = name, 2
        while name in self.used:
            name, n = f"{base}_{n}", n + 1
        self.used.add(name)
        return name

    def _names(self, ran: Ran) -> dict[str, str]:
        """Placeholder -> local name for one step: a variable's parameter (one per name and
        value: two steps that pass ``name`` different values get two parameters) or a
        secret's local."""
        names: dict[str, str] = {}
        for var, value in ran.variables.items():
            if (var, value) not in self.variables:
                self.variables[var, value] = self._local(var)
                self.params[self.variables[var, value]] = value
            names[var] = self.variables[var, value]
        for name in ran.secrets:
            if name not in self.secrets:
                self.secrets[name] = self._local(name)
            names[name] = self.secrets[name]
        return names

    def source(self, test_name: str, origin: str) -> str:
        body: list[str] = []
        for event in self.trail.events:
            if isinstance(event, Visit):
                body.append(f"page.goto({self._url(event.url)!r})")
            else:
                body.extend(self._step(event))
        function = f"test_{identifier(test_name).removeprefix('test_')}"
        head = [f"{self.secrets[n]} = secret({secret_env(n, function)!r}, {secret_env(n)!r})"
                for n in self.secrets]
        code = "\n".join("    " + line if line else "" for line in head + body) or "    pass"
        params = "".join(f", {p}: str" for p in self.params)
        if self.pictures:
            params = ", output_path: str" + params  # pytest-playwright's folder per test
        decorator = ""
        if self.params:
            names = tuple(self.params)
            values = tuple(self.params.values())
            decorator = (f"@pytest.mark.parametrize({names[0]!r}, [{values[0]!r}])\n"
                         if len(names) == 1 else
                         f"@pytest.mark.parametrize({names!r}, [{values!r}])\n")
        func = f"{decorator}def {function}(page: Page{params}) -> None:\n{code}\n"
        return self._module(func, origin)

    def _module(self, func: str, origin: str) -> str:
        imports = ["from __future__ import annotations", ""]
        pictures = bool(self.pictures)
        each = "every_item_shows(" in func
        std = [f"import {m}" for m, used in (("os", "secret(" in func), ("re", "re." in func),
                                             ("time", each)) if used]
        if pictures:
            std = sorted({*std, *IMPORTS})
        imports += std
        froms = set(FROM_IMPORTS) if pictures else set()
        if "HERE" in func or "downloaded_text(" in func:
            froms.add("from pathlib import Path")
        if "downloaded_text(" in func:
            froms.add("from io import BytesIO")
        imports += sorted(froms)
        if "quote_plus" in func:
            imports.append("from urllib.parse import quote_plus")
        if len(imports) > 2:
            imports.append("")
        if "pytest." in func or "secret(" in func or pictures:
            imports.append("import pytest")
        names = (["Download"] if "downloaded_text(" in func else []) \
            + (["FloatRect"] if pictures else []) \
            + (["Locator"] if pictures or each else []) + ["Page"] \
            + (["expect"] if "expect(" in func else [])
        imports.append(f"from playwright.sync_api import {', '.join(names)}")
        helpers = []
        if "HERE" in func:
            helpers.append("HERE = Path(__file__).parent\n")
        if "secret(" in func:
            helpers.append(SECRET_HELPER)
        if "answer(" in func:
            helpers.append(ANSWER_HELPER)
        if "downloaded_text(" in func:
            helpers.append(DOWNLOAD_HELPER)
        if each:
            helpers.append(EACH_HELPER)
        doc = (f'"""Exported by pytest-webtask (--webtask-export) from {origin}.\n\n'
               "Plain pytest-playwright: no model, no recipe. Steps the test ran are below in "
               "order; code\nthe original test ran between them (its own page calls and "
               'asserts) is not.\n"""')
        below = [helper_source()] if pictures else []  # after the test: read it first
        return "\n\n".join(["\n".join([doc, "", *imports]), *helpers, func, *below])

    def _url(self, url: str) -> str:
        if self.base_url and url.startswith(self.base_url.rstrip("/")):
            rest = url[len(self.base_url.rstrip("/")):]
            return rest if rest.startswith("/") else "/" + rest
        return url  # another origin: as the test opened it

    def _step(self, ran: Ran) -> list[str]:
        step = ran.step
        if step.kind == "extract":
            raise NotExportable("it has an extract step (extraction recipes run only with "
                                "pytest-webtask)")
        if ran.computed:
            names = ", ".join("{" + n + "}" for n in ran.computed)
            raise NotExportable(f"its step computes {names} when it runs (a callable), "
                                "which plain code cannot take from the recipe")
        s = Strings(self._names(ran))
        out = ["", f"# {step.kind}: {step.text}"]
        checker = CheckWriter(s, self._baseline)
        starts: dict[int, str] = {}  # a count check with a change: its count before the actions
        for n, check in enumerate(step.checks):
            if check.expect == "count" and check.change is not None:
                try:
                    counted = checker.counted(check)
                except CannotWrite as exc:
                    raise NotExportable(str(exc)) from None
                starts[n] = self._local("count_at_start")
                out.append(f"{starts[n]} = {counted}.count()  # before the step's actions")
        waits = self._download_action(step)
        for n, action in enumerate(step.actions):
            lines = self._action(action, s, ran)
            if n == waits:  # the action that downloaded the file the step checks
                lines = ["with page.expect_download() as download_info:",
                         *("    " + line for line in lines)]
            out.extend(lines)
        for n, check in enumerate(step.checks):
            try:
                out.extend(checker.lines(check, starts.get(n)))
            except CannotWrite as exc:
                raise NotExportable(str(exc)) from None
        return out

    @staticmethod
    def _download_action(step: RecipeStep) -> int | None:
        """Which action downloaded the file the step's download check checks: the one
        marked so, else (a recipe from before the mark) its last action; None when the step
        checks no download. A step that checks several files is not exported."""
        checks = [c for c in step.checks if c.expect == "download"]
        if not checks:
            return None
        if any("\\{" in (c.download.name if c.download else "") for c in checks):
            raise NotExportable("its downloaded file's name holds a placeholder, which the "
                                "export does not write")
        marked = [n for n, a in enumerate(step.actions) if a.downloads]
        if len(checks) > 1 or len(marked) > 1:
            raise NotExportable("it checks more than one downloaded file, which the export "
                                "does not write")
        if not step.actions:
            raise NotExportable("it checks a download but has no action that downloads it")
        return marked[0] if marked else len(step.actions) - 1

    def _action(self, a: RecipeAction, s: Strings, ran: Ran) -> list[str]:
        tool = tool_spec(a.tool, self.tools)
        lines = tool.code(ActionCode(a, s, lambda name: self._file(ran, name))) \
            if tool is not None else None
        if lines is None:
            raise NotExportable(f"it uses the {a.tool!r} tool, which the export does not know")
        if not lines:
            return []
        *before, line = lines
        if a.dialogs:
            answers = ", ".join(
                f"({d.accept}, {s.expr(d.text) if d.text is not None else None})"
                for d in a.dialogs)
            before.append(f"answer(page, {answers})")
        if a.opens_tab:
            return [*before, "with page.context.expect_page() as new_tab:", f"    {line}",
                    "page = new_tab.value"]
        return [*before, line]

    def _baseline(self, check: Check) -> str:
        """A screenshot check's baseline, copied beside the test: the picture the step
        just recorded or healed, else the file beside the recipe."""
        shot = check.screenshot
        assert shot is not None
        png = shot.png
        name = Path(shot.file).name or f"picture-{len(self.pictures) + 1}.png"
        if png is None:
            if self.trail.recipe_folder is None or not shot.file:
                raise NotExportable("its screenshot check names no baseline picture")
            path = self.trail.recipe_folder / shot.file
            try:
                png = path.read_bytes()
            except OSError as exc:
                raise NotExportable(f"the baseline picture {path} of its screenshot check "
                                    f"cannot be read ({exc.strerror or exc})") from None
        self.pictures[name] = png
        return f"HERE / {self.snapshots!r} / {name!r}"

    def _file(self, ran: Ran, name: str) -> str:
        path = ran.resources.get(name)
        if path is None:
            raise NotExportable(f"its upload names the resource {name!r}, which the test "
                                "did not pass")
        rel = os.path.relpath(path.resolve(), self.folder.resolve())
        return f"HERE / {Path(rel).as_posix()!r}"


class ActionCode:
    """One recorded action as its tool's ``code`` reads it (``tools.spec.Code``)."""

    def __init__(self, action: RecipeAction, s: Strings, file: Callable[[str], str]) -> None:
        self.action = action
        self.params = action.params
        self.expr = s.expr
        self.file = file
        self.s = s

    def element_or_none(self) -> str | None:
        """The target's locator, or the element with the exact text the action named (an
        element the page state showed without an id)."""
        a = self.action
        if a.target is not None:
            return locator(a.target, self.s)
        if a.params.get("text"):
            return f"page.get_by_text({self.s.expr(str(a.params['text']))}, exact=True)"
        return None

    def element(self) -> str:
        el = self.element_or_none()
        if el is None:
            raise NotExportable(f"its {self.action.tool!r} action has no target element")
        return el

    def drop_target(self) -> str:
        if self.action.to is None:
            raise NotExportable(f"its {self.action.tool!r} action has no drop target")
        return locator(self.action.to, self.s)


SECRET_HELPER = '''def secret(*names: str) -> str:
    """A secret from the first of these environment variables that is set (the test's own,
    then the one its tests share): never written in this file."""
    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value
    pytest.fail(f"set the environment variable {' or '.join(names)} to run this test",
                pytrace=False)
'''

ANSWER_HELPER = '''def answer(page: Page, *answers: tuple[bool, str | None]) -> None:
    """Answer the page's next dialogs in turn: accept (a prompt with its text) or dismiss."""
    queue = list(answers)

    def on_dialog(dialog) -> None:  # type: ignore[no-untyped-def]
        accept, text = queue.pop(0)
        if not queue:
            page.remove_listener("dialog", on_dialog)
        if not accept:
            dialog.dismiss()
        elif text is not None:
            dialog.accept(text)
        else:
            dialog.accept()

    page.on("dialog", on_dialog)
'''


def export(trail: Trail, *, base_url: str | None, folder: Path, test_name: str, module: str,
           origin: str, tools: Mapping[str, type[ToolSpec]] | None = None) -> Path:
    """Write the test file into ``folder``, and its baseline pictures into
    ``<file>-snapshots`` beside it; NotExportable says why it cannot be. ``tools``: the
    plugins' tools by name."""
    name = file_name(test_name, module)
    writer = Writer(trail, base_url, folder, snapshots=f"{name}-snapshots", tools=tools)
    source = writer.source(test_name, origin)
    folder.mkdir(parents=True, exist_ok=True)
    for picture, png in writer.pictures.items():  # before the test that reads them
        _write(folder / writer.snapshots / picture, png)
    path = folder / name
    _write(path, source.encode("utf-8"))
    return path


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


DOWNLOAD_HELPER = '''def downloaded_text(download: Download) -> tuple[int, str]:
    """A downloaded file's size, and its text with each run of whitespace as one space (a
    PDF's read by pypdf, as pytest-webtask reads it: pip install pypdf)."""
    data = Path(download.path()).read_bytes()
    if data.startswith(b"%PDF-"):
        from pypdf import PdfReader

        pages = PdfReader(BytesIO(data)).pages
        text = "\\n".join(page.extract_text() or "" for page in pages)
    else:
        text = data.decode("utf-8-sig", errors="replace")
    return len(data), " ".join(text.split())
'''


EACH_HELPER = '''# each element's text as it shows: a dropdown's options, hidden parts and scripts
# are none of it (Playwright's text assertions read them all)
SHOWN_TEXTS = r"""els => els.map((el) => {
  const parts = [];
  const walk = (node) => {
    for (const c of node.childNodes) {
      if (c.nodeType === 3) parts.push(c.nodeValue);
      else if (c.nodeType === 1 && !['SELECT', 'SCRIPT', 'STYLE', 'TEMPLATE'].includes(c.tagName)
               && c.checkVisibility({ visibilityProperty: true })) {
        // a block is a word apart, an inline piece is not ("<b>Jack</b>et")
        const gap = getComputedStyle(c).display.startsWith('inline') ? '' : ' ';
        parts.push(gap);
        walk(c);
        parts.push(gap);
      }
    }
  };
  walk(el);
  return parts.join('').replace(/\\s+/g, ' ').trim();
})"""


def every_item_shows(items: Locator, wanted: re.Pattern[str], timeout: float = 5.0) -> None:
    """Every item shows ``wanted`` as it shows its text, and there is one at least; waits
    for it as ``expect`` does."""
    deadline = time.monotonic() + timeout
    while True:
        texts = items.evaluate_all(SHOWN_TEXTS)
        odd = [t for t in texts if not wanted.search(t)]
        if texts and not odd:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"expected every item to show /{wanted.pattern}/ (one at "
                                 "least); " + (f"an item shows {odd[0]!r}" if texts
                                               else "there is no item"))
        time.sleep(0.1)
'''
