"""実験室 — the balance lab behind ``jibunki sim``: is this page good, is this enemy fair?

Two phases, each played in rounds of seeded battles until its intervals are as precise as
asked (``Settings.precision``, the half-width of a 95% interval) or ``max_pairs`` is
reached:

1. **Enemies.** The starting deck against each enemy alone (or against the stage sequence
   named with ``--enemy a --enemy b``) under the main policy — the very battles the
   baseline plays in the pages' pairs that meet that enemy: win rate with Wilson's
   interval, turns to win, HP lost, damage taken per turn, the share of wins by 突破ライン,
   and the distribution of HP lost per battle.
2. **Pages.** For every page of the pool, the starting deck plus one copy of it (or, with
   ``baseline_page``, with one copy of that page swapped for it) against the same battles
   as the starting deck: pair *i* plays seed ``seed + i`` with both decks, against enemy
   *i* mod J of the pool's J (or the stage sequence, J = 1) — so the *k*-th pair against
   enemy *j* is pair *j* + *k*·J, whatever number of pairs each enemy gets. The battle's
   random streams are separate (runtime/streams.py), so the enemy stays aligned within a
   pair; the baseline battle of a pair is played once for all pages. Δ win rate with its
   paired interval over the enemies as strata of equal weight (sim/stats.py Stratified),
   the discordant counts, and what the page did in the variant's battles: plays per
   battle, the share of battles it was played in, damage per play and per 歩, tears and
   pens per battle. Then a verdict; under every policy of the ladder (random < greedy <
   search), and a page whose Δ changes with the policy's skill is flagged — two rungs
   whose intervals do not meet (``stats.differ``): the lower rungs are played to
   ``ladder_slack`` times the precision, so their verdict words alone (差なし at ±10
   beside 弱い at ±5) would flag pages whose intervals agree.

The first round of a phase is a pilot of ``batch`` battles (or pairs, spread evenly over
the enemies) per entry; each later round plays what the entry's current variance says it
still needs (at most four times what it has, at least ``batch``), so an entry whose answer
is clear stops early — and a page's pairs go to each enemy in proportion to how much a
pair's Δ can vary there (Neyman's allocation, ``Stratified.allocation``, by how contested
the enemy is for the baseline deck, ``stats.contested``: few against an enemy it always
beats, most against the ones it wins about half the time).
Rounds are decided from complete results only, so the report is the same for any number
of workers and either backend (sim/backends.py). Nothing in the report depends on time.

Fewer battles for the same verdicts (sim/stats.py says why each is valid): a page stops
as soon as its verdict and 目標 status are settled on its look's stricter interval
(``stats.judge``, ``stats.look_z``), which the report then gives; the baseline is played
``BASELINE_AHEAD`` times as far as the longest page — under the main policy at least as far
as the enemy phase has played it already, enemy by enemy — and each page's Δ is adjusted on
its pairs' baseline battles within each enemy (``stats.control_strata``). A battle already
played — by this run for another entry, or by an earlier run (sim/cache.py) — is not
played again: its outcome depends on its inputs alone, so the report is the same byte for
byte.

A target (目標) written on a page or an enemy is compared with the interval: met (inside),
missed (wholly outside: ``--check`` fails) or not yet decidable (straddling an end).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, NamedTuple

from contract import vocabulary as vocab
from contract.vocabulary import PLAYER_NAMES, W

from . import observed, stats
from .store import SOUND_LIMIT

FORMAT = "jibunki-sim-report 1"
#: The key of the swap phase's plan (``Settings.reference``).
SWAP_PHASE = "swap"
#: Battles per task sent to a worker: big enough to hide the hand-over, small enough to
#: keep both cores busy to the end of a round.
CHUNK = 20
#: How far the baseline is played beyond the longest page of a round: its battles serve
#: every page (the regression adjustment, stats.control_strata), so they are cheap precision.
#: Why 4: a page's variance shrinks by 1 − (1 − n/N)·R²; with R² ≈ 0.43 and ~30 pages near
#: 0 playing ~800 pairs each, one more baseline battle saves a pair until N ≈ 3,400 — on the
#: bundled content 4 (to max_pairs) plays 7% fewer pairs than 2 for 200 more battles.
BASELINE_AHEAD = 4
#: The ladder played when none is named, weakest first; the last is the main policy.
DEFAULT_LADDER = ("random", "greedy")


@dataclass(frozen=True)
class Settings:
    """What one lab run measures and how precisely."""

    enemies: tuple[str, ...]
    mode: str = "pool"  # "pool": each enemy alone; "stages": the enemies as one run
    ladder: tuple[str, ...] = DEFAULT_LADDER
    pages: tuple[str, ...] | None = None  # None: every page of the tables
    baseline_page: str | None = None
    #: The reference page (a page of the starting deck): each page is also measured
    #: swapped for one copy of it, deck size held, under the main policy (``swap_deck``).
    #: None: no swap Δ.
    reference: str | None = None
    precision: float = 0.03
    #: The lower rungs of the ladder only say whether a verdict changes with skill: they
    #: are played to this many times the precision (a verdict's sign needs far fewer
    #: pairs than its size, and a weak policy's battles disagree most).
    ladder_slack: float = 2.0
    max_pairs: int = 3000
    turn_cap: int = 60
    seed: int = 0
    batch: int = 200

    @property
    def policy(self) -> str:
        """The main policy: the most skilled of the ladder."""
        return self.ladder[-1]

    def precision_of(self, policy: str) -> float:
        """The half-width the pages are played to under ``policy``."""
        return self.precision if policy == self.policy else self.precision * self.ladder_slack


# -------------------------------------------------------------- the battles


@dataclass(frozen=True)
class Task:
    """Battles of one deck under one policy: (seed, stages) each; ``focus``: the page whose
    plays, damage, 歩, tears and pens are kept."""

    deck: tuple[str, ...]
    policy: str
    turn_cap: int
    focus: str | None
    battles: tuple[tuple[int, tuple[str, ...]], ...]


class Outcome(NamedTuple):
    """What is kept of a battle: won (0/1), turns, HP lost, the stages won by 突破ライン, and
    the focus page's plays, damage, 歩, tears and pens, the turn it was first drawn (0:
    in the opening hand, NOT_DRAWN: never; sim.simulate.HandWatch) and the turns it sat
    in the hand unplayable (a tuple: cheap to send back)."""

    won: int
    turns: int
    hp_lost: int
    breakthrough: int
    plays: int
    damage: int
    steps: int
    tears: int
    pens: int
    drawn: int = -1
    held_unplayable: int = 0

    def sound(self) -> bool:
        """Whether every value is one a battle can give: ``won`` 0 or 1, the counts not
        negative, ``drawn`` a turn or NOT_DRAWN — the check of an outcome read back from
        the cache (sim/cache.py), a file anyone can edit (its checksum proves no author):
        one that is not sound is played again, never reported."""
        won, turns, hp_lost, breakthrough, plays, damage, steps, tears, pens, drawn, held = self
        # min and max over the counts at once: a cache hit checks every outcome it reads
        return (won in (0, 1) and drawn >= NOT_DRAWN
                and min(turns, hp_lost, breakthrough, plays, damage, tears, pens, held) >= 0
                and max(turns, hp_lost, breakthrough, plays, damage, tears, pens, held, drawn,
                        abs(steps)) <= SOUND_LIMIT)


#: ``Outcome.drawn`` of a battle in which the focus page was never seen in the hand.
NOT_DRAWN = -1


def cap_written(page) -> bool:
    """Whether the page writes its own 上限枚数 (else its cap is the balance's デッキ内上限枚数:
    the number to change is there)."""
    keywords = vocab.KEYWORDS["deck_cap"]
    return any(words[:1] and words[0] in keywords
               for words in (line.split("#")[0].split() for line in page.source.text.splitlines()))


def cap_said(written: bool, cap: int) -> tuple[str, str]:
    """A page's cap as a designer finds it — its own 上限枚数, or the balance's
    デッキ内上限枚数 — and how to lift it."""
    word = vocab.KEYWORDS["deck_cap"][0]
    if written:
        return f"{word} {cap}", f"{word}を上げると測れます"
    return (f"{W.balance.deck_cap_default} {cap}",
            f"ページに{word}を書くか、バランスの{W.balance.deck_cap_default}を上げると測れます")


def prepare(tables_literal: dict):
    """The tables every task of a worker reads, built once from their literals."""
    from runtime.tables import from_dicts

    return from_dicts(tables_literal)


def work(tables, task: Task) -> list[Outcome]:
    """Play a task's battles (sim.simulate.play_one, the public simulation API)."""
    from .policies import POLICIES
    from .simulate import play_one

    policy = POLICIES[task.policy]
    focus = task.focus
    # Only the focus page's figures are kept: the battle watched for it alone.
    watched = frozenset(() if focus is None else (focus,))
    out = []
    for seed, stages in task.battles:
        r = play_one(tables, list(task.deck), list(stages), policy, seed, task.turn_cap,
                     watched)
        out.append(Outcome(int(r.result == "won"), r.turns, r.hp_lost,
                           r.breakthroughs, r.plays.get(focus, 0),
                           r.damage.get(focus, 0), r.steps.get(focus, 0),
                           r.tears.get(focus, 0), r.pens.get(focus, 0),
                           r.first_drawn.get(focus, NOT_DRAWN),
                           r.held_unplayable.get(focus, 0)))
    return out


