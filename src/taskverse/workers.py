"""Running independent jobs in parallel: in this process, in local worker processes, or on a Ray cluster.

Evaluation episodes (text and engine alike) are independent jobs: a picklable function applied to picklable
arguments. ``run_jobs`` runs them and yields ``(index, result)`` pairs as they finish (in completion order), so a
caller can record each at once and keep what it has when the run is interrupted. The same function and
arguments give the same results wherever they run: only the order of completion differs.

On Ray the jobs go to a pool of actors, one per CPU, each a process that runs ``setup`` once (loading the
library, say) and then job after job: a job costs one actor call, not a task's scheduling and a fresh worker's
imports. When Ray was started by someone else (a long-lived driver, a script that calls ``ray.init``), the pool
stays up for the next run with the same ``setup`` and size, so only the first run pays for starting it.

Example:
    >>> sorted(run_jobs(pow, [(2, 3), (3, 2)], workers=1))
    [(0, 8), (1, 9)]

"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from taskverse.errors import TaskverseError

RAY_ADDRESS_VARIABLE = "RAY_ADDRESS"


@dataclass(frozen=True)
class Backend:
    """Where jobs run: ``workers`` local processes (1: this process), or Ray (``ray``) with ``address``.

    Attributes:
        workers: Local worker processes; 1 runs every job in this process. With Ray: the CPUs a local Ray
            instance is started with (a cluster's own size counts when ``address`` is given).
        ray: Run on Ray.
        address: A Ray cluster's address (``auto``, ``ray://host:10001``); None starts a local Ray instance.

    """

    workers: int = 1
    ray: bool = False
    address: str | None = None

    def describe(self) -> dict[str, Any]:
        """What the report records about where the run ran."""
        if self.ray:
            return {"backend": "ray", "address": self.address or "local", "workers": self.workers}
        return {"backend": "local", "workers": self.workers}


def default_workers(jobs: int, cap: int = 8) -> int:
    """A sensible number of local workers: one per CPU, at most ``cap``, and no more than a fourth of the jobs.

    Starting a worker costs a little (a forked process), so a handful of jobs run in this process.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, cap, jobs // 4))


def choose_backend(workers: int | None, ray: bool, jobs: int) -> Backend:
    """The backend a command's ``--workers`` / ``--ray`` options (and ``RAY_ADDRESS``) ask for."""
    address = os.environ.get(RAY_ADDRESS_VARIABLE) or None
    if workers is not None and workers < 1:
        raise TaskverseError(f"--workers {workers}: expected at least 1")
    if ray or address:
        return Backend(workers=workers or default_workers(jobs), ray=True, address=address)
    return Backend(workers=workers if workers is not None else default_workers(jobs))


def run_jobs(function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], workers: int = 1,
             backend: Backend | None = None, setup: Callable[[], Any] | None = None) -> Iterator[tuple[int, Any]]:
    """Apply ``function`` to each tuple of ``arguments``; yield ``(index, result)`` as each job finishes.

    Args:
        function: A module-level (picklable) function.
        arguments: One tuple of positional arguments per job.
        workers: Local worker processes when no ``backend`` is given.
        backend: Where to run (see ``Backend``).
        setup: A module-level function each Ray actor runs once when it starts (local workers are forked from
            this process and have what it loaded).

    A job that raises ends the run with that exception (callers catch what they can recover from inside the
    job). Closing the iterator early (or an interrupt) cancels the jobs not yet started.

    """
    backend = backend or Backend(workers=workers)
    if backend.ray:
        yield from _ray_jobs(function, arguments, backend, setup)
    elif backend.workers <= 1 or len(arguments) <= 1:
        for i, args in enumerate(arguments):
            yield i, function(*args)
    else:
        yield from _local_jobs(function, arguments, backend.workers)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the run and keeps what finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local_jobs(function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]],
                workers: int) -> Iterator[tuple[int, Any]]:
    # fork shares what the parent loaded (the library, compiled rules) instead of loading it per worker
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(arguments)), mp_context=context,
                               initializer=_ignore_interrupts)
    try:
        yield from windowed(pool, function, arguments, 2 * workers)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def windowed(pool: Executor, function: Callable[..., Any], arguments: Iterable[tuple[Any, ...]], window: int,
             stop: Callable[[list[Future[Any]]], None] | None = None) -> Iterator[tuple[int, Any]]:
    """(index, result) of ``function(*args)`` for each of ``arguments`` on ``pool``, as they end.

    At most ``window`` jobs are submitted at a time, so an interrupt leaves few started jobs to throw away; when
    the caller stops early (an interrupt, an error), ``stop`` gets the jobs still under way.
    """
    pending: dict[Future[Any], int] = {}
    queue = iter(enumerate(arguments))
    try:
        for i, args in queue:
            pending[pool.submit(function, *args)] = i
            if len(pending) >= window:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                yield index, future.result()
                following = next(queue, None)
                if following is not None:
                    pending[pool.submit(function, *following[1])] = following[0]
    finally:
        if pending and stop is not None:
            stop(list(pending))


