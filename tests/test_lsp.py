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
from conftest import LSP_SERVER, ROOT, compiled_tables

pytestmark = [pytest.mark.asyncio, pytest.mark.slow, pytest.mark.usefixtures("lsp_zygote")]

PAGE = "pages/青年期.page"


async def _start(client: LanguageClient, content: Path) -> None:
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as an editor does
        client.registrations.extend(params.registrations)

    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=content.parent.as_uri(),
        workspace_folders=[types.WorkspaceFolder(content.parent.as_uri(), "project")]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
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


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def content_client(lsp_client: LanguageClient, content):
    """A server whose workspace is the content folder itself, as the README opens it
    (``code --extensionDevelopmentPath=editors/vscode content/``)."""
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as an editor does
        lsp_client.registrations.extend(params.registrations)

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=content.as_uri(),
        workspace_folders=[types.WorkspaceFolder(content.as_uri(), "content")]))
    yield
    await lsp_client.shutdown_session()


async def test_workspace_symbols_answer_in_a_workspace_that_is_the_content_folder(
        content_client: LanguageClient, content):
    """Opened at content/ as the README says, Go to Symbol in Workspace found nothing until
    a file was opened: only the workspace's own content/ folder was looked for."""
    found = await content_client.workspace_symbol_async(types.WorkspaceSymbolParams(query="終電の"))
    assert "終電の残業 zangyou" in {s.name for s in found}


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
    assert "ヒント:" in diag.message
    assert diag.data["explain"] == "jibunki explain E001"
    assert diag.code_description.href.endswith("E001.md")
    hover = await _hover(client, uri, start)
    assert explanation("E001").strip() in hover
    await _replace(client, uri, 3, text)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
async def test_a_diagnostics_range_is_its_token_whatever_ends_the_lines(
        client: LanguageClient, content, newline):
    """LSP counts "\n", "\r\n" and a lone "\r" as line ends, as the check does: an old
    Mac's file (lone "\r") has its diagnostic on the unknown name, not at a line's start."""
    lines = ['ページ foo "x" {', "  銘 3", "  未来面 { 敵HP -= 12 }", "  過去面 白紙",
             "  ペン 過去面 { 未知 += 1 }", "}", ""]
    path = content / "pages" / "改行.page"
    path.write_bytes(newline.join(lines).encode("utf-8"))
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="jibunki", version=1, text=newline.join(lines))))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    [diag] = [d for d in client.diagnostics[uri] if d.severity == types.DiagnosticSeverity.Error]
    column = lines[4].index("未知")
    assert diag.range == types.Range(types.Position(4, column), types.Position(4, column + 2))


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
    assert "キーワード" in year and "year" in year and "ページの変数" in year
    enemy = content / "enemies" / "日々.enemy"
    uri = await _open(client, enemy)
    timing = await _hover(client, uri, _where(enemy, "ターン開始時"))
    assert "発動タイミング" in timing and "turn_start" in timing and "ターンの段階" in timing
    from contract import vocabulary as vocab  # the glossary's line (issue 16 item 1, 18 item 6)

    assert vocab.tables()["timing"].by_code("turn_start").meaning in timing
    # an enemy's HP field and フレーバー: the HP field was told as only the player's, the
    # フレーバー as a page's
    # the HP field (not the word in the file's first comment, which has no hover)
    row = next(row for row, line in enumerate(enemy.read_text(encoding="utf-8").split("\n"))
               if line.startswith("  HP "))
    hp = await _hover(client, uri, types.Position(row, 2))
    assert "敵の定義の HP 欄では、その敵の HP" in hp.split("---")[0]
    flavor = await _hover(client, uri, _where(enemy, "フレーバー "))
    assert "ページや敵の札に表示する" in flavor
    nothing = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(0, 0)))
    assert nothing is None or "#" not in nothing.contents.value[:1]


