"""What the battle screen says of a number is what the battle then does (a QA sweep of
stop 74): a torn multiplier said as it lands, the 綻び a tear gives through the board's
綻び倍率, 防御係数 in the distance's defense, the 歩 continuing 作用 add after the refill."""

from __future__ import annotations

import pytest

from runtime.battle import Battle
from runtime.tables import load
from terminal.narrate import LINES
from terminal.screen import board_lines, player_panel, tear_preview
from test_runtime_rules import CONTENT, find, scene
from conftest import compiled_tables


@pytest.fixture(scope="module")
def tables():
    return load()


@pytest.fixture(scope="module")
def rules_tables():
    return compiled_tables(CONTENT)


def _kekkon_at_20(tables) -> tuple[Battle, int]:
    battle = Battle.new(tables, seed=3, enemies=["haguruma"])
    battle.dev_set(age=20, hand=["kekkon", "tabidachi"])
    return battle, next(u for u in battle.hand if battle.page_id(u) == "kekkon")


def test_a_torn_multiplier_is_said_as_it_lands_by_its_excess_over_one(tables):
    """銀婚式 (銘 55, 破却 攻撃倍率 *= 1.2) torn at 刻 20: ×2.75, so ×1.55 — the preview and
    the board said 「×2.75: 攻撃倍率×1.2」, which reads as ×3.3."""
    battle, kekkon = _kekkon_at_20(tables)
    preview = tear_preview(battle, kekkon)
    assert any("破却効果 ×2.75: ラン中ずっと、攻撃倍率×1.55（1 + (1.2 − 1) × 2.75）" in line
               for line in preview), preview
    battle.tear(kekkon)
    board = [line.plain for line in board_lines(battle)]
    assert any("[×2.75]: ラン中ずっと、攻撃倍率×1.55" in line for line in board), board
    events = battle.play(next(u for u in battle.hand if battle.page_id(u) == "tabidachi"))
    hit = next(e for e in events if e.kind == "damage")
    assert [m["value"] for m in hit.data["why"]["mul"]] == [pytest.approx(1.55)]


def test_a_tears_fray_names_the_boards_fray_multiplier_when_it_changed_it(rules_tables):
    battle = scene(rules_tables, ["fraymul", "tearme"], age=50, enemy="quiet")
    assert "= " not in tear_preview(battle, find(battle, "tearme"))[0]  # 10 × 1 as said
    battle.play(find(battle, "fraymul"))  # both faces at 銘 = 刻: 綻び倍率 ×2 twice
    first = tear_preview(battle, find(battle, "tearme"))[0]
    assert first.startswith("綻び +") and "、継続作用の綻び倍率で" in first, first
    said = int(first.split("+")[1].split("（")[0])
    torn = battle.tear(find(battle, "tearme"))
    assert said == next(e.data["fray"] for e in torn if e.kind == "tear")


def test_the_distances_defense_says_the_defense_coefficient_when_it_is_not_one():
    line = LINES["defense_from_distance"]
    assert line({"amount": 22, "age": 20, "seat": 42, "total": 22}, None) == \
        "防御 +22（|20 − 42|）→ 合計 22"
    assert line({"amount": 11, "age": 20, "seat": 42, "total": 11}, None) == \
        "防御 +11（防御係数 × |20 − 42|）→ 合計 11"


def test_the_refill_says_continuing_effects_add_to_it(tables):
    """塾帰りの夜道 adds 4 歩 after each refill for 2 turns: the panel said the next turn's
    歩 would be 40 (the refill alone) where the turn began with 44."""
    battle = Battle.new(tables, seed=3, enemies=["haguruma"])
    battle.dev_set(age=10, hand=["juku"])
    assert "+ 継続作用" not in player_panel(battle).plain
    battle.play(battle.hand[0])
    assert "（次のターンの回復 40 = 歩の規定量 40 + 持ち越し 0 + 継続作用）" in player_panel(battle).plain
    battle.end_turn()  # turn 2: its refill got the 4, and turn 3's will
    assert "+ 継続作用" in player_panel(battle).plain
    battle.end_turn()  # turn 3: the range's last turn, so turn 4's refill gets nothing
    assert "継続作用）" not in player_panel(battle).plain


def test_the_refill_says_a_continuing_effect_that_takes_steps_with_a_minus(rules_tables):
    battle = scene(rules_tables, ["sapper"], age=50, enemy="quiet")
    battle.play(find(battle, "sapper"))  # 歩 -= 10 毎 歩の回復後 範囲 ステージ
    assert "− 継続作用）" in player_panel(battle).plain


def test_a_value_lands_truncated_as_decimal_arithmetic_has_it(tables):
    """残業 (銘 33, 綻び倍率 1.4) torn at 刻 78: 45 × 1.4 is 63, which a float product holds
    as 62.99999999999999 — its tear gave 62, under a preview that said 45 × 1.4."""
    from runtime.bounds import land

    assert [land(45 * 1.4), land(50 * 2.3), land(-45 * 1.4), land(0.5 * 7)] == [63, 115, -63, 3]
    battle = Battle.new(tables, seed=3, enemies=["haguruma"])
    battle.dev_set(age=78, hand=["zangyou"])
    (zangyou,) = battle.hand
    assert tear_preview(battle, zangyou)[0].startswith("綻び +63（")
    events = battle.tear(zangyou)
    assert next(e.data["fray"] for e in events if e.kind == "tear") == 63


def test_a_value_landing_on_the_state_is_truncated_as_decimal_arithmetic_has_it():
    from runtime.bounds import clamp

    assert [clamp("hp", 45 * 1.4), clamp("fray_run", 50 * 2.3), clamp("hp", 3.9)] == [63, 115, 3]
