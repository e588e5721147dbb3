"""jibunki — the command line of the content pipeline (自分紀).

The commands live in commands/, one module per group of commands; this is the entry
point that gathers them under one group. Heavy modules (lark, the compiler) are imported
inside the commands, so that ``jibunki --help`` starts fast.
"""

from __future__ import annotations

import commands  # first: it answers a Ctrl-C while the rest loads

import click

# commands/ puts click in Japanese (terminal.click_ja) before any option is declared.
from commands.analyze import analyze
from commands.battle import battle
from commands.common import CommandGroup
from commands.compile import build, catalog, compile_cmd
from commands.journey import journey
from commands.lint import explain, fmt_cmd, lint, vocab
from commands.lsp import lsp
from commands.print_pdf import print_cmd
from commands.sim import sim
from commands.test import test_cmd
from commands.watch import watch

commands.loaded()


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
