"""旅の測定の報告（端末） — ``jibunki journey report`` as the terminal shows it: a head line
saying what was measured, then one table of how winnable each variant is and how often
the player wins at each budget, and one of its thinking load.

Designer text (set-up and item names) goes into rich ``Text`` objects, never through
rich's markup parser.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from contract.vocabulary import W
from sim.report_text import interval_text, number

from . import measure


def head_lines(report: dict) -> list[str]:
    """What the report measured, in a line or two."""
    s = report["settings"]
    last = s["seed"] + s["seeds"] - 1
    lines = [f"旅の測定: シード {s['seed']}〜{last}（変種ごとに {s['seeds']} 局）、"
             f"解く: 山の順を知って {s['nodes']:,} 局面まで、"
             f"山を見ない打ち手: 決定ごとに {'・'.join(map(str, s['budgets']))} 通りの山を想定、"
             f"迷う選択肢 = 最善の評価から {s['margin']:g} 点以内"]
    if report["missing"]:
        lines.append(f"内容にない準備（測っていません）: {'、'.join(report['missing'])}")
    return lines


#: What the tables' words mean, printed under them.
NOTES = ("クリア可能 %: 解き手が予算内に勝ち筋を見つけた配りの割合（未決は数えないので下限）。"
         "可/否/未決: 勝ち筋あり／不可能と証明／予算切れ。",
         "決定: 選択肢が 2 つ以上の場面。迷う選択肢: 打ち手の評価で最善から余裕以内の選択肢（最善を含む）。"
         "差のつく決定: 余裕より悪い選択肢がある決定。")


def label(row: dict) -> Text:
    """The variant as the tables name it (measure.label), as designer text."""
    return Text(measure.label(row))


def _scores(solver: dict) -> str:
    scores = solver["scores"]
    if not scores:
        return "—"
    return f"{solver['median_score']:g} [{scores[0]}〜{scores[-1]}]"


def outcome_table(report: dict) -> Table:
    """クリア可能な配り (solver) and the player's win rate per budget."""
    table = Table(title=f"クリア（山の順を知る解き手）と{W.measure.win_rate}（山を見ない打ち手）",
                  title_justify="left")
    budgets = report["settings"]["budgets"]
    for header, justify in (("変種", "left"), ("クリア可能 % [95%]", "right"),
                            ("可/否/未決", "right"), ("最高点 中央 [範囲]", "right"),
                            *((f"{W.measure.win_rate} {b}想定 % [95%]", "right") for b in budgets),
                            ("解決数", "right")):
        table.add_column(header, justify=justify, no_wrap=True)
    for row in report["variants"]:
        solver = row["solver"]
        top = row["players"][-1] if row["players"] else None
        table.add_row(
            label(row), interval_text(solver["winnable"], signed=False),
            f"{solver['won']}/{solver['lost']}/{solver['unknown']}", _scores(solver),
            *(interval_text(p["win_rate"], signed=False) for p in row["players"]),
            number(top["resolved"], 1) if top else "—")
    return table


def load_table(report: dict) -> Table:
    """思考負荷: decisions, options, contenders, and turns, of the largest budget's games."""
    budgets = report["settings"]["budgets"]
    table = Table(title=f"思考負荷（{budgets[-1]}想定の打ち手の局から）" if budgets else "思考負荷",
                  title_justify="left")
    for header in ("変種", "手番", "決定/局", "選択肢/決定", "迷う選択肢/決定", "差のつく決定 %"):
        table.add_column(header, justify="left" if header == "変種" else "right", no_wrap=True)
    for row in report["variants"]:
        if not row["players"]:
            continue
        top = row["players"][-1]
        share = top["mattering_share"]
        table.add_row(label(row), number(top["turns"], 1), number(top["decisions_per_game"], 1),
                      number(top["options_per_decision"], 1),
                      number(top["contenders_per_decision"], 1),
                      "—" if share is None else f"{share * 100:.0f}")
    return table
