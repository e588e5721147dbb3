"""Property tests of the runtime: random legal action sequences over the bundled content.

A run uses the compiled tables in generated/ (``runtime.tables.load()``), one to three of
its enemies and the starter deck. Each step picks one legal action — a playable play, a
pen, a tear, the end of the turn, or the answer to a pending choice — and after every
step the invariants of spec 000/002 must hold. Two more properties: the same seed and the
same actions give the same event stream, and saving, loading and continuing gives the
events of the uninterrupted battle.
"""

from __future__ import annotations

from contract.game import action_from_data, action_to_data
import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime import save
from runtime.battle import Battle, Refused
from runtime.state import ZONES, State
from conftest import bundled_tables

TABLES = bundled_tables()
ENEMIES = sorted(TABLES.enemies)
MAX_STEPS = 60
SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ------------------------------------------------------------------ actions


def perform(battle: Battle, action) -> list:
    """An action written as data (``["play", uid]`` …) through the one dispatcher."""
    return battle.apply(action_from_data(action))


def pick(battle: Battle, choose_index, choose_answer) -> tuple:
    """A legal action (with its answer when it is a choice), picked by the callbacks."""
    if battle.pending is not None:
        request = battle.pending
        return ("choose", choose_answer(list(request.candidates), request.count))
    actions = battle.actions()
    action = actions[choose_index(len(actions))]
    return action_to_data(action)


def random_script(seed: int, policy_seed: int, stages: list[str]):
    """Play a whole battle with a seeded random policy; the actions and their events."""
    policy = random.Random(policy_seed)
    battle = Battle.new(TABLES, seed=seed, enemies=stages)
    script, events = [], []
    for _ in range(MAX_STEPS):
        if battle.over:
            break
        action = pick(battle, policy.randrange, lambda c, n: policy.sample(c, n))
        script.append(action)
        events.append(perform(battle, action))
    return battle, script, events


# --------------------------------------------------------------- invariants


class Watch:
    """What the invariants compare across steps."""

    def __init__(self, battle: Battle):
        self.start_pages = len(battle.state.pages)
        self.fray = battle.state.fray_run
        self.generated = self.torn = self.removed = 0
        self.shown = 0
        self.saw(battle.log)

    def saw(self, events) -> None:
        for e in events:
            if e.kind == "page_generated":
                self.generated += 1
            elif e.kind == "tear":
                self.torn += 1
            elif e.kind == "page_removed":
                self.removed += 1
            elif e.kind == "intents_shown":
                self.shown = len(e.data["intents"])

    def check(self, battle: Battle) -> None:
        s = battle.state
        assert s.fray_run >= self.fray, "綻び never decreases"
        self.fray = s.fray_run
        assert s.hp <= s.param("max_hp"), "HP ≤ max HP"
        assert s.steps >= 0, "歩 ≥ 0"
        assert 0 <= s.age <= s.param("lifespan_cap"), "0 ≤ 刻 ≤ 寿命上限"
        removed, crossings = s.counter("turn", "intents_removed"), s.counter("turn", "crossings")
        assert removed <= crossings and removed <= self.shown, \
            "Intents removed this turn ≤ crossings this turn (and ≤ the list)"
        # pages are conserved: every page is in exactly one zone, and only generation adds
        # pages and only tears (and the end of stage-lifetime pages) take them out of play
        placed = [uid for zone in ZONES for uid in s.zones[zone]]
        assert sorted(placed) == list(range(len(s.pages)))
        assert all(s.pages[uid].zone == zone for zone in ZONES for uid in s.zones[zone])
        assert len(s.pages) == self.start_pages + self.generated
        assert len(s.zones["torn"]) == self.torn and len(s.zones["gone"]) == self.removed


def snapshot(battle: Battle) -> State:
    return copy.deepcopy(battle.state)


# ------------------------------------------------------------------ properties


@pytest.mark.slow  # a longer property search / lab run: the full suite's
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**20),
       stages=st.lists(st.sampled_from(ENEMIES), min_size=1, max_size=3))
def test_random_legal_actions_keep_the_invariants(data, seed, stages):
    battle = Battle.new(TABLES, seed=seed, enemies=stages)
    watch = Watch(battle)
    watch.check(battle)
    for _ in range(MAX_STEPS):
        if battle.over:
            break
        action = pick(
            battle, lambda n: data.draw(st.integers(0, n - 1), label="action"),
            lambda c, n: data.draw(st.lists(st.sampled_from(c), min_size=n, max_size=n,
                                            unique=True), label="answer"))
        events = perform(battle, action)
        watch.saw(events)
        watch.check(battle)
        # an action the rules refuse changes nothing and says nothing
        if not battle.over and battle.pending is None:
            unplayable = [u for u in battle.hand if not battle.play_info(u)["playable"]]
            if unplayable:
                before, logged = snapshot(battle), len(battle.log)
                try:
                    battle.play(unplayable[0])
                except Refused:
                    pass
                else:
                    raise AssertionError("an unplayable page was played")
                assert snapshot(battle) == before and len(battle.log) == logged


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**20), policy_seed=st.integers(0, 2**20),
       stages=st.lists(st.sampled_from(ENEMIES), min_size=1, max_size=3))
def test_same_seed_and_actions_give_the_same_events(seed, policy_seed, stages):
    first, script, _ = random_script(seed, policy_seed, stages)
    again = Battle.new(TABLES, seed=seed, enemies=stages)
    for action in script:
        perform(again, action)
    assert again.log == first.log
    assert snapshot(again) == snapshot(first)


@SETTINGS
@given(seed=st.integers(0, 2**20), policy_seed=st.integers(0, 2**20),
       stages=st.lists(st.sampled_from(ENEMIES), min_size=1, max_size=3),
       where=st.floats(0, 1))
def test_save_load_and_continue_gives_the_same_events(seed, policy_seed, stages, where):
    whole, script, events = random_script(seed, policy_seed, stages)
    battle = Battle.new(TABLES, seed=seed, enemies=stages)
    # a save point: after some action that leaves no choice pending (never saved)
    points = [0]
    for i, action in enumerate(script):
        perform(battle, action)
        if battle.pending is None and not battle.over:
            points.append(i + 1)
    cut = points[int(where * (len(points) - 1))]
    battle = Battle.new(TABLES, seed=seed, enemies=stages)
    for action in script[:cut]:
        perform(battle, action)
    loaded = save.from_json(TABLES, save.to_json(battle))
    assert snapshot(loaded) == snapshot(battle)
    for action, expected in zip(script[cut:], events[cut:]):
        assert perform(loaded, action) == expected
    assert snapshot(loaded) == snapshot(whole)
