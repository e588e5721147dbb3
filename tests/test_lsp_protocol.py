"""The language server's protocol layer as LSP and JSON-RPC write it (issue 32, items 5, 8,
10, 11, 17): frames, error codes, the life cycle, positions, size bounds and forged client
data — against a real ``python -m lsp`` over pipes (tests/lsp_wire.py).

The fuzz test sends hypothesis-generated hostile frames to one server; after each, a
well-formed request must still be answered, and a hostile request with an id must be
answered exactly once, with the error code the protocol names for it.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, children
from lsp_wire import Wire, frame, notification, request

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

PAGE = ('ページ tabidachi "旅立ちの朝" {\n  銘 3\n  未来面 { 敵HP -= 12 }\n'
        '  過去面 白紙\n  ペン 過去面 { 歩 += 5 }\n}\n')
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, NOT_INITIALIZED = -32700, -32600, -32602, -32002
#: Beyond LSP's uinteger (0 .. 2³¹−1), below it, and the values in between that are far
#: outside any document.
OUT_OF_RANGE = st.one_of(st.integers(max_value=-1), st.integers(min_value=2 ** 31),
                         st.sampled_from([-1, -2 ** 31, 2 ** 31, 2 ** 63, -2 ** 63]))
FAR = st.one_of(st.integers(1_000, 2 ** 31 - 1), st.just(2 ** 31 - 1))


def _project(root: Path) -> Path:
    """A content folder with one page; the page's path."""
    page = root / "content" / "a.page"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE, encoding="utf-8")
    return page


def _open(wire: Wire, page: Path, text: str = PAGE, version: int = 1) -> str:
    uri = page.as_uri()
    wire.send_message(notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "jibunki", "version": version, "text": text}}))
    return uri


class Session:
    """One initialized server with one open page, restarted when it stops answering (so a
    deaf server fails the example that made it deaf, not every later one)."""

    def __init__(self, root: Path):
        self.root = root
        self.page = _project(root)
        self.ids = itertools.count(1)
        self.wire: Wire | None = None

    def live(self) -> Wire:
        if self.wire is None:
            self.wire = Wire(self.root)
            self.wire.initialize(self.root)
            self.uri = _open(self.wire, self.page)
            assert self.probe(), "a fresh server does not answer"
        return self.wire

    def probe(self, timeout: float = 10.0) -> bool:
        """A well-formed request is answered with a result."""
        msg_id = next(self.ids)
        answer = self.wire.call(msg_id, "textDocument/documentSymbol",
                                {"textDocument": {"uri": self.uri}}, timeout)
        return answer is not None and "result" in answer

    def restart(self) -> None:
        if self.wire is not None:
            self.wire.close()
        self.wire = None

    def close(self) -> None:
        self.restart()


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    found = Session(tmp_path_factory.mktemp("wire"))
    yield found
    found.close()


# ------------------------------------------------------------------ hostile frames
#
# Each strategy draws (frame, expectation): the expectation is None (nothing is owed for
# this frame: the server cannot read it), "result" (a valid request: answered without
# error) or an error code; the request id is filled in by the test (a fresh one each).

BROKEN_HEADERS = [b"Content-Length: abc", b"Content-Length: -5", b"Content-Length: 1e3",
                  b"Content-Length: 0x20", b"Content-Length: ", b"Content-Length 52",
                  b"Content-Length: 99999999999999999999999999", b"Content-Length: %d" % 2 ** 63,
                  b"Content-Length: %d" % (2 ** 31), b"Content-Type: application/json",
                  b"garbage without a colon", b"\x00\xff\xfe"]


@st.composite
def broken_header(draw):
    header = draw(st.sampled_from(BROKEN_HEADERS))
    return lambda msg_id, uri: frame(request(msg_id, "textDocument/documentSymbol",
                                             {"textDocument": {"uri": uri}}),
                                     header=header + b"\r\n"), None


@st.composite
def header_in_any_case(draw):
    name = draw(st.sampled_from(["content-length", "CONTENT-LENGTH", "Content-length",
                                 "cOnTeNt-LeNgTh"]))
    space = draw(st.sampled_from(["", " ", "  "]))
    extra = draw(st.sampled_from([b"", b"Content-Type: application/vscode-jsonrpc; "
                                       b"charset=utf-8\r\n"]))

    def build(msg_id, uri):
        body = json.dumps(request(msg_id, "textDocument/documentSymbol",
                                  {"textDocument": {"uri": uri}})).encode()
        return frame(body, header=extra + f"{name}:{space}{len(body)}\r\n".encode())
    return build, "result"


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


