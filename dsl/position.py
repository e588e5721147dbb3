"""カーソルの位置 — what may stand at a position of a file, as the grammar says.

The editor's completion asks it (lsp.completion). The item holding the position is fed,
up to the position and without the word being typed, to lark's interactive LALR parser
(the parser of dsl.parser, so the same grammar); what the parser would accept next is
the answer, read two ways:

* the keywords: every keyword the parser accepts there — the items' keywords at the top
  level, 銘 and 未来面 inside a page, 寿命 and 毎 after an effect's value …;
* what a name there would be (``Place.name``). The grammar reads the game's vocabulary
  as plain names, so the parse stack says which: a term of a value where "(" may stand
  too (VALUE_OWNERS says whose value), else by the symbols just before the position
  (AFTER) or, at the start of a line of a block, by the block (NAME_IN_BLOCK).

A syntax error before the position's line costs its statement, as the parser's own
recovery does (dsl.parser.drop_statement); one on the position's own line, or a position
inside a comment or a string, has no answer (None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from contract.vocabulary import KEYWORDS, lookup

from .parser import drop_statement, get_parser, item_start

__all__ = ["Place", "place_at"]

#: 演算子 — the spellings completion offers for each operator terminal the parser may
#: accept (the ASCII forms; a test holds each against the terminal's own pattern).
OPERATORS = {
    "ASSIGN_OP": ("+=", "-=", "*=", "="),
    "CMP": (">=", "<=", "==", "!=", ">", "<"),
    "ARROW": ("->",),
    "MUL": ("×", "/"),
    "PLUS": ("+",),
    "MINUS": ("-",),
}
#: What the grammar reads but the checks refuse, by the owner of the value the position
#: is in (``_value_owner``): a comparison in a 作用's value (E025) — completion offered
#: 「>=」 after 「敵HP -= 2」.
REFUSED_OPERATORS = {"value": frozenset(OPERATORS["CMP"])}
#: Keywords the grammar reads in any block but the checks allow in one only: 予告 is an
#: enemy trait's (E042 in a page).
KEYWORD_BLOCKS = {"telegraphed": "traits"}

#: A statement with more errors than this before the position is not worth reading.
MAX_REPAIRS = 8

#: Where "(" may stand, a value may: whose value it is, by the nearest of these symbols
#: before the position within the statement. None found: the number of a field (銘 3,
#: HP 60) or of a setting, where no name stands.
VALUE_OWNERS = {
    "ASSIGN_OP": "value",
    "kw:pay": "value",
    "kw:cond": "condition",
    "kw:appears": "appears",
    "kw:expect": "expect",
}
#: The symbols a statement starts after (the search for a value's owner stops there).
STATEMENT_BOUNDS = frozenset({"_SEP", "LBRACE"})

_REGION_VERBS = ("kw:move", "kw:duplicate", "kw:reveal")
#: What a name is, by the symbols just before the position (the longest match wins).
#: ``kw:<rule>`` is a keyword, a lower-case word a rule of the grammar, an upper-case one
#: a terminal.
AFTER: dict[tuple[str, ...], str] = {
    ("kw:life",): "lifetime",
    ("kw:at",): "timing",
    ("kw:until",): "scope",
    ("kw:next", "NUMBER"): "anchor_unit",
    ("kw:cap",): "cap_target",
    ("kw:suppress",): "suppress_target",
    ("kw:pay",): "pay_target",
    **{key: "region" for verb in _REGION_VERBS
       for key in ((verb,), (verb, "NUMBER"), (verb, "NUMBER", "kw:cards"), (verb, "count"))},
    **{key: "pick" for key in (("kw:generate",), ("kw:generate", "NUMBER"),
                                ("kw:generate", "NUMBER", "kw:cards"), ("kw:generate", "count"))},
    ("ARROW",): "region",
    ("region",): "pick",
    ("ARROW", "NAME"): "pick",
    ("kw:origin",): "origin",
    ("kw:dest",): "destination",
    ("kw:filter_page",): "page_id",
    ("kw:target",): "measure",
    ("kw:play",): "page_id",
    ("kw:rip",): "page_id",
    ("kw:setup",): "setting",
    ("NAME", "LSQB"): "subscript",
}
#: What a name is, by the block and the symbols before it, where the block decides
#: (敵 opens an enemy at the top level, and names the enemies of a 例).
AFTER_IN_BLOCK: dict[tuple[str, tuple[str, ...]], str] = {
    ("example", ("kw:enemy",)): "enemy_id",
    ("example", ("kw:enemy", "NAME")): "enemy_id",
    ("example", ("kw:pen",)): "page_id",
    # 選ぶ: completion offered nothing there (the ids of a list after its first, and the
    # next setting of 開始 after a comma: ``_name_role``)
    ("example", ("kw:choose",)): "page_id",
    ("example", ("kw:choose", "NAME")): "page_id",
    ("intents", ("NAME",)): "region",
}
#: The block an opening "{" or "[" starts, by the nearest of these symbols before it.
BLOCK_OF = {
    "kw:page": "page", "kw:enemy": "enemy", "kw:balance": "balance", "kw:deck": "deck",
    "kw:example": "example", "future": "body", "past": "body", "kw:tear": "body",
    "kw:reward": "body", "kw:traits": "traits", "kw:intents": "intents",
}
#: What a name at the start of a line (or after a "{", "[" or ",") of a block is.
NAME_IN_BLOCK = {
    "body": "page_target",       # an effect's target (its verbs are keywords)
    "traits": "enemy_line",      # an enemy's effect target, or a trait
    "deck": "page_id",
    "balance": "balance_key",
    "intents": "intent",
    "journey": "journey_field",
}
_SEPARATORS = frozenset({"LBRACE", "LSQB", "_SEP", "_COMMA"})
_OPENERS = {"LBRACE": "RBRACE", "LSQB": "RSQB", "LPAR": "RPAR"}

#: The word being typed at the position: left out of what the parser reads (the editor
#: filters the candidates by it).
_TYPED = re.compile(r"[\w@・（）]*\Z")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|「[^」\n]*」')


@dataclass(frozen=True)
class Place:
    """What may stand at a position: the keywords (rule names of contract.vocabulary.
    KEYWORDS, in its order), what a name there is (a key of lsp.completion's tables, or
    None where no name may stand), the block the position lies in (None at the top level;
    ``journey:<kind>`` in a 旅 item) and, for a subscript, the name before its "["."""

    keywords: tuple[str, ...]
    name: str | None
    block: str | None
    before: str = ""
    #: The operators that may stand here, as written (OPERATORS), in their order.
    operators: tuple[str, ...] = ()

    @property
    def side(self) -> str:
        """Whose effects a target here belongs to: an enemy's in its 特性, else a page's."""
        return "enemy" if self.block == "traits" else "page"


@cache
def _keyword_terminals() -> dict[str, str]:
    """The grammar's terminal name → keyword rule, for every spelling of every keyword."""
    rule_of = {word: rule for rule, words in KEYWORDS.items() for word in words}
    return {term.name: rule_of[term.pattern.value] for term in get_parser().terminals
            if term.pattern.type == "str" and term.pattern.value in rule_of}


