"""Validation rules, one test per rule (DESIGN §4, spec 002): each asserts the exact code and
the exact line:col of the diagnostic on a rejecting input, and that a nearby input passes.

Inputs are built by ``face``/``enemy`` so that positions are easy to read: the first 作用
of a face is on line 4 and starts at column 5.
"""

from __future__ import annotations

import re

import pytest

from contract import vocabulary as vocab
from compiler.lint import check, check_text
from conftest import bundled_balance, codes

PATH = "t.page"


#: The other face of a page, by the face ``face`` writes.
_OTHER_SIDE = {"未来面": "過去面", "過去面": "未来面"}
#: What the pen writes on the other, blank face when a test says nothing of it (every
#: blank face says what the pen writes: E066, DESIGN §6.2).
PEN = "歩 += 5"
#: Pens for both faces of a page that writes neither, on one line (no line moves).
BOTH_PENS = f"; ペン 未来面 {{ {PEN} }}; ペン 過去面 {{ {PEN} }}"


def face(*effects: str, side: str = "未来面", fields: tuple[str, ...] = (),
         after: tuple[str, ...] = (), head: str = "ページ t {") -> str:
    """A page whose face holds ``effects``: line 1 head, line 2 銘, then ``fields``; with no
    fields the face opens on line 3 and its first line is line 4, column 5. The other face
    is blank with a pen (``PEN``) after ``after``, unless ``after`` writes that face or its
    pen itself."""
    other = _OTHER_SIDE[side]
    if not any(other in a for a in after):
        after = (*after, f"ペン {other} {{ {PEN} }}")
    lines = [head, "  銘 30", *(f"  {f}" for f in fields), f"  {side} {{",
             *(f"    {e}" for e in effects), "  }", *(f"  {a}" for a in after), "}"]
    return "\n".join(lines) + "\n"


def enemy(*traits: str, name: str = "e") -> str:
    """An enemy whose 特性 block holds ``traits``: the first trait is line 7, column 5."""
    return "\n".join([f"敵 {name} {{", "  HP 150", "  座 42", "  突破ライン 60",
                      "  予兆 [ 攻撃 16 ]", "  特性 {", *(f"    {t}" for t in traits),
                      "  }", "}"]) + "\n"


#: A second page that references may name (line numbers of the first part do not move).
OTHER = ('\nページ tabidachi "旅立ちの朝" {\n  銘 36\n  出自 青年期\n  未来面 { 敵HP -= 12 }\n'
         f'  ペン 過去面 {{ {PEN} }}\n}}\n')


def diagnostics(text: str, context: dict | None = None):
    return check_text(text, PATH, context).diagnostics


def rejects(text: str, code: str, line: int, col: int, context: dict | None = None):
    """``text`` gives exactly one diagnostic, ``code`` at line:col; returns it."""
    found = diagnostics(text, context)
    assert [(d.code, d.span.line, d.span.col) for d in found] == [(code, line, col)], [
        (d.code, d.span.line, d.span.col, d.message) for d in found]
    return found[0]


def accepts(text: str, context: dict | None = None) -> None:
    """``text`` gives no diagnostic at all (no error, no warning)."""
    found = diagnostics(text, context)
    assert found == [], [(d.code, d.span.line, d.span.col, d.message) for d in found]


# ====================================================================== names


@pytest.mark.parametrize("bad, col, good, suggestion", [
    ("防禦 += 6", 5, "防御 += 6", "防御"),                                  # variable
    ("敵HP -= 跨いだ回[ターン] × 2", 12, "敵HP -= 跨いだ回数[ターン] × 2", "跨いだ回数"),  # counter
    ("敵HP -= 跨いだ回数[ターソ] × 2", 18, "敵HP -= 跨いだ回数[ターン] × 2", "ターン"),  # scope
    ("敵HP -= 3 毎 ターン開始 範囲 ステージ", 16, "敵HP -= 3 毎 ターン開始時 範囲 ステージ",
     "ターン開始時"),                                                       # timing
    ("防御 += 6 寿命 被弾一回", 16, "防御 += 6 寿命 被弾1回", "被弾1回"),      # lifetime
    ("移動 1枚 捨札 -> 手札", 11, "移動 1枚 捨て札 -> 手札", "捨て札"),         # region
    ("defense += 6 life on_hitt", 23, "defense += 6 life on_hit", "on_hit"),  # ASCII alias
])
def test_unknown_name_is_rejected_with_did_you_mean(bad, col, good, suggestion):
    found = rejects(face(bad), "E010", 4, col)
    assert f"「{suggestion}」" in found.hint
    accepts(face(good))


def test_unknown_name_without_close_match_lists_the_vocabulary():
    found = rejects(face("xyzzy += 1"), "E010", 4, 5)
    assert "使える変数" in found.hint and "防御" in found.hint


def _listed(hint: str) -> list[str]:
    return hint.split("使える変数: ", 1)[1].split(" ほか")[0].split("、")


def test_an_unknown_targets_hint_lists_only_what_that_side_can_move():
    """``xyzzy += 1`` listed 綻び, 刻 and 座 among the variables to use: a page moves none
    of them (綻び rises only by pen and tear, 座 by an enemy; 刻 only by 抑制), and
    writing one was the next error (E034). HP — a name in ASCII — was left out. A page's
    hint lists what a page's 作用 can move, an enemy's what a trait can."""
    page = _listed(rejects(face("xyzzy += 1"), "E010", 4, 5).hint)
    assert page[:5] == ["敵HP", "HP", "歩", "防御", "通貨"] and "刻" in page
    assert not {"綻び", "座", "距離"} & set(page)
    trait = _listed(rejects(enemy("xyzzy += 1 毎 ターン開始時 範囲 ステージ"), "E010", 7, 5).hint)
    assert "座" in trait and not {"HP", "歩", "綻び"} & set(trait)
    # a typo of a variable that cannot be moved is still named, and the next check says why
    assert "「綻び」" in rejects(face("綻ぶ += 1"), "E010", 4, 5).hint


def test_reference_to_undefined_page_is_rejected_with_did_you_mean():
    found = rejects(face("銘[tabidachii] = 30") + OTHER, "E011", 4, 7)
    assert "「tabidachi」" in found.hint
    accepts(face("銘[tabidachi] = 30") + OTHER)


def test_page_reference_resolves_across_files():
    other = {"other.page": OTHER}
    rejects(face("銘[tabidachi] = 30"), "E011", 4, 7)
    accepts(face("銘[tabidachi] = 30"), context=other)


def test_generation_filter_with_unknown_origin_is_rejected():
    found = rejects(face("生成 出自 青年 -> 手札 寿命 ステージ") + OTHER, "E011", 4, 11)
    assert "「青年期」" in found.hint
    accepts(face("生成 出自 青年期 -> 手札 寿命 ステージ") + OTHER)


