"""旅の手順 — the small changes every rule is made of: walk a pawn, draw, mill, lose.

Each takes the (already copied) state it changes and the list its events go to (None: a
search's step, which writes none); the rules (journey.play) and the effects
(journey.effects) are written with these only.
"""

from __future__ import annotations

from .state import State


def walk_white(s: State, steps) -> bool:
    """Walk the white pawn; True when it passed the last day (a loop)."""
    days = len(s.deal.days)
    s.white += steps
    if s.white >= days:
        s.white -= days
        return True
    return False


def move_black(s: State, black, steps, ev, why: str) -> None:
    """Move the black pawn standing on day ``black`` by ``steps`` (negative: back), looping
    both ways; a black pawn's loop mills nothing."""
    days = len(s.deal.days)
    low, high = s.blacks
    to = (black + steps) % days
    low, high = (to, high) if low == black else (low, to)
    s.blacks = (low, high) if low <= high else (high, low)  # kept sorted
    if ev is not None:
        ev.append({"event": "black", "from": black + 1, "to": to + 1, "why": why})


def mill(s: State, ev, resume: tuple) -> None:
    """The white pawn looped: draw the top card and discard it (テント: under the deck,
    after a choice when it is a tapped item's). An empty deck loses the game. ``resume``
    is the phase (and pending) the game goes on with."""
    if not s.deck:
        lose(s, ev, "loop_empty")
        return
    card, s.deck = s.deck[0], s.deck[1:]
    if s.deal.has("loop_to_bottom_always"):
        s.deck += (card,)
        if ev is not None:
            ev.append({"event": "mill", "card": s.rules.card_ids[card], "to": "bottom"})
        s.phase, s.pending = resume
    elif ready_item(s, "loop_to_bottom") is not None:
        s.phase, s.pending, s.resume = "mill", (card,), resume
    else:
        s.discard = with_card(s.discard, card)
        if ev is not None:
            ev.append({"event": "mill", "card": s.rules.card_ids[card], "to": "discard"})
        s.phase, s.pending = resume


def draw(s: State, ev, why: str) -> int:
    """Draw the top card into the hand (1), or nothing from an empty deck (0)."""
    if not s.deck:
        return 0
    card, s.deck = s.deck[0], s.deck[1:]
    s.hand = with_card(s.hand, card)
    if ev is not None:
        ev.append({"event": "draw", "card": s.rules.card_ids[card], "why": why})
    return 1


def lose(s: State, ev, reason: str) -> None:
    """The game is lost (``reason``: refill_empty, loop_empty)."""
    if s.phase == "blacks":  # the card played never reaches its location: the game ends
        s.discard = with_card(s.discard, s.pending[0])
    s.phase, s.pending, s.resume, s.reason = "lost", (), (), reason
    if ev is not None:
        ev.append({"event": "lost", "turn": s.turn, "reason": reason})


def ready_item(s: State, effect: str) -> int | None:
    """The index of a standing carried item with ``effect`` (tapped ones are not), or None
    (every loop asks for a テント: written for speed)."""
    carried, tapped = s.deal.carried, s.tapped
    for index in s.deal.tappable:
        if carried[index].effect == effect and not tapped >> index & 1:
            return index
    return None


def interrupt(s: State, phase: str, pending: tuple) -> None:
    """Enter ``phase`` (a choice that cuts into the current one: 黄's or ラジオ's return),
    coming back to the current phase after it."""
    s.resume = (s.phase, s.pending)
    s.phase, s.pending = phase, pending


# ------------------------------------------------------------------ tuples of cards


def without(cards: tuple, card) -> tuple:
    """``cards`` less one ``card``."""
    at = cards.index(card)
    return cards[:at] + cards[at + 1:]


def with_card(cards: tuple, card) -> tuple:
    """``cards`` and ``card``, sorted (a hand, a discard pile: their order is no one's)."""
    return tuple(sorted((*cards, card)))


def replaced(stacks: tuple, day, stack: tuple) -> tuple:
    """The stacks with day ``day``'s replaced."""
    return stacks[:day] + (stack,) + stacks[day + 1:]
