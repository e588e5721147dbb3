"""整形 — the canonical layout of a content file (``jibunki fmt``).

The formatter reprints the file from its own token stream: the LALR parser run
interactively yields every token it reads (keywords and brackets included), and the parse
tree says what each bracket, sign and ``+`` belongs to. Comments are not tokens
(``COMMENT`` is ignored, and a comment on a line of its own is swallowed by the
statement separator ``_SEP``), so they are read back from the text between tokens and
from the separators' text.

The layout:

- two spaces per level of an open block: a ``{ … }`` (or a ``[ … ]`` list of 予兆 or of a
  例's デッキ) written over several lines, or holding a ``;``, opens a level; its
  statements stand one per line, ``}`` on a line of its own; a block written on one line
  with one statement stays on one line (``ペン 未来面 { 歩 += 8 }``); ``{`` stays on the
  line of its header;
- one space between tokens, none inside subscripts (``歩[プレイ]``), parentheses, ``|…|``
  and a 例's lists (``[a, b]``), around ``..``/``〜`` and a region's ``+``
  (``山札+手札``), after a sign (``-5``, ``+15%``), before ``%``, ``,`` and ``枚``
  (``2枚``); ``[ … ]`` of 予兆 has a space inside;
- one blank line between top-level items; blank lines elsewhere are kept, at most one in
  a row, none just inside a block's braces; one newline at the end of the file;
- keywords in their canonical (Japanese) spelling unless ``keep_aliases``;
- comments kept: a comment on a line of its own is indented with the block it is in; a
  trailing comment stays on its line, at the column it was written at or further, at
  least two spaces after the code; the trailing comments of consecutive lines written at
  one column (aligned) keep one column, pushed right together when a code line reaches
  it (columns in display width: wide characters count two).

Nothing else changes: every token is printed as written (names, numbers, strings, the
spelling of operators), and the result is parsed again and refused unless its tree and
tokens are the input's (``FormatterBug``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .diagnostics import ERROR, Diagnostic, display_width
from .keywords import KEYWORDS

__all__ = ["Formatted", "FormatterBug", "INDENT", "format_text"]

INDENT = "  "
#: A trailing comment starts at least this many spaces after its code.
COMMENT_GAP = 2

#: Named terminals of the grammar; any other token is a keyword or a bracket.
_NAMED = {"NAME", "FLAG", "NUMBER", "STRING", "ASSIGN_OP", "CMP", "PLUS", "MINUS", "MUL",
          "TIMES", "ARROW", "RANGE", "PERCENT", "_SEP", "_COMMA"}
_OPEN, _CLOSE = {"LBRACE", "LSQB"}, {"RBRACE", "RSQB"}
#: Every spelling of a keyword → its canonical (Japanese) spelling.
_CANONICAL = {word: ja for ja, alias in KEYWORDS.values() for word in (ja, alias)}
#: The keyword written tight after its number (``2枚``).
_TIGHT_KEYWORD = KEYWORDS["cards"][0]


class FormatterBug(RuntimeError):
    """The reprinted text would not parse to the same tree: a bug of the formatter, never
    of the content; the file is left as it is."""


@dataclass(frozen=True)
class Formatted:
    """What formatting one file gave: the canonical text, or None (and the diagnostics)
    when the file has errors and is left alone."""

    text: str | None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the file could be formatted."""
        return self.text is not None


def format_text(text: str, path: str = "<text>", keep_aliases: bool = False) -> Formatted:
    """The canonical layout of one file's text (see the module's docstring). A file with
    an error (``dsl.parser.parse``'s diagnostics) is not formatted: its diagnostics come
    back instead; so does a file over a bound of dsl.size (what lint refuses by size is
    never parsed, nor formatted). Raises ``FormatterBug`` if the result would parse
    differently."""
    from .parser import parse
    from .size import refusal

    too_large = refusal(text, path)
    if too_large is not None:
        return Formatted(None, (too_large,))
    errors = tuple(d for d in parse(text, path).diagnostics if d.severity == ERROR)
    if errors:
        return Formatted(None, errors)
    tokens, tree = _tokens(text)
    out = _Printer(text, tokens, _roles(tree, tokens), keep_aliases).print()
    _check_same(text, out, tokens, tree)
    return Formatted(out)


def as_written(formatted: str, written: str) -> str:
    """``formatted`` (format_text's text: "\n" line ends, no BOM) in the line ends and BOM
    of the file as it was ``written``: the layout is the formatter's, the encoding details
    the designer's editor keeps (a file saved on Windows stays "\r\n" and is not
    reported unformatted for them)."""
    if "\r\n" in written:
        formatted = formatted.replace("\n", "\r\n")
    return ("\ufeff" + formatted) if written.startswith("\ufeff") else formatted


