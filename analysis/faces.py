"""出せない面 (W008) — a face whose play conditions cannot hold together, by interval reasoning.

Each written face (and each pen that writes a blank face whole, conditions included) is
checked: every comparison of one quantity with constants bounds that quantity to an
interval of whole numbers (every quantity a condition reads is one: 刻, 歩, counts,
counters, flags); the walls of the line bound it too (``Walls``), and the face's side
bounds 刻 (runtime/sides.py: the 未来面 fires when 銘 > 刻, both faces when 銘 = 刻 — so
only while 刻 ≤ 銘; the 過去面 only while 刻 ≥ 銘). A face is reported when one quantity's
interval is empty, naming the two bounds that meet, or when it asks both 跨ぐ and 跨がない,
or a flag to be non-zero that nothing sets.

The walls, each only where the content cannot move it (a 作用 of the content that raises
the parameter, or adds to the value, lifts the wall):

- 刻: 0 … 寿命上限 (the balance's, or 初期刻 if higher; 銘's bound 200 without a balance
  or when a 作用 raises 寿命上限); the side's bound needs the page's own 銘, so a page
  whose 銘 a 作用 assigns gets none;
- |銘 − 刻| follows from 刻's interval; 跨ぐ needs it ≥ 2 (the old and the new 刻 strictly
  on either side of 座); 歩 must cover it when no 支払い倍率 is in the content;
- 歩: 0 … 歩の規定量 + 歩の持ち越し; 手札: 1 (the page itself) … 手札上限; a count of a
  region or a page, a counter (正味変位 aside), 通貨, 綻び, 防御: ≥ 0; HP: 1 … 最大HP;
  残りペン回数 / 残り破り回数: 0 … ペン回数上限 / 破り回数上限;
- a flag no 作用 of the content adds to or assigns stays 0.

Comparisons of two quantities (刻 >= 銘[p]) and ``!=`` are not reasoned about. Faces that
can be played but rarely (初恋: a crossing earlier in the same turn and 刻 ≤ 17) are not
decided here: sim/blocking.py measures how often a face is blocked and by which condition.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from contract import vocabulary as vocab
from contract.conditions import DISTANCE
from contract.vocabulary import W
from contract.tables import Const

from . import quantities as q
from .content import Content
from .findings import Finding
from .graph import placed_effects

INF = math.inf
SIDE_NAMES = {f.code: f.ja for f in vocab.FACES}
HINT = f"条件の数値か、ページの{W.variable.year}を見直してください"
YEAR, AGE, STEPS = W.variable.year, W.variable.age, W.variable.steps

#: ref OP c → the whole-number interval it allows.
BOUNDS = {
    ">=": lambda c: (math.ceil(c), INF), ">": lambda c: (math.floor(c) + 1, INF),
    "<=": lambda c: (-INF, math.floor(c)), "<": lambda c: (-INF, math.ceil(c) - 1),
    "==": lambda c: (math.ceil(c), math.floor(c)),
}
#: c OP ref is ref FLIP[OP] c.
FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}
#: Variables (by code) → (balance key of their upper wall or None, lowest value).
VARIABLE_WALLS = {
    "hp": ("max_hp", 1), "currency": (None, 0), "fray": (None, 0), "defense": (None, 0),
    "pen_left": ("pen_cap", 0), "tear_left": ("tear_cap", 0), "seat": (None, 0),
    "enemy_hp": (None, 0),
    **{v.code: (None, 0) for v in vocab.VARIABLES if v.kind == "param"},
}
#: Counters that can go below 0.
SIGNED_COUNTERS = ("net_displacement",)


class Bound(NamedTuple):
    """One bound on a quantity: the interval it allows, and why (Japanese)."""

    low: float
    high: float
    why: str


class Walls:
    """What the whole content settles for every face: the walls of the line."""

    def __init__(self, content: Content):
        self.balance = content.balance
        raised, flags, assigned = set(), set(), set()
        for _, _, _, _, effect, _ in placed_effects(content):
            target = effect.target
            if effect.op in ("cap", "add", "mul") and effect.direction != "decrease":
                raised.add(target.code)
            if target.code == "flag" and effect.op in ("add", "assign"):
                flags.add(target.flag)
            if target.code == "year" and effect.op == "assign":
                assigned.add(target.page)
            if target.code == "payment_mul":
                raised.add("payment_mul")
        self.raised, self.flags, self.assigned = raised, flags, assigned

    def param(self, code: str) -> float:
        """A parameter's value, INF when the content raises it or no balance is known."""
        if self.balance is None or code in self.raised:
            return INF
        return getattr(self.balance, code)

    def age(self) -> Bound:
        """刻's wall: 0 … 寿命上限 (or 初期刻), 200 when unknown or raised."""
        if self.balance is None or "lifespan_cap" in self.raised:
            return Bound(0, vocab.YEAR_BOUND, f"{AGE}は 0〜{vocab.YEAR_BOUND}（{YEAR}の上限）")
        cap = max(self.balance.lifespan_cap, self.balance.start_age)
        return Bound(0, cap, f"{AGE}は 0〜{cap}（{W.variable.lifespan_cap}）")

    def steps(self) -> Bound:
        """歩's wall: 0 … 歩の規定量 + 歩の持ち越し, unbounded when unknown or raised."""
        if self.balance is None or {"steps", "steps_quota", "steps_carry"} & self.raised:
            return Bound(0, INF, f"{STEPS}は 0 以上")
        most = self.balance.steps_quota + self.balance.steps_carry
        return Bound(0, most, f"{STEPS}は 0〜{most}（{W.variable.steps_quota}と{W.variable.steps_carry}）")

    def of(self, key: tuple) -> Bound | None:
        """The wall of a quantity other than 刻, 歩 and |銘 − 刻| (None: none known)."""
        kind = key[0]
        if kind == "flag":
            return None if key[1] in self.flags else Bound(
                0, 0, f"@{key[1]} はどの作用も変えないので 0 のまま")
        if kind == "counter":
            return None if key[1] in SIGNED_COUNTERS else Bound(0, INF, "累計量は 0 以上")
        if kind in ("region", "page"):
            parts = next(r.parts for r in vocab.REGIONS if r.code == key[1])
            if kind == "region" and parts == ("hand",):
                cap = self.param("hand_cap")
                return Bound(1, cap, f"{W.region.hand}はこのページを含めて 1 以上" + (
                    f"、{W.variable.hand_cap} {cap:g} 以下" if cap < INF else ""))
            return Bound(0, INF, "枚数は 0 以上")
        if kind == "attr":
            return Bound(0, vocab.YEAR_BOUND, f"{YEAR}は 0〜{vocab.YEAR_BOUND}")
        if kind == "variable" and key[1] in VARIABLE_WALLS:
            cap_key, low = VARIABLE_WALLS[key[1]]
            cap = self.param(cap_key) if cap_key else INF
            return Bound(low, cap, f"{q.VARIABLES[key[1]]}は {low}" + (
                f"〜{cap:g}" if cap < INF else " 以上"))
        return None


