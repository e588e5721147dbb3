"""The example cache (scenario.excache): a second lint of unchanged content plays no
example and says exactly what the first said; a changed page replays every example, an
edited example only itself; a damaged or odd entry is no entry; JIBUNKI_NO_CACHE and an
unusable HOME still lint. Failing examples are kept too and fail again from the cache.

Every test lints its own copy of content/ with the cache in its own XDG_CACHE_HOME;
``plays`` counts the examples that reach the runner (``scenario.run.run``).
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
import scenario.run
from dsl import diskcache
from scenario import excache

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

FAILING = """例 "わざと失敗する例" {
  敵 haguruma
  開始 刻 30, HP 200, 歩 40, 手札 [sakamichi, nyuugaku, tabidachi, shigoto, kekkon]
  確認 座 == 41
}
"""
EXTRA_PAGE = """
ページ sokudo_tesuto "速度の試験" {
  銘 77
  出自 熟年期
  フレーバー "試験。"
  未来面 { 敵HP -= 1 }
  過去面 白紙
  ペン 過去面 { 防御 += 3 }
}
"""


@pytest.fixture
def plays(monkeypatch):
    calls = []
    real = scenario.run.run

    def counted(spec, tables):
        calls.append(spec["name"])
        return real(spec, tables)

    monkeypatch.setattr(scenario.run, "run", counted)
    return calls


def lint(*args):
    # The example cache is the subject here: the lint cache above it (scenario.lintcache,
    # tests/test_lint_result_cache.py) is emptied first, so each lint reaches the examples.
    for entry in (Path.cwd() / "cache" / "jibunki" / "lint").glob("lint-*.cache"):
        entry.unlink()
    result = CliRunner().invoke(cli.main, ["lint", *args])
    return result.exit_code, result.output


def run_tests(*args):
    result = CliRunner().invoke(cli.main, ["test", *args])
    return result.exit_code, result.output


def entries(project):
    return sorted((project / "cache" / "jibunki" / "examples").glob("examples-*.cache"))


def test_second_lint_plays_nothing_and_says_the_same(project, plays):
    first = lint()
    played = len(plays)
    assert played == 118 and first[0] == 0
    assert len(entries(project)) == 1
    assert lint() == first
    assert len(plays) == played  # nothing replayed
    ran = run_tests()  # the test runner plays the same examples, from the same cache
    assert ran[0] == 0 and run_tests() == ran


def test_cached_outcome_is_what_playing_gives(project, plays, monkeypatch):
    cold = run_tests()
    warm = run_tests()
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    none = run_tests()
    assert cold == warm == none and "成功 118、失敗 0" in cold[1]


def test_changed_page_replays_every_example(project, plays):
    lint()
    before = len(plays)
    with open(project / "content/pages/熟年期.page", "a", encoding="utf-8") as handle:
        handle.write(EXTRA_PAGE)
    code, out = lint()
    assert code == 0, out
    assert len(plays) == 2 * before  # the tables changed: every example played again
    assert lint() == (code, out) and len(plays) == 2 * before


def test_edited_example_replays_alone(project, plays):
    lint()
    before = len(plays)
    path = project / "content/tests/worked_example.scenario"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("確認 刻 == 55, 歩 == 15", "確認 歩 == 15, 刻 == 55", 1),
                    encoding="utf-8")
    assert lint()[0] == 0
    assert len(plays) == before + 1


def test_failing_example_fails_every_time(project, plays):
    (project / "content/tests/失敗.scenario").write_text(FAILING, encoding="utf-8")
    first = lint()
    assert first[0] == 1 and "E044" in first[1]
    played = len(plays)
    assert lint() == first and len(plays) == played  # kept, and failing from the cache
    ran = run_tests()
    assert ran[0] == 1 and "失敗 1" in ran[1] and "期待: 座 == 41" in ran[1]
    assert run_tests() == ran


@pytest.mark.parametrize("damage", ["bytes", "shape", "foreign-key", "not-a-file"])
def test_damaged_entry_is_ignored(project, plays, damage):
    first = lint()
    played = len(plays)
    (entry,) = entries(project)
    if damage == "bytes":
        data = bytearray(entry.read_bytes())
        data[-5] ^= 0xFF
        entry.write_bytes(bytes(data))
    elif damage in ("shape", "foreign-key"):
        raw = entry.read_bytes()
        head = raw.split(b"\n", 2)
        key = head[1] if damage == "shape" else b"0" * 64
        bad = {"0" * 64: [(1, 2, 3, None, None, None)]} if damage == "shape" else {}
        if damage == "foreign-key":  # the right shape, every example passing, wrong key
            bad = pickle.loads(raw.split(b"\n", 3)[3])
            bad = {k: [] for k in bad}
        entry.unlink()
        folder = diskcache.open_folder(excache.KIND)
        try:
            assert diskcache.write_entry(folder, entry.name, key, pickle.dumps(bad),
                                         excache.FORMAT, excache.MAX_ENTRY_BYTES, ".x-")
        finally:
            os.close(folder)
    else:
        entry.unlink()
        entry.mkdir()
    assert lint() == first
    assert len(plays) == 2 * played


def test_shape_with_the_right_key_but_bad_rows_is_ignored(project, plays):
    first = lint()
    played = len(plays)
    (entry,) = entries(project)
    raw = entry.read_bytes()
    key = raw.split(b"\n", 2)[1]
    kept = pickle.loads(raw.split(b"\n", 3)[3])
    bad = {k: [(True, 1, "x", None, None, None)] for k in kept}  # a bool for an int
    entry.unlink()
    folder = diskcache.open_folder(excache.KIND)
    try:
        diskcache.write_entry(folder, entry.name, key, pickle.dumps(bad), excache.FORMAT,
                              excache.MAX_ENTRY_BYTES, ".x-")
    finally:
        os.close(folder)
    assert lint() == first and len(plays) == 2 * played


def test_no_cache_plays_every_time_and_writes_nothing(project, plays, monkeypatch):
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    first = lint()
    assert lint() == first and len(plays) == 2 * 118
    assert not entries(project)


def test_unusable_home_still_lints(project, plays, monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME")
    blocker = tmp_path / "home-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HOME", str(blocker))
    first = lint()
    assert first[0] == 0 and lint() == first and len(plays) == 2 * 118
    ro = tmp_path / "ro-home"
    ro.mkdir()
    ro.chmod(0o500)
    monkeypatch.setenv("HOME", str(ro))
    try:
        assert lint() == first
    finally:
        ro.chmod(0o700)
