"""実験室の数字 — a balance lab report's figures for the catalog's compare table, pool
table and enemy cards: each page's Δ 勝率 with its interval, 出した回数/戦 and 歩あたりダメージ,
each enemy's 勝率 with its interval, ターン数 and HP lost.

The report is the plain dict ``jibunki sim`` makes (format ``jibunki-sim-report 1``,
sim/lab.py), which ``jibunki sim --html`` leaves beside its page (generated/sim/
report.json) and the command that renders the catalog reads (sim.report_html.
read_report). It is read defensively: a figure that is not a finite number is shown as
none, an item the tables no longer have is left out — a stale or edited report never
breaks the catalog, and designer text in it is data like any other.
"""

from __future__ import annotations

import math

from contract import vocabulary as vocab
from contract.target import TARGET_WORDS
from contract.vocabulary import W

MINUS = "\N{MINUS SIGN}"
#: The report's mode → how the note says it (pool: each enemy alone; stages: one run).
MODES = {"pool": "敵プール", "stages": "連戦"}
NONE = "—"
#: The words of the lab's figures and flags, as the lab's own reports say them
#: (sim/observed.py's LABELS and FLAGS: the catalog does not import the lab; a test holds
#: the two the same).
LABELS = {
    "delta": f"加えた時の{W.measure.win_rate_delta}（因果: 取るか見送るか）",
    "swap_delta": f"入れ替えた時の{W.measure.win_rate_delta}（因果: 枚数そのまま）",
    "drawn": f"引いた試合の{W.measure.win_rate}",
    "improvement": "引いた時の差（観測）",
    "play_rate": "出した回数/戦",
    "flags": "注意",
}
FLAGS = {
    "never_played": "引いても一度も出さなかった",
    "long_games": "長い試合で引かれがち",
    "rarely_drawn": "引いた試合が少ない",
    "rarely_not_drawn": "引かなかった試合が少ない",
    "starter_copies": f"初期{vocab.KEYWORDS['deck'][0]}にもある",
}


def _target_met(row: dict) -> str | None:
    """The lab's word for the row's 目標 (達成 / 未達 / 未決), or None when it had none."""
    met = row.get("target_met")
    if not isinstance(row.get("target"), dict) or met not in TARGET_WORDS:
        return None
    return TARGET_WORDS[met]


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _interval(value) -> dict | None:
    if not isinstance(value, dict):
        return None
    got = {k: _number(value.get(k)) for k in ("estimate", "low", "high")}
    return None if None in got.values() else got


def _signed(value: float) -> str:
    shown = round(value * 100, 1) + 0.0  # + 0.0: no "-0.0"
    return f"{shown:+.1f}".replace("-", MINUS)


def _points(interval: dict) -> str:
    return (f"{_signed(interval['estimate'])} pt "
            f"[{_signed(interval['low'])}, {_signed(interval['high'])}]")


def _percent(interval: dict) -> str:
    return (f"{interval['estimate'] * 100:.1f}% "
            f"[{interval['low'] * 100:.1f}, {interval['high'] * 100:.1f}]")


def _shown(value: float | None, digits: int) -> str:
    return NONE if value is None else f"{value:.{digits}f}"


def _ends(key: str, interval: dict | None) -> dict:
    """Sort values of an interval: ``key_v`` (its estimate), ``key_low_v``, ``key_high_v``."""
    return {f"{key}{end}_v": interval[part] if interval else None
            for end, part in (("", "estimate"), ("_low", "low"), ("_high", "high"))}


def has_figure(pages: dict, key: str) -> bool:
    """Whether any page's figures (``figures``' ``pages``) has the interval ``key``: the
    pool table shows the column of a figure only when the report has it (an older report,
    or one without ``--reference``, keeps the table as it was)."""
    return any(f.get(f"{key}_v") is not None for f in pages.values())


