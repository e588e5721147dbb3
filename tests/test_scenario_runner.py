"""`jibunki test` and examples in lint: the scenario format, failures with positions,
the test-runner output, and malformed scenarios as diagnostics."""

from __future__ import annotations

from click.testing import CliRunner

from cli import main
from scenario.stage import lint_text as check_text
from conftest import bundled_balance

BALANCE = bundled_balance()
CONTENT = """\
ページ p "一撃" {
  銘 30
  未来面 { 敵HP -= 5 }; ペン 過去面 { 防御 += 3 }
}
ページ q { 銘 10; 過去面 { 防御 += 4 寿命 被弾1回 }; ペン 未来面 { 敵HP -= 3 } }
敵 e "的" { HP 50; 座 40; 突破ライン 30; 予兆 [攻撃 5, 攻撃 5] }
デッキ starter { p; q }
"""


def run(example: str):
    return check_text(CONTENT + example, "t.page", {"b.balance": BALANCE})


def test_a_passing_example_gives_no_diagnostic():
    result = run('例 "打つ" {\n 敵 e\n 開始 刻 20, 手札 [p, q]\n 出す p\n 確認 敵HP == 45, 刻 == 30\n}\n')
    assert result.diagnostics == [] and [r.passed for r in result.examples] == [True]


def test_a_failing_expectation_is_reported_at_its_place_with_both_numbers():
    result = run('例 "打つ" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 刻 == 30, 敵HP == 40\n}\n')
    (diag,) = result.diagnostics
    assert (diag.code, diag.span.line, diag.span.col) == ("E044", 12, 14)
    assert "期待 敵HP == 40" in diag.message and "敵HP = 45" in diag.message


def test_a_step_the_battle_cannot_take_points_at_the_example_and_lists_the_hand():
    """A mistake in the example itself (a page it never put in the hand) is told so: the
    hand as it was, and a hint at the example's steps and 開始 — a failed 確認 keeps
    the hint at the page's 作用 or the expected value."""
    result = run('例 "打つ" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す q\n}\n')
    (diag,) = result.diagnostics
    assert (diag.code, diag.span.line) == ("E044", 11)
    assert "手札に「q」がありません（手札: p）" in diag.message
    assert diag.hint.startswith("例の手順か 開始 の値（手札など）を見直してください")
    failed = run('例 "打つ" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 敵HP == 40\n}\n')
    assert failed.diagnostics[0].hint == "ページの作用か、例の期待値を直してください"


def test_expected_refusal_must_happen_and_match_its_reason():
    ok = run('例 {\n 敵 e\n 開始 刻 20, 歩 3, 手札 [p]\n 出す p 拒否 "歩が足りない"\n}\n')
    assert ok.diagnostics == []
    wrong = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p 拒否\n}\n')
    assert [d.code for d in wrong.diagnostics] == ["E044"]
    assert "拒否されるはずが" in wrong.diagnostics[0].message


def test_events_are_counted_since_the_previous_expectation():
    result = run('例 {\n 敵 e\n 開始 刻 20, 手札 [q]\n 出す q\n 終了\n'
                 ' 確認 出来事[hit] == 2, 出来事[defense_consumed] >= 1, HP == 200 - 0\n}\n')
    assert result.diagnostics == [], [d.message for d in result.diagnostics]
    again = run('例 {\n 敵 e\n 開始 刻 20, 手札 [q]\n 出す q\n 確認 出来事[played] == 1\n 終了\n'
                ' 確認 出来事[played] == 1\n}\n')
    assert [d.code for d in again.diagnostics] == ["E044"]  # the window starts anew


def test_a_pen_step_takes_a_face_by_its_short_name_as_the_battle_does():
    """The battle's pen command takes 未来/過去 (the faces' other spellings): so does a 例's
    ペン step; a word that is no face is E010 naming the faces."""
    short = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n ペン p 過去\n 確認 過去面[p] == 1\n}\n')
    assert short.diagnostics == [], [d.message for d in short.diagnostics]
    assert [r.passed for r in short.examples] == [True]
    wrong = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n ペン p 横\n}\n')
    [said] = wrong.diagnostics
    assert (said.code, said.span.line, said.span.col) == ("E010", 11, 7)
    assert said.message == "「横」という面はありません" and "未来面、過去面、未来、過去" in said.hint


