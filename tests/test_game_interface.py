"""One game interface (contract.game.Game): the battle and the draft-17 journey are played
the same way — actions as values, one ``apply``, a pending choice as data, copies, what
a player sees and may know, the result."""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import event_corpus
from contract.game import (ACTION_KINDS, Choose, DevSet, EndTurn, Game, Pending, Play,
                           action_from_data, action_to_data)
from journey import Journey, JourneyError, load_rules
from journey.actions import JOURNEY_KINDS, as_tuple, from_tuple
from journey.play import legal_actions as journey_legal
from runtime.battle import Battle, Refused
from conftest import bundled_tables

TABLES = bundled_tables()
RULES = load_rules()


@functools.cache
def corpus_tables():
    """The event corpus's tables, compiled once, when a test first needs them (not at
    import: every worker imports this module to collect it)."""
    return event_corpus.tables()


#: Pages of the corpus content that ask the player to choose (see test_search_policy).
CHOOSING = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari")


def new_battle(seed: int) -> Battle:
    return Battle.new(TABLES, seed=seed, enemies=["haguruma"])


def new_journey(seed: int) -> Journey:
    return Journey.new(RULES, seed=seed)


GAMES = {"battle": (new_battle, Refused), "journey": (new_journey, JourneyError)}


def _play(game, rng: random.Random, steps: int) -> list:
    """``steps`` random legal actions (fewer when the game ends); the actions taken."""
    taken = []
    for _ in range(steps):
        if game.result is not None:
            break
        action = rng.choice(game.actions())
        game.apply(action)
        taken.append(action)
    return taken


def _events(events) -> str:
    """Events of either game as comparable text."""
    return json.dumps([e.as_dict() if hasattr(e, "as_dict") else e for e in events],
                      ensure_ascii=False, sort_keys=True, default=repr)


@pytest.mark.parametrize("name", GAMES)
def test_both_games_satisfy_the_protocol(name):
    make, _ = GAMES[name]
    assert isinstance(make(0), Game)


@pytest.mark.parametrize("name", GAMES)
def test_every_listed_action_is_applicable(name):
    make, _ = GAMES[name]
    rng = random.Random(5)
    for seed in range(3):
        game = make(seed)
        while game.result is None:
            actions = game.actions()
            assert actions
            for action in actions:  # each one, on a copy
                game.copy().apply(action)
            game.apply(rng.choice(actions))
        assert game.actions() == []


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_is_refused_in_japanese_and_changes_nothing(name):
    make, refusal = GAMES[name]
    game = make(1)
    before = game.information()
    for wrong in (Play(10_000), Choose((1,)), "end", ("end_turn",)):
        if wrong in game.actions():
            continue
        with pytest.raises(refusal) as caught:
            game.apply(wrong)
        message = str(caught.value)
        assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in message)
    assert game.information() == before


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_is_equal_in_view_and_independent(name):
    make, _ = GAMES[name]
    game = make(2)
    _play(game, random.Random(2), 6)
    twin = game.copy()
    assert twin.view() == game.view() and twin.information() == game.information()
    before = game.information()
    _play(twin, random.Random(9), 10)
    assert game.information() == before
    assert twin.information() != before


@pytest.mark.parametrize("name", GAMES)
def test_information_hides_the_order_of_the_hidden_pile(name):
    make, _ = GAMES[name]
    game = make(3)
    other = game.copy()
    if name == "battle":
        pile = other.state.zones["draw"]
        assert len(set(other.state.pages[u].page for u in pile)) > 1
        pile.reverse()
    else:
        deck = other.state.deck
        # the face-up top card (when the set-up shows it) stays: the player sees it
        other.state.deck = tuple(reversed(deck)) if other.view()["top"] is None \
            else deck[:1] + tuple(reversed(deck[1:]))
    assert other.information() == game.information()
    assert other.view() == game.view()
    # …and the pile's order is still what the game goes on with: another future.
    rng = random.Random(4)
    mine, theirs = game.copy(), other.copy()
    differed = False
    for _ in range(40):
        if mine.result is not None or theirs.result is not None:
            break
        action = rng.choice(mine.actions())
        if action not in theirs.actions():
            differed = True
            break
        mine.apply(action)
        theirs.apply(action)
        differed = differed or mine.information() != theirs.information()
    assert differed


@pytest.mark.parametrize("name", GAMES)
def test_a_played_out_game_has_a_result(name):
    make, _ = GAMES[name]
    game = make(4)
    rng = random.Random(4)
    assert game.result is None
    _play(game, rng, 2000)
    assert game.result is not None and game.result["outcome"] in ("won", "lost")
    json.dumps(game.result)  # plain data
    json.dumps(game.view())
    json.dumps(game.information())


def test_the_journey_actions_are_values_of_the_rules_tuples():
    game = new_journey(0)
    actions = game.actions()
    assert [as_tuple(a) for a in actions] == \
        journey_legal(game.state)
    assert all(from_tuple(t) in actions for t in journey_legal(game.state))
    assert JOURNEY_KINDS["end_turn"] is EndTurn is ACTION_KINDS["end_turn"]


def test_the_end_of_a_turn_is_one_value_in_both_games():
    battle = new_battle(0)
    journey = new_journey(0)
    assert EndTurn() in battle.actions()
    # The journey's 終了フェイズ is offered as the same value once it can be declared.
    rng = random.Random(0)
    while EndTurn() not in journey.actions() and journey.result is None:
        journey.apply(rng.choice(journey.actions()))
    assert EndTurn() in journey.actions()
    journey.apply(EndTurn())


