"""``jibunki sim``: the balance lab, measuring pages and enemies."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from commands.checked import compiled_content, known, named_ids
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, EXIT_CONTENT, Fraction, Seed, use_color, why
from commands.lab import html_ready, lab_options, lab_workers, show_report
from contract import collector
from contract.vocabulary import PLAYER_NAMES, W


#: --reference's value that measures no swap, whatever the balance's 基準ページ says.
NO_REFERENCE = "なし"


#: What --policy and --ladder take: each player's name (方針, contract.vocabulary.PLAYERS)
#: or its ASCII code, to the code.
PLAYER_SPELLINGS = {**{name: code for code, name in PLAYER_NAMES.items()},
                    **{code: code for code in PLAYER_NAMES}}
_PLAYERS_SAID = "、".join(f"{name}（{code}）" for code, name in PLAYER_NAMES.items())


@click.command()
@click.option("--enemy", "enemies", multiple=True, metavar="ID|名前",
              help="敵（ID か名前）。重ねて指定すると 1 回の挑戦でその順に続けて戦います（既定: 敵ごとに "
                   "1 体だけ、プール）。")
@click.option("--page", "pages", multiple=True, metavar="ID|名前|ファイル",
              help="このページ（ID か名前。.page のファイルかフォルダなら、そこに書いたページすべて）"
                   "だけを測ります（既定: すべてのページ）。")
@click.option("--baseline", "baseline_page", metavar="ページ", default=None,
              help="はじめのデッキのこのページ（ID か名前）1 枚を各ページと入れ替えます（既定: 1 枚加えます）。")
@click.option("--reference", "reference", metavar="ページ", default=None,
              help=f"はじめのデッキのこのページ（ID か名前）1 枚を各ページと入れ替えた時の{W.measure.win_rate}の差も測ります"
                   f"（枚数そのまま、最後の方針で）。既定: バランスの {W.balance.reference}（書かれて"
                   f"いなければ測りません）。{NO_REFERENCE}: 測りません。")
@click.option("--policy", default=None, metavar="方針",
              help=f"この方針だけで遊びます（{_PLAYERS_SAID}）。")
@click.option("--ladder", default=None, metavar="方針,…",
              help=f"単純な方針から順に並べた方針（{' < '.join(PLAYER_NAMES.values())}）。報告は最後の"
                   f"方針のものです（既定: {','.join(PLAYER_NAMES[p] for p in ('random', 'greedy'))}）。"
                   "方針によって判定の変わるページには印を付けます。")
@click.option("--precision", type=Fraction(0.001, 0.5), default=0.03, show_default=True,
              help="目指す 95% 区間の半幅（0.03 なら ±3 ポイント）。")
@click.option("--max-pairs", type=click.IntRange(20, 1_000_000), default=3000, show_default=True,
              help="ページごとの対の数の上限（敵ごとの戦闘の数の上限）。")
@click.option("--turn-cap", type=click.IntRange(1, 10_000), default=60, show_default=True,
              help=f"この数の{W.scope.turn}を過ぎても続く戦闘は引き分けです（勝ちではありません）。")
@click.option("--seed", type=Seed(0, 2**62), default=0, show_default=True,
              help="最初のシード。")
@lab_options("戦闘", "generated/sim")
@click.option("--check", is_flag=True,
              help="測った区間がコンテンツの 目標 から外れていれば終了コード 1。")
@click.option("--tune", "tune_ids", multiple=True, metavar="ID|名前|ファイル",
              help="ページか敵（ID か名前。.page のファイルかフォルダなら、そこに書いた 目標 の"
                   "あるページ）の測った値を 目標 の内側に入れる、いちばん小さな数 1 つの書き換えを"
                   "探します（重ねて指定できます）。")
@click.option("--tune-all", is_flag=True,
              help="目標 を書いたページと敵のうち、測った区間が目標の内側にないものをすべて調整します。")
@click.option("--tune-pairs", type=click.IntRange(20, 100_000), default=400, show_default=True,
              help="調整の探索で 1 回の試しに遊ぶ対（敵なら戦闘）の数。確認は --precision まで遊びます。")
@click.option("--apply", "apply_edit", is_flag=True,
              help="--tune と一緒に: 確認できた書き換えをソースファイルに書き込みます。2 つ以上"
                   "書き込んだときは、書き込んだあとのコンテンツで全部をまとめて測り直します。")
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="前の実行の戦闘結果を使わず、すべての戦闘を遊び直します（結果は同じです。"
                   "遊び直した結果は次の実行のために残します。既定では、読むページ・敵・表・"
                   "コードの変わらない戦闘はキャッシュから読みます）。")
def sim(enemies, pages, baseline_page, reference, policy, ladder, precision, max_pairs, turn_cap,
        seed, workers, backend, address, fmt, html, check, tune_ids, tune_all, tune_pairs,
        apply_edit, content, no_cache) -> None:
    """バランス実験室: ページと敵の強さを測ります。

    ページが強すぎるか、弱すぎるか、死に札か、敵が公平かを見ます。対のシミュレーション:
    同じシードをはじめのデッキとそのページを入れたデッキで遊び、勝率の差 Δ の 95% 区間が
    --precision の幅に収まるまで続けます。ただし判定（強い・弱い）と 目標 が先に決まった
    ページはそこで止めるので、その区間は --precision より広いことがあります。

    終了コード:
    0 測れた（--check: どの 目標 からも外れていない）
    1 コンテンツのエラーか測れなかった・（--check）目標 から外れたものがあるか、確かめる 目標 が
      ないか、どの 目標 もまだ決まっていないか、この測り方では確かめられない 目標 がある
    2 使い方の誤り"""
    from runtime.tables import from_dicts
    from sim.lab import DEFAULT_LADDER, Settings
    from sim.policies import POLICIES

    if policy is not None and ladder is not None:
        raise click.UsageError("--policy と --ladder はどちらか一方だけを指定してください")
    # an empty --ladder '' is a ladder of nothing (refused below), not the default's
    typed = ((policy,) if policy else tuple(n.strip() for n in ladder.split(",") if n.strip())
             if ladder is not None else DEFAULT_LADDER)
    known("方針", typed, PLAYER_SPELLINGS)
    names = tuple(PLAYER_SPELLINGS[n] for n in typed)
    if not names or len(set(names)) != len(names):
        raise click.UsageError("--ladder には方針を重ねずに並べてください"
                               f"（例: {','.join(PLAYER_NAMES[p] for p in DEFAULT_LADDER)}）")
    skill = list(POLICIES)  # the ladder of skill, weakest first (sim/policies.py)
    if [skill.index(n) for n in names] != sorted(skill.index(n) for n in names):
        # the report is the last policy's: greedy,random reported the random player's
        raise click.UsageError("--ladder は単純な方針から順に並べてください"
                               f"（{' < '.join(PLAYER_NAMES[p] for p in skill)}）: "
                               f"{','.join(PLAYER_NAMES[p] for p in sorted(names, key=skill.index))}")
    workers = lab_workers(workers, backend, address)
    html_ready(html, content=content)
    # The report shows no warnings: the interaction analysis is left out.
    compiled = compiled_content(content, refusal="コンテンツにエラーがあるので測れません。",
                                analysis=False)
    tables = from_dicts(compiled.tables)
    collector.settle()  # the content lives to the end of the run (contract/collector.py)
    enemies = named_ids("敵", enemies, tables.enemies)
    pages = named_ids("ページ", _pages_of_files(pages, tables, content), tables.pages)
    if baseline_page is not None:
        [baseline_page] = named_ids("ページ", [baseline_page], tables.pages, "--baseline")
        if baseline_page not in tables.starter():
            raise click.UsageError(f"--baseline {baseline_page} ははじめのデッキにありません"
                                   f"（あるのは: {', '.join(dict.fromkeys(tables.starter()))}）")
    if baseline_page is not None and baseline_page in pages:
        raise click.UsageError(f"--page と --baseline に同じページ {baseline_page} があります: "
                               "自分自身と入れ替えても差は測れません")
    reference_given = reference is not None
    reference = _reference(reference, baseline_page, tables)
    if reference is not None:
        if baseline_page is not None:
            raise click.UsageError("--baseline と --reference はどちらか一方だけを指定してください"
                                   "（--baseline は Δ そのものを入れ替えで測ります）")
        [reference] = named_ids("ページ", [reference], tables.pages, "--reference")
        if reference not in tables.starter():
            raise click.UsageError(f"--reference {reference} ははじめのデッキにありません"
                                   f"（あるのは: {', '.join(dict.fromkeys(tables.starter()))}）")
    if apply_edit and not (tune_ids or tune_all):
        raise click.UsageError("--apply は --tune か --tune-all と一緒に指定してください")
    if tune_ids or tune_all:
        from commands.tune import run_tune

        ignored = [option for option, given in (
            ("--page", bool(pages)), ("--reference", reference_given), ("--html", html is not None),
            ("--check", check), ("--no-cache", no_cache)) if given]
        if ignored:
            raise click.UsageError(f"{'、'.join(ignored)} は --tune / --tune-all と一緒には使えません"
                                   "（調整は調整するページか敵だけを、--tune-pairs と --precision で測ります）")
        # A 目標 is one number measured one way: the page's Δ when added, against every
        # enemy each alone; the enemy's win rate of the starting deck. A narrower
        # measurement would be compared with bounds written for another number.
        other_way = [option for option, given in (
            ("--enemy", bool(enemies)), ("--baseline", baseline_page is not None)) if given]
        if other_way:
            raise click.UsageError(
                f"{'、'.join(other_way)} は --tune / --tune-all と一緒には使えません（目標 は、ページ"
                f"ならすべての敵を相手に 1 枚加えた時の{W.measure.win_rate_delta}、敵ならはじめの"
                f"デッキで戦った{W.measure.win_rate}です。敵を絞ったり入れ替えたりして測った数とは"
                "比べられません）")

        tune_ids = named_ids("ページか敵", _targeted(tune_ids, tables, content),
                             {**tables.pages, **tables.enemies})
        settings = Settings(enemies=tuple(sorted(tables.enemies)), ladder=names[-1:],
                            precision=precision, max_pairs=max_pairs, turn_cap=turn_cap,
                            seed=seed)
        run_tune(content, tables, tune_ids, tune_all, apply_edit, settings, tune_pairs, workers,
                 backend, address, fmt)
        return
    settings = Settings(
        enemies=tuple(enemies) if enemies else tuple(sorted(tables.enemies)),
        mode="stages" if len(enemies) > 1 else "pool", ladder=names,
        pages=tuple(dict.fromkeys(pages)) or None, baseline_page=baseline_page,
        reference=reference,
        precision=precision, max_pairs=max_pairs, turn_cap=turn_cap, seed=seed)
    _some_page_to_measure(compiled.tables, tables, settings)
    from sim.backends import BackendError

    try:
        report = _run_lab(compiled.tables, tables, settings, workers, backend, address,
                          show=fmt == "text", cache=not no_cache)
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    show_report(report, fmt, _print_sim)
    if html is not None:
        _write_sim_html(report, html, tables, compiled)
    if check:
        missed = [(kind, r) for kind, rows in (("enemy", report["enemies"]),
                                               ("page", report["pages"]))
                  for r in rows if r["target_met"] is False]
        for kind, row in missed:
            click.echo(f"目標から外れています: {_against_target(kind, row)}", err=True)
        if missed:
            sys.exit(EXIT_CONTENT)
        unjudged = report["settings"].get("page_targets_unjudged")
        if unjudged:
            from sim.report_text import UNJUDGED

            click.echo(UNJUDGED.format(n=unjudged), err=True)
        # A page with a 目標 that cannot be added is a 目標 not checked: no pass.
        capped = [r for r in report["settings"].get("beyond_cap", ()) if r["target"]]
        unjudged = (unjudged or 0) + len(capped)
        rows = [r for r in report["enemies"] + report["pages"] if r["target"] is not None]
        if not rows and not unjudged:  # a check that checked nothing is no pass
            click.echo("測ったページと敵に 目標 がありません: 確かめるものはありません。"
                       f"ページや敵に 目標 {W.measure.win_rate_delta} -5%〜+10% のように書くと"
                       "確かめられます。", err=True)
            sys.exit(EXIT_CONTENT)
        if rows and all(r["target_met"] is None for r in rows) and not unjudged:
            # a check that decided nothing is no pass either (as one of nothing)
            click.echo(f"目標 {len(rows)} 件はどれも区間が目標の端にかかり、まだ決まっていません:"
                       " --precision を小さく、--max-pairs を大きくして対を増やすと決まります。",
                       err=True)
            sys.exit(EXIT_CONTENT)
        if rows:
            # An interval that still straddles a bound is no miss, and no pass either: say so.
            open_ = sum(r["target_met"] is None for r in rows)
            click.echo(f"目標 {len(rows)} 件: 外れたものはありません。" + (
                f"うち {open_} 件は区間が目標の端にかかり、まだ決まっていません（--precision を"
                "小さく、--max-pairs を大きくして対を増やすと決まります）。" if open_ else ""),
                err=True)
        if unjudged:  # what was asked is only part checked: no pass (as a run that ran nothing)
            how = [] if unjudged == len(capped) else ["--enemy と --baseline を外して測ると確かめます"]
            if capped:
                from sim.lab import cap_said

                for r in capped:
                    cap, lift = cap_said(r["cap_written"], r["cap"])
                    how.append(f"{r['name']} {r['id']} は{cap} に達していて1枚加えられません（{lift}）")
            click.echo(f"ページの目標 {unjudged} 件は確かめていないので、--check は成功にしません。"
                       + "。".join(how) + "。", err=True)
            sys.exit(EXIT_CONTENT)


def _some_page_to_measure(literal, tables, settings) -> None:
    """Exit 1, saying why, when every page named is one the lab leaves out (a copy more
    would break its 上限枚数): a report of no page read 「見込み 約 None 組」 and a baseline
    of 0 battles, and exited 0 having measured nothing."""
    if settings.pages is None:
        return
    from sim.lab import Lab

    lab = Lab(literal, tables, settings)
    capped = lab.beyond_cap()
    if capped and not lab.pool():
        from sim.report_text import beyond_cap_line

        click.echo(beyond_cap_line({"settings": {"beyond_cap": capped}}), err=True)
        click.echo("測れるページがないので、何も測っていません。", err=True)
        sys.exit(EXIT_CONTENT)


def _names_a_path(word: str) -> bool:
    """Whether a --page or --tune word names a file or a folder: it holds a / or ends in
    .page, which an id never does."""
    return word.endswith(".page") or "/" in word or os.sep in word


def _pages_at(word: str, tables, content: Path) -> list[str]:
    """The ids of the pages written in the file ``word`` (or under the folder), in the
    order they are written; a usage error when it names nothing of the content that
    defines a page."""
    root = content.resolve().parent  # the pages' source paths start at the content folder
    hint = f"（{content} のページのファイルかフォルダを、相対パスかフルパスで指定してください）"
    try:
        wanted = Path(word).resolve()
        there = wanted.exists()
    except RuntimeError:  # Python 3.11 says a symlink loop so
        raise click.UsageError(f"{word} はたどれません（シンボリックリンクが輪になっています）{hint}") \
            from None
    except OSError as exc:
        raise click.UsageError(f"{word} を確かめられません: {why(exc)}{hint}") from None
    ids = [page.id for page in sorted(tables.pages.values(),
                                      key=lambda p: (p.source.path, p.source.line))
           if wanted in _and_folders((root / page.source.path).resolve())]
    if not ids:
        said = "というファイルもフォルダもありません" if not there else "にはページがありません"
        raise click.UsageError(f"{word} {said}{hint}")
    return ids


def _and_folders(path: Path) -> set[Path]:
    """A file and every folder it lies in: what a --page path may name it by."""
    return {path, *path.parents}


def _pages_of_files(words, tables, content: Path) -> list[str]:
    """``words`` for --page: each that names a file or a folder replaced by the pages
    written there (``_pages_at``)."""
    return [page for word in words
            for page in (_pages_at(word, tables, content) if _names_a_path(word) else [word])]


def _targeted(words, tables, content: Path) -> list[str]:
    """``words`` for --tune: each that names a file or a folder replaced by the pages
    written there that state a 目標 (the others have nothing to tune toward); a usage
    error when none does."""
    out: list[str] = []
    for word in words:
        if not _names_a_path(word):
            out.append(word)
            continue
        aimed = [page for page in _pages_at(word, tables, content)
                 if tables.pages[page].target is not None]
        if not aimed:
            from sim.tune import example_target

            raise click.UsageError(f"{word} のページには 目標 がありません。調整するには、"
                                   f"ページに「{example_target('page')}」のように書いてください")
        out += aimed
    return out


def _against_target(kind: str, row: dict) -> str:
    """A report row against its 目標, in --tune's words (sim.tune ``shown`` and ``band``):
    「ページ 終電の残業 zangyou Δ -20.1 [-25.0, -15.2] pt ／ 目標 勝率差 -10%〜+15%」."""
    from sim.stats import Interval
    from sim.tune import Measure, Subject, band, shown

    subject = Subject(kind, row["id"], row["name"], row["target"]["low"], row["target"]["high"])
    figure = row["delta" if kind == "page" else "win_rate"]
    measured = Measure(Interval(figure["estimate"], figure["low"], figure["high"]), 0)
    what = "ページ" if kind == "page" else "敵"
    return f"{what} {row['name']} {row['id']} {shown(measured, subject)} ／ {band(subject)}"


def _reference(given: str | None, baseline_page: str | None, tables) -> str | None:
    """The page each page is swapped for: --reference as given, none for なし (unless a
    page has that id), else the balance's 基準ページ — but not beside --baseline, which
    measures the whole report swapped already."""
    if given == NO_REFERENCE and given not in tables.pages:
        return None
    if given is None and baseline_page is None:
        return tables.balance.reference
    return given


def _run_lab(literal, tables, settings, workers, backend, address, show: bool,
             cache: bool = True) -> dict:
    """The lab run with the results cache (sim/cache.py); ``cache`` False reads none of it
    and keeps this run's results (``--no-cache``)."""
    from sim.cache import ResultCache
    from sim.lab import Outcome

    results = ResultCache.open(literal, Outcome._make, Outcome._fields)
    results.refresh = not cache
    try:
        return _run_with_progress(literal, tables, settings, workers, backend, address, show,
                                  results)
    finally:
        results.close()


