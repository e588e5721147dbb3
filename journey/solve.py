"""解く — the solver of a dealt journey with the deck order known (完全情報).

``solve(rules, state, budget)`` searches every line of play from ``state`` and answers
whether the game can be won (クリア) and with what best score: a depth-first search over the
positions of the game, each position searched once (memoised on the rules' canonical key,
in which the two black pawns are one unordered pair: they are interchangeable, so the two
orders of their places are one position), children that reach the same position from one
node tried once and the most promising first (``rules.promise``), and a branch-and-bound
on the score (``rules.bound``: an upper bound of any score still reachable, or None when
the game can no longer be won). Equivalent orders of actions (two letters spent in either
order, an item before or after a letter) reach the same key and so collapse through the
memo.

Before that exhaustive search, a probe looks for a win fast: one dive (each step, the
child whose ``rules.lookahead`` — its promise after a short greedy play-on — is best),
then, if that line lost, a beam search (each step, the ``width`` most promising distinct
positions) at widths 4, 16, 64, … while the budget lasts. A win the probe finds is a floor
for the exhaustive search, which then looks only for better scores; the probe never
decides a loss. Given positions to polish with (``polish``), the probe then raises that
floor: beams that keep only the lines whose bound beats the best win so far, again at one
width while each finds a better win, then wider — on a full deal of the draft they find
some five points more than the first win in 9,000 positions, where the exhaustive search
from the top of the game seldom betters it (docs/journey-report.md). So the exhaustive
search takes the best line's ends first (``suffixes``): from its last position back,
each searched with the best win as the floor — near the end a proof is affordable and
often finds a better end — and the whole game last.

The search counts the positions it expands (``nodes``); at ``budget`` it stops and answers
``unknown`` with the best win it found so far (a lower bound), or ``won`` with that score
unproven (``exact`` False) — never a guess.

``brute_force`` is the plain search the solver is checked against: no memo, no key, no
bound, every child tried; it is only for small games.

The search is written against ``Rules`` — five functions, and two optional ones — so the rules themselves live in
one place (the journey runtime) and the solver never restates them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Hashable, Protocol, Sequence

from contract import collector

__all__ = ["LOST", "Answer", "Rules", "Verdict", "brute_force", "solve"]

#: The value of a line that ends in defeat (or never ends in a win): below any score,
#: including a negative one (items paid for in VP).
LOST = -(10 ** 9)


class Rules(Protocol):
    """What the solver needs of a rule set; a state is never changed in place."""

    def actions(self, state) -> Sequence:
        """The legal actions, in a fixed order (empty once the game is over)."""

    def apply(self, state, action):
        """The state after ``action``: a new state; ``state`` is unchanged."""

    def key(self, state) -> Hashable:
        """The canonical key: equal for states whose futures are the same."""

    def result(self, state) -> tuple[bool, int] | None:
        """(won, score) once the game is over, None while it goes on."""

    def bound(self, state) -> int | None:
        """An upper bound of the score of any win still reachable; None: no win is."""

    def promise(self, state) -> int:
        """Optional: how near a win the state looks (higher first); orders the search
        and guides the probe (without it, neither)."""

    def lookahead(self, state) -> int:
        """Optional: the promise of ``state`` after a short greedy play-on; guides the
        probe's dive (without it, no dive)."""


