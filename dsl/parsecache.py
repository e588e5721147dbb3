"""構文キャッシュ — each file's parse kept on disk, so only changed files are parsed again.

``ParseCache.parse(text, path, suggest)`` gives exactly what ``dsl.parser.parse`` gives —
the AST, the diagnostics and the damaged line ranges — reading it from the user's private
cache folder (``dsl.diskcache``: the folder and every file in it are checked as for the
grammar's tables) when an entry for this very input is there, else parsing and saving it.

* The key is the sha256 of the input: the implementation (``_fingerprint``: the source of
  every dsl/ module and of the grammar, of the contract/ modules dsl/ reads — the
  vocabulary among them —, lark's version, Python's; ``implementation_paths``), the
  ``suggest`` function (by name and module source), the path as diagnostics show it and
  the file's exact text. It is stored in the entry and compared before the rest is read.
* One entry per path (the file is named by the path's absolute form: the newest parse of
  it replaces the one before), in the subfolder ``parse``; at most MAX_ENTRIES entries and
  MAX_TOTAL_BYTES in all, the least recently used evicted; each at most MAX_ENTRY_BYTES.
  Stale temporaries are removed.
* Nothing read is trusted before it is checked. An entry is a plain literal tree (tuples,
  lists, strings, numbers, booleans, None; unpickled without globals): a node is
  ``(class name, field, …)``, a tuple of the AST is a list. It is rebuilt through an
  explicit allow-list of classes (``_classes``), each field checked against its annotation
  as it is rebuilt — an ``int`` field takes an int and not a bool, a ``str`` field a str,
  ``tuple[Name, ...]`` a list of Name nodes — and any mismatch means "no entry": the file
  is parsed. What is saved passes the same checks (``encode``), so a parse that holds
  anything else (a lark Token for a str) is simply not saved.
* A process remembers the parses it read or saved (``_MEMO``): a file linted again in
  it (the language server, a watch, a run of the tests) is then neither read nor decoded
  while its entry is the very file the process last touched (inode, size and an mtime
  it set to the nanosecond); and the same input under another absolute path (a copy of
  the content) is saved from memory rather than parsed.
* ``JIBUNKI_NO_CACHE=1``, an unusable folder or any doubt: the file is parsed; never an error.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import sys
import time
import types
import typing
from collections import OrderedDict
from functools import cache

from . import diskcache

FORMAT = b"jibunki-parse-cache 1\n"  # the entry's magic line; a new format, a new number
#: An entry is about 2.6 times its file's UTF-8 size: one of 2 MiB (compiler.read's
#: bound) about 6 MiB.
MAX_ENTRY_BYTES = 16 * 1024 * 1024
MAX_ENTRIES = 256
MAX_TOTAL_BYTES = 64 * 1024 * 1024
#: A run that saved less than this (and left no more than MAX_ENTRIES) does not stat the
#: other entries: MAX_ENTRIES entries of such runs hold MAX_TOTAL_BYTES at most, so the
#: folder never holds much more than twice that.
_SCAN_AFTER_BYTES = 256 * 1024
#: The cache's subfolder and its entries' prefix (dsl.diskcache).
KIND = "parse"
_TEMP_PREFIX = f".{KIND}-"
_ENTRY_PREFIX, _ENTRY_SUFFIX = f"{KIND}-", diskcache.ENTRY_SUFFIX


#: The parses this process read from or saved to the cache, by (folder, entry name):
#: what an entry of the folder holds, kept as the tree it decodes to — a file linted again
#: in one process (the language server, a watch, a test run) is then neither read nor
#: decoded, only its file stat'ed. The tree is frozen (dsl.ast), so it is shared.
_MEMO: OrderedDict = OrderedDict()
#: The entry name each input (its key) was last remembered under, by folder: a copy of
#: the content in another folder (its files under other absolute paths, the same paths
#: as shown and the same texts) is saved from it rather than parsed (``_copy``).
_NAMES: dict = {}
#: Bounds of what is remembered: entries, and their payloads' bytes each and in all (a
#: tree in memory is a few times its payload; the bundled content's is some 0.4 MB).
#: Whether this platform sets a file's times by its folder's descriptor without following
#: a link (os.utime's dir_fd and follow_symlinks): where it does not, nothing is kept.
_TOUCHES_IN_FOLDER = os.utime in os.supports_dir_fd and os.utime in os.supports_follow_symlinks
MEMO_ENTRIES = 512
MEMO_MAX_BYTES = 256 * 1024
MEMO_TOTAL_BYTES = 16 * 1024 * 1024


class Refused(Exception):
    """A value outside the schema: an entry not to use, or a parse not to save."""


# ------------------------------------------------------------------ the schema


def _classes() -> tuple[type, ...]:
    """The allow-list: the only classes an entry can build — every dataclass of the AST
    module (dsl/ast.py) and of dsl/diagnostics.py, in the order they are defined, less
    the item nodes the parse cache may not hold (``_refused``). A new node is allowed by
    being written there; ``_Schema`` still checks each field's annotation."""
    from . import ast, diagnostics

    refused = _refused()
    return tuple(cls for module in (ast, diagnostics) for cls in vars(module).values()
                 if isinstance(cls, type) and dataclasses.is_dataclass(cls)
                 and cls.__module__ == module.__name__ and cls not in refused)


