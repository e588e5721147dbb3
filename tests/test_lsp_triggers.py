"""The language server's hover on a 作用 line names what it can set off and what sets it
off (lsp/triggers.py), from the trigger graph of the whole folder — kept while the folder's
pages are the same, built again after an edit."""

from __future__ import annotations


import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import LSP_SERVER
from test_lsp import _hover, _open, _replace, _start
from trigger_content import (LISTENER, LISTENER_LINE, PRODUCER, PRODUCER_LINE,
                             TRIGGER_PAGES, trigger_content)


@pytest.fixture
def content(tmp_path):
    """The constructed pair (tests/trigger_content.py) in a folder named content/."""
    return trigger_content(tmp_path / "content")

@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()

def _at(line: int) -> types.Position:
    """The first column of the 作用 on ``line`` (1-based) of TRIGGER_PAGES."""
    text = TRIGGER_PAGES.split("\n")[line - 1]
    return types.Position(line - 1, len(text) - len(text.lstrip()))


@pytest.mark.asyncio
@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_hover_on_a_producer_names_the_listener_it_sets_off(client, content):
    uri = await _open(client, content / "pages" / "誘発.page")
    text = await _hover(client, uri, _at(PRODUCER_LINE))
    assert "この作用が誘発するもの" in text
    assert f"ページの除外 → `{LISTENER} 未来面 誘発.page:{LISTENER_LINE}:" in text


@pytest.mark.asyncio
@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_hover_on_a_listener_names_what_sets_it_off(client, content):
    uri = await _open(client, content / "pages" / "誘発.page")
    text = await _hover(client, uri, _at(LISTENER_LINE))
    assert "この作用を誘発するもの" in text
    assert f"ページの除外 ← `{PRODUCER} 未来面 誘発.page:{PRODUCER_LINE}:" in text
    # himitsu_kichi (pages/幼少期.page, another file) is exiled after its play
    assert "プレイ後に除外されるページ: himitsu_kichi" in text
    # and the term's own glossary is still there, above
    assert text.index("この作用を誘発するもの") > 0


@pytest.mark.asyncio
@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_the_hover_follows_an_edit_of_the_folder(client, content):
    path = content / "pages" / "誘発.page"
    uri = await _open(client, path)
    assert LISTENER in await _hover(client, uri, _at(PRODUCER_LINE))
    # the listener now waits for the turn's start: the exile sets off nothing
    edited = TRIGGER_PAGES.replace("毎 ページが除外された時", "毎 ターン開始時")
    await _replace(client, uri, 2, edited)
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), _at(PRODUCER_LINE)))
    assert found is None or "この作用が誘発するもの" not in found.contents.value

@pytest.mark.asyncio
@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_line_with_an_error_says_nothing_it_no_longer_sets_off(client, content):
    """The graph is of the last version without an error: over a line that now has one
    (a region mistyped), the hover does not list what the old line set off."""
    path = content / "pages" / "誘発.page"
    uri = await _open(client, path)
    broken = TRIGGER_PAGES.replace("手札 -> 除外", "手札 -> 徐外", 1)
    assert broken != TRIGGER_PAGES
    await _replace(client, uri, 2, broken)
    assert any(d.severity == types.DiagnosticSeverity.Error
               and d.range.start.line == PRODUCER_LINE - 1 for d in client.diagnostics[uri])
    found = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), _at(PRODUCER_LINE)))
    assert found is None or "この作用が誘発するもの" not in found.contents.value


def test_the_folder_keeps_its_trigger_graph_until_a_check_changes_its_pages(content):
    """A hover looks the graph up; an edit's check builds it again."""
    from lsp.folder import Folder
    from lsp.triggers import markdown, written_in

    folder = Folder(content)
    path = str(content / "pages" / "誘発.page")
    result = folder.check(path, TRIGGER_PAGES)
    graph = folder.trigger_graph()
    assert folder.trigger_graph() is graph
    assert LISTENER in markdown(graph, written_in(result, path), PRODUCER_LINE - 1)
    edited = TRIGGER_PAGES.replace("毎 ページが除外された時", "毎 ターン開始時")
    result = folder.check(path, edited)
    assert folder.trigger_graph() is not graph
    assert markdown(folder.trigger_graph(), written_in(result, path), PRODUCER_LINE - 1) is None
