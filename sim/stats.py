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

The lab's pairs meet several enemies, and Δ varies far more against some than others: it
treats the enemies as strata of equal weight (``Stratified``), gives each the pairs
Neyman's rule asks (``allocate``), and adjusts each on its baseline battles
(``control_strata``); one stratum is the plain ``Paired`` estimate.

Every function is pure arithmetic on counts: the same counts, the same figures. The
rounding (``rounded``, ``ratio``), ``mean`` and ``median`` are the ones both labs' reports
give (sim/lab.py, journey/lab/measure.py): one statistics module for every game.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import NamedTuple

from contract.target import TARGET_WORDS
from contract.vocabulary import W

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
    Δ, ``shrink`` multiplies its variance and ``added`` is added to it (the adjustment's
    own variance where the pairs' Δ never varied: ``control_strata``)."""

    shift: float
    shrink: float
    added: float = 0.0


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
        centre, variance = self.adjusted()
        spread = z * math.sqrt(variance)
        return Interval(self.delta, max(-1.0, centre - spread), min(1.0, centre + spread))

    def adjusted(self, pseudo: float = 0.5) -> tuple[float, float]:
        """Agresti–Min's centre of Δ and its variance (``pseudo`` pairs added to each cell:
        half a pair, or a stratum's share of it), after the regression adjustment when
        there is one: what ``interval`` spreads, and a stratum's share of
        ``Stratified.interval``."""
        b, c = self.variant_only + pseudo, self.baseline_only + pseudo
        n = self.n + 4 * pseudo
        centre = (b - c) / n
        variance = max(0.0, ((b + c) - (b - c) ** 2 / n) / (n * n))
        if self.adjustment is not None:
            centre -= self.adjustment.shift
            variance = variance * self.adjustment.shrink + self.adjustment.added
        return centre, variance

    def unit_variance(self) -> float:
        """The variance of one pair's Δ (never 0: a pilot without a discordant pair does
        not prove there are none), times the adjustment's shrink: ``pairs_needed``'s."""
        discordance = (self.variant_only + self.baseline_only) / self.n if self.n else 1.0
        shrink = self.adjustment.shrink if self.adjustment is not None else 1.0
        return _pair_variance(discordance, self.delta, shrink)

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
        delta = (self.variant_only - self.baseline_only) / self.n  # the pairs' own, unadjusted
        paired = (discordant - delta ** 2) / self.n
        if paired <= 0 or unpaired <= 0:
            return None
        return unpaired / paired


@dataclass(frozen=True)
class Stratified:
    """Paired outcomes in strata of equal weight — the enemies of the pool: Δ is the mean
    of the strata's Δs, whatever number of pairs each stratum played.

    Why: the pairs' Δ varies far more against some enemies than others (its standard
    deviation runs from 0 against an enemy both decks always beat to 0.8 against the
    hardest on the bundled content). Playing every enemy equally often spends most pairs
    where Δ never varies; Neyman's allocation (``allocation``) plays each stratum in
    proportion to its spread. The strata keep their weight, so Δ is the same quantity as
    round-robin's.

    The spreads that allocate (``shares``) are not the page's own: a stratum given more
    pairs because its first ones disagreed more would dilute just the strata whose first
    pairs strayed, and Δ of binary outcomes strays where it disagrees — the strata's
    averages, and so Δ, were biased (by 5 standard errors of the mean over 300 runs of a
    constructed case; six pages of the bundled content read 差なし where 4,000 fresh pairs
    say 弱い). They are how contested each enemy is for the baseline deck (``contested``),
    the same for every page.

    Each stratum is a ``Paired`` (its own cells and regression adjustment); its centre and
    variance are Agresti–Min's (``Paired.adjusted``) with the half pair per cell shared
    among the strata (``pseudo``): the whole gets the pseudo-pairs one paired interval
    has, so one stratum is exactly ``Paired``, a stratum without discordant pairs still
    counts some variance, and ten strata do not pay ten times the pseudo-pairs' width."""

    strata: tuple[Paired, ...]
    #: The normal quantile of the interval (``Paired.z``).
    z: float = Z95
    #: The allocation's shares, one a stratum (``contested``); None: equal shares.
    shares: tuple[float, ...] | None = None

    @property
    def n(self) -> int:
        """How many pairs, every stratum's."""
        return sum(s.n for s in self.strata)

    @property
    def variant_only(self) -> int:
        """Pairs only the variant won, every stratum's."""
        return sum(s.variant_only for s in self.strata)

    @property
    def baseline_only(self) -> int:
        """Pairs only the baseline won, every stratum's."""
        return sum(s.baseline_only for s in self.strata)

    def _weighted(self, values) -> float:
        return sum(values) / len(self.strata)

    @property
    def pseudo(self) -> float:
        """The pairs added to each cell of each stratum: half a pair shared among them."""
        return 0.5 / len(self.strata)

    @property
    def delta(self) -> float:
        """Δ win rate: the strata's Δs (regression-adjusted) averaged."""
        return self._weighted(s.delta for s in self.strata)

    def interval(self, z: float | None = None) -> Interval:
        """Δ with the strata's Agresti–Min centres averaged and their variances summed with
        the squared weights, clipped to [−1, 1]."""
        z = self.z if z is None else z
        parts = [s.adjusted(self.pseudo) for s in self.strata]
        weight = 1 / len(parts)
        centre = weight * sum(c for c, _ in parts)
        spread = z * weight * math.sqrt(sum(v for _, v in parts))
        return Interval(self.delta, max(-1.0, centre - spread), min(1.0, centre + spread))

    def spreads(self) -> list[float]:
        """Each stratum's standard deviation of one pair's Δ as its interval sees it
        (Agresti–Min's variance times its pairs, adjusted)."""
        return [math.sqrt((s.n + 4 * self.pseudo) * s.adjusted(self.pseudo)[1])
                for s in self.strata]

    def _fractions(self) -> list[float]:
        shares = self.shares or (1.0,) * len(self.strata)
        total = sum(shares)
        return [share / total for share in shares]

    def unit_variance(self) -> float:
        """The variance of Δ times the pairs, when the pairs are allocated by ``allocation``
        (a fraction aⱼ of them to stratum j): Σ wⱼ²·σⱼ²/aⱼ with the strata's own spreads
        σⱼ, so that n pairs give a variance of that over n (``pairs_for``)."""
        weight = 1 / len(self.strata)
        return sum((weight * spread) ** 2 / fraction
                   for spread, fraction in zip(self.spreads(), self._fractions()))

    def allocation(self, total: int) -> tuple[int, ...]:
        """``total`` pairs split over the strata in proportion to ``shares`` (``allocate``),
        none below what it has played."""
        return allocate(total, [s.n for s in self.strata], self._fractions())

    @property
    def mcnemar_z(self) -> float | None:
        """The stratified McNemar statistic: the strata's (b − c)/n averaged, over its
        standard error √Σ(wⱼ²(b + c)/n²); (b − c)/√(b + c) for one stratum; None without
        discordant pairs."""
        played = [s for s in self.strata if s.n]
        if not sum(s.variant_only + s.baseline_only for s in played):
            return None
        top = sum((s.variant_only - s.baseline_only) / s.n for s in played)
        bottom = math.sqrt(sum((s.variant_only + s.baseline_only) / s.n ** 2 for s in played))
        return top / bottom

    def win_rates(self) -> tuple[float, float]:
        """(variant, baseline) win rates, the strata's averaged."""
        rates = [s.win_rates() for s in self.strata]
        return self._weighted(v for v, _ in rates), self._weighted(b for _, b in rates)

    @property
    def pairing_gain(self) -> float | None:
        """``Paired.pairing_gain`` of the stratified estimate: the variance two independent
        samples of the same strata would have over the paired one."""
        unpaired = paired = 0.0
        for s in self.strata:
            if not s.n:
                continue
            variant, baseline = s.win_rates()
            unpaired += (variant * (1 - variant) + baseline * (1 - baseline)) / s.n
            delta = (s.variant_only - s.baseline_only) / s.n
            paired += ((s.variant_only + s.baseline_only) / s.n - delta ** 2) / s.n
        if paired <= 0 or unpaired <= 0:
            return None
        return unpaired / paired


def contested(wins: int, battles: int) -> float:
    """How contested a stratum is for the baseline deck: √(p(1 − p)) of its win rate
    there, with a win and a loss added (Laplace: never 0, an enemy always beaten in 200
    battles still gets 0.07). Neyman's share of a stratum (``Stratified.shares``): the
    spread of a pair's Δ follows it — where the baseline always wins or always loses, a
    page rarely turns a battle — and it reads only the baseline's battles, the same for
    every page."""
    p = (wins + 1) / (battles + 2)
    return math.sqrt(p * (1 - p))


def allocate(total: int, floors: list[int], shares: list[float]) -> tuple[int, ...]:
    """``total`` split in proportion to ``shares`` with no part below its ``floor``
    (water-filling: a part whose share falls below its floor keeps the floor, and the rest
    is shared again), in whole numbers adding to ``total`` (the largest remainders round
    up, the first stratum first on a tie); the floors alone when they add to more."""
    parts = len(floors)
    if total <= sum(floors):
        return tuple(floors)
    fixed: set[int] = set()
    while True:
        free = [j for j in range(parts) if j not in fixed]
        rest = total - sum(floors[j] for j in fixed)
        weight = sum(shares[j] for j in free)
        want = {j: rest * (shares[j] / weight if weight > 0 else 1 / len(free)) for j in free}
        below = {j for j in free if want[j] < floors[j]}
        if not below:
            break
        fixed |= below
    exact = [floors[j] if j in fixed else want[j] for j in range(parts)]
    whole = [math.floor(x) for x in exact]
    order = sorted(range(parts), key=lambda j: (-(exact[j] - whole[j]), j))
    for j in order[:total - sum(whole)]:
        whole[j] += 1
    return tuple(whole)


def pairs_for(unit_variance: float, half_width: float, z: float = Z95) -> int:
    """Roughly how many pairs give an interval of ``half_width`` when one pair's Δ has
    ``unit_variance`` (``Paired.unit_variance``, ``Stratified.unit_variance``)."""
    return max(1, math.ceil(z * z * unit_variance / (half_width * half_width)))


def pairs_needed(discordance: float, delta: float, precision: float, z: float = Z95,
                 shrink: float = 1.0) -> int:
    """Roughly how many pairs give an interval of half-width ``precision`` when a fraction
    ``discordance`` of pairs disagree and the difference is ``delta``; ``shrink``: the
    regression adjustment's factor on the variance (``Adjustment.shrink``), which the
    interval will have too."""
    return pairs_for(_pair_variance(discordance, delta, shrink), precision, z)


def _pair_variance(discordance: float, delta: float, shrink: float) -> float:
    """One pair's variance of Δ, discordance − Δ², never 0, times the adjustment's
    shrink."""
    return max(discordance - delta * delta, 1e-6) * shrink


def pairs_to_settle(unit_variance: float, delta: float, z: float) -> int:
    """Roughly how many pairs put 0 outside an interval of quantile ``z`` when the
    difference is ``delta`` (the next look's, ``look_z``), with a quarter more for the
    estimate's own error: a page whose Δ is far from 0 is planned to where its verdict
    settles rather than to the full precision. Huge (never the smaller plan) when Δ is 0."""
    if delta == 0:
        return 10 ** 9
    return max(1, math.ceil(1.25 * z * z * unit_variance / (delta * delta)))


def battles_needed(rate: float, precision: float, z: float = Z95) -> int:
    """Roughly how many battles give a win-rate interval of half-width ``precision``."""
    return max(1, math.ceil(z * z * max(rate * (1 - rate), 1e-6) / (precision * precision)))


#: 判定 — what an interval of Δ says, and its word in the reports.
VERDICTS = {code: getattr(W.report, code)
            for code in ("stronger", "weaker", "no_effect", "undecided")}


def confidence_of(z: float) -> float:
    """The two-sided level of an interval of normal quantile ``z`` (Z95: 0.95)."""
    from statistics import NormalDist

    return 2 * NormalDist().cdf(z) - 1


#: The mark of an interval wider than its column's [95%] says (a page stopped early: its
#: interval at the stricter level its looks spent), and what the report's notes say of it.
WIDER = "†"
WIDER_NOTE = (f"{WIDER}: 判定が決まって途中で止めたページの区間は、途中で何度も見たぶん広く取っています"
              "（信頼度 {levels}）")


def wider(row: dict) -> str:
    """WIDER when a page row's Δ interval is at a stricter level than 95%, else ""."""
    return WIDER if (row.get("delta_confidence") or 0.95) > 0.9505 else ""


def differ(intervals) -> bool:
    """Whether two of ``intervals`` do not meet: the answers they give disagree beyond
    what either's width allows (a verdict word alone does not say it — 差なし measured to
    ±10 and 弱い to ±5 may rest on intervals that overlap)."""
    spans = list(intervals)
    return any(a.high < b.low or b.high < a.low
               for i, a in enumerate(spans) for b in spans[i + 1:])


def verdict(interval: Interval, precision: float) -> str:
    """stronger (the whole interval above 0), weaker (below), no_effect (0 inside an
    interval at least as precise as asked), undecided (0 inside, not yet that precise)."""
    if interval.low > 0:
        return "stronger"
    if interval.high < 0:
        return "weaker"
    return "no_effect" if interval.half_width <= precision + 1e-12 else "undecided"


#: Which side of its 目標 a missed interval lies on (the way to push the number: a 勝率
#: above the band is an enemy too weak), by whether it lies above.
MISSED_SIDE = {True: "上に外れ", False: "下に外れ"}


def target_word(row: dict) -> str:
    """A report row's 目標 status as the reports say it: 達成 / 未決, or 未達 with the side
    it missed on (its interval: ``delta`` for a page, ``win_rate`` for an enemy)."""
    met = row.get("target_met")
    word = TARGET_WORDS[met]
    interval = row.get("delta") or row.get("win_rate")
    if met is False and isinstance(interval, dict) and row.get("target"):
        word += f"（{MISSED_SIDE[interval['low'] > row['target']['high']]}）"
    return word


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


def judge(paired: Paired | Stratified, look: int, precision: float, max_pairs: int,
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
    # Planned on the variance the interval will have (the adjustment's shrink, the
    # strata's allocation), or a page plays a round further than its interval needs.
    unit = paired.unit_variance()
    needed = pairs_for(unit, precision)
    if target is None:  # a target's bounds settle on their own terms: to the precision
        needed = min(needed, pairs_to_settle(unit, paired.delta, look_z(look + 1)))
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
    are the first n of the baseline's N), with β the least-squares slope of Δ on x over
    the pairs, and its variance is Var(Δ̂)·(1 − (1 − n/N)·R²), R² the share of Δ's
    variance the covariates explain. With N = n it is Δ̂ itself (None). The interval keeps
    its coverage (tests/test_sim_stats.py, on pairs of a known Δ). One stratum of
    ``control_strata``."""
    centred = [tuple(x - m for x, m in zip(row, outside)) for row in covariates]
    found = control_strata([deltas], [centred], [total])
    return None if found is None else found[0]


def control_strata(deltas: list[list[float]], covariates: list[list[tuple]],
                   totals: list[int]) -> list[Adjustment] | None:
    """``control`` within strata (``Stratified``): stratum j's pairs have Δs
    ``deltas[j]`` and baseline covariates ``covariates[j]``, each less the stratum's mean
    over all ``totals[j]`` of its baseline battles (so x̄_N is 0 in every stratum). One
    slope β for all strata (fitted on Δ and x centred within each: a slope per enemy
    would overfit a pilot's 20 pairs an enemy); each stratum gets its own Adjustment.

    For any fixed β, with u = Δ − β·x, the stratum's estimate ū + β·x̄_N has the
    variance S²ᵤ/n + (S²_Δ − S²ᵤ)/N = Var(Δ̂)·(1 − (1 − n/N)·R²), R² = 1 − S²ᵤ/S²_Δ — which
    may be below 0 in a stratum the shared slope fits badly (the adjustment then widens
    its interval, as it should). A stratum whose pairs all agree (S²_Δ = 0) keeps its
    Agresti–Min variance and adds the adjustment's own, S²ᵤ·(1/n − 1/N). None when there
    are fewer than 20 pairs, or no stratum has baseline battles beyond its pairs."""
    sizes = [len(d) for d in deltas]
    n = sum(sizes)
    if n < 20 or all(t <= size for t, size in zip(totals, sizes)):
        return None
    rows = []  # (x − x̄ⱼ, Δ − Δ̄ⱼ) of every pair, centred within its stratum
    means = []
    for ds, xs in zip(deltas, covariates):
        if not ds:
            means.append(None)
            continue
        mean_x = [sum(column) / len(xs) for column in zip(*xs)]
        mean_d = sum(ds) / len(ds)
        means.append(mean_x)
        rows += [([a - m for a, m in zip(x, mean_x)], d - mean_d) for x, d in zip(xs, ds)]
    k = len(rows[0][0])
    keep = [j for j in range(k)  # a column constant in every stratum has no slope
            if any(abs(x[j]) > 1e-9 for x, _ in rows)]
    if not keep:
        return None
    cov = [[sum(x[a] * x[b] for x, _ in rows) for b in keep] for a in keep]
    cross = [sum(x[a] * d for x, d in rows) for a in keep]
    beta = _solve(cov, cross)
    if beta is None:
        return None
    found = []
    for ds, xs, mean_x, total in zip(deltas, covariates, means, totals):
        size = len(ds)
        if size < 2 or total <= size:  # nothing to adjust on, or no spread to measure
            found.append(Adjustment(0.0, 1.0))
            continue
        fitted = [sum(b * x[j] for b, j in zip(beta, keep)) for x in xs]
        mean_d, mean_f = sum(ds) / size, sum(fitted) / size
        s2d = sum((d - mean_d) ** 2 for d in ds) / (size - 1)
        s2u = sum((d - f - mean_d + mean_f) ** 2 for d, f in zip(ds, fitted)) / (size - 1)
        shift = sum(b * mean_x[j] for b, j in zip(beta, keep))
        if s2d > 0:
            explained = min(1 - s2u / s2d, 0.99)
            found.append(Adjustment(shift, 1 - (1 - size / total) * explained))
        else:
            found.append(Adjustment(shift, 1.0, s2u * (1 / size - 1 / total)))
    return found


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


def effective_size(weights) -> float:
    """Kish's effective sample size of weighted battles, (Σw)²/Σw²: n when every weight
    is 1, fewer the more the weights differ (what the intervals below count as n)."""
    weights = list(weights)
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares else 0.0


def rate_interval(flags, weights=None, z: float = Z95) -> Interval:
    """The (weighted) share of battles whose flag is 1, with Wilson's interval on Kish's
    effective sample size (``wilson`` itself when every weight is 1)."""
    flags = list(flags)
    weights = [1.0] * len(flags) if weights is None else list(weights)
    size = effective_size(weights)
    if not size:
        return wilson(0, 0, z)
    share = sum(w * f for w, f in zip(weights, flags)) / sum(weights)
    return wilson(share * size, size, z)


def mean_interval(values, z: float = Z95, weights=None) -> Interval | None:
    """The (weighted) mean of ``values`` with Student's t interval (mean ± t·s/√n when
    every weight is 1); None for none. One value has no spread to measure: its interval
    is the value alone."""
    values = list(values)
    return ratio_interval(values, [1] * len(values), z, weights)


def ratio_interval(parts, wholes, z: float = Z95, weights=None) -> Interval | None:
    """Σw·parts / Σw·wholes over battles (damage per 歩: each battle's damage and 歩;
    ``weights``: each battle's, all 1 when not given) with the delta method's interval for
    a ratio of sums (the battles independent, the ratio's variance
    n/(n − 1)·Σw²(part − R·whole)² / (Σw·whole)², t on Kish's effective size less one);
    None when the wholes add to 0. A ratio of counts (no part or whole below 0) cannot be
    below 0: its interval stops there."""
    parts, wholes = list(parts), list(wholes)
    weights = [1.0] * len(parts) if weights is None else list(weights)
    n = len(parts)
    total = sum(w * h for w, h in zip(weights, wholes))
    if not total:
        return None
    r = sum(w * p for w, p in zip(weights, parts)) / total
    if n == 1:
        return Interval(r, r, r)
    residual = sum((w * (p - r * h)) ** 2 for w, p, h in zip(weights, parts, wholes))
    df = max(1, round(effective_size(weights)) - 1)
    spread = t_quantile(df, z) * math.sqrt(n / (n - 1) * residual) / abs(total)
    counts = min(parts) >= 0 and min(wholes) >= 0
    return Interval(r, max(0.0, r - spread) if counts else r - spread, r + spread)
