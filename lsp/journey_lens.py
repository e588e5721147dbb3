"""旅の測定のレンズ — over each 旅の準備 its last measured win rate against its 目標 and the
verdict, as the report says them (「勝率 2想定 38.5 [32.0, 45.4] % ／ 目標 勝率 30%〜70% 達成
（2 位・迷う選択肢/局 114.9）」), and the command 「この 準備で測る」 that measures that set-up
again; the pages' lens (lsp.lab_lens) does the same for the balance lab.

Where a verdict comes from, newest first: a run from the editor (``run_setup``: the report
for that set-up alone, journey/lab/one_setup.py, in a process of its own on the journey
table of the last check — the text in the editor, saved or not), else the JSON report
``jibunki journey report --html`` leaves beside the content folder
(``generated/journey/journey-report.json``). The report is data from disk, read as
untrusted: another format, a broken file, a row whose figures are not numbers — the
set-up simply has no lens, never an error. A set-up's figures depend on every journey
file (a variant inherits its 元's fields), so a verdict is marked old once the journey
texts differ from those an editor run measured, or, for the report (it keeps no texts),
once any of the folder's journey files was modified after it or the editor holds unsaved
changes to the document.
No LSP types here.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from compiler.lint import Result
from contract import disk
from contract.vocabulary import W
from dsl import ast

from .editor_runs import Run, Words, title as run_title
from .stamped import Stamped, number, report_of

__all__ = ["COMMAND", "REPORT", "RUN_TITLE", "STALE", "WORDS", "Reports", "SetupLens",
           "journey_digest", "lenses", "run_setup", "setup_at", "setups_of", "summary"]

#: The command a lens or a code action runs (workspace/executeCommand), with the
#: document's URI and the set-up's id as arguments (and, optionally, the editor's
#: settings: journey/lab/one_setup.py EDITOR_LIMITS).
COMMAND = "jibunki.runSetupReport"
#: What the command is called where the designer picks it (a code action, the lens).
RUN_TITLE = "この 準備で測る"
RUNNING = "測定中…"
BLOCKED = "測れません: {message}"
#: Seconds an editor run may take before it is stopped: the report's 200 deals of one
#: set-up take some 40 s on two cores, 70 s on one (docs/journey-report.md).
RUN_TIMEOUT = 900.0

#: Where ``jibunki journey report --html`` leaves its report (its default folder), beside
#: the content folder.
REPORT = Path("generated") / "journey" / "journey-report.json"
#: A report of every set-up and item pair is some hundred kilobytes; a far larger file is
#: not one.
MAX_REPORT_BYTES = 64 * 1024 * 1024
#: A journey file larger than this is not read back to compare (lint refuses it anyway).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: The item kind whose definitions get a lens (contract.kinds: 旅の準備).
SETUP = "setup"
#: Said after a verdict the journey files may have changed since.
STALE = "前回の結果（この後 旅のファイルを変更）"
#: The journey files: a set-up's figures depend on each of them (元, items, cards).
JOURNEY_SUFFIX = ".journey"
#: The set-up lens's words, as an editor run is shown (lsp.editor_runs).
WORDS = Words(run=RUN_TITLE, running=RUNNING, blocked=BLOCKED, stale=STALE,
              busy="この 準備はいま測定中です")


@dataclass(frozen=True)
class SetupLens:
    """One lens: the set-up's first line (0-based), its id and the title."""

    line: int
    setup: str
    title: str


class Reports:
    """The last editor run of each set-up, by (content folder, set-up id), and the set-ups'
    verdicts of the report last read, by the report's path (read again when its stamp
    changes)."""

    def __init__(self):
        self.last: dict[tuple[str, str], Run] = {}
        self._read: Stamped[dict[str, str]] = Stamped(_read_titles, {})

    def titles(self, path: Path | None) -> tuple[dict[str, str], int | None]:
        """Each measured set-up's title by id, and the report's modification time (ns);
        nothing when there is no readable report of the journey's format."""
        return self._read.get(path)


