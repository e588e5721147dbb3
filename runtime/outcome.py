"""勝敗 — when a stage is over, who won it, and what follows: the next stage, the end of the run (spec 000 勝敗条件).

A part of ``Battle`` (runtime/battle.py): its methods share the battle's state and
events; the class exists so that this concept can be read on its own.
"""

from __future__ import annotations


class Outcome:
    """勝敗 — the methods of Battle for it."""

    def _stage_over(self) -> bool:
        s = self.state
        enemy = s.enemy
        return s.outcome is not None or enemy["hp"] <= 0 or s.hp <= 0 or \
            s.fray_stage >= self.foe.breakthrough

    def _stage_won_by(self) -> str | None:
        s = self.state
        if s.enemy["hp"] <= 0:
            return "hp"
        if s.fray_stage >= self.foe.breakthrough:
            return "breakthrough"
        return None

    def _settle(self):
        """Win or lose when the state says so (spec 000 勝敗条件). A win found at the same
        moment as a loss is a win: the win is checked first (DESIGN §6.1)."""
        s = self.state
        if s.outcome is not None or not self._stage_over():
            return None
        how = self._stage_won_by()
        if how is None:
            self._lose("hp")
            return None
        # A new stage can end at once (a turn-start effect), so settle until stable.
        self._stack.append((Outcome._settle, ()))
        return self._win_stage(how)

    def _win_stage(self, how: str):
        s = self.state
        self.emit(("stage_won", s.stage_index + 1, s.enemy["id"], how))
        self._stack.append((Outcome._stage_ended, ()))
        self._fire("stage_end")
        return None

    def _stage_ended(self):
        """What ステージ終了時 set off has resolved: the next stage, or the run is won."""
        s = self.state
        self._end_stage()
        if s.stage_index + 1 >= len(s.stages):
            self._stack.append((Outcome._run_won, ()))
            self._fire("run_end")
            return None
        s.stage_index += 1
        return self._start_stage()

    def _run_won(self):
        s = self.state
        s.outcome = "won"
        self.emit(("run_won", len(s.stages)))

    def _end_stage(self) -> None:
        """What resets between stages (spec 000 ステージ間で引き継がれるもの)."""
        s = self.state
        s.steps = s.steps_carried = 0
        # ターン and ステージ lifetimes end here; 被弾1回 vanishes only by taking a hit
        # (DESIGN §6.2), ラン at the end of the run.
        s.defense = [d for d in s.defense if d[1] in ("run", "on_hit")]
        for lifetime in ("play", "turn", "stage"):
            self._expire_mods(lifetime)
        for placed in list(s.effects):
            scope = placed["effect"].repeat.scope
            if scope in ("play", "turn", "stage") or placed["origin"].startswith("enemy:"):
                s.effects.remove(placed)
                self._index = None
        for page in s.pages:
            if page["lifetime"] == "stage" and page["zone"] not in ("gone", "torn"):
                s.move(page["uid"], "gone")
                self.emit(("page_removed", page["uid"], page["page"]))

    def _lose(self, why: str) -> None:
        s = self.state
        # ラン終了時 effects may not ask the player anything: the run is over. They are
        # run to the end with no choice (a region choice then picks nothing).
        self._drain("run_end")
        s.outcome = "lost"
        self.emit(("run_lost", why, s.hp))
