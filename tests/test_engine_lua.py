"""Every Lua file under engine/mods and engine/gamegen passes what the engine's LuaJIT accepts and luacheck
(shared/notes/engine.md)."""

from __future__ import annotations

import doctest
import subprocess

import pytest

from engine_support import ENGINE_DIR, need_engine

LUA_FILES = sorted([*(ENGINE_DIR / "mods").rglob("*.lua"), *(ENGINE_DIR / "gamegen").rglob("*.lua")])
LUACHECK_CONFIG = ENGINE_DIR / ".luacheckrc"


def test_there_is_lua_to_check():
    mods = {path.parent.name for path in LUA_FILES if path.parent.parent == ENGINE_DIR / "mods"}
    assert {"taskverse_dump", "taskverse", "taskverse_harness"} <= mods
    for mod in mods:
        assert (ENGINE_DIR / "mods" / mod / "mod.conf").read_text().startswith(f"name = {mod}\n")


@pytest.mark.parametrize("path", LUA_FILES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_luajit_compiles_it(path):
    need_engine("luajit")
    done = subprocess.run(["luajit", "-bl", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_luacheck_is_clean():
    need_engine("luacheck")
    done = subprocess.run(["luacheck", "--no-color", "--config", str(LUACHECK_CONFIG), "--", *map(str, LUA_FILES)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_generated_mods_use_only_locals_and_known_globals():
    need_engine("luacheck")
    # the config allows reading the engine's globals only: a generated mod that set a global would fail
    text = LUACHECK_CONFIG.read_text()
    assert "globals = {" not in text.replace("read_globals = {", "")


@pytest.mark.parametrize("module", [f"taskverse.engine.{name}" for name in
                                    ("binaries", "profile", "lua", "compiler", "harness", "model", "planner")])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0
