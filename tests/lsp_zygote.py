"""A language server per test without an interpreter's start-up per test.

Starting ``python -m lsp`` costs about 0.8 s of CPU before the server reads a byte, and
nearly all of it is importing lsprotocol and pygls; the suite starts some eighty servers.
So the end-to-end LSP tests start theirs from a *zygote*: one process per test worker that
has imported the server once and forks a fresh one for each test. What each test talks to
is still a separate process running ``lsp.main()`` over its own stdin and stdout, from the
test's own working folder and environment; only the import is shared. The real start-up
(``python -m lsp``, ``jibunki lsp``) keeps its own tests (test_lsp.py's cli_client,
test_lsp_protocol.py), which start the server the way an editor does.

Two modes, one file:

- ``serve SOCKET``: the zygote. Imports the server, listens on the Unix socket ``SOCKET``.
- ``spawn SOCKET``: the command a test's client starts (pytest-lsp's ``server_command``).
  It runs with ``-I -S`` and imports nothing heavy: it hands its stdin, stdout and stderr,
  its folder and its environment to the zygote, and exits with the server's exit status.
  A SIGTERM to it is passed on to the server.

For each spawn the zygote forks a keeper, and the keeper forks the server and waits for
it: the keeper tells the spawn the server's pid, then its exit status.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys

STATUS = struct.Struct("!i")


def spawn(path: str) -> int:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError as error:
        raise SystemExit(f"lsp_zygote: no zygote answers at {path} ({error}); a test module "
                         "that starts servers with LSP_SERVER asks for the lsp_zygote fixture")
    order = json.dumps({"cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    socket.send_fds(conn, [STATUS.pack(len(order)) + order], [0, 1, 2])
    server = STATUS.unpack(_exactly(conn, STATUS.size))[0]
    signal.signal(signal.SIGTERM, lambda *_: os.kill(server, signal.SIGTERM))
    return STATUS.unpack(_exactly(conn, STATUS.size))[0]


def _exactly(conn: socket.socket, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = conn.recv(size - len(got))
        if not chunk:
            raise SystemExit("lsp_zygote: the zygote closed the connection")
        got += chunk
    return got


def serve(path: str) -> None:
    import importlib

    for module in ("lsp", "lsp.protocol"):  # the point of the zygote: the one import
        importlib.import_module(module)

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen()
    listener.settimeout(1.0)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # keepers are reaped by the kernel
    # Stopped (the fixture's terminate, or a test run killed with its group): the socket
    # file goes too, by the caller's ``finally``.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    worker = os.getppid()
    print("ready", flush=True)
    while os.getppid() == worker:  # a killed test worker leaves no zygote behind
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        conn.settimeout(None)
        header, fds, _, _ = socket.recv_fds(conn, STATUS.size, 3)
        (size,) = STATUS.unpack(header)
        order = json.loads(_exactly(conn, size))
        if os.fork() == 0:
            listener.close()
            _keep(conn, fds, order)
        conn.close()
        for fd in fds:
            os.close(fd)


def _keep(conn: socket.socket, fds: list[int], order: dict) -> None:
    """The keeper: fork the server, tell the spawn its pid, then its exit status."""
    for number in (signal.SIGCHLD, signal.SIGTERM):  # as in a freshly started process
        signal.signal(number, signal.SIG_DFL)
    server = os.fork()
    if server == 0:
        conn.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(order["cwd"])
        os.environ.clear()
        os.environ.update(order["env"])
        sys.argv = [sys.executable, "-m", "lsp"]
        import lsp

        lsp.main()  # ends the process itself (os._exit)
        os._exit(1)
    for fd in fds:
        os.close(fd)
    conn.sendall(STATUS.pack(server))
    _, status = os.waitpid(server, 0)
    conn.sendall(STATUS.pack(os.waitstatus_to_exitcode(status)))
    os._exit(0)


if __name__ == "__main__":
    mode, where = sys.argv[1:3]
    if mode == "spawn":
        sys.exit(spawn(where))
    try:
        serve(where)
    finally:
        os.unlink(where)
