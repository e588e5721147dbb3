"""The set-ups' lens: over each 旅の準備 the journey report measured, its win rate against
its 目標 and the verdict in the report's words (from the report ``jibunki journey report
--html`` leaves in generated/journey/), marked once the journey files changed since; a
missing or broken report shows none."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import pytest_lsp
from click.testing import CliRunner
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

import cli
from conftest import LSP_SERVER
from journey.lab.measure import FORMAT
from lsp import journey_lens
from test_lsp import _lenses, _open, _replace, _start

DRAFT = "journey/草案17.journey"  # 草案 (目標 30%〜70%), 高難易度 (10%〜40%), 問題点 …
HANDS = "journey/手札の変種.journey"  # 手札二枚, 手札三枚と公開: the draft's 目標 inherited


def _row(setup: str, rate: tuple, target: tuple | None = (0.3, 0.7), item: str = "") -> dict:
    estimate, low, high = rate
    return {"id": setup + item, "setup": setup, "group": "草案",
            "target": None if target is None else {"low": target[0], "high": target[1]},
            "players": [{"budget": 1, "win_rate": {"estimate": 0.1, "low": 0.0, "high": 0.3},
                         "rivals_per_game": 80.0},
                        {"budget": 2, "win_rate": {"estimate": estimate, "low": low, "high": high},
                         "rivals_per_game": 114.9}]}


def _entry(setup: str, status: str, rank=None, load=114.9, seeds=None) -> dict:
    return {"id": setup, "status": status, "rank": rank, "load": load, "seeds_to_decide": seeds}


ROWS = [_row("草案", (0.385, 0.32, 0.454)), _row("高難易度", (0.085, 0.054, 0.132), (0.1, 0.4)),
        _row("問題点", (0.9, 0.85, 0.95)), _row("手札二枚", (0.26, 0.204, 0.325)),
        _row("手札三枚と公開", (0.435, 0.368, 0.504), None),
        _row("草案", (0.0, 0.0, 0.1), item=":ランタン+地図")]  # an item pair: no set-up's row
RANKING = [_entry("草案", "met", rank=2), _entry("高難易度", "undecided", seeds=1160),
           _entry("問題点", "missed"), _entry("手札二枚", "undecided")]
TITLES = {
    "草案": "勝率 2想定 38.5 [32.0, 45.4] % ／ 目標 勝率 30%〜70% 達成（2 位・迷う選択肢/局 114.9）",
    "高難易度": "勝率 2想定 8.5 [5.4, 13.2] % ／ 目標 勝率 10%〜40% 未決"
                "（今の勝率のままなら --deals 1160 で判定）",
    "問題点": "勝率 2想定 90.0 [85.0, 95.0] % ／ 目標 勝率 30%〜70% 未達（上に外れ）",
    "手札二枚": "勝率 2想定 26.0 [20.4, 32.5] % ／ 目標 勝率 30%〜70% 未決",
    "手札三枚と公開": "勝率 2想定 43.5 [36.8, 50.4] % ・ 迷う選択肢/局 114.9",
}


def _report(rows=ROWS, ranking=RANKING, budgets=(1, 2)) -> dict:
    return {"format": FORMAT, "settings": {"budgets": list(budgets)}, "variants": rows,
            "ranking": ranking, "missing": [], "run": {}}


# ------------------------------------------------------------------ the title (no server)


def test_a_setups_title_says_its_win_rate_its_target_and_the_verdict_as_the_report_does(
        tmp_path):
    path = tmp_path / "journey-report.json"
    path.write_text(json.dumps(_report(), ensure_ascii=False), encoding="utf-8")
    titles, written = journey_lens.Reports().titles(path)
    assert titles == TITLES and written == path.stat().st_mtime_ns


def test_a_report_of_set_ups_chosen_with_setup_gives_no_rank_on_the_lens(tmp_path):
    """--setup ranks the set-ups it measured among themselves: 「1 位」 of a report of one
    would read as the variant's place among all of them."""
    path = tmp_path / "journey-report.json"
    report = _report(rows=[ROWS[0]], ranking=[_entry("草案", "met", rank=1)])
    report["settings"]["setups"] = ["草案"]
    path.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    titles, _ = journey_lens.Reports().titles(path)
    assert titles == {"草案": "勝率 2想定 38.5 [32.0, 45.4] % ／ 目標 勝率 30%〜70% 達成"
                              "（迷う選択肢/局 114.9）"}


