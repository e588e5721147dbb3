"""The parser cache: a speed-up that can never run planted code, hang, eat memory or fail.

Every test points the cache at its own folder through XDG_CACHE_HOME. A "planted" file
is a pickle whose unpickling would create a marker file; it is given the right name and
a correct header and digest, so that only the check under test stands in its way.

Building the grammar takes about a second. A test that needs only "a valid cache file is
already there" before the step under test starts from ``valid_cache``: the file
``build_parser`` wrote once for the whole module, copied into the test's own private
folder. A build that is the step under test (a refused file rebuilt, a write checked)
is still a build.
"""

from __future__ import annotations

import builtins
import hashlib
import os
import pickle
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from dsl import parser as dsl_parser
from dsl.diskcache import cache_folder as _cache_folder
from dsl.parser import (_CACHE_MAGIC, MAX_CACHE_BYTES, PARSER_OPTIONS, _cache_name,
                        build_parser, get_parser, grammar_text)

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

CLEAN_PAGE = "ページ kiyoi {\n  銘 10\n  未来面 { 敵HP -= 3 }; ペン 過去面 { 歩 += 5 }\n}\n"
OTHER_UID = 12345
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another uid needs root")
#: A lint that takes longer than this is hanging (a normal one takes about a second).
PROMPT_SECONDS = 60


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(parser, bytes): a parser ``build_parser`` built from the grammar, and the cache
    file it wrote for it in a folder of its own — once for the module."""
    home = tmp_path_factory.mktemp("built-once")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(home))
        patch.delenv("JIBUNKI_NO_CACHE", raising=False)
        parser = build_parser()
    return parser, cache_path(home).read_bytes()


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    get_parser.cache_clear()
    yield home
    get_parser.cache_clear()  # the next test gets a parser of its own environment


def cache_path(home: Path) -> Path:
    name, _ = _cache_name(grammar_text(), PARSER_OPTIONS)
    return home / "jibunki" / name


@pytest.fixture
def valid_cache(cache_home, built) -> Path:
    """The test's own cache folder (0700) holding a valid cache file (0600), as an earlier
    run's ``build_parser`` left it: the module's file, copied. Its path."""
    path = cache_path(cache_home)
    path.parent.mkdir(mode=0o700, parents=True)
    os.chmod(path.parent, 0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with open(fd, "wb") as handle:
        handle.write(built[1])
    os.chmod(path, 0o600)
    return path


class _Plant:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return builtins.open, (str(self.marker), "w")


def plant(path: Path, marker: Path, mode: int = 0o600) -> bytes:
    """A cache file that names the right grammar and passes the digest check, but whose
    payload, once unpickled, would create ``marker``."""
    _, key = _cache_name(grammar_text(), PARSER_OPTIONS)
    payload = pickle.dumps({"data": _Plant(marker), "memo": {}})
    digest = hashlib.sha256(payload).hexdigest().encode("ascii")
    data = _CACHE_MAGIC + key + b"\n" + digest + b"\n" + payload
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, mode)
    return data


def lint_clean_in_process() -> int:
    """Lint a clean page in this process, its parser got afresh (``get_parser`` cleared):
    how many times that went through ``build_parser``, where the cache file is checked."""
    from compiler.lint import check_text

    get_parser.cache_clear()
    calls = []
    real_build = dsl_parser.build_parser

    def counting_build(*args, **kwargs):
        calls.append((args, kwargs))
        return real_build(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dsl_parser, "build_parser", counting_build)
        diagnostics = check_text(CLEAN_PAGE, "kiyoi.page").diagnostics
    assert list(diagnostics) == [], diagnostics
    return len(calls)


def lint_in_subprocess(tmp_path: Path, env: dict, limit_memory: bool = False):
    """``jibunki lint`` of a clean page in a fresh process; fails if it does not end. Its
    names resolve against an empty content folder: the bundled content, parsed with a cold
    cache, would cost each run 0.3 s of CPU that the cache file's checks do not need."""
    page = tmp_path / "kiyoi.page"
    page.write_text(CLEAN_PAGE, encoding="utf-8")
    no_content = tmp_path / "no-content"
    no_content.mkdir(exist_ok=True)

    def one_gib():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", "from cli import main; main()", "lint", str(page),
         "--content", str(no_content)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=PROMPT_SECONDS,
        preexec_fn=one_gib if limit_memory else None)
    return result, time.monotonic() - started


def child_env(**changes) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("JIBUNKI_NO_CACHE",)}
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def assert_clean_lint(result) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "エラー 0 件、警告 0 件" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert "E000" not in result.stdout


# ------------------------------------------------------------------ where it lives


