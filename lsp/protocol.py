"""プロトコル — LSP's base protocol and JSON-RPC as written, under pygls.

pygls 2.1 reads a frame only when its header is exactly ``Content-Length: n\\r\\n``: one
header it cannot read (``abc``, ``-5``, the lowercase ``content-length`` the spec
allows) leaves it deaf for good, and it reads whatever length it is told into memory. A
message it cannot structure is logged and never answered, a request after ``shutdown``
is dropped, and ``exit`` ends the process with 0 whatever came before. Here:

- ``read_frames`` reads frames from a byte stream: header names in any case, the length
  bounded (MAX_MESSAGE_BYTES), and after a frame it cannot read it resynchronises on the
  next ``Content-Length`` header — at the start of a line or inside the garbage the
  unread body left — reading at most MAX_HEADER_LINE bytes at a time;
- ``serve`` runs that reader on a thread of its own (so ``exit`` never waits on a
  blocked read) and hands each body to the protocol on the event loop;
- ``JibunkiProtocol.receive`` answers each JSON-RPC error the way the specifications
  name it (REFUSALS): −32700 for a body that is no JSON, −32600 for no valid Request (id
  null when the id cannot be read), −32602 for params that do not fit the method,
  −32002 before ``initialize``, −32600 after ``shutdown``; ``exit`` sets the exit status
  (0 after ``shutdown``, else 1).

Every request with a readable id gets exactly one response; nothing here raises on input.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import json
import logging
import os
import re
import threading
from dataclasses import dataclass
from urllib.parse import unquote
from typing import Iterator

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCRequestMessage, JsonRPCNotification
from pygls.protocol.language_server import _prepare_command_arguments, lsp_method

from compiler.read import MAX_FILE_BYTES

__all__ = ["FileDescriptor", "Frame", "JibunkiProtocol", "MAX_MESSAGE_BYTES", "read_frames", "run",
           "serve"]

logger = logging.getLogger(__name__)

#: The largest body read: room for a whole document several times the largest size lint
#: reads (written as JSON, escapes can double it), so that such a document is opened and
#: refused by size in a diagnostic (lsp.server) rather than lost with its frame.
MAX_MESSAGE_BYTES = 16 * MAX_FILE_BYTES
#: A header line is read at most this many bytes at a time (a longer one is garbage).
MAX_HEADER_LINE = 8 * 1024
#: How much is asked of the stream at a time.
READ_CHUNK = 64 * 1024
#: How many read bodies may wait for the event loop (the reader stops reading beyond).
QUEUED_FRAMES = 64

_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
#: ``name:`` with an RFC 7230 token as the name (a JSON body is never one); the value is
#: the rest of the line (``_header``). Why not the value in the pattern too: spaces that
#: may go before it, inside it or after it make a backtracking match cubic in the
#: line's length — "abc:" and 8 KB of spaces took minutes.
_HEADER_NAME = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*:")
_LENGTH = re.compile(rb"[0-9]{1,12}\Z")


def _header(line: bytes) -> tuple[bytes, bytes] | None:
    """(name, value) of a whole header line ``name: value`` ending in a line feed (its
    carriage return and the blanks around the value dropped), or None: in time linear in
    the line's length."""
    found = _HEADER_NAME.match(line)
    if found is None or not line.endswith(b"\n"):
        return None
    value = line[found.end():-1]
    if value.endswith(b"\r"):
        value = value[:-1]
    return found.group(1), value.strip(b" \t")


@dataclass(frozen=True)
class Frame:
    """One message read from the stream: its body, or why none could be read."""

    body: bytes | None
    problem: str = ""


