"""打鍵の合間 — checks wait for a pause in typing: one pending check per document, the
latest edit wins.

Every didChange used to check the folder at once, so a burst of keystrokes queued one
check per key and the answers to everything else (a completion) waited behind them. Now
an edit to a document that has been quiet for DELAY seconds is checked at once (a single
edit gets its diagnostics without waiting), and an edit that follows another, or a check,
within DELAY only (re)starts the document's timer: the check runs when the document has
been quiet for DELAY seconds, on the text it has then — the checks of the versions in
between are never run. A burst is thus two checks at most: its first key and its last text. A request that reads the check's result at a position (hover, definition,
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
        self._stirred: dict[str, float] = {}  # uri → when it was last edited or checked

    def later(self, uri: str) -> None:
        """Check ``uri`` now when it was quiet for ``delay``, else once it has been (an
        earlier wait is dropped)."""
        loop = asyncio.get_running_loop()
        quiet = uri not in self._timers and \
            loop.time() - self._stirred.get(uri, float("-inf")) >= self.delay
        self.cancel(uri)
        self._stirred[uri] = loop.time()
        if quiet:
            self._run(uri)
        else:
            self._timers[uri] = loop.call_later(self.delay, self._run, uri)

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
            logger.exception("%s の検査が失敗しました", uri)
        finally:
            # edits that queued up while it ran arrive within ``delay`` of its end: merged
            try:
                self._stirred[uri] = asyncio.get_running_loop().time()
            except RuntimeError:  # run outside the loop (a test calling flush)
                pass
