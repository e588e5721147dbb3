"""What an editor asks, answered from a check's result — pure functions, no LSP types.

Positions here are 0-based lines and code-point columns; server.py converts them to and
from the client's units. Every word shown comes from contract.vocabulary (names, phrases,
keywords) or catalog.phrasing (rules text); the glue written here (headings, labels, what
a keyword does) is Japanese too: the designer reads it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache

from catalog.phrasing import (EXCESS_GROWS, INTENT_TEXT, body_lines, condition_text,
                              escalation_text, phrase, trait_text)
from compiler.codes import explanation
from compiler.lint import Result
from contract import kinds, reference
from contract.typed import read_alike
from contract import vocabulary as vocab
from contract.vocabulary import W
from dsl import ast
from dsl.diagnostics import Span
from dsl.parser import in_prose

__all__ = ["Symbol", "definition", "document_symbols", "documentation", "hover",
           "name_hints", "references", "word_at", "workspace_symbols"]


# ------------------------------------------------------------------ words


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_@"


def word_at(line: str, col: int) -> tuple[str, int, int] | None:
    """The word under column ``col`` of ``line`` (a name, an id, a term), with its start and
    end columns; None on whitespace or punctuation."""
    if not (0 <= col <= len(line)):
        return None
    start = col
    while start > 0 and _word_char(line[start - 1]):
        start -= 1
    end = col
    while end < len(line) and _word_char(line[end]):
        end += 1
    if start == end:
        return None
    return line[start:end].lstrip("@"), start, end


# ------------------------------------------------------------------ glossary

#: What each vocabulary table is, in the hover's heading; the timing families and the
#: number types explained (words of the vocabulary: contract.vocabulary writes them).
TABLE_TITLES = vocab.TABLE_NAMES
TIMING_FAMILY_TEXT = vocab.TIMING_FAMILY_TEXT
NUMBER_TYPES = vocab.NUMBER_TYPES
TRAIT_ARGUMENTS = vocab.TRAIT_ARGUMENTS


def _words(table: str, codes) -> str:
    known = vocab.tables()[table]
    return "、".join(known.by_code(code).ja for code in codes if known.by_code(code)) or "—"


def _scope_lines(entry) -> list[str]:
    return [f"添字: {entry.said()} · 範囲: {entry.during}",
            f"順序: {' ⊂ '.join(vocab.tables()['scope'].by_code(c).ja for c in vocab.SCOPE_ORDER)}"]


def _timing_lines(entry) -> list[str]:
    lines = [f"種類: {TIMING_FAMILY_TEXT[entry.family]}"]
    if not entry.reachable:
        lines.append("コンテンツの継続作用がこのタイミングで発動することはない（W004）")
    return lines


def _variable_lines(entry) -> list[str]:
    lines = [f"型: {vocab.VARIABLE_KINDS[entry.kind]}"]
    if entry.page_ops:
        lines.append(f"ページの演算: {_words('operation', entry.page_ops)}")
    if entry.enemy_ops:
        lines.append(f"敵の演算: {_words('operation', entry.enemy_ops)}")
    if entry.lifetimes:
        lines.append(f"値の寿命: {_words('lifetime', entry.lifetimes)}")
    if entry.modifier_of:
        target = vocab.tables()["variable"].by_code(entry.modifier_of)
        lines.append(f"補正する対象: {target.ja if target else entry.modifier_of}"
                     f"（{_words('operation', (entry.modifier_kind,))}）")
    return lines


def _counter_lines(entry) -> list[str]:
    scopes = vocab.tables()["scope"]
    cells = "  ".join(f"{scopes.by_code(s).ja} {entry.cell(s)}" for s in vocab.SCOPE_ORDER)
    legend = "、".join(f"{cell} {said}" for cell, said in reference.CELL_MEANINGS.items())
    return [f"スコープごと: {cells}  （{legend}）"]  # the legend of jibunki vocab


def _operation_lines(entry) -> list[str]:
    lines = [f"書き方: {entry.symbol} · 族: {vocab.OPERATION_FAMILY_NAMES[entry.family]}"]
    if entry.landings:
        lines.append(f"着地: {_words('landing', entry.landings)}")
    return lines


def _balance_lines(entry) -> list[str]:
    if entry.type == "page":  # 基準ページ: a page id, left out when not written
        return ["はじめのデッキのページ id、省略可（書かなければなし）"]
    default = "必須" if entry.default is None else f"既定 {entry.default:g}"
    return [f"{NUMBER_TYPES[entry.type]}（{entry.low:g}〜{entry.high:g}）、{default}"]


#: Further lines of a term's hover, one row per class of the vocabulary.
TERM_LINES = {
    vocab.Scope: _scope_lines,
    vocab.Timing: _timing_lines,
    vocab.Variable: _variable_lines,
    vocab.Counter: _counter_lines,
    vocab.Operation: _operation_lines,
    vocab.BalanceKey: _balance_lines,
    vocab.Trait: lambda entry: [f"引数: {TRAIT_ARGUMENTS[entry.arg]}"],
}

#: What each structural keyword of the language does (contract.vocabulary.KEYWORDS).
KEYWORD_TEXT = vocab.KEYWORD_MEANINGS


@cache
def _keywords() -> dict[str, tuple[str, str, str]]:
    """Spelling (Japanese or ASCII) → (rule, Japanese, ASCII) of each keyword."""
    found = {}
    for rule, (ja, ascii_) in vocab.KEYWORDS.items():
        found.setdefault(ja, (rule, ja, ascii_))
        found.setdefault(ascii_, (rule, ja, ascii_))
    return found


def _term_markdown(table: str, entry) -> str:
    head = f"**{entry.ja}** — {TABLE_TITLES[table]} · `{entry.code}`"
    lines = [head]
    if entry.meaning:  # the glossary's line, as jibunki vocab and the catalog show it
        lines.append(entry.meaning)
    if entry.aliases:
        lines.append(f"別の書き方: {'、'.join(entry.aliases)}")
    lines += TERM_LINES.get(type(entry), lambda _: [])(entry)
    if entry.note:
        lines.append(entry.note)
    said = entry.said()
    if said and said != entry.ja and "{" not in said:
        lines.append(f"ルール文では: {said}")
    return "  \n".join(lines)


def glossary(word: str) -> list[str]:
    """The meaning of ``word`` in every vocabulary table and keyword table that knows it."""
    found = []
    rule = _keywords().get(word)
    if rule is not None:
        rule_name, ja, ascii_ = rule
        found.append(f"**{ja}** — キーワード · ASCII `{ascii_}`  \n"
                     f"{KEYWORD_TEXT.get(rule_name, rule_name)}")
    for table, lookup in vocab.tables().items():
        entry = lookup.get(word)
        if entry is not None:
            found.append(_term_markdown(table, entry))
    return found


# ------------------------------------------------------------------ items


def _keyword(rule: str) -> str:
    return vocab.KEYWORDS[rule][0]


def page_markdown(page) -> str:
    """A checked page (contract.tables.Page) as the catalog says it: name, 銘, rules text of
    its faces, pens and tear."""
    lines = [f"**{page.name}** `{page.id}` — {_keyword('year')} {page.year}"
             + (f" · {_keyword('origin')} {page.origin}" if page.origin else "")]
    if page.flavor:
        lines.append(f"*{page.flavor}*")
    for side in vocab.FACES:
        lines.append(f"{side.ja}: " + " ／ ".join(body_lines(page.faces[side.code])))
        pen = page.pens.get(side.code)
        if pen is not None:
            lines.append(f"{_keyword('pen')}（{side.ja}）: " + " ／ ".join(body_lines(pen)))
    lines.append(f"{_keyword('dest')}: {vocab.tables()['destination'].by_code(page.after_play).ja}"
                 + (f" · {_keyword('fray_mul')} {page.fray_mul:g}" if page.fray_mul != 1 else ""))
    if page.tear:
        # Its numbers as written; a tear grows them by the balance's scale, a multiplier
        # by its excess over 1 (runtime.tearing): said, as the catalog says it.
        grows = f"{W.variable.distance}で強化: 基準値 × (1 + {W.balance.tear_scale} × {W.variable.distance})"
        if any(e.op == "mul" for e in page.tear):
            grows += f"、{EXCESS_GROWS}"
        lines.append(f"{_keyword('tear')}: "
                     + " ／ ".join(phrase(e, default_timing="on_tear") for e in page.tear)
                     + f"（{grows}）")
    if page.appears:
        lines.append(f"{_keyword('appears')}: "
                     + "、".join(condition_text(c) for c in page.appears))
    return "  \n".join(lines)


def enemy_markdown(enemy) -> str:
    """A checked enemy (contract.tables.Enemy) as the catalog says it: name, HP, 座,
    突破ライン, flavor, its 予兆 in order, エスカレーション, and every 特性 — the named ones
    (軽減, 加速, 不動, 封鎖 …) and the trait 作用."""
    lines = [f"**{enemy.name}** `{enemy.id}` — {_keyword('hp')} {enemy.hp} · "
             f"{_keyword('seat')} {enemy.seat} · {_keyword('breakthrough')} {enemy.breakthrough}"]
    if enemy.flavor:
        lines.append(f"*{enemy.flavor}*")
    if enemy.intents:
        lines.append(f"{_keyword('intents')}: " + " → ".join(INTENT_TEXT[i.kind](i) for i in enemy.intents))
    if enemy.escalations:
        lines.append(f"{_keyword('escalation')}: " + " ／ ".join(map(escalation_text, enemy.escalations)))
    traits = [trait_text(t) for t in enemy.traits] + [phrase(e) for e in enemy.trait_effects]
    if traits:
        lines.append(f"{_keyword('traits')}: " + " ／ ".join(traits))
    return "  \n".join(lines)


def _item_markdown(word: str, result: Result, pages: dict, enemies: dict) -> list[str]:
    symbols = result.symbols
    if symbols is None:
        return []
    found = []
    if word in symbols.pages:
        checked = pages.get(word)
        found.append(page_markdown(checked) if checked is not None else
                     f"**{symbols.pages[word].title or word}** `{word}`（エラーあり）")
    if word in symbols.enemies:
        checked = enemies.get(word)
        found.append(enemy_markdown(checked) if checked is not None else
                     f"**{symbols.enemies[word].title or word}** `{word}`（エラーあり）")
    if word in symbols.decks:
        deck = symbols.decks[word]
        count = sum(e.count.value if e.count else 1 for e in deck.entries)
        found.append(f"**{deck.title or word}** `{word}` — {_keyword('deck')}、{count} 枚")
    return found


def _flag_markdown(word: str, result: Result) -> list[str]:
    """A flag (``@来世``), a name the designer makes up: the vocabulary's 内部フラグ and how
    often the folder writes it."""
    from .completion import Folder

    if result is None or result.symbols is None:
        return []
    from .completion import flag_said

    uses = Folder(result, {}, {}).flags.get(word, (0, 0))
    return [_term_markdown("variable", vocab.FLAG).replace(
        f"**{vocab.FLAG.ja}** — ", f"**@{word}** — {vocab.FLAG.ja} · ", 1)
        + f"  \n{flag_said(*uses)}"]


def _origin_markdown(word: str, result: Result) -> list[str]:
    """A 出自 some page writes (青年期), a name the designer makes up: how many pages have
    it, and their 銘."""
    if result is None or result.symbols is None:
        return []
    facts = result.symbols.facts
    if word not in facts.counts:
        return []
    years = facts.years.get(word, [])
    span = f"（{_keyword('year')} {years[0]}〜{years[-1]}）" if years else ""
    return [f"**{word}** — {_keyword('origin')}  \n{KEYWORD_TEXT['origin']}  \n"
            f"このフォルダでこの{_keyword('origin')}のページ: {facts.counts[word]} 枚{span}"]


#: An operator the cursor may stand on, the longest spelling first.
OPERATOR = re.compile(r"\+=|-=|\*=|>=|<=|==|!=|[=<>]")
#: The operation each assignment operator writes (``-=`` is 加算 that decreases).
OPERATOR_OPERATIONS = {"+=": "add", "-=": "add", "*=": "mul", "=": "assign"}


def _operator_markdown(line: str, col: int) -> list[str]:
    """The operator at ``col`` of ``line`` (on it, or just after it): an assignment's
    operation from the vocabulary, or what a comparison of a condition asks."""
    for found in OPERATOR.finditer(line):
        if found.start() <= col <= found.end():
            op = found.group()
            if op in OPERATOR_OPERATIONS:
                entry = vocab.tables()["operation"].by_code(OPERATOR_OPERATIONS[op])
                return [_term_markdown("operation", entry)]
            return [f"**{op}**（{vocab.COMPARISONS[op]}）— 比較  \n"
                    f"{vocab.COMPARISON_MEANINGS[op]}に成り立ちます（{_keyword('cond')} の中で"
                    f"量と数を比べます。`20 <= {vocab.W.variable.age} <= 40` のように続けても書けます）"]
    return []


#: A 目標 line as the grammar reads it (target_field: 目標 勝率 30%〜70%, ASCII
#: target win_rate 30%..70%): its keyword, its measure and its band.
TARGET_LINE = re.compile(r"^\s*(?P<keyword>\S+)\s+(?P<measure>\S+)\s+"
                         r"(?P<band>[+\-]?[\d.]+[%％]?\s*(?:\.\.|〜)\s*[+\-]?[\d.]+[%％]?)")


def _band_markdown(line: str, col: int) -> list[str]:
    """The band of a 目標 line under ``col``: how the measured interval is judged against
    it, in the reports' words (達成 / 未達 / 未決) and by which check."""
    found = TARGET_LINE.match(line)
    if found is None or found.group("keyword") not in vocab.KEYWORDS["target"] \
            or not found.start("band") <= col <= found.end("band"):
        return []
    measure = vocab.lookup("measure", found.group("measure"))
    if measure is None:
        return []
    report = vocab.W.report
    return [f"**{vocab.W.target} {measure.ja} {found.group('band')}** — {vocab.W.target}の範囲  \n"
            f"測った{measure.ja}の 95% 区間がまるごとこの内側なら{report.met}、まるごと外なら"
            f"{report.missed}、端にかかれば{report.undecided}。"
            f"{vocab.KEYWORD_MEANINGS['target']}。  \n{measure.note}"]


