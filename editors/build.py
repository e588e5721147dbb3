"""``python3 -m editors.build [--check]`` — the TextMate grammar of the VS Code extension,
written from the language's own definitions, never kept by hand. (editors/ is a folder of
the checkout, not an installed package: run it from the project's root.)

* the keywords are the grammar's: every keyword terminal of the lark parser (its ``_kw_*``
  rules, which dsl/keywords.py generates from ``contract.vocabulary.KEYWORDS``);
* the terms are the vocabulary's: every spelling of every term that is one name, scoped
  by its table (or loose term), as the catalog's lexer classifies it (catalog.lexer's
  term_words, which both read);
* comments, strings, numbers, flags, names and operators are the parser's terminals,
  their regular expressions as lark compiled them.

``--check`` writes nothing and exits 1 when the committed grammar is not what this
writes now (tests/test_editors.py runs it the same way).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

__all__ = ["GRAMMAR_PATH", "grammar", "grammar_text", "main"]

GRAMMAR_PATH = Path(__file__).parent / "vscode" / "syntaxes" / "jibunki.tmLanguage.json"
SCOPE_NAME = "source.jibunki"
SUFFIX = "jibunki"

#: The TextMate scope of a term, by the lexer's token for its table (catalog.lexer): the
#: table's name is appended (``variable.language.counter.jibunki``).
TERM_SCOPES = {"Token.Name.Builtin": "variable.language", "Token.Name.Constant": "support.constant"}
ITEM_KEYWORD_SCOPE = "storage.type.item"
KEYWORD_SCOPE = "keyword.other"

#: The scope of each lexical terminal of the parser, in the order they are tried (a
#: string before a comment: a # inside a string is the string's).
TERMINAL_SCOPES = (
    ("STRING", "string.quoted"),
    ("COMMENT", "comment.line.number-sign"),
    ("FLAG", "variable.other.flag"),
)
#: Operators, tried after the words and numbers, each its own scope.
OPERATOR_SCOPES = (
    ("ASSIGN_OP", "keyword.operator.assignment"),
    ("CMP", "keyword.operator.comparison"),
    ("ARROW", "keyword.operator.arrow"),
    ("RANGE", "keyword.operator.range"),
    ("PERCENT", "keyword.operator.percent"),
    ("PLUS", "keyword.operator.arithmetic"),
    ("MINUS", "keyword.operator.arithmetic"),
    ("MUL", "keyword.operator.arithmetic"),
)
#: Brackets, by the parser's anonymous terminals.
PUNCTUATION_SCOPES = (
    (("LBRACE", "RBRACE"), "punctuation.section.braces"),
    (("LSQB", "RSQB"), "punctuation.section.brackets"),
    (("LPAR", "RPAR", "VBAR"), "punctuation.section.parens"),
)


def _terminals() -> dict[str, str]:
    """Each terminal of the parser → its regular expression."""
    from dsl.parser import get_parser

    return {t.name: t.pattern.to_regexp() for t in get_parser().terminals}


def _keywords() -> dict[str, str]:
    """Every keyword spelling of the parser → its rule in contract.vocabulary.KEYWORDS."""
    from contract.vocabulary import KEYWORDS
    from dsl.parser import get_parser

    rules = {spelling: rule for rule, spellings in KEYWORDS.items() for spelling in spellings}
    found = {}
    for term in get_parser().terminals:
        value = term.pattern.value
        if term.pattern.type == "str" and value[:1].isalpha():
            if value not in rules:
                raise SystemExit(f"editors.build: the grammar's keyword {value!r} is not in "
                                 "contract.vocabulary.KEYWORDS")
            found[value] = rules[value]
    return found


def _alternatives(words) -> str:
    """One alternation of ``words``, the longest first (ターン開始時 before ターン)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def _name_rest(name: str) -> str:
    r"""The class of a name's further characters, read from the parser's NAME terminal
    (``[^\W\d][\w・（）]*``)."""
    match = re.fullmatch(r"\[\^\\W\\d\](\[[^\]]*\])\*", name)
    if match is None:
        raise SystemExit(f"editors.build: the grammar's NAME {name!r} has a new shape")
    return match.group(1)


def _whole(name_rest: str, body: str) -> str:
    """``body`` as a whole name: not inside a longer one, which a letter or a further
    character of a name before it or after it would make (a number may come before it,
    as in 1枚: a name never starts with a digit)."""
    extra = name_rest[1:-1].replace("\\w", "")
    return rf"(?<![^\W\d]|[{extra}@])(?:{body})(?!{name_rest})"