@pytest.mark.parametrize("spoil", [
    lambda r: r["players"].pop(),                       # a budget without its player
    lambda r: r["players"][-1]["win_rate"].update(low="38%"),
    lambda r: r["players"][-1]["win_rate"].update(low=0.5),   # low above the estimate
    lambda r: r["players"][-1]["win_rate"].update(high=float("nan")),
    lambda r: r.update(target={"low": 0.3}),
    lambda r: r.update(target={"low": 0.3, "high": 7}),
    lambda r: r.update(players="38%"),
])
def test_a_row_missing_what_the_title_needs_has_no_title(spoil):
    row = _row("草案", (0.385, 0.32, 0.454))
    spoil(row)
    assert journey_lens.summary(row, RANKING[0], [1, 2]) is None


def test_a_target_without_its_ranking_entry_or_with_an_unknown_status_has_no_title():
    row = _row("草案", (0.385, 0.32, 0.454))
    assert journey_lens.summary(row, None, [1, 2]) is None
    assert journey_lens.summary(row, _entry("草案", "passed"), [1, 2]) is None
    assert journey_lens.summary(row, _entry("草案", "met", load="114.9"), [1, 2]) is None


def test_a_setup_measured_alone_that_meets_its_target_says_its_load_without_a_rank():
    """A rank among one says nothing: an editor run's entry has none, and the title keeps
    the load."""
    row = _row("草案", (0.385, 0.32, 0.454))
    assert journey_lens.summary(row, _entry("草案", "met"), [1, 2]) == \
        "勝率 2想定 38.5 [32.0, 45.4] % ／ 目標 勝率 30%〜70% 達成（迷う選択肢/局 114.9）"


@pytest.mark.slow  # the journey report of one set-up, a few deals
def test_one_setup_is_measured_with_the_reports_own_row_and_the_editor_settings_bounded():
    from compiler.build import compile_content
    from conftest import ROOT
    from journey.lab.measure import Settings, run
    from journey.lab.one_setup import UnknownSetup, run_setup, settings_of

    literal = compile_content(ROOT / "content").tables["journey"]
    small = {"seeds": 2, "nodes": 50, "find_nodes": 50}
    answer = run_setup(literal, "高難易度", **small)
    whole = run(literal, Settings(pairs=False, ladder=0, **small))
    [row] = [r for r in whole["variants"] if r["id"] == "高難易度"]
    assert answer["row"] == row and answer["budgets"] == [1, 2]
    [entry] = [e for e in whole["ranking"] if e["id"] == "高難易度"]
    assert answer["entry"] == {**entry, "rank": None}
    assert journey_lens.summary(answer["row"], answer["entry"], answer["budgets"]) is not None
    with pytest.raises(UnknownSetup):
        run_setup(literal, "草按")
    assert settings_of({"deals": 3, "nodes": 40, "cache": False}) == {"seeds": 3, "nodes": 40}
    for spoilt in ({"deals": 0}, {"deals": True}, {"nodes": 10**9}, {"deals": "3"},
                   {"workers": 64, "find_nodes": 10**8}, [], "deals", None):
        assert settings_of(spoilt) == {}


@pytest.mark.slow  # over a second: the full suite's (README: the fast loop)
def test_the_report_command_leaves_the_report_beside_its_page_for_the_lens(tmp_path):
    """`--html` writes the JSON the lens reads beside index.html, as `--format json`
    prints it; a second run writes over its own folder, and the battle lab will not."""
    args = ["journey", "report", "--seeds", "1", "--budget", "1", "--nodes", "40",
            "--no-pairs", "--workers", "1", "--no-cache"]
    out = tmp_path / "generated" / "journey"
    for _ in range(2):
        result = CliRunner().invoke(cli.main, args + ["--html", str(out)])
        assert result.exit_code == 0, result.output
    printed = json.loads(CliRunner().invoke(cli.main, args + ["--format", "json"]).stdout)
    written = json.loads((out / "journey-report.json").read_text(encoding="utf-8"))
    assert written["variants"] == printed["variants"] and written["format"] == FORMAT
    titles, _ = journey_lens.Reports().titles(out / "journey-report.json")
    assert set(titles) == {row["id"] for row in printed["variants"]}
    refused = CliRunner().invoke(cli.main, ["sim", "--html", str(out)])  # refused at once
    assert refused.exit_code == 1 and "には旅の報告があります" in refused.output


