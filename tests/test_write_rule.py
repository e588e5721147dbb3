"""Writes go only where the user meant, reads are bounded (issue 32, items 1, 13, 17).

Every command that writes — a battle's ``save`` and ``record``, ``compile --out``,
``catalog --out``, ``sim --html``, ``fmt`` — goes through contract.disk: a symlink, a
FIFO or a device in place of its file is refused (the link's target untouched, no hang),
a battle writes only inside the working folder and never over a file without --force,
and no temporary file is left. ``load`` reads a regular file of bounded size without
blocking.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import ROOT, full_disk_from, invoke_cli
from contract import disk
from runtime.save import SAVE_VERSION

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

CONTENT = str(ROOT / "content")


class Hung(BaseException):
    """A deadline passed (a BaseException: the code under test, which catches OSError and
    so TimeoutError, cannot swallow it)."""


@contextmanager
def deadline(seconds: int = 20):
    """Fail, rather than hang the run, when the block takes longer than ``seconds``."""
    def hung(signum, frame):
        raise Hung(f"still running after {seconds} s")

    before = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*") if p.suffix in (".tmp", ".fmt"))


def battle_in(folder: Path, monkeypatch, script: str, *args: str):
    """``jibunki battle`` of the bundled content with ``folder`` as the working folder."""
    monkeypatch.chdir(folder)
    with deadline():
        return invoke_cli("battle", "--seed", "3", "--content", CONTENT, *args, input=script)


@pytest.fixture
def hostile(tmp_path):
    """A working folder holding what a write must never go through or over: a precious
    file, a link to a file outside, a FIFO; and a file outside the folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("precious\n", encoding="utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("outside\n", encoding="utf-8")
    (work / "link.json").symlink_to(outside)
    os.mkfifo(work / "pipe.json")
    return work


# --------------------------------------------------------------- the battle


def test_a_script_record_never_overwrites_an_existing_file(hostile, monkeypatch):
    """The issue's reproduction: ``record notes.txt`` in a script leaves the notes."""
    result = battle_in(hostile, monkeypatch, "record notes.txt\nplay 1\n")
    assert (hostile / "notes.txt").read_text(encoding="utf-8") == "precious\n"
    assert "× notes.txt はもうあります。上書きしません（上書きするなら jibunki battle --force）" \
        in result.output
    assert result.exit_code == 2 and "> play 1" not in result.output  # the script stops there
    as_json = battle_in(hostile, monkeypatch, "record notes.txt\nplay 1\n", "--json")
    assert as_json.exit_code == 2 and '"kind": "refused"' in as_json.output
    assert '"line": "play 1"' not in as_json.output
    assert (hostile / "notes.txt").read_text(encoding="utf-8") == "precious\n"


def test_a_script_save_never_overwrites_an_existing_file_without_force(hostile, monkeypatch):
    refused = battle_in(hostile, monkeypatch, "save notes.txt\n")
    assert refused.exit_code == 2 and "はもうあります" in refused.output
    assert (hostile / "notes.txt").read_text(encoding="utf-8") == "precious\n"
    forced = battle_in(hostile, monkeypatch, "save notes.txt\n", "--force")
    assert "保存しました: notes.txt" in forced.output and forced.exit_code == 3
    assert json.loads((hostile / "notes.txt").read_text(encoding="utf-8"))["save_version"] == SAVE_VERSION


@pytest.mark.parametrize("command", ["save", "record"])
@pytest.mark.parametrize("target, says", [
    ("link.json", "通常のファイルではありません（シンボリックリンク）"),
    ("pipe.json", "通常のファイルではありません（名前付きパイプ）"),
    ("../escape.json", "の外には書きません"),
    ("{outside}/elsewhere.json", "の外には書きません"),  # an absolute path outside
    ("missing/x.json", "ファイルかフォルダがありません"),
    (".", "ファイル名がありません"),
    ("../work/", "ファイル名がありません（フォルダを指しています）"),  # the folder itself
])
def test_save_and_record_write_only_regular_files_inside_the_working_folder(
        hostile, monkeypatch, command, target, says):
    before = sorted(os.listdir(hostile.parent)), sorted(os.listdir(hostile))
    target = target.format(outside=hostile.parent)
    result = battle_in(hostile, monkeypatch, f"{command} {target}\n", "--force")
    assert says in result.output and result.exit_code == 2, result.output
    assert (hostile.parent / "outside.txt").read_text(encoding="utf-8") == "outside\n"
    assert (hostile / "link.json").is_symlink() and (hostile / "pipe.json").is_fifo()
    assert (sorted(os.listdir(hostile.parent)), sorted(os.listdir(hostile))) == before


def test_a_save_replaced_with_force_keeps_no_temporary(hostile, monkeypatch):
    battle_in(hostile, monkeypatch, "save a.json\nsave a.json\nrecord b.scenario\n", "--force")
    assert (hostile / "a.json").is_file() and (hostile / "b.scenario").is_file()
    assert temporaries(hostile) == []


@pytest.mark.parametrize("answer, replaced", [("n", False), ("y", True), (None, False)])
def test_at_the_keyboard_an_existing_file_is_replaced_only_on_yes(hostile, monkeypatch,
                                                                   answer, replaced):
    """The keyboard asks y/n (no answer — Ctrl-D — is no)."""
    from conftest import compiled_tables
    from terminal.play import play

    asked: list[str] = []

    class Keys:
        lines = iter(["save notes.txt", "quit"])

        def bind(self, session):
            pass

        def read(self):
            return next(self.lines)

        def ask(self, question):
            asked.append(question)
            if answer is None:
                raise EOFError
            return answer

    monkeypatch.chdir(hostile)
    play(compiled_tables(ROOT / "content"), seed=3, enemies=["haguruma"], deck=None,
         with_pages=[], lines=None, as_json=False, keyboard=Keys(), yes=True)
    assert asked == ["notes.txt はもうあります。上書きしますか？ [y/N] "]
    text = (hostile / "notes.txt").read_text(encoding="utf-8")
    assert (text != "precious\n") is replaced


# ------------------------------------------------------------- bounded reads


@pytest.mark.parametrize("make, says", [
    (lambda f: os.mkfifo(f), "通常のファイルではありません（名前付きパイプ）"),
    (lambda f: f.symlink_to("/dev/zero"), "通常のファイルではありません（デバイス）"),
    (lambda f: f.write_bytes(b" " * 4096), "大きすぎます（上限 1 KiB）"),
])
def test_load_of_a_fifo_a_device_or_an_oversized_file_is_one_line_at_once(
        tmp_path, monkeypatch, make, says):
    monkeypatch.setattr("terminal.session.MAX_SAVE_CHARS", 1024)
    make(tmp_path / "odd.json")
    result = battle_in(tmp_path, monkeypatch, "load odd.json\nplay 1\n")
    assert f"× odd.json を読めません: {says}" in result.output
    # the lines after a load were written for the saved position: the script stops there
    assert "> play 1" not in result.output and result.exit_code == 2


def test_read_bounded_reads_at_most_its_limit_plus_one_byte(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert disk.read_bounded(path, 10) == b"x" * 10
    with pytest.raises(disk.TooLarge):
        disk.read_bounded(path, 9)
    with deadline(5), pytest.raises(disk.NotRegular):
        disk.read_bounded("/dev/zero", 1 << 30)


# ------------------------------------------------- the other writing commands


@pytest.mark.parametrize("odd", ["link", "fifo"])
def test_compile_refuses_a_link_or_a_fifo_in_place_of_a_table(tmp_path, monkeypatch, odd):
    out = tmp_path / "tables"
    out.mkdir()
    outside = tmp_path / "outside.py"
    outside.write_text("# mine\n", encoding="utf-8")
    if odd == "link":
        (out / "pages.py").symlink_to(outside)
    else:
        os.mkfifo(out / "pages.py")
    monkeypatch.chdir(ROOT)
    with deadline():
        result = invoke_cli("compile", "--out", str(out))
    assert result.exit_code == 1 and "pages.py: 通常のファイルではありません" in result.output
    assert outside.read_text(encoding="utf-8") == "# mine\n"
    assert (out / "pages.py").is_symlink() if odd == "link" else (out / "pages.py").is_fifo()
    assert temporaries(out) == [] and not (out / "__init__.py").exists()  # nothing written


def test_compile_into_a_file_where_its_folder_goes_names_it_not_a_folder(tmp_path, monkeypatch):
    """generated/ a regular file: the OS says EEXIST, "already there", the opposite of the
    trouble; compile says it is no folder, and leaves it as it was."""
    out = tmp_path / "generated"
    out.write_text("mine\n", encoding="utf-8")
    (tmp_path / "content").symlink_to(ROOT / "content")
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("compile")  # its default folder (--out's is refused as it is read)
    assert result.exit_code == 1 and "フォルダではありません" in result.output, result.output
    assert "すでにあります" not in result.output
    assert out.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("odd", ["link", "fifo"])
def test_catalog_refuses_a_link_or_a_fifo_in_place_of_its_page(tmp_path, monkeypatch, odd):
    out = tmp_path / "catalog"
    out.mkdir()
    outside = tmp_path / "outside.html"
    outside.write_text("mine\n", encoding="utf-8")
    if odd == "link":
        (out / "index.html").symlink_to(outside)
    else:
        os.mkfifo(out / "index.html")
    monkeypatch.chdir(ROOT)
    with deadline(60):
        result = invoke_cli("catalog", "--out", str(out))
    assert result.exit_code == 1 and "index.html: 通常のファイルではありません" in result.output
    assert outside.read_text(encoding="utf-8") == "mine\n" and temporaries(out) == []


def test_sim_html_refuses_a_link_in_place_of_its_report(tmp_path, monkeypatch):
    out = tmp_path / "sim"
    out.mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text("{}\n", encoding="utf-8")
    (out / "report.json").symlink_to(outside)
    monkeypatch.chdir(ROOT)
    with deadline(120):
        result = invoke_cli("sim", "--page", "tabidachi", "--enemy", "haguruma", "--max-pairs",
                            "20", "--workers", "1", "--precision", "0.5", "--policy", "random",
                            "--html", str(out))
    assert result.exit_code == 1 and "report.json: 通常のファイルではありません" in result.output
    assert outside.read_text(encoding="utf-8") == "{}\n" and temporaries(out) == []


SIM_QUICK = ("sim", "--page", "tabidachi", "--enemy", "haguruma", "--max-pairs", "20",
             "--workers", "1", "--precision", "0.5", "--policy", "random")


def test_sim_html_writes_no_catalog_but_the_one_beside_it_in_the_default_layout(
        tmp_path, monkeypatch):
    """A report named elsewhere (w/labrun) leaves a w/catalog alone — it is outside what
    the user named — and one written into a catalog's folder is refused before the run:
    it would take the catalog's index.html."""
    monkeypatch.chdir(ROOT)
    with deadline(120):
        assert invoke_cli("catalog", "--out", str(tmp_path / "w" / "catalog")).exit_code == 0
    mine = tmp_path / "x" / "catalog" / "index.html"
    mine.parent.mkdir(parents=True)
    mine.write_text("<h1>mine</h1>\n", encoding="utf-8")
    catalog = (tmp_path / "w" / "catalog" / "index.html").read_bytes()
    with deadline(120):
        result = invoke_cli(*SIM_QUICK, "--html", str(tmp_path / "x" / "labrun"))
    assert result.exit_code == 0, result.output
    assert mine.read_text(encoding="utf-8") == "<h1>mine</h1>\n"
    assert "カタログ" not in result.output
    with deadline(120):
        result = invoke_cli(*SIM_QUICK, "--html", str(tmp_path / "w" / "catalog"))
    assert result.exit_code == 1
    assert "にはカタログがあります。実験室の報告で上書きしません" in result.output
    assert "見込み" not in result.output  # said before any battle
    assert (tmp_path / "w" / "catalog" / "index.html").read_bytes() == catalog
    with deadline(120):  # w/sim beside w/catalog, named elsewhere: w/catalog is not named
        result = invoke_cli(*SIM_QUICK, "--html", str(tmp_path / "w" / "sim"))
    assert result.exit_code == 0 and "のページから報告へリンクしました" not in result.output
    assert (tmp_path / "w" / "catalog" / "index.html").read_bytes() == catalog
    monkeypatch.chdir(tmp_path / "w")  # the working folder's own generated/: re-rendered
    (tmp_path / "w" / "generated").mkdir()
    (tmp_path / "w" / "catalog").rename(tmp_path / "w" / "generated" / "catalog")
    with deadline(120):
        result = invoke_cli(*SIM_QUICK, "--content", str(ROOT / "content"), "--html",
                            "generated/sim")
    assert result.exit_code == 0 and "のページから報告へリンクしました" in result.output
    assert b"../sim/index.html#page-tabidachi" in \
        (tmp_path / "w" / "generated" / "catalog" / "index.html").read_bytes()


def test_the_catalog_is_never_written_over_a_lab_report_and_reads_none_but_its_neighbour(
        tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    with deadline(120):
        assert invoke_cli(*SIM_QUICK, "--html", str(tmp_path / "sim")).exit_code == 0
    report = (tmp_path / "sim" / "index.html").read_bytes()
    with deadline(120):
        result = invoke_cli("catalog", "--out", str(tmp_path / "sim"))
    assert result.exit_code == 1 and "には実験室の報告があります。カタログで上書きしません" in result.output
    assert (tmp_path / "sim" / "index.html").read_bytes() == report
    with deadline(120):  # another name than catalog: no neighbour is read
        assert invoke_cli("catalog", "--out", str(tmp_path / "cat")).exit_code == 0
    assert b"../sim/index.html" not in (tmp_path / "cat" / "index.html").read_bytes()


def test_a_neighbour_is_read_or_rendered_only_in_the_default_layout(tmp_path):
    """print --out X/Y/自分紀.pdf re-rendered X/catalog: only generated/print beside
    generated/catalog (any parent) has a neighbour, and only one that holds a catalog."""
    from commands.outputs import kind_of, neighbour

    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "index.html").write_text("<h1>mine</h1>\n", encoding="utf-8")
    assert kind_of(catalog) is None and neighbour(tmp_path / "print", "print", "catalog") is None
    for mark in ("vocabulary.html", "pool.csv"):
        (catalog / mark).write_text("", encoding="utf-8")
    assert kind_of(catalog) == "catalog"
    assert neighbour(tmp_path / "print", "print", "catalog") == catalog
    assert neighbour(tmp_path / "pr", "print", "catalog") is None
    assert neighbour(tmp_path / "labrun", "sim", "catalog") is None
    # written, not only read: only the working folder's generated/ (another project's
    # catalog beside a folder named elsewhere is outside what the user named)
    assert neighbour(tmp_path / "print", "print", "catalog", rendered=True) is None


def test_a_neighbour_is_rendered_only_in_the_working_folders_generated(tmp_path, monkeypatch):
    from commands.outputs import neighbour

    catalog = tmp_path / "generated" / "catalog"
    catalog.mkdir(parents=True)
    for mark in ("vocabulary.html", "pool.csv"):
        (catalog / mark).write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert neighbour(Path("generated/sim"), "sim", "catalog", rendered=True) == \
        Path("generated/catalog")
    assert neighbour(tmp_path / "generated" / "print", "print", "catalog", rendered=True) == catalog
    monkeypatch.chdir(tmp_path / "generated")
    assert neighbour(tmp_path / "generated" / "print", "print", "catalog", rendered=True) is None


def test_a_catalog_that_meets_a_full_disk_says_the_last_one_is_whole(tmp_path, monkeypatch):
    """The catalog's files are one set: a full disk leaves the catalog before it whole, and
    the message says so (it said only that the folder could not be written)."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "catalog"
    assert invoke_cli("catalog", "--out", str(out)).exit_code == 0
    before = (out / "index.html").read_bytes()
    full_disk_from(monkeypatch, 1)
    result = invoke_cli("catalog", "--out", str(out))
    monkeypatch.undo()
    assert result.exit_code == 1
    assert "にカタログを書けません" in result.output and "（前のカタログはそのままです）" in result.output
    assert (out / "index.html").read_bytes() == before


def test_a_set_whose_third_file_meets_a_full_disk_leaves_every_old_file(tmp_path,
                                                                          monkeypatch):
    """The catalog's, the lab report's files are a set (disk.write_set): a full disk at
    any file leaves the old set whole — not a new vocabulary beside an old index — and no
    temporary."""
    out = tmp_path / "set"
    out.mkdir()
    old = {"a.html": "old a", "b.csv": "old b", "index.html": "old index"}
    disk.write_set(out, old, inside=out)
    full_disk_from(monkeypatch, 3)  # the third file's temporary
    with pytest.raises(disk.DiskError, match="ディスクがいっぱいです"):
        disk.write_set(out, {name: "new" for name in old}, inside=out)
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == old


def test_a_signal_during_a_sets_renames_takes_effect_after_the_last(tmp_path, monkeypatch):
    import signal
    import threading

    out = tmp_path / "set"
    out.mkdir()
    names = ["a.html", "b.csv", "index.html"]
    disk.write_set(out, {name: "old" for name in names}, inside=out)
    real = os.replace

    def interrupted(*args, **kwargs):  # Ctrl-C as the first file is renamed
        # to this thread (the one that holds the signals): under xdist another thread of
        # the worker would take a signal sent to the process
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(disk.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        disk.write_set(out, {name: "new" for name in names}, inside=out)
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    assert all((out / name).read_text(encoding="utf-8") == "new" for name in names)


# -------------------------------------------------------------------- fmt

MESSY = ("ページ  tameshi \"t\" {\n銘 0\n  未来面 白紙\n  過去面 白紙\n"
         "  ペン 未来面 { 歩 += 1 }\n  ペン 過去面 { 歩 += 2 }\n}\n")


def fmt(*args: str):
    with deadline(60):
        return invoke_cli("fmt", *args)


@pytest.mark.parametrize("wrong, code", [("銘 0", "銘 300"), ("過去面 白紙", "過去面 { 敵HQ -= 3 }")])
def test_fmt_never_rewrites_a_file_lint_finds_errors_in(tmp_path, monkeypatch, wrong, code):
    monkeypatch.chdir(ROOT)
    path = tmp_path / "t.page"
    path.write_text(MESSY.replace(wrong, code), encoding="utf-8")
    result = fmt(str(path))
    assert result.exit_code == 1 and "エラーがあるので整形しませんでした" in result.output
    assert "エラー[E0" in result.output and "整形しました" not in result.output
    assert path.read_text(encoding="utf-8") == MESSY.replace(wrong, code)
    path.write_text(MESSY, encoding="utf-8")  # the same layout without the error: laid out
    assert fmt(str(path)).exit_code == 0 and path.read_text(encoding="utf-8") != MESSY


def test_fmt_refuses_a_symlinked_file_and_leaves_its_target(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    folder = tmp_path / "pages"
    folder.mkdir()
    (tmp_path / "real.page").write_text(MESSY, encoding="utf-8")
    (folder / "t.page").symlink_to(tmp_path / "real.page")
    result = fmt(str(folder / "t.page"))
    assert result.exit_code == 1
    assert "t.page: 書き換えられません" in result.output and "シンボリックリンク" in result.output
    assert (tmp_path / "real.page").read_text(encoding="utf-8") == MESSY
    assert (folder / "t.page").is_symlink()


def test_fmt_never_rewrites_through_a_linked_folder_that_leads_out_of_the_content(
        tmp_path, monkeypatch):
    """A folder of content/ that links outside it is not read by lint or fmt of the
    whole folder; naming it (or a file in it) does not let fmt write out there either.
    A file named outside the content folder is its own: it is formatted."""
    content = tmp_path / "project" / "content"
    (content / "pages").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "t.page").write_text(MESSY, encoding="utf-8")
    (content / "pages" / "linked").symlink_to(outside)
    monkeypatch.chdir(tmp_path / "project")
    for named in ("content/pages/linked", "content/pages/linked/t.page"):
        result = fmt(named, "--content", "content")
        assert result.exit_code == 1, result.output
        assert "書き換えられません" in result.output and "の外には書きません" in result.output
        assert (outside / "t.page").read_text(encoding="utf-8") == MESSY
    result = fmt(str(outside / "t.page"), "--content", "content")
    assert result.exit_code == 0 and (outside / "t.page").read_text(encoding="utf-8") != MESSY


def test_fmt_of_a_fifo_is_refused_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    os.mkfifo(tmp_path / "t.page")
    result = fmt(str(tmp_path / "t.page"))
    assert result.exit_code == 1 and "通常のファイルではありません（名前付きパイプ）" in result.output


@pytest.mark.parametrize("command", ["lint", "fmt"])
@pytest.mark.parametrize("odd", ["fifo", "zero"])
def test_lint_and_fmt_of_a_fifo_or_a_device_answer_at_once_with_the_cache_on(project, command,
                                                                            odd):
    """The lint cache's key reads every named file: bounded and non-blocking, like the
    lint itself (E004). Run apart, with its memory bounded: reading /dev/zero without a
    limit must fail the test, not the machine."""
    import resource

    path = project / "odd.page"
    os.mkfifo(path) if odd == "fifo" else path.symlink_to("/dev/zero")

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    # the child says how much memory it held at most (KiB), as its last line
    measured = ("import resource, runpy, sys\n"
                "sys.argv = sys.argv[1:]\n"
                "try:\n"
                "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
                "finally:\n"
                "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", measured, str(ROOT / "cli.py"), command,
                           str(path)], cwd=project, env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=bounded)
    *said, held = done.stderr.strip().splitlines()
    assert done.returncode == 1 and "エラー[E004]: 通常のファイルではありません" in done.stdout + "".join(said)
    assert "Traceback" not in done.stderr
    # at most the limit plus one byte was read: far below the 2 GiB a read to the end
    # of /dev/zero reaches before its MemoryError (which the cache swallows)
    assert int(held) < 1024 * 1024


def test_fmt_into_an_unwritable_folder_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = tmp_path / "t.page"
    path.write_text(MESSY, encoding="utf-8")
    if os.geteuid() == 0:  # root writes anywhere: the folder refuses as a read-only one would
        def refused(*args, **kwargs):
            raise PermissionError(13, "Permission denied")
        monkeypatch.setattr(disk, "_temp", refused)
    else:
        tmp_path.chmod(0o500)
    try:
        result = fmt(str(path))
    finally:
        tmp_path.chmod(0o700)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"{path}: 書き換えられません: 権限がありません"]
    assert path.read_text(encoding="utf-8") == MESSY


def test_a_fmt_killed_while_writing_leaves_no_temporary_file(tmp_path):
    """SIGTERM (or Ctrl-C) in the middle of writing a file takes effect once the file is
    replaced and its temporary gone: the terminating signals are held while it exists."""
    path = tmp_path / "t.page"
    path.write_text(MESSY, encoding="utf-8")
    probe = textwrap.dedent("""
        import os, signal, sys
        real = os.fsync
        def killed(fd):
            os.kill(os.getpid(), signal.SIGTERM)  # as a supervisor would, mid-write
            real(fd)
        os.fsync = killed
        from cli import main
        main(["fmt", sys.argv[1]])
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JIBUNKI_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-c", probe, str(path)], cwd=ROOT, env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGTERM, done.stderr
    assert temporaries(tmp_path) == []
    assert path.read_text(encoding="utf-8") in (MESSY, MESSY.replace("\n銘 0", "\n  銘 0")
                                                .replace("ページ  ", "ページ "))


# ------------------------------------------------------------------- HOME


@pytest.mark.parametrize("home", ["missing", None])
def test_a_home_that_does_not_exist_is_never_made(tmp_path, home):
    env = {k: v for k, v in os.environ.items()
           if k not in ("HOME", "XDG_CACHE_HOME", "JIBUNKI_NO_CACHE")}
    if home is not None:
        env["HOME"] = str(tmp_path / home / "user")
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "cli.py", "lint", "content/pages"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------ the helper


def test_a_failed_or_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path,
                                                                           monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("old\n", encoding="utf-8")
    for failure in (OSError(28, "No space left on device"), KeyboardInterrupt()):
        def broken(fd, failure=failure):
            raise failure
        monkeypatch.setattr(disk.os, "fsync", broken)
        with pytest.raises(type(failure)) as caught:
            disk.write(path, "new\n", inside=tmp_path, replace=True)
        if isinstance(failure, OSError):
            assert str(caught.value) == f"{path}: ディスクがいっぱいです"
        assert path.read_text(encoding="utf-8") == "old\n" and temporaries(tmp_path) == []


def test_a_new_file_never_clobbers_one_that_appeared_meanwhile(tmp_path, monkeypatch):
    """No-clobber creation is a link of the finished temporary: a file made between the
    check and the write is kept, not replaced."""
    path = tmp_path / "a.txt"
    real = disk.os.fsync

    def racing(fd):
        real(fd)
        path.write_text("theirs\n", encoding="utf-8")

    monkeypatch.setattr(disk.os, "fsync", racing)
    with pytest.raises(disk.Exists):
        disk.write(path, "mine\n", inside=tmp_path, replace=False)
    assert path.read_text(encoding="utf-8") == "theirs\n" and temporaries(tmp_path) == []


def test_every_errno_the_designer_may_meet_has_japanese_words():
    import errno

    for code in (errno.ENOENT, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EROFS,
                 errno.EISDIR, errno.ENOTDIR, errno.ELOOP, errno.EEXIST):
        words = disk.reason(OSError(code, os.strerror(code)))
        assert words and all(not ch.isascii() or not ch.isalpha() for ch in words), words
    # An errno outside the table is named, never shown in the system's English.
    assert disk.reason(OSError(errno.ENOTUNIQ, "Name not unique on network")) == \
        "OS のエラーです（ENOTUNIQ）"


def test_make_folder_names_the_file_in_the_way_not_already_there(tmp_path):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    disk.make_folder(tmp_path / "a" / "b")
    disk.make_folder(tmp_path / "a" / "b")  # there already: nothing to do
    assert (tmp_path / "a" / "b").is_dir()
    for target, named, words in ((tmp_path / "notes.txt", "notes.txt", "フォルダではありません"),
                                 (tmp_path / "notes.txt" / "c", "notes.txt",
                                  "途中の名前がフォルダではありません")):
        with pytest.raises(disk.DiskError) as caught:
            disk.make_folder(target)
        assert caught.value.path == str(tmp_path / named)
        assert caught.value.strerror == words and "すでに" not in str(caught.value)


def test_a_report_folder_that_is_a_loop_of_links_is_no_folder_not_already_there(tmp_path):
    """sim --html and journey report --html at a symlink loop said 「すでにあります」."""
    from sim.render_html import write_page

    loop = tmp_path / "lo"
    loop.symlink_to(loop.name)
    with pytest.raises(disk.DiskError) as caught:
        write_page(loop, "<p>x</p>")
    assert caught.value.strerror == "フォルダではありません" and "すでに" not in str(caught.value)


@pytest.mark.parametrize("command, under, words", [
    # said before anything is written, of the file in the way, as print says it
    (["catalog", "--content", CONTENT, "--out"], "sub", "フォルダではありません"),
    (["print", "--content", CONTENT, "--out"], "a.pdf", "フォルダではありません")])
def test_an_output_under_a_file_says_the_file_is_no_folder(tmp_path, command, under, words):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    result = invoke_cli(*command, str(tmp_path / "notes.txt" / under))
    assert result.exit_code == 1, result.output
    assert f"{tmp_path / 'notes.txt'}: {words}" in result.output
    assert "すでにあります" not in result.output
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "x"


def test_sim_says_a_report_folder_it_cannot_write_before_it_plays(tmp_path, monkeypatch):
    import sim.lab

    taken = tmp_path / "taken"
    taken.write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.setattr(sim.lab.Lab, "run", lambda *a, **k: pytest.fail("the lab ran"))
    result = invoke_cli("sim", "--page", "zangyou", "--max-pairs", "20", "--html",
                        str(taken / "inside"))
    assert result.exit_code == 1, result.output
    # the file in the way named, as print and catalog name it
    assert f"{taken / 'inside'} に報告を書けません: {taken}: フォルダではありません" in result.output


def test_sim_says_a_link_to_nowhere_as_its_report_folder_before_it_plays(tmp_path, monkeypatch):
    """QA: `sim --html danglink` played every battle, then failed to write: a link to
    nowhere counted as a folder not made yet."""
    import sim.lab

    (tmp_path / "danglink").symlink_to(tmp_path / "nowhere" / "x")
    monkeypatch.setattr(sim.lab.Lab, "run", lambda *a, **k: pytest.fail("the lab ran"))
    result = invoke_cli("sim", "--page", "zangyou", "--max-pairs", "20", "--html",
                        str(tmp_path / "danglink"))
    assert result.exit_code == 1, result.output
    assert "フォルダではありません（リンク先がありません）" in result.output


@pytest.mark.parametrize("command, kind", [
    (["sim", "--page", "zangyou", "--max-pairs", "20", "--html"], "実験室の報告"),
    (["journey", "report", "--setup", "草案", "--deals", "1", "--no-pairs", "--html"], "旅の報告"),
    (["catalog", "--out"], "カタログ")])
def test_a_report_never_replaces_a_designers_own_index_html(tmp_path, monkeypatch, command, kind):
    """QA: `sim --html mynotes` replaced the designer's own mynotes/index.html without a
    word (another kind's report was refused, a file of no kind was not)."""
    import sim.lab

    monkeypatch.setattr(sim.lab.Lab, "run", lambda *a, **k: pytest.fail("the lab ran"))
    notes = tmp_path / "mynotes"
    notes.mkdir()
    (notes / "index.html").write_text("<h1>メモ</h1>", encoding="utf-8")
    result = invoke_cli(*command, str(notes))
    assert result.exit_code == 1, result.output
    assert f"{notes} には jibunki の{kind}ではない index.html があります。上書きしません" in result.output
    assert (notes / "index.html").read_text(encoding="utf-8") == "<h1>メモ</h1>"
    assert sorted(p.name for p in notes.iterdir()) == ["index.html"]


@pytest.mark.parametrize("command", [
    ["sim", "--page", "zangyou", "--max-pairs", "20", "--html"],
    ["journey", "report", "--setup", "草案", "--deals", "1", "--no-pairs", "--html"],
    ["catalog", "--out"]])
def test_a_report_is_never_written_into_the_content_folder(tmp_path, command, monkeypatch):
    """QA: `sim --html content/pages` put index.html and report.json among the pages."""
    import shutil

    import sim.lab
    from conftest import ROOT

    shutil.copytree(ROOT / "content", tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sim.lab.Lab, "run", lambda *a, **k: pytest.fail("the lab ran"))
    result = invoke_cli(*command, "content/pages/out")
    assert result.exit_code == 1, result.output
    assert "content/pages/out はコンテンツのフォルダ content の中です" in result.output
    assert not Path("content/pages/out").exists()


@pytest.mark.parametrize("linkable", [True, False])
def test_a_set_whose_third_rename_fails_puts_back_the_old_files_it_replaced(
        tmp_path, monkeypatch, linkable):
    """A file of the set that cannot be replaced (made immutable, say) after others were:
    the old set is put back whole — not a new pool.csv beside an old index — and the error
    says so, with no temporary left; where the file system has no hard links, copies keep
    the old files."""
    out = tmp_path / "set"
    out.mkdir()
    old = {"a.html": "old a", "b.csv": "old b", "index.html": "old index"}
    disk.write_set(out, old, inside=out)
    real = os.replace
    calls = []

    def refused_third(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise PermissionError(1, "Operation not permitted")
        return real(*args, **kwargs)

    monkeypatch.setattr(disk.os, "replace", refused_third)
    if not linkable:
        def no_links(*args, **kwargs):
            raise OSError(95, "Operation not supported")
        monkeypatch.setattr(disk.os, "link", no_links)
    with pytest.raises(disk.DiskError):
        disk.write_set(out, {name: "new" for name in ["new.txt", *old]}, inside=out)
    monkeypatch.undo()
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == old


def test_build_writes_its_tables_and_catalog_both_or_neither(tmp_path, monkeypatch):
    """QA: with a folder at generated/catalog/pool.csv, build wrote new tables, then could
    not write the catalog: generated/ held new tables beside an old catalog. The catalog's
    place is now asked first."""
    from conftest import small_content

    small_content(tmp_path / "content")
    (tmp_path / "generated" / "catalog" / "pool.csv").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("build")
    assert result.exit_code == 1, result.output
    assert "generated/catalog にカタログを書けません" in result.output
    assert "（表もカタログも書いていません）" in result.output
    assert not list((tmp_path / "generated").glob("*.py"))
    (tmp_path / "generated" / "catalog" / "pool.csv").rmdir()
    result = invoke_cli("build")
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "generated").glob("*.py"))
    assert sorted(p.name for p in (tmp_path / "generated" / "catalog").iterdir()) == \
        sorted(__import__("catalog.render", fromlist=["FILES"]).FILES)


@pytest.mark.parametrize("out", ["/dev/full", "broken", "a-file/catalog"])
def test_catalog_refuses_its_out_before_it_rewrites_generated(tmp_path, monkeypatch, out):
    """QA: `jibunki catalog --out /dev/full` rewrote generated/ for the content (「generated/
    をコンテンツに合わせて作り直しました」) and only then refused the place: a command
    that refuses leaves nothing behind."""
    from conftest import small_content

    small_content(tmp_path / "content")
    (tmp_path / "broken").symlink_to(tmp_path / "nowhere")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("catalog", "--out", out)
    assert result.exit_code == 1, result.output
    assert f"{out} にカタログを書けません" in result.output, result.output
    assert not (tmp_path / "generated").exists()


def test_build_refuses_a_catalog_place_it_cannot_write_before_its_tables(tmp_path, monkeypatch):
    """Review: a link to nowhere at generated/catalog counted as «not there yet», so the
    tables were written before the catalog failed; and a folder of another kind's output
    was refused with 「別のフォルダを指定してください」, which build has no option for."""
    from conftest import small_content

    small_content(tmp_path / "content")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "catalog").symlink_to(tmp_path / "nowhere")
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("build")
    assert result.exit_code == 1 and "（表もカタログも書いていません）" in result.output, result.output
    assert not list((tmp_path / "generated").glob("*.py"))
    (tmp_path / "generated" / "catalog").unlink()
    (tmp_path / "generated" / "catalog").mkdir()
    (tmp_path / "generated" / "catalog" / "report.json").write_text("{}", encoding="utf-8")
    (tmp_path / "generated" / "catalog" / "index.html").write_text("x", encoding="utf-8")
    result = invoke_cli("build")
    assert result.exit_code == 1, result.output
    assert "generated/catalog を別の場所に移すか消してください" in result.output
    assert "別のフォルダを指定" not in result.output
    assert not list((tmp_path / "generated").glob("*.py"))


