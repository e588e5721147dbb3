"""A language server spoken to byte by byte: ``python -m lsp`` over pipes, for tests that
send what no well-behaved client library would (broken headers, lengths, JSON).

Each test starts its own server and stops it (``Wire`` is a context manager); what the
server writes is read on a thread of its own, so a deaf server costs a timeout, never a
hung test.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: How long a well-behaved exchange may take (the server answers in milliseconds; a slow
#: shared machine gets room).
ANSWER_SECONDS = 10.0


def frame(body, header: bytes | None = None) -> bytes:
    """One message as the base protocol frames it: ``Content-Length`` of the body's bytes,
    a blank line, the body (anything but bytes is written as JSON). ``header`` replaces the
    header block (without its blank line)."""
    if not isinstance(body, bytes):
        body = json.dumps(body, ensure_ascii=False).encode("utf-8")
    if header is None:
        header = b"Content-Length: %d\r\n" % len(body)
    return header + b"\r\n" + body


def request(msg_id, method: str, params=None) -> dict:
    """A JSON-RPC request object."""
    message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params=None) -> dict:
    """A JSON-RPC notification object."""
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


class Wire:
    """``python -m lsp`` (or ``command``) as a subprocess: raw bytes in, parsed messages out."""

    def __init__(self, cwd: Path | None = None, command: list[str] | None = None):
        self._stderr = tempfile.TemporaryFile()
        command = command or [sys.executable, "-m", "lsp"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self._stderr, cwd=cwd)
        self._inbox: queue.Queue = queue.Queue()
        self.received: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def __enter__(self) -> Wire:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read(self) -> None:
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self._inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = out.read(length)
            self._inbox.put(json.loads(body))

    def send(self, data: bytes) -> None:
        """Write raw bytes to the server (False-free: a closed pipe raises)."""
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send_message(self, message) -> None:
        """Write one well-framed message."""
        self.send(frame(message))

    def wait_for(self, match, timeout: float = ANSWER_SECONDS) -> dict | None:
        """The first message received (before or within ``timeout``) that ``match``
        accepts, or None."""
        for message in self.received:
            if match(message):
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = self._inbox.get(timeout=left)
            except queue.Empty:
                return None
            if message is None:
                return None
            self.received.append(message)
            if match(message):
                return message

    def answer(self, msg_id, timeout: float = ANSWER_SECONDS) -> dict | None:
        """The response to the request ``msg_id`` (result or error), or None."""
        return self.wait_for(lambda m: "method" not in m and m.get("id") == msg_id
                             and ("result" in m or "error" in m), timeout)

    def answers(self, msg_id) -> list[dict]:
        """Every response received so far to ``msg_id``."""
        return [m for m in self.received if "method" not in m and m.get("id") == msg_id
                and ("result" in m or "error" in m)]

    def call(self, msg_id, method: str, params=None, timeout: float = ANSWER_SECONDS):
        """Send a request and wait for its response."""
        self.send_message(request(msg_id, method, params))
        return self.answer(msg_id, timeout)

    def initialize(self, root: Path, capabilities: dict | None = None) -> dict | None:
        """The handshake: initialize (rooted at ``root``) and initialized."""
        answer = self.call("init", "initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": capabilities or {}})
        self.send_message(notification("initialized", {}))
        return answer

    def stderr(self) -> str:
        """What the server wrote to stderr so far."""
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def exit_code(self, timeout: float = ANSWER_SECONDS) -> int | None:
        """The server's exit status, or None when it is still running after ``timeout``."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Stop the server (kill it when it does not go by itself)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        if self.exit_code(2) is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self._stderr.close()
