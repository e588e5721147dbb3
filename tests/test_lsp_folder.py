"""lsp.folder: after a folder's first check the server checks only the edited document's
items, reusing the other files' parses — the diagnostics must be exactly lint's (its
checks of the examples included; playing them is the code lens's). The folder is the disk
as it is: files changed behind the editor are read again before a check or a rename, and
found and read as the command line finds and reads them."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

from compiler.lint import check_text
from compiler.read import CONTENT_SUFFIXES
from conftest import LSP_SERVER, ROOT, invoke_cli
from lsp.folder import Folder, Folders, content_root, interface
from lsp.protocol import Refusal
from scenario.stage import examples_of
from test_lsp import _open, _replace, _start, _where

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("lsp_zygote")]

CONTENT = ROOT / "content"
FILES = sorted(str(p) for p in CONTENT.rglob("*") if p.is_file())

#: Edits a designer makes: a keyword typo, an unknown page, a removed id, a broken brace,
#: a counter without its scope, an example's unknown enemy, and nothing at all.
EDITS = [
    ("銘 ", "名 "), ("sakamichi", "sakamichu"), ("ページ ", "# ページ "), ("{", ""),
    ("[プレイ]", ""), ("敵 haguruma", "敵 hagurumaa"), ("", ""),
]


def _plain(result):
    return [(d.code, d.span, d.message, d.hint, d.replacements) for d in result.diagnostics]


@pytest.fixture(scope="module")
def folder():
    folder = Folder(CONTENT)
    folder.check(FILES[0], folder.texts[FILES[0]])  # the first check: every file
    return folder


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.split("/content/")[-1])
@pytest.mark.parametrize("old, new", EDITS)
def test_an_edit_is_checked_as_lint_checks_it(folder, path, old, new):
    text = folder.texts[path]
    edited = text.replace(old, new, 1) if old else text
    context = {other: body for other, body in folder.texts.items() if other != path}
    expected = check_text(edited, path, context)
    expected.diagnostics = expected.compilation.shown(
        expected.compilation.diagnostics + examples_of(expected.compilation)[1])
    try:
        assert _plain(folder.check(path, edited)) == _plain(expected)
    finally:
        folder.check(path, text)


def test_a_partial_check_reuses_the_other_files_parses_and_lowers_nothing(folder):
    path = FILES[0]
    result = folder.check(path, folder.texts[path])
    assert result.compilation.checked == {path}
    assert result.tables == {}
    again = folder.check(path, folder.texts[path])
    others = {s.path: s.parsed for s in result.compilation.sources if s.path != path}
    assert all(again_source.parsed is others[again_source.path]
               for again_source in again.compilation.sources if again_source.path != path)
    assert folder.full(path)[0].tables  # what an example is played on


def test_the_interface_of_a_file_is_its_ids_not_where_they_stand(folder):
    path = next(p for p in FILES if p.endswith("青年期.page"))
    text = folder.texts[path]
    before = interface(folder.check(path, text), path)
    assert ("page", "arubaito") in before
    moved = interface(folder.check(path, "\n\n" + text.replace("+= 5", "+= 6")), path)
    renamed = interface(folder.check(path, text.replace("ページ arubaito ", "ページ arubaito2 ")),
                        path)
    folder.check(path, text)
    assert moved == before and renamed != before


# ------------------------------------------------------------------ the disk as it is
# The server over stdio (pytest-lsp) on a copy of content/, its files changed behind it.

CHANGED_ON_DISK = ["watched files", "save", "edit", "hover"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


def _applied(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with ``edits`` applied as an editor applies them (these files' lines are
    all in the BMP: a UTF-16 unit is a character)."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        start = starts[edit.range.start.line] + edit.range.start.character
        end = starts[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


@pytest.mark.asyncio
async def test_a_rename_edits_the_files_as_they_are_on_disk_now(client, content):
    page = content / "pages" / "壮年期.page"
    uri = await _open(client, page)  # the folder is read: the deck too
    deck = content / "starter.deck"
    deck.write_text("# 書き足した行\n# もう一行\n" + deck.read_text(encoding="utf-8"),
                    encoding="utf-8")  # outside the editor
    where = _where(page, "ページ tabidachi")
    edit = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(uri), types.Position(where.line, where.character + 4),
        "tabidachi2"))
    changes = {Path(to_fs_path(u)): edits for u, edits in edit.changes.items()}
    assert deck in changes
    for path in sorted(p for p in content.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        expected = re.sub(r"\btabidachi\b", "tabidachi2", text)
        assert _applied(text, changes.get(path, [])) == expected, path.name


def _rename_hatsukoi_on_disk(content: Path) -> Path:
    """Rename the page hatsukoi in its file, outside the editor; the file."""
    [page] = [p for p in (content / "pages").glob("*.page")
              if "ページ hatsukoi " in p.read_text(encoding="utf-8")]
    page.write_text(page.read_text(encoding="utf-8").replace("ページ hatsukoi ", "ページ hatsukoi2 "),
                    encoding="utf-8")
    return page


async def _published(client: LanguageClient) -> None:
    """The next diagnostics the server publishes (a server that publishes none fails)."""
    await asyncio.wait_for(client.wait_for_notification("textDocument/publishDiagnostics"), 20)


@pytest.mark.asyncio
@pytest.mark.parametrize("told", CHANGED_ON_DISK)
async def test_an_id_renamed_on_disk_is_reported_in_the_open_deck_as_lint_reports_it(
        client, content, told, monkeypatch):
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    assert list(client.diagnostics[uri]) == []
    page = _rename_hatsukoi_on_disk(content)
    if told == "watched files":
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([
            types.FileEvent(page.as_uri(), types.FileChangeType.Changed)]))
        await _published(client)
    elif told == "save":
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            types.TextDocumentIdentifier(uri)))
        await _published(client)
    elif told == "edit":  # nothing said: the next check reads the disk
        await _replace(client, uri, 2, deck.read_text(encoding="utf-8"))
    else:  # nothing said: a question about the deck reads the disk
        await client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), _where(deck, "hatsukoi")))
    monkeypatch.chdir(content.parent)
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    lint = json.loads(invoke_cli("lint", "content/starter.deck", "--format", "json").output)
    assert [d.code for d in client.diagnostics[uri]] == [d["code"] for d in lint] == ["E011"]


@pytest.mark.asyncio
async def test_the_server_asks_the_editor_to_watch_every_kind_of_content_file(client, content):
    await _open(client, content / "starter.deck")
    [registration] = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern
             for w in (registration.register_options["watchers"]
                       if isinstance(registration.register_options, dict)
                       else registration.register_options.watchers)]
    assert globs == [f"**/*{suffix}" for suffix in CONTENT_SUFFIXES]


@pytest.mark.asyncio
async def test_a_symlink_leading_out_of_the_content_folder_is_neither_read_nor_renamed(
        client, content, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.deck"
    secret.write_text('デッキ himitsu "秘密" {\n  tabidachi\n}\n', encoding="utf-8")
    (content / "secret.deck").symlink_to(secret)
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    assert list(client.diagnostics[uri]) == []
    edit = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(uri), _where(deck, "tabidachi"), "tabidachi2"))
    reached = {Path(to_fs_path(u)) for u in edit.changes}
    assert deck in reached
    assert all(p.resolve().is_relative_to(content.resolve()) for p in reached)
    assert content / "secret.deck" not in reached


@pytest.mark.asyncio
async def test_a_fifo_named_like_a_page_does_not_hang_the_server(client, content):
    fifo = content / "pages" / "管.page"
    os.mkfifo(fifo)
    try:
        uri = await asyncio.wait_for(_open(client, content / "starter.deck"), 20)
        assert list(client.diagnostics[uri]) == []
    finally:
        try:  # a server stuck reading the FIFO gets its end, so the session can close
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def scratch_client(lsp_client: LanguageClient, tmp_path):
    """A session whose workspace is a scratch folder holding an unrelated project below."""
    scratch = tmp_path / "scratch"
    shutil.copytree(ROOT / "content", scratch / "old_project" / "content")
    await _start(lsp_client, scratch / "content")  # the workspace: scratch/ (no content/)
    yield scratch
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_loose_file_is_checked_alone_as_lint_checks_it(scratch_client, tmp_path,
                                                               monkeypatch):
    client = scratch_client
    scratch = tmp_path / "scratch"
    loose = scratch / "a.page"  # the id of a page of the project below
    loose.write_text('ページ tabidachi "旅" {\n  銘 3\n  未来面 { 敵HP -= 1 }\n  過去面 白紙\n  ペン 過去面 { 歩 += 1 }\n}\n',
                     encoding="utf-8")
    uri = await _open(client, loose)
    monkeypatch.chdir(scratch)
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    lint = json.loads(invoke_cli("lint", "a.page", "--format", "json").output)
    assert [d.code for d in client.diagnostics[uri]] == [d["code"] for d in lint] == []


def test_a_content_folder_is_one_named_content_or_holding_the_balance_or_the_workspace_s(tmp_path):
    home = tmp_path / "home"
    page = home / "project" / "content" / "pages" / "a.page"
    beside = home / "project" / "decks" / "b.deck"
    (home / "project" / "content").mkdir(parents=True)
    assert content_root(page, None) == home / "project" / "content"
    assert content_root(beside, home / "project") == home / "project" / "content"
    assert content_root(beside, None) == beside  # alone
    assert content_root(home / "a.page", home) == home / "a.page"  # the home folder: alone
    assert content_root(Path("/a.page"), None) == Path("/a.page")  # never the whole disk
    copy = home / "mine"  # a copy of content/ under another name: it holds the balance
    (copy / "journey").mkdir(parents=True)
    (copy / "balance.balance").write_text("", encoding="utf-8")
    assert content_root(copy / "journey" / "c.journey", home / "project") == copy


def test_a_path_outside_any_content_folder_is_never_walked(tmp_path):
    shutil.copytree(ROOT / "content", tmp_path / "project" / "content")
    folders = Folders()
    assert folders.of(tmp_path).texts == {}  # a folder named as a document: read as a file
    loose = tmp_path / "a.page"
    loose.write_text("# 空\n", encoding="utf-8")
    assert list(folders.of(loose).texts) == [str(loose)]


def test_a_file_changed_on_disk_is_read_again_before_the_next_check(content):
    folder = Folder(content.resolve())
    deck = str(content.resolve() / "starter.deck")
    assert folder.refresh() is False  # nothing changed: nothing read again
    _rename_hatsukoi_on_disk(content)
    assert folder.refresh(walk=False) is True  # its stamp told, without a walk
    result = folder.check(deck, folder.texts[deck])
    assert [d.code for d in result.diagnostics] == ["E011"]


def _serve_in_process(content: Path, monkeypatch):
    """The server in this process (its handlers called directly, what it would send
    dropped), with the starter deck open: a test can then change what it reads from the
    disk, at the moment it reads it. The rename handler and the deck's URI."""
    from pytest_lsp import client_capabilities

    from lsp.server import make_server

    server = make_server()
    monkeypatch.setattr(server.protocol, "notify", lambda method, params=None: None)
    for _ in server.protocol.lsp_initialize(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=content.parent.as_uri())):
        pass
    deck = content / "starter.deck"
    for handler, args, _ in server.protocol.lsp_text_document__did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(
                deck.as_uri(), "jibunki", 1, deck.read_text(encoding="utf-8")))):
        handler(*args)  # the document in the workspace, then checked
    rename = server.protocol.fm.features[types.TEXT_DOCUMENT_RENAME]
    where = _where(deck, "tabidachi")
    return lambda: rename(types.RenameParams(types.TextDocumentIdentifier(deck.as_uri()),
                                             where, "tabidachi2"))


