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
What the block made and left alive — a search's notes, a compiled model — goes at once
to the oldest generation, as if it had lived through the young collections it skipped:
else the young collection that follows the block walks all of it (after a solve of
3,000 positions, its notes: some 7% of the solve's time, measured with ``gc.callbacks``
on seeds 0–9 of 草案). Anything that does make a cycle inside the block is collected at
the next full collection. Standard library only: every layer may use it.

``settle`` is for a command that compiles the content once and then works for a long
while beside it (``jibunki sim``): the content's model and tables (millions of objects
alive to the end) leave the collector's generations, so that its full collections — a
handful per lab run, each walking everything tracked — walk only what the run makes
after: 0.31 s of the lab's main process in its five full collections, 0.05 s settled.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

__all__ = ["paused", "settle"]


@contextmanager
def paused():
    """The cyclic collector off inside the block, as it was after it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            _promote()
            gc.enable()


#: Has ``settle`` frozen what was alive then (which ``_promote`` must leave frozen)?
_settled = False


def _promote() -> None:
    """Everything the collector tracks goes to its oldest generation: ``gc.freeze`` then
    ``gc.unfreeze``, two splices of its lists — nothing is walked. Never once ``settle``
    has frozen what was alive: unfreezing would give it back to the walks (and asking
    how much is frozen walks the frozen list: 20 ms for two million objects)."""
    if not _settled:
        gc.freeze()
        gc.unfreeze()


def settle() -> None:
    """Everything alive now is kept out of the collector's walks from now on
    (``gc.freeze``): what lives to the end of the process. Reference counting still
    frees any of it that is dropped; only a cycle among it would be kept."""
    global _settled
    _settled = True
    gc.freeze()
