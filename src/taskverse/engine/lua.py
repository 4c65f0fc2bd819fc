r"""Write a compiled task as Lua: a mod that holds only data and one call into the runtime, in a ready world.

Every string reaches the Lua text through :func:`lua_string`, the one escaping function: it writes a double-quoted
literal in which every byte outside printable ASCII, and every quote and backslash, is a decimal escape, so no
text (a description such as ``]] os.exit() --[[`` or ``"\\n``) can end the literal or the file's comment.

The output is a Craftium environment directory, used by Craftium's loader as it is (it copies the folder
over its run directory, after writing its own ``minetest.conf`` there, so the folder holds no such file)::

    OUT/
      games/minetest_game/        the game, with the engine settings the task needs in its own minetest.conf
      mods/taskverse/             the runtime (a copy of engine/mods/taskverse)
      mods/taskverse_task/        mod.conf + init.lua: the task's data and `taskverse.start(task)`;
                                  taskverse_task.json: the intermediate form (JSON), for tools
      mods/mobs/                  mobs_redo, copied from the engine's mods when the task has mobs
      worlds/world/world.mt       a world that loads those mods
      worlds/world/map_meta.txt   its map generator settings (the engine prefers them to any config file)

Writing the same task twice gives byte-identical files.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from taskverse import __version__
from taskverse.engine.compiler import TASK_MOD
from taskverse.engine.ir import TaskIR
from taskverse.engine.profile import engine_dir
from taskverse.errors import TaskverseError

RUNTIME_MOD = "taskverse"
HARNESS_MOD = "taskverse_harness"
IR_FILE = "taskverse_task.json"
#: Settings of the game's own minetest.conf in a compiled folder besides the task's: the runtime places the
#: player itself, so the game's spawn search (minetest_game's spawn mod) is turned off.
GAME_SETTINGS: dict[str, str | bool | int | float] = {"static_spawnpoint": "0,9,0"}
#: Settings a headless run gets besides the task's: a shorter server step (the harness does one action a step,
#: and the runtime polls every step) and no spawn search. None changes what a task means.
RUN_SETTINGS: dict[str, str | bool | int | float] = {**GAME_SETTINGS, "dedicated_server_step": 0.05}

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KEYWORDS = frozenset(
    "and break do else elseif end false for function goto if in local nil not or repeat return then true "
    "until while".split()
)
_PRINTABLE = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}
_INLINE_WIDTH = 100
#: The longest line the generated Lua may have (engine/.luacheckrc: max_line_length); tabs count as 4.
MAX_LINE = 120


def lua_string(text: str) -> str:
    r"""Return ``text`` as a Lua string literal that evaluates to exactly its UTF-8 bytes.

    Printable ASCII stays as it is; quotes, backslashes, control characters and every non-ASCII byte become
    three-digit decimal escapes (``\034``, ``\092``, ``\010``), which mean the same in Lua 5.1, LuaJIT and later
    Luas and cannot run into a following digit. Nothing in the text can close the literal.

    Example:
        >>> print(lua_string('say "hi"\n'))
        "say \034hi\034\010"
        >>> print(lua_string("]] os.exit() --[["))
        "]] os.exit() --[["

    """
    out = ['"']
    for byte in text.encode("utf-8", errors="surrogatepass"):
        out.append(chr(byte) if byte in _PRINTABLE else f"\\{byte:03d}")
    out.append('"')
    return "".join(out)


def _key(key: str, indent: int) -> str:
    if _IDENTIFIER.match(key) and key not in _KEYWORDS:
        return key
    return f"[{_string(key, indent, MAX_LINE - indent * 4 - 8)}]"


def _pieces(literal: str, width: int) -> list[str]:
    """Cut an escaped literal's body into pieces of at most ``width`` characters, never inside an escape."""
    body = literal[1:-1]
    pieces: list[str] = []
    start = 0
    while start < len(body):
        end = min(len(body), start + width)
        # an escape is a backslash and three digits: a piece must not end inside one
        back = body.rfind("\\", max(start, end - 3), end)
        if back != -1 and end < len(body):
            end = back
        pieces.append(body[start:end])
        start = end
    return pieces or [""]


def _string(text: str, indent: int, room: int) -> str:
    """A string as one literal, or, when longer than ``room``, as literals joined with ``..`` over several lines.

    The pieces are cut from the escaped literal between escapes, so they join to exactly the same bytes; the
    continuation lines are indented one level deeper than ``indent`` and stay within :data:`MAX_LINE`.
    """
    literal = lua_string(text)
    if len(literal) <= room:
        return literal
    width = max(16, MAX_LINE - (indent + 1) * 4 - 8)  # the quotes, " ..", a closing "}," and a margin
    return (" ..\n" + "\t" * (indent + 1)).join(f'"{piece}"' for piece in _pieces(literal, width))


def _line_length(text: str) -> int:
    """The length of the last line of ``text`` as luacheck counts it here (a tab as 4)."""
    last = text.rsplit("\n", 1)[-1]
    return len(last) + 3 * last.count("\t")


