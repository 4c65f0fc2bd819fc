"""Evaluating a planner on SkillForge-text: episodes, trajectories, and a report of success, steps, efficiency.

A run is a list of independent episodes (``EpisodeJob``), each run by ``run_job`` wherever a worker is (this
process, local worker processes, or a Ray cluster: ``taskverse.workers``). Every finished episode is appended at
once to a JSON Lines trajectory file (actions, observations, rewards, reasoning, invalid answers, termination
reason), and the report (``build_report``) is made from those records, so an interrupted run leaves a valid
partial report and ``resume`` continues it. When the run completes, the trajectory file is rewritten in task and
episode order, so a run gives the same report and file however many workers ran it.

Plan efficiency is the shortest plan's length divided by the steps taken, on a successful episode (0 on a failed
one); ``plan_efficiency`` averages it over all episodes and ``plan_efficiency_successful`` over the successful
ones. ``docs/textenv.md`` describes every field.
"""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from taskverse.errors import TaskverseError
from taskverse.fileio import open_log, output_file, read_lines, same_file, write_text
from taskverse.textenv.agents import DEFAULT_BUDGET, Agent, AgentError, AgentOptions, AnswerRefused, make_agent
from taskverse.textenv.env import (
    DEFAULT_MAX_STEPS,
    SkillForgeTextEnv,
    Target,
    resolve_action_text,
    resolve_target,
    shared_library,
)
from taskverse.textenv.impossible import (
    GIVE_UP,
    GIVE_UP_ID,
    Resigning,
    impossible_scores,
    names_give_up,
    offered_text,
)
from taskverse.workers import Backend, run_jobs

REPORT_VERSION = 2
TERMINATIONS = ("success", "step_limit", "agent_error", "gave_up")
"""Why an episode ended: the target was done, the step limit was reached, the agent gave no usable answer, or it
said the task is impossible (``taskverse.textenv.impossible``)."""
REPORT_EVERY = 10.0
"""Seconds between rewrites of the partial report during a run (the trajectory file grows with every episode)."""


@dataclass(frozen=True)
class EvalTask:
    """A task to evaluate: how the user named it, what it resolved to, its own step limit (suites record one).

    ``impossible`` is the world model's proof that the task's start cannot reach it (generated impossible tasks,
    ``taskverse.textenv.impossible``), None for a task to be done.
    """

    reference: str
    target: Target
    max_steps: int | None = None
    impossible: str | None = None


@dataclass(frozen=True)
class EvalSettings:
    """What every episode of a run shares.

    Attributes:
        agent: ``random``, ``greedy``, ``optimal``, ``cmd:PROGRAM`` or ``openai:MODEL``.
        max_steps: The step limit of tasks that record none (suites record one per task), or of every task when
            ``override_steps``.
        override_steps: Use ``max_steps`` for every task, whatever the suite records.
        chance: ``expected`` or ``sample``.
        initialization: ``auto``, ``naive`` or ``task``.
        budget: States the optimal planner may expand.
        view: The candidate view (``all``, ``relevant``, ``top:K``; ``taskverse.textenv.views``).
        shuffle: List the view's candidates in an order drawn from each episode's seed.
        observations: Keep each step's text observation in the trajectories.
        options: Settings of external and language model agents.
        concurrency: Episodes under way at once in each worker, one thread each (for agents that wait on a
            server: that many requests in flight). Not part of the report's settings: it changes no result.
        give_up: Offer the give-up as one more candidate (``taskverse.textenv.impossible``); the built-in planners
            take it where the world model proves the target out of reach.

    """

    agent: str
    max_steps: int = DEFAULT_MAX_STEPS
    override_steps: bool = False
    chance: str = "sure"
    initialization: str = "auto"
    budget: int = DEFAULT_BUDGET
    view: str = "all"
    shuffle: bool = False
    observations: bool = True
    options: AgentOptions = field(default_factory=AgentOptions)
    concurrency: int = 1
    give_up: bool = False

    def public(self) -> dict[str, Any]:
        """The settings a report records (a resumed run must match them)."""
        out = {k: v for k, v in asdict(self).items() if k not in ("options", "concurrency")}
        if not self.give_up:  # reports made before the option existed still resume
            del out["give_up"]
        if self.agent.startswith(("cmd:", "openai:")):
            out["agent_options"] = self.options.public()
        return out


