"""目標の契約 — ``BalanceTarget``: the range a measured balance figure is meant to lie in.

One class for every item that states a 目標 (a page, an enemy, a 旅の準備): the page and
enemy tables (contract.tables) and the journey's set-ups (contract.journey) both hold it,
so it lives below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from .codec import Bound
from .vocabulary import W

#: A share as a fraction (40% → 0.4), or a change of one (−5 points → −0.05).
Fraction = Annotated[float, Bound(-1, 1)]


@dataclass(frozen=True, slots=True)
class BalanceTarget:
    """目標: the range, as fractions, that a measured balance figure is meant to lie in.

    On an enemy, its 勝率: the starting deck's win rate against it alone (0.4..0.7 is
    40%〜70%). On a page, its 勝率差: the change of that win rate from one more copy of the
    page (−0.05..0.05 is −5〜+5 points). On a 旅の準備, its 勝率: the win rate of the
    player that does not see the deck (``jibunki journey report``). ``low`` ≤ ``high``;
    the compiler bounds each."""

    low: Fraction
    high: Fraction


#: 目標の判定 — a measured interval against its 目標 (``target_met``: True wholly inside,
#: False wholly outside, None on an end of it), as every report, the catalog and the
#: editor's lens say it.
TARGET_WORDS = {True: W.report.met, False: W.report.missed, None: W.report.undecided}
