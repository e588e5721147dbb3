"""``jibunki journey``: draft 17 played in the terminal, and ``journey report`` that
measures it and its variants."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from commands.checked import print_diagnostics, rejecting_violations
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, EXIT_CONTENT, Seed, script_lines, use_color, why
from commands.lab import html_ready, lab_options, lab_workers, show_report
from contract.vocabulary import W
from terminal.script import EXIT_UNPLAYED


#: The content folder, as both levels take it: ``jibunki journey --content X report`` and
#: ``jibunki journey report --content X`` name the same folder (content_folder).
CONTENT_HELP = f"コンテンツのフォルダ（既定: {DEFAULT_CONTENT}）。"


def content_folder(ctx: click.Context, given: Path | None) -> Path:
    """The content folder of ``jibunki journey`` or its subcommand: the one named at either
    level (both: the same folder), else DEFAULT_CONTENT, checked as a named one is."""
    outer = ctx.parent.params.get("content") if ctx.parent is not None else None
    if given is not None and outer is not None and given.resolve() != outer.resolve():
        raise click.UsageError(f"--content が 2 つ違うフォルダを指しています: {outer} と {given}。"
                               "どちらか 1 つにしてください。")
    chosen = given if given is not None else outer
    if chosen is not None:
        return chosen
    param = next(p for p in ctx.command.params if p.name == "content")
    return CONTENT_FOLDER.convert(DEFAULT_CONTENT, param, ctx)


#: The seeds of a deal, at the keyboard as in the report: a game played on a seed is one the
#: report can measure (Python's Random read -1 as 1, so a negative seed was another's deal).
DEAL_SEEDS = (0, 2**62)


@click.group(invoke_without_command=True, subcommand_metavar="[コマンド [引数]...]")
@click.option("--setup", default=None, metavar="ID|名前",
              help="遊ぶ旅の準備（既定: 草案。ほかに 高難易度、問題点 …）。")
@click.option("--items", default=None, metavar="アイテム,…",
              help="持っていくアイテム（コンマ区切り。既定: 旅の準備の 携帯）。")
@click.option("--seed", type=Seed(*DEAL_SEEDS), default=0, show_default=True,
              help="乱数のシード（同じシードなら同じ配りになります）。")
@click.option("--script", type=click.Path(exists=True, dir_okay=False, allow_dash=True,
                                          path_type=Path),
              help="このファイルの行動（1 行に 1 つ、UTF-8）を流し、経過を表示します"
                   "（- なら標準入力から）。")
@click.option("--events", "as_events", is_flag=True,
              help=f"{W.quantity.events}（ルールが起こしたこと）の流れを JSON Lines で出します"
                   "（イベントカードのことではありません）。")
@click.option("--content", type=CONTENT_FOLDER, default=None, help=CONTENT_HELP)
@click.pass_context
def journey(ctx, setup, items, seed, script, as_events, content) -> None:
    """草案17「明日、旅に出ます」をターミナルで遊びます。

    キーボードで遊ぶほか、--script の行動を流すこともできます。下の report コマンドで
    測ります。

    終了コード:
    0 クリア
    1 敗北
    2 使い方の誤り（またはスクリプトが知らない行動で止まった）
    3 未決着（quit、またはスクリプトが先に終わった）
    4 遊べなかった（コンテンツにエラー、旅の準備がない、または出力先が途中で閉じた）"""
    if ctx.invoked_subcommand is not None:
        # jibunki journey report: the subcommand has options of its own; the game's
        # options would be ignored there, so they are refused (--content is shared).
        given = [p.opts[0] for p in ctx.command.params if p.name != "content"
                 and ctx.get_parameter_source(p.name) is not ParameterSource.DEFAULT]
        if given:
            raise click.UsageError(f"{'、'.join(given)} は遊ぶときのオプションです。"
                                   f"{ctx.invoked_subcommand} では使えません"
                                   f"（{ctx.invoked_subcommand} のオプションは "
                                   f"jibunki journey {ctx.invoked_subcommand} --help）。")
        return
    content = content_folder(ctx, content)
    from journey import JourneyError, load_rules
    from journey.screen.terminal import play
    from compiler.names import did_you_mean

    table = with_set_ups(journey_table(content, "コンテンツにエラーがあるので始められません。",
                                       EXIT_UNPLAYED), content, "遊べる", EXIT_UNPLAYED)
    try:
        rules = load_rules(setup, table)
    except JourneyError as exc:
        named = [*table.setups, *(s.name for s in table.setups.values())]
        hint = "" if setup is None else did_you_mean(setup, named)
        raise click.BadParameter(f"{exc}。{hint}" if hint else str(exc),
                                 param_hint="--setup") from None
    chosen = None if items is None else [i.strip() for i in items.replace("、", ",").split(",")
                                         if i.strip()]
    named = [*rules.items, *(item.name for item in rules.items.values())]
    for item in chosen or ():
        hint = "" if item in named else did_you_mean(item, named)
        if hint:  # else play's own refusal lists the set-up's items
            raise click.BadParameter(f"アイテム「{item}」はこの準備の一覧にありません。{hint}",
                                     param_hint="--items")
    from_stdin = script == Path("-")  # --script -: the lines come from standard input
    script = None if from_stdin else script
    interactive = script is None and not from_stdin and sys.stdin.isatty() and sys.stdout.isatty() and not as_events
    lines = None if interactive else script_lines(script)
    keyboard = None
    if interactive:
        from journey.screen.complete import candidates
        from terminal.prompt import Keyboard

        keyboard = Keyboard("journey", lambda game, text: candidates(game.journey, text))
    try:
        status = play(rules, seed=seed, items=chosen, lines=lines, as_events=as_events,
                      keyboard=keyboard)
    except JourneyError as exc:
        raise click.BadParameter(str(exc), param_hint="--items") from None
    sys.exit(status)


def journey_table(content: Path, refusal: str, code: int = EXIT_CONTENT):
    """The journey table of the folder ``content``, checked in memory (a folder of journey
    files alone will do: the battle's balance and starting deck are not needed for the
    journey). Content errors are printed with ``refusal`` and exit ``code``."""
    from compiler.lint import check

    result = rejecting_violations(lambda: check([content]))
    if result.errors:
        print_diagnostics(result.diagnostics, result.sources, result.files)
        click.echo(refusal, err=True)
        sys.exit(code)
    return result.model.journey


def with_set_ups(table, content: Path, what: str, code: int = EXIT_CONTENT):
    """``table`` when it holds a 旅の準備; else a refusal (exit ``code``) saying there is
    nothing ``what`` (遊べる, 測る) — never a game or a report of nothing."""
    if table is None or not table.setups:
        refused = click.ClickException(f"{content} に旅の準備がありません: {what}ものがありません"
                                       f"（{content / 'journey'}/ に 旅の準備 ID 「名前」 {{ … }} を"
                                       "書いてください）")
        refused.exit_code = code
        raise refused
    return table


def journey_print_cards(source, setup: str | None = None) -> list:
    """The draft 17 set as print-and-play cards (``jibunki print --journey``;
    printing.journey_cards): ``source`` is a content folder (checked as ``jibunki journey``
    checks it: errors printed, exit EXIT_CONTENT) or a compiled journey table (a
    ``JourneyTable`` or its literal). A content without the journey, or a set-up it lacks,
    is a ClickException in Japanese."""
    from journey import JourneyError
    from printing.journey_cards import journey_cards

    if isinstance(source, (str, Path)):
        source = journey_table(Path(source), "コンテンツにエラーがあるので印刷できません。")
    try:
        if setup is not None:
            source, setup = one_setup(source, setup)
        return journey_cards(source, setup)
    except JourneyError as exc:
        raise click.ClickException(str(exc)) from None


def one_setup(source, given: str) -> tuple:
    """The journey table (``source`` read once, when it is a literal) and the id of the
    one set-up ``given`` names (id or 名前), as ``--setup`` reads it: a name the content
    lacks, or more than one, is a usage error (a table the contract refuses is left to
    journey_cards to say so)."""
    from contract.codec import ContractError, from_literal
    from contract.tables import JourneyTable

    try:
        table = source if isinstance(source, JourneyTable) else \
            from_literal(JourneyTable, source, "journey")
    except ContractError:
        return source, given
    chosen = chosen_setups(given, table)
    if len(chosen) > 1:
        raise click.BadParameter(f"刷る旅の準備は 1 つです（{'、'.join(chosen)}）", param_hint="--setup")
    return table, chosen[0]


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
@click.option("--deals", "--seeds", "seeds", type=click.IntRange(1, 100_000), default=200,
              show_default=True,
              help="変種ごとの配りの数（どの変種も同じシードから配ります。--seeds でも同じ）。")
@click.option("--pair-deals", "pair_seeds", type=click.IntRange(1, 100_000), default=50,
              show_default=True, help="アイテムの組ごとの配りの数（組は 15 あります）。")
@click.option("--seed", type=Seed(*DEAL_SEEDS), default=0, show_default=True,
              help="最初のシード。")
@click.option("--budget", "budgets", default="1,2", show_default=True, callback=_budgets,
              metavar="N,N,…", help=f"{W.report.blind_player}の予算: 決定ごとに想定する山の順の数（小さい順に）。")
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=3000, show_default=True,
              help=f"{W.report.solver}の予算: 配りごとに探す局面の数。")
@click.option("--find-nodes", type=click.IntRange(1, 100_000_000), default=None,
              help=f"{W.report.solver}が勝ち筋をまだ見つけていない配りで、--nodes を超えて探してよい"
                   f"局面の数（最初の勝ち筋で配りは{W.report.winnable}と決まります。多いほど"
                   f"{W.report.undecided}が減ります）。"
                   "既定: --nodes の 10 倍。")
@click.option("--polish-nodes", type=click.IntRange(0, 100_000_000), default=None,
              help=f"{W.report.solver}が勝ち筋を見つけた配りで、そのスコアを上げるのに --nodes を"
                   "超えて探してよい局面の数（多いほど最高点が真の最高点に近づきます。0: 上げない）。"
                   "既定: --nodes の 3 倍。")
@click.option("--setup", "setups", default=None, metavar="ID|名前,…",
              help="測る旅の準備（コンマ区切り。既定: 内容のすべて）。選んだときは、--pairs を"
                   "付けたときだけアイテムの組も測ります。")
@click.option("--pairs/--no-pairs", default=True, show_default=True,
              help="草案のアイテムの組もすべて試します。")
@click.option("--ladder", type=click.IntRange(0, 1000), default=8, show_default=True,
              help=f"{W.report.ladder}: {W.report.solver}が勝った配りの最善の筋から測る決定の数"
                   "（0: 測らない）。")
@click.option("--ladder-nodes", type=click.IntRange(1, 10_000_000), default=500,
              show_default=True,
              help=f"{W.report.ladder}の予算: 最善の証明に 1 局で探す局面の数"
                   f"（多いほど{W.report.undecided}が減ります）。")
@lab_options("配り", "generated/journey")
@click.option("--check", is_flag=True,
              help=f"{W.report.blind_player}（いちばん多い想定）の{W.measure.win_rate}の区間が、"
                   f"旅の準備の {W.target} からまったく外れている（{W.report.missed}の）変種があれば"
                   f"終了コード 1。確かめる {W.target} がないときと、どの {W.target} もまだ決まらない"
                   f"（{W.report.undecided}）ときも 1。")
@click.option("--content", type=CONTENT_FOLDER, default=None, help=CONTENT_HELP)
@click.option("--no-cache", "no_cache", is_flag=True,
              help="前の実行の結果を使わず、すべての配りを解き直し・遊び直します（結果は同じです。"
                   "解き直した結果は次の実行のために残します。既定では、旅の準備の規則・アイテム・"
                   "シード・予算・コードの変わらない配りはキャッシュから読みます）。")
@click.pass_context
def journey_report(ctx, seeds, pair_seeds, seed, budgets, nodes, find_nodes, polish_nodes, setups,
                   pairs, ladder, ladder_nodes, workers, backend, address, fmt, html, check,
                   content, no_cache) -> None:
    """草案17 とその変種を測ります。

    クリア可能な配りの割合（解き手が山の順を知って）、山を見ない打ち手の予算ごとの
    勝率、決定の数、決定ごとの選択肢と迷う選択肢、手番の数とスコアを数えます。手札の
    枚数、アイテムの組、高難易度と問題点を変えて比べます。語の意味は jibunki vocab で
    引けます（例: jibunki vocab 迷う選択肢）。

    終了コード:
    0 測れた（--check: どの変種も 目標 から外れていない）
    1 コンテンツのエラーか測れなかった・（--check）目標 から外れた変種があるか、
      確かめる 目標 がないか、どの 目標 もまだ決まっていない
    2 使い方の誤り"""
    from contract.codec import to_literal
    from sim.backends import BackendError
    from journey.lab.measure import Settings

    content = content_folder(ctx, content)
    workers = lab_workers(workers, backend, address)
    html_ready(html, "journey", content)
    # The journey's own files are checked, as the game checks them: the battle's balance
    # and starting deck are not needed to measure the journey.
    table = with_set_ups(journey_table(content, "コンテンツにエラーがあるので測れません。"),
                         content, "測る")
    literal = to_literal(table)
    chosen = None if setups is None else chosen_setups(setups, table)
    if chosen is not None and ctx.get_parameter_source("pairs") is ParameterSource.DEFAULT:
        pairs = False  # the set-ups asked for, not the draft's fifteen item pairs too
    settings = Settings(seeds=seeds, pair_seeds=pair_seeds, seed=seed, budgets=budgets,
                        nodes=nodes, find_nodes=find_nodes, polish_nodes=polish_nodes,
                        pairs=pairs, ladder=ladder, ladder_nodes=ladder_nodes, setups=chosen)
    try:
        report = _run_journey(literal, settings, workers, backend, address,
                              show=fmt == "text", cache=not no_cache)
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    show_report(report, fmt, _print_journey)
    if html is not None:
        from journey.lab.html import write_report

        try:
            index = write_report(report, html)
        except OSError as exc:
            raise click.ClickException(f"{html} に報告を書けません: {why(exc)}") from None
        click.echo(f"報告: {index.resolve().as_uri()}", err=True)
    if check:
        _check_targets(report)


def chosen_setups(given: str, table) -> tuple[str, ...]:
    """--setup: the ids of the set-ups named (by id or 名前, comma-separated); a name the
    content lacks is a usage error with the nearest names."""
    from compiler.names import did_you_mean

    names = {s.name: s.id for s in table.setups.values()}
    chosen, unknown = [], []
    for part in (p.strip() for p in given.replace("、", ",").split(",")):
        if not part:
            continue
        ident = part if part in table.setups else names.get(part)
        if ident is None:
            unknown.append(part)
        elif ident not in chosen:
            chosen.append(ident)
    for part in unknown:
        hint = did_you_mean(part, [*table.setups, *names])
        there = f"ある準備: {'、'.join(table.setups)}" if table.setups else "旅の準備がひとつもありません"
        raise click.BadParameter(f"旅の準備「{part}」はありません（{there}）。{hint}",
                                 param_hint="--setup")
    if not chosen:
        raise click.BadParameter("測る旅の準備を 1 つ以上書いてください（例: --setup 草案,高難易度）。",
                                 param_hint="--setup")
    return tuple(chosen)


def _check_targets(report: dict) -> None:
    """--check: exit 1 naming each variant whose interval lies wholly outside its 目標
    (one line each, on stderr); else say how many were judged (as ``sim --check``)."""
    from contract.vocabulary import W
    from journey.lab.text import against_target
    from journey.lab.measure import STATUS_WORDS, judged_by, label

    rows = {row["id"]: row for row in report["variants"]}
    budgets = report["settings"]["budgets"]
    missed = [e["id"] for e in report["ranking"] if e["status"] == "missed"]
    for ident in missed:
        click.echo(f"目標から外れています: {label(rows[ident])}（{ident}）"
                   f" {against_target(rows[ident], budgets)}", err=True)
    if missed:
        sys.exit(EXIT_CONTENT)
    if not report["ranking"]:
        # a check that checked nothing is no pass (as a test run that ran nothing)
        click.echo("目標を書いた旅の準備がありません: 確かめるものはありません。"
                   f"旅の準備に 目標 {W.measure.win_rate} 30%〜70% のように書くと確かめられます。",
                   err=True)
        sys.exit(EXIT_CONTENT)
    undecided = sum(e["status"] == "undecided" for e in report["ranking"])
    if undecided == len(report["ranking"]):  # a check that decided nothing is no pass either
        click.echo(f"目標 {undecided} 件（{judged_by(report)}で判定）はどれも区間が目標の端に"
                   "かかり、まだ決まっていません: --deals を増やすと決まります"
                   f"（表の「今の{W.measure.win_rate}のままなら …局で判定できます」が目安です）。",
                   err=True)
        sys.exit(EXIT_CONTENT)
    click.echo(f"目標 {len(report['ranking'])} 件（{judged_by(report)}で判定）: 外れたものはありません"
               + (f"（{STATUS_WORDS['undecided']} {undecided} 件: --deals を増やすと決まります）。"
                  if undecided else "。"), err=True)


def _run_journey(literal, settings, workers, backend, address, show: bool,
                 cache: bool = True) -> dict:
    """The journey report's run, with the results cache (journey/lab/cache.py; ``cache``
    False reads none of it and keeps this run's results: ``--no-cache``), and a progress
    bar on a terminal's stderr."""
    from rich.console import Console

    from journey.lab.cache import DealCache
    from journey.lab.measure import run

    kept = DealCache.open(literal)
    kept.refresh = not cache
    console = Console(stderr=True)
    try:
        if not (show and console.is_terminal):
            return run(literal, settings, workers=workers, backend=backend, address=address,
                       cache=kept)
        from sim.progress import RunBar

        from journey.lab.text import WORK

        with RunBar(console, unit=WORK, label="旅の測定") as bar:
            return run(literal, settings, workers=workers, backend=backend, address=address,
                       progress=bar.show, cache=kept)
    finally:
        kept.close()


def _print_journey(report: dict) -> None:
    from rich.console import Console

    from journey.lab.load import NOTES as LADDER_NOTES
    from journey.lab.text import (NOTES, head_lines, ladder_table, load_table, outcome_table,
                                  ranking_lines, run_line)
    from sim.render_text import Prose

    console = Console(no_color=not use_color(sys.stdout), highlight=False,
                      width=None if sys.stdout.isatty() else 200)
    for line in head_lines(report):
        console.print(Prose(line))
    console.print(outcome_table(report))
    console.print(load_table(report))
    ladder = ladder_table(report)
    if ladder is not None:
        console.print(ladder)
    for line in ranking_lines(report):
        console.print(Prose(line))
    for line in NOTES + (LADDER_NOTES if ladder is not None else ()):
        console.print(Prose(line))
    console.print(Prose(run_line(report)))
