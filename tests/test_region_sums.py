"""合算 runs (dsl/region_sums.py), found once for the compiler and the formatter: a run
joins the last factor of a term to the first of the next through "+", names before the
last bare, inner terms one factor alone, and only where its parts name one region."""

from __future__ import annotations

import pytest

from contract import vocabulary as vocab
from dsl.region_sums import region_runs


def _region_of(factor, bare: bool):
    """A factor here is a word, with "[…]" for a subscript."""
    if not isinstance(factor, str) or (bare and "[" in factor):
        return None
    return vocab.lookup("region", factor.split("[")[0])


@pytest.mark.parametrize("terms, ops, runs", [
    ([["山札"], ["捨て札"]], ["+"], [(0, 1, "deck")]),
    ([["山札"], ["捨て札"], ["手札"]], ["+", "+"], [(0, 2, "all")]),
    ([["山札"], ["捨て札[プレイ]", 2]], ["+"], [(0, 1, "deck")]),   # 山札+捨て札[プレイ] × 2
    ([["山札[プレイ]"], ["捨て札"]], ["+"], []),                     # a subscript inside a run
    ([["山札"], ["捨て札"]], ["-"], []),                             # a difference is no 合算
    ([["山札"], ["手札"]], ["+"], []),                               # no region of those parts
    ([[3, "山札"], ["捨て札"], [2]], ["+", "+"], [(0, 1, "deck")]),  # 3 × 山札+捨て札 + 2
    ([["山札"], ["捨て札", "手札"], ["除外"]], ["+", "+"], [(0, 1, "deck")]),  # inner: one factor
])
def test_the_runs_of_a_sum_that_name_one_region(terms, ops, runs):
    assert [(i, j, r.code) for i, j, r in region_runs(terms, ops, _region_of)] == runs

