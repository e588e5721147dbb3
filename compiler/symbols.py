"""記号表 — the first pass: every page, enemy, deck and balance of the run, by id.

Names resolve across files, so this pass sees every file before any item is checked.
Duplicate ids are reported here, pointing at both definitions.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from dsl import ast
from dsl.diagnostics import Diagnostic, Note

from contract import kinds
from contract.kinds import JOURNEY_KINDS

from .codes import E012, W014, W015


@dataclass
class Symbols:
    """記号表 — every page, enemy and deck of the run by id, and its balances and 例 in
    order: collected from all files before any item is checked (names resolve across files)."""

    pages: dict[str, ast.Page] = field(default_factory=dict)
    enemies: dict[str, ast.Enemy] = field(default_factory=dict)
    decks: dict[str, ast.Deck] = field(default_factory=dict)
    balances: list[ast.Balance] = field(default_factory=list)
    examples: list[ast.Example] = field(default_factory=list)
    #: 旅 (spec 004): each kind of journey item (JOURNEY_KINDS) → its items by id.
    journey: dict[str, dict[str, ast.JourneyItem]] = field(
        default_factory=lambda: {kind: {} for kind in JOURNEY_KINDS})
    #: 読めなかった定義 — id → (path, line, reported) of a header in text the parser could
    #: not read (a part recovery dropped, a file refused with E004), ``unread``: a reference
    #: to such an id is not an E011 of its own when that error is reported in this run, and
    #: says where the definition seems to be when it is not (a context file).
    unread: dict[str, tuple[str, int, bool]] = field(default_factory=dict)
    #: likewise each 出自 written there (a 生成 出自 … naming it is not an E011 of its own)
    unread_origins: dict[str, tuple[str, int, bool]] = field(default_factory=dict)
    #: whether a balance file was not read whole (no E014 for a missing balance then)
    balance_unread: bool = False
    _facts: "PageFacts | None" = field(default=None, init=False, repr=False, compare=False)

    def slot(self, kind: kinds.ItemKind):
        """Where the items of ``kind`` are kept (its row's ``slot``): a dict by id, or a
        list for a kind without ids."""
        attribute, _, key = kind.slot.partition(".")
        table = getattr(self, attribute)
        return table[key] if key else table

    @property
    def origins(self) -> frozenset[str]:
        """Every 出自 written by some page (the values a generation filter may name)."""
        return frozenset(origin for origin in self.facts.counts if origin is not None)

    @property
    def facts(self) -> "PageFacts":
        """What a generation filter reads of every page (PageFacts).

        Gathered once, on first use: every 出自 filter and every 生成 pool (W005) of every
        page reads it, and a walk of all pages per filter made lint grow with the square
        of the content. The table of pages is complete before any item is checked
        (``collect``)."""
        if self._facts is None:
            self._facts = PageFacts.of(self)
        return self._facts


@dataclass(frozen=True)
class PageFacts:
    """The 出自 and 銘 of every page, as a 生成 filter reads them: by 出自 (None: every page)
    how many pages have it and their 銘 in order; by page id its (出自, 銘). A 銘 that its
    own check refuses is None (the page fits no 銘 range; that check says why)."""

    counts: dict
    years: dict
    pages: dict

    @classmethod
    def of(cls, symbols: Symbols) -> "PageFacts":
        """The facts of every page of ``symbols``, in one walk."""
        from .values import Ctx, constant

        quiet = Ctx([], symbols)
        counts: dict = {}
        years: dict = {}
        pages: dict = {}
        for page in symbols.pages.values():
            fields: dict = {}
            for f in page.fields:  # the first of a field written twice, as its check reads it
                fields.setdefault(f.key, f)
            origin = fields.get("origin")
            origin = origin.value.text if origin and isinstance(origin.value, ast.Name) else None
            year = constant(fields["year"].value, quiet, "") if "year" in fields else None
            year = year if isinstance(year, int) else None
            pages[page.id.text] = (origin, year)
            for key in {None, origin}:
                counts[key] = counts.get(key, 0) + 1
                if year is not None:
                    years.setdefault(key, []).append(year)
        return cls(counts, {key: sorted(found) for key, found in years.items()}, pages)

    def fits_any(self, origin: str | None, years: tuple[int, int] | None,
                 page: str | None) -> bool:
        """Whether some page fits a filter of 出自, 銘 range and page (None: any)."""
        if page is not None:
            if page not in self.pages:
                return True  # an unknown page is E011's to report
            own_origin, own_year = self.pages[page]
            return ((origin is None or own_origin == origin) and
                    (years is None or own_year is not None and years[0] <= own_year <= years[1]))
        if years is None:
            return self.counts.get(origin, 0) > 0
        found = self.years.get(origin, [])
        at = bisect_left(found, years[0])
        return at < len(found) and found[at] <= years[1]


def collect(files: list[ast.SourceFile], diags: list[Diagnostic]) -> Symbols:
    """Every item by id; the first definition of an id is the one the run uses.

    A duplicate id is E012 at *every* definition, each pointing at the others: lint of one
    file checks it against the rest of content/ without reporting theirs, so an error
    only at the later definition would go unseen when the earlier file is the one named."""
    symbols = Symbols()
    definitions: dict[tuple[str, str], list] = {}  # (kind, id) → items, in reading order
    for source in files:
        for item in source.items:
            kind = kinds.of(item)
            table = symbols.slot(kind)
            if kind.named:
                definitions.setdefault((kind.code, item.id.text), []).append(item)
                table.setdefault(item.id.text, item)
            elif kind.only_one:
                definitions.setdefault((kind.code, ""), []).append(item)
                if not table:
                    table.append(item)
            else:
                table.append(item)
    for (code, ident), items in definitions.items():
        if len(items) < 2:
            continue
        kind = kinds.by_code(code)
        word = kinds.word(kind)
        for item in items:
            others = [other for other in items if other is not item]
            if not kind.named:
                diags.append(E012.at(
                    item.span, f"{word}の定義が2つあります",
                    hint=f"{word}はコンテンツ全体で1つだけ書きます",
                    notes=[Note(_note(item, other, items), other.span) for other in others]))
            else:
                diags.append(E012.at(
                    item.id.span, f"{word}「{ident}」の定義が2つあります",
                    hint="id はコンテンツ全体で一意にしてください",
                    notes=[Note(_note(item, other, items), other.id.span) for other in others]))
    _same_names(definitions, diags)
    _lone_origins(symbols.pages.values(), diags)
    return symbols


def _lone_origins(pages, diags: list) -> None:
    """W015 at a page's 出自 that no other page has and that is a slip of one another page
    has (少年時代 where 少年期 is written): a new life stage of one page is also possible,
    so nothing is said when no other origin is near."""
    from .names import closest

    written: dict[str, list] = {}
    for page in pages:
        field = next((f for f in page.fields if f.key == "origin"), None)
        if field is not None and isinstance(field.value, ast.Name):
            written.setdefault(field.value.text, []).append(field.value)
    for origin, names in written.items():
        if len(names) != 1:
            continue
        others = tuple(o for o in written if o != origin)
        near = closest(origin, others, most=len(others)) if others else ()
        # as near as each other (幼年期: 幼少期, 青年期, 熟年期 …): the origin its own
        # file's other pages write most — a slip in 幼少期.page means 幼少期 — alone
        path = names[0].span.path
        here = {o: sum(n.span.path == path for n in written[o]) for o in near}
        near = sorted(near, key=lambda o: -here[o])
        if len(near) > 1 and here[near[0]] > here[near[1]]:
            near = near[:1]
        if not near:  # near none: a life stage of its own (as near to many: a slip still)
            continue
        diags.append(W015.at(names[0].span, origin=origin, meant="」か「".join(near),
                             replacements=tuple(near)))


def _same_names(definitions: dict, diags: list) -> None:
    """W014 at each item an example can stand under (a page, an enemy: contract.kinds
    ``subject``, chosen and shown by name) whose display name another of its kind has
    (different ids: a second definition of one id is E012's) — at every one of them,
    pointing at the others: ``lint`` of the file just written must say it, whichever
    of the two came first."""
    named: dict[tuple[str, str], list] = {}
    for (code, ident), items in definitions.items():
        item = items[0]
        if not kinds.by_code(code).subject or not getattr(item, "title", None):
            continue
        named.setdefault((code, item.title), []).append(item)
    for (code, title), item, others in each_with_others(named):
        diags.append(W014.at(item.id.span, word=kinds.word(kinds.by_code(code)),
                             name=title, other=others[0].id.text,
                             notes=[Note(f"「{title}」の {other.id.text} はここです",
                                         other.id.span) for other in others]))


def each_with_others(groups: dict):
    """(key, item, the others) for each item of a group of ``groups`` (key → items) that
    holds more than one: a warning of things alike is said at every one of them, pointing
    at the others — lint of the file just written must say it, whichever came first."""
    for key, alike in groups.items():
        for item in alike if len(alike) > 1 else ():
            yield key, item, [other for other in alike if other is not item]


def unread(sources, names=None) -> dict[str, tuple[str, int, bool]]:
    """``Symbols.unread`` of the run's sources (compiler.pipeline.Source): the headers in
    each damaged range of a parsed file, and in the whole of a file not parsed — or, with
    ``names`` (dsl.headers ``origin_names``), what else it finds there
    (``Symbols.unread_origins``)."""
    from dsl.headers import header_ids

    found: dict[str, tuple[str, int, bool]] = {}
    for source in sources:
        text = source.text if source.text is not None else source.unparsed
        if text is None:
            continue
        ranges = [(1, None)] if source.parsed is None else source.parsed.damaged
        for first, last in ranges:
            for ident, line in (names or header_ids)(text, first, last):
                found.setdefault(ident, (source.path, line, source.report))
    return found


def unread_balance(sources) -> bool:
    """Whether a balance file (.balance) was not read whole: the balance it seems to hold
    is not missing, its error says why."""
    return any(source.path.endswith(".balance")
               and (source.parsed is None or source.parsed.damaged) for source in sources)


def unread_reference(symbols: Symbols, name: str) -> str | None:
    """For a reference to ``name``, which no item read defines: None when it is an E011 of
    its own; "" when its definition could not be read and that error is reported in this
    run (the reference says nothing more); else the hint that says where it seems to be."""
    where = symbols.unread.get(name)
    if where is None:
        return None
    path, line, reported = where
    return "" if reported else (f"「{name}」は {path}:{line} に書かれているようですが、"
                                "その定義は読めていません（そこの誤りを直してください）")


def _note(item, other, items) -> str:
    return "最初の定義" if other is items[0] else "別の定義"
