"""The folder shows the architecture: subpackages by concept, and no import circles between modules or layers."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "taskverse"
SUBPACKAGES = {"knowledge", "world", "library", "algebra", "language", "difficulty", "benchmarks", "textenv", "engine",
               "cli"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Modules of the package that ``path`` imports at run time (imports only for type checking are left out)."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and getattr(branch.test, "id", "") == "TYPE_CHECKING"
                   for statement in branch.body for node in ast.walk(statement)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("taskverse"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("taskverse"))
    return found & modules


def _graphs() -> tuple[nx.DiGraph, nx.DiGraph]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    by_module, by_layer = nx.DiGraph(), nx.DiGraph()
    for name, path in files.items():
        for target in _imports(path, modules) - {name, "taskverse"}:
            by_module.add_edge(name, target)
            source_layer, target_layer = name.split(".")[1:2], target.split(".")[1:2]
            if source_layer and target_layer and source_layer != target_layer and source_layer[0] in SUBPACKAGES \
                    and target_layer[0] in SUBPACKAGES:
                by_layer.add_edge(source_layer[0], target_layer[0])
    return by_module, by_layer


def test_every_concept_has_its_subpackage():
    assert SUBPACKAGES <= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    flat = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    # Only the shared base lives at the top: the task format, errors, paths, reading and writing files, YAML (and its
    # fast path for plain documents),
    # description matching, the worker pool that text and engine episodes share, and the disk memo of what is
    # derived from the library (scores, suite checks).
    assert flat <= {"schema", "errors", "paths", "fileio", "yamlio", "yaml_plain", "text", "workers", "memo"}, \
        sorted(flat)


def test_no_import_circles_between_modules():
    by_module, _ = _graphs()
    assert list(nx.simple_cycles(by_module)) == []


def test_no_import_circles_between_subpackages():
    _, by_layer = _graphs()
    assert list(nx.simple_cycles(by_layer)) == []
