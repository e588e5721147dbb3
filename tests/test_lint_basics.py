"""Basic behaviour of lint on the bundled content and on small inputs."""

from __future__ import annotations

import pytest

from click.testing import CliRunner

from cli import main
from conftest import ROOT, codes


def test_bundled_content_is_clean(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["lint"])
    assert result.exit_code == 0, result.output
    assert "エラー 0 件" in result.output


def test_ascii_aliases_mean_the_same_as_japanese():
    ja = "ページ t {\n 銘 30\n 未来面 { 防御 += 6 寿命 被弾1回 }\n 過去面 白紙\n ペン 過去面 { 歩 += 5 }\n}\n"
    en = "page t {\n year 30\n future { defense += 6 life on_hit }\n past blank\n pen past { steps += 5 }\n}\n"
    assert codes(ja) == codes(en) == []


def test_one_line_effect_is_complete():
    assert codes("ページ t { 銘 1; 未来面 { 敵HP -= 12 }; ペン 過去面 { 歩 += 5 } }") == []


# ------------------------------------------------- lint and compile: one pipeline


def _copy_content(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def test_lint_and_compile_run_the_same_passes():
    from compiler import pipeline

    assert [step.__name__ for step in pipeline.PASSES] == [
        "parse", "check_sizes", "collect_symbols", "check_items", "check_journey",
        "check_project", "analyze", "lower_tables", "validate_tables", "emit"]


def test_lint_of_the_project_reports_what_compile_refuses(tmp_path):
    """Content without the starting deck fails compile with E014: lint says so too."""
    content = _copy_content(tmp_path)
    (content / "starter.deck").unlink()
    runner = CliRunner()
    compiled = runner.invoke(main, ["compile", "--content", str(content),
                                    "--out", str(tmp_path / "out")])
    linted = runner.invoke(main, ["lint", "--content", str(content)])
    named = runner.invoke(main, ["lint", str(content), "--content", str(content)])
    for result in (compiled, linted, named):
        assert result.exit_code == 1, result.output
        assert "エラー[E014]" in result.output and "初期デッキ「starter」がありません" in result.output
    # One file of the project is not the project: it lints clean on its own.
    page = next((content / "pages").glob("*.page"))
    one = runner.invoke(main, ["lint", str(page), "--content", str(content)])
    assert one.exit_code == 0, one.output


@pytest.mark.slow
@pytest.mark.parametrize("command", ["lint", "test", "fmt --check"])
def test_a_copy_of_the_content_named_alone_is_checked_as_itself(tmp_path, monkeypatch, command):
    """A designer copies content/ to try a change and names the copy: it is the content
    folder (it holds the balance), not files checked with content/ around them — where
    each of its definitions would be one twice (E012 on every page)."""
    content = _copy_content(tmp_path)
    monkeypatch.chdir(ROOT)  # where content/ is: the folder a named file resolves against
    runner = CliRunner()
    alone = runner.invoke(main, [*command.split(), str(content)])
    assert alone.exit_code == 0, alone.output
    assert "E012" not in alone.output
    # A change in the copy is what is checked: its error, at the copy's own path.
    page = content / "pages" / "少年期.page"
    page.write_text(page.read_text(encoding="utf-8") + "\nページ tameshi { 銘 12\n 未来面 { 山札 += 1 } }\n",
                    encoding="utf-8")
    broken = runner.invoke(main, [*command.split(), str(content)])
    assert broken.exit_code == 1, broken.output
    assert "E010" in broken.output and "E012" not in broken.output
    # A folder of the content (no balance in it) still sees content/ around it.
    assert runner.invoke(main, ["lint", str(ROOT / "content" / "pages")]).exit_code == 0


@pytest.mark.parametrize("name", ["a.page", "龍.page"])  # sorts before / after 青年期.page
def test_a_second_definition_of_an_id_has_its_own_errors_said_too(tmp_path, name):
    """E012: an id defined twice. QA: the definition whose file sorted second was never
    checked, so its own errors (an out-of-range 銘, an unknown variable) came only after
    the id was changed — what a run shows depended on the files' names."""
    content = _copy_content(tmp_path)
    (content / "pages" / name).write_text(
        'ページ arubaito "バイト" {\n  銘 300\n  出自 青年期\n  未来面 {\n    敵ＨＰ -= 3\n  }\n}\n',
        encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", str(content)])
    assert result.exit_code == 1
    said = result.output
    assert f"pages/{name}:1:5: エラー[E012]" in said and f"pages/{name}:2:5: エラー[E030]" in said, said
    assert f"pages/{name}:5:5: エラー[E010]" in said and "エラー 5 件" in said, said  # E066 too


def test_lint_builds_the_tables_compile_writes():
    from compiler.build import compile_content
    from compiler.lint import check

    linted = check([ROOT / "content"], project=ROOT / "content")
    assert linted.errors == 0 and linted.tables == compile_content(ROOT / "content").tables
    assert linted.compilation.files == {}  # lint emits no files


def test_lint_output_does_not_depend_on_the_hash_seed():
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("0", "4242"):
        done = subprocess.run([sys.executable, "cli.py", "lint", "--format", "json",
                               "tests/fixtures", "content"], cwd=ROOT, capture_output=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, timeout=300)
        outputs.add(done.stdout)
    assert len(outputs) == 1 and outputs.pop().startswith(b"[")


def test_keywords_are_words_of_the_vocabulary():
    """dsl/keywords.py builds the grammar rules; the words are contract.vocabulary's, and
    the faces are one entry (FACES) for the grammar, the runtime, the terminal and the
    catalog alike."""
    from contract import vocabulary as vocab
    from dsl import keywords

    assert keywords.KEYWORDS is vocab.KEYWORDS
    for face in vocab.FACES:
        assert vocab.KEYWORDS[face.code] == (face.ja, face.code)
    text = (ROOT / "dsl" / "keywords.py").read_text(encoding="utf-8")
    assert [ja for ja, _ in vocab.KEYWORDS.values() if len(ja) > 1 and ja in text] == []
    assert '_kw_future: "未来面" | "future"' in keywords.grammar_rules().split("\n")


def test_a_keyword_typo_gets_a_did_you_mean_from_the_names_suggester():
    from compiler.lint import check_text

    cases = {"ページ t {\n 銘 30\n 未来 { 敵HP -= 1 }\n}\n": ("未来面", 3, 2),
             "ページ t {\n yaer 30\n 未来面 { 敵HP -= 1 }\n}\n": ("year", 2, 2),
             "ページ t {\n 銘 30\n 未来面 { 敵HP -= 1 }\n 過去面 白髪\n}\n": ("白紙", 4, 6)}
    for text, (word, line, col) in cases.items():
        (diag,) = check_text(text, "t.page").diagnostics
        assert (diag.code, diag.span.line, diag.span.col) == ("E001", line, col)
        assert diag.hint.startswith(f"もしかして「{word}」？")


@pytest.mark.parametrize("line, word, col, meant", [
    (" 未来面 {\n  移働 1枚 捨て札 -> 手札\n }\n", "移働", 3, "移動"),
    (" 未来面 { 支払 HP 3 }\n", "支払", 8, "支払う"),
    (" 未来面 {\n  dupicate 1 手札 -> 手札\n }\n", "dupicate", 3, "duplicate")])
def test_a_misspelt_verb_is_said_at_the_verb_with_the_verb_meant(line, word, col, meant):
    """The parser reads a verb it does not know as a variable and used to stop at the
    count after it (「1」はここに書けません, 演算子) — a message about what is right."""
    from compiler.lint import check_text

    text = f"ページ t {{\n 銘 30\n{line} 過去面 {{ 敵HP -= 1 }}\n}}\n"
    (diag,) = check_text(text, "t.page").diagnostics
    assert (diag.code, diag.span.line, diag.span.col) == ("E001", 4 if "\n  " in line else 3, col)
    assert diag.message == f"「{word}」は作用の動詞でも変数でもありません"
    assert diag.hint == f"もしかして「{meant}」？" and diag.replacements == (meant,)


def test_a_variable_without_its_operator_keeps_the_operator_message():
    from compiler.lint import check_text

    text = "ページ t {\n 銘 30\n 未来面 { 敵HP 3 }\n 過去面 { 敵HP -= 1 }\n}\n"
    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.message == "「3」 はここに書けません" and "演算子" in diag.hint


@pytest.mark.parametrize("typed", ["らんだむ", "ﾗﾝﾀﾞﾑ"])
def test_a_name_typed_in_the_other_kana_gets_the_name_meant_as_hint_and_fix(typed):
    """E010 for a word of the vocabulary typed in hiragana or half-width kana: it has no
    character in common with the one meant, so only reading it as the eye does finds it."""
    from compiler.lint import check_text

    text = (f"ページ t {{\n 銘 30\n 未来面 {{ 移動 1枚 捨て札 -> 手札 {typed} }}\n"
            " 過去面 { 敵HP -= 1 }\n}\n")
    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.code == "E010", diag
    assert diag.hint.startswith("もしかして「ランダム」？")
    assert diag.replacements == ("ランダム",)


@pytest.mark.parametrize("typed, meant", [("ぺん", "ペン"), ("ﾍﾟﾝ", "ペン"), ("PEN", "pen"),
                                          ("未來面", "未来面")])
def test_a_keyword_typed_another_way_gets_the_keyword_as_hint_and_fix(typed, meant):
    from compiler.lint import check_text

    text = f"ページ t {{\n 銘 30\n 未来面 {{ 敵HP -= 1 }}\n {typed} 過去面 {{ 敵HP -= 1 }}\n}}\n"
    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.code == "E001" and (diag.span.line, diag.span.col) == (4, 2)
    assert diag.hint.startswith(f"もしかして「{meant}」？") and diag.replacements == (meant,)


def test_the_names_suggester_takes_a_word_typed_another_way_for_the_word_meant():
    from compiler.names import suggest

    assert suggest("てんと", ["テント", "地図"]) == "テント"
    assert suggest("ﾃﾝﾄ", ["テント", "地図"]) == "テント"
    assert suggest("未來面", ["未来面", "過去面"]) == "未来面"
    assert suggest("ﾃﾝﾄ", ["地図"]) is None


def test_codes_follow_one_convention_and_former_romanised_codes_point_to_the_english_ones(lint_text):
    from contract import vocabulary as vocab

    every = [e.code for t in vocab.tables().values() for e in t.entries]
    every += [ascii_ for _, ascii_ in vocab.KEYWORDS.values()]
    former = {old for old in vocab.FORMER_CODES if "_" not in old}  # the romanised words
    assert not [c for c in every if former & set(c.split("_"))]
    for old, new in vocab.FORMER_CODES.items():
        assert new in every, new
    text = "page t {\n  year 30\n  future { bougyo += 6 life on_hit }\n  past blank; pen past { steps += 5 }\n}\n"
    [found] = lint_text(text, "t.page").diagnostics
    assert (found.code, found.hint) == ("E010", "もしかして「defense」？")


@pytest.mark.parametrize("text", [
    "ページ t {\n 銘 30\n 目標 勝率差 -5%〜\n 未来面 { 敵HP -= 1 }\n 過去面 { 敵HP -= 1 }\n}\n",
    '敵 e "E" {\n  HP 10\n  座 3\n  突破ライン 10\n  目標 勝率 40%..\n  予兆 [ 攻撃 1 ]\n}\n'])
def test_a_target_band_without_its_upper_end_says_so(text):
    """The hint was 「値が足りません。例: 敵HP -= 12」 — an effect line for a 目標."""
    from compiler.lint import check_text

    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.code == "E001" and diag.hint.startswith("範囲の上端が足りません。〜 の後に書きます")


@pytest.mark.parametrize("line, word", [("敵HP -= 6  歩 += 2", "歩"),
                                        ("敵HP -= 6 移動 1枚 山札 -> 手札", "移動")])
def test_a_second_sayou_on_one_line_is_told_to_take_its_own_line(line, word):
    """The hint listed nine words that could follow (予告, 固定, 寿命 …, 改行) and left the
    designer to guess that a line holds one 作用."""
    from compiler.lint import check_text

    text = f"ページ t {{\n 銘 30\n 未来面 {{ {line} }}\n 過去面 {{ 敵HP -= 1 }}\n}}\n"
    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.code == "E001" and diag.message == f"「{word}」 はここに書けません"
    assert diag.hint.startswith("1 行に書ける作用は 1 つです。改行するか ; で区切ります")
    fixed = text.replace(line, line.replace("  ", " ").replace(f" {word}", f"; {word}", 1))
    assert check_text(fixed, "t.page").diagnostics == []


def test_the_names_suggester_offers_an_id_only_for_a_slip_of_it():
    """``--page nosuch`` was answered 「もしかして「surechigai」？」 (difflib's 0.5, where a
    romanised id shares half its letters with many others); a slip of one letter or two
    is still named, and a Japanese word keeps the looser bar (少年時代 for 少年期)."""
    from compiler.names import suggest

    ids = ["surechigai", "sumaho", "zangyou", "kekkon", "sakamichi", "juku", "oi"]
    assert suggest("nosuch", ids) is None
    for slip, meant in [("zangyo", "zangyou"), ("kekon", "kekkon"), ("sakamiti", "sakamichi"),
                        ("juk", "juku"), ("oii", "oi")]:
        assert suggest(slip, ids) == meant
    assert suggest("少年時代", ["少年期", "青年期"]) == "少年期"
    assert suggest("攻勢", ["攻撃", "白紙化"]) == "攻撃"


def test_the_names_suggester_names_every_word_as_near_or_none():
    """A word as near to two names as to one (幼年期: 幼少期, 青年期) named only the one
    difflib sorted first; as near to many, it guesses none and the hint lists instead."""
    from compiler.names import guess

    assert guess("幼年期", ["幼少期", "青年期"]).hint == "もしかして「幼少期」か「青年期」？"
    assert guess("幼年期", ["青年期", "幼少期"]).replacements == ("青年期", "幼少期")
    assert guess("幼年期", ["幼少期", "少年期", "青年期", "壮年期", "熟年期"]).word is None
    assert guess("攻撃力", ["攻撃", "防御"]).replacements == ("攻撃",)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_lint_of_a_folder_holding_no_content_file_checked_nothing_and_says_so(tmp_path, fmt):
    """No false green: a folder with no .page, .enemy … (generated/, an empty one) is
    nothing checked, not content without errors."""
    (tmp_path / "notes.txt").write_text("メモ\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", str(tmp_path), "--format", fmt])
    assert result.exit_code == 1, result.output
    assert "コンテンツのファイル" in result.output and "何も検査していません" in result.output


def test_one_file_named_twice_relative_and_absolute_is_read_once(monkeypatch, tmp_path):
    """The same file named by two paths (relative and absolute, or through a link) is one
    file: its items are not each defined twice (E012), nor its examples run twice."""
    monkeypatch.chdir(ROOT)
    page = "content/pages/少年期.page"
    link = tmp_path / "link.page"
    link.symlink_to(ROOT / page)
    result = CliRunner().invoke(main, ["lint", page, str(ROOT / page), str(link)])
    assert result.exit_code == 0, result.output
    assert "E012" not in result.output and "1 ファイル: エラー 0 件" in result.output


def test_a_file_of_another_content_folder_is_checked_with_that_folder(monkeypatch, tmp_path):
    """A page of ../other/content, named from the project (whose content/ defines the same
    ids), is checked with its own folder's pages, as the editor checks it — not as a
    second definition of every id beside the bundled ones (E012)."""
    import shutil

    other = tmp_path / "other" / "content"
    shutil.copytree(ROOT / "content", other)
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["lint", str(other / "pages" / "少年期.page")])
    assert result.exit_code == 0, result.output
    assert "E012" not in result.output and "1 ファイル: エラー 0 件" in result.output


