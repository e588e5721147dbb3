"""``jibunki analyze``: each 作用 of the named pages with what it sets off and what sets it
off, the findings with their codes, the graph as JSON, a Japanese usage error for an
unknown id, content errors reported as lint does, and the witnesses written only inside
the folder named."""

from __future__ import annotations

import re

import json

import pytest

from conftest import invoke_cli
from test_trigger_chains import LOOP_PAGES


@pytest.fixture
def looping(content):
    with (content / "pages" / "熟年期.page").open("a", encoding="utf-8") as out:
        out.write(LOOP_PAGES)
    return content


def test_a_page_shows_what_it_sets_off_and_what_sets_it_off(content):
    result = invoke_cli("analyze", "dansyari", "omoide_bako", "--content", str(content))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("ページ dansyari「断捨離」") < out.index("ページ omoide_bako")
    # the places as lint says them: from the working folder (here, the test's content lies
    # elsewhere, so they are absolute)
    assert re.search(r"起こす: ページの除外 → omoide_bako 未来面 \S*content/pages/熟年期\.page:24", out)
    assert "起こされる: ページの除外 ← " in out
    assert re.search(r"dansyari 未来面 \S*content/pages/熟年期\.page:9", out)
    assert "所見 0 件" in out


def test_the_whole_content_lists_every_item_and_the_loop_with_its_code(looping):
    result = invoke_cli("analyze", "--content", str(looping))
    assert result.exit_code == 0, result.output
    assert "ページ kaeri「帰り道」" in result.output and "敵 haguruma" in result.output
    (line,) = [line for line in result.output.splitlines() if line.strip().startswith("W006")]
    assert "熟年期.page:" in line and "kaeri" in line and "wasure" in line


def test_a_loop_is_a_finding_of_every_page_it_runs_through(looping):
    """W006 is reported at the loop's first 作用 (kaeri's): analysing the other page of the
    loop shows it too — the page is as much in the loop."""
    result = invoke_cli("analyze", "wasure", "--content", str(looping))
    assert result.exit_code == 0, result.output
    assert "所見 1 件" in result.output and "W006" in result.output


def test_loops_with_no_witness_are_said_so_not_called_absent(looping, tmp_path):
    page = looping / "pages" / "熟年期.page"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("移動 1枚 手札 -> 除外 ランダム", "移動 1枚 手札 -> 除外 選択"),
                    encoding="utf-8")
    result = invoke_cli("analyze", "--content", str(looping), "--witness", str(tmp_path / "w"))
    assert result.exit_code == 0, result.output
    assert "証拠の例なし" in result.output
    assert "終わりのない連鎖 1 件のどれも、例で起こせません" in result.output
    assert "見つかりませんでした" not in result.output and not (tmp_path / "w").exists()


def test_json_holds_the_graph_the_items_and_the_findings(looping):
    result = invoke_cli("analyze", "kaeri", "--content", str(looping), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"nodes", "edges"} <= set(data["graph"])
    (item,) = data["items"]
    assert item["id"] == "kaeri" and item["effects"][0]["node"] == "page:kaeri:future:0"
    assert item["effects"][0]["set_off_by"][0]["event"] == "event:exile"
    (finding,) = data["findings"]
    assert finding["code"] == "W006" and finding["item"] == "kaeri"
    assert finding["data"]["witness"].startswith("例 ")


