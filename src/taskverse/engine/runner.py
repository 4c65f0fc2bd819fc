"""Run compiled tasks in the real engine: a headless server, a headless client as the player, a scripted plan.

One episode: a fresh world on a free loopback port with three mods (the runtime, the task's generated mod and
the harness), the plan written into the world, a client joined as the player; the harness plays the plan and
shuts the server down. The report says whether the runtime judged the task done, the rewards it gave, every
event it logged, timings, the engine's own error lines when a mod failed, and whether the Python evaluator,
replaying the logged events, reaches the same verdict. No process outlives an episode: episodes run in worker
threads, and an interrupt (Ctrl-C) in the calling thread ends every engine of the run at once
(:func:`taskverse.engine.binaries.stop_all`), removes their folders and raises ``KeyboardInterrupt``.

Example:
    >>> reports = run_episodes(task, ir, plan, episodes=4, parallel=2)  # doctest: +SKIP
    >>> all(r.success and r.replay.agrees for r in reports)  # doctest: +SKIP
    True

"""

from __future__ import annotations

import fcntl
import json
import queue
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from taskverse.algebra.expr import AtomRef, atoms_of
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import TASK_MOD
from taskverse.engine.harness import Plan
from taskverse.engine.ir import TaskIR
from taskverse.engine.lua import HARNESS_MOD, RUNTIME_MOD, harness_dir, render_mod, runtime_dir, world_settings
from taskverse.errors import TaskverseError

PLAN_FILE = "taskverse_plan.json"
RESULT_FILE = "taskverse_result.json"
STATUS_FILE = "taskverse_status.json"
EVENTS_FILE = "taskverse_events.jsonl"


class Replay(BaseModel):
    """The Python evaluator's verdict on the events the engine logged, and whether it matches the engine's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    satisfied: bool
    satisfied_seq: int | None
    progress: float
    agrees: bool
    failed: bool = False


class Timings(BaseModel):
    """Seconds: from start to the server listening, to the plan starting, the plan, and the whole episode."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    listening: float | None = None
    plan: float | None = None
    total: float


class EpisodeReport(BaseModel):
    """What one episode did and how the task was judged."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str
    episode: int
    success: bool
    failed: bool = False
    progress: float = 0.0
    satisfied_seq: int | None = None
    rewards: list[dict[str, Any]] = Field(default_factory=list)
    reward_total: float = 0.0
    terminated: bool = False
    craftium_api: bool = False
    plan_completed: bool = False
    stopped_on_success: bool = False
    failed_step: int | None = None
    plan_error: str | None = None
    soft_resets: int = 0
    server: Literal["fresh", "restart"] = "fresh"
    """Where the episode started: a new server on a fresh world, or again in one that had played an episode before
    (:func:`run_plans`), as ``engine eval``'s episodes say."""
    refused_restart: str | None = None
    """Why the server that played the episode before could not start this one again (it then had a fresh one)."""
    steps: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    replay: Replay | None = None
    timings: Timings
    error: str | None = None
    engine_errors: list[str] = Field(default_factory=list)

    @property
    def restarted(self) -> bool:
        """Whether the episode started again in a server that had played one before."""
        return self.server == "restart"

    def summary(self) -> str:
        """One line for the text output."""
        if self.error:
            return f"episode {self.episode}: engine error after {self.timings.total:.2f} s: {self.error}"
        verdict = "success" if self.success else "failed" if self.failed else \
            f"not done (progress {self.progress:.2f})"
        replay = "" if self.replay is None else ("; replay agrees" if self.replay.agrees else "; REPLAY DISAGREES")
        plan = "" if self.plan_error is None else f"; plan stopped: {self.plan_error}"
        refused = "" if self.refused_restart is None else f"; no restart: {self.refused_restart}"
        return (f"episode {self.episode}: {verdict} in {self.timings.total:.2f} s (reward {self.reward_total:g}, "
                f"{len(self.events)} events{replay}; server: {self.server}{refused}){plan}")


