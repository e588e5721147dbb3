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

from contract.vocabulary import KEYWORDS, W

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
    "never_played": "引いても一度も出さなかった",
    "long_games": "長い試合で引かれがち",
    "rarely_drawn": "引いた試合が少ない",
    "rarely_not_drawn": "引かなかった試合が少ない",
    "starter_copies": f"初期{KEYWORDS['deck'][0]}にもある",
}
FLAG_NOTES = {
    "never_played": f"引いた試合で一度も出していません（死に札）: 出せる条件・{W.variable.year}か、"
                    "出して得になる作用かを見直してください",
    "long_games": f"引いた試合は引かなかった試合より平均で {LONG_GAME_RATIO:g} 倍以上長い: "
                  f"引いた試合の{W.measure.win_rate}は試合の長さを映しています",
    "rarely_drawn": f"引いた試合が {MIN_GROUP} 戦未満: 引いた試合の数字はあてになりません",
    "rarely_not_drawn": f"引かなかった試合が {MIN_GROUP} 戦未満: 引いた時の差はあてになりません",
    "starter_copies": f"初期{KEYWORDS['deck'][0]}にも同じページがあるので、出した回数・ダメージ・"
                      f"引いた試合は加えた 1 枚と初期{KEYWORDS['deck'][0]}の写しを合わせて数えています",
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


def delta_label(settings: dict) -> str:
    """What Δ answers in a report of ``settings``: the page added (take or skip), or — with
    ``--baseline`` — the page swapped for one copy of that page of the starting deck (the
    deck size held). catalog/lab.py says it the same way (a test holds the two equal)."""
    page = settings.get("baseline_page")
    if page is None:
        return LABELS["delta"]
    name = (settings.get("page_names") or {}).get(page, page)
    return f"「{name}」と入れ替えた時の{W.measure.win_rate_delta}（因果: 枚数そのまま）"


def _rate(sample: list) -> dict:
    """Battles, wins and the (weighted) win rate with Wilson's interval (None without
    battles: no rate to read, rather than 0% over [0, 1])."""
    return {"battles": len(sample), "wins": sum(o.won for o, _ in sample),
            "win_rate": stats.rate_interval([o.won for o, _ in sample],
                                            [w for _, w in sample]).to_dict()
            if sample else None}


def _shown(interval: stats.Interval | None) -> dict | None:
    return None if interval is None else interval.to_dict()


def _mean(sample: list, value) -> float:
    """The weighted mean of ``value(outcome)`` over a non-empty sample."""
    return sum(w * value(o) for o, w in sample) / sum(w for _, w in sample)


def flags(drawn: list, not_drawn: list) -> list[str]:
    """The flags of a page's battles split into drawn and not drawn — each a list of
    (outcome, weight) — as ``FLAGS``' codes, in that order: drawn and never played (a dead
    page: a 生きない年 beyond the 寿命上限, a 条件 never met, or a play the player never
    found worth it); the drawn battles markedly longer (``LONG_GAME_RATIO``, judged only
    with both sides non-empty); too few battles on a side (``MIN_GROUP``)."""
    found = []
    if drawn and not any(o.plays for o, _ in drawn):
        found.append("never_played")
    if drawn and not_drawn:
        if _mean(drawn, _turns) >= LONG_GAME_RATIO * _mean(not_drawn, _turns):
            found.append("long_games")
    if len(drawn) < MIN_GROUP:
        found.append("rarely_drawn")
    if len(not_drawn) < MIN_GROUP:
        found.append("rarely_not_drawn")
    return found


def _turns(outcome) -> int:
    return outcome.turns


def figures(outcomes: list, weights: list[float] | None = None, *,
            in_starter: bool = False) -> dict:
    """The observed figures of a page's battles (``Outcome``s with the page as focus),
    each battle counted with its weight (all 1 when not given: the lab weighs each enemy's
    battles back to an equal share when it played some enemies more, sim/lab.py).
    ``in_starter``: the starting deck holds the page too — its figures count every copy
    (the battles know a page by its id), which the flag ``starter_copies`` says."""
    sample = list(zip(outcomes, [1.0] * len(outcomes) if weights is None else weights))
    drawn = [(o, w) for o, w in sample if o.drawn >= 0]
    not_drawn = [(o, w) for o, w in sample if o.drawn < 0]

    def rate(part):  # (effective wins, effective battles) for Newcombe's interval
        size = stats.effective_size(w for _, w in part)
        return _mean(part, lambda o: o.won) * size, size

    def interval(part, value, whole=lambda o: 1):
        return _shown(stats.ratio_interval([value(o) for o, _ in part],
                                           [whole(o) for o, _ in part],
                                           weights=[w for _, w in part]))

    return {
        "battles": len(outcomes),
        "drawn": _rate(drawn),
        "opening": _rate([(o, w) for o, w in drawn if o.drawn == 0]),
        "later": _rate([(o, w) for o, w in drawn if o.drawn > 0]),
        "not_drawn": _rate(not_drawn),
        "drawn_share": stats.rate_interval([int(o.drawn >= 0) for o, _ in sample],
                                           [w for _, w in sample]).to_dict(),
        # drawn − not drawn: two independent groups of battles, Newcombe's interval;
        # none when either group is empty (a difference with nothing)
        "improvement": stats.newcombe(*rate(drawn), *rate(not_drawn)).to_dict()
        if drawn and not_drawn else None,
        "play_rate": interval(sample, lambda o: o.plays),
        # over the battles it was drawn in: a page never drawn was not held at all
        "held_unplayable": interval(drawn, lambda o: o.held_unplayable),
        "damage_per_step": interval(sample, lambda o: o.damage, lambda o: o.steps),
        "turns": {"drawn": stats.rounded(_mean(drawn, _turns)) if drawn else None,
                  "not_drawn": stats.rounded(_mean(not_drawn, _turns)) if not_drawn else None},
        "flags": flags(drawn, not_drawn) + (["starter_copies"] if in_starter else []),
    }