async def test_completion_offers_what_may_stand_at_the_position(client: LanguageClient,
                                                                content):
    path = content / PAGE
    uri = await _open(client, path)

    async def labels(where: types.Position) -> dict:
        found = await client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(uri), where))
        return {item.label: item for item in found.items}

    start = await labels(_where(path, "敵HP"))  # the start of an effect line
    assert start["敵HP"].kind == types.CompletionItemKind.Variable
    assert start["移動"].kind == types.CompletionItemKind.Keyword
    assert "ターン開始時" not in start and "tabidachi" not in start
    timing = _where(path, "毎 ステージ開始時")
    after_at = await labels(types.Position(timing.line, timing.character + 2))
    assert after_at["ステージ開始時"].kind == types.CompletionItemKind.Event
    assert "敵HP" not in after_at
    deck = content / "starter.deck"
    deck_uri = await _open(client, deck)
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(deck_uri), _where(deck, "tabidachi")))
    items = {item.label: item for item in found.items}
    assert items["tabidachi"].detail == "銘 36 旅立ちの朝"
    assert items["tabidachi"].kind == types.CompletionItemKind.Reference
    # a page's rules text is sent when the client asks for that one item
    assert items["tabidachi"].documentation is None
    resolved = await client.completion_item_resolve_async(items["tabidachi"])
    page = compiled_tables(content).pages["tabidachi"]
    assert all(line in resolved.documentation.value for line in body_lines(page.faces["future"]))


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


async def test_workspace_symbols_find_a_page_of_another_file_by_its_display_name(
        client: LanguageClient, content):
    """Go to Symbol in Workspace: with one file open, a page of another file is found by a
    part of its display name (or its id, full-width as an IME types it), at its id."""
    await _open(client, content / "starter.deck")
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="終電の"))
    (symbol,) = [s for s in found if s.kind == types.SymbolKind.Class]
    # the page's own examples are found by the name they start with, too
    assert {s.name.split(":")[0] for s in found if s is not symbol} <= {"例 終電の残業"}
    page_file = content / "pages" / "壮年期.page"
    assert symbol.name == "終電の残業 zangyou" and symbol.kind == types.SymbolKind.Class
    assert symbol.location.uri == page_file.as_uri()
    head = _where(page_file, "ページ zangyou ")
    assert symbol.location.range.start == types.Position(head.line, len("ページ "))
    assert symbol.container_name == str(Path("content", "pages", "壮年期.page"))
    by_id = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ＺＡＮＧＹＯＵ"))
    assert [s.location for s in by_id if s.kind == types.SymbolKind.Class] == [symbol.location]
    # a katakana name typed in hiragana, as an IME left unconverted
    kana = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="あるばいと"))
    assert "アルバイト arubaito" in {s.name for s in kana}
    everything = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    names = {s.name for s in everything}
    assert {"終電の残業 zangyou", "歯車塔の番人 haguruma"} <= names
    assert any(s.name.startswith("例 ") for s in everything)  # the examples too


async def test_workspace_symbols_answer_before_any_file_is_opened_and_after_one_changes(
        client: LanguageClient, content):
    """Right after the editor opens the project, nothing open yet: the workspace's content
    folder is read. A page renamed on disk is found by its new id at the next query."""
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="終電"))
    assert "終電の残業 zangyou" in {s.name for s in found}
    page_file = content / "pages" / "壮年期.page"
    page_file.write_text(page_file.read_text(encoding="utf-8").replace(
        "ページ zangyou ", "ページ zangyou2 "), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(page_file.as_uri(), types.FileChangeType.Changed)]))
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="終電"))
    assert "終電の残業 zangyou2" in {s.name for s in found}
    assert "終電の残業 zangyou" not in {s.name for s in found}


