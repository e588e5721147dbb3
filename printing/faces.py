"""札の画像 — each card's face and each kind's back as a picture, and the TTS decks made of
them (``jibunki print --tts``).

A face is drawn by the sheets' own templates and fitting (``PrintOptions(single=True)``:
one card a page, its trim size, no bleed, no crop marks), so a card reads on the table
exactly as on paper, its words at the size they fit at there. Each PDF page is rasterised
by pypdfium2 at FACE_WIDTH pixels across: Tabletop Simulator's largest recommended
sheet (4096 px) holds 10 such faces side by side, and 7 rows of the 63 × 88 mm card's
height (572 px) stay under 4096 too, so tts.write_deck never scales them.

A card's back says its kind (ページ, 敵, イベント …; cards.KINDS), and a TTS deck has one
back: the cards are dealt into one deck per kind, in print order, each named
``<name>-<kind>`` (``jibunki-page``, ``jibunki-enemy``; ``draft17-event`` …). The names
are ASCII on purpose: the saved object refers to its images by ``file:///`` URIs, and an
ASCII name needs no percent-encoding there and survives a zip archive or a copy to
another machine unchanged; the deck's Japanese word is on every card's back.

Deterministic: the same cards and options give the same PNG bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from contract import disk

from .cards import KINDS, Card
from .sheets import PrintOptions, html, laid_out, render_pdf

#: A face's width in pixels: a tenth of TTS's 4096 px sheet, rounded down.
FACE_WIDTH = 409
#: A PDF point in millimetres.
POINT_MM = 25.4 / 72


@dataclass(frozen=True)
class Written:
    """What ``write_tts`` wrote: one ``tts.Deck`` a kind, with its kind and card count."""

    decks: tuple[tuple[str, int, object], ...]

    @property
    def cards(self) -> int:
        """How many cards the decks hold."""
        return sum(count for _, count, _ in self.decks)

    @property
    def sheets(self) -> int:
        """How many card sheets (images of faces) were written."""
        return sum(len(deck.sheets) for _, _, deck in self.decks)


def _scale(options: PrintOptions) -> float:
    """Pixels per PDF point that make a card FACE_WIDTH pixels wide."""
    return FACE_WIDTH / (options.geometry.card[0] / POINT_MM)


def _rasters(pdf: bytes, pages, scale: float) -> list:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[i].render(scale=scale).to_pil().convert("RGB") for i in pages]
    finally:
        document.close()


def face_images(cards: list[Card], options: PrintOptions) -> list:
    """Each card's face as a Pillow RGB image, FACE_WIDTH pixels wide, its words fitted as
    on the sheets (sheets.CardOverflow when they cannot be)."""
    single = replace(options, single=True, backs=False, extra=())
    pdf = render_pdf(cards, single)
    return _rasters(pdf, range(len(cards)), _scale(single))


def back_images(kinds, options: PrintOptions) -> dict:
    """The back of each of ``kinds`` (cards.KINDS' keys) as a Pillow RGB image of a
    face's size."""
    single = replace(options, single=True, backs=True, extra=())
    kinds = list(dict.fromkeys(kinds))
    stand_ins = [Card(key=f"back/{kind}", kind=kind, title="") for kind in kinds]
    # the sheets of one card each: its face, then its back (the back's words are the kind's)
    pdf = laid_out(html(stand_ins, single)).write_pdf()
    images = _rasters(pdf, range(1, 2 * len(kinds), 2), _scale(single))
    return dict(zip(kinds, images))


def by_kind(cards: list[Card]) -> dict[str, list[int]]:
    """The cards' indexes grouped by kind, kinds in cards.KINDS' order."""
    groups: dict[str, list[int]] = {}
    for kind in KINDS:
        for i, card in enumerate(cards):
            if card.kind == kind:
                groups.setdefault(kind, []).append(i)
    return groups


def write_tts(folder: Path, cards: list[Card], options: PrintOptions, name: str) -> Written:
    """Write the TTS decks of ``cards`` into ``folder`` (created when missing): for each
    kind, ``<name>-<kind>-1.png`` … (the card sheets), ``<name>-<kind>-back.png`` and
    ``<name>-<kind>.json`` (the saved object), replacing an earlier print's files.
    tts.DeckError, OSError or sheets.CardOverflow when it cannot."""
    from . import tts

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise tts.DeckError(f"{folder} はファイルです。TTS のデッキはフォルダに書きます")
    disk.make_folder(folder)
    if not cards:
        raise tts.DeckError("TTS のデッキにするカードがありません")
    faces = face_images(cards, options)
    groups = by_kind(cards)
    backs = back_images(groups, options)
    decks, files = [], {}
    for kind, indexes in groups.items():
        made, deck = tts.deck_files(folder, [cards[i] for i in indexes],
                                    [faces[i] for i in indexes], backs[kind],
                                    name=f"{name}-{kind}")
        files.update(made)
        decks.append((kind, len(indexes), deck))
    # every kind's decks as one set: a Ctrl-C or a full disk leaves the folder's old decks
    # whole, never new sheets beside an old saved object (their names and descriptions)
    tts.write_files(folder.resolve(), files, tuple(f"{name}-{kind}" for kind in KINDS))
    return Written(tuple(decks))
