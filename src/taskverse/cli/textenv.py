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

from taskverse.cli.agent_options import agent_options, make_agent_options
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
MAX_STEPS = 100_000
"""The highest step limit (an episode of a language model at 100,000 steps is already days of requests)."""
MAX_EPISODES = 100_000
"""The most episodes per task."""
MAX_ENGINE_EPISODES = 1000
"""The most episodes per task in the engine (taskverse engine eval's limit)."""
MAX_ENGINE_WORKERS = 16
"""The most servers at once in the engine (taskverse engine eval's limit)."""
TEXT_ONLY = ("trajectories", "observations", "concurrency", "show_prompt", "progress")
"""Options of ``taskverse eval`` with no meaning in the engine (its trajectories go next to the report)."""
ENGINE_ONLY = ("game", "screenshots", "fresh_server")
"""Options of ``taskverse eval`` with no meaning in the text world."""


@click.command("play")
@click.argument("task")
@click.option("--seed", type=SEED, default=None, help="Seed of the episode (chance yields with --chance sample).")
@click.option("--max-steps", type=click.IntRange(min=1, max=MAX_STEPS), default=100, show_default=True,
              help="Step limit.")
@click.option("--init", "initialization", type=click.Choice(["auto", "naive", "task"]), default="auto",
              show_default=True, help="Start: naive unless the task has init(...); or always naive; or the task's.")
@click.option("--chance", type=click.Choice(["sure", "sample"]), default="sure", show_default=True,
              help="Chance yields as a plan counts on them (what comes with 95% probability), or drawn at random.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: the session goes to stderr and one JSON summary to stdout.")
