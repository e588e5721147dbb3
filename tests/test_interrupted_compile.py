"""An interrupted compile never leaves a mixed set of tables that loads.

A folder holds one compilation (the minimal golden case); a child process writes another
(the effects case) over it with ``write_atomically``, and sends itself a signal just
before its k-th file operation, for every k and for SIGTERM, SIGKILL, SIGHUP and SIGINT.
Afterwards the folder must load as all the old tables or all the new ones, or
``load()`` must refuse it as mixed; and the next ordinary write must leave exactly the
table files (no temporaries) and a set that loads as the new one.

The signals SIGTERM, SIGHUP and SIGINT are held while the files are renamed, so they can
only leave the old or the new set; SIGKILL cannot be held, and a kill between two renames
is what the manifest is for.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from compiler.build import MANIFEST_PY, compile_content, write_atomically
from conftest import ROOT
from runtime.battle import Battle
from runtime.tables import TABLE_NAMES, TableError, from_dicts, load

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

GOLDEN = ROOT / "tests" / "golden"
SIGNALS = (signal.SIGTERM, signal.SIGKILL, signal.SIGHUP, signal.SIGINT)
#: The file operations counted (tempfile.mkstemp opens with os.open too).
OPERATIONS = ("open", "write", "fsync", "chmod", "replace", "rename", "unlink")

#: The children: one process imports ``write_atomically`` once, then forks a child for
#: each case (out folder, signal, k), which counts the file operations, sends itself the
#: signal before the k-th and writes the new set with ``write_atomically``; a JSON line per
#: case gives the child's exit status and what it printed. (A fresh interpreter per case
#: cost a quarter of a second of CPU each, for the 92 cases of the bundled golden sets.)
CHILD = textwrap.dedent("""
    import json, os, sys, tempfile, traceback
    from pathlib import Path
    sys.path.insert(0, {root!r})
    from compiler.build import write_atomically

    files = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    count = 0

    def counted(real, at, sig):
        def operation(*args, **kwargs):
            global count
            count += 1
            if count == at:
                os.kill(os.getpid(), sig)
            return real(*args, **kwargs)
        return operation

    def case(out, sig, at):
        for name in {operations!r}:
            setattr(os, name, counted(getattr(os, name), at, sig))
        try:
            write_atomically(out, files)
        except KeyboardInterrupt:
            print("interrupted", count)
            return 130
        print("done", count)
        return 0

    for line in sys.stdin:
        out, sig, at = json.loads(line)
        with tempfile.TemporaryFile() as said, tempfile.TemporaryFile() as errors:
            sys.stdout.flush()
            child = os.fork()
            if child == 0:
                os.dup2(said.fileno(), 1)
                os.dup2(errors.fileno(), 2)
                try:
                    code = case(Path(out), sig, at)
                except BaseException:
                    traceback.print_exc()
                    code = 1
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            _, status = os.waitpid(child, 0)
            said.seek(0)
            errors.seek(0)
            print(json.dumps([os.waitstatus_to_exitcode(status),
                              said.read().decode(), errors.read().decode()]), flush=True)