def test_a_subfolder_of_a_copy_of_content_under_another_name_is_checked_with_the_copy(
        monkeypatch, tmp_path):
    """A copy of content/ named otherwise (``mine/``: it holds the balance file) is a content
    folder too: its journey/ named from the project is checked with the copy, not as a
    second definition of each of content/journey's items (E012)."""
    import shutil

    copy = tmp_path / "mine"
    shutil.copytree(ROOT / "content", copy)
    monkeypatch.chdir(ROOT)
    for named in (copy / "journey", copy / "pages" / "少年期.page"):
        result = CliRunner().invoke(main, ["lint", str(named)])
        assert result.exit_code == 0, result.output
        assert "E012" not in result.output and "エラー 0 件" in result.output


def test_errors_of_the_folder_names_resolve_against_are_counted_apart_from_those_shown(
        monkeypatch, tmp_path):
    """A copy of content/ linted with --content content: each id is defined twice, so the
    named files' errors are shown and counted (the summary), and the examples are blocked
    by those and by the resolving folder's as many — said apart, so the counts agree."""
    import re
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "content", copy)
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["lint", str(copy), "--content", "content"])
    assert result.exit_code == 1
    shown = int(re.search(r"ファイル: エラー (\d+) 件", result.output).group(1))
    blocked = re.search(r"エラーが (\d+) 件あります（上の (\d+) 件と、名前を解決するフォルダの (\d+) 件",
                        result.output)
    assert blocked, result.output
    total, above, unshown = map(int, blocked.groups())
    assert above == shown and total == above + unshown and unshown > 0