def _scalar(value: Any) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TaskverseError(f"cannot write {value!r} as Lua data")
        return repr(value)
    raise TypeError(f"cannot write a {type(value).__name__} as Lua data")


def to_lua(value: Any, indent: int = 0, lead: int = 0) -> str:
    """Write JSON-like data (dicts, lists, strings, numbers, booleans) as a Lua table constructor.

    Dict keys are written in the order given (the IR sorts its maps); small tables stay on one line. ``indent``
    is the level of the line the value starts on and ``lead`` how many characters precede it there: no line
    of the result is longer than :data:`MAX_LINE` (a long string is cut into joined pieces).

    Example:
        >>> print(to_lua({"id": "a.b", "targets": ["stick"], "x y": 1}))
        {id = "a.b", targets = {"stick"}, ["x y"] = 1}

    """
    room = MAX_LINE - indent * 4 - lead - 2  # a "," or "}" may follow on the same line
    if isinstance(value, str):
        return _string(value, indent, room)
    if not isinstance(value, dict | list | tuple):
        return _scalar(value)
    level = indent + 1
    items = []
    if isinstance(value, dict):
        for k, v in value.items():
            if v is None:
                continue
            key = _key(str(k), level)
            used = _line_length("\t" * level + key + " = ")
            if used + 24 > MAX_LINE or (isinstance(v, str) and len(lua_string(v)) > MAX_LINE - used - 2):
                # no room after the key: the value starts on a line of its own, one level deeper
                items.append(f"{key} =\n{chr(9) * (level + 1)}{to_lua(v, level + 1)}")
            else:
                items.append(f"{key} = {to_lua(v, level, used - level * 4)}")
    else:
        items = [to_lua(v, level) for v in value]
    if not items:
        return "{}"
    flat = "{" + ", ".join(items) + "}"
    if "\n" not in flat and len(flat) + indent * 4 <= _INLINE_WIDTH and len(flat) <= room:
        return flat
    pad = "\t" * level
    return "{\n" + "".join(f"{pad}{item},\n" for item in items) + "\t" * indent + "}"


def task_data(ir: TaskIR) -> dict[str, Any]:
    """The IR as the plain data the runtime reads (absent fields are nil in Lua)."""
    data: dict[str, Any] = ir.model_dump(mode="json", exclude_none=True)
    return data


def render_init(ir: TaskIR) -> str:
    """The generated ``init.lua``: a comment, the task as a local table, and the call into the runtime.

    Every line stays within :data:`MAX_LINE` (luacheck's limit), whatever the task's id and description.
    """
    task_id = lua_string(ir.id)
    header = f"-- Generated by taskverse {__version__} from task {task_id} for {ir.game}; do not edit.\n"
    if len(header) > MAX_LINE:
        header = (f"-- Generated by taskverse {__version__} for {ir.game}; do not edit. The task:\n"
                  + "".join(f"--   {piece}\n" for piece in _pieces(task_id, MAX_LINE - 8)))
    return (
        header +
        "-- Data only: the runtime mod `taskverse` does the work (see docs/engine.md).\n"
        f"local task = {to_lua(task_data(ir))}\n\n"
        "taskverse.start(task)\n"
    )


def render_mod_conf(ir: TaskIR) -> str:
    """The generated ``mod.conf`` (the task id matches a pattern that needs no escaping)."""
    depends = ", ".join([RUNTIME_MOD, *ir.mods])
    return f"name = {TASK_MOD}\ndescription = taskverse task {ir.id} for {ir.game}\ndepends = {depends}\n"


def render_mod(ir: TaskIR) -> dict[str, str]:
    """The files of the task's mod folder."""
    return {"mod.conf": render_mod_conf(ir), "init.lua": render_init(ir)}


def world_settings(ir: TaskIR) -> dict[str, str | bool | int | float]:
    """Engine settings for a headless run of the task: the run's own and the task's (its map is in map_meta)."""
    return {**RUN_SETTINGS, **ir.settings}


def _settings_text(settings: dict[str, Any]) -> str:
    from taskverse.engine.binaries import format_settings

    return format_settings(settings)


def runtime_dir() -> Path:
    """The runtime mod's folder (``engine/mods/taskverse``)."""
    return engine_dir() / "mods" / RUNTIME_MOD


def harness_dir() -> Path:
    """The harness mod's folder (``engine/mods/taskverse_harness``)."""
    return engine_dir() / "mods" / HARNESS_MOD


