"""旅の行動 — the actions of draft 17 as values (``contract.game``): one frozen class per
kind of action that ``journey.play.legal_actions`` lists as a tuple.

The rules and the solver keep the tuples (a search makes millions of them, and they
hash and compare as fast as anything); ``Journey`` (journey/game.py) offers these values
to its players, and turns each back into its tuple (``as_tuple``) for the rules. The end
of a turn is the battle's own ``EndTurn``: one word for it in both games.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.game import Action, EndTurn

__all__ = ["Effect", "EndTurn", "JOURNEY_KINDS", "Letter", "Mill", "Next", "PlayCard",
           "Resolve", "Return", "Skip", "UseItem", "from_tuple"]


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """移動: play ``card`` (its index in the rules); ``moves``: (black pawn's day, steps)
    of each black pawn that walks."""

    card: int
    moves: tuple
    KIND = "play"

    def as_tuple(self) -> tuple:
        return ("play", self.card, self.moves)


@dataclass(frozen=True, slots=True)
class Mill(Action):
    """A loop's card: to the discard (``discard``) or under the deck (``bottom``, テント)."""

    to: str
    KIND = "mill"

    def as_tuple(self) -> tuple:
        return ("mill", self.to)


@dataclass(frozen=True, slots=True)
class Next(Action):
    """Go on from a moment of 「いつでも」 to the next step."""

    KIND = "next"

    def as_tuple(self) -> tuple:
        return ("next",)


@dataclass(frozen=True, slots=True)
class Effect(Action):
    """The pending suit effect's choice (``args``: as the effect's options give them)."""

    args: tuple
    KIND = "effect"

    def as_tuple(self) -> tuple:
        return ("effect", *self.args)


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Let the pending suit effect do nothing (when the set-up allows it)."""

    KIND = "skip"

    def as_tuple(self) -> tuple:
        return ("skip",)


@dataclass(frozen=True, slots=True)
class Return(Action):
    """A hand card under the deck (黄, ラジオ)."""

    card: int
    KIND = "return"

    def as_tuple(self) -> tuple:
        return ("return", self.card)


@dataclass(frozen=True, slots=True)
class Resolve(Action):
    """解決: resolve the story of ``suit``."""

    suit: int
    KIND = "resolve"

    def as_tuple(self) -> tuple:
        return ("resolve", self.suit)


@dataclass(frozen=True, slots=True)
class Letter(Action):
    """A letter cube spent: ``effect`` location_memory (black pawn's day, ±1) or
    adventure_memory (card[, the camera's card])."""

    effect: str
    args: tuple
    KIND = "letter"

    def as_tuple(self) -> tuple:
        return ("letter", self.effect, *self.args)


@dataclass(frozen=True, slots=True)
class UseItem(Action):
    """A carried item used (``index`` into the deal's carried items), with its options."""

    index: int
    args: tuple
    KIND = "item"

    def as_tuple(self) -> tuple:
        return ("item", self.index, *self.args)


def _end_tuple(self) -> tuple:
    return ("end",)


#: The rules' tuple kind → how its value is made from the tuple.
_FROM_TUPLE = {
    "play": lambda t: PlayCard(t[1], t[2]),
    "mill": lambda t: Mill(t[1]),
    "next": lambda t: Next(),
    "effect": lambda t: Effect(t[1:]),
    "skip": lambda t: Skip(),
    "return": lambda t: Return(t[1]),
    "resolve": lambda t: Resolve(t[1]),
    "end": lambda t: EndTurn(),
    "letter": lambda t: Letter(t[1], t[2:]),
    "item": lambda t: UseItem(t[1], t[2:]),
}

#: kind word → action class, for reading the journey's actions back from data.
JOURNEY_KINDS = {cls.KIND: cls for cls in (PlayCard, Mill, Next, Effect, Skip, Return,
                                           Resolve, EndTurn, Letter, UseItem)}


def from_tuple(action: tuple) -> Action:
    """The value of a rules tuple (``journey.play.legal_actions``)."""
    return _FROM_TUPLE[action[0]](action)


def as_tuple(action: Action) -> tuple | None:
    """The rules tuple of an action value; None when it is no action of the journey."""
    if type(action) is EndTurn:
        return ("end",)
    to_tuple = getattr(action, "as_tuple", None)
    return to_tuple() if to_tuple is not None and type(action).KIND in JOURNEY_KINDS else None
