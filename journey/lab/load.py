"""思考の段 — the ladder: how much thinking each decision of a solved game needs.

A puzzle is rated by the hardest technique it needs, not by how long a search takes; a
decision is rated here the same way. The ladder's rungs (``KINDS``, cheapest first) are
techniques of choosing among the options of a decision:

    無作為          any option: it finds a best move only when every option is best
    貪欲            the option whose child has the best promise (journey/search.py ``promise``)
    一手先読み      the option whose child, played on greedily to the end of the next turn,
                    has the best promise (``lookahead``; it plays on with the deal's order)
    山を見ない探索  the blind player's choice (journey/player.py ``choose``) at each of the
                    report's budgets, smallest first: the same look-ahead over N guessed
                    orders of the unseen deck
    解き手          the solver, which knows the deck: it finds a best move by definition

A decision's **rung** is the cheapest rung whose choice is a best move. A rung that scores
the options (無作為, 貪欲, 一手先読み) chooses all its top-scored options: it finds a best
move only when each of them is best — a tie is not broken in its favour. The blind player
names one option.

The decisions rated are those of the solver's best line of each deal it won (a line found,
proven best or not): each position on the line with two or more distinct options (children
with distinct keys, as the solver counts them). The **best** options are the children
whose value (the best score reachable with the deck known) is the position's value.
Values are proven, never guessed. Without search: a child from which no win is reachable
(``rules.bound`` None) is lost, every child is at most ``rules.bound`` of it, the line's
own child reaches the line's score, and when the line is proven best no child of a
position on it is worth more. With the solver (``solve``): the decision's position — its
proven value caps every child, and the child its best line starts with reaches the score
it found — and the children a verdict needs. A child is *certainly best* when its lower
bound reaches every child's upper bound, *certainly not best* when its upper bound is
below some child's lower bound. A rung's verdict is settled as soon as it can be: the
children it chose are solved first, then the position, then the others. A decision where
a rung's verdict stays open within the budget is **未決**: counted apart.

Cost: at most ``limit`` decisions of a game are rated, evenly spread over its decisions
(its last one among them), the latest first (a search near the end is small); each
position is solved at most once, at most ``CHILD_NODES`` positions and ``nodes`` in all
for the game; 一手先読み is asked only when 貪欲 is shown to miss, the blind rungs only
when 一手先読み is. ``rate_line`` is written against the solver's ``Rules`` protocol (plus
``promise`` and ``lookahead``), so it is tested on hand-built games; ``rate_deal`` is the
journey's: it follows what the blind player knows of the deck along the line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

from contract.vocabulary import W
from sim import stats

__all__ = ["KINDS", "LOOKAHEAD", "NOTES", "Kind", "Rated", "Rung", "Rating", "UNDECIDED",
           "beyond_cell", "halves_cell", "load_of", "rate_deal", "rate_line", "rung_cell",
           "rungs_of", "summary", "undecided_cell"]


@dataclass(frozen=True)
class Kind:
    """A kind of rung: its id, its name in the report, and what it means (said once: the
    report's notes and docs/journey-report.md read it from here)."""

    id: str
    name: str
    meaning: str


#: 思考の段 — the rungs' kinds, cheapest first.
KINDS = (
    Kind("random", W.player.random, "どれかを選ぶ（どれを選んでも最善のときだけ最善手になる）"),
    Kind("greedy", W.player.greedy, "選んだ直後の見込みが最も高い選択肢を選ぶ"),
    Kind("lookahead", "一手先読み",
         "選んだ後を次の手番の終わりまで見込みで進め、見込みが最も高い選択肢を選ぶ（山の順は配りのまま）"),
    Kind("blind", "山を見ない探索",
         f"{W.report.blind_player}: N 通りの山の順を想定し、同じ先読みの平均で選ぶ（N想定）"),
    Kind("solver", W.report.solver, "山の順を知って全探索する（定義により必ず最善）"),
)
_KIND = {kind.id: kind for kind in KINDS}
#: The rung whose successors are "more than a look-ahead" (the load figure, ``load_of``).
LOOKAHEAD = "lookahead"
#: A decision whose rung the budget could not settle (未決).
UNDECIDED = None
#: The report's defaults: decisions rated per game (evenly spread), and the positions
#: the child solves of one game may expand in all.
DEFAULT_DECISIONS = 8
DEFAULT_NODES = 500
#: The most positions one child's solve may expand: a child whose value takes more is
#: left open, and the game's budget goes to the next.
CHILD_NODES = 100


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder: a kind, and for the blind player its samples per decision."""

    kind: str
    samples: int | None = None

    @property
    def name(self) -> str:
        """The rung as the report names it: 山を見ない探索 with its budget (N想定)."""
        name = _KIND[self.kind].name
        return name if self.samples is None else f"{name} {self.samples}想定"

    def to_dict(self) -> dict:
        """The rung in the report's JSON."""
        return {"kind": self.kind, "samples": self.samples, "name": self.name}


def rungs_of(budgets: Sequence[int]) -> tuple[Rung, ...]:
    """The ladder for the report's ``budgets``: each kind once, the blind player once per
    budget (smallest first), the solver last."""
    out = []
    for kind in KINDS:
        if kind.id == "blind":
            out += [Rung(kind.id, b) for b in budgets]
        else:
            out.append(Rung(kind.id))
    return tuple(out)


# ------------------------------------------------------------------ one decision


class _Decision(NamedTuple):
    """A position on the line with two or more distinct options."""

    step: int           # its index on the line
    state: object
    actions: tuple      # one action per distinct child, in the rules' order
    children: tuple     # the child states
    over: tuple         # each child's result (None while the game goes on)
    keys: tuple         # each child's key (("over", result) once the game is over)
    taken: int          # the child the line takes


def _argmax(values: list) -> tuple[int, ...]:
    top = max(values)
    return tuple(i for i, v in enumerate(values) if v == top)


#: What each kind of rung chooses: the indices of its top options (None: the solver,
#: which finds a best move by definition). ``ask`` is the blind player (journey only).
CHOOSERS: dict[str, Callable] = {
    "random": lambda rules, d, rung, ask: tuple(range(len(d.children))),
    "greedy": lambda rules, d, rung, ask: _argmax([rules.promise(c) for c in d.children]),
    "lookahead": lambda rules, d, rung, ask: _argmax([rules.lookahead(c) for c in d.children]),
    "blind": lambda rules, d, rung, ask: (ask(d, rung.samples),),
    "solver": lambda rules, d, rung, ask: None,
}


class _Budget:
    """The positions the solves of one game may still expand, and what each position
    solved answered (by key: a position met again is not solved again)."""

    def __init__(self, nodes: int, per_child: int):
        self.left, self.per_child = nodes, per_child
        self.spent = 0
        self.answers: dict = {}


class _Values:
    """What is proven of each child's value: a lower and an upper bound, tightened by
    solving the child, or the decision's position itself (each once, when a verdict needs
    it, at most ``CHILD_NODES`` positions from what the game's budget has left).

    Solving the position is the cheap way to the position's value (its children share
    one memo, and a child need only be shown no better than the best found, not valued):
    a proven value caps every child, and the child its best line starts with reaches it."""

    def __init__(self, rules, d: _Decision, line_score: int, proven: bool, budget: _Budget):
        from journey.solve import LOST, solve

        self.rules, self.d, self.budget, self.solve, self.lost = rules, d, budget, solve, LOST
        self.solved = [False] * len(d.children)
        self.position_solved = False
        self.lo, self.hi = [], []
        for i, (child, over) in enumerate(zip(d.children, d.over)):
            if over is not None:
                lo = hi = over[1] if over[0] else LOST
                self.solved[i] = True
            else:
                bound = rules.bound(child)
                lo, hi = LOST, LOST if bound is None else bound
                self.solved[i] = bound is None  # no win is reachable: lost
            if i == d.taken:
                lo = max(lo, line_score)  # the line itself reaches its score
            if proven:
                hi = min(hi, line_score)  # nothing beats the proven best of the deal
            self.lo.append(lo)
            self.hi.append(max(lo, hi))

    def best(self, i: int) -> bool:
        return self.lo[i] >= max(self.hi)

    def not_best(self, i: int) -> bool:
        return self.hi[i] < max(self.lo)

    def _answer(self, state, key):
        """The solver's answer for ``state`` (kept by key), or None: the budget is spent."""
        budget = self.budget
        answer = budget.answers.get(key)
        if answer is None:
            nodes = min(budget.per_child, budget.left)
            if nodes <= 0:
                return None
            answer = self.solve(self.rules, state, budget=nodes)
            budget.left -= answer.nodes
            budget.spent += answer.nodes
            budget.answers[key] = answer
        return answer

    def settle_position(self) -> None:
        """Solve the decision's position (once): a proven value caps every child; the
        child its best line starts with reaches the best score it found."""
        self.position_solved = True
        d = self.d
        answer = self._answer(d.state, self.rules.key(d.state))
        if answer is None:
            return
        if answer.score is not None and answer.line:
            child = self.rules.apply(d.state, answer.line[0])
            over = self.rules.result(child)
            first = d.keys.index(("over", over) if over is not None else self.rules.key(child))
            self.lo[first] = max(self.lo[first], answer.score)
            self.hi[first] = max(self.hi[first], self.lo[first])
        if answer.exact:
            value = self.lost if answer.score is None else answer.score
            self.hi = [max(lo, min(hi, value)) for lo, hi in zip(self.lo, self.hi)]

    def settle(self, i: int) -> None:
        """Solve child ``i`` (once): a proven value pins both bounds, a win found raises
        the lower one."""
        self.solved[i] = True
        answer = self._answer(self.d.children[i], self.d.keys[i])
        if answer is None:
            return
        if answer.exact:
            self.lo[i] = self.hi[i] = self.lost if answer.score is None else answer.score
        elif answer.score is not None:
            self.lo[i] = max(self.lo[i], answer.score)
            self.hi[i] = max(self.hi[i], self.lo[i])

    def verdict(self, chosen: tuple[int, ...]) -> bool | None:
        """Does a rung that chose ``chosen`` find a best move (True), miss (False), or is
        it open even after every child was solved within the budget (None)? The chosen
        children are solved first, the likeliest to fall short first (a miss needs one);
        then the others, the highest first (they bound what best means)."""
        rest = sorted((i for i in range(len(self.lo)) if i not in chosen),
                      key=lambda i: (-self.hi[i], i))
        order = sorted(chosen, key=lambda i: (self.hi[i], i)) + [_POSITION] + rest
        for i in [None] + order:
            if i is _POSITION:
                if self.position_solved:
                    continue
                self.settle_position()
            elif i is not None:
                if self.solved[i]:
                    continue
                self.settle(i)
            if any(self.not_best(c) for c in chosen):
                return False
            if all(self.best(c) for c in chosen):
                return True
        return None


#: In the order of what to solve: the decision's position, not a child.
_POSITION = "position"


def _rate(rules, d: _Decision, rungs, values: _Values, ask) -> int | None:
    """The index of the cheapest rung of ``rungs`` that finds a best move, or None (未決)."""
    for index, rung in enumerate(rungs):
        chosen = CHOOSERS[rung.kind](rules, d, rung, ask)
        if chosen is None:
            return index
        found = values.verdict(chosen)
        if found is None:
            return UNDECIDED
        if found:
            return index
    raise ValueError("a ladder ends with the solver")


# ------------------------------------------------------------------ a line


class Rated(NamedTuple):
    """One decision rated: its step on the line, when it falls (the turn, or the step
    where the rules have no turns), its distinct options, and its rung's index (None:
    未決)."""

    step: int
    when: int
    options: int
    rung: int | None


class Rating(NamedTuple):
    """A solved game's decisions rated: the game's length (``when`` of its last
    position), how many decisions its line holds, the rated ones, and the positions the
    child solves expanded."""

    length: int
    decisions: int
    rated: tuple[Rated, ...]
    nodes: int


def _decisions(rules, start, line) -> tuple[list[_Decision], list]:
    """The line's decisions, and every state along it (start first)."""
    found, states, state = [], [start], start
    for step, action in enumerate(line):
        kids: dict = {}
        taken_key = None
        for a in rules.actions(state):
            child = rules.apply(state, a)
            over = rules.result(child)
            key = ("over", over) if over is not None else rules.key(child)
            kids.setdefault(key, (a, child, over))
            if a == action:
                taken_key = key
        if len(kids) >= 2:
            keys = list(kids)
            found.append(_Decision(step, state, tuple(k[0] for k in kids.values()),
                                   tuple(k[1] for k in kids.values()),
                                   tuple(k[2] for k in kids.values()), tuple(keys),
                                   keys.index(taken_key)))
        state = rules.apply(state, action)
        states.append(state)
    return found, states


def spread(count: int, limit: int | None) -> list[int]:
    """``limit`` indices of ``count`` decisions, evenly spread (all of them when ``limit``
    is None or not below ``count``): the last of each of ``limit`` equal parts — so the
    game's last decision, the one a search settles most cheaply, is always among them."""
    if limit is None or limit >= count:
        return list(range(count))
    return [(k + 1) * count // limit - 1 for k in range(limit)]


def rate_line(rules, start, line: Sequence, score: int, proven: bool, rungs: Sequence[Rung],
              nodes: int, limit: int | None = None, ask=None,
              when: Callable | None = None, child_nodes: int = CHILD_NODES) -> Rating:
    """Rate the decisions of ``line`` — the solver's best line from ``start``, reaching a
    win of ``score`` (``proven``: shown best) — on ``rungs``, each child solved at most at
    ``nodes`` positions, at most ``limit`` decisions evenly spread. ``ask(decision,
    samples)``: the blind player's choice (an index of ``decision.actions``), needed when
    ``rungs`` hold a blind rung. ``when(state)``: the moment a decision falls (default: its
    step on the line)."""
    decisions, states = _decisions(rules, start, line)
    moment = (lambda step: when(states[step])) if when is not None else (lambda step: step)
    budget = _Budget(nodes, child_nodes)
    rated = []
    # The latest first: the nearer the end, the smaller a child's search, so the game's
    # budget goes first where it settles the most.
    for index in reversed(spread(len(decisions), limit)):
        d = decisions[index]
        rung = _rate(rules, d, rungs, _Values(rules, d, score, proven, budget), ask)
        rated.append(Rated(d.step, moment(d.step), len(d.children), rung))
    return Rating(moment(len(line)), len(decisions), tuple(reversed(rated)), budget.spent)


# ------------------------------------------------------------------ a journey deal


def rate_deal(state, line: Sequence, score: int, proven: bool, budgets: Sequence[int],
              nodes: int, limit: int | None, seed: int,
              child_nodes: int = CHILD_NODES) -> Rating:
    """Rate the solver's best ``line`` of the journey dealt as ``state`` (``seed`` seeds
    the blind player's guesses: the same deal, the same rating). The blind player knows
    of the deck what it would know having played the line itself (``Knowledge``)."""
    from journey.actions import as_tuple, from_tuple
    from journey.game import Journey
    from journey.player import Knowledge, choose
    from journey.search import JOURNEY

    # What the player knows follows the events of each step (a loop's card seen going
    # under the deck), as it follows them in play_game.
    known, knowledge, game = [], Knowledge(), Journey(state)
    for action in line:
        known.append(knowledge)
        before = game.state
        events = game.apply(from_tuple(action))
        knowledge = knowledge.after(before, game.state, events)

    def ask(d: _Decision, samples: int) -> int:
        rng = random.Random(f"journey-load:{seed}:{d.step}:{samples}")
        values = [from_tuple(a) for a in d.actions]
        action, _ = choose(d.state, known[d.step], samples, rng, values)
        return d.actions.index(as_tuple(action))

    return rate_line(JOURNEY, state, line, score, proven, rungs_of(budgets), nodes, limit,
                     ask, when=lambda s: s.turn, child_nodes=child_nodes)


# ------------------------------------------------------------------ the figures


def early(rated: Rated, length: int) -> bool:
    """前半: a decision in the first half of its game's turns (turn ≤ turns / 2)."""
    return 2 * rated.when <= length


def summary(ratings: Sequence[Rating], rungs: Sequence[Rung]) -> dict:
    """The ``load`` block of a variant: per rung, the decisions it was the rung of (count
    and share of the rated ones: 未決 is a share of its own, and a rung's share of the
    decided alone read 貪欲 100% where 8 of 64 were decided); 未決; the decisions per game
    that need more than a look-ahead (each game's count scaled from its rated decisions to
    all its decisions) — its estimate counts 未決 as not needing it (a lower bound), its
    interval runs from Student's low end of that to Student's high end with every 未決
    counted as needing it (0.0 [0.0, 0.0] with 56 of 64 未決 said no decision needs more,
    which nothing showed); and how they fall in the first and second half of the games."""
    beyond = next(i for i, r in enumerate(rungs) if r.kind == LOOKAHEAD) + 1
    counts = [0] * len(rungs)
    halves = {half: {"rated": 0, "decided": 0, "beyond": 0} for half in ("early", "late")}
    per_game, undecided_per_game = [], []
    for rating in ratings:
        if not rating.rated:
            per_game.append(0.0)
            undecided_per_game.append(0.0)
            continue
        scale = rating.decisions / len(rating.rated)
        above = sum(1 for r in rating.rated if r.rung is not None and r.rung >= beyond)
        per_game.append(above * scale)
        undecided_per_game.append(sum(1 for r in rating.rated if r.rung is None) * scale)
        for r in rating.rated:
            half = halves["early" if early(r, rating.length) else "late"]
            half["rated"] += 1
            if r.rung is not None:
                counts[r.rung] += 1
                half["decided"] += 1
                half["beyond"] += r.rung >= beyond
    decided = sum(counts)
    rated = sum(len(r.rated) for r in ratings)
    # With no decision decided there is no evidence at all: no figure, not a zero.
    interval = None
    if decided:
        low = stats.mean_interval(per_game)
        high = stats.mean_interval([p + u for p, u in zip(per_game, undecided_per_game)])
        interval = stats.Interval(low.estimate, low.low, max(high.high, low.high))
    return {
        "games": len(ratings),
        "decisions_per_game": stats.mean(r.decisions for r in ratings),
        "rated": rated, "decided": decided, "undecided": rated - decided,
        "rungs": [{**rung.to_dict(), "decisions": count,
                   "share": stats.ratio(count, rated)} for rung, count in zip(rungs, counts)],
        "beyond_lookahead_per_game": None if interval is None else interval.to_dict(),
        "undecided_per_game": stats.mean(undecided_per_game),
        "halves": halves,
        "nodes": stats.mean(r.nodes for r in ratings),
    }


# ------------------------------------------------------------------ the cells


#: What the ladder's figures mean, as both reports print them under the numbers.
NOTES = (
    f"{W.report.ladder}: {W.report.solver}の最善の筋の決定ごとに、最善手を選べる最も安い段"
    "（同点の選択肢はすべて選ぶ"
    "とみなし、そのすべてが最善のときだけ選べたとする）。"
    + "。".join(f"{kind.name}: {kind.meaning}" for kind in KINDS) + "。",
    f"最善: 山の順を知って到達できる最高点が局面の最高点に等しい選択肢（{W.report.solver}の探索で"
    f"証明）。予算内に証明できない決定は{W.report.undecided}（推測しない）。",
    f"段の割合は、測った決定（{W.report.undecided}を含む）のうちその段のもの。"
    f"先読み超/局: {_KIND[LOOKAHEAD].name}より上の段が要る決定の 1 局あたりの数（測った決定から"
    f"局の全決定へ換算。値は{W.report.undecided}を数えない下限、区間の上端は{W.report.undecided}を"
    "すべて先読み超と数えたもの）。前半・後半: 局の手番数の半分までとその後の、"
    "先読み超/判定済みの決定。",
)


def _load(row: dict) -> dict | None:
    load = row.get("load")
    return load if load and load["rated"] else None


def rung_cell(row: dict, index: int) -> str:
    """The share of the rated decisions at rung ``index``, with their count."""
    load = _load(row)
    if load is None or not load["decided"]:
        return "—"
    rung = load["rungs"][index]
    return f"{rung['share'] * 100:.0f}% ({rung['decisions']})"


def undecided_cell(row: dict) -> str:
    """未決 of the rated decisions: ``7/8``."""
    load = _load(row)
    return "—" if load is None else f"{load['undecided']}/{load['rated']}"


def beyond_cell(row: dict) -> str:
    """Decisions per game needing more than a look-ahead, with the interval."""
    load = _load(row)
    figure = load and load["beyond_lookahead_per_game"]
    if not figure:
        return "—"
    # an interval, written as the reports write every interval ([low, high])
    return f"{figure['estimate']:.1f} [{figure['low']:.1f}, {figure['high']:.1f}]"


def halves_cell(row: dict) -> str:
    """Where they fall: ``1/5・3/9`` — more than a look-ahead of the decided, in the
    first and the second half of the games."""
    load = _load(row)
    if load is None:
        return "—"
    return "・".join(f"{h['beyond']}/{h['decided']}" for h in load["halves"].values())


def load_of(row: dict) -> float | None:
    """思考負荷 of a variant (a row of the report): the decisions per game that need more
    than a look-ahead (the mean of ``summary``'s ``beyond_lookahead_per_game``); None when
    no game of it was rated."""
    load = row.get("load") or {}
    figure = load.get("beyond_lookahead_per_game")
    return None if figure is None else figure["estimate"]
