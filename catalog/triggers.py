"""誘発 — what each card of the catalog triggers and what triggers it, and the picture of
the content's whole trigger graph (``triggers.html``), from analysis.graph.

A card lists, for each of its 作用 that sets another off (``TriggerGraph.triggers``), the
event and the listening 作用 of the other pages and enemies, linked to their cards; for
each continuing 作用 (``TriggerGraph.triggered_by``), the event it waits for and the
pages and enemies that produce it. What only the rules produce (a turn's phases: the
作用's own timing says it already) and what every stage brings (敵HP 0) is not listed.

The picture draws the items (pages, enemies, the balance), the events and the rules'
sources that take part in a trigger relation, with networkx and matplotlib, as an SVG
that is the same bytes on every build: a layout computed in columns (no random one), a
fixed hash salt, no date.
"""

from __future__ import annotations

from collections import Counter

from analysis import graph as trig
from analysis.content import Content
from contract import kinds

from .phrasing import term

#: Where an item's card is, by its kind (the balance has none).
CARD = {"page": "page-{}", "enemy": "enemy-{}"}
#: The picture's SVG hash salt, its width and the height of one row (inches).
SALT = "jibunki-triggers"
WIDTH, ROW = 11.5, 0.3
#: The boxes' colours (fill, text): the items', one per kind of item with 作用 in
#: contract.kinds order; the events' and the rules' sources'.
ITEM_PALETTE = (("#dfe3ec", "#222222"), ("#f6d5d6", "#222222"), ("#dde8cf", "#222222"),
                ("#fde2c0", "#222222"))
NODE_STYLE = {"event": ("#ffffff", "#222222"), "source": ("#2b2d42", "#ffffff")}
#: A box's label: lines of at most this many characters, at most this many lines, the
#: rest cut with 「…」 — a long name ran past the picture's edge and under its
#: neighbours' boxes (the whole name is on the card the box links to).
LABEL_CHARS, LABEL_LINES = 14, 2


def fitted(label: str) -> str:
    """``label`` as a box shows it: broken into lines of LABEL_CHARS, cut after
    LABEL_LINES with 「…」."""
    lines = [label[at:at + LABEL_CHARS] for at in range(0, len(label), LABEL_CHARS)]
    if len(lines) > LABEL_LINES:
        lines = lines[:LABEL_LINES]
        lines[-1] = lines[-1][:LABEL_CHARS - 1] + "…"
    return "\n".join(lines)


def styles(graph: trig.TriggerGraph) -> dict[str, tuple[str, str]]:
    """The box colours (fill, text) of each kind of node the picture of ``graph`` can
    draw: each kind of item that writes 作用 in it, the events, the rules' sources."""
    written = {a["item_kind"] for _, a in graph.graph.nodes(data=True) if a["kind"] == "effect"}
    codes = [k.code for k in kinds.ITEM_KINDS if k.code in written]
    return {**dict(zip(codes, ITEM_PALETTE)), **NODE_STYLE}


def graph_of(tables) -> trig.TriggerGraph:
    """The trigger graph of loaded tables."""
    return trig.build(Content.of_tables(tables))


def _names(tables) -> dict[tuple[str, str], str]:
    return {**{("page", p.id): p.name for p in tables.pages.values()},
            **{("enemy", e.id): e.name for e in tables.enemies.values()}}


def _where(graph: trig.TriggerGraph, node: str) -> str:
    """A 作用's place in its item and its text: 「未来面 24行: 敵HP -= 8 …」."""
    a = graph.graph.nodes[node]
    head = trig.PLACES[a["place"]] + (f" {a['line']}行" if a["line"] else "")
    return f"{head}: {a['text']}" if a["text"] else head


def _link(graph: trig.TriggerGraph, node: str, names: dict) -> dict:
    """A 作用 of another item as a card's link: its item's card and name, the 作用."""
    a = graph.graph.nodes[node]
    key = (a["item_kind"], a["item"])
    card = CARD.get(a["item_kind"])
    return {"href": "#" + card.format(a["item"]) if card else None,
            "name": names.get(key, trig.PLACES[a["place"]]), "id": a["item"],
            "what": _where(graph, node), "after": None}