def expression_of(task: Any) -> Any:
    """The task's expression (an atom is a reference to itself)."""
    return task.expression if getattr(task, "kind", "atom") == "molecule" else AtomRef(task=task.id)


def evaluator_for(task: Any, library: Any) -> Evaluator:
    """The Python evaluator for a task: its atoms' goals (an atom outside the library brings its own)."""
    expr = expression_of(task)
    own = {} if getattr(task, "kind", "atom") == "molecule" else {task.id: task.goal}
    goals = {a: own[a] if a in own else library.by_id[a].goal for a in atoms_of(expr)}
    return Evaluator(goals, library.knowledge.tags)


def replay(task: Any, events: list[dict[str, Any]], library: Any,
           now: float | None = None) -> tuple[Any, list[GameEvent]]:
    """The Python evaluator's verdict on logged event lines (``{"seq", "episode", "game_event", ...}``).

    After soft resets only the last episode's events count, as they do for the runtime. ``now`` is the
    episode's game time when the runtime last judged it (its status ``clock``), for time bounds.
    """
    last = max((int(line.get("episode", 1)) for line in events), default=1)
    trace = [GameEvent.model_validate(line["game_event"]) for line in events if int(line.get("episode", 1)) == last]
    return evaluator_for(task, library).evaluate(expression_of(task), trace, now=now), trace


def read_json_file(path: Path) -> Any:
    """A JSON file the engine wrote, or None when it is missing or cut short."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def read_events(path: Path) -> list[dict[str, Any]]:
    """The runtime's event lines (JSON, one a line), up to a line cut short by a crash."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    events = []
    for line in text.splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut short by a crash: everything before it is complete
    return events


@contextmanager
def task_server(ir: TaskIR, *, timeout: float, workdir: Path | None = None,
                settings: dict[str, Any] | None = None) -> Iterator[Any]:
    """A headless server running the compiled task with the runtime and the harness (``binaries.ServerRun``).

    ``settings`` are server settings besides the task's (``taskverse_interactive`` for an agent's episode).
    """
    from taskverse.engine.binaries import headless_server

    with tempfile.TemporaryDirectory(prefix="taskverse-mod-") as tmp:
        mod = Path(tmp) / TASK_MOD
        mod.mkdir()
        for name, text in render_mod(ir).items():
            (mod / name).write_text(text, encoding="utf-8")
        worldmods = {RUNTIME_MOD: runtime_dir(), TASK_MOD: mod, HARNESS_MOD: harness_dir()}
        with headless_server(ir.game, worldmods=worldmods, settings={**world_settings(ir), **(settings or {})},
                             map_meta=ir.mapgen, enable_mods=ir.mods, timeout=timeout, workdir=workdir) as run:
            yield run


def run_episode(task: Any, ir: TaskIR, plan: Plan, *, library: Any, episode: int = 1, timeout: float = 60.0,
                client_home: Path | None = None, workdir: Path | None = None) -> EpisodeReport:
    """Run one episode of a compiled task with a plan; engine failures are reported, not raised."""
    from taskverse.engine.binaries import error_lines

    started = time.monotonic()
    listening: float | None = None
    error: str | None = None
    engine_errors: list[str] = []
    result = status = None
    events: list[dict[str, Any]] = []
    with task_server(ir, timeout=timeout, workdir=workdir) as run:
        (run.world / PLAN_FILE).write_text(plan.to_json(), encoding="utf-8")
        try:
            run.wait_for("listening on")
            listening = time.monotonic() - started
            run.start_client("bot", home=client_home)
            if run.wait_for_file(run.world / RESULT_FILE):
                run.stop(grace=0)  # the results are written; the world is thrown away unsaved
            else:
                run.wait()  # exited without a result: raises with the engine's error lines
        except TaskverseError as exc:
            error = exc.message
            engine_errors = error_lines(run.log(), limit=10)
        result = read_json_file(run.world / RESULT_FILE)
        status = read_json_file(run.world / STATUS_FILE) or {}
        events = read_events(run.world / EVENTS_FILE)
    if result is not None and isinstance(result.get("status"), dict):
        status = result["status"]
    if error is None and not result:
        error = "the harness wrote no result"
    return episode_report(task, library, episode=episode, status=status or {}, events=events, result=result or {},
                          listening=listening, total=time.monotonic() - started, error=error,
                          engine_errors=engine_errors)


