"""戦闘の記録 — the lab's battle outcomes kept on disk, so that a run plays only the battles
whose inputs changed since a run played them.

A battle's outcome is a function of what it reads: the deck, the pages the deck can reach,
the enemies of its stages, the balance and the other tables, the policy, the turn cap, the
seed, the page whose plays are counted (``focus``) and the code that plays it. So the
battles are kept in *series*: one per (deck, policy, turn cap, focus, stages), each a map
seed → outcome, stored as one entry whose key (``series_key``) is the sha256 of

* the code: every module of runtime/ and contract/, sim/policies.py, sim/simulate.py,
  the source of sim/lab.py's ``prepare``, ``work``, ``Outcome`` and ``Task`` and of every
  definition of sim/lab.py they name (sim.store.code_digest), and Python's version;
* the literals of every page the deck can reach (``reach``): the deck's own pages and,
  transitively, every page id any of their literals or the stages' enemies names; a
  生成 (``generate``) anywhere among them can bring in any page, so then the whole pages
  table;
* the literals of the stages' enemies, and every table but pages and enemies (balance,
  decks, vocabulary) whole — less the balance's 基準ページ, and the journey's table
  (draft 17's rules, ``UNREAD``), which no battle reads;
* every literal less where it was written — the file, the lines, the text, a 作用's line
  (``contract.tables.placeless``): no battle reads them, so a comment that moves the
  lines below it replays nothing;
* the deck, the policy, the turn cap, the focus, the stages, and Outcome's fields.

An edit to a page therefore replays the series of the decks that can reach it, and only
those. The seed is not in the key: a series holds every seed any run played, so a run with
more pairs or another first seed reads what it shares with the runs before it.

The series are kept by sim/store.py, as the journey report's deals are: the folder and its
entries are dsl/diskcache.py's — ``$XDG_CACHE_HOME/jibunki`` or ``~/.cache/jibunki``,
private, entries checked (owner, mode, size, key, sha256) before a byte is used, and the
payload plain data unpickled without globals; every outcome is then checked for its shape
(``_decode``) — anything else is no entry. ``JIBUNKI_NO_CACHE=1``, no HOME,
an unwritable folder or any doubt: the battles are played, never an error. Without a folder
the cache still shares battles within one run (an enemy row's battle that is also a
baseline battle of the pages is played once).
"""

from __future__ import annotations

import hashlib

from contract import vocabulary as vocab
from contract.tables import placeless
from dsl import diskcache

from . import store
from .store import MAX_ENTRY_BYTES, canonical as _canonical

__all__ = ["FORMAT", "MAX_ENTRY_BYTES", "Keys", "ResultCache", "code_digest"]

FORMAT = b"jibunki-sim-cache 1\n"
#: The cache's subfolder and its entries' prefix (dsl.diskcache).
KIND = "sim"
#: Series kept: a full report on the bundled content writes a few hundred; the rest are
#: older versions of the content, evicted least recently used first.
MAX_ENTRIES = 4000
#: The code a battle's outcome depends on: these files whole, and of sim/lab.py only what
#: ``work`` and ``prepare`` reach and what a task and an outcome are (a change to the
#: lab's rounds or report replays nothing).
_CODE = (("runtime", "*.py"), ("contract", "*.py"), ("sim", "policies.py"),
         ("sim", "simulate.py"))
_LAB_CODE = ("prepare", "work", "Outcome", "Task")

_code_digest: bytes | None = None


def code_digest() -> bytes:
    """The sha256 of the code that plays a battle and of Python (once per process)."""
    global _code_digest
    _code_digest = _code_digest or store.code_digest(FORMAT, _CODE, "sim.lab", _LAB_CODE)
    return _code_digest


def _walk(value, found: set[str], names) -> bool:
    """Collect into ``found`` the strings of ``value`` that are page ids (``names``);
    True when a 生成 is met (any page may come in)."""
    generates = False
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("op") == "generate":
                generates = True
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str) and item in names:
            found.add(item)
    return generates


#: The balance keys no battle reads: the pages the lab reads (基準ページ).
_LAB_ONLY = frozenset(key.code for key in vocab.BALANCE_KEYS if key.type == "page")


