"""際限なく育つ値 (W007) — a 作用 that grows a value each time it fires, and fires for ever.

A 作用 counts when all three hold:

1. **It grows what it lands on** (``GROWTH``): a multiply (``*=``) by a constant above 1
   on a current value (敵HP, 通貨, 防御, 歩 — modifiers are 常時 and never fire again, so
   ``攻撃倍率 *= 1.2 範囲 ラン`` placed once is a constant ×1.2, not growth); a cap change
   upward (``上限 X += n``), which adds n each time; or an add that compounds — ``+=`` whose
   base reads a quantity that very add feeds (``FEEDS``: ``通貨 += 通貨 × 0.1``,
   ``防御 += 得た防御[ラン] × 0.5``, ``敵HP -= 与えたダメージ[ステージ] × 0.5``,
   ``@x += @x × 1``), ×(1 + coefficient) a firing.
2. **It fires again and again** (``CADENCE``, ``OPEN_RANGES``): its timing comes back (each
   turn's phases, each play, each event, each stage — not 常時 and not the run's own start
   or end), it has no ``最大 n 回``, and its 繰り返し範囲 holds an unbounded number of those
   firings: ステージ or ラン for what comes each turn, each play or on an event (a stage
   may last any number of turns; a turn's plays and events are bounded by its 歩), ラン
   for what comes each stage — and for the events a stage holds a bounded number of
   (``CAPPED_EVENTS``: 破った時 and ペンを使った時, a cap a stage unless some 作用 raises
   it; 敵のHPが0になった時, once: the stage ends).
3. **What it grew is still there at the next firing** (``KEEPS``): the value's own life
   holds as many firings as the range does — 敵HP lives a stage (each stage's enemy is
   new), 通貨 the run, 歩 a turn (refilled each turn: ``歩 *= 2`` each turn does not
   compound), 防御 as long as the longest-lived 防御 the content gives (only 防御 that
   outlives a turn can be multiplied twice), a cap change or a flag as long as its 寿命;
   for an add that compounds, what it reads must keep what it added: a counter for its
   scope (得た防御[ターン] starts again each turn), a value for the add's own 寿命.

The message gives the value reached at the 20th firing (each turn for a phase timing:
``×1.1`` each turn → ×6.73 by turn 20). A cap change adds to the balance's value when the
balance is known; where the vocabulary gives the number a range (``WALLS``: 寿命上限 means
nothing past 銘's bound 200; the other parameters the balance's own range), the message
says when the 20th firing passes it. Not counted: a multiply by a reference (its factor is
not known before the battle), a 作用 grown by another 作用 (the trigger graph's cycles
say what sets off what), and the 綻び報酬 (the rules fire it once a reward, and rewards
come only as 綻び is paid for with pens and tears).
"""

from __future__ import annotations

import math
from collections.abc import Collection

from contract import vocabulary as vocab
from contract.vocabulary import W
from contract.conditions import VARIABLES as NAMES, label
from contract.tables import Const, CounterRef, FlagRef, Scaled, VariableRef

from .content import Content
from .findings import Finding
from .graph import placed_effects

#: How many firings the message counts to (turn 20 for what fires each turn).
FIRINGS = 20

RANK = {scope: i for i, scope in enumerate(vocab.SCOPE_ORDER)}

#: Timing family (or timing code) → how often it comes: the unit one firing takes.
CADENCE = {"phase": "turn", "event": "play", "on_play": "play", "stage_start": "stage",
           "stage_end": "stage", "on_enemy_hp_zero": "stage"}
#: Events a stage holds a bounded number of — a cap of the balance per stage (spec 000:
#: 「1ステージにつき1回ずつ」) — unless some 作用 of the content raises that cap: then as
#: many as there are plays to raise it. (敵のHPが0になった時 comes once: the stage ends.)
CAPPED_EVENTS = {"on_tear": "tear_cap", "on_pen": "pen_cap"}
#: The cadence → the 繰り返し範囲 (and the value lifetimes) that hold unboundedly many
#: firings of it.
OPEN_RANGES = {"turn": ("stage", "run"), "play": ("stage", "run"), "stage": ("run",)}
#: The cadence → how the message says "each firing" and "by the 20th".
EACH = {"turn": (f"毎{W.scope.turn}", f"{FIRINGS} {W.scope.turn}目には"),
        "play": ("発動のたびに", f"{FIRINGS} 回目の発動で"),
        "stage": (f"{W.scope.stage}ごとに", f"{FIRINGS} {W.scope.stage}目には")}
HINT = (f"最大 n 回 か、終わる範囲（{W.scope.turn}・以降 n {W.scope.play}）で止めてください")

#: The current values a multiply grows, and how long what it grew lives (None: the 作用's
#: own lifetime; "defense": the longest 防御 lifetime the content gives).
KEEPS = {"enemy_hp": "stage", "currency": "run", "steps": "turn", "defense": "defense",
         "flag": None}
#: A target → the references that read what an add to it feeds (an add of one of them
#: to it compounds).
FEEDS = {
    ("currency", "increase"): lambda r: isinstance(r, VariableRef) and r.variable == "currency",
    ("defense", "increase"): lambda r: (isinstance(r, VariableRef) and r.variable == "defense")
    or (isinstance(r, CounterRef) and r.counter == "defense_gained"),
    ("enemy_hp", "decrease"): lambda r: isinstance(r, CounterRef) and r.counter == "damage_dealt",
}
#: A parameter → (the bound past which its range ends, what the message calls it).
WALLS = {"lifespan_cap": (vocab.YEAR_BOUND, f"{W.variable.year}の上限"),
         **{key.code: (key.high, "バランスが書ける範囲の上限")
            for key in vocab.number_keys() if key.code != "lifespan_cap"}}