def _tokens(text: str):
    """Every token the parser reads, and the parse tree."""
    from .parser import get_parser

    interactive = get_parser().parse_interactive(text)
    tokens = list(interactive.iter_parse())
    tree = interactive.feed_eof(tokens[-1] if tokens else None)
    return tokens, tree


def _spelled(token, keep_aliases: bool) -> str:
    if token.type in _NAMED or keep_aliases:
        return str(token)
    return _CANONICAL.get(str(token), str(token))


def _check_same(before: str, after: str, tokens, tree) -> None:
    """The reprinted text must read as the same tree, token for token (keywords up to
    their spelling)."""
    try:
        new_tokens, new_tree = _tokens(after)
    except Exception as exc:  # the output does not parse at all
        # lark's own message is English: the place and the kind of error are enough.
        where = f"{getattr(exc, 'line', '?')} 行 {getattr(exc, 'column', '?')} 列"
        raise FormatterBug(f"整形した文が構文として読めません（{where}、"
                           f"{type(exc).__name__}）") from exc

    def words(seq):
        return [(t.type if t.type in _NAMED else "keyword", _spelled(t, False))
                for t in seq if t.type != "_SEP"]

    if new_tree != tree or words(new_tokens) != words(tokens):
        raise FormatterBug("整形した文が元と違う構文木になります")
    if _comment_words(before, tokens) != _comment_words(after, new_tokens):
        raise FormatterBug("整形した文からコメントが欠けます")


_COMMENT = re.compile(r"#[^\n]*")


def _comment_words(text: str, tokens) -> list[str]:
    """The words of every comment of ``text``, in order: what a reprint keeps, whatever
    lines and spaces it gives them (a comment is a "#" outside every token but the line
    breaks, to the end of its line)."""
    found: list[str] = []
    last = 0
    for tok in tokens:
        if tok.type == "_SEP":
            continue
        found.extend(_COMMENT.findall(text, last, tok.start_pos))
        last = tok.end_pos
    found.extend(_COMMENT.findall(text, last))
    return " ".join(found).split()


# ------------------------------------------------------------------ token roles

@dataclass
class _Role:
    """How one token is spaced: no space before it, none after it, whether its block
    may open a level (``{``, and the ``[`` of lists that may span lines), spaces inside
    an inline ``[ … ]``."""

    tight_before: bool = False
    tight_after: bool = False
    block: bool = False
    spaced_list: bool = False


def _roles(tree, tokens) -> dict[int, _Role]:
    """Token start offset → its role, read from the parse tree's node spans."""
    import bisect

    roles: dict[int, _Role] = {}
    at = {t.start_pos: t for t in tokens}
    by_pos = sorted(at)

    def role(pos: int) -> _Role:
        return roles.setdefault(pos, _Role())

    def inside(node, types):
        first = bisect.bisect_left(by_pos, node.meta.start_pos)
        last = bisect.bisect_left(by_pos, node.meta.end_pos)
        return [at[p] for p in by_pos[first:last] if at[p].type in types]

    for t in tokens:
        if t.type in ("LPAR", "LSQB"):
            role(t.start_pos).tight_after = True
        elif t.type in ("RPAR", "RSQB"):
            role(t.start_pos).tight_before = True
        elif t.type == "LBRACE":
            role(t.start_pos).block = True
        elif t.type in ("RANGE",):
            role(t.start_pos).tight_before = role(t.start_pos).tight_after = True
        elif t.type in ("PERCENT", "_COMMA"):
            role(t.start_pos).tight_before = True
    for plus in _region_sums(tree):
        role(plus.start_pos).tight_before = role(plus.start_pos).tight_after = True
    for node in tree.iter_subtrees():
        if node.meta.empty:
            continue
        kind = node.data
        if kind == "subscript":
            role(node.meta.start_pos).tight_before = True
        elif kind in ("abs",):
            role(node.meta.start_pos).tight_after = True
            role(node.meta.end_pos - 1).tight_before = True
        elif kind in ("neg", "percent") and at.get(node.meta.start_pos) is not None \
                and at[node.meta.start_pos].type in ("MINUS", "PLUS"):
            role(node.meta.start_pos).tight_after = True
        elif kind == "ex_setting_sub":
            brackets = inside(node, {"LSQB"})
            if brackets:
                role(brackets[0].start_pos).tight_before = True
        elif kind == "region":
            for plus in inside(node, {"PLUS"}):
                role(plus.start_pos).tight_before = role(plus.start_pos).tight_after = True
        elif kind in ("intents_field", "ex_deck"):
            brackets = inside(node, {"LSQB", "RSQB"})
            if brackets:
                opening, closing = brackets[0], brackets[-1]
                role(opening.start_pos).block = True
                if kind == "intents_field":
                    for b in (opening, closing):
                        role(b.start_pos).spaced_list = True
                        role(b.start_pos).tight_after = role(b.start_pos).tight_before = False
    return roles


