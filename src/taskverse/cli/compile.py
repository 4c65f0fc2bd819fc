"""``taskverse compile``: a task to a Lua mod and a ready world for the engine, or the library's coverage."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from taskverse.cli.util import emit_json, friendly
from taskverse.errors import TaskverseError


@click.command("compile")
@click.argument("task", required=False)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              help="Write the Craftium environment folder here (games/, mods/, worlds/world/).")
@click.option("--game", default="minetest_game", show_default=True, help="The engine game to compile for.")
@click.option("--coverage", is_flag=True, help="Instead of one task: how many library atoms compile, and why not.")
@click.option("--check", is_flag=True, help="With --coverage: also run luajit -bl and luacheck on every mod.")
@click.option("--force", is_flag=True,
              help="Replace the folder of an earlier compile (one holding mods/taskverse_task/taskverse_task.json).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@friendly
def compile_command(task: str | None, output: Path | None, game: str, coverage: bool, check: bool, force: bool,
                    fmt: str) -> None:
    """Compile TASK (id, description, YAML file or composition) to a Lua mod in a ready world.

    \b
    taskverse compile craft.stick -o out/craft_stick
    taskverse compile "naive(craft wooden_pickaxe) >> mine iron_ore" -o out/chain
    taskverse compile --coverage [--check] [--format json]
    Exits non-zero naming every item, block, mob or biome with no counterpart in the game.
    """  # noqa: D301
    from taskverse.cli.app import _library, resolve_task

    if coverage:
        if task is not None or output is not None:
            raise TaskverseError("--coverage covers the whole library: give no TASK and no -o")
        from taskverse.engine.coverage import coverage as library_coverage

        report = library_coverage(_library(), game, check=check)
        if fmt == "json":
            emit_json(report)
        else:
            _print_coverage(report)
        if check and (report["check"]["luajit_failures"] or report["check"]["luacheck_exit"] != 0):
            sys.exit(1)
        return
    if check:
        raise TaskverseError("--check goes with --coverage")
    if task is None:
        raise TaskverseError("give a TASK to compile (or --coverage)")
    if output is None:
        raise TaskverseError("give an output folder with -o DIR")
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.lua import IR_PATH, write_env
    from taskverse.fileio import check_output, output_folder

    check_output(output, force, folder=True)
    ir = compile_task(resolve_task(task), _library(), game)
    with output_folder(output, force, marker=IR_PATH) as tmp:  # built aside, then moved into place whole
        files = [f.relative_to(tmp) for f in write_env(ir, tmp)]
    if fmt == "json":
        emit_json({"task": ir.id, "game": game, "output": str(output),
                   "files": [str(f) for f in files],
                   "mods": ["taskverse", "taskverse_task", *ir.mods]})
        return
    click.echo(f"wrote {output} ({len(files)} files): {ir.id} for {game}", err=True)


def _print_coverage(report: dict) -> None:  # type: ignore[type-arg]
    click.echo(f"{report['compiled']} of {report['atoms']} atoms compile for {report['game']} "
               f"({100 * report['share']:.1f}%)")
    scratch = report["solvable_from_scratch"]
    click.echo(f"solvable from scratch: {scratch['compiled']} of {scratch['atoms']} compile "
               f"({100 * scratch['share']:.1f}%)")
    click.echo("by verb: " + ", ".join(f"{verb} {v.get('compiled', 0)}/{v['atoms']}"
                                       for verb, v in report["by_verb"].items()))
    click.echo("why the rest do not:")
    for entry in report["reasons"]:
        missing = ", ".join(f"{n} ({c})" for n, c in entry["most_missing"][:5])
        click.echo(f"  {entry['atoms']:5d}  {entry['reason']}: {missing}")
    if "check" in report:
        c = report["check"]
        click.echo(f"checked {c['files']} mods in {c['seconds']:.1f} s: luajit failures "
                   f"{len(c['luajit_failures'])}, luacheck exit {c['luacheck_exit']}")


COMMANDS = [compile_command]
