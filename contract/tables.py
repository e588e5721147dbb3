"""表の契約 — what the compiled tables hold, as frozen classes (one per representation).

The compiler builds these objects from checked content and writes their literals
(``to_literal``) into generated/; the runtime reads the literals back (``from_literal``),
checked all the way down. ``schemas/*.schema.json`` are generated from these classes for
game clients (``jibunki compile --check`` fails when they are stale). A 作用 is one
``Sayou``; what it reads is one reference class per kind (``REFS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass
from typing import Annotated, ClassVar, Union

from . import vocabulary as vocab
from .codec import Bound, Length, codes, from_literal, to_literal
from .journey import Event as JourneyEvent, Flag, Item, Letter, Location, Setup
from .target import BalanceTarget
from .vocabulary import W

#: Bump when the shape of a table changes; the runtime refuses other versions.
#: 3: one convention for codes, English (age, year, seat, steps, fray …); 4: 目標 (``target``)
#: on pages and enemies; 5: 目標 on 旅の準備 (``Setup.target``).
SCHEMA_VERSION = 5

Count = Annotated[int, Bound(1)]
NonNegative = Annotated[int, Bound(0)]
Year = Annotated[int, Bound(0, vocab.YEAR_BOUND)]
Id = Annotated[str, Length(1)]

Variable = codes("variable", lambda: tuple(v.code for v in vocab.VARIABLES))
Counter = codes("counter", lambda: tuple(c.code for c in vocab.COUNTERS))
Scope = codes("scope", lambda: (*vocab.SCOPE_ORDER, vocab.ANCHORED))
AnchorUnit = codes("anchor_unit", lambda: tuple(u.code for u in vocab.ANCHOR_UNITS))
Region = codes("region", lambda: tuple(r.code for r in vocab.REGIONS))
Tile = codes("tile", lambda: tuple(t.code for t in vocab.TILE_KINDS))
Operation = codes("operation", lambda: tuple(o.code for o in vocab.OPERATIONS))
Direction = codes("direction", lambda: vocab.DIRECTIONS)
Landing = codes("landing", lambda: tuple(l.code for l in vocab.LANDINGS))
Lifetime = codes("lifetime", lambda: tuple(l.code for l in vocab.LIFETIMES))
Timing = codes("timing", lambda: tuple(t.code for t in vocab.TIMINGS))
Pick = codes("pick", lambda: tuple(p.code for p in vocab.PICKS))
TargetCode = codes("target", lambda: (*(v.code for v in vocab.VARIABLES), "flag", "pages"))
ConditionKind = codes("condition_kind",
                      lambda: (*(c.code for c in vocab.CONDITION_KINDS), "appearance"))
ConditionTest = codes("condition_test", lambda: vocab.CONDITION_TESTS)
Comparison = codes("comparison", lambda: tuple(vocab.COMPARISONS))
Destination = codes("destination", lambda: tuple(d.code for d in vocab.DESTINATIONS))
IntentKind = codes("intent", lambda: tuple(i.code for i in vocab.INTENT_KINDS))
TraitCode = codes("trait", lambda: tuple(t.code for t in vocab.TRAITS))
GeneratedLifetime = codes("generated_lifetime", lambda: vocab.GENERATED_LIFETIMES)
Side = codes("side", lambda: tuple(f.code for f in vocab.FACES))


# ------------------------------------------------------------------ references
# One class per kind of quantity a value or a condition reads (spec 002 参照式).


class _Ref:
    TAG: ClassVar[str] = "kind"


@dataclass(frozen=True, slots=True)
class CounterRef(_Ref):
    """累計量[scope]: a cumulative quantity over a scope, or anchored 以降 n プレイ/ターン."""

    KIND: ClassVar[str] = "counter"
    counter: Counter
    scope: Scope
    unit: AnchorUnit | None
    n: Count | None


@dataclass(frozen=True, slots=True)
class VariableRef(_Ref):
    """A current value, parameter or derived value (刻, 歩, 手札上限, 距離 …)."""

    KIND: ClassVar[str] = "variable"
    variable: Variable


@dataclass(frozen=True, slots=True)
class FlagRef(_Ref):
    """内部フラグ @name."""

    KIND: ClassVar[str] = "flag"
    flag: Id


@dataclass(frozen=True, slots=True)
class RegionCountRef(_Ref):
    """How many pages a region (or combined region) holds."""

    KIND: ClassVar[str] = "region_count"
    region: Region


@dataclass(frozen=True, slots=True)
class PageCountRef(_Ref):
    """How many copies of one page a region holds (手札[p], 山札+捨て札[p])."""

    KIND: ClassVar[str] = "page_count"
    region: Region
    page: str


@dataclass(frozen=True, slots=True)
class PageAttrRef(_Ref):
    """Another page's variable (銘[p])."""

    KIND: ClassVar[str] = "page_attr"
    variable: Variable
    page: str


