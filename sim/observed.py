"""観測した数字 — the figures card-game communities read first, for a page of the lab: the
win rate in the battles it was drawn in (in the opening hand, drawn later) and in those
it was not, their difference ("improvement when drawn"), plays per battle, the turns it
sat in the hand unplayable, damage per 歩 — each with its interval — and the flags where
such a figure is known to mislead.

They are observations of the variant deck's battles (the starting deck with the page),
not the page's effect: a page is drawn more often in long battles, and long battles are
won (or lost) for reasons of their own, so "win rate when drawn" mixes the page with the
battle's length. The causal answer is the lab's Δ (the same seeds with and without the
page); these stand beside it because designers read them, with the flags saying when not
to trust them.

Each figure is a pure function of the battles' ``Outcome``s (sim/lab.py): the same
battles, the same figures.
"""

from __future__ import annotations

from contract.vocabulary import W

from . import stats

#: Fewer battles than this on either side of "drawn / not drawn" and the difference says
#: little: a Wilson interval over 30 battles is still about ±17 points wide at 50%.
MIN_GROUP = 30
#: "Drawn mostly in long games": the battles the page was drawn in last, on average, at
#: least this many times as many turns as those it was not drawn in. Then "win rate when
#: drawn" is largely the win rate of long battles; 1.25 (a quarter longer) is where the
#: two groups plainly are different kinds of battle.
LONG_GAME_RATIO = 1.25

#: Flag code → its words in the reports, and what it warns about (FLAG_NOTES).
FLAGS = {
    "long_games": "長い試合で引かれがち",
    "rarely_drawn": "引いた試合が少ない",
    "rarely_not_drawn": "引かなかった試合が少ない",
}
FLAG_NOTES = {
    "long_games": f"引いた試合は引かなかった試合より平均で {LONG_GAME_RATIO:g} 倍以上長い: "
                  f"引いた試合の{W.measure.win_rate}は試合の長さを映しています",
    "rarely_drawn": f"引いた試合が {MIN_GROUP} 戦未満: 引いた試合の数字はあてになりません",
    "rarely_not_drawn": f"引かなかった試合が {MIN_GROUP} 戦未満: 引いた時の差はあてになりません",
}

#: The words of the figures, each saying which question it answers (terminal and page).
LABELS = {
    "drawn": f"引いた試合の{W.measure.win_rate}",
    "opening": "初手にあった試合",
    "later": "後から引いた試合",
    "not_drawn": "引かなかった試合",
    "improvement": "引いた時の差（観測）",
    "delta": f"加えた時の{W.measure.win_rate_delta}（因果: 取るか見送るか）",
    "swap_delta": f"入れ替えた時の{W.measure.win_rate_delta}（因果: 枚数そのまま）",
    "play_rate": "出した回数/戦",
    "held_unplayable": f"出せずに{W.region.hand}にあった{W.scope.turn}",
    "damage_per_step": f"{W.variable.steps}あたりダメージ",
    "flags": "注意",
}


def _rate(outcomes: list) -> dict:
    """Battles, wins and the win rate with Wilson's interval (None without battles: no
    rate to read, rather than 0% over [0, 1])."""
    wins = sum(o.won for o in outcomes)
    return {"battles": len(outcomes), "wins": wins,
            "win_rate": stats.wilson(wins, len(outcomes)).to_dict() if outcomes else None}


def _shown(interval: stats.Interval | None) -> dict | None:
    return None if interval is None else interval.to_dict()


def flags(drawn: list, not_drawn: list) -> list[str]:
    """The flags of a page's battles split into drawn and not drawn (``FLAGS``' codes, in
    that order): too few battles on a side (``MIN_GROUP``); the drawn battles markedly
    longer (``LONG_GAME_RATIO``, judged only with both sides non-empty)."""
    found = []
    if drawn and not_drawn:
        long_turns = sum(o.turns for o in drawn) / len(drawn)
        short_turns = sum(o.turns for o in not_drawn) / len(not_drawn)
        if long_turns >= LONG_GAME_RATIO * short_turns:
            found.append("long_games")
    if len(drawn) < MIN_GROUP:
        found.append("rarely_drawn")
    if len(not_drawn) < MIN_GROUP:
        found.append("rarely_not_drawn")
    return found


def figures(outcomes: list) -> dict:
    """The observed figures of a page's battles (``Outcome``s with the page as focus)."""
    drawn = [o for o in outcomes if o.drawn >= 0]
    not_drawn = [o for o in outcomes if o.drawn < 0]
    won_drawn, won_not = sum(o.won for o in drawn), sum(o.won for o in not_drawn)
    return {
        "battles": len(outcomes),
        "drawn": _rate(drawn),
        "opening": _rate([o for o in drawn if o.drawn == 0]),
        "later": _rate([o for o in drawn if o.drawn > 0]),
        "not_drawn": _rate(not_drawn),
        "drawn_share": stats.wilson(len(drawn), len(outcomes)).to_dict(),
        # drawn − not drawn: two independent groups of battles, Newcombe's interval;
        # none when either group is empty (a difference with nothing)
        "improvement": stats.newcombe(won_drawn, len(drawn), won_not, len(not_drawn)).to_dict()
        if drawn and not_drawn else None,
        "play_rate": _shown(stats.mean_interval(o.plays for o in outcomes)),
        # over the battles it was drawn in: a page never drawn was not held at all
        "held_unplayable": _shown(stats.mean_interval(o.held_unplayable for o in drawn)),
        "damage_per_step": _shown(stats.ratio_interval([o.damage for o in outcomes],
                                                       [o.steps for o in outcomes])),
        "turns": {"drawn": stats.mean(o.turns for o in drawn),
                  "not_drawn": stats.mean(o.turns for o in not_drawn)},
        "flags": flags(drawn, not_drawn),
    }
