"""構文解析 — source text → AST, with every syntax error reported, never raised.

The LALR parser is built once per process (``get_parser``), from ``jibunki.lark`` plus
the keyword rules of :mod:`dsl.keywords`. There is no on-disk cache: building takes a
fraction of a second, and lark's ``cache=True`` would unpickle a file from /tmp.

Error recovery is textual, so positions stay exact: after a syntax error the offending
line (or, when it holds braces, the whole item) is overwritten with spaces and the file
is parsed again. Each pass removes text, so the loop ends; every error is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .diagnostics import Diagnostic, Span, error
from .keywords import KEYWORDS, canonical, grammar_rules
from . import ast

#: Brackets nested deeper than this are refused before parsing (the tree walk recurses).
MAX_NESTING = 40
#: After this many syntax errors in one file the rest of it is not worth reading.
MAX_ERRORS_PER_FILE = 50

_TOP_LEVEL_WORDS = [w for key in ("page", "enemy", "balance", "deck") for w in KEYWORDS[key]]
_ITEM_START = re.compile(
    r"^[ \t\u3000]*(?:%s)(?=[\s\"「])" % "|".join(map(re.escape, _TOP_LEVEL_WORDS)), re.M)


@cache
def get_parser():
    """The LALR parser, built on first use (never at import time)."""
    from lark import Lark

    grammar = (Path(__file__).with_name("jibunki.lark").read_text(encoding="utf-8")
               + "\n" + grammar_rules() + "\n")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                strict=True)


@dataclass(frozen=True)
class ParseResult:
    file: ast.SourceFile
    diagnostics: tuple[Diagnostic, ...]
    damaged: tuple[tuple[int, int], ...]  # line ranges blanked by error recovery


def parse(text: str, path: str) -> ParseResult:
    """Parse one file's text. Never raises on any input."""
    from lark.exceptions import UnexpectedInput, VisitError

    from .transform import ToAst

    diags: list[Diagnostic] = []
    damaged: list[tuple[int, int]] = []
    work = text

    deep = _too_deep(work)
    if deep is not None:
        line, col = _line_col(work, deep)
        diags.append(error("E005", f"括弧の入れ子が深すぎます（{MAX_NESTING} 段まで）",
                           Span(path, line, col, line, col + 1),
                           hint="式や予兆を分けて書いてください"))
        work, lines = _blank_item(work, deep)
        damaged.append(lines)

    tree = None
    for _ in range(MAX_ERRORS_PER_FILE):
        try:
            tree = get_parser().parse(work)
            break
        except UnexpectedInput as exc:
            pos = _error_pos(work, exc)
            before = work
            unclosed = _unclosed_item(work, exc, pos)
            if unclosed is not None:
                start, end = unclosed
                diags.append(_unclosed(work, start, path))
                work, lines = _blank_range(work, start, end)
            else:
                diags.append(_describe(exc, work, pos, path))
                work, lines = _blank_line(work, pos)
                if work == before:
                    work, lines = _blank_item(work, pos)
            if work == before:
                break
            damaged.append(lines)
    if tree is None:
        return ParseResult(ast.SourceFile(path, ()), tuple(diags), tuple(damaged))
    try:
        items = ToAst(path).transform(tree)
    except (VisitError, RecursionError) as exc:  # a bug in the transformer, not in content
        diags.append(error("E000", f"内部エラー: 構文木を作れませんでした ({exc})",
                           Span(path, 1, 1, 1, 2), hint="jibunki のバグです。報告してください"))
        items = ()
    return ParseResult(ast.SourceFile(path, tuple(items)), tuple(diags), tuple(damaged))


# --------------------------------------------------------------------- recovery


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def _error_pos(text: str, exc) -> int:
    pos = getattr(exc, "pos_in_stream", None)
    if pos is None:
        token = getattr(exc, "token", None)
        pos = getattr(token, "start_pos", None)
    if pos is None or pos < 0:
        return len(text)
    return min(pos, len(text))


def _blank(text: str, start: int, end: int) -> str:
    middle = "".join(ch if ch in "\r\n" else " " for ch in text[start:end])
    return text[:start] + middle + text[end:]


