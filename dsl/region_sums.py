"""合算 — which runs of a written sum name one region (山札+捨て札, 山札+捨て札+手札).

The grammar reads the "+" of ``山札+捨て札 × 2`` as a sum, looser than "×": 山札 + (捨て札 ×
2). A 合算 is one quantity, so its runs are found here once, on a sum already split into
terms and each term into factors, for the two readers of a written sum: the compiler
(compiler/values.py ``regroup_regions``: the run read as one reference) and the formatter
(dsl/formatter.py: the run's "+" written tight). Each reads its own tree; ``region_of``
says what region a factor of it names.

A run joins the last factor of one term to the first factor of the next through a "+",
every name before the last bare, a subscript on the last applying to the whole; a term
inside a run (neither its first nor its last) is one factor alone. A run is a 合算 only
when its parts name one region (``contract.vocabulary.region_from_parts``); a sum of
regions that names none stays a sum.
"""

from __future__ import annotations

from typing import Callable, Sequence

from contract.vocabulary import Region, region_from_parts

__all__ = ["region_runs"]


def region_runs(terms: Sequence[Sequence], ops: Sequence[str],
                region_of: Callable[..., Region | None]) -> list[tuple[int, int, Region]]:
    """The 合算 of a sum: (i, j, region) for each run that joins terms i..j (i < j) into
    one region, in order. ``terms``: the sum's terms, each its factors; ``ops``: the "+"
    or "-" between terms k and k + 1; ``region_of(factor, bare=…)``: the region a factor
    names (``bare``: only without a subscript), else None."""
    runs = []
    i = 0
    while i < len(ops):
        j = i  # ops i..j-1 join terms i..j
        while (j < len(ops) and ops[j] == "+"
               and region_of(terms[j][-1], bare=True)
               and region_of(terms[j + 1][0], bare=False)
               and (j == i or len(terms[j]) == 1)):
            j += 1
        if j > i:
            names = [terms[i][-1], *(terms[k][0] for k in range(i + 1, j + 1))]
            region = region_from_parts(
                [part for name in names for part in region_of(name, bare=False).parts])
            if region is not None:
                runs.append((i, j, region))
        i = max(j, i + 1)
    return runs
