"""作用の実行 — evaluate values and apply one 作用 (a contract ``Sayou``), dispatching on
its op code (``OPS``) and its target (``TARGETS``).

What a value reads is dispatched on its contract class (``READERS`` for the references,
``BASES`` for 基準値); a play condition is compiled by its test (``TESTS``), once per
tables, into a function of the battle and the frame. References are read through a
``Frame``: the values of the play being resolved, fixed before 刻 moves (spec 002
参照式が読む値は、刻の更新前に確定する), and the anchor of a continuing effect. Numeric
effects resolve ``(base + Σadd) × Πmul`` at the moment they fire, keep floats, and
truncate toward zero only when the value lands.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from types import MappingProxyType

from contract.tables import (Condition, Const, CounterRef, DistanceRef, FlagRef, PageAttrRef,
                             PageCountRef, RegionCountRef, Sayou, Scaled, TilesPassedRef,
                             VariableRef)
from contract import vocabulary as vocab
from contract.codec import to_literal
from contract.vocabulary import ANCHORED
from contract.vocabulary import W

from .bounds import MAX_MAGNITUDE, bounded, clamp, land, power
from .state import COEFFICIENTS, BattleFields, Placed, State
from .tearing import grown as tear_grown

#: The state's zones of each single region: 除外 is both exile zones (ステージ and ラン).
PART_ZONES = {"hand": ("hand",), "draw": ("draw",), "discard": ("discard",),
              "exile": ("exile_stage", "exile_run")}
#: Whole-region reads: what each region code counts, from its parts in the vocabulary.
REGION_ZONES = {region.code: tuple(z for part in region.parts for z in PART_ZONES[part])
                for region in vocab.REGIONS}
#: Where a region operation puts a page, by destination code.
DEST_ZONE = {"hand": "hand", "draw": "draw", "discard": "discard", "exile": "exile_stage"}


class Frame:
    """What a 作用 reads besides the state: the play in progress and its own anchor
    (made with positional arguments where a battle makes most: page, distance, crosses,
    anchor, scale, windows, times).

    A plain slotted class rather than a dataclass: a battle makes one for most 作用 it
    applies, and the two dicts are shared empty ones unless given (a frame's dicts are
    only read, never written)."""

    __slots__ = ("page_uid", "distance", "crosses", "anchor", "scale", "windows", "times")

    def __init__(self, page_uid: int | None = None, distance: int = 0, crosses: bool = False,
                 anchor: Mapping | None = None, scale: float | int = 1.0,
                 windows: Mapping | None = None, times: int = 1):
        self.page_uid = page_uid  # the page whose face fired (its 銘 is 銘)
        self.distance = distance  # |銘 − 刻| of this play, before 刻 moves
        self.crosses = crosses
        #: run counters when the effect was placed
        self.anchor = _NOTHING if anchor is None else anchor
        self.scale = scale  # 破却効果の距離倍率
        #: run counters when each anchored window ("play:2", "turn:1") closed; an open
        #: window reads the current run counters.
        self.windows = _NOTHING if windows is None else windows
        self.times = times  # granted this many times at once (綻び rewards crossed together)

    def reads_as(self, scale: float | int, times: int) -> bool:
        """Whether a 作用 with no anchor of its own, given ``scale`` and ``times``, reads
        exactly this frame (it has no anchor or closed window): it can share it."""
        return self.anchor is _NOTHING and self.windows is _NOTHING and \
            self.scale == scale and self.times == times


#: The empty anchor and windows of a frame given none: read-only, so one for all frames.
_NOTHING = MappingProxyType({})


def window_key(ref: CounterRef) -> str:
    """The name of an anchored window (``以降 2 プレイ`` → ``"play:2"``)."""
    return f"{ref.unit}:{ref.n}"


def anchored_refs(effect: Sayou) -> list[CounterRef]:
    """The anchored counter references an effect's value reads."""
    base = effect.base
    if isinstance(base, Scaled) and isinstance(base.ref, CounterRef) \
            and base.ref.scope == ANCHORED:
        return [base.ref]
    return []


#: Floor toward zero, applied only when a value lands (spec 002 計算式), within the
#: bounds a save can hold (runtime/bounds.py): a rule that grows a value without end
#: stops at the bound.
truncate = land


# ------------------------------------------------------------------ reading


