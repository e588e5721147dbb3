"""旅の補完 — what the journey prompt offers on Tab, as plain data (no line editor here).

``candidates(journey, text)`` reads the line typed so far and returns what may complete its
last word, from the labels of the actions the game allows (``Journey.actions``,
spelt by journey.notation): the first word, the verbs
of the actions allowed now and the terminal's commands (every spelling, English and
Japanese); a later word, the next word of every label the line so far begins (a card, a
black pawn, a day, a suit, an item, a direction, discard/bottom … and, once one of its
letters is typed, a fixed word's Japanese alias). Beside each, the action it completes
when it leads to one only, else how many it leads to (the terminal's commands: what
they do).
"""

from __future__ import annotations

from terminal.prompt import Candidate

from ..game import Journey
from ..notation import WORD_ALIASES, action_labels, normal_words, shown_label
from .commands import COMMANDS, TERMINAL

__all__ = ["candidates"]


def candidates(journey: Journey, text: str) -> list[Candidate]:
    """Completions of the last word of ``text`` (the line before the cursor)."""
    words = text.split()
    if not text or text[-1].isspace():
        words.append("")
    last, before = words[-1], words[:-1]
    known = [label.split() for label in action_labels(journey)]
    if not before:
        return _first_words(known, last)
    typed = normal_words(before)
    if typed[0] in TERMINAL:
        return []
    following: dict[str, list[str]] = {}
    for label in known:
        if len(label) > len(typed) and label[:len(typed)] == typed:
            following.setdefault(label[len(typed)], []).append(" ".join(label))
    wanted = normal_words([typed[0], last])[1] if last else ""
    aliases = WORD_ALIASES.get(typed[0], {}) if len(typed) == 1 else {}
    found = []
    for word, leads in following.items():
        meta = shown_label(leads[0]) if len(leads) == 1 else f"{len(leads)} 通り"
        # a fixed word's Japanese spelling first, as the screen shows it (ループ 捨て札)
        found += [Candidate(alias, meta) for alias in aliases.get(word, ())
                  if alias.startswith(last)]
        if word.startswith(wanted):
            found.append(Candidate(word, meta))
    return found


def _first_words(known: list[list[str]], last: str) -> list[Candidate]:
    """Command words beginning with ``last``: those of the actions allowed now, then the
    terminal's own, each spelling once."""
    leads: dict[str, list[str]] = {}
    for label in known:
        leads.setdefault(label[0], []).append(" ".join(label))
    found = []
    for command in COMMANDS:
        if command.word in TERMINAL:
            meta = command.text
        elif command.word in leads:
            allowed = leads[command.word]
            meta = shown_label(allowed[0]) if len(allowed) == 1 else f"{len(allowed)} 通り"
        else:
            continue  # not allowed now
        found += [Candidate(spelling, meta) for spelling in (command.word, *command.aliases)
                  if spelling.startswith(last) and spelling != "?"]
    return found
