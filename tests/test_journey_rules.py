"""The rules of draft 17 「明日、旅に出ます」 (spec 004), one test per rule, named after it.

Each test builds the moment its rule speaks of (``at``: a state with the cards, pawns and
items it needs) on the bundled content's set-ups, takes an action and looks at what
changed. docs/journey.md says how each rule is read; the tests of the decisions it
records (the draft's contradictions and silences) say ``decision`` in their names.
"""

from __future__ import annotations

import os

import pytest

from conftest import ROOT
from journey import JourneyError, apply, legal_actions, load_rules
from journey.play import deal_game, resolvable, score
from journey.state import Deal, State

DRAFT = load_rules("草案")
HARD = load_rules("高難易度")
PROPOSAL = load_rules("問題点")
RED, GREEN, BLUE, YELLOW, WHITE = range(5)
#: The days of the hand-built games: six locations, then 千年樹 (capacities 3 2 3 4 2 3 0).
DAYS = ("湾岸道路", "浜辺", "小さな町", "大都会", "無人駅", "廃坑", "千年樹")
LAST = 6


def c(rules, name: str) -> int:
    return rules.card_ids.index(name)


def cards(rules, *names) -> tuple:
    return tuple(c(rules, n) for n in names)


def deal(rules=DRAFT, carried=(), capacity=None) -> Deal:
    items = tuple(rules.items[i] for i in carried)
    passive = frozenset(it.effect for it in items if it.passive)
    if capacity is None:
        capacity = tuple(0 if d == LAST else rules.slots[loc] - (
            rules.red[loc] if rules.hard and "red_slots" not in passive else 0)
            for d, loc in enumerate(DAYS))
    return Deal(rules, DAYS, capacity, items, passive)


def at(rules=DRAFT, *, carried=(), deck=(), hand=(), discard=(), stacks=None, white=0,
       blacks=(0, 0), resolved=0, letters=0, tapped=0, lantern=0, phase="play", pending=(),
       capacity=None) -> State:
    """A hand-built moment of a game (card names, 0-based days)."""
    built = [()] * 7
    for day, names in (stacks or {}).items():
        built[day] = cards(rules, *names)
    return State(deal(rules, carried, capacity), cards(rules, *deck),
                 tuple(sorted(cards(rules, *hand))), tuple(sorted(cards(rules, *discard))),
                 tuple(built), white, tuple(sorted(blacks)), resolved, letters, tapped, lantern,
                 phase, pending, (), 1)


def play(state, name, black=None, rules=DRAFT):
    card = c(rules, name)
    black = state.blacks[0] if black is None else black
    return apply(state, ("play", card, ((black, len(DAYS) - rules.number_of[card]),)))


def names(rules, stack) -> list[str]:
    return [rules.card_ids[i] for i in stack]


def kinds(events) -> list[str]:
    return [e["event"] for e in events]


# ------------------------------------------------------------------ set-up


def test_setup_draws_the_hand_then_the_first_refill_adds_one():
    state, events = deal_game(DRAFT, 1)
    assert len(state.hand) == DRAFT.hand + 1 == 4
    assert kinds(events) == ["deal", "draw"] and events[1]["why"] == "refill"
    assert len(state.deck) == 30 - 4 and state.phase == "play"


def test_setup_lays_the_last_day_last_and_shuffles_the_other_six():
    orders = {deal_game(DRAFT, seed)[0].deal.days for seed in range(20)}
    assert all(order[-1] == "千年樹" for order in orders)
    assert len(orders) > 1 and all(sorted(o[:-1]) == sorted(DAYS[:-1]) for o in orders)


def test_setup_puts_every_pawn_on_day_one():
    state = deal_game(DRAFT, 3)[0]
    assert state.pawns() == (0, 0, 0)


def test_same_seed_deals_the_same_game_and_another_seed_another():
    a, b, other = (deal_game(DRAFT, s)[0] for s in (5, 5, 6))
    assert a.key() == b.key() and a.deal.days == b.deal.days
    assert a.key() != other.key()


def test_a_hashed_key_is_equal_exactly_when_the_states_key_is_and_hashes_as_it():
    """``State.hashed_key()`` (what a search's tables hold: ``Key``, its hash worked out
    once) stands for ``key()``: equal for equal keys whatever the objects, unequal for
    another state's, never equal to the plain tuple, and hashed as the tuple is."""
    from journey.state import Key

    a, b, other = (deal_game(DRAFT, s)[0] for s in (5, 5, 6))
    ka, kb, ko = a.hashed_key(), b.hashed_key(), other.hashed_key()
    assert isinstance(ka, Key) and ka.fields == a.key()
    assert ka == kb and ka is not kb and hash(ka) == hash(kb) == hash(a.key())
    assert ka != ko and not (ka == a.key())
    assert len({ka, kb, ko}) == 2 and {ka: 1}[kb] == 1
    later = apply(a, legal_actions(a)[0])[0]
    assert later.hashed_key() != ka and later.hashed_key() == later.copy().hashed_key()