def report_path(root: Path, alone: bool) -> Path | None:
    """The journey report of the content folder ``root`` (none for a file checked alone)."""
    return None if alone else root.parent / REPORT


def _read_titles(path: Path) -> dict[str, str]:
    from journey.lab.measure import FORMAT

    report = report_of(path, FORMAT, MAX_REPORT_BYTES)
    if report is None:
        return {}
    settings, rows, ranking = (report.get(k) for k in ("settings", "variants", "ranking"))
    budgets = settings.get("budgets") if isinstance(settings, dict) else None
    if not isinstance(rows, list) or not _budgets(budgets):
        return {}
    entries = {e["id"]: e for e in ranking if isinstance(e, dict) and isinstance(e.get("id"), str)} \
        if isinstance(ranking, list) else {}
    if settings.get("setups") is not None:
        # a report of set-ups chosen with --setup ranks them among themselves: not the
        # place a set-up's lens would say it holds among the variants
        entries = {ident: {**e, "rank": None} for ident, e in entries.items()}
    found: dict[str, str] = {}
    for row in rows:
        # a set-up's own row (an item pair's row measures the draft with other items)
        if isinstance(row, dict) and isinstance(row.get("id"), str) and row.get("setup") == row["id"]:
            title = summary(row, entries.get(row["id"]), budgets)
            if title is not None:
                found.setdefault(row["id"], title)
    return found


def _budgets(budgets) -> bool:
    return isinstance(budgets, list) and bool(budgets) and all(
        isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in budgets)


def _fraction(value) -> bool:
    found = number(value)
    return found is not None and 0 <= found <= 1


def _interval(value) -> bool:
    return isinstance(value, dict) and all(_fraction(value.get(k)) for k in ("estimate", "low", "high")) \
        and value["low"] <= value["estimate"] <= value["high"]


def summary(row: dict, entry: dict | None, budgets: list[int]) -> str | None:
    """A set-up's row of the report (and its ranking ``entry``, when it states a 目標) as
    the lens says it, in the report's words (journey.lab.text) — or None when the row lacks
    what it needs (a broken report)."""
    from journey.lab import measure, text
    from sim.stats import MISSED_SIDE

    players = row.get("players")
    if not isinstance(players, list) or len(players) != len(budgets) or not players \
            or not isinstance(players[-1], dict) or not _interval(players[-1].get("win_rate")):
        return None
    target = row.get("target")
    load = entry.get("load") if isinstance(entry, dict) else None
    if load is not None and number(load) is None:
        return None
    if target is None:
        rate = text.interval_text(players[-1]["win_rate"], signed=False)
        said = f"{W.measure.win_rate} {budgets[-1]}想定 {rate} %"
        rivals = players[-1].get("rivals_per_game")
        if number(rivals) is not None:
            said += f" ・ {measure.LOAD_LABEL} {rivals:.1f}"
        return said
    if not isinstance(target, dict) or not all(_fraction(target.get(k)) for k in ("low", "high")) \
            or not isinstance(entry, dict) or entry.get("status") not in measure.STATUS_WORDS:
        return None
    status = entry["status"]
    said = f"{text.against_target(row, budgets)} {measure.STATUS_WORDS[status]}"
    rank, seeds = entry.get("rank"), entry.get("seeds_to_decide")
    if status == "met" and isinstance(rank, int) and load is not None:
        said += f"（{rank} 位・{measure.LOAD_LABEL} {load:.1f}）"
    elif status == "met" and rank is None and load is not None:  # measured alone: no rank
        said += f"（{measure.LOAD_LABEL} {load:.1f}）"
    elif status == "missed":
        above = players[-1]["win_rate"]["low"] > target["high"]
        said += f"（{MISSED_SIDE[above]}）"
    elif status == "undecided" and isinstance(seeds, int) and seeds > 0:
        said += f"（今の{W.measure.win_rate}のままなら --deals {seeds} で判定）"
    return said