async def test_a_deck_shows_each_pages_name_and_year_beside_its_line(
        client: LanguageClient, content):
    from runtime.tables import load

    tables = load()
    path = content / "starter.deck"
    uri = await _open(client, path)
    lines = path.read_text(encoding="utf-8").split("\n")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0),
                                                       types.Position(len(lines), 0))))
    entries = [(row, line) for row, line in enumerate(lines)
               if re.fullmatch(r"  [a-z_]+( × \d+)?", line)]
    assert len(hints) == len(entries) == 9
    for hint, (row, line) in zip(hints, entries):
        page = tables.pages[line.split()[0]]
        assert hint.label == f"{page.name} · 銘 {page.year}"
        assert hint.position == types.Position(row, len(line))  # after the line's last word
    # only the lines asked for (an editor asks for what it shows)
    row = entries[3][0]
    some = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(row, 0),
                                                       types.Position(row, 0))))
    assert [h.position.line for h in some] == [row]


async def test_an_example_shows_the_names_of_its_enemy_and_of_the_pages_it_plays(
        client: LanguageClient, content):
    """spec 000's worked example: 敵 haguruma, 開始 手札 [five pages], 出す kekkon."""
    from runtime.tables import load

    tables = load()
    path = content / "tests" / "worked_example.scenario"
    uri = await _open(client, path)
    lines = path.read_text(encoding="utf-8").split("\n")
    head = next(row for row, line in enumerate(lines) if line.startswith("例 "))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(head, 0),
                                                       types.Position(head + 5, 0))))
    said = {(h.position.line, h.label) for h in hints}
    enemy_row = next(r for r in range(head, head + 5) if lines[r].strip() == "敵 haguruma")
    assert (enemy_row, tables.enemies["haguruma"].name) in said
    hand_row = next(r for r in range(head, head + 5) if "手札 [" in lines[r])
    hand = re.search(r"手札 \[([^\]]*)\]", lines[hand_row]).group(1).split(", ")
    page = tables.pages
    assert [label for line, label in sorted(said) if line == hand_row] == sorted(
        f"{page[p].name} · 銘 {page[p].year}" for p in hand)
    played = next(r for r in range(head, head + 5) if lines[r].strip().startswith("出す "))
    word = lines[played].split()[1]
    (hint,) = [h for h in hints if h.position.line == played]
    assert hint.label == f"{page[word].name} · 銘 {page[word].year}"
    assert hint.position.character == lines[played].index(word) + len(word)  # after the id


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
    # a lint error (銘 out of range): left alone, as `jibunki fmt` leaves the file
    wrong = messy.replace("銘 ", "銘 333 #", 1)
    assert "銘 333 #" in wrong
    await _replace(client, uri, 3, wrong)
    assert any(d.code == "E030" for d in client.diagnostics[uri])
    assert not await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), options))
    # ... and says why in the log, as jibunki fmt says it (Format Document did nothing, mute)
    said = [m.message for m in client.log_messages if m.message.startswith("エラーがあるので整形")]
    assert said and said[-1].startswith("エラーがあるので整形しませんでした（") and "E030" in said[-1]
    # a document saved on Windows, with a BOM: the edit keeps its line ends and BOM, as
    # jibunki fmt keeps the file's (the edit made every line end "\n" and dropped the BOM)
    windows = "\ufeff" + messy.replace("\n", "\r\n")
    await _replace(client, uri, 4, windows)
    (edit,) = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), options))
    assert edit.new_text == "\ufeff" + path.read_text(encoding="utf-8").replace("\n", "\r\n")


async def test_rename_changes_an_id_in_its_page_and_in_the_deck(client: LanguageClient, content):
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    edit = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(uri), _where(deck, "hatsukoi"), "hatsukoi2"))
    changed = {Path(to_fs_path(u)).name: [e.new_text for e in edits]
               for u, edits in edit.changes.items()}
    assert changed["starter.deck"] == ["hatsukoi2"]
    assert "hatsukoi2" in changed[next(n for n in changed if n.endswith(".page"))]
    # refused, saying why, as a refusal (RequestFailed), not as the server's internal error
    for new_name, why in (("sakamichi", "その id はもう使われています"),
                          ("初 恋", "id の形ではありません"),
                          ("白紙", "キーワードです"), ("HP", "キーワードです")):
        with pytest.raises(Exception) as refused:
            await client.text_document_rename_async(types.RenameParams(
                types.TextDocumentIdentifier(uri), _where(deck, "hatsukoi"), new_name))
        assert getattr(refused.value, "code", None) == -32803, refused.value
        assert why in str(refused.value) and "Error" not in str(refused.value)
    assert not [m for m in client.log_messages if "内部エラー" in m.message]


