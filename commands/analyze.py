"""``jibunki analyze`` — what each page can set off, before any battle (analysis/): each
作用 as written, the events it produces with the 作用 that listen to them, what sets it
off; then the findings (W006 …) with their codes. ``--witness DIR`` writes the example
that sets each loop off (W006), one file per item.

The compiler and the analysis are imported inside the command: this module is loaded on
every start.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from commands.checked import named_ids, print_diagnostics
from contract.vocabulary import PLAYER_NAMES, W
from commands.common import CONTENT_FOLDER, DEFAULT_CONTENT, EXIT_CONTENT, EXIT_OK, OutFolder, why

#: The suffix of a witness file (a 例 of jibunki test).
WITNESS_SUFFIX = ".witness.scenario"


@click.command()
@click.argument("ids", nargs=-1, metavar="[ID|名前]...")
@click.option("--content", type=CONTENT_FOLDER,
              default=None, help="解析するコンテンツのフォルダ（既定: content/）。")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: 誘発グラフ・項目ごとの一覧・所見を JSON で出します。")
@click.option("--witness", type=OutFolder(), default=None,
              help="終わりのない連鎖（W006）を起こす例を、項目ごとに "
                   f"<id>{WITNESS_SUFFIX} としてこのフォルダに書きます（なければ作ります）。")
@click.option("--play", "battles", type=click.IntRange(0, 100_000), default=0,
              metavar="N", help=f"名前を挙げたページごとに N 戦（{W.player.random}の打ち手、はじめのデッキ＋1 枚）"
                               f"して、{W.region.hand}にあるときに出せた割合と、出せなかったときに"
                               "いちばん多く止めた条件を測ります（0: 測らない）。")
def analyze(ids: tuple[str, ...], content: Path | None, fmt: str,
            witness: Path | None, battles: int) -> None:
    """ページが何を起こすかを解析します。

    バトルの前に、作用の文面だけから、ページが何を起こし、何に起こされるかを示します。
    ID|名前（ページか敵の id か名前）を省くとコンテンツ全体を解析します。作用ごとに、起こす出来事と
    それを待つ作用、その作用を起こすものを示し、最後に所見（W006 終わりのない作用の連鎖、
    W009 何も起こさないタイミング など）をコード付きで挙げます。ページには、
    jibunki sim --html の報告があればその出した回数/戦を、--play N なら N 戦で測った
    出せる割合と止めた条件を添えます。

    終了コード:
    0 解析できた（所見はあってもよい）
    1 コンテンツにエラー
    2 使い方の誤り"""
    from analysis.content import Content
    from analysis.findings import findings
    from analysis.graph import build
    from compiler.lint import check

    folder = content or DEFAULT_CONTENT
    if not folder.is_dir():
        raise click.UsageError(f"{folder}/ がありません。--content でコンテンツのフォルダを指定してください")
    result = check([folder], project=folder)
    if any(d.is_error for d in result.diagnostics):
        if fmt == "json":  # the diagnostics as lint --format json gives them: a reader of
            from dsl.diagnostics import to_json  # JSON got the terminal's text

            click.echo(to_json(result.diagnostics))
        else:
            print_diagnostics(result.diagnostics, result.sources, result.files)
        click.echo("コンテンツにエラーがあるので解析しませんでした。", err=True)
        sys.exit(EXIT_CONTENT)
    analysed = Content.of_model(result.model)
    ids = tuple(named_ids("ページ・敵", ids, {**analysed.pages, **analysed.enemies}))
    graph = build(analysed)
    found = findings(analysed, graph)
    items = _items(analysed, ids)
    named_pages = [item for kind, item in items if kind == "page"] if ids else []
    if battles and not named_pages:
        # --play measures pages only: with an enemy alone it measured nothing, exit 0
        raise click.UsageError("--play は測るページの id と一緒に指定してください（敵は測れません。"
                               "例: jibunki analyze hatsukoi --play 200）")
    measured = _measured(result, named_pages, battles)
    lab = _lab_play_rates(result.tables)
    found = _shown(found, ids, graph)
    if fmt == "json":
        views = [{**_item_view(graph, kind, item),
                  **({"measured": measured[item]} if item in measured else {}),
                  **({"lab_play_rate": lab[item]} if kind == "page" and item in lab else {})}
                 for kind, item in items]
        click.echo(json.dumps({"graph": graph.to_dict(), "items": views,
                               "findings": [f._asdict() for f in found]},
                              ensure_ascii=False, indent=2))
    else:
        shown = _place_shown(folder)
        for kind, item in items:
            _say_item(graph, analysed, kind, item, measured.get(item),
                      lab.get(item) if kind == "page" else None, shown)
        _say_findings(found, analysed, shown)
    if witness is not None:
        _write_witnesses(witness, found, folder)
    sys.exit(EXIT_OK)


def _items(content, ids) -> list[tuple[str, str]]:
    """The items shown: the named ones in order, else every page then every enemy."""
    if ids:
        return [("page" if i in content.pages else "enemy", i) for i in dict.fromkeys(ids)]
    return [("page", i) for i in content.pages] + [("enemy", i) for i in content.enemies]


def _shown(found, ids, graph) -> list:
    """The findings about the named items: each reported at one item, and a loop's (W006)
    about every item one of its 作用 belongs to, those that refill what it takes too — the
    page that keeps a loop going is as much in it as the one it is reported at."""
    if not ids:
        return list(found)
    wanted = set(ids)
    nodes = graph.graph.nodes
    return [f for f in found if f.item in wanted or wanted & {
        nodes[n]["item"] for n in (*f.data.get("chain", ()), *f.data.get("feeders", ()))
        if n in nodes}]


def _item_view(graph, kind: str, item: str) -> dict:
    """One item's 作用, each with what it sets off and what sets it off (JSON)."""
    return {"kind": kind, "id": item, "effects": [
        {"node": node, "label": graph.label(node),
         "sets_off": [{"event": e, "listeners": ls} for e, ls in graph.sets_off(node)],
         "set_off_by": [{"event": e, "producers": ps, "pages": graph.named_pages(e)}
                        for e, ps in graph.set_off_by(node)]}
        for node in graph.effects(kind, item)]}


