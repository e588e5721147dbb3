"""What an editor asks, answered from a check's result — pure functions, no LSP types.

Positions here are 0-based lines and code-point columns; server.py converts them to and
from the client's units. Every word shown comes from contract.vocabulary (names, phrases,
keywords) or catalog.phrasing (rules text); what is written here is English glue.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache

from catalog.phrasing import body_lines, condition_text, phrase
from compiler.codes import explanation
from compiler.lint import Result
from contract import kinds
from contract import vocabulary as vocab
from dsl import ast
from dsl.diagnostics import Span

__all__ = ["Symbol", "completions", "definition", "document_symbols", "documentation", "hover",
           "references", "word_at"]


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

#: What each vocabulary table is, in the hover's heading.
TABLE_TITLES = {
    "scope": "scope", "anchor_unit": "unit of an anchored range", "lifetime": "value lifetime",
    "timing": "timing", "region": "region", "destination": "where a page goes after play",
    "pick": "how one page is picked", "operation": "operation", "landing": "landing",
    "variable": "variable", "counter": "cumulative quantity, read as name[scope]",
    "condition_word": "condition word", "tile": "tile kind", "intent": "Intent kind",
    "trait": "enemy trait", "balance": "balance key", "quantity": "battle quantity (examples)",
    "measure": "measured balance figure (target)",
}

#: The families of timings (contract.vocabulary.TIMING_FAMILIES), explained.
TIMING_FAMILY_TEXT = {
    "phase": "a phase of the turn, in turn order",
    "outer": "the start or end of a stage or of the run",
    "event": "an event, whenever it happens",
    "always": "always on: a modifier in force while its range lasts",
}


def _words(table: str, codes) -> str:
    known = vocab.tables()[table]
    return "、".join(known.by_code(code).ja for code in codes if known.by_code(code)) or "—"


def _scope_lines(entry) -> list[str]:
    return [f"subscript: {entry.said()} · range: {entry.during}",
            f"order: {' ⊂ '.join(vocab.tables()['scope'].by_code(c).ja for c in vocab.SCOPE_ORDER)}"]


def _timing_lines(entry) -> list[str]:
    lines = [f"family: {TIMING_FAMILY_TEXT[entry.family]}"]
    if not entry.reachable:
        lines.append("never reached by a continuing effect of content (W004)")
    return lines


def _variable_lines(entry) -> list[str]:
    lines = [f"kind: {vocab.VARIABLE_KINDS[entry.kind]}"]
    if entry.page_ops:
        lines.append(f"pages may: {_words('operation', entry.page_ops)}")
    if entry.enemy_ops:
        lines.append(f"enemies may: {_words('operation', entry.enemy_ops)}")
    if entry.lifetimes:
        lines.append(f"lifetimes: {_words('lifetime', entry.lifetimes)}")
    if entry.modifier_of:
        target = vocab.tables()["variable"].by_code(entry.modifier_of)
        lines.append(f"modifies: {target.ja if target else entry.modifier_of} ({entry.modifier_kind})")
    return lines


def _counter_lines(entry) -> list[str]:
    scopes = vocab.tables()["scope"]
    cells = "  ".join(f"{scopes.by_code(s).ja} {entry.cell(s)}" for s in vocab.SCOPE_ORDER)
    return [f"by scope: {cells}  (● core, ○ unused by design, × meaningless)"]


def _operation_lines(entry) -> list[str]:
    lines = [f"written: {entry.symbol} · family: {entry.family}"]
    if entry.landings:
        lines.append(f"landings: {_words('landing', entry.landings)}")
    return lines


def _balance_lines(entry) -> list[str]:
    default = "required" if entry.default is None else f"default {entry.default:g}"
    return [f"{entry.type} in {entry.low:g}..{entry.high:g}, {default}"]


#: Further lines of a term's hover, one row per class of the vocabulary.
TERM_LINES = {
    vocab.Scope: _scope_lines,
    vocab.Timing: _timing_lines,
    vocab.Variable: _variable_lines,
    vocab.Counter: _counter_lines,
    vocab.Operation: _operation_lines,
    vocab.BalanceKey: _balance_lines,
    vocab.Trait: lambda entry: [f"argument: {entry.arg}"],
}

#: What each structural keyword of the language does (contract.vocabulary.KEYWORDS).
KEYWORD_TEXT = {
    "page": "starts a page: id, optional title, then its fields and faces in braces",
    "enemy": "starts an enemy: id, optional title, HP, seat, Intents, traits",
    "balance": "the balance file's block: every number the rules read",
    "deck": "a named list of page ids (× n for copies)",
    "year": "the page's year (0..200): the future face fires when it is ahead of the age",
    "fray_mul": "how much fray a pen or tear on this page adds (a multiplier)",
    "origin": "the life stage the page comes from (a generation filter may name it)",
    "dest": "where the page goes after it is played",
    "deck_cap": "how many copies a deck may hold",
    "appears": "conditions for the page to appear in a run",
    "future": "the face that fires when the page's year is ahead of the age",
    "past": "the face that fires when the page's year is behind the age",
    "blank": "a face with nothing written (a pen can write it)",
    "pen": "what a pen writes on a face: its replacement effects",
    "tear": "the effects of tearing the page",
    "flavor": "the flavor text shown on the page",
    "target": "the balance the designer intends, checked by jibunki sim --check",
    "cond": "play conditions of the face",
    "life": "the value lifetime of an effect's result",
    "at": "the timing a continuing effect fires at",
    "until": "the repeat range of a continuing effect",
    "max": "the most times a continuing effect fires",
    "times": "the count word after max",
    "fixed": "the landing that ignores modifiers",
    "modified": "the default landing: modifiers apply",
    "telegraphed": "the enemy shows the move before it happens",
    "next": "an anchored range: the next n plays or turns",
    "cap": "changes a permanent parameter",
    "suppress": "control: stops a variable moving this play",
    "move": "moves pages between regions",
    "generate": "creates pages of an origin and year range",
    "duplicate": "copies pages",
    "reveal": "shows the top pages of the draw pile, in order",
    "pay": "a payment besides steps",
    "cards": "the count word of pages",
    "filter_page": "selects pages by id",
    "hp": "the enemy's or the player's hit points",
    "seat": "the enemy's seat on the number line",
    "breakthrough": "the fray at which the enemy breaks",
    "intents": "the enemy's Intents, in order",
    "escalation": "every n turns an Intent joins",
    "per_turns": "the unit of an escalation",
    "traits": "the enemy's traits and trait effects",
    "reward": "what a fray reward threshold gives",
    "example": "an example battle (scenario): enemies, seed, deck, steps",
    "seed": "the seed of the example's battle",
    "setup": "developer-mode settings at the start of the example",
    "play": "plays a page",
    "rip": "tears a page",
    "end": "declares the end of the turn",
    "choose": "answers a player choice",
    "expect": "checks values after a step",
    "refused": "the step must be refused (optionally with words of the reason)",
}


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
        lines.append(f"also written: {'、'.join(entry.aliases)}")
    lines += TERM_LINES.get(type(entry), lambda _: [])(entry)
    if entry.note:
        lines.append(entry.note)
    said = entry.said()
    if said and said != entry.ja and "{" not in said:
        lines.append(f"rules text says: {said}")
    return "  \n".join(lines)


def glossary(word: str) -> list[str]:
    """The meaning of ``word`` in every vocabulary table and keyword table that knows it."""
    found = []
    rule = _keywords().get(word)
    if rule is not None:
        rule_name, ja, ascii_ = rule
        found.append(f"**{ja}** — keyword · ASCII `{ascii_}`  \n"
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
    if page.tear:
        lines.append(f"{_keyword('tear')}: "
                     + " ／ ".join(phrase(e, default_timing="on_tear") for e in page.tear))
    if page.appears:
        lines.append(f"{_keyword('appears')}: "
                     + "、".join(condition_text(c) for c in page.appears))
    return "  \n".join(lines)


def enemy_markdown(enemy) -> str:
    """A checked enemy (contract.tables.Enemy): name, HP, 座, 突破ライン, flavor."""
    lines = [f"**{enemy.name}** `{enemy.id}` — {_keyword('hp')} {enemy.hp} · "
             f"{_keyword('seat')} {enemy.seat} · {_keyword('breakthrough')} {enemy.breakthrough}"]
    if enemy.flavor:
        lines.append(f"*{enemy.flavor}*")
    if enemy.trait_effects:
        lines.append(f"{_keyword('traits')}: " + " ／ ".join(phrase(e) for e in enemy.trait_effects))
    return "  \n".join(lines)


def _item_markdown(word: str, result: Result, pages: dict, enemies: dict) -> list[str]:
    symbols = result.symbols
    if symbols is None:
        return []
    found = []
    if word in symbols.pages:
        checked = pages.get(word)
        found.append(page_markdown(checked) if checked is not None else
                     f"**{symbols.pages[word].title or word}** `{word}` (has errors)")
    if word in symbols.enemies:
        checked = enemies.get(word)
        found.append(enemy_markdown(checked) if checked is not None else
                     f"**{symbols.enemies[word].title or word}** `{word}` (has errors)")
    if word in symbols.decks:
        deck = symbols.decks[word]
        count = sum(e.count.value if e.count else 1 for e in deck.entries)
        found.append(f"**{deck.title or word}** `{word}` — {_keyword('deck')}, {count}")
    return found


def hover(line: str, line_no: int, col: int, result: Result, pages: dict, enemies: dict,
          diagnostics=()) -> str | None:
    """The hover text at ``col`` of ``line`` (line ``line_no``, 0-based): an item id's page
    or enemy, a word's glossary meaning, and the explanation of every diagnostic there."""
    sections = []
    word = word_at(line, col)
    if word is not None:
        sections += _item_markdown(word[0], result, pages, enemies) or glossary(word[0])
    for diag in diagnostics:
        if _inside(diag.span, line_no, col):
            text = explanation(diag.code)
            if text:
                sections.append(text.strip())
    return "\n\n---\n\n".join(sections) or None