def _region_sums(tree) -> list:
    """The "+" of every 合算 written in a value — region names joined by "+" whose parts
    name one (``山札+捨て札 >= 5``, ``山札+捨て札[プレイ] × 2``) — written tight like a
    作用's regions: as one quantity, which is how the compiler reads them.

    The grammar reads that "+" as a sum, looser than "×", so ``山札+捨て札 × 2`` is
    山札 + (捨て札 × 2) to it; the compiler gives the 合算 back its meaning
    (compiler/values.py ``regroup_regions``). This finds the same runs on the parse tree
    (``dsl.region_sums.region_runs``), so that a 合算 is written
    tight exactly where it is read as one, and a sum of regions that names no 合算 keeps
    its spaces (the runs: dsl/region_sums.py, which the compiler reads them by too)."""
    from contract.vocabulary import lookup

    from .region_sums import region_runs

    def chain(node, ops: set[str]) -> tuple[list, list]:
        # A left-leaning chain of ``ops`` (a + b - c): its operands and operator tokens.
        if getattr(node, "data", None) == "binop" and node.children[1].type in ops:
            operands, tokens = chain(node.children[0], ops)
            return operands + [node.children[2]], tokens + [node.children[1]]
        return [node], []

    def region(node, bare: bool):
        # The region a reference names: bare, or with a subscript of a scope (not anchored).
        if getattr(node, "data", None) != "ref" or len(node.children) < 1 \
                or getattr(node.children[0], "type", None) != "NAME":
            return None
        subscript = node.children[1] if len(node.children) > 1 else None
        if subscript is not None and (bare or any(
                getattr(sub, "data", None) == "anchored" for sub in subscript.iter_subtrees())):
            return None
        return lookup("region", str(node.children[0]))

    sums = [node for node in tree.iter_subtrees()
            if node.data == "binop" and node.children[1].type in ("PLUS", "MINUS")]
    lefts = {id(node.children[0]) for node in sums}
    found = []
    for root in sums:
        if id(root) in lefts:
            continue  # part of a longer chain: read from its root
        operands, ops = chain(root, {"PLUS", "MINUS"})
        terms = [chain(term, {"MUL"})[0] for term in operands]
        signs = ["+" if op.type == "PLUS" else "-" for op in ops]
        for i, j, _ in region_runs(terms, signs, region):
            found.extend(ops[i:j])
    return found


# ------------------------------------------------------------------ printing

@dataclass
class _Line:
    """One output line: code at a depth (with perhaps a trailing comment and the column
    it was written at), a comment of its own, or a blank."""

    depth: int = 0
    code: str = ""
    comment: str | None = None
    written_col: int = 0
    blank: bool = False
    opens: bool = False  # ends with the "{" of a block over several lines


