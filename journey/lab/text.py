"""旅の測定の報告（端末） — ``jibunki journey report`` as the terminal shows it: a head line
saying what was measured, then one table of how winnable each variant is and how often
the player wins at each budget, one of its thinking load, and the ranking by load of the
variants that meet their 目標. The tables are data — their columns — drawn to the
terminal's width by the labs' shared sim/render_text.py.

Designer text (set-up and item names) goes into rich ``Text`` objects, never through
rich's markup parser.
"""

from __future__ import annotations

from rich.text import Text

from contract import vocabulary as vocab
from contract.vocabulary import W
from sim.render_text import Column, FittedTable, interval_text, number

from . import load, measure


def head_lines(report: dict) -> list[str]:
    """What the report measured, in a line or two."""
    s = report["settings"]
    last = s["seed"] + s["seeds"] - 1
    pairs = f"、アイテムの組は {s['pair_seeds']} 局" if s.get("pairs") and "pair_seeds" in s else ""
    lines = [f"旅の測定: シード {s['seed']}〜{last}（変種ごとに {s['seeds']} 局{pairs}）、"
             f"解く: 山の順を知って {s['nodes']:,} 局面まで{measure.solver_budgets(s)}、"
             f"{W.report.blind_player}: 決定ごとに {'・'.join(map(str, s['budgets']))} 通りの山を想定、"
             f"{W.report.contenders} = 最善の評価から {s['margin']:g} 点以内"]
    ladder = s.get("ladder") or {}
    if ladder.get("decisions"):
        lines.append(f"{W.report.ladder}: {W.report.solver}が勝った配りの最善の筋から 1 局 "
                     f"{ladder['decisions']} 決定まで、"
                     f"最善の証明に子の局面を 1 つ {ladder['child_nodes']:,}・1 局 "
                     f"{ladder['nodes']:,} 局面まで探す")
    if s.get("setups") is not None:  # --setup: the rest of the content is not measured
        lines.append(f"測った旅の準備: {'、'.join(s['setups'])}（--setup で選んだものだけ。"
                     "順位もこの中でのものです）")
    if report["missing"]:
        lines.append(f"内容にない準備（測っていません）: {'、'.join(report['missing'])}")
    return lines


#: What the tables' words mean, printed under them.
NOTES = (f"{W.report.winnable} %: 勝ち筋が見つかった配りの割合（{W.report.solver}が予算内に見つけたか、"
         f"{W.report.blind_player}が勝った配り。{W.report.undecided}は数えないので下限）。"
         f"可/否/{W.report.undecided}: 勝ち筋あり／不可能と証明／予算切れ。"
         + measure.BEST_SCORES_NOTE +
         f"解決数: {W.report.blind_player}（いちばん多い想定）が 1 局で解決した物語の数の平均。",
         "決定: 選択肢が 2 つ以上の場面。うちいつでも: そのうち、進むかレターやアイテムをいま使うかだけの"
         "決定（アイテムが立っている間やレターを持つ間は場面ごとに出ます）。"
         f"{W.report.contenders}: 打ち手の評価で最善から余裕以内の選択肢（最善を含む）。"
         "差のつく決定: 余裕より悪い選択肢がある決定。")


def label(row: dict, settings: dict | None = None) -> Text:
    """The variant as the tables name it (measure.label), as designer text."""
    return Text(measure.label(row))


def _top(row: dict) -> dict | None:
    """The games of the largest budget: the thinking-load figures are read from them."""
    return row["players"][-1] if row["players"] else None


def _rate(index: int):
    return lambda row, _: interval_text(row["players"][index]["win_rate"], signed=False)


def outcome_columns(budgets: list[int]) -> tuple[Column, ...]:
    """クリア可能な配り (solver) and the player's win rate per budget. On a narrow terminal
    the counts, the scores and the stories resolved give way, in that order."""
    return (
        Column("変種", "left", label, wraps=True),
        Column(f"{W.report.winnable} % [95%]", "right",
               lambda row, _: interval_text(row["solver"]["winnable"], signed=False)),
        Column(f"可/否/{W.report.undecided}", "right", lambda row, _: "/".join(
            str(row["solver"][k]) for k in ("won", "lost", "unknown")), gives_way=3),
        Column("最高点 中央 [範囲]", "right", lambda row, _: measure.best_scores(row["solver"]),
               gives_way=2),
        *(Column(f"{W.measure.win_rate} {b}想定 % [95%]", "right", _rate(i))
          for i, b in enumerate(budgets)),
        Column("解決数", "right", lambda row, _: number(_top(row) and _top(row)["resolved"], 1),
               gives_way=1),
    )


