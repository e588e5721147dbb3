"""jibunki — the command line of the content pipeline (自分紀).

The commands live in commands/, one module per group of commands; this is the entry
point that gathers them under one group. Heavy modules (lark, the compiler) are imported
inside the commands, so that ``jibunki --help`` starts fast.
"""

from __future__ import annotations

import os
import sys

import click

# commands/ puts click in Japanese (terminal.click_ja) before any option is declared.
from commands.analyze import analyze
from commands.battle import battle
from commands.compile import build, catalog, compile_cmd
from commands.journey import journey
from commands.lint import explain, fmt_cmd, lint, vocab
from commands.lsp import lsp
from commands.print_pdf import print_cmd
from commands.sim import sim
from commands.test import test_cmd
from commands.watch import watch


#: The commands that play a run: their exit statuses 0–3 say how it ended (terminal/script.py),
#: so a run that could not be played exits EXIT_UNPLAYED rather than 1 (a lost run).
PLAYS = ("battle", "journey")


class _Jibunki(click.Group):
    """The command group. An input or output that fails where no command expected it (the
    standard output on a full disk, a device that refuses) is said in Japanese on stderr
    with the system's reason, never as a traceback (click itself answers a closed pipe)."""

    def main(self, args=None, *rest, **options):
        try:
            return super().main(args, *rest, **options)
        except OSError as exc:
            _failed_io(exc, sys.argv[1:] if args is None else list(args))


def _failed_io(exc: OSError, args: list[str]) -> None:
    from commands.common import EXIT_CONTENT, why
    from terminal.script import EXIT_UNPLAYED

    try:  # what the standard output still buffers would fail again as the process ends
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    try:
        click.echo(f"エラー: 入出力に失敗しました（{why(exc)}）。出力は途中までです", err=True)
    except OSError:
        pass
    sys.exit(EXIT_UNPLAYED if args[:1] and args[0] in PLAYS else EXIT_CONTENT)


@click.group(cls=_Jibunki, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jibunki", message="jibunki %(version)s",
                      help="バージョンを表示して終わります。")
def main() -> None:
    """自分紀 (jibunki): 一生のページと敵を検査し、コンパイルし、遊んで確かめます。

    コマンドごとの使い方は jibunki コマンド --help で見られます。"""


for command in (lint, compile_cmd, battle, journey, catalog, build, test_cmd, sim, lsp, fmt_cmd,
                vocab, watch, explain, print_cmd, analyze):
    main.add_command(command)


if __name__ == "__main__":
    main(prog_name="jibunki")  # python -m cli: the usage lines name the program, not cli.py