def test_won_means_the_run_was_won_not_a_stage():
    """勝利 is 「ランに勝っていれば 1」 (the vocabulary): a two-stage example that wins its
    first stage has not won — its stage win is counted by 出来事[stage_won]."""
    steps = ' 敵 e\n 敵 e\n 開始 刻 20, 敵HP 5, 手札 [p]\n 出す p\n'
    stage = run(f'例 {{\n{steps} 確認 勝利 == 0, 出来事[stage_won] == 1, ステージ == 2\n}}\n')
    assert stage.diagnostics == [], [d.message for d in stage.diagnostics]
    early = run(f'例 {{\n{steps} 確認 勝利\n}}\n')
    assert [d.code for d in early.diagnostics] == ["E044"]
    whole = run('例 {\n 敵 e\n 開始 刻 20, 敵HP 5, 手札 [p]\n 出す p\n 確認 勝利\n}\n')
    assert whole.diagnostics == []


def test_malformed_scenarios_are_diagnostics_not_tracebacks():
    bad = run('例 {\n 敵 nobody\n 出す zz\n 確認 ダメージ == 3, 出来事[nothing] == 1\n}\n')
    assert sorted(d.code for d in bad.diagnostics) == ["E011", "E011", "E057", "E057"]


def test_jibunki_test_prints_one_line_per_scenario_and_a_closing_count(tmp_path):
    content = tmp_path / "content"
    (content / "tests").mkdir(parents=True)
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    (content / "x.page").write_text(CONTENT, encoding="utf-8")
    (content / "tests" / "a.scenario").write_text(
        '例 "通る" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 敵HP == 45\n}\n'
        '例 "落ちる" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 敵HP == 44\n}\n',
        encoding="utf-8")
    # another content folder than the bundled one is named with --content
    result = CliRunner().invoke(main, ["test", "--content", str(content)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("成功  通る") for line in lines)
    assert any(line.startswith("失敗  落ちる") for line in lines)
    assert "    - 期待: 敵HP == 44" in lines and "    + 実際: 敵HP = 45" in lines
    assert lines[-1] == "成功 1、失敗 1（1 ファイルの例 2 件）"
    # the line written with a caret under what failed, and what to look at, as lint shows
    at = lines.index("    - 期待: 敵HP == 44")
    assert lines[at - 2] == "     11 |  確認 敵HP == 44"
    assert lines[at - 1].strip() == "|       ^^^^^^^^^^"  # under 敵HP == 44
    assert lines[at + 2] == "    = ヒント: ページの作用か、例の期待値を直してください"


def test_region_sums_and_currency_can_be_checked_and_set():
    result = run('例 {\n 敵 e\n 開始 刻 20, 通貨 7, 手札 [p]\n'
                 ' 確認 山札+捨て札 == 2, 山札+捨て札+手札 == 3, 通貨 == 7\n}\n')
    assert result.diagnostics == [], [d.message for d in result.diagnostics]


def test_developer_mode_in_examples_sets_every_value_with_its_lifetime():
    result = run('例 {\n 敵 e\n 開始 刻 20, 防御[ステージ] 7, 防御[被弾1回] 3, 綻び 40, 綻び[ステージ] 25,'
                 ' 座 35, 敵HP 9, 通貨 4, 手札 [p]\n'
                 ' 確認 防御[ステージ] == 7, 防御[被弾1回] == 3, 防御 == 10, 綻び == 40,'
                 ' 綻び[ステージ] == 25, 座 == 35, 敵HP == 9, 通貨 == 4\n}\n')
    assert result.diagnostics == [], [d.message for d in result.diagnostics]


def test_developer_mode_in_examples_refuses_impossible_values_at_their_line():
    result = run('例 {\n 敵 e\n 開始 刻 81\n}\n')
    (diag,) = result.diagnostics
    assert (diag.code, diag.span.line) == ("E044", 10)
    assert "刻 は 0〜80" in diag.message
    unknown = run('例 {\n 敵 e\n 開始 体力 3\n}\n')
    assert [d.code for d in unknown.diagnostics] == ["E056"]


def test_every_refused_value_of_a_setup_is_reported_at_its_value():
    """Every error of a run is reported: a 開始 with several impossible values names each
    one, with the caret on the value, not only the first at 開始; the values accepted
    before a refused one stay set for the ones after it (DevSet's order)."""
    result = run('例 {\n 敵 e\n 開始 刻 300, 手札 [p], 歩 -5, 座 35, 防御 -3, 座 500\n}\n')
    found = [(d.code, d.span.line, d.span.col, d.span.end_col) for d in result.diagnostics]
    assert found == [("E044", 10, 7, 10), ("E044", 10, 22, 24), ("E044", 10, 35, 37),
                     ("E044", 10, 41, 44)], found
    messages = [d.message for d in result.diagnostics]
    assert "刻 は 0〜80 の範囲です（300）" in messages[0] and "座 は 0〜80 の範囲です（500）" in messages[3]


def test_a_setup_value_that_cannot_be_set_is_E056_at_its_name():
    result = run('例 {\n 敵 e\n 開始 刻 20, 体力 3\n}\n')
    assert [(d.code, d.span.line, d.span.col) for d in result.diagnostics] == [("E056", 10, 11)]
    result = run('例 {\n 敵 e\n 開始 手札 3\n}\n')
    assert [d.code for d in result.diagnostics] == ["E056"]


def test_an_unknown_event_kind_lists_the_kinds_an_example_can_count():
    """The hint names what can be written (it sent a designer to a Python source file)."""
    [said] = [d for d in run('例 {\n 敵 e\n 確認 出来事[nothing] == 1\n}\n').diagnostics
              if d.code == "E057"]
    assert said.hint.startswith("書ける出来事: ") and "座の移動" in said.hint
    assert ".py" not in said.hint and "seat_moved" not in said.hint  # the designer's words


def test_an_expectation_that_cannot_be_checked_is_E057_at_its_quantity():
    result = run('例 {\n 敵 e\n 開始 刻 20\n 確認 ダメージ == 3\n}\n')
    assert [(d.code, d.span.line, d.span.col) for d in result.diagnostics] == [("E057", 11, 5)]
    result = run('例 {\n 敵 e\n 確認 刻\n}\n')
    assert [d.code for d in result.diagnostics] == ["E057"]


def test_a_combined_region_counts_a_page_in_an_expectation():
    """DESIGN §6.1: every combined region takes a page subscript — the count a test of
    生成's limits needs; 確認 山札+捨て札[p] was E036 (「比べる数には定数を書きます」)."""
    steps = ' 敵 e\n 開始 刻 20, 手札 [p]\n'
    # 開始 手札 [p] puts a p in the hand beside the deck's p and q
    ok = run(f'例 {{\n{steps} 確認 山札+捨て札[q] == 1, 手札+山札+捨て札[p] == 2,'
             f' 手札[p] == 1\n}}\n')
    assert ok.diagnostics == [], [d.message for d in ok.diagnostics]
    wrong = run(f'例 {{\n{steps} 確認 山札+捨て札[q] == 0\n}}\n')
    assert [d.code for d in wrong.diagnostics] == ["E044"]
    unknown = run(f'例 {{\n{steps} 確認 山札+捨て札[nosuch] == 0\n}}\n')
    assert [d.code for d in unknown.diagnostics] == ["E011"]


def test_a_quantity_named_by_part_of_a_counter_suggests_the_counter_with_a_scope():
    """「ダメージ」 used to suggest ステージ (two characters in common): the counter it is
    part of, 与えたダメージ, is meant — with the scope an example reads most, and as is
    when a scope was written."""
    (diag,) = run('例 {\n 敵 e\n 開始 刻 20\n 確認 ダメージ == 3\n}\n').diagnostics
    assert diag.hint == "もしかして「与えたダメージ[ステージ]」？"
    assert diag.replacements == ("与えたダメージ[ステージ]",)
    (scoped,) = run('例 {\n 敵 e\n 確認 ダメージ[ターン] == 3\n}\n').diagnostics
    assert scoped.hint == "もしかして「与えたダメージ」？"


def test_an_example_with_no_enemy_is_E043():
    result = check_text(CONTENT.replace("敵 e", "# 敵 e") + '例 {\n 開始 刻 20\n}\n', "t.page",
                        {"b.balance": BALANCE, "e.enemy": '敵 e "的" { HP 50; 座 40; 突破ライン 30; '
                                                         '予兆 [攻撃 5] }\n'})
    assert [d.code for d in result.diagnostics] == ["E043"]


# ------------------------------------------------------------ which examples run

UNDER_PAGE = '例 "ページの下" {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 敵HP == 45\n}\n'
IN_TESTS = '例 "テストの中" {\n 敵 e\n 開始 刻 20, 手札 [q]\n 出す q\n 確認 刻 == 10\n}\n'


def content_with_examples(tmp_path, under_page: str = UNDER_PAGE):
    """A content folder with one example under the pages of x.page (its line 6) and one in
    tests/ (line 1 of a.scenario)."""
    content = tmp_path / "content"
    (content / "tests").mkdir(parents=True)
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    (content / "x.page").write_text(CONTENT + under_page, encoding="utf-8")
    (content / "tests" / "a.scenario").write_text(IN_TESTS, encoding="utf-8")
    return content


def run_test_command(*args):
    return CliRunner().invoke(main, ["test", *map(str, args)])


def test_jibunki_test_runs_every_example_of_the_content_by_default(tmp_path):
    content = content_with_examples(tmp_path)
    result = run_test_command("--content", content)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # in the order of their paths: content/tests/a.scenario, content/x.page
    assert [line.split("  ")[1] for line in lines if line.startswith("成功  ")] == \
        ["テストの中", "ページの下"]
    assert lines[-1] == "成功 2、失敗 0（2 ファイルの例 2 件）"


def test_jibunki_test_with_a_file_runs_only_that_files_examples(tmp_path):
    content = content_with_examples(tmp_path)
    for named, title, line in ((content / "x.page", "ページの下", 8),
                               (content / "tests" / "a.scenario", "テストの中", 1)):
        result = run_test_command("--content", content, named)
        assert result.exit_code == 0, result.output
        assert result.output.splitlines() == [f"成功  {title}  ({named}:{line})",
                                              "成功 1、失敗 0（1 ファイルの例 1 件）"]


def test_jibunki_test_with_a_folder_runs_the_examples_under_it(tmp_path):
    content = content_with_examples(tmp_path)
    result = run_test_command("--content", content, content / "tests")
    assert result.exit_code == 0 and "テストの中" in result.output
    assert "ページの下" not in result.output


def test_a_failing_example_under_a_page_or_enemy_fails_jibunki_test(tmp_path):
    content = content_with_examples(tmp_path, UNDER_PAGE.replace("敵HP == 45", "敵HP == 44"))
    result = run_test_command("--content", content)
    assert result.exit_code == 1
    assert "失敗  ページの下" in result.output and "成功  テストの中" in result.output
    assert result.output.splitlines()[-1] == "成功 1、失敗 1（2 ファイルの例 2 件）"


def test_name_filter_shows_counts_and_decides_by_the_examples_named_only(tmp_path):
    """-k: the examples whose name holds the word (full-width letters as half-width), the
    closing line counted on them and saying from how many; a failure elsewhere does not
    fail the run, one among them does."""
    content = content_with_examples(tmp_path, UNDER_PAGE.replace("敵HP == 45", "敵HP == 44"))
    result = run_test_command("--content", content, "-k", "テスト")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"成功  テストの中  ({content / 'tests' / 'a.scenario'}:1)",
        "成功 1、失敗 0（1 ファイルの例 1 件）、-k で 2 件から絞りました"]
    result = run_test_command("--content", content, "--name", "ページ", "-k", "テスト")
    assert result.exit_code == 1
    assert "失敗  ページの下" in result.output and "成功  テストの中" in result.output
    # a -k every example matches narrowed nothing: said so, not 「2 件から絞りました」
    assert result.output.splitlines()[-1].endswith("、-k は 2 件すべてに当たりました")
    both = content_with_examples(tmp_path / "again", UNDER_PAGE.replace("ページの下", "Page A"))
    assert "成功  Page A" in run_test_command("--content", both, "-k", "ｐａｇｅ").output
    assert "成功  テストの中" in run_test_command("--content", content, "-k", "てすと").output


