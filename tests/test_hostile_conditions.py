"""The tool keeps its promises under bad conditions (issue: no false greens, no planted
code, no half-written tables): designer text, CLI options, scripts, saves, the disk."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from terminal.play import EXIT_UNFINISHED

from conftest import ROOT, invoke_cli

#: Commands run whole (the CLI, subprocesses, files on disk): left out of the fast loop.
pytestmark = pytest.mark.slow


invoke = invoke_cli  # every command of this file ends without a traceback




# ------------------------------------------------------------ designer text is plain text


MARKUP_PAGE = '''ページ markup "[/]" {
  銘 36
  フレーバー "[bold red]x[/]"
  未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 }
}
'''


def test_designer_text_is_printed_as_plain_text_never_as_terminal_markup(content):
    (content / "pages" / "markup.page").write_text(MARKUP_PAGE, encoding="utf-8")
    result = invoke("battle", "--content", str(content), "--with", "markup", "--seed", "1",
                    input="play 1\nset 手札 [/]\nplay [bold]\nq\n")
    assert result.exit_code == EXIT_UNFINISHED, result.output  # quit before the end
    assert "[/]（銘 36）をプレイ" in result.output  # the name, exactly as written
    assert "> play [bold]" in result.output and "> set 手札 [/]" in result.output


# ---------------------------------------------------------------- no false greens


def spoil(content: Path) -> None:
    with (content / "pages" / "青年期.page").open("a", encoding="utf-8") as handle:
        handle.write("\nページ broken { 銘 x }\n")


def test_a_test_run_that_could_not_play_its_examples_is_never_green(content, monkeypatch):
    spoil(content)
    monkeypatch.chdir(content.parent)
    result = invoke("test", "content/tests/青年期.scenario")
    assert result.exit_code == 1
    assert "青年期.page:" in result.output and "E010" in result.output  # the error elsewhere
    assert "シナリオを実行できません" in result.output and "成功" not in result.output


def test_build_says_the_examples_did_not_run_when_content_has_errors(content, monkeypatch):
    spoil(content)
    monkeypatch.chdir(content.parent)
    result = invoke("build")
    assert result.exit_code == 1
    assert "例: 成功 0" not in result.output and "件を実行できませんでした" in result.output


def test_a_test_runner_that_finds_no_example_fails(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    empty = tmp_path / "none.scenario"
    empty.write_text("# 何もない\n", encoding="utf-8")
    result = invoke("test", str(empty))
    assert result.exit_code == 1 and "1つもありません" in result.output


def test_files_outside_content_resolve_names_against_the_project_content(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    deck = tmp_path / "my.deck"
    deck.write_text("デッキ mine { tabidachi × 2; kekkon }\n", encoding="utf-8")
    scenario = tmp_path / "x.scenario"
    scenario.write_text('例 "外から" {\n  敵 haguruma\n  開始 刻 30, 手札 [tabidachi]\n'
                        '  出す tabidachi\n  確認 刻 == 36\n}\n', encoding="utf-8")
    assert invoke("lint", str(deck)).exit_code == 0
    result = invoke("test", str(scenario))
    assert result.exit_code == 0 and "成功 1、失敗 0" in result.output
    result = invoke("battle", "--deck", str(deck), "--script", "/dev/null")
    assert result.exit_code == EXIT_UNFINISHED and "ドロー: 旅立ちの朝" in result.output, \
        result.output


def test_another_content_folder_is_named_with_content(content, tmp_path, monkeypatch):
    (content / "pages" / "extra.page").write_text(
        'ページ only_here { 銘 40\n  未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n', encoding="utf-8")
    scenario = tmp_path / "y.scenario"
    scenario.write_text('例 {\n  敵 haguruma\n  開始 刻 30, 手札 [only_here]\n  出す only_here\n'
                        '  確認 刻 == 40\n}\n', encoding="utf-8")
    monkeypatch.chdir(ROOT)
    assert invoke("test", str(scenario)).exit_code == 1  # the bundled content has no only_here
    result = invoke("test", "--content", str(content), str(scenario))
    assert result.exit_code == 0 and "成功 1、" in result.output


def test_an_unreadable_sub_folder_is_reported_not_skipped(content, monkeypatch):
    import os

    locked = (content / "pages").resolve()
    real = os.scandir

    def scandir(path="."):
        if Path(path).resolve() == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(content.parent)
    result = invoke("lint", "content")
    assert result.exit_code == 1
    assert "E004" in result.output and "フォルダを読めません" in result.output


# ------------------------------------------------- ordinary conditions, no traceback


def test_an_out_folder_that_is_a_file_is_a_message(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    result = invoke("compile", "--out", str(afile / "sub"))
    assert result.exit_code == 1 and "書けません" in result.output


def test_a_full_disk_leaves_the_old_tables_whole(tmp_path, monkeypatch):
    import errno

    import compiler.build as build

    monkeypatch.chdir(ROOT)
    out = tmp_path / "tables"
    assert invoke("compile", "--out", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "pages.py").write_text("# stale\n", encoding="utf-8")
    before["pages.py"] = b"# stale\n"

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build.os, "fsync", full)
    result = invoke("compile", "--out", str(out))
    assert result.exit_code == 1 and "ディスクがいっぱいです" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no temp file either


def test_a_stale_unwritable_generated_folder_still_plays(content, monkeypatch):
    import compiler.build as build

    shutil.copytree(ROOT / "generated", content.parent / "generated",
                    ignore=shutil.ignore_patterns("catalog", "json"))
    spoil_free = content / "pages" / "extra.page"  # a change: generated/ is now stale
    spoil_free.write_text('ページ extra { 銘 40\n  未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n', encoding="utf-8")
    monkeypatch.chdir(content.parent)

    def readonly(out, files):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(build, "write_atomically", readonly)
    result = invoke("battle", "--with", "extra", "--script", str(ROOT / "tests" / "golden_transcripts"
                                                                 / "starter.script"))
    assert result.exit_code == EXIT_UNFINISHED  # the script ends before the battle does
    assert "メモリ上で使います" in result.output and "結果:" in result.output


@pytest.mark.parametrize("data, says", [
    (b"play 1\n\xff\xfe\n", "UTF-8 として読めないバイト 0xff"),
    (b"play 1\n" * 200_000, "大きすぎます"),
])
def test_a_bad_script_is_a_message(tmp_path, monkeypatch, data, says):
    monkeypatch.chdir(ROOT)
    script = tmp_path / "s.txt"
    script.write_bytes(data)
    result = invoke("battle", "--script", str(script))
    assert result.exit_code == 2 and says in result.output


def test_an_endless_device_as_script_is_refused_at_once(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("battle", "--script", "/dev/zero")
    assert result.exit_code == 2 and "大きすぎます" in result.output
    assert invoke("battle", "--script", "/dev/null").exit_code == EXIT_UNFINISHED


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args, status", [(["lint"], 1), (["vocab"], 1),
                                          (["journey", "--seed", "3", "--script", "/dev/null"], 4)])
def test_a_full_standard_output_is_a_message_and_no_traceback(args, status):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == "エラー: 入出力に失敗しました（ディスクがいっぱいです）。出力は途中までです"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_full_standard_output_of_journey_report_exits_with_its_own_status():
    """``journey report`` measures, it plays no run: its statuses are 0–2, and a failed
    output is 1 — it exited 4, a run's 遊べなかった, which its help does not list."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "cli.py", "journey", "report", "--setup", "草案",
                               "--no-pairs", "--deals", "1", "--ladder", "0", "--nodes", "20",
                               "--workers", "1", "--no-cache"], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "出力は途中までです" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("args, status", [
    (["lint"], 1), (["vocab"], 1), (["explain", "E020"], 1), (["lsp"], 1),
    (["battle", "--script", "/dev/null", "--json"], 4),
    (["journey", "--script", "/dev/null", "--events"], 4)])
