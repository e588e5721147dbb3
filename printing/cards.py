"""札 — a printable card as plain data: what every later pass (the sheets, the manifest, the
Tabletop Simulator deck) reads, whatever the game the card comes from (a page, an enemy,
a card of the draft 17 solitaire).

A card holds words only, never markup: the templates escape it (designer text never
becomes markup). Its ``key`` is stable across prints, so the manifest can tell a card
that changed from one that is new.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The kinds of card, in the order a print lays them out, with the word on their backs.
KINDS = {
    "page": "ページ",
    "enemy": "敵",
    "event": "イベント",
    "location": "ロケーション",
    "flag": "フラグ",
    "item": "アイテム",
    "summary": "早見表",
}

def named(key: str) -> str:
    """A card's key in the designer's words: its kind, then the id (ページ hatsu_koe,
    イベント 白1; 早見表 1) — the key itself ("page/hatsu_koe") is the print's own."""
    kind, _, ident = key.partition("/")
    return f"{KINDS.get(kind, kind)} {ident}".strip()


#: The colours a card can be framed in — draft 17's suits are colours (赤 緑 青 黄 白) and
#: its author wants the play cards read by colour first (「色をベースにして」): code →
#: (frame, ink). The frame fills the bleed and the border round the white panel, so a
#: card fanned in a hand shows its suit at its edge; the ink colours the corner's index on
#: the panel, dark enough to read where the frame is light (黄, 白).
TINTS = {
    "red": ("#c8372d", "#a8231b"),
    "green": ("#3a8a3f", "#23692a"),
    "blue": ("#2f6fb5", "#1d4f8a"),
    "yellow": ("#f2c230", "#7a5e00"),
    "white": ("#e2e2dc", "#4a4a4a"),
}


@dataclass(frozen=True)
class Section:
    """One block of a card's rules text: a heading (未来面, 過去面, ペン, 破却, 1ターン目 …;
    "" for none) and its lines, each exactly as the catalog says it."""

    heading: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    """One printable card.

    ``key``: unique in a print and stable across prints ("page/hatsu_koe", "enemy/kodoku",
    "event/白1", "summary"); ``kind``: one of ``KINDS``; ``badges``: small (label, value)
    facts shown by the title (銘 12, 綻び倍率 2.0, 出自 幼少期, 座 30, HP 120 …);
    ``mark``: a page's 銘, drawn as its place on a small number line (None: no line);
    ``flavour``: the card's flavour text ("" for none); ``mark_top``: the top of the mark's
    number line (寿命上限; a 銘 beyond it draws the line on to the 銘, with a tick at it;
    None: the line ends at the mark); ``tint``: the colour of ``TINTS`` its frame is
    printed in (None: its kind's); ``corner``: a playing card's index, large at the top
    corner, first line first (an event's 数字, then its キーアイコン; () for none);
    ``card_icons``: a location's カードアイコン, nearest the location first, True for a red
    one (the draft's 赤いカードアイコン).

    The last three are how the card looks, not what it says: each repeats a badge (スート,
    数字, キーアイコン, 枠, 赤枠), so a reader who cannot tell the colours reads the words."""

    key: str
    kind: str
    title: str
    badges: tuple[tuple[str, str], ...] = ()
    sections: tuple[Section, ...] = ()
    flavour: str = ""
    mark: int | None = None
    mark_top: int | None = None
    tint: str | None = None
    corner: tuple[str, ...] = ()
    card_icons: tuple[bool, ...] = ()

    @property
    def back(self) -> str:
        """The word on the card's back: its kind's."""
        return KINDS[self.kind]
