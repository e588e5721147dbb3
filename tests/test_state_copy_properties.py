"""A battle's copy and its original never see each other's changes: the copy shares the
frozen records of the state (page instances and their faces, runtime/state.py) until one
of them writes, and a write anywhere — a move, a pen, a 白紙化, a generated page — must
land in that battle alone.

Property: a battle is played to some point, copied, and the two are then given different
random legal actions, interleaved; each must end exactly as the same seed and the same
actions give without any copy (a replay from the start)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.game import action_from_data
from runtime.battle import Battle
from runtime.state import State
from test_runtime_properties import pick
from conftest import bundled_tables

TABLES = bundled_tables()
ENEMIES = sorted(TABLES.enemies)
#: Pages that choose, move, copy and generate pages, and pages of much 綻び (tears).
DECK = TABLES.starter() + ["mayoigo", "sotsugyou", "shuushoku", "circle", "nikki",
                           "dansyari", "moetsuki", "soumatou"]
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _new(seed: int, stages: list[str]) -> Battle:
    return Battle.new(TABLES, seed=seed, enemies=stages, deck=DECK, record=False)


def _act(battle: Battle, data, label: str):
    """One legal action drawn by hypothesis, applied; the action (None: the run is over)."""
    if battle.over:
        return None
    action = action_from_data(pick(
        battle, lambda n: data.draw(st.integers(0, n - 1), label=label),
        lambda c, n: data.draw(st.lists(st.sampled_from(c), min_size=n, max_size=n,
                                        unique=True), label=label)))
    battle.apply(action)
    return action


def _replayed(seed: int, stages: list[str], actions: list) -> State:
    battle = _new(seed, stages)
    for action in actions:
        battle.apply(action)
    return battle.state


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**20),
       stages=st.lists(st.sampled_from(ENEMIES), min_size=1, max_size=2),
       before=st.integers(0, 40), after=st.integers(1, 30))
def test_a_copy_and_its_original_never_see_each_others_changes(data, seed, stages,
                                                                before, after):
    original = _new(seed, stages)
    history = []
    for _ in range(before):
        action = _act(original, data, "before")
        if action is None:
            break
        history.append(action)
    copied = original.copy()
    mine, theirs = list(history), list(history)
    for _ in range(after):
        for battle, actions, label in ((copied, theirs, "copy"), (original, mine, "original")):
            action = _act(battle, data, label)
            if action is not None:
                actions.append(action)
    assert original.state == _replayed(seed, stages, mine)
    assert copied.state == _replayed(seed, stages, theirs)


def test_a_state_copy_sets_every_field_to_an_equal_value():
    """State.copy fills a bare instance slot by slot: none may be left out."""
    battle = _new(3, ["haguruma"])
    for _ in range(12):
        if not battle.over:
            battle.apply(action_from_data(pick(battle, lambda n: 0, lambda c, n: c[:n])))
    state = battle.state
    copied = state.copy()
    for name in state.FIELDS:
        assert getattr(copied, name) == getattr(state, name), name
