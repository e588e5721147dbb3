"""数の範囲 — the one table of bounds every number of a run's state stays within.

A save holds what a battle reached, and the loader (runtime/save.py) refuses any number
outside these bounds; so the battle keeps every number inside them where it lands
(``clamp``), and a state the rules reach can always be saved and loaded. Rules may grow a
number without end (``敵HP *= 100 毎 ターン開始時 範囲 ラン``): it stops at the bound.

Floats never leave the finite range either: every product of the rules is made of
bounded factors (state values, counters, and values that passed ``bounded``), so it
cannot overflow before it is clamped, and a power (綻び rewards granted n times at once)
is clamped before it is taken (``power``). Standard library only, pure.
"""

from __future__ import annotations

import math

#: The largest magnitude of any number in a run: counts and years are far below it,
#: and products of two such numbers stay far inside a float's finite range (1e308).
MAX_MAGNITUDE = 10 ** 18

_ANY = (-MAX_MAGNITUDE, MAX_MAGNITUDE)
_COUNT = (0, MAX_MAGNITUDE)

#: Value of the state (named as a save names it, under ``state.``) → (lowest, highest).
#: The loader checks a saved value against its row; the runtime clamps into it where
#: the value lands.
BOUNDS = {
    "seed": (-2 ** 63, 2 ** 64 - 1),  # a run's seed: the shuffle stream mixes 64 bits
    "age": _COUNT,
    "hp": _COUNT,  # the player's HP never goes below 0 (DESIGN §6.2)
    "steps": _COUNT,
    "steps_carried": _COUNT,
    "currency": _COUNT,
    "fray_run": _COUNT,
    "fray_stage": _COUNT,
    "rewards_given": _COUNT,
    "turn": _COUNT,
    "turns_run": _COUNT,
    "plays_run": _COUNT,
    "pens_used": _COUNT,
    "tears_used": _COUNT,
    "same_age_plays": _COUNT,
    "suppress": _COUNT,
    "defense.value": _COUNT,  # each value of the defense multiset
    "params": _COUNT,  # a rule parameter's balance value
    "mods.value": _ANY,  # a lifetime-bound change of a parameter, flag or 銘
    "counters": _ANY,  # a 累計量, the run's, a mark's or an anchor's
    "effects.scale": _COUNT,  # 破却's distance scale of a placed 作用
    "effects.fires": _COUNT,
    "effects.distance": _COUNT,
    "telegraph.amount": _ANY,
    "telegraph.to": _COUNT,
    "enemy.hp": _ANY,
    "enemy.seat": _COUNT,
}


def clamp(name: str, value) -> int:
    """``value`` landed on the state's ``name`` (a row of BOUNDS): truncated toward zero
    and kept within the row's bounds (NaN, which no rule makes, lands as 0) — read as
    decimal arithmetic has it, as ``land`` reads it."""
    low, high = BOUNDS[name]
    if low <= value <= high:
        return math.trunc(round(value, LANDING_DIGITS))
    return high if value > high else low if value < low else 0


def bounded(value):
    """A value the rules compute with, kept within ±MAX_MAGNITUDE (a float stays a
    float, for the intermediate values spec 002 keeps unrounded); NaN becomes 0."""
    if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return value
    return MAX_MAGNITUDE if value > 0 else -MAX_MAGNITUDE if value < 0 else 0


def land(value) -> int:
    """Floor toward zero where a value lands (spec 002 計算式), within ±MAX_MAGNITUDE — of
    the value as decimal arithmetic has it: 45 × 1.4 is 63 on paper and 62.99999999999999
    in binary floating point, and a designer's 63 must not land as 62 (LANDING_DIGITS)."""
    if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return math.trunc(round(value, LANDING_DIGITS))
    return MAX_MAGNITUDE if value > 0 else -MAX_MAGNITUDE if value < 0 else 0


#: The decimals a value is read to before it lands: far past any the content writes (a
#: coefficient of a few decimals times a count), far short of a double's 15–17, where a
#: product's representation error lies.
LANDING_DIGITS = 9


def power(value: float, times: int) -> float:
    """``value ** times`` (n multiplications at once), within ±MAX_MAGNITUDE — found
    out before it is taken, since a float power past 1e308 raises rather than
    overflowing to infinity."""
    magnitude = abs(value)
    if magnitude > 1 and times * math.log10(magnitude) > 18:
        return -MAX_MAGNITUDE if value < 0 and times % 2 else MAX_MAGNITUDE
    return value ** times