""")


def compile_ok(case: str):
    compiled = compile_content(GOLDEN / case / "content")
    assert compiled.ok, [d.message for d in compiled.diagnostics if d.is_error]
    return compiled


@pytest.fixture(scope="module")
def compilations(tmp_path_factory):
    old, new = compile_ok("minimal"), compile_ok("effects")
    assert sum(old.files[n] != new.files[n] for n in old.files) >= 3
    folder = tmp_path_factory.mktemp("compilations")
    (folder / "new.json").write_text(json.dumps(new.files), encoding="utf-8")
    (folder / "child.py").write_text(
        CHILD.format(root=str(ROOT), operations=OPERATIONS), encoding="utf-8")
    return folder, old, new


def run_children(folder: Path, cases: list[tuple[Path, int, int]]
                 ) -> list[subprocess.CompletedProcess]:
    """Each case (out, signal, k) written by a child of its own (``CHILD``)."""
    orders = "".join(json.dumps([str(out), int(sig), at]) + "\n" for out, sig, at in cases)
    done = subprocess.run([sys.executable, str(folder / "child.py"), str(folder / "new.json")],
                          input=orders, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [subprocess.CompletedProcess([], *json.loads(line))
            for line in done.stdout.splitlines()]


def outcome(out: Path, old, new) -> str:
    """old / new: the folder loads as that whole compilation; mixed: load() refuses it."""
    try:
        tables = load(out)
    except TableError as exc:
        message = str(exc)
        assert "混ざって" in message and "jibunki compile" in message, message
        return "mixed"
    for label, compiled in (("old", old), ("new", new)):
        if tables == from_dicts(compiled.tables):
            return label
    raise AssertionError("the folder loads as neither compilation")


def test_a_signal_at_any_file_operation_leaves_old_new_or_a_refused_set(compilations,
                                                                       tmp_path):
    folder, old, new = compilations
    probe = tmp_path / "probe"
    write_atomically(probe, old.files)
    [clean] = run_children(folder, [(probe, signal.SIGTERM, 0)])  # 0: never signalled
    assert clean.returncode == 0 and clean.stdout.startswith("done"), clean.stderr
    operations = int(clean.stdout.split()[1])
    assert operations >= 3 * 4  # at least: open, fsync, chmod, replace of each changed file

    cases = [(sig, at) for sig in SIGNALS for at in range(1, operations + 1)]
    outs = [tmp_path / f"{sig.name}-{at}" for sig, at in cases]
    for out in outs:
        write_atomically(out, old.files)
    runs = zip(outs, run_children(folder, [(out, *case) for out, case in zip(outs, cases)]),
               strict=True)
    results = []
    for (sig, at), (out, result) in zip(cases, runs):
        assert "Traceback" not in result.stderr, result.stderr
        seen = outcome(out, old, new)
        strays = sorted(p.name for p in out.iterdir() if p.name not in old.files)
        # The next ordinary compile cleans up and switches the set.
        write_atomically(out, new.files)
        assert sorted(p.name for p in out.iterdir()) == sorted(new.files)
        tables = load(out)
        assert tables == from_dicts(new.tables)
        Battle.new(tables, seed=1)  # what failed with KeyError on a mixed set
        results.append((sig, at, seen, strays))

    tally = collections.Counter((sig.name, seen) for sig, _, seen, _ in results)
    report = {f"{name} {seen}": count for (name, seen), count in sorted(tally.items())}
    print(f"{len(results)} signals injected over {operations} file operations: {report}")
    for sig, at, seen, _ in results:
        if sig is not signal.SIGKILL:  # held while renaming: only ever a whole set
            assert seen in ("old", "new"), (sig.name, at, seen)
    assert {seen for sig, _, seen, _ in results if sig is signal.SIGKILL} == {
        "old", "new", "mixed"}  # the kill window between renames was reached, and refused
    assert any(strays for *_, strays in results)  # killed runs did leave temporaries …
    # … that the next write removed (asserted in one()).


def test_ctrl_c_during_the_renames_of_the_compile_command_completes_the_new_set(tmp_path):
    """Ctrl-C at each rename of a real `jibunki compile --out`: no traceback, and the set
    is whole (the interrupt takes effect after the last rename)."""
    out = tmp_path / "out"
    old_content, new_content = GOLDEN / "minimal" / "content", GOLDEN / "effects" / "content"
    compile_cmd = [sys.executable, "-c", "from cli import main; main()", "compile",
                   "--out", str(out), "--content"]
    assert subprocess.run([*compile_cmd, str(old_content)], cwd=ROOT, capture_output=True,
                          timeout=120).returncode == 0
    wrapper = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        # Ctrl-C as at a terminal, whatever this process inherited (a test run started in
        # the background by a shell ignores SIGINT, and would pass that down).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {{signal.SIGINT}})
        real, calls = os.replace, []
        def replace(*args, **kwargs):
            calls.append(args)
            if len(calls) == int(os.environ["AT"]):
                os.kill(os.getpid(), signal.SIGINT)
            return real(*args, **kwargs)
        os.replace = replace
        from cli import main
        main()
    """)
    new = compile_ok("effects")
    for at in (1, 2, 4):
        write_atomically(out, compile_ok("minimal").files)
        result = subprocess.run(
            [sys.executable, "-c", wrapper, "compile", "--out", str(out), "--content",
             str(new_content)], cwd=ROOT, capture_output=True, text=True, timeout=120,
            # No cache: the renames counted are the compile's own, not a cache entry's
            # (how many of those a run makes depends on what earlier runs left).
            env=dict(os.environ, AT=str(at), JIBUNKI_NO_CACHE="1"))
        assert "Traceback" not in result.stdout + result.stderr, result.stderr
        assert result.returncode != 0  # interrupted is not success …
        assert load(out) == from_dicts(new.tables)  # … but the set switched whole
        assert sorted(p.name for p in out.iterdir()) == sorted(new.files)


# ------------------------------------------------------------------ the loader's part


@pytest.fixture
def written(compilations, tmp_path):
    _, old, new = compilations
    out = tmp_path / "out"
    write_atomically(out, old.files)
    return out, old, new