def page_figures(row: dict) -> dict:
    """A page's row of the report → its figures as text and as sort values (None: none)."""
    delta = _interval(row.get("delta"))
    play, per_step = _number(row.get("play_rate")), _number(row.get("damage_per_step"))
    seen = row.get("observed") if isinstance(row.get("observed"), dict) else {}
    drawn = seen.get("drawn") if isinstance(seen.get("drawn"), dict) else {}
    drawn_rate, improvement = _interval(drawn.get("win_rate")), _interval(seen.get("improvement"))
    swap = row.get("swap_delta") if isinstance(row.get("swap_delta"), dict) else {}
    swap_delta = _interval(swap.get("delta"))
    flags = [FLAGS[c] for c in seen.get("flags") or [] if isinstance(c, str) and c in FLAGS]
    return {"delta": _points(delta) if delta else NONE,
            "drawn": _percent(drawn_rate) if drawn_rate else NONE,
            "improvement": _points(improvement) if improvement else NONE,
            "swap_delta": _points(swap_delta) if swap_delta else NONE,
            "flags": "、".join(flags) or NONE,
            **_ends("drawn", drawn_rate), **_ends("improvement", improvement),
            **_ends("swap_delta", swap_delta),
            "delta_v": delta["estimate"] if delta else None,
            "delta_low_v": delta["low"] if delta else None,
            "delta_high_v": delta["high"] if delta else None,
            "play_rate": _shown(play, 2), "play_rate_v": play,
            "per_step": _shown(per_step, 2), "per_step_v": per_step,
            "target_met": _target_met(row)}


def enemy_figures(row: dict) -> dict:
    """An enemy's row of the report → its figures as text."""
    win = _interval(row.get("win_rate"))
    return {"win_rate": _percent(win) if win else NONE,
            "turns": _shown(_number(row.get("turns_to_win")), 1),
            "hp_lost": _shown(_number(row.get("hp_lost")), 1),
            "battles": _shown(_number(row.get("battles")), 0),
            "target_met": _target_met(row)}


def labels(settings: dict) -> dict:
    """``LABELS`` as a report of ``settings`` means them: with ``--baseline``, Δ is the
    page swapped for that page of the starting deck, not added (sim/observed.py
    ``delta_label``, said the same way)."""
    page = settings.get("baseline_page")
    if not isinstance(page, str):
        return LABELS
    names = settings.get("page_names") if isinstance(settings.get("page_names"), dict) else {}
    name = names.get(page) if isinstance(names.get(page), str) else page
    return {**LABELS,
            "delta": f"「{name}」と入れ替えた時の{W.measure.win_rate_delta}（因果: 枚数そのまま）"}


#: At most this many enemies of a narrowed run are named in the note (more: their count).
NAMED_ENEMIES = 3


def _enemies_measured(enemies: list, tables) -> str:
    """The enemies a report measured, for the note: 「敵 10 体（すべて）」, or, when it
    measured fewer than the content has (``sim --enemy``), their names — every figure then
    answers for those alone, and 「敵 1 体」 did not say which."""
    word = vocab.KEYWORDS["enemy"][0]
    if set(enemies) >= set(tables.enemies):
        return f"{word} {len(enemies)} 体（すべて）"
    if len(enemies) > NAMED_ENEMIES:
        return f"{word} {len(enemies)} 体（すべてではありません）"
    names = [getattr(tables.enemies.get(e), "name", None) or str(e) for e in enemies]
    return f"{word} {len(enemies)} 体（{'、'.join(names)}だけ）"


def figures(report: dict | None, tables) -> dict:
    """``{"pages": id → figures, "enemies": id → figures, "about": str, "labels": the
    figures' words}`` of the items of ``tables`` the report has rows for; empty without a
    report."""
    if not isinstance(report, dict):
        return {"pages": {}, "enemies": {}, "about": "", "labels": LABELS}
    settings = report.get("settings") if isinstance(report.get("settings"), dict) else {}

    def rows(key: str, known) -> dict:
        found = {}
        for row in report.get(key) if isinstance(report.get(key), list) else []:
            if isinstance(row, dict) and isinstance(row.get("id"), str) and row["id"] in known:
                found.setdefault(row["id"], row)
        return found

    policy, mode = settings.get("policy"), settings.get("mode")
    enemies, seed = settings.get("enemies"), settings.get("seed")
    parts = [f"方針 {vocab.PLAYER_NAMES.get(policy, policy)}" if isinstance(policy, str) else None,
             MODES.get(mode) if isinstance(mode, str) else None,
             _enemies_measured(enemies, tables) if isinstance(enemies, list) and enemies
             else None,
             f"{vocab.KEYWORDS['seed'][0]} {seed}〜" if isinstance(seed, int) else None]
    about = "・".join(part for part in parts if part)
    return {"pages": {k: page_figures(v) for k, v in rows("pages", tables.pages).items()},
            "enemies": {k: enemy_figures(v)
                        for k, v in rows("enemies", tables.enemies).items()},
            "about": about, "labels": labels(settings)}