def _copy_mod(source: Path, target: Path) -> None:
    if not (source / "init.lua").is_file():
        raise TaskverseError("not a mod folder (no init.lua)", file=source)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def write_env(ir: TaskIR, out: Path, *, games_dir: Path | None = None) -> list[Path]:
    """Write the task as a Craftium environment directory; return the files written, the game's copy left out.

    ``out`` must be empty, missing, or an earlier output of this function (it is then replaced). The game is
    copied from the engine's games (``games_dir``, default the installed engine's) with the task's engine
    settings added to its ``minetest.conf``; the map generator settings go to the world's ``map_meta.txt``.
    No file sits at the top of the folder, where Craftium's own ``minetest.conf`` goes.
    """
    from taskverse.engine.binaries import GAMES_DIR, INSTALL_HINT, format_map_meta

    out = Path(out)
    if out.exists():
        if not out.is_dir():
            raise TaskverseError("the output must be a folder", file=out)
        if any(out.iterdir()):
            if not (out / "mods" / TASK_MOD / IR_FILE).is_file():
                raise TaskverseError(f"the output folder is not empty and is no earlier output (no "
                                     f"mods/{TASK_MOD}/{IR_FILE}); pick an empty one", file=out)
            shutil.rmtree(out)
    from taskverse.engine.gamegen.build import GENERATED_GAMES, ensure_game

    if games_dir is None and ir.game in GENERATED_GAMES:
        game_source = ensure_game(ir.game)  # a game taskverse generates: its build in the cache
    else:
        game_source = Path(games_dir or GAMES_DIR) / ir.game
    if not (game_source / "game.conf").is_file():
        raise TaskverseError(f"no game {ir.game!r} to copy into the folder; {INSTALL_HINT}", file=game_source)
    mods = out / "mods"
    mods.mkdir(parents=True)
    _copy_mod(runtime_dir(), mods / RUNTIME_MOD)
    task_mod = mods / TASK_MOD
    task_mod.mkdir()
    for name, text in render_mod(ir).items():
        (task_mod / name).write_text(text, encoding="utf-8")
    (task_mod / IR_FILE).write_text(json.dumps(ir.model_dump(mode="json"), indent=1, sort_keys=False) + "\n",
                                    encoding="utf-8")
    loaded = [RUNTIME_MOD, TASK_MOD]
    if "mobs" in ir.mods:
        from taskverse.engine.binaries import MODS_DIR

        source = MODS_DIR / "mobs_redo"
        if source.is_dir():
            _copy_mod(source, mods / "mobs")
        loaded.append("mobs")
    world = out / "worlds" / "world"
    world.mkdir(parents=True)
    world_mt: dict[str, Any] = {"gameid": ir.game.removesuffix("_game"), "backend": "sqlite3",
                                "player_backend": "sqlite3", "auth_backend": "sqlite3",
                                "mod_storage_backend": "sqlite3"}
    world_mt.update({f"load_mod_{name}": True for name in sorted(loaded)})
    (world / "world.mt").write_text(_settings_text(world_mt), encoding="utf-8")
    (world / "map_meta.txt").write_text(format_map_meta(ir.mapgen), encoding="utf-8")
    files = sorted(p for p in out.rglob("*") if p.is_file())
    game = out / "games" / ir.game
    shutil.copytree(game_source, game, ignore=shutil.ignore_patterns("minetest.conf", ".taskverse-digest"))
    (game / "minetest.conf").write_text(game_config(ir, game_source), encoding="utf-8")
    return [*files, game / "minetest.conf"]


def game_config(ir: TaskIR, game_source: Path) -> str:
    """The game's ``minetest.conf`` in a compiled folder: the game's own lines, then the task's settings.

    A game's ``minetest.conf`` holds the game's defaults: they hold unless a config file sets the same key,
    and Craftium's own ``minetest.conf`` sets none of them (the runtime checks that they hold).
    """
    own = game_source / "minetest.conf"
    text = own.read_text(encoding="utf-8") if own.is_file() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    return (text + f"# taskverse: the engine settings task {ir.id} needs\n"
            + _settings_text({**GAME_SETTINGS, **ir.settings}))


def luajit_check(paths: list[Path], workers: int = 4) -> dict[str, str]:
    """Run ``luajit -bl`` (what the engine's LuaJIT accepts) on each file; return file -> error for failures."""
    import shutil as _shutil
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    luajit = _shutil.which("luajit")
    if luajit is None:
        raise TaskverseError("luajit is not installed; run scripts/install-engine.sh")

    def one(path: Path) -> tuple[str, str | None]:
        done = subprocess.run([luajit, "-bl", str(path)], capture_output=True, text=True, timeout=60)
        return str(path), (done.stderr.strip() or "failed") if done.returncode != 0 else None

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return {path: error for path, error in pool.map(one, paths) if error is not None}


def luacheck(paths: list[Path]) -> tuple[int, str]:
    """Run luacheck once over many files with the engine's settings; return its exit code and report.

    Exit code 0 is clean, 1 warnings, 2 errors (see shared/notes/engine.md).
    """
    import shutil as _shutil
    import subprocess

    tool = _shutil.which("luacheck")
    if tool is None:
        raise TaskverseError("luacheck is not installed; run scripts/install-engine.sh")
    config = engine_dir() / ".luacheckrc"
    command = [tool, "--no-color", "--codes", "--config", str(config), "--formatter", "plain", "--", *map(str, paths)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


IR_PATH = f"mods/{TASK_MOD}/{IR_FILE}"
"""Where a compiled folder keeps its intermediate form: the mark of an earlier compile output."""