@dataclass(frozen=True)
class EpisodeJob:
    """One episode to run: which task (its index in the run), which episode of it, the seed, the target."""

    task_index: int
    episode: int
    seed: int
    target: Target
    max_steps: int
    impossible: bool = False


def suite_tasks(name: str, library: Any) -> list[EvalTask]:
    """The tasks of ``benchmarks/NAME.yaml`` (or a suite file path), each with the step limit the suite records.

    Raises a TaskverseError naming the file when it is missing or malformed.
    """
    from taskverse.benchmarks import suites

    suite = suites.load_suite(name)
    out = []
    for item in suite.tasks:
        task = suites.resolve_suite_task(item, library)
        out.append(EvalTask(item.id, resolve_target(task, library), item.max_steps))
    return out


def named_tasks(references: Sequence[str], library: Any) -> list[EvalTask]:
    """Tasks named on the command line (ids, descriptions, compositions or YAML paths)."""
    return [EvalTask(ref, resolve_target(ref, library)) for ref in references]


# -- one episode (runs in a worker) -----------------------------------------------------------------------------

_SESSIONS: dict[EvalSettings, tuple[SkillForgeTextEnv, Agent]] = {}
_THREAD = threading.local()
_THREAD_SESSIONS: list[dict[EvalSettings, tuple[SkillForgeTextEnv, Agent]]] = []
"""The sessions of the threads that run episodes side by side (``--concurrency``), to close at the end."""
_STOP = threading.Event()
"""Set when a run stops early: episodes running in threads end at their next step, their records dropped."""
_WORKER_LIBRARY: list[Any] = []
"""A library given to ``evaluate`` (forked local workers inherit it; others load the bundled one)."""


def _sessions() -> dict[EvalSettings, tuple[SkillForgeTextEnv, Agent]]:
    if threading.current_thread() is threading.main_thread():
        return _SESSIONS
    sessions = getattr(_THREAD, "sessions", None)
    if sessions is None:
        sessions = _THREAD.sessions = {}
        _THREAD_SESSIONS.append(sessions)
    return sessions


def _session(settings: EvalSettings) -> tuple[SkillForgeTextEnv, Agent]:
    """The worker's environment and agent for these settings (made once per worker process, or thread)."""
    _SESSIONS = _sessions()  # noqa: N806 - this thread's own
    session = _SESSIONS.get(settings)
    if session is None:
        library = _WORKER_LIBRARY[0] if _WORKER_LIBRARY else None
        env = SkillForgeTextEnv(observation="structured", max_steps=settings.max_steps, chance=settings.chance,
                                initialization=settings.initialization, view=settings.view,  # type: ignore[arg-type]
                                library=library, shuffle=settings.shuffle)
        agent = make_agent(settings.agent, settings.budget, replace(settings.options, give_up=settings.give_up))
        if settings.give_up and settings.agent in ("random", "greedy", "optimal"):
            agent = Resigning(agent)
        for old_env, old_agent in _SESSIONS.values():
            old_agent.close()
            old_env.close()
        _SESSIONS.clear()
        session = _SESSIONS[settings] = (env, agent)
    return session


def close_sessions() -> None:
    """Close the agents this process holds (external programs, clients), its threads' too."""
    for sessions in [_SESSIONS, *_THREAD_SESSIONS]:
        for _, agent in list(sessions.values()):
            agent.close()
        sessions.clear()
    _THREAD_SESSIONS.clear()


class _Stopped(Exception):
    """The run stopped while this episode was under way in a thread."""


def run_batch(settings: EvalSettings, jobs: list[EpisodeJob]) -> list[dict[str, Any]]:
    """Run a batch of episodes in a worker; their records in the order they ended.

    One after the other, or ``settings.concurrency`` side by side in threads. The worker keeps its sessions (the
    library, the agent) from one batch to the next.
    """
    if settings.concurrency <= 1:
        return [run_job(settings, job) for job in jobs]
    return [record for _, record in _threaded(settings, jobs, settings.concurrency)]


_POOLS: dict[int, Any] = {}
"""This process's episode threads, kept from one batch to the next (each thread keeps its session)."""


def _pool(threads: int) -> Any:
    from concurrent.futures import ThreadPoolExecutor

    pool = _POOLS.get(threads)
    if pool is None:
        for old in _POOLS.values():
            old.shutdown(wait=True)
        _POOLS.clear()
        pool = _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="taskverse-episode")
    return pool


