"""旅の測定 — ``jibunki journey report``: how hard, and how heavy to think about, is draft 17
and each of its variants?

For every variant (a set-up of the content, or the draft with another pair of items) the
same seeds are dealt, and each deal is

1. **solved** with the deck order known (journey/solve.py, at most ``nodes`` positions,
   while no win is found at most ``find_nodes``, and ``polish_nodes`` more to raise the
   first win's score): クリア可能 (won), 不可能 (lost) or 未決 (unknown at the budget),
   and its best score — a deal left 未決 that the player of 2. won is クリア可能 too, with
   the player's score (its game is a winning line);
2. **played** by the player that does not see the deck (journey/player.py) at each budget
   of ``budgets`` (samples per decision): won or not, turns, score, and at every decision
   the number of options and the player's evaluation of each;
3. **climbed**, when the solver won it: the decisions of its best line rated on the ladder
   of thinking (journey/lab/load.py: 思考の段) — the cheapest of random, greedy,
   look-ahead, the blind player at each budget and the solver whose choice is proven best.

From those: winnable deals (Wilson's interval; the unknown ones counted apart), win rate
per budget (Wilson), decisions per game (a decision: two or more options), options per
decision, 迷う選択肢 — the options whose evaluation is within ``MARGIN`` of the best one (the
choices a person must really weigh), and the share of decisions where some option falls
outside it (差のつく決定: where the choice matters) — turns and the score distribution. The
thinking-load figures are read from the player at the largest budget; the ladder's, per
decision, from the climbs (journey/lab/load.py ``summary``).

A set-up's 目標 (``目標 勝率 30%〜70%``, its own or its 元's) is judged on that same player's
win rate (``target_status``: met, missed, undecided), and the variants that meet theirs
are ranked by thinking load (``ranking``, by ``rivals_of``).

Every deal is a task for sim/backends.py, and every climb one of a second round on the
same workers (it needs the line the solve found): results come back in task order, so any
number of workers, and either backend, gives the same report. Nothing in it depends on time.
"""

from __future__ import annotations

import itertools
from contextlib import ExitStack
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from contract import collector
from contract.vocabulary import W
from sim import stats
from sim.store import SOUND_LIMIT

from . import load

FORMAT = "jibunki-journey-report 1"
#: 迷う選択肢: options whose evaluation is within this of the best one, in the player's
#: promise points (journey/search.py: a letter is 5, a card left in the deck 1, a resolved
#: story 100) — a letter's worth.
MARGIN = 5.0
#: The player's budgets (journey/player.py ``effort``: b sampled orders a decision, 2b lines
#: of each option played on in each): the two the full report affords (docs/journey-report.md).
DEFAULT_BUDGETS = (1, 2)
#: Positions a deal is solved with: about 0.3 s of CPU a deal; the decided share it buys,
#: and what larger budgets buy, are in docs/journey-report.md (the solver's figures).
DEFAULT_NODES = 3000
#: Positions the solver's probe may expand looking for a deal's first win, past ``nodes``
#: (journey/solve.py ``find``), unless given: this many times ``nodes`` — at the default
#: 30,000, within which its beams of width 4 … 256 end. At 3000 alone a fifth of the
#: draft's deals and three fifths of 高難易度's were 未決; with 30,000 for the first win,
#: the deals of seeds 0–39 of both were all won, the last at 27,000 positions (2.7 s).
#: The positions spent past the first win had bettered a best score in 2 of 214 won
#: deals (seeds 0–99 of 草案, 高難易度 and 問題点).
FIND_FACTOR = 10
#: Positions the solver's probe may spend raising a deal's first win's score, past
#: ``nodes`` (journey/solve.py ``polish``), unless given: this many times ``nodes``. The
#: exhaustive search after a first win seldom bettered it (above), while the polish's
#: beams raise it by some 5 points a deal at 9,000 positions (docs/journey-report.md).
POLISH_FACTOR = 3
#: Deals per variant: enough that two set-ups 5 points apart can be told apart (a win
#: rate's 95% interval at 200 deals is about ±7 points); the 15 item pairs at fewer each.
DEFAULT_SEEDS = 200
DEFAULT_PAIR_SEEDS = 50

