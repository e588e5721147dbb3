"""The solver's bound and reductions (journey/search.py ``bound``, ``deferred``) and its
bounded transposition table (journey/solve.py), on the journey runtime.

The reference is an exhaustive search of every legal action (``EVERY_LINE``: no letter
deferred) with a memo on the state's key and nothing cut: the exact best score. The
reduced states (tests/test_journey_solve.py ``small_state``) get letters, items and
more unresolved stories here, so that the day-sum, the deck clock and the deferral of
letters all come into play.
"""

from __future__ import annotations

import random

from hypothesis import given, reject, settings
from hypothesis import strategies as st
import pytest

from journey import apply, legal_actions, load_rules, new_game
from journey.search import EVERY_LINE, JOURNEY, bound, deferred
from journey.solve import LOST, Verdict, solve
from journey.state import FIELDS, State

from test_journey_solve import small_state

DRAFT = load_rules("草案")
CARRIED = ((), ("地図", "テント"), ("ランタン", "カメラ"), ("ラジオ", "リュックサック"),
           ("ランタン", "地図"), ("カメラ", "テント"))


#: The most positions the exhaustive reference searches: a reduced state with letters and
#: items open can still hold millions (one took 7 minutes), which a test cannot afford;
#: such a state is rejected (hypothesis draws another).
EXACT_CAP = 20_000


class _TooBig(Exception):
    """The exhaustive reference passed EXACT_CAP positions."""


def exact(state, memo=None) -> int:
    """The best score from ``state`` over every legal line (LOST: none wins); _TooBig past
    EXACT_CAP positions."""
    memo = {} if memo is None else memo
    if len(memo) > EXACT_CAP:
        raise _TooBig
    over = EVERY_LINE.result(state)
    if over is not None:
        return over[1] if over[0] else LOST
    key = state.key()
    if key not in memo:
        memo[key] = max((exact(EVERY_LINE.apply(state, a), memo) for a in legal_actions(state)),
                        default=LOST)
    return memo[key]


def varied_state(seed: int) -> State:
    """A reduced state with letters in hand, items carried and up to two stories open."""
    rng = random.Random(seed)
    state = small_state(seed, carried=CARRIED[seed % len(CARRIED)]).copy()
    state.letters = rng.randint(0, 2)
    if rng.random() < 0.5:
        state.resolved &= ~(1 << rng.randrange(len(DRAFT.suits)))
    return state


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_the_bound_is_never_below_the_best_score_with_letters_and_items(seed):
    state = varied_state(seed)
    try:
        best = exact(state)
    except _TooBig:
        reject()
    if best != LOST:
        assert bound(state) is not None and bound(state) >= best


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_deferring_letters_never_changes_the_best_score(seed):
    """The solver searches without the letters ``deferred`` says can wait, and with the
    bound: its proven answer is the best over every legal line."""
    _solved_as_every_line(varied_state(seed))


def _solved_as_every_line(state) -> None:
    """The solver's answer for ``state`` is proven and the best over every legal line
    (a state too large for the reference is rejected)."""
    try:
        best = exact(state)
    except _TooBig:
        reject()
    got = solve(JOURNEY, state)
    assert got.exact
    assert (got.score if got.verdict == Verdict.WON else LOST) == best


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_deferring_letters_never_changes_the_best_score_at_any_moment(seed):
    """As above, from a few random steps further: every phase with letters in hand (the
    resolution point, the moments of the event phase and of the turn's end), items tapped
    or standing."""
    rng = random.Random(seed)
    state = varied_state(seed).copy()
    state.tapped = rng.randrange(4)
    state.letters = rng.randint(1, 3)
    for _ in range(rng.randint(1, 8)):
        if not legal_actions(state):
            break
        state = apply(state, rng.choice(legal_actions(state)))[0]
    _solved_as_every_line(state)


@pytest.mark.slow
def test_the_bound_holds_late_in_real_deals(monkeypatch):
    """States from the last turns of winning lines of full deals (and one or two random
    steps off them): the bound is at least the best score there. The lines are the first
    wins, which run the deck down to its last cards, where brute force is affordable (the
    solver's better line ends, ``SUFFIXES``, keep more cards)."""
    import journey.solve as solver

    monkeypatch.setattr(solver, "SUFFIXES", False)
    checked = 0
    for seed in (1, 3, 4, 5, 7, 9):
        state = new_game(DRAFT, seed)
        answer = solve(JOURNEY, state, budget=3000)
        rng = random.Random(seed)
        for action in answer.line:
            if len(state.deck) <= 1 and state.phase == "play":
                off = state
                for _ in range(rng.randint(0, 2)):
                    if legal_actions(off):
                        off = apply(off, rng.choice(legal_actions(off)))[0]
                best = exact(off)
                if best != LOST:
                    assert bound(off) >= best
                checked += 1
            state = apply(state, action)[0]
    assert checked >= 3