def findings(content: Content) -> list[Finding]:
    """Every 作用 of the content that grows a value without bound (W007), in content order."""
    defense_life = _longest_defense(content)
    raised = _raised_caps(content)
    found = []
    for kind, item, place, _, effect, _ in placed_effects(content):
        if place == "reward":
            continue
        cadence = _cadence(effect, raised)
        if cadence is None:
            continue
        growth = _growth(effect, content, cadence, defense_life)
        if growth is not None:
            message, data = growth
            found.append(Finding("W007", kind, item, effect.line, message,
                                 HINT,
                                 {"cadence": cadence, "firings": FIRINGS, **data}))
    return found


def _raised_caps(content: Content) -> set[str]:
    """The caps some 作用 of the content raises (上限変更 upwards)."""
    return {effect.target.code for _, _, _, _, effect, _ in placed_effects(content)
            if effect.op == "cap" and effect.direction == "increase"}


def _cadence(effect, raised: Collection[str] = ()) -> str | None:
    """How often the 作用 fires again, when its range holds unboundedly many firings
    (``raised``: the caps the content raises, ``_raised_caps``)."""
    family = next(t.family for t in vocab.TIMINGS if t.code == effect.timing)
    capped = CAPPED_EVENTS.get(effect.timing)
    cadence = ("stage" if capped is not None and capped not in raised else None) \
        or CADENCE.get(effect.timing) or CADENCE.get(family)
    if cadence is None or effect.repeat.max is not None:
        return None
    if effect.repeat.scope not in OPEN_RANGES[cadence]:
        return None
    return cadence


def _lives(lifetime: str | None, cadence: str) -> bool:
    """Whether a value of ``lifetime`` outlives unboundedly many firings of ``cadence``."""
    return lifetime in (*OPEN_RANGES[cadence], "permanent")


def _growth(effect, content: Content, cadence: str, defense_life: str):
    """(message, data) when the 作用 grows what it lands on, firing at ``cadence``."""
    each, by = EACH[cadence]
    code = effect.target.code
    if effect.op == "mul" and isinstance(effect.base, Const) and effect.base.value > 1:
        life = KEEPS.get(code, "none")
        life = defense_life if life == "defense" else effect.lifetime if life is None else life
        if not _lives(life, cadence):
            return None
        factor = effect.base.value
        reached, said = _power(factor)
        return (f"{_name(effect)} は{each} ×{factor:g} され、止まりません: {by} {said}",
                {"factor": factor, "reached": reached})
    if effect.op == "cap" and effect.direction == "increase" and isinstance(effect.base, Const):
        if not _lives(effect.lifetime, cadence) or effect.base.value <= 0:
            return None
        step = effect.base.value
        start = getattr(content.balance, code, None) if content.balance is not None else None
        added = step * FIRINGS
        if start is None:
            said, reached = f"+{added:g}", None
        else:
            reached = start + added
            said = f"{start:g} → {reached:g}"
        wall, wall_name = WALLS.get(code, (None, ""))
        past = reached is not None and wall is not None and reached > wall
        return (f"{_name(effect)} は{each} +{step:g} され、止まりません: {by} {said}"
                + (f"（{wall_name} {wall:g} を超える）" if past else ""),
                {"step": step, "reached": reached, "wall": wall})
    if effect.op == "add" and isinstance(effect.base, Scaled) and _feeds(effect):
        # What is read must still hold what the earlier firings added: a counter for its
        # scope (whatever becomes of the value), a value for its own lifetime.
        ref = effect.base.ref
        life = ref.scope if isinstance(ref, CounterRef) else \
            effect.lifetime if code in ("flag", "defense") else KEEPS.get(code)
        if not _lives(life, cadence) or effect.base.coef <= 0:
            return None
        factor = 1 + effect.base.coef
        reached, said = _power(factor)
        return (f"{_name(effect)} への作用は {label(ref)} を読み、それを自分で増やすので、"
                f"{each} ×{factor:g} で育ちます: {by} {said}",
                {"factor": factor, "reached": reached})
    return None


def _power(factor: float) -> tuple[float | None, str]:
    """factor ** FIRINGS (None past a float's range) and how the message says it: ×6.73,
    ×1.05e+40, ×10^400."""
    exponent = FIRINGS * math.log10(factor)
    if exponent > 300:
        return None, f"×10^{exponent:.0f}"
    reached = factor ** FIRINGS
    return round(reached, 4), (f"×{reached:.2f}" if reached < 1e6 else f"×{reached:.3g}")


def _feeds(effect) -> bool:
    """Whether an add reads what it feeds: FEEDS, or a flag added a multiple of itself."""
    ref = effect.base.ref
    if effect.target.code == "flag" and effect.direction == "increase":
        return isinstance(ref, FlagRef) and ref.flag == effect.target.flag
    feeds = FEEDS.get((effect.target.code, effect.direction))
    return feeds is not None and feeds(ref)


def _name(effect) -> str:
    if effect.target.code == "flag":
        return f"@{effect.target.flag}"
    return NAMES.get(effect.target.code, effect.target.code)


def _longest_defense(content: Content) -> str:
    """The longest lifetime of 防御 any 作用 of the content gives ("turn" at least)."""
    longest = "turn"
    for _, _, _, _, effect, _ in placed_effects(content):
        if effect.target.code == "defense" and effect.op == "add" \
                and effect.lifetime in RANK and RANK[effect.lifetime] > RANK[longest]:
            longest = effect.lifetime
    return longest
