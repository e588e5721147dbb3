"""エスカレーション — when an enemy's escalations add their Intents (spec 001, DESIGN §6).

Each escalation rule of a stage keeps the turn it next adds its Intent (``next``) and its
interval (``every``). At 予兆の提示 of the turn it is due, the rule adds its Intent, and
加速 n shortens its interval by n turns (never below 1). The battle (runtime/enemy.py)
plays this rule and the catalog draws it over turns (catalog/enemy_turns.py): one rule,
read by both. Standard library only, pure: the rules are plain dicts, saved as they are.
"""

from __future__ import annotations


def stage_rules(enemy) -> list[dict]:
    """The escalation progress a stage starts with: each rule first adds its Intent at
    turn 1 + its interval (an escalation of every 3 turns adds at turn 4)."""
    return [{"next": 1 + e.every, "every": e.every} for e in enemy.escalations]


def due(rules: list[dict], turn: int, acceleration: int) -> list[int]:
    """The indexes of the rules that add their Intent at ``turn``, in written order; each
    of them is moved on to its next turn, its interval shortened by ``acceleration`` — a
    new dict in its place: a rule is never written in place, so that copies of a battle
    share the rules' dicts (runtime/state.py ``_copy_enemy``)."""
    fired = []
    for index, rule in enumerate(rules):
        if turn == rule["next"]:
            every = max(1, rule["every"] - acceleration)
            rules[index] = {"next": turn + every, "every": every}
            fired.append(index)
    return fired
