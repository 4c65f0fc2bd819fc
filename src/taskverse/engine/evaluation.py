"""``taskverse engine eval``: agents acting a step at a time in the real engine, over a suite or a list of tasks.

Each episode is an :class:`~taskverse.engine.episode.EngineEpisode` of a compiled task; the agent acts until the
runtime decides the task, the agent stops, or the step limit. Tasks that do not compile for the game are in the
report with the compiler's reason and count as not run. The report gives the success rate, steps, invalid steps,
the failed steps' reasons and a breakdown by category; ``trajectories`` holds each episode's steps.

Agents: ``optimal`` (the scripted plan a step at a time), ``greedy`` (the planner's first plan, not searched for a
shorter one; both replan after a failed step), ``random`` (candidates drawn with a seeded generator),
``openai:MODEL`` (a language model behind an OpenAI-compatible endpoint, ``taskverse.engine.llm``), and
``cmd:PROGRAM``, a program in any language speaking JSON lines: it reads one observation per line on stdin
(``{"type": "observation", "episode", "task", "description", "step", "max_steps", "observation", "candidates",
"last", "text"}``) and answers one line: a candidate's number, an action as JSON (``{"do": "dig", "node":
"oak_log"}``), or ``{"action": <either>, "reasoning": "..."}``. A program that crashes, hangs past the answer
timeout or writes an over-long line fails the episode with the reason; it is started again for the next.

Example:
    >>> report = evaluate_engine(["craft.stick"], "optimal", library=load_library())  # doctest: +SKIP
    >>> report["summary"]["success_rate"]  # doctest: +SKIP
    1.0

"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taskverse.engine.agents import GreedyAgent, OptimalAgent, RandomAgent
from taskverse.engine.episode import EngineEpisode, StepResult
from taskverse.errors import TaskverseError

AGENTS = ("optimal", "greedy", "random")
DEFAULT_MAX_STEPS = 1000


def check_agent(spec: str) -> None:
    """Raise a TaskverseError (with close matches) unless ``spec`` names an agent the engine runs."""
    if spec.startswith("cmd:"):
        if not spec[4:].strip().strip('"').strip("'"):
            raise TaskverseError("cmd: needs a program to run, e.g. cmd:\"python my_agent.py\"")
        return
    if spec.startswith("openai:"):
        if not spec[7:].strip():
            raise TaskverseError("openai: needs a model name, e.g. openai:gpt-4o-mini or openai:qwen2.5:7b")
        return
    if spec not in AGENTS:
        from taskverse.errors import close_matches

        raise TaskverseError(f"unknown agent {spec!r}; expected optimal, greedy, random, cmd:PROGRAM or openai:MODEL",
                             suggestions=close_matches(spec, AGENTS))


class _View:
    """What a ``cmd:`` agent is sent: the text world's ``json_observation()``, for the engine."""

    def __init__(self, episode: EngineEpisode, result: StepResult, max_steps: int) -> None:
        self.episode, self.result, self.max_steps = episode, result, max_steps

    def json_observation(self) -> dict[str, Any]:
        from taskverse.engine.gymenv import observation_text

        result = self.result
        return {"task": self.episode.task.id, "description": self.episode.description, "step": self.episode.steps,
                "max_steps": self.max_steps, "observation": result.observation.model_dump(mode="json"),
                "candidates": result.candidates,
                "last": None if result.step == 0 else {"action": result.action, "ok": result.ok,
                                                        "invalid": result.invalid, "error": result.error},
                "text": observation_text(result, self.episode.description, self.episode.steps, self.max_steps)}


def _answer(agent: Any, text: str) -> Any:
    """A ``cmd:`` agent's action: ``{"action": {...}}`` keeps its object (the text world's reader makes it text)."""
    raw = (agent.answer or "").strip()
    if raw.startswith("{"):
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return text
        if isinstance(data, dict) and isinstance(data.get("action"), dict | int):
            return data["action"]
        if isinstance(data, dict) and "action" not in data:
            return data  # the action itself
    return text