def test_a_name_filter_that_matches_nothing_fails_and_says_so(tmp_path):
    content = content_with_examples(tmp_path)
    result = run_test_command("--content", content, "-k", "どこにもない")
    assert result.exit_code == 1
    assert "成功 0、失敗 0（0 ファイルの例 0 件）" in result.output
    assert "名前に「どこにもない」を含む例はありません（例は 2 件あります）" in result.output


def test_an_empty_name_filter_is_a_usage_error_not_every_example(tmp_path):
    """An empty -k (a script's unset variable) is in every name: it would run all while
    saying it narrowed them."""
    content = content_with_examples(tmp_path)
    # a space alone was said to be 「空の文字列」, which it is not
    for words, what in ((["-k", ""], "空の文字列"), (["-k", "テスト", "-k", " "], "空白だけの文字列")):
        result = run_test_command("--content", content, *words)
        assert result.exit_code == 2, result.output
        assert f"-k の値が正しくありません: {what}では例を絞り込めません" in result.output
        assert "成功" not in result.output


def test_a_run_that_finds_no_example_fails_and_says_where_it_looked(tmp_path):
    content = content_with_examples(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_test_command("--content", content, empty)
    assert result.exit_code == 1
    assert f"{empty} にはコンテンツのファイル" in result.output and "成功 0、失敗 0" in result.output
    (content / "y.page").write_text("ページ y { 銘 3; 過去面 { 防御 += 4 }; ペン 未来面 { 敵HP -= 3 } }\n",
                                    encoding="utf-8")
    result = run_test_command("--content", content, content / "y.page")
    assert result.exit_code == 1
    assert f"{content / 'y.page'} の 1 ファイルに例" in result.output


def test_build_plays_the_same_examples_as_jibunki_test(tmp_path, monkeypatch):
    content = content_with_examples(tmp_path)
    monkeypatch.chdir(tmp_path)  # build writes generated/ here
    tested = run_test_command("--content", content).output.splitlines()[-1]
    built = CliRunner().invoke(main, ["build", "--content", str(content)])
    assert built.exit_code == 0, built.output
    assert f"例: {tested}" in built.output.splitlines()
    assert tested == "成功 2、失敗 0（2 ファイルの例 2 件）"


def test_the_readmes_example_passes_as_written(tmp_path):
    """README's one full example of the 例 syntax is what a designer copies first: it must
    pass on the bundled content, every step and 確認 as its comments say."""
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```\n例 ", 1)[1].split("```", 1)[0]
    (tmp_path / "readme.scenario").write_text("例 " + block, encoding="utf-8")
    for step in ("シード", "デッキ", "開始", "出す", "ペン", "拒否", "確認", "終了"):
        assert f"  {step} " in block or f" {step} " in block, step
    result = run_test_command(str(tmp_path / "readme.scenario"))
    assert result.exit_code == 0, result.output
    assert "成功 1、失敗 0" in result.output


def test_a_named_file_with_errors_and_no_example_read_does_not_say_zero_left(tmp_path):
    """「例 0 件は未実行」 read as "nothing wrong with the examples"."""
    broken = tmp_path / "broken.page"
    broken.write_text("ページ broken {\n 銘 30\n 未来面 { 敵HP -= 1 }\n 過去面 { 歩 += }\n}\n",
                      encoding="utf-8")
    result = run_test_command(broken)
    assert result.exit_code == 1
    assert "（読めなかったファイルの例は、エラーを直すまで数えられません）" in result.output
    assert "0 件は未実行" not in result.output


def test_a_file_whose_every_example_has_its_own_error_counts_them_not_run(tmp_path):
    """A file read whole whose one example names a page that does not exist was said to
    be a file that could not be read (「読めなかったファイルの例は…」)."""
    content = content_with_examples(tmp_path)
    scenario = content / "tests" / "a.scenario"
    scenario.write_text('例 "K1" {\n  敵 e\n  出す qq\n}\n', encoding="utf-8")
    result = run_test_command(str(scenario), "--content", content)
    assert result.exit_code == 1 and "E011" in result.output
    assert "（例 1 件は未実行）" in result.output, result.output
    assert "読めなかった" not in result.output


def test_lint_counts_the_examples_it_ran_so_a_green_report_says_they_ran(tmp_path):
    """`lint` and `watch` said nothing of the examples when all passed: a designer could not
    tell that they had run."""
    content = content_with_examples(tmp_path)
    green = CliRunner().invoke(main, ["lint", "--content", str(content)])
    assert green.exit_code == 0, green.output
    assert "例 2 件を実行しました（すべて成功）。" in green.output
    (content / "tests" / "a.scenario").write_text(IN_TESTS.replace("刻 == 10", "刻 == 11"),
                                                  encoding="utf-8")
    red = CliRunner().invoke(main, ["lint", "--content", str(content)])
    assert red.exit_code == 1 and "例 2 件を実行しました（失敗は上の E044）。" in red.output


def test_an_example_that_ends_while_a_choice_waits_fails_and_says_to_answer_it():
    """The 作用 that asked is still resolving: what it would do next never happened, so an
    example ending there proves nothing of it."""
    chooser = CONTENT.replace("ページ q {", 'ページ c "選ぶ札" { 銘 30; 未来面 { 移動 1枚 手札 -> 捨て札 選択 }; '
                              "過去面 { 防御 += 1 } }\nページ q {")
    example = '例 "答えない" {\n 敵 e\n 開始 刻 20, 手札 [c, p, q]\n 出す c\n}\n'
    result = check_text(chooser + example, "t.page", {"b.balance": BALANCE})
    (diag,) = result.diagnostics
    assert diag.code == "E044" and "選択が残ったまま例が終わりました" in diag.message
    answered = example.replace(" 出す c\n", " 出す c\n 選ぶ p\n")
    assert check_text(chooser + answered, "t.page", {"b.balance": BALANCE}).diagnostics == []


def test_a_display_name_typed_another_way_is_E011_naming_the_id_and_the_name():
    """QA: 「あるばいと」 and 「ｱﾙﾊﾞｲﾄ」 got no hint where 「アルバイト」 got the id (README:
    hiragana or half-width kana are read as the eye reads them, in lint's hints and fixes)."""
    from types import SimpleNamespace

    from compiler.names import id_hint

    items = {"arubaito": SimpleNamespace(title="アルバイト"), "tent": SimpleNamespace(title="テント")}
    assert id_hint("アルバイト", items, "ページ") == (
        "「アルバイト」は arubaito の名前です。ここには id を書きます: arubaito", ("arubaito",))
    for typed in ("あるばいと", "ｱﾙﾊﾞｲﾄ"):
        assert id_hint(typed, items, "ページ") == (
            f"「{typed}（アルバイト）」は arubaito の名前です。ここには id を書きます: arubaito",
            ("arubaito",))


def test_a_display_name_where_an_id_belongs_is_E011_naming_the_id():
    """A designer writes the name the catalog shows (「一撃」, 「的」): the hint and the quick
    fix give the id that name belongs to."""
    result = run('例 "名前で" {\n 敵 的\n 開始 刻 20, 手札 [一撃]\n 出す 一撃\n}\n')
    said = [(d.code, d.hint, d.replacements) for d in result.diagnostics]
    assert said[0] == ("E011", "「的」は e の名前です。ここには id を書きます: e", ("e",))
    assert said[1] == ("E011", "「一撃」は p の名前です。ここには id を書きます: p", ("p",))


def test_every_kind_of_event_has_a_japanese_name_an_example_can_count_by():
    """Japanese for the designer: 出来事[…] takes each kind of the battle's events by a
    Japanese name (its code stays an alias), and the vocabulary names every kind."""
    from contract import vocabulary as vocab
    from runtime.events import KINDS

    assert {e.code for e in vocab.EVENTS} == set(KINDS)
    assert all(not e.ja.isascii() for e in vocab.EVENTS)
    by_name = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n'
                  ' 確認 出来事[ダメージを与えた] == 1, 出来事[ページのプレイ] == 1, 出来事[被弾] == 0\n}\n')
    by_code = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n'
                  ' 確認 出来事[damage] == 1, 出来事[played] == 1, 出来事[hit] == 0\n}\n')
    assert by_name.diagnostics == [] and by_code.diagnostics == []
    wrong = run('例 {\n 敵 e\n 開始 刻 20, 手札 [p]\n 出す p\n 確認 出来事[ダメージを与えた] == 2\n}\n')
    assert [d.code for d in wrong.diagnostics] == ["E044"]


