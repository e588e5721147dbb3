"""思考の段 (journey/lab/load.py): the ladder's rungs on constructed decisions whose answer
is known — a game given as a small tree, with the promise and the look-ahead of each
position written beside it — then on reduced journey states against brute force, and the
figures of a variant from rated games."""

from __future__ import annotations

import pytest

from journey.lab.load import (Rated, Rating, load_of, rate_line, rungs_of, spread,
                              summary)
from journey.solve import solve

#: The ladder without the blind player: 無作為, 貪欲, 一手先読み, 解き手.
PLAIN = rungs_of(())
RANDOM, GREEDY, LOOKAHEAD, SOLVER = range(4)


class Tree:
    """A game given as a tree: ``edges`` position → {action: position}; ``leaves``
    position → (won, score); ``promise`` and ``lookahead`` per position (0 elsewhere).
    The bound is the best win below a position — or, for the positions of ``loose``, a
    bound too high to cut anything, so that only a search can tell their value."""

    def __init__(self, edges, leaves, promise=None, lookahead=None, loose=()):
        self.edges, self.leaves = edges, leaves
        self.promises, self.lookaheads = promise or {}, lookahead or {}
        self.loose = set(loose)

    def actions(self, s):
        return sorted(self.edges.get(s, {})) if s not in self.leaves else []

    def apply(self, s, action):
        return self.edges[s][action]

    def key(self, s):
        return s

    def result(self, s):
        return self.leaves.get(s)

    def bound(self, s):
        if s in self.loose:
            return 100
        if s in self.leaves:
            won, score = self.leaves[s]
            return score if won else None
        below = [self.bound(c) for c in self.edges[s].values()]
        below = [b for b in below if b is not None]
        return max(below) if below else None

    def promise(self, s):
        return self.promises.get(s, 0)

    def lookahead(self, s):
        return self.lookaheads.get(s, 0)


def chain(name: str, length: int, score: int, won: bool = True):
    """Edges and a leaf for a forced line of ``length`` moves from ``name`` to its end."""
    edges = {f"{name}{i}" if i else name: {"go": f"{name}{i + 1}"} for i in range(length)}
    return edges, {f"{name}{length}": (won, score)}


def two_ways(a_score: int, b_score: int, **tables):
    """The root chooses a (a forced move, then a win of ``a_score``) or b (``b_score``)."""
    edges = {"r": {"a": "a", "b": "b"}}
    leaves = {}
    for name, score in (("a", a_score), ("b", b_score)):
        e, l = chain(name, 1, score)
        edges.update(e)
        leaves.update(l)
    return Tree(edges, leaves, **tables)


def rung_of(tree, rungs=PLAIN, nodes=10_000, ask=None, root="r") -> int | None:
    """The rung of the first decision of the solver's best line from ``root``."""
    answer = solve(tree, root)
    rating = rate_line(tree, root, answer.line, answer.score, answer.exact, rungs, nodes,
                       ask=ask)
    return rating.rated[0].rung


def test_when_every_option_is_best_the_choice_does_not_matter():
    assert rung_of(two_ways(5, 5)) == RANDOM


def test_the_greedy_choice_is_best():
    tree = two_ways(5, 3, promise={"a": 2, "b": 1}, lookahead={"a": 1, "b": 2})
    assert rung_of(tree) == GREEDY


def test_only_a_look_ahead_finds_the_best():
    tree = two_ways(5, 3, promise={"a": 1, "b": 2}, lookahead={"a": 2, "b": 1})
    assert rung_of(tree) == LOOKAHEAD


def test_a_tie_is_not_broken_in_a_rungs_favour():
    """貪欲 scores a and b alike: it might take b, so it does not find the best move."""
    tree = two_ways(5, 3, promise={"a": 2, "b": 2}, lookahead={"a": 2, "b": 1})
    assert rung_of(tree) == LOOKAHEAD


def test_only_the_solver_finds_the_best():
    tree = two_ways(5, 3, promise={"a": 1, "b": 2}, lookahead={"a": 1, "b": 2})
    assert rung_of(tree) == SOLVER


