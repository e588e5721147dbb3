"""敵 — the enemy's side of a turn: its Intents and their escalation, the telegraphed seat move, its action (attacks, 白紙化), its traits.

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.codec import to_literal

from . import board, defense, escalation, outcome, seat as seat_rule
from .bounds import clamp
from .sayou import REGION_ZONES, base_value, truncate, year_of
from .sides import active_sides
from .state import BattleFields, Face, Placed, State


def intent_literals(tables, enemy) -> tuple[tuple, tuple]:
    """The literals of an enemy's Intents and of its escalations' Intents, made once per
    tables: a state keeps Intents as literals (plain data, saved as they are), and no
    rule ever changes one, so every battle against the enemy shares them."""
    return tables.fact("intent_literals", enemy.id, lambda: (
        tuple(to_literal(i) for i in enemy.intents),
        tuple(to_literal(e.intent) for e in enemy.escalations)))


def trait_values(tables, enemy_id: str) -> dict:
    """An enemy's traits by code → value (True for one without a value; the first of a
    code counts), once per tables: traits are frozen, and a battle asks for them at every
    turn, seat move and modified hit."""
    def values() -> dict:
        found: dict = {}
        for trait in tables.enemies[enemy_id].traits:
            found.setdefault(trait.trait, trait.value if trait.value is not None else True)
        return found
    return tables.fact("trait_values", enemy_id, values)


@dataclass(frozen=True, slots=True)
class EnemyFacts:
    """What a stage reads of its enemy at every turn, play and hit, worked out once per
    tables and enemy (``enemy_facts``; the enemies are frozen). The battle keeps the
    facts of the stage's enemy (``Battle.foe``), so that a rule asks an attribute rather
    than the tables' memo with a function made for the question."""

    id: str
    #: 突破ライン: the stage's 綻び that wins it.
    breakthrough: int
    #: The traits by code → value (``trait_values``).
    traits: dict
    #: 封鎖: the trait, or None.
    blockade: object
    #: The literal of each escalation's Intent, in written order (``intent_literals``).
    escalating: tuple


def enemy_facts(tables, enemy_id: str) -> EnemyFacts:
    """The EnemyFacts of ``enemy_id``, once per tables."""
    def facts() -> EnemyFacts:
        enemy = tables.enemies[enemy_id]
        return EnemyFacts(
            enemy_id, enemy.breakthrough, trait_values(tables, enemy_id),
            next((t for t in enemy.traits if t.trait == "blockade"), None),
            intent_literals(tables, enemy)[1])
    return tables.fact("enemy_facts", enemy_id, facts)


def enemy_trait(battle: BattleFields, code: str):
    """The value of this stage's enemy trait ``code`` (True for one without a value),
    or None when the enemy does not have it."""
    return battle.foe.traits.get(code)


def phase_intents(battle: BattleFields):
    """1. 予兆の提示: this turn's Intents (escalation first) and telegraphed traits.
    A telegraphed seat move is worked out here, once: the amount shown is the amount
    done in step 8 (DESIGN §6.1 seat movement)."""
    s: State = battle.state
    foe = battle.foe
    acceleration = foe.traits.get("acceleration") or 0
    escalating = foe.escalating
    for index in escalation.due(s.enemy["escalations"], s.turn, acceleration):
        s.enemy["intents"].append(escalating[index])
        battle.emit(("escalated", escalating[index], len(s.enemy["intents"])))
    # An Intent is a literal no rule changes once made: the turn's list and the
    # stage's list share them (an enemy with hundreds of Intents after long
    # escalation copied them three times a turn).
    s.enemy["turn_intents"] = list(s.enemy["intents"])
    # A counted battle's records are dropped unread at the end of the action: the
    # turn's own list will do there.
    battle.emit(("intents_shown", shown_intents(battle) if battle.record
                 else s.enemy["turn_intents"]))
    for placed, const in (battle._index or board.board_index_now(battle)).telegraphed:
        effect = placed.effect
        if effect.timing == "turn_start":
            plan = placed.telegraph = _seat_plan(battle, placed, const)
            battle.emit(("trait_telegraphed", effect.names.target, plan["amount"],
                         plan["to"]))
    return board.fire(battle, "turn_start")


