"""Commands for benchmarks: ``filter``, ``suite list|show|build``, ``coverage`` and ``bias``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taskverse.cli.util import SEED, emit_json, force_option, friendly
from taskverse.errors import TaskverseError


def scorer_for(library: Any) -> Any:
    """The difficulty scorer (calibrated and raw scores by dimension) for filters and selection."""
    from taskverse.difficulty.calibration import load_table
    from taskverse.difficulty.scores import scores
    from taskverse.schema import DIFFICULTY_DIMENSIONS

    table = load_table()  # once for the thousands of tasks a selection scores

    def score(task: Any) -> tuple[dict[str, float], dict[str, float]]:
        difficulty = scores(task, library, table=table)
        calibrated, raw = {}, {}
        for dim in DIFFICULTY_DIMENSIONS:
            value = getattr(difficulty, dim)
            if value is not None and value.calibrated is not None:
                calibrated[dim] = value.calibrated
            if value is not None and value.raw is not None:
                raw[dim] = value.raw
        return calibrated, raw

    return score


def suite_vectors(names: list[str], library: Any, scorer: Any) -> Any:
    """(n, 6) calibrated difficulty of the union of some suites' tasks (each task once)."""
    from taskverse.benchmarks.suites import load_suite, resolve_suite_task, vectors

    items = {item.id: item for name in names for item in load_suite(name).tasks}
    return vectors([resolve_suite_task(item, library) for item in items.values()], scorer)


@click.command("filter")
@click.argument("expr", default="")
@click.option("--from", "source", help="Filter the tasks of this suite (default: every atom and naive version).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def filter_command(expr: str, source: str | None, fmt: str) -> None:
    """Tasks matching a filter EXPR, e.g. 'category=mining and planning_complexity>=3 and init=naive'.

    Fields: category, verb, kind (atom|molecule), init (atom|naive|custom), atoms, id, tag, description, and the six
    difficulty dimensions (calibrated; raw.<dimension> for raw). Operators: = != < <= > >= ~ (contains);
    combine with and, or, not and parentheses (nested at most 32 deep; at most 10,000 characters). A value no
    task has (category=minig) is an error with close matches.
    """
    from taskverse.benchmarks.filters import check_values, parse_filter
    from taskverse.benchmarks.suites import entries, entry_for_suite_task, load_suite
    from taskverse.cli.app import _library as library_of

    check = parse_filter(expr)
    library = library_of()
    scorer = scorer_for(library)
    check_values(check, {})  # a typo in a fixed field (category, kind, init) fails before any task is scored
    if source:
        pool = [entry_for_suite_task(t, library, scorer) for t in load_suite(source).tasks]
    else:
        pool = entries(library, scorer)
    check_values(check, _known_values(library, pool))
    rows = [e for e in pool if check(e)]
    from taskverse.difficulty.scores import save_scores

    save_scores(library)
    if fmt == "json":
        emit_json([{"id": e.id, "description": e.description, "category": e.category, "kind": e.kind,
                    "init": e.init, "verb": e.verb, "difficulty": e.calibrated} for e in rows])
        return
    for e in rows:
        click.echo(f"{e.id:<40} {e.category:<13} {e.init:<6} {e.description}")
    click.echo(f"{len(rows)} of {len(pool)} task(s) match", err=True)


def _known_values(library: Any, pool: list[Any]) -> dict[str, set[str]]:
    """The values tasks have for the text fields of filters: the library's atoms and the tasks filtered."""
    known: dict[str, set[str]] = {"verb": set(), "tag": set(), "id": set(library.by_id)}
    for data in library.index.data.values():
        known["verb"].add(str(data.get("verb", "")))
        known["tag"].update(data.get("tags") or ())
    for entry in pool:
        known["verb"].add(entry.verb)
        known["tag"].update(entry.tags)
        known["id"].add(entry.id)
    return known


@click.group("suite")
def suite() -> None:
    """Benchmark suites in benchmarks/: SkillForge, its filtered versions and the literature's benchmarks."""


@suite.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def suite_list(fmt: str) -> None:
    """List the suites (built or not)."""
    from taskverse.benchmarks.suites import load_suite, suite_names, suite_path

    rows = []
    for name in suite_names():
        built = suite_path(name).exists()
        size = len(load_suite(name).tasks) if built else None
        rows.append({"name": name, "built": built, "tasks": size})
    if fmt == "json":
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['name']:<28} {row['tasks'] if row['built'] else 'not built':>9}")


@suite.command("show")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True)
@friendly
def suite_show(name: str, fmt: str) -> None:
    """Show a suite: how it was built and its tasks with their content hashes."""
    from taskverse.benchmarks.suites import load_suite
    from taskverse.yamlio import dump_yaml

    data = load_suite(name).model_dump(mode="json", exclude_none=True)
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(dump_yaml(data), nl=False)


MAX_SUITE_SIZE = 10_000


@suite.command("build")
@click.argument("names", nargs=-1)
@click.option("--all", "build_all", is_flag=True, help="Build every suite.")
@click.option("--size", type=click.IntRange(min=8, max=MAX_SUITE_SIZE),
              help="Total size (SkillForge selections only).")