def test_deck_of_undefined_page_is_rejected():
    rejects("デッキ starter {\n  tabidachii × 2\n}\n" + OTHER, "E011", 2, 3)
    accepts("デッキ starter {\n  tabidachi × 2\n}\n" + OTHER)


def rejects_all(text: str, expected: list[tuple[str, int, int]], context: dict | None = None):
    """``text`` gives exactly the diagnostics ``expected`` (code, line, col), in order."""
    found = diagnostics(text, context)
    assert [(d.code, d.span.line, d.span.col) for d in found] == expected, [
        (d.code, d.span.line, d.span.col, d.message) for d in found]
    return found


def test_duplicate_page_id_points_at_both_definitions():
    # E012 at every definition (issue 10 E), each pointing at the other
    text = f"ページ t {{\n  銘 1{BOTH_PENS}\n}}\n\nページ t {{\n  銘 2{BOTH_PENS}\n}}\n"
    first, second = rejects_all(text, [("E012", 1, 5), ("E012", 5, 5)])
    assert [(n.message, n.span.line, n.span.col) for n in first.notes] == [("別の定義", 5, 5)]
    assert [(n.message, n.span.line, n.span.col) for n in second.notes] == [("最初の定義", 1, 5)]
    accepts(text.replace("ページ t {\n  銘 2", "ページ u {\n  銘 2"))


def test_duplicate_enemy_id_points_at_both_definitions():
    first, second = rejects_all(enemy("軽減 2") + enemy("軽減 2"), [("E012", 1, 3), ("E012", 10, 3)])
    assert [(n.span.line, n.span.col) for n in second.notes] == [(1, 3)]
    assert [(n.span.line, n.span.col) for n in first.notes] == [(10, 3)]
    accepts(enemy("軽減 2") + enemy("軽減 2", name="f"))


def test_second_balance_is_rejected():
    balance = bundled_balance()
    lines = balance.count("\n")
    first, second = rejects_all(balance + balance, [("E012", 2, 1), ("E012", lines + 2, 1)])
    assert second.notes[0].span.line == 2 and first.notes[0].span.line == lines + 2
    accepts(balance)


def test_field_written_twice_is_rejected_with_a_note():
    found = rejects(face("敵HP -= 12", fields=("銘 31",)), "E013", 3, 3)
    assert [(n.span.line, n.span.col) for n in found.notes] == [(2, 3)]
    accepts(face("敵HP -= 12", fields=("綻び倍率 1.0",)))


def test_term_written_twice_in_one_effect_is_rejected():
    rejects(face("敵HP -= 12 固定 固定"), "E013", 4, 18)
    rejects(face("防御 += 6 寿命 ターン 寿命 ステージ"), "E013", 4, 20)
    accepts(face("敵HP -= 12 固定"))


def test_face_written_twice_is_rejected():
    rejects(face("敵HP -= 12", after=("未来面 白紙",)), "E013", 6, 3)
    accepts(face("敵HP -= 12", after=("過去面 白紙", f"ペン 過去面 {{ {PEN} }}")))


def test_page_without_year_is_rejected():
    rejects(f"ページ t {{\n  未来面 {{ 敵HP -= 12 }}; ペン 過去面 {{ {PEN} }}\n}}\n", "E014", 1, 5)
    accepts(f"ページ t {{\n  銘 0\n  未来面 {{ 敵HP -= 12 }}; ペン 過去面 {{ {PEN} }}\n}}\n")


def test_enemy_without_intents_is_rejected():
    text = enemy("軽減 2")
    rejects(text.replace("  予兆 [ 攻撃 16 ]\n", ""), "E014", 1, 3)
    accepts(text)


def test_deck_without_pages_is_rejected():
    rejects("デッキ starter {\n}\n", "E014", 1, 5)
    accepts("デッキ starter {\n  t\n}\n" + face("敵HP -= 1"))


def test_a_deck_whose_lines_a_syntax_error_lost_is_not_also_said_empty():
    """``t 2`` (a count without ×) is a syntax error, and recovery drops the line: the deck
    looked empty and E014 「デッキにページが1枚もありません」 followed, a second message for
    the one mistake, and one that says the designer wrote no page."""
    rejects("デッキ starter {\n  t 2\n}\n" + face("敵HP -= 1"), "E001", 2, 5)


# ============================================================ the effect system


@pytest.mark.parametrize("counter", [c.ja for c in vocab.COUNTERS])
def test_cumulative_quantity_is_never_a_target(counter):
    rejects(face(f"{counter}[ラン] += 1"), "E020", 4, 5)
    rejects(face(f"{counter} -= 1"), "E020", 4, 5)


def test_raising_a_count_goes_through_its_cap_instead():
    found = rejects(face("破った回数[ステージ] -= 1"), "E020", 4, 5)
    assert "上限" in found.hint
    accepts(face("上限 破り回数上限 += 1 寿命 ステージ"))


def test_cumulative_reference_needs_a_scope_subscript():
    rejects(face("敵HP -= 使用した歩 × 0.5"), "E021", 4, 12)
    rejects(face("条件 跨いだ回数 >= 1", "敵HP -= 6"), "E021", 4, 8)
    accepts(face("敵HP -= 使用した歩[プレイ] × 0.5"))
    accepts(face("条件 跨いだ回数[ターン] >= 1", "敵HP -= 6"))


@pytest.mark.parametrize("counter, col, usable", [
    ("プレイ枚数", 18, "ターン"),
    ("増えた綻び", 18, "ステージ"),
    ("破った回数", 18, "ステージ"),
    ("使用したペン回数", 21, "ステージ"),
    ("ペン回数", 17, "ステージ"),  # the spec's own spelling of 使用したペン回数
])
def test_cross_cell_scopes_are_rejected(counter, col, usable):
    found = rejects(face(f"敵HP -= {counter}[プレイ] × 2"), "E022", 4, col)
    reason = vocab.CELL_NONE_REASONS[vocab.lookup("counter", counter).code]
    assert reason in found.hint  # the spec's reason for the × is quoted
    accepts(face(f"敵HP -= {counter}[{usable}] × 2"))


def test_cross_cell_scope_is_rejected_in_conditions_too():
    rejects(face("条件 破った回数[プレイ] >= 1", "敵HP -= 6"), "E022", 4, 14)
    accepts(face("条件 破った回数[ステージ] >= 1", "敵HP -= 6"))


@pytest.mark.parametrize("counter", vocab.COUNTERS, ids=lambda c: c.code)
def test_every_cell_of_the_scope_table_is_enforced(counter):
    """The whole ●/○/× table of spec 002, read from the vocabulary."""
    for scope in vocab.SCOPES:
        text = face(f"敵HP -= {counter.ja}[{scope.ja}] × 2")
        got = [d.code for d in diagnostics(text)]
        expected = {vocab.CELL_CORE: [], vocab.CELL_UNUSED: ["W001"],
                    vocab.CELL_NONE: ["E022"]}[counter.cell(scope.code)]
        assert got == expected, (counter.ja, scope.ja)