def _symbol(node) -> str:
    """A parse-stack entry as the tables above name it."""
    data = getattr(node, "data", None)
    if data is None:  # a token
        rule = _keyword_terminals().get(node.type)
        return f"kw:{rule}" if rule else node.type
    data = str(data)
    if data.startswith("_kw_"):
        return f"kw:{data[4:]}"
    if data.startswith("kind_"):  # a 旅 item's kind (journey_kind's aliases)
        return f"journey:{data[5:]}"
    return data


def _block(symbols: list[str]) -> str | None:
    """The kind of the innermost block left open (None at the top level)."""
    depth = 0
    for index in range(len(symbols) - 1, -1, -1):
        symbol = symbols[index]
        if symbol in _OPENERS.values():
            depth += 1
        elif symbol in _OPENERS:
            if depth:
                depth -= 1
                continue
            for before in reversed(symbols[:index]):
                if before in BLOCK_OF:
                    return BLOCK_OF[before]
                if before.startswith("journey:"):
                    return before
            return None
    return None


def _value_owner(symbols: list[str]) -> str:
    for symbol in reversed(_statement(symbols)):
        if symbol in VALUE_OWNERS:
            return VALUE_OWNERS[symbol]
    return "constant"


def _name_role(symbols: list[str], block: str | None) -> str | None:
    kind = block.split(":")[0] if block else None
    for length in (3, 2, 1):
        key = tuple(symbols[-length:])
        if len(key) < length:
            continue
        role = AFTER_IN_BLOCK.get((kind, key)) or AFTER.get(key)
        if role is not None:
            return role
    if kind == "example" and symbols[-1:] == ["_COMMA"]:
        if _in_open_list(symbols):
            return "page_id"  # 開始 手札 [hatsukoi, |]: the list's next page
        if _statement(symbols)[:1] == ["kw:setup"]:
            # 開始 刻 30, 手札 [a], |: the next setting, after any setting (the parser's
            # stack holds lark's own rule for the repetition past the first)
            return "setting"
    if symbols and symbols[-1] in _SEPARATORS and kind is not None:
        return NAME_IN_BLOCK.get(kind)
    return None


