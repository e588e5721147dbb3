"""例のレンズ — a code lens over each example (例) of a document: run it, see its last result.

An example is played as ``jibunki test`` plays it (scenario.check → scenario.run), on the
tables of the document's last check, which holds the other files of its content folder
as context. Only the example asked for is played. Its result is kept by the example's
place (file and title, or its line when it has none) until it is run again, so an edit
elsewhere in the file keeps it on the lens — said as the last result, not the current one,
once the example's own text or the tables it plays (any page, enemy or balance) have
changed since it ran (the texts of the folder's files, which every check holds):
「成功」 stayed on a lens whose example no longer passed. No LSP types here.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.lint import Result
from dsl import ast
from scenario.tally import FAILED, PASSED

from .texts import shown_at, texts_digest

__all__ = ["COMMAND", "Lens", "Outcome", "Runs", "lenses", "run_example"]

#: The command a lens runs (workspace/executeCommand), with the document's URI and the
#: example's first line (0-based) as arguments.
COMMAND = "jibunki.runExample"

#: A lens's title: before any run, after a pass, after a failure (the first failure's
#: line and message), when it could not run: 成功 / 失敗 as ``jibunki test`` says them.
TITLES = {
    "never": "▶ 例を実行",
    "passed": f"{PASSED} ▶ もう一度実行",
    "failed": FAILED + " {line} 行: {message} ▶ もう一度実行",
    "blocked": "実行できません: {message} ▶ もう一度実行",
}
#: A result kept from before the example or what it plays changed (its title follows).
STALE = "前回の結果（このあと例か内容が変わりました）: "
#: A failure's message on a lens is cut at this many characters (a lens is one line).
MAX_SHOWN = 80


@dataclass(frozen=True)
class Outcome:
    """What the last run of an example gave: passed, failed (first failure's 1-based line
    and message, and how many failures) or blocked (why it could not run)."""

    state: str  # "passed", "failed" or "blocked"
    line: int = 0
    message: str = ""
    failures: int = 0

    def title(self) -> str:
        """The lens's title for this outcome."""
        shown = self.message if len(self.message) <= MAX_SHOWN \
            else self.message[:MAX_SHOWN - 1] + "…"
        return TITLES[self.state].format(line=self.line, message=shown)


@dataclass(frozen=True)
class Lens:
    """One lens: the example's first line (0-based) and its title."""

    line: int
    title: str


class Runs:
    """The last outcome of each example run from the editor, by (path, title or line),
    with the digest of what it played (``played_digest``)."""

    def __init__(self):
        self._last: dict[tuple[str, str], tuple[Outcome, str]] = {}

    def get(self, key: tuple[str, str]) -> Outcome | None:
        """The last outcome of the example ``key``, or None when it never ran."""
        kept = self._last.get(key)
        return None if kept is None else kept[0]

    def put(self, key: tuple[str, str], outcome: Outcome, played: str = "") -> None:
        """Keep ``outcome`` as the last one of the example ``key``, played on ``played``."""
        self._last[key] = (outcome, played)

    def current(self, key: tuple[str, str], played: str) -> bool:
        """Whether the last outcome of ``key`` was played on what ``played`` digests."""
        kept = self._last.get(key)
        return kept is not None and kept[1] == played


def played_digest(result: Result) -> str:
    """What an example plays, as a digest: the folder's texts as the check read them
    (the example's own among them; the pages, enemies and balance it plays)."""
    return texts_digest(result.sources)


def _key(path: str, example: ast.Example) -> tuple[str, str]:
    return path, example.title if example.title is not None else f"@{example.span.line}"


def lenses(result: Result, path: str, runs: Runs, now: str | None = None) -> list[Lens]:
    """A lens over each example of the document ``path``, titled with its last outcome —
    marked as of before a change when ``now`` (the digest of the folder's texts now, every
    document's: an edit of the page an example plays changes it) is not what it played
    (None: the document's own last check's)."""
    now = played_digest(result) if now is None else now
    found = []
    for example in result.items_of(path, ast.Example):
        key = _key(path, example)
        last = runs.get(key)
        if last is None:
            title = TITLES["never"]
        elif runs.current(key, now):
            title = last.title()
        else:
            title = STALE + last.title()
        found.append(Lens(example.span.line - 1, title))
    return found


def run_example(result: Result, specs: list[dict], path: str, line: int,
                runs: Runs, played: str | None = None) -> Outcome | None:
    """Play the example of ``path`` whose first line is ``line`` (0-based) on the tables of
    ``result`` and keep its outcome in ``runs``; None when no example starts there.
    ``specs`` are the examples the check of ``result`` found (lsp.folder.Folder.full:
    their diagnostics are already the result's, so no example is checked twice).
    ``played``: the digest it is kept with (None: of the result's texts)."""
    example = next((e for e in result.items_of(path, ast.Example)
                    if e.span.line - 1 == line), None)
    if example is None:
        return None
    errors = sorted((d for d in result.compilation.diagnostics if d.is_error),
                    key=lambda d: (d.span.path != path, d.sort_key()))
    spec = next((s for s in specs if s["path"] == path and s["line"] == example.span.line),
                None)
    if errors:
        first = errors[0]
        outcome = Outcome("blocked", first.span.line,
                          f"{shown_at(first.span)}: {first.message}" if first.span.path != path
                          else f"{first.span.line} 行: {first.message}")
    elif spec is None or not result.tables:
        outcome = Outcome("blocked", example.span.line,
                          "バランスがありません" if spec is not None else "例を読めません")
    else:
        outcome = _played(spec, result.tables)
    runs.put(_key(path, example), outcome, played_digest(result) if played is None else played)
    return outcome


def _played(spec: dict, literal_tables: dict) -> Outcome:
    from scenario.stage import play

    played, bugs = play([spec], literal_tables)
    if bugs or not played:  # a bug in jibunki: said on the lens, never a crashed server
        return Outcome("blocked", spec["line"],
                       bugs[0].message if bugs else "jibunki の内部エラー")
    (outcome,) = played
    if outcome.passed:
        return Outcome("passed")
    first = outcome.failures[0]
    return Outcome("failed", first.line, first.message, len(outcome.failures))
