"""``taskverse engine eval``: the text world's agents acting a step at a time in the real engine.

Each episode is an :class:`~taskverse.engine.episode.EngineEpisode` of a compiled task; the agent, built as
``taskverse eval`` builds it (``taskverse.textenv.agents.make_agent``: ``optimal``, ``greedy``, ``random``,
``cmd:PROGRAM``, ``openai:MODEL``, with the text world's options), acts through one adapter
(``taskverse.engine.adapter.EngineWorld``) until the runtime decides the task, the agent stops, or the step
limit. Tasks that do not compile for the game are in the report with the compiler's reason and count as not run.
The report gives the success rate, steps, invalid steps, the failed steps' reasons and a breakdown by category;
each episode's ``trajectory`` holds its steps (action, outcome, progress, and the agent's answer and reasoning).
Impossible tasks (``impossible``, ``taskverse.engine.impossible``) are run with the give-up offered, as in the
text world: success is over the tasks to be done, and saying "impossible" is scored apart by precision, recall and
F1 (the report's ``impossible``).

With a report file (``output``) every finished episode is also appended at once to its trajectory file
(``REPORT.trajectories.jsonl``, as the text world's), and the report is rewritten as the run goes, so a run that
is interrupted or killed leaves what it finished: ``resume`` keeps those episodes (but runs again the ones that
ended in an agent error), runs the rest and adds the earlier run's wall time. Episodes run in threads of this
process (``workers`` at a time, each with its own server and client) or as Ray tasks (``taskverse.workers``), in
chains of one task's episodes (``taskverse.engine.chains``): each episode of a chain after the first starts again
in the server of the one before when that server can give the start back whole, and on a new server when it
cannot (``fresh_server``: always on a new one). The report is the same either way, but for timings and the
counts of how episodes started (each record's ``server`` and ``servers_started``, the summary's
``servers_started`` and ``restarted_in_server``).

Example:
    >>> report = evaluate_engine([("craft.stick", task)], EngineSettings("optimal"), library=lib)  # doctest: +SKIP
    >>> report["summary"]["success_rate"]  # doctest: +SKIP
    1.0

"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from taskverse.engine.episode import EngineEpisode
from taskverse.engine.starts import start_as
from taskverse.errors import TaskverseError
from taskverse.textenv.impossible import GIVE_UP_ID
from taskverse.textenv.options import AgentOptions
from taskverse.workers import Backend

DEFAULT_MAX_STEPS = 1000
DEFAULT_BUDGET = 1000
"""States the optimal agent's planner may expand looking for a shorter plan (``engine.planner.DEFAULT_BUDGET``)."""
REPORT_EVERY = 10.0
"""Seconds between rewrites of the partial report during a run (the trajectory file grows with every episode)."""


@dataclass(frozen=True)
class EngineSettings:
    """What every episode of an engine evaluation shares (a resumed run must have the same).

    Attributes:
        agent: ``optimal``, ``greedy``, ``random``, ``cmd:PROGRAM`` or ``openai:MODEL``.
        game: The engine game.
        max_steps: The step limit of every episode.
        budget: States the optimal agent's planner may expand.
        shuffle: List the candidates in an order drawn from each episode's seed.
        options: Settings of ``cmd:`` and ``openai:`` agents (``textenv.options.AgentOptions``).
        screenshots: A folder for each episode's first-person frames (``<folder>/<task>-<episode>/``).
        initialization: Where episodes start: ``task`` (the task's own start, as it compiles), ``naive`` (an empty
            inventory: the task wrapped in ``naive(...)``) or ``auto`` (the text world's default: naive unless the
            task has a custom ``init(...)``).
        view: Which candidates observations list (``all``, ``relevant``, ``top:K``; ``adapter.EngineWorld``).
        give_up: Offer the give-up (a run with impossible tasks); the planner agents give up where the game's model
            proves the task out of reach (``engine.impossible.game_proof``).
        fresh_server: Start a new server on a fresh world for every episode, instead of starting the next episode
            of a task again in the server that played the last one (``engine.chains``); the report is the same
            but for timings and server counts, so a resumed run may choose either.

    """

    agent: str
    game: str = "minetest_game"
    max_steps: int = DEFAULT_MAX_STEPS
    budget: int = DEFAULT_BUDGET
    shuffle: bool = False
    options: AgentOptions = field(default_factory=AgentOptions)
    screenshots: str | None = None
    initialization: str = "task"
    view: str = "all"
    give_up: bool = False
    fresh_server: bool = False

    def public(self) -> dict[str, Any]:
        """The settings a report records (never a key; not where frames go nor how servers start: no result differs)."""
        out: dict[str, Any] = {"max_steps": self.max_steps, "budget": self.budget, "shuffle": self.shuffle}
        if self.initialization != "task":  # only then: reports made before the option existed still resume
            out["init"] = self.initialization
        if self.view != "all":
            out["view"] = self.view
        if self.give_up:
            out["give_up"] = True
        if self.agent.startswith(("cmd:", "openai:")):
            out["agent_options"] = self.options.public()
        return out


