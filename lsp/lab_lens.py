"""実験のレンズ — over each page definition, its last balance lab verdict and 目標 status,
and the command 「この ページで実験」 that measures that page again.

Where a verdict comes from, newest first: a run from the editor (``run_page``: the lab for
that page alone, sim/one_page.py, in a process of its own on the tables of the last check
— the text in the editor, saved or not), else the JSON report ``jibunki sim --html`` left
beside the content folder (``generated/sim/report.json``, found as the catalog finds it).
The report is data from disk, read as untrusted: another format, a broken file, a row
whose figures are not numbers — the page simply has no lens, never an error.

A verdict older than the page's text says so: for an editor run, the page's text hashed
when it ran differs from its text now; for the report (it keeps no hash), the page's file
was modified after the report was written, or the editor holds unsaved changes to the page.
No LSP types here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from compiler.lint import Result
from contract import disk
from contract.vocabulary import W
from dsl import ast

from .editor_runs import Run, Words, title as run_title
from .stamped import Stamped, number, report_of

__all__ = ["COMMAND", "WORDS", "Lens", "Runs", "lenses", "page_at", "report_path", "run_page"]

#: The command a lens or a code action runs (workspace/executeCommand), with the
#: document's URI and the page's id as arguments.
COMMAND = "jibunki.runPageLab"
#: What the command is called where the designer picks it (a code action, the lens).
RUN_TITLE = "この ページで実験"
#: Where ``jibunki sim --html`` leaves its report, from the folder that holds content/.
REPORT = Path("generated") / "sim" / "report.json"
#: A report larger than this is no report of ours (the full one is a few hundred KB).
MAX_REPORT_BYTES = 64 * 1024 * 1024
#: A page file larger than this is not read back to compare (lint refuses it anyway).
MAX_PAGE_FILE_BYTES = 4 * 1024 * 1024
#: Seconds an editor run may take before it is stopped (it takes a few).
RUN_TIMEOUT = 120.0
STALE = "前回の結果（この後ページを変更）"
RUNNING = "実験中…"
BLOCKED = "実験できません: {message}"
#: The page lens's words, as an editor run is shown (lsp.editor_runs).
WORDS = Words(run=RUN_TITLE, running=RUNNING, blocked=BLOCKED, stale=STALE,
              busy="この ページはいま実験中です")


@dataclass(frozen=True)
class Lens:
    """One lens: the page's first line (0-based), its id and the title."""

    line: int
    page: str
    title: str


class Runs:
    """The last editor run of each page, by (content folder, page id), and the rows of the
    report last read, by the report's path (read again when its stamp changes)."""

    def __init__(self):
        self.last: dict[tuple[str, str], Run] = {}
        self._reports: Stamped[dict[str, dict]] = Stamped(_read_rows, {})

    def report_rows(self, path: Path | None) -> tuple[dict[str, dict], int | None]:
        """The page rows of the report at ``path`` by id, and the report's modification
        time (ns); nothing when there is no readable report of the lab's format."""
        return self._reports.get(path)


def report_path(root: Path, alone: bool) -> Path | None:
    """The report of the content folder ``root`` (none for a file checked alone)."""
    return None if alone else root.parent / REPORT


def _read_rows(path: Path) -> dict[str, dict]:
    from sim.lab import FORMAT

    report = report_of(path, FORMAT, MAX_REPORT_BYTES)
    if report is None:
        return {}
    rows = report.get("pages")
    asked = _question(report.get("settings"))
    found: dict[str, dict] = {}
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and isinstance(row.get("id"), str) \
                and summary(row) is not None:
            found.setdefault(row["id"], {**row, "question": asked} if asked else row)
    return found


def _question(settings) -> str:
    """What a report's Δ answers when it is not the page added against the enemy pool (the
    lens's own question): 「sakamichi と入れ替え」, 「敵 shimekiri だけ」 — said before the
    figure, as the terminal and the catalog say it; "" for the pool's Δ when added."""
    if not isinstance(settings, dict):
        return ""
    said = []
    page = settings.get("baseline_page")
    if isinstance(page, str):
        names = settings.get("page_names")
        name = names.get(page) if isinstance(names, dict) else None
        said.append(f"「{name if isinstance(name, str) else page}」と入れ替え")
    enemies = settings.get("enemies")
    if settings.get("mode") == "stages" and isinstance(enemies, list):
        said.append("敵 " + "→".join(map(str, enemies)) + " と続けて")
    elif settings.get("mode") == "pool" and isinstance(enemies, list) and len(enemies) == 1:
        said.append(f"敵 {enemies[0]} だけ")
    return "・".join(said)


# ------------------------------------------------------------------ the title


def _percent(value: float, signed: bool = True) -> str:
    shown = round(value * 100, 1) + 0.0  # + 0.0: no "-0"
    return f"{shown:+g}%" if signed and shown else f"{shown:g}%"


