"""The Minetest engine on this machine: where it is, which version, and headless runs of it.

The defaults follow what was verified for Debian's Minetest 5.6.1 (``shared/notes/engine.md``): call the real
binaries under ``/usr/lib/minetest`` and ``/usr/games``, give every process a writable ``HOME`` of its own,
and read the engine's own error lines from its log. ``headless_server`` runs a server in a fresh temporary
world and never leaves a process behind; ``ServerRun.start_client`` joins a headless client to it.

Example:
    >>> with headless_server(worldmods={"my_mod": Path("mods/my_mod")}) as run:  # doctest: +SKIP
    ...     run.wait()  # the mod calls minetest.request_shutdown() when done
    ...     result = (run.world / "result.json").read_text()

"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from taskverse.errors import TaskverseError, close_matches

SERVER = Path("/usr/lib/minetest/minetestserver")
CLIENT = Path("/usr/games/minetest")
SHARE_DIR = Path("/usr/share/games/minetest")
GAMES_DIR = SHARE_DIR / "games"
MODS_DIR = SHARE_DIR / "mods"
PACKAGES = ("minetest-server", "minetest", "minetest-mod-mobs-redo", "luajit", "lua-check")
INSTALL_HINT = (
    "run scripts/install-engine.sh (as root: apt-get update && apt-get install -y --no-install-recommends "
    + " ".join(PACKAGES) + ")"
)

SettingValue = str | int | float | bool

#: Server settings every run gets (engine.md, "A world"); a run's own settings override them.
SERVER_DEFAULTS: dict[str, SettingValue] = {
    "bind_address": "127.0.0.1",
    "server_announce": False,
    "mg_name": "flat",
    "fixed_map_seed": 1,
    "static_spawnpoint": "0,8,0",
    "max_block_send_distance": 2,
    "max_block_generate_distance": 2,
}

#: Client settings for a player without a screen (engine.md, "A player without a screen").
CLIENT_DEFAULTS: dict[str, SettingValue] = {
    "video_driver": "null",
    "enable_sound": False,
    "enable_shaders": False,
    "viewing_range": 20,
    "screen_w": 64,
    "screen_h": 48,
}

# What the engine prints when a mod or the server fails (engine.md: "Surface those lines to the user").
_ERROR_LINE = re.compile(r"ERROR\[|ServerError|Runtime error from mod")
_LOG_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d: ")
_WORLDMODS_PATH = re.compile(r"\S*/worldmods/")  # the engine shortens long paths with "...": keep the mod's part
_SETTING_KEY = re.compile(r"^[A-Za-z0-9_.\-]+$")
_MOD_NAME = re.compile(r"^[a-z0-9_]+$")
_KILL_GRACE = 2.0


class EngineInfo(BaseModel):
    """What ``taskverse engine check`` reports."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    installed: bool
    version: str | None
    server: str | None
    client: str | None
    games_dir: str | None
    games: list[str]
    mods: list[str]
    luajit: str | None
    luacheck: str | None
    install: str | None


def parse_version(text: str) -> str:
    r"""Return the engine version in ``minetestserver --version`` output.

    Example:
        >>> parse_version("Minetest 5.6.1 (Linux)\\nUsing LuaJIT 2.1.0-beta3\\n")
        '5.6.1'
        >>> parse_version("Luanti 5.10.0 (Linux)")
        '5.10.0'

    """
    match = re.search(r"^(?:Minetest|Luanti)\S*\s+(\d+\.\d+\.\d+\S*)", text, re.MULTILINE)
    if match is None:
        first = text.strip().splitlines()[0] if text.strip() else "nothing"
        raise TaskverseError(f"cannot read the engine version from {first!r}")
    return match.group(1)


