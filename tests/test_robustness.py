"""Robustness: no input, however broken, makes lint raise. Every bad input gets a
diagnostic with path:line:col, a code and a hint, and `jibunki lint` exits 0 when clean
(warnings allowed), 1 on content errors and 2 on usage errors.

Each case runs through the library (``check_text`` and ``check`` on a real file) and
through the command line (``CliRunner``), and a few through a real subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.codes import CODES
from compiler.lint import MAX_LINE_CHARS, check, check_text
from conftest import ROOT, invoke_cli
from dsl.diagnostics import display_width, render
from dsl.parser import MAX_NESTING, MAX_OPERATORS

# ------------------------------------------------------------------ helpers


def at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, col) of the nth occurrence of needle in text."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def found(result) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in result.diagnostics]


def well_formed(result, path: str | None = None) -> None:
    for diag in result.diagnostics:
        assert diag.code in CODES, diag
        assert diag.span.line >= 1 and diag.span.col >= 1, diag
        assert diag.hint, diag
        if path is not None:
            assert diag.span.path == path, diag
        shown = render(diag, result.sources)
        assert shown.startswith(f"{diag.span.path}:{diag.span.line}:{diag.span.col}: ")


def lint_cli(*args: str):
    return invoke_cli("lint", *args)


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write a content file (text or bytes) in an empty folder that is the cwd."""
    monkeypatch.chdir(tmp_path)

    def _write(content: str | bytes, name: str = "t.page") -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
        return path

    return _write


def everywhere(write, content: str | bytes):
    """Lint one input through check_text (when it is text), check and the CLI; the
    three must agree. Returns (check result, CLI result)."""
    path = write(content)
    by_file = check([path])
    well_formed(by_file, "t.page")
    if isinstance(content, str):
        by_text = check_text(content, "t.page")
        well_formed(by_text, "t.page")
        assert found(by_text) == found(by_file)
    cli = lint_cli("t.page")
    for code, line, col in found(by_file):
        assert f"t.page:{line}:{col}: " in cli.output
        assert f"[{code}]" in cli.output
    assert cli.exit_code == (1 if by_file.errors else 0), cli.output
    return by_file, cli


PAGE = "ページ {id} {{\n  銘 {year}\n  未来面 {{ 敵HP -= {dmg} }}; ペン 過去面 {{ 歩 += 5 }}\n}}\n"

# ------------------------------------------------------------------ files that are not content


def test_empty_file_is_a_warning_and_exit_0(write):
    result, cli = everywhere(write, "")
    assert found(result) == [("W003", 1, 1)]
    assert cli.exit_code == 0


def test_whitespace_only_file_is_empty_too(write):
    result, _ = everywhere(write, " \n\t\n\u3000\n")
    assert [d.code for d in result.diagnostics] == ["W003"]


GARBAGE = bytes(range(256)) * 3 + b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def test_binary_garbage_is_E004(write):
    result, cli = everywhere(write, GARBAGE)
    assert [d.code for d in result.diagnostics] == ["E004"]
    assert cli.exit_code == 1


@pytest.mark.parametrize("data, where", [
    # the bad byte after a Japanese prefix: columns count characters, not bytes
    ("ページ a {\n  銘 3 ~\n}\n".encode().replace(b"~", b"\xff"), (2, 7)),
    (b"\xff", (1, 1)),
    ("# 産声\n\n敵HP".encode() + b"\xc3\x28", (3, 4)),  # a broken 2-byte sequence
    ("ページ a {\r\n  銘 ~".encode().replace(b"~", b"\xe3\x81"), (2, 5)),  # cut short at the end
    (b"\xef\xbb\xbf\x80", (1, 1)),  # after a BOM, which is not a column
    ("a\rb\r~".encode().replace(b"~", b"\xfe"), (3, 1)),  # lone CRs end lines too
    ("\ufeffページ".encode("utf-16"), (1, 1)),  # a UTF-16 file
], ids=["after-japanese", "only-byte", "broken-pair", "cut-short", "after-bom", "lone-cr",
        "utf-16"])
def test_invalid_utf8_is_E004_at_the_bad_byte(write, data, where):
    result, cli = everywhere(write, data)
    assert found(result) == [("E004", *where)]
    assert "UTF-8" in result.diagnostics[0].hint
    assert cli.exit_code == 1


