"""検証 — the lowered tables are what the contract says, before anything is written.

A table the contract does not describe is a bug in jibunki, never the designer's
mistake: ``validate`` raises SchemaViolation, and nothing is written.
"""

from __future__ import annotations

import math

from contract.codec import ContractError, from_literal
from contract.tables import TABLES as CLASSES, Enemy, Page

from .emit import TABLES


class SchemaViolation(Exception):
    """The compiler produced a table its own schema rejects: a bug in jibunki."""


def literal_problems(value, path: tuple = ()):
    """(path, problem) for every value that is not a plain, finite, round-trippable literal."""
    where = ".".join(map(str, path)) or "(top)"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                yield where, f"key {key!r} is not a string"
            yield from literal_problems(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from literal_problems(item, (*path, index))
    elif isinstance(value, float):
        if not math.isfinite(value):
            yield where, f"{value!r} is not a finite number"
    elif value is not None and type(value) not in (str, int, bool):
        yield where, f"{type(value).__name__} {value!r} is not a plain literal"


def contract_errors(name: str, table: dict) -> list[str]:
    """What is wrong with table ``name`` by the contract classes (contract.tables), which
    schemas/ is generated from: its first problem (the codec stops there). The codec
    takes plain literals only — exact types, finite numbers, lists not tuples — so what
    it accepts round-trips through repr, ast.literal_eval and JSON."""
    entries = ENTRIES.get(name)
    if entries is None or not isinstance(table, dict) or not isinstance(table.get(name), dict):
        return _decode(CLASSES[name], table, name, "")
    # One entry at a time: a table of 10,000 pages decoded whole is a second copy of the
    # model in memory at once (issue 13: a compile of 10,000 pages under 300 MB).
    found = _decode(CLASSES[name], {**table, name: {}}, name, "")
    for key, entry in table[name].items():
        if not isinstance(key, str):
            return [f"{name}: {name}: key {key!r} is not a string"]
        found += _decode(entries, entry, name, f"{name}.{key}")
        if found:
            break  # the codec reports the first problem; so does this
    return found


#: Tables whose entries are validated one by one: table name → the class of an entry.
ENTRIES = {"pages": Page, "enemies": Enemy}


def _decode(cls, value, name: str, prefix: str) -> list[str]:
    try:
        from_literal(cls, value)
    except ContractError as exc:
        where = ".".join(p for p in (prefix, exc.where) if p) or "(top)"
        return [f"{name}: {where}: {exc.problem}"]
    return []


def validate(tables: dict[str, dict]) -> None:
    """Refuse tables the contract does not describe (SchemaViolation: a bug in jibunki).

    The classes check what schemas/ says (it is generated from them), without reading
    schemas/ and some eight times faster than a JSON Schema validator."""
    problems = [p for name in TABLES for p in contract_errors(name, tables[name])]
    if problems:
        raise SchemaViolation("\n".join(problems))
