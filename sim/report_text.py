"""報告（端末） — the lab's report as the terminal shows it: the enemies, the pages sorted by
Δ win rate, what pairing saved, and what deserves a look (targets missed, verdicts that
change with the policy). The tables are data — their columns — drawn by sim/render_text.py.

Designer text (page and enemy names) goes into rich ``Text`` objects, never through rich's
markup parser: a name with ``[red]`` in it is printed as written.
"""

from __future__ import annotations

from rich.text import Text

from contract.vocabulary import PLAYER_NAMES, W

from . import observed, stats
from .render_text import Column, FittedTable, interval_text, number, points
from .stats import VERDICTS, target_word

VERDICT_STYLE = {"stronger": "green", "weaker": "red", "no_effect": "", "undecided": "yellow"}


#: The page table's column of the pairs whose two battles ended apart, and what it counts.
DISCORDANT = "勝ち+/−"
DISCORDANT_NOTE = (f"{DISCORDANT}: 同じシードの対のうち、ページを入れたデッキだけが勝った対（+）と、"
                   "はじめのデッキだけが勝った対（−）の数")


def target_text(row: dict, signed: bool) -> Text:
    """The target and whether it was met, or nothing."""
    target = row.get("target")
    if target is None:
        return Text("")
    met = row.get("target_met")
    style = {True: "green", False: "bold red", None: "yellow"}[met]
    return Text(f"{points(target['low'], signed)}〜{points(target['high'], signed)} "
                f"{target_word(row)}", style=style)


def _name(row: dict, settings: dict) -> Text:
    return Text(f"{row['name']} {row['id']}")


#: What the ⚑ of a page says: two rungs of the ladder whose Δ intervals do not meet
#: (stats.differ), not merely two verdict words apart.
SENSITIVE = f"方針の腕で{W.measure.win_rate}の差が変わるページ（区間が重ならない）"


