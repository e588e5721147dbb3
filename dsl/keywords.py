"""キーワード — the grammar rules of the language's structural keywords.

The words themselves are the vocabulary's (``contract.vocabulary.KEYWORDS``: rule name →
canonical Japanese keyword and its one ASCII alias); names of the game's vocabulary that
are not keywords are read by the grammar as plain names and resolved by the compiler.
The grammar refers to each keyword as ``_kw_<rule>``; the rules are generated from the
table when the parser is built, so the Japanese form and its alias can never drift apart.
"""

from __future__ import annotations

import re
from functools import cache

from contract.typed import read_alike
from contract.vocabulary import KEYWORDS

__all__ = ["KEYWORDS", "MISCONVERSIONS", "canonical", "grammar_rules",
           "misconverted", "spellings", "unglued", "variant_of"]

#: 変換ミス — kanji an IME offers for the reading of a one-character keyword, by the
#: keyword's rule: difflib cannot see 名 as close to 銘 (no character in common), the
#: reading can. Only one-character keywords need it; longer ones share a character.
MISCONVERSIONS: dict[str, str] = {
    "year": "名明命迷冥",   # めい
    "enemy": "的適滴摘",     # てき
    "at": "米枚",           # まい
    "times": "会改解階界",   # かい
    "example": "令礼冷零",   # れい
}


def variant_of(word: str, expected) -> str | None:
    """The keyword among ``expected`` spellings that ``word`` is, read as the eye reads it
    (contract.typed.read_alike: its variant kanji as the keywords' forms, half- or
    full-width letters and kana as NFKC reads them, ひらがな as カタカナ, ASCII in lower
    case) — or None: 未來面 is the future face's keyword."""
    meant = read_alike(word)
    return meant if meant != word and meant in expected else None


def grammar_rules() -> str:
    """The ``_kw_*`` rules appended to the grammar: ``_kw_year: "銘" | "year"``."""
    return "\n".join(
        f'_kw_{rule}: "{ja}" | "{ascii_}"' for rule, (ja, ascii_) in KEYWORDS.items()
    )


def spellings() -> list[str]:
    """Every spelling of every keyword (for suggestions: a keyword typed wrong)."""
    return [word for pair in KEYWORDS.values() for word in pair]


def canonical(spelling: str) -> str:
    """The canonical Japanese form of a keyword spelling (for the formatter and messages)."""
    for ja, ascii_ in KEYWORDS.values():
        if spelling in (ja, ascii_):
            return ja
    return spelling


def misconverted(word: str, expected) -> str | None:
    """The one-character keyword among ``expected`` spellings that ``word`` is a known
    mis-conversion of (名 → 銘), or None."""
    for rule, wrong in MISCONVERSIONS.items():
        if len(word) == 1 and word in wrong and KEYWORDS[rule][0] in expected:
            return KEYWORDS[rule][0]
    return None


@cache
def _glued() -> re.Pattern:
    words = sorted(spellings(), key=len, reverse=True)
    return re.compile(r"(%s)(\d+(?:\.\d+)?)(\w*)" % "|".join(map(re.escape, words)))


def unglued(word: str) -> str | None:
    """``word`` with the spaces put back between a keyword and the number written against
    it — ``next3play`` → ``next 3 play``, ``max2times`` → ``max 2 times``, and the same
    of the Japanese spellings — or None when ``word`` does not start with a keyword
    followed by a number. (The lexer reads such a word as one name: letters and digits
    may make up a name.)"""
    match = _glued().fullmatch(word)
    if match is None:
        return None
    keyword, number, rest = match.groups()
    return " ".join(part for part in (keyword, number, rest) if part)
