"""旅という遊び — a game of draft 17 behind the one game interface (``contract.game.Game``),
the battle's too: ``actions()`` / ``apply(action)`` with action values
(journey/actions.py), ``pending``, ``copy()``, ``view()``, ``information()``, ``result``.

The rules stay two pure functions over a copyable ``State`` (journey/play.py); a
``Journey`` holds the state a game has reached and moves it on. Its pending choice is
part of that state, so a copy is a copy of the state, pending or not.
"""

from __future__ import annotations

from contract.game import Pending

from .actions import as_tuple, from_tuple
from .play import apply, deal_game, information as known_key, legal_actions, open_top, score
from .rules import JourneyError, Rules
from .state import State

__all__ = ["Journey"]

#: The phases that are a choice inside a step (the rest are the player's own moves):
#: phase → what asked, read from the state (the Pending's ``source``).
_CHOICES = {
    "mill": lambda s: s.rules.card_ids[s.pending[0]],   # the card the loop drew
    "effect": lambda s: s.rules.suits[s.pending[0]],    # the suit whose effect it is
    "return": lambda s: s.pending[0],                   # how many cards still go back
}


class Journey:
    """A game of draft 17 in progress (or over)."""

    def __init__(self, state: State, events: list | None = None):
        self.state = state
        #: The events of the deal (``new``), for a player who wants to read them.
        self.opening = list(events or ())

    @classmethod
    def new(cls, rules: Rules, seed: object = 0, items=None, cards=None) -> "Journey":
        """A game dealt for ``seed`` (journey.play.deal_game)."""
        state, events = deal_game(rules, seed, items, cards)
        return cls(state, events)

    def actions(self) -> list:
        """Every action the rules allow now, as values, in the rules' fixed order."""
        return [from_tuple(a) for a in legal_actions(self.state)]

    def apply(self, action) -> list[dict]:
        """Carry out ``action``; the events it caused. JourneyError (in Japanese) when the
        rules do not allow it now."""
        rule = as_tuple(action)
        if rule is None or rule not in legal_actions(self.state):
            raise JourneyError(f"いまはできない行動です: {action!r}")
        self.state, events = apply(self.state, rule, check=False)
        return events

    @property
    def pending(self) -> Pending | None:
        """The choice inside a step the game waits for (a loop's card, a suit effect's
        choice, cards to return), or None while the player moves freely."""
        s = self.state
        source = _CHOICES.get(s.phase)
        if source is None:
            return None
        return Pending(s.phase, tuple(self.actions()), 1, source(s))

    def copy(self) -> "Journey":
        """An independent game in the same position (the state's fields are immutable)."""
        return Journey(self.state.copy())

    @property
    def rules(self) -> Rules:
        """The set-up's rules: static tables (names of locations, suits, cards, items),
        the same for every position of the game."""
        return self.state.rules

    def view(self) -> dict:
        """What the player sees, as plain data: the days with the events each holds, the
        pawns, the hand, the events at each location, the discard, the deck as a count
        (its top card when it lies face up: ``open_top``), the stories resolved and those
        a ランタン treats as unresolved this turn, letters, items, the phase, and the step
        a moment of 「いつでも」 comes before (``moment``)."""
        s = self.state
        r = s.rules
        ids = r.card_ids
        return {
            "turn": s.turn, "phase": s.phase, "reason": s.reason,
            "days": [r.location_names[d] for d in s.deal.days],
            "capacity": list(s.deal.capacity),
            "white": s.white + 1, "blacks": [b + 1 for b in s.blacks],
            "hand": [ids[c] for c in s.hand],
            "stacks": [[ids[c] for c in stack] for stack in s.stacks],
            "discard": [ids[c] for c in s.discard],
            "deck": len(s.deck),
            "top": ids[s.deck[0]] if s.deck and open_top(s) else None,
            "open_top": open_top(s),
            "resolved": [suit for i, suit in enumerate(r.suits) if s.resolved >> i & 1],
            "lantern": [suit for i, suit in enumerate(r.suits) if s.lantern >> i & 1],
            "letters": s.letters,
            "items": [{"id": item.id, "ready": s.ready(i)}
                      for i, item in enumerate(s.deal.carried)],
            "pending": None if s.phase not in _CHOICES else {
                "kind": s.phase, "source": _CHOICES[s.phase](s)},
            "moment": s.pending[0] if s.phase == "moment" else None,
            "result": self.result,
        }

    def information(self) -> dict:
        """What the player may know: the view, and the cards of the deck sorted (its order
        is hidden; only a face-up top card shows)."""
        known = self.view()
        known["deck"] = sorted(self.state.rules.card_ids[c] for c in self.state.deck)
        known["key"] = repr(known_key(self.state))
        return known

    @property
    def result(self) -> dict | None:
        """None while playing; else won (with the score) or lost (with the reason)."""
        s = self.state
        if not s.over:
            return None
        if s.phase == "won":
            return {"outcome": "won", "turn": s.turn, **score(s)}
        return {"outcome": "lost", "turn": s.turn, "reason": s.reason}