@st.composite
def broken_json(draw):
    whole = json.dumps(request(1, "textDocument/hover", {"position": {"line": 0}}))
    body = draw(st.one_of(
        st.integers(1, len(whole) - 1).map(lambda cut: whole[:cut].encode()),
        st.text(min_size=1, max_size=40).filter(_not_json).map(str.encode),
        st.just(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}'),
        st.just(b"[" * 100_000)))
    return lambda msg_id, uri: frame(body), ("null", PARSE_ERROR)


#: What can be wrong in a Request object besides its id: the member, and its bad values
#: (None: the member is left out).
REQUEST_FLAWS = {
    "method": [None, 123, [], {}, True],
    "jsonrpc": [None, "1.0", 2.0, ""],
    "params": ["x", 5, True, 1.5],
}


@st.composite
def invalid_request(draw):
    """A request object that is not a valid Request, with a valid id: −32600 with it."""
    member = draw(st.sampled_from(sorted(REQUEST_FLAWS)))
    value = draw(st.sampled_from(REQUEST_FLAWS[member]))
    left_out = member != "params" and draw(st.booleans())

    def build(msg_id, uri):
        body = request(msg_id, "textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        if left_out:
            del body[member]
        else:
            body[member] = value
        return frame(body)
    return build, INVALID_REQUEST


@st.composite
def unreadable_id(draw):
    """A Request whose id is not a number or a string, or a body that is no object at
    all: answered −32600 with id null."""
    body = draw(st.sampled_from([
        request(1.5, "textDocument/hover"), request(True, "textDocument/hover"),
        request({}, "textDocument/hover"), request([], "textDocument/hover"),
        [], [request(7, "textDocument/hover")], 5, "x", None]))
    return lambda msg_id, uri: frame(body), ("null", INVALID_REQUEST)


#: The requests that take a document and a position, and how each places it.
POSITIONED = {
    "textDocument/hover": lambda uri, pos: {"textDocument": {"uri": uri}, "position": pos},
    "textDocument/definition": lambda uri, pos: {"textDocument": {"uri": uri}, "position": pos},
    "textDocument/completion": lambda uri, pos: {"textDocument": {"uri": uri}, "position": pos},
    "textDocument/references": lambda uri, pos: {"textDocument": {"uri": uri}, "position": pos,
                                                 "context": {"includeDeclaration": True}},
    "textDocument/rename": lambda uri, pos: {"textDocument": {"uri": uri}, "position": pos,
                                             "newName": "arata"},
    "textDocument/codeAction": lambda uri, pos: {
        "textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
        "context": {"diagnostics": []}},
}


@st.composite
def bad_params(draw):
    method = draw(st.sampled_from(sorted(POSITIONED)))
    flaw = draw(st.sampled_from(["line", "character", "type", "missing"]))
    position = {"line": 0, "character": 0}
    if flaw in ("line", "character"):
        position[flaw] = draw(OUT_OF_RANGE)
    elif flaw == "type":
        position[draw(st.sampled_from(["line", "character"]))] = draw(
            st.sampled_from([None, [], {}, "zwei"]))

    def build(msg_id, uri):
        params = POSITIONED[method](uri, position)
        if flaw == "missing":
            del params["textDocument"]
        return frame(request(msg_id, method, params))
    return build, INVALID_PARAMS


@st.composite
def far_position(draw):
    """A position LSP allows but no document reaches: clamped (answered, no error) or
    refused with −32602."""
    method = draw(st.sampled_from(sorted(POSITIONED)))
    position = {"line": draw(FAR), "character": draw(FAR)}
    return (lambda msg_id, uri: frame(request(msg_id, method, POSITIONED[method](uri, position))),
            "answered")


class Case(tuple):
    """(build, expected) of a hostile frame; shown as its frame (with id 0) when it fails."""

    def __repr__(self) -> str:
        shown = self[0](0, "file:///a.page")
        return f"Case({shown[:300]!r}{'…' if len(shown) > 300 else ''}, expected={self[1]!r})"


#: The classes of hostile frames, by name (the issue's note counts them per class).
CLASSES = {name: strategy.map(Case) for name, strategy in {
    "broken header": broken_header(), "header in any case": header_in_any_case(),
    "broken JSON": broken_json(), "invalid Request": invalid_request(),
    "unreadable id": unreadable_id(), "bad params": bad_params(),
    "far position": far_position()}.items()}
HOSTILE = st.one_of(*CLASSES.values())


def exchange(session: Session, case, timeout: float = 10.0) -> str | None:
    """Send one hostile frame and a probe; what went wrong, or None."""
    build, expected = case
    wire = session.live()
    msg_id = next(session.ids)
    nulls = len([m for m in wire.received if "error" in m and m.get("id") is None])
    wire.send(build(msg_id, session.uri))
    wrong = None
    if expected in ("result", "answered") or isinstance(expected, int):
        answer = wire.answer(msg_id, timeout)
        if answer is None:
            wrong = f"no answer to a frame expecting {expected}"
        elif expected == "result" and "result" not in answer:
            wrong = f"an error for a valid request: {answer.get('error')}"
        elif expected == "answered" and "error" in answer \
                and answer["error"]["code"] != INVALID_PARAMS:
            wrong = f"a far position answered {answer['error']}"
        elif isinstance(expected, int) and answer.get("error", {}).get("code") != expected:
            wrong = f"expected error {expected}, got {answer}"
    elif isinstance(expected, tuple):
        code = expected[1]
        found = wire.wait_for(lambda m: "error" in m and "id" in m and m["id"] is None
                              and m["error"]["code"] == code and nulls < sum(
                                  1 for r in wire.received
                                  if "error" in r and r.get("id") is None), timeout)
        if found is None:
            wrong = f"no error {code} with id null"
    if not session.probe(timeout):
        session.restart()
        return f"deaf after the frame ({wrong or 'otherwise fine'})"
    if len(wire.answers(msg_id)) > 1:
        return f"{len(wire.answers(msg_id))} answers to one request"
    return wrong


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=HOSTILE)
def test_after_any_hostile_frame_the_server_answers_and_every_request_gets_its_error(
        session, case):
    assert exchange(session, case) is None