class _Lines:
    """Lines of a byte stream, at most MAX_HEADER_LINE bytes each, with push-back. The
    stream's ``read(n)`` may return fewer bytes than asked (``os.read`` of a pipe): this
    class does its own buffering, so no lock of Python's buffered reader is held while the
    reading thread waits (a daemon thread blocked in ``sys.stdin.buffer`` aborts the
    interpreter at exit)."""

    def __init__(self, stream):
        self.stream = stream
        self.back = b""
        self.ended = False

    def _fill(self) -> bool:
        more = b"" if self.ended else self.stream.read(READ_CHUNK)
        self.ended = not more
        self.back += more
        return bool(more)

    def line(self) -> bytes:
        while b"\n" not in self.back[:MAX_HEADER_LINE] and len(self.back) < MAX_HEADER_LINE:
            if not self._fill():
                break
        cut = self.back.find(b"\n", 0, MAX_HEADER_LINE) + 1 or MAX_HEADER_LINE
        line, self.back = self.back[:cut], self.back[cut:]
        return line

    def push(self, data: bytes) -> None:
        self.back = data + self.back

    def read(self, count: int) -> bytes:
        """Exactly ``count`` bytes (fewer only at the end of the stream)."""
        parts, size = [self.back[:count]], len(self.back[:count])
        self.back = self.back[count:]
        while size < count:
            more = b"" if self.ended else self.stream.read(min(count - size, READ_CHUNK))
            if not more:
                self.ended = True
                break
            parts.append(more)
            size += len(more)
        return b"".join(parts)


class FileDescriptor:
    """A file descriptor read with ``os.read``: what is there, without Python's buffer."""

    def __init__(self, fd: int):
        self.fd = fd

    def read(self, count: int) -> bytes:
        """Up to ``count`` bytes, as soon as any are there (b"" at the end)."""
        return os.read(self.fd, count)


def _resync(lines: _Lines, text: bytes, after_garbage: bool = False) -> bool:
    """When ``text`` holds a Content-Length header after other bytes (the tail of a body
    that was not read; ``after_garbage``: the text starts with such bytes), push the header
    back and say so."""
    found = _CONTENT_LENGTH.search(text)
    if found is None or found.start() == 0 and not after_garbage:
        return False
    lines.push(text[found.start():])
    return True


def read_frames(stream) -> Iterator[Frame]:
    """Every frame of ``stream`` until it ends: a body, or a problem (the frame was
    skipped, and reading went on at the next Content-Length header)."""
    lines = _Lines(stream)
    carry = b""  # the end of a garbage chunk: a header may straddle two chunks
    while True:
        line = lines.line()
        if not line:
            return
        if carry or _header(line) is None:  # garbage, or a chunk of a long line
            text, carry = carry + line, b""
            if _resync(lines, text, after_garbage=len(text) > len(line)):
                continue
            if not line.endswith(b"\n"):
                carry = text[-len(b"content-length:"):]
            elif line.strip():
                yield Frame(None, f"ヘッダーではありません: {line[:40]!r}")
            continue
        carry = b""
        headers, problem = {}, ""
        while line.strip():
            header = _header(line)
            if _resync(lines, line) or header is None:
                problem = f"ヘッダーではありません: {line[:40]!r}"
                break
            headers[header[0].lower()] = header[1]
            line = lines.line()
            if not line:
                return
        length = headers.get(b"content-length")
        if not problem and (length is None or _LENGTH.match(length) is None):
            problem = f"Content-Length が読めません: {length!r}"
        elif not problem and int(length) > MAX_MESSAGE_BYTES:
            # never read: the bytes that follow are scanned for the next header instead
            problem = f"Content-Length {int(length)} は上限 {MAX_MESSAGE_BYTES} を超えています"
        if problem:
            yield Frame(None, problem)
            continue
        body = lines.read(int(length))
        if len(body) < int(length):
            return
        yield Frame(body)