PLANS_IN_TURN: dict[str, Any] = {"taskverse_plans_in_turn": True}
"""Server settings of :func:`run_plans`: the harness plays plan after plan, each from the start put back."""


def _plan_path(world: Path, turn: int) -> Path:
    return world / f"taskverse_plan_{turn}.json"


def _result_path(world: Path, turn: int) -> Path:
    return world / f"taskverse_result_{turn}.json"


def run_plans(task: Any, ir: TaskIR, plans: Sequence[Plan], *, library: Any, timeout: float = 60.0,
              client_home: Path | None = None) -> list[EpisodeReport]:
    """One episode of each plan of one task, played one after another in one server where it can; reports in order.

    Each episode after the first starts again in the running server (the runtime's ``api.restart``, as an agent's
    episode's reset does: the map, the player and the start's mobs put back, a new verdict and event log) and
    reports as on a fresh server; a new server on a fresh world plays the rest when the running one cannot give
    the start back whole (the harness says so), failed or died. Each episode may take :func:`episode_budget`
    seconds (``timeout`` and a little more for each step); engine failures are reported, not raised.
    """
    reports: list[EpisodeReport] = []
    refused: str | None = None
    while len(reports) < len(plans):
        played, why = _plans_in_one_server(task, ir, plans[len(reports):], library=library, timeout=timeout,
                                           client_home=client_home)
        if refused is not None:  # the first episode of this server is the one the last server refused
            played[0] = played[0].model_copy(update={"refused_restart": refused})
        reports += played
        refused = why
    return reports


def _plans_in_one_server(task: Any, ir: TaskIR, plans: Sequence[Plan], *, library: Any, timeout: float,
                         client_home: Path | None) -> tuple[list[EpisodeReport], str | None]:
    """The reports of the plans one server played, from the first: at least one, fewer when it could not go on.

    Besides them, why the server refused to start the next plan again (the harness's reason), or None.
    """
    import os

    from taskverse.engine.binaries import error_lines

    budgets = [episode_budget(timeout, plan) for plan in plans]
    reports: list[EpisodeReport] = []
    refused: str | None = None
    started = time.monotonic()
    listening: float | None = None
    with task_server(ir, timeout=sum(budgets), settings=PLANS_IN_TURN) as run:
        for turn, (plan, budget) in enumerate(zip(plans, budgets, strict=True), start=1):
            aside = run.world / f"taskverse_plan_{turn}.tmp"
            aside.write_text(plan.to_json(), encoding="utf-8")
            os.replace(aside, _plan_path(run.world, turn))  # whole or not at all: the harness looks for it
            error: str | None = None
            engine_errors: list[str] = []
            try:
                if turn == 1:
                    run.wait_for("listening on")
                    listening = time.monotonic() - started
                    run.start_client("bot", home=client_home)
                if not run.wait_for_file(_result_path(run.world, turn), timeout=budget):
                    run.wait()  # exited without a result: raises with the engine's error lines
            except TaskverseError as exc:
                error = exc.message
                engine_errors = error_lines(run.log(), limit=10)
            result = read_json_file(_result_path(run.world, turn))
            if turn > 1 and error is None and result is not None and result.get("fresh"):
                # the start cannot be given back here: this plan and the rest go to a fresh server
                refused = str(result.get("error") or "the runtime could not put the start back")
                break
            status = result["status"] if result is not None and isinstance(result.get("status"), dict) else \
                read_json_file(run.world / STATUS_FILE) or {}
            events = read_events(run.world / EVENTS_FILE)
            if error is None and not result:
                error = "the harness wrote no result"
            report = episode_report(task, library, episode=1, status=status, events=events, result=result or {},
                                    listening=listening if turn == 1 else None, total=time.monotonic() - started,
                                    error=error, engine_errors=engine_errors)
            reports.append(report.model_copy(update={"server": "restart" if turn > 1 else "fresh"}))
            if error is not None:
                break  # a server that failed plays no more
            started = time.monotonic()
        run.stop(grace=0)  # the results are written; the world is thrown away unsaved
    return reports, refused