# ------------------------------------------------------------------ framing, one by one


def test_a_lowercase_or_unspaced_content_length_header_is_accepted(tmp_path):
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page)
        for msg_id, header in enumerate([b"content-length: %d", b"CONTENT-LENGTH:%d",
                                         b"Content-Type: x\r\ncontent-Length:  %d"]):
            body = json.dumps(request(msg_id, "textDocument/documentSymbol",
                                      {"textDocument": {"uri": uri}})).encode()
            wire.send(frame(body, header=(header % len(body)) + b"\r\n"))
            answer = wire.answer(msg_id)
            assert answer is not None and "result" in answer, header


def test_an_unreadable_header_is_skipped_and_the_next_frame_is_read(tmp_path):
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        for msg_id, header in enumerate(BROKEN_HEADERS):
            wire.send(frame(request(f"lost{msg_id}", "textDocument/hover"),
                            header=header + b"\r\n"))
            assert wire.call(msg_id, "jibunki/unknown") is not None, header


class _Trickle:
    """A stream that gives a few bytes at a time, as a pipe may."""

    def __init__(self, data: bytes, step: int):
        self.data, self.at, self.step = data, 0, step

    def read(self, count: int) -> bytes:
        part = self.data[self.at:self.at + min(count, self.step)]
        self.at += len(part)
        return part


#: Pieces of garbage that look like the base protocol: headers, blank lines, a body's tail.
_PIECES = [b"\r\n", b"\n", b"\r", b"X-Foo: 1\r\n", b"Content-Type: x\r\n", b"abc: ",
           b'{"jsonrpc": "2.0"}', b"Content-Len", b"content-lengt", b"\x00", b" " * 9000]
_GARBAGE = st.one_of(
    st.binary(max_size=20_000),
    st.lists(st.one_of(st.binary(max_size=40), st.sampled_from(_PIECES)), max_size=12)
    .map(b"".join)).filter(lambda b: b"content-length" not in b.lower())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_GARBAGE, st.binary(min_size=1, max_size=300)), min_size=1,
                max_size=5), st.integers(1, 70_000))
def test_every_well_formed_frame_is_read_whatever_garbage_comes_before_it(pairs, step):
    """lsp.protocol.read_frames resynchronises on the next header, wherever it starts."""
    from lsp.protocol import read_frames

    stream = b"".join(garbage + frame(body) for garbage, body in pairs)
    bodies = [f.body for f in read_frames(_Trickle(stream, step)) if f.body is not None]
    assert bodies == [body for _, body in pairs]