def summary(row: dict) -> str | None:
    """A report row's verdict as the lens says it — 「勝率差 +4.1%（±2.9%）強い ・ 目標
    -15%〜+10% 達成」, in the words of the lab's reports (``sim.stats``) — or None when the
    row lacks what it needs (a broken report)."""
    from sim.stats import MISSED_SIDE, TARGET_WORDS, VERDICTS

    delta = row.get("delta")
    if not isinstance(delta, dict):
        return None
    estimate, low, high = (number(delta.get(k)) for k in ("estimate", "low", "high"))
    verdict = row.get("verdict")
    if None in (estimate, low, high) or not low <= high \
            or not isinstance(verdict, str) or verdict not in VERDICTS:
        return None
    asked = row.get("question")
    text = ((f"{asked}: " if isinstance(asked, str) and asked else "")
            + f"{W.measure.win_rate_delta} {_percent(estimate)}（±{_percent((high - low) / 2, signed=False)}）"
            f"{VERDICTS[verdict]}")
    target = row.get("target")
    if target is None:
        return text
    if not isinstance(target, dict):
        return None
    t_low, t_high = number(target.get("low")), number(target.get("high"))
    met = row.get("target_met")
    if t_low is None or t_high is None or met not in TARGET_WORDS:
        return None
    status = TARGET_WORDS[met]
    if met is False:
        status += f"（{MISSED_SIDE[low > t_high]}）"
    return f"{text} ・ 目標 {_percent(t_low)}〜{_percent(t_high)} {status}"


# ------------------------------------------------------------------ the pages


def _text(lines: list[str], page: ast.Page) -> str:
    """The lines the page's definition spans, as the editor has them."""
    return "\n".join(line.rstrip("\r") for line in lines[page.span.line - 1:page.span.end_line])


def digest(lines: list[str], page: ast.Page) -> str:
    """The hash of the page's text (sim.lab ``text_digest``): what tells the text an editor
    run or a report measured from the page's now."""
    from sim.lab import text_digest

    return text_digest(_text(lines, page))


def page_at(result: Result, path: str, line: int) -> ast.Page | None:
    """The page of the document whose definition holds ``line`` (0-based), if any."""
    return next((p for p in result.items_of(path, ast.Page)
                 if p.span.line - 1 <= line <= p.span.end_line - 1), None)


def page_named(result: Result, path: str, page: str) -> ast.Page | None:
    """The page of the document whose id is ``page``, if any."""
    return next((p for p in result.items_of(path, ast.Page) if p.id.text == page), None)


def _changed_since(path: str, lines: list[str], page: ast.Page, written_ns: int) -> bool:
    """For a report that keeps no digest of the page's text (an older one): whether the
    page's text may be newer than the report written at ``written_ns`` — its file was
    modified after, or the editor's text of the page is not in the file (unsaved
    changes)."""
    try:
        if os.stat(path).st_mtime_ns > written_ns:
            return True
        saved = disk.read_bounded(path, MAX_PAGE_FILE_BYTES).decode("utf-8", "replace")
    except (disk.DiskError, OSError):
        return True  # no file to compare with: the report cannot be of this text
    return _text(lines, page) not in saved.replace("\r\n", "\n")


def lenses(result: Result, path: str, lines: list[str], root: Path, alone: bool,
           runs: Runs) -> list[Lens]:
    """A lens over each page of the document ``path`` (``lines``: its text in the editor)
    that has a verdict: from an editor run, else from the folder's report."""
    pages = result.items_of(path, ast.Page)
    if not pages:
        return []
    rows, written = runs.report_rows(report_path(root, alone))
    found = []
    for page in pages:
        name = page.id.text
        title = run_title(runs.last.get((str(root), name)), result.sources,
                          lambda: digest(lines, page), WORDS)
        if title is None and name in rows:  # no editor run: the report's verdict
            title = summary(rows[name])
            measured = rows[name].get("text_sha256")
            if (measured != digest(lines, page) if isinstance(measured, str)
                    else _changed_since(path, lines, page, written)):
                title += f" ・ {STALE}"
            title += f" ▶ {RUN_TITLE}"
        if title is not None:
            found.append(Lens(page.span.line - 1, name, title))
    return found


# ------------------------------------------------------------------ the run


async def run_page(tables_literal: dict, page: str, settings: dict | None = None,
                   timeout: float = RUN_TIMEOUT) -> tuple[dict | None, str]:
    """(the page's row, "") from the lab for ``page`` alone (sim/one_page.py) in a process
    of its own (sim.oneshot), awaited without blocking the loop; (None, why) in
    Japanese when it could not run."""
    from sim.oneshot import ask

    answer, why = await ask("sim.one_page", (tables_literal, page, settings or {}), timeout,
                            "実験")
    if answer is None:
        return None, why
    if summary(answer) is None:
        return None, "実験の結果を読めません"
    return answer, ""
