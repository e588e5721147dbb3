"""大きさの上限 — every list a designer writes, and every count that is multiplied out,
has a bound, checked before the work it would cost (E048).

A page of 150,000 作用 or a deck of ``a × 100000000`` is no content anybody wrote by
hand: it is pasted data or an attack, and checking it would take seconds and gigabytes.
So the sizes are measured first — the file's tokens before the parse (parsing is the
costly part), the lists of each item before the item is checked (``oversized``), a count
before anything is multiplied by it (``values.check_count``) — and an item over a bound
is reported, once, at the first element past it, and not checked further.

The bounds are data (LIMITS): generous next to real content (the bundled files hold at
most ~1,200 tokens, a block at most 5 作用), small next to what would hurt.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl import ast, size
from dsl.diagnostics import Diagnostic, Span
from dsl.size import TOKEN as _TOKEN, too_many_tokens  # noqa: F401 (compiler.pipeline, tests)

from contract import kinds
from contract import vocabulary as vocab

from .codes import E048
from contract.vocabulary import W


@dataclass(frozen=True)
class Limit:
    """大きさの上限 — one bound of LIMITS: what is counted, the largest count allowed, and
    the counter word and hint of its E048 message."""

    what: str  # the thing counted, as the message names it
    bound: int
    unit: str  # the counter word of the message (個, 行, 枚 …)
    hint: str


#: The largest deck count: the bound of デッキ内上限枚数 itself (the vocabulary's), so no
#: page — with its own 上限枚数 or with the balance's — is ever allowed more.
DECK_CAP_BOUND = int(vocab.tables()["balance"].by_code("deck_cap_default").high)

LIMITS: dict[str, Limit] = {
    "file_tokens": Limit(size.TOKENS_WHAT, size.MAX_FILE_TOKENS, "個", size.TOKENS_HINT),
    "file_items": Limit("1ファイルの定義", 1_000, "個",
                        "定義をいくつかのファイルに分けてください"),
    "item_lines": Limit("1つの定義の項目", 100, "行",
                        "同じ項目を何度も書いていないか確かめてください"),
    "block_sayou": Limit("1つのブロックの作用", 100, "個",
                         "面・ペン強化・破却・特性の作用は数個で足ります。ページを分けてください"),
    "block_conditions": Limit("1つのブロックの条件", 32, "個",
                              "条件は数個で足ります。同じ条件を繰り返していないか確かめてください"),
    "intents": Limit("予兆の Intent", 100, "個", "予兆は一巡すると頭に戻ります。短い周期で書いてください"),
    "escalations": Limit("エスカレーション", 32, "個", "エスカレーションは数個で足ります"),
    "traits": Limit("特性", 32, "個", "特性は数個で足ります"),
    "deck_entries": Limit("デッキの行", 200, "行", "同じページは 1行に × n で書けます"),
    "deck_count": Limit("デッキの1行の枚数", DECK_CAP_BOUND, "枚",
                        f"1つのページをデッキに入れられるのは多くても {DECK_CAP_BOUND} 枚です"
                        f"（{W.balance.deck_cap_default}の上限）"),
    "cards": Limit("1つの作用で動かす枚数", DECK_CAP_BOUND, "枚",
                   f"{W.region.hand}・{W.region.draw}・{W.region.discard}を合わせても、1回に {DECK_CAP_BOUND} 枚を超えて動かすことはありません"),
    "times": Limit(f"回数・{W.scope.turn}数・{W.scope.play}数", 10_000, "",
                   f"{W.scope.run}の長さを超える回数は意味を持ちません"),
    "example_steps": Limit("1つの例の手順", 1_000, "行", "例を目的ごとに分けてください"),
    "example_list": Limit("例の1行に並べる名前", 200, "個", "例を目的ごとに分けてください"),
}


def over(key: str, count: int, span: Span, what: str | None = None) -> Diagnostic:
    """E048 for ``count`` elements (or a count of ``count``) where LIMITS[key] allows fewer;
    ``what`` names the thing more precisely than the limit does (最大発動回数)."""
    limit = LIMITS[key]
    return E048.at(span, what=what or limit.what, count=count, bound=limit.bound,
                   unit=limit.unit, hint=limit.hint)


# ------------------------------------------------------------------ tokens

# The bound on a file's tokens (too_many_tokens) is dsl.size's: the formatter and the
# editor check it too.


# ------------------------------------------------------------------ lists

def _bodies(bodies) -> list[tuple[str, tuple]]:
    return [entry for body in bodies
            for entry in (("block_sayou", body.sayou), ("block_conditions", body.conditions))]


def _page(page: ast.Page):
    appears = [f.value for f in page.fields if f.key == "appears"]
    return ([("item_lines", page.fields + page.faces + page.pens + page.tears)]
            + [("block_conditions", value) for value in appears]
            + _bodies([f.body for f in page.faces if f.body is not None]
                      + [p.body for p in page.pens] + [t.body for t in page.tears]))


def _enemy(enemy: ast.Enemy):
    return ([("item_lines", enemy.fields + enemy.intents_spans),
             ("escalations", enemy.escalations), ("traits", enemy.traits),
             ("block_sayou", enemy.trait_sayou)]
            + [("intents", line) for line in enemy.intents])


def _balance(balance: ast.Balance):
    return [("item_lines", balance.settings + balance.rewards)] + _bodies(balance.rewards)


def _deck(deck: ast.Deck):
    return [("deck_entries", deck.entries)]


def _example(example: ast.Example):
    steps = example.steps
    lists = [("example_steps", steps), ("example_list", example.enemies),
             ("example_list", example.deck or ())]
    for step in steps:
        lists += [("example_list", step.pages), ("block_conditions", step.checks),
                  ("example_list", step.settings)]
        lists += [("example_list", s.value) for s in step.settings if isinstance(s.value, tuple)]
    return lists


def _journey(item: ast.JourneyItem):
    return [("item_lines", item.fields)] + [
        ("deck_entries", value.values) for f in item.fields for value in f.values
        if isinstance(value, ast.ValueList)]


#: The lists each kind of item holds, as (limit key, elements) pairs: ``_<limits>`` of
#: the kind's row (contract.kinds).
_LISTS = {kind.code: globals()[f"_{kind.limits}"] for kind in kinds.ITEM_KINDS}


def _span_of(element) -> Span:
    return element if isinstance(element, Span) else element.span


def oversized(item) -> list[Diagnostic]:
    """E048 for each list of ``item`` longer than its bound (at its first element past
    the bound); empty when every list fits. Costs one look at each list's length."""
    found = []
    for key, elements in _LISTS[kinds.of(item).code](item):
        bound = LIMITS[key].bound
        if len(elements) > bound:
            found.append(over(key, len(elements), _span_of(elements[bound])))
    return found


def too_many_items(items, path: str) -> Diagnostic | None:
    """E048 when a file holds more items (of any kind) than LIMITS allow, at the
    first item past the bound; None when they fit."""
    bound = LIMITS["file_items"].bound
    if len(items) <= bound:
        return None
    head = items[bound].span
    return over("file_items", len(items),
                Span(path, head.line, head.col, head.line, head.col + 1))