def test_a_line_of_blanks_after_a_colon_is_garbage_read_in_one_pass():
    """"abc:" and 9,000 spaces before a frame, trickled a byte at a time (the case
    hypothesis found above): the reader skips it and reads the frame. The header pattern
    once held the value too, and its backtracking over the blanks was cubic in the line's
    length — this stream then took some fifteen minutes a line."""
    from lsp.protocol import _header, read_frames

    stream = b"abc:" + b" " * 9000 + frame(b"\x00")
    assert [f.body for f in read_frames(_Trickle(stream, 1)) if f.body is not None] == [b"\x00"]
    assert _header(b"abc:" + b" " * 100_000) is None
    assert _header(b"Content-Length:" + b" " * 100_000 + b"12 \t\r\n") == (b"Content-Length", b"12")


def test_a_huge_length_is_refused_without_reading_it_and_the_server_lives(tmp_path):
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        wire.send(b"Content-Length: %d\r\n\r\n" % (2 ** 40) + b'{"jsonrpc": "2.0"}')
        answer = wire.call(2, "jibunki/unknown")
        assert answer is not None and answer["error"]["code"] == -32601
        assert wire.process.poll() is None
        assert "MemoryError" not in wire.stderr()


@pytest.mark.parametrize("method", ["textDocument/foldingRange", "textDocument/semanticTokens/full",
                                    "jibunki/unknown"])
def test_a_method_the_server_lacks_is_32601_in_japanese_and_no_internal_error(tmp_path, method):
    """An editor asks for what it supports (folding ranges, semantic tokens) and says what
    changed (didChangeConfiguration, willSave): a method the server lacks is the ordinary
    −32601, said in Japanese — not pygls's English warning on stderr and an
    「内部エラー」 logged to the editor at Error level."""
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        for name in ("workspace/didChangeConfiguration", "textDocument/willSave"):
            wire.send_message(notification(name, {"settings": {}}))
        wire.send_message(notification("$/cancelRequest", {"id": 999}))
        wire.send_message(notification("window/workDoneProgress/cancel", {"token": "x"}))
        answer = wire.call(2, method, {"textDocument": {"uri": "file:///x.page"}})
        assert answer["error"] == {"code": -32601, "message":
                                   f"この言語サーバーにはない機能です: {method}"}
        hover = wire.call(3, "textDocument/hover", {
            "textDocument": {"uri": "file:///x.page"}, "position": {"line": -1, "character": 0}})
        assert hover["error"] == {"code": INVALID_PARAMS, "message":
                                  "引数がこの要求の形に合いません: textDocument/hover"}
        assert wire.call(4, "shutdown")["result"] is None
        errors = [m for m in wire.received if m.get("method") == "window/logMessage"
                  and m["params"]["type"] == 1]
        assert errors == []
        stderr = wire.stderr()
        assert not re.search(r"[A-Za-z]{4,} [a-z]{3,}", stderr.replace(method, "")), stderr


# ------------------------------------------------------------------ the life cycle


def test_a_request_before_initialize_gets_error_32002_and_a_notification_is_dropped(tmp_path):
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        _open(wire, page)  # dropped: no diagnostics come of it
        answer = wire.call(1, "textDocument/documentSymbol",
                           {"textDocument": {"uri": page.as_uri()}})
        assert answer is not None and answer["error"]["code"] == NOT_INITIALIZED
        assert wire.initialize(tmp_path)["result"]["capabilities"]
        assert not [m for m in wire.received if m.get("method") ==
                    "textDocument/publishDiagnostics"]
        # the log says why in Japanese (it said 「（uninitialized）」)
        assert "通知 'textDocument/didOpen' を捨てました（initialize の前の通知です）" \
            in wire.stderr()


def test_initialize_twice_is_an_invalid_request(tmp_path):
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        answer = wire.call(2, "initialize", {"processId": None, "rootUri": None,
                                             "capabilities": {}})
        assert answer["error"]["code"] == INVALID_REQUEST


def test_a_request_after_shutdown_is_answered_with_an_error_and_exit_then_gives_0(tmp_path):
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        assert wire.call(1, "shutdown") == {"jsonrpc": "2.0", "id": 1, "result": None}
        answer = wire.call(2, "textDocument/hover", {
            "textDocument": {"uri": "file:///x.page"}, "position": {"line": 0, "character": 0}})
        assert answer is not None and answer["error"]["code"] == INVALID_REQUEST
        wire.send_message(notification("exit"))
        assert wire.exit_code() == 0


