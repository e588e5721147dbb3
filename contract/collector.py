"""The cyclic garbage collector, paused where millions of objects are made and none is
part of a cycle: the compiler's passes (compiler/pipeline.py says what it saves) and the
journey's solver and player.

The solver keeps a transposition table of up to MEMO_CAP positions, and every position
it expands allocates tuples that outlive the collector's young generation. Python's
cyclic collector then walks the table again and again — about 5% of the solver's time
(measured with ``gc.callbacks`` on seeds 0–3 of 草案, 3,000 and 30,000 positions). None
of what the search allocates is part of a reference cycle: reference counting frees each
object the moment it is dropped (tests/test_collector.py solves and plays deals with the
collector off and finds nothing left for it), so the walks find nothing.

A battle's look-ahead does not need it: its objects die young, the collector runs about
once in a thousand battles there, and ``sim`` does not pause it.

``paused`` turns the collector off for a block, or a function it decorates, and back on
after, only if it was on (so blocks nest, and a caller that turned it off keeps it off).
Anything that does make a cycle inside the block is collected at the first collection
after it. Standard library only: every layer may use it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused():
    """The cyclic collector off inside the block, as it was after it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
