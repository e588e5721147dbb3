"""比較 — what a page costs and gives at typical 刻, for the catalog's compare table and
its sortable table of the whole pool.

Typical 刻 (``typical_ages``): 0, the run's 初期刻, and the quarters of the line up to
寿命上限 (with the bundled balance: 0, 20, 40, 60, 80). At each, a page's play costs
|銘 − 刻| 歩 and fires the face the battle's rule picks (runtime/sides.py); it cannot be
played at any 刻 when its 銘 is beyond 寿命上限 (a year the player does not live to, as the
battle refuses it), nor there when that face is blank or the cost is over 歩の規定量 (a
whole turn's 歩, before any page raises it). Tearing it there gives |銘 − 刻| × 綻び倍率 年 of 綻び
(truncated, as the battle does) and its 破却効果 grown ×(1 + 破却係数 × 距離); a pen gives
ペンの綻び whatever the 刻. Conditions and modifiers that only a battle knows are not
applied: the figures are the page's own, at a bare board.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.vocabulary import W
from runtime.bounds import land
from runtime.sides import active_sides
from runtime.tearing import tear_scale

from .phrasing import EXCESS_GROWS


def _face(side: str) -> str:
    """The name of a face by its code (未来面), as the vocabulary spells it."""
    return getattr(W.face, side)


def typical_ages(balance) -> tuple[int, ...]:
    """0, 初期刻 and the quarters of 0..寿命上限, each once, in order."""
    cap = balance.lifespan_cap
    return tuple(sorted({0, balance.start_age, *(cap * q // 4 for q in range(1, 5))}))


def play_at(page, age: int, balance) -> dict:
    """Playing ``page`` at 刻 ``age`` on a bare board: its cost in 歩, the faces that
    fire, and why it cannot be played there (``None`` when it can)."""
    cost = abs(page.year - age)
    sides = active_sides(page.year, age)
    firing = [s for s in sides if page.faces[s].written]
    why = None
    cap = balance.lifespan_cap
    if page.year > cap:  # the battle refuses it first, whatever the 刻 (playing._blocked)
        why = f"生きない年: {W.variable.year} {page.year} は{W.variable.lifespan_cap} {cap} の先"
    elif not firing:
        why = f"{'・'.join(_face(s) for s in sides)}が{vocab.KEYWORDS['blank'][0]}"
    elif cost > balance.steps_quota:
        why = f"{W.variable.steps_quota} {balance.steps_quota} より遠い"
    return {"age": age, "cost": cost, "faces": "→".join(_face(s) for s in firing),
            "why": why}


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
