"""相互作用の解析 in the editor — the findings of analysis/ (W006, W009 …) for the open
document, on the whole content the server knows.

An edit checks only the document's items (compiler/pipeline.py: ``checked``), so the
compiler's ``analyze`` pass, which needs every page and enemy, does not run then. Here the
whole content is put together from what the server holds: the document's items as this
check made them, every other item as its file's last check without errors made it (the
folder's ``pages`` and ``enemies``), and only the ids the check's symbols still define
(an item deleted from a file is gone). The findings located in the document are its
diagnostics, each at the 作用 it is about, as lint shows them.
"""

from __future__ import annotations

from compiler.lint import Result
from compiler.pipeline import finding_diagnostics


def diagnostics(folder, path: str, result: Result) -> list:
    """The analysis' diagnostics of the document ``path`` after its check ``result``:
    none when the check itself ran the analysis (a whole check), when the document has an
    error (its items are not all known) or when an item of the content is not known."""
    compilation = result.compilation
    if compilation is None or compilation.checked is None or result.symbols is None:
        return []
    if any(d.is_error for d in result.diagnostics):
        return []
    content = _content(folder, path, result)
    if content is None or not content.pages:
        return []
    from analysis.findings import findings

    return finding_diagnostics(result.symbols, findings(content), path)


def _content(folder, path: str, result: Result):
    """The whole content as the analysis reads it, or None when an item is not known."""
    from analysis.content import Content

    symbols = result.symbols
    mine = {"pages": {p.id: p for p in result.model.pages if p is not None},
            "enemies": {e.id: e for e in result.model.enemies if e is not None}}
    held = {"pages": folder.pages, "enemies": folder.enemies}
    chosen = {}
    for kind in ("pages", "enemies"):
        items = {}
        for item_id, node in getattr(symbols, kind).items():
            item = mine[kind].get(item_id) if node.span.path == path else held[kind].get(item_id)
            if item is None:
                return None
            items[item_id] = item
        chosen[kind] = dict(sorted(items.items()))
    return Content(chosen["pages"], chosen["enemies"], result.model.balance or folder.balance)
