"""証拠の例 — the witness of a loop (W006): a 例 (scenario text, docs/language.md
"Examples (例)") that sets the loop off. It puts the loop's pages in the hand with 歩 to
spare, plays each at a 刻 where the face the loop's 作用 is on fires (pens it first when
the 作用 is a pen's, tears it when it is a tear's), then plays a page whose 作用 produces
the event the loop runs on (a producer found through the graph), and ends with
``確認 出来事[連鎖の停止] == 0``: the one expectation that fails because the battle had
to stop the chain (runtime/board.py CHAIN_BOUND; ``jibunki test`` names the chain).

A loop nothing in the content sets off (no page's one-shot produces its event), or one
that only an enemy, the 綻び報酬 or a choice at each link keeps going, gets no witness:
``of_cycle`` says why instead of inventing one.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.vocabulary import W

from . import events as ev
from .content import Content

#: 歩 at the start: every play of the witness walks one step of 刻, a pen costs none.
STEPS = 200
#: Pages in the hand besides those played: what a move out of the hand takes.
FILLERS = 2
#: How a 作用's place is put on the board: (the step before the play, the face played).
PLACING = {"future": (None, "future"), "past": (None, "past"),
           "pen:future": (("pen", "future"), "future"), "pen:past": (("pen", "past"), "past"),
           "tear": (("rip", None), None)}


def _word(keyword: str) -> str:
    """A keyword of the language as a scenario writes it (contract.vocabulary.KEYWORDS)."""
    return vocab.KEYWORDS[keyword][0]


def _step(keyword: str, *terms) -> str:
    """One line of the example: a keyword and its terms."""
    return "  " + " ".join([_word(keyword), *map(str, terms)])


def of_cycle(content: Content, tg, chain: list[str], events: list[str], title: str) -> dict:
    """The witness of the loop of ``chain`` (its 作用, those that refill what it takes
    included) running on ``events``, titled after ``title`` (an item id):
    ``{"witness": text}``, or ``{"witness": None, "no_witness": why}`` (Japanese)."""
    g = tg.graph
    enemies = {g.nodes[n]["item"] for n in chain if g.nodes[n]["item_kind"] == "enemy"}
    if any(g.nodes[n]["item_kind"] == "balance" for n in chain):
        return _none(f"{_word('reward')}を通る連鎖は、{_word('example')}では起こせません")
    if len(enemies) > 1:
        return _none(f"別々の敵の特性を通る連鎖は、1 つの{W.scope.stage}では起こりません")
    if any(g.nodes[n].get("pick") == "choice" for n in chain):
        return _none(f"連鎖のたびにプレイヤーが選ぶので、{_word('example')}では連鎖を回し続けられません")
    enemy = next(iter(enemies), None) or next(iter(content.enemies), None)
    if enemy is None:
        return _none("敵が 1 体もないので、例を始められません")
    producer = _producer(content, tg, chain, events)
    if producer is None:
        named = "・".join(dict.fromkeys(ev.event_ja(e) for e in events))
        return _none(f"連鎖のきっかけ（{named}）を{W.scope.play}で起こすページがありません")
    return {"witness": _text(content, tg, chain, enemy, producer, title)}


def _none(why: str) -> dict:
    return {"witness": None, "no_witness": why}


def _producer(content: Content, tg, chain: list[str], events: list[str]):
    """(page id, side, pick) of a page whose play produces an event of the loop: a face's
    one-shot 作用 first (one without conditions before one with), then a page exiled
    after its play. None: nothing a play can do sets the loop off."""
    g = tg.graph
    wanted = {f"event:{e}" for e in events}
    candidates = []
    for node in tg.effects("page"):
        a = g.nodes[node]
        if a["continuing"] or a["place"] not in ("future", "past") or node in chain:
            continue
        reached = {e for e, _ in tg.sets_off(node)}
        if not reached & wanted:
            continue
        page = content.pages[a["item"]]
        face = page.faces[a["place"]]
        effect = face.effects[a["index"]]
        if effect.pick == "choice" and effect.source != "hand":
            continue  # the candidates would be the piles' pages, which the example cannot name
        candidates.append((bool(face.conditions), page.id, a["place"], effect.pick))
    if "event:exile" in wanted:
        for page in content.pages.values():
            if page.after_play.startswith("exile"):
                for side, face in page.faces.items():
                    if face.written:
                        candidates.append((True if face.conditions else False, page.id, side,
                                           None))
    if not candidates:
        return None
    _, page, side, pick = min(candidates, key=lambda c: c[0])
    return page, side, pick


def _age_for(content: Content, page_id: str, side: str) -> int:
    """A 刻 at which the page's ``side`` fires (future: 銘 > 刻; past: 銘 < 刻; at 銘 = 刻
    both fire, which is where a face at the edge of 0..寿命上限 is played)."""
    year = content.pages[page_id].year
    top = content.balance.lifespan_cap if content.balance is not None else 200
    if side == "future":
        return year - 1 if year >= 1 else year
    return year + 1 if year + 1 <= top else year


def _text(content: Content, tg, chain: list[str], enemy: str, producer, title: str) -> str:
    g = tg.graph
    played = list(dict.fromkeys((g.nodes[n]["item"], g.nodes[n]["place"]) for n in chain
                                if g.nodes[n]["item_kind"] == "page"))
    page, side, pick = producer
    used = {p for p, _ in played} | {page}
    fillers = [p for p in content.pages if p not in used][:FILLERS]
    fillers += [page] * (FILLERS - len(fillers))
    hand = [p for p, _ in played] + [page] + fillers
    lines = [f'{_word("example")} "{title} から始まる終わりのない連鎖（W006 の証拠）" {{',
             _step("enemy", enemy),
             _step("setup", f"{W.variable.steps} {STEPS}, {W.region.hand} [{', '.join(hand)}]")]
    for item, place in played:
        before, face = PLACING[place]
        if before is not None:
            keyword, side = before
            lines.append(_step(keyword, item, *([getattr(W.face, side)] if side else [])))
        if face is not None:
            lines.append(_step("setup", W.variable.age, _age_for(content, item, face)))
            lines.append(_step("play", item))
    lines.append(_step("setup", W.variable.age, _age_for(content, page, side)))
    lines.append(_step("play", page))
    if pick == "choice":
        lines.append(_step("choose", fillers[0]))
    lines.append(_step("expect", f"{W.quantity.events}[{W.event.chain_stopped}] == 0"))
    lines.append("}")
    return "\n".join(lines) + "\n"
