"""The lint cache (scenario.lintcache): a second ``jibunki lint`` of unchanged files says
exactly what the first said without checking anything; any change to what the findings
depend on — a file's bytes, a new or removed file, the code, how the files were named —
checks again; a damaged or odd entry is no entry; an internal error is never kept.

Every test lints its own copy of content/ with the cache in its own XDG_CACHE_HOME;
``checks`` counts the lints that reach the checker (``scenario.stage.lint``).
"""

from __future__ import annotations

import os
import pickle

import pytest
from click.testing import CliRunner

import cli
import scenario.stage
from dsl import diskcache
from scenario import lintcache

#: Commands run whole (the CLI, subprocesses, files on disk): left out of the fast loop.
pytestmark = pytest.mark.slow

BROKEN_PAGE = """
ページ kowareta "壊れた" {
  銘 = 30
  未来面 { 敵HP -= 3 }
}
"""


@pytest.fixture
def checks(monkeypatch):
    calls = []
    real = scenario.stage.lint

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(scenario.stage, "lint", counted)
    return calls


def lint(*args):
    result = CliRunner().invoke(cli.main, ["lint", *args])
    return result.exit_code, result.output


def entries(project):
    return sorted((project / "cache" / "jibunki" / "lint").glob("lint-*.cache"))


def spoil(project):
    with open(project / "content/pages/熟年期.page", "a", encoding="utf-8") as handle:
        handle.write(BROKEN_PAGE)


def test_second_lint_checks_nothing_and_says_the_same(project, checks):
    first = lint()
    assert first[0] == 0 and "エラー 0 件" in first[1] and len(checks) == 1
    assert len(entries(project)) == 1
    assert lint() == first and len(checks) == 1
    assert lint("--format", "json") == lint("--format", "json")
    assert len(checks) == 1  # the json runs read the same entry as the text runs


def test_findings_from_the_cache_show_the_source_line_and_fail_alike(project, checks):
    spoil(project)
    first = lint()
    assert first[0] == 1 and "熟年期.page:" in first[1] and "銘 = 30" in first[1]
    assert "^" in first[1]  # the caret under the source line
    assert lint() == first and len(checks) == 1
    json_cold = lint("--format", "json")
    assert lint("--format", "json") == json_cold and json_cold[0] == 1


def test_every_change_of_the_input_checks_again(project, checks):
    clean = lint()
    spoil(project)
    broken = lint()
    assert broken[0] == 1 and len(checks) == 2  # no stale green after an edit
    extra = project / "content/pages/追加.page"
    extra.write_text(BROKEN_PAGE.replace("kowareta", "mou_hitotsu"), encoding="utf-8")
    assert lint()[0] == 1 and len(checks) == 3  # a new file is read
    extra.unlink()
    assert lint() == broken and len(checks) == 4  # and a removed one is missed
    page = project / "content/pages/熟年期.page"
    page.write_text(page.read_text(encoding="utf-8").replace(BROKEN_PAGE, ""), encoding="utf-8")
    assert lint() == clean and len(checks) == 5


