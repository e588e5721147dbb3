"""`jibunki battle` back to content: record writes a 例 that `jibunki test` passes, save and
load continue identically, where names file:line, display names are accepted, and the
exit status says how the battle ended."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from cli import main
from conftest import ROOT, invoke_cli


pytestmark = pytest.mark.usefixtures("at_root")


def battle(script: str, *args: str):
    return invoke_cli("battle", "--seed", "3", *args, input=script)


def in_folder(folder, monkeypatch, script: str, *args: str):
    """A battle of the bundled content played with ``folder`` as the working folder (where
    save and record may write)."""
    monkeypatch.chdir(folder)
    return battle(script, "--content", str(ROOT / "content"), *args)


def test_record_writes_a_scenario_that_jibunki_test_passes(tmp_path, monkeypatch):
    path = tmp_path / "kept.scenario"
    out = in_folder(tmp_path, monkeypatch, "play 1\nset 歩 30\nend\nplay 2\nrecord kept.scenario\n").output
    assert "例を書きました" in out and "注:" not in out
    text = path.read_text(encoding="utf-8")
    assert "敵 haguruma" in text and "シード 3" in text and "出す sakamichi" in text
    assert "開始 歩 30" in text and "終了" in text and "確認 刻 ==" in text
    result = CliRunner().invoke(main, ["test", str(path), "--content", str(ROOT / "content")])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output


def test_record_with_a_page_in_the_opening_hand_still_passes(tmp_path, monkeypatch):
    path = tmp_path / "with.scenario"
    in_folder(tmp_path, monkeypatch, "play 1\nend\nrecord with.scenario\n", "--with", "旅立ちの朝")
    assert "開始 手札 [tabidachi" in path.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["test", str(path), "--content", str(ROOT / "content")])
    assert result.exit_code == 0, result.output


def test_save_and_load_continue_identically(tmp_path, monkeypatch):
    straight = battle("play 1\nend\nplay 2\nend\n").output
    resumed = in_folder(tmp_path, monkeypatch,
                        "play 1\nend\nsave pos.json\nplay 3\nload pos.json\nplay 2\nend\n").output
    assert "保存しました" in resumed and "読み込みました" in resumed
    assert straight.split("── まとめ ──")[1] == resumed.split("── まとめ ──")[1]
    tail = lambda out: out[out.rindex("> end"):]  # noqa: E731
    assert tail(straight) == tail(resumed)


def test_a_bad_save_or_an_unwritable_folder_is_a_message(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    (tmp_path / "locked").mkdir(mode=0o500)
    out = in_folder(tmp_path, monkeypatch, "load bad.json\nload missing.json\n"
                    "save nowhere/x.json\n").output
    assert "セーブを読めません" in out and "missing.json を読めません: ファイルかフォルダがありません" in out
    assert "× nowhere/x.json に保存できません: ファイルかフォルダがありません" in out
    if os.geteuid() != 0:  # root writes anywhere
        out = in_folder(tmp_path, monkeypatch, "record locked/x.scenario\n").output
        assert "× locked/x.scenario に書けません: 権限がありません" in out


def test_where_names_the_file_and_line_of_a_hand_page():
    out = battle("where 1\nwhere 旅立ちの朝\n").output
    assert "坂道の自転車（sakamichi）: content/pages/" in out
    line = next(l for l in out.splitlines() if l.startswith("旅立ちの朝（tabidachi）: "))
    path, number = line.split(": ")[1].rsplit(":", 1)
    source = (ROOT / path).read_text(encoding="utf-8").splitlines()
    assert "tabidachi" in source[int(number) - 1]  # the line that opens the page


def test_display_names_are_accepted_where_an_id_is():
    by_id = battle("q\n", "--with", "tabidachi", "--enemy", "haguruma").output
    by_name = battle("q\n", "--with", "旅立ちの朝", "--enemy", "歯車塔の番人").output
    assert by_id == by_name
    out = battle("set 手札 旅立ちの朝 kekkon\nq\n").output
    assert "[開発者] 手札 = 旅立ちの朝・銀婚式" in out
    typo = battle("q\n", "--with", "旅立ちの")
    assert typo.exit_code == 2 and "もしかして「旅立ちの朝」" in typo.output
    assert "もしかして「旅立ちの朝」" in battle("set 手札 旅立ちの\n").output


def test_developer_mode_messages_show_no_internal_code():
    out = battle("set 刻 30\nset 手札 shuushoku\nset 防御 5 ステージ\n").output
    assert "[開発者] 刻 = 30" in out and "[開発者] 手札 = 就職活動" in out
    told = [line for line in out.splitlines() if line.startswith("[開発者]")]
    assert told == ["[開発者] 刻 = 30", "[開発者] 手札 = 就職活動", "[開発者] 防御 = 5（ステージ）"]


def test_exit_status_victory_defeat_unfinished():
    won = battle("set 刻 80\ntear 1\n", "--enemy", "wasure", "--with", "hatsu_koe")
    assert "結果: 勝利" in won.output and won.exit_code == 0
    lost = battle("set hp 1\nend\n")
    assert "結果: 敗北" in lost.output and lost.exit_code == 1
    assert battle("play 1\n").exit_code == 3  # the script ends before the battle
    assert battle("play 1\nquit\nend\n").exit_code == 3
    assert battle("", "--enemy", "nobody").exit_code == 2


def test_the_summary_names_pages_by_their_display_names():
    out = battle("set 刻 30\nplay 6\nend\n").output
    summary = out.split("── まとめ ──")[1]
    assert "与えたダメージ:" in summary and "失った HP:" in summary and "得た綻び:" in summary
    assert "旅立ちの朝" in summary and "tabidachi" not in summary