@click.option("--seed", type=SEED, help="Override the definition's seed.")
@friendly
def suite_build(names: tuple[str, ...], build_all: bool, size: int | None, seed: int | None) -> None:
    """(Re)build suite files deterministically (the same inputs give the same file).

    Every task a SkillForge selection picks must be feasible in the text environment and solved by the optimal
    agent within its step limit (twice its shortest plan, plus 10): each records both, and what fails is left
    out with the reason (built_with.rejected).
    """
    from taskverse.benchmarks.suites import build_suite, load_definitions, suite_names, write_suite
    from taskverse.cli.app import _library as library_of

    library = library_of()
    scorer = scorer_for(library)
    wanted = list(names)
    if build_all:
        wanted = suite_names()
    if not wanted:
        raise TaskverseError("name a suite to build, or --all")
    definitions = load_definitions()
    # selections first: filtered suites read them
    wanted.sort(key=lambda n: (definitions[n].selection is None) if n in definitions else True)
    from taskverse.difficulty.scores import save_scores
    from taskverse.textenv.checks import remembered_checks

    with remembered_checks(library) as check:
        for name in wanted:
            path = write_suite(build_suite(name, library, scorer, size=size, seed=seed, check=check))
            click.echo(f"wrote {path}", err=True)
    save_scores(library)


@click.command("coverage")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def coverage_command(file: Path, fmt: str) -> None:
    """Map a benchmark's task list (one task phrase per line) onto the library, with the share covered.

    Each line is read as a task phrase (docs/phrases.md): "hunt a pig in the savanna", "obtain 6 wheat in
    plains", "find material and craft a stone pickaxe". It is matched (an atom, a composition with its
    expression, a family such as "craft XXX", or a count, expressible with the count operator), impossible in
    the game (crafting a log), or not expressible, with the reason. With --format json each line also gives the
    rules behind its reading (a paper's phrasing, an old name, which word became which operator or constraint),
    to audit a list. Lines starting with # are comments. FILE is UTF-8 text of at most 10,000 lines (and 8 MB);
    a line longer than 500 characters maps to nothing.
    """
    from taskverse.benchmarks.coverage import coverage
    from taskverse.cli.app import _library as library_of
    from taskverse.fileio import read_text

    lines = read_text(file, "task list").splitlines()
    try:
        report = coverage(lines, library_of())
    except TaskverseError as exc:
        raise TaskverseError(exc.message, file=file) from None
    if fmt == "json":
        emit_json(report)
        return
    for row in report["lines"]:
        if row["mapped"]:
            shown = row["expression"] if row["kind"] in ("molecule", "count") else row["task"]
            target = f"-> {shown} ({row['kind']})"
        else:
            target = f"-- {row['status']}: {row['reason']}"
        click.echo(f"{row['line']:>4}  {row['text']:<40} {target}")
    by_status = ", ".join(f"{n} {status}" for status, n in report["by_status"].items())
    click.echo(f"covered {report['covered']} of {report['total']} ({report['share']:.0%}): {by_status}")


@click.command("bias")
@click.option("--existing", default="literature", show_default=True,
              help="Suites forming 'existing benchmarks', comma-separated ('literature' = all Literature-* suites).")
@click.option("--against", default="SkillForge", show_default=True, help="The suite to compare with.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the heatmap (Figure 4) as PNG or SVG.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@friendly
def bias_command(existing: str, against: str, output: Path | None, force: bool, fmt: str) -> None:
    """Compare difficulty distributions of existing benchmarks and a suite (MCU Section 4.3, Figure 4)."""
    from taskverse.benchmarks.bias import compare, heatmap
    from taskverse.benchmarks.suites import literature_suite_name, load_papers
    from taskverse.cli.app import _library as library_of
    from taskverse.fileio import check_output, output_file
    from taskverse.schema import DIFFICULTY_DIMENSIONS

    if output is not None:
        if output.suffix.lower() not in (".png", ".svg"):
            raise TaskverseError("unsupported output type; expected .png or .svg", file=output)
        check_output(output, force)
    library = library_of()
    scorer = scorer_for(library)
    names = [literature_suite_name(p) for p in load_papers()] if existing == "literature" else existing.split(",")
    label = "Existing benchmarks" if existing == "literature" else existing
    result = compare(suite_vectors(names, library, scorer), suite_vectors([against], library, scorer),
                     (label, against))
    if output is not None:
        with output_file(output, force) as tmp:
            heatmap(result, tmp)
        click.echo(f"wrote {output}", err=True)
    if fmt == "json":
        emit_json(result.to_json())
        return
    click.echo(f"{'dimension':<22}{'mean ' + label[:12]:>20}{'mean ' + against[:12]:>20}{'spread':>16}"
               f"{'JS div':>9}{'W1':>8}")
    for dim in DIFFICULTY_DIMENSIONS:
        ma, mb = result.means[dim]
        sa, sb = result.spread[dim]
        click.echo(f"{dim:<22}{ma:>20.2f}{mb:>20.2f}{sa:>8.2f}/{sb:<7.2f}{result.jensen_shannon[dim]:>9.3f}"
                   f"{result.wasserstein[dim]:>8.3f}")
    click.echo(f"({result.sizes[0]} vs {result.sizes[1]} tasks; spread = normalised entropy of the score bins)")


COMMANDS = [filter_command, suite, coverage_command, bias_command]
