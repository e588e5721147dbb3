"""敵のターン — what an enemy's first turns look like, read from its tables alone: the
Intents each turn shows (escalation and 加速 included), where its 座 stands, the range its
座 moves over and its 封鎖 ranges — for the catalog's enemy cards and number line.

The Intents come from the battle's own escalation rule (runtime/escalation.py): turn t
shows the enemy's Intents and every escalation Intent added up to t, in the order added.
Nothing else changes the Intents a turn *shows* (跨ぎ removes one during the player's
phase, after it was shown).

座 moves by the enemy's 作用 on 座 only (DESIGN §6: no page targets it). A move is
knowable from the tables when its amount is a constant and it comes a known number of
times: once a turn (a timing of the turn's phases other than プレイ時), or once at
ステージ開始時, at most its 最大 n 回. Such moves are played turn by turn with the
battle's rules for where a move lands (runtime/seat.py: between 0 and 寿命上限, nothing for 不動;
a telegraphed move is planned at 予兆 and done in the enemy phase). A move whose amount
reads the battle (a reference) or that fires on an event (被弾時, 座を跨いだ時…) is not
knowable: it is listed as such, in its rules text, and adds nothing to the range.
"""

from __future__ import annotations

import math

from contract import vocabulary as vocab
from contract.tables import Const

import runtime.escalation as escalation
import runtime.seat as seat_rule

#: How many turns the enemy card and the number line look ahead.
HORIZON = 8

_ORDER = [t.code for t in vocab.TIMINGS]
#: The player's phase: timings of the turn before it change what the player faces.
_PLAYER = _ORDER.index("on_play")
#: Once-a-turn timings (the turn's phases but プレイ時, which comes once per play).
ONCE_A_TURN = frozenset(t.code for t in vocab.TIMINGS
                        if t.family == "phase" and t.code != "on_play")
#: A telegraphed move is done in the enemy phase (step 8), between these two timings.
_ENEMY_PHASE = _ORDER.index("before_enemy") + 0.5
#: Operations on 座 whose landing is knowable from a constant.
_KNOWN_OPS = ("add", "assign")


def acceleration(enemy) -> int:
    """The enemy's 加速 (0 without it)."""
    return next((t.value for t in enemy.traits if t.trait == "acceleration"), 0) or 0


def immobile(enemy) -> bool:
    """Whether the enemy has 不動."""
    return any(t.trait == "immobile" for t in enemy.traits)


def blockades(enemy) -> list[tuple[int, int]]:
    """The 刻 ranges the enemy's 封鎖 forbids the player to land on, as written."""
    return [(t.low, t.high) for t in enemy.traits if t.trait == "blockade"]


def intent_turns(enemy, horizon: int = HORIZON) -> list[dict]:
    """Turns 1..``horizon``: the Intents each shows (``intents``, tables objects in the
    order the battle holds them) and how many of them were added that turn (``added``,
    the last ones)."""
    rules = escalation.stage_rules(enemy)
    speed = acceleration(enemy)
    shown = list(enemy.intents)
    turns = []
    for turn in range(1, horizon + 1):
        added = [enemy.escalations[i].intent for i in escalation.due(rules, turn, speed)]
        shown += added
        turns.append({"turn": turn, "intents": list(shown), "added": len(added)})
    return turns


def _knowable(effect) -> bool:
    # the battle plans a telegraphed move at 予兆 only (ターン開始時); any other never moves
    if effect.telegraphed and effect.timing != "turn_start":
        return False
    return (effect.op in _KNOWN_OPS and (effect.base is None or isinstance(effect.base, Const))
            and (effect.timing in ONCE_A_TURN or effect.timing == "stage_start"))


def seat_moves(enemy) -> tuple[list, list]:
    """The enemy's 作用 on 座: (knowable from the tables, not knowable)."""
    moves = [e for e in enemy.trait_effects if e.target.code == "seat"]
    return [e for e in moves if _knowable(e)], [e for e in moves if not _knowable(e)]


def _value(effect) -> int:
    return math.trunc(effect.base.value) if effect.base is not None else 0


def seat_path(enemy, top: int, horizon: int = HORIZON) -> dict:
    """座 at the player's phase of turns 1..``horizon`` (``seats``) under the knowable
    moves with 寿命上限 ``top`` (the balance's), whether a move still comes after the last
    of them and would move it (``continues``), and the lowest and the highest 座 of those
    turns, its written 座 included (``low``, ``high``)."""
    known, _ = seat_moves(enemy)
    still = immobile(enemy)
    fires = [0] * len(known)
    seat = enemy.seat

    def _delta(effect, seat: int) -> int:
        """The signed move of a knowable 作用 on 座 from ``seat`` (the battle's own plan)."""
        return seat_rule.planned(effect.op, effect.direction, _value(effect), seat, top)["amount"]

    def can_fire(i: int) -> bool:
        limit = known[i].repeat.max
        return limit is None or fires[i] < limit

    def move(i: int, delta: int) -> None:
        nonlocal seat
        seat = seat_rule.moved(seat, delta, still, top)
        fires[i] += 1

    def when(i: int) -> float:
        return _ENEMY_PHASE if known[i].telegraphed else _ORDER.index(known[i].timing)

    for i, effect in enumerate(known):
        if effect.timing == "stage_start" and can_fire(i):
            move(i, _delta(effect, seat))
    turnly = sorted((i for i, e in enumerate(known) if e.timing in ONCE_A_TURN), key=when)
    seats = []
    for _turn in range(horizon):
        # 予兆: a telegraphed move is planned from the turn's first 座, done in step 8
        plans = {i: _delta(known[i], seat) for i in turnly
                 if known[i].telegraphed and can_fire(i)}
        for i in turnly:  # the turn's phases before the player's
            if when(i) < _PLAYER and not known[i].telegraphed and can_fire(i):
                move(i, _delta(known[i], seat))
        seats.append(seat)
        for i in turnly:  # the phases after it, the enemy phase's planned moves among them
            if when(i) > _PLAYER and (i in plans or not known[i].telegraphed and can_fire(i)):
                move(i, plans[i] if i in plans else _delta(known[i], seat))
    continues = not still and any(
        can_fire(i) and seat_rule.moved(seat, _delta(known[i], seat), still, top) != seat
        for i in turnly)
    return {"seats": seats, "continues": continues,
            "low": min([enemy.seat, *seats]), "high": max([enemy.seat, *seats])}


def seat_range(enemy, top: int, horizon: int = HORIZON) -> tuple[int, int]:
    """The lowest and the highest 座 of the enemy's first ``horizon`` turns (its written
    座 included) under the knowable moves with 寿命上限 ``top`` (``seat_path``'s)."""
    path = seat_path(enemy, top, horizon)
    return path["low"], path["high"]