async def serve(protocol: JibunkiProtocol, stream) -> None:
    """Read frames from ``stream`` on a thread and give them to ``protocol`` until the
    stream ends or the client says exit."""
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue = asyncio.Queue(QUEUED_FRAMES)

    def hand_over(frame) -> bool:
        """Give ``frame`` to the loop, waiting for room; False once the loop has ended —
        the client said exit, and a frame read after it (the answer to a lens refresh a
        stopped lab run sent) is nobody's: a normal shutdown logged it as a traceback."""
        put = frames.put(frame)
        try:
            future = asyncio.run_coroutine_threadsafe(put, loop)
        except RuntimeError:  # the loop is closed: the coroutine is never run
            put.close()
            return False
        try:
            future.result()
        except concurrent.futures.CancelledError:  # the loop stopped while it waited
            return False
        return True

    def pump() -> None:
        try:
            for frame in read_frames(stream):
                if not hand_over(frame):
                    return
        except Exception:  # the stream broke
            logger.exception("クライアントのメッセージを読めなくなりました")
        finally:
            try:
                loop.call_soon_threadsafe(end)
            except RuntimeError:  # the loop is closed: it waits for nothing
                pass

    def end() -> None:
        """The end of the frames (the input ended, or the output failed: ClientWriter),
        after those that wait. A callback, not a coroutine: one the loop never ran, as it
        closed, was said at exit as an English warning."""
        try:
            frames.put_nowait(None)
        except asyncio.QueueFull:
            loop.call_later(0.01, end)

    protocol.wake = lambda: loop.call_soon_threadsafe(end)
    threading.Thread(target=pump, name="lsp-reader", daemon=True).start()
    while protocol.exit_code is None:
        frame = await frames.get()
        if frame is None:
            if protocol.exit_code is None:  # the input ended (not the output)
                protocol.exit_code = 0 if protocol.shut_down else 1
            break
        if frame.body is None:
            logger.warning("フレームを読み飛ばしました: %s", frame.problem)
            continue
        # timers (lsp.pending's checks) run when no frame waits: a check never runs on a
        # text that a change already read from the client has made obsolete
        protocol.receive(frame.body)


#: JSON-RPC and LSP error codes of what this module refuses, and their messages.
REFUSALS = {
    # a client matches on the code; the message is in the designer's words, since an
    # editor may show an error answer as it is
    "parse": (-32700, "本文が JSON として読めません"),
    "request": (-32600, "JSON-RPC の要求の形ではありません"),
    "method": (-32601, "この言語サーバーにはない機能です"),
    "params": (-32602, "引数がこの要求の形に合いません"),
    "uninitialized": (-32002, "initialize の前には答えられません"),
    "shut down": (-32600, "サーバーは終了するところです（shutdown の後）"),
    "initialized": (-32600, "initialize は1回だけ送れます"),
}


#: Why the life cycle drops a notification (none is ever answered), by REFUSALS' reason.
DROPPED = {"uninitialized": "initialize の前の通知です", "shut down": "shutdown の後の通知です",
           "initialized": "initialize の後の通知です"}


def _parse_problem(exc: Exception) -> str:
    """Where a body stops being JSON, in Japanese (the json module's words are English)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.lineno} 行 {exc.colno} 列"
    if isinstance(exc, RecursionError):
        return "入れ子が深すぎます"
    return "UTF-8 のテキストではありません" if isinstance(exc, UnicodeDecodeError) else \
        "JSON として読めません"


def _valid_id(value) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _response(data: dict) -> bool:
    return "id" in data and ("result" in data or "error" in data)


#: The rules of a JSON-RPC message, in the order they are checked: what is wrong when the
#: test finds it (the first one found is the answer's −32600 message).
MESSAGE_RULES = (
    ("オブジェクトではありません", lambda data: not isinstance(data, dict)),
    ("jsonrpc が 2.0 ではありません", lambda data: data.get("jsonrpc") != "2.0"),
    ("id が数でも文字列でもありません",
     lambda data: "id" in data and not _valid_id(data["id"])),
    ("method が文字列ではありません",
     lambda data: "method" in data and not isinstance(data["method"], str)),
    ("params がオブジェクトでも配列でもありません",
     lambda data: data.get("params") is not None and not isinstance(data["params"], (dict, list))),
    ("method も応答もありません", lambda data: "method" not in data and not _response(data)),
)


def _flaw(data) -> str | None:
    """What makes ``data`` no valid JSON-RPC message (None: it is one)."""
    return next((flaw for flaw, broken in MESSAGE_RULES if broken(data)), None)


#: LSP's RequestFailed: a request understood and refused for a reason the user can act on.
REQUEST_FAILED = -32803


class Refusal(Exception):
    """A request a feature refuses for a reason the designer can act on (a rename to an id
    already taken): answered RequestFailed with the message alone — not an internal
    error with a traceback, nor logged as the server's bug."""