async def test_the_starting_decks_id_is_not_renamed_as_the_compiler_reads_it(
        client: LanguageClient, content):
    """The run starts with the deck ``starter`` (compiler.lower STARTING_DECK): renamed,
    lint would say the content has no starting deck (E014). Refused, saying why."""
    deck = content / "starter.deck"
    uri = await _open(client, deck)
    with pytest.raises(Exception) as refused:
        await client.text_document_rename_async(types.RenameParams(
            types.TextDocumentIdentifier(uri), _where(deck, "starter"), "st2"))
    assert getattr(refused.value, "code", None) == -32803, refused.value
    assert "デッキ「starter」の id は変えられません" in str(refused.value)


@pytest.mark.parametrize("slip, title, new_text", [
    ("敵HP －＝ ", "半角の「-=」にする", "-="),
    # a fix that deletes says what it deletes (it was titled 「半角の「」にする」)
    ("敵HP\u200b -= ", "「ゼロ幅スペース」を消す", ""),
])
async def test_a_full_width_slip_has_a_quick_fix_to_the_half_width_symbol(
        client: LanguageClient, content, slip, title, new_text):
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    assert "敵HP -= " in text
    await _replace(client, uri, 2, text.replace("敵HP -= ", slip, 1))
    (diag,) = [d for d in client.diagnostics[uri] if d.code == "E002"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diag.range,
        types.CodeActionContext(diagnostics=[diag])))
    (action,) = actions
    (edit,) = action.edit.changes[uri]
    assert action.title == title and edit.new_text == new_text and edit.range == diag.range


def _apply(text: str, edit: types.TextEdit) -> str:
    """``text`` with one single-line edit applied (positions in the BMP: UTF-16 = code points)."""
    lines = text.split("\n")
    start, end = edit.range.start, edit.range.end
    assert start.line == end.line
    line = lines[start.line]
    lines[start.line] = line[:start.character] + edit.new_text + line[end.character:]
    return "\n".join(lines)


async def _fixes(client: LanguageClient, uri: str, code: str):
    (diag,) = [d for d in client.diagnostics[uri] if d.code == code]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), diag.range,
        types.CodeActionContext(diagnostics=[diag])))
    return diag, actions


@pytest.mark.parametrize("right, wrong, code, title", [
    ("銘 19", "名 19", "E001", "「銘」にする"),            # a keyword typo (an IME's kanji)
    ("未来面 {\n    通貨", "未来 {\n    通貨", "E001", "「未来面」にする"),  # a keyword cut short
    ("通貨 += 5", "通過 += 5", "E010", "「通貨」にする"),  # a vocabulary word
])
async def test_a_did_you_mean_has_a_quick_fix_that_writes_the_word_meant(
        client: LanguageClient, content, right, wrong, code, title):
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace(right, wrong, 1))
    diag, actions = await _fixes(client, uri, code)
    assert diag.data["replacements"] == [title[1:-4]]  # carried as data, not read from words
    (action,) = actions
    assert action.title == title and action.is_preferred
    assert list(action.diagnostics) == [diag]
    (edit,) = action.edit.changes[uri]
    fixed = _apply(text.replace(right, wrong, 1), edit)
    assert fixed == text
    await _replace(client, uri, 3, fixed)
    assert list(client.diagnostics[uri]) == []


