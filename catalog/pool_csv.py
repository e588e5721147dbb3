"""一覧の CSV — the catalog's pool table as a CSV file a designer opens in a spreadsheet.

The catalog writes ``pool.csv`` beside its ``index.html``: UTF-8 with a byte order mark
(Excel reads Japanese correctly only with it), records quoted as RFC 4180 says (a field
with a comma, a quote or a line break is quoted, quotes doubled) and ended by CRLF, one
header row in Japanese, the pages in the pool table's own order (by 銘, then id).

The page holds each row's record too (``data-csv`` on the row, the header on the table):
its 「CSVで保存」 button joins the records of the rows the table shows, in the order it
shows them, so a filtered or sorted table saves what is on screen with the same quoting
and the same neutralisation as the file — nothing is re-quoted in the browser.

A designer's text may begin like a formula (``=``, ``+``, ``-``, ``@``…), which a
spreadsheet would run when the file is opened (CSV injection): such a field gets a
leading ``'`` so that it stays text. A field that is a plain number (``-1.5``) is no
formula and stays a number.
"""

from __future__ import annotations

import csv
import io
import re

from contract import vocabulary as vocab
from contract.vocabulary import W

from .lab import LABELS

#: The BOM at the file's head: Excel then reads the file as UTF-8, not as Shift_JIS.
BOM = "\ufeff"
#: The end of every record (RFC 4180).
CRLF = "\r\n"
#: The first characters a spreadsheet may read as the start of a formula (OWASP's list:
#: = + - @, tab and CR), and the full-width forms of the signs, which a Japanese
#: spreadsheet may take for them.
SIGNS = "=+-@"
FORMULA_STARTS = frozenset(SIGNS + "\t\r" + "".join(chr(ord(c) + 0xFEE0) for c in SIGNS))
#: A field that is only a number: a spreadsheet reads it as that number, never a formula.
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
#: The cost cell of a page that cannot be played from that 刻 (the table's ×).
CANNOT_PLAY = "出せない"
#: The lab's figures, when there is a report: (header, the figure's sort value, × for the
#: shown number, digits), as the pool table shows them.
LAB_COLUMNS = ((f"Δ {W.measure.win_rate}（pt）", "delta_v", 100, 1),
               (f"Δ {W.measure.win_rate} 95% 区間の下端（pt）", "delta_low_v", 100, 1),
               (f"Δ {W.measure.win_rate} 95% 区間の上端（pt）", "delta_high_v", 100, 1),
               (LABELS["play_rate"], "play_rate_v", 1, 2),
               (f"{W.variable.steps}あたりダメージ", "per_step_v", 1, 2))
#: The lab's observed figures and the swapped Δ, in the order the pool table shows them
#: (each only when the report has it: ``OBSERVED``' keys): the lab's own words, then the
#: unit; each as its estimate and its interval's ends, like Δ above.
OBSERVED = ("drawn", "improvement", "swap_delta")
_UNITS = {"drawn": "%", "improvement": "pt", "swap_delta": "pt"}


def observed_columns(key: str) -> tuple:
    """The columns of the figure ``key`` of ``OBSERVED``, as ``LAB_COLUMNS``."""
    words, unit = LABELS[key], _UNITS[key]
    return ((f"{words}（{unit}）", f"{key}_v", 100, 1),
            (f"{words} 95% 区間の下端（{unit}）", f"{key}_low_v", 100, 1),
            (f"{words} 95% 区間の上端（{unit}）", f"{key}_high_v", 100, 1))


def _lab_columns(has_lab: bool, observed: tuple[str, ...]) -> tuple:
    if not has_lab:
        return ()
    return LAB_COLUMNS + tuple(c for key in observed for c in observed_columns(key))


def neutralise(field: str) -> str:
    """``field`` safe to open in a spreadsheet: a ``'`` before a leading formula sign,
    unless the whole field is a plain number; line breaks as LF (the same text in the
    file and in the page's attribute, which HTML reads with LF only)."""
    formula = field[:1] in FORMULA_STARTS and not PLAIN_NUMBER.fullmatch(field)
    field = field.replace("\r\n", "\n").replace("\r", "\n")
    return "'" + field if formula else field


def record(fields: list[str]) -> str:
    """One CSV record of ``fields`` (neutralised, quoted as needed), without its CRLF."""
    out = io.StringIO()
    # the writer quotes a field with a line break only when the break is part of its
    # line terminator: CRLF is written, then cut off
    csv.writer(out, lineterminator=CRLF, quoting=csv.QUOTE_MINIMAL).writerow(
        [neutralise(str(f)) for f in fields])
    return out.getvalue().removesuffix(CRLF)


def _number(value: float | None, scale: int, digits: int) -> str:
    if value is None:
        return ""
    shown = round(value * scale, digits) + 0.0  # + 0.0: no "-0.0"
    return f"{shown:.{digits}f}"


def header(ages: tuple[int, ...], has_lab: bool, observed: tuple[str, ...] = ()) -> list[str]:
    """The header row: the pool table's columns, each age's columns named by the age;
    ``observed`` the keys of ``OBSERVED`` the report has."""
    word = {key: ja for key, (ja, _) in vocab.KEYWORDS.items()}
    return ([W.variable.year, "id", "名前", W.variable.fray_mul, word["origin"], "書かれた面",
             f"初期{word['deck']}の枚数"]
            + [f"{W.variable.age} {age} から{word['play']}{W.variable.steps}" for age in ages]
            + [f"{W.variable.age} {age} で{word['rip']}{W.variable.fray}" for age in ages]
            + [name for name, *_ in _lab_columns(has_lab, observed)])


def row(page: dict, has_lab: bool, observed: tuple[str, ...] = ()) -> list[str]:
    """A page's fields (the catalog's page view with its compare cells and lab figures)."""
    faces = ("・".join(f["word"] for f in page["faces"] if f["written"])
             or vocab.KEYWORDS["blank"][0])
    fields = [str(page["year"]), page["id"], page["name"], str(page["fray_mul"]),
              page["origin"], faces, str(page["in_starter"])]
    fields += [CANNOT_PLAY if c["why"] else str(c["cost"]) for c in page["plays"]]
    fields += [str(t["fray"]) for t in page["tears"]]
    figures = page["lab"] or {}
    fields += [_number(figures.get(key), scale, digits)
               for _, key, scale, digits in _lab_columns(has_lab, observed)]
    return fields


def table(pages: list[dict], ages: tuple[int, ...], has_lab: bool,
          observed: tuple[str, ...] = ()) -> dict:
    """``{"header": record, "rows": page id → record}`` for the page and the file."""
    return {"header": record(header(ages, has_lab, observed)),
            "rows": {p["id"]: record(row(p, has_lab, observed)) for p in pages}}


def document(header_record: str, records: list[str]) -> bytes:
    """The file: BOM, the header and ``records``, each ended by CRLF, as UTF-8."""
    return (BOM + "".join(r + CRLF for r in [header_record, *records])).encode("utf-8")
