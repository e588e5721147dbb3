"""コンパイル — content → validated tables → ``generated/*.py`` (or JSON), atomically.

``compile_content`` runs every pass of the pipeline (compiler.pipeline: check, lower,
validate, emit) in memory; ``write_atomically`` writes the files through temporary names,
the manifest last. schemas/ is written from the contract classes (``write_schemas``) and
compared with them (``stale_schemas``, for ``jibunki compile --check``).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import stat
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from contract import disk
from dsl.diagnostics import Diagnostic

from .emit import (MANIFEST_JSON, MANIFEST_NAMES, MANIFEST_PY, TABLES, manifest_of,
                   render_json, render_manifest_module, render_module, utf8)
from .validate import SchemaViolation, contract_errors, literal_problems, validate

__all__ = ["MANIFEST_JSON", "MANIFEST_PY", "SCHEMA_DIR", "TABLES", "Compiled",
           "SchemaViolation", "compile_content", "contract_errors", "manifest_of",
           "render_json", "render_manifest_module", "render_module", "schema",
           "schema_errors", "stale_files", "stale_schemas", "validate", "write_atomically",
           "write_schemas"]

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"

@dataclass
class Compiled:
    """A compilation in memory: its diagnostics and, when they hold no error, its files."""

    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    #: File name → its bytes as written (UTF-8): what write_atomically and stale_files
    #: take as they are (``files`` is the same as text).
    file_bytes: dict[str, bytes] = field(default_factory=dict)
    tables: dict[str, dict] = field(default_factory=dict)
    #: The checked 例 of the content (not run), for the catalog: filled by the examples
    #: stage (scenario.stage.compile_content); the compiler never reads them.
    examples: list[dict] = field(default_factory=list)
    #: The folder the tables' source paths are relative to (compiler.sources.shown_path).
    root: Path | None = None
    #: How many content files were checked — lint's count, with the files that could not
    #: be read as text (``sources`` holds only the ones that could).
    checked: int = 0

    def shown(self, path: str) -> str:
        """A source path as the tables show it (compiler.sources.shown_path)."""
        from .sources import shown_path

        return path if self.root is None else shown_path(path, self.root)

    @property
    def ok(self) -> bool:
        """True when the compilation holds no error and produced files to write."""
        return not any(d.is_error for d in self.diagnostics) and bool(self.file_bytes)

    @functools.cached_property
    def files(self) -> dict[str, str]:
        """File name → text, decoded on first use. The compile keeps bytes (``file_bytes``:
        the pages of 10,000 pages are 25 MB of UTF-8, 43 MB as a str); this view is for
        reading a file's text, not for writing the set."""
        return {name: data.decode("utf-8") for name, data in self.file_bytes.items()}


def compile_content(content: Path, fmt: str = "py") -> Compiled:
    """Compile the content folder in memory: every pass of the pipeline, then the files
    of ``fmt``. Nothing is written here (``write_atomically`` does)."""
    from .lint import check

    result = check([content], project=content, fmt=fmt)
    return Compiled(result.diagnostics, result.sources, result.compilation.files, result.tables,
                    root=result.compilation.root, checked=result.files)


# ------------------------------------------------------------------- schemas


def _registry():
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def schema(name: str) -> dict:
    """The JSON Schema of table ``name``, as schemas/ holds it."""
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


def stale_schemas() -> list[str]:
    """The files of schemas/ that differ from what the contract classes generate."""
    from contract.schema import schema_files

    return stale_files(SCHEMA_DIR, schema_files())


def write_schemas() -> list[str]:
    """Write schemas/ from the contract classes (only the files that changed)."""
    from contract.schema import schema_files

    return write_atomically(SCHEMA_DIR, schema_files())


def schema_errors(name: str, table: dict) -> list[str]:
    """Readable violations of table ``name`` by schemas/, as a game client checks it with a
    JSON Schema validator: ``pages: pages.tabidachi.faces.future: …`` (the compiler's own
    check is ``validate``, by the classes schemas/ is generated from).

    Besides the schema, every value must be a plain finite literal: the table is
    rendered with ``repr`` and read back with ``ast.literal_eval`` (and as JSON), where
    ``inf``/``nan`` would be a name, not a number, and a tuple would not round-trip.
    """
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema(name), registry=_registry())
    found = []
    for err in sorted(validator.iter_errors(table), key=lambda e: list(map(str, e.path))):
        where = ".".join(str(p) for p in err.absolute_path) or "(top)"
        found.append(f"{name}: {where}: {err.message}")
    found.extend(f"{name}: {where}: {problem}" for where, problem in literal_problems(table))
    return found


# -------------------------------------------------------------------- writing


#: The names write_atomically gives its temporaries (tempfile.mkstemp: 8 characters of
#: [a-z0-9_]); only files of this pattern, for a name it is writing, are cleaned up.
_TEMP_NAME = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.(?:tmp|old)")
#: A writer waits this long for another writer of the same folder, then gives up.
LOCK_WAIT_SECONDS = 30.0


