"""敵 — the enemy's side of a turn: its Intents and their escalation, the telegraphed seat move, its action (attacks, 白紙化), its traits.

A part of ``Battle`` (runtime/battle.py): its methods share the battle's state and
events; the class exists so that this concept can be read on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.codec import to_literal

from . import escalation, seat as seat_rule
from .bounds import clamp
from .sayou import REGION_ZONES, base_value, truncate


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


class EnemyTurn:
    """敵 — the methods of Battle for it."""

    def enemy_trait(self, code: str):
        """The value of this stage's enemy trait ``code`` (True for one without a value),
        or None when the enemy does not have it."""
        return self.foe.traits.get(code)

    def _phase_intents(self):
        """1. 予兆の提示: this turn's Intents (escalation first) and telegraphed traits.
        A telegraphed seat move is worked out here, once: the amount shown is the amount
        done in step 8 (DESIGN §6.1 seat movement)."""
        s = self.state
        foe = self.foe
        acceleration = foe.traits.get("acceleration") or 0
        escalating = foe.escalating
        for index in escalation.due(s.enemy["escalations"], s.turn, acceleration):
            s.enemy["intents"].append(escalating[index])
            self.emit(("escalated", escalating[index], len(s.enemy["intents"])))
        # An Intent is a literal no rule changes once made: the turn's list and the
        # stage's list share them (an enemy with hundreds of Intents after long
        # escalation copied them three times a turn).
        s.enemy["turn_intents"] = list(s.enemy["intents"])
        # A counted battle's records are dropped unread at the end of the action: the
        # turn's own list will do there.
        self.emit(("intents_shown", self._shown_intents() if self.record
                   else s.enemy["turn_intents"]))
        for placed, const in (self._index or self.board_index()).telegraphed:
            effect = placed["effect"]
            if effect.timing == "turn_start":
                plan = placed["telegraph"] = self._seat_plan(placed, const)
                self.emit(("trait_telegraphed", effect.names.target, plan["amount"],
                           plan["to"]))
        return self._fire("turn_start")

    # A record of Intents is a tuple of dicts, and the cycle collector never stops looking
    # at one: the turns of a long stage share the record 予兆 made until the stage's list
    # changes, rather than adding hundreds of Intents to the log each turn (issue 13).

    def _shown_intents(self) -> tuple:
        """The stage's Intents as 予兆 records them: a tuple made again only when the
        stage's list changed (escalation appends to it, a stage makes a new one)."""
        intents = self.state.enemy["intents"]
        shown = self._shown
        if shown is None or shown[0] is not intents or len(shown[1]) != len(intents):
            shown = self._shown = (intents, tuple(intents))
        return shown[1]

    def _acting_intents(self) -> tuple:
        """The turn's remaining Intents as the enemy's action records them: the end of
        what 予兆 showed (crossings remove Intents from the front of the turn's list), or
        the whole record when none was removed."""
        s = self.state
        remaining, intents = s.enemy["turn_intents"], s.enemy["intents"]
        removed = len(intents) - len(remaining)
        if removed >= 0 and remaining == intents[removed:]:
            return self._shown_intents()[removed:]
        return tuple(remaining)

    def _seat_plan(self, placed: dict, const: float | None) -> dict:
        """What a placed telegraphed seat move will do: ``amount`` is the signed move;
        ``to`` the position it aims at (an assignment telegraphs its target position).
        ``const``: its value when it reads nothing (BoardIndex.telegraphed)."""
        effect = placed["effect"]
        value = truncate(const if const is not None else
                         base_value(self, effect, self.frame_of(placed)))
        plan = seat_rule.planned(effect.op, effect.direction, value, self.state.enemy["seat"])
        return {"amount": clamp("telegraph.amount", plan["amount"]),
                "to": clamp("telegraph.to", plan["to"])}

    def _phase_enemy(self):
        """8. 敵の行動処理: remaining Intents in order, then the telegraphed seat moves.
        The moment the stage is decided (敵HP 0 by a 被弾時 counter, say) nothing more of
        the enemy runs (DESIGN §6.1)."""
        stack = self._stack
        height = len(stack)
        if self._fire("before_enemy"):
            # The stage can be over only if something fired (TURN_END_PHASES).
            stack.insert(height, (EnemyTurn._enemy_ready, ()))
        else:
            self._enemy_acts()
        return True

    def _enemy_ready(self):
        """What 敵の行動前 set off has resolved: the enemy acts, unless it is defeated
        (then the remaining Intents never happen)."""
        if self._stage_over():
            return None
        return self._enemy_acts()

    def _enemy_acts(self):
        s = self.state
        turn = s.enemy["turn_intents"]
        self.emit(("enemy_acts", self._acting_intents() if self.record else turn))  # as 予兆
        return self._intents_left()

    def _intents_left(self):
        """The turn's remaining Intents in order (the turn's list: only popped from here
        on); a hit that sets 被弾時 off goes on once that has resolved (``_hit_over``)."""
        s = self.state
        turn = s.enemy["turn_intents"]
        stack = self._stack
        while turn:
            intent = turn.pop(0)
            if intent["kind"] == "attack":
                height = len(stack)
                if self._attacked(intent["amount"]):
                    stack.insert(height, (EnemyTurn._hit_over, ()))
                    return None
                if s.hp > 0:
                    continue  # a hit that set nothing off changed only HP and defense
            else:
                self._blank_random(intent["region"])
            if self._stage_over():
                return None
        return self._telegraphed_moves()

    def _hit_over(self):
        """What a hit set off has resolved: the next Intent, unless the stage is over."""
        if self._stage_over():
            return None
        return self._intents_left()

    def _telegraphed_moves(self):
        """The Intents are done: the telegraphed seat moves, then 敵の行動後."""
        s = self.state
        for placed, _ in (self._index or self.board_index()).telegraphed:
            # Only a telegraphed trait's placement keeps a plan (_phase_intents).
            if "telegraph" in placed and placed in s.effects:
                effect = placed["effect"]
                self.move_seat(placed.pop("telegraph")["amount"])
                self.emit(("sayou", effect.op, effect.names.target, effect.line, "turn_start"))
                self.fired(placed)
        self._fire("after_enemy")
        return None

    def _attacked(self, amount: int) -> bool:
        """被弾: the hit lands now; what it sets off on the board (被弾時) is pushed —
        whether anything was (nothing, most hits)."""
        s = self.state
        # How much each lifetime of defense absorbed: data for a recorded battle only.
        absorbed_by = [] if self.record else None
        left = self.consume_defense(amount, True, absorbed_by)  # one Intent's hit
        # HP never goes below 0: what the hit would take beyond it is its surplus
        # (超過), recorded in its event (DESIGN §6.2 the player's HP).
        lost = left if left <= s.hp else max(0, s.hp)
        if lost > 0:
            s.hp = clamp("hp", s.hp - lost)
            s.count("turn", "hp_lost", lost)
        if absorbed_by is None:
            self.emit(("hit", amount, amount - left, left, s.hp, "intent"))
        elif left > lost:
            self.emit(("hit", amount, amount - left, left, s.hp, "intent",
                       tuple(absorbed_by), left - lost))
        else:
            # packed: a record of plain values costs the cycle collector nothing (events)
            self.emit(("hit", amount, amount - left, left, s.hp, "intent",
                       tuple(absorbed_by)))
        # 被弾: receiving an attack Intent, whether defense absorbs it or not (spec 000
        # 被弾処理の順序は 防御で吸収 → 残りをHPから減算; 防御 is 被弾時に消費).
        return self._fire("on_hit")

    def _blank_random(self, region: str) -> None:
        """白紙化: a random page of the region whose active face is written loses it."""
        s = self.state
        candidates = []
        for zone in REGION_ZONES[region]:
            for uid in s.zones[zone]:
                side = self.sides_for(uid)[0]  # 銘 = 刻: the past face
                if self.face_body(uid, side) is not None:
                    candidates.append((uid, side))
        if not candidates:
            self.emit(("blank_missed", region))
            return
        uid, side = candidates[self.streams.enemy.randrange(len(candidates))]
        face = s.pages[uid]["faces"][side]
        face["blanked"], face["state"] = face["state"], "blank"
        self.emit(("blanked", uid, s.pages[uid]["page"], side, region))

    def move_seat(self, delta: int) -> None:
        """座 moves by ``delta`` (never below 0) — unless the enemy is 不動."""
        s = self.state
        immobile = bool(self.foe.traits.get("immobile"))
        s.enemy["seat"] = clamp("enemy.seat", seat_rule.moved(s.enemy["seat"], delta, immobile))
        self.emit(("seat_moved", s.enemy["seat"], 0 if immobile else delta, immobile))

    def enemy_down(self) -> None:
        """敵HP reached 0: 敵のHPが0になった時 fires right after the 作用 that did it."""
        if not self.state.enemy.get("down"):
            self.state.enemy["down"] = "now"