def test_nul_byte_is_E004_at_the_nul(write):
    text = PAGE.format(id="a", year=3, dmg=1) + "ページ b {\n  銘 4\x00\n}\n"
    result, cli = everywhere(write, text)
    assert found(result) == [("E004", *at(text, "\x00"))]
    assert "NUL" in result.diagnostics[0].message
    assert cli.exit_code == 1


def test_megabyte_long_line_is_E004(write):
    text = PAGE.format(id="a", year=3, dmg=1) + "# " + "x" * 1_000_000 + "\n"
    result, cli = everywhere(write, text)
    assert found(result) == [("E004", 5, MAX_LINE_CHARS + 1)]
    assert cli.exit_code == 1
    assert len(cli.output) < 2_000  # the line is shown as a window, not whole


def test_file_over_the_size_limit_is_E004(write):
    # bytes: check_text has no file to measure
    result, cli = everywhere(write, (("# " + "x" * 100 + "\n") * 30_000).encode())
    assert found(result) == [("E004", 1, 1)]


def test_directory_named_like_content_and_special_files_do_not_hang(write, tmp_path):
    (tmp_path / "d.page").mkdir()
    write(PAGE.format(id="a", year=3, dmg=1))
    result = check([tmp_path])
    assert result.diagnostics == [] and result.files == 1
    special = check([Path("/dev/null")])
    assert [d.code for d in special.diagnostics] == ["E004"]


def test_a_named_file_that_is_no_content_file_is_one_E004_not_read(tmp_path):
    """``jibunki lint README.md`` said an E001 for every line of prose and never that the
    file is no content file: now one E004 that says so, and the file is not read."""
    readme = tmp_path / "README.md"
    readme.write_text("# Notes\n\nThe hero's age.\n", encoding="utf-8")
    result = check([readme])
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("E004", 1)]
    assert "README.md はコンテンツのファイルではありません" in result.diagnostics[0].message
    assert ".page" in result.diagnostics[0].message and result.files == 0
    # named as the designer named it: /dev/null was 「null はコンテンツのファイルでは…」
    result = check([Path("/dev/null")])
    assert result.diagnostics[0].message.startswith("/dev/null はコンテンツのファイルではありません")
    cli = invoke_cli("lint", str(readme))
    assert cli.exit_code == 1 and cli.output.count("エラー[E004]") == 1
    assert "E001" not in cli.output


def test_a_content_file_in_a_folder_that_is_not_read_is_named_as_E004(write, tmp_path):
    """A broken link, a link out of the folder and a FIFO named like content are not read
    from a folder (nothing outside what was named, nothing that blocks) — and each is
    said, so that no page goes missing from the tables unsaid."""
    import os

    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "a.page").write_text(PAGE.format(id="a", year=3, dmg=1), encoding="utf-8")
    (folder / "broken.page").symlink_to(tmp_path / "gone.page")
    (tmp_path / "outside.page").write_text(PAGE.format(id="b", year=4, dmg=1),
                                           encoding="utf-8")
    (folder / "out.page").symlink_to(tmp_path / "outside.page")
    os.mkfifo(folder / "pipe.enemy")
    (folder / "notes.txt").symlink_to(tmp_path / "gone.txt")  # not content: not said
    result = check([folder])
    assert result.files == 1
    said = {Path(d.span.path).name: d.message for d in result.diagnostics}
    assert set(said) == {"broken.page", "out.page", "pipe.enemy"}
    assert all(d.code == "E004" and d.severity == "error" for d in result.diagnostics)
    assert "リンク先がありません" in said["broken.page"]
    assert "フォルダの外" in said["out.page"]
    assert "名前付きパイプ" in said["pipe.enemy"]
    hints = {Path(d.span.path).name: d.hint for d in result.diagnostics}
    assert [Path(d.span.path).name for d in result.diagnostics] == sorted(said)
    assert hints["broken.page"].startswith("リンク先を直すか、リンクを消して")
    assert hints["out.page"].startswith("フォルダの外は読みません。ファイルをフォルダの中にコピー")
    assert hints["pipe.enemy"].startswith("コンテンツは通常のファイルに")


