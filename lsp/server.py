"""The pygls server: LSP messages ↔ lsp.folder (what is checked) and lsp.features (answers).

Diagnostics are published on didOpen and didChange for the edited document, and for the
other open documents of its content folder when the edit changed what names resolve to
(lsp.folder.interface); the other files are context, in memory, read again when they
change on disk (stat-checked before each check and answer; didSave and the file watcher
the server registers after initialized: every open document of the folder checked
again). Spans are 1-based with an exclusive end in code points; LSP positions are 0-based in the client's units (UTF-16
unless the client chose another encoding), converted here with the file's own lines.
"""

from __future__ import annotations

import asyncio
import logging
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

import compiler.codes
from compiler.lint import Result
from compiler.read import CONTENT_SUFFIXES
from dsl import size
from dsl.diagnostics import ERROR, HINT_WORD, Span
from dsl.parser import invisible_name

from contract import kinds
from contract.kinds import CONTENT_NAME
from contract.vocabulary import W

from . import analysis, editor_runs, examples, features, journey_lens, lab_lens, triggers
from .completion import completions
from .folder import Folder, Folders, interface
from .texts import shown_at, texts_digest
from .pending import Pending
from .protocol import JibunkiProtocol, Refusal

__all__ = ["JibunkiServer", "main", "make_server"]

logger = logging.getLogger(__name__)

#: The LSP kind of each completion candidate (lsp.features); a document symbol's is its item
#: kind's (contract.kinds).
COMPLETION_KINDS = {
    "keyword": types.CompletionItemKind.Keyword,
    "operator": types.CompletionItemKind.Operator,
    "variable": types.CompletionItemKind.Variable,
    "timing": types.CompletionItemKind.Event,
    "scope": types.CompletionItemKind.EnumMember,
    "term": types.CompletionItemKind.EnumMember,
    "field": types.CompletionItemKind.Field,
    "page": types.CompletionItemKind.Reference,
    "enemy": types.CompletionItemKind.Class,
}
#: The title of a quick fix that writes a diagnostic's replacement, by code (the others:
#: DEFAULT_FIX_TITLE).
FIX_TITLES = {
    "E002": "半角の「{}」にする",
    "E021": "スコープ添字を付けて「{}」にする",
}
DEFAULT_FIX_TITLE = "「{}」にする"
#: The title of a fix whose replacement is empty: it deletes what the diagnostic points
#: at (a zero-width space, a stray 「}」), whatever its code.
DELETE_FIX_TITLE = "「{}」を消す"
#: What a code action reads of the client's data, at most: the diagnostics of the request
#: and the replacements of each (the server's own carry a handful; more is forged).
MAX_FIX_DIAGNOSTICS = 200
MAX_FIXES = 10
#: Characters that open a completion by themselves: a scope subscript, a flag.
TRIGGERS = ["[", "@"]
#: The explanation pages of the codes (compiler.codes.explanation reads them).
EXPLAIN_DIR = Path(compiler.codes.__file__).parent / "explain"


