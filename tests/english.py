"""Find English sentences in designer-facing text.

The designer reads Japanese (README, "Japanese for the designer"); ASCII aliases
(``enemy_hp``, ``end``), codes (``E020``), option names (``--seed``) and upper-case
placeholders (``N``, ``YYYY-MM-DD``) stay. What may not appear is English
prose: three or more plain words in a row, or click's own framing words
(``Usage:``, ``Error:``, ``Try '… --help' for help``).

A command line (``jibunki journey report [OPTIONS]``, ``'jibunki journey report --help'``)
is what the designer types, not prose: the program's name and its command words are left
out when an option, a metavar or a closing quote follows them.
"""

from __future__ import annotations

import re

# A plain English word: letters only, with at least one lower-case letter, so
# metavars (PATH, TEXT) and codes (E020, W004) are not words; aliases with an
# underscore or a digit (enemy_hp, tear_cap2) are not either.
_WORD = r"(?<![\w\-./@%])[A-Za-z]*[a-z][A-Za-z]*'?[a-z]*(?![\w\-./@%])"
# Three plain words separated only by spaces or light punctuation make a sentence.
_SENTENCE = re.compile(rf"{_WORD}(?:[ ,;:]+{_WORD}){{2,}}")
# A command line: the program and its command words, before an option, a metavar or a
# closing quote (prose goes on with words or a full stop).
_COMMAND_LINE = re.compile(r"\bjibunki(?: [a-z][a-z-]*)+(?= --| \[| [A-Z]{2,}|')")
# click's framing, which is English even when a single word.
_FRAMING = re.compile(
    r"\b(?:Usage|Options|Commands|Arguments|Error|Warning|Aborted)\s*[:!]"
    r"|Try '[^']*' for help|Show this message|Show the version"
)


def english_sentences(text: str, allow: tuple[str, ...] = ()) -> list[str]:
    """Every English sentence or click framing word found in *text* (empty when clean).

    *allow* names exact phrases that may stay (a proper name, a file format).
    """
    for phrase in allow:
        text = text.replace(phrase, " ")
    found = [m.group(0) for m in _FRAMING.finditer(text)]
    text = _COMMAND_LINE.sub(" ", text)
    found += [m.group(0) for m in _SENTENCE.finditer(text)]
    return found