@dataclass(frozen=True)
class EngineJob:
    """One episode to run: which task (its index in the run), which episode of it, its seed, the compiled task.

    ``impossible``: the task is one of the run's impossible ones (scored by the give-up). ``description``: the
    task as the user gave it, in words (``craft stick``, as the text world names it), before its start mode made it
    another task (``naive(craft.stick)``, a molecule of its own id).
    """

    index: int
    episode: int
    seed: int
    task: Any
    ir: Any
    impossible: bool = False
    description: str | None = None


def check_agent(spec: str) -> None:
    """Raise a TaskverseError (with close matches) unless ``spec`` names an agent (the text world's check)."""
    from taskverse.textenv.agents import check_agent_spec

    check_agent_spec(spec)


def trajectories_path(report: Path) -> Path:
    """Where a report's trajectories go: ``report.json`` -> ``report.trajectories.jsonl`` (as the text world's)."""
    from taskverse.textenv.evaluation import trajectories_path as text_path

    return text_path(report)


# -- one episode -------------------------------------------------------------------------------------------------------

def _thoughts(step: dict[str, Any], agent: Any) -> None:
    """What the agent said besides its action: the messages sent, its answer, its reasoning."""
    for name in ("messages", "answer", "reasoning"):
        value = getattr(agent, name, None)
        if value:
            step[name] = value


def frames_folder(settings: EngineSettings, job: EngineJob) -> Path | None:
    """Where an episode's frames go with screenshots: ``<screenshots>/<task index>-<episode>/`` (else None)."""
    return None if settings.screenshots is None else Path(settings.screenshots) / f"{job.index}-{job.episode}"


def episode_for(job: EngineJob, settings: EngineSettings, *, library: Any,
                client_home: Path | None = None) -> EngineEpisode:
    """An episode of the job's task, no server started yet (the first reset starts one)."""
    return EngineEpisode(job.task, library=library, game=settings.game, ir=job.ir, client_home=client_home,
                         screenshots=frames_folder(settings, job), reuse=not settings.fresh_server)


