"""調整 — ``jibunki sim --tune``: the smallest one-number edit that puts a page's Δ win rate
(or an enemy's win rate) inside its 目標.

1. **The numbers.** (commands/tune_source.py) The item's source is parsed again (dsl.parser) and every number literal
   its effect reads is a candidate, with its place (path:line:col) and its text: for a page
   its 綻び倍率 and every number of its faces', pens' and tear's 作用 (constants,
   coefficients, payments, counts); for an enemy its HP, 突破ライン and Intent amounts.
2. **The tables of an edit.** The content is compiled in memory with the number's text
   replaced (compiler.pipeline, so a number means whatever the compiler makes of it); the
   workers receive only the leaves of the literal that changed (``diff``) and build those
   tables once each (``Context``).
3. **The search.** Every candidate is measured on the same seeds (paired with the same
   baseline battles, played once): first at both ends of its range, which says in which
   direction the measure moves and whether the band can be reached; then by bisection
   towards the value nearest the written one whose interval lies inside the band. The
   candidates of one step are played in one round, so both cores stay busy.
4. **The confirmation.** The least relative change is measured again on fresh seeds (an
   offset range), to the lab's precision; if it misses, the next candidate is tried.
5. **Together.** Each item is searched on the content as it was read, so edits written
   in one run may interact (an enemy's HP moves every page's Δ measured against it; a page
   of the starting deck moves every baseline). When more than one was written, the
   content as written is compiled again and every written item is confirmed once more on
   it, on fresh seeds (``together``): the same measure as the confirmation.

The battles are the lab's (sim.lab ``Task`` and ``work``, decks and stages from a ``Lab``),
the intervals sim.stats's; nothing depends on time or on the number of workers.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from decimal import Decimal

from contract.vocabulary import W

from . import stats
from .lab import CHUNK, Lab, Settings, Task, work

#: The confirmation's seeds start this far past the search's: a different range.
CONFIRM_OFFSET = 1_000_000
#: The seeds of the re-measure of several edits written together (``together``): past the
#: confirmation's, fresh for every item.
TOGETHER_OFFSET = 2_000_000
#: Pairs (battles, for an enemy) each trial of the search plays.
SEARCH_PAIRS = 400
#: Candidates confirmed at most, in order of least change, before giving up.
CONFIRM_TRIES = 2
#: Steps a confirmed edit may take past the searched one when fresh seeds find it short.
WALK = 3
#: At most so many steps of a walk in all, the steps that changed no battle included (a
#: number written to tenths may take ten of them to change what lands).
WALK_STEPS = 40


class TuneError(Exception):
    """A request that cannot be tuned (no 目標, a file that cannot be read): the message is
    Japanese, for the designer."""


# ------------------------------------------------------------------ the numbers


@dataclass(frozen=True)
class Candidate:
    """A number literal of the source that the item's measure depends on."""

    path: str  # as the compiler shows it (relative to the working folder)
    line: int
    col: int  # 1-based, in characters
    end_col: int
    text: str
    value: int | float
    role: str  # what the number is, in designer words (HP, 綻び倍率, 作用 …)
    source_line: str  # the whole line as written

    @property
    def where(self) -> str:
        """path:line:col."""
        return f"{self.path}:{self.line}:{self.col}"

    @property
    def decimals(self) -> int:
        """Digits after the point of the value as written: ``0.50`` has 2, ``5e-1`` 1 and
        ``1.5e1`` none (the language takes an exponent; the search's grid is the
        literal's last digit, wherever the exponent puts it)."""
        return max(0, -Decimal(self.text).as_tuple().exponent)

    @property
    def step(self) -> float:
        """The literal's last digit: the search's grid."""
        return 10.0 ** -self.decimals if self.decimals else 1

    def spell(self, value: float) -> str:
        """``value`` written to the literal's decimals (without an exponent)."""
        if not self.decimals:
            return str(int(round(value)))
        return f"{value:.{self.decimals}f}"

    def grid(self, value: float) -> int:
        """``value`` in steps of the literal's last digit."""
        return int(round(value / self.step))

    def at(self, index: int) -> int | float:
        """The value of grid index ``index``."""
        return index if not self.decimals else round(index * self.step, self.decimals)

    def edited_line(self, value: float) -> str:
        """The source line with the number written as ``value``."""
        return (self.source_line[:self.col - 1] + self.spell(value)
                + self.source_line[self.end_col - 1:])

    def relative_change(self, value: float) -> float:
        """|value − written| / |written| (a written 0: in steps)."""
        return abs(value - self.value) / max(abs(self.value), self.step)


def find_item(table: dict, item_id: str) -> dict:
    """An item's literal in a pages/enemies table."""
    for value in table.values():
        if isinstance(value, list):
            for row in value:
                if isinstance(row, dict) and row.get("id") == item_id:
                    return row
        if isinstance(value, dict) and item_id in value and isinstance(value[item_id], dict):
            return value[item_id]
    raise TuneError(f"「{item_id}」が表にありません")


# ------------------------------------------------------------------ patches, workers


def diff(old, new, path=()) -> list:
    """The leaves (or whole subtrees, where the shape changed) of ``new`` that differ from
    ``old``, as (path, value)."""
    if type(old) is not type(new):
        return [(path, new)]
    if isinstance(old, dict):
        if old.keys() != new.keys():
            return [(path, new)]
        return [d for k in old for d in diff(old[k], new[k], (*path, k))]
    if isinstance(old, list):
        if len(old) != len(new):
            return [(path, new)]
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in diff(a, b, (*path, i))]
    return [] if old == new else [(path, new)]


