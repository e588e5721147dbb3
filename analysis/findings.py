"""所見 — what the analysis finds: one ``Finding`` each, and every check run in order.

A finding names the item it is on and the source line (of the 作用, the face or the item)
that the compiler turns into a coded diagnostic with its caret (compiler/pipeline.py
``analyze``); ``data`` holds the figures a report shows (JSON-ready values only)."""

from __future__ import annotations

import importlib
from typing import NamedTuple

from .content import Content


class Finding(NamedTuple):
    """One finding: its code (W006…), the item ("page" / "enemy" / "balance", id), the
    source line it is reported at (None: the item's first line), the message and the hint
    (Japanese, for the designer), and its figures."""

    code: str
    kind: str
    item: str
    line: int | None
    message: str
    hint: str
    data: dict


#: The checks, in order: each module's ``findings(content) -> list[Finding]``; those of
#: GRAPH_CHECKS also take the trigger graph (analysis/graph.py), built once for them all.
CHECKS = ("cycles", "growth", "faces", "listeners", "dominance")
GRAPH_CHECKS = ("cycles", "listeners")


def findings(content: Content, graph=None) -> list[Finding]:
    """Every finding of every check, in CHECKS order, each check's in its own order;
    ``graph``: the content's trigger graph when the caller has built it already."""
    from .graph import build

    built = graph is None
    graph = build(content) if built else graph
    found: list[Finding] = []
    try:
        for name in CHECKS:
            check = importlib.import_module(f"{__package__}.{name}").findings
            found.extend(check(content, graph) if name in GRAPH_CHECKS else check(content))
    finally:
        if built:
            # A networkx graph and its cached views form a cycle: dropped, the graph
            # would wait for the cyclic collector, which the compiler pauses in its
            # passes (compiler/pipeline.py) — its nodes and edges, some 60 MB at
            # 10,000 pages, would stay to the end of the compile. Emptied, they go now.
            graph.graph.clear()
    return found