def test_multiply_with_modified_landing_is_rejected():
    rejects(face("攻撃倍率 *= 1.5 補正あり 範囲 ラン"), "E023", 4, 17)
    # whatever the target: no target has a modified multiply
    rejects(face("敵HP *= 2 補正あり"), "E023", 4, 14)
    accepts(face("攻撃倍率 *= 1.5 範囲 ラン"))
    accepts(face("攻撃倍率 *= 1.5 固定 範囲 ラン"))


@pytest.mark.parametrize("bad", ["防御 = 20", "HP = 100", "敵HP = 0", "通貨 = 0", "歩 = 40",
                                 "攻撃倍率 = 2 範囲 ラン"])
def test_assign_only_to_page_year_flag_or_enemy_face_state(bad):
    rejects(face(bad), "E024", 4, 5)


def test_assign_to_another_pages_year_or_a_flag_is_accepted():
    accepts(face("銘[tabidachi] = 30", "@覚醒 = 1") + OTHER)


def test_pages_never_assign_face_state():
    found = rejects(face("記入状態 = 0"), "E024", 4, 5)
    assert "白紙化" in found.hint
    # DESIGN §6.1: no enemy trait either — face state changes only by the 白紙化 Intent
    rejects(enemy("記入状態 = 0 毎 ターン開始時"), "E024", 7, 5)


def test_threshold_in_effect_value_is_rejected():
    found = rejects(face("敵HP -= 20 × (跨いだ回数[ターン] >= 2)"), "E025", 4, 18)
    assert "条件" in found.hint
    rejects(face("敵HP -= 跨いだ回数[ターン] >= 2"), "E025", 4, 12)
    accepts(face("条件 跨いだ回数[ターン] >= 2", "敵HP -= 20"))


@pytest.mark.parametrize("bad, col, good", [
    ("攻撃力補正 += 2", 5, "攻撃力補正 += 2 範囲 以降 2 プレイ"),      # modifier: repeat range
    ("敵HP -= 3 毎 ターン開始時", 5, "敵HP -= 3 毎 ターン開始時 範囲 ステージ"),  # continuing
    ("上限 寿命上限 += 5", 5, "上限 寿命上限 += 5 寿命 ラン"),          # parameter: lifetime
    ("生成 出自 青年期 -> 手札", 5, "生成 出自 青年期 -> 手札 寿命 ステージ"),  # generated page
    ("複製 手札 -> 山札", 5, "複製 手札 -> 山札 寿命 ラン"),
    ("敵HP -= 3 最大 3 回", 14, "敵HP -= 3 範囲 ステージ 最大 3 回"),  # max needs a range
])
def test_missing_lifetime_or_repeat_range_is_rejected(bad, col, good):
    rejects(face(bad) + OTHER, "E026", 4, col)
    accepts(face(good) + OTHER)


def test_enemy_trait_effect_needs_a_timing():
    rejects(enemy("座 += 4 予告"), "E026", 7, 5)
    accepts(enemy("座 += 4 毎 ターン開始時 予告"))


def test_an_immobile_enemys_own_seat_move_is_W004_as_its_seat_never_moves():
    """不動: 座は動かない — a 作用 of its own moving 座 does nothing (the rules say so: the
    battle plays it as nothing, and its 予告 says no move): a warning."""
    text = enemy("座 += 4 毎 ターン開始時 予告", "不動")
    found = [d for d in diagnostics(text) if d.code == "W004"]
    assert [(d.span.line, d.span.col) for d in found] == [(7, 5)]
    assert "不動の敵の座は動かないので、この作用は何もしません" in found[0].message
    assert not [d for d in diagnostics(enemy("座 += 4 毎 ターン開始時 予告")) if d.code == "W004"]
    assert not [d for d in diagnostics(enemy("不動", "防御 += 4 毎 ターン開始時"))
                if d.code == "W004"]


def test_maximum_on_a_one_shot_tear_effect_is_rejected():
    """In 破却 a 作用 with no timing fires once when torn: a maximum would be dropped."""
    rejects(face("敵HP -= 6", after=("破却 { 防御 += 3 最大 3 回 }",)), "E026", 6, 16)
    accepts(face("敵HP -= 6", after=("破却 { 防御 += 3 毎 ターン開始時 最大 3 回 }",)))


@pytest.mark.parametrize("bad", ["歩 += 3 寿命 被弾1回", "敵HP -= 3 寿命 被弾1回",
                                 "@集中 += 1 寿命 被弾1回"])
def test_on_hit_lifetime_only_on_defense(bad):
    found = rejects(face(bad), "E027", 4, bad.index("寿命") + 5)
    assert "防御だけ" in found.hint
    accepts(face("防御 += 3 寿命 被弾1回"))


@pytest.mark.parametrize("bad, good", [
    ("防御 += 3 寿命 プレイ", "防御 += 3 寿命 ステージ"),
    ("攻撃力補正 += 2 寿命 ステージ", "攻撃力補正 += 2 範囲 ステージ"),
    ("生成 出自 青年期 -> 手札 寿命 ターン", "生成 出自 青年期 -> 手札 寿命 ステージ"),
    ("抑制 刻 寿命 ターン", "抑制 刻"),
    ("上限 手札上限 += 1 寿命 ターン", "上限 手札上限 += 1 寿命 ステージ"),
])
def test_lifetime_meaningless_for_the_target_is_rejected(bad, good):
    rejects(face(bad) + OTHER, "E027", 4, bad.index("寿命") + 5)
    accepts(face(good) + OTHER)


def test_pen_defined_twice_for_one_face_is_rejected():
    text = face("敵HP -= 6", after=("ペン 未来面 { 敵HP -= 9 }", "ペン 未来面 { 歩 += 5 }"))
    found = rejects(text, "E028", 7, 3)
    assert [(n.span.line, n.span.col) for n in found.notes] == [(6, 3)]
    accepts(face("敵HP -= 6", after=("ペン 未来面 { 敵HP -= 9 }", "ペン 過去面 { 歩 += 5 }")))