def _page_link(page) -> dict:
    """A page a rule names (its play → exile): its card and name, where it goes after
    play (the template says the rest)."""
    return {"href": "#" + CARD["page"].format(page.id), "name": page.name, "id": page.id,
            "what": None, "after": term("destination", page.after_play).ja}


def card_links(graph: trig.TriggerGraph, tables) -> dict[tuple[str, str], dict]:
    """(item kind, id) → {"triggers": rows, "triggered_by": rows} for every item with
    something to list; a row: the 作用 of the card (``where``), the event (``event``) and
    the other items' links (``links``)."""
    names = _names(tables)
    found: dict[tuple[str, str], dict] = {}
    for node in graph.effects():
        a = graph.graph.nodes[node]
        key = (a["item_kind"], a["item"])
        rows = found.setdefault(key, {"triggers": [], "triggered_by": []})
        for event, listeners in graph.triggers(node):
            rows["triggers"].append({"where": _where(graph, node), "event": graph.label(event),
                                     "links": [_link(graph, m, names) for m in listeners]})
        for cause in graph.triggered_by(node):
            links = ([_link(graph, m, names) for m in cause.effects]
                     + [_page_link(tables.pages[p]) for p in cause.pages])
            if links:  # the rules alone: the 作用's own timing says so
                rows["triggered_by"].append({"where": _where(graph, node),
                                             "event": graph.label(cause.event),
                                             "links": links})
    return {k: v for k, v in found.items() if v["triggers"] or v["triggered_by"]}


# ----------------------------------------------------------------- the picture


def _item(graph: trig.TriggerGraph, node: str) -> str:
    """The picture's node of a graph node: its item for a 作用, itself otherwise."""
    a = graph.graph.nodes[node]
    return f"{a['item_kind']}:{a['item']}" if a["kind"] == "effect" else node


def picture_graph(graph: trig.TriggerGraph, names: dict | None = None):
    """The picture's graph (networkx.DiGraph): items, events and the rules' sources that
    take part in a trigger relation — each continuing 作用's item, the events it waits
    for, back through the rules to what produces them (an event every stage brings: the
    rules only) — edges as in the trigger graph, 作用 gathered into their item. An item is
    labelled with its name in ``names`` ((kind, id) → name, ``_names``), else the word of
    its kind (バランス)."""
    import networkx as nx

    g = graph.graph
    names = names or {}
    shown = nx.DiGraph()

    def add(node: str) -> None:
        a = g.nodes[node]
        kind = a["item_kind"] if a["kind"] == "effect" else a["kind"]
        label = (names.get((kind, a["item"])) or kinds.word(kinds.by_code(kind))
                 if a["kind"] == "effect" else graph.label(node))
        shown.add_node(_item(graph, node), kind=kind, label=label,
                       item=a.get("item"))

    for node in graph.effects():
        for cause in graph.triggered_by(node):
            add(node)
            todo, seen = [cause.event], set()
            add(cause.event)
            shown.add_edge(cause.event, _item(graph, node))
            while todo:
                event = todo.pop(0)
                if event in seen:
                    continue
                seen.add(event)
                for m in g.predecessors(event):
                    kind = g.nodes[m]["kind"]
                    if kind == "effect" and event[len("event:"):] in trig.EVERY_STAGE:
                        continue  # every damage: drawn as the rules' event only
                    add(m)
                    shown.add_edge(_item(graph, m), event)
                    if kind == "event":
                        todo.append(m)
    return shown


