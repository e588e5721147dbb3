"""色付け — designer source marked up for the catalog, by the words of the vocabulary.

The catalog does not restate the grammar (it may not import dsl/): it marks the words
``contract.vocabulary`` defines — structural keywords as ``kw``, the names of variables,
counters, timings, regions … as ``term`` — and the few lexical shapes a reader needs to
tell apart: comments, strings (so that a ``#`` or a keyword inside one is not marked),
numbers and @flags. Everything else is plain text.
"""

from __future__ import annotations

import re
from functools import cache

from contract import vocabulary as vocab

__all__ = ["highlight", "word_classes"]

#: Terms outside the lookup tables of contract.vocabulary.tables().
_LOOSE_TERMS = ("FLAG", "TILES_PASSED", "PAGES", "FACES")


def word_classes() -> dict[str, str]:
    """Every spelling of the vocabulary → its css class (``kw`` or ``term``)."""
    words: dict[str, str] = {}
    terms = [entry for table in vocab.tables().values() for entry in table.entries]
    for name in _LOOSE_TERMS:
        found = getattr(vocab, name, ())
        terms += found if isinstance(found, tuple) else [found]
    for entry in terms:
        for spelling in entry.spellings():
            words[spelling] = "term"
    # Structural keywords (ページ, 銘, 未来面 … with their ASCII aliases), rule name →
    # (Japanese, ASCII) or a Term. A keyword that is also a term is marked as a keyword.
    for keyword in getattr(vocab, "KEYWORDS", {}).values():
        for spelling in keyword.spellings() if hasattr(keyword, "spellings") else keyword:
            words[spelling] = "kw"
    return words


@cache
def _pattern() -> tuple[re.Pattern, dict[str, str]]:
    words = word_classes()
    # Longest first, so that ターン開始時 wins over ターン and 使用した歩 over 歩. A word
    # is whole: not inside a longer name (a digit may come before it: 1枚, 2ターンごと).
    alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    pattern = re.compile(
        r"(?P<comment>#[^\n]*)"
        r"|(?P<string>\"(?:[^\"\\\n]|\\.)*\"|「[^」\n]*」)"
        rf"|(?<![^\W\d])(?P<word>{alternatives})(?!\w)"
        r"|(?<!\w)(?P<number>\d+(?:\.\d+)?)"
        r"|(?P<flag>@[^\W\d][\w・]*)", re.S)
    return pattern, words


def highlight(source: str) -> list[tuple[str, str]]:
    """(css class, text) pieces of DSL source, in order; the template escapes the text.
    Plain text between the marked pieces has the class ``name``."""
    pattern, words = _pattern()
    pieces: list[tuple[str, str]] = []
    at = 0
    for match in pattern.finditer(source):
        if match.start() > at:
            pieces.append(("name", source[at:match.start()]))
        kind, text = match.lastgroup, match.group()
        pieces.append((words[text] if kind == "word" else kind, text))
        at = match.end()
    if at < len(source):
        pieces.append(("name", source[at:]))
    return pieces
