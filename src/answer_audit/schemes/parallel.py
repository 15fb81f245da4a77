"""Row-wise rules on several cores: distinct inputs cut into chunks for worker processes.

Only the presets and matchers that run row by row in Python use this (the vectorized free-form
path already uses every core through Polars). Results are the same as a serial run, in the
same order: each chunk is a pure function of its inputs.

Workers are started with ``spawn``, never ``fork``: the parent runs Polars' thread pool, and
forking a multi-threaded process can deadlock the child. ``spawn`` re-imports the caller's main
module, so a script that asks for ``workers > 1`` needs the usual
``if __name__ == "__main__":`` guard; the command line has it, and the library's default is
one worker (no processes).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many distinct inputs, starting processes costs more than it saves.
MIN_PARALLEL_ITEMS = 20_000
_CHUNKS_PER_WORKER = 4  # several chunks per worker evens out slow and fast chunks


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# Each worker is an interpreter with the package imported (~110 MB): the automatic choice
# stops here so a many-core machine does not start dozens of them unasked.
MAX_AUTO_WORKERS = 8


def resolve_workers(workers: int | None) -> int:
    """``None`` or 0: every available core, at most `MAX_AUTO_WORKERS`; otherwise ``workers``
    itself (at least 1)."""
    if not workers:
        return min(available_cores(), MAX_AUTO_WORKERS)
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


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """One pool per size, kept for the process's life: the schemes of one audit share the
    workers instead of paying the start-up (an interpreter and an import each) every time."""
    if workers not in _POOLS:
        context = multiprocessing.get_context("spawn")
        _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    return _POOLS[workers]


def worker_pids() -> list[int]:
    """Process ids of the live workers (for memory accounting in benchmarks/run.py)."""
    return [pid for pool in _POOLS.values() for pid in (pool._processes or {})]


@atexit.register
def shutdown() -> None:
    """Stop the worker processes (called at exit; safe to call any time)."""
    while _POOLS:
        _POOLS.popitem()[1].shutdown(cancel_futures=True)
