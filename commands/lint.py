"""Reading the content: ``lint`` (check it), ``fmt`` (lay it out), ``explain`` (a
diagnostic code) and ``vocab`` (the words it is written in)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from commands.checked import check_named, content_folder, print_diagnostics, say_blocked, say_unanalysed
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, EXIT_CONTENT, EXIT_OK, NamedPath, use_color


def nothing_read(paths) -> str:
    """What lint and fmt say of named folders that hold no content file: having read
    nothing, they do not say all is well (exit 1)."""
    from contract.kinds import CONTENT_SUFFIXES

    named = "、".join(str(p) for p in paths)
    return (f"{named} にコンテンツのファイル（名前が {'、'.join(CONTENT_SUFFIXES)} で終わるもの）"
            "がありません。何も検査していません")


#: lint's and fmt's folder: where names resolve, and what is read when no PATHS are named.
content_option = click.option(
    "--content", type=CONTENT_FOLDER, default=None,
    help="名前を解決するコンテンツのフォルダ。パスを省くとこのフォルダ全体（既定: content/）。")


@click.command()
@click.argument("paths", nargs=-1, type=NamedPath(), metavar="[パス]...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: エディタや CI が読む形で診断を出します。")
@content_option
def lint(paths: tuple[Path, ...], fmt: str, content: Path | None) -> None:
    """コンテンツを検査し、問題をすべて報告します。

    パス（ファイルかフォルダ）を省くと content/ を検査します。例（例 { … }）も実行します。
    バランスのファイルがあるフォルダ（content/ の写しなど）を 1 つだけ指定すると、
    そのフォルダをコンテンツのフォルダとして検査します（--content を書いたのと同じ）。

    終了コード:
    0 エラーなし（警告はあってもよい）
    1 エラーあり・指定したフォルダにコンテンツのファイルがない
    2 使い方の誤り"""
    from dsl.diagnostics import to_json

    result = check_named(paths, content, "リントするファイルかフォルダ", whole_result=True)
    if fmt == "json":
        click.echo(to_json(result.diagnostics))
    else:
        print_diagnostics(result.diagnostics, result.sources, result.files)
        say_blocked(result)
        say_unanalysed(result)
    if paths and not result.files and not result.errors:
        click.echo(nothing_read(paths), err=True)
        sys.exit(EXIT_CONTENT)
    sys.exit(EXIT_CONTENT if result.errors else EXIT_OK)


def _fence(path: Path, content: Path) -> Path:
    """The folder ``fmt`` may write ``path`` inside: the content folder for a file named
    in it (a linked folder there must not lead a rewrite out of it, as lint and fmt of
    the whole folder refuse to read it), else the file's own folder (a file named
    elsewhere was named as itself)."""
    here, folder = os.path.abspath(path), os.path.abspath(content)
    return content if here.startswith(folder + os.sep) else path.parent


@click.command("fmt")
@click.argument("paths", nargs=-1, type=NamedPath(), metavar="[パス]...")
@click.option("--check", is_flag=True,
              help="何も書き換えず、整形されていないファイルがあれば名前を挙げて終了コード 1。")
@click.option("--diff", "show_diff", is_flag=True,
              help="変わる所を表示します（--check と同じく、何も書き換えません）。")
@click.option("--keep-aliases", is_flag=True,
              help="ASCII で書いたキーワードの別名を書いたままにします。")
@content_option
def fmt_cmd(paths: tuple[Path, ...], check: bool, show_diff: bool, keep_aliases: bool,
            content: Path | None) -> None:
    """コンテンツを決まった書き方に整形します。

    パス（ファイルかフォルダ）を省くと content/ を整形します。バランスのファイルがある
    フォルダ（content/ の写しなど）を 1 つだけ指定すると、そのフォルダを丸ごと整形します。
    lint でエラーのないファイルだけを整え、エラーのあるファイルは報告して書き換えません。

    終了コード:
    0 整えた（--check: すべて整形済み）
    1 エラーのあるファイルがある・（--check）整形されていないファイルがある・
      指定したフォルダにコンテンツのファイルがない
    2 使い方の誤り"""
    import difflib

    from compiler.read import MAX_FILE_BYTES, discover, display_path, prepare, read
    from contract import disk
    from dsl.diagnostics import render
    from dsl.formatter import FormatterBug, as_written, format_text

    problems: list = []
    content = content_folder(paths, content)  # a copy of content/ named alone: its own fence
    linted = check_named(paths, content, "整形するファイルかフォルダ", whole_result=True)
    files = discover(list(paths) or [content or DEFAULT_CONTENT], problems)
    changed, failed = [], bool(problems)
    check = check or show_diff  # a diff is a preview: asked for, nothing is rewritten
    for diag in sorted(problems, key=lambda d: (d.span.path, d.span.line, d.span.col)):
        click.echo(render(diag, {}), err=True)
        click.echo(err=True)
    color = use_color(sys.stderr)
    for path in files:
        shown = display_path(path)
        errors = [d for d in linted.diagnostics if d.is_error and d.span.path == shown]
        if errors:
            for diag in errors:
                click.echo(render(diag, linted.sources, color=color), err=True)
            click.echo(f"{shown}: エラーがあるので整形しませんでした", err=True)
            failed = True
            continue
        text, diags = read(path, shown)
        try:
            result = format_text(text, shown, keep_aliases) if text is not None and not diags else None
        except FormatterBug as exc:
            click.echo(f"{shown}: 整形できませんでした（jibunki のバグです: {exc}）", err=True)
            failed = True
            continue
        if result is None or not result.ok:
            for diag in diags or result.diagnostics:
                click.echo(render(diag, {shown: text or ""}, color=color), err=True)
            failed = True
            continue
        try:
            written = disk.read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
            if prepare(written, shown)[0] != text:  # saved while it was being laid out
                click.echo(f"{shown}: 整形しているあいだに保存されたので、書き換えませんでした。"
                           "もう一度実行してください", err=True)
                failed = True
                continue
            formatted = as_written(result.text, written)
            if formatted == written:
                continue
            changed.append(shown)
            if not check:
                # Only the file itself, replaced whole; never a link, a device or a FIFO,
                # nor a file of the content folder that a linked folder leads out of it.
                disk.write(path, formatted, inside=_fence(path, content or DEFAULT_CONTENT),
                           replace=True)
        except (OSError, UnicodeDecodeError) as exc:
            why = disk.reason(exc) if isinstance(exc, OSError) else "UTF-8 ではなくなりました"
            click.echo(f"{shown}: 書き換えられません: {why}", err=True)
            failed = True
            continue
        if check:
            click.echo(f"{shown}: 整形されていません")
            if show_diff:
                click.echo("".join(difflib.unified_diff(
                    written.splitlines(True), formatted.splitlines(True), shown, shown)), nl=False)
        else:
            click.echo(f"{shown}: 整形しました")
    if not files and not failed:
        click.echo(nothing_read(list(paths) or [content or DEFAULT_CONTENT]), err=True)
        sys.exit(EXIT_CONTENT)
    if not changed and not failed:
        click.echo(f"{len(files)} 個のファイルはすべて整形済みです")
    sys.exit(EXIT_CONTENT if failed or (check and changed) else EXIT_OK)


@click.command()
@click.argument("term", required=False, metavar="[語]")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: 機械が読む形で出します。")
def vocab(term: str | None, fmt: str) -> None:
    """語彙（変数、累計量、タイミング、特性、キーワード …）を表示します。

    累計量はスコープごとに ●/○/× で示します。語を指定するとその語だけを、日本語でも
    ASCII の綴りでも探します（全角の英字も大文字も、ページから写したスコープ添字
    付きの「使用した歩[ターン]」も見つかります）。見出しにない語は、説明にその語を
    使う語を示します（合算 → 山札+捨て札 …）。

    終了コード:
    0 表示した
    2 ない語か使い方の誤り"""
    import json

    from contract import reference

    rows = reference.entries() if term is None else reference.find(term)
    said = ""
    if not rows:
        rows = reference.mentions(term)
        if not rows:
            from compiler.names import did_you_mean

            hint = did_you_mean(term, reference.spellings())
            raise click.UsageError(f"「{term}」という語は語彙にありません。{hint}".rstrip())
        said = f"「{term}」は語彙の見出しにはありません。説明に「{term}」を使う語:"
    if fmt == "json":
        click.echo(json.dumps([row.as_json() for row in rows], ensure_ascii=False, indent=2))
    else:
        if said:
            click.echo(said)
        click.echo(reference.render(rows))


@click.command()
@click.argument("code", metavar="コード")
def explain(code: str) -> None:
    """診断コード（E020、W001 …）を悪い例と良い例で説明します。

    終了コード:
    0 説明した
    2 ないコードか使い方の誤り"""
    from compiler.codes import CODES, codes_meant, explanation
    from contract.linebreak import shown_name

    text = explanation(code)
    meant = codes_meant(code) if text is None else []
    if len(meant) == 1:  # written loosely (e20, Ｅ０２０): the heading names the code shown
        text = explanation(meant[0])
    if text is None:
        if meant:
            raise click.UsageError(f"{code} は {' と '.join(meant)} のどちらですか。"
                                   f"jibunki explain {meant[0]} のように書いてください")
        known = ", ".join(sorted(CODES))
        # bytes of the command line that are not UTF-8 arrive as surrogates, and an escape
        # or a bidi control would reach the terminal: each shown as "�"
        shown = shown_name(code.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
        raise click.UsageError(f"「{shown}」という診断コードはありません。あるのは: {known}")
    click.echo(text.rstrip())