def page_year(battle: BattleFields, page_id: str) -> int:
    """A page's 銘 now: the table's, unless a 作用 assigned it."""
    # No lifetime-bound value in force (most of a battle): no 銘 is assigned.
    override = battle.state.year_override(page_id) if battle.state.mods else None
    return battle.tables.pages[page_id].year if override is None else override


def year_of(battle: BattleFields, uid: int) -> int:
    """銘 of a page instance now."""
    s: State = battle.state
    if s.mods:
        return page_year(battle, s.pages[uid].page)
    # No lifetime-bound value in force (most of a battle): the table's 銘, read here
    # rather than through page_year (the greedy player asks of its hand every decision).
    return battle.tables.pages[s.pages[uid].page].year


#: Variable code → its value now (battle, frame → number). A rule parameter not listed
#: reads its current value; anything else reads 0.
VARIABLES = {
    "age": lambda b, f: b.state.age,
    "hp": lambda b, f: b.state.hp,
    "steps": lambda b, f: b.state.steps,
    "defense": lambda b, f: b.state.defense_total(),
    "currency": lambda b, f: b.state.currency,
    "fray": lambda b, f: b.state.fray_run,
    "seat": lambda b, f: b.state.enemy.get("seat", 0),
    "enemy_hp": lambda b, f: b.state.enemy.get("hp", 0),
    "year": lambda b, f: year_of(b, f.page_uid) if f.page_uid is not None else 0,
    "distance": lambda b, f: f.distance,
    "pen_left": lambda b, f: b.state.param("pen_cap") - b.state.pens_used,
    "tear_left": lambda b, f: b.state.param("tear_cap") - b.state.tears_used,
    "stages_cleared": lambda b, f: b.state.stage_index,
}


def read_variable(battle: BattleFields, code: str, frame: Frame):
    """A variable's value now, by its code: VARIABLES, else a rule parameter, else 0."""
    reader = VARIABLES.get(code)
    if reader is not None:
        return reader(battle, frame)
    if code in battle.state.params:
        return battle.state.param(code)
    return 0


def _read_counter(battle: BattleFields, ref: CounterRef, frame: Frame):
    s: State = battle.state
    if ref.scope == ANCHORED:
        # From the moment the 作用 landed to the end of its n-th play / turn after.
        end = frame.windows.get(window_key(ref))
        now = s.counter("run", ref.counter) if end is None else end.get(ref.counter, 0)
        return now - frame.anchor.get(ref.counter, 0)
    return s.counter(ref.scope, ref.counter)


def _read_page_count(battle: BattleFields, ref: PageCountRef, frame: Frame):
    s: State = battle.state
    return sum(1 for z in REGION_ZONES[ref.region] for uid in s.zones[z]
               if s.pages[uid].page == ref.page)


#: Reference class → how it reads (battle, reference, frame → number): one row per kind
#: of ``contract.tables.REFS``.
READERS = {
    CounterRef: _read_counter,
    VariableRef: lambda b, ref, f: read_variable(b, ref.variable, f),
    FlagRef: lambda b, ref, f: b.state.flag(ref.flag),
    RegionCountRef: lambda b, ref, f: sum(len(b.state.zones[z])
                                          for z in REGION_ZONES[ref.region]),
    PageCountRef: _read_page_count,
    PageAttrRef: lambda b, ref, f: page_year(b, ref.page),
    DistanceRef: lambda b, ref, f: f.distance,
    TilesPassedRef: lambda b, ref, f: 0,  # the map is outside the battle
}


def read_ref(battle: BattleFields, ref, frame: Frame):
    """The value a reference reads now."""
    return READERS[type(ref)](battle, ref, frame)


#: Base class → its value (battle, base, frame → number): 基準値 is a constant or a
#: reference times its coefficient.
BASES = {
    Const: lambda b, base, f: base.value,
    Scaled: lambda b, base, f: read_ref(b, base.ref, f) * base.coef,
}


def base_value(battle: BattleFields, effect: Sayou, frame: Frame) -> float | int:
    """基準値 of a 作用 in ``frame``: a constant, or a reference × its coefficient."""
    base = effect.base
    if base is None:
        return 0
    # A product of a read value and a written coefficient: clamped as it is made. A
    # constant (most 作用) is read here, not through BASES: a battle reads thousands.
    value = base.value if type(base) is Const else BASES[type(base)](battle, base, frame)
    if not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:  # ``bounded``, asked inline (a
        value = bounded(value)  # battle reads thousands of values; most are in bounds)
    if frame.scale != 1.0 or frame.times != 1:
        return _grown(effect, value, frame)
    return value


