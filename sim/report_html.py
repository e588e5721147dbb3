"""模擬戦の報告 — ``write_report``: the ``--html`` page of a ``jibunki sim`` report.

The report is the plain dict ``jibunki sim`` makes (format ``jibunki-sim-report 1``); the
page shows its settings, a forest plot of every page's Δ win rate, each enemy's win rate
and the HP lost per battle against it, and the tables of the numbers. One ``index.html``
that opens straight from disk: CSS inline, the plots inline SVG, nothing fetched.

This module is the page's data — its settings, plots and the columns of its two tables;
the labs' shared renderer (sim/render_html.py: one Jinja2 environment, the shared layout and
numbers table, the plots' settings and the atomic write) draws it. Designer text is data,
escaped by Jinja2, by ``Markup.format`` and by matplotlib. The same report gives the same
bytes. jinja2 and matplotlib are imported only when a report is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from contract import disk
from contract.vocabulary import PLAYER_NAMES, W

from . import observed, stats
from .report_text import SENSITIVE, beyond_cap_line, wider_note
from .lab import FORMAT  # the report format this page reads (its ``format`` field)
from .render_html import (NONE, RC, WIDTH, HtmlColumn, _signed, svg_element, check_format,
                          number, numbers_table, percent, percent_interval, plotting,
                          points, render_page, report_json, write_page)

__all__ = ["FORMAT", "RC", "VERDICTS", "read_report", "render_report",
           "write_report"]

TEMPLATES = Path(__file__).with_name("templates")


@dataclass(frozen=True)
class Look:
    """How a verdict or a target's state is shown: its word, and its colour and marker
    in the plots."""

    word: str
    colour: str
    marker: str


#: verdict code → how it is shown (colours told apart by marker too).
VERDICTS = {
    "stronger": Look(stats.VERDICTS["stronger"], "#1a7f37", "o"),
    "weaker": Look(stats.VERDICTS["weaker"], "#c92a2a", "s"),
    "no_effect": Look(stats.VERDICTS["no_effect"], "#5c677d", "D"),
    "undecided": Look(stats.VERDICTS["undecided"], "#e67700", "^"),
}
UNKNOWN_VERDICT = Look("?", "#868e96", "x")

#: A target's state (``target_state``) → how it is shown. Undecided: the interval
#: crosses an edge of the target (``target_met`` null).
TARGET_STATES = {
    "met": Look(stats.TARGET_WORDS[True], "#1a7f37", "s"),
    "missed": Look(stats.TARGET_WORDS[False], "#c92a2a", "X"),
    "undecided": Look(stats.TARGET_WORDS[None], "#e67700", "^"),
    "none": Look("目標なし", "#1c7ed6", "o"),
}

#: mode → how the settings line says it.
MODES = {"pool": "敵プール（1戦に1体）", "stages": f"連戦（敵を順に{W.scope.stage}として）"}

# --------------------------------------------------------------------- numbers


def _points_of(rate: float | None) -> str:
    return number(None if rate is None else rate * 100)


def target_state(item: dict) -> str:
    """``met``, ``missed`` or ``undecided`` for a page or enemy with a target; ``none``
    without one."""
    if not item.get("target"):
        return "none"
    return {True: "met", False: "missed"}.get(item.get("target_met"), "undecided")


def _target(item: dict, shown) -> dict | None:
    state = target_state(item)
    if state == "none":
        return None
    low, high = item["target"]["low"], item["target"]["high"]
    return {"range": f"[{shown(low)}, {shown(high)}]", "met": stats.target_word(item),
            "class": state}


def _verdict(code: str) -> Look:
    return VERDICTS.get(code, UNKNOWN_VERDICT)


# ------------------------------------------------------------------------ views


def _policies(pages: list[dict], ladder: list[str]) -> list[str]:
    """The policies the pages have verdicts under: the ladder's order, then the others."""
    found = {p for page in pages for p in page.get("verdicts_by_policy") or {}}
    return [p for p in ladder if p in found] + sorted(found - set(ladder))