def _inside(span: Span, line_no: int, col: int) -> bool:
    start, end = (span.line - 1, span.col - 1), (span.end_line - 1, span.end_col - 1)
    return start <= (line_no, col) <= end


# ------------------------------------------------------------------ completion


@dataclass(frozen=True)
class Candidate:
    """One completion: the text, its kind (keyword, variable, timing, scope, page, enemy),
    a one-line detail and a longer documentation."""

    label: str
    kind: str
    detail: str
    documentation: str = ""


@cache
def _vocabulary_candidates() -> tuple[Candidate, ...]:
    found = [Candidate(ja, "keyword", f"keyword · {ascii_}", KEYWORD_TEXT.get(rule, ""))
             for rule, (ja, ascii_) in vocab.KEYWORDS.items()]
    for table, kind in (("variable", "variable"), ("counter", "variable"),
                        ("timing", "timing"), ("scope", "scope")):
        for entry in vocab.tables()[table].entries:
            found.append(Candidate(entry.ja, kind, f"{TABLE_TITLES[table]} · {entry.code}",
                                   _term_markdown(table, entry)))
    first: dict[str, Candidate] = {}
    for candidate in found:
        first.setdefault(candidate.label, candidate)  # 銘 is a keyword and a variable
    return tuple(first.values())


