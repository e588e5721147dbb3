"""終わりのない作用の連鎖 (W006) — loops of the trigger graph that can repeat without a
bound within one step of the battle, each with a witness 例 that sets it off
(analysis/witness.py).

A loop of continuing 作用 and the events they produce is bounded when

- a 作用 on it has ``最大 n 回`` (it leaves the board when it is used up),
- an event on it cannot come again within one step (events.repeats: 敵HP 0, a play…),
- or a resource runs out: a region move on it takes pages from a region that no move on
  the loop refills with pages it can take (``山札 -> 除外`` alone drains the pile; a move
  of 幼少期 pages out of the hand is not refilled by one that brings back 老年期 pages:
  ``_may_share``). 生成 and 複製 refill nothing for ever: a page's copies stop at its
  デッキ内上限枚数 (spec 002 「デッキ内上限枚数に達している場合、生成は失敗する」).

Only continuing 作用 fire again: a one-shot fires with its own play and leaves. The
runtime stops such a loop past board.CHAIN_BOUND links (``chain_stopped``); this check
says so before any battle, at the loop's first 作用.
"""

from __future__ import annotations

from typing import NamedTuple

from contract import vocabulary as vocab
from contract.game import CHAIN_BOUND
from contract.vocabulary import W

from . import events as ev
from . import witness
from .content import Content
from .findings import Finding
from .graph import TriggerGraph, build

#: Region → its parts (山札+捨て札 is two piles).
PARTS = {r.code: r.parts for r in vocab.REGIONS}
#: A pile taken from is refilled by a page landing in any of these (山札: the discard
#: pile is shuffled into it when it runs out).
REFILLED_BY = {"draw": ("draw", "discard"), "discard": ("discard",), "hand": ("hand",),
               "exile": ("exile",)}
#: Operations that put a page into their destination and so refill it without end (生成
#: and 複製 stop at the page's デッキ内上限枚数: runtime/zones.py ``_add_page``).
FILLING_OPS = ("move",)
#: Operations that take pages out of their source (a loop of them can run dry).
TAKING_OPS = ev.LEAVING_OPS
#: At most this many loops are listed (the enumeration of loops can grow fast with the
#: content; past this, the first ones are reported and the rest said to exist).
MAX_CYCLES = 50


def findings(content: Content, graph: TriggerGraph | None = None) -> list[Finding]:
    """W006 for every loop of triggers nothing bounds, at its first 作用 (graph order)."""
    tg = graph if graph is not None else build(content)
    found = []
    position = {n: i for i, n in enumerate(tg.graph.nodes)}
    for loop in unbounded_cycles(tg):
        first = tg.graph.nodes[min(loop.nodes, key=position.__getitem__)]
        events = _events_of(tg, loop.chain)
        data = {"chain": loop.chain, "feeders": loop.feeders, "events": events}
        # the pages that refill go on the board first: they answer the event before the loop
        data.update(witness.of_cycle(content, tg, loop.feeders + loop.chain, events,
                                     first["item"]))
        message = ("作用が互いを際限なく呼び出します: "
                   + " → ".join(tg.label(n) for n in loop.chain) + " → （最初に戻る）")
        if loop.feeders:
            message += "。連鎖が取る領域を補い続ける作用: " + "、".join(
                tg.label(n) for n in loop.feeders)
        found.append(Finding(
            "W006", first["item_kind"], first["item"], first["line"], message,
            "連鎖のどれかの作用に 最大 n 回 を付けるか（例: 最大 3 回）、"
            f"連鎖の中で補われない領域（{W.region.draw}など）から{W.operation.move}して、"
            "いつか尽きるようにしてください",
            data))
    return found + long_findings(tg)


