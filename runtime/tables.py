"""表の読み込み — load the compiled tables (generated/*.py) as contract objects.

The runtime reads the tables with ``ast.literal_eval`` of each module's ``TABLE``: no
content is ever imported or executed, and a game client can ship this folder, contract/
and ``generated/`` alone. Each literal becomes the contract classes (contract.tables),
checked all the way down: a table that is not what the contract says is a TableError.

``load`` uses a folder's tables only when every one matches the manifest beside them
(``MANIFEST`` in ``__init__.py``: file name → sha256, renamed into place last by the
compiler). A compile killed between two renames, or a table edited by hand, would
otherwise load as a set that mixes two compilations and fail later, far from the cause.
"""

from __future__ import annotations

import ast
import hashlib
import os
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from contract.codec import ContractError, from_literal
from contract.disk import reason, text_reason
from contract.tables import SCHEMA_VERSION, TABLES, Balance, Deck, Enemy, Page, VocabularyTable

TABLE_NAMES = tuple(TABLES)
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "generated"
MANIFEST_FILE = "__init__.py"
#: A reader waits at most this long for a compile that is switching the set right now.
LOCK_WAIT_SECONDS = 5.0
_REMEDY = "jibunki compile で作り直してください。"


class TableError(Exception):
    """The tables are missing, unreadable, mixed from two compilations, edited by hand,
    or of another schema version."""


@dataclass(frozen=True)
class Tables:
    """Everything a battle reads: pages and enemies by id, the balance, the decks."""

    pages: dict[str, Page]
    enemies: dict[str, Enemy]
    balance: Balance
    decks: dict[str, Deck]
    starting_deck: str
    vocabulary: VocabularyTable

    def starter(self) -> list[str]:
        """The page ids of the starting deck, in order (a new list)."""
        return list(self.decks[self.starting_deck].pages)

    @cached_property
    def memo(self) -> dict:
        """What the runtime works out once per set of tables and reads in every battle
        (an enemy's Intents as literals, which faces fire unconditionally): facts of the
        frozen tables only, never of a battle's state. Keyed by what asks, filled on first
        use; not a field, so never compared, hashed or saved."""
        return {}

    def fact(self, kind: str, key, make):
        """The fact ``kind`` of ``key`` (an enemy id, a page id …), worked out by
        ``make()`` the first time it is asked for and kept in ``memo``."""
        facts = self.memo.get(kind)
        if facts is None:
            facts = self.memo[kind] = {}
        try:
            return facts[key]
        except KeyError:
            value = facts[key] = make()
            return value

    def by_identity(self, kind: str, obj, make, *args):
        """The fact ``kind`` of the frozen tables object ``obj`` (a 作用, a condition, a
        reference …), ``make(*args)`` the first time it is asked for: kept by identity,
        since a frozen dataclass would hash all its fields at every look-up. The entry
        holds ``obj`` itself, so an id is never mistaken for a freed object's."""
        facts = self.memo.get(kind)
        if facts is None:
            facts = self.memo[kind] = {}
        entry = facts.get(id(obj))
        if entry is None or entry[0] is not obj:
            entry = facts[id(obj)] = (obj, make(*args))
        return entry[1]


