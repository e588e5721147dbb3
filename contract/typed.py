"""打ち方 — a word as a designer may type it, compared loosely.

An IME types letters and digits full-width (ｚａｎｇｙｏｕ, ２０), and a name is typed with
capitals or without (``folded``: ``explain`` reads a code so); a word typed in the other
kana (てんと for テント) or with a variant kanji (未來 for 未来) is one the eye takes for the
word meant (``read_alike``). Every loose lookup of a name — the catalog's search box,
``vocab``, ``test -k``, the editor's workspace symbols, the did-you-means
(compiler.names: the journey's set-ups and items, ids and display names on the command
line, the linter's names and keywords) — reads a word through ``read_alike``, so each
reads it the same way.
"""

from __future__ import annotations

import unicodedata

__all__ = ["READ_ALIKE", "VARIANT_FORMS", "folded", "read_alike"]


def folded(text: str) -> str:
    """``text`` as loose lookups compare it: NFKC (全角 letters, digits and brackets as
    half-width, half-width カナ as full-width) and lower case."""
    return unicodedata.normalize("NFKC", text).lower()


#: 異体字 — old and variant forms of the kanji the keywords are written with (來 for 来,
#: 卻 for 却), and a kanji an IME offers for the same reading (麺 for 面), by the form
#: the keyword uses. A word two of them away from a keyword (未來麵) is too far for
#: difflib, and each is one the eye does not catch.
VARIANT_FORMS: dict[str, str] = {
    "来": "來徠", "面": "麵麪麺", "却": "卻", "条": "條", "寿": "壽", "囲": "圍",
    "予": "豫", "払": "拂", "回": "囘", "毎": "每", "準": "凖",
}
#: What ``read_alike`` reads each character as: the variant kanji as the keywords' forms,
#: ひらがな as カタカナ (ぁ–ゖ are カタカナ's code points less 0x60). The catalog's search box
#: reads a query with it too (catalog/render.py).
READ_ALIKE: dict[str, str] = {
    **{old: new for new, olds in VARIANT_FORMS.items() for old in olds},
    **{chr(code): chr(code + 0x60) for code in range(ord("ぁ"), ord("ゖ") + 1)}}
_READ_ALIKE = str.maketrans(READ_ALIKE)


def read_alike(text: str) -> str:
    """``text`` as the eye reads it: ``folded``, with ひらがな as カタカナ and variant kanji
    (VARIANT_FORMS) as the keywords' forms — two words equal here are the same word
    typed another way (てんと, ﾃﾝﾄ and テント; 未來面 and 未来面)."""
    return folded(text).translate(_READ_ALIKE)
