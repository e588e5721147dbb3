"""jibunki journey report (journey/lab/: measure.py, text.py, html.py):
the same figures for any number of workers (and on Ray: test_journey_report_cache.py), the
command's tables and page, and clear errors for bad options."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import cli
from compiler.build import compile_content
from conftest import ROOT
from journey.lab.measure import Settings, run

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

SMALL = Settings(seeds=2, budgets=(1,), nodes=60, find_nodes=60, pairs=False)


@pytest.fixture(scope="module")
def literal() -> dict:
    return compile_content(ROOT / "content").tables["journey"]


@pytest.fixture(scope="module")
def one_worker(literal) -> dict:
    return run(literal, SMALL, workers=1)


def test_the_report_is_the_same_for_one_and_two_workers(literal, one_worker):
    assert run(literal, SMALL, workers=2) == one_worker


def test_the_report_measures_every_set_up_of_the_sweep(one_worker):
    ids = [row["id"] for row in one_worker["variants"]]
    assert ids == ["草案", "手札二枚", "手札三枚", "手札二枚と公開", "手札三枚と公開",
                   "高難易度", "問題点"]
    for row in one_worker["variants"]:
        solver = row["solver"]
        assert solver["won"] + solver["lost"] + solver["unknown"] == 2
        assert [p["budget"] for p in row["players"]] == [1]
        assert row["players"][0]["games"] == 2
        assert row["players"][0]["options_per_decision"] >= 2


def test_the_item_pairs_are_every_pair_of_the_draft(literal):
    from contract.codec import from_literal
    from contract.tables import JourneyTable
    from journey.lab.measure import variants

    found, _ = variants(from_literal(JourneyTable, literal, "journey"), Settings())
    pairs = [v.items for v in found if v.group == "アイテム"]
    assert len(pairs) == 15 and len(set(pairs)) == 15


# The report on Ray gives the local one's figures: test_journey_report_cache.py, whose Ray
# test asserts that too (each local Ray a run starts costs the suite seconds of CPU).


ARGS = ["journey", "report", "--seeds", "1", "--budget", "1", "--nodes", "40", "--no-pairs",
        "--workers", "1"]


def test_the_report_command_prints_its_tables_and_writes_an_offline_page(tmp_path):
    result = CliRunner().invoke(cli.main, ARGS + ["--html", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("旅の測定: シード 0〜0（変種ごとに 1 局）")
    for head in ("クリア（山の順を知る解き手）と勝率（山を見ない打ち手）", "クリア可能 % [95%]",
                 "勝率 1想定 % [95%]", "思考負荷（1想定の打ち手の局から）", "選択肢/決定",
                 "迷う選択肢/決定", "草案１７（地図+テント）", "問題点の提案", "うちいつでも/局"):
        assert head in out
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<svg" in page and "迷う選択肢" in page
    # the margin as the terminal says it (5 点, not 5.0 点)
    assert "最善の選択肢の評価から 5 点以内" in page and "5.0 点" not in page
    # Only the SVG namespaces name a URL; nothing is fetched.
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert not re.search(r"""(src|href)=["'](?!#)""", page)