def hover(line: str, line_no: int, col: int, result: Result, pages: dict, enemies: dict,
          diagnostics=(), triggers: str | None = None) -> str | None:
    """The hover text at ``col`` of ``line`` (line ``line_no``, 0-based): an item id's page
    or enemy, a word's glossary meaning, what the 作用 of the line sets off and what sets
    it off (``triggers``: lsp.triggers.markdown), and the explanation of every diagnostic
    there."""
    # a comment or a string is the designer's own words: nothing of the language to say
    sections = [] if in_prose(line, col) else \
        _language_sections(line, col, result, pages, enemies, triggers)
    for diag in diagnostics:
        if _inside(diag.span, line_no, col):
            text = explanation(diag.code)
            if text:
                sections.append(text.strip())
    return "\n\n---\n\n".join(sections) or None


def _language_sections(line: str, col: int, result: Result, pages: dict, enemies: dict,
                       triggers: str | None) -> list[str]:
    """What the hover says of the language at ``col``: a 目標's band, an operator, a flag,
    an item id, a word of the glossary or an 出自 — then what the line's 作用 sets off."""
    sections = []
    word = word_at(line, col)
    band = _band_markdown(line, col)
    if band:
        sections += band
    elif word is None:
        sections += _operator_markdown(line, col)
    elif line[word[1]] == "@":
        sections += _flag_markdown(word[0], result)
    else:
        sections += (_item_markdown(word[0], result, pages, enemies) or glossary(word[0])
                     or _origin_markdown(word[0], result))
    if triggers:
        sections.append(triggers)
    return sections


