"""What the battle's and the journey's terminals share when a script drives them: the exit
status of the command, the lines of a script that are commands, and the JSON lines of the
event stream.

Standard library only, and nothing of either game: journey/screen/terminal.py imports it without
pulling in the battle's runtime that terminal/play.py needs.
"""

from __future__ import annotations

import json
import sys
from typing import Iterable, Iterator

#: Exit status of a play command: the run (a battle, a journey) was won.
EXIT_WON = 0
#: The run was lost.
EXIT_LOST = 1
#: A script stopped at a command it must not go past: a ``save`` or ``record`` whose
#: file was not written (it exists, or lies outside the working folder). The same status
#: as click's usage error.
EXIT_STOPPED = 2
#: The run was left before its end (quit, end of input, a script that stops first).
EXIT_UNFINISHED = 3
#: No run was played: the content has errors (or nothing to play), or what the run said
#: could not be written. Not 1, which a script that tests a loss expects.
EXIT_UNPLAYED = 4


def exit_code(outcome: str | None) -> int:
    """The exit status of a run that ended ``outcome``: "won" 0, "lost" 1, else (not
    finished) 3."""
    return {"won": EXIT_WON, "lost": EXIT_LOST}.get(outcome, EXIT_UNFINISHED)


def commands(lines: Iterable[str], *, strip: bool = True) -> Iterator[tuple[int, str]]:
    """(line number from 1, command) for every line of a script that is a command: blank
    lines and ``#`` comments are skipped. The command is stripped of surrounding spaces,
    or with ``strip`` False only of its newline (a transcript that echoes it as written)."""
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        yield number, line if strip else raw.rstrip("\n")


def emit(obj) -> None:
    """One event of the stream as a JSON line on standard output (keys sorted, text as
    written: the same run, the same bytes)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")
