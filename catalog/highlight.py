"""色付け — designer source marked up for the catalog, by the lexer of the content language.

The tokens are catalog.lexer's (Pygments; its words are the vocabulary's). Each token
becomes one of the catalog's css classes — structural keywords ``kw``, the terms of the
vocabulary ``term``, ``comment``, ``string``, ``number``, @flags ``flag`` — and
everything else is plain text (``name``). The text itself is never touched: the pieces
join back to the source, and the template escapes them.
"""

from __future__ import annotations

from functools import cache

from pygments.token import Comment, Keyword, Name, Number, String

__all__ = ["CSS_CLASSES", "highlight"]

#: The css class of a token (and of its subtypes), the first that contains it; any other
#: token is plain text.
CSS_CLASSES = (
    (Keyword, "kw"),
    (Name.Builtin, "term"),
    (Name.Constant, "term"),
    (Name.Variable, "flag"),
    (Comment, "comment"),
    (String, "string"),
    (Number, "number"),
)
PLAIN = "name"


@cache
def _lexer():
    from .lexer import JibunkiLexer

    return JibunkiLexer()


def _css_class(token) -> str:
    return next((css for kind, css in CSS_CLASSES if token in kind), PLAIN)


def highlight(source: str) -> list[tuple[str, str]]:
    """(css class, text) pieces of DSL source, in order; the template escapes the text.
    Plain text between the marked pieces has the class ``name``, one piece per stretch."""
    pieces: list[tuple[str, str]] = []
    for _, token, text in _lexer().get_tokens_unprocessed(source):
        css = _css_class(token)
        if css == PLAIN and pieces and pieces[-1][0] == PLAIN:
            pieces[-1] = (PLAIN, pieces[-1][1] + text)
        else:
            pieces.append((css, text))
    return pieces
