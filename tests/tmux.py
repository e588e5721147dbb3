"""A `jibunki` game at a real terminal: one tmux pane of its own server (a private socket),
sized as asked, that keys are typed into and whose screen is read back. The battle's and
the journey's prompt tests drive it."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

from conftest import ROOT

#: The games' cache (XDG_CACHE_HOME), one for this test process, removed at its end: the
#: first game builds the grammar and parses the content, the others read them, as a
#: designer's second game does (without a cache, each start cost 1.3 s more of CPU).
CACHE = tempfile.TemporaryDirectory(prefix="jibunki-terminal-cache-")

#: Skip a test that needs tmux where it is not installed.
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """One `jibunki <args>` in a tmux pane; after the command ends, the pane shows
    ``EXIT=<status>`` and stays for the capture."""

    def __init__(self, width: int, height: int, *args: str):
        self.socket = f"jibunki-test-{uuid.uuid4().hex[:12]}"
        command = " ".join(shlex.quote(a) for a in (sys.executable, "cli.py", *args))
        # COLUMNS and LINES unset: under pytest the pane's shell is given 80 and 24, which
        # rich would read instead of the pane's own size
        shell = (f"cd {shlex.quote(str(ROOT))} && unset COLUMNS LINES JIBUNKI_NO_CACHE && "
                 f"XDG_CACHE_HOME={shlex.quote(CACHE.name)} {command}; echo EXIT=$?; "
                 "sleep 600")
        self.tmux("new-session", "-d", "-s", "game", "-x", str(width), "-y", str(height),
                  "sh", "-c", shell)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True, timeout=10).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-t", "game", "-p")

    def lines(self) -> list[str]:
        return [line for line in self.screen().splitlines() if line.strip()]

    def type(self, text: str, enter: bool = True) -> None:
        if text:
            self.tmux("send-keys", "-t", "game", "-l", text)
        if enter:
            self.tmux("send-keys", "-t", "game", "Enter")

    def key(self, name: str) -> None:
        self.tmux("send-keys", "-t", "game", name)

    def wait(self, check, what: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if check(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"waited for {what}; the terminal shows:\n{shown}")
            time.sleep(0.1)

    def prompt_line(self) -> str:
        return self.lines()[-1]

    def ready(self) -> str:
        """Wait for an empty prompt (the last line is "> ")."""
        return self.wait(lambda s: [l for l in s.splitlines() if l.strip()][-1:] == [">"],
                         "the prompt")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=10)
