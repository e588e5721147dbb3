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
from typing import NamedTuple

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
class Adjustment:
    """A regression adjustment of a paired Δ (``control``): ``shift`` is subtracted from
    Δ, ``shrink`` multiplies its variance."""

    shift: float
    shrink: float


@dataclass(frozen=True)
class Paired:
    """The four cells of paired outcomes: both won, only the variant, only the baseline,
    neither."""

    both: int
    variant_only: int
    baseline_only: int
    neither: int
    #: The normal quantile of the interval: Z95, or a look's stricter one when the page
    #: stopped early (``look_z``).
    z: float = Z95
    #: The regression adjustment on the baseline battles (``control``): subtracted from
    #: Δ, and the factor on its variance. None: no adjustment.
    adjustment: Adjustment | None = None

    @property
    def n(self) -> int:
        """How many pairs."""
        return self.both + self.variant_only + self.baseline_only + self.neither

    @property
    def delta(self) -> float:
        """Δ win rate, variant minus baseline (regression-adjusted when ``adjustment``)."""
        shift = self.adjustment.shift if self.adjustment else 0.0
        return (self.variant_only - self.baseline_only) / self.n - shift if self.n else 0.0

    def interval(self, z: float | None = None) -> Interval:
        """Δ with Agresti–Min's adjusted Wald interval, clipped to [−1, 1] (``z``: the
        pairs' own when not given)."""
        z = self.z if z is None else z
        b, c, n = self.variant_only + 0.5, self.baseline_only + 0.5, self.n + 2
        adjusted = (b - c) / n
        variance = max(0.0, ((b + c) - (b - c) ** 2 / n) / (n * n))
        if self.adjustment is not None:
            adjusted -= self.adjustment.shift
            variance *= self.adjustment.shrink
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


def pairs_needed(discordance: float, delta: float, precision: float, z: float = Z95,
                 shrink: float = 1.0) -> int:
    """Roughly how many pairs give an interval of half-width ``precision`` when a fraction
    ``discordance`` of pairs disagree and the difference is ``delta``; ``shrink``: the
    regression adjustment's factor on the variance (``Adjustment.shrink``), which the
    interval will have too."""
    variance = max(discordance - delta * delta, 1e-6) * shrink
    return max(1, math.ceil(z * z * variance / (precision * precision)))


def pairs_to_settle(discordance: float, delta: float, z: float, shrink: float = 1.0) -> int:
    """Roughly how many pairs put 0 outside an interval of quantile ``z`` when the
    difference is ``delta`` (the next look's, ``look_z``), with a quarter more for the
    estimate's own error: a page whose Δ is far from 0 is planned to where its verdict
    settles rather than to the full precision. Huge (never the smaller plan) when Δ is 0.
    ``shrink`` as in ``pairs_needed``."""
    if delta == 0:
        return 10 ** 9
    variance = max(discordance - delta * delta, 1e-6) * shrink
    return max(1, math.ceil(1.25 * z * z * variance / (delta * delta)))


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


# ------------------------------------------------------------------ stopping early

#: The error a lab run may spend on stopping pages early: look k (1, 2, …) of a page
#: spends EARLY_ALPHA / 2**k, so all its looks together spend at most EARLY_ALPHA.
EARLY_ALPHA = 0.02


