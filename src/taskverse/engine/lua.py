r"""Write a compiled task as Lua: a mod that holds only data and one call into the runtime, in a ready world.

Every string reaches the Lua text through :func:`lua_string`, the one escaping function: it writes a double-quoted
literal in which every byte outside printable ASCII, and every quote and backslash, is a decimal escape, so no
text (a description such as ``]] os.exit() --[[`` or ``"\\n``) can end the literal or the file's comment.

The output is a Craftium environment directory::

    OUT/
      mods/taskverse/          the runtime (a copy of engine/mods/taskverse)
      mods/taskverse_task/     mod.conf + init.lua: the task's data and `taskverse.start(task)`
      mods/mobs/               mobs_redo, copied from the engine's mods when the task has mobs
      worlds/world/world.mt    a world that loads those mods
      minetest.conf            the engine settings the task needs (pass them as Craftium's minetest_conf)
      taskverse_task.json      the intermediate form (JSON), for tools

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
#: Settings every compiled world runs with (see engine/README.md: the registry was dumped with them).
WORLD_SETTINGS: dict[str, str | bool | int | float] = {
    "mg_name": "flat",
    "mgflat_spflags": "nolakes,nohills,nocaverns",
    # no caves or dungeons under the spawn or a search's spot: a player must not fall through the floor
    "mg_flags": "nocaves,nodungeons",
    "fixed_map_seed": 1,
    "static_spawnpoint": "0,9,0",
    "time_speed": 72,
    # a shorter server step: the harness does one action a step, and the runtime polls every step
    "dedicated_server_step": 0.05,
}

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KEYWORDS = frozenset(
    "and break do else elseif end false for function goto if in local nil not or repeat return then true "
    "until while".split()
)
_PRINTABLE = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}
_INLINE_WIDTH = 100


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


def _key(key: str) -> str:
    if _IDENTIFIER.match(key) and key not in _KEYWORDS:
        return key
    return f"[{lua_string(key)}]"


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
    if isinstance(value, str):
        return lua_string(value)
    raise TypeError(f"cannot write a {type(value).__name__} as Lua data")


def to_lua(value: Any, indent: int = 0) -> str:
    """Write JSON-like data (dicts, lists, strings, numbers, booleans) as a Lua table constructor.

    Dict keys are written in the order given (the IR sorts its maps); small tables stay on one line.

    Example:
        >>> print(to_lua({"id": "a.b", "targets": ["stick"], "x y": 1}))
        {id = "a.b", targets = {"stick"}, ["x y"] = 1}

    """
    if isinstance(value, dict):
        items = [f"{_key(str(k))} = {to_lua(v, indent + 1)}" for k, v in value.items() if v is not None]
    elif isinstance(value, list | tuple):
        items = [to_lua(v, indent + 1) for v in value]
    else:
        return _scalar(value)
    if not items:
        return "{}"
    flat = "{" + ", ".join(items) + "}"
    if "\n" not in flat and len(flat) + indent * 4 <= _INLINE_WIDTH:
        return flat
    pad = "\t" * (indent + 1)
    return "{\n" + "".join(f"{pad}{item},\n" for item in items) + "\t" * indent + "}"


def task_data(ir: TaskIR) -> dict[str, Any]:
    """The IR as the plain data the runtime reads (absent fields are nil in Lua)."""
    data: dict[str, Any] = ir.model_dump(mode="json", exclude_none=True)
    return data


def render_init(ir: TaskIR) -> str:
    """The generated ``init.lua``: a comment, the task as a local table, and the call into the runtime."""
    return (
        f"-- Generated by taskverse {__version__} from task {lua_string(ir.id)} for {ir.game}; do not edit.\n"
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
    """Engine settings for a run of the task: the shared world settings and the game's own."""
    return {**WORLD_SETTINGS, **ir.settings}


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


def write_env(ir: TaskIR, out: Path) -> list[Path]:
    """Write the task as a Craftium environment directory; return the files written.

    ``out`` must be empty, missing, or an earlier output of this function (it is then replaced).
    """
    out = Path(out)
    if out.exists():
        if not out.is_dir():
            raise TaskverseError("the output must be a folder", file=out)
        if any(out.iterdir()):
            if not (out / IR_FILE).is_file():
                raise TaskverseError(f"the output folder is not empty and holds no {IR_FILE}; pick an empty one",
                                     file=out)
            shutil.rmtree(out)
    mods = out / "mods"
    mods.mkdir(parents=True)
    _copy_mod(runtime_dir(), mods / RUNTIME_MOD)
    task_mod = mods / TASK_MOD
    task_mod.mkdir()
    for name, text in render_mod(ir).items():
        (task_mod / name).write_text(text, encoding="utf-8")
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
    (out / "minetest.conf").write_text(_settings_text(world_settings(ir)), encoding="utf-8")
    (out / IR_FILE).write_text(json.dumps(ir.model_dump(mode="json"), indent=1, sort_keys=False) + "\n",
                               encoding="utf-8")
    return sorted(p for p in out.rglob("*") if p.is_file())


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
