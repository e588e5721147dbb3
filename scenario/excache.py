"""例のキャッシュ — the outcome of each example kept on disk, so that a lint of content
that did not change replays no battle.

An example is a seeded battle: what it gives (its failures) depends only on the tables it
is played on, its own spec, the code that plays it and the Python that runs it. So:

* The entry's key (``stage_key``) is the sha256 of the tables (their pickle without a
  memo: plain literals, equal bytes for equal data), of the source of every module of runtime/, scenario/ and contract/, and of
  Python's version. Any change to a page, an enemy, a deck or the balance changes the
  tables, and then **every** example is replayed (an example may meet any page: its deck,
  its draws, its enemy's moves). The key is in the entry's header (dsl.diskcache) and is
  compared before the rest is read.
* In the entry, each example's outcome is found by the sha256 of its spec (``spec_key``:
  the checked scenario, its name, path and lines included), so an edited example is
  replayed alone when the tables are the same.
* What is kept of an outcome is its failures only, as tuples of plain literals
  ``(line, col, message, expected, actual, end_col)``; passing and failing examples alike
  (a failing example fails again from the cache, with the same E044). An example whose
  run raised (an internal error) is not kept: it is played again next time. The events of
  the battle are not kept: a Result from the cache has none (the CLI never shows them;
  callers that want them do not ask for the cache).
* One entry per set of files linted (named by the sha256 of the working folder and the
  paths named), replaced by each run's outcomes; at most MAX_ENTRY_BYTES. In the subfolder
  ``examples`` (dsl.diskcache), at most MAX_ENTRIES entries and MAX_TOTAL_BYTES in all,
  the least recently used evicted.
* Nothing read is trusted before it is checked (``_decode``: every field of its type, an
  int not a bool …); an entry of any other shape is no entry: every example is played.
  ``JIBUNKI_NO_CACHE=1``, an unusable folder or any doubt: the examples are played.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from dsl import diskcache

FORMAT = b"jibunki-example-cache 1\n"
MAX_ENTRY_BYTES = 8 * 1024 * 1024
MAX_ENTRIES = 128
MAX_TOTAL_BYTES = 64 * 1024 * 1024
#: The cache's subfolder and its entries' prefix (dsl.diskcache).
KIND = "examples"
_TEMP_PREFIX = f".{KIND}-"
_ROOT = Path(__file__).resolve().parent.parent
#: The code an example's outcome depends on, besides the tables and the spec.
_CODE_FOLDERS = ("runtime", "scenario", "contract")

_code_digest: bytes | None = None


def code_digest() -> bytes:
    """The sha256 of the source of every module that plays an example, and of Python."""
    global _code_digest
    if _code_digest is None:
        _code_digest = diskcache.sources_digest(
            FORMAT, [path for folder in _CODE_FOLDERS
                     for path in sorted((_ROOT / folder).glob("*.py"))])
    return _code_digest


def _canonical(data) -> bytes:
    """The pickle of plain data without its memo: equal data, equal bytes, whichever
    objects it shares (a string from the parse cache or from the parser alike)."""
    import io

    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.fast = True  # no memo: no references to earlier objects (and no cycles)
    pickler.dump(data)
    return out.getvalue()


def stage_key(tables: dict) -> bytes:
    """The entry's key: the tables, the code, Python (hex, for the header)."""
    h = hashlib.sha256(code_digest())
    h.update(_canonical(tables))
    return h.hexdigest().encode("ascii")


def spec_key(spec: dict) -> str | None:
    """An example's own key (None: a spec that is not plain data, never cached)."""
    try:
        return hashlib.sha256(_canonical(spec)).hexdigest()
    except Exception:
        return None


def _entry_name(named) -> str:
    where = "\0".join([os.getcwd(), *(str(Path(p).resolve()) for p in named)])
    digest = hashlib.sha256(where.encode('utf-8', 'surrogatepass')).hexdigest()[:32]
    return f"{KIND}-{digest}{diskcache.ENTRY_SUFFIX}"


# ------------------------------------------------------------------ the shape

def _int(value) -> bool:
    return type(value) is int


def _opt(value, check) -> bool:
    return value is None or check(value)


def _str(value) -> bool:
    return type(value) is str


def _failure_ok(value) -> bool:
    return (type(value) is tuple and len(value) == 6 and _int(value[0]) and _int(value[1])
            and _str(value[2]) and _opt(value[3], _str) and _opt(value[4], _str)
            and _opt(value[5], _int))


def _decode(payload: bytes) -> dict[str, list[tuple]] | None:
    """spec key → failures, or None when the payload is anything else."""
    try:
        data = diskcache.loads_literal(payload)
    except Exception:
        return None
    if type(data) is not dict:
        return None
    for key, failures in data.items():
        if not (_str(key) and len(key) == 64 and type(failures) is list
                and all(_failure_ok(f) for f in failures)):
            return None
    return data


def encode_failures(result) -> list[tuple] | None:
    """A scenario.run.Result's failures as plain tuples, or None when they are not plain."""
    out = []
    for f in result.failures:
        row = (f.line, f.col, f.message, f.expected, f.actual, f.end_col)
        if not _failure_ok(row):
            return None
        out.append(row)
    return out


class ExampleCache:
    """The outcomes of one set of linted files: ``get`` before playing, ``put`` after,
    ``save`` at the end. Without a usable folder every ``get`` misses and nothing is saved."""

    def __init__(self, named, tables: dict):
        self._folder = diskcache.open_folder(KIND)
        self._name = _entry_name(named)
        self._key = b""
        self._found: dict[str, list[tuple]] = {}
        self._new: dict[str, list[tuple]] = {}
        if self._folder is None:
            return
        try:
            self._key = stage_key(tables)
            payload = diskcache.read_entry(self._folder, self._name, self._key, FORMAT,
                                           MAX_ENTRY_BYTES, touch=True)
            self._found = (_decode(payload) if payload is not None else None) or {}
        except Exception:
            self._found = {}
            self.close()

    def get(self, key: str | None) -> list[tuple] | None:
        """The failures kept for the example of this key (None: play it)."""
        if key is None or self._folder is None:
            return None
        found = self._found.get(key)
        if found is not None:
            self._new[key] = found
        return found

    def put(self, key: str | None, result) -> None:
        """Keep the outcome of an example just played."""
        if key is None or self._folder is None:
            return
        failures = encode_failures(result)
        if failures is not None:
            self._new[key] = failures

    def save(self) -> None:
        """Write this run's outcomes (only when they differ from the entry read)."""
        if self._folder is None:
            return
        try:
            if self._new != self._found:
                payload = pickle.dumps(self._new, protocol=5)
                if _decode(payload) is not None:
                    diskcache.write_entry(self._folder, self._name, self._key, payload,
                                          FORMAT, MAX_ENTRY_BYTES, _TEMP_PREFIX)
            # Every run, written or not (unchanged, or a full disk): the temporaries
            # killed runs left go, and the entries are kept within their bounds.
            diskcache.evict(self._folder, KIND, MAX_ENTRIES, MAX_TOTAL_BYTES)
        except Exception:
            pass
        finally:
            self.close()

    def close(self) -> None:
        """Close the cache folder (nothing more is read or saved)."""
        if self._folder is not None:
            os.close(self._folder)
            self._folder = None
