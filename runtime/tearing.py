"""破却の強化 — how a torn page's 作用 grow with the tear's distance (spec 000: 破却効果は
距離で強化): the scale, 1 + 破却係数 × 距離, and a base value grown by it — a multiplier by
its excess over 1 (DESIGN §6.1), so that 攻撃倍率 *= 1.2 torn at ×2.75 lands as ×1.55,
not ×3.3. The battle grows its tear effects by it (runtime/sayou.py); the catalog and the
battle screen say what a tear lands as by it. Standard library only, pure.
"""

from __future__ import annotations


def tear_scale(coefficient: float, distance: int) -> float:
    """The scale of a tear at ``distance`` from 刻, by the balance's 破却係数."""
    return 1 + coefficient * distance


def grown(op: str, value: float, scale: float) -> float:
    """A 作用's base value as a tear at ``scale`` lands it: a multiplier (``op`` "mul")
    grows by its excess over 1, anything else as a whole."""
    return 1 + (value - 1) * scale if op == "mul" else value * scale
