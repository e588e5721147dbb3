"""目標 (balance targets): what a designer states the balance should be, through the whole
pipeline — parse, the checks (E058–E061, with E010/E013/E033 where those already say it),
the tables (``BalanceTarget`` in fractions), the JSON Schema, the codec and the catalog.

Lint tests assert the code, line:col and caret of the diagnostic on a rejecting input and
that the corrected input is clean, in the style of tests/test_rules.py. ``enemy_with`` and
``page_with`` put the 目標 line on line 6 and line 3, column 3.
"""

from __future__ import annotations

import ast as pyast
import copy
import json
import unicodedata
from dataclasses import replace

import pytest

from catalog.render import _enemy_view, _page_view
from compiler.build import schema_errors
from compiler.emit import render_json, render_module
from compiler.lint import check_text
from contract import vocabulary as vocab
from contract.codec import ContractError, from_literal, to_literal
from contract.tables import SCHEMA_VERSION, BalanceTarget, EnemiesTable, Page, PagesTable
from dsl.diagnostics import render
from test_rules import accepts, rejects

ENEMY_LINE, PAGE_LINE = 6, 3


def enemy_with(*lines: str) -> str:
    """An enemy whose fields end with ``lines``: the first is line 6, column 3."""
    return "\n".join(["敵 e {", "  HP 150", "  座 42", "  突破ライン 60", "  予兆 [ 攻撃 16 ]",
                      *(f"  {line}" for line in lines), "}"]) + "\n"


def page_with(*lines: str) -> str:
    """A page whose fields start with ``lines``: the first is line 3, column 3."""
    return "\n".join(["ページ p {", "  銘 30", *(f"  {line}" for line in lines),
                      "  未来面 { 敵HP -= 3 }", "  ペン 過去面 { 防御 += 3 }", "}"]) + "\n"


def target_of(text: str, kind: str = "enemies") -> BalanceTarget | None:
    """The checked 目標 of the first enemy (or page) of a clean text."""
    result = check_text(text, "t.page")
    assert result.errors == 0, [(d.code, d.span.line, d.span.col, d.message)
                                for d in result.diagnostics]
    return result.model[kind][0].target


def caret(text: str, code: str, line: int, col: int, width: int):
    """``text`` gives exactly one diagnostic, ``code`` at line:col, rendered with
    path:line:col, the code, a caret ``width`` columns wide under the span (a wide
    character takes two), and a hint."""
    found = rejects(text, code, line, col)
    shown = render(found, {"t.page": text})
    assert shown.startswith(f"t.page:{line}:{col}: エラー[{code}]: "), shown
    pad = _columns(text.split("\n")[line - 1][:col - 1])
    assert f"| {' ' * pad}{'^' * width}\n" in shown, shown
    assert "= ヒント: " in shown
    return found


# ================================================================== parsing


@pytest.mark.parametrize("line", [
    "目標 勝率 40%〜70%",            # the Japanese range symbol, as the catalog shows it
    "目標 勝率 40%..70%",            # the ASCII range symbol, as 封鎖 28..32
    "目標 勝率 40 % 〜 70 %",        # spaces are free
    "目標 勝率 40％〜70％",          # the full-width % of a Japanese IME
    "target win_rate 40%..70%",     # every word by its ASCII alias
])
def test_an_enemy_target_parses_in_each_spelling_to_fractions(line):
    assert target_of(enemy_with(line)) == BalanceTarget(0.4, 0.7)


@pytest.mark.parametrize("line, low, high", [
    ("目標 勝率差 -5%〜+5%", -0.05, 0.05),
    ("目標 勝率差 −10%〜15%", -0.1, 0.15),          # the minus sign U+2212, no plus
    ("target win_rate_delta -2.5% .. +12.5%", -0.025, 0.125),
    ("目標 勝率差 0%〜0%", 0.0, 0.0),
])
def test_a_page_target_parses_signed_percentages_to_fractions(line, low, high):
    assert target_of(page_with(line), "pages") == BalanceTarget(low, high)


def test_a_target_is_optional_and_absent_means_none():
    assert target_of(enemy_with()) is None
    assert target_of(page_with(), "pages") is None


def test_the_japanese_range_symbol_is_a_range_everywhere():
    # 〜 is the Japanese spelling of .. (like → of ->): a 封鎖 takes it too.
    def blockade(text):
        return check_text(text, "t.page").model["enemies"][0].traits[0]
    assert blockade(enemy_with("特性 { 封鎖 28〜32 }")) == blockade(enemy_with("特性 { 封鎖 28..32 }"))


