"""補完 — the candidates of a position: what the grammar lets stand there (dsl.position),
in the words of the vocabulary and of the content folder.

Pure functions, no LSP types. A position's keywords are offered as they are; what a name
there is (``Place.name``) picks a row of NAMES below: the value terms after an assignment
operator, the targets at the start of an effect, the page ids in a デッキ … Each
candidate's detail is Japanese: what it is, and for a target the operators it takes, for
a cumulative quantity whether its scope may be read (the ●/○ cell of spec 002's table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property

from contract import vocabulary as vocab
from contract.vocabulary import W
from dsl.position import Place, place_at

__all__ = ["Candidate", "Folder", "NAMES", "candidates", "completions"]


@dataclass(frozen=True)
class Candidate:
    """One completion: the text, its kind (keyword, variable, timing, scope, term, field,
    page, enemy, operator), a one-line detail and a longer documentation."""

    label: str
    kind: str
    detail: str
    documentation: str = ""


#: What a flag is written with, and a flag's name being written at the cursor (the
#: grammar's FLAG, dsl/jibunki.lark, cut at the cursor: ``@`` alone or with a start).
FLAG_MARK = "@"
FLAG_BEING_WRITTEN = re.compile(r"(?<![\w・])@(?:[^\W\d][\w・]*)?\Z")
#: What each vocabulary table is, in a candidate's detail (the vocabulary's own names).
TABLE_WORDS = vocab.TABLE_NAMES
#: The candidate kind of each table's terms (server.py maps kinds to the LSP's).
TABLE_KINDS = {"variable": "variable", "counter": "variable", "timing": "timing",
               "scope": "scope", "balance": "field", "journey_field": "field"}
#: The operations written at an effect's start (target, operator, value), and how each
#: is written.
NUMERIC_OPS = ("add", "mul", "assign")
OP_WORDS = {**{op.code: op.symbol for op in vocab.OPERATIONS}, "add": "+= -="}
#: The operations each kind of target position takes (its keyword written before it).
TARGET_OPS = {"page_target": NUMERIC_OPS, "enemy_line": NUMERIC_OPS,
              "cap_target": ("cap",), "suppress_target": ("suppress",), "pay_target": ("pay",)}
#: The condition families a play condition reads (spec 002 プレイ条件), and an appearance
#: condition.
PLAY_CONDITION_KINDS = frozenset(kind.code for kind in vocab.CONDITION_KINDS)
APPEARS_CONDITION_KINDS = frozenset({"appearance"})
#: A scope's cell of a cumulative quantity (spec 002's ●/○ table; × is never offered).
CELL_WORDS = {vocab.CELL_CORE: "● 使える", vocab.CELL_UNUSED: "○ 警告 W001（設計上は読まない）"}


def _docs(table: str, entry) -> str:
    from .features import _term_markdown  # the hover's text of the term

    return _term_markdown(table, entry)


def _term(table: str, entry, detail: str = "", label: str = "") -> Candidate:
    words = TABLE_WORDS[table] + (f" · {detail}" if detail else "")
    return Candidate(label or entry.ja, TABLE_KINDS.get(table, "term"), words,
                     _docs(table, entry))


def _table(name: str, keep=lambda entry: True):
    def found(place: Place, folder: Folder) -> list[Candidate]:
        return [_term(name, e) for e in vocab.tables()[name].entries if keep(e)]
    return found


# ------------------------------------------------------------------ rows


class Folder:
    """What the content folder offers, worked out when a position asks: its page ids (id
    → detail: 銘 and name, or the title of a page with errors), its enemy ids (→ name),
    and the origins its pages use."""

    def __init__(self, result, pages: dict, enemies: dict):
        self.symbols = result.symbols if result is not None else None
        self.pages, self.enemies = pages, enemies

    @cached_property
    def page_ids(self) -> dict[str, str]:
        """Every page id → its 銘 and name."""
        year = vocab.KEYWORDS["year"][0]
        found = {}
        for ident in (self.symbols.pages if self.symbols else self.pages):
            page = self.pages.get(ident)
            found[ident] = (f"{year} {page.year} {page.name}" if page is not None
                            else self.symbols.pages[ident].title or "")
        return found

    @cached_property
    def enemy_ids(self) -> dict[str, str]:
        """Every enemy id → its name."""
        found = {}
        for ident in (self.symbols.enemies if self.symbols else self.enemies):
            enemy = self.enemies.get(ident)
            found[ident] = (enemy.name if enemy is not None
                            else self.symbols.enemies[ident].title or "")
        return found

    @cached_property
    def flags(self) -> dict[str, tuple[int, int]]:
        """Every flag a page or an enemy of the folder names (``@来世`` → 来世), sorted, →
        (the 作用 that write it — it is their target —, the places that read it)."""
        from .features import flag_uses  # the AST's names, as references walks them

        found: dict[str, tuple[int, int]] = {}
        if self.symbols is not None:
            items = (*self.symbols.pages.values(), *self.symbols.enemies.values())
            for flag, written in flag_uses(items):
                writes, reads = found.get(flag, (0, 0))
                found[flag] = (writes + written, reads + (not written))
        return dict(sorted(found.items()))

    @cached_property
    def origins(self) -> list[str]:
        """Every 出自 a page of the folder writes, sorted."""
        if self.symbols is not None:
            return sorted(self.symbols.origins)
        return sorted({page.origin for page in self.pages.values() if page.origin})


def _flags(folder: Folder) -> list[Candidate]:
    """The flags of the folder, for a name being written after ``@``."""
    docs = _docs("variable", vocab.FLAG)
    return [Candidate(name, "variable", f"{vocab.FLAG.ja} · {flag_said(*uses)}", docs)
            for name, uses in folder.flags.items()]


def flag_said(writes: int, reads: int) -> str:
    """A flag's uses in the folder: 「書く 1 か所・読む 2 か所」 — and, when nothing writes
    it, that it stays 0 (a condition on it can never hold: W008)."""
    said = f"このフォルダで 書く {writes} か所・読む {reads} か所"
    return said if writes else said + "（書く作用がないので 0 のまま）"


def _ops_of(entry, side: str) -> tuple[str, ...]:
    return entry.enemy_ops if side == "enemy" else entry.page_ops


def _targets(place: Place, folder: Folder) -> list[Candidate]:
    wanted = TARGET_OPS[place.name]
    found = []
    for entry in vocab.VARIABLES:
        ops = [op for op in _ops_of(entry, place.side) if op in wanted]
        if ops:
            kind = vocab.VARIABLE_KINDS[entry.kind]
            found.append(_term("variable", entry, f"{kind} · {' '.join(OP_WORDS[o] for o in ops)}"))
    if place.name == "enemy_line":
        found += [_term("trait", entry) for entry in vocab.TRAITS]
    return found


def _counters(place: Place, folder: Folder) -> list[Candidate]:
    """Each cumulative quantity with each scope it may be read over (● then ○, never ×:
    the compiler's own list, compiler.values.with_scopes)."""
    from compiler.values import with_scopes

    scopes = vocab.tables()["scope"]
    found = []
    for entry in vocab.COUNTERS:
        for label in with_scopes(entry, entry.ja):
            scope = scopes.get(label[len(entry.ja) + 1:-1])
            cell = entry.cell(scope.code)
            found.append(_term("counter", entry, f"{scope.ja}: {CELL_WORDS[cell]}", label))
    return found


def _variables(keep):
    def found(place: Place, folder: Folder) -> list[Candidate]:
        return [_term("variable", e, vocab.VARIABLE_KINDS[e.kind]) for e in vocab.VARIABLES
                if e.readable and keep(e)]
    return found


def _regions(place: Place, folder: Folder) -> list[Candidate]:
    return [_term("region", e, "その領域のページの枚数") for e in vocab.REGIONS]


def _joined(*rows):
    def found(place: Place, folder: Folder) -> list[Candidate]:
        return [c for row in rows for c in row(place, folder)]
    return found


def _tiles_passed(place: Place, folder: Folder) -> list[Candidate]:
    return [_term("tile", e, "通過した数", f"{vocab.TILES_PASSED.ja}[{e.ja}]")
            for e in vocab.TILE_KINDS]


#: The families of timings, in a timing's detail (the vocabulary's own words).
TIMING_FAMILY_WORDS = vocab.TIMING_FAMILY_TEXT


def _timings(place: Place, folder: Folder) -> list[Candidate]:
    """Every timing with its family; one a continuing effect never reaches says so (W004)."""
    return [_term("timing", e, TIMING_FAMILY_WORDS[e.family]
                  + ("" if e.reachable else " · 届かない（W004）")) for e in vocab.TIMINGS]


def _pages(place: Place, folder: Folder) -> list[Candidate]:
    return [Candidate(ident, "page", detail) for ident, detail in folder.page_ids.items()]


def _enemies(place: Place, folder: Folder) -> list[Candidate]:
    return [Candidate(ident, "enemy", detail) for ident, detail in folder.enemy_ids.items()]


def _origins(place: Place, folder: Folder) -> list[Candidate]:
    return [Candidate(origin, "term", "出自（内容フォルダのページが使っているもの）")
            for origin in folder.origins]


def _item_of(place: Place) -> str | None:
    """The kind of item the position is in: a journey item's block is "journey:<kind>", a
    page's or an enemy's the kind itself."""
    return (place.block or "").partition(":")[2] or place.block


def _measures(place: Place, folder: Folder) -> list[Candidate]:
    return [_term("measure", e) for e in vocab.MEASURES if _item_of(place) in e.items]


def _journey_fields(place: Place, folder: Folder) -> list[Candidate]:
    kind = (place.block or "").partition(":")[2]
    return [_term("journey_field", e) for e in vocab.JOURNEY_FIELDS if kind in e.kinds]


def _events(place: Place, folder: Folder) -> list[Candidate]:
    """The kinds of 出来事 by their Japanese names, in the vocabulary's order."""
    return [_term("event", e, detail=e.code) for e in vocab.EVENTS]


def _expiries(place: Place, folder: Folder) -> list[Candidate]:
    """防御's expiries, in the vocabulary's order of lifetimes (runtime.state.EXPIRY_ORDER)."""
    lifetimes = vocab.lookup("variable", "defense").lifetimes
    return [_term("lifetime", term, f"{W.variable.defense}の消滅契機")
            for term in vocab.LIFETIMES if term.code in lifetimes]


def _fray_scopes(place: Place, folder: Folder) -> list[Candidate]:
    return [_term("scope", vocab.tables()["scope"].by_code(code), f"{W.variable.fray}の範囲")
            for code in ("stage", "run")]


def _faced(word: str) -> bool:
    return any(word in f.spellings() for f in vocab.FACES)


def _spells(table: str, code: str):
    """Whether a word spells the term ``code`` of the vocabulary table ``table``."""
    return lambda word: getattr(vocab.lookup(table, word), "code", None) == code


#: What a "[" takes in a 例's 確認 after a quantity of its own (scenario/check.py reads
#: them): the name before it → its candidates.
EXAMPLE_SUBSCRIPTS = (
    (_spells("quantity", "events"), _events),
    (_faced, _pages),
    (_spells("variable", "defense"), _expiries),
    (_spells("variable", "fray"), _fray_scopes),
)


def _example_subscript(place: Place):
    """The candidates of a "[" after a 例's own quantity (EXAMPLE_SUBSCRIPTS), or None."""
    if place.block != "example" or place.name != "subscript" or not place.before:
        return None
    return next((found for reads, found in EXAMPLE_SUBSCRIPTS if reads(place.before)), None)


def _subscript(place: Place, folder: Folder) -> list[Candidate]:
    """What a "[" after a name takes: the scopes a cumulative quantity may be read over,
    a page id after a region or 銘, a kind of tile after 通過したマス — and in a 例, what
    its own quantities take (EXAMPLE_SUBSCRIPTS: 出来事[被弾], 未来面[p], 防御[ターン] …)."""
    own = _example_subscript(place)
    if own is not None:
        return own(place, folder)
    counter = vocab.lookup("counter", place.before)
    if counter is not None:
        return [_term("scope", vocab.tables()["scope"].by_code(code),
                      f"{counter.ja}: {CELL_WORDS[counter.cell(code)]}")
                for code in vocab.SCOPE_ORDER if counter.cell(code) != vocab.CELL_NONE]
    if place.before in vocab.TILES_PASSED.spellings():
        return _table("tile")(place, folder)
    if vocab.lookup("region", place.before) or place.before in vocab.lookup(
            "variable", "year").spellings():
        return _pages(place, folder)
    return _table("scope")(place, folder)


_values = _joined(_counters, _variables(lambda e: True), _regions)

#: What a name at a position is (dsl.position.Place.name) → its candidates.
NAMES = {
    "value": _values,
    "condition": _joined(_counters, _variables(
        lambda e: e.cond_kind in PLAY_CONDITION_KINDS), _regions, _table("condition_word")),
    "appears": _joined(_variables(lambda e: e.cond_kind in APPEARS_CONDITION_KINDS),
                       _tiles_passed),
    "expect": _joined(_table("quantity"), _values),
    "setting": _variables(lambda e: True),
    "constant": lambda place, folder: [],
    **{role: _targets for role in TARGET_OPS},
    "lifetime": _table("lifetime"),
    "timing": _timings,
    "scope": _table("scope"),
    "anchor_unit": _table("anchor_unit"),
    "region": _table("region"),
    "pick": _table("pick"),
    "destination": _table("destination"),
    "intent": _table("intent"),
    "balance_key": _table("balance"),
    "measure": _measures,
    "journey_field": _journey_fields,
    "origin": _origins,
    "page_id": _pages,
    "enemy_id": _enemies,
    "subscript": _subscript,
}


@cache
def _keyword(rule: str) -> Candidate:
    from .features import KEYWORD_TEXT

    ja, ascii_ = vocab.KEYWORDS[rule]
    return Candidate(ja, "keyword", f"キーワード · {ascii_}", KEYWORD_TEXT.get(rule, ""))


#: What an operator candidate says of itself.
OPERATOR_DETAIL = "演算子"


def candidates(place: Place | None, folder: Folder) -> list[Candidate]:
    """The candidates of ``place``: its keywords, then what a name there may be; nothing
    where nothing is known (a comment, a string, a line with a syntax error)."""
    if place is None:
        return []
    # every journey item parses a 目標 line; only those with a measure take one (E058); a
    # 例's own subscript takes no keyword (以降 is a counter's)
    keywords = () if _example_subscript(place) is not None else place.keywords
    found = [_keyword(rule) for rule in keywords
             if rule != "target" or _item_of(place) in vocab.MEASURE_OF]
    if place.name is not None:
        found += NAMES[place.name](place, folder)
    found += [Candidate(op, "operator", OPERATOR_DETAIL) for op in place.operators]
    seen: set[str] = set()
    return [c for c in found if not (c.label in seen or seen.add(c.label))]


def completions(text: str, offset: int, result, pages: dict, enemies: dict) -> list[Candidate]:
    """The candidates at ``offset`` (code points) of the document ``text``: after an ``@``
    (and the start of a name), the flags the folder writes; elsewhere what the grammar
    lets stand there."""
    folder = Folder(result, pages, enemies)
    place = place_at(text, offset)
    if place is not None and FLAG_BEING_WRITTEN.search(text, 0, offset):
        return _flags(folder)
    return candidates(place, folder)
