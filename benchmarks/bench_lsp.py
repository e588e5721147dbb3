"""How fast does ``jibunki lsp`` answer an editor? The real server over stdio, driven by
pytest-lsp's client, on a private copy of the bundled content and on a synthetic content
folder of 2,000 pages (benchmarks/corpus.py, as bench_scale.py writes it):

    python benchmarks/bench_lsp.py [--edits 20] [--requests 50] [--content content]
                                   [--pages 2000]   (0: the bundled content only)

* floor: a hover on whitespace — a request the server answers with nothing, so the row is
  the round trip itself (JSON-RPC over the pipes, pygls's dispatch) in the same run;
* diagnostics after an edit: one character typed into a page file (incremental change)
  after a pause longer than lsp.pending.DELAY (a designer's edit: checked at once), timed
  until its publishDiagnostics arrives — the edited document checked again with the
  other files of content/ as context (their parses cached); every other edit puts an
  error in (``銘 = 30``) and the next takes it out, so both kinds of check are timed;
* diagnostics, keys back to back: the same edits, each sent as soon as the last one's
  diagnostics arrived — a burst of keys, whose check waits for the pause (lsp.pending);
* hover: on a page id of the starter deck (name, 銘 and the rules text of its faces) and on
  keywords, in turn;
* completion: at the start of an effect line of a face (its targets and verbs: the item
  up to the cursor fed to the LALR parser, dsl.position), and in the starter deck (every
  page id of the folder, the longest list).

Printed: p50 and p95 in ms of each row for each folder, and the row's p50 over the floor's.
Targets: bundled diagnostics p95 ≤ 150 ms, hover and completion p95 ≤ 50 ms; at 2,000
pages diagnostics p95 ≤ 300 ms. Figures only, no assertion.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities

from contract.vocabulary import KEYWORDS, W

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
PAGE = "pages/青年期.page"  # the page file edited in the bundled content
SYNTHETIC_PAGE = "pages/corpus_000.page"  # … and in the synthetic one
SYNTHETIC_FILES = 40  # 2,000 pages in files of 50, as a project might hold them
#: Seconds of quiet before an edit of the first row: longer than lsp.pending.DELAY (0.1 s),
#: so the edit is checked at once, as a designer's edit after reading is.
PAUSE = 0.15


def _percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def _position(text: str, needle: str) -> types.Position:
    for row, line in enumerate(text.split("\n")):
        if needle in line:
            return types.Position(row, line.index(needle))
    raise SystemExit(f"{needle!r} not found")


async def _timed(call) -> float:
    start = time.perf_counter()
    await call()
    return time.perf_counter() - start


async def run(content: Path, edits: int, requests: int, page_file: str = PAGE,
              deck_ids: tuple[str, ...] = ("tabidachi", "kekkon", "hatsu_koe"),
              ) -> dict[str, list[float]]:
    """Every row's times, in seconds: edits in ``page_file``, hovers on ``deck_ids`` in the
    starter deck and on keywords of the page file."""
    config = ClientServerConfig(server_command=[sys.executable, "-m", "lsp"])
    client = await config.start()
    client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)  # the file watcher
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=content.parent.as_uri()))
    page, deck = content / page_file, content / "starter.deck"
    texts = {path: path.read_text(encoding="utf-8") for path in (page, deck)}
    for version, path in enumerate((page, deck), 1):
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            uri=path.as_uri(), language_id="jibunki", version=version, text=texts[path])))
        await client.wait_for_notification("textDocument/publishDiagnostics")
    rows: dict[str, list[float]] = {"floor (hover on whitespace)": [],
                                    "diagnostics after an edit": [],
                                    "diagnostics, keys back to back": [], "hover": [],
                                    "completion": [], "completion in a deck": []}

    def hover(uri, where):
        return lambda: client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), where))

    blank = types.Position(_position(texts[deck], "{").line, 0)
    for _ in range(requests):
        rows["floor (hover on whitespace)"].append(await _timed(hover(deck.as_uri(), blank)))

    year = _position(texts[page], f"{W.variable.year} ")
    for n in range(edits):
        # 銘 19 → 銘 = 19 (E001), then back: one character in, one out.
        change = (types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(year.line, year.character + 2),
                              types.Position(year.line, year.character + 2)), text="= ")
            if n % 2 == 0 else types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(year.line, year.character + 2),
                                  types.Position(year.line, year.character + 4)), text=""))

        async def edit(change=change, n=n):
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=page.as_uri(),
                                                                    version=n + 3),
                content_changes=[change]))
            await client.wait_for_notification("textDocument/publishDiagnostics")
        if n < edits // 2:
            await asyncio.sleep(PAUSE)
            rows["diagnostics after an edit"].append(await _timed(edit))
        else:
            rows["diagnostics, keys back to back"].append(await _timed(edit))

    places = [(deck, _position(texts[deck], word)) for word in deck_ids]
    places += [(page, _position(texts[page], word))
               for word in (W.face.future, W.variable.year, KEYWORDS["origin"][0])]
    for n in range(requests):
        path, where = places[n % len(places)]
        rows["hover"].append(await _timed(hover(path.as_uri(), where)))

    for row, path, where in (("completion", page, _position(texts[page], W.variable.enemy_hp)),
                             ("completion in a deck", deck, places[0][1])):
        for _ in range(requests):
            rows[row].append(await _timed(lambda: client.text_document_completion_async(
                types.CompletionParams(types.TextDocumentIdentifier(path.as_uri()), where))))
    await client.shutdown_session()
    await client.stop()
    return rows


def _table(columns: dict[str, dict[str, list[float]]]) -> None:
    """Each row's n, p50 and p95 (and p50 over the floor's) for each folder, side by side."""
    head = f"{'row':<30}" + "".join(f" | {name:^31}" for name in columns)
    print(head)
    print(f"{'':<30}" + "".join(f" | {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'/floor':>7}"
                                 for _ in columns))
    for row in next(iter(columns.values())):
        cells = []
        for rows in columns.values():
            floor = _percentiles(rows["floor (hover on whitespace)"])[0]
            p50, p95 = _percentiles(rows[row])
            cells.append(f" | {len(rows[row]):>4} {p50:>8.1f} {p95:>8.1f} {p50 / floor:>7.1f}")
        print(f"{row:<30}" + "".join(cells))


def main() -> None:
    """Parse the options, run the server on a private copy of the content (and on a
    synthetic folder), print the rows."""
    from corpus import machine_line, page_ids, write_content

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--pages", type=int, default=2000,
                        help="pages of the synthetic folder (0: none)")
    args = parser.parse_args()
    print(machine_line("jibunki lsp over stdio"))
    columns: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "bundled" / "content"
        shutil.copytree(args.content, copy)
        columns["bundled content"] = asyncio.run(run(copy, args.edits, args.requests))
        if args.pages:
            synthetic = write_content(Path(tmp) / "synthetic", args.pages, SYNTHETIC_FILES)
            columns[f"{args.pages:,} pages"] = asyncio.run(run(
                synthetic, args.edits, args.requests, SYNTHETIC_PAGE,
                tuple(page_ids(args.pages)[:3])))
    _table(columns)


if __name__ == "__main__":
    main()