def _grown(effect: Sayou, value: float | int, frame: Frame) -> float | int:
    """A base value grown by its frame: 破却's distance scale, then n grants at once."""
    if frame.scale != 1.0:
        # Tear effects grow with distance; a multiplier grows by its excess over 1.
        value = bounded(tear_grown(effect.op, value, frame.scale))
    if frame.times != 1:
        # n grants at once: n additions add up, n multiplications compound.
        value = power(value, frame.times) if effect.op == "mul" else \
            bounded(value * frame.times)
    return value


#: Comparison code → the test, on floats (a chain compares each neighbouring pair).
COMPARE = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
           "==": operator.eq, "!=": operator.ne}


# A play condition is compiled once per tables into a function of (battle, frame) →
# whether it holds: playability asks the conditions of every conditional page in the
# hand at every step of a policy, and the reading of a term is settled by the term.


def _term_reader(term):
    """A condition term as a function of (battle, frame) → its value now, as a float: a
    constant is read once; a counter of a scope (not anchored) straight from the state;
    any other reference through READERS."""
    if type(term) is Const:
        value = float(term.value)
        return lambda battle, frame: value
    if type(term) is CounterRef and term.scope != ANCHORED:
        scope, counter = term.scope, term.counter
        return lambda battle, frame: float(battle.state.counter(scope, counter))
    reader = READERS[type(term)]
    return lambda battle, frame: float(reader(battle, term, frame))


def _compile_compare(cond: Condition):
    readers = [_term_reader(term) for term in cond.terms]
    tests = [COMPARE[op] for op in cond.ops]
    if len(readers) == 2:  # one comparison, the commonest condition: no lists made
        (left, right), (test,) = readers, tests
        return lambda battle, frame: test(left(battle, frame), right(battle, frame))

    def chain(battle: BattleFields, frame) -> bool:  # each neighbouring pair
        values = [read(battle, frame) for read in readers]
        return all(test(a, b) for test, a, b in zip(tests, values, values[1:]))
    return chain


def _compile_nonzero(cond: Condition):
    read = _term_reader(cond.terms[0])
    return lambda battle, frame: read(battle, frame) != 0


def _crosses(battle: BattleFields, frame) -> bool:
    return frame.crosses


def _not_crosses(battle: BattleFields, frame) -> bool:
    return not frame.crosses


#: Condition test code → how a condition of it is compiled: into a function of
#: (battle, frame) → whether it holds now.
TESTS = {
    "compare": _compile_compare,
    "nonzero": _compile_nonzero,
    "crosses": lambda cond: _crosses,
    "not_crosses": lambda cond: _not_crosses,
}


def condition_test(tables, cond: Condition):
    """A play condition compiled (TESTS), once per tables and condition."""
    return tables.by_identity("condition_test", cond, TESTS[cond.test], cond)


def condition_tests(tables, conditions) -> tuple:
    """A face's play conditions compiled, in order, once per tables and conditions."""
    return tables.by_identity("condition_tests", conditions, _compiled_all, tables,
                              conditions)


def _compiled_all(tables, conditions) -> tuple:
    return tuple(condition_test(tables, cond) for cond in conditions)


def holds(battle: BattleFields, tests, frame: Frame) -> bool:
    """Whether every one of a face's compiled play conditions (``condition_tests``)
    holds now, stopping at the first that fails."""
    for test in tests:
        if not test(battle, frame):
            return False
    return True


# ------------------------------------------------------------------ modifiers


