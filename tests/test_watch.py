"""`jibunki watch`: a report at start, a new one after each save (an error appears with its
place and code, and goes when fixed), and Ctrl-C ends it without a traceback.

The command runs as a real process on a copy of content/, with its own cache folder; the
test reads its output as it comes and stops it.
"""

from __future__ import annotations

import functools
import os
import pathlib
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from unittest import mock

import pytest

from conftest import ROOT

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

BROKEN = """
ページ mihari "見張り" {
  銘 = 30
  未来面 { 敵HP -= 3 }
}
"""


@functools.cache
def _grammar_cache() -> tempfile.TemporaryDirectory:
    """A cache folder holding only the built grammar, made once for this test process and
    removed at its end (building it costs a command 2.4 s of CPU; no test here is about
    that)."""
    from dsl.parser import build_parser

    seed = tempfile.TemporaryDirectory(prefix="jibunki-watch-grammar-")
    with mock.patch.dict(os.environ, {"XDG_CACHE_HOME": seed.name}):
        os.environ.pop("JIBUNKI_NO_CACHE", None)
        build_parser(use_cache=True)
    return seed


class Watched:
    """A running `jibunki watch` (or the command of ``args``: ``jibunki print --watch``),
    its output lines in a queue. Its cache folder ``cache`` starts with the grammar built,
    as a designer's does after the first command."""

    def __init__(self, content, cache, args=None):
        shutil.copytree(_grammar_cache().name, cache)
        env = {**os.environ, "XDG_CACHE_HOME": str(cache), "NO_COLOR": "1"}
        env.pop("JIBUNKI_NO_CACHE", None)
        self.proc = subprocess.Popen(
            # Ctrl-C as at a terminal, whatever the test run passes down (a full run from a
            # background shell once left its children deaf to SIGINT, as it did the
            # Ctrl-C compile test's).
            [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, "
             "signal.default_int_handler); signal.pthread_sigmask(signal.SIG_UNBLOCK, "
             "{signal.SIGINT}); from cli import main; main()",
             *(args or ("watch", "--content", str(content), "--debounce", "50"))],
            cwd=ROOT, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, encoding="utf-8")
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, check, what: str, timeout: float = 60) -> list[str]:
        """The lines up to and including the first one ``check`` accepts."""
        got = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            got.append(line)
            self.seen.append(line)
            if check(line):
                return got
        raise AssertionError(f"no {what} within {timeout} s; saw: {self.seen[-20:]}")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        time.sleep(0.2)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "\n".join(self.seen)


def test_each_save_gives_a_new_report_with_the_error_and_then_without(content, tmp_path):
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        assert any("エラー 0 件" in line for line in watched.seen)
        page = content / "pages" / "熟年期.page"
        original = page.read_text(encoding="utf-8")
        page.write_text(original + BROKEN, encoding="utf-8")
        report = watched.until(lambda line: "エラー 1 件" in line, "the report of the error")
        error = next(line for line in report if "エラー[E" in line)
        assert error.startswith("content/pages/熟年期.page:") or "熟年期.page:" in error
        page.write_text(original, encoding="utf-8")
        watched.until(lambda line: "エラー 0 件" in line, "the report of the fix")
    finally:
        out = watched.stop()
    assert "Traceback" not in out and "監視を終えました" in out, out
    assert watched.proc.returncode == 0


def test_ctrl_c_in_the_middle_of_a_report_ends_it_cleanly(content, tmp_path):
    for delay in (0.0, 0.05, 0.15, 0.3):
        watched = Watched(content, tmp_path / f"cache-{delay}")
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        page = content / "pages" / "熟年期.page"
        page.write_text(page.read_text(encoding="utf-8") + f"# {delay}\n", encoding="utf-8")
        time.sleep(delay)  # somewhere in the report the save set off (or before it)
        out = watched.stop()
        assert "Traceback" not in out and "監視を終えました" in out, out
        assert watched.proc.returncode == 0


def test_watch_follows_its_folder_when_it_is_removed_and_copied_back(content, tmp_path):
    """A checkout or a sync tool replaces content/ whole: the watcher must watch the new
    folder (an inotify watch stays on the removed one and would report nothing again)."""
    import shutil

    backup = tmp_path / "backup"
    shutil.copytree(content, backup)
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        shutil.rmtree(content)
        watched.until(lambda line: "なくなりました" in line, "the folder's removal")
        shutil.copytree(backup, content)
        watched.until(lambda line: "エラー 0 件" in line, "the report of the folder copied back")
        page = content / "pages" / "熟年期.page"
        page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
        watched.until(lambda line: "エラー 1 件" in line, "the report of an error saved afterwards")
    finally:
        out = watched.stop()
    assert "Traceback" not in out and "監視を終えました" in out, out
    assert watched.proc.returncode == 0


def test_watch_follows_its_folder_when_it_is_replaced_in_one_step(content, tmp_path):
    """A folder renamed over content/ (what an atomic sync does): the watch moves to it."""
    import shutil

    fresh = tmp_path / "fresh"
    shutil.copytree(content, fresh)
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        old = tmp_path / "old"
        content.rename(old)
        fresh.rename(content)
        watched.until(lambda line: "置き換わりました" in line, "the folder's replacement")
        page = content / "pages" / "熟年期.page"
        page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
        watched.until(lambda line: "エラー 1 件" in line, "the report of an error saved afterwards")
    finally:
        out = watched.stop()
    assert "Traceback" not in out and "監視を終えました" in out, out