#: The set-ups measured, in the report's order: (group, set-up id). A set-up the content
#: lacks is listed as not available instead.
#: The hand-size set-ups are named after 手札 and 公開 (content/journey/手札の変種.journey).
_HAND, _OPEN = W.region.hand, W.operation.reveal
SETUPS = (
    ("草案", "草案"),
    (_HAND, f"{_HAND}二枚"),
    (_HAND, f"{_HAND}三枚"),
    (_HAND, f"{_HAND}二枚と{_OPEN}"),
    (_HAND, f"{_HAND}三枚と{_OPEN}"),
    ("高難易度", "高難易度"),
    ("問題点", "問題点"),
)
#: The set-up whose item pairs are swept (every pair of its item list), and their group.
PAIRS_OF = "草案"
PAIR_GROUP = "アイテム"
#: The group of every other 旅の準備 of the content (one a designer added or renamed):
#: measured after SETUPS, in the content's order, so that each 目標 written is judged.
OTHER_GROUP = "その他の準備"


@dataclass(frozen=True)
class Variant:
    """One column of the sweep: a set-up, with the items carried (None: its 携帯)."""

    id: str
    group: str
    setup: str
    items: tuple[str, ...] | None


@dataclass(frozen=True)
class Task:
    """One deal of one variant: solved (``samples`` 0), with ``nodes``, ``find`` and
    ``polish`` positions (journey/solve.py ``solve``), or played with ``samples`` (no
    positions: 0, so that the solver's budgets key no game: journey/lab/cache.py)."""

    variant: int
    setup: str
    items: tuple[str, ...] | None
    seed: int
    samples: int
    nodes: int
    find: int = 0
    polish: int = 0


class Solved(NamedTuple):
    """What is kept of a solved deal (and its best line, which the ladder climbs)."""

    verdict: str
    score: int | None
    exact: bool
    nodes: int
    line: tuple = ()


@dataclass(frozen=True)
class Climb:
    """One won deal's best line, to be rated on the ladder (journey/lab/load.py) with the
    blind player's ``budgets``, at most ``decisions`` of its decisions and ``nodes``
    positions of solves."""

    variant: int
    setup: str
    items: tuple[str, ...] | None
    seed: int
    line: tuple
    score: int
    proven: bool
    budgets: tuple[int, ...]
    decisions: int
    nodes: int


class Played(NamedTuple):
    """What is kept of a played game: won (0/1), turns, score (None lost), stories
    resolved, and per decision (options, contenders within MARGIN, whether it matters,
    whether it is one of 「いつでも」: player.Decision.free_use)."""

    won: int
    turns: int
    score: int | None
    resolved: int
    decisions: tuple[tuple[int, int, int, int], ...]


def prepare(table_literal: dict):
    """The journey table every task of a worker reads, built once from its literal."""
    from contract.codec import from_literal
    from contract.tables import JourneyTable

    return {"table": from_literal(JourneyTable, table_literal, "journey"), "rules": {}}


def _rules(context: dict, setup: str):
    from .. import load_rules

    if setup not in context["rules"]:
        context["rules"][setup] = load_rules(setup, context["table"])
    return context["rules"][setup]


@collector.paused()  # a deal's search makes no reference cycles (contract/collector.py)
def work(context: dict, task):
    """Solve, play or climb one deal (the public APIs of journey/), by the task's kind —
    then forget the deal's search notes while the collector is still paused: no other
    task reads them, and it would walk them once it runs again."""
    from ..search import forget

    try:
        return _WORK[type(task)](context, task)
    finally:
        forget()


def _climb(context: dict, task: Climb) -> load.Rating:
    from .. import new_game

    state = new_game(_rules(context, task.setup), task.seed, task.items)
    return load.rate_deal(state, task.line, task.score, task.proven, task.budgets, task.nodes,
                          task.decisions, task.seed)