def test_a_rename_is_refused_while_a_file_it_would_edit_keeps_changing(content, monkeypatch):
    import lsp.folder

    rename = _serve_in_process(content, monkeypatch)
    assert rename().changes  # settled: the rename is computed
    stamp, ticks = lsp.folder._stamp, iter(range(10**6))
    monkeypatch.setattr(lsp.folder, "_stamp", lambda path: (
        (*stamp(path), next(ticks)) if path.name == "壮年期.page" else stamp(path)))
    with pytest.raises(Refusal, match="壮年期.page が読むたびに変わっています"):
        rename()


def test_a_rename_is_refused_when_a_file_changed_while_its_edits_were_computed(
        content, monkeypatch):
    import lsp.features

    rename = _serve_in_process(content, monkeypatch)
    references = lsp.features.references

    def meanwhile(*args, **kwargs):  # the page written while the edits are computed
        found = references(*args, **kwargs)
        page = content / "pages" / "壮年期.page"
        page.write_text("\n\n" + page.read_text(encoding="utf-8"), encoding="utf-8")
        return found

    monkeypatch.setattr(lsp.features, "references", meanwhile)
    with pytest.raises(Refusal, match="名前を変えている間に"):
        rename()


def test_a_file_that_changes_while_it_is_read_is_not_read_stale(content, monkeypatch):
    import lsp.folder

    folder = Folder(content.resolve())
    deck = str(content.resolve() / "starter.deck")
    assert deck in folder.texts and not folder.unsettled
    stamp, ticks = lsp.folder._stamp, iter(range(10**6))
    monkeypatch.setattr(lsp.folder, "_stamp", lambda path: (
        (*stamp(path), next(ticks)) if path.name == "starter.deck" else stamp(path)))
    assert folder.refresh(walk=False) is True
    assert folder.unsettled == {deck} and deck not in folder.texts
