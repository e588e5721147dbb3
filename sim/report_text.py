"""報告（端末） — the lab's report as the terminal shows it: the enemies, the pages sorted by
Δ win rate, what pairing saved, and what deserves a look (targets missed, verdicts that
change with the policy).

Designer text (page and enemy names) goes into rich ``Text`` objects, never through rich's
markup parser: a name with ``[red]`` in it is printed as written.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from contract.vocabulary import W

from . import stats
from .stats import TARGET_WORDS, VERDICTS

VERDICT_STYLE = {"stronger": "green", "weaker": "red", "no_effect": "", "undecided": "yellow"}


def points(value: float | None, signed: bool = True) -> str:
    """A fraction as percentage points with one decimal ("+2.1")."""
    if value is None:
        return "—"
    return f"{value * 100:+.1f}" if signed else f"{value * 100:.1f}"


def interval_text(interval: dict, signed: bool = True) -> str:
    """"+2.1 [−0.4, +4.6]" (points)."""
    return (f"{points(interval['estimate'], signed)} "
            f"[{points(interval['low'], signed)}, {points(interval['high'], signed)}]")


def number(value: float | None, places: int = 2) -> str:
    """A figure or a dash."""
    return "—" if value is None else f"{value:.{places}f}"


def target_text(row: dict, signed: bool) -> Text:
    """The target and whether it was met, or nothing."""
    target = row.get("target")
    if target is None:
        return Text("")
    met = row.get("target_met")
    style = {True: "green", False: "bold red", None: "yellow"}[met]
    return Text(f"{points(target['low'], signed)}〜{points(target['high'], signed)} "
                f"{TARGET_WORDS[met]}", style=style)


def enemies_table(report: dict) -> Table:
    """One row per enemy (or per stage sequence)."""
    table = Table(title="敵（はじめの自分紀で）", title_justify="left")
    for header, justify in (("敵", "left"), ("戦数", "right"), (f"{W.measure.win_rate} % [95%]", "right"),
                            ("勝つまで", "right"), ("失HP", "right"), ("被ダメ/T", "right"),
                            ("突破勝ち", "right"), ("目標 %", "left")):
        table.add_column(header, justify=justify, no_wrap=True)
    for row in report["enemies"]:
        table.add_row(Text(f"{row['name']} {row['id']}"), str(row["battles"]),
                      interval_text(row["win_rate"], signed=False),
                      "—" if row["turns_to_win"] is None else f"{row['turns_to_win']:.1f} T",
                      number(row["hp_lost"], 1), number(row["damage_taken_per_turn"], 1),
                      "—" if row["breakthrough_share"] is None
                      else f"{row['breakthrough_share'] * 100:.0f}%",
                      target_text(row, signed=False))
    return table


def pages_table(report: dict) -> Table:
    """One row per page, the strongest first. A verdict that another policy of the
    ladder does not share is marked ⚑ with the others' verdicts."""
    settings = report["settings"]
    how = ("1 枚足したとき" if settings["baseline_page"] is None
           else f"{settings['baseline_page']} と入れ替えたとき")
    table = Table(title=f"ページ（はじめの自分紀に{how}の{W.measure.win_rate}の差、方針 {settings['policy']}）",
                  title_justify="left")
    for header, justify in (("ページ", "left"), (W.variable.year, "right"), ("組", "right"),
                            (f"Δ{W.measure.win_rate} pt [95%]", "right"), ("勝ち+/−", "right"),
                            ("出した/戦", "right"), ("ダメ/回", "right"), (f"ダメ/{W.variable.steps}", "right"),
                            ("破る/戦", "right"), ("ペン/戦", "right"), ("判定", "left"),
                            ("目標 pt", "left")):
        table.add_column(header, justify=justify, no_wrap=True)
    rows = sorted(report["pages"], key=lambda r: (-r["delta"]["estimate"], r["id"]))
    main = settings["policy"]
    for row in rows:
        verdict = Text(VERDICTS[row["verdict"]], style=VERDICT_STYLE[row["verdict"]])
        if row["policy_sensitive"]:
            others = " ".join(f"{p}:{VERDICTS[v]}" for p, v in row["verdicts_by_policy"].items()
                              if p != main)
            verdict.append(f" ⚑ {others}", style="magenta")
        table.add_row(
            Text(f"{row['name']} {row['id']}"), str(row["year"]), str(row["pairs"]),
            interval_text(row["delta"]),
            f"+{row['discordant']['variant_only']}/−{row['discordant']['baseline_only']}",
            number(row["play_rate"]), number(row["damage_per_play"], 1),
            number(row["damage_per_step"]), number(row["tears_per_battle"]),
            number(row["pens_per_battle"]), verdict, target_text(row, signed=True))
    return table


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
