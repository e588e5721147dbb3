"""パイプライン — the passes of the compiler, in order, over one compilation record.

    parse → sizes → symbols → check → journey → project → lower → validate → analyze → emit
                                                                                (PASSES)

Each pass reads and extends the ``Compilation``; lint and compile run the same tuple, so
whatever compile refuses, lint reports. A pass after ``check`` runs only on content
without errors (``lower`` also needs a balance; ``emit`` a format to write). Nothing here
raises on content: a bad file is a diagnostic. Running the examples (例) is a stage above
the compiler (scenario/stage.py) that reads what this pipeline built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dsl import ast
from dsl.diagnostics import Diagnostic, Span

from contract import collector, kinds
from contract.tables import JourneyTable
from contract.tables import Balance, Deck, Enemy, Page
from .codes import E000, E014, W003
from .items import check_balance, check_deck, check_enemy, check_page, default_deck_cap
from .sources import SourceRecords
from .symbols import Symbols
from .values import Ctx


@dataclass
class Source:
    """One file of the run: its text as the parser reads it (None: unreadable)."""

    path: str
    text: str | None
    parsed: object = None  # dsl.ast.ParseResult
    report: bool = True  # False: read only to resolve names (context files)
    #: the text of a file not parsed for its E004 (binary, an over-long line, not UTF-8):
    #: read only for the ids it seems to define (symbols.unread)
    unparsed: str | None = None


@dataclass
class Model:
    """The checked items of a run, as the tables hold them (None: an item with errors)."""

    pages: list[Page | None] = field(default_factory=list)
    enemies: list[Enemy | None] = field(default_factory=list)
    decks: list[Deck | None] = field(default_factory=list)
    balance: Balance | None = None
    #: 旅 (spec 004): the journey table, None when a journey item has an error.
    journey: "JourneyTable | None" = None

    def __getitem__(self, key: str):
        """The same fields by name (``model["pages"]``), for callers that read it so."""
        return getattr(self, key)


@dataclass
class Compilation:
    """One run of the compiler, filled in pass by pass (PASSES)."""

    sources: list[Source]
    #: Every diagnostic of the run, context files included (``shown`` picks the reported).
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The paths whose diagnostics are reported: the named files (and unreadable folders).
    reported: set[str] = field(default_factory=set)
    #: The content folder, as named, when the whole project is compiled: then it must hold
    #: a balance and the starting deck (the project checks report at this path).
    project: str | None = None
    #: Source records in the tables are relative to this folder (the one above content/).
    root: Path = field(default_factory=Path.cwd)
    #: "py" or "json": the files to emit; None: no files (lint).
    fmt: str | None = None
    oversized: set[int] = field(default_factory=set)  # ids of items E048 refused
    #: The paths whose items are checked; None: every file's. An editor checks only the
    #: document it shows (the other files still give their names, symbols): the model is
    #: then partial, so nothing is lowered.
    checked: set[str] | None = None
    #: False: the interaction analysis (``analyze``) is not run — for a command that
    #: shows no warnings and only needs the tables (``jibunki sim``, ``jibunki battle``):
    #: its findings are warnings, and reading the whole content cost a tenth of a second.
    analysis: bool = True
    #: The errors (context files' too) that kept ``analyze`` from running: said by lint.
    analysis_blocked: list[Diagnostic] = field(default_factory=list)
    symbols: Symbols = field(default_factory=Symbols)
    model: Model = field(default_factory=Model)
    tables: dict[str, dict] = field(default_factory=dict)  # literals, once lowered
    #: File name → its UTF-8 bytes as written, once emitted (compiler/emit.py: bytes, the
    #: smaller form of a table's text and the one it is hashed and written in).
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Any error anywhere in the run (a context file's too): nothing is lowered."""
        return any(d.is_error for d in self.diagnostics)

    def shown(self, diagnostics) -> list[Diagnostic]:
        """The diagnostics of the reported paths, in the order they are printed."""
        return sorted((d for d in diagnostics if d.span.path in self.reported),
                      key=Diagnostic.sort_key)


def run(compilation: Compilation) -> Compilation:
    """Run every pass of PASSES, in order, over ``compilation``."""
    for step in PASSES:
        step(compilation)
    return compilation


# ------------------------------------------------------------------ the passes


def _collector_paused(step):
    """``step`` with Python's cyclic garbage collector paused: every pass (they build the
    run's model and tables).

    Parsing and checking build millions of objects (parse trees, then the AST and the
    model) that stay alive to the end of the run and hold no cycles. With the collector
    on, each of its full passes walks every one of them again, so the run grows faster
    than the content: 10,000 pages linted in 13.6 s with it, 7.2 s without, with the
    same peak memory and no cyclic garbage left to find afterwards. Plain reference
    counting still frees every temporary; the collector is on again when the pass ends
    (examples, which run battles, are played with it on)."""

    return collector.paused()(step)


