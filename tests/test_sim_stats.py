"""The lab's stopping rules (sim/stats.py ``judge``, ``round_size``) on pairs drawn with a
known Δ, no battles: the intervals a run reports cover Δ at their stated rate however the
pages stop, a page whose Δ is far from 0 stops long before the precision asked, and one
whose Δ is 0 plays on to it — also with the regression adjustment in force as the lab
plays it (the baseline ahead of the pages, the adjustment frozen when a page stops), the
bounds' margins computed from the binomial. Seeded: the same figures on every run."""

from __future__ import annotations

import numpy as np
import pytest

from sim import stats

PILOT, BATCH, CHUNK, PRECISION, MOST = 200, 200, 20, 0.03, 3000


def cells_of(delta: float, discordance: float = 0.24, both: float = 0.5) -> list[float]:
    """P(both won), P(variant only), P(baseline only), P(neither) for a true Δ."""
    b, c = (discordance + delta) / 2, (discordance - delta) / 2
    return [both, b, c, 1 - both - b - c]


def run_page(rng, cells, target=None) -> tuple[stats.Paired, float]:
    """One page played as the lab plays it (sim/lab.py run_pages): a pilot, then rounds
    of ``round_size`` until ``judge`` says done. Returns the pairs and the quantile of
    the interval reported."""
    counts = np.zeros(4, dtype=np.int64)
    size, look = PILOT, 0
    while True:
        counts += rng.multinomial(size - int(counts.sum()), cells)
        paired = stats.Paired(*map(int, counts))
        look += 1
        judged = stats.judge(paired, look, PRECISION, MOST, target)
        if judged.done:
            return paired, judged.z
        size = stats.round_size(paired.n, judged.needed, BATCH, MOST, CHUNK)


@pytest.mark.parametrize("delta", [0.0, 0.02, 0.05, 0.1, 0.2])
def test_the_intervals_a_run_reports_cover_the_truth_at_their_rate(delta):
    rng = np.random.default_rng(20261202)
    cells = cells_of(delta)
    runs = [run_page(rng, cells) for _ in range(600)]
    covered = [p.interval(z).low <= delta <= p.interval(z).high for p, z in runs]
    assert np.mean(covered) >= 0.935, np.mean(covered)
    wrong = [p.interval(z).low > 0 if delta <= 0 else p.interval(z).high < 0
             for p, z in runs]
    assert np.mean(wrong) <= 0.035


def test_a_clear_verdict_stops_early_and_a_null_one_plays_to_the_precision():
    rng = np.random.default_rng(7)
    clear = [run_page(rng, cells_of(0.15))[0].n for _ in range(200)]
    null = [run_page(rng, cells_of(0.0)) for _ in range(200)]
    # ±3 pt with 24% discordant pairs takes ~1,000 pairs; Δ = 0.15 settles in a few hundred.
    assert np.median(clear) <= 400
    assert all(p.interval(z).half_width <= PRECISION for p, z in null
               if p.interval(z).low <= 0 <= p.interval(z).high)
    assert np.median([p.n for p, _ in null]) >= 900


def test_a_target_bound_inside_the_interval_keeps_a_page_playing():
    """Δ = 0.1 clear of 0, but the 目標 [−0.1, 0.1] bound is at the truth: the page plays
    on to the precision (or the cap) rather than stopping on its verdict alone."""
    rng = np.random.default_rng(11)
    target = {"low": -0.1, "high": 0.1}
    for _ in range(20):
        paired, z = run_page(rng, cells_of(0.1), target)
        interval = paired.interval(z)
        assert (interval.half_width <= PRECISION or paired.n == MOST
                or stats.target_met(interval, -0.1, 0.1) is not None)


def test_each_look_is_stricter_and_all_looks_together_spend_at_most_the_early_alpha():
    zs = [stats.look_z(k) for k in range(1, 30)]
    assert zs == sorted(zs) and zs[0] > stats.Z95
    from statistics import NormalDist

    spent = sum(2 * (1 - NormalDist().cdf(z)) for z in zs)
    assert spent <= stats.EARLY_ALPHA + 1e-9


def test_settled_needs_zero_and_the_target_bounds_outside_the_interval():
    assert stats.settled(stats.Interval(0.1, 0.05, 0.15))
    assert not stats.settled(stats.Interval(0.02, -0.01, 0.05))
    assert not stats.settled(stats.Interval(0.1, 0.05, 0.15), {"low": -0.1, "high": 0.12})
    assert stats.settled(stats.Interval(0.1, 0.05, 0.15), {"low": -0.1, "high": 0.2})