def _measured(result, pages: list[str], battles: int) -> dict[str, dict]:
    """Each page's playability over ``battles`` seeded battles (sim/blocking.py), as plain
    data; none when ``battles`` is 0."""
    if not battles or not pages:
        return {}
    from runtime.tables import from_dicts
    from sim.blocking import measure

    tables = from_dicts(result.tables)
    return {page: measure(tables, page, seeds=range(battles)).to_dict() for page in pages}


def _lab_play_rates(literal: dict) -> dict[str, dict]:
    """page id → its plays per battle and policy in the balance lab's last report
    (``jibunki sim --html`` leaves it in generated/sim/), when there is one and it measured
    this very content (``literal``, its compiled tables): a report of the content before
    an edit, or of another content folder, says nothing of these pages."""
    from commands.common import DEFAULT_GENERATED
    from commands.compile import measured_other
    from sim.report_html import read_report

    report = read_report(DEFAULT_GENERATED / "sim")
    if report is None or measured_other(report, literal):
        return {}
    policy = report.get("settings", {}).get("policy")
    return {row["id"]: {"play_rate": row.get("play_rate"), "policy": policy,
                        "pairs": row.get("pairs")}
            for row in report.get("pages", []) if isinstance(row, dict) and "id" in row}


def _say_measured(measured: dict | None, lab: dict | None) -> None:
    """The page's play rate in the lab's last report and as measured here (--play)."""
    if lab is not None and lab.get("play_rate") is not None:
        policy = PLAYER_NAMES.get(lab["policy"], lab["policy"])
        click.echo(f"  実験室の報告（{policy}、{lab['pairs']} 組）: "
                   f"出した {lab['play_rate']:.2f} 回/戦")
    if measured is None:
        return
    click.echo(f"  測定（{W.player.random}の打ち手、{measured['battles']} 戦、はじめのデッキ＋1 枚）: "
               f"出した {measured['plays_per_battle']:.2f} 回/戦、{W.region.hand}にあった判断 "
               f"{measured['decisions']} 回のうち出せたのは {measured['playable_share']:.1%}")
    top = measured["top_blocker"]
    if top is not None:
        click.echo(f"    いちばん多く止めたもの: {top['blocker']}（出せなかった判断の {top['share']:.1%}）")
    for side, held in measured["sides"].items():
        blank = held.get("blank", 0)
        written = held["decisions"] - blank
        said = f"    {getattr(W.face, side)}: 発動する面だった判断 {held['decisions']} 回"
        if blank:
            said += f"（うち白紙 {blank} 回）"
        if written:
            said += f"、{'書かれていた判断で' if blank else ''}条件が揃ったのは {held['share']:.1%}"
        click.echo(said)