@_collector_paused
def parse(c: Compilation) -> None:
    """Each readable file → its AST (dsl.parser), after the bound on its tokens. A file
    whose exact text was parsed before comes from the parse cache (dsl.parsecache: the
    same AST, diagnostics and damaged ranges); only changed files are parsed."""
    from dsl.parsecache import ParseCache

    from .limits import too_many_tokens
    from .names import suggest

    with ParseCache.open() as parse_cache:
        for source in c.sources:
            if source.text is None or source.parsed is not None:
                continue  # unreadable, or parsed already (an editor's unchanged file)
            # The parse is the costly step (lark reads some 70,000 tokens a second): bound
            # it first.
            too_big = too_many_tokens(source.text, source.path)
            if too_big is not None:
                c.diagnostics.append(too_big)
                continue
            try:
                source.parsed = parse_cache.parse(source.text, source.path, suggest)
            except Exception as exc:  # parse never raises on content: a bug in jibunki
                c.diagnostics.append(internal_error(exc, Span(source.path, 1, 1, 1, 2)))
                continue
            c.diagnostics.extend(source.parsed.diagnostics)
            # Only whitespace and comments: nothing for the game, so probably a mistake.
            if source.report and not source.parsed.file.items and not source.parsed.diagnostics:
                c.diagnostics.append(W003.at(Span(source.path, 1, 1, 1, 2)))


@_collector_paused
def check_sizes(c: Compilation) -> None:
    """E048 for every list over its bound (compiler/limits.py). An item over a bound, or
    every item of a file with too many, is not checked further (``c.oversized``)."""
    from .limits import oversized, too_many_items

    for source in c.sources:
        if source.parsed is None:
            continue
        items = source.parsed.file.items
        too_many = too_many_items(items, source.path)
        if too_many is not None:
            c.diagnostics.append(too_many)
            c.oversized.update(map(id, items))
            continue
        for item in items:
            found = oversized(item)
            if found:
                c.diagnostics.extend(found)
                c.oversized.add(id(item))


@_collector_paused
def collect_symbols(c: Compilation) -> None:
    """Every item of every file by id (names resolve across files)."""
    from dsl.headers import origin_names

    from .symbols import collect, unread, unread_balance

    files = [s.parsed.file for s in c.sources if s.parsed is not None]
    try:
        c.symbols = collect(files, c.diagnostics)
        c.symbols.unread = unread(c.sources)
        c.symbols.unread_origins = unread(c.sources, origin_names)
        c.symbols.balance_unread = unread_balance(c.sources)
    except Exception as exc:  # a bug in jibunki: say so, and check nothing further
        c.symbols = Symbols()
        for source in c.sources:
            if source.parsed is not None and source.report:
                c.diagnostics.append(internal_error(exc, Span(source.path, 1, 1, 1, 2)))


@dataclass
class _ItemRun:
    """What the checks of one run's items share."""

    symbols: Symbols
    model: Model
    records: SourceRecords
    default_cap: int  # the deck cap of a page that writes none (default_deck_cap)


# Every definition is checked, a second one of an id too (E012 names both): its own errors
# are said in the same run, whatever the files' names make first. Only the first goes into
# the model.
def _check_page(item, ctx, damaged, run: _ItemRun):
    checked = check_page(item, ctx, run.records.of(item), run.default_cap, damaged)
    if run.symbols.pages.get(item.id.text) is item:
        run.model.pages.append(checked)


def _check_enemy(item, ctx, damaged, run: _ItemRun):
    checked = check_enemy(item, ctx, run.records.of(item), damaged)
    if run.symbols.enemies.get(item.id.text) is item:
        run.model.enemies.append(checked)


def _check_deck(item, ctx, damaged, run: _ItemRun):
    checked = check_deck(item, ctx, damaged)
    if run.symbols.decks.get(item.id.text) is item:
        run.model.decks.append(checked)


def _check_balance(item, ctx, damaged, run: _ItemRun):
    if run.symbols.balances[:1] == [item]:
        run.model.balance = check_balance(item, ctx, damaged)


#: How an item is checked, by its kind's ``check`` (contract.kinds): ``_check_<check>``.
#: Every definition of an id is checked; the first is the one kept (E012 names the others). Kinds
#: without one are checked elsewhere: the journey's by check_journey, examples (例) by
#: the stage above (scenario/stage.py).
_ITEM_CHECKS = {kind.code: globals()[f"_check_{kind.check}"]
                for kind in kinds.ITEM_KINDS if kind.check is not None}