def test_json_with_a_content_error_gives_the_diagnostics_as_json(content):
    """A reader of --format json got the terminal's text diagnostics on stdout."""
    page = content / "pages" / "幼少期.page"
    page.write_text(page.read_text(encoding="utf-8").replace("銘 ", "銘 abc", 1),
                    encoding="utf-8")
    result = invoke_cli("analyze", "--content", str(content), "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert found and all(d["severity"] for d in found) and found[0]["code"].startswith("E")


def test_an_unknown_id_is_a_usage_error_with_a_suggestion(content):
    result = invoke_cli("analyze", "omoide_bakx", "--content", str(content))
    assert result.exit_code == 2
    assert "「omoide_bakx」はありません" in result.output and "omoide_bako" in result.output


def test_content_with_errors_is_reported_and_not_analysed(content):
    with (content / "pages" / "熟年期.page").open("a", encoding="utf-8") as out:
        out.write('\nページ kowareta "壊れた" {\n  銘 = 30\n}\n')
    result = invoke_cli("analyze", "--content", str(content))
    assert result.exit_code == 1
    assert "エラー" in result.output and "所見" not in result.output


@pytest.mark.slow
def test_witnesses_are_written_one_file_per_item_into_a_new_folder(looping, tmp_path):
    out = tmp_path / "made" / "here"
    result = invoke_cli("analyze", "--content", str(looping), "--witness", str(out))
    assert result.exit_code == 0, result.output
    assert [p.name for p in out.iterdir()] == ["kaeri.witness.scenario"]
    assert (out / "kaeri.witness.scenario").read_text(encoding="utf-8").split("\n")[1] \
        .startswith('例 "kaeri')


@pytest.mark.slow
def test_a_witness_the_designer_edited_is_never_overwritten(looping, tmp_path):
    """A witness is a 例 the designer keeps (often in content/tests/): written again, it
    replaces one that is as it was written — after a change of the content too — and
    leaves one with the designer's edits, or any other file, saying so with exit 1."""
    out = tmp_path / "tests"
    assert invoke_cli("analyze", "--content", str(looping), "--witness", str(out)).exit_code == 0
    witness = out / "kaeri.witness.scenario"
    first = witness.read_text(encoding="utf-8")
    assert first.startswith("# jibunki analyze --witness が書いた例")
    witness.write_text(first.replace("開始 刻", "開始  刻"), encoding="utf-8")  # an edit
    result = invoke_cli("analyze", "--content", str(looping), "--witness", str(out))
    assert result.exit_code == 1
    assert "書いたあとに手が入っているので上書きしませんでした" in result.output
    assert str(witness) in result.output and "開始  刻" in witness.read_text(encoding="utf-8")
    witness.write_text(first, encoding="utf-8")  # as written: replaced when the content changed
    page = looping / "pages" / "熟年期.page"
    text = page.read_text(encoding="utf-8")
    head = text.index('ページ kaeri "帰り道" {')
    year = text.index("銘 ", head)
    page.write_text(text[:year] + "銘 60" + text[text.index("\n", year):], encoding="utf-8")
    assert invoke_cli("analyze", "--content", str(looping), "--witness", str(out)).exit_code == 0
    assert witness.read_text(encoding="utf-8") != first  # the new content's witness


def test_no_witness_to_write_makes_no_folder_and_is_no_error(content, tmp_path):
    # The bundled content has no endless chain: the folder, here under a file, is never made.
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    result = invoke_cli("analyze", "--content", str(content), "--witness",
                        str(tmp_path / "notes.txt" / "w"))
    assert result.exit_code == 0, result.output
    assert "書く証拠の例はありません" in result.output and "作れません" not in result.output


@pytest.mark.slow
def test_a_witness_is_never_written_through_a_link_out_of_the_folder(looping, tmp_path):
    out = tmp_path / "witness"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep", encoding="utf-8")
    (out / "kaeri.witness.scenario").symlink_to(elsewhere)
    result = invoke_cli("analyze", "--content", str(looping), "--witness", str(out))
    assert result.exit_code == 1
    assert "kaeri.witness.scenario" in result.output and "書けません" in result.output
    assert elsewhere.read_text(encoding="utf-8") == "keep"


#: A page whose faces need 9 pages in the hand (a hand holds 5 after the draw).
CROWDED = """
ページ mitsudo "密度" {
  銘 30
  出自 青年期
  未来面 {
    条件 手札 >= 9
    敵HP -= 5
  }
  過去面 {
    条件 手札 >= 9
    敵HP -= 5
  }
}
"""


@pytest.mark.slow
def test_play_measures_how_often_a_page_in_the_hand_can_be_played_and_what_stops_it(content):
    with (content / "pages" / "青年期.page").open("a", encoding="utf-8") as out:
        out.write(CROWDED)
    result = invoke_cli("analyze", "mitsudo", "--play", "30", "--content", str(content))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "測定（無作為の打ち手、30 戦、はじめのデッキ＋1 枚）" in out
    (top,) = [line for line in out.splitlines() if "いちばん多く止めたもの" in line]
    assert "手札 >= 9" in top
    data = json.loads(invoke_cli("analyze", "mitsudo", "--play", "30", "--content", str(content),
                                 "--format", "json").output)
    (item,) = data["items"]
    measured = item["measured"]
    assert measured["battles"] == 30 and measured["decisions"] > 0
    assert 0 <= measured["playable_share"] < 1
    assert "手札 >= 9" in measured["top_blocker"]["blocker"]


def test_play_without_a_page_is_a_usage_error_in_japanese(content):
    result = invoke_cli("analyze", "--play", "10", "--content", str(content))
    assert result.exit_code == 2
    assert "--play は測るページの id と一緒に指定してください" in result.output
    # an enemy alone measured nothing and exited 0
    enemy = invoke_cli("analyze", "haguruma", "--play", "10", "--content", str(content))
    assert enemy.exit_code == 2 and "敵は測れません" in enemy.output


def _lab_report(content, tmp_path, measured=None) -> None:
    """A lab report in tmp_path/generated/sim of ``measured`` (compiled tables; None: the
    content's own)."""
    from compiler.lint import check
    from sim.cache import content_digest
    from sim.lab import FORMAT

    if measured is None:
        measured = check([content], project=content).tables
    folder = tmp_path / "generated" / "sim"
    folder.mkdir(parents=True, exist_ok=True)
    report = {"format": FORMAT, "settings": {"policy": "greedy",
                                             "content": content_digest(measured)},
              "pages": [{"id": "hatsukoi", "play_rate": 0.25, "pairs": 400}]}
    (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")


@pytest.mark.slow
def test_a_page_shows_its_play_rate_from_the_labs_last_report(content, tmp_path, monkeypatch):
    _lab_report(content, tmp_path)
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("analyze", "hatsukoi", "--content", str(content))
    assert result.exit_code == 0, result.output
    assert "実験室の報告（貪欲、400 組）: 出した 0.25 回/戦" in result.output  # the player named in Japanese


@pytest.mark.slow
def test_a_lab_report_of_the_content_before_an_edit_gives_no_play_rate(content, tmp_path,
                                                                       monkeypatch):
    """The lab's figure belongs to the content it measured: after an edit of the page (or
    for another content folder) it says nothing of the page analysed, as in the catalog."""
    _lab_report(content, tmp_path)
    page = content / "pages" / "少年期.page"
    text = page.read_text(encoding="utf-8")
    assert "ページ hatsukoi" in text
    page.write_text(text + "\n", encoding="utf-8")  # not yet an edit of what battles read
    monkeypatch.chdir(tmp_path)
    assert "実験室の報告" in invoke_cli("analyze", "hatsukoi", "--content", str(content)).output
    head = text.index("ページ hatsukoi")
    year = text.index("銘 ", head)
    page.write_text(text[:year] + "銘 16" + text[text.index("\n", year):], encoding="utf-8")
    result = invoke_cli("analyze", "hatsukoi", "--content", str(content))
    assert result.exit_code == 0, result.output
    assert "実験室の報告" not in result.output


#: The loop's pages at the ends of the line: the witness plays each at 銘 = 刻, and the
#: rules allow one such play a turn — its second step is refused before the loop begins.
EDGES = """
ページ hashi_a "端の帰り道" {
  銘 0
  出自 幼少期
  未来面 {
    移動 1枚 除外 -> 手札 ランダム 毎 ページが除外された時 範囲 ラン
  }
  過去面 白紙
  ペン 過去面 { 歩 += 1 }
}

ページ hashi_b "端の忘れ物" {
  銘 80
  出自 老年期
  未来面 白紙
  ペン 未来面 { 歩 += 1 }
  過去面 {
    移動 1枚 手札 -> 除外 ランダム 毎 ページが除外された時 範囲 ラン
  }
}
"""


@pytest.mark.slow
def test_a_witness_that_cannot_reach_its_loop_is_not_written_and_says_why(content, tmp_path):
    """A witness is written only when `jibunki test` on it fails on the stopped chain: one
    refused before the loop begins would be a red example that proves nothing."""
    with (content / "pages" / "熟年期.page").open("a", encoding="utf-8") as out:
        out.write(EDGES)
    result = invoke_cli("analyze", "--content", str(content), "--witness", str(tmp_path / "w"))
    assert result.exit_code == 0, result.output
    assert "W006" in result.output
    assert "の証拠の例は書きませんでした: 例が連鎖に届く前に止まります（拒否されました: " in result.output
    assert "銘 = 刻 のページはこのターンもう出せません" in result.output
    assert not (tmp_path / "w").exists()


def test_the_places_it_names_open_from_the_working_folder_as_lints_do(content, tmp_path,
                                                                        monkeypatch):
    """analyze said content/pages/熟年期.page:24 from any working folder (the tables keep a
    path relative to the content's parent); lint says a place from where it runs."""
    import re
    from pathlib import Path

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = invoke_cli("analyze", "omoide_bako", "--content", str(content)).output
    places = re.findall(r"(\S+\.page):(\d+)", out)
    assert places, out
    for path, line in places:
        assert Path(path).is_file(), path  # opens from here
        assert Path(path).read_text(encoding="utf-8").split("\n")[int(line) - 1].strip()


def test_a_compile_without_the_analysis_gives_the_same_tables_without_its_warnings(looping):
    """Compilation.analysis: ``jibunki sim`` and ``jibunki battle`` show no warnings and
    leave the analysis out; the tables and files are the same, only its findings go."""
    from scenario.stage import compile_content

    full = compile_content(looping)
    bare = compile_content(looping, analysis=False)
    assert "W006" in {d.code for d in full.diagnostics}
    assert "W006" not in {d.code for d in bare.diagnostics}
    assert bare.file_bytes == full.file_bytes and bare.tables == full.tables
    assert [d for d in bare.diagnostics if d.code != "W006"] == \
        [d for d in full.diagnostics if d.code != "W006"]


@pytest.mark.slow  # over a second: the full suite's (README: the fast loop)
def test_the_lab_and_the_battle_compile_without_the_analysis(monkeypatch, content):
    import scenario.stage

    asked = []
    compile_content = scenario.stage.compile_content

    def recorded(folder, fmt="py", *, analysis=True):
        asked.append(analysis)
        return compile_content(folder, fmt, analysis=analysis)

    monkeypatch.setattr(scenario.stage, "compile_content", recorded)
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    result = invoke_cli("sim", "--content", str(content), "--page", "arubaito", "--enemy",
                        "haguruma", "--max-pairs", "20", "--workers", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    result = invoke_cli("battle", "--content", str(content), "--seed", "1", input="quit\n")
    assert "ターン" in result.output, result.output
    result = invoke_cli("catalog", "--content", str(content), "--out",
                        str(content.parent / "catalog"))
    assert result.exit_code == 0, result.output
    assert asked == [False, False, True]  # the catalog shows the warnings
