"""A page or an enemy named on the command line by its id or by the display name the
catalog shows, in every command that names one (commands/checked.py ``named_ids``, on
terminal/lookup.py as the battle's own commands): ``sim``'s --page, --enemy, --baseline,
--reference and --tune, ``analyze``'s items, ``battle``'s --enemy and --with. A word that is
neither gets a did-you-mean over both, else the list of what there is with how many more."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
from conftest import bundled_tables, invoke_cli

TABLES = bundled_tables()
#: A tiny run: one enemy, the random player, a few pairs.
TINY = ["--policy", "random", "--precision", "0.2", "--max-pairs", "40", "--workers", "1",
        "--no-cache", "--format", "json"]


def sim(*args):
    result = CliRunner().invoke(cli.main, ["sim", *args])
    assert "Traceback" not in result.output
    return result


@pytest.mark.slow
def test_sim_measures_a_page_and_an_enemy_named_by_their_display_names_as_by_their_ids():
    by_id = sim("--page", "zangyou", "--enemy", "haguruma", *TINY)
    by_name = sim("--page", TABLES.pages["zangyou"].name,
                  "--enemy", TABLES.enemies["haguruma"].name, *TINY)
    assert by_id.exit_code == 0 and by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_id.stdout
    report = json.loads(by_name.stdout)
    assert [p["id"] for p in report["pages"]] == ["zangyou"]
    assert report["settings"]["enemies"] == ["haguruma"]


@pytest.mark.slow  # a second or more
def test_sim_page_of_a_file_or_folder_measures_every_page_written_there(at_root):
    """(Battles of one turn: which pages are measured is the question, not their figures.)"""
    from conftest import ROOT

    path = "content/pages/壮年期.page"
    written = re.findall(r"^ページ (\w+)", (ROOT / path).read_text(encoding="utf-8"), re.M)
    for named in (path, str(ROOT / path)):  # relative to where it runs, or whole
        result = sim("--page", named, "--enemy", "haguruma", "--policy", "random",
                     "--precision", "0.3", "--max-pairs", "20", "--turn-cap", "1",
                     "--workers", "1", "--no-cache", "--format", "json")
        assert result.exit_code == 0, result.output
        assert sorted(p["id"] for p in json.loads(result.stdout)["pages"]) == sorted(written)
    # a folder: every page under it
    result = sim("--page", "content/pages", "--enemy", "haguruma", "--policy", "random",
                 "--precision", "0.4", "--max-pairs", "20", "--turn-cap", "1", "--workers", "1",
                 "--no-cache", "--format", "json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["pages"]) == len(TABLES.pages)
    for wrong in ("content/starter.deck", "content/enemies"):
        result = sim("--page", wrong, "--workers", "1")
        assert result.exit_code == 2 and f"{wrong} にはページがありません" in result.output
    result = sim("--page", "content/pages/ない.page", "--workers", "1")
    assert result.exit_code == 2
    assert "content/pages/ない.page というファイルもフォルダもありません" in result.output


@pytest.mark.parametrize("option", ["--page", "--tune"])
def test_a_page_path_that_cannot_be_followed_is_a_usage_error_naming_it(tmp_path, option):
    """A symlink loop was a RuntimeError traceback, and a path the user may not look at
    「入出力に失敗しました … 出力は途中までです」, exit 1, as if the output had failed."""
    loop = tmp_path / "loop.page"
    loop.symlink_to(loop.name)
    result = sim(option, str(loop), "--workers", "1")
    assert result.exit_code == 2 and f"{loop} はたどれません（シンボリックリンクが輪になっています）" \
        in result.output, result.output
    try:
        Path("/proc/1/root/x.page").exists()
        return  # allowed to look there: no refusal to check
    except OSError:
        pass
    result = sim(option, "/proc/1/root/x.page", "--workers", "1")
    assert result.exit_code == 2 and "/proc/1/root/x.page を確かめられません" in result.output


def test_sim_tune_of_a_file_tunes_its_pages_that_state_a_target(at_root):
    """--tune FILE stands for the pages written there with a 目標 (the others have nothing to
    tune toward); a file whose pages state none is refused, saying what to write."""
    from commands.sim import _targeted
    from conftest import ROOT

    content = ROOT / "content"
    path = "content/pages/壮年期.page"
    written = re.findall(r"^ページ (\w+)", (ROOT / path).read_text(encoding="utf-8"), re.M)
    aimed = _targeted([path, "zangyou"], TABLES, content)
    assert aimed[-1] == "zangyou"  # an id stays as typed
    assert sorted(aimed[:-1]) == sorted(p for p in written if TABLES.pages[p].target is not None)
    assert 0 < len(aimed) - 1 < len(written)
    result = sim("--tune", "content/pages/幼少期.page", "--workers", "1")
    assert result.exit_code == 2
    assert "content/pages/幼少期.page のページには 目標 がありません" in result.output
    assert "目標 勝率差 -5%〜+5%" in result.output


def test_sim_takes_the_baseline_and_the_reference_page_by_display_name():
    starter = TABLES.starter()
    one, other = starter[0], next(p for p in starter if p != starter[0])
    baseline = sim("--baseline", TABLES.pages[one].name, "--page", "zangyou",
                   "--enemy", "haguruma", *TINY)
    assert baseline.exit_code == 0, baseline.output
    assert json.loads(baseline.stdout)["settings"]["baseline_page"] == one
    reference = sim("--reference", TABLES.pages[other].name, "--page", "zangyou",
                    "--enemy", "haguruma", *TINY)
    assert reference.exit_code == 0, reference.output
    assert json.loads(reference.stdout)["settings"]["reference"] == other


def test_sim_tune_suggests_the_display_name_meant():
    name = TABLES.pages["zangyou"].name
    result = sim("--tune", name[:-1], "--workers", "1")
    assert result.exit_code == 2
    assert f"ページか敵「{name[:-1]}」はありません。もしかして「{name}」？" in result.output


def test_a_word_that_names_nothing_lists_a_dozen_names_and_how_many_more():
    result = sim("--page", "zzz", "--workers", "1")
    assert result.exit_code == 2
    shown = [TABLES.pages[p].name for p in sorted(TABLES.pages)[:12]]
    assert "あるのは: " + "、".join(shown) + f" ほか {len(TABLES.pages) - 12} 件" in result.output


def test_analyze_shows_an_item_named_by_its_display_name_as_by_its_id(content):
    name = TABLES.pages["dansyari"].name
    by_id = invoke_cli("analyze", "dansyari", "--content", str(content), "--format", "json")
    by_name = invoke_cli("analyze", name, "--content", str(content), "--format", "json")
    assert by_id.exit_code == 0 and by_name.exit_code == 0, by_name.output
    assert by_name.output == by_id.output
    assert [item["id"] for item in json.loads(by_name.output)["items"]] == ["dansyari"]


@pytest.mark.parametrize("option", ["--reference", "--baseline"])
def test_a_page_option_of_one_word_is_named_in_its_refusal(option):
    """``--reference nosuch`` said only 「ページ「nosuch」はありません」, as --page does."""
    result = CliRunner().invoke(cli.main, ["sim", option, "nosuch"])
    assert result.exit_code == 2
    assert f"{option}: ページ「nosuch」はありません" in result.output