@pytest.mark.parametrize("params, said", [
    ({"command": "jibunki.runExample"}, "引数（0 個）"),  # arguments are optional in LSP
    ({"command": "jibunki.runExample", "arguments": ["file:///x.page", 1, 2]}, "引数（3 個）"),
    ({"command": "jibunki.runExample", "arguments": ["file:///x.page", "zwei"]}, "引数（2 個）"),
    ({"command": "jibunki.nope", "arguments": []}, "コマンド「jibunki.nope」はありません"),
])
def test_a_command_the_server_lacks_or_arguments_that_do_not_fit_it_are_invalid_params(
        tmp_path, params, said):
    """−32602 in the designer's words, as for any request's params — not the server's
    internal error with an English TypeError and a traceback in its log; a command with
    arguments that fit is still run."""
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        answer = wire.call(1, "workspace/executeCommand", params)
        assert answer["error"]["code"] == -32602 and said in answer["error"]["message"]
        assert "Traceback" not in wire.stderr()
        fits = wire.call(2, "workspace/executeCommand", {
            "command": "jibunki.runExample", "arguments": ["file:///x.page", 3]})
        assert fits == {"jsonrpc": "2.0", "id": 2, "result": None}


def test_the_command_vs_codes_client_starts_is_served(tmp_path):
    """vscode-languageclient starts an executable server over stdio as
    ``jibunki lsp --stdio --clientProcessId=N`` (editors/vscode/extension.js): the server
    answers it, where a refusal of the flags left the editor with colouring alone."""
    import os

    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'jibunki'; from cli import main; "
               "main()", "lsp", "--stdio", f"--clientProcessId={os.getpid()}"]
    with Wire(tmp_path, command=command) as wire:
        answer = wire.initialize(tmp_path)
        assert answer is not None and answer["result"]["capabilities"], wire.stderr()
        assert wire.call(1, "shutdown") == {"jsonrpc": "2.0", "id": 1, "result": None}
        wire.send_message(notification("exit"))
        assert wire.exit_code() == 0


def test_an_answer_to_the_servers_request_after_shutdown_leaves_no_traceback(tmp_path):
    """The shutdown cancels the server's own requests under way (here its registration of
    file watching); the client's late answer to one is dropped, and exit gives 0."""
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path, {"workspace": {"didChangeWatchedFiles": {
            "dynamicRegistration": True}}})
        asked = wire.wait_for(lambda m: m.get("method") == "client/registerCapability")
        assert asked is not None
        assert wire.call(1, "shutdown") == {"jsonrpc": "2.0", "id": 1, "result": None}
        wire.send_message({"jsonrpc": "2.0", "id": asked["id"], "result": None})
        wire.send_message(notification("exit"))
        assert wire.exit_code() == 0
        assert "Traceback" not in wire.stderr(), wire.stderr()


def test_a_shutdown_while_the_lab_runs_for_a_page_is_answered_and_leaves_no_traceback(
        tmp_path):
    """The designer closes the editor during 「この ページで実験」: the run is cancelled, the
    shutdown answered null, nothing on stderr, and exit gives 0."""
    import shutil

    from conftest import ROOT
    from lsp import lab_lens

    shutil.copytree(ROOT / "content", tmp_path / "content")
    page = tmp_path / "content" / "pages" / "少年期.page"
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page, page.read_text(encoding="utf-8"))
        wire.send_message(request(7, "workspace/executeCommand", {
            "command": lab_lens.COMMAND, "arguments": [uri, "hatsukoi"]}))
        time.sleep(1)  # the run under way (it takes seconds)
        assert wire.answer(7, timeout=0) is None
        assert wire.call(8, "shutdown") == {"jsonrpc": "2.0", "id": 8, "result": None}
        wire.send_message(notification("exit"))
        assert wire.exit_code() == 0
        assert "Traceback" not in wire.stderr(), wire.stderr()