def test_a_mixed_set_is_refused_naming_the_files(written):
    out, old, new = written
    for name in ("pages.py", "enemies.py"):
        (out / name).write_text(new.files[name], encoding="utf-8")
    with pytest.raises(TableError) as refused:
        load(out)
    message = str(refused.value)
    assert "pages.py" in message and "enemies.py" in message
    assert "balance.py" not in message
    assert "混ざって" in message and "jibunki compile" in message


def test_a_table_edited_by_hand_is_refused(written):
    out, _, _ = written
    path = out / "balance.py"
    path.write_text(path.read_text(encoding="utf-8").replace("'start_hp': ", "'start_hp': 1"),
                    encoding="utf-8")
    with pytest.raises(TableError, match="balance.py.*手で書き換え"):
        load(out)


def test_tables_without_a_manifest_are_refused(written):
    out, _, _ = written
    (out / MANIFEST_PY).write_text("# Generated by an older jibunki compile.\n",
                                   encoding="utf-8")
    with pytest.raises(TableError, match="MANIFEST がありません.*jibunki compile"):
        load(out)
    (out / MANIFEST_PY).unlink()
    with pytest.raises(TableError, match="jibunki compile"):
        load(out)


def test_a_manifest_that_is_not_a_literal_mapping_is_refused(written):
    out, _, _ = written
    (out / MANIFEST_PY).write_text("MANIFEST = __import__('os').system('true')\n",
                                   encoding="utf-8")
    with pytest.raises(TableError, match="MANIFEST"):
        load(out)


def test_the_generated_folder_loads_and_matches_its_manifest():
    tables = load()
    assert set(tables.pages) and set(tables.enemies)


def test_json_output_has_an_equivalent_manifest(compilations, tmp_path):
    import hashlib

    compiled = compile_content(GOLDEN / "minimal" / "content", "json")
    out = tmp_path / "json"
    write_atomically(out, compiled.files)
    assert list(compiled.files)[-1] == "manifest.json"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest == {f"{name}.json": hashlib.sha256((out / f"{name}.json").read_bytes())
                        .hexdigest() for name in TABLE_NAMES}


def test_the_manifest_is_deterministic(compilations):
    _, old, _ = compilations
    again = compile_ok("minimal")
    assert again.files == old.files
    assert list(again.files)[-1] == MANIFEST_PY


# ---------------------------------------------------------------- the writer's part


def test_stray_temporaries_of_a_killed_run_are_removed_and_nothing_else(written):
    out, old, new = written
    strays = [".pages.py.k3j_9xq2.tmp", ".__init__.py.abcdefgh.tmp", ".enemies.py.zz00zz00.old"]
    kept = ["notes.tmp", ".pages.py.tmp", ".other.py.abcdefgh.tmp", "pages.py.abcdefgh.tmp"]
    for name in strays + kept:
        (out / name).write_text("x", encoding="utf-8")
    (out / ".decks.py.linklink.tmp").symlink_to(out / "notes.tmp")
    write_atomically(out, new.files)
    left = {p.name for p in out.iterdir()}
    assert left == set(new.files) | set(kept) | {".decks.py.linklink.tmp"}
    # Even when nothing is to be written, the strays of a killed run go.
    (out / strays[0]).write_text("x", encoding="utf-8")
    assert write_atomically(out, new.files) == []
    assert strays[0] not in {p.name for p in out.iterdir()}


def test_the_manifest_is_renamed_last_whatever_the_order_given(written, monkeypatch):
    out, _, new = written
    renamed = []
    real = os.replace
    monkeypatch.setattr(os, "replace",
                        lambda src, dst: renamed.append(Path(dst).name) or real(src, dst))
    reordered = {MANIFEST_PY: new.files[MANIFEST_PY],
                 **{k: v for k, v in new.files.items() if k != MANIFEST_PY}}
    write_atomically(out, reordered)
    assert renamed[-1] == MANIFEST_PY and len(renamed) >= 3


def test_a_second_writer_waits_its_turn_and_then_gives_up_with_a_message(written,
                                                                          monkeypatch):
    import fcntl

    from compiler import build

    out, _, new = written
    monkeypatch.setattr(build, "LOCK_WAIT_SECONDS", 0.2)
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(OSError, match="書き込み中"):
            write_atomically(out, new.files)
    finally:
        os.close(holder)
    assert write_atomically(out, new.files)  # the lock is gone with its holder
    assert load(out) == from_dicts(new.tables)