def _refused() -> frozenset[type]:
    """The AST classes of the item kinds the parse cache may not hold (contract.kinds:
    ``cached``): a parse holding one is not saved, and no entry can build one."""
    from contract import kinds

    from . import ast

    return frozenset(getattr(ast, k.node) for k in kinds.ITEM_KINDS if not k.cached)


_PRIMITIVES = (str, int, float, bool, type(None))


def _members(tp) -> tuple:
    """The members of a union annotation (``X | Y``, ``Union[X, Y]``), else ``(tp,)``."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return typing.get_args(tp)
    return (tp,)


def _sequence_of(tp):
    """X of ``tuple[X, ...]``, else None."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def _fixed_of(tp):
    """(X, Y, …) of ``tuple[X, Y, …]`` (a fixed length), else None."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and args and Ellipsis not in args:
        return args
    return None


class _Schema:
    """An encoder and a decoder for every class of the allow-list, made from the classes'
    field annotations (typing.get_type_hints). Anything an annotation names that is not
    a primitive, an allowed class, ``tuple[X, ...]``, ``tuple[X, Y]`` or a union of these
    is an error here (a new kind of field must be taught to the cache, never guessed).

    The decoders of the classes are generated source (as dataclasses makes ``__init__``),
    one function per class, written from the annotations alone — nothing of an entry is
    ever part of it: ``_class_source``. Unions and tuples are decoded by closures."""

    def __init__(self, classes, refused: frozenset = frozenset()):
        self.refused = refused  # classes a union may name that are never encoded nor built
        self.fields: dict[type, list[tuple[str, object]]] = {}
        for cls in classes:
            if not dataclasses.is_dataclass(cls) or not cls.__name__.isidentifier() \
                    or any(c.__name__ == cls.__name__ for c in self.fields):
                raise TypeError(f"{cls!r} cannot be in the parse cache's allow-list")
            fields = dataclasses.fields(cls)
            if not fields or any(not f.init for f in fields):
                raise TypeError(f"{cls!r} has no fields, or one outside __init__")
            hints = typing.get_type_hints(cls)
            self.fields[cls] = [(f.name, hints[f.name]) for f in fields]
        self.encoders: dict[type, object] = {}
        self._encoder_memo: dict = {}
        for cls in classes:
            self.encoders[cls] = self._node_encoder(cls)
        self.namespace: dict = {"Refused": Refused, "NoneType": type(None)}
        self._pending: list[tuple[str, object]] = []
        self._decoder_memo: dict = {}
        source = "\n".join(self._class_source(cls) for cls in classes)
        exec(compile(source, "<dsl.parsecache decoders>", "exec"), self.namespace)
        for name, tp in self._pending:
            self.namespace[name] = self._decoder(tp)
        self.decoders = {cls: self.namespace[f"d_{cls.__name__}"] for cls in classes}

    # ---------------------------------------------------------------- decoding

    def _class_source(self, cls) -> str:
        """``d_<class>(value)``: the node's shape (a tuple of its tag and one value per
        field), then every primitive field's type, exactly; the other fields decoded by
        their own functions as the node is built."""
        tag = cls.__name__
        self.namespace[f"k_{tag}"] = cls
        names = [f"a{i}" for i in range(len(self.fields[cls]))]
        checks, args = [], []
        for var, (field, tp) in zip(names, self.fields[cls]):
            kinds = self._primitives(tp)
            if kinds is not None and len(kinds) == 1:
                checks.append(f"type({var}) is not {next(iter(kinds)).__name__}")
                args.append(var)
            elif kinds is not None:
                self.namespace[f"t_{tag}_{field}"] = frozenset(kinds)
                checks.append(f"type({var}) not in t_{tag}_{field}")
                args.append(var)
            elif tp in self.fields:
                args.append(f"d_{tp.__name__}({var})")
            else:
                name = f"c_{len(self._pending)}"
                self._pending.append((name, tp))
                args.append(f"{name}({var})")
        lines = [f"def d_{tag}(v):",
                 f"    if type(v) is not tuple or len(v) != {len(names) + 1} or v[0] != {tag!r}:",
                 f"        raise Refused({tag!r})",
                 f"    _, {', '.join(names)}, = v"]
        if checks:
            lines += [f"    if {' or '.join(checks)}:", f"        raise Refused({tag!r})"]
        lines.append(f"    return k_{tag}({', '.join(args)})")
        return "\n".join(lines) + "\n"

    @staticmethod
    def _primitives(tp) -> set | None:
        """The primitive types of an annotation made of primitives only, else None."""
        members = _members(tp)
        if all(m in _PRIMITIVES for m in members):
            return {type(None) if m is None else m for m in members}
        return None

    def _decoder(self, tp):
        """The decoding function of values annotated ``tp`` (after the classes' exist)."""
        if tp not in self._decoder_memo:
            self._decoder_memo[tp] = self._make_decoder(tp)
        return self._decoder_memo[tp]

    def _make_decoder(self, tp):
        kinds = self._primitives(tp)
        if kinds is not None:
            return _primitive(kinds)
        if tp in self.fields:
            return self.namespace[f"d_{tp.__name__}"]
        item = _sequence_of(tp)
        if item is not None:
            decode_item = self._decoder(item)

            def decode_sequence(value):
                if type(value) is not list:
                    raise Refused("list")
                return tuple([decode_item(x) for x in value])
            return decode_sequence
        fixed = _fixed_of(tp)
        if fixed is not None:
            parts = [self._decoder(a) for a in fixed]

            def decode_fixed(value):
                if type(value) is not list or len(value) != len(parts):
                    raise Refused("list")
                return tuple([decode(x) for decode, x in zip(parts, value)])
            return decode_fixed
        primitives, by_tag, sequence = self._union_parts(tp)
        sequence = None if sequence is None else self._decoder(sequence)
        by_tag = {tag: self.namespace[f"d_{tag}"] for tag in by_tag}

        def decode_union(value):
            kind = type(value)
            if kind in primitives:
                return value
            if kind is tuple and value and type(value[0]) is str and value[0] in by_tag:
                return by_tag[value[0]](value)
            if kind is list and sequence is not None:
                return sequence(value)
            raise Refused(kind.__name__)
        return decode_union

    def _union_parts(self, tp):
        """(primitive types, {tag: class}, the one tuple annotation or None) of a union."""
        primitives, by_tag, sequence = set(), {}, None
        for member in _members(tp):
            if member in _PRIMITIVES:
                primitives.add(member)
            elif member in self.fields:
                by_tag[member.__name__] = member
            elif member in self.refused:
                continue  # encoding one is Refused; so is an entry's node of its name
            elif sequence is None and typing.get_origin(member) is tuple:
                sequence = member
            else:
                raise TypeError(f"the parse cache cannot hold a {member!r} (in {tp!r})")
        return primitives, by_tag, sequence

    # ---------------------------------------------------------------- encoding

    def _node_encoder(self, cls):
        tag, fields = cls.__name__, self.fields[cls]
        parts = []  # filled on first use: the classes refer to each other

        def encode(value):
            if type(value) is not cls:
                raise Refused(tag)
            if not parts:
                parts.extend((name, self._encoder(tp)) for name, tp in fields)
            return (tag, *[part(getattr(value, name)) for name, part in parts])
        return encode

    def _encoder(self, tp):
        """The encoding function of values annotated ``tp``: the same checks as decoding."""
        if tp not in self._encoder_memo:
            self._encoder_memo[tp] = self._make_encoder(tp)
        return self._encoder_memo[tp]

    def _make_encoder(self, tp):
        kinds = self._primitives(tp)
        if kinds is not None:
            return _primitive(kinds)
        if tp in self.fields:
            return self.encoders[tp]
        item = _sequence_of(tp)
        if item is not None:
            encode_item = self._encoder(item)

            def encode_sequence(value):
                if type(value) is not tuple:
                    raise Refused("tuple")
                return [encode_item(x) for x in value]
            return encode_sequence
        fixed = _fixed_of(tp)
        if fixed is not None:
            parts = [self._encoder(a) for a in fixed]

            def encode_fixed(value):
                if type(value) is not tuple or len(value) != len(parts):
                    raise Refused("tuple")
                return [encode(x) for encode, x in zip(parts, value)]
            return encode_fixed
        primitives, by_tag, sequence = self._union_parts(tp)
        sequence = None if sequence is None else self._encoder(sequence)
        by_class = {cls: self.encoders[cls] for cls in by_tag.values()}

        def encode_union(value):
            kind = type(value)
            if kind in primitives:
                return value
            if kind in by_class:
                return by_class[kind](value)
            if kind is tuple and sequence is not None:
                return sequence(value)
            raise Refused(kind.__name__)
        return encode_union


def _primitive(kinds: set):
    def check(value):
        if type(value) in kinds:  # exactly: a bool is no int, a str subclass no str
            return value
        raise Refused(type(value).__name__)
    return check


@cache
def _schema() -> _Schema:
    return _Schema(_classes(), _refused())


def encode(result) -> tuple:
    """A ParseResult as a plain literal tree; Refused if it holds anything the schema does
    not (then it is not saved)."""
    from .ast import ParseResult

    return _schema().encoders[ParseResult](result)


def decode(tree):
    """The ParseResult a literal tree of ``encode`` stands for, each field checked as it
    is rebuilt; Refused (or RecursionError on a tree nested beyond reason) otherwise."""
    from .ast import ParseResult

    return _schema().decoders[ParseResult](tree)


# ------------------------------------------------------------------ the key


#: The sources a parse is made by; without them (an install of bytecode only) no cache.
_SOURCES = {"ast.py", "codes.py", "diagnostics.py", "diskcache.py", "headers.py",
            "jibunki.lark", "keywords.py", "parsecache.py", "parser.py", "transform.py"}


def _implementation() -> bytes | None:
    """What a parse depends on besides its input: the sources of ``implementation_paths``
    and Python's version. None (no cache) when any of it cannot be read."""
    paths = implementation_paths()
    try:
        return None if paths is None else diskcache.sources_digest(FORMAT, paths)
    except Exception:
        return None


def implementation_paths() -> list[str] | None:
    """The files a parse is made by: every module and the grammar of dsl/, the modules of
    contract/ that dsl/ reads (the vocabulary, the item kinds, the variant kanji, the
    characters no terminal shows) and lark's version (its __init__, which names it). None
    when dsl/ cannot be listed whole. Every module of contract/ that dsl/ imports is here
    (tests/test_lint_cache.py), the bounded read of ``disk`` too: a rule simple to keep
    costs a rare parse again."""
    import importlib.util

    from contract import disk, kinds, linebreak, typed, vocabulary

    try:
        here = os.path.dirname(os.path.abspath(__file__))
        names = sorted(n for n in os.listdir(here) if n.endswith((".py", ".lark")))
        if not _SOURCES <= set(names):
            return None
        lark = importlib.util.find_spec("lark")
        return ([os.path.join(here, n) for n in names]
                + [vocabulary.__file__, kinds.__file__, typed.__file__, disk.__file__,
                   linebreak.__file__, lark.origin])
    except Exception:
        return None


@cache
def _fingerprint() -> bytes | None:
    """``_implementation()``, once per process (the code loaded does not change)."""
    return _implementation()


@cache
def _module_digest(module: str) -> bytes | None:
    try:
        return diskcache.sources_digest(b"", [sys.modules[module].__file__])
    except Exception:
        return None


def _suggest_id(suggest) -> bytes | None:
    """What identifies ``suggest``'s answers: a plain module-level function, by module,
    name and module source; None (no cache) for anything else (a lambda, a closure, a
    bound method could answer anything)."""
    if suggest is None:
        return b"-"
    if type(suggest) is not types.FunctionType or suggest.__closure__:
        return None
    module, name = suggest.__module__, suggest.__qualname__
    if not isinstance(module, str) or "." in name or "<" in name \
            or getattr(sys.modules.get(module), name, None) is not suggest:
        return None
    digest = _module_digest(module)
    return None if digest is None else f"{module}:{name}:".encode("utf-8") + digest


def entry_key(text: str, path: str, suggest=None) -> tuple[str, bytes] | None:
    """(entry name, key) of one input, or None when it is not to be cached."""
    import hashlib

    fingerprint, suggest_id = _fingerprint(), _suggest_id(suggest)
    if fingerprint is None or suggest_id is None:
        return None
    hasher = hashlib.sha256()
    for part in (fingerprint, suggest_id, path.encode("utf-8", "surrogatepass"),
                 text.encode("utf-8", "surrogatepass")):
        diskcache.part(hasher, part)
    where = os.path.abspath(path).encode("utf-8", "surrogatepass")
    name = f"{_ENTRY_PREFIX}{hashlib.sha256(where).hexdigest()[:32]}{_ENTRY_SUFFIX}"
    return name, hasher.hexdigest().encode("ascii")


# ------------------------------------------------------------------ the cache


class ParseCache:
    """One use of the parse cache (a run of the compiler's parse pass, an editor's
    request): the folder is opened and checked once, entries are read and saved through
    it, and ``close`` evicts what is over the bounds. A ParseCache of no folder (the cache
    is off or unusable) parses every file."""

    def __init__(self, folder: int | None):
        self._folder = folder
        self._saved = 0  # bytes saved by this use
        self._tried = False  # whether this use tried to save an entry (and maybe failed)
        self._current: bool | None = None  # is _fingerprint() still what is on disk?
        self.hits = self.misses = 0  # files read from the cache, files parsed

    @classmethod
    def open(cls) -> ParseCache:
        """A ParseCache of the user's cache folder (dsl.diskcache.open_folder)."""
        return cls(diskcache.open_folder(KIND))

    def __enter__(self) -> ParseCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def parse(self, text: str, path: str, suggest=None):
        """``dsl.parser.parse(text, path, suggest)``, from the cache when it holds this
        input's parse; what is parsed is saved. Raises only what the parse raises.
        (dsl.parser, and lark with it, is imported only when a file is parsed.)"""
        entry = None
        if self._folder is not None:
            try:
                entry = entry_key(text, path, suggest)
                if entry is not None:
                    found = (self._recall(*entry) or self._read(*entry, path)
                             or self._copy(*entry))
                    if found is not None:
                        self.hits += 1
                        return found
            except Exception:  # any doubt: parse
                entry = None
        from . import parser

        self.misses += 1
        result = parser.parse(text, path, suggest)
        if entry is not None:
            try:
                self._save(*entry, result)
            except Exception:  # not saved: no error
                pass
        return result

    # The memory of this process (_MEMO): an entry read or written here is not read and
    # decoded again while its file is the one this process last touched.

    def _recall(self, name: str, key: bytes):
        """The parse this process read or saved as entry ``name`` of this folder for
        ``key``, while that file is still the one it read or wrote: a regular file of
        ours, of the same inode and size and the very mtime this process gave it (an
        entry written, replaced, damaged, evicted or used by another process since is
        read again, and refused as it would be). None otherwise."""
        remembered = _MEMO.get((self._where(), name))
        if remembered is None or remembered[0] != key:
            return None
        _, identity, result, payload = remembered
        try:
            info = os.stat(name, dir_fd=self._folder, follow_symlinks=False)
        except OSError:
            return None
        if not (stat.S_ISREG(info.st_mode) and diskcache.private(info)
                and (info.st_ino, info.st_size, info.st_mtime_ns) == identity):
            return None
        self._remember(name, key, result, payload)  # its last use, as a read touches it
        return result

    def _copy(self, name: str, key: bytes):
        """The parse of this very input (``key``: the path as shown and the text) that
        this process holds as another entry — the same file of a copy of the content in
        another folder — saved as entry ``name`` too, as a parse would be; None when it
        holds none, or when ``name`` is an entry it read before (that file was damaged
        or replaced since: it is parsed again, as without this memory)."""
        where = self._where()
        other = _NAMES.get((where, key))
        if other is None or other == name or (where, name) in _MEMO:
            return None
        result = self._recall(other, key)
        kept = _MEMO.get((where, other))  # gone when its touch failed: not copied then
        if result is None or kept is None:
            return None
        payload = kept[3]
        self._tried = True
        if not diskcache.write_entry(self._folder, name, key, payload, FORMAT,
                                     MAX_ENTRY_BYTES, _TEMP_PREFIX):
            return None
        self._saved += len(payload)
        self._remember(name, key, result, payload)
        return result

    def _remember(self, name: str, key: bytes, result, payload: bytes) -> None:
        """Keep ``result``, the parse of entry ``name`` for ``key`` (read, or written
        just now as ``payload``), with the file's identity — its mtime set here to the
        nanosecond, a time no write by another hand (the kernel's coarser clock) gives
        it; the least recently used past MEMO_ENTRIES forgotten. An entry over
        MEMO_MAX_BYTES is not kept: its tree is many times that."""
        where = self._where()
        _MEMO.pop((where, name), None)  # the file is touched: what was kept no longer holds
        if not _TOUCHES_IN_FOLDER:
            return
        now = time.time_ns()
        try:
            os.utime(name, ns=(now, now), dir_fd=self._folder, follow_symlinks=False)
            info = os.stat(name, dir_fd=self._folder, follow_symlinks=False)
        except OSError:
            return
        if len(payload) > MEMO_MAX_BYTES or info.st_mtime_ns != now:
            return
        _MEMO[(where, name)] = (key, (info.st_ino, info.st_size, now), result, payload)
        _NAMES[(where, key)] = name
        while len(_MEMO) > MEMO_ENTRIES or sum(
                len(kept[3]) for kept in _MEMO.values()) > MEMO_TOTAL_BYTES:
            (gone_where, gone), (gone_key, *_) = _MEMO.popitem(last=False)
            if _NAMES.get((gone_where, gone_key)) == gone:
                del _NAMES[(gone_where, gone_key)]

    def _where(self) -> tuple[int, int]:
        # the folder by identity: another cache folder (another XDG_CACHE_HOME) has
        # entries of its own (and a folder made where a removed one was, with its inode,
        # holds none of the files remembered, which _recall then does not find)
        info = os.fstat(self._folder)
        return info.st_dev, info.st_ino

    def _read(self, name: str, key: bytes, path: str):
        payload = diskcache.read_entry(self._folder, name, key, FORMAT, MAX_ENTRY_BYTES,
                                       touch=True)
        if payload is None:
            return None
        try:
            result = decode(diskcache.loads_literal(payload))
        except Exception:  # Refused, UnpicklingError, RecursionError …: not an entry
            return None
        if result.file.path != path:
            return None
        self._remember(name, key, result, payload)
        return result

    def _save(self, name: str, key: bytes, result) -> None:
        import pickle

        if self._current is None:
            # Sources edited since the fingerprint was taken (a developer's checkout): the
            # parse just made may be of either version, so it is not saved under either.
            self._current = _implementation() == _fingerprint()
        if not self._current:
            return
        try:
            payload = pickle.dumps(encode(result), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # Refused: something the schema does not hold; not saved
            return
        self._tried = True
        if diskcache.write_entry(self._folder, name, key, payload, FORMAT, MAX_ENTRY_BYTES,
                                 _TEMP_PREFIX):
            self._saved += len(payload)
            self._remember(name, key, result, payload)

    def close(self) -> None:
        """Remove stale temporaries and evict over the bounds (when anything was saved, or a
        save failed: on a full disk the temporaries killed runs left most need to go), and
        close the folder."""
        if self._folder is None:
            return
        try:
            if self._tried:
                # Few small saves cannot pass MAX_TOTAL_BYTES while the count is within
                # MAX_ENTRIES: the entries are then not stat'ed.
                diskcache.evict(self._folder, KIND, MAX_ENTRIES, MAX_TOTAL_BYTES,
                                weigh=self._saved >= _SCAN_AFTER_BYTES)
        except Exception:
            pass
        finally:
            os.close(self._folder)
            self._folder = None


def parse(text: str, path: str, suggest=None):
    """``dsl.parser.parse`` through the parse cache, for one file (an editor's request)."""
    with ParseCache.open() as parse_cache:
        return parse_cache.parse(text, path, suggest)