def _statement(symbols: list[str]) -> list[str]:
    """The symbols of the statement the position is in (after its last bound)."""
    for index in range(len(symbols) - 1, -1, -1):
        if symbols[index] in STATEMENT_BOUNDS:
            return symbols[index + 1:]
    return symbols


def _in_open_list(symbols: list[str]) -> bool:
    """Whether the position is inside a "[ … ]" the statement opened and has not closed."""
    for symbol in reversed(_statement(symbols)):
        if symbol == "RSQB":
            return False
        if symbol == "LSQB":
            return True
    return False


def _parsed(work: str, line_start: int):
    """The interactive parser fed ``work``, or None when a syntax error on the position's
    line (from ``line_start`` on) stops it, or too many errors before it."""
    from lark.exceptions import UnexpectedInput

    for _ in range(MAX_REPAIRS):
        state = get_parser().parse_interactive(work)
        try:
            state.exhaust_lexer()
            return state
        except UnexpectedInput as exc:
            token = getattr(exc, "token", None)
            pos = getattr(token, "start_pos", None)
            if pos is None:
                pos = getattr(exc, "pos_in_stream", None)
            if pos is None or pos >= line_start:
                return None
            repaired = drop_statement(work, pos)
            if repaired == work:
                return None
            work = repaired
    return None


def place_at(text: str, offset: int) -> Place | None:
    """What may stand at ``offset`` (a code-point offset) of ``text``; None inside a
    comment or a string, or where the line up to it has a syntax error."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    cut = offset - len(_TYPED.search(text, line_start, offset).group())
    written = _STRING.sub("", text[line_start:cut])
    if "#" in written or '"' in written or "「" in written:
        return None
    start = item_start(text, cut)
    state = _parsed(text[start:cut], line_start - start)
    if state is None:
        return None
    accepted = state.accepts()
    stack = state.parser_state.value_stack
    symbols = [_symbol(node) for node in stack]
    block = _block(symbols)
    rules = {_keyword_terminals()[t] for t in accepted if t in _keyword_terminals()}
    keywords = tuple(rule for rule in KEYWORDS if rule in rules
                     and KEYWORD_BLOCKS.get(rule, block) == block)
    name, before = None, ""
    if "NAME" in accepted:
        name = _value_owner(symbols) if "LPAR" in accepted else _name_role(symbols, block)
        if name == "subscript":
            before = str(stack[-2])
        elif block == "balance" and symbols[-1:] == ["NAME"] and _names_page(str(stack[-1])):
            name = "page_id"  # the value of 基準ページ: a page, not a number
    refused = REFUSED_OPERATORS.get(_value_owner(symbols), frozenset())
    operators = tuple(op for terminal, spelled in OPERATORS.items() if terminal in accepted
                      for op in spelled if op not in refused)
    return Place(keywords, name, block, before, operators)


def _names_page(key: str) -> bool:
    """Whether the balance key spelled ``key`` takes a page id (基準ページ)."""
    entry = lookup("balance", key)
    return entry is not None and entry.type == "page"