def _place_shown(folder: Path):
    """How the terminal says a source's path (the tables keep it relative to the content
    folder's parent, the same bytes wherever it lies): as lint says a place, from the
    working folder, so that ``path:line`` opens from where the command ran."""
    from compiler.read import display_path

    root = folder.resolve().parent
    return lambda path: display_path(root / path)


def _say_item(graph, content, kind: str, item: str, measured: dict | None = None,
              lab: dict | None = None, shown=None) -> None:
    thing = content.pages[item] if kind == "page" else content.enemies[item]
    click.echo(f"{'ページ' if kind == 'page' else '敵'} {item}「{thing.name}」")
    _say_measured(measured, lab)
    nodes = graph.effects(kind, item)
    if not nodes:
        click.echo("  作用なし")
    for node in nodes:
        click.echo(f"  {graph.label(node, shown).split(' ', 1)[1]}")
        for event, listeners in graph.sets_off(node):
            heard = "、".join(graph.label(n, shown) for n in listeners) or "待つ作用なし"
            click.echo(f"    起こす: {graph.label(event)} → {heard}")
        for event, producers in graph.set_off_by(node):
            pages = graph.named_pages(event)  # the rules name them (exiled after its play)
            named = f"（{', '.join(pages)} の{W.scope.play}）" if pages else ""
            by = "、".join(graph.label(n, shown) + (named if n == "rules:player" else "")
                          for n in producers) or "起こすものなし"
            click.echo(f"    起こされる: {graph.label(event)} ← {by}")
    click.echo()


def _say_findings(found, content, shown=None) -> None:
    click.echo(f"所見 {len(found)} 件")
    for f in found:
        thing = (content.pages.get(f.item) if f.kind == "page" else content.enemies.get(f.item)
                 if f.kind == "enemy" else None)
        path = thing.source.path if thing is not None else None
        where = f"{shown(path) if shown else path}:{f.line}" if path and f.line else f.item
        click.echo(f"  {f.code} {where} {f.item}: {f.message}")
        click.echo(f"    ヒント: {f.hint}")
        if f.code == "W006" and f.data.get("witness") is None and f.data.get("no_witness"):
            click.echo(f"    証拠の例なし: {f.data['no_witness']}")


