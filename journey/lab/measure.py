"""旅の測定 — ``jibunki journey report``: how hard, and how heavy to think about, is draft 17
and each of its variants?

For every variant (a set-up of the content, or the draft with another pair of items) the
same seeds are dealt, and each deal is

1. **solved** with the deck order known (journey/solve.py, at most ``nodes`` positions):
   クリア可能 (won), 不可能 (lost) or 未決 (unknown at the budget), and its best score;
2. **played** by the player that does not see the deck (journey/player.py) at each budget
   of ``budgets`` (samples per decision): won or not, turns, score, and at every decision
   the number of options and the player's evaluation of each.

From those: winnable deals (Wilson's interval; the unknown ones counted apart), win rate
per budget (Wilson), decisions per game (a decision: two or more options), options per
decision, 迷う選択肢 — the options whose evaluation is within ``MARGIN`` of the best one (the
choices a person must really weigh), and the share of decisions where some option falls
outside it (差のつく決定: where the choice matters) — turns and the score distribution. The
thinking-load figures are read from the player at the largest budget.

Every deal is a task for sim/backends.py: results come back in task order, so any number
of workers, and either backend, gives the same report. Nothing in it depends on time.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from contract.vocabulary import W
from sim import stats

FORMAT = "jibunki-journey-report 1"
#: 迷う選択肢: options whose evaluation is within this of the best one, in the player's
#: promise points (journey/search.py: a letter is 5, a card left in the deck 1, a resolved
#: story 100) — a letter's worth.
MARGIN = 5.0
DEFAULT_BUDGETS = (1, 4)
#: Positions a deal is solved with: about 0.35 s of CPU a deal, which keeps the whole
#: report near its 10 minutes on 2 cores; the decided share it buys is in
#: docs/journey-report.md (the solver's figures), beside larger budgets'.
DEFAULT_NODES = 3000
DEFAULT_SEEDS = 8

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
#: The set-up whose item pairs are swept (every pair of its item list).
PAIRS_OF = "草案"


@dataclass(frozen=True)
class Variant:
    """One column of the sweep: a set-up, with the items carried (None: its 携帯)."""

    id: str
    group: str
    setup: str
    items: tuple[str, ...] | None


@dataclass(frozen=True)
class Task:
    """One deal of one variant: solved (``samples`` 0) or played with ``samples``."""

    variant: int
    setup: str
    items: tuple[str, ...] | None
    seed: int
    samples: int
    nodes: int


class Solved(NamedTuple):
    """What is kept of a solved deal."""

    verdict: str
    score: int | None
    exact: bool
    nodes: int


class Played(NamedTuple):
    """What is kept of a played game: won (0/1), turns, score (None lost), stories
    resolved, and per decision (options, contenders within MARGIN, whether it matters)."""

    won: int
    turns: int
    score: int | None
    resolved: int
    decisions: tuple[tuple[int, int, int], ...]


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


def work(context: dict, task: Task):
    """Solve or play one deal (the public APIs of journey/)."""
    from .. import new_game
    from ..player import play_game
    from ..search import JOURNEY
    from ..solve import solve

    rules = _rules(context, task.setup)
    if task.samples == 0:
        answer = solve(JOURNEY, new_game(rules, task.seed, task.items), budget=task.nodes)
        return Solved(answer.verdict, answer.score, answer.exact, answer.nodes)
    game = play_game(rules, task.seed, task.samples, task.items)
    return Played(int(game.won), game.turns, game.score, game.resolved,
                  tuple((d.options, d.contenders(MARGIN),
                         int(d.values[-1] < d.values[0] - MARGIN)) for d in game.decisions))


# ------------------------------------------------------------------ the sweep


@dataclass(frozen=True)
class Settings:
    """What one report measures."""

    seeds: int = DEFAULT_SEEDS
    seed: int = 0
    budgets: tuple[int, ...] = DEFAULT_BUDGETS
    nodes: int = DEFAULT_NODES
    pairs: bool = True


def variants(table, settings: Settings) -> tuple[list[Variant], list[str]]:
    """(the variants measured, the set-ups of SETUPS the content lacks)."""
    out, missing = [], []
    for group, setup in SETUPS:
        if setup in table.setups:
            out.append(Variant(setup, group, setup, None))
        else:
            missing.append(setup)
    if settings.pairs and PAIRS_OF in table.setups:
        base = table.setups[PAIRS_OF]
        for pair in itertools.combinations(base.item_pool, base.items_chosen):
            out.append(Variant(f"{PAIRS_OF}:{'+'.join(pair)}", "アイテム", PAIRS_OF, pair))
    return out, missing


def tasks_of(found: list[Variant], settings: Settings) -> list[Task]:
    """Every deal of every variant: solved, then played at each budget."""
    return [Task(index, v.setup, v.items, settings.seed + i, samples, settings.nodes)
            for index, v in enumerate(found) for i in range(settings.seeds)
            for samples in (0, *settings.budgets)]


def run(table_literal: dict, settings: Settings, workers: int = 1, backend: str = "local",
        address: str | None = None, progress=None) -> dict:
    """The report (format FORMAT) of every variant over ``settings.seeds`` seeds.
    ``progress(done, total)``: told the count of tasks (deals solved or played) before the
    first starts and as each finishes."""
    from contract.codec import from_literal
    from contract.tables import JourneyTable

    from sim.backends import open_runner

    table = from_literal(JourneyTable, table_literal, "journey")
    found, missing = variants(table, settings)
    tasks = tasks_of(found, settings)
    tell = None if progress is None else lambda done: progress(done, len(tasks))
    with open_runner(prepare, table_literal, workers=workers, backend=backend,
                     address=address) as runner:
        results = runner.run_counted(work, tasks, tell)
    rows = []
    for index, variant in enumerate(found):
        mine = [(t, r) for t, r in zip(tasks, results) if t.variant == index]
        rows.append(_row(table, variant, mine, settings))
    return {"format": FORMAT,
            "settings": {"seeds": settings.seeds, "seed": settings.seed,
                         "budgets": list(settings.budgets), "nodes": settings.nodes,
                         "margin": MARGIN, "pairs": settings.pairs},
            "variants": rows, "missing": missing, "run": {"tasks": len(tasks)}}


def label(row: dict) -> str:
    """The variant as the tables and plots name it: its set-up, and the items when they
    were swept."""
    if row["group"] == "アイテム":
        return f"アイテム {'+'.join(row['items'])}"
    return f"{row['setup_name']}（{'+'.join(row['items'])}）"


def best_scores(solver: dict) -> str:
    """The solver's best scores as both reports show them: the median and the range, or a
    dash when no deal was won."""
    scores = solver["scores"]
    if not scores:
        return "—"
    return f"{solver['median_score']:g} [{scores[0]}〜{scores[-1]}]"


def _row(table, variant: Variant, results: list, settings: Settings) -> dict:
    setup = table.setups[variant.setup]
    items = variant.items if variant.items is not None else tuple(setup.carried)
    solved = [r for t, r in results if t.samples == 0]
    counts = Counter(r.verdict for r in solved)
    wins = [r.score for r in solved if r.verdict == "won"]
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
            "mattering_share": stats.mean(d[2] for d in decisions),
        })
    return {
        "id": variant.id, "group": variant.group, "setup": variant.setup,
        "setup_name": setup.name, "items": [table.items[i].name for i in items],
        "solver": {
            "deals": len(solved), "won": counts["won"], "lost": counts["lost"],
            "unknown": counts["unknown"],
            "winnable": stats.wilson(counts["won"], len(solved)).to_dict(),
            "proven_best": sum(1 for r in solved if r.verdict == "won" and r.exact),
            "scores": sorted(wins), "median_score": stats.median(wins),
            "nodes": stats.mean(r.nodes for r in solved),
        },
        "players": players,
    }