def _inside(span: Span, line_no: int, col: int) -> bool:
    start, end = (span.line - 1, span.col - 1), (span.end_line - 1, span.end_col - 1)
    return start <= (line_no, col) <= end


# ------------------------------------------------------------------ completion


# The candidates of a position are lsp.completion's (what the grammar lets stand there).


#: The documentation of a page or enemy candidate, by its kind.
ITEM_DOCUMENTATION = {"page": page_markdown, "enemy": enemy_markdown}


def documentation(kind: str, ident: str, pages: dict, enemies: dict) -> str:
    """The documentation of the page or enemy candidate ``ident`` (its rules text), or ""
    when it has none (an item with errors, another kind of candidate)."""
    item = {"page": pages, "enemy": enemies}.get(kind, {}).get(ident)
    return ITEM_DOCUMENTATION[kind](item) if item is not None else ""


# ------------------------------------------------------------------ navigation


def fixed_deck(line: str, col: int, result: Result) -> str | None:
    """The id under ``col`` when it is the deck a run starts with (compiler.lower
    STARTING_DECK), whose id the compiler reads as it is: renamed, the content would lose
    its starting deck (E014). None for any other word."""
    from compiler.lower import STARTING_DECK

    word = word_at(line, col)
    symbols = result.symbols
    if word is None or symbols is None or word[0] != STARTING_DECK:
        return None
    return STARTING_DECK if STARTING_DECK in symbols.decks else None


