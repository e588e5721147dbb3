"""The language server publishes the interaction findings (analysis/: W006 …) of the open
document, on the whole content it knows — on the first check, which checks every file, and
on each edit after it, which checks only the document's items."""

from __future__ import annotations


import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import LSP_SERVER
from test_lsp import _open, _replace, _start
from test_trigger_chains import LOOP_PAGES

pytestmark = [pytest.mark.asyncio, pytest.mark.slow, pytest.mark.usefixtures("lsp_zygote")]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


def _w006(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics[uri] if d.code == "W006"]


async def test_a_loop_is_published_at_its_first_effect_and_follows_each_edit(
        client: LanguageClient, content):
    path = content / "pages" / "連鎖.page"
    path.write_text(LOOP_PAGES, encoding="utf-8")
    row = next(i for i, line in enumerate(LOOP_PAGES.split("\n")) if "除外 -> 手札" in line)
    uri = await _open(client, path)  # the first check: every file, the compiler's pass
    [diag] = _w006(client, uri)
    assert diag.range.start == types.Position(row, 4)
    assert diag.severity == types.DiagnosticSeverity.Warning
    assert "wasure" in diag.message and "最大 n 回" in diag.message
    bounded = LOOP_PAGES.replace("範囲 ラン\n", "範囲 ラン 最大 3 回\n", 1)
    await _replace(client, uri, 2, bounded)  # an edit: the document's items only
    assert _w006(client, uri) == []
    await _replace(client, uri, 3, "\n" + LOOP_PAGES)
    [diag] = _w006(client, uri)
    assert diag.range.start == types.Position(row + 1, 4)
