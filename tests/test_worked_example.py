"""spec 000「ターンの実例」: choices A, B, C and the tear table, reproduced exactly.

The pages and the enemy are written in the DSL (tests/fixtures/worked/content) and
compiled; the battle starts at 刻 30, HP 200, 歩 40, hand 8/22/36/44/55, 座 42 with three
Intents of 16 (set in developer mode, as the spec's example sets the scene).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import compiled_tables
from runtime.battle import Battle

CONTENT = Path(__file__).parent / "fixtures" / "worked" / "content"


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(CONTENT)


def scene(tables) -> tuple[Battle, dict[int, int]]:
    battle = Battle.new(tables, seed=7, enemies=["za42"])
    battle.dev_set(age=30, hp=200, steps=40, hand=["w08", "w22", "w36", "w44", "w55"])
    by_year = {battle.year(uid): uid for uid in battle.hand}
    return battle, by_year


def play_and_end(battle, by_year, meis):
    for year in meis:
        battle.play(by_year[year])
    state = battle.state
    before_end = {"age": state.age, "steps": state.steps,
                  "intents": len(state.enemy["turn_intents"])}
    events = battle.end_turn()
    defense = next(e.data["amount"] for e in events if e.kind == "defense_from_distance")
    return before_end, defense, battle.state.hp


def test_faces_at_age_30_all_five_playable(tables):
    battle, by_year = scene(tables)
    fired = {year: battle.play_info(uid)["firing"] for year, uid in by_year.items()}
    assert fired == {8: ["past"], 22: ["past"], 36: ["future"], 44: ["future"], 55: ["future"]}


def test_choice_a_crossing_twice_ends_at_22_unhurt(tables):
    battle, by_year = scene(tables)
    before, defense, hp = play_and_end(battle, by_year, [36, 44, 22])
    assert before == {"age": 22, "steps": 4, "intents": 1}
    assert (defense, hp) == (20, 200)


def test_choice_b_swinging_far_ends_at_55_with_181(tables):
    battle, by_year = scene(tables)
    before, defense, hp = play_and_end(battle, by_year, [36, 44, 55])
    assert before == {"age": 55, "steps": 15, "intents": 2}
    assert (defense, hp) == (13, 181)


def test_choice_c_going_down_ends_at_8_with_186(tables):
    battle, by_year = scene(tables)
    before, defense, hp = play_and_end(battle, by_year, [22, 8])
    assert before == {"age": 8, "steps": 18, "intents": 3}
    assert (defense, hp) == (34, 186)
    assert battle.state.enemy["hp"] == 999  # past faces only: no attack (not for lack of crossing)


@pytest.mark.parametrize("year, expected", [(8, 44), (55, 20)])
def test_tear_table_at_age_30(tables, year, expected):
    battle, by_year = scene(tables)
    events = battle.tear(by_year[year])
    assert next(e.data["amount"] for e in events if e.kind == "fray_gained") == expected


def test_tear_8_after_climbing_to_55_gives_94(tables):
    battle, by_year = scene(tables)
    for year in (36, 44, 55):
        battle.play(by_year[year])
    events = battle.tear(by_year[8])
    assert next(e.data["amount"] for e in events if e.kind == "fray_gained") == 94
