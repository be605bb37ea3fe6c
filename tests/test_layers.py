"""The package's layers (docs/development.md, "Architecture"), read from the source itself.

Each module imports only modules of its own layer or below; no import cycle;
imports inside the package are made at module level only (a function-local
import would hide a cycle); only ``_engine`` imports an engine, and neither
engine imports the other.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import fastaccept

#: Each module of the package, by layer, lowest first.
LAYERS: dict[str, tuple[str, ...]] = {
    "ground": (
        "_text",
        "_tuples",
        "_grammar",
        "_errors",
        "_structured",
        "_limits",
        "_defaults",
        "_arguments",
    ),
    "values and rules": (
        "_lists",
        "_member",
        "_coding",
        "_language",
        "_match",
        "_types",
        "_format",
        "_accept_query",
        "_cors",
    ),
    "engines": ("_scan", "_scan_py"),
    "engine choice": ("_engine",),
    "web answers": ("_headers", "_responses", "_render", "_problems"),
    "presets": ("agents", "mcp"),
    "integrations": (
        "_endpoint",
        "asgi",
        "wsgi",
        "starlette",
        "fastapi",
        "flask",
        "django",
        "falcon",
        "litestar",
        "aiohttp",
    ),
    "public API": ("__init__", "__main__"),
}
LAYER_OF = {
    module: rank for rank, names in enumerate(LAYERS.values()) for module in names
}
ENGINES = {"_scan", "_scan_py"}
MAY_IMPORT_ENGINES = {"_engine"}

#: The package's sources: the installed package's folder holds the .py files;
#: the .pyx lives in the source tree (an installed wheel has no .pyx).
PACKAGE = Path(fastaccept.__file__).resolve().parent
SOURCE = Path(__file__).resolve().parent.parent / "src" / "fastaccept"
MODULES = {path.stem for path in PACKAGE.glob("*.py")} | ENGINES
_PYX_IMPORT = re.compile(r"^from \.(\w*) c?import ([\w, ]+)", re.MULTILINE)


def _module_imports(tree: ast.Module) -> tuple[set[str], list[int]]:
    """Package modules imported, and the lines of package imports not at module level."""
    found: set[str] = set()
    nested: list[int] = []
    top_level = {id(node) for node in _module_level(tree.body)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level != 1:
            continue
        if node.module:
            found.add(node.module.split(".")[0])
        else:  # a module of the package, or a name of its __init__
            found.update(
                alias.name if alias.name in MODULES else "__init__"
                for alias in node.names
            )
        if id(node) not in top_level:
            nested.append(node.lineno)
    return found, nested


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run at import: the body, and inside if/try at that level."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If):
            out += _module_level(node.body) + _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                out += _module_level(block)
            for handler in node.handlers:
                out += _module_level(handler.body)
    return out


def _graph() -> tuple[dict[str, set[str]], dict[str, list[int]]]:
    graph: dict[str, set[str]] = {}
    nested: dict[str, list[int]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[path.stem], nested[path.stem] = _module_imports(tree)
    pyx = SOURCE / "_scan.pyx"
    if pyx.exists():
        imports: set[str] = set()
        for module, names in _PYX_IMPORT.findall(pyx.read_text(encoding="utf-8")):
            imports.update([module] if module else names.replace(" ", "").split(","))
        graph["_scan"] = imports
    return graph, nested


GRAPH, NESTED = _graph()


def test_every_module_has_a_layer() -> None:
    assert set(GRAPH) - {"_scan"} <= set(LAYER_OF), "add new modules to LAYERS"


def test_the_cython_engine_source_is_read() -> None:
    if not (SOURCE / "_scan.pyx").exists():
        pytest.skip("no source tree here: the .pyx is not installed")
    assert {"_member", "_errors", "_limits", "_types"} <= GRAPH["_scan"]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_go_down_the_layers(module: str) -> None:
    upward = {
        name
        for name in GRAPH[module]
        if name != module and LAYER_OF[name] > LAYER_OF[module]
    }
    assert not upward, f"{module} imports from a higher layer: {sorted(upward)}"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_only_the_engine_choice_imports_an_engine(module: str) -> None:
    engines = GRAPH[module] & ENGINES
    if module not in MAY_IMPORT_ENGINES:
        assert not engines, f"{module} imports the engine(s) {sorted(engines)}"


def test_engines_do_not_import_each_other() -> None:
    assert "_scan_py" not in GRAPH.get("_scan", set())
    assert "_scan" not in GRAPH["_scan_py"]


def test_no_import_cycle() -> None:
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        if module in done:
            return
        assert module not in visiting, "import cycle: " + " -> ".join(
            [*visiting[visiting.index(module) :], module]
        )
        visiting.append(module)
        for name in sorted(GRAPH.get(module, ())):
            visit(name)
        visiting.pop()
        done.add(module)

    for module in sorted(GRAPH):
        visit(module)


@pytest.mark.parametrize("module", sorted(NESTED))
def test_package_imports_are_at_module_level(module: str) -> None:
    assert not NESTED[module], (
        f"{module}: imports inside a function, lines {NESTED[module]}"
    )


def test_the_checks_see_a_cycle_and_an_upward_import() -> None:
    """The checks above can fail: a planted cycle and nested import are found."""
    tree = ast.parse("from ._types import A\ndef f():\n    from . import _engine\n")
    found, nested = _module_imports(tree)
    assert found == {"_types", "_engine"}
    assert _module_imports(ast.parse("from . import parse"))[0] == {"__init__"}
    assert nested == [3]
    assert LAYER_OF["_engine"] > LAYER_OF["_types"]