def test_the_files_each_output_kind_is_said_to_write_are_the_ones_it_writes():
    """commands.outputs.WRITES, which refuses a designer's file in their place, is the
    writers' own list: a file added to one and not to it would be replaced unasked."""
    from catalog.render import FILES
    from commands.outputs import WRITES
    from journey.lab.html import REPORT_JSON as JOURNEY_JSON
    from sim.report_html import REPORT_JSON as SIM_JSON

    assert sorted(WRITES["catalog"]) == sorted(FILES)
    assert sorted(WRITES["sim"]) == sorted([SIM_JSON, "index.html"])
    assert sorted(WRITES["journey"]) == sorted([JOURNEY_JSON, "index.html"])


def test_a_set_never_replaces_a_read_only_file_and_keeps_the_old_set(tmp_path):
    """A read-only file is a lock, heeded by a set's write too (the catalog, a report,
    the tables), not only by one file's (fmt): nothing of the set is replaced."""
    import stat as stat_

    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_text("old a", encoding="utf-8")
    (out / "b.txt").write_text("old b", encoding="utf-8")
    (out / "b.txt").chmod(0o444)
    with pytest.raises(disk.DiskError) as caught:
        disk.write_set(out, {"a.txt": "new a", "b.txt": "new b"}, inside=out)
    assert caught.value.strerror.startswith("読み取り専用のファイルです")
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == {
        "a.txt": "old a", "b.txt": "old b"}
    assert stat_.S_IMODE((out / "b.txt").stat().st_mode) == 0o444


def test_compile_never_replaces_a_read_only_table(tmp_path):
    """The tables heed a read-only file as every other write does: compile refuses it,
    names it, and leaves the old tables whole; a read-only table it need not change is
    no obstacle."""
    from conftest import small_content

    content, out = small_content(tmp_path / "content"), tmp_path / "gen"
    assert invoke_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    for table in out.iterdir():
        table.chmod(0o444)
    assert invoke_cli("compile", "--content", str(content), "--out", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    import re as re_

    page = next((content / "pages").glob("*.page"))  # a 銘 one more: pages.py changes
    text = page.read_text(encoding="utf-8")
    page.write_text(re_.sub(r"銘\s+(\d+)", lambda m: f"銘 {int(m.group(1)) + 1}", text, count=1),
                    encoding="utf-8")
    result = invoke_cli("compile", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "読み取り専用のファイルです" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
