"""ターン — the stage and the turn as phases (spec 000 ターン構造), and what expires at their ends.

A part of ``Battle`` (runtime/battle.py): its methods share the battle's state and
events; the class exists so that this concept can be read on its own.
"""

from __future__ import annotations

from contract import vocabulary as vocab

from . import escalation
from .bounds import clamp
from .defense import Defense
from .enemy import EnemyTurn, enemy_facts, intent_literals


class Turn:
    """ターン — the methods of Battle for it."""

    def _start_stage(self):
        s = self.state
        enemy = self.tables.enemies[s.stages[s.stage_index]]
        # The state keeps Intents as their literals: plain data, saved as they are.
        s.enemy = {"id": enemy.id, "hp": enemy.hp, "seat": enemy.seat,
                   "intents": list(intent_literals(self.tables, enemy)[0]),
                   "turn_intents": [],
                   "escalations": escalation.stage_rules(enemy)}
        self.foe = enemy_facts(self.tables, enemy.id)
        s.turn = 0
        s.pens_used = s.tears_used = 0
        s.fray_stage = 0
        s.reset_scope("stage")
        for uid in list(s.zones["exile_stage"]):
            s.move(uid, "discard")
            self.emit(("page_returned", uid))
        self._reshuffle_if_empty()  # returned pages into an empty draw pile's discard
        self.emit(("stage_started", s.stage_index + 1, enemy.id, enemy.hp, enemy.seat,
                   enemy.breakthrough))
        for effect in enemy.trait_effects:
            self.place(effect, origin=f"enemy:{enemy.id}")
        self._stack.append((Turn._stage_opened, ()))
        self._fire("stage_start")

    def _stage_opened(self):
        """What ステージ開始時 set off has resolved: the first turn, unless it ended the stage."""
        if not self._stage_over():
            return self._start_turn()
        return None

    def _start_turn(self):
        s = self.state
        s.turn += 1
        s.turns_run += 1
        s.reset_scope("turn")
        s.redraw_used = s.redraw_failed = False
        s.same_age_plays = 0
        self.emit(("turn_started", s.turn, s.stage_index + 1))
        return self._phases(TURN_START_PHASES, 0, None)

    def _phases(self, phases: tuple, i: int, then):
        """The turn's phases from the ``i``-th, then the step ``then`` (None: nothing).
        A phase returns True when it may have ended the stage (it fired the board, or
        landed a hit or a clamp): the phases stop there once the stage is over, and
        settling decides what follows; one that returns False moved no HP, 綻び or
        outcome and fired nothing. A phase that pushed steps is asked about once they
        have resolved (``_phases_after``, beneath them)."""
        stack = self._stack
        n = len(phases)
        while i < n:
            phase = phases[i][1]
            i += 1
            height = len(stack)
            if phase(self):
                if len(stack) > height:
                    stack.insert(height, (Turn._phases_after, (phases, i, then)))
                    return None
                if self._stage_over():
                    return None
        return None if then is None else then(self)

    def _phases_after(self, phases: tuple, i: int, then):
        """A phase's steps have resolved: the next phases, unless the stage is over."""
        if self._stage_over():
            return None
        return self._phases(phases, i, then)

    def _phase_refill(self):
        """2. 歩の回復: back to the quota, plus what 歩の持ち越し carried from last turn."""
        s = self.state
        s.steps = clamp("steps", s.param("steps_quota") + s.steps_carried)
        if s.steps_carried:
            self.emit(("steps_carried", s.steps_carried))
        s.steps_carried = 0
        self.emit(("steps_refilled", s.steps))
        return self._fire("after_steps_refill")

    def _phase_draw(self):
        """3. ドロー: the draw count, none once the hand is at its cap."""
        s = self.state
        limits = s.limits()
        for _ in range(limits["draw_count"]):
            if len(s.zones["hand"]) >= limits["hand_cap"]:
                self.emit(("draw_skipped", "hand_cap"))
                break
            if not self._draw_one():
                break
        return self._fire("after_draw")

    def _phase_redraw(self):
        """4. 引き直しの判定: no playable page → discard the hand, draw the stage-start count."""
        s = self.state
        if s.redraw_used or self.playable_any():
            return False
        s.redraw_used = True
        # Said before the draws it makes, so that they read as the redraw's.
        self.emit(("redraw_started", len(s.zones["hand"])))
        for uid in list(s.zones["hand"]):
            s.move(uid, "discard")
        self._reshuffle_if_empty()
        drawn = 0
        for _ in range(self.tables.balance.stage_start_hand):
            if len(s.zones["hand"]) >= s.param("hand_cap") or not self._draw_one():
                break
            drawn += 1
        self.emit(("redrawn", drawn))
        if not self.playable_any():
            s.redraw_failed = True
            self.emit(("no_playable_page",))
        return False

    def _end_turn(self):
        """ターン終了の宣言 and what follows it (TURN_END_PHASES), then the next turn."""
        return self._phases(TURN_END_PHASES, 0, Turn._start_turn)

    def _phase_declare(self):
        """6. ターン終了の宣言 — and defeat when the redraw left nothing playable."""
        s = self.state
        self.emit(("end_declared", s.age))
        stack = self._stack
        height = len(stack)
        if self._fire("on_end_declared"):
            stack.insert(height, (Turn._declared, ()))
            return True
        if s.redraw_failed:
            self._declared()
            return True
        return False  # nothing fired and no defeat is possible

    def _declared(self):
        """What ターン終了宣言時 set off has resolved: defeat when the failed redraw left
        nothing playable."""
        s = self.state
        # No page could be played since the redraw; a face the pen made playable (the
        # page still in hand) saves the run here (DESIGN §6.2 failed redraw).
        if s.redraw_failed and not self._stage_over() and not self._playable(
                first=True, despite_failed_redraw=True):
            self._lose("no_playable_page")
        return None

    def _phase_cleanup(self):
        """9. 後始末: the hand stays; 歩 and turn-lifetime defense and values vanish —
        but up to 歩の持ち越し unspent 歩 carry into the next turn (spec 000: 歩 can be
        carried over by page effects)."""
        stack = self._stack
        height = len(stack)
        if self._fire("turn_end"):
            stack.insert(height, (Turn._cleanup_step, ()))
            return True
        return self._cleanup()

    def _cleanup_step(self):
        """The cleanup, once ターン終了時 has resolved (a step: it returns nothing)."""
        self._cleanup()

    def _cleanup(self) -> bool:
        """The cleanup itself, once 終了時 has fired: whether it may have ended the stage
        (a lowered parameter clamped HP)."""
        s = self.state
        s.steps_carried = max(0, min(s.steps, s.param("steps_carry")))
        s.steps = 0
        if s.defense:
            kept = [d for d in s.defense if d[1] != "turn"]
            if len(kept) < len(s.defense):
                self.emit(("defense_expired", sum(v for v, e in s.defense if e == "turn"),
                           "turn"))
            s.defense = kept
        clamped = s.mods and self._expire_mods("turn")
        index = self._index or self.board_index()
        if index.windows:
            self._close_windows("turn", s.turns_run)
        for placed in index.ending.get("turn", ()):
            repeat = placed["effect"].repeat
            if repeat.scope == "turn" or (
                    repeat.scope == vocab.ANCHORED and repeat.unit == "turn"
                    and s.turns_run - placed["placed"]["turns"] >= repeat.n):
                self._remove(placed)
        # A clamp to a lowered parameter can end the stage (HP at a max of 0): the turn
        # asks.
        return bool(clamped)

    def _expire_mods(self, lifetime: str) -> bool:
        """Drop the lifetime-bound values of ``lifetime``; whether any was dropped (then
        the values they bounded are clamped to the parameters now)."""
        if not self.state.mods:  # the usual case, at the end of every play and turn
            return False
        expired = self.state.expire_mods(lifetime)
        if not expired:
            return False  # nothing lowered a parameter: nothing newly out of bounds
        for mod in expired:
            if mod["kind"] == "param":
                self.emit(("param_changed", mod["key"], self.state.param(mod["key"]), lifetime))
        self.clamp_to_params()
        return True

    def clamp_to_params(self) -> None:
        """Values that a lowered parameter now bounds: HP at its max. 寿命上限 never drops
        below the current 刻 (DESIGN §6.2): when a raise of it ends under 刻, the decrease
        stops at 刻 — the difference stays for the run."""
        s = self.state
        s.hp = min(s.hp, s.param("max_hp"))
        cap = s.param("lifespan_cap")
        if s.age > cap:
            s.mods.append({"kind": "param", "key": "lifespan_cap", "op": "add",
                           "value": s.age - cap, "lifetime": "run"})
            self.emit(("param_changed", "lifespan_cap", s.age, "run"))


#: The phases before the player acts (spec 000 ターン構造 1–4). A phase does its work
#: and pushes what the board fires (often nothing); it returns True whenever it may have
#: ended the stage (it pushed steps, or landed a loss, a hit, a cleanup's clamp) — the
#: turn asks whether the stage is over only then (``Turn._phases``).
TURN_START_PHASES = (
    ("intents", EnemyTurn._phase_intents),
    ("steps_refill", Turn._phase_refill),
    ("draw", Turn._phase_draw),
    ("redraw", Turn._phase_redraw),
)
#: The phases after the end declaration (spec 000 ターン構造 6–9).
TURN_END_PHASES = (
    ("declare", Turn._phase_declare),
    ("defense", Defense._phase_defense),
    ("enemy", EnemyTurn._phase_enemy),
    ("cleanup", Turn._phase_cleanup),
)
