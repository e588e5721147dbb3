"""結果の置き場 — what both labs keep of the runs they played, on disk, by key: the battles of
``jibunki sim`` (sim/cache.py) and the deals of ``jibunki journey report``
(journey/lab/cache.py). Each of those says what its key holds; this module is what they
share.

* ``Store``: results in *series* — one entry per key, each a map seed → result — read from
  disk the first time a key is asked and written back (``flush``) when it gained results;
  each lab's cache is one, saying how a result is kept (``encode``, ``decode``).
  The folder and its entries are dsl/diskcache.py's: ``$XDG_CACHE_HOME/jibunki`` or
  ``~/.cache/jibunki``, private, every entry checked (owner, mode, size, key, sha256) before
  a byte is used and unpickled without globals; then each result is checked by the lab's
  own ``decode`` — an entry holding anything it refuses is no entry. Each store keeps
  its entries in a subfolder named by its ``kind`` (``sim``, ``journey``). Without a folder
  (``JIBUNKI_NO_CACHE=1``, no HOME, an unwritable folder …) the store is in memory only:
  the results are played, never an error. ``close`` evicts the least recently used
  entries beyond ``max_entries``.
* ``code_digest``: the sha256 of the code a result depends on — some files whole, and of
  the module that holds the lab's ``work`` only the definitions ``work`` reaches by name
  (a change to how the report is drawn replays nothing; a change to anything ``work``
  calls or reads replays everything).
* ``canonical``: the bytes a key is made of, equal for equal plain data.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import os
import pickle
from pathlib import Path
from typing import Callable

from dsl import diskcache

_ROOT = Path(__file__).resolve().parent.parent
#: A series holds at most a few thousand small results: far below this.
MAX_ENTRY_BYTES = 16 * 1024 * 1024
#: The largest magnitude a number kept in an entry may have (turns, HP, damage, positions,
#: a score: all far below it): a result's ``sound`` check refuses one past it — an entry
#: holding it was not written by the lab, whatever its checksum says.
SOUND_LIMIT = 10 ** 12


def canonical(value) -> bytes:
    """``value`` as JSON with sorted keys (tuples as lists; anything else by its repr)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=repr).encode("utf-8", "surrogatepass")


#: Values of a module whose repr is their whole meaning (a constant ``work`` reads).
_PLAIN = (int, float, str, bytes, bool, type(None), tuple, frozenset)


