"""The ``space`` command: the task space of a suite or the whole library (MCU Figure 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taskverse.cli.util import SEED, FiniteFloat, emit_json, force_option, friendly
from taskverse.errors import TaskverseError


def space_points(suite_name: str | None, library: Any) -> list[Any]:
    """Points of the task space: a suite's tasks, or every atom and naive version of the library."""
    from taskverse.benchmarks.space import Point
    from taskverse.benchmarks.suites import load_suite, naive_molecule, resolve_suite_task, vector_of
    from taskverse.cli.suites import scorer_for

    scorer = scorer_for(library)
    if suite_name:
        tasks = [resolve_suite_task(item, library) for item in load_suite(suite_name).tasks]
    else:
        world = library.world
        tasks = list(library.tasks)
        tasks += [naive_molecule(t, library) for t in library.tasks
                  if world.task_rank(t.id) != float("inf") and not t.initialization.is_naive()]
    points = []
    for task in tasks:
        is_composite = task.kind == "molecule" and getattr(task.expression, "kind", "") != "initialized"
        category = "molecule" if is_composite else task.category.value
        points.append(Point(task.id, task.description, category,
                            [round(v, 4) for v in vector_of(task, scorer)]))
    return points


@click.command("space")
@click.option("--suite", "suite_name", help="A suite (default: every atom and naive version of the library).")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="FILE.png (scatter) or FILE.html (hover).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="t-SNE seed.")
@click.option("--perplexity", type=FiniteFloat(min=1.0, max=1000.0), default=30.0, show_default=True,
              help="t-SNE perplexity (lowered for small suites).")
@click.option("--label", "labels", multiple=True, help="Label these task ids in the PNG (repeatable).")
@click.option("--radar", "radar_task", help="Instead: draw this task's six scores as a radar chart to -o.")
@force_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def space(suite_name: str | None, output: Path | None, seed: int, perplexity: float, labels: tuple[str, ...],
          radar_task: str | None, force: bool, fmt: str) -> None:
    """t-SNE of calibrated difficulty vectors coloured by category, and how well categories cluster."""
    from taskverse.benchmarks.space import Point, clustering, embed, radar, scatter_html, scatter_png
    from taskverse.cli.app import _library, resolve_task
    from taskverse.fileio import check_output, output_file

    library = _library()
    if radar_task:
        from taskverse.benchmarks.suites import vector_of
        from taskverse.cli.suites import scorer_for

        if output is None or output.suffix.lower() not in (".png", ".svg"):
            raise TaskverseError("--radar needs -o FILE.png or FILE.svg")
        check_output(output, force)
        task = resolve_task(radar_task)
        with output_file(output, force) as tmp:
            radar(Point(task.id, task.description, task.category.value, vector_of(task, scorer_for(library))), tmp)
        click.echo(f"wrote {output}", err=True)
        return
    if output is not None:
        if output.suffix.lower() not in (".png", ".html"):
            raise TaskverseError("unsupported output type; expected .png or .html", file=output)
        check_output(output, force)
    points = space_points(suite_name, library)
    coordinates = embed(points, seed=seed, perplexity=perplexity)
    scores = clustering(points, coordinates)
    title = f"Task space of {suite_name or 'the library'} ({len(points)} tasks, t-SNE seed {seed})"
    if output is not None:
        with output_file(output, force) as tmp:
            if output.suffix.lower() == ".png":
                scatter_png(points, coordinates, tmp, title, list(labels))
            else:
                scatter_html(points, coordinates, tmp, title)
        click.echo(f"wrote {output}", err=True)
    report = {"tasks": len(points), "seed": seed, **scores,
              "points": [{"id": p.id, "category": p.category, "x": round(float(x), 4), "y": round(float(y), 4)}
                         for p, (x, y) in zip(points, coordinates, strict=True)]}
    if fmt == "json":
        emit_json(report)
        return
    click.echo(f"{len(points)} tasks; silhouette of categories: 6-D {scores['silhouette_6d']}, "
               f"t-SNE {scores['silhouette_2d']} (> 0: categories cluster; near 0: they overlap)")


COMMANDS = [space]