def test_a_hashed_key_sent_to_another_process_hashes_as_that_process_does():
    """A str's hash differs between processes (the phase is one): a pickled ``Key``
    carries its fields, not its hash, so a key made elsewhere finds its equal here."""
    import pickle
    import subprocess
    import sys

    made = subprocess.run(
        [sys.executable, "-c", "import pickle, sys; from journey import load_rules, new_game; "
         "sys.stdout.buffer.write(pickle.dumps(new_game(load_rules('草案'), 5).hashed_key()))"],
        capture_output=True, check=True, cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"})
    there = pickle.loads(made.stdout)
    here = deal_game(DRAFT, 5)[0].hashed_key()
    assert there.hashed == hash(there.fields) and there == here and {here: 1}[there] == 1


def test_a_deal_is_equal_and_shown_by_its_fields_as_the_dataclass_it_was():
    """``Deal`` is written out (its compiled twin is an extension type: journey/state.pxd):
    equal when every field is, shown by its fields, with the tapped items' indices and
    the last day worked out once."""
    items = ["ランタン", "ラジオ"]
    a, b, other = (deal_game(DRAFT, s, items=items)[0].deal for s in (5, 5, 6))
    assert a == b and a is not b and a != other and a != a._fields()
    assert repr(a).startswith("Deal(rules=Rules(") and f"days={a.days!r}" in repr(a)
    assert a.tappable == tuple(i for i, item in enumerate(a.carried) if not item.passive)
    assert a.last == len(a.days) - 1 == 6


def test_setup_carries_the_chosen_items_and_refuses_a_wrong_choice():
    state = deal_game(DRAFT, 0, items=["ランタン", "ラジオ"])[0]
    assert [it.id for it in state.deal.carried] == ["ランタン", "ラジオ"]
    with pytest.raises(JourneyError, match="2 個選びます"):
        deal_game(DRAFT, 0, items=["ランタン"])
    with pytest.raises(JourneyError, match="一覧にありません"):
        deal_game(DRAFT, 0, items=["ランタン", "望遠鏡"])
    with pytest.raises(JourneyError, match="2回"):
        deal_game(DRAFT, 0, items=["ランタン", "ランタン"])


def test_bad_seed_is_refused():
    with pytest.raises(JourneyError, match="シード"):
        deal_game(DRAFT, "x")


# ------------------------------------------------------------------ 1 refill


def test_refill_draws_one_card_at_the_start_of_each_turn():
    state = at(deck=("赤1", "赤2", "赤3"), hand=("緑3",), phase="resolve")
    after, events = apply(state, ("end",))
    assert names(DRAFT, after.hand) == ["緑3", "赤1"] or set(names(DRAFT, after.hand)) == {"緑3", "赤1"}
    assert kinds(events) == ["turn", "draw"] and after.turn == 2


def test_refill_from_an_empty_deck_loses():
    state = at(deck=(), hand=("緑3",), phase="resolve")
    after, events = apply(state, ("end",))
    assert after.phase == "lost" and after.reason == "refill_empty"
    assert events[-1] == {"event": "lost", "turn": 2, "reason": "refill_empty"}


def test_decision_a_turn_returns_to_the_refill_not_to_the_move():
    """Step 6 says 「１：移動フェイズ」へ戻る, but 1 is the refill: the turn starts over at
    the refill, so the hand keeps its size from turn to turn."""
    state = deal_game(DRAFT, 2)[0]
    sizes = []
    for _ in range(4):
        sizes.append(len(state.hand))
        state = next(apply(state, a)[0] for a in legal_actions(state) if a[0] == "play")
        while state.phase != "play" and not state.over:
            choice = next(a for a in legal_actions(state)
                          if a[0] in ("next", "end", "effect", "skip", "return", "mill"))
            state = apply(state, choice)[0]
    assert sizes == [4, 4, 4, 4]


# ------------------------------------------------------------------ 2 movement


def test_white_pawn_walks_the_number_of_the_card_played():
    after, events = play(at(deck=("赤1",) * 0 + ("赤2", "赤3"), hand=("緑3",), white=1), "緑3")
    assert after.white == 4 and events[0]["white"] == [2, 5]


def test_one_chosen_black_pawn_walks_seven_minus_the_number():
    state = at(deck=("赤2", "赤3"), hand=("緑2",), blacks=(1, 3))
    after, _ = play(state, "緑2", black=3)
    assert after.blacks == (1, 1)  # 3 + 5 = 8: past day 7, to day 1 (index 1 is day 2)
    after, _ = play(state, "緑2", black=1)
    assert after.blacks == (3, 6)


def test_the_two_black_pawns_are_one_choice_when_they_stand_together():
    state = at(deck=("赤2",), hand=("緑2",), blacks=(2, 2))
    assert [a for a in legal_actions(state) if a[0] == "play"] == [("play", c(DRAFT, "緑2"), ((2, 5),))]


def test_white_pawn_past_day_seven_loops_to_day_one_and_mills_the_top_card():
    state = at(deck=("赤2", "赤3"), hand=("緑4",), white=4, letters=1)  # a letter: the turn waits
    after, events = play(state, "緑4")
    assert after.white == 1  # day 5 + 4 = day 9 → day 2
    assert {"event": "mill", "card": "赤2", "to": "discard"} in events
    assert names(DRAFT, after.discard) == ["赤2"] and names(DRAFT, after.deck) == ["赤3"]


def test_white_pawn_stopping_exactly_on_day_seven_does_not_mill():
    state = at(deck=("赤2", "赤3"), hand=("緑3",), white=3, letters=1)
    after, events = play(state, "緑3")
    assert after.white == LAST and "mill" not in kinds(events)
    assert len(after.deck) == 2


def test_white_loop_with_an_empty_deck_loses():
    state = at(deck=(), hand=("緑4",), white=4)
    after, events = play(state, "緑4")
    assert after.phase == "lost" and after.reason == "loop_empty"
    assert after.cards() == 1  # the card played is discarded, not lost from the game


def test_the_white_pawns_loop_mills_before_the_black_pawn_moves():
    """DESIGN §6.2: the mill belongs to the white pawn's move; the black pawn walks after
    it — so a loop with an empty deck loses before any black pawn has moved."""
    state = at(deck=("赤2", "赤3"), hand=("緑4",), white=4, blacks=(1, 1), letters=1)
    after, events = play(state, "緑4")
    assert kinds(events)[:3] == ["play", "mill", "black"]
    lost, _ = play(at(deck=(), hand=("緑4",), white=4, blacks=(1, 1)), "緑4")
    assert lost.reason == "loop_empty" and lost.blacks == (1, 1)
    waiting, _ = play(at(carried=("地図", "テント"), deck=("赤2",), hand=("緑4",), white=4,
                         blacks=(1, 1)), "緑4")
    assert waiting.phase == "mill" and waiting.blacks == (1, 1)  # the テント's choice first
    assert apply(waiting, ("mill", "bottom"))[0].blacks == (1, 4)


def test_black_pawn_loop_mills_nothing():
    state = at(deck=("赤2", "赤3"), hand=("緑1",), blacks=(3, 3))
    after, events = play(state, "緑1")  # black: 4 + 6 = 10 → day 3
    assert after.blacks == (2, 3) and "mill" not in kinds(events)


# ------------------------------------------------------------------ 3 placement


def test_played_card_is_placed_at_the_white_pawn_nearest_the_location():
    state = at(deck=("赤2",), hand=("緑1",), stacks={1: ("赤3",)}, blacks=(5, 5))
    after, events = play(state, "緑1")
    assert names(DRAFT, after.stacks[1]) == ["緑1", "赤3"]
    assert {"event": "place", "card": "緑1", "day": 2} in events


def test_overflow_discards_the_event_farthest_from_the_location():
    state = at(deck=("赤2",), hand=("緑1",), stacks={1: ("赤3", "赤4")}, blacks=(5, 5))
    after, events = play(state, "緑1")  # 浜辺 holds 2
    assert names(DRAFT, after.stacks[1]) == ["緑1", "赤3"]
    assert names(DRAFT, after.discard) == ["赤4"]
    assert {"event": "overflow", "card": "赤4", "day": 2} in events


def test_no_event_is_placed_on_day_seven():
    state = at(deck=("赤2",), hand=("緑3",), white=3)
    after, events = play(state, "緑3")
    assert after.stacks[LAST] == () and names(DRAFT, after.discard) == ["緑3"]
    assert {"event": "place", "card": "緑3", "day": 7, "to": "discard"} in events


def test_high_difficulty_treats_the_red_card_icons_as_absent():
    easy, hard = deal(DRAFT), deal(HARD)
    assert easy.capacity == (3, 2, 3, 4, 2, 3, 0)
    assert hard.capacity == (2, 1, 2, 2, 1, 2, 0)


# ------------------------------------------------------------------ 4 suit effects


def test_suit_effects_apply_at_the_white_pawn_nearest_first_each_suit_once():
    # 大都会 (day 4) holds 赤5 then 緑5; the 白1 played is placed nearest.
    state = at(deck=("黄5", "黄6"), hand=("白1",), white=2, stacks={3: ("赤5", "緑5")},
               blacks=(3, 3))
    after, events = play(state, "白1")  # white → day 4; a black pawn walks 6 → day 3
    effects = [e for e in events if e["event"] == "effect"]
    # 白 first: calls the black pawn not already here (one choice: it happens by itself)
    assert [e["suit"] for e in effects] == ["white"] and after.blacks == (3, 3)
    assert after.phase == "effect" and after.pending == (RED,)  # 赤 next, then 緑
    assert [DRAFT.suit_of[card] for card in after.queue] == [GREEN]


def test_a_suit_effect_applies_once_however_many_of_its_events_lie_there():
    # 大都会 (day 4): 白5 and 白6 already there, 白1 played on top: 白 calls once
    state = at(deck=("黄5", "黄6"), hand=("白1",), white=2, stacks={3: ("白5", "白6")},
               blacks=(3, 3), letters=1)
    placed, _ = play(state, "白1")
    after, events = apply(placed, ("next",))  # the letter: a moment before the events
    assert [e["suit"] for e in events if e["event"] == "effect"] == ["white"]
    assert after.phase == "resolve" and after.pending == ()


def test_effect_with_one_way_happens_by_itself_and_several_are_the_players_choice():
    state = at(deck=("黄5",), hand=("白1",), white=2, blacks=(3, 3))
    after, _ = play(state, "白1")  # blacks: (2, 3); the one on day 3 is called to day 4
    assert after.blacks == (3, 3) and after.phase == "play"
    state = at(deck=("黄5",), hand=("白1",), white=2, blacks=(0, 5))
    after, _ = play(state, "白1")  # blacks: (5, 6), neither on day 4: which one?
    assert after.phase == "effect"
    assert [a for a in legal_actions(after) if a[0] == "effect"] == [("effect", 5), ("effect", 6)]


def test_effect_that_cannot_happen_does_nothing():
    state = at(deck=("黄5",), hand=("緑1",), white=0, blacks=(5, 5))
    after, events = play(state, "緑1")  # 緑: no used item to stand up
    assert {"event": "effect", "suit": "green", "effect": "none"} in events
    assert after.phase == "play" and after.turn == 2  # nothing to resolve: the turn ends


def test_red_moves_a_black_pawn_one_location_either_way():
    state = at(deck=("黄5",), hand=("赤1",), white=0, blacks=(3, 5))
    after, _ = play(state, "赤1", black=5)  # blacks: (3, 4)
    assert sorted(a for a in legal_actions(after) if a[0] == "effect") == [
        ("effect", 3, -1), ("effect", 3, 1), ("effect", 4, -1), ("effect", 4, 1)]
    moved, _ = apply(after, ("effect", 3, -1))
    assert moved.blacks == (2, 4)


def test_decision_red_and_location_memory_loop_backwards_from_day_one_to_day_seven():
    state = at(deck=("黄5",), hand=("赤1",), white=0, blacks=(0, 0), letters=1, phase="resolve")
    after, _ = apply(state, ("letter", "location_memory", 0, -1))
    assert after.blacks == (0, LAST)


def test_blue_swaps_two_events_of_the_same_number():
    state = at(deck=("黄5",), hand=("青2",), white=0,
               stacks={2: ("赤3",), 4: ("緑3",), 5: ("黄2",)}, blacks=(6, 6))
    after, _ = play(state, "青2")  # day 3: 青2 placed on day 3 (white 1 → 3)
    options = [a for a in legal_actions(after) if a[0] == "effect"]
    # pairs of one number: 赤3/緑3, and 青2 (day 3, nearest) with 黄2
    assert ("effect", 2, 1, 4, 0) in options and ("effect", 2, 0, 5, 0) in options
    assert len(options) == 2
    swapped, events = apply(after, ("effect", 2, 1, 4, 0))
    assert names(DRAFT, swapped.stacks[2]) == ["青2", "緑3"]
    assert names(DRAFT, swapped.stacks[4]) == ["赤3"]


def test_blue_swapped_in_event_has_no_effect_this_turn():
    state = at(deck=("黄5", "黄6"), hand=("青3",), white=0, stacks={4: ("赤3",)},
               blacks=(1, 6))
    swapped, events = play(state, "青3")  # white → day 4; 青3 and 赤3: the one pair
    assert names(DRAFT, swapped.stacks[3]) == ["赤3"]
    assert [e["suit"] for e in events if e["event"] == "effect"] == ["blue"]  # not 赤3's


def test_a_card_the_blue_swap_takes_out_of_the_location_has_no_effect_this_turn():
    # 大都会 (day 4): 青3 played on 赤5 緑2; 赤5 and 黄5 (day 6) are the one pair.
    state = at(deck=("黄1", "黄6"), hand=("青3",), white=0, stacks={3: ("赤5", "緑2"), 5: ("黄5",)},
               blacks=(1, 6))
    after, events = play(state, "青3")
    assert names(DRAFT, after.stacks[3]) == ["青3", "黄5", "緑2"]
    assert [e["suit"] for e in events if e["event"] == "effect"] == ["blue", "green"]
    assert after.turn == 2  # 赤5 left: no red effect to choose


def test_cards_the_blue_swap_moves_within_the_location_have_no_effect_this_turn():
    # 大都会 (day 4): 青3 played on 赤5 緑5, the one pair: they change places, no effect.
    state = at(deck=("黄1", "黄6"), hand=("青3",), white=0, stacks={3: ("赤5", "緑5")},
               blacks=(1, 6))
    after, events = play(state, "青3")
    assert names(DRAFT, after.stacks[3]) == ["青3", "緑5", "赤5"]
    assert [e["suit"] for e in events if e["event"] == "effect"] == ["blue"]
    assert after.turn == 2


def test_after_a_blue_swap_the_other_cards_at_the_location_keep_their_order():
    # 青3 on 赤5 緑2 赤6; 赤5 swapped away with 黄5: 緑2 then 赤6 — red comes after green.
    state = at(deck=("黄1", "黄6"), hand=("青3",), white=0,
               stacks={3: ("赤5", "緑2", "赤6"), 5: ("黄5",)}, blacks=(1, 6))
    after, events = play(state, "青3")
    assert [e["suit"] for e in events if e["event"] == "effect"] == ["blue", "green"]
    assert after.phase == "effect" and after.pending == (RED,)  # 赤6's


def test_yellow_draws_a_card_then_returns_one_from_the_hand_under_the_deck():
    state = at(deck=("赤5", "赤6"), hand=("黄1", "緑2"), white=0, blacks=(6, 6), letters=1)
    after, events = apply(play(state, "黄1")[0], ("next",))
    assert after.phase == "return" and set(names(DRAFT, after.hand)) == {"緑2", "赤5"}
    returned, _ = apply(after, ("return", c(DRAFT, "緑2")))
    assert names(DRAFT, returned.deck) == ["赤6", "緑2"] and names(DRAFT, returned.hand) == ["赤5"]


def test_decision_yellow_with_an_empty_deck_does_nothing():
    # 黄 draws one card: with none to draw it does nothing (decision 6), and asks for no
    # card back.
    state = at(deck=(), hand=("黄1", "緑2"), white=0, blacks=(6, 6), letters=1)
    after, events = apply(play(state, "黄1")[0], ("next",))
    assert {"event": "effect", "suit": "yellow", "effect": "none"} in events
    assert after.phase == "resolve" and names(DRAFT, after.hand) == ["緑2"] and after.deck == ()


def test_green_stands_a_used_item_up_again():
    state = at(carried=("地図", "テント"), deck=("赤5",), hand=("緑1",), tapped=0b01,
               blacks=(6, 6))
    after, events = play(state, "緑1")
    assert after.ready(0) and {"event": "effect", "suit": "green", "effect": "stand_item",
                                "item": "地図"} in events


def test_white_calls_a_black_pawn_here_but_not_one_already_here():
    state = at(deck=("赤5",), hand=("白1",), white=0, blacks=(1, 4))
    after, _ = play(state, "白1", black=4)  # white → day 2, where a black pawn stands
    assert after.blacks == (1, 1)  # the other one (on day 4) was called, by itself
    state = at(deck=("赤5",), hand=("白1",), white=0, blacks=(1, 2))
    after, events = play(state, "白1", black=2)  # both black pawns now on day 2
    assert after.blacks == (1, 1) and {"event": "effect", "suit": "white", "effect": "none"} in events


def test_proposal_variant_lets_each_suit_effect_be_skipped():
    state = at(PROPOSAL, deck=("赤5",), hand=("白1",), white=0, blacks=(4, 4))
    after, _ = play(state, "白1", rules=PROPOSAL)  # blacks: (3, 4)
    assert after.phase == "effect" and ("skip",) in legal_actions(after)
    skipped, events = apply(after, ("skip",))
    assert skipped.blacks == (3, 4) and events[0]["effect"] == "skipped"


# ------------------------------------------------------------------ 5 resolution


def test_resolution_needs_the_suit_at_every_pawn_location():
    state = at(stacks={0: ("赤1",), 2: ("赤2", "緑2"), 3: ("赤3",)}, white=0, blacks=(2, 3),
               phase="resolve")
    assert resolvable(state) == [RED]
    state = at(stacks={0: ("赤1",), 2: ("緑2",), 3: ("赤3",)}, white=0, blacks=(2, 3),
               phase="resolve")
    assert resolvable(state) == []


def test_two_pawns_on_one_location_need_two_cards_of_the_suit():
    one = at(stacks={0: ("赤1",), 3: ("赤3", "緑3")}, white=0, blacks=(3, 3), phase="resolve")
    two = at(stacks={0: ("赤1",), 3: ("赤3", "赤4")}, white=0, blacks=(3, 3), phase="resolve")
    assert resolvable(one) == [] and resolvable(two) == [RED]


def test_no_story_resolves_with_a_pawn_on_day_seven():
    state = at(stacks={0: ("赤1",), 3: ("赤3",)}, white=0, blacks=(3, LAST), phase="resolve")
    assert resolvable(state) == []


def test_only_one_story_resolves_per_turn():
    state = at(deck=("黄1",), stacks={0: ("赤1", "緑1"), 1: ("赤2", "緑2"), 2: ("赤3", "緑3")},
               white=0, blacks=(1, 2), phase="resolve")
    assert [a for a in legal_actions(state) if a[0] == "resolve"] == [("resolve", RED), ("resolve", GREEN)]
    after, events = apply(state, ("resolve", GREEN))
    assert after.resolved == 1 << GREEN and after.phase == "moment"  # the letter won
    assert not [a for a in legal_actions(after) if a[0] == "resolve"]  # no second
    for _ in range(2):  # before the end check, before the refill's draw
        after, more = apply(after, ("next",))
        events += more
    assert after.phase == "play" and kinds(events) == ["resolve", "turn", "draw"]


def test_resolving_a_story_wins_its_letter():
    state = at(deck=("黄1",), stacks={0: ("赤1",), 1: ("赤2", "赤3")}, blacks=(1, 1),
               phase="resolve")
    after, events = apply(state, ("resolve", RED))
    assert after.letters == 1 and events[0]["story"] == "珍獣屋のおじさん、現る"


def test_decision_resolving_is_a_choice_the_turn_may_end_without_it():
    state = at(deck=("黄1",), stacks={0: ("赤1",), 1: ("赤2", "赤3")}, blacks=(1, 1),
               phase="resolve")
    assert ("resolve", RED) in legal_actions(state)
    after, _ = apply(state, ("end",))
    assert after.resolved == 0


def test_resolved_story_cannot_resolve_again():
    state = at(stacks={0: ("赤1",)}, resolved=1 << RED, phase="resolve")
    assert resolvable(state) == []


def test_resolved_suit_loses_its_effect():
    state = at(deck=("黄5",), hand=("赤1",), white=0, blacks=(3, 5), resolved=1 << RED)
    after, events = play(state, "赤1")
    assert after.turn == 2 and not [e for e in events if e["event"] == "effect"]


# ------------------------------------------------------------------ letters


def test_location_memory_moves_a_black_pawn_one_location_and_spends_the_letter():
    state = at(deck=("黄5",), hand=("赤1",), blacks=(2, 4), letters=2)
    after, events = apply(state, ("letter", "location_memory", 4, 1))
    assert after.blacks == (2, 5) and after.letters == 1


def test_adventure_memory_returns_a_discard_to_the_top_of_the_deck():
    state = at(deck=("黄5",), hand=("赤1",), discard=("緑6", "青6"), letters=1)
    after, _ = apply(state, ("letter", "adventure_memory", c(DRAFT, "青6")))
    assert names(DRAFT, after.deck) == ["青6", "黄5"] and names(DRAFT, after.discard) == ["緑6"]
    assert after.letters == 0 and not [a for a in legal_actions(after) if a[0] == "letter"]


def test_letters_can_be_used_at_every_moment_between_two_steps_of_a_turn():
    """「いつでも」 (DESIGN §6.2): before the play, between placing the card and the event
    phase, between two event effects, at the resolution point, after a resolution and
    before the end check, and before the refill's draw — not inside a step (a return)."""
    # 緑1 goes to day 4 (white 3 → 4; a black pawn 5 + 6 → 4): 緑1 黄2 緑3 there, 緑4 on
    # day 5. 緑 does nothing (no item), 黄 draws and asks for a card back, then 緑 resolves.
    state = at(deck=("赤5", "赤4", "赤3"), hand=("緑1", "赤6"), white=2, blacks=(4, 4),
               letters=1, stacks={3: ("黄2", "緑3"), 4: ("緑4",)})
    choices = {"play": ("play", c(DRAFT, "緑1"), ((4, 6),)), "moment": ("next",),
               "return": ("return", c(DRAFT, "赤6")), "resolve": ("resolve", GREEN)}
    seen = []
    while state.turn == 1 or state.phase != "play":
        offered = any(a[0] == "letter" for a in legal_actions(state))
        seen.append((state.phase, *state.pending, offered))
        state = apply(state, choices[state.phase])[0]
    assert seen == [("play", True), ("moment", "events", True), ("moment", "effects", True),
                    ("return", 1, False), ("resolve", True), ("moment", "end", True),
                    ("moment", "refill", True)]
    assert state.resolved == 1 << GREEN and state.letters == 2


def test_decision_there_is_no_moment_before_an_effect_no_card_left_can_have():
    """「いつでも」 between two event effects: when the cards left at the location are all
    of resolved suits, there is no next effect, so no moment «before» it — only the
    resolution point's, with the same letters and items. With a standing ランタン that
    could light such a suit at that moment, the moment is there."""
    def moments(carried):
        # 緑1 to day 4 (white 3 → 4): 緑1 then 黄2 there, 黄 resolved; 緑 stands nothing
        state = at(carried=carried, hand=("緑1", "赤6"), white=2, blacks=(4, 4), letters=1,
                   deck=("赤5", "赤4"), resolved=1 << YELLOW, stacks={3: ("黄2",)})
        state = apply(state, ("play", c(DRAFT, "緑1"), ((4, 6),)))[0]
        seen = []
        while state.phase != "resolve":
            seen.append((state.phase, *state.pending))
            state = apply(state, ("next",))[0]
        return seen

    assert moments(()) == [("moment", "events")]
    assert moments(("ランタン",)) == [("moment", "events"), ("moment", "effects")]


def test_a_letter_won_by_a_resolution_can_save_the_refill_from_an_empty_deck():
    """After a resolution and before the end check (and before the refill's draw) the new
    letter's アドベンチャーメモリー puts a discard on top: the refill draws it."""
    state = at(deck=(), hand=("赤1",), discard=("青6",), stacks={0: ("赤2",), 1: ("赤3", "赤4")},
               blacks=(1, 1), phase="resolve")
    after, _ = apply(state, ("resolve", RED))
    assert after.phase == "moment" and after.letters == 1
    # No letter left: nothing to use, so the moments pass by themselves.
    saved, _ = apply(after, ("letter", "adventure_memory", c(DRAFT, "青6")))
    assert saved.phase == "play" and names(DRAFT, saved.hand) == ["赤1", "青6"]
    assert apply(apply(after, ("next",))[0], ("next",))[0].reason == "refill_empty"


def test_letters_and_items_cannot_be_used_inside_a_step():
    """Not while a suit effect's choice is pending, while cards are being returned or a
    loop's card waits for the テント."""
    for phase, pending in (("effect", (RED,)), ("return", (1,)), ("mill", (c(DRAFT, "黄6"),))):
        state = at(carried=("地図", "テント"), deck=("黄5",), hand=("赤1",), blacks=(2, 4),
                   letters=1, phase=phase, pending=pending)
        actions = legal_actions(state)
        assert actions and not [a for a in actions if a[0] in ("letter", "item")], phase


def test_items_can_be_used_at_every_moment_between_two_steps():
    for phase, pending in (("play", ()), ("moment", ("events",)), ("moment", ("effects",)),
                           ("resolve", ()), ("moment", ("end",)), ("moment", ("refill",))):
        state = at(carried=("地図", "テント"), deck=("黄5",), hand=("赤1",), blacks=(2, 4),
                   phase=phase, pending=pending)
        assert ("item", 0) in legal_actions(state), (phase, pending)


def test_a_moment_with_nothing_to_use_is_no_choice():
    # No letter and no item: the card is placed, the events run, the turn ends by itself.
    state = at(deck=("黄5", "黄6"), hand=("緑1",), white=0, blacks=(5, 5))
    after, events = play(state, "緑1")
    assert after.phase == "play" and after.turn == 2
    assert kinds(events)[-2:] == ["turn", "draw"]


# ------------------------------------------------------------------ items


def test_used_item_is_tapped_and_cannot_be_used_again_until_stood_up():
    state = at(carried=("地図", "テント"), deck=("黄5",), hand=("赤1",), blacks=(5, 5))
    after, events = apply(state, ("item", 0))
    assert not after.ready(0) and ("item", 0) not in legal_actions(after)
    assert events[0] == {"event": "item", "item": "地図", "effect": "advance_white",
                         "white": [1, 2], "loop": False}


def test_map_moves_the_white_pawn_one_location_and_its_loop_mills():
    state = at(carried=("地図", "ラジオ"), deck=("黄5", "黄6"), hand=("赤1",), white=LAST)
    after, events = apply(state, ("item", 0))
    assert after.white == 0 and names(DRAFT, after.discard) == ["黄5"]


def test_lantern_lets_a_resolved_suit_apply_its_effect_this_turn_but_not_resolve():
    state = at(carried=("ランタン", "テント"), deck=("黄5", "黄6"), hand=("赤1",), white=0,
               blacks=(3, 5), resolved=1 << RED, stacks={1: ("赤2",)})
    lit, _ = apply(state, ("item", 0, RED))
    assert lit.lantern == 1 << RED
    after, _ = play(lit, "赤1")  # white → day 2: 赤1 nearest, its effect applies
    assert after.phase == "effect" and after.pending[0] == RED
    assert resolvable(after) == []  # treated as unresolved, but not resolved again
    moved, _ = apply(after, ("effect", 2, 1))
    assert moved.turn == 2 and moved.lantern == 0  # until the end of the turn only


def test_a_second_lantern_in_one_turn_adds_its_suit_and_keeps_the_first():
    # 赤 is lit and the ランタン used; 緑1 (on 白2 赤3, 大都会) stands it up, and at the
    # moment after 緑 it lights 白 too: 白 and then 赤 apply.
    state = at(carried=("ランタン", "テント"), deck=("黄5", "黄6"), hand=("緑1",), white=2,
               blacks=(5, 5), resolved=1 << RED | 1 << WHITE, lantern=1 << RED, tapped=0b01,
               stacks={3: ("白2", "赤3")})
    stood, _ = play(state, "緑1")
    assert stood.phase == "moment" and stood.ready(0)
    assert [a for a in legal_actions(stood) if a[0] == "item"] == [("item", 0, WHITE)]
    lit, _ = apply(stood, ("item", 0, WHITE))
    assert lit.lantern == 1 << RED | 1 << WHITE
    assert lit.phase == "effect" and lit.pending == (WHITE,)
    called, _ = apply(lit, ("effect", 4))
    assert called.phase == "effect" and called.pending == (RED,)  # the first suit still lit


def test_radio_draws_three_and_returns_three_under_the_deck_in_the_order_chosen():
    state = at(carried=("ラジオ", "テント"), deck=("黄1", "黄2", "黄3", "黄4"), hand=("赤1",))
    after, _ = apply(state, ("item", 0))
    assert after.phase == "return" and len(after.hand) == 4
    for name in ("赤1", "黄2", "黄1"):
        after, _ = apply(after, ("return", c(DRAFT, name)))
    assert names(DRAFT, after.deck) == ["黄4", "赤1", "黄2", "黄1"]
    assert names(DRAFT, after.hand) == ["黄3"] and after.phase == "play"


def test_decision_radio_draws_only_what_the_deck_has_and_returns_as_many():
    # ラジオ draws up to 3 and returns as many as it drew (decision 10); with an empty
    # deck it is not offered.
    state = at(carried=("ラジオ", "テント"), deck=("黄1", "黄2"), hand=("赤1",))
    after, _ = apply(state, ("item", 0))
    assert after.phase == "return" and names(DRAFT, after.hand) == ["赤1", "黄1", "黄2"]
    assert after.deck == ()
    for name in ("黄2", "赤1"):
        after, _ = apply(after, ("return", c(DRAFT, name)))
    assert after.phase == "play" and names(DRAFT, after.deck) == ["黄2", "赤1"]
    assert names(DRAFT, after.hand) == ["黄1"]
    empty = at(carried=("ラジオ", "テント"), deck=(), hand=("赤1",))
    assert ("item", 0) not in legal_actions(empty)


def test_an_empty_deck_loses_only_at_the_refill_or_a_loop():
    """黄 and ラジオ draw what the deck has; an empty deck ends the game only where the
    draft says so: the refill, and the white pawn's loop (both tested above)."""
    state = at(deck=(), hand=("黄1", "緑2"), white=0, blacks=(6, 6))
    after, events = play(state, "黄1")  # 黄 at day 2 with nothing to draw
    assert {"event": "effect", "suit": "yellow", "effect": "none"} in events
    assert after.phase == "lost" and after.reason == "refill_empty"  # the refill's, not 黄's
    state = at(carried=("ラジオ", "テント"), deck=("黄1",), hand=("赤1",))
    after, _ = apply(state, ("item", 0))
    after, _ = apply(after, ("return", c(DRAFT, "黄1")))
    assert after.phase == "play" and names(DRAFT, after.deck) == ["黄1"]


def test_camera_returns_a_second_discard_with_an_adventure_memory():
    state = at(carried=("カメラ", "テント"), deck=("黄5",), hand=("赤1",),
               discard=("緑6", "青6"), letters=1)
    after, events = apply(state, ("letter", "adventure_memory", c(DRAFT, "緑6"), c(DRAFT, "青6")))
    assert names(DRAFT, after.deck) == ["青6", "緑6", "黄5"] and not after.ready(0)


def test_rucksack_swaps_an_event_here_for_a_hand_card_in_its_place():
    state = at(carried=("リュックサック", "テント"), deck=("黄5",), hand=("赤1", "緑1"),
               white=3, stacks={3: ("青4", "青5")})
    after, events = apply(state, ("item", 0, 1, c(DRAFT, "緑1")))
    assert names(DRAFT, after.stacks[3]) == ["青4", "緑1"]
    assert names(DRAFT, after.discard) == ["青5"] and names(DRAFT, after.hand) == ["赤1"]


def test_decision_rucksack_cannot_give_away_the_last_card_at_the_move_phase():
    # 移動フェイズ is playing a card from the hand: with one card left, リュックサック
    # would leave a turn with no move at all (docs/journey.md, decision 14).
    state = at(carried=("リュックサック", "テント"), deck=("黄5",), hand=("赤1",),
               white=3, stacks={3: ("青4", "青5")})
    assert state.phase == "play"
    assert not [a for a in legal_actions(state) if a[0] == "item" and a[1] == 0]
    two = at(carried=("リュックサック", "テント"), deck=("黄5",), hand=("赤1", "緑1"),
             white=3, stacks={3: ("青4", "青5")})
    assert [a for a in legal_actions(two) if a[0] == "item" and a[1] == 0]


def test_tent_puts_the_looped_card_under_the_deck_after_seeing_it():
    state = at(carried=("地図", "テント"), deck=("黄5", "黄6"), hand=("赤4",), white=4)
    after, events = play(state, "赤4")
    assert after.phase == "mill" and names(DRAFT, after.pending) == ["黄5"]
    kept, events = apply(after, ("mill", "bottom"))
    assert names(DRAFT, kept.deck) == ["黄6", "黄5"] and not kept.ready(1)
    assert kept.stacks[1] == (c(DRAFT, "赤4"),)  # the card played is placed after
    thrown, _ = apply(after, ("mill", "discard"))
    assert names(DRAFT, thrown.discard) == ["黄5"] and thrown.ready(1)


# ------------------------------------------------------------------ 6 end, score


def test_game_is_won_when_every_story_is_resolved_and_every_pawn_is_on_day_seven():
    state = at(deck=("黄5", "黄6"), hand=("緑3",), white=3, blacks=(2, LAST),
               resolved=0b11111, letters=2, stacks={0: ("赤1",)})
    after, _ = play(state, "緑3", black=2)  # white 4 + 3, black 3 + 4: day 7
    after, _ = apply(after, ("next",))  # letters in hand: a moment before the events
    assert after.phase == "resolve"  # letters in hand: the turn ends when the player says so
    after, events = apply(after, ("end",))
    assert after.phase == "won"
    assert events[-1]["event"] == "won" and events[-1]["score"] == 2 + 2 + 1


def test_game_is_not_won_with_a_pawn_elsewhere_or_a_story_unresolved():
    state = at(deck=("黄5", "黄6"), hand=("緑3",), white=3, blacks=(2, 5), resolved=0b11111)
    assert play(state, "緑3", black=2)[0].phase == "play"
    state = at(deck=("黄5", "黄6"), hand=("緑3",), white=3, blacks=(2, LAST), resolved=0b01111)
    assert play(state, "緑3", black=2)[0].phase == "play"


def test_score_is_the_deck_left_the_letters_kept_and_the_locations_whose_keys_all_match():
    # keys: 赤1 星, 赤5 星 (match) | 緑1 花 alone (one event counts) | 赤2 花, 赤3 鳥 (no)
    state = at(deck=("黄5", "黄6", "黄4"), letters=3,
               stacks={0: ("赤1", "赤5"), 1: ("緑1",), 2: ("赤2", "赤3")})
    assert score(state) == {"score": 3 + 3 + 2, "parts": {"deck": 3, "letters": 3, "keys": 2,
                                                          "cost": 0}, "matching": 2}


def test_proposal_counts_merged_key_icons_as_one_and_pays_four_per_location():
    # 赤2 花 … 赤3 鳥 → 月, 赤4 月: 赤3 and 赤4 match once 鳥 counts as 月
    state = at(PROPOSAL, carried=("問題点のランタン", "問題点のラジオ"),
               stacks={0: ("赤3", "赤4")})
    assert score(state)["parts"] == {"deck": 0, "letters": 0, "keys": 4, "cost": -4}


def test_proposal_camera_adds_its_key_bonus_per_matching_location():
    state = at(PROPOSAL, carried=("問題点のカメラ", "問題点のラジオ"), stacks={0: ("赤1",)})
    assert score(state)["parts"]["keys"] == 4 + 2


def test_proposal_rucksack_adds_one_card_to_the_hand():
    state = deal_game(PROPOSAL, 0, items=["問題点のリュックサック", "問題点のラジオ"])[0]
    assert len(state.hand) == PROPOSAL.hand + 1 + 1 == 4


def test_proposal_tent_always_puts_the_looped_card_under_the_deck():
    state = at(PROPOSAL, carried=("問題点のテント", "問題点のラジオ"), deck=("黄5", "黄6"),
               hand=("緑4",), white=4, letters=1)
    after, _ = play(state, "緑4", rules=PROPOSAL)
    assert names(PROPOSAL, after.deck) == ["黄6", "黄5"] and after.phase != "mill"


def test_proposal_map_splits_the_black_steps_between_both_pawns():
    state = at(PROPOSAL, carried=("問題点の地図", "問題点のラジオ"), deck=("黄5",), hand=("緑4",),
               blacks=(0, 2))
    plays = [a for a in legal_actions(state) if a[0] == "play"]
    assert ("play", c(PROPOSAL, "緑4"), ((0, 1), (2, 2))) in plays and len(plays) == 2 + 2
    after, _ = apply(state, ("play", c(PROPOSAL, "緑4"), ((0, 1), (2, 2))))
    assert after.blacks == (1, 4)


def test_proposal_lantern_makes_the_red_card_icons_usable():
    plain = deal_game(PROPOSAL, 0, items=["問題点の地図", "問題点のラジオ"])[0]
    lit = deal_game(PROPOSAL, 0, items=["問題点のランタン", "問題点のラジオ"])[0]
    assert sum(plain.deal.capacity) == 17 - 7 and sum(lit.deal.capacity) == 17


def test_illegal_action_is_refused():
    state = at(deck=("黄5",), hand=("赤1",))
    with pytest.raises(JourneyError, match="できない"):
        apply(state, ("resolve", RED))
    with pytest.raises(JourneyError):
        apply(state, ("play", c(DRAFT, "赤2"), ((0, 6),)))


def test_a_reduced_deck_keeps_the_first_stories_and_the_numbers_asked_for():
    small = DRAFT.reduced(suits=2, numbers=range(1, 4))
    assert sorted(small.card_ids) == sorted(("赤1", "赤2", "赤3", "緑1", "緑2", "緑3"))
    assert all(small.suits[small.suit_of[c]] == {"赤": "red", "緑": "green"}[name[0]]
               for c, name in enumerate(small.card_ids))
    assert small.suits == ("red", "green") and small.suit_effects == ("nudge_black", "stand_item")
    state = deal_game(small, 0)[0]
    assert state.cards() == 6 and len(state.hand) == 4
    state = at(small, stacks={0: ("赤1",)}, resolved=0b11, white=LAST, blacks=(LAST, LAST))
    assert state.all_resolved()


def test_the_player_sees_the_deck_as_a_set_and_a_guess_keeps_what_is_seen():
    import random

    from journey.play import information, resample

    state = deal_game(DRAFT, 4)[0]
    guess = resample(state, random.Random(1))
    assert sorted(guess.deck) == sorted(state.deck) and guess.deck != state.deck
    assert information(guess) == information(state) and guess.key() != state.key()
    shown = deal_game(load_rules("手札二枚と公開"), 4)[0]  # 山札公開: the top card is seen
    guess = resample(shown, random.Random(1))
    assert guess.deck[0] == shown.deck[0] and information(guess) == information(shown)


def test_every_effect_content_may_pick_has_its_row_in_the_runtime():
    from contract.vocabulary import JOURNEY_EFFECTS
    from journey.effects import ITEM_EFFECTS, SUIT_EFFECTS

    assert {e.code for e in JOURNEY_EFFECTS if e.of == "flag"} == set(SUIT_EFFECTS)
    assert {e.code for e in JOURNEY_EFFECTS if e.of == "item" and not e.passive} == set(ITEM_EFFECTS)