def episode_report(task: Any, library: Any, *, episode: int, status: dict[str, Any], events: list[dict[str, Any]],
                   result: dict[str, Any], listening: float | None, total: float, error: str | None,
                   engine_errors: list[str]) -> EpisodeReport:
    """An episode's report: the runtime's verdict, the Python evaluator's replay of its events, what was played.

    ``result`` is what the harness did (``completed``, ``steps``, ``error``, ...).
    """
    clock = status.get("clock")
    # the verdict read when the plan ended covers the events logged until then (``events``: the last one's seq);
    # one logged while the server shuts down (a find polled in its last steps) is not part of the episode
    seen = status.get("events")
    counted = [e for e in events if not isinstance(seen, int) or int(e.get("seq", 0)) <= seen]
    verdict, trace = replay(task, counted, library, now=float(clock) if isinstance(clock, int | float) else None)
    success = bool(status.get("satisfied"))
    failed = bool(status.get("failed"))
    seq = status.get("satisfied_seq")
    # the replayed trace is the last episode's: its index i is the event logged with seq first_seq + i
    last = max((int(line.get("episode", 1)) for line in counted), default=1)
    first_seq = next((int(line["seq"]) for line in counted if int(line.get("episode", 1)) == last), 1)
    replay_seq = None if verdict.satisfied_at is None else first_seq + verdict.satisfied_at
    failed_seq = status.get("failed_seq")
    replay_failed_seq = None if verdict.failed_at is None else first_seq + verdict.failed_at
    agrees = verdict.satisfied == success and verdict.failed == failed and \
        (not success or replay_seq == seq) and (not failed or replay_failed_seq == failed_seq)
    plan_seconds = result.get("seconds")
    return EpisodeReport(
        task=task.id, episode=episode, success=success, failed=failed, progress=float(status.get("progress") or 0.0),
        satisfied_seq=seq, rewards=list(status.get("rewards") or []),
        reward_total=float(status.get("reward_total") or 0.0), terminated=bool(status.get("terminated")),
        craftium_api=bool(status.get("craftium")), plan_completed=bool(result.get("completed")),
        stopped_on_success=bool(result.get("stopped_on_success")), failed_step=result.get("failed_step"),
        plan_error=result.get("error"), soft_resets=max(0, int(status.get("episode") or 1) - 1),
        steps=[s for s in result.get("steps") or [] if isinstance(s, dict)], events=events,
        replay=Replay(satisfied=verdict.satisfied, satisfied_seq=replay_seq, progress=verdict.progress,
                      agrees=agrees, failed=verdict.failed),
        timings=Timings(listening=listening, plan=plan_seconds, total=total),
        error=error, engine_errors=engine_errors,
    )


HOMES = 64
"""Client homes a machine keeps (the media cache makes joining faster); more episodes at once get throw-away ones."""


@contextmanager
def claimed_homes(count: int) -> Iterator[list[Path | None]]:
    """``count`` client homes that no other episode on this machine uses while they are held.

    A lock file marks a home in use, so runs in several processes at once (a test suite's workers, Ray workers
    beside a local run) never share one; closing the lock releases it, also when the process dies. Beyond
    ``HOMES`` homes in use, None: the episode makes a throw-away home.
    """
    from taskverse.paths import cache_dir

    root = cache_dir() / "engine-client"
    root.mkdir(parents=True, exist_ok=True)
    locks: list[Any] = []
    homes: list[Path | None] = []
    try:
        for i in range(HOMES):
            if len(homes) == count:
                break
            lock = (root / f"home-{i}.lock").open("a")
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                continue
            locks.append(lock)
            home = root / f"home-{i}"
            home.mkdir(exist_ok=True)
            homes.append(home)
        yield [*homes, *[None] * (count - len(homes))]
    finally:
        for lock in locks:
            lock.close()


