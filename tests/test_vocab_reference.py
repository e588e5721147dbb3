"""``jibunki vocab``: the vocabulary reference is read from the vocabulary table."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from contract import reference
from contract import vocabulary as vocab

TABLES = {"variable": (*vocab.VARIABLES, vocab.FLAG), "counter": vocab.COUNTERS,
          "timing": vocab.TIMINGS, "region": vocab.REGIONS, "lifetime": vocab.LIFETIMES,
          "operation": vocab.OPERATIONS, "scope": (*vocab.SCOPES, vocab.ANCHORED_SCOPE),
          "landing": vocab.LANDINGS, "pick": vocab.PICKS,
          "condition_word": vocab.CONDITION_WORDS, "tile": vocab.TILE_KINDS,
          "destination": vocab.DESTINATIONS, "anchor_unit": vocab.ANCHOR_UNITS,
          "intent": vocab.INTENT_KINDS, "trait": vocab.TRAITS, "balance": vocab.BALANCE_KEYS,
          "quantity": vocab.BATTLE_QUANTITIES, "event": vocab.EVENTS, "measure": vocab.MEASURES,
          "report": vocab.REPORT_TERMS, "player": vocab.PLAYERS}


def meaning(term) -> str:
    """A term's one line: its meaning, or for a term of a table that gives only a note
    (特性, Intent の種類, バランスの項目 …) its note."""
    return term.meaning or term.note


def keyword_code(spelled: tuple) -> str:
    return next(s for s in spelled if s.isascii())


def run(*args):
    return CliRunner().invoke(main, ["vocab", *args])


def test_every_term_of_the_vocabulary_appears():
    result = run()
    assert result.exit_code == 0, result.output
    for terms in TABLES.values():
        for term in terms:
            assert any(l.lstrip().startswith(term.ja) and f" {term.code} " in l
                       for l in result.output.splitlines()), term
    listed = {(row["section"], row["code"]) for row in json.loads(run("--format", "json").output)}
    assert listed == {(section, t.code) for section, terms in TABLES.items() for t in terms} | {
        ("keyword", keyword_code(spelled)) for spelled in vocab.KEYWORDS.values()}


@pytest.mark.parametrize("term, section", [
    ("突破ライン", "キーワード"), ("不動", "特性"), ("加速", "特性"), ("攻撃", "Intent の種類"),
    ("未来面", "キーワード"), ("破却", "キーワード"), ("寿命上限", "バランスの項目"),
    ("勝利", "例で確かめる量"), ("除外（ラン）", "プレイ後の行き先"), ("勝率差", "目標の量"),
    ("迷う選択肢", "測定の語"), ("解き手", "測定の語"), ("未達", "測定の語"), ("contenders", "測定の語")])
def test_every_glossary_word_a_designer_writes_or_reads_is_in_the_vocabulary(term, section):
    """The glossary's terms of enemies (特性, Intent), faces and keywords, balance keys and
    what an example checks are in ``jibunki vocab`` under their own heading — not a
    did-you-mean to another concept (不動 → 移動, 突破ライン → ラン)."""
    result = run(term)
    assert result.exit_code == 0, result.output
    assert section in result.output.splitlines()


def test_a_counters_scope_marks_match_the_vocabulary():
    rows = json.loads(run("--format", "json").output)
    for counter in vocab.COUNTERS:
        row = next(r for r in rows if r["section"] == "counter" and r["code"] == counter.code)
        assert [row["scopes"][s]["cell"] for s in vocab.SCOPE_ORDER] == list(counter.cells)
        text = run(counter.code).output.splitlines()[1]
        assert text.split(counter.code)[1].split()[:4] == list(counter.cells)


@pytest.mark.parametrize("spelling", ["跨いだ回数", "crossings"])
def test_lookup_by_either_spelling(spelling):
    result = run(spelling)
    assert result.exit_code == 0, result.output
    assert "跨いだ回数" in result.output and "crossings" in result.output
    assert "敵HP" not in result.output  # one entry, not the whole table


def test_lookup_by_an_alias_spelling():
    assert "steps_used" in run("移動量").output


@pytest.mark.parametrize("typed, meant", [
    ("ｓｔｅｐｓ", "steps"),              # full-width letters, as an IME types them
    ("STEPS", "steps"),
    ("Crossings", "crossings"),
    ("使用した歩[ターン]", "使用した歩"),   # a counter copied from a page with its scope
    ("使用した歩［ターン］", "使用した歩"),
    ("ｓｔｅｐｓ＿ｕｓｅｄ[プレイ]", "steps_used"),
    ("らんだむ", "ランダム"),             # hiragana for a katakana word
    ("ﾗﾝﾀﾞﾑ", "ランダム"),                # half-width kana
    ("壽命上限", "寿命上限"),              # a variant kanji (contract.typed.VARIANT_FORMS)
    ("支拂い", "支払い"),
])
def test_a_term_typed_or_copied_loosely_finds_its_entry(typed, meant):
    result = run(typed)
    assert result.exit_code == 0, result.output
    assert result.output == run(meant).output


def test_an_unknown_term_is_a_usage_error_with_a_suggestion():
    result = run("跨いだ回教")
    assert result.exit_code == 2
    assert "もしかして「跨いだ回数」？" in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(
        result.exception, SystemExit)


def test_the_reference_names_no_term_itself():
    """Rows come from the tables: each row's name is its term's."""
    for row in reference.entries():
        if row.section == "keyword":
            assert any(s[0] == row.ja for s in vocab.KEYWORDS.values())
            continue
        terms = TABLES[row.section]
        assert next(t for t in terms if t.code == row.code).ja == row.ja


def test_every_entry_has_its_glossary_meaning_in_japanese():
    """Issue 18 item 6: each term carries its one-line meaning, in Japanese, in the
    vocabulary table; the reference shows it, not a description of its table."""
    for section, terms in TABLES.items():
        for term in terms:
            assert meaning(term) and not meaning(term).isascii(), (section, term.code)
            assert "\n" not in meaning(term), (section, term.code)
    rows = json.loads(run("--format", "json").output)
    for row in rows:
        if row["section"] == "keyword":
            continue
        term = next(t for t in TABLES[row["section"]] if t.code == row["code"])
        assert row["meaning"] == meaning(term)
    shown = run().output
    assert all(meaning(term) in shown for terms in TABLES.values() for term in terms)


def test_a_row_anchor_is_its_section_and_code():
    anchors = [row.anchor for row in reference.entries()]
    assert len(set(anchors)) == len(anchors)  # プレイ is a scope and a lifetime: two anchors
    assert "scope-play" in anchors and "lifetime-play" in anchors
