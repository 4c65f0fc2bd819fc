"""Episodes of one task in one server: how ``taskverse engine eval`` hands its episodes to its workers.

Starting a server on a fresh world costs about a second and a half; starting an episode again in the running one
(the runtime puts back what the episode changed: ``EngineEpisode.reset``) about a tenth of that. So an evaluation
gives its workers *chains*, runs of consecutive episodes of one task, rather than single episodes: a chain plays
its episodes one after another in one ``EngineEpisode``, whose reset starts each again in the running server, or
on a new server exactly when a reset does (the player died, the map changed beyond what the runtime puts back,
the server died). A chain's server is stopped when the chain ends.

Why a chain is the job, rather than a server each worker keeps between jobs keyed by task: a chain's server lives
exactly as long as its job. No server idles in a worker between jobs or outlives a run (Ray's actors stay up
between runs for a long-lived driver, and an actor killed when a run stops early would leave a kept server with no
one to stop it); an interrupt stops the engines under way and nothing else is running. A task's episodes are
split into as many chains as there are workers (never more than episodes), so ``--workers N`` still plays N
episodes of a task at once, each chain in a server of its own. ``--resume`` makes its chains from the episodes
still to run. With ``fresh`` every chain is one episode: a new server for each.

Example:
    >>> from types import SimpleNamespace as Job
    >>> jobs = [Job(index=i, episode=k) for i in (0, 1) for k in range(5)]
    >>> [[(j.index, j.episode) for j in chain] for chain in chains(jobs, workers=2)][:2]
    [[(0, 0), (0, 1), (0, 2)], [(0, 3), (0, 4)]]
    >>> len(chains(jobs, workers=2, fresh=True))
    10

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class _Job(Protocol):
    @property
    def index(self) -> int: ...


J = TypeVar("J", bound=_Job)


def chains(jobs: Sequence[J], workers: int, fresh: bool = False) -> list[list[J]]:
    """The jobs as chains: each task's jobs (same ``index``) in their order, cut into ``workers`` runs or fewer.

    The runs of a task differ in length by one at most, the longer ones first; tasks keep their order. With
    ``fresh`` each job is a chain of its own.
    """
    if fresh:
        return [[job] for job in jobs]
    by_task: dict[int, list[J]] = {}
    for job in jobs:
        by_task.setdefault(job.index, []).append(job)
    out: list[list[J]] = []
    for group in by_task.values():
        parts = max(1, min(workers, len(group)))
        size, longer = divmod(len(group), parts)
        start = 0
        for part in range(parts):
            end = start + size + (part < longer)
            out.append(group[start:end])
            start = end
    return out


__all__ = ["chains"]
