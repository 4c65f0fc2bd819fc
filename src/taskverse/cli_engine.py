"""``taskverse engine ...``: whether the Minetest engine is installed, and dumping a game's registry.

The group is added to the main command in ``taskverse.cli`` (``main.add_command(engine)``); it also runs on
its own as ``python -m taskverse.cli_engine``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from taskverse.errors import TaskverseError

F = TypeVar("F", bound=Callable[..., Any])


def _friendly(func: F) -> F:
    """Turn TaskverseError into one clean line on stderr and exit code 2 (as ``taskverse.cli.friendly``)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TaskverseError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _emit_json(data: Any) -> None:
    import json

    click.echo(json.dumps(data, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def engine() -> None:
    """Check the Minetest engine installation and dump a game's registry."""


@engine.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_friendly
def check(fmt: str) -> None:
    """Say whether the engine is installed and which version; how to install it if not.

    Exits 0 when the server is installed, 1 when it is not.
    """
    from taskverse.engine import engine_info

    info = engine_info()
    if fmt == "json":
        _emit_json(info.model_dump(mode="json"))
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
@click.option("--timeout", type=float, default=60.0, show_default=True, help="Seconds the engine may run.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_friendly
def dump(game: str, output: Path | None, timeout: float, fmt: str) -> None:
    """Run the engine once with the dump mod and write the game's registry.json and ENGINE_VERSION."""
    from taskverse.gameprofile import dump_registry, profile_dir, write_profile

    registry, version, seconds = dump_registry(game, timeout=timeout)
    files = write_profile(registry, version, output or profile_dir(game))
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
        _emit_json({"game": game, "engine_version": version, "seconds": round(seconds, 3),
                    "files": [str(f) for f in files], "counts": counts})
        return
    click.echo(", ".join(f"{v} {k}" for k, v in counts.items()))
    click.echo(f"wrote {', '.join(str(f) for f in files)} (Minetest {version}, {seconds:.2f} s)", err=True)


if __name__ == "__main__":  # pragma: no cover
    engine()


COMMANDS = [engine]