def patched(literal: dict, patch) -> dict:
    """``literal`` with a ``diff``'s changes made (a copy)."""
    if not patch:
        return literal
    out = copy.deepcopy(literal)
    for path, value in patch:
        if not path:
            return copy.deepcopy(value)
        node = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return out


class Context:
    """What a worker keeps: the base literals, and the tables of the edits it has seen."""

    KEEP = 24

    def __init__(self, literal: dict):
        self.literal = literal
        self.tables: dict[str, object] = {}

    def of(self, patch):
        """The tables of an edit (built once)."""
        from runtime.tables import from_dicts

        key = repr(patch)
        if key not in self.tables:
            if len(self.tables) >= self.KEEP:
                self.tables.pop(next(iter(self.tables)))
            self.tables[key] = from_dicts(patched(self.literal, patch))
        return self.tables[key]


def prepare(literal: dict) -> Context:
    """A worker's context (sim.backends ``prepare``)."""
    return Context(literal)


def play(context: Context, job) -> list:
    """A lab task played on the tables of an edit: ``job`` is (patch, sim.lab.Task)."""
    patch, task = job
    return work(context.of(patch), task)


# ------------------------------------------------------------------ measuring


@dataclass(frozen=True)
class Subject:
    """What is tuned: a page (its Δ win rate) or an enemy (the starting deck's win rate
    against it alone), with its 目標 as fractions."""

    kind: str  # "page" | "enemy"
    id: str
    name: str
    low: float
    high: float


@dataclass
class Measure:
    """One measurement: the interval, and how many pairs (battles) it rests on."""

    interval: stats.Interval
    n: int
    #: The starting deck's win rate in the same battles, when the edit changes it too (a
    #: page of the starting deck): an edit that makes the deck win everything squeezes
    #: every Δ towards 0, which the page's own interval does not show.
    baseline: stats.Interval | None = None

    def inside(self, s: Subject) -> bool:
        """Whether the interval lies wholly inside the 目標."""
        return stats.target_met(self.interval, s.low, s.high) is True


class Meter:
    """Plays a subject's battles under edits: the search's seeds are shared by every
    trial (and a page's baseline battles, which no edit of the page changes unless the
    page is in the starting deck, are played once)."""

    def __init__(self, runner, base_literal: dict, settings: Settings, tables, *,
                 workers: int = 1, backend: str = "local", address: str | None = None):
        self.runner, self.literal, self.settings = runner, base_literal, settings
        self.lab = Lab(base_literal, tables, settings)
        self.baselines: dict[tuple, list] = {}
        self.battles = 0
        self.workers, self.backend, self.address = workers, backend, address

    def reported(self, subject: Subject, literal: dict | None = None) -> Measure:
        """The written page's Δ as ``jibunki sim --page ID`` reports it — the lab's own row
        (its interval stratified by enemy and adjusted on the baseline's further battles),
        on the report's seeds, to the lab's precision — so that what the tune calls inside
        its 目標 is what ``--check`` calls 達成, and its いま is the report's figure. (An
        enemy's row is already the tune's: ``_enemy_seeds``.) ``literal``: the content
        with an edit (a confirmed edit is measured so before it is called inside)."""
        from dataclasses import replace

        # the enemy phase too: its battles are the baseline's too, and adjust the page's Δ
        settings = replace(self.settings, pages=(subject.id,), ladder=(self.settings.policy,),
                           reference=None)
        lab = Lab(self.literal if literal is None else literal, self.lab.tables, settings,
                  workers=self.workers, backend=self.backend, address=self.address)
        (row,) = lab.run()["pages"]
        self.battles += lab.played
        delta = row["delta"]
        return Measure(stats.Interval(delta["estimate"], delta["low"], delta["high"]), row["pairs"])

    def measure(self, subject: Subject, patches: list, start: int, n: int) -> list[Measure]:
        """Each patch's measure on pairs ``start`` .. ``start + n`` (one round)."""
        lab, s = self.lab, self.settings
        seeds = [(s.seed + i, lab.stages_of_pair(i)) for i in range(start, start + n)]
        if subject.kind == "enemy":
            seeds = _enemy_seeds(lab, subject.id, start, n)
        jobs, owners = [], []

        def want(owner, deck, focus, patch) -> None:
            for at in range(0, len(seeds), CHUNK):
                jobs.append((patch, Task(deck, s.policy, s.turn_cap, focus,
                                         tuple(seeds[at:at + CHUNK]))))
                owners.append(owner)

        # A page in the starting deck changes its baseline too.
        shared = subject.kind == "page" and subject.id not in lab.baseline_deck()
        base_keys = []
        for k, patch in enumerate(patches):
            if subject.kind == "enemy":
                want(("v", k), lab.baseline_deck(), None, patch)
                continue
            want(("v", k), lab.variant_deck(subject.id), subject.id, patch)
            key = (start, n, () if shared else repr(patch))
            base_keys.append(key)
            if key not in self.baselines and ("b", key) not in owners:
                want(("b", key), lab.baseline_deck(), None, () if shared else patch)
        results = self.runner.run(play, jobs)
        self.battles += sum(len(t.battles) for _, t in jobs)
        got: dict = {}
        for owner, result in zip(owners, results):
            got.setdefault(owner, []).extend(result)
        for owner, outcomes in got.items():
            if owner[0] == "b":
                self.baselines[owner[1]] = outcomes
        out = []
        for k in range(len(patches)):
            variant = got[("v", k)]
            if subject.kind == "enemy":
                interval = stats.wilson(sum(o.won for o in variant), len(variant))
                out.append(Measure(interval, len(variant)))
                continue
            base = self.baselines[base_keys[k]]
            moved = None if shared else stats.wilson(sum(o.won for o in base), len(base))
            out.append(Measure(_paired(variant, base).interval(), len(variant), moved))
        return out

    def to_precision(self, subject: Subject, patch, start: int) -> Measure:
        """A measure on pairs from ``start``, played in rounds until its half-width is the
        settings' precision (or ``max_pairs``), as the lab plays an entry."""
        s = self.settings
        n = min(s.batch, s.max_pairs)
        variant, base = [], []
        while True:
            more = n - len(variant)
            if more > 0:
                variant += self._outcomes(subject, patch, start + len(variant), more, "v")
                if subject.kind == "page":
                    base += self._outcomes(subject, patch, start + len(base), more, "b")
            if subject.kind == "enemy":
                interval = stats.wilson(sum(o.won for o in variant), len(variant))
                needed = stats.battles_needed(interval.estimate, s.precision)
            else:
                paired = _paired(variant, base)
                interval = paired.interval()
                needed = stats.pairs_for(paired.unit_variance(), s.precision)
            if interval.half_width <= s.precision or len(variant) >= s.max_pairs:
                return Measure(interval, len(variant))
            grow = min(max(needed, len(variant) + s.batch), 4 * len(variant))
            n = min(s.max_pairs, math.ceil(grow / CHUNK) * CHUNK)

    def _outcomes(self, subject: Subject, patch, start: int, n: int, which: str) -> list:
        lab, s = self.lab, self.settings
        if subject.kind == "enemy":
            seeds = _enemy_seeds(lab, subject.id, start, n)
            deck, focus = lab.baseline_deck(), None
        else:
            seeds = [(s.seed + i, lab.stages_of_pair(i)) for i in range(start, start + n)]
            deck, focus = ((lab.variant_deck(subject.id), subject.id) if which == "v"
                           else (lab.baseline_deck(), None))
            if which == "b" and subject.id not in lab.baseline_deck():
                patch = ()
        jobs = [(patch, Task(deck, s.policy, s.turn_cap, focus, tuple(seeds[at:at + CHUNK])))
                for at in range(0, len(seeds), CHUNK)]
        self.battles += len(seeds)
        return [o for result in self.runner.run(play, jobs) for o in result]