def _share(row: dict, _) -> str:
    share = row["players"][-1]["mattering_share"]
    return "—" if share is None else f"{share * 100:.0f}"


def _load(key: str):
    return lambda row, _: number(row["players"][-1].get(key), 1)


#: 思考負荷: decisions, options, contenders, and turns, of the largest budget's games. On a
#: narrow terminal the turns, then the decisions per game give way.
LOAD_COLUMNS = (
    Column("変種", "left", label, wraps=True),
    Column("手番", "right", _load("turns"), gives_way=2),
    Column("決定/局", "right", _load("decisions_per_game"), gives_way=1),
    Column("うちいつでも/局", "right", _load("free_use_per_game"), gives_way=1),
    Column("選択肢/決定", "right", _load("options_per_decision")),
    Column(f"{W.report.contenders}/決定", "right", _load("contenders_per_decision")),
    Column("差のつく決定 %", "right", _share, gives_way=3),
)


def ladder_columns(budgets: list[int]) -> tuple[Column, ...]:
    """思考の段: the share of the decided decisions at each rung, 未決, the decisions per
    game that need more than a look-ahead, and where those fall. On a narrow terminal the
    blind player's rungs give way first, then the halves, then 未決 (without which the
    shares cannot be read)."""
    rungs = load.rungs_of(budgets)
    return (
        Column("変種", "left", label, wraps=True),
        *(Column(rung.name, "right", lambda row, _, i=i: load.rung_cell(row, i),
                 gives_way=1 if rung.kind == "blind" else 0) for i, rung in enumerate(rungs)),
        Column(W.report.undecided, "right", lambda row, _: load.undecided_cell(row), gives_way=3),
        Column("先読み超/局 [95%]", "right", lambda row, _: load.beyond_cell(row)),
        Column("前半・後半", "right", lambda row, _: load.halves_cell(row), gives_way=2),
    )


def ladder_table(report: dict) -> FittedTable | None:
    """思考の段 of each variant whose won deals were climbed; None when the report has no
    ladder (``--ladder 0``)."""
    rows = tuple(r for r in report["variants"] if r.get("load") is not None)
    if not rows:
        return None
    settings = report["settings"]
    return FittedTable(f"{W.report.ladder}（{W.report.solver}の筋から 1 局 "
                       f"{settings['ladder']['decisions']} 決定まで）",
                       ladder_columns(settings["budgets"]), rows, settings)


def outcome_table(report: dict) -> FittedTable:
    """クリア可能な配り (solver) and the player's win rate per budget, one row a variant."""
    settings = report["settings"]
    return FittedTable(f"クリア（山の順を知る{W.report.solver}）と{W.measure.win_rate}"
                       f"（{W.report.blind_player}）",
                       outcome_columns(settings["budgets"]), tuple(report["variants"]),
                       settings)


def load_table(report: dict) -> FittedTable:
    """思考負荷 of each variant played at the largest budget."""
    budgets = report["settings"]["budgets"]
    return FittedTable(f"思考負荷（{budgets[-1]}想定の打ち手の局から）" if budgets else "思考負荷",
                       LOAD_COLUMNS, tuple(r for r in report["variants"] if r["players"]),
                       report["settings"])


#: What the progress bar and the run's last line count: a deal solved, a game played at
#: one budget, a won line climbed.
WORK = "作業"


def run_line(report: dict) -> str:
    """How the run went: its deals, and the work they took — each deal solved once and
    played at each budget, the won lines climbed — done now or read from the results cache
    (journey/lab/cache.py). The work is what the progress bar counts (作業)."""
    run = report["run"]
    deals = sum(row["solver"]["won"] + row["solver"]["lost"] + row["solver"]["unknown"]
                for row in report["variants"])
    parts = [f"解く {deals:,}", f"遊ぶ {run['tasks'] - deals:,}"]
    if run.get("climbs"):
        parts.append(f"段の評価 {run['climbs']:,}")
    return (f"配り {deals:,} 件（{WORK} {run['tasks'] + run.get('climbs', 0):,}: "
            f"{'・'.join(parts)}。今回 {run['played']:,}、キャッシュから {run['cached']:,}）")


