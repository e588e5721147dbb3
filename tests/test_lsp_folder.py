"""lsp.folder: after a folder's first check the server checks only the edited document's
items, reusing the other files' parses — the diagnostics must be exactly lint's (its
checks of the examples included; playing them is the code lens's)."""

from __future__ import annotations

import pytest

from compiler.lint import check_text
from conftest import ROOT
from lsp.folder import Folder, interface
from scenario.stage import examples_of

CONTENT = ROOT / "content"
FILES = sorted(str(p) for p in CONTENT.rglob("*") if p.is_file())

#: Edits a designer makes: a keyword typo, an unknown page, a removed id, a broken brace,
#: a counter without its scope, an example's unknown enemy, and nothing at all.
EDITS = [
    ("銘 ", "名 "), ("sakamichi", "sakamichu"), ("ページ ", "# ページ "), ("{", ""),
    ("[プレイ]", ""), ("敵 haguruma", "敵 hagurumaa"), ("", ""),
]


def _plain(result):
    return [(d.code, d.span, d.message, d.hint, d.replacements) for d in result.diagnostics]


@pytest.fixture(scope="module")
def folder():
    folder = Folder(CONTENT)
    folder.check(FILES[0], folder.texts[FILES[0]])  # the first check: every file
    return folder


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.split("/content/")[-1])
@pytest.mark.parametrize("old, new", EDITS)
def test_an_edit_is_checked_as_lint_checks_it(folder, path, old, new):
    text = folder.texts[path]
    edited = text.replace(old, new, 1) if old else text
    context = {other: body for other, body in folder.texts.items() if other != path}
    expected = check_text(edited, path, context)
    expected.diagnostics = expected.compilation.shown(
        expected.compilation.diagnostics + examples_of(expected.compilation)[1])
    try:
        assert _plain(folder.check(path, edited)) == _plain(expected)
    finally:
        folder.check(path, text)


def test_a_partial_check_reuses_the_other_files_parses_and_lowers_nothing(folder):
    path = FILES[0]
    result = folder.check(path, folder.texts[path])
    assert result.compilation.checked == {path}
    assert result.tables == {}
    again = folder.check(path, folder.texts[path])
    others = {s.path: s.parsed for s in result.compilation.sources if s.path != path}
    assert all(again_source.parsed is others[again_source.path]
               for again_source in again.compilation.sources if again_source.path != path)
    assert folder.full(path)[0].tables  # what an example is played on


def test_the_interface_of_a_file_is_its_ids_not_where_they_stand(folder):
    path = next(p for p in FILES if p.endswith("青年期.page"))
    text = folder.texts[path]
    before = interface(folder.check(path, text), path)
    assert ("page", "arubaito") in before
    moved = interface(folder.check(path, "\n\n" + text.replace("+= 5", "+= 6")), path)
    renamed = interface(folder.check(path, text.replace("ページ arubaito ", "ページ arubaito2 ")),
                        path)
    folder.check(path, text)
    assert moved == before and renamed != before