def _paired(variant: list, baseline: list) -> stats.Paired:
    cells = {(1, 1): 0, (1, 0): 0, (0, 1): 0, (0, 0): 0}
    for v, b in zip(variant, baseline):
        cells[v.won, b.won] += 1
    return stats.Paired(cells[1, 1], cells[1, 0], cells[0, 1], cells[0, 0])


# ------------------------------------------------------------------ the search


@dataclass
class Trial:
    """A value tried and its measure on the search's seeds."""

    value: float
    measure: Measure


@dataclass
class Reach:
    """What one candidate can do: the value nearest the written one whose interval is
    inside the band (``found``), or, when none is, the closest it came (``closest``)."""

    candidate: Candidate
    found: Trial | None = None
    #: What the bisection found on the search's seeds (``found`` may lie a few steps past
    #: it when fresh seeds found it short).
    searched: Trial | None = None
    closest: Trial | None = None
    trials: list[Trial] = field(default_factory=list)

    @property
    def change(self) -> float:
        """The relative change of the value found (or the closest)."""
        best = self.found or self.closest
        return math.inf if best is None else self.candidate.relative_change(best.value)


@dataclass
class Outcome:
    """The whole answer for one subject."""

    subject: Subject
    #: The written value on the search's seeds (what each trial is compared with).
    before: Measure
    reaches: list[Reach]
    #: The written value measured to the lab's precision (``Meter.to_precision``, the
    #: report's seeds): whether there is anything to change is decided on it, not on the
    #: search's few pairs — an interval of 400 pairs touches a bound the report's clears.
    now: Measure | None = None
    chosen: Reach | None = None
    confirmed: Measure | None = None
    #: A page's confirmed edit measured as the report measures it (``Meter.reported``):
    #: it is called inside only when this is too, so that ``--check`` after ``--apply``
    #: says 達成 (the fresh seeds' paired estimate alone did not: +3.8 [−0.4, +7.9]
    #: inside, then +1.9 [−2.9, +6.7] 未決 in the report).
    reported: Measure | None = None
    confirm_seed: int = 0
    tried: list[tuple[Reach, Measure]] = field(default_factory=list)
    battles: int = 0
    #: ``--max-pairs`` when a confirmation stopped there, coarser than the search's own
    #: pairs: no walk is taken on it (with 20 battles a walk of 1 HP steps chased noise
    #: for 23 steps, HP 99 → 76, where the search had found 99).
    capped: int | None = None

    @property
    def already(self) -> bool:
        """Whether it was inside its 目標 as written (measured to precision)."""
        return (self.now or self.before).inside(self.subject)


def distance(m: Measure, s: Subject) -> float:
    """How far an interval lies outside the band (0: inside), in fractions."""
    return max(0.0, m.interval.high - s.high) + max(0.0, s.low - m.interval.low)


