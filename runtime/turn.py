"""ターン — the stage and the turn as phases (spec 000 ターン構造), and what expires at their ends.

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from contract import vocabulary as vocab

from . import board, defense, enemy, escalation, outcome, playing, zones
from .bounds import clamp
from .state import BattleFields, State


def open_run(battle: BattleFields) -> None:
    """The run begins: ラン開始時 fires, then the first stage starts."""
    battle._stack.append((start_stage, ()))
    board.fire(battle, "run_start")


def start_stage(battle: BattleFields):
    """A stage begins against its enemy: its Intents, its traits placed, ステージ開始時."""
    s: State = battle.state
    foe = battle.tables.enemies[s.stages[s.stage_index]]
    # The state keeps Intents as their literals: plain data, saved as they are.
    s.enemy = {"id": foe.id, "hp": foe.hp, "seat": foe.seat,
               "intents": list(enemy.intent_literals(battle.tables, foe)[0]),
               "turn_intents": [],
               "escalations": escalation.stage_rules(foe)}
    battle.foe = enemy.enemy_facts(battle.tables, foe.id)
    s.turn = 0
    s.pens_used = s.tears_used = 0
    s.fray_stage = 0
    s.reset_scope("stage")
    for uid in list(s.zones["exile_stage"]):
        s.move(uid, "discard")
        battle.emit(("page_returned", uid))
    zones.reshuffle_if_empty(battle)  # returned pages into an empty draw pile's discard
    battle.emit(("stage_started", s.stage_index + 1, foe.id, foe.hp, foe.seat,
                 foe.breakthrough))
    clamp_to_params(battle)  # a 寿命上限 lowered in an earlier stage makes room for this 座
    for effect in foe.trait_effects:
        board.place(battle, effect, origin=f"enemy:{foe.id}")
    battle._stack.append((_stage_opened, ()))
    board.fire(battle, "stage_start")


def _stage_opened(battle: BattleFields):
    """What ステージ開始時 set off has resolved: the first turn, unless it ended the stage."""
    if not outcome.stage_over(battle):
        return _start_turn(battle)
    return None


def _start_turn(battle: BattleFields):
    s: State = battle.state
    s.turn += 1
    s.turns_run += 1
    s.reset_scope("turn")
    s.redraw_used = s.redraw_failed = False
    s.same_age_plays = 0
    battle.emit(("turn_started", s.turn, s.stage_index + 1))
    return _phases(battle, TURN_START_PHASES, 0, None)


def _phases(battle: BattleFields, phases: tuple, i: int, then):
    """The turn's phases from the ``i``-th, then the step ``then`` (None: nothing).
    A phase returns True when it may have ended the stage (it fired the board, or
    landed a hit or a clamp): the phases stop there once the stage is over, and
    settling decides what follows; one that returns False moved no HP, 綻び or
    outcome and fired nothing. A phase that pushed steps is asked about once they
    have resolved (``_phases_after``, beneath them)."""
    stack = battle._stack
    n = len(phases)
    while i < n:
        phase = phases[i][1]
        i += 1
        height = len(stack)
        if phase(battle):
            if len(stack) > height:
                stack.insert(height, (_phases_after, (phases, i, then)))
                return None
            if outcome.stage_over(battle):
                return None
    return None if then is None else then(battle)


def _phases_after(battle: BattleFields, phases: tuple, i: int, then):
    """A phase's steps have resolved: the next phases, unless the stage is over."""
    if outcome.stage_over(battle):
        return None
    return _phases(battle, phases, i, then)


def _phase_refill(battle: BattleFields):
    """2. 歩の回復: back to the quota, plus what 歩の持ち越し carried from last turn."""
    s: State = battle.state
    s.steps = clamp("steps", s.param("steps_quota") + s.steps_carried)
    if s.steps_carried:
        battle.emit(("steps_carried", s.steps_carried))
    s.steps_carried = 0
    battle.emit(("steps_refilled", s.steps))
    return board.fire(battle, "after_steps_refill")


def _phase_draw(battle: BattleFields):
    """3. ドロー: the draw count, none once the hand is at its cap."""
    s: State = battle.state
    limits = s.limits()
    for _ in range(limits["draw_count"]):
        if len(s.zones["hand"]) >= limits["hand_cap"]:
            battle.emit(("draw_skipped", "hand_cap"))
            break
        if not zones.draw_one(battle):
            break
    return board.fire(battle, "after_draw")


def _phase_redraw(battle: BattleFields):
    """4. 引き直しの判定: no playable page → discard the hand, draw the stage-start count."""
    s: State = battle.state
    if s.redraw_used or playing.playable_any(battle):
        return False
    s.redraw_used = True
    # Said before the draws it makes, so that they read as the redraw's.
    battle.emit(("redraw_started", len(s.zones["hand"])))
    for uid in list(s.zones["hand"]):
        s.move(uid, "discard")
    zones.reshuffle_if_empty(battle)
    drawn = 0
    for _ in range(battle.tables.balance.stage_start_hand):
        if len(s.zones["hand"]) >= s.param("hand_cap") or not zones.draw_one(battle):
            break
        drawn += 1
    battle.emit(("redrawn", drawn))
    if not playing.playable_any(battle):
        s.redraw_failed = True
        battle.emit(("no_playable_page",))
    return False


def end_turn(battle: BattleFields):
    """ターン終了の宣言 and what follows it (TURN_END_PHASES), then the next turn."""
    return _phases(battle, TURN_END_PHASES, 0, _start_turn)