@_friendly_lazy
def play(task: str, seed: int | None, max_steps: int, initialization: str, chance: str, fmt: str) -> None:
    """Play TASK in the terminal as in MCU Figure 5: type a candidate's number or an action's name.

    TASK is an id, a description, a composition ("craft stick & hunt sheep"), a YAML file or a task phrase
    ("hunt a pig in the savanna", docs/phrases.md). Reads one answer
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
              help="Tasks to evaluate (ids, descriptions, compositions, task phrases); more may follow as arguments.")
@click.option("--agent", metavar="random|greedy|optimal|cmd:PROGRAM|openai:MODEL",
              help="The planner: a built-in agent, an external program speaking JSON lines, or a language model "
                   "behind an OpenAI-compatible endpoint (docs/textenv.md).")
@click.option("--episodes", type=click.IntRange(min=1, max=MAX_EPISODES), default=1, show_default=True,
              help="Episodes per task.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Base seed (episode seeds follow from it).")
@click.option("--max-steps", type=click.IntRange(min=1, max=MAX_STEPS), default=None,
              help="Step limit of every task [default: the limit a suite records per task, else 100; in the "
                   "engine 1000].")
@click.option("--init", "initialization", type=click.Choice(["auto", "naive", "task"]), default="auto",
              show_default=True, help="Start of each episode (see taskverse play --help).")
@click.option("--chance", type=click.Choice(["sure", "sample"]), default=None,
              help="Chance yields as a plan counts on them (what comes with 95% probability), or drawn at random "
                   "[default: sure; in the engine, which draws every drop itself, only sample].")
@click.option("--budget", type=click.IntRange(min=1, max=10_000_000), default=None,
              help="States the optimal planner may expand to prove a plan shortest (default 1000).")
@click.option("--view", default="all", show_default=True, metavar="all|relevant|top:K",
              help="Which candidates observations list: all, those on some way to the target, or the K the "
                   "planner ranks cheapest.")
@click.option("--shuffle", is_flag=True,
              help="List the candidates in an order drawn from each episode's seed, not the view's own (top:K "
                   "ranks the planner's favourite first).")
@click.option("--impossible", type=click.IntRange(min=0, max=1000), default=0, show_default=True, metavar="N",
              help="Mix in N tasks the world model proves out of reach (drawn with --seed) and offer the agent a "
                   "'give up' candidate; the report scores saying impossible by precision, recall and F1.")
@click.option("--slice", "task_slice", metavar="START:STOP",
              help="Only the tasks START to STOP-1 of the suite or task list (from 0, as in Python: 0:10, 10:, :5).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the JSON report here (and the trajectories next to it, REPORT.trajectories.jsonl).")
@click.option("--trajectories", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the trajectories (JSON Lines, one episode a line) here instead.")
@click.option("--observations/--no-observations", default=True, show_default=True,
              help="Keep each step's text observation in the trajectories.")
@click.option("--resume", is_flag=True, help="Continue the interrupted run whose report is -o (same arguments).")
@click.option("--force", is_flag=True, help="Overwrite an existing report and its trajectories.")
@click.option("--workers", type=click.IntRange(min=1, max=256), default=None,
              help="Episodes run in parallel in worker processes [default: one per CPU, at most 8 and a fourth "
                   "of the episodes; 1 for cmd: agents]; in the engine at most 16, each with its own server and "
                   "client [default: 1]. With --ray: a local Ray instance's CPUs.")
@click.option("--ray", "use_ray", is_flag=True,
              help="Run the episodes on Ray: the cluster at RAY_ADDRESS (setting it is enough), else a local "
                   "instance (pip install 'taskverse[ray]').")
@click.option("--concurrency", type=click.IntRange(min=1, max=256), default=1, show_default=True,
              help="Episodes under way at once in each worker, one thread each: with openai:, that many requests "
                   "in flight, which a model server batches.")
@click.option("--show-prompt", is_flag=True,
              help="Print the prompt template (--prompt, else the default) and exit; with --tasks or --suite, "
                   "the messages the first episode's first step sends, filled in.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="A progress bar on stderr.")
@click.option("--world", type=click.Choice(["text", "engine"]), default="text", show_default=True,
              help="Where the agent acts: the text world (SkillForge-text), or the real engine a step at a time "
                   "(as taskverse engine eval: the same agents, tasks and report; docs/engine.md).")
@click.option("--game", default=None, metavar="GAME",
              help="With --world engine: the engine game [default: minetest_game].")
@click.option("--screenshots", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="With --world engine: keep a first-person frame of every step in DIR/<task>-<episode>/.")
@click.option("--fresh-server", is_flag=True,
              help="With --world engine: a new server on a fresh world for every episode (by default an episode "
                   "starts again in the running server where it can; the report is the same).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@agent_options
@_friendly_lazy
def eval_command(more_tasks: tuple[str, ...], suite: str | None, tasks: tuple[str, ...], agent: str | None,
                 episodes: int, seed: int, max_steps: int | None, initialization: str, chance: str,
                 budget: int | None, view: str, shuffle: bool, impossible: int, task_slice: str | None,
                 output: Path | None,
                 trajectories: Path | None, observations: bool, resume: bool, force: bool, workers: int | None,
                 use_ray: bool, concurrency: int, show_prompt: bool, progress: bool, world: str, game: str | None,
                 screenshots: Path | None, fresh_server: bool, fmt: str, agent_args: dict[str, Any]) -> None:
    """Evaluate a planner on a suite or on tasks: success rate, steps, plan efficiency, per category.

    Every episode's trajectory (actions, observations, answers, reasoning, invalid actions, why it ended) goes to
    JSON Lines next to the report. Ctrl-C, or an agent that fails, leaves a valid partial report: --resume
    continues it. Exits 0 when the run completed, 130 when it was interrupted.

    With --world engine the same agents act a step at a time in the real engine (the one implementation of
    taskverse engine eval: its report, trajectories, --resume and --workers); tasks that do not compile for the
    game are listed with the reason. Options of one world only (--trajectories, --concurrency, --show-prompt,
    --observations, --progress; --game, --screenshots, --fresh-server) are refused in the other. The two
    worlds' reports of the same tasks and --init give the grounding gap: taskverse gap TEXT.json ENGINE.json.

    \b
    taskverse eval --tasks "craft stick" "craft bed" --agent greedy
    taskverse eval --suite SkillForge-Chain --agent optimal --episodes 3 -o report.json
    taskverse eval --tasks craft.torch --agent cmd:"python examples/agents/greedy_agent.py" --format json
    taskverse eval --suite SkillForge-Chain --agent openai:qwen2.5:7b --base-url http://127.0.0.1:11434/v1 \\
        --view top:10 -o qwen.json
    taskverse eval --suite SkillForge-Chain --agent optimal --init naive --world engine --game taskverse_mc \\
        --workers 2 -o engine.json
    """  # noqa: D301
    from taskverse.errors import TaskverseError
    from taskverse.textenv.agents import DEFAULT_BUDGET, check_agent_spec
    from taskverse.textenv.env import shared_library
    from taskverse.textenv.evaluation import (
        EvalSettings,
        evaluate,
        named_tasks,
        suite_tasks,
        summary_lines,
        trajectories_path,
    )
    from taskverse.textenv.views import parse_view
    from taskverse.workers import choose_backend

    references = [*tasks, *more_tasks]
    _check_world_options(world)
    if world == "engine":
        from taskverse.cli.engine import evaluate_in_engine
        from taskverse.engine.evaluation import DEFAULT_BUDGET as ENGINE_BUDGET
        from taskverse.engine.evaluation import DEFAULT_MAX_STEPS as ENGINE_MAX_STEPS

        if agent is None:
            raise TaskverseError("give the agent to evaluate: --agent random|greedy|optimal|cmd:PROGRAM|openai:MODEL")
        if episodes > MAX_ENGINE_EPISODES:
            raise TaskverseError(f"--episodes {episodes}: the engine plays at most {MAX_ENGINE_EPISODES} per task")
        if workers is not None and workers > MAX_ENGINE_WORKERS:
            raise TaskverseError(f"--workers {workers}: the engine runs at most {MAX_ENGINE_WORKERS} servers at once")
        evaluate_in_engine(suite_name=suite, task_refs=references, agent_spec=agent, episodes=episodes, seed=seed,
                           max_steps=max_steps or ENGINE_MAX_STEPS, workers=workers or 1, use_ray=use_ray,
                           game=game or "minetest_game", budget=budget or ENGINE_BUDGET, shuffle=shuffle,
                           initialization=initialization, view=view, chance=chance or "sample",
                           impossible=impossible, screenshots=screenshots, fresh_server=fresh_server, output=output,
                           resume=resume, force=force, fmt=fmt, agent_args=agent_args,
                           task_slice=None if task_slice is None else _parse_slice(task_slice))
        return
    chance = chance or "sure"
    prompt: Path | None = agent_args["prompt"]
    if show_prompt and suite is None and not references:
        from taskverse.textenv.llm import default_prompt_text

        if prompt is None:
            click.echo(default_prompt_text(), nl=False)
        else:
            from taskverse.fileio import read_text
            from taskverse.textenv.llm import MAX_PROMPT_BYTES, PromptTemplate

            text = read_text(prompt, "prompt template", MAX_PROMPT_BYTES)
            PromptTemplate.parse(text, str(prompt))
            click.echo(text, nl=False)
        return
    if agent is None and not show_prompt:
        raise TaskverseError("give the agent to evaluate: --agent random|greedy|optimal|cmd:PROGRAM|openai:MODEL")
    if agent is not None:
        check_agent_spec(agent)
    parse_view(view)
    if (suite is None) == (not references):
        raise TaskverseError("give either --suite NAME or --tasks TASK... (one of the two)")
    options = make_agent_options(agent, agent_args, give_up=impossible > 0)
    if resume and output is None:
        raise TaskverseError("--resume needs the report to continue: -o REPORT.json")
    if resume and force:
        raise TaskverseError("--resume continues a report and --force starts it again: give one of the two")
    if output is not None or trajectories is not None:
        from taskverse.fileio import check_output, same_file

        paths = [p for p in (output, trajectories or (trajectories_path(output) if output else None)) if p]
        if len(paths) == 2 and same_file(*paths):
            raise TaskverseError("--trajectories cannot be the report's own file (-o); give another path",
                                 file=paths[1])
        for path in paths:
            check_output(path, force or resume)  # before the episodes run, not after
    library = shared_library()
    chosen = suite_tasks(suite, library) if suite is not None else named_tasks(
        [_task_argument(r) for r in references], library)
    if task_slice is not None:
        chosen = chosen[_parse_slice(task_slice)]
        if not chosen:
            raise TaskverseError(f"--slice {task_slice} leaves no task (there are "
                                 f"{len(suite_tasks(suite, library)) if suite else len(references)})")
    if impossible:
        from taskverse.textenv.evaluation import EvalTask
        from taskverse.textenv.impossible import impossible_tasks

        chosen = chosen + [EvalTask(t.reference, t.target, t.max_steps, impossible=t.reason)
                           for t in impossible_tasks(library, impossible, seed, chosen, initialization)]
    if show_prompt:
        _show_prompt(chosen[0], options, view, shuffle, seed, initialization, max_steps, library)
        return
    assert agent is not None
    if workers is None and agent.startswith("cmd:"):
        workers = 1  # an external program may hold a GPU or a model: one copy unless asked for more
    backend = choose_backend(workers, use_ray, len(chosen) * episodes)
    settings = EvalSettings(agent=agent, max_steps=max_steps or 100, override_steps=max_steps is not None,
                            chance=chance, initialization=initialization, budget=budget or DEFAULT_BUDGET,
                            view=view, shuffle=shuffle, observations=observations, options=options,
                            concurrency=concurrency, give_up=impossible > 0)
    interrupted = False
    try:
        report = evaluate(settings, chosen, episodes=episodes, seed=seed, suite=suite, progress=progress,
                          library=library, backend=backend, output=output, trajectories=trajectories,
                          resume=resume)
    except KeyboardInterrupt:
        interrupted = True
        click.echo("interrupted: " + (f"the partial report is in {output}; continue with --resume"
                                      if output is not None else "nothing written (no -o)"), err=True)
        sys.exit(130)
    if output is not None:
        click.echo(f"wrote {output} and {report['trajectories']}", err=True)
    if fmt == "json":
        from taskverse.cli.util import emit_json

        emit_json(report)
    else:
        for line in summary_lines(report):
            click.echo(line)
    if interrupted:  # pragma: no cover - the interrupt exits above
        sys.exit(130)


def _check_world_options(world: str) -> None:
    """Refuse, in one line, an option given on the command line that means nothing in ``world``."""
    from click.core import ParameterSource

    from taskverse.errors import TaskverseError

    context = click.get_current_context()
    other = "engine" if world == "text" else "text"
    for name in ENGINE_ONLY if world == "text" else TEXT_ONLY:
        if context.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            flag = next(o for p in context.command.params if p.name == name for o in p.opts if o.startswith("--"))
            raise TaskverseError(f"{flag} is for --world {other}; the {world} world has no such option")


def _parse_slice(text: str) -> slice:
    """``START:STOP`` (either may be left out) as a slice; a usage error otherwise."""
    from taskverse.errors import TaskverseError

    start, colon, stop = text.partition(":")
    parts = (start.strip(), stop.strip())
    if not colon or not all(not p or (p.isascii() and p.isdigit() and len(p) <= 9) for p in parts):
        raise TaskverseError(f"--slice {text[:40]!r}: expected START:STOP with whole numbers from 0 (0:10, 10:, :5)")
    return slice(int(parts[0]) if parts[0] else None, int(parts[1]) if parts[1] else None)


def _show_prompt(task: Any, options: Any, view: str, shuffle: bool, seed: int, initialization: str,
                 max_steps: int | None, library: Any) -> None:
    """Print the messages the first step of ``task``'s first episode sends (seeded as the run would be)."""
    from taskverse.textenv.env import SkillForgeTextEnv
    from taskverse.textenv.llm import PromptTemplate, few_shot_text, prompt_fields, step_messages

    env = SkillForgeTextEnv(task=task.target.expression, view=view, shuffle=shuffle, plan_info=False,
                            initialization=initialization,  # type: ignore[arg-type]
                            max_steps=max_steps or task.max_steps or 100, library=library)
    env.reset(seed=seed, options={"task": task.target})
    examples = few_shot_text(options.few_shot) if options.few_shot is not None else ""
    messages = step_messages(PromptTemplate.load(options.prompt),
                             prompt_fields(env, options.history, options.give_up), options, examples)
    for message in messages:
        click.echo(f"[{message['role']}]")
        click.echo(message["content"])


def _task_argument(reference: str) -> Any:
    """A TASK argument as the environment takes it (a path stays a path, checked; text stays text).

    A task phrase (``hunt a pig in the savanna``) is read into its composition.
    """
    from taskverse.cli.app import task_or_phrase

    return task_or_phrase(reference)


COMMANDS = [play, eval_command]
