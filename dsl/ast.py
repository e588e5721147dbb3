"""構文木 — the AST: frozen dataclasses, each node with the span it came from.

The AST says what was written, not what it means: names stay as written (Japanese or
ASCII alias) and are resolved by the compiler. Optional parts are None or empty tuples.
``ParseResult`` is what parsing one file gives: its SourceFile, diagnostics and damage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .diagnostics import Diagnostic, Span


@dataclass(frozen=True, slots=True)
class Name:
    """A name as written (Japanese or ASCII alias), with its span; the compiler resolves it."""

    text: str
    span: Span


# -------------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Number:
    """A number literal: its value and the text it was written as."""

    value: int | float
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class Scope:
    """A scope subscript or repeat range: ``ターン``, or anchored ``以降 3 プレイ``."""

    name: Name
    anchor: Number | None
    span: Span


@dataclass(frozen=True, slots=True)
class Ref:
    """A read of a variable, counter, region, flag (``@name``), or ``name[sub]``."""

    name: Name
    subscript: Scope | None
    is_flag: bool
    span: Span


@dataclass(frozen=True, slots=True)
class BinOp:
    """An arithmetic expression ``left op right`` (``op`` normalised to + - * /)."""

    op: str  # "+", "-", "*", "/"
    left: "Expr"
    right: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Neg:
    """A negation, ``-operand``."""

    operand: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Abs:
    """An absolute value, ``|operand|``."""

    operand: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Compare:
    """A chain of comparisons ``a op b op c …``: one operator between each pair of operands."""

    operands: tuple["Expr", ...]
    ops: tuple[str, ...]  # normalised: ">=", "<=", "==", "!=", ">", "<"
    span: Span


Expr = Union[Number, Ref, BinOp, Neg, Abs, Compare]


@dataclass(frozen=True, slots=True)
class Range:
    """A range ``low..high`` (a 銘 filter, a 特性's argument)."""

    low: Expr
    high: Expr
    span: Span


# ---------------------------------------------------------------------- 作用


@dataclass(frozen=True, slots=True)
class Tail:
    """One optional term after a 作用: 寿命 / 毎 / 範囲 / 最大 / 固定 / 補正あり / 予告."""

    kind: str  # "life" | "at" | "until" | "max_fires" | "landing" | "telegraphed"
    value: Name | Scope | Number | None
    span: Span


@dataclass(frozen=True, slots=True)
class Target:
    """作用の対象 — the variable (or flag, ``@name``) a 作用 writes, with its optional subscript."""

    name: Name
    subscript: Scope | None
    is_flag: bool
    span: Span


@dataclass(frozen=True, slots=True)
class RegionExpr:
    """A region as written: one name, or parts joined with ``+`` (合算)."""

    parts: tuple[Name, ...]
    span: Span

    @property
    def text(self) -> str:
        """The region as one spelling, its parts joined with ``+`` as the vocabulary spells 合算."""
        return "+".join(p.text for p in self.parts)


@dataclass(frozen=True, slots=True)
class MoveOption:
    """Choice of page for region operations: a pick (``選択``/``ランダム``/``上から``),
    or a filter by 出自, 銘 range, or a page id."""

    kind: str  # "pick" | "origin" | "year" | "page"
    value: Name | Range
    span: Span


@dataclass(frozen=True, slots=True)
class Sayou:
    """作用 — one operation on one variable (or, for region operations, on pages).

    ``form`` is the syntactic form: numeric (``+= -= *= =``), cap, suppress, move,
    generate, duplicate, reveal, pay. ``op`` is the operator symbol for numeric and cap forms.
    """

    form: str
    target: Target | None
    op: str | None
    value: Expr | None
    count: Number | None
    source: RegionExpr | None
    dest: RegionExpr | None
    options: tuple[MoveOption, ...]
    tails: tuple[Tail, ...]
    span: Span


# ----------------------------------------------------------------------- pages


@dataclass(frozen=True, slots=True)
class Body:
    """A block of a face, pen upgrade, tear effect or reward: conditions and 作用."""

    conditions: tuple[Expr, ...]
    condition_spans: tuple[Span, ...]
    sayou: tuple[Sayou, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Face:
    """面 — a page's future or past face; ``body`` is None when the face is 白紙."""

    side: str  # "future" | "past"
    body: Body | None  # None: 白紙
    span: Span


@dataclass(frozen=True, slots=True)
class Pen:
    """ペン — what a pen writes into the page's face of ``side``."""

    side: str
    body: Body
    span: Span


@dataclass(frozen=True, slots=True)
class Tear:
    """破却 — the effect of tearing the page (破る)."""

    body: Body
    span: Span


@dataclass(frozen=True, slots=True)
class Percent:
    """A bound of a 目標 as written: the number with its sign, and whether a % follows it
    (the compiler says how to write a bound without one)."""

    value: int | float  # 40 for 40%, -5 for -5%
    text: str  # as written, sign and % included
    percent: bool
    span: Span


@dataclass(frozen=True, slots=True)
class BalanceTarget:
    """目標 — the balance the designer intends: a measure (勝率, 勝率差) as written, and the
    range it should lie in, ``low..high``."""

    measure: Name
    low: Percent
    high: Percent
    span: Span


@dataclass(frozen=True, slots=True)
class Field:
    """A keyed field (銘, 綻び倍率, HP, 座, 目標 …); ``key`` is the keyword's rule name."""

    key: str
    # a tuple: the conditions of 出現条件; a BalanceTarget: 目標
    value: Expr | Name | str | tuple[Expr, ...] | BalanceTarget
    span: Span


@dataclass(frozen=True, slots=True)
class Page:
    """ページ — a page: its id, optional title, keyed fields, faces, pens and tear effects."""

    id: Name
    title: str | None
    fields: tuple[Field, ...]
    faces: tuple[Face, ...]
    pens: tuple[Pen, ...]
    tears: tuple[Tear, ...]
    span: Span


# ---------------------------------------------------------------------- enemies


@dataclass(frozen=True, slots=True)
class Intent:
    """An Intent of a 予兆: an attack of ``amount``, or a 白紙化 of ``region``."""

    kind: Name
    amount: Number | None
    region: RegionExpr | None
    span: Span


@dataclass(frozen=True, slots=True)
class Escalation:
    """エスカレーション — every ``every`` turns, ``intent`` is added to the enemy's 予兆."""

    every: Number
    intent: Intent
    span: Span


@dataclass(frozen=True, slots=True)
class Trait:
    """特性 — an enemy trait by name, with its optional argument (a value or a range)."""

    name: Name
    arg: Expr | Range | None
    span: Span


@dataclass(frozen=True, slots=True)
class Enemy:
    """敵 — an enemy: its fields, 予兆 lines of Intents, escalations, traits, and the 作用
    lines of its 特性 block."""

    id: Name
    title: str | None
    fields: tuple[Field, ...]
    intents: tuple[tuple[Intent, ...], ...]  # one tuple per 予兆 line (normally one)
    intents_spans: tuple[Span, ...]
    escalations: tuple[Escalation, ...]
    traits: tuple[Trait, ...]
    trait_sayou: tuple[Sayou, ...]
    span: Span


# ------------------------------------------------------------------ balance, deck


@dataclass(frozen=True, slots=True)
class Setting:
    """A ``name value`` line: a balance setting, or one setting of an example's 開始 (its
    kind, such as 防御[ステージ], in ``subscript``)."""

    name: Name
    value: Expr | tuple[Name, ...]  # a tuple: a list of pages (開始 手札 [a, b])
    span: Span
    subscript: Name | None = None  # 開始 防御[ステージ] 10: which kind of the value


@dataclass(frozen=True, slots=True)
class Balance:
    """バランス — the balance item: its settings and its 綻び報酬 blocks."""

    title: str | None
    settings: tuple[Setting, ...]
    rewards: tuple[Body, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a デッキ: a page id and, when written, how many (``× n``)."""

    page: Name
    count: Number | None
    span: Span


@dataclass(frozen=True, slots=True)
class Deck:
    """デッキ — a named list of pages."""

    id: Name
    title: str | None
    entries: tuple[DeckEntry, ...]
    span: Span


# ------------------------------------------------------------------ 旅 (spec 004)


@dataclass(frozen=True, slots=True)
class Text:
    """A string written as a value (文 「…」): designer text, with its span."""

    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class ValueList:
    """A bracketed list of values ([月, 星, 花])."""

    values: tuple[Name | Number | Text | ValueList, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class JourneyField:
    """One line of a journey item: the field's name as written, then its values in order
    (Name, Number, Text or ValueList); the compiler resolves the name and checks the shape."""

    key: Name
    values: tuple[Name | Number | Text | ValueList, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class JourneyItem:
    """A journey item (spec 004): ロケーション, イベント, フラグ, アイテム, レター or 旅の準備
    (``kind`` is one of contract.vocabulary.JOURNEY_KINDS), its id, title and fields, and
    the 目標 lines written in it (``Field("target", BalanceTarget)``, as on a page; the
    compiler takes one, on a 旅の準備)."""

    kind: str
    id: Name
    title: str | None
    fields: tuple[JourneyField, ...]
    span: Span
    targets: tuple[Field, ...] = ()


Item = Union[Page, Enemy, Balance, Deck, JourneyItem]


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One parsed file: its path and its items, in order."""

    path: str
    items: tuple[Item | Example, ...]


# ------------------------------------------------------------------ examples


@dataclass(frozen=True, slots=True)
class Step:
    """One line of an example: an action, a developer-mode setup, or an expectation.

    ``refused`` is None when the action must be accepted, True when it must be refused,
    or the words the refusal's reason must contain.
    """

    kind: str  # "play" | "pen" | "tear" | "end" | "choose" | "set" | "expect"
    pages: tuple[Name, ...]
    side: str | None
    refused: str | bool | None
    checks: tuple[Expr, ...]
    settings: tuple[Setting, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Example:
    """例 — a scenario: which enemies, seed and deck, then steps in order. ``seed`` is the
    first シード written; ``seeds_again`` the later ones (E013: one seed is played)."""

    title: str | None
    enemies: tuple[Name, ...]
    seed: Number | None
    deck: tuple[Name, ...] | None
    steps: tuple[Step, ...]
    span: Span
    seeds_again: tuple[Number, ...] = ()


# ------------------------------------------------------------------ a parse


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What parsing one file gave (dsl.parser.parse, or the parse cache): its AST, its
    diagnostics, and the line ranges error recovery blanked (an item overlapping one is
    known to be incomplete)."""

    file: SourceFile
    diagnostics: tuple[Diagnostic, ...]
    damaged: tuple[tuple[int, int], ...]  # line ranges blanked by error recovery