def test_a_closed_standard_output_is_a_failed_output_and_no_traceback(args, status):
    """``jibunki lint >&-``: Python gives such a process no sys.stdout, and every command
    failed on it with a traceback (``'NoneType' object has no attribute 'isatty'``) — or,
    whose output was its whole job (vocab, explain), exited 0 having written nothing."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == status, done.stderr
    assert done.stderr.strip() == ("エラー: 標準出力が閉じています。出力先を開いて"
                                   "（ファイルかパイプにつないで）実行してください")


@pytest.mark.parametrize("args, status", [(["battle"], 3), (["journey"], 3), (["lsp"], 1)])
def test_a_closed_standard_input_reads_as_empty(args, status):
    """``jibunki battle <&-``: no sys.stdin, and a traceback; now as ``< /dev/null``."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [["battle", "--script"], ["journey", "--seed", "3", "--script"]])
def test_a_reader_gone_ends_a_run_unplayed_not_lost(tmp_path, args):
    """``jibunki battle --script s | head -1``: the output's reader has gone before the run
    ends, so the run ends unfinished — status 4, not 1, which says the run was lost (rich
    and click exit 1 on a closed pipe)."""
    import subprocess
    import sys

    from terminal.script import EXIT_LOST, EXIT_UNPLAYED

    script = tmp_path / "s.txt"
    script.write_text("end\nend\n", encoding="utf-8")
    read, write = os.pipe()
    os.close(read)  # no reader from the first write on: no race with the run's speed
    try:
        done = subprocess.run([sys.executable, "cli.py", *args, str(script)], cwd=ROOT,
                              stdout=write, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == EXIT_UNPLAYED != EXIT_LOST, done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("encoding", ["cp932", "latin-1"])
def test_an_output_encoding_that_cannot_write_every_character_is_no_traceback(encoding):
    """Windows writes redirected output in cp932, which has no — or ≥: a command writes
    what it cannot as "?" and goes on, never stopping part-way with a traceback."""
    import subprocess
    import sys

    for args in (["vocab", "歩"], ["battle", "--seed", "1", "--script", "/dev/null"]):
        done = subprocess.run([sys.executable, "cli.py", *args], cwd=ROOT, capture_output=True,
                              env={**os.environ, "PYTHONIOENCODING": encoding}, timeout=120)
        assert b"Traceback" not in done.stderr, done.stderr.decode(encoding, "replace")
        assert done.returncode in (0, 3), (args, done.returncode)
        assert "歩".encode(encoding, "replace") in done.stdout


def test_a_content_file_named_in_another_encoding_is_e004_and_no_command_fails_on_it(
        tmp_path, monkeypatch):
    """A zip made on Japanese Windows names its files in cp932: such a name cannot be
    written in any text (the catalog, the tables, a message), so the file is not read —
    E004 — whether found in a folder or named."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "content")
    named = os.fsdecode(b"content/pages/" + "追加ページ.page".encode("cp932"))
    shutil.copy(ROOT / "content" / "pages" / "青年期.page", tmp_path / named)
    monkeypatch.chdir(tmp_path)
    for args in (["lint"], ["lint", named], ["catalog"], ["compile", "--format", "json"]):
        result = invoke_cli(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "Traceback" not in result.output and result.exception is None or \
            isinstance(result.exception, SystemExit), (args, result.output)
        assert "ファイル名が UTF-8 ではありません" in result.output, (args, result.output)
    assert not (tmp_path / "generated" / "catalog").exists()


def test_drawing_leaves_no_folder_under_a_mistyped_home_nor_a_relative_cache_home(tmp_path):
    """matplotlib, left to itself, makes ~/.config and ~/.cache under a HOME that does
    not exist (after which jibunki's own cache would land there), a relative
    XDG_CACHE_HOME's folder inside the working folder, and warns in English."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_CACHE_HOME", "MPLCONFIGDIR", "JIBUNKI_NO_CACHE")}
    for name, extra in (("mistyped", {"HOME": str(tmp_path / "typo" / "me")}),
                        ("relative", {"HOME": str(tmp_path / "typo" / "me"),
                                      "XDG_CACHE_HOME": "rel/cache"})):
        work = tmp_path / name
        work.mkdir()
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "catalog", "--content",
                               str(ROOT / "content"), "--out", "cat"], cwd=work,
                              env={**env, **extra}, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert "matplotlib" not in done.stderr.lower(), done.stderr
        assert not (tmp_path / "typo").exists()
        assert sorted(p.name for p in work.iterdir()) == ["cat"]


def test_a_font_list_that_cannot_be_saved_is_no_english_warning(tmp_path):
    """A cache folder on a full disk: matplotlib warned 「Could not save font_manager cache
    [Errno 28] …」 in English on every catalog, sim --html and journey report --html."""
    import subprocess
    import sys

    program = (f"import json, sys; sys.path.insert(0, {str(ROOT)!r})\n"
               "def full(*args, **kwargs): raise OSError(28, 'No space left on device')\n"
               "json.dump = full\n"
               "from sim.render_html import matplotlib_ready\n"
               "matplotlib_ready()\n"
               "import matplotlib.font_manager as fm\n"
               "fm._load_fontmanager(try_read_cache=False)\n")
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_font_list_folder_that_cannot_be_written_is_left_for_a_temporary_one(
        tmp_path, monkeypatch):
    """QA: a cache folder bind-mounted read-only held its matplotlib folder: it was used,
    and matplotlib warned 「…/jibunki/matplotlib is not a writable directory」 in English
    on every build. A folder there but not writable is passed over like one not made."""
    import sim.render_html as render_html
    from contract import disk

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    assert render_html._config_folder() == str(tmp_path / "cache" / "jibunki" / "matplotlib")

    def read_only(folder):
        raise OSError(30, "Read-only file system", str(folder))

    monkeypatch.setattr(disk, "check_writable", read_only)
    chosen = render_html._config_folder()
    assert Path(chosen).name.startswith("jibunki-matplotlib-"), chosen


def test_a_script_saved_with_a_bom_reads_its_first_command(tmp_path):
    from commands.common import script_lines

    path = tmp_path / "s.txt"
    path.write_bytes("\ufeffplay 1\nend\n".encode("utf-8"))
    assert script_lines(path) == ["play 1\n", "end\n"]


@pytest.mark.parametrize("args", [["catalog", "--out"], ["compile", "--out"],
                                  ["sim", "--page", "zangyou", "--html"],
                                  ["journey", "report", "--html"], ["print", "--tts"],
                                  ["analyze", "--witness"]])
def test_an_empty_folder_to_write_into_is_a_usage_error_not_the_working_folder(
        tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = invoke_cli(*args, "", "--content", str(ROOT / "content"))
    assert result.exit_code == 2, result.output
    assert "空のパスです。書き出すフォルダを指定してください" in result.output
    assert list(tmp_path.iterdir()) == []


def test_bad_bytes_on_standard_input_name_no_option():
    result = invoke_cli("journey", "--seed", "3", "--events", input=b"play 1\n\xff\n")
    assert result.exit_code == 2, result.output
    assert "標準入力:2: UTF-8 として読めないバイト 0xff があります" in result.output
    assert "--script" not in result.output


@pytest.mark.parametrize("command", [
    ["lint"], ["compile"], ["build"], ["catalog"], ["test"], ["sim"], ["battle"], ["print"],
    ["analyze"], ["watch"], ["journey"], ["journey", "report"]])
def test_a_content_option_that_is_no_folder_is_a_usage_error(command):
    """``--content /dev/null``: click's check let a device through — compiled as a file of
    no content kind with made-up E014s, and ``watch`` waited for it forever."""
    result = invoke_cli(*command, "--content", "/dev/null")
    assert result.exit_code == 2, result.output
    assert "/dev/null はフォルダではありません。コンテンツのフォルダを指定してください" in result.output


def test_a_locale_that_reads_no_japanese_name_is_no_e004(tmp_path):
    """Under LC_ALL=C without Python's UTF-8 mode the file system's names are read as
    ASCII: every Japanese file name was 「ファイル名が UTF-8 ではありません」 (E004),
    though its bytes are UTF-8 — the locale, not the name, is what reads no Japanese."""
    import subprocess
    import sys

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0",
           "PYTHONCOERCECLOCALE": "0"}
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "lint", "--content",
                           str(content)], cwd=tmp_path, env=env, capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout.decode("utf-8", "replace")
    assert b"E004" not in done.stdout + done.stderr