def test_a_cancelled_lab_run_ends_its_process_and_gives_the_page_back_its_lens(tmp_path):
    """$/cancelRequest of 「この ページで実験」: the run's process ends, the page is no longer
    「実験中」, and it can be run again at once."""
    import shutil

    from conftest import ROOT
    from lsp import lab_lens

    shutil.copytree(ROOT / "content", tmp_path / "content")
    page = tmp_path / "content" / "pages" / "少年期.page"
    run = {"command": lab_lens.COMMAND, "arguments": [page.as_uri(), "hatsukoi"]}
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page, page.read_text(encoding="utf-8"))
        wire.send_message(request(7, "workspace/executeCommand", run))
        deadline = time.monotonic() + 30
        while not children(wire.process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert children(wire.process.pid), "the lab's process never started"
        wire.send_message(notification("$/cancelRequest", {"id": 7}))
        assert wire.answer(7)["error"]["code"] == -32800
        # at once (the run would go on for seconds): no longer 「実験中」
        lenses = wire.call(8, "textDocument/codeLens", {"textDocument": {"uri": uri}})
        assert lab_lens.RUNNING not in json.dumps(lenses, ensure_ascii=False)
        deadline = time.monotonic() + 10
        while children(wire.process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not children(wire.process.pid)
        again = wire.call(9, "workspace/executeCommand", run, timeout=120)
        assert again["result"]["state"] == "done", again
        assert "Traceback" not in wire.stderr(), wire.stderr()


def test_exit_without_shutdown_exits_with_1(tmp_path):
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        wire.send_message(notification("exit"))
        assert wire.exit_code() == 1


# ------------------------------------------------------------------ errors are logged


def test_did_change_of_an_unopened_document_is_logged_never_shown_as_a_popup(tmp_path):
    _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        wire.send_message(notification("textDocument/didChange", {
            "textDocument": {"uri": (tmp_path / "nie.page").as_uri(), "version": 2},
            "contentChanges": [{"text": "x"}]}))
        assert wire.call(3, "jibunki/unknown") is not None
        shown = [m for m in wire.received if m.get("method") == "window/showMessage"]
        assert shown == []
        logged = wire.wait_for(lambda m: m.get("method") == "window/logMessage", 2)
        assert logged is not None and "KeyError" not in logged["params"]["message"]


# ------------------------------------------------------------------ typing (item 10)


def _publishes(wire: Wire, uri: str) -> list[dict]:
    return [m["params"] for m in wire.received
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


def test_a_burst_of_changes_is_checked_at_most_twice_its_first_key_and_its_last_text(tmp_path):
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page)
        assert wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        before = len(_publishes(wire, uri))
        last = 31
        for version in range(2, last + 1):  # a key each: the last one breaks 銘
            text = PAGE.replace("銘 3", "銘 = 3" if version == last else f"銘 {version}")
            wire.send_message(notification("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text}]}))
        final = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"].get("version") == last)
        assert final is not None
        assert [d["code"] for d in final["params"]["diagnostics"]] == ["E001"]
        wire.call("after", "jibunki/unknown")  # anything still queued has been handled
        time.sleep(1)
        wire.call("later", "jibunki/unknown")
        # the first key is checked at once (it came after a pause), the rest merge
        assert [p["version"] for p in _publishes(wire, uri)[before:]] == [2, last]


def test_a_hover_after_a_change_answers_from_the_changed_text(tmp_path):
    """The pending check runs before a request that reads a position (lsp.pending.flush)."""
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page)
        changed = PAGE.replace("tabidachi", "arata")
        wire.send_message(notification("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": changed}]}))
        answer = wire.call(1, "textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 6}})
        assert "arata" in answer["result"]["contents"]["value"]


def test_a_file_that_is_not_utf8_on_disk_gets_lints_e004_in_the_editor(tmp_path):
    """The editor opens such a file with U+FFFD for the bytes it cannot read: checked as
    that text it was clean (and a save would write the U+FFFD in), while lint refuses the
    file. The server says what lint says, at the byte."""
    page = _project(tmp_path)
    page.write_bytes(PAGE.replace("旅立ちの朝", "旅立ち\udcff").encode("utf-8", "surrogateescape"))
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        _open(wire, page, page.read_bytes().decode("utf-8", "replace"))
        published = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        found = published["params"]["diagnostics"]
        assert [d["code"] for d in found] == ["E004"]
        assert "UTF-8 として読めないバイト（0xff）" in found[0]["message"]
        assert found[0]["range"]["start"] == {"line": 0, "character": 18}  # after 「"旅立ち」


# ------------------------------------------------------------------ sizes (item 8)


def _pages(size: int) -> str:
    """Distinct well-formed pages, ``size`` bytes or a little less."""
    one = PAGE.replace("tabidachi", "p_NUMBER")
    count = size // (len(one.encode("utf-8")) + 4)
    return "".join(one.replace("NUMBER", str(n)) for n in range(count))


def test_a_5_MB_document_gets_a_size_diagnostic_and_no_formatting_edit_at_once(tmp_path):
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page, _pages(5_000_000))
        published = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert [d["code"] for d in published["params"]["diagnostics"]] == ["E004"]
        start = time.monotonic()
        answer = wire.call(1, "textDocument/formatting", {
            "textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
        assert answer is not None and answer.get("result") in ([], None)
        assert time.monotonic() - start < 5


def test_fmt_check_refuses_a_2_MB_file_by_its_size_at_once(tmp_path):
    from conftest import invoke_cli

    path = tmp_path / "big.page"
    path.write_text(_pages(2_000_000), encoding="utf-8")
    start = time.monotonic()
    result = invoke_cli("fmt", "--check", str(path))
    assert time.monotonic() - start < 10
    assert result.exit_code == 1 and "E048" in result.output


# ------------------------------------------------------------------ forged data (item 11)


def test_a_code_action_with_100000_replacements_is_answered_with_a_few(tmp_path):
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page)
        spot = {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 3}}
        forged = {"range": spot, "message": "x", "code": "E010",
                  "data": {"replacements": [f"r{n}" for n in range(100_000)]}}
        answer = wire.call(1, "textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": spot,
            "context": {"diagnostics": [forged]}}, timeout=20)
        assert answer is not None and 0 < len(answer["result"]) <= 10
        assert all(len(a["diagnostics"][0]["data"]["replacements"]) <= 10
                   for a in answer["result"])