@dataclass(frozen=True, slots=True)
class DistanceRef(_Ref):
    """|銘 − 刻| of this play, before 刻 moves."""

    KIND: ClassVar[str] = "distance"


@dataclass(frozen=True, slots=True)
class TilesPassedRef(_Ref):
    """通過したマス[種別]: read by appearance conditions (the map is outside the battle)."""

    KIND: ClassVar[str] = "tiles_passed"
    tile: Tile


#: Every reference kind, in the order the language documents them.
REFS = (CounterRef, VariableRef, FlagRef, RegionCountRef, PageCountRef, PageAttrRef,
        DistanceRef, TilesPassedRef)
Ref = Union[CounterRef, VariableRef, FlagRef, RegionCountRef, PageCountRef, PageAttrRef,
            DistanceRef, TilesPassedRef]


# ------------------------------------------------------------------ base values


@dataclass(frozen=True, slots=True)
class Const:
    """A constant base value (or condition term)."""

    TAG: ClassVar[str] = "kind"
    KIND: ClassVar[str] = "const"
    value: float


@dataclass(frozen=True, slots=True)
class Scaled:
    """基準値 = reference × coefficient."""

    TAG: ClassVar[str] = "kind"
    KIND: ClassVar[str] = "ref"
    ref: Ref
    coef: float


Base = Union[Const, Scaled]
Term = Union[Const, CounterRef, VariableRef, FlagRef, RegionCountRef, PageCountRef,
             PageAttrRef, DistanceRef, TilesPassedRef]


# ---------------------------------------------------------------------- 作用


@dataclass(frozen=True, slots=True)
class Target:
    """対象変数: a variable code; ``flag`` for @name, ``page`` for 銘[page]; ``pages`` for
    region operations."""

    OMIT_NONE: ClassVar[tuple] = ("flag", "page")
    code: TargetCode
    flag: str | None = None
    page: str | None = None


@dataclass(frozen=True, slots=True)
class Repeat:
    """繰り返し範囲: the end scope (or anchored n plays/turns) and the maximum fire count."""

    scope: Scope
    unit: AnchorUnit | None
    n: Count | None
    max: Count | None


@dataclass(frozen=True, slots=True)
class Filter:
    """What a region operation may pick: 出自, a 銘 range, one page."""

    OMIT_NONE: ClassVar[tuple] = ("origin", "year", "page")
    origin: str | None = None
    year: Annotated[list[Year], Length(2, 2)] | None = None
    page: str | None = None


@dataclass(frozen=True, slots=True)
class Names:
    """Display words of a 作用 for events and the terminal (from the vocabulary)."""

    target: str
    repeat: str


@dataclass(frozen=True, slots=True)
class Sayou:
    """作用: one operation on one variable, with all six terms explicit (spec 002), plus
    what a region operation needs (source, destination, count, pick, filter)."""

    op: Operation
    direction: Direction | None
    landing: Landing | None
    target: Target
    base: Base | None
    lifetime: Lifetime | None
    timing: Timing
    repeat: Repeat
    telegraphed: bool
    source: Region | None
    dest: Region | None
    count: Count | None
    pick: Pick | None
    filter: Filter | None
    line: Count
    names: Names


# ----------------------------------------------------------- conditions, faces


@dataclass(frozen=True, slots=True)
class Condition:
    """プレイ条件 (or 出現条件): terms compared in a chain, or a word (跨ぐ, 跨がない)."""

    kind: ConditionKind
    test: ConditionTest
    terms: list[Term]
    ops: list[Comparison]


@dataclass(frozen=True, slots=True)
class Body:
    """A 作用 list with its play conditions (a pen upgrade, a reward)."""

    conditions: list[Condition]
    effects: list[Sayou]


@dataclass(frozen=True, slots=True)
class Face:
    """未来面 or 過去面 as dealt: written (with conditions and 作用列) or blank."""

    written: bool
    conditions: list[Condition]
    effects: list[Sayou]