def test_a_lost_option_is_never_best():
    tree = two_ways(5, 0, promise={"a": 1, "b": 2}, lookahead={"a": 2, "b": 1})
    tree.leaves["b1"] = (False, 0)
    assert rung_of(tree) == LOOKAHEAD


def test_the_blind_player_is_a_rung_between_the_look_ahead_and_the_solver():
    tree = two_ways(5, 3, promise={"a": 1, "b": 2}, lookahead={"a": 1, "b": 2})
    rungs = rungs_of((1, 4))
    asked = []

    def ask(decision, samples):
        asked.append(samples)
        return decision.actions.index("a") if samples == 4 else decision.actions.index("b")

    assert [r.name for r in rungs] == ["無作為", "貪欲", "一手先読み", "山を見ない探索 1想定",
                                       "山を見ない探索 4想定", "解き手"]
    assert rung_of(tree, rungs, ask=ask) == 4
    assert asked == [1, 4]


def test_an_option_unproven_within_the_budget_leaves_the_decision_undecided():
    """b's value takes a search of many positions (its bound cuts nothing): with a budget
    of a few positions, whether b is as good as a stays open (未決), never guessed."""
    edges, leaves = chain("a", 1, 5)
    b_edges, b_leaves = chain("b", 12, 3)
    tree = Tree({"r": {"a": "a", "b": "b"}, **edges, **b_edges}, {**leaves, **b_leaves},
                promise={"a": 1, "b": 2}, loose=[f"b{i}" if i else "b" for i in range(12)])
    assert rung_of(tree, nodes=3) is None
    assert rung_of(tree, nodes=10_000) == SOLVER  # b is worse, and no rung avoids it


def test_a_cheap_rung_is_settled_without_solving_what_it_did_not_choose():
    """貪欲 chose a, the line's own option, and the line is proven best: a is best
    whatever b is worth, so b's long search is never started."""
    edges, leaves = chain("a", 1, 5)
    b_edges, b_leaves = chain("b", 12, 3)
    tree = Tree({"r": {"a": "a", "b": "b"}, **edges, **b_edges}, {**leaves, **b_leaves},
                promise={"a": 2, "b": 1}, loose=[f"b{i}" if i else "b" for i in range(12)])
    answer = solve(tree, "r")
    rating = rate_line(tree, "r", answer.line, answer.score, True, PLAIN, nodes=3)
    assert rating.rated[0].rung is None  # 無作為 needs b's value: open
    tree.promises["b"] = 0
    rating = rate_line(tree, "r", answer.line, answer.score, True, PLAIN[1:], nodes=3)
    assert rating.rated[0].rung == 0 and rating.nodes == 0


def test_the_decisions_are_the_positions_with_two_distinct_options():
    """A forced move is no decision; two actions reaching one position are one option."""
    edges = {"r": {"x": "m", "y": "m"}, "m": {"go": "d"}, "d": {"a": "a", "b": "b"}}
    for name, score in (("a", 5), ("b", 3)):
        e, l = chain(name, 1, score)
        edges.update(e)
    tree = Tree(edges, {"a1": (True, 5), "b1": (True, 3)}, promise={"a": 1})
    answer = solve(tree, "r")
    rating = rate_line(tree, "r", answer.line, answer.score, answer.exact, PLAIN, 10_000)
    assert rating.decisions == 1
    assert [(r.step, r.options, r.rung) for r in rating.rated] == [(2, 2, GREEDY)]
    assert rating.length == len(answer.line)


def test_at_most_the_limit_of_decisions_is_rated_evenly_spread():
    assert spread(10, None) == list(range(10))
    assert spread(3, 8) == [0, 1, 2]
    assert spread(10, 2) == [4, 9]
    assert spread(10, 5) == [1, 3, 5, 7, 9]
    assert spread(97, 8) == sorted(set(spread(97, 8))) and len(spread(97, 8)) == 8


# ------------------------------------------------------------------ the figures