def look_z(look: int) -> float:
    """The normal quantile a page's ``look``-th round (1, 2, …) must clear to stop early.

    Why: a page whose verdict is clear long before its interval is as narrow as asked
    (Δ = 0.15 needs ~200 pairs to exclude 0, ~1,000 to reach ±3 pt) need not play on —
    but looking at an interval after every round and stopping when it excludes 0 is
    optional stopping, which inflates the error. So each look stops on a stricter
    interval, at level EARLY_ALPHA / 2**look (a Bonferroni spending: the looks' levels sum
    to EARLY_ALPHA whatever the number of rounds), and a page that stops early reports
    that stricter interval. Every early stop's interval then covers Δ, for all looks at
    once, with probability ≥ 1 − EARLY_ALPHA, and a page that plays on to the asked
    precision reports its 95% interval as before: the report's intervals stay valid
    (tests/test_sim_stats.py measures their coverage on pairs of a known Δ)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - EARLY_ALPHA / 2 ** look / 2)


def settled(interval: Interval, target: dict | None = None) -> bool:
    """Neither the verdict nor the 目標 status can change with more pairs: the interval
    excludes 0 (stronger or weaker), and it lies inside or wholly outside the target,
    touching neither of its bounds (an interval that touches 0 or a bound plays on to
    the precision asked)."""
    if interval.low <= 0 <= interval.high:
        return False
    return target is None or target_met(interval, target["low"], target["high"]) is not None


class Judged(NamedTuple):
    """What a page's pairs say after a round: ``done`` (precise, out of pairs, or
    settled early), the quantile ``z`` of the interval to report, and the pairs it
    still ``needed`` in all when not done."""

    done: bool
    z: float
    needed: int


def judge(paired: Paired, look: int, precision: float, max_pairs: int,
          target: dict | None = None) -> Judged:
    """A page's state after its ``look``-th round (1, 2, …): done at the precision asked
    or at ``max_pairs`` (its 95% interval), done early when ``settled`` on the look's
    stricter interval (``look_z``, reported), else the pairs it needs — to the precision,
    or fewer when Δ is far enough from 0 for the next look to settle it."""
    interval = paired.interval(Z95)
    if interval.half_width <= precision or paired.n >= max_pairs:
        return Judged(True, Z95, paired.n)
    strict = look_z(look)
    if settled(paired.interval(strict), target):
        return Judged(True, strict, paired.n)
    discordance = (paired.variant_only + paired.baseline_only) / paired.n
    # The interval's variance is the pairs' times the adjustment's shrink: plan on it, or
    # a page plays a round further than its interval needs.
    shrink = paired.adjustment.shrink if paired.adjustment is not None else 1.0
    needed = pairs_needed(discordance, paired.delta, precision, shrink=shrink)
    if target is None:  # a target's bounds settle on their own terms: to the precision
        needed = min(needed, pairs_to_settle(discordance, paired.delta, look_z(look + 1),
                                             shrink))
    return Judged(False, Z95, needed)


def round_size(done: int, needed: int, batch: int, most: int, chunk: int) -> int:
    """The size of an entry's next round: what it still needs, at least ``batch`` more,
    at most four times what it has (an estimate from few pairs may be far off), at most
    ``most``, in whole chunks."""
    grow = min(max(needed, done + batch), 4 * done)
    return min(most, math.ceil(grow / chunk) * chunk)


# ------------------------------------------------------------------ control variates


def control(deltas: list[float], covariates: list[tuple], outside: tuple, total: int
            ) -> Adjustment | None:
    """The regression adjustment (control variates) of a page's paired Δ on what its
    pairs' baseline battles did — won, HP lost, turns …: ``covariates[i]`` of pair i,
    whose Δ is ``deltas[i]``; ``outside``: the covariates' means over all ``total``
    baseline battles of the phase (the pairs' n of them and the ones played beyond).

    Why: the baseline is one deck shared by every page, so playing it further than the
    pages costs little, and whether the baseline won a seed tells much of that seed's Δ
    (a seed it won can only be lost by the variant, and the other way round). Δ̂ −
    β·(x̄ₙ − x̄_N) estimates the same Δ (x̄ₙ and x̄_N have the same mean: the pairs' seeds
    are the first n of the baseline's N, the enemies in the same proportions — the caller
    gives x̄_N stratified by enemy), with β the least-squares slope of Δ on x over the
    pairs, and its variance is Var(Δ̂)·(1 − (1 − n/N)·R²), R² the share of Δ's variance
    the covariates explain. With N = n it is Δ̂ itself (None). The interval keeps its
    coverage (tests/test_sim_stats.py, on pairs of a known Δ)."""
    n = len(deltas)
    if n < 20 or total <= n:
        return None
    k = len(outside)
    mean_d = sum(deltas) / n
    means = [sum(x[j] for x in covariates) / n for j in range(k)]
    keep = [j for j in range(k)
            if any(x[j] != covariates[0][j] for x in covariates)]  # constant: no slope
    if not keep:
        return None
    cov = [[sum((x[a] - means[a]) * (x[b] - means[b]) for x in covariates) / (n - 1)
            for b in keep] for a in keep]
    cross = [sum((x[a] - means[a]) * (d - mean_d) for x, d in zip(covariates, deltas))
             / (n - 1) for a in keep]
    var_d = sum((d - mean_d) ** 2 for d in deltas) / (n - 1)
    beta = _solve(cov, cross)
    if beta is None or var_d <= 0:
        return None
    explained = min(max(sum(b * c for b, c in zip(beta, cross)) / var_d, 0.0), 0.99)
    shift = sum(b * (means[j] - outside[j]) for b, j in zip(beta, keep))
    return Adjustment(shift, 1 - (1 - n / total) * explained)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """The solution of a small symmetric system (Gaussian elimination with partial
    pivoting), or None when it is singular."""
    size = len(vector)
    rows = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][size] / rows[i][i] for i in range(size)]

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
