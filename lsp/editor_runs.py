"""エディタからの測定 — a measure the designer starts from the editor (a page by the balance
lab: lsp.lab_lens; a 旅の準備 by the journey report: lsp.journey_lens) as its lens shows it:
running, blocked (and why), or done with its verdict — marked old once the texts it
measured have changed. What the two lenses share, written once; the words are each one's.
No LSP types here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .texts import texts_digest

__all__ = ["Run", "Words", "title"]


@dataclass(frozen=True)
class Words:
    """What one kind of measure says on its lens and in its answers."""

    #: The command, as the designer picks it (a code action, the lens): 「この ページで実験」
    run: str
    #: The lens while it runs.
    running: str
    #: The lens of a run that could not measure, with ``{message}``.
    blocked: str
    #: Said after a verdict whose texts have changed since.
    stale: str
    #: The answer to a second start while one runs.
    busy: str


@dataclass
class Run:
    """A run from the editor: ``running``, ``done`` (``verdict``: as the lens says it;
    ``row``: the figures, when the kind gives them) or ``blocked`` (``message``), and the
    digest of the texts it measured, which tells them from the texts now."""

    state: str
    digest: str
    verdict: str = ""
    row: dict | None = None
    message: str = ""
    #: Of a run blocked by an error: the folder's texts it was blocked on
    #: (lsp.texts.texts_digest). Once they change the error may be gone: the lens no
    #: longer says the measure cannot run (it did until the next run).
    texts: str = ""


def title(run: Run | None, sources: dict[str, str], digest_now: Callable[[], str],
          words: Words) -> str | None:
    """The lens's title for the editor run ``run`` (``sources``: the texts of the check
    the lens is drawn from; ``digest_now``: the digest of what the run measured, as it is
    now); None when no editor run applies — none, or one blocked on texts since changed —
    and the report's verdict, if any, is shown instead."""
    if run is None or run.state == "blocked" and run.texts and run.texts != texts_digest(sources):
        return None
    if run.state == "running":
        return words.running
    if run.state == "blocked":
        return f"{words.blocked.format(message=run.message)} ▶ {words.run}"
    stale = f" ・ {words.stale}" if run.digest != digest_now() else ""
    return f"{run.verdict}{stale} ▶ {words.run}"
