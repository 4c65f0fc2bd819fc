"""Engine episodes as independent jobs, so the shared worker pool (``taskverse.workers``) can run them on Ray.

``taskverse engine run --ray`` sends each episode to a Ray task: ``run_engine_job`` is a module-level function of
picklable arguments (the task, its compiled form, the plan, the episode number, the timeout). A worker loads the
bundled library once (the Python replay needs it) and runs the episode with ``runner.run_episode`` in a client
home of its own: a lock file marks the homes in use, so episodes on one machine never share one, and the media
cache survives between episodes as it does locally. Local runs stay with ``runner.run_episodes``, which runs
episodes in threads (the work happens in the engine's processes) and stops them all on Ctrl-C.

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
from taskverse.engine.runner import EpisodeReport, claimed_homes, episode_budget, run_episode, run_episodes
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


def run_engine_job(task: Any, ir: TaskIR, plan: Plan, episode: int, timeout: float) -> EpisodeReport | str:
    """One episode, wherever a worker is: its report, or the message of a TaskverseError (raised by the caller).

    A message rather than the exception: it crosses process and machine boundaries as plain text.
    """
    try:
        with claimed_home() as home:
            return run_episode(task, ir, plan, library=_worker_library(), episode=episode, timeout=timeout,
                               client_home=home)
    except TaskverseError as exc:
        return str(exc)


def run_engine_episodes(task: Any, ir: TaskIR, plan: Plan, *, library: Any, episodes: int, backend: Backend,
                        timeout: float = 60.0) -> list[EpisodeReport]:
    """Run ``episodes`` episodes on ``backend``; reports in episode order, the same wherever they ran.

    A local backend runs ``backend.workers`` episodes at a time in this process (``runner.run_episodes``); Ray
    runs each as a task (``taskverse.workers.run_jobs``) on the cluster or a local instance. Either way an episode
    may take ``runner.episode_budget`` seconds: ``timeout`` and a little more for each step of the plan.
    """
    if not backend.ray:
        return run_episodes(task, ir, plan, library=library, episodes=episodes, parallel=backend.workers,
                            timeout=timeout)
    arguments = [(task, ir, plan, k, episode_budget(timeout, plan)) for k in range(1, episodes + 1)]
    results = dict(run_jobs(run_engine_job, arguments, backend=backend))
    reports = []
    for i in range(episodes):
        result = results[i]
        if isinstance(result, str):
            raise TaskverseError(result)
        reports.append(result)
    return reports


__all__ = ["claimed_home", "run_engine_episodes", "run_engine_job"]
