"""一つの準備の測定 — the journey report for one 旅の準備: what the editor's 「この 準備で測る」
runs.

``jibunki journey report`` measures every set-up and the draft's fifteen item pairs, some
ten minutes; a designer who just changed a set-up wants its win rate against its 目標. So
this run measures that set-up's own row alone (``measure.Settings.setups``, no item pairs)
at the report's defaults — the same deals, solver and players, so its figures are the
report's row for that set-up — without the ladder of thinking (the lens does not show it),
and with the report's results cache (journey/lab/cache.py), so a set-up whose rules did not
change is read back at once, and the command line reuses what the editor measured.

Run as ``python -m journey.lab.one_setup`` (sim.oneshot): the journey table's
literal, the set-up's id and the editor's settings (``EDITOR_LIMITS``) come pickled on
stdin from the language server, and the answer goes back as JSON on stdout: ``{"row",
"entry", "budgets", "settings"}`` — or ``{"error": …}``, one Japanese line, never a
traceback.
"""

from __future__ import annotations

import os
import sys

from sim.oneshot import serve

from . import measure

__all__ = ["EDITOR_LIMITS", "UnknownSetup", "run_setup"]

#: What the editor may set, and each one's bounds (as the command line's options): the
#: deals of the set-up and the solver's positions a deal; and ``"cache": false`` plays
#: every deal again (--no-cache). Anything else is not read.
EDITOR_LIMITS = {"deals": (1, 100_000), "nodes": (1, 10_000_000)}


class UnknownSetup(LookupError):
    """The set-up asked for is not in the table (renamed or removed since)."""


def settings_of(given) -> dict:
    """The editor's settings that are within ``EDITOR_LIMITS`` (ints only), as keyword
    arguments of ``measure.Settings``; anything else is dropped."""
    chosen = {}
    for name, (low, high) in EDITOR_LIMITS.items():
        value = given.get(name) if isinstance(given, dict) else None
        if type(value) is int and low <= value <= high:
            chosen[name] = value
    if "deals" in chosen:
        chosen["seeds"] = chosen.pop("deals")
    return chosen


def run_setup(table_literal: dict, setup: str, workers: int = 1, cache=None,
              **settings) -> dict:
    """The report's row of ``setup`` alone, its ranking entry (None without a 目標; its
    rank left out: a rank among one says nothing), the budgets and the report's settings.
    Errors: UnknownSetup for a set-up the table does not have."""
    from contract.codec import from_literal
    from contract.tables import JourneyTable

    table = from_literal(JourneyTable, table_literal, "journey")
    if setup not in table.setups:
        raise UnknownSetup(setup)
    chosen = measure.Settings(**{"pairs": False, "ladder": 0, **settings, "setups": (setup,)})
    report = measure.run(table_literal, chosen, workers=workers, cache=cache)
    (row,) = report["variants"]
    entry = next((e for e in report["ranking"] if e["id"] == setup), None)
    return {"row": row, "entry": None if entry is None else {**entry, "rank": None},
            "budgets": report["settings"]["budgets"], "settings": report["settings"]}


def _answer(table_literal: dict, setup: str, given) -> dict:
    """``run_setup`` on all cores, with the results cache unless ``given`` says
    ``"cache": false``."""
    from .cache import DealCache

    kept = not (isinstance(given, dict) and given.get("cache") is False)
    cache = (DealCache.open if kept else DealCache)(table_literal)
    try:
        return run_setup(table_literal, setup, workers=os.cpu_count() or 1, cache=cache,
                         **settings_of(given))
    finally:
        cache.close()


def main() -> int:
    """Read (table literal, set-up id, settings) pickled on stdin; write the answer as JSON
    (sim.oneshot)."""
    return serve(_answer, {UnknownSetup: lambda exc: f"旅の準備 {exc.args[0]} が表にありません"})

if __name__ == "__main__":
    sys.exit(main())