def test_cache_lives_in_the_users_cache_folder_created_private(cache_home):
    build_parser()
    path = cache_path(cache_home)
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    info = os.lstat(path)
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert info.st_uid == os.geteuid()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_home_cache_is_used_when_xdg_cache_home_is_unset_or_relative(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert _cache_folder() == tmp_path / ".cache" / "jibunki"
    # The XDG spec: a relative path is invalid and ignored (it would follow the cwd).
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert _cache_folder() == tmp_path / ".cache" / "jibunki"


def test_the_cache_can_be_turned_off(cache_home, monkeypatch):
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    assert _cache_folder() is None
    build_parser()
    assert not cache_home.exists()


def test_a_changed_grammar_gets_another_cache_file():
    assert _cache_name("one grammar", PARSER_OPTIONS) != _cache_name("another grammar",
                                                                     PARSER_OPTIONS)
    changed = dict(PARSER_OPTIONS, propagate_positions=False)
    assert _cache_name("g", PARSER_OPTIONS) != _cache_name("g", changed)


# ----------------------------------------------------------------- still a speed-up


def test_a_valid_cache_is_read_instead_of_building_the_grammar(valid_cache, built,
                                                               monkeypatch):
    fresh = built[0]  # built from the grammar; valid_cache holds the file written for it
    reads = []
    real_read = os.read

    def counting_read(fd, n):
        data = real_read(fd, n)
        reads.append(len(data))
        return data

    def no_building(*args, **kwargs):
        raise AssertionError("the grammar was built although the cache is valid")

    import lark

    monkeypatch.setattr(os, "read", counting_read)
    monkeypatch.setattr(lark.Lark, "__init__", no_building)
    cached = build_parser()
    monkeypatch.undo()
    assert sum(reads) == os.path.getsize(valid_cache)
    for path in sorted((ROOT / "content").rglob("*.page")) + sorted(
            (ROOT / "content").rglob("*.enemy")):
        text = path.read_text(encoding="utf-8")
        assert cached.parse(text) == fresh.parse(text), path.name
    assert {t.name for t in cached.terminals} == {t.name for t in fresh.terminals}


def assert_cache_is_valid(monkeypatch) -> None:
    import lark

    def no_building(*args, **kwargs):
        raise AssertionError("the grammar was built although the cache is valid")

    with monkeypatch.context() as patch:
        patch.setattr(lark.Lark, "__init__", no_building)
        build_parser()


def test_a_torn_cache_file_is_rebuilt_and_replaced_whole(valid_cache, monkeypatch):
    path = valid_cache
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])  # a writer killed half-way
    build_parser()
    assert_cache_is_valid(monkeypatch)


def test_a_cache_file_of_another_build_is_not_used(valid_cache, monkeypatch):
    path = valid_cache
    whole = path.read_bytes()
    path.write_bytes(whole.replace(_CACHE_MAGIC, _CACHE_MAGIC.replace(b"1", b"0")))
    build_parser()
    assert path.read_bytes().startswith(_CACHE_MAGIC)
    assert_cache_is_valid(monkeypatch)


# ------------------------------------------------------------- no planted code runs