def test_a_page_exiled_by_an_effect_counts_as_a_page_exiled():
    """ページの除外 (page_exiled) counts a page an 作用 moved to 除外 as it counts one
    exiled after its play — as ページが除外された時 fires for both; it counted only the
    second, so a 例 proving an exile page read 0."""
    content = CONTENT + ('ページ x "捨てる" { 銘 20; 過去面 { 移動 1枚 手札 -> 除外 選択 };'
                         ' 未来面 白紙; ペン 未来面 { 歩 += 1 } }\n')
    example = ('例 {\n 敵 e\n 開始 刻 30, 手札 [x, p, q]\n 出す x\n 選ぶ p\n'
               ' 確認 除外 == 1, 出来事[ページの除外] == 1, 出来事[page_exiled] == 1\n}\n')
    result = check_text(content + example, "t.page", {"b.balance": BALANCE})
    assert result.diagnostics == [], [d.message for d in result.diagnostics]


def test_two_examples_of_one_name_are_W013_at_each_pointing_at_the_other():
    """jibunki test -k, the failures and the catalog tell examples apart by name: two
    examples of a name are a warning at each (an untitled one is named by its line, never
    alike) — at the second only, lint of a new file with an older example's name was
    clean."""
    twice = ('例 "同じ" {\n 敵 e\n 確認 HP == 200\n}\n例 "同じ" {\n 敵 e\n 確認 HP == 200\n}\n'
             '例 {\n 敵 e\n}\n例 {\n 敵 e\n}\n')
    first, second = [d for d in run(twice).diagnostics if d.code == "W013"]
    assert (first.span.line, second.span.line) == (8, 12)
    assert first.message == second.message == "例「同じ」はもう1つあります"
    assert [n.span.line for n in first.notes] == [12] and [n.span.line for n in second.notes] == [8]
    assert [d.code for d in run('例 "一つ" {\n 敵 e\n}\n例 "二つ" {\n 敵 e\n}\n').diagnostics] == []


