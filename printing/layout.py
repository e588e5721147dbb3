"""面付け — where the cards stand on a sheet: the grid, the bleed, the crop marks, and the
backs' mirrored places (all in millimetres, plain arithmetic: no rendering here).

A card is ``card`` (trim, 63×88 mm: poker size) with ``bleed`` all around. The cards of
a sheet stand in a centred grid. What the paper cannot all give is given in this order:
each card's trim size; the grid's outer bleed; the margins, wide enough for the crop
marks (``crop`` + MARK_GAP, at least MIN_MARGIN); and the gutters between the cards,
twice the bleed at most. Where a gutter is narrower (A4's width, Letter's height), the
two cards beside it share it half and half (a card's bleed never covers its neighbour;
with no gutter they share their cut line). Crop marks stand in the margins on every
trim line, as long as asked and as the margin allows.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Paper sizes (width, height), portrait, in mm.
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
#: The margin a grid keeps from the paper's edge at least, in mm.
MIN_MARGIN = 1.0
#: The gap between a crop mark and the bleed it marks, in mm.
MARK_GAP = 0.5
#: A crop mark's line width, in mm.
MARK_WIDTH = 0.2


@dataclass(frozen=True)
class Geometry:
    """The sheet's layout: ``paper`` and ``card`` (w, h) mm, ``bleed`` and ``crop`` mm,
    ``cols`` × ``rows`` cards a sheet."""

    paper: tuple[float, float] = PAPERS["A4"]
    card: tuple[float, float] = (63.0, 88.0)
    bleed: float = 3.0
    crop: float = 5.0
    cols: int = 3
    rows: int = 3

    @property
    def per_sheet(self) -> int:
        """How many cards a sheet holds."""
        return self.cols * self.rows

    def _axis(self, n: int, paper: float, card: float) -> tuple[float, float]:
        """(first trim edge, step from one card's trim edge to the next) along an axis."""
        margin = max(MIN_MARGIN, self.crop + MARK_GAP)
        room = paper - 2 * margin - n * card - 2 * self.bleed
        gutter = 2 * self.bleed if n < 2 else max(0.0, min(2 * self.bleed, room / (n - 1)))
        span = n * card + (n - 1) * gutter
        return (paper - span) / 2, card + gutter

    def gutters(self) -> tuple[float, float]:
        """The gutters between columns and between rows, mm."""
        return (self._axis(self.cols, self.paper[0], self.card[0])[1] - self.card[0],
                self._axis(self.rows, self.paper[1], self.card[1])[1] - self.card[1])

    def inner_bleeds(self) -> tuple[float, float]:
        """The bleed a card shows towards its neighbour beside it and towards the one
        above or below, mm: half the gutter, at most the bleed (0: they share a cut line)."""
        across, down = (min(self.bleed, g / 2) for g in self.gutters())
        return across, down

    def bleeds(self, row: int, col: int) -> tuple[float, float, float, float]:
        """The bleed the card at (row, col) shows on its left, top, right and bottom: the
        whole bleed on the grid's outside, half the gutter (at most the bleed) inside."""
        across, down = self.inner_bleeds()
        return (self.bleed if col == 0 else across, self.bleed if row == 0 else down,
                self.bleed if col == self.cols - 1 else across,
                self.bleed if row == self.rows - 1 else down)

    def trim(self, row: int, col: int) -> tuple[float, float]:
        """The top-left corner of the trim of the card at (row, col), in mm."""
        x0, dx = self._axis(self.cols, self.paper[0], self.card[0])
        y0, dy = self._axis(self.rows, self.paper[1], self.card[1])
        return x0 + col * dx, y0 + row * dy

    def trim_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical trim line and the y of every horizontal one."""
        xs = sorted({x + d for c in range(self.cols) for x in [self.trim(0, c)[0]]
                     for d in (0.0, self.card[0])})
        ys = sorted({y + d for r in range(self.rows) for y in [self.trim(r, 0)[1]]
                     for d in (0.0, self.card[1])})
        return xs, ys

    def mark_lengths(self) -> tuple[float, float]:
        """How long the crop marks drawn are, mm: those in the left and right margins, and
        those in the top and bottom ones — ``crop``, or as long as the margin allows (0:
        none)."""
        xs, ys = self.trim_lines()
        left = xs[0] - self.bleed - MARK_GAP
        top = ys[0] - self.bleed - MARK_GAP
        return max(0.0, min(self.crop, left)), max(0.0, min(self.crop, top))

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Crop marks as rectangles (x, y, w, h) mm in the four margins: one on each trim
        line's either end, from MARK_GAP outside the bleed towards the paper's edge,
        ``crop`` long or as long as the margin allows (none where it allows nothing)."""
        xs, ys = self.trim_lines()
        top, bottom = ys[0] - self.bleed - MARK_GAP, ys[-1] + self.bleed + MARK_GAP
        left, right = xs[0] - self.bleed - MARK_GAP, xs[-1] + self.bleed + MARK_GAP
        across, down = self.mark_lengths()
        marks = []
        if down > 0:
            for x in xs:
                marks += [(x - MARK_WIDTH / 2, top - down, MARK_WIDTH, down),
                          (x - MARK_WIDTH / 2, bottom, MARK_WIDTH, down)]
        if across > 0:
            for y in ys:
                marks += [(left - across, y - MARK_WIDTH / 2, across, MARK_WIDTH),
                          (right, y - MARK_WIDTH / 2, across, MARK_WIDTH)]
        return marks


def place(index: int, geometry: Geometry, back: bool = False) -> tuple[int, int]:
    """The (row, col) of the ``index``-th card of a sheet; on the back, mirrored left to
    right, so that a sheet printed on both sides and flipped on its long edge puts each
    back behind its face."""
    row, col = divmod(index, geometry.cols)
    return row, geometry.cols - 1 - col if back else col


def sheets(count: int, geometry: Geometry) -> int:
    """How many sheets ``count`` cards fill."""
    return -(-count // geometry.per_sheet)
