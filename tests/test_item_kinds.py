"""One registry of item kinds (contract.kinds) and one tuple of vocabulary tables
(contract.vocabulary.VOCABULARY_TABLES), read by every layer (issue 27).

The rows are held to the language itself — the grammar's item rules and the AST's item
classes — and every other module is held to reading them: a literal that spells out a
list of item kinds (or of vocabulary tables) again fails here, with the place to fix.
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import re
import subprocess
import typing

import pytest

from conftest import ROOT

from contract import kinds
from contract import vocabulary as vocab
from dsl import ast

# ------------------------------------------------------------ the language's items


def grammar_items() -> dict[str, tuple[str | None, bool]]:
    """Every item the grammar's ``_item`` rule accepts, read from the built parser:
    keyword rule → (the code a journey alias gives it, or None; whether the keyword is
    followed by the item's id in every expansion)."""
    from dsl.parser import get_parser

    rules: dict[str, list] = {}
    for rule in get_parser().rules:
        rules.setdefault(rule.origin.name, []).append(rule)

    def heads(name: str, named: bool) -> dict:
        found = {}
        for rule in rules[name]:
            symbols = [s.name for s in rule.expansion]
            first = symbols[0]
            follows_id = named or (len(symbols) > 1 and symbols[1] == "NAME")
            if first.startswith("_kw_"):
                alias = rule.alias.removeprefix("kind_") if rule.alias else None
                found.setdefault(first[4:], []).append((alias, follows_id))
            else:  # a rule of its own opens the item (journey_kind)
                for keyword, seen in heads(first, follows_id).items():
                    found.setdefault(keyword, []).extend(seen)
        return found

    items = {}
    for rule in rules["_item"]:
        (name,) = [s.name for s in rule.expansion]
        for keyword, seen in heads(name, False).items():
            aliases = {alias for alias, _ in seen}
            assert len(aliases) == 1, (keyword, aliases)
            items[keyword] = (aliases.pop(), all(follows for _, follows in seen))
    return items


def ast_item_classes() -> set[type]:
    """The classes a file's items may be, read from the AST's annotation of
    SourceFile.items."""
    (element, _) = typing.get_args(typing.get_type_hints(ast.SourceFile)["items"])
    return set(typing.get_args(element))


def test_every_item_kind_of_the_grammar_is_one_row_of_the_registry():
    items = grammar_items()
    keywords = [k.keyword for k in kinds.ITEM_KINDS]
    assert len(keywords) == len(set(keywords)), "a keyword opens two rows"
    assert sorted(keywords) == sorted(items)
    for kind in kinds.ITEM_KINDS:
        alias, named = items[kind.keyword]
        assert kind.named == named, kind
        if alias is not None:  # the journey's kinds: the code the transformer gives
            assert kind.code == alias and kind.node == kinds.JOURNEY_NODE, kind


def test_every_item_class_of_the_ast_is_the_node_of_a_row_and_no_other():
    classes = {cls.__name__ for cls in ast_item_classes()}
    assert {k.node for k in kinds.ITEM_KINDS} == classes
    for node in classes - {kinds.JOURNEY_NODE}:
        assert sum(k.node == node for k in kinds.ITEM_KINDS) == 1, node
    codes = [k.code for k in kinds.ITEM_KINDS]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize("kind", kinds.ITEM_KINDS, ids=lambda k: k.code)
def test_an_item_written_with_either_spelling_of_its_keyword_is_read_as_its_kind(kind):
    from dsl.parser import parse

    for spelling in vocab.KEYWORDS[kind.keyword]:
        head = f"{spelling} x" if kind.named else spelling
        result = parse(f"{head} {{\n}}\n", "x.page")
        assert result.diagnostics == ()
        (item,) = result.file.items
        assert kinds.of(item) is kind
        assert type(item).__name__ == kind.node


def test_every_column_names_something_its_reader_has():
    from compiler import limits, pipeline
    from compiler.symbols import Symbols

    symbols = Symbols()
    for kind in kinds.ITEM_KINDS:
        held = symbols.slot(kind)
        assert isinstance(held, dict if kind.named else list), kind
        assert callable(getattr(limits, f"_{kind.limits}")), kind
        if kind.check is not None:
            assert callable(getattr(pipeline, f"_check_{kind.check}")), kind
            assert hasattr(pipeline.Model(), kind.model), kind
        assert kind.side in ("page", "enemy")
        assert kinds.word(kind) == vocab.KEYWORDS[kind.keyword][0]
    assert kinds.of(object()) is None


def test_an_outline_symbol_is_a_symbol_kind_of_the_lsp():
    types = pytest.importorskip("lsprotocol.types")
    for kind in kinds.ITEM_KINDS:
        assert types.SymbolKind(kind.symbol).value == kind.symbol


def test_the_outline_of_a_file_names_each_item_by_its_kind(tmp_path):
    from compiler.lint import check_text
    from lsp.features import document_symbols

    lines = []
    for kind in kinds.ITEM_KINDS:
        word = vocab.KEYWORDS[kind.keyword][0]
        lines.append(f"{word} {kind.code}_id {{\n}}" if kind.named else f"{word} {{\n}}")
    path = str(tmp_path / "all.page")
    result = check_text("\n".join(lines) + "\n", path)
    symbols = document_symbols(result, path)
    assert [s.kind for s in symbols] == [k.keyword for k in kinds.ITEM_KINDS]
    assert [s.name for s in symbols if s.kind in kinds.ID_KEYWORDS] == [
        f"{k.code}_id" for k in kinds.ITEM_KINDS if k.named]


def test_a_duplicate_id_of_every_named_kind_is_reported_with_its_word(tmp_path):
    from compiler.lint import check_text

    text = "".join(f"{vocab.KEYWORDS[k.keyword][0]} same {{\n}}\n" * 2
                   for k in kinds.ITEM_KINDS if k.named)
    result = check_text(text, str(tmp_path / "dup.page"))
    duplicates = {d.message for d in result.diagnostics if d.code == "E012"}
    for kind in kinds.ITEM_KINDS:
        if kind.named:
            assert f"{kinds.word(kind)}「same」の定義が2つあります" in duplicates, kind


# ------------------------------------------------------------------ the parse cache


def test_the_parse_cache_allows_every_dataclass_of_the_ast_and_nothing_else():
    from dsl import diagnostics, parsecache

    written = [cls for module in (ast, diagnostics) for cls in vars(module).values()
               if isinstance(cls, type) and dataclasses.is_dataclass(cls)
               and cls.__module__ == module.__name__]
    assert list(parsecache._classes()) == written
    assert {cls.__name__ for cls in ast_item_classes()} <= {c.__name__ for c in written}


def test_an_item_kind_the_cache_may_not_hold_keeps_its_file_out_of_the_cache(monkeypatch):
    from dsl import parsecache
    from dsl.parser import parse

    enemy = kinds.by_code("enemy")
    rows = tuple(dataclasses.replace(k, cached=False) if k is enemy else k
                 for k in kinds.ITEM_KINDS)
    monkeypatch.setattr(kinds, "ITEM_KINDS", rows)
    parsecache._schema.cache_clear()
    try:
        assert ast.Enemy not in parsecache._classes()
        schema = parsecache._schema()
        with pytest.raises(parsecache.Refused):
            schema.encoders[ast.ParseResult](parse("敵 x {\n}\n", "x.enemy"))
        page = parse("ページ x {\n}\n", "x.page")
        assert schema.decoders[ast.ParseResult](schema.encoders[ast.ParseResult](page)) == page
        # an entry naming the refused node is no entry
        with pytest.raises(parsecache.Refused):
            schema.decoders[ast.ParseResult](
                ("ParseResult", ("SourceFile", "x.enemy", [("Enemy",)]), [], []))
    finally:
        parsecache._schema.cache_clear()


# ------------------------------------------------------------ the vocabulary tables


def test_every_table_of_terms_the_vocabulary_defines_is_one_row_of_vocabulary_tables():
    defined = {name: value for name, value in vars(vocab).items()
               if name.isupper() and isinstance(value, tuple) and value
               and all(isinstance(e, vocab.Term) for e in value)}
    listed = [t.entries for t in vocab.VOCABULARY_TABLES]
    for name, value in defined.items():
        assert sum(entries is value for entries in listed) == 1, name
    names = [t.name for t in vocab.VOCABULARY_TABLES]
    assert len(names) == len(set(names))


def test_tables_and_w_read_vocabulary_tables():
    assert list(vocab.tables()) == [t.name for t in vocab.VOCABULARY_TABLES if t.spelled]
    for table in vocab.VOCABULARY_TABLES:
        for entry in (*table.entries, *table.also):
            assert getattr(getattr(vocab.W, table.name), entry.code) == entry.ja


# ---------------------------------------------------- no second list of kinds


#: What a kind is called in code: its code, its keyword rule, its keyword's spellings.
#: The journey's codes and ASCII words (event, item, letter …) are also the journey's
#: card types and actions, so only their keyword rules (j_event …) and Japanese words
#: name them here.
def _kind_tokens() -> dict[str, str]:
    tokens: dict[str, str] = {}
    for kind in kinds.ITEM_KINDS:
        spellings = vocab.KEYWORDS[kind.keyword]
        names = (kind.keyword, spellings[0]) if kind.node == kinds.JOURNEY_NODE \
            else (kind.code, kind.keyword, *spellings)
        for name in names:
            tokens.setdefault(name, kind.node if kind.node != kinds.JOURNEY_NODE else kind.code)
    return tokens


def _item_classes() -> set[str]:
    return {k.node for k in kinds.ITEM_KINDS}


def _members(node: pyast.AST) -> list[list[pyast.AST]]:
    """The element groups of a literal: a dict's keys and its values, a set's, list's or
    tuple's elements (a Union[...]'s too)."""
    if isinstance(node, pyast.Dict):
        return [[k for k in node.keys if k is not None], node.values]
    if isinstance(node, (pyast.Set, pyast.List, pyast.Tuple)):
        return [node.elts]
    return []


def _ast_names(tree: pyast.AST) -> tuple[set[str], set[str]]:
    """(the names a module binds to dsl.ast, the item classes it imports from it by name)."""
    modules, classes = set(), set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.ImportFrom):
            if (node.module == "dsl" and not node.level) or (node.module is None and node.level):
                modules |= {a.asname or a.name for a in node.names if a.name == "ast"}
            if node.module == "dsl.ast" or (node.level and node.module == "ast"):
                classes |= {a.asname or a.name for a in node.names if a.name in _item_classes()}
        elif isinstance(node, pyast.Import):
            modules |= {a.asname for a in node.names if a.name == "dsl.ast" and a.asname}
    return modules, classes