T = TypeVar("T")
R = TypeVar("R")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run of episodes, with the reports of those that had finished (in job order).

    Attributes:
        reports: The finished episodes' reports; an episode stopped by the interrupt is not among them.
        total: How many episodes the run had.

    """

    def __init__(self, reports: list[Any], total: int) -> None:
        super().__init__(f"interrupted after {len(reports)} of {total} episodes")
        self.reports = reports
        self.total = total


def run_all(one: Callable[[T, Path | None], R], jobs: Sequence[T], parallel: int) -> list[R]:
    """Run ``one(job, client_home)`` for every job, ``parallel`` at a time in worker threads; results in order.

    The calling thread only waits, so Ctrl-C reaches it at once: every engine of the run is then ended
    (SIGKILL: the worlds are thrown away), jobs not started are dropped, the workers unwind (removing their
    folders), and :class:`Interrupted` (a ``KeyboardInterrupt``) is raised with the reports of the episodes that
    had finished. Further Ctrl-C presses are ignored from then on (the handler stays installed in the main
    thread): the caller says so and exits.
    """
    workers = max(1, min(parallel, len(jobs)))
    with claimed_homes(workers) as claimed:
        return _run_in_homes(one, jobs, workers, claimed)


def _run_in_homes(one: Callable[[T, Path | None], R], jobs: Sequence[T], workers: int,
                  claimed: list[Path | None]) -> list[R]:
    from taskverse.engine.binaries import allow_runs, stop_all

    homes: queue.Queue[Path | None] = queue.Queue()
    for home in claimed:
        homes.put(home)

    def run(job: T) -> R:
        home = homes.get()
        try:
            return one(job, home)
        finally:
            homes.put(home)

    interrupted = threading.Event()

    def on_interrupt(signum: int, frame: Any) -> None:
        if not interrupted.is_set():  # the first Ctrl-C interrupts; more presses must not cut the clean-up short
            interrupted.set()
            raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if main else None
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="taskverse-episode")
    futures = [pool.submit(run, job) for job in jobs]
    try:
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
    except KeyboardInterrupt:
        interrupted.set()
        # the episodes done before the interrupt, taken before the engines are stopped (a stopped one is not done)
        finished = [f.result() for f in futures if f.done() and not f.cancelled() and f.exception() is None]
        try:
            for future in futures:
                future.cancel()
            stop_all(grace=0)
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            allow_runs()
        raise Interrupted(finished, len(futures)) from None
    finally:
        # after an interrupt Ctrl-C stays ignored (the handler above), so the caller can finish cleanly
        if previous is not None and not interrupted.is_set():
            signal.signal(signal.SIGINT, previous)
    pool.shutdown(wait=True)
    return [future.result() for future in futures]


STEP_SECONDS = 0.25
"""What an episode's time budget adds for each step of its plan (:func:`episode_budget`): a 600-step plan from
scratch (Silk Touch: the tech tree, lapis, an enchanting table ringed by bookshelves) plays in about 65 s."""


def episode_budget(timeout: float, plan: Plan) -> float:
    """The seconds an episode of ``plan`` may take: ``timeout`` plus :data:`STEP_SECONDS` for each step.

    A flat limit fails a long plan for time however well it plays (607 steps of ``2 * obtain.nether_gold_ore``
    stopped at step 534 under a flat 60 s).

    Example:
        >>> episode_budget(60.0, Plan(steps=[]))
        60.0

    """
    return timeout + STEP_SECONDS * len(plan.steps)


def run_episodes(task: Any, ir: TaskIR, plan: Plan, *, library: Any, episodes: int = 1, parallel: int = 1,
                 timeout: float = 60.0, fresh_server: bool = False) -> list[EpisodeReport]:
    """Run ``episodes`` episodes, ``parallel`` at a time; reports in episode order (see :func:`run_all`).

    The episodes are played in chains (``engine.chains``: as many as ``parallel`` keeps busy), each one after
    another in one server where the runtime can give the start back whole (:func:`run_plans`; each report says
    ``server: fresh|restart``); ``fresh_server``: a new server on a fresh world for every episode. Each episode may
    take :func:`episode_budget` seconds (``timeout`` and a little more for each step). On Ctrl-C,
    :class:`Interrupted` holds the reports of the chains that had finished, in episode order.
    """
    from taskverse.engine.chains import chains

    if episodes < 1 or parallel < 1:
        raise TaskverseError("episodes and parallel must be at least 1")
    work = chains(list(range(1, episodes + 1)), parallel, fresh=fresh_server, key=lambda _: task.id)

    def one(chain: list[int], home: Path | None) -> list[EpisodeReport]:
        reports = run_plans(task, ir, [plan] * len(chain), library=library, timeout=timeout, client_home=home)
        return [report.model_copy(update={"episode": k}) for k, report in zip(chain, reports, strict=True)]

    def in_order(done: list[list[EpisodeReport]]) -> list[EpisodeReport]:
        return sorted((report for reports in done for report in reports), key=lambda r: r.episode)

    try:
        results = run_all(one, work, parallel)
    except Interrupted as exc:
        raise Interrupted(in_order(exc.reports), episodes) from None
    return in_order(results)


def run_jobs(jobs: list[tuple[Any, TaskIR, Plan]], *, library: Any, parallel: int = 2, timeout: float = 60.0,
             fresh_server: bool = False) -> list[EpisodeReport]:
    """Run one episode of each (task, ir, plan), ``parallel`` at a time; reports in job order.

    The plans of one task (jobs whose compiled forms are equal) are played in chains (``engine.chains``), one
    after another in one server where it can (:func:`run_plans`); ``fresh_server``: a new server for each. Each
    episode may take :func:`episode_budget` seconds (``timeout`` and a little more for each step). On Ctrl-C,
    :class:`Interrupted` holds the reports of the chains that had finished, in job order.
    """
    from taskverse.engine.chains import chains

    numbered = list(enumerate(jobs))
    work = chains(numbered, parallel, fresh=fresh_server, key=lambda item: item[1][1].model_dump_json())

    def one(chain: list[tuple[int, tuple[Any, TaskIR, Plan]]], home: Path | None) -> list[tuple[int, EpisodeReport]]:
        task, ir, _ = chain[0][1]
        reports = run_plans(task, ir, [job[2] for _, job in chain], library=library, timeout=timeout,
                            client_home=home)
        return [(i, report) for (i, _), report in zip(chain, reports, strict=True)]

    def in_job_order(done: list[list[tuple[int, EpisodeReport]]]) -> list[EpisodeReport]:
        return [report for _, report in sorted((pair for pairs in done for pair in pairs), key=lambda p: p[0])]

    try:
        results = run_all(one, work, parallel)
    except Interrupted as exc:
        raise Interrupted(in_job_order(exc.reports), len(jobs)) from None
    return in_job_order(results)


def summarise(reports: list[EpisodeReport], wall: float) -> dict[str, Any]:
    """Success rate and speed over a run of episodes."""
    n = len(reports)
    return {
        "episodes": n,
        "successes": sum(r.success for r in reports),
        "success_rate": sum(r.success for r in reports) / n if n else 0.0,
        "engine_errors": sum(r.error is not None for r in reports),
        "servers_started": sum(not r.restarted for r in reports),
        "replay_agrees": all(r.replay is not None and r.replay.agrees for r in reports),
        "mean_episode_seconds": sum(r.timings.total for r in reports) / n if n else 0.0,
        "wall_seconds": wall,
        "episodes_per_minute": 60.0 * n / wall if wall > 0 else 0.0,
    }
