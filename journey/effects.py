"""旅の効果 — every effect content may pick (contract.vocabulary.JOURNEY_EFFECTS), as
two tables keyed by the effect's code: the flag cards' (SUIT_EFFECTS) and the tapped
items' (ITEM_EFFECTS). Each row says what choices the effect has now (``options``: the
arguments an action carries; empty: it cannot happen) and what it does (``apply``).

The letters' two effects are the rules' own (journey.play); the items that are always on
(the 問題点 summary's) change a rule where it is written (the deal, the capacity, the
mill, the score) and need no row. Two tapped items are used inside another action — the
カメラ with an アドベンチャーメモリー, the テント at a loop — so their rows offer no action
of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable

from .state import State
from .steps import draw, interrupt, mill, move_black, replaced, walk_white, with_card, without


@dataclass(frozen=True)
class Effect:
    """One effect: its choices in a state, and what it does with one of them."""

    options: Callable[[State], list[tuple]]
    apply: Callable | None  # (state, args, events, record) → None; None: used elsewhere


# ------------------------------------------------------------------ the flag cards


def _nudge_options(s: State) -> list[tuple]:  # 赤
    return [(b, d) for b in sorted(set(s.blacks)) for d in (1, -1)]


def _nudge(s: State, args: tuple, ev, record: dict | None) -> None:
    if ev is not None:
        ev.append(record)
    move_black(s, args[0], args[1], ev, "effect")


def _call_options(s: State) -> list[tuple]:  # 白: a black pawn already here is not called
    return [(b,) for b in sorted({b for b in s.blacks if b != s.white})]


def _call(s: State, args: tuple, ev, record: dict | None) -> None:
    if ev is not None:
        ev.append(record)
    move_black(s, args[0], s.white - args[0], ev, "effect")


def _swap_options(s: State) -> list[tuple]:  # 青: two events anywhere of one number
    """Every pair of places whose events have one number, in the order of the places
    (day, then position): the pairs of each number, then sorted — pairing every place
    with every other, as a search asks at every 青 effect, costs far more."""
    number = s.rules.number_of
    by_number: dict = {}
    for day, stack in enumerate(s.stacks):
        for pos, card in enumerate(stack):
            by_number.setdefault(number[card], []).append((day, pos))
    return sorted((*p, *q) for places in by_number.values()
                  for p, q in combinations(places, 2))


def _swap(s: State, args: tuple, ev, record: dict | None) -> None:
    d1, p1, d2, p2 = args
    stacks = [list(stack) for stack in s.stacks]
    moved = stacks[d1][p1], stacks[d2][p2]
    stacks[d1][p1], stacks[d2][p2] = moved[1], moved[0]
    s.stacks = tuple(map(tuple, stacks))
    # A card the swap moves has no effect this turn, wherever it went (DESIGN §6.2); one
    # that arrives was never in the queue, one that leaves or moves within leaves it.
    s.queue = tuple(card for card in s.queue if card not in moved)
    if ev is not None:
        ev.append({**record, "swap": [[d1 + 1, p1 + 1], [d2 + 1, p2 + 1]]})


def _draw_return_options(s: State) -> list[tuple]:  # 黄: nothing to draw, nothing happens
    return [()] if s.deck else []


def _draw_return(s: State, args: tuple, ev, record: dict | None) -> None:
    if ev is not None:
        ev.append(record)
    draw(s, ev, "effect")
    interrupt(s, "return", (1,))


def _stand_options(s: State) -> list[tuple]:  # 緑
    return [(i,) for i, it in enumerate(s.deal.carried) if not it.passive and not s.ready(i)]


def _stand(s: State, args: tuple, ev, record: dict | None) -> None:
    s.tapped &= ~(1 << args[0])
    if ev is not None:
        ev.append({**record, "item": s.deal.carried[args[0]].id})


SUIT_EFFECTS = {
    "nudge_black": Effect(_nudge_options, _nudge),
    "call_black": Effect(_call_options, _call),
    "swap_same_number": Effect(_swap_options, _swap),
    "draw_return": Effect(_draw_return_options, _draw_return),
    "stand_item": Effect(_stand_options, _stand),
}


# ------------------------------------------------------------------ the tapped items


def _unresolve_options(s: State) -> list[tuple]:  # ランタン: each use names one more suit
    return [(suit,) for suit in range(len(s.rules.suits)) if not s.in_effect(suit)]


def _unresolve(s: State, args: tuple, ev, record: dict | None) -> None:
    s.lantern |= 1 << args[0]
    if ev is not None:
        ev.append({**record, "suit": s.rules.suits[args[0]]})


def _advance(s: State, args: tuple, ev, record: dict | None) -> None:  # 地図: its loop mills
    start = s.white
    looped = walk_white(s, 1)
    if ev is not None:
        ev.append({**record, "white": [start + 1, s.white + 1], "loop": looped})
    if looped:
        mill(s, ev, (s.phase, s.pending))


def _cycle_options(s: State) -> list[tuple]:  # ラジオ
    return [()] if s.deck else []


def _cycle(s: State, args: tuple, ev, record: dict | None) -> None:
    if ev is not None:
        ev.append(record)
    drawn = sum(draw(s, ev, "item") for _ in range(min(3, len(s.deck))))
    interrupt(s, "return", (drawn,))


def _swap_in_options(s: State) -> list[tuple]:  # リュックサック
    """Each event of the white pawn's location, each hand card to put there — but not the
    last card of the hand at 移動フェイズ, whose one action is to play a card from it
    (docs/journey.md: リュックサック and the move phase)."""
    if s.phase == "play" and len(s.hand) <= 1:
        return []
    return [(pos, card) for pos in range(len(s.stacks[s.white])) for card in sorted(set(s.hand))]


def _swap_in(s: State, args: tuple, ev, record: dict | None) -> None:
    pos, card = args
    stack = list(s.stacks[s.white])
    gone, stack[pos] = stack[pos], card
    s.hand = without(s.hand, card)
    s.discard = with_card(s.discard, gone)
    s.stacks = replaced(s.stacks, s.white, tuple(stack))
    s.queue = tuple(c for c in s.queue if c != gone)  # gone from the location: no effect
    if ev is not None:
        ev.append({**record, "out": s.rules.card_ids[gone], "in": s.rules.card_ids[card],
                   "day": s.white + 1})


def _never(s: State) -> list[tuple]:
    return []


ITEM_EFFECTS = {
    "unresolve": Effect(_unresolve_options, _unresolve),
    "advance_white": Effect(lambda s: [()], _advance),
    "cycle_three": Effect(_cycle_options, _cycle),
    "swap_in": Effect(_swap_in_options, _swap_in),
    "recall_extra": Effect(_never, None),     # with an アドベンチャーメモリー (journey.play)
    "loop_to_bottom": Effect(_never, None),   # at a loop's mill (journey.play)
}