def test_a_folder_of_pages_moved_out_or_in_gives_a_new_report(content, tmp_path):
    """A folder moved in or out of content/ is one change of the folder's own path: the
    files it holds come and go all the same, and the report on screen must say so (it
    stayed at エラー 0 件 while lint found the pages' every reference broken)."""
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        (content / "pages").rename(tmp_path / "pages")
        watched.until(lambda line: "エラー" in line and "エラー 0 件" not in line,
                      "the report of the pages moved out")
        (tmp_path / "pages").rename(content / "pages")
        watched.until(lambda line: "エラー 0 件" in line, "the report of the pages moved back")
    finally:
        out = watched.stop()
    assert "Traceback" not in out and "監視を終えました" in out, out


def test_an_empty_folder_or_an_editors_probe_file_gives_no_report(content, tmp_path):
    """vim saves by first making and removing a file named 4913; an empty folder holds no
    content: neither changes what the report says, so no report is printed for them —
    then a real save still is."""
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        probe = content / "pages" / "4913"
        probe.write_text("x", encoding="utf-8")
        probe.unlink()
        (content / "pages" / "empty").mkdir()
        time.sleep(1.5)  # well past the debounce: a report would have come
        page = content / "pages" / "熟年期.page"
        page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
        watched.until(lambda line: "エラー 1 件" in line, "the report of a real save")
    finally:
        out = watched.stop()
    assert out.count("── ") == 2, out  # the first report and the save's, nothing between


def test_a_folder_the_watcher_may_not_read_is_named_with_its_reason():
    """watchfiles raises a PermissionError without an errno (``watch --content /proc``):
    it was 「入出力に失敗しました（OS のエラーです（?））。出力は途中までです」."""
    import click

    from commands.watch import _watched
    from contract.disk import reason

    assert reason(PermissionError("Permission denied (os error 13)")) == "権限がありません"
    assert reason(FileNotFoundError("gone")) == "ファイルかフォルダがありません"

    def watcher():
        yield set()
        raise PermissionError("Permission denied (os error 13) about [\"/proc/1/fdinfo\"]")

    changes = _watched(pathlib.Path("/proc"), watcher())
    assert next(changes) == set()
    with pytest.raises(click.ClickException) as said:
        next(changes)
    assert said.value.message == "/proc/ を見張れません: 権限がありません"


def test_a_subfolder_gone_under_the_watcher_restarts_it_and_reports_again(tmp_path, monkeypatch):
    """A folder under content/ made and removed in a moment (a checkout, a sync tool)
    raised FileNotFoundError from the watcher's walk: 「content/ を見張れません」 and the
    watch ended, exit 1, while content/ was still there. Now the watcher starts again,
    and the next report says what changed meanwhile."""
    import click
    import watchfiles
    from click.testing import CliRunner

    from commands.watch import watch_loop

    content = tmp_path / "content"
    content.mkdir()
    started = []

    def watch(*args, **kwargs):
        started.append(args[0])
        yield set()  # the first report
        if len(started) == 1:
            raise FileNotFoundError('No such file or directory (os error 2) about ["sub"]')
        raise KeyboardInterrupt

    monkeypatch.setattr(watchfiles, "watch", watch)
    reports = []
    result = CliRunner().invoke(click.command()(lambda: watch_loop(
        content, 50, lambda: reports.append(1))), [])
    assert result.exit_code == 0 and "見張れません" not in result.output, result.output
    assert len(started) == 2 and len(reports) == 2  # the first, and again after the restart
    assert result.output.endswith("監視を終えました。\n")


def test_a_folder_gone_under_the_watcher_is_a_restart_not_an_error(tmp_path):
    """Whether the folder gone is under content/ or content/ itself, the watcher is
    started again: the loop then waits for content/ when it is gone."""
    from commands.watch import _Restart, _watched

    def watcher():
        yield set()
        raise FileNotFoundError("gone")

    changes = _watched(tmp_path / "nowhere", watcher())
    assert next(changes) == set()
    with pytest.raises(_Restart):
        next(changes)


def test_folders_made_and_removed_in_a_moment_never_stop_the_watch(content, tmp_path):
    """A sync tool or a checkout makes and removes folders under content/: the watcher's
    walk, or the watch's own listing of folders, met one already gone and the watch
    ended (「見張れません」, or 「入出力に失敗しました」 with exit 1). It goes on, and
    a save made afterwards is reported."""
    watched = Watched(content, tmp_path / "cache")
    try:
        watched.until(lambda line: line.startswith("（") and "秒" in line, "first report")
        deadline = time.monotonic() + 3  # it stopped the watch within a second or two
        while time.monotonic() < deadline:
            sub = content / "tmp" / "sub" / "sub2"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / "a.page").write_text("# c\n", encoding="utf-8")
            shutil.rmtree(content / "tmp")
        page = content / "pages" / "熟年期.page"
        page.write_text(page.read_text(encoding="utf-8") + BROKEN, encoding="utf-8")
        watched.until(lambda line: "エラー 1 件" in line, "the report of the save")
    finally:
        out = watched.stop()
    assert "見張れません" not in out and "入出力に失敗" not in out, out
    assert watched.proc.returncode == 0, out
