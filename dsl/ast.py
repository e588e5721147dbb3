"""構文木 — the AST: frozen dataclasses, each node with the span it came from.

The AST says what was written, not what it means: names stay as written (Japanese or
ASCII alias) and are resolved by the compiler. Optional parts are None or empty tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .diagnostics import Span


@dataclass(frozen=True)
class Name:
    text: str
    span: Span


# -------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Number:
    value: int | float
    text: str
    span: Span


@dataclass(frozen=True)
class Scope:
    """A scope subscript or repeat range: ``ターン``, or anchored ``以降 3 プレイ``."""

    name: Name
    anchor: Number | None
    span: Span


@dataclass(frozen=True)
class Ref:
    """A read of a variable, counter, region, flag (``@name``), or ``name[sub]``."""

    name: Name
    subscript: Scope | None
    is_flag: bool
    span: Span


@dataclass(frozen=True)
class BinOp:
    op: str  # "+", "-", "*", "/"
    left: "Expr"
    right: "Expr"
    span: Span


@dataclass(frozen=True)
class Neg:
    operand: "Expr"
    span: Span


@dataclass(frozen=True)
class Abs:
    operand: "Expr"
    span: Span


@dataclass(frozen=True)
class Compare:
    operands: tuple["Expr", ...]
    ops: tuple[str, ...]  # normalised: ">=", "<=", "==", "!=", ">", "<"
    span: Span


Expr = Union[Number, Ref, BinOp, Neg, Abs, Compare]


@dataclass(frozen=True)
class Range:
    low: Expr
    high: Expr
    span: Span


# ---------------------------------------------------------------------- 作用


@dataclass(frozen=True)
class Tail:
    """One optional term after a 作用: 寿命 / 毎 / 範囲 / 最大 / 固定 / 補正あり / 予告."""

    kind: str  # "life" | "at" | "until" | "max_fires" | "landing" | "telegraphed"
    value: Name | Scope | Number | None
    span: Span


@dataclass(frozen=True)
class Target:
    name: Name
    subscript: Scope | None
    is_flag: bool
    span: Span


@dataclass(frozen=True)
class RegionExpr:
    """A region as written: one name, or parts joined with ``+`` (合算)."""

    parts: tuple[Name, ...]
    span: Span

    @property
    def text(self) -> str:
        return "+".join(p.text for p in self.parts)


@dataclass(frozen=True)
class MoveOption:
    """Choice of page for region operations: a pick (``選択``/``ランダム``/``上から``),
    or a filter by 出自, 銘 range, or a page id."""

    kind: str  # "pick" | "origin" | "year" | "page"
    value: Name | Range
    span: Span


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Body:
    """A block of a face, pen upgrade, tear effect or reward: conditions and 作用."""

    conditions: tuple[Expr, ...]
    condition_spans: tuple[Span, ...]
    sayou: tuple[Sayou, ...]
    span: Span


@dataclass(frozen=True)
class Face:
    side: str  # "future" | "past"
    body: Body | None  # None: 白紙
    span: Span


@dataclass(frozen=True)
class Pen:
    side: str
    body: Body
    span: Span


@dataclass(frozen=True)
class Tear:
    body: Body
    span: Span


@dataclass(frozen=True)
class Field:
    """A keyed field (銘, 綻び倍率, HP, 座 …); ``key`` is the keyword's rule name."""

    key: str
    value: Expr | Name | str | tuple
    span: Span


@dataclass(frozen=True)
class Page:
    id: Name
    title: str | None
    fields: tuple[Field, ...]
    faces: tuple[Face, ...]
    pens: tuple[Pen, ...]
    tears: tuple[Tear, ...]
    span: Span


# ---------------------------------------------------------------------- enemies


@dataclass(frozen=True)
class Intent:
    kind: Name
    amount: Number | None
    region: RegionExpr | None
    span: Span


@dataclass(frozen=True)
class Escalation:
    every: Number
    intent: Intent
    span: Span


@dataclass(frozen=True)
class Trait:
    name: Name
    arg: Expr | Range | None
    span: Span


@dataclass(frozen=True)
class Enemy:
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


@dataclass(frozen=True)
class Setting:
    name: Name
    value: Expr
    span: Span
    subscript: Name | None = None  # 開始 防御[ステージ] 10: which kind of the value


@dataclass(frozen=True)
class Balance:
    title: str | None
    settings: tuple[Setting, ...]
    rewards: tuple[Body, ...]
    span: Span


@dataclass(frozen=True)
class DeckEntry:
    page: Name
    count: Number | None
    span: Span


@dataclass(frozen=True)
class Deck:
    id: Name
    title: str | None
    entries: tuple[DeckEntry, ...]
    span: Span


Item = Union[Page, Enemy, Balance, Deck]


@dataclass(frozen=True)
class SourceFile:
    path: str
    items: tuple[Item, ...]


# ------------------------------------------------------------------ examples


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Example:
    """例 — a scenario: which enemies, seed and deck, then steps in order."""

    title: str | None
    enemies: tuple[Name, ...]
    seed: Number | None
    deck: tuple[Name, ...] | None
    steps: tuple[Step, ...]
    span: Span
