"""打ち方 — a word as a designer may type it, compared loosely.

An IME types letters and digits full-width (ｚａｎｇｙｏｕ, ２０), and a name is typed with
capitals or without: every loose lookup (the catalog's search box, ``vocab``, ``explain``,
``test -k``, the editor's workspace symbols, the journey's set-ups and items) compares
words through ``folded``, so each reads a word the same way.
"""

from __future__ import annotations

import unicodedata

__all__ = ["folded"]


def folded(text: str) -> str:
    """``text`` as loose lookups compare it: NFKC (全角 letters, digits and brackets as
    half-width, half-width カナ as full-width) and lower case."""
    return unicodedata.normalize("NFKC", text).lower()
