"""``taskverse engine ...``: whether the engine is installed, dumping a game's registry, running tasks in it.

The group is added to the main command in ``taskverse.cli.main`` (``main.add_command(engine)``); it also runs on
its own as ``python -m taskverse.cli.engine``.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from taskverse.cli.agent_options import agent_options, make_agent_options
from taskverse.cli.util import FiniteFloat, emit_json, friendly
from taskverse.errors import TaskverseError

TIMEOUT = FiniteFloat(min=0, min_open=True, max=3600)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def engine() -> None:
    """Check the Minetest engine, dump a game's registry, run compiled tasks in it."""


@engine.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def check(fmt: str) -> None:
    """Say whether the engine is installed and which version; how to install it if not.

    Exits 0 when the server is installed, 1 when it is not.
    """
    from taskverse.engine.binaries import engine_info

    info = engine_info()
    if fmt == "json":
        emit_json(info.model_dump(mode="json"))
    elif info.installed:
        click.echo(f"Minetest {info.version} installed: server {info.server}, client {info.client or 'missing'}")
        click.echo(f"  games in {info.games_dir}: {', '.join(info.games) or 'none'}")
        click.echo(f"  mods beside the engine: {', '.join(info.mods) or 'none'}")
        click.echo(f"  luajit: {info.luajit or 'missing'}; luacheck: {info.luacheck or 'missing'}")
    else:
        click.echo(f"the Minetest engine is not installed; {info.install}")
    sys.exit(0 if info.installed else 1)