class _Worker:
    """One thread's agent (a ``cmd:`` program runs for the whole evaluation, one per worker)."""

    def __init__(self, spec: str, answer_timeout: float) -> None:
        self.spec = spec
        self.external: Any = None
        if spec.startswith("cmd:"):
            from taskverse.textenv.agents import ExternalAgent

            self.external = ExternalAgent(spec[4:].strip().strip('"').strip("'"), timeout=answer_timeout)
        elif spec.startswith("openai:"):
            from taskverse.engine.llm import EngineLLMAgent

            self.external = EngineLLMAgent(spec[7:].strip(), timeout=answer_timeout)

    def close(self) -> None:
        if self.external is not None:
            self.external.close()


def run_engine_episode(task: Any, ir: Any, worker: _Worker, *, library: Any, game: str, seed: int,
                       max_steps: int, client_home: Path | None = None) -> dict[str, Any]:
    """One episode of ``task`` with the worker's agent: a record of it (never raises for the agent's failures)."""
    from taskverse.engine.planner import NoPlan
    from taskverse.textenv.options import AgentError, AnswerRefused

    episode = EngineEpisode(task, library=library, game=game, ir=ir, client_home=client_home)
    started = time.monotonic()
    record: dict[str, Any] = {"task": task.id, "seed": seed, "success": False, "steps": 0, "invalid_steps": 0,
                              "error": None, "failed_steps": []}
    agent: Any
    try:
        if worker.spec == "optimal":
            agent = OptimalAgent(episode)
        elif worker.spec == "greedy":
            agent = GreedyAgent(episode)
        elif worker.spec == "random":
            agent = RandomAgent(seed)
        else:
            agent = worker.external
            agent.reset(None, seed)
    except NoPlan as exc:
        record["error"] = f"no plan: {exc.message}"
        return record
    trajectory: list[dict[str, Any]] = []
    try:
        result = episode.reset()
        while not result.done and episode.steps < max_steps:
            if worker.external is not None:
                try:
                    text = agent.act(_View(episode, result, max_steps))
                except AnswerRefused as exc:
                    text = f"refused: {exc.message}"
                action = _answer(agent, text)
            else:
                action = agent.act(result)
                if action is None:
                    break
            result = episode.step(action)
            trajectory.append({"step": result.step, "action": result.action, "ok": result.ok,
                               "invalid": result.invalid, "error": result.error,
                               "progress": result.observation.task.progress})
    except AgentError as exc:
        record["error"] = f"agent: {exc.message}"
        agent.recover()
    except TaskverseError as exc:
        record["error"] = f"engine: {exc.message}"
    finally:
        report = episode.close()
    record.update(success=bool(report and report.success), steps=episode.steps, invalid_steps=episode.invalid_steps,
                  progress=report.progress if report else 0.0,
                  replay_agrees=bool(report and report.replay and report.replay.agrees),
                  failed_steps=[{"step": s["step"], "error": s["error"]} for s in trajectory
                                if not s["ok"]][:20],
                  seconds=time.monotonic() - started, trajectory=trajectory)
    if record["error"] is None and not record["success"]:
        reason = trajectory[-1]["error"] if trajectory and not trajectory[-1]["ok"] else None
        record["reason"] = reason or ("step limit" if episode.steps >= max_steps else "the agent stopped")
    return record


def _category(task: Any) -> str:
    category = getattr(task, "category", None)
    return str(getattr(category, "value", category) or getattr(task, "kind", "molecule"))


