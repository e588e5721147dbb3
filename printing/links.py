"""札へのリンク — where the catalog links each card to its printable face: the page of the
last print's PDF that holds it, read from the print's manifest (printing/manifest.py).

Only a print that is there now is linked — the PDF and its manifest, the manifest checked
as any file read back is (``manifest.read_previous``) — and only the cards it holds: the
catalog never links to nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import manifest


def printed(pdf: Path, out: Path, tables) -> tuple[dict[str, str], frozenset[str]]:
    """What the catalog in ``out`` says of the print at ``pdf``, its manifest read once:
    each card's link (``face_links``) and the keys of the cards printed as they no longer
    are (``older_faces``)."""
    kept = _kept(pdf)
    return _links(kept, pdf, out), frozenset(_older(kept, tables))


def _kept(pdf: Path) -> dict | None:
    """The manifest of the print at ``pdf``, checked, or None (no print, or none readable)."""
    if not pdf.is_file():
        return None
    return manifest.read_previous(manifest.beside(pdf)).manifest


def older_faces(pdf: Path, tables) -> set[str]:
    """The keys of the cards the print at ``pdf`` holds as they no longer are: each
    card's digest in its manifest against the digest of the card the content makes now
    (a card whose numbers changed since the print links to a sheet with the old ones)."""
    return _older(_kept(pdf), tables)


def _older(kept: dict | None, tables) -> set[str]:
    if kept is None:
        return set()
    from .page_cards import enemy_cards, page_cards

    now = {card.key: manifest.digest(card) for card in page_cards(tables) + enemy_cards(tables)}
    return {card["key"] for card in kept["cards"]
            if card["key"] in now and card["digest"] != now[card["key"]]}


def face_links(pdf: Path, out: Path) -> dict[str, str]:
    """Card key ("page/<id>", "enemy/<id>") → the link from a document in the folder
    ``out`` to that card's page of ``pdf`` (``…/自分紀.pdf#page=N``); {} when there is no
    such print, or its manifest cannot be read."""
    return _links(_kept(pdf), pdf, out)


def _links(kept: dict | None, pdf: Path, out: Path) -> dict[str, str]:
    if kept is None:
        return {}
    try:
        href = Path(os.path.relpath(pdf, out)).as_posix()
    except ValueError:  # another drive
        return {}
    return {card["key"]: f"{href}#page={card['page']}" for card in kept["cards"]
            if "page" in card}