def _deal(context: dict, task: Task):
    from .. import new_game
    from ..player import play_game
    from ..search import JOURNEY
    from ..solve import solve

    rules = _rules(context, task.setup)
    if task.samples == 0:
        answer = solve(JOURNEY, new_game(rules, task.seed, task.items), budget=task.nodes,
                       find=task.find, polish=task.polish)
        return Solved(answer.verdict, answer.score, answer.exact, answer.nodes, answer.line)
    game = play_game(rules, task.seed, task.samples, task.items)
    return Played(int(game.won), game.turns, game.score, game.resolved,
                  tuple((d.options, d.contenders(MARGIN),
                         int(d.values[-1] < d.values[0] - MARGIN), int(d.free_use))
                        for d in game.decisions))


def _counts(*values) -> bool:
    return all(type(v) is int and 0 <= v <= SOUND_LIMIT for v in values)


def _flags(*values) -> bool:
    return all(v in (0, 1) for v in values)


def _replays(context: dict, task, line, score) -> bool:
    """Does ``line`` play, action by legal action, from the task's deal to a win worth
    ``score``? (``context``: ``prepare``'s.)"""
    from .. import JourneyError, new_game
    from ..search import JOURNEY

    try:
        state = new_game(_rules(context, task.setup), task.seed, task.items)
        for action in line:
            if action not in JOURNEY.actions(state):
                return False
            state = JOURNEY.apply(state, action)
    except JourneyError:
        return False
    return JOURNEY.result(state) == (True, score)


def sound(context: dict, task, result) -> bool:
    """Whether ``result`` — read back from the cache (journey/lab/cache.py), its types
    already checked — is one ``work`` can give for ``task`` (``context``: ``prepare``'s):
    flags 0 or 1, counts not negative, a score only with a win, a rung of the task's
    ladder, and a solved win's line replaying to its score. A cache is a file anyone can
    edit (its checksum proves no author): an entry that is not sound is played again,
    never reported."""
    if type(result) is not _KIND_OF[type(task)](task):  # a result of another kind of task
        return False
    if isinstance(result, Solved):
        won = result.verdict == "won"
        return (result.verdict in ("won", "lost", "unknown") and _counts(result.nodes)
                and (result.score is not None) == won
                # a loss is always proven, an undecided deal never
                and result.exact == (result.verdict == "lost" or won and result.exact)
                and (_replays(context, task, result.line, result.score) if won
                     else result.line == ()))
    if isinstance(result, Played):
        return (_flags(result.won) and _counts(result.turns, result.resolved)
                and (result.score is None) == (not result.won)
                and (result.score is None or abs(result.score) <= SOUND_LIMIT)
                and all(_counts(*d) and _flags(d[2], d[3]) and 0 <= d[1] <= d[0]
                        for d in result.decisions))
    if isinstance(result, load.Rating):
        rungs = len(load.rungs_of(task.budgets))
        return (_counts(result.length, result.decisions, result.nodes)
                and all(_counts(r.step, r.when, r.options)
                        and (r.rung is None or 0 <= r.rung < rungs) for r in result.rated))
    return False


#: What each kind of task does.
_WORK = {Task: _deal, Climb: _climb}
#: The kind of result each kind of task gives (a deal: solved without samples, else played).
_KIND_OF = {Task: lambda task: Played if task.samples else Solved,
            Climb: lambda task: load.Rating}
#: The kinds of result ``work`` gives: what journey/lab/cache.py keeps (and checks on load).
RESULTS = (Solved, Played, load.Rating)


# ------------------------------------------------------------------ the sweep


