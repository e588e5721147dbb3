"""診断 — source spans and diagnostics, shared by every pass, and their rendering.

A diagnostic never raises: passes return them as values, the CLI prints them all.
Rendering follows compilers: ``path:line:col: エラー[E020]: message``, the source line, a
caret under the span (aligned by East Asian display width), then hint and notes.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True, order=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, end is exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def contains_line(self, line: int) -> bool:
        """Whether ``line`` is one of the lines the span covers (first and last included)."""
        return self.line <= line <= self.end_line


@dataclass(frozen=True)
class Note:
    """A further remark on a diagnostic, optionally at another place (the other definition
    of a duplicate id)."""

    message: str
    span: Span | None = None


#: Codes of a file that could not be read at all (E004): listed before everything else,
#: because the names it defines are missing everywhere and what that causes (an E011 at
#: each use) follows from it.
UNREAD = frozenset({"E004"})


@dataclass(frozen=True)
class Diagnostic:
    """診断 — one finding of a pass: code, severity, message, place, and always a hint.

    ``replacements`` are texts that may stand in place of the span, best first — what a
    did-you-mean names, the reference with each scope it may take — kept as data so that
    an editor's quick fix never reads them back out of the hint's words."""

    code: str
    severity: str
    message: str
    span: Span
    hint: str = ""
    notes: tuple[Note, ...] = field(default=())
    replacements: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        # Every diagnostic carries a hint: when the pass had nothing specific to say, the
        # hint points at the code's explanation (a bad and a good example).
        if not self.hint:
            object.__setattr__(self, "hint", f"詳しくは jibunki explain {self.code}")

    @property
    def is_error(self) -> bool:
        """Whether the diagnostic is an error (it fails the check) rather than a warning."""
        return self.severity == ERROR

    def sort_key(self):
        """The order diagnostics are shown in: a file that could not be read first
        (UNREAD), then file, line, column and code."""
        return (self.code not in UNREAD, self.span.path, self.span.line, self.span.col,
                self.code)

    def as_json(self) -> dict:
        """The diagnostic as a plain dict for ``--json``: place, severity, code, message, hint
        and notes."""
        return {
            "path": self.span.path,
            "line": self.span.line,
            "col": self.span.col,
            "end_line": self.span.end_line,
            "end_col": self.span.end_col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "notes": [
                {"message": n.message, **({"path": n.span.path, "line": n.span.line,
                                            "col": n.span.col} if n.span else {})}
                for n in self.notes
            ],
            "replacements": list(self.replacements),
        }


# ----------------------------------------------------------------------- rendering

#: Lines longer than this are shown as a window around the span, not whole.
_SHOWN_LINE_WIDTH = 100


def display_width(text: str) -> int:
    """Terminal columns taken by ``text``: wide and fullwidth characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _window(line: str, col: int, end_col: int) -> tuple[str, int, int]:
    """Cut an over-long line to a window around the span; returns (text, col, end_col)."""
    if len(line) <= _SHOWN_LINE_WIDTH:
        return line, col, end_col
    start = max(0, col - 1 - _SHOWN_LINE_WIDTH // 2)
    stop = start + _SHOWN_LINE_WIDTH
    prefix = "…" if start else ""
    suffix = "…" if stop < len(line) else ""
    shift = start - len(prefix)
    return (prefix + line[start:stop] + suffix, col - shift,
            min(end_col, stop + 1) - shift)


def _printable(text: str) -> str:
    # Control and format characters would move the terminal's cursor or reorder the line
    # and break the caret line. Spaces stay as written (a 全角 space is the mistake the
    # designer is looking for; Python calls every space but " " unprintable).
    return "".join(ch if ch == "\t" or ch.isprintable() or unicodedata.category(ch) == "Zs"
                   else "\ufffd" for ch in text)


#: How a rendered diagnostic names its severity, its hint and a note: the designer's
#: words. ``Diagnostic.severity`` itself stays ``error`` / ``warning`` (the JSON and the
#: language server read it).
SEVERITY_WORDS = {"error": "エラー", "warning": "警告"}
HINT_WORD = "ヒント"
NOTE_WORD = "補足"


def render(diag: Diagnostic, sources: dict[str, str], color: bool = False) -> str:
    """Render one diagnostic with its source line and caret:
    ``path:line:col: エラー[E020]: message``, the line, the caret, ``= ヒント: …``."""
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    sev_color = "1;31" if diag.is_error else "1;33"
    head = (f"{paint(str(diag.span), '1')}: "
            f"{paint(f'{SEVERITY_WORDS[diag.severity]}[{diag.code}]', sev_color)}: {diag.message}")
    out = [head]
    text = sources.get(diag.span.path)
    if text is not None:
        # Lines as the parser counts them: only "\n" ends a line (str.splitlines would
        # also split at \f, \x1c, U+2028 … and show the wrong line under the position).
        lines = text.split("\n")
        if 1 <= diag.span.line <= len(lines):
            raw = lines[diag.span.line - 1].removesuffix("\r").expandtabs(1)
            end_col = diag.span.end_col if diag.span.end_line == diag.span.line else len(raw) + 1
            shown, col, end_col = _window(raw, diag.span.col, max(end_col, diag.span.col + 1))
            shown = _printable(shown)
            gutter = f"{diag.span.line:>5} | "
            pad = display_width(shown[: col - 1])
            mark = max(1, display_width(shown[col - 1: end_col - 1]))
            out.append(gutter + shown)
            out.append(" " * (len(gutter) - 2) + "| " + " " * pad + paint("^" * mark, sev_color))
    if diag.hint:
        out.append(f"      = {paint(HINT_WORD, '1;36')}: {diag.hint}")
    for note in diag.notes:
        where = f" ({note.span})" if note.span else ""
        out.append(f"      = {NOTE_WORD}: {note.message}{where}")
    return "\n".join(out)


def summary(diags: list[Diagnostic], files: int) -> str:
    """The closing line of a check: how many files, errors and warnings."""
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    return f"{files} ファイル: エラー {errors} 件、警告 {warnings} 件"


def to_json(diags: list[Diagnostic]) -> str:
    """The diagnostics as one JSON array (non-ASCII kept as written)."""
    return json.dumps([d.as_json() for d in diags], ensure_ascii=False, indent=2)
