"""The long runs' progress bar as the commands show it: on a terminal's stderr (forced here
with FORCE_COLOR, which rich honours as a terminal), never on stdout nor in --format json."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import cli
from conftest import ROOT

#: Each test runs a lab or a journey report whole: seconds.
pytestmark = pytest.mark.slow

TERMINAL = {"FORCE_COLOR": "1", "COLUMNS": "200", "NO_COLOR": None}
#: ``--reference なし``: no swap phase for the balance's 基準ページ, so the bar's last frame is
#: the page phase's.
SIM = ["sim", "--content", str(ROOT / "content"), "--enemy", "haguruma", "--page", "sakamichi",
       "--policy", "random", "--precision", "0.2", "--max-pairs", "40", "--workers", "1",
       "--reference", "なし"]
JOURNEY = ["journey", "--content", str(ROOT / "content"), "report", "--content",
           str(ROOT / "content"), "--seeds", "1", "--budget", "1", "--nodes", "40",
           "--no-pairs", "--workers", "1"]


def frames(stderr: str) -> list[str]:
    """The lines the bar drew, without the terminal's control sequences."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stderr)
    return [line.strip() for line in re.split(r"[\r\n]", plain) if line.strip()]


def test_the_labs_bar_on_a_terminal_counts_battles_and_the_whole_runs_time_left(tmp_path):
    # An empty results cache of its own: a warm one (another run's) plays nothing to count.
    result = CliRunner().invoke(cli.main, SIM, env={**TERMINAL, "XDG_CACHE_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    drawn = frames(result.stderr)
    # The last frame is drawn as the bar closes: 40 battles against the enemy, 40 pairs of
    # the page and the baseline.
    assert drawn[-1].startswith("ページ（無作為）") and "戦 120/120 以上" in drawn[-1], drawn[-3:]
    # One page of 40 pairs is all the pilot plays: the total stays a floor to the end (how
    # much time is left depends on this machine's pace).
    floor = r"戦 \d[\d,]*/[\d,]+ 以上 残り (計算中（全体）|見積もり中（全体）|\S+以上（全体・見積もり中）)"
    assert all(re.search(floor, line) for line in drawn if line.startswith("ページ")), drawn[-3:]
    assert "残り" not in result.stdout  # the report itself carries no bar


def test_the_labs_json_carries_no_bar_even_on_a_terminal():
    result = CliRunner().invoke(cli.main, [*SIM, "--format", "json"], env=TERMINAL)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["format"] == "jibunki-sim-report 1"
    assert "残り" not in result.stderr and "戦 " not in result.stderr


def test_the_journey_reports_bar_counts_its_work_of_a_known_total_as_its_last_line_does():
    result = CliRunner().invoke(cli.main, JOURNEY, env=TERMINAL)
    assert result.exit_code == 0, result.output
    drawn = frames(result.stderr)
    # Seven set-ups, one deal each, solved and played at one budget: 14 pieces of work,
    # as the report's last line counts them.
    assert any(line.startswith("旅の測定") and "作業 14/14" in line for line in drawn), drawn[-3:]
    assert any(re.search(r"作業 \d+/14 残り(約 \d|\s1秒未満)", line) for line in drawn), drawn[-3:]
    assert "配り 7 件（作業 14: 解く 7・遊ぶ 7。" in result.stdout


def test_no_bar_when_stderr_is_not_a_terminal():
    result = CliRunner().invoke(cli.main, SIM, env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    assert result.exit_code == 0, result.output
    assert "残り" not in result.stderr
