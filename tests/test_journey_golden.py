"""A golden game of draft 17 (spec 004), and properties of every game.

tests/golden/journey/*.json keeps a game as seed + set-up + items + the actions typed
(journey.notation labels) → the events it caused. Replaying the actions must give the
same events, byte for byte: any change to the rules' behaviour shows here. To record the
file again after an intended change: JIBUNKI_UPDATE_GOLDEN=1 python -m pytest
tests/test_journey_golden.py. The properties (hypothesis) hold for any seed and any
sequence of legal actions.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT
from journey import apply, legal_actions, load_rules
from journey.notation import labels, parse
from journey.play import deal_game

GOLDEN = ROOT / "tests" / "golden" / "journey"
UPDATE = os.environ.get("JIBUNKI_UPDATE_GOLDEN") == "1"
#: The recorded game: a seed whose random line meets most kinds of event (items, both
#: letters, every suit effect, a loop, an overflow, resolutions, letters and items used at
#: each kind of moment between two steps) before it is lost.
RECORDED = {"name": "draft-seed12", "setup": "草案", "seed": 12, "items": ["ラジオ", "テント"]}


def _record(game: dict) -> dict:
    """Play the game with the recording policy: resolve when possible, else a random
    legal action (seeded by the game's seed)."""
    state, events = deal_game(load_rules(game["setup"]), game["seed"], game["items"])
    rng = random.Random(game["seed"])
    actions = []
    while not state.over:
        known = labels(state)
        resolving = [lab for lab in known if lab.startswith("resolve")]
        chosen = resolving[0] if resolving else rng.choice(list(known))
        state, more = apply(state, known[chosen])
        actions.append(chosen)
        events += more
    return {**game, "actions": actions, "events": events}


def _replay(game: dict) -> list[dict]:
    state, events = deal_game(load_rules(game["setup"]), game["seed"], game["items"])
    for typed in game["actions"]:
        state, more = apply(state, parse(state, typed))
        events += more
    return events


def _path(game: dict):
    return GOLDEN / f"{game['name']}.json"


def test_golden_game_replays_to_the_recorded_events():
    path = _path(RECORDED)
    if UPDATE:
        path.write_text(json.dumps(_record(RECORDED), ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert _replay(kept) == kept["events"]
    kinds = {e["event"] for e in kept["events"]}
    assert {"deal", "play", "place", "mill", "resolve", "letter", "item", "lost"} <= kinds


def test_golden_game_is_what_the_recording_policy_plays_today():
    """The file was recorded by this module's policy: recording it again gives it back
    (a rules change shows as a diff of the file, not only as a failed replay)."""
    kept = json.loads(_path(RECORDED).read_text(encoding="utf-8"))
    assert _record(RECORDED) == kept


#: A won game: the draft's rules on the first two stories (12 cards), seed 0, the line a
#: depth-first search found (the 3 VP are three locations whose key icons match). With 地図
#: standing, every moment between two steps is a choice (「いつでも」): ``next`` goes on.
WON_LINE = ["play 緑1 黒1", "next", "end", "next", "play 緑3 黒1", "next", "end", "next",
            "play 緑2 黒5", "next", "end", "next", "play 赤3 黒3", "mill discard", "next",
            "effect 黒7 +1", "end", "next", "play 赤4 黒1", "next", "end", "next",
            "play 赤2 黒4", "mill bottom", "next", "effect 黒2 +1", "next", "end", "next",
            "play 赤6 黒7", "mill bottom", "next", "effect 黒1 +1", "resolve 赤", "next", "next",
            "play 緑5 黒3", "next", "letter adventure 緑2", "resolve 緑", "next", "next",
            "letter adventure 緑4", "play 緑2 黒2", "mill bottom", "next", "end", "next",
            "play 赤5 黒5", "next", "item 地図"]


def test_a_two_story_game_is_won_by_the_line_a_search_found():
    state, events = deal_game(load_rules("草案").reduced(suits=2), 0)
    for typed in WON_LINE:
        assert not state.over, typed
        state, more = apply(state, parse(state, typed))
        events += more
    assert state.phase == "won"
    assert events[-1] == {"event": "won", "turn": 10, "score": 3, "matching": 3,
                          "parts": {"deck": 0, "letters": 0, "keys": 3, "cost": 0}}
    assert [e["suit"] for e in events if e["event"] == "resolve"] == ["red", "green"]


# ------------------------------------------------------------------ properties

SETUPS = ("草案", "高難易度", "問題点", "手札三枚", "手札二枚と公開")


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), setup=st.sampled_from(SETUPS), picks=st.lists(
    st.integers(0, 10**6), min_size=1, max_size=200))
def test_every_card_stays_in_the_game_deck_hand_locations_discard_always_30(seed, setup, picks):
    state = deal_game(load_rules(setup), seed)[0]
    for pick in picks:
        if state.over:
            break
        actions = legal_actions(state)
        assert actions, f"no action in phase {state.phase}"
        state, _ = apply(state, actions[pick % len(actions)], check=False)
        assert state.cards() == 30
        assert all(len(stack) <= cap for stack, cap in zip(state.stacks, state.deal.capacity))
        assert state.stacks[-1] == ()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), setup=st.sampled_from(SETUPS), picks=st.lists(
    st.integers(0, 10**6), min_size=1, max_size=120))
def test_same_seed_and_actions_give_the_same_game(seed, setup, picks):
    def run():
        state, events = deal_game(load_rules(setup), seed)
        for pick in picks:
            if state.over:
                break
            actions = legal_actions(state)
            state, more = apply(state, actions[pick % len(actions)])
            events += more
        return state.key(), json.dumps(events, ensure_ascii=False)
    assert run() == run()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_apply_leaves_the_state_it_was_given_unchanged(seed, picks):
    state = deal_game(load_rules("草案"), seed)[0]
    for pick in picks:
        if state.over:
            break
        actions = legal_actions(state)
        before = state.key()
        copy_before = state.copy()
        state, _ = apply(state, actions[pick % len(actions)])
        assert copy_before.key() == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_every_legal_action_has_a_label_that_parses_back_to_it(seed, picks):
    state = deal_game(load_rules("問題点"), seed, ["問題点の地図", "問題点のラジオ"])[0]
    for pick in picks:
        if state.over:
            break
        known = labels(state)
        assert len(known) == len(legal_actions(state))  # one label per action
        for typed, action in known.items():
            assert parse(state, typed) == action
        actions = legal_actions(state)
        state, _ = apply(state, actions[pick % len(actions)])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_a_play_leaves_the_sum_of_the_pawns_days_unchanged_mod_the_days(seed, picks):
    """White walks n and a black pawn 7 − n: their sum moves by 7. Only 赤, 白, the
    ロケーションメモリー and the 地図 change it — and the win needs 6 + 6 + 6."""
    state = deal_game(load_rules("草案"), seed)[0]
    days = len(state.deal.days)
    for pick in picks:
        if state.over:
            break
        actions = legal_actions(state)
        action = actions[pick % len(actions)]
        after, events = apply(state, action)
        if action[0] == "play":
            if {e["why"] for e in events if e["event"] == "black"} == {"play"}:  # no 赤, 白
                assert sum(after.pawns()) % days == sum(state.pawns()) % days
        state = after
