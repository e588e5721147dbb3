"""jibunki — the command line of the content pipeline (自分紀).

Heavy modules (lark, the compiler) are imported inside the commands, so that
``jibunki --help`` starts fast.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import click

from runtime.bounds import BOUNDS
from terminal import click_ja

# click's own messages and help layout in Japanese, before any option is declared (an
# option's default help text is taken when it is declared).
click_ja.install()

#: Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage errors (click's own).
EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2
DEFAULT_CONTENT = Path("content")
DEFAULT_GENERATED = Path("generated")


#: A battle script is a few hundred commands; far more is not a script (/dev/zero …).
MAX_SCRIPT_BYTES = 1024 * 1024
#: The seeds a battle can be saved with (runtime/bounds.py, a table of plain numbers:
#: nothing heavy is imported for it).
SEED_RANGE = BOUNDS["seed"]


class FiniteFloatRange(click.FloatRange):
    """The type of every float option: a number within the range, never nan or ±inf
    (FloatRange alone lets nan through: each comparison with nan is false)."""

    def convert(self, value, param, ctx):
        """The number typed, or a usage error (exit 2) for nan, ±inf or one out of range."""
        import math

        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value}: 有限の数を書いてください（nan や ±inf は使えません）", param, ctx)
        return super().convert(number, param, ctx)


def _use_color(stream) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _write(out: Path, files: dict[str, str | bytes], what: str = "表") -> list[str]:
    """Write through write_atomically; a folder that cannot be written (not a folder, no
    permission, a full disk) is a one-line message and exit 1 — the old files stay whole."""
    from compiler.build import write_atomically

    try:
        return write_atomically(out, files)
    except OSError as exc:
        raise click.ClickException(f"{out} に{what}を書けません: {_why(exc)}（前の{what}はそのままです）") \
            from None


def _why(exc: OSError) -> str:
    """Why a file could not be written or read, in Japanese: the file and the reason for a
    refusal of contract.disk, the reason alone for any other OSError."""
    from contract.disk import DiskError, reason

    return str(exc) if isinstance(exc, DiskError) else reason(exc)


def _script_lines(path: Path | None) -> list[str]:
    """The lines of a battle script (a file, or standard input when ``path`` is None):
    UTF-8 text of at most MAX_SCRIPT_BYTES, else a usage error."""
    where = str(path) if path is not None else "標準入力"
    try:
        if path is not None:
            # A device or a pipe may be a script too (/dev/null); only its size is bounded.
            with open(path, "rb") as handle:
                data = handle.read(MAX_SCRIPT_BYTES + 1)
        else:
            data = sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        raise click.BadParameter(f"{where} を読めません: {_why(exc)}",
                                 param_hint="--script") from None
    if len(data) > MAX_SCRIPT_BYTES:
        raise click.BadParameter(f"{where} は大きすぎます（{MAX_SCRIPT_BYTES // 1024} KiB まで）",
                                 param_hint="--script")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise click.BadParameter(f"{where}:{line}: UTF-8 として読めないバイト "
                                 f"0x{data[exc.start]:02x} があります", param_hint="--script") \
            from None
    return text.splitlines(keepends=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="jibunki", message="jibunki %(version)s",
                      help="バージョンを表示して終わります。")
def main() -> None:
    """自分紀 (jibunki): 一生のページと敵を検査し、コンパイルし、遊んで確かめます。

    コマンドごとの使い方は jibunki コマンド --help で見られます。"""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: エディタや CI が読む形で診断を出します。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="名前を解決するコンテンツのフォルダ（既定: content/）。")
def lint(paths: tuple[Path, ...], fmt: str, content: Path | None) -> None:
    """コンテンツを検査し、問題をすべて報告します。

    PATHS（ファイルかフォルダ）を省くと content/ を検査します。例（例 { … }）も実行します。
    終了コード: 0 エラーなし（警告はあってもよい）、1 エラーあり、2 使い方の誤り。"""
    from dsl.diagnostics import to_json

    result = _check_named(paths, content, "リントするファイルかフォルダ", whole_result=True)
    if fmt == "json":
        click.echo(to_json(result.diagnostics))
    else:
        _print_diagnostics(result.diagnostics, result.sources, result.files)
        _say_blocked(result)
    sys.exit(EXIT_CONTENT if result.errors else EXIT_OK)


def _check_named(paths, content: Path | None, what: str, whole_result: bool = False):
    """Check the named paths (none: the content folder) and play their examples. Names in them resolve against the whole content folder (``--content``,
    default content/) wherever the named files are: a scenario or deck kept outside sees
    the bundled pages. Checking the content folder itself is checking the project: it
    must hold what compile needs (the balance, the starting deck). ``whole_result``: the
    findings may come from the lint cache (scenario.lintcache), with no tables or events."""
    folder = content or DEFAULT_CONTENT
    named = list(paths) or [folder]
    if not paths and not folder.is_dir():
        raise click.UsageError(f"{folder}/ がありません。{what}を指定してください")
    if folder.is_dir() and [p.resolve() for p in named] == [folder.resolve()]:
        return _content(folder, whole_result)
    return _lint(named, [folder] if folder.is_dir() else [], None, whole_result)


def _content(folder: Path, whole_result: bool = False):
    """The whole content folder checked and every example of it played: what ``lint`` and
    ``test`` with no argument, ``build`` and ``watch`` all report (one way of naming it,
    so they share their caches)."""
    return _lint([folder], [], folder, whole_result)


def _lint(named, context, project, whole_result: bool = False):
    """The compiler's checks and the examples played (scenario.stage; ``whole_result``:
    or their findings from the lint cache); a table the contract rejects (a compiler bug)
    is a message and exit 1, never a traceback."""
    if whole_result:
        from scenario.lintcache import lint as cached_lint

        return _rejecting_violations(lambda: cached_lint(named, context, project))
    from scenario.stage import lint

    return _rejecting_violations(lambda: lint(named, context, project=project, cache=True))


def _rejecting_violations(run):
    try:
        return run()
    except Exception as exc:
        # compiler.validate is imported only here: a lint from the cache never loads it.
        from compiler.validate import SchemaViolation  # not compiler.build: lint writes nothing

        if isinstance(exc, SchemaViolation):
            _say_violation(exc)
        raise


def _say_blocked(result) -> None:
    """Examples that could not run are said to have not run, never counted as passing."""
    if result.examples_blocked:
        click.echo(f"例 {result.examples_wanted} 件は実行できませんでした: コンテンツに"
                   f"エラーが {len(result.examples_blocked)} 件あります"
                   f"（{_places(result.examples_blocked)}）。", err=True)


def _places(diags) -> str:
    return "、".join(dict.fromkeys(f"{d.span.path}:{d.span.line}" for d in diags[:5])) + (
        " ほか" if len(diags) > 5 else "")


def _print_diagnostics(diags, sources, files: int) -> None:
    from dsl.diagnostics import render, summary

    color = _use_color(sys.stdout)
    for diag in diags:
        click.echo(render(diag, sources, color=color))
        click.echo()
    click.echo(summary(diags, files))


def _compiled(content: Path, fmt: str = "py", refusal: str = "エラーがあるので表を書きませんでした。"):
    """Compile in memory; on content errors print them and exit 1, on a schema
    violation (a compiler bug) say so and exit 1. Nothing is written here."""
    from compiler.build import SchemaViolation
    from scenario.stage import compile_content

    try:
        compiled = compile_content(content, fmt)
    except SchemaViolation as exc:
        _say_violation(exc)
    if not compiled.ok:
        _print_diagnostics(compiled.diagnostics, compiled.sources, len(compiled.sources))
        click.echo(refusal, err=True)
        sys.exit(EXIT_CONTENT)
    return compiled


def _say_violation(exc) -> None:
    click.echo("内部エラー（jibunki のバグ）: 書き出そうとした表が schemas/ のスキーマに合いません。"
               "何も書きませんでした。", err=True)
    click.echo(str(exc), err=True)
    sys.exit(EXIT_CONTENT)


@main.command("compile")
@click.option("--check", is_flag=True,
              help="メモリ上でコンパイルして比べるだけで、何も書きません。generated/ と schemas/ "
                   "に古いファイルがあれば名前を挙げて終了コード 1。")
@click.option("--format", "fmt", type=click.Choice(["py", "json"]), default="py",
              show_default=True, help="json: 同じ表をゲームクライアント向けに JSON で書きます。")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="書き出すフォルダ（既定: generated/、json なら generated/json）。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def compile_cmd(check: bool, fmt: str, out: Path | None, content: Path) -> None:
    """コンテンツを実行時の表（generated/*.py）にコンパイルします。

    表は schemas/ のスキーマで検証してから書きます。schemas/ も contract/ に合わせて
    書き直します。"""
    from compiler.build import stale_files, stale_schemas, write_schemas

    if check and fmt != "py":
        raise click.UsageError("--check は Python の表（--format py）だけを比べます")
    out = out or (DEFAULT_GENERATED if fmt == "py" else DEFAULT_GENERATED / "json")
    compiled = _compiled(content, fmt)
    if check:
        # Every stale file is named (tables and schemas alike) before the one exit.
        stale = [out / name for name in stale_files(out, compiled.file_bytes)]
        stale += [Path("schemas") / name for name in stale_schemas()]
        for path in stale:
            click.echo(f"古い: {path}")
        if stale:
            click.echo(f"{len(stale)} 個のファイルがコンテンツ（表）か contract/（スキーマ）と"
                       "合いません。jibunki compile で作り直してください。")
            sys.exit(EXIT_CONTENT)
        click.echo(f"{out}/ はコンテンツと一致しています（{len(compiled.file_bytes)} ファイル）。")
        return
    changed = _write(out, compiled.file_bytes)
    for name in changed:
        click.echo(f"書きました: {out / name}")
    try:
        for name in write_schemas():
            click.echo(f"書きました: schemas/{name}")
    except OSError:
        pass  # an installed copy's schemas/ is not ours to write; --check still compares
    click.echo(f"{out}/: {len(compiled.file_bytes)} ファイル、うち {len(changed)} 個を更新しました。")


def _fresh_tables(content: Path):
    """Compile first when generated/ is stale, so editing a page and playing is one step.
    Another content folder (--content) is compiled in memory: generated/ stays the
    bundled content's."""
    from compiler.build import stale_files, write_atomically
    from runtime.tables import TableError, from_dicts, load

    compiled = _compiled(content, refusal="コンテンツにエラーがあるので始められません。")
    if content.resolve() != DEFAULT_CONTENT.resolve():
        return from_dicts(compiled.tables), compiled
    if stale_files(DEFAULT_GENERATED, compiled.file_bytes):
        try:
            write_atomically(DEFAULT_GENERATED, compiled.file_bytes)
        except OSError as exc:
            # A read-only checkout can still be played: the fresh tables are in memory.
            click.echo(f"{DEFAULT_GENERATED}/ を作り直せません（{_why(exc)}）。"
                       "コンパイルした表をメモリ上で使います。", err=True)
            return from_dicts(compiled.tables), compiled
        click.echo("generated/ をコンテンツに合わせて作り直しました。", err=True)
    try:
        return load(DEFAULT_GENERATED), compiled
    except TableError as exc:
        raise click.ClickException(str(exc)) from None


def _known(kind: str, wanted, known) -> None:
    from compiler.names import did_you_mean

    for item in wanted:
        if item not in known:
            hint = did_you_mean(item, known) or f"あるのは: {', '.join(sorted(known)[:12])}"
            raise click.UsageError(f"{kind}「{item}」はありません。{hint}")


def _deck_from_file(path: Path, content: Path) -> list[str]:
    """The pages of the one デッキ that ``path`` defines (--deck). A file that defines no
    deck, or more than one, is a usage error saying what it holds: the battle never falls
    back on a deck of the content folder."""
    from dsl import ast

    result = _check_named([path], content, "デッキのファイル")
    named = next(s for s in result.compilation.sources if s.report)
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
        _print_diagnostics(result.diagnostics, result.sources, result.files)
        sys.exit(EXIT_CONTENT)
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

    shown = "、".join(named(item) for item in items[:HOLDINGS_SHOWN])
    rest = len(items) - HOLDINGS_SHOWN
    return f"あるのは {shown}{f' ほか {rest} 件' if rest > 0 else ''}です"


def _battle_names(kind: str, words, table) -> list[str]:
    """Ids from what was typed: an id or a display name (terminal.lookup), else a usage
    error with a did-you-mean."""
    from compiler.names import did_you_mean
    from terminal.lookup import UnknownName, resolve

    try:
        return [resolve(kind, word, table, did_you_mean) for word in words]
    except UnknownName as exc:
        raise click.UsageError(str(exc)) from None


@main.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID|NAME",
              help="戦う敵（ID か名前）。重ねて指定すると、その順に続けて戦います。"
                   "既定: 最初の敵。")
@click.option("--stage", "stages", type=click.IntRange(1, 99), default=None,
              help="続けて戦う戦闘の数（敵は指定した敵を、なければすべての敵を順に回ります）。")
@click.option("--deck", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="このファイルのデッキ（1 つだけ書いたもの）で戦います。既定: はじめのデッキ。")
@click.option("--with", "with_pages", multiple=True, metavar="PAGE",
              help="このページ（ID か名前）を初めから手に持って始めます（重ねて指定できます）。")
@click.option("--seed", type=click.IntRange(*SEED_RANGE), default=0, show_default=True,
              help="乱数のシード（同じシードなら同じ戦闘になります）。")
@click.option("--script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="このファイルのコマンド（1 行に 1 つ、UTF-8）を流し、経過を表示します。")
@click.option("--json", "as_json", is_flag=True, help="イベントの流れを JSON Lines で出します。")
@click.option("--ascii", "ascii_", is_flag=True,
              help="画面の記号のうち幅があいまいなものを ASCII で表示します。")
@click.option("--yes", "-y", is_flag=True,
              help="キーボードで遊ぶとき、ペンと破りを確かめずに実行します（予告は表示します）。")
@click.option("--force", is_flag=True,
              help="save と record で既存のファイルを上書きします（既定: スクリプトは止まり、"
                   "キーボードでは確かめます）。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def battle(enemies, stages, deck, with_pages, seed, script, as_json, ascii_, yes, force,
           content) -> None:
    """ターミナルで戦闘を遊び、ページを試します。

    キーボードで遊ぶほか、--script のコマンドを流すこともできます。save と record は
    作業フォルダの中の通常のファイルにだけ書きます。

    \b
    終了コード: 0 勝利、1 敗北、2 使い方の誤り（またはスクリプトが
    書けない save・record で止まった）、3 未決着（quit、または
    スクリプトが先に終わった）。
    """
    from compiler.names import did_you_mean
    from terminal.play import play

    tables, _ = _fresh_tables(content)
    enemies = _battle_names("敵", enemies, tables.enemies)
    with_pages = _battle_names("ページ", with_pages, tables.pages)
    pages = _deck_from_file(deck, content) if deck else None
    if pages is not None:
        _known("ページ", pages, tables.pages)
    order = list(enemies) or sorted(tables.enemies)
    count = stages or max(1, len(enemies))
    stage_list = [order[i % len(order)] for i in range(count)]
    interactive = script is None and sys.stdin.isatty() and sys.stdout.isatty() and not as_json
    lines = None if interactive else _script_lines(script)
    keyboard = None
    if interactive:
        from terminal.complete import candidates
        from terminal.prompt import Keyboard

        keyboard = Keyboard("battle", candidates)
    sys.exit(play(tables, seed=seed, enemies=stage_list, deck=pages, with_pages=with_pages,
                  lines=lines, as_json=as_json, keyboard=keyboard, ascii=ascii_, yes=yes,
                  hint=did_you_mean, force=force))


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
                     type=click.Path(file_okay=False, path_type=Path),
                     help=f"グラフ付きの報告も書きます（フォルダを省くと {html_folder}）。"),
    )

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command
    return decorate


def _lab_workers(workers: int | None, backend: str, address: str | None) -> int | None:
    """The workers a lab command runs on (``lab_options``): as given; none given, every
    core here, or (ray) every CPU of the cluster. --address goes with --backend ray."""
    if address is not None and backend != "ray":
        raise click.UsageError("--address は --backend ray と一緒に指定します")
    if workers is not None or backend == "ray":
        return workers
    from sim.backends import default_workers

    return default_workers()


def _show_report(report: dict, fmt: str, print_text) -> None:
    """A lab's report on stdout: its JSON (--format json) or its text (``print_text``)."""
    if fmt == "json":
        import json

        click.echo(json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1))
    else:
        print_text(report)


@main.group(invoke_without_command=True)
@click.option("--setup", default=None, metavar="ID|NAME",
              help="遊ぶ旅の準備（既定: 草案。ほかに 高難易度、問題点 …）。")
@click.option("--items", default=None, metavar="A,B",
              help="持っていくアイテム（コンマ区切り。既定: 旅の準備の 携帯）。")
@click.option("--seed", type=int, default=0, show_default=True,
              help="乱数のシード（同じシードなら同じ配りになります）。")
@click.option("--script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="このファイルの行動（1 行に 1 つ、UTF-8）を流し、経過を表示します。")
@click.option("--events", "as_events", is_flag=True,
              help="イベントの流れを JSON Lines で出します。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
@click.pass_context
def journey(ctx, setup, items, seed, script, as_events, content) -> None:
    """ドラフト 17「明日、旅に出ます」をターミナルで遊びます。

    spec 004 のゲームです。キーボードで遊ぶほか、--script の行動を流すこともできます。
    下の report コマンドで測ります。

    \b
    終了コード: 0 クリア、1 敗北、2 使い方の誤り、3 未決着
    （quit、またはスクリプトが先に終わった）。
    """
    if ctx.invoked_subcommand is not None:
        return  # jibunki journey report: the subcommand has options of its own
    from compiler.lint import check
    from journey import JourneyError, load_rules
    from journey.screen.terminal import play

    # The content is checked in memory (a folder of journey files alone will do: the
    # battle's balance and starting deck are not needed to play the journey).
    result = _rejecting_violations(lambda: check([content]))
    if result.errors:
        _print_diagnostics(result.diagnostics, result.sources, result.files)
        click.echo("コンテンツにエラーがあるので始められません。", err=True)
        sys.exit(EXIT_CONTENT)
    table = result.model.journey
    try:
        rules = load_rules(setup, table)
    except JourneyError as exc:
        raise click.BadParameter(str(exc), param_hint="--setup") from None
    chosen = None if items is None else [i.strip() for i in items.replace("、", ",").split(",")
                                         if i.strip()]
    interactive = script is None and sys.stdin.isatty() and sys.stdout.isatty() and not as_events
    lines = None if interactive else _script_lines(script)
    keyboard = None
    if interactive:
        from journey.screen.complete import candidates
        from terminal.prompt import Keyboard

        keyboard = Keyboard("journey", lambda game, text: candidates(game.state, text))
    try:
        status = play(rules, seed=seed, items=chosen, lines=lines, as_events=as_events,
                      keyboard=keyboard)
    except JourneyError as exc:
        raise click.BadParameter(str(exc), param_hint="--items") from None
    sys.exit(status)


def _budgets(ctx, param, value: str) -> tuple[int, ...]:
    """--budget 1,4,16: samples per decision, each 1..256, increasing."""
    try:
        budgets = tuple(int(part) for part in value.replace("、", ",").split(",") if part.strip())
    except ValueError:
        raise click.BadParameter(f"{value!r}: 整数をコンマで並べてください（例: 1,4,16）") from None
    if not budgets or any(not 1 <= b <= 256 for b in budgets) or list(budgets) != sorted(set(budgets)):
        raise click.BadParameter(f"{value!r}: 1〜256 の整数を重ねずに小さい順に並べてください（例: 1,4,16）")
    return budgets


@journey.command("report")
@click.option("--seeds", type=click.IntRange(1, 100_000), default=8, show_default=True,
              help="変種ごとの配りの数（どの変種も同じシードで配ります）。")
@click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True,
              help="最初のシード。")
@click.option("--budget", "budgets", default="1,4", show_default=True, callback=_budgets,
              metavar="N,N,…", help="プレイヤーの予算: 判断ごとに試す山の順の数（小さい順に）。")
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=3000, show_default=True,
              help="ソルバーの予算: 配りごとに探す局面の数。")
@click.option("--pairs/--no-pairs", default=True, show_default=True,
              help="ドラフトのアイテムの組もすべて試します。")
@lab_options("配り", "generated/journey")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def journey_report(seeds, seed, budgets, nodes, pairs, workers, backend, address, fmt, html,
                   content) -> None:
    """ドラフト 17 とその変種を測ります。

    勝てる配りの割合（ソルバーが山の順を知って）、プレイヤーの予算ごとの勝率（山を
    見ずに）、判断の数、判断ごとの選択肢と迷う選択肢、ターン数とスコアを数えます。
    手札の枚数、アイテムの組、高難易度と問題点を変えて比べます。"""
    from sim.backends import BackendError
    from journey.lab.measure import Settings

    workers = _lab_workers(workers, backend, address)
    compiled = _compiled(content, refusal="コンテンツにエラーがあるので測れません。")
    if "journey" not in compiled.tables:
        raise click.ClickException(f"{content} に旅の表（content/journey/）がありません")
    settings = Settings(seeds=seeds, seed=seed, budgets=budgets, nodes=nodes, pairs=pairs)
    try:
        report = _run_journey(compiled.tables["journey"], settings, workers, backend, address,
                              show=fmt == "text")
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    _show_report(report, fmt, _print_journey)
    if html is not None:
        from journey.lab.html import write_report

        try:
            index = write_report(report, html)
        except OSError as exc:
            raise click.ClickException(f"{html} に報告を書けません: {_why(exc)}") from None
        click.echo(f"報告: {index.resolve().as_uri()}", err=True)


def _run_journey(literal, settings, workers, backend, address, show: bool) -> dict:
    """The journey report's run, with a progress bar on a terminal's stderr."""
    from rich.console import Console

    from journey.lab.measure import run

    console = Console(stderr=True)
    if not (show and console.is_terminal):
        return run(literal, settings, workers=workers, backend=backend, address=address)
    from sim.progress import RunBar

    with RunBar(console, unit="対局", label="旅の測定") as bar:
        return run(literal, settings, workers=workers, backend=backend, address=address,
                   progress=bar.show)


def _print_journey(report: dict) -> None:
    from rich.console import Console

    from journey.lab.text import NOTES, head_lines, load_table, outcome_table

    console = Console(no_color=not _use_color(sys.stdout), highlight=False,
                      width=None if sys.stdout.isatty() else 200)
    for line in head_lines(report):
        console.print(line, markup=False)
    console.print(outcome_table(report))
    console.print(load_table(report))
    for line in NOTES:
        console.print(line, markup=False)


@main.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=DEFAULT_GENERATED / "catalog", show_default=True,
              help="書き出すフォルダ。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def catalog(out: Path, content: Path) -> None:
    """すべてのページと敵の HTML カタログを作ります。

    サーバーはいりません: 書き出した index.html をブラウザで開きます。"""
    from catalog.render import example_views, write

    tables, compiled = _fresh_tables(content)
    try:
        # The simulation report beside the catalog (jibunki sim --html): pages link to it.
        index = write(tables, out, example_views(compiled.examples, compiled.sources),
                      sim_report=out.parent / "sim" / "index.html",
                      lab_report=_lab_report(out.parent / "sim"))
    except OSError as exc:
        raise click.ClickException(f"{out} にカタログを書けません: {_why(exc)}") from None
    _say_catalog(index)


def _say_catalog(index: Path) -> None:
    """Where the catalog and its pool table's CSV (for a spreadsheet) were written."""
    from catalog.render import POOL_CSV

    click.echo(f"カタログ: {index.resolve().as_uri()}")
    click.echo(f"一覧の CSV: {(index.parent / POOL_CSV).resolve().as_uri()}")


def _lab_report(folder: Path) -> dict | None:
    """The balance lab report ``jibunki sim --html`` left in ``folder``, or None."""
    from sim.report_html import read_report

    return read_report(folder)


@main.command()
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def build(content: Path) -> None:
    """検査、コンパイル、例の実行、カタログ作りを一度に行います。

    エラーがあれば表もカタログも作りません。"""
    from catalog.render import example_views, write
    from runtime.tables import TableError, load

    result = _content(content)
    _print_diagnostics(result.diagnostics, result.sources, result.files)
    if result.examples_blocked or (result.errors and not result.examples):
        click.echo(f"例: {result.examples_wanted} 件を実行できませんでした"
                   "（コンテンツのエラーを直してください）")
    else:
        from scenario.tally import closing_line

        click.echo(f"例: {closing_line(result.examples)}")
    if result.errors:
        click.echo("エラーがあるので表とカタログを作りませんでした。", err=True)
        sys.exit(EXIT_CONTENT)
    compiled = _compiled(content)
    changed = _write(DEFAULT_GENERATED, compiled.file_bytes)
    click.echo(f"表: {DEFAULT_GENERATED}/ （{len(changed)} ファイルを更新）")
    try:
        tables = load(DEFAULT_GENERATED)
    except TableError as exc:  # another writer changed generated/ meanwhile
        raise click.ClickException(str(exc)) from None
    try:
        index = write(tables, DEFAULT_GENERATED / "catalog",
                      example_views(compiled.examples, compiled.sources),
                      sim_report=DEFAULT_GENERATED / "sim" / "index.html",
                      lab_report=_lab_report(DEFAULT_GENERATED / "sim"))
    except OSError as exc:
        raise click.ClickException(f"{DEFAULT_GENERATED / 'catalog'} にカタログを書けません: "
                                   f"{_why(exc)}") from None
    _say_catalog(index)


@main.command("test")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="名前を解決するコンテンツのフォルダ（既定: content/）。")
def test_cmd(paths: tuple[Path, ...], content: Path | None) -> None:
    """例（例 ブロック）をテストのように実行します。

    PATHS（ファイルかフォルダ）を省くと、コンテンツのすべての例を実行します
    （content/tests/ のほか、ページや敵の下に書いたものも）。"""
    from scenario.tally import FAILED, PASSED, closing_line, nothing_to_run

    result = _check_named(paths, content, "例のあるファイルかフォルダ")
    broken = [d for d in result.diagnostics if d.is_error and d.code != "E044"]
    # Errors anywhere in the content stop the examples: show them all (context files too).
    broken += [d for d in result.examples_blocked if d not in broken]
    if broken:
        broken.sort(key=lambda d: d.sort_key())
        _print_diagnostics(broken, result.sources, len(result.sources))
        click.echo(f"コンテンツにエラーがあるのでシナリオを実行できません（例 "
                   f"{result.examples_wanted} 件は未実行）。", err=True)
        sys.exit(EXIT_CONTENT)
    if not result.examples:
        # A runner that ran nothing is not green.
        click.echo(closing_line([]))
        click.echo(nothing_to_run(list(paths) or [content or DEFAULT_CONTENT], result.files),
                   err=True)
        sys.exit(EXIT_CONTENT)
    for run in result.examples:
        where = f"{run.path}:{run.line}"
        if run.passed:
            click.echo(f"{PASSED}  {run.name}  ({where})")
            continue
        click.secho(f"{FAILED}  {run.name}  ({where})", fg="red")
        for failure in run.failures:
            click.echo(f"  {run.path}:{failure.line}:{failure.col}")
            if failure.expected is not None:
                click.echo(f"    - 期待: {failure.expected}")
                click.echo(f"    + 実際: {failure.actual}")
            else:
                click.echo(f"    {failure.message}")
    click.echo(closing_line(result.examples))
    sys.exit(EXIT_CONTENT if any(not run.passed for run in result.examples) else EXIT_OK)


@main.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID",
              help="敵。重ねて指定すると 1 回の挑戦でその順に続けて戦います（既定: 敵ごとに "
                   "1 体だけ、プール）。")
@click.option("--page", "pages", multiple=True, metavar="ID",
              help="このページだけを測ります（既定: すべてのページ）。")
@click.option("--baseline", "baseline_page", metavar="PAGE", default=None,
              help="はじめのデッキの PAGE 1 枚を各ページと入れ替えます（既定: 1 枚加えます）。")
@click.option("--policy", default=None, metavar="NAME",
              help="この方針だけで遊びます（random、greedy、search）。")
@click.option("--ladder", default=None, metavar="A,B,…",
              help="弱い順に並べた方針。報告は最後の方針のものです（既定: random,greedy）。"
                   "方針によって判定の変わるページには印を付けます。")
@click.option("--precision", type=FiniteFloatRange(0.001, 0.5), default=0.03, show_default=True,
              help="目指す 95% 区間の半幅（0.03 なら ±3 ポイント）。")
@click.option("--max-pairs", type=click.IntRange(20, 1_000_000), default=3000, show_default=True,
              help="ページごとの対の数の上限（敵ごとの戦闘の数の上限）。")
@click.option("--turn-cap", type=click.IntRange(1, 10_000), default=60, show_default=True,
              help="この数の手番を過ぎても続く戦闘は引き分けです（勝ちではありません）。")
@click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True,
              help="最初のシード。")
@lab_options("戦闘", "generated/sim")
@click.option("--check", is_flag=True,
              help="測った区間がコンテンツの 目標 から外れていれば終了コード 1。")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
def sim(enemies, pages, baseline_page, policy, ladder, precision, max_pairs, turn_cap, seed,
        workers, backend, address, fmt, html, check, content) -> None:
    """バランス実験室: ページと敵の強さを測ります。

    ページが強すぎるか、弱すぎるか、死に札か、敵が公平かを見ます。対のシミュレーション:
    同じシードをはじめのデッキとそのページを入れたデッキで遊び、勝率の差 Δ の 95% 区間が
    --precision の幅に収まるまで続けます。"""
    from runtime.tables import from_dicts
    from sim.lab import DEFAULT_LADDER, Settings
    from sim.policies import POLICIES

    if policy is not None and ladder is not None:
        raise click.UsageError("--policy と --ladder はどちらか一方だけを指定してください")
    names = ((policy,) if policy else tuple(n.strip() for n in ladder.split(",") if n.strip())
             if ladder else DEFAULT_LADDER)
    _known("方針", names, POLICIES)
    if not names or len(set(names)) != len(names):
        raise click.UsageError("--ladder には方針を重ねずに並べてください（例: random,greedy）")
    workers = _lab_workers(workers, backend, address)
    compiled = _compiled(content)
    tables = from_dicts(compiled.tables)
    _known("敵", enemies, tables.enemies)
    _known("ページ", pages, tables.pages)
    if baseline_page is not None:
        _known("ページ", [baseline_page], tables.pages)
        if baseline_page not in tables.starter():
            raise click.UsageError(f"--baseline {baseline_page} ははじめのデッキにありません"
                                   f"（あるのは: {', '.join(dict.fromkeys(tables.starter()))}）")
    settings = Settings(
        enemies=tuple(enemies) if enemies else tuple(sorted(tables.enemies)),
        mode="stages" if len(enemies) > 1 else "pool", ladder=names,
        pages=tuple(dict.fromkeys(pages)) or None, baseline_page=baseline_page,
        precision=precision, max_pairs=max_pairs, turn_cap=turn_cap, seed=seed)
    from sim.backends import BackendError

    try:
        report = _run_lab(compiled.tables, tables, settings, workers, backend, address,
                          show=fmt == "text")
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    _show_report(report, fmt, _print_sim)
    if html is not None:
        _write_sim_html(report, html, tables, compiled)
    if check:
        missed = [r["id"] for r in report["enemies"] + report["pages"] if r["target_met"] is False]
        if missed:
            click.echo(f"目標から外れています: {', '.join(missed)}", err=True)
            sys.exit(EXIT_CONTENT)
        targets = sum(r["target"] is not None for r in report["enemies"] + report["pages"])
        click.echo(f"目標 {targets} 件: 外れたものはありません。", err=True)


def _run_lab(literal, tables, settings, workers, backend, address, show: bool) -> dict:
    """The lab run, with a progress bar on a terminal's stderr (the whole run's time left)."""
    from rich.console import Console

    from sim.lab import Lab

    console = Console(stderr=True)
    lab: Lab | None = None
    if not (show and console.is_terminal):
        said: list = []

        def say_estimate(step) -> None:
            # Once, when the pilot round has told how many pairs the precision needs.
            if lab is not None and lab.estimate and not said:
                said.append(lab.estimate)
                # The baseline's battle of a pair is shared by every page.
                battles = lab.estimate * (len(lab.pool()) + 1)
                click.echo(f"見込み: 精度 ±{settings.precision * 100:g} pt にはページあたり約 "
                           f"{lab.estimate} 組（{settings.policy} で約 {battles:,} 戦）", err=True)

        lab = Lab(literal, tables, settings, workers=workers, backend=backend,
                  address=address, progress=say_estimate)
        return lab.run()
    from sim.progress import RunBar, lab_details

    with RunBar(console, unit="戦") as bar:
        def progress(step) -> None:
            bar.show(step.done, step.planned, step.basis, label=step.phase,
                     details=lab_details(lab, settings.precision))

        lab = Lab(literal, tables, settings, workers=workers, backend=backend,
                  address=address, progress=progress)
        return lab.run()


def _print_sim(report: dict) -> None:
    from rich.console import Console

    from contract.vocabulary import W
    from sim.report_text import enemies_table, pages_table, summary_lines

    # Piped into a file or a pager, the tables keep their width rather than 80 columns.
    console = Console(no_color=not _use_color(sys.stdout), highlight=False,
                      width=None if sys.stdout.isatty() else 200)
    settings = report["settings"]
    console.print(f"方針 {' < '.join(settings['ladder'])}、精度 ±{settings['precision'] * 100:g} pt、"
                  f"{W.scope.turn}上限 {settings['turn_cap']}、シード {settings['seed']}〜、"
                  f"見込み 約 {report['run']['pairs_estimate']} 組/ページ", markup=False)
    console.print(enemies_table(report))
    console.print(pages_table(report))
    for line in summary_lines(report):
        console.print(line)


def _write_sim_html(report: dict, out: Path, tables, compiled) -> None:
    """The report with plots; a catalog beside it (generated/catalog for generated/sim) is
    rendered again so that its pages link to their rows."""
    from catalog.render import example_views, write
    from sim.report_html import write_report

    try:
        index = write_report(report, out)
        catalog = out.parent / "catalog"
        if (catalog / "index.html").is_file():
            write(tables, catalog, example_views(compiled.examples, compiled.sources),
                  sim_report=index, lab_report=report)
    except OSError as exc:
        raise click.ClickException(f"{out} に報告を書けません: {_why(exc)}") from None
    click.echo(f"報告: {index.resolve().as_uri()}", err=True)


@main.command()
def lsp() -> None:
    """エディタ向けの言語サーバーを標準入出力で動かします。

    診断、ホバー、補完、定義への移動を提供します。"""
    from lsp import main as serve

    serve()


@main.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--check", is_flag=True,
              help="何も書き換えず、整形されていないファイルがあれば名前を挙げて終了コード 1。")
@click.option("--diff", "show_diff", is_flag=True, help="--check と一緒に: 変わる所を表示します。")
@click.option("--keep-aliases", is_flag=True,
              help="ASCII で書いたキーワードの別名を書いたままにします。")
def fmt_cmd(paths: tuple[Path, ...], check: bool, show_diff: bool, keep_aliases: bool) -> None:
    """コンテンツを決まった書き方に整形します。

    PATHS（ファイルかフォルダ）を省くと content/ を整形します（dsl/formatter.py）。
    lint でエラーのないファイルだけを整え、エラーのあるファイルは報告して書き換えません。"""
    import difflib

    from compiler.read import MAX_FILE_BYTES, discover, display_path, read
    from contract import disk
    from dsl.diagnostics import render
    from dsl.formatter import FormatterBug, format_text

    problems: list = []
    files = discover(list(paths) or [DEFAULT_CONTENT], problems)
    changed, failed = [], bool(problems)
    for diag in problems:
        click.echo(render(diag, {}), err=True)
    linted = _lint_for_fmt(paths)
    color = _use_color(sys.stderr)
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
            if result.text == written:
                continue
            changed.append(shown)
            if not check:
                # Only the file itself, replaced whole; never a link, a device or a FIFO.
                disk.write(path, result.text, inside=path.parent, replace=True)
        except (OSError, UnicodeDecodeError) as exc:
            why = disk.reason(exc) if isinstance(exc, OSError) else "UTF-8 ではなくなりました"
            click.echo(f"{shown}: 書き換えられません: {why}", err=True)
            failed = True
            continue
        if check:
            click.echo(f"{shown}: 整形されていません")
            if show_diff:
                click.echo("".join(difflib.unified_diff(
                    written.splitlines(True), result.text.splitlines(True), shown, shown)), nl=False)
        else:
            click.echo(f"{shown}: 整形しました")
    if not changed and not failed:
        click.echo(f"{len(files)} 個のファイルはすべて整形済みです")
    sys.exit(EXIT_CONTENT if failed or (check and changed) else EXIT_OK)


def _lint_for_fmt(paths):
    """What lint finds in the files fmt is given (names resolve against content/ as lint
    resolves them), so that a file with an error is never rewritten."""
    return _check_named(paths, None, "整形するファイルかフォルダ", whole_result=True)


@main.command()
@click.argument("term", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: 機械が読む形で出します。")
def vocab(term: str | None, fmt: str) -> None:
    """語彙（変数、カウンタ、タイミング、領域、寿命、操作）を表示します。

    カウンタはスコープごとに ●/○/× で示します。TERM を指定するとその語だけを、日本語でも
    ASCII の綴りでも探します。"""
    import json

    from contract import reference

    rows = reference.entries() if term is None else reference.find(term)
    if not rows:
        from compiler.names import did_you_mean

        hint = did_you_mean(term, reference.spellings())
        raise click.UsageError(f"「{term}」という語は語彙にありません。{hint}".rstrip())
    if fmt == "json":
        click.echo(json.dumps([row.as_json() for row in rows], ensure_ascii=False, indent=2))
    else:
        click.echo(reference.render(rows))


@main.command()
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="見張るコンテンツのフォルダ。")
@click.option("--debounce", type=click.IntRange(10, 10_000), default=150, show_default=True,
              help="続けざまの保存が落ち着くまで待つミリ秒。")
def watch(content: Path, debounce: int) -> None:
    """保存のたびに検査と例の実行をやり直します（Ctrl-C で終わります）。

    変更ごとに報告を 1 つ出します。報告は時刻で始まり、まとめの行で終わります。診断は
    エディタの問題マッチャーが読む「ファイル:行:列: エラー[コード]: 説明」の形です。"""
    import time

    from watchfiles import watch as changes

    from compiler.read import CONTENT_SUFFIXES

    def report() -> None:
        started = time.perf_counter()
        if sys.stdout.isatty():
            click.clear()
        click.echo(f"── {time.strftime('%H:%M:%S')} {content}/ ──")
        result = _content(content, whole_result=True)
        _print_diagnostics(result.diagnostics, result.sources, result.files)
        _say_blocked(result)
        click.echo(f"（{time.perf_counter() - started:.2f} 秒。保存するたびに検査します。Ctrl-C で終わります）")

    def content_file(change, path: str) -> bool:
        return path.endswith(CONTENT_SUFFIXES)

    first = True
    try:
        while True:
            # The folder is watched as the inode it is now: a folder removed and copied
            # back, or another renamed over it, is a new one, and a watch on the old one
            # would never report again.
            watched = _folder_identity(content)
            if watched is None:
                click.echo(f"{content}/ がなくなりました。戻るのを待ちます（Ctrl-C で終わります）")
                while watched is None:
                    time.sleep(0.2)
                    watched = _folder_identity(content)
                first = True
            # The first report comes from the first (empty) yield, once the watcher runs: a
            # save made while it is being printed is then seen.
            for changed in changes(content, watch_filter=content_file, debounce=debounce,
                                   step=50, raise_interrupt=True, yield_on_timeout=True,
                                   rust_timeout=200):
                now = _folder_identity(content)
                if now != watched:
                    if now is not None:
                        click.echo(f"{content}/ が置き換わりました。新しいフォルダを監視します")
                        first = True
                    break
                if not (changed or first):
                    continue
                first = False
                try:
                    report()
                except KeyboardInterrupt:
                    # Ctrl-C in the middle of a report: leave the loop at the watcher's own
                    # pace (an interrupt raised through it would leave its cleanup half done).
                    raise _Stop from None
    except (KeyboardInterrupt, _Stop):
        pass
    click.echo("監視を終えました。")


class _Stop(Exception):
    """Ctrl-C seen inside a report of ``watch``: leave the watch loop."""


def _folder_identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of a folder, None when it is not there: what tells ``watch`` that
    its folder was replaced."""
    try:
        found = folder.stat()
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """診断コード（E020、W001 …）を悪い例と良い例で説明します。"""
    from compiler.codes import CODES, explanation

    text = explanation(code)
    if text is None:
        known = ", ".join(sorted(CODES))
        raise click.UsageError(f"{code} という診断コードはありません。あるのは: {known}")
    click.echo(text.rstrip())


if __name__ == "__main__":
    main(prog_name="jibunki")  # python -m cli: the usage lines name the program, not cli.py
