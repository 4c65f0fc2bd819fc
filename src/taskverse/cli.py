"""The ``taskverse`` command line (the contract is ``shared/CLI.md``).

Every command that prints data takes ``--format json`` and then prints exactly one JSON document on stdout;
progress and logs go to stderr. Bad input exits non-zero with one clear line, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from taskverse import __version__
from taskverse.errors import TaskverseError

F = TypeVar("F", bound=Callable[..., Any])


def friendly(func: F) -> F:
    """Turn TaskverseError into one clean line on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TaskverseError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def emit_json(data: Any) -> None:
    """Print one JSON document on stdout."""
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="taskverse")
def main() -> None:
    """taskverse: atom and molecule tasks, difficulty scores and benchmarks for open-ended game agents."""


def _library() -> Any:
    from taskverse.library import load_library

    return load_library()


def resolve_task(reference: str) -> Any:
    """A TASK argument: a task id, a description, or a path to a task YAML file."""
    from taskverse.library import parse_task_file

    path = Path(reference)
    if reference.endswith((".yaml", ".yml")):
        if not path.exists():
            raise TaskverseError("no such file", file=reference)
        found = parse_task_file(path)
        if len(found) != 1:
            raise TaskverseError(f"expected one task in the file, found {len(found)}", file=reference)
        return found[0].task
    return _library().get(reference)


@main.command("list")
@click.option("--kind", type=click.Choice(["atom", "molecule"]), help="Only tasks of this kind.")
@click.option("--category", help="Only tasks of this category (mining, navigation, crafting, ...).")
@click.option("--verb", help="Only tasks with this verb (craft, mine, find, ...).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def list_tasks(kind: str | None, category: str | None, verb: str | None, fmt: str) -> None:
    """List the tasks of the library."""
    from taskverse.schema import Category

    if category is not None and category.lower() not in {c.value for c in Category}:
        raise TaskverseError(f"unknown category {category!r}; expected one of {', '.join(c.value for c in Category)}")
    tasks = [] if kind == "molecule" else _library().tasks
    tasks = [t for t in tasks if (category is None or t.category.value == category.lower())
             and (verb is None or t.verb == verb)]
    rows = [{"id": t.id, "description": t.description, "category": t.category.value, "kind": t.kind,
             "verb": t.verb} for t in tasks]
    if fmt == "json":
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['id']:<48} {row['category']:<13} {row['description']}")
    click.echo(f"{len(rows)} task(s)", err=True)


def task_details(task: Any) -> dict[str, Any]:
    """A task with every attribute, plus its derived pre-tasks and dependency-graph size."""
    data = task.model_dump(mode="json", exclude_defaults=False)
    library = _library()
    if task.id in library.by_id and library.by_id[task.id] == task:
        world = library.world
        nodes, edges = world.graph_size(task.id)
        data["pre_tasks"] = sorted(set(task.pre_tasks) | set(world.pre_tasks(task.id)))
        data["dependency_graph"] = {"nodes": nodes, "edges": edges}
    return data


@main.command()
@click.argument("task")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@friendly
def show(task: str, fmt: str) -> None:
    """Show one task (id, description or YAML file) with all its attributes."""
    from taskverse.yamlio import dump_yaml

    data = task_details(resolve_task(task))
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(dump_yaml(data), nl=False)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def validate(paths: tuple[Path, ...], fmt: str) -> None:
    """Validate task YAML files (default: the whole library); exit 0 only if all are valid."""
    from taskverse.knowledge import load_knowledge
    from taskverse.library import library_files, validate_files

    files: list[Path] = []
    for path in paths or ():
        if path.is_dir():
            files += sorted(path.rglob("*.yaml"))
        else:
            files.append(path)
    context: dict[str, Any] = {}
    if paths:
        try:
            context = _library().by_id  # pre-tasks may refer to library atoms
        except TaskverseError:
            context = {}
    located, errors = validate_files(files or library_files(), load_knowledge(), context)
    if fmt == "json":
        emit_json({"valid": not errors, "tasks": len(located), "files": len(files or library_files()),
                   "errors": [{"file": str(e.file) if e.file else None, "line": e.line, "field": e.field,
                               "message": e.message, "suggestions": e.suggestions} for e in errors]})
    else:
        for error in errors:
            click.echo(f"error: {error}", err=True)
        status = "invalid" if errors else "ok"
        click.echo(f"{status}: {len(located)} task(s) in {len(files or library_files())} file(s), "
                   f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)


@main.command()
@click.argument("task")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write to FILE.dot, FILE.png or FILE.svg.")
@friendly
def graph(task: str, output: Path | None) -> None:
    """Show a task's pre-task dependency graph (AND/OR edges, item nodes) as DOT, PNG or SVG."""
    from taskverse.render import draw, to_dot

    library = _library()
    atom = resolve_task(task)
    if atom.id not in library.by_id:
        raise TaskverseError(f"task {atom.id!r} is not in the library; add it to atoms/ to graph it")
    dep = library.world.dependency_graph(atom.id)
    tags = library.knowledge.tags
    if output is None:
        click.echo(to_dot(dep, atom.description, tags), nl=False)
        return
    suffix = output.suffix.lower()
    if suffix == ".dot":
        output.write_text(to_dot(dep, atom.description, tags))
    elif suffix in {".png", ".svg"}:
        draw(dep, output, atom.description, tags)
    else:
        raise TaskverseError("unsupported output type; expected .dot, .png or .svg", file=output)
    click.echo(f"wrote {output} ({dep.number_of_nodes()} nodes, {dep.number_of_edges()} edges)", err=True)


@main.command()
@click.argument("kind", type=click.Choice(["atom", "molecule", "suite"]), default="atom")
@friendly
def schema(kind: str) -> None:
    """Print the JSON Schema of a task or suite file format (for editors)."""
    from taskverse.schema import AtomTask

    models: dict[str, Any] = {"atom": AtomTask}
    if kind not in models:
        raise TaskverseError(f"the {kind} format is not available in this version")
    emit_json(models[kind].model_json_schema())


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def summary(fmt: str) -> None:
    """Validate the library and summarise it: atoms per category and verb, dependency-graph sizes."""
    library = _library()
    world = library.world
    by_category = Counter(t.category.value for t in library.tasks)
    by_verb = Counter(t.verb for t in library.tasks)
    reachable = sum(1 for t in library.tasks if world.task_rank(t.id) != float("inf"))
    data = {
        "atoms": len(library.tasks),
        "categories": dict(sorted(by_category.items())),
        "verbs": dict(sorted(by_verb.items())),
        "solvable_from_scratch": reachable,
        "world_graph": {"nodes": len(world.nodes), "edges": sum(len(p) for p in world.preds.values())},
        "knowledge": library.knowledge.source,
    }
    if fmt == "json":
        emit_json(data)
        return
    click.echo(f"taskverse {__version__}: {data['atoms']} atom tasks, all valid")
    click.echo("  by category: " + ", ".join(f"{k} {v}" for k, v in data["categories"].items()))
    click.echo("  by verb:     " + ", ".join(f"{k} {v}" for k, v in data["verbs"].items()))
    click.echo(f"  solvable from an empty inventory: {reachable} of {data['atoms']}")
    click.echo(f"  world dependency graph: {data['world_graph']['nodes']} nodes, {data['world_graph']['edges']} edges")
    src = library.knowledge.source
    click.echo(f"  game knowledge: Minecraft {src['minecraft']} from {src['package']}=={src['version']}")


if __name__ == "__main__":  # pragma: no cover
    main()
