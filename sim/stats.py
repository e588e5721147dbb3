"""統計 — the intervals and verdicts of the balance lab: a win rate, and the change in win
rate between two decks played on the same seeds (paired outcomes).

A battle counts as a win or not (a loss or a draw at the turn cap). For paired battles —
the same seed played by the baseline deck and by the variant — only the *discordant*
pairs carry information about the difference: ``b`` seeds the variant won and the
baseline did not, ``c`` the other way round. Δ = (b − c) / n, and its variance is
((b + c)/n − Δ²)/n, far below that of two independent samples when most seeds agree
(``pairing_gain``). The interval is Agresti and Min's adjusted Wald interval for paired
proportions (2005: half a pair added to each of the four cells), which keeps its 95%
coverage with few discordant pairs where the plain Wald interval does not; McNemar's z is
given beside it. A single win rate gets Wilson's score interval.

Every function is pure arithmetic on counts: the same counts, the same figures. The
rounding (``rounded``, ``ratio``), ``mean`` and ``median`` are the ones both labs' reports
give (sim/lab.py, journey/lab/measure.py): one statistics module for every game.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval (fractions: 0.05 is 5 points)."""

    estimate: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the interval's width: the precision reached."""
        return (self.high - self.low) / 2

    def to_dict(self) -> dict:
        """Plain values for the report, rounded to 6 places (the report is compared byte
        for byte; no figure needs more)."""
        return {"estimate": rounded(self.estimate), "low": rounded(self.low),
                "high": rounded(self.high)}


#: The places every figure of a report is rounded to (the reports are compared byte for
#: byte; no figure needs more).
PLACES = 6


def rounded(value: float) -> float:
    """A figure as the reports give it: rounded to PLACES."""
    return round(value, PLACES)


def ratio(part: float, whole: float) -> float | None:
    """``part`` per ``whole`` (damage per play, HP lost per turn …), rounded; None when
    ``whole`` is 0."""
    return rounded(part / whole) if whole else None


def mean(values) -> float | None:
    """The mean of ``values`` (any iterable of numbers), rounded to 6 places as the
    reports' figures are; None for none."""
    values = list(values)
    return ratio(sum(values), len(values))


def median(values) -> float | None:
    """The median of ``values`` (the mean of the two middle ones for an even count),
    rounded as ``mean``; None for none — one figure for the terminal and the page."""
    values = list(values)
    return rounded(statistics.median(values)) if values else None


def middle(values: list[int]) -> int:
    """The upper middle of a non-empty list of counts: a median that is one of them (the
    pairs a page is planned to need)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def wilson(wins: int, n: int, z: float = Z95) -> Interval:
    """勝率: ``wins`` of ``n`` battles, with Wilson's score interval (n = 0: all of [0, 1])."""
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(p, max(0.0, centre - spread), min(1.0, centre + spread))


@dataclass(frozen=True)
class Paired:
    """The four cells of paired outcomes: both won, only the variant, only the baseline,
    neither."""

    both: int
    variant_only: int
    baseline_only: int
    neither: int

    @property
    def n(self) -> int:
        """How many pairs."""
        return self.both + self.variant_only + self.baseline_only + self.neither

    @property
    def delta(self) -> float:
        """Δ win rate, variant minus baseline."""
        return (self.variant_only - self.baseline_only) / self.n if self.n else 0.0

    def interval(self, z: float = Z95) -> Interval:
        """Δ with Agresti–Min's adjusted Wald interval, clipped to [−1, 1]."""
        b, c, n = self.variant_only + 0.5, self.baseline_only + 0.5, self.n + 2
        adjusted = (b - c) / n
        variance = max(0.0, ((b + c) - (b - c) ** 2 / n) / (n * n))
        spread = z * math.sqrt(variance)
        return Interval(self.delta, max(-1.0, adjusted - spread), min(1.0, adjusted + spread))

    @property
    def mcnemar_z(self) -> float | None:
        """McNemar's statistic (b − c)/√(b + c); None without discordant pairs."""
        discordant = self.variant_only + self.baseline_only
        if discordant == 0:
            return None
        return (self.variant_only - self.baseline_only) / math.sqrt(discordant)

    def win_rates(self) -> tuple[float, float]:
        """(variant, baseline) win rates."""
        if not self.n:
            return 0.0, 0.0
        return ((self.both + self.variant_only) / self.n,
                (self.both + self.baseline_only) / self.n)

    @property
    def pairing_gain(self) -> float | None:
        """How many times as many battles two independent samples would need for the same
        precision: their variance over the paired one (None when either is 0)."""
        if not self.n:
            return None
        variant, baseline = self.win_rates()
        unpaired = (variant * (1 - variant) + baseline * (1 - baseline)) / self.n
        discordant = (self.variant_only + self.baseline_only) / self.n
        paired = (discordant - self.delta ** 2) / self.n
        if paired <= 0 or unpaired <= 0:
            return None
        return unpaired / paired


