"""The main job: the whole pipeline on the bundled library, with progress bars and a summary at the end.

validate -> score and calibrate -> build SkillForge -> evaluate the baseline planners on SkillForge-Chain in the
text environment -> compile a sample of tasks for taskverse_mc (and run a few in the engine when it is
installed) -> the task-space figure. Outputs go to ``--out`` (default ``out/``); the repository's own files are
never rewritten.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import click

from taskverse.cli.util import SEED, friendly


def _step(title: str) -> float:
    click.echo(f"\n== {title}", err=True)
    return time.perf_counter()


def _done(start: float, summary: dict[str, Any], key: str, value: Any) -> None:
    summary[key] = value
    summary.setdefault("seconds", {})[key] = round(time.perf_counter() - start, 2)


@click.command("pipeline")
@click.option("-o", "--out", type=click.Path(path_type=Path, file_okay=False), default=Path("out"),
              show_default=True, help="Where reports and figures go.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--compile-sample", type=click.IntRange(min=0, max=10_000), default=40, show_default=True,
              help="How many random compilable atoms to compile.")
@click.option("--game", default="taskverse_mc", show_default=True,
              help="The game the sample compiles for: taskverse_mc, generated from the library's knowledge (no "
                   "installed engine needed to compile), or an installed engine's game such as minetest_game.")
@click.option("--engine-episodes", type=click.IntRange(min=0, max=100), default=4, show_default=True,
              help="How many compiled tasks to run in the engine (when it is installed).")
@click.option("--force", is_flag=True, help="Replace the outputs of an earlier run in the folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def pipeline(out: Path, seed: int, compile_sample: int, game: str, engine_episodes: int, force: bool,
             fmt: str) -> None:
    """Run the whole pipeline on the bundled library and summarise it.

    Validate the library; score and calibrate every atom and naive version; build SkillForge (and say whether it
    is the committed file); evaluate the random, greedy and optimal planners on SkillForge-Chain; compile a sample
    of atoms for --game and run --engine-episodes of them in the engine when it is installed; draw the task space.
    Scores, plans and suite checks are kept in .cache/taskverse, so a second run reuses them. Outputs already in
    the folder are replaced only with --force (checked before anything runs).
    """
    from taskverse.cli.app import _library
    from taskverse.engine.profile import load_mapping
    from taskverse.fileio import check_output, output_file, write_text

    load_mapping(game)  # an unknown game fails now, with close matches, not after minutes of work
    check_output(out, force, folder=True)
    for name in ("quantiles.json", "SkillForge.yaml", *(f"eval_{a}.json" for a in AGENTS), "task_space.png",
                 "summary.json"):
        check_output(out / name, force)
    summary: dict[str, Any] = {}

    start = _step("validate the library")
    library = _library()
    world = library.world
    solvable = sum(1 for t in library.tasks if world.task_rank(t.id) != float("inf"))
    _done(start, summary, "library", {"atoms": len(library.tasks), "solvable_from_scratch": solvable})

    start = _step("score every atom and naive version, and calibrate")
    from taskverse.difficulty.calibration import save_table
    from taskverse.difficulty.recalibrate import compute_table

    table = compute_table(library)
    save_table(table, out / "quantiles.json", force=force)
    scored = int(table.meta.get("atoms", 0)) + int(table.meta.get("naive_versions", 0))
    _done(start, summary, "calibration", {"tasks": scored, "file": str(out / "quantiles.json")})

    start = _step("build SkillForge")
    from taskverse.benchmarks.suites import build_suite, load_suite
    from taskverse.cli.suites import scorer_for
    from taskverse.difficulty.scores import save_scores
    from taskverse.textenv.checks import remembered_checks

    with remembered_checks(library) as check:
        built = build_suite("SkillForge", library, scorer_for(library), check=check)
    save_scores(library)
    write_text(out / "SkillForge.yaml", json.dumps(built.model_dump(mode="json"), indent=1), force=force)
    same = built.tasks == load_suite("SkillForge").tasks
    _done(start, summary, "skillforge", {"tasks": len(built.tasks), "matches_committed_suite": same})

    start = _step("evaluate baseline planners on SkillForge-Chain (text environment)")
    summary["planners"] = _evaluate_planners(library, seed, out, force)
    summary.setdefault("seconds", {})["planners"] = round(time.perf_counter() - start, 2)

    start = _step("compile a sample of tasks to Lua mods")
    summary["compile"] = _compile_sample(library, game, compile_sample, engine_episodes, seed, out, force)
    summary.setdefault("seconds", {})["compile"] = round(time.perf_counter() - start, 2)

    start = _step("the task space of SkillForge")
    from taskverse.benchmarks.space import clustering, embed, scatter_png
    from taskverse.cli.space import space_points

    points = space_points("SkillForge", library)
    coordinates = embed(points, seed=seed)
    with output_file(out / "task_space.png", force) as tmp:
        scatter_png(points, coordinates, tmp, f"SkillForge task space ({len(points)} tasks)")
    _done(start, summary, "task_space", {"figure": str(out / "task_space.png"), **clustering(points, coordinates)})

    write_text(out / "summary.json", json.dumps(summary, indent=2), force=force)
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
        return
    _print_summary(summary, out)


AGENTS = ("random", "greedy", "optimal")


def _evaluate_planners(library: Any, seed: int, out: Path, force: bool) -> dict[str, Any]:
    from taskverse.fileio import write_text

    try:
        from taskverse.textenv.evaluation import evaluate, suite_tasks
    except ImportError:
        click.echo("   the text environment is not installed; skipped", err=True)
        return {"skipped": "text environment not available"}
    tasks = suite_tasks("SkillForge-Chain", library)
    results = {}
    for agent in AGENTS:
        report = evaluate(agent, tasks, episodes=1, seed=seed, library=library, progress=True)
        write_text(out / f"eval_{agent}.json", json.dumps(report, indent=1), force=force)
        summary = report["summary"]
        results[agent] = {k: summary.get(k) for k in ("success_rate", "mean_steps", "plan_efficiency")}
    return results


def _compile_sample(library: Any, game: str, sample: int, episodes: int, seed: int, out: Path,
                    force: bool) -> dict[str, Any]:
    from tqdm import tqdm

    from taskverse.engine.binaries import installed_games
    from taskverse.engine.compiler import CompileError, compile_task
    from taskverse.engine.gamegen.build import GENERATED_GAMES
    from taskverse.engine.lua import IR_PATH, write_env
    from taskverse.fileio import output_folder

    rng = random.Random(seed)
    ids = sorted(library.by_id)
    rng.shuffle(ids)
    compiled: list[tuple[Any, Any]] = []
    tried = 0
    # A generated game is built from the knowledge; another game's folder comes from the installed engine.
    folders = game in GENERATED_GAMES or game in installed_games()
    if not folders:
        click.echo(f"   the engine's game {game!r} is not installed: the sample is compiled, no folders written",
                   err=True)
    with tqdm(total=sample, desc="compile", unit="task", file=sys.stderr, dynamic_ncols=True) as bar:
        for task_id in ids:
            if len(compiled) >= sample:
                break
            tried += 1
            task = library.by_id[task_id]
            try:
                ir = compile_task(task, library, game)
            except CompileError:
                continue
            if folders:
                with output_folder(out / "mods" / task_id, force, marker=IR_PATH) as tmp:
                    write_env(ir, tmp)
            compiled.append((task, ir))
            bar.update(1)
    result: dict[str, Any] = {"game": game, "compiled": len(compiled), "tried": tried,
                              "folders": str(out / "mods") if folders and compiled else None}
    result["engine"] = _run_in_engine(compiled, episodes, library) if episodes else {"skipped": "not asked"}
    return result


def _run_in_engine(compiled: list[tuple[Any, Any]], episodes: int, library: Any) -> dict[str, Any]:
    """One episode of each of the first ``episodes`` compiled tasks the scripted player has a plan for."""
    from taskverse.engine.binaries import CLIENT, engine_info

    if not engine_info().installed or not CLIENT.exists():
        click.echo("   the engine is not installed (make run installs it where it can: scripts/install-engine.sh); "
                   "engine episodes skipped", err=True)
        return {"skipped": "engine not installed"}
    from taskverse.engine.planner import NoPlan, plan_task
    from taskverse.engine.runner import run_jobs, summarise

    jobs: list[tuple[Any, Any, Any]] = []
    for task, ir in compiled:
        if len(jobs) >= episodes:
            break
        try:
            jobs.append((task, ir, plan_task(task, ir, library)))
        except NoPlan:
            continue
    if not jobs:
        return {"skipped": "no scripted plan for the sampled tasks"}
    click.echo(f"   {len(jobs)} episode(s) in the engine: {', '.join(task.id for task, _, _ in jobs)}", err=True)
    start = time.perf_counter()
    reports = run_jobs(jobs, library=library, parallel=2)
    return summarise(reports, time.perf_counter() - start)


def _print_summary(summary: dict[str, Any], out: Path) -> None:
    lib = summary["library"]
    click.echo(f"\ntaskverse pipeline: done (outputs in {out}/)")
    click.echo(f"  library      {lib['atoms']} atoms, {lib['solvable_from_scratch']} solvable from scratch")
    click.echo(f"  calibration  {summary['calibration']['tasks']} tasks scored and calibrated")
    sf = summary["skillforge"]
    click.echo(f"  SkillForge   {sf['tasks']} tasks (identical to benchmarks/SkillForge.yaml: "
               f"{sf['matches_committed_suite']})")
    for agent, stats in summary["planners"].items():
        click.echo(f"  planner      {agent:<8} {stats}")
    comp = summary["compile"]
    click.echo(f"  compile      {comp['compiled']} of {comp['tried']} sampled atoms compiled for {comp['game']}")
    engine = comp["engine"]
    if "skipped" in engine:
        click.echo(f"  engine       skipped: {engine['skipped']}")
    else:
        click.echo(f"  engine       {engine['successes']} of {engine['episodes']} episodes succeeded "
                   f"({engine['engine_errors']} engine errors, {engine['mean_episode_seconds']:.1f} s each)")
    space = summary["task_space"]
    click.echo(f"  task space   {space['figure']} (silhouette 6-D {space['silhouette_6d']}, "
               f"t-SNE {space['silhouette_2d']})")
    click.echo(f"  seconds      {summary['seconds']}")


COMMANDS = [pipeline]
