"""The real engine, headless: `taskverse engine check`, a registry dump, and how failures reach the user."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine_support import ENGINE_DIR, ENGINE_TIMEOUT, need_engine, run_engine_cli
from taskverse.engine.binaries import headless_server
from taskverse.errors import TaskverseError

PROFILE = ENGINE_DIR / "games" / "minetest_game"


def _mod(tmp_path: Path, name: str, lua: str) -> dict[str, Path]:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "mod.conf").write_text(f"name = {name}\n")
    (folder / "init.lua").write_text(lua)
    return {name: folder}


def test_check_reports_the_installed_version():
    need_engine()
    done = run_engine_cli("check", "--format", "json")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["installed"] is True and info["version"] == "5.6.1"
    assert "minetest_game" in info["games"] and "mobs" in info["mods"] and info["install"] is None


def test_dump_reproduces_the_committed_registry(tmp_path):
    need_engine()
    done = run_engine_cli("dump", "--game", "minetest_game", "-o", str(tmp_path), "--format", "json",
                          "--timeout", str(ENGINE_TIMEOUT))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # the work done: every item and recipe registered (the seconds it took are reported, not checked)
    assert report["counts"]["items"] == 531 and report["counts"]["recipes"] == 448, report
    fresh = json.loads((tmp_path / "registry.json").read_text())
    committed = json.loads((PROFILE / "registry.json").read_text())
    assert set(fresh["items"]) == set(committed["items"])
    assert fresh["recipes"] == committed["recipes"]
    assert fresh == committed, "the engine's registry changed: run `taskverse engine dump` and review the diff"
    assert (tmp_path / "ENGINE_VERSION").read_text() == (PROFILE / "ENGINE_VERSION").read_text()


def test_an_unknown_game_is_one_clear_line():
    need_engine()
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    done = CliRunner().invoke(engine, ["dump", "--game", "minetest_gmae", "-o", "/nonexistent/never-written"])
    assert done.exit_code == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: no game 'minetest_gmae'") and "'minetest_game'" in done.stderr


def test_a_lua_error_at_load_time_names_the_mod_and_line(tmp_path):
    need_engine()
    with pytest.raises(TaskverseError) as caught, \
            headless_server(worldmods=_mod(tmp_path, "broken", 'error("boom at load")\n'),
                            timeout=ENGINE_TIMEOUT) as run:
        run.wait()
    message = str(caught.value)
    assert "ModError" in message and "worldmods/broken/init.lua:1: boom at load" in message
    assert "\n" not in message and "stack traceback" not in message


def test_a_lua_error_at_run_time_is_surfaced(tmp_path):
    need_engine()
    lua = 'minetest.after(0, function() error("boom at run") end)\n'
    with pytest.raises(TaskverseError, match=r"Runtime error from mod 'late'.*boom at run"), \
            headless_server(worldmods=_mod(tmp_path, "late", lua), timeout=ENGINE_TIMEOUT) as run:
        run.wait()


def test_a_run_that_never_ends_is_killed_and_cleaned_up(tmp_path):
    need_engine()
    # the time limit is what this tests: a run that never ends hits any limit, so a busy machine changes nothing
    with pytest.raises(TaskverseError, match=r"did not finish within 1 s"), \
            headless_server(worldmods=_mod(tmp_path, "idle", "-- never shuts down\n"), timeout=1) as run:
        run.wait()
    assert run.process.poll() is not None
    assert not os.path.exists(f"/proc/{run.process.pid}")
    assert not run.directory.exists()


def test_settings_and_the_mobs_api_reach_the_mod_and_a_headless_client_joins(tmp_path):
    need_engine(client=True)
    lua = """
minetest.register_on_joinplayer(function(player)
	local probe = minetest.settings:get("taskverse_probe") or "?"
	local mobs_api = minetest.global_exists("mobs") and "mobs" or "no-mobs"
	local text = player:get_player_name() .. " " .. probe .. " " .. mobs_api
	minetest.safe_file_write(minetest.get_worldpath() .. "/joined.txt", text)
	minetest.request_shutdown("done", false, 0)
end)
"""
    mods = _mod(tmp_path, "probe", lua)
    (mods["probe"] / "mod.conf").write_text("name = probe\ndepends = mobs\n")
    with headless_server(worldmods=mods, settings={"taskverse_probe": "hello"}, enable_mods=["mobs"],
                         timeout=ENGINE_TIMEOUT) as run:
        client = run.start_client("bot")
        run.wait()
        assert (run.world / "joined.txt").read_text() == "bot hello mobs"
    assert client.poll() is not None


def test_without_the_engine_check_says_how_to_install_it(monkeypatch):
    from click.testing import CliRunner

    import taskverse.engine.binaries
    from taskverse.cli.engine import engine

    monkeypatch.setattr(taskverse.engine.binaries, "SERVER", Path("/nonexistent/minetestserver"))
    result = CliRunner().invoke(engine, ["check", "--format", "json"])
    assert result.exit_code == 1
    info = json.loads(result.stdout)
    assert info["installed"] is False and info["version"] is None
    assert "scripts/install-engine.sh" in info["install"] and "minetest-server" in info["install"]
    result = CliRunner().invoke(engine, ["dump", "-o", "/nonexistent/never-written"])
    assert result.exit_code == 2
    assert result.output.startswith("error: the Minetest server /nonexistent/minetestserver is not installed")


def test_missing_engine_skips_locally_and_fails_in_ci(monkeypatch):
    import engine_support

    monkeypatch.setattr(engine_support, "SERVER", Path("/nonexistent/minetestserver"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="install-engine.sh"):
        engine_support.need_engine()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="install-engine.sh"):
        engine_support.need_engine()
