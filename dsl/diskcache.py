"""キャッシュ置き場 — the user's private cache folder, and files in it checked before use.

Every cache of jibunki goes through here: the LALR tables of the grammar
(``dsl.parser.build_parser``), each file's parse (``dsl.parsecache``), a lint's findings
(``scenario.lintcache``), the examples' outcomes (``scenario.excache``) and the labs'
results (``sim.store``). The folder is ``$XDG_CACHE_HOME/jibunki`` or
``$HOME/.cache/jibunki``, made 0700 and opened without following a link; every later step
names files relative to that descriptor. Each cache but the grammar's keeps its entries
in a subfolder of its own (``open_folder(kind)``, made and checked the same way), so that
bounding one (``evict``) lists its own entries, not every cache's, and each is bounded:
a cache that grew without end made every later run list and stat more. An entry is
opened without following a link and without blocking, and the opened file is checked — a
regular file of our own, not writable by others, of a bounded size — before a byte of it
is read. It holds a magic line, the key it was written for and the sha256 of its payload;
the payload is plain data, unpickled without any globals (``loads_literal``). Entries are
written through a private temporary file renamed into place. ``JIBUNKI_NO_CACHE=1`` turns
caching off. Nothing here raises: whatever is doubtful means "no cache".
"""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

from contract.disk import read_up_to

#: A temporary cache file this old belongs to no running process (one that was killed).
STALE_TEMP_SECONDS = 600

#: Without these the checks cannot be made on what is opened (Windows): no cache.
SAFE_OPENS = (hasattr(os, "O_NOFOLLOW") and os.open in os.supports_dir_fd
              and os.rename in os.supports_dir_fd  # os.replace is renameat too
              and os.mkdir in os.supports_dir_fd)

#: The suffix of every entry; a cache's entries are named ``<kind>-…`` + this, in the
#: subfolder ``<kind>``, and its temporaries ``.<kind>-…tmp``.
ENTRY_SUFFIX = ".cache"
_FOLDER_FLAGS = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0))


def cache_folder() -> Path | None:
    """``$XDG_CACHE_HOME/jibunki``, else ``$HOME/.cache/jibunki``; None when the cache is
    off, neither variable holds an absolute path, or HOME names no folder (a home that
    does not exist is never made: a mistyped HOME must not leave folders behind). The
    password database is not asked: a uid without an entry is common in containers, and
    no cache is the safe answer."""
    if os.environ.get("JIBUNKI_NO_CACHE"):
        return None
    # The XDG spec: a relative path in XDG_CACHE_HOME is invalid and must be ignored.
    for base, tail in ((os.environ.get("XDG_CACHE_HOME"), ()),
                       (os.environ.get("HOME"), (".cache",))):
        if base and os.path.isabs(base):
            if tail and not os.path.isdir(base):
                return None
            return Path(base, *tail, "jibunki")
    return None


def private(info) -> bool:
    """Ours alone: owned by the effective user and writable by nobody else. (Root owns
    what root makes, so for root this refuses exactly the files other users planted.)"""
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def open_folder(kind: str | None = None) -> int | None:
    """A descriptor of the cache folder — of its subfolder ``kind`` when one is named —
    made 0700 if missing, or None when it is not a real directory of our own that nobody
    else can write. Every later step opens names relative to this descriptor, so the
    folder checked is the folder used: renaming another folder into its place afterwards
    changes nothing. The caller closes it."""
    folder = cache_folder()
    if folder is None or not SAFE_OPENS:
        return None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        fd = os.open(folder, _FOLDER_FLAGS)  # a symlink in place of the folder: ELOOP, no cache
    except Exception:  # read-only, not a folder, a NUL in the variable …: no cache
        return None
    fd = _ours(fd)
    if fd is None or kind is None:
        return fd
    try:
        return _subfolder(fd, kind)
    finally:
        os.close(fd)


