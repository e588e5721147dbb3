"""配りの記録 — the journey report's results kept on disk, so that a re-run after a change
replays only the deals the change touches.

A task's result (journey/lab/measure.py's ``work``: a deal solved, or played at a budget)
is a function of the rules of its set-up as the solver and the player read them, of the
task's own fields (the items carried, the seed, the kind and its budget) and of the code
that computes it. So the results are kept in *series*: one per task less its seed, each a
map seed → result, stored as one entry (sim/store.py) whose key is the sha256 of

* the code: every module of journey/ (the rules, the solver, the player) and contract/,
  and of journey/lab/measure.py the definitions ``prepare``, ``work`` and ``Task`` reach by
  name (sim.store.code_digest), and Python's version — any change there replays all;
* the rules of the task's set-up: ``journey.load_rules(setup, table)`` — the set-up after
  元 is resolved, with the cards, locations, items and letters it uses — as plain data, so
  editing another set-up (or a page, which no journey reads) replays nothing of this one;
* the task's class and every field of it but the seed (which indexes the series) and
  ``variant`` (the task's place in the report, which ``work`` does not read): a new kind of
  task, or a new field, keys itself.

A result is kept as its class's name and its values, and is rebuilt only as a NamedTuple
``work`` reaches whose type hints every value fits (``fits``): an entry holding anything
else is no entry. The folder, the checks and ``JIBUNKI_NO_CACHE`` are sim/store.py's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import types
import typing

from sim import store

FORMAT = b"jibunki-journey-cache 1\n"
#: The cache's subfolder and its entries' prefix (dsl.diskcache).
KIND = "journey"
#: Series kept: a default report writes 66 (22 variants, 3 kinds); the rest are older
#: versions of the content, evicted least recently used first.
MAX_ENTRIES = 2000
_CODE = (("journey", "*.py"), ("journey/lab", "load.py"), ("contract", "*.py"))
#: The module whose ``work`` computes a task, and where the walk of its code starts.
_WORK = "journey.lab.measure"
_ROOTS = ("prepare", "work", "Task")
#: Fields of a task that ``work`` does not read: the seed indexes a series, the variant
#: places the result in the report.
_UNKEYED = ("seed", "variant")

_code_digest: bytes | None = None


def code_digest() -> bytes:
    """The sha256 of the code that computes a task and of Python (once per process)."""
    global _code_digest
    _code_digest = _code_digest or store.code_digest(FORMAT, _CODE, _WORK, _ROOTS)
    return _code_digest


def result_classes() -> dict[str, type]:
    """The kinds of result ``work`` can give (measure.py's ``RESULTS``), by name."""
    module = importlib.import_module(_WORK)
    return {kind.__name__: kind for kind in module.RESULTS}


#: The scalars a result may hold (exactly these types: an int is no bool, nor a float).
_SCALARS = (int, float, str, bool)


def _record(hint) -> bool:
    """Is ``hint`` a NamedTuple class (a result, or a record inside one)?"""
    return isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields")


def _plain_tuple(value) -> bool:
    """A bare ``tuple`` hint: a tuple of scalars, None and such tuples (a line of actions,
    each the rules' plain tuple)."""
    return type(value) is tuple and all(
        v is None or type(v) in _SCALARS or _plain_tuple(v) for v in value)


def fits(value, hint) -> bool:
    """``value`` — a result as kept (``plain``) — is of type ``hint`` exactly (an int is no
    bool, nor a float): the types a result holds — int, float, str, bool, None, unions,
    tuples and lists of them, a bare tuple of those (``_plain_tuple``) and records
    (NamedTuples, kept as plain tuples of their fields). A hint of any other type fits
    nothing (such a result is not kept)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is None or hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, arg) for arg in args)
    if hint is tuple:
        return _plain_tuple(value)
    if _record(hint):
        hints = typing.get_type_hints(hint)
        return (type(value) is tuple and len(value) == len(hint._fields)
                and all(fits(v, hints[f]) for v, f in zip(value, hint._fields)))
    if origin is tuple:
        if type(value) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(fits, value, args))
    if origin is list:
        return type(value) is list and all(fits(item, args[0]) for item in value)
    return hint in _SCALARS and type(value) is hint


def plain(value):
    """A result as it is kept: its records (NamedTuples) as plain tuples, all the way down
    (an entry is unpickled without globals: it holds no class)."""
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if type(value) is list:
        return [plain(v) for v in value]
    return value


def built(value, hint):
    """The result kept as ``value`` (which ``fits`` ``hint``) with its records rebuilt."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return next(built(value, arg) for arg in args if fits(value, arg))
    if _record(hint):
        hints = typing.get_type_hints(hint)
        return hint._make(built(v, hints[f]) for v, f in zip(value, hint._fields))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return tuple(built(v, args[0]) for v in value)
    if origin is tuple:
        return tuple(built(v, a) for v, a in zip(value, args))
    if origin is list:
        return [built(v, args[0]) for v in value]
    return value


class DealCache(store.Store):
    """The results of the tasks of one journey table (its literal): ``results`` (or
    ``lookup`` before playing, ``store`` after), ``close`` at the end. In memory only when
    ``folder`` is None (``open`` gives one on the user's cache folder when it can)."""

    def __init__(self, table_literal: dict, folder: int | None = None):
        super().__init__(FORMAT, KIND, folder, MAX_ENTRIES)
        # what a worker's tasks read (measure.prepare), for ``sound`` to replay lines on
        self.context = importlib.import_module(_WORK).prepare(table_literal)
        self.table = self.context["table"]
        self.classes = result_classes()
        self._rules: dict[str, bytes | None] = {}
        self._keys: dict[tuple, str | None] = {}

    @classmethod
    def open(cls, table_literal: dict) -> DealCache:
        """A cache on the user's cache folder, or in memory only when there is none."""
        return store.opened(KIND, lambda folder: cls(table_literal, folder))

    def _rules_digest(self, setup: str) -> bytes | None:
        """The sha256 of the set-up's rules as plain data (None: no such set-up)."""
        if setup not in self._rules:
            from journey import JourneyError, load_rules

            try:
                rules = dataclasses.asdict(load_rules(setup, self.table))
                self._rules[setup] = hashlib.sha256(store.canonical(rules)).digest()
            except JourneyError:
                self._rules[setup] = None
        return self._rules[setup]

    def key(self, task) -> str | None:
        """The key (hex) of the task's series (None: a task that is not kept)."""
        fields = {f.name: getattr(task, f.name) for f in dataclasses.fields(task)
                  if f.name not in _UNKEYED}
        ident = (type(task), *fields.values())
        if ident not in self._keys:
            rules = self._rules_digest(task.setup)
            key = None
            if rules is not None:
                ident_text = store.canonical([type(task).__qualname__, fields, rules.hex()])
                key = hashlib.sha256(code_digest() + ident_text).hexdigest()
            self._keys[ident] = key
        return self._keys[ident]

    def lookup(self, task):
        """The result kept for ``task``, or None (to be played)."""
        key = self.key(task)
        found = None if key is None else self.series(key).get(task.seed)
        if found is None or not importlib.import_module(_WORK).sound(self.context, task, found):
            return None
        return found

    def store(self, task, result) -> None:
        """Keep the result of a task just played (written by ``flush``)."""
        key = self.key(task)
        if key is not None:
            self.put(key, task.seed, result)

    def results(self, tasks: list, play) -> tuple[list, int]:
        """Every task's result, in task order, and how many were played: those kept are
        read, the others are ``play(missing, done)``'d — ``done``: how many came from the
        cache, for a progress count — and kept (written at once)."""
        results = [self.lookup(task) for task in tasks]
        missing = [i for i, result in enumerate(results) if result is None]
        if missing:
            played = play([tasks[i] for i in missing], len(tasks) - len(missing))
            for i, result in zip(missing, played):
                results[i] = result
                self.store(tasks[i], result)
            self.flush()
        return results, len(missing)

    def encode(self, result):
        """(class name, values), or None for a result of no kind ``work`` reaches or with
        a value its class's hints do not allow (not kept: played again next time)."""
        name = type(result).__name__
        kept = plain(result)
        if self.classes.get(name) is not type(result) or not fits(kept, type(result)):
            return None
        return (name, kept)

    def decode(self, data):
        """The result kept as ``data`` (``encode``), or None for anything else."""
        if not (type(data) is tuple and len(data) == 2 and type(data[0]) is str
                and data[0] in self.classes and fits(data[1], self.classes[data[0]])):
            return None
        return built(data[1], self.classes[data[0]])