def findings(content: Content) -> list[Finding]:
    """Every face of the content whose conditions cannot hold together (W008)."""
    walls = Walls(content)
    found = []
    for page in content.pages.values():
        for side, place, conditions in _faces(page):
            why = _impossible(page, side, conditions, walls)
            if why is not None:
                message, data = why
                found.append(Finding(
                    "W008", "page", page.id, _line(page, place),
                    f"{SIDE_NAMES[side]}は出せません: {message}", _hint(data),
                    {"side": side, "place": place, **data}))
    return found


def _hint(data: dict) -> str:
    """What to change: the page's 銘 only where it bounds the quantity (刻, |銘 − 刻|
    and the 歩 it pays) — a 手札 or a flag is no matter of 銘 — and one of two
    conditions that exclude each other (跨ぐ, 跨がない)."""
    quantity = data.get("quantity")
    if quantity is None:
        return "同時には成り立たない条件のどちらかを消してください"
    if quantity in (AGE, DISTANCE, STEPS):
        return HINT
    return f"条件の数値を、{quantity}が取りうる範囲に合わせてください"


def _faces(page):
    """(side, place, conditions) of each face as dealt that is written with conditions,
    and of each pen that writes a blank face whole."""
    for side, face in page.faces.items():
        if face.written and face.conditions:
            yield side, side, face.conditions
        pen = page.pens.get(side)
        if not face.written and pen is not None and pen.conditions:
            yield side, f"pen:{side}", pen.conditions


