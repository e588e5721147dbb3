"""The vocabulary once (issue 12): a term's Japanese name is written in Python only in the
vocabulary table; every other module names it through ``contract.vocabulary.W``.

Docstrings and comments are documentation and may use the words; string literals (the
messages, refusals, screens) may not. Content text — tests and the benchmark corpus, which
write pages in the language — is content, not vocabulary.
"""

from __future__ import annotations

import ast
import re
import subprocess

import pytest

from conftest import ROOT

from contract import vocabulary as vocab

#: Tables whose names are glossary terms (DESIGN §3): the vocabulary says which
#: (``glossary``); condition kinds are the spec's headings and ページ is the structural
#: keyword, neither a name designers write.
CHECKED = tuple(t.name for t in vocab.VOCABULARY_TABLES if t.glossary)
#: Where the same name is in several tables, the table whose code a message names.
PREFERENCE = ("variable", "counter", "timing", "region", "destination", "face", "trait",
              "intent", "operation", "landing", "scope", "lifetime", "anchor_unit", "pick",
              "condition_word", "tile", "balance", "quantity", "measure", "report", "player")
#: The terms of each table, by its name (faces too, which content does not spell).
ENTRIES = {t.name: t.entries for t in vocab.VOCABULARY_TABLES}
EXEMPT = ("tests/", "generated/", "benchmarks/corpus.py", "contract/vocabulary.py")

KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff"  # not ・ (U+30FB), which separates words
KANJI = "\u4e00-\u9fff\u3005"


def names() -> dict[str, tuple[str, str]]:
    """Every non-ASCII spelling of a checked term → (table, code), by preference."""
    found: dict[str, tuple[str, str]] = {}
    for table in PREFERENCE:
        for entry in ENTRIES[table]:
            for spelling in (entry.ja, *entry.aliases):
                if not spelling.isascii():
                    found.setdefault(spelling, (table, entry.code))
    return found


def _edge(char: str) -> str:
    """A lookaround class that stops a term matching inside a longer word of its script."""
    if re.match(f"[{KATAKANA}]", char):
        return KATAKANA
    if re.match(f"[{KANJI}]", char):
        return KANJI
    return ""


def term_pattern() -> re.Pattern:
    parts = []
    for spelling in sorted(names(), key=len, reverse=True):
        before, after = _edge(spelling[0]), _edge(spelling[-1])
        parts.append((f"(?<![{before}])" if before else "") + re.escape(spelling)
                     + (f"(?![{after}])" if after else ""))
    return re.compile("|".join(parts))


def modules() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.py"], capture_output=True, text=True,
                            cwd=ROOT, check=True).stdout.split()
    return [f for f in listed if not f.startswith(EXEMPT)]


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def words_in_strings(path: str, pattern: re.Pattern) -> list[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    skip = docstrings(tree)
    return [f"{path}:{node.lineno}: {hit}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
            for hit in pattern.findall(node.value)]


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_vocabulary_words_are_written_only_in_the_vocabulary_table():
    pattern = term_pattern()
    found = [hit for path in modules() for hit in words_in_strings(path, pattern)]
    assert not found, "\n".join(found[:40])


def test_the_checker_sees_a_term_in_a_message_and_not_inside_a_longer_word(tmp_path):
    pattern = term_pattern()
    assert pattern.findall("刻を動かす") == ["刻"]
    assert pattern.findall("時刻") == []  # 刻 inside a longer kanji word
    assert pattern.findall("バランス") == []  # ラン inside a longer katakana word
    assert pattern.findall("防御補正が") == ["防御補正"]  # the longest term wins


def test_the_preference_orders_every_checked_table():
    """A new table of glossary terms is checked once it has its place in PREFERENCE."""
    assert sorted(PREFERENCE) == sorted(CHECKED)


def test_w_names_every_term_by_its_code():
    for table, code in names().values():
        entry = next(e for e in ENTRIES[table] if e.code == code)
        assert getattr(getattr(vocab.W, table), code) == entry.ja
