"""探索 — the search policy: legal, blind to what the player cannot see, repeatable, a
pure reader of the battle, and at least as strong as the greedy player."""

from __future__ import annotations

from contract.game import Choose
import pickle
import random

import pytest

import event_corpus
from runtime.battle import Battle
from runtime.save import to_json
from runtime.streams import Streams
from sim import POLICIES, simulate
from sim import policies
from sim.policies import act, greedy_policy, search_policy

#: The starting deck with every page that asks the player to choose (山札・捨て札 → 手札,
#: 手札 → 除外, 複製 手札 → 山札), so that the search's answers are played too.
CHOOSING = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari")


@pytest.fixture(scope="module")
def tables():
    return event_corpus.tables()


def _legal(battle: Battle, action) -> bool:
    if battle.pending is not None:
        request = battle.pending
        uids = action.uids if isinstance(action, Choose) else None
        return (uids is not None and len(uids) == request.count
                and len(set(uids)) == len(uids) and set(uids) <= set(request.candidates))
    return action in battle.actions()


def _decision_points(tables, enemy: str, seeds, per_battle: int) -> list[Battle]:
    """Battles at decisions the search would face, met by the greedy player (fast): each
    with a draw pile of two pages or more, whose order could matter."""
    points = []
    for seed in seeds:
        battle = Battle.new(tables, seed=seed, enemies=[enemy], record=False)
        rng = random.Random(seed)
        taken = 0
        while not battle.over and taken < per_battle:
            if battle.pending is None and len(battle.state.zones["draw"]) >= 2:
                points.append(battle.copy())
                taken += 1
            act(battle, greedy_policy(battle, rng))
    return points


#: Other hidden futures of one position: the draw pile reversed or shuffled, the streams
#: seeded otherwise, or both (what the player sees stays).
VARIANTS = (("reversed", None), ("shuffled", None), (None, 12345), ("shuffled", 999))


def _variant(battle: Battle, order, streams) -> Battle:
    other = battle.copy(streams=None if streams is None else Streams.seeded(streams))
    pile = other.state.zones["draw"]
    if order == "reversed":
        pile.reverse()
    elif order == "shuffled":
        random.Random(len(pile)).shuffle(pile)
    return other


def _changed(points, variants) -> int:
    """How many of the positions get another decision in any of ``variants`` (indices
    of VARIANTS), for the same policy rng state."""
    changed = 0
    for point in points:
        decision = search_policy(point, random.Random(7))
        changed += any(search_policy(_variant(point, *VARIANTS[v]), random.Random(7))
                       != decision for v in variants)
    return changed


def test_it_plays_only_legal_actions_over_whole_battles(tables):
    battles = [(["haguruma"], None, seed) for seed in (0, 1)] + \
        [(["kodoku"], tables.starter() + list(CHOOSING), seed) for seed in (0, 3, 4)]
    choices = 0
    for enemies, deck, seed in battles:
        battle = Battle.new(tables, seed=seed, enemies=enemies, deck=deck, record=False)
        rng = random.Random(seed)
        while not battle.over and battle.state.turns_run <= 60:
            choices += battle.pending is not None
            action = search_policy(battle, rng)
            assert _legal(battle, action), (seed, action)
            act(battle, action)
        assert battle.over, seed
    assert choices >= 3, "the choosing deck asked for no choice: the test lost its point"


@pytest.mark.slow  # a second or more
def test_it_does_not_read_the_draw_order_or_the_streams(tables, monkeypatch):
    """Another order of 山札 or other random streams in the real battle — what the player
    cannot know — leave the decision as it was for the same policy rng state."""
    points = _decision_points(tables, "kodoku", (0, 1, 2), 5)
    assert _changed(points, range(len(VARIANTS))) == 0

    # The test has teeth: the same positions, searched with a leak in the
    # determinization, do get other decisions.
    def unshuffled(battle, world):  # the real pile order
        return battle.copy(streams=Streams.seeded(world.getrandbits(64)))

    def unsorted(battle, world):  # shuffled, but from the real order
        trial = battle.copy(streams=Streams.seeded(world.getrandbits(64)))
        world.shuffle(trial.state.zones["draw"])
        return trial

    def unseeded(battle, world):  # the real streams
        trial = battle.copy()
        trial.state.zones["draw"].sort()
        world.shuffle(trial.state.zones["draw"])
        return trial

    for leak, variants in ((unshuffled, (0, 1)), (unsorted, (0, 1)), (unseeded, (2,))):
        monkeypatch.setattr(policies, "_determinized", leak)
        assert _changed(points, variants), leak.__name__


def test_the_same_seed_gives_the_same_battle(tables):
    first = simulate(tables, None, ["kodoku"], search_policy, [3, 8])
    again = simulate(tables, None, ["kodoku"], search_policy, [3, 8])
    assert first == again
    assert POLICIES["search"] is search_policy


def test_it_does_not_change_the_battle_it_looks_at(tables):
    points = _decision_points(tables, "wasure", (0, 5), 4)
    for battle in points:
        before, streams = to_json(battle), pickle.dumps(battle.streams)
        search_policy(battle, random.Random(1))
        assert to_json(battle) == before and pickle.dumps(battle.streams) == streams
    # While a choice is pending (no save then): the state, the streams and the waiting
    # resolution stay.
    deck = tables.starter() + list(CHOOSING)
    for seed in range(6):
        battle = Battle.new(tables, seed=seed, enemies=["kodoku"], deck=deck, record=False)
        rng = random.Random(seed)
        while not battle.over and battle.pending is None:
            act(battle, greedy_policy(battle, rng))
        if battle.pending is None:
            continue
        state, streams = battle.state.copy(), pickle.dumps(battle.streams)
        choice = battle.pending
        action = search_policy(battle, random.Random(1))
        assert battle.state == state and pickle.dumps(battle.streams) == streams
        assert battle.pending == choice
        act(battle, action)  # and the waiting resolution still takes the answer
        return
    pytest.fail("no seed reached a choice")


def test_it_wins_at_least_as_often_as_the_greedy_player(tables):
    seeds = range(6)
    wins = {name: sum(r.result == "won" for r in simulate(
        tables, None, ["kodoku"], POLICIES[name], seeds, turn_cap=30))
        for name in ("greedy", "search")}
    assert wins["search"] >= wins["greedy"], wins
    assert wins["search"] >= 4, wins
