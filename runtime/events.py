"""出来事 — BattleEvent: what happened, and nothing about how to show it.

An event is a kind and a flat dict of plain values, so the stream can be compared,
printed as JSON lines, and replayed. The kinds and the names of their values are listed
here once (``LAYOUTS``).

A battle makes hundreds of events and a simulation millions, so an event is stored as a
cheap record: one flat tuple of the name of its layout and its values, in the layout's
order (``Battle.emit("drawn", uid, page)`` makes ``("drawn", uid, page)``). ``data`` names the values from the table when
someone reads them — the terminal, a record, a test — and never while a battle runs.
"""

from __future__ import annotations

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
    "chosen": ("uids",),
    "effect_placed": ("target", "timing", "repeat", "origin"),
    "effect_expired": ("target", "origin"),
    "pen": ("uid", "side", "result"),
    "tear": ("uid", "page", "distance", "fray", "blank"),
    "fray_gained": ("amount", "cause", "run", "stage"),
    "reward": ("threshold", "count"),
    "end_declared": ("age",),
    "defense_from_distance": ("amount", "age", "seat", "total"),
    "enemy_acts": ("intents",),
    "hit": ("amount", "absorbed", "damage", "hp", "cause", "absorbed_by?"),
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
        """The values by name, in the layout's order (a new dict at each reading)."""
        return dict(zip(FIELDS[self[0]], self[1:]))

    def as_dict(self) -> dict:
        """The event as one flat dict (its kind under ``kind``), for JSON lines."""
        return {"kind": self.kind, **self.data}

    def __repr__(self) -> str:
        return f"BattleEvent({self.kind!r}, {self.data!r})"