def _run_with_progress(literal, tables, settings, workers, backend, address, show: bool,
                       results) -> dict:
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
                # The whole run as planned now (Lab.plan): the enemy rows, every rung and the
                # swap phase, the baseline played ahead — not the main policy's pages alone.
                battles, _ = lab.plan()
                click.echo(f"見込み: 精度 ±{settings.precision * 100:g} pt まで測るとページあたり約 "
                           f"{lab.estimate} 組、全体で約 {battles:,} 戦（判定の決まったページは"
                           "そこで止めるので、たいていこれより少なくなります）", err=True)

        lab = Lab(literal, tables, settings, workers=workers, backend=backend,
                  address=address, progress=say_estimate, cache=results)
        return lab.run()
    from sim.progress import RunBar, lab_details

    with RunBar(console, unit="戦") as bar:
        def progress(step) -> None:
            bar.show(step.done, step.planned, step.basis, label=step.phase,
                     details=lab_details(lab, settings.precision))

        lab = Lab(literal, tables, settings, workers=workers, backend=backend,
                  address=address, progress=progress, cache=results)
        return lab.run()


def _print_sim(report: dict) -> None:
    from rich.console import Console

    from contract.vocabulary import W
    from sim.render_text import Prose
    from sim.report_text import (enemies_table, observed_lines, observed_table, pages_table,
                                 summary_lines)

    # Piped into a file or a pager, the tables keep their width rather than 80 columns.
    console = Console(no_color=not use_color(sys.stdout), highlight=False,
                      width=None if sys.stdout.isatty() else 200)
    settings = report["settings"]
    reference = settings.get("reference")
    swapped = "" if reference is None else (
        f"、{W.balance.reference} "
        f"{(settings.get('page_names') or {}).get(reference, reference)}（入れ替えの相手）")
    console.print(Prose(
        f"方針 {' < '.join(PLAYER_NAMES.get(p, p) for p in settings['ladder'])}、精度 ±{settings['precision'] * 100:g} pt まで"
        "（判定の決まったページはそこで止めます）、"
        f"{W.scope.turn}上限 {settings['turn_cap']}、シード {settings['seed']}〜、"
        f"見込み 約 {report['run']['pairs_estimate']} 組/ページ{swapped}"))
    console.print(enemies_table(report))
    console.print(pages_table(report))
    console.print(observed_table(report))
    for line in observed_lines(report) + summary_lines(report):
        console.print(Prose(line))


def _write_sim_html(report: dict, out: Path, tables, compiled) -> None:
    """The report with plots; a catalog beside it (generated/catalog for generated/sim) is
    rendered again so that its pages link to their rows."""
    from catalog.render import example_views, write
    from commands.outputs import neighbour
    from sim.report_html import write_report

    catalog = neighbour(out, "sim", "catalog", rendered=True)  # generated/ only
    try:
        index = write_report(report, out)
        if catalog is not None:
            from commands.print_pdf import DEFAULT_NAME
            from printing.links import printed

            views = example_views(compiled.examples, compiled.sources, compiled.shown)
            links, older = printed(out.parent / "print" / DEFAULT_NAME, catalog, tables)
            write(tables, catalog, views, sim_report=index, lab_report=report,
                  printed=links, printed_older=older)
    except OSError as exc:
        raise click.ClickException(f"{out} に報告を書けません: {why(exc)}") from None
    click.echo(f"報告: {index.resolve().as_uri()}", err=True)
    if catalog is not None:
        click.echo(f"カタログ {catalog / 'index.html'} のページから報告へリンクしました。", err=True)
