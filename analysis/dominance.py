"""ほかのページに劣るページ (W010) — two pages alike in everything but their numbers, one
no better anywhere and worse somewhere.

Two pages are compared when they have the same 銘, the same 行き先 and 綻び倍率, the same
出自 and 出現条件 (where a page can be had), and the same shape: each face written or
blank alike, each pen and the 破却 present alike, and every 作用 and condition alike but
for its numbers (the same operation, direction, target, landing, lifetime, timing, range,
regions, pick and filter; a condition of the same kind comparing the same quantities the
same way). Every number of the two is then compared in the direction that is better for
the player (``SIGN``):

- a 作用's base value (or coefficient): a target's ``TARGET_SIGN`` (+1: more is better —
  防御, 歩, 通貨, 攻撃力補正, a raised parameter …; −1: more is worse — 敵HP, 支払い倍率),
  times −1 for a decrease (``敵HP -= 12``: more damage is better); a payment is worse the
  more it takes; a region operation's counts and anything else must be equal (0);
- its ``最大 n 回`` and ``以降 n``: as its base value (more firings of a good 作用);
- a condition's constant: a lower bound (``刻 >= 30``) is worse the higher it is, an upper
  bound better; an ``==`` must be equal;
- the page's 上限枚数: more copies a deck may hold is better.

The page that is no better in any number and worse in one is reported on its head line,
naming the page that dominates it: a table of numbers cannot see every interaction (a
weaker page can be the better one in a deck), so the hint asks to check by hand.
"""

from __future__ import annotations

from collections import Counter

from contract import vocabulary as vocab
from contract.tables import Const, Scaled
from contract.vocabulary import W

from . import quantities as q
from .content import Content
from .findings import Finding

#: The hint: the first number to raise (or lower) to the better page's, or tell the two
#: pages apart — and leave the weaker one on purpose (a deck can want it).
HINT = ("{what} を {better} と同じか、{way}すれば劣らなくなります。役割を分けるなら作用か条件を"
        "変えてください（デッキでの組み合わせのためにわざと弱くしたのなら、そのままで構いません）")
#: A number's sign → which way of it is better for the player.
BETTER_WAY = {1: "それより大きく", -1: "それより小さく"}
#: Where a number is written, by the part of the page that holds it.
FACE_WORDS = {face.code: face.ja for face in vocab.FACES}

#: Target code → +1 when more of it is better for the player, −1 when worse (absent: 0).
TARGET_SIGN = {
    "enemy_hp": -1, "defense": 1, "steps": 1, "currency": 1, "hp": 1, "attack_add": 1,
    "attack_mul": 1, "brand": 1, "defense_add": 1, "payment_mul": -1,
    **{v.code: 1 for v in vocab.VARIABLES if v.kind == "param"},
}
#: Operation → the sign of its base value, from the target's sign and the direction.
SIGN = {
    "add": lambda e: TARGET_SIGN.get(e.target.code, 0) * (-1 if e.direction == "decrease" else 1),
    "cap": lambda e: TARGET_SIGN.get(e.target.code, 0) * (-1 if e.direction == "decrease" else 1),
    "mul": lambda e: TARGET_SIGN.get(e.target.code, 0),
    "pay": lambda e: -1,
}
#: A condition constant's neighbouring comparison → its sign: (constant on the right of
#: the operator, constant on its left).
BOUND_SIGN = {">=": (-1, 1), ">": (-1, 1), "<=": (1, -1), "<": (1, -1), "==": (0, 0),
              "!=": (0, 0)}


def findings(content: Content) -> list[Finding]:
    """Every page another page dominates (W010), in page order."""
    # Only pages of one shape are compared: grouped once, in page order, rather than every
    # page against every other (10,000 pages: 10⁸ comparisons of shapes). A first walk
    # counts the shapes' hashes alone, so that the profiles kept are those of the pages
    # that share one (a shape takes some kilobytes: the whole pool's would be the
    # compile's peak memory).
    hashes = {pid: hash(_profile(page)[0]) for pid, page in content.pages.items()}
    shared = Counter(hashes.values())
    alike: dict = {}
    for pid, page in content.pages.items():
        if shared[hashes[pid]] > 1:  # only these are profiled again, and kept
            shape, numbers = _profile(page)
            alike.setdefault(shape, []).append((pid, numbers))
    # page → (its numbers, the pages of its shape), for the pages that share a shape
    compared = {pid: (numbers, group) for group in alike.values() if len(group) > 1
                for pid, numbers in group}
    found = []
    for pid, page in content.pages.items():
        numbers, group = compared.get(pid, (None, ()))
        for other, other_numbers in group:
            if other == pid:
                continue
            worse = _worse(numbers, other_numbers)
            if worse:
                better = content.pages[other]
                said = "、".join(text for text, _ in worse)
                what, sign, value = worse[0][1]
                hint = HINT.format(what=what, better=f"{better.id} の {value:g}",
                                   way=BETTER_WAY[sign])
                found.append(Finding(
                    "W010", "page", pid, page.source.line,
                    f"同じ{W.variable.year} {page.year}・同じ形の {better.id}「{better.name}」に比べて、どの数値も"
                    f"上回らず、{said}で劣ります", hint,
                    {"by": other, "worse": [text for text, _ in worse]}))
                break
    return found