def draw_pairs(rng, n: int, total: int, delta_if_lost: float = 0.3,
               delta_if_won: float = 0.1):
    """Pairs whose baseline battle's covariates (won, HP lost, turns) tell much of Δ, and
    ``total`` baseline battles in all (the pairs' first n of them). The truth:
    Δ = P(variant won) − P(baseline won) = 0.4·0.3 − 0.6·0.1 = 0.06."""
    won = rng.random(total) < 0.6
    hp = np.where(won, rng.integers(0, 120, total), rng.integers(100, 200, total))
    turns = np.where(won, rng.integers(5, 15, total), rng.integers(8, 30, total))
    flip = rng.random(n) < np.where(won[:n], delta_if_won, delta_if_lost)
    variant = np.where(won[:n], ~flip, flip)
    xs = [(int(w), int(h), int(t)) for w, h, t in zip(won, hp, turns)]
    return variant.astype(int), xs


def adjusted_pairs(variant, xs, total):
    n = len(variant)
    base = [x[0] for x in xs[:n]]
    cells = [0, 0, 0, 0]
    for v, b in zip(variant, base):
        cells[{(1, 1): 0, (1, 0): 1, (0, 1): 2, (0, 0): 3}[(int(v), b)]] += 1
    outside = tuple(sum(x[j] for x in xs[:total]) / total for j in range(3))
    adjustment = stats.control([int(v) - b for v, b in zip(variant, base)], xs[:n], outside,
                               total)
    return stats.Paired(*cells), stats.Paired(*cells, adjustment=adjustment)


@pytest.mark.slow  # 800 experiments: ~8 s
def test_the_regression_adjustment_keeps_coverage_and_narrows_the_interval():
    truth = 0.4 * 0.3 - 0.6 * 0.1
    rng = np.random.default_rng(3)
    covered, plain_widths, widths = 0, [], []
    for _ in range(800):
        variant, xs = draw_pairs(rng, 200, 800)
        plain, adjusted = adjusted_pairs(variant, xs, 800)
        interval = adjusted.interval()
        covered += interval.low <= truth <= interval.high
        plain_widths.append(plain.interval().half_width)
        widths.append(interval.half_width)
    assert covered / 800 >= 0.935, covered / 800
    assert np.mean(widths) <= 0.95 * np.mean(plain_widths)


def test_no_baseline_beyond_the_pairs_is_no_adjustment():
    rng = np.random.default_rng(5)
    variant, xs = draw_pairs(rng, 200, 200)
    plain, adjusted = adjusted_pairs(variant, xs, 200)
    assert adjusted.adjustment is None and adjusted.interval() == plain.interval()


def test_a_page_adjusted_on_the_baseline_is_planned_on_its_adjusted_variance():
    """judge plans the pairs a page still needs on the variance its interval will have:
    the pairs' times the regression adjustment's shrink (stats.control), not the bare
    pairs' — else a page plays a round further than its interval needs."""
    bare = stats.Paired(190, 30, 30, 50)
    adjusted = stats.Paired(190, 30, 30, 50, adjustment=stats.Adjustment(0.0, 0.7))
    plain = stats.judge(bare, 2, PRECISION, MOST)
    shrunk = stats.judge(adjusted, 2, PRECISION, MOST)
    assert not plain.done and not shrunk.done
    assert shrunk.needed == pytest.approx(0.7 * plain.needed, abs=2)
    # and the plan is what the interval then reaches: the precision, not less
    half = lambda n, shrink: stats.Z95 * (0.2 * shrink / n) ** 0.5  # noqa: E731
    assert half(shrunk.needed, 0.7) <= PRECISION < half(shrunk.needed - 20, 0.7)


# ------------------------------------------------------- stopping early and adjusting together

#: Runs of the sequential procedure per case, and the chance a correct procedure is allowed
#: to fail a bound by bad luck alone (the margins below are computed from it).
RUNS, RISK = 300, 0.001


def binomial_floor(runs: int, rate: float, risk: float = RISK) -> int:
    """The fewest successes of ``runs`` that a true ``rate`` gives with probability at
    least 1 − ``risk``: the largest k with P(X < k) ≤ risk, X ~ Binomial(runs, rate)."""
    from math import comb

    below, k = 0.0, 0
    while True:
        chance = comb(runs, k) * rate ** k * (1 - rate) ** (runs - k)
        if below + chance > risk:
            return k
        below, k = below + chance, k + 1