@dataclass
class _Printer:
    text: str
    tokens: list
    roles: dict[int, _Role]
    keep_aliases: bool
    lines: list[_Line] = field(default_factory=list)

    def print(self) -> str:
        self._multiline = self._multiline_blocks()
        self.depth = 0
        self.cur: _Line | None = None
        self.prev = None  # the token last put on the current line
        self.want_blank = False
        self.force_blank = False
        self.item_ended = False  # the current line closes an item: a blank line after it
        stack: list = []
        last_end = 0
        for i, tok in enumerate(self.tokens):
            self._gap(last_end, tok.start_pos)
            last_end = tok.end_pos
            if tok.type == "_SEP":
                nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
                if nxt is not None and nxt.type == "LBRACE" and "#" not in str(tok) \
                        and self.cur is not None:
                    continue  # a header's "{" joins its header line
                self._sep(str(tok), tok.start_pos)
                continue
            if tok.type in _CLOSE:
                opening = stack.pop()
                if opening.start_pos in self._multiline:
                    self._end_line()
                    self.depth -= 1
                self._put(tok)
                if not stack:  # an item ends: the next starts a line, after a blank
                    self.item_ended = True
                    # a comment alone after it on its line stays there: the gap or
                    # the separator that follows holds it, and ends the line after it
                    after = self.text[tok.end_pos:].split("\n", 1)[0]
                    if not after.lstrip(" \t\u3000").startswith("#"):
                        self._end_line()
                continue
            self._put(tok)
            if tok.type in _OPEN:
                stack.append(tok)
                if tok.start_pos in self._multiline:
                    self.cur.opens = True
                    nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
                    if nxt is None or nxt.type != "_SEP":
                        self._end_line()  # else the separator ends it, after its comment
                    self.depth += 1
        self._gap(last_end, len(self.text))
        self._end_line()
        return self._render()

    def _multiline_blocks(self) -> set[int]:
        """Start offsets of the blocks that hold a separator (their statements go one
        per line); only a "{" or a list's "[" can be one."""
        found, stack = set(), []
        for tok in self.tokens:
            if tok.type in _OPEN:
                stack.append(tok)
            elif tok.type in _CLOSE:
                stack.pop()
            elif tok.type == "_SEP" and stack:
                for opening in stack:
                    if self.roles.get(opening.start_pos, _Role()).block:
                        found.add(opening.start_pos)
        return found

    # ---- lines

    def _emit(self, line: _Line) -> None:
        if self.lines and (self.force_blank or self.want_blank) and not self.lines[-1].opens:
            self.lines.append(_Line(blank=True))
        self.want_blank = self.force_blank = False
        self.lines.append(line)

    def _end_line(self) -> None:
        if self.cur is not None:
            self._emit(self.cur)
            self.cur, self.prev = None, None
            if self.item_ended:
                self.item_ended, self.force_blank = False, True

    def _put(self, tok) -> None:
        word = _spelled(tok, self.keep_aliases)
        if self.cur is None:
            if tok.type in _CLOSE:
                self.want_blank = False  # no blank line just inside a block
            self.cur = _Line(self.depth, word)
        else:
            self.cur.code += (" " if self._space(self.prev, tok) else "") + word
        self.prev = tok

    def _space(self, left, right) -> bool:
        lr = self.roles.get(left.start_pos, _Role())
        rr = self.roles.get(right.start_pos, _Role())
        if left.type in _OPEN and right.type in _CLOSE:
            return False
        if lr.spaced_list or rr.spaced_list:
            return True
        if lr.tight_after or rr.tight_before:
            return False
        if left.type == "_COMMA" and str(left) == "、":
            return False
        if left.type == "NUMBER" and _spelled(right, self.keep_aliases) == _TIGHT_KEYWORD:
            return False
        return True

    # ---- comments and separators

    def _comment(self, pos: int, body: str) -> None:
        body = body.rstrip()
        if self.cur is not None and self.cur.comment is not None:
            # Two written lines joined into one (a header and its "{" line, each with a
            # comment): both comments stay, in the order written.
            self.cur.comment += "  " + body
        elif self.cur is not None:
            line_start = self.text.rfind("\n", 0, pos) + 1
            self.cur.comment = body
            self.cur.written_col = display_width(self.text[line_start:pos].expandtabs(8))
        else:
            self._emit(_Line(self.depth, comment=body))

    def _gap(self, start: int, end: int) -> None:
        """Text between two tokens holds only spaces and comments."""
        gap = self.text[start:end]
        hash_at = gap.find("#")
        if hash_at >= 0:
            self._comment(start + hash_at, gap[hash_at:])

    def _sep(self, sep: str, pos: int) -> None:
        """A statement separator: ends the line; its text may hold a trailing comment,
        blank lines and comments on lines of their own."""
        segments = sep.split("\n")
        offset = pos
        for n, segment in enumerate(segments):
            hash_at = segment.find("#")
            if hash_at >= 0:
                self._comment(offset + hash_at, segment[hash_at:])
            elif 0 < n < len(segments) - 1 and not segment.strip(" \t\r\u3000"):
                self.want_blank = bool(self.lines) or self.cur is not None
            if n == 0:
                self._end_line()
            offset += len(segment) + 1

    def _render(self) -> str:
        lines = self.lines
        while lines and lines[-1].blank:
            lines.pop()
        out, i = [], 0
        while i < len(lines):
            run = i
            while run < len(lines) and lines[run].comment is not None and lines[run].code \
                    and lines[run].written_col == lines[i].written_col:
                run += 1
            if run > i:
                column = max(max(l.written_col, display_width(INDENT * l.depth + l.code)
                                 + COMMENT_GAP) for l in lines[i:run])
                for line in lines[i:run]:
                    code = INDENT * line.depth + line.code
                    out.append(code + " " * (column - display_width(code)) + line.comment)
                i = run
                continue
            line = lines[i]
            if line.blank:
                out.append("")
            elif line.code:
                out.append(INDENT * line.depth + line.code)
            else:
                out.append(INDENT * line.depth + (line.comment or ""))
            i += 1
        return "\n".join(out) + "\n" if out else ""