def test_the_message_of_a_writer_that_gave_up_keeps_its_reason(written, monkeypatch):
    """What the designer reads says another jibunki is writing there, not only the errno's
    word (使用中です)."""
    import fcntl

    import click

    from commands.common import write_files
    from compiler import build

    out, _, new = written
    monkeypatch.setattr(build, "LOCK_WAIT_SECONDS", 0.2)
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(click.ClickException) as refused:
            write_files(out, new.files)
    finally:
        os.close(holder)
    assert "別の jibunki がこのフォルダに書き込み中です（0 秒待ちました）" in refused.value.message
    assert "（前の表はそのままです）" in refused.value.message


def test_a_first_write_that_fails_speaks_of_no_tables_kept(tmp_path, monkeypatch):
    """A full disk at a folder that held no tables said 「（前の表はそのままです）」."""
    import click

    from commands.common import write_files
    from conftest import full_disk_from

    full_disk_from(monkeypatch, 1)
    with pytest.raises(click.ClickException) as refused:
        write_files(tmp_path / "gen", {"a.py": "A = 1\n"})
    assert "を書けません" in refused.value.message and "前の表" not in refused.value.message


def test_a_ctrl_c_once_the_command_is_done_changes_nothing():
    """A Ctrl-C landing after 「generated/: … 更新しました」 exited 130 (so ``jibunki compile
    && …`` stopped), or, caught in weasyprint's font finaliser at exit, printed an English
    traceback: once the command has said its result, the process ends as it said."""
    import subprocess
    import sys

    program = ("import os, signal, sys\n"
               f"sys.path.insert(0, {str(ROOT)!r})\n"
               "sys.argv = ['jibunki', 'vocab', '刻']\n"
               "import cli\n"
               "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
               "os.kill(os.getpid(), signal.SIGINT)\n"
               "print('done', code)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.endswith("done 0\n"), done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr


def test_ctrl_c_while_the_command_line_loads_is_said_in_japanese_not_a_traceback():
    """Ctrl-C in the first instants of a command (its modules being imported, before click
    runs) ends it as click's Abort does later: 「中断しました。」, exit 1."""
    import subprocess
    import sys

    from conftest import ROOT

    code = ("import builtins, os, signal\n"
            "real = builtins.__import__\n"
            "def importing(name, *args, **kwargs):\n"
            "    if name == 'commands.lint':  # cli is loading its commands\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "    return real(name, *args, **kwargs)\n"
            "builtins.__import__ = importing\n"
            "from cli import main\n"
            "main(['--help'])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "中断しました。\n"
    assert done.stdout == ""


def test_a_folder_where_a_table_should_be_is_no_table_kept(tmp_path):
    """QA: ``mkdir bad1/pages.py; jibunki compile --out bad1`` said 「（前の表はそのままです）」
    of a folder that held no tables."""
    import click

    from commands.common import write_files

    (tmp_path / "gen" / "a.py").mkdir(parents=True)
    with pytest.raises(click.ClickException) as refused:
        write_files(tmp_path / "gen", {"a.py": "A = 1\n", "b.py": "B = 1\n"})
    assert "通常のファイルではありません" in refused.value.message
    assert "前の表" not in refused.value.message
    (tmp_path / "gen" / "b.py").write_text("B = 0\n", encoding="utf-8")
    with pytest.raises(click.ClickException) as refused:
        write_files(tmp_path / "gen", {"a.py": "A = 1\n", "b.py": "B = 1\n"})
    assert "（前の表はそのままです）" in refused.value.message
    assert (tmp_path / "gen" / "b.py").read_text(encoding="utf-8") == "B = 0\n"


def test_a_ctrl_c_inside_a_collectors_callback_is_raised_again_not_printed():
    """QA: Ctrl-C just as `jibunki build` finished landed in a weak reference's callback:
    Python printed 「Exception ignored in: <function WeakKeyDictionary…> Traceback …
    KeyboardInterrupt」 in English and the command went on. The hook raises it again where
    it can stop the command (or fall on the SIGINT ignored once the command is done)."""
    import types

    from commands.common import _interrupt_again

    others, signals = [], []
    hook = _interrupt_again(others.append)
    previous = signal.signal(signal.SIGINT, lambda *_: signals.append("SIGINT"))
    try:
        hook(types.SimpleNamespace(exc_value=KeyboardInterrupt()))
        assert signals == []  # not inside the hook: Python would print that instead
        deadline = time.monotonic() + 5
        while not signals and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert signals == ["SIGINT"] and others == []
    other = types.SimpleNamespace(exc_value=ValueError("x"))
    hook(other)
    assert others == [other]  # any other unraisable exception: Python's own hook