class JibunkiServer(LanguageServer):
    """The language server: pygls plus the content folders of the open documents."""

    def __init__(self):
        try:
            release = version("jibunki")
        except PackageNotFoundError:
            release = "0"
        super().__init__("jibunki", release, protocol_cls=JibunkiProtocol)
        self.folders = Folders()
        self.pending = Pending(self.check_if_open)  # didChange's checks, after a pause
        self.lab_runs = lab_lens.Runs()  # the pages' verdicts: editor runs, reports read
        self.journey_reports = journey_lens.Reports()  # the set-ups' verdicts, reports read
        #: URI → the analysis' diagnostics (W006, W010 …) last published for it: they read
        #: every page, so an edit elsewhere may change them (``check``).
        self.analysed: dict[str, tuple] = {}

    def report_server_error(self, error: Exception, source) -> None:
        """A failure outside a request's answer (a notification's handler, a message that
        could not be sent) goes to the log — stderr and window/logMessage — never to a
        popup: it is the server's bug, not something the designer can act on."""
        logger.error("%s: %s", getattr(source, "__name__", source), error)
        self.window_log_message(types.LogMessageParams(
            types.MessageType.Error, f"jibunki の言語サーバーの内部エラー: {error}"))

    def not_formatted(self, errors: list) -> None:
        """Why Format Document changed nothing, in the log (window/logMessage), as ``jibunki
        fmt`` says it: never a popup — an editor that formats on save would raise one at
        every save of a file being fixed, whose errors its diagnostics already show."""
        first = f"（{errors[0].span.line} 行目 {errors[0].code}）" if errors else ""
        self.window_log_message(types.LogMessageParams(
            types.MessageType.Info, f"エラーがあるので整形しませんでした{first}"))

    def is_open(self, uri: str) -> bool:
        """Whether the client opened ``uri``: only open documents are read or checked (a
        forged URI — a device, a folder, a file never opened — is answered with nothing)."""
        return self.protocol.is_open(uri)

    def last_check(self, uri: str) -> tuple[Folder, str, Result] | None:
        """The open document ``uri``'s folder, path and last check (None: not open, or not
        checked yet)."""
        if not self.is_open(uri):
            return None
        path = _path(uri)
        folder = self.folders.of(Path(path))
        result = folder.results.get(path)
        return None if result is None else (folder, path, result)

    def open_paths(self) -> set[str]:
        """The paths of the open documents."""
        return {_path(document.uri) for document in self.workspace.text_documents.values()}

    def refresh_lenses(self) -> None:
        """Ask the client to draw its code lenses again, when it can be asked."""
        workspace = self.client_capabilities.workspace
        lens = workspace.code_lens if workspace is not None else None
        if lens is not None and lens.refresh_support:
            self.workspace_code_lens_refresh(None)

    def check_if_open(self, uri: str) -> None:
        """``check``, unless the document was closed while its check waited."""
        if self.is_open(uri):
            self.check(uri)

    # ------------------------------------------------------------ positions

    def _units(self, text: str) -> int:
        """The length of ``text`` in the client's position units."""
        encoding = self.server_capabilities.position_encoding
        if encoding == types.PositionEncodingKind.Utf32:
            return len(text)
        if encoding == types.PositionEncodingKind.Utf8:
            return len(text.encode("utf-8"))
        return len(text.encode("utf-16-le")) // 2

    def position(self, lines: list[str], line: int, col: int) -> types.Position:
        """A 1-based line and code-point column of a span as an LSP position."""
        row = max(line - 1, 0)
        text = lines[row] if row < len(lines) else ""
        return types.Position(row, self._units(text[:max(col - 1, 0)]))

    def range_of(self, span: Span, folder: Folder) -> types.Range:
        """A span (1-based, end exclusive, code points) as an LSP range."""
        lines = folder.lines(span.path)
        return types.Range(self.position(lines, span.line, span.col),
                           self.position(lines, span.end_line, span.end_col))

    def location(self, span: Span, folder: Folder) -> types.Location:
        """A span as an LSP location (its file's URI and range)."""
        return types.Location(from_fs_path(span.path), self.range_of(span, folder))

    def at(self, uri: str, position: types.Position, walk: bool = False):
        """The document at ``uri``: its folder, path, last check, the line under
        ``position`` and the code-point column (None when it is not open or was never
        checked). A pending check of the document runs first (lsp.pending), and the check
        is made again when a file of the folder changed on disk (``walk``: or came;
        lsp.folder.Folder.refresh) or an open document's change is not checked yet: an
        answer is computed from the texts as they are."""
        if not self.is_open(uri):
            return None
        self.pending.flush(uri)
        path = _path(uri)
        folder = self.folders.of(Path(path))
        if path not in folder.results:
            return None
        moved = folder.refresh(walk)
        if self.behind(folder) or moved:
            self.check(uri, moved)
        result = folder.results[path]
        document = self.workspace.get_text_document(uri)
        where = document.position_from_client_units(position)
        lines = document.lines
        line = lines[where.line].rstrip("\r\n") if where.line < len(lines) else ""
        return folder, path, result, line, where.line, where.character

    # ------------------------------------------------------------ the lab

    def lab_action(self, uri: str, position: types.Position) -> list[types.Command]:
        """「この ページで実験」 for the page whose definition holds ``position``: a bare
        command (a code action may be one), which every client reads as such."""
        if not self.is_open(uri):
            return []
        path = _path(uri)
        folder = self.folders.of(Path(path))
        result = folder.results.get(path)
        document = self.workspace.get_text_document(uri)
        line = document.position_from_client_units(position).line
        page = lab_lens.page_at(result, path, line) if result is not None else None
        if page is not None:
            return [types.Command(lab_lens.RUN_TITLE, lab_lens.COMMAND,
                                  arguments=[uri, page.id.text])]
        setup = journey_lens.setup_at(result, path, line) if result is not None else None
        if setup is not None:
            return [types.Command(journey_lens.RUN_TITLE, journey_lens.COMMAND,
                                  arguments=[uri, setup.id.text])]
        return []

    def _cancel_with_request(self, task: asyncio.Task, cancelled) -> None:
        """Cancel ``task`` (a command's run) when the request it answers is cancelled
        ($/cancelRequest, or shutdown), and call ``cancelled()`` then: pygls runs a
        command's coroutine as a task of its own and cancels only the request's future,
        which would leave the run going. ``cancelled`` runs at once, not when the task
        has unwound (its process ended), so a request read in between sees the run
        cancelled."""
        request = self.protocol.current_request()

        def done(future) -> None:
            if future.cancelled():
                task.cancel()
                cancelled()

        if request is not None:
            request.add_done_callback(done)

    async def run_page_lab(self, uri: str, page: str) -> dict | None:
        """See ``make_server``'s ``run_page_lab``."""
        if not self.is_open(uri) or not isinstance(page, str):
            return None
        path = _path(uri)
        folder = self.folders.of(Path(path))
        if path not in folder.results:
            return None
        result, _ = folder.full(path)  # every file checked and lowered: the lab's tables
        item = lab_lens.page_named(result, path, page)
        if item is None:
            return None

        async def measure() -> tuple[str | None, dict | None, str]:
            row, why = await lab_lens.run_page(result.tables, page)
            return (None if row is None else lab_lens.summary(row)), row, why

        return await self._measure(
            "page", page, (str(folder.root), page), self.lab_runs.last, lab_lens.WORDS,
            lab_lens.digest(folder.lines(path), item), result,
            None if result.tables else "バランスがありません", measure)

    async def run_setup_report(self, uri: str, setup: str, settings=None) -> dict | None:
        """See ``make_server``'s ``run_setup_report``."""
        if not self.is_open(uri) or not isinstance(setup, str):
            return None
        path = _path(uri)
        folder = self.folders.of(Path(path))
        if path not in folder.results:
            return None
        result, _ = folder.full(path)  # every file checked: the journey's table
        if not any(s.id.text == setup for s in journey_lens.setups_of(result, path)):
            return None
        table = result.model.journey

        async def measure() -> tuple[str | None, dict | None, str]:
            from contract.codec import to_literal

            title, why = await journey_lens.run_setup(to_literal(table), setup, settings)
            return title, None, why

        return await self._measure(
            "setup", setup, (str(folder.root), setup), self.journey_reports.last,
            journey_lens.WORDS, journey_lens.journey_digest(result), result,
            None if table is not None else "旅の表がありません", measure)

    async def _measure(self, kind: str, name: str, key: tuple, runs: dict, words,
                       digest: str, result, lacking: str | None, measure) -> dict:
        """An editor run (lsp.editor_runs) of the ``kind`` (page, setup) named ``name``,
        kept in ``runs`` under ``key``: one at a time; refused, and said why, while the
        folder has an error (or ``lacking`` says what it lacks); else ``measure()`` —
        (verdict, figures, why not) — awaited, its lens saying ``words.running`` meanwhile,
        cancelled with its request (the lens's verdict before comes back). Lenses are drawn
        again at each change; a refusal is also shown to the designer. The outcome as
        data."""
        last = runs.get(key)
        if last is not None and last.state == "running":
            return {"state": "running", "message": words.busy}
        errors = [d for d in result.compilation.diagnostics if d.is_error]
        if errors or lacking is not None:
            first = min(errors, key=lambda d: d.sort_key()) if errors else None
            why = f"{shown_at(first.span)}: {first.message}" if first else lacking
            run = editor_runs.Run("blocked", digest, message=f"コンテンツにエラーがあります（{why}）",
                                  texts=texts_digest(result.sources))
        else:
            runs[key] = editor_runs.Run("running", digest)
            self.refresh_lenses()

            def cancelled() -> None:  # by the editor: the verdict it had before, or none
                if last is None:
                    runs.pop(key, None)
                else:
                    runs[key] = last
                self.refresh_lenses()

            self._cancel_with_request(asyncio.current_task(), cancelled)
            try:
                verdict, row, why = await measure()
            except Exception as exc:  # a bug of the server's side: said, never a traceback
                logger.exception("%s の測定が失敗しました", name)
                verdict, row, why = None, None, f"jibunki の内部エラー: {exc}"
            run = editor_runs.Run("done", digest, verdict=verdict, row=row) \
                if verdict is not None else editor_runs.Run("blocked", digest, message=why)
        runs[key] = run
        self.refresh_lenses()
        if run.state == "blocked":
            said = words.blocked.format(message=run.message)
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Warning, f"{name}: {said}"))
            return {"state": "blocked", kind: name, "message": run.message}
        return {"state": "done", kind: name, "summary": run.verdict,
                **({"row": run.row} if run.row is not None else {})}

    # ------------------------------------------------------------ diagnostics

    def check(self, uri: str, moved: bool = False) -> None:
        """Check the document again and publish its diagnostics, its folder's other files
        as they are on disk now (lsp.folder.Folder.refresh); when one of them changed
        there (``moved``: or before this call), or the edit changed what the document lends
        the others (lsp.folder.interface: an id renamed or removed …), check the other
        open documents of its folder again too."""
        path = _path(uri)
        folder = self.folders.of(Path(path))
        moved = folder.refresh(walk=False) or moved
        before = interface(folder.latest, path)
        self.publish(uri, path, folder)
        # A file the last check did not read (new, and only in the editor yet) lends what
        # it defines as much as an edited one does: the deck that named its page waits.
        if moved or (before or frozenset()) != (interface(folder.latest, path) or frozenset()):
            for other, other_path in self.others(path, folder):
                self.publish(other, other_path, folder)
            return
        # The whole content's findings (W010's stronger page, W006's loop …) of another
        # document may follow from a 作用 edited here: it is published again when they
        # change, from its last check (its own text has not).
        for other, other_path in self.others(path, folder):
            result = folder.results.get(other_path)
            if other in self.analysed and result is not None and tuple(analysis.diagnostics(
                    folder, other_path, result, whole=True)) != self.analysed[other]:
                self.publish(other, other_path, folder)

    def behind(self, folder: Folder) -> bool:
        """Give ``folder`` the editor's text of each of its open documents (one whose
        change is not checked yet); True when one differed."""
        behind = False
        for uri, path in self.opened(folder):
            text = self.workspace.get_text_document(uri).source
            if folder.texts.get(path) != text:
                folder.texts[path] = text
                behind = True
        return behind

    def reread(self) -> None:
        """Files changed on disk (the client's file watcher, a save): each folder of an open
        document, or that the workspace symbols read, reads them again, and where one
        changed, its open documents are checked again (what `jibunki lint` would say now)."""
        for folder in self.folders.all():
            if (folder.results or folder.latest is not None) and folder.refresh():
                for uri, path in self.opened(folder):
                    self.publish(uri, path, folder)

    def watch(self) -> None:
        """Ask the client to report changes of content files on disk
        (workspace/didChangeWatchedFiles), when it lets a server register for them."""
        workspace = self.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        self.client_register_capability(types.RegistrationParams(registrations=[
            types.Registration(
                id="jibunki-content-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    types.FileSystemWatcher(glob_pattern=f"**/*{suffix}")
                    for suffix in CONTENT_SUFFIXES]))]))

    def closed(self, uri: str) -> None:
        """The document was closed: its diagnostics are cleared and its file is read from
        disk again — when a text of the folder differs there (an id renamed and not saved,
        a file changed on disk), the other open documents of its folder are checked again."""
        path = _path(uri)
        folder = self.folders.of(Path(path))
        moved = folder.closed(path)
        self.analysed.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[]))
        if moved:
            for other, other_path in self.others(path, folder):
                self.publish(other, other_path, folder)

    def others(self, path: str, folder: Folder) -> list[tuple[str, str]]:
        """(URI, path) of every other open document of ``folder`` the server has checked."""
        return [(uri, other) for uri, other in self.opened(folder) if other != path]

    def opened(self, folder: Folder) -> list[tuple[str, str]]:
        """(URI, path) of every open document of ``folder`` the server has checked. The URI
        is the one the client opened the document with: the workspace keys its documents
        unquoted (手札の変種.journey, not %E6%89%8B…), and a client that keys diagnostics by
        the URI it sent would keep the old ones under its own."""
        found = []
        for key, document in list(self.workspace.text_documents.items()):
            path = _path(key)
            if path in folder.results and self.folders.of(Path(path)) is folder:
                found.append((document.uri, path))
        return found

    def publish(self, uri: str, path: str, folder: Folder) -> None:
        """Check the open document ``uri`` and publish its diagnostics. A document larger
        than lint reads (dsl.size) is not checked: its one diagnostic says so."""
        document = self.workspace.get_text_document(uri)
        too_large = size.too_many_bytes(len(document.source.encode("utf-8", "surrogatepass")),
                                        path)
        if too_large:
            found = [too_large]
        else:
            result = folder.check(path, document.source)
            # an edit checks the document's items only: the analysis of the whole content
            # (W006, W009 …) is added here (lsp/analysis.py)
            shown, self.analysed[uri] = analysis.both(folder, path, result)
            found = _undecoded(path, document.source) + result.diagnostics + shown
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[self.diagnostic(d, folder) for d in found]))

    def diagnostic(self, diag, folder: Folder) -> types.Diagnostic:
        """A compiler diagnostic as an LSP one: code, severity, message and hint, range,
        notes as related information, and a link to the code's explanation."""
        related, remarks = [], []
        for note in diag.notes:
            if note.span is not None:
                related.append(types.DiagnosticRelatedInformation(
                    self.location(note.span, folder), note.message))
            else:
                remarks.append(note.message)
        page = EXPLAIN_DIR / f"{diag.code}.md"
        return types.Diagnostic(
            range=self.range_of(diag.span, folder),
            message="\n".join([diag.message, f"{HINT_WORD}: {diag.hint}", *remarks]),
            severity=(types.DiagnosticSeverity.Error if diag.severity == ERROR
                      else types.DiagnosticSeverity.Warning),
            code=diag.code,
            code_description=(types.CodeDescription(href=page.as_uri()) if page.exists()
                              else None),
            source="jibunki",
            related_information=related or None,
            data={"code": diag.code, "explain": f"jibunki explain {diag.code}",
                  "replacements": list(diag.replacements)},
        )


def _offset(document, position: types.Position) -> int:
    """The code-point offset in ``document`` of an LSP ``position`` (client units)."""
    where = document.position_from_client_units(position)
    lines = document.lines
    before = sum(len(line) for line in lines[:where.line])
    line = lines[where.line] if where.line < len(lines) else ""
    return before + min(where.character, len(line.rstrip("\r\n")))


def _text_at(ls, uri: str, span: types.Range) -> str:
    """The text of document ``uri`` within ``span`` (client units)."""
    document = ls.workspace.get_text_document(uri)
    return document.source[_offset(document, span.start):_offset(document, span.end)]


def _visible(text: str) -> str:
    """What a fix deletes, as its title can show it: a character the eye cannot see by
    the name its E002 gives it (ゼロ幅スペース: dsl.parser.invisible_name), the rest as
    written."""
    return "".join(invisible_name(ch) or ch for ch in text) or "空白"


def _path(uri: str) -> str:
    return str(Path(to_fs_path(uri) or uri).resolve())


def make_server() -> JibunkiServer:
    """The server with every feature registered (built when asked: nothing at import)."""
    server = JibunkiServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: JibunkiServer, params: types.InitializedParams) -> None:
        root = ls.workspace.root_path
        ls.folders.workspace = Path(root).resolve() if root else None
        ls.watch()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: JibunkiServer,
                                 params: types.DidChangeWatchedFilesParams) -> None:
        ls.reread()

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: JibunkiServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.reread()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JibunkiServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JibunkiServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.pending.later(params.text_document.uri)  # lsp.pending: checked after a pause

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JibunkiServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.pending.cancel(params.text_document.uri)
        ls.closed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: JibunkiServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        folder, path, result, line, row, col = found
        # A line with an error is not what the graph was built from (that is the last
        # version without one): what it sets off is not said rather than said wrong.
        broken = any(d.is_error and d.span.path == path and d.span.line - 1 <= row
                     <= d.span.end_line - 1 for d in result.diagnostics)
        said = None if broken else \
            triggers.markdown(folder.trigger_graph(), triggers.written_in(result, path), row)
        text = features.hover(line, row, col, folder.latest or result, folder.pages,
                              folder.enemies, result.diagnostics, said)
        if text is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(
        trigger_characters=TRIGGERS, resolve_provider=True))
    def completion(ls: JibunkiServer, params: types.CompletionParams) -> types.CompletionList:
        if not ls.is_open(params.text_document.uri):
            return types.CompletionList(is_incomplete=False, items=[])
        path = _path(params.text_document.uri)
        folder = ls.folders.of(Path(path))
        # the position in the editor's text as it is now, not as it was last checked
        document = ls.workspace.get_text_document(params.text_document.uri)
        offset = _offset(document, params.position)
        items = [types.CompletionItem(
            label=c.label, kind=COMPLETION_KINDS[c.kind], detail=c.detail,
            documentation=(types.MarkupContent(types.MarkupKind.Markdown, c.documentation)
                           if c.documentation else None),
            data=None if c.documentation else {"kind": c.kind, "path": path})
            for c in completions(document.source, offset, folder.latest, folder.pages,
                                 folder.enemies)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    def completion_resolve(ls: JibunkiServer, item: types.CompletionItem) -> types.CompletionItem:
        """A page's or an enemy's candidate with its documentation: its rules text. The
        path in its data must be an open document's (the one ``completion`` put there):
        any other is forged, and no folder is read for it."""
        data = item.data if isinstance(item.data, dict) else {}
        if item.documentation is None and isinstance(data.get("path"), str) \
                and data["path"] in ls.open_paths():
            folder = ls.folders.of(Path(data["path"]))
            text = features.documentation(str(data.get("kind")), item.label, folder.pages,
                                          folder.enemies)
            if text:
                item.documentation = types.MarkupContent(types.MarkupKind.Markdown, text)
        return item

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: JibunkiServer, params: types.DefinitionParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        folder, _, result, line, _, col = found
        return [ls.location(span, folder)
                for span in features.definition(line, col, folder.latest or result)]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: JibunkiServer, params: types.ReferenceParams) -> list[types.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        folder, _, result, line, _, col = found
        spans = features.references(line, col, folder.latest or result,
                                    params.context.include_declaration)
        return [ls.location(span, folder) for span in spans]

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: JibunkiServer,
                   params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        """jibunki fmt's layout of the document (dsl.formatter), as one edit of the whole
        text; nothing for a document with errors — any error its check reports, as
        ``jibunki fmt`` leaves such a file alone — or too large to format (the formatter
        refuses what lint refuses by size), nor for a URI that is not an open document (a
        device, a file never opened: nothing is read)."""
        from dsl.formatter import FormatterBug, as_written, format_text

        if not ls.is_open(params.text_document.uri):
            return None
        found = ls.at(params.text_document.uri, types.Position(0, 0))  # checked as it is now
        errors = [] if found is None else [d for d in found[2].diagnostics
                                           if d.is_error and d.span.path == found[1]]
        if errors:
            ls.not_formatted(errors)
            return []
        document = ls.workspace.get_text_document(params.text_document.uri)
        try:
            formatted = format_text(document.source, _path(params.text_document.uri))
        except FormatterBug:
            return None
        if not formatted.ok:
            ls.not_formatted([d for d in formatted.diagnostics if d.is_error])
            return []
        # the document's own line ends and BOM, as jibunki fmt keeps a file's
        text = as_written(formatted.text, document.source)
        if text == document.source:
            return []
        lines = document.source.split("\n")
        end = types.Position(len(lines) - 1, ls._units(lines[-1]))
        return [types.TextEdit(types.Range(types.Position(0, 0), end), text)]

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(ls: JibunkiServer,
                    params: types.CodeActionParams) -> list[types.CodeAction | types.Command]:
        """Quick fixes: each replacement a diagnostic carries (its data, from
        dsl.diagnostics.Diagnostic.replacements) written over its range, the first one
        preferred — the half-width symbol of a full-width slip (E002), a did-you-mean
        (E001, E010, E011, E057), the counter with each scope it may take (E021). Inside a
        page's definition, where the client names no diagnostic: 「この ページで実験」
        (lsp.lab_lens); inside a 旅の準備's, 「この 準備で測る」 (lsp.journey_lens)."""
        actions = []
        for diag in params.context.diagnostics[:MAX_FIX_DIAGNOSTICS]:
            data = diag.data if isinstance(diag.data, dict) else {}
            replacements = data.get("replacements")
            if not isinstance(replacements, list):
                continue
            title = FIX_TITLES.get(str(diag.code), DEFAULT_FIX_TITLE)
            fixes = [r for r in replacements[:MAX_FIXES] if isinstance(r, str)]
            diag.data = {**data, "replacements": fixes}  # echoed with each action: bounded
            for rank, text in enumerate(fixes):
                shown = title.format(text) if text else \
                    DELETE_FIX_TITLE.format(_visible(_text_at(ls, params.text_document.uri, diag.range)))
                actions.append(types.CodeAction(
                    title=shown, kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diag], is_preferred=rank == 0,
                    edit=types.WorkspaceEdit(changes={params.text_document.uri: [
                        types.TextEdit(diag.range, text)]})))
        # a place with a problem gets its fixes only: the lab refuses content with errors
        only = params.context.only
        if not params.context.diagnostics and (not only or types.CodeActionKind.Empty in only):
            actions += ls.lab_action(params.text_document.uri, params.range.start)
        return actions

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: JibunkiServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        """A lens over each 例 of the document: run it (lsp.examples), titled with its last
        outcome; over each page with a verdict, that verdict (lsp.lab_lens); and over each
        旅の準備 with a verdict (an editor run, or the journey report), that verdict
        (lsp.journey_lens); each lens runs its measure again."""
        uri = params.text_document.uri
        if not ls.is_open(uri):
            return []
        path = _path(uri)
        folder = ls.folders.of(Path(path))
        result = folder.results.get(path)
        if result is None:
            return []
        found = [types.CodeLens(
            range=types.Range(types.Position(lens.line, 0), types.Position(lens.line, 0)),
            command=types.Command(lens.title, examples.COMMAND, arguments=[uri, lens.line]))
            for lens in examples.lenses(result, path, folder.runs, texts_digest(folder.texts))]
        # the pages' last verdicts (lsp.lab_lens): none for a page never measured
        found += [types.CodeLens(
            range=types.Range(types.Position(lens.line, 0), types.Position(lens.line, 0)),
            command=types.Command(lens.title, lab_lens.COMMAND, arguments=[uri, lens.page]))
            for lens in lab_lens.lenses(result, path, folder.lines(path), folder.root,
                                        folder.alone, ls.lab_runs)]
        # the set-ups' last verdicts (lsp.journey_lens): none for a set-up never measured
        found += [types.CodeLens(
            range=types.Range(types.Position(lens.line, 0), types.Position(lens.line, 0)),
            command=types.Command(lens.title, journey_lens.COMMAND,
                                  arguments=[uri, lens.setup]))
            for lens in journey_lens.lenses(result, path, folder.lines(path), folder.root,
                                            folder.alone, ls.journey_reports)]
        return found

    @server.command(examples.COMMAND)
    def run_example(ls: JibunkiServer, uri: str, line: int) -> dict | None:
        """Play the example of ``uri`` starting on ``line`` (0-based), keep its outcome for
        its lens and ask the client to draw the lenses again; the outcome as data."""
        if not ls.is_open(uri):
            return None
        path = _path(uri)
        folder = ls.folders.of(Path(path))
        if path not in folder.results:
            return None
        # the whole folder checked and lowered: the example is played on its tables
        checked = folder.full(path)  # the folder's texts read now: what the run plays
        outcome = examples.run_example(*checked, path, line, folder.runs,
                                       texts_digest(folder.texts))
        if outcome is None:
            return None
        ls.refresh_lenses()
        return {"state": outcome.state, "line": outcome.line, "message": outcome.message,
                "failures": outcome.failures, "title": outcome.title()}

    @server.command(lab_lens.COMMAND)
    async def run_page_lab(ls: JibunkiServer, uri: str, page: str) -> dict | None:
        """Measure the page ``page`` of ``uri`` with the lab (lsp.lab_lens.run_page: a
        process of its own, awaited — the server answers meanwhile), on the tables of the
        folder as the editor has it; its lens says 実験中… until the verdict replaces it.
        The outcome as data; nothing for a document not open or a page it does not define."""
        return await ls.run_page_lab(uri, page)

    @server.command(journey_lens.COMMAND)
    async def run_setup_report(ls: JibunkiServer, uri: str, setup: str,
                               *settings) -> dict | None:
        """Measure the 旅の準備 ``setup`` of ``uri`` alone with the journey report
        (lsp.journey_lens.run_setup: a process of its own, awaited — the server answers
        meanwhile), on the journey table of the folder as the editor has it; its lens says
        測定中… until the verdict replaces it. ``settings``: the deals and the solver's
        positions, within the command line's bounds (anything else is not read). The
        outcome as data; nothing for a document not open or a set-up it does not define."""
        return await ls.run_setup_report(uri, setup, settings[0] if settings else None)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def rename(ls: JibunkiServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        """Rename a page, enemy or deck id everywhere the content folder names it (its
        definition included); a new name that is not an id, or already taken, is refused."""
        found = ls.at(params.text_document.uri, params.position, walk=True)
        if found is None:
            return None
        folder, _, result, line, _, col = found
        if folder.unsettled:  # their text is unknown: an edit there could land anywhere
            raise Refusal(f"{'、'.join(sorted(Path(p).name for p in folder.unsettled))} "
                          "が読むたびに変わっています。書き終わってから、もう一度名前を変えてください")
        latest = folder.latest or result
        spans = features.references(line, col, latest, include_declaration=True)
        if not spans:
            return None
        fixed = features.fixed_deck(line, col, latest)
        if fixed is not None:
            raise Refusal(f"デッキ「{fixed}」の id は変えられません（{W.scope.run}はこの id の"
                          "デッキで始まります。中のページは変えられます）")
        why = features.not_an_id(params.new_name)
        if why is not None:
            raise Refusal(f"「{params.new_name}」には変えられません（{why}）")
        if features.is_defined(params.new_name, latest):
            raise Refusal(f"「{params.new_name}」には変えられません（その id はもう使われています）")
        changes: dict[str, list[types.TextEdit]] = {}
        for span in spans:
            changes.setdefault(from_fs_path(span.path), []).append(
                types.TextEdit(ls.range_of(span, folder), params.new_name))
        if folder.refresh(walk=False):  # a file changed while the edits were computed
            raise Refusal("名前を変えている間にフォルダのファイルが変わりました。もう一度名前を変えてください")
        return types.WorkspaceEdit(changes=changes)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: JibunkiServer,
                        params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        found = ls.last_check(params.text_document.uri)
        if found is None:
            return []
        folder, path, result = found
        return [types.DocumentSymbol(
            name=s.name, detail=s.detail or None, kind=types.SymbolKind(kinds.by_keyword(s.kind).symbol),
            range=ls.range_of(s.span, folder), selection_range=ls.range_of(s.name_span, folder))
            for s in features.document_symbols(result, path)]

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    def inlay_hint(ls: JibunkiServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        """Beside the ids a デッキ or a 例 lists, the page's name and 銘 (the enemy's name):
        the designer knows the pages by their names and years (features.name_hints)."""
        found = ls.last_check(params.text_document.uri)
        if found is None:
            return []
        folder, path, result = found
        first, last = params.range.start.line, params.range.end.line
        return [types.InlayHint(position=ls.range_of(span, folder).end, label=label,
                                padding_left=True)
                for span, label in features.name_hints(result, path, folder.pages,
                                                       folder.enemies)
                if first <= span.end_line - 1 <= last]

    @server.feature(types.WORKSPACE_SYMBOL)
    def workspace_symbol(ls: JibunkiServer,
                         params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
        """Every page, enemy, deck, balance and example of the content folders open, whose
        id or display name holds the query: a page found by 終電 as by zangyou."""
        folders = ls.folders.all()
        workspace = ls.folders.workspace
        if not folders and workspace is not None:
            # nothing open yet: the workspace's own content folder, as lint would read it —
            # or the workspace itself, when it is one (the README opens content/ so)
            # (Folders.of takes a document: any path inside the folder names it)
            own = workspace if workspace.name == CONTENT_NAME else workspace / CONTENT_NAME
            if own.is_dir():
                folders = [ls.folders.of(own / "_")]
        found = []
        for folder in folders:
            result = folder.outline()
            if result is None:
                continue
            for s in features.workspace_symbols(result, params.query):
                found.append(types.SymbolInformation(
                    # the display name first: what the designer knows the page by
                    name=f"{s.detail} {s.name}" if s.detail and s.name != s.detail else s.name,
                    kind=types.SymbolKind(kinds.by_keyword(s.kind).symbol),
                    location=ls.location(s.name_span, folder),
                    container_name=_shown(s.span.path, folder)))
        return found

    return server


def _shown(path: str, folder: Folder) -> str:
    """A file as a symbol's container names it: relative to its content folder's parent
    (content/pages/壮年期.page), or its name when it lies elsewhere."""
    try:
        return str(Path(path).relative_to(folder.root.parent))
    except ValueError:
        return Path(path).name


def main() -> None:
    """Serve over stdio until the client says exit; exit 0 after a shutdown, else 1.

    The process ends at once when the serving has: by then the loop has finished every
    task (a lab run's process killed with its task), and the interpreter's own teardown —
    a quarter of a second, mostly lsprotocol's thousand classes — is a wait an editor
    would add to every restart of the server."""
    import os
    import sys

    from .protocol import FileDescriptor, run

    code = run(make_server(), FileDescriptor(sys.stdin.fileno()), sys.stdout.buffer)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the client closed its end: nothing more to say
            pass
    os._exit(code)


def _undecoded(path: str, text: str) -> list:
    """lint's E004 for a document whose file on disk is not UTF-8: the editor shows such a
    file with U+FFFD for the bytes it could not read, which checks clean (and a save would
    write the U+FFFD for good) while ``jibunki lint`` refuses the file."""
    if "\ufffd" not in text:
        return []
    from compiler.read import read

    on_disk = Path(path)
    if not on_disk.is_file():
        return []
    _, problems = read(on_disk, path)
    return [d for d in problems if d.code == "E004"]