def test_written_face_with_empty_list_is_rejected():
    rejects(face(), "E029", 3, 3)
    rejects(face("条件 跨ぐ"), "E029", 3, 3)  # conditions alone are no effect
    # ... and a face of one bad condition is told both of its mistakes
    rejects_all(face("条件 歩 + 25"), [("E029", 3, 3), ("E041", 4, 8)])
    # and so is a pen that writes a blank face whole
    rejects_all(f"ページ t {{\n  銘 30\n  未来面 白紙\n  ペン 未来面 {{ 条件 歩 + 25 }}\n"
                f"  過去面 白紙; ペン 過去面 {{ {PEN} }}\n}}\n", [("E029", 4, 3), ("E041", 4, 15)])
    rejects(face("敵HP -= 6", after=("ペン 過去面 { }",)), "E029", 6, 3)
    accepts(f"ページ t {{\n  銘 30\n  未来面 白紙{BOTH_PENS}\n}}\n")
    accepts(face("条件 跨ぐ", "敵HP -= 6"))


def test_broken_line_does_not_make_its_face_look_empty():
    """After a syntax error the line is skipped; the face is not reported empty too."""
    rejects(face("敵HP 12"), "E001", 4, 9)


@pytest.mark.parametrize("year, col", [("201", 5), ("-1", 5), ("1.5", 5), ("1000", 5)])
def test_year_out_of_range_is_rejected(year, col):
    rejects(f"ページ t {{\n  銘 {year}{BOTH_PENS}\n}}\n", "E030", 2, col)


@pytest.mark.parametrize("year", ["0", "200", "95"])
def test_year_at_the_bounds_is_accepted(year):
    accepts(f"ページ t {{\n  銘 {year}{BOTH_PENS}\n}}\n")


def test_assigned_year_out_of_range_is_rejected():
    rejects(face("銘[tabidachi] = 300") + OTHER, "E030", 4, 20)
    accepts(face("銘[tabidachi] = 200") + OTHER)


@pytest.mark.parametrize("bad, line, col, good", [
    (face("敵HP -= 6", fields=("綻び倍率 101",)), 3, 8, face("敵HP -= 6", fields=("綻び倍率 100",))),
    (face("敵HP -= 6", fields=("上限枚数 0",)), 3, 8, face("敵HP -= 6", fields=("上限枚数 1",))),
    (face("生成 銘 30..10 -> 手札 寿命 ステージ"), 4, 10, face("生成 銘 10..30 -> 手札 寿命 ステージ")),
    (enemy("軽減 2").replace("座 42", "座 201"), 3, 5, enemy("軽減 2")),
    (enemy("封鎖 32..28"), 7, 8, enemy("封鎖 28..32")),
])
def test_other_values_out_of_range_are_rejected(bad, line, col, good):
    rejects(bad, "E030", line, col)
    accepts(good)


def test_more_copies_of_a_page_than_its_deck_cap_is_rejected():
    rejects("デッキ d {\n  t × 3\n}\n" + face("敵HP -= 6", fields=("上限枚数 2",)), "E055", 2, 3)
    accepts("デッキ d {\n  t × 2\n}\n" + face("敵HP -= 6", fields=("上限枚数 2",)))


def test_negative_fray_multiplier_is_rejected():
    found = rejects(face("敵HP -= 6", fields=("綻び倍率 -0.5",)), "E031", 3, 8)
    assert "0 以上" in found.hint
    accepts(face("敵HP -= 6", fields=("綻び倍率 0",)))


def test_division_by_zero_is_rejected():
    rejects(face("敵HP -= 使用した歩[プレイ] / 0"), "E032", 4, 25)
    rejects(face("敵HP -= 12 / 0.0"), "E032", 4, 17)
    rejects(face("敵HP -= 6", fields=("綻び倍率 1 / (2 - 2)",)), "E032", 3, 13)
    accepts(face("敵HP -= 使用した歩[プレイ] / 2"))


_HUGE = "999999999999999999999999999999"  # 30 digits: a number, but not after 11 products


@pytest.mark.parametrize("value", [
    "1e400",
    "1" * 31,
    "1e300 × 1e300",
    "1e308 + 1e308",
    " × ".join([_HUGE] * 12),          # an int beyond float range: no crash, a diagnostic
    "使用した歩[プレイ] × 1e300 × 1e300",  # the coefficient overflows
])
def test_non_finite_numbers_are_rejected(value):
    rejects(face(f"敵HP -= {value}"), "E033", 4, 12)


def test_non_finite_field_is_rejected():
    rejects("ページ t {\n  銘 " + " × ".join([_HUGE] * 12) + BOTH_PENS + "\n}\n", "E033", 2, 5)
    accepts(face("敵HP -= 1e3 × 0.5"))


@pytest.mark.parametrize("bad, hint", [
    ("綻び += 10", "ペンと破る"),
    ("刻 = 30", ""),       # 刻 is a target of 抑制 only: assigning it is E024, see below
    ("残りペン回数 += 1", ""),
    ("距離 += 1", ""),
    ("座 += 4", "敵の特性"),
    ("記入状態 += 1", "白紙化"),
])
def test_variables_that_are_no_target_are_rejected(bad, hint):
    code = "E024" if bad.startswith("刻") else "E034"
    found = rejects(face(bad), code, 4, 5)
    assert hint in found.hint
    accepts(enemy("座 += 4 毎 ターン開始時 予告"))  # 座 moves by enemy traits


def test_permanent_parameter_changes_only_by_cap():
    rejects(face("寿命上限 += 5 寿命 ラン"), "E035", 4, 5)
    rejects(face("上限 防御 += 5 寿命 ラン"), "E035", 4, 5)  # cap of a current value
    accepts(face("上限 寿命上限 += 5 寿命 ラン"))


@pytest.mark.parametrize("bad, col", [
    ("敵HP -= 使用した歩[プレイ] + 跨いだ回数[ターン]", 12),
    ("敵HP -= 使用した歩[プレイ] × 跨いだ回数[ターン]", 12),
    ("敵HP -= 12 / 使用した歩[プレイ]", 12),
    ("敵HP -= 跨ぐ", 12),
])
def test_base_is_a_constant_or_counter_times_coefficient(bad, col):
    rejects(face(bad), "E036", 4, col)


@pytest.mark.parametrize("good", ["敵HP -= 使用した歩[プレイ] × 0.5", "敵HP -= 0.5 × 使用した歩[プレイ]",
                                  "敵HP -= 使用した歩[プレイ] / 2", "敵HP -= 12 + 3",
                                  "敵HP -= -(使用した歩[プレイ] × -0.5)"])
def test_constant_or_counter_times_coefficient_is_accepted(good):
    accepts(face(good))


