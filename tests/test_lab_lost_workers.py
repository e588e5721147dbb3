"""The labs when a process dies (sim/backends.py; issue 32, item 16): a worker killed once
is replaced and the report is the one of an undisturbed run; a second loss ends the command
in one line with no report; a kill -9 of the main process leaves no worker (and no process
of the local Ray it started) behind.

Each case runs ``jibunki sim`` or ``jibunki journey report`` as a process of its own, on a
workload of a few seconds, and kills what it finds under it in /proc (Linux). The Ray cases
start and stop their own local Ray through the command; they take half a minute or more
on two cores, so they are marked slow: the whole suite runs them, the fast loop
(``-m "not slow"``) leaves them out.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, children

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

if not Path("/proc/self/task").is_dir():
    pytest.skip("finds the workers through /proc (Linux)", allow_module_level=True)

#: The cheapest runs that still last a few seconds on two workers: long enough to kill a
#: worker while it holds tasks, and to see its replacement before the end.
COMMANDS = {
    "sim": ["sim", "--enemy", "haguruma", "--page", "sakamichi", "--policy", "random",
            "--precision", "0.001", "--max-pairs", "800", "--format", "json",
            "--no-cache"],  # battles kept by an earlier run would leave no worker to kill
    "journey report": ["journey", "report", "--seeds", "3", "--budget", "1", "--nodes",
                       "1500", "--find-nodes", "1500", "--no-pairs", "--format", "json",
                       "--no-cache"],
}
LOCAL = ["--workers", "2"]
RAY = ["--workers", "2", "--backend", "ray"]
#: Seconds a worker may outlive its killed main process (sim/backends.py PARENT_POLL is
#: 0.5 s; sim/reaper.py looks every 0.25 s).
GRACE = 5.0
#: Seconds to wait for workers to show up or a command to end (a loaded machine is slow).
PATIENCE = 180.0
LOST_TWICE = "エラー: 作業プロセスが 2 回失われたので中止しました"


def jibunki(args: list[str]) -> subprocess.Popen:
    """``jibunki ARGS`` from this checkout, as a process of its own."""
    return subprocess.Popen([sys.executable, "-c", "from cli import main; main()", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8")


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return None


def descendants(pid: int) -> list[int]:
    out, stack = [], [pid]
    while stack:
        for child in children(stack.pop()):
            out.append(child)
            stack.append(child)
    return out


def started(pid: int) -> str | None:
    """The process's start time, or None once it is gone (a zombie is gone too)."""
    stat = _read(f"/proc/{pid}/stat")
    if stat is None:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] in "ZX" else fields[19]


def cmdline(pid: int) -> str:
    return (_read(f"/proc/{pid}/cmdline") or "").replace("\0", " ").strip()


def local_workers(proc: subprocess.Popen) -> list[int]:
    # Forked from the command: the same command line.
    return [c for c in children(proc.pid) if cmdline(c) == cmdline(proc.pid)]


def ray_workers(proc: subprocess.Popen) -> list[int]:
    # The actors: Ray titles their processes ray::_Worker (ray::_Worker.play at work).
    return [p for p in descendants(proc.pid) if cmdline(p).startswith("ray::_Worker")]


WORKERS = {"local": (LOCAL, local_workers), "ray": (RAY, ray_workers)}


