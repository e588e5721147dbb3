"""報告（端末） — the lab's report as the terminal shows it: the enemies, the pages sorted by
Δ win rate, what pairing saved, and what deserves a look (targets missed, verdicts that
change with the policy). The tables are data — their columns — drawn by sim/render_text.py.

Designer text (page and enemy names) goes into rich ``Text`` objects, never through rich's
markup parser: a name with ``[red]`` in it is printed as written.
"""

from __future__ import annotations

from rich.text import Text

from contract.vocabulary import W

from . import stats
from .render_text import Column, FittedTable, interval_text, number, points
from .stats import TARGET_WORDS, VERDICTS

VERDICT_STYLE = {"stronger": "green", "weaker": "red", "no_effect": "", "undecided": "yellow"}


def target_text(row: dict, signed: bool) -> Text:
    """The target and whether it was met, or nothing."""
    target = row.get("target")
    if target is None:
        return Text("")
    met = row.get("target_met")
    style = {True: "green", False: "bold red", None: "yellow"}[met]
    return Text(f"{points(target['low'], signed)}〜{points(target['high'], signed)} "
                f"{TARGET_WORDS[met]}", style=style)


def _name(row: dict, settings: dict) -> Text:
    return Text(f"{row['name']} {row['id']}")


def _page_verdict(row: dict, settings: dict) -> Text:
    """The verdict; a verdict another policy of the ladder does not share is marked ⚑
    with the others' verdicts."""
    verdict = Text(VERDICTS[row["verdict"]], style=VERDICT_STYLE[row["verdict"]])
    if row["policy_sensitive"]:
        others = " ".join(f"{p}:{VERDICTS[v]}" for p, v in row["verdicts_by_policy"].items()
                          if p != settings["policy"])
        verdict.append(f" ⚑ {others}", style="magenta")
    return verdict


#: 敵の表: one row per enemy (or per stage sequence).
ENEMY_COLUMNS = (
    Column("敵", "left", _name, wraps=True),
    Column("戦数", "right", lambda row, _: str(row["battles"]), gives_way=5),
    Column(f"{W.measure.win_rate} % [95%]", "right",
           lambda row, _: interval_text(row["win_rate"], signed=False)),
    Column("勝つまで", "right", lambda row, _: "—" if row["turns_to_win"] is None
           else f"{row['turns_to_win']:.1f} T", gives_way=2),
    Column("失HP", "right", lambda row, _: number(row["hp_lost"], 1), gives_way=3),
    Column("被ダメ/T", "right", lambda row, _: number(row["damage_taken_per_turn"], 1),
           gives_way=4),
    Column("突破勝ち", "right", lambda row, _: "—" if row["breakthrough_share"] is None
           else f"{row['breakthrough_share'] * 100:.0f}%", gives_way=6),
    Column("目標 %", "left", lambda row, _: target_text(row, signed=False), gives_way=1),
)

#: ページの表: one row per page. What a designer reads first stays (name, Δ win rate
#: with its interval, verdict), then the target and the year; the counts give way first.
PAGE_COLUMNS = (
    Column("ページ", "left", _name, wraps=True),
    Column(W.variable.year, "right", lambda row, _: str(row["year"]), gives_way=2),
    Column("組", "right", lambda row, _: str(row["pairs"]), gives_way=5),
    Column(f"Δ{W.measure.win_rate} pt [95%]", "right", lambda row, _: interval_text(row["delta"])),
    Column("勝ち+/−", "right", lambda row, _: f"+{row['discordant']['variant_only']}"
           f"/−{row['discordant']['baseline_only']}", gives_way=9),
    Column("出した/戦", "right", lambda row, _: number(row["play_rate"]), gives_way=3),
    Column("ダメ/回", "right", lambda row, _: number(row["damage_per_play"], 1), gives_way=4),
    Column(f"ダメ/{W.variable.steps}", "right", lambda row, _: number(row["damage_per_step"]),
           gives_way=6),
    Column("破る/戦", "right", lambda row, _: number(row["tears_per_battle"]), gives_way=7),
    Column("ペン/戦", "right", lambda row, _: number(row["pens_per_battle"]), gives_way=8),
    Column("判定", "left", _page_verdict, wraps=True),
    Column("目標 pt", "left", lambda row, _: target_text(row, signed=True), gives_way=1),
)


def enemies_table(report: dict) -> FittedTable:
    """One row per enemy (or per stage sequence), fitted to the terminal."""
    return FittedTable("敵（はじめの自分紀で）", ENEMY_COLUMNS, tuple(report["enemies"]),
                       report["settings"])


def pages_table(report: dict) -> FittedTable:
    """One row per page, the strongest first, fitted to the terminal."""
    settings = report["settings"]
    how = ("1 枚足したとき" if settings["baseline_page"] is None
           else f"{settings['baseline_page']} と入れ替えたとき")
    rows = sorted(report["pages"], key=lambda r: (-r["delta"]["estimate"], r["id"]))
    return FittedTable(
        f"ページ（はじめの自分紀に{how}の{W.measure.win_rate}の差、方針 {settings['policy']}）",
        PAGE_COLUMNS, tuple(rows), settings)


def summary_lines(report: dict) -> list[Text]:
    """What pairing saved, the baseline, and what to look at."""
    lines = []
    base = report["baseline"]
    lines.append(Text(f"はじめの自分紀の{W.measure.win_rate}: {interval_text(base['win_rate'], signed=False)} %"
                      f"（{base['battles']} 戦）"))
    gains = sorted(r["pairing_gain"] for r in report["pages"] if r["pairing_gain"])
    if gains:
        median = stats.median(gains)
        lines.append(Text(f"対にした効果: 同じ精度を独立な試行で得るには中央値で ×{median:.1f} の"
                          f"戦数が要ります（ページごとに ×{gains[0]:.1f}〜×{gains[-1]:.1f}）"))
    counts = {v: sum(r["verdict"] == v for r in report["pages"]) for v in VERDICTS}
    lines.append(Text("判定: " + "、".join(f"{VERDICTS[v]} {n}" for v, n in counts.items())))
    sensitive = [r["id"] for r in report["pages"] if r["policy_sensitive"]]
    if sensitive:
        lines.append(Text(f"方針の腕で判定が変わるページ: {', '.join(sensitive)}",
                          style="magenta"))
    missed = [r["id"] for r in report["enemies"] + report["pages"] if r["target_met"] is False]
    if missed:
        lines.append(Text(f"目標から外れたもの: {', '.join(missed)}", style="bold red"))
    undecided = [r["id"] for r in report["enemies"] + report["pages"]
                 if r["target"] is not None and r["target_met"] is None]
    if undecided:
        lines.append(Text(f"精度が足りず目標を判定できないもの: {', '.join(undecided)}",
                          style="yellow"))
    lines.append(Text(f"戦闘 {report['run']['battles']:,} 回"))
    return lines