def test_the_deck_is_a_clock_at_the_deal():
    """Five stories need three cards each under the pawns: 15 plays, so at least 14 more
    refills after the deal's; the bound counts them (it used to count one per story)."""
    for seed in range(5):
        state = new_game(DRAFT, seed)
        keys = DRAFT.key_vp * sum(1 for c in state.deal.capacity if c)
        assert bound(state) <= len(state.deck) + len(DRAFT.suits) - 14 + keys


def test_a_deck_too_short_for_the_stories_left_is_proven_lost_at_once():
    state = small_state(5).copy()
    state.resolved = 0b00011  # three stories open, each needing three cards on the board
    state.deck = state.deck[:1]
    assert bound(state) is None
    answer = solve(JOURNEY, state)
    assert answer.verdict == Verdict.LOST and answer.exact and answer.nodes == 0
    assert exact(state) == LOST


def test_the_day_sum_costs_a_letter_per_day_once_red_and_white_are_resolved():
    """All stories resolved, the pawns' day-sum one off the last day's and no play left
    to walk a black pawn: the missing day costs a ロケーションメモリー (a letter's point)."""
    state = small_state(2).copy()
    last = state.deal.last
    state.resolved = (1 << len(DRAFT.suits)) - 1
    state.letters = 1
    state.white, state.blacks = last, (last - 1, last)
    state.phase, state.pending = "resolve", ()
    with_letter = bound(state)
    state.blacks = (last, last)
    assert with_letter is not None and with_letter == bound(state) - 1


def test_letters_wait_for_the_moment_they_matter():
    state = new_game(DRAFT, 0).copy()
    state.letters = 1
    assert "location_memory" in deferred(state)  # before the play: after the card is placed
    assert not any(a[:2] == ("letter", "location_memory") for a in JOURNEY.actions(state))
    assert any(a[:2] == ("letter", "location_memory") for a in EVERY_LINE.actions(state))
    state.phase, state.pending = "resolve", ()  # the resolution reads the black pawns
    assert "location_memory" not in deferred(state)


def test_an_adventure_memory_waits_from_the_resolution_point_for_the_refill():
    """Between the resolution point and the next refill nothing reads the deck but a
    win's score, which counts a letter and a card of the deck alike: the memory waits
    for the moment before the refill — unless 地図 could walk the white pawn off the
    last day now (its loop mills the top card)."""
    state = new_game(DRAFT, 0).copy()
    state.letters = 1
    state.discard = (state.deck[-1],)
    state.deck = state.deck[:-1]
    for phase, pending in (("resolve", ()), ("moment", ("end",))):
        state.phase, state.pending = phase, pending
        assert deferred(state) == ("adventure_memory",)
        assert not any(a[:2] == ("letter", "adventure_memory") for a in JOURNEY.actions(state))
        assert any(a[:2] == ("letter", "adventure_memory") for a in EVERY_LINE.actions(state))
        state.white = state.deal.last
        assert "adventure_memory" not in deferred(state)
        state.white = 0
    state.phase, state.pending = "moment", ("refill",)  # the draw reads it: now or never
    assert "adventure_memory" not in deferred(state)


def test_an_adventure_memory_waits_through_a_play_that_cannot_loop():
    """Before the play, a memory waits for the moment after the card is placed — unless
    a card in hand walks the white pawn past the last day (its loop mills the top)."""
    state = new_game(DRAFT, 0).copy()
    state.letters = 1
    state.discard = (state.deck[-1],)
    state.deck = state.deck[:-1]
    state.white = 0  # no card walks six days past 【１日目】
    assert deferred(state) == ("location_memory", "adventure_memory")
    state.white = 1
    state.hand = tuple(c for c in range(len(DRAFT.card_ids))
                       if DRAFT.number_of[c] == 6)[:1] + state.hand[1:]
    assert deferred(state) == ("location_memory",)


@pytest.mark.slow  # a second or more (the fast loop's share, README)
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_the_notes_never_change_a_bound_or_a_promise(seed):
    """The bound and the promise note what they read of the board (journey/search.py
    ``_Facts``: by the stacks' value, and the stacks asked last by identity): read along
    a random line and its siblings, each answer is the one worked out with no notes."""
    from journey import search

    rng = random.Random(seed)
    state = new_game(DRAFT, seed % 1000)
    search.forget()
    while not state.over:
        kids = [apply(state, action)[0] for action in legal_actions(state)]
        warm = [(bound(kid), search.promise(kid)) for kid in kids]
        search.forget()
        assert warm == [(bound(kid), search.promise(kid)) for kid in kids]
        state = rng.choice(kids)


