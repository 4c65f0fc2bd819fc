"""An interactive episode: a compiled task runs in a server while an agent acts one step at a time.

Each step is one action of the plan format (:class:`taskverse.engine.harness.Step`: dig, place, craft, cook, kill,
goto_node, ...), played by the same harness Lua as a scripted plan (``engine/mods/taskverse_harness``, its
``agent.lua`` loop), so it fails as honestly: no node in reach, no tool, a mob still alive. The answer is an
:class:`Observation` (inventory, held item, health, position, dimension, biome, time of day, the nodes and
entities nearby counted by kind with the nearest one, the task's progress from the runtime's own verdict), the
step's outcome and reason, and the candidate actions that make sense now.

The channel is files in the world folder, polled on both sides (default mod security lets a mod read and write
there, nothing else): the action goes in as ``taskverse_act_<n>.json``, renamed into place whole; the harness,
which looks for it every server step (``dedicated_server_step`` 0.01 s), answers with ``taskverse_obs_<n>.json``.
An action that is not one (unknown fields, names the game lacks, not JSON) fails its step here, before the engine
sees it: the step counts as invalid and the server is untouched. The server is stopped by :meth:`close`, on
leaving a ``with`` block, when the episode is collected, and at interpreter exit: nothing is left running.

A reset after the first starts the episode again in the running server (the runtime's ``api.restart``: the map,
the player and the start's mobs put back, a new verdict and event log), about a hundredth of a new server's
start; a reset starts a new server on a fresh world only when the running one cannot give the start back whole
(docs/engine.md says when).

Example:
    >>> with EngineEpisode("craft.stick") as episode:  # doctest: +SKIP
    ...     first = episode.reset()
    ...     result = episode.step({"do": "craft", "item": "default:wood"})
    ...     result.ok, result.observation.inventory.get("default:wood")

"""

from __future__ import annotations

import json
import os
import time
import weakref
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taskverse.engine.frames import CLIENT_SETTINGS, VirtualScreen
from taskverse.engine.harness import Plan, Step, resolve_plan
from taskverse.engine.runner import (
    EVENTS_FILE,
    STATUS_FILE,
    EpisodeReport,
    episode_report,
    expression_of,
    read_events,
    read_json_file,
    task_server,
)
from taskverse.errors import TaskverseError

ACT_PREFIX = "taskverse_act_"
OBS_PREFIX = "taskverse_obs_"
#: Server settings of an interactive episode: the harness's agent loop, a short server step (it looks for the
#: next action once a step), and a time of day that moves only when an action moves it (``time``), not while the
#: agent thinks: an agent that takes a minute a step would otherwise see the sun set every few steps.
INTERACTIVE_SETTINGS: dict[str, str | bool | int | float] = {"taskverse_interactive": True,
                                                              "dedicated_server_step": 0.01, "time_speed": 0}
STEP_LIMIT = 600.0
"""Seconds the engine may take to answer one step (a guard against a hung engine: a long walk on a busy machine
takes seconds, not minutes). Past it the episode ends as failed and the server is stopped."""
EPISODE_LIMIT = 24 * 3600.0
"""Seconds a server of an interactive episode may run at all (the agent's own time counts: only a guard)."""
MAX_ACTION_BYTES = 64_000
FRAME_SETTLE = 0.1
"""Seconds from the harness's answer to the frame with screenshots: the client draws what the server sent (at its
own frame rate: a few frames in 0.1 s with software OpenGL)."""

Vector = tuple[float, float, float]


class Nearby(BaseModel):
    """Things of one kind around the player: how many, the nearest one, and whether it is in reach and in sight."""

    model_config = ConfigDict(frozen=True)

    count: int
    nearest: Vector
    distance: float
    reach: bool
    sight: bool | None = None
    hp: float | None = None


class TaskProgress(BaseModel):
    """The runtime's own verdict on the task so far."""

    model_config = ConfigDict(frozen=True)

    satisfied: bool = False
    failed: bool = False
    outcome: str = "pending"
    progress: float = 0.0
    events: int = 0
    clock: float = 0.0


