"""TTS デッキ — the cards as a Tabletop Simulator deck: card sheets and a saved object.

Tabletop Simulator cuts a custom deck out of "card sheets": one image of at most 10 × 7
card faces, read left to right and top to bottom, plus one back image
(kb.tabletopsimulator.com, Custom Deck). The last slot of a sheet is its "hidden" image
— what a card in a hand zone shows to others — unless the deck says ``BackIsHidden``. We
say ``BackIsHidden`` *and* put the back in that last slot, so whichever way a player
imports or toggles the deck, a hidden card shows its back: a sheet holds at most 69 cards
(``PER_SHEET``), and 75 cards make a 10 × 7 sheet of 69 and a 7 × 1 sheet of 6 (the last
sheet is only as large as its cards and its hidden slot need).

The saved object (Saves/Saved Objects/<name>.json) is one ``DeckCustom`` whose
``CustomDeck`` maps each sheet's id (1, 2 …) to its images and grid, ``DeckIDs`` lists the
cards as id × 100 + slot in print order, and ``ContainedObjects`` holds one ``Card`` each
(a single card is saved as that ``Card`` alone), its ``Nickname`` the card's title, its
``Description`` the card's words (badges, then each section under its heading, then the
flavour) and its ``GMNotes`` the card's key.
TTS reads ``[b]``, ``[ff0000]`` … in names and descriptions as BBCode: a bracket that
would open a tag gets a zero-width space after it, so designer text never becomes markup.

Images are local files: ``FaceURL``/``BackURL`` are ``file:///…`` URIs of the files
written (a local game only — other players see them after the sheets are hosted and
``url_base`` names the host). Output is deterministic: the same cards and images give
the same bytes (no dates, GUIDs derived from the keys). Every file is written atomically
inside the one folder the user named (contract.disk.write). Pillow is imported here only.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from contract import disk

from .cards import Card, named

__all__ = ["COLUMNS", "ROWS", "PER_SHEET", "MAX_SHEET_PIXELS", "Deck", "DeckError", "Sheet",
           "description", "layout", "saved_object", "sheet_images", "write_deck"]

#: The largest card sheet TTS cuts: 10 faces across, 7 down.
COLUMNS, ROWS = 10, 7
#: Cards on one sheet: every slot but the last, the hidden image's.
PER_SHEET = COLUMNS * ROWS - 1
#: TTS's recommended largest side of an image (Asset Creation): faces are scaled down
#: (never up) so that a full sheet fits.
MAX_SHEET_PIXELS = 4096
#: What an empty slot is filled with (nothing of it is ever shown).
EMPTY = {"RGB": (255, 255, 255), "RGBA": (255, 255, 255, 0)}
#: A deck's file names: what the user gives as its name, safe in any folder.
NAME = re.compile(r"[^./\\\x00-\x1f][^/\\\x00-\x1f]{0,99}")
#: The opening of a BBCode tag TTS would read: [b] [/i] [sub] [-] [ff0000] [url=…] …
BBCODE = re.compile(r"\[(?=/?(?:b|i|u|s|sub|sup|url(?:=[^\]]*)?|-|[0-9a-fA-F]{6})\])",
                    re.IGNORECASE)
#: Where the deck lies on the table, face down (a card's back up: rotZ 180).
TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
             "rotZ": 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
#: TTS's own tint for cards (what its saves hold).
TINT = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


class DeckError(Exception):
    """Faces, a back or a place that cannot make a deck; ``str()`` is one Japanese line."""


@dataclass(frozen=True)
class Sheet:
    """One card sheet: its id in ``CustomDeck`` (1, 2 …), its grid and how many cards
    it holds (the slot after the last card to the bottom-right one are empty, the
    bottom-right one shows the back)."""

    id: int
    columns: int
    rows: int
    count: int


@dataclass(frozen=True)
class Deck:
    """What ``write_deck`` wrote: the sheets and the files (sheets, back, saved object)."""

    sheets: tuple[Sheet, ...]
    files: tuple[Path, ...]
    saved_object: Path


def layout(count: int) -> tuple[Sheet, ...]:
    """The sheets of ``count`` cards: full 10 × 7 sheets of 69, then the rest on the
    smallest grid (at most 10 across) that holds them and the hidden slot."""
    sheets, left = [], count
    while left > 0:
        cards = min(left, PER_SHEET)
        columns = min(COLUMNS, cards + 1)
        rows = -(-(cards + 1) // columns)
        sheets.append(Sheet(len(sheets) + 1, columns, rows, cards))
        left -= cards
    return tuple(sheets)


def _checked(cards, faces, back):
    """The faces and back as one size and mode (scaled to fit MAX_SHEET_PIXELS), or
    DeckError."""
    from PIL import Image

    if not cards:
        raise DeckError("TTS のデッキにするカードがありません")
    if len(faces) != len(cards):
        raise DeckError(f"カードが {len(cards)} 枚なのに表の画像が {len(faces)} 枚です")
    if not all(isinstance(f, Image.Image) for f in (*faces, back)):
        raise DeckError("表と裏は画像（Pillow の Image）で渡してください")
    size = faces[0].size
    for card, face in zip(cards, faces):
        if face.size != size:
            raise DeckError(f"表の画像の大きさがそろっていません: {card.title}（{named(card.key)}）は "
                            f"{face.size[0]}×{face.size[1]}、最初の札は {size[0]}×{size[1]}")
    if min(size) < 1:
        raise DeckError("表の画像が空です（幅か高さが 0）")
    scale = min(1.0, MAX_SHEET_PIXELS / (COLUMNS * size[0]), MAX_SHEET_PIXELS / (ROWS * size[1]))
    target = (max(1, int(size[0] * scale)), max(1, int(size[1] * scale)))
    mode = "RGBA" if any("A" in im.getbands() or "transparency" in im.info
                         for im in (*faces, back)) else "RGB"

    def fit(image):
        image = image.convert(mode)
        return image if image.size == target else image.resize(target, Image.Resampling.LANCZOS)

    return [fit(f) for f in faces], fit(back)


def sheet_images(faces, back) -> list:
    """The card sheets of ``faces`` (one size and mode, the back's, as ``_checked`` gives
    them), the back in each sheet's bottom-right slot."""
    from PIL import Image

    width, height = back.size
    mode = back.mode
    images, start = [], 0
    for sheet in layout(len(faces)):
        image = Image.new(mode, (sheet.columns * width, sheet.rows * height), EMPTY[mode])
        for slot, face in enumerate(faces[start:start + sheet.count]):
            image.paste(face, ((slot % sheet.columns) * width, (slot // sheet.columns) * height))
        last = sheet.columns * sheet.rows - 1
        image.paste(back, ((last % sheet.columns) * width, (last // sheet.columns) * height))
        images.append(image)
        start += sheet.count
    return images


def _plain(text: str) -> str:
    """Designer text as TTS shows it, never as BBCode."""
    return BBCODE.sub("[\u200b", text)


def description(card: Card) -> str:
    """The card's words as its TTS description: the badges on one line (銘 12・座 30),
    each section as 【heading】 and its lines, then the flavour."""
    lines = []
    if card.badges:
        lines.append("・".join(f"{label} {value}" for label, value in card.badges))
    for section in card.sections:
        if section.heading:
            lines.append(f"【{section.heading}】")
        lines.extend(section.lines)
    if card.flavour:
        lines += ["", card.flavour]
    return _plain("\n".join(lines))


def _guid(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


def saved_object(cards, sheets, face_urls, back_url: str, name: str) -> dict:
    """The saved object of one ``DeckCustom`` holding ``cards`` laid out on ``sheets``
    (``face_urls``: each sheet's image, in order); of one card, that ``Card`` alone."""
    custom = {sheet.id: {"FaceURL": url, "BackURL": back_url, "NumWidth": sheet.columns,
                         "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": False,
                         "Type": 0}
              for sheet, url in zip(sheets, face_urls)}
    ids, contained = [], []
    slots = ((sheet, slot) for sheet in sheets for slot in range(sheet.count))
    for card, (sheet, slot) in zip(cards, slots):
        card_id = sheet.id * 100 + slot
        ids.append(card_id)
        contained.append({
            "GUID": _guid(f"card:{card.key}"), "Name": "Card", "Transform": TRANSFORM,
            "Nickname": _plain(card.title), "Description": description(card),
            "GMNotes": card.key, "ColorDiffuse": TINT, "Locked": False, "Grid": True,
            "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "Hands": True, "HideWhenFaceDown": True, "SidewaysCard": False,
            "CardID": card_id, "CustomDeck": {str(sheet.id): custom[sheet.id]},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""})
    deck = {"GUID": _guid(f"deck:{name}"), "Name": "DeckCustom", "Transform": TRANSFORM,
            "Nickname": _plain(name), "Description": "", "GMNotes": "", "ColorDiffuse": TINT,
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True, "Hands": False, "HideWhenFaceDown": True, "SidewaysCard": False,
            "DeckIDs": ids, "CustomDeck": {str(k): v for k, v in custom.items()},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ContainedObjects": contained}
    # a deck of one card is no deck on the table: the card alone, as TTS saves it
    return {"SaveName": name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "PlayerTurn": "", "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            "ObjectStates": [deck if len(contained) > 1 else contained[0]]}


def _png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def write_deck(folder, cards, faces, back, *, replace: bool, name: str = "jibunki",
               url_base: str | None = None) -> Deck:
    """Write the TTS deck of ``cards`` (their ``faces``: Pillow images, one a card, one
    size; ``back``: one image) into ``folder``: ``<name>-1.png`` … (the sheets),
    ``<name>-back.png`` and, last, ``<name>.json`` (the saved object). Nothing is written
    outside ``folder``; an existing file is replaced only when ``replace`` — and then the
    files as one set (``disk.write_set``: old or new, never new sheets beside an old saved
    object). The images' URLs are ``url_base`` + file name when given (a host the files
    are uploaded to), else the files' ``file:///`` URIs. DeckError (Japanese) for anything
    wrong."""
    files, deck = deck_files(folder, cards, faces, back, name=name, url_base=url_base)
    root = deck.saved_object.parent
    if replace:
        write_files(root, files, (name,))
        return deck
    for file, data in files.items():  # the saved object last: it names the images
        try:
            disk.write(root / file, data, inside=root, replace=False)
        except disk.DiskError as exc:
            raise DeckError(f"TTS のデッキの {file} を書けません: {exc.strerror}") from None
    return deck


def write_files(root: Path, files: dict, decks=()) -> None:
    """``files`` (of one or more decks: ``deck_files``) into ``root`` as one set; then
    what an earlier print of ``decks`` (deck names) left there that this set does not
    rewrite is removed (``leftovers``): a deck that shrank keeps no sheet past its last,
    and a deck without cards now keeps no saved object of old ones."""
    # Whether a deck stands there to be kept whole, asked before: a first write that fails
    # leaves no deck, and its message must not speak of one.
    kept = "（前のデッキはそのままです）" if any(disk.present_file(root / name) for name in files) \
        else ""
    try:
        disk.write_set(root, files, inside=root)
    except disk.DiskError as exc:
        raise DeckError(f"{root} に TTS のデッキを書けません: {exc.strerror}{kept}") from None
    for name in leftovers(root, files, decks):
        try:
            os.unlink(root / name)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise DeckError(f"前のデッキの {name} を消せません: {disk.reason(exc)}"
                            "（新しいデッキは書けています）") from None


def leftovers(root: Path, files: dict, decks) -> list[str]:
    """The files of ``decks`` (deck names) in ``root`` that ``files`` does not hold — an
    earlier print's: its saved objects first (they name the images), then its images.
    Only a deck's own names are ever counted: ``<deck>.json``, ``<deck>-back.png`` and
    ``<deck>-<n>.png``."""
    if not decks:
        return []
    own = re.compile("(?:%s)(?:\\.json|-back\\.png|-[1-9][0-9]*\\.png)"
                     % "|".join(re.escape(deck) for deck in decks))
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found = [name for name in names if name not in files and own.fullmatch(name)
             and (root / name).is_file() and not (root / name).is_symlink()]
    return sorted(found, key=lambda name: not name.endswith(".json"))


def deck_files(folder, cards, faces, back, *, name: str = "jibunki",
               url_base: str | None = None) -> tuple[dict, Deck]:
    """The files of the deck ``write_deck`` writes (name → bytes or text, the saved object
    last) and the deck they make, nothing written."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise DeckError(f"デッキの名前 {name!r} はファイル名に使えません"
                        "（/ や \\ を含まず、. で始まらない 100 文字まで）")
    cards, faces = list(cards), list(faces)
    faces, back = _checked(cards, faces, back)
    sheets = layout(len(cards))
    try:
        root = Path(folder).resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        why = disk.reason(exc) if isinstance(exc, OSError) else "シンボリックリンクが循環しています"
        raise DeckError(f"TTS のデッキを書くフォルダ {folder} がありません: {why}") from None
    if not root.is_dir():
        raise DeckError(f"TTS のデッキを書く場所 {folder} はフォルダではありません")
    names = [f"{name}-{sheet.id}.png" for sheet in sheets]
    back_name, json_name = f"{name}-back.png", f"{name}.json"

    def url(file: str) -> str:
        return url_base + file if url_base is not None else (root / file).as_uri()

    files = {file: _png(image) for file, image in zip(names, sheet_images(faces, back))}
    files[back_name] = _png(back)
    obj = saved_object(cards, sheets, [url(n) for n in names], url(back_name), name)
    files[json_name] = json.dumps(obj, ensure_ascii=False, indent=1) + "\n"
    return files, Deck(sheets, tuple(root / file for file in files), root / json_name)