@pytest.mark.parametrize("symbol, meant", [("~", "「..」か「〜」"), ("～", "「〜」（波ダッシュ）")])
def test_a_tilde_for_the_range_is_refused_with_the_symbol_meant(symbol, meant):
    found = caret(enemy_with(f"目標 勝率 40%{symbol}70%"), "E002", ENEMY_LINE, 12,
                  _columns(symbol))
    assert meant in found.hint


@pytest.mark.parametrize("line, col, width", [
    ("目標 40%〜70%", 6, 2),          # no measure: at the number
    ("目標 勝率 40%", 12, 1),         # no range: at the end of the line
])
def test_a_target_without_measure_or_range_shows_the_form(line, col, width):
    found = caret(enemy_with(line), "E001", ENEMY_LINE, col, width)
    assert "目標 勝率 40%〜70%" in found.hint and "目標 勝率差 -5%〜+5%" in found.hint


# ============================================================== the checks


def test_the_measure_must_fit_the_item_E058():
    found = caret(enemy_with("目標 勝率差 -5%〜+5%"), "E058", ENEMY_LINE, 6, 6)
    assert "目標 勝率 40%〜70%" in found.hint
    found = caret(page_with("目標 勝率 40%〜70%"), "E058", PAGE_LINE, 6, 4)
    assert "目標 勝率差 -5%〜+5%" in found.hint
    accepts(enemy_with("目標 勝率 40%〜70%"))
    accepts(page_with("目標 勝率差 -5%〜+5%"))


def test_an_unknown_measure_gets_a_did_you_mean_E010():
    found = caret(enemy_with("目標 勝立 40%〜70%"), "E010", ENEMY_LINE, 6, 4)
    assert found.hint == "もしかして「勝率」？"


@pytest.mark.parametrize("line, col, width, written", [
    ("目標 勝率 0.4〜70%", 9, 3, "40%"),        # a fraction: read as the tables hold it
    ("目標 勝率 40%〜70", 13, 2, "70%"),        # a number: read as meant in percent
])
def test_a_bound_without_percent_says_how_to_write_it_E059(line, col, width, written):
    found = caret(enemy_with(line), "E059", ENEMY_LINE, col, width)
    assert f"は {written} と書きます" in found.hint


def test_a_range_written_high_to_low_is_refused_whole_E060():
    found = caret(enemy_with("目標 勝率 70%〜40%"), "E060", ENEMY_LINE, 9, 8)
    assert found.hint.endswith("目標 勝率 40%〜70%")
    found = caret(page_with("目標 勝率差 +5%..-5%"), "E060", PAGE_LINE, 10, 8)
    assert found.hint.endswith("目標 勝率差 -5%〜+5%")


@pytest.mark.parametrize("text, line, col, width", [
    (enemy_with("目標 勝率 40%〜120%"), ENEMY_LINE, 13, 4),
    (enemy_with("目標 勝率 -10%〜70%"), ENEMY_LINE, 9, 4),
    (page_with("目標 勝率差 -150%〜+5%"), PAGE_LINE, 10, 5),
    (page_with("目標 勝率差 -5%〜+100.5%"), PAGE_LINE, 14, 7),
])
def test_a_bound_outside_what_the_measure_can_take_E061(text, line, col, width):
    caret(text, "E061", line, col, width)


def test_the_extremes_are_targets_a_designer_may_write():
    assert target_of(enemy_with("目標 勝率 0%〜100%")) == BalanceTarget(0.0, 1.0)
    assert target_of(page_with("目標 勝率差 -100%〜+100%"), "pages") == BalanceTarget(-1.0, 1.0)


def test_a_target_written_twice_is_E013_pointing_at_the_first():
    found = caret(enemy_with("目標 勝率 40%〜70%", "目標 勝率 30%〜60%"), "E013",
                  ENEMY_LINE + 1, 3, 18)
    assert [(n.message, n.span.line, n.span.col) for n in found.notes] == [
        ("最初の記述", ENEMY_LINE, 3)]


def test_a_bound_too_large_to_be_a_number_is_E033():
    caret(page_with("目標 勝率差 0%〜1e999%"), "E033", PAGE_LINE, 13, 6)


# ================================================================ the tables


def test_the_bundled_tables_carry_targets_as_fractions(bundled_tables):
    enemy = bundled_tables.enemies["haguruma"]
    assert isinstance(enemy.target, BalanceTarget)
    assert 0 <= enemy.target.low <= enemy.target.high <= 1
    page = bundled_tables.pages["tabidachi"]
    assert (page.target.low, page.target.high) == (-0.1, 0.15)
    with_targets = [e for e in bundled_tables.enemies.values() if e.target]
    assert len(with_targets) >= 3
    assert [p for p in bundled_tables.pages.values() if p.target]