def _word(code: str | None) -> str:
    if code is None:
        return NONE
    return VERDICTS[code].word if code in VERDICTS else code


def _deck(ids: list[str], names: dict[str, str]) -> list[str]:
    counts: dict[str, int] = {}
    for ident in ids:
        counts[ident] = counts.get(ident, 0) + 1
    return [names.get(i, i) + (f" ×{n}" if n > 1 else "") for i, n in counts.items()]


def comparison(settings: dict, page_names: dict) -> str:
    """How each page is measured: added to the starting deck, or swapped for one copy of
    the --baseline page (by its name)."""
    page = settings.get("baseline_page")
    if page is None:
        return "はじめのデッキに 1 枚加える"
    return f"はじめのデッキの「{page_names.get(page, page)}」1 枚と入れ替える"


def _settings_view(report: dict) -> dict:
    settings, pages, enemies = report["settings"], report["pages"], report["enemies"]
    page_names = {**(settings.get("page_names") or {}), **{p["id"]: p["name"] for p in pages}}
    gains = [p["pairing_gain"] for p in pages if p.get("pairing_gain") is not None]
    baseline = report["baseline"]
    return {
        "policy": PLAYER_NAMES.get(settings["policy"], settings["policy"]),
        "ladder": " → ".join(PLAYER_NAMES.get(p, p) for p in settings.get("ladder") or []),
        "mode": MODES.get(settings.get("mode"), settings.get("mode") or NONE),
        # the rows measured (a stage run is one row, "a→b"), each linked to its row
        "enemies": [(e["id"], e["name"]) for e in enemies]
        or [(None, e) for e in settings.get("enemies") or []],
        "deck": _deck(settings.get("baseline_deck") or [], page_names),
        "deck_size": len(settings.get("baseline_deck") or []),
        # how each page is measured (--baseline), and the page the swap Δ takes out (the
        # balance's 基準ページ, --reference): two different settings, both said by name
        "comparison": comparison(settings, page_names),
        "reference_word": W.balance.reference,
        "reference": NONE if settings.get("reference") is None
        else f"{page_names.get(settings['reference'], settings['reference'])}"
             f"（{observed.LABELS['swap_delta']}で 1 枚と入れ替える相手）",
        "precision": f"±{settings['precision'] * 100:.1f} pt",
        "max_pairs": settings["max_pairs"], "turn_cap": settings["turn_cap"],
        "seed": settings["seed"], "confidence": f"{settings['confidence'] * 100:g}%",
        "workers": settings.get("workers"),
        "baseline_battles": baseline["battles"],
        "baseline_win_rate": percent_interval(baseline["win_rate"]),
        "battles": report["run"]["battles"], "pairs_estimate": report["run"]["pairs_estimate"],
        "gain": None if not gains else {
            "median": f"{stats.median(gains):.1f}",
            "low": f"{min(gains):.1f}", "high": f"{max(gains):.1f}"},
    }


def _verdict_counts(pages: list[dict]) -> list[tuple[str, str, int]]:
    counts = {code: 0 for code in VERDICTS}
    for page in pages:
        if page["verdict"] in counts:
            counts[page["verdict"]] += 1
    return [(code, VERDICTS[code].word, n) for code, n in counts.items()]


# ------------------------------------------------------------------------ plots


def _interval_rows(ax, rows: list[dict], scale: float) -> None:
    """Points with horizontal error bars (``estimate``, ``low``, ``high``, ``colour``,
    ``marker``) and each row's target band, top to bottom."""
    for y, row in enumerate(rows):
        if row["target"] is not None:
            low, high = row["target"]["low"] * scale, row["target"]["high"] * scale
            ax.barh(y, high - low, left=low, height=0.8, color="#d3f9d8", zorder=0,
                    label="_target")
        est, low, high = (row["interval"][k] * scale for k in ("estimate", "low", "high"))
        ax.errorbar([est], [y], xerr=[[est - low], [high - est]], fmt=row["marker"],
                    color=row["colour"], markersize=5, elinewidth=1.4, capsize=2.5,
                    zorder=3)
    ax.set_yticks(range(len(rows)), [row["label"] for row in rows])
    for label, row in zip(ax.get_yticklabels(), rows):
        label.set_url(row["url"])
    ax.set_ylim(len(rows) - 0.5, -0.5)  # the first row on top
    ax.grid(axis="x", color="#e9ecef", zorder=0)
    ax.set_axisbelow(True)


