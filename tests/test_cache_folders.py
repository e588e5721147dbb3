"""The cache folder's layout and bounds (dsl/diskcache.py): each cache keeps its entries in
a subfolder of its own, made and checked as the folder is, and each is bounded — the lint
and example caches had one entry per way of naming files and no bound, so a cache folder
used for months (or by a test suite) held tens of thousands of entries and every run that
saved anything listed them all (4 ms a listing at 20,000)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cli
from dsl import diskcache
from scenario import excache, lintcache

KINDS = ("parse", "lint", "examples")
#: Whole lints through the CLI with the cache on disk: left out of the fast loop (the
#: eviction itself, at the end, is not).
slow = pytest.mark.slow


def lint(*args) -> int:
    result = CliRunner().invoke(cli.main, ["lint", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code


def kept(project: Path, kind: str) -> list[str]:
    folder = project / "cache" / "jibunki" / kind
    return sorted(n for n in os.listdir(folder) if n.startswith(f"{kind}-")) \
        if folder.exists() else []


@slow
def test_each_cache_keeps_its_entries_in_a_private_subfolder_of_its_own(project):
    assert lint("content") == 0
    root = project / "cache" / "jibunki"
    for kind in KINDS:
        folder = root / kind
        assert stat.S_IMODE(folder.lstat().st_mode) == 0o700 and folder.is_dir()
        assert kept(project, kind) and sorted(os.listdir(folder)) == kept(project, kind)
    loose = [n for n in os.listdir(root) if n.endswith(diskcache.ENTRY_SUFFIX)]
    # the grammar's tables, one file (written when this process had not built a parser)
    assert all(n.startswith("grammar-") for n in loose) and len(loose) <= 1


@slow
def test_entries_an_older_jibunki_kept_in_the_folder_itself_are_removed_once(project):
    root = project / "cache" / "jibunki"
    root.mkdir(parents=True, mode=0o700)
    old = ["lint-" + "a" * 32 + ".cache", "examples-" + "b" * 32 + ".cache",
           "parse-" + "c" * 32 + ".cache", ".lint-0123.tmp"]
    others = ["battle_history", "notes-lint.txt", "sim-" + "d" * 40 + ".cache"]
    for name in old + others:
        (root / name).write_bytes(b"x")
    assert lint("content") == 0
    assert sorted(os.listdir(root)) == sorted(
        [*others, *KINDS, *(n for n in os.listdir(root) if n.startswith("grammar-"))])


@slow
def test_the_lint_cache_keeps_at_most_its_bound_the_most_recently_used(project, monkeypatch):
    monkeypatch.setattr(lintcache, "MAX_ENTRIES", 4)
    namings = [("content",), ("content/pages",), ("content/enemies",),
               ("content/balance.balance",), ("content/pages/幼少期.page",),
               ("content/pages/青年期.page",)]
    seen = []
    for naming in namings:
        assert lint(*naming) == 0
        seen.append(set(kept(project, "lint")))
        assert len(seen[-1]) <= 4
    newest = seen[-1] - seen[-2]
    assert len(newest) == 1 and len(seen[2]) == 3  # nothing evicted below the bound


@slow
def test_a_lint_read_from_the_cache_counts_as_its_use_for_the_bound(project, monkeypatch):
    monkeypatch.setattr(lintcache, "MAX_ENTRIES", 3)
    assert lint("content") == 0
    (first,) = kept(project, "lint")
    for naming in ("content/pages", "content/enemies", "content/balance.balance"):
        time.sleep(0.01)  # the entries' mtimes order their use
        assert lint("content") == 0  # a hit: read, not written
        time.sleep(0.01)
        assert lint(naming) == 0
    assert first in kept(project, "lint")


@slow
def test_the_lint_cache_keeps_at_most_its_bound_of_bytes(project, monkeypatch):
    assert lint("content/pages") == 0
    (older,) = kept(project, "lint")
    size = (project / "cache" / "jibunki" / "lint" / older).stat().st_size
    monkeypatch.setattr(lintcache, "MAX_TOTAL_BYTES", size * 3 // 2)  # room for one
    assert lint("content/enemies") == 0
    (newer,) = kept(project, "lint")
    assert newer != older


@slow
def test_the_example_cache_keeps_at_most_its_bound_the_newest_among_them(project,
                                                                      monkeypatch):
    monkeypatch.setattr(excache, "MAX_ENTRIES", 2)
    seen = []
    for naming in ("content", "content/tests/幼少期.scenario", "content/tests/青年期.scenario"):
        assert lint(naming) == 0
        seen.append(set(kept(project, "examples")))
        assert len(seen[-1]) <= 2
    assert len(seen[1]) == 2 and len(seen[2]) == 1 and seen[2] - seen[1]


@slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_link_or_a_file_in_place_of_a_subfolder_means_no_cache_there(project, tmp_path,
                                                                      kind):
    root = project / "cache" / "jibunki"
    root.mkdir(parents=True, mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / kind).symlink_to(elsewhere)
    assert lint("content") == 0 and lint("content") == 0
    assert list(elsewhere.iterdir()) == []
    (root / kind).unlink()
    (root / kind).write_bytes(b"")
    assert lint("content") == 0 and (root / kind).read_bytes() == b""


@slow
def test_a_subfolder_others_can_write_is_not_used(project):
    root = project / "cache" / "jibunki"
    (root / "lint").mkdir(parents=True, mode=0o700)
    os.chmod(root, 0o700)
    os.chmod(root / "lint", 0o777)  # anyone could plant entries
    assert lint("content") == 0 and lint("content") == 0
    assert kept(project, "lint") == []


def _entries(folder: Path, sizes: list[int]) -> list[str]:
    """Entries of kind "k" written oldest first, each ``sizes[i]`` bytes."""
    names = []
    for age, size in enumerate(sizes):
        name = f"k-{age:02d}.cache"
        (folder / name).write_bytes(b"x" * size)
        os.utime(folder / name, (1000 + age, 1000 + age))
        names.append(name)
    return names


def test_evict_keeps_the_most_recently_used_down_to_three_quarters_of_the_bound(tmp_path):
    names = _entries(tmp_path, [1] * 10)
    (tmp_path / "other.cache").write_bytes(b"x")  # not of this kind: never counted
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        diskcache.evict(fd, "k", 8)
        assert sorted(os.listdir(tmp_path)) == sorted([*names[4:], "other.cache"])
        diskcache.evict(fd, "k", 8)  # within the bound: nothing more goes
        assert len(os.listdir(tmp_path)) == 7
    finally:
        os.close(fd)


def test_evict_keeps_the_bytes_bound_unless_told_the_count_bounds_them(tmp_path):
    names = _entries(tmp_path, [100] * 5)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        diskcache.evict(fd, "k", 8, max_bytes=250, weigh=False)
        assert sorted(os.listdir(tmp_path)) == names
        diskcache.evict(fd, "k", 8, max_bytes=250)
        assert sorted(os.listdir(tmp_path)) == names[3:]
    finally:
        os.close(fd)


def test_a_run_killed_while_removing_the_old_entries_leaves_the_rest_to_the_next(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    root = tmp_path / "jibunki"
    root.mkdir(mode=0o700)
    for n in range(20):
        (root / f"lint-{n:032x}.cache").write_bytes(b"x")
    real, removed = diskcache.unlink_quietly, []

    def killed_after_five(folder, name):
        if len(removed) == 5:
            raise KeyboardInterrupt  # the run is killed here
        removed.append(name)
        real(folder, name)

    monkeypatch.setattr(diskcache, "unlink_quietly", killed_after_five)
    with pytest.raises(KeyboardInterrupt):
        diskcache.open_folder("lint")
    monkeypatch.setattr(diskcache, "unlink_quietly", real)
    assert len(list(root.glob("lint-*.cache"))) == 15
    fd = diskcache.open_folder("lint")
    assert fd is not None
    os.close(fd)
    assert list(root.glob("lint-*.cache")) == [] and (root / "lint").is_dir()


def _stale_temporary(folder: Path, kind: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = folder / f".{kind}-0123456789abcdef.tmp"
    temporary.write_bytes(b"x" * 1000)
    old = time.time() - diskcache.STALE_TEMP_SECONDS - 60
    os.utime(temporary, (old, old))
    return temporary


@slow
def test_an_example_run_that_writes_nothing_still_removes_old_temporaries(project):
    assert lint("content") == 0
    temporary = _stale_temporary(project / "cache" / "jibunki" / "examples", "examples")
    with open(project / "content/pages/幼少期.page", "a", encoding="utf-8") as handle:
        handle.write("\n# 例の結果は変わらない\n")  # the lint runs; no example's outcome changes
    assert lint("content") == 0
    assert not temporary.exists()


@slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_save_that_fails_on_a_full_disk_still_removes_old_temporaries(project, kind,
                                                                        monkeypatch):
    temporary = _stale_temporary(project / "cache" / "jibunki" / kind, kind)
    monkeypatch.setattr(diskcache, "write_entry", lambda *args, **kwargs: False)  # no room
    assert lint("content") == 0
    assert not temporary.exists()
