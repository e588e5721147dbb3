"""Random battle scripts with hostile paths never crash, hang or write where they should
not (issue 32, items 1 and 13).

Each example is a short script mixing the battle's commands with ``save``, ``load`` and
``record`` of paths a script may name: an existing file, a link to a file outside, a
FIFO, a link to /dev/zero, a file past the save's size limit, ``..``, an absolute path
elsewhere, a missing folder. It is run in-process by a Session (as ``jibunki battle
--script`` runs it: a refusal that stops the script stops it), with a deadline. After it,
whatever stood in the folder stands as it was, nothing appeared outside it, and no
temporary file is left.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, compiled_tables

#: Paths a script may name; ``{outside}`` is a folder beside the working folder.
PATHS = ("notes.txt", "link.json", "pipe.json", "zero.json", "big.json", "../escape.json",
         "{outside}/abs.json", "missing/x.json", "sub/ok.json", "ok.json", ".", "sub",
         "ok.scenario", "")
#: The battle's other commands (the pages are named by hand number).
PLAIN = ("play 1", "play 2", "end", "undo", "choose 1", "pen 1 未来面", "tear 2", "log",
         "where 1", "set 歩 30", "help", "nonsense")
#: A file past the save's limit (runtime.save.MAX_SAVE_CHARS), sparse: cheap to make.
BIG = 17 * 1024 * 1024


def lines():
    write = st.tuples(st.sampled_from(("save", "record", "load")), st.sampled_from(PATHS)) \
        .map(lambda pair: f"{pair[0]} {pair[1]}".rstrip())
    return st.lists(st.one_of(write, st.sampled_from(PLAIN)), min_size=1, max_size=8)


def folder_with_hostile_files() -> tuple[Path, Path]:
    """A fresh (working folder, outside folder) pair of what a write must leave alone."""
    base = Path(tempfile.mkdtemp(prefix="jibunki-fuzz-"))
    work, outside = base / "work", base / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "target.txt").write_text("outside\n", encoding="utf-8")
    (work / "notes.txt").write_text("precious\n", encoding="utf-8")
    (work / "link.json").symlink_to(outside / "target.txt")
    os.mkfifo(work / "pipe.json")
    (work / "zero.json").symlink_to("/dev/zero")
    with open(work / "big.json", "wb") as handle:
        handle.truncate(BIG)
    (work / "sub").mkdir()
    return work, outside


def standing(work: Path, outside: Path) -> dict:
    """What must not change: the precious files, the odd ones, everything outside."""
    return {
        "notes": (work / "notes.txt").read_text(encoding="utf-8"),
        "target": (outside / "target.txt").read_text(encoding="utf-8"),
        "link": (work / "link.json").is_symlink(), "zero": (work / "zero.json").is_symlink(),
        "pipe": (work / "pipe.json").is_fifo(), "big": (work / "big.json").stat().st_size,
        "outside": sorted(os.listdir(outside)), "beside": sorted(os.listdir(work.parent)),
        "temporaries": sorted(p.name for p in work.rglob(".*.tmp")),
    }


class Hung(BaseException):
    """The deadline passed (a BaseException: no handler of the code under test, which
    catches OSError and so TimeoutError, may swallow it)."""


def hung(signum, frame):
    raise Hung("the script is still running after its deadline")


def play_script(tables, script: list[str], outside: Path) -> None:
    """Each line through Session.run, as a script plays it (a stop ends it)."""
    from terminal.session import Session

    session = Session(tables, seed=3, enemies=["haguruma"], deck=None)
    for line in script:
        outcome = session.run(line.replace("{outside}", str(outside)))
        if getattr(outcome, "stop", False) or outcome.quit or session.battle.over:
            break


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(ROOT / "content")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=lines())
def test_random_scripts_with_hostile_paths_never_crash_hang_or_write_astray(tables, script,
                                                                            monkeypatch):
    work, outside = folder_with_hostile_files()
    before = standing(work, outside)
    monkeypatch.chdir(work)
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    try:
        play_script(tables, script, outside)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        monkeypatch.chdir(ROOT)
    try:
        assert standing(work, outside) == before, script
    finally:
        shutil.rmtree(work.parent)
