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


def diagnostics(folder, path: str, result: Result, whole: bool = False) -> list:
    """The analysis' diagnostics of the document ``path`` after its check ``result``:
    none when the check itself ran the analysis (a whole check: its own diagnostics hold
    them) unless ``whole`` asks for them all the same, when the document has an error
    (its items are not all known) or when an item of the content is not known."""
    compilation = result.compilation
    if compilation is None or result.symbols is None or \
            compilation.checked is None and not whole:
        return []
    if any(d.is_error for d in result.diagnostics):
        return []
    content = _content(folder, path, result)
    if content is None or not content.pages:
        return []
    return finding_diagnostics(result.symbols, _findings(content), path)


def both(folder, path: str, result: Result) -> tuple[list, tuple]:
    """``diagnostics`` as published for the document, and as an edit of another
    document will compare them (``whole``), with the analysis run once."""
    every = diagnostics(folder, path, result, whole=True)
    whole_check = result.compilation is not None and result.compilation.checked is None
    return ([] if whole_check else every), tuple(every)


#: The last content analysed and its findings: the documents of a folder read one
#: content (the same item objects) until an item changes, so an edit that asks each
#: open document's findings runs the analysis once.
_last: list = [None, None]


def _findings(content) -> list:
    from analysis.findings import findings

    key = (tuple((i, id(p)) for i, p in content.pages.items()),
           tuple((i, id(e)) for i, e in content.enemies.items()), id(content.balance))
    if _last[0] is None or _last[0][0] != key:
        # the content is kept with its key: the objects whose ids it holds stay alive
        _last[:] = [(key, content), findings(content)]
    return _last[1]


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