# ------------------------------------------------------------------ in the editor


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    await _start(lsp_client, content)
    yield
    await lsp_client.shutdown_session()


def _write(content: Path, text: str) -> Path:
    """Write the report beside ``content`` as `jibunki journey report --html` does, newer
    than every content file."""
    path = content.parent / journey_lens.REPORT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    later = max(p.stat().st_mtime for p in content.rglob("*")) + 10
    os.utime(path, (later, later))
    return path


async def _setup_lenses(client: LanguageClient, uri: str) -> dict[int, str]:
    """The lenses' titles by line, each without the command it offers (every set-up lens
    offers 「この 準備で測る」, and runs it when clicked)."""
    found = {}
    for lens in await _lenses(client, uri):
        title = lens.command.title
        if lens.command.command == journey_lens.COMMAND:
            assert title.endswith(f" ▶ {journey_lens.RUN_TITLE}") or title == journey_lens.RUNNING
            assert list(lens.command.arguments)[0] == uri
            title = title.removesuffix(f" ▶ {journey_lens.RUN_TITLE}")
        found[lens.range.start.line] = title
    return found


def _line_of(path: Path, needle: str) -> int:
    return next(row for row, line in enumerate(path.read_text(encoding="utf-8").split("\n"))
                if line.startswith(needle))


@pytest.mark.asyncio
@pytest.mark.slow  # a language server in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_setup_in_the_report_has_its_verdict_over_its_definition(
        client: LanguageClient, content):
    _write(content, json.dumps(_report(), ensure_ascii=False))
    for name, setups in ((DRAFT, ("草案", "高難易度", "問題点")), (HANDS, ("手札二枚", "手札三枚と公開"))):
        path = content / name
        uri = await _open(client, path)
        assert await _setup_lenses(client, uri) == {
            _line_of(path, f"旅の準備 {setup} "): TITLES[setup] for setup in setups}


@pytest.mark.asyncio
@pytest.mark.slow  # a language server in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
@pytest.mark.parametrize("report", [
    None, "", "{", "[]", json.dumps({**_report(), "format": "jibunki-sim-report 3"}),
    json.dumps({**_report(), "settings": {"budgets": []}}),
    json.dumps({**_report(), "variants": {"草案": ROWS[0]}}), "[" * 100_000,
], ids=["none", "empty", "cut", "list", "other-format", "no-budgets", "rows-not-a-list", "deep"])
async def test_without_a_readable_report_no_setup_has_a_verdict(client: LanguageClient, content,
                                                                 report):
    if report is not None:
        _write(content, report)
    uri = await _open(client, content / DRAFT)
    assert await _setup_lenses(client, uri) == {}
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    assert "草案" in {s.name for s in symbols}  # the server still serves


@pytest.mark.asyncio
@pytest.mark.slow  # a language server in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_setup_whose_journey_files_changed_since_the_report_is_marked(
        client: LanguageClient, content):
    """A variant inherits its 元's fields: an edit of the draft's file may change every
    set-up's figures, so the hands' file is marked too once the draft's is saved."""
    report = _write(content, json.dumps(_report(), ensure_ascii=False))
    hands, draft = content / HANDS, content / DRAFT
    uri = await _open(client, hands)
    text = hands.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("初期手札 1", "初期手札 2", 1))  # unsaved
    stale = f" ・ {journey_lens.STALE}"
    assert set((await _setup_lenses(client, uri)).values()) == {
        TITLES["手札二枚"] + stale, TITLES["手札三枚と公開"] + stale}
    await _replace(client, uri, 3, text)  # back as saved
    assert set((await _setup_lenses(client, uri)).values()) == {
        TITLES["手札二枚"], TITLES["手札三枚と公開"]}
    later = report.stat().st_mtime + 5
    os.utime(draft, (later, later))  # the draft saved after the report
    assert set((await _setup_lenses(client, uri)).values()) == {
        TITLES["手札二枚"] + stale, TITLES["手札三枚と公開"] + stale}