def test_an_example_with_two_seeds_is_E013_at_the_second_pointing_at_the_first():
    """An example plays one seed: a second シード was read over the first and ignored,
    linted clean, so the example played another battle than the first one written."""
    twice = '例 "二つのシード" {\n 敵 e\n シード 3\n シード 5\n 確認 HP == 200\n}\n'
    (said,) = [d for d in run(twice).diagnostics if d.code == "E013"]
    assert (said.span.line, said.message) == (11, "シードを2回書いています")
    assert [n.span.line for n in said.notes] == [10]
    assert run(twice.replace(" シード 5\n", "")).diagnostics == []


def test_the_examples_not_run_count_the_one_whose_own_error_stopped_them(tmp_path):
    """An example naming a page that does not exist (E011) makes no scenario: it was left
    out of 「例 N 件は未実行」, as if the content held one example fewer."""
    content = content_with_examples(tmp_path)
    scenario = content / "tests" / "a.scenario"
    scenario.write_text(IN_TESTS.replace("出す q", "出す qq"), encoding="utf-8")
    result = run_test_command("--content", content)
    assert result.exit_code == 1 and "E011" in result.output
    assert "（例 2 件は未実行）" in result.output, result.output
    linted = CliRunner().invoke(main, ["lint", "--content", str(content)])
    assert "例 2 件は実行できませんでした" in linted.output, linted.output


