"""Every Lua file under engine/mods passes what the engine's LuaJIT accepts and luacheck (shared/notes/engine.md)."""

from __future__ import annotations

import doctest
import subprocess

import pytest

from engine_support import ENGINE_DIR, need_engine

LUA_FILES = sorted((ENGINE_DIR / "mods").rglob("*.lua"))


def test_there_is_lua_to_check():
    assert ENGINE_DIR / "mods" / "taskverse_dump" / "init.lua" in LUA_FILES


@pytest.mark.parametrize("path", LUA_FILES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_luajit_compiles_it(path):
    need_engine("luajit")
    done = subprocess.run(["luajit", "-bl", str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", LUA_FILES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_luacheck_is_clean(path):
    need_engine("luacheck")
    done = subprocess.run(["luacheck", "--no-color", "--std", "luajit", "--globals", "minetest", "core", "--",
                           str(path)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("module", ["taskverse.engine", "taskverse.gameprofile"])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0