def _blank_line(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the line holding ``pos`` if that leaves the brackets balanced."""
    if pos >= len(text):
        return text, (0, 0)
    start = text.rfind("\n", 0, pos) + 1
    # An error at a newline belongs to the statement that the newline ends.
    if text[pos] == "\n" and pos == start and start > 0:
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    segment = _strip_strings(text[start:end])
    if any(segment.count(a) != segment.count(b) for a, b in ("{}", "[]", "()")):
        return text, (0, 0)
    if _ITEM_START.match(text, start):
        return text, (0, 0)
    line = text.count("\n", 0, start) + 1
    return _blank(text, start, end), (line, line)


def _blank_range(text: str, start: int, end: int) -> tuple[str, tuple[int, int]]:
    first = text.count("\n", 0, start) + 1
    last = text.count("\n", 0, end) + 1
    return _blank(text, start, end), (first, last)


def _unclosed_item(text: str, exc, pos: int) -> tuple[int, int] | None:
    """(start, end) of an item left open: the parser met the end of the file, or the
    next item's keyword, while still inside it."""
    token = getattr(exc, "token", None)
    starts = [m.start() for m in _ITEM_START.finditer(text)]
    at_eof = token is None and not hasattr(exc, "allowed") or (
        token is not None and token.type == "$END")
    if at_eof:
        before = [s for s in starts if s < len(text) and text[s:].strip()]
        return (before[-1], len(text)) if before else (0, len(text))
    line_start = text.rfind("\n", 0, pos) + 1
    match = _ITEM_START.match(text, line_start)
    if match and pos <= match.end() and token is not None and text[pos:].startswith(str(token)):
        before = [s for s in starts if s < line_start]
        if before:
            return before[-1], line_start
    return None


def _blank_item(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the whole top-level item holding ``pos`` (up to the next item's start)."""
    starts = [m.start() for m in _ITEM_START.finditer(text)]
    before = [s for s in starts if s <= pos]
    after = [s for s in starts if s > pos]
    start = before[-1] if before else text.rfind("\n", 0, pos) + 1
    end = after[0] if after else len(text)
    first = text.count("\n", 0, start) + 1
    last = text.count("\n", 0, end) + 1
    return _blank(text, start, end), (first, last)


_STRING = re.compile(r'"([^"\\\n]|\\.)*"|「[^」\n]*」|#[^\n]*')


def _strip_strings(text: str) -> str:
    return _STRING.sub("", text)


def _too_deep(text: str) -> int | None:
    """Offset of the first bracket nested deeper than MAX_NESTING, if any."""
    depth = 0
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text)
    for i, ch in enumerate(stripped):
        if ch in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                return i
        elif ch in "}])":
            depth = max(0, depth - 1)
    return None


# --------------------------------------------------------------------- messages

_TERMINAL_WORDS = {
    "NAME": "名前", "FLAG": "@フラグ", "NUMBER": "数値", "STRING": "文字列",
    "ASSIGN_OP": "演算子 (+= -= *= =)", "CMP": "比較 (>= <= == …)", "PLUS": "+",
    "MINUS": "-", "MUL": "× か /", "TIMES": "×", "ARROW": "->", "RANGE": "..",
    "_SEP": "改行", "_COMMA": "、", "$END": "ファイルの終わり",
}


def _terminal_word(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    term = next((t for t in get_parser().terminals if t.name == name), None)
    if term is not None and term.pattern.type == "str":
        return f"「{canonical(term.pattern.value)}」"
    return name


def _expected(names) -> str:
    words = sorted({_terminal_word(n) for n in names})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return "、".join(words)


def _found(token) -> str:
    if token.type == "$END":
        return "ファイルの終わり"
    if token.type == "_SEP":
        return "改行"
    return f"「{str(token)[:40]}」"


def _unclosed(text: str, start: int, path: str) -> Diagnostic:
    line, col = _line_col(text, start)
    line_end = text.find("\n", start)
    width = (line_end if line_end >= 0 else len(text)) - start
    return error("E003", "この定義が閉じていません（対応する } か ] がありません）",
                 Span(path, line, col, line, col + max(1, width)),
                 hint="この定義の最後に } を書いてください。途中の { と } の数も確かめてください")


def _describe(exc, text: str, pos: int, path: str) -> Diagnostic:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    line, col = _line_col(text, pos)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[pos] if pos < len(text) else ""
        shown = repr(ch)[1:-1] if not ch.isprintable() else ch
        return error("E002", f"ここでは使えない文字「{shown}」です",
                     Span(path, line, col, line, col + 1),
                     hint=f"ここに書けるのは: {_expected(exc.allowed)}" if exc.allowed else
                     "名前・数値・演算子・括弧のどれでもない文字です")
    token = exc.token
    assert isinstance(exc, UnexpectedToken), exc
    end_col = col + max(1, len(str(token))) if token.type != "_SEP" else col + 1
    hint = f"ここに書けるのは: {_expected(exc.expected)}"
    if token.type == "_SEP" and {"NUMBER", "NAME"} & set(exc.expected):
        hint = "値が足りません。例: 敵HP -= 12 ／ " + hint
    return error("E001", f"{_found(token)} はここに書けません", Span(path, line, col, line, end_col),
                 hint=hint)