def _changed_since(result: Result, path: str, lines: list[str], written_ns: int) -> bool:
    """Whether the set-ups may have changed since the report written at ``written_ns``: a
    journey file of the folder modified after it, or the document's text in the editor not
    the one saved (unsaved changes)."""
    journeys = {s.path for s in result.compilation.sources if s.path.endswith(".journey")} \
        if result.compilation is not None else {path}
    try:
        if any(os.stat(p).st_mtime_ns > written_ns for p in journeys | {path}):
            return True
        saved = disk.read_bounded(path, MAX_FILE_BYTES).decode("utf-8", "replace")
    except (disk.DiskError, OSError):
        return True  # no file to compare with: the report cannot be of this text
    editor = "\n".join(line.rstrip("\r") for line in lines)
    return editor.rstrip("\n") != saved.replace("\r\n", "\n").rstrip("\n")


#: The last texts digested and their digest: each set-up lens of a refresh asks of the same
#: check's texts (kept as the object itself, as lsp.texts does).
_last: tuple[dict, str] | None = None


def journey_digest(result: Result) -> str:
    """A digest of the journey files' texts as ``result``'s check read them (the editor's,
    saved or not): what tells the texts an editor run measured from those now. Worked out
    once for the same texts in a row."""
    global _last
    sources = result.sources
    if _last is not None and _last[0] is sources:
        return _last[1]
    digest = hashlib.sha256()
    for name in sorted(n for n in sources if n.endswith(JOURNEY_SUFFIX)):
        digest.update(f"{name}\0{sources[name]}\0".encode("utf-8", "replace"))
    _last = (sources, digest.hexdigest())
    return _last[1]


def setups_of(result: Result, path: str) -> list:
    """The 旅の準備 of the document ``path``, in order."""
    return [item for item in result.items_of(path, ast.JourneyItem) if item.kind == SETUP]


def setup_at(result: Result, path: str, line: int):
    """The 旅の準備 of the document whose definition holds ``line`` (0-based), if any."""
    return next((s for s in setups_of(result, path)
                 if s.span.line - 1 <= line <= s.span.end_line - 1), None)


def lenses(result: Result, path: str, lines: list[str], root: Path, alone: bool,
           reports: Reports) -> list[SetupLens]:
    """A lens over each 旅の準備 of the document ``path`` (``lines``: its text in the
    editor) that has a verdict: from an editor run, else from the folder's report."""
    setups = setups_of(result, path)
    if not setups:
        return []
    titles, written = reports.titles(report_path(root, alone))
    old = None  # whether the report may be older than the journey texts (asked once)
    found = []
    for item in setups:
        name = item.id.text
        title = run_title(reports.last.get((str(root), name)), result.sources,
                          lambda: journey_digest(result), WORDS)
        if title is None and name in titles:  # no editor run: the report's verdict
            if old is None:
                old = _changed_since(result, path, lines, written)
            title = f"{titles[name]}{f' ・ {STALE}' if old else ''} ▶ {RUN_TITLE}"
        if title is not None:
            found.append(SetupLens(item.span.line - 1, name, title))
    return found


# ------------------------------------------------------------------ the run


async def run_setup(table_literal: dict, setup: str, settings: dict | None = None,
                    timeout: float = RUN_TIMEOUT) -> tuple[str | None, str]:
    """(the lens's title of the verdict, "") from the report for ``setup`` alone
    (journey/lab/one_setup.py) in a process of its own (sim.oneshot), awaited without
    blocking the loop; (None, why) in Japanese when it could not run."""
    from sim.oneshot import ask

    answer, why = await ask("journey.lab.one_setup", (table_literal, setup, settings or {}),
                            timeout, "測定")
    if answer is None:
        return None, why
    row, entry, budgets = (answer.get(k) for k in ("row", "entry", "budgets"))
    title = summary(row, entry, budgets) if isinstance(row, dict) and _budgets(budgets) \
        and row.get("id") == setup else None
    if title is None:
        return None, "測定の結果を読めません"
    return title, ""