def test_the_first_expectation_counts_the_events_from_the_battles_start():
    """出来事[…] counts since the previous 確認 — for the first, since the battle began:
    ラン開始, ステージ開始 and the opening draws read 0 (only the example's own steps
    were counted)."""
    result = run('例 "始まり" {\n 敵 e\n 確認 出来事[ラン開始] == 1, 出来事[ステージ開始] == 1,'
                 ' 出来事[ターン開始] == 1, 出来事[ドロー] >= 1\n 確認 出来事[ラン開始] == 0\n}\n')
    assert result.diagnostics == [] and [r.passed for r in result.examples] == [True]


def test_a_face_written_by_a_pen_counts_whichever_copy_holds_it():
    """未来面[p] read the first copy found (hand, then draw pile …): with the penned copy
    in the draw pile and another in the hand it read 0, though the pen lasts the run."""
    result = run('例 "二枚" {\n 敵 e\n デッキ [q, q]\n 開始 刻 10, 歩 40, 手札 [q]\n'
                 ' ペン q 未来面\n 確認 未来面[q] == 1\n 出す q\n 確認 未来面[q] == 1\n}\n')
    assert result.diagnostics == [], result.diagnostics


def test_a_start_value_with_a_fraction_is_an_error_not_cut():
    """The battle holds whole numbers: 開始 刻 30.7 was set as 30 without a word (シード
    1.5 is E043)."""
    result = run('例 "端数" {\n 敵 e\n 開始 刻 30.7, HP 150, 手札 [p]\n 確認 刻 == 30\n}\n')
    (diag,) = result.diagnostics
    assert (diag.code, diag.message) == ("E056", "刻は整数です（30.7）")
    assert diag.hint == "例: 開始 刻 30"


