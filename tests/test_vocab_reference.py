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
          "condition_word": vocab.CONDITION_WORDS, "tile": vocab.TILE_KINDS}


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
    assert listed == {(section, t.code) for section, terms in TABLES.items() for t in terms}


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
        terms = TABLES[row.section]
        assert next(t for t in terms if t.code == row.code).ja == row.ja


def test_every_entry_has_its_glossary_meaning_in_japanese():
    """Issue 18 item 6: each term carries its one-line meaning, in Japanese, in the
    vocabulary table; the reference shows it, not a description of its table."""
    for section, terms in TABLES.items():
        for term in terms:
            assert term.meaning and not term.meaning.isascii(), (section, term.code)
            assert "\n" not in term.meaning, (section, term.code)
    rows = json.loads(run("--format", "json").output)
    for row in rows:
        term = next(t for t in TABLES[row["section"]] if t.code == row["code"])
        assert row["meaning"] == term.meaning
    shown = run().output
    assert all(term.meaning in shown for terms in TABLES.values() for term in terms)


def test_a_row_anchor_is_its_section_and_code():
    anchors = [row.anchor for row in reference.entries()]
    assert len(set(anchors)) == len(anchors)  # プレイ is a scope and a lifetime: two anchors
    assert "scope-play" in anchors and "lifetime-play" in anchors
