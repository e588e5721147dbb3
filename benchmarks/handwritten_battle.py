"""The hand-written floor: one matchup of the bundled content coded directly in Python.

This is the battle ``runtime.battle.Battle.new(tables, seed=seed, enemies=["haguruma"])``
plays — the starter deck はじめの自分紀 (content/starter.deck) against 歯車塔の番人
(content/enemies/日々.enemy), one stage — written the way a programmer would hard-code
this one matchup: no tables, no 作用 interpreted, no generators, no event objects. Each
page of the deck is a branch of ``_fire_face``; the enemy is a few integers. It is the
floor ``benchmarks/bench_battle.py`` measures the interpreter against, and
tests/test_handwritten_floor.py checks that, driven by the same random policy
(``play_random``), it reaches the interpreter's outcome, turn count, HP and enemy HP.

What it hard-codes (from content/ and the rules as runtime/ implements them):

* the balance (content/balance.balance): 刻 starts at 20, HP 200 (max 200), 歩 40 a turn,
  2 draws a turn up to a hand of 8, 5 at the start, defense = 1.0 × |刻 − 座| at the end
  of the turn, one 銘 = 刻 play a turn, one pen and one tear a stage, a pen gives 綻び 10,
  damage × (1 + 0.01 × 綻び), tear effects × (1 + 0.05 × distance), a 綻び reward every
  50 (歩の規定量 += 5 for the run); 寿命上限 80 binds only the enemy's 座 (the highest 銘
  is 55);
* the enemy haguruma: HP 110, 座 42, 突破ライン 130, three 攻撃 16 Intents and one more
  every 3 turns (the first at turn 4), 座 += 4 telegraphed at the start of each turn and
  done after its attacks, stopped at the wall 寿命上限 80 (from turn 11); no 封鎖, no
  軽減, no 白紙化, no other trait;
* the ten pages (uids 0–9 in deck order, shuffled by the run's shuffle stream), each face, pen and
  tear effect as compiled in generated/pages.py — see the table below and ``_fire_face``;
* the turn of spec 000 as runtime/ runs it: intents (escalation first), refill, draw,
  redraw (once, when nothing is playable: the hand is discarded and 5 drawn; if still
  nothing is playable, no page is played that turn and the run is lost at the end
  declaration unless a pen made a face playable), the player phase, the end declaration,
  defense from distance, the attacks (on-hit defense first, one entry per Intent, then
  turn, stage, run defense), the seat move, the cleanup;
* 跨ぐ: the old and new 刻 strictly on opposite sides of 座; it removes the first Intent
  of the turn and counts for 初恋's condition (跨いだ回数[ターン] >= 1);
* modifiers as the interpreter sums them: 攻撃力補正 in the order placed (floats),
  × 攻撃倍率, × the 綻び factor, truncated toward zero when the damage lands.

The run's shuffles are the interpreter's (runtime/streams.py: each shuffle orders the
pile by a splitmix64 key of the seed, the shuffle's number and each uid, written out here
as the interpreter computes it): this
matchup draws on it only to shuffle the deck at the start and the discard pile whenever
the draw pile is empty and the discard is not — after a draw and after a play (入学式's
past face takes the *top* page: no random pick; the enemy has no 白紙化). The legal actions are offered in ``Battle.actions()``'s order,
so the same policy makes the same choices. No page of this deck asks the player to
choose, so ``pending`` is always None.

Two modes: ``HandwrittenBattle(seed, log=True)`` appends a small tuple per thing that
happened (about one per event the interpreter emits; the defense is kept as one total per
lifetime, so a hit that drains two entries of the same lifetime is one record here);
``log=False`` keeps the state and a few counters only.
"""

from __future__ import annotations

import math
import random

from contract.game import EndTurn, Pen, Play, Tear
from sim.policies import play_out, random_policy

# ------------------------------------------------------------------ the balance
START_AGE = 20
START_HP = 200
MAX_HP = 200
STEPS_QUOTA = 40
DRAW_COUNT = 2
HAND_CAP = 8
START_HAND = 5
SAME_AGE_CAP = 1
PEN_CAP = 1
TEAR_CAP = 1
PEN_FRAY = 10
FRAY_ATTACK = 0.01
TEAR_SCALE = 0.05
REWARD_INTERVAL = 50
REWARD_STEPS = 5  # 綻び報酬: 歩の規定量 += 5, for the run

