"""旅の規則表 — one set-up of generated/journey.py, as the arrays a game reads.

Cards are small integers (the events sorted by id); suits are the indices of the suits
that have a flag card, in the vocabulary's order (赤 緑 青 黄 白); key icons are indices
into the set-up's 鍵の種類 after 鍵の置き換え. A ``Rules`` is immutable and shared by
every state of every game played with it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from pathlib import Path

from contract import vocabulary as vocab
from contract.codec import ContractError, from_literal
from contract.disk import text_reason
from contract.tables import JourneyTable

DEFAULT_TABLE = Path(__file__).resolve().parent.parent / "generated" / "journey.py"


class JourneyError(Exception):
    """A set-up, an item choice or a table that cannot be played (a clear message, for
    the user: never a traceback)."""


class UnknownAction(JourneyError):
    """A line that names no action of the game at all (not one of another moment): a
    script stops there, as a battle script does at an unknown command."""


class UnreadableLine(JourneyError):
    """A line that cannot be read as it is written — words beyond a whole action, a card
    the game has none of: a script stops there (``why``), as a battle script does at a
    command with extra words. Going on would play the lines after it against a game they
    were not written for."""

    def __init__(self, message: str, why: str):
        super().__init__(message)
        self.why = why


@dataclass(frozen=True)
class ItemCard:
    """A carried-able item: its id, name, effect code, value, VP cost, whether always on."""

    id: str
    name: str
    effect: str
    value: int
    cost: int
    passive: bool
    text: str


@dataclass(frozen=True)
class Rules:
    """A set-up of the journey, ready to deal: the cards, suits, locations and items."""

    setup: str
    setup_name: str
    card_ids: tuple[str, ...]
    card_names: tuple[str, ...]
    suit_of: tuple[int, ...]      # card → suit index
    number_of: tuple[int, ...]    # card → 1..6
    key_of: tuple[int, ...]       # card → key icon index (after 鍵の置き換え)
    suits: tuple[str, ...]        # suit index → suit code (赤 → "red")
    suit_effects: tuple[str, ...]  # suit index → its flag card's effect code
    flag_names: tuple[str, ...]   # suit index → the story's name
    flag_texts: tuple[str, ...]   # suit index → the flag card's text (designer text)
    keys: tuple[str, ...]
    locations: tuple[str, ...]    # every location id; ``last_day`` is laid last
    location_names: dict
    slots: dict                   # location id → card icons
    red: dict                     # location id → red card icons among them
    last_day: str
    hand: int
    items_chosen: int
    items: dict                   # item id → ItemCard (the set-up's pool)
    item_pool: tuple[str, ...]
    carried: tuple[str, ...]      # the default choice
    key_vp: int
    hard: bool
    optional_effects: bool
    next_open: bool
    letter_effects: dict          # letter effect code → its name
    letter_texts: dict            # letter effect code → its text (designer text)

    @property
    def days(self) -> int:
        """How many days (locations) the journey has: 7 in the draft."""
        return len(self.locations)

    def reduced(self, suits: int | None = None, numbers=None) -> "Rules":
        """The same set-up with a smaller deck, for exhaustive checks: the first ``suits``
        stories only (their flag cards too) and, of each, the cards whose number is in
        ``numbers`` (None: all)."""
        keep_suits = range(len(self.suits) if suits is None else suits)
        cards = [c for c in range(len(self.card_ids)) if self.suit_of[c] in keep_suits
                 and (numbers is None or self.number_of[c] in numbers)]
        return replace(
            self, card_ids=tuple(self.card_ids[c] for c in cards),
            card_names=tuple(self.card_names[c] for c in cards),
            suit_of=tuple(self.suit_of[c] for c in cards),
            number_of=tuple(self.number_of[c] for c in cards),
            key_of=tuple(self.key_of[c] for c in cards),
            suits=self.suits[:len(keep_suits)], suit_effects=self.suit_effects[:len(keep_suits)],
            flag_names=self.flag_names[:len(keep_suits)],
            flag_texts=self.flag_texts[:len(keep_suits)])

    def suit_word(self, suit: int) -> str:
        """The suit's Japanese word (赤 …)."""
        return vocab.lookup("journey_suit", self.suits[suit]).ja


