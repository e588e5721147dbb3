"""遊び方の契約 — the one interface both rule sets offer: the battle (runtime/) and the
draft-17 solitaire (journey/).

A game is played only through ``apply(action)``; an action is a small frozen value (the
battle's are below, the journey's in journey/actions.py). A game says:

- ``actions()``: every action the rules allow now, as values (empty when it is over);
- ``apply(action)``: the events the action caused — an action the rules do not allow is
  refused with a Japanese reason (the battle raises ``runtime.refusal.Refused``, the
  journey ``journey.JourneyError``), before anything changes;
- ``pending``: the choice the game waits for in the middle of a step (a ``Pending``),
  or None while the player acts freely;
- ``copy()``: an independent game in the same position (an action applied to the copy
  leaves the original as it was);
- ``view()``: what the player sees now, as plain data (lists, dicts, str, int): the
  hand, the piles as counts, the faces, the Intents, the board;
- ``information()``: what the player may know, as plain data: the view, and what each
  hidden pile holds — never the order of a pile the player cannot see. Two positions
  with equal information cannot be told apart at the table;
- ``result``: None while playing, else plain data with ``outcome`` "won" or "lost".

Every action class has a ``KIND``: the one word for it in data (a recorded action list,
a corpus, a report) — ``ACTION_KINDS`` reads them back. A battle's end of turn is
``EndTurn`` (kind ``end_turn``) everywhere; the words a designer types for it (``end``,
終了) are the terminal's and the scenario language's, and map to this one value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Protocol, runtime_checkable

__all__ = ["ACTION_KINDS", "BATTLE_ACTIONS", "CHAIN_BOUND", "Action", "Choose", "DevSet", "EndTurn",
           "Game", "Pen", "Pending", "Play", "Tear", "action_from_data", "action_to_data"]

#: How many firings of the board one step (a player action, or a choice answered) may
#: set off from inside other firings — a 作用 fired at its timing whose landing sets off
#: its own timing or another's (ページが除外された時 answering an exile with an exile)
#: — before the battle stops the chain (``chain_stopped``). The bundled content's chains
#: are a link or two deep (a hit's reaction that fells the enemy); no rule of play needs
#: dozens, and a loop is cut in a fraction of a millisecond. (A link is a few steps on the
#: battle's stack, not nested Python calls: no bound of Python's is near.) The interaction
#: analysis warns of a chain its 最大 n 回 bounds beyond this (W012).
CHAIN_BOUND = 64


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice the game waits for, as data. ``kind``: what the candidates are (the
    battle: ``uids`` of page instances or ``page_ids`` of the pages table; the journey:
    its phase); ``candidates``: what may be chosen, in the order offered; ``count``: how
    many to choose; ``source``: what asked — the battle's region operation (the Sayou of
    移動・複製・生成 whose 選択 this is), the journey's pending suit or card."""

    kind: str
    candidates: tuple
    count: int
    source: Any = None


class Action:
    """An action of a game: a frozen value, hashable, compared by its fields."""

    __slots__ = ()
    KIND = ""


@dataclass(frozen=True, slots=True)
class Play(Action):
    """プレイ: play the hand page ``uid``."""

    uid: int
    KIND = "play"


@dataclass(frozen=True, slots=True)
class Pen(Action):
    """ペン: write (a blank face) or upgrade (a written face) ``side`` of hand page ``uid``."""

    uid: int
    side: str
    KIND = "pen"


@dataclass(frozen=True, slots=True)
class Tear(Action):
    """破る: tear hand page ``uid`` for the run."""

    uid: int
    KIND = "tear"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """ターン終了の宣言."""

    KIND = "end_turn"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Answer the pending choice with ``uids`` (page uids, or page ids for a 生成)."""

    uids: tuple
    KIND = "choose"

    def __post_init__(self):
        # A list given by a caller becomes a tuple: the action stays hashable and equal
        # to the same answer however it was written.
        if not isinstance(self.uids, tuple):
            object.__setattr__(self, "uids", tuple(self.uids))


@dataclass(frozen=True, slots=True)
class DevSet(Action):
    """開発者モード: set values directly (``values``: (code, value) pairs, in order; a
    value of 防御 may be (n, lifetime), the hand a tuple of page ids)."""

    values: tuple
    KIND = "set"

    def __post_init__(self):
        if isinstance(self.values, dict):
            object.__setattr__(self, "values", tuple(self.values.items()))
        object.__setattr__(self, "values", tuple(
            (key, tuple(value) if isinstance(value, list) else value)
            for key, value in self.values))

    @classmethod
    def of(cls, **values) -> "DevSet":
        """``DevSet.of(hp=10, defense=(5, "stage"))``."""
        return cls(tuple(values.items()))


#: The battle's actions.
BATTLE_ACTIONS = (Play, Pen, Tear, EndTurn, Choose, DevSet)


def _kinds(classes) -> dict[str, type]:
    return {cls.KIND: cls for cls in classes}


#: kind word → action class, for reading actions back from data.
ACTION_KINDS: dict[str, type] = _kinds(BATTLE_ACTIONS)


def action_to_data(action: Action) -> list:
    """An action as a plain list: its kind, then its fields (a tuple as a list) —
    ``["play", 3]``, ``["end_turn"]``, ``["choose", [4, 7]]``."""
    return [action.KIND, *(_plain(getattr(action, f.name)) for f in fields(action))]


def action_from_data(data, kinds: dict[str, type] = ACTION_KINDS) -> Action:
    """The action of ``action_to_data`` (a list or tuple); ValueError when it is none."""
    if not isinstance(data, (list, tuple)) or not data or data[0] not in kinds:
        raise ValueError(f"行動として読めません: {data!r}")
    cls = kinds[data[0]]
    try:
        return cls(*(_frozen(v) for v in data[1:]))
    except TypeError:
        raise ValueError(f"行動として読めません: {data!r}") from None


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


@runtime_checkable
class Game(Protocol):
    """What a game offers its players (see the module docstring)."""

    def actions(self) -> list:
        """Every action the rules allow now, as values (empty when the game is over)."""

    def apply(self, action) -> list:
        """Carry out ``action``; the events it caused (refused in Japanese if illegal)."""

    @property
    def pending(self) -> Pending | None:
        """The choice the game waits for inside a step, or None."""

    def copy(self) -> "Game":
        """An independent game in the same position."""

    def view(self) -> dict:
        """What the player sees now, as plain data."""

    def information(self) -> dict:
        """What the player may know now, as plain data (no hidden order of a pile)."""

    @property
    def result(self) -> dict | None:
        """None while playing; else plain data with ``outcome`` "won" or "lost"."""
