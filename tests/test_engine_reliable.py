"""Reliable episodes in the real engine: the start, "find" by sight, soft resets, Ctrl-C, engines that fail,
and a compiled folder loaded the way Craftium loads it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import HANG_GUARD
from engine_support import ENGINE_TIMEOUT, ROOT, need_engine
from taskverse.algebra.expr import ref
from taskverse.algebra.molecule import build_molecule
from taskverse.engine.binaries import CLIENT, CLIENT_DEFAULTS, SERVER, error_lines, format_settings, free_port
from taskverse.engine.compiler import compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.lua import HARNESS_MOD, harness_dir, write_env
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import run_jobs

IDLE = Plan(steps=[Step(do="wait", seconds=0.6)])
#: Atoms an empty plan completed when the spawn was fixed in a savanna and "find" saw through the ground.
MET_AT_SPAWN_BEFORE = ["find.stone", "find.coal_ore", "find.savanna", "find.acacia_log", "find.acacia_leaves",
                       "find.gravel"]


@pytest.fixture(scope="module")
def idle_reports(library):
    """Each of these tasks, and a sample of the find and navigate atoms, with a plan that does nothing."""
    need_engine(client=True)
    from taskverse.engine.compiler import Compiler

    compiler = Compiler(library)
    others = [t.id for t in library.tasks if t.verb in ("find", "navigate") and not compiler.problems(t)]
    ids = [*MET_AT_SPAWN_BEFORE, *[i for i in others[::6] if i not in MET_AT_SPAWN_BEFORE]]
    jobs = [(library.get(i), compiler.compile(library.get(i)), IDLE) for i in ids]
    return dict(zip(ids, run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT), strict=True))


def test_no_goal_is_met_at_the_spawn(idle_reports):
    done = {task: (r.summary(), [(e["game_event"]["event"], e["game_event"]["target"], e["game_event"]["y"])
                        for e in r.events]) for task, r in idle_reports.items() if r.success or r.error}
    assert not done, done
    assert all(r.replay is not None and r.replay.agrees for r in idle_reports.values())


def test_the_player_starts_standing_on_the_ground_in_the_open(idle_reports):
    for task, report in idle_reports.items():
        first = report.events[0]["game_event"]
        # the flat world's ground is at y = 8: standing on it, the feet are at 8.5, out of any cave. On a loaded
        # machine the first event can come while the player is still settling onto it from the spot above
        # (8.974 seen at load 13): within half a node, not on the node above (9.5) or below (7.5).
        assert abs(first["y"] - 8.5) < 0.5 and first["in_cave"] is False, (task, first)


def test_a_port_taken_before_the_engine_binds_it_costs_a_restart_not_the_episode(library, monkeypatch):
    need_engine(client=True)
    import socket

    from taskverse.engine import binaries
    from taskverse.engine.runner import run_episode

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:  # another process's, in the engine's way
        taken.bind(("127.0.0.1", 0))
        chosen: list[int] = []
        real = binaries.free_port

        def first_the_taken_one() -> int:
            chosen.append(taken.getsockname()[1] if not chosen else real())
            return chosen[-1]

        monkeypatch.setattr(binaries, "free_port", first_the_taken_one)
        task = library.get("craft.stick")
        ir = compile_task(task, library)
        report = run_episode(task, ir, plan_task(task, ir, library), library=library, timeout=ENGINE_TIMEOUT)
    assert report.error is None and report.success, (report.error, report.engine_errors)
    assert len(chosen) == 2 and chosen[0] != chosen[1]


def test_wrong_plans_fail_every_time(library):
    need_engine(client=True)
    task = build_molecule(ref("craft.stick").at(where="cave"), library)
    ir = compile_task(task, library)
    plan = plan_task(task, ir, library)
    assert any(s.do == "move" for s in plan.steps)
    wrong = Plan(steps=[s for s in plan.steps if s.do != "move"])  # crafting without going into a cave
    reports = run_jobs([(task, ir, wrong)] * 4 + [(task, ir, plan)], library=library, parallel=2,
                       timeout=ENGINE_TIMEOUT)
    assert [r.success for r in reports] == [False] * 4 + [True], [r.summary() for r in reports]


def test_find_needs_the_target_in_sight(library):
    need_engine(client=True)
    task = library.get("find.stone")
    ir = compile_task(task, library)
    plan = plan_task(task, ir, library)
    # moved into the rock, stone is all around within reach, yet nothing is in sight: not found
    buried = Plan(steps=[Step(do="move", by=(0, -5, 0)), Step(do="wait", seconds=0.6)])
    found, not_found = run_jobs([(task, ir, plan), (task, ir, buried)], library=library, parallel=2,
                                timeout=ENGINE_TIMEOUT)
    assert found.success, found.summary()
    assert not not_found.success and not_found.plan_completed, not_found.summary()
    opened = [s for s in found.steps if s["do"] == "goto_node"]
    assert opened and opened[0].get("opened", 0) >= 1  # buried stone is seen from a pocket opened above it


def test_a_soft_reset_starts_the_task_again(library):
    need_engine(client=True)
    task = library.get("craft.stick")
    ir = compile_task(task, library)
    craft = Step(do="craft", item="default:stick")
    plan = Plan(steps=[craft, Step(do="soft_reset"), Step(do="wait", seconds=0.3), craft], stop_on_success=False)
    undone = Plan(steps=[craft, Step(do="soft_reset"), Step(do="wait", seconds=0.3)], stop_on_success=False)
    again, reset_only = run_jobs([(task, ir, plan), (task, ir, undone)], library=library, parallel=2,
                                 timeout=ENGINE_TIMEOUT)
    assert again.soft_resets == 1 and again.success and again.replay is not None and again.replay.agrees
    assert [r["episode"] for r in again.rewards] == [1, 2] and again.reward_total == 2.0
    # after the reset the start is back (two planks again) and the first episode's success is gone
    assert reset_only.soft_resets == 1 and not reset_only.success and reset_only.replay.agrees
    obtained = [e for e in reset_only.events if e["episode"] == 2 and e["game_event"]["event"] == "obtain"]
    assert not obtained  # the restored start is not a gain


# --- Ctrl-C ------------------------------------------------------------------------------------------------

def _engine_processes(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"minetest" in cmdline and marker.encode() in cmdline:
            found.append(int(pid))
    return found


#: A plan that would play for an hour (the longest wait a step may take, over and over): an episode of it can only
#: end early by being stopped.
ENDLESS = [{"do": "wait", "seconds": 30}] * 120


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_every_engine_of_the_run_at_once(tmp_path, presses):
    need_engine(client=True)
    temp = tmp_path / "tmp"
    temp.mkdir()
    plan = tmp_path / "endless.json"
    plan.write_text(json.dumps(ENDLESS))
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(ROOT / "src")}
    # "at once" without a clock: the episodes running when Ctrl-C comes would play for an hour (their time limit
    # is an hour too), so a run that exits 130 with no engine left has stopped them, not waited for them
    run = subprocess.Popen([sys.executable, "-m", "taskverse.cli", "engine", "run", "craft.stick", "--plan", str(plan),
                            "--episodes", "4", "--parallel", "2", "--timeout", "3600"], cwd=ROOT, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        guard = time.monotonic() + HANG_GUARD  # against a hung CI only
        while len(_engine_processes(str(temp))) < 4 and run.poll() is None:  # 2 servers, 2 clients
            assert time.monotonic() < guard, "hang guard: the run never started two episodes"
            time.sleep(0.1)
        assert len(_engine_processes(str(temp))) >= 4, f"the run did not start two episodes: {run.communicate()}"
        time.sleep(0.5)
        for _ in range(presses):
            run.send_signal(signal.SIGINT)
            time.sleep(0.1)
        _, stderr = run.communicate(timeout=HANG_GUARD)  # hang guard: without the stop, an hour of waiting
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130 and "Traceback" not in stderr, stderr
    assert stderr.strip().splitlines()[-1] == "error: interrupted; every engine of the run was stopped"
    # the engines were killed before the command exited; a process being torn down may still be listed a moment
    while _engine_processes(str(temp)):
        assert time.monotonic() < guard, f"hang guard: engines left running: {_engine_processes(str(temp))}"
        time.sleep(0.05)
    assert list(temp.iterdir()) == []


# --- engines that fail -------------------------------------------------------------------------------------

def test_an_engine_that_fails_to_start_is_one_clear_message_and_nothing_is_left(library, tmp_path):
    need_engine(client=True)
    from taskverse.engine.binaries import headless_server
    from taskverse.errors import TaskverseError

    temp = tmp_path / "tmp"
    temp.mkdir()
    with pytest.raises(TaskverseError) as caught:
        with headless_server(world_settings={"backend": "no_such_backend"}, workdir=temp / "run") as run:
            run.start_client("bot")
    message = str(caught.value)
    assert re.match(r"the engine exited \(code -?\d+\) before 'listening on': ERROR\[Main\]: ", message), message
    assert "Database backend no_such_backend not supported" in message and "\n" not in message
    assert _engine_processes(str(temp)) == []


# --- Craftium ----------------------------------------------------------------------------------------------

def craftium_config(tcp_port: int, port: int, user: dict[str, object]) -> dict[str, object]:
    """The minetest.conf Craftium's loader writes into its run folder (craftium/minetest.py, class Minetest)."""
    pmul = 20
    config: dict[str, object] = dict(
        enable_sound=False, show_debug=False, enable_client_modding=True, csm_restriction_flags=0,
        enable_mod_channels=True, screen_w=640, screen_h=360, voxel_obs=False, voxel_obs_rx=20, voxel_obs_ry=10,
        voxel_obs_rz=20, vsync=False, fps_max=200, fps_max_unfocused=200, undersampling=1,
        craftium_port=tcp_port, frameskip=1, rgb_frames=True, port=port, remote_port=port, sync_env_mode=False,
        movement_acceleration_default=3.0 * pmul, movement_acceleration_air=2.0 * pmul,
        movement_acceleration_fast=10.0 * pmul, movement_speed_walk=4.0 * pmul, movement_speed_crouch=1.35 * pmul,
        movement_speed_fast=20.0 * pmul, movement_speed_climb=3.0 * pmul, server_map_save_interval=1000000,
        profiler_print_interval=0, active_block_range=2, abm_time_budget=0.01, abm_interval=0.1,
        active_block_mgmt_interval=4.0, server_unload_unused_data_timeout=1000000,
        client_unload_unused_data_timeout=1000000, full_block_send_enable_min_time_from_building=0.0,
        max_block_send_distance=100, max_block_generate_distance=100, num_emerge_threads=0,
        emergequeue_limit_total=1000000, emergequeue_limit_diskonly=1000000, emergequeue_limit_generate=1000000,
    )
    config.update(user)  # minetest_conf, as a user passes it
    return config