def _battle_balance(table):
    """The balance table's literal without what no battle reads (_LAB_ONLY), so that
    naming another reference page replays nothing."""
    balance = table.get("balance") if isinstance(table, dict) else None
    if not isinstance(balance, dict) or not _LAB_ONLY & balance.keys():
        return table
    return {**table, "balance": {k: v for k, v in balance.items() if k not in _LAB_ONLY}}


#: The tables no battle reads: an edit to them replays nothing.
UNREAD = ("journey",)


def content_digest(literal: dict) -> str:
    """The sha256 (hex) of everything a battle of these tables could read — every
    table less the journey's, each literal less where it was written, and the code —:
    what a report records so that a reader (the catalog) can tell a report of other
    content or other code from one of these."""
    hasher = hashlib.sha256(code_digest())
    _tables(hasher, literal, UNREAD)
    return hasher.hexdigest()


#: What a page or an enemy says to the designer and no battle reads: its name and its
#: フレーバー — a typo fixed there replays nothing and leaves the lab's figures current. Its
#: 目標 no battle reads either, but a report judged the old one: it stays in
#: ``content_digest`` and is left out of a battle's key only (``UNREAD_FOR_BATTLES``).
SHOWN_ONLY = ("name", "flavor")
UNREAD_FOR_BATTLES = SHOWN_ONLY + ("target",)
#: The tables whose items carry those fields.
ITEM_TABLES = ("pages", "enemies")


def battle_read(item, unread=UNREAD_FOR_BATTLES):
    """A page's or an enemy's literal as battles read it: less where it was written
    (``placeless``) and less ``unread``."""
    item = placeless(item)
    return {k: v for k, v in item.items() if k not in unread} if isinstance(item, dict) else item


def _tables(hasher, literal: dict, left_out) -> None:
    """Each table of ``literal`` but ``left_out``, by name, less where it was written and
    its items less what only the designer reads (SHOWN_ONLY)."""
    for name in sorted(literal):
        if name not in left_out:
            table = placeless(literal[name])
            items = table.get(name) if name in ITEM_TABLES and isinstance(table, dict) else None
            if isinstance(items, dict):  # the table's items by id: {"pages": {id: page}}
                table = {**table, name: {key: battle_read(item, SHOWN_ONLY)
                                         for key, item in items.items()}}
            diskcache.part(hasher, name.encode("utf-8"))
            diskcache.part(hasher, _canonical(table))


