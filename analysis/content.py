"""解析対象 — the content as the analysis reads it: the checked pages, enemies and balance
(contract objects), by id, whichever stage holds them — the compiler's model during lint,
the loaded tables (runtime.tables.Tables) everywhere else."""

from __future__ import annotations

from typing import NamedTuple

from contract.tables import Balance, Enemy, Page


class Content(NamedTuple):
    """Pages and enemies by id (sorted), and the balance (None: not known)."""

    pages: dict[str, Page]
    enemies: dict[str, Enemy]
    balance: Balance | None

    @classmethod
    def of_tables(cls, tables) -> "Content":
        """From loaded tables (anything with ``pages``, ``enemies`` and ``balance``)."""
        return cls(dict(sorted(tables.pages.items())), dict(sorted(tables.enemies.items())),
                   tables.balance)

    @classmethod
    def of_model(cls, model) -> "Content":
        """From the compiler's model (items with errors are None there: left out)."""
        return cls({p.id: p for p in sorted((p for p in model.pages if p is not None),
                                            key=lambda p: p.id)},
                   {e.id: e for e in sorted((e for e in model.enemies if e is not None),
                                            key=lambda e: e.id)},
                   model.balance)
