"""出来事 — the vocabulary of the trigger graph: the events a 作用 (or the rules) can
produce, and the timing that listens to each.

Three tables, data before code:

- ``EVENTS``: every event, its Japanese name, the timing a continuing 作用 waits for it
  with (None: nothing listens to it directly), and whether it can come again and again
  within one step of the battle (``repeats``: what a loop of triggers needs — 敵HP 0
  comes once a stage, a turn's phases once a turn, so no loop runs through them);
- ``PRODUCES``: what a 作用 produces, by its operation, target and direction (or its
  destination, for the region operations);
- ``RULES``: what the rules themselves produce — the player's actions, the enemy's, the
  turn's phases — and which events set off which by the rules alone (a tear raises 綻び,
  綻び past its interval earns a 綻び報酬, 敵HP 0 ends the stage).

The runtime is the reference for every row (runtime/board.py ``fire`` and its callers:
playing.py, zones.py, pen_tear.py, enemy.py, outcome.py, turn.py); tests/test_analysis_events.py
checks each row against a battle that plays it.
"""

from __future__ import annotations

from typing import NamedTuple

from contract.tables import Const, Sayou
from contract.vocabulary import W


class Event(NamedTuple):
    """出来事: ``code``, its Japanese name ``ja``, the timing that listens to it (None:
    no timing does) and whether it can repeat within one step (a loop can run through it)."""

    code: str
    ja: str
    timing: str | None
    repeats: bool


EVENTS = (
    Event("play", f"ページの{W.scope.play}", "on_play", False),
    Event("cross", f"{W.variable.seat}を{W.condition_word.crosses}", "on_cross", False),
    Event("tear", "ページを破る", "on_tear", False),
    Event("pen", "ペンで書く", "on_pen", False),
    Event("hit", "被弾", "on_hit", False),
    Event("exile", f"ページの{W.region.exile}", "on_exile", True),
    Event("leave", "ページが領域を出る", None, True),
    Event("damage", f"{W.variable.enemy_hp}への1発", None, True),
    Event("enemy_hp_zero", f"{W.variable.enemy_hp}が0になる", "on_enemy_hp_zero", False),
    Event("fray", f"{W.variable.fray}が増える", None, True),
    Event("reward", W.timing.on_reward.removesuffix("時"), "on_reward", True),
    Event("flag", "フラグが立つ", None, True),
    # the turn's and the stage's moments: named as their timings are
    *(Event(code, getattr(W.timing, code), code, False)
      for code in ("turn_start", "after_steps_refill", "after_draw", "on_end_declared",
                   "after_defense", "before_enemy", "after_enemy", "turn_end", "stage_start",
                   "stage_end", "run_start", "run_end")),
)

BY_CODE = {e.code: e for e in EVENTS}
#: timing → the event it waits for (常時 waits for nothing: a modifier is read, not fired).
BY_TIMING = {e.timing: e for e in EVENTS if e.timing is not None}

#: What a 作用 produces: (operation, target code, direction or "*") → events. The region
#: operations are read by their destination in ``DESTINATION_EVENTS``. (綻び rises by the
#: pen and the tear only: no 作用 writes it.)
PRODUCES = {
    ("add", "enemy_hp", "decrease"): ("damage", "enemy_hp_zero"),
    ("mul", "enemy_hp", "*"): ("enemy_hp_zero",),
    ("assign", "flag", "*"): ("flag",),
    ("add", "flag", "increase"): ("flag",),
}
#: Events a 作用 of that key cannot produce, whatever its table says, when its base says so:
#: 敵HP multiplied by a constant of 1 or more never reaches 0 (a positive HP stays
#: positive; an HP of 0 is left as it is: runtime/board.py).
CANNOT = {("mul", "enemy_hp", "enemy_hp_zero"):
          lambda effect: isinstance(effect.base, Const) and effect.base.value >= 1}
#: What a page sent to a region sets off (a region operation: 移動; 生成 and 複製 make a
#: page where it lands, which leaves nothing).
DESTINATION_EVENTS = {"exile": ("exile",)}
#: Region operations that take a page out of its region (``leave``).
LEAVING_OPS = ("move",)


def produced(effect: Sayou) -> tuple[str, ...]:
    """The events ``effect`` can produce when it lands (a flag's event is ``flag:<name>``)."""
    found: list[str] = []
    code = effect.target.code
    for key in ((effect.op, code, effect.direction or "*"), (effect.op, code, "*")):
        found.extend(PRODUCES.get(key, ()))
    if effect.op in LEAVING_OPS:
        found.append("leave")
        found.extend(DESTINATION_EVENTS.get(effect.dest, ()))
    found = [e for e in found
             if not CANNOT.get((effect.op, code, e), lambda _: False)(effect)]
    named = [f"flag:{effect.target.flag}" if e == "flag" else e for e in found]
    return tuple(dict.fromkeys(named))


class Rule(NamedTuple):
    """A source the rules hold (the player, the enemy, the turn) or a rule that turns one
    event into another; ``ja`` says it for the designer."""

    source: str
    ja: str
    events: tuple[str, ...]


#: The rules' own sources of events: (source, its name, the events it produces).
SOURCES = (
    Rule("player", "プレイヤーの行動", ("play", "cross", "tear", "pen")),
    Rule("enemy", "敵の行動", ("hit",)),
    Rule("turn", f"{W.scope.turn}の進行", ("turn_start", "after_steps_refill", "after_draw",
                               "on_end_declared", "after_defense", "before_enemy",
                               "after_enemy", "turn_end", "stage_start", "stage_end",
                               "run_end")),
)
#: Events that set off others by the rules alone: event → (events, why).
CHAINS = {
    "tear": (("fray", "leave"), f"破ったページは{W.region.hand}を出て、{W.variable.fray}が増える"),
    "pen": (("fray",), f"ペンで書くと{W.variable.fray}が増える"),
    "fray": (("reward",), f"{W.variable.fray}が区切りを越えると{W.timing.on_reward.removesuffix('時')}"),
    "enemy_hp_zero": (("stage_end",), f"{W.variable.enemy_hp}が0になると{W.scope.stage}が終わる"),
}
#: A page whose destination after play is 除外 produces these with its play.
EXILED_AFTER_PLAY = ("exile",)


def event_ja(code: str) -> str:
    """An event's Japanese name (``flag:x`` → フラグ @x が立つ)."""
    if code.startswith("flag:"):
        return f"フラグ @{code[5:]} が立つ"
    return BY_CODE[code].ja


def repeats(code: str) -> bool:
    """Whether the event can come again and again within one step."""
    return BY_CODE["flag" if code.startswith("flag:") else code].repeats