def _impossible(page, side: str, conditions, walls: Walls):
    """Why the conditions cannot hold together on ``side`` (message, data), or None."""
    bounds: dict[tuple, list[Bound]] = {}
    labels: dict[tuple, str] = {}
    words = {cond.test for cond in conditions}
    if {"crosses", "not_crosses"} <= words:
        words_said = [W.condition_word.crosses, W.condition_word.not_crosses]
        return ("条件「{}」と「{}」は同時には成り立ちません".format(*words_said),
                {"conditions": words_said})
    for cond in conditions:
        if cond.test == "compare":
            for (a, op, b) in zip(cond.terms, cond.ops, cond.terms[1:]):
                ref, op, c = (b, FLIP[op], a) if isinstance(a, Const) else (a, op, b)
                if isinstance(ref, Const) or not isinstance(c, Const) or op not in BOUNDS:
                    continue
                k = q.key(ref)
                labels[k] = q.label(ref)
                low, high = BOUNDS[op](c.value)
                bounds.setdefault(k, []).append(Bound(low, high, f"条件「{q.said(cond)}」"))
    age, distance, steps = ("variable", "age"), ("variable", "distance"), ("variable", "steps")
    labels.update({age: AGE, distance: DISTANCE, steps: STEPS})
    # 刻: its wall, the side, the conditions.
    found = bounds.setdefault(age, [])
    found.append(walls.age())
    if page.id not in walls.assigned:
        year = page.year
        found.append(Bound(-INF, year, f"{SIDE_NAMES[side]}が発動するのは {AGE} ≤ {YEAR} {year} のとき")
                     if side == "future" else
                     Bound(year, INF, f"{SIDE_NAMES[side]}が発動するのは {AGE} ≥ {YEAR} {year} のとき"))
    clash = _clash(labels[age], found)
    if clash:
        return clash
    # |銘 − 刻| follows from 刻 (when the 銘 is the page's own).
    found = bounds.setdefault(distance, [Bound(0, INF, f"{DISTANCE} は 0 以上")])
    if page.id not in walls.assigned:
        low, high = _meet(bounds[age])
        d = sorted(abs(page.year - a) for a in (low, high))
        near = 0 if low <= page.year <= high else d[0]
        found.append(Bound(near, d[1], f"{AGE}が {low:g}〜{high:g} なら {DISTANCE} は {near:g}〜{d[1]:g}"))
    if "crosses" in words:
        found.append(Bound(2, INF, f"条件「{W.condition_word.crosses}」は {DISTANCE} ≥ 2 を求める（{W.variable.seat}を挟む）"))
    clash = _clash(labels[distance], found)
    if clash:
        return clash
    # 歩: its wall, and the distance it pays when nothing changes the payment.
    found = bounds.setdefault(steps, [])
    found.append(walls.steps())
    if "payment_mul" not in walls.raised:
        low = _meet(bounds[distance])[0]
        found.append(Bound(low, INF, f"この{W.scope.play}の {DISTANCE} ≥ {low:g} を払う{STEPS}"))
    clash = _clash(labels[steps], found)
    if clash:
        return clash
    for k, found in bounds.items():
        wall = walls.of(k) if k not in (age, distance, steps) else None
        clash = _clash(labels[k], found + ([wall] if wall else []))
        if clash:
            return clash
    for cond in conditions:
        if cond.test == "nonzero":
            k = q.key(cond.terms[0])
            wall = walls.of(k)
            if wall is not None and wall.low == wall.high == 0:
                return (f"条件「{q.said(cond)}」は 0 でないことを求めますが、{wall.why}",
                        {"conditions": [q.said(cond)], "quantity": q.label(cond.terms[0])})
    return None


def _meet(found: list[Bound]) -> tuple[float, float]:
    return max(b.low for b in found), min(b.high for b in found)


def _clash(label: str, found: list[Bound]):
    """(message, data) when the bounds on one quantity leave nothing, else None."""
    low, high = _meet(found)
    if low <= high:
        return None
    lower = max(found, key=lambda b: b.low)
    upper = min(found, key=lambda b: b.high)
    message = (f"{label} ≥ {lower.low:g}（{lower.why}）と {label} ≤ {upper.high:g}"
               f"（{upper.why}）は同時には成り立ちません")
    return message, {"quantity": label, "low": lower.low, "high": upper.high,
                     "conditions": [lower.why, upper.why]}


def _line(page, place: str) -> int | None:
    """The line of the face's first 条件 (else of the face), from the page's source."""
    source = page.source
    if not source.text:
        return None
    side = place.split(":")[-1]
    words = f"({SIDE_NAMES[side]}|{side})"
    head = rf"^\s*(ペン|pen)\s+{words}" if place.startswith("pen:") else rf"^\s*{words}\b"
    lines = source.text.splitlines()
    start = next((i for i, text in enumerate(lines) if re.search(head, text)), None)
    if start is None:
        return None
    for i in range(start, len(lines)):
        if re.search(r"(^|[\s{;])(条件|if)\s", lines[i].split("#")[0]):
            return source.line + i
        if i > start and re.search(r"^\s*}", lines[i]):
            break
    return source.line + start
