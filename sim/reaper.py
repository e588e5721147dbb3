"""後始末 — ends the processes of a local Ray when the lab that started it ends, even by
kill -9 (sim/backends.py ``RayRunner``).

Ray ties its head processes (gcs_server, raylet) to the driver by itself, but its two agents
(ray::DashboardAgent, ray::RuntimeEnvAgent) go on for a minute after the raylet dies: each
first reports the death to a GCS that is gone, with a 60 s timeout Ray does not let us set.
So the lab starts this script beside its Ray, with a pipe from the lab to it; every process
of that Ray is started with a mark in its environment (``MARK``, a token of this run).

While the pipe is open the script keeps a list of that Ray's processes: those of the lab's
descendants that carry the mark, and their descendants (a Python process of Ray rewrites
its title over the memory /proc shows as its environment, so the mark is not always
readable there: its parent's is). When the pipe closes — the lab ended, however — it kills
every process of the list still running, and any other that carries the mark.

Run as a script with the standard library alone (``python -I reaper.py TOKEN``): it must
not import the lab it outlives. Linux only (it reads /proc); elsewhere it does nothing."""

from __future__ import annotations

import os
import select
import signal
import sys
import time

#: The environment variable that marks a process as started for one lab run.
MARK = "JIBUNKI_RAY_RUN"
#: Seconds between two looks at the lab's processes while it runs.
WATCH = 0.25
#: Rounds of killing at the end: a process started while one round ran is caught by the next.
ROUNDS = 5
PAUSE = 0.2


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:  # gone meanwhile, or not ours
        return None


def _started(pid: int) -> bytes | None:
    """When ``pid`` started (clock ticks after boot): tells a process from a later one that
    reuses its pid."""
    stat = _read(f"/proc/{pid}/stat")
    return stat.rsplit(b")", 1)[1].split()[19] if stat else None


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        out += [int(c) for c in (_read(f"/proc/{pid}/task/{task}/children") or b"").split()]
    return out


def _is_marked(pid: int, needle: bytes) -> bool:
    return needle in (_read(f"/proc/{pid}/environ") or b"").split(b"\0")


def _alive(known: dict[int, bytes]) -> dict[int, bytes]:
    return {pid: when for pid, when in known.items() if _started(pid) == when}


def ours(root: int, token: str, known: dict[int, bytes]) -> dict[int, bytes]:
    """The processes of the Ray marked ``token`` under ``root``: every marked descendant and
    all below it, with ``known`` (an earlier answer) kept while its processes live; pid →
    start time."""
    needle = f"{MARK}={token}".encode()
    found = _alive(known)
    stack = [(root, False)]
    while stack:
        pid, inside = stack.pop()
        for child in _children(pid):
            mine = inside or child in found or _is_marked(child, needle)
            when = _started(child)
            if mine and when is not None and child != os.getpid():
                found.setdefault(child, when)
            stack.append((child, mine))
    return found


def _family(pids) -> set[int]:
    """``pids`` and every process below them."""
    out, stack = set(), list(pids)
    while stack:
        pid = stack.pop()
        if pid not in out:
            out.add(pid)
            stack += _children(pid)
    return out


def marked(token: str, spare: tuple[int, ...] = ()) -> list[int]:
    """Every process whose environment carries ``MARK=token`` (of this user: the environment
    of another user's process cannot be read), but this one and ``spare``."""
    needle = f"{MARK}={token}".encode()
    return [int(e.name) for e in os.scandir("/proc") if e.name.isdigit()
            and int(e.name) not in (os.getpid(), *spare) and _is_marked(int(e.name), needle)]


def reap(token: str, known: dict[int, bytes], spare: tuple[int, ...] = ()) -> int:
    """Kill the processes of ``known`` still running, those below them and every process
    marked with ``token``, but ``spare``; the number killed."""
    killed = 0
    for _ in range(ROUNDS):
        pids = _family(_alive(known)) | set(marked(token, spare))
        pids -= {os.getpid(), *spare}
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        known = {pid: when for pid, when in known.items() if pid not in pids}
        time.sleep(PAUSE)
    return killed


def main(token: str) -> None:
    """Follow the lab's Ray until standard input closes (the lab's end), then reap."""
    if not os.path.isdir("/proc"):
        return
    # The lab's Ctrl-C is not ours: this script must outlive it to clean up after it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lab = os.getppid()
    known: dict[int, bytes] = {}
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], WATCH)
        if ready and not os.read(sys.stdin.fileno(), 4096):
            break
        known = ours(lab, token, known)
    # The lab itself is spared: after a normal end it is still running, and the mark was
    # in its environment while it started Ray.
    reap(token, known, spare=(lab,))


if __name__ == "__main__":
    main(sys.argv[1])