async def test_a_counter_without_its_scope_has_a_quick_fix_for_each_scope_it_may_take(
        client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    written = "使用した歩[プレイ] × 0.7"
    await _replace(client, uri, 2, text.replace(written, "使用した歩 × 0.7", 1))
    diag, actions = await _fixes(client, uri, "E021")
    # 使用した歩 is ●●○○ over プレイ・ターン・ステージ・ラン: the core scopes alone (a ○
    # one would be W001: a quick fix leaves the line clean)
    assert [a.title for a in actions] == [
        f"スコープ添字を付けて「使用した歩[{scope}]」にする" for scope in ("プレイ", "ターン")]
    assert [a.is_preferred for a in actions] == [True, False]
    (edit,) = actions[0].edit.changes[uri]
    assert edit.range == diag.range
    assert _apply(text.replace(written, "使用した歩 × 0.7", 1), edit) == text


async def test_a_counter_never_offers_a_meaningless_scope(client: LanguageClient, content):
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("使用した歩[プレイ] × 0.7", "プレイ枚数 × 0.7", 1))
    _, actions = await _fixes(client, uri, "E021")
    offered = [a.edit.changes[uri][0].new_text for a in actions]
    assert offered == ["プレイ枚数[ターン]"]  # × プレイ, ○ ステージ and ラン


def _refreshes(client: LanguageClient):
    """An event set when the server asks the client to draw its code lenses again."""
    import asyncio

    refreshed = asyncio.Event()

    @client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def refresh(params: None) -> None:
        refreshed.set()

    return refreshed


async def _lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    return await client.text_document_code_lens_async(types.CodeLensParams(
        types.TextDocumentIdentifier(uri)))


async def test_a_lens_on_each_example_runs_it_and_shows_its_last_result(
        client: LanguageClient, content):
    import asyncio

    refreshed = _refreshes(client)
    path = content / "tests" / "worked_example.scenario"
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    lenses = await _lenses(client, uri)
    heads = [row for row, line in enumerate(text.split("\n")) if line.startswith("例 ")]
    assert [lens.range.start.line for lens in lenses] == heads
    assert {lens.command.title for lens in lenses} == {"▶ 例を実行"}
    first = lenses[0].command
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        first.command, first.arguments))
    assert outcome["state"] == "passed"
    await asyncio.wait_for(refreshed.wait(), 10)
    lenses = await _lenses(client, uri)
    assert lenses[0].command.title == "成功 ▶ もう一度実行"
    assert lenses[1].command.title == "▶ 例を実行"  # only the example asked for was run

    wrong = text.replace("確認 刻 == 55, 歩 == 15", "確認 刻 == 54, 歩 == 15", 1)
    assert wrong != text
    await _replace(client, uri, 2, wrong)
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        first.command, first.arguments))
    row = next(r for r, line in enumerate(wrong.split("\n")) if "刻 == 54" in line)
    assert outcome["state"] == "failed" and outcome["line"] == row + 1
    (lens, *_) = await _lenses(client, uri)
    assert lens.command.title.startswith(f"失敗 {row + 1} 行: 期待 刻 == 54")
    assert "実際 刻 = 55" in lens.command.title

    # Fixed again but not run: the lens says its 失敗 is from before the edit. 「成功」 stayed
    # on a lens whose example (or the page it plays) had been broken since.
    await _replace(client, uri, 3, text)
    (lens, *_) = await _lenses(client, uri)
    assert lens.command.title.startswith("前回の結果（このあと例か内容が変わりました）: 失敗 ")