@dataclass(frozen=True)
class Settings:
    """What one report measures."""

    seeds: int = DEFAULT_SEEDS
    seed: int = 0
    #: Deals of each item pair (the アイテム group): there are 15 of them.
    pair_seeds: int = DEFAULT_PAIR_SEEDS
    budgets: tuple[int, ...] = DEFAULT_BUDGETS
    nodes: int = DEFAULT_NODES
    #: Positions a deal's first win may be looked for with, past ``nodes`` (None:
    #: FIND_FACTOR × ``nodes``; ``finding`` says which).
    find_nodes: int | None = None
    #: Positions a deal's first win's score may be raised with, past ``nodes`` (None:
    #: POLISH_FACTOR × ``nodes``; ``polishing`` says which).
    polish_nodes: int | None = None
    pairs: bool = True
    #: Decisions per won deal rated on the ladder (0: no ladder), and the positions its
    #: solves may expand for one deal.
    ladder: int = load.DEFAULT_DECISIONS
    ladder_nodes: int = load.DEFAULT_NODES
    #: The set-ups (ids) whose own rows are measured, in the report's order whatever the
    #: order given (None: every set-up of the content); the item pairs go by ``pairs``.
    setups: tuple[str, ...] | None = None

    @property
    def finding(self) -> int:
        """The positions a deal's first win is looked for with (``find_nodes``)."""
        return FIND_FACTOR * self.nodes if self.find_nodes is None else self.find_nodes

    @property
    def polishing(self) -> int:
        """The positions a deal's first win's score is raised with (``polish_nodes``)."""
        return POLISH_FACTOR * self.nodes if self.polish_nodes is None else self.polish_nodes


def variants(table, settings: Settings) -> tuple[list[Variant], list[str]]:
    """(the variants measured, the set-ups of SETUPS the content lacks): SETUPS first, in
    their order and groups, then every other set-up of the content (OTHER_GROUP), then
    the item pairs of PAIRS_OF. With ``settings.setups``, only those set-ups' own rows
    (none is called missing: the ones asked for are the content's)."""
    out, missing = [], []
    for group, setup in SETUPS:
        if setup in table.setups:
            out.append(Variant(setup, group, setup, None))
        else:
            missing.append(setup)
    named = {setup for _, setup in SETUPS}
    out += [Variant(setup, OTHER_GROUP, setup, None) for setup in table.setups
            if setup not in named]
    if settings.setups is not None:
        out, missing = [v for v in out if v.setup in settings.setups], []
    if settings.pairs and PAIRS_OF in table.setups:
        base = table.setups[PAIRS_OF]
        for pair in itertools.combinations(base.item_pool, base.items_chosen):
            out.append(Variant(f"{PAIRS_OF}:{'+'.join(pair)}", PAIR_GROUP, PAIRS_OF, pair))
    return out, missing


def deals_of(variant: Variant, settings: Settings) -> int:
    """How many deals ``variant`` is measured on (an item pair: ``pair_seeds``)."""
    return settings.pair_seeds if variant.group == PAIR_GROUP else settings.seeds


def tasks_of(found: list[Variant], settings: Settings) -> list[Task]:
    """Every deal of every variant: solved, then played at each budget."""
    return [Task(index, v.setup, v.items, settings.seed + i, samples,
                 *((settings.nodes, settings.finding, settings.polishing) if samples == 0
                   else (0, 0, 0)))
            for index, v in enumerate(found) for i in range(deals_of(v, settings))
            for samples in (0, *settings.budgets)]


def climbs_of(tasks: list[Task], results: list, settings: Settings) -> list[Climb]:
    """A ladder task for each deal the solver won (none when ``settings.ladder`` is 0)."""
    if not settings.ladder:
        return []
    return [Climb(t.variant, t.setup, t.items, t.seed, r.line, r.score, r.exact,
                  settings.budgets, settings.ladder, settings.ladder_nodes)
            for t, r in zip(tasks, results) if t.samples == 0 and r.verdict == "won" and r.line]


