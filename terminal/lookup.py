"""名前の引き当て — what a designer typed for a page or an enemy, as its id.

A page or an enemy may be named by its id (``sotsugyou``) or by its display name
(``卒業アルバム``, ``tables.pages[id].name``). Two ids sharing a display name make that
name ambiguous: the message lists the ids. A name that matches nothing gets the hint the
caller's ``hint(word, candidates)`` gives (the CLI passes the compiler's did-you-mean).
"""

from __future__ import annotations

__all__ = ["UnknownName", "enemy_id", "listed", "page_id", "resolve"]


class UnknownName(ValueError):
    """A name that is no page or enemy (or is several): the message says which ids."""


def _no_hint(word, candidates) -> str:
    return ""


def resolve(kind: str, word: str, table: dict, hint=_no_hint) -> str:
    """The id in ``table`` (id → item with a ``name``) that ``word`` names: the id itself,
    or the one item whose display name it is. UnknownName otherwise."""
    if word in table:
        return word
    named = sorted(key for key, item in table.items() if item.name == word)
    if len(named) == 1:
        return named[0]
    if named:
        raise UnknownName(f"{kind}「{word}」は複数あります: {', '.join(named)}（id で書いてください）")
    candidates = [*table, *(item.name for item in table.values())]
    advice = hint(word, candidates) or \
        f"あるのは: {listed([item.name for _, item in sorted(table.items())], '、')}"
    raise UnknownName(f"{kind}「{word}」はありません。{advice}")


#: How many names a list of what there is shows before 「ほか N 件」.
SHOWN = 12


def listed(names: list[str], separator: str = ", ", shown: int = SHOWN) -> str:
    """The first ``shown`` of ``names``, and how many more there are (「ほか N 件」)."""
    rest = len(names) - shown
    return separator.join(names[:shown]) + (f" ほか {rest} 件" if rest > 0 else "")


def page_id(tables, word: str, hint=_no_hint) -> str:
    """A page's id from its id or display name."""
    return resolve("ページ", word, tables.pages, hint)


def enemy_id(tables, word: str, hint=_no_hint) -> str:
    """An enemy's id from its id or display name."""
    return resolve("敵", word, tables.enemies, hint)
