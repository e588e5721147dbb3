"""目標 on a 旅の準備 (issue 30): the intended win rate of a set-up, written as on a page or
an enemy, checked with the same codes (E058–E061, E013), inherited through 元 unless the
variant states its own, carried in the journey table; the editor offers it where it fits.

Lint tests assert the code, path:line:col, the caret and the hint, in the style of
tests/test_balance_targets.py. ``journey_with`` puts the set-up's extra lines from line 9,
column 3, of a small journey that is clean without them.
"""

from __future__ import annotations

import pytest

from compiler.lint import check_text
from contract.codec import from_literal, to_literal
from contract.journey import Setup
from contract.tables import BalanceTarget
from dsl.diagnostics import render
from dsl.position import place_at
from lsp.completion import Folder, candidates

PATH = "t.journey"
#: The line of the first line ``journey_with`` adds to the set-up 基本.
LINE = 9

BASE = """ロケーション 駅 { 枠 2 }
ロケーション 樹 { 枠 0 }
フラグ 赤の話 { スート 赤; 効果 黒ポーン移動 }
イベント 赤1 { スート 赤; 数字 1; 鍵 月 }
旅の準備 基本 「基本の準備」 {
  最終日 樹
  鍵の種類 [月]
  # the lines under test follow
@LINES@}
旅の準備 変種 {
  元 基本
@VARIANT@}
"""


def journey_with(*lines: str, variant: tuple[str, ...] = ()) -> str:
    """The small journey with ``lines`` in the set-up 基本 (the first at line 9, column 3)
    and ``variant`` in its variant 変種 (元 基本)."""
    return (BASE.replace("@LINES@", "".join(f"  {line}\n" for line in lines))
            .replace("@VARIANT@", "".join(f"  {line}\n" for line in variant)))


def setups(text: str) -> dict:
    """The compiled set-ups of a clean text."""
    result = check_text(text, PATH)
    assert result.errors == 0 and not result.diagnostics, [
        (d.code, d.span.line, d.span.col, d.message) for d in result.diagnostics]
    return result.model.journey.setups


def shown(text: str, code: str, line: int, col: int, width: int):
    """``text`` gives exactly one diagnostic, ``code`` at line:col, shown as
    path:line:col, the code, the source line, a caret ``width`` columns wide under the
    span (a wide character takes two) and a hint; returns it."""
    result = check_text(text, PATH)
    found = [(d.code, d.span.line, d.span.col) for d in result.diagnostics]
    assert found == [(code, line, col)], [(d.code, d.span.line, d.span.col, d.message)
                                           for d in result.diagnostics]
    diag = result.diagnostics[0]
    out = render(diag, result.sources)
    assert out.startswith(f"{PATH}:{line}:{col}: エラー[{code}]: "), out
    source = text.split("\n")[line - 1]
    assert f"{line:>5} | {source}\n" in out, out
    pad = sum(2 if ord(c) > 0x2E7F else 1 for c in source[:col - 1])
    assert f"| {' ' * pad}{'^' * width}\n" in out, out
    assert "= ヒント: " in out
    return diag


# ============================================================== parse and tables


@pytest.mark.parametrize("line", [
    "目標 勝率 30%〜70%",
    "目標 勝率 30 % .. 70 %",
    "目標 勝率 30％〜70％",
    "target win_rate 30%..70%",
])
def test_a_set_up_states_its_win_rate_in_each_spelling_as_fractions(line):
    assert setups(journey_with(line))["基本"].target == BalanceTarget(0.3, 0.7)


def test_a_set_up_without_a_target_has_none_and_its_literal_leaves_it_out():
    found = setups(journey_with())["基本"]
    assert found.target is None
    literal = to_literal(found)
    assert "target" not in literal
    assert from_literal(Setup, literal, "setup").target is None


def test_a_target_is_carried_in_the_table_literal_and_read_back():
    found = setups(journey_with("目標 勝率 25%〜60%"))["基本"]
    literal = to_literal(found)
    assert literal["target"] == {"low": 0.25, "high": 0.6}
    assert from_literal(Setup, literal, "setup").target == BalanceTarget(0.25, 0.6)


# ============================================================== inheritance


def test_a_variant_inherits_its_base_s_target():
    found = setups(journey_with("目標 勝率 30%〜70%"))
    assert found["変種"].target == found["基本"].target == BalanceTarget(0.3, 0.7)


