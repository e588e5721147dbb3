"""jibunki lsp end to end: the real server over stdio (pytest-lsp), on a copy of content/."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from catalog.phrasing import body_lines
from compiler.codes import explanation
from conftest import ROOT, compiled_tables

pytestmark = pytest.mark.asyncio

PAGE = "pages/青年期.page"


async def _start(client: LanguageClient, content: Path) -> None:
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=content.parent.as_uri(),
        workspace_folders=[types.WorkspaceFolder(content.parent.as_uri(), "project")]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "lsp"]))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, str(ROOT / "cli.py"), "lsp"]))
async def cli_client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path) -> str:
    """Open ``path`` as a document and wait for its diagnostics; its URI."""
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="jibunki", version=1, text=path.read_text(encoding="utf-8"))))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    return uri


async def _replace(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    await client.wait_for_notification("textDocument/publishDiagnostics")


def _where(path: Path, needle: str) -> types.Position:
    """The position (0-based, UTF-16; these lines are all in the BMP) of ``needle``."""
    for row, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if needle in line:
            return types.Position(row, line.index(needle))
    raise AssertionError(f"{needle!r} not in {path}")


async def _hover(client, uri, position) -> str:
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), position))
    assert found is not None
    return found.contents.value


async def test_a_bundled_file_has_no_diagnostics_an_error_has_its_code_and_range_a_fix_clears_it(
        client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    assert list(client.diagnostics[uri]) == []
    text = path.read_text(encoding="utf-8")
    where = _where(path, "銘 19")
    await _replace(client, uri, 2, text.replace("銘 19", "銘 = 30", 1))
    [diag] = client.diagnostics[uri]
    assert diag.code == "E001"
    assert diag.severity == types.DiagnosticSeverity.Error
    start = types.Position(where.line, where.character + 2)  # the "=" after 銘 and a space
    assert diag.range == types.Range(start, types.Position(start.line, start.character + 1))
    assert "hint:" in diag.message
    assert diag.data["explain"] == "jibunki explain E001"
    assert diag.code_description.href.endswith("E001.md")
    hover = await _hover(client, uri, start)
    assert explanation("E001").strip() in hover
    await _replace(client, uri, 3, text)
    assert list(client.diagnostics[uri]) == []


async def test_a_duplicate_id_points_at_the_other_file(client: LanguageClient, content):
    path = content / "pages" / "もう一つ.page"
    path.write_text('ページ tabidachi "もう一つ" {\n  銘 3\n  未来面 { 敵HP -= 1 }\n  過去面 白紙\n}\n',
                    encoding="utf-8")
    uri = await _open(client, path)
    codes = [d.code for d in client.diagnostics[uri]]
    assert "E012" in codes
    diag = next(d for d in client.diagnostics[uri] if d.code == "E012")
    [other] = diag.related_information
    assert other.location.uri != uri and other.location.uri.endswith(".page")


async def test_hover_on_a_page_id_shows_its_name_year_and_rules_text(client: LanguageClient,
                                                                    content):
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    text = await _hover(client, uri, _where(deck, "tabidachi"))
    page = compiled_tables(content).pages["tabidachi"]
    assert page.name in text and f"銘 {page.year}" in text
    for side in ("future", "past"):
        for line in body_lines(page.faces[side]):
            assert line in text


async def test_hover_on_keywords_and_terms_shows_their_meaning(client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    year = await _hover(client, uri, _where(path, "銘 19"))
    assert "keyword" in year and "year" in year and "ページの変数" in year
    enemy = content / "enemies" / "日々.enemy"
    uri = await _open(client, enemy)
    timing = await _hover(client, uri, _where(enemy, "ターン開始時"))
    assert "timing" in timing and "turn_start" in timing and "phase of the turn" in timing
    from contract import vocabulary as vocab  # the glossary's line (issue 16 item 1, 18 item 6)

    assert vocab.tables()["timing"].by_code("turn_start").meaning in timing
    nothing = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert nothing is None or "#" not in nothing.contents.value[:1]


async def test_completion_offers_timings_and_page_ids(client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), _where(path, "敵HP")))
    items = {item.label: item for item in found.items}
    assert items["ターン開始時"].kind == types.CompletionItemKind.Event
    assert items["プレイ"].kind in (types.CompletionItemKind.EnumMember,
                                    types.CompletionItemKind.Keyword)
    assert items["tabidachi"].detail == "銘 36 旅立ちの朝"
    assert "haguruma" in items


async def test_definition_and_references_of_a_page_id_in_the_starter_deck(
        client: LanguageClient, content):
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    position = _where(deck, "tabidachi")
    [page_file] = [p for p in (content / "pages").glob("*.page")
                   if "ページ tabidachi " in p.read_text(encoding="utf-8")]
    [found] = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), position))
    defined = _where(page_file, "tabidachi")
    assert found.uri == page_file.as_uri()
    assert found.range.start == defined
    assert found.range.end == types.Position(defined.line, defined.character + len("tabidachi"))
    refs = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(True), text_document=types.TextDocumentIdentifier(uri),
        position=position))
    uris = {ref.uri for ref in refs}
    assert uri in uris and page_file.as_uri() in uris
    without = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(False), text_document=types.TextDocumentIdentifier(uri),
        position=position))
    assert page_file.as_uri() + str(defined) not in {r.uri + str(r.range.start) for r in without}
    assert len(without) == len(refs) - 1


async def test_document_symbols_list_the_pages_of_a_file(client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    ids = re.findall(r"^ページ (\w+)", path.read_text(encoding="utf-8"), re.M)
    assert [s.name for s in symbols] == ids
    assert all(s.kind == types.SymbolKind.Class for s in symbols)
    head = _where(path, f"ページ {ids[0]} ")
    assert symbols[0].selection_range.start == types.Position(head.line, len("ページ "))
    assert symbols[0].detail  # the page's title


async def test_jibunki_lsp_serves_the_same_server(cli_client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(cli_client, path)
    assert list(cli_client.diagnostics[uri]) == []


async def test_formatting_gives_jibunki_fmt_layout_and_nothing_for_a_formatted_file(
        client: LanguageClient, content):
    from dsl.formatter import format_text

    path = content / PAGE
    uri = await _open(client, path)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    same = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), options))
    assert not same  # the bundled file is already in the layout: no edit
    messy = path.read_text(encoding="utf-8").replace("\n  銘", "\n        銘", 1)
    await _replace(client, uri, 2, messy)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), options))
    (edit,) = edits
    assert edit.new_text == format_text(messy).text == path.read_text(encoding="utf-8")
    assert edit.range.start == types.Position(0, 0)


async def test_rename_changes_an_id_in_its_page_and_in_the_deck(client: LanguageClient, content):
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    edit = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(uri), _where(deck, "hatsukoi"), "hatsukoi2"))
    changed = {Path(to_fs_path(u)).name: [e.new_text for e in edits]
               for u, edits in edit.changes.items()}
    assert changed["starter.deck"] == ["hatsukoi2"]
    assert "hatsukoi2" in changed[next(n for n in changed if n.endswith(".page"))]
    with pytest.raises(Exception):  # an id that is taken is refused
        await client.text_document_rename_async(types.RenameParams(
            types.TextDocumentIdentifier(uri), _where(deck, "hatsukoi"), "sakamichi"))


async def test_a_full_width_slip_has_a_quick_fix_to_the_half_width_symbol(
        client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    assert "敵HP -= " in text
    await _replace(client, uri, 2, text.replace("敵HP -= ", "敵HP －＝ ", 1))
    (diag,) = [d for d in client.diagnostics[uri] if d.code == "E002"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diag.range,
        types.CodeActionContext(diagnostics=[diag])))
    (action,) = actions
    (edit,) = action.edit.changes[uri]
    assert action.title == "半角の「-=」にする" and edit.new_text == "-=" and edit.range == diag.range