def _mark_failed(model: Model, kind: kinds.ItemKind) -> None:
    """Count an item whose check failed as having errors, in its kind's ``model`` field."""
    held = getattr(model, kind.model)
    if isinstance(held, list):
        held.append(None)
    else:
        setattr(model, kind.model, None)


@_collector_paused
def check_items(c: Compilation) -> None:
    """Every page, enemy, deck and the balance → the contract objects of the model."""
    records = SourceRecords({s.path: s.text for s in c.sources if s.text is not None}, c.root)
    run = _ItemRun(c.symbols, c.model, records, default_deck_cap(Ctx([], c.symbols)))
    for source in c.sources:
        if source.parsed is None or (c.checked is not None and source.path not in c.checked):
            continue
        for item in source.parsed.file.items:
            kind = kinds.of(item)
            check = _ITEM_CHECKS.get(kind.code)
            if check is None or id(item) in c.oversized:  # E048 said why: work refused
                continue
            damaged = _damaged(item, source)
            # a page's own 銘 is no target of its effects: the owner is the page
            ctx = Ctx(c.diagnostics, c.symbols, kind.side,
                      owner=item.id.text if kind.code == "page" else None)
            try:
                check(item, ctx, damaged, run)
            except Exception as exc:  # a bug in jibunki, reported where it struck
                c.diagnostics.append(internal_error(exc, head(item.span)))
                _mark_failed(c.model, kind)


@_collector_paused
def check_journey(c: Compilation) -> None:
    """The journey items (spec 004) → the journey table of the model (compiler.journey)."""
    from .journey import check_journey as check

    # a journey item whose lines recovery blanked may lack a field it wrote (枠 -2): its
    # syntax error says so, so the check does not add "枠がありません"
    damaged = frozenset(id(item) for source in c.sources if source.parsed is not None
                        for item in source.parsed.file.items
                        if isinstance(item, ast.JourneyItem) and _damaged(item, source))
    try:
        c.model.journey = check(c.symbols, c.diagnostics, damaged)
    except Exception as exc:  # a bug in jibunki, reported at the first journey item
        first = next((item for items in c.symbols.journey.values() for item in items.values()),
                     None)
        if first is not None:
            c.diagnostics.append(internal_error(exc, head(first.span)))


def check_project(c: Compilation) -> None:
    """What only the whole content can lack: the balance and the starting deck."""
    from .lower import STARTING_DECK
    from .symbols import unread_reference

    if c.project is None:
        return
    where = Span(c.project, 1, 1, 1, 2)
    # One that lies in a file or a part the parser could not read is not missing: that
    # error says why (and a context file's unread definition is named in the hint).
    if not c.symbols.balances and not c.symbols.balance_unread:
        c.diagnostics.append(E014.at(where, "バランスがありません",
                                     hint=f"{c.project} に バランス {{ … }} を1つ書いてください"
                                     "（書く数は jibunki vocab バランス）"))
    unread = unread_reference(c.symbols, STARTING_DECK)
    if STARTING_DECK not in c.symbols.decks and unread != "":
        c.diagnostics.append(E014.at(where, f"初期デッキ「{STARTING_DECK}」がありません",
                                     hint=unread or f"デッキ {STARTING_DECK} {{ … }} を書いてください"))


@_collector_paused
def lower_tables(c: Compilation) -> None:
    """The checked model → the literal tables (content without errors, with a balance)."""
    from .lower import lower

    if not c.failed and c.model.balance is not None and c.checked is None:
        c.tables = lower(c.model)


@_collector_paused
def validate_tables(c: Compilation) -> None:
    """The tables are what the contract says (SchemaViolation: a bug in jibunki)."""
    from .validate import validate

    if c.tables:
        validate(c.tables)


@_collector_paused
def analyze(c: Compilation) -> None:
    """The interaction analysis of the whole content (analysis/: W006 loops, W009 timings
    nothing sets off, …), each finding a warning at the 作用 it is about. It reads every
    page and enemy together, so it runs on a whole run without errors only — never on an
    editor's partial model (the language server runs it itself: lsp/analysis.py)."""
    if not c.analysis or c.checked is not None:
        return
    if c.failed:
        c.analysis_blocked = sorted((d for d in c.diagnostics if d.is_error),
                                    key=Diagnostic.sort_key)
        return
    if not any(p is not None for p in c.model.pages):
        return
    from analysis.content import Content
    from analysis.findings import findings

    try:
        found = findings(Content.of_model(c.model))
    except Exception as exc:  # a bug in jibunki: said once, where the content begins
        first = next(iter(c.symbols.pages.values()))
        c.diagnostics.append(internal_error(exc, head(first.span)))
        return
    c.diagnostics.extend(finding_diagnostics(c.symbols, found))


