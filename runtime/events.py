"""出来事 — BattleEvent: what happened, and nothing about how to show it.

An event is a kind and a flat dict of plain values, so the stream can be compared,
printed as JSON lines, and replayed. The kinds and the names of their values are listed
here once (``LAYOUTS``).

A battle makes hundreds of events and a simulation millions, so an event is stored as a
cheap record: one flat tuple of the name of its layout and its values, in the layout's
order (``Battle.emit(("drawn", uid, page))`` records ``("drawn", uid, page)``). ``data``
names the values from the table when someone reads them — the terminal, a record, a test
— and never while a battle runs. A hit's rows of absorbed defense are recorded packed, as
one flat tuple of plain values (``PACKED``), and read as the rows they stand for.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

#: Layout → its kind and the names of its values, in the order ``Battle.emit`` is given
#: them. A layout is named by its kind; the two kinds that come in a second shape name it
#: ``kind/what``. A name ending in ``?`` is a last value that may be left off (the
#: explanation ``why`` of a landing, the detail of a hit).
LAYOUTS = {
    "run_started": ("seed", "stages", "deck"),
    "run_won": ("stages",),
    "run_lost": ("by", "hp"),
    "stage_started": ("stage", "enemy", "hp", "seat", "breakthrough"),
    "stage_won": ("stage", "enemy", "by"),
    "turn_started": ("turn", "stage"),
    "intents_shown": ("intents",),
    "trait_telegraphed": ("target", "amount", "to"),
    "steps_refilled": ("steps",),
    "steps_carried": ("amount",),
    "drawn": ("uid", "page"),
    "draw_skipped": ("reason",),
    "reshuffled": ("count",),
    "redraw_started": ("discarded",),
    "redrawn": ("drawn",),
    "no_playable_page": (),
    "played": ("uid", "page", "year", "age", "cost", "faces", "crosses"),
    "face_fired": ("uid", "side"),
    "moved": ("age", "to", "suppressed"),
    "crossed": ("intent", "left", "seat", "page", "age", "to", "crossing"),
    "intent_removed": ("intent", "left", "seat", "page", "age", "to", "crossing"),
    "sayou": ("op", "target", "line", "timing?"),
    "damage": ("amount", "dealt", "enemy_hp", "why?"),
    "healed": ("who", "amount", "hp", "why?"),
    "defense_gained": ("amount", "expiry", "why?"),
    "defense_consumed": ("amount", "expiry", "during?"),
    "defense_expired": ("amount", "expiry"),
    "steps_changed": ("delta", "steps", "why?"),
    "param_changed": ("param", "value", "lifetime"),
    "flag_changed": ("flag", "value"),
    "year_changed": ("page", "year"),
    "currency_changed": ("delta", "currency", "why?"),
    "paid": ("what", "amount"),
    "payment_skipped": ("what", "amount"),
    "suppressed": (),
    "page_moved": ("uid", "page", "to"),
    "page_discarded": ("uid",),
    "page_exiled": ("uid", "until"),
    "page_returned": ("uid",),
    "page_generated": ("uid", "page", "to", "lifetime"),
    "generation_failed": ("page", "cap"),
    "page_removed": ("uid", "page"),
    "hand_full": ("uid",),
    "hand_full/generated": ("page",),  # the page a full hand sent to the discard is new
    "choice_requested": ("candidates", "count"),
    # a 選択 with no more candidates than it picks, the player unasked: 移動 and 複製 take
    # them all, 生成 draws from them
    "choice_settled": ("candidates", "count"),
    "chosen": ("uids",),
    "effect_placed": ("target", "timing", "repeat", "origin"),
    "effect_expired": ("target", "origin"),
    # a chain of firings past board.CHAIN_BOUND in one step, stopped: each link is
    # (origin kind, page or enemy id, line, op, timing) — Board.chain_link
    "chain_stopped": ("bound", "links"),
    "pen": ("uid", "side", "result"),
    "tear": ("uid", "page", "distance", "fray", "blank"),
    "fray_gained": ("amount", "cause", "run", "stage"),
    "reward": ("threshold", "count"),
    "end_declared": ("age",),
    "defense_from_distance": ("amount", "age", "seat", "total"),
    "enemy_acts": ("intents",),
    # surplus: what the hit would have taken beyond the HP left (HP stays at 0)
    "hit": ("amount", "absorbed", "damage", "hp", "cause", "absorbed_by?", "surplus?"),
    "hit/effect": ("amount", "hp", "cause", "why?"),  # a 作用 took HP, not an Intent
    "blanked": ("uid", "page", "side", "region"),
    "blank_missed": ("region",),
    "seat_moved": ("seat", "delta", "immobile"),
    "escalated": ("intent", "count"),
    "dev_set": ("what", "value"),
    "revealed": ("uids", "pages"),
}

#: Layout → the names of its values (without the ``?`` marks).
FIELDS = {layout: tuple(name.rstrip("?") for name in names)
          for layout, names in LAYOUTS.items()}
#: Layout → how many of its values every event of it has (the rest may be left off).
REQUIRED = {layout: sum(not name.endswith("?") for name in names)
            for layout, names in LAYOUTS.items()}
#: Layout → its kind.
KIND_OF = {layout: layout.partition("/")[0] for layout in LAYOUTS}
#: Every kind of event.
KINDS = frozenset(KIND_OF.values())

# A record that holds only plain values leaves the cycle collector's lists the first time
# it is looked at; a record holding a tuple of tuples took it a pass per level, and the
# records of a long battle's hits piled up in the oldest generation and set off full
# collections, each walking the whole log again (issue 13). So a hit's absorbed rows are
# recorded packed: one flat tuple of plain values.


def _rows(packed: tuple) -> list[list]:
    """A hit's absorbed rows (lifetime, absorbed, vanished), one after another."""
    return [list(packed[i:i + 3]) for i in range(0, len(packed), 3)]