def engine_version(server: Path = SERVER) -> str:
    """Run ``server --version`` and return the version it reports (``5.6.1``)."""
    if not server.exists():
        raise TaskverseError(f"the Minetest server {server} is not installed; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="taskverse-home-") as home:
        try:
            done = subprocess.run([str(server), "--version"], capture_output=True, text=True, timeout=30,
                                  env=_environment(Path(home)))
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise TaskverseError(f"cannot run {server} --version: {exc}") from None
    return parse_version(done.stdout + done.stderr)


def engine_info() -> EngineInfo:
    """Report whether the engine and the Lua checkers are installed, and which version."""
    installed = SERVER.exists()
    return EngineInfo(
        installed=installed,
        version=engine_version() if installed else None,
        server=str(SERVER) if installed else None,
        client=str(CLIENT) if CLIENT.exists() else None,
        games_dir=str(GAMES_DIR) if GAMES_DIR.is_dir() else None,
        games=installed_games(),
        mods=installed_mods(),
        luajit=shutil.which("luajit"),
        luacheck=shutil.which("luacheck"),
        install=None if installed else INSTALL_HINT,
    )


def installed_games() -> list[str]:
    """List the game folders under the engine's games directory (``minetest_game``, ``devtest``)."""
    if not GAMES_DIR.is_dir():
        return []
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "game.conf").is_file())


def installed_mods() -> list[str]:
    """List the mod names installed beside the engine (``mobs`` from minetest-mod-mobs-redo); see ``enable_mods``."""
    names = []
    for conf in sorted(MODS_DIR.glob("*/mod.conf")) if MODS_DIR.is_dir() else []:
        match = re.search(r"^name\s*=\s*(\S+)", conf.read_text(errors="replace"), re.MULTILINE)
        names.append(match.group(1) if match else conf.parent.name)
    return sorted(names)


def game_id(game: str) -> str:
    """Return the engine's id of a game folder: its name without ``_game`` (``minetest_game`` -> ``minetest``).

    A game taskverse generates (``taskverse_mc``) is built into the cache first if needed; the engine finds it
    there through ``MINETEST_SUBGAME_PATH``. Raises TaskverseError naming the installed games when there is no such
    folder.
    """
    from taskverse.engine.gamegen.build import GENERATED_GAMES, ensure_game

    if game in GENERATED_GAMES:
        ensure_game(game)
        return game
    games = installed_games()
    if game not in games:
        hint = f"installed: {', '.join(games)}" if games else INSTALL_HINT
        raise TaskverseError(f"no game {game!r} in {GAMES_DIR} ({hint})", suggestions=close_matches(game, games))
    return game.removesuffix("_game")


PORT_TRIES = 3
"""How often a server is started on another port when the one chosen was taken before the engine bound it."""
_PORTS_LOCK = threading.Lock()
_PORTS_GIVEN: list[int] = []


def free_port() -> int:
    """Return a UDP port on the loopback interface that is free now (the engine speaks UDP).

    Ports handed out recently in this process are not handed out again, so episodes started in parallel threads
    never race for one port.
    """
    with _PORTS_LOCK:
        for _ in range(50):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.bind(("127.0.0.1", 0))
                port = int(sock.getsockname()[1])
            if port not in _PORTS_GIVEN:
                break
        _PORTS_GIVEN.append(port)
        del _PORTS_GIVEN[:-256]
        return port


def format_settings(settings: Mapping[str, SettingValue]) -> str:
    """Write settings as the engine's ``key = value`` config lines (booleans as ``true``/``false``).

    Example:
        >>> print(format_settings({"port": 30001, "server_announce": False}), end="")
        port = 30001
        server_announce = false

    """
    lines = []
    for key, value in settings.items():
        if not _SETTING_KEY.match(key):
            raise TaskverseError(f"invalid engine setting name {key!r}; expected letters, digits, '_', '.', '-'")
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        if "\n" in text or "\r" in text:
            raise TaskverseError(f"engine setting {key!r} holds a line break; settings are single lines")
        lines.append(f"{key} = {text}\n")
    return "".join(lines)


def format_map_meta(settings: Mapping[str, SettingValue]) -> str:
    """Write a world's ``map_meta.txt``: its map generator settings, which the engine prefers to any config.

    Example:
        >>> print(format_map_meta({"mg_name": "flat", "seed": 1}), end="")
        mg_name = flat
        seed = 1
        [end_of_params]

    """
    return format_settings(settings) + "[end_of_params]\n"