def run(table_literal: dict, settings: Settings, workers: int = 1, backend: str = "local",
        address: str | None = None, progress=None, cache=None) -> dict:
    """The report (format FORMAT) of every variant over ``settings.seeds`` seeds.
    ``progress(done, total)``: told the count of tasks (deals solved or played, then won
    deals climbed; those from the cache done at once) before the first starts and as each
    finishes; the climbs are counted in the total once the deals are solved. ``cache``:
    the results kept by earlier runs (journey/lab/cache.py's ``DealCache.open``); None:
    every task is played."""
    from contract.codec import from_literal
    from contract.tables import JourneyTable

    from sim.backends import open_runner

    from .cache import DealCache

    table = from_literal(JourneyTable, table_literal, "journey")
    found, missing = variants(table, settings)
    tasks = tasks_of(found, settings)
    deals = cache if cache is not None else DealCache(table_literal)
    with ExitStack() as stack:
        opened: list = []

        def play(fresh: list, done: int, total: int) -> list:
            """Play the tasks the cache lacks, on workers started at the first need."""
            if not opened:
                opened.append(stack.enter_context(open_runner(
                    prepare, table_literal, workers=workers, backend=backend,
                    address=address)))
            told = None if progress is None else lambda units: progress(units, total)
            return opened[0].run_counted(work, fresh, told, done=done)

        results, played = deals.results(tasks, lambda fresh, done: play(fresh, done, len(tasks)))
        # The ladder climbs the lines the solver found: a second round on the same workers.
        climbs = climbs_of(tasks, results, settings)
        total = len(tasks) + len(climbs)
        ratings, climbed = deals.results(
            climbs, lambda fresh, done: play(fresh, len(tasks) + done, total))
    if progress is not None and not climbed:
        progress(total, total)  # the climbs came from the cache (or there were none)
    rows = []
    for index, variant in enumerate(found):
        mine = [(t, r) for t, r in zip(tasks, results) if t.variant == index]
        rated = [r for c, r in zip(climbs, ratings) if c.variant == index]
        rows.append(_row(table, variant, mine, settings, rated))
    return {"format": FORMAT,
            "settings": {"seeds": settings.seeds, "pair_seeds": settings.pair_seeds,
                         "seed": settings.seed,
                         "budgets": list(settings.budgets), "nodes": settings.nodes,
                         "find_nodes": settings.finding,
                         "polish_nodes": settings.polishing,
                         "margin": MARGIN, "pairs": settings.pairs,
                         "ladder": {"decisions": settings.ladder, "nodes": settings.ladder_nodes,
                                    "child_nodes": load.CHILD_NODES},
                         # only when chosen: a report of every set-up reads as before
                         **({} if settings.setups is None
                            else {"setups": [v.setup for v in found if v.items is None]})},
            "variants": rows, "ranking": ranking(rows), "missing": missing,
            "run": {"tasks": len(tasks), "climbs": len(climbs), "played": played + climbed,
                    "cached": len(tasks) + len(climbs) - played - climbed}}


def label(row: dict) -> str:
    """The variant as the tables and plots name it: its set-up, and the items when they
    were swept."""
    if row["group"] == PAIR_GROUP:  # the pairs are swept on PAIRS_OF: said so, beside
        # other set-ups whose items bear the same titles (問題点のランタン is ランタン too)
        return f"{row['setup_name']}のアイテム {'+'.join(row['items'])}"
    return f"{row['setup_name']}（{'+'.join(row['items'])}）"


#: What the 最高点 column is, as both reports' notes say it: a found score, which more
#: budget can raise.
BEST_SCORES_NOTE = (f"最高点: {W.report.solver}が見つけた勝ち筋の点の中央値と範囲（最善と証明されない限り"
                    "下限で、予算（--nodes・--polish-nodes）を増やすと上がることがあります）。")


def solver_budgets(settings: dict) -> str:
    """The solver's positions past ``nodes`` as both reports show them, in one bracket:
    the probe's own while no win is found (``find_nodes``, when past ``nodes``), and
    those that raise a first win's score (``polish_nodes``, when any)."""
    find = settings.get("find_nodes") or 0
    polish = settings.get("polish_nodes") or 0
    parts = [f"勝ち筋が見つかるまでは {find:,} 局面まで"] if find > settings["nodes"] else []
    if polish:
        parts.append(f"見つかった後はスコアを上げるのに さらに {polish:,} 局面まで")
    return f"（{'、'.join(parts)}）" if parts else ""