def test_an_example_written_inside_a_pages_braces_is_said_at_the_example():
    """QA: a 例 put before the page's closing } cut the page there (a 例 starts an item):
    E003 「この定義が閉じていません」 at the page's first line and E001 at its last }, while the
    braces balance and nothing pointed at the 例. One error at the 例 now; the page is
    still read (its own error, 銘 300, is said too)."""
    from compiler.lint import check_text

    text = ('ページ t "試し" {\n  銘 300\n  未来面 { 敵HP -= 3 }\n  過去面 { 歩 += 1 }\n'
            '  例 "一撃" {\n    敵 e\n    出す t\n  }\n}\n')
    said = [(d.code, d.span.line, d.span.col, d.message) for d in check_text(text, "t.page").diagnostics]
    assert ("E003", 5, 3, "例 が定義の { … } の中に書かれています") in said, said
    assert ("E030", 2, 5) in [s[:3] for s in said] and not any(s[0] == "E001" for s in said), said
    assert len(said) == 2, said


def test_a_number_grouped_with_a_full_width_comma_gets_the_number_whole_as_its_fix():
    """QA: 「1，000」 was told to write the comma half-width, and 「1,000」 then was E001 (no
    thousands separator). The hint and the quick fix give 1000 at once, and it lints."""
    from compiler.lint import check_text

    text = "ページ t {\n 銘 30\n 未来面 { 敵HP -= 1，000 }\n 過去面 { 歩 += 1 }\n}\n"
    (diag,) = check_text(text, "t.page").diagnostics
    assert diag.code == "E002" and diag.hint == "数に桁区切りの「,」は書けません。1000 と続けて書きます"
    line = text.splitlines()[diag.span.line - 1]
    fixed_line = line[:diag.span.col - 1] + diag.replacements[0] + line[diag.span.end_col - 1:]
    assert check_text(text.replace(line, fixed_line), "t.page").diagnostics == []


