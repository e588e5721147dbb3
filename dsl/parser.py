"""構文解析 — source text → AST, with every syntax error reported, never raised.

The LALR parser is built once per process (``get_parser``), from ``jibunki.lark`` plus
the keyword rules of :mod:`dsl.keywords`, or read from the user's private cache folder
(see ``build_parser``: the file is checked before a byte of it is read, and unpickled
without any globals, so a planted file can neither run code nor hang the run).

Error recovery is textual, so positions stay exact: after a syntax error the offending
line (or, when it opens a block, the line and its block; failing that, the whole item)
is overwritten with spaces and the item is parsed again. Each pass removes text, so the
loop ends; every error is reported.
Items are parsed one by one (``_chunks``), so an error costs a re-parse of its own item.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

from . import diskcache
from .codes import E000, E001, E002, E003, E005
from .diagnostics import Diagnostic, Note, Span
from .slips import GROUPED_NUMBER, OPERATORS_TAKE_EQUALS, thousands_hint
from .tails import tail_keyword, value_left_out
from .keywords import (KEYWORDS, canonical, grammar_rules, misconverted, unglued,
                       variant_of)
from . import ast
from .headers import TOP_LEVEL_WORDS as _TOP_LEVEL_WORDS
from .ast import ParseResult  # what parse returns (dsl.ast: the cache builds it too)
from contract import kinds
from contract.linebreak import UNSHOWABLE
from contract import vocabulary as vocab
from contract.vocabulary import W

#: Brackets nested deeper than this are refused before parsing (the tree walk recurses).
MAX_NESTING = 40
#: Operators in one statement: each is a level of the expression tree (``1 + 1 + …``).
MAX_OPERATORS = 100
#: After this many syntax errors in one file the rest of it is not worth reading.
MAX_ERRORS_PER_FILE = 50

_ITEM_START = re.compile(
    r"^[ \t\u3000]*(?:%s)(?=[\s\"「]|\Z)" % "|".join(map(re.escape, _TOP_LEVEL_WORDS)), re.M)
#: Strings and comments (skipped) and braces (counted) — see _item_starts.
_BRACE_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|「[^」\n]*」|#[^\n]*|[{}]')


def _item_starts(text: str) -> list[int]:
    """Offsets of the lines that start an item. A line beginning with an item keyword
    starts one at brace depth 0, or when it opens its own "{" (the item before was left
    open); a keyword line inside an item without a "{" of its own is a statement of that
    item (``敵 haguruma`` and ``デッキ [ … ]`` in a 例)."""
    starts = []
    depth, braces = 0, _BRACE_SCAN.finditer(text)
    brace = next(braces, None)
    for match in _ITEM_START.finditer(text):
        at = match.start()
        while brace is not None and brace.start() < at:
            if brace.group() == "{":
                depth += 1
            elif brace.group() == "}":
                depth = max(0, depth - 1)
            brace = next(braces, None)
        line_end = text.find("\n", at)
        header = _strip_strings(text[at:len(text) if line_end < 0 else line_end])
        if depth == 0 or "{" in header:
            starts.append(at)
            depth = 0
    return starts


@cache
def get_parser():
    """The LALR parser, built on first use (never at import time), from the disk cache
    when there is a safe one."""
    return build_parser(use_cache=True)


def grammar_text() -> str:
    """The whole grammar: jibunki.lark plus the keyword rules of dsl.keywords."""
    return (Path(__file__).with_name("jibunki.lark").read_text(encoding="utf-8")
            + "\n" + grammar_rules() + "\n")


PARSER_OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True,
                      strict=True)


def build_parser(use_cache: bool = True):
    """A new LALR parser. With ``use_cache``, the built tables are kept in
    ``$XDG_CACHE_HOME/jibunki/`` (or ``$HOME/.cache/jibunki/``), and read back from there
    when the file passes every check of ``dsl.diskcache.read_entry``. ``JIBUNKI_NO_CACHE=1``
    turns the cache off. Nothing about the cache is ever an error: whatever is doubtful,
    the parser is built from the grammar instead.
    A parser from the cache has no ``.grammar``: tools that walk the grammar (hypothesis'
    ``from_lark``) build one with ``use_cache=False``."""
    from lark import Lark

    grammar = grammar_text()
    folder = diskcache.open_folder() if use_cache else None
    if folder is None:
        return Lark(grammar, **PARSER_OPTIONS)
    try:
        name, key = _cache_name(grammar, PARSER_OPTIONS)
        parser = _read_cache(folder, name, key)
        if parser is None:
            parser = Lark(grammar, **PARSER_OPTIONS)
            _write_cache(folder, name, key, parser)
        return parser
    finally:
        os.close(folder)


#: The cache file is about 0.3 MB; anything much larger is not ours, and is never read
#: whole (a link to /dev/zero, or a file that grows while we read it).
MAX_CACHE_BYTES = 8 * 1024 * 1024
_CACHE_MAGIC = b"jibunki-parser-cache 1\n"
_TEMP_PREFIX = ".grammar-"


def _cache_name(grammar: str, options: dict) -> tuple[str, bytes]:
    """(file name, key): the key covers everything the pickled tables depend on, and is
    stored in the file too, so a file under the right name but of another build is
    refused rather than used."""
    import hashlib
    import sys

    from lark import __version__

    text = "\0".join((__version__, "%d.%d" % sys.version_info[:2],
                      repr(sorted(options.items())), grammar))
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return f"grammar-{key[:16]}.cache", key.encode("ascii")


def _read_cache(folder: int, name: str, key: bytes):
    """The cached parser, or None for a missing, foreign, odd or damaged file (every
    check is ``dsl.diskcache.read_entry``'s; the tables are unpickled without globals)."""
    from lark import Lark

    payload = diskcache.read_entry(folder, name, key, _CACHE_MAGIC, MAX_CACHE_BYTES)
    if payload is None:
        return None
    try:
        saved = diskcache.loads_literal(payload)
        if not isinstance(saved, dict):
            return None
        return Lark.load(saved)  # lark's own loader, given the dict instead of a file
    except Exception:  # anything doubtful: build the parser instead
        return None


def _write_cache(folder: int, name: str, key: bytes, parser) -> None:
    """Save the parser's tables (``dsl.diskcache.write_entry``: a private temporary file
    renamed into place). Failing to save (a read-only folder, a full disk) is no error."""
    import io

    diskcache.remove_stale_temps(folder, _TEMP_PREFIX)
    try:
        buffer = io.BytesIO()
        parser.save(buffer)
    except Exception:
        return
    diskcache.write_entry(folder, name, key, buffer.getvalue(), _CACHE_MAGIC,
                          MAX_CACHE_BYTES, _TEMP_PREFIX)


def parse(text: str, path: str, suggest=None) -> ParseResult:
    """Parse one file's text. Never raises on any input.

    ``suggest(word, candidates) -> str | None`` (the closest candidate, compiler.names)
    adds a hint and a replacement to a word written where a keyword belongs: 未来 →
    「未来面」.

    A file with mistakes is cut into chunks at the lines that start an item (``ページ a
    …``), and each chunk is parsed on its own: a syntax error costs a re-parse of its item
    only, not of the whole file, and one item's damage cannot spill into the next.
    """
    from lark.exceptions import UnexpectedInput

    unshowable = [_unshowable(text, match.start(), path) for match in UNSHOWABLE.finditer(text)]
    if unshowable:  # reported once each here, and read as spaces (every column kept)
        text = UNSHOWABLE.sub(" ", text)
    if _too_deep(text) is None and _too_long(text) is None:
        try:  # the common case, a file without mistakes: one pass, exactly the grammar
            tree = get_parser().parse(text)
        except UnexpectedInput:
            pass
        else:
            items, diags, _ = _transform(tree, path, 0)
            return ParseResult(ast.SourceFile(path, tuple(items)), (*unshowable, *diags), ())

    diags: list[Diagnostic] = unshowable[:MAX_ERRORS_PER_FILE]
    damaged: list[tuple[int, int]] = []
    # 例 written inside a page's braces would cut the page there (a 例 starts an item): the
    # page read as unclosed and its own } as a stray one. Said at the 例; the page is read
    # without it.
    starts = _item_starts(text)
    for start, end, following in zip(starts, starts[1:], [*starts[2:], len(text)]):
        nested = _nested_example(text, start, end, following)
        if nested is not None:
            diags.append(_nested_example_said(text, nested[0], path))
            text, lines = _blank_range(text, *nested)
            damaged.append(lines)
    items: list = []
    line = 1
    for start, end in _chunks(text):
        chunk = text[start:end]
        if len(diags) < MAX_ERRORS_PER_FILE:
            shift = line - 1
            found, problems, blanked = _parse_chunk(chunk, path, shift,
                                                    MAX_ERRORS_PER_FILE - len(diags), suggest)
            items.extend(found)
            diags.extend(_shift_diag(d, shift) for d in problems)
            damaged.extend((a + shift, b + shift) for a, b in blanked)
        line += chunk.count("\n")
    return ParseResult(ast.SourceFile(path, tuple(items)), tuple(diags), tuple(damaged))


def _unshowable(text: str, pos: int, path: str) -> Diagnostic:
    """E002 at a character no terminal shows as itself (contract.linebreak.UNSHOWABLE),
    wherever it stands — in a string it would reach the battle screen and the reports."""
    line, col = _line_col(text, pos)
    return E002.at(Span(path, line, col, line, col + 1),
                   f"ここでは使えない文字「{repr(text[pos])[1:-1]}」です",
                   hint="制御文字（エスケープ・書字方向の制御など）は画面の表示を乱すので、"
                        "名前や文や注釈にも書けません。消してください")


def _chunks(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets: what precedes the first item, then one chunk per line that
    starts an item. Every chunk starts at the beginning of a line."""
    starts = _item_starts(text)
    bounds = sorted({0, *starts})
    return [(a, b) for a, b in zip(bounds, bounds[1:] + [len(text)]) if a < b or not text]


def item_start(text: str, offset: int) -> int:
    """Offset of the line that starts the item holding ``offset`` (0 before the first
    item): where a parse of that item alone begins (the editor's completion, dsl.position)."""
    return max((s for s in _item_starts(text[:offset]) if s <= offset), default=0)


def drop_statement(text: str, pos: int) -> str:
    """``text`` with the statement holding ``pos`` blanked as recovery does after a syntax
    error there — its line, or failing that the block its line opens; unchanged when
    neither can go without unbalancing the item's brackets."""
    work, _ = _blank_line(text, pos)
    if work == text:
        work, _ = _blank_block(text, pos)
    return work


def _shift_diag(diag: Diagnostic, lines: int) -> Diagnostic:
    if not lines:
        return diag
    def moved(span):
        return replace(span, line=span.line + lines, end_line=span.end_line + lines)

    notes = tuple(replace(n, span=moved(n.span)) if n.span else n for n in diag.notes)
    return replace(diag, span=moved(diag.span), notes=notes)


def _parse_chunk(work: str, path: str, shift: int, budget: int, suggest=None):
    """(items, diagnostics, damaged line ranges) of one chunk. The chunk starts on line
    ``shift + 1`` of the file: the items' spans say so already; the diagnostics and the
    damaged ranges are in chunk-local lines."""
    from lark.exceptions import UnexpectedInput

    diags: list[Diagnostic] = []
    damaged: list[tuple[int, int]] = []

    # The tree walk recurses once per level of nesting: refuse what would overflow it.
    for _ in range(budget):
        deep = _too_deep(work)
        if deep is None:
            break
        line, col = _line_col(work, deep)
        diags.append(E005.at(Span(path, line, col, line, col + 1), f"括弧の入れ子が深すぎます（{MAX_NESTING} 段まで）", hint="式や予兆を分けて書いてください"))
        work, lines = _blank_item(work, deep)
        damaged.append(lines)
    for _ in range(budget):
        long = _too_long(work)
        if long is None:
            break
        line, col = _line_col(work, long)
        diags.append(E005.at(Span(path, line, col, line, col + 1), f"式が長すぎます（1つの式に演算子は {MAX_OPERATORS} 個まで）", hint="作用を複数の行に分けて書いてください"))
        before = work
        work, lines = _blank_line(work, long)
        if work == before:
            work, lines = _blank_item(work, long)
        damaged.append(lines)

    tree = None
    read_as = None  # where a full-width symbol was last read as its half-width one
    while len(diags) < budget:
        try:
            tree = get_parser().parse(work)
            break
        except UnexpectedInput as exc:
            pos = _error_pos(work, exc)
            before = work
            just_read, read_as = pos == read_as, None
            inner = None if just_read else _unclosed_brace(work)
            unclosed = None if just_read or inner else _unclosed_item(work, exc, pos)
            bracket = None if just_read or inner or unclosed else _unclosed_bracket(work, pos)
            if just_read:
                # the half-width symbol does not belong there either: its E002 said so,
                # the line is dropped as any other line the parser cannot read
                work, lines = _drop_line(work, pos)
            elif bracket is not None:
                # A [ left open: the parser reads on into the next lines as the list's
                # items and fails there; report the [ and drop its line.
                line, col = _line_col(work, bracket)
                _add(diags, E003.at(Span(path, line, col, line, col + 1), "この「[」が閉じていません",
                                    hint="対応する「]」を書いてください"
                                         f"（例: {W.counter.steps_used}[{W.scope.play}]）"))
                work, lines = _blank_range(work, *_line_of(work, bracket))
            elif inner is not None:
                # An inner { left open: the error the parser met lies further on (the
                # next line, or the end of the item); report the brace. Its "}" is read
                # after the block's last statement (before that line's comment), so the
                # block's own lines are checked too — the lines after it keep their
                # indentation, which shows the next block left open; a block with no
                # statement is dropped.
                brace, block_end, revealed = inner
                _add(diags, _unclosed_inner(work, brace, revealed, path, shift))
                close = _block_close(work, brace, block_end) if revealed is not None else None
                if close is not None:
                    work = work[:close] + "}" + work[close:]
                    line = work.count("\n", 0, brace) + 1
                    lines = (line, line)
                else:
                    work, lines = _blank_range(work, work.rfind("\n", 0, brace) + 1, block_end)
            elif unclosed is not None:
                start, end = unclosed
                _add(diags, _unclosed(work, start, end, path))
                work, lines = _blank_range(work, start, end)
            elif _in_header(work, exc, pos):
                # "ページ a" without its "{": the lines after it are not worth reading one
                # by one (each would be another error); report once, drop the item.
                _add(diags, _describe(exc, work, pos, path, suggest))
                work, lines = _blank_item(work, pos)
            elif (early := _early_close(work, exc, pos)) is not None:
                # One } too many closed the item early: its last lines read as outside
                # any definition and its item checks as missing what they hold. Report
                # that } alone and read the item without it.
                line, col = _line_col(work, early)
                _add(diags, E001.at(
                    Span(path, line, col, line, col + 1), "この } で定義が閉じています",
                    hint="余分な } なら消してください（ここで定義が閉じたので、"
                         "あとの行が定義の外になっていました）", replacements=("",)))
                work = work[:early] + " " + work[early + 1:]
                lines = (line, line)
            elif _unmatched_closer(work, pos):
                # A stray } ] ): dropping it alone keeps everything around it.
                _add(diags, _describe(exc, work, pos, path, suggest))
                work, lines = _blank_range(work, pos, pos + 1)
            elif (meant := _item_keyword_meant(work, exc, pos, suggest)) is not None:
                # A misspelt item keyword (ぺージ p {): reported with its did-you-mean,
                # and the item read as spelt right, so its other lines are checked too.
                _add(diags, _describe(exc, work, pos, path, suggest))
                work = work[:pos] + meant + work[pos + len(meant):]
                line = work.count("\n", 0, pos) + 1
                lines = (line, line)
            elif (wide := _wide_symbol(work, exc, pos, path, suggest)) is not None:
                # A full-width symbol (未来面 ｛): reported with its half-width fix, and
                # read as that — dropping its line made errors of the lines it opened.
                diag, half = wide
                _add(diags, diag)
                work = work[:pos] + half + work[pos + 1:]
                read_as = pos
                line = work.count("\n", 0, pos) + 1
                lines = (line, line)
            else:
                _add(diags, _describe(exc, work, pos, path, suggest))
                work, lines = _drop_line(work, pos)
            if work == before:
                break
            damaged.append(lines)
    if tree is None:  # nothing of the chunk was read: all of it is damaged
        return (), diags, [*damaged, (1, work.count("\n") + 1)]
    items, problems, _ = _transform(tree, path, shift)
    return items, diags + problems, damaged


def _transform(tree, path: str, shift: int):
    """(items, diagnostics, ()) of a parse tree; E000 if the transformer fails."""
    from lark.exceptions import VisitError

    from .transform import ToAst

    try:
        builder = ToAst(path, shift)
        return builder.transform(tree), builder.broken_names, ()
    except (VisitError, RecursionError) as exc:  # a bug in the transformer, not in content
        return (), [E000.at(Span(path, 1, 1, 1, 2), f"内部エラー: 構文木を作れませんでした ({exc})"[:300], hint="jibunki のバグです。報告してください")], ()


# --------------------------------------------------------------------- recovery


def _add(diags: list[Diagnostic], diag: Diagnostic) -> None:
    """Report once: recovery may meet the same bad character again on the next pass."""
    if not any(d.code == diag.code and d.span == diag.span for d in diags):
        diags.append(diag)


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


def _statement_start(text: str, pos: int) -> int:
    """Start of the line holding ``pos`` (``pos < len(text)``); an error at a newline
    belongs to the statement that the newline ends."""
    start = text.rfind("\n", 0, pos) + 1
    if text[pos] == "\n" and pos == start and start > 0:
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _blank_line(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the line holding ``pos`` if that leaves the brackets balanced."""
    if pos >= len(text):
        return text, (0, 0)
    start = _statement_start(text, pos)
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    segment = _strip_strings(text[start:end])
    if any(segment.count(a) != segment.count(b) for a, b in ("{}", "[]", "()")):
        return text, (0, 0)
    if start in _item_starts(text):
        return text, (0, 0)
    line = text.count("\n", 0, start) + 1
    return _blank(text, start, end), (line, line)


def _blank_statement(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the statement holding ``pos`` that follows a ``{`` or ``;`` on its line, to
    the line's end, if that leaves the brackets balanced: the first 作用 written on a
    block's opening line (過去面 { 敵HP - 4)."""
    if pos >= len(text):
        return text, (0, 0)
    line_start, _, start = _statement_at(text, pos)
    if start <= 0:
        return text, (0, 0)
    line_end = _line_of(text, pos)[1]
    segment = _blanked(text[line_start + start:line_end])
    if any(segment.count(a) != segment.count(b) for a, b in ("{}", "[]", "()")):
        return text, (0, 0)
    line = text.count("\n", 0, line_start) + 1
    return _blank(text, line_start + start, line_end), (line, line)


def _blank_block(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the line holding ``pos`` and the block its brackets open, through the line
    that closes them (``未來面 {`` … ``}``), so that a bad line opening a block costs
    that block, not its whole item. Unchanged when the line starts an item, or when its
    brackets do not close, inside the item, in the order they were opened."""
    if pos >= len(text):
        return text, (0, 0)
    start = _statement_start(text, pos)
    if start in _item_starts(text):
        return text, (0, 0)
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text)
    stack: list[str] = []
    for match in _BRACKET.finditer(stripped, start):
        bracket = match.group()
        if bracket in _CLOSERS:
            if not stack or stack.pop() != _CLOSERS[bracket]:
                return text, (0, 0)  # the item's own "}", or brackets crossed
            if stack:
                continue
            end = stripped.find("\n", match.end())
            end = len(text) if end < 0 else end
            rest = stripped[match.end():end]
            if _BRACKET.search(rest) is None:
                return _blank_range(text, start, end)
            return text, (0, 0)  # "} 過去面 {": the closing line goes on with another block
        stack.append(bracket)
    return text, (0, 0)


def _blank_range(text: str, start: int, end: int) -> tuple[str, tuple[int, int]]:
    first = text.count("\n", 0, start) + 1
    last = text.count("\n", 0, end) + 1
    return _blank(text, start, end), (first, last)


def _nested_example(text: str, start: int, end: int, following: int) -> tuple[int, int] | None:
    """(start, end) of a 例 block written inside the braces of the item ``text[start:end]``
    that it cut short: the item is no 例 itself, the 例 at ``end`` closes its own block, and
    what follows it up to the next item (at ``following``) is the item's missing } — else
    None."""
    def keyword(at: int) -> str:  # the top-level word an item starts with (_ITEM_START)
        match = _ITEM_START.match(text, at)
        return match.group().strip() if match else ""

    examples = KEYWORDS["example"]
    if keyword(start) in examples or keyword(end) not in examples:
        return None
    depth, block_end = 0, None
    for match in _BRACE_SCAN.finditer(text, end):
        if match.group() == "{":
            depth += 1
        elif match.group() == "}":
            depth -= 1
            if depth == 0:
                block_end = match.end()
                break
    if block_end is None:
        return None
    rest = text[block_end:following]
    # the item's own } after the 例 (and nothing but blanks and comments beside it)
    if _BRACE_SCAN.sub(lambda m: m.group() if m.group() in "{}" else "", rest).split() != ["}"]:
        return None
    return end, block_end


def _nested_example_said(text: str, at: int, path: str) -> Diagnostic:
    at += len(text[at:]) - len(text[at:].lstrip(" \t\u3000"))  # at the 例, past its indent
    line, col = _line_col(text, at)
    keyword = KEYWORDS["example"][0]
    return E003.at(Span(path, line, col, line, col + len(keyword)),
                   f"{keyword} が定義の {{ … }} の中に書かれています",
                   hint=f"{keyword} は定義の }} の後（すぐ下）に書きます。この {keyword} のブロックを"
                        "定義を閉じる } の後ろへ移してください")


def _unclosed_item(text: str, exc, pos: int) -> tuple[int, int] | None:
    """(start, end) of an item left open: the parser met the end of the file, or the
    next item's keyword, while still inside it."""
    token = getattr(exc, "token", None)
    starts = _item_starts(text)
    at_eof = token is None and not hasattr(exc, "allowed") or (
        token is not None and token.type == "$END")
    if at_eof:
        before = [s for s in starts if s < len(text) and text[s:].strip()]
        return (before[-1], len(text)) if before else (0, len(text))
    line_start = text.rfind("\n", 0, pos) + 1
    match = _ITEM_START.match(text, line_start) if line_start in starts else None
    if match and pos <= match.end() and token is not None and text[pos:].startswith(str(token)):
        before = [s for s in starts if s < line_start]
        if before:
            return before[-1], line_start
    return None


_CLOSERS = {"}": "{", "]": "[", ")": "("}


def _unmatched_closer(text: str, pos: int) -> bool:
    """Is the character at ``pos`` a closing bracket with no opening one before it?"""
    if pos >= len(text) or text[pos] not in _CLOSERS:
        return False
    opener, closer = _CLOSERS[text[pos]], text[pos]
    before = _strip_strings(text[:pos + 1])
    return before.count(closer) > before.count(opener)


def _step_slip(statement: str, expected: set) -> str:
    """The hint of an example's step written short or with what it cannot take: a pen
    with no face (ペン p), 拒否 on 選ぶ (only an action is refused); "" otherwise."""
    words = statement.split()
    if not words:
        return ""
    pen, choose, refused = KEYWORDS["pen"], KEYWORDS["choose"], KEYWORDS["refused"]
    if words[0] in pen and len(words) == 2 and "NAME" in expected:  # a 例's pen step
        return (f"{pen[0]} のあとに、ページと書き込む面を書きます"
                f"（例: {pen[0]} {words[1]} {W.face.future}）")
    if words[0] in choose and words[-1] in refused:
        return (f"{choose[0]} には {refused[0]} を付けられません（{refused[0]} は "
                f"{KEYWORDS['play'][0]}・{pen[0]}・{KEYWORDS['rip'][0]}・{KEYWORDS['end'][0]} "
                "に付けて、その手が拒否されることを確かめます）")
    return ""


#: What a keyword needs after it, said when a statement (half-typed in an editor) ends
#: right after it: by the keyword's key, the words that follow, with an example. The
#: catch-all said 「値が足りません。例: 敵HP -= 12」 after 「敵HP -= 2 毎」, whose value is there.
_AFTER_KEYWORD = {
    "at": lambda: (f"{KEYWORDS['at'][0]} の後に、いつ起きるか（タイミング）を書きます"
                   f"（例: {KEYWORDS['at'][0]} {W.timing.on_hit} ／ "
                   f"{KEYWORDS['at'][0]} {W.timing.turn_start}）"),
    "until": lambda: (f"{KEYWORDS['until'][0]} の後に、いつまで続くか（スコープ）を書きます"
                      f"（例: {KEYWORDS['until'][0]} {W.scope.turn} ／ "
                      f"{KEYWORDS['until'][0]} {KEYWORDS['next'][0]} 2 {W.scope.play}）"),
    "life": lambda: (f"{KEYWORDS['life'][0]} の後に、いつ消えるか（消滅契機）を書きます"
                     f"（例: {KEYWORDS['life'][0]} {W.lifetime.on_hit} ／ "
                     f"{KEYWORDS['life'][0]} {W.lifetime.turn}）"),
    "next": lambda: (f"{KEYWORDS['next'][0]} の後に、数と {W.scope.play} か {W.scope.turn} を"
                     f"書きます（例: {KEYWORDS['until'][0]} {KEYWORDS['next'][0]} 2 {W.scope.turn}）"),
    "max": lambda: (f"{KEYWORDS['max'][0]} の後に、回数を書きます（例: {KEYWORDS['max'][0]} 2 "
                    f"{KEYWORDS['times'][0]}）"),
}


@cache
def _comparison():
    """The grammar's own comparison (its CMP terminal): what a 条件 may end on, waiting for
    the value compared."""
    import re

    return re.compile(get_parser().get_terminal("CMP").pattern.to_regexp())


def _left_without(statement: str, token) -> str:
    """The hint for a statement that ends on a keyword still waiting for what follows it
    (``_AFTER_KEYWORD``; ``以降 2`` without its unit; a 条件 ending on a comparison), the
    parse having met the line's end or a closing brace there; "" otherwise."""
    if token.type not in ("_SEP", "RBRACE", "$END"):
        return ""
    words = statement.split()
    if not words:
        return ""
    last = words[-1]
    for key, said in _AFTER_KEYWORD.items():
        if last in KEYWORDS[key]:
            return said()
    if len(words) >= 2 and words[-2] in KEYWORDS["next"] and last.isdigit():
        return (f"{words[-2]} {last} の後に {W.scope.play} か {W.scope.turn} を書きます"
                f"（例: {KEYWORDS['until'][0]} {words[-2]} {last} {W.scope.turn}）")
    if words[0] in KEYWORDS["cond"] and _comparison().fullmatch(last):
        return f"比べる値が足りません（例: {words[0]} {W.variable.steps} >= 3）"
    return ""


def _blanked(text: str) -> str:
    """``text`` with its strings and comments blanked to spaces (every offset kept)."""
    return _STRING.sub(lambda m: " " * len(m.group()), text)


def _statement_at(text: str, pos: int) -> tuple[int, str, int]:
    """(the start of the line holding ``pos``, that line up to ``pos`` blanked, the
    offset in it where the statement holding ``pos`` starts: after the last ";" or "{"
    on the line, one-line items)."""
    line_start, _ = _line_of(text, pos)
    before = _blanked(text[line_start:pos])
    return line_start, before, max(before.rfind(";"), before.rfind("{")) + 1


#: A number as the grammar reads one (its NUMBER terminal).
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][+\-]?\d+)?")
#: An operator and the word after it: a 作用's value, or a tail keyword where the value
#: was left out (not a comparison's ``>=``, whose ``=`` is no operator).
_OPERATOR_THEN_WORD = re.compile(r"(?<![<>!=≥≤])([+\-−*×]?=)(?!=)[ \t\u3000]*([^\s;{}#]+)")


def _value_left_out(text: str, pos: int, path: str) -> Diagnostic | None:
    """E001 at a tail keyword written where a 作用's value stands (``防御 += 寿命 ステージ``:
    the parse reads 寿命 as the value and fails a word later, where the words it lists
    as allowed are the keyword already written), or None."""
    line_start, before, start = _statement_at(text, pos)
    match = _OPERATOR_THEN_WORD.search(before, start)
    if match is None or match.end() != len(before.rstrip()) or \
            not before[start:match.start()].strip() or tail_keyword(match.group(2)) is None:
        return None
    word = match.group(2)
    rest = _blanked(text[line_start:_line_of(text, pos)[1]])
    # the statement's tail (comments blanked with the strings) to its ; or }
    stop = min((i for i in (rest.find(";", match.end()), rest.find("}", match.end()))
                if i >= 0), default=len(rest))
    tail = rest[match.start(2):stop].split()
    line, col = _line_col(text, line_start + match.start(2))
    span = Span(path, line, col, line, col + len(word))
    operator = match.group(1)
    # a number after the keyword that is no count (最大 2, 以降 3): the value, written
    # after the keyword it comes before (敵HP -= 固定 10) — named when it stands alone (of
    # 固定 使用した歩[プレイ] × 0.5 the value is the whole product)
    counts = (*KEYWORDS["max"], *KEYWORDS["next"])
    numbers = [i for i, w in enumerate(tail) if i and _NUMBER.fullmatch(w)
               and tail[i - 1] not in counts]
    if numbers:
        i = numbers[0]
        alone = tail[i - 1] not in _EXPRESSION_SIGNS and (
            i + 1 == len(tail) or tail[i + 1] not in _EXPRESSION_SIGNS)
        what = f"{tail[i]} を" if alone else f"「{word}」の後に書いた値を"
        return E001.at(span, f"値は「{word}」の前に書きます",
                       hint=f"「{word}」は値の後に書く修飾です。{what}「{operator}」と"
                            f"「{word}」の間に移します")
    return E001.at(span, f"「{operator}」の後に値がありません",
                   hint=value_left_out(word, operator))


#: A statement of a name, a sign and a value: a trait as the grammar reads it (加速 1 with
#: a sign), or a 作用 whose operator lost its = (座 - 2).
_NAME_SIGN_VALUE = re.compile(r"[ \t\u3000]*([^\s;{}#]+)[ \t\u3000]*([+\-−*×])(?!=)[ \t\u3000]*"
                              r"[^\s;{}#=]+[ \t\u3000]*")


def _trait_read_signed(text: str, pos: int, path: str) -> Diagnostic | None:
    """E001 at the sign of ``座 - 2 毎 ターン開始時 予告`` in an enemy's 特性: the operator's
    = left out, the grammar reads a trait 座 of -2 and fails at 毎, listing what may end a
    trait; or None. Only of a name that is a variable an enemy moves and no trait."""
    line_start, before, start = _statement_at(text, pos)
    match = _NAME_SIGN_VALUE.fullmatch(before, start)
    if match is None:
        return None
    name, sign = match.group(1), match.group(2)
    variable = vocab.lookup("variable", name)
    if variable is None or not variable.enemy_ops or vocab.lookup("trait", name) is not None:
        return None
    line, col = _line_col(text, line_start + match.start(2))
    hint, fix = _equals_left_out(name, sign, _takes(name, sign))
    return E001.at(Span(path, line, col, line, col + 1), f"「{sign}」 はここに書けません",
                   hint=hint, replacements=(fix,) if fix is not None else ())


def _equals_left_out(target: str, sign: str, takes: bool) -> tuple[str, str | None]:
    """The hint and fix of a 作用's operator written without its = (敵HP - 4): ``sign``= to
    write when the target ``takes`` it, else where its operators are listed (no fix)."""
    if not takes:
        return (f"作用の{OPERATORS_TAKE_EQUALS}。「{target}」に使えるものは jibunki vocab {target}"
                " で引けます"), None
    return f"作用の演算子は「{sign}=」と書きます（「{sign}」だけでは書けません）", f"{sign}="


def _statement_before(text: str, pos: int) -> str:
    """What the statement holding ``pos`` says before it: from the start of its line, or
    from the last ";" or "{" on that line (one-line items), comments left out."""
    line_start, _, start = _statement_at(text, pos)
    return text[line_start + start:pos].split("#")[0].strip()


def _early_close(text: str, exc, pos: int) -> int | None:
    """Offset of a "}" that closed the item before its end, or None: the parse meets a
    statement at the top level right after that "}", and from there on the chunk closes
    more braces than it opens (the item's own closing brace is left over)."""
    if _TOP_LEVEL_WORDS[0] not in getattr(exc, "expected", ()):
        return None
    blanked = _STRING.sub(lambda m: " " * len(m.group()), text)  # strings, comments
    if pos >= len(blanked) or blanked[pos] in _CLOSERS:
        return None  # a stray closer of its own (_unmatched_closer), not a statement
    back = pos - 1
    while back >= 0 and blanked[back] in " \t\r\n\u3000;":
        back -= 1
    if back < 0 or blanked[back] != "}":
        return None
    rest = blanked[pos:]
    return back if rest.count("}") > rest.count("{") else None


def _item_keyword_meant(text: str, exc, pos: int, suggest) -> str | None:
    """The item keyword a misspelt word opening a top-level line means, padded to the
    word's length (so every column after it stays where it was), or None: not at the
    top level, no keyword guessed, or a keyword longer than the word."""
    token = getattr(exc, "token", None)
    if token is None or _TOP_LEVEL_WORDS[0] not in getattr(exc, "expected", ()):
        return None
    if text[text.rfind("\n", 0, pos) + 1:pos].strip():
        return None  # not the first word of its line
    _, meant = _keyword_hint(token, exc.expected, suggest)
    if meant not in _TOP_LEVEL_WORDS or len(meant) > len(str(token)):
        return None
    return meant.ljust(len(str(token)))


def _in_header(text: str, exc, pos: int) -> bool:
    """Did the parser want the "{" of an item whose header it is still reading?"""
    if "LBRACE" not in getattr(exc, "expected", ()) and "LBRACE" not in getattr(
            exc, "allowed", ()):
        return False
    starts = [start for start in _item_starts(text) if start < pos]
    return bool(starts) and "{" not in _strip_strings(text[starts[-1]:pos])


def _blank_item(text: str, pos: int) -> tuple[str, tuple[int, int]]:
    """Blank the whole top-level item holding ``pos`` (up to the next item's start)."""
    starts = _item_starts(text)
    before = [s for s in starts if s <= pos]
    after = [s for s in starts if s > pos]
    start = before[-1] if before else text.rfind("\n", 0, pos) + 1
    end = after[0] if after else len(text)
    first = text.count("\n", 0, start) + 1
    last = text.count("\n", 0, end) + 1
    return _blank(text, start, end), (first, last)


_STRING = re.compile(r'"([^"\\\n]|\\.)*"|「[^」\n]*」|#[^\n]*')


def in_prose(line: str, col: int) -> bool:
    """Whether column ``col`` of ``line`` lies in a comment (to the line's end) or in a
    string (its quotes included), as the parser reads them: the designer's own words."""
    code = before_comment(line)
    if len(code) < len(line) and col >= len(code):
        return True
    return any(found.start() <= col < found.end() for found in _STRING.finditer(code))


def _strip_strings(text: str) -> str:
    return _STRING.sub("", text)


#: A statement ends at a newline, ";", a brace or a comma; in between, operators nest.
_STATEMENT_PART = re.compile(r"([\n;{},、])|[+\-−*×/÷|<>=≥≤≠]")


def _too_long(text: str) -> int | None:
    """Offset of the first operator beyond MAX_OPERATORS in one statement, if any."""
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text)
    count = 0
    for match in _STATEMENT_PART.finditer(stripped):
        count = 0 if match.group(1) else count + 1
        if count > MAX_OPERATORS:
            return match.start()
    return None


_BRACKET = re.compile(r"[{\[(}\])]")


def _too_deep(text: str) -> int | None:
    """Offset of the first bracket nested deeper than MAX_NESTING, if any. Each item
    starts at depth 0: brackets an earlier item left open are E003, not nesting."""
    depth = 0
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text)
    starts = iter(_item_starts(text))
    next_start = next(starts, None)
    for match in _BRACKET.finditer(stripped):
        while next_start is not None and next_start <= match.start():
            depth, next_start = 0, next(starts, None)
        if match.group() in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                return match.start()
        else:
            depth = max(0, depth - 1)
    return None


# --------------------------------------------------------------------- messages

_TERMINAL_WORDS = {
    "NAME": "名前", "FLAG": "@フラグ", "NUMBER": "数値", "STRING": "文字列",
    "ASSIGN_OP": "演算子 (+= -= *= =)", "CMP": "比較 (>= <= == …)", "PLUS": "+",
    "MINUS": "-", "MUL": "× か /", "TIMES": "×", "ARROW": "->", "RANGE": ".. か 〜", "PERCENT": "%",
    "_SEP": "改行", "_COMMA": "「,」（区切り）", "$END": "ファイルの終わり",
}


def _terminal_word(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    term = next((t for t in get_parser().terminals if t.name == name), None)
    if term is not None and term.pattern.type == "str":
        return f"「{canonical(term.pattern.value)}」"
    return name


#: The expected words a hint lists before it says how many more there are.
EXPECTED_SHOWN = 12


def _expected(names) -> str:
    """The words the parser could take here: keywords first, then names, numbers and
    symbols; past EXPECTED_SHOWN, how many more (「…ほか 9 語」), never a bare cut."""
    words = sorted({_terminal_word(n) for n in names},
                   key=lambda w: (not w.startswith("「") or not w[1:2].isalpha(), w))
    if len(words) > EXPECTED_SHOWN + 2:  # "ほか 1 語" would save nothing
        rest = len(words) - EXPECTED_SHOWN
        return "、".join(words[:EXPECTED_SHOWN]) + f"…ほか {rest} 語"
    return "、".join(words)


def _found(token) -> str:
    if token.type == "$END":
        return "ファイルの終わり"
    if token.type == "_SEP":
        return "改行" if str(token)[:1] in "\r\n" else "「;」"
    return f"「{str(token)[:40]}」"


def _unclosed(text: str, start: int, end: int, path: str) -> Diagnostic:
    """E003 at the header of the item ``text[start:end]`` that does not close: one that
    never opens its "{" (a header being typed, ``ページ te``) is told to write that one."""
    line, col = _line_col(text, start)
    line_end = text.find("\n", start)
    width = (line_end if line_end >= 0 else len(text)) - start
    span = Span(path, line, col, line, col + max(1, width))
    if "{" not in _STRING.sub("", text[start:end]):
        keyword = text[start:start + width].split()[0]
        return E003.at(span, "この定義に { がありません",
                       hint=f'見出しの後に {{ を書き、定義の最後を }} で閉じます（例: {keyword} id "名前" {{ … }}）')
    return E003.at(span, "この定義が閉じていません（対応する } か ] がありません）", hint="この定義の最後に } を書いてください。途中の { と } の数も確かめてください")


def _unclosed_brace(text: str) -> tuple[int, int, int | None] | None:
    """(offset of an inner "{" left open, end of its block, start of the line that shows
    it open — None at the end of the text), or None.

    Only when the text opens more "{" than it closes. Braces match as written, but a
    line that starts at the indentation of an open "{"'s line, or left of it, and is not
    a "}", is a statement after that block: the "{" should have been closed before it.
    The item's own brace (the first) is not inner: ``_unclosed_item`` reports it."""
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text)
    if stripped.count("{") <= stripped.count("}"):
        return None
    stack: list[tuple[int, int]] = []  # (offset of "{", indentation of its line)
    offset = 0
    for line in stripped.split("\n"):
        body = line.lstrip(" \t\u3000")
        indent = len(line) - len(body)
        if body and not body.startswith("}"):
            left_open = [entry for entry in stack[1:] if entry[1] >= indent]
            if left_open:
                return left_open[0][0], offset - 1, offset + indent
        for at, ch in enumerate(line):
            if ch == "{":
                stack.append((offset + at, indent))
            elif ch == "}" and stack:
                stack.pop()
        offset += len(line) + 1
    return (stack[1][0], len(text), None) if len(stack) > 1 else None


def _block_close(text: str, brace: int, block_end: int) -> int | None:
    """Where the "}" of the block opened at ``brace`` and left open goes: after the code of
    its last line that holds any (before that line's comment; a line of a comment alone
    is passed over), or None when no line after the brace's own holds code."""
    first = text.find("\n", brace)
    end = block_end
    while first != -1 and end > first:
        start = text.rfind("\n", 0, end) + 1
        code = before_comment(text[start:end]).rstrip()
        if code.strip():
            return start + len(code)
        end = start - 1
    return None


def _unclosed_bracket(text: str, pos: int) -> int | None:
    """The offset of a "[" the item holding ``pos`` leaves open (more "[" than "]" in the
    whole item, strings and comments aside), or None. A list may run over lines, so only
    a "[" never closed before the item ends is one left open. A full-width ］ closes it: the
    ］ is an E002 of its own, whose quick fix gives the half-width one, where a "[" left
    open would be an E003 with no fix (a ［ opens nothing: it is the E002 itself)."""
    starts = _item_starts(text)
    start = max((s for s in starts if s <= pos), default=0)
    end = min((s for s in starts if s > pos), default=len(text))
    stripped = _STRING.sub(lambda m: " " * len(m.group()), text[start:end])
    open_at: list[int] = []
    for at, ch in enumerate(stripped):
        if ch == "[":
            open_at.append(at)
        elif ch in "]］" and open_at:
            open_at.pop()
    return start + open_at[0] if open_at else None


def _unclosed_inner(text: str, brace: int, revealed: int | None, path: str,
                    shift: int = 0) -> Diagnostic:
    """E003 at an inner "{" left open, with a note where the text shows it. ``text`` is a
    chunk starting on line ``shift + 1``: the spans are shifted afterwards (_shift_diag),
    the line the hint names is the file's now."""
    line, col = _line_col(text, brace)
    if revealed is None:
        end_line, end_col = _line_col(text, len(text.rstrip()))
        stripped = text.rstrip()
        said = ("ここで定義（かファイル）が終わっています。この } は内側の「{」を閉じたことになり、"
                "定義そのものは閉じていません" if stripped.endswith("}") else
                "ここでファイルが終わっています。内側の「{」も定義も閉じていません")
        note = Note(said, Span(path, end_line, max(1, end_col - 1), end_line, max(2, end_col)))
        where = "ファイルの終わりの前"
    else:
        next_line, next_col = _line_col(text, revealed)
        last = len(text.rstrip()) - 1
        end_line, end_col = _line_col(text, last)
        note_at = Note("「{」の中のまま、次の文がここから始まっています",
                       Span(path, next_line, next_col, next_line, next_col + 1))
        note_end = Note("定義はここで終わっています。この } は内側の「{」を閉じたことになります"
                        if text[last] == "}" else "ファイルがここで終わっています",
                        Span(path, end_line, end_col, end_line, end_col + 1))
        return E003.at(Span(path, line, col, line, col + 1), "この「{」が閉じていません",
                       hint=f"{next_line + shift} 行目より前に、対応する }} を書いてください",
                       notes=(note_at, note_end))
    return E003.at(Span(path, line, col, line, col + 1), "この「{」が閉じていません",
                   hint=f"{where}に、対応する }} を書いてください", notes=(note,))


#: 全角の記号 — what each non-ASCII form of a symbol of the language does, as a table:
#: form → (the half-width symbol, accepted). Accepted forms are the grammar's own (the
#: way Japanese text writes the symbol: ３０, 、, −, ≥, 〜, →, ×), read silently as the
#: symbol. The others are the full-width copies of ASCII that an IME's full-width mode
#: types; each is E002 with a caret on the whole form and a hint naming the half-width
#: one. They are not read silently: （ ） belong to names (除外（ラン）), ＃ in a comment
#: would hide what follows, and one spelling per operator keeps files alike.
WIDTH_FORMS: dict[str, tuple[str, bool]] = {
    # accepted: the grammar's terminals take them
    "０１２３４５６７８９": ("0123456789", True),
    "、": (",", True), "−": ("-", True), "×": ("*", True), "÷": ("/", True),
    "≥": (">=", True), "≤": ("<=", True), "≠": ("!=", True),
    "〜": ("..", True), "→": ("->", True), "％": ("%", True),
    # reported: E002, 「+=」のつもりなら半角で
    "＋＝": ("+=", False), "－＝": ("-=", False), "＊＝": ("*=", False),
    "＞＝": (">=", False), "＜＝": ("<=", False), "＝＝": ("==", False), "！＝": ("!=", False),
    "≧": (">=", False), "≦": ("<=", False), "－＞": ("->", False), "．．": ("..", False),
    "＋": ("+", False), "－": ("-", False), "＊": ("*", False), "／": ("/", False),
    "＝": ("=", False), "＞": (">", False), "＜": ("<", False), "！": ("!", False),
    "［": ("[", False), "］": ("]", False), "（": ("(", False), "）": (")", False),
    "｛": ("{", False), "｝": ("}", False), "＃": ("#", False), "＠": ("@", False),
    "｜": ("|", False), "，": (",", False), "；": (";", False), "．": (".", False),
    "＂": ('"', False),
}
_REPORTED_FORMS = sorted((form for form, (_, ok) in WIDTH_FORMS.items() if not ok),
                         key=len, reverse=True)


def _width_form(text: str, pos: int) -> str | None:
    """The longest reported full-width form at ``pos`` (＋＝ before ＋), if any."""
    return next((form for form in _REPORTED_FORMS if text.startswith(form, pos)), None)


#: The quotes of a string: opening → closing.
QUOTES = {'"': '"', "「": "」"}


def before_comment(line: str, stops: str = "#") -> str:
    """``line`` up to its comment (a ``#`` outside a string), the comment left out; or up
    to the first of ``stops`` outside a string (``"#;"``: the statement's own text)."""
    closing = None
    for at, char in enumerate(line):
        if closing is not None:
            closing = None if char == closing else closing
        elif char in QUOTES:
            closing = QUOTES[char]
        elif char in stops:
            return line[:at]
    return line


def _line_of(text: str, pos: int) -> tuple[int, int]:
    """(start, end) of the line of ``text`` holding offset ``pos``, its line break out."""
    end = text.find("\n", pos)
    return text.rfind("\n", 0, pos) + 1, len(text) if end < 0 else end
#: Characters that look like a symbol of the language but are not it: the hint names the
#: one meant. A range is a..b or a〜b (WAVE DASH); ASCII ~ and the full-width tilde are not.
_LOOKALIKES = {
    "~": f"範囲は「..」か「〜」で書きます（例: {W.trait.blockade} 28..32 ／ "
         f"{W.target} {W.measure.win_rate} 40%〜70%）",
    "～": "範囲の「～」（全角チルダ）は「〜」（波ダッシュ）か「..」で書きます"
         f"（例: {W.target} {W.measure.win_rate} 40%〜70%）",
    # the dashes an IME offers for マイナス (the grammar's own − is read as -)
    **dict.fromkeys("‐‑–—―", f"マイナスは半角の「-」で書きます（例: {W.variable.enemy_hp} -= 4）"),
}

#: 見えない文字 — characters a copy and paste brings that show as a space or as nothing:
#: character → (its name, what to write instead). Their code point means nothing to a
#: designer, who sees a line that looks right.
_INVISIBLE = {
    "\u00a0": ("ノーブレークスペース（見た目は空白）", " "),
    "\u200b": ("ゼロ幅スペース（見た目には何もない）", ""),
    "\u200c": ("ゼロ幅非接合子（見た目には何もない）", ""),
    "\u200d": ("ゼロ幅接合子（見た目には何もない）", ""),
    "\u2060": ("ワードジョイナー（見た目には何もない）", ""),
}

def invisible_name(char: str) -> str | None:
    """The name of a character the eye cannot see (ゼロ幅スペース), as its E002 says it;
    None for any other."""
    said = _INVISIBLE.get(char)
    return None if said is None else said[0].split("（")[0]


#: Slips told by the token itself: (the token as written, a terminal the parser expected
#: there, the hint, the text meant in its place).
_TOKEN_SLIPS = (
    ("=", "CMP", "等しいかどうかは「==」と書きます（「=」では比べません）", "=="),
    # the long-vowel mark ー (a word's character, read as a name) typed for a minus
    ("ー", "ASSIGN_OP", "「ー」（長音記号）はマイナスではありません。半角の「-」で「-=」と書きます", "-"),
)
#: The signs an operator of a 作用 begins with (+=, -=, *=).
_OPERATOR_SIGNS = ("+", "-", "−", "*", "×")
#: The signs of a value's arithmetic (a word beside a number that is part of a larger value).
_EXPRESSION_SIGNS = ("+", "-", "−", "*", "×", "/", "÷", "(", ")", "|")
#: A comparison written the wrong way round (=> for >=): its second character → the hint.
_REVERSED = {">": "「>=」", "<": "「<=」"}
#: The same with a full-width ＝ (＝＞, ＝>): the two characters one slip → what is meant.
_REVERSED_WIDE = {f"＝{form}": f"{half}=" for form, (half, _) in
                  [*WIDTH_FORMS.items(), *((h, (h, True)) for h in _REVERSED)]
                  if half in _REVERSED}


def _slip_hint(text: str, pos: int, token, expected) -> tuple[str, str | None]:
    """The hint of a slip seen in the token and its neighbours (``_TOKEN_SLIPS``, a
    comparison written the wrong way round, a sign before a field's value, an operator's
    = left out or put first, a 条件 written as a 作用, a number with thousands separators),
    and the text meant in the token's place (None when the fix is not the token alone),
    or ("", None)."""
    following = text[pos + 1:pos + 2]
    if str(token) == "=" and following in _REVERSED and "CMP" in expected:
        return f"比較は{_REVERSED[following]}と書きます（「=」が先ではありません）", None
    if str(token) == "-" and following.isdigit() and "NUMBER" in expected \
            and "MINUS" not in expected:  # a count written below zero (枠 -2)
        return "ここには負の数を書けません（0 以上の数です）。「-」を取ってください", None
    for written, wanted, hint, meant in _TOKEN_SLIPS:
        if str(token) == written and wanted in expected:
            # 敵HP ー 4: the = left out as well, the fix writes both
            return hint, meant if following == "=" or wanted != "ASSIGN_OP" else f"{meant}="
    before = text[pos - 1:pos]
    field = _statement_before(text, pos)
    words = field.split()
    first = words[0] if words else ""
    _, line_end = _line_of(text, pos)
    rest = _blanked(text[pos + 1:line_end])
    rest = " ".join(re.split(r"[;}]", rest, maxsplit=1)[0].split())  # to the statement's end
    if str(token) == "+" and rest and (
            "ASSIGN_OP" not in expected and field in _number_fields() and _NUMBER.match(rest)
            or field in vocab.tables()["trait"].spellings()          # 加速 +1: a trait's
            or len(words) == 2 and first in KEYWORDS["pay"]):         # 支払う HP +8
        # 銘 +4: a value takes no sign here (only a 目標's band does); the fix drops it
        return f"値の前に「+」は書きません（{field} {rest}）", ""
    if str(token) in _OPERATOR_SIGNS and "ASSIGN_OP" in expected and following != "=":
        # 敵HP - 4: the operator's = left out; the fix writes it, only where the target
        # takes that operator (防御 -= is refused: E063). No example is built from the
        # statement: what else it lacks is not known here
        target = words[-1].split("[")[0] if words else ""
        return _equals_left_out(target, str(token),
                                first in KEYWORDS["cap"] or _takes(target, str(token)))
    if str(token) in _OPERATOR_SIGNS and before == "=" and text[pos - 2:pos - 1] not in \
            (*_OPERATOR_SIGNS, "=", "<", ">", "!"):
        # 防御 =+ 4: the two symbols the wrong way round
        return f"「={token}」は「{token}=」と書きます（記号の順が逆です）", None
    if str(token) == "=" and before in _OPERATOR_SIGNS and first in KEYWORDS["cond"]:
        # 条件 歩 += 25: a 条件 compares; what changes a value is a 作用 of its own line
        cond = KEYWORDS["cond"][0]
        return (f"{cond}は値を比べます（例: {cond} {W.variable.steps} >= 25）。値を変えるのは"
                "作用で、条件の行とは別の行に書きます"), None
    if str(token) == "," or text[pos - 1:pos] == ",":  # the comma, or the digits after it
        for grouped in GROUPED_NUMBER.finditer(text, *_line_of(text, pos)):
            if grouped.start() < pos < grouped.end():
                return thousands_hint(grouped.group(0).replace(",", "")), None
    split = _split_word(text, pos)
    if split:
        return f"「{split}」は1語です。空白を入れずに書きます", None
    return "", None


_WORD = r"[^\s{}\[\](),;]+"
_TWO_WORDS_BEFORE = re.compile(rf"(?:({_WORD})[ \t\u3000]+)?({_WORD})[ \t\u3000]+$")
_THIS_WORD = re.compile(_WORD)
#: A further word on the same line, for a word split in three or four (被弾 1 回).
_NEXT_WORD = re.compile(rf"[ \t\u3000]+({_WORD})")
#: The most words one word of the vocabulary is looked for in (タ ー ン開始時: 3 after
#: the first).
_SPLIT_PARTS = 4
#: The vocabulary table a word must be of where the word before it is a tail keyword (寿命
#: takes a lifetime, 毎 a timing, 範囲 a scope) or a count (以降 2 プレイ: a unit); after
#: anything else, any table's word.
_TABLE_AFTER = {"life": "lifetime", "at": "timing", "until": "scope", "count": "anchor_unit"}


def _split_word(text: str, pos: int) -> str:
    """The word of the vocabulary spaces split at ``pos`` (寿命 被弾 1回: the parse stops
    at 1回, and 被弾1回 is one word; 被弾 1 回 stops at 1), or "" — the longest, so that
    毎 ターン 開始 時 is told ターン開始時, not the event ターン開始. After a tail keyword
    or a count only a word of the table it takes counts: 寿命 ターン 終了時 is no split
    ターン終了時, a timing where a lifetime stands."""
    words = _TWO_WORDS_BEFORE.search(text, max(0, pos - 64), pos)
    this = _THIS_WORD.match(text, pos)
    if words is None or this is None:
        return ""
    keyword, previous = words.groups()
    parts = [previous, this.group(0)]
    end = this.end()
    while len(parts) < _SPLIT_PARTS and (following := _NEXT_WORD.match(text, end)):
        parts.append(following.group(1))
        end = following.end()
    rule = "count" if keyword and _NUMBER.fullmatch(keyword) else tail_keyword(keyword or "")
    table = _TABLE_AFTER.get(rule)
    known = _vocabulary_words() if table is None else vocab.tables()[table].spellings()
    for count in range(len(parts), 1, -1):
        if (joined := "".join(parts[:count])) in known:
            return joined
    return ""


@cache
def _vocabulary_words() -> frozenset[str]:
    """Every spelling of every table of the vocabulary."""
    return frozenset(spelling for table in vocab.tables().values()
                     for spelling in table.spellings())


def _takes(target: str, sign: str) -> bool:
    """Whether the 作用 ``target`` + ``sign``= is one a page or an enemy may write, by the
    vocabulary: its operations (攻撃倍率 only *=, 銘 only =), and no lowering of a value
    that falls by the rules only (HP, 防御). A name the vocabulary does not know (a
    flag, a misspelling) is not refused here: its own error comes later."""
    variable = vocab.lookup("variable", target.split("[")[0])
    if variable is None:
        return True
    op = "mul" if sign in ("*", "×") else "add"
    if sign in ("-", "−") and variable.code in vocab.FALLS_BY_RULES_ONLY:
        return False
    return op in (*variable.page_ops, *variable.enemy_ops)


@cache
def _number_fields() -> frozenset[str]:
    """The words of the fields whose value is a number (銘, HP, 座 …, a balance's keys),
    both spellings."""
    rules = ("year", "fray_mul", "deck_cap", "hp", "seat", "breakthrough")
    return frozenset(w for rule in rules for w in KEYWORDS[rule]) | _balance_words()


@cache
def _field_words() -> frozenset[str]:
    """The words a field of an item starts with (both spellings), the balance's keys too."""
    return frozenset(w for pair in KEYWORDS.values() for w in pair) | _balance_words()


def _balance_words() -> frozenset[str]:
    """Every spelling of a balance's keys (初期HP, initial_hp …)."""
    return frozenset(w for key in vocab.BALANCE_KEYS for w in (key.ja, key.code, *key.aliases))


def _field_equals(text: str, pos: int, token) -> str:
    """The hint of a field written with ``=`` or an operator (``座 = 70``, ``銘 -= 4``)
    whatever field and wherever in its item (MISTAKES knows the parser's states of a few),
    or "" — a field's value is written, never changed."""
    written = str(token)
    if written != "=" and not (written[:-1] in _OPERATOR_SIGNS and written.endswith("=")):
        return ""
    line_start, line_end = _line_of(text, pos)
    # 銘 -= 4 stops at its =, the - read as the sign of a value; HP 5; 座 = 1 at the second
    field = text[line_start:pos].rsplit(";", 1)[-1].strip().rstrip("".join(_OPERATOR_SIGNS)).strip()
    if field not in _field_words():
        return ""
    # 寿命上限 =+ 80, 座 =- 30: the sign after the = goes too (a field's number takes none)
    value = before_comment(text[pos + len(written):line_end], "#;").strip()
    value = value.lstrip("".join(_OPERATOR_SIGNS)).strip()
    return f"項目の値は = なしで、名前の後に書きます（{field} {value}）".replace(" ）", "）")


#: よくある書き間違い — mistakes a designer makes, each with its hint and a few example
#: texts that fail the way it does. Lark's example matching (``match_examples``) finds the
#: one whose example stops the parser in the same state at the same kind of token. The
#: examples use the ASCII aliases; they mean the same as the Japanese words.
MISTAKES = (
    (f"項目の値は = なしで、名前の後に書きます（{W.variable.year} 30、HP 120）",
     ("page t {\n  year = 30\n}\n", "enemy e {\n  hp = 30\n}\n")),
    (f"面の作用は {{ }} で囲みます。例: {W.face.future} {{ {W.variable.enemy_hp} -= 3 }}",
     ("page t {\n  year 3\n  future enemy_hp -= 3\n}\n",)),
    (f"作用は面の中に書きます。例: {W.face.future} {{ {W.variable.enemy_hp} -= 3 }}",
     ("page t {\n  year 3\n  enemy_hp -= 3\n}\n",)),
    (f"作用には演算子が要ります。例: {W.variable.enemy_hp} -= 3",
     ("page t {\n  year 3\n  future { enemy_hp 3 }\n}\n",)),
    ("比較は作用ではなく条件に書きます。例: 条件 "
     f"{W.variable.steps} >= 3 の行を作用の前に置きます",
     ("page t {\n  year 3\n  future { enemy_hp >= 3 }\n}\n",)),
    (f"{W.target}には量と範囲を書きます。例: {W.target} {W.measure.win_rate} 40%〜70%（敵）"
     f" ／ {W.target} {W.measure.win_rate_delta} -5%〜+5%（ページ）",
     tuple(item.format(line) for item in (
         "enemy e {{\n  {}\n}}\n", "enemy e {{\n  hp 1\n  {}\n}}\n",
         "enemy e {{\n  hp 1\n  seat 2\n  {}\n}}\n", "page t {{\n  {}\n}}\n",
         "page t {{\n  year 3\n  {}\n}}\n", "page t {{\n  year 3\n  origin a\n  {}\n}}\n")
         # the parser's stack differs after no field, one, and more: each is an example
         for line in ("target 40%..70%", "target -5%..5%", "target win_rate 40%"))),
)


@cache
def _mistake_examples() -> dict[str, list[str]]:
    """Each mistake's examples as written, with a title, and with every word in its
    Japanese spelling: the parser is in another state after 銘 than after ``year``."""
    from contract import vocabulary as vocab

    japanese = {ascii_: ja for ja, ascii_ in KEYWORDS.values()}
    japanese.update((v.code, v.ja) for v in vocab.VARIABLES)
    word = re.compile(r"[A-Za-z_]+")

    def translated(text: str) -> str:
        return word.sub(lambda m: japanese.get(m.group(0), m.group(0)), text)

    def titled(text: str) -> str:  # a title stays on the parser's stack: another state
        return re.sub(r"^(\w+ \w+) \{", r'\1 "t" {', text)

    return {hint: [variant for text in texts
                   for variant in (text, titled(text), translated(text), translated(titled(text)))]
            for hint, texts in MISTAKES}


def _mistake_hint(exc) -> str:
    """The hint of the known mistake this syntax error looks like, if any."""
    examples = _mistake_examples()
    try:
        return exc.match_examples(get_parser().parse, examples, use_accepts=True) or ""
    except Exception:  # matching is a courtesy; the plain message stands without it
        return ""


def _keyword_hint(token, expected, suggest) -> tuple[str, str | None]:
    """Did-you-mean for a name written where keywords were expected (a keyword typo): the
    hint, and the text meant in place of the token (None when nothing is guessed)."""
    if token.type != "NAME":
        return "", None
    words = [term.pattern.value for term in get_parser().terminals
             if term.name in expected and term.pattern.type == "str"
             and term.pattern.value[:1].isalpha()]
    # lark names a terminal after one spelling of its keyword: expect both
    words += [w for pair in KEYWORDS.values() if set(pair) & set(words) for w in pair
              if w not in words]
    spaced = unglued(str(token))
    if spaced is not None and spaced.split(" ")[0] in words:
        keyword, number = spaced.split(" ")[:2]
        return f"「{keyword}」と「{number}」の間に空白が要ります: {spaced}。", spaced
    glued = _glued_word(str(token), words)
    if glued is not None:
        keyword, rest = glued
        return (f"「{keyword}」と「{rest}」の間に空白が要ります: {keyword} {rest}。",
                f"{keyword} {rest}")
    if not words:
        return "", None
    meant = misconverted(str(token), words) or variant_of(str(token), words)
    synonym = _SYNONYMS.get(str(token))
    if meant is None and synonym is not None and KEYWORDS[synonym][0] in words:
        meant = KEYWORDS[synonym][0]
    if meant is None and suggest is not None:
        meant = suggest(str(token), words)
    return (f"もしかして「{meant}」？", meant) if meant else ("", None)


#: The words a designer says for a keyword, which no spelling distance brings near it
#: (a 例's 「プレイ a」 for 出す a): by the keyword's key.
_SYNONYMS = {W.scope.play: "play", f"{W.scope.play}する": "play", "使う": "play",
             "出る": "play"}


def _glued_word(written: str, words: list[str]) -> tuple[str, str] | None:
    """(keyword, word) when ``written`` is a keyword that could stand here glued to a word
    of the language (毎ターン開始時, 寿命被弾1回: Japanese is written without spaces), the
    longest keyword first; else None."""
    for keyword in sorted(words, key=len, reverse=True):
        rest = written[len(keyword):]
        if written.startswith(keyword) and rest and _spelled_anywhere(rest):
            return keyword, rest
    return None


@cache
def _all_spellings() -> frozenset[str]:
    return frozenset(spelling for table in vocab.tables().values() for spelling in
                     table.spellings()) | frozenset(w for pair in KEYWORDS.values() for w in pair)


def _spelled_anywhere(word: str) -> bool:
    """A spelling of the vocabulary or a keyword (or a keyword glued to its number)."""
    return word in _all_spellings() or unglued(word) is not None


#: The keywords that begin a 作用 in place of its target (the grammar's ``sayou`` rules).
_VERB_RULES = ("move", "generate", "duplicate", "reveal", "pay", "suppress", "cap")
#: A word alone at a 作用's start (a line's first word, or the first after ``{`` or ``;``)
#: and the spaces after it, up to the token the parser stopped at.
_FIRST_WORD = re.compile(r"(?:^|[{;])[ \t\u3000]*([^\s{};]+)[ \t\u3000]+$", re.MULTILINE)


#: How a range is written between its ends (the grammar's RANGE): a line ending in one
#: lacks its end.
_RANGE_MARKS = ("..", "〜")


@cache
def _verbs() -> frozenset[str]:
    """Every spelling of the keywords that begin a 作用 in place of a target."""
    return frozenset(spelling for rule in _VERB_RULES for spelling in KEYWORDS[rule])


def _second_sayou(token, expected) -> bool:
    """A 作用 written after another on its line (``敵HP -= 6  歩 += 2``): the parser stops
    at the second one's first word — a variable or a verb — where the first could still
    take its terms (寿命, 毎, 範囲 …) or end."""
    if token.type != "NAME" or "_SEP" not in expected or "LIFE" not in expected:
        return False
    word = str(token)
    return vocab.lookup("variable", word) is not None or word in _verbs()


def _verb_slip(exc, text: str, pos: int, path: str, suggest) -> Diagnostic | None:
    """A 作用's verb written wrong (``移働 1枚 山札 -> 手札``): the parser reads the word as
    the target of a numeric 作用 and stops at what follows, for want of an operator — a
    message about the ``1`` the designer wrote right. Said at the word instead, naming the
    verb meant, when a verb is the closest of the verbs and the variables (a variable
    written right but without its operator keeps the operator message)."""
    if suggest is None or "ASSIGN_OP" not in exc.expected:
        return None
    line_start, _ = _line_of(text, pos)
    found = _FIRST_WORD.search(text, line_start, pos)
    if found is None:
        return None
    word = found.group(1)
    targets = vocab.tables()["variable"].spellings() + vocab.tables()["counter"].spellings()
    meant = suggest(word, sorted(_verbs()) + targets)
    if meant not in _verbs() or meant == word:
        return None
    line, col = _line_col(text, found.start(1))
    return E001.at(Span(path, line, col, line, col + len(word)),
                   f"「{word}」は作用の動詞でも変数でもありません",
                   hint=f"もしかして「{meant}」？", replacements=(meant,))


def _half_width_paren(token, text: str, pos: int, path: str) -> Diagnostic | None:
    """E001 for a word of the vocabulary written with half-width parentheses, 除外(ラン):
    a name holds only the full-width ones (除外（ラン）), and the half-width「(」 opens a
    group — the hint names the word as it is spelled."""
    if str(token) != "(":
        return None
    start = pos
    while start > 0 and re.match(r"[\w・（）]", text[start - 1]):
        start -= 1
    end = text.find("\n", pos)
    close = text.find(")", pos, len(text) if end < 0 else end)
    if start == pos or close < 0:
        return None
    spelled = f"{text[start:pos]}（{text[pos + 1:close]}）"
    if not any(spelled in table.spellings() for table in vocab.tables().values()):
        return None
    line, col = _line_col(text, start)
    return E001.at(Span(path, line, col, line, col + close + 1 - start),
                   f"「{text[start:close + 1]}」は半角の括弧で書かれています",
                   hint=f"名前の括弧は全角で書きます: {spelled}", replacements=(spelled,))


def _wide_grouped(text: str, pos: int) -> tuple[int, int, str] | None:
    """(start, end, the number written whole) of a number grouped in thousands with the
    full-width comma at ``pos`` (1，000 or 1，000,000), else None."""
    if text[pos] != "，":
        return None
    commas = text.replace("，", ",")  # one character for one: the offsets hold
    for match in GROUPED_NUMBER.finditer(commas, *_line_of(text, pos)):
        if match.start() <= pos < match.end():
            return match.start(), match.end(), match.group().replace(",", "")
    return None


def _drop_line(work: str, pos: int) -> tuple[str, tuple[int, int]]:
    """``work`` with the line of ``pos`` blanked — or, when that line opens a block
    (未來面 {), the statement after its brace (過去面 { 敵HP - 4: the block's other lines
    are still read), else the block; when nothing of it can go alone, the item — and the
    lines blanked."""
    work_after, lines = _blank_line(work, pos)
    if work_after == work:
        work_after, lines = _blank_statement(work, pos)
    if work_after == work:
        work_after, lines = _blank_block(work, pos)
    if work_after == work:
        work_after, lines = _blank_item(work, pos)
    return work_after, lines


def _wide_symbol(text: str, exc, pos: int, path: str, suggest=None):
    """(its E002, the half-width symbol) when the parser stopped at one full-width symbol
    whose fix is one half-width character (｛ → {, ］ → ]); None otherwise."""
    from lark.exceptions import UnexpectedCharacters

    if not isinstance(exc, UnexpectedCharacters) or _width_form(text, pos) is None:
        return None
    diag = _describe(exc, text, pos, path, suggest)
    fixes = diag.replacements
    if diag.code != "E002" or len(fixes) != 1 or len(fixes[0]) != 1 or \
            diag.span.end_col - diag.span.col != 1:
        return None
    return diag, fixes[0]


def _describe(exc, text: str, pos: int, path: str, suggest=None) -> Diagnostic:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    line, col = _line_col(text, pos)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[pos] if pos < len(text) else ""
        shown = repr(ch)[1:-1] if not ch.isprintable() else ch
        hint = (f"ここに書けるのは: {_expected(exc.allowed)}" if exc.allowed else
                "名前・数値・演算子・括弧のどれでもない文字です")
        reversed_wide = next((w for w in _REVERSED_WIDE if text.startswith(w, pos)), None)
        if reversed_wide is not None and "CMP" in (exc.allowed or ()):
            fix = _REVERSED_WIDE[reversed_wide]
            return E002.at(Span(path, line, col, line, col + len(reversed_wide)),
                           f"全角の「{reversed_wide}」は記号として使えません",
                           hint=f"比較は半角で「{fix}」と書きます（「=」が先ではありません）",
                           replacements=(fix,))
        form = _width_form(text, pos)
        grouped = _wide_grouped(text, pos) if form is not None else None
        if grouped is not None:
            # 1，000: the half-width comma would be the next slip (no thousands separator)
            start, end, whole = grouped
            first_line, first_col = _line_col(text, start)
            return E002.at(Span(path, first_line, first_col, first_line, first_col + end - start),
                           f"全角の「{form}」は記号として使えません",
                           hint=thousands_hint(whole), replacements=(whole,))
        if form is not None:
            half = WIDTH_FORMS[form][0]
            hint, meant = f"「{half}」のつもりなら半角で「{half}」と書きます", half
            # The half-width symbol would itself be a slip here (＝ where a comparison
            # stands): the hint names the symbol meant, not the one typed.
            for written, wanted, slip, fix in _TOKEN_SLIPS:
                if half == written and wanted in (exc.allowed or ()):
                    hint, meant = f"記号は半角で書きます。{slip}", fix
            if half in _OPERATOR_SIGNS and "ASSIGN_OP" in (exc.allowed or ()) and \
                    text[pos + len(form):pos + len(form) + 1] not in ("=", "＝"):
                # 防御 ＋ 4: the half-width + alone would be the next error (= left out)
                hint, meant = (f"「{half}」のつもりなら半角で書きます。作用の演算子は「{half}=」です",
                               f"{half}=")
            return E002.at(Span(path, line, col, line, col + len(form)),
                           f"全角の「{form}」は記号として使えません",
                           hint=hint, replacements=(meant,))
        if ch in _INVISIBLE:
            name, instead = _INVISIBLE[ch]
            return E002.at(Span(path, line, col, line, col + 1),
                           f"見えない文字「{name} U+{ord(ch):04X}」があります",
                           hint="コピーした文にまぎれることのある文字です。" + (
                               "ふつうの半角の空白に置き換えてください" if instead else
                               "消してください"), replacements=(instead,))
        if ch in QUOTES:
            hint = f"文字列がこの行のうちに閉じていません。{QUOTES[ch]} で閉じてください"
        elif ch in _LOOKALIKES:
            hint = _LOOKALIKES[ch]
        return E002.at(Span(path, line, col, line, col + 1), f"ここでは使えない文字「{shown}」です", hint=hint)
    token = getattr(exc, "token", None)
    if not isinstance(exc, UnexpectedToken) or token is None:
        return E001.at(Span(path, line, col, line, col + 1), "ここで構文が途切れています", hint=f"ここに書けるのは: {_expected(getattr(exc, 'expected', ()))}")
    verb = _verb_slip(exc, text, pos, path, suggest)
    if verb is not None:
        return verb
    paren = _half_width_paren(token, text, pos, path)
    if paren is not None:
        return paren
    if _second_sayou(token, exc.expected) and not _split_word(text, pos):
        return E001.at(Span(path, line, col, line, col + len(str(token))),
                       f"{_found(token)} はここに書けません",
                       hint="1 行に書ける作用は 1 つです。改行するか ; で区切ります"
                            f"（例: {W.variable.enemy_hp} -= 6; {W.variable.steps} += 2）")
    end_col = col + max(1, len(str(token))) if token.type != "_SEP" else col + 1
    hint = f"ここに書けるのは: {_expected(exc.expected)}"
    typo, meant = _keyword_hint(token, exc.expected, suggest)
    slip, fix = ("", None) if typo else _slip_hint(text, pos, token, exc.expected)
    field = _statement_before(text, pos)  # what the statement says up to here
    left_out = _value_left_out(text, pos, path) or _trait_read_signed(text, pos, path)
    if left_out is not None:
        return left_out
    if not slip and not typo:
        slip = _step_slip(field, set(exc.expected))
    if slip:  # said exactly: the words that could stand here would only bury it
        return E001.at(Span(path, line, col, line, end_col), f"{_found(token)} はここに書けません",
                       hint=slip, replacements=(fix,) if fix is not None else ())
    left = _left_without(field, token)
    if left:
        hint = left
    elif token.type == "_SEP" and {"NUMBER", "NAME"} & set(exc.expected):
        words = field.split()
        first = words[0] if words else ""
        if field in _field_words():
            hint = f"「{field}」の値が足りません。{field} の後に書きます"
        elif field.startswith(W.target) and field.endswith(_RANGE_MARKS):
            # 目標 勝率差 -5%〜: the band's upper end left out
            hint = (f"範囲の上端が足りません。〜 の後に書きます（例: {W.target} "
                    f"{W.measure.win_rate_delta} -5%〜+10% ／ {W.target} {W.measure.win_rate} 40%〜70%）")
        elif first in KEYWORDS["cond"] and field.endswith((",", "、")):
            # a condition list wrapped after its comma: it ends at the line's end
            cond = KEYWORDS["cond"][0]
            hint = (f"{cond}は 1 行に書きます。長いときは {cond} の行を 2 つに分けます"
                    f"（例: {cond} {W.variable.age} >= 1 ／ {cond} {W.variable.steps} >= 1）")
        elif first in KEYWORDS["expect"]:
            hint = (f"比べる値が足りません。例: {KEYWORDS['expect'][0]} "
                    f"{W.variable.enemy_hp} == 90 ／ " + hint)
        else:
            hint = f"値が足りません。例: {W.variable.enemy_hp} -= 12 ／ " + hint
    elif _in_header(text, exc, pos):
        hint = "定義の中身は { … } で囲みます。" + hint
    elif _unmatched_closer(text, pos):
        opener = _CLOSERS[text[pos]]
        hint = f"対応する「{opener}」のない「{text[pos]}」です。余分なら消してください"
    elif _TOP_LEVEL_WORDS[0] in exc.expected and any(
            start < pos for start in _item_starts(text)):
        hint = (f"ここは定義（{'・'.join(kinds.word(kind) for kind in kinds.ITEM_KINDS)}）の外です。"
                "定義の中に書くつもりなら、手前の } が多すぎて定義が先に閉じていないか確かめてください")
    elif not typo:  # a keyword written wrong: the known mistakes would guess at another
        mistake = _field_equals(text, pos, token) or _mistake_hint(exc)
        if mistake:
            hint = f"{mistake}。{hint}"
    return E001.at(Span(path, line, col, line, end_col), f"{_found(token)} はここに書けません",
                   hint=f"{typo} {hint}" if typo else hint,
                   replacements=(meant,) if meant else ())