def evaluate_engine(tasks: Sequence[tuple[str, Any]], agent: str, *, library: Any, game: str = "minetest_game",
                    episodes: int = 1, seed: int = 0, max_steps: int = DEFAULT_MAX_STEPS, workers: int = 1,
                    answer_timeout: float = 30.0) -> dict[str, Any]:
    """Run ``episodes`` episodes of each (name, task) with the agent; the report (see the module docstring).

    Ctrl-C ends every engine at once and raises :class:`EvalInterrupted` with the report of the finished episodes.
    """
    from taskverse.engine.compiler import Compiler
    from taskverse.engine.runner import Interrupted, run_all

    check_agent(agent)
    compiler = Compiler(library, game)
    entries: list[dict[str, Any]] = []
    jobs: list[tuple[int, int, Any, Any]] = []
    for index, (name, task) in enumerate(tasks):
        problems = compiler.problems(task)
        entry = {"name": name, "task": task.id, "category": _category(task), "compiled": not problems,
                 "reason": "; ".join(p.detail for p in problems[:3]) if problems else None, "episodes": []}
        entries.append(entry)
        if not problems:
            ir = compiler.compile(task)
            jobs += [(index, k, task, ir) for k in range(episodes)]
    local = threading.local()
    made: list[_Worker] = []
    lock = threading.Lock()

    def one(job: tuple[int, int, Any, Any], home: Path | None) -> Any:
        index, k, task, ir = job
        worker = getattr(local, "worker", None)
        if worker is None:
            worker = local.worker = _Worker(agent, answer_timeout)
            with lock:
                made.append(worker)
        out = run_engine_episode(task, ir, worker, library=library, game=game, seed=seed + k, max_steps=max_steps,
                                 client_home=home)
        return {"index": index, "episode": k, **out}

    started = time.monotonic()
    interrupted: Interrupted | None = None
    try:
        records = run_all(one, jobs, workers)
    except Interrupted as exc:
        interrupted, records = exc, list(exc.reports)
    finally:
        for worker in made:
            worker.close()
    for record in records:
        entries[record["index"]]["episodes"].append(record)
    report = build_report(entries, agent=agent, game=game, episodes=episodes, seed=seed, max_steps=max_steps,
                          wall=time.monotonic() - started)
    if interrupted is not None:
        report["interrupted"] = {"episodes": len(jobs), "finished": len(records)}
        raise EvalInterrupted(report)
    return report


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C during an evaluation: ``report`` covers the episodes that had finished (and says ``interrupted``)."""

    def __init__(self, report: dict[str, Any]) -> None:
        super().__init__("interrupted")
        self.report = report


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
                 max_steps: int, wall: float) -> dict[str, Any]:
    """The report of an evaluation from its tasks' entries (each with its episodes' records)."""
    runs = [r for e in entries for r in e["episodes"]]
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        by_category[entry["category"]] += entry["episodes"]
    reasons: dict[str, int] = defaultdict(int)
    for run in runs:
        if not run["success"]:
            reasons[failure_group(str(run.get("error") or run.get("reason") or "not done"))] += 1

    def rate(group: list[dict[str, Any]]) -> float:
        return sum(r["success"] for r in group) / len(group) if group else 0.0

    return {
        "agent": agent, "game": game, "settings": {"episodes": episodes, "seed": seed, "max_steps": max_steps},
        "summary": {
            "tasks": len(entries), "compiled": sum(e["compiled"] for e in entries), "episodes": len(runs),
            "successes": sum(r["success"] for r in runs), "success_rate": rate(runs),
            "invalid_steps": sum(r["invalid_steps"] for r in runs), "steps": sum(r["steps"] for r in runs),
            "replay_agrees": all(r.get("replay_agrees", True) for r in runs if r.get("steps")),
            "wall_seconds": wall,
            "by_category": {c: {"episodes": len(g), "success_rate": rate(g)} for c, g in sorted(by_category.items())
                            if g},
            "failures": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        },
        "tasks": entries,
    }


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The report as a few lines of text."""
    s = report["summary"]
    lines = [f"{report['agent']} in {report['game']}: {s['successes']}/{s['episodes']} episodes solved "
             f"({100 * s['success_rate']:.0f}%) over {s['compiled']} of {s['tasks']} tasks that compile; "
             f"{s['steps']} steps ({s['invalid_steps']} invalid); {s['wall_seconds']:.0f} s"]
    for entry in report["tasks"]:
        if not entry["compiled"]:
            lines.append(f"  {entry['name']}: does not compile: {entry['reason']}")
            continue
        for run in entry["episodes"]:
            verdict = "solved" if run["success"] else f"not solved ({run.get('error') or run.get('reason')})"
            lines.append(f"  {entry['name']} #{run['episode'] + 1}: {verdict} in {run['steps']} steps")
    lines += [f"  {category}: {100 * c['success_rate']:.0f}% of {c['episodes']}"
              for category, c in s["by_category"].items()]
    return lines
