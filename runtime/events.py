"""出来事 — BattleEvent: what happened, and nothing about how to show it.

An event is a kind and a flat dict of plain values, so the stream can be compared,
printed as JSON lines, and replayed. The kinds are listed here once.
"""

from __future__ import annotations

from typing import NamedTuple

KINDS = frozenset({
    "run_started", "run_won", "run_lost", "stage_started", "stage_won",
    "turn_started", "intents_shown", "trait_telegraphed", "steps_refilled",
    "drawn", "draw_skipped", "reshuffled", "redraw_started", "redrawn", "no_playable_page",
    "played", "face_fired", "steps_paid", "moved", "crossed", "intent_removed",
    "sayou", "damage", "healed", "defense_gained", "defense_consumed", "defense_expired",
    "steps_changed", "param_changed", "flag_changed", "year_changed", "currency_changed",
    "paid", "suppressed", "page_moved", "page_discarded", "page_exiled", "page_returned",
    "page_generated", "generation_failed", "page_removed", "hand_full",
    "choice_requested", "chosen", "effect_placed", "effect_expired",
    "pen", "tear", "fray_gained", "reward",
    "end_declared", "defense_from_distance", "enemy_acts", "hit", "blanked", "blank_missed",
    "seat_moved", "escalated", "dev_set", "revealed", "steps_carried", "payment_skipped",
})


class BattleEvent(NamedTuple):
    """One thing that happened: its kind (one of KINDS) and its values. A plain tuple, so
    that a battle of thousands of events costs little (issue 13); ``Battle.emit`` is the
    one place events are made and checks the kind."""

    kind: str
    data: dict

    def as_dict(self) -> dict:
        """The event as one flat dict (its kind under ``kind``), for JSON lines."""
        return {"kind": self.kind, **self.data}
