"""The hand-written floor (benchmarks/handwritten_battle.py) plays the interpreter's battle.

The benchmark compares the interpreter with a hand-coded version of one matchup — the
starter deck against haguruma — so that version must be the same battle: driven by the
same random policy, it reaches the same outcome, in as many turns and actions, with the
same HP left on both sides. The compiled tables of generated/ are used as they are.
"""

from __future__ import annotations

import random
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from handwritten_battle import HandwrittenBattle, play_random  # noqa: E402
from runtime.battle import Battle  # noqa: E402
from runtime.tables import load  # noqa: E402

SEEDS = range(60)
ENEMY = "haguruma"


@pytest.fixture(scope="module")
def tables():
    return load()


def interpreter_result(tables, seed: int, max_actions: int = 400) -> dict:
    battle = Battle.new(tables, seed=seed, enemies=[ENEMY])
    actions = play_random(battle, seed, max_actions)
    s = battle.state
    return {"outcome": s.outcome or "unfinished", "turns": s.turns_run, "hp": s.hp,
            "enemy_hp": s.enemy["hp"], "actions": actions}


def handwritten_result(seed: int, max_actions: int = 400, *, rng_seed: int | None = None,
                       log: bool = True) -> dict:
    battle = HandwrittenBattle(seed if rng_seed is None else rng_seed, log=log)
    actions = play_random(battle, seed, max_actions)
    return {"outcome": battle.outcome or "unfinished", "turns": battle.turns_run,
            "hp": battle.hp, "enemy_hp": battle.enemy_hp, "actions": actions}


@pytest.fixture(scope="module")
def interpreted(tables):
    return {seed: interpreter_result(tables, seed) for seed in SEEDS}


def test_the_matchup_is_the_starter_deck_against_haguruma(tables):
    from handwritten_battle import DECK, ENEMY_HP, ENEMY_SEAT, BREAKTHROUGH, YEAR

    assert list(DECK) == tables.starter()
    assert [tables.pages[p].year for p in DECK] == list(YEAR)
    enemy = tables.enemies[ENEMY]
    assert (enemy.hp, enemy.seat, enemy.breakthrough) == (ENEMY_HP, ENEMY_SEAT, BREAKTHROUGH)


@pytest.mark.parametrize("log", [True, False], ids=["with log", "counters only"])
def test_the_handwritten_battle_reaches_the_interpreters_outcome(interpreted, log):
    differ = {seed: (interpreted[seed], got) for seed in SEEDS
              if (got := handwritten_result(seed, log=log)) != interpreted[seed]}
    assert differ == {}


def test_the_seeds_cover_wins_and_losses(interpreted):
    """The comparison means something only if the battles go both ways."""
    outcomes = {r["outcome"] for r in interpreted.values()}
    assert {"won", "lost"} <= outcomes


def test_a_capped_battle_is_unfinished_the_same_way(tables):
    for seed in range(10):
        assert handwritten_result(seed, 12) == interpreter_result(tables, seed, 12)


def test_the_same_legal_actions_at_every_step(tables):
    """Lockstep on a few seeds: the same actions offered in the same order, and the same
    board after each (what makes the policy choose alike)."""
    for seed in range(8):
        battle = Battle.new(tables, seed=seed, enemies=[ENEMY])
        hand_written = HandwrittenBattle(seed)
        policy = random.Random(seed * 7919 + 1)
        while not battle.over:
            s = battle.state
            assert hand_written.actions() == battle.actions(), seed
            assert (hand_written.age, hand_written.hp, hand_written.enemy_hp,
                    hand_written.seat, hand_written.steps, hand_written.hand) == \
                (s.age, s.hp, s.enemy["hp"], s.enemy["seat"], s.steps, s.zones["hand"])
            action = policy.choice(battle.actions())
            battle.apply(action)
            hand_written.apply(action)
        assert hand_written.outcome == s.outcome


def test_the_comparison_would_see_a_different_battle(interpreted):
    """The check is not vacuous: the hand-written battle shuffled by another seed's RNG
    (the same policy) does not reach the interpreter's results."""
    differ = [seed for seed in SEEDS
              if handwritten_result(seed, rng_seed=seed + 1000) != interpreted[seed]]
    assert len(differ) >= 1