def pairs_needed(discordance: float, delta: float, precision: float, z: float = Z95) -> int:
    """Roughly how many pairs give an interval of half-width ``precision`` when a fraction
    ``discordance`` of pairs disagree and the difference is ``delta``."""
    variance = max(discordance - delta * delta, 1e-6)
    return max(1, math.ceil(z * z * variance / (precision * precision)))


def battles_needed(rate: float, precision: float, z: float = Z95) -> int:
    """Roughly how many battles give a win-rate interval of half-width ``precision``."""
    return max(1, math.ceil(z * z * max(rate * (1 - rate), 1e-6) / (precision * precision)))


#: 判定 — what an interval of Δ says, and its word in the reports.
VERDICTS = {"stronger": "強い", "weaker": "弱い", "no_effect": "差なし", "undecided": "未決"}


def verdict(interval: Interval, precision: float) -> str:
    """stronger (the whole interval above 0), weaker (below), no_effect (0 inside an
    interval at least as precise as asked), undecided (0 inside, not yet that precise)."""
    if interval.low > 0:
        return "stronger"
    if interval.high < 0:
        return "weaker"
    return "no_effect" if interval.half_width <= precision + 1e-12 else "undecided"


#: 目標の判定 — what ``target_met`` says, and its word in the reports.
TARGET_WORDS = {True: "達成", False: "未達", None: "未決"}


def target_met(interval: Interval, low: float, high: float) -> bool | None:
    """目標: True when the interval lies inside [low, high], False when it lies wholly
    outside, None when it straddles an end (not precise enough to say)."""
    if low <= interval.low and interval.high <= high:
        return True
    if interval.high < low or interval.low > high:
        return False
    return None


# ------------------------------------------------------------ observed figures
# What card-game communities read first (win rate when drawn, its difference with the
# battles it was not drawn in, turns held): observations, not causes — the page's effect
# is Δ above. Their intervals say how far chance alone could move them.


def newcombe(wins1: int, n1: int, wins2: int, n2: int, z: float = Z95) -> Interval:
    """The difference of two independent proportions, ``wins1/n1 − wins2/n2``, with
    Newcombe's hybrid score interval (Newcombe 1998, "Interval estimation for the
    difference between independent proportions", Statistics in Medicine 17: method 10):
    each proportion's Wilson interval (l, u) combined as
    δ − √((p1 − l1)² + (u2 − p2)²) … δ + √((u1 − p1)² + (p2 − l2)²).
    It keeps its coverage near 95% with few battles or rates near 0 or 1, where the
    plain Wald difference does not; it stays inside [−1, 1]. An empty side (n = 0) has
    the whole of [0, 1] as its interval: the difference is then barely bounded."""
    first, second = wilson(wins1, n1, z), wilson(wins2, n2, z)
    p1, p2 = first.estimate, second.estimate
    delta = p1 - p2
    low = delta - math.sqrt((p1 - first.low) ** 2 + (second.high - p2) ** 2)
    high = delta + math.sqrt((first.high - p1) ** 2 + (p2 - second.low) ** 2)
    return Interval(delta, max(-1.0, low), min(1.0, high))


def t_quantile(df: int, z: float = Z95) -> float:
    """The Student t quantile with ``df`` degrees of freedom matching the normal quantile
    ``z`` (the two-sided 95% one by default): exact for 1 and 2 degrees of freedom, else
    Hill's expansion (Abramowitz and Stegun 26.7.5): within 0.004 of the tables at 3,
    0.001 at 4, 0.0003 from 5 on. No statistics library is needed for it."""
    if df < 1:
        raise ValueError("t_quantile needs at least one degree of freedom")
    p = 0.5 * (1 + math.erf(z / math.sqrt(2)))  # the upper tail's probability level
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def mean_interval(values, z: float = Z95) -> Interval | None:
    """The mean of ``values`` with Student's t interval (mean ± t·s/√n); None for none.
    One value has no spread to measure: its interval is the value alone."""
    values = list(values)
    n = len(values)
    if not n:
        return None
    centre = sum(values) / n
    if n == 1:
        return Interval(centre, centre, centre)
    spread = t_quantile(n - 1, z) * statistics.stdev(values) / math.sqrt(n)
    return Interval(centre, centre - spread, centre + spread)


def ratio_interval(parts, wholes, z: float = Z95) -> Interval | None:
    """Σparts / Σwholes over battles (damage per 歩: each battle's damage and 歩) with
    the delta method's interval for a ratio of sums (the battles independent, the
    ratio's variance Σ(part − R·whole)² / (n − 1) / n / mean(whole)²); None when the
    wholes add to 0."""
    parts, wholes = list(parts), list(wholes)
    n, total = len(parts), sum(wholes)
    if not total:
        return None
    r = sum(parts) / total
    if n == 1:
        return Interval(r, r, r)
    residual = sum((p - r * w) ** 2 for p, w in zip(parts, wholes)) / (n - 1)
    spread = t_quantile(n - 1, z) * math.sqrt(residual / n) / (total / n)
    return Interval(r, r - spread, r + spread)