def _page_verdict(row: dict, settings: dict) -> Text:
    """The verdict; a verdict another policy of the ladder does not share is marked ⚑
    with the others' verdicts."""
    verdict = Text(VERDICTS[row["verdict"]], style=VERDICT_STYLE[row["verdict"]])
    if row["policy_sensitive"]:
        others = " ".join(f"{PLAYER_NAMES.get(p, p)}:{VERDICTS[v]}" for p, v in row["verdicts_by_policy"].items()
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
    Column(f"Δ{W.measure.win_rate} pt [95%]", "right",
           lambda row, _: interval_text(row["delta"]) + stats.wider(row)),
    Column(DISCORDANT, "right", lambda row, _: f"+{row['discordant']['variant_only']}"
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
    return FittedTable("敵（はじめのデッキで）", ENEMY_COLUMNS, tuple(report["enemies"]),
                       report["settings"])


def pages_table(report: dict) -> FittedTable:
    """One row per page, the strongest first, fitted to the terminal."""
    settings = report["settings"]
    page = settings["baseline_page"]
    how = ("1 枚足したとき" if page is None
           else f"「{(settings.get('page_names') or {}).get(page, page)}」と入れ替えたとき")
    rows = sorted(report["pages"], key=lambda r: (-r["delta"]["estimate"], r["id"]))
    return FittedTable(
        f"ページ（はじめのデッキに{how}の{W.measure.win_rate}の差、方針 {PLAYER_NAMES.get(settings['policy'], settings['policy'])}）",
        PAGE_COLUMNS, tuple(rows), settings)


#: The pages the lab leaves out: a copy more would break their 上限枚数 (E055).
BEYOND_CAP = "デッキに入れられる枚数の上限に達していて1枚加えられないので、測っていないページ: "
#: Why a run with --enemy or --baseline leaves the pages' 目標 alone (sim.lab
#: ``judges_page_targets``); ``--check`` says it too.
UNJUDGED = ("ページの目標 {n} 件は判定していません: 目標は、すべての敵を相手に 1 枚加えた時の"
            f"{W.measure.win_rate_delta}です（--enemy で敵を絞るか --baseline で入れ替えた今回の"
            "測定とは別の数）")


def summary_lines(report: dict) -> list[Text]:
    """What pairing saved, the baseline, and what to look at."""
    lines = []
    base = report["baseline"]
    lines.append(Text(f"はじめのデッキの{W.measure.win_rate}: {interval_text(base['win_rate'], signed=False)} %"
                      f"（{base['battles']} 戦）"))
    gains = sorted(r["pairing_gain"] for r in report["pages"] if r["pairing_gain"])
    if gains:
        median = stats.median(gains)
        lines.append(Text(f"対にした効果: 同じ精度を独立な試行で得るには中央値で ×{median:.1f} の"
                          f"戦数が要ります（ページごとに ×{gains[0]:.1f}〜×{gains[-1]:.1f}）"))
    counts = {v: sum(r["verdict"] == v for r in report["pages"]) for v in VERDICTS}
    lines.append(Text("判定: " + "、".join(f"{VERDICTS[v]} {n}" for v, n in counts.items())))
    wider = wider_note(report)
    if wider:
        lines.append(Text(wider))
    dead = [r for r in report["pages"]
            if "never_played" in ((r.get("observed") or {}).get("flags") or ())]
    if dead:
        lines.append(Text(f"引いても一度も出さなかったページ（死に札）: {_named(dead)}",
                          style="yellow"))
    sensitive = [r for r in report["pages"] if r["policy_sensitive"]]
    if sensitive:
        lines.append(Text(f"{SENSITIVE}: {_named(sensitive)}",
                          style="magenta"))
    missed = [r for r in report["enemies"] + report["pages"] if r["target_met"] is False]
    if missed:
        lines.append(Text(f"目標から外れたもの: {_named(missed)}", style="bold red"))
    unjudged = report["settings"].get("page_targets_unjudged")
    if unjudged:
        lines.append(Text(UNJUDGED.format(n=unjudged), style="yellow"))
    capped = beyond_cap_line(report)
    if capped:
        lines.append(Text(capped, style="yellow"))
    undecided = [r for r in report["enemies"] + report["pages"]
                 if r["target"] is not None and r["target_met"] is None]
    if undecided:
        lines.append(Text(f"精度が足りず目標を判定できないもの: {_named(undecided)}",
                          style="yellow"))
    lines.append(Text(f"戦闘 {report['run']['battles']:,} 回"))
    return lines


def wider_note(report: dict) -> str | None:
    """What the † beside a Δ interval means, with the levels of this report's (None: none
    is wider than 95%)."""
    levels = sorted({r["delta_confidence"] for r in report["pages"] if stats.wider(r)})
    if not levels:
        return None
    return stats.WIDER_NOTE.format(levels="・".join(f"{level * 100:.1f}%" for level in levels))


def beyond_cap_line(report: dict) -> str | None:
    """The pages the lab left out, a copy more breaking their 上限枚数, as one line (None:
    none) — the terminal's and the HTML report's."""
    capped = report["settings"].get("beyond_cap")
    if not capped:
        return None
    from .lab import cap_said

    return BEYOND_CAP + "、".join(
        f"{r['name']} {r['id']}（{cap_said(r.get('cap_written', True), r['cap'])[0]}、"
        f"はじめのデッキに {r['in_deck']} 枚）" for r in capped)


def _named(rows: list[dict]) -> str:
    """Pages or enemies as the tables and --tune name them: 「終電の残業 zangyou、…」."""
    return "、".join(f"{r['name']} {r['id']}" for r in rows)


# ------------------------------------------------------------ observed figures


def _rate_cell(key: str):
    """A group's win rate with its interval and how many battles it is over."""
    def cell(row: dict, _) -> str:
        group = (row.get("observed") or {}).get(key) or {}
        if group.get("win_rate") is None:
            return "—（0）"
        return f"{interval_text(group['win_rate'], signed=False)}（{group['battles']}）"
    return cell


def _observed_interval(key: str, shown=lambda i: interval_text(i)):
    def cell(row: dict, _) -> str:
        value = (row.get("observed") or {}).get(key)
        return "—" if value is None else shown(value)
    return cell


def _mean_text(interval: dict) -> str:
    return (f"{interval['estimate']:.2f} "
            f"[{interval['low']:.2f}, {interval['high']:.2f}]")


def _flags(row: dict, _) -> Text:
    codes = (row.get("observed") or {}).get("flags") or []
    return Text("、".join(observed.FLAGS.get(c, c) for c in codes), style="yellow")


def _swap(row: dict, _) -> str:
    swap = row.get("swap_delta")
    return "—" if swap is None else interval_text(swap["delta"])


#: The observed table's headers: each figure's words (sim.observed.LABELS) broken into
#: short lines, so the table fits a terminal; joined again they are the words.
HEADS = {
    "delta": f"加えた時の\n{W.measure.win_rate_delta}（因果:\n取るか見送るか）",
    "swap_delta": f"入れ替えた時の\n{W.measure.win_rate_delta}（因果:\n枚数そのまま）",
    "drawn": f"引いた試合\nの{W.measure.win_rate}",
    "improvement": "引いた時の差\n（観測）",
    "opening": "初手にあった\n試合",
    "later": "後から引いた\n試合",
    "not_drawn": "引かなかった\n試合",
    "play_rate": "出した\n回数/戦",
    "held_unplayable": f"出せずに{W.region.hand}に\nあった{W.scope.turn}",
    "damage_per_step": f"{W.variable.steps}あたり\nダメージ",
}


def _head(key: str, unit: str) -> str:
    return f"{HEADS[key]}\n{unit}"


def _delta_head(settings: dict) -> str:
    """Δ's header: the words of ``observed.delta_label`` broken into short lines."""
    if settings.get("baseline_page") is None:
        return _head("delta", "pt [95%]")
    swapped, _, rest = observed.delta_label(settings).partition("と入れ替えた時の")
    rest = rest.replace("（因果: ", "（因果:\n")
    return f"{swapped}と\n入れ替えた時の\n{rest}\npt [95%]"


def observed_columns(settings: dict) -> tuple[Column, ...]:
    """The observed table's columns: the causal Δ first (added, or swapped for the
    ``--baseline`` page), then what was seen; the swap Δ only when a reference page was
    named."""
    columns = [
        Column("ページ", "left", _name, wraps=True),
        Column(_delta_head(settings), "right",
               lambda row, _: interval_text(row["delta"]) + stats.wider(row)),
    ]
    if settings.get("reference") is not None:
        columns.append(Column(_head("swap_delta", "pt [95%]"), "right", _swap, gives_way=2))
    columns += [
        Column(_head("drawn", "% [95%]（戦数）"), "right", _rate_cell("drawn")),
        Column(_head("improvement", "pt [95%]"), "right", _observed_interval("improvement"),
               gives_way=1),
        Column(_head("opening", "% [95%]（戦数）"), "right", _rate_cell("opening"), gives_way=4),
        Column(_head("later", "% [95%]（戦数）"), "right", _rate_cell("later"), gives_way=5),
        Column(_head("not_drawn", "% [95%]（戦数）"), "right", _rate_cell("not_drawn"),
               gives_way=3),
        Column(_head("play_rate", "[95%]"), "right",
               _observed_interval("play_rate", _mean_text), gives_way=6),
        Column(_head("held_unplayable", "[95%]"), "right",
               _observed_interval("held_unplayable", _mean_text), gives_way=7),
        Column(_head("damage_per_step", "[95%]"), "right",
               _observed_interval("damage_per_step", _mean_text), gives_way=8),
        Column(observed.LABELS["flags"], "left", _flags, wraps=True, gives_way=2),
    ]
    return tuple(columns)


def observed_table(report: dict) -> FittedTable:
    """One row per page (the order of the Δ table): the figures designers read first,
    beside the causal Δ."""
    settings = report["settings"]
    rows = sorted(report["pages"], key=lambda r: (-r["delta"]["estimate"], r["id"]))
    return FittedTable(
        f"ページの観測した数字（そのページを入れたデッキの戦闘で見たもの。原因ではありません。"
        f"方針 {PLAYER_NAMES.get(settings['policy'], settings['policy'])}）", observed_columns(settings), tuple(rows), settings)


def observed_lines(report: dict) -> list[Text]:
    """What the page table's 勝ち+/− and the observed table's flags mean, and how to get
    the swap Δ."""
    lines = [Text(DISCORDANT_NOTE)] if report["pages"] else []
    seen = {c for r in report["pages"] for c in (r.get("observed") or {}).get("flags") or []}
    for code in observed.FLAGS:
        if code in seen:
            lines.append(Text(f"{observed.FLAGS[code]}: {observed.FLAG_NOTES[code]}",
                              style="yellow"))
    settings = report["settings"]
    # Under --baseline every Δ is a swap already (and --reference is refused with it).
    if settings.get("reference") is None and settings.get("baseline_page") is None \
            and report["pages"]:
        lines.append(Text(f"{observed.LABELS['swap_delta']}は --reference ページ "
                          f"（はじめのデッキのページ）か、バランスの {W.balance.reference} で測れます。"))
    return lines
