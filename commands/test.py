"""``jibunki test``: the examples (例 blocks) run as tests."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from commands.checked import check_named, print_diagnostics
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, EXIT_CONTENT, EXIT_OK, NamedPath

#: Warnings about the examples themselves, which jibunki test says as lint does.
EXAMPLE_WARNINGS = ("W013", "W019")


def _some_words(ctx, param, words: tuple[str, ...]) -> tuple[str, ...]:
    """-k's words; an empty one (a script's unset variable) is refused: it is in every name,
    so it would run every example while saying it narrowed them."""
    if any(not word.strip() for word in words):
        what = "空の文字列" if "" in words else "空白だけの文字列"
        raise click.BadParameter(f"{what}では例を絞り込めません（どの例の名前にも合うものとして"
                                 "読みません）。例の名前の一部を書いてください", param_hint="-k")
    return words


@click.command("test")
@click.argument("paths", nargs=-1, type=NamedPath(), metavar="[パス]...")
@click.option("--content", type=CONTENT_FOLDER,
              default=None, help="名前を解決するコンテンツのフォルダ（既定: content/）。")
@click.option("-k", "--name", "words", multiple=True, metavar="文字列", callback=_some_words,
              help="名前にこの文字列を含む例だけを見ます（重ねて指定すると、どれかを含む例。"
                   "全角の英数字と大文字小文字は区別しません）。")
def test_cmd(paths: tuple[Path, ...], content: Path | None, words: tuple[str, ...]) -> None:
    """例（例 ブロック）をテストのように実行します。

    パス（ファイルかフォルダ）を省くと、コンテンツのすべての例を実行します
    （content/tests/ のほか、ページや敵の下に書いたものも）。バランスのファイルがある
    フォルダ（content/ の写しなど）を 1 つだけ指定すると、そのフォルダのすべての例です。
    -k で名前を絞ると、その例だけを示して数え、終了コードもその例だけで決まります。

    終了コード:
    0 すべて成功
    1 失敗した例かコンテンツのエラーがある（実行した例がないときも）
    2 使い方の誤り"""
    from dsl.diagnostics import HINT_WORD, render
    from scenario.check import run_diagnostics
    from scenario.tally import FAILED, PASSED, closing_line, named, nothing_named, nothing_to_run

    result = check_named(paths, content, "例のあるファイルかフォルダ")
    broken = [d for d in result.diagnostics if d.is_error and d.code != "E044"]
    # Errors anywhere in the content stop the examples: show them all (context files too).
    broken += [d for d in result.examples_blocked if d not in broken]
    if broken:
        broken.sort(key=lambda d: d.sort_key())
        print_diagnostics(broken, result.sources, len(result.sources))
        # a file the parser could not read counts none of its examples: "0 not run" would
        # read as "nothing wrong with the examples"
        left = (f"例 {result.examples_wanted} 件は未実行" if result.examples_wanted
                else "読めなかったファイルの例は、エラーを直すまで数えられません")
        click.echo(f"コンテンツにエラーがあるのでシナリオを実行できません（{left}）。", err=True)
        sys.exit(EXIT_CONTENT)
    if not result.examples:
        # A runner that ran nothing is not green.
        click.echo(closing_line([]))
        click.echo(nothing_to_run(list(paths) or [content or DEFAULT_CONTENT], result.files),
                   err=True)
        sys.exit(EXIT_CONTENT)
    examples = result.examples
    if words:
        examples = named(result.examples, words)
        if not examples:  # a -k that matches nothing ran nothing: not green
            click.echo(closing_line([]))
            click.echo(nothing_named(words, result.examples), err=True)
            sys.exit(EXIT_CONTENT)
    for run in examples:
        where = f"{run.path}:{run.line}"
        if run.passed:
            click.echo(f"{PASSED}  {run.name}  ({where})")
            continue
        click.secho(f"{FAILED}  {run.name}  ({where})", fg="red")
        for failure, shown in zip(run.failures, run_diagnostics([run])):
            click.echo(f"  {run.path}:{failure.line}:{failure.col}")
            # the line written, with a caret under what failed (lint's E044 shows the same)
            for line in render(shown, result.sources).split("\n")[1:]:
                if line.startswith("      = "):
                    break  # the hint: said after the numbers
                click.echo(f"  {line}")
            if failure.expected is not None:
                click.echo(f"    - 期待: {failure.expected}")
                click.echo(f"    + 実際: {failure.actual}")
            else:
                click.echo(f"    {failure.message}")
            click.echo(f"    = {HINT_WORD}: {shown.hint}")
    # a warning about the examples themselves is said here too: a check that can never
    # fail (W019) passed above without a word, two examples of one name (W013) blur -k
    for diag in (d for d in result.diagnostics if d.code in EXAMPLE_WARNINGS):
        click.echo(render(diag, result.sources))
    narrowed = len(examples) < len(result.examples)
    click.echo(closing_line(examples) + (
        f"、-k で {len(result.examples)} 件から絞りました" if words and narrowed
        else f"、-k は {len(examples)} 件すべてに当たりました" if words else ""))
    sys.exit(EXIT_CONTENT if any(not run.passed for run in examples) else EXIT_OK)