def test_a_save_during_the_check_keeps_no_entry_and_never_a_false_green(project, monkeypatch):
    """A designer saves while lint (or watch) runs: the key was read before the save and
    the check after it. The findings are of the saved text, so they are not kept under
    the key of the text before — which, back on disk (an undo), would lint green."""
    page = project / "content/pages/熟年期.page"
    fixed = page.read_text(encoding="utf-8")
    spoil(project)
    broken = page.read_text(encoding="utf-8")
    real = scenario.stage.lint

    def saved_at_that_moment(*args, **kwargs):
        page.write_text(fixed, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(scenario.stage, "lint", saved_at_that_moment)
    assert lint()[0] == 0  # the check read the saved (fixed) text
    assert entries(project) == []
    monkeypatch.setattr(scenario.stage, "lint", real)
    page.write_text(broken, encoding="utf-8")  # the undo
    status, output = lint()
    assert status == 1 and "銘 = 30" in output, output
    assert lint() == (status, output) and len(entries(project)) == 1  # this one is kept


def test_other_code_or_other_names_check_again(project, checks, monkeypatch):
    lint()
    monkeypatch.setattr(lintcache, "_code_digest", b"\0" * 32)  # jibunki was changed
    assert lint()[0] == 0 and len(checks) == 2
    assert lint("content/pages")[0] == 0 and len(checks) == 3  # named otherwise
    assert lint("content/pages")[0] == 0 and len(checks) == 3
    assert len(entries(project)) == 2


def test_a_finding_on_the_whole_content_follows_an_edit_of_another_file(project, checks):
    """W006 on one file depends on the others (the loop's other half is there): the cache's
    key reads every content file and the code of analysis/, so an edit elsewhere is
    checked again."""
    from pathlib import Path

    from test_trigger_chains import LOOP_PAGES

    assert Path(lintcache._ROOT, "analysis", "cycles.py") in lintcache.code_paths()
    kaeri, wasure = LOOP_PAGES.split("\nページ wasure")
    pages = project / "content" / "pages"
    (pages / "帰り道.page").write_text(kaeri, encoding="utf-8")
    (pages / "忘れ物.page").write_text("ページ wasure" + wasure, encoding="utf-8")
    looping = lint("content/pages/帰り道.page")
    assert looping[0] == 0 and "[W006]" in looping[1] and len(checks) == 1
    bounded = "ページ wasure" + wasure.replace("範囲 ラン", "範囲 ラン 最大 3 回")
    (pages / "忘れ物.page").write_text(bounded, encoding="utf-8")
    assert "[W006]" not in lint("content/pages/帰り道.page")[1] and len(checks) == 2


@pytest.mark.parametrize("damage", ["bytes", "shape", "bool-for-int", "not-a-file"])
def test_damaged_entry_is_ignored(project, checks, damage):
    spoil(project)
    first = lint()
    (entry,) = entries(project)
    raw = entry.read_bytes()
    if damage == "bytes":
        data = bytearray(raw)
        data[-5] ^= 0xFF
        entry.write_bytes(bytes(data))
    elif damage == "not-a-file":
        entry.unlink()
        entry.mkdir()
    else:
        key = raw.split(b"\n", 2)[1]
        kept = pickle.loads(raw.split(b"\n", 3)[3])
        if damage == "shape":  # the right key, a field missing
            kept = {"files": kept["files"], "wanted": 0, "diagnostics": [], "blocked": []}
        else:
            kept["files"] = True
        entry.unlink()
        folder = diskcache.open_folder(lintcache.KIND)
        try:
            assert diskcache.write_entry(folder, entry.name, key, pickle.dumps(kept),
                                         lintcache.FORMAT, lintcache.MAX_ENTRY_BYTES, ".x-")
        finally:
            os.close(folder)
    assert lint() == first and len(checks) == 2


def test_internal_error_is_not_kept(project, checks, monkeypatch):
    import scenario.run

    real = scenario.run.run

    def failing(spec, tables):
        raise RuntimeError("a bug in the runner")

    monkeypatch.setattr(scenario.run, "run", failing)
    broken = lint()
    assert broken[0] == 1 and "E000" in broken[1]
    assert not entries(project)
    monkeypatch.setattr(scenario.run, "run", real)
    first = lint()
    assert first[0] == 0 and len(checks) == 2 and len(entries(project)) == 1


def test_no_cache_checks_every_time_and_writes_nothing(project, checks, monkeypatch):
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    first = lint()
    assert lint() == first and len(checks) == 2
    assert not entries(project)


def test_unreadable_file_is_reported_every_time(project, checks):
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    page = project / "content/pages/熟年期.page"
    page.chmod(0)
    try:
        first = lint()
        assert first[0] == 1 and "E004" in first[1]
        assert lint() == first and len(checks) == 2  # no key: checked again
    finally:
        page.chmod(0o644)