def _class_of(node: pyast.AST, names: tuple[set[str], set[str]]) -> str | None:
    """The item class of dsl.ast a node names: ``ast.Page``, or ``Page`` imported by name."""
    modules, classes = names
    if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
            and node.value.id in modules and node.attr in _item_classes():
        return node.attr
    if isinstance(node, pyast.Name) and node.id in classes:
        return node.id
    return None


#: Two item keywords joined as a Japanese list (ページ・敵, ページ、敵) in a string.
def _prose() -> re.Pattern:
    words = "|".join(re.escape(vocab.KEYWORDS[k.keyword][0]) for k in kinds.ITEM_KINDS)
    return re.compile(f"(?:{words})[・、](?:{words})")


def _tables() -> dict[str, str]:
    """The vocabulary's table constants by name (SCOPES …) → the table's name."""
    return {name: table.name for table in vocab.VOCABULARY_TABLES
            for name, value in vars(vocab).items() if value is table.entries}


def kind_lists(source: str, path: str) -> list[str]:
    """Where ``source`` spells out a list of item kinds or of vocabulary tables:
    a literal naming two item classes or more (``(ast.Page, ast.Enemy)``); naming three
    kinds or more by code, keyword or word, as most of its elements (a pair of "page" and
    "enemy" is also the two sides of an effect and two origins of a modifier — too common
    to be a list of kinds; a table of every keyword holds kinds among many others); a
    string joining two item words as a Japanese list; a literal naming three vocabulary
    tables or more (SCOPES, TIMINGS …)."""
    tokens, prose, tables = _kind_tokens(), _prose(), _tables()
    tree = pyast.parse(source)
    names = _ast_names(tree)
    docstrings = {id(n.body[0].value) for n in pyast.walk(tree)
                  if isinstance(n, (pyast.Module, pyast.ClassDef, pyast.FunctionDef,
                                    pyast.AsyncFunctionDef))
                  and n.body and isinstance(n.body[0], pyast.Expr)}
    found = []
    for node in pyast.walk(tree):
        for group in _members(node):
            classes = {c for c in (_class_of(e, names) for e in group) if c}
            named = [tokens.get(e.value) for e in group
                     if isinstance(e, pyast.Constant) and isinstance(e.value, str)]
            named = [n for n in named if n]
            listed = {tables[n] for e in group for n in _names_in(e) if n in tables}
            if len(classes) >= 2:
                found.append(f"{path}:{node.lineno}: item classes {sorted(classes)}")
            elif len(set(named)) >= 3 and 2 * len(named) >= len(group):
                found.append(f"{path}:{node.lineno}: item kinds {sorted(set(named))}")
            if len(listed) >= 3:
                found.append(f"{path}:{node.lineno}: vocabulary tables {sorted(listed)}")
        if isinstance(node, pyast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings and prose.search(node.value):
            found.append(f"{path}:{node.lineno}: item words {prose.search(node.value).group()}")
    return found


def _names_in(node: pyast.AST) -> list[str]:
    """The names an element refers to: itself, or the elements of a tuple it is (a row
    such as ``("領域", vocab.REGIONS, _region)``) or that it unpacks (``*vocab.SCOPES``)."""
    if isinstance(node, pyast.Starred):
        node = node.value
    if isinstance(node, pyast.Tuple):
        return [n for e in node.elts for n in _names_in(e)]
    if isinstance(node, pyast.Attribute):
        return [node.attr]
    if isinstance(node, pyast.Name):
        return [node.id]
    return []


#: The registry itself, and the modules that define what it is held to: the AST's
#: classes and their Item union, the vocabulary's tables (VOCABULARY_TABLES, KEYWORDS).
#: Tests and generated tables are exempt (a test states what it expects).
EXEMPT = ("tests/", "generated/", "contract/kinds.py", "contract/vocabulary.py", "dsl/ast.py")
#: The layers that read the language; the journey's and the battle's runtime have card
#: types and event origins of their own.
LAYERS = ("cli.py", "catalog/", "compiler/", "contract/", "dsl/", "editors/", "lsp/",
          "scenario/")


def modules() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.py"], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout.split()
    return [f for f in listed if f.startswith(LAYERS) and not f.startswith(EXEMPT)]


@pytest.mark.slow
def test_no_module_lists_the_item_kinds_or_the_vocabulary_tables_again():
    found = [hit for path in modules()
             for hit in kind_lists((ROOT / path).read_text(encoding="utf-8"), path)]
    assert not found, "read contract.kinds / VOCABULARY_TABLES instead:\n" + "\n".join(found)


def test_the_scan_sees_each_way_of_listing_kinds_again():
    assert kind_lists("from dsl import ast\nx = isinstance(item, (ast.Page, ast.Enemy))\n",
                      "m.py")
    assert kind_lists("from dsl.ast import Page, Deck\nT = {Page: 1, Deck: 2}\n", "m.py")
    assert kind_lists('W = {"page": "ページ", "enemy": "敵", "deck": "デッキ"}\n', "m.py")
    assert kind_lists('K = ("page", "balance", "j_location")\n', "m.py")
    assert kind_lists('H = "定義（ページ・敵）の外です"\n', "m.py")
    assert kind_lists("S = {'a': ('A', vocab.SCOPES), 'b': ('B', TIMINGS), "
                      "'c': ('C', (*vocab.REGIONS, x))}\n", "m.py")
    # and not what only resembles one
    assert not kind_lists('SIDE = {"page": 1, "enemy": 2}\n', "m.py")
    assert not kind_lists('O = {"page": 1, "tear": 2, "enemy": 3, "reward": 4}\n', "m.py")
    assert not kind_lists('def f():\n    """ページ・敵 の説明"""\n', "m.py")
    assert not kind_lists('E = ("event", "item", "letter")\n', "m.py")
    assert not kind_lists("from dsl import ast\nx = isinstance(item, ast.Page)\n", "m.py")
    # the contract's Page and Enemy are tables, not items
    assert not kind_lists("from contract.tables import Enemy, Page\nE = {1: Page, 2: Enemy}\n",
                          "m.py")
