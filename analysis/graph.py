"""誘発グラフ — the trigger graph: every 作用 of the content, the events each produces, and
the continuing 作用 that listen to those events (analysis/events.py), drawn as one
networkx directed graph.

Nodes are strings, one kind each (``kind`` attribute):

- ``effect``: one 作用, ``<item kind>:<id>:<place>:<index>`` — a page's face (``future``,
  ``past``), its pen upgrade (``pen:future`` …) or its tear (``tear``); an enemy's trait
  (``trait``); the balance's 綻び報酬 (``reward``). Its attributes: the item, the place,
  the source line, the text as written, its timing, whether it stays on the board
  (``continuing``) and its ``最大 n 回`` (``max``);
- ``event``: ``event:<code>`` (``event:flag:<name>`` for a flag);
- ``source``: ``rules:<source>`` — the player's actions, the enemy's, the turn's phases.

Edges say why (``relation``): ``produces`` (a 作用 → an event it can produce), ``listens``
(an event → a continuing 作用 waiting for it; ``own``: a page's own play or tear sets off
its face's 作用 — no other page's does), ``rule`` (the rules: a source → its events, an
event → the events it sets off by itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from contract import vocabulary as vocab
from contract.tables import Sayou

from . import events as ev
from .content import Content

#: Where a 作用 is written, in its item: the Japanese name of each place.
PLACES = {"future": vocab.W.face.future, "past": vocab.W.face.past,
          "pen:future": f"ペン {vocab.W.face.future}", "pen:past": f"ペン {vocab.W.face.past}",
          "tear": "破却", "trait": "特性",
          "reward": vocab.W.timing.on_reward.removesuffix("時")}
#: The timing a 作用 of each place waits for when it is a one-shot (its item's own act).
OWN_EVENT = {"future": "play", "past": "play", "pen:future": "play", "pen:past": "play",
             "tear": "tear"}


def effect_node(kind: str, item: str, place: str, index: int) -> str:
    """The node of the ``index``-th 作用 written at ``place`` in an item."""
    return f"{kind}:{item}:{place}:{index}"


def event_node(code: str) -> str:
    """The node of an event (``event:exile``, ``event:flag:<name>``)."""
    return f"event:{code}"


def continuing(effect: Sayou) -> bool:
    """Whether the 作用 stays on the board after its first firing (a timing of its own,
    or a range wider than its play) — a modifier (常時) included, which is read, not fired."""
    return effect.timing != "on_play" or effect.repeat.scope != "play"


def placed_effects(content: Content):
    """Every 作用 of the content: (item kind, id, place, index, 作用, source) in a fixed
    order — pages, enemies, the balance, each by id, each place in PLACES order."""
    for page in content.pages.values():
        for side, face in page.faces.items():
            for i, effect in enumerate(face.effects):
                yield "page", page.id, side, i, effect, page.source
        for side, body in page.pens.items():
            for i, effect in enumerate(body.effects if body is not None else ()):
                yield "page", page.id, f"pen:{side}", i, effect, page.source
        for i, effect in enumerate(page.tear or ()):
            yield "page", page.id, "tear", i, effect, page.source
    for enemy in content.enemies.values():
        for i, effect in enumerate(enemy.trait_effects):
            yield "enemy", enemy.id, "trait", i, effect, enemy.source
    if content.balance is not None:
        for i, effect in enumerate(content.balance.reward):
            yield "balance", "balance", "reward", i, effect, None


def written(source, line: int) -> str:
    """The source line ``line`` as the designer wrote it (comment and indent dropped)."""
    if source is None or not source.text:
        return ""
    lines = source.text.splitlines()
    index = line - source.line
    if not 0 <= index < len(lines):
        return ""
    return lines[index].split("#", 1)[0].strip()


#: Events every stage brings whatever its deck holds: the turn's phases (ターンの進行) and
#: the enemy's defeat that ends it. A 作用 producing one sets off nothing the stage would
#: not set off anyway, and listing every producer of one says nothing.
EVERY_STAGE = frozenset({"enemy_hp_zero"}.union(*(r.events for r in ev.SOURCES
                                                   if r.source == "turn")))


def _code(event: str) -> str:
    return event[len("event:"):]


class Cause(NamedTuple):
    """What sets a continuing 作用 off (``TriggerGraph.triggered_by``): the event node, the
    作用 nodes producing it, the ids of pages a rule names, the rules' source nodes."""

    event: str
    effects: list[str]
    pages: list[str]
    sources: list[str]


