"""表の読み込み — load the compiled tables (generated/*.py) as plain data.

The runtime reads the tables with ``ast.literal_eval`` of each module's ``TABLE``: no
content is ever imported or executed, and a game client can ship this folder and
``generated/`` alone.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

TABLE_NAMES = ("pages", "enemies", "balance", "decks", "vocabulary")
SCHEMA_VERSION = 1
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "generated"


class TableError(Exception):
    """The tables are missing, unreadable, or of another schema version."""


@dataclass(frozen=True)
class Tables:
    pages: dict
    enemies: dict
    balance: dict
    decks: dict
    starting_deck: str
    vocabulary: dict

    def starter(self) -> list[str]:
        return list(self.decks[self.starting_deck]["pages"])


def read_table(path: Path) -> dict:
    try:
        module = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise TableError(f"{path}: 読めません ({exc})") from exc
    for node in module.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "TABLE"):
            try:
                table = ast.literal_eval(node.value)
            except ValueError as exc:
                raise TableError(f"{path}: TABLE がリテラルではありません") from exc
            if table.get("schema_version") != SCHEMA_VERSION:
                raise TableError(f"{path}: schema_version {table.get('schema_version')} "
                                 f"（このランタイムは {SCHEMA_VERSION}）")
            return table
    raise TableError(f"{path}: TABLE がありません")


def from_dicts(tables: dict[str, dict]) -> Tables:
    """Tables from in-memory dicts (as ``compile_content`` returns them)."""
    return Tables(
        pages=tables["pages"]["pages"],
        enemies=tables["enemies"]["enemies"],
        balance=tables["balance"]["balance"],
        decks=tables["decks"]["decks"],
        starting_deck=tables["decks"]["starting_deck"],
        vocabulary=tables["vocabulary"],
    )


def load(directory: Path | str = DEFAULT_DIR) -> Tables:
    directory = Path(directory)
    return from_dicts({name: read_table(directory / f"{name}.py") for name in TABLE_NAMES})
