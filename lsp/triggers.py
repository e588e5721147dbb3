"""誘発 in the editor — what the 作用 under the cursor can set off and what sets it off,
from the trigger graph (analysis.graph) of the folder's last checked pages, enemies and
balance; the graph is built again only when one of them changed (``Triggers.graph``), so a
hover costs a look-up."""

from __future__ import annotations

from pathlib import PurePath

from analysis import graph as trig
from analysis.content import Content
from contract import kinds

__all__ = ["Triggers", "markdown", "written_in"]


class Triggers:
    """The trigger graph of one folder, kept while its pages, enemies and balance are the
    same objects (a check makes new ones only for what it checked)."""

    def __init__(self):
        self._key: tuple = ()
        self._graph: trig.TriggerGraph | None = None

    def graph(self, pages: dict, enemies: dict, balance) -> trig.TriggerGraph:
        """The trigger graph of these pages, enemies (id → contract object) and balance."""
        key = (tuple(pages.values()), tuple(enemies.values()), balance)
        if self._graph is None or not _same(key, self._key):
            content = Content(dict(sorted(pages.items())), dict(sorted(enemies.items())),
                              balance)
            self._graph, self._key = trig.build(content), key
        return self._graph


def _same(key: tuple, kept: tuple) -> bool:
    """The same objects, one by one (identity: no deep comparison of the tables)."""
    pages, enemies, balance = key
    old_pages, old_enemies, old_balance = kept
    return (balance is old_balance and len(pages) == len(old_pages)
            and len(enemies) == len(old_enemies)
            and all(a is b for a, b in zip(pages, old_pages))
            and all(a is b for a, b in zip(enemies, old_enemies)))


def written_in(result, path: str) -> set[tuple[str, str]]:
    """The items (kind, id) the document ``path`` holds, as its check ``result`` parsed it
    (an item without an id — the balance — by its kind's code, as the graph names it)."""
    found = set()
    for item in result.items_of(path, object):
        kind = kinds.of(item)
        if kind is not None:
            found.add((kind.code, item.id.text if kind.named else kind.code))
    return found


def _effects_at(graph: trig.TriggerGraph, written: set, line: int) -> list[str]:
    """The 作用 nodes written on line ``line`` (1-based) by the items ``written``."""
    return [node for node in graph.effects()
            if graph.graph.nodes[node]["line"] == line
            and (graph.graph.nodes[node]["item_kind"], graph.graph.nodes[node]["item"]) in written]


def _file(path: str) -> str:
    """A file as a hover names it: its name alone (the hover is in that folder's files)."""
    return PurePath(path).name


def _names(graph: trig.TriggerGraph, nodes) -> str:
    return "、".join(f"`{graph.label(n, _file)}`" for n in nodes)


def _sets_off(graph: trig.TriggerGraph, node: str) -> list[str]:
    """Each event the 作用 produces that some 作用 waits for, with those 作用."""
    return [f"- {graph.label(event)} → {_names(graph, listeners)}"
            for event, listeners in graph.sets_off(node) if listeners]


#: What the hover says of an event every stage brings (its producers are not listed).
EVERY_BATTLE = "（どの戦いでも必ず起こる）"


def _rules_naming(graph: trig.TriggerGraph, pages: list[str]) -> list[str]:
    """The rules that name these pages as producers, as the graph says them (プレイ後に
    除外されるページ: …)."""
    return [a["why"] for _, _, a in graph.graph.edges(data=True)
            if set(a.get("pages", ())) & set(pages)]


def _set_off_by(graph: trig.TriggerGraph, node: str) -> list[str]:
    """Each event a continuing 作用 waits for, with what produces it."""
    rows = []
    for cause in graph.triggered_by(node):
        parts = [f"`{graph.label(m, _file)}`" for m in cause.effects]
        parts += _rules_naming(graph, cause.pages)
        parts += [graph.label(m) for m in cause.sources]
        if cause.event[len("event:"):] in trig.EVERY_STAGE:
            parts.append(EVERY_BATTLE)
        rows.append(f"- {graph.label(cause.event)} ← {'、'.join(parts) or 'なし'}")
    return rows


def markdown(graph: trig.TriggerGraph, written: set, line_no: int) -> str | None:
    """The hover section of the 作用 on line ``line_no`` (0-based) of a document holding
    the items ``written`` (``written_in``): what it can set off, what sets it off; None
    when it has neither (or no 作用 is there)."""
    sections = []
    for node in _effects_at(graph, written, line_no + 1):
        off, by = _sets_off(graph, node), _set_off_by(graph, node)
        if off:
            sections.append("**この作用が誘発するもの**\n\n" + "\n".join(off))
        if by:
            sections.append("**この作用を誘発するもの**\n\n" + "\n".join(by))
    return "\n\n".join(sections) or None