class Verdict:
    """The solver's answer about a deal: クリア可能, 不可能, or not decided within the budget."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Answer:
    """What ``solve`` found: the verdict, the best score (None without a win), whether that
    score is proven best (``exact``), the positions expanded, the best line's actions, and
    the size the transposition table reached (its memory)."""

    verdict: str
    score: int | None
    exact: bool
    nodes: int
    line: tuple = ()
    table: int = 0  # positions in the transposition table at the end (at most its cap)


class _Child:
    """A child of a position, with what ``children`` already asked of it: its result
    (None while the game goes on) and, while it goes on, its key — not asked again.
    Compiled, an extension type (journey/solve.pxd): a search makes some five a position."""

    __slots__ = ("action", "state", "over", "key")

    def __init__(self, action, state, over, key):
        self.action, self.state, self.over, self.key = action, state, over, key


class _Budget(Exception):
    """The node budget ran out (caught by ``solve`` only)."""


#: A memo entry's kind: the exact value, or only an upper bound of it (a fail-low below
#: the floor the node was searched with).
_EXACT, _UPPER = 0, 1


#: The transposition table's capacity (positions): past it, the oldest quarter of its
#: entries is dropped — a dropped position is searched again, never answered wrongly. About
#: 350 bytes an entry on the journey: some 200 MB at most per search.
MEMO_CAP = 600_000
#: Iterative deepening on the score (``_Search.deepen``): rounds of "a win worth k or
#: more?" from the bound down, instead of one search above the probe's win. Measured on
#: the last six turns of 草案 deals (seeds 2–4): as many positions or a tenth more, so off.
TOP_DOWN = False
#: The probe's beam keeps the positions of best promise plus this many times their bound:
#: the bound counts the refills still needed against the deck (the deck as a clock), which
#: the promise does not. Measured on seeds 0–9 of 草案 and 高難易度: the first win comes
#: after 40–60% of the positions the promise alone needed.
BEAM_BOUND_WEIGHT = 5
#: The polish's beams (``solve``'s ``polish``), in order: the weight of the bound in their
#: rank — a line is kept for the score it can still reach more than for how near a win it
#: looks — and their widths, each tried again while it finds a better win. A budget only
#: cuts this one sequence short, so more positions never find less. Measured on seeds 0–11
#: of 草案 at 10,000 positions: the mean best score 9.6 at weight 20, 7.4 at 50 and 6.3 at
#: 5 (3.9 without polish); widths ×4 from 16 as good as from 8 or 64. Past its widths at
#: 20 (some 150,000 positions), weight 100 at wider beams goes on: on seeds 0–5 at
#: 1,000,000 positions it finds 14–19 where 20 alone ends at 9–15 (docs/journey-report.md).
POLISH_SCHEDULE = ((20, (16, 64, 256, 1024)), (100, (64, 256, 1024, 4096)))
#: The exhaustive search, given a win, first searches the ends of its line
#: (``_Search.suffixes``) and the whole game last: the positions it would spend at the
#: top of the game, where the bound prunes least (benchmarks/bench_proof.py), go to the
#: line's last turns, where a proof takes some hundreds to some ten thousands. Measured
#: at the report's budgets on seeds 0–11 of each set-up: the mean best score rises by
#: 0.1–0.9 (草案 9.2 → 9.5, 手札二枚 7.7 → 8.6) and no deal's falls, for the same
#: positions — some 8% more CPU: a position near the end has more children to weigh
#: (letters in hand, a discard pile to recall from).
SUFFIXES = True


class _Search:
    def __init__(self, rules: Rules, budget: int | None, cap: int = MEMO_CAP):
        self.rules = rules
        self.budget = budget
        self.nodes = 0
        self.memo: dict = {}
        self.cap = cap
        self.best = LOST  # the best win reached so far, for an answer at the budget
        self.best_line: tuple = ()
        self.path: list = []
        self.promise = getattr(rules, "promise", None)

    def value(self, state, floor: int) -> int:
        """The best score reachable from ``state`` if it is above ``floor``; otherwise some
        value at most ``floor`` that bounds it from above (fail-low)."""
        over = self.rules.result(state)
        return self._value(state, floor, over, None if over is not None else self.rules.key(state))

    def _value(self, state, floor: int, over, key, bound=None) -> int:
        """``value`` of a state whose result ``over`` and key (while it goes on) are known,
        and its ``bound`` when already asked (None: ask it)."""
        rules = self.rules
        if over is not None:
            won, score = over
            value = score if won else LOST
            if value > self.best:
                self.best, self.best_line = value, tuple(self.path)
            return value
        memo = self.memo
        seen = memo.get(key)
        if seen is not None:
            known, kind = seen
            if kind == _EXACT or known <= floor:
                return known
        if bound is None:
            bound = rules.bound(state)
            if bound is None:
                self.store(key, LOST, _EXACT)
                return LOST
        if bound <= floor:
            self.store(key, bound, _UPPER)
            return bound
        self.spend()
        # The children whose value is settled without a search — known to the memo, or
        # cut by their bound — are weighed first, and only the others are ordered by
        # promise (most children are cut: their promise would be asked for nothing).
        best = LOST
        open_kids = []
        bound_of = rules.bound  # looked up once: asked of some four children a position
        for child in self.children(state, ordered=False):
            if child.over is None:
                seen = memo.get(child.key)
                if seen is not None and (seen[1] == _EXACT or seen[0] <= floor):
                    got = seen[0]
                else:
                    top = bound_of(child.state)
                    if top is None:
                        self.store(child.key, LOST, _EXACT)
                        continue
                    if top > floor:
                        open_kids.append((child, top))
                        continue
                    self.store(child.key, top, _UPPER)
                    got = top
                best = max(best, got)
            else:
                open_kids.append((child, None))
        if best >= bound:  # a settled child reaches the bound: nothing can beat it
            open_kids = []
        elif self.promise is not None and len(open_kids) > 1:
            promise = self.promise
            # sort() is stable: equal promises keep the rules' order.
            open_kids.sort(key=lambda kid: -promise(kid[0].state))
        for child, top in open_kids:
            self.path.append(child.action)
            got = self._value(child.state, max(floor, best), child.over, child.key, top)
            self.path.pop()
            if got > best:
                best = got
                if best >= bound:
                    break  # nothing can beat the bound
        self.store(key, best, _EXACT if best > floor else _UPPER)
        return best

    def store(self, key, value: int, kind: int) -> None:
        """Note a position's value in the bounded transposition table."""
        memo = self.memo
        if len(memo) >= self.cap and key not in memo:
            # dicts keep insertion order: the oldest entries go first
            for old in list(itertools.islice(memo, self.cap // 4)):
                del memo[old]
        memo[key] = (value, kind)

    def deepen(self, state, floor: int) -> int:
        """The best score from ``state`` (LOST: none), known to be at least ``floor`` (the
        probe's win, or LOST): iterative deepening on the score, from the bound down. Each
        round asks "is any win worth ``k`` or more?" (a search with the floor k − 1); a
        no answers with a smaller upper bound, the next ``k``, and the memo's upper
        bounds carry over; a yes is the best score. A round that would only confirm
        ``floor`` is not needed: an upper bound at or below it proves it best."""
        over = self.rules.result(state)
        if over is not None:
            return self.value(state, floor)
        top = self.rules.bound(state)
        if top is None:
            return LOST
        if not TOP_DOWN:
            got = self.value(state, floor)
            return got if got > floor else floor
        while top > floor:
            got = self.value(state, top - 1)
            if got >= top:
                return got
            top = got
        return floor

    def spend(self) -> None:
        """Count one position expanded; past the budget, stop the search."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _Budget

    def children(self, state, ordered: bool = True) -> list[_Child]:
        """Each distinct child, the most promising first (``ordered``; else in the rules'
        order). Children reaching the same position (a choice without effect) are one
        child."""
        rules = self.rules
        # looked up once: a position weighs some five actions, each applied, judged, keyed
        apply, result, keyed = rules.apply, rules.result, rules.key
        found: dict = {}
        for action in rules.actions(state):
            child = apply(state, action)
            over = result(child)
            if over is None:
                key = keyed(child)
                if key not in found:
                    found[key] = _Child(action, child, None, key)
            elif ("over", over) not in found:
                found["over", over] = _Child(action, child, over, None)
        kids = list(found.values())
        if ordered and self.promise is not None:
            # sort() is stable: equal promises keep the rules' order.
            kids.sort(key=lambda kid: -self.promise(kid.state))
        return kids

    def dive(self, state) -> None:
        """One line from ``state`` to its end: at each position the child whose
        ``rules.lookahead`` (its promise after a short greedy play-on) is best, noting a
        win. Each look-ahead counts as a position expanded."""
        rules = self.rules
        line: tuple = ()
        while rules.result(state) is None:
            self.spend()
            children = self.children(state)
            if not children:
                return
            values = []
            for child in children:
                self.spend()
                values.append(rules.lookahead(child.state))
            chosen = children[max(range(len(children)), key=lambda i: (values[i], -i))]
            state, line = chosen.state, line + (chosen.action,)
        won, score = rules.result(state)
        if won and score > self.best:
            self.best, self.best_line = score, line

    def probe(self, state, width: int, weight: int = BEAM_BOUND_WEIGHT) -> None:
        """A beam search of ``width`` from ``state`` to the end of every line it keeps,
        noting each win (``best``, ``best_line``); a position's rank is its promise plus
        ``weight`` times its bound."""
        bound = self.rules.bound
        beam = [(state, ())]
        while beam:
            step: dict = {}
            for position, line in beam:
                self.spend()
                for child in self.children(position, ordered=False):
                    over = child.over
                    if over is None:
                        if child.key in step:
                            continue
                        # a position that can no longer win better is no line to keep
                        top = bound(child.state)
                        if top is not None and top > self.best:
                            rank = -self.promise(child.state) - weight * top
                            step[child.key] = (rank, len(step), child.state,
                                               line + (child.action,))
                    elif over[0] and over[1] > self.best:
                        self.best, self.best_line = over[1], line + (child.action,)
            beam = [(kept[2], kept[3]) for kept in sorted(step.values())[:width]]

    def suffixes(self, state) -> None:
        """Search the best line's ends exhaustively (``best`` is a win): from its last
        position back to ``state``, each position with the best win as the floor, so a
        better end found replaces the line's own (the positions before it stay the
        line's). A search near the end is small, and the memo carries each one's values
        to the next one back; a budget stops the sequence, never changes it."""
        line = self.best_line
        states = [state]
        for action in line[:-1]:
            states.append(self.rules.apply(states[-1], action))
        for at in range(len(line) - 1, -1, -1):
            self.path = list(line[:at])
            self.value(states[at], self.best)
        self.path = []

    def polish(self, state) -> None:
        """Raise the best win's score (``best`` is a win): a beam at each weight and width
        of POLISH_SCHEDULE, run again while it finds a better win — each run keeps only the
        lines whose bound beats the best so far, so it narrows onto the better ones."""
        for weight, widths in POLISH_SCHEDULE:
            for width in widths:
                while True:
                    before = self.best
                    self.probe(state, width, weight)
                    if self.best <= before:
                        break


#: The probe's beam widths, tried in turn until one finds a win.
PROBE_WIDTHS = (4, 16, 64, 256)
#: The widths when the probe has positions of its own (``solve``'s ``find``): on, ×4 a
#: round, while no win is found and they last. A beam of width w costs about w positions a
#: turn of the game: 256 some 25,000 positions on the draft, 1024 some 80,000.
FIND_WIDTHS = PROBE_WIDTHS + (1024, 4096, 16384)


@collector.paused()  # the search makes no reference cycles (contract/collector.py)
def solve(rules: Rules, state, budget: int | None = None, probe: bool = True,
          memo_cap: int = MEMO_CAP, find: int | None = None, polish: int = 0) -> Answer:
    """The best score reachable from ``state`` with every card known, or LOST: won, lost or
    unknown at ``budget`` positions expanded (None: no limit). ``probe``: look for a win
    by a dive and beam searches first (a floor for the exhaustive search). ``memo_cap``:
    the transposition table's capacity in positions (its memory bound).

    ``find``: the positions the probe may expand while it has found no win, past
    ``budget`` (its beams widening on: ``FIND_WIDTHS``). A first win decides a deal, and
    the probe finds one in far fewer positions than the exhaustive search needs to better
    it (docs/journey-report.md): a deal whose probe ran past ``budget`` ends at its first
    win, unproven. With ``find`` at most ``budget`` (or None) the search is as without it.

    ``polish``: the positions the probe may then spend raising the win's score
    (``_Search.polish``), on top of ``budget``: the exhaustive search starts from the
    better floor with ``budget`` less what the probe spent before, as without polish —
    at the line's ends first (``SUFFIXES``)."""
    finding = find is not None and budget is not None and find > budget
    widths = FIND_WIDTHS if finding else PROBE_WIDTHS
    search = _Search(rules, find if finding else budget, memo_cap)
    if rules.result(state) is None and rules.bound(state) is None:
        return Answer(Verdict.LOST, None, True, 0)  # no win left: no probe needed
    try:
        if probe and search.promise is not None and rules.result(state) is None:
            if getattr(rules, "lookahead", None) is not None:
                search.dive(state)
            for width in widths if search.best == LOST else ():
                search.probe(state, width)
                if search.best > LOST:
                    break
        search.budget = budget  # the exhaustive search's: what the probe spent counts
        if polish > 0 and search.best > LOST:
            start = search.nodes
            search.budget = start + polish
            try:
                search.polish(state)
            except _Budget:
                pass
            polished = search.nodes - start
            search.budget = None if budget is None else budget + polished
        if SUFFIXES and search.best > LOST:
            search.suffixes(state)
        value = search.deepen(state, search.best)
    except _Budget:
        found = search.best > LOST
        return Answer(Verdict.WON if found else Verdict.UNKNOWN,
                      search.best if found else None, False, search.nodes, search.best_line,
                      len(search.memo))
    if value == LOST:
        return Answer(Verdict.LOST, None, True, search.nodes, (), len(search.memo))
    return Answer(Verdict.WON, value, True, search.nodes, search.best_line, len(search.memo))


def brute_force(rules: Rules, state) -> tuple[int, int]:
    """(best value, nodes): every line of play from ``state`` searched, nothing shared or
    cut. LOST when no line wins."""
    over = rules.result(state)
    if over is not None:
        won, score = over
        return (score if won else LOST), 0
    best, nodes = LOST, 1
    for action in rules.actions(state):
        value, below = brute_force(rules, rules.apply(state, action))
        nodes += below
        best = max(best, value)
    return best, nodes