# -------------------------------------------------------------- the run


class Step(NamedTuple):
    """Where a run stands, for a progress display: the phase being played (敵,
    ページ（greedy）…), the battles played so far in the whole run, and the battles the
    whole run is planned to play, those done included (``Lab.plan``). ``basis`` says what
    ``planned`` is: "floor" until the main policy's pilot has measured how many pairs a page
    needs (every phase still to come counted at its pilot round: the run plays at least
    that), "estimate" after (each entry at what its measured variance says it needs)."""

    phase: str
    done: int
    planned: int
    basis: str


Progress = Callable[[Step], None]


@dataclass
class _Entry:
    """One thing measured: an enemy (battles) or a page under a policy (pairs), its
    outcomes kept by stratum (``Lab.strata``; an enemy's row is one stratum): the k-th
    outcome of stratum j is pair j + k·J's."""

    key: str
    deck: tuple[str, ...]
    focus: str | None
    strata: list[list] = field(default_factory=lambda: [[]])
    done: bool = False
    #: The quantile of the entry's interval: Z95, or the stricter one of the look at
    #: which it stopped early (stats.look_z).
    z: float = stats.Z95
    looks: int = 0  # rounds whose results it has been judged on
    #: The baseline's battles in each stratum when it was judged done: its adjustment
    #: (stats.control_strata) stays the one its verdict was judged on, however far the
    #: baseline is played after.
    base_n: tuple[int, ...] | None = None
    #: Its pairs as judged done (``Lab.paired`` then, at the entry's own quantile): what
    #: the report shows — neither its pairs nor the baseline rows they read change after.
    final: stats.Stratified | None = field(default=None, repr=False, compare=False)
    #: A baseline's centred covariates, by (stratum, battles): ``Lab._centred``'s notes,
    #: read by every page of a round (the first rows of a stratum never change).
    centred: dict[tuple[int, int], list[tuple]] = field(default_factory=dict, repr=False,
                                                        compare=False)

    @property
    def outcomes(self) -> list:
        """Every outcome, stratum by stratum."""
        return [outcome for stratum in self.strata for outcome in stratum]

    @property
    def weights(self) -> list[float]:
        """Each outcome's weight (``outcomes``' order): n / (J·nⱼ) for stratum j's, so that
        every enemy weighs as much as the others, as if each were met equally often — all
        1 when they were. The figures that are not Δ (the observed ones, plays, the
        baseline's win rate) are read with them: unweighted, the pairs Neyman's allocation
        spends on the most contested enemies would lean them towards those."""
        played = [len(stratum) for stratum in self.strata]
        n = sum(played)
        if not all(played):  # a stratum with no battle cannot be weighed back
            return [1.0] * n
        return [n / (len(played) * size) for size in played for _ in range(size)]