def grammar() -> dict:
    """The TextMate grammar, as data."""
    from catalog.lexer import ITEM_KEYWORDS, term_words
    from compiler.read import CONTENT_SUFFIXES
    from contract import vocabulary as vocab

    terminals = _terminals()
    name = terminals["NAME"]
    name_rest = _name_rest(name)
    keywords = _keywords()
    patterns: list[dict] = []
    repository: dict[str, dict] = {}

    def add(key: str, rule: dict) -> None:
        repository[key] = rule
        patterns.append({"include": f"#{key}"})

    for terminal, scope in TERMINAL_SCOPES[:2]:
        add(terminal.lower(), {"match": terminals[terminal], "name": f"{scope}.{SUFFIX}"})
    # the items whose keyword is followed by their id (the id is a name being defined)
    heads = [w for w, rule in keywords.items() if rule in vocab.ID_KEYWORDS]
    add("item-head", {
        "match": f"({_whole(name_rest, _alternatives(heads))})(?:{terminals['WS']})({name})",
        "captures": {"1": {"name": f"{ITEM_KEYWORD_SCOPE}.{SUFFIX}"},
                     "2": {"name": f"entity.name.type.{SUFFIX}"}}})
    add("flag", {"match": terminals["FLAG"], "name": f"{TERMINAL_SCOPES[2][1]}.{SUFFIX}"})
    items = [w for w, rule in keywords.items() if rule in ITEM_KEYWORDS]
    add("item-keyword", {"match": _whole(name_rest, _alternatives(items)),
                         "name": f"{ITEM_KEYWORD_SCOPE}.{SUFFIX}"})
    others = [w for w, rule in keywords.items() if rule not in ITEM_KEYWORDS]
    add("keyword", {"match": _whole(name_rest, _alternatives(others)),
                    "name": f"{KEYWORD_SCOPE}.{SUFFIX}"})
    whole_name = re.compile(name)
    by_kind: dict[str, tuple[object, list[str]]] = {}  # kind → (token, its words), in order
    for spelling, kind, token in term_words():
        words = by_kind.setdefault(kind, (token, []))[1]
        if spelling not in keywords and whole_name.fullmatch(spelling):
            words.append(spelling)
    for kind, (token, words) in by_kind.items():
        if words:
            add(f"term-{kind}", {"match": _whole(name_rest, _alternatives(words)),
                                 "name": f"{TERM_SCOPES[str(token)]}.{kind}.{SUFFIX}"})
    add("number", {"match": rf"(?<!{name_rest})(?:{terminals['NUMBER']})",
                   "name": f"constant.numeric.{SUFFIX}"})
    for terminal, scope in OPERATOR_SCOPES:
        add(f"operator-{terminal.lower()}", {"match": terminals[terminal],
                                            "name": f"{scope}.{SUFFIX}"})
    for names, scope in PUNCTUATION_SCOPES:
        add(scope.split(".")[-1], {"match": "|".join(terminals[n] for n in names),
                                   "name": f"{scope}.{SUFFIX}"})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "jibunki",
        "scopeName": SCOPE_NAME,
        "comment": "Generated by python3 -m editors.build from contract/vocabulary.py and "
                   "dsl/jibunki.lark; do not edit by hand.",
        "fileTypes": [suffix.lstrip(".") for suffix in CONTENT_SUFFIXES],
        "patterns": patterns,
        "repository": repository,
    }


def grammar_text() -> str:
    """The grammar as the committed file holds it (stable key order, a final newline)."""
    return json.dumps(grammar(), ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the grammar, or with ``--check`` say whether the committed one is current.
    Its options are parsed (click, in Japanese as every command of jibunki: usage, help
    and refusals): ``--help`` or a misspelt option writes nothing."""
    import click

    from contract import disk
    from terminal import click_ja

    click_ja.install()

    @click.command(context_settings={"help_option_names": ["-h", "--help"]},
                   help="VS Code 拡張の文法（editors/vscode/syntaxes/jibunki.tmLanguage.json）"
                        "を、言語の定義から書き直します。")
    @click.option("--check", is_flag=True,
                  help="何も書かず、コミットされた文法がいまの定義どおりかだけを確かめます"
                       "（違えば終了コード 1）。")
    def build(check: bool) -> int:
        text = grammar_text()
        if check:
            current = GRAMMAR_PATH.exists() and GRAMMAR_PATH.read_text(encoding="utf-8") == text
            if not current:
                click.echo(f"{GRAMMAR_PATH}: 文法が古くなっています。python3 -m editors.build で"
                           "書き直してください", err=True)
            return 0 if current else 1
        disk.write(GRAMMAR_PATH, text, inside=GRAMMAR_PATH.parent, replace=True)
        click.echo(f"{GRAMMAR_PATH} を書きました")
        return 0

    args = sys.argv[1:] if argv is None else argv
    try:  # --help returns 0 here, having written nothing
        return build.main(args, prog_name="python3 -m editors.build", standalone_mode=False)
    except click.ClickException as exc:  # a misspelt option: said in Japanese, exit 2
        exc.show()
        raise SystemExit(exc.exit_code) from None


if __name__ == "__main__":
    sys.exit(main())