def run_engine_episode(job: EngineJob, agent: Any, settings: EngineSettings, *, library: Any,
                       client_home: Path | None = None, episode: EngineEpisode | None = None) -> dict[str, Any]:
    """One episode of ``job`` with the agent: a record of it (never raises for the agent's or the engine's failures).

    The agent is reset before the server starts, so a planner agent with no plan for the task costs no engine.
    With ``episode`` (an episode of the same task, made by :func:`episode_for`, that played earlier episodes) the
    episode starts again in its server when the server can give the start back whole (``EngineEpisode.reset``),
    and the server is left running for the next one unless the engine failed; without, a server is started and
    stopped for this episode alone. The record says which start it had (``server``: ``fresh`` or ``restart``;
    ``refused_restart``: why the running server could not be reused) and how many servers it started.
    """
    from taskverse.engine.adapter import EngineWorld
    from taskverse.engine.agents import AgentStopped, GaveUp
    from taskverse.engine.candidates import describe
    from taskverse.engine.planner import NoPlan
    from taskverse.textenv.options import AgentError

    own = episode is None
    if episode is None:
        episode = episode_for(job, settings, library=library, client_home=client_home)
    else:
        episode.use_task(job.task, job.ir)  # another task of the chain: its start in the same server where it can
        if (folder := frames_folder(settings, job)) is not None:
            episode.keep_frames_in(folder)  # each episode's frames in a folder of its own, as on a new server
    world = EngineWorld(episode, max_steps=settings.max_steps, shuffle=settings.shuffle, view=settings.view,
                        give_up=settings.give_up)
    started = time.monotonic()
    record: dict[str, Any] = {"index": job.index, "episode": job.episode, "task": job.task.id,
                              "description": job.description or job.task.description, "seed": job.seed,
                              "success": False, "steps": 0, "invalid_steps": 0, "error": None, "failed_steps": []}
    if settings.give_up:
        record.update(impossible=job.impossible, gave_up=False)
    world.begin(job.seed)
    try:
        agent.reset(world, job.seed)
    except NoPlan as exc:
        record.update(error=f"no plan: {exc.message}", seconds=time.monotonic() - started, trajectory=[],
                      servers_started=0)
        return record
    trajectory: list[dict[str, Any]] = []
    stopped = False
    keep = False  # whether the server stays up for the next episode: not when the engine failed or on Ctrl-C
    servers = episode.server_starts
    try:
        result = world.reset(job.seed)
        record["server"] = episode.last_reset
        if episode.last_reset == "fresh" and episode.refused_restart is not None:
            record["refused_restart"] = episode.refused_restart
        while not result.done and episode.steps < settings.max_steps:
            step: dict[str, Any] = {}
            try:
                result = world.turn(agent)
            finally:
                _thoughts(step, agent)
            if result.frame is not None:
                step["frame"] = result.frame
            trajectory.append({"step": result.step, "action": result.action, "ok": result.ok,
                               "invalid": result.invalid, "error": result.error,
                               "progress": result.observation.task.progress, **step})
        keep = True
    except GaveUp:
        step["action"] = GIVE_UP_ID  # a step of the agent's, not the engine's: the episode ends here, unsuccessful
        trajectory.append({"step": episode.steps, "action": GIVE_UP_ID, "ok": True, "invalid": False, "error": None,
                           "progress": result.observation.task.progress, **step})
        record["gave_up"] = stopped = keep = True
    except AgentStopped:
        stopped = keep = True
    except AgentError as exc:
        keep = True  # the agent failed, not the engine: its server can start the next episode
        record["error"] = f"agent: {exc.message}"
        recover = getattr(agent, "recover", None)
        if recover is not None:
            try:
                recover()
            except TaskverseError as again:
                record["error"] += f"; restarting the agent failed: {again.message}"
    except TaskverseError as exc:
        record["error"] = f"engine: {exc.message}"
    finally:
        report = episode.current_report() if keep and not own else episode.close()
    record["servers_started"] = episode.server_starts - servers
    record.update(success=bool(report and report.success), steps=episode.steps, invalid_steps=episode.invalid_steps,
                  progress=report.progress if report else 0.0, events=len(report.events) if report else 0,
                  replay_agrees=bool(report and report.replay and report.replay.agrees),
                  failed_steps=[{"step": s["step"], "error": s["error"]} for s in trajectory if not s["ok"]][:20],
                  seconds=time.monotonic() - started, trajectory=trajectory,
                  # the actions played, in words, as the text world's records list them: --few-shot reads them
                  actions=[describe(s["action"]) for s in trajectory
                           if not s["invalid"] and isinstance(s["action"], dict)])
    usage = getattr(agent, "usage", None)
    if usage is not None:
        record["usage"] = usage()
    if record["error"] is None and not record["success"]:
        reason = trajectory[-1]["error"] if trajectory and not trajectory[-1]["ok"] else None
        record["reason"] = "gave up" if record.get("gave_up") else \
            reason or ("step limit" if episode.steps >= settings.max_steps else
                       "the agent stopped" if stopped or not trajectory else "not done")
    return record