def best_scores(solver: dict) -> str:
    """The solver's best scores as both reports show them: the median and the range, or a
    dash when no deal was won."""
    scores = solver["scores"]
    if not scores:
        return "—"
    return f"{solver['median_score']:g} [{scores[0]}〜{scores[-1]}]"


def _row(table, variant: Variant, results: list, settings: Settings,
         climbed: list | None = None) -> dict:
    setup = table.setups[variant.setup]
    items = variant.items if variant.items is not None else tuple(setup.carried)
    solved = [r for t, r in results if t.samples == 0]
    # A deal the player that does not see the deck won is winnable whatever the solver's
    # budget said: its game is a winning line on the deal's own order (its score found).
    witnessed: dict[int, int] = {}
    for t, r in results:
        if t.samples and r.won:
            witnessed[t.seed] = max(r.score, witnessed.get(t.seed, r.score))
    settled = [(t.seed, r) for t, r in results if t.samples == 0]
    by_players = {seed for seed, r in settled if r.verdict == "unknown" and seed in witnessed}
    counts = Counter("won" if seed in by_players else r.verdict for seed, r in settled)
    wins = [witnessed[seed] if seed in by_players else r.score for seed, r in settled
            if r.verdict == "won" or seed in by_players]
    players = []
    for budget in settings.budgets:
        games = [r for t, r in results if t.samples == budget]
        decisions = [d for g in games for d in g.decisions]
        won = sum(g.won for g in games)
        players.append({
            "budget": budget, "games": len(games), "wins": won,
            "win_rate": stats.wilson(won, len(games)).to_dict(),
            "turns": stats.mean(g.turns for g in games),
            "resolved": stats.mean(g.resolved for g in games),
            "scores": sorted(g.score for g in games if g.score is not None),
            "decisions_per_game": stats.mean(len(g.decisions) for g in games),
            "options_per_decision": stats.mean(d[0] for d in decisions),
            "contenders_per_decision": stats.mean(d[1] for d in decisions),
            # 迷う選択肢 beyond the best one, per game: what rivals_of ranks by
            "rivals_per_game": stats.mean(sum(d[1] - 1 for d in g.decisions) for g in games),
            "mattering_share": stats.mean(d[2] for d in decisions),
            # of the decisions per game, those of 「いつでも」 (go on, or a letter or an item
            # now): a set-up whose items stand long has many, one with none passes them by
            "free_use_per_game": stats.mean(sum(d[3] for d in g.decisions) for g in games),
        })
    return {
        "id": variant.id, "group": variant.group, "setup": variant.setup,
        "setup_name": setup.name, "items": [table.items[i].name for i in items],
        "target": None if setup.target is None else {"low": setup.target.low,
                                                     "high": setup.target.high},
        "solver": {
            "deals": len(solved), "won": counts["won"], "lost": counts["lost"],
            "unknown": counts["unknown"], "won_by_players": len(by_players),
            "winnable": stats.wilson(counts["won"], len(solved)).to_dict(),
            "proven_best": sum(1 for r in solved if r.verdict == "won" and r.exact),
            "scores": sorted(wins), "median_score": stats.median(wins),
            "nodes": stats.mean(r.nodes for r in solved),
        },
        "players": players,
        "load": (load.summary(climbed or [], load.rungs_of(settings.budgets))
                 if settings.ladder else None),
    }


# ------------------------------------------------------------------ 目標 and the ranking
# The author's question: which variant thinks lightest among those that play as hard as
# intended? A set-up's 目標 (its 勝率, inherited through 元) is judged on the win rate of
# the player that does not see the deck at the report's largest budget — the report's
# stand-in for a person — and the variants that meet it are ranked by thinking load.