def test_an_expectation_of_numbers_alone_is_no_check():
    """確認 1 == 1 passed and 1 == 2 failed with an empty 「実際」: neither reads the battle."""
    result = run('例 "数だけ" {\n 敵 e\n 確認 1 == 1\n}\n')
    (diag,) = result.diagnostics
    assert diag.code == "E057" and diag.message == "「1 == 1」は数どうしの比べで、確認になりません"


def test_a_counter_subscript_that_is_no_scope_is_said_so():
    """跨いだ回数[被弾1回] was 「…にはスコープ添字が要ります」, as if none were written."""
    result = run('例 "寿命" {\n 敵 e\n 確認 跨いだ回数[被弾1回] == 0\n}\n')
    (diag,) = result.diagnostics
    assert diag.code == "E021"
    assert diag.message.startswith("「被弾1回」は確認で読めるスコープではありません"
                                   "（累計量「跨いだ回数」の添字は プレイ・ターン")
    # an anchored window names itself whole, not its unit alone (it read 「プレイ」)
    (anchored,) = run('例 "窓" {\n 敵 e\n 確認 跨いだ回数[以降 2 プレイ] == 0\n}\n').diagnostics
    assert anchored.code == "E021" and "プレイ」は確認で" in anchored.message
    assert not anchored.message.startswith("「プレイ」")