def _definitions(word: str, result: Result) -> list[Span]:
    symbols = result.symbols
    if symbols is None:
        return []
    return [table[word].id.span for table in (symbols.pages, symbols.enemies, symbols.decks)
            if word in table]


@cache
def _name_pattern() -> re.Pattern:
    """What the grammar reads as a name: its NAME terminal, from the parser itself."""
    from dsl.parser import get_parser

    return re.compile(get_parser().get_terminal("NAME").pattern.to_regexp())


def is_id(text: str) -> bool:
    """Whether ``text`` can be written as an id (the grammar's NAME) and is no keyword."""
    return not_an_id(text) is None


def not_an_id(text: str) -> str | None:
    """Why ``text`` cannot be an id — not the grammar's NAME, or a keyword (白紙, HP, year:
    the shape of a name, read as the keyword) — or None."""
    if not _name_pattern().fullmatch(text):
        return "id の形ではありません。id は文字か _ で始まり、空白を含みません。記号は _ ・ （ ） だけが使えます"
    if text in {word for words in vocab.KEYWORDS.values() for word in words}:
        return "キーワードです。キーワードでない名前にしてください"
    return None


def is_defined(word: str, result: Result) -> bool:
    """Whether a page, enemy or deck of the content folder already has the id ``word``."""
    return bool(_definitions(word, result))