# ------------------------------------------------------------------ the enemy
ENEMY_HP = 110
ENEMY_SEAT = 42
BREAKTHROUGH = 130
ATTACK = 16  # every Intent of haguruma is 攻撃 16
START_INTENTS = 3
ESCALATE_EVERY = 3  # エスカレーション 3 ターンごと 攻撃 16 (no 加速)
SEAT_STEP = 4  # 座 += 4 毎 ターン開始時 予告
LIFESPAN_CAP = 80  # the wall a 座 move stops at

# ------------------------------------------------------------------ the deck
# uid: page        銘  綻び倍率  未来面                     過去面                       ペン / 破却
# 0 hatsu_koe       0   2.0  blank (pen: 歩 += 8)       防御 += 10 (stage)            破却: 防御 += 3 each turn start (turn)
# 1 sakamichi       8   2.0  blank (pen: 歩 += 6)       攻撃力補正 += 4, next 2 plays  pen past: += 6
# 2 himitsu_kichi  12   1.0  blank (pen: if not crossing: 防御 10 on hit)
#                                                       if not crossing: 2 × 防御 12 (on hit); exiled for the stage
# 3,4 nyuugaku     22   1.0  敵HP -= distance × 0.7     top of the draw pile → hand   破却: (a stage-start effect; one stage: never fires)
# 5 tabidachi      36   1.0  敵HP -= distance × 0.8     blank (pen: 歩 += 5)          pen future: × 1.2; 破却: 攻撃力補正 += 2 (run)
# 6 hatsukoi       17   1.5  if crossed this turn: 敵HP -= 8, 敵HP -= 8    blank (pen: 敵HP -= 6, 敵HP -= 6)
# 7 shigoto        44   1.0  敵HP -= 10, then 攻撃力補正 += 3, next 2 plays
#                                                       blank (pen: 攻撃力補正 += 3, next 2 plays; 歩 += 4)
# 8 kekkon         55   0.8  敵HP -= distance × 0.8     blank (pen: 防御 15 on hit)   破却: 攻撃倍率 *= 1.2 (run)
# 9 tenshoku       48   1.2  blank (pen: 敵HP -= 20)    blank (pen: 敵HP -= distance × 0.5)
DECK = ("hatsu_koe", "sakamichi", "himitsu_kichi", "nyuugaku", "nyuugaku", "tabidachi",
        "hatsukoi", "shigoto", "kekkon", "tenshoku")
(HATSU_KOE, SAKAMICHI, HIMITSU_KICHI, NYUUGAKU_1, NYUUGAKU_2, TABIDACHI, HATSUKOI, SHIGOTO,
 KEKKON, TENSHOKU) = range(10)
YEAR = (0, 8, 12, 22, 22, 36, 17, 44, 55, 48)
FRAY_MUL = (2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.0, 0.8, 1.2)
#: Faces written as dealt.
FUTURE_WRITTEN = frozenset((NYUUGAKU_1, NYUUGAKU_2, TABIDACHI, HATSUKOI, SHIGOTO, KEKKON))
PAST_WRITTEN = frozenset((HATSU_KOE, SAKAMICHI, HIMITSU_KICHI, NYUUGAKU_1, NYUUGAKU_2))
#: The faces a pen can write, in the interpreter's order of sides (future, then past).
PEN_SIDES = {HATSU_KOE: ("future",), SAKAMICHI: ("future", "past"), HIMITSU_KICHI: ("future",),
             TABIDACHI: ("future", "past"), HATSUKOI: ("past",), SHIGOTO: ("past",),
             KEKKON: ("past",), TENSHOKU: ("future", "past")}

DEFAULT_MAX_ACTIONS = 400


