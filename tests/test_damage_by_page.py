"""与えたダメージ by page: a page's 作用 deal its damage wherever they land — a continuing
one on the plays after its own, or in the enemy phase — and the balance lab's ダメ/回 and
the battle's closing summary count it for that page, not for the play it fired on."""

from __future__ import annotations

from collections import Counter

import pytest

from sim import greedy_policy
from sim.simulate import play_one
from terminal.session import Session
from test_runtime_rules import CONTENT, damage, find, scene
from conftest import compiled_tables


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(CONTENT)


def test_a_continuing_effects_damage_counts_for_its_page_not_the_play_it_fires_on(tables):
    battle = scene(tables, ["echo", "h30", "h30"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "echo"))  # 敵HP -= 7 範囲 以降 2 プレイ
    hits = [damage(battle.play(find(battle, "h30"))) for _ in range(2)]
    # Each play hits for its own 10 (twice where both faces play, at 刻 30) and echo's 7.
    assert all(7 in hit and set(hit) == {7, 10} for hit in hits), hits
    assert battle.dealt_by_page() == {"echo": 14, "h30": sum(map(sum, hits)) - 14}


def test_damage_in_the_enemy_phase_counts_for_the_page_that_set_it(tables):
    battle = scene(tables, ["dot"], age=30, enemy="quiet")
    battle.play(find(battle, "dot"))  # 敵HP -= 5 毎 敵の行動後 範囲 ステージ 最大 2 回
    assert battle.dealt_by_page() == {}
    battle.end_turn()
    assert battle.dealt_by_page() == {"dot": 5}


def test_a_look_ahead_copy_counts_for_itself_and_the_battle_that_takes_it(tables):
    battle = scene(tables, ["echo", "h30"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "echo"))
    trial = battle.copy()
    trial.play(find(trial, "h30"))
    assert trial.dealt_by_page() == {"echo": 7, "h30": 10}
    assert battle.dealt_by_page() == {}  # the copy changed nothing here
    battle.play(find(battle, "h30"))
    assert battle.dealt_by_page() == {"echo": 7, "h30": 10}


def test_the_lab_counts_each_pages_damage_for_that_page(tables):
    """Every hit of this deck is a page's: the lab's damage by page sums to the battle's,
    h30's is its own 10s and echo's its 7s (before, echo's hits were counted for the
    plays they fired on, and echo had none)."""
    deck = ["echo"] * 4 + ["h30"] * 6
    for seed in range(6):
        r = play_one(tables, deck, ["quiet"], greedy_policy, seed, turn_cap=4)
        assert r.plays.get("echo") and r.plays.get("h30"), seed
        assert r.damage["h30"] % 10 == 0 and r.damage["echo"] % 7 == 0, (seed, r.damage)
        assert r.damage["echo"] > 0 and sum(r.damage.values()) == r.damage_total, seed


def test_the_summary_splits_damage_by_the_page_that_dealt_it(tables):
    session = Session(tables, seed=1, enemies=["quiet"], deck=["echo"] * 4 + ["h30"] * 6)
    session.battle.dev_set(age=30, steps=100, hand=["echo", "h30", "h30"])
    for page in ("echo", "h30", "h30"):
        session.run(f"play {session.battle.hand.index(find(session.battle, page)) + 1}")
    total = session.battle.state.counter("run", "damage_dealt")
    assert session.dealt == Counter({"echo": 14, "h30": total - 14, None: 0})
