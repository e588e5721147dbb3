"""改行 — where a line of Japanese text may break, measured in terminal columns.

A kanji takes two columns of a terminal, and a Japanese sentence has no spaces to break
at: a wrapper that breaks at spaces (textwrap, rich) leaves a line of Japanese whole until
its next space, then folds it wherever the terminal ends. Here Japanese breaks between any
two characters, except before a closing mark (。、）…) or after an opening one (（「…) —
the character before goes to the next line with it (禁則) — and a run of printable ASCII
(a word, an option, a path, a figure) stays whole.

One layout for every text a designer reads at a terminal: the command line's help
(terminal/click_ja.py) and the labs' reports (sim/render_text.py ``Prose``). Standard
library only: the help loads it on every start.
"""

from __future__ import annotations

import re
from unicodedata import combining, east_asian_width

__all__ = ["UNSHOWABLE", "clipped", "columns", "join_lines", "line_spans", "shown",
           "shown_name", "wrap"]

#: 表示を乱す文字 — the characters a terminal does not show as themselves: the control
#: characters (C0 but tab, line feed and carriage return; DEL; C1), which start escape
#: sequences, ring or move the cursor, and the bidirectional and line-separator controls,
#: which reorder or split a line as it is drawn. Designer text never holds one (dsl/parser.py
#: refuses them, E002), and a terminal shows designer text through ``shown``.
UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f"
                        "\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: ANSI escapes take no column.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
#: A run of spaces (ASCII: the ideographic space 　 is a character, two columns wide), a
#: run of printable ASCII (a word, an option, a path: never broken) with
#: the narrow signs that go with it (×1.6, ±3, 12°, a→b, “…”), or one other character
#: (Japanese breaks between any two).
_TOKEN = re.compile(r"[ \t\n\r\f\v]+|[!-~\u00a1-\u024f\u2010-\u205e\u2190-\u21ff\u2212]+|.",
                    re.DOTALL)
#: What may not begin a line (it hangs at the end of the line before) …
_NO_START = frozenset("、。，．・：；？！）」』】〕〉》］ー…〜ぁぃぅぇぉっゃゅょァィゥェォッャュョ")
#: The closing marks among them: after one, a line break of the source is no space.
_CLOSING = frozenset("、。，．：；？！）」』】〕〉》］")
#: … and what may not end one (it moves to the next), click's "[" of "[既定: 0]" too.
_NO_END = frozenset("（「『【〔〈《［([{")


def columns(text: str) -> int:
    """The terminal columns ``text`` takes: two for a wide (East Asian) character, none
    for a combining mark or an ANSI escape, one for any other."""
    return sum(0 if combining(c) else 2 if east_asian_width(c) in "WF" else 1
               for c in _ANSI.sub("", text))


def shown(text: str) -> str:
    """``text`` as a terminal may print it: each UNSHOWABLE character as U+FFFD (one
    column, so that what follows stays where it was written)."""
    return UNSHOWABLE.sub("\ufffd", text)


def shown_name(text: str) -> str:
    """A file's name (or any one-line name) as a terminal may print it on one line: as
    ``shown``, and its tabs and line breaks as U+FFFD too (a file may be named so)."""
    return _BREAKS.sub("\ufffd", UNSHOWABLE.sub("\ufffd", text))


_BREAKS = re.compile("[\t\n\r]")


#: The most of one line a user wrote (a script's command, a refused action) a terminal
#: echoes back: a 600 KB line was printed whole, twice.
LINE_SHOWN = 200


def clipped(text: str, most: int = LINE_SHOWN) -> str:
    """``text`` as echoed back: whole up to ``most`` characters, else its start and how
    many characters were left out."""
    if len(text) <= most:
        return text
    return f"{text[:most]}…（ほか {len(text) - most:,} 文字）"


def _wide(char: str) -> bool:
    return east_asian_width(char) in "WF"


def join_lines(lines) -> str:
    """The lines of one paragraph as one line: a line break after a Japanese character
    and before another, or after a Japanese mark (。、）), is nothing — Japanese has no
    spaces; any other is one space."""
    text = ""
    for line in (line.strip() for line in lines):
        if text and line and not (_wide(text[-1]) and (_wide(line[0]) or text[-1] in _CLOSING)):
            text += " "
        text += line
    return text


def _lines(text: str, width: int, first: int, rest: int, collapse: bool
           ) -> list[list[tuple[int, int, bool]]]:
    """The tokens of each line of ``text`` (one paragraph) at ``width`` columns, as
    (start, end, is a space) — none opening a line; ``collapse``: a run of spaces is drawn
    as one — the first line ``first`` columns in already, the others ``rest``."""
    lines: list[list[tuple[int, int, bool]]] = []
    parts: list[tuple[int, int, bool]] = []
    used = first
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] in " \t\n\r\f\v":
            if parts and not parts[-1][2]:
                parts.append((match.start(), match.end(), True))
                used += 1 if collapse else len(token)
            continue
        size = columns(token)
        if parts and used + size > width:
            carried: list[tuple[int, int, bool]] = []
            head = token
            while parts and not parts[-1][2] and (head[0] in _NO_START
                                                  or text[parts[-1][1] - 1] in _NO_END):
                carried.insert(0, parts.pop())
                head = text[carried[0][0]:carried[0][1]]
            if parts:
                lines.append(parts)
                parts = carried
                used = rest + sum(columns(text[start:end]) for start, end, _ in parts)
            else:  # no place to break at: the line runs over
                parts = carried
        parts.append((match.start(), match.end(), False))
        used += size
    lines.append(parts)
    return lines


def wrap(text: str, width: int, initial: str = "", subsequent: str = "") -> list[str]:
    """``text`` (one paragraph) as lines of at most ``width`` columns, the first led by
    ``initial``, the others by ``subsequent``; a run of spaces becomes one. An ASCII word
    longer than a line stays whole (the line runs over)."""
    out = []
    lines = _lines(text, width, columns(initial), columns(subsequent), True)
    for number, parts in enumerate(lines):
        said = "".join(" " if space else text[start:end] for start, end, space in parts)
        out.append(((subsequent if number else initial) + said).rstrip())
    return out


def line_spans(text: str, width: int, first: int = 0, rest: int = 0) -> list[tuple[int, int]]:
    """Where ``text`` (one paragraph) is cut into lines of at most ``width`` columns, the
    first ``first`` columns in already, the others ``rest``: the (start, end) of each line
    in ``text``, spaces at a break left out and every other kept as written — for a text
    whose styles must stay on their characters (a rich ``Text``: ``text[start:end]``) or
    whose spaces align columns."""
    spans = []
    for parts in _lines(text, width, first, rest, False):
        words = [(start, end) for start, end, space in parts if not space]
        spans.append((words[0][0], words[-1][1]) if words else (0, 0))
    return spans
