"""修飾 — the keywords that follow a 作用's value (寿命, 毎, 範囲, 最大, 固定, 補正あり,
予告: the grammar's ``_tail``), and what is said of one written where the value stands
(``防御 += 寿命 ステージ``: the value left out). Apart from the parser, so that the
compiler's pass that resolves a value's names, which sees such a word as a name, says
the same without importing it (a cached lint imports no parser).
"""

from __future__ import annotations

from contract.vocabulary import KEYWORDS, W

__all__ = ["TAIL_RULES", "tail_keyword", "value_left_out"]


def _example(rule: str) -> str:
    """A 作用 with the tail keyword of ``rule`` after its value, as written in content (a
    page's face; 予告, an enemy's trait)."""
    return {
        "life": f"{W.variable.defense} += 4 {KEYWORDS['life'][0]} {W.lifetime.on_hit}",
        "at": (f"{W.variable.enemy_hp} -= 4 {KEYWORDS['at'][0]} {W.timing.on_hit} "
               f"{KEYWORDS['until'][0]} {W.scope.stage}"),
        "until": f"{W.variable.steps} += 4 {KEYWORDS['until'][0]} {W.scope.stage}",
        "max": (f"{W.variable.enemy_hp} -= 4 {KEYWORDS['at'][0]} {W.timing.on_hit} "
                f"{KEYWORDS['until'][0]} {W.scope.stage} {KEYWORDS['max'][0]} 2 "
                f"{KEYWORDS['times'][0]}"),
        "fixed": f"{W.variable.enemy_hp} -= 4 {KEYWORDS['fixed'][0]}",
        "modified": f"{W.variable.enemy_hp} -= 4 {KEYWORDS['modified'][0]}",
        "telegraphed": (f"{W.variable.seat} += 4 {KEYWORDS['at'][0]} {W.timing.turn_start} "
                        f"{KEYWORDS['telegraphed'][0]}"),
    }[rule]


#: The keyword rules of the grammar's ``_tail``, in its order (a test holds them to it).
TAIL_RULES = ("life", "at", "until", "max", "fixed", "modified", "telegraphed")


def tail_keyword(word: str) -> str | None:
    """The rule of the tail keyword spelled ``word`` (either spelling), or None."""
    return next((rule for rule in TAIL_RULES if word in KEYWORDS[rule]), None)


def value_left_out(word: str) -> str:
    """The hint for the tail keyword ``word`` written where a value stands: what it is,
    and an example of the language's (one that lints: the designer's own statement with a
    value put in may lack more — a 範囲, a lifetime its target takes — than is known
    where this is said)."""
    return (f"「{word}」は値の後に書く修飾です。値を書き、その後に「{word}」を続けます"
            f"（例: {_example(tail_keyword(word))}）")
