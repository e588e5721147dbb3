"""基準ページ — the balance names the page of the starting deck the balance lab swaps each
page for (issue 28: the Δ when swapped for a replacement-level page, the deck size held).

The key is optional; its value is a page id (E011 when no page has it, with a
did-you-mean) of the starting deck (E073 otherwise, its hint listing the deck's pages);
written twice it is E013 like every balance key. It is compiled into the balance's
literal (left out when not named), and ``jibunki sim`` measures the swap Δ against it
unless ``--reference`` names another page, ``--reference なし`` none, or ``--baseline``
measures the whole report swapped.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

import cli
from compiler.build import compile_content
from compiler.lint import check_text
from conftest import ROOT, bundled_balance
from contract import vocabulary as vocab
from dsl.position import place_at
from lsp.features import glossary
from runtime.tables import from_dicts, load

PAGES = """
ページ sakamichi "坂道の自転車" {
  銘 8
  未来面 { 敵HP -= 4 }
  過去面 白紙
  ペン 過去面 { 歩 += 6 }
}

ページ tabidachi "旅立ちの朝" {
  銘 36
  未来面 { 敵HP -= 6 }
  過去面 白紙
  ペン 過去面 { 歩 += 5 }
}

ページ kekkon "結婚" {
  銘 44
  未来面 { 敵HP -= 8 }
  過去面 白紙
  ペン 過去面 { 歩 += 5 }
}
"""
STARTER = "デッキ starter {\n  kekkon\n  sakamichi × 2\n}\n"


def with_reference(*lines: str) -> str:
    """The bundled balance with ``lines`` written before its 綻び報酬."""
    added = "".join(f"  {line}\n" for line in lines)
    return bundled_balance().replace("  綻び報酬 {", added + "  綻び報酬 {", 1)


def balance_diagnostics(*lines: str):
    text = with_reference(*lines)
    result = check_text(text, "b.balance", {"p.page": PAGES, "starter.deck": STARTER})
    return text, result.diagnostics


def line_of(text: str, setting: str) -> int:
    """The line of the setting that starts with ``setting`` (not of a comment naming it)."""
    return text[: text.index(f"\n  {setting}")].count("\n") + 2


# ------------------------------------------------------------------ checks


@pytest.mark.parametrize("line", ["基準ページ sakamichi", "reference kekkon"])
def test_a_page_of_the_starting_deck_is_a_valid_reference_in_either_spelling(line):
    assert balance_diagnostics(line)[1] == []


def test_the_reference_page_is_optional():
    assert balance_diagnostics()[1] == []


def test_a_reference_no_page_has_is_e011_at_the_value_with_a_did_you_mean():
    text, diags = balance_diagnostics("基準ページ sakamichl")
    assert [d.code for d in diags] == ["E011"]
    span = diags[0].span
    assert (span.line, span.col) == (line_of(text, "基準ページ"), len("  基準ページ ") + 1)
    assert "sakamichl" in diags[0].message and "sakamichi" in diags[0].hint


def test_a_reference_outside_the_starting_deck_is_e073_listing_the_decks_pages():
    text, diags = balance_diagnostics("基準ページ tabidachi")
    assert [d.code for d in diags] == ["E073"]
    assert diags[0].span.line == line_of(text, "基準ページ")
    assert "tabidachi" in diags[0].message and "はじめのデッキ" in diags[0].message
    # the deck's pages, each once, in the deck's order
    assert re.search(r"kekkon、sakamichi$", diags[0].hint), diags[0].hint


@pytest.mark.parametrize("value", ["3", "@夢", "sakamichi[ターン]"])
def test_a_reference_that_is_not_a_page_id_is_e011(value):
    text, diags = balance_diagnostics(f"基準ページ {value}")
    assert [d.code for d in diags] == ["E011"]
    assert "ページの id" in diags[0].message and "kekkon、sakamichi" in diags[0].hint


def test_a_reference_written_twice_is_the_duplicate_key_error():
    text, diags = balance_diagnostics("基準ページ sakamichi", "reference kekkon")
    assert [d.code for d in diags] == ["E013"]
    assert diags[0].span.line == line_of(text, "reference kekkon")
    assert diags[0].notes[0].span.line == line_of(text, "基準ページ")


def test_e073_has_an_explanation():
    from compiler.codes import CODES, explanation

    assert CODES["E073"].severity == "error"
    assert explanation("E073").startswith(f"# E073: {vocab.W.balance.reference}")


# ------------------------------------------------------------------ the tables


@pytest.fixture(scope="module")
def copied_content(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference") / "content"
    shutil.copytree(ROOT / "content", folder)
    return folder


def test_the_reference_is_compiled_into_the_balance_and_read_back(copied_content):
    compiled = compile_content(copied_content)
    assert compiled.ok, compiled.diagnostics[:3]
    assert compiled.tables["balance"]["balance"]["reference"] == "himitsu_kichi"
    assert from_dicts(compiled.tables).balance.reference == "himitsu_kichi"


def test_a_balance_without_reference_leaves_it_out_of_the_literal(tmp_path):
    folder = tmp_path / "content"
    shutil.copytree(ROOT / "content", folder)
    (folder / "balance.balance").write_text(bundled_balance(), encoding="utf-8")
    compiled = compile_content(folder)
    assert compiled.ok, compiled.diagnostics[:3]
    assert "reference" not in compiled.tables["balance"]["balance"]
    assert from_dicts(compiled.tables).balance.reference is None


def test_the_bundled_tables_name_a_page_of_the_starting_deck():
    tables = load()
    assert tables.balance.reference in tables.starter()


def test_the_reference_is_no_part_of_the_lab_cache_key(copied_content):
    from sim.cache import Keys

    literal = compile_content(copied_content).tables
    other = json.loads(json.dumps(literal))
    other["balance"]["balance"]["reference"] = "kekkon"
    key = Keys(literal).series(("sakamichi",), "greedy", 60, None, ("haguruma",), ("won",))
    assert Keys(other).series(("sakamichi",), "greedy", 60, None, ("haguruma",),
                              ("won",)) == key


# ------------------------------------------------------------------ the editor


def test_after_the_reference_key_the_page_ids_stand():
    text = "バランス {\n  基準ページ "
    assert place_at(text, len(text)).name == "page_id"
    text = "バランス {\n  初期刻 "
    assert place_at(text, len(text)).name != "page_id"


def test_the_reference_key_hover_says_it_takes_a_page():
    (markdown,) = glossary("基準ページ")
    assert "はじめのデッキのページ id" in markdown and "省略可" in markdown


# ------------------------------------------------------------------ jibunki sim

FAST = ("--format", "json", "--enemy", "haguruma", "--page", "tabidachi", "--policy", "random",
        "--precision", "0.1", "--max-pairs", "100", "--workers", "1")


def sim(*args) -> dict:
    result = CliRunner().invoke(cli.main, ["sim", *FAST, *args])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return json.loads(result.stdout)


def test_sim_swaps_for_the_balances_reference_by_default():
    report = sim()
    assert report["settings"]["reference"] == load().balance.reference == "himitsu_kichi"
    assert report["pages"][0]["swap_delta"]["pairs"] > 0


def test_sim_reference_option_overrides_the_balance():
    report = sim("--reference", "kekkon")
    assert report["settings"]["reference"] == "kekkon"
    assert report["pages"][0]["swap_delta"]["pairs"] > 0


def test_sim_reference_nashi_measures_no_swap():
    report = sim("--reference", "なし")
    assert report["settings"]["reference"] is None
    assert report["pages"][0]["swap_delta"] is None


def test_sim_baseline_leaves_the_balances_reference_unused():
    report = sim("--baseline", "kekkon")
    assert report["settings"]["baseline_page"] == "kekkon"
    assert report["settings"]["reference"] is None
