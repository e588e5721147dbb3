"""jibunki fmt (dsl/formatter.py): the canonical layout is a fixed point of the bundled
content, formatting twice is formatting once, and formatting never changes what the
content compiles to."""

from __future__ import annotations

import os
import shutil
import stat
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402  (benchmarks/ is not a package)
from cli import main  # noqa: E402
from dsl.formatter import format_text  # noqa: E402

SUFFIXES = (".page", ".enemy", ".balance", ".deck", ".scenario")
BUNDLED = sorted(p for p in (ROOT / "content").rglob("*") if p.suffix in SUFFIXES)


def formatted(text: str, **options) -> str:
    result = format_text(text, "t.page", **options)
    assert result.ok, [str(d.span) + " " + d.message for d in result.diagnostics]
    return result.text


def without_sources(value):
    """The compiled tables without their source records (text and line numbers)."""
    if isinstance(value, dict):
        return {k: without_sources(v) for k, v in value.items() if k not in ("source", "line")}
    if isinstance(value, (list, tuple)):
        return [without_sources(v) for v in value]
    return value


def compiled(folder):
    from compiler.build import compile_content

    result = compile_content(folder)
    assert result.ok, [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics]
    return without_sources(result.tables)


def format_folder(folder) -> int:
    changed = 0
    for path in sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES):
        text = path.read_text(encoding="utf-8")
        new = formatted(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_file_is_already_formatted(path):
    text = path.read_text(encoding="utf-8")
    assert formatted(text) == text


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_formatting_a_bundled_file_twice_is_formatting_it_once(path):
    once = formatted(path.read_text(encoding="utf-8"), keep_aliases=True)
    assert formatted(once, keep_aliases=True) == once
    assert formatted(formatted(once)) == formatted(once)


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_formatting_the_bundled_content_compiles_to_the_same_tables(content):
    # Spoil the layout of every file first (no indentation, blank lines doubled), so that
    # formatting has work to do, and compare the tables with the bundled content's.
    before = compiled(content)
    for path in (p for p in content.rglob("*") if p.suffix in SUFFIXES):
        lines = path.read_text(encoding="utf-8").split("\n")
        path.write_text("\n\n".join(line.strip() for line in lines), encoding="utf-8")
    assert compiled(content) == before
    assert format_folder(content) > 0
    assert compiled(content) == before


MESSY = """\
# 見出し


page  tameshi_a "産声"
{
\tyear 0
    fray_mul   2.0 ;  origin 幼少期
  flavor "最初の一年"   \n\
  future blank


  past {

      防御 += 10 life ステージ
      防御+=2;歩+=1
  }
  pen future { 歩 += 8 ;敵HP -= ( 1+2 )*3 }
  tear_effect { 防御 += 3 at ターン開始時 }
}  page tameshi_b "b" { year 1
  未来面 { move 2 cards 山札->手札 上から ; 条件 | 銘 - 刻 | >= -5 }
 past blank
 pen past { 歩 += 1 } }
"""

CANONICAL = """\
# 見出し

ページ tameshi_a "産声" {
  銘 0
  綻び倍率 2.0
  出自 幼少期
  フレーバー "最初の一年"
  未来面 白紙

  過去面 {
    防御 += 10 寿命 ステージ
    防御 += 2
    歩 += 1
  }
  ペン 未来面 {
    歩 += 8
    敵HP -= (1 + 2) * 3
  }
  破却 { 防御 += 3 毎 ターン開始時 }
}

ページ tameshi_b "b" {
  銘 1
  未来面 {
    移動 2枚 山札 -> 手札 上から
    条件 |銘 - 刻| >= -5
  }
  過去面 白紙
  ペン 過去面 { 歩 += 1 }
}
"""


def test_a_messy_page_formats_to_the_canonical_text():
    assert formatted(MESSY) == CANONICAL
    assert formatted(CANONICAL) == CANONICAL


def test_keep_aliases_keeps_the_ascii_keywords_as_written():
    text = formatted(MESSY, keep_aliases=True)
    assert text.startswith("# 見出し\n\npage tameshi_a \"産声\" {\n  year 0\n")
    assert "    move 2 cards 山札 -> 手札 上から\n" in text
    assert formatted(text, keep_aliases=True) == text
    assert formatted(text) == CANONICAL


def test_the_tight_spellings_of_subscripts_signs_ranges_and_region_sums():
    text = ('敵 e "e" {\n  HP 10\n  目標 勝率 - 5 % 〜 + 50 %\n  予兆 [攻撃 1,攻撃 2]\n'
            '  特性 {\n    封鎖 40 .. 49\n    座 += 使用した歩 [ プレイ ] * 2\n  }\n}\n\n'
            '例 "x" {\n  デッキ [ a , b ]\n  開始 刻 20 , 手札 [ a ]\n  確認 山札 + 捨て札 == 2\n}\n')
    assert formatted(text) == (
        '敵 e "e" {\n  HP 10\n  目標 勝率 -5%〜+50%\n  予兆 [ 攻撃 1, 攻撃 2 ]\n'
        '  特性 {\n    封鎖 40..49\n    座 += 使用した歩[プレイ] * 2\n  }\n}\n\n'
        '例 "x" {\n  デッキ [a, b]\n  開始 刻 20, 手札 [a]\n  確認 山札+捨て札 == 2\n}\n')


@pytest.mark.slow
def test_a_combined_region_is_written_tight_wherever_the_compiler_reads_it_as_one(tmp_path):
    """合算 (DESIGN §6.1): 山札+捨て札 is one quantity — its subscript applies to the whole
    and it binds tighter than × — though the grammar reads its "+" as a sum. fmt spaced
    it where the subscript or a factor stood beside it, so that ``山札 + 捨て札 × 2`` read
    as 山札 + (捨て札 × 2)."""
    face = ("ページ f1 {{\n  銘 10\n  出自 青年期\n  未来面 {{\n    {}\n    歩 += 1\n  }}\n"
            "  過去面 白紙\n  ペン 過去面 {{ 歩 += 3 }}\n}}\n")
    for written, tight in (
            ("条件 山札 + 捨て札[f1] >= 1", "条件 山札+捨て札[f1] >= 1"),
            ("敵HP -= 山札 + 捨て札 × 2", "敵HP -= 山札+捨て札 × 2"),
            ("敵HP -= 山札+捨て札 + 手札[f1] × 2", "敵HP -= 山札+捨て札+手札[f1] × 2"),
            ("敵HP -= 2 × 山札 + 捨て札", "敵HP -= 2 × 山札+捨て札")):
        assert formatted(face.format(written)) == face.format(tight)
        assert compiled_alike(face.format(written), face.format(tight), tmp_path / "c")


def compiled_alike(a: str, b: str, folder) -> bool:
    """Whether two texts of one page compile to the same tables (sources aside), each
    compiled beside the bundled content (its starting deck and balance)."""
    tables = []
    for text in (a, b):
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(ROOT / "content", folder)
        (folder / "zz_f1.page").write_text(text, encoding="utf-8")
        tables.append(compiled(folder))
    return tables[0] == tables[1]


def test_comments_are_kept_on_their_lines_and_aligned_ones_stay_aligned():
    text = ("# 頭の注釈\nページ a \"a\" {   # 見出しの後ろ\n  銘 0\n  未来面 {\n"
            "      # 独りの注釈\n    歩 += 1          # 揃えた注釈\n"
            "    歩   +=   2      # 揃えた注釈\n  }\n  過去面 白紙 # 近すぎる\n}\n# 尾の注釈")
    assert formatted(text) == (
        "# 頭の注釈\nページ a \"a\" {   # 見出しの後ろ\n  銘 0\n  未来面 {\n"
        "    # 独りの注釈\n    歩 += 1          # 揃えた注釈\n"
        "    歩 += 2          # 揃えた注釈\n  }\n  過去面 白紙  # 近すぎる\n}\n\n# 尾の注釈\n")


def test_a_code_line_reaching_aligned_comments_pushes_them_together():
    # Aligned at column 20; "if" becomes 条件, two columns wider, and reaches it.
    text = ("ページ a \"a\" {\n  銘 0\n  未来面 {\n    if 歩 >= 10000  # 一\n"
            "    歩 += 1         # 二\n  }\n  過去面 白紙\n}\n")
    lines = formatted(text).split("\n")
    assert lines[3] == "    条件 歩 >= 10000  # 一"
    assert lines[4] == "    歩 += 1           # 二"


#: Another file already laid out, whose ids are not MESSY's (fmt lints the files first).
TIDY = CANONICAL.replace("tameshi", "sumi")


def run(*args):
    return CliRunner().invoke(main, ["fmt", *map(str, args)])


def test_a_file_with_a_syntax_error_is_not_rewritten_and_fmt_exits_1(tmp_path):
    path = tmp_path / "bad.page"
    path.write_text("ページ a {\n  銘 0 +\n      未来面 白紙\n}\n", encoding="utf-8")
    before = path.read_bytes()
    result = run(path)
    assert result.exit_code == 1
    assert f"{path}:2:" in result.output and "E001" in result.output
    assert path.read_bytes() == before


def test_a_read_only_file_is_not_rewritten_and_fmt_exits_1(tmp_path):
    """A file made read-only (a version control's lock, a designer's) was replaced all
    the same, as root or not: the temporary's rename needs only the folder's permission."""
    import stat

    messy, tidy = tmp_path / "messy.page", tmp_path / "tidy.page"
    messy.write_text(MESSY, encoding="utf-8")
    tidy.write_text(TIDY, encoding="utf-8")
    messy.chmod(0o444)
    result = run(tmp_path)
    assert result.exit_code == 1
    assert f"{messy}: 書き換えられません: 読み取り専用のファイルです" in result.output, result.output
    assert messy.read_text(encoding="utf-8") == MESSY
    assert stat.S_IMODE(messy.stat().st_mode) == 0o444
    messy.chmod(0o644)  # allowed again, it is laid out
    assert run(tmp_path).exit_code == 0 and messy.read_text(encoding="utf-8") != MESSY


def test_check_exits_1_naming_the_file_and_rewrites_nothing(tmp_path):
    messy, tidy = tmp_path / "messy.page", tmp_path / "tidy.page"
    messy.write_text(MESSY, encoding="utf-8")
    tidy.write_text(TIDY, encoding="utf-8")
    result = run("--check", tmp_path)
    assert result.exit_code == 1
    assert str(messy) in result.output and str(tidy) not in result.output
    assert messy.read_text(encoding="utf-8") == MESSY
    shown = run("--check", "--diff", messy)
    assert "+ページ tameshi_a" in shown.output and "-page  tameshi_a" in shown.output
    # --diff alone is the same preview: it rewrites nothing
    alone = run("--diff", messy)
    assert alone.exit_code == 1 and alone.output == shown.output
    assert messy.read_text(encoding="utf-8") == MESSY
    assert run("--check", tidy).exit_code == 0


def test_a_save_while_fmt_lays_the_file_out_is_kept(tmp_path, monkeypatch):
    """An editor that saves while fmt works on the file (seconds on a large one) keeps its
    save: fmt says so, writes nothing and exits 1, where it wrote the text it had read."""
    import dsl.formatter

    messy = tmp_path / "messy.page"
    messy.write_text(MESSY, encoding="utf-8")
    saved = MESSY + "# 保存した編集\n"
    real = dsl.formatter.format_text

    def saving(text, *args, **kwargs):
        messy.write_text(saved, encoding="utf-8")  # the editor's save, mid-run
        return real(text, *args, **kwargs)

    monkeypatch.setattr(dsl.formatter, "format_text", saving)
    result = run(messy)
    assert result.exit_code == 1
    assert "整形しているあいだに保存されたので、書き換えませんでした" in result.output
    assert messy.read_text(encoding="utf-8") == saved


def test_a_file_saved_with_windows_line_ends_and_a_bom_keeps_them(tmp_path):
    tidy, messy = tmp_path / "tidy.page", tmp_path / "messy.page"
    tidy.write_bytes(("\ufeff" + TIDY).replace("\n", "\r\n").encode("utf-8"))
    messy.write_bytes(MESSY.replace("\n", "\r\n").encode("utf-8"))
    assert run("--check", tidy).exit_code == 0  # formatted: its line ends are no layout
    assert run(tmp_path).exit_code == 0
    assert messy.read_bytes() == CANONICAL.replace("\n", "\r\n").encode("utf-8")
    assert tidy.read_bytes().startswith("\ufeff".encode("utf-8"))


def test_fmt_rewrites_only_changed_files_and_keeps_their_permissions(tmp_path):
    messy, tidy = tmp_path / "messy.page", tmp_path / "tidy.page"
    messy.write_text(MESSY, encoding="utf-8")
    tidy.write_text(TIDY, encoding="utf-8")
    os.chmod(messy, 0o640)
    untouched = tidy.stat().st_mtime_ns
    os.utime(tidy, ns=(untouched - 10**9, untouched - 10**9))
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert tidy.stat().st_mtime_ns == untouched - 10**9
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.page", "tidy.page"]
    assert run("--check", tmp_path).exit_code == 0


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_content_names_the_folder_fmt_lays_out_and_resolves_names_in(tmp_path, monkeypatch):
    """``--content`` as lint takes it: without PATHS, that folder is laid out; with PATHS,
    their names resolve against it (a deck of its pages is no error, so it is laid out)."""
    folder = tmp_path / "project"
    shutil.copytree(ROOT / "content", folder)
    (folder / "pages" / "messy.page").write_text(MESSY, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no content/ here: only --content tells the folder
    result = run("--content", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "pages" / "messy.page").read_text(encoding="utf-8") == CANONICAL
    deck = elsewhere / "own.deck"
    deck.write_text('デッキ own "自前" {\n    hatsu_koe\n}\n', encoding="utf-8")
    result = run("--content", folder, deck)
    assert result.exit_code == 0, result.output
    assert deck.read_text(encoding="utf-8") == 'デッキ own "自前" {\n  hatsu_koe\n}\n'
    assert run(deck).exit_code == 1  # without the folder, hatsu_koe is an unknown page


def test_fmt_check_passes_on_the_bundled_content():
    assert run("--check", ROOT / "content").exit_code == 0


@pytest.mark.slow  # a second or more (the fast loop's share, README)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_formatting_generated_content_keeps_its_meaning_and_is_idempotent(tmp_path, seed):
    folder = tmp_path / str(seed)
    if folder.exists():
        shutil.rmtree(folder)
    content = corpus.write_content(folder, pages=24, files=3, seed=seed)
    before = compiled(content)
    format_folder(content)
    assert compiled(content) == before
    for path in (p for p in content.rglob("*") if p.suffix in SUFFIXES):
        text = path.read_text(encoding="utf-8")
        assert formatted(text) == text


def test_a_comment_after_an_items_closing_brace_stays_on_its_line():
    text = TIDY.rstrip("\n") + "  # この項目の注\n" + TIDY.replace("sumi", "tsugi")
    out = format_text(text, "t.page").text
    assert "}  # この項目の注\n\n" in out
    assert "\n\n# この項目の注" not in out  # not a comment of the next item
    assert format_text(out, "t.page").text == out
    # the next item on the same line, a # in its title: no comment, it starts a line
    second = TIDY.replace("sumi", "tsugi").split("\n\n", 1)[1]  # without its heading
    two = TIDY.rstrip("\n") + " " + second.replace('"', '"#', 1)
    assert two.count("} ページ tsugi_a \"#") == 1
    assert "} ページ" not in format_text(two, "t.page").text


@pytest.mark.parametrize("header", ['ページ fmta "整形A"', '敵 fmte "整形E"'])
def test_a_comment_on_a_header_line_and_on_its_brace_line_are_both_kept(header):
    body = ("  銘 30\n  未来面 { 敵HP -= 2 }\n  過去面 { 通貨 += 1 }\n" if header[0] == "ペ"
            else "  HP 10\n  座 40\n  突破ライン 50\n  予兆 [ 攻撃 3 ]\n")
    text = f"{header} # メモ1\n{{ # メモ2\n{body}}}\n"
    out = format_text(text, "t.page" if header[0] == "ペ" else "t.enemy").text
    assert out.startswith(f"{header} {{  # メモ1  # メモ2\n"), out
    assert format_text(out, "t.page" if header[0] == "ペ" else "t.enemy").text == out


def test_a_reprint_that_would_drop_a_comment_is_refused_as_a_formatter_bug(monkeypatch):
    """The last guard: whatever the printer does, a comment it lost is its bug, never
    a file written without it."""
    from dsl import formatter

    monkeypatch.setattr(formatter._Printer, "_comment", lambda self, pos, body: None)
    with pytest.raises(formatter.FormatterBug, match="コメント"):
        format_text(TIDY.replace("\n", "  # 注\n", 1), "t.page")


def test_fmt_check_of_a_folder_holding_no_content_file_checked_nothing_and_says_so(tmp_path):
    result = run(tmp_path, "--check")
    assert result.exit_code == 1 and "何も検査していません" in result.output
    assert "整形済み" not in result.output
