"""比較 — what a page costs and gives at typical 刻, for the catalog's compare table and
its sortable table of the whole pool.

Typical 刻 (``typical_ages``): 0, the run's 初期刻, and the quarters of the line up to
寿命上限 (with the bundled balance: 0, 20, 40, 60, 80). At each, a page's play costs
|銘 − 刻| 歩 and fires the face the battle's rule picks (runtime/sides.py); it cannot be
played at any 刻 when its 銘 is beyond 寿命上限 (a year the player does not live to, as the
battle refuses it), nor there when that face is blank or the cost is over 歩の規定量 (a
whole turn's 歩, before any page raises it). Tearing it there gives |銘 − 刻| × 綻び倍率 年 of 綻び
(truncated, as the battle does) and its 破却効果 grown ×(1 + 破却係数 × 距離); a pen gives
ペンの綻び whatever the 刻. A play condition a bare board decides — one that compares
刻 or |銘 − 刻| with numbers (``40 ≤ 刻 ≤ 59``, ``|銘 − 刻| ≥ 25``) — keeps its face from
firing where it fails; one that only a battle knows (歩, the hand, a crossing …) is named
beside the face it holds (``pending``), and modifiers are not applied: the figures are the
page's own, at a bare board.
"""

from __future__ import annotations

import operator

from contract import vocabulary as vocab
from contract.tables import Const, DistanceRef, VariableRef
from contract.vocabulary import W
from runtime.bounds import land
from runtime.sides import active_sides
from runtime.tearing import tear_scale

from .phrasing import EXCESS_GROWS, condition_text


def _face(side: str) -> str:
    """The name of a face by its code (未来面), as the vocabulary spells it."""
    return getattr(W.face, side)


def typical_ages(balance) -> tuple[int, ...]:
    """0, 初期刻 and the quarters of 0..寿命上限, each once, in order."""
    cap = balance.lifespan_cap
    return tuple(sorted({0, balance.start_age, *(cap * q // 4 for q in range(1, 5))}))


#: A comparison of a condition, by its operator.
COMPARE = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
           "==": operator.eq, "!=": operator.ne}


def _on_board(term, page, age: int) -> float | None:
    """What a bare board at 刻 ``age`` reads of a condition's term: a number, 刻, or
    |銘 − 刻| of the page's own 銘; None for what only a battle knows."""
    if isinstance(term, Const):
        return term.value
    if isinstance(term, VariableRef) and term.variable == "age":
        return age
    if isinstance(term, DistanceRef) or (isinstance(term, VariableRef)
                                         and term.variable == "distance"):
        return abs(page.year - age)  # |銘 − 刻| or 距離: one quantity, written two ways
    return None


def _holds(cond, page, age: int) -> bool | None:
    """Whether ``cond`` holds at 刻 ``age`` on a bare board: False when a comparison it
    can read fails, True when it reads every one and all hold, else None (the battle's)."""
    if cond.test != "compare":
        return None
    values = [_on_board(term, page, age) for term in cond.terms]
    known = True
    for a, op, b in zip(values, cond.ops, values[1:]):
        if a is None or b is None:
            known = False
        elif not COMPARE[op](a, b):
            return False
    return True if known else None


def play_at(page, age: int, balance) -> dict:
    """Playing ``page`` at 刻 ``age`` on a bare board: its cost in 歩, the faces that
    fire, why it cannot be played there (``None`` when it can), and the conditions of
    the firing faces only a battle decides (``pending``: their words)."""
    cost = abs(page.year - age)
    sides = active_sides(page.year, age)
    written = [s for s in sides if page.faces[s].written]
    failed = {s: [c for c in page.faces[s].conditions if _holds(c, page, age) is False]
              for s in written}
    firing = [s for s in written if not failed[s]]
    why = None
    cap = balance.lifespan_cap
    if page.year > cap:  # the battle refuses it first, whatever the 刻 (playing._blocked)
        why = f"生きない年: {W.variable.year} {page.year} は{W.variable.lifespan_cap} {cap} の先"
    elif not written:
        why = f"{'・'.join(_face(s) for s in sides)}が{vocab.KEYWORDS['blank'][0]}"
    elif not firing:  # every written face's condition fails at this 刻
        why = f"{vocab.KEYWORDS['cond'][0]} " + "・".join(
            f"「{condition_text(c)}」" for s in written for c in failed[s][:1])
    elif cost > balance.steps_quota:
        why = f"{W.variable.steps_quota} {balance.steps_quota} より遠い"
    pending = [condition_text(c) for s in firing for c in page.faces[s].conditions
               if _holds(c, page, age) is None]
    return {"age": age, "cost": cost, "faces": "→".join(_face(s) for s in firing),
            "why": why, "pending": pending}


def tear_at(page, age: int, balance) -> dict:
    """Tearing ``page`` at 刻 ``age``: the 綻び it gives and its 破却効果's scale (none for a
    page with both faces blank: it gives 綻び only)."""
    distance = abs(page.year - age)
    blank = not any(face.written for face in page.faces.values())
    return {"age": age, "fray": land(distance * page.fray_mul),
            "scale": None if blank or not page.tear
            else round(tear_scale(balance.tear_scale, distance), 3),
            # a multiplier grows by its excess over 1 (runtime.tearing): said beside ×scale
            "excess": EXCESS_GROWS if any(effect.op == "mul" for effect in page.tear or ())
            else None}