def shown_intents(battle: BattleFields) -> tuple:
    """The stage's Intents as 予兆 records them: a tuple made again only when the
    stage's list changed (escalation appends to it, a stage makes a new one)."""
    intents = battle.state.enemy["intents"]
    shown = battle._shown
    if shown is None or shown[0] is not intents or len(shown[1]) != len(intents):
        shown = battle._shown = (intents, tuple(intents))
    return shown[1]


def _acting_intents(battle: BattleFields) -> tuple:
    """The turn's remaining Intents as the enemy's action records them: the end of
    what 予兆 showed (crossings remove Intents from the front of the turn's list), or
    the whole record when none was removed."""
    s: State = battle.state
    remaining, intents = s.enemy["turn_intents"], s.enemy["intents"]
    removed = len(intents) - len(remaining)
    if removed >= 0 and remaining == intents[removed:]:
        return shown_intents(battle)[removed:]
    return tuple(remaining)


def _seat_plan(battle: BattleFields, placed: Placed, const: float | int | None) -> dict:
    """What a placed telegraphed seat move will do: ``amount`` is the signed move;
    ``to`` the position it aims at (an assignment telegraphs its target position).
    ``const``: its value when it reads nothing (BoardIndex.telegraphed)."""
    effect = placed.effect
    value = truncate(const if const is not None else
                     base_value(battle, effect, board.frame_of(battle, placed)))
    s: State = battle.state
    plan = seat_rule.planned(effect.op, effect.direction, value, s.enemy["seat"],
                             s.param("lifespan_cap"), bool(battle.foe.traits.get("immobile")))
    return {"amount": clamp("telegraph.amount", plan["amount"]),
            "to": clamp("telegraph.to", plan["to"])}


def phase_enemy(battle: BattleFields):
    """8. 敵の行動処理: remaining Intents in order, then the telegraphed seat moves.
    The moment the stage is decided (敵HP 0 by a 被弾時 counter, say) nothing more of
    the enemy runs (DESIGN §6.1)."""
    stack = battle._stack
    height = len(stack)
    if board.fire(battle, "before_enemy"):
        # The stage can be over only if something fired (TURN_END_PHASES).
        stack.insert(height, (_enemy_ready, ()))
    else:
        _enemy_acts(battle)
    return True


def _enemy_ready(battle: BattleFields):
    """What 敵の行動前 set off has resolved: the enemy acts, unless it is defeated
    (then the remaining Intents never happen)."""
    if outcome.stage_over(battle):
        return None
    return _enemy_acts(battle)


def _enemy_acts(battle: BattleFields):
    s: State = battle.state
    turn = s.enemy["turn_intents"]
    battle.emit(("enemy_acts", _acting_intents(battle) if battle.record else turn))  # as 予兆
    return _intents_left(battle)


def _intents_left(battle: BattleFields):
    """The turn's remaining Intents in order (the turn's list: only popped from here
    on); a hit that sets 被弾時 off goes on once that has resolved (``_hit_over``)."""
    s: State = battle.state
    turn = s.enemy["turn_intents"]
    stack = battle._stack
    while turn:
        intent = turn.pop(0)
        if intent["kind"] == "attack":
            height = len(stack)
            if _attacked(battle, intent["amount"]):
                stack.insert(height, (_hit_over, ()))
                return None
            if s.hp > 0:
                continue  # a hit that set nothing off changed only HP and defense
        else:
            _blank_random(battle, intent["region"])
        if outcome.stage_over(battle):
            return None
    return _telegraphed_moves(battle)