def test_a_balance_key_written_wrong_is_one_error_not_also_a_missing_key(tmp_path):
    """QA: 最大ＨＰ for 最大HP gave E010 with its fix and E014 「足りない項目があります: 最大HP」
    for the same slip (a page's 名 for 銘 gives E001 alone)."""
    content = _copy_content(tmp_path)
    balance = next(content.glob("*.balance"))
    text = balance.read_text(encoding="utf-8")
    balance.write_text(text.replace("  最大HP ", "  最大ＨＰ ", 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", str(content)])
    assert "エラー[E010]: 「最大ＨＰ」というバランスの項目はありません" in result.output, result.output
    assert "E014" not in result.output and "エラー 1 件" in result.output, result.output


def test_a_seat_far_past_the_line_is_one_error_whose_hint_fixes_it(tmp_path):
    """QA: 座 420 got two E030 at one place — 「0〜200 の整数」, whose fix (座 200) still failed,
    and 「寿命上限 80 の先」. Now the one that says the bound that fixes it."""
    content = _copy_content(tmp_path)
    enemy = next(p for p in (content / "enemies").glob("*.enemy") if "座 42\n" in p.read_text(encoding="utf-8"))
    enemy.write_text(enemy.read_text(encoding="utf-8").replace("座 42\n", "座 420\n", 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", str(content)])
    assert result.output.count("エラー[E030]") == 1, result.output
    assert "座 420 は寿命上限 80 の先です" in result.output and "座を 80 以下に" in result.output


def test_a_content_folder_without_a_balance_is_named_in_the_hint(tmp_path):
    """QA: ``build --content emptyc`` hinted 「content/ に バランス { … } を1つ書いてください」,
    naming a folder it was not asked to read."""
    (tmp_path / "emptyc").mkdir()
    result = CliRunner().invoke(main, ["lint", "--content", str(tmp_path / "emptyc")])
    assert result.exit_code == 1, result.output
    assert f"{tmp_path / 'emptyc'} に バランス {{ … }} を1つ書いてください" in result.output
    assert "content/ に" not in result.output


def test_a_list_of_names_cut_at_twelve_says_how_many_more_there_are():
    """Diagnostics sweep: 「使える発動タイミング: ターン開始時、…、ラン開始時」 read as the
    whole list, without 被弾時 — the one the designer meant by 攻撃時."""
    from conftest import codes  # noqa: F401  (the module's helpers)
    from compiler.lint import check_text

    text = ('ページ t "試し" {\n  銘 10\n  出自 幼少期\n'
            '  未来面 { 防御 += 5 毎 攻撃時 範囲 ターン }\n  過去面 { 歩 += 1 }\n}\n')
    (hint,) = [d.hint for d in check_text(text, "t.page").diagnostics if d.code == "E010"]
    assert hint.startswith("使える発動タイミング: ") and "ほか 9 個（一覧は jibunki vocab）" in hint, hint


def test_a_file_of_a_near_miss_ending_in_a_folder_is_said_not_passed_over(tmp_path):
    """Diagnostics sweep: ``new.Page`` or ``x.pages`` in pages/ — a designer's page — was
    skipped by a folder's lint without a word (``23 ファイル: エラー 0 件``)."""
    from compiler.read import discover

    for name in ("a.page", "b.Page", "c.pages", "d.txt", "e.ENEMY"):
        (tmp_path / name).write_text("", encoding="utf-8")
    problems = []
    assert [p.name for p in discover([tmp_path], problems)] == ["a.page"]
    said = {d.span.path.rsplit("/", 1)[-1]: d for d in problems}
    assert sorted(said) == ["b.Page", "c.pages", "e.ENEMY"] and {d.code for d in problems} == {"E004"}
    assert "（コンテンツのファイルは .page で終わります）" in said["c.pages"].message
    assert "ファイル名の終わりを直してください" in said["b.Page"].hint


def test_a_lint_with_errors_says_the_interaction_analysis_did_not_run(project):
    """The analysis (W006 …) reads the whole content and runs only where nothing has an
    error: a lint of one good file beside a broken one said 「警告 0 件」 with no word that
    it had looked for none of them — nor does a lint of the broken content, whose fix
    then brings warnings nobody was told were unchecked. Said, from the lint cache too."""
    from conftest import invoke_cli

    clean = invoke_cli("lint", "content/pages/青年期.page")
    assert clean.exit_code == 0 and "相互作用の分析" not in clean.output
    broken = project / "content" / "pages" / "幼少期.page"
    text = broken.read_text(encoding="utf-8")
    line = text[:text.index("敵HP -= ")].count("\n") + 1
    broken.write_text(text.replace("敵HP -= ", "敵HP -= ＄", 1), encoding="utf-8")
    note = "相互作用の分析（W006・W007・W008・W009・W010・W012 の警告）は、エラーがあるので行っていません"
    for _ in range(2):  # the second from the lint cache
        one = invoke_cli("lint", "content/pages/青年期.page")
        assert one.exit_code == 0, one.output
        assert (f"{note}（名前を解決するフォルダのエラー 1 件: content/pages/幼少期.page:{line}）。"
                in one.output), one.output
        whole = invoke_cli("lint")
        assert whole.exit_code == 1 and f"{note}。" in whole.output, whole.output
    own = project / "content" / "pages" / "青年期.page"  # an error of its own as well
    own.write_text(own.read_text(encoding="utf-8").replace("敵HP -= ", "敵HP -= ＄", 1),
                   encoding="utf-8")
    both = invoke_cli("lint", "content/pages/青年期.page")
    assert (f"{note}（このほか、名前を解決するフォルダのエラー 1 件: content/pages/幼少期.page:"
            f"{line}）。" in both.output), both.output


def test_the_analysis_codes_are_those_the_analysis_reports():
    """The note names exactly the codes a Finding of analysis/ is made with."""
    import re

    from compiler.codes import ANALYSIS

    written = {code for path in (ROOT / "analysis").glob("*.py")
               for code in re.findall(r'(?:Finding\(\s*|^\s*)"(W0\d\d)",',
                                      path.read_text(encoding="utf-8"), re.MULTILINE)}
    assert written == set(ANALYSIS)