def completions(result: Result | None, pages: dict, enemies: dict) -> list[Candidate]:
    """Every keyword, variable, cumulative quantity, timing and scope, then every page id
    (detail: 銘 and name) and enemy id (detail: name) of the content folder. A page's or
    an enemy's documentation is left for ``documentation`` (asked for one item at a time:
    the rules text of thousands of pages costs more than the whole list)."""
    found = list(_vocabulary_candidates())
    symbols = result.symbols if result is not None else None
    for ident in (symbols.pages if symbols else pages):
        page = pages.get(ident)
        detail = (f"{_keyword('year')} {page.year} {page.name}" if page is not None
                  else symbols.pages[ident].title or "")
        found.append(Candidate(ident, "page", detail))
    for ident in (symbols.enemies if symbols else enemies):
        enemy = enemies.get(ident)
        detail = enemy.name if enemy is not None else symbols.enemies[ident].title or ""
        found.append(Candidate(ident, "enemy", detail))
    return found


#: The documentation of a page or enemy candidate, by its kind.
ITEM_DOCUMENTATION = {"page": page_markdown, "enemy": enemy_markdown}


def documentation(kind: str, ident: str, pages: dict, enemies: dict) -> str:
    """The documentation of the page or enemy candidate ``ident`` (its rules text), or ""
    when it has none (an item with errors, another kind of candidate)."""
    item = {"page": pages, "enemy": enemies}.get(kind, {}).get(ident)
    return ITEM_DOCUMENTATION[kind](item) if item is not None else ""


# ------------------------------------------------------------------ navigation


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
    spelled = {word for words in vocab.KEYWORDS.values() for word in words}
    return bool(_name_pattern().fullmatch(text)) and text not in spelled


def is_defined(word: str, result: Result) -> bool:
    """Whether a page, enemy or deck of the content folder already has the id ``word``."""
    return bool(_definitions(word, result))


def definition(line: str, col: int, result: Result) -> list[Span]:
    """Where the page, enemy or deck id under ``col`` is defined (its id in its file)."""
    word = word_at(line, col)
    return _definitions(word[0], result) if word else []


def _names(node):
    """Every ast.Name under ``node`` (the AST's frozen dataclasses, walked by their fields)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Name):
            yield item
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, (type, Span)):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))


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
        found += [name.span for name in _names(source.parsed.file.items)
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


def document_symbols(result: Result, path: str) -> list[Symbol]:
    """The pages, enemies, decks, balance and examples of the document ``path``."""
    if result.compilation is None:
        return []
    found = []
    for source in result.compilation.sources:
        if source.path != path or source.parsed is None:
            continue
        for item in source.parsed.file.items:
            found.append(_symbol(item))
    return found


def _symbol(item) -> Symbol:
    """An item as the outline shows it, its ``kind`` the keyword rule of its kind (contract.kinds)."""
    kind = kinds.of(item)
    if kind.named:
        return Symbol(item.id.text, item.title or "", kind.keyword, item.span, item.id.span)
    word = _keyword(kind.keyword)
    return Symbol(item.title or word, word, kind.keyword, item.span, item.span)
