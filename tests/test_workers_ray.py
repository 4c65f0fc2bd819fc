"""Ray's actor pool: each actor sets up once, the pool serves run after run, an early stop leaves no stale actor.

Ray is in the ``dev`` extra that ``make test`` installs, so these run in CI; without Ray they are skipped.
"""

from __future__ import annotations

import os

import pytest

from conftest import local_ray as running_ray
from taskverse import workers
from taskverse.workers import Backend, run_jobs

ray = pytest.importorskip("ray")


@pytest.fixture()
def local_ray():
    with running_ray():
        yield


def _pids(setup=os.getpid, jobs: int = 12) -> set[int]:
    return {pid for _, pid in run_jobs(os.getpid, [()] * jobs, backend=Backend(workers=2, ray=True), setup=setup)}


def test_jobs_run_in_a_pool_of_actors_kept_from_one_run_to_the_next(local_ray):
    first = _pids()
    assert len(first) == 2 and os.getpid() not in first  # one actor per CPU, both used
    assert _pids() == first  # the same processes: set up once, not again for the second run
    assert len(workers._ACTOR_POOLS) == 1
    other = _pids(setup=os.getppid)  # another setup: a new pool, the old one ended
    assert not other & first and len(workers._ACTOR_POOLS) == 1
    # results come back for every job, each in its place, whatever order the actors finish in
    assert sorted(run_jobs(pow, [(2, k) for k in range(20)], backend=Backend(workers=2, ray=True))) == \
        [(k, 2 ** k) for k in range(20)]


def test_a_run_stopped_early_ends_its_actors_and_the_next_run_starts_afresh(local_ray):
    jobs = run_jobs(os.getpid, [()] * 50, backend=Backend(workers=2, ray=True), setup=os.getpid)
    next(jobs)
    jobs.close()  # as an interrupt does
    assert not workers._ACTOR_POOLS
    assert len(_pids()) == 2


def test_a_run_that_starts_ray_itself_shuts_it_down():
    if ray.is_initialized():  # left up by another test in this worker process: this one starts its own
        ray.shutdown()
    assert sorted(run_jobs(pow, [(3, 2), (2, 3)], backend=Backend(workers=1, ray=True))) == [(0, 9), (1, 8)]
    assert not ray.is_initialized() and not workers._ACTOR_POOLS


def test_a_local_ray_started_here_runs_its_workers_at_the_callers_priority():
    """Ray's default nice 15 would leave its workers waiting behind any other work on a busy machine."""
    if ray.is_initialized():
        ray.shutdown()
    assert [nice for _, nice in run_jobs(os.nice, [(0,)], backend=Backend(workers=1, ray=True))] == [os.nice(0)]


def test_a_ray_that_cannot_start_is_one_clean_error(monkeypatch):
    """Ray raises a bare Exception when its node times out starting (a busy machine): tried again, then a
    TaskverseError, not a bug."""
    from taskverse.errors import TaskverseError

    calls: list[str] = []

    def timed_out(**_: object) -> None:
        calls.append("init")
        raise Exception("The current node timed out during startup.")  # noqa: TRY002 - what Ray raises

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("shutdown"))
    with pytest.raises(TaskverseError, match="cannot start Ray on a local instance: The current node timed out"):
        list(run_jobs(pow, [(2, 3)], backend=Backend(workers=2, ray=True)))
    assert calls == ["init", "shutdown"] * (workers.RAY_START_TRIES - 1) + ["init"]


def test_a_ray_start_that_times_out_once_is_tried_again(monkeypatch):
    """One node start that misses Ray's 30 s on a busy machine costs a second start, not the run."""
    real_init = ray.init
    tries: list[int] = []

    def late_once(**kwargs: object) -> object:
        tries.append(1)
        if len(tries) == 1:
            raise Exception("The current node timed out during startup.")  # noqa: TRY002 - what Ray raises
        return real_init(**kwargs)

    monkeypatch.setattr(ray, "init", late_once)
    assert sorted(run_jobs(pow, [(2, 3)], backend=Backend(workers=1, ray=True))) == [(0, 8)]
    assert len(tries) == 2
    assert not ray.is_initialized()