def modifiers(battle: BattleFields, target: str, *, consume: bool = True,
              sources: tuple[list, list] | None = None) -> tuple[float, float]:
    """(Σ加算補正, Π乗算補正) of ``target`` from the continuing effects on the board.

    ``sources``: two lists (adds, multiplies) that get one ``modifier_source`` each, for
    the explanation of a recorded battle; None (simulations) builds nothing."""
    index = battle._index
    if index is None:
        index = battle.board_index()
    found = index.modifiers.get(target)
    if not found:  # nothing on the board modifies it (most of a battle)
        return 0.0, 1.0
    add, mul = 0.0, 1.0
    # A beaten enemy's traits run no more (DESIGN §6.2): its modifiers neither.
    down = battle.state.enemy.get("hp", 1) <= 0
    # The index's list stays as it is when a consumed modifier leaves the board.
    for placed, adds, const in found:
        if down and placed.origin.startswith("enemy:"):
            continue
        effect = placed.effect
        value = base_value(battle, effect, battle.frame_of(placed)) if const is None else \
            bounded(const)
        if adds:
            value = -value if effect.direction == "decrease" else value
            add = bounded(add + value)
        else:
            mul = bounded(mul * value)  # many multipliers: clamped as the product grows
        if sources is not None:
            sources[not adds].append(modifier_source(battle, placed, value))
        if consume:
            battle.fired(placed)
    return add, mul


def modifier_source(battle: BattleFields, placed: Placed, value: float | int) -> dict:
    """Where one modifier came from, as plain data: the modifier variable's code, its
    signed value, the kind of origin (``page``, ``enemy``, ``tear``, ``reward``) and the
    page or enemy id it belongs to (None for a reward), and the line it is written on."""
    effect = placed.effect
    kind, _, owner = placed.origin.partition(":")
    uid = placed.page_uid
    if kind == "page" and uid is not None:
        owner = battle.state.pages[uid].page
    return {"modifier": effect.target.code, "value": value, "origin": kind,
            "id": owner or None, "line": effect.line}


#: Which direction of a target its modifiers act on. 攻撃力補正・攻撃倍率・烙印・軽減 make
#: damage, not enemy heals; 防御補正 shapes defense gains (DESIGN §6.1 敵HP modifiers).
#: A target not listed takes its modifiers in both directions.
MODIFIED_DIRECTION = {"enemy_hp": "decrease", "defense": "increase"}


# Every modifier of a value is one row of MODIFIER_SOURCES, applied in order: an enemy's
# per-hit 軽減 (an additive modifier of damage, so before any multiplier: spec 002
# 「加算が先、乗算が後」), the board's continuing effects (攻撃力補正, 攻撃倍率, 烙印,
# 防御補正, 支払い倍率, 綻び倍率 — each counted by its 最大 n 回 when ``consume``), the
# 綻び multiplier of damage. One mechanism for all of them (spec 002 「別の機構を持たない」): no
# modifier is a special case of the code that applies them. Each row is a function of
# (battle, target, value, why, consume) → the value it makes; ``why`` (a recorded battle's
# explanation, or None) gets the row's terms.


def _board_source(battle: BattleFields, target: str, value: float | int, why: dict | None,
                  consume: bool) -> float | int:
    """(value + Σ加算補正) × Π乗算補正 of the continuing effects on the board."""
    if why is None:
        index = battle._index
        if index is None:
            index = battle.board_index()
        if not index.modifiers.get(target):  # nothing modifies it (most of a battle)
            value = (value + 0.0) * 1.0  # as ``modifiers`` found (0, 1); bounded, inline
            return value if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE else bounded(value)
        add, mul = modifiers(battle, target, consume=consume)
    else:
        why["add"], why["mul"] = sources = ([], [])
        add, mul = modifiers(battle, target, consume=consume, sources=sources)
    return bounded((value + add) * mul)  # bounded factors: no overflow before the clamp


def _fray_source(battle: BattleFields, target: str, value: float | int, why: dict | None,
                 consume: bool) -> float | int:
    """The 綻び multiplier of damage: × (1 + 綻び攻撃係数 × 累積綻び)."""
    coef = battle.tables.balance.fray_attack
    # ``bounded``, asked inline: every hit of a battle comes here.
    fray = 1 + coef * battle.state.fray_run
    if not -MAX_MAGNITUDE <= fray <= MAX_MAGNITUDE:
        fray = bounded(fray)
    if why is not None:
        why["fray"] = {"factor": fray, "fray": battle.state.fray_run, "coef": coef}
    value = value * fray
    return value if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE else bounded(value)


def _reduction_source(battle: BattleFields, target: str, value: float | int, why: dict | None,
                      consume: bool) -> float | int:
    """An enemy's 1発ごとの軽減: taken from each hit, with the additive modifiers — before
    the multipliers: (基準値 + 攻撃力補正 − 軽減) × 攻撃倍率 × 綻び."""
    reduction = battle.foe.traits.get("per_hit_reduction") or 0
    if why is not None:
        why["reduction"] = reduction
    return value - reduction


