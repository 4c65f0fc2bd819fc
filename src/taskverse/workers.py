"""Running independent jobs in parallel: in this process, in local worker processes, or on a Ray cluster.

Evaluation episodes (text and engine alike) are independent jobs: a picklable function applied to picklable
arguments. ``run_jobs`` runs them and yields ``(index, result)`` pairs as they finish (in completion order), so a
caller can record each at once and keep what it has when the run is interrupted. The same function and
arguments give the same results wherever they run: only the order of completion differs.

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
             backend: Backend | None = None) -> Iterator[tuple[int, Any]]:
    """Apply ``function`` to each tuple of ``arguments``; yield ``(index, result)`` as each job finishes.

    Args:
        function: A module-level (picklable) function.
        arguments: One tuple of positional arguments per job.
        workers: Local worker processes when no ``backend`` is given.
        backend: Where to run (see ``Backend``).

    A job that raises ends the run with that exception (callers catch what they can recover from inside the
    job). Closing the iterator early (or an interrupt) cancels the jobs not yet started.

    """
    backend = backend or Backend(workers=workers)
    if backend.ray:
        yield from _ray_jobs(function, arguments, backend)
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


def _ray_jobs(function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]],
              backend: Backend) -> Iterator[tuple[int, Any]]:
    try:
        import ray
    except ImportError:
        raise TaskverseError("--ray needs Ray: pip install 'taskverse[ray]' (or pip install ray)") from None
    started_here = not ray.is_initialized()
    if started_here:
        if backend.address:
            _check_reachable(backend.address)
        try:
            if backend.address:
                ray.init(address=backend.address, log_to_driver=True, include_dashboard=False)
            else:
                ray.init(num_cpus=backend.workers, include_dashboard=False, log_to_driver=True)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = backend.address or "a local instance"
            raise TaskverseError(f"cannot start Ray on {where}: {str(exc).splitlines()[0]}") from None
    remote = ray.remote(max_retries=0)(function)
    refs: dict[Any, int] = {}
    try:
        queue = iter(enumerate(arguments))
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", backend.workers)))
        for i, args in queue:
            refs[remote.remote(*args)] = i
            if len(refs) >= window:
                break
        while refs:
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                index = refs.pop(ref)
                yield index, ray.get(ref)
                nxt = next(queue, None)
                if nxt is not None:
                    refs[remote.remote(*nxt[1])] = nxt[0]
    finally:
        for ref in refs:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


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
