"""条件の書き方 — a play condition written back as the language writes it
(``跨いだ回数[ターン] >= 1``, ``20 <= 刻 <= 40``, ``跨ぐ``, ``@覚醒``), for the messages of the
analysis (analysis/) and the blocking measurements of the lab (sim/blocking.py).
"""

from __future__ import annotations

from . import vocabulary as vocab
from .tables import (Const, CounterRef, DistanceRef, FlagRef, PageAttrRef, PageCountRef,
                     RegionCountRef, TilesPassedRef, VariableRef)

VARIABLES = {v.code: v.ja for v in vocab.VARIABLES}
COUNTERS = {c.code: c.ja for c in vocab.COUNTERS}
REGIONS = {r.code: r.ja for r in vocab.REGIONS}
SCOPES = {s.code: s.ja for s in vocab.SCOPES}
UNITS = {u.code: u.ja for u in vocab.ANCHOR_UNITS}
WORDS = {w.code: w.ja for w in vocab.CONDITION_WORDS}
TILES = {t.code: t.ja for t in vocab.TILE_KINDS}
#: |銘 − 刻|, as messages write it.
DISTANCE = f"|{vocab.W.variable.year} − {vocab.W.variable.age}|"


def _scope(ref: CounterRef) -> str:
    if ref.scope == vocab.ANCHORED:
        return vocab.ANCHORED_PHRASE.format(n=ref.n, unit=UNITS.get(ref.unit, ref.unit))
    return SCOPES[ref.scope]


#: Reference class → how the language writes it.
LABELS = {
    VariableRef: lambda r: VARIABLES[r.variable],
    DistanceRef: lambda r: DISTANCE,
    CounterRef: lambda r: f"{COUNTERS[r.counter]}[{_scope(r)}]",
    RegionCountRef: lambda r: REGIONS[r.region],
    PageCountRef: lambda r: f"{REGIONS[r.region]}[{r.page}]",
    FlagRef: lambda r: f"@{r.flag}",
    PageAttrRef: lambda r: f"{VARIABLES[r.variable]}[{r.page}]",
    TilesPassedRef: lambda r: f"{vocab.TILES_PASSED.ja}[{TILES[r.tile]}]",
}


def label(term) -> str:
    """A condition term (or a reference) as the language writes it."""
    if isinstance(term, Const):
        return f"{term.value:g}"
    return LABELS[type(term)](term)


def said(cond) -> str:
    """A condition as the language writes it: ``20 <= 刻 <= 40``, ``跨ぐ``, ``@覚醒``."""
    if cond.test in WORDS:
        return WORDS[cond.test]
    parts = [label(cond.terms[0])]
    for op, term in zip(cond.ops, cond.terms[1:]):
        parts += [op, label(term)]
    return " ".join(parts)