@dataclass(frozen=True, slots=True)
class Source:
    """Where an item was written (for the catalog and the editor)."""

    path: str
    line: Count
    end_line: Count
    text: str


#: The fields of a table's literal that say where a thing was written, not what it does:
#: a page's or an enemy's ``source`` (a ``Source``) and a 作用's ``line``.
PLACES = {"source": dict, "line": int}


def placeless(literal):
    """``literal`` without where it was written (``PLACES``), at every depth: what the rules
    read — for the keys that say whether a battle must be played again (sim/cache.py) and
    the digests that tell a save's loader what changed (runtime/save.py): a comment or a
    moved line changes neither. A 作用's own ``source`` (the region a 移動 takes from: a
    code, not a ``Source``) is a rule's and stays."""
    if isinstance(literal, dict):
        return {key: placeless(value) for key, value in literal.items()
                if not (key in PLACES and isinstance(value, PLACES[key]))}
    if isinstance(literal, list):
        return [placeless(value) for value in literal]
    return literal


@dataclass(frozen=True, slots=True)
class Page:
    """ページ: its variables, both faces, the pen upgrade of each face, its 破却 effects.

    ``target`` is its 目標 (勝率差), None when the designer states none (then the literal
    leaves it out)."""

    OMIT_NONE: ClassVar[tuple] = ("target",)

    id: Id
    name: str
    year: Year
    fray_mul: Annotated[float, Bound(0, vocab.FRAY_MUL_BOUND)]
    origin: str | None
    after_play: Destination
    deck_cap: Count
    appears: list[Condition]
    flavor: str
    faces: dict[Side, Face]
    pens: dict[Side, Body | None]
    tear: list[Sayou] | None
    source: Source
    target: BalanceTarget | None = None


# --------------------------------------------------------------------- enemies


@dataclass(frozen=True, slots=True)
class Intent:
    """One Intent: 攻撃 n, or 白紙化 of a region."""

    kind: IntentKind
    amount: NonNegative | None
    region: Region | None


@dataclass(frozen=True, slots=True)
class Escalation:
    """Every ``every`` turns, ``intent`` joins the list."""

    every: Count
    intent: Intent


@dataclass(frozen=True, slots=True)
class Trait:
    """特性 that is not a 作用 line: 不動, 加速 n, 軽減 n, 封鎖 low..high."""

    trait: TraitCode
    value: int | None
    low: int | None
    high: int | None


@dataclass(frozen=True, slots=True)
class Enemy:
    """敵: HP, 座, 突破ライン, the Intent list, escalation, traits and trait 作用.

    ``target`` is its 目標 (勝率), None when the designer states none (then the literal
    leaves it out)."""

    OMIT_NONE: ClassVar[tuple] = ("target",)

    id: Id
    name: str
    hp: Count
    seat: NonNegative
    breakthrough: Count
    intents: Annotated[list[Intent], Length(1)]
    escalations: list[Escalation]
    traits: list[Trait]
    trait_effects: list[Sayou]
    flavor: str
    source: Source
    target: BalanceTarget | None = None


# ---------------------------------------------------------------- balance, decks


def _balance_class():
    """バランス: one field per balance number of the vocabulary, the 綻び reward, and each
    page key (基準ページ: a page id, None — left out of the literal — when not named)."""
    numbers = [(key.code, float if key.type == "float" else int) for key in vocab.number_keys()]
    pages = [(key.code, str | None, field(default=None))
             for key in vocab.BALANCE_KEYS if key.type == "page"]
    cls = make_dataclass("Balance", [*numbers, ("reward", list[Sayou]), *pages], frozen=True,
                         slots=True, namespace={"__module__": __name__,
                                                "OMIT_NONE": tuple(p[0] for p in pages)})
    cls.__doc__ = (f"バランス: every number the rules read, the {W.variable.fray} reward's 作用, "
                   "and the page the balance lab swaps each page for "
                   f"({W.balance.reference}, or None).")
    return cls


Balance = _balance_class()


@dataclass(frozen=True, slots=True)
class Deck:
    """デッキ: page ids, one per copy."""

    id: Id
    name: str
    pages: Annotated[list[str], Length(1)]


# -------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class PagesTable:
    """generated/pages.py"""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    pages: dict[str, Page]


@dataclass(frozen=True, slots=True)
class EnemiesTable:
    """generated/enemies.py"""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    enemies: dict[str, Enemy]


@dataclass(frozen=True, slots=True)
class BalanceTable:
    """generated/balance.py"""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    balance: Balance


