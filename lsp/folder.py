"""コンテンツフォルダ — the files a document's names resolve against, kept in memory.

A folder's files are found and read as the command line finds and reads them
(compiler.read: no symlink leading outside, no FIFO or device, the size limits) and read
again whenever one changed on disk (``refresh``: its modification time, size and inode);
an open document's text replaces its file's (``check``), so what the editor shows is what
is checked. The edited document is checked again; the other open documents only when the
edit changed what it lends them (``interface``: the ids it defines, its pages' 出自 and
上限枚数, its journey items' fields) — otherwise they are context (their parses come from
dsl.parsecache).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from compiler.lint import Result, result_of
from compiler.pipeline import Compilation, Source, run
from compiler.read import discover, prepare, read
from dsl import ast

from contract import kinds
from contract.kinds import CONTENT_NAME
from scenario.stage import examples_of

from .examples import Runs
from .triggers import Triggers

__all__ = ["Folder", "Folders", "content_root", "interface"]

#: How many times a file that changes while it is read is read again before it counts as
#: unsettled (its text unknown: no edit is computed over it).
READ_TRIES = 3
#: A file modified this recently (ns) may be written again within the same tick of its
#: modification time, at the same size: its stamp is not trusted, it is read again.
RECENT_NS = 2_000_000_000


#: A line break as a check and an LSP client count one.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def content_root(path: Path, workspace: Path | None) -> Path:
    """What the file ``path`` is checked with, as `jibunki lint` run at the workspace's
    root checks it: its nearest content folder (kinds.nearest_content: named ``content``,
    or holding the balance file, a copy of it); else, for a file of the
    workspace, the workspace's own ``content`` folder when it has one; else the file
    alone (``path`` itself) — never a folder that merely holds it (a scratch folder, the
    home folder, the root of the disk)."""
    nearest = kinds.nearest_content(path)
    if nearest is not None:
        return nearest
    if workspace is not None and workspace in path.parents \
            and (workspace / CONTENT_NAME).is_dir():
        return workspace / CONTENT_NAME
    return path


#: The page fields other files' checks read (a generation filter names a 出自; a deck's
#: copies are bounded by 上限枚数). The kinds whose ids other files name are ``lent``
#: (contract.kinds).
_LENT_FIELDS = ("origin", "deck_cap")


def interface(result: Result | None, path: str) -> frozenset | None:
    """What the file ``path`` lends the other files of its folder, as the check ``result``
    read it (as the document or as context): its items' kinds and ids, its pages' lent
    fields, its journey items' fields and its balance's settings as written. None when
    the check did not read the file. Where things stand in the file is no part of it: an edit that only moves them
    changes nothing for the others."""
    if result is None or result.compilation is None:
        return None
    source = next((s for s in result.compilation.sources if s.path == path), None)
    if source is None:
        return None
    if source.parsed is None:
        return frozenset()
    lines = (source.text or "").split("\n")
    lent = set()
    for index, item in enumerate(source.parsed.file.items):
        kind = kinds.of(item)
        if kind.lent:
            lent.add((kind.code, item.id.text))
        if isinstance(item, ast.Page):
            lent.update((f.key, item.id.text, _written(lines, f.span))
                        for f in item.fields if f.key in _LENT_FIELDS)
        if isinstance(item, ast.JourneyItem):
            # a journey item is read by the others whole: a variant's 元 names a set-up and
            # inherits its fields, a set-up's 鍵の種類 checks every イベント's 鍵
            lent.add(("journey", item.kind, item.id.text))
            lent.update(("journey", item.id.text, _written(lines, f.span)) for f in item.fields)
        if isinstance(item, ast.Balance):
            lent.update(("balance", index, _written(lines, setting.span))
                        for setting in item.settings)
            lent.add(("balance", index, len(item.rewards)))
    return frozenset(lent)


def _written(lines: list[str], span) -> str:
    """The text of a span as the file holds it."""
    if span.line == span.end_line:
        return lines[span.line - 1][span.col - 1:span.end_col - 1]
    return "\n".join([lines[span.line - 1][span.col - 1:], *lines[span.line:span.end_line - 1],
                      lines[span.end_line - 1][:span.end_col - 1]])


class Folder:
    """One content folder (or one loose file, checked alone): the text of each of its
    files (disk, or the open document), the last check of a document, and the last
    checked page and enemy of each id."""

    def __init__(self, root: Path, alone: bool = False):
        self.root = root
        self.alone = alone  # ``root`` is one file, never walked (even a folder named so)
        self.texts: dict[str, str] = {}
        self.open: set[str] = set()  # the files whose text is the editor's
        #: The files that kept changing while they were read: their text is unknown.
        self.unsettled: set[str] = set()
        self._stamps: dict[str, tuple] = {}  # path → the stamp of the text read from disk
        self._found: list[str] = []  # the files the last walk found, in order
        self.results: dict[str, Result] = {}  # path → its last check
        self.latest: Result | None = None  # the last check of any document here
        self.pages: dict[str, object] = {}  # id → contract.tables.Page, last without errors
        self.enemies: dict[str, object] = {}  # id → contract.tables.Enemy, likewise
        self.balance = None  # contract.tables.Balance, last without errors
        self.triggers = Triggers()  # the trigger graph of the pages, enemies and balance
        self.runs = Runs()  # the last outcome of each example run from the editor
        self._prepared: dict[str, tuple] = {}  # path → (text, prepared text, problems)
        self._parsed: dict[str, tuple] = {}  # path → (prepared text, its ParseResult)
        self._lines: dict[str, tuple] = {}  # path → (text, its lines): ``lines``
        self.refresh()

    def refresh(self, walk: bool = True) -> bool:
        """Read again each file of the folder whose stamp changed (modification time, size,
        inode), as compiler.read.read reads it; when ``walk``, find the files again first
        (compiler.read.discover: a walk of the folder, the costlier part) — else the files
        found last, a file gone among them. The open documents keep the editor's text.
        True when a text changed, a file came or went — then the next check checks every
        file (what a hover shows of the pages and enemies is read again)."""
        if walk:
            self._found = [str(self.root)] if self.alone else \
                [str(found) for found in discover([self.root])]
        texts: dict[str, str] = {}
        stamps: dict[str, tuple] = {}
        unsettled: set[str] = set()
        for name in self._found:
            found = Path(name)
            if name in self.open:
                texts[name] = self.texts[name]
                continue
            stamp = _stamp(found)
            if stamp is None:  # gone since it was found
                continue
            if stamp != self._stamps.get(name):
                text, stamp = _settled(found)
                if stamp is None:
                    unsettled.add(name)
                    continue
            else:  # unchanged: its text as read (none when it is no content)
                text = self.texts.get(name)
            if time.time_ns() - stamp[0] > RECENT_NS:
                stamps[name] = stamp
            if text is not None:
                texts[name] = text
        # an open document that is no file of the folder (a deck kept beside content/)
        texts.update((name, self.texts[name]) for name in self.open if name not in texts)
        changed = texts != self.texts or list(texts) != list(self.texts)
        self.texts, self._stamps, self.unsettled = texts, stamps, unsettled
        if changed:
            self.latest = None
        return changed

    def check(self, path: str, text: str) -> Result:
        """Check the document ``path`` as ``text``, against the names of every file of the
        folder. The folder's first check checks every file (the pages and enemies a hover
        shows); the later ones check only the document's items — what the others define
        is read from their parses, kept in memory while their text stays the same, so an
        edit costs its own file, not the folder."""
        self.texts[path] = text
        self.open.add(path)
        result, _ = self._run(path, partial=self.latest is not None)
        self.results[path] = result
        self.latest = result
        self.pages.update((p.id, p) for p in result.model.pages if p is not None)
        self.enemies.update((e.id, e) for e in result.model.enemies if e is not None)
        self.balance = result.model.balance or self.balance
        return result

    def outline(self) -> Result | None:
        """A check that read every file of the folder as it stands, for what lists them
        all (the editor's workspace symbols): the last check of a document, or — when no
        document was checked since the folder changed, or none is open — a check of one
        of its files, kept as the last (None: the folder holds no file)."""
        if self.latest is None and self.texts:
            path = next(iter(self.open), None) or next(iter(self.texts))
            self.latest, _ = self._run(path, partial=False)
        return self.latest

    def trigger_graph(self):
        """The trigger graph (analysis.graph) of the last checked pages, enemies and
        balance: built again only when one of them changed since the last one asked."""
        return self.triggers.graph(self.pages, self.enemies, self.balance)

    def full(self, path: str) -> tuple[Result, list[dict]]:
        """The document ``path`` with every file of the folder checked, as ``jibunki lint``
        checks them, and lowered into tables when none has an error (what an example is
        played on); with the examples that check found, as the runner plays them
        (scenario.stage.examples_of: checked once, their diagnostics in the result's)."""
        self.refresh()  # as lint reads the folder now
        return self._run(path, partial=False)

    def _run(self, path: str, partial: bool) -> tuple[Result, list[dict]]:
        """compiler.lint.check_text of the document with the other files as context, and
        the examples of the run; when ``partial``, only the document's items are checked
        and the unchanged files' parses are reused (their diagnostics are not the
        document's, and nothing is lowered)."""
        diagnostics: list = []
        sources: list[Source] = []
        shown: dict[str, str] = {}
        order = [path, *(other for other in self.texts if other != path)]
        for name in order:
            prepared, problems = self._prepare(name)
            report = name == path
            if report:
                diagnostics.extend(problems)
            source = Source(name, None if problems else prepared, report=report)
            kept = self._parsed.get(name)
            if partial and not report and kept is not None and kept[0] is prepared:
                source.parsed = kept[1]
            sources.append(source)
            shown[name] = prepared
        compilation = run(Compilation(sources, diagnostics, {path},
                                      checked={path} if partial else None))
        # the examples checked (not played) as lint checks them: an unknown enemy, a
        # quantity an expectation cannot read … (scenario.stage)
        specs, found = examples_of(compilation)
        compilation.diagnostics.extend(found)
        for source in compilation.sources:
            if source.parsed is not None:
                self._parsed[source.path] = (source.text, source.parsed)
        return result_of(compilation, shown, 1), specs

    def _prepare(self, name: str):
        """compiler.read.prepare of a file's text, kept while the text stays the same."""
        raw = self.texts[name]
        kept = self._prepared.get(name)
        if kept is None or kept[0] is not raw and kept[0] != raw:
            kept = (raw, *prepare(raw, name))
            self._prepared[name] = kept
        return kept[1], kept[2]

    def closed(self, path: str) -> bool:
        """The document was closed: its file's text is the one on disk again (none when
        it is no file of the folder). True when a text changed (``refresh``)."""
        self.results.pop(path, None)
        self.open.discard(path)
        self._stamps.pop(path, None)
        return self.refresh()

    def lines(self, path: str) -> list[str]:
        """The lines of a file of the folder as last seen (empty when unknown), broken where
        the check breaks them (compiler.read.prepare) and LSP positions do: at "\n",
        "\r\n" and a lone "\r" (a file of an old Mac)."""
        text = self.texts.get(path, "")
        kept = self._lines.get(path)
        if kept is None or kept[0] is not text:  # a range asks for them each: split once
            kept = self._lines[path] = (text, _LINE_BREAK.split(text))
        return kept[1]


class Folders:
    """Every content folder the open documents belong to, each read once."""

    def __init__(self):
        self.workspace: Path | None = None
        self._folders: dict[Path, Folder] = {}

    def of(self, path: Path) -> Folder:
        """The folder of a document (read from disk the first time it is asked for)."""
        root = content_root(path, self.workspace)
        if root not in self._folders:
            self._folders[root] = Folder(root, alone=root == path)
        return self._folders[root]

    def all(self) -> list[Folder]:
        """Every folder read so far."""
        return list(self._folders.values())


def _stamp(path: Path) -> tuple | None:
    """What tells a file's text changed without reading it: its modification time (ns),
    size and inode; None when it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def _settled(path: Path) -> tuple[str | None, tuple | None]:
    """The text of a file (compiler.read.read: None when it cannot be read or is not
    content) with its stamp, from a read during which the stamp stayed the same; no stamp
    when it changed during every try."""
    for _ in range(READ_TRIES):
        before = _stamp(path)
        text, _problems = read(path, str(path))
        if before is not None and _stamp(path) == before:
            return text, before
    return None, None