def error_lines(log: str, limit: int = 4) -> list[str]:
    r"""Pick the engine's own error lines out of a log: no timestamps, no Lua stack traceback, at most ``limit``.

    Example:
        >>> error_lines("2024-01-01 10:00:00: ERROR[Main]: ModError: boom\nfine\n")
        ['ERROR[Main]: ModError: boom']

    """
    found = []
    for line in log.splitlines():
        if not _ERROR_LINE.search(line):
            continue
        text = _LOG_PREFIX.sub("", line).rstrip()
        message = text.split("]: ", 1)[-1]
        if message.startswith(("stack traceback", "\t", " ", "In thread ")):
            continue  # the traceback repeats the error line's place, engine-internal frames after it
        found.append(_WORLDMODS_PATH.sub("worldmods/", text))
    return found[:limit]


def _environment(home: Path) -> dict[str, str]:
    from taskverse.engine.gamegen.build import games_cache

    home.mkdir(parents=True, exist_ok=True)
    # the engine looks for games here too: the games taskverse generates are built into this folder; both absolute,
    # as the engine runs in its own folder (a relative TASKVERSE_HOME makes relative cache paths)
    return {**os.environ, "HOME": str(home.resolve()), "MINETEST_SUBGAME_PATH": str(games_cache().resolve())}


def _kill_group(process: subprocess.Popen[bytes], grace: float = _KILL_GRACE) -> None:
    """End a process and everything it started (it leads its own session): TERM, then KILL (at once if no grace)."""
    steps = ((signal.SIGTERM, grace), (signal.SIGKILL, _KILL_GRACE)) if grace > 0 else ((signal.SIGKILL, _KILL_GRACE),)
    for sig, wait in steps:
        if process.poll() is not None:
            break
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=wait)
    with suppress(ProcessLookupError):  # children left behind by a process that exited by itself
        os.killpg(process.pid, signal.SIGKILL)


# Every run not yet ended, so an interrupt can end them all at once (see stop_all).
_LIVE_LOCK = threading.Lock()
_LIVE: set[ServerRun] = set()
_STOPPING = threading.Event()


def stop_all(grace: float = 0.0) -> int:
    """End every running engine of this process now (on Ctrl-C); return how many runs were ended.

    New engines are refused until :func:`allow_runs`. Their folders are removed as their blocks unwind.
    """
    _STOPPING.set()
    with _LIVE_LOCK:
        runs = list(_LIVE)
    for run in runs:
        run.stop(grace)
    return len(runs)


def allow_runs() -> None:
    """Let engines start again after :func:`stop_all`."""
    _STOPPING.clear()


def stopping() -> bool:
    """Whether :func:`stop_all` has ended this process's engines (an episode ending now was cut short by it)."""
    return _STOPPING.is_set()