#: 目標の判定 — a variant's status, as the JSON says it: met (the interval inside the
#: target), missed (wholly outside: ``--check`` fails), undecided (straddling an end).
STATUS = {True: "met", False: "missed", None: "undecided"}
#: Each status in the reports' words (the battle lab's: 達成, 未達, 未決).
STATUS_WORDS = {STATUS[met]: word for met, word in stats.TARGET_WORDS.items()}
#: What the load figure of ``rivals_of`` is called in the reports, and what it counts.
LOAD_LABEL = f"{W.report.contenders}/局"
LOAD_NOTE = f"1 局の決定ごとの、最善を除く{W.report.contenders}の数の合計"


def judged_by(report: dict) -> str:
    """Whose win rate a 目標 is judged on, in the reports' words."""
    budgets = report["settings"]["budgets"]
    return (f"{W.report.blind_player}（{budgets[-1]}想定: 人の代わり）の{W.measure.win_rate}"
            if budgets else f"{W.report.blind_player}の{W.measure.win_rate}")


def rivals_of(row: dict) -> float | None:
    """思考負荷 — the thinking load of a variant, lower is lighter: the 迷う選択肢 per game
    beyond the best option (at each decision, the options within MARGIN of the best one,
    less the best itself; summed over a game, averaged over the games) of the largest
    budget's player. None without games. The one place that says what "load" is for the
    ranking. Not the ladder's figure (journey/lab/load.py ``load_of``: decisions per game
    past a look-ahead), which would be the truer measure, because at the report's solver
    budget the ladder settles too few decisions to tell variants apart (docs/journey-report.md)."""
    return row["players"][-1]["rivals_per_game"] if row["players"] else None


def target_status(row: dict) -> str | None:
    """A variant's 目標 status (STATUS) on its largest budget's win rate; None without a
    目標 (not judged). A 目標 with no games to judge it on is undecided."""
    target = row.get("target")
    if target is None:
        return None
    if not row["players"]:
        return STATUS[None]
    rate = row["players"][-1]["win_rate"]
    interval = stats.Interval(rate["estimate"], rate["low"], rate["high"])
    return STATUS[stats.target_met(interval, target["low"], target["high"])]


#: The most games per variant ``seeds_to_decide`` looks at.
DECIDE_CAP = 10_000


def seeds_to_decide(row: dict) -> int | None:
    """How many games of the largest budget would decide an undecided 目標 if the win rate
    stayed what it is now: the fewest from the games played on whose Wilson interval lies
    wholly inside or wholly outside the 目標 (None: decided already, no 目標, or not within
    DECIDE_CAP — a rate on a bound never decides)."""
    if target_status(row) != "undecided" or not row["players"]:
        return None
    top, target = row["players"][-1], row["target"]
    rate = top["win_rate"]["estimate"] if top["games"] else 0.5
    for games in range(top["games"] + 1, DECIDE_CAP + 1):
        interval = stats.wilson(round(rate * games), games)
        if stats.target_met(interval, target["low"], target["high"]) is not None:
            return games
    return None


def ranking(rows: list[dict]) -> list[dict]:
    """Every variant with a 目標, met ones first, ranked by ``rivals_of`` (lightest first,
    ties and unknown loads in the report's order, unknown last) with their rank (1, 2 …);
    then the undecided and the missed ones, unranked (``rank`` None), each in the report's
    order; an undecided one says how many games would decide it (``seeds_to_decide``).
    Variants without a 目標 are left out."""
    judged = [(row, target_status(row)) for row in rows]
    met = sorted((row for row, status in judged if status == "met"),
                 key=lambda row: (rivals_of(row) is None, rivals_of(row) or 0.0))
    out = [{"id": row["id"], "rank": rank, "status": "met", "load": rivals_of(row),
            "seeds_to_decide": None} for rank, row in enumerate(met, 1)]
    for status in ("undecided", "missed"):
        out += [{"id": row["id"], "rank": None, "status": status, "load": rivals_of(row),
                 "seeds_to_decide": seeds_to_decide(row)}
                for row, s in judged if s == status]
    return out
