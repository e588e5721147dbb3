"""修飾 — the keywords that follow a 作用's value (寿命, 毎, 範囲, 最大, 固定, 補正あり,
予告: the grammar's ``_tail``), and what is said of one written where the value stands
(``防御 += 寿命 ステージ``: the value left out). Apart from the parser, so that the
compiler's pass that resolves a value's names, which sees such a word as a name, says
the same without importing it (a cached lint imports no parser).
"""

from __future__ import annotations

from contract.vocabulary import KEYWORDS

__all__ = ["TAIL_RULES", "tail_keyword", "value_left_out"]


#: The keyword rules of the grammar's ``_tail``, in its order (a test holds them to it).
TAIL_RULES = ("life", "at", "until", "max", "fixed", "modified", "telegraphed")


def tail_keyword(word: str) -> str | None:
    """The rule of the tail keyword spelled ``word`` (either spelling), or None."""
    return next((rule for rule in TAIL_RULES if word in KEYWORDS[rule]), None)


def value_left_out(word: str, operator: str = "") -> str:
    """The hint for the tail keyword ``word`` written where a value stands: what it is and
    where the value goes — between ``operator`` and it when known. No example: one that
    lints depends on where it stands (a face needs 範囲 with 毎, a trait 毎, a reward a
    lifetime of its own), which is not known where this is said."""
    place = f"「{operator}」と「{word}」の間" if operator else f"「{word}」の前"
    return f"「{word}」は値の後に書く修飾です。値は{place}に書きます"