class ServerRun:
    """A running headless server in its own temporary folder; made by :func:`headless_server`.

    Attributes:
        directory: The run's folder (``world/``, ``home/``, ``server.conf``, ``server.log``).
        world: The world folder; mods write their results here (mod security allows it).
        port: The UDP port on 127.0.0.1.
        log_path: The server's combined stdout and stderr.
        deadline: ``time.monotonic()`` value after which the run is ended as timed out.

    """

    def __init__(self, directory: Path, port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
        self.directory = directory
        self.world = directory / "world"
        self.port = port
        self.log_path = directory / "server.log"
        self.process = process
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout
        self.clients: list[subprocess.Popen[bytes]] = []

    def log(self) -> str:
        """Return the server log so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _failure(self, what: str) -> TaskverseError:
        log = self.log()
        lines = error_lines(log)
        if not lines:  # no engine error line: show the end of the log instead
            lines = [_LOG_PREFIX.sub("", line).strip() for line in log.strip().splitlines()[-2:] if line.strip()]
        detail = " | ".join(lines) if lines else "the log is empty"
        return TaskverseError(f"{what}: {detail}")

    def _remaining(self, timeout: float | None) -> float:
        left = self.deadline - time.monotonic()
        return max(0.0, left if timeout is None else min(timeout, left))

    def wait_for(self, text: str, timeout: float | None = None) -> None:
        """Wait until ``text`` appears in the server log (e.g. ``"listening on"``).

        Raises TaskverseError with the engine's error lines when the server exits first or time runs out.
        """
        end = time.monotonic() + self._remaining(timeout)
        while text not in self.log():
            if self.process.poll() is not None:
                raise self._failure(f"the engine exited (code {self.process.returncode}) before {text!r}")
            if time.monotonic() >= end:
                failure = self._failure(f"the engine did not print {text!r} within {self.timeout:g} s")
                self.stop()
                raise failure
            time.sleep(0.02)

    def lost_its_port(self) -> bool:
        """Whether another process took the engine's port first (it could not bind it, and is about to exit).

        Waits until the engine says it listens (5.6.1 says so after a failed bind too: "Bind failed" comes before
        it in the log, the engine's exit a second later), exits, or the run's time is up.
        """
        while True:
            log = self.log()
            if "Bind failed" in log or "Failed to bind socket" in log:
                return True
            if "listening on" in log or self.process.poll() is not None or time.monotonic() >= self.deadline:
                return False
            time.sleep(0.02)

    def wait_for_file(self, path: Path, timeout: float | None = None) -> bool:
        """Wait until a mod has written ``path`` (True) or the server has exited (False).

        A run whose mod writes its result and then asks for a shutdown can be ended as soon as the file is
        there: the engine's own shutdown (saving the throw-away world) takes another half second.
        Raises TaskverseError with the engine's error lines when time runs out (the server is killed first).
        """
        end = time.monotonic() + self._remaining(timeout)
        while not path.exists():
            if self.process.poll() is not None:
                return path.exists()
            if time.monotonic() >= end:
                failure = self._failure(f"the engine did not finish within {self.timeout:g} s")
                self.stop()
                raise failure
            time.sleep(0.01)
        return True

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the server to exit by itself (a mod requested shutdown) and return its exit code 0.

        Raises TaskverseError with the engine's error lines when it fails (non-zero exit, e.g. a Lua error in
        a mod) or does not exit in time (then it is killed first).
        """
        try:
            code = self.process.wait(timeout=self._remaining(timeout))
        except subprocess.TimeoutExpired:
            failure = self._failure(f"the engine did not finish within {self.timeout:g} s")
            self.stop()
            raise failure from None
        if code != 0:
            raise self._failure(f"the engine failed (exit code {code})")
        return code

    def start_client(self, name: str = "bot", *, settings: Mapping[str, SettingValue] | None = None,
                     home: Path | None = None, display: str | None = None) -> subprocess.Popen[bytes]:
        """Join a headless client (no display, no sound) to this server as player ``name``.

        Waits until the server listens first: a client that never connects ignores SIGTERM. ``home`` may be
        shared between runs to keep the client's media cache (engine.md: 1.3 s instead of 2 s an episode).
        With ``display`` (an X display, ``frames.VirtualScreen``) and a video driver in ``settings`` it renders
        there. The client is killed with the server when the run ends; it exits by itself when the server stops.
        """
        if not CLIENT.exists():
            raise TaskverseError(f"the Minetest client {CLIENT} is not installed; {INSTALL_HINT}")
        self.wait_for("listening on")
        config = self.directory / f"client-{name}.conf"
        config.write_text(format_settings({**CLIENT_DEFAULTS, **(settings or {})}))
        log = (self.directory / f"client-{name}.log").open("wb")
        command = [str(CLIENT), "--config", str(config), "--go", "--address", "127.0.0.1",
                   "--port", str(self.port), "--name", name, "--password", ""]
        env = _environment(home or self.directory / f"home-{name}")
        if display is not None:
            env["DISPLAY"] = display
        with log, _LIVE_LOCK:  # an interrupt (stop_all) either sees this client or stops it from starting
            if _STOPPING.is_set():
                raise TaskverseError("interrupted: no new engine is started")
            client = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                      env=env, cwd=self.directory, start_new_session=True)
            self.clients.append(client)
        return client

    def stop(self, grace: float = _KILL_GRACE) -> None:
        """End the clients and the server with their whole process groups (safe to call twice).

        ``grace`` is how long each may take to exit after SIGTERM before SIGKILL; 0 kills at once (for a
        throw-away world whose results are already written).
        """
        for process in [*self.clients, self.process]:
            _kill_group(process, grace)


def _write_world(world: Path, game: str, worldmods: Mapping[str, Path],
                 world_settings: Mapping[str, SettingValue], enable_mods: Iterable[str]) -> None:
    world.mkdir(parents=True)
    settings: dict[str, SettingValue] = {
        "gameid": game_id(game),
        "backend": "sqlite3",
        "player_backend": "sqlite3",
        "auth_backend": "sqlite3",
        "mod_storage_backend": "sqlite3",
    }
    for mod in enable_mods:  # mods installed beside the engine (e.g. "mobs") load only when named
        settings[f"load_mod_{mod}"] = True
    (world / "world.mt").write_text(format_settings({**settings, **world_settings}))
    for name, source in worldmods.items():
        source = Path(source)
        if not _MOD_NAME.match(name):
            raise TaskverseError(f"invalid mod name {name!r}; expected lowercase letters, digits and '_'")
        if not (source / "init.lua").is_file():
            raise TaskverseError("not a mod folder (no init.lua)", file=source)
        shutil.copytree(source, world / "worldmods" / name)


@contextmanager
def headless_server(
    game: str = "minetest_game",
    *,
    worldmods: Mapping[str, Path] | None = None,
    settings: Mapping[str, SettingValue] | None = None,
    world_settings: Mapping[str, SettingValue] | None = None,
    map_meta: Mapping[str, SettingValue] | None = None,
    enable_mods: Iterable[str] = (),
    timeout: float = 60.0,
    workdir: Path | None = None,
) -> Iterator[ServerRun]:
    """Run a headless server on a free loopback port in a fresh world; stop it and clean up on exit.

    Args:
        game: Game folder under the engine's games directory.
        worldmods: Mods to copy into ``world/worldmods/`` (name -> folder with ``mod.conf`` and ``init.lua``).
        settings: Server settings over :data:`SERVER_DEFAULTS`; mods read custom keys with
            ``minetest.settings:get(key)``.
        world_settings: Extra ``world.mt`` lines.
        map_meta: The world's map generator settings (``map_meta.txt``; they win over ``settings``).
        enable_mods: Mods installed beside the engine to load (``mobs`` for the mobs API).
        timeout: Seconds the whole run may take; :meth:`ServerRun.wait` kills the server after that.
        workdir: Run here and keep the folder (for debugging); default: a temporary folder, removed after.

    Yields:
        The running server. Its processes are ended with their process groups when the block exits,
        whether it finished, failed or raised.

    """
    if not SERVER.exists():
        raise TaskverseError(f"the Minetest server {SERVER} is not installed; {INSTALL_HINT}")
    if _STOPPING.is_set():
        raise TaskverseError("interrupted: no new engine is started")
    keep = workdir is not None
    directory = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="taskverse-engine-"))
    if keep:
        if directory.exists() and any(directory.iterdir()):
            raise TaskverseError("the engine work folder must be empty", file=directory)
        directory.mkdir(parents=True, exist_ok=True)
    process: subprocess.Popen[bytes] | None = None
    run: ServerRun | None = None
    try:
        world = directory / "world"
        config = directory / "server.conf"
        for attempt in range(1, PORT_TRIES + 1):
            # A port free when chosen can be taken before the engine binds it (another process's engine or
            # Ray, choosing from the same range): the engine then exits, and starts again on another port in a
            # fresh world (the one it left may hold files it saved on the way out).
            shutil.rmtree(world, ignore_errors=True)
            _write_world(world, game, worldmods or {}, world_settings or {}, enable_mods)
            if map_meta:
                (world / "map_meta.txt").write_text(format_map_meta(map_meta))
            port = free_port()
            config.write_text(format_settings({**SERVER_DEFAULTS, "port": port, **(settings or {})}))
            command = [str(SERVER), "--config", str(config), "--world", str(world), "--gameid", game_id(game),
                       "--logfile", ""]
            with _LIVE_LOCK:
                if _STOPPING.is_set():
                    raise TaskverseError("interrupted: no new engine is started")
                with (directory / "server.log").open("wb") as log:
                    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                               stderr=subprocess.STDOUT, env=_environment(directory / "home"),
                                               cwd=directory, start_new_session=True)
                run = ServerRun(directory, port, process, timeout)
                _LIVE.add(run)
            if attempt == PORT_TRIES or not run.lost_its_port():
                break
            run.stop()
            with _LIVE_LOCK:
                _LIVE.discard(run)
            run = process = None
        assert run is not None
        yield run
    finally:
        if run is not None:
            run.stop()
            with _LIVE_LOCK:
                _LIVE.discard(run)
        elif process is not None:
            _kill_group(process)
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)
