"""数直線 — one axis of years for pages and enemies: where the deck is dense and where
the enemies stand, drawn as an inline SVG by the catalog (templates/_numberline.svg.j2).

The axis runs from 0 to the largest of 寿命上限, every 銘 and every 座 an enemy stands on
in its first turns (``extent``); each year is one cell of equal width, so a 銘 and a 座 of
the same year line up, and the 銘 histograms below it use the same cells (``cells``).
Each page is one mark at its 銘, marks of the same 銘 stacked; the years beyond 寿命上限
(生きない年) are shaded; each enemy is a row with its written 座, the range its 座 moves
over in the first turns (catalog/enemy_turns.py says what is knowable) and its 封鎖
ranges.
"""

from __future__ import annotations

from collections import Counter

from . import enemy_turns

#: Drawing sizes in SVG units (the page scales the drawing down on a phone).
WIDTH = 1040
LEFT = 120   # the enemies' names
RIGHT = 12
MARK_GAP = 7  # between stacked marks of one 銘
ROW = 22      # an enemy's row
#: Terminal-style columns of an enemy's name that fit left of the axis (LEFT, at the row
#: font's 11 px: a wide character two columns, about 11 px); a longer name is cut with
#: "…" and said whole by its tooltip.
NAME_COLUMNS = 19


def label(name: str, room: int = NAME_COLUMNS) -> str:
    """``name`` as the row shows it: whole when it fits ``room`` columns, else cut to fit
    with "…" (which takes one)."""
    from contract.linebreak import columns

    if columns(name) <= room:
        return name
    kept = ""
    for char in name:
        if columns(kept + char) > room - 1:
            break
        kept += char
    return kept + "…"


def extent(tables) -> int:
    """The axis's last year: the larger of 寿命上限 and every 銘 (a page may bear a year
    never lived). An enemy's 座 needs no room of its own: it stands on the line, at most
    寿命上限 (the compiler's E030, runtime/seat.py's walls)."""
    return max([tables.balance.lifespan_cap, *(p.year for p in tables.pages.values())])


def cells(last: int, width: int = WIDTH, left: int = LEFT, right: int = RIGHT):
    """x of the left edge of year ``y``'s cell, for years 0..``last`` (``x(last + 1)`` is
    the right end of the axis)."""
    unit = (width - left - right) / (last + 1)
    return lambda year: round(left + year * unit, 1)


def ticks(last: int, step: int = 10) -> list[int]:
    """The labelled years: every ``step`` and the last."""
    marks = list(range(0, last + 1, step))
    return marks if marks[-1] == last else marks + [last]


def number_line(pages: list[dict], enemies: list, tables,
                horizon: int = enemy_turns.HORIZON) -> dict:
    """The drawing's data: ``pages`` the catalog's page views (id, name, year, in_starter),
    ``enemies`` the tables' enemies in the catalog's order."""
    last = extent(tables)
    x = cells(last)
    half = (x(1) - x(0)) / 2

    def mid(year: int) -> float:  # where a year's marks, seats and tick stand: its cell's middle
        return round(x(year) + half, 1)
    cap = tables.balance.lifespan_cap
    depth = Counter(p["year"] for p in pages)
    stack = max(depth.values(), default=1)
    base = 26 + stack * MARK_GAP  # the page marks' baseline
    seen: Counter = Counter()
    marks = []
    for page in pages:
        k = seen[page["year"]]
        seen[page["year"]] += 1
        marks.append({"id": page["id"], "name": page["name"], "year": page["year"],
                      "x": mid(page["year"]), "y": base - k * MARK_GAP,
                      "starter": page["in_starter"], "beyond": page["year"] > cap})
    rows = []
    top = base + 34
    for i, enemy in enumerate(enemies):
        path = enemy_turns.seat_path(enemy, tables.balance.lifespan_cap, horizon)
        seats, low, high = path["seats"], path["low"], path["high"]
        rows.append({
            "id": enemy.id, "name": enemy.name, "label": label(enemy.name),
            "y": top + i * ROW, "seat": enemy.seat,
            "x": mid(enemy.seat),
            "low": low, "high": high, "x1": mid(low), "x2": mid(high),
            "towards": ("up" if seats[-1] > enemy.seat else
                        "down" if seats[-1] < enemy.seat else None),
            "continues": path["continues"],
            "blockades": [{"low": a, "high": b, "x": x(a), "w": round(x(b + 1) - x(a), 1)}
                          for a, b in enemy_turns.blockades(enemy)],
        })
    height = top + len(rows) * ROW + 10
    return {
        "width": WIDTH, "height": height, "left": LEFT, "last": last, "cap": cap,
        "base": base, "gap": MARK_GAP, "row": ROW, "axis_y": base + 12, "horizon": horizon,
        "x0": x(0), "x_end": x(last + 1), "cap_x": x(cap + 1),
        "ticks": [{"year": t, "x": mid(t)} for t in ticks(last)],
        "marks": marks, "enemies": rows,
    }
