"""``jibunki lsp``: the language server for editors."""

from __future__ import annotations

import click


@click.command()
def lsp() -> None:
    """エディタ向けの言語サーバーを標準入出力で動かします。

    診断、ホバー、補完、定義への移動を提供します。"""
    from lsp import main as serve

    serve()