@pytest.mark.parametrize("bad, code, col, good", [
    # E050: an operation the variable does not take
    ("HP *= 2", "E050", 5, "攻撃倍率 *= 2 範囲 以降 1 プレイ"),
    ("上限 寿命上限 *= 2 寿命 ラン", "E050", 5, "上限 寿命上限 += 2 寿命 ラン"),
    ("抑制 歩", "E050", 5, "抑制 刻"),
    # E051: a landing where the 作用 takes none
    ("上限 寿命上限 += 2 固定 寿命 ラン", "E051", 18, "上限 寿命上限 += 2 寿命 ラン"),
    ("@覚醒 = 1 固定", "E051", 13, "@覚醒 = 1"),
    ("支払う HP 5 補正あり", "E051", 14, "支払う HP 5 固定"),
    ("抑制 刻 固定", "E051", 10, "抑制 刻"),
    ("移動 1枚 捨て札 -> 手札 補正あり", "E051", 21, "移動 1枚 捨て札 -> 手札"),
    # E037: a region or a pick the region operation does not take
    ("移動 1枚 捨て札 -> 手札 上から", "E037", 5, "移動 1枚 山札 -> 手札 上から"),
    ("移動 1枚 手札 -> 手札", "E037", 5, "移動 1枚 手札 -> 捨て札"),
    ("移動 1枚 手札 -> 山札+捨て札", "E037", 17, "移動 1枚 手札 -> 山札"),
    ("複製 捨て札 -> 山札 寿命 ラン", "E037", 8, "複製 手札 -> 山札 寿命 ラン"),
    ("生成 -> 除外 寿命 ラン", "E037", 11, "生成 -> 手札 寿命 ラン"),
])
def test_operation_or_term_not_usable_here_is_rejected(bad, code, col, good):
    rejects(face(bad), code, 4, col)
    accepts(face(good))


@pytest.mark.parametrize("bad, col, good", [
    ("不動 3", 5, "不動"),
    ("加速", 5, "加速 2"),
    ("軽減 0", 5, "軽減 3"),
    ("封鎖 30", 5, "封鎖 30..40"),
])
def test_trait_argument_of_the_wrong_form_is_rejected(bad, col, good):
    rejects(enemy(bad), "E052", 7, col)
    accepts(enemy(good))


def test_intent_blanking_a_region_it_cannot_blank_is_rejected():
    bad = enemy("不動").replace("予兆 [ 攻撃 16 ]", "予兆 [ 攻撃 16, 白紙化 除外 ]")
    rejects(bad, "E054", 5, 19)
    accepts(enemy("不動").replace("予兆 [ 攻撃 16 ]", "予兆 [ 攻撃 16, 白紙化 山札+捨て札 ]"))


@pytest.mark.parametrize("where", ["破却", "ペン 過去面"])
def test_play_conditions_belong_to_faces(where):
    """Conditions are bound to faces (spec 002): a tear effect is never played."""
    text = face("敵HP -= 6", after=(f"{where} {{ 条件 歩 >= 1; 防御 += 3 }}",))
    if where == "破却":
        rejects(text, "E053", 6, 11)
    else:
        accepts(text)  # a pen writes a face: its conditions are that face's
    accepts(face("敵HP -= 6", after=("破却 { 防御 += 3 }",)))


def test_condition_in_reward_is_rejected():
    balance = bundled_balance()
    bad = balance.replace("綻び報酬 { ", "綻び報酬 { 条件 HP >= 1; ")
    line = bad[: bad.index("条件 HP")].count("\n") + 1
    rejects(bad, "E053", line, bad.split("\n")[line - 1].index("HP >= 1") + 1)
    accepts(balance)


def test_timing_not_usable_for_target_is_rejected():
    rejects(face("攻撃力補正 += 2 毎 ターン開始時 範囲 ステージ"), "E038", 4, 16)
    rejects(face("敵HP -= 3 毎 常時 範囲 ステージ"), "E038", 4, 14)
    accepts(face("攻撃力補正 += 2 範囲 ステージ"))
    accepts(face("攻撃力補正 += 2 毎 常時 範囲 ステージ"))


@pytest.mark.parametrize("bad, col, good", [
    ("移動 0枚 捨て札 -> 手札", 8, "移動 1枚 捨て札 -> 手札"),
    ("敵HP -= 3 範囲 ステージ 最大 0 回", 25, "敵HP -= 3 範囲 ステージ 最大 1 回"),
    ("敵HP -= 3 範囲 ステージ 最大 1.5 回", 25, "敵HP -= 3 範囲 ステージ 最大 2 回"),
    ("攻撃力補正 += 2 範囲 以降 0 プレイ", 22, "攻撃力補正 += 2 範囲 以降 1 プレイ"),
    ("敵HP -= 使用した歩[以降 0 プレイ]", 21, "敵HP -= 使用した歩[以降 2 プレイ]"),
])
def test_counts_are_at_least_one(bad, col, good):
    rejects(face(bad), "E039", 4, col)
    accepts(face(good))


@pytest.mark.parametrize("written, hint", [
    ("1e999", "詳しくは jibunki explain E039"),  # infinity: no whole number near it
    ("1e300", "詳しくは jibunki explain E039"),  # beyond the bound: neither are they
    ("1.5", "小数は書けません。1 か 2 のような整数で書きます"),
    ("0.5", "小数は書けません。1 のような整数で書きます"),
    ("0", "0 枚のつもりなら、この行ごと消してください"),
])
def test_a_count_that_is_not_one_or_more_says_what_to_write_instead(written, hint):
    """E039's hint by what was written: the whole numbers either side of a fraction; for a
    deck entry of 0 copies, that leaving the line out is what it means."""
    deck = f"デッキ d \"d\" {{\n  t × {written}\n}}\n" + face("敵HP -= 3")
    assert rejects(deck, "E039", 2, 7).hint == hint


def test_escalation_interval_is_at_least_one():
    text = enemy("軽減 2").replace("  特性", "  エスカレーション 0 ターンごと 攻撃 16\n  特性")
    rejects(text, "E039", 6, 12)
    accepts(text.replace("エスカレーション 0", "エスカレーション 2"))


def test_subscript_on_a_name_that_takes_none_is_rejected():
    rejects(face("敵HP -= 歩[ターン] × 0.5"), "E040", 4, 14)
    rejects(face("防御[ターン] += 6"), "E040", 4, 8)
    accepts(face("敵HP -= 使用した歩[ターン] × 0.5"))
    accepts(face("防御 += 6 寿命 ターン"))


def test_a_scope_on_a_value_points_to_the_counter_of_its_changes():
    """綻び[ステージ] (the battle screen's gauge) and ドロー枚数[ターン] are current values: the
    hint names the counter a scope goes on, with the scope written."""
    said = rejects(face("敵HP -= 綻び[ステージ] × 0.1"), "E040", 4, 15)
    assert said.hint == "期間の量は累計量で読みます: 増えた綻び[ステージ]"
    said = rejects(face("歩 += ドロー枚数[ターン]"), "E040", 4, 16)
    assert said.hint == "期間の量は累計量で読みます: ドローした枚数[ターン]"
    accepts(face("敵HP -= 増えた綻び[ステージ] × 0.1"))
    # a scope the counter does not read (×), or no scope at all: the ones it reads
    for written in ("綻び[プレイ]", "綻び[tabidachi]"):
        said = rejects(face(f"敵HP -= {written} × 0.1"), "E040", 4, 15)
        assert said.hint == ("期間の量は累計量で読みます: 増えた綻び[ターン] か 増えた綻び[ステージ] "
                             "か 増えた綻び[ラン]"), written