#: Modified target → its modifier sources, in the order they apply. A target not listed
#: takes the board's modifiers alone.
MODIFIER_SOURCES = {
    "enemy_hp": (_reduction_source, _board_source, _fray_source),
}
_BOARD_ONLY = (_board_source,)


def modified(battle: BattleFields, target: str, value: float | int, *, consume: bool = True,
             why: dict | None = None) -> float | int:
    """``value`` through every modifier source of ``target`` (MODIFIER_SOURCES), in
    order, unclamped below: the 歩 a play pays (支払い倍率), the 綻び a tear raises
    (綻び倍率), a numeric add as it fires (``effective``). ``consume``: this is a use of
    the modifiers (each one's 最大 n 回 counts it); False reads them for a preview."""
    for source in MODIFIER_SOURCES.get(target, _BOARD_ONLY):
        value = source(battle, target, value, why, consume)
    return value


def effective(battle: BattleFields, effect: Sayou, base: float | int,
              why: dict | None = None) -> float | int:
    """The magnitude of a numeric add when it fires: ``base`` through the modifiers of
    its target (``modified``), never below 0 (a modified gain is never negative:
    防御補正 −5 on 防御 += 3 gains 0).

    ``why`` (a recorded battle's explanation, see ``explain``) gets each source's terms
    — ``add`` and ``mul`` (each modifier's source), ``fray`` (the 綻び multiplier of
    damage, with the 綻び it was made from), ``reduction`` (per-hit 軽減) — and ``value``
    (before the floor at 0); ``modified`` says whether modifiers applied at all."""
    target = effect.target.code
    if effect.landing != "modified" or (
            MODIFIED_DIRECTION.get(target, effect.direction) != effect.direction):
        if why is not None:  # fixed, or e.g. an enemy heal: lands unmodified
            why["modified"], why["value"] = False, base
        return base
    if why is None:  # a simulation (record=False): nothing explained
        return max(0.0, modified(battle, target, base))
    why["modified"] = True
    value = why["value"] = modified(battle, target, base, why=why)
    return max(0.0, value)


def explain_base(battle: BattleFields, effect: Sayou, frame: Frame) -> dict:
    """The start of a recorded 作用's explanation: ``base`` (基準値 as it fired) and, for
    a base read from a reference, ``ref`` (the reference as a contract literal),
    ``read`` (what it read) and ``coef``; ``scale`` (破却's distance scale) and
    ``times`` (grants at once) when they are not 1, with a base that is not read from a
    reference as ``written`` (before they grew it) and the 作用's ``op`` (a multiplier
    grows by its excess over 1, ``_grown``)."""
    base = effect.base
    if type(base) is Scaled:  # the reference read once, for the base and for ``read``
        read = read_ref(battle, base.ref, frame)
        value = read * base.coef
        if frame.scale != 1.0 or frame.times != 1:
            value = _grown(effect, value, frame)
        why: dict = {"base": value, "ref": _ref_literal(battle, base.ref), "read": read,
                     "coef": base.coef}
    else:
        why = {"base": base_value(battle, effect, frame)}
        if frame.scale != 1.0 or frame.times != 1:  # as written, before the frame grew it
            why["written"] = base.value if type(base) is Const else \
                base_value(battle, effect, Frame(frame.page_uid, frame.distance,
                                                 frame.crosses, frame.anchor,
                                                 windows=frame.windows))
            why["op"] = effect.op
    if frame.scale != 1.0:
        why["scale"] = frame.scale
    if frame.times != 1:
        why["times"] = frame.times
    return why


def _ref_literal(battle: BattleFields, ref) -> dict:
    """A reference as plain data (its contract literal), once per reference object."""
    return battle.tables.by_identity("ref_literals", ref, to_literal, ref)


def explained(why: dict | None) -> tuple:
    """The last event value of an explained landing: ``(why,)``, or nothing (the
    commonest landings, damage and defense, test ``why`` themselves: no unpacking)."""
    return () if why is None else (why,)


# ---------------------------------------------------------------- operations


