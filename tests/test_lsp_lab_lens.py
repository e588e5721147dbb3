"""The pages' lab lens: over each page definition its last verdict and 目標 status (from the
report ``jibunki sim --html`` leaves in generated/sim/, or from 「この ページで実験」 run in
the editor), marked when the page changed since; a missing or broken report shows none."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import LSP_SERVER, ROOT
from lsp import lab_lens
from sim.lab import FORMAT
from test_lsp import _lenses, _open, _refreshes, _replace, _start


PAGES = "pages/壮年期.page"  # zangyou (目標 -10%〜+15%), kodomo (目標 -15%〜+10%)


def _row(page: str, estimate: float, low: float, high: float, verdict: str,
         target: tuple | None = None, met: bool | None = None) -> dict:
    return {"id": page, "name": page, "pairs": 400,
            "delta": {"estimate": estimate, "low": low, "high": high},
            "verdict": verdict, "target": None if target is None
            else {"low": target[0], "high": target[1]}, "target_met": met}


ROWS = [_row("zangyou", 0.041, 0.012, 0.07, "stronger", (-0.1, 0.15), True),
        _row("kodomo", -0.25, -0.31, -0.19, "weaker", (-0.15, 0.1), False)]
TITLES = {"zangyou": "勝率差 +4.1%（±2.9%）強い ・ 目標 -10%〜+15% 達成",
          "kodomo": "勝率差 -25%（±6%）弱い ・ 目標 -15%〜+10% 未達（下に外れ）"}


# ------------------------------------------------------------------ the title (no server)


def test_the_lens_says_a_target_in_the_words_of_the_labs_reports():
    """The lens said 内 / 外（強い） where the lab's report, the catalog and `sim --check`
    say 達成 / 未達（上に外れ）: one verdict, one word."""
    from sim.stats import target_word

    for met, interval in ((True, (0.041, 0.012, 0.07)), (False, (-0.25, -0.31, -0.19)),
                          (False, (0.3, 0.25, 0.35)), (None, (0.09, 0.05, 0.13))):
        row = _row("x", *interval, "stronger", (-0.15, 0.1), met)
        assert lab_lens.summary(row).endswith(f" {target_word(row)}")


def test_a_row_s_title_says_its_delta_interval_verdict_and_target():
    for row in ROWS:
        assert lab_lens.summary(row) == TITLES[row["id"]]
    stronger = _row("x", 0.3, 0.25, 0.35, "stronger", (-0.1, 0.1), False)
    assert lab_lens.summary(stronger).endswith("目標 -10%〜+10% 未達（上に外れ）")
    straddling = _row("x", 0.09, 0.05, 0.13, "stronger", (-0.1, 0.1), None)
    assert lab_lens.summary(straddling).endswith("目標 -10%〜+10% 未決")
    assert lab_lens.summary(_row("x", 0.0, -0.02, 0.02, "no_effect")) \
        == "勝率差 0%（±2%）差なし"  # no target: nothing said of one


def test_a_report_of_another_question_says_which_before_its_figure(tmp_path):
    """A run with --baseline (the page swapped, the deck size held) or against one enemy
    answers another question than the lens's own (added, against the pool): the title says
    which, as the terminal and the catalog do, rather than pass it off as the page's Δ."""
    base = {"format": FORMAT, "pages": ROWS}
    asked = {
        "「坂道の自転車」と入れ替え: 勝率差 +4.1%": {"mode": "pool", "enemies": ["a", "b"],
                                                "baseline_page": "sakamichi",
                                                "page_names": {"sakamichi": "坂道の自転車"}},
        "敵 shimekiri だけ: 勝率差 +4.1%": {"mode": "pool", "enemies": ["shimekiri"],
                                         "baseline_page": None},
        "敵 a→b と続けて: 勝率差 +4.1%": {"mode": "stages", "enemies": ["a", "b"]},
        "勝率差 +4.1%": {"mode": "pool", "enemies": ["a", "b"], "baseline_page": None},
    }
    for said, settings in asked.items():
        path = tmp_path / "report.json"
        path.write_text(json.dumps({**base, "settings": settings}), encoding="utf-8")
        title = lab_lens.summary(lab_lens._read_rows(path)["zangyou"])
        assert title.startswith(said), title


@pytest.mark.parametrize("spoil", [
    lambda r: r.update(delta=None), lambda r: r["delta"].update(low="0.1"),
    lambda r: r["delta"].update(high=float("nan")), lambda r: r["delta"].update(low=True),
    lambda r: r["delta"].update(low=0.5), lambda r: r.update(verdict="great"),
    lambda r: r.update(verdict=["stronger"]), lambda r: r.update(target="-10%"),
    lambda r: r.update(target={"low": -0.1}), lambda r: r.update(target_met="yes"),
])
def test_a_row_missing_what_the_title_needs_has_no_title(spoil):
    row = json.loads(json.dumps(ROWS[0]))
    spoil(row)
    assert lab_lens.summary(row) is None


