"""旅の表の契約 — what generated/journey.py holds: the second rule set (spec 004, draft 17).

The entries of the journey table (``contract.tables.JourneyTable``, which carries the
tables' one SCHEMA_VERSION): every item of the journey content, with each set-up flattened (a variant's 元 already
applied) so the runtime reads one complete set-up and never resolves inheritance. Codes
come from contract.vocabulary (JOURNEY_SUITS, JOURNEY_EFFECTS).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from . import vocabulary as vocab
from .codec import Bound, Length, codes
from .target import BalanceTarget

Id = Annotated[str, Length(1)]
NonNegative = Annotated[int, Bound(0)]
Count = Annotated[int, Bound(1)]
Suit = codes("journey_suit", lambda: tuple(s.code for s in vocab.JOURNEY_SUITS))
Effect = codes("journey_effect", lambda: tuple(e.code for e in vocab.JOURNEY_EFFECTS))


@dataclass(frozen=True, slots=True)
class Location:
    """ロケーション: a day of the journey; ``slots`` card icons, the outer ``red`` of them red."""

    id: Id
    name: str
    slots: NonNegative
    red: NonNegative
    text: str


@dataclass(frozen=True, slots=True)
class Event:
    """イベントカード: its suit (story), number and key icon."""

    id: Id
    name: str
    suit: Suit
    number: Annotated[int, Bound(1, 6)]
    key: Id
    text: str


@dataclass(frozen=True, slots=True)
class Flag:
    """フラグカード: a suit's story and effect; its letter cube is won by resolving it."""

    id: Id
    name: str
    suit: Suit
    effect: Effect
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    """アイテムカード: its effect (with ``value`` when the effect reads one), its cost in VP,
    and whether it is always on (``passive``) or tapped when used."""

    id: Id
    name: str
    effect: Effect
    value: int
    cost: NonNegative
    passive: bool
    text: str


@dataclass(frozen=True, slots=True)
class Letter:
    """レターの効果: ロケーションメモリー or アドベンチャーメモリー."""

    id: Id
    name: str
    effect: Effect
    text: str


@dataclass(frozen=True, slots=True)
class Setup:
    """旅の準備, flattened: the locations (``last_day`` laid last, the others shuffled
    before it), the hand dealt, the item pool and how many are carried, the key icons
    (``key_merge``: an icon that counts as another), and the variant rules.

    ``target`` is its 目標 (勝率 of the player that does not see the deck), its own or
    else its 元's; None when neither states one (then the literal leaves it out)."""

    OMIT_NONE: ClassVar[tuple] = ("target",)

    id: Id
    name: str
    locations: Annotated[list[str], Length(2)]
    last_day: Id
    hand: Count
    items_chosen: NonNegative
    item_pool: list[str]
    carried: list[str]
    keys: Annotated[list[str], Length(1)]
    key_merge: dict[str, str]
    key_vp: NonNegative
    hard: bool
    optional_effects: bool
    next_open: bool
    text: str
    target: BalanceTarget | None = None
