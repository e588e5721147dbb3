"""定義の種類 — every kind of item a content file defines, one row each (ITEM_KINDS).

A file is a list of items: ページ, 敵, バランス, デッキ, 例 and the journey's items (spec
004: ロケーション, イベント, フラグ, アイテム, レター, 旅の準備). What each layer does with a
kind — the words that open it, its AST class, where the symbol table keeps it, how it is
checked, which of its lists have bounds, how an editor outlines it, whether the parse
cache keeps it — is a column of its row here, and every layer reads the row: a new kind
of item is one row, not a hunt through eight modules.

Standard library only, like the rest of contract/: the AST classes, the compiler's
checks and the LSP's symbol kinds are named (by class name, by code, by the LSP's
number), never imported. tests/test_item_kinds.py holds the rows to the grammar and the
AST, and holds every other module to reading them.
"""

from __future__ import annotations

from dataclasses import dataclass
import os
from pathlib import Path

__all__ = ["ItemKind", "ITEM_KINDS", "JOURNEY_KINDS", "ITEM_KEYWORDS", "ID_KEYWORDS",
           "JOURNEY_NODE", "by_code", "by_keyword", "of", "word", "BALANCE_SUFFIX",
           "CONTENT_SUFFIXES"]

#: The balance's file: a project has exactly one, so a folder holding one is a content
#: folder of its own (commands/checked.py).
BALANCE_SUFFIX = ".balance"
#: The file kinds of the content folder (a file of content is named so, and a tool writing
#: anything else — a save, a PDF — never writes under such a name).
CONTENT_SUFFIXES = (".page", ".enemy", BALANCE_SUFFIX, ".deck", ".scenario", ".journey")
#: The folder name that marks a content folder: a file is checked with the nearest such
#: folder above it (``nearest_content``), in the editor and on the command line alike.
CONTENT_NAME = "content"


def nearest_content(path: Path) -> Path | None:
    """The nearest folder above ``path`` that is a content folder — named CONTENT_NAME, or
    holding a balance file (a copy of content/ under another name: a file of it is one of
    its definitions, not a second one beside content/'s) — or None."""
    return next((folder for folder in path.parents if folder.name == CONTENT_NAME
                 or _holds_balance(folder)), None)


def _holds_balance(folder: Path) -> bool:
    try:
        return any(entry.name.endswith(BALANCE_SUFFIX) and entry.is_file()
                   for entry in os.scandir(folder))
    except OSError:  # unreadable, gone: not known to be one
        return False


class SymbolKind:
    """The LSP's SymbolKind numbers (LSP 3.17 §documentSymbol), those the rows use."""

    MODULE, NAMESPACE, CLASS = 2, 3, 5
    CONSTANT, STRING, ARRAY, OBJECT, STRUCT, EVENT = 14, 15, 18, 19, 23, 24


@dataclass(frozen=True)
class ItemKind:
    """One kind of item: how each layer reads it."""

    #: Its code: the key of messages and tables (a journey item's ``JourneyItem.kind``).
    code: str
    #: Its rule in contract.vocabulary.KEYWORDS: the words that open it in a file.
    keyword: str
    #: The class of dsl/ast.py it parses to (the journey's kinds share JourneyItem).
    node: str
    #: Where compiler.symbols.Symbols keeps it: an attribute, or ``attribute.key`` for a
    #: table of a dict of tables (the journey's, by kind).
    slot: str
    #: The keyword is followed by the id the item defines (its ids are unique per kind,
    #: E012). An item without an id is either the only one of its kind (バランス: a second
    #: is E012) or one of many (例).
    named: bool = True
    only_one: bool = False
    #: How compiler.pipeline checks one item of the kind (``_check_<check>``); None: a
    #: pass of its own checks the kind whole (the journey) or the stage above (例).
    check: str | None = None
    #: The attribute of compiler.pipeline.Model that an item whose check failed marks.
    model: str | None = None
    #: Whose 作用 the item writes (compiler.values.Ctx.side).
    side: str = "page"
    #: The function of compiler.limits that lists the item's bounded lists (``_<limits>``).
    limits: str = ""
    #: How an editor's outline shows it: an LSP SymbolKind number.
    symbol: int = SymbolKind.CLASS
    #: Other files name its id (lsp.folder.interface lends it to them).
    lent: bool = False
    #: An example written after it in a file stands under it (scenario.stage).
    subject: bool = False
    #: The parse cache may hold a file of this kind (dsl.parsecache's allow-list).
    cached: bool = True


