"""The parse cache (dsl.parsecache): lint re-parses only what changed, and says exactly
what it says without the cache; whatever is wrong with an entry, the file is parsed.

Every test points the cache at its own folder through XDG_CACHE_HOME; ``parses`` counts
the calls that reach the real parser (``dsl.parser.parse``).
"""

from __future__ import annotations

import builtins
import dataclasses
import hashlib
import os
import pickle
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from compiler.lint import check, check_text
from compiler.names import suggest
from dsl import ast, diskcache, parsecache
from dsl import parser as dsl_parser
from dsl.diagnostics import render

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

#: Mistakes of several kinds: a stray character (E002), a keyword typo (a did-you-mean),
#: a known mistake's hint, an item left open (E003), and a good page between them.
BROKEN = """ページ ok1 {
  銘 10
  未来面 { 敵HP -= 3 }
}
ページ bad1 {
  銘 = 30
  未来面 { 敵HP -= 3 }
}
ページ bad2 {
  銘 12
  未来面 { 敵HP -= 3 ＄ }
}
ページ bad3 {
  銘 14
  未来 { 敵HP -= 2 }
}
ページ ok2 {
  銘 16
  過去面 { 防御 += 2 }
}
ページ open {
  銘 18
  未来面 { 敵HP -= 1 }
"""


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A cache folder of the test's own, cold as a new process finds it: this process'
    memory of parses (dsl.parsecache._MEMO) starts empty too."""
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    monkeypatch.setattr(parsecache, "_MEMO", parsecache.OrderedDict())
    monkeypatch.setattr(parsecache, "_NAMES", {})
    return home


@pytest.fixture
def parses(monkeypatch):
    """The paths the real parser was called for, in order."""
    calls: list[str] = []
    real = dsl_parser.parse

    def counting(text, path, suggest=None):
        calls.append(path)
        return real(text, path, suggest)

    monkeypatch.setattr(dsl_parser, "parse", counting)
    return calls




def files_of(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def lint(folder: Path, fmt: str | None = None):
    return check([folder], [folder], project=folder, fmt=fmt)


def said(result) -> list:
    """Everything a lint says, exactly: each diagnostic whole, and as rendered."""
    return [(repr(d), d.as_json(), render(d, result.sources)) for d in result.diagnostics]


def folder_of(home: Path) -> Path:
    return home / "jibunki" / "parse"  # the parse cache's own subfolder


def entries(home: Path) -> list[Path]:
    return sorted(folder_of(home).glob("parse-*.cache"))


def uncached(monkeypatch, run):
    with monkeypatch.context() as patch:
        patch.setenv("JIBUNKI_NO_CACHE", "1")
        return run()


# ------------------------------------------------------------ only changes are parsed


def test_a_second_lint_of_unchanged_content_parses_nothing_and_says_the_same(
        cache_home, parses, content):
    (content / "pages" / "broken.page").write_text(BROKEN, encoding="utf-8")
    first = lint(content)
    assert len(parses) == len(files_of(content))
    assert any(d.is_error for d in first.diagnostics)
    parses.clear()
    second = lint(content)
    assert parses == []
    assert said(second) == said(first)
    assert len(entries(cache_home)) == len(files_of(content))


def test_a_changed_file_is_parsed_again_and_no_other(cache_home, parses, content):
    lint(content)
    changed = content / "pages" / "幼少期.page"
    changed.write_text(changed.read_text(encoding="utf-8").replace("銘 0", "銘 1", 1),
                       encoding="utf-8")
    parses.clear()
    again = lint(content)
    assert [Path(p).name for p in parses] == [changed.name]
    parses.clear()
    assert said(lint(content)) == said(again) and parses == []


def test_compiled_tables_and_files_are_byte_identical_with_and_without_the_cache(
        cache_home, parses, content, monkeypatch):
    cold = uncached(monkeypatch, lambda: lint(content, fmt="py"))
    assert not cold.diagnostics and cold.compilation.files
    lint(content, fmt="py")  # fills the cache
    parses.clear()
    warm = lint(content, fmt="py")
    assert parses == []
    assert warm.compilation.files == cold.compilation.files
    assert repr(warm.tables) == repr(cold.tables)
    json_cold = uncached(monkeypatch, lambda: lint(content, fmt="json")).compilation.files
    assert lint(content, fmt="json").compilation.files == json_cold


def test_compile_check_says_generated_matches_through_a_warm_cache(cache_home):
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    env.pop("JIBUNKI_NO_CACHE", None)
    for _ in range(2):  # cold, then every file from the cache
        result = subprocess.run([sys.executable, "-c", "from cli import main; main()",
                                 "compile", "--check"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
    assert len(entries(cache_home)) == len(files_of(ROOT / "content"))


def test_a_file_with_syntax_errors_round_trips_with_the_same_diagnostics(
        cache_home, parses, monkeypatch):
    cold = uncached(monkeypatch, lambda: check_text(BROKEN, "broken.page"))
    codes = {d.code for d in cold.diagnostics}
    assert {"E001", "E002", "E003"} <= codes, codes
    assert any("もしかして" in d.hint for d in cold.diagnostics)  # the did-you-mean
    check_text(BROKEN, "broken.page")
    parses.clear()
    warm = check_text(BROKEN, "broken.page")
    assert parses == []
    assert said(warm) == said(cold)
    fresh = dsl_parser.parse(BROKEN, "broken.page", suggest)
    cached = parsecache.ParseCache.open()
    try:
        assert repr(cached.parse(BROKEN, "broken.page", suggest)) == repr(fresh)
        assert cached.hits == 1
    finally:
        cached.close()
    assert fresh.damaged  # the damaged ranges are part of what is kept


def test_the_same_text_under_another_path_is_another_entry(cache_home, parses):
    check_text(BROKEN, "one.page")
    check_text(BROKEN, "two.page")
    assert parses == ["one.page", "two.page"]
    assert {d.span.path for d in check_text(BROKEN, "two.page").diagnostics} == {"two.page"}
    assert parses == ["one.page", "two.page"]


def test_a_path_keeps_one_entry_its_newest_parse(cache_home, parses):
    for text in ("ページ a { 銘 1; 未来面 白紙 }\n", "ページ a { 銘 2; 未来面 白紙 }\n", BROKEN):
        check_text(text, "a.page")
    assert len(entries(cache_home)) == 1
    parses.clear()
    check_text(BROKEN, "a.page")
    assert parses == []


def test_a_file_linted_again_in_one_process_is_neither_read_nor_decoded(
        cache_home, parses, content, monkeypatch):
    """The language server, a watch and a run of the tests lint the same files again and
    again in one process: what it read or saved is remembered while the entry's file is
    the one it touched, and said the same."""
    first = lint(content)
    decoded, real = [], parsecache.decode
    monkeypatch.setattr(parsecache, "decode", lambda tree: decoded.append(1) or real(tree))
    parses.clear()
    second = lint(content)
    assert parses == [] and decoded == []
    assert said(second) == said(first)
    page = next((content / "pages").glob("*.page"))
    (entry,) = [e for e in entries(cache_home) if parsecache.entry_key(
        page.read_text(encoding="utf-8"), str(page), suggest)[0] == e.name]
    os.utime(entry, ns=(1, 1))  # another process read it since: read again, not recalled
    third = lint(content)
    assert parses == [] and decoded == [1]
    assert said(third) == said(first)
    monkeypatch.setattr(parsecache, "MEMO_TOTAL_BYTES", 0)  # bounded: nothing kept
    lint(content)
    decoded.clear()
    lint(content)
    assert len(decoded) == len(entries(cache_home)) and not parsecache._MEMO


def test_a_copy_of_the_content_in_another_folder_is_saved_from_memory_not_parsed(
        cache_home, parses, content, tmp_path, monkeypatch):
    """A copy of the content (the same paths as shown, under another folder) was parsed
    whole: its files are other entries. The parse this process holds of the same input
    is saved for them instead — an entry a later process reads as its own."""
    import shutil

    there = tmp_path / "there"
    shutil.copytree(content, there / "content")
    monkeypatch.chdir(content.parent)
    first = lint(Path("content"))
    count = len(entries(cache_home))
    parses.clear()
    monkeypatch.chdir(there)
    second = lint(Path("content"))
    assert parses == []
    assert said(second) == said(first)
    assert len(entries(cache_home)) == 2 * count
    monkeypatch.setattr(parsecache, "_MEMO", parsecache.OrderedDict())  # a later process
    monkeypatch.setattr(parsecache, "_NAMES", {})
    decoded, real = [], parsecache.decode
    monkeypatch.setattr(parsecache, "decode", lambda tree: decoded.append(1) or real(tree))
    third = lint(Path("content"))
    assert parses == [] and len(decoded) == count
    assert said(third) == said(first)


def test_another_suggest_function_is_another_key():
    name, key = parsecache.entry_key("x", "a.page", suggest)
    assert parsecache.entry_key("x", "a.page", None)[1] != key
    assert parsecache.entry_key("x", "a.page", lambda word, words: "") is None  # not cached
    assert parsecache.entry_key("x", "a.page", suggest) == (name, key)


# ------------------------------------------------------------ what is kept is checked


def write_entry(home: Path, text: str, path: str, payload: bytes, mode: int = 0o600) -> Path:
    """An entry under the right name, with the right key and digest, holding ``payload``."""
    name, key = parsecache.entry_key(text, path, suggest)
    digest = hashlib.sha256(payload).hexdigest().encode("ascii")
    entry = folder_of(home) / name
    entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if entry.is_symlink() or entry.exists():
        entry.unlink()
    entry.write_bytes(parsecache.FORMAT + key + b"\n" + digest + b"\n" + payload)
    os.chmod(entry, mode)
    return entry


def tree_of(text: str, path: str):
    return parsecache.encode(dsl_parser.parse(text, path, suggest))


def replaced(tree, old, new):
    """The literal tree with the first value ``old`` (compared with its type) made ``new``."""
    done = []

    def walk(node):
        if not done and type(node) is type(old) and node == old:
            done.append(True)
            return new
        if type(node) is tuple:
            return tuple(walk(x) for x in node)
        if type(node) is list:
            return [walk(x) for x in node]
        return node

    result = walk(tree)
    assert done, f"{old!r} is not in the tree"
    return result


def first_span(tree):
    return _first(tree, "Span")


def _with_span_field(tree, index, value):
    span = first_span(tree)
    return replaced(tree, span, span[:index] + (value,) + span[index + 1:])


#: Entries whose payload is well-formed plain data, but not what the schema allows.
FOREIGN = {
    "a bool for an int": lambda tree: _with_span_field(tree, 2, True),
    "a str for an int": lambda tree: _with_span_field(tree, 2, "1"),
    "a float for an int": lambda tree: _with_span_field(tree, 3, 1.0),
    "an int for a str": lambda tree: _with_span_field(tree, 1, 7),
    "a class outside the allow-list": lambda tree: replaced(tree, "Name", "Path"),
    "a node of the wrong class": lambda tree: replaced(tree, "Span", "Note"),
    "a field too many": lambda tree: replaced(tree, first_span(tree), first_span(tree) + (1,)),
    "a field too few": lambda tree: replaced(tree, first_span(tree), first_span(tree)[:-1]),
    "a tuple for a list": lambda tree: tree[:2] + (tuple(tree[2]),) + tree[3:],
    "a dict for the result": lambda tree: {"file": tree[1]},
    "a set for the items": lambda tree: replaced(tree, tree[1], ("SourceFile", "t.page", set())),
    "bytes for a str": lambda tree: replaced(tree, "t.page", b"t.page"),
    "nested beyond reason": lambda tree: _deep(tree, 5000),
    "another file's parse": lambda tree: tree_of(BROKEN, "other.page"),
}


def _deep(tree, depth: int):
    """The first number of the tree made a negation of a negation of … ``depth`` deep:
    valid nodes all the way, nested beyond what the decoder's recursion allows."""
    number = _first(tree, "Number")
    node = number
    for _ in range(depth):
        node = ("Neg", node, number[-1])
    return replaced(tree, number, node)


