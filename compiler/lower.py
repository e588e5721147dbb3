"""下ろし — the checked model → the tables, as plain literals.

The checks already return the contract's objects with every term explicit and every
default filled in (contract.tables); lowering only gathers them into the six tables,
sorted by id, and takes their literals. Nothing here can fail on checked content.
"""

from __future__ import annotations

from contract.codec import to_literal
from contract.tables import (SCHEMA_VERSION, BalanceTable, DecksTable, EnemiesTable,
                             JourneyTable, PagesTable, vocabulary_table)

#: The deck a run starts with (DESIGN §6: defined in content, 10 pages).
STARTING_DECK = "starter"


def _by_id(items) -> dict:
    return {item.id: item for item in sorted(items, key=lambda item: item.id)}


def lower(model: dict) -> dict[str, dict]:
    """All tables of a checked model (with its balance), keyed by table name."""
    tables = {
        "pages": PagesTable(SCHEMA_VERSION, _by_id(model["pages"])),
        "enemies": EnemiesTable(SCHEMA_VERSION, _by_id(model["enemies"])),
        "balance": BalanceTable(SCHEMA_VERSION, model["balance"]),
        "decks": DecksTable(SCHEMA_VERSION, STARTING_DECK, _by_id(model["decks"])),
        "vocabulary": vocabulary_table(),
        "journey": model["journey"] or JourneyTable(SCHEMA_VERSION, {}, {}, {}, {}, {}, {}),
    }
    return {name: to_literal(table) for name, table in tables.items()}