#: The node every journey item parses to.
JOURNEY_NODE = "JourneyItem"


def _journey(code: str, symbol: int) -> ItemKind:
    return ItemKind(code, f"j_{code}", JOURNEY_NODE, f"journey.{code}", limits="journey",
                    symbol=symbol)


#: Every kind of item, in the order the parser, the lexer and the editor grammar list them.
ITEM_KINDS: tuple[ItemKind, ...] = (
    ItemKind("page", "page", "Page", "pages", check="page", model="pages", limits="page",
             symbol=SymbolKind.CLASS, lent=True, subject=True),
    ItemKind("enemy", "enemy", "Enemy", "enemies", check="enemy", model="enemies",
             side="enemy", limits="enemy", symbol=SymbolKind.STRUCT, lent=True, subject=True),
    ItemKind("balance", "balance", "Balance", "balances", named=False, only_one=True,
             check="balance", model="balance", limits="balance", symbol=SymbolKind.NAMESPACE),
    ItemKind("deck", "deck", "Deck", "decks", check="deck", model="decks", limits="deck",
             symbol=SymbolKind.ARRAY, lent=True),
    ItemKind("example", "example", "Example", "examples", named=False, limits="example",
             symbol=SymbolKind.EVENT),
    # 旅 (spec 004, draft 17): checked together by compiler.journey
    _journey("location", SymbolKind.MODULE),
    _journey("event", SymbolKind.EVENT),
    _journey("flag", SymbolKind.CONSTANT),
    _journey("item", SymbolKind.OBJECT),
    _journey("letter", SymbolKind.STRING),
    _journey("setup", SymbolKind.NAMESPACE),
)

#: The kinds of journey item (``JourneyItem.kind``), by the grammar's keyword rule.
JOURNEY_KINDS = tuple(k.code for k in ITEM_KINDS if k.node == JOURNEY_NODE)
#: The keyword rules that open an item of a file (the parser splits a file into items at
#: a line beginning with one; the lexer and the editor grammar mark them as declarations).
ITEM_KEYWORDS = tuple(k.keyword for k in ITEM_KINDS)
#: Of them, those followed by the id the item defines (バランス and 例 have none).
ID_KEYWORDS = tuple(k.keyword for k in ITEM_KINDS if k.named)

_BY_CODE = {k.code: k for k in ITEM_KINDS}
_BY_KEYWORD = {k.keyword: k for k in ITEM_KINDS}
_BY_NODE: dict[str, list[ItemKind]] = {}
for _kind in ITEM_KINDS:
    _BY_NODE.setdefault(_kind.node, []).append(_kind)


def by_code(code: str) -> ItemKind:
    """The kind whose code is ``code``."""
    return _BY_CODE[code]


def by_keyword(rule: str) -> ItemKind:
    """The kind opened by the keyword rule ``rule``."""
    return _BY_KEYWORD[rule]


def of(item) -> ItemKind | None:
    """The kind of a parsed item (a dsl.ast node, known by its class name; a journey item
    by its ``kind``), or None for anything that is not an item."""
    rows = _BY_NODE.get(type(item).__name__)
    if not rows:
        return None
    return rows[0] if len(rows) == 1 else _BY_CODE[item.kind]


def word(kind: ItemKind) -> str:
    """The canonical Japanese word that opens an item of ``kind`` (ページ, 敵 …)."""
    from .vocabulary import KEYWORDS

    return KEYWORDS[kind.keyword][0]
