"""``taskverse plan``: the one planner's plan for a task over the game model, by steps or by game time."""

from __future__ import annotations

import click

from taskverse.cli.util import emit_json, friendly


@click.command("plan")
@click.argument("task")
@click.option("--objective", type=click.Choice(["steps", "time"]), default="steps", show_default=True,
              help="What the plan minimises: the number of actions, or the estimated game time.")
@click.option("--budget", type=click.IntRange(min=1, max=10_000_000), default=None,
              help="States the planner may expand to prove the plan optimal [default: 1000; 1..10,000,000].")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def plan_command(task: str, objective: str, budget: int | None, fmt: str) -> None:
    """Plan TASK (id, description, YAML file or composition) from its own start.

    An atom starts from its initialization; naive(TASK) from an empty inventory at a random spawn. The plan is
    a list of atom actions as SkillForge-text takes them, with its step count, its estimated game time and
    whether the planner proved it optimal (else it is the best found within the budget).

    \b
    taskverse plan "naive(craft iron_sword)"
    taskverse plan "naive(craft diamond_pickaxe)" --objective time --format json
    """  # noqa: D301
    from taskverse.cli.app import _library, task_or_phrase
    from taskverse.textenv.plans import DEFAULT_BUDGET, plan_task

    report = plan_task(task_or_phrase(task), _library(), objective, budget or DEFAULT_BUDGET)  # type: ignore[arg-type]
    if fmt == "json":
        emit_json(report.to_json())
        return
    data = report.to_json()
    verdict = "proven optimal" if report.proven else "best found within the budget (not proven optimal)"
    click.echo(f"{report.description}: {report.steps} steps, about {data['game_time_seconds']:g} s of game time, "
               f"{verdict} by {objective}")
    for number, (atom, frames) in enumerate(zip(report.descriptions, report.frames, strict=True), start=1):
        click.echo(f"{number:>4}. {atom:<40} {frames / 20:>7.1f} s")


COMMANDS = [plan_command]