def play_random(battle, seed: int, max_actions: int = DEFAULT_MAX_ACTIONS) -> int:
    """Drive a battle (the interpreter's ``Battle`` or a ``HandwrittenBattle``) with the
    seeded random policy until it is over or ``max_actions`` actions were taken; returns
    the number of actions. At each step one legal action is picked uniformly; a pending
    choice is answered with a uniform sample of its candidates."""
    return play_out(battle, random_policy, random.Random(seed * 7919 + 1), max_actions)


MASK64 = (1 << 64) - 1


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


class HandwrittenBattle:
    """The starter deck against haguruma, one stage, from ``seed``; ``log``: keep a list
    of event tuples (``self.log``), or only the state and counters."""

    def __init__(self, seed: int = 0, log: bool = True):
        self.seed, self.shuffles = seed, 0
        self.log = [] if log else None
        self.outcome = None  # "won" | "lost" once over
        # the player
        self.age = START_AGE
        self.hp = START_HP
        self.steps = 0
        self.steps_quota = STEPS_QUOTA
        self.fray_run = self.fray_stage = 0
        self.rewards_given = 0
        # defense, one total per lifetime, consumed in this order: on_hit (a list: each
        # absorbs one Intent and vanishes), turn, stage, run
        self.on_hit = []
        self.turn_defense = self.stage_defense = self.run_defense = 0
        # continuing effects
        self.attack_adds = []  # [value, play it was placed in (None: for the run)]
        self.attack_mul = 1.0  # 銀婚式 torn
        self.turn_start_defense = None  # 産声 torn: the (scaled) 防御 += 3 each turn
        # pen and tear (one of each per stage; there is one stage)
        self.pen_face = None  # (uid, side) once a pen was used
        self.pens_used = self.tears_used = 0
        # the piles
        self.draw = list(range(len(DECK)))
        self.hand = []
        self.discard = []
        self.exiled = []
        self.torn = []
        # the turn
        self.turn = self.turns_run = self.plays_run = 0
        self.crossings_turn = 0
        self.same_age_plays = 0
        self.redraw_used = self.redraw_failed = False
        # the enemy
        self.enemy_hp = ENEMY_HP
        self.seat = ENEMY_SEAT
        self.intents = START_INTENTS
        self.turn_intents = 0
        self.next_escalation = 1 + ESCALATE_EVERY
        # counters
        self.damage_dealt = self.hp_lost = 0

        self._shuffle(self.draw)
        if self.log is not None:
            self.log.append(("run_started", seed))
        for _ in range(START_HAND):
            self._draw_one()
        if self.log is not None:
            self.log.append(("stage_started", ENEMY_HP, ENEMY_SEAT))
            self.log.append(("effect_placed", "seat", "enemy"))
        self._start_turn()

    # ------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        """Whether the run is won or lost."""
        return self.outcome is not None

    @property
    def pending(self):
        """No page of this matchup asks the player to choose."""
        return None

    def actions(self) -> list:
        """``Battle.actions()`` for this matchup, in its order: plays, pens, tears, the
        end of the turn — the same values (contract.game), made once each as the
        interpreter makes them."""
        hand = self.hand
        actions = [PLAYS[uid] for uid in hand if self._playable(uid)]
        if self.pens_used < PEN_CAP:
            for uid in hand:
                for side in PEN_SIDES.get(uid, ()):
                    actions.append(PENS[uid, side])
        if self.tears_used < TEAR_CAP:
            actions += [TEARS[uid] for uid in hand]
        actions.append(END_TURN)
        return actions

    def apply(self, action) -> None:
        """Carry out an action value (``APPLY``: its class → the method)."""
        APPLY[type(action)](self, action)

    def _written(self, uid: int, side: str) -> bool:
        if self.pen_face == (uid, side):
            return True
        return uid in (FUTURE_WRITTEN if side == "future" else PAST_WRITTEN)

    def _fires(self, uid: int, side: str, year: int) -> bool:
        """Whether the face would fire: written, and its condition holds."""
        if not self._written(uid, side):
            return False
        if uid == HIMITSU_KICHI:  # 条件 跨がない
            return (self.age - self.seat) * (year - self.seat) >= 0
        if uid == HATSUKOI and side == "future":  # 条件 跨いだ回数[ターン] >= 1
            return self.crossings_turn >= 1
        return True

    def _playable(self, uid: int, despite_failed_redraw: bool = False) -> bool:
        if self.redraw_failed and not despite_failed_redraw:
            return False  # no page may be played for the rest of that turn
        year, age = YEAR[uid], self.age
        if year == age:
            return self.same_age_plays < SAME_AGE_CAP and (
                self._fires(uid, "past", year) or self._fires(uid, "future", year))
        if abs(year - age) > self.steps:
            return False
        return self._fires(uid, "future" if year > age else "past", year)

    def _playable_any(self) -> bool:
        return any(self._playable(uid) for uid in self.hand)

    # ------------------------------------------------------------ actions
    def play(self, uid: int) -> None:
        """Play a hand page: its faces fire, 刻 moves to its 銘 (crossing 座 removes an
        Intent), it goes to the discard pile (秘密基地: exiled for the stage)."""
        if self.outcome is not None or uid not in self.hand or not self._playable(uid):
            raise ValueError(f"cannot play {uid}")
        log = self.log
        year, old = YEAR[uid], self.age
        distance = abs(year - old)
        crosses = (old - self.seat) * (year - self.seat) < 0
        if year == old:
            sides = [side for side in ("past", "future") if self._fires(uid, side, year)]
        else:
            sides = ["future" if year > old else "past"]
        self.plays_run += 1
        self.steps -= distance
        if year == old:
            self.same_age_plays += 1
        if log is not None:
            log.append(("played", uid, year, old, distance, crosses))
        for side in sides:
            if log is not None:
                log.append(("face_fired", uid, side))
            # The face runs to its end though the enemy falls (its hits then do nothing).
            self._fire_face(uid, side, distance)
        if crosses:
            self.crossings_turn += 1
        self.age = year
        if log is not None:
            log.append(("moved", old, year))
        if crosses:
            if log is not None:
                log.append(("crossed", self.seat))
            if self.turn_intents:
                self.turn_intents -= 1
                if log is not None:
                    log.append(("intent_removed", self.turn_intents))
        self.hand.remove(uid)
        if uid == HIMITSU_KICHI:
            self.exiled.append(uid)
            if log is not None:
                log.append(("page_exiled", uid))
        else:
            self.discard.append(uid)
            if log is not None:
                log.append(("page_discarded", uid))
            self._reshuffle_if_empty()  # the pile is renewed the moment it can be
        # 以降 2 プレイ: a modifier placed in play k lasts through play k + 2
        if self.attack_adds:
            kept = [a for a in self.attack_adds if a[1] is None or self.plays_run - a[1] < 2]
            if len(kept) != len(self.attack_adds):
                if log is not None:
                    log.append(("effect_expired", len(self.attack_adds) - len(kept)))
                self.attack_adds = kept
        self._settle()

    def _fire_face(self, uid: int, side: str, distance: int) -> None:
        """One face's 作用 in written order; each face stops once the enemy is down."""
        log = self.log
        penned = self.pen_face == (uid, side)
        if uid == HATSU_KOE:
            if side == "past":
                self.stage_defense += 10
                if log is not None:
                    log.append(("defense_gained", 10, "stage"))
            else:
                self._gain_steps(8)
        elif uid == SAKAMICHI:
            if side == "past":
                self._place_attack_add(6 if penned else 4)
            else:
                self._gain_steps(6)
        elif uid == HIMITSU_KICHI:
            for value in ((12, 12) if side == "past" else (10,)):
                self.on_hit.append(value)
                if log is not None:
                    log.append(("defense_gained", value, "on_hit"))
        elif uid == NYUUGAKU_1 or uid == NYUUGAKU_2:
            if side == "future":
                self._hit_enemy(distance * 0.7)
            else:
                self._top_page_to_hand()
        elif uid == TABIDACHI:
            if side == "future":
                self._hit_enemy(distance * (1.2 if penned else 0.8))
            else:
                self._gain_steps(5)
        elif uid == HATSUKOI:
            hit = 8 if side == "future" else 6
            self._hit_enemy(hit)
            if self.enemy_hp > 0:
                self._hit_enemy(hit)
        elif uid == SHIGOTO:
            if side == "future":
                self._hit_enemy(10)
                self._place_attack_add(3)  # the face runs on after a kill (DESIGN §6.2)
            else:
                self._place_attack_add(3)
                self._gain_steps(4)
        elif uid == KEKKON:
            if side == "future":
                self._hit_enemy(distance * 0.8)
            else:
                self.on_hit.append(15)
                if log is not None:
                    log.append(("defense_gained", 15, "on_hit"))
        else:  # TENSHOKU: both faces written by the pen only
            self._hit_enemy(20 if side == "future" else distance * 0.5)

    def _hit_enemy(self, base) -> None:
        """敵HP -= base, modified: (base + Σ攻撃力補正) × 攻撃倍率 × (1 + 0.01 × 綻び);
        nothing once the enemy is down."""
        if self.enemy_hp <= 0:
            return
        add = 0.0
        for value, _ in self.attack_adds:
            add += value
        value = (base + add) * self.attack_mul
        value *= 1 + FRAY_ATTACK * self.fray_run
        amount = math.trunc(max(0.0, value))
        dealt = min(amount, self.enemy_hp)
        self.enemy_hp -= dealt
        self.damage_dealt += dealt
        if self.log is not None:
            self.log.append(("damage", amount, dealt, self.enemy_hp))

    def _gain_steps(self, amount: int) -> None:
        self.steps = max(0, self.steps + amount)
        if self.log is not None:
            self.log.append(("steps_changed", amount, self.steps))

    def _place_attack_add(self, value) -> None:
        self.attack_adds.append([value, self.plays_run])
        if self.log is not None:
            self.log.append(("effect_placed", "attack_add", value))

    def _top_page_to_hand(self) -> None:
        """移動 1枚 山札 -> 手札 上から: an empty draw pile is renewed from the discard
        first (nothing when both are empty); a full hand sends the page to the discard
        pile; an emptied draw pile is then reshuffled."""
        self._reshuffle_if_empty()
        if self.draw:
            uid = self.draw.pop(0)
            if len(self.hand) >= HAND_CAP:
                self.discard.append(uid)
                if self.log is not None:
                    self.log.append(("hand_full", uid))
            else:
                self.hand.append(uid)
            if self.log is not None:
                self.log.append(("page_moved", uid))
        self._reshuffle_if_empty()

    def pen(self, uid: int, side: str) -> None:
        """ペン: write (or upgrade) one face of a hand page; 綻び += 10."""
        if self.outcome is not None or self.pens_used >= PEN_CAP or uid not in self.hand \
                or side not in PEN_SIDES.get(uid, ()):
            raise ValueError(f"cannot pen {uid} {side}")
        self.pens_used += 1
        self.pen_face = (uid, side)
        if self.log is not None:
            self.log.append(("pen", uid, side))
        self._gain_fray(PEN_FRAY)
        self._settle()

    def tear(self, uid: int) -> None:
        """破る: the page leaves for the run; 綻び += distance × 綻び倍率; its tear effect
        (scaled by 1 + 0.05 × distance) unless both its faces are blank."""
        if self.outcome is not None or self.tears_used >= TEAR_CAP or uid not in self.hand:
            raise ValueError(f"cannot tear {uid}")
        log = self.log
        distance = abs(YEAR[uid] - self.age)
        fray = math.trunc(distance * FRAY_MUL[uid])
        blank = not self._written(uid, "future") and not self._written(uid, "past")
        scale = 1 + TEAR_SCALE * distance
        self.tears_used += 1
        self.hand.remove(uid)
        self.torn.append(uid)
        if log is not None:
            log.append(("tear", uid, distance, fray, blank))
        if not blank:
            if uid == HATSU_KOE:
                self.turn_start_defense = 3 * scale
            elif uid == TABIDACHI:
                self.attack_adds.append([2 * scale, None])
            elif uid == KEKKON:
                self.attack_mul = 1 + (1.2 - 1) * scale
            if uid in (HATSU_KOE, TABIDACHI, KEKKON, NYUUGAKU_1, NYUUGAKU_2) and log is not None:
                log.append(("effect_placed", "tear", uid))  # 入学式's: a stage start that never comes
        self._gain_fray(fray)
        self._settle()

    def _gain_fray(self, amount: int) -> None:
        self.fray_run += amount
        self.fray_stage += amount
        if self.log is not None:
            self.log.append(("fray_gained", amount, self.fray_run))
        earned = self.fray_run // REWARD_INTERVAL - self.rewards_given
        if earned > 0:
            self.rewards_given += earned
            self.steps_quota += REWARD_STEPS * earned
            if self.log is not None:
                self.log.append(("reward", earned))
                self.log.append(("param_changed", "steps_quota", self.steps_quota))
                self.log.append(("sayou", "cap"))

    def end_turn(self) -> None:
        """The end of the turn: declaration, defense, the enemy's attacks and seat move,
        cleanup, then the next turn."""
        if self.outcome is not None:
            raise ValueError("the run is over")
        log = self.log
        # 6. declaration
        if log is not None:
            log.append(("end_declared", self.age))
        if self.redraw_failed and not any(self._playable(uid, True) for uid in self.hand):
            self._lose("no_playable_page")
            return
        # 7. defense from the distance to 座
        amount = abs(self.age - self.seat)
        self.turn_defense += amount
        if log is not None:
            log.append(("defense_from_distance", amount))
        # 8. the enemy: each remaining Intent attacks, then 座 moves as telegraphed
        if log is not None:
            log.append(("enemy_acts", self.turn_intents))
        while self.turn_intents:
            self.turn_intents -= 1
            self._attacked(ATTACK)
            if self.hp <= 0:
                self._settle()
                return
        self.seat = min(LIFESPAN_CAP, max(0, self.seat + SEAT_STEP))
        if log is not None:
            log.append(("seat_moved", self.seat))
            log.append(("sayou", "seat"))
        # 9. cleanup: 歩 and the turn's defense vanish
        self.steps = 0
        if self.turn_defense:
            if log is not None:
                log.append(("defense_expired", self.turn_defense))
            self.turn_defense = 0
        self._start_turn()
        self._settle()

    def _attacked(self, amount: int) -> None:
        log = self.log
        left = amount
        if self.on_hit:  # one on-hit entry absorbs this Intent and vanishes
            used = min(self.on_hit.pop(0), left)
            left -= used
            if used and log is not None:
                log.append(("defense_consumed", used, "on_hit"))
        if left > 0 and self.turn_defense:
            used = min(self.turn_defense, left)
            self.turn_defense -= used
            left -= used
            if log is not None:
                log.append(("defense_consumed", used, "turn"))
        if left > 0 and self.stage_defense:
            used = min(self.stage_defense, left)
            self.stage_defense -= used
            left -= used
            if log is not None:
                log.append(("defense_consumed", used, "stage"))
        if left > 0 and self.run_defense:
            used = min(self.run_defense, left)
            self.run_defense -= used
            left -= used
            if log is not None:
                log.append(("defense_consumed", used, "run"))
        lost = min(left, max(0, self.hp))  # HP never goes below 0
        if lost > 0:
            self.hp -= lost
            self.hp_lost += lost
        if log is not None:
            log.append(("hit", amount, left, self.hp))

    # ------------------------------------------------------------ the turn
    def _start_turn(self) -> None:
        log = self.log
        self.turn += 1
        self.turns_run += 1
        self.crossings_turn = 0
        self.same_age_plays = 0
        self.redraw_used = self.redraw_failed = False
        if log is not None:
            log.append(("turn_started", self.turn))
        # 1. intents: escalation first, then the telegraphed seat move and 産声's defense
        if self.turn == self.next_escalation:
            self.intents += 1
            self.next_escalation = self.turn + ESCALATE_EVERY
            if log is not None:
                log.append(("escalated", self.intents))
        self.turn_intents = self.intents
        if log is not None:
            log.append(("intents_shown", self.turn_intents))
            log.append(("trait_telegraphed", SEAT_STEP,
                        min(LIFESPAN_CAP, self.seat + SEAT_STEP)))
        if self.turn_start_defense is not None:
            gained = math.trunc(self.turn_start_defense)
            self.turn_defense += gained
            if log is not None:
                log.append(("defense_gained", gained, "turn"))
                log.append(("sayou", "defense"))
        # 2. refill
        self.steps = self.steps_quota
        if log is not None:
            log.append(("steps_refilled", self.steps))
        # 3. draw
        for _ in range(DRAW_COUNT):
            if len(self.hand) >= HAND_CAP:
                if log is not None:
                    log.append(("draw_skipped", "hand_cap"))
                break
            if not self._draw_one():
                break
        # 4. redraw, once, when nothing can be played
        if not self._playable_any():
            self.redraw_used = True
            self.discard.extend(self.hand)
            self.hand.clear()
            self._reshuffle_if_empty()
            drawn = 0
            for _ in range(START_HAND):
                if len(self.hand) >= HAND_CAP or not self._draw_one():
                    break
                drawn += 1
            if log is not None:
                log.append(("redrawn", drawn))
            if not self._playable_any():
                self.redraw_failed = True
                if log is not None:
                    log.append(("no_playable_page",))

    def _draw_one(self) -> bool:
        if not self.draw:
            self._reshuffle_if_empty()
            if not self.draw:
                if self.log is not None:
                    self.log.append(("draw_skipped", "empty"))
                return False
        uid = self.draw.pop(0)
        self.hand.append(uid)
        if self.log is not None:
            self.log.append(("drawn", uid))
        self._reshuffle_if_empty()
        return True

    def _shuffle(self, pile: list) -> None:
        base = _mix(_mix(self.seed & MASK64) ^ self.shuffles)
        self.shuffles += 1
        pile.sort(key=lambda uid: (_mix(base ^ uid), uid))

    def _reshuffle_if_empty(self) -> None:
        """An empty draw pile takes the whole discard pile, shuffled."""
        if self.draw or not self.discard:
            return
        self.draw, self.discard = self.discard, []
        self._shuffle(self.draw)
        if self.log is not None:
            self.log.append(("reshuffled", len(self.draw)))

    # ------------------------------------------------------------ endings
    def _settle(self) -> None:
        """Won when the enemy is down or 突破ライン is reached (a win first), else lost
        when HP is 0."""
        if self.outcome is not None:
            return
        if self.enemy_hp <= 0 or self.fray_stage >= BREAKTHROUGH:
            self.outcome = "won"
            if self.log is not None:
                self.log.append(("stage_won",))
                self.log.append(("run_won",))
        elif self.hp <= 0:
            self._lose("hp")

    def _lose(self, why: str) -> None:
        self.outcome = "lost"
        if self.log is not None:
            self.log.append(("run_lost", why, self.hp))

    # ------------------------------------------------------------ developer settings
    def dev_set(self, *, hp=None, enemy_hp=None, defense=None) -> None:
        """Like ``Battle.dev_set`` for the values a long benchmark battle needs: HP, 敵HP,
        and defense ``n`` or ``(n, lifetime)`` (replacing what there was of that lifetime)."""
        if hp is not None:
            self.hp = min(int(hp), MAX_HP)
        if enemy_hp is not None:
            self.enemy_hp = int(enemy_hp)
        if defense is not None:
            value, lifetime = defense if isinstance(defense, (tuple, list)) else (defense, "turn")
            value = int(value)
            if lifetime == "on_hit":
                self.on_hit = [value] if value else []
            else:
                setattr(self, f"{lifetime}_defense", value)
        if self.log is not None:
            self.log.append(("dev_set", hp, enemy_hp, defense))


PLAYS = [Play(uid) for uid in range(len(DECK))]
TEARS = [Tear(uid) for uid in range(len(DECK))]
PENS = {(uid, side): Pen(uid, side) for uid, sides in PEN_SIDES.items() for side in sides}
END_TURN = EndTurn()
#: Action class → how the hand-written battle carries it out.
APPLY = {Play: lambda b, a: b.play(a.uid), Pen: lambda b, a: b.pen(a.uid, a.side),
         Tear: lambda b, a: b.tear(a.uid), EndTurn: lambda b, a: b.end_turn()}
