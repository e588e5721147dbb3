"""防御 — the defense multiset: gained from the distance to 座 at the end of the turn, consumed by hits shortest-lived first (spec 002 防御は多重集合である).

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from . import board
from .sayou import truncate
from .state import BattleFields, State


def phase_defense(battle: BattleFields):
    """7. 防御の獲得: defense_coef × |刻 − 座|, gone at the end of the turn."""
    s: State = battle.state
    amount = truncate(s.param("defense_coef") * abs(s.age - s.enemy["seat"]))
    if amount > 0:
        s.add_defense(amount, "turn")
        s.count("turn", "defense_gained", amount)
    battle.emit(("defense_from_distance", amount, s.age, s.enemy["seat"], s.defense_total()))
    return board.fire(battle, "after_defense")


def consume_defense(battle: BattleFields, amount: int, one_intent: bool = False,
                    absorbed_by: list | None = None) -> int:
    """Absorb ``amount`` with defense, shortest-lived first; returns what is left.

    An on-hit value absorbs one Intent and then vanishes, whatever is left of it.
    ``one_intent``: this is the hit of an Intent (its ``defense_consumed`` events say
    ``during="hit"``: they are part of the hit). ``absorbed_by`` gets ``lifetime,
    absorbed, vanished`` for each lifetime of defense the hit touched, in
    consumption order (a 被弾1回 value vanishes with what it did not absorb).
    """
    s: State = battle.state
    defense = s.defense  # kept in consumption order: 被弾1回 values first
    if not defense:
        return amount
    emit = battle.emit
    during = ("hit",) if one_intent else ()  # the hit's events say so
    left = amount
    kept = []  # what stays: untouched values, and values not drained
    i, n = 0, len(defense)
    while i < n:
        entry = defense[i]
        value, expiry = entry
        i += 1
        if expiry == "on_hit":
            if not one_intent:  # not an Intent's hit, or this hit used one already
                kept.append(entry)
                continue
            one_intent = False  # one 被弾1回 value per Intent; it vanishes, used or not
            used = value if value < left else left
            left -= used
            if used:
                emit(("defense_consumed", used, expiry, *during))
            if absorbed_by is not None:
                _absorbed(absorbed_by, expiry, used, value - used)
            continue
        if left <= 0:
            i -= 1  # this value and the rest stay as they are
            break
        used = value if value < left else left
        left -= used
        if used:
            entry[0] = value - used
            emit(("defense_consumed", used, expiry, *during))
            if absorbed_by is not None:
                _absorbed(absorbed_by, expiry, used, 0)
        if entry[0] > 0:
            kept.append(entry)
    if i < n:
        kept.extend(defense[i:])
    s.defense = kept
    return left


def _absorbed(rows: list, expiry: str, used: int, vanished: int) -> None:
    """One lifetime's part of a hit into ``absorbed_by``: one row per lifetime, in
    consumption order, each row three values one after another — packed, as the hit's
    event records it (events.PACKED)."""
    if rows and rows[-3] == expiry:
        rows[-2] += used
        rows[-1] += vanished
    else:
        rows += (expiry, used, vanished)
