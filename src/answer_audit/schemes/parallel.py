"""Work on several cores: worker processes that each take whole pieces of the work.

Two shapes: `map_chunks` cuts a list of distinct inputs (texts for a row-by-row preset) into
chunks, and `map_ordered` hands out whole items (slices of a table, each audited into a
mergeable partial) a few at a time, so the inputs held at once stay bounded. Results are the
same as a serial run, in the same order: each piece is a pure function of its input.

Workers are started with ``spawn``, never ``fork``: the parent runs Polars' thread pool, and
forking a multi-threaded process can deadlock the child. ``spawn`` re-imports the caller's main
module, so a script that asks for ``workers > 1`` needs the usual
``if __name__ == "__main__":`` guard; the command line has it, and the library's default is
one worker (no processes). Each worker runs Polars on one thread: the workers are the
parallelism, and N workers with N Polars threads each would fight over the cores.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many distinct inputs, starting processes costs more than it saves.
MIN_PARALLEL_ITEMS = 20_000
_CHUNKS_PER_WORKER = 4  # several chunks per worker evens out slow and fast chunks

# What one worker holds at its peak: an interpreter with the package imported (~110 MB) and a
# slice of 100,000 long outputs being audited (measured by benchmarks/memory.py).
WORKER_MEMORY_BYTES = 400 * 2**20
# The automatic choice leaves the rest of the free memory to the parent and to other programs.
_MEMORY_SHARE = 0.5


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory free for this process: the kernel's estimate of what can be had
    without swapping, within the container's limit when there is one; None when unknown."""
    found = _meminfo_available()
    limit = _cgroup_room()
    if found is None or limit is None:
        return found if limit is None else limit
    return min(found, limit)


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    try:  # other Unixes: free pages only (a lower bound)
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def _cgroup_room(root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """A cgroup v2 memory limit minus what the group uses; None without a limit."""
    try:
        limit = (root / "memory.max").read_text().strip()
        if limit == "max":
            return None
        return max(int(limit) - int((root / "memory.current").read_text()), 0)
    except (OSError, ValueError):
        return None


def default_workers(cores: int | None = None, memory: int | None = None) -> int:
    """Workers for ``--workers 0``: one per core, as many as half the free memory holds at
    `WORKER_MEMORY_BYTES` each, at least one. ``cores`` and ``memory`` (bytes) default to
    `available_cores` and `available_memory` (unknown memory: no bound from it).

    >>> default_workers(cores=64, memory=8 * 2**30), default_workers(cores=2, memory=2**40)
    (10, 2)
    """
    cores = available_cores() if cores is None else cores
    memory = available_memory() if memory is None else memory
    fits = cores if memory is None else int(memory * _MEMORY_SHARE) // WORKER_MEMORY_BYTES
    return max(1, min(cores, fits))


def resolve_workers(workers: int | None) -> int:
    """``None`` or 0: `default_workers`; otherwise ``workers`` itself (at least 1)."""
    if not workers:
        return default_workers()
    return max(1, workers)


def map_chunks(
    fn: Callable[[Sequence[T]], list[R]],
    items: Sequence[T],
    workers: int = 1,
    *,
    min_items: int | None = None,
) -> list[R]:
    """``fn(items)``, computed over chunks in ``workers`` processes when there are at least
    ``min_items`` (default `MIN_PARALLEL_ITEMS`); ``fn`` must be a module-level function (or a
    `functools.partial` of one) whose result has one entry per input, in order."""
    if workers < 2 or len(items) < (MIN_PARALLEL_ITEMS if min_items is None else min_items):
        return fn(items)
    size = -(-len(items) // (workers * _CHUNKS_PER_WORKER))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    parts = list(_pool(workers).map(fn, chunks))
    return [result for part in parts for result in part]


def map_ordered(
    fn: Callable[[T], R], items: Iterable[T], workers: int, *, ahead: int | None = None
) -> Iterator[R]:
    """``fn(item)`` for each item, in ``workers`` processes, yielded in the items' order.
    ``items`` is read lazily and at most ``ahead`` items (default ``workers``) are handed out
    and not yet yielded: a reader of slices holds that many slices, not the table. With one
    worker, ``fn`` runs here. ``fn`` must be picklable (a module-level function or a
    `functools.partial` of one), and so must the items and results.

    Example: `list(map_ordered(len, ["a", "bb"], 2))` is ``[1, 2]``.
    """
    if workers < 2:
        yield from map(fn, items)
        return
    pool = _pool(workers)
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            del item  # the pool holds it until it is done; this frame need not
            if len(pending) >= (ahead or workers):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:  # a failed item or a reader that stopped: drop the rest
            future.cancel()


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """One pool per size, kept for the process's life: the schemes and slices of one audit
    share the workers instead of paying the start-up (an interpreter and an import each) every
    time. Its processes start here, all at once, with one Polars thread each."""
    if workers not in _POOLS:
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        # a worker reads the variable when it imports Polars (at start-up, with the caller's
        # main module); each task submitted before any is done starts one process
        with _environment(POLARS_MAX_THREADS="1"):
            started = [pool.submit(os.getpid) for _ in range(workers)]
            for future in started:
                future.result()
        _POOLS[workers] = pool
    return _POOLS[workers]


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Environment variables set while the block runs (processes started in it inherit them)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def worker_pids() -> list[int]:
    """Process ids of the live workers (for memory accounting in the benchmarks)."""
    return [pid for pool in _POOLS.values() for pid in (pool._processes or {})]


@atexit.register
def shutdown() -> None:
    """Stop the worker processes (called at exit; safe to call any time)."""
    while _POOLS:
        _POOLS.popitem()[1].shutdown(cancel_futures=True)
