"""リントのキャッシュ — what ``jibunki lint`` found, kept on disk, so that a lint of files
that did not change reports the same findings without checking anything again.

A lint's findings are a function of its input: the content files it reads (the named ones
and the context), how they were named (diagnostics show paths relative to the working
folder), the code that checks them and plays their examples, the grammar, the schemas,
lark's and jsonschema's versions and Python's. So:

* The entry's key (``_key``) is the sha256 of all of that: the source of every module of
  dsl/, compiler/, contract/, scenario/, runtime/ and analysis/ (the interaction findings
  read the whole content: every file read is in the key below), the grammar, schemas/, the
  ``__init__`` of lark, jsonschema and networkx (which name their versions), Python's version,
  the working folder, the paths as named and resolved, and every content file the run
  would read (``compiler.read.discover``, as the check itself finds them): its path as
  shown and its exact bytes. An edit, a new or a removed file changes the key. A file or
  folder that cannot be read gives no key: the lint runs and reports it.
* The entry holds the diagnostics as plain tuples, the count of named files, the
  examples wanted and the errors that blocked them, the errors that kept the interaction
  analysis from running, and the text of each file a
  diagnostic points into (to show its source line). A lint that met an internal error
  (E000, a bug in jibunki) is not kept: it runs again next time.
* One entry per way of naming (the working folder and the paths), replaced by each run,
  in the subfolder ``lint`` (dsl.diskcache); at most MAX_ENTRIES entries and
  MAX_TOTAL_BYTES in all, the least recently used evicted: every new folder or file named
  is a new entry, and an entry holds the texts its findings point into.
* Nothing read is trusted before it is checked (``_decode``: every field of its type, an
  int not a bool, a severity of the two …); an entry of any other shape is no entry.
  ``JIBUNKI_NO_CACHE=1``, an unusable folder or any doubt: the lint runs; never an error.

The other commands that lint (``build``, ``test``, ``deck``) need the tables and the
examples' results, so they do not read this cache (they still use the parse and example
caches below it).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

from dsl import diskcache
from dsl.diagnostics import ERROR, WARNING, Diagnostic, Note, Span

FORMAT = b"jibunki-lint-cache 3\n"
MAX_ENTRY_BYTES = 8 * 1024 * 1024
MAX_ENTRIES = 128
MAX_TOTAL_BYTES = 64 * 1024 * 1024
#: The cache's subfolder and its entries' prefix (dsl.diskcache).
KIND = "lint"
_TEMP_PREFIX = f".{KIND}-"
_ROOT = Path(__file__).resolve().parent.parent
#: The code a lint's findings depend on, and the data files it reads.
_CODE = (("dsl", "*.py"), ("dsl", "*.lark"), ("compiler", "*.py"), ("contract", "*.py"),
         ("scenario", "*.py"), ("runtime", "*.py"), ("analysis", "*.py"), ("schemas", "*.json"))
#: Libraries whose version names the result: the parser, the schemas, the trigger graph's.
_LIBRARIES = ("lark", "jsonschema", "networkx")
#: The code of a diagnostic that is jibunki's own failure: never kept.
_INTERNAL = "E000"


@dataclass(frozen=True)
class Summary:
    """What a lint from the cache reports: the attributes of ``compiler.lint.Result`` that
    ``jibunki lint`` prints (no tables, no examples' events)."""

    diagnostics: list[Diagnostic]
    sources: dict[str, str]  # path → text, for the files the diagnostics point into
    files: int
    examples_blocked: list[Diagnostic]
    examples_wanted: int
    analysis_blocked: list[Diagnostic]

    @property
    def errors(self) -> int:
        """How many of the diagnostics are errors."""
        return sum(d.is_error for d in self.diagnostics)


def lint(named: list[Path], context: list[Path], project: Path | None):
    """``scenario.stage.lint`` of the paths (with its caches), or the same findings from
    this cache when nothing it depends on changed."""
    folder = diskcache.open_folder(KIND)
    try:
        key = _key(named, context, project) if folder is not None else None
        name = _entry_name(named, context, project)
        if key is not None:
            payload = diskcache.read_entry(folder, name, key, FORMAT, MAX_ENTRY_BYTES,
                                           touch=True)  # its last use, for the eviction
            found = _decode(payload) if payload is not None else None
            if found is not None:
                return found
        from compiler.read import recording

        from .stage import lint as run_lint

        with recording() as seen:
            result = run_lint(named, context, project=project, cache=True)
        # Kept only when the check read the very bytes the key names: a file saved
        # between the key's read and the check's would otherwise keep one text's
        # findings under another's key (a false green once that text is back).
        if key is not None and \
                _key(named, context, project, lambda path: seen[path.resolve()]) == key:
            _save(folder, name, key, result)
        return result
    finally:
        if folder is not None:
            os.close(folder)


# ------------------------------------------------------------------ the key

_code_digest: bytes | None = None


def code_digest() -> bytes:
    """The sha256 of the code, grammar and schemas a lint runs, of lark's and
    jsonschema's ``__init__`` and of Python (once per process)."""
    global _code_digest
    if _code_digest is None:
        _code_digest = diskcache.sources_digest(FORMAT, code_paths())
    return _code_digest


def code_paths() -> list[Path]:
    """The files of ``code_digest``: jibunki's code (``_CODE``) and the libraries' ``__init__``."""
    import importlib.util

    paths = [path for folder, pattern in _CODE for path in sorted((_ROOT / folder).glob(pattern))]
    return paths + [Path(importlib.util.find_spec(library).origin) for library in _LIBRARIES]


def _key(named, context, project, read=None) -> bytes | None:
    """The entry's key (hex), or None when something of the input cannot be read.
    ``read``: a file's bytes (None: read from the disk)."""
    from compiler.read import MAX_FILE_BYTES, discover, display_path
    from contract.disk import read_bounded

    if read is None:
        def read(path):
            return read_bounded(path, MAX_FILE_BYTES)

    try:
        hasher = hashlib.sha256(code_digest())
        diskcache.part(hasher, _where(named, context, project))
        for group in (named, context):
            problems: list = []
            files = discover(list(group), problems)
            if problems:
                return None  # an unreadable folder: the lint says so
            diskcache.part(hasher, str(len(files)).encode("ascii"))
            for path in files:
                diskcache.part(hasher, display_path(path).encode("utf-8", "surrogatepass"))
                # Never blocking on a FIFO nor reading a device without end: such a file
                # raises, and the lint (which says E004 of it) runs uncached.
                diskcache.part(hasher, read(path))
        return hasher.hexdigest().encode("ascii")
    except Exception:  # unreadable, vanished, a library not installed …: no cache
        return None


def _where(named, context, project) -> bytes:
    parts = [os.getcwd(), str(project), *(f"{p}\1{Path(p).resolve()}" for p in named),
             "\2", *(str(Path(p).resolve()) for p in context)]
    return "\0".join(parts).encode("utf-8", "surrogatepass")


def _entry_name(named, context, project) -> str:
    digest = hashlib.sha256(_where(named, context, project)).hexdigest()[:32]
    return f"{KIND}-{digest}{diskcache.ENTRY_SUFFIX}"


# ------------------------------------------------------------------ the shape


def _encode_span(span: Span) -> tuple:
    return (span.path, span.line, span.col, span.end_line, span.end_col)


def _encode(diag: Diagnostic) -> tuple:
    return (diag.code, diag.severity, diag.message, _encode_span(diag.span), diag.hint,
            [(note.message, None if note.span is None else _encode_span(note.span))
             for note in diag.notes], list(diag.replacements))


def _paths_of(diags) -> set[str]:
    return {span.path for d in diags
            for span in (d.span, *(n.span for n in d.notes if n.span is not None))}


def _save(folder: int, name: str, key: bytes, result) -> None:
    try:
        everything = [*result.diagnostics, *result.examples_blocked, *result.analysis_blocked]
        if any(d.code == _INTERNAL for d in everything):
            return
        wanted = _paths_of(everything)
        data = {"files": result.files, "wanted": result.examples_wanted,
                "diagnostics": [_encode(d) for d in result.diagnostics],
                "blocked": [_encode(d) for d in result.examples_blocked],
                "unanalysed": [_encode(d) for d in result.analysis_blocked],
                "sources": {p: t for p, t in result.sources.items() if p in wanted}}
        payload = pickle.dumps(data, protocol=5)
        if _decode(payload) is None:
            return  # something not plain: not kept
        diskcache.write_entry(folder, name, key, payload, FORMAT, MAX_ENTRY_BYTES,
                              _TEMP_PREFIX)
    except Exception:  # a full disk, a read-only folder …: simply not kept
        pass
    _bound(folder)


def _bound(folder: int) -> None:
    """Evict after every save, written or not: a save that failed on a full disk is when
    the temporaries killed runs left most need to go."""
    try:
        diskcache.evict(folder, KIND, MAX_ENTRIES, MAX_TOTAL_BYTES)
    except Exception:  # a folder gone or unreadable: nothing to bound
        pass


def _int(value) -> bool:
    return type(value) is int and value >= 0


def _str(value) -> bool:
    return type(value) is str


def _span(value) -> Span:
    if not (type(value) is tuple and len(value) == 5 and _str(value[0])
            and all(_int(v) for v in value[1:])):
        raise ValueError("span")
    return Span(*value)


def _diagnostic(value) -> Diagnostic:
    if not (type(value) is tuple and len(value) == 7 and all(_str(v) for v in value[:3])
            and value[1] in (ERROR, WARNING) and _str(value[4]) and type(value[5]) is list
            and type(value[6]) is list and all(_str(v) for v in value[6])):
        raise ValueError("diagnostic")
    notes = []
    for note in value[5]:
        if not (type(note) is tuple and len(note) == 2 and _str(note[0])):
            raise ValueError("note")
        notes.append(Note(note[0], None if note[1] is None else _span(note[1])))
    return Diagnostic(value[0], value[1], value[2], _span(value[3]), value[4], tuple(notes),
                      tuple(value[6]))


def _decode(payload: bytes) -> Summary | None:
    """The Summary an entry holds, or None when it is anything but the shape ``_save``
    writes."""
    try:
        data = diskcache.loads_literal(payload)
        if not (type(data) is dict and set(data) == {"files", "wanted", "diagnostics",
                                                     "blocked", "unanalysed", "sources"}):
            return None
        if not (_int(data["files"]) and _int(data["wanted"])
                and type(data["diagnostics"]) is list and type(data["blocked"]) is list
                and type(data["unanalysed"]) is list
                and type(data["sources"]) is dict
                and all(_str(k) and _str(v) for k, v in data["sources"].items())):
            return None
        return Summary([_diagnostic(d) for d in data["diagnostics"]], dict(data["sources"]),
                       data["files"], [_diagnostic(d) for d in data["blocked"]],
                       data["wanted"], [_diagnostic(d) for d in data["unanalysed"]])
    except Exception:
        return None