def finding_diagnostics(symbols: Symbols, found, path: str | None = None) -> list[Diagnostic]:
    """The analysis' findings as coded warnings at their 作用 (``finding_span``); of the
    file ``path`` only, when named."""
    from .codes import CODES

    out = []
    for finding in found:
        span = finding_span(symbols, finding.kind, finding.item, finding.line,
                            finding.data.get("place"))
        if span is not None and (path is None or span.path == path):
            out.append(CODES[finding.code].at(span, finding.message, hint=finding.hint))
    return out


def finding_span(symbols: Symbols, kind: str, item: str, line: int | None,
                 place: str | None = None) -> Span | None:
    """Where a finding on (item kind, id, source line) is shown: the 条件 of the face
    ``place`` names, when it names one (a finding on a face's conditions: ``future``,
    ``pen:past`` …); else the first node of the item's AST that starts at that line (a
    作用 before the block it is written in), else the item's head; None when the item is
    not among the symbols. An item of a kind without ids (the balance) is its kind's
    first."""
    table = symbols.slot(kinds.by_code(kind))
    node = table.get(item) if isinstance(table, dict) else next(iter(table), None)
    if node is None:
        return None
    if place is not None:
        span = _conditions_span(node, place)
        if span is not None:
            return span
    if line is not None:
        at_line = [found for found in _nodes(node) if found.span.line == line]
        for found in sorted(at_line, key=lambda n: not isinstance(n, ast.Sayou)):
            return found.span
    return head(node.span)


def _conditions_span(node, place: str) -> Span | None:
    """The 条件 of the face ``place`` names on a page's AST (``future``, ``pen:past`` …):
    from the first to the last when they are on one line, else the first — a page written
    on one line has every node on that line, and its head is not where the 条件 are."""
    pen, _, side = place.rpartition(":")
    for block in getattr(node, "pens" if pen else "faces", ()):
        spans = block.body.condition_spans if block.side == side and block.body else ()
        if spans:
            first, last = spans[0], spans[-1]
            if last.end_line != first.line:
                return first
            return Span(first.path, first.line, first.col, last.end_line, last.end_col)
    return None


def _nodes(node):
    """The AST nodes under ``node`` (itself first), depth first, in field order."""
    from dataclasses import fields, is_dataclass

    todo = [node]
    while todo:
        here = todo.pop()
        if isinstance(here, (tuple, list)):
            todo.extend(reversed(here))
            continue
        if not is_dataclass(here) or not hasattr(here, "span"):
            continue
        yield here
        todo.extend(reversed([getattr(here, f.name) for f in fields(here)]))


@_collector_paused
def emit(c: Compilation) -> None:
    """The tables as files of generated/ (in memory; cli.py writes them)."""
    from .emit import files_of

    if c.tables and c.fmt is not None:
        c.files = files_of(c.tables, c.fmt)


#: The passes, in order. lint and compile run them all. The analysis reads the checked
#: model only, and runs before the tables are lowered: its trigger graph (some 60 MB at
#: 10,000 pages) is built and gone before the tables and the files take their memory, so
#: it does not add to the compile's peak (benchmarks/bench_scale.py, 10,000 pages: 331 MB;
#: 384 MB when it ran after them).
PASSES = (parse, check_sizes, collect_symbols, check_items, check_journey, check_project,
          analyze, lower_tables, validate_tables, emit)


# --------------------------------------------------------------------- helpers


def internal_error(exc: Exception, span: Span) -> Diagnostic:
    """E000: the checker itself failed. The run goes on and the item counts as an error."""
    return E000.at(span, f"内部エラー: この定義を検査できませんでした（{type(exc).__name__}: {exc}）"[:300],
                   hint="jibunki のバグです。このファイルを添えて報告してください")


def head(span: Span) -> Span:
    """The first character of a span (where an item's internal error is reported)."""
    return Span(span.path, span.line, span.col, span.line, span.col + 1)


def _damaged(item, source: Source) -> bool:
    """Whether recovery from a syntax error blanked lines of ``item`` (a part of it may be
    missing, and an error says so)."""
    return any(_overlaps(item.span, lines) for lines in source.parsed.damaged)


def _overlaps(span: Span, lines: tuple[int, int]) -> bool:
    return span.line <= lines[1] and lines[0] <= span.end_line