def _add(battle: BattleFields, effect, frame):
    sign = -1 if effect.direction == "decrease" else 1
    if battle.record:
        # A recorded battle says how the number came about (the event's ``why``);
        # a simulation (record=False) builds none of it.
        why = explain_base(battle, effect, frame)
        amount = truncate(effective(battle, effect, why["base"], why))
        why["amount"] = amount
        TARGETS[effect.target.code](battle, effect, sign * amount, why)
        return
    amount = truncate(effective(battle, effect, base_value(battle, effect, frame)))
    TARGETS[effect.target.code](battle, effect, sign * amount)


def _mul(battle: BattleFields, effect, frame):
    factor = base_value(battle, effect, frame)
    s: State = battle.state
    code = effect.target.code
    if code == "defense":
        before = s.defense_total()
        s.defense = [[truncate(v * factor), e] for v, e in s.defense]
        gained = s.defense_total() - before
        if gained > 0:  # 得た防御 counts every gain, whatever the operation (DESIGN §6.1)
            s.count(battle.count_scope, "defense_gained", gained)
        battle.emit(("defense_gained", gained, "multiply"))
        return
    current = read_variable(battle, code, frame) if code != "flag" else s.flag(
        effect.target.flag)
    TARGETS[code](battle, effect, truncate(current * factor) - current)


def _assign(battle: BattleFields, effect, frame):
    value = truncate(base_value(battle, effect, frame))
    target = effect.target
    if target.code == "flag":
        battle.state.mods.append({"kind": "flag", "key": target.flag, "op": "assign",
                                  "value": value, "lifetime": effect.lifetime})
        battle.emit(("flag_changed", target.flag, battle.state.flag(target.flag)))
    elif target.code == "year":
        battle.state.mods.append({"kind": "year", "key": target.page, "op": "assign",
                                  "value": max(0, value), "lifetime": effect.lifetime})
        battle.emit(("year_changed", target.page, max(0, value)))
    elif target.code == "seat":
        battle.move_seat(value - battle.state.enemy["seat"])


def _cap(battle: BattleFields, effect, frame):
    code = effect.target.code
    value = base_value(battle, effect, frame)
    # A coefficient (防御係数) keeps its fractions; an integer parameter lands truncated.
    amount = bounded(value) if code in COEFFICIENTS else truncate(value)
    sign = -1 if effect.direction == "decrease" else 1
    s: State = battle.state
    change = sign * amount
    if code == "lifespan_cap" and s.param(code) + change < s.lifespan_floor():
        change = min(0, s.lifespan_floor() - s.param(code))  # stops at 刻 and 座 (DESIGN §6.2)
    s.mods.append({"kind": "param", "key": code, "op": "add", "value": change,
                   "lifetime": effect.lifetime})
    battle.emit(("param_changed", code, battle.state.param(code), effect.lifetime))
    battle.clamp_to_params()


#: What a payment may take from each resource: HP only while HP stays above 0 (a payment
#: never kills), 通貨 down to 0 (DESIGN §6.1 payments).
PAYABLE = {"hp": lambda s: s.hp - 1, "currency": lambda s: s.currency}


def payment_shortfall(battle: BattleFields, effects, frame: Frame, paying: dict) -> str | None:
    """Why a face's payments cannot be made in full now, or None. ``paying`` carries what
    faces fired before it in the same play will take, and is updated."""
    for effect in effects:
        if effect.op != "pay" or effect.timing != "on_play":
            continue
        code = effect.target.code
        paying[code] = paying.get(code, 0) + max(0, truncate(base_value(battle, effect, frame)))
        can = PAYABLE[code](battle.state)
        if paying[code] > can:
            word = effect.names.target
            have = battle.state.hp if code == "hp" else battle.state.currency
            return f"{word}が足りない: いま {have}, {W.operation.pay} {paying[code]}" + (
                f"（HP は {W.operation.pay}で 0 にはなりません）" if code == "hp" else "")
    return None


def _pay(battle: BattleFields, effect, frame):
    amount = max(0, truncate(base_value(battle, effect, frame)))
    s: State = battle.state
    code = effect.target.code
    if amount > PAYABLE[code](s):
        # Only a payment outside a play can get here (a play checks first): it is not
        # made at all rather than made in part.
        battle.emit(("payment_skipped", code, amount))
        return
    if code == "hp":
        s.hp -= amount
        s.count(battle.count_scope, "hp_lost", amount)
    else:
        s.currency -= amount
        s.count(battle.count_scope, "currency_spent", amount)
    battle.emit(("paid", code, amount))


