"""量と条件の言葉 — what a play condition reads, named and said in the designer's words.

A condition term that is not a constant reads one quantity (刻, 歩, 手札, 跨いだ回数[ターン],
@覚醒 …): ``key`` names it (a hashable tuple, the same for the same quantity wherever it
is written) and ``label`` says it as the language writes it; ``said`` writes a whole
condition back (``跨いだ回数[ターン] >= 1``) for a message.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.tables import (Const, CounterRef, DistanceRef, FlagRef, PageAttrRef, PageCountRef,
                             RegionCountRef, TilesPassedRef, VariableRef)

VARIABLES = {v.code: v.ja for v in vocab.VARIABLES}
COUNTERS = {c.code: c.ja for c in vocab.COUNTERS}
REGIONS = {r.code: r.ja for r in vocab.REGIONS}
SCOPES = {s.code: s.ja for s in vocab.SCOPES}
UNITS = {u.code: u.ja for u in vocab.ANCHOR_UNITS}
WORDS = {w.code: w.ja for w in vocab.CONDITION_WORDS}
TILES = {t.code: t.ja for t in vocab.TILE_KINDS}


def _scope(ref: CounterRef) -> str:
    if ref.scope == vocab.ANCHORED:
        return vocab.ANCHORED_PHRASE.format(n=ref.n, unit=UNITS.get(ref.unit, ref.unit))
    return SCOPES[ref.scope]


#: Reference class → (its key, its label).
_KEYS = {
    VariableRef: lambda r: (("variable", r.variable), VARIABLES[r.variable]),
    DistanceRef: lambda r: (("variable", "distance"), "|銘 − 刻|"),
    CounterRef: lambda r: (("counter", r.counter, r.scope, r.unit, r.n),
                           f"{COUNTERS[r.counter]}[{_scope(r)}]"),
    RegionCountRef: lambda r: (("region", r.region), REGIONS[r.region]),
    PageCountRef: lambda r: (("page", r.region, r.page), f"{REGIONS[r.region]}[{r.page}]"),
    FlagRef: lambda r: (("flag", r.flag), f"@{r.flag}"),
    PageAttrRef: lambda r: (("attr", r.variable, r.page), f"{VARIABLES[r.variable]}[{r.page}]"),
    TilesPassedRef: lambda r: (("tiles", r.tile), f"{vocab.TILES_PASSED.ja}[{TILES[r.tile]}]"),
}


def key(term) -> tuple:
    """The quantity a (non-constant) term reads, as a hashable key."""
    return _KEYS[type(term)](term)[0]


def label(term) -> str:
    """A term as the language writes it."""
    if isinstance(term, Const):
        return f"{term.value:g}"
    return _KEYS[type(term)](term)[1]


def said(cond) -> str:
    """A condition as the language writes it: ``20 <= 刻 <= 40``, ``跨ぐ``, ``@覚醒``."""
    if cond.test in WORDS:
        return WORDS[cond.test]
    parts = [label(cond.terms[0])]
    for op, term in zip(cond.ops, cond.terms[1:]):
        parts += [op, label(term)]
    return " ".join(parts)
