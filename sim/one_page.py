"""一枚の実験 — the balance lab for one page, quick: what the editor's 「この ページで実験」 runs.

``jibunki sim --page ID`` measures the enemies too, then the page under every policy of
the ladder; a designer who just changed a page wants its Δ win rate in seconds. So this
run skips the enemy phase (its rows are not the page's) and plays the page's pairs under
the main policy only, to a looser precision (``EDITOR``); the page's row is the lab's own
(sim/lab.py ``Lab.report``), so it reads like a row of the full report.

Run as ``python -m sim.one_page`` (sim.oneshot): the tables' literals, the page's id
and settings come pickled on stdin from the language server, and the row goes back as
JSON on stdout — or ``{"error": …}``, one Japanese line, never a traceback.
"""

from __future__ import annotations

import sys

from .oneshot import serve

from .lab import Lab, Settings

__all__ = ["EDITOR", "UnknownPage", "run_page"]

#: The editor's settings beyond the page and the enemies: the main policy only, a ±6 pt
#: interval, at most 600 pairs — about two seconds for a page on one core.
EDITOR = {"ladder": ("greedy",), "precision": 0.06, "max_pairs": 600, "batch": 100}


class UnknownPage(KeyError):
    """The page asked for is not in the tables (renamed or removed since)."""


class _PagesOnly(Lab):
    """The lab without its enemy phase: the page's pairs alone."""

    def run_enemies(self) -> list:
        return []


def run_page(tables_literal: dict, page: str, workers: int = 1, **settings) -> dict:
    """The lab's report row of ``page`` (sim/lab.py ``_page_row``'s keys) against every
    enemy of the tables, with ``EDITOR`` settings (``settings`` overrides them), and the
    settings it was played with under ``"settings"``.
    Errors: UnknownPage (a KeyError) for a page the tables do not have."""
    from runtime.tables import from_dicts

    tables = from_dicts(tables_literal)
    if page not in tables.pages:
        raise UnknownPage(page)
    chosen = {**EDITOR, **settings}
    lab = _PagesOnly(tables_literal, tables, Settings(
        enemies=tuple(sorted(tables.enemies)), pages=(page,), **chosen), workers=workers)
    report = lab.run()
    (row,) = report["pages"]
    return {**row, "settings": report["settings"]}


def main() -> int:
    """Read (tables literal, page id, settings) pickled on stdin; write the row as JSON
    (sim.oneshot)."""
    return serve(lambda tables_literal, page, settings: run_page(tables_literal, page, **settings),
                 {UnknownPage: lambda exc: f"ページ {exc.args[0]} が表にありません"})

if __name__ == "__main__":
    sys.exit(main())
