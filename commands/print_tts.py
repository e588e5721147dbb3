"""``print --tts DIR``: the printed cards as Tabletop Simulator decks as well
(printing.faces.write_tts), and what was written said in Japanese."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from commands.common import EXIT_CONTENT, why


def print_tts(folder: Path, cards: list, options, name: str = "jibunki") -> None:
    """Write the TTS decks of ``cards`` (rendered with ``options``) into ``folder`` as
    ``<name>-<kind>…`` and say what was written; a place or cards that cannot make a deck
    is a Japanese ClickException (a card whose words do not fit: exit EXIT_CONTENT)."""
    from printing.faces import write_tts
    from printing.sheets import CardOverflow
    from printing.tts import DeckError

    try:
        written = write_tts(folder, cards, options, name)
    except DeckError as exc:  # each says itself what could not be written and why
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"{folder} に TTS のデッキを書けません: {why(exc)}") from None
    except CardOverflow as exc:
        for line in str(exc).splitlines():  # every card that cannot fit, one line each
            click.echo(f"エラー: {line}", err=True)
        click.echo("TTS のデッキを書きませんでした。", err=True)
        sys.exit(EXIT_CONTENT)
    click.echo(f"TTS のデッキ: {folder}（{len(written.decks)} 組、札 {written.cards} 枚、"
               f"画像シート {written.sheets} 枚）")
    for kind, count, deck in written.decks:
        grids = "、".join(f"{s.columns}×{s.rows}" for s in deck.sheets)
        click.echo(f"  {deck.saved_object}: {count} 枚（シート {grids}）")
    click.echo("Tabletop Simulator では、この .json を「Saves/Saved Objects」フォルダにコピーし、"
               "「Objects → Saved Objects」から置いてください。画像はこのフォルダから読まれます"
               "（動かさないでください）。")
