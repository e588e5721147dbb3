"""言語サーバー — ``jibunki lsp``: the content language in an editor, over stdio (pygls).

    folder.py    the content folder of a document: its files' texts, checked on each edit
    features.py  what the editor asks, answered from a check's result (pure functions)
    completion.py  the candidates of a position: what dsl.position says may stand there
    examples.py  the code lens over each 例: run it, its last outcome
    lab_lens.py  the code lens over each page: its last lab verdict; 「この ページで実験」
    journey_lens.py  the code lens over each 旅の準備: its last measure; 「この 準備で測る」
    editor_runs.py  what those two share: a measure started from the editor, as its lens shows it
    pending.py   the checks that wait for a pause in typing (one per document, the last edit)
    protocol.py  the base protocol and JSON-RPC as written: frames, error codes, life cycle
    server.py    the pygls server: LSP messages ↔ the modules above

Diagnostics come from the same pipeline as ``jibunki lint`` (compiler.pipeline), with the
other files of the content folder as context, so names resolve across files; after the
first check only the edited document's items are checked again (lsp.folder).
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """Start the language server over stdio (pygls is imported only now)."""
    from .server import main as serve

    serve()