#: Value name → how a value recorded packed reads (BattleEvent.data), in every layout
#: that has a value of that name.
PACKED = {"absorbed_by": _rows}


class BattleEvent(tuple):
    """One thing that happened: its kind (one of KINDS) and its values — stored as
    ``(layout, *values)``, one flat tuple, so that a battle of thousands of events
    costs little (issue 13); ``Battle.emit`` is the one place events are made."""

    __slots__ = ()

    layout = property(itemgetter(0), doc="The name of the event's row of LAYOUTS.")

    @property
    def values(self) -> tuple:
        """The values, in the order of FIELDS[layout] (a new tuple at each reading)."""
        return self[1:]

    @property
    def kind(self) -> str:
        """What happened: one of KINDS."""
        return KIND_OF[self[0]]

    @property
    def data(self) -> dict:
        """The values by name, in the layout's order (a new dict at each reading). A
        value recorded packed (PACKED) reads as the lists and dicts it stands for, and
        one recorded as a tuple (so that the log stays plain tuples: EventLog) as the
        list — event values are JSON data."""
        return {name: PACKED.get(name, _listed)(value)
                for name, value in zip(FIELDS[self[0]], self[1:])}

    def as_dict(self) -> dict:
        """The event as one flat dict (its kind under ``kind``), for JSON lines."""
        return {"kind": self.kind, **self.data}

    def __repr__(self) -> str:
        return f"BattleEvent({self.kind!r}, {self.data!r})"


_as_event = tuple.__new__


def _listed(value):
    """A tuple (of tuples) as lists; any other value as it is."""
    return [_listed(item) for item in value] if type(value) is tuple else value


class EventLog(Sequence):
    """Events as a battle keeps them: a stretch ``[start, stop)`` of its list of plain
    records (``(layout, *values)``), each read as a BattleEvent.

    A view, not a copy, and the records stay exact tuples: Python's cycle collector stops
    looking at a tuple of plain values once it has seen it, while every instance of a
    tuple subclass stays on its lists — a 2,000-action battle's log of BattleEvents made
    each full collection walk all its 250,000 events again (issue 13)."""

    __slots__ = ("_records", "_start", "_stop")

    def __init__(self, records: list, start: int = 0, stop: int | None = None):
        self._records = records
        self._start = start
        self._stop = stop

    def _span(self) -> range:
        return range(self._start, len(self._records) if self._stop is None else self._stop)

    def __len__(self) -> int:
        return len(self._span())

    def __getitem__(self, index):
        span = self._span()
        if isinstance(index, slice):
            return [_as_event(BattleEvent, self._records[i]) for i in span[index]]
        return _as_event(BattleEvent, self._records[span[index]])

    def __iter__(self):
        records = self._records
        for i in self._span():
            yield _as_event(BattleEvent, records[i])

    def __eq__(self, other) -> bool:
        if isinstance(other, (EventLog, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __add__(self, other) -> list:
        return [*self, *other]

    def __radd__(self, other) -> list:
        return [*other, *self]

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"