def test_a_variant_s_own_target_replaces_its_base_s():
    found = setups(journey_with("目標 勝率 30%〜70%", variant=("目標 勝率 10%〜40%",)))
    assert found["基本"].target == BalanceTarget(0.3, 0.7)
    assert found["変種"].target == BalanceTarget(0.1, 0.4)


def test_a_variant_may_state_a_target_its_base_has_not():
    found = setups(journey_with(variant=("目標 勝率 50%〜90%",)))
    assert found["基本"].target is None and found["変種"].target == BalanceTarget(0.5, 0.9)


def test_a_wrong_target_in_a_base_is_reported_once_not_once_per_variant():
    text = journey_with("目標 勝率 70%〜30%")
    assert [d.code for d in check_text(text, PATH).diagnostics] == ["E060"]


def test_the_bundled_draft_states_its_intended_win_rate_and_its_variants_inherit_it():
    from journey.rules import read_table

    table = read_table()
    assert table.setups["草案"].target == BalanceTarget(0.3, 0.7)
    # 高難易度 is for players who find the draft too easy: it states a lower one of its own
    assert table.setups["高難易度"].target == BalanceTarget(0.1, 0.4)
    assert {s: table.setups[s].target for s in table.setups if s != "高難易度"} == {
        s: BalanceTarget(0.3, 0.7) for s in table.setups if s != "高難易度"}


# ============================================================== the checks


def test_the_measure_of_a_set_up_is_win_rate_E058():
    diag = shown(journey_with("目標 勝率差 -5%〜+5%"), "E058", LINE, 6, 6)
    assert diag.message == "旅の準備の目標に勝率差は書けません"
    assert "目標 勝率 40%〜70%" in diag.hint


def test_a_journey_item_other_than_a_set_up_takes_no_target_E058():
    text = journey_with().replace("ロケーション 駅 { 枠 2 }",
                                  "ロケーション 駅 {\n  枠 2\n  目標 勝率 30%〜70%\n}", 1)
    diag = shown(text, "E058", 3, 3, 18)
    assert diag.message == "ロケーションに目標は書けません"
    assert "旅の準備（勝率）" in diag.hint


@pytest.mark.parametrize("line, col, width, written", [
    ("目標 勝率 0.3〜70%", 9, 3, "30%"),   # a fraction: read as the tables hold it
    ("目標 勝率 30%〜70", 13, 2, "70%"),   # a number: read as meant in percent
])
def test_a_bound_without_percent_says_how_to_write_it_E059(line, col, width, written):
    diag = shown(journey_with(line), "E059", LINE, col, width)
    assert f"は {written} と書きます" in diag.hint


def test_a_range_written_high_to_low_E060():
    diag = shown(journey_with("目標 勝率 70%〜30%"), "E060", LINE, 9, 8)
    assert "目標 勝率 30%〜70%" in diag.hint


def test_a_win_rate_above_100_percent_E061():
    diag = shown(journey_with("目標 勝率 30%〜120%"), "E061", LINE, 13, 4)
    assert "0%〜100%" in diag.message


def test_a_target_written_twice_E013():
    text = journey_with("目標 勝率 30%〜70%", "目標 勝率 40%〜60%")
    diag = shown(text, "E013", LINE + 1, 3, 18)
    assert [(n.message, n.span.line) for n in diag.notes] == [("最初の記述", LINE)]


def test_an_unknown_measure_gets_a_did_you_mean_E010():
    diag = shown(journey_with("目標 勝立 30%〜70%"), "E010", LINE, 6, 4)
    assert diag.hint == "もしかして「勝率」？"


# ============================================================== the editor


def _offered(text: str) -> set[str]:
    return {c.label for c in candidates(place_at(text, len(text)), Folder(None, {}, {}))}


def test_the_editor_offers_the_target_keyword_in_a_set_up_only():
    assert "目標" in _offered("旅の準備 a {\n  最終日 b\n  ")
    assert "目標" not in _offered("ロケーション a {\n  ")
    assert "目標" in _offered("ページ a {\n  ")


def test_the_editor_offers_win_rate_after_a_set_up_s_target():
    assert _offered("旅の準備 a {\n  目標 ") == {"勝率"}
