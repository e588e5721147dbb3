"""`jibunki battle` back to content: record writes a 例 that `jibunki test` passes, save and
load continue identically, where names file:line, display names are accepted, and the
exit status says how the battle ended."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from click.testing import CliRunner

from cli import main
from conftest import ROOT, invoke_cli


pytestmark = [pytest.mark.usefixtures("at_root"), pytest.mark.slow]


def battle(script: str, *args: str):
    return invoke_cli("battle", "--seed", "3", *args, input=script)


def in_folder(folder, monkeypatch, script: str, *args: str):
    """A battle of the bundled content played with ``folder`` as the working folder (where
    save and record may write)."""
    monkeypatch.chdir(folder)
    return battle(script, "--content", str(ROOT / "content"), *args)


def test_record_while_a_choice_is_pending_writes_nothing_and_says_why(tmp_path, monkeypatch):
    """QA: 断捨離 played, its choice waiting, record wrote an example that jibunki test then
    failed (「選択が残ったまま例が終わりました」) — a false green. It is refused, as save is."""
    result = in_folder(tmp_path, monkeypatch, "play 断捨離\nrecord pend.scenario\n",
                       "--with", "dansyari")
    assert "選択の途中です。選ぶ で答えてから record してください" in result.output.replace("\n", ""), \
        result.output
    assert result.exit_code == 2 and not (tmp_path / "pend.scenario").exists()


def test_record_writes_a_scenario_that_jibunki_test_passes(tmp_path, monkeypatch):
    path = tmp_path / "kept.scenario"
    out = in_folder(tmp_path, monkeypatch, "play 1\nset 歩 30\nend\nplay 2\nrecord kept.scenario\n").output
    assert "例を書きました" in out and "注:" not in out
    text = path.read_text(encoding="utf-8")
    assert "敵 haguruma" in text and "シード 3" in text and "出す sakamichi" in text
    assert "開始 歩 30" in text and "終了" in text and "確認 刻 ==" in text
    result = CliRunner().invoke(main, ["test", str(path), "--content", str(ROOT / "content")])
    assert result.exit_code == 0, result.output
    assert "成功 1、失敗 0" in result.output


def test_a_with_session_the_example_cannot_replay_is_refused_and_nothing_is_written(tmp_path, monkeypatch):
    """The trial of issue 26: ``--with`` takes the page out of the deck, an example's
    opening 手札 makes a new copy, so the turns after the first draw differ — the record
    is refused with the step and the reason, instead of a file that fails ``jibunki test``."""
    result = in_folder(tmp_path, monkeypatch, "tear 3\nend\nrecord with.scenario\nplay 1\n", "--seed", "93",
                       "--enemy", "isogashisa", "--with", "tabidachi", "--with", "hatsu_koe")
    out = "".join(result.output.split())  # the screen wraps the long line, at any space
    assert not (tmp_path / "with.scenario").exists()
    for said in ("× with.scenario に例を書きませんでした（そのまま再生できる例になりません）: 2 手目（終了）",
                 "--with は山札のページを手札へ移しますが", "set 手札 … で手札を作ってください"):
        assert "".join(said.split()) in out
    assert "> play 1" not in result.output  # a script stops where a file it meant to write is not


def test_a_with_session_recorded_before_its_first_draw_passes(tmp_path, monkeypatch):
    path = tmp_path / "with.scenario"
    in_folder(tmp_path, monkeypatch, "play 1\nrecord with.scenario\n", "--with", "旅立ちの朝")
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


def test_a_save_an_editor_kept_with_a_bom_still_loads(tmp_path, monkeypatch):
    """Some Windows editors write a BOM when they save: content and scripts with one were
    read, a save was refused as 「JSON ではありません（1 行 1 列）」."""
    in_folder(tmp_path, monkeypatch, "play 1\nend\nsave pos.json\n")
    path = tmp_path / "pos.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    resumed = in_folder(tmp_path, monkeypatch, "load pos.json\nplay 2\nend\n")
    assert "読み込みました: pos.json" in resumed.output, resumed.output


def test_a_bad_save_or_an_unwritable_folder_is_a_message(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    (tmp_path / "locked").mkdir(mode=0o500)
    # Each stops its script (exit 2): the lines after it were written for what it did not do.
    for line, said, why in (
            ("load bad.json", "セーブを読めません", "セーブを読み込めなかったので"),
            ("load missing.json", "missing.json を読めません: ファイルかフォルダがありません",
             "セーブを読み込めなかったので"),
            ("save nowhere/x.json", "× nowhere/x.json に保存できません: ファイルかフォルダがありません",
             "ファイルを書けなかったので")):
        result = in_folder(tmp_path, monkeypatch, f"{line}\nplay 1\n")
        assert said in result.output and result.exit_code == 2, result.output
        assert f"スクリプトをここで止めました（{why}）" in result.output
        assert "> play 1" not in result.output
    if os.geteuid() != 0:  # root writes anywhere
        out = in_folder(tmp_path, monkeypatch, "record locked/x.scenario\n").output
        assert "× locked/x.scenario に書けません: 権限がありません" in out


def test_a_file_command_naming_no_file_or_two_words_stops_its_script(tmp_path, monkeypatch):
    """A save named with a space, unquoted, is a slip that must not let the lines after it
    play on from a fresh battle (to a win, exit 0)."""
    for line, why in (("load a b.json", "セーブを読み込めなかったので"),
                      ("load", "セーブを読み込めなかったので"),
                      ("save a b.json", "ファイルを書けなかったので"),
                      ("record", "ファイルを書けなかったので")):
        result = in_folder(tmp_path, monkeypatch, f"{line}\nset 敵HP 1\nplay 1\n")
        assert result.exit_code == 2, (line, result.output)
        assert f"スクリプトをここで止めました（{why}）" in result.output
        assert "> play 1" not in result.output
    assert not list(tmp_path.glob("*.json"))


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


def test_the_lines_after_the_ending_still_record_and_save(tmp_path, monkeypatch):
    # A script that wins and then records the battle as an example, and saves it: both
    # files are written (the lines after the deciding move were dropped), the actions
    # after it are refused, and the example it wrote passes.
    out = in_folder(tmp_path, monkeypatch,
                    "set 敵HP 1\nplay 6\nplay 1\nrecord win.scenario\nsave win.json\n")
    assert out.exit_code == 0, out.output  # won
    assert "× 「" in out.output and "このランはもう終わっています" in out.output
    assert "例を書きました: win.scenario" in out.output and "保存しました: win.json" in out.output
    assert (tmp_path / "win.json").is_file()
    checked = invoke_cli("test", str(tmp_path / "win.scenario"), "--content", str(ROOT / "content"))
    assert checked.exit_code == 0, checked.output


def test_the_summary_names_pages_by_their_display_names():
    out = battle("set 刻 30\nplay 6\nend\n").output
    summary = out.split("── まとめ ──")[1]
    assert "与えたダメージ:" in summary and "減ったHP:" in summary and "増えた綻び:" in summary
    assert "旅立ちの朝" in summary and "tabidachi" not in summary


def _random_session(tables, rng):
    """A session of the bundled content with a random set-up (``--with`` pages, a
    ``--deck``, ``set 手札`` first, or none; any seed and enemy) and 10–30 random legal
    actions."""
    from terminal.session import Session

    pages, kind = sorted(tables.pages), rng.choice(("with", "deck", "plain", "set hand"))
    session = Session(tables, seed=rng.randrange(1000), enemies=[rng.choice(sorted(tables.enemies))],
                      deck=[rng.choice(pages) for _ in range(rng.randint(6, 14))] if kind == "deck" else None,
                      with_pages=rng.sample(pages, rng.randint(1, 2)) if kind == "with" else ())
    if kind == "set hand":  # what the refusal of a --with session advises instead
        session.run("set 手札 " + " ".join(rng.sample(pages, 5)))
    wanted, tries = rng.randint(10, 30), 0
    while len(session.history) < wanted and not session.battle.over and tries < 400:
        tries += 1
        choice, hand = session.battle.pending, len(session.battle.hand)
        if choice is not None:
            picks = rng.sample(range(1, len(choice.candidates) + 1),
                               min(choice.count, len(choice.candidates)))
            line = "choose " + " ".join(map(str, picks))
        else:
            n = rng.randint(1, max(hand, 1))
            line = rng.choice((f"play {n}", f"play {n}", f"pen {n} 未来", f"pen {n} 過去",
                               f"tear {n}", "end", "set 歩 20"))
        session.run(line)
    return kind, session


def test_a_recording_replays_exactly_under_jibunki_test_or_is_refused(tmp_path, monkeypatch):
    """Sessions of every kind of set-up (``--with``, ``--deck``, ``set 手札``, plain) are recorded; each
    file written passes ``jibunki test`` (event for event the session), and a session the
    example format cannot reproduce is refused with the reason and leaves no file."""
    import random

    from conftest import compiled_tables

    tables = compiled_tables(ROOT / "content")
    monkeypatch.chdir(tmp_path)
    written, refused = Counter(), Counter()
    for number in range(30):
        kind, session = _random_session(tables, random.Random(number))
        outcome = session.run(f"record s{number}.scenario")
        if outcome.refused:
            assert not (tmp_path / f"s{number}.scenario").exists()
            assert "例を書きませんでした" in outcome.refused and "手目" in outcome.refused
            assert ("--with は" in outcome.refused) == (kind == "with")
            refused[kind] += 1
        else:
            assert (tmp_path / f"s{number}.scenario").exists(), outcome
            written[kind] += 1
    # the loop would hold nothing if it refused everything
    assert written["deck"] and written["plain"] and written["set hand"], (written, refused)
    result = CliRunner().invoke(main, ["test", str(tmp_path), "--content", str(ROOT / "content")])
    assert result.exit_code == 0, result.output
    assert f"成功 {sum(written.values())}、失敗 0" in result.output


def test_a_load_names_what_the_content_changed_since_the_save(tmp_path, monkeypatch):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    monkeypatch.chdir(tmp_path)
    saved = battle("play 1\nsave g.json\n", "--content", str(content))
    assert "保存しました: g.json" in saved.output
    page = content / "pages" / "壮年期.page"
    page.write_text("# a comment moves every line and changes no rule\n"
                    + page.read_text(encoding="utf-8"), encoding="utf-8")
    same = battle("load g.json\n", "--content", str(content)).output
    assert "読み込みました: g.json" in same and "変わっています" not in same
    page.write_text(page.read_text(encoding="utf-8").replace("  銘 48\n", "  銘 70\n", 1),
                    encoding="utf-8")
    enemy = content / "enemies" / "日々.enemy"
    enemy.write_text(enemy.read_text(encoding="utf-8").replace("  HP 110\n", "  HP 50\n", 1)
                     + "\n# a comment changes no rule\n", encoding="utf-8")
    loaded = battle("load g.json\n", "--content", str(content)).output.replace("\n", "")
    assert "読み込みました: g.json" in loaded  # (a transcript is 100 columns wide)
    assert "セーブの後にコンテンツが変わっています: 転職、歯車塔の番人（いまの表で続けます" in loaded


def test_log_after_an_undo_or_a_load_tells_no_undone_action(tmp_path, monkeypatch):
    # Undone back to the start, log is the start's; after a load, nothing of before it.
    undone = battle("play 1\nundo\nlog\n").output
    told = undone[undone.rindex("> log"):]
    assert "をプレイ" not in told and "ドロー" in told
    loaded = in_folder(tmp_path, monkeypatch, "save s.json\nplay 1\nload s.json\nlog\n").output
    assert "をプレイ" not in loaded[loaded.rindex("> log"):]


def test_a_save_under_a_content_files_name_is_refused_and_the_file_kept(tmp_path, monkeypatch):
    """`save` writes JSON: a page file named by mistake (with --force or a `y`) would have
    become a save and the page gone."""
    page = tmp_path / "青年期.page"
    page.write_text("ページ x { 銘 1 }\n", encoding="utf-8")
    result = in_folder(tmp_path, monkeypatch, "save 青年期.page\nplay 1\n", "--force")
    assert "青年期.page はコンテンツのファイルの名前です。保存しません" in result.output
    assert result.exit_code == 2 and "> play 1" not in result.output
    assert page.read_text(encoding="utf-8") == "ページ x { 銘 1 }\n"


def test_more_with_pages_than_the_hand_holds_is_a_usage_error(tmp_path, monkeypatch):
    """The hand keeps its cap (手札上限 8 in the bundled balance): a ninth --with page went
    back to the draw pile while the screen said it was drawn."""
    pages = ["arubaito", "hatsu_koe", "hatsukoi", "tabidachi", "nyuugaku", "sakamichi",
             "shigoto", "kekkon", "tenshoku"]
    args = [word for page in pages for word in ("--with", page)]
    result = in_folder(tmp_path, monkeypatch, "end\n", *args)
    assert result.exit_code == 2
    assert "--with で手札に入れられるのは手札上限の 8 枚までです（9 枚指定）" in result.output
    assert in_folder(tmp_path, monkeypatch, "end\n", *args[:-2]).exit_code != 2


def test_after_a_load_the_summary_counts_every_figure_from_the_runs_start(tmp_path, monkeypatch):
    """減ったHP came from the run's start and 増えた綻び from the load, side by side: a
    pen's +10 on the screen read 0. Both are the run's now, as the save carries them."""
    import re

    out = in_folder(tmp_path, monkeypatch,
                    "set 刻 30\npen 2 未来\nplay 6\nend\nsave p.json\nload p.json\nend\n")
    assert "保存しました" in out.output and "読み込みました" in out.output, out.output
    summary = out.output.split("── まとめ ──")[1]
    lost, fray = map(int, re.search(r"減ったHP: (\d+)\s+増えた綻び: (\d+)", summary).groups())
    assert fray == 10 and lost > 0, summary
    assert "ページごとの内訳は読み込んでからの" in summary  # the split is the session's