@pytest.mark.slow  # plays a few hundred battles twice
def test_one_page_is_measured_with_the_lab_s_row_and_the_same_row_each_time():
    from compiler.build import compile_content
    from sim.one_page import run_page

    literal = compile_content(ROOT / "content").tables
    row = run_page(literal, "kodomo", precision=0.1, max_pairs=200)
    assert row["id"] == "kodomo" and row["pairs"] <= 200
    assert row["target"] == {"low": -0.15, "high": 0.1}
    assert lab_lens.summary(row) is not None
    assert row["settings"]["enemies"] and row["settings"]["ladder"] == ["greedy"]
    assert run_page(literal, "kodomo", precision=0.1, max_pairs=200) == row
    with pytest.raises(KeyError):
        run_page(literal, "nosuchpage")


# ------------------------------------------------------------------ in the editor


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


def _report(content: Path, text: str) -> Path:
    """Write the report beside ``content`` as ``jibunki sim --html`` does, newer than
    every content file."""
    path = content.parent / "generated" / "sim" / "report.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    later = max(p.stat().st_mtime for p in content.rglob("*")) + 10
    os.utime(path, (later, later))
    return path


def _good_report(pages: list[dict] = ROWS) -> str:
    return json.dumps({"format": FORMAT, "settings": {}, "enemies": [], "pages": pages},
                      ensure_ascii=False)


async def _lab_lenses(client: LanguageClient, uri: str) -> dict[int, str]:
    return {lens.range.start.line: lens.command.title
            for lens in await _lenses(client, uri) if lens.command.command == lab_lens.COMMAND}


def _line_of(path: Path, needle: str) -> int:
    return next(row for row, line in enumerate(path.read_text(encoding="utf-8").split("\n"))
                if line.startswith(needle))


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_page_in_the_report_has_its_verdict_over_its_definition(
        client: LanguageClient, content):
    _report(content, _good_report())
    path = content / PAGES
    uri = await _open(client, path)
    found = await _lab_lenses(client, uri)
    assert found == {_line_of(path, f"ページ {page} "): f"{title} ▶ {lab_lens.RUN_TITLE}"
                     for page, title in TITLES.items()}
    lens = next(lens for lens in await _lenses(client, uri)
                if lens.command.command == lab_lens.COMMAND)
    assert list(lens.command.arguments) == [uri, "zangyou"]


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
@pytest.mark.parametrize("report", [
    None, "", "{", "[]", "null", json.dumps({"format": "jibunki-sim-report 2", "pages": ROWS}),
    json.dumps({"format": FORMAT, "pages": {"zangyou": ROWS[0]}}),
    json.dumps({"format": FORMAT, "pages": [1, "zangyou", {"id": 3}, {"id": "kodomo"},
                                            {**ROWS[0], "delta": {"estimate": "+4%"}}]}),
    "[" * 100_000,
], ids=["none", "empty", "cut", "list", "null", "other-format", "pages-not-a-list",
        "broken-rows", "deep"])