def test_the_glossarys_cumulative_fray_is_written_as_its_counter():
    """Spec 001: 「累積綻び」は 増えた綻び[ラン]. Written in a 作用, it is named as such (with the
    replacement), not a did-you-mean to 綻び, the current value."""
    said = rejects(face("敵HP -= 累積綻び × 0.1"), "E010", 4, 12)
    assert said.message == "「累積綻び」は用語集の呼び名です"
    assert said.hint == "作用には 増えた綻び[ラン] と書きます"
    assert said.replacements == ("増えた綻び[ラン]",)
    subscripted = rejects(face("敵HP -= 累積綻び[ステージ] × 0.1"), "E010", 4, 12)
    assert subscripted.replacements == ()  # the fix of the name alone would leave [ラン][ステージ]


def test_name_that_needs_a_subscript_is_rejected_without_one():
    rejects(face("銘 = 30"), "E040", 4, 5)  # whose 銘?
    rejects(face("敵HP -= 6", fields=("出現条件 通過したマス >= 1",)), "E040", 3, 8)
    accepts(face("銘[tabidachi] = 30") + OTHER)
    accepts(face("敵HP -= 6", fields=("出現条件 通過したマス[神話] >= 1",)))


@pytest.mark.parametrize("bad, col", [
    ("条件 歩", 8),                       # a quantity alone
    ("条件 10 >= 3", 8),                  # no quantity
    ("条件 歩 >= HP", 8),                 # two quantities
    ("条件 クリアしたステージ数 >= 1", 8),  # an appearance quantity in a play condition
    ("条件 使用した歩[プレイ] × 2 >= 10", 8),  # compares an expression, not one quantity
])
def test_condition_must_compare_one_quantity(bad, col):
    rejects(face(bad, "敵HP -= 6"), "E041", 4, col)


@pytest.mark.parametrize("good", ["条件 歩 >= 10", "条件 20 <= 刻 <= 40", "条件 |銘 - 刻| >= 10",
                                  "条件 @覚醒", "条件 山札+捨て札 >= 10", "条件 跨がない",
                                  "条件 残りペン回数 >= 1, HP >= 50"])
def test_conditions_of_the_spec_table_are_accepted(good):
    # The face sets the flag it reads: a flag nothing sets stays 0 (W008).
    accepts(face(good, "敵HP -= 6", "@覚醒 += 1"))


def test_appearance_condition_reads_only_appearance_quantities():
    rejects(face("敵HP -= 6", fields=("出現条件 歩 >= 1",)), "E041", 3, 8)
    accepts(face("敵HP -= 6", fields=("出現条件 クリアしたステージ数 >= 2",)))


def test_telegraph_only_on_enemy_seat_movement():
    rejects(face("防御 += 6 予告"), "E042", 4, 13)
    rejects(enemy("防御 += 5 毎 ターン開始時 予告"), "E042", 7, 22)
    accepts(enemy("座 += 4 毎 ターン開始時 予告"))


# ==================================================================== warnings


def test_unused_cell_scope_is_a_warning():
    found = rejects(face("敵HP -= 使用した歩[ステージ] × 0.1"), "W001", 4, 18)
    assert found.severity == "warning"
    rejects(face("条件 跨いだ回数[ステージ] >= 1", "敵HP -= 6"), "W001", 4, 14)
    accepts(face("敵HP -= 使用した歩[ターン] × 0.1"))


def test_anchored_scope_reads_the_next_column_up():
    """以降 n プレイ lies within no single turn: it reads the ターン column."""
    accepts(face("敵HP -= プレイ枚数[以降 3 プレイ] × 2"))            # ターン: ●
    rejects(face("敵HP -= 使用した歩[以降 2 ターン] × 0.1"), "W001", 4, 18)  # ステージ: ○


def test_tear_on_blank_page_is_a_warning():
    text = f"ページ t {{\n  銘 30\n  未来面 白紙{BOTH_PENS}\n  破却 {{ 攻撃力補正 += 2 }}\n}}\n"
    found = rejects(text, "W002", 4, 3)
    assert found.severity == "warning"
    assert "ペンで面を書いてから" in found.hint
    accepts(text.replace("未来面 白紙; ペン 未来面 { 歩 += 5 }", "未来面 { 敵HP -= 6 }"))


@pytest.mark.parametrize("text", ["", "\n\n", "  \n\t\n"])
def test_empty_file_is_a_warning(text):
    found = rejects(text, "W003", 1, 1)
    assert found.severity == "warning"


def test_file_with_content_is_not_empty():
    accepts(face("敵HP -= 6"))


# ================================================================ syntax and files


def test_word_out_of_place_is_a_syntax_error():
    rejects(face("敵HP 12", "防御 += 6"), "E001", 4, 9)
    accepts(face("敵HP -= 12", "防御 += 6"))


def test_unusable_character_is_rejected():
    rejects(face("敵HP -= 12 ＃ 一撃", "防御 += 6"), "E002", 4, 15)
    accepts(face("敵HP -= 12 # 一撃", "防御 += 6"))


def test_unclosed_definition_points_at_its_start():
    text = face("敵HP -= 6")
    rejects(text[: text.rindex("}")], "E003", 1, 1)
    accepts(text)


