"""見えるもの — what a player of a battle sees and may know, as plain data (lists, dicts,
str, int, float, None): ``view``, ``information`` and ``result`` of ``contract.game.Game``.

The view is the table: the numbers of the run, the hand page by page (its faces as
dealt, penned or blanked, its 銘, whether it can be played), the piles as counts, the
enemy with this turn's Intents, the 作用 placed on the board and the pending choice.
The information adds what the player knows of the piles: which pages (and faces) each
holds — the draw pile sorted, since its order is hidden; the discard and the exiles in
their order, which lies open. Two battles whose information is equal cannot be told
apart by a player.
"""

from __future__ import annotations

from .state import BattleFields, State

#: The piles shown as counts in the view (the hand is shown page by page).
PILES = ("draw", "discard", "exile_stage", "exile_run")


def view(battle: BattleFields) -> dict:
    """What the player sees now (see the module docstring)."""
    s: State = battle.state
    playable = set(battle.playable_uids()) if battle.pending is None and \
        s.outcome is None else set()
    hand = [{"uid": uid, **battle.instance(uid), "year": battle.year(uid),
             "playable": uid in playable} for uid in s.zones["hand"]]
    enemy = s.enemy
    pending = battle.pending
    return {
        "stage": s.stage_index + 1, "turn": s.turn, "age": s.age, "hp": s.hp,
        "steps": s.steps, "currency": s.currency, "defense": [list(d) for d in s.defense],
        "fray": s.fray_run, "fray_stage": s.fray_stage,
        "pens_used": s.pens_used, "tears_used": s.tears_used,
        "hand": hand,
        "piles": {zone: len(s.zones[zone]) for zone in PILES},
        "enemy": None if not enemy else {
            "id": enemy["id"], "hp": enemy["hp"], "seat": enemy["seat"],
            "intents": [dict(i) for i in enemy["turn_intents"]]},
        "board": [{"origin": placed.origin, "op": placed.effect.op,
                   "target": placed.effect.target.code, "line": placed.effect.line,
                   "timing": placed.effect.timing, "fires": placed.fires}
                  for placed in s.effects],
        "pending": None if pending is None else {
            "kind": pending.kind, "candidates": list(pending.candidates),
            "count": pending.count,
            # the region operation that asks: its operation and the line that writes it
            "source": None if pending.source is None else {
                "op": pending.source.op, "line": pending.source.line}},
        "result": result(battle),
    }


def information(battle: BattleFields) -> dict:
    """What the player may know now: the view, and the pages of every pile — the draw
    pile's sorted, its order being hidden. A pending choice from the draw pile lists its
    candidates in the pile's order, so they are sorted too."""
    s: State = battle.state
    known = view(battle)
    known["piles"] = {zone: [battle.instance(uid) for uid in s.zones[zone]] for zone in PILES}
    known["piles"]["draw"].sort(key=repr)
    if known["pending"] is not None:
        known["pending"]["candidates"].sort(key=repr)
    return known


def result(battle: BattleFields) -> dict | None:
    """None while the run goes on; else how it ended."""
    s: State = battle.state
    if s.outcome is None:
        return None
    return {"outcome": s.outcome, "stage": s.stage_index + 1, "turn": s.turn, "hp": s.hp}