def binomial_ceiling(runs: int, rate: float, risk: float = RISK) -> int:
    """The most successes of ``runs`` that a true ``rate`` exceeds with probability at
    most ``risk``: the smallest k with P(X > k) ≤ risk."""
    return runs - binomial_floor(runs, 1 - rate, risk)


def run_adjusted_page(rng, delta_if_lost: float, delta_if_won: float, target=None):
    """One page played as sim/lab.py run_pages plays it, early stopping and regression
    adjustment together, on ``draw_pairs``'s pairs (revealed round by round): each round
    the baseline is played BASELINE_AHEAD times as far as the page's round (``_reach``, up
    to MOST), the page's Δ is adjusted on its pairs' baseline battles (``stats.control``
    over all the baseline played) and judged (``stats.judge``: done at the precision, or
    early on the look's stricter interval); rounds are sized by ``stats.round_size``. When
    the page stops, the baseline plays on for the other pages, but the page's report keeps
    the adjustment it was judged on (``base_n``). Returns (the Paired reported, its look)."""
    from dataclasses import replace

    from sim.lab import BASELINE_AHEAD

    variant, xs = draw_pairs(rng, MOST, MOST, delta_if_lost, delta_if_won)
    size, look = PILOT, 0
    while True:
        reach = min(MOST, BASELINE_AHEAD * size)
        _, paired = adjusted_pairs(variant[:size], xs, reach)
        look += 1
        judged = stats.judge(paired, look, PRECISION, MOST, target)
        if judged.done:
            # The report keeps this adjustment (base_n = reach): the baseline's later
            # battles, played for other pages, are not used.
            return replace(paired, z=judged.z), look
        size = stats.round_size(size, judged.needed, BATCH, MOST, CHUNK)


#: (P(variant won | baseline lost), P(variant lost | baseline won)) of draw_pairs, and the
#: true Δ = 0.4·the first − 0.6·the second.
CASES = {0.0: (0.15, 0.1), 0.06: (0.3, 0.1), 0.2: (0.65, 0.1), -0.1: (0.05, 0.2)}


@pytest.mark.slow  # 1,200 sequential runs: ~6 s
@pytest.mark.parametrize("delta", sorted(CASES))
def test_stopping_early_on_adjusted_pairs_keeps_the_intervals_coverage(delta):
    """Every reported interval states at least 95%; an early stop's interval is the look's
    stricter one, and all looks' early stops together miss Δ with probability at most
    EARLY_ALPHA (look_z's Bonferroni spending), the adjustment notwithstanding."""
    rng = np.random.default_rng(20261202)
    runs = [run_adjusted_page(rng, *CASES[delta]) for _ in range(RUNS)]
    covers = [p.interval().low <= delta <= p.interval().high for p, _ in runs]
    assert sum(covers) >= binomial_floor(RUNS, 0.95), sum(covers) / RUNS
    early = [(p, look) for p, look in runs if p.z > stats.Z95]
    for paired, look in early:
        assert paired.z == stats.look_z(look)
        strict, plain = paired.interval(), paired.interval(stats.Z95)
        assert strict.low < plain.low and plain.high < strict.high
        assert stats.settled(strict)  # what it stopped on is what it reports
    missed_early = sum(not p.interval().low <= delta <= p.interval().high for p, _ in early)
    assert missed_early <= binomial_ceiling(RUNS, stats.EARLY_ALPHA), missed_early / RUNS
    # the adjustment was in force wherever the baseline had played beyond the pairs
    assert all(p.adjustment is not None for p, _ in runs if p.n < MOST)
    if abs(delta) >= 0.1:  # a clear Δ stops early, as it would unadjusted
        assert len(early) >= RUNS // 2


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_a_page_of_no_effect_rarely_stops_early_on_adjusted_pairs():
    """Δ = 0: an early stop needs the strict interval to exclude 0 — the truth — so the
    share of runs stopped early is at most EARLY_ALPHA (up to chance)."""
    rng = np.random.default_rng(4)
    runs = [run_adjusted_page(rng, *CASES[0.0]) for _ in range(RUNS)]
    stopped = sum(p.z > stats.Z95 for p, _ in runs)
    assert stopped <= binomial_ceiling(RUNS, stats.EARLY_ALPHA), stopped / RUNS
    assert all(p.interval().half_width <= PRECISION for p, _ in runs if p.z == stats.Z95)