def write_atomically(out: Path, files: dict[str, str | bytes]) -> list[str]:
    """Write every file through a temporary name in ``out``; returns the changed names.
    A file is its text or its bytes as written (UTF-8, ``Compiled.file_bytes``).

    The set switches as one, as far as a process can make it:

    - every temporary is written and flushed to disk before any is renamed, so an error
      or a signal while writing leaves the previous files whole;
    - the renames run with SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGTSTP held
      (contract.disk.signals_held): such a
      signal takes effect after the last rename (Ctrl-C then raises KeyboardInterrupt
      over a complete new set), and an error among the renames puts back the files
      already replaced;
    - the manifest (``__init__.py`` / ``manifest.json``) is renamed last, after the
      folder is synced: SIGKILL or a power cut between two renames leaves tables that do
      not match the manifest that stands, and runtime.tables.load() says so.

    Temporaries left by an earlier run that was killed are removed first. Writers of one
    folder take turns (an exclusive lock on it), so a temporary present while we hold the
    lock belongs to no live run. A symlink, a device, a FIFO or a folder in place of a
    file is refused before anything is written (contract.disk.check_target: never written
    through, never replaced). Errors are OSError (the caller says what went wrong; a
    contract.disk.DiskError names the file in Japanese).
    """
    disk.make_folder(out)  # a file in the way is named, not "already there"
    mode = 0o666 & ~_umask()  # mkstemp makes 0600 files; tables are ordinary files
    order = sorted(files, key=lambda name: name in MANIFEST_NAMES)  # stable: manifest last
    with _folder_lock(out) as folder:
        _remove_stray_temps(out, files)
        found = {name: disk.check_target(out / name) for name in order}
        staged: list[tuple[str, Path]] = []
        previous: dict[str, bytes | None] = {}
        changed: list[str] = []
        try:
            for name in order:
                data, target = utf8(files[name]), out / name
                if _holds(target, data):
                    continue
                # a table made read-only is a lock too, heeded as contract.disk heeds it
                disk.not_read_only(target, found[name])
                previous[name] = _previous_bytes(target)
                fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out)
                staged.append((name, Path(tmp)))  # before writing: cleaned up if writing fails
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(tmp, mode)
            with disk.signals_held():
                try:
                    for name, tmp in staged:
                        if name in MANIFEST_NAMES:
                            _sync_folder(folder)  # the tables' renames reach the disk first
                        os.replace(tmp, out / name)
                        changed.append(name)
                    _sync_folder(folder)
                except BaseException:
                    _restore(out, changed, previous)
                    raise
        finally:
            for _, tmp in staged:
                if tmp.exists():
                    tmp.unlink()
    return changed


@contextmanager
def _folder_lock(out: Path):
    """An exclusive lock on ``out`` (flock of the folder itself) while writing it; yields
    the folder's descriptor, or None where folders cannot be opened or locked. Polls
    rather than blocks: a writer stopped with Ctrl-Z must not hang every later one."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        yield None
        return
    try:
        if fcntl is not None:
            deadline = time.monotonic() + LOCK_WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        from contract.disk import DiskError

                        # its own words, which a plain OSError's errno would replace (使用中です)
                        raise DiskError(out, "別の jibunki がこのフォルダに書き込み中です"
                                        f"（{LOCK_WAIT_SECONDS:.0f} 秒待ちました）",
                                        errno.EBUSY) from None
                    time.sleep(0.05)
                except OSError:  # a file system without locks: write unlocked
                    break
        yield fd
    finally:
        os.close(fd)  # releases the lock


def _sync_folder(folder: int | None) -> None:
    """Flush the folder's entries (the renames) to disk. Best effort: some file systems
    refuse fsync on a folder, and the renames themselves have already happened."""
    if folder is None:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass


def _remove_stray_temps(out: Path, files: dict[str, str]) -> None:
    """Temporaries of an earlier run that was killed before it could remove them."""
    try:
        entries = list(os.scandir(out))
    except OSError:
        return
    for entry in entries:
        match = _TEMP_NAME.fullmatch(entry.name)
        if match is None or match["name"] not in files:
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def _previous_bytes(target: Path) -> bytes | None:
    """What to put back if the rename phase fails: a regular file's bytes, else None."""
    try:
        if stat.S_ISREG(os.lstat(target).st_mode):
            return target.read_bytes()
    except OSError:
        pass
    return None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _holds(target: Path, data: bytes) -> bool:
    """Whether the file already reads as ``data`` (UTF-8 bytes) — as its text read back
    would: line ends \r\n or \r read as \n. False when it is missing, not a regular file
    (a FIFO would block the read) or not that text: then it is rewritten.

    Compared as bytes, not decoded: a decoded copy of the pages of 10,000 pages is 43 MB.
    The same answer: a \r byte is never part of another character in UTF-8, so turning
    line ends to \n on the bytes is what reading the text does, and bytes equal to valid
    UTF-8 are valid UTF-8."""
    try:
        if not stat.S_ISREG(os.lstat(target).st_mode):
            return False
        current = target.read_bytes()
    except OSError:
        return False
    if b"\r" in current:
        current = current.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return current == data


def _restore(out: Path, replaced: list[str], previous: dict[str, bytes | None]) -> None:
    """Best effort: give back the previous content of the files already replaced, the
    last replaced first. Whatever cannot be put back stays detectable: the manifest that
    stands is the old one until the new one was renamed."""
    for name in reversed(replaced):
        target, old = out / name, previous[name]
        try:
            if old is None:
                target.unlink()
                continue
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".old", dir=out)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(old)
                os.chmod(tmp, stat.S_IMODE(target.stat().st_mode))
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
        except OSError:
            try:  # renaming is what failed: put the bytes back in place, not atomically
                if old is not None:
                    target.write_bytes(old)
            except OSError:
                pass


def stale_files(out: Path, files: dict[str, str | bytes]) -> list[str]:
    """Names of the files in ``out`` that differ from (or lack) the compiled text (or its
    bytes, ``Compiled.file_bytes``)."""
    return [name for name, data in files.items() if not _holds(out / name, utf8(data))]
