"""表（端末） — the text half of the labs' renderer family: a table drawn to the terminal's
width from its columns given as data (``Column``: header, alignment, cell, when it gives
way), and the figures' text forms. The battle's report (sim/report_text.py) and the
journey's (journey/lab/text.py) are only their tables' columns and rows.

Designer text (page, enemy, set-up and item names) goes into rich ``Text`` objects, never
through rich's markup parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from contract.linebreak import line_spans


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


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a report table: its header, how it aligns, its cell for a row (given
    the report's settings), and when it gives way to a narrow terminal (``gives_way``: 0
    never; the others are taken smallest first, while they fit). ``wraps``: a long cell
    wraps at its spaces rather than being cut."""

    header: str
    justify: str
    cell: Callable[[dict, dict], Text | str]
    gives_way: int = 0
    wraps: bool = False


@dataclass(frozen=True, slots=True)
class FittedTable:
    """A table drawn to the width it is given (a terminal of 80 columns too): of the
    columns that give way, the most needed are taken while the table fits whole; the
    caption names those left out. The columns that never give way (name, interval,
    verdict) are always shown and never cut: a name or a verdict too long wraps."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[dict, ...]
    settings: dict

    def __rich_console__(self, console: Console, options: ConsoleOptions):
        width = options.max_width
        shown = [c for c in self.columns if not c.gives_way]
        # The most needed first: each column that still fits is taken, in the table's order.
        for column in sorted((c for c in self.columns if c.gives_way), key=lambda c: c.gives_way):
            wider = [c for c in self.columns if c in shown or c is column]
            if _natural_width(console, options, self.table(wider)) <= width:
                shown = wider
        # the title above the table, as rich sets it, but broken as Japanese is
        yield Prose(Text(self.title, style="table.title"))
        yield self.table(shown)
        # a header broken into lines is named on one
        left_out = [c.header.replace("\n", "") for c in self.columns if c not in shown]
        if left_out:  # under the table, as its caption stood, broken as Japanese is
            yield Prose(Text(f"幅が足りず省いた列：{'、'.join(left_out)}"
                             "（端末を広げるか --html で全部見られます）", style="table.caption"))

    def table(self, columns: list[Column]) -> Table:
        """The rich table of these columns (``__rich_console__`` puts its title above it
        and names the columns left out under it)."""
        table = Table()
        for column in columns:
            table.add_column(column.header, justify=column.justify, no_wrap=not column.wraps,
                             overflow="fold" if column.wraps else "ellipsis")
        for row in self.rows:
            table.add_row(*(column.cell(row, self.settings) for column in columns))
        return table


@dataclass(frozen=True, slots=True)
class Prose:
    """A paragraph of a report's Japanese (a rich ``Text``, its styles kept, or plain
    text, never read as markup) broken into lines by the terminal's columns as Japanese
    is broken (contract/linebreak.py): rich breaks only at spaces, which leaves a
    Japanese line whole up to its next space and then folds it wherever the terminal
    ends. A line break in the text begins a new line; a paragraph's leading spaces indent
    each of its lines."""

    text: Text | str

    def __rich_console__(self, console: Console, options: ConsoleOptions):
        text = self.text if isinstance(self.text, Text) else Text(self.text)
        for paragraph in text.split("\n", allow_blank=True):
            plain = paragraph.plain
            indent = len(plain) - len(plain.lstrip(" "))
            body = paragraph[indent:]
            for start, end in line_spans(body.plain, max(options.max_width - indent, 1)):
                yield Text(" " * indent) + body[start:end]


#: A width no terminal has: what a table measures at when nothing limits it.
UNLIMITED = 100_000


def _natural_width(console: Console, options: ConsoleOptions, table: Table) -> int:
    """How wide ``table`` is drawn when nothing limits it."""
    return Measurement.get(console, options.update_width(UNLIMITED), table).maximum