def _fifo_folder(tmp_path: Path) -> Path:
    """A content folder whose one file is a FIFO nobody writes to: reading it never ends."""
    import os

    folder = tmp_path / "other" / "content"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "trap.page")
    return folder


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
def test_a_resolve_whose_data_names_an_unopened_folder_reads_nothing(tmp_path):
    folder = _fifo_folder(tmp_path)
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        _open(wire, page)
        answer = wire.call(1, "completionItem/resolve", {
            "label": "tabidachi", "data": {"kind": "page", "path": str(folder / "a.page")}},
            timeout=5)
        assert answer is not None and answer["result"].get("documentation") is None


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("method, params", [
    ("textDocument/formatting", {"options": {"tabSize": 2, "insertSpaces": True}}),
    ("textDocument/documentSymbol", {}),
    ("textDocument/codeLens", {}),
    ("textDocument/completion", {"position": {"line": 0, "character": 0}}),
    ("textDocument/hover", {"position": {"line": 0, "character": 0}}),
])
def test_a_request_on_a_uri_that_is_not_open_reads_nothing(tmp_path, method, params):
    """A device, a FIFO, a file never opened: answered at once, nothing read."""
    trap = _fifo_folder(tmp_path) / "trap.page"
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        answer = wire.call(1, method, {"textDocument": {"uri": trap.as_uri()}, **params},
                           timeout=5)
        assert answer is not None and "error" not in answer
        assert answer["result"] in (None, [], {"isIncomplete": False, "items": []})