def _first(tree, tag: str):
    if type(tree) is tuple and tree and tree[0] == tag:
        return tree
    for child in tree if type(tree) in (tuple, list) else ():
        found = _first(child, tag)
        if found is not None:
            return found
    return None


def dumps(tree) -> bytes:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 30_000))  # the pickler recurses into deep trees
    try:
        return pickle.dumps(tree)
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_a_foreign_typed_entry_is_ignored_and_the_file_parsed(cache_home, parses, kind,
                                                              monkeypatch):
    text = "ページ t { 銘 1\n  未来面 { 敵HP -= 3 }\n}\n" + BROKEN
    expected = said(uncached(monkeypatch, lambda: check_text(text, "t.page")))
    payload = dumps(FOREIGN[kind](tree_of(text, "t.page")))
    write_entry(cache_home, text, "t.page", payload)
    parses.clear()
    result = check_text(text, "t.page")
    assert parses == ["t.page"]
    assert said(result) == expected
    parses.clear()
    assert said(check_text(text, "t.page")) == expected and parses == []  # replaced, good


class _Plant:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return builtins.open, (str(self.marker), "w")


def good_entry(home: Path, text: str, path: str) -> tuple[Path, bytes]:
    check_text(text, path)
    (entry,) = [e for e in entries(home)
                if e.name == parsecache.entry_key(text, path, suggest)[0]]
    return entry, entry.read_bytes()


