"""量 — what a play condition reads: ``key`` names the quantity a (non-constant) term
reads as a hashable tuple, the same for the same quantity wherever it is written; its
words are contract/conditions.py's (``label``, ``said``)."""

from __future__ import annotations

from contract.conditions import VARIABLES, label, said
from contract.tables import (CounterRef, DistanceRef, FlagRef, PageAttrRef, PageCountRef,
                             RegionCountRef, TilesPassedRef, VariableRef)

__all__ = ["VARIABLES", "key", "label", "said"]

#: Reference class → the quantity it reads.
_KEYS = {
    VariableRef: lambda r: ("variable", r.variable),
    DistanceRef: lambda r: ("variable", "distance"),
    CounterRef: lambda r: ("counter", r.counter, r.scope, r.unit, r.n),
    RegionCountRef: lambda r: ("region", r.region),
    PageCountRef: lambda r: ("page", r.region, r.page),
    FlagRef: lambda r: ("flag", r.flag),
    PageAttrRef: lambda r: ("attr", r.variable, r.page),
    TilesPassedRef: lambda r: ("tiles", r.tile),
}


def key(term) -> tuple:
    """The quantity a (non-constant) term reads, as a hashable key."""
    return _KEYS[type(term)](term)