def span_of(cand: Candidate) -> tuple[int, int]:
    """The candidate's range, in grid steps: from 0 to three times the written value (at
    least ten steps above it); a 綻び倍率 stays under the contract's bound."""
    from contract.vocabulary import FRAY_MUL_BOUND

    here = cand.grid(cand.value)
    top = max(3 * here, here + 10)
    if cand.role == W.variable.fray_mul:
        top = min(top, cand.grid(FRAY_MUL_BOUND))
    return 0, top


def tune(content, meter: Meter, subject: Subject, cands: list[Candidate],
         pairs: int = SEARCH_PAIRS) -> Outcome:
    """Search every candidate of ``subject``, then confirm the least change on fresh
    seeds. ``content`` compiles an edit (``edited(candidate, value)``: the literals, or None)
    and holds the unedited ``literal`` (commands/tune_source.py ``Content``)."""
    start_battles = meter.battles
    patch_of: dict[tuple, object] = {}

    def patch(cand: Candidate, index: int):
        key = (cand.where, index)
        if key not in patch_of:
            literal = content.edited(cand, cand.at(index))
            patch_of[key] = None if literal is None else tuple(diff(content.literal, literal))
        return patch_of[key]

    def round_of(points: list[tuple[Reach, int]]) -> list[Trial | None]:
        """Measure each (reach, grid index) in one round; None: the edit does not compile."""
        valid = [(r, i, patch(r.candidate, i)) for r, i in points]
        todo = [(r, i, p) for r, i, p in valid if p is not None]
        measures = meter.measure(subject, [p for _, _, p in todo], 0, pairs) if todo else []
        by = {(id(r), i): Trial(r.candidate.at(i), m) for (r, i, _), m in zip(todo, measures)}
        out = []
        for r, i, _ in valid:
            trial = by.get((id(r), i))
            if trial is not None:
                r.trials.append(trial)
            out.append(trial)
        return out

    now = meter.reported(subject) if subject.kind == "page" else meter.to_precision(subject, (), 0)
    if now.inside(subject) or not cands:
        outcome = Outcome(subject, now, [Reach(c) for c in cands], now)
        outcome.battles = meter.battles - start_battles
        return outcome
    before = meter.measure(subject, [()], 0, pairs)[0]
    outcome = Outcome(subject, before, [Reach(c) for c in cands], now)
    too_high = before.interval.high > subject.high
    # Both ends of every range, in one round; an end that does not compile moves halfway in.
    ends: dict[int, list[int]] = {}
    for r in outcome.reaches:
        here = r.candidate.grid(r.candidate.value)
        lo, hi = span_of(r.candidate)
        ends[id(r)] = [lo, hi, here]
    trials = round_of([(r, e) for r in outcome.reaches for e in ends[id(r)][:2]])
    for _ in range(3):
        retry = []
        for k, r in enumerate(outcome.reaches):
            for side in (0, 1):
                if trials[2 * k + side] is None:
                    e, here = ends[id(r)][side], ends[id(r)][2]
                    ends[id(r)][side] = (e + here) // 2 if side == 0 else -(-(e + here) // 2)
                    retry.append((k, side))
        if not retry:
            break
        again = round_of([(outcome.reaches[k], ends[id(outcome.reaches[k])][side])
                          for k, side in retry])
        for (k, side), t in zip(retry, again):
            trials[2 * k + side] = t
    # Bisection towards the value nearest the written one that is inside the band.
    brackets = {}
    for k, r in enumerate(outcome.reaches):
        here = ends[id(r)][2]
        pair = [(ends[id(r)][side], trials[2 * k + side]) for side in (0, 1)]
        pair = [(i, t) for i, t in pair if t is not None and i != here]
        if not pair:
            continue
        # The end that moves the measure the right way.
        index, end = (min if too_high else max)(pair, key=lambda it: it[1].measure.interval.estimate)
        if not _past(end.measure, subject, too_high):
            r.closest = min(r.trials, key=lambda t: (distance(t.measure, subject),
                                                    r.candidate.relative_change(t.value)))
            continue
        brackets[id(r)] = (r, here, index, end)
    while brackets:
        points = []
        for key, (r, near, far, end) in list(brackets.items()):
            if abs(far - near) <= 1:
                _settle(r, end, subject)
                del brackets[key]
                continue
            points.append((r, (near + far) // 2 if far > near else -(-(near + far) // 2)))
        if not points:
            break
        for (r, mid), t in zip(points, round_of(points)):
            _, near, far, end = brackets[id(r)]
            if t is not None and _past(t.measure, subject, too_high):
                brackets[id(r)] = (r, near, mid, t)
            else:
                brackets[id(r)] = (r, mid, far, end)
    # found first, by least change; then the closest, by distance and among equals by
    # least change (deleting a 綻び倍率 was offered where 29 → 28 did as well)
    ranked = sorted(outcome.reaches, key=lambda r: (
        r.found is None,
        r.change if r.found else distance(r.closest.measure, subject) if r.closest else math.inf,
        0.0 if r.found or not r.closest else abs(r.candidate.relative_change(r.closest.value))))
    outcome.reaches = ranked
    outcome.confirm_seed = meter.settings.seed + CONFIRM_OFFSET

    def coarse(m: Measure) -> bool:
        # Stopped by --max-pairs short of the precision on fewer pairs than the search's:
        # coarser than what found the edit, so no ground to walk further.
        return m.n < pairs and m.interval.half_width > meter.settings.precision

    for r in [r for r in ranked if r.found][:CONFIRM_TRIES]:
        index = r.candidate.grid(r.found.value)
        way = 1 if index > r.candidate.grid(r.candidate.value) else -1
        lo, hi = span_of(r.candidate)

        def stepped(index, r=r):
            # One step further, measured on the search's seeds too (what is shown).
            r.found = round_of([(r, index)])[0]

        fresh, reported = {}, {}

        def measure_at(index, r=r):
            m = fresh[index] = confirm(meter, subject, patch(r.candidate, index))
            if subject.kind == "page" and m.inside(subject):
                # Inside on fresh seeds: as the report measures it decides (what --check says).
                m = reported[index] = meter.reported(
                    subject, content.edited(r.candidate, r.candidate.at(index)))
            return m

        m = walk(measure_at, index, way,
                 lambda index, r=r: lo <= index <= hi and patch(r.candidate, index) is not None,
                 lambda m: m.inside(subject) or coarse(m) or not _short(m, subject, too_high),
                 stepped)
        at = r.candidate.grid(r.found.value)
        outcome.tried.append((r, m))
        if coarse(m) and not m.inside(subject):
            outcome.capped = meter.settings.max_pairs
        if m.inside(subject):
            outcome.chosen, outcome.confirmed = r, fresh[at]
            outcome.reported = reported.get(at)
            break
    outcome.battles = meter.battles - start_battles
    return outcome


def walk(measure_at, index: int, way: int, can_step, settled, stepped) -> Measure:
    """確認の歩み — the edit found barely inside on the search's seeds may fall short on
    fresh ones: confirm grid index ``index`` (``measure_at``), and while the measure is not
    ``settled`` (inside, or past the band) step ``way`` (``stepped`` is told each new
    index) as far as ``can_step`` allows, WALK steps that changed the measure at most —
    a step that changed no battle (10.0 → 5.9 → 5.8 where damage lands truncated, the
    same 5) is no step towards the band and does not use the walk up (WALK_STEPS in all).
    The last measure."""
    moved, before = 0, None
    for _ in range(WALK_STEPS):
        m = measure_at(index)
        moved += m.interval != before
        before = m.interval
        if settled(m) or moved > WALK or not can_step(index + way):
            break
        index += way
        stepped(index)
    return m


def confirm(meter: Meter, subject: Subject, patch=(), offset: int = CONFIRM_OFFSET) -> Measure:
    """確認 — ``subject`` measured under ``patch`` on fresh seeds (from ``offset``) to the
    settings' precision, paired for a page; ``Measure.inside`` is its verdict."""
    return meter.to_precision(subject, patch, offset)


@dataclass
class Together:
    """まとめて測り直し — the items whose edits were written, each confirmed again on the
    content with every edit written (``Meter`` on that content), on seeds from ``seed``."""

    seed: int
    rows: list[tuple[Subject, Measure]]
    battles: int = 0

    @property
    def fallen(self) -> list[Subject]:
        """The items no longer inside their 目標: their edit interacts with another."""
        return [s for s, m in self.rows if not m.inside(s)]


def together(meter: Meter, subjects: list[Subject]) -> Together:
    """Confirm every subject again on ``meter``'s content (the edits written), on fresh
    seeds (TOGETHER_OFFSET): the confirmation's measure, item by item."""
    start = meter.battles
    rows = [(s, confirm(meter, s, (), TOGETHER_OFFSET)) for s in subjects]
    return Together(meter.settings.seed + TOGETHER_OFFSET, rows, meter.battles - start)


def _past(m: Measure, s: Subject, too_high: bool) -> bool:
    """Whether the interval has come back across the band's violated end."""
    return m.interval.high <= s.high if too_high else m.interval.low >= s.low


def _short(m: Measure, s: Subject, too_high: bool) -> bool:
    """Whether the interval still crosses the violated end of the band (not overshot)."""
    return m.interval.high > s.high if too_high else m.interval.low < s.low


def _settle(r: Reach, end: Trial, s: Subject) -> None:
    """The bracket has closed at ``end``: inside the band, or past it (overshoot)."""
    if end.measure.inside(s):
        r.found = r.searched = end
    else:
        r.closest = min(r.trials, key=lambda t: (distance(t.measure, s),
                                                r.candidate.relative_change(t.value)))


# ------------------------------------------------------------------ the report


def pt(x: float) -> str:
    """A fraction as signed points."""
    return f"{x * 100:+.1f}"


def shown(m: Measure, s: Subject) -> str:
    """An interval as the lab prints it: Δ in points for a page, % for an enemy."""
    i = m.interval
    if s.kind == "page":
        return f"Δ {pt(i.estimate)} [{pt(i.low)}, {pt(i.high)}] pt"
    from contract.vocabulary import MEASURE_OF

    return f"{MEASURE_OF['enemy'].ja} {percent(i)}"


def percent(i: stats.Interval) -> str:
    """A rate's interval in per cent: 「75.5 [74.0, 77.0] %」."""
    return f"{i.estimate * 100:.1f} [{i.low * 100:.1f}, {i.high * 100:.1f}] %"


def band(s: Subject) -> str:
    """The 目標 as rules text says it."""
    from contract.vocabulary import MEASURE_OF

    return MEASURE_OF[s.kind].said_range(s.low, s.high)


def where_is(m: Measure, s: Subject) -> str:
    """Inside, outside (which side) or on an end of the 目標."""
    met = stats.target_met(m.interval, s.low, s.high)
    if met is True:
        return "目標の内側"
    side = "上" if m.interval.estimate > s.high else "下" if m.interval.estimate < s.low else ""
    if met is None:
        return f"目標の端にかかる{f'（{side}寄り）' if side else ''}"
    return f"目標の外（{side}）"


def lines_of(o: Outcome, pairs: int, unit: str) -> list[str]:
    """The designer's report of one subject (Japanese)."""
    s = o.subject
    what = "ページ" if s.kind == "page" else "敵"
    now = o.now or o.before
    out = [f"調整: {what} {s.name} {s.id}（{band(s)}）",
           f"  いま: {shown(now, s)}（{now.n} {unit}）— {where_is(now, s)}"]
    if stats.target_met(now.interval, s.low, s.high) is None:
        out.append("  （区間が目標の端にかかっていて、外れているとはまだ言えません。"
                   "内側に収まる変更を探します）")
    if o.already:
        out.append("  目標の内側なので変える数はありません。")
        return out
    if not o.reaches:
        out.append("  効果に数が書かれていないので、1 つの数では調整できません。")
        return out
    out.append(f"  調べた数（{len(o.reaches)} 個、各 {pairs} {unit}の同じシードで）:")
    for r in o.reaches:
        c = r.candidate
        head = f"    {c.where}  {c.role} {c.text}"
        if r.found:
            out.append(f"{head} → {c.spell(r.found.value)}（{_percent(c, r.found.value)}）"
                       f"  {shown(r.found.measure, s)}")
        elif r.closest and _unmoved(o, r):
            out.append(f"{head}: 動きません（探索のシードでは、どの値でも書いたままの値と同じ "
                       f"{shown(r.closest.measure, s)}）")
        elif r.closest:
            tried = sorted(t.value for t in r.trials)
            span = f"調べたのは {c.spell(tried[0])}〜{c.spell(tried[-1])}、" if len(tried) > 1 else ""
            # the value written itself the closest: said so, not as if a change were
            kept = "書いたままの " if r.closest.value == c.value else ""
            out.append(f"{head}: 届きません（{span}最も近いのは {kept}{c.spell(r.closest.value)}: "
                       f"{shown(r.closest.measure, s)}）")
        else:
            out.append(f"{head}: 測れません（書き換えるとコンパイルできません）")
    for r, m in o.tried:
        if r is not o.chosen:
            # an interval on an end of the band has not missed it: the lab says 未決
            said = (f"確認では目標の端にかかりました（{W.report.undecided}）"
                    if stats.target_met(m.interval, s.low, s.high) is None else "確認で外れました")
            out.append(f"  {said}: {r.candidate.where} {r.candidate.text} → "
                       f"{r.candidate.spell(r.found.value)}: {shown(m, s)}")
    if o.capped is not None:
        out.append(f"  確認は --max-pairs の {o.capped} {unit}で止まり、探索の {pairs} {unit}より"
                   "粗いので、その先の値は確かめませんでした。--max-pairs を --tune-pairs "
                   "以上にしてください。")
    if o.chosen is None:
        best = o.reaches[0]
        if all(r.found is None and r.closest is not None and _unmoved(o, r) for r in o.reaches):
            out.append("  どの数を変えても、探索のシードで測った値は書いたままの値と同じでした: この項目の数では"
                       "目標に近づけません（測る敵や方針、デッキに入る場面を見直してください）。")
        elif best.found is None and best.closest is not None and not _closer(o, best):
            out.append("  どの 1 つの数を変えても、いまより目標に近づく値はありませんでした"
                       "（測る敵や方針、デッキに入る場面を見直してください）。")
        elif best.found is None and best.closest is not None:
            out.append("  1 つの数を変えるだけでは目標に届きません。最も近いのは:")
            out += _diff(best.candidate, best.closest.value)
            out.append(_on_search_seeds(o, best.closest.measure, pairs, unit))
            out += _deck_moved(o.before, best.closest.measure)
        else:
            out.append("  確認で目標に入る変更は見つかりませんでした。")
        out += _too_narrow(o, s, pairs, unit)
        return out
    r, c = o.chosen, o.chosen.candidate
    out.append("  提案（変える割合の最も小さいもの）:")
    out += _diff(c, r.found.value)
    out.append(_on_search_seeds(o, r.found.measure, pairs, unit))
    out += _deck_moved(o.before, r.found.measure)
    out.append(f"  確認（新しいシード {o.confirm_seed}〜、{o.confirmed.n} {unit}）: "
               f"{shown(o.confirmed, s)} — {where_is(o.confirmed, s)}")
    last = o.confirmed
    if o.reported is not None:
        out.append(f"  レポートの測り方で（jibunki sim --page {s.id} と同じ、{o.reported.n} {unit}）: "
                   f"{shown(o.reported, s)} — {where_is(o.reported, s)}")
        last = o.reported
    out += _near_the_end(last, s)
    return out


def _too_narrow(o: Outcome, s: Subject, pairs: int, unit: str) -> list[str]:
    """Why an edit may be reported out of reach though it lands in the band: a value is
    found only when its whole interval lies inside the 目標, and a band narrower than the
    interval the search measures can hold none."""
    widths = [t.measure.interval.high - t.measure.interval.low
              for r in o.reaches for t in r.trials]
    if not widths or s.high - s.low >= min(widths):
        return []
    band_width, width = (s.high - s.low) * 100, min(widths) * 100
    # digits enough to show the one narrower (20.0 against 20.0 read as no difference)
    digits = next((d for d in range(1, 5) if f"{band_width:.{d}f}" != f"{width:.{d}f}"), 4)
    return [f"  目標の幅（{band_width:.{digits}f} pt）が、{pairs} {unit}で測る区間の幅"
            f"（{width:.{digits}f} pt）より狭いので、区間がまるごと目標に収まる値は"
            f"見つかりません。--tune-pairs を増やすか、目標の幅を広げてください。"]


def _on_search_seeds(o: Outcome, after: Measure, pairs: int, unit: str) -> str:
    """The edit's effect on the search's seeds: the written value and the edit, both on the
    same few pairs — not 「いま」 (measured to precision), which it is not to be read as."""
    s = o.subject
    return (f"  探索のシード（{pairs} {unit}）で: いまの値 {shown(o.before, s)} → "
            f"変えると {shown(after, s)}")


def _near_the_end(m: Measure, s: Subject) -> list[str]:
    """A confirmed interval closer to a 目標 bound than its own half-width: the edit is
    inside on these seeds, but the report's interval on other seeds may still touch the
    bound (未決) — said, with what settles it. The search takes the value nearest the
    written one, so a confirmed edit often sits just inside."""
    i = m.interval
    margin = min(i.low - s.low, s.high - i.high)
    if margin >= i.half_width:
        return []
    return [f"  （目標の端まで {margin * 100:.1f} {'pt' if s.kind == 'page' else '%'}: "
            f"ほかのシードの報告では {W.report.undecided} と出ることがあります。余裕がほしければ、"
            "もう一歩先の値にするか、--precision を小さくして確かめてください）"]


def _deck_moved(before: Measure, after: Measure) -> list[str]:
    """For a page of the starting deck: the deck's own win rate before and after the edit
    (``Measure.baseline``), and a warning — every page's Δ and every enemy's 目標 move
    with it."""
    from contract.vocabulary import W

    if before.baseline is None or after.baseline is None:
        return []
    return [f"  このページは初期デッキにもあります: はじめのデッキの{W.measure.win_rate} "
            f"{percent(before.baseline)} → {percent(after.baseline)}（ほかのページの"
            f"{W.measure.win_rate_delta}と敵の目標も動きます。"
            "書いたあと jibunki sim --check で確かめてください）"]


def lines_together(t: Together) -> list[str]:
    """The designer's report of the re-measure of the edits written together (Japanese):
    each item inside its 目標 or not, and which to tune again."""
    out = [f"まとめて測り直し: 書き込んだ {len(t.rows)} 件を、書き換えたあとのコンテンツで"
           f"新しいシード {t.seed}〜 で測りました"]
    for s, m in t.rows:
        what = "ページ" if s.kind == "page" else "敵"
        unit = "組" if s.kind == "page" else "戦"
        out.append(f"  {what} {s.name} {s.id}（{band(s)}）: {shown(m, s)}（{m.n} {unit}）"
                   f"— {where_is(m, s)}")
    fallen = t.fallen
    if not fallen:
        out.append("  どれも目標の内側のままです。")
        return out
    out.append("  書き換えが互いに影響しています: "
               + "、".join(f"{s.name} {s.id}" for s in fallen)
               + " が目標の内側にありません。")
    out.append("  書き込んだあとのコンテンツで、もう一度調整してください: "
               + " ".join(f"--tune {s.id}" for s in fallen))
    return out


def together_dict(t: Together) -> dict:
    """``lines_together`` as plain values: each item's interval and whether it is still
    inside, and the ids that fell out."""
    return {"seed": t.seed, "battles": t.battles,
            "subjects": [{"kind": s.kind, "id": s.id, "name": s.name,
                          "target": {"low": s.low, "high": s.high},
                          "measure": _measure(m), "inside": m.inside(s),
                          "target_met": stats.target_met(m.interval, s.low, s.high)}
                         for s, m in t.rows],
            "interact": [s.id for s in t.fallen]}


#: The format of ``--tune --format json`` (one document: a subject per item tuned).
FORMAT = "jibunki-sim-tune 1"


def _measure(m: Measure | None) -> dict | None:
    """A measure as plain values; ``baseline``: the starting deck's win rate in the same
    battles, for an edit that changes it."""
    if m is None:
        return None
    moved = {} if m.baseline is None else {"baseline": m.baseline.to_dict()}
    return {**m.interval.to_dict(), "n": m.n, **moved}


def _trial(c: Candidate, t: Trial | None) -> dict | None:
    return None if t is None else {"value": t.value, "text": c.spell(t.value),
                                   "measure": _measure(t.measure)}


def _edit(c: Candidate, value: float) -> dict:
    """A one-number edit: where, the old and new text, and the source line before/after."""
    return {"path": c.path, "line": c.line, "col": c.col, "role": c.role,
            "old": c.text, "new": c.spell(value), "old_line": c.source_line,
            "new_line": c.edited_line(value), "change": stats.rounded(c.relative_change(value))}


def to_dict(o: Outcome, pairs: int) -> dict:
    """One subject's answer as plain values (what ``lines_of`` says, for a program): the
    intervals before, after (on the search's seeds) and confirmed (on fresh ones), whether
    the proposal reached the band, every candidate tried, and the proposal or, when none
    reached the band, the closest edit."""
    s = o.subject
    proposal = closest = None
    if o.chosen is not None:
        r = o.chosen
        proposal = {**_edit(r.candidate, r.found.value), "after": _measure(r.found.measure),
                    "confirmed": _measure(o.confirmed), "confirm_seed": o.confirm_seed,
                    "reported": _measure(o.reported)}
    elif o.reaches and o.reaches[0].found is None and o.reaches[0].closest is not None \
            and _closer(o, o.reaches[0]):
        best = o.reaches[0]
        closest = {**_edit(best.candidate, best.closest.value),
                   "after": _measure(best.closest.measure)}
    return {
        "kind": s.kind, "id": s.id, "name": s.name,
        "target": {"low": s.low, "high": s.high},
        "pairs": pairs, "before": _measure(o.before), "now": _measure(o.now),
        "already_inside": o.already,
        "reached": o.already or (o.confirmed is not None and o.confirmed.inside(s)),
        "proposal": proposal, "closest": closest,
        "candidates": [{"path": r.candidate.path, "line": r.candidate.line,
                        "col": r.candidate.col, "role": r.candidate.role,
                        "text": r.candidate.text,
                        "found": _trial(r.candidate, r.found),
                        "closest": _trial(r.candidate, r.closest),
                        "trials": [_trial(r.candidate, t) for t in r.trials]}
                       for r in o.reaches],
        "rejected": [{**_edit(r.candidate, r.found.value), "confirmed": _measure(m)}
                     for r, m in o.tried if r is not o.chosen],
        "battles": o.battles,
        "confirm_capped_at": o.capped,
    }


def _percent(c: Candidate, value: float) -> str:
    if c.value == 0:
        return f"{value - c.value:+g}"
    return f"{(value - c.value) / abs(c.value) * 100:+.0f}%"


def _closer(o: Outcome, r: Reach) -> bool:
    """Whether ``r``'s closest value lies nearer the 目標 than the written one, on the same
    seeds: an edit that moves nothing nearer is no proposal."""
    return distance(r.closest.measure, o.subject) < distance(o.before, o.subject)


def _unmoved(o: Outcome, r: Reach) -> bool:
    """Whether no value tried of ``r``'s number changed the measure: on the same seeds an
    edit the battles never read gives the very interval measured before it."""
    return all(t.measure.interval == o.before.interval for t in (r.trials or [r.closest]))


def _diff(c: Candidate, value: float) -> list[str]:
    def bare(line: str) -> str:
        code = line.split("#", 1)[0] if "#" in line[c.end_col - 1:] else line
        return code.strip()

    return [f"    {c.path}:{c.line}",
            f"    - {bare(c.source_line)}",
            f"    + {bare(c.edited_line(value))}"]


# ------------------------------------------------------------------ the run


#: The 目標 a message suggests writing, by kind: a page's Δ, an enemy's win rate.
EXAMPLE_TARGETS = {"page": (-0.05, 0.05), "enemy": (0.4, 0.7)}


def example_target(kind: str) -> str:
    """The 目標 line a message suggests for a page or an enemy that states none."""
    return band(Subject(kind, "", "", *EXAMPLE_TARGETS[kind]))


def beyond_cap(tables, page_id: str) -> str | None:
    """Why page ``page_id`` cannot be tuned by its Δ added — one copy more would take the
    starting deck past its 上限枚数, a deck the rules forbid (E055) — or None."""
    from .lab import cap_said, cap_written

    page, held = tables.pages[page_id], tables.starter().count(page_id)
    if held + 1 <= page.deck_cap:
        return None
    cap, lift = cap_said(cap_written(page), page.deck_cap)
    return (f"ページ {page.name} {page_id} は{cap} に達していて（はじめのデッキに "
            f"{held} 枚）1枚加えられないので、加えた時の{W.measure.win_rate_delta}を測れません。"
            f"{lift}")


def subject_of(literal: dict, kind: str, item_id: str) -> Subject:
    """The page or enemy ``item_id`` with its 目標; TuneError when it states none."""
    table = literal["pages" if kind == "page" else "enemies"]
    row = find_item(table, item_id)
    target = row.get("target")
    if target is None:
        example = example_target(kind)
        what = "ページ" if kind == "page" else "敵"
        raise TuneError(f"{what} {row['name']} {item_id} には 目標 がありません。調整するには "
                        f"{row['source']['path']}:{row['source']['line']} の{what}に "
                        f"「{example}」のように書いてください")
    return Subject(kind, item_id, row["name"], target["low"], target["high"])


def open_meter(content, settings: Settings, tables, *, workers: int = 1,
               backend: str = "local", address: str | None = None):
    """A runner whose workers hold the content's literals, and a Meter on it (a context
    manager: the runner)."""
    from .backends import open_runner

    runner = open_runner(prepare, content.literal, workers=workers, backend=backend,
                         address=address)
    return runner, Meter(runner, content.literal, settings, tables, workers=workers,
                         backend=backend, address=address)


def _enemy_seeds(lab: Lab, enemy: str, start: int, n: int) -> list[tuple[int, tuple]]:
    """Battles ``start`` .. ``start + n`` of ``enemy`` alone: the lab's enemy row's own
    (``Lab.enemy_battles``) when the enemy is one of the pool's, so a tune's "before"
    is the report's row."""
    s = lab.settings
    if s.mode == "pool" and enemy in s.enemies:
        return lab.enemy_battles(s.enemies.index(enemy), start, start + n)
    return [(s.seed + i, (enemy,)) for i in range(start, start + n)]