def _hit_over(battle: BattleFields):
    """What a hit set off has resolved: the next Intent, unless the stage is over."""
    if outcome.stage_over(battle):
        return None
    return _intents_left(battle)


def _telegraphed_moves(battle: BattleFields):
    """The Intents are done: the telegraphed seat moves, then 敵の行動後."""
    s: State = battle.state
    for placed, _ in (battle._index or board.board_index_now(battle)).telegraphed:
        # Only a telegraphed trait's placement keeps a plan (_phase_intents).
        if placed.telegraph is not None and placed in s.effects:
            effect = placed.effect
            plan, placed.telegraph = placed.telegraph, None
            move_seat(battle, plan["amount"])
            battle.emit(("sayou", effect.op, effect.names.target, effect.line, "turn_start"))
            board.fired(battle, placed)
    board.fire(battle, "after_enemy")
    return None


def _attacked(battle: BattleFields, amount: int) -> bool:
    """被弾: the hit lands now; what it sets off on the board (被弾時) is pushed —
    whether anything was (nothing, most hits)."""
    s: State = battle.state
    # How much each lifetime of defense absorbed: data for a recorded battle only.
    absorbed_by = [] if battle.record else None
    left = defense.consume_defense(battle, amount, True, absorbed_by)  # one Intent's hit
    # HP never goes below 0: what the hit would take beyond it is its surplus
    # (超過), recorded in its event (DESIGN §6.2 the player's HP).
    lost = left if left <= s.hp else max(0, s.hp)
    if lost > 0:
        s.hp = clamp("hp", s.hp - lost)
        s.count("turn", "hp_lost", lost)
    if absorbed_by is None:
        battle.emit(("hit", amount, amount - left, left, s.hp, "intent"))
    elif left > lost:
        battle.emit(("hit", amount, amount - left, left, s.hp, "intent",
                     tuple(absorbed_by), left - lost))
    else:
        # packed: a record of plain values costs the cycle collector nothing (events)
        battle.emit(("hit", amount, amount - left, left, s.hp, "intent",
                     tuple(absorbed_by)))
    # 被弾: receiving an attack Intent, whether defense absorbs it or not (spec 000
    # 被弾処理の順序は 防御で吸収 → 残りをHPから減算; 防御 is 被弾時に消費).
    return board.fire(battle, "on_hit")


def _blank_random(battle: BattleFields, region: str) -> None:
    """白紙化: a random page of the region whose active face is written loses it."""
    s: State = battle.state
    age = s.age
    face_body = battle.face_body
    candidates = []
    for zone in REGION_ZONES[region]:
        for uid in s.zones[zone]:
            # playing.sides_for, asked of every page of the region: 銘 = 刻 fires the past face.
            side = active_sides(year_of(battle, uid), age)[0]
            if face_body(uid, side) is not None:
                candidates.append((uid, side))
    if not candidates:
        battle.emit(("blank_missed", region))
        return
    uid, side = candidates[battle.streams.enemy.randrange(len(candidates))]
    face = s.pages[uid].faces[side]
    s.set_face(uid, side, Face("blank", face.state, face.penned))
    battle.emit(("blanked", uid, s.pages[uid].page, side, region))


def move_seat(battle: BattleFields, delta: int) -> None:
    """座 moves by ``delta`` (stopped at 0 and 寿命上限) — unless the enemy is 不動."""
    s: State = battle.state
    immobile = bool(battle.foe.traits.get("immobile"))
    s.enemy["seat"] = clamp("enemy.seat", seat_rule.moved(s.enemy["seat"], delta, immobile,
                                                          s.param("lifespan_cap")))
    battle.emit(("seat_moved", s.enemy["seat"], 0 if immobile else delta, immobile))


def enemy_down(battle: BattleFields) -> None:
    """敵HP reached 0: 敵のHPが0になった時 fires right after the 作用 that did it."""
    if not battle.state.enemy.get("down"):
        battle.state.enemy["down"] = "now"