def test_unreadable_file_is_rejected(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.page").write_bytes(b"page t {\n  year \xff\n}\n")
    found = check([tmp_path / "t.page"]).diagnostics
    assert [(d.code, d.span.line, d.span.col) for d in found] == [("E004", 2, 8)]
    (tmp_path / "t.page").write_bytes("page t {\n  year 1; pen future { 歩 += 5 }; pen past { 歩 += 5 }\n}\n".encode())
    assert check([tmp_path / "t.page"]).diagnostics == []


def test_nesting_too_deep_is_rejected():
    deep = "(" * 40 + "12" + ")" * 40
    rejects(face(f"敵HP -= {deep}"), "E005", 4, 50)  # the 41st bracket: 2 braces + 39 "("
    accepts(face(f"敵HP -= {'(' * 30}12{')' * 30}"))


def test_deck_respects_the_balance_default_deck_cap():
    balance = bundled_balance()
    source = f"ページ p {{ 銘 1; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ {PEN} }} }}\nデッキ starter {{ p × 4 }}\n"
    assert codes(source, context={"b.balance": balance}) == ["E055"]
    assert codes(source.replace("× 4", "× 3"), context={"b.balance": balance}) == []


def test_telegraph_is_only_for_seat_movement_at_turn_start():
    enemy = "敵 e {{ HP 5; 座 9; 突破ライン 9; 予兆 [攻撃 1]; 特性 {{ 座 += 2 毎 {} 予告 }} }}\n"
    assert codes(enemy.format("ターン開始時"), "t.enemy") == []
    # a seat move at another timing is the seat rule's own E046 (DESIGN §6.1)
    assert codes(enemy.format("敵の行動後"), "t.enemy") == ["E046"]


def test_a_payment_is_never_negative():
    page = "ページ t {{ 銘 3; 未来面 {{ 支払う HP {} }}; ペン 過去面 {{ 歩 += 5 }} }}"
    assert codes(page.format("-5")) == ["E030"]
    assert codes(page.format("5")) == []


def test_an_empty_tear_block_is_rejected_like_an_empty_face():
    page = "ページ t {{ 銘 3; 未来面 {{ 敵HP -= 1 }}; 破却 {{ {} }}; ペン 過去面 {{ 歩 += 5 }} }}"
    assert codes(page.format("")) == ["E029"]
    assert codes(page.format("攻撃力補正 += 1")) == []


def test_a_file_of_only_comments_is_an_empty_file():
    assert codes("# まだ何も書いていない\n\n# あとで\n") == ["W003"]
    assert codes("# 一枚だけ\nページ t { 銘 3; 未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n") == []


@pytest.mark.parametrize("seat, cap, found", [(80, 80, []), (81, 80, ["E030"]), (95, 100, [])])
def test_an_enemy_seat_beyond_the_lifespan_cap_is_e030(seat, cap, found):
    """Spec 000 盤面: 「敵もまた、この直線上の1点に立っている」 — at most 寿命上限."""
    balance = re.sub(r"(?m)^(\s*寿命上限)\s+\d+", rf"\g<1> {cap}", bundled_balance())
    enemy = f'敵 e "E" {{\n  HP 10\n  座 {seat}\n  突破ライン 10\n  予兆 [ 攻撃 1 ]\n}}\n'
    diags = check_text(balance + enemy, "t.enemy").diagnostics
    assert [d.code for d in diags] == found
    if found:
        assert diags[0].message == f"座 {seat} は寿命上限 {cap} の先です"
        assert diags[0].span.line == balance.count("\n") + 3


def _face_diags(line: str):
    text = f"ページ t {{\n 銘 30\n 未来面 {{ {line} }}\n 過去面 {{ 敵HP -= 1 }}\n}}\n"
    return check_text(text, "t.page").diagnostics


def test_a_range_of_one_play_without_a_timing_never_fires_and_is_w004():
    """DESIGN §6.1 timings that never fire: a 範囲 without 毎 waits for the next play,
    and 範囲 プレイ ends with the play that placed it — a dead face, said. A modifier acts
    on the 作用 after it in the same play, so it is no such case."""
    (diag,) = _face_diags("防御 += 3 範囲 プレイ")
    assert (diag.code, diag.span.col) == ("W004", 16)
    assert "一度も発動しません" in diag.hint
    assert _face_diags("攻撃力補正 += 5 範囲 プレイ") == []
    assert _face_diags("防御 += 3 範囲 ターン") == []


@pytest.mark.parametrize("line, hint", [
    ("歩 += -5", "減らすなら 歩 -= 5"), ("通貨 += -5 固定", "減らすなら 通貨 -= 5"),
    ("敵HP -= -5", "増やすなら 敵HP += 5"), ("敵HP *= -1", "符号を変える作用はありません"),
    ("攻撃倍率 *= -0.9 範囲 ターン", "符号を変える作用はありません")])
def test_a_constant_below_zero_where_the_operator_gives_the_direction_is_e030(line, hint):
    """`歩 += -5` did nothing under 補正あり and took 5 under 固定; `敵HP *= -1` won the
    stage in one play: the sign is the operator's."""
    (diag,) = _face_diags(line)
    assert diag.code == "E030" and hint in diag.hint
    assert _face_diags("歩 *= 0") == [] and _face_diags("歩 -= 5") == []


def test_the_e067_hint_is_content_that_compiles():
    (diag,) = _face_diags("上限 破り回数上限 += 0.5 寿命 ステージ")
    assert diag.code == "E067"
    example = diag.hint.split("例: ", 1)[1].split("。", 1)[0]
    assert _face_diags(example) == []


@pytest.mark.parametrize("line, code, named", [
    ("敵HP -= 使用した歩[ステージ] × 0.5", "W001", "使用した歩[プレイ]、使用した歩[ターン]"),
    ("敵HP -= プレイ枚数[プレイ] × 3", "E022", "プレイ枚数[ターン]")])
def test_a_scope_subscript_message_names_the_subscripts_to_write(line, code, named):
    """W001 and E022 spoke of ●/○/× only: a designer new to the table learnt from lint
    alone what not to write, not what to write."""
    (diag,) = _face_diags(line)
    assert diag.code == code and named in diag.hint


def test_an_anchored_subscript_is_quoted_as_written():
    (diag,) = _face_diags("敵HP -= 増えた綻び[以降 2 プレイ] × 1")
    assert diag.code == "W001" and diag.message.startswith("増えた綻び[以降 2 プレイ] は")


@pytest.mark.parametrize("text, code, hint, fix", [
    ('敵 h "敵" { HP 0; 座 40; 突破ライン 30; 予兆 [攻撃 5] }', "E030",
     "HPには 1 から 1000000 までの整数を書きます", None),
    ('敵 h "敵" { HP 9; 座 40; 突破ライン 30; 予兆 [攻撃 1.5] }', "E030", "打点は小数点のない", None),
    ('敵 h "敵" { HP 9; 座 40; 突破ライン 30; 予兆 [攻撃 5]; 特性 { 封鎖 40..30 } }', "E030",
     "小さい方を先に書きます: 30..40", "30..40"),
    ("ページ p { 銘 3; 未来面 { 生成 銘 50..20 -> 手札 寿命 ステージ }; 過去面 白紙; ペン 過去面 { 歩 += 5 } }",
     "E030", "小さい方を先に書きます: 20..50", "20..50"),
    ("ページ p { 銘 3; 未来面 { 移動 1枚 手札 -> 手札 選択 }; 過去面 白紙; ペン 過去面 { 歩 += 5 } }",
     "E037", "移動先を移動元と別の領域にします", None),
    ("ページ p { 銘 3; 未来面 { 歩 += 6 ÷ 0 }; 過去面 白紙; ペン 過去面 { 歩 += 5 } }", "E032",
     "割る数を 0 以外にします", None),
    ("ページ p { 銘 3; 未来面 { 歩 += 6 }; 過去面 白紙; ペン 過去面 { 歩 += 5 } }\nデッキ d { }",
     "E014", "ページの id を1つずつ書きます", None),
])
def test_a_value_out_of_its_range_says_what_to_write_not_only_where_to_read(text, code, hint, fix):
    """These errors gave only 「詳しくは jibunki explain …」: each now says what to write,
    and a range written the wrong way round offers the swapped one as the quick fix."""
    found = [d for d in check_text(text, PATH).diagnostics if d.code == code]
    assert found and hint in found[0].hint, [(d.code, d.message, d.hint) for d in found]
    if fix is not None:
        assert found[0].replacements == (fix,)


def test_two_pages_of_one_name_are_W014_at_each_pointing_at_the_other():
    """--with, --page and analyze choose a page by name too, and the screens say it by
    name: two pages named alike (ids apart) linted clean. Said at both: at the second
    only, ``lint`` of a new file whose page took an older one's name was clean."""
    page = ('ページ {id} "アルバイト" {{ 銘 {year}; 未来面 {{ 敵HP -= 4 }}; 過去面 白紙;'
            ' ペン 過去面 {{ 歩 += 5 }} }}\n')
    text = page.format(id="baito", year=19) + page.format(id="baito2", year=24)
    first, second = [d for d in check_text(text, PATH).diagnostics if d.code == "W014"]
    assert (second.span.line, second.severity) == (2, "warning")
    assert second.message == "ページの名前「アルバイト」は baito にも付いています"
    assert [n.span.line for n in second.notes] == [1]
    assert first.span.line == 1 and first.message == "ページの名前「アルバイト」は baito2 にも付いています"
    assert [n.span.line for n in first.notes] == [2]
    new = check_text(page.format(id="baito2", year=24), "new.page",
                     {"old.page": page.format(id="baito", year=19)})
    assert [(d.code, d.span.path) for d in new.diagnostics] == [("W014", "new.page")]
    other = text.replace('baito2 "アルバイト"', 'baito2 "二つ目のアルバイト"')
    assert not [d for d in check_text(other, PATH).diagnostics if d.code == "W014"]


def test_an_origin_no_other_page_has_and_near_one_that_others_have_is_W015():
    """出自 少年時代 (meant 少年期) linted clean and made a life stage of one page, which
    生成 出自 少年期 then never picks."""
    page = ('ページ {id} {{ 銘 {year}; 出自 {origin}; 未来面 {{ 敵HP -= 4 }}; 過去面 白紙;'
            ' ペン 過去面 {{ 歩 += 5 }} }}\n')
    text = (page.format(id="a", year=12, origin="少年期") + page.format(id="b", year=14, origin="少年期")
            + page.format(id="c", year=15, origin="少年時代"))
    (said,) = [d for d in check_text(text, PATH).diagnostics if d.code == "W015"]
    assert said.span.line == 3 and said.replacements == ("少年期",)
    assert said.message == "出自「少年時代」のページはこれだけです" and "もしかして「少年期」？" in said.hint
    fixed = text.replace("少年時代", "少年期")
    assert not [d for d in check_text(fixed, PATH).diagnostics if d.code == "W015"]
    apart = text.replace("少年時代", "宇宙")  # a stage of its own, near no other: nothing said
    assert not [d for d in check_text(apart, PATH).diagnostics if d.code == "W015"]


def test_a_lone_origin_as_near_to_several_is_read_as_its_own_files_origin():
    """出自 幼年期 in 幼少期.page is one character from 幼少期 and from every …年期: the hint
    named 青年期 (difflib's tie), where the file's other pages say 幼少期. As near to two
    and neither the file's, both are named; as near to more, all are (the life stages
    are few, and a word near many of them is a slip still)."""
    page = ('ページ {id} {{ 銘 {year}; 出自 {origin}; 未来面 {{ 敵HP -= 4 }}; 過去面 白紙;'
            ' ペン 過去面 {{ 歩 += 5 }} }}\n')
    stages = ["幼少期", "青年期", "壮年期", "熟年期", "老年期", "少年期"]
    others = {f"{stage}.page": page.format(id=f"p{i}", year=1 + i, origin=stage)
              for i, stage in enumerate(stages)}
    mine = page.format(id="a", year=7, origin="幼少期") + page.format(id="b", year=8, origin="幼年期")

    def said(text, context):
        return [d for d in check_text(text, "幼少期2.page", context).diagnostics if d.code == "W015"]

    (one,) = said(mine, others)
    assert one.replacements == ("幼少期",) and "もしかして「幼少期」？" in one.hint
    two = {name: text for name, text in others.items() if name in ("幼少期.page", "青年期.page")}
    (both,) = said(page.format(id="b", year=8, origin="幼年期"), two)
    assert both.replacements == ("幼少期", "青年期")
    assert "もしかして「幼少期」か「青年期」？" in both.hint
    (many,) = said(page.format(id="b", year=8, origin="幼年期"), others)
    assert many.replacements == tuple(stages)


@pytest.mark.parametrize("written, what, shown", [
    ('"運動会の\\nリレー"', "改行", "運動会の\\nリレー"),
    ('"運動会の\\tリレー"', "タブ", "運動会の\\tリレー"),
    ('「運動会の\tリレー」', "タブ", "運動会の\\tリレー"),
    ('"運\\n動会の\\tリレー"', "改行とタブ", "運\\n動会の\\tリレー"),
])
def test_a_name_with_a_line_break_or_a_tab_is_W016_at_the_name_fixed_by_dropping_them(
        written, what, shown):
    """A name is shown on one line (the battle's screen, --with, the catalog, a card): the
    escapes \\n and \\t in it linted clean and split the screen's line there."""
    page = 'ページ a {title} {{ 銘 13; 未来面 {{ 敵HP -= 4 }}; 過去面 白紙; ペン 過去面 {{ 歩 += 5 }} }}\n'
    text = page.format(title=written)
    (said,) = [d for d in check_text(text, PATH).diagnostics if d.code == "W016"]
    assert said.severity == "warning" and said.message == f"名前「{shown}」に{what}があります"
    assert (said.span.line, said.span.col, said.span.end_col) == (1, 7, 7 + len(written))
    (fixed,) = said.replacements
    assert fixed in ('"運動会のリレー"', "「運動会のリレー」")
    after = check_text(page.format(title=fixed), PATH).diagnostics
    assert not [d for d in after if d.severity == "error" or d.code == "W016"]


def test_a_line_break_in_a_flavour_or_an_escaped_backslash_in_a_name_is_not_W016():
    """Only a name is shown on one line; a backslash written \\\\ before an n is no break."""
    text = ('ページ a "運動会の\\\\nリレー" { 銘 13; フレーバー "一行目\\n二行目"; '
            '未来面 { 敵HP -= 4 }; 過去面 白紙; ペン 過去面 { 歩 += 5 } }\n')
    assert not [d for d in check_text(text, PATH).diagnostics if d.code == "W016"]
