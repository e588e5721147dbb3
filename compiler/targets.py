"""目標の検査 — the balance a designer states on a page, an enemy or a 旅の準備
(``目標 勝率 40%〜70%``).

The measure must be the one of its kind of item (``vocabulary.MEASURE_OF``: 勝率 on an
enemy and on a 旅の準備, 勝率差 on a page), each bound a percentage that measure can take,
and the range written low to high. The result is the contract's ``BalanceTarget`` in
fractions (40% → 0.4), which the labs compare with what they measure (``jibunki sim
--check``, ``jibunki journey report --check``).
"""

from __future__ import annotations

import math

from dsl import ast
from dsl.diagnostics import Span

from contract import kinds
from contract import vocabulary as vocab
from contract.tables import BalanceTarget
from contract.vocabulary import W
from .codes import E033, E058, E059, E060, E061
from .names import resolve
from .values import Ctx

__all__ = ["check_target", "example"]

MEASURE_OF = vocab.MEASURE_OF
#: What each kind of item is called in messages: its keyword.
_ITEM_WORDS = {item: kinds.word(kinds.by_code(item)) for item in MEASURE_OF}
#: A generous example of each measure's 目標, for hints (a designer adjusts it after measuring).
_EXAMPLES = {"win_rate": (0.4, 0.7), "win_rate_delta": (-0.05, 0.05)}


def check_target(field: ast.Field | None, item: str, ctx: Ctx) -> BalanceTarget | None:
    """The checked 目標 of an ``item`` (a kind of MEASURE_OF: "enemy", "page", "setup");
    None when none is written, or after the diagnostics of a wrong one."""
    if field is None:
        return None
    if item not in MEASURE_OF:  # a journey item other than 旅の準備: the grammar takes it
        ctx.add(E058.at(field.span, f"{kinds.word(kinds.by_code(item))}に{W.target}は書けません",
                        hint=f"{W.target}を書けるのは " + "、".join(
                            f"{word}（{MEASURE_OF[i].ja}）" for i, word in _ITEM_WORDS.items())
                        + " です"))
        return None
    target: ast.BalanceTarget = field.value
    measure = resolve("measure", target.measure, ctx.diags)
    if measure is None:
        return None
    if measure is not MEASURE_OF[item]:
        ctx.add(E058.at(target.measure.span,
                        f"{_ITEM_WORDS[item]}の{W.target}に{measure.ja}は書けません",
                        hint=f"{E058.hint}。例: {example(MEASURE_OF[item])}"))
        return None
    low, high = (_fraction(bound, measure, ctx) for bound in (target.low, target.high))
    if low is None or high is None:
        return None
    if low > high:
        ctx.add(E060.at(_between(target.low.span, target.high.span),
                        f"{W.target}の範囲が逆です（{target.low.text} が {target.high.text} より大きい）",
                        hint=f"小さい方から書きます: {measure.said_range(high, low)}"))
        return None
    return BalanceTarget(low, high)


def example(measure: vocab.Measure) -> str:
    """A 目標 of ``measure`` as content writes it (「目標 勝率 40%〜70%」), for hints."""
    return measure.said_range(*_EXAMPLES[measure.code])


def _fraction(bound: ast.Percent, measure: vocab.Measure, ctx: Ctx) -> float | None:
    """One bound as a fraction (40% → 0.4), or None after its diagnostic."""
    if not math.isfinite(bound.value):
        ctx.add(E033.at(bound.span, f"数「{bound.text[:20]}」は大きすぎるか有限ではありません",
                        hint=f"{measure.ja}は {_extent(measure)} の値です"))
        return None
    if not bound.percent:
        ctx.add(E059.at(bound.span, f"{W.target}の値「{bound.text}」に % がありません",
                        hint=_percent_hint(bound, measure)))
        return None
    # Exact for what designers write: 40 / 100 is the float 0.4, -5 / 100 is -0.05.
    fraction = bound.value / 100
    if not measure.low <= fraction <= measure.high:
        ctx.add(E061.at(bound.span,
                        f"{measure.ja}は {_extent(measure)} の値です（{bound.text}）"))
        return None
    return fraction


def _percent_hint(bound: ast.Percent, measure: vocab.Measure) -> str:
    """How to write a bound given without %: a number within ±1 reads as a fraction
    written the way the tables hold it (0.4 → 40%), any other as meant in percent."""
    meant = bound.value * 100 if abs(bound.value) <= 1 and bound.value != 0 else bound.value
    return (f"{W.target}の値は % を付けたパーセントで書きます（割合 0.4 なら 40%）: "
            f"「{bound.text}」は {measure.percent(meant / 100)} と書きます")


def _extent(measure: vocab.Measure) -> str:
    """Every value ``measure`` can take, as content writes it (0%〜100%)."""
    return f"{measure.percent(measure.low)}〜{measure.percent(measure.high)}"


def _between(first: Span, last: Span) -> Span:
    """The span from the start of ``first`` to the end of ``last`` (a whole range)."""
    return Span(first.path, first.line, first.col, last.end_line, last.end_col)
