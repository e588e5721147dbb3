"""``jibunki battle``: a battle played in the terminal, by keyboard or by script."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from commands.checked import check_named, fresh_tables, known, named_ids, print_diagnostics
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, Seed, script_lines
from contract.vocabulary import W
from runtime.bounds import BOUNDS
from terminal.script import EXIT_UNPLAYED

#: The seeds a battle can be saved with (runtime/bounds.py, a table of plain numbers:
#: nothing heavy is imported for it).
SEED_RANGE = BOUNDS["seed"]


def _deck_from_file(path: Path, content: Path) -> list[str]:
    """The pages of the one デッキ that ``path`` defines (--deck). A file that defines no
    deck, or more than one, is a usage error saying what it holds: the battle never falls
    back on a deck of the content folder."""
    from dsl import ast

    result = check_named([path], content, "デッキのファイル")
    named = next((s for s in result.compilation.sources if s.report), None)
    if named is None:  # not a content file (E004: mydeck.txt): nothing of it was read
        said = next((d.message for d in result.diagnostics if d.code == "E004"),
                    f"{path} はコンテンツのファイルではありません")
        raise click.UsageError(f"{said}。デッキ（デッキ 名前 {{ … }}）を書いた .deck の"
                               "ファイルを指定してください")
    items = named.parsed.file.items if named.parsed else ()  # unreadable: said below
    decks = [item for item in items if isinstance(item, ast.Deck)]
    # A file that did not parse may hold a deck written wrong: its errors say more.
    if named.parsed and not decks and not any(d.is_error for d in named.parsed.diagnostics):
        raise click.UsageError(f"{path} にデッキ（デッキ 名前 {{ … }}）がありません。"
                               f"{_what_file_holds(items, named.text)}")
    if len(decks) > 1:
        raise click.UsageError(
            f"{path} にデッキが {len(decks)} つあります（"
            f"{'、'.join(d.id.text for d in decks)}）。どれで戦うか決められません: "
            "デッキを 1 つだけ書いたファイルを指定してください")
    if result.errors:
        print_diagnostics(result.diagnostics, result.sources, result.files)
        sys.exit(EXIT_UNPLAYED)
    wanted = decks[0].id.text
    return list(next(d for d in result.model.decks if d and d.id == wanted).pages)


#: How many of a file's items a message names before 「ほか n 件」.
HOLDINGS_SHOWN = 4


def _what_file_holds(items, text: str) -> str:
    """What a file defines, as the designer wrote it (「あるのは バランス「初期バランス」です」),
    or that it is empty or only comments."""
    from contract import kinds

    if not items:
        return "空のファイルです" if not text.strip() else "コメントと空行だけです"

    def named(item) -> str:
        ident = getattr(item, "id", None)
        title = getattr(item, "title", None)
        label = f" {ident.text}" if ident is not None else f"「{title}」" if title else ""
        return kinds.word(kinds.of(item)) + label

    from terminal.lookup import listed

    return f"あるのは {listed([named(item) for item in items], '、', HOLDINGS_SHOWN)}です"


@click.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID|名前",
              help="戦う敵（ID か名前）。重ねて指定すると、その順に続けて戦います。"
                   "既定: 最初の敵。")
@click.option("--stage", "stages", type=click.IntRange(1, 99), default=None,
              help="続けて戦う戦闘の数（敵は指定した敵を、なければすべての敵を順に回ります）。")
@click.option("--deck", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="このファイルのデッキ（1 つだけ書いたもの）で戦います。既定: はじめのデッキ。")
@click.option("--with", "with_pages", multiple=True, metavar="ページ",
              help="このページ（ID か名前）を初めから手に持って始めます（重ねて指定できます）。"
                   f"{W.region.draw}か{W.region.discard}にあればそれを{W.region.hand}へ移し、なければ"
                   f"（最初の{W.region.hand}にもう引いていればそれも）新しい写しを加えます。")
@click.option("--seed", type=Seed(*SEED_RANGE), default=0, show_default=True,
              help="乱数のシード（同じシードなら同じ戦闘になります）。")
@click.option("--script", type=click.Path(exists=True, dir_okay=False, allow_dash=True,
                                          path_type=Path),
              help="このファイルのコマンド（1 行に 1 つ、UTF-8）を流し、経過を表示します"
                   "（- なら標準入力から）。")
@click.option("--json", "as_json", is_flag=True,
              help=f"{W.quantity.events}の流れを JSON Lines で出します。")
@click.option("--ascii", "ascii_", is_flag=True,
              help="画面の記号のうち幅があいまいなものを ASCII で表示します。")
@click.option("--yes", "-y", is_flag=True,
              help="キーボードで遊ぶとき、ペンと破りを確かめずに実行します（予告は表示します）。")
@click.option("--force", is_flag=True,
              help="save と record で既存のファイルを上書きします（既定: スクリプトは止まり、"
                   "キーボードでは確かめます）。")
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def battle(enemies, stages, deck, with_pages, seed, script, as_json, ascii_, yes, force,
           content) -> None:
    """ターミナルで戦闘を遊び、ページを試します。

    キーボードで遊ぶほか、--script のコマンドを流すこともできます。save と record は
    作業フォルダの中の通常のファイルにだけ書きます。

    終了コード:
    0 勝利
    1 敗北
    2 使い方の誤り（またはスクリプトが書けない save・record、読めない load、
      知らないコマンドか読めない行で止まった）
    3 未決着（quit、またはスクリプトが先に終わった）
    4 遊べなかった（コンテンツにエラー、または出力先が途中で閉じた）"""
    from compiler.names import did_you_mean
    from terminal.play import play

    tables, _ = fresh_tables(content, EXIT_UNPLAYED, analysis=False)  # no warnings shown
    enemies = named_ids("敵", enemies, tables.enemies)
    with_pages = named_ids("ページ", with_pages, tables.pages)
    cap = tables.balance.hand_cap
    if len(with_pages) > cap:  # the hand keeps its cap: the pages past it went back, unsaid
        raise click.UsageError(f"--with で{W.region.hand}に入れられるのは{W.variable.hand_cap}の {cap} 枚までです"
                               f"（{len(with_pages)} 枚指定）")
    pages = _deck_from_file(deck, content) if deck else None
    if pages is not None:
        known("ページ", pages, tables.pages)
    order = list(enemies) or sorted(tables.enemies)
    if stages is not None and stages < len(enemies):  # the enemies past it never fought, unsaid
        raise click.UsageError(f"--enemy で {len(enemies)} 体を指定しましたが、--stage {stages} では"
                               f"はじめの {stages} 体としか戦いません（--stage {len(enemies)} 以上に"
                               "するか、--stage を省いてください）")
    count = stages or max(1, len(enemies))
    stage_list = [order[i % len(order)] for i in range(count)]
    from_stdin = script == Path("-")  # --script -: the lines come from standard input
    script = None if from_stdin else script
    interactive = script is None and not from_stdin and sys.stdin.isatty() and sys.stdout.isatty() and not as_json
    lines = None if interactive else script_lines(script)
    keyboard = None
    if interactive:
        from terminal.complete import candidates
        from terminal.prompt import Keyboard

        keyboard = Keyboard("battle", candidates)
    sys.exit(play(tables, seed=seed, enemies=stage_list, deck=pages, with_pages=with_pages,
                  lines=lines, as_json=as_json, keyboard=keyboard, ascii=ascii_, yes=yes,
                  hint=did_you_mean, force=force))
