"""コンテンツフォルダ — the files a document's names resolve against, kept in memory.

A folder's files are read from disk once; an open document's text replaces its file's
(``check``), so what the editor shows is what is checked. Only the edited document is
checked again: the others are context (their parses come from dsl.parsecache).
"""

from __future__ import annotations

from pathlib import Path

from compiler.lint import Result, check_text
from compiler.read import MAX_FILE_BYTES

__all__ = ["EXTENSIONS", "Folder", "Folders", "content_root"]

#: The kinds of content file the server checks.
EXTENSIONS = (".page", ".enemy", ".balance", ".deck", ".scenario", ".journey")
#: The folder name that marks a content folder (the nearest such ancestor wins).
CONTENT_NAME = "content"


def content_root(path: Path, workspace: Path | None) -> Path:
    """The content folder of ``path``: its nearest ancestor named ``content``, else the
    workspace root when the file lies inside it, else the file's own folder."""
    for folder in path.parents:
        if folder.name == CONTENT_NAME:
            return folder
    if workspace is not None and workspace in path.parents:
        return workspace
    return path.parent


class Folder:
    """One content folder: the text of each of its files (disk, or the open document),
    the last check of a document, and the last checked page and enemy of each id."""

    def __init__(self, root: Path):
        self.root = root
        self.texts: dict[str, str] = {}
        for path in sorted(root.rglob("*")):
            if path.suffix in EXTENSIONS:
                text = _read(path)
                if text is not None:
                    self.texts[str(path)] = text
        self.results: dict[str, Result] = {}  # path → its last check
        self.latest: Result | None = None  # the last check of any document here
        self.pages: dict[str, object] = {}  # id → contract.tables.Page, last without errors
        self.enemies: dict[str, object] = {}  # id → contract.tables.Enemy, likewise

    def check(self, path: str, text: str) -> Result:
        """Check the document ``path`` as ``text``, with every other file as context."""
        self.texts[path] = text
        context = {other: body for other, body in self.texts.items() if other != path}
        result = check_text(text, path, context)
        self.results[path] = result
        self.latest = result
        self.pages.update((p.id, p) for p in result.model.pages if p is not None)
        self.enemies.update((e.id, e) for e in result.model.enemies if e is not None)
        return result

    def closed(self, path: str) -> None:
        """The document was closed: its file's text is the one on disk again."""
        text = _read(Path(path))
        if text is None:
            self.texts.pop(path, None)
        else:
            self.texts[path] = text

    def lines(self, path: str) -> list[str]:
        """The lines of a file of the folder as last seen (empty when unknown)."""
        return self.texts.get(path, "").split("\n")


class Folders:
    """Every content folder the open documents belong to, each read once."""

    def __init__(self):
        self.workspace: Path | None = None
        self._folders: dict[Path, Folder] = {}

    def of(self, path: Path) -> Folder:
        """The folder of a document (read from disk the first time it is asked for)."""
        root = content_root(path, self.workspace)
        if root not in self._folders:
            self._folders[root] = Folder(root)
        return self._folders[root]


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