def test_an_expression_in_an_expectation_is_said_to_be_no_comparison_of_a_check():
    """確認 刻 + 1 == 21 was E036 with the hint of a 作用's base value (split the 作用)."""
    result = run('例 "式" {\n 敵 e\n 確認 刻 + 1 == 21\n}\n')
    (diag,) = result.diagnostics
    assert diag.code == "E057" and diag.message == "確認では式「刻+1」は比べられません"
    for written in ("-HP == -200", "|刻 - 30| == 0"):  # a negation, an absolute value
        (diag,) = run(f'例 "式" {{\n 敵 e\n 確認 {written}\n}}\n').diagnostics
        assert diag.code == "E057", (written, diag)
    assert run('例 "数" {\n 敵 e\n 確認 HP == 200 - 0\n}\n').diagnostics == []  # folds


def test_an_expectation_of_a_flag_no_effect_writes_is_W019():
    """@遺言状 == 0 where the pages write @遺言 passed whatever the battle did."""
    written = 'ページ w { 銘 12; 未来面 { @遺言 = 1 }; 過去面 { 防御 += 1 } }\n'
    result = run(written + '例 "旗" {\n 敵 e\n 確認 @遺言状 == 0, @遺言 == 0\n}\n')
    (diag,) = result.diagnostics
    assert diag.code == "W019" and "@遺言状" in diag.message and diag.span.line == 11
    assert diag.hint == "フラグの名前を見直してください（書かれるフラグ: @遺言）"


def test_jibunki_test_says_a_check_that_can_never_fail(tmp_path):
    """W019 was said by lint only: jibunki test reported the example 成功 without a word."""
    content = content_with_examples(tmp_path)
    scenario = content / "tests" / "a.scenario"
    scenario.write_text('例 "旗" {\n  敵 e\n  確認 @夢見 == 0\n}\n', encoding="utf-8")
    result = run_test_command(str(scenario), "--content", content)
    assert result.exit_code == 0, result.output
    assert "警告[W019]" in result.output and "成功  旗" in result.output


def test_examples_without_a_balance_name_the_folder_to_write_it_in(tmp_path, monkeypatch):
    """Review: ``jibunki test --content other other/s.scenario`` hinted 「content/ に
    バランス { … } を1つ書いてください」, a folder it was not asked to read."""
    from conftest import ROOT

    other = tmp_path / "other"
    other.mkdir()
    lines = (ROOT / "content" / "enemies" / "日々.enemy").read_text(encoding="utf-8").splitlines()
    enemy = "\n".join(lines[5:18]) + "\n"  # 歯車塔の番人 alone, without its examples
    (other / "e.enemy").write_text(enemy, encoding="utf-8")
    (other / "s.scenario").write_text('例 "x" {\n  敵 haguruma\n  確認 HP == 200\n}\n',
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["test", "--content", "other", "other/s.scenario"])
    assert "バランスがないので例を実行できません" in result.output, result.output
    assert "content/ に" not in result.output and "バランス { … } を1つ書いてください" in result.output


def test_lint_of_examples_each_kept_by_its_own_error_says_none_ran(tmp_path):
    """Review: with every example of the file named holding an error of its own (敵 of a
    typo), lint said 「例 1 件を実行しました（すべて成功）」 of none run."""
    from conftest import ROOT

    scenario = tmp_path / "s.scenario"
    scenario.write_text('例 "x" {\n  敵 hagurumaX\n  確認 HP == 200\n}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", str(scenario), "--content", str(ROOT / "content")])
    assert result.exit_code == 1, result.output
    assert "例 1 件は実行できませんでした" in result.output, result.output
    assert "すべて成功" not in result.output and "を実行しました" not in result.output
