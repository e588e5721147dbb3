"""Designer text is printed as plain text: no character of it may start a terminal escape,
ring, move the cursor or reorder a line (contract.linebreak.UNSHOWABLE). Lint refuses
them wherever they are written (E002), and the battle screen shows any that reach it (a
table made by hand, a script line) as U+FFFD."""

from __future__ import annotations

import dataclasses

import pytest
from rich.console import Console

from compiler.lint import check_text
from contract.linebreak import UNSHOWABLE, shown
from runtime.battle import Battle
from runtime.tables import load
from terminal.play import play
from terminal.screen import screen

PAGE = 'ページ p "{name}" {{\n  銘 3\n  未来面 {{ 敵HP -= 3 }}  # {comment}\n  過去面 {{ 歩 += 2 }}\n}}\n'


def places(text: str) -> list[tuple[str, int, int]]:
    """("E002", line, column) of each unshowable character of ``text``."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        out += [("E002", number, m.start() + 1) for m in UNSHOWABLE.finditer(line)]
    return out


@pytest.mark.parametrize("bad", ["\x1b", "\x07", "\x7f", "\x9b", "\u202e", "\u2066", "\u2028"])
def test_a_control_character_in_a_name_is_E002_at_its_column(bad):
    text = PAGE.format(name=f"赤{bad}い日", comment="注釈")
    result = check_text(text, "p.page")
    found = [(d.code, d.span.line, d.span.col) for d in result.diagnostics]
    assert found == places(text) == [("E002", 1, 9)]
    assert repr(bad)[1:-1] in result.diagnostics[0].message
    assert "制御文字" in result.diagnostics[0].hint


def test_a_control_character_in_a_comment_is_refused_too_and_each_is_reported():
    text = PAGE.format(name="\x1b[31m赤い日\x1b[0m", comment="\u202e注釈")
    result = check_text(text, "p.page")
    assert [(d.code, d.span.line, d.span.col) for d in result.diagnostics] == places(text)
    assert len(result.diagnostics) == 3


def test_tab_and_line_ends_are_no_control_characters_here():
    """Not E002: a tab and CRLF line ends are written in content (a name with a tab is
    W016's: names are shown on one line)."""
    assert not UNSHOWABLE.search("a\tb\nc\r\n")
    assert not check_text(PAGE.format(name="赤い日", comment="注\t釈").replace("\n", "\r\n"),
                          "p.page").diagnostics
    named = check_text(PAGE.format(name="赤\tい日", comment="注釈").replace("\n", "\r\n"),
                       "p.page").diagnostics
    assert [d.code for d in named] == ["W016"]


def test_the_battle_screen_shows_a_control_character_of_a_table_as_a_replacement():
    tables = load()
    page = tables.pages["sakamichi"]
    named = dataclasses.replace(
        tables, pages={**tables.pages, "sakamichi": dataclasses.replace(page, name="\x1b]0;x\x07坂道")})
    console = Console(width=120, height=40, record=True, color_system=None)
    console.print(screen(Battle.new(named, seed=3, enemies=["haguruma"],
                                    deck=["sakamichi"] * 5), width=120, height=40))
    text = console.export_text()
    assert shown("\x1b]0;x\x07坂道") in text
    assert not UNSHOWABLE.search(text)


def test_a_script_line_is_echoed_without_its_control_characters(capsys):
    tables = load()
    play(tables, seed=3, enemies=["haguruma"], deck=None, with_pages=(),
         lines=["where \x1b[2J\x1b]0;x\x07"], as_json=False)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "> where \ufffd[2J\ufffd]0;x\ufffd" in out


def test_a_content_file_named_with_an_escape_or_a_bidi_control_is_named_with_replacements(
        tmp_path):
    """A file's name is not designer text the parser checks: a page file named
    a<ESC>[31mred<U+202E>b.page reached the terminal raw in every diagnostic's place and in
    the summary (coloured the rest red, reversed the line)."""
    from click.testing import CliRunner

    from cli import main

    content = tmp_path / "content"
    content.mkdir()
    (content / "a\x1b[31mred\u202eb.page").write_text('ページ qq "q" {\n  銘 x\n}\n',
                                                        encoding="utf-8")
    for command in (["lint", "--content", str(content)], ["test", "--content", str(content)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1 and "a\ufffd[31mred\ufffdb.page:" in result.output
        assert not UNSHOWABLE.search(result.output), (command, result.output)


def test_explain_shows_an_escape_in_its_argument_as_a_replacement():
    from click.testing import CliRunner

    from cli import main

    result = CliRunner().invoke(main, ["explain", "\x1b[31mE0\u202e01\x07"])
    assert result.exit_code == 2
    assert "「\ufffd[31mE0\ufffd01\ufffd」という診断コードはありません" in result.output
    assert not UNSHOWABLE.search(result.output)