async def test_a_lens_is_marked_as_of_before_a_change_of_the_page_its_example_plays(
        client: LanguageClient, content):
    """An edit of the page an example plays (not of the example's own file) left its lens
    saying 成功 as if current; run again, its 失敗 then read as 前回の結果 though nothing
    had changed since: the lens compared with its own file's last check alone."""
    import asyncio

    refreshed = _refreshes(client)
    scenario = content / "tests" / "worked_example.scenario"
    uri = await _open(client, scenario)
    first = (await _lenses(client, uri))[0].command
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        first.command, first.arguments))
    assert outcome["state"] == "passed"
    await asyncio.wait_for(refreshed.wait(), 10)
    assert (await _lenses(client, uri))[0].command.title == "成功 ▶ もう一度実行"
    page = next(p for p in (content / "pages").glob("*.page")
                if "ページ kekkon" in p.read_text(encoding="utf-8"))
    page_uri = await _open(client, page)
    text = page.read_text(encoding="utf-8")
    at = text.index("ページ kekkon")
    changed = text[:at] + text[at:].replace("銘 55", "銘 54", 1)
    await _replace(client, page_uri, 2, changed)
    (lens, *_) = await _lenses(client, uri)
    assert lens.command.title.startswith("前回の結果（このあと例か内容が変わりました）: 成功"), lens
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        first.command, first.arguments))
    assert outcome["state"] == "failed"
    (lens, *_) = await _lenses(client, uri)
    assert lens.command.title.startswith("失敗 "), lens.command.title


async def test_an_example_that_cannot_run_says_why_on_its_lens(client: LanguageClient, content):
    _refreshes(client)
    path = content / "tests" / "worked_example.scenario"
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("敵 haguruma", "敵 hagurumaa", 1))
    (lens, *_) = await _lenses(client, uri)
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        lens.command.command, lens.command.arguments))
    assert outcome["state"] == "blocked" and "hagurumaa" in outcome["message"]
    (lens, *_) = await _lenses(client, uri)
    assert lens.command.title.startswith("実行できません:")


async def _round_trip(client: LanguageClient, uri: str) -> None:
    """A request answered after every notification the server sent before it."""
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))


async def _open_deck_and_hatsukoi(client: LanguageClient, content: Path,
                                  deck: str = "starter.deck") -> tuple[str, str, str]:
    """Open the starter deck, then the page file that defines hatsukoi (a page of the
    deck): their URIs and the page file's text."""
    deck_uri = await _open(client, content / deck)
    [page_file] = [p for p in (content / "pages").glob("*.page")
                   if "ページ hatsukoi " in p.read_text(encoding="utf-8")]
    page_uri = await _open(client, page_file)
    return deck_uri, page_uri, page_file.read_text(encoding="utf-8")


async def test_renaming_a_page_id_re_checks_the_other_open_documents(
        client: LanguageClient, content):
    deck_uri, page_uri, text = await _open_deck_and_hatsukoi(client, content)
    assert list(client.diagnostics[deck_uri]) == []

    await _replace(client, page_uri, 2, text.replace("ページ hatsukoi ", "ページ hatsukoi2 ", 1))
    await _round_trip(client, page_uri)
    (diag,) = client.diagnostics[deck_uri]
    assert diag.code == "E011" and diag.data["replacements"] == ["hatsukoi2"]

    await _replace(client, page_uri, 3, text)  # the id back: the deck is clean again
    await _round_trip(client, page_uri)
    assert list(client.diagnostics[deck_uri]) == []


async def test_a_re_check_is_published_under_the_uri_the_client_opened_the_document_with(
        client: LanguageClient, content):
    # a file name out of ASCII: the client sends its URI quoted (%E3%81%AF…)
    (content / "starter.deck").rename(content / "はじめの山.deck")
    deck_uri, page_uri, text = await _open_deck_and_hatsukoi(client, content, "はじめの山.deck")
    assert "%" in deck_uri and list(client.diagnostics[deck_uri]) == []
    await _replace(client, page_uri, 2, text.replace("ページ hatsukoi ", "ページ hatsukoi2 ", 1))
    await _round_trip(client, page_uri)
    assert [d.code for d in client.diagnostics[deck_uri]] == ["E011"]
    assert [uri for uri in client.diagnostics if "はじめ" in uri] == []


