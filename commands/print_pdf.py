"""Print and play: ``print``, a PDF of the pages' and enemies' cards on sheets to cut."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from commands.common import (DEFAULT_CONTENT, DEFAULT_GENERATED, EXIT_CONTENT,
                             FiniteFloatRange, why)

DEFAULT_PDF = DEFAULT_GENERATED / "print" / "自分紀.pdf"


def _date(value: str | None) -> str:
    """The date stamped on the cards: ``--date``, else SOURCE_DATE_EPOCH's, else today's
    (UTC), as YYYY-MM-DD."""
    import datetime
    import os

    if value is not None:
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            raise click.BadParameter(f"{value}: 日付は YYYY-MM-DD で書いてください",
                                     param_hint="--date") from None
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            moment = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise click.UsageError(f"SOURCE_DATE_EPOCH={epoch}: 秒数（整数）ではありません") \
                from None
        return moment.date().isoformat()
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def content_digest(file_bytes: dict) -> str:
    """The compiled tables' short digest: the version stamped on every card."""
    import hashlib

    digest = hashlib.sha256()
    for name in sorted(file_bytes):
        data = file_bytes[name]
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(data.encode("utf-8") if isinstance(data, str) else data)
    return digest.hexdigest()[:8]


@click.command("print")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_PDF,
              show_default=True, help="書き出す PDF（フォルダがなければ作ります）。")
@click.option("--paper", type=click.Choice(["A4", "Letter"]), default="A4", show_default=True,
              help="用紙の大きさ（縦置き、1 枚に 3×3 枚の札）。")
@click.option("--crop-mark", "crop", type=FiniteFloatRange(0, 20), default=5.0, metavar="MM",
              show_default=True, help="トンボ（裁ち線の印）の長さ（mm、余白に入るだけ）。")
@click.option("--no-backs", is_flag=True,
              help="裏面のページを入れません（既定では表の各シートの次に、長辺とじの両面印刷で"
                   "表と重なるよう左右を反転した裏面のシートが入ります）。")
@click.option("--date", "date", default=None, metavar="YYYY-MM-DD",
              help="札に刷る日付（既定: 環境変数 SOURCE_DATE_EPOCH の日付、なければ今日）。")
@click.option("--tts", "tts", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR",
              help="PDF に加えて、同じ札を Tabletop Simulator のデッキとしてこのフォルダに書きます"
                   "（なければ作ります）。札の種類ごとに、表の画像シート（1 枚に 10×7 まで）、"
                   "裏の画像と、デッキとして読み込む保存オブジェクトの JSON。")
def print_cmd(content: Path, out: Path, paper: str, crop: float, no_backs: bool,
              date: str | None, tts: Path | None) -> None:
    """ページと敵の札を、切って遊べる印刷用の PDF にします。

    札はポーカーサイズ（63×88 mm）で、塗り足し 3 mm とトンボ付き。文はカタログと同じで、
    収まらなければ文字を小さくします。どの札にもコンテンツの版（表のハッシュ）と日付が
    入ります。"""
    from contract import disk
    from printing.page_cards import enemy_cards, page_cards
    from printing.sheets import CardOverflow, PrintOptions, render_pdf, sheet_count
    from runtime.tables import from_dicts

    day = _date(date)
    try:  # a place that cannot take the PDF is said before the long rendering, not after
        out.parent.mkdir(parents=True, exist_ok=True)
        disk.check_target(out)
    except OSError as exc:
        raise click.ClickException(f"{out} に PDF を書けません: {why(exc)}") from None
    compiled = _compiled(content)
    tables = from_dicts(compiled.tables)
    cards = page_cards(tables) + enemy_cards(tables)
    options = PrintOptions(paper=paper, crop=crop, backs=not no_backs,
                           version=content_digest(compiled.file_bytes), date=day)
    try:
        pdf = render_pdf(cards, options)
    except CardOverflow as exc:
        click.echo(f"エラー: {exc}", err=True)
        click.echo("PDF を書きませんでした。", err=True)
        sys.exit(EXIT_CONTENT)
    try:
        disk.write(out, pdf, inside=out.parent, replace=True)
    except OSError as exc:
        raise click.ClickException(f"{out} に PDF を書けません: {why(exc)}") from None
    sheets = sheet_count(len(cards), options)
    click.echo(f"印刷用 PDF: {out}")
    click.echo(f"札 {len(cards)} 枚（ページ {len(tables.pages)}、敵 {len(tables.enemies)}）、"
               f"{paper} {sheets} ページ" + ("（表と裏）" if options.backs else "（表のみ）")
               + f"、版 {options.version}、日付 {day}。")
    if tts is not None:
        from commands.print_tts import print_tts

        print_tts(tts, cards, options)


def _compiled(content: Path):
    from commands.checked import compiled_content

    return compiled_content(content, refusal="コンテンツにエラーがあるので PDF を書きませんでした。")
