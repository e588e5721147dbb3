"""開発者モード — the values a designer may set directly (spec 000 開発者フック).

One row per setting: the words a designer types for it (the terminal's ``set`` and a
scenario's ``開始`` read them from here), the range the board can physically hold, and
how the value is put into the state. Setting bypasses the rules (歩 left, uses of pen and
tear) but never makes an impossible board: 刻 stays within its walls, nothing is negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from contract import vocabulary as vocab

from .bounds import BOUNDS
from .refusal import Refused
from .state import EXPIRY_ORDER, MARKED
from contract.vocabulary import W


def _spelled(table: str, code: str) -> tuple[str, ...]:
    """The words of a setting named after a term: the term's own spellings."""
    return vocab.lookup(table, code).spellings()


@dataclass(frozen=True)
class DevSetting:
    """One settable value: its words (Japanese first), its bounds now, and how it lands."""

    words: tuple[str, ...]
    bounds: Callable  # battle → (low, high or None): what the board holds now
    #: (battle, value, lifetime or None) → the other settings it moved with it, as
    #: (code, value) (the run's 綻び holds the stage's), or None: each is said too.
    put: Callable
    takes_lifetime: bool = False
    #: The row of runtime/bounds.py BOUNDS the value lands in (a save holds no more),
    #: within which ``bounds`` narrows (the hand, not a number, has none).
    row: str = ""

    def limits(self, battle) -> tuple[int, int]:
        """(low, high) a value set now must lie within: ``bounds`` within its row's."""
        low, high = self.bounds(battle)
        row_low, row_high = BOUNDS[self.row]
        return max(low, row_low), row_high if high is None else min(high, row_high)


def _set(field: str):
    def put(battle, value, lifetime):
        setattr(battle.state, field, value)
    return put


def _set_enemy(key: str):
    def put(battle, value, lifetime):
        battle.state.enemy[key] = value
    return put


def _defense(battle, value, lifetime):
    """防御 n of one lifetime (default ターン): replaces what there was of that lifetime."""
    expiry = lifetime or "turn"
    if expiry not in EXPIRY_ORDER:
        raise Refused(f"{W.variable.defense}の寿命は {' / '.join(EXPIRY_ORDER)} のどれかです: {expiry}")
    s = battle.state
    s.defense = [d for d in s.defense if d[1] != expiry]
    if value:
        s.add_defense(value, expiry)


def _fray_run(battle, value, lifetime):
    s = battle.state
    stage = s.fray_stage
    s.fray_run = value
    s.fray_stage = min(s.fray_stage, value)  # this stage's rise is part of the total
    _fray_gained_follows(s)
    return [("fray_stage", s.fray_stage)] if s.fray_stage != stage else []


def _fray_stage(battle, value, lifetime):
    s = battle.state
    run = s.fray_run
    s.fray_stage = value
    s.fray_run = max(s.fray_run, value)
    _fray_gained_follows(s)
    return [("fray", s.fray_run)] if s.fray_run != run else []


def _fray_gained_follows(s) -> None:
    """増えた綻び[ラン] is the run's 綻び (one quantity in normal play, DESIGN §6.2): set
    with it. The turn and the stage read their part from marks of the run's counter,
    which move with it, so what they read does not change."""
    delta = s.fray_run - s.counters.get("fray_gained", 0)
    if not delta:
        return
    s.counters["fray_gained"] = s.fray_run
    for scope in MARKED:
        if scope in s.marks:
            s.marks[scope]["fray_gained"] = s.marks[scope].get("fray_gained", 0) + delta


def _rewarded(battle):
    """The run's 綻び holds every 綻び報酬 already given (one per 報酬間隔): set lower, the
    position would be one no run reaches, and its save would not load."""
    return battle.state.rewards_given * battle.tables.balance.reward_interval, None


def _on_the_line(battle):
    """刻 and 座 stand on the number line: 0 to 寿命上限 (spec 000 盤面)."""
    return 0, max(0, battle.state.param("lifespan_cap"))


def _no_bound(battle):
    return 0, None


DEV_SETTINGS: dict[str, DevSetting] = {
    "hp": DevSetting(_spelled("variable", "hp"), lambda b: (0, b.state.param("max_hp")), _set("hp"),
                     row="hp"),
    "steps": DevSetting(_spelled("variable", "steps"), _no_bound, _set("steps"), row="steps"),
    "defense": DevSetting(_spelled("variable", "defense"), _no_bound, _defense,
                          takes_lifetime=True, row="defense.value"),
    # 綻び[ラン] as the board labels it, beside the stage's 綻び[ステージ]
    "fray": DevSetting((*_spelled("variable", "fray"), f"{W.variable.fray}[{W.scope.run}]",
                        "fray[run]"), _rewarded, _fray_run, row="fray_run"),
    "fray_stage": DevSetting((f"{W.variable.fray}[{W.scope.stage}]", "fray_stage", "fray[stage]"), _no_bound,
                                 _fray_stage, row="fray_stage"),
    "age": DevSetting(_spelled("variable", "age"), _on_the_line,
                       _set("age"), row="age"),
    "seat": DevSetting(_spelled("variable", "seat"), _on_the_line, _set_enemy("seat"),
                       row="enemy.seat"),
    "enemy_hp": DevSetting(_spelled("variable", "enemy_hp"), _no_bound, _set_enemy("hp"),
                           row="enemy.hp"),
    "currency": DevSetting(_spelled("variable", "currency"), _no_bound, _set("currency"),
                           row="currency"),
    "hand": DevSetting(_spelled("region", "hand"), _no_bound, None),
}

#: 防御の寿命 as a designer writes it (``set 防御 10 ステージ``, ``開始 防御[ステージ] 10``):
#: every spelling of each lifetime defense can have, from the vocabulary.
LIFETIME_WORDS = {word: term.code for term in vocab.LIFETIMES if term.code in EXPIRY_ORDER
                  for word in term.spellings()}

#: word → setting code, for readers of what a designer typed.
DEV_WORDS = {word: code for code, setting in DEV_SETTINGS.items() for word in setting.words}
