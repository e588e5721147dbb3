"""The language server publishes the interaction findings (analysis/: W006 …) of the open
document, on the whole content it knows — on the first check, which checks every file, and
on each edit after it, which checks only the document's items."""

from __future__ import annotations

import asyncio

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


#: Two pages alike but for their damage: the weaker gets W010 (dominated), naming the other.
WEAK = ('ページ qa_yowai "弱い一歩" {\n  銘 30\n  出自 壮年期\n  未来面 {\n    敵HP -= 8\n  }\n'
        '  過去面 白紙\n  ペン 過去面 { 防御 += 8 }\n}\n')
STRONG = WEAK.replace('qa_yowai "弱い一歩"', 'qa_tsuyoi "強い一歩"').replace("敵HP -= 8", "敵HP -= 12")


async def _codes_become(client: LanguageClient, uri: str, wanted: bool, code: str = "W010"):
    """Wait until ``uri``'s published diagnostics hold ``code`` (or do not)."""
    for _ in range(50):
        if (code in {d.code for d in client.diagnostics.get(uri, [])}) == wanted:
            return
        try:
            await asyncio.wait_for(client.wait_for_notification(
                "textDocument/publishDiagnostics"), 0.2)
        except asyncio.TimeoutError:
            pass
    raise AssertionError(f"{uri}: {code} {'never came' if wanted else 'stayed'}: "
                         f"{[d.code for d in client.diagnostics.get(uri, [])]}")


async def test_a_finding_about_another_page_follows_an_edit_of_that_page(
        client: LanguageClient, content):
    """W010 reads two pages: when the page named as the stronger one is edited to be the
    weaker, the other open document's W010 goes — it is published again, not left
    saying the opposite of lint."""
    weak, strong = content / "pages" / "qa_A.page", content / "pages" / "qa_B.page"
    weak.write_text(WEAK, encoding="utf-8")
    strong.write_text(STRONG, encoding="utf-8")
    weak_uri = await _open(client, weak)
    strong_uri = await _open(client, strong)
    await _codes_become(client, weak_uri, True)
    await _replace(client, strong_uri, 2, STRONG.replace("敵HP -= 12", "敵HP -= 4"))
    await _codes_become(client, strong_uri, True)
    await _codes_become(client, weak_uri, False)
    await _replace(client, strong_uri, 3, STRONG)  # and back
    await _codes_become(client, weak_uri, True)
    await _codes_become(client, strong_uri, False)