def long_findings(tg: TriggerGraph) -> list[Finding]:
    """W012 for every loop that only 最大 n 回 bounds, when its bound lets one step set off
    more firings than the battle allows (CHAIN_BOUND): the chain would end, but the battle
    stops it first — as it stops an endless one. Reported at the loop's first 作用 that
    has the count, with the count that fits."""
    found = []
    g = tg.graph
    for loop in _cycles(tg, counted=True):
        counts = [g.nodes[n]["max"] for n in loop.nodes if g.nodes[n]["max"] is not None]
        if not counts:
            continue  # W006's: nothing bounds it
        links = len(loop.nodes)  # firings a round of the loop sets off
        fires = min(counts)
        # the firing that sets the loop off is a link of its step too: a bound of fires ×
        # links = CHAIN_BOUND was cut by one (32 × 2 against 64)
        if fires * links < CHAIN_BOUND:
            continue
        first = g.nodes[next(n for n in loop.nodes if g.nodes[n]["max"] == fires)]
        fits = max(1, (CHAIN_BOUND - 1) // links)
        found.append(Finding(
            "W012", first["item_kind"], first["item"], first["line"],
            f"この連鎖は 最大 {fires:g} 回 で止まりますが、1 手で {fires * links + 1:g} 回まで発動しえます"
            f"（連鎖を始める 1 回を含む。どこまで続くかは作用の順と領域による）。"
            f"バトルは 1 手で {CHAIN_BOUND} 回を超えた連鎖を途中で止めます: "
            + " → ".join(tg.label(n) for n in loop.chain) + " → （最初に戻る）",
            f"最大 n 回 を {fits} 回以下にしてください（1 回りで {links} 回発動するので、"
            f"{fits} 回りで {fits * links} 回）",
            {"chain": loop.chain, "feeders": loop.feeders, "fires": fires, "links": links}))
    return found


def unbounded_cycles(tg: TriggerGraph) -> list["Loop"]:
    """Each loop nothing bounds (its 作用 in order from the first in graph order), in
    graph order."""
    return _cycles(tg, counted=False)


def _cycles(tg: TriggerGraph, counted: bool) -> list["Loop"]:
    """Each loop that nothing bounds — or, ``counted``, that nothing bounds but the 最大 n
    回 of its 作用 — its 作用 in order from the first in graph order, in graph order."""
    import networkx as nx

    g = tg.graph
    # a loop nothing outside it can start never runs (W009 says so of its 作用)
    keep = [n for n, a in g.nodes(data=True) if _may_repeat(n, a, counted) and n in tg.started]
    sub = nx.DiGraph()
    sub.add_nodes_from(keep)
    sub.add_edges_from((u, v) for u, v, a in g.subgraph(keep).edges(data=True)
                       if not a.get("own"))
    position = {n: i for i, n in enumerate(g.nodes)}
    node_at = dict(enumerate(g.nodes))
    # Enumerated on the nodes' positions: networkx walks sets of the nodes, and a set of
    # strings is ordered by their hashes, which change with each run (PYTHONHASHSEED) — the
    # same content listed its loops, and past MAX_CYCLES chose them, in another order.
    numbered = nx.relabel_nodes(sub, position)
    loops = []
    for numbers in nx.simple_cycles(numbered):
        cycle = [node_at[i] for i in numbers]
        effects = [n for n in cycle if g.nodes[n]["kind"] == "effect"]
        if not effects:
            continue
        fed = [n for n in _reached(sub, cycle) if g.nodes[n]["kind"] == "effect"]
        feeders = _drains(g, effects, fed)
        if feeders is None:
            continue
        start = min(effects, key=position.__getitem__)
        turn = effects.index(start)
        loops.append(Loop(effects[turn:] + effects[:turn],
                          sorted(feeders, key=position.__getitem__)))
        if len(loops) >= MAX_CYCLES:
            break
    # In graph order; loops of the same nodes (a chain with other feeders, or run the
    # other way round) by their chains, then their feeders.
    return sorted(loops, key=lambda loop: (sorted(position[n] for n in loop.nodes),
                                           [position[n] for n in loop.chain],
                                           [position[n] for n in loop.feeders]))


class Loop(NamedTuple):
    """A loop of triggers: its 作用 in the order they set each other off (``chain``), and
    the 作用 its events also set off that refill what the loop takes (``feeders``)."""

    chain: list[str]
    feeders: list[str]

    @property
    def nodes(self) -> list[str]:
        """Every 作用 of the loop: its chain, then its feeders."""
        return self.chain + self.feeders


def _reached(sub, cycle: list[str]) -> list[str]:
    """The nodes the loop's runs reach in ``sub`` (the loop's own included), in order."""
    import networkx as nx

    seen: dict[str, None] = {}
    for node in cycle:
        seen.setdefault(node)
        for other in nx.descendants(sub, node):
            seen.setdefault(other)
    return list(seen)


def _may_repeat(node: str, attrs: dict, counted: bool = False) -> bool:
    """A node a loop without bound can run through: a continuing 作用 without 最大 n 回
    (``counted``: with one too), or an event that can come again within one step."""
    if attrs["kind"] == "effect":
        return attrs["continuing"] and (counted or attrs["max"] is None)
    if attrs["kind"] == "event":
        return ev.repeats(node[len("event:"):])
    return False


def _drains(g, effects: list[str], fed: list[str]) -> list[str] | None:
    """None when the loop runs dry: a region move it needs takes from a pile that nothing
    the loop sets off and that can itself go on refills. Worked out as the greatest set
    of 作用 that can go on: of the loop's and those its events set off (``fed``), a move
    is dropped while no filling 作用 left in the set puts pages where it takes them (a
    feeder that takes from 山札 keeps the loop going only while 山札 is refilled too).
    Else the 作用 off the loop that refill what it needs, in the order they are needed."""
    alive = dict.fromkeys([*effects, *fed])

    def fillers(node: str) -> list[str] | None:
        a = g.nodes[node]
        if a["op"] not in TAKING_OPS or not a["source_region"]:
            return []
        refills = {r for part in PARTS[a["source_region"]] for r in REFILLED_BY[part]}
        found = [m for m in alive if m in fed and g.nodes[m]["op"] in FILLING_OPS
                 and g.nodes[m]["dest"] and refills & set(PARTS[g.nodes[m]["dest"]])
                 and _may_share(a["filter"], g.nodes[m]["filter"], g.graph["pages"])]
        return found or None

    changed = True
    while changed:
        changed = False
        for node in list(alive):
            if fillers(node) is None:
                del alive[node]
                changed = True
    if any(n not in alive for n in effects):
        return None
    feeders: dict[str, None] = {}
    todo = list(effects)
    while todo:
        for m in fillers(todo.pop(0)):
            if m not in effects and m not in feeders:
                feeders[m] = None
                todo.append(m)
    return list(feeders)


def _may_share(one: dict | None, other: dict | None, pages: dict) -> bool:
    """Can a page pass both filters (the graph's plain ones: 出自 ``origin``, 銘 range
    ``year``, ``page``; None: any page)? False only when none can: two 出自, two pages or
    two 銘 ranges that differ, or a page whose own 出自 or 銘 the other filter refuses
    (``pages``: id → (出自, 銘))."""
    origin, low, high, page = None, None, None, None
    for f in (one or {}, other or {}):
        if "origin" in f:
            if origin is not None and origin != f["origin"]:
                return False
            origin = f["origin"]
        if "year" in f:
            low = f["year"][0] if low is None else max(low, f["year"][0])
            high = f["year"][1] if high is None else min(high, f["year"][1])
        if "page" in f:
            if page is not None and page != f["page"]:
                return False
            page = f["page"]
    if low is not None and low > high:
        return False
    if page is not None and page in pages:
        own_origin, year = pages[page]
        if origin is not None and own_origin != origin:
            return False
        if low is not None and not low <= year <= high:
            return False
    return True


def _events_of(tg: TriggerGraph, chain: list[str]) -> list[str]:
    """The events that link each 作用 of the loop to the next (their codes)."""
    out = []
    for here, after in zip(chain, chain[1:] + chain[:1]):
        for event, listeners in tg.sets_off(here):
            if after in listeners:
                out.append(event[len("event:"):])
                break
    return out
