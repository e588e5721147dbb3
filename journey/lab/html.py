"""旅の測定の報告（HTML） — ``write_report``: the ``--html`` page of ``jibunki journey report``.

The report is the plain dict journey/lab/measure.py makes (format ``jibunki-journey-report 1``);
the page shows its settings, three plots — winnable deals and the player's win rate per
variant with their intervals, the thinking load per variant (options and 迷う選択肢 per
decision, decisions per game), and the distribution of the solver's best scores — the
ranking by load of the variants that meet their 目標, and the tables of the numbers. One ``index.html`` that opens straight from disk: CSS inline, the
plots inline SVG, nothing fetched.

This module is the page's data — its settings, plots and the numbers table's columns; the
labs' shared renderer (sim/render_html.py: its matplotlib settings, SVG inlining with
prefixed ids, one autoescaping Jinja2 environment with the shared layout and numbers table,
and the atomic write) draws it, as it draws the battle lab's. Designer text (set-up and
item names) is data, escaped by Jinja2 and by matplotlib. The same report gives the same
bytes.
"""

from __future__ import annotations

from pathlib import Path

from contract import vocabulary as vocab
from contract.vocabulary import W

from sim.render_html import (WIDTH, HtmlColumn, svg_element, check_format, number, numbers_table,
                             percent_interval, plotting, render_page, report_json,
                             write_page)

from . import load
from .measure import (BEST_SCORES_NOTE, FORMAT, LOAD_LABEL, LOAD_NOTE, STATUS_WORDS, best_scores,
                      judged_by, label, solver_budgets)

__all__ = ["FORMAT", "render_report", "write_report"]

#: The page's template ships beside this module (pyproject's package-data).
TEMPLATES = Path(__file__).with_name("templates")

#: Colours of the plots: the solver, then the player's budgets from weakest to strongest.
SOLVER_COLOUR = "#1c7ed6"
BUDGET_COLOURS = ("#f08c00", "#e8590c", "#c92a2a", "#862e9c", "#5f3dc4")
#: The ladder's rungs, cheapest (light) to dearest (dark); the blind player's budgets
#: share one hue, and 未決 is grey.
RUNG_COLOURS = {"random": "#d3f9d8", "greedy": "#8ce99a", "lookahead": "#37b24d",
                "blind": ("#ffd8a8", "#ffa94d", "#f76707", "#d9480f", "#a61e4d"),
                "solver": "#1c7ed6"}
UNDECIDED_COLOUR = "#ced4da"


def _top(row: dict, key: str, digits: int = 1) -> str:
    """A figure of the largest budget's games (the thinking-load figures), or a dash."""
    return number(row["players"][-1].get(key) if row["players"] else None, digits)


def _mattering(row: dict) -> str:
    share = row["players"][-1]["mattering_share"] if row["players"] else None
    return "—" if share is None else f"{share * 100:.0f}%"


def _rate(index: int):
    return lambda row: percent_interval(row["players"][index]["win_rate"])


def columns(budgets: list[int]) -> list[HtmlColumn]:
    """The numbers table's columns, one row a variant of the report."""
    return [
        HtmlColumn("変種", label, "name"),
        HtmlColumn(f"{W.report.winnable} [95%]", lambda r: percent_interval(r["solver"]["winnable"])),
        HtmlColumn(f"可/否/{W.report.undecided}", lambda r: "/".join(
            str(r["solver"][k]) for k in ("won", "lost", "unknown"))),
        HtmlColumn("最高点 中央 [範囲]", lambda r: best_scores(r["solver"])),
        HtmlColumn("最善と証明", lambda r: r["solver"]["proven_best"]),
        HtmlColumn("局面/局", lambda r: number(r["solver"]["nodes"], 0)),
        *(HtmlColumn(f"{W.measure.win_rate} {b}想定 [95%]", _rate(i)) for i, b in enumerate(budgets)),
        HtmlColumn("手番", lambda r: _top(r, "turns")),
        HtmlColumn("解決数", lambda r: _top(r, "resolved")),
        HtmlColumn("決定/局", lambda r: _top(r, "decisions_per_game")),
        HtmlColumn("うちいつでも/局", lambda r: _top(r, "free_use_per_game")),
        HtmlColumn("選択肢/決定", lambda r: _top(r, "options_per_decision")),
        HtmlColumn(f"{W.report.contenders}/決定", lambda r: _top(r, "contenders_per_decision")),
        HtmlColumn("差のつく決定", _mattering),
        HtmlColumn("先読み超/局 [95%]", load.beyond_cell),
        HtmlColumn("前半・後半", load.halves_cell),
        HtmlColumn(W.report.undecided, load.undecided_cell),
    ]