def _ours(fd: int) -> int | None:
    """``fd`` when it is a directory of our own that nobody else can write; else closed."""
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode) and private(info):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _subfolder(root: int, kind: str) -> int | None:
    """The subfolder ``kind`` of the cache folder ``root``, checked as the folder is. Before
    it is made, the entries of that kind an older jibunki kept in the folder itself are
    removed (nothing would read or evict them again) — before, so that a run killed
    while removing them leaves the rest to the next run, which still finds no subfolder."""
    try:
        try:
            fd = os.open(kind, _FOLDER_FLAGS, dir_fd=root)
        except FileNotFoundError:
            _remove_flat_entries(root, kind)
            try:
                os.mkdir(kind, 0o700, dir_fd=root)
            except FileExistsError:  # another run made it meanwhile
                pass
            fd = os.open(kind, _FOLDER_FLAGS, dir_fd=root)
    except Exception:  # a file or a link in its place, a read-only folder …: no cache
        return None
    return _ours(fd)


def _remove_flat_entries(root: int, kind: str) -> None:
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        if ((name.startswith(f"{kind}-") and name.endswith(ENTRY_SUFFIX))
                or (name.startswith(f".{kind}-") and name.endswith(".tmp"))):
            unlink_quietly(root, name)


class LiteralUnpickler(pickle.Unpickler):
    """Unpickles plain data only. What the caches hold is dicts, lists, tuples, strings,
    numbers, booleans and None, which a pickle builds without naming any global; a
    pickle that names one (to call it, the only way a pickle runs code) is refused."""

    def find_class(self, module, name):
        """Refuses every global: plain data names none."""
        raise pickle.UnpicklingError(f"global {module}.{name} in a jibunki cache")

    def persistent_load(self, pid):
        """Refuses every persistent id: plain data has none."""
        raise pickle.UnpicklingError("persistent id in a jibunki cache")


def loads_literal(payload: bytes):
    """The plain data pickled in ``payload``; raises (UnpicklingError …) on anything else."""
    import io

    return LiteralUnpickler(io.BytesIO(payload)).load()


def _header(magic: bytes, key: bytes) -> bytes:
    return magic + key + b"\n"


def read_entry(folder: int, name: str, key: bytes, magic: bytes, max_bytes: int,
               touch: bool = False) -> bytes | None:
    """The payload of entry ``name`` of the folder, or None for a missing, foreign, odd,
    oversized, damaged file or one written for another key.

    The file is opened without following a symlink and without blocking (a FIFO would
    otherwise wait for a writer forever), and the opened file is checked — a regular
    file of our own, not writable by others, of at most ``max_bytes`` — before a byte
    is read: checking the name and then opening it would leave a window to swap the
    file. ``touch``: a file that passed every check gets a new mtime (its last use, for
    evicting the least recently used)."""
    import hashlib

    flags = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, dir_fd=folder)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not (stat.S_ISREG(info.st_mode) and private(info)
                and info.st_size <= max_bytes):
            return None
        # The header first: an entry of another key (the file's text changed) is refused
        # after a few dozen bytes, not after reading and hashing all of it.
        header = _header(magic, key)
        head = read_up_to(fd, len(header) + 65)
        if not head.startswith(header) or len(head) != len(header) + 65 or head[-1:] != b"\n":
            return None
        payload = read_up_to(fd, max_bytes + 1 - len(head))  # never more than the bound,
        if len(head) + len(payload) > max_bytes:              # even from a file that grows
            return None
        if hashlib.sha256(payload).hexdigest().encode("ascii") != head[len(header):-1]:
            return None  # torn or damaged: a cache written by a run that was killed
        if touch:
            try:
                os.utime(fd)
            except OSError:
                pass
        return payload
    except Exception:  # anything doubtful: no cache
        return None
    finally:
        os.close(fd)