@engine.command()
@click.option("--game", default="minetest_game", show_default=True, help="Game folder of the engine.")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Write into this folder instead of engine/games/<game>/.")
@click.option("--force", is_flag=True, help="With -o: replace registry.json and ENGINE_VERSION if they exist.")
@click.option("--timeout", type=TIMEOUT, default=60.0, show_default=True, help="Seconds the engine may run.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def dump(game: str, output: Path | None, force: bool, timeout: float, fmt: str) -> None:
    """Run the engine once with the dump mod and write the game's registry.json and ENGINE_VERSION."""
    from taskverse.engine.profile import (
        REGISTRY_FILE,
        VERSION_FILE,
        dump_registry,
        engine_dir,
        profile_dir,
        write_profile,
    )
    from taskverse.fileio import check_output

    if output is not None:  # engine/games/ is the dump's own folder: it may rewrite files there
        check_output(output, force, maintains=engine_dir() / "games", folder=True)
        for name in (REGISTRY_FILE, VERSION_FILE):
            check_output(output / name, force, maintains=engine_dir() / "games")
    registry, version, seconds = dump_registry(game, timeout=timeout)
    files = write_profile(registry, version, output or profile_dir(game), force=force)
    files += _record_digest(game, output or profile_dir(game), force)
    counts = {
        "items": len(registry.items),
        "nodes": sum(1 for i in registry.items.values() if i.type == "node"),
        "tools": sum(1 for i in registry.items.values() if i.type == "tool"),
        "craftitems": sum(1 for i in registry.items.values() if i.type == "craft"),
        "recipes": len(registry.recipes),
        "fuels": len(registry.fuels),
        "ores": len(registry.ores),
        "biomes": len(registry.biomes),
        "decorations": len(registry.decorations),
        "entities": len(registry.entities),
        "aliases": len(registry.aliases),
    }
    if fmt == "json":
        emit_json({"game": game, "engine_version": version, "seconds": round(seconds, 3),
                    "files": [str(f) for f in files], "counts": counts})
        return
    click.echo(", ".join(f"{v} {k}" for k, v in counts.items()))
    click.echo(f"wrote {', '.join(str(f) for f in files)} (Minetest {version}, {seconds:.2f} s)", err=True)


def _record_digest(game: str, directory: Path, force: bool) -> list[Path]:
    """For a generated game: record which build the registry was dumped from (``GAME_DIGEST``)."""
    from taskverse.engine.gamegen.build import DIGEST_FILE, GENERATED_GAMES, build_game
    from taskverse.engine.profile import engine_dir
    from taskverse.fileio import write_text
    from taskverse.knowledge.facts import load_knowledge

    if game not in GENERATED_GAMES:
        return []
    _, digest = build_game(game, load_knowledge())
    return [write_text(directory / DIGEST_FILE, digest + "\n", force, maintains=engine_dir() / "games")]


@engine.group()
def game() -> None:
    """Build the games taskverse generates from its game knowledge (taskverse_mc)."""


@game.command("build")
@click.option("--game", "name", default="taskverse_mc", show_default=True, help="The generated game.")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Write the game folder here instead of the cache (where runs find it).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--force", is_flag=True, help="Replace an earlier build of another knowledge in --output.")
@friendly
def game_build(name: str, output: Path | None, fmt: str, force: bool) -> None:
    """Write the game folder from the knowledge; same knowledge, same bytes (its digest says which build).

    Then `taskverse engine dump --game taskverse_mc` rewrites its profile (registry.json, GAME_DIGEST). Put the
    folder under ~/.minetest/games/ (or -o ~/.minetest/games/taskverse_mc) to play it with the minetest client.
    --output is the game's own folder: new, empty, or an earlier build (replaced only with --force when its
    knowledge differs); a folder holding anything else is refused, never emptied.
    """
    import json

    from taskverse.engine.gamegen.build import DATA_FILE, build_game, digest_of, game_files, recorded_digest
    from taskverse.fileio import check_output
    from taskverse.knowledge.facts import load_knowledge

    knowledge = load_knowledge()
    if output is not None:
        check_output(output, False, folder=True)
        _check_game_output(output, digest_of(game_files(name, knowledge)), force)
    folder, digest = build_game(name, knowledge, output)
    data = json.loads((folder / "mods" / "minecraft" / DATA_FILE).read_text())
    counts = {key: len(data[key]) for key in ("nodes", "items", "crafts", "biomes", "ores", "decorations", "mobs")}
    recorded = recorded_digest(name)
    if fmt == "json":
        emit_json({"game": name, "folder": str(folder), "digest": digest, "profile_digest": recorded,
                   "profile_current": recorded == digest, "counts": counts})
        return
    click.echo(", ".join(f"{v} {k}" for k, v in counts.items()))
    click.echo(f"built {folder} (digest {digest})", err=True)
    if recorded != digest:
        click.echo(f"the profile engine/games/{name} was dumped from build {recorded}; run: taskverse engine dump "
                   f"--game {name}", err=True)


def _check_game_output(output: Path, digest: str, force: bool) -> None:
    """Refuse an --output the build would empty (it replaces the folder whole).

    A folder that is not an earlier build is refused; one of other knowledge needs --force.
    """
    from taskverse.engine.gamegen.build import STAMP_FILE

    if not output.is_dir() or not any(output.iterdir()):
        return
    stamp = output / STAMP_FILE
    if not stamp.is_file():
        raise TaskverseError(f"the folder is not empty and holds no {STAMP_FILE}, so it is not an earlier build of a "
                             "game: building would replace it whole; give the game's own folder (a new one)",
                             file=output, field="--output")
    if stamp.read_text().strip() != digest and not force:
        raise TaskverseError("holds an earlier build of other knowledge; add --force to replace it", file=output,
                             field="--output")


@engine.command()
@click.argument("task")
@click.option("--plan", "plan_source", default="scripted", show_default=True, metavar="scripted|FILE",
              help="The planner's scripted plan, or a plan file (JSON steps; docs/engine.md).")
@click.option("--episodes", type=click.IntRange(min=1, max=1000), default=1, show_default=True)
@click.option("--parallel", type=click.IntRange(min=1, max=16), default=1, show_default=True,
              help="Episodes at a time on this machine (each has its own server, client and port). With --ray: "
                   "the CPUs of a local Ray instance.")
@click.option("--ray", "use_ray", is_flag=True,
              help="Run the episodes as Ray tasks: on the cluster at RAY_ADDRESS (setting it is enough; every node "
                   "needs taskverse and the engine), else on a local instance (pip install 'taskverse[ray]').")
@click.option("--game", default="minetest_game", show_default=True)
@click.option("--timeout", type=TIMEOUT, default=60.0, show_default=True,
              help="Seconds an episode may take, besides 0.25 s for each step of its plan.")
@click.option("--fresh-server", is_flag=True,
              help="Start a new server on a fresh world for every episode. By default an episode after the first "
                   "starts again in the server that played the one before (the runtime puts back what the episode "
                   "changed; a new server when it cannot): the same report, but faster.")
@click.option("--show-plan", is_flag=True, help="Print the plan (JSON) and do not run it.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def run(task: str, plan_source: str, episodes: int, parallel: int, use_ray: bool, game: str, timeout: float,
        fresh_server: bool, show_plan: bool, fmt: str) -> None:
    """Run TASK in the real engine: headless server, headless client as the player, a scripted plan.

    Reports success (the task runtime's verdict), rewards, the events it logged, timings, the engine's own
    error lines when a mod fails, and whether the Python evaluator replaying the events agrees. Exits 1 when
    an episode failed to run (not when the plan merely did not complete the task), 130 on Ctrl-C (every engine
    of the run is stopped at once and its folder removed; the report holds the episodes that had finished, and
    in JSON says "interrupted"). Local and Ray runs give the same report apart from timings and "run", which says
    where the episodes ran. Episodes after the first start again in the running server where it can give the start
    back whole (each episode says "server: fresh|restart", and why a restart was refused; --fresh-server: a new
    server each); the summary counts the servers started.
    """
    from taskverse.cli.app import _library, resolve_task
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.harness import load_plan
    from taskverse.engine.jobs import run_engine_episodes
    from taskverse.engine.planner import plan_task
    from taskverse.workers import choose_backend

    library = _library()
    resolved = resolve_task(task)
    ir = compile_task(resolved, library, game)
    if plan_source == "scripted":
        plan = plan_task(resolved, ir, library)
    else:
        plan = load_plan(Path(plan_source), game)
    if show_plan:
        click.echo(plan.to_json(), nl=False)
        return
    backend = choose_backend(parallel, use_ray, episodes)
    started = time.monotonic()
    try:
        reports = run_engine_episodes(resolved, ir, plan, library=library, episodes=episodes, backend=backend,
                                      timeout=timeout, fresh_server=fresh_server)
    except KeyboardInterrupt as exc:
        # run_episodes has ended every engine of the run and removed their folders; another Ctrl-C while
        # Python shuts down must not kill it with a traceback (SIG_IGN outlives the interpreter's handlers)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        finished = list(getattr(exc, "reports", []))
        _report(ir, game, plan_source, len(plan.steps), {**backend.describe(), "fresh_server": fresh_server},
                finished, started, fmt, interrupted={"episodes": episodes, "finished": len(finished)})
        click.echo("error: interrupted; every engine of the run was stopped", err=True)
        sys.exit(130)
    summary = _report(ir, game, plan_source, len(plan.steps), {**backend.describe(), "fresh_server": fresh_server},
                      reports, started, fmt)
    sys.exit(1 if summary["engine_errors"] else 0)


def _report(ir: Any, game: str, plan_source: str, steps: int, run: Any, reports: list[Any], started: float,
            fmt: str, interrupted: dict[str, int] | None = None) -> dict[str, Any]:
    """Print a run's report (the finished episodes' only, after an interrupt); return its summary."""
    from taskverse.engine.runner import summarise

    summary = summarise(reports, time.monotonic() - started)
    if fmt == "json":
        document = {"task": ir.id, "description": ir.description, "game": game,
                    "plan": {"source": plan_source, "steps": steps}, "run": run, "summary": summary,
                    "episodes": [r.model_dump(mode="json") for r in reports]}
        if interrupted is not None:
            document["interrupted"] = interrupted
        emit_json(document)
        return summary
    for report in reports:
        click.echo(report.summary())
        for line in report.engine_errors:
            click.echo(f"  {line}")
    done = "" if interrupted is None else f" of the {interrupted['finished']} finished before the interrupt"
    servers = summary["servers_started"]
    click.echo(f"{summary['successes']}/{summary['episodes']} succeeded{done}; {summary['wall_seconds']:.1f} s, "
               f"{summary['episodes_per_minute']:.0f} episodes/min, {servers} server{'s' * (servers != 1)} started",
               err=True)
    return summary


@engine.command("eval")
@click.option("--suite", "suite_name", metavar="NAME", help="A suite of benchmarks/ (or a suite file).")
@click.option("--tasks", "task_refs", multiple=True, metavar="TASK",
              help="A task (id, description, composition, YAML file); repeat for more.")
@click.option("--agent", "agent_spec", required=True, metavar="optimal|greedy|random|cmd:PROGRAM|openai:MODEL",
              help="The text world's agents (taskverse eval --agent): the planner's plan a step at a time (greedy: "
                   "its first plan), random candidates, a program speaking JSON lines, or a language model at an "
                   "OpenAI-compatible endpoint (docs/engine.md).")
@click.option("--episodes", type=click.IntRange(min=1, max=1000), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed (episode seeds follow from it).")
@click.option("--max-steps", type=click.IntRange(min=1, max=100_000), default=1000, show_default=True)
@click.option("--workers", type=click.IntRange(min=1, max=16), default=1, show_default=True,
              help="Episodes at a time, each with its own server and client. With --ray: a local Ray instance's "
                   "CPUs.")
@click.option("--ray", "use_ray", is_flag=True,
              help="Run the episodes as Ray tasks: on the cluster at RAY_ADDRESS (setting it is enough; every node "
                   "needs taskverse and the engine), else on a local instance (pip install 'taskverse[ray]').")
@click.option("--game", default="minetest_game", show_default=True)
@click.option("--budget", type=click.IntRange(min=0, max=10_000_000), default=1000, show_default=True,
              help="States the optimal agent's planner may expand looking for a shorter plan.")
@click.option("--shuffle", is_flag=True, help="List the candidates in an order drawn from each episode's seed.")
@click.option("--init", "initialization", type=click.Choice(["auto", "naive", "task"]), default="task",
              show_default=True,
              help="Start of each episode: the task's own start as it compiles (an atom's prerequisites held); "
                   "naive (an empty inventory, the task as naive(TASK)); or auto, the text world's default "
                   "(naive unless the task has init(...)). Give taskverse eval and engine eval the same --init "
                   "for a like-for-like gap report.")
@click.option("--view", default="all", show_default=True, metavar="all|relevant|top:K",
              help="Which candidates observations list: all; those about a block, item, mob or biome the "
                   "planner's plan for the game's model names; or K of them, the plan's own actions first.")
@click.option("--chance", type=click.Choice(["sure", "sample"]), default="sample", show_default=True,
              help="Chance drops: the engine draws every drop itself (sample); sure, the text world's delivery "
                   "of what comes with 95% probability, has no meaning here and is refused.")
@click.option("--impossible", type=click.IntRange(min=0, max=1000), default=0, show_default=True, metavar="N",
              help="Mix in N tasks out of reach, drawn as taskverse eval --impossible draws them and kept where "
                   "they compile and the game's own model proves them out of reach too; observations offer a "
                   "'give up' candidate; the report scores saying impossible by precision, recall and F1.")
@click.option("--screenshots", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Keep a first-person frame of every step in DIR/<task>-<episode>/ (a virtual screen each "
                   "episode; Debian's xvfb).")
@click.option("--fresh-server", is_flag=True,
              help="Start a new server on a fresh world for every episode. By default a task's next episode starts "
                   "again in the server that played the one before (the runtime puts back what the episode "
                   "changed; a new server when it cannot): the same report, but faster.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report here (rewritten as the run goes) and the trajectories next to it "
                   "(REPORT.trajectories.jsonl).")
@click.option("--resume", is_flag=True, help="Continue the interrupted run whose report is -o (same arguments).")
@click.option("--force", is_flag=True, help="Replace the report and its trajectories if they exist.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@agent_options
@friendly
def eval_command(suite_name: str | None, task_refs: tuple[str, ...], agent_spec: str, episodes: int, seed: int,
                 max_steps: int, workers: int, use_ray: bool, game: str, budget: int, shuffle: bool,
                 initialization: str, view: str, chance: str, impossible: int, screenshots: Path | None,
                 fresh_server: bool, output: Path | None, resume: bool, force: bool, fmt: str,
                 agent_args: dict[str, Any]) -> None:
    """Evaluate an agent acting a step at a time in the real engine, over a suite or tasks.

    The same evaluation as `taskverse eval --world engine` (one implementation; that command starts tasks at
    --init auto unless told otherwise).

    The agents are the text world's, built from the same --agent spec and options, acting through one adapter
    (an observation and numbered candidate actions in, an action out). Tasks that do not compile for the game are
    listed with the reason and not run. The report: success rate, steps, invalid steps, why episodes failed, a
    breakdown by category, and every episode's steps. A task's episodes after the first start again in the
    running server where it can give the start back whole (--fresh-server: a new server each); the report counts
    the servers started. With -o each finished episode is kept at once: Ctrl-C or a
    killed run leaves a report --resume continues (episodes that ended in an agent error run again). Exits 0 when
    the evaluation ran (whatever the agent achieved), 2 on bad input, 130 on Ctrl-C (every engine is stopped; the
    finished episodes are reported).
    """
    evaluate_in_engine(suite_name=suite_name, task_refs=task_refs, agent_spec=agent_spec, episodes=episodes,
                       seed=seed, max_steps=max_steps, workers=workers, use_ray=use_ray, game=game, budget=budget,
                       shuffle=shuffle, initialization=initialization, view=view, chance=chance,
                       impossible=impossible, screenshots=screenshots, fresh_server=fresh_server, output=output,
                       resume=resume, force=force, fmt=fmt, agent_args=agent_args)


def evaluate_in_engine(*, suite_name: str | None, task_refs: Sequence[str], agent_spec: str, episodes: int, seed: int,
                       max_steps: int, workers: int, use_ray: bool, game: str, budget: int, shuffle: bool,
                       initialization: str, view: str, chance: str, impossible: int, screenshots: Path | None,
                       fresh_server: bool, output: Path | None, resume: bool, force: bool, fmt: str,
                       agent_args: dict[str, Any], task_slice: slice | None = None) -> None:
    """An engine evaluation as a command runs it: checks, the run, the report printed and written, the exit.

    The one implementation behind ``taskverse eval --world engine`` and ``taskverse engine eval``: the same
    arguments give the same report. ``task_slice`` keeps only those of the suite's or the list's tasks.
    Exits 130 on Ctrl-C (after printing the finished episodes' report); returns normally otherwise.
    """
    import json

    from taskverse.cli.app import _library, resolve_task
    from taskverse.engine.evaluation import (
        EngineSettings,
        check_agent,
        evaluate_engine,
        summary_lines,
        trajectories_path,
    )
    from taskverse.fileio import check_output, same_file, write_text
    from taskverse.textenv.views import parse_view
    from taskverse.workers import choose_backend

    check_agent(agent_spec)
    parse_view(view)
    if chance == "sure":
        raise TaskverseError("--chance sure is the text world's delivery (a chance drop comes as a plan counts on "
                             "it, with 95% probability); the engine draws every drop itself: use --chance sample")
    if bool(suite_name) == bool(task_refs):
        raise TaskverseError("give either --suite NAME or --tasks TASK (one or more)")
    if resume and output is None:
        raise TaskverseError("--resume needs the report to continue: -o REPORT.json")
    if resume and force:
        raise TaskverseError("--resume continues a report and --force starts it again: give one of the two")
    options = make_agent_options(agent_spec, agent_args, give_up=impossible > 0)
    if output is not None:
        if same_file(output, trajectories_path(output)):  # pragma: no cover - a report named *.trajectories.jsonl
            raise TaskverseError("the report cannot be its own trajectory file", file=output)
        for path in (output, trajectories_path(output)):
            check_output(path, force or resume)  # before the episodes run, not after
    library = _library()
    if suite_name:
        from taskverse.benchmarks import suites

        tasks = [(item.id, suites.resolve_suite_task(item, library)) for item in suites.load_suite(suite_name).tasks]
    else:
        tasks = [(ref, resolve_task(ref)) for ref in task_refs]
    if task_slice is not None:
        total, tasks = len(tasks), tasks[task_slice]
        if not tasks:
            raise TaskverseError(f"--slice leaves no task (there are {total})")
    settings = EngineSettings(agent_spec, game=game, max_steps=max_steps, budget=budget, shuffle=shuffle,
                              options=options, screenshots=None if screenshots is None else str(screenshots),
                              initialization=initialization, view=view, give_up=impossible > 0,
                              fresh_server=fresh_server)
    out_of_reach: list[Any] = []
    if impossible:
        from taskverse.engine.impossible import engine_impossible_tasks

        out_of_reach = engine_impossible_tasks(library, game, impossible, seed, tasks, initialization)
    backend = choose_backend(workers, use_ray, (len(tasks) + len(out_of_reach)) * episodes)
    interrupted = False
    report: dict[str, Any] | None
    try:
        report = evaluate_engine(tasks, settings, library=library, episodes=episodes, seed=seed, backend=backend,
                                 output=output, resume=resume, impossible=out_of_reach)
    except KeyboardInterrupt as exc:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        report, interrupted = getattr(exc, "report", None), True
        if report is None:
            click.echo("error: interrupted; every engine of the run was stopped", err=True)
            sys.exit(130)
    if output is not None and not interrupted:
        write_text(output, json.dumps(report, indent=1) + "\n", True)
    if fmt == "json":
        emit_json(report)
    else:
        for line in summary_lines(report):
            click.echo(line)
        if output is not None:
            click.echo(f"wrote {output} and {trajectories_path(output)}", err=True)
    if interrupted:
        where = f"; continue with --resume -o {output}" if output is not None else ""
        click.echo("error: interrupted; every engine of the run was stopped (the report holds the episodes that "
                   f"had finished{where})", err=True)
        sys.exit(130)


@engine.command("play")
@click.argument("task")
@click.option("--agent", default="human", show_default=True,
              metavar="human|optimal|greedy|random|cmd:PROGRAM|openai:MODEL",
              help="Who acts: you at the terminal (a candidate's number, its words, or an action as JSON), or one of "
                   "the text world's agents (taskverse eval --agent).")
@click.option("--game", default="minetest_game", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="The episode's seed (random agent, --shuffle).")
@click.option("--max-steps", type=click.IntRange(min=1, max=100_000), default=200, show_default=True)
@click.option("--shuffle", is_flag=True, help="List the candidates in an order drawn from the seed.")
@click.option("--view", default="all", show_default=True, metavar="all|relevant|top:K",
              help="Which candidates are listed (taskverse engine eval --view).")
@click.option("--screenshots", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Keep a first-person frame of each step in DIR (frame_<step>.png): the client renders on a "
                   "virtual screen (Debian's xvfb).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def play_command(task: str, agent: str, game: str, seed: int, max_steps: int, shuffle: bool, view: str,
                 screenshots: Path | None, fmt: str) -> None:
    """Play TASK in the real engine one action at a time, seeing what each did (taskverse.engine.episode).

    Each step shows the task's progress by the runtime's own verdict, health and place, the inventory, the nodes
    and mobs around, the last action's outcome and the candidate actions, numbered from 0 as in `taskverse play`.
    At the prompt type a candidate's number, its words, or an action as JSON ({"do": "dig", "node": "oak_log"};
    docs/engine.md lists them); an empty line or end of input stops. A bad action fails its step with the reason.
    Exits 0 when the episode ran (solved or not), 1 when the engine failed, 130 on Ctrl-C; the server is stopped
    in every case.
    """
    import json

    from taskverse.cli.app import _library, resolve_task
    from taskverse.engine.adapter import EngineWorld
    from taskverse.engine.agents import AgentStopped
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.evaluation import check_agent
    from taskverse.textenv.agents import make_agent
    from taskverse.textenv.views import parse_view

    if agent != "human":
        check_agent(agent)
    parse_view(view)
    library = _library()
    episode = EngineEpisode(resolve_task(task), library=library, game=game, screenshots=screenshots)
    world = EngineWorld(episode, max_steps=max_steps, shuffle=shuffle, view=view)
    chooser: Any = None if agent == "human" else make_agent(agent)
    steps: list[dict[str, Any]] = []
    world.begin(seed)
    try:
        if chooser is not None:
            chooser.reset(world, seed)
        result = world.reset(seed)
        while True:
            if fmt == "text":
                click.echo(world.text())
            if result.done or episode.steps >= max_steps:
                break
            if chooser is not None:
                try:
                    result = world.turn(chooser)
                except AgentStopped:
                    break
                if fmt == "text" and result.action is not None:
                    click.echo(f"> {json.dumps(result.action)}")
            else:
                line = click.prompt("action (number, words or JSON; empty stops)", default="", show_default=False,
                                    err=True).strip()
                if not line:
                    break
                try:
                    index = world.resolve(line)
                except TaskverseError as exc:
                    result = world.refuse(exc.message, line)
                else:
                    result = world.play(index)
            steps.append({"step": result.step, "action": result.action, "ok": result.ok, "invalid": result.invalid,
                          "error": result.error, **({"frame": result.frame} if result.frame else {})})
    except KeyboardInterrupt:
        episode.close()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        click.echo("error: interrupted; the engine was stopped", err=True)
        sys.exit(130)
    except click.Abort:  # end of input at the prompt
        pass
    finally:
        report = episode.close()
        if chooser is not None:
            chooser.close()
    if report is None:
        sys.exit(1)
    if fmt == "json":
        emit_json({"task": episode.task.id, "description": episode.description, "game": game, "agent": agent,
                   "success": report.success, "steps": steps, "invalid_steps": episode.invalid_steps,
                   "report": report.model_dump(mode="json")})
    else:
        agrees = "agrees" if report.replay is not None and report.replay.agrees else "DISAGREES"
        click.echo(f"{'solved' if report.success else 'not solved'} in {episode.steps} steps "
                   f"({episode.invalid_steps} invalid); replay {agrees}", err=True)
        if screenshots is not None:
            click.echo(f"frames in {screenshots}", err=True)
    sys.exit(1 if report.error else 0)


@click.command("gap")
@click.argument("text_report", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("engine_report", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def gap_command(text_report: Path, engine_report: Path, fmt: str) -> None:
    """Where an agent that succeeds in the text world fails in the engine, per task and category, and why.

    TEXT_REPORT is `taskverse eval ... -o FILE`'s report, ENGINE_REPORT `taskverse eval --world engine ... -o FILE`'s
    (or `taskverse engine eval`'s), of
    the same tasks. Each task is: both, text only (the gap, with the engine's failure reason), engine only,
    neither, not compiled (with the compiler's reason), or text world only (not in the engine report).
    """
    from taskverse.engine.gap import gap_lines, gap_report, load_report

    report = gap_report(load_report(text_report, "text"), load_report(engine_report, "engine"))
    if fmt == "json":
        emit_json(report)
        return
    for line in gap_lines(report):
        click.echo(line)


if __name__ == "__main__":  # pragma: no cover
    engine()


COMMANDS = [engine, gap_command]
