"""場 — the board of continuing 作用: placing them, firing them at their timings, counting their fires and taking them off.

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract import game
from contract.tables import Const, Sayou
from contract.vocabulary import ANCHORED

from . import outcome, zones
from .bounds import bounded
from .sayou import OPS, Frame, anchored_refs, base_value, window_key
from .state import BattleFields, Placed, State


_ONE_SHOT_TIMINGS = ("on_play", "on_tear", "on_reward")

#: How many firings of the board one step may set off from inside other firings before
#: the chain is stopped (contract.game says why 64; the interaction analysis reads it too).
CHAIN_BOUND = game.CHAIN_BOUND


def is_one_shot(effect: Sayou) -> bool:
    """Whether a 作用 lands once, now, rather than being placed on the board."""
    repeat = effect.repeat
    return (effect.timing in _ONE_SHOT_TIMINGS and repeat.scope == "play"
            and repeat.max == 1)


@dataclass(frozen=True, slots=True)
class EffectFacts:
    """What a 作用 of the tables settles about its place on the board, worked out once
    per tables object (``effect_facts``)."""

    #: Lands once, now, rather than being placed on the board.
    one_shot: bool
    #: Reads an anchored counter (a window to close).
    anchored: bool
    #: The timing it fires at on the board; None for a telegraphed trait, which acts in
    #: the enemy phase.
    fires_at: str | None
    #: The target it modifies (a modifier variable's ``modifier_of``) when it is a modifier
    #: in force (timing always), else None; and whether it adds (else it multiplies).
    modifies: str | None
    adds: bool
    #: The unit (play, turn) its 繰り返し ends with (この〜 or 以降 n 〜), else None.
    ends_with: str | None
    #: 基準値 when it is a constant (it reads nothing), else None.
    const: float | None


def effect_facts(tables, effect: Sayou) -> EffectFacts:
    """The EffectFacts of ``effect``, once per tables object (Tables.by_identity)."""
    entry = tables.memo.get("effect_facts", _NO_FACTS).get(id(effect))
    if entry is not None and entry[0] is effect:  # Tables.by_identity, without the call
        return entry[1]
    return tables.by_identity("effect_facts", effect, _effect_facts, tables, effect)


_NO_FACTS: dict = {}


def _effect_facts(tables, effect: Sayou) -> EffectFacts:
    info = tables.vocabulary.variables.get(effect.target.code)
    modifies = info.modifier_of if info is not None and effect.timing == "always" else None
    repeat = effect.repeat
    unit = repeat.unit if repeat.scope == ANCHORED else repeat.scope
    return EffectFacts(
        is_one_shot(effect), bool(anchored_refs(effect)),
        None if effect.telegraphed else effect.timing, modifies,
        modifies is not None and info.modifier_kind == "add",
        unit if unit in ("play", "turn") else None,
        effect.base.value if type(effect.base) is Const else None)


@dataclass(slots=True)
class BoardIndex:
    """What the board holds, by what asks for it: made again after each change of the
    board (``battle._index = None``), read at every timing and every modified value —
    most of which find nothing on the board for them."""

    #: The timings some effect fires at: ``_fire`` asks. A telegraphed trait (the
    #: seat move shown at 予兆) acts in the enemy phase, never at its timing: it alone on
    #: the board for its timing fires nothing.
    timings: set
    #: Modified target (a modifier variable's ``modifier_of``: enemy_hp, steps_payment …)
    #: → its modifiers in force (timing always), in board order, each as (placed, whether
    #: it adds — else it multiplies, its value when it reads nothing — a constant not
    #: grown by a tear's scale — else None): ``sayou.modifiers`` asks.
    modifiers: dict
    #: Unit (play, turn) → the effects whose 繰り返し ends with that unit (この〜 or 以降 n
    #: 〜), in board order: the end of each play and turn asks.
    ending: dict
    #: The effects whose value reads an anchored counter (a window to close).
    windows: list
    #: The telegraphed traits (shown at 予兆, done in the enemy phase), in board order,
    #: each as (placed, its value when it reads nothing — as ``modifiers`` — else None).
    telegraphed: list


def board_index(tables, effects: list[Placed]) -> BoardIndex:
    """The BoardIndex of the placed effects ``effects`` (from each one's EffectFacts)."""
    timings = set()
    modifiers: dict[str, list] = {}
    ending: dict[str, list] = {}
    windows = []
    telegraphed = []
    for placed in effects:
        facts = effect_facts(tables, placed.effect)
        # A constant value is read as it is unless a tear's scale grows it (frame_of).
        const = facts.const if placed.scale == 1.0 else None
        if placed.effect.telegraphed:
            telegraphed.append((placed, const))
        if facts.fires_at is not None:
            timings.add(facts.fires_at)
        if facts.modifies is not None:
            modifiers.setdefault(facts.modifies, []).append((placed, facts.adds, const))
        if facts.ends_with is not None:
            ending.setdefault(facts.ends_with, []).append(placed)
        if facts.anchored:
            windows.append(placed)
    return BoardIndex(timings, modifiers, ending, windows, telegraphed)


def place(battle: BattleFields, effect: Sayou, *, origin: str, page_uid=None,
          scale: float | int = 1.0, frame: Frame | None = None) -> None:
    """A continuing 作用 onto the board, anchored now (the tables' own object)."""
    s: State = battle.state
    placed = Placed(effect, origin, page_uid, scale, 0, frame.distance if frame else 0,
                    {"plays": s.plays_run, "turns": s.turns_run,
                     "counters": dict(s.counters)})
    s.effects.append(placed)
    battle._index = None
    battle.emit(("effect_placed", effect.names.target, effect.timing, effect.names.repeat,
                 origin))


def modifier_values(battle: BattleFields, target: str) -> dict[str, float]:
    """Each modifier of ``target`` in force now, by its variable code (攻撃力補正,
    攻撃倍率, 烙印 for ``enemy_hp``): the sum of the adds, the product of the
    multiplies — what ``sayou.modifiers`` folds together, read without consuming
    a fire (for screens)."""
    variables = battle.tables.vocabulary.variables
    out: dict[str, float] = {}
    for placed in battle.state.effects:
        effect = placed.effect
        info = variables.get(effect.target.code)
        if info is None or info.modifier_of != target or effect.timing != "always":
            continue
        value = base_value(battle, effect, frame_of(battle, placed))
        code = effect.target.code
        if info.modifier_kind == "add":
            out[code] = bounded(out.get(code, 0.0) + (
                -value if effect.direction == "decrease" else value))
        else:
            out[code] = bounded(out.get(code, 1.0) * value)
    return out


def frame_of(battle: BattleFields, placed: Placed) -> Frame:
    """The frame a placed effect reads its values in: its page, the distance it was
    placed with, the run counters at its anchoring, its closed windows."""
    return Frame(placed.page_uid, placed.distance, False,
                 placed.placed["counters"], placed.scale, placed.windows)


def close_windows(battle: BattleFields, unit: str, done: int) -> None:
    """An anchored window (以降 n プレイ／ターン) stops counting once its n-th play or
    turn after placement has ended: keep the run counters of that moment."""
    key = "plays" if unit == "play" else "turns"
    for placed in (battle._index or board_index_now(battle)).windows:
        for ref in anchored_refs(placed.effect):
            name = window_key(ref)
            if ref.unit == unit and done - placed.placed[key] >= ref.n and (
                    placed.windows is None or name not in placed.windows):
                if placed.windows is None:
                    placed.windows = {}
                placed.windows[name] = dict(battle.state.counters)


def fired(battle: BattleFields, placed: Placed, times: int = 1) -> None:
    """Count ``times`` fires of a placed effect; it leaves the board at its maximum."""
    placed.fires += times
    limit = placed.effect.repeat.max
    if limit is not None and placed.fires >= limit:
        remove(battle, placed)


def remove(battle: BattleFields, placed: Placed) -> None:
    """Take a placed effect off the board (said once: ``effect_expired``)."""
    if placed in battle.state.effects:
        battle.state.effects.remove(placed)
        battle._index = None
        battle.emit(("effect_expired", placed.effect.names.target, placed.origin))


#: Timings that belong to the end of a stage or run: they fire although it is over.
_CLOSING_TIMINGS = ("on_enemy_hp_zero", "stage_end", "run_end")


#: 被弾時 belongs to the hit itself: it fires although that hit took the last HP, so
#: a counter that fells the enemy on the same hit wins (a win at the same moment as a
#: loss is a win, DESIGN §6.1). Once the enemy is down, nothing fires.
_WITH_THE_HIT = ("on_hit",)


def fire(battle: BattleFields, timing: str, frame: Frame | None = None, times: int = 1) -> bool:
    """Fire every continuing effect placed for ``timing``: push the firing (a 選択 on
    the way waits for the player) and say True — or push nothing and say False when
    no effect on the board waits for this timing, most moments of most turns.
    ``times``: the timing came that many times at once (綻び rewards crossed
    together); each effect fires as often, within its maximum."""
    index = battle._index
    if index is None:
        index = board_index_now(battle)
    if timing in index.timings:
        battle._stack.append((firing, (timing, frame, times, None, 0)))
        return True
    return False


def fire_step(battle: BattleFields, timing: str, frame: Frame | None = None, times: int = 1):
    """``_fire`` as a step: the board is asked when the step comes, not when pushed."""
    fire(battle, timing, frame, times)


def board_index_now(battle: BattleFields) -> BoardIndex:
    """The board's index now (made again once the board changed)."""
    index = battle._index
    if index is None:
        index = battle._index = board_index(battle.tables, battle.state.effects)
    return index


def firing(battle: BattleFields, timing: str, frame: Frame | None, times: int, placed_now, i: int):
    """The effects placed for ``timing`` from the ``i``-th of ``placed_now`` (the
    board when the firing began; None: it begins now), each applied in turn."""
    s: State = battle.state
    if placed_now is None:
        placed_now = list(s.effects)
    chain = battle._chain
    stack = battle._stack
    with_the_hit = timing in _WITH_THE_HIT
    closing = timing in _CLOSING_TIMINGS
    n = len(placed_now)
    while i < n:
        placed = placed_now[i]
        i += 1
        effect = placed.effect
        if effect.timing != timing or effect.telegraphed or placed not in s.effects:
            continue  # telegraphed traits act in the enemy phase
        if closing and placed.origin.startswith("enemy:") and \
                outcome.stage_won_by(battle) is not None:
            continue  # a beaten enemy's traits run no more (DESIGN §6.2)
        # Asked before each effect that would fire (an earlier one may have ended it).
        if with_the_hit:
            if s.outcome is not None or outcome.stage_won_by(battle) is not None:
                return
        elif not closing and outcome.stage_over(battle):
            return
        if timing == "on_play" and placed.placed["plays"] >= s.plays_run:
            continue  # placed by this very play: it fires from the next one
        own = frame_of(battle, placed)
        if frame is not None:
            own = Frame(own.page_uid, frame.distance, frame.crosses, own.anchor, own.scale,
                        own.windows)
        limit = effect.repeat.max
        own.times = times if limit is None else min(times, limit - placed.fires)
        if chain and not _link(battle, placed):
            return None  # the chain is stopped: this step sets off nothing more
        chain.append(placed)
        height = len(stack)
        request = _apply(battle, effect, own)
        if len(stack) > height:  # it set something off: the rest after that
            stack.insert(height, (firing, (timing, frame, times, placed_now, i)))
            stack.insert(height + 1, (_fired_one, (placed, own, timing)))
            return request
        _fired_one(battle, placed, own, timing)
    return None


def _fired_one(battle: BattleFields, placed: Placed, own: Frame, timing: str):
    """One effect of a firing has resolved: it leaves the chain, is said, is counted."""
    battle._chain.pop()
    effect = placed.effect
    battle.emit(("sayou", effect.op, effect.names.target, effect.line, timing))
    fired(battle, placed, own.times)


def _link(battle: BattleFields, placed: Placed) -> bool:
    """A firing set off while another one resolves — a link of a chain: counted
    against CHAIN_BOUND for this step. Past the bound it is not made: the first one
    refused says so (``chain_stopped``, naming the 作用 that fired as links of this
    step: the loop) and the rest are refused quietly, so the step ends."""
    battle._links_made = count = battle._links_made + 1
    if count <= CHAIN_BOUND:
        battle._links.setdefault(id(placed), placed)
        return True
    if count == CHAIN_BOUND + 1:
        battle.emit(("chain_stopped", CHAIN_BOUND,
                     tuple(chain_link(battle, p) for p in battle._links.values())))
    return False


def chain_link(battle: BattleFields, placed: Placed) -> tuple:
    """A placed 作用 as a link of a chain, in ids and numbers: the kind of its origin
    (page, tear, enemy, reward), the page or enemy id it belongs to (None for a
    reward), the line it is written on, its operation and its timing."""
    effect = placed.effect
    kind, _, owner = placed.origin.partition(":")
    uid = placed.page_uid
    if kind == "page" and uid is not None:
        owner = battle.state.pages[uid].page
    return (kind, owner or None, effect.line, effect.op, effect.timing)


def run_list(battle: BattleFields, effects, frame: Frame, uid, scale: float | int = 1.0,
             origin: str = "page", closing: bool = False, times: int = 1, i: int = 0):
    """Apply a face's 作用 list in written order; continuing ones are placed.
    The list stops when the stage is over, unless it belongs to that ending
    (``closing``: a 綻び reward earned by the very 綻び that won the stage, or the
    playing face, which runs to its end after 敵HP reached 0 — DESIGN §6.2).
    ``times``: the list is granted that many times at once (綻び rewards). ``i``: the
    list goes on from its ``i``-th 作用 (what the one before set off has resolved)."""
    tables = battle.tables
    stack = battle._stack
    # Frames are only read: a 作用 that needs no anchor reads the list's own frame
    # when scale and grants are the same (a page's face: no frame made per 作用).
    shared = frame if frame.reads_as(scale, times) else None
    n = len(effects)
    while i < n:
        effect = effects[i]
        i += 1
        if not closing and outcome.stage_over(battle):
            return None
        facts = effect_facts(tables, effect)
        if facts.one_shot:
            # Only an anchored reference reads the anchor: no copy of the run
            # counters for the others (most 作用).
            if facts.anchored:
                own = Frame(frame.page_uid, frame.distance, frame.crosses,
                            dict(battle.state.counters), scale, times=times)
            elif shared is not None:
                own = shared
            else:
                own = Frame(frame.page_uid, frame.distance, frame.crosses, None, scale,
                            times=times)
            height = len(stack)
            request = _apply(battle, effect, own)
            if len(stack) > height:  # it set something off: the rest after that
                stack.insert(height, (run_list, (
                    effects, frame, uid, scale, origin, closing, times, i)))
                stack.insert(height + 1, (_said, (effect,)))
                return request
            battle.emit(("sayou", effect.op, effect.names.target, effect.line))
        else:
            place(battle, effect, origin=origin, page_uid=uid, scale=scale, frame=frame)
    return None


def _said(battle: BattleFields, effect: Sayou):
    """A 作用 of a list has resolved, with what it set off: it is said."""
    battle.emit(("sayou", effect.op, effect.names.target, effect.line))


def _apply(battle: BattleFields, effect: Sayou, frame: Frame):
    """One 作用 now, and what it sets off: a region operation may ask the player
    (its Pending is returned); an 敵HP that reached 0 fires 敵のHPが0になった時. Any
    other 作用 lands at once, and nothing is pushed unless the board fires."""
    op = effect.op
    if op in zones.REGION_OPS:
        battle._stack.append((_after_landing, ()))
        return zones.REGION_STEPS[op](battle, effect, frame)
    if battle.state.enemy.get("hp", 1) <= 0 and effect.target.code == "enemy_hp":
        return None  # 敵HP stays 0: a 作用 on it does nothing (DESIGN §6.2)
    battle.crediting = frame.page_uid
    OPS[op](battle, effect, frame)
    battle.crediting = None
    if battle.state.enemy.get("down") == "now":
        _after_landing(battle)
    return None


def _after_landing(battle: BattleFields):
    """敵HP reached 0 by the 作用 just landed: 敵のHPが0になった時 fires."""
    if battle.state.enemy.get("down") == "now":
        battle.state.enemy["down"] = True
        fire(battle, "on_enemy_hp_zero")