async def test_without_a_readable_report_no_page_has_a_verdict(client: LanguageClient, content,
                                                                report):
    if report is not None:
        _report(content, report)
    uri = await _open(client, content / PAGES)
    assert await _lab_lenses(client, uri) == {}
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    assert {"zangyou", "kodomo"} <= {s.name for s in symbols}  # the server still serves


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_page_changed_since_the_report_is_marked(client: LanguageClient, content):
    report = _report(content, _good_report())
    path = content / PAGES
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    # unsaved: an edit of kodomo makes its verdict old, zangyou's stays
    edited = text.replace("ページ kodomo \"子の誕生\" {", "ページ kodomo \"子の誕生\" {\n  # メモ", 1)
    assert edited != text
    await _replace(client, uri, 2, edited)
    found = await _lab_lenses(client, uri)
    assert found[_line_of(path, "ページ zangyou ")] == f"{TITLES['zangyou']} ▶ {lab_lens.RUN_TITLE}"
    assert found[_line_of(path, "ページ kodomo ")] \
        == f"{TITLES['kodomo']} ・ {lab_lens.STALE} ▶ {lab_lens.RUN_TITLE}"
    # saved after the report: every page of the file may have changed
    await _replace(client, uri, 3, text)
    later = report.stat().st_mtime + 5
    os.utime(path, (later, later))
    found = await _lab_lenses(client, uri)
    assert set(found.values()) == {f"{TITLES[p]} ・ {lab_lens.STALE} ▶ {lab_lens.RUN_TITLE}"
                                   for p in TITLES}


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_report_that_keeps_each_pages_text_marks_only_the_page_that_changed(
        client: LanguageClient, content):
    """The audit's case: a save of the file after the report — another page edited, or
    nothing changed at all — marked every page of the file old. A report that keeps each
    page's text digest (sim.lab ``text_digest``) marks the page whose text differs."""
    from conftest import compiled_tables
    from sim.lab import text_digest

    tables = compiled_tables(content)
    rows = [{**row, "text_sha256": text_digest(tables.pages[row["id"]].source.text)}
            for row in ROWS]
    report = _report(content, _good_report(rows))
    path = content / PAGES
    text = path.read_text(encoding="utf-8")
    later = report.stat().st_mtime + 5
    os.utime(path, (later, later))  # saved after the report, the same text
    uri = await _open(client, path)
    fresh = {p: f"{TITLES[p]} ▶ {lab_lens.RUN_TITLE}" for p in TITLES}
    assert set((await _lab_lenses(client, uri)).values()) == set(fresh.values())
    edited = text.replace("ページ kodomo \"子の誕生\" {", "ページ kodomo \"子の誕生\" {\n  # メモ", 1)
    path.write_text(edited, encoding="utf-8")
    os.utime(path, (later + 5, later + 5))
    await _replace(client, uri, 2, edited)
    found = await _lab_lenses(client, uri)
    assert found[_line_of(path, "ページ zangyou ")] == fresh["zangyou"]
    assert found[_line_of(path, "ページ kodomo ")] \
        == f"{TITLES['kodomo']} ・ {lab_lens.STALE} ▶ {lab_lens.RUN_TITLE}"


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_running_the_lab_for_a_page_gives_it_a_verdict_without_blocking_the_server(
        client: LanguageClient, content):
    refreshed = _refreshes(client)
    path = content / "pages" / "少年期.page"
    uri = await _open(client, path)
    assert await _lab_lenses(client, uri) == {}  # no report, no run yet
    row = _line_of(path, "ページ hatsukoi ")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(row + 2, 2),
                                                       types.Position(row + 2, 2)),
        types.CodeActionContext(diagnostics=[])))
    [action] = [a for a in actions if isinstance(a, types.Command)]
    assert action.title == lab_lens.RUN_TITLE and action.command == lab_lens.COMMAND
    assert list(action.arguments) == [uri, "hatsukoi"]

    running = asyncio.ensure_future(client.workspace_execute_command_async(
        types.ExecuteCommandParams(action.command, action.arguments)))
    await asyncio.wait_for(refreshed.wait(), 10)
    refreshed.clear()
    assert (await _lab_lenses(client, uri))[row] == lab_lens.RUNNING
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    assert not running.done()  # answered while the lab plays

    outcome = await asyncio.wait_for(running, 60)
    assert outcome["state"] == "done" and outcome["page"] == "hatsukoi"
    await asyncio.wait_for(refreshed.wait(), 10)
    title = (await _lab_lenses(client, uri))[row]
    assert title == f"{outcome['summary']} ▶ {lab_lens.RUN_TITLE}"
    assert title.startswith("勝率差 ") and lab_lens.STALE not in title

    text = path.read_text(encoding="utf-8")
    edited = text.replace("ページ hatsukoi \"初恋\" {", "ページ hatsukoi \"初恋\" {\n  # メモ", 1)
    assert edited != text
    await _replace(client, uri, 2, edited)
    assert (await _lab_lenses(client, uri))[row] \
        == f"{outcome['summary']} ・ {lab_lens.STALE} ▶ {lab_lens.RUN_TITLE}"


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the lab) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_page_that_cannot_be_measured_says_why_in_japanese(client: LanguageClient,
                                                                   content):
    _refreshes(client)
    path = content / "pages" / "少年期.page"
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("銘 ", "名 ", 1))
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        lab_lens.COMMAND, [uri, "hatsukoi"]))
    assert outcome["state"] == "blocked"
    assert outcome["message"].startswith("コンテンツにエラーがあります")
    assert "Traceback" not in outcome["message"]
    row = _line_of(path, "ページ hatsukoi ")
    title = (await _lab_lenses(client, uri))[row]
    assert title.startswith("実験できません: コンテンツにエラーがあります")
    # The error fixed, the lens no longer says the page cannot be measured (it did until
    # the next run, whatever the designer fixed).
    await _replace(client, uri, 3, text)
    assert not (await _lab_lenses(client, uri)).get(row, "").startswith("実験できません")