def test_an_item_without_a_target_leaves_it_out_of_its_literal():
    page = check_text(page_with(), "t.page").model["pages"][0]
    assert "target" not in to_literal(page)
    assert from_literal(Page, to_literal(page)).target is None


def test_the_codec_round_trips_a_target_through_the_emitted_text():
    result = check_text(enemy_with("目標 勝率 40%〜70%") + page_with("目標 勝率差 -5%〜+5%"), "t.page")
    enemy, page = result.model["enemies"][0], result.model["pages"][0]
    tables = {"enemies": to_literal(EnemiesTable(SCHEMA_VERSION, {"e": enemy})),
              "pages": to_literal(PagesTable(SCHEMA_VERSION, {"p": page}))}
    assert tables["enemies"]["enemies"]["e"]["target"] == {"low": 0.4, "high": 0.7}
    for name, cls, item in (("enemies", EnemiesTable, enemy), ("pages", PagesTable, page)):
        module = render_module(name, tables[name])
        for literal in (pyast.literal_eval(module.split("TABLE = ", 1)[1]),
                        json.loads(render_json(name, tables[name]))):
            decoded = from_literal(cls, literal)
            assert next(iter(getattr(decoded, name).values())) == item


def test_the_codec_refuses_a_target_outside_a_fraction():
    literal = to_literal(check_text(page_with("目標 勝率差 -5%〜+5%"), "t.page").model["pages"][0])
    literal["target"]["high"] = 5
    with pytest.raises(ContractError, match="target.high"):
        from_literal(Page, literal)


def _schema_table(target) -> dict:
    """The enemies table of one enemy whose target literal is ``target`` (None: left out)."""
    enemy = check_text(enemy_with("目標 勝率 40%〜70%"), "t.page").model["enemies"][0]
    table = to_literal(EnemiesTable(SCHEMA_VERSION, {"e": enemy}))
    if target is None:
        del table["enemies"]["e"]["target"]
    else:
        table["enemies"]["e"]["target"] = target
    return table


@pytest.mark.parametrize("target", [None, {"low": 0.4, "high": 0.7}, {"low": -1, "high": 1}])
def test_the_schema_accepts_a_target_or_none(target):
    assert schema_errors("enemies", _schema_table(target)) == []


@pytest.mark.parametrize("target, where", [
    ({"low": 0.4}, "enemies.e.target"),                       # a bound missing
    ({"low": 0.4, "high": 1.5}, "enemies.e.target"),          # not a fraction
    ({"low": "40%", "high": 0.7}, "enemies.e.target"),        # percent text, not a number
    ({"low": 0.4, "high": 0.7, "mid": 0.5}, "enemies.e.target"),  # an unknown key
])
def test_the_schema_rejects_a_malformed_target(target, where):
    problems = schema_errors("enemies", _schema_table(copy.deepcopy(target)))
    assert problems and all(p.startswith(f"enemies: {where}") for p in problems), problems


# ================================================================= the catalog


def test_the_catalog_shows_a_target_as_plain_text(bundled_tables):
    assert _enemy_view(bundled_tables.enemies["haguruma"], {})["target"] == "目標 勝率 50%〜95%"
    view = _page_view(bundled_tables.pages["tabidachi"], bundled_tables, {}, {})
    assert view["target"] == "目標 勝率差 -10%〜+15%"
    assert _enemy_view(replace(bundled_tables.enemies["haguruma"], target=None), {})["target"] is None


@pytest.mark.parametrize("code, fraction, shown", [
    ("win_rate", 0.4, "40%"), ("win_rate", 0.125, "12.5%"), ("win_rate_delta", 0.15, "+15%"),
    ("win_rate_delta", -0.05, "-5%"), ("win_rate_delta", 0.0, "0%"), ("win_rate_delta", -0.0, "0%"),
])
def test_a_measure_shows_a_fraction_as_a_percentage(code, fraction, shown):
    assert vocab.lookup("measure", code).percent(fraction) == shown


# ------------------------------------------------------------------ helpers


@pytest.fixture(scope="module")
def bundled_tables():
    from conftest import ROOT, compiled_tables

    return compiled_tables(ROOT / "content")


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes (East Asian wide characters two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_an_intent_list_written_twice_is_E013_pointing_at_the_first():
    found = rejects(enemy_with("予兆 [ 攻撃 3 ]"), "E013", 6, 3)
    assert [(n.message, n.span.line, n.span.col) for n in found.notes] == [("最初の記述", 5, 3)]
