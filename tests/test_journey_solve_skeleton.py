"""The solver's search (journey/solve.py) on a hand-built game: the movement core of draft
17 alone — a known deck of numbers, a hand, a white pawn moved by the number and one of two
black pawns by 7 − number on a loop of 7 days — so the search is tested without the rule
set: memo, symmetry of the black pawns, branch-and-bound and the node budget each against
brute force."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from journey.solve import LOST, Verdict, brute_force, solve

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

DAYS = 7


@dataclass(frozen=True)
class Toy:
    deck: tuple[int, ...]
    hand: tuple[int, ...]
    white: int
    blacks: tuple[int, int]
    letters: int = 3
    drawn: bool = False  # the turn's card is drawn


class ToyRules:
    """Draw one (an empty deck loses), play one: white +n, one black +(7 − n); a letter
    moves a black pawn one day either way at any time once drawn (without letters the sum
    of the places never changes mod 7, and no deal is won). Won when all three stand on day
    7 after a play; the score is the deck left plus the letters."""

    def __init__(self, canonical: bool = True, bounded: bool = True):
        self.canonical, self.bounded = canonical, bounded

    def actions(self, s: Toy):
        if self.result(s) is not None:
            return []
        if not s.drawn:
            return ["draw"]
        letters = [("letter", pawn, step) for pawn in (0, 1) for step in (1, -1)
                   if s.letters]
        return [(card, pawn) for card in sorted(set(s.hand)) for pawn in (0, 1)] + letters

    def apply(self, s: Toy, action) -> Toy:
        if action == "draw":
            return Toy(s.deck[1:], s.hand + s.deck[:1], s.white, s.blacks, s.letters, True)
        if action[0] == "letter":
            _, pawn, step = action
            blacks = list(s.blacks)
            blacks[pawn] = (blacks[pawn] + step) % DAYS
            return Toy(s.deck, s.hand, s.white, tuple(blacks), s.letters - 1, True)
        card, pawn = action
        hand = list(s.hand)
        hand.remove(card)
        blacks = list(s.blacks)
        blacks[pawn] = (blacks[pawn] + DAYS - card) % DAYS
        return Toy(s.deck, tuple(hand), (s.white + card) % DAYS, tuple(blacks), s.letters,
                   False)

    def key(self, s: Toy):
        blacks = tuple(sorted(s.blacks)) if self.canonical else s.blacks
        return s.deck, tuple(sorted(s.hand)), s.white, blacks, s.letters, s.drawn

    def result(self, s: Toy):
        if not s.drawn and s.white == s.blacks[0] == s.blacks[1] == DAYS - 1:
            return True, len(s.deck) + s.letters
        if not s.drawn and not s.deck:
            return False, 0
        return None

    def bound(self, s: Toy):
        return len(s.deck) + s.letters if self.bounded else 10 ** 6


def deal(deck, hand_size=2) -> Toy:
    return Toy(tuple(deck[hand_size:]), tuple(deck[:hand_size]), 0, (0, 0))


decks = st.lists(st.integers(1, 6), min_size=3, max_size=5)  # brute force: at most 0.4 s


@settings(max_examples=60, deadline=None)
@given(decks)
def test_the_solver_agrees_with_brute_force(deck):
    rules = ToyRules()
    state = deal(deck)
    want, _ = brute_force(rules, state)
    got = solve(rules, state)
    assert got.exact
    if want == LOST:
        assert got.verdict == Verdict.LOST and got.score is None
    else:
        assert got.verdict == Verdict.WON and got.score == want


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=3, max_size=12))
def test_the_best_line_replays_to_the_best_score(deck):
    rules = ToyRules()
    state = deal(deck)
    got = solve(rules, state)
    if got.verdict != Verdict.WON:
        return
    for action in got.line:
        assert action in rules.actions(state)
        state = rules.apply(state, action)
    assert rules.result(state) == (True, got.score)


def test_the_black_pawns_are_one_unordered_pair_in_the_key():
    """Symmetry pruning: the same answer with fewer positions expanded than with the
    pawns told apart."""
    deck = [3, 4, 2, 5, 1, 6, 3, 4, 2, 5, 1, 6]
    plain = solve(ToyRules(canonical=False), deal(deck))
    paired = solve(ToyRules(canonical=True), deal(deck))
    assert (plain.verdict, plain.score) == (paired.verdict, paired.score)
    assert paired.nodes < plain.nodes


def test_the_bound_cuts_without_changing_the_answer():
    deck = [2, 5, 1, 3, 1, 4, 4, 4, 6, 4, 2, 1]
    loose = solve(ToyRules(bounded=False), deal(deck))
    tight = solve(ToyRules(bounded=True), deal(deck))
    assert (loose.verdict, loose.score) == (tight.verdict, tight.score) == (Verdict.WON, 8)
    assert tight.nodes < loose.nodes


def test_the_memo_expands_each_position_once():
    deck = [3, 4, 2, 5, 1]
    _, brute = brute_force(ToyRules(), deal(deck))
    assert solve(ToyRules(bounded=False), deal(deck)).nodes < brute


def test_a_budget_too_small_answers_unknown_never_lost():
    deck = [3, 4, 2, 5, 1, 6, 3, 4, 2, 5, 1, 6]
    full = solve(ToyRules(), deal(deck))
    assert full.exact
    cut = solve(ToyRules(), deal(deck), budget=3)
    assert not cut.exact and cut.nodes <= 4
    assert cut.verdict in (Verdict.UNKNOWN, Verdict.WON)
    if cut.verdict == Verdict.WON:
        assert cut.score <= full.score
