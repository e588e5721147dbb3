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
@click.version_option(package_name="jibunki", message="jibunki %(version)s")
def main() -> None:
    """自分紀 (jibunki): lint, compile and play the pages and enemies of one life."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: machine-readable diagnostics for editors and CI.")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="The content folder names resolve against (default: content/).")
def lint(paths: tuple[Path, ...], fmt: str, content: Path | None) -> None:
    """Check content files or folders (default: content/) and report every problem."""
    from dsl.diagnostics import to_json

    result = _check_named(paths, content, "リントするファイルかフォルダ", whole_result=True)
    if fmt == "json":
        click.echo(to_json(result.diagnostics))
    else:
        _print_diagnostics(result.diagnostics, result.sources, result.files)
        _say_blocked(result)
    sys.exit(EXIT_CONTENT if result.errors else EXIT_OK)


def _check_named(paths, content: Path | None, what: str, default: Path | None = None,
                 whole_result: bool = False):
    """Check the named paths (or ``default``, else the content folder) and play their
    examples. Names in them resolve against the whole content folder (``--content``,
    default content/) wherever the named files are: a scenario or deck kept outside sees
    the bundled pages. Checking the content folder itself is checking the project: it
    must hold what compile needs (the balance, the starting deck). ``whole_result``: the
    findings may come from the lint cache (scenario.lintcache), with no tables or events."""
    folder = content or DEFAULT_CONTENT
    fallback = default or folder
    named = list(paths) or [fallback]
    if not paths and not fallback.is_dir():
        raise click.UsageError(f"{fallback}/ がありません。{what}を指定してください")
    context = [folder] if folder.is_dir() else []
    whole = folder.is_dir() and [p.resolve() for p in named] == [folder.resolve()]
    return _lint(named, context, folder if whole else None, whole_result)


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
              help="Compile in memory; exit 1 naming the files of generated/ that are stale.")
@click.option("--format", "fmt", type=click.Choice(["py", "json"]), default="py",
              show_default=True, help="json: the same tables for a game client.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write (default: generated/, or generated/json for json).")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True, help="The content folder.")
def compile_cmd(check: bool, fmt: str, out: Path | None, content: Path) -> None:
    """Compile content/ into the runtime tables (generated/*.py), validated by schemas/."""
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


#: Where the battle prompt keeps its history between sessions (in the cache folder).
BATTLE_HISTORY = "battle_history"


def _history():
    """The prompt's history: a file in the user's private cache folder when one can be
    made and is ours alone, else in memory. Nothing here fails: a history that cannot be
    written is simply not kept."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from dsl.diskcache import cache_folder, private

    class _Quiet(FileHistory):
        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

        def load_history_strings(self):
            try:
                yield from super().load_history_strings()
            except (OSError, UnicodeDecodeError):
                return

    folder = cache_folder()
    if folder is None:
        return InMemoryHistory()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
        path = folder / BATTLE_HISTORY
        if not (folder.is_dir() and not folder.is_symlink() and private(info)):
            return InMemoryHistory()
        if path.exists() or path.is_symlink():
            if path.is_symlink() or not path.is_file() or not private(os.lstat(path)):
                return InMemoryHistory()
        else:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600))
        return _Quiet(str(path))
    except OSError:
        return InMemoryHistory()


class _Keyboard:
    """The battle prompt at a terminal: prompt_toolkit's line editor (arrow keys, history
    recall, Tab completion of terminal.complete's candidates)."""

    def __init__(self):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion

        keyboard = self

        class _Commands(Completer):
            def get_completions(self, document, complete_event):
                from terminal.complete import candidates

                if keyboard.session is None:
                    return
                before = document.text_before_cursor
                last = before.split()[-1] if before and not before[-1].isspace() else ""
                for c in candidates(keyboard.session, before):
                    yield Completion(c.text, start_position=-len(last), display_meta=c.meta)

        self.session = None
        self.prompt = PromptSession(history=_history(), completer=_Commands(),
                                    complete_while_typing=False)
        self.question = PromptSession()

    def bind(self, session) -> None:
        self.session = session

    def read(self) -> str:
        return self.prompt.prompt("> ")

    def ask(self, question: str) -> str:
        return self.question.prompt(question)


@main.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID|NAME",
              help="The enemy to fight, by id or name (repeat for several stages). "
                   "Default: the first.")
@click.option("--stage", "stages", type=click.IntRange(1, 99), default=None,
              help="How many stages in a row (enemies cycle through the given or all ones).")
@click.option("--deck", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file with a デッキ to play with. Default: the starting deck.")
@click.option("--with", "with_pages", multiple=True, metavar="PAGE",
              help="Put this page (id or name) straight into the opening hand (repeatable).")
@click.option("--seed", type=click.IntRange(*SEED_RANGE), default=0, show_default=True)
@click.option("--script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Play these commands (one per line, UTF-8) and print a transcript.")
@click.option("--json", "as_json", is_flag=True, help="Print the event stream as JSON lines.")
@click.option("--ascii", "ascii_", is_flag=True,
              help="ASCII for the screen's symbols of ambiguous width.")
@click.option("--yes", "-y", is_flag=True,
              help="At the keyboard, pen and tear without asking (the preview is shown).")
@click.option("--force", is_flag=True,
              help="save and record replace an existing file (default: a script stops, "
                   "the keyboard asks).")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
def battle(enemies, stages, deck, with_pages, seed, script, as_json, ascii_, yes, force,
           content) -> None:
    """Play a battle in the terminal (or from a script) to try a page.

    save and record write only regular files inside the working folder.

    \b
    Exit status: 0 the run was won, 1 it was lost, 2 a usage error (or a
    script stopped at a save or record it could not write), 3 the battle
    was left unfinished (quit, or a script that ends first).
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
    keyboard = _Keyboard() if interactive else None
    sys.exit(play(tables, seed=seed, enemies=stage_list, deck=pages, with_pages=with_pages,
                  lines=lines, as_json=as_json, keyboard=keyboard, ascii=ascii_, yes=yes,
                  hint=did_you_mean, force=force))


def lab_options(runs: str, html_folder: str):
    """The options of a command that runs on the lab's runner (``jibunki sim``, ``jibunki
    journey report``): where its ``runs`` are played (--workers, --backend, --address),
    and how the report is given (--format, --html, by default into ``html_folder``)."""
    options = (
        click.option("--workers", type=click.IntRange(1, 512), default=None,
                     help="Worker processes (default: every core)."),
        click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True, help=f"ray: run the {runs} on a Ray cluster."),
        click.option("--address", default=None,
                     help="The Ray cluster to join (default: a local one)."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     show_default=True),
        click.option("--html", "html", is_flag=False, flag_value=html_folder, default=None,
                     type=click.Path(file_okay=False, path_type=Path),
                     help=f"Also write the report with plots (default folder: {html_folder})."),
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
              help="The 旅の準備 to play (default: 草案; 高難易度, 問題点, …).")
@click.option("--items", default=None, metavar="A,B",
              help="The items carried, comma-separated (default: the set-up's 携帯).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--script", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Play these actions (one per line, UTF-8) and print a transcript.")
@click.option("--events", "as_events", is_flag=True,
              help="Print the event stream as JSON lines.")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
@click.pass_context
def journey(ctx, setup, items, seed, script, as_events, content) -> None:
    """Play draft 17 「明日、旅に出ます」 (spec 004) in the terminal (or from a script);
    ``jibunki journey report`` measures it.

    \b
    Exit status: 0 the game was won, 1 it was lost, 2 a usage error,
    3 the game was left unfinished (quit, or a script that ends first).
    """
    if ctx.invoked_subcommand is not None:
        return  # jibunki journey report: the subcommand has options of its own
    from compiler.lint import check
    from journey import JourneyError, load_rules
    from terminal.journey import play

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
    try:
        status = play(rules, seed=seed, items=chosen, lines=lines, as_events=as_events)
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
              help="Deals per variant (the same seeds for every variant).")
@click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True,
              help="The first seed.")
@click.option("--budget", "budgets", default="1,4", show_default=True, callback=_budgets,
              metavar="N,N,…", help="The player's budgets: deck orders sampled per decision.")
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=3000, show_default=True,
              help="The solver's budget: positions searched per deal.")
@click.option("--pairs/--no-pairs", default=True, show_default=True,
              help="Also sweep every pair of the draft's items.")
@lab_options("deals", "generated/journey")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
def journey_report(seeds, seed, budgets, nodes, pairs, workers, backend, address, fmt, html,
                   content) -> None:
    """Measure draft 17 and its variants: winnable deals (solver, deck known), win rate
    per player budget (deck unseen), decisions, options and 迷う選択肢 per decision, turns
    and scores; swept over hand sizes, item pairs, 高難易度 and 問題点."""
    from sim.backends import BackendError
    from sim.journey_lab import Settings

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
        from sim.journey_html import write_report

        try:
            index = write_report(report, html)
        except OSError as exc:
            raise click.ClickException(f"{html} に報告を書けません: {_why(exc)}") from None
        click.echo(f"報告: {index.resolve().as_uri()}", err=True)


def _run_journey(literal, settings, workers, backend, address, show: bool) -> dict:
    """The journey report's run, with a progress bar on a terminal's stderr."""
    from sim.journey_lab import run

    if not (show and sys.stderr.isatty()):
        return run(literal, settings, workers=workers, backend=backend, address=address)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("", total=None)
        done = [0]

        def heard(index, result) -> None:
            done[0] += 1
            bar.update(task, completed=done[0])

        return run(literal, settings, workers=workers, backend=backend, address=address,
                   on_done=heard)


def _print_journey(report: dict) -> None:
    from rich.console import Console

    from sim.journey_text import NOTES, head_lines, load_table, outcome_table

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
              default=DEFAULT_GENERATED / "catalog", show_default=True)
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
def catalog(out: Path, content: Path) -> None:
    """Render the HTML catalog of every page and enemy (opens from disk)."""
    from catalog.render import example_views, write

    tables, compiled = _fresh_tables(content)
    try:
        # The simulation report beside the catalog (jibunki sim --html): pages link to it.
        index = write(tables, out, example_views(compiled.examples, compiled.sources),
                      sim_report=out.parent / "sim" / "index.html",
                      lab_report=_lab_report(out.parent / "sim"))
    except OSError as exc:
        raise click.ClickException(f"{out} にカタログを書けません: {_why(exc)}") from None
    click.echo(f"カタログ: {index.resolve().as_uri()}")


def _lab_report(folder: Path) -> dict | None:
    """The balance lab report ``jibunki sim --html`` left in ``folder``, or None."""
    from sim.report_html import read_report

    return read_report(folder)


@main.command()
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
def build(content: Path) -> None:
    """The whole main job: lint, compile, run the examples, render the catalog."""
    from catalog.render import example_views, write
    from runtime.tables import TableError, load

    result = _lint([content], [], content)
    _print_diagnostics(result.diagnostics, result.sources, result.files)
    if result.examples_blocked or (result.errors and not result.examples):
        click.echo(f"例: {result.examples_wanted} 件を実行できませんでした"
                   "（コンテンツのエラーを直してください）")
    else:
        ran = len(result.examples)
        failed = sum(not r.passed for r in result.examples)
        click.echo(f"例: {ran - failed} passed, {failed} failed")
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
    click.echo(f"カタログ: {index.resolve().as_uri()}")


DEFAULT_TESTS = DEFAULT_CONTENT / "tests"


@main.command("test")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=None, help="The content folder names resolve against (default: content/).")
def test_cmd(paths: tuple[Path, ...], content: Path | None) -> None:
    """Run scenario files (例 blocks; default: content/tests/) like a test runner."""
    tests = (content / "tests") if content else DEFAULT_TESTS
    result = _check_named(paths, content, "シナリオのファイルかフォルダ", default=tests)
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
        click.echo("0 passed, 0 failed")
        click.echo("実行する例（例 { … }）が1つもありません。", err=True)
        sys.exit(EXIT_CONTENT)
    passed = failed = 0
    for run in result.examples:
        where = f"{run.path}:{run.line}"
        if run.passed:
            passed += 1
            click.echo(f"PASS  {run.name}  ({where})")
            continue
        failed += 1
        click.secho(f"FAIL  {run.name}  ({where})", fg="red")
        for failure in run.failures:
            click.echo(f"  {run.path}:{failure.line}:{failure.col}")
            if failure.expected is not None:
                click.echo(f"    - 期待: {failure.expected}")
                click.echo(f"    + 実際: {failure.actual}")
            else:
                click.echo(f"    {failure.message}")
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(EXIT_CONTENT if failed else EXIT_OK)


@main.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID",
              help="An enemy; repeated: the stages of one run in order (default: each "
                   "enemy alone, the pool).")
@click.option("--page", "pages", multiple=True, metavar="ID",
              help="Only these pages (default: every page).")
@click.option("--baseline", "baseline_page", metavar="PAGE", default=None,
              help="Swap one copy of PAGE of the starting deck for each page (default: add one).")
@click.option("--policy", default=None, metavar="NAME",
              help="One policy only (random, greedy, search).")
@click.option("--ladder", default=None, metavar="A,B,…",
              help="Policies from weakest to strongest; the last is the report's "
                   "(default: random,greedy). Pages whose verdict changes are flagged.")
@click.option("--precision", type=FiniteFloatRange(0.001, 0.5), default=0.03, show_default=True,
              help="Half-width of the 95% intervals to reach (0.03: ±3 points).")
@click.option("--max-pairs", type=click.IntRange(20, 1_000_000), default=3000, show_default=True,
              help="At most this many pairs per page (battles per enemy).")
@click.option("--turn-cap", type=click.IntRange(1, 10_000), default=60, show_default=True,
              help="A battle still running after this many turns is a draw (not a win).")
@click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True)
@lab_options("battles", "generated/sim")
@click.option("--check", is_flag=True,
              help="Exit 1 when a measured interval lies outside a 目標 of the content.")
@click.option("--content", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=DEFAULT_CONTENT, show_default=True)
def sim(enemies, pages, baseline_page, policy, ladder, precision, max_pairs, turn_cap, seed,
        workers, backend, address, fmt, html, check, content) -> None:
    """The balance lab: is each page too strong, too weak or dead, and is each enemy fair?

    Paired simulations: the same seeds played by the starting deck and by the deck with
    the page, until the 95% interval of Δ win rate is as narrow as --precision."""
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
    """The lab run, with a progress bar on a terminal's stderr."""
    from sim.lab import Lab

    if not (show and sys.stderr.isatty()):
        said: list = []
        lab: Lab | None = None

        def say_estimate(what: str, done: int, total: int) -> None:
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
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("戦"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("", total=None)
        lab: Lab | None = None

        def progress(what: str, done: int, total: int) -> None:
            extra = ""
            if lab is not None and lab.widest is not None:
                extra += f"  最大半幅 ±{lab.widest * 100:.1f} pt（目標 ±{settings.precision * 100:g}）"
            if lab is not None and lab.estimate:
                extra += f"  見込み 約 {lab.estimate} 組/ページ"
            bar.update(task, description=f"{what}{extra}", completed=done, total=total)

        lab = Lab(literal, tables, settings, workers=workers, backend=backend,
                  address=address, progress=progress)
        report = lab.run()
    return report


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
    """Serve the language server over stdio (diagnostics, hover, completion, definitions)."""
    from lsp import main as serve

    serve()


@main.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--check", is_flag=True, help="Rewrite nothing; exit 1 naming the files that would change.")
@click.option("--diff", "show_diff", is_flag=True, help="With --check: print what would change.")
@click.option("--keep-aliases", is_flag=True, help="Keep ASCII keyword aliases as written.")
def fmt_cmd(paths: tuple[Path, ...], check: bool, show_diff: bool, keep_aliases: bool) -> None:
    """Lay content files or folders (default: content/) out canonically (dsl/formatter.py).

    Only files lint finds no error in are laid out; the others are reported, never
    rewritten."""
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
              show_default=True)
def vocab(term: str | None, fmt: str) -> None:
    """The vocabulary: variables, counters (●/○/× per scope), timings, regions, lifetimes,
    operations — or one TERM, by its Japanese or ASCII spelling."""
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
              default=DEFAULT_CONTENT, show_default=True)
@click.option("--debounce", type=click.IntRange(10, 10_000), default=150, show_default=True,
              help="Milliseconds to wait for a burst of saves to settle.")
def watch(content: Path, debounce: int) -> None:
    """Lint and play the examples again on every save, one report per change (Ctrl-C stops).

    Each report starts with the time and ends with the summary line; diagnostics keep the
    `path:line:col: error[CODE]: message` form an editor's problem matcher reads."""
    import time

    from watchfiles import watch as changes

    from compiler.read import CONTENT_SUFFIXES

    def report() -> None:
        started = time.perf_counter()
        if sys.stdout.isatty():
            click.clear()
        click.echo(f"── {time.strftime('%H:%M:%S')} {content}/ ──")
        result = _lint([content], [], content, whole_result=True)
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
    """Explain a diagnostic code (E020, W001 …) with a bad and a good example."""
    from compiler.codes import CODES, explanation

    text = explanation(code)
    if text is None:
        known = ", ".join(sorted(CODES))
        raise click.UsageError(f"{code} という診断コードはありません。あるのは: {known}")
    click.echo(text.rstrip())


if __name__ == "__main__":
    main()
