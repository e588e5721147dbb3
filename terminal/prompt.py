"""入力行 — the line editor of the battle and the journey at a terminal: prompt_toolkit's
(arrow keys, history recall with ↑, Tab completion), with a history kept per game kind.

What Tab offers is the caller's: a pure function ``candidates(bound, text)`` of the game
it is bound to and the line before the cursor (terminal.complete for the battle,
journey.screen.complete for the journey), so completion is tested without a terminal.
prompt_toolkit is imported only when a prompt is made: a script never loads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Candidate", "HISTORY_FILES", "Keyboard", "history"]

#: Where each game's prompt keeps its history between sessions (in the cache folder).
HISTORY_FILES = {"battle": "battle_history", "journey": "journey_history"}


@dataclass(frozen=True)
class Candidate:
    """One completion: the text replacing the last word, and what it shows beside it."""

    text: str
    meta: str = ""


def history(kind: str):
    """The prompt's history for ``kind`` (a key of HISTORY_FILES): a file in the user's
    private cache folder when one can be made and is ours alone, else in memory. Nothing
    here fails: a history that cannot be written is simply not kept."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from dsl.diskcache import cache_folder, private

    class _Quiet(FileHistory):
        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

        def load_history_strings(self):
            try:
                yield from super().load_history_strings()
            except (OSError, UnicodeDecodeError):
                return

    folder = cache_folder()
    if folder is None:
        return InMemoryHistory()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
        path = folder / HISTORY_FILES[kind]
        if not (folder.is_dir() and not folder.is_symlink() and private(info)):
            return InMemoryHistory()
        if path.exists() or path.is_symlink():
            if path.is_symlink() or not path.is_file() or not private(os.lstat(path)):
                return InMemoryHistory()
        else:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600))
        return _Quiet(str(path))
    except OSError:
        return InMemoryHistory()


def _no_mouse():
    """Key bindings that take every mouse report as nothing: the prompts use no mouse, and
    prompt_toolkit's own reader of one fails with an English traceback on a colour code
    typed or pasted without bracketed paste (``ESC [ 31 m`` reads as a mouse report)."""
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    bindings = KeyBindings()

    @bindings.add(Keys.Vt100MouseEvent)
    def _ignored(event) -> None:
        pass

    return bindings


class Keyboard:
    """A prompt at a terminal: prompt_toolkit's line editor with ``kind``'s history and Tab
    completion of ``candidates(bound, text)`` for what ``bind`` was given (nothing before)."""

    def __init__(self, kind: str, candidates):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion

        keyboard = self

        class _Words(Completer):
            def get_completions(self, document, complete_event):
                if keyboard.bound is None:
                    return
                before = document.text_before_cursor
                last = before.split()[-1] if before and not before[-1].isspace() else ""
                for c in candidates(keyboard.bound, before):
                    # a word completed is followed by a space, as a shell does: 「where」
                    # then 1 typed made 「where1」
                    yield Completion(c.text + " ", start_position=-len(last), display=c.text,
                                     display_meta=c.meta)

        self.bound = None
        self.prompt = PromptSession(history=history(kind), completer=_Words(),
                                    complete_while_typing=False, key_bindings=_no_mouse())
        self.question = PromptSession(key_bindings=_no_mouse())

    def bind(self, bound) -> None:
        """What completion reads from now on (the battle's session, the journey's state)."""
        self.bound = bound

    def read(self) -> str:
        """One line typed at the "> " prompt (EOFError on Ctrl-D, KeyboardInterrupt on Ctrl-C)."""
        return self.prompt.prompt("> ")

    def ask(self, question: str) -> str:
        """The answer to a question (y/n), read without history or completion."""
        return self.question.prompt(question)
