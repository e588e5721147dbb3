"""定義の見出し — the lines of a text that look like an item's header (``ページ a "題" {``):
the item keywords, and the ids a part the parser could not read seems to define.

Without the parser (lark): the compiler asks it on every run, a run whose every file comes
from the parse cache too (compiler/symbols.py ``unread``).
"""

from __future__ import annotations

import re

from contract.kinds import ITEM_KEYWORDS

from .keywords import KEYWORDS

#: The words that start an item (both spellings of each item keyword).
TOP_LEVEL_WORDS = [w for key in ITEM_KEYWORDS for w in KEYWORDS[key]]
#: A line that looks like an item's header, its id in group "id": an item keyword and a
#: name (ページ a), or, at the start of a line, any word, a name, maybe a title and "{"
#: (ペジ a "題" {: the keyword misspelt) — ``header_ids``.
_NAME = r"[^\W\d][\w・（）]*"  # the grammar's NAME (tests/test_unread_definitions.py)
_HEADER = re.compile(
    r"^[ \t\u3000]*(?:%s)[ \t\u3000]+(?P<id>%s)|^\S+[ \t\u3000]+(?P<bare>%s)[ \t\u3000]*"
    r"(?:\"[^\"\n]*\"|「[^」\n]*」)?[ \t\u3000]*\{" % ("|".join(map(re.escape, TOP_LEVEL_WORDS)),
                                                    _NAME, _NAME), re.M)


def header_ids(text: str, first: int = 1, last: int | None = None) -> list[tuple[str, int]]:
    """(id, line) of each line of ``text`` from line ``first`` to ``last`` that looks like
    an item's header: the ids a part the parser could not read seems to define (an E001
    or E004 there says why), so that the references to them are not errors of their own
    (compiler/symbols.py ``unread``)."""
    lines = text.split("\n")[first - 1:last]
    found = []
    for number, line in enumerate(lines, first):
        match = _HEADER.match(line)
        if match:
            found.append((match.group("id") or match.group("bare"), number))
    return found


#: A page's 出自 (出自 少年期) anywhere on a line: the life stage a part the parser could
#: not read seems to name — ``origin_names``.
_ORIGIN = re.compile(r"(?:^|[;{ \t\u3000])(?:%s)[ \t\u3000]+(?P<name>%s)"
                     % ("|".join(map(re.escape, KEYWORDS["origin"])), _NAME), re.M)


def origin_names(text: str, first: int = 1, last: int | None = None) -> list[tuple[str, int]]:
    """(name, line) of each 出自 written from line ``first`` to ``last`` of ``text``: the
    life stages a part the parser could not read seems to give its pages, so that a
    生成 出自 … naming one is not an error of its own (compiler/symbols.py ``unread``)."""
    lines = text.split("\n")[first - 1:last]
    return [(match.group("name"), number) for number, line in enumerate(lines, first)
            for match in _ORIGIN.finditer(line)]