def test_a_linked_folder_out_of_the_folder_and_a_loop_of_links_are_named_as_E004(tmp_path):
    """A folder of the content that is a link to one outside (its pages would all go
    missing, each reference an E011 far from the cause), and links pointing at each other."""
    folder, elsewhere = tmp_path / "content", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (elsewhere / "a.page").write_text(PAGE.format(id="a", year=3, dmg=1), encoding="utf-8")
    (folder / "pages").symlink_to(elsewhere)
    (folder / "inner").mkdir()
    (folder / "inner" / "b.page").write_text(PAGE.format(id="b", year=4, dmg=1),
                                             encoding="utf-8")
    (folder / "again").symlink_to(folder / "inner")  # inside: read once, by its own path
    (folder / "x.page").symlink_to(folder / "y.page")
    (folder / "y.page").symlink_to(folder / "x.page")
    result = check([folder])
    assert result.files == 1
    said = {Path(d.span.path).name: (d.code, d.message, d.hint) for d in result.diagnostics}
    assert set(said) == {"pages", "x.page", "y.page"}
    assert said["pages"][0] == "E004" and "フォルダの外" in said["pages"][1]
    assert "輪になって" in said["x.page"][1] and "たがいを指して" in said["x.page"][2]


def test_a_file_that_could_not_be_read_is_listed_before_what_its_missing_pages_cause(tmp_path):
    """A deck naming the pages of a broken link: their E011s follow from the E004, so the
    E004 comes first in the listing (a file sorted later by name would bury the cause
    among its effects)."""
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "a.deck").write_text("デッキ d \"d\" {\n  zz\n}\n", encoding="utf-8")
    (folder / "zz.page").symlink_to(tmp_path / "gone.page")
    result = check([folder])
    codes = [(d.code, Path(d.span.path).name) for d in result.diagnostics]
    assert codes[0] == ("E004", "zz.page") and ("E011", "a.deck") in codes[1:], codes


# ------------------------------------------------------------------ braces


def test_missing_closing_brace_at_the_end_is_E003(write):
    text = PAGE.format(id="a", year=3, dmg=1) + "ページ b {\n  銘 4\n  未来面 { 敵HP -= 2 }\n"
    result, cli = everywhere(write, text)
    assert found(result) == [("E003", *at(text, "ページ b"))]
    assert "}" in result.diagnostics[0].hint
    assert [p.id for p in result.model["pages"] if p] == ["a"]


def test_missing_closing_brace_then_another_page_reports_both_pages(write):
    text = ("ページ a {\n  銘 3\n  未来面 { 敵HP -= 1 }\n\n"  # no } for page a
            "ページ b {\n  銘 4\n  未来面 { 敵HP -= 未知 }\n}\n")
    result, _ = everywhere(write, text)
    # page a: not closed, at its header; page b: read on its own and checked normally
    assert found(result) == [("E003", 1, 1), ("E010", *at(text, "未知"))]


def test_missing_closing_brace_then_a_valid_page_keeps_the_valid_page(write):
    text = "ページ a {\n  銘 3\n  未来面 { 敵HP -= 1\n}\n" + PAGE.format(id="b", year=4, dmg=2)
    result, _ = everywhere(write, text)
    assert found(result) == [("E003", 1, 1)]
    assert [p.id for p in result.model["pages"] if p] == ["b"]


def test_stray_closing_brace_is_reported_alone(write):
    text = PAGE.format(id="a", year=3, dmg=1) + "}\n" + PAGE.format(id="b", year=4, dmg=2)
    result, _ = everywhere(write, text)
    assert found(result) == [("E001", 5, 1)]
    assert "対応する「{」のない「}」" in result.diagnostics[0].hint
    # only the stray brace is dropped: both pages around it are read and checked
    assert [p.id for p in result.model["pages"]] == ["a", "b"]


def test_brace_closing_a_page_early_says_so(write):
    text = "ページ a {\n  銘 3\n  未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n  過去面 白紙\n}\n"
    result, _ = everywhere(write, text)
    # one error, at the } that closed the page, and the page read whole without it
    assert found(result) == [("E001", 3, text.split("\n")[2].rindex("}") + 1)]
    assert result.diagnostics[0].message == "この } で定義が閉じています"
    assert [p.id for p in result.model["pages"]] == ["a"]


