"""印刷シート — cards to a PDF of print-and-play sheets (Jinja2 templates, CSS paged media,
WeasyPrint).

``render(cards, options)`` is the one way every pass prints: the pages and enemies,
the draft 17 solitaire's cards, a print with its change marks and change list. Each card's
words are fitted to its box: the body's size steps down from SIZES[0] until they fit
(they wrap at every size; nothing is ever cut); a card that does not fit at the floor is
a ``CardOverflow`` naming it. The output is deterministic: same cards and options, same
bytes (the dates in the PDF are the stamp's date, the identifier a hash of the input).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .cards import TINTS, Card, named
from .layout import PAPERS, Geometry, place

TEMPLATES = Path(__file__).with_name("templates")
#: The body's font sizes (pt) tried in turn; the last is the floor (readable at 6.5 pt).
SIZES = (8.5, 8.0, 7.5, 7.0, 6.5)
#: One card a page, the page its trim: the same card box as on a sheet, so the same words
#: fit at the same sizes (layout.Geometry puts no mark and no bleed where both are 0).
SINGLE = Geometry(paper=Geometry.card, bleed=0.0, crop=0.0, cols=1, rows=1)


class CardOverflow(Exception):
    """The cards whose words do not fit their box even at the smallest size: every one of
    them named, one line each (every error of a run is reported)."""

    def __init__(self, cards: list[Card]):
        super().__init__("\n".join(f"{self.words(card)}。文を短くしてください。"
                                   for card in cards))
        self.cards = cards

    @staticmethod
    def words(card: Card) -> str:
        """What is wrong with one card, in the designer's words (jibunki print's E074)."""
        return (f"札「{card.title}」（{named(card.key)}）の文が、最小の大きさ {SIZES[-1]} pt でも"
                "枠に収まりません")


@dataclass(frozen=True)
class PrintOptions:
    """How to print: ``paper`` (A4 or Letter), ``crop`` (crop marks' length, mm),
    ``backs`` (a mirrored sheet of backs after each sheet of faces, for duplex),
    ``version`` (the content's short digest) and ``date`` (YYYY-MM-DD) stamped on every
    card, ``changed`` (keys of the cards marked 「変更」), ``extra`` (plain-text pages
    appended: a change list), ``single`` (each card alone on a page its trim size: no
    bleed, no crop marks, ``paper`` and ``crop`` unread — the faces of a screen, the TTS
    deck's)."""

    paper: str = "A4"
    crop: float = 5.0
    backs: bool = True
    version: str = ""
    date: str = ""
    changed: frozenset[str] = field(default_factory=frozenset)
    extra: tuple[str, ...] = ()
    single: bool = False
    #: The game the cards are of: on every back, in every stamp and in the PDF's title
    #: (明日、旅に出ます for the draft 17 set).
    game: str = "自分紀"

    @property
    def geometry(self) -> Geometry:
        """The sheet's layout for these options."""
        if self.single:
            return SINGLE
        return Geometry(paper=PAPERS[self.paper], crop=self.crop)


def environment():
    """The templates' Jinja2 environment: autoescaping on (designer text is never markup),
    undefined names an error."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def html(cards: list[Card], options: PrintOptions, sizes: dict[int, float] | None = None,
         backs: bool | None = None, extra: bool = True) -> str:
    """The sheets' HTML: card i at ``sizes[i]`` pt (default SIZES[0])."""
    geometry = options.geometry
    sizes = sizes or {}
    backs = options.backs if backs is None else backs
    sheets = []
    for start in range(0, len(cards), geometry.per_sheet):
        chunk = list(enumerate(cards[start:start + geometry.per_sheet], start))
        for back in (False, True) if backs else (False,):
            slots = []
            for n, (index, card) in enumerate(chunk):
                row, col = place(n, geometry, back)
                x, y = geometry.trim(row, col)
                left, top, right, bottom = geometry.bleeds(row, col)
                slots.append({"card": card, "index": index, "changed": card.key in options.changed,
                              "size": sizes.get(index, SIZES[0]),
                              "x": round(x - left, 3), "y": round(y - top, 3),
                              "w": round(left + geometry.card[0] + right, 3),
                              "h": round(top + geometry.card[1] + bottom, 3),
                              "tx": round(left, 3), "ty": round(top, 3)})
            sheets.append({"back": back, "slots": slots})
    stamp = " ".join(part for part in (options.game, options.version, options.date) if part)
    return environment().get_template("sheets.html.j2").render(
        sheets=sheets, marks=[tuple(round(v, 3) for v in m) for m in geometry.crop_marks()],
        paper=geometry.paper, card=geometry.card, stamp=stamp, date=options.date,
        tints=TINTS, extra=options.extra if extra else (), game=options.game)


def laid_out(text: str):
    """The sheets' HTML laid out by WeasyPrint (a ``weasyprint.Document``): what the fitting
    measures and what is written as PDF, the faces' and the backs' too."""
    from weasyprint import HTML

    return HTML(string=text, base_url=str(TEMPLATES)).render()


def fitted_sizes(cards: list[Card], options: PrintOptions) -> dict[int, float]:
    """Each card's body size: the largest of SIZES its words fit at. Only the cards that
    still overflow are laid out again, a step smaller; CardOverflow for one that
    overflows at the floor."""
    from .fitting import overflowing

    sizes = {i: SIZES[0] for i in range(len(cards))}
    trying = list(range(len(cards)))
    for step, size in enumerate(SIZES):
        for i in trying:
            sizes[i] = size
        subset = [cards[i] for i in trying]
        over = overflowing(laid_out(html(subset, options, {n: size for n in range(len(subset))},
                                          backs=False, extra=False)))
        trying = [trying[n] for n in sorted(over)]
        if not trying:
            return sizes
    raise CardOverflow([cards[i] for i in trying])


class Printed(NamedTuple):
    """A print: its PDF, per card (its index in the cards printed) the characters that no
    font of this machine has, printed as a box (☒) — cards with none left out — and the
    PDF's pages, the extra pages (変更一覧) counted."""

    pdf: bytes
    unknown: dict[int, tuple[str, ...]]
    pages: int = 0


def render(cards: list[Card], options: PrintOptions) -> Printed:
    """The PDF of the cards' sheets (faces, then their backs when ``options.backs``),
    then ``options.extra``'s pages, with the characters it could not draw (read from the
    very layout written). CardOverflow when a card cannot be fitted."""
    from .fitting import unknown_glyphs

    sizes = fitted_sizes(cards, options)
    text = html(cards, options, sizes)
    identifier = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32].encode("ascii")
    document = laid_out(text)
    unknown = unknown_glyphs(document)
    return Printed(document.write_pdf(pdf_identifier=identifier), unknown, len(document.pages))


def render_pdf(cards: list[Card], options: PrintOptions) -> bytes:
    """``render``'s PDF alone."""
    return render(cards, options).pdf


def face_pages(cards: int, options: PrintOptions) -> list[int]:
    """The PDF page (1-based) of each card's face: its sheet's, the backs counted."""
    per = options.geometry.per_sheet
    return [i // per * (2 if options.backs else 1) + 1 for i in range(cards)]


def sheet_count(cards: int, options: PrintOptions) -> int:
    """How many pages of sheets ``cards`` cards print on (backs counted), extra pages not."""
    per = options.geometry.per_sheet
    return -(-cards // per) * (2 if options.backs else 1)
