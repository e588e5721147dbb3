"""読めなかった定義: a definition the parser could not read (its header misspelt, its file
not UTF-8) is reported once, where it is written; the references to its id are not errors
of their own (compiler/symbols.py ``unread``), and when that file is not one the run
reports, they say where the definition seems to be."""

from __future__ import annotations

import pytest

from compiler.lint import check_text
from dsl.headers import header_ids

PAGE = 'ページ {id} "題" {{\n  銘 3\n  未来面 {{ 敵HP -= 3 }}\n  過去面 {{ 歩 += 2 }}\n}}\n'
USER = ('ページ user "使う" {\n  銘 4\n  未来面 { 移動 1枚 山札 -> 手札 ページ指定 target }\n'
        '  過去面 { 歩 += 2 }\n}\n')


def codes(result):
    return [(d.code, d.span.path, d.span.line) for d in result.diagnostics]


def test_a_misspelt_header_is_one_error_not_one_per_reference():
    broken = PAGE.format(id="target").replace("ページ target", "ペジ target")
    second = USER.replace("user", "user2").replace('"使う"', '"もう一つ使う"')  # not W014
    result = check_text(broken + USER + second, "t.page")
    assert codes(result) == [("E001", "t.page", 1)]


def test_a_reference_from_another_file_says_where_the_unread_definition_is():
    broken = PAGE.format(id="target").replace("ページ target", "ペジ target")
    result = check_text(USER, "user.page", {"broken.page": broken})
    (diag,) = result.diagnostics
    assert diag.code == "E011" and diag.span.path == "user.page"
    assert diag.hint == ("「target」は broken.page:1 に書かれているようですが、"
                         "その定義は読めていません（そこの誤りを直してください）")
    assert diag.replacements == ()


def test_a_file_that_is_no_content_hides_the_references_to_what_it_seems_to_define():
    result = check_text(USER, "user.page", {"binary.page": PAGE.format(id="target") + "\x00"})
    assert [d.code for d in result.diagnostics] == ["E011"]
    assert "binary.page:1 に書かれているようですが" in result.diagnostics[0].hint


def test_an_id_that_is_nowhere_is_still_E011_with_its_did_you_mean():
    result = check_text(PAGE.format(id="targit") + USER, "t.page")
    (diag,) = result.diagnostics
    assert diag.code == "E011" and "もしかして「targit」？" in diag.hint


def test_header_ids_read_an_item_header_and_not_a_statement():
    text = ('ペジ a "題" {\n  ペン 過去面 { 歩 += 5 }\n  出自 学校\n  銘 3\n}\n'
            '敵 b\n  ページ c {\n例 "t" {\n')
    assert header_ids(text) == [("a", 1), ("b", 6), ("c", 7)]
    assert header_ids(text, 2, 5) == []


def test_a_header_reads_an_id_as_the_grammar_reads_a_name():
    import re

    from dsl import headers
    from dsl.parser import grammar_text

    (name,) = re.findall(r"^NAME: /(.*)/$", grammar_text(), re.M)
    assert headers._NAME == name


def _content(tmp_path):
    import shutil

    from conftest import ROOT

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def _lint(content):
    from compiler.lint import check

    return check([content], project=content)


@pytest.mark.slow
def test_a_project_whose_deck_or_balance_file_is_unread_is_not_told_it_lacks_them(tmp_path):
    """A stray character in starter.deck (or a byte that is not UTF-8 in the balance's
    file) was its own error, and an E014 「初期デッキ「starter」がありません」 (or
    「バランスがありません」) at the content folder, listed first: the deck is there, its
    file's error says why it was not read."""
    content = _content(tmp_path)
    deck = content / "starter.deck"
    lines = deck.read_text(encoding="utf-8").split("\n")
    lines[4] += " ("
    deck.write_text("\n".join(lines), encoding="utf-8")
    with open(content / "balance.balance", "ab") as balance:
        balance.write(b"\xff")
    found = [(d.code, d.span.path.rsplit("/", 1)[-1]) for d in _lint(content).diagnostics]
    assert found == [("E004", "balance.balance"), ("E001", "starter.deck")], found


@pytest.mark.slow
def test_an_origin_whose_pages_are_unread_is_no_E011_of_its_own(tmp_path):
    """A byte that is not UTF-8 in 幼少期.page made every 生成 出自 幼少期 of another file an
    E011 「出自「幼少期」のページはありません」 besides the file's own E004."""
    content = _content(tmp_path)
    with open(content / "pages" / "幼少期.page", "ab") as pages:
        pages.write(b"\xff")
    found = [d.code for d in _lint(content).diagnostics]
    assert found == ["E004"], found


def test_a_byte_that_is_not_utf8_is_shown_under_its_caret(tmp_path):
    """The E004 of a byte that is not UTF-8 gave its line and column and showed neither
    the line nor a caret."""
    from dsl.diagnostics import display_width, render

    content = _content(tmp_path)
    (content / "pages" / "zz.page").write_bytes(
        'ページ zz "z" {\n  銘 3\n  フレーバー "'.encode() + b"\xff" + '"\n}\n'.encode())
    result = _lint(content)
    (said,) = result.diagnostics
    lines = render(said, result.sources).split("\n")
    assert lines[1].endswith('| 　フレーバー "\ufffd"'.replace("　", "  ")), lines
    assert lines[2].index("^") == display_width(lines[1][:lines[1].index("\ufffd")])
