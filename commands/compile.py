"""Making the tables and the catalog: ``compile``, ``catalog``, and ``build`` (both at
once, after the checks and the examples)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import click

from commands.checked import check_content, compiled_content, fresh_tables, print_diagnostics
from commands.common import (CONTENT_FOLDER, DEFAULT_CONTENT, DEFAULT_GENERATED, EXIT_CONTENT, OutFolder, why,
                             write_files)


@click.command("compile")
@click.option("--check", is_flag=True,
              help="メモリ上でコンパイルして比べるだけで、何も書きません。generated/ と schemas/ "
                   "に古いファイルがあれば名前を挙げて終了コード 1。")
@click.option("--format", "fmt", type=click.Choice(["py", "json"]), default="py",
              show_default=True, help="json: 同じ表をゲームクライアント向けに JSON で書きます。")
@click.option("--out", type=OutFolder(), default=None,
              help="書き出すフォルダ（既定: generated/、json なら generated/json）。")
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def compile_cmd(check: bool, fmt: str, out: Path | None, content: Path) -> None:
    """コンテンツを実行時の表（generated/*.py）にコンパイルします。

    表は schemas/ のスキーマで検証してから書きます。schemas/ も contract/ に合わせて
    書き直します。

    終了コード:
    0 書けた（--check: generated/ がコンテンツと一致）
    1 コンテンツのエラー・書けなかった・（--check）古いファイルがある
    2 使い方の誤り"""
    from compiler.build import stale_files, stale_schemas, write_schemas

    if check and fmt != "py":
        raise click.UsageError("--check は Python の表（--format py）だけを比べます")
    out = out or (DEFAULT_GENERATED if fmt == "py" else DEFAULT_GENERATED / "json")
    compiled = compiled_content(content, fmt, refusal=(
        "エラーがあるので generated/ と比べられませんでした。" if check
        else "エラーがあるので表を書きませんでした。"))
    if check:
        # Every stale file is named (tables and schemas alike) before the one exit.
        stale = [out / name for name in stale_files(out, compiled.file_bytes)]
        stale += [Path("schemas") / name for name in stale_schemas()]
        said = [_why_stale(path) for path in stale]
        for words, path in zip(said, stale):
            click.echo(f"{words}: {path}")
        if stale:
            click.echo(f"{len(stale)} 個のファイルがコンテンツ（表）か contract/（スキーマ）と"
                       "合わないか、ありません。jibunki compile で作り直してください。")
            if NOT_A_FILE in said:
                click.echo("通常のファイルでないもの（フォルダ・リンクなど）は jibunki compile も"
                           "書き換えません。消すか名前を変えてから作り直してください。")
            sys.exit(EXIT_CONTENT)
        click.echo(f"{out}/ はコンテンツと一致しています（{len(compiled.file_bytes)} ファイル）。")
        return
    changed = write_files(out, compiled.file_bytes)
    for name in changed:
        click.echo(f"書きました: {out / name}")
    try:
        for name in write_schemas():
            click.echo(f"書きました: schemas/{name}")
    except OSError:
        pass  # an installed copy's schemas/ is not ours to write; --check still compares
    click.echo(f"{out}/: {len(compiled.file_bytes)} ファイル、うち {len(changed)} 個を更新しました。")


#: What ``--check`` says of a file that is no regular file (a folder, a link, a FIFO):
#: ``jibunki compile`` refuses to write over it (contract.disk.check_target).
NOT_A_FILE = "ファイルではありません"


def _why_stale(path: Path) -> str:
    """What is wrong with a table's or schema's file, in the words ``--check`` lists it by:
    only a readable regular file that differs is old (a fresh clone before its first
    compile has none; a folder, a link or an unreadable file in its place is no old table)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "ありません"
    except OSError:
        return "読めません"
    if not stat.S_ISREG(mode):
        return NOT_A_FILE
    try:
        with path.open("rb"):
            pass
    except OSError:
        return "読めません"
    return "古い"


@click.command()
@click.option("--out", type=OutFolder(),
              default=DEFAULT_GENERATED / "catalog", show_default=True,
              help="書き出すフォルダ。")
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def catalog(out: Path, content: Path) -> None:
    """すべてのページと敵の HTML カタログを作ります。

    サーバーはいりません: 書き出した index.html をブラウザで開きます。

    終了コード:
    0 作った
    1 コンテンツのエラーか書けなかった
    2 使い方の誤り"""
    # before fresh_tables, which may rewrite generated/: a place refused writes nothing
    from commands.outputs import inside_content

    inside = inside_content(out, content)
    if inside is not None:
        raise click.ClickException(inside)
    _check_catalog_place(out, fixed=False)
    tables, compiled = fresh_tables(content)
    try:
        index = write_catalog(tables, compiled, out)
    except OSError as exc:
        raise click.ClickException(f"{out} にカタログを書けません: {why(exc)}{_kept(out)}") \
            from None
    _say_catalog(index)


def _check_catalog_place(out: Path, fixed: bool = True) -> None:
    """Refuse, before the tables are written, a catalog folder the catalog cannot be
    written into (``fixed``: build's, which has no --out — the way out is to move what
    stands there; else catalog's --out)."""
    from catalog.render import check_place
    from commands.outputs import refuse_other_kind

    refused = refuse_other_kind(out, "catalog", fixed=fixed)
    try:
        if refused is None:
            check_place(out)
    except OSError as exc:
        refused = f"{out} にカタログを書けません: {why(exc)}"
    if refused is not None:
        raise click.ClickException(f"{refused}（表もカタログも書いていません）")


def _kept(out: Path) -> str:
    """What a failed write of the catalog left: its files are written as one set, so an
    earlier catalog there is whole."""
    return "（前のカタログはそのままです）" if (out / "index.html").is_file() else ""


def write_catalog(tables, compiled, out: Path) -> Path:
    """The catalog into ``out``, its pages linked to what lies beside it: the simulation
    report (``jibunki sim --html``: generated/sim) and the last print (``jibunki print``:
    generated/print/自分紀.pdf, each card to its page). Errors are OSError."""
    from catalog.render import example_views, write
    from commands.outputs import neighbour, refuse_other_kind
    from commands.print_pdf import DEFAULT_NAME
    from printing.links import printed as printed_faces

    refused = refuse_other_kind(out, "catalog")
    if refused is not None:
        raise click.ClickException(refused)
    sim = neighbour(out, "catalog", "sim")  # only beside it in the default layout
    printed = out.parent / "print" / DEFAULT_NAME if out.name == "catalog" else None
    report = None if sim is None else _lab_report(sim)
    links, older = printed_faces(printed, out, tables) if printed is not None else ({}, frozenset())
    return write(tables, out, example_views(compiled.examples, compiled.sources, compiled.shown),
                 sim_report=None if sim is None else sim / "index.html", lab_report=report,
                 printed=links, printed_older=older,
                 lab_stale=report is not None and measured_other(report, compiled.tables))


def _say_catalog(index: Path) -> None:
    """Where the catalog and its pool table's CSV (for a spreadsheet) were written."""
    from catalog.render import POOL_CSV

    click.echo(f"カタログ: {index.resolve().as_uri()}")
    click.echo(f"一覧の CSV: {(index.parent / POOL_CSV).resolve().as_uri()}")


def measured_other(report: dict, literal: dict) -> bool:
    """Whether ``report`` measured other content or code than ``literal`` (the tables it
    records, ``sim.cache.content_digest``; a report that records none is of before it
    was recorded)."""
    from sim.cache import content_digest

    settings = report.get("settings")
    measured = settings.get("content") if isinstance(settings, dict) else None
    return measured != content_digest(literal)


def _lab_report(folder: Path) -> dict | None:
    """The balance lab report ``jibunki sim --html`` left in ``folder``, or None."""
    from sim.report_html import read_report

    return read_report(folder)


@click.command()
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def build(content: Path) -> None:
    """検査、コンパイル、例の実行、カタログ作りを一度に行います。

    表は generated/*.py に、カタログは generated/catalog/ に書きます（generated/ は
    いまいるフォルダのもので、--content で別のフォルダを選んでも変わりません。別の場所に
    書くときは jibunki compile --out と jibunki catalog --out を使います）。エラーがあれば
    表もカタログも作りません。

    終了コード:
    0 作った（警告はあってもよい）
    1 コンテンツのエラーか失敗した例がある・書けなかった
    2 使い方の誤り"""
    from runtime.tables import TableError, load

    result = check_content(content)
    print_diagnostics(result.diagnostics, result.sources, result.files)
    if result.examples_blocked or (result.errors and not result.examples):
        click.echo(f"例: {result.examples_wanted} 件を実行できませんでした"
                   "（コンテンツのエラーを直してください）")
    else:
        from scenario.tally import closing_line

        click.echo(f"例: {closing_line(result.examples)}")
    if result.errors:
        click.echo("エラーがあるので表とカタログを作りませんでした。", err=True)
        sys.exit(EXIT_CONTENT)
    compiled = compiled_content(content)
    _check_catalog_place(DEFAULT_GENERATED / "catalog")
    changed = write_files(DEFAULT_GENERATED, compiled.file_bytes)
    click.echo(f"表: {DEFAULT_GENERATED}/ （{len(changed)} ファイルを更新）")
    try:
        tables = load(DEFAULT_GENERATED)
    except TableError as exc:  # another writer changed generated/ meanwhile
        raise click.ClickException(str(exc)) from None
    try:
        index = write_catalog(tables, compiled, DEFAULT_GENERATED / "catalog")
    except OSError as exc:
        raise click.ClickException(f"{DEFAULT_GENERATED / 'catalog'} にカタログを書けません: "
                                   f"{why(exc)}{_kept(DEFAULT_GENERATED / 'catalog')}") from None
    _say_catalog(index)
