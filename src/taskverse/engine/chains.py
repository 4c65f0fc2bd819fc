"""Episodes in one server: how ``taskverse engine eval`` and the scripted player hand out episodes.

``engine eval`` keys its chains by the world a task's server is made with (:func:`world_of`: the game, map and
engine settings, mods, mobs and wrapped callbacks), so a suite's tasks of one world follow one another in one
server, each from its own start (the runtime reads the next task's data at the restart); the scripted player keys
them by the compiled task. What follows says "task" for the key.

Starting a server on a fresh world costs about a second and a half; starting an episode again in the running one
(the runtime puts back what the episode changed: ``EngineEpisode.reset``, ``runner.run_plans``) about a tenth of
that. So episodes go to workers in *chains*, runs of episodes of one task, rather than one by one: a chain plays
its episodes one after another in one server, each after the first started again in it, or on a new server
exactly when a reset does (the player died, the map changed beyond what the runtime puts back, the server died).
A chain's server is stopped when the chain ends.

Why a chain is the job, rather than a server each worker keeps between jobs keyed by task: a chain's server lives
exactly as long as its job. No server idles in a worker between jobs or outlives a run (Ray's actors stay up
between runs for a long-lived driver, and an actor killed when a run stops early would leave a kept server with no
one to stop it); an interrupt stops the engines under way and nothing else is running. A task's episodes are cut
into more than one chain only as far as the workers need work: with ``workers`` workers and ``n`` episodes in
all, a task of ``k`` episodes gets ``ceil(workers * k / n)`` chains (never more than ``k``), so one task of five
episodes on two workers plays as two chains at once, and many tasks each keep one server. ``--resume`` makes its
chains from the episodes still to run. With ``fresh`` every chain is one episode: a new server for each.

Example:
    >>> from types import SimpleNamespace as Job
    >>> one_task = [Job(index=0, episode=k) for k in range(5)]
    >>> [[j.episode for j in chain] for chain in chains(one_task, workers=2)]
    [[0, 1, 2], [3, 4]]
    >>> two_tasks = [Job(index=i, episode=k) for i in (0, 1) for k in range(5)]
    >>> [len(chain) for chain in chains(two_tasks, workers=2)]
    [5, 5]
    >>> len(chains(two_tasks, workers=2, fresh=True))
    10

"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

J = TypeVar("J")


def _task_index(job: Any) -> Hashable:
    return job.index


def world_of(job: Any) -> Hashable:
    """The world a job's server is made with (``ir.server_key`` of its task): the key of an evaluation's chains.

    Episodes of different tasks of one world follow one another in one server, each task's from its own start.
    """
    from taskverse.engine.ir import server_key

    return server_key(job.ir)


def chains(jobs: Sequence[J], workers: int, fresh: bool = False,
           key: Callable[[J], Hashable] = _task_index) -> list[list[J]]:
    """The jobs as chains: each task's jobs (same ``key``: an evaluation's task index) in their order, cut in runs.

    A task of ``k`` of the ``n`` jobs is cut into ``ceil(workers * k / n)`` runs (at most ``k``), which differ in
    length by one at most, the longer ones first; tasks keep the order of their first job. With ``fresh`` each
    job is a chain of its own.
    """
    if fresh:
        return [[job] for job in jobs]
    by_task: dict[Hashable, list[J]] = {}
    for job in jobs:
        by_task.setdefault(key(job), []).append(job)
    out: list[list[J]] = []
    for group in by_task.values():
        parts = max(1, min(len(group), math.ceil(workers * len(group) / len(jobs))))
        size, longer = divmod(len(group), parts)
        start = 0
        for part in range(parts):
            end = start + size + (part < longer)
            out.append(group[start:end])
            start = end
    return out


__all__ = ["chains", "world_of"]