def test_a_current_folder_removed_under_the_shell_is_said_as_such(tmp_path):
    """A shell left standing in a folder that was removed: every command failed with
    「入出力に失敗しました（ファイルかフォルダがありません）。出力は途中までです」, naming no
    file, though every path given was whole and nothing was output."""
    import subprocess
    import sys

    for args, status in (["lint", "--content", str(ROOT / "content")], 1), (["lint"], 1), \
            (["battle"], 4):  # a run that was not played says so by its status
        gone = tmp_path / "gone"
        gone.mkdir()
        script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
                  "sys.argv = ['jibunki', *sys.argv[2:]]; from cli import main; main()")
        done = subprocess.run([sys.executable, "-c", script, str(gone), *args],
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == status, (args, done.stderr)
        assert "いまのフォルダがもうありません（消されたか移されました）" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "出力は途中まで" not in done.stderr


@pytest.mark.parametrize("env, coloured", [
    ({}, True), ({"NO_COLOR": "1"}, False),
    ({"NO_COLOR": ""}, True),       # no-color.org: set and not empty (as rich reads it)
    ({"TERM": "dumb"}, False),      # a terminal that says it has no colour got ANSI codes
    ({"TERM": "unknown"}, False), ({"TERM": "xterm-256color"}, True)])
def test_colour_follows_no_color_and_a_dumb_terminal_as_the_screens_do(monkeypatch, env, coloured):
    """QA: `TERM=dumb jibunki lint` printed ESC[1m …; NO_COLOR= (empty) took colour away."""
    from commands.common import use_color

    class Tty:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert use_color(Tty()) is coloured