class Lab:
    """One run of the lab on compiled tables (``tables_literal``: their literals, sent to
    the workers; ``tables``: the same, built here)."""

    def __init__(self, tables_literal: dict, tables, settings: Settings, *, workers: int = 1,
                 backend: str = "local", address: str | None = None,
                 progress: Progress | None = None, cache=None):
        from .cache import ResultCache

        self.literal, self.tables, self.settings = tables_literal, tables, settings
        self.workers, self.backend, self.address = workers, backend, address
        self.progress = progress or (lambda step: None)
        #: Outcomes already known (sim/cache.py): on disk when the caller opened one, else
        #: in memory for this run (a battle two entries share is played once).
        self.cache = cache if cache is not None else ResultCache(
            tables_literal, Outcome._make, Outcome._fields)
        self.battles = 0  # battles the run's figures rest on, played or from the cache
        self.played = 0  # of those, the battles played by this run
        self.estimate: int | None = None  # pairs per page the pilot says are needed
        #: The widest half-width among the entries still running after the last round
        #: (None before the first): what the progress bar shows.
        self.widest: float | None = None
        #: The half-width the phase running plays to (a lower rung's is looser).
        self.precision_now: float | None = None
        #: Every task played, in order (benchmarks/bench_sim.py replays them bare).
        self.tasks: list[Task] = []
        #: phase ("enemies" or a policy) → entry → the battles (pairs) it is expected to
        #: play in all: what ``plan`` adds up. A phase not begun is not here.
        self._finals: dict[str, dict[str, int]] = {}
        #: How many of the main policy's pairs of each stratum have their baseline battle
        #: in the enemy phase (``enemy_battles``, ``_reach``): none until that phase has run.
        self._covered = [0] * self.strata

    # ------------------------------------------------------------ decks and seeds
    @property
    def judges_page_targets(self) -> bool:
        """Whether this run measures what a page's 目標 states: its Δ when added to the
        starting deck, against every enemy each alone (the default run). Measured against
        fewer enemies (``--enemy``) or swapped for a page (``--baseline``), Δ answers
        another question, and the page's 目標 is not judged on it."""
        s = self.settings
        return (s.baseline_page is None and s.mode == "pool"
                and set(s.enemies) == set(self.tables.enemies))

    def baseline_deck(self) -> tuple[str, ...]:
        """The starting deck."""
        return tuple(self.tables.starter())

    def variant_deck(self, page: str) -> tuple[str, ...]:
        """The starting deck with one copy of ``page`` added, or swapped for the
        baseline page."""
        deck = list(self.baseline_deck())
        if self.settings.baseline_page is None:
            return (*deck, page)
        deck[deck.index(self.settings.baseline_page)] = page
        return tuple(deck)

    def swap_deck(self, page: str) -> tuple[str, ...]:
        """The starting deck with one copy of the reference page replaced by ``page``."""
        deck = list(self.baseline_deck())
        deck[deck.index(self.settings.reference)] = page
        return tuple(deck)

    def swap_pool(self) -> list[str]:
        """The pages measured swapped for the reference page (none without one; none whose
        copies the swap would take past its 上限枚数)."""
        reference = self.settings.reference
        return [] if reference is None else [
            p for p in self.pool() if p != reference and self._allowed(p, self.swap_deck(p))]

    def pool(self) -> list[str]:
        """The pages examined (the baseline page itself is not compared with itself), but
        those whose copy added would take the deck past the page's 上限枚数 (``beyond_cap``):
        a deck the rules forbid (E055) answers no question a designer can act on."""
        return [p for p in self._named() if self._allowed(p, self.variant_deck(p))]

    def beyond_cap(self) -> list[dict]:
        """The pages named that the lab leaves out as not addable: each with its copies in
        the starting deck and its 上限枚数."""
        deck = self.baseline_deck()
        return [{"id": p, "name": self.tables.pages[p].name, "in_deck": deck.count(p),
                 "cap": self.tables.pages[p].deck_cap, "cap_written": cap_written(self.tables.pages[p]),
                 "target": _target(self.tables.pages[p])}
                for p in self._named() if not self._allowed(p, self.variant_deck(p))]

    def _named(self) -> list[str]:
        pages = self.settings.pages or tuple(sorted(self.tables.pages))
        return [p for p in pages if p != self.settings.baseline_page]

    def _allowed(self, page: str, deck) -> bool:
        return deck.count(page) <= self.tables.pages[page].deck_cap

    @property
    def strata(self) -> int:
        """J, the strata a page's pairs are allocated over (stats.Stratified): one per
        enemy of the pool, one for the stage sequence."""
        return 1 if self.settings.mode == "stages" else len(self.settings.enemies)

    def stages_of_pair(self, index: int) -> tuple[str, ...]:
        """The stages pair ``index`` plays: the sequence, or the pool's enemy of its turn."""
        enemies = self.settings.enemies
        if self.settings.mode == "stages":
            return enemies
        return (enemies[index % len(enemies)],)

    def enemy_battles(self, group: int, start: int, stop: int) -> list[tuple[int, tuple]]:
        """Battles ``start`` .. ``stop`` of the enemy row — the stratum — ``group`` (the
        pool's enemy of that index; 0 for the stage sequence): the *k*-th is pair
        ``group + k·J``, so a page's pairs against that enemy are played on these seeds
        and the enemy phase has already played their baseline battles under the main
        policy (``_covered``)."""
        j = self.strata
        return [(self.settings.seed + group + k * j, self.stages_of_pair(group + k * j))
                for k in range(start, stop)]

    # ------------------------------------------------------------ playing
    def _play(self, what: str, wanted: list[tuple[_Entry, int, str, list]]) -> None:
        """Play, for each (entry, stratum, policy, [(seed, stages) …]), its battles,
        appending the outcomes to the entry's stratum in seed order. A battle the cache
        knows is not played, and a battle wanted twice in a round is played once: an
        outcome depends on its inputs alone, so the figures are the same either way."""
        cap, cache = self.settings.turn_cap, self.cache
        tasks, missing = [], {}
        for entry, _, policy, battles in wanted:
            for seed, stages in battles:
                ident = (entry.deck, policy, entry.focus, stages)
                if cache.lookup(entry.deck, policy, cap, entry.focus, seed, stages) is None:
                    missing.setdefault(ident, {})[seed] = None
        for (deck, policy, focus, stages), seeds in missing.items():
            battles = [(seed, stages) for seed in seeds]
            for start in range(0, len(battles), CHUNK):
                tasks.append(Task(deck, policy, cap, focus, tuple(battles[start:start + CHUNK])))
        self.tasks += tasks
        total = sum(len(battles) for *_, battles in wanted)
        played = sum(len(t.battles) for t in tasks)
        self.battles += total - played
        planned, basis = self.plan()  # the plan changes between rounds, never within one
        results = self._runner.run_counted(
            work, tasks, lambda done: self.progress(Step(what, done, planned, basis)),
            done=self.battles, size=len) if tasks else []
        for task, result in zip(tasks, results):
            for (seed, stages), outcome in zip(task.battles, result):
                cache.store(task.deck, task.policy, cap, task.focus, seed, stages, outcome)
        for entry, stratum, policy, battles in wanted:
            entry.strata[stratum].extend(
                cache.lookup(entry.deck, policy, cap, entry.focus, seed, stages, count=False)
                for seed, stages in battles)
        self.battles += played
        self.played += played
        cache.flush()

    def _next_size(self, done: int, needed: int) -> int:
        """The size of an entry's next round: what it still needs, at least ``batch`` more,
        at most four times what it has."""
        s = self.settings
        return stats.round_size(done, needed, s.batch, s.max_pairs, CHUNK)

    # ------------------------------------------------------------ phase 1
    def run_enemies(self) -> list[_Entry]:
        """The starting deck against each enemy (or the stage sequence), to precision."""
        s = self.settings
        groups = [s.enemies] if s.mode == "stages" else [(e,) for e in s.enemies]
        entries = {"→".join(g): _Entry("→".join(g), self.baseline_deck(), None) for g in groups}
        index = {key: i for i, key in enumerate(entries)}
        size = {key: min(s.batch, s.max_pairs) for key in entries}
        need: dict[str, int] = {}
        while True:
            self._finals["enemies"] = _finals(entries.values(), size, need)
            wanted = [(e, 0, s.policy, self.enemy_battles(index[e.key], len(e.outcomes),
                                                          size[e.key]))
                      for e in entries.values() if not e.done]
            if not wanted:
                break
            self._play("敵", wanted)
            widths = []
            for e in entries.values():
                if e.done:
                    continue
                n = len(e.outcomes)
                interval = stats.wilson(sum(o.won for o in e.outcomes), n)
                widths.append(interval.half_width)
                if interval.half_width <= s.precision or n >= s.max_pairs:
                    e.done = True
                else:
                    needed = stats.battles_needed(interval.estimate, s.precision)
                    need[e.key] = min(s.max_pairs, needed)
                    size[e.key] = self._next_size(n, needed)
            self.widest = max(widths)
        self._covered = [len(e.outcomes) for e in entries.values()]  # a row is a stratum
        return list(entries.values())

    # ------------------------------------------------------------ phase 2
    def run_pages(self, policy: str, *, swap: bool = False) -> tuple[_Entry, dict[str, _Entry]]:
        """The baseline's and every page's paired battles under ``policy``, to precision;
        ``swap``: each page swapped for the reference page (``swap_deck``) instead."""
        s = self.settings
        precision = s.precision_of(policy)
        # what the progress says of this phase: no width before its first round (the last
        # phase's ended at ±0.0, all settled), and this phase's own target
        self.widest, self.precision_now = None, precision
        def entry(key, deck, focus):
            return _Entry(key, deck, focus, [[] for _ in range(self.strata)])

        baseline = entry("baseline", self.baseline_deck(), None)
        pages = ({p: entry(p, self.swap_deck(p), p) for p in self.swap_pool()} if swap
                 else {p: entry(p, self.variant_deck(p), p) for p in self.pool()})
        phase = SWAP_PHASE if swap else policy
        strata = range(self.strata)
        # The pilot: every stratum equally (its spread is not known yet).
        pilot = (math.ceil(min(s.batch, s.max_pairs) / self.strata),) * self.strata
        size = dict.fromkeys(pages, pilot)
        need: dict[str, int] = {}
        first = True
        while True:
            self._finals[phase] = _finals(pages.values(),
                                          {k: sum(stops) for k, stops in size.items()}, need)
            active = [e for e in pages.values() if not e.done]
            if not active:
                break
            # The baseline plays ahead of the pages (BASELINE_AHEAD): one deck for all of
            # them, its further battles narrow every page's interval (stats.control_strata).
            reach = self._reach(policy, [max(size[e.key][j] for e in active) for j in strata])
            wanted = [(e, j, policy, self.enemy_battles(j, len(e.strata[j]), stop))
                      for e, stops in ((baseline, reach), *((e, size[e.key]) for e in active))
                      for j, stop in enumerate(stops) if stop > len(e.strata[j])]
            name = PLAYER_NAMES.get(policy, policy)
            self._play(f"入れ替え（{name}）" if swap else f"ページ（{name}）", wanted)
            needs = []
            self.widest = 0.0
            # Neyman's shares: how contested each enemy is for the baseline, the same for
            # every page (a page's own spreads would bias its Δ: stats.Stratified).
            shares = tuple(stats.contested(sum(o.won for o in stratum), len(stratum))
                           for stratum in baseline.strata)
            for e in active:
                paired = self.paired(baseline, e, shares)
                e.looks += 1
                # A page's 目標 bounds its Δ when added: the swap Δ plays to its own
                # verdict alone, not to bounds written for another number.
                target = None if swap or not self.judges_page_targets \
                    else _target(self.tables.pages[e.key])
                judged = stats.judge(paired, e.looks, precision, s.max_pairs, target)
                if judged.done:
                    e.done, e.z = True, judged.z
                    e.base_n = tuple(len(stratum) for stratum in baseline.strata)
                    e.final = replace(paired, z=judged.z, shares=None)
                    continue
                self.widest = max(self.widest, paired.interval().half_width)
                needs.append(judged.needed)
                need[e.key] = min(s.max_pairs, judged.needed)
                # The next round's pairs go by those shares.
                size[e.key] = paired.allocation(self._next_size(paired.n, judged.needed))
            if first and policy == s.policy and not swap:
                # No page plays past max_pairs: nor does the estimate of what one needs.
                self.estimate = min(s.max_pairs, stats.middle(needs) if needs else s.batch)
                first = False
        return baseline, pages

    def _reach(self, policy: str, longest: list[int]) -> list[int]:
        """How far a phase's baseline plays in each stratum when its longest page plays
        ``longest[j]`` pairs there: BASELINE_AHEAD times as far, up to the stratum's share
        of ``max_pairs`` but never short of the longest page — and under the main policy
        every battle the enemy phase played against that enemy (``enemy_battles``: those
        battles are the baseline's own, already played, so they narrow the adjustment for
        free; the hardest enemies' rows run to 1,000 battles, which measured 4% fewer
        battles in all than stopping at the share). Decided by the run's own figures,
        never by what a cache happens to hold: the report is the same cached or not."""
        covered = self._covered if policy == self.settings.policy else [0] * self.strata
        most = math.ceil(self.settings.max_pairs / self.strata)
        return [max(pairs, done, min(most, BASELINE_AHEAD * pairs))
                for pairs, done in zip(longest, covered)]

    # ------------------------------------------------------------ the plan
    def plan(self) -> tuple[int, str]:
        """(battles the whole run is planned to play, its basis: see ``Step``). A phase
        begun counts each entry at what it played (finished) or at the larger of its
        current round and what its variance says it needs; a phase not begun counts its
        pilot round — or, once the main policy's pilot has spoken, for a lower rung of the
        ladder that estimate scaled to the rung's looser precision. The pages of a phase
        share the baseline's battles: it plays BASELINE_AHEAD times the longest page."""
        s = self.settings
        pilot = min(s.batch, s.max_pairs)
        groups = 1 if s.mode == "stages" else len(s.enemies)
        planned = sum(self._finals.get("enemies", {}).values()) or groups * pilot
        for policy in s.ladder:
            finals = self._finals.get(policy)
            if finals is None:
                guess = pilot
                if self.estimate is not None:
                    scaled = self.estimate * (s.precision / s.precision_of(policy)) ** 2
                    guess = min(s.max_pairs, max(pilot, math.ceil(scaled)))
                finals = dict.fromkeys(self.pool(), guess)
            planned += self._baseline_plan(policy, finals) + sum(finals.values())
        if s.reference is not None:  # the swap phase, under the main policy
            finals = self._finals.get(SWAP_PHASE) or dict.fromkeys(
                self.swap_pool(), self.estimate or pilot)
            planned += self._baseline_plan(s.policy, finals) + sum(finals.values())
        return planned, "floor" if self.estimate is None else "estimate"

    def _baseline_plan(self, policy: str, finals: dict[str, int]) -> int:
        """The baseline battles a phase whose pages play ``finals`` pairs is planned to
        need: ``_reach`` of the longest, its pairs taken as spread evenly."""
        longest = math.ceil(max(finals.values(), default=0) / self.strata)
        return sum(self._reach(policy, [longest] * self.strata))

    def paired(self, baseline: _Entry, variant: _Entry,
               shares: tuple[float, ...] | None = None) -> stats.Stratified:
        """A page's pairs (its battles against the baseline's of the same seeds) stratum by
        stratum, each with the regression adjustment on the baseline's battles of that
        stratum played beyond them (stats.control_strata); ``shares``: the allocation's
        (stats.Stratified.shares). A page judged done has them as judged (``final``)."""
        if variant.final is not None and shares is None:
            return variant.final
        totals = variant.base_n or tuple(len(b) for b in baseline.strata)
        cells = [Counter((v.won, b.won) for v, b in zip(vs, bs))
                 for vs, bs in zip(variant.strata, baseline.strata)]
        adjustments = stats.control_strata(
            [[v.won - b.won for v, b in zip(vs, bs)]
             for vs, bs in zip(variant.strata, baseline.strata)],
            [self._centred(baseline, j, total)[:len(vs)]
             for j, (vs, total) in enumerate(zip(variant.strata, totals))],
            list(totals)) or [None] * self.strata
        return stats.Stratified(tuple(
            stats.Paired(c[1, 1], c[1, 0], c[0, 1], c[0, 0], adjustment=a)
            for c, a in zip(cells, adjustments)), variant.z, shares)

    def _centred(self, baseline: _Entry, stratum: int, total: int) -> list[tuple]:
        """The covariates of the first ``total`` baseline battles of ``stratum``, less
        their mean: x − x̄_N of stats.control_strata, taken within each enemy (a page's
        pairs read the first rows, as many as it has pairs). Worked out once for every
        page of a round: they read only the baseline (noted in its ``_Entry.centred``).

        Why within each enemy: how a pair's Δ follows its baseline battle depends on the
        enemy — a win against an enemy the deck nearly always beats says little, one
        against the hardest says the variant may well lose it. Centred by enemy, the same
        three covariates explain about 0.40–0.45 of Δ's variance on the bundled content
        against 0.31–0.37 raw, at no more parameters (a slope per enemy would overfit
        the pilot's 20 pairs an enemy)."""
        rows = baseline.centred.get((stratum, total))
        if rows is None:
            xs = [_covariates(outcome) for outcome in baseline.strata[stratum][:total]]
            means = [sum(column) / len(xs) for column in zip(*xs)] if xs else []
            rows = baseline.centred[stratum, total] = [
                tuple(x - m for x, m in zip(row, means)) for row in xs]
        return rows

    # ------------------------------------------------------------ the report
    def run(self) -> dict:
        """Both phases, and the report (plain data, the same for the same input)."""
        from contextlib import ExitStack

        with ExitStack() as self._stack:
            self._opened = None
            enemies = self.run_enemies()
            # The main policy first: its pilot says how long the run will take.
            ladder = self.settings.ladder
            played = {policy: self.run_pages(policy) for policy in (ladder[-1], *ladder[:-1])}
            by_policy = {policy: played[policy] for policy in ladder}
            swapped = self.run_pages(self.settings.policy, swap=True) \
                if self.settings.reference is not None else None
        return self.report(enemies, by_policy, swapped)

    @property
    def _runner(self):
        """The workers, started when the first battle is to be played: a run the cache
        answers whole starts none."""
        if self._opened is None:
            from .backends import open_runner

            self._opened = self._stack.enter_context(open_runner(
                prepare, self.literal, workers=self.workers, backend=self.backend,
                address=self.address))
        return self._opened

    def report(self, enemies: list[_Entry], by_policy: dict, swapped=None) -> dict:
        """The report of finished phases (the schema is sim/report_html.py's); ``swapped``:
        the swap phase's (baseline, pages), when a reference page was named."""
        from .cache import content_digest

        s = self.settings
        baseline, pages = by_policy[s.policy]
        return {
            "format": FORMAT,
            "settings": {"policy": s.policy, "ladder": list(s.ladder), "mode": s.mode,
                         "enemies": list(s.enemies), "baseline_deck": list(self.baseline_deck()),
                         "page_names": {p: self.tables.pages[p].name
                                        for p in sorted(set(self.baseline_deck()))},
                         "baseline_page": s.baseline_page, "reference": s.reference,
                         "page_targets_judged": self.judges_page_targets,
                         "beyond_cap": self.beyond_cap(),
                         "page_targets_unjudged": 0 if self.judges_page_targets else sum(
                             _target(self.tables.pages[p]) is not None for p in self.pool()),
                         "precision": s.precision,
                         "ladder_precision": {p: s.precision_of(p) for p in s.ladder},
                         "max_pairs": s.max_pairs, "turn_cap": s.turn_cap, "seed": s.seed,
                         "confidence": 0.95, "content": content_digest(self.literal)},
            "baseline": {"battles": len(baseline.outcomes),
                         "win_rate": stats.rate_interval([o.won for o in baseline.outcomes],
                                                         baseline.weights).to_dict()},
            "enemies": [self._enemy_row(e) for e in enemies],
            "pages": [{**self._page_row(key, by_policy),
                       "swap_delta": self._swap_delta(swapped, key)} for key in sorted(pages)],
            "run": {"battles": self.battles, "pairs_estimate": self.estimate},
        }

    def _enemy_row(self, entry: _Entry) -> dict:
        outcomes = entry.outcomes
        n = len(outcomes)
        wins = [o for o in outcomes if o.won]
        interval = stats.wilson(len(wins), n)
        ids = entry.key.split("→")
        target = _target(self.tables.enemies[ids[0]]) if len(ids) == 1 else None
        turns = sum(o.turns for o in outcomes)
        return {
            "id": entry.key,
            "name": "→".join(self.tables.enemies[i].name for i in ids),
            "battles": n, "win_rate": interval.to_dict(),
            "turns_to_win": stats.mean([o.turns for o in wins]),
            "hp_lost": stats.mean([o.hp_lost for o in outcomes]),
            "damage_taken_per_turn": stats.ratio(sum(o.hp_lost for o in outcomes), turns),
            # of the stages the won runs cleared, those won by 突破ライン (every stage of a run
            # of stages, not its last alone)
            "breakthrough_share": stats.mean([o.breakthrough / len(ids) for o in wins]),
            "damage_taken": [list(kv) for kv in sorted(Counter(o.hp_lost for o in outcomes).items())],
            "target": target,
            "target_met": None if target is None else stats.target_met(
                interval, target["low"], target["high"]),
        }

    def _page_row(self, key: str, by_policy: dict) -> dict:
        s = self.settings
        verdicts, intervals = {}, {}
        for policy, (baseline, pages) in by_policy.items():
            intervals[policy] = self.paired(baseline, pages[key]).interval()
            verdicts[policy] = stats.verdict(intervals[policy], s.precision_of(policy))
        baseline, pages = by_policy[s.policy]
        entry = pages[key]
        paired = self.paired(baseline, entry)
        interval = paired.interval()
        page = self.tables.pages[key]
        target = _target(page) if self.judges_page_targets else None
        outcomes, weights = entry.outcomes, entry.weights
        n = sum(weights)  # the battles, each enemy weighed back to an equal share

        def total(value) -> float:
            return sum(w * value(o) for o, w in zip(outcomes, weights))

        plays, damage, steps = (total(lambda o, name=name: getattr(o, name))
                                for name in ("plays", "damage", "steps"))
        variant, base = paired.win_rates()
        return {
            "id": key, "name": page.name, "year": page.year, "pairs": paired.n,
            "text_sha256": _text_sha256(page),
            "delta": interval.to_dict(),
            # the interval's own level: 0.95, or a stricter one when the page stopped early
            # (stats.judge: each look spends part of the error, so its interval is wider)
            "delta_confidence": stats.rounded(stats.confidence_of(paired.z)),
            "discordant": {"variant_only": paired.variant_only,
                           "baseline_only": paired.baseline_only},
            "mcnemar_z": None if paired.mcnemar_z is None else stats.rounded(paired.mcnemar_z),
            "win_rate": {"variant": stats.rounded(variant), "baseline": stats.rounded(base)},
            "play_rate": stats.ratio(plays, n),
            "played_share": stats.ratio(total(lambda o: int(o.plays > 0)), n),
            "damage_per_play": stats.ratio(damage, plays),
            "damage_per_step": stats.ratio(damage, steps),
            "tears_per_battle": stats.ratio(total(lambda o: o.tears), n),
            "pens_per_battle": stats.ratio(total(lambda o: o.pens), n),
            "verdict": verdicts[s.policy],
            "verdicts_by_policy": verdicts,
            "deltas_by_policy": {p: i.to_dict() for p, i in intervals.items()},
            "policy_sensitive": stats.differ(intervals.values()),
            "pairing_gain": None if paired.pairing_gain is None
            else stats.rounded(paired.pairing_gain),
            "target": target,
            "target_met": None if target is None else stats.target_met(
                interval, target["low"], target["high"]),
            "observed": observed.figures(outcomes, weights,
                                         in_starter=key in self.baseline_deck()),
        }

    def _swap_delta(self, swapped, key: str) -> dict | None:
        """The page's Δ swapped for the reference page (its pairs and interval), or None
        without a reference (or for the reference itself)."""
        if swapped is None or key not in swapped[1]:
            return None
        paired = self.paired(swapped[0], swapped[1][key])
        return {"pairs": paired.n, "delta": paired.interval().to_dict()}