class Observation(BaseModel):
    """What the agent sees after a step (game names: ``default:tree``; biomes in Minecraft's words)."""

    model_config = ConfigDict(frozen=True)

    inventory: dict[str, int] = Field(default_factory=dict)
    held: str = ""
    health: float = 0
    max_health: float = 0
    breath: float | None = None
    position: Vector = (0.0, 0.0, 0.0)
    dimension: str = "overworld"
    biome: str | None = None
    game_biome: str | None = None
    in_cave: bool = False
    time_of_day: float = 0.0
    daytime: bool = True
    weather: str = "clear"
    nodes: dict[str, Nearby] = Field(default_factory=dict)
    entities: dict[str, Nearby] = Field(default_factory=dict)
    drops: dict[str, Nearby] = Field(default_factory=dict)
    task: TaskProgress = Field(default_factory=TaskProgress)


class StepResult(BaseModel):
    """One step's answer: the outcome of the action, the observation after it, and what could be done next."""

    model_config = ConfigDict(frozen=True)

    step: int = Field(description="Steps taken so far, invalid ones included (0: the start).")
    action: dict[str, Any] | None = None
    ok: bool
    invalid: bool = False
    error: str | None = None
    record: dict[str, Any] = Field(default_factory=dict)
    game_seconds: float | None = Field(default=None, description="Game time the action took.")
    observe_ms: float | None = Field(default=None, description="Milliseconds the harness took to observe.")
    observation: Observation
    candidates: list[dict[str, Any]] = Field(default_factory=list)
    done: bool = False
    frame: str | None = Field(default=None, description="The first-person frame after the step (a PNG file), with "
                                                        "screenshots.")

    @property
    def success(self) -> bool:
        """Whether the runtime judged the task done."""
        return self.observation.task.satisfied


def _resolve(task: Any, library: Any) -> Any:
    if not isinstance(task, str):
        return task
    from taskverse.algebra.parse import COMPOSITION_MARKS

    if any(mark in task for mark in COMPOSITION_MARKS):
        from taskverse.algebra.molecule import build_molecule
        from taskverse.algebra.parse import parse_expression

        return build_molecule(parse_expression(task), library)
    return library.get(task)


def parse_action(action: Any, game: str) -> Step:
    """An agent's action (a Step, a dict or a JSON text) as a step in the game's names; TaskverseError if invalid.

    Example:
        >>> parse_action('{"do": "dig", "node": "oak_log"}', "minetest_game").node
        'default:tree'

    """
    if isinstance(action, Step):
        step = action
    else:
        if isinstance(action, bytes | str):
            if len(action) > MAX_ACTION_BYTES:
                raise TaskverseError(f"the action is longer than {MAX_ACTION_BYTES} characters")
            try:
                action = json.loads(action)
            except json.JSONDecodeError as exc:
                raise TaskverseError(f"the action is not JSON: {exc.msg} at character {exc.pos}") from None
        if not isinstance(action, dict):
            raise TaskverseError("an action is a JSON object with a 'do' field (docs/engine.md lists them)")
        try:
            step = Step.model_validate(action)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            message = err["msg"].removeprefix("Value error, ")
            if err["type"] == "literal_error" and err["loc"][-1] == "do":
                from taskverse.engine.harness import ACTION_FIELDS

                message = f"unknown action {err.get('input')!r}; expected one of {', '.join(ACTION_FIELDS)}"
            elif err["type"] == "extra_forbidden":
                message = f"unknown field {where!r}"
            raise TaskverseError(f"{message}" + (f" ({where})" if where and where not in message else "")) from None
    try:
        return resolve_plan(Plan(steps=[step]), game).steps[0]
    except TaskverseError as exc:  # the action's own field (item), not the one-step plan's (steps.0.item)
        field = exc.field.removeprefix("steps.0.") if exc.field else None
        raise TaskverseError(exc.message, field=field, suggestions=exc.suggestions) from None


CLIENT_TRIES = 3
"""Clients started for a player before the start gives up (one that crashes as it starts is started again)."""
JOIN_POLL = 0.02
"""Seconds between two looks for the player joining (a read of the runtime's status)."""
POLL = 0.002
"""Seconds between two looks for the harness's answer (a look is one stat: cheap; the answer takes ~10 ms)."""


def _wait_for_file(run: Any, path: Path, limit: float) -> bool:
    """Wait until the harness has written ``path`` (True) or the server has exited (False); raise past ``limit``."""
    end = time.monotonic() + limit
    while not path.exists():
        if run.process.poll() is not None:
            return path.exists()
        if time.monotonic() >= end:
            run.stop(grace=0)
            raise TaskverseError(f"the engine did not answer within {limit:g} s")
        time.sleep(POLL)
    return True


def _stop(stack: ExitStack) -> None:
    stack.close()


