"""W008 出せない面: play conditions that cannot hold together with the face's side and the
walls of the line, by interval reasoning."""

from __future__ import annotations

from analysis import faces
from analysis.content import Content
from compiler.lint import check_text
from conftest import bundled_balance


def _findings(face: str, year: int = 30, balance: bool = True, more: str = ""):
    text = f"""ページ a "条件" {{
  銘 {year}
  未来面 {{
    {face}
    敵HP -= 5
  }}
  ペン 過去面 {{ 防御 += 8 }}
}}
{more}"""
    result = check_text(text, "t.page", {"balance.balance": bundled_balance()} if balance else None)
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    return faces.findings(Content.of_model(result.compilation.model))


def test_a_future_face_asking_age_above_its_year_can_never_fire():
    (found,) = _findings("条件 刻 >= 40")
    assert (found.code, found.item, found.line) == ("W008", "a", 4)
    assert "刻 ≥ 40" in found.message and "刻 ≤ 30" in found.message
    assert found.data["low"] == 40 and found.data["high"] == 30


def test_the_side_wall_needs_no_balance():
    (found,) = _findings("条件 刻 >= 40", balance=False)
    assert found.code == "W008"


def test_a_window_inside_the_side_is_playable():
    assert _findings("条件 20 <= 刻 <= 25") == []


def test_equal_year_and_age_fires_the_future_face_too():
    assert _findings("条件 刻 >= 30") == []


def test_a_hand_larger_than_the_hand_cap_is_impossible():
    (found,) = _findings("条件 手札 >= 20")
    assert "手札上限 8" in found.message


def test_a_flag_nothing_sets_stays_zero():
    (found,) = _findings("条件 @覚醒 >= 1")
    assert "@覚醒" in found.message


def test_a_flag_another_page_sets_can_hold():
    other = """ページ b "目覚め" {
  銘 10
  未来面 { @覚醒 += 1 }
  ペン 過去面 { 防御 += 8 }
}
"""
    assert _findings("条件 @覚醒 >= 1", more=other) == []


def test_crossing_and_not_crossing_together_are_impossible():
    (found,) = _findings("条件 跨ぐ, 跨がない")
    assert "跨がない" in found.message


def test_a_distance_longer_than_the_side_allows_is_impossible():
    (found,) = _findings("条件 |銘 - 刻| >= 40")
    assert found.data["quantity"] == "|銘 − 刻|"


def test_a_crossing_in_the_same_turn_is_possible_statically():
    assert _findings("条件 跨いだ回数[ターン] >= 1", year=17) == []


def test_the_bundled_content_has_no_impossible_face():
    import runtime.tables

    assert faces.findings(Content.of_tables(runtime.tables.load())) == []


def _w008(text: str):
    result = check_text(text, "t.page", {"balance.balance": bundled_balance()})
    return [d for d in result.diagnostics if d.code == "W008"]


def test_the_warning_stands_on_the_conditions_of_a_page_written_on_one_line():
    """Every node of a one-line page starts on its line: the warning stood on the page's
    head (1:1), not on the 条件 that cannot hold."""
    text = 'ページ a "条件" { 銘 30; 未来面 { 条件 刻 >= 40, 歩 >= 1; 敵HP -= 5 }; ペン 過去面 { 防御 += 8 } }\n'
    (found,) = _w008(text)
    start = text.index("刻 >= 40") + 1
    assert (found.span.line, found.span.col) == (1, start)
    assert (found.span.end_line, found.span.end_col) == (1, text.index("; 敵HP") + 1)


def test_the_warning_on_a_pen_face_stands_on_the_pens_conditions():
    text = ('ページ a "条件" {\n  銘 30\n  未来面 { 敵HP -= 5 }\n  過去面 白紙\n'
            '  ペン 過去面 { 条件 刻 <= 10, 刻 >= 20; 防御 += 8 }\n}\n')
    (found,) = _w008(text)
    line = text.splitlines()[4]
    assert (found.span.line, found.span.col) == (5, line.index("刻 <= 10") + 1)


def test_the_hint_names_the_year_only_where_the_year_bounds_the_quantity():
    """「条件の数値か、ページの銘を見直してください」 was said of 条件 手札 >= 20 too, where
    銘 has nothing to do with it."""
    (year,) = _findings("条件 刻 >= 40")
    assert year.hint == faces.HINT and "銘" in year.hint
    (hand,) = _findings("条件 手札 >= 20")
    assert hand.hint == "条件の数値を、手札が取りうる範囲に合わせてください"
    (both,) = _findings("条件 跨ぐ, 跨がない")
    assert both.hint == "同時には成り立たない条件のどちらかを消してください"