def wait_for_workers(proc, find, count: int, besides=()) -> list[int]:
    """``count`` workers of the running command that are not ``besides``; fails when the
    command ends first."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        found = [w for w in find(proc) if w not in besides]
        if len(found) >= count:
            return found
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the command ended (exit {proc.returncode}) before {count} "
                        f"new worker(s) showed up:\n{err[-2000:]}")
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"no {count} new worker(s) in {PATIENCE} s")


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def survivors(pids: dict[int, str]) -> list[int]:
    """Those of ``pids`` (pid → start time) still running ``GRACE`` seconds from now, or as
    soon as none is; each is killed so a failing case leaves nothing behind."""
    deadline = time.monotonic() + GRACE
    while True:
        left = [pid for pid, when in pids.items() if started(pid) == when]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for pid in left:
        kill(pid)
    return left


@pytest.fixture(scope="module")
def undisturbed() -> dict[str, str]:
    """Each command's report from a run nobody disturbs (one worker: any count gives the
    same bytes)."""
    reports = {}
    for name, args in COMMANDS.items():
        done = subprocess.run([sys.executable, "-c", "from cli import main; main()", *args,
                               "--workers", "1"], cwd=ROOT, capture_output=True, text=True,
                              encoding="utf-8", timeout=PATIENCE)
        assert done.returncode == 0, done.stderr
        reports[name] = done.stdout
    return reports


def lost_once(command: str, backend: str) -> tuple[subprocess.Popen, str, str]:
    args, find = WORKERS[backend]
    proc = jibunki(COMMANDS[command] + args)
    first = wait_for_workers(proc, find, 2)
    time.sleep(0.2)  # at work on its tasks
    kill(first[0])
    # The fresh worker shows up while the command still runs: the kill landed mid-run.
    wait_for_workers(proc, find, 1, besides=first)
    out, err = proc.communicate(timeout=PATIENCE)
    return proc, out, err


def lost_twice(command: str, backend: str, html: Path) -> tuple[subprocess.Popen, str, str]:
    args, find = WORKERS[backend]
    proc = jibunki(COMMANDS[command] + args + ["--html", str(html)])
    first = wait_for_workers(proc, find, 2)
    kill(first[0])
    fresh = wait_for_workers(proc, find, 1, besides=first)
    kill(fresh[0])
    out, err = proc.communicate(timeout=PATIENCE)
    return proc, out, err


def main_killed(command: str, backend: str) -> dict[int, str]:
    """Kill -9 the command once its workers are at work; every process it had started."""
    args, find = WORKERS[backend]
    proc = jibunki(COMMANDS[command] + args)
    wait_for_workers(proc, find, 2)
    time.sleep(0.2)
    started_by_it = {pid: started(pid) for pid in descendants(proc.pid)}
    kill(proc.pid)
    # Not communicate(): an orphan still holding the pipes would keep it waiting.
    proc.wait(timeout=PATIENCE)
    proc.stdout.close()
    proc.stderr.close()
    return {pid: when for pid, when in started_by_it.items() if when is not None}


def assert_one_line_and_no_report(proc, out: str, err: str, html: Path) -> None:
    assert proc.returncode == 1, err
    assert "Traceback" not in err, err
    # The pilot's 見込み notice (sim) may come first; the failure is the one other line.
    said = [line for line in err.splitlines() if not line.startswith("見込み")]
    assert len(said) == 1 and said[0].startswith(LOST_TWICE), err
    assert out == ""
    assert not html.exists()


# ----------------------------------------------------------- the local cores

@pytest.mark.parametrize("command", COMMANDS)
def test_a_lost_worker_is_replaced_and_the_report_is_unchanged(command, undisturbed):
    proc, out, err = lost_once(command, "local")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert out == undisturbed[command]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_second_lost_worker_ends_the_command_in_one_line_without_a_report(command,
                                                                             tmp_path):
    html = tmp_path / "report"
    proc, out, err = lost_twice(command, "local", html)
    assert_one_line_and_no_report(proc, out, err, html)


@pytest.mark.parametrize("command", COMMANDS)
def test_no_worker_outlives_a_killed_main_process(command):
    orphans = main_killed(command, "local")
    assert len(orphans) >= 2
    assert survivors(orphans) == []


# ----------------------------------------------------------- a local Ray

needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="ray is not installed")


@pytest.mark.slow
@needs_ray
def test_a_lost_ray_actor_is_replaced_and_the_report_is_unchanged(undisturbed):
    proc, out, err = lost_once("sim", "ray")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert out == undisturbed["sim"]


@pytest.mark.slow
@needs_ray
def test_a_second_lost_ray_actor_ends_the_command_in_one_line_without_a_report(tmp_path):
    html = tmp_path / "report"
    proc, out, err = lost_twice("sim", "ray", html)
    assert_one_line_and_no_report(proc, out, err, html)


@pytest.mark.slow
@needs_ray
def test_no_process_of_the_local_ray_outlives_a_killed_main_process():
    # gcs_server, raylet, the two agents, the actors, and the reaper (sim/reaper.py).
    orphans = main_killed("sim", "ray")
    assert len(orphans) >= 5
    assert survivors(orphans) == []