# ------------------------------------------------------------------ 目標 and the ranking

#: The styles of the statuses in the terminal (the battle lab's).
STATUS_STYLE = {"met": "green", "missed": "bold red", "undecided": "yellow"}


def against_target(row: dict, budgets: list[int]) -> str:
    """A variant's win rate against its 目標: 「勝率 4想定 37.5 [13.7, 69.4] % ／ 目標 勝率
    30%〜70%」."""
    said = vocab.MEASURE_OF["setup"].said_range(row["target"]["low"], row["target"]["high"])
    if not row["players"]:
        return said
    rate = interval_text(row["players"][-1]["win_rate"], signed=False)
    return f"{W.measure.win_rate} {budgets[-1]}想定 {rate} % ／ {said}"


def ranking_lines(report: dict) -> list[Text]:
    """The ranking under the tables: the variants that meet their 目標, lightest first
    (measure.rivals_of), then those not yet decided and those that missed. One line when no
    set-up states a 目標."""
    entries = report.get("ranking", [])
    if not entries:
        return [Text(f"{W.target}: {W.target}を書いた旅の準備がないので、順位はつけていません。")]
    rows = {row["id"]: row for row in report["variants"]}
    budgets = report["settings"]["budgets"]
    lines = [Text(f"{W.target}の判定: {measure.judged_by(report)}の 95% 区間が{W.target}の内側なら"
                  f"{measure.STATUS_WORDS['met']}、まったく外なら{measure.STATUS_WORDS['missed']}、"
                  f"端にかかれば{measure.STATUS_WORDS['undecided']}。")]
    met = [e for e in entries if e["status"] == "met"]
    if met:
        lines.append(Text(f"{W.target}を満たす変種（思考負荷の軽い順。"
                          f"{measure.LOAD_LABEL}: {measure.LOAD_NOTE}）:"))
        width = max(len(str(len(met))), 1)
        for entry in met:
            row = rows[entry["id"]]
            line = Text(f"  {entry['rank']:>{width}}. ")
            line.append(measure.label(row), style="bold")
            line.append(f" — {number(entry['load'], 1)}（{against_target(row, budgets)}）")
            lines.append(line)
    else:
        lines.append(Text(f"{W.target}を満たす変種はまだありません。", style="yellow"))
    undecided = [rows[e["id"]] for e in entries if e["status"] == "undecided"]
    if undecided:  # many with few seeds: one line, the names only
        line = Text(f"{measure.STATUS_WORDS['undecided']}（区間が{W.target}の端にかかる、"
                    f"{len(undecided)} 件）: ", style=STATUS_STYLE["undecided"])
        line.append("、".join(measure.label(row) for row in undecided))
        lines.append(line)
        needed = [(e["seeds_to_decide"], rows[e["id"]]["group"] == measure.PAIR_GROUP)
                  for e in entries if e["status"] == "undecided"]
        known = [(n, pair) for n, pair in needed if n is not None]
        if known:
            left_out = "（判定できる数が見込めないものを除く）" if len(known) < len(needed) else ""
            # the variants' deals and the item pairs' are set apart (--deals, --pair-deals)
            said = "、".join(
                f"{_span([n for n, p in known if p == pair])} 局（{option}）"
                for pair, option in ((False, "--deals"), (True, "--pair-deals"))
                if any(p == pair for _, p in known))
            lines.append(Text(f"  今の{W.measure.win_rate}のままなら、変種ごとに {said}"
                              f"で判定できます{left_out}。"))
    for entry in (e for e in entries if e["status"] == "missed"):
        line = Text(f"{measure.STATUS_WORDS['missed']}（区間がまったく{W.target}の外）: ",
                    style=STATUS_STYLE["missed"])
        line.append(measure.label(rows[entry["id"]]))
        line.append(f"（{against_target(rows[entry['id']], budgets)}）")
        lines.append(line)
    return lines


def _span(numbers: list[int]) -> str:
    """``numbers`` as a count or, when they differ, the range of them (35, 35〜120)."""
    low, high = min(numbers), max(numbers)
    return f"{low:,}" if low == high else f"{low:,}〜{high:,}"
