"""``taskverse play`` and ``taskverse eval``: the text-only planner (SkillForge-text, MCU Appendix D).

The commands are added to the main command by ``taskverse.cli.main`` (it reads ``COMMANDS``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from taskverse.cli.util import SEED

F = TypeVar("F", bound=Callable[..., Any])


def _friendly_lazy(func: F) -> F:
    """``taskverse.cli.main.friendly``, looked up when the command runs (that module imports this one)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from taskverse.cli.util import friendly

        return friendly(func)(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


SEPARATOR = "#" * 36
QUIT_WORDS = {"q", "quit", "exit"}
HELP_WORDS = {"?", "h", "help"}
PROMPT = "Input the No. or name of the action: "


@click.command("play")
@click.argument("task")
@click.option("--seed", type=SEED, default=None, help="Seed of the episode (chance yields with --chance sample).")
@click.option("--max-steps", type=click.IntRange(min=1), default=100, show_default=True, help="Step limit.")
@click.option("--init", "initialization", type=click.Choice(["auto", "naive", "task"]), default="auto",
              show_default=True, help="Start: naive unless the task has init(...); or always naive; or the task's.")
@click.option("--chance", type=click.Choice(["expected", "sample"]), default="expected", show_default=True,
              help="Chance yields at their expected rate, or drawn at random.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: the session goes to stderr and one JSON summary to stdout.")
@_friendly_lazy
def play(task: str, seed: int | None, max_steps: int, initialization: str, chance: str, fmt: str) -> None:
    """Play TASK in the terminal as in MCU Figure 5: type a candidate's number or an action's name.

    TASK is an id, a description, a composition ("craft stick & hunt sheep") or a YAML file. Reads one answer
    per line from stdin (a terminal or a pipe); "help" lists the commands, "quit" (or the end of input) stops.
    A line longer than 4096 characters is ignored with an error; after 100,000 lines the session stops.
    Exits 0 when the task is done, 1 when it is not.
    """
    from taskverse.errors import TaskverseError
    from taskverse.fileio import MAX_INPUT_LINES, read_line
    from taskverse.textenv.env import SkillForgeTextEnv, resolve_action_text

    out = sys.stderr if fmt == "json" else sys.stdout
    env = SkillForgeTextEnv(task=_task_argument(task), max_steps=max_steps,
                            initialization=initialization, chance=chance)  # type: ignore[arg-type]
    text, info = env.reset(seed=seed)
    echo = not sys.stdin.isatty()
    reason = "input ended"
    click.echo(text, file=out)
    lines = 0
    while True:
        if info["success"]:
            reason = "done"
            break
        if info["steps"] >= max_steps:
            reason = "step limit"
            break
        click.echo(PROMPT, nl=False, file=out)
        lines += 1
        if lines > MAX_INPUT_LINES:
            click.echo("", file=out)
            reason = "input limit"
            break
        try:
            line = read_line(sys.stdin)  # bounded: a 50 MB line costs no more memory than a short one
        except TaskverseError as exc:
            click.echo(f"error: {exc}", file=out)
            continue
        if line is None:
            click.echo("", file=out)
            break
        answer = line.strip()
        if answer.lower() in QUIT_WORDS:
            reason = "quit"
            break
        if answer.lower() in HELP_WORDS or not answer:
            click.echo("Type a candidate's number (e.g. 0), an action's name (e.g. craft stick) or id "
                       "(e.g. craft.stick); 'quit' stops.", file=out)
            continue
        try:
            action = resolve_action_text(env, answer)
        except TaskverseError as exc:
            click.echo(f"error: {exc}", file=out)
            continue
        if echo:
            click.echo(f"{env.candidates().index(action)}: {env.rules.descriptions[action]}", file=out)
        text, _, _, _, info = env.step(action)
        click.echo(SEPARATOR, file=out)
        click.echo(text, file=out)
    optimal = info.get("optimal_steps")
    summary = {"task": env.target.id, "description": env.target.description, "success": bool(info["success"]),
               "steps": info["steps"], "optimal_steps": optimal, "optimal_proven": info.get("optimal_proven"),
               "actions": env.trajectory, "ended": reason}
    if info["success"]:
        shortest = f" (shortest plan: {optimal})" if optimal is not None else ""
        click.echo(f"Done: {env.target.description} in {info['steps']} steps{shortest}.", file=out)
    elif reason == "step limit":
        click.echo(f"Step limit reached ({max_steps}) before the task was done.", file=out)
    if fmt == "json":
        from taskverse.cli.util import emit_json

        emit_json(summary)
    sys.exit(0 if info["success"] else 1)


@click.command("eval")
@click.argument("more_tasks", nargs=-1, metavar="[TASK]...")
@click.option("--suite", help="A suite in benchmarks/ (SkillForge, SkillForge-Chain, ...) or a suite YAML file.")
@click.option("--tasks", "tasks", multiple=True, metavar="TASK",
              help="Tasks to evaluate (ids, descriptions, compositions); more may follow as arguments.")
@click.option("--agent", required=True, metavar="random|greedy|optimal|cmd:PROGRAM",
              help="The planner: a built-in agent, or an external program speaking JSON lines (docs/textenv.md).")
@click.option("--episodes", type=click.IntRange(min=1), default=1, show_default=True, help="Episodes per task.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Base seed (episode seeds follow from it).")
@click.option("--max-steps", type=click.IntRange(min=1), default=100, show_default=True, help="Step limit.")
@click.option("--init", "initialization", type=click.Choice(["auto", "naive", "task"]), default="auto",
              show_default=True, help="Start of each episode (see taskverse play --help).")
@click.option("--chance", type=click.Choice(["expected", "sample"]), default="expected", show_default=True,
              help="Chance yields at their expected rate, or drawn at random.")
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="States the optimal planner may expand to prove a plan shortest (default 1000).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the JSON report here.")
@click.option("--force", is_flag=True, help="Replace an existing report file.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="A progress bar on stderr.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_friendly_lazy
def eval_command(more_tasks: tuple[str, ...], suite: str | None, tasks: tuple[str, ...], agent: str, episodes: int,
                 seed: int, max_steps: int, initialization: str, chance: str, budget: int | None,
                 output: Path | None, force: bool, progress: bool, fmt: str) -> None:
    """Evaluate a planner on a suite or on tasks: success rate, steps, plan efficiency, per category.

    \b
    taskverse eval --tasks "craft stick" "craft bed" --agent greedy
    taskverse eval --suite SkillForge-Chain --agent optimal --episodes 3 -o report.json
    taskverse eval --tasks craft.torch --agent cmd:"python examples/agents/greedy_agent.py" --format json
    """  # noqa: D301
    import json

    from taskverse.errors import TaskverseError
    from taskverse.textenv.agents import DEFAULT_BUDGET, check_agent_spec
    from taskverse.textenv.env import shared_library
    from taskverse.textenv.evaluation import evaluate, named_tasks, suite_tasks, summary_lines

    check_agent_spec(agent)
    if output is not None:
        from taskverse.fileio import check_output

        check_output(output, force)  # before the episodes run, not after
    references = [*tasks, *more_tasks]
    if (suite is None) == (not references):
        raise TaskverseError("give either --suite NAME or --tasks TASK... (one of the two)")
    library = shared_library()
    chosen = suite_tasks(suite, library) if suite is not None else named_tasks(
        [_task_argument(r) for r in references], library)
    report = evaluate(agent, chosen, episodes=episodes, seed=seed, max_steps=max_steps, chance=chance,
                      initialization=initialization, suite=suite, progress=progress, library=library,
                      budget=budget or DEFAULT_BUDGET)
    if output is not None:
        from taskverse.fileio import write_text

        write_text(output, json.dumps(report, indent=2) + "\n", force=force)
        click.echo(f"wrote {output}", err=True)
    if fmt == "json":
        from taskverse.cli.util import emit_json

        emit_json(report)
    else:
        for line in summary_lines(report):
            click.echo(line)


def _task_argument(reference: str) -> Any:
    """A TASK argument as the environment takes it (a path stays a path, text stays text).

    A task file is checked first as every command checks one (unknown names with close matches), so play and
    eval refuse what show and validate refuse.
    """
    if reference.endswith((".yaml", ".yml")):
        from taskverse.cli.app import task_from_file

        task_from_file(Path(reference))
    return reference


COMMANDS = [play, eval_command]