def definition(line: str, col: int, result: Result) -> list[Span]:
    """Where the page, enemy or deck id under ``col`` is defined (its id in its file)."""
    word = word_at(line, col)
    return _definitions(word[0], result) if word else []


def flag_uses(node):
    """(flag, written) for every flag under ``node``: written when it is the target of a
    作用 (``@来世 += 1``), else read (a condition, a reference)."""
    from .completion import FLAG_MARK

    for name, target in _names_and_roles(node):
        if name.text.startswith(FLAG_MARK):
            yield name.text[len(FLAG_MARK):], target


def names_in(node):
    """Every ast.Name under ``node`` (the AST's frozen dataclasses, walked by their fields)."""
    return (name for name, _ in _names_and_roles(node))


def _names_and_roles(node):
    """(ast.Name, whether it lies in a 作用's target) for every name under ``node``."""
    stack = [(node, False)]
    while stack:
        item, target = stack.pop()
        if isinstance(item, ast.Name):
            yield item, target
        elif isinstance(item, (tuple, list)):
            stack.extend((x, target) for x in item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, (type, Span)):
            sayou = isinstance(item, ast.Sayou)
            stack.extend((getattr(item, f.name), target or (sayou and f.name == "target"))
                         for f in dataclasses.fields(item))


def references(line: str, col: int, result: Result, include_declaration: bool) -> list[Span]:
    """Every place of the content folder that names the page, enemy or deck id under
    ``col`` (its definition too when ``include_declaration``), in file order."""
    word = word_at(line, col)
    if word is None or result.compilation is None:
        return []
    defined = set(_definitions(word[0], result))
    if not defined:
        return []
    found = []
    for source in result.compilation.sources:
        if source.parsed is None:
            continue
        found += [name.span for name in names_in(source.parsed.file.items)
                  if name.text == word[0] and (include_declaration or name.span not in defined)]
    return sorted(set(found))


