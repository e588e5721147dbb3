"""The content checked and compiled for a command: lint's findings and the examples
played, the tables compiled in memory (or generated/ made fresh), and their errors
printed with the exit code that goes with them.

The compiler and the scenario runner are imported inside the functions: this module is
loaded on every start.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from commands.common import DEFAULT_CONTENT, DEFAULT_GENERATED, EXIT_CONTENT, use_color, why
from contract.kinds import BALANCE_SUFFIX, nearest_content


def check_named(paths, content: Path | None, what: str, whole_result: bool = False):
    """Check the named paths (none: the content folder) and play their examples. Names in them resolve against the whole content folder (``--content``,
    default content/) wherever the named files are: a scenario or deck kept outside sees
    the bundled pages. Checking the content folder itself is checking the project: it
    must hold what compile needs (the balance, the starting deck). ``whole_result``: the
    findings may come from the lint cache (scenario.lintcache), with no tables or events."""
    content = content_folder(paths, content)
    folder = content or DEFAULT_CONTENT
    named = list(paths) or [folder]
    if not paths and not folder.is_dir():
        raise click.UsageError(f"{folder}/ がありません。{what}を指定してください")
    if folder.is_dir() and [p.resolve() for p in named] == [folder.resolve()]:
        return check_content(folder, whole_result)
    return _lint(named, [folder] if folder.is_dir() else [], None, whole_result)


def content_folder(paths, content: Path | None) -> Path | None:
    """The content folder ``paths`` are checked with: ``--content``'s, else the one folder
    named when it is a content folder of its own (``is_project``: a copy of content/ is
    checked as itself), else the content folder every named path lies in when it is
    another than content/ (a page of ../other/content is checked with its own pages, as the
    editor checks it: lsp.folder.content_root), else None (content/)."""
    if content is not None or not paths:
        return content
    if len(paths) == 1 and is_project(paths[0]):
        return paths[0]
    owners = {nearest_content(Path(path).absolute()) for path in paths}
    if len(owners) == 1:
        owner = owners.pop()
        if owner is not None and is_project(owner) and \
                owner.resolve() != DEFAULT_CONTENT.resolve():
            return owner
    return None


def is_project(path: Path) -> bool:
    """Is ``path`` a content folder of its own — a folder holding a balance file (the one
    file a project has exactly one of)? Named alone without ``--content``, such a folder
    (a copy of content/ to try a change in) is the content its names resolve against:
    checked with content/ around it, each of its definitions would be one twice (E012)."""
    return path.is_dir() and any(path.glob(f"*{BALANCE_SUFFIX}"))


def check_content(folder: Path, whole_result: bool = False):
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

        return rejecting_violations(lambda: cached_lint(named, context, project))
    from scenario.stage import lint

    return rejecting_violations(lambda: lint(named, context, project=project, cache=True))


def rejecting_violations(run):
    """What ``run()`` returns; a table the contract rejects (a compiler bug) is said and
    exits 1."""
    try:
        return run()
    except Exception as exc:
        # compiler.validate is imported only here: a lint from the cache never loads it.
        from compiler.validate import SchemaViolation  # not compiler.build: lint writes nothing

        if isinstance(exc, SchemaViolation):
            _say_violation(exc)
        raise


def say_blocked(result) -> None:
    """Examples that could not run are said to have not run, never counted as passing;
    those that ran are counted, so a green report says the examples ran too (a failing
    one is its E044 above)."""
    if result.examples_blocked:
        blocked = result.examples_blocked
        shown = set(result.diagnostics)
        unshown = [d for d in blocked if d not in shown]
        # errors of the folder names resolve against block the examples too, though the
        # summary above counts only the files named: said apart, so the counts agree
        where = (f"上の {len(blocked) - len(unshown)} 件と、名前を解決するフォルダの "
                 f"{len(unshown)} 件: {_places(unshown)}") if unshown else _places(blocked)
        click.echo(f"例 {result.examples_wanted} 件は実行できませんでした: コンテンツに"
                   f"エラーが {len(blocked)} 件あります（{where}）。", err=True)
    elif result.examples_wanted:
        failed = any(d.code == "E044" for d in result.diagnostics)
        click.echo(f"例 {result.examples_wanted} 件を実行しました"
                   + ("（失敗は上の E044）。" if failed else "（すべて成功）。"))


def say_unanalysed(result) -> None:
    """A lint whose run had errors did not look for the interaction analysis' warnings
    (W006 …: they read the whole content): said, so that the warnings that come once the
    errors are fixed are no surprise, and a warning count of 0 is not read as none found
    — naming the errors of the folder names resolve against, which the summary does
    not show."""
    from compiler.codes import ANALYSIS

    blocked = result.analysis_blocked
    if not blocked:
        return
    shown = set(result.diagnostics)
    unshown = [d for d in blocked if d not in shown]
    # the folder's errors are all the cause, or, beside the named files' own, more of it
    more = "このほか、" if len(unshown) < len(blocked) else ""
    where = f"（{more}名前を解決するフォルダのエラー {len(unshown)} 件: {_places(unshown)}）" \
        if unshown else ""
    click.echo(f"相互作用の分析（{'・'.join(ANALYSIS)} の警告）は、エラーがあるので"
               f"行っていません{where}。", err=True)


def _places(diags) -> str:
    return "、".join(dict.fromkeys(f"{d.span.path}:{d.span.line}" for d in diags[:5])) + (
        " ほか" if len(diags) > 5 else "")


def print_diagnostics(diags, sources, files: int) -> None:
    """Each diagnostic with its source line (in colour on a terminal), then the summary."""
    from dsl.diagnostics import render, summary

    color = use_color(sys.stdout)
    for diag in diags:
        click.echo(render(diag, sources, color=color))
        click.echo()
    click.echo(summary(diags, files))


def compiled_content(content: Path, fmt: str = "py",
                     refusal: str = "エラーがあるので表を書きませんでした。",
                     code: int = EXIT_CONTENT, *, analysis: bool = True):
    """Compile in memory; on content errors print them and exit ``code`` (1), on a schema
    violation (a compiler bug) say so and exit 1. Nothing is written here. ``analysis``:
    False for a command that shows no warnings (the interaction analysis is left out)."""
    from compiler.build import SchemaViolation
    from scenario.stage import compile_content

    try:
        compiled = compile_content(content, fmt, analysis=analysis)
    except SchemaViolation as exc:
        _say_violation(exc)
    if not compiled.ok:
        print_diagnostics(compiled.diagnostics, compiled.sources, compiled.checked)
        click.echo(refusal, err=True)
        sys.exit(code)
    return compiled


def _say_violation(exc) -> None:
    click.echo("内部エラー（jibunki のバグ）: 書き出そうとした表が schemas/ のスキーマに合いません。"
               "何も書きませんでした。", err=True)
    click.echo(str(exc), err=True)
    sys.exit(EXIT_CONTENT)


def fresh_tables(content: Path, code: int = EXIT_CONTENT, *, analysis: bool = True):
    """Compile first when generated/ is stale, so editing a page and playing is one step.
    Another content folder (--content) is compiled in memory: generated/ stays the
    bundled content's. Content errors exit ``code``. ``analysis``: False for a command
    that shows no warnings (compiled_content)."""
    from compiler.build import stale_files, write_atomically
    from runtime.tables import TableError, from_dicts, load

    compiled = compiled_content(content, refusal="コンテンツにエラーがあるので始められません。",
                                code=code, analysis=analysis)
    if content.resolve() != DEFAULT_CONTENT.resolve():
        return from_dicts(compiled.tables), compiled
    if stale_files(DEFAULT_GENERATED, compiled.file_bytes):
        try:
            write_atomically(DEFAULT_GENERATED, compiled.file_bytes)
        except OSError as exc:
            # A read-only checkout can still be played: the fresh tables are in memory.
            click.echo(f"{DEFAULT_GENERATED}/ を作り直せません（{why(exc)}）。"
                       "コンパイルした表をメモリ上で使います。", err=True)
            return from_dicts(compiled.tables), compiled
        click.echo("generated/ をコンテンツに合わせて作り直しました。", err=True)
    try:
        return load(DEFAULT_GENERATED), compiled
    except TableError as exc:
        raise click.ClickException(str(exc)) from None


def known(kind: str, wanted, names) -> None:
    """Each of ``wanted`` is one of ``names``, else a usage error with a did-you-mean."""
    from compiler.names import did_you_mean
    from terminal.lookup import listed

    for item in wanted:
        if item not in names:
            hint = did_you_mean(item, names) or f"あるのは: {listed(sorted(names))}"
            raise click.UsageError(f"{kind}「{item}」はありません。{hint}")


def named_ids(kind: str, words, table: dict, option: str | None = None) -> list[str]:
    """The ids ``words`` name, each typed as an id or as the display name the catalog
    shows (terminal.lookup, as the battle's own commands take them); else a usage error
    with a did-you-mean, or the ids a shared name stands for — naming ``option`` when
    given (an option of one word, as --reference, is not told apart by its kind alone)."""
    from compiler.names import did_you_mean
    from terminal.lookup import UnknownName, resolve

    try:
        return [resolve(kind, word, table, did_you_mean) for word in words]
    except UnknownName as exc:
        raise click.UsageError(f"{option}: {exc}" if option else str(exc)) from None
