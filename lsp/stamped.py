"""報告の読み — the reports left beside the content folder, as the lenses over pages
(lsp.lab_lens) and over set-ups (lsp.journey_lens) read them: a JSON object of the
report's format, read bounded and as untrusted (anything else is no report, never an
error), and read again only when the file's stamp changes (the lenses ask at every code
lens request). No LSP types here.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Callable, Generic, TypeVar

from contract import disk

__all__ = ["Stamped", "number", "report_of"]

T = TypeVar("T")


class Stamped(Generic[T]):
    """What ``read`` makes of a file, by its path, kept until the file's stamp (modification
    time, size, inode) changes."""

    def __init__(self, read: Callable[[Path], T], empty: T):
        self._read, self._empty = read, empty
        self._kept: dict[str, tuple[tuple, T]] = {}

    def get(self, path: Path | None) -> tuple[T, int | None]:
        """What was read of the file at ``path``, and its modification time (ns); the empty
        value and None when there is no file there (or no path)."""
        if path is None:
            return self._empty, None
        try:
            st = os.stat(path)
        except OSError:
            return self._empty, None
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        kept = self._kept.get(str(path))
        if kept is None or kept[0] != stamp:
            kept = (stamp, self._read(path))
            self._kept[str(path)] = kept
        return kept[1], stamp[0]


def report_of(path: Path, fmt: str, limit: int) -> dict | None:
    """The JSON object at ``path`` when it is a report of format ``fmt`` (at most ``limit``
    bytes), else None."""
    try:
        report = json.loads(disk.read_bounded(path, limit))
    except (disk.DiskError, OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return report if isinstance(report, dict) and report.get("format") == fmt else None


def number(value) -> float | None:
    """A figure of a report as a float: a finite int or float (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None