def read_table(path: Path) -> dict:
    """The ``TABLE`` literal of one generated module, read without executing anything;
    TableError when it is unreadable or not a literal dict."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: 読めません（{text_reason(exc)}）") from exc
    return _parse_table(text, path)


#: Why a literal could not be evaluated: each means "not a plain literal".
_NOT_LITERAL = (ValueError, TypeError, SyntaxError, MemoryError, RecursionError)
_MISSING = object()


def _assigned_literal(module: ast.Module, name: str):
    """The literal assigned to ``name`` at the top of ``module`` (``_MISSING`` when no
    such assignment; None when it is not a literal). Nothing is ever executed."""
    for node in module.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name):
            try:
                return ast.literal_eval(node.value)
            except _NOT_LITERAL:
                return None
    return _MISSING


def _parse_table(text: str, path: Path) -> dict:
    try:
        module = ast.parse(text, str(path))
    except (SyntaxError, ValueError) as exc:
        raise TableError(f"{path}: 読めません（{text_reason(exc)}）") from exc
    table = _assigned_literal(module, "TABLE")
    if table is _MISSING:
        raise TableError(f"{path}: TABLE がありません")
    if table is None:
        raise TableError(f"{path}: TABLE がリテラルではありません")
    if not isinstance(table, dict):
        raise TableError(f"{path}: TABLE が辞書ではありません")
    if table.get("schema_version") != SCHEMA_VERSION:
        raise TableError(f"{path}: schema_version {table.get('schema_version')} "
                         f"（このランタイムは {SCHEMA_VERSION}）")
    return table


def read_manifest(directory: Path) -> dict[str, str]:
    """The ``MANIFEST`` of ``directory/__init__.py``: table file name → sha256."""
    path = directory / MANIFEST_FILE
    try:
        module = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except FileNotFoundError:
        raise TableError(f"{path}: ありません（表の目録）。{_REMEDY}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise TableError(f"{path}: 読めません（{text_reason(exc)}）。{_REMEDY}") from exc
    manifest = _assigned_literal(module, "MANIFEST")
    if manifest is _MISSING:
        raise TableError(f"{path}: 表の目録 MANIFEST がありません（古いコンパイルの表です）。{_REMEDY}")
    if isinstance(manifest, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in manifest.items()):
        return manifest
    raise TableError(f"{path}: MANIFEST が名前 → sha256 の辞書ではありません。{_REMEDY}")


def from_dicts(tables: dict[str, dict]) -> Tables:
    """Tables from in-memory literals (as ``compile_content`` returns them), checked
    against the contract."""
    try:
        typed = {name: from_literal(cls, tables[name], name) for name, cls in TABLES.items()}
    except (ContractError, KeyError) as exc:
        raise TableError(f"表が契約（contract/）に合いません: {exc}。{_REMEDY}") from None
    return Tables(
        pages=typed["pages"].pages,
        enemies=typed["enemies"].enemies,
        balance=typed["balance"].balance,
        decks=typed["decks"].decks,
        starting_deck=typed["decks"].starting_deck,
        vocabulary=typed["vocabulary"],
    )


def load(directory: Path | str = DEFAULT_DIR) -> Tables:
    """The tables of ``directory``, each checked against the manifest before use."""
    directory = Path(directory)
    with _shared_lock(directory):
        manifest = read_manifest(directory)
        texts: dict[str, str] = {}
        mismatched = []
        for name in TABLE_NAMES:
            file, path = f"{name}.py", directory / f"{name}.py"
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise TableError(f"{path}: 読めません（{reason(exc)}）。{_REMEDY}") from exc
            # The bytes checked are the bytes parsed: no second read that could differ.
            if manifest.get(file) != hashlib.sha256(data).hexdigest():
                mismatched.append(file)
            texts[name] = data.decode("utf-8", errors="replace")
    if mismatched:
        raise TableError(
            f"{directory}/ の表が目録（{MANIFEST_FILE} の MANIFEST）と合いません: "
            f"{', '.join(mismatched)}。2回のコンパイルが混ざっている（途中で止まった"
            f"コンパイル）か、表が手で書き換えられています。{_REMEDY}")
    return from_dicts({name: _parse_table(texts[name], directory / f"{name}.py")
                       for name in TABLE_NAMES})


class _shared_lock:
    """A shared lock on the folder while reading it, so that a compile switching the set
    at this moment (it holds the exclusive lock) is waited for rather than read half
    switched. Best effort and bounded: without fcntl, on a file system without locks,
    or after LOCK_WAIT_SECONDS, the manifest check alone guards the read."""

    def __init__(self, directory: Path):
        self.directory, self.fd = directory, None

    def __enter__(self):
        try:
            import fcntl
        except ImportError:
            return self
        try:
            self.fd = os.open(self.directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                              | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return self
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return self
                time.sleep(0.02)
            except OSError:
                return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
        return False
