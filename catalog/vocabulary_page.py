"""語彙のページ — the catalog's vocabulary page (``vocabulary.html``), from the vocabulary table.

Its rows are the rows of ``jibunki vocab`` (contract.reference): every variable, counter
(with its ●/○/× cell per scope), timing, region, lifetime, operation, scope and landing,
each with its glossary meaning. A row's id is its anchor (section and code), which the
rules text of every page links to (catalog.phrasing.Piece.anchor); each row lists the
pages whose rules text uses it, linked back to the index.
"""

from __future__ import annotations

from contract import reference
from contract import vocabulary as vocab

from .phrasing import term


def uses_of(pages: list[dict]) -> dict[str, list[dict]]:
    """Anchor → the pages (``id``, ``name``, ``anchors``: what their rules text links to)
    that link to it, in page order."""
    found: dict[str, list[dict]] = {}
    for page in pages:
        for anchor in dict.fromkeys(page["anchors"]):
            found.setdefault(anchor, []).append(page)
    return found


def context(uses: dict[str, list[dict]]) -> dict:
    """What ``vocabulary.html.j2`` renders: the sections in reference order, each with its
    rows; the scopes (the columns of a counter's cells) and the legend of the cells."""
    sections = []
    entries = reference.entries()  # built anew by each call: once for every section
    for section, (heading, _, _) in reference.SECTIONS.items():
        rows = [{"anchor": e.anchor, "ja": e.ja, "code": e.code, "aliases": e.aliases,
                 "meaning": e.meaning, "detail": e.detail,
                 "cells": ([(e.cells[s], reference.CELL_MEANINGS[e.cells[s]])
                            for s in vocab.SCOPE_ORDER] if e.cells is not None else None),
                 "uses": uses.get(e.anchor, [])}
                for e in entries if e.section == section]
        sections.append({"id": section, "heading": heading, "rows": rows,
                         "cells": any(r["cells"] for r in rows)})
    return {"sections": sections,
            "scopes": [term("scope", code).ja for code in vocab.SCOPE_ORDER],
            "legend": list(reference.CELL_MEANINGS.items())}