def read_table(path: Path | str = DEFAULT_TABLE) -> JourneyTable:
    """The journey table of ``path`` (generated/journey.py), checked against the contract."""
    path = Path(path)
    try:
        module = ast.parse(path.read_text(encoding="utf-8"))
        literal = next(ast.literal_eval(node.value) for node in module.body
                       if isinstance(node, ast.Assign)
                       and any(isinstance(t, ast.Name) and t.id == "TABLE" for t in node.targets))
        return from_literal(JourneyTable, literal, "journey")
    except ContractError as exc:
        why = str(exc)  # the contract's own words (Japanese)
    except StopIteration:
        why = "TABLE がありません"
    except (OSError, SyntaxError, ValueError) as exc:
        why = text_reason(exc)
    raise JourneyError(f"旅の表 {path} を読めません（{why}）。jibunki compile で作り直してください")


#: The set-up played and printed when none is named, when the content has it.
DRAFT_SETUP = "草案"


def default_setup(table: JourneyTable) -> str:
    """The id of the set-up played and printed when none is named: 草案, else the first
    by id."""
    return DRAFT_SETUP if DRAFT_SETUP in table.setups else sorted(table.setups)[0]


def load_rules(setup: str | None = None, table: JourneyTable | None = None) -> Rules:
    """The rules of set-up ``setup`` (by id or name; None: 草案, else the first) of ``table``
    (None: generated/journey.py)."""
    table = table if table is not None else read_table()
    if not table.setups:
        raise JourneyError("旅の準備がありません。content/journey/ に 旅の準備 を書いてください")
    if setup is None:
        setup = default_setup(table)
    found = table.setups.get(setup) or next(
        (s for s in table.setups.values() if s.name == setup), None)
    if found is None:
        raise JourneyError(f"旅の準備「{setup}」はありません（ある準備: {'、'.join(sorted(table.setups))}）")
    return rules_of(table, found)


def rules_of(table: JourneyTable, setup) -> Rules:
    """The arrays of one set-up of ``table``."""
    order = [s.code for s in vocab.JOURNEY_SUITS]
    flags = sorted(table.flags.values(), key=lambda f: order.index(f.suit))
    suits = tuple(f.suit for f in flags)
    events = [table.events[i] for i in sorted(table.events) if table.events[i].suit in suits]
    keys = tuple(setup.keys)

    def key_index(key: str) -> int:
        return keys.index(setup.key_merge.get(key, key))

    return Rules(
        setup=setup.id, setup_name=setup.name,
        card_ids=tuple(e.id for e in events), card_names=tuple(e.name for e in events),
        suit_of=tuple(suits.index(e.suit) for e in events),
        number_of=tuple(e.number for e in events),
        key_of=tuple(key_index(e.key) for e in events),
        suits=suits, suit_effects=tuple(f.effect for f in flags),
        flag_names=tuple(f.name for f in flags), flag_texts=tuple(f.text for f in flags),
        keys=keys,
        locations=tuple(setup.locations),
        location_names={i: l.name for i, l in table.locations.items()},
        slots={i: l.slots for i, l in table.locations.items()},
        red={i: l.red for i, l in table.locations.items()},
        last_day=setup.last_day, hand=setup.hand, items_chosen=setup.items_chosen,
        items={i: ItemCard(i, it.name, it.effect, it.value, it.cost, it.passive, it.text)
               for i, it in table.items.items() if i in setup.item_pool},
        item_pool=tuple(setup.item_pool), carried=tuple(setup.carried), key_vp=setup.key_vp,
        hard=setup.hard, optional_effects=setup.optional_effects, next_open=setup.next_open,
        letter_effects={l.effect: l.name for l in table.letters.values()},
        letter_texts={l.effect: l.text for l in table.letters.values()},
    )
