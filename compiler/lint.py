"""The checking pipeline: read → parse → collect symbols → check items.

``check`` runs the passes of PASSES in order over a set of files and returns every
diagnostic of the run together with the checked model (the items with names resolved
and defaults filled in). Nothing here raises on content: a bad file is a diagnostic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from dsl import ast
from dsl.diagnostics import Diagnostic, Span, error, warning

from .symbols import Symbols

#: The file kinds of the content folder.
CONTENT_SUFFIXES = (".page", ".enemy", ".balance", ".deck")
#: A file larger than this is not hand-written content.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: Nobody writes a 作用 this long; such a line is pasted data or garbage.
MAX_LINE_CHARS = 10_000


@dataclass
class Source:
    path: str
    text: str | None
    parsed: object = None  # dsl.parser.ParseResult
    report: bool = True  # False: read only to resolve names (context files)


@dataclass
class Result:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    files: int
    model: dict = field(default_factory=dict)
    symbols: Symbols | None = None  # the AST of every item, by id (for source records)

    @property
    def errors(self) -> int:
        return sum(d.is_error for d in self.diagnostics)


def discover(paths: list[Path]) -> list[Path]:
    """Content files under the given paths: folders are searched, files taken as named."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            # A symlink inside the folder must not lead the run outside what was named.
            found.extend(sorted(p for p in path.rglob("*")
                                if p.suffix in CONTENT_SUFFIXES and p.is_file()
                                and p.resolve().is_relative_to(root)))
        else:
            found.append(path)
    unique = list(dict.fromkeys(found))
    return unique


def display_path(path: Path) -> str:
    try:
        shown = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if shown.startswith("..") else shown


def read(path: Path, shown: str) -> tuple[str | None, list[Diagnostic]]:
    """The file's text, or None with E004 (unreadable, not UTF-8, binary, too large)."""
    head = Span(shown, 1, 1, 1, 2)
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [error("E004", f"ファイルを読めません: {exc.strerror or exc}", head)]
    if len(data) > MAX_FILE_BYTES:
        return None, [error("E004", f"ファイルが大きすぎます（{len(data)} バイト）", head,
                            hint=f"コンテンツのファイルは {MAX_FILE_BYTES // 1024} KiB までです")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [error("E004", "UTF-8 として読めないバイトがあります",
                            Span(shown, line, col, line, col + 1),
                            hint="ファイルを UTF-8 で保存してください")]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        return None, [error("E004", "バイナリファイルのようです（NUL 文字があります）",
                            Span(shown, line, 1, line, 2), hint="テキストのコンテンツだけを置いてください")]
    for number, line_text in enumerate(text.splitlines(), 1):
        if len(line_text) > MAX_LINE_CHARS:
            return None, [error("E004", f"{number} 行目が長すぎます（{len(line_text)} 文字）",
                                Span(shown, number, 1, number, 2),
                                hint=f"1行は {MAX_LINE_CHARS} 文字までです")]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


# ------------------------------------------------------------------- passes


def parse_all(sources: list[Source], diags: list[Diagnostic], state: dict) -> None:
    from dsl.parser import parse

    for source in sources:
        if source.text is None:
            continue
        source.parsed = parse(source.text, source.path)
        diags.extend(source.parsed.diagnostics)
        if not source.text.strip() and source.report:
            diags.append(warning("W003", "空のファイルです", Span(source.path, 1, 1, 1, 2),
                                 hint="ページや敵の定義を書くか、ファイルを消してください"))


def collect_symbols(sources: list[Source], diags: list[Diagnostic], state: dict) -> None:
    from .symbols import collect

    files = [s.parsed.file for s in sources if s.parsed is not None]
    state["symbols"] = collect(files, diags)


def check_items(sources: list[Source], diags: list[Diagnostic], state: dict) -> None:
    from .items import check_balance, check_deck, check_enemy, check_page
    from .values import Ctx

    symbols: Symbols = state["symbols"]
    model = {"pages": [], "enemies": [], "decks": [], "balance": None}
    for source in sources:
        if source.parsed is None:
            continue
        for item in source.parsed.file.items:
            damaged = any(_overlaps(item.span, lines) for lines in source.parsed.damaged)
            ctx = Ctx(diags, symbols, "enemy" if isinstance(item, ast.Enemy) else "page")
            if isinstance(item, ast.Page) and symbols.pages.get(item.id.text) is item:
                model["pages"].append(check_page(item, ctx, damaged))
            elif isinstance(item, ast.Enemy) and symbols.enemies.get(item.id.text) is item:
                model["enemies"].append(check_enemy(item, ctx, damaged))
            elif isinstance(item, ast.Deck) and symbols.decks.get(item.id.text) is item:
                model["decks"].append(check_deck(item, ctx))
            elif isinstance(item, ast.Balance) and symbols.balances[:1] == [item]:
                model["balance"] = None if damaged else check_balance(item, ctx)
    state["model"] = model


#: The passes, in order. Each reads and extends the shared state.
PASSES = (parse_all, collect_symbols, check_items)


def _overlaps(span: Span, lines: tuple[int, int]) -> bool:
    return span.line <= lines[1] and lines[0] <= span.end_line


def check(paths: list[Path], context: list[Path] = ()) -> Result:
    """Check the content files under ``paths``; ``context`` files are read only to resolve
    names across files (their own diagnostics are not reported)."""
    named = discover(paths)
    extra = [p for p in discover(list(context)) if p.resolve() not in
             {n.resolve() for n in named}]
    sources: list[Source] = []
    diags: list[Diagnostic] = []
    for path, report in [(p, True) for p in named] + [(p, False) for p in extra]:
        shown = display_path(path)
        text, problems = read(path, shown)
        if report:
            diags.extend(problems)
        sources.append(Source(shown, text, report=report))
    state: dict = {}
    for run in PASSES:
        run(sources, diags, state)
    reported = {s.path for s in sources if s.report}
    kept = [d for d in diags if d.span.path in reported]
    kept.sort(key=Diagnostic.sort_key)
    return Result(kept, {s.path: s.text for s in sources if s.text is not None},
                  len(named), state.get("model", {}), state.get("symbols"))


def check_text(text: str, path: str = "<text>", context: dict[str, str] | None = None) -> Result:
    """Check in-memory sources (tests, editors): ``path`` is reported, ``context`` is not."""
    sources = [Source(path, text)] + [Source(p, t, report=False)
                                      for p, t in (context or {}).items()]
    diags: list[Diagnostic] = []
    state: dict = {}
    for run in PASSES:
        run(sources, diags, state)
    kept = sorted((d for d in diags if d.span.path == path), key=Diagnostic.sort_key)
    return Result(kept, {s.path: s.text for s in sources}, 1, state.get("model", {}),
                  state.get("symbols"))