def _worse(mine: list, theirs: list) -> list[tuple[str, tuple]]:
    """The numbers where ``mine`` is worse, when none is better and every unsigned one is
    equal, each said and as (what, sign, the other's value); else []."""
    worse = []
    for (sign, a, what), (_, b, _) in zip(mine, theirs):
        if sign == 0:
            if a != b:
                return []
        elif sign * (a - b) > 0:
            return []
        elif a != b:
            worse.append((f"{what} {a:g}（相手は {b:g}）", (what, sign, b)))
    return worse


def _profile(page) -> tuple[tuple, list]:
    """The page's shape (hashable) and its numbers: (sign, value, what it is) each."""
    numbers: list = []
    # where the page can be had is part of its shape: its 出自 (what 出自 filters pick)
    # and its 出現条件; how many copies a deck may hold is a number, more being better
    shape = [page.year, page.after_play, ("fray_mul", page.fray_mul), ("origin", page.origin),
             ("appears", page.appears)]
    numbers.append((1, page.deck_cap, vocab.KEYWORDS["deck_cap"][0]))
    pen, tear = vocab.KEYWORDS["pen"][0], vocab.KEYWORDS["tear"][0]
    for side, face in page.faces.items():
        shape.append((side, face.written, _body(face.conditions, face.effects, numbers,
                                                f"{FACE_WORDS[side]}の")))
    for side, written in page.pens.items():
        shape.append(("pen", side, None if written is None else
                      _body(written.conditions, written.effects, numbers,
                            f"{pen} {FACE_WORDS[side]}の")))
    shape.append(("tear", None if page.tear is None else
                  _body([], page.tear, numbers, f"{tear}の")))
    return tuple(shape), numbers


def _body(conditions, effects, numbers: list, where: str) -> tuple:
    """The shape of a face, a pen or the 破却, its numbers appended to ``numbers``, each
    said with ``where`` it is written (「未来面の」)."""
    first = len(numbers)
    shape = (tuple(_condition(c, numbers) for c in conditions),
             tuple(_effect(e, numbers) for e in effects))
    numbers[first:] = [(sign, value, where + what) for sign, value, what in numbers[first:]]
    return shape


def _condition(cond, numbers: list) -> tuple:
    shape = []
    for i, term in enumerate(cond.terms):
        if isinstance(term, Const):
            right = BOUND_SIGN[cond.ops[i - 1]][0] if i > 0 else 0
            left = BOUND_SIGN[cond.ops[i]][1] if i < len(cond.ops) else 0
            sign = right or left if not (right and left and right != left) else 0
            numbers.append((sign, term.value, f"条件「{q.said(cond)}」の閾値"))
            shape.append("const")
        else:
            shape.append(q.key(term))
    return (cond.kind, cond.test, tuple(cond.ops), tuple(shape))


def _effect(effect, numbers: list) -> tuple:
    sign = SIGN.get(effect.op, lambda e: 0)(effect)
    what = effect.names.target
    base = effect.base
    if isinstance(base, Const):
        numbers.append((sign, base.value, what))
        base_shape = "const"
    elif isinstance(base, Scaled):
        numbers.append((sign, base.coef, f"{what} の係数"))
        base_shape = ("ref", q.key(base.ref))
    else:
        base_shape = None
    repeat = effect.repeat
    for value, said in ((repeat.max, "最大回数"), (repeat.n, "以降の数")):
        if value is not None:
            numbers.append((sign, value, f"{what} の{said}"))
    if effect.count is not None:
        numbers.append((0, effect.count, f"{what} の枚数"))
    return (effect.op, effect.direction, effect.landing, effect.target, effect.lifetime,
            effect.timing, repeat.scope, repeat.unit, repeat.max is None, repeat.n is None,
            effect.telegraphed, effect.source, effect.dest, effect.count is None, effect.pick,
            effect.filter, base_shape)
