"""Library and algebra commands: list, show, validate, graph, compose, generate, schema, summary."""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import click

from taskverse import __version__
from taskverse.cli.app import _library, compose_expression, main, resolve_task
from taskverse.cli.util import SEED, emit_json, error_line, force_option, friendly, interruptible
from taskverse.errors import TaskverseError


@main.command("list")
@click.option("--kind", type=click.Choice(["atom", "molecule"]), help="Only tasks of this kind.")
@click.option("--category", help="Only tasks of this category (mining, navigation, crafting, ...).")
@click.option("--verb", help="Only tasks with this verb (craft, mine, find, ...).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def list_tasks(kind: str | None, category: str | None, verb: str | None, fmt: str) -> None:
    """List the tasks of the library: its atoms, and the molecules its suites hold (benchmarks/)."""
    from taskverse.schema import Category

    if category is not None and category.lower() not in {c.value for c in Category}:
        raise TaskverseError(f"unknown category {category!r}; expected one of {', '.join(c.value for c in Category)}")
    verbs = {str(data.get("verb")) for data in _library().index.data.values()} | {"mixed"}  # mixed: molecules
    if verb is not None and verb not in verbs:
        from taskverse.errors import close_matches

        raise TaskverseError(f"unknown verb {verb!r}", suggestions=close_matches(verb, verbs))
    rows = []
    if kind in (None, "atom"):
        rows += [{"id": t.id, "description": t.description, "category": t.category.value, "kind": t.kind,
                  "verb": t.verb} for t in _library().tasks]
    if kind in (None, "molecule"):
        rows += _suite_molecules()
    rows = [r for r in rows if (category is None or r["category"] == category.lower())
            and (verb is None or r["verb"] == verb)]
    if fmt == "json":
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['id']:<48} {row['category']:<13} {row['description']}")
    click.echo(f"{len(rows)} task(s)", err=True)


def _suite_molecules() -> list[dict[str, Any]]:
    """The distinct molecules of the built suites, as list rows."""
    from taskverse.benchmarks.suites import benchmarks_dir, entry_for_suite_task, load_suite, suite_names

    library = _library()
    rows: dict[str, dict[str, Any]] = {}
    for name in suite_names():
        if not (benchmarks_dir() / f"{name}.yaml").exists():
            continue
        for item in load_suite(name).tasks:
            if item.expression is not None and item.id not in rows:
                entry = entry_for_suite_task(item, library, None)
                rows[item.id] = {"id": item.id, "description": item.description, "category": entry.category,
                                 "kind": "molecule", "verb": entry.verb}
    return [rows[k] for k in sorted(rows)]


def task_details(task: Any) -> dict[str, Any]:
    """A task with every attribute, plus its derived pre-tasks, dependency-graph size and six difficulty scores."""
    from taskverse.cli.difficulty import show_difficulty

    data = task.model_dump(mode="json", exclude_defaults=False)
    data["difficulty"] = show_difficulty(task)  # raw, calibrated (once 'taskverse calibrate' has run), source
    if task.kind == "molecule":
        return data
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
    """Show one task (id, description, YAML file, composition or phrase) with all its attributes.

    A TASK that is no id, description, file or composition is read as a task phrase, as papers write tasks
    ("hunt a pig in the savanna", "find material and craft a stone pickaxe"; docs/phrases.md); what was read
    is said on stderr.
    """
    from taskverse.yamlio import dump_yaml

    data = task_details(resolve_task(task))
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(dump_yaml(data), nl=False)


