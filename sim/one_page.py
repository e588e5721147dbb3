"""一枚の実験 — the balance lab for one page, quick: what the editor's 「この ページで実験」 runs.

``jibunki sim --page ID`` measures the enemies too, then the page under every policy of
the ladder; a designer who just changed a page wants its Δ win rate in seconds. So this
run skips the enemy phase (its rows are not the page's) and plays the page's pairs under
the main policy only, to a looser precision (``EDITOR``); the page's row is the lab's own
(sim/lab.py ``Lab.report``), so it reads like a row of the full report.

Run as ``python -m sim.one_page``: the tables' literals and the page's id come pickled on
stdin from the process that started it (the language server, which checked the content
in memory), and the row goes back as JSON on stdout — or ``{"error": …}``, one Japanese
line, never a traceback. A process of its own: the server's loop never waits on a battle.
"""

from __future__ import annotations

import json
import pickle
import sys

from .lab import Lab, Settings

__all__ = ["EDITOR", "run_page"]

#: The editor's settings beyond the page and the enemies: the main policy only, a ±6 pt
#: interval, at most 600 pairs — about two seconds for a page on one core.
EDITOR = {"ladder": ("greedy",), "precision": 0.06, "max_pairs": 600, "batch": 100}


class _PagesOnly(Lab):
    """The lab without its enemy phase: the page's pairs alone."""

    def run_enemies(self) -> list:
        return []


def run_page(tables_literal: dict, page: str, workers: int = 1, **settings) -> dict:
    """The lab's report row of ``page`` (sim/lab.py ``_page_row``'s keys) against every
    enemy of the tables, with ``EDITOR`` settings (``settings`` overrides them), and the
    settings it was played with under ``"settings"``.
    Errors: KeyError for a page the tables do not have."""
    from runtime.tables import from_dicts

    tables = from_dicts(tables_literal)
    if page not in tables.pages:
        raise KeyError(page)
    chosen = {**EDITOR, **settings}
    lab = _PagesOnly(tables_literal, tables, Settings(
        enemies=tuple(sorted(tables.enemies)), pages=(page,), **chosen), workers=workers)
    report = lab.run()
    (row,) = report["pages"]
    return {**row, "settings": report["settings"]}


def main() -> int:
    """Read (tables literal, page id, settings) pickled on stdin; write the row as JSON."""
    try:
        tables_literal, page, settings = pickle.load(sys.stdin.buffer)
        found = run_page(tables_literal, page, **settings)
    except KeyError as exc:
        found, code = {"error": f"ページ {exc.args[0]} が表にありません"}, 1
    except Exception as exc:  # a bug of jibunki: one line for the designer, not a traceback
        found, code = {"error": f"jibunki の内部エラー: {type(exc).__name__}: {exc}"}, 1
    else:
        code = 0
    sys.stdout.write(json.dumps(found, ensure_ascii=False))
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