async def test_a_page_defined_in_a_new_file_not_yet_saved_clears_the_decks_unknown_name(
        client: LanguageClient, content):
    """A deck names qa_new (E011); the designer opens a new file, never saved, that defines
    it: the deck is checked again with it, as with a file on disk."""
    deck = content / "starter.deck"
    text = deck.read_text(encoding="utf-8").replace("  tenshoku\n", "  tenshoku\n  qa_new\n", 1)
    assert "qa_new" in text
    deck_uri = deck.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=deck_uri, language_id="jibunki", version=1, text=text)))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    assert [d.code for d in client.diagnostics[deck_uri]] == ["E011"]
    page = content / "pages" / "新しい.page"  # not on disk
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=page.as_uri(), language_id="jibunki", version=1,
        text='ページ qa_new "新" {\n  銘 3\n  未来面 { 敵HP -= 12 }\n  過去面 白紙\n}\n')))
    await _round_trip(client, page.as_uri())
    assert list(client.diagnostics[deck_uri]) == []


async def test_closing_a_document_with_an_unsaved_rename_re_checks_the_others(
        client: LanguageClient, content):
    deck_uri, page_uri, text = await _open_deck_and_hatsukoi(client, content)
    await _replace(client, page_uri, 2, text.replace("ページ hatsukoi ", "ページ hatsukoi2 ", 1))
    await _round_trip(client, page_uri)
    assert [d.code for d in client.diagnostics[deck_uri]] == ["E011"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        types.TextDocumentIdentifier(page_uri)))  # not saved: the file on disk holds hatsukoi
    await _round_trip(client, deck_uri)
    assert list(client.diagnostics[deck_uri]) == []
    assert list(client.diagnostics[page_uri]) == []


async def test_renaming_a_journey_set_up_re_checks_the_other_open_documents(
        client: LanguageClient, content):
    variants_uri = await _open(client, content / "journey" / "手札の変種.journey")  # 元 草案 ×2
    draft = content / "journey" / "草案17.journey"
    draft_uri = await _open(client, draft)
    text = draft.read_text(encoding="utf-8")
    assert list(client.diagnostics[variants_uri]) == []

    await _replace(client, draft_uri, 2, text.replace("旅の準備 草案 ", "旅の準備 草案2 ", 1))
    await _round_trip(client, draft_uri)
    assert [d.code for d in client.diagnostics[variants_uri]] == ["E072", "E072"]

    await _replace(client, draft_uri, 3, text)  # the id back: the variants are clean again
    await _round_trip(client, draft_uri)
    assert list(client.diagnostics[variants_uri]) == []


async def test_an_edit_that_changes_no_name_leaves_the_other_documents_alone(
        client: LanguageClient, content):
    published: list[str] = []

    class Recording(dict):  # what the client's default handler stores into, in order
        def __setitem__(self, uri, diagnostics):
            published.append(uri)
            super().__setitem__(uri, diagnostics)

    client.diagnostics = Recording(client.diagnostics)

    deck = content / "starter.deck"
    deck_uri = await _open(client, deck)
    path = content / PAGE
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    published.clear()
    await _replace(client, uri, 2, "\n\n" + text.replace("通貨 += 5", "通貨 += 6", 1))
    await _round_trip(client, uri)
    assert published == [uri]  # moved and changed, but no name: the deck is not checked
    await _replace(client, uri, 3, text.replace("ページ arubaito ", "ページ arubaito2 ", 1))
    await _round_trip(client, uri)
    assert published == [uri, uri, deck_uri]  # an id changed: the deck is checked again


async def test_an_example_s_unknown_enemy_is_reported_with_its_quick_fix(
        client: LanguageClient, content):
    path = content / "tests" / "worked_example.scenario"
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("敵 haguruma", "敵 hagurumaa", 1))
    diag, actions = await _fixes(client, uri, "E011")
    assert "hagurumaa" in diag.message
    assert [a.title for a in actions] == ["「haguruma」にする"]
