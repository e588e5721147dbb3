"""旅の行動 — the actions of draft 17 as values (``contract.game``): one frozen class per
kind of action that ``journey.play.legal_actions`` lists as a tuple.

The rules and the solver keep the tuples (a search makes millions of them, and they
hash and compare as fast as anything); ``Journey`` (journey/game.py) offers these values
to its players, and turns each back into its tuple (``as_tuple``) for the rules —
``from_tuple`` and ``as_tuple`` are the two tables between them. The end
of a turn is the battle's own ``EndTurn``: one word for it in both games.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.game import Action, EndTurn

__all__ = ["Effect", "EndTurn", "JOURNEY_KINDS", "Letter", "Mill", "Next", "PlayCard",
           "Resolve", "Return", "Skip", "UseItem", "as_tuple", "from_tuple"]


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """移動: play ``card`` (its index in the rules); ``moves``: (black pawn's day, steps)
    of each black pawn that walks."""

    card: int
    moves: tuple
    KIND = "play"


@dataclass(frozen=True, slots=True)
class Mill(Action):
    """A loop's card: to the discard (``discard``) or under the deck (``bottom``, テント)."""

    to: str
    KIND = "mill"


@dataclass(frozen=True, slots=True)
class Next(Action):
    """Go on from a moment of 「いつでも」 to the next step."""

    KIND = "next"


@dataclass(frozen=True, slots=True)
class Effect(Action):
    """The pending suit effect's choice (``args``: as the effect's options give them)."""

    args: tuple
    KIND = "effect"


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Let the pending suit effect do nothing (when the set-up allows it)."""

    KIND = "skip"


@dataclass(frozen=True, slots=True)
class Return(Action):
    """A hand card under the deck (黄, ラジオ)."""

    card: int
    KIND = "return"


@dataclass(frozen=True, slots=True)
class Resolve(Action):
    """解決: resolve the story of ``suit``."""

    suit: int
    KIND = "resolve"


@dataclass(frozen=True, slots=True)
class Letter(Action):
    """A letter cube spent: ``effect`` location_memory (black pawn's day, ±1) or
    adventure_memory (card[, the camera's card])."""

    effect: str
    args: tuple
    KIND = "letter"


@dataclass(frozen=True, slots=True)
class UseItem(Action):
    """A carried item used (``index`` into the deal's carried items), with its options."""

    index: int
    args: tuple
    KIND = "item"


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


#: Action class → its rules tuple.
_TO_TUPLE = {
    PlayCard: lambda a: ("play", a.card, a.moves),
    Mill: lambda a: ("mill", a.to),
    Next: lambda a: ("next",),
    Effect: lambda a: ("effect", *a.args),
    Skip: lambda a: ("skip",),
    Return: lambda a: ("return", a.card),
    Resolve: lambda a: ("resolve", a.suit),
    EndTurn: lambda a: ("end",),
    Letter: lambda a: ("letter", a.effect, *a.args),
    UseItem: lambda a: ("item", a.index, *a.args),
}


def as_tuple(action) -> tuple | None:
    """The rules tuple of an action value; None when it is no action of the journey."""
    to_tuple = _TO_TUPLE.get(type(action))
    return None if to_tuple is None else to_tuple(action)