MAX_ERRORS_PER_FILE = 100
"""Most errors ``validate`` lists for one file."""
MAX_ERRORS = 1000
"""Most errors ``validate`` lists in all; one line says how many more there are."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def validate(paths: tuple[Path, ...], fmt: str) -> None:
    """Validate task YAML files (default: the whole library); exit 0 only if all are valid, else 1.

    A folder stands for every *.yaml and *.yml file under it (a folder with none is an error). A task in your
    files may not reuse the id of a library atom; its pre-tasks may name library atoms.

    Every error is listed, one line each (file, line, field, close matches for a mistyped name), file by file in
    line order: at most 100 per file and 1,000 in all, then one line says how many more were left out (the
    summary counts them all; --format json lists the same errors and gives the count left out).
    """
    from taskverse.fileio import read_text
    from taskverse.knowledge.facts import load_knowledge
    from taskverse.library.loader import library_files, validate_files

    errors: list[TaskverseError] = []
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = _yaml_files_under(path)
            if not found:
                errors.append(TaskverseError("no .yaml or .yml files in this folder", file=path))
            files += found
        else:
            files.append(path)
    context: Any = {}
    if paths:
        try:
            context = _library().by_id  # pre-tasks may refer to library atoms
        except TaskverseError:
            context = {}
    else:
        files = library_files()
    texts: dict[Path, str] = {}
    molecules = 0
    for path in files:
        try:
            texts[path] = read_text(path, "task file")
        except TaskverseError as exc:
            errors.append(exc)
            continue
        if "molecule" in texts[path]:
            from taskverse.algebra.files import check_molecule_file

            try:
                molecule, problems = check_molecule_file(path, _library(), texts[path])
            except TaskverseError as exc:  # not even YAML
                molecule, problems = None, [exc]
            molecules += molecule is not None
            errors += problems
            if problems:
                del texts[path]  # reported once
    located, more = validate_files(list(texts), load_knowledge(), context, texts=texts, new_ids=True)
    errors += more
    listed = _errors_to_list(errors)
    left_out = len(errors) - len(listed)
    if fmt == "json":
        emit_json({"valid": not errors, "tasks": len(located) + molecules, "files": len(files),
                   "errors": [{"file": str(e.file) if e.file else None, "line": e.line, "field": e.field,
                               "message": e.message, "suggestions": e.suggestions} for e in listed],
                   "errors_left_out": left_out})
    else:
        for error in listed:
            click.echo(error_line(error), err=True)
        if left_out:
            click.echo(error_line(f"{left_out} more error(s) left out (validate lists at most "
                                  f"{MAX_ERRORS_PER_FILE:,} per file and {MAX_ERRORS:,} in all)"), err=True)
        status = "invalid" if errors else "ok"
        click.echo(f"{status}: {len(located) + molecules} task(s) in {len(files)} file(s), "
                   f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)


def _errors_to_list(errors: list[TaskverseError]) -> list[TaskverseError]:
    """The errors ``validate`` lists, within ``MAX_ERRORS_PER_FILE`` and ``MAX_ERRORS``.

    File by file, in the order they first come up; each file's in line order (a problem of the whole file first).
    """
    by_file: dict[str, list[TaskverseError]] = {}
    for error in errors:
        by_file.setdefault(str(error.file), []).append(error)
    listed: list[TaskverseError] = []
    for found in by_file.values():
        listed += sorted(found, key=lambda e: e.line or 0)[:MAX_ERRORS_PER_FILE]  # sorted() keeps ties in order
    return listed[:MAX_ERRORS]


def _yaml_files_under(folder: Path) -> list[Path]:
    """Every regular *.yaml / *.yml file under a folder (symlinked folders are not followed: no loops)."""
    found = []
    for root, _dirs, names in os.walk(folder):
        found += [Path(root) / n for n in names if n.endswith((".yaml", ".yml")) and (Path(root) / n).is_file()]
    return sorted(found)


@main.command()
@click.argument("task")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write to FILE.dot, FILE.png or FILE.svg.")
@click.option("--all", "every", is_flag=True,
              help="Every alternative the world offers, however dear (default: the ones a player would consider).")
@force_option
@friendly
def graph(task: str, output: Path | None, every: bool, force: bool) -> None:
    """Show a task's pre-task dependency graph (AND/OR edges, item nodes) as DOT, PNG or SVG.

    Alternatives (ways, members of a need, producers) are pruned by cost in steps from an empty inventory: one stays
    when it costs at most five times the cheapest and is no detour (planks from wood blocks made of logs); of
    equally cheap ones two are shown. --all shows every grounded alternative.
    """
    from taskverse.fileio import check_output, output_file, write_text
    from taskverse.library.render import draw, to_dot

    if output is not None:
        if output.suffix.lower() not in {".dot", ".png", ".svg"}:
            raise TaskverseError("unsupported output type; expected .dot, .png or .svg", file=output)
        check_output(output, force)
    library = _library()
    atom = resolve_task(task)
    if atom.id not in library.by_id:
        raise TaskverseError(f"task {atom.id!r} is not in the library; add it to atoms/ to graph it")
    world = library.world_with_every_alternative if every else library.world
    dep = world.dependency_graph(atom.id)
    tags = library.knowledge.tags
    if output is None:
        click.echo(to_dot(dep, atom.description, tags), nl=False)
        return
    if output.suffix.lower() == ".dot":
        write_text(output, to_dot(dep, atom.description, tags), force=force)
    else:
        with output_file(output, force) as tmp:
            draw(dep, tmp, atom.description, tags)
    click.echo(f"wrote {output} ({dep.number_of_nodes()} nodes, {dep.number_of_edges()} edges)", err=True)


SCORES_ON_DEMAND = "difficulty: {} in the file; the six scores are computed when asked (docs/difficulty.md)"
"""What ``compose -o`` and ``generate -o`` say of the empty difficulty they write: scores are never stored."""


@main.command()
@click.argument("expr")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the molecule to FILE.yaml.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@friendly
def compose(expr: str, output: Path | None, force: bool, fmt: str) -> None:
    """Build a molecule task from a composition EXPR.

    \b
    Operators, loosest first:  A | B (either)   A & B (all, any order)   A >> B (A, then B)
                               3 * A (A three times in a row)   A @ ... (below)   ~A (never A)
    Calls:  at_least(2, A, B, C)   amount(8, A) (8 of A's target in total, however many events: "obtain 8 beef")
    Time bound:  A @ within=600s|30min|1day|100t
    Constraints:  A @ when=day|night|first_day|clear|rain|thunder
                  A @ where=DIMENSION|BIOME|cave|height:LOW..HIGH
                  A @ how=bare_hand|arrows|with:ITEM      (several: A @ when=night, how=bare_hand)
    Initialization:  naive(A)   init(A, time=night, biome=desert, inventory.ITEM=N, summon.MOB=N,
                                     main_hand=ITEM, equipment.head|chest|legs|feet|offhand=ITEM)
    Tasks are ids (craft.iron_sword), quoted descriptions ("craft iron_sword") or bare words (craft iron_sword).
    EXPR with no operator that names no task is read as a task phrase ("combat a skeleton at night with an iron
    sword and iron armor", "starting from a furnace and coal, smelt and eat cooked porkchop"; docs/phrases.md).
    Limits: 32 levels of nesting (every operator and call counts one), 1000 parts, 10,000 characters;
    counts N * A from 1 to 1000; amounts and inventory.ITEM=N from 1 to 2304.
    An infeasible composition exits non-zero and names the conflicting parts.
    """  # noqa: D301
    from taskverse.algebra.files import molecule_to_yaml
    from taskverse.fileio import check_output, write_text

    if output is not None:
        check_output(output, force)
    molecule = compose_expression(expr)
    if output is not None:
        write_text(output, molecule_to_yaml(molecule), force=force)
        click.echo(f"wrote {output} ({molecule.id}: {molecule.description})", err=True)
        click.echo(f"{SCORES_ON_DEMAND}: taskverse difficulty {output}", err=True)
        return
    if fmt == "json":
        emit_json(molecule.model_dump(mode="json"))
    else:
        click.echo(molecule_to_yaml(molecule), nl=False)


MAX_GENERATE = 10_000


@main.command()
@click.option("--n", "count", type=click.IntRange(min=0, max=MAX_GENERATE), required=True,
              help="How many molecules.")
@click.option("--seed", type=SEED, required=True, help="Random seed (the same seed gives the same molecules).")
@click.option("--max-atoms", type=click.IntRange(min=1, max=20), default=3, show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one YAML file per molecule into DIR.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@friendly
def generate(count: int, seed: int, max_atoms: int, output: Path | None, force: bool, fmt: str) -> None:
    """Generate N distinct feasible random molecule tasks, reproducibly from a seed.

    Each molecule is written (or printed) as soon as it is found: Ctrl-C keeps the finished ones (with -o, one
    complete file each; with --format json, a list of those found) and exits 130. A file already in DIR with
    the same content counts as written; a different one is kept unless --force.
    """
    from taskverse.algebra.files import molecule_to_yaml
    from taskverse.algebra.generate import random_molecules
    from taskverse.fileio import check_output, write_text

    if output is not None:
        check_output(output, force, folder=True)
    done: list[Any] = []
    try:
        with interruptible() as interrupted:
            for molecule in random_molecules(_library(), count, seed, max_atoms):
                if output is not None:
                    write_text(output / f"{molecule.id}.yaml", molecule_to_yaml(molecule), force=force)
                elif fmt == "yaml":
                    click.echo(("---\n" if done else "") + molecule_to_yaml(molecule), nl=False)
                done.append(molecule)
                if interrupted():
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        _finish_generate(done, output, fmt)
        click.echo(f"error: interrupted after {len(done)} of {count} molecule(s)", err=True)
        sys.exit(130)
    except RuntimeError as exc:
        _finish_generate(done, output, fmt)
        raise TaskverseError(str(exc)) from None
    _finish_generate(done, output, fmt)


def _finish_generate(done: list[Any], output: Path | None, fmt: str) -> None:
    if output is not None:
        click.echo(f"wrote {len(done)} molecule(s) to {output}", err=True)
        if done:
            click.echo(f"{SCORES_ON_DEMAND}: taskverse difficulty {output / (done[0].id + '.yaml')}", err=True)
    elif fmt == "json":
        emit_json([m.model_dump(mode="json") for m in done])


@main.command()
@click.argument("kind", type=click.Choice(["atom", "molecule", "suite", "ratings", "trajectory"]), default="atom")
@click.option("--format", "fmt", type=click.Choice(["json"]), default="json", show_default=True,
              help="JSON Schema is always JSON.")
@friendly
def schema(kind: str, fmt: str) -> None:
    """Print the JSON Schema of a file format users write (for editors)."""
    from taskverse.algebra.molecule import MoleculeTask
    from taskverse.benchmarks.suites import Suite
    from taskverse.difficulty.ratings import RatingsFile
    from taskverse.difficulty.trajectories import Trajectory
    from taskverse.schema import AtomTask

    models: dict[str, Any] = {"atom": AtomTask, "molecule": MoleculeTask, "suite": Suite, "ratings": RatingsFile,
                              "trajectory": Trajectory}
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
    unsolvable = unsolvable_reasons(library)
    data = {
        "atoms": len(library.tasks),
        "categories": dict(sorted(by_category.items())),
        "verbs": dict(sorted(by_verb.items())),
        "solvable_from_scratch": reachable,
        "unsolvable": unsolvable,
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
    for task_id, reason in unsolvable.items():
        click.echo(f"    not solvable from scratch: {task_id}: {reason}")
    click.echo(f"  world dependency graph: {data['world_graph']['nodes']} nodes, {data['world_graph']['edges']} edges")
    src = library.knowledge.source
    click.echo(f"  game knowledge: Minecraft {src['minecraft']} from {src['package']}=={src['version']}")


def unsolvable_reasons(library: Any) -> dict[str, str]:
    """Why each atom that cannot be done from an empty inventory cannot: the resources at the root of it.

    A root is a resource no atom gives; its reason is the curated one (``curated/unobtainable.yaml``: not obtainable
    in survival, or a mechanism the library does not model yet, with sources) or "no atom gives it".
    """
    from taskverse.world.graph import resource_node, ways_of  # noqa: PLC0415 - only the summary needs them

    world = library.world
    inf = float("inf")
    curated = library.knowledge.unobtainable
    by_output: dict[str, list[Any]] = {}
    for task in library.tasks:
        for way_yields in (task.yields, *[w.yields for w in task.requires or [] if hasattr(w, "yields")]):
            for y in way_yields:
                by_output.setdefault(resource_node(y.kind.value, y.name), []).append(task)
    memo: dict[str, frozenset[str]] = {}

    def roots_of_task(task: Any, depth: int) -> frozenset[str]:
        found: set[str] = set()
        for way in ways_of(task):
            missing = [n for n in way if all(world.resource_rank(n.kind.value, m) == inf for m in n.any_of)]
            for need in missing[:1]:  # the first unmet need of each way explains it
                for member in need.any_of[:3]:
                    found |= roots(resource_node(need.kind.value, member), depth + 1)
        return frozenset(found)

    def roots(node: str, depth: int) -> frozenset[str]:
        if node in memo:
            return memo[node]
        memo[node] = frozenset({node})  # a cycle ends here
        producers = by_output.get(node, [])
        if producers and depth < 6:
            found = frozenset().union(*(roots_of_task(t, depth) for t in producers[:3]))
            memo[node] = found or frozenset({node})
        return memo[node]

    out: dict[str, str] = {}
    for task in sorted(library.tasks, key=lambda t: t.id):
        if world.task_rank(task.id) != inf:
            continue
        parts = []
        for node in sorted(roots_of_task(task, 0))[:3]:
            kind, _, name = node.partition(":")
            parts.append(f"{kind} {name}: {curated.get(name, 'no atom gives it')}")
        out[task.id] = "; ".join(parts) or "its needs form a cycle"
    return out