@dataclass
class TriggerGraph:
    """The trigger graph of one content (``build``), and the questions asked of it."""

    graph: "object"  # networkx.DiGraph

    def effects(self, kind: str | None = None, item: str | None = None) -> list[str]:
        """The 作用 nodes, in build order (of one item when named)."""
        return [n for n, a in self.graph.nodes(data=True) if a["kind"] == "effect"
                and (kind is None or a["item_kind"] == kind) and (item is None or a["item"] == item)]

    def sets_off(self, node: str) -> list[tuple[str, list[str]]]:
        """What a 作用 can set off: each event it produces (with those the rules turn it
        into), and the continuing 作用 that listen to it."""
        out = []
        for event in self._events_reached(node):
            listeners = [m for m in self.graph.successors(event)
                         if self.graph.nodes[m]["kind"] == "effect"
                         and not self.graph.edges[event, m].get("own")]
            out.append((event, listeners))
        return out

    def set_off_by(self, node: str) -> list[tuple[str, list[str]]]:
        """What sets a 作用 off: the event it waits for (its item's own play or tear for a
        one-shot) and the 作用 and the rules' sources that produce it."""
        out = []
        for event in self.graph.predecessors(node):
            producers = sorted(self._producers(event), key=self._order)
            out.append((event, producers))
        return out

    def triggers(self, node: str) -> list[tuple[str, list[str]]]:
        """誘発する — what a page card lists of a 作用: ``sets_off`` less the events no
        other 作用 listens to and those every stage brings anyway (``EVERY_STAGE``: any
        damage ends a stage, so a heal 毎 敵のHPが0になった時 is no news of one page)."""
        return [(event, listeners) for event, listeners in self.sets_off(node)
                if listeners and _code(event) not in EVERY_STAGE]

    def triggered_by(self, node: str) -> list["Cause"]:
        """誘発される — what a page card lists of a continuing 作用 (a one-shot waits for
        its own page's play or tear: nothing to list): each event it waits for, the 作用
        that produce it (none listed for an event every stage brings: every damage would
        be), the pages a rule names on the way (プレイ後に除外されるページ) and the rules'
        sources (プレイヤーの行動 …)."""
        if not self.graph.nodes[node]["continuing"]:
            return []
        causes = []
        for event in self.graph.predecessors(node):
            found = self._producers(event)
            effects = sorted((m for m in found if self.graph.nodes[m]["kind"] == "effect"),
                             key=self._order)
            sources = sorted((m for m in found if self.graph.nodes[m]["kind"] == "source"),
                             key=self._order)
            if _code(event) in EVERY_STAGE:
                effects = []
            causes.append(Cause(event, effects, self.named_pages(event), sources))
        return causes

    def named_pages(self, event: str) -> list[str]:
        """The pages named by the rules' edges into ``event``, directly or through the rules
        (a page exiled after its play produces ページの除外 with its play)."""
        return sorted({page for e in self._events_upstream(event)
                       for m in self.graph.predecessors(e)
                       if self.graph.nodes[m]["kind"] == "event"
                       for page in self.graph.edges[m, e].get("pages", ())})

    def _events_upstream(self, event: str) -> list[str]:
        """``event`` and every event the rules turn into it, nearest first."""
        seen, todo = {event: None}, [event]
        while todo:
            for m in self.graph.predecessors(todo.pop(0)):
                if self.graph.nodes[m]["kind"] == "event" and m not in seen:
                    seen[m] = None
                    todo.append(m)
        return list(seen)

    def _events_reached(self, node: str) -> list[str]:
        """The events ``node`` produces and those the rules turn them into (in order)."""
        seen: dict[str, None] = {}
        todo = [m for m in self.graph.successors(node)]
        while todo:
            event = todo.pop(0)
            if event in seen:
                continue
            seen[event] = None
            todo += [m for m in self.graph.successors(event)
                     if self.graph.nodes[m]["kind"] == "event"]
        return list(seen)

    def _producers(self, event: str) -> set[str]:
        """The 作用 and sources that produce ``event``, directly or through the rules."""
        return {m for e in self._events_upstream(event) for m in self.graph.predecessors(e)
                if self.graph.nodes[m]["kind"] != "event"}

    @cached_property
    def _position(self) -> dict[str, int]:
        return {n: i for i, n in enumerate(self.graph.nodes)}

    def _order(self, node: str) -> int:
        return self._position[node]

    @cached_property
    def started(self) -> frozenset[str]:
        """Every node something can set going: those the rules' sources (the player's
        actions, the turn's steps, the enemy) reach through the events and the 作用 that
        answer them. A loop of 作用 that only set each other off, which nothing outside it
        starts, is not among them: its 作用 never fire."""
        import networkx as nx

        found: set[str] = set()
        for node, attrs in self.graph.nodes(data=True):
            if attrs["kind"] == "source" and node not in found:
                found.add(node)
                found |= nx.descendants(self.graph, node)
        return frozenset(found)

    def produced(self) -> set[str]:
        """Every event something in the content (or the rules) can produce."""
        return {e for e in self.graph.nodes if self.graph.nodes[e]["kind"] == "event"
                and any(True for _ in self.graph.predecessors(e))}

    def label(self, node: str, shown=None) -> str:
        """A node as the designer reads it: ``kaeri 未来面 content/pages/青年期.page:12: 移動 1枚
        除外 -> 手札 …``,
        ``ページの除外``, ``プレイヤーの行動``. ``shown``: how a path is said (the editor's
        hovers name the file alone)."""
        a = self.graph.nodes[node]
        if a["kind"] == "event":
            return ev.event_ja(node[len("event:"):])
        if a["kind"] == "source":
            return a["ja"]
        head = f"{a['item']} {PLACES[a['place']]}"
        if a["line"]:  # where it is written, as lint says a place: path:line
            path = a.get("path")
            head += (f" {shown(path) if shown else path}:{a['line']}" if path
                     else f" {a['line']}行")
        return f"{head}: {a['text']}" if a["text"] else head

    def to_dict(self) -> dict:
        """The graph as plain data (JSON): its nodes with their attributes, its edges."""
        return {"nodes": [{"id": n, **a} for n, a in self.graph.nodes(data=True)],
                "edges": [{"from": u, "to": v, **a} for u, v, a in self.graph.edges(data=True)]}