def ranking_table(report: dict) -> dict | None:
    """The variants with a 目標 (measure.ranking): the ones that meet it by load, lightest
    first, then the undecided and the missed ones; None when no set-up states a 目標."""
    if not report.get("ranking"):  # no set-up states a 目標
        return None
    rows = {row["id"]: row for row in report["variants"]}
    budgets = report["settings"]["budgets"]
    entries = [{**entry, "row": rows[entry["id"]]} for entry in report["ranking"]]
    said = vocab.MEASURE_OF["setup"]
    return numbers_table([
        HtmlColumn("順位", lambda e: e["rank"] or "—"),
        HtmlColumn("変種", lambda e: label(e["row"]), "name"),
        HtmlColumn(LOAD_LABEL, lambda e: number(e["load"])),
        HtmlColumn(f"{W.target}の判定", lambda e: STATUS_WORDS[e["status"]],
                   lambda e: e["status"]),
        HtmlColumn(f"{W.measure.win_rate} {budgets[-1] if budgets else ''}想定 [95%]",
                   lambda e: percent_interval(e["row"]["players"][-1]["win_rate"])
                   if e["row"]["players"] else "—"),
        HtmlColumn(W.target, lambda e: said.said_range(e["row"]["target"]["low"],
                                                       e["row"]["target"]["high"])),
        HtmlColumn("判定に要る局", lambda e: "—" if e["seeds_to_decide"] is None
                   else f"{e['seeds_to_decide']:,}",
                   title=f"{STATUS_WORDS['undecided']}の変種: 今の{W.measure.win_rate}のままなら"
                         "判定できる局の数（--deals）"),
    ], entries, lambda index, _: f"r{index}", "ranking-table")


def outcome_plot(rows: list[dict], budgets: list[int]) -> str:
    """Per variant: the share of winnable deals and the win rate at each budget, each a
    point with its 95% interval, the variants top to bottom."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    series = [(f"{W.report.winnable}（山を知る）", SOLVER_COLOUR, "o", lambda r: r["solver"]["winnable"])]
    for i, budget in enumerate(budgets):
        series.append((f"{W.measure.win_rate} {budget}想定", BUDGET_COLOURS[i % len(BUDGET_COLOURS)], "s",
                       lambda r, i=i: r["players"][i]["win_rate"]))
    fig = Figure(figsize=(WIDTH, 1.2 + 0.32 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    spread = 0.6 / max(1, len(series))
    for k, (name, colour, marker, get) in enumerate(series):
        for y, row in enumerate(rows):
            iv = get(row)
            est, low, high = (iv[x] * 100 for x in ("estimate", "low", "high"))
            yy = y - 0.3 + spread * (k + 0.5)
            ax.errorbar([est], [yy], xerr=[[est - low], [high - est]], fmt=marker,
                        color=colour, markersize=4, elinewidth=1.2, capsize=2)
    ax.set_yticks(range(len(rows)), [label(r) for r in rows])
    for tick, i in zip(ax.get_yticklabels(), range(len(rows))):
        tick.set_url(f"#v{i}")
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-2, 102)
    ax.grid(axis="x", color="#e9ecef")
    ax.set_axisbelow(True)
    ax.set_xlabel("%（95% 区間）")
    ax.legend(handles=[Line2D([], [], color=c, marker=m, linestyle="", label=n)
                       for n, c, m, _ in series], loc="lower left", bbox_to_anchor=(0, 1.0),
              ncols=len(series), frameon=False, fontsize=8)
    return svg_element(fig, "outcome")


def load_plot(rows: list[dict]) -> str:
    """Per variant (at the largest budget): options per decision, with the 迷う選択肢
    among them, and decisions per game on a second panel."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 1.2 + 0.32 * len(rows)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True, width_ratios=(2, 1))
    ys = range(len(rows))
    tops = [r["players"][-1] for r in rows]
    left.barh(ys, [t["options_per_decision"] or 0 for t in tops], color="#d0ebff",
              edgecolor="#1864ab", label="選択肢/決定")
    left.barh(ys, [t["contenders_per_decision"] or 0 for t in tops], height=0.45,
              color="#e8590c", label=f"{W.report.contenders}/決定")
    right.barh(ys, [t["decisions_per_game"] or 0 for t in tops], color="#b2f2bb",
               edgecolor="#2b8a3e")
    left.set_yticks(list(ys), [label(r) for r in rows])
    left.set_ylim(len(rows) - 0.5, -0.5)
    left.set_xlabel("1 決定あたりの数")
    right.set_xlabel("決定/局")
    left.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2, frameon=False, fontsize=8)
    for ax in (left, right):
        ax.grid(axis="x", color="#e9ecef")
        ax.set_axisbelow(True)
    return svg_element(fig, "load")


