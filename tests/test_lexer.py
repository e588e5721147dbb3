"""The Pygments lexer of the content language (catalog.lexer): tokens of sample lines."""

from __future__ import annotations

import pytest
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String

from catalog.lexer import JibunkiLexer, word_tokens
from conftest import ROOT
from contract import vocabulary as vocab


def _tokens(line: str) -> list[tuple[object, str]]:
    return [(token, text) for _, token, text in JibunkiLexer().get_tokens_unprocessed(line)
            if text.strip()]


def test_a_page_head_is_a_declaration_keyword_an_id_and_a_string():
    assert _tokens('ページ tabidachi "旅立ちの朝" {') == [
        (Keyword.Declaration, "ページ"), (Name, "tabidachi"), (String.Double, '"旅立ちの朝"'),
        (Punctuation, "{")]


@pytest.mark.parametrize("spelling", [w for rule in vocab.ITEM_KEYWORDS
                                      for w in vocab.KEYWORDS[rule]])
def test_every_item_keyword_journey_items_included_is_a_declaration_and_its_id_a_name(spelling):
    # the parser's items (contract.vocabulary.ITEM_KEYWORDS): ロケーション and 旅の準備 as
    # much as ページ; バランス and 例 are followed by a title, not an id
    head = _tokens(f'{spelling} 草案 「題」 {{')
    assert head[0] == (Keyword.Declaration, spelling)
    assert head[1] == (Name, "草案")


def test_an_effect_line_marks_its_variable_counter_scope_operator_and_number():
    assert _tokens("敵HP -= 使用した歩[プレイ] × 0.5  # 一撃") == [
        (Name.Builtin, "敵HP"), (Operator, "-="), (Name.Builtin, "使用した歩"),
        (Punctuation, "["), (Name.Constant, "プレイ"), (Punctuation, "]"),
        (Operator, "×"), (Number, "0.5"), (Comment.Single, "# 一撃")]


def test_a_tail_marks_its_keywords_and_the_timing_and_lifetime_words():
    assert _tokens("防御 += 3 寿命 ターン 毎 ターン開始時 最大 2 回") == [
        (Name.Builtin, "防御"), (Operator, "+="), (Number, "3"), (Keyword, "寿命"),
        (Name.Constant, "ターン"), (Keyword, "毎"), (Name.Constant, "ターン開始時"),
        (Keyword, "最大"), (Number, "2"), (Keyword, "回")]


def test_a_word_is_whole_a_name_that_starts_with_a_term_is_a_name():
    assert _tokens("歩兵 ターン開始時の 「歩」") == [
        (Name, "歩兵"), (Name, "ターン開始時の"), (String.Double, "「歩」")]


def test_a_keyword_after_a_number_a_flag_and_the_ascii_aliases():
    assert _tokens("複製 1枚 @夢 next 3 play") == [
        (Keyword, "複製"), (Number, "1"), (Keyword, "枚"), (Name.Variable, "@夢"),
        (Keyword, "next"), (Number, "3"), (Keyword, "play")]


def test_every_keyword_and_term_spelling_of_the_vocabulary_has_its_token():
    words = word_tokens()
    for rule, spellings in vocab.KEYWORDS.items():
        for spelling in spellings:
            assert words[spelling] in Keyword, spelling
    for lookup in vocab.tables().values():
        for spelling in lookup.spellings():
            assert spelling in words, spelling


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "content").rglob("*")
                                        if p.is_file()), ids=lambda p: p.name)
def test_bundled_files_lex_back_to_their_text_with_no_error_token(path):
    from pygments.token import Error

    text = path.read_text(encoding="utf-8")
    found = list(JibunkiLexer().get_tokens_unprocessed(text))
    assert "".join(t for _, _, t in found) == text
    assert not [t for _, token, t in found if token in Error]


def test_the_lexer_reads_every_kind_of_content_file_the_compiler_reads():
    from compiler.read import CONTENT_SUFFIXES

    assert JibunkiLexer.filenames == [f"*{suffix}" for suffix in CONTENT_SUFFIXES]


def test_the_lexer_is_registered_as_a_pygments_plugin(tmp_path, monkeypatch):
    # pyproject's entry point, as an installed distribution declares it (a dist-info of
    # its own: the editable install in use may predate the declaration), found by Pygments
    import tomllib

    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["entry-points"]["pygments.lexers"]
    assert declared == {"jibunki": "catalog.lexer:JibunkiLexer"}
    info = tmp_path / "jibunki_lexer_probe-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: jibunki-lexer-probe\n"
                                   "Version: 0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[pygments.lexers]\n" + "".join(f"{k} = {v}\n" for k, v in declared.items()),
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert type(get_lexer_by_name("jibunki")) is JibunkiLexer
    assert type(get_lexer_for_filename("青年期.page")) is JibunkiLexer