class Keys:
    """The series keys of one set of tables (their literal), with the parts that many
    series share computed once."""

    def __init__(self, literal: dict):
        if "balance" in literal:
            literal = {**literal, "balance": _battle_balance(literal["balance"])}
        self.literal = literal
        self.pages = literal.get("pages", {}).get("pages", {})
        self.enemies = literal.get("enemies", {}).get("enemies", {})
        hasher = hashlib.sha256(code_digest())
        _tables(hasher, literal, ("pages", "enemies", *UNREAD))
        for name in ("pages", "enemies"):
            rest = {k: v for k, v in literal.get(name, {}).items() if k != name}
            diskcache.part(hasher, _canonical(rest))
        self._base = hasher.digest()
        self._digests: dict[tuple[str, str], bytes] = {}
        self._walked: dict[tuple, tuple[frozenset[str], bool]] = {}

    def reach(self, deck, stages) -> list[str]:
        """The page ids a battle of ``deck`` against ``stages`` can read, sorted."""
        names = self.pages
        found: set[str] = set()
        generates = False
        for key, literal in (*((("enemy", e), self.enemies.get(e)) for e in stages),
                             (("balance",), self.literal.get("balance"))):
            more, generating = self._names(key, literal)
            found |= more
            generates |= generating
        todo = [p for p in deck if p in names] + sorted(found)
        seen: set[str] = set()
        while todo and not generates:
            page = todo.pop()
            if page in seen:
                continue
            seen.add(page)
            more, generates = self._names(("page", page), names[page])
            todo.extend(more - seen)
        return sorted(names) if generates else sorted(seen)

    def _names(self, key: tuple, literal) -> tuple[frozenset[str], bool]:
        """(the page ids ``literal`` — a page's, an enemy's or the balance's, named by
        ``key`` — names, whether it has a 生成), walked once for all the series of a run
        (a full report keys some 2,000 series, each reaching a dozen pages)."""
        noted = self._walked.get(key)
        if noted is None:
            found: set[str] = set()
            generates = _walk(literal, found, self.pages)
            noted = self._walked[key] = (frozenset(found), generates)
        return noted

    def _page(self, page: str) -> bytes:
        return self._digest("page", page, self.pages)

    def _enemy(self, enemy: str) -> bytes:
        return self._digest("enemy", enemy, self.enemies)

    def _digest(self, kind: str, name: str, table: dict) -> bytes:
        """The digest of a page's or an enemy's literal as battles read it
        (``battle_read``), worked out once a run."""
        digest = self._digests.get((kind, name))
        if digest is None:
            literal = table.get(name)
            digest = hashlib.sha256(_canonical(battle_read(literal))).digest()
            self._digests[(kind, name)] = digest
        return digest

    def series(self, deck, policy: str, turn_cap: int, focus, stages, fields) -> str:
        """The key (hex) of a series: see the module's docstring."""
        hasher = hashlib.sha256(self._base)
        diskcache.part(hasher, _canonical([list(deck), policy, turn_cap, focus,
                                           list(stages), list(fields)]))
        for page in self.reach(deck, stages):
            diskcache.part(hasher, page.encode("utf-8", "surrogatepass"))
            diskcache.part(hasher, self._page(page))
        for enemy in stages:
            diskcache.part(hasher, self._enemy(enemy))
        return hasher.hexdigest()


class ResultCache(store.Store):
    """Outcomes by series and seed: in memory for a run, and on disk when ``folder`` is a
    descriptor of the cache folder (``open``). ``make(values)`` rebuilds an outcome from
    its tuple of ints (sim.lab.Outcome)."""

    def __init__(self, literal: dict, make, fields, folder: int | None = None):
        super().__init__(FORMAT, KIND, folder, MAX_ENTRIES)
        self.keys = Keys(literal)
        self.make, self.fields = make, tuple(fields)
        self._keys: dict[tuple, str] = {}
        self.hits = 0  # battles answered by the cache (memory or disk)

    @classmethod
    def open(cls, literal: dict, make, fields) -> ResultCache:
        """A cache on the user's cache folder, or in memory only when there is none."""
        return store.opened(KIND, lambda folder: cls(literal, make, fields, folder))

    def _key(self, deck, policy, turn_cap, focus, stages) -> str:
        ident = (tuple(deck), policy, turn_cap, focus, tuple(stages))
        key = self._keys.get(ident)
        if key is None:
            key = self._keys[ident] = self.keys.series(deck, policy, turn_cap, focus,
                                                       stages, self.fields)
        return key

    def lookup(self, deck, policy, turn_cap, focus, seed: int, stages, count: bool = True):
        """The outcome kept for this battle, or None (``count``: a hit to count)."""
        found = self.series(self._key(deck, policy, turn_cap, focus, stages)).get(seed)
        if found is not None and count:
            self.hits += 1
        return found

    def store(self, deck, policy, turn_cap, focus, seed: int, stages, outcome) -> None:
        """Keep a battle just played (written by ``flush``)."""
        self.put(self._key(deck, policy, turn_cap, focus, stages), seed, outcome)

    def encode(self, outcome) -> tuple:
        """An outcome as its tuple of ints."""
        return tuple(int(v) for v in outcome)

    def decode(self, values):
        """An outcome from its ints, or None for anything not of Outcome's length, or not
        ``sound`` (values no battle gives: sim.lab.Outcome.sound)."""
        if not (type(values) is tuple and len(values) == len(self.fields)
                and all(type(v) is int for v in values)):
            return None
        made = self.make(values)
        sound = getattr(made, "sound", None)
        return made if sound is None or sound() else None


def _name(key: str) -> str:
    return store.entry_name(KIND, key)
