"""ルール文 — natural Japanese rules text generated from the compiled 作用.

Rules text can never drift from behaviour because it is made from the same tables the
runtime executes. Each term has its own phrasing rule (the tables below, one row per
reference class, base class, operation code and condition test); every term that is not
implied by the others appears in the text, so two 作用 that differ in any term never read
the same. Every word of the vocabulary — names and display phrases — comes from
``contract.vocabulary``, structural keywords included (``keyword``); what is written
here is only the glue between them.
"""

from __future__ import annotations

from functools import cache
from typing import Callable

from contract import vocabulary as vocab
from contract.tables import (Condition, Const, CounterRef, DistanceRef, Filter, FlagRef,
                             PageAttrRef, PageCountRef, RegionCountRef, Repeat, Sayou, Scaled,
                             TilesPassedRef, VariableRef)

__all__ = ["base_text", "body_lines", "condition_text", "number", "phrase", "ref_text",
           "scope_text", "term"]


@cache
def term(table: str, code: str) -> vocab.Term:
    """The vocabulary entry of ``code`` in ``table`` (the tables were checked against the
    vocabulary when they were loaded, so every code has one)."""
    entry = vocab.tables()[table].by_code(code)
    if entry is None:
        raise KeyError(f"{table} {code!r} is not in contract.vocabulary")
    return entry


def keyword(code: str) -> str:
    """The canonical (Japanese) spelling of a structural keyword (contract.vocabulary)."""
    return vocab.KEYWORDS[code][0]


def number(value) -> str:
    """A number as rules text prints it: a whole float without its ``.0`` (12.0 → 12),
    anything else as its repr."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def scope_text(scope: str, unit: str | None, n: int | None) -> str:
    """A scope as a reference's subscript: このターン, or 以降 2 プレイ."""
    if scope == vocab.ANCHORED:
        return vocab.ANCHORED_PHRASE.format(n=n, unit=term("anchor_unit", unit).ja)
    return term("scope", scope).said()


def _region(code: str) -> str:
    return term("region", code).ja


# ------------------------------------------------------------------ references
# One row per reference class of contract.tables.REFS (a test holds them equal).

REF_TEXT: dict[type, Callable] = {
    CounterRef: lambda r: f"{term('counter', r.counter).ja}［{scope_text(r.scope, r.unit, r.n)}］",
    VariableRef: lambda r: term("variable", r.variable).ja,
    FlagRef: lambda r: vocab.FLAG.said().format(flag=r.flag),
    RegionCountRef: lambda r: f"{_region(r.region)}の枚数",
    PageCountRef: lambda r: f"{_region(r.region)}にある「{r.page}」の枚数",
    PageAttrRef: lambda r: f"「{r.page}」の{term('variable', r.variable).ja}",
    DistanceRef: lambda r: term("variable", "distance").said(),
    TilesPassedRef: lambda r: f"{vocab.TILES_PASSED.ja}［{term('tile', r.tile).ja}］",
}

#: Base values and condition terms: a constant, or a reference (× a coefficient).
BASE_TEXT: dict[type, Callable] = {
    **REF_TEXT,
    Const: lambda b: number(b.value),
    Scaled: lambda b: ref_text(b.ref) if b.coef == 1 else f"{ref_text(b.ref)}×{number(b.coef)}",
}


def ref_text(ref, vocabulary=None) -> str:
    """A reference as the catalog prints it: 使用した歩［このプレイ］, 手札の枚数 …"""
    return REF_TEXT[type(ref)](ref)


def base_text(base, vocabulary=None) -> str:
    """A base value (or a condition term): 12, 使用した歩［このプレイ］×0.5; "" for none."""
    return "" if base is None else BASE_TEXT[type(base)](base)


# ------------------------------------------------------------------ operations
# One row per operation code of contract.vocabulary.OPERATIONS: what the 作用 does
# (target, operation, base, landing), given the effect and its base already phrased.


def _signed(effect: Sayou, base: str) -> str:
    sign = "−" if effect.direction == "decrease" else "+"
    return f"{effect.names.target}{sign}{base}"


def _add(effect: Sayou, base: str) -> str:
    # 敵HP -= 12 is 12 damage, and an increase of 敵HP a heal (DESIGN §6)
    if effect.target.code == "enemy_hp":
        said = (f"{effect.names.target}に {base} のダメージ" if effect.direction == "decrease"
                else f"{effect.names.target}を {base} 回復")
    else:
        said = _signed(effect, base)
    # The landing is said only for an add: every other numeric operation has one landing.
    landing = term("landing", effect.landing).said() if effect.landing else ""
    return said + (f"（{landing}）" if landing else "")


def _filter_text(flt: Filter | None) -> str:
    if flt is None:
        return ""
    parts = []
    if flt.origin is not None:
        parts.append(f"{keyword('origin')}「{flt.origin}」")
    if flt.year is not None:
        parts.append(f"{term('variable', 'year').ja} {flt.year[0]}〜{flt.year[1]}")
    if flt.page is not None:
        parts.append(f"「{flt.page}」")
    return "・".join(parts) + "の" if parts else ""