def test_the_report_is_json_on_request():
    import json

    result = CliRunner().invoke(cli.main, ARGS + ["--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["format"] == "jibunki-journey-report 1"
    assert report["settings"]["margin"] == 5.0
    for row in report["variants"]:  # 「いつでも」 decisions are some of the decisions
        top = row["players"][-1]
        assert 0 <= top["free_use_per_game"] <= top["decisions_per_game"]
    assert any(row["players"][-1]["free_use_per_game"] > 0 for row in report["variants"])


@pytest.mark.parametrize("bad, said", [
    (["--budget", "0"], "1〜256"),
    (["--budget", "4,1"], "小さい順"),
    (["--budget", "a"], "整数"),
    (["--seeds", "0"], "--seeds"),
    (["--nodes", "-3"], "--nodes"),
    (["--backend", "mars"], "--backend"),
    (["--address", "127.0.0.1:1"], "--backend ray"),
    (["--backend", "ray", "--address", "foo"], "Ray のクラスタのアドレスではありません"),
])
def test_bad_options_are_a_clear_error_not_a_traceback(bad, said):
    result = CliRunner().invoke(cli.main, ["journey", "report", *bad])
    assert result.exit_code == 2
    assert said in result.output
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit)


def test_playing_is_unchanged_by_the_report_subcommand():
    """jibunki journey (no subcommand) still plays: a script that ends first is 3."""
    result = CliRunner().invoke(cli.main, ["journey", "--seed", "1", "--script", "/dev/null"])
    assert result.exit_code == 3, result.output


def test_the_command_defaults_are_the_labs():
    """The command's defaults are written beside its options (the CLI starts without
    importing sim/); they are the lab's."""
    from journey.lab import measure

    command = cli.main.commands["journey"].commands["report"]
    defaults = {p.name: p.default for p in command.params}
    assert defaults["seeds"] == measure.DEFAULT_SEEDS
    assert defaults["pair_seeds"] == measure.DEFAULT_PAIR_SEEDS
    assert defaults["nodes"] == measure.DEFAULT_NODES
    assert defaults["find_nodes"] is None
    assert measure.Settings().finding == measure.FIND_FACTOR * measure.DEFAULT_NODES == 30_000
    assert measure.Settings(nodes=40).finding == 40 * measure.FIND_FACTOR
    find = next(p for p in command.params if p.name == "find_nodes")
    assert f"既定: --nodes の {measure.FIND_FACTOR} 倍" in find.help
    assert measure.Settings(nodes=40, find_nodes=7).finding == 7
    assert defaults["polish_nodes"] is None
    assert measure.Settings().polishing == measure.POLISH_FACTOR * measure.DEFAULT_NODES == 9000
    polish = next(p for p in command.params if p.name == "polish_nodes")
    assert f"既定: --nodes の {measure.POLISH_FACTOR} 倍" in polish.help
    assert measure.Settings(nodes=40, polish_nodes=0).polishing == 0
    assert tuple(int(b) for b in defaults["budgets"].split(",")) == measure.DEFAULT_BUDGETS


def test_the_head_line_says_the_positions_a_first_win_is_looked_for_and_raised_with():
    from journey.lab.text import head_lines

    settings = {"seed": 0, "seeds": 2, "nodes": 60, "find_nodes": 600, "budgets": [1],
                "margin": 5.0, "pairs": False}
    report = {"settings": settings, "missing": []}
    assert "解く: 山の順を知って 60 局面まで（勝ち筋が見つかるまでは 600 局面まで）、" \
        in head_lines(report)[0]
    settings["find_nodes"] = 60
    assert "解く: 山の順を知って 60 局面まで、" in head_lines(report)[0]
    settings["polish_nodes"] = 180
    assert "解く: 山の順を知って 60 局面まで（見つかった後はスコアを上げるのに さらに 180 局面まで）、" \
        in head_lines(report)[0]
    settings["find_nodes"] = 600
    assert ("解く: 山の順を知って 60 局面まで（勝ち筋が見つかるまでは 600 局面まで、見つかった後は"
            "スコアを上げるのに さらに 180 局面まで）、") in head_lines(report)[0]


def test_the_page_says_its_best_scores_are_found_not_proven(one_worker):
    """最高点 is the best win the solver found: the page's notes say it is a lower bound
    that a larger budget can raise, as the terminal's notes do, and its settings the
    positions spent raising it."""
    from journey.lab.html import render_report

    page = render_report(one_worker)
    assert "最高点: 解き手が見つけた勝ち筋の点の中央値と範囲（最善と証明されない限り下限" in page
    assert "クリアできた配りの、解き手が見つけた最高点の分布（最善と証明されない限り下限）。" in page
    # and its settings say the positions that raise a first win's score, as the head line does
    assert "1 局 60 局面まで（見つかった後はスコアを上げるのに さらに 180 局面まで）。" in page


def test_the_page_is_the_same_bytes_for_the_same_report(one_worker):
    from journey.lab.html import render_report

    assert render_report(one_worker) == render_report(one_worker)


def test_a_page_that_cannot_be_written_is_a_clear_error(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("a file, not a folder", encoding="utf-8")
    result = CliRunner().invoke(cli.main, ARGS + ["--html", str(taken)])
    assert result.exit_code == 2 and "--html" in result.output  # a file, not a folder
    result = CliRunner().invoke(cli.main, ARGS + ["--html", str(taken / "inside")])
    assert result.exit_code == 1
    assert "に報告を書けません" in result.output and "Traceback" not in result.output
    assert "配り" not in result.output  # said before the run, not after it



def test_the_terminal_and_the_page_show_the_same_median_of_an_even_number_of_scores():
    """The best scores' median is computed once, where the rows are made (journey.lab.measure):
    with two scores, 10 and 13, both reports say 11.5, not one of them 13."""
    from types import SimpleNamespace

    from rich.console import Console

    from journey.lab.html import columns
    from journey.lab.measure import Solved, Task, Variant, _row
    from journey.lab.text import outcome_table

    table = SimpleNamespace(setups={"草案": SimpleNamespace(name="草案", carried=(), target=None)},
                            items={})
    settings = Settings(seeds=2, budgets=(), nodes=1, pairs=False)
    results = [(Task(0, "草案", None, seed, 0, 1), Solved("won", score, True, 1))
               for seed, score in ((0, 13), (1, 10))]
    row = _row(table, Variant("草案", "草案", "草案", None), results, settings)
    assert row["solver"]["median_score"] == 11.5
    best = next(c for c in columns([]) if c.header == "最高点 中央 [範囲]")
    assert best.cell(row) == "11.5 [10〜13]"
    console = Console(width=200, record=True)
    console.print(outcome_table({"settings": {"budgets": []}, "variants": [row]}))
    assert "11.5 [10〜13]" in console.export_text()


def test_the_item_pairs_are_dealt_their_own_number_of_deals(literal):
    """The 7 set-ups at ``seeds`` deals each, the 15 item pairs at ``pair_seeds``
    (issue 30's default report: 200 and 50)."""
    from contract.codec import from_literal
    from contract.tables import JourneyTable
    from journey.lab.measure import tasks_of, variants

    settings = Settings(seeds=3, pair_seeds=2, budgets=(1,))
    found, _ = variants(from_literal(JourneyTable, literal, "journey"), settings)
    tasks = tasks_of(found, settings)
    per = {v.id: sum(1 for t in tasks if t.variant == i and t.samples == 0)
           for i, v in enumerate(found)}
    assert [n for v, n in per.items() if ":" not in v] == [3] * 7
    assert [n for v, n in per.items() if ":" in v] == [2] * 15
    assert (Settings().seeds, Settings().pair_seeds) == (200, 50)


def _content_with(tmp_path, extra: str):
    import shutil

    folder = tmp_path / "content"
    shutil.copytree(ROOT / "content", folder)
    with open(folder / "journey" / "手札の変種.journey", "a", encoding="utf-8") as out:
        out.write(extra)
    return folder


EXTRA = "\n旅の準備 試し 「試しの準備」 {\n  元 草案\n  初期手札 4\n  目標 勝率 95%〜100%\n}\n"


def test_a_set_up_the_sweep_does_not_name_is_measured_after_it_and_its_target_checked(tmp_path):
    from contract.codec import from_literal
    from contract.tables import JourneyTable
    from journey.lab.measure import OTHER_GROUP, variants

    folder = _content_with(tmp_path, EXTRA)
    table = from_literal(JourneyTable, compile_content(folder).tables["journey"], "journey")
    found, missing = variants(table, Settings(pairs=False))
    assert [(v.id, v.group) for v in found][-2:] == [("問題点", "問題点"), ("試し", OTHER_GROUP)]
    assert missing == []
    got = CliRunner().invoke(cli.main, [*ARGS, "--ladder", "0", "--check", "--no-cache",
                                        "--content", str(folder)])
    assert got.exit_code == 1, got.output
    assert "目標から外れています: 試しの準備" in got.output


def test_a_content_without_a_set_up_is_refused_rather_than_reported_empty(tmp_path):
    folder = tmp_path / "content"
    (folder / "journey").mkdir(parents=True)
    source = (ROOT / "content" / "journey" / "草案17.journey").read_text(encoding="utf-8")
    (folder / "journey" / "草案17.journey").write_text(
        source[:source.index("旅の準備 草案")], encoding="utf-8")
    got = CliRunner().invoke(cli.main, [*ARGS, "--check", "--content", str(folder)])
    assert got.exit_code == 1, got.output
    assert "旅の準備がありません" in got.output and "Traceback" not in got.output


def test_a_folder_of_journey_files_alone_is_measured_as_it_is_played(tmp_path):
    import shutil

    shutil.copytree(ROOT / "content" / "journey", tmp_path / "content" / "journey")
    got = CliRunner().invoke(cli.main, [*ARGS, "--ladder", "0", "--no-cache", "--format", "json",
                                        "--content", str(tmp_path / "content")])
    assert got.exit_code == 0, got.output
    assert '"草案"' in got.output


def test_a_deal_the_player_won_is_winnable_though_the_solver_ran_out_of_budget():
    """クリア可能 is never below the blind player's win rate on the same deals: a game the
    player won is a winning line on the deal's own order, so a deal the solver left 未決 is
    可 with the player's score (the best of its budgets); a deal no one won stays 未決."""
    from types import SimpleNamespace

    from journey.lab.measure import Played, Solved, Task, Variant, _row

    table = SimpleNamespace(setups={"草案": SimpleNamespace(name="草案", carried=(), target=None)},
                            items={})
    settings = Settings(seeds=3, budgets=(1, 2), nodes=1, pairs=False)
    solved = {0: Solved("unknown", None, False, 1), 1: Solved("won", 9, True, 1),
              2: Solved("unknown", None, False, 1)}
    played = {(0, 1): Played(1, 20, 3, 3, ()), (0, 2): Played(1, 20, 5, 3, ()),
              (1, 1): Played(0, 20, None, 1, ()), (1, 2): Played(1, 20, 7, 3, ()),
              (2, 1): Played(0, 20, None, 1, ()), (2, 2): Played(0, 20, None, 1, ())}
    results = [(Task(0, "草案", None, seed, 0, 1), r) for seed, r in solved.items()]
    results += [(Task(0, "草案", None, seed, budget, 0), r) for (seed, budget), r in played.items()]
    row = _row(table, Variant("草案", "草案", "草案", None), results, settings)
    solver = row["solver"]
    assert (solver["won"], solver["lost"], solver["unknown"]) == (2, 0, 1)
    assert solver["won_by_players"] == 1
    assert solver["scores"] == [5, 9]  # the player's best on deal 0; the solver's on deal 1
    assert solver["proven_best"] == 1
    assert solver["winnable"]["estimate"] >= max(p["win_rate"]["estimate"] for p in row["players"])


def test_a_report_task_leaves_no_search_notes_for_the_collector_to_walk(literal, monkeypatch):
    """Each deal's search notes (journey/search.py ``_FACTS``) serve that deal alone: a task
    forgets them before the collector runs again, so the collection after each task walks
    only what lives on (it walked the notes after every task: some 5% of a report).
    Without ``forget`` a solve at 300 positions leaves thousands of tracked objects."""
    import gc

    from journey import search
    from journey.lab import measure

    context = measure.prepare(literal)

    def left_by(seed: int) -> int:
        gc.collect()
        before = len(gc.get_objects())
        measure.work(context, measure.Task(0, "草案", None, seed, 0, 300, 3000))
        gc.collect()
        return len(gc.get_objects()) - before

    left_by(1)  # the set-up's rules, read once per worker
    assert left_by(2) <= 50 and search._FACTS == {}
    monkeypatch.setattr(search, "forget", lambda: None)
    assert left_by(3) > 1000


# ------------------------------------------------------------------ --setup: some set-ups


def test_setup_measures_only_the_set_ups_named_with_the_full_reports_figures(literal,
                                                                             one_worker):
    """A set-up measured alone (by id or by 名前) has its row of the whole report, figure
    for figure: the same deals, solver and players; the rows keep the report's order."""
    import json

    result = CliRunner().invoke(cli.main, ["journey", "report", "--seeds", "2", "--budget", "1",
                                           "--nodes", "60", "--find-nodes", "60",
                                           "--setup", "問題点の提案,草案", "--workers", "1",
                                           "--no-cache", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [row["id"] for row in report["variants"]] == ["草案", "問題点"]
    assert report["settings"]["setups"] == ["草案", "問題点"] and report["missing"] == []
    whole = {row["id"]: row for row in one_worker["variants"]}
    for row in report["variants"]:
        assert row["solver"] == whole[row["id"]]["solver"]
        assert row["players"] == whole[row["id"]]["players"]
    assert "setups" not in one_worker["settings"]  # a report of every set-up reads as before


def test_setup_leaves_the_item_pairs_out_unless_asked_for(literal):
    from contract.codec import from_literal
    from contract.tables import JourneyTable
    from journey.lab.measure import PAIR_GROUP, variants

    table = from_literal(JourneyTable, literal, "journey")
    found, _ = variants(table, Settings(setups=("高難易度",), pairs=False))
    assert [(v.setup, v.group) for v in found] == [("高難易度", "高難易度")]
    found, _ = variants(table, Settings(setups=("高難易度",), pairs=True))
    assert sum(v.group == PAIR_GROUP for v in found) == 15
    # on the command line: --setup alone measures no pair, --setup with --pairs all 15
    args = ["journey", "report", "--seeds", "1", "--pair-deals", "1", "--budget", "1",
            "--nodes", "20", "--find-nodes", "20", "--ladder", "0", "--workers", "1",
            "--no-cache", "--format", "json", "--setup", "高難易度"]
    import json

    alone = json.loads(CliRunner().invoke(cli.main, args).stdout)
    assert [row["id"] for row in alone["variants"]] == ["高難易度"]
    assert alone["settings"]["pairs"] is False


def test_setup_says_which_set_ups_it_measured_above_the_tables():
    result = CliRunner().invoke(cli.main, ARGS + ["--setup", "高難易度", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "測った旅の準備: 高難易度（--setup で選んだものだけ。順位もこの中でのものです）" \
        in result.stdout
    assert "測った旅の準備" not in CliRunner().invoke(cli.main, ARGS + ["--no-cache"]).stdout


def test_setup_says_which_set_ups_it_measured_on_the_page():
    import json

    from journey.lab.html import render_report

    args = ARGS + ["--no-cache", "--format", "json"]

    chosen = json.loads(CliRunner().invoke(cli.main, args + ["--setup", "高難易度"]).stdout)
    assert "<dt>測った旅の準備</dt><dd>高難易度（--setup で選んだものだけ。" in render_report(chosen)
    assert "測った旅の準備" not in render_report(json.loads(CliRunner().invoke(cli.main, args).stdout))


@pytest.mark.parametrize("given, said", [
    ("草按", "旅の準備「草按」はありません"),
    ("草案,高難度", "もしかして"),
    (",、", "1 つ以上"),
])
def test_a_setup_the_content_lacks_is_a_usage_error_with_the_nearest_names(given, said):
    result = CliRunner().invoke(cli.main, ["journey", "report", "--setup", given])
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
