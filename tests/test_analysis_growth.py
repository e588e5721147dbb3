"""W007 際限なく育つ値: a 作用 that grows a value each time it fires, for the rest of the run."""

from __future__ import annotations

from analysis import growth
from analysis.content import Content
from compiler.lint import check_text
from conftest import bundled_balance


def _content(face: str) -> Content:
    text = f"""ページ a "育つ" {{
  銘 30
  未来面 {{
    {face}
  }}
  ペン 過去面 {{ 防御 += 8 }}
}}
"""
    result = check_text(text, "t.page", {"balance.balance": bundled_balance()})
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    return Content.of_model(result.compilation.model)


def test_a_multiplier_each_turn_for_the_run_grows_without_bound_with_its_turn_20_value():
    (found,) = growth.findings(_content("通貨 *= 1.1 毎 ターン開始時 範囲 ラン"))
    assert (found.code, found.item, found.line) == ("W007", "a", 4)
    assert "×6.73" in found.message and "20 ターン目" in found.message
    assert found.data["reached"] == round(1.1 ** 20, 4)


def test_a_multiplier_with_at_most_three_firings_is_bounded():
    assert growth.findings(_content("通貨 *= 1.1 毎 ターン開始時 範囲 ラン 最大 3 回")) == []


def test_a_multiply_modifier_placed_once_is_a_constant_not_growth():
    assert growth.findings(_content("攻撃倍率 *= 1.2 範囲 ラン")) == []


def test_a_value_that_vanishes_each_turn_does_not_compound():
    assert growth.findings(_content("歩 *= 2 毎 歩の回復後 範囲 ラン")) == []


def test_a_range_that_ends_with_the_turn_is_bounded():
    assert growth.findings(_content("通貨 *= 1.5 範囲 ターン")) == []


def test_a_cap_change_each_turn_that_lasts_adds_up_from_the_balance_value():
    (found,) = growth.findings(_content("上限 手札上限 += 1 寿命 ラン 毎 ターン開始時 範囲 ラン"))
    assert "8 → 28" in found.message


def test_a_cap_change_past_its_wall_says_so():
    (found,) = growth.findings(_content("上限 寿命上限 += 10 寿命 ラン 毎 ターン開始時 範囲 ラン"))
    assert "80 → 280" in found.message and "200 を超える" in found.message


def test_a_cap_change_that_lasts_a_turn_does_not_add_up():
    assert growth.findings(_content(
        "上限 歩の持ち越し += 5 寿命 ターン 毎 ターン開始時 範囲 ラン")) == []


def test_an_add_of_what_it_feeds_compounds():
    (found,) = growth.findings(_content("通貨 += 通貨 × 0.5 毎 ターン開始時 範囲 ラン"))
    assert "×1.5" in found.message


def test_events_a_stage_holds_a_capped_number_of_do_not_grow_without_bound_in_a_stage():
    """Spec 000: a tear and a pen 「1ステージにつき1回ずつ」 (the balance's caps), and the
    enemy's HP reaches 0 once — the stage ends. W007 said 「発動のたびに ×2 され、止まりません」
    of each with 範囲 ステージ, where each fires once a stage."""
    for timing in ("破った時", "ペンを使った時", "敵のHPが0になった時"):
        assert growth.findings(_content(f"通貨 *= 2 毎 {timing} 範囲 ステージ")) == [], timing
        assert growth.findings(_content(
            f"上限 手札上限 += 1 毎 {timing} 範囲 ステージ 寿命 ステージ")) == [], timing
        # for the run, once a stage still adds up: said for each stage
        (found,) = growth.findings(_content(f"通貨 *= 2 毎 {timing} 範囲 ラン"))
        assert "20 ステージ目には" in found.message


def test_a_tear_cap_the_content_raises_lets_tears_fire_again_in_a_stage():
    found = growth.findings(_content("通貨 *= 2 毎 破った時 範囲 ステージ\n"
                                     "    上限 破り回数上限 += 1 寿命 ステージ"))
    assert [f.code for f in found] == ["W007"] and "発動のたびに" in found[0].message


def test_the_bundled_content_grows_nothing_without_bound():
    import runtime.tables

    assert growth.findings(Content.of_tables(runtime.tables.load())) == []


def test_damage_that_reads_the_damage_dealt_compounds_each_play():
    (found,) = growth.findings(_content("敵HP -= 与えたダメージ[ステージ] × 0.5 範囲 ラン"))
    assert "与えたダメージ[ステージ]" in found.message and "×1.5" in found.message
    assert found.data["cadence"] == "play"