def test_a_completion_after_fast_typing_in_a_large_folder_is_answered_promptly(tmp_path):
    """4 s of a held key (30 keys/s) in a file of 500 pages in a folder of 2,000, then a
    completion: it waits for one check at most, not for one check per key (issue 32, item
    10: every change was checked, and the answers queued behind the checks)."""
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from corpus import write_content

    content = write_content(tmp_path, 2000, 4)  # the edited file holds 500 pages
    page = content / "pages" / "corpus_000.page"
    text = page.read_text(encoding="utf-8")
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page, text)
        assert wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics",
                             60)
        completion = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}

        def completed(msg_id) -> float:
            start = time.monotonic()
            answer = wire.call(msg_id, "textDocument/completion", completion, 60)
            assert answer is not None and answer["result"]["items"]
            return time.monotonic() - start
        idle = completed("idle")
        before = len(_publishes(wire, uri))
        typed = ""
        for version in range(2, 122):
            typed += "#"
            wire.send_message(notification("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text + typed}]}))
            time.sleep(1 / 30)
        waited = completed("typed")
        assert waited < idle + 1.0, f"the completion waited {waited:.1f} s ({idle:.1f} s idle)"
        assert wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"].get("version") == 121, 60)
        checks = len(_publishes(wire, uri)) - before
        assert checks <= 12, f"{checks} checks for 120 keys"


def test_what_is_wrong_with_a_message_is_said_in_japanese():
    # The error answers and the log lines an editor shows (Python's json words are English).
    import io
    import json
    import re

    from lsp import protocol

    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for body in (b"{bad}", b"[" * 100_000, b"\xff\xfe", b'{"a": 1,}'):
        try:
            json.loads(body)
        except (ValueError, RecursionError) as exc:
            said = protocol._parse_problem(exc)
        assert japanese.search(said) and "Expecting" not in said, said
    assert all(japanese.search(flaw) for flaw, _ in protocol.MESSAGE_RULES)
    stream = io.BytesIO(b"garbage\r\nContent-Length: 99999999999\r\n\r\n"
                        b"Content-Length: x\r\n\r\n")
    problems = [f.problem for f in protocol.read_frames(stream) if f.body is None]
    assert len(problems) == 3 and all(japanese.search(p) for p in problems), problems


def test_a_frame_read_after_exit_is_dropped_without_a_traceback():
    """The client answers a request of the server (a lens refresh a stopped lab run sent)
    after exit: the reader thread handed the frame to a loop that had ended, and logged
    「クライアントのメッセージを読めなくなりました」 with a CancelledError's traceback."""
    import asyncio
    import logging
    import os
    import threading
    import warnings

    from lsp import protocol

    class Protocol:  # what serve asks of the server: exit once the first frame is read
        exit_code = None
        shut_down = True

        def receive(self, body):
            self.exit_code = 0

    def frame(text: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n%s" % (len(text), text)

    read, write = os.pipe()
    logged: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = logged.append
    protocol.logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            os.write(write, frame(b'{"jsonrpc": "2.0", "method": "exit"}'))
            asyncio.run(protocol.serve(Protocol(), protocol.FileDescriptor(read)))
            reader = next(t for t in threading.enumerate() if t.name == "lsp-reader")
            os.write(write, frame(b'{"jsonrpc": "2.0", "id": 1, "result": null}'))
            os.close(write)
            reader.join(10)
        assert not reader.is_alive()
        assert logged == [], [r.getMessage() for r in logged]
        assert not [w for w in warned if "never awaited" in str(w.message)]
    finally:
        protocol.logger.removeHandler(handler)
        os.close(read)


def test_typed_at_a_terminal_the_server_says_what_it_waits_for(tmp_path):
    """``jibunki lsp`` typed by a person waited for an editor's messages without a word: with
    a terminal on its standard input it says, on stderr, what it is and how to leave; from an
    editor (a pipe) it says nothing there."""
    import os
    import pty
    import subprocess

    from commands.lsp import TYPED_AT_A_TERMINAL

    ours, theirs = pty.openpty()
    try:
        server = subprocess.Popen([sys.executable, "-m", "cli", "lsp"], cwd=ROOT, stdin=theirs,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = server.stderr.readline().decode("utf-8")
        server.kill()
        server.wait(timeout=10)
    finally:
        os.close(ours)
        os.close(theirs)
    assert line.strip() == TYPED_AT_A_TERMINAL
    piped = subprocess.run([sys.executable, "-m", "cli", "lsp"], cwd=ROOT, input=b"",
                           capture_output=True, timeout=60)
    assert TYPED_AT_A_TERMINAL.encode("utf-8") not in piped.stderr


# ------------------------------------------------------------------ the client's end


def test_a_lone_surrogate_in_a_document_is_read_as_a_replacement_and_checked(tmp_path):
    """``\\ud800`` alone is valid JSON and no text: the check of the changed document
    failed with a traceback (UnicodeEncodeError) and published nothing, so the editor
    kept the last version's diagnostics."""
    page = _project(tmp_path)
    with Wire(tmp_path) as wire:
        wire.initialize(tmp_path)
        uri = _open(wire, page)
        assert wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": PAGE.replace("銘 3", "銘 \ud800")}]}})
        assert "\\ud800" in body
        wire.send(frame(body.encode("ascii")))
        published = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                  and m["params"].get("version") == 2)
        assert published is not None and published["params"]["diagnostics"], wire.stderr()
        assert "Traceback" not in wire.stderr() and "UnicodeEncodeError" not in wire.stderr()


def _initialize_frame(root: Path) -> bytes:
    return frame(request(1, "initialize", {"processId": None, "rootUri": root.as_uri(),
                                           "capabilities": {}}))


@pytest.mark.parametrize("output", ["full disk", "closed pipe"])
def test_an_output_that_fails_ends_the_server_with_1_said_once(tmp_path, output):
    """Its answers written to a full disk, or to a client that closed its end: pygls
    logged each failure as a traceback (tens of thousands of lines) while the server went
    on, and it exited 0. The server waits for no further frame from the client."""
    import subprocess

    err = tmp_path / "stderr"
    with open(err, "wb") as stderr:
        if output == "full disk":
            target = open("/dev/full", "wb")
        else:
            target = subprocess.PIPE
        server = subprocess.Popen([sys.executable, "-m", "lsp"], stdin=subprocess.PIPE,
                                  stdout=target, stderr=stderr, cwd=tmp_path)
        if output == "closed pipe":
            server.stdout.close()
        else:
            target.close()
        server.stdin.write(_initialize_frame(tmp_path))
        server.stdin.flush()  # and the client waits: no more frames, the input stays open
        try:
            code = server.wait(20)
        finally:
            server.kill()
            server.stdin.close()
    said = err.read_text(encoding="utf-8")
    assert code == 1, said
    assert said.count("エディタへの出力に失敗しました") == 1 and "Traceback" not in said, said