RAY_START_TRIES = 3
"""How many times a local Ray is started before giving up: its node has a fixed 30 s to register, which a
machine busy with other work can miss once without anything being wrong."""


def _start_ray(ray: Any, backend: Backend) -> None:
    """Connect to the cluster at ``backend.address``, or start a local Ray (again, if its node timed out)."""
    where = backend.address or "a local instance"
    for attempt in range(1, RAY_START_TRIES + 1):
        try:
            if backend.address:
                ray.init(address=backend.address, log_to_driver=True, include_dashboard=False)
            else:
                # Ray runs its workers at nice 15 by default: on a machine busy with other work they would wait
                # behind it, where --workers' processes (nice 0) do not.
                ray.init(num_cpus=backend.workers, include_dashboard=False, log_to_driver=True,
                         _system_config={"worker_niceness": 0})
            return
        except Exception as exc:  # noqa: BLE001 - Ray raises a bare Exception when its node times out starting
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if backend.address or "timed out" not in reason or attempt == RAY_START_TRIES:
                raise TaskverseError(f"cannot start Ray on {where}: {reason}") from None
            ray.shutdown()  # what the failed start left running goes before the next try


def _ray_jobs(function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], backend: Backend,
              setup: Callable[[], Any] | None) -> Iterator[tuple[int, Any]]:
    try:
        import ray
    except ImportError:
        raise TaskverseError("--ray needs Ray: pip install 'taskverse[ray]' (or pip install ray)") from None
    started_here = not ray.is_initialized()
    if started_here:
        if backend.address:
            _check_reachable(backend.address)
        _start_ray(ray, backend)
    size = max(1, int(ray.cluster_resources().get("CPU", backend.workers)))
    actors = _actor_pool(ray, size, setup)
    refs: dict[Any, tuple[int, Any]] = {}
    finished = False
    try:
        queue = iter(enumerate(arguments))
        # two calls queued per actor: the next job is there when one ends
        for actor in actors * 2:
            following = next(queue, None)
            if following is None:
                break
            refs[actor.call.remote(function, following[1])] = (following[0], actor)
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                index, actor = refs.pop(ref)
                yield index, ray.get(ref)
                following = next(queue, None)
                if following is not None:
                    refs[actor.call.remote(function, following[1])] = (following[0], actor)
        finished = True
    finally:
        if not finished:  # stopped early: the calls under way cannot be cancelled, their actors go
            _ACTOR_POOLS.pop((size, setup), None)
            for actor in actors:
                ray.kill(actor)
        if started_here:
            _ACTOR_POOLS.clear()
            ray.shutdown()


class _Actor:
    """A Ray actor that runs ``setup`` once, then any job it is given (``ray.remote`` makes it one)."""

    def __init__(self, setup: Callable[[], Any] | None) -> None:
        _ignore_interrupts()
        if setup is not None:
            setup()

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Run one job."""
        return function(*args)


_ACTOR_POOLS: dict[tuple[int, Callable[[], Any] | None], list[Any]] = {}
"""The actor pools of this driver, by size and setup, while the Ray instance they live on is up."""


def _actor_pool(ray: Any, size: int, setup: Callable[[], Any] | None) -> list[Any]:
    """``size`` actors that ran ``setup``: this driver's pool from an earlier run, or new ones."""
    key = (size, setup)
    pool = _ACTOR_POOLS.get(key)
    if pool is not None and all(_alive(ray, actor) for actor in pool):
        return pool
    for stale in _ACTOR_POOLS.values():  # another size or setup, or a Ray that was restarted: not reused
        for actor in stale:
            ray.kill(actor)
    _ACTOR_POOLS.clear()
    remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_Actor)
    pool = _ACTOR_POOLS[key] = [remote.remote(setup) for _ in range(size)]
    return pool


def _alive(ray: Any, actor: Any) -> bool:
    """Whether an actor of an earlier run still answers (Ray may have been shut down and started again since)."""
    try:
        ray.get(actor.call.remote(int, ()), timeout=60)
    except Exception:  # noqa: BLE001 - any failure means: make a new one
        return False
    return True


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail at once, naming the address, when nothing listens there (``ray.init`` would wait for minutes).

    ``auto`` and addresses that are not ``[ray://]host:port`` are left to Ray.
    """
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isascii() or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise TaskverseError(f"cannot reach the Ray cluster at {address} ({RAY_ADDRESS_VARIABLE}): {reason}") from None


__all__ = ["Backend", "choose_backend", "default_workers", "run_jobs"]