class EngineEpisode:
    """A compiled task in a running server, played one action at a time by an agent.

    Args:
        task: An id, a description, a composition (``"craft.stick >> craft.wooden_pickaxe"``) or a task object.
        library: A loaded library (default: the bundled one).
        game: The engine game (``minetest_game`` or ``taskverse_mc``).
        ir: The task's compiled form (compiled here if not given).
        step_limit: Seconds the engine may take to answer a step (:data:`STEP_LIMIT`).
        client_home: A client home to keep the media cache in (``runner.claimed_homes``); a fresh one if None.
        screenshots: A folder to keep a first-person frame of each step in (``frame_<step>.png``; the client renders
            on a virtual screen, ``taskverse.engine.frames``); None: a headless client, no frames.
        screen: The frames' width and height in pixels.
        settle: Seconds between the harness's answer and the frame (the client draws what the server sent).
        reuse: Whether a reset starts again in the running server when it can (:meth:`reset`); False: every reset
            starts a new server on a fresh world.

    Raises:
        CompileError: when the task does not compile for the game (one line saying why).

    """

    def __init__(self, task: Any, *, library: Any = None, game: str = "minetest_game", ir: Any = None,
                 step_limit: float = STEP_LIMIT, client_home: Path | None = None, screenshots: Path | None = None,
                 screen: tuple[int, int] = (320, 240), settle: float = FRAME_SETTLE, reuse: bool = True) -> None:
        if library is None:
            from taskverse.library.loader import load_library

            library = load_library()
        from taskverse.engine.compiler import compile_task
        from taskverse.engine.profile import load_registry

        self.library = library
        self.game = game
        self.task = _resolve(task, library)
        self.ir = ir if ir is not None else compile_task(self.task, library, game)
        self.registry = load_registry(game)
        self.step_limit = step_limit
        self.client_home = client_home
        self.screenshots = None if screenshots is None else Path(screenshots)
        self.screen = screen
        self.settle = settle
        self.frame_ms: list[float] = []
        """Milliseconds each frame took to read and write (the settle not counted)."""
        self._screen: VirtualScreen | None = None
        if self.screenshots is not None:
            from taskverse.fileio import check_output

            check_output(self.screenshots, force=True, folder=True)
        self.description = self.task.description
        self.expression = expression_of(self.task)
        self._stack: ExitStack | None = None
        self._finalizer: Any = None
        self._run: Any = None
        self._sent = 0
        self._steps = 0
        self._invalid = 0
        self._last: StepResult | None = None
        self._records: list[dict[str, Any]] = []
        self._error: str | None = None
        self._started = 0.0
        self._listening: float | None = None
        self.report: EpisodeReport | None = None
        self.reuse = reuse
        self.last_reset: str | None = None
        """``"fresh"`` (a new server on a fresh world) or ``"restart"`` (the running one), for the last reset."""
        self.refused_restart: str | None = None
        """Why the last reset could not restart in the running server (None if it did or did not try)."""
        self.server_starts = 0
        self.restarts = 0
        self.first: StepResult | None = None
        """The first observation of the current episode (what the last reset returned)."""
        self._server_key: str | None = None
        """``ir.server_key`` of the task the running server was started with."""
        self._switched = False
        """Whether the task changed (:meth:`use_task`) since the running server last started an episode."""

    # -- the episode ------------------------------------------------------------------------------------------

    def keep_frames_in(self, folder: Path) -> None:
        """Keep the next episode's frames in ``folder`` (an evaluation gives each episode its own).

        Only for an episode made with ``screenshots``: its virtual screen serves every episode of its server.
        Call it before :meth:`reset`; the frames are numbered by step from 0 again.
        """
        if self.screenshots is None:
            raise TaskverseError("this episode keeps no frames: make it with screenshots=FOLDER")
        from taskverse.fileio import check_output

        check_output(Path(folder), force=True, folder=True)
        self.screenshots = Path(folder)

    def use_task(self, task: Any, ir: Any = None) -> None:
        """Play ``task`` (compiled as ``ir``, else here) from the next reset on, in the running server if it can.

        The next reset starts the new task's episode in the running server when the server was started for a task of
        the same world (``ir.server_key``: game, map and engine settings, mods, mobs, wrapped callbacks): the
        runtime puts the map back as the last episode began, takes away the last start's blocks and objects, and
        sets up the new task's start as a fresh server would. Otherwise a new server (:attr:`refused_restart` says
        why). A task equal to the current one changes nothing.
        """
        task = _resolve(task, self.library)
        if ir is None:
            from taskverse.engine.compiler import compile_task

            ir = compile_task(task, self.library, self.game)
        if ir.game != self.game:
            raise TaskverseError(f"task {task.id} is compiled for {ir.game}, this episode plays {self.game}")
        same = ir == self.ir
        self.task, self.ir = task, ir
        self.description = task.description
        self.expression = expression_of(task)
        self._switched = self._switched or not same

    def reset(self, *, fresh: bool = False) -> StepResult:
        """Start the episode again from the task's start; the first observation.

        The first reset starts a server on a fresh world. A later one (unless ``fresh`` or the episode was made with
        ``reuse=False``) starts again in the running server: the runtime puts the start back (the map as the
        episode began, the player's inventory, health, place and the time of day, the start's mobs; no other
        objects) and begins a new verdict, event log and clock. When the server cannot give the start back whole
        (it died or stopped answering, the player died, the map around the start changed in a way the runtime does
        not see) a new server on a fresh world starts instead; :attr:`last_reset` says which was done.
        """
        refused: str | None = None
        if self.reuse and not fresh and self._run is not None:
            from taskverse.engine.ir import server_key

            if self._switched and server_key(self.ir) != self._server_key:
                refused = "the task needs another world (map or engine settings, mods, mobs or item callbacks) " \
                          "than the running server's"
            else:
                restarted = self._restart()
                if restarted is not None:
                    return restarted
                refused = self.refused_restart
        return self._start(refused=refused)

    def _begin_counts(self) -> None:
        self.report = None
        self._steps = self._invalid = 0
        self._records = []
        self._error = None
        self._started = time.monotonic()

    def _restart(self) -> StepResult | None:
        """Start again in the running server; None when it cannot (:attr:`refused_restart` says why)."""
        run = self._run
        self.refused_restart = None
        if run.process.poll() is not None:
            self.refused_restart = "the engine had stopped"
            return None
        self._sent += 1
        action: dict[str, Any] = {"restart": True}
        task_file = run.world / f"taskverse_task_{self._sent}.json"
        if self._switched:  # the next task's data, as its mod would hold it, read by the harness at the restart
            from taskverse.engine.lua import task_data

            aside = task_file.with_suffix(".tmp")
            aside.write_text(json.dumps(task_data(self.ir)), encoding="utf-8")
            os.replace(aside, task_file)
            action["task"] = task_file.name
        path = run.world / f"{ACT_PREFIX}{self._sent}.json"
        aside = path.with_suffix(".tmp")
        aside.write_text(json.dumps(action), encoding="utf-8")
        os.replace(aside, path)
        answer_path = run.world / f"{OBS_PREFIX}{self._sent}.json"
        try:
            answered = _wait_for_file(run, answer_path, self.step_limit)
        except TaskverseError as exc:  # stopped answering: it was stopped, a fresh one starts
            self.refused_restart = exc.message
            return None
        if not answered:
            self.refused_restart = "the engine stopped without answering"
            return None
        answer = json.loads(answer_path.read_text(encoding="utf-8"))
        answer_path.unlink(missing_ok=True)
        path.unlink(missing_ok=True)
        task_file.unlink(missing_ok=True)
        if not answer.get("ok"):
            self.refused_restart = str(answer.get("error") or "the runtime could not restart")
            return None
        self._begin_counts()
        self._listening = None
        self._switched = False
        self.last_reset = "restart"
        self.restarts += 1
        self._last = self.first = self._result(answer, None)
        return self._last

    def _start(self, refused: str | None = None) -> StepResult:
        """Start a fresh episode: a new world, server and player (``refused``: why the running server could not)."""
        self.close()
        self.refused_restart = refused
        self._begin_counts()
        self._sent = 0
        stack = ExitStack()
        self._stack = stack
        self._finalizer = weakref.finalize(self, _stop, stack)  # collected or at exit: the server is stopped
        try:
            self._run = stack.enter_context(task_server(self.ir, timeout=EPISODE_LIMIT,
                                                        settings=INTERACTIVE_SETTINGS))
            self._run.wait_for("listening on", timeout=self.step_limit)
            self._listening = time.monotonic() - self._started
            if self.screenshots is not None:
                self._screen = stack.enter_context(VirtualScreen(*self.screen))
            self._join()
            answer = self._await(0)
        except BaseException:
            self.close()
            raise
        if not answer.get("ok"):
            error = str(answer.get("error") or "the harness could not start the episode")
            self.close()
            raise TaskverseError(error)
        self.last_reset = "fresh"
        self.server_starts += 1
        from taskverse.engine.ir import server_key

        self._server_key = server_key(self.ir)
        self._switched = False
        self._last = self.first = self._result(answer, None)
        return self._last

    def _join(self) -> None:
        """Join the player's client, again when it dies before the player is in (up to :data:`CLIENT_TRIES` times).

        Debian's client sometimes crashes as it starts (a segfault before it connects, nothing in its log): the
        start would otherwise wait :attr:`step_limit` for a player who never comes.
        """
        run = self._run
        first = run.world / f"{OBS_PREFIX}0.json"
        for _ in range(CLIENT_TRIES):
            if self._screen is None:
                client = run.start_client("bot", home=self.client_home)
            else:
                settings = {**CLIENT_SETTINGS, "screen_w": self.screen[0], "screen_h": self.screen[1]}
                client = run.start_client("bot", home=self.client_home, settings=settings,
                                          display=self._screen.display)
            end = time.monotonic() + self.step_limit
            while not first.exists() and run.process.poll() is None and client.poll() is None and \
                    not self._joined(run) and time.monotonic() < end:
                time.sleep(JOIN_POLL)
            if client.poll() is None or first.exists() or run.process.poll() is not None:
                return  # joined (or the server ended: _await says why)
        log = run.directory / "client-bot.log"
        last = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] if log.is_file() else []
        raise TaskverseError(f"the engine's client exited before joining, {CLIENT_TRIES} times (exit code "
                             f"{client.returncode}{': ' + last[0][:200] if last else ''})")

    @staticmethod
    def _joined(run: Any) -> bool:
        """Whether the runtime has seen the player join (its status names a player)."""
        status = read_json_file(run.world / STATUS_FILE)
        return isinstance(status, dict) and bool(status.get("players"))

    def _frame(self) -> str | None:
        """Keep what the player sees now as ``<screenshots>/frame_<step>.png`` (None without screenshots)."""
        if self._screen is None or self.screenshots is None:
            return None
        from taskverse.fileio import write_bytes

        if self._sent == 0:  # the start: once the client that just joined has drawn the world
            png = self._screen.drawn()
            started = time.monotonic()
        else:
            time.sleep(self.settle)  # the client draws what the server sent within a frame or two
            started = time.monotonic()
            png = self._screen.frame()
        path = self.screenshots / f"frame_{self._steps:05d}.png"
        write_bytes(path, png, force=True)
        self.frame_ms.append(1000 * (time.monotonic() - started))
        return str(path)

    def step(self, action: Any) -> StepResult:
        """Play one action; its outcome and the observation after it.

        ``action`` is a Step, a dict, JSON text, or the number of one of the last step's candidates (from 0, as
        the text world numbers them). An invalid action (not JSON, an unknown action or field, a name the game
        lacks, no such candidate) fails the step with the reason and ``invalid``; the engine does not see it.
        Raises TaskverseError when the episode is not running (call :meth:`reset`) or the engine failed (it is then
        stopped; :attr:`report` says why).
        """
        if self._run is None or self._last is None:
            raise TaskverseError("the episode is not running; call reset() first")
        try:
            step = parse_action(self._candidate(action), self.game)
        except TaskverseError as exc:
            return self.refuse(exc.message, action)
        self._steps += 1
        payload = step.model_dump(mode="json", exclude_none=True)
        self._sent += 1
        path = self._run.world / f"{ACT_PREFIX}{self._sent}.json"
        aside = path.with_suffix(".tmp")
        aside.write_text(json.dumps(payload), encoding="utf-8")
        os.replace(aside, path)  # whole or not at all: the harness never reads half an action
        answer = self._await(self._sent)
        path.unlink(missing_ok=True)
        self._records.append({"index": self._steps, "do": step.do, "ok": bool(answer.get("ok")),
                              "error": answer.get("error"), **(answer.get("record") or {})})
        self._last = self._result(answer, payload)
        return self._last

    def refuse(self, reason: str, action: Any = None) -> StepResult:
        """Waste a step on something that is not an action (``reason`` says why): the engine does not see it.

        The step counts as invalid and the observation stays as it was; an agent's answer that names no action is
        refused so.
        """
        if self._run is None or self._last is None:
            raise TaskverseError("the episode is not running; call reset() first")
        self._steps += 1
        self._invalid += 1
        shown = action if isinstance(action, dict) else None if action is None else {"text": str(action)[:200]}
        self._records.append({"index": self._steps, "invalid": True, "error": reason})
        self._last = self._last.model_copy(update={"step": self._steps, "action": shown, "ok": False,
                                                   "invalid": True, "error": reason, "record": {},
                                                   "game_seconds": None, "observe_ms": None})
        return self._last

    def _candidate(self, action: Any) -> Any:
        """A candidate's number (0, ``"0"``) as that candidate of the last step; anything else as it is."""
        if isinstance(action, bool) or not isinstance(action, int | str):
            return action
        text = str(action).strip()
        if not (text.isascii() and text.isdigit()):
            return action
        candidates = self._last.candidates if self._last is not None else []
        if len(text) > 9 or int(text) >= len(candidates):
            raise TaskverseError(f"no candidate {text[:12]} (the last step listed {len(candidates)}: "
                                 f"0..{len(candidates) - 1})" if candidates else
                                 f"no candidate {text[:12]}: the last step listed none")
        return candidates[int(text)]

    def _report_of(self, run: Any) -> EpisodeReport:
        status = read_json_file(run.world / STATUS_FILE) or {}
        events = read_events(run.world / EVENTS_FILE)
        result = {"completed": False, "steps": self._records, "error": self._error}
        return episode_report(self.task, self.library, episode=1, status=status, events=events, result=result,
                              listening=self._listening, total=time.monotonic() - self._started,
                              error=self._error, engine_errors=[])

    def current_report(self) -> EpisodeReport | None:
        """The running episode's report so far, the server left running for the next reset (else :attr:`report`).

        Between steps everything that counts is written: the runtime writes its verdict and events before the
        harness answers.
        """
        if self._run is None:
            return self.report
        self.report = self._report_of(self._run)
        return self.report

    def close(self) -> EpisodeReport | None:
        """Stop the server (nothing is left running) and return the episode's report (None if none ran)."""
        stack, self._stack = self._stack, None
        if stack is None:
            return self.report
        run, self._run = self._run, None
        self._screen = None  # ended with the stack below
        report = None
        try:
            if run is not None:
                run.stop(grace=0)  # the world is thrown away unsaved: what counts is written already
                report = self._report_of(run)
        finally:
            if self._finalizer is not None:
                self._finalizer.detach()
                self._finalizer = None
            stack.close()
        self.report = report
        return report

    def __enter__(self) -> EngineEpisode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def steps(self) -> int:
        """Steps taken in this episode, invalid ones included."""
        return self._steps

    @property
    def invalid_steps(self) -> int:
        """Steps whose action was not one."""
        return self._invalid

    @property
    def running(self) -> bool:
        """Whether the episode's server is running."""
        return self._run is not None

    # -- the channel -------------------------------------------------------------------------------------------

    def _await(self, index: int) -> dict[str, Any]:
        """The harness's answer to action ``index`` (0: the start); the engine failing or hanging ends the episode."""
        from taskverse.engine.binaries import error_lines

        run = self._run
        path = run.world / f"{OBS_PREFIX}{index}.json"
        try:
            if not _wait_for_file(run, path, self.step_limit):
                run.wait()  # exited without answering: raises with the engine's error lines
                raise TaskverseError("the engine stopped without answering")
        except TaskverseError as exc:
            lines = error_lines(run.log(), limit=4)
            self._error = exc.message if index == 0 else f"step {index}: {exc.message}"
            self.close()
            raise TaskverseError(self._error + (f" ({' | '.join(lines)})" if lines and
                                                lines[0] not in self._error else "")) from None
        answer = json.loads(path.read_text(encoding="utf-8"))  # renamed into place whole by safe_file_write
        path.unlink(missing_ok=True)
        return answer

    def _result(self, answer: dict[str, Any], action: dict[str, Any] | None) -> StepResult:
        from taskverse.engine.candidates import candidate_actions

        observation = Observation.model_validate(answer.get("observation") or {})
        return StepResult(step=self._steps, action=action, ok=bool(answer.get("ok")), error=answer.get("error"),
                          frame=self._frame(),
                          record=answer.get("record") or {}, game_seconds=answer.get("seconds"),
                          observe_ms=answer["observe_us"] / 1000 if isinstance(answer.get("observe_us"), int | float)
                          else None,
                          observation=observation, candidates=candidate_actions(observation, self.registry),
                          done=observation.task.satisfied or observation.task.failed)


__all__ = ["EngineEpisode", "Nearby", "Observation", "StepResult", "TaskProgress", "parse_action"]