def test_the_binomial_margins_are_the_tails_they_say():
    assert binomial_floor(300, 0.95) == 272  # P(X < 272) ≈ 0.0006, P(X < 273) ≈ 0.0013
    assert binomial_ceiling(300, 0.02) == 15  # P(X > 15) ≈ 0.0004, P(X > 14) ≈ 0.0012
    assert binomial_floor(100, 1.0) == 100 and binomial_ceiling(100, 0.0) == 0


# ------------------------------------------------------- strata: allocation over enemies


def test_one_stratum_is_the_paired_estimate_itself():
    """stats.Stratified of one stratum is stats.Paired: the stage sequence's lab, and the
    formulas a stratum adds up."""
    rng = np.random.default_rng(8)
    for _ in range(200):
        cells = tuple(int(c) for c in rng.integers(0, 60, 4))
        adjustment = stats.Adjustment(float(rng.normal(0, 0.01)), float(rng.uniform(0.5, 1)))
        for paired in (stats.Paired(*cells), stats.Paired(*cells, adjustment=adjustment)):
            one = stats.Stratified((paired,))
            assert one.interval() == paired.interval() and one.delta == paired.delta
            assert one.n == paired.n and one.mcnemar_z == pytest.approx(paired.mcnemar_z)
            assert one.win_rates() == pytest.approx(paired.win_rates())
            assert one.pairing_gain == pytest.approx(paired.pairing_gain)


def test_allocation_follows_the_spreads_keeps_what_was_played_and_adds_up():
    assert stats.allocate(100, [0, 0], [1.0, 3.0]) == (25, 75)
    assert stats.allocate(100, [40, 0], [1.0, 3.0]) == (40, 60)  # a floor is kept
    assert stats.allocate(50, [40, 30], [1.0, 3.0]) == (40, 30)  # floors over the total
    assert stats.allocate(10, [0, 0, 0], [1.0, 1.0, 1.0]) == (4, 3, 3)  # the first on a tie
    rng = np.random.default_rng(9)
    for _ in range(300):
        floors = [int(f) for f in rng.integers(0, 50, 5)]
        shares = [float(x) for x in rng.uniform(0.01, 1, 5)]
        total = int(rng.integers(0, 600))
        parts = stats.allocate(total, floors, shares)
        assert all(p >= f for p, f in zip(parts, floors))
        assert sum(parts) == max(total, sum(floors))
        # a stratum above its floor gets about its share of what the floors leave
        free = [j for j in range(5) if parts[j] > floors[j]]
        if len(free) > 1:
            per_share = [parts[j] / shares[j] for j in free]
            assert max(per_share) - min(per_share) <= 1 / min(shares[j] for j in free) + 1e-9


#: Enemies as the bundled content has them: (P(baseline won), P(variant won | baseline
#: lost), P(variant lost | baseline won)). Against the easy ones both decks nearly always
#: win and a pair's Δ barely varies; against the hard ones it varies most.
EASY, MEDIUM, HARD = (0.97, 0.3, 0.0093), (0.6, 0.2, 0.1333), (0.35, 0.1885, 0.35)
ENEMIES = {
    "null": [EASY] * 4 + [MEDIUM] * 3 + [HARD] * 3,
    "weaker": [(0.97, 0.2, 0.03)] * 4 + [(0.6, 0.15, 0.2)] * 3 + [(0.35, 0.1, 0.25)] * 3,
}


def true_delta(enemies) -> float:
    return float(np.mean([(1 - p) * a - p * c for p, a, c in enemies]))


def draw_stratum(rng, n: int, won_rate: float, if_lost: float, if_won: float):
    """n pairs of one enemy: the variant's wins, and the baseline battles' covariates
    (won, HP lost, turns), which tell much of the pair's Δ."""
    won = rng.random(n) < won_rate
    hp = np.where(won, rng.integers(0, 120, n), rng.integers(100, 200, n))
    turns = np.where(won, rng.integers(5, 15, n), rng.integers(8, 30, n))
    flip = rng.random(n) < np.where(won, if_won, if_lost)
    variant = np.where(won, ~flip, flip).astype(int)
    # tolist, not a loop over the arrays: numpy's scalars one by one took most of the time
    return variant, list(zip(won.astype(int).tolist(), hp.tolist(), turns.tolist()))