def _legend(ax, entries: list[tuple[str, str, str]], target: bool) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Line2D([], [], color=colour, marker=marker, linestyle="", label=label)
               for label, colour, marker in entries]
    if target:
        handles.append(Patch(color="#d3f9d8", label="目標範囲"))
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=5,
              frameon=False, fontsize=8, borderaxespad=0.3)


def forest_plot(pages: list[dict]) -> str:
    """Δ win rate of every page with its interval, the strongest on top: colour and marker
    by verdict, a line at 0, each page's target band; labels link to the table rows."""
    from matplotlib.figure import Figure

    rows = sorted(pages, key=lambda p: (-p["delta"]["estimate"], p["id"]))
    fig = Figure(figsize=(WIDTH, 1.1 + 0.24 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    _interval_rows(ax, [{
        "interval": p["delta"], "target": p.get("target"),
        "colour": _verdict(p["verdict"]).colour, "marker": _verdict(p["verdict"]).marker,
        "label": p["name"] + (" ＊" if p.get("policy_sensitive") else ""),
        "url": f"#page-{p['id']}",
    } for p in rows], scale=100)
    ax.axvline(0, color="#212529", linewidth=1, zorder=2)
    ax.set_xlabel(f"Δ{W.measure.win_rate}（pt）: このページを入れたデッキ − はじめのデッキ")
    counts = {code: sum(p["verdict"] == code for p in rows) for code in VERDICTS}
    _legend(ax, [(f"{v.word}（{counts[code]}）", v.colour, v.marker)
                 for code, v in VERDICTS.items()],
            target=any(p.get("target") for p in rows))
    return svg_element(fig, "forest")


def win_rate_plot(enemies: list[dict], baseline: dict) -> str:
    """Win rate against each enemy with its interval and target band; the overall win
    rate of the baseline deck as a dashed line."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 1.2 + 0.3 * len(enemies)), layout="constrained")
    ax = fig.add_subplot()
    _interval_rows(ax, [{
        "interval": e["win_rate"], "target": e.get("target"),
        "colour": TARGET_STATES[target_state(e)].colour,
        "marker": TARGET_STATES[target_state(e)].marker,
        "label": e["name"], "url": f"#enemy-{e['id']}",
    } for e in enemies], scale=100)
    ax.axvline(baseline["estimate"] * 100, color="#495057", linestyle="--", linewidth=1,
               zorder=2)
    ax.set_xlim(-2, 102)  # a rate of 0 or 100% shows its whole marker
    ax.set_xlabel(f"{W.measure.win_rate}（%）　破線: はじめのデッキ全体の{W.measure.win_rate}")
    present = {target_state(e) for e in enemies}
    _legend(ax, [(("目標" + look.word) if state != "none" else look.word, look.colour,
                  look.marker) for state, look in TARGET_STATES.items() if state in present],
            target=any(e.get("target") for e in enemies))
    return svg_element(fig, "winrate")


def damage_plot(enemies: list[dict]) -> str:
    """HP lost per battle against each enemy: one step histogram each (the share of its
    battles), on one shared axis, the mean as a line."""
    from matplotlib.figure import Figure

    top = max([hp for e in enemies for hp, _ in e["damage_taken"]] + [1])
    width = max(1, math.ceil(top / 40))
    edges = list(range(0, top + 2 * width, width))
    columns = 1 if len(enemies) < 4 else 2
    rows = math.ceil(len(enemies) / columns)
    fig = Figure(figsize=(WIDTH, 0.7 + 1.05 * rows), layout="constrained")
    grid = fig.subplots(rows, columns, sharex=True, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(enemies):]:
        ax.set_axis_off()  # an odd count leaves one cell empty
    for ax, enemy in zip(axes, enemies):
        pairs = enemy["damage_taken"]
        total = sum(n for _, n in pairs)
        ax.set_title(enemy["name"], loc="left", fontsize=9, pad=2)
        ax.title.set_url(f"#enemy-{enemy['id']}")
        if total:
            ax.hist([hp for hp, _ in pairs], bins=edges,
                    weights=[100 * n / total for _, n in pairs], histtype="stepfilled",
                    color="#a5d8ff", edgecolor="#1864ab", linewidth=1)
        else:
            ax.text(0.5, 0.5, "データなし", transform=ax.transAxes, ha="center",
                    va="center", color="#868e96")
        if enemy.get("hp_lost") is not None and total:
            ax.axvline(enemy["hp_lost"], color="#c92a2a", linewidth=1)
        ax.tick_params(labelsize=7, labelbottom=True)
        ax.set_ylabel("%", fontsize=7, rotation=0, labelpad=8)
    axes[0].set_xlim(0, edges[-1])
    fig.supxlabel("1戦で失ったHP（縦軸: その敵との戦闘に占める割合 %、赤線: 平均）", fontsize=9)
    return svg_element(fig, "damage")


def _plots(report: dict) -> dict:
    with plotting("jibunki-sim"):
        pages, enemies = report["pages"], report["enemies"]
        return {
            "forest": forest_plot(pages) if pages else None,
            "win_rate": win_rate_plot(enemies, report["baseline"]["win_rate"])
            if enemies else None,
            "damage": damage_plot(enemies) if enemies else None,
        }


# ------------------------------------------------------------------------ tables


def _markup(template: str, *values):
    from markupsafe import Markup

    return Markup(template).format(*values)  # each value escaped


def _name_cell(row: dict):
    return _markup('{}<span class="id">#{}</span>', row["name"], row["id"])


def _target_cell(shown):
    """The cell of a row's target: its range (``shown``) and whether it is met, or a dash."""
    def cell(row: dict):
        target = _target(row, shown)
        if not target:
            return NONE
        return _markup('{} <span class="{}">{}</span>', target["range"], target["class"],
                       target["met"])
    return cell


def _figure(header: str, key: str, shown=number) -> HtmlColumn:
    """A column of one figure of the row (``shown``: how it is written, ``—`` for none)."""
    return HtmlColumn(_markup(header) if "<br>" in header else header,
                      lambda row: shown(row.get(key)))


def _two(value):
    return number(value, 2)


def _by_policy(policies: list[str]):
    def cell(page: dict):
        by_policy = page.get("verdicts_by_policy") or {}
        sensitive = _markup(' <span class="sensitive" title="{}">＊</span>', SENSITIVE)
        return _markup("{}{}", " → ".join(_word(by_policy.get(p)) for p in policies),
                       sensitive if page.get("policy_sensitive") else "")
    return cell


def page_columns(policies: list[str], any_target: bool) -> list[HtmlColumn]:
    """The page table's columns, one row a page of the report."""
    shown = " → ".join(PLAYER_NAMES.get(p, p) for p in policies)
    columns = [
        HtmlColumn("ページ", _name_cell, "name"),
        _figure(f"{W.variable.year}", "year", str), _figure("組", "pairs", str),
        HtmlColumn(f"Δ{W.measure.win_rate}", lambda p: points(p["delta"]) + stats.wider(p)),
        HtmlColumn("不一致", lambda p: "{variant_only} / {baseline_only}".format(**p["discordant"]),
                   title="入れた方だけ勝った / 基準だけ勝った"),
        HtmlColumn(_markup(f"{W.measure.win_rate} %<br>（入り / 基準）"), lambda p: " / ".join(
            _points_of(p["win_rate"].get(k)) for k in ("variant", "baseline"))),
        _figure(f"{W.scope.play}<br>/戦", "play_rate", _two),
        _figure("使われた<br>戦", "played_share", percent),
        _figure(f"ダメージ<br>/{W.scope.play}", "damage_per_play"),
        _figure(f"ダメージ<br>/{W.variable.steps}", "damage_per_step", _two),
        _figure("破り<br>/戦", "tears_per_battle", _two),
        _figure("ペン<br>/戦", "pens_per_battle", _two),
        HtmlColumn("判定", lambda p: _word(p["verdict"]), lambda p: "verdict " + (
            p["verdict"] if p["verdict"] in VERDICTS else "unknown")),
        HtmlColumn(_markup("方針ごと<br>（{}）", shown) if shown else "方針ごと",
                   _by_policy(policies), "policies"),
        _figure("対の<br>効果", "pairing_gain",
                lambda gain: NONE if gain is None else f"×{gain:.1f}"),
    ]
    if any_target:
        columns.append(HtmlColumn(_markup("目標<br>（Δ pt）"), _target_cell(_signed)))
    return columns


def _observed(key: str, shown):
    """A cell of the row's observed figures (``shown``: how it is written)."""
    def cell(page: dict):
        value = (page.get("observed") or {}).get(key)
        return NONE if value is None else shown(value)
    return cell


def _group(group: dict) -> str:
    rate = group.get("win_rate")
    return (NONE if rate is None else percent_interval(rate)) + f"（{group.get('battles', 0)} 戦）"


def _mean(interval: dict) -> str:
    return f"{interval['estimate']:.2f} [{interval['low']:.2f}, {interval['high']:.2f}]"


def _flag_cell(page: dict):
    codes = (page.get("observed") or {}).get("flags") or []
    if not codes:
        return NONE
    return _markup(" ".join(['<span class="flag" title="{}">{}</span>'] * len(codes)),
                   *[part for c in codes for part in (observed.FLAG_NOTES.get(c, c),
                                                       observed.FLAGS.get(c, c))])


def observed_columns(settings: dict) -> list[HtmlColumn]:
    """The observed table's columns: the causal Δ (added, or swapped for the ``--baseline``
    page; and the swap Δ with a reference page) beside what was seen in the variant deck's
    battles."""
    L = observed.LABELS
    reference = settings.get("reference") is not None
    columns = [HtmlColumn("ページ", _name_cell, "name"),
               HtmlColumn(observed.delta_label(settings),
                          lambda p: points(p["delta"]) + stats.wider(p))]
    if reference:
        columns.append(HtmlColumn(L["swap_delta"], lambda p: NONE if p.get("swap_delta") is None
                                  else points(p["swap_delta"]["delta"])))
    columns += [
        HtmlColumn(L["drawn"], _observed("drawn", _group)),
        HtmlColumn(L["improvement"], _observed("improvement", points),
                   title=f"引いた試合の{W.measure.win_rate} − 引かなかった試合の{W.measure.win_rate}（Newcombe の区間）"),
        HtmlColumn(L["opening"], _observed("opening", _group)),
        HtmlColumn(L["later"], _observed("later", _group)),
        HtmlColumn(L["not_drawn"], _observed("not_drawn", _group)),
        HtmlColumn(L["play_rate"], _observed("play_rate", _mean)),
        HtmlColumn(L["held_unplayable"], _observed("held_unplayable", _mean),
                   title=f"引いた試合で、{W.scope.turn}の始めに{W.region.hand}にあって出せなかった{W.scope.turn}数の平均"),
        HtmlColumn(L["damage_per_step"], _observed("damage_per_step", _mean)),
        HtmlColumn(L["flags"], _flag_cell),
    ]
    return columns


#: The enemy table's columns, one row an enemy (or a stage run) of the report; the target
#: column is added when some enemy has one.
ENEMY_COLUMNS = (
    HtmlColumn("敵", _name_cell, "name"), _figure("戦闘", "battles", str),
    HtmlColumn(f"{W.measure.win_rate}", lambda e: percent_interval(e["win_rate"])),
    _figure(f"{W.quantity.won}までの<br>{W.scope.turn}", "turns_to_win"), _figure("失ったHP", "hp_lost"),
    _figure(f"被ダメージ<br>/{W.scope.turn}", "damage_taken_per_turn"),
    _figure("突破の<br>割合", "breakthrough_share", percent),
)
ENEMY_TARGET = HtmlColumn("目標", _target_cell(lambda v: f"{v * 100:.1f}%"))


# ----------------------------------------------------------------------- render


def render_report(report: dict) -> str:
    """The report as one HTML document, plots inline. Raises ValueError for a report of
    another format than ``FORMAT``."""
    check_format(report, FORMAT)
    pages = sorted(report["pages"], key=lambda p: (-p["delta"]["estimate"], p["id"]))
    policies = _policies(pages, report["settings"].get("ladder") or [])
    any_enemy_target = any(e.get("target") for e in report["enemies"])
    return render_page(
        "report.html.j2", TEMPLATES, _plots(report),
        nav=[("pages", "ページ"), ("observed", "観測"), ("enemies", "敵")],
        settings=_settings_view(report), verdicts=_verdict_counts(report["pages"]),
        any_enemy_target=any_enemy_target, beyond_cap=beyond_cap_line(report), sensitive=SENSITIVE,
        wider=wider_note(report),
        page_table=numbers_table(
            page_columns(policies, any(p.get("target") for p in pages)), pages,
            lambda _, p: f"page-{p['id']}", "page-table"),
        observed={"delta_label": observed.delta_label(report["settings"]),
                  "swap_label": observed.LABELS["swap_delta"],
                  "reference": _reference_name(report),
                  "swapped": report["settings"].get("baseline_page") is not None,
                  "notes": [(observed.FLAGS[c], observed.FLAG_NOTES[c]) for c in observed.FLAGS
                            if any(c in ((p.get("observed") or {}).get("flags") or [])
                                   for p in pages)]},
        observed_table=numbers_table(
            observed_columns(report["settings"]), pages,
            lambda _, p: f"observed-{p['id']}", "observed-table"),
        enemy_table=numbers_table(
            ENEMY_COLUMNS + ((ENEMY_TARGET,) if any_enemy_target else ()), report["enemies"],
            lambda _, e: f"enemy-{e['id']}", "enemy-table"),
    )


def _reference_name(report: dict) -> str | None:
    """The swap Δ's reference page by its name (None: no swap Δ)."""
    settings = report["settings"]
    page = settings.get("reference")
    return None if page is None else (settings.get("page_names") or {}).get(page, page)


#: The report itself beside its page, for the catalog's lab figures (read_report).
REPORT_JSON = "report.json"
#: A report of 10,000 pages is a few megabytes; a far larger file is not one.
MAX_REPORT_BYTES = 256 * 1024 * 1024


def write_report(report: dict, out_dir: Path) -> Path:
    """Write the report's page as ``out_dir/index.html`` and the report itself as
    ``out_dir/report.json`` (render_html.write_page) and return the page's path. Same
    report, same bytes.
    Errors: ValueError for a report of another format, OSError from the file system."""
    text = render_report(report)
    return write_page(out_dir, text, {REPORT_JSON: report_json(report)})


def read_report(out_dir: Path) -> dict | None:
    """The report ``write_report`` left in ``out_dir``, or None when there is none, it
    cannot be read, or it is of another format (the catalog then shows no lab figures
    rather than wrong ones)."""
    import json

    try:
        report = json.loads(disk.read_bounded(out_dir / REPORT_JSON, MAX_REPORT_BYTES))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return report if isinstance(report, dict) and report.get("format") == FORMAT else None