@dataclass(frozen=True)
class Symbol:
    """An item of a document: its name, detail, kind (page, enemy, deck, balance, example),
    whole span and the span of its name."""

    name: str
    detail: str
    kind: str
    span: Span
    name_span: Span


def _items(result: Result, path: str | None = None):
    """The items the check ``result`` parsed, in the order of the files and of each file:
    of the document ``path``, or of every file it read (None)."""
    if result.compilation is None:
        return
    for source in result.compilation.sources:
        if source.parsed is not None and (path is None or source.path == path):
            yield from source.parsed.file.items


def document_symbols(result: Result, path: str) -> list[Symbol]:
    """The pages, enemies, decks, balance and examples of the document ``path``."""
    return [_symbol(item) for item in _items(result, path)]


def name_hints(result: Result, path: str, pages: dict, enemies: dict) -> list[tuple[Span, str]]:
    """What the ids of the document ``path`` name, said beside them where a list names
    pages and enemies by id: each line of a デッキ (after the line) and each id of a 例 —
    its 敵, デッキ, 開始 手札 and the pages its steps play. A page reads 「初恋 · 銘 18」, an
    enemy its name; from ``pages`` and ``enemies`` (id → the last checked), none for an id
    they do not hold."""
    named: list[tuple[ast.Name, Span]] = []  # a page's id and where its hint goes
    hints: list[tuple[Span, str]] = []
    for item in _items(result, path):
        if isinstance(item, ast.Deck):
            named += [(entry.page, entry.span) for entry in item.entries]
        elif isinstance(item, ast.Example):
            hints += [(name.span, enemies[name.text].name) for name in item.enemies
                      if name.text in enemies]
            named += [(name, name.span) for name in _example_pages(item)]
    for name, span in named:
        page = pages.get(name.text)
        if page is not None:
            hints.append((span, f"{page.name} · {_keyword('year')} {page.year}"))
    return hints


def _example_pages(example: ast.Example):
    """The page ids a 例 writes: its デッキ, its 開始 手札 and the pages its steps play."""
    yield from example.deck or ()
    for step in example.steps:
        yield from step.pages
        for setting in step.settings:
            if isinstance(setting.value, tuple):
                yield from setting.value


def workspace_symbols(result: Result, query: str) -> list[Symbol]:
    """The pages, enemies, decks, balance and examples of every file the check ``result``
    read whose name or display name holds ``query`` (read as contract.typed.read_alike
    reads it: ｚａｎ and ZAN find zangyou, あるばいと アルバイト; an empty query, everything),
    in the order of the files and of each file."""
    wanted = read_alike(query)
    return [symbol for symbol in map(_symbol, _items(result))
            if wanted in read_alike(symbol.name) or wanted in read_alike(symbol.detail)]


def _symbol(item) -> Symbol:
    """An item as the outline shows it, its ``kind`` the keyword rule of its kind (contract.kinds)."""
    kind = kinds.of(item)
    if kind.named:
        return Symbol(item.id.text, item.title or "", kind.keyword, item.span, item.id.span)
    word = _keyword(kind.keyword)
    return Symbol(item.title or word, word, kind.keyword, item.span, item.span)