class JibunkiProtocol(LanguageServerProtocol):
    """pygls's LSP protocol with the message handling of this module's docstring."""

    def __init__(self, server, converter):
        super().__init__(server, converter)
        self.initialized = False
        self.shut_down = False
        self.exit_code: int | None = None
        #: the client's end failed (ClientWriter): the serving ends (``wake``)
        self.output_failed = False
        #: ends ``serve``'s wait for a frame (set by ``serve``)
        self.wake = lambda: None

    def refuse(self, msg_id, reason: str, detail: str = "") -> None:
        """Answer ``msg_id`` (None: id null) with the error of REFUSALS[reason]."""
        code, message = REFUSALS[reason]
        logger.warning("メッセージを断りました（%s）: %s", message, detail)
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {
            "code": code, "message": f"{message}: {detail}" if detail else message}})

    def receive(self, body: bytes) -> None:
        """Handle one frame's body: refused as REFUSALS say, or handed to pygls."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            return self.refuse(None, "parse", _parse_problem(exc))
        if _HALF_ESCAPE.search(body):
            data = _whole(data)
        flaw = _flaw(data)
        msg_id = data.get("id") if isinstance(data, dict) else None
        is_request = isinstance(data, dict) and "method" in data and _valid_id(msg_id)
        if flaw is not None:
            return self.refuse(msg_id if _valid_id(msg_id) else None, "request", flaw)
        method = data.get("method")
        if method is not None:
            state = self._state(method)
            if state is not None:
                if is_request:
                    self.refuse(msg_id, state, method)
                else:
                    logger.warning("通知 %r を捨てました（%s）", method, DROPPED[state])
                return
            if method == types.EXIT:
                self.exit_code = 0 if self.shut_down else 1
                return
        if method is not None and not self._handles(method):
            # an editor asks for what it supports and the server may not (folding ranges,
            # semantic tokens, didChangeConfiguration): the protocol's ordinary case, not
            # the server's error — pygls would log it in English as one
            if is_request:
                return self.refuse(msg_id, "method", method)
            logger.info("通知 %r には何もしません（この言語サーバーにない機能です）", method)
            return
        try:
            message = self._structure(data, method, is_request)
        except Exception:
            # cattrs says what did not fit in English (While structuring …): the method
            # is what the designer can act on
            if is_request:
                return self.refuse(msg_id, "params", method)
            logger.warning("通知 %r を捨てました: 引数が形に合いません", method)
            return
        if method == types.INITIALIZE:
            self.initialized = True
        if method == types.SHUTDOWN:
            self.shut_down = True  # requests from now on are refused, the answer still goes
        self.handle_message(message)

    def _handles(self, method: str) -> bool:
        """Whether a handler answers ``method`` (pygls's own, a feature's, or a cancel)."""
        return (method == types.CANCEL_REQUEST or method in self.fm.builtin_features
                or method in self.fm.features)

    def _handle_cancel_notification(self, msg_id) -> None:
        """pygls's cancel, but one for a request already answered (the ordinary race: the
        answer crossed the cancel) is noted in Japanese, not warned of in English."""
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            logger.info("要求 %s は答え終わっていたので、取り消しは要りません", msg_id)
            return
        future.cancel()

    @lsp_method(types.WINDOW_WORK_DONE_PROGRESS_CANCEL)
    def lsp_work_done_progress_cancel(self, params: types.WorkDoneProgressCancelParams):
        """pygls's progress cancel, with its unknown token noted in Japanese."""
        future = self.progress.tokens.get(params.token)
        if future is None:
            logger.info("進み具合 %s は終わっていたので、取り消しは要りません", params.token)
        else:
            future.cancel()

    def _state(self, method: str) -> str | None:
        """Why the life cycle refuses ``method`` now (a key of REFUSALS), or None."""
        if method == types.EXIT:
            return None
        if not self.initialized:
            return None if method == types.INITIALIZE else "uninitialized"
        if self.shut_down:
            return "shut down"
        if method == types.INITIALIZE:
            return "initialized"
        return None

    def _structure(self, data: dict, method: str | None, is_request: bool):
        """The message as pygls's typed object (lsprotocol's type of the method)."""
        if method is None:
            return self.structure_message(data)  # a response: pygls knows its type
        fallback = JsonRPCRequestMessage if is_request else JsonRPCNotification
        data.setdefault("params", None)
        return self._converter.structure(data, self.get_message_type(method) or fallback)

    def handle_message(self, message) -> None:
        """pygls's dispatch, without its own drop of everything after shutdown (the life
        cycle is ``receive``'s)."""
        shut_down, self._shutdown = self._shutdown, False
        try:
            super().handle_message(message)
        finally:
            self._shutdown = shut_down or self.shut_down

    def current_request(self):
        """The future pygls answers the request being handled with (None: none): a
        handler that runs work of its own (a lab run) hangs its cancellation on it."""
        return self._request_futures.get(self.msg_id)

    def _send_handler_result(self, future, *, msg_id) -> None:
        """pygls's answer to a request, but a ``Refusal`` is answered as one (pygls calls
        every other exception an internal error)."""
        refusal = None if future.cancelled() else future.exception()
        if not isinstance(refusal, (Refusal, JsonRpcInvalidParams)):
            return super()._send_handler_result(future, msg_id=msg_id)
        self._request_futures.pop(msg_id, None)
        logger.info("要求 %s を断りました: %s", msg_id, refusal)
        code = REQUEST_FAILED if isinstance(refusal, Refusal) else JsonRpcInvalidParams.CODE
        self._send_response(msg_id, error=types.ResponseError(code, str(refusal)))

    def _handle_response(self, msg_id, result=None, error=None):
        """pygls's handling of the client's answer to a request of the server's, but an
        answer to one already cancelled (by the shutdown: it cancels every request under
        way, the server's own among them) is dropped: setting its result raised out of
        the server's loop, and the server died with a traceback after a clean shutdown."""
        future = self._request_futures.get(msg_id)
        if future is not None and future.done():
            self._request_futures.pop(msg_id, None)
            logger.info("取り消した要求 %s への返事を捨てました", msg_id)
            return None
        return super()._handle_response(msg_id, result, error)

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        """pygls's executeCommand, refusing in the designer's words (−32602) a command the
        server does not have, and arguments that do not fit it — left out too (LSP lets a
        client omit them: pygls then called the command without its arguments, a
        TypeError answered as the server's internal error)."""
        handler = self.fm.commands.get(params.command)
        refused = REFUSALS["params"][1]
        if handler is None:
            raise JsonRpcInvalidParams(f"{refused}: コマンド「{params.command}」はありません")
        given = params.arguments or []
        try:
            args, kwargs = _prepare_command_arguments(
                handler, types.ExecuteCommandParams(params.command, given), self._converter)
            names = list(inspect.signature(handler).parameters)
            server = (None,) if names[:1] == ["ls"] else ()  # pygls passes it itself
            inspect.signature(handler).bind(*server, *args, **kwargs)
        except Exception:
            raise JsonRpcInvalidParams(f"{refused}: {params.command} の引数（{len(given)} 個）が"
                                       "このコマンドの形に合いません") from None
        result = yield handler, args, kwargs
        return result

    def lsp_shutdown(self, *args):
        """pygls's shutdown, over a copy of the requests under way: cancelling one (the
        lab run an executeCommand waits on) answers it at once, which takes it out of
        the dict pygls's own loop would still be walking — the shutdown then failed
        with "dictionary changed size during iteration" and a traceback."""
        if (user_handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current_id = self.msg_id  # the shutdown's own answer still goes
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current_id and not future.done():
                future.cancel()
        self._shutdown = True
        return None

    lsp_shutdown.method_name = types.SHUTDOWN

    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """A change of a document that is not open is logged and ignored (pygls would
        raise a KeyError)."""
        if not self.is_open(params.text_document.uri):
            logger.warning("開いていない文書の didChange です: %s",
                           params.text_document.uri)
            self._server.window_log_message(types.LogMessageParams(
                types.MessageType.Warning,
                f"開かれていない文書の変更を無視しました: {params.text_document.uri}"))
            return None
        return (yield from super().lsp_text_document__did_change(params))

    lsp_text_document__did_change.method_name = types.TEXT_DOCUMENT_DID_CHANGE

    def is_open(self, uri: str) -> bool:
        """Whether the client opened ``uri`` (and has not closed it)."""
        return unquote(uri) in self.workspace.text_documents


#: A JSON escape of a UTF-16 surrogate (\\ud83d): a pair is read as one character, but one
#: alone (valid JSON) is a string no encoder writes — the document's positions, its
#: diagnostics and any file name made of it failed on it with a traceback.
_HALF_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
_HALF = re.compile("[\ud800-\udfff]")


def _whole(value):
    """``value`` (JSON data) with each lone surrogate of its strings as U+FFFD, which
    takes one UTF-16 unit as it did: the client's positions stay where they were."""
    if isinstance(value, str):
        if _HALF.search(value):
            logger.warning("UTF-16 の片割れ（サロゲート）を � として読みました")
            return _HALF.sub("\ufffd", value)
        return value
    if isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(value, dict):
        return {_whole(key): _whole(item) for key, item in value.items()}
    return value


class ClientWriter:
    """The client's end of the connection (the standard output, binary). A write that
    fails — the client closed its end, the output is a full disk — ends the serving with
    exit status 1, said once on stderr: pygls logged each answer's failure as a traceback,
    and again its failure to report it, while the loop went on (tens of thousands of
    lines) and the process ended with 0."""

    def __init__(self, stdout, protocol):
        self._stdout = stdout
        self._protocol = protocol

    def close(self) -> None:
        """Close the client's end (pygls's writer interface); one already gone is closed."""
        try:
            self._stdout.close()
        except (OSError, ValueError):
            pass

    def write(self, data: bytes) -> None:
        """Send ``data`` to the client, or end the serving once that fails."""
        if self._protocol.output_failed:
            return  # said once; nothing more reaches the client
        try:
            self._stdout.write(data)
            self._stdout.flush()
        except (OSError, ValueError) as exc:
            from contract.disk import reason

            self._protocol.output_failed = True
            self._protocol.exit_code = 1
            self._protocol.wake()
            logger.error("エディタへの出力に失敗しました（%s）。言語サーバーを終えます",
                         reason(exc) if isinstance(exc, OSError) else "出力が閉じています")


def run(server, stdin, stdout) -> int:
    """Serve ``server`` (built with JibunkiProtocol) over the two streams until the client
    says exit, the input ends or the output fails (ClientWriter); the exit status (0
    after ``shutdown``, else 1). ``stdin`` has ``read(n)`` returning what is there
    (FileDescriptor); ``stdout`` is binary."""
    protocol = server.protocol
    protocol.set_writer(ClientWriter(stdout, protocol))
    try:
        asyncio.run(serve(protocol, stdin))
    except (BrokenPipeError, KeyboardInterrupt):
        logger.error("クライアントとの接続が切れました")
    return protocol.exit_code if protocol.exit_code is not None else 1