DAMAGE = {
    "corrupted": lambda entry, data: entry.write_bytes(data[:-40] + bytes(
        b ^ 0x55 for b in data[-40:])),
    "truncated": lambda entry, data: entry.write_bytes(data[: len(data) // 2]),
    "header only": lambda entry, data: entry.write_bytes(data[:60]),
    "empty": lambda entry, data: entry.write_bytes(b""),
    "of another format": lambda entry, data: entry.write_bytes(
        data.replace(parsecache.FORMAT, b"jibunki-parse-cache 0\n", 1)),
    "of another key": lambda entry, data: entry.write_bytes(
        data[:len(parsecache.FORMAT)] + b"0" * 64 + data[len(parsecache.FORMAT) + 64:]),
    "world-writable": lambda entry, data: os.chmod(entry, 0o666),
    "group-writable": lambda entry, data: os.chmod(entry, 0o620),
    "oversized": lambda entry, data: _sparse(entry, parsecache.MAX_ENTRY_BYTES + 1),
    "a directory": lambda entry, data: (entry.unlink(), entry.mkdir()),
    "a fifo": lambda entry, data: (entry.unlink(), os.mkfifo(entry, 0o600)),
}


def _sparse(entry: Path, size: int) -> None:
    with open(entry, "r+b") as handle:
        handle.truncate(size)  # sparse: no disk used


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_or_doubtful_entry_is_ignored_and_the_file_parsed(cache_home, parses,
                                                                     kind, monkeypatch):
    expected = said(uncached(monkeypatch, lambda: check_text(BROKEN, "b.page")))
    entry, data = good_entry(cache_home, BROKEN, "b.page")
    DAMAGE[kind](entry, data)
    parses.clear()
    assert said(check_text(BROKEN, "b.page")) == expected
    assert parses == ["b.page"]
    if kind != "a directory":  # a folder in its place is not ours to remove
        info = os.lstat(entry)
        assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
        parses.clear()
        assert said(check_text(BROKEN, "b.page")) == expected and parses == []


def test_a_symlinked_entry_is_not_followed(cache_home, parses, tmp_path, monkeypatch):
    expected = said(uncached(monkeypatch, lambda: check_text(BROKEN, "s.page")))
    entry, data = good_entry(cache_home, BROKEN, "s.page")
    target = tmp_path / "elsewhere.cache"
    target.write_bytes(data)
    os.chmod(target, 0o600)
    entry.unlink()
    entry.symlink_to(target)
    parses.clear()
    assert said(check_text(BROKEN, "s.page")) == expected
    assert parses == ["s.page"]
    assert target.read_bytes() == data  # the link was replaced, not written through
    assert stat.S_ISREG(os.lstat(entry).st_mode)


def test_an_entry_that_would_run_code_when_unpickled_never_does(cache_home, parses,
                                                                tmp_path):
    marker = tmp_path / "planted-code-ran"
    write_entry(cache_home, BROKEN, "p.page", pickle.dumps(("ParseResult", _Plant(marker))))
    parses.clear()
    check_text(BROKEN, "p.page")
    assert parses == ["p.page"]
    assert not marker.exists()


def test_a_cache_folder_others_can_write_is_never_used(cache_home, parses):
    check_text(BROKEN, "w.page")
    os.chmod(folder_of(cache_home), 0o777)
    before = {e.name: e.read_bytes() for e in entries(cache_home)}
    parses.clear()
    check_text(BROKEN, "w.page")
    check_text(BROKEN, "w2.page")
    assert parses == ["w.page", "w2.page"]
    assert {e.name: e.read_bytes() for e in entries(cache_home)} == before


# ------------------------------------------------------------ bounds and cleaning


def test_entries_are_bounded_in_number_the_least_recently_used_go(cache_home, parses,
                                                                   monkeypatch):
    monkeypatch.setattr(parsecache, "MAX_ENTRIES", 4)
    texts = {f"f{i}.page": f"ページ p{i} {{ 銘 {i}; 未来面 白紙 }}\n" for i in range(6)}
    paths = list(texts)
    for path in paths[:4]:
        check_text(texts[path], path)
    assert len(entries(cache_home)) == 4
    past = time.time() - 1000
    for age, path in enumerate(paths[:4]):  # used long ago, f0 first, f3 last
        entry = folder_of(cache_home) / parsecache.entry_key(texts[path], path,
                                                             suggest)[0]
        os.utime(entry, (past + age, past + age))
    parses.clear()
    check_text(texts["f0.page"], "f0.page")  # a use: now the most recently used entry
    assert parses == []
    for path in paths[4:]:
        check_text(texts[path], path)
        assert len(entries(cache_home)) <= 4
    parses.clear()
    check_text(texts["f0.page"], "f0.page")
    check_text(texts["f5.page"], "f5.page")
    assert parses == []
    check_text(texts["f1.page"], "f1.page")
    assert parses == ["f1.page"]  # evicted: the least recently used but for f0


def test_entries_are_bounded_in_size(cache_home, parses, monkeypatch):
    monkeypatch.setattr(parsecache, "MAX_ENTRY_BYTES", 200)
    check_text(BROKEN, "big.page")
    assert entries(cache_home) == []
    check_text(BROKEN, "big.page")
    assert parses == ["big.page", "big.page"]


def test_entries_are_bounded_in_total_size(cache_home, monkeypatch):
    monkeypatch.setattr(parsecache, "MAX_TOTAL_BYTES", 3 * 4096)
    monkeypatch.setattr(parsecache, "_SCAN_AFTER_BYTES", 0)
    for i in range(6):
        check_text(BROKEN.replace("ok1", f"ok{i}x"), f"t{i}.page")
    assert sum(e.stat().st_size for e in entries(cache_home)) <= 3 * 4096
    assert entries(cache_home)


def test_temporaries_of_killed_runs_are_removed_and_young_ones_kept(cache_home):
    folder = folder_of(cache_home)
    folder.mkdir(mode=0o700, parents=True)
    old, young, other = (folder / ".parse-0123456789abcdef.tmp",
                         folder / ".parse-fedcba9876543210.tmp", folder / "notes.tmp")
    for path in (old, young, other):
        path.write_bytes(b"x")
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    check_text(BROKEN, "t.page")
    assert not old.exists() and young.exists() and other.exists()


def test_entries_are_private_files_in_the_private_folder(cache_home):
    check_text(BROKEN, "t.page")
    assert stat.S_IMODE(os.stat(folder_of(cache_home)).st_mode) == 0o700
    (entry,) = entries(cache_home)
    info = os.lstat(entry)
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert info.st_uid == os.geteuid()
    assert not list(folder_of(cache_home).glob(".parse-*"))  # no temporary left


# ------------------------------------------------------------ no cache, no error


def test_jibunki_no_cache_parses_every_time_and_writes_nothing(cache_home, parses,
                                                               monkeypatch, content):
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    first = lint(content)
    second = lint(content)
    assert len(parses) == 2 * len(files_of(content))
    assert said(first) == said(second)
    assert not cache_home.exists()


def test_a_read_only_cache_folder_lints_correctly_and_leaves_nothing(cache_home, parses,
                                                                     monkeypatch):
    # Root writes through permission bits, so a read-only file system is simulated.
    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    expected = said(uncached(monkeypatch, lambda: check_text(BROKEN, "r.page")))
    parses.clear()
    monkeypatch.setattr(os, "replace", read_only)
    assert said(check_text(BROKEN, "r.page")) == expected
    assert said(check_text(BROKEN, "r.page")) == expected
    assert parses == ["r.page", "r.page"]
    assert list(folder_of(cache_home).iterdir()) == []  # the temporaries are gone too


@pytest.mark.parametrize("home", ["unset", "a file", "relative"])
def test_a_missing_or_unusable_home_lints_correctly(tmp_path, home):
    page = tmp_path / "kiyoi.page"
    page.write_text("ページ kiyoi {\n  銘 10\n  未来面 { 敵HP -= 3 }; ペン 過去面 { 歩 += 5 }\n}\n", encoding="utf-8")
    # Names resolve against an empty content folder: with no cache at all, every run
    # would parse the whole bundled content afresh (0.3 s of CPU each), which the home's
    # handling does not need.
    no_content = tmp_path / "no-content"
    no_content.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("JIBUNKI_NO_CACHE", "XDG_CACHE_HOME", "HOME")}
    if home == "a file":
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("x")
        env["HOME"] = str(blocker)
    elif home == "relative":
        env["HOME"] = "relative/home"
    for _ in range(2):
        result = subprocess.run([sys.executable, "-c", "from cli import main; main()",
                                 "lint", str(page), "--content", str(no_content)],
                                cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "エラー 0 件、警告 0 件" in result.stdout
        assert "Traceback" not in result.stdout + result.stderr
    assert not (ROOT / "relative").exists()


def test_an_unusable_cache_folder_lints_correctly(tmp_path, monkeypatch, parses):
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    expected = said(uncached(monkeypatch, lambda: check_text(BROKEN, "u.page")))
    parses.clear()
    assert said(check_text(BROKEN, "u.page")) == expected
    assert parses == ["u.page"]


def test_a_full_cache_hit_imports_neither_lark_nor_the_parser(cache_home):
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    env.pop("JIBUNKI_NO_CACHE", None)
    probe = ("import sys\nfrom pathlib import Path\nfrom scenario.stage import lint\n"
             "r = lint([Path('content')], [Path('content')], project=Path('content'))\n"
             "assert not r.diagnostics, r.diagnostics\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'"
             " or m == 'dsl.parser'))\n")
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert "lark" in runs[0].stdout  # cold: parsed
    assert runs[1].stdout.strip() == "[]"  # warm: every file from the cache


# ------------------------------------------------------------ the schema


def test_the_allow_list_holds_every_node_of_the_ast():
    nodes = {value for value in vars(ast).values()
             if isinstance(value, type) and dataclasses.is_dataclass(value)
             and value.__module__ == ast.__name__}
    schema = parsecache._schema()
    assert nodes <= set(schema.encoders) and nodes <= set(schema.decoders)


def test_the_bundled_content_and_fixtures_are_all_cacheable():
    paths = [p for folder in (ROOT / "content", ROOT / "tests" / "fixtures")
             for p in sorted(folder.rglob("*"))
             if p.suffix in (".page", ".enemy", ".deck", ".balance", ".scenario")]
    assert len(paths) > 20
    for path in paths:
        shown = str(path.relative_to(ROOT))
        result = dsl_parser.parse(path.read_text(encoding="utf-8"), shown, suggest)
        assert_round_trips(result)


def assert_round_trips(result) -> None:
    """encode → plain pickle → decode gives an equal result, of the same types all through
    (repr tells 1 from 1.0 and True, a list from a tuple: == does not)."""
    data = pickle.dumps(parsecache.encode(result), protocol=pickle.HIGHEST_PROTOCOL)
    back = parsecache.decode(diskcache.loads_literal(data))
    assert back == result
    assert repr(back) == repr(result)


def _generated_pages():
    from test_properties import CONDS_IN_PLACE, GRAMMAR_PROGRAMS, ITEMS, SAYOU_IN_PLACE

    return st.one_of(GRAMMAR_PROGRAMS, ITEMS, SAYOU_IN_PLACE, CONDS_IN_PLACE)


@settings(max_examples=int(os.environ.get("JIBUNKI_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.filter_too_much])
@given(st.one_of(_generated_pages(), _generated_pages().map(lambda t: t[: len(t) // 2])))
def test_encode_then_decode_of_generated_pages_gives_equal_objects(text):
    # Whole programs from the grammar, and the same cut in half (syntax errors, damage).
    assert_round_trips(dsl_parser.parse(text, "g.page", suggest))


def test_what_the_schema_refuses_is_parsed_not_saved(cache_home, parses, monkeypatch):
    real = dsl_parser.parse

    def with_a_token(text, path, suggest=None):  # a str subclass where a str belongs
        result = real(text, path, suggest)
        items = result.file.items
        page = dataclasses.replace(items[0], title=type("Token", (str,), {})("t"))
        return dataclasses.replace(result, file=dataclasses.replace(
            result.file, items=(page, *items[1:])))

    monkeypatch.setattr(dsl_parser, "parse", with_a_token)
    check_text(BROKEN, "k.page")
    assert entries(cache_home) == []


def test_a_parse_made_while_the_sources_changed_is_not_saved(cache_home, parses,
                                                             monkeypatch):
    assert parsecache._fingerprint() is not None  # taken before the edit
    monkeypatch.setattr(parsecache, "_implementation", lambda: b"edited meanwhile")
    check_text(BROKEN, "e.page")
    assert entries(cache_home) == []
    check_text(BROKEN, "e.page")
    assert parses == ["e.page", "e.page"]


def test_one_file_parsed_through_the_cache_as_an_editor_would(cache_home, parses):
    fresh = dsl_parser.parse(BROKEN, "ed.page", suggest)
    first = parsecache.parse(BROKEN, "ed.page", suggest)
    second = parsecache.parse(BROKEN, "ed.page", suggest)
    assert repr(first) == repr(second) == repr(fresh)
    assert parses == ["ed.page", "ed.page"]  # the fresh one and the first: not the second


def test_the_parse_key_covers_every_module_of_contract_that_dsl_reads():
    """A parse is cached under its implementation's sources: a module of contract/ that
    dsl/ imports (the variant kanji of contract.typed, say) and not in the key would leave
    parses made by its former text in use."""
    import ast as pyast
    import importlib.util

    from dsl import parsecache

    read = set()
    for path in sorted((ROOT / "dsl").glob("*.py")):
        for node in pyast.walk(pyast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, pyast.ImportFrom) and (node.module or "").startswith("contract"):
                for alias in node.names:
                    module = f"{node.module}.{alias.name}"
                    spec = importlib.util.find_spec(module) if node.module == "contract" else None
                    read.add(spec.origin if spec else importlib.util.find_spec(node.module).origin)
    keyed = {str(Path(p).resolve()) for p in parsecache.implementation_paths()}
    assert read and {str(Path(p).resolve()) for p in read} <= keyed
