"""スキーマ — schemas/*.schema.json, generated from the contract classes.

Game clients validate the tables with these files; the compiler never needs them (the
classes check the tables as they are built and loaded). ``jibunki compile --check`` fails
when the files in schemas/ differ from what the classes generate.
"""

from __future__ import annotations

import json

from .codec import schema_of
from .tables import TABLES

TITLES = {
    "pages": "自分紀 pages table (generated/pages.py)",
    "enemies": "自分紀 enemies table (generated/enemies.py)",
    "balance": "自分紀 balance table (generated/balance.py)",
    "decks": "自分紀 decks table (generated/decks.py)",
    "vocabulary": "自分紀 vocabulary table (generated/vocabulary.py)",
    "journey": "自分紀 journey table: draft 17 (generated/journey.py)",
}


def schema(name: str) -> dict:
    """The JSON Schema (Draft 2020-12) of table ``name``, self-contained."""
    defs: dict = {}
    root = schema_of(TABLES[name], defs)
    top = defs.pop(root["$ref"].rsplit("/", 1)[1])
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"urn:jibunki:{name}", "title": TITLES[name], **top,
            "$defs": dict(sorted(defs.items()))}


def schema_files() -> dict[str, str]:
    """File name → text of every schema file, as written to schemas/."""
    return {f"{name}.schema.json": json.dumps(schema(name), ensure_ascii=False, indent=1) + "\n"
            for name in TABLES}