@dataclass(frozen=True, slots=True)
class DecksTable:
    """generated/decks.py"""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    starting_deck: str
    decks: dict[str, Deck]


@dataclass(frozen=True, slots=True)
class JourneyTable:
    """generated/journey.py — draft 17's content (spec 004; contract.journey)."""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    locations: dict[str, Location]
    events: dict[str, JourneyEvent]
    flags: dict[str, Flag]
    items: dict[str, Item]
    letters: dict[str, Letter]
    setups: dict[str, Setup]


# ------------------------------------------------------------ the vocabulary table
# What a game client reads of the vocabulary: codes with their Japanese names.


@dataclass(frozen=True, slots=True)
class TimingEntry:
    """A timing: its name, its family, and its place in the turn."""

    name: str
    family: str
    order: NonNegative


@dataclass(frozen=True, slots=True)
class RegionEntry:
    """A 領域: its name, and the single regions it sums (one for a plain region; 合算 several)."""

    name: str
    parts: list[str]


@dataclass(frozen=True, slots=True)
class CounterEntry:
    """A counter: its name, its log kind, and its ●/○/× cells by scope."""

    name: str
    log: str
    cells: str


@dataclass(frozen=True, slots=True)
class VariableEntry:
    """A variable (変数): its name, its kind, and what a 補正変数 modifies and how (add or mul)."""

    name: str
    kind: str
    modifier_of: str | None
    modifier_kind: str | None


@dataclass(frozen=True, slots=True)
class FamilyEntry:
    """An 演算: its name and its family (numeric, setting, parameter, control, region, payment)."""

    name: str
    family: str


@dataclass(frozen=True, slots=True)
class TraitEntry:
    """An enemy's 特性: its name and the argument it takes (none, int or range)."""

    name: str
    arg: str


@dataclass(frozen=True, slots=True)
class VocabularyTable:
    """generated/vocabulary.py"""

    schema_version: Annotated[int, Bound(SCHEMA_VERSION, SCHEMA_VERSION)]
    scopes: list[Scope]
    lifetimes: list[Lifetime]
    timings: dict[Timing, TimingEntry]
    regions: dict[Region, RegionEntry]
    destinations: dict[Destination, str]
    counters: dict[Counter, CounterEntry]
    variables: dict[Variable, VariableEntry]
    operations: dict[Operation, FamilyEntry]
    intents: dict[IntentKind, str]
    traits: dict[TraitCode, TraitEntry]
    picks: dict[Pick, str]


def vocabulary_table() -> VocabularyTable:
    """The vocabulary table, from contract.vocabulary (the order of the timings within a
    turn is kept in ``order``: tables are written with sorted keys)."""
    v = vocab
    return VocabularyTable(
        SCHEMA_VERSION, list(v.SCOPE_ORDER), [t.code for t in v.LIFETIMES],
        {t.code: TimingEntry(t.ja, t.family, i) for i, t in enumerate(v.TIMINGS)},
        {r.code: RegionEntry(r.ja, list(r.parts)) for r in v.REGIONS},
        {d.code: d.ja for d in v.DESTINATIONS},
        {c.code: CounterEntry(c.ja, c.log, c.cells) for c in v.COUNTERS},
        {x.code: VariableEntry(x.ja, x.kind, x.modifier_of, x.modifier_kind)
         for x in v.VARIABLES},
        {o.code: FamilyEntry(o.ja, o.family) for o in v.OPERATIONS},
        {i.code: i.ja for i in v.INTENT_KINDS},
        {t.code: TraitEntry(t.ja, t.arg) for t in v.TRAITS},
        {p.code: p.ja for p in v.PICKS})


#: Table name → its class (the files of generated/, in writing order).
TABLES = {"pages": PagesTable, "enemies": EnemiesTable, "balance": BalanceTable,
          "decks": DecksTable, "vocabulary": VocabularyTable, "journey": JourneyTable}

__all__ = ["SCHEMA_VERSION", "REFS", "TABLES", "Balance", "BalanceTarget", "Body", "Condition", "Const",
           "CounterRef", "Deck", "DistanceRef", "Enemy", "Escalation", "Face", "Filter",
           "FlagRef", "Intent", "Names", "Page", "PageAttrRef", "PageCountRef",
           "RegionCountRef", "Repeat", "Sayou", "Scaled", "Source", "Target",
           "TilesPassedRef", "Trait", "VariableRef", "from_literal", "placeless", "to_literal"]
