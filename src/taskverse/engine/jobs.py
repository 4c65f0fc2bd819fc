"""Engine episodes as independent jobs, so the shared worker pool (``taskverse.workers``) can run them on Ray.

``taskverse engine run --ray`` sends each chain of episodes (``engine.chains``: episodes played one after another in
one server, or one each with ``fresh_server``) to a Ray task: ``run_engine_job`` is a module-level function of
picklable arguments (the task, its compiled form, the plan, the chain's episode numbers, the timeout). A worker
loads the bundled library once (the Python replay needs it) and plays the chain with ``runner.run_plans`` in a
client home of its own: a lock file marks the homes in use, so episodes on one machine never share one, and the
media cache survives between episodes as it does locally. Local runs stay with ``runner.run_episodes``, which
plays the same chains in threads (the work happens in the engine's processes) and stops them all on Ctrl-C.

Example:
    >>> backend = Backend(workers=2, ray=True)  # doctest: +SKIP
    >>> reports = run_engine_episodes(task, ir, plan, library=library, episodes=4, backend=backend)  # doctest: +SKIP

"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from taskverse.engine.harness import Plan
from taskverse.engine.ir import TaskIR
from taskverse.engine.runner import EpisodeReport, claimed_homes, run_episodes, run_plans
from taskverse.errors import TaskverseError
from taskverse.workers import Backend, run_jobs

_LIBRARY: list[Any] = []


def _worker_library() -> Any:
    """The bundled library, loaded once per worker process (the command line loads the same one)."""
    if not _LIBRARY:
        from taskverse.library.loader import load_library

        _LIBRARY.append(load_library())
    return _LIBRARY[0]


@contextmanager
def claimed_home() -> Iterator[Path | None]:
    """A client home no other episode on this machine uses while it is held (None when all are in use)."""
    with claimed_homes(1) as homes:
        yield homes[0]


def run_engine_job(task: Any, ir: TaskIR, plan: Plan, episodes: list[int],
                   timeout: float) -> list[EpisodeReport] | str:
    """A chain of episodes, wherever a worker is: their reports, or a TaskverseError's message (the caller raises).

    A message rather than the exception: it crosses process and machine boundaries as plain text.
    """
    try:
        with claimed_home() as home:
            reports = run_plans(task, ir, [plan] * len(episodes), library=_worker_library(), timeout=timeout,
                                client_home=home)
    except TaskverseError as exc:
        return str(exc)
    return [report.model_copy(update={"episode": k}) for k, report in zip(episodes, reports, strict=True)]


def run_engine_episodes(task: Any, ir: TaskIR, plan: Plan, *, library: Any, episodes: int, backend: Backend,
                        timeout: float = 60.0, fresh_server: bool = False) -> list[EpisodeReport]:
    """Run ``episodes`` episodes on ``backend``; reports in episode order, the same wherever they ran.

    A local backend runs ``backend.workers`` chains at a time in this process (``runner.run_episodes``); Ray runs
    each chain as a task (``taskverse.workers.run_jobs``) on the cluster or a local instance. Either way a chain's
    episodes after the first start again in its server where they can (``fresh_server``: a new server each), and
    an episode may take ``runner.episode_budget`` seconds: ``timeout`` and a little more for each step of the plan.
    """
    from taskverse.engine.chains import chains

    if not backend.ray:
        return run_episodes(task, ir, plan, library=library, episodes=episodes, parallel=backend.workers,
                            timeout=timeout, fresh_server=fresh_server)
    work = chains(list(range(1, episodes + 1)), backend.workers, fresh=fresh_server, key=lambda _: task.id)
    arguments = [(task, ir, plan, chain, timeout) for chain in work]
    reports: list[EpisodeReport] = []
    for _, result in sorted(run_jobs(run_engine_job, arguments, backend=backend), key=lambda pair: pair[0]):
        if isinstance(result, str):
            raise TaskverseError(result)
        reports += result
    return reports


__all__ = ["claimed_home", "run_engine_episodes", "run_engine_job"]