def _phase_declare(battle: BattleFields):
    """6. ターン終了の宣言 — and defeat when the redraw left nothing playable."""
    s: State = battle.state
    battle.emit(("end_declared", s.age))
    stack = battle._stack
    height = len(stack)
    if board.fire(battle, "on_end_declared"):
        stack.insert(height, (_declared, ()))
        return True
    if s.redraw_failed:
        _declared(battle)
        return True
    return False  # nothing fired and no defeat is possible


def _declared(battle: BattleFields):
    """What ターン終了宣言時 set off has resolved: defeat when the failed redraw left
    nothing playable."""
    s: State = battle.state
    # No page could be played since the redraw; a face the pen made playable (the
    # page still in hand) saves the run here (DESIGN §6.2 failed redraw).
    if s.redraw_failed and not outcome.stage_over(battle) and not playing.playable(battle, 
            first=True, despite_failed_redraw=True):
        outcome.lose(battle, "no_playable_page")
    return None


def _phase_cleanup(battle: BattleFields):
    """9. 後始末: the hand stays; 歩 and turn-lifetime defense and values vanish —
    but up to 歩の持ち越し unspent 歩 carry into the next turn (spec 000: 歩 can be
    carried over by page effects)."""
    stack = battle._stack
    height = len(stack)
    if board.fire(battle, "turn_end"):
        stack.insert(height, (_cleanup_step, ()))
        return True
    return _cleanup(battle)


def _cleanup_step(battle: BattleFields):
    """The cleanup, once ターン終了時 has resolved (a step: it returns nothing)."""
    _cleanup(battle)


def _cleanup(battle: BattleFields) -> bool:
    """The cleanup itself, once 終了時 has fired: whether it may have ended the stage
    (a lowered parameter clamped HP)."""
    s: State = battle.state
    s.steps_carried = max(0, min(s.steps, s.param("steps_carry")))
    s.steps = 0
    if s.defense:
        kept = [d for d in s.defense if d[1] != "turn"]
        if len(kept) < len(s.defense):
            battle.emit(("defense_expired", sum(v for v, e in s.defense if e == "turn"),
                         "turn"))
        s.defense = kept
    clamped = s.mods and expire_mods(battle, "turn")
    index = battle._index or board.board_index_now(battle)
    if index.windows:
        board.close_windows(battle, "turn", s.turns_run)
    for placed in index.ending.get("turn", ()):
        repeat = placed.effect.repeat
        if repeat.scope == "turn" or (
                repeat.scope == vocab.ANCHORED and repeat.unit == "turn"
                and s.turns_run - placed.placed["turns"] >= repeat.n):
            board.remove(battle, placed)
    # A clamp to a lowered parameter can end the stage (HP at a max of 0): the turn
    # asks.
    return bool(clamped)


def expire_mods(battle: BattleFields, lifetime: str) -> bool:
    """Drop the lifetime-bound values of ``lifetime``; whether any was dropped (then
    the values they bounded are clamped to the parameters now)."""
    if not battle.state.mods:  # the usual case, at the end of every play and turn
        return False
    expired = battle.state.expire_mods(lifetime)
    if not expired:
        return False  # nothing lowered a parameter: nothing newly out of bounds
    for mod in expired:
        if mod["kind"] == "param":
            battle.emit(("param_changed", mod["key"], battle.state.param(mod["key"]), lifetime))
    clamp_to_params(battle)
    return True


# The phases of the other rooms, called by name when their phase comes: the enemy's and
# the defense's modules call back into this one, so the tables below hold only this
# module's functions (whatever module is loaded first).
def _phase_intents(battle: BattleFields) -> bool:
    """1. 予兆の提示 (enemy.py)."""
    return enemy.phase_intents(battle)


def _phase_defense(battle: BattleFields) -> bool:
    """7. 防御の獲得 (defense.py)."""
    return defense.phase_defense(battle)


def _phase_enemy(battle: BattleFields) -> bool:
    """8. 敵の行動処理 (enemy.py)."""
    return enemy.phase_enemy(battle)


def clamp_to_params(battle: BattleFields) -> None:
    """Values that a lowered parameter now bounds: HP at its max. 寿命上限 never drops
    below the current 刻 nor the enemy's 座 (``State.lifespan_floor``): when a raise of it
    ends under them, the decrease stops there — the difference stays for the run."""
    s: State = battle.state
    s.hp = min(s.hp, s.param("max_hp"))
    cap, floor = s.param("lifespan_cap"), s.lifespan_floor()
    if floor > cap:
        s.mods.append({"kind": "param", "key": "lifespan_cap", "op": "add",
                       "value": floor - cap, "lifetime": "run"})
        battle.emit(("param_changed", "lifespan_cap", floor, "run"))


#: The phases before the player acts (spec 000 ターン構造 1–4). A phase does its work
#: and pushes what the board fires (often nothing); it returns True whenever it may have
#: ended the stage (it pushed steps, or landed a loss, a hit, a cleanup's clamp) — the
#: turn asks whether the stage is over only then (``_phases``).
TURN_START_PHASES = (
    ("intents", _phase_intents),
    ("steps_refill", _phase_refill),
    ("draw", _phase_draw),
    ("redraw", _phase_redraw),
)
#: The phases after the end declaration (spec 000 ターン構造 6–9).
TURN_END_PHASES = (
    ("declare", _phase_declare),
    ("defense", _phase_defense),
    ("enemy", _phase_enemy),
    ("cleanup", _phase_cleanup),
)
