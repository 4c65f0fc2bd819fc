"""Commands for the six difficulty scores: ``difficulty``, ``calibrate``, and ``rate``."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from taskverse.cli.util import SEED
from taskverse.errors import TaskverseError


def _warn_if_stale(table: Any, library: Any) -> None:
    if table is not None and table.stale_for(library):
        from taskverse.difficulty.calibration import table_path

        click.echo(f"warning: {table_path()} was computed on another version of the library "
                   f"({table.meta.get('date', 'unknown date')}); run 'taskverse calibrate' to refresh it", err=True)


def difficulty_data(task: Any, raw_only: bool = False) -> dict[str, Any]:
    """The six scores of a task as plain data: raw, calibrated (unless ``raw_only``) and source of each."""
    from taskverse.cli.app import _library
    from taskverse.difficulty.calibration import load_table, require_table, table_path
    from taskverse.difficulty.scores import raw_scores

    library = _library()
    raw = raw_scores(task, library)
    table = None if raw_only else require_table()
    _warn_if_stale(table, library)
    scores: dict[str, Any] = {}
    for dim, score in raw.items():
        entry: dict[str, Any] = {"raw": score.value}
        if table is not None:
            entry["calibrated"] = None if score.value is None else round(table.calibrate(dim, score.value), 4)
        entry["source"] = score.source
        scores[dim] = entry
    data: dict[str, Any] = {"id": task.id, "description": task.description, "kind": task.kind,
                            "calibrated": table is not None, "scores": scores}
    shown = table or load_table()
    if shown is not None:
        data["calibration"] = {"file": str(table_path()), "date": shown.meta.get("date"),
                               "stale": shown.stale_for(library)}
    return data


def show_difficulty(task: Any) -> dict[str, Any]:
    """The ``difficulty`` block of ``taskverse show``: raw, calibrated (when a table exists) and source."""
    from taskverse.cli.app import _library
    from taskverse.difficulty.calibration import load_table
    from taskverse.difficulty.scores import raw_scores

    library = _library()
    table = load_table()
    _warn_if_stale(table, library)
    out: dict[str, Any] = {}
    for dim, score in raw_scores(task, library).items():
        calibrated = None
        if table is not None and score.value is not None:
            calibrated = round(table.calibrate(dim, score.value), 4)
        out[dim] = {"raw": score.value, "calibrated": calibrated, "source": score.source}
    return out


@click.command("difficulty")
@click.argument("task")
@click.option("--raw", "raw_only", is_flag=True, help="Show the raw scores only (no calibration table needed).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def difficulty_command(task: str, raw_only: bool, fmt: str) -> None:
    """The six difficulty scores of TASK (id, description, YAML file or composition), calibrated to [0, 5].

    \b
    Each score says where it came from: trajectories, the dependency graph, human ratings
    (with the number of raters and Krippendorff's alpha) or a named proxy (proxy:NAME).
    Calibration reads calibration/quantiles.json (see 'taskverse calibrate').
    """  # noqa: D301
    from taskverse.cli.app import resolve_task
    from taskverse.cli.util import emit_json, friendly

    @friendly
    def run() -> None:
        data = difficulty_data(resolve_task(task), raw_only)
        if fmt == "json":
            emit_json(data)
            return
        click.echo(f"{data['description']}  ({data['id']})")
        for dim, score in data["scores"].items():
            raw = "n/a" if score["raw"] is None else f"{score['raw']:.4g}"
            if data["calibrated"]:
                value = "n/a" if score["calibrated"] is None else f"{score['calibrated']:.2f}"
                click.echo(f"  {dim:<20} {value:>5}   raw {raw:<10} {score['source']}")
            else:
                click.echo(f"  {dim:<20} raw {raw:<10} {score['source']}")

    run()


@click.command("calibrate")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def calibrate_command(fmt: str) -> None:
    """Recompute the 5-quantile calibration over all atoms and their naive versions; write calibration/."""
    from taskverse.cli.app import _library
    from taskverse.cli.util import emit_json, friendly

    @friendly
    def run() -> None:
        from taskverse.difficulty.calibration import save_table
        from taskverse.difficulty.recalibrate import compute_table

        library = _library()
        click.echo(f"scoring {len(library.tasks)} atoms and their naive versions...", err=True)
        table = compute_table(library)
        path = save_table(table)
        click.echo(f"wrote {path}", err=True)
        if fmt == "json":
            emit_json({"file": str(path), **table.to_json()})
            return
        meta = table.meta
        click.echo(f"calibrated on {meta['atoms']} atoms and {meta['naive_versions']} naive versions "
                   f"(library {meta['library_digest'][:12]}, {meta['date']})")
        for dim, q in table.quantiles.items():
            per = meta["per_dimension"][dim]
            sources = ", ".join(f"{k} {v}" for k, v in per["sources"].items())
            left = f", {per['undefined_left_out']} undefined left out" if per["undefined_left_out"] else ""
            click.echo(f"  {dim:<20} Q0..Q5 = {', '.join(f'{v:.4g}' for v in q)}   ({sources}{left})")

    run()


def _describe_for_rating(task: Any, library: Any) -> list[str]:
    init = task.initialization.model_dump(mode="json", exclude_defaults=True)
    lines = [f"category: {task.category.value}"]
    lines.append("starts with: " + (", ".join(f"{k}={v}" for k, v in init.items()) if init else
                                    "nothing (empty inventory, random spawn)"))
    if task.kind == "atom":
        lines.append(f"success: {task.goal.describe()}")
        if task.id in library.by_id:
            lines.append(f"pre-tasks from scratch: {len(library.world.pre_tasks(task.id))}")
    return lines


@click.command("rate")
@click.option("--rater", required=True, help="Your name: ratings go to calibration/ratings/NAME.yaml.")
@click.option("--tasks", "task_refs", multiple=True,
              help="A task to rate (id, description or composition); repeat, or separate with commas.")
@click.option("--sample", type=click.IntRange(min=1, max=10_000), help="Rate N library atoms you have not rated yet.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed for --sample.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: prompts go to stderr and a summary is printed as JSON at the end.")
def rate_command(rater: str, task_refs: tuple[str, ...], sample: int | None, seed: int, fmt: str) -> None:
    """Rate tasks' intricacy, creativity and novelty from 1 to 5 in the terminal (MCU definitions shown).

    Answers are read from standard input, one per line: 1-5, Enter to skip a dimension, 's' to skip the task,
    'q' to quit. The file is saved after every task, so quitting keeps what was rated.
    """
    from taskverse.cli.app import _library, resolve_task
    from taskverse.cli.util import emit_json, friendly

    @friendly
    def run() -> None:
        from taskverse.difficulty.calibration import calibration_dir
        from taskverse.difficulty.ratings import (
            RATER_NAME,
            RatingsFile,
            load_ratings_file,
            pick_tasks,
            rate_interactively,
        )
        from taskverse.fileio import MAX_INPUT_LINES, read_line

        if not re.match(RATER_NAME, rater):
            raise TaskverseError(f"rater name {rater!r}: use letters, digits, '.', '_' or '-'", field="--rater")
        if not task_refs and sample is None:
            raise TaskverseError("name the tasks to rate with --tasks, or ask for --sample N")
        library = _library()
        path = calibration_dir() / "ratings" / f"{rater}.yaml"
        existing = load_ratings_file(path, library.by_id) if path.exists() else RatingsFile(rater=rater)
        chosen = [resolve_task(ref.strip()) for refs in task_refs for ref in refs.split(",") if ref.strip()]
        if sample is not None:
            already = {r.task for r in existing.ratings} | {t.id for t in chosen}
            chosen += [library.by_id[t] for t in pick_tasks(list(library.by_id), already, sample, seed)]
        err = fmt == "json"
        asked = [0]

        def ask(prompt: str) -> str | None:
            while True:
                asked[0] += 1
                if asked[0] > MAX_INPUT_LINES:  # endless input (yes | taskverse rate) ends like the end of input
                    return None
                click.echo(prompt, nl=False, err=err)
                try:
                    line = read_line(sys.stdin)  # bounded: an endless line costs no memory
                except TaskverseError as exc:
                    click.echo(f"error: {exc}", err=err)
                    continue
                if line is None:
                    click.echo("", err=err)
                    return None
                return line.rstrip("\n")

        items = [(t.id, t.description, _describe_for_rating(t, library)) for t in chosen]
        result = rate_interactively(items, existing, path, ask, lambda text: click.echo(text, err=err))
        new = len({r.task for r in result.ratings} - {r.task for r in existing.ratings})
        changed = sum(1 for r in result.ratings if r not in existing.ratings)
        if fmt == "json":
            emit_json({"file": str(path), "rater": rater, "rated": len(result.ratings), "new": new,
                       "changed": changed})
        else:
            click.echo(f"saved {len(result.ratings)} rating(s) of {rater} to {path} ({changed} new or changed)")

    run()


COMMANDS = [difficulty_command, calibrate_command, rate_command]
