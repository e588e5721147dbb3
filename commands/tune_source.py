"""The source side of ``jibunki sim --tune`` (sim/tune.py): the numbers an item's effect
reads, found in its parsed source with their places; the content compiled in memory with
one of them edited; the edit written into its file."""

from __future__ import annotations

from pathlib import Path

from contract.vocabulary import W
from sim.tune import Candidate, TuneError, find_item


def _numbers(node) -> list:
    """Every dsl.ast.Number under ``node`` (a dataclass tree), in source order."""
    from dataclasses import fields, is_dataclass

    from dsl.ast import Number

    if isinstance(node, Number):
        return [node]
    if isinstance(node, (tuple, list)):
        return [n for child in node for n in _numbers(child)]
    if is_dataclass(node):
        return [n for f in fields(node) for n in _numbers(getattr(node, f.name))]
    return []


#: Fields whose number is a candidate: rule name → designer word.
PAGE_FIELDS = {"fray_mul": W.variable.fray_mul}
ENEMY_FIELDS = {"hp": "HP", "breakthrough": "突破ライン"}


def candidates(item_ast, text: str, path: str) -> list[Candidate]:
    """The numbers of a parsed page or enemy (dsl.ast) the measure depends on."""
    from dsl.ast import Enemy

    lines = text.split("\n")
    found: list[tuple[object, str]] = []
    wanted = ENEMY_FIELDS if isinstance(item_ast, Enemy) else PAGE_FIELDS
    for f in item_ast.fields:
        if f.key in wanted:
            found += [(n, wanted[f.key]) for n in _numbers(f.value)]
    if isinstance(item_ast, Enemy):
        for line in item_ast.intents:
            # 予兆 [ 攻撃 14, 攻撃 14 ] holds two numbers alike: each is named by its place
            found += [(n, f"予兆 {i} 番目") for i, intent in enumerate(line, 1)
                      for n in _numbers(intent.amount)]
        found += [(n, "エスカレーション") for e in item_ast.escalations
                  for n in _numbers(e.intent.amount)]
    else:
        # Each face by its own word: two numbers of one line-shape stood as 「面 10」 both.
        bodies = [(face.body, getattr(W.face, face.side)) for face in item_ast.faces
                  if face.body is not None]
        bodies += [(pen.body, f"ペン {getattr(W.face, pen.side)}") for pen in item_ast.pens]
        bodies += [(tear.body, "破却") for tear in item_ast.tears]
        for body, role in bodies:
            found += [(n, role) for sayou in body.sayou for n in _numbers(sayou)]
    out = []
    for number, role in found:
        span = number.span
        if span.line != span.end_line:
            continue
        # The line without its ending: a CRLF file's "\r" belongs to the file, not to
        # the line shown and compared when the edit is written (``apply``).
        out.append(Candidate(path, span.line, span.col, span.end_col, number.text,
                             number.value, role, lines[span.line - 1].removesuffix("\r")))
    return out


# ------------------------------------------------------------------ the content