def test_header_without_brace_is_one_error(write):
    text = "ページ a\n  銘 3\n  未来面 { 敵HP -= 1 }\n}\n" + PAGE.format(id="b", year=4, dmg=2)
    result, _ = everywhere(write, text)
    assert found(result) == [("E001", *at(text, "銘"))]
    assert "「{」" in result.diagnostics[0].hint
    assert [p.id for p in result.model["pages"] if p] == ["b"]


@pytest.mark.parametrize("text, needle", [
    ("ページ a {\n  銘 3\n  フレーバー \"閉じない\n  未来面 { 敵HP -= 1 }\n}\n", '"'),
    ("ページ a {\n  銘 3\n  フレーバー 「閉じない\n  未来面 { 敵HP -= 1 }\n}\n", "「"),
], ids=["quote", "kagi"])
def test_unterminated_string_points_at_its_quote(write, text, needle):
    result, _ = everywhere(write, text)
    assert found(result) == [("E002", *at(text, needle))]
    assert "閉じていません" in result.diagnostics[0].hint


def test_unclosed_bracket_inside_a_line(write):
    text = "ページ a {\n  銘 3\n  未来面 { 敵HP -= (1 + 2 }\n}\n" + PAGE.format(id="b", year=4, dmg=2)
    result, _ = everywhere(write, text)
    assert found(result) == [("E001", *at(text, "}"))]
    assert "「)」" in result.diagnostics[0].hint


EXAMPLES = """\
例 "一つ目" {
  敵 haguruma
  デッキ [ a, b ]
  出す a
}
例 "二つ目" {
  敵 haguruma
  出す b
}
"""


def syntax(result) -> list[tuple[str, int, int]]:
    return [f for f in found(result) if f[0] in ("E001", "E002", "E003", "E005")]


def test_keyword_lines_inside_an_example_do_not_split_it():
    # "敵 haguruma" and "デッキ [" start lines inside a 例 but are its statements, not items
    text = EXAMPLES.replace("出す b", "出す (((")
    assert syntax(check_text(text, "t.page")) == [("E001", *at(text, "("))]


def test_missing_brace_of_an_example_then_another_example():
    text = EXAMPLES.replace("  出す a\n}\n", "  出す a\n")
    assert syntax(check_text(text, "t.page")) == [("E003", 1, 1)]


# ------------------------------------------------------------------ absurd sizes


def test_ten_thousand_open_parens_is_E005(write):
    # 10,000 "(" in lines of 5,000 (a single line that long is E004 first)
    text = "ページ a {\n  銘 " + "(" * 5000 + "\n" + "(" * 5000 + "1\n}\n" \
        + PAGE.format(id="b", year=4, dmg="未知")
    result, cli = everywhere(write, text)
    # the "{" of the page is the first level, so the 40th "(" is one too many
    assert found(result)[0] == ("E005", 2, len("  銘 ") + MAX_NESTING)
    assert ("E010", *at(text, "未知")) in found(result)  # the next page is still checked
    assert cli.exit_code == 1


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{", "}"), ("(", ")")])
def test_balanced_but_absurd_nesting_is_E005(opener, closer):
    text = "ページ a { 銘 1; 未来面 { 敵HP -= " + opener * 4000 + "1" + closer * 4000 + " } }"
    result = check_text(text, "t.page")
    well_formed(result)
    assert [d.code for d in result.diagnostics] == ["E005"]


@pytest.mark.parametrize("expression", [
    "1 + " * 2000 + "1",      # one long left-leaning chain
    "- " * 3000 + "1",        # unary minus on unary minus …
    "|" * 3000 + "1" + "|" * 3000,  # absolute values of absolute values
    "2 * " * 1500 + "使用した歩[プレイ]",
], ids=["plus-chain", "minus-chain", "abs-chain", "times-chain"])
def test_absurdly_long_expressions_are_E005_not_a_crash(write, expression):
    text = "ページ a {\n  銘 1\n  未来面 {\n    敵HP -= " + expression + "\n  }\n}\n" \
        + PAGE.format(id="b", year=4, dmg="未知")
    result, _ = everywhere(write, text)
    codes = [d.code for d in result.diagnostics]
    assert codes[0] == "E005" and "E000" not in codes
    assert result.diagnostics[0].span.line == 4
    assert ("E010", *at(text, "未知")) in found(result)


