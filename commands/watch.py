"""``jibunki watch``: the checks and the examples again at every save."""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path

import click

from commands.checked import check_content, print_diagnostics, say_blocked, say_unanalysed
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT


@click.command()
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="見張るコンテンツのフォルダ。")
@click.option("--debounce", type=click.IntRange(10, 10_000), default=150, show_default=True,
              help="続けざまの保存が落ち着くまで待つミリ秒。")
def watch(content: Path, debounce: int) -> None:
    """保存のたびに検査と例の実行をやり直します（Ctrl-C で終わります）。

    変更ごとに報告を 1 つ出します。報告は時刻で始まり、まとめの行で終わります。診断は
    lint と同じ「ファイル:行:列: エラー[コード]: 説明」の形で、その行と ^ 印、ヒントが続きます
    （VS Code の端末などでは、場所をクリックしてそこを開けます）。

    終了コード:
    0 Ctrl-C で終えた（見張るあいだのエラーは報告するだけです）
    2 使い方の誤り"""
    import time

    def report() -> None:
        started = time.perf_counter()
        if sys.stdout.isatty():
            click.clear()
        click.echo(f"── {time.strftime('%H:%M:%S')} {content}/ ──")
        result = check_content(content, whole_result=True)
        print_diagnostics(result.diagnostics, result.sources, result.files)
        say_blocked(result)
        say_unanalysed(result)
        click.echo(f"（{time.perf_counter() - started:.2f} 秒。保存するたびに検査します。Ctrl-C で終わります）")

    watch_loop(content, debounce, report)


def _watched(content: Path, watcher):
    """The watcher's changes; one it cannot follow (a folder it may not read under
    ``content``) a message naming the folder, not an output said to have failed. A
    folder under ``content`` gone while the watcher walked into it (made and removed in
    a moment: a checkout, a sync tool, an unzip) is no reason to stop: ``_Restart``, and
    the loop watches the folder again (or waits for it, when it is gone as well)."""
    from contract.disk import reason

    while True:
        try:
            changed = next(watcher)
        except StopIteration:
            return
        except OSError as exc:
            if isinstance(exc, FileNotFoundError) or exc.errno == errno.ENOENT:
                raise _Restart from None  # ``content`` gone too: the loop waits for it
            raise click.ClickException(f"{content}/ を見張れません: {reason(exc)}") from None
        yield changed


def watch_loop(content: Path, debounce: int, report) -> None:
    """Call ``report()`` once the watcher runs, then after each save of a content file in
    ``content`` (saves in a row settle for ``debounce`` ms), until Ctrl-C: the one watcher
    of ``jibunki watch`` and ``jibunki print --watch``. The folder may vanish and come
    back, or be replaced: the loop follows it."""
    import time

    from watchfiles import Change
    from watchfiles import watch as changes

    from contract.kinds import CONTENT_SUFFIXES

    folders: set[str] = set()  # the folders under content, as of the last report

    def content_file(change, path: str) -> bool:
        """A content file, or a folder holding some: a folder moved in or out comes as one
        change of its own path (a folder moved away is no longer there to tell: one that
        was there counts). An empty folder made, or an editor's probe file, is no change."""
        if path.endswith(CONTENT_SUFFIXES):
            return True
        if change == Change.deleted:
            return os.path.abspath(path) in folders
        # os.walk, not Path.rglob: a folder removed while it is walked is skipped, where
        # rglob raised (a sync tool making and removing folders stopped the watch)
        return os.path.isdir(path) and any(name.endswith(CONTENT_SUFFIXES)
                                           for _, dirs, files in os.walk(path)
                                           for name in (*dirs, *files))

    def seen_folders() -> None:
        folders.clear()
        folders.update(os.path.abspath(os.path.join(root, name))
                       for root, dirs, _ in os.walk(content) for name in dirs)

    first = True
    try:
        while True:
            # The folder is watched as the inode it is now: a folder removed and copied
            # back, or another renamed over it, is a new one, and a watch on the old one
            # would never report again.
            watched = _folder_identity(content)
            if watched is None:
                click.echo(f"{content}/ がなくなりました。戻るのを待ちます（Ctrl-C で終わります）")
                while watched is None:
                    time.sleep(0.2)
                    watched = _folder_identity(content)
                first = True
            # The first report comes from the first (empty) yield, once the watcher runs: a
            # save made while it is being printed is then seen.
            try:
                for changed in _watched(content, changes(
                        content, watch_filter=content_file, debounce=debounce, step=50,
                        raise_interrupt=True, yield_on_timeout=True, rust_timeout=200)):
                    now = _folder_identity(content)
                    if now != watched:
                        if now is not None:
                            click.echo(f"{content}/ が置き換わりました。新しいフォルダを監視します")
                            first = True
                        break
                    if not (changed or first):
                        continue
                    first = False
                    seen_folders()
                    try:
                        report()
                    except KeyboardInterrupt:
                        # Ctrl-C in the middle of a report: leave the loop at the watcher's
                        # own pace (an interrupt raised through it would leave its cleanup
                        # half done).
                        raise _Stop from None
            except _Restart:
                # what changed while no watcher ran is not known: the next report says it
                first = True
    except (KeyboardInterrupt, _Stop):
        pass
    click.echo("監視を終えました。")


class _Stop(Exception):
    """Ctrl-C seen inside a report of ``watch``: leave the watch loop."""


class _Restart(Exception):
    """A folder under the watched one vanished under the watcher: watch it again."""


def _folder_identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of a folder, None when it is not there: what tells ``watch`` that
    its folder was replaced."""
    try:
        found = folder.stat()
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None
