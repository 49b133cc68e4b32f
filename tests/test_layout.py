"""The package's layout rules, checked on its source: each class exists once, recipes know
nothing of the agent or pytest, loading the plugin is light, the public API is curated."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest_webtask

PACKAGE = Path(pytest_webtask.__file__).parent


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py")) if folder else sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path, *, type_only: bool = True) -> list[str]:
    """Absolute names of what a module imports (relative imports resolved), at the top or
    inside functions; ``type_only=False`` leaves out ``if TYPE_CHECKING:`` blocks."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    if not type_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    names = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.append(module)
            # ``from . import x`` and ``from .pkg import module`` import modules too
            names += [f"{module}.{a.name}" for a in node.names]
    return names


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph(*, type_only: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (runtime imports unless ``type_only``).
    Importing ``a.b.c`` runs ``a`` and ``a.b`` first: those count as edges too, except the
    package root, which only re-exports lazily."""
    modules = {_module_name(p): p for p in _modules("")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for imported in _imports(path, type_only=type_only):
            parts = imported.split(".")
            for n in range(2, len(parts) + 1):
                target = ".".join(parts[:n])
                if target in modules and target != name and not name.startswith(target + "."):
                    edges.add(target)
        graph[name] = edges
    return graph


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


# DESIGN.md's layout table, top to bottom: a module imports only its own area or areas on a
# lower floor, by any path. The root package re-exports lazily and the prompts are data.
FLOORS = [
    {"__init__", "__main__", "testing", "plugin", "explore", "mcp_server"},
    {"steps"},
    {"report", "export"},
    {"settings"},
    {"recipes"},
    {"extraction"},
    {"agent"},
    {"tools"},
    {"browser"},
    {"llm"},
    {"types", "errors", "defaults"},
]


def _floor(area: str) -> int:
    return next(i for i, areas in enumerate(FLOORS) if area in areas)


def test_a_class_in_an_async_module_is_the_async_twin_of_one_sync_class() -> None:
    """Shared classes (results, errors, requests) live outside _async/_sync, so that the
    sync and async code raise and return the same classes."""
    offenders = []
    for path in _modules(""):
        if path.parent.name != "_async":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("Async"):
                offenders.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert offenders == []


def test_errors_are_one_class_for_both_flavours() -> None:
    from pytest_webtask.errors import ExtractionError, ReplayError
    from pytest_webtask.extraction._async import executor as async_executor
    from pytest_webtask.extraction._sync import executor as sync_executor
    from pytest_webtask.recipes._async import replayer as async_replayer
    from pytest_webtask.recipes._sync import replayer as sync_replayer

    assert async_replayer.ReplayError is sync_replayer.ReplayError is ReplayError
    assert async_executor.ExtractionError is sync_executor.ExtractionError is ExtractionError


def test_recipes_import_neither_the_agent_nor_pytest() -> None:
    bad = [(path.relative_to(PACKAGE).as_posix(), name) for path in _modules("recipes")
           for name in _imports(path)
           if name == "pytest" or name.startswith(("pytest_webtask.agent",
                                                   "pytest_webtask.steps", "_pytest"))]
    assert bad == []


def test_the_fixture_object_is_not_in_recipes() -> None:
    assert not list((PACKAGE / "recipes").rglob("webtask.py"))
    assert pytest_webtask.WebTask.__module__ == "pytest_webtask.steps._sync.webtask"


def test_loading_the_plugin_imports_nothing_heavy(python: Callable[..., Any]) -> None:
    """In a fresh interpreter: this one has loaded everything already."""
    code = ("import sys, pytest_webtask.plugin; "
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in "
            "('openai', 'playwright', 'pydantic', 'yaml') or m.startswith("
            "('pytest_webtask.agent', 'pytest_webtask.steps', 'pytest_webtask.browser'))))")
    proc = python("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == []


def test_a_run_without_webtask_loads_no_recipe_model(python: Callable[..., Any],
                                                     tmp_path: Path) -> None:
    """A whole pytest run (configure, collection, the terminal summary) of a test that uses
    no ``webtask`` imports none of the plugin's recipe, step or agent modules, nor pydantic
    or YAML: every pytest process in a project that installs the plugin pays for what it
    imports (the summary's step counts pulled in the recipe model, 0.2 s a process)."""
    (tmp_path / "test_plain.py").write_text(
        "def test_plain():\n    assert 1\n")
    heavy = ("pydantic", "yaml", "openai", "pytest_webtask.recipes.model",
             "pytest_webtask.agent", "pytest_webtask.steps.session")
    (tmp_path / "conftest.py").write_text(
        "import sys\n\n\ndef pytest_unconfigure(config):\n"
        f"    heavy = sorted(m for m in sys.modules if m.startswith({heavy!r}))\n"
        "    print('HEAVY:', ' '.join(heavy) or '-')\n")
    proc = python("-m", "pytest", "-p", "no:cacheprovider", "-s", "test_plain.py",
                  cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout and "webtask" in proc.stdout  # the plugin was loaded
    assert "HEAVY: -" in proc.stdout, proc.stdout[-2000:]


def test_the_public_api_is_what_a_test_touches() -> None:
    for name in pytest_webtask.__all__:
        assert getattr(pytest_webtask, name) is not None, name
    for internal in ("ProposalResult", "TaskContext", "Fingerprint", "LLM"):
        assert internal not in pytest_webtask.__all__
    # what a model adapter implements and returns (docs/models.md)
    from pytest_webtask.llm.base import LLMReply
    from pytest_webtask.llm.request import Block, ModelRequest
    from pytest_webtask.types import Usage
    assert (pytest_webtask.ModelRequest, pytest_webtask.Block, pytest_webtask.LLMReply,
            pytest_webtask.Usage) == (ModelRequest, Block, LLMReply, Usage)
    assert pytest_webtask.Context is ModelRequest  # its name before issue 36, for adapters
    assert issubclass(pytest_webtask.ReplayError, pytest_webtask.WebtaskError)
    from pytest_webtask.steps._async.webtask import AsyncWebTask
    assert pytest_webtask.AsyncWebTask is AsyncWebTask


def test_every_area_has_a_floor() -> None:
    areas = {_area(m) for m in _graph()}
    missing = [a for a in sorted(areas) if not any(a in f for f in FLOORS)]
    assert missing == [], "add these to FLOORS (and DESIGN.md's layout table)"


def test_imports_go_down_the_floors_by_any_path() -> None:
    """Nothing imports, directly or through other modules, an area on a higher floor (or
    another area of its own floor). Type-only imports count too: a name used in a hint
    belongs below its user."""
    graph = _graph(type_only=True)
    upward = []
    for module in graph:
        area = _area(module)
        for reached in _reach(graph, module):
            other = _area(reached)
            if other != area and _floor(other) <= _floor(area) and area not in FLOORS[0]:
                upward.append(f"{module} reaches {reached}")
    assert upward == []


def test_recipes_reach_no_agent_and_no_pytest_by_any_path() -> None:
    graph = _graph()
    bad = []
    for module in [m for m in graph if _area(m) == "recipes"]:
        reached = _reach(graph, module) | {module}
        bad += [f"{module} reaches {r}" for r in sorted(reached)
                if _area(r) in ("agent", "steps", "plugin")]
        paths = {_module_name(p): p for p in _modules("recipes")}
        for r in reached & set(paths):
            if any(n == "pytest" or n.startswith("_pytest")
                   for n in _imports(paths[r], type_only=False)):
                bad.append(f"{module} reaches pytest through {r}")
    assert bad == []


def test_the_import_graph_has_no_cycle() -> None:
    """Runtime imports, lazy ones inside functions included, form no cycle."""
    graph = _graph()
    cycles = []
    for module in graph:
        if module in _reach(graph, module):
            cycles.append(module)
    assert cycles == [], f"modules on an import cycle: {cycles}"


def test_each_built_in_tool_is_defined_once_and_has_a_twin_per_flavour() -> None:
    """``tools.builtin`` defines a tool (name, description, parameters, exported code); each
    flavour adds what it does by subclassing that definition, and its registry knows the
    same names."""
    from pytest_webtask.tools._async.registry import BUILT_IN_TOOLS as ASYNC_TOOLS
    from pytest_webtask.tools._sync.registry import BUILT_IN_TOOLS as SYNC_TOOLS
    from pytest_webtask.tools.builtin import BUILT_IN

    for tools in (ASYNC_TOOLS, SYNC_TOOLS):
        assert sorted(tools) == sorted(BUILT_IN)
        for name, tool in tools.items():
            assert issubclass(tool, BUILT_IN[name]), name
            assert "name" not in vars(tool) and "description" not in vars(tool), name


def test_no_code_chooses_by_a_built_in_tool_s_name() -> None:
    """A comparison of a tool's name with a built-in tool's name (``tool == "navigate"``,
    ``tool_name in ("find", "dialog")``) belongs in the tool's definition instead."""
    from pytest_webtask.tools.builtin import BUILT_IN

    def names(node: ast.expr) -> set[str]:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return {i.value for i in items if isinstance(i, ast.Constant)} & set(BUILT_IN)

    found = []
    for path in _modules(""):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any("tool" in ast.unparse(s) for s in sides) and any(names(s) for s in sides):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_the_collector_script_can_be_compacted_line_by_line() -> None:
    """The collector's modules are sent without their comment lines and indentation
    (browser/script.py): that keeps their meaning only while no string runs over a line."""
    from pytest_webtask.browser.script import COLLECTOR_JS, MODULES, SOURCE, compact

    for name in MODULES:
        module = (PACKAGE / "browser" / "collector" / f"{name}.js").read_text(encoding="utf-8")
        for number, line in enumerate(module.splitlines(), 1):
            assert line.count("`") % 2 == 0, f"{name}.js:{number}: a template literal across lines"
            assert not line.rstrip().endswith("\\"), f"{name}.js:{number}: a string across lines"
    source = SOURCE
    assert COLLECTOR_JS == compact(source) and len(COLLECTOR_JS) < 0.8 * len(source)
    code = [ln.strip() for ln in source.splitlines()
            if ln.strip() and not ln.strip().startswith("//")]
    assert COLLECTOR_JS.splitlines() == code
    assert compact("  const a = 'x';  // kept: not a comment line\n  // gone\n\n  f(a);") == \
        "const a = 'x';  // kept: not a comment line\nf(a);"


def test_one_finder_in_the_packages_js() -> None:
    """DESIGN decision 17: one in-page library finds elements. The package's JS defines one
    ``visible`` and names the test-id attributes once; ``extraction/`` ships no JS of its
    own (its bindings, details and probes are ops of the collector, browser/collector/)."""
    scripts = sorted(PACKAGE.rglob("*.js"))
    visible = [s.relative_to(PACKAGE).as_posix() for s in scripts
               for line in s.read_text().splitlines()
               if re.search(r"\b(function visible\b|const visible\s*=)", line)]
    assert visible == ["browser/collector/visibility.js"]
    test_id_lists = [s.relative_to(PACKAGE).as_posix() for s in scripts
                     if "'data-test-id'" in s.read_text()]
    assert test_id_lists == ["browser/collector/core.js"]
    assert collector_count("'data-test-id'") == 1
    assert not list((PACKAGE / "extraction").rglob("*.js"))
    sources = list((PACKAGE / "extraction").rglob("*.py"))
    assert not [p.name for p in sources if "querySelector" in p.read_text()
                or "getComputedStyle" in p.read_text()]


def collector_count(needle: str) -> int:
    from pytest_webtask.browser.script import SOURCE

    return SOURCE.count(needle)


def test_the_collector_is_its_modules_one_concern_each() -> None:
    """Issue 46: collector.js's 1,925 lines as modules a person reads one at a time, put
    together in one script (browser/script.py); each module is in it once, and none is left
    out."""
    from pytest_webtask.browser.script import MODULES, SOURCE, module_source

    folder = PACKAGE / "browser" / "collector"
    assert sorted(p.stem for p in folder.glob("*.js")) == sorted(MODULES)
    assert not (PACKAGE / "browser" / "collector.js").exists()
    for name in MODULES:
        assert SOURCE.count(module_source(name)) == 1, name
        assert len(module_source(name).splitlines()) < 450, f"{name}.js: split it"


def test_the_replay_path_keeps_its_values_without_the_agent() -> None:
    """Issue 36: a replayed step substitutes placeholders and masks secrets with its
    ``StepValues`` (tools/values.py); only recording builds the agent's ``TaskContext``."""
    for module in ("steps/_async/pipeline.py", "steps/outcome.py", "steps/compile.py",
                   "steps/_async/kinds.py", "steps/_async/harness.py"):
        names = _imports(PACKAGE / module)
        assert not [n for n in names if n.startswith("pytest_webtask.agent.task_context")], module


def test_a_plugin_module_shares_no_name_with_an_area_or_its_modules() -> None:
    """Issue 36: ``plugin/report.py`` beside ``report/`` read as one thing; a plugin module
    adapting an area is named for what it does in the plugin (``report_writer``)."""
    elsewhere = {p.stem for p in PACKAGE.rglob("*.py") if "plugin" not in p.parts} | {
        p.name for p in PACKAGE.iterdir() if p.is_dir()}
    shared = sorted(p.name for p in (PACKAGE / "plugin").glob("*.py")
                    if p.stem != "__init__" and p.stem in elsewhere)
    assert shared == []


def test_no_module_is_named_context() -> None:
    """Issue 36: "context" named three classes; each now has its own word (GLOSSARY.md:
    model request, task context, step harness), and no module is just ``context.py``."""
    assert sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("context.py")) == []