def test_long_but_reasonable_expression_is_still_read():
    text = "ページ a { 銘 1; 未来面 { 敵HP -= " + "1 + " * (MAX_OPERATORS // 2 - 1) + "1 }; ペン 過去面 { 歩 += 5 } }"
    assert [d.code for d in check_text(text, "t.page").diagnostics] == []


@pytest.mark.parametrize("number", ["1" + "0" * 5000, "1e999", "1" + "0" * 400 + ".5",
                                    "9" * 9000, "1e99999999999999999"],
                         ids=["10**5000", "1e999", "long-decimal", "9000-nines", "huge-exponent"])
def test_huge_numbers_are_E033(write, number):
    text = "ページ a {\n  銘 3\n  未来面 { 敵HP -= " + number + " }; ペン 過去面 { 歩 += 5 }\n}\n"
    result, _ = everywhere(write, text)
    assert found(result) == [("E033", *at(text, number[:10]))]


def test_huge_numbers_everywhere_a_number_goes():
    big = "1e999"
    texts = [
        f"ページ a {{ 銘 {big}; 未来面 {{ 敵HP -= 1 }} }}",
        f"ページ a {{ 銘 1; 綻び倍率 {big}; 未来面 {{ 敵HP -= 1 }} }}",
        f"ページ a {{ 銘 1; 上限枚数 {big}; 未来面 {{ 敵HP -= 1 }} }}",
        f"ページ a {{ 銘 1; 未来面 {{ 条件 歩 >= {big}\n 敵HP -= 1 }} }}",
        f"ページ a {{ 銘 1; 未来面 {{ 敵HP -= 使用した歩[プレイ] × {big} }} }}",
        f"ページ a {{ 銘 1; 未来面 {{ 攻撃倍率 *= {big} 範囲 ラン }} }}",
        f"敵 e {{ HP {big}; 座 1; 突破ライン 3; 予兆 [攻撃 1] }}",
        f"敵 e {{ HP 9; 座 1; 突破ライン 3; 予兆 [攻撃 {big}] }}",
        f"敵 e {{ HP 9; 座 1; 突破ライン 3; 予兆 [攻撃 1]\n 特性 {{ 封鎖 1..{big} }} }}",
    ]
    for text in texts:
        result = check_text(text, "t.page")
        well_formed(result)
        assert result.errors, text
        assert "E000" not in [d.code for d in result.diagnostics]


@pytest.mark.parametrize("expression", [
    "1e308 * 10", "1e308 + 1e308", "1e308 * 10 - 1e308 * 10", "1 / 0", "0 / 0",
    "1 / 1e-320", "使用した歩[プレイ] × 1e308 × 1e308", "使用した歩[プレイ] / 1e-320",
])
def test_arithmetic_that_overflows_is_an_error_not_a_crash(expression):
    result = check_text(f"ページ a {{ 銘 1; 未来面 {{ 敵HP -= {expression} }} }}", "t.page")
    well_formed(result)
    assert result.errors and result.model["pages"] == [None]


# ------------------------------------------------------------------ many mistakes at once


FIVE_MISTAKES = """\
ページ a {
  銘 3
  未来面 { 敵HP -= }; ペン 過去面 { 歩 += 5 }
}
ページ b {
  銘 3
  未来面 { 防御 += 未知変数 }; ペン 過去面 { 歩 += 5 }
}
ページ c {
  銘 3
  未来面 { 使用した歩[ターン] += 2 }; ペン 過去面 { 歩 += 5 }
}
ページ d {
  銘 3
  未来面 { 敵HP -= プレイ枚数[プレイ] × 2 }; ペン 過去面 { 歩 += 5 }
}
ページ e {
  銘 3
  綻び倍率 -1.5
  未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 }
}
"""


def test_five_different_mistakes_are_all_reported(write):
    text = FIVE_MISTAKES
    result, cli = everywhere(write, text)
    assert found(result) == [
        ("E001", *at(text, "}")),               # syntax: a value is missing before }
        ("E010", *at(text, "未知変数")),          # unknown variable
        ("E020", *at(text, "使用した歩")),        # a cumulative quantity as a target
        ("E022", *at(text, "プレイ]")),           # a × cell of the scope table
        ("E031", *at(text, "-1.5")),             # a negative 綻び倍率
    ]
    assert cli.exit_code == 1
    assert "エラー 5 件" in cli.output


def test_mistakes_spread_over_files_are_all_reported(write, tmp_path):
    parts = FIVE_MISTAKES.split("ページ ")[1:]
    for i, part in enumerate(parts):
        write("ページ " + part, name=f"p{i}.page")
    result = check([tmp_path])
    well_formed(result)
    assert sorted(d.code for d in result.diagnostics) == ["E001", "E010", "E020", "E022", "E031"]
    assert len({d.span.path for d in result.diagnostics}) == 5
    cli = lint_cli(".")
    assert cli.exit_code == 1 and "エラー 5 件" in cli.output


def test_error_cap_per_file_still_ends(write):
    text = "ページ a {\n  銘 1\n" + "  ?? ?? ??\n" * 500 + "  未来面 { 敵HP -= 1 }\n}\n"
    result, _ = everywhere(write, text)
    assert 1 <= len(result.diagnostics) <= 60
    assert {d.code for d in result.diagnostics} == {"E002"}


@pytest.mark.parametrize("text", [
    "}}}}]]]]))))", "{{{{[[[[((((", "ページ", "ページ a", "ページ a {", "ページ a }", "敵 e { 予兆 [",
    "デッキ d { a × }", "バランス { 綻び報酬 { } }", "\\", "ページ a { 銘 1; 未来面 { @ } }",
    "ページ a { 銘 \u200b1 }", "ページ a { 銘 1 }\u2028ページ b { 銘 2 }", "ページ a {\x0c銘 1 }",
    "ページ a { 銘 1 }\u2029\x85\x1b[2J",
    "ページ a {\r銘 1\r未来面 { 敵HP -= 未知 }\r}\r", "\ufeff" * 3, "#" * 50, ";;;;\n;;\n",
    "ページ a { 銘 1; 未来面 { 移動 -> } }", "ページ a { 銘 1; 未来面 { 生成 -> 手札 寿命 } }",
    "ページ a { 銘 1..2 }", "ページ a { 銘 1; 銘 2; 未来面 白紙; 未来面 白紙 }",
], ids=lambda text: repr(text)[1:40])
def test_odd_fragments(write, text):
    result, cli = everywhere(write, text)
    assert cli.exit_code in (0, 1)
    assert "E000" not in [d.code for d in result.diagnostics]


def test_lone_carriage_returns_end_lines():
    text = "ページ a {\r銘 1\r未来面 { 敵HP -= 未知 }; ペン 過去面 { 歩 += 5 }\r}\r"
    result = check_text(text, "t.page")
    assert found(result) == [("E010", 3, 14)]


def test_line_separators_do_not_shift_the_shown_line():
    # A line separator is refused (E002, contract.linebreak.UNSHOWABLE), and is no line end.
    text = "# 注\u2028記\nページ a {\n  銘 1\n  未来面 { 敵HP -= 未知 }; ペン 過去面 { 歩 += 5 }\n}\n"
    result = check_text(text, "t.page")
    refused, diag = result.diagnostics
    assert (refused.code, refused.span.line, refused.span.col) == ("E002", 1, 4)
    assert (diag.span.line, diag.span.col) == at(text, "未知")
    assert "未来面 { 敵HP -= 未知 }" in render(diag, result.sources)


# ------------------------------------------------------------------ the command line


def test_clean_content_exits_0(write):
    write(PAGE.format(id="a", year=3, dmg=1))
    result = lint_cli("t.page")
    assert result.exit_code == 0, result.output


def test_nonexistent_path_is_a_usage_error(write):
    result = lint_cli("no/such/file.page")
    assert result.exit_code == 2
    # said of the path typed, not of the argument's usage name ('[パス]...')
    assert "エラー: パス 'no/such/file.page' がありません。" in result.output
    assert "[パス]..." not in result.output.split("エラー:")[1]


@pytest.mark.parametrize("typed, meant", [
    ("青年期.pag", "青年期.page"),   # the suffix cut short
    ("青年.page", "青年期.page"),    # the name cut short
    ("青年期.Page", "青年期.page"),
    ("test", "tests"),              # a folder
    ("xyz.page", None),             # sharing only the suffix is not near
    ("nothere.page", None),         # a page file is no folder (generated/ is there)
])
def test_a_path_that_is_not_there_suggests_the_nearest_name_in_its_folder(write, typed,
                                                                          meant):
    write(PAGE.format(id="a", year=3, dmg=1), "青年期.page")
    (Path.cwd() / "tests").mkdir()
    (Path.cwd() / "generated").mkdir()
    for shown, said in ((typed, meant), (f"./{typed}", meant and f"./{meant}")):
        output = lint_cli(shown).output
        assert f"エラー: パス '{shown}' がありません。" in output
        if said is None:
            assert "もしかして" not in output
        else:
            assert f"もしかして「{Path(said)}」？" in output


def test_a_broken_link_named_is_said_to_be_one(write, tmp_path):
    (tmp_path / "link.page").symlink_to(tmp_path / "gone.page")
    result = lint_cli(str(tmp_path / "link.page"))
    assert result.exit_code == 2
    assert "がありません（リンク先がない、壊れたシンボリックリンクです）。" in result.output


def test_no_arguments_without_content_folder_is_a_usage_error(write):
    result = lint_cli()
    assert result.exit_code == 2


def test_unknown_format_is_a_usage_error(write):
    write("")
    assert lint_cli("--format", "xml", "t.page").exit_code == 2


def test_json_format_is_valid_json_with_every_field(write):
    write(FIVE_MISTAKES)
    write(GARBAGE, name="g.page")
    write("", name="e.page")
    result = lint_cli("--format", "json", ".")
    assert result.exit_code == 1
    entries = json.loads(result.output)
    assert len(entries) == 7
    for entry in entries:
        for key in ("path", "line", "col", "code", "message", "hint"):
            assert key in entry, entry
        assert entry["code"] in CODES and entry["hint"] and entry["message"]
        assert entry["line"] >= 1 and entry["col"] >= 1
    assert {e["code"] for e in entries} == {"E001", "E010", "E020", "E022", "E031", "E004",
                                            "W003"}


def test_json_format_of_clean_content_is_an_empty_list(write):
    write(PAGE.format(id="a", year=3, dmg=1))
    result = lint_cli("--format", "json", "t.page")
    assert result.exit_code == 0 and json.loads(result.output) == []


@pytest.mark.slow
@pytest.mark.parametrize("content", [GARBAGE, "ページ a {\n  銘 " + "(" * 5000 + "\n}\n",
                                     FIVE_MISTAKES, ""],
                         ids=["garbage", "nesting", "five-mistakes", "empty"])
def test_real_process_never_prints_a_traceback(write, content):
    path = write(content)
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "lint", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == (0 if content == "" else 1), proc.stdout + proc.stderr


def test_e003_hint_names_the_files_line_in_a_later_item():
    # The hint's line was the line within the item's chunk (9 where 47 is right).
    from compiler.lint import check_text

    lines = (ROOT / "content" / "pages" / "青年期.page").read_text(encoding="utf-8").split("\n")
    assert lines[45] == "  }"  # the closing brace of nyuugaku's 未来面
    lines[45] = ""
    [diag] = [d for d in check_text("\n".join(lines), "t.page").diagnostics if d.code == "E003"]
    assert str(diag.span) == "t.page:44:7"
    assert diag.hint == "47 行目より前に、対応する } を書いてください"
    assert str(diag.notes[0].span) == "t.page:47:3"


def test_a_full_width_space_is_shown_as_written_with_the_caret_after_it():
    from compiler.lint import check_text
    from dsl.diagnostics import render

    text = ("ページ p \"p\" {\n  銘 1\n  未来面 {\u3000敵HP -= 1,5 }\n  過去面 白紙\n"
            "  ペン 過去面 { 歩 += 5 }\n}\n")
    diags = check_text(text, "t.page").diagnostics
    assert [(d.code, d.span.line) for d in diags] == [("E001", 3)]  # the "," after 1
    shown = render(diags[0], {"t.page": text})
    source, caret = shown.split("\n")[1:3]
    assert "\u3000" in source and "\ufffd" not in source
    at = source.index("|") + 2  # where the line begins after the gutter
    assert caret.index("^") - at == display_width(source[at:][: diags[0].span.col - 1])