def _rung_colour(rung: dict, blind_index: int) -> str:
    colour = RUNG_COLOURS[rung["kind"]]
    return colour[blind_index % len(colour)] if isinstance(colour, tuple) else colour


def ladder_plot(rows: list[dict]) -> str | None:
    """Per variant: its rated decisions split by rung, cheapest first, and the 未決 ones
    last, as shares of the rated decisions; None when no variant was climbed."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    climbed = [(y, r["load"]) for y, r in enumerate(rows) if r.get("load") and r["load"]["rated"]]
    if not climbed:
        return None
    rungs = climbed[0][1]["rungs"]
    fig = Figure(figsize=(WIDTH, 1.4 + 0.32 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    colours = []
    blind = 0
    for rung in rungs:
        colours.append(_rung_colour(rung, blind))
        blind += rung["kind"] == "blind"
    for y, figures in climbed:
        left = 0.0
        parts = [r["decisions"] for r in figures["rungs"]] + [figures["undecided"]]
        for part, colour in zip(parts, colours + [UNDECIDED_COLOUR]):
            width = 100 * part / figures["rated"]
            ax.barh([y], [width], left=left, color=colour, edgecolor="white", linewidth=0.5)
            left += width
    ax.set_yticks(range(len(rows)), [label(r) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.set_xlabel("測った決定の %")
    names = [r["name"] for r in rungs] + [W.report.undecided]
    ax.legend(handles=[Patch(color=c, label=n) for n, c in zip(names, colours + [UNDECIDED_COLOUR])],
              loc="lower left", bbox_to_anchor=(0, 1.0), ncols=min(4, len(names)), frameon=False,
              fontsize=8)
    return svg_element(fig, "ladder")


def score_plot(rows: list[dict]) -> str | None:
    """The solver's best score of each winnable deal: one strip per variant."""
    from matplotlib.figure import Figure

    if not any(r["solver"]["scores"] for r in rows):
        return None
    fig = Figure(figsize=(WIDTH, 1.2 + 0.32 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    for y, row in enumerate(rows):
        counts: dict[int, int] = {}
        for s in row["solver"]["scores"]:
            counts[s] = counts.get(s, 0) + 1
        if counts:
            xs = sorted(counts)
            ax.scatter(xs, [y] * len(xs), s=[18 * counts[x] for x in xs], color=SOLVER_COLOUR,
                       alpha=0.7)
    ax.set_yticks(range(len(rows)), [label(r) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.grid(axis="x", color="#e9ecef")
    ax.set_axisbelow(True)
    ax.set_xlabel(f"{W.report.solver}の最高点（VP; 点の大きさ = その点の配りの数）")
    return svg_element(fig, "scores")


def _plots(report: dict) -> dict:
    rows = report["variants"]
    budgets = report["settings"]["budgets"]
    if not rows:
        return {"outcome": None, "load": None, "ladder": None, "scores": None}
    with plotting("jibunki-journey"):
        return {"outcome": outcome_plot(rows, budgets),
                "load": load_plot(rows) if budgets else None, "ladder": ladder_plot(rows),
                "scores": score_plot(rows)}


def render_report(report: dict) -> str:
    """The report as one HTML document, plots inline. Raises ValueError for a report of
    another format than ``FORMAT``."""
    check_format(report, FORMAT)
    settings = report["settings"]
    rows = report["variants"]
    return render_page(
        "journey.html.j2", TEMPLATES, _plots(report),
        nav=[("outcome", f"クリアと{W.measure.win_rate}"), ("load", "思考負荷"), ("ladder", W.report.ladder),
             ("ranking", f"{W.target}と順位"), ("scores", "スコア"), ("numbers", "数表")],
        game=vocab.JOURNEY_TITLE, settings=settings, solver_budgets=solver_budgets(settings),
        best_scores_note=BEST_SCORES_NOTE, ladder_notes=load.NOTES,
        budgets=settings["budgets"],
        variants=len(rows), ranking=ranking_table(report), judged_by=judged_by(report),
        load_label=LOAD_LABEL, load_note=LOAD_NOTE, status_words=STATUS_WORDS, words=W.report,
        last_seed=settings["seed"] + settings["seeds"] - 1, missing=report["missing"],
        table=numbers_table(columns(settings["budgets"]), rows,
                            lambda index, _: f"v{index}"))


#: The report itself beside its page, for the editor's lens over each 旅の準備
#: (lsp/journey_lens.py).
REPORT_JSON = "journey-report.json"


def write_report(report: dict, out_dir: Path) -> Path:
    """Write the report's page as ``out_dir/index.html`` and the report itself as
    ``out_dir/journey-report.json`` (``out_dir`` created if needed; the two written as one set by
    sim.render_html.write_page) and return the page's path. Same report, same bytes."""
    return write_page(Path(out_dir), render_report(report), {REPORT_JSON: report_json(report)})