def _pick(effect: Sayou) -> str:
    return term("pick", effect.pick).said()


def _op(effect: Sayou) -> vocab.Operation:
    return term("operation", effect.op)


OPERATION_TEXT: dict[str, Callable[[Sayou, str], str]] = {
    "add": _add,
    "mul": lambda e, base: f"{e.names.target}×{base}",
    "assign": lambda e, base: f"{e.names.target}を {base} にする",
    "cap": _signed,
    "pay": lambda e, base: f"{e.names.target}を {base} {_op(e).symbol}",
    "suppress": lambda e, base: f"{e.names.target}を更新しない",
    # shown in order and left so: the next draws take them as shown (spec 002)
    "reveal": lambda e, base: (f"{_region(e.source)}の{_pick(e)} {e.count} 枚を"
                               f"{_op(e).ja}する（その順に引く）"),
    "move": lambda e, base: (f"{_region(e.source)}から{_filter_text(e.filter)}{e.count}枚を"
                             f"{_pick(e)}{_region(e.dest)}へ移す"),
    "generate": lambda e, base: (f"{_filter_text(e.filter) or 'いずれかの'}{vocab.PAGES.ja}を"
                                 f"{e.count}枚、{_pick(e)}{_op(e).ja}して{_region(e.dest)}へ"),
    "duplicate": lambda e, base: (f"{_region(e.source)}の{_filter_text(e.filter)}{e.count}枚を"
                                  f"{_pick(e)}{_op(e).ja}して{_region(e.dest)}へ"),
}

#: Operations whose lifetime is that of the pages they make, not of a value.
PAGE_MAKING = frozenset({"generate", "duplicate"})


# ---------------------------------------------------------------------- 作用


def _repeat_text(repeat: Repeat) -> str:
    if repeat.scope == vocab.ANCHORED:
        said = scope_text(repeat.scope, repeat.unit, repeat.n) + "の間"
    else:
        said = term("scope", repeat.scope).during
    if repeat.max is not None:
        said += f"（{vocab.MAX_FIRES_PHRASE.format(max=repeat.max)}）"
    return said


def _lifetime_text(effect: Sayou) -> str:
    if effect.op in PAGE_MAKING:
        return vocab.GENERATED_LIFETIME_PHRASES[effect.lifetime]
    return term("lifetime", effect.lifetime).said() if effect.lifetime else ""


def phrase(effect: Sayou, vocabulary=None, *, default_timing: str = "on_play") -> str:
    """One 作用 as one sentence, e.g. 「ステージ中、毎ターン開始時に 防御+5（ターン終了まで）」.

    ``default_timing`` is the timing a one-shot 作用 has where it is written (破った時 in a
    破却 block): it goes without saying. ``vocabulary`` (the tables' VocabularyTable) is
    accepted for callers that pass it; the words come from contract.vocabulary, which
    that table is generated from.
    """
    repeat = effect.repeat
    one_shot = repeat.scope == "play" and repeat.max == 1 and repeat.n is None
    head = "" if one_shot else _repeat_text(repeat) + "、"
    timing = term("timing", effect.timing)
    if timing.family == "always":
        head += f"{timing.said()} "
    elif not one_shot or effect.timing != default_timing:
        head += f"{'' if one_shot else keyword('at')}{timing.said()}に "
    text = head + OPERATION_TEXT[effect.op](effect, base_text(effect.base))
    tail = [_lifetime_text(effect), keyword("telegraphed") + "あり" if effect.telegraphed else ""]
    tail = [said for said in tail if said]
    return text + (f"（{'、'.join(tail)}）" if tail else "")


# ------------------------------------------------------------------ conditions


def _chain(cond: Condition) -> str:
    out = [base_text(cond.terms[0])]
    for op, item in zip(cond.ops, cond.terms[1:]):
        out += [vocab.COMPARISONS[op], base_text(item)]
    return " ".join(out)


#: One row per condition test of contract.vocabulary.CONDITION_TESTS.
CONDITION_TEXT: dict[str, Callable[[Condition], str]] = {
    "compare": _chain,
    "nonzero": lambda c: f"{base_text(c.terms[0])} が 0 でない",
    "crosses": lambda c: term("condition_word", "crosses").said(),
    "not_crosses": lambda c: term("condition_word", "not_crosses").said(),
}


def condition_text(cond: Condition, vocabulary=None) -> str:
    """A play (or appearance) condition: 歩 ≥ 10, このプレイで座を跨ぐ …"""
    return CONDITION_TEXT[cond.test](cond)


def body_lines(body, vocabulary=None, default_timing: str = "on_play") -> list[str]:
    """A face (or pen, tear) as lines: its conditions first, then one line per 作用.

    ``body`` is a Face, a Body (anything with ``conditions`` and ``effects``) or None;
    None and a face that is not written read as the keyword for a blank face.
    """
    if body is None or getattr(body, "written", True) is False:
        return [keyword("blank")]
    lines = []
    if body.conditions:
        lines.append(keyword("cond") + ": " + "、".join(condition_text(c) for c in body.conditions))
    lines += [phrase(e, default_timing=default_timing) for e in body.effects]
    return lines
