"""字句 — a Pygments lexer of the content language, its words read from the vocabulary.

The catalog may not import dsl/, so the lexer does not restate the grammar: its words are
``contract.vocabulary``'s — the structural keywords (``KEYWORDS``, the table the grammar's
keyword rules are generated from) and every spelling of every term, by table — and the
few lexical shapes of the language (comments, strings, @flags, numbers, names) follow
the grammar's terminals. A word is whole: ``歩兵`` is a name, not the term 歩 and 兵.

Registered as the Pygments plugin ``jibunki`` (pyproject's ``pygments.lexers`` entry
point): ``pygmentize -l jibunki content/pages/青年期.page``.
"""

from __future__ import annotations

import re
from functools import cache

from pygments.lexer import RegexLexer
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)

from contract import vocabulary as vocab
from contract.kinds import CONTENT_SUFFIXES

__all__ = ["ITEM_KEYWORDS", "JibunkiLexer", "TERM_TOKENS", "term_words", "word_tokens"]

#: The keywords that open an item of a file (by their rule in contract.vocabulary.KEYWORDS,
#: the parser's own list): declarations; the other keywords are plain keywords.
ITEM_KEYWORDS = vocab.ITEM_KEYWORDS

#: The token of a term by its vocabulary table: what holds a number (variables, counters,
#: quantities, balance keys, measures) is a builtin name; the words that qualify one
#: (timings, scopes, regions, lifetimes …) are constants.
TERM_TOKENS = {
    "variable": Name.Builtin, "counter": Name.Builtin, "quantity": Name.Builtin,
    "balance": Name.Builtin, "measure": Name.Builtin,
}
#: The token of a term of any other table, and of the terms outside the tables.
OTHER_TERMS = Name.Constant
#: Terms outside the lookup tables of contract.vocabulary.tables(), with their token.
LOOSE_TERMS = {"FLAG": Name.Builtin, "TILES_PASSED": Name.Builtin, "PAGES": Name.Constant,
               "FACES": Name.Constant}


def term_words():
    """Every spelling of every term, once, with the kind it is classified by and its
    token: ``(spelling, kind, token)``, the kind being its first table of
    contract.vocabulary.tables() (a spelling in two tables is the first's), else the
    lowercased name of its loose term (``tiles_passed``, ``flag`` …). Keywords are not set
    apart here: the lexer's word_tokens and the editor grammar (editors/build.py) both
    read this, so they classify a word alike."""
    seen: set[str] = set()
    kinds = [(table, TERM_TOKENS.get(table, OTHER_TERMS), lookup.spellings())
             for table, lookup in vocab.tables().items()]
    for name, token in LOOSE_TERMS.items():
        found = getattr(vocab, name)
        kinds.append((name.lower(), token, [spelling for entry in
                                            (found if isinstance(found, tuple) else (found,))
                                            for spelling in entry.spellings()]))
    for kind, token, spellings in kinds:
        for spelling in spellings:
            if spelling not in seen:
                seen.add(spelling)
                yield spelling, kind, token


@cache
def word_tokens() -> dict[str, object]:
    """Every spelling of the vocabulary → its token. A keyword that is also a term (銘,
    HP, 未来面 …) is a keyword; a term's token is its term_words token."""
    words: dict[str, object] = {spelling: token for spelling, _, token in term_words()}
    for rule, spellings in vocab.KEYWORDS.items():
        token = Keyword.Declaration if rule in ITEM_KEYWORDS else Keyword
        for spelling in spellings:
            words[spelling] = token
    return words


#: Letters of a name after its first (the grammar's NAME: /[^\W\d][\w・（）]*/), written
#: as escapes so that no symbol of the language is spelled here.
NAME_REST = r"[\w\u30fb\uff08\uff09]"
NAME = rf"[^\W\d]{NAME_REST}*"


def _word(lexer, match):
    """A whole name: its vocabulary token, else a plain name."""
    text = match.group()
    yield match.start(), word_tokens().get(text, Name), text


class JibunkiLexer(RegexLexer):
    """The content language of jibunki (*.page, *.enemy, *.balance, *.deck, *.scenario,
    *.journey)."""

    name = "jibunki"
    aliases = ["jibunki"]
    filenames = [f"*{suffix}" for suffix in CONTENT_SUFFIXES]
    mimetypes = ["text/x-jibunki"]
    flags = re.MULTILINE | re.UNICODE

    tokens = {
        "root": [
            (r"[ \t\u3000\ufeff]+", Whitespace),
            (r"\r?\n", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (r"\u300c[^\u300d\n]*\u300d", String.Double),
            (rf"@{NAME}", Name.Variable),
            (r"\d+(?:\.\d+)?(?:[eE][+\-]?\d+)?", Number),
            (NAME, _word),
            (r"[{}\[\]()|,;\u3001]", Punctuation),
            (r"[^\w\s\"#@{}\[\]()|,;\u3001\u300c]+", Operator),
            (r".", Text),
        ],
    }