def _write_witnesses(folder: Path, found, content: Path) -> None:
    """Each W006's witness, gathered by item, as ``<item>.witness.scenario`` in ``folder``
    (made when missing and there is a witness to write; a file is written whole, never
    outside the folder) — only a witness that proves its loop: played on ``content``, it
    fails on the chain the battle stopped (``_proofs``); of the others it says why not."""
    from contract import disk

    loops = [f for f in found if f.code == "W006"]
    made = [(f.item, f.data["witness"]) for f in loops if f.data.get("witness")]
    by_item: dict[str, list[str]] = {}
    for (item, text), why_not in zip(made, _proofs(content, made)):
        if why_not is None:
            by_item.setdefault(item, []).append(text)
        else:
            click.echo(f"{item} の証拠の例は書きませんでした: {why_not}", err=True)
    if not by_item:  # nothing to write: the folder is neither made nor asked for
        click.echo("書く証拠の例はありません（" + (
            f"終わりのない連鎖 {len(loops)} 件のどれも、例で起こせません: 理由は上の"
            "「証拠の例なし」か「書きませんでした」）。"
            if loops else "終わりのない連鎖は見つかりませんでした）。"), err=True)
        return
    try:
        disk.make_folder(folder)
    except OSError as exc:
        raise click.ClickException(f"{folder}/ を作れません（{why(exc)}）") from None
    kept = []
    for item, texts in by_item.items():
        path = folder / f"{item}{WITNESS_SUFFIX}"
        text = signed("\n".join(texts))
        if _edited(path):
            kept.append(path)
            continue
        try:
            disk.write(path, text, inside=folder, replace=True)
        except OSError as exc:
            raise click.ClickException(f"{path} を書けません（{why(exc)}）") from None
        click.echo(f"証拠の例を書きました: {path}", err=True)
    if kept:
        raise click.ClickException(
            "次の証拠の例は書いたあとに手が入っているので上書きしませんでした: "
            + "、".join(map(str, kept)) + "。消すか別の名前に移してから、もう一度実行してください")


def _proofs(content: Path, witnesses: list[tuple[str, str]]) -> list[str | None]:
    """For each (item, text) witness, played with ``jibunki test`` on ``content``: None
    when it fails on the chain the battle had to stop (it proves the loop), else why it
    does not (Japanese) — a step the rules refuse before the loop begins, or a chain that
    ends within the step in this example (a loop that needs two copies of a page)."""
    import tempfile

    from scenario.run import CHAIN_STOPPED
    from scenario.stage import lint

    if not witnesses:
        return []
    with tempfile.TemporaryDirectory() as scratch:
        paths = [Path(scratch) / f"{i}{WITNESS_SUFFIX}" for i in range(len(witnesses))]
        for path, (_, text) in zip(paths, witnesses):
            path.write_text(text, encoding="utf-8")
        played = {Path(r.path).name: r for r in lint(paths, [content], project=content).examples}
    said = []
    for path in paths:
        outcome = played.get(path.name)
        if outcome is None:
            said.append("例を実行できませんでした")
        elif any(f.message.startswith(CHAIN_STOPPED) for f in outcome.failures):
            said.append(None)
        elif outcome.passed:
            said.append("この例では連鎖が 1 手のうちに終わります（ページ 1 枚では回らない連鎖かもしれません）")
        else:
            said.append(f"例が連鎖に届く前に止まります（{outcome.failures[0].message}）")
    return said


#: The first line of a witness file: what wrote it, and the digest of what follows, so that
#: a witness as written can be written again (the content changed) and one the designer
#: edited is never overwritten.
SIGNATURE = "# jibunki analyze --witness が書いた例（手を入れると、次からは上書きしません） {digest}"


def _digest(body: str) -> str:
    import hashlib

    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def signed(body: str) -> str:
    """A witness's text: its signature line, then ``body``."""
    return SIGNATURE.format(digest=_digest(body)) + "\n" + body


def _edited(path: Path) -> bool:
    """Whether a file is at ``path`` that is not a witness as analyze wrote it (no
    signature, or a body that no longer matches it: the designer's edit, or another
    file): it is never overwritten."""
    if not path.is_file() or path.is_symlink():  # none, or one disk.write refuses itself
        return False
    try:
        head, _, body = path.read_text(encoding="utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        return True
    return head != SIGNATURE.format(digest=_digest(body))
