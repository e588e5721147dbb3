"""打鍵の合間 — checks wait for a pause in typing: one pending check per document, the
latest edit wins.

Every didChange used to check the folder at once, so a burst of keystrokes queued one
check per key and the answers to everything else (a completion) waited behind them. Now
an edit only (re)starts its document's timer; the check runs when the document has been
quiet for DELAY seconds, on the text it has then — the checks of the versions in between
are never run. A request that reads the check's result at a position (hover, definition,
references, rename) runs the pending check first (``flush``), so it never answers from
an older text than the one it is asked about.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

__all__ = ["DELAY", "Pending"]

logger = logging.getLogger(__name__)

#: Seconds of quiet after an edit before its document is checked: a burst of changes (a
#: paste, an undo, fast typing) is one check, and diagnostics still follow a keystroke
#: within ~0.1 s plus the check. However fast the typing, the checks never queue up: each
#: runs on the text of its moment, and edits that arrive while one runs merge into the next.
DELAY = 0.1


class Pending:
    """The documents waiting for their check, each with its timer on the event loop."""

    def __init__(self, check: Callable[[str], None], delay: float = DELAY):
        self.check = check
        self.delay = delay
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def later(self, uri: str) -> None:
        """Check ``uri`` once it has been quiet for ``delay`` (an earlier wait is dropped)."""
        self.cancel(uri)
        self._timers[uri] = asyncio.get_running_loop().call_later(self.delay, self._run, uri)

    def flush(self, uri: str) -> None:
        """Run the pending check of ``uri`` now, if there is one."""
        if uri in self._timers:
            self.cancel(uri)
            self._run(uri)

    def cancel(self, uri: str) -> None:
        """Drop the pending check of ``uri`` (the document was closed, or checked)."""
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()

    def _run(self, uri: str) -> None:
        self._timers.pop(uri, None)
        try:
            self.check(uri)
        except Exception:  # a bug in a check must not stop the later ones
            logger.exception("the check of %s failed", uri)
