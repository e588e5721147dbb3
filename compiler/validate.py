"""検証 — the lowered tables are what the contract says, before anything is written.

A table the contract does not describe is a bug in jibunki, never the designer's
mistake: ``validate`` raises SchemaViolation, and nothing is written.
"""

from __future__ import annotations

import math

from contract.codec import ContractError, from_literal
from contract.tables import TABLES as CLASSES

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
    try:
        from_literal(CLASSES[name], table)
    except ContractError as exc:
        return [f"{name}: {exc.where or '(top)'}: {exc.problem}"]
    return []


def validate(tables: dict[str, dict]) -> None:
    """Refuse tables the contract does not describe (SchemaViolation: a bug in jibunki).

    The classes check what schemas/ says (it is generated from them), without reading
    schemas/ and some eight times faster than a JSON Schema validator."""
    problems = [p for name in TABLES for p in contract_errors(name, tables[name])]
    if problems:
        raise SchemaViolation("\n".join(problems))
