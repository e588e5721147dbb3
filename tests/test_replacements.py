"""Diagnostic.replacements: what a did-you-mean names, the spaced form of a keyword and a
number run together, the half-width symbol of a full-width slip, the counter with each
scope it may take — kept as data beside the hint (an editor's quick fix writes it over the
diagnostic's span), the same in lint's JSON and through the lint cache."""

from __future__ import annotations

import json

import pytest

from compiler.lint import check_text
from dsl.diagnostics import to_json

PAGE = "ページ t {{\n  銘 3\n  未来面 {{ {effect} }}\n  過去面 白紙; ペン 過去面 {{ 歩 += 5 }}\n}}\n"
OTHER = {"o.page": "ページ other {\n  銘 4\n  出自 青年期\n  未来面 { 敵HP -= 1 }\n  過去面 白紙; ペン 過去面 { 歩 += 5 }\n}\n",
         "e.enemy": "敵 haguruma {\n  HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1]\n}\n"}


def _found(text: str, code: str):
    diags = [d for d in check_text(text, "t.page", OTHER).diagnostics if d.code == code]
    assert len(diags) == 1, diags
    return diags[0]


def _written(text: str, diag) -> str:
    line = text.split("\n")[diag.span.line - 1]
    return line[diag.span.col - 1:diag.span.end_col - 1]


@pytest.mark.parametrize("effect, code, wrong, meant", [
    ("敵HP -= 使用した歩 × 0.5", "E021", "使用した歩",
     ("使用した歩[プレイ]", "使用した歩[ターン]")),  # the ● scopes: ○ ones are W001
    ("移動量 += 1", "E020", None, ()),  # no guess: no replacement
    ("敵HQ -= 3", "E010", "敵HQ", ("敵HP",)),
    ("攻撃力補正 += 3 範囲 以降3プレイ", "E010", "以降3プレイ", ("以降 3 プレイ",)),
    ("敵HP ＋＝ 3", "E002", "＋＝", ("+=",)),
    ("移動 1枚 手札 -> 山札 ページ指定 othre", "E011", "othre", ("other",)),
    ("生成 出自 青年 銘 0..9 -> 手札", "E011", "青年", ("青年期",)),
    ("敵HP -= 3 最大2回", "E001", "最大2回", ("最大 2 回",)),
])
def test_a_diagnostic_carries_what_may_be_written_in_place_of_its_span(effect, code, wrong,
                                                                       meant):
    text = PAGE.format(effect=effect)
    diag = _found(text, code)
    assert diag.replacements == meant
    if wrong is not None:
        assert _written(text, diag) == wrong


@pytest.mark.slow
def test_every_scope_a_quick_fix_offers_for_a_counter_lints_clean():
    """跨いだ回数 without its scope was offered [ステージ] and [ラン] too, each a W001 (a ○
    scope): a quick fix is to leave the line clean."""
    from contract import vocabulary as vocab

    for counter in vocab.tables()["counter"].entries:
        text = PAGE.format(effect=f"敵HP -= {counter.ja} × 2")
        found = [d for d in check_text(text, "t.page", OTHER).diagnostics if d.code == "E021"]
        if not found:
            continue
        assert found[0].replacements, counter.ja
        for fix in found[0].replacements:
            fixed = PAGE.format(effect=f"敵HP -= {fix} × 2")
            assert list(check_text(fixed, "t.page", OTHER).diagnostics) == [], (counter.ja, fix)


def test_a_keyword_homophone_is_replaced_by_the_keyword():
    text = "ページ t {\n  名 19\n  未来面 { 敵HP -= 3 }\n  過去面 白紙\n}\n"
    diag = _found(text, "E001")
    assert diag.replacements == ("銘",) and _written(text, diag) == "名"


def test_an_example_enemy_and_quantity_typo_are_replaced_by_the_names_meant():
    text = "例 {\n  敵 hagurma\n}\n例 {\n  敵 haguruma\n  確認 敵HQ == 5\n}\n"
    from scenario.stage import lint_text

    diags = lint_text(text, "t.scenario", OTHER).diagnostics
    assert {(d.code, d.replacements) for d in diags} == {("E011", ("haguruma",)),
                                                        ("E057", ("敵HP",))}


def test_lint_json_lists_the_replacements():
    result = check_text(PAGE.format(effect="敵HQ -= 3"), "t.page", OTHER)
    (entry,) = json.loads(to_json(result.diagnostics))
    assert entry["replacements"] == ["敵HP"]


def test_a_name_written_without_its_bracketed_qualifier_is_offered_every_one():
    """行き先 除外: 除外（ステージ） and 除外（ラン） are as close as each other; only the
    run's was offered, and it lints clean, so the fix silently chose the stronger one."""
    from compiler.lint import check_text

    text = ('ページ q "Q" {\n  銘 15\n  行き先 除外\n  未来面 { 敵HP -= 6 }\n'
            '  過去面 { 防御 += 5 }\n}\n')
    (found,) = [d for d in check_text(text, "t.page").diagnostics if d.code == "E010"]
    assert found.replacements == ("除外（ステージ）", "除外（ラン）")
    assert found.hint == "もしかして「除外（ステージ）」か「除外（ラン）」？"


@pytest.mark.parametrize("written, meant", [("てきHP -= 6", "敵HP"), ("ぼうぎょ += 5", "防御"),
                                            ("つうか += 5", "通貨")])
def test_a_word_left_in_kana_by_the_ime_is_offered_the_word_it_reads_as(written, meant):
    """てきHP was offered HP (closer by spelling): 「HP -= 6」 pays the player's own HP, a new
    error (E062). A word the IME left unconverted is the word of that reading (READINGS)."""
    from compiler.lint import check_text

    text = f'ページ q "Q" {{\n  銘 15\n  未来面 {{ {written} }}\n  過去面 {{ 防御 += 5 }}\n}}\n'
    (found,) = [d for d in check_text(text, "t.page").diagnostics if d.code == "E010"]
    assert found.replacements[0] == meant, found.hint
    fixed = text.replace(written.split()[0], meant, 1)
    assert not [d for d in check_text(fixed, "t.page").diagnostics if d.is_error]
