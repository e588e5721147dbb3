"""補完 — what the battle prompt offers on Tab, as plain data (no line editor here).

``candidates(session, text)`` reads the line typed so far and returns what may complete
its last word: a command word (every spelling, English and Japanese), a hand page (its
number, with the page's name beside it, or its display name), a face, a developer-mode
item, or a page name for ``set 手札``. terminal.prompt wraps it for prompt_toolkit.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from runtime.dev import DEV_SETTINGS, DEV_WORDS

from .prompt import Candidate
from .session import COMMANDS, Session

__all__ = ["Candidate", "candidates"]

#: Commands whose first argument is a hand page.
_HAND_ARG = {Session.cmd_play, Session.cmd_pen, Session.cmd_tear, Session.cmd_where}


def candidates(session: Session, text: str) -> list[Candidate]:
    """Completions of the last word of ``text`` (the line before the cursor)."""
    words = text.split()
    if not text or text[-1].isspace():
        words.append("")
    last, before = words[-1], words[:-1]
    if not before:
        return [Candidate(word, COMMANDS[word].__doc__.split(":")[0])
                for word in COMMANDS if word.startswith(last) and word != "?"]
    handler = COMMANDS.get(before[0]) or COMMANDS.get(before[0].lower())
    battle = session.battle
    if handler in _HAND_ARG and len(before) == 1:
        found = []
        for index, uid in enumerate(battle.hand, 1):
            name = battle.page_of(uid).name
            if str(index).startswith(last):
                found.append(Candidate(str(index), name))
            elif last and name.startswith(last):
                found.append(Candidate(name, str(index)))
        return found
    if handler is Session.cmd_pen and len(before) == 2:
        return [Candidate(face.ja) for face in vocab.FACES if face.ja.startswith(last)]
    if handler is Session.cmd_set and len(before) == 1:
        return [Candidate(setting.words[0]) for setting in DEV_SETTINGS.values()
                if setting.words[0].startswith(last)]
    if handler is Session.cmd_set and DEV_WORDS.get(before[1]) == "hand":
        return [Candidate(page.name, page_id) for page_id, page in sorted(session.tables.pages.items())
                if page.name.startswith(last) or (last and page_id.startswith(last))]
    return []