def test_a_bounded_transposition_table_gives_the_same_answer():
    state = varied_state(11)
    full = solve(JOURNEY, state)
    small = solve(JOURNEY, state, memo_cap=8)
    assert (small.verdict, small.score, small.exact) == (full.verdict, full.score, full.exact)


# ------------------------------------------------------------------ what stops for good


RED, GREEN = 0, 1  # the draft's suits: 赤 nudges a black pawn, 緑 stands an item up
MAP, TENT = 0, 1   # the items' places in ("地図", "テント")


def _cards(suit: int | None = None, number: int | None = None) -> list[int]:
    return [c for c in range(len(DRAFT.card_ids))
            if (suit is None or DRAFT.suit_of[c] == suit)
            and (number is None or DRAFT.number_of[c] == number)]


def _state(**fields) -> State:
    """A moment of a draft game carrying 地図 and テント, every card not named left in
    the discard pile (so that the solver's reference can search every line)."""
    deal = small_state(0, carried=("地図", "テント")).deal
    named = set(fields.get("deck", ())) | set(fields.get("hand", ()))
    for stack in fields.get("stacks", ()):
        named |= set(stack)
    values = {"deal": deal, "deck": (), "hand": (), "stacks": ((),) * len(deal.days),
              "white": 0, "blacks": (0, 0), "resolved": 0, "letters": 0, "tapped": 0,
              "lantern": 0, "phase": "play", "pending": (), "resume": (), "turn": 9, "queue": (),
              "reason": "",
              **fields}
    values["discard"] = tuple(c for c in range(len(DRAFT.card_ids)) if c not in named)
    return State(*(values[name] for name in FIELDS))


def test_the_last_play_onto_the_last_day_fixes_no_key():
    """Without 地図 to walk it the last step, the white pawn reaches 【７日目】 by a play,
    and that day takes no card: the last play cannot make a day's events bear one key.
    Every story resolved, one play of a 3 left (the white pawn on 【４日目】, a black pawn on
    【３日目】, the other home), every day empty: the best score is the deck, and so is the
    bound (it counted a key for that play)."""
    three = _cards(number=3)[0]
    state = _state(deck=tuple(_cards(number=6)[:2]), hand=(three,), white=3, blacks=(2, 6),
                   resolved=(1 << len(DRAFT.suits)) - 1, tapped=1 << MAP | 1 << TENT)
    assert exact(state) == 2
    assert bound(state) == 2
    state.tapped = 1 << TENT  # 地図 standing: the last step may be its, after the play
    assert bound(state) == 3


def test_a_tent_no_green_can_stand_again_lets_every_loop_mill():
    """A テント puts a loop's card under the deck once, then lies tapped until a 緑
    stands it up: with 緑's story resolved, every loop after that mills a card for good.
    At the deal with four stories open, the white pawn walks at least 24 days (the three
    smallest numbers of each story's cards): three loops, one of them free while the
    テント stands."""
    deal = new_game(DRAFT, 0)
    standing = deal.copy()
    standing.resolved = 1 << GREEN
    tapped = standing.copy()
    tapped.tapped = 1 << TENT
    assert bound(standing) == bound(tapped) + 1
    growing = tapped.copy()
    growing.resolved = 1 << RED  # 緑 still open: it may stand the テント up again
    assert bound(growing) > bound(tapped)


def test_an_open_suits_effect_ends_with_its_story():
    """赤 nudges a black pawn only while its story is open: once the last story (赤's)
    resolves, a day-sum still off needs ロケーションメモリー (the bound counted a nudge a
    turn to the end, for free). At the resolution point of 赤, its cards under the three
    pawns, a day-sum two days off costs a letter or a turn with 赤's story left open for
    one more nudge — every day already bears one key, so no turn gains anything."""
    red, green = _cards(RED), _cards(GREEN)
    stacks = ((red[0],), (red[1],), (red[2],), (red[3],), (red[4],), (green[0],), ())
    resolved = ((1 << len(DRAFT.suits)) - 1) & ~(1 << RED)
    common = {"deck": tuple(_cards(number=6)[:6]), "hand": tuple(_cards(number=5)[:2]),
              "stacks": stacks, "resolved": resolved, "tapped": 1 << MAP | 1 << TENT,
              "phase": "resolve"}
    aligned = _state(white=0, blacks=(1, 3), **common)   # 0 + 1 + 3 ≡ 3 × 6 (mod 7)
    off = _state(white=0, blacks=(2, 4), **common)       # two days more
    assert ("resolve", RED) in legal_actions(aligned) and ("resolve", RED) in legal_actions(off)
    assert bound(off) < bound(aligned)