def text_digest(text: str) -> str:
    """The sha256 of a page's definition as written (its lines, line ends without CR): the
    report keeps it per page, and the editor's lens compares the page's text now with it
    — an edit of another page of the file, or a save that changes nothing, is no change
    of this one (lsp/lab_lens.py)."""
    lines = "\n".join(line.rstrip("\r") for line in text.split("\n"))
    return hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest()


def _text_sha256(page) -> str | None:
    """``text_digest`` of a page's source (None for tables built without sources)."""
    source = getattr(page, "source", None)
    return None if source is None else text_digest(source.text)


def _covariates(outcome: Outcome) -> tuple[int, int, int]:
    """What a baseline battle did that its pair's Δ is regressed on (stats.control_strata): won,
    HP lost, turns."""
    return outcome.won, outcome.hp_lost, outcome.turns


def _finals(entries, size: dict[str, int], need: dict[str, int]) -> dict[str, int]:
    """Each entry's battles (pairs) in all, as far as is known: what it played when
    finished, else the larger of its current round's size and its measured need."""
    return {e.key: sum(map(len, e.strata)) if e.done else max(size[e.key], need.get(e.key, 0))
            for e in entries}


def _target(item) -> dict | None:
    """An item's 目標 (contract Target, fractions) as plain data, or None."""
    target = getattr(item, "target", None)
    return None if target is None else {"low": target.low, "high": target.high}