def game(length, decisions, *rated):
    return Rating(length, decisions, tuple(Rated(i, when, 2, rung)
                                           for i, (when, rung) in enumerate(rated)), 0)


def test_the_figures_of_a_variant():
    ratings = [
        # 10 turns, 4 decisions, all rated: 2 need more than a look-ahead, 1 undecided
        game(10, 4, (1, RANDOM), (3, SOLVER), (8, SOLVER), (9, None)),
        # 20 turns, 10 decisions, 2 rated: 1 needs more (×5 to the game's 10)
        game(20, 10, (4, GREEDY), (16, SOLVER)),
    ]
    figures = summary(ratings, PLAIN)
    assert figures["rated"] == 6 and figures["decided"] == 5 and figures["undecided"] == 1
    assert [r["decisions"] for r in figures["rungs"]] == [1, 1, 0, 3]
    # shares of the rated decisions: 未決 is a sixth of them, not left out
    assert [r["share"] for r in figures["rungs"]] == pytest.approx([1 / 6, 1 / 6, 0.0, 0.5], abs=1e-6)
    assert figures["beyond_lookahead_per_game"]["estimate"] == (2 + 5) / 2
    assert figures["undecided_per_game"] == 0.5
    assert figures["halves"] == {"early": {"rated": 3, "decided": 3, "beyond": 1},
                                 "late": {"rated": 3, "decided": 2, "beyond": 2}}
    assert load_of({"load": figures}) == 3.5


def test_the_interval_of_decisions_beyond_a_lookahead_counts_undecided_ones_at_its_top():
    """With 56 of 64 decisions 未決 and none decided beyond a look-ahead, the figure read
    0.0 [0.0, 0.0] — an interval saying no decision needs more, which nothing showed (a
    decision that does was among the 未決). Its estimate stays the lower bound (未決 not
    counted); its top counts every 未決 as needing more."""
    from sim import stats

    games = [game(20, 8, *((t, GREEDY if t == 19 else None) for t in range(12, 20)))
             for _ in range(8)]
    figure = summary(games, PLAIN)["beyond_lookahead_per_game"]
    assert figure["estimate"] == 0.0 and figure["low"] == 0.0
    assert figure["high"] == pytest.approx(7.0)  # 7 of each game's 8 are 未決
    mixed = [game(10, 4, (1, SOLVER), (2, None)), game(10, 4, (1, GREEDY), (2, GREEDY))]
    figure = summary(mixed, PLAIN)["beyond_lookahead_per_game"]
    lower = stats.mean_interval([2.0, 0.0])
    upper = stats.mean_interval([4.0, 0.0])
    assert (figure["estimate"], figure["low"], figure["high"]) == pytest.approx(
        (lower.estimate, lower.low, upper.high))


def test_a_variant_with_no_rated_game_has_no_load():
    assert load_of({"load": summary([], PLAIN)}) is None
    assert load_of({"load": summary([game(10, 4, (1, None))], PLAIN)}) is None
    assert load_of({"load": None}) is None


# ------------------------------------------------------------------ the journey


def test_the_journey_ladder_agrees_with_brute_force_on_reduced_states():
    """On reduced journey states (tests/test_journey_solve.py), searched to the end: every
    decision is decided, and its rung is the first whose choice brute force calls best."""
    from journey.lab.load import rate_deal
    from journey.search import JOURNEY, lookahead, promise
    from journey.solve import LOST, brute_force
    from test_journey_solve import small_state

    scorers = {RANDOM: lambda c: 0, GREEDY: promise, LOOKAHEAD: lookahead}
    checked = 0
    for seed in range(200):
        state = small_state(seed)
        answer = solve(JOURNEY, state)
        if answer.score is None:
            continue
        rating = rate_deal(state, answer.line, answer.score, answer.exact, (), 10 ** 6, None,
                           seed, child_nodes=10 ** 6)
        s = state
        steps = {r.step: r for r in rating.rated}
        for step, action in enumerate(answer.line):
            if step in steps:
                kids = {}
                for a in JOURNEY.actions(s):
                    c = JOURNEY.apply(s, a)
                    over = JOURNEY.result(c)
                    kids.setdefault(("over", over) if over else c.key(), c)
                values = [brute_force(JOURNEY, c)[0] for c in kids.values()]
                best = {i for i, v in enumerate(values) if v == max(values)}
                want = SOLVER
                for rung, scorer in scorers.items():
                    scores = [scorer(c) for c in kids.values()]
                    top = {i for i, v in enumerate(scores) if v == max(scores)}
                    if top <= best:
                        want = rung
                        break
                assert max(values) > LOST
                assert steps[step].rung == want, (seed, step)
                checked += 1
            s = JOURNEY.apply(s, action)
    assert checked > 20