def _choosing_battle(seed: int) -> Battle:
    """A corpus battle whose deck asks the player to choose, played by the greedy-ish
    first action until a choice is pending (or the run ends)."""
    deck = corpus_tables().starter() + list(CHOOSING)
    battle = Battle.new(corpus_tables(), seed=seed, enemies=["kodoku"], deck=deck)
    rng = random.Random(seed)
    while battle.result is None and battle.pending is None:
        battle.apply(rng.choice(battle.actions()))
    return battle


def test_a_pending_choice_is_data_naming_its_operation():
    for seed in range(20):
        battle = _choosing_battle(seed)
        if battle.pending is not None:
            break
    else:
        pytest.fail("no seed reached a choice")
    pending = battle.pending
    assert isinstance(pending, Pending) and pending.kind in ("uids", "page_ids")
    assert pending.source.op in ("move", "duplicate", "generate")  # the region operation
    assert pending.count >= 1 and len(pending.candidates) > pending.count
    assert all(isinstance(a, Choose) for a in battle.actions())
    # A copy while the choice waits copies the resolution waiting in it: it waits in the
    # same choice, and an answer given to it is the answer given to the original.
    twin = battle.copy(record=True)
    assert twin.pending == pending and twin.information() == battle.information()
    answer = battle.actions()[-1]
    assert _events(twin.apply(answer)) == _events(battle.apply(answer))
    assert twin.information() == battle.information()


def test_a_battle_changed_by_hand_is_copied_while_a_choice_waits():
    """A copy is of the position, not of a run that can be replayed: a battle set by hand
    while a choice waits is copied waiting in it, and the copy answered leaves it so."""
    for seed in range(20):
        battle = _choosing_battle(seed)
        if battle.pending is not None:
            break
    battle.dev_set(hp=77)
    waiting = battle.information()
    twin = battle.copy(record=True)
    assert twin.pending == battle.pending and twin.state.hp == 77
    twin.apply(twin.actions()[0])
    assert twin.pending is None and battle.information() == waiting
    assert battle.actions() == [Choose(a) for a in itertools.combinations(
        battle.pending.candidates, battle.pending.count)]


def test_actions_read_back_from_data():
    for action in (Play(3), EndTurn(), Choose((4, 7))):
        data = action_to_data(action)
        assert action_from_data(json.loads(json.dumps(data))) == action
    assert action_to_data(EndTurn()) == ["end_turn"]
    with pytest.raises(ValueError, match="行動として読めません"):
        action_from_data(["end"])


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), policy=st.integers(0, 10_000),
       name=st.sampled_from(sorted(GAMES)))
def test_replaying_the_same_actions_gives_byte_identical_events(seed, policy, name):
    """Random legal actions through ``apply``, then the same actions on a fresh game of
    the same seed — and, for the battle, through the old methods by name: the same
    events, byte for byte."""
    make, _ = GAMES[name]
    game = make(seed)
    rng = random.Random(policy)
    taken, events = [], []
    for _ in range(60):
        if game.result is not None:
            break
        action = rng.choice(game.actions())
        events.append(_events(game.apply(action)))
        taken.append(action)
    fresh = make(seed)
    assert [_events(fresh.apply(a)) for a in taken] == events
    assert fresh.information() == game.information()
    if name == "battle":
        by_name = make(seed)
        methods = {"play": lambda a: by_name.play(a.uid),
                   "pen": lambda a: by_name.pen(a.uid, a.side),
                   "tear": lambda a: by_name.tear(a.uid),
                   "end_turn": lambda a: by_name.end_turn(),
                   "choose": lambda a: by_name.choose(list(a.uids))}
        assert [_events(methods[a.KIND](a)) for a in taken] == events


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 200), policy=st.integers(0, 10_000))
def test_a_battle_with_choices_replays_to_the_same_events(seed, policy):
    """The corpus content with choosing pages: random answers included, a fresh battle
    given the same actions makes the same events."""
    deck = corpus_tables().starter() + list(CHOOSING)

    def make():
        return Battle.new(corpus_tables(), seed=seed, enemies=["kodoku"], deck=deck)

    game, rng = make(), random.Random(policy)
    taken, events = [], []
    for _ in range(80):
        if game.result is not None:
            break
        action = rng.choice(game.actions())
        events.append(_events(game.apply(action)))
        taken.append(action)
    fresh = make()
    assert [_events(fresh.apply(a)) for a in taken] == events


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 200), policy=st.integers(0, 10_000), at=st.integers(0, 40))
def test_a_copy_at_any_point_plays_on_exactly_as_the_original(seed, policy, at):
    """A copy taken after ``at`` random actions — a pending choice included — and the
    original, given the same actions from there, make the same events, byte for byte."""
    deck = corpus_tables().starter() + list(CHOOSING)
    game = Battle.new(corpus_tables(), seed=seed, enemies=["kodoku"], deck=deck)
    rng = random.Random(policy)
    _play(game, rng, at)
    twin = game.copy(record=True)
    for _ in range(40):
        if game.result is not None:
            break
        action = rng.choice(game.actions())
        assert _events(twin.apply(action)) == _events(game.apply(action))
    assert twin.information() == game.information() and twin.result == game.result


def test_a_developer_setting_refused_part_way_keeps_what_it_set():
    """A DevSet refused at its second value has set its first (and said so): the action
    is refused, the first value stays, and a copy holds it."""
    for seed in range(20):
        battle = _choosing_battle(seed)
        if battle.pending is not None:
            break
    with pytest.raises(Refused):
        battle.apply(DevSet((("hp", 50), ("age", -5))))
    assert battle.state.hp == 50 and battle.log[-1].kind == "dev_set"
    twin = battle.copy()
    assert twin.state.hp == 50 and twin.information() == battle.information()