# -- agents, one per thread (local) or per process (Ray) ---------------------------------------------------------------

_LOCAL = threading.local()
_MADE: list[Any] = []
_MADE_LOCK = threading.Lock()


def _agent(settings: EngineSettings) -> Any:
    """The agent of this thread for the settings (a ``cmd:`` program runs for the whole evaluation, one per thread)."""
    from taskverse.textenv.agents import make_agent

    made = getattr(_LOCAL, "agents", None)
    if made is None:
        made = _LOCAL.agents = {}
    agent = made.get(settings)
    if agent is None:
        agent = make_agent(settings.agent, settings.budget, replace(settings.options, give_up=settings.give_up))
        if settings.give_up and settings.agent in ("random", "greedy", "optimal"):
            from taskverse.engine.impossible import episode_proof
            from taskverse.textenv.impossible import Resigning

            agent = Resigning(agent, episode_proof)
        made[settings] = agent
        with _MADE_LOCK:
            _MADE.append(agent)
    return agent


def close_agents() -> None:
    """Close every agent this process made (external programs, clients)."""
    with _MADE_LOCK:
        made, _MADE[:] = list(_MADE), []
    for agent in made:
        agent.close()
    _LOCAL.agents = {}


def run_engine_chain(chain: Sequence[EngineJob], agent: Any, settings: EngineSettings, *, library: Any,
                     client_home: Path | None, finished: Callable[[dict[str, Any]], None]) -> None:
    """Play a chain's episodes (``engine.chains``: tasks of one world) in one server; each record to ``finished``.

    Every episode after the first starts again in the server that played the one before when it can, another
    task's from that task's own start (:func:`run_engine_episode` with the chain's episode); the server is stopped
    when the chain ends, whatever
    happens. After Ctrl-C (``binaries.stopping``) no record is handed on and no episode starts: the episode cut
    short and those not played run again on ``--resume``.
    """
    from taskverse.engine.binaries import stopping

    if not chain:
        return
    episode = episode_for(chain[0], settings, library=library, client_home=client_home)
    try:
        for job in chain:
            if stopping():
                return
            record = run_engine_episode(job, agent, settings, library=library, client_home=client_home,
                                        episode=episode)
            if not stopping():
                finished(record)
    finally:
        episode.close()


def run_engine_eval_chain(settings: EngineSettings, chain: list[EngineJob]) -> list[dict[str, Any]]:
    """A chain's records wherever a worker is (a Ray task): the worker's agent, library, a client home of its own."""
    from taskverse.engine.jobs import _worker_library, claimed_home

    records: list[dict[str, Any]] = []
    with claimed_home() as home:
        run_engine_chain(chain, _agent(settings), settings, library=_worker_library(), client_home=home,
                         finished=records.append)
    return records


# -- a run -------------------------------------------------------------------------------------------------------------