def _filter(found) -> dict | None:
    """A region operation's filter as plain data (the graph is JSON): its fields set."""
    if found is None:
        return None
    return {name: getattr(found, name) for name in ("origin", "year", "page")
            if getattr(found, name) is not None}


def build(content: Content) -> TriggerGraph:
    """The trigger graph of ``content``."""
    import networkx as nx

    # each page's 出自 and 銘: what a region operation's filter picks (cycles.py)
    g = nx.DiGraph(pages={p.id: (p.origin, p.year) for p in content.pages.values()})
    for code in (e.code for e in ev.EVENTS if e.code != "flag"):  # flags: one node each
        g.add_node(event_node(code), kind="event")
    for rule in ev.SOURCES:
        g.add_node(f"rules:{rule.source}", kind="source", ja=rule.ja)
        for code in rule.events:
            g.add_edge(f"rules:{rule.source}", event_node(code), relation="rule", why=rule.ja)
    for code, (targets, why) in ev.CHAINS.items():
        for target in targets:
            g.add_edge(event_node(code), event_node(target), relation="rule", why=why)
    exiled = [p.id for p in content.pages.values() if p.after_play.startswith("exile")]
    if exiled:
        g.add_edge(event_node("play"), event_node("exile"), relation="rule",
                   why=f"{vocab.W.scope.play}後に{vocab.W.region.exile}されるページ: " + ", ".join(exiled), pages=tuple(exiled))
    for kind, item, place, index, effect, source in placed_effects(content):
        node = effect_node(kind, item, place, index)
        g.add_node(node, kind="effect", item_kind=kind, item=item, place=place, index=index,
                   line=effect.line, path=getattr(source, "path", None),
                   text=written(source, effect.line), timing=effect.timing,
                   continuing=continuing(effect), max=effect.repeat.max, op=effect.op,
                   target=effect.target.code, source_region=effect.source,
                   dest=effect.dest, pick=effect.pick, filter=_filter(effect.filter))
        for code in ev.produced(effect):
            g.add_node(event_node(code), kind="event")
            g.add_edge(node, event_node(code), relation="produces")
        waited = ev.BY_TIMING.get(effect.timing)
        if waited is None:
            continue  # 常時: a modifier is read while it is on the board, never fired
        own = not continuing(effect) and place in OWN_EVENT
        if own:
            waited = ev.BY_CODE[OWN_EVENT[place]]
        g.add_edge(event_node(waited.code), node, relation="listens", own=own)
    return TriggerGraph(g)


#: The timings' Japanese names, for labels of what a 作用 waits for.
TIMING_JA = {t.code: t.ja for t in vocab.TIMINGS}
