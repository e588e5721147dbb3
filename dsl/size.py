"""ファイルの大きさの上限 — the bounds of one content file's text, checked before the work
it would cost by everything that reads content: lint (compiler.read for bytes and lines,
compiler.pipeline for tokens), ``jibunki fmt`` (dsl.formatter) and the editor (lsp).

A file over a bound is no content anybody wrote by hand: it is pasted data or an attack,
and parsing or formatting it would take minutes and gigabytes (lark reads some 70,000
tokens a second). So each bound is measured in one linear pass, and a file over one is
refused in one diagnostic — E004 for bytes and lines, E048 for tokens — the same one
whichever command meets it.
"""

from __future__ import annotations

import re

from .codes import E004, E048
from .diagnostics import Diagnostic, Span

__all__ = ["MAX_FILE_BYTES", "MAX_FILE_TOKENS", "MAX_LINE_CHARS", "TOKEN", "TOKENS_HINT",
           "TOKENS_WHAT", "refusal", "too_long_line", "too_many_bytes", "too_many_tokens"]

#: A file larger than this is not hand-written content.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: Nobody writes a 作用 this long; such a line is pasted data or garbage.
MAX_LINE_CHARS = 10_000
#: The most tokens of one file (the bundled files hold at most ~1,200).
MAX_FILE_TOKENS = 50_000
#: What the token bound counts and what to do about it, as E048 says (compiler.limits
#: lists it with the other bounds).
TOKENS_WHAT = "1ファイルの語と記号"
TOKENS_HINT = "手で書くコンテンツの大きさではありません。定義をいくつかのファイルに分けてください"

#: What the lexer reads as one token, closely enough to bound its work: a string and a
#: comment are one each, names and numbers one each, any other visible character one.
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|「[^」\n]*」|#[^\n]*|@?[^\W\d][\w・（）]*'
                   r"|\d+(?:\.\d+)?(?:[eE][+\-]?\d+)?|[^\s\w]")


def too_many_bytes(size: int, path: str) -> Diagnostic | None:
    """E004 when a file of ``size`` bytes is over MAX_FILE_BYTES, or None."""
    if size <= MAX_FILE_BYTES:
        return None
    return E004.at(Span(path, 1, 1, 1, 2), f"ファイルが大きすぎます（{size} バイト）",
                   hint=f"コンテンツのファイルは {MAX_FILE_BYTES // 1024} KiB までです")


def too_long_line(text: str, path: str) -> Diagnostic | None:
    """E004 at the first line longer than MAX_LINE_CHARS, or None."""
    if len(text) <= MAX_LINE_CHARS:
        return None
    for number, line_text in enumerate(text.split("\n"), 1):
        if len(line_text) > MAX_LINE_CHARS:
            where = Span(path, number, MAX_LINE_CHARS + 1, number, MAX_LINE_CHARS + 2)
            return E004.at(where, f"{number} 行目が長すぎます（{len(line_text)} 文字）",
                           hint=f"1行は {MAX_LINE_CHARS} 文字までです。"
                                "作用や予兆を複数の行に分けてください")
    return None


def too_many_tokens(text: str, path: str) -> Diagnostic | None:
    """E048 at the first token past MAX_FILE_TOKENS, or None. Linear in the text, and
    free for any file shorter than the bound (a token is at least one character)."""
    bound = MAX_FILE_TOKENS
    if len(text) <= bound:
        return None
    for count, match in enumerate(TOKEN.finditer(text), 1):
        if count > bound:
            # The count is an estimate of the lexer's: point at the line it ends in,
            # where its first word starts, not inside a token ("+=" counts as two here).
            offset = match.start()
            line = text.count("\n", 0, offset) + 1
            start = text.rfind("\n", 0, offset) + 1
            col = len(text[start:offset]) - len(text[start:offset].lstrip(" \t\u3000")) + 1
            total = count + sum(1 for _ in TOKEN.finditer(text, match.end()))
            return E048.at(Span(path, line, col, line, col + 1), what=TOKENS_WHAT,
                           count=total, bound=bound, unit="個", hint=TOKENS_HINT)
    return None


def refusal(text: str, path: str) -> Diagnostic | None:
    """Why ``text`` is too large to be read as content (bytes, a line, tokens — the first
    bound it is over), or None."""
    if len(text) > MAX_FILE_BYTES // 4:  # a character is at most four bytes
        over = too_many_bytes(len(text.encode("utf-8", "surrogatepass")), path)
        if over is not None:
            return over
    return too_long_line(text, path) or too_many_tokens(text, path)