def _threaded(settings: EvalSettings, jobs: Sequence[EpisodeJob], threads: int) -> Iterator[tuple[int, Any]]:
    """(index, record) of episodes run in ``threads`` threads, as they end (at most ``threads`` under way).

    Agents that wait on a server (``openai:``) keep ``threads`` requests in flight, which a model server batches.
    """
    from concurrent.futures import Future, wait

    from taskverse.workers import windowed

    def stop(pending: list[Future[Any]]) -> None:
        """Stopped early: the episodes under way end at their next step, their records dropped."""
        _STOP.set()
        for future in pending:
            future.cancel()
        wait(pending)
        _STOP.clear()

    yield from windowed(_pool(threads), run_job, ((settings, job) for job in jobs), threads, stop)


def _episodes(settings: EvalSettings, jobs: list[EpisodeJob], backend: Backend) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` as they end, run on ``backend`` and, with ``settings.concurrency``, in threads.

    Ray workers (a pool of actors that loaded the library once, ``prepare_worker``) take batches of episodes
    (``ray_batch``), so a call's fixed cost is paid per batch, not per episode; local workers take one episode at
    a time (or ``concurrency`` of them), as they cost next to nothing to hand out.
    """
    threads = settings.concurrency
    size = ray_batch(len(jobs), backend.workers) * max(1, threads) if backend.ray else threads
    if not backend.ray and backend.workers <= 1 and threads > 1:
        for _, record in _threaded(settings, jobs, threads):
            yield record
    elif size <= 1:
        for _, record in run_jobs(run_job, [(settings, job) for job in jobs], backend=backend,
                                  setup=prepare_worker):
            yield record
    else:
        batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        for _, records in run_jobs(run_batch, [(settings, batch) for batch in batches], backend=backend,
                                   setup=prepare_worker):
            yield from records


def prepare_worker() -> None:
    """What a Ray actor does once when it starts: load the library and compile its rules (both kept)."""
    from taskverse.world.rules import Rules

    Rules.for_library(shared_library())


def ray_batch(jobs: int, workers: int) -> int:
    """Episodes per call to a Ray actor: enough that a call's overhead vanishes, at most 64.

    Few enough that every worker has about eight batches, so a partial report still grows as the run goes.

    Example:
        >>> ray_batch(1000, 2), ray_batch(10, 2), ray_batch(100_000, 8)
        (62, 1, 64)

    """
    return max(1, min(64, jobs // (8 * max(1, workers))))


def run_job(settings: EvalSettings, job: EpisodeJob) -> dict[str, Any]:
    """Run one episode; its record (the trajectory line): summary figures and every step."""
    env, agent = _session(settings)
    record = run_episode(env, agent, job.target, job.seed, max_steps=job.max_steps,
                         observations=settings.observations, give_up=settings.give_up)
    if settings.give_up:
        record["impossible"] = job.impossible
    return record | {"task_index": job.task_index, "episode": job.episode}


def run_episode(env: SkillForgeTextEnv, agent: Agent, target: Target, seed: int, max_steps: int | None = None,
                observations: bool = True, give_up: bool = False) -> dict[str, Any]:
    """One episode of ``agent`` on ``target``: its record, with the trajectory (``steps``).

    An agent that gives no usable answer (``AgentError``) ends the episode as failed with the reason
    (``termination: agent_error``); an answer that names no candidate, or is refused (``AnswerRefused``), wastes
    the step and counts as an invalid answer (``invalid_answers``, and ``invalid_answer_rate`` over the answers
    asked for); an action that names a candidate the world refuses counts only as an invalid action. With
    ``give_up`` the observations offer the give-up (``taskverse.textenv.impossible``), and an agent that takes it
    ends the episode (``termination: gave_up``, ``gave_up``), unsuccessful.
    """
    started = time.monotonic()
    options: dict[str, Any] = {"task": target}
    if max_steps is not None:
        options["max_steps"] = max_steps
    _, info = env.reset(seed=seed, options=options)
    agent.reset(env, seed)
    done = truncated = False
    invalid = invalid_answers = answers = 0
    steps: list[dict[str, Any]] = []
    termination = error = None
    gave_up = False
    rules = env.rules
    while not (done or truncated):
        if _STOP.is_set() and threading.current_thread() is not threading.main_thread():
            raise _Stopped
        step: dict[str, Any] = {"step": env.steps}
        if observations:
            step["observation"] = offered_text(env.text(), len(env.shown_candidates())) if give_up else env.text()
        steps.append(step)
        answers += 1
        try:
            choice = agent.act(env)
        except AnswerRefused as exc:
            _record_thoughts(step, agent)
            _, reward, done, truncated, info = env.invalid_step(str(exc))
            invalid += 1
            invalid_answers += 1
            step.update(action=None, invalid=True, error=str(exc), reward=reward)
            continue
        except (AgentError, TaskverseError) as exc:
            termination, error = "agent_error", str(exc)
            _record_thoughts(step, agent)
            step.update(action=None, invalid=True, error=error, reward=0.0)
            recover = getattr(agent, "recover", None)
            if recover is not None:
                try:
                    recover()
                except TaskverseError as again:
                    error += f"; restarting the agent failed: {again}"
            break
        _record_thoughts(step, agent)
        if give_up and (choice == GIVE_UP or isinstance(choice, str) and
                        names_give_up(choice, len(env.shown_candidates()))):
            if isinstance(choice, str):
                step.setdefault("answer", choice[:2000])
            step.update(action=GIVE_UP_ID, invalid=False, reward=0.0)
            termination, gave_up = "gave_up", True
            break
        if isinstance(choice, str):
            step.setdefault("answer", choice[:2000])
            try:
                action = resolve_action_text(env, choice)
            except TaskverseError as exc:
                _, reward, done, truncated, info = env.invalid_step(str(exc))
                invalid += 1
                invalid_answers += 1
                step.update(action=None, invalid=True, error=str(exc), reward=reward)
                continue
        else:
            action = int(choice)
        _, reward, done, truncated, info = env.step(action)
        step.update(action=rules.actions[action], invalid=bool(info["invalid_action"]), reward=reward)
        if info["invalid_action"]:
            invalid += 1
            step["error"] = info.get("error")
    if termination is None:
        termination = "success" if done else "step_limit"
    steps_taken = int(env.steps)
    optimal = info.get("optimal_steps")
    success = bool(done)
    efficiency: float | None = 0.0
    if success:  # an unproven "shortest" plan can be beaten: the ratio is capped at 1
        efficiency = None if not optimal else round(min(1.0, optimal / max(steps_taken, 1)), 4)
    record: dict[str, Any] = {
        "task": target.id,
        "seed": seed,
        "success": success,
        "termination": termination,
        "error": error,
        "steps": steps_taken,
        "max_steps": env.max_steps,
        "efficiency": efficiency,
        "invalid_actions": invalid,
        "invalid_answers": invalid_answers,
        "answers": answers,
        "invalid_answer_rate": round(invalid_answers / answers, 4) if answers else 0.0,
        "progress": round(float(info["progress"]), 4),
        "reward": float(success),
        "optimal_steps": optimal,
        "optimal_proven": info.get("optimal_proven"),
        "actions": env.trajectory,
    }
    if give_up:
        record["gave_up"] = gave_up
    usage = getattr(agent, "usage", None)
    if usage is not None:
        record["usage"] = usage()
    record["seconds"] = round(time.monotonic() - started, 4)
    record["trajectory"] = steps
    return record


def _record_thoughts(step: dict[str, Any], agent: Agent) -> None:
    messages = getattr(agent, "messages", None)
    if messages is not None:  # exactly what was sent (a language model's prompt)
        step["messages"] = messages
    answer = getattr(agent, "answer", None)
    reasoning = getattr(agent, "reasoning", None)
    if answer is not None:
        step["answer"] = answer
    if reasoning:
        step["reasoning"] = reasoning


# -- a run ---------------------------------------------------------------------------------------------------------

EPISODE_FIELDS = ("seed", "success", "termination", "error", "steps", "max_steps", "efficiency", "invalid_actions",
                  "invalid_answers", "answers", "invalid_answer_rate", "progress", "reward", "usage", "seconds",
                  "impossible", "gave_up")


def trajectories_path(report: Path) -> Path:
    """Where a report's trajectories go: ``report.json`` -> ``report.trajectories.jsonl``."""
    return report.with_name(report.stem + ".trajectories.jsonl")


def evaluate(agent_spec: str | EvalSettings, tasks: Sequence[EvalTask], episodes: int = 1, seed: int = 0,
             max_steps: int | None = None, chance: str = "sure", initialization: str = "auto",
             suite: str | None = None, progress: bool = True, library: Any = None,
             budget: int = DEFAULT_BUDGET, backend: Backend | None = None, output: Path | None = None,
             trajectories: Path | None = None, resume: bool = False) -> dict[str, Any]:
    """Run ``episodes`` episodes of an agent per task; returns the report (and writes it to ``output``).

    Episode ``k`` of task ``i`` is seeded ``seed + i * episodes + k`` (the environment and the agent alike), so
    a report is reproducible from its seed. ``agent_spec`` is an agent name or the full ``EvalSettings``.
    Trajectories go to ``trajectories`` (default: next to ``output``; none without either). With ``resume``,
    the episodes already in the trajectory file are kept (but those that ended in an agent error run again) and
    only the rest run; the report's ``run.wall_seconds`` adds up the time of every run. An interrupt (Ctrl-C)
    stops the run with a partial report (``complete: false``) written and raises ``KeyboardInterrupt``. Both
    files go through the output layer (``taskverse.fileio``).
    """
    from tqdm import tqdm

    if not tasks:
        raise TaskverseError("no tasks to evaluate")
    if episodes < 1:
        raise TaskverseError(f"--episodes {episodes}: expected at least 1")
    settings = agent_spec if isinstance(agent_spec, EvalSettings) else EvalSettings(
        agent=agent_spec, max_steps=max_steps or DEFAULT_MAX_STEPS, override_steps=max_steps is not None,
        chance=chance, initialization=initialization, budget=budget)
    backend = backend or Backend()
    jobs = [EpisodeJob(i, k, seed + i * episodes + k, task.target,
                       task.max_steps if task.max_steps and not settings.override_steps else settings.max_steps,
                       task.impossible is not None)
            for i, task in enumerate(tasks) for k in range(episodes)]
    if any(task.impossible for task in tasks) and not settings.give_up:
        raise TaskverseError("impossible tasks need the give-up offered (EvalSettings.give_up)")
    if trajectories is None and output is not None:
        trajectories = trajectories_path(output)
    if output is not None and trajectories is not None and same_file(output, trajectories):
        raise TaskverseError("the trajectories cannot go to the report's own file; give another --trajectories",
                             file=trajectories)
    header = {"version": REPORT_VERSION, "agent": settings.agent, "suite": suite, "episodes_per_task": episodes,
              "seed": seed, **{k: v for k, v in settings.public().items() if k != "agent"},
              "tasks_run": [task.reference for task in tasks]}
    records: dict[tuple[int, int], dict[str, Any]] = {}
    earlier_seconds = 0.0
    if resume:
        if output is None or trajectories is None:
            raise TaskverseError("--resume needs the report to continue (-o REPORT.json)")
        records, earlier_seconds = _resumable(output, trajectories, header, jobs)
    todo = [job for job in jobs if (job.task_index, job.episode) not in records]
    check_agent = make_agent(settings.agent, settings.budget, settings.options) if todo and \
        settings.agent.startswith("openai:") else None  # a missing client or key: one message before any episode
    if check_agent is not None:
        check_agent.close()
    if library is not None and library is not shared_library():
        _WORKER_LIBRARY[:] = [library]
        if backend.ray:
            raise TaskverseError("a custom library cannot be shipped to Ray workers: evaluate with the bundled one")
    lines: dict[tuple[int, int], int] = {}
    if trajectories is not None:
        lines = {key: n for n, key in enumerate(records, start=1)}
    bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc=f"eval {settings.agent}", unit="episode",
               file=sys.stderr, disable=not progress, dynamic_ncols=True)
    started = time.monotonic() - earlier_seconds
    last_write = time.monotonic()
    complete = False
    stream = open_log(trajectories, fresh=not resume) if trajectories is not None else None
    failures: dict[str, int] = {}
    interrupts = _Interrupts()
    try:
        interrupts.install()
        for record in _episodes(settings, todo, backend):
            key = (record["task_index"], record["episode"])
            if stream is not None:
                stream.write(json.dumps(record).encode("utf-8") + b"\n")
                stream.flush()
                lines[key] = len(lines) + 1
            record.pop("trajectory", None)
            records[key] = record
            if record["termination"] == "agent_error":
                message = record["error"] or "the agent failed"
                failures[message] = failures.get(message, 0) + 1
                if failures[message] == 1:  # each distinct failure once, not once per episode
                    bar.write(f"episode {record['episode']} of {tasks[key[0]].reference!r} failed: {message}",
                              file=sys.stderr)
            bar.update(1)
            if output is not None and time.monotonic() - last_write > REPORT_EVERY:
                _write_report(output, build_report(header, tasks, records, lines, trajectories, backend,
                                                   complete=False, seconds=time.monotonic() - started))
                last_write = time.monotonic()
            if interrupts.pressed:  # a Ctrl-C whose KeyboardInterrupt a C extension swallowed: stop here
                raise KeyboardInterrupt
        complete = True
    finally:
        interrupts.remove()
        bar.close()
        if stream is not None:
            stream.close()
        close_sessions()
        if complete and trajectories is not None:
            lines = _sort_trajectories(trajectories)
        report = build_report(header, tasks, records, lines, trajectories, backend, complete=complete,
                              seconds=time.monotonic() - started)
        if output is not None:
            _write_report(output, report)
    return report


class _Interrupts:
    """Ctrl-C during a run: it raises KeyboardInterrupt as usual, and is also remembered.

    An interrupt raised while a C extension is calling back into Python can be swallowed there, and the run would
    go on to the end; remembered, it still stops the run at the next finished episode. Only the main thread can
    install a handler; elsewhere nothing changes.
    """

    def __init__(self) -> None:
        self.pressed = False
        self.previous: Any = None

    def install(self) -> None:
        """Remember Ctrl-C from now on (in the main thread)."""
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)

    def remove(self) -> None:
        """Put back the handler there was."""
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def _handle(self, signum: int, frame: Any) -> None:
        self.pressed = True
        raise KeyboardInterrupt


MAX_REPORT_BYTES = 256 * 1024 * 1024
"""The largest report ``--resume`` reads (about a million episodes)."""
MAX_TRAJECTORY_LINE_BYTES = 256 * 1024 * 1024
"""The longest trajectory line read back (an episode of thousands of steps with its prompts); longer runs again."""


def _resumable(output: Path, trajectories: Path, header: dict[str, Any],
               jobs: list[EpisodeJob]) -> tuple[dict[tuple[int, int], dict[str, Any]], float]:
    """The finished episodes of an earlier run of the same evaluation (its settings must match), and its time.

    Episodes that ended in an agent error are left out, so they run again (an endpoint that was down may be up).
    The trajectory file is rewritten (atomically) with the episodes kept.
    """
    records, earlier = resumable_records(
        output, trajectories, header, {(job.task_index, job.episode): job.seed for job in jobs},
        report="eval", index="task_index", agent_error=lambda record: record.get("termination") == "agent_error")
    for record in records.values():
        record.pop("trajectory", None)
    return records, earlier


def resumable_records(output: Path, trajectories: Path, header: dict[str, Any], wanted: dict[tuple[int, int], Any],
                      report: str, index: str, agent_error: Callable[[dict[str, Any]], bool],
                      required: str | None = None) -> tuple[dict[tuple[int, int], dict[str, Any]], float]:
    """An earlier run's finished episodes by (``index``, episode) and its wall time, for ``--resume``.

    The report at ``output`` (a taskverse ``report`` report, holding ``required`` if given) must have been made
    with ``header``; each trajectory line must be an episode of ``wanted`` (its seed by key), at most once. A line
    cut short when the run was killed ends the reading (it and what follows run again); episodes ``agent_error``
    picks are left out, so they run again. The trajectory file is rewritten (atomically) with the episodes kept.
    Serves the text world's and the engine's evaluations alike.
    """
    from taskverse.fileio import check_readable, read_json

    try:
        check_readable(output, "report", MAX_REPORT_BYTES)
    except TaskverseError as exc:
        if not os.path.lexists(output):
            raise TaskverseError("no report to resume (run without --resume to start one)", file=output) from None
        raise exc from None
    old = read_json(output, "report", MAX_REPORT_BYTES)
    if not isinstance(old, dict) or (required is not None and required not in old):
        raise TaskverseError(f"not a taskverse {report} report", file=output)
    for key, value in header.items():
        if old.get(key) != value:
            raise TaskverseError(f"the report was made with {key}={_short(old.get(key))}, not {_short(value)}: "
                                 "resume with the same arguments", file=output, field=key)
    run = old.get("run")
    earlier = run.get("wall_seconds") if isinstance(run, dict) else None
    earlier = float(earlier) if isinstance(earlier, (int, float)) and not isinstance(earlier, bool) and \
        0 <= earlier < 1e9 else 0.0
    records: dict[tuple[int, int], dict[str, Any]] = {}
    kept: list[tuple[int, int]] = []
    if os.path.lexists(trajectories):
        for number, (offset, line) in enumerate(read_lines(trajectories, MAX_TRAJECTORY_LINE_BYTES,
                                                           "trajectory file"), start=1):
            try:
                record = json.loads(line) if line is not None else None
                if not isinstance(record, dict):
                    break
                found = (int(record[index]), int(record["episode"]))
            except (ValueError, KeyError, TypeError, RecursionError):
                break  # a line cut short when the run was killed: it and what follows run again
            if found not in wanted or record.get("seed") != wanted[found] or found in records:
                raise TaskverseError(f"line {number} is not an episode of this evaluation", file=trajectories)
            if agent_error(record):
                continue
            records[found] = record
            kept.append((offset, len(line or b"")))
        _copy_lines(trajectories, kept)
    return records, earlier


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _copy_lines(path: Path, spans: list[tuple[int, int]]) -> None:
    """Rewrite ``path`` (atomically) with the given (offset, length) spans of it, each as a line, in that order."""
    with output_file(path, force=True) as tmp, open(path, "rb") as source, open(tmp, "wb") as target:
        for offset, length in spans:
            source.seek(offset)
            target.write(source.read(length) + b"\n")


def _sort_trajectories(path: Path) -> dict[tuple[int, int], int]:
    """Rewrite the trajectory file in task and episode order; the line of each episode."""
    entries = []
    for offset, line in read_lines(path, MAX_TRAJECTORY_LINE_BYTES, "trajectory file"):
        if line is None:
            continue
        record = json.loads(line)
        entries.append(((int(record["task_index"]), int(record["episode"])), offset, len(line)))
    entries.sort(key=lambda e: e[0])
    _copy_lines(path, [(offset, length) for _, offset, length in entries])
    return {key: n for n, (key, _, _) in enumerate(entries, start=1)}


def _write_report(path: Path, report: dict[str, Any]) -> None:
    """Write the report whole or not at all (a reader never sees half a report)."""
    write_text(path, json.dumps(report, indent=2) + "\n", force=True)


def build_report(header: dict[str, Any], tasks: Sequence[EvalTask], records: dict[tuple[int, int], dict[str, Any]],
                 lines: dict[tuple[int, int], int], trajectories: Path | None, backend: Backend, complete: bool,
                 seconds: float) -> dict[str, Any]:
    """The report over the episodes finished so far (``complete`` when every episode ran)."""
    task_records = []
    episodes = header["episodes_per_task"]
    for i, task in enumerate(tasks):
        runs = []
        for k in range(episodes):
            record = records.get((i, k))
            if record is None:
                continue
            run = {name: record.get(name) for name in EPISODE_FIELDS if name in record}
            run["episode"] = k
            if (i, k) in lines:
                run["line"] = lines[(i, k)]
            runs.append(run)
        first = records.get((i, 0)) or next((records[(i, k)] for k in range(episodes) if (i, k) in records), None)
        target = task.target
        task_records.append({
            "task": task.reference,
            "id": target.id,
            "description": target.description,
            "category": target.category,
            **({"impossible": task.impossible} if task.impossible is not None else {}),
            "max_steps": first["max_steps"] if first else None,
            "optimal_steps": first["optimal_steps"] if first else None,
            "optimal_proven": first["optimal_proven"] if first else None,
            **_stats(runs),
            "episodes": runs,
        })
    # success is over the tasks to be done; the impossible ones are scored apart, by F1
    possible = [record for record in task_records if "impossible" not in record]
    all_runs = [run for record in possible for run in record["episodes"]]
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in possible:
        by_category[record["category"]].extend(record["episodes"])
    total = len(tasks) * episodes
    return {
        **header,
        "complete": complete,
        "episodes_done": sum(len(record["episodes"]) for record in task_records),
        "episodes_total": total,
        "run": {**backend.describe(), "wall_seconds": round(seconds, 3)},
        "trajectories": None if trajectories is None else str(trajectories),
        "summary": {"tasks": len(possible), **_stats(all_runs)},
        "by_category": {category: {"tasks": sum(1 for r in possible if r["category"] == category), **_stats(runs)}
                        for category, runs in sorted(by_category.items())},
        **({"impossible": {"tasks": len(task_records) - len(possible), **impossible_scores(
            [run for record in task_records for run in record["episodes"]])}} if header.get("give_up") else {}),
        "tasks": task_records,
    }


def _stats(runs: list[dict[str, Any]]) -> dict[str, Any]:
    successes = [r for r in runs if r["success"]]
    rated = [r["efficiency"] for r in runs if r["efficiency"] is not None]
    rated_successes = [r["efficiency"] for r in successes if r["efficiency"] is not None]
    usage: dict[str, int] = {}
    for run in runs:
        for name, value in (run.get("usage") or {}).items():
            usage[name] = usage.get(name, 0) + int(value)
    out = {
        "episodes": len(runs),
        "successes": len(successes),
        "success_rate": round(len(successes) / len(runs), 4) if runs else 0.0,
        "success_se": _standard_error(len(successes), len(runs)),
        "mean_steps": round(statistics.fmean(r["steps"] for r in runs), 3) if runs else 0.0,
        "mean_steps_successful": round(statistics.fmean(r["steps"] for r in successes), 3) if successes else None,
        "plan_efficiency": round(statistics.fmean(rated), 4) if rated else 0.0,
        "plan_efficiency_successful": round(statistics.fmean(rated_successes), 4) if rated_successes else None,
        "invalid_actions": sum(r["invalid_actions"] for r in runs),
        "invalid_answers": sum(r.get("invalid_answers", 0) for r in runs),
        "invalid_answer_rate": _rate(runs),
        "agent_errors": sum(1 for r in runs if r.get("termination") == "agent_error"),
    }
    if usage:
        out["usage"] = usage
    return out


def _standard_error(successes: int, n: int) -> float:
    """The standard error of a success rate over ``n`` episodes, sqrt(p (1 - p) / n) (0 for none)."""
    if n == 0:
        return 0.0
    p = successes / n
    return round(math.sqrt(p * (1 - p) / n), 4)


def _rate(runs: list[dict[str, Any]]) -> float:
    """Invalid answers over answers asked for, over the runs (0 when none was asked)."""
    asked = sum(r.get("answers", 0) for r in runs)
    return round(sum(r.get("invalid_answers", 0) for r in runs) / asked, 4) if asked else 0.0


def summary_lines(report: dict[str, Any]) -> list[str]:
    """A short human-readable summary of a report."""
    s = report["summary"]
    partial = "" if report.get("complete", True) else \
        f" (partial: {report['episodes_done']}/{report['episodes_total']} episodes ran)"
    lines = [f"{report['agent']}: {s['successes']}/{s['episodes']} episodes succeeded "
             f"({100 * s['success_rate']:.1f}% ± {100 * s.get('success_se', 0.0):.1f}) on {s['tasks']} task(s); "
             f"mean steps {s['mean_steps']:.1f}; plan efficiency {s['plan_efficiency']:.3f}{partial}"]
    if s.get("invalid_answers"):
        lines.append(f"  invalid answers: {s['invalid_answers']} ({100 * s['invalid_answer_rate']:.1f}% of the "
                     "answers; see each step's error in the trajectories)")
    if s.get("agent_errors"):
        lines.append(f"  {s['agent_errors']} episode(s) failed because the agent gave no usable answer "
                     "(see each episode's error)")
    if s.get("usage"):
        lines.append("  usage: " + ", ".join(f"{k} {v}" for k, v in s["usage"].items()))
    f1 = report.get("impossible")
    if f1 is not None:
        lines.append(f"  impossible tasks: {f1['tasks']} ({f1['episodes']} episodes); said impossible "
                     f"{f1['said_impossible']} times ({f1['true_positives']} rightly); precision "
                     f"{f1['precision']:.3f}, recall {f1['recall']:.3f}, F1 {f1['f1']:.3f}")
    for category, c in report["by_category"].items():
        lines.append(f"  {category:<13} {c['successes']:>4}/{c['episodes']:<4} success {100 * c['success_rate']:5.1f}% "
                     f"± {100 * c.get('success_se', 0.0):4.1f}"
                     f"  steps {c['mean_steps']:6.1f}  efficiency {c['plan_efficiency']:.3f}")
    return lines


__all__ = ["EpisodeJob", "EvalSettings", "EvalTask", "build_report", "evaluate", "make_agent", "named_tasks",
           "run_episode", "run_job", "suite_tasks", "summary_lines", "trajectories_path"]