def _suppress(battle: BattleFields, effect, frame):
    battle.state.suppress = max(battle.state.suppress, 1)
    if battle.count_scope == "play":
        battle.suppress_move()  # the play's own move counters read 0 from now on
    battle.emit(("suppressed",))


#: Operation code → how it lands. Region operations are not here: they may ask the
#: player, so the battle runs them as resumable steps (``battle.REGION_STEPS``).
OPS = {
    "add": _add, "mul": _mul, "assign": _assign, "cap": _cap, "pay": _pay,
    "suppress": _suppress,
}


# -------------------------------------------------------------------- targets
# How a signed, truncated amount lands on each target variable.


def _enemy_hp(battle: BattleFields, effect, delta, why=None):
    s: State = battle.state
    if delta < 0 or (delta == 0 and effect.direction == "decrease"):  # a hit, even of 0
        dealt = min(-delta, s.enemy["hp"])
        s.enemy["hp"] -= dealt
        s.count(battle.count_scope, "damage_dealt", dealt)
        uid = battle.crediting
        if uid is not None and dealt:
            by = battle.dealt_by
            by[uid] = by.get(uid, 0) + dealt
        if why is None:
            battle.emit(("damage", -delta, dealt, s.enemy["hp"]))
        else:
            battle.emit(("damage", -delta, dealt, s.enemy["hp"], why))
        if s.enemy["hp"] <= 0:
            battle.enemy_down()
    else:
        before = s.enemy["hp"]
        s.enemy["hp"] = clamp("enemy.hp", before + delta)
        battle.emit(("healed", "enemy", s.enemy["hp"] - before, s.enemy["hp"],
                     *explained(why)))


def _hp(battle: BattleFields, effect, delta, why=None):
    s: State = battle.state
    if delta >= 0:
        # HP that reached 0 stays 0: a heal (a 被弾時 reaction, say) does not bring the
        # player back (DESIGN §6.2 a hit reaction and defeat).
        healed = max(0, min(delta, s.param("max_hp") - s.hp)) if s.hp > 0 else 0
        s.hp = clamp("hp", s.hp + healed)
        battle.emit(("healed", "player", healed, s.hp, *explained(why)))
    else:
        # Never below 0 (DESIGN §6.2): a hand-built table may still take HP by a 作用.
        lost = min(-delta, max(0, s.hp))
        s.hp = clamp("hp", s.hp - lost)
        s.count(battle.count_scope, "hp_lost", lost)
        battle.emit(("hit/effect", -delta, s.hp, "effect", *explained(why)))


def _steps(battle: BattleFields, effect, delta, why=None):
    s: State = battle.state
    s.steps = clamp("steps", s.steps + delta)
    battle.emit(("steps_changed", delta, s.steps, *explained(why)))


def _defense(battle: BattleFields, effect, delta, why=None):
    s: State = battle.state
    if delta >= 0:
        expiry = effect.lifetime or "turn"
        s.add_defense(delta, expiry)
        s.count(battle.count_scope, "defense_gained", delta)
        if why is None:
            battle.emit(("defense_gained", delta, expiry))
        else:
            battle.emit(("defense_gained", delta, expiry, why))
    else:
        battle.consume_defense(-delta)


def _currency(battle: BattleFields, effect, delta, why=None):
    s: State = battle.state
    before = s.currency
    s.currency = clamp("currency", s.currency + delta)
    if s.currency < before:  # 使用した通貨 counts every decrease (DESIGN §6.1)
        s.count(battle.count_scope, "currency_spent", before - s.currency)
    battle.emit(("currency_changed", s.currency - before, s.currency, *explained(why)))


def _flag(battle: BattleFields, effect, delta, why=None):
    name = effect.target.flag
    battle.state.mods.append({"kind": "flag", "key": name, "op": "add",
                              "value": clamp("mods.value", delta),
                              "lifetime": effect.lifetime or "run"})
    battle.emit(("flag_changed", name, battle.state.flag(name)))


def _seat(battle: BattleFields, effect, delta, why=None):
    battle.move_seat(delta)


TARGETS = {
    "enemy_hp": _enemy_hp, "hp": _hp, "steps": _steps, "defense": _defense, "currency": _currency,
    "flag": _flag, "seat": _seat,
}
