"""``jibunki lsp``: the language server for editors."""

from __future__ import annotations

import click


@click.command()
@click.option("--stdio", is_flag=True,
              help="標準入出力で話します（いつもそうします。エディタの言語クライアントが付けます）。")
@click.option("--clientProcessId", "client_process", type=click.IntRange(min=0), default=None,
              metavar="整数",
              help="エディタのプロセス番号（言語クライアントが付けます。initialize の processId と同じ）。")
def lsp(stdio: bool, client_process: int | None) -> None:
    """エディタ向けの言語サーバーを標準入出力で動かします。

    診断、ホバー、補完、定義と参照への移動、整形、名前の変更、クイックフィックス、
    記号の一覧、コードレンズ（模擬戦と旅の報告）を提供します。VS Code の言語クライアントが付ける
    --stdio と --clientProcessId はそのまま受け付けます。

    終了コード:
    0 shutdown のあとに exit で終えた
    1 shutdown なしに終わった（LSP の決まり）
    2 使い方の誤り"""
    import sys

    from lsp import main as serve

    if sys.stdin.isatty():  # typed at a terminal, not started by an editor: say what waits
        click.echo(TYPED_AT_A_TERMINAL, err=True)
    serve()


#: What ``jibunki lsp`` says when a person starts it at a terminal: it would otherwise wait
#: for an editor's messages without a word.
TYPED_AT_A_TERMINAL = ("jibunki lsp はエディタ向けの言語サーバーで、標準入力からエディタ（言語クライアント）の"
                       "メッセージを待っています。ふつうはエディタが起動します（VS Code では editors/vscode "
                       "の拡張）。終えるには Ctrl-C を押してください。")
