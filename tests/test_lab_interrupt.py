"""A Ctrl-C during a lab run (sim/backends.py LocalPool): the main process answers it — the
workers ignore it from their fork on — and the pool's workers end at once, even when the
interrupt lands while the pool starts them (where it used to be lost, or to leave a pool
the exit waited for, for good)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from sim.backends import LocalPool, _held_interrupt

#: Killed processes: left out of the fast loop.
pytestmark = pytest.mark.slow


def _prepare(shared):
    return shared


def _sigint_handler(context, task):
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def _sleep(context, task):
    time.sleep(task)
    return task


def test_a_ctrl_c_while_the_workers_fork_is_held_and_raised_after():
    with pytest.raises(KeyboardInterrupt):
        with _held_interrupt():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # a KeyboardInterrupt here would escape the block at once
            reached = True
    assert reached
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_workers_ignore_ctrl_c():
    pool = LocalPool(_prepare, None, 2)
    try:
        assert pool.run(_sigint_handler, [0, 1, 2, 3]) == [True] * 4
    finally:
        pool.close()


def test_a_ctrl_c_during_a_run_ends_the_workers_at_once():
    pool = LocalPool(_prepare, None, 2)
    workers = []

    def interrupt(index, result):
        workers.extend((pool.pool._processes or {}).values())
        os.kill(os.getpid(), signal.SIGINT)

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pool.run(_sleep, [0.0, 30.0, 30.0], on_done=interrupt)
    assert time.monotonic() - started < 10  # not the 30 s the workers' tasks take
    for process in workers:
        process.join(timeout=5)
        assert not process.is_alive()
