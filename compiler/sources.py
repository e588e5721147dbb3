"""出典 — where each page and enemy was written, as the tables record it (``Source``).

The path is relative to the project (``root``: the folder above content/), so that a copy
of the content compiles to the same tables; the text is the item's lines as the parser
counts them.
"""

from __future__ import annotations

from pathlib import Path

from contract.tables import Source


def shown_path(path: str, root: Path) -> str:
    """A source's path as the tables and the catalog show it: relative to ``root`` (the
    folder above content/), so the same content gives the same bytes wherever it lies;
    as written when it lies outside ``root``."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


class SourceRecords:
    """Builds the ``Source`` of items, reading each file's lines and path once (a file
    holds up to a thousand items: splitting it per item would cost its size each time)."""

    def __init__(self, texts: dict[str, str], root: Path):
        self.texts, self.root = texts, root
        self._files: dict[str, tuple[str, list[str]]] = {}

    def of(self, item) -> Source:
        """The source record of a parsed page or enemy."""
        span = item.span
        shown, lines = self._file(span.path)
        return Source(shown, span.line, span.end_line,
                      "\n".join(lines[span.line - 1: span.end_line]))

    def _file(self, path: str) -> tuple[str, list[str]]:
        if path not in self._files:
            shown = shown_path(path, self.root)
            # Lines end at "\n" only, as the parser counts them: str.splitlines() would
            # also split at U+2028, U+0085 … inside a designer's string and shift the text.
            self._files[path] = shown, self.texts.get(path, "").split("\n")
        return self._files[path]