def write_entry(folder: int, name: str, key: bytes, payload: bytes, magic: bytes,
                max_bytes: int, temp_prefix: str) -> bool:
    """Save ``payload`` as entry ``name`` through a private temporary file (0600, created
    anew, never through a link, named ``temp_prefix…tmp``) renamed into place, so a
    reader sees the old file or the whole new one. False when it was not saved (over
    ``max_bytes``, a read-only folder, a full disk): that is no error."""
    import hashlib
    import secrets

    digest = hashlib.sha256(payload).hexdigest().encode("ascii")
    data = _header(magic, key) + digest + b"\n" + payload
    if len(data) > max_bytes:
        return False
    tmp = f"{temp_prefix}{secrets.token_hex(8)}.tmp"
    fd = None
    try:
        flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                 | getattr(os, "O_CLOEXEC", 0))
        fd = os.open(tmp, flags, 0o600, dir_fd=folder)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        fd = None
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        tmp = None
        return True
    except Exception:
        return False
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass


def remove_stale_temps(folder: int, temp_prefix: str, names: list[str] | None = None) -> None:
    """Temporary cache files left by killed runs (only names ``temp_prefix…tmp``, only old
    ones: a young one may belong to another run writing the cache right now). ``names``:
    the folder's listing, when the caller has it already."""
    import time

    if names is None:
        try:
            names = os.listdir(folder)
        except OSError:
            return
    now = time.time()
    for entry in names:
        if not (entry.startswith(temp_prefix) and entry.endswith(".tmp")):
            continue
        try:
            info = os.stat(entry, dir_fd=folder, follow_symlinks=False)
            if now - info.st_mtime > STALE_TEMP_SECONDS:
                os.unlink(entry, dir_fd=folder)
        except OSError:
            pass


def entries_by_use(folder: int, names: list[str]) -> list[tuple[float, str, int]]:
    """The regular files ``names`` of ``folder`` as (last used, name, size), the most
    recently used first — what a cache evicts from the end of (a name gone or turned
    into something else meanwhile is left out)."""
    found = []
    for name in names:
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found.append((info.st_mtime, name, info.st_size))
    found.sort(reverse=True)
    return found


def evict(folder: int, kind: str, max_entries: int, max_bytes: int | None = None,
          weigh: bool = True) -> None:
    """Bound the cache of ``kind`` in its subfolder ``folder``: temporaries of killed runs,
    then the least recently used entries beyond ``max_entries`` (down to three quarters of
    it, so that this is not done again on every run) or beyond ``max_bytes`` in all.
    ``weigh=False``: the caller knows the entries can hold no more than ``max_bytes``
    while they are no more than ``max_entries``, and they are then not stat'ed."""
    names = os.listdir(folder)
    remove_stale_temps(folder, f".{kind}-", names)
    entries = [n for n in names if n.startswith(f"{kind}-") and n.endswith(ENTRY_SUFFIX)]
    if len(entries) <= max_entries and (max_bytes is None or not weigh):
        return
    found = entries_by_use(folder, entries)  # the most recently used first
    keep = max_entries if len(found) <= max_entries else max_entries * 3 // 4
    total = 0
    for count, (_, name, size) in enumerate(found):
        total += size
        if count >= keep or (max_bytes is not None and total > max_bytes):
            unlink_quietly(folder, name)


def unlink_quietly(folder: int, name: str) -> None:
    """Remove an entry another run may have removed first."""
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        pass


# ------------------------------------------------------------------ keys


def part(hasher, data: bytes) -> None:
    """Feed one length-prefixed part to ``hasher`` (parts cannot run into each other)."""
    hasher.update(len(data).to_bytes(8, "big"))
    hasher.update(data)


def sources_digest(magic: bytes, paths) -> bytes:
    """What made a cache entry, as a sha256: the entry format ``magic``, Python's version
    and, in order, each file's folder and name and its bytes. Every cache keys on it, so
    an entry made by other code is never used. A file that cannot be read raises
    OSError: the caller keeps no cache then."""
    import hashlib
    import sys

    hasher = hashlib.sha256(magic)
    part(hasher, sys.version.encode("utf-8"))
    for path in paths:
        path = Path(path)
        part(hasher, f"{path.parent.name}/{path.name}".encode("utf-8", "surrogatepass"))
        part(hasher, path.read_bytes())
    return hasher.digest()