def _category(task: Any) -> str:
    category = getattr(task, "category", None)
    return str(getattr(category, "value", category) or getattr(task, "kind", "molecule"))


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C during an evaluation: ``report`` covers the episodes that had finished (and says ``interrupted``)."""

    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__("interrupted")
        self.report = report


def evaluate_engine(tasks: Sequence[tuple[str, Any]], settings: EngineSettings | str, *, library: Any,
                    episodes: int = 1, seed: int = 0, backend: Backend | None = None, output: Path | None = None,
                    resume: bool = False, impossible: Sequence[Any] = ()) -> dict[str, Any]:
    """Run ``episodes`` episodes of each (name, task) with the agent; the report (see the module docstring).

    Episode ``k`` of task ``i`` is seeded ``seed + i * episodes + k``, as in the text world. ``impossible`` are
    tasks out of reach (``engine.impossible.EngineImpossible``: reference, task, the game's proof), run after the
    others with the give-up offered (``settings.give_up`` must be set). With ``output`` the report is written there
    (and rewritten as the run goes) and the trajectories next to it; ``resume`` continues the run that report
    belongs to. Ctrl-C ends every engine at once and raises :class:`EvalInterrupted` with the report of the
    finished episodes (written to ``output`` too).
    """
    from taskverse.engine.compiler import Compiler
    from taskverse.fileio import open_log

    if isinstance(settings, str):
        settings = EngineSettings(settings)
    check_agent(settings.agent)
    backend = backend or Backend()
    if resume and output is None:
        raise TaskverseError("--resume needs the report to continue: -o REPORT.json")
    if impossible and not settings.give_up:
        raise TaskverseError("impossible tasks need the give-up offered (EngineSettings.give_up)")
    compiler = Compiler(library, settings.game)
    entries: list[dict[str, Any]] = []
    jobs: list[EngineJob] = []
    runs = [(name, given, None) for name, given in tasks] + [(i.reference, i.task, i.reason) for i in impossible]
    for index, (name, given, proof) in enumerate(runs):
        task = start_as(given, settings.initialization, library)
        problems = compiler.problems(task)
        entries.append({"name": name, "task": given.id, "category": _category(given), "compiled": not problems,
                        "reason": "; ".join(p.detail for p in problems[:3]) if problems else None, "episodes": []})
        if proof is not None:
            entries[-1]["impossible"] = proof
        if not problems:
            ir = compiler.compile(task)
            jobs += [EngineJob(index, k, seed + index * episodes + k, task, ir, proof is not None,
                               given.description) for k in range(episodes)]
    header = {"agent": settings.agent, "game": settings.game,
              "settings": {"episodes": episodes, "seed": seed, **settings.public()},
              "tasks_run": [name for name, _ in tasks]}
    if impossible:  # only then: reports made before impossible tasks existed still resume
        header["impossible_run"] = [i.reference for i in impossible]
    trajectories = trajectories_path(output) if output is not None else None
    records: dict[tuple[int, int], dict[str, Any]] = {}
    earlier = 0.0
    if resume:
        assert output is not None and trajectories is not None
        records, earlier = _resumable(output, trajectories, header, jobs)
    todo = [job for job in jobs if (job.index, job.episode) not in records]
    if todo and settings.agent.startswith("openai:"):  # a missing client or key: one message before any episode
        from taskverse.textenv.agents import make_agent

        make_agent(settings.agent, settings.budget, settings.options).close()
    started = time.monotonic() - earlier
    stream = open_log(trajectories, fresh=not resume) if trajectories is not None else None
    lock = threading.Lock()
    last_write = [time.monotonic()]

    def report_now(interrupted: dict[str, int] | None = None) -> dict[str, Any]:
        return _report(entries, header, records, backend, time.monotonic() - started, len(jobs), interrupted,
                       settings.fresh_server)

    def finished(record: dict[str, Any]) -> None:
        with lock:
            if stream is not None:
                stream.write(json.dumps(record).encode("utf-8") + b"\n")
                stream.flush()
            records[(record["index"], record["episode"])] = record
            if output is not None and time.monotonic() - last_write[0] > REPORT_EVERY:
                _write_report(output, report_now())
                last_write[0] = time.monotonic()

    if output is not None:
        _write_report(output, report_now())  # a run killed before its first episode ends still resumes
    try:
        _run(settings, todo, backend, library, finished)
    except KeyboardInterrupt:
        report = report_now({"episodes": len(jobs), "finished": len(records)})
        if output is not None:
            _write_report(output, report)
        raise EvalInterrupted(report) from None
    finally:
        if stream is not None:
            stream.close()
    report = report_now()
    if output is not None:
        _write_report(output, report)
    return report


def _run(settings: EngineSettings, jobs: list[EngineJob], backend: Backend, library: Any,
         finished: Callable[[dict[str, Any]], None]) -> None:
    """Run the jobs on the backend as chains (``engine.chains``); each record to ``finished`` as its episode ends.

    On Ray a record comes back when its chain ends, with the chain's others.
    """
    from taskverse.engine.chains import chains, world_of

    if not jobs:
        return
    work = chains(jobs, backend.workers, fresh=settings.fresh_server, key=world_of)
    if backend.ray:
        from taskverse.workers import run_jobs

        for _, records in run_jobs(run_engine_eval_chain, [(settings, chain) for chain in work], backend=backend):
            for record in records:
                finished(record)
        return
    from taskverse.engine.runner import run_all

    def one(chain: list[EngineJob], home: Path | None) -> None:
        run_engine_chain(chain, _agent(settings), settings, library=library, client_home=home, finished=finished)

    try:
        run_all(one, work, backend.workers)
    finally:
        close_agents()


def _report(entries: list[dict[str, Any]], header: dict[str, Any], records: dict[tuple[int, int], dict[str, Any]],
            backend: Backend, wall: float, total: int, interrupted: dict[str, int] | None,
            fresh_server: bool = False) -> dict[str, Any]:
    """The report over the episodes finished so far, each task's in episode order."""
    filled = [{**entry, "episodes": [records[key] for key in sorted(records) if key[0] == i]}
              for i, entry in enumerate(entries)]
    report = build_report(filled, agent=header["agent"], game=header["game"],
                          episodes=header["settings"]["episodes"], seed=header["settings"]["seed"],
                          max_steps=header["settings"]["max_steps"], wall=wall,
                          give_up=bool(header["settings"].get("give_up")))
    report["settings"] = header["settings"]
    report["tasks_run"] = header["tasks_run"]
    if "impossible_run" in header:
        report["impossible_run"] = header["impossible_run"]
    report["run"] = {**backend.describe(), "fresh_server": fresh_server, "wall_seconds": round(wall, 3)}
    report["complete"] = len(records) == total
    if interrupted is not None:
        report["interrupted"] = interrupted
    return report


def _write_report(path: Path, report: dict[str, Any]) -> None:
    """Write the report whole or not at all (a reader never sees half a report)."""
    from taskverse.fileio import write_text

    write_text(path, json.dumps(report, indent=1) + "\n", force=True)


def _resumable(output: Path, trajectories: Path, header: dict[str, Any],
               jobs: list[EngineJob]) -> tuple[dict[tuple[int, int], dict[str, Any]], float]:
    """The finished episodes of an earlier run of the same evaluation (its settings must match), and its time.

    Episodes that ended in an agent error are left out, so they run again (a program or an endpoint that failed
    may work now). The trajectory file is rewritten (atomically) with the episodes kept.
    """
    from taskverse.textenv.evaluation import resumable_records

    return resumable_records(output, trajectories, header, {(job.index, job.episode): job.seed for job in jobs},
                             report="engine eval", index="index", required="game",
                             agent_error=lambda record: str(record.get("error") or "").startswith("agent: "))


# -- the report --------------------------------------------------------------------------------------------------------

_NAMES = re.compile(r"'[^']*'|\S*:\S+|\d+(?:\.\d+)?")


def failure_group(text: str) -> str:
    """What a failure's reason says without its names and numbers, to count failures by kind.

    Example:
        >>> failure_group("no default:tree within 8 nodes")
        'no ... within ... nodes'
        >>> failure_group("no plan: no scripted plan for mol.x in taskverse_mc: brew.a: taskverse_mc gives nothing")
        'no plan'

    """
    head, _, rest = text.partition(": ")
    if head == "no plan":
        return head
    if head in ("agent", "engine"):
        return f"{head}: {_NAMES.sub('...', rest)}"[:100]
    return _NAMES.sub("...", text)[:100]


def build_report(entries: list[dict[str, Any]], *, agent: str, game: str, episodes: int, seed: int,
                 max_steps: int, wall: float, give_up: bool = False) -> dict[str, Any]:
    """The report of an evaluation from its tasks' entries (each with its episodes' records).

    Success is over the tasks to be done; with ``give_up`` the impossible ones (entries with ``impossible``) are
    scored apart, by F1 of the give-up (``impossible``), as in the text world's report.
    """
    from taskverse.textenv.impossible import impossible_scores

    possible = [e for e in entries if "impossible" not in e]
    runs = [r for e in possible for r in e["episodes"]]
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in possible:
        by_category[entry["category"]] += entry["episodes"]
    reasons: dict[str, int] = defaultdict(int)
    for run in runs:
        if not run["success"]:
            reasons[failure_group(str(run.get("error") or run.get("reason") or "not done"))] += 1

    def rate(group: list[dict[str, Any]]) -> float:
        return sum(r["success"] for r in group) / len(group) if group else 0.0

    usage: dict[str, int] = {}
    for run in runs:
        for name, value in (run.get("usage") or {}).items():
            usage[name] = usage.get(name, 0) + int(value)
    summary: dict[str, Any] = {
        "tasks": len(possible), "compiled": sum(e["compiled"] for e in possible), "episodes": len(runs),
        "successes": sum(r["success"] for r in runs), "success_rate": rate(runs),
        "invalid_steps": sum(r["invalid_steps"] for r in runs), "steps": sum(r["steps"] for r in runs),
        "replay_agrees": all(r.get("replay_agrees", True) for r in runs if r.get("steps")),
        "agent_errors": sum(1 for r in runs if str(r.get("error") or "").startswith("agent: ")),
        "wall_seconds": wall,
        # how the episodes started: a new server each, or again in the server of the task's episode before
        "servers_started": sum(int(r.get("servers_started") or 0) for e in entries for r in e["episodes"]),
        "restarted_in_server": sum(r.get("server") == "restart" for e in entries for r in e["episodes"]),
        "by_category": {c: {"episodes": len(g), "success_rate": rate(g)} for c, g in sorted(by_category.items())
                        if g},
        "failures": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
    }
    if usage:
        summary["usage"] = usage
    report: dict[str, Any] = {"agent": agent, "game": game,
                              "settings": {"episodes": episodes, "seed": seed, "max_steps": max_steps},
                              "summary": summary, "tasks": entries}
    if give_up:
        report["impossible"] = {"tasks": len(entries) - len(possible), **impossible_scores(
            [r for e in entries for r in e["episodes"]])}
    return report


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The report as a few lines of text."""
    s = report["summary"]
    partial = "" if report.get("complete", True) else " (partial: the run did not finish; --resume continues it)"
    lines = [f"{report['agent']} in {report['game']}: {s['successes']}/{s['episodes']} episodes solved "
             f"({100 * s['success_rate']:.0f}%) over {s['compiled']} of {s['tasks']} tasks that compile; "
             f"{s['steps']} steps ({s['invalid_steps']} invalid); {s['wall_seconds']:.0f} s{partial}"]
    for entry in report["tasks"]:
        if not entry["compiled"]:
            lines.append(f"  {entry['name']}: does not compile: {entry['reason']}")
            continue
        for run in entry["episodes"]:
            verdict = "solved" if run["success"] else f"not solved ({run.get('error') or run.get('reason')})"
            if "impossible" in entry:
                verdict = "impossible: " + ("gave up" if run.get("gave_up") else
                                            f"did not give up ({run.get('error') or run.get('reason')})")
            lines.append(f"  {entry['name']} #{run['episode'] + 1}: {verdict} in {run['steps']} steps")
    lines += [f"  {category}: {100 * c['success_rate']:.0f}% of {c['episodes']}"
              for category, c in s["by_category"].items()]
    if s.get("usage"):
        lines.append("  usage: " + ", ".join(f"{k} {v}" for k, v in s["usage"].items()))
    f1 = report.get("impossible")
    if f1 is not None:
        lines.append(f"  impossible tasks: {f1['tasks']} ({f1['episodes']} episodes); said impossible "
                     f"{f1['said_impossible']} times ({f1['true_positives']} rightly); precision "
                     f"{f1['precision']:.3f}, recall {f1['recall']:.3f}, F1 {f1['f1']:.3f}")
    return lines


__all__ = ["EngineJob", "EngineSettings", "EvalInterrupted", "build_report", "check_agent", "evaluate_engine",
           "failure_group", "run_engine_episode", "summary_lines", "trajectories_path"]
