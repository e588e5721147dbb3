"""勝敗 — when a stage is over, who won it, and what follows: the next stage, the end of the run (spec 000 勝敗条件).

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from . import board, resolution, turn
from .state import BattleFields, State


def stage_over(battle: BattleFields) -> bool:
    """Whether the stage is decided: the run over, 敵HP 0, HP 0 or 突破ライン reached."""
    s: State = battle.state
    enemy = s.enemy
    return s.outcome is not None or enemy["hp"] <= 0 or s.hp <= 0 or \
        s.fray_stage >= battle.foe.breakthrough


def stage_won_by(battle: BattleFields) -> str | None:
    """How the stage is won now — ``"hp"`` (敵HP 0) or ``"breakthrough"`` (綻び at
    突破ライン) — or None."""
    s: State = battle.state
    if s.enemy["hp"] <= 0:
        return "hp"
    if s.fray_stage >= battle.foe.breakthrough:
        return "breakthrough"
    return None


def settle(battle: BattleFields):
    """Win or lose when the state says so (spec 000 勝敗条件). A win found at the same
    moment as a loss is a win: the win is checked first (DESIGN §6.1)."""
    s: State = battle.state
    if s.outcome is not None or not stage_over(battle):
        return None
    how = stage_won_by(battle)
    if how is None:
        lose(battle, "hp")
        return None
    # A new stage can end at once (a turn-start effect), so settle until stable.
    battle._stack.append((settle, ()))
    return _win_stage(battle, how)


def _win_stage(battle: BattleFields, how: str):
    s: State = battle.state
    battle.stages_won.append(how)
    battle.emit(("stage_won", s.stage_index + 1, s.enemy["id"], how))
    battle._stack.append((_stage_ended, ()))
    board.fire(battle, "stage_end")
    return None


def _stage_ended(battle: BattleFields):
    """What ステージ終了時 set off has resolved: the next stage, or the run is won."""
    s: State = battle.state
    _end_stage(battle)
    if s.stage_index + 1 >= len(s.stages):
        battle._stack.append((_run_won, ()))
        board.fire(battle, "run_end")
        return None
    s.stage_index += 1
    return turn.start_stage(battle)


def _run_won(battle: BattleFields):
    s: State = battle.state
    s.outcome = "won"
    battle.emit(("run_won", len(s.stages)))


def _end_stage(battle: BattleFields) -> None:
    """What resets between stages (spec 000 ステージ間で引き継がれるもの)."""
    s: State = battle.state
    s.steps = s.steps_carried = 0
    # ターン and ステージ lifetimes end here; 被弾1回 vanishes only by taking a hit
    # (DESIGN §6.2), ラン at the end of the run.
    s.defense = [d for d in s.defense if d[1] in ("run", "on_hit")]
    for lifetime in ("play", "turn", "stage"):
        turn.expire_mods(battle, lifetime)
    for placed in list(s.effects):
        scope = placed.effect.repeat.scope
        if scope in ("play", "turn", "stage") or placed.origin.startswith("enemy:"):
            s.effects.remove(placed)
            battle._index = None
    for page in s.pages:
        if page.lifetime == "stage" and page.zone not in ("gone", "torn"):
            s.move(page.uid, "gone")
            battle.emit(("page_removed", page.uid, page.page))


def lose(battle: BattleFields, why: str) -> None:
    """The run is lost (``why``: hp, no_playable_page): ラン終了時 fires, answered with
    nothing."""
    s: State = battle.state
    # ラン終了時 effects may not ask the player anything: the run is over. They are
    # run to the end with no choice (a region choice then picks nothing).
    resolution.drain(battle, "run_end")
    s.outcome = "lost"
    battle.emit(("run_lost", why, s.hp))