class Content:
    """The content folder's texts, compiled in memory as written or with one number
    edited (each edit compiled once)."""

    def __init__(self, folder: Path):
        from compiler.read import discover, display_path, read

        self.folder = folder
        self.texts: dict[str, str] = {}
        #: each file by the name its diagnostics and candidates give (``display_path``,
        #: which is for showing, not for opening)
        self.paths: dict[str, Path] = {}
        for path in discover([folder]):
            shown = display_path(path)
            text, problems = read(path, shown)
            if text is None or problems:
                raise TuneError(f"{shown} を読めません")
            self.texts[shown], self.paths[shown] = text, path
        self._compiled: dict[tuple, dict | None] = {}
        #: Each file's parse as written (dsl.ast.ParseResult, shared as an editor's
        #: unchanged files are): an edit compiles with only its own file parsed again.
        self._parsed: dict[str, object] = {}
        #: The texts (as the parser reads them) of the files this run has written, so a
        #: second edit of a file keeps the first, and each write is compiled with all of them.
        self.written: dict[str, str] = {}
        base = self.compile({})
        if base is None:
            first = next((d for d in self.diagnostics if d.is_error), None)
            where = f": {first.span} {first.message}" if first is not None else ""
            raise TuneError(f"コンテンツにエラーがあります{where}（jibunki lint で確かめてください）")
        self.literal = base

    def compile(self, overrides: dict[str, str]) -> dict | None:
        """The tables' literals of the content with ``overrides`` (path → text), or None
        when that content does not compile."""
        from compiler.pipeline import Compilation, Source, run

        # A file as written is taken parsed (the content as written compiled without an
        # error, so its parse holds none to report again).
        sources = [Source(p, overrides[p]) if p in overrides else
                   Source(p, t, parsed=self._parsed.get(p)) for p, t in self.texts.items()]
        c = Compilation(sources, [], set(self.texts), project=str(self.folder),
                        root=self.folder.resolve().parent)
        c.reported.add(str(self.folder))
        run(c)
        if not overrides and not c.failed:
            self._parsed = {source.path: source.parsed for source in sources}
        self.diagnostics = c.diagnostics
        return None if c.failed or not c.tables else c.tables

    def edited(self, cand: Candidate, value: float) -> dict | None:
        """The literals with ``cand`` written as ``value`` (None: not valid content)."""
        key = (cand.where, cand.spell(value))
        if key not in self._compiled:
            self._compiled[key] = self.compile({cand.path: self.splice(cand, value)})
        return self._compiled[key]

    def splice(self, cand: Candidate, value: float, text: str | None = None) -> str:
        """The file's text (as the parser reads it; ``text``: another version of it) with
        the number replaced."""
        lines = (self.texts[cand.path] if text is None else text).split("\n")
        lines[cand.line - 1] = cand.edited_line(value)
        return "\n".join(lines)

    def item_source(self, kind: str, item_id: str):
        """(path, dsl.ast item) of the page or enemy ``item_id``."""
        from compiler.sources import shown_path
        from dsl.ast import Enemy, Page
        from dsl.parser import parse

        cls = Page if kind == "page" else Enemy
        table = self.literal["pages" if kind == "page" else "enemies"]
        source = find_item(table, item_id)["source"]
        root = self.folder.resolve().parent
        for shown, text in self.texts.items():
            # the tables name a file as compiler.sources.shown_path names its shown path
            if shown_path(shown, root) == source["path"]:
                for item in parse(text, shown).file.items:
                    if isinstance(item, cls) and item.id.text == item_id:
                        return shown, item
        raise TuneError(f"「{item_id}」のソースが見つかりません")




def apply(content: Content, cand: Candidate, value: float) -> Path:
    """Write the edit into the source file: the number alone changes (through the
    formatter when the file was laid out canonically), the content must still compile,
    and the file is replaced whole, inside the content folder."""
    from compiler.read import MAX_FILE_BYTES
    from contract import disk
    from dsl.formatter import format_text

    path = content.paths[cand.path]
    raw = disk.read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    lines = raw[len(bom):].split("\n")
    old = lines[cand.line - 1]
    if old.rstrip("\r") != cand.source_line:
        raise TuneError(f"{cand.path}:{cand.line} が測ったあとに変わりました。もう一度測ってください")
    # The file as this run left it: an earlier edit of the same file is kept. A save of the
    # designer's since (any line) is kept too: the file is then left alone, since the
    # formatter would write this run's copy of it whole.
    current = content.written.get(cand.path, content.texts[cand.path])
    if raw[len(bom):].replace("\r\n", "\n") != current:
        raise TuneError(f"{cand.path} が測っているあいだに保存されました。書き込まずに残しました。"
                        "もう一度測ってください")
    lines[cand.line - 1] = cand.edited_line(value) + old[len(old.rstrip("\r")):]
    text = bom + "\n".join(lines)
    before = format_text(current, cand.path)
    after = format_text(content.splice(cand, value, current), cand.path)
    if not after.ok:
        raise TuneError(f"{cand.path}: 書き換えた結果が読めません")
    if before.ok and before.text == current and not bom and "\r" not in raw:
        text = after.text
    plain = text.removeprefix("\ufeff").replace("\r\n", "\n")
    # Compiled with every edit written so far: the edits together must still compile.
    if content.compile({**content.written, cand.path: plain}) is None:
        raise TuneError(f"{cand.path}: 書き換えるとコンパイルできなくなるので書きませんでした")
    disk.write(path, text, inside=content.folder, replace=True)
    content.written[cand.path] = plain
    return path