@needs_root
def test_a_cache_file_of_another_user_is_never_unpickled(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    path = cache_path(cache_home)
    plant(path, marker)
    os.chown(path, OTHER_UID, OTHER_UID)
    build_parser()
    assert not marker.exists()
    lint_clean_in_process()
    assert not marker.exists()
    assert os.lstat(path).st_uid == os.geteuid()  # replaced by a cache of our own


@needs_root
def test_a_file_swapped_in_just_before_the_open_is_refused_as_opened(valid_cache, tmp_path,
                                                                      monkeypatch):
    # The race of a check by name, then an open: the attacker wins it every time here,
    # and loses anyway, because what is checked is the file that was opened.
    marker = tmp_path / "planted-code-ran"
    path = valid_cache
    swap = path.parent / "swap"
    plant(swap, marker)
    os.chown(swap, OTHER_UID, OTHER_UID)
    real_open = os.open

    def racing_open(name, flags, *args, **kwargs):
        if name == path.name and swap.exists():
            os.replace(swap, path)
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", racing_open)
    build_parser()
    monkeypatch.undo()
    assert not swap.exists()  # the swap did happen
    lint_clean_in_process()
    assert not marker.exists()


def test_a_folder_swapped_after_its_check_is_not_the_one_read(valid_cache, tmp_path,
                                                              monkeypatch):
    marker = tmp_path / "planted-code-ran"
    path = valid_cache
    impostor = tmp_path / "impostor"
    plant(impostor / path.name, marker)
    real_read = dsl_parser._read_cache

    def swapped(folder, name, key):
        os.rename(path.parent, tmp_path / "moved-away")
        os.symlink(impostor, path.parent)
        return real_read(folder, name, key)

    import lark

    monkeypatch.setattr(dsl_parser, "_read_cache", swapped)
    monkeypatch.setattr(lark.Lark, "__init__", lambda *a, **k: pytest.fail("cache unused"))
    build_parser()  # reads the checked folder (by its descriptor), wherever it went
    monkeypatch.undo()
    assert path.parent.is_symlink()  # the swap did happen
    assert not marker.exists()


def test_a_cache_file_others_can_write_is_never_unpickled(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    path = cache_path(cache_home)
    plant(path, marker, mode=0o666)
    build_parser()
    lint_clean_in_process()
    assert not marker.exists()
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600


def test_even_a_file_of_our_own_cannot_run_code_when_unpickled(cache_home, tmp_path):
    # Defence in depth: the cache holds plain data only, so it is unpickled without
    # globals, and a pickle that would call anything is refused.
    marker = tmp_path / "planted-code-ran"
    plant(cache_path(cache_home), marker)
    build_parser()
    lint_clean_in_process()
    assert not marker.exists()


def test_a_folder_others_can_write_is_never_used(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    path = cache_path(cache_home)
    planted = plant(path, marker)
    os.chmod(path.parent, 0o777)
    # The folder is refused, so nothing is written that a second call would see: the
    # lint's own build_parser is the call under test (a direct one would only repeat it).
    assert lint_clean_in_process() == 1
    assert not marker.exists()
    assert path.read_bytes() == planted  # neither read nor written


@needs_root
def test_a_folder_of_another_user_is_never_used(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    path = cache_path(cache_home)
    planted = plant(path, marker)
    os.chown(path.parent, OTHER_UID, OTHER_UID)
    assert lint_clean_in_process() == 1  # the folder is refused: as above
    assert not marker.exists()
    assert path.read_bytes() == planted


def test_a_symlink_in_place_of_the_folder_is_not_followed(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    elsewhere = tmp_path / "elsewhere"
    planted = plant(elsewhere / cache_path(cache_home).name, marker)
    cache_home.mkdir()
    (cache_home / "jibunki").symlink_to(elsewhere)
    assert lint_clean_in_process() == 1  # the folder is refused: as above
    assert not marker.exists()
    assert [p.name for p in elsewhere.iterdir()] == [cache_path(cache_home).name]
    assert (elsewhere / cache_path(cache_home).name).read_bytes() == planted


def test_a_symlink_at_the_cache_path_is_not_followed(cache_home, tmp_path):
    marker = tmp_path / "planted-code-ran"
    target = tmp_path / "target.cache"
    planted = plant(target, marker)
    path = cache_path(cache_home)
    path.parent.mkdir(mode=0o700, parents=True)
    path.symlink_to(target)
    build_parser()
    lint_clean_in_process()
    assert not marker.exists()
    assert target.read_bytes() == planted  # the link was replaced, not written through
    assert stat.S_ISREG(os.lstat(path).st_mode)


# ------------------------------------------------------ no hang, no blow-up, no error


def test_a_fifo_at_the_cache_path_does_not_hang_lint(cache_home, tmp_path):
    path = cache_path(cache_home)
    path.parent.mkdir(mode=0o700, parents=True)
    os.mkfifo(path, 0o600)
    result, seconds = lint_in_subprocess(tmp_path, child_env(XDG_CACHE_HOME=str(cache_home)))
    assert_clean_lint(result)
    assert seconds < PROMPT_SECONDS


def test_a_symlink_to_dev_zero_does_not_eat_memory(cache_home, tmp_path):
    path = cache_path(cache_home)
    path.parent.mkdir(mode=0o700, parents=True)
    path.symlink_to("/dev/zero")
    result, seconds = lint_in_subprocess(tmp_path, child_env(XDG_CACHE_HOME=str(cache_home)),
                                         limit_memory=True)
    assert_clean_lint(result)
    assert seconds < PROMPT_SECONDS


def test_an_oversized_cache_file_is_never_read(cache_home, monkeypatch):
    path = cache_path(cache_home)
    path.parent.mkdir(mode=0o700, parents=True)
    with open(path, "wb") as handle:
        handle.truncate(MAX_CACHE_BYTES + 1)  # sparse: no disk used
    os.chmod(path, 0o600)
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    build_parser()
    monkeypatch.undo()
    assert reads == []
    assert path.stat().st_size < MAX_CACHE_BYTES


def test_home_and_xdg_cache_home_unset_lint_a_clean_file_cleanly(tmp_path, monkeypatch):
    result, _ = lint_in_subprocess(tmp_path, child_env(HOME=None, XDG_CACHE_HOME=None))
    assert_clean_lint(result)
    # In process too, with a uid the password database does not know (a container's).
    import pwd

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: (_ for _ in ()).throw(KeyError(uid)))
    assert _cache_folder() is None
    try:
        lint_clean_in_process()
    finally:
        get_parser.cache_clear()


def test_an_unusable_cache_folder_means_no_cache_and_no_error(tmp_path, monkeypatch):
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    build_parser()


def test_a_read_only_cache_folder_means_no_cache_and_no_error(cache_home, monkeypatch):
    # Root writes through permission bits, so a read-only file system is simulated.
    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    folder = cache_home / "jibunki"
    folder.mkdir(mode=0o700, parents=True)  # as a run that could still write left it
    monkeypatch.setattr(os, "replace", read_only)
    build_parser()
    monkeypatch.undo()
    assert list(folder.iterdir()) == []  # the temporary is gone too


def test_temporaries_of_killed_runs_are_removed_and_young_ones_kept(cache_home):
    folder = cache_home / "jibunki"
    folder.mkdir(mode=0o700, parents=True)
    old, young, other = (folder / ".grammar-0123456789abcdef.tmp",
                         folder / ".grammar-fedcba9876543210.tmp", folder / "notes.tmp")
    for path in (old, young, other):
        path.write_bytes(b"x")
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    build_parser()
    assert not old.exists() and young.exists() and other.exists()