def layout(shown) -> dict[str, tuple[float, float]]:
    """Where each node of the picture stands: in columns left to right by its distance
    from the nodes nothing points to (the rules' sources, the producing pages) — what
    only listens in the last column — each
    column ordered by the mean height of what points into it — the same places every
    build, whatever the machine (no random layout)."""
    import networkx as nx

    roots = [n for n in shown if shown.in_degree(n) == 0] or list(shown)[:1]
    depth = nx.multi_source_dijkstra_path_length(shown, roots)
    last = max(depth.values()) + 1
    columns: dict[int, list[str]] = {}
    for n in shown:  # a node only a cycle reaches stands in the first column; what
        # only listens, in the last, where each 作用 ends
        column = last if shown.out_degree(n) == 0 else depth.get(n, 0)
        columns.setdefault(column, []).append(n)
    pos: dict[str, tuple[float, float]] = {}
    for x in sorted(columns):
        def height(n, order=columns[x]):
            above = [pos[m][1] for m in shown.predecessors(n) if m in pos]
            return (-sum(above) / len(above) if above else 0.0, order.index(n))
        ordered = sorted(columns[x], key=height)  # the highest first (rank 0: the top)
        for rank, n in enumerate(ordered):
            pos[n] = (float(x), -(rank - (len(ordered) - 1) / 2))
    return pos


def picture(graph: trig.TriggerGraph, names: dict | None = None) -> str:
    """The whole trigger graph as an inline SVG element (same bytes every build); the
    labels of pages and enemies (their names, ``picture_graph``) link to their cards in
    index.html. Empty when nothing in the content triggers anything."""
    from sim.render_html import matplotlib_ready, plotting, svg_element

    matplotlib_ready()
    import matplotlib.pyplot as plt

    shown = picture_graph(graph, names)
    if not shown:
        return ""
    pos = layout(shown)
    style = styles(graph)
    rows = max(Counter(x for x, _ in pos.values()).values())
    with plotting(SALT):
        fig, ax = plt.subplots(figsize=(WIDTH, max(3.0, ROW * rows)))
        ax.set_axis_off()
        boxes = {}
        for n in shown:
            a = shown.nodes[n]
            boxes[n] = ax.text(*pos[n], fitted(a["label"]), ha="center", va="center", fontsize=8,
                               color=style[a["kind"]][1], zorder=2,
                               bbox={"boxstyle": "round,pad=0.3", "linewidth": 0.6,
                                     "facecolor": style[a["kind"]][0],
                                     "edgecolor": "#555555"})
            card = CARD.get(a["kind"])
            if card:
                boxes[n].set_url("index.html#" + card.format(a["item"]))
        for u, v in shown.edges:
            ax.annotate("", xy=pos[v], xytext=pos[u], zorder=1,
                        arrowprops={"arrowstyle": "-|>", "color": "#888888", "lw": 0.7,
                                    "mutation_scale": 12,
                                    "patchA": boxes[u].get_bbox_patch(),
                                    "patchB": boxes[v].get_bbox_patch(),
                                    "connectionstyle": "arc3,rad=0.05"})
        xs = [x for x, _ in pos.values()]
        ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
        ax.set_ylim(-rows / 2 - 0.2, rows / 2 + 0.2)
        fig.subplots_adjust(left=0.01, right=0.99, top=0.99, bottom=0.01)
        # The boxes are placed when they are drawn, and the arrows, drawn before them,
        # end at their edges only once they are: without this first draw every arrow
        # ran to its box's centre, its head hidden under the box.
        fig.canvas.draw()
        svg = svg_element(fig, "triggers")
        plt.close(fig)
    return svg


def context(graph: trig.TriggerGraph, tables=None) -> dict:
    """What ``triggers.html`` shows: the picture (its items named from ``tables``), and
    its legend — the items' colours with the word of their kind (ページ, 敵 …; the
    template names the events' and the sources' boxes)."""
    from markupsafe import Markup

    style = styles(graph)
    # matplotlib escapes the text it writes (designer text stays text)
    names = _names(tables) if tables is not None else None
    return {"svg": Markup(picture(graph, names)),
            "items": [(kinds.word(kinds.by_code(code)), fill) for code, (fill, _) in style.items()
                      if code not in NODE_STYLE],
            "event_fill": NODE_STYLE["event"][0], "source_fill": NODE_STYLE["source"][0]}
