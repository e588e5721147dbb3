"""What the commands that run on the lab's runner share (``jibunki sim``, ``jibunki
journey report``): their options, their workers, and their report on stdout."""

from __future__ import annotations

import errno
import re
from pathlib import Path

import click

from commands.common import OutFolder, why


def lab_options(runs: str, html_folder: str):
    """The options of a command that runs on the lab's runner (``jibunki sim``, ``jibunki
    journey report``): where its ``runs`` are played (--workers, --backend, --address),
    and how the report is given (--format, --html, by default into ``html_folder``)."""
    options = (
        click.option("--workers", type=click.IntRange(1, 512), default=None,
                     help="作業プロセスの数（既定: すべてのコア）。"),
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True, help=f"ray: {runs}を Ray クラスタで実行します。"),
        click.option("--address", default=None,
                     help="加わる Ray クラスタ（既定: ここで立てるローカルのクラスタ）。"),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     show_default=True, help="json: 報告を JSON で出します。"),
        click.option("--html", "html", is_flag=False, flag_value=html_folder, default=None,
                     type=OutFolder(),
                     help=f"グラフ付きの報告も書きます（フォルダを省くと {html_folder}）。"),
    )

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


def html_ready(folder: Path | None, kind: str = "sim", content: Path | None = None) -> None:
    """--html's folder tried before the run, nothing made: the nearest of it and its
    parents that exists must be a folder one can write a file in — a path the report
    cannot be written to is said now, not after minutes of battles (and a run that
    fails leaves no folder behind). Nor may it hold a file of the designer's where the
    report writes one, nor lie in the content folder ``content``."""
    import os
    import tempfile

    from contract.disk import DiskError

    if folder is None:
        return
    from commands.outputs import inside_content, refuse_other_kind

    refused = refuse_other_kind(folder, kind) or (
        inside_content(folder, content) if content is not None else None)
    if refused is not None:
        raise click.ClickException(refused)
    here = folder.absolute()
    # lexists: a link to nowhere is there (no folder to write in), not a folder to make
    while not os.path.lexists(here) and here.parent != here:
        here = here.parent
    try:
        if not here.is_dir():
            gone = os.path.islink(here)  # a link to nowhere
            raise DiskError(here, "フォルダではありません" + ("（リンク先がありません）" if gone else ""),
                            errno.ENOTDIR)
        with tempfile.TemporaryFile(dir=here):
            pass
    except OSError as exc:
        raise click.ClickException(f"{folder} に報告を書けません: {why(exc)}") from None


#: The addresses Ray joins: host:port (its GCS), ray://host:port (its client server), and
#: auto (the cluster ``ray start`` left on this machine, or RAY_ADDRESS).
_RAY_ADDRESS = re.compile(r"auto|(?:ray://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}")


def lab_workers(workers: int | None, backend: str, address: str | None) -> int | None:
    """The workers a lab command runs on (``lab_options``): as given; none given, every
    core here, or (ray) every CPU of the cluster. --address goes with --backend ray."""
    if address is not None and backend != "ray":
        raise click.UsageError("--address は --backend ray と一緒に指定します")
    if address is not None and not _RAY_ADDRESS.fullmatch(address):
        # Ray's own refusal of a spelling it cannot read is English ("Invalid address format")
        raise click.UsageError(f"--address「{address}」は Ray のクラスタのアドレスではありません。"
                               "ホスト:ポート、ray://ホスト:ポート か auto と書きます"
                               "（例: 127.0.0.1:6379。ray start --head が示したもの）")
    if workers is not None or backend == "ray":
        return workers
    from sim.backends import default_workers

    return default_workers()


def show_report(report: dict, fmt: str, print_text) -> None:
    """A lab's report on stdout: its JSON (--format json) or its text (``print_text``)."""
    if fmt == "json":
        from sim.render_html import report_json

        click.echo(report_json(report), nl=False)
    else:
        print_text(report)
