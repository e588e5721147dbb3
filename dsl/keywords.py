"""キーワード — the grammar rules of the language's structural keywords.

The words themselves are the vocabulary's (``contract.vocabulary.KEYWORDS``: rule name →
canonical Japanese keyword and its one ASCII alias); names of the game's vocabulary that
are not keywords are read by the grammar as plain names and resolved by the compiler.
The grammar refers to each keyword as ``_kw_<rule>``; the rules are generated from the
table when the parser is built, so the Japanese form and its alias can never drift apart.
"""

from __future__ import annotations

from contract.vocabulary import KEYWORDS

__all__ = ["KEYWORDS", "canonical", "grammar_rules", "spellings"]


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