# ------------------------------------------------------------------ the report


@pytest.fixture(scope="module")
def literal() -> dict:
    from compiler.build import compile_content
    from conftest import ROOT

    return compile_content(ROOT / "content").tables["journey"]


#: Seed 1 is won by the solver in several set-ups at 3000 positions.
CLIMBED = dict(seeds=1, seed=1, budgets=(1,), nodes=3000, pairs=False, ladder=4,
               ladder_nodes=300)


@pytest.fixture(scope="module")
def climbed(literal) -> dict:
    from journey.lab.measure import Settings, run

    return run(literal, Settings(**CLIMBED), workers=1)


@pytest.mark.slow
def test_the_ladder_of_a_report_is_the_same_for_one_and_two_workers(literal, climbed):
    """The won deals' lines are climbed on the workers, and the figures do not depend on
    how many there are."""
    from journey.lab.measure import Settings, run

    one = climbed
    assert run(literal, Settings(**CLIMBED), workers=2) == one
    assert one["run"]["climbs"] == sum(row["solver"]["won"] for row in one["variants"]) > 0
    for row in one["variants"]:
        figures = row["load"]
        assert [r["name"] for r in figures["rungs"]] == [
            "無作為", "貪欲", "一手先読み", "山を見ない探索 1想定", "解き手"]
        assert figures["games"] == row["solver"]["won"]
        assert figures["rated"] == figures["decided"] + figures["undecided"]
        assert sum(r["decisions"] for r in figures["rungs"]) == figures["decided"]
        halves = figures["halves"].values()
        assert sum(h["rated"] for h in halves) == figures["rated"]
    assert one["settings"]["ladder"]["decisions"] == 4


ARGS = ["journey", "report", "--seeds", "1", "--budget", "1", "--nodes", "40", "--no-pairs",
        "--workers", "1"]


@pytest.mark.slow
def test_the_report_command_shows_the_ladder_and_leaves_it_out_on_request():
    import json

    from click.testing import CliRunner

    import cli

    result = CliRunner().invoke(cli.main, ARGS)
    assert result.exit_code == 0, result.output
    for word in ("思考の段（解き手の筋から 1 局 8 決定まで）", "一手先読み", "山を見ない探索 1想定",
                 "先読み超/局", "未決"):
        assert word in result.stdout
    result = CliRunner().invoke(cli.main, ARGS + ["--ladder", "0", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert all(row["load"] is None for row in report["variants"])
    result = CliRunner().invoke(cli.main, ARGS + ["--ladder", "0"])
    assert "思考の段（" not in result.stdout
    for bad in (["--ladder", "-1"], ["--ladder-nodes", "0"]):
        result = CliRunner().invoke(cli.main, ARGS + bad)
        assert result.exit_code == 2 and bad[0] in result.output


def test_the_command_default_is_the_ladders():
    import cli
    from journey.lab import load

    command = cli.main.commands["journey"].commands["report"]
    defaults = {p.name: p.default for p in command.params}
    assert defaults["ladder"] == load.DEFAULT_DECISIONS
    assert defaults["ladder_nodes"] == load.DEFAULT_NODES


@pytest.mark.slow
def test_the_page_shows_the_ladder(climbed):
    from journey.lab.html import render_report

    page = render_report(climbed)
    assert 'id="ladder"' in page and "思考の段" in page and "先読み超/局" in page
    assert page.count("<svg") == 4