def reached(module, roots) -> dict[str, object]:
    """The definitions of ``module`` (functions, classes and plain constants) that the
    names ``roots`` reach: each root, and every global of the module named anywhere in the
    source of one reached (its body, defaults, annotations), transitively. What a
    definition imports from elsewhere is not followed: those files are the caller's part
    of the digest."""
    found: dict[str, object] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            if getattr(value, "__module__", None) != module.__name__:
                continue
            found[name] = value
            tree = ast.parse(inspect.getsource(value))
            todo.extend(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
        elif isinstance(value, _PLAIN):
            found[name] = value
        elif isinstance(value, dict):  # a dispatch table: what it maps to is reached
            found[name] = value
            todo.extend(getattr(item, "__name__", "") for pair in value.items() for item in pair)
    return found


def _described(value) -> str:
    """A constant as the digest reads it: its repr, a dispatch table's functions and
    classes by name (their repr holds an address, which differs from run to run)."""
    if isinstance(value, dict):
        return repr(sorted((getattr(k, "__qualname__", repr(k)), getattr(v, "__qualname__", repr(v)))
                           for k, v in value.items()))
    return repr(value)


def code_digest(magic: bytes, files, module_name: str, roots) -> bytes:
    """The sha256 of Python's version and the project's ``files`` — (folder, glob pattern)
    pairs — (diskcache.sources_digest), and of the source (or, for a constant, the repr)
    of each definition of the module ``module_name`` that ``roots`` reach. Raises OSError
    when a file cannot be read: the caller keeps no cache then."""
    import importlib

    module = importlib.import_module(module_name)
    paths = [path for folder, pattern in files for path in sorted((_ROOT / folder).glob(pattern))]
    hasher = hashlib.sha256(diskcache.sources_digest(magic, paths))
    for name, value in sorted(reached(module, roots).items()):
        diskcache.part(hasher, name.encode("utf-8"))
        text = inspect.getsource(value) if inspect.isfunction(value) or inspect.isclass(value) \
            else _described(value)
        diskcache.part(hasher, text.encode("utf-8", "surrogatepass"))
    return hasher.digest()


def opened(kind: str, make: Callable[[int | None], object]):
    """``make(folder)`` on a descriptor of the subfolder ``kind`` of the user's cache
    folder, or ``make(None)`` (in memory only) when there is none or anything fails."""
    folder = None
    try:
        folder = diskcache.open_folder(kind)
        return make(folder)
    except Exception:
        if folder is not None:
            os.close(folder)
        return make(None)


class Store:
    """Results by key and seed. A lab's cache is a Store that says what is kept of a result
    (``encode``: plain data, or None for not kept) and what is rebuilt from it (``decode``:
    the result, or None for data it does not trust). Entries are named ``kind-`` + key,
    their temporaries ``.kind-…tmp``, in the subfolder ``kind``."""

    def __init__(self, magic: bytes, kind: str, folder: int | None = None,
                 max_entries: int = 4000):
        self.magic, self.kind = magic, kind
        self.max_entries = max_entries
        self._folder = folder
        self._entries: dict[str, dict[int, object]] = {}
        self._dirty: set[str] = set()
        #: Read nothing kept, keep what is played (``--no-cache``): a run that plays
        #: everything again leaves its results for the next run, which a cache left
        #: closed made play everything once more.
        self.refresh = False

    def encode(self, result):
        """The plain data kept of ``result`` (None: not kept)."""
        raise NotImplementedError

    def decode(self, data):
        """The result ``data`` was kept of, or None when it is not what ``encode`` gives."""
        raise NotImplementedError

    def series(self, key: str) -> dict[int, object]:
        """The results kept under ``key`` (hex), seed → result (read once, then shared)."""
        found = self._entries.get(key)
        if found is None:
            found = self._entries[key] = self._read(key)
        return found

    def put(self, key: str, seed: int, result) -> None:
        """Keep a result just played (written by ``flush``)."""
        self.series(key)[seed] = result
        self._dirty.add(key)

    def _read(self, key: str) -> dict:
        if self._folder is None or self.refresh:
            return {}
        try:
            payload = diskcache.read_entry(self._folder, self._name(key), key.encode("ascii"),
                                           self.magic, MAX_ENTRY_BYTES, touch=True)
            return {} if payload is None else self._results_of(payload)
        except Exception:  # any doubt: no entry
            return {}

    def _results_of(self, payload: bytes) -> dict:
        """The results an entry holds, or none when anything in it is not the shape
        ``flush`` writes — a list of (seed, data) — or data ``decode`` refuses."""
        data = diskcache.loads_literal(payload)
        if type(data) is not list:
            return {}
        out = {}
        for item in data:
            if not (type(item) is tuple and len(item) == 2 and type(item[0]) is int):
                return {}
            result = self.decode(item[1])
            if result is None:
                return {}
            out[item[0]] = result
        return out

    def flush(self) -> None:
        """Write the series that gained results (nothing without a folder; a write that
        fails is no error)."""
        dirty, self._dirty = self._dirty, set()
        if self._folder is None:
            return
        for key in sorted(dirty):
            try:
                kept = ((seed, self.encode(result))
                        for seed, result in sorted(self._entries[key].items()))
                payload = pickle.dumps([item for item in kept if item[1] is not None],
                                       protocol=5)
                diskcache.write_entry(self._folder, self._name(key), key.encode("ascii"),
                                      payload, self.magic, MAX_ENTRY_BYTES,
                                      f".{self.kind}-")
            except Exception:  # a full disk, a read-only folder …: simply not kept
                pass

    def close(self) -> None:
        """Write what is left, remove stale temporaries, evict, and close the folder."""
        try:
            self.flush()
            if self._folder is not None:
                diskcache.evict(self._folder, self.kind, self.max_entries)
        except Exception:
            pass
        finally:
            if self._folder is not None:
                os.close(self._folder)
                self._folder = None

    def _name(self, key: str) -> str:
        return entry_name(self.kind, key)


def entry_name(kind: str, key: str) -> str:
    """The file of the entry of ``key`` (hex) of a store of ``kind``."""
    return f"{kind}-{key[:40]}{diskcache.ENTRY_SUFFIX}"