#: The editor's settings for a run of seconds (journey/lab/one_setup.py EDITOR_LIMITS).
QUICK = {"deals": 2, "nodes": 50, "cache": False}


@pytest.mark.asyncio
@pytest.mark.slow  # a language server (and, once, the journey report) in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_measuring_a_setup_from_the_editor_gives_it_a_verdict_without_blocking_the_server(
        client: LanguageClient, content):
    import asyncio

    from test_lsp import _refreshes

    refreshed = _refreshes(client)
    path = content / HANDS
    uri = await _open(client, path)
    assert await _setup_lenses(client, uri) == {}  # no report, no run yet
    row = _line_of(path, "旅の準備 手札二枚 ")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), types.Range(types.Position(row + 1, 2),
                                                       types.Position(row + 1, 2)),
        types.CodeActionContext(diagnostics=[])))
    [action] = [a for a in actions if isinstance(a, types.Command)]
    assert action.title == journey_lens.RUN_TITLE and action.command == journey_lens.COMMAND
    assert list(action.arguments) == [uri, "手札二枚"]

    running = asyncio.ensure_future(client.workspace_execute_command_async(
        types.ExecuteCommandParams(action.command, [*action.arguments, QUICK])))
    await asyncio.wait_for(refreshed.wait(), 10)
    refreshed.clear()
    assert (await _setup_lenses(client, uri)) == {row: journey_lens.RUNNING}
    again = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(action.command, [*action.arguments, QUICK]))
    assert again["state"] == "running"  # one run of a set-up at a time
    await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(uri)))
    assert not running.done()  # answered while the deals are played

    outcome = await asyncio.wait_for(running, 120)
    assert outcome["state"] == "done" and outcome["setup"] == "手札二枚"
    await asyncio.wait_for(refreshed.wait(), 10)
    title = (await _setup_lenses(client, uri))[row]
    assert title == outcome["summary"]
    # the draft's 目標, inherited: judged on the blind player's win rate at its largest budget
    assert title.startswith("勝率 2想定 ") and "／ 目標 勝率 30%〜70% " in title

    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("初期手札 1", "初期手札 2", 1))
    assert (await _setup_lenses(client, uri))[row] == f"{title} ・ {journey_lens.STALE}"
    await _replace(client, uri, 3, text)  # the texts it measured again: not old
    assert (await _setup_lenses(client, uri))[row] == title


@pytest.mark.asyncio
@pytest.mark.slow  # a language server in a process
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
async def test_a_setup_that_cannot_be_measured_says_why_in_japanese(client: LanguageClient,
                                                                    content):
    from test_lsp import _refreshes

    _refreshes(client)
    path = content / DRAFT
    uri = await _open(client, path)
    text = path.read_text(encoding="utf-8")
    await _replace(client, uri, 2, text.replace("最終日", "最終曜日", 1))
    outcome = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        journey_lens.COMMAND, [uri, "高難易度", QUICK]))
    assert outcome["state"] == "blocked"
    assert outcome["message"].startswith("コンテンツにエラーがあります")
    assert "Traceback" not in outcome["message"]
    row = _line_of(path, "旅の準備 高難易度 ")
    assert (await _setup_lenses(client, uri))[row].startswith("測れません: コンテンツにエラーがあります")
    await _replace(client, uri, 3, text)  # fixed: no longer said to be unmeasurable
    assert not (await _setup_lenses(client, uri)).get(row, "").startswith("測れません")
    # a set-up the document does not define, or a forged argument, is answered with nothing
    for args in ([uri, "草按", QUICK], [uri, "草按"], [uri, 3], ["file:///etc/passwd", "草案"]):
        assert await client.workspace_execute_command_async(
            types.ExecuteCommandParams(journey_lens.COMMAND, args)) is None