def craftium_load(env_dir: Path, run_dir: Path, config: dict[str, object]) -> None:
    """What Craftium's loader does with an environment folder: its own minetest.conf first, then every item of
    the folder copied over the run folder (craftium/minetest.py, Minetest._create_mt_dirs with sync_dir)."""
    run_dir.mkdir(parents=True)
    with open(run_dir / "minetest.conf", "w") as f:
        for key, value in config.items():
            f.write(f"{key} = {value}\n")
    for item in os.listdir(env_dir):
        src, tgt = os.path.join(env_dir, item), os.path.join(run_dir, item)
        if os.path.isfile(src):
            shutil.copy(src, tgt)
        else:
            shutil.copytree(src, tgt, dirs_exist_ok=True)


def test_a_compiled_folder_runs_as_craftium_loads_it(library, tmp_path):
    need_engine(client=True)
    task = library.get("use.ignite_tnt")  # needs enable_tnt, which no dedicated server has by default
    ir = compile_task(task, library)
    assert ir.settings == {"enable_tnt": True}
    env_dir = tmp_path / "env"
    write_env(ir, env_dir)
    run_dir = tmp_path / "run"
    port = free_port()
    # a user's minetest_conf that clashes with the task's world: the world's own map_meta.txt wins
    craftium_load(env_dir, run_dir, craftium_config(12345, port, {"mg_name": "v7", "fixed_map_seed": 42}))
    conf = (run_dir / "minetest.conf").read_text()
    assert "craftium_port = 12345" in conf and f"port = {port}" in conf  # Craftium's config survives the copy
    # the scripted player, as an agent would act: the harness mod and a plan beside the task
    shutil.copytree(harness_dir(), run_dir / "mods" / HARNESS_MOD)
    world = run_dir / "worlds" / "world"
    with open(world / "world.mt", "a") as f:
        f.write(f"load_mod_{HARNESS_MOD} = true\n")
    (world / "taskverse_plan.json").write_text(plan_task(task, ir, library).to_json())
    # Craftium's engine is built to run in place: its user folder is the run folder; Debian's is ~/.minetest
    home = tmp_path / "home"
    home.mkdir()
    (home / ".minetest").symlink_to(run_dir)
    log = open(tmp_path / "server.log", "wb")
    server = subprocess.Popen([str(SERVER), "--gameid", "minetest", "--worldname", "world", "--logfile", ""],
                              cwd=run_dir, env={**os.environ, "HOME": str(home)}, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    client = None
    try:
        guard = time.monotonic() + HANG_GUARD  # against a hung CI only: the server's exit ends the waits below
        while b"listening on" not in (tmp_path / "server.log").read_bytes():
            assert server.poll() is None and time.monotonic() < guard, \
                error_lines((tmp_path / "server.log").read_text(errors="replace"))
            time.sleep(0.05)
        (tmp_path / "client.conf").write_text(format_settings(CLIENT_DEFAULTS))
        (tmp_path / "client-home").mkdir()
        client = subprocess.Popen([str(CLIENT), "--config", str(tmp_path / "client.conf"), "--go", "--address",
                                   "127.0.0.1", "--port", str(port), "--name", "bot", "--password", ""],
                                  env={**os.environ, "HOME": str(tmp_path / "client-home")},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        while not (world / "taskverse_result.json").exists():
            assert server.poll() is None and time.monotonic() < guard, \
                error_lines((tmp_path / "server.log").read_text(errors="replace"))
            time.sleep(0.05)
        time.sleep(0.1)
    finally:
        for process in (client, server):
            if process is not None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()
    result = json.loads((world / "taskverse_result.json").read_text())
    status = result["status"]
    # every setting the task needs survived Craftium's own minetest.conf, and the game came from the folder
    assert status["settings"] == {**ir.mapgen, "enable_tnt": "true"}
    assert status["satisfied"] is True and status["reward_total"] == 1.0, result
    assert f"{run_dir}/games/minetest_game" in (tmp_path / "server.log").read_text() or \
        (run_dir / "games" / "minetest_game" / "minetest.conf").read_text().endswith("enable_tnt = true\n")


def _start_in_place(run_dir: Path, home: Path, log: Path) -> subprocess.Popen[bytes]:
    """The server on a Craftium-style run folder (the engine's user folder is the run folder)."""
    with open(log, "wb") as out:
        return subprocess.Popen([str(SERVER), "--gameid", "minetest", "--worldname", "world", "--logfile", ""],
                                cwd=run_dir, env={**os.environ, "HOME": str(home)}, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def test_a_compiled_world_starts_again_after_the_engine_saved_it(library, tmp_path):
    need_engine()
    ir = compile_task(library.get("craft.stick"), library)
    env_dir = tmp_path / "env"
    write_env(ir, env_dir)
    run_dir = tmp_path / "run"
    # Craftium's own file without its huge save interval: the engine saves the world (map_meta.txt) as usual
    craftium_load(env_dir, run_dir, {"port": free_port(), "bind_address": "127.0.0.1", "server_announce": False})
    home = tmp_path / "home"
    home.mkdir()
    (home / ".minetest").symlink_to(run_dir)
    world = run_dir / "worlds" / "world"
    guard = time.monotonic() + HANG_GUARD  # against a hung CI only: the server's exit ends the waits below
    for start in (1, 2):
        (world / "taskverse_status.json").unlink(missing_ok=True)
        log = tmp_path / f"server-{start}.log"
        server = _start_in_place(run_dir, home, log)
        try:
            while b"listening on" not in log.read_bytes():
                assert server.poll() is None, f"start {start}: {error_lines(log.read_text(errors='replace'))}"
                assert time.monotonic() < guard, "hang guard"
                time.sleep(0.05)
            server.send_signal(signal.SIGTERM)  # a clean shutdown: the engine saves the world
            assert server.wait(timeout=HANG_GUARD) == 0, error_lines(log.read_text(errors="replace"))
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
        status = json.loads((world / "taskverse_status.json").read_text())
        assert status["task"] == "craft.stick"
    # the engine wrote every flag out, and the runtime still found the task's world
    saved = (world / "map_meta.txt").read_text()
    assert re.search(r"^mg_flags = nocaves, nodungeons, .*light", saved, re.MULTILINE), saved
    assert "light" in status["settings"]["mg_flags"]