def run_stratified_page(rng, enemies, allocate: bool = True, early: bool = True):
    """One page played as sim/lab.py run_pages plays it over the pool's enemies: an equal
    pilot in every stratum, then rounds whose pairs go where Δ can vary most
    (``Stratified.allocation`` by how contested each enemy is for the baseline,
    ``stats.contested``; ``allocate=False``: every enemy equally, round-robin), the
    baseline of each stratum BASELINE_AHEAD times as far up to its share of MOST (never
    short of the page), each stratum's Δ adjusted on its baseline battles
    (``stats.control_strata``), judged by ``stats.judge`` (early stops included;
    ``early=False``: judged as at a look so late that no page stops early).
    Returns (the Stratified reported, its look)."""
    from dataclasses import replace

    from sim.lab import BASELINE_AHEAD

    strata = len(enemies)
    data = [draw_stratum(rng, MOST, *enemy) for enemy in enemies]
    cap = -(-MOST // strata)
    sizes, look = [-(-PILOT // strata)] * strata, 0
    while True:
        reach = [max(n, min(cap, BASELINE_AHEAD * n)) for n in sizes]
        deltas, centred, cells = [], [], []
        for (variant, xs), n, total in zip(data, sizes, reach):
            means = np.mean(xs[:total], axis=0)
            deltas.append([int(v) - x[0] for v, x in zip(variant[:n], xs)])
            centred.append([tuple(np.subtract(x, means)) for x in xs[:n]])
            count = {(1, 1): 0, (1, 0): 0, (0, 1): 0, (0, 0): 0}
            for v, x in zip(variant[:n], xs):
                count[int(v), x[0]] += 1
            cells.append((count[1, 1], count[1, 0], count[0, 1], count[0, 0]))
        adjustments = stats.control_strata(deltas, centred, reach) or [None] * strata
        shares = tuple(stats.contested(sum(x[0] for x in xs[:total]), total)
                       for (_, xs), total in zip(data, reach))
        paired = stats.Stratified(tuple(stats.Paired(*c, adjustment=a)
                                        for c, a in zip(cells, adjustments)), shares=shares)
        look += 1
        judged = stats.judge(paired, look if early else 40, PRECISION, MOST)
        if judged.done:
            return replace(paired, z=judged.z), look
        total = stats.round_size(paired.n, judged.needed, BATCH, MOST, CHUNK)
        sizes = list(paired.allocation(total)) if allocate else \
            [max(n, -(-total // strata)) for n in sizes]


@pytest.mark.slow  # 600 sequential runs: ~15 s
@pytest.mark.parametrize("case", ["null", "weaker"])
def test_pairs_allocated_over_enemies_keep_the_intervals_coverage(case):
    """Neyman's allocation, the adjustment within each enemy and early stopping together:
    the reported intervals cover the true Δ (the enemies' Δs averaged) at their rate, and
    an early stop misses it at most at EARLY_ALPHA's."""
    rng = np.random.default_rng(20261203)
    delta = true_delta(ENEMIES[case])
    runs = [run_stratified_page(rng, ENEMIES[case]) for _ in range(RUNS)]
    covers = [p.interval().low <= delta <= p.interval().high for p, _ in runs]
    assert sum(covers) >= binomial_floor(RUNS, 0.95), sum(covers) / RUNS
    early = [p for p, _ in runs if p.z > stats.Z95]
    missed = sum(not p.interval().low <= delta <= p.interval().high for p in early)
    assert missed <= binomial_ceiling(RUNS, stats.EARLY_ALPHA), missed / RUNS
    assert all(p.interval().half_width <= PRECISION for p, _ in runs
               if p.z == stats.Z95 and p.n < MOST)


def test_the_allocation_reads_the_shares_and_not_the_pages_own_pairs():
    """Two pages with the same pairs per stratum but different outcomes in them get the
    same next round: the allocation reads the shares (how contested each enemy is for the
    baseline, stats.contested) and what each stratum played, never the page's own
    outcomes. Allocating by those gave the strata whose first pairs strayed towards
    disagreement more pairs, diluting just them: Δ was biased (six pages of the bundled
    content read 差なし where 4,000 fresh pairs say 弱い)."""
    shares = (stats.contested(200, 200), stats.contested(80, 200), stats.contested(150, 200))
    calm = stats.Stratified((stats.Paired(20, 0, 0, 0), stats.Paired(8, 1, 1, 10),
                             stats.Paired(10, 0, 0, 10)), shares=shares)
    torn = stats.Stratified((stats.Paired(10, 5, 5, 0), stats.Paired(4, 6, 6, 4),
                             stats.Paired(5, 0, 10, 5)), shares=shares)
    assert calm.allocation(300) == torn.allocation(300)
    first, second, third = calm.allocation(300)
    assert first < third < second  # the enemy always beaten gets least, the closest most
    assert stats.contested(200, 200) > 0  # never none: Laplace's added win and loss


@pytest.mark.slow  # 300 sequential runs: ~9 s
def test_allocating_over_enemies_leaves_delta_unbiased():
    """Without early stops (which pick the runs whose estimate strayed out, in any design),
    the runs' Δs average to the truth, within 3.5 standard errors of their mean."""
    case = "weaker"
    rng = np.random.default_rng(5)
    delta = true_delta(ENEMIES[case])
    runs = [run_stratified_page(rng, ENEMIES[case], early=False)[0] for _ in range(RUNS)]
    assert all(p.z == stats.Z95 for p in runs)
    estimates = np.array([p.delta for p in runs])
    assert abs(estimates.mean() - delta) <= 3.5 * estimates.std() / np.sqrt(RUNS), \
        (estimates.mean(), delta)


@pytest.mark.slow  # 200 sequential runs: ~10 s
def test_allocating_pairs_over_enemies_needs_fewer_for_the_same_precision():
    """Δ = 0 plays to the precision asked: spending the pairs where the baseline's battles
    are contested (the hard enemies, where a pair's Δ varies) gets there on at least 15%
    fewer pairs than round-robin, and more pairs go to the hard enemies than to the easy
    ones."""
    enemies = ENEMIES["null"]
    neyman = [run_stratified_page(np.random.default_rng(seed), enemies) for seed in range(100)]
    robin = [run_stratified_page(np.random.default_rng(seed), enemies, allocate=False)
             for seed in range(100)]
    assert np.mean([p.n for p, _ in neyman]) <= 0.85 * np.mean([p.n for p, _ in robin])
    for paired, _ in neyman:  # HARD over EASY, once past the equal pilot
        sizes = [s.n for s in paired.strata]
        if paired.n == 10 * -(-PILOT // 10):
            continue
        assert np.mean(sizes[7:]) >= 1.5 * np.mean(sizes[:4]), sizes


def test_a_ratio_of_counts_never_has_an_interval_below_zero():
    """出せずに手札にあったターン of a page nearly always playable: one battle of 200 with
    a turn held — the delta method's spread reaches below 0, which no count can."""
    parts, wholes = [1] + [0] * 199, [1] * 200
    interval = stats.ratio_interval(parts, wholes)
    assert interval.estimate == pytest.approx(0.005) and interval.low == 0.0
    assert interval.high > interval.estimate
    signed = stats.ratio_interval([1, -1, 2, -3], [1, 1, 1, 1])  # not counts: left as it is
    assert signed.low < min(-0.25, signed.estimate)


def test_a_missed_target_says_on_which_side_it_missed():
    """「未達」 alone read as "push the number up" for an enemy at 93% of a 30〜70% band."""
    enemy = {"target": {"low": 0.3, "high": 0.7}, "target_met": False,
             "win_rate": {"estimate": 0.932, "low": 0.904, "high": 0.953}}
    page = {"target": {"low": -0.05, "high": 0.10}, "target_met": False,
            "delta": {"estimate": -0.10, "low": -0.144, "high": -0.055}}
    assert stats.target_word(enemy) == "未達（上に外れ）"
    assert stats.target_word(page) == "未達（下に外れ）"
    assert stats.target_word({**page, "target_met": None}) == "未決"
    assert stats.target_word({**page, "target_met": True}) == "達成"


def test_every_verdict_word_of_the_lab_can_be_looked_up(monkeypatch):
    """The lab's reports say 強い, 弱い, 差なし and 未決 for each page; `jibunki vocab 強い`
    answered 「語彙にありません」 (only 未決 was a word of the vocabulary): a designer could
    not look up what makes a page 強い. Each is a 測定の語 with its criterion."""
    from click.testing import CliRunner

    from cli import main
    from contract import vocabulary as vocab

    assert set(stats.VERDICTS) == {"stronger", "weaker", "no_effect", "undecided"}
    for code, word in stats.VERDICTS.items():
        assert [t.code for t in vocab.REPORT_TERMS if t.ja == word] == [code]
        shown = CliRunner().invoke(main, ["vocab", word])
        assert shown.exit_code == 0 and "測定の語" in shown.output, shown.output
        assert "95% 区間" in shown.output or code == "undecided"
