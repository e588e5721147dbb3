"""Japanese line breaking by terminal columns (contract/linebreak.py) and the labs' prose
drawn with it (sim/render_text.py ``Prose``): the help's wrapper (tests/test_japanese_cli.py
checks it through terminal/click_ja.py) and the reports' notes break text the same way."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from contract.linebreak import _NO_START, columns, line_spans, wrap
from sim.render_text import FittedTable, Prose

#: Pieces of a paragraph: Japanese characters, a closing mark after one, and, each between
#: spaces (else they join into a word longer than a line), ASCII words and figures with
#: their signs.
PIECES = st.sampled_from(["あ", "漢", "字", "カ", "字、", "字。", "（字", "字）", "ー", " ",
                          " --deals ", " 95% ", " ×1.6 ", "22〜707", " a→b ", " [95%] ", " pt "])


def _lines(text: str, width: int) -> list[str]:
    return [text[start:end] for start, end in line_spans(text, width)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=60).map("".join), st.integers(16, 60))
def test_a_paragraph_breaks_within_the_width_keeping_every_character(text, width):
    """Every line fits (no piece is longer than a line), none begins with a space or with
    a mark that may not begin one unless a space stood before it, and the lines are the
    text in order, only spaces at the breaks left out."""
    lines = _lines(text, width)
    assert all(columns(line) <= width for line in lines), lines
    assert re.sub(r"\s+", "", "".join(lines)) == re.sub(r"\s+", "", text)
    spans = line_spans(text, width)
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start and not text[start].isspace()
        if text[start] in _NO_START:
            assert text[start - 1].isspace(), (text, lines)


def test_the_help_and_the_spans_break_at_the_same_places():
    text = "対にした効果: 同じ精度を独立な試行で得るには中央値で ×1.6 の戦数が要ります（ページごとに ×1.6〜×1.6）"
    for width in (20, 40, 70, 90):
        assert wrap(text, width) == _lines(text, width)


def test_a_figure_and_its_sign_stay_on_one_line():
    """×1.6 is not cut after its ×, nor 〜 left to begin a line."""
    assert _lines("中央値で ×1.6 の戦数", 10) == ["中央値で", "×1.6 の戦", "数"]
    assert _lines("あいうえお22〜707", 12) == ["あいうえお", "22〜707"]


def _drawn(renderable, width: int, color: bool = False) -> list[str]:
    console = Console(width=width, record=True, no_color=not color, force_terminal=color,
                      color_system="standard" if color else None)
    console.print(renderable)
    return console.export_text(styles=color).splitlines()


def test_prose_breaks_a_report_note_as_japanese_not_at_its_spaces():
    """rich alone keeps 「先読み超/局: 一手先読みより上の段が要る決定の 1」 then folds the rest
    at the edge; Prose fills each line to the width."""
    note = ("先読み超/局: 一手先読みより上の段が要る決定の 1 局あたりの数（測った決定から局の全決定へ換算。"
            "未決は数えないので下限）。")
    lines = _drawn(Prose(note), 40)
    assert all(cell_len(line) <= 40 for line in lines)
    assert all(cell_len(line) >= 36 for line in lines[:-1]), lines
    assert "".join(lines).replace(" ", "") == note.replace(" ", "")


def test_prose_keeps_its_styles_its_indent_and_its_line_breaks():
    text = Text("  今の勝率のままなら、変種ごとに 22〜707 局（--deals）で判定できます。",
                style="yellow")
    lines = _drawn(Prose(text), 30, color=True)
    assert len(lines) == 3
    assert all(line.startswith("  \x1b[33m") for line in lines), lines
    assert _drawn(Prose("一行目\n\n三行目"), 30) == ["一行目", "", "三行目"]


def test_designer_text_in_prose_is_never_markup():
    assert _drawn(Prose("[bold]名前[/bold]"), 30) == ["[bold]名前[/bold]"]


def test_the_columns_a_narrow_table_leaves_out_are_named_within_its_width():
    from sim.render_text import Column

    columns = (Column("名前", "left", lambda row, _: row["name"]),
               *(Column(f"とても長い見出しの列その{i}", "right", lambda row, _: "1", gives_way=i)
                 for i in range(1, 6)))
    lines = _drawn(FittedTable("表", columns, ({"name": "ページ"},), {}), 50)
    assert all(cell_len(line) <= 50 for line in lines), lines
    said = "".join(lines)
    assert "幅が足りず省いた列：" in said and "--html で全部見られます）" in said


def test_an_ideographic_space_is_a_character_two_columns_wide():
    """「　」 is not a space to collapse or to break at unmeasured: it takes two columns."""
    assert columns("山の下　別名") == 12
    assert [columns(line) for line in _lines("あいうえお　かきくけこ", 11)] == [10, 10, 2]
    assert all(columns("".join(line)) <= 12 for line in _lines("山の下　別名: ループ、捨て札", 12))


def test_the_journeys_help_keeps_its_columns_at_a_terminal_of_80():
    """The help's descriptions go on under their own column, broken as Japanese is, and
    no line is wider than the terminal (the terminal's own wrap broke 捨 from て札)."""
    from journey.screen.commands import USAGE_WIDTH, help_lines
    from journey.screen.terminal import fold

    lines = fold(help_lines(), 80)
    assert all(columns(line) <= 80 for line in lines), [line for line in lines if columns(line) > 80]
    hang = " " * (USAGE_WIDTH + 4)
    said = "\n".join(lines)
    assert f"別名: mill、\n{hang}discard＝捨て札" in said
    assert f"2日目の近い方から1枚\n{hang}目）" in said
    assert fold(lines, 80) == lines  # folding again changes nothing


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["play 白1 黒1", "item 地図", "resolve 赤", "end",
                                 "letter location 黒3 +1", "item リュックサック 2 赤3"]),
                min_size=2, max_size=9),
       st.integers(20, 100))
def test_a_list_on_the_journeys_screen_breaks_between_its_items(items, width):
    """できる行動 and the compact flags are lists: folded, no line is wider than the
    terminal and only separators go (an item filling its line is closed by the break);
    where every item fits a line with its separator (40 columns and more here), each
    line but the last ends with it, the items go on under the first, nothing is lost."""
    from journey.screen.terminal import fold

    line = "できる行動: " + " / ".join(items)
    lines = fold([line], width)
    assert all(columns(shown) <= width for shown in lines)
    squeezed = "".join(shown.strip() for shown in lines).replace(" ", "")
    assert squeezed.replace("/", "") == line.replace(" ", "").replace("/", "")
    if width >= 40:
        assert squeezed == line.replace(" ", "")
        assert all(shown.endswith(" /") for shown in lines[:-1]), lines
        assert all(shown.startswith(" " * columns("できる行動: ")) for shown in lines[1:])
