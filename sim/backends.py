"""実行先 — where the lab's battles are played: in this process, on the local cores, or on
a Ray cluster (``BACKENDS``).

A runner (``open_runner``) is opened once per lab run: ``prepare(shared)`` makes what every
task reads (the tables, from their literals) once per worker. Then each round is a list of
tasks and a module-level ``work(context, task)`` that plays one. Results come back in the order of the tasks, whatever order the
workers finish in, so the number of workers and the backend never change a figure;
``on_done(index, result)`` hears of each as it finishes (for a progress bar only).
"""

from __future__ import annotations

import os
from typing import Callable

Prepare = Callable[[object], object]
Work = Callable[[object, object], object]
OnDone = Callable[[int, object], None]


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Runner:
    """A backend opened for a lab run: ``prepare(shared)`` done once per worker, then any
    number of ``run(work, tasks, on_done)`` on the same workers; ``close()`` ends them."""

    def run(self, work: Work, tasks: list, on_done: OnDone | None = None) -> list:
        """Every task's result, in task order."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_runner(prepare: Prepare, shared, *, workers: int = 1, backend: str = "local",
                address: str | None = None) -> Runner:
    """The runner of ``backend`` (BACKENDS) with ``workers`` workers."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    return BACKENDS[backend](prepare, shared, workers, address)


class InProcess(Runner):
    """This process only: no pool, no pickling."""

    def __init__(self, prepare: Prepare, shared):
        self.context = prepare(shared)

    def run(self, work, tasks, on_done=None):
        results = []
        for index, task in enumerate(tasks):
            results.append(work(self.context, task))
            if on_done:
                on_done(index, results[-1])
        return results


# ----------------------------------------------------------- local processes

_context = None


def _initialise(prepare: Prepare, shared) -> None:
    global _context
    _context = prepare(shared)


def _play(work: Work, task):
    return work(_context, task)


class LocalPool(Runner):
    """The local cores: a process pool that lives for the whole lab run."""

    def __init__(self, prepare: Prepare, shared, workers: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork: the workers start with the modules loaded (no re-import per worker); the
        # shared data still goes through the initializer, as under spawn.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self.pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_initialise,
                                        initargs=(prepare, shared))

    def run(self, work, tasks, on_done=None):
        from concurrent.futures import as_completed

        results: list = [None] * len(tasks)
        futures = {self.pool.submit(_play, work, task): index
                   for index, task in enumerate(tasks)}
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            if on_done:
                on_done(index, results[index])
        return results

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


def _local(prepare, shared, workers, address) -> Runner:
    if address is not None:
        raise ValueError("--address は ray の実行先だけのものです")
    return InProcess(prepare, shared) if workers <= 1 else LocalPool(prepare, shared, workers)


#: Backend name → how it opens a runner (prepare, shared, workers, address).
BACKENDS: dict[str, Callable] = {"local": _local}
