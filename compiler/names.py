"""名前解決 — look a written name up in the vocabulary, with a did-you-mean on failure."""

from __future__ import annotations

import difflib
import heapq
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from dsl.ast import Name
from dsl.diagnostics import Diagnostic
from dsl.keywords import unglued

from contract import vocabulary as vocab
from contract.typed import read_alike

from .codes import E010

#: What each table is called in messages (the vocabulary table's title).
TABLE_WORDS = {t.name: t.title for t in vocab.VOCABULARY_TABLES if t.title}


#: Above this many candidates (page ids, in a big project) difflib is first given only the
#: NARROWED names sharing the most character pairs with the word: over 10,000 ids it costs
#: ~0.2 s a name, and content misspelling a page in each of its pages took minutes.
LARGE = 500
NARROWED = 30


def suggest(word: str, candidates) -> str | None:
    """The closest spelling among candidates, if one is close enough to be a typo."""
    names = tuple(candidates)
    same = _same_word(word, names)
    if same is not None:
        return same
    found = closest(word, names)
    return found[0] if found else None


def _same_word(word: str, names: tuple[str, ...]) -> str | None:
    """The name among ``names`` that ``word`` is, written another way: a former code, or
    the same word in the other kana, width or kanji form (だめーじ, ﾀﾞﾒｰｼﾞ: no character
    in common with the one meant, which difflib then cannot see) — or None."""
    if vocab.FORMER_CODES.get(word) in names:
        return vocab.FORMER_CODES[word]
    return _alike_index(names).get(read_alike(word))


#: At most this many candidates as close as each other are named together (幼年期: 「幼少期」か
#: 「青年期」); a word as close to more names than that tells none of them.
MOST_TIED = 3


def closest(word: str, names: tuple[str, ...], most: int = MOST_TIED + 1) -> tuple[str, ...]:
    """The spellings among ``names`` closest to ``word`` (difflib's ratio, above the
    cutoff), every one as close as the closest (up to ``most``), in the order of
    ``names``: 幼年期 is one character from 幼少期 and from 青年期, and naming only one of
    them guessed."""
    pool = _pairs_index(names).narrowed(word) if len(names) > LARGE else names
    found = difflib.get_close_matches(word, pool, n=most, cutoff=_cutoff(word))
    if not found:
        return ()
    best = _ratio(word, found[0])
    tied = {name for name in found if _ratio(word, name) == best}
    return tuple(name for name in dict.fromkeys(names) if name in tied)


def _ratio(word: str, name: str) -> float:
    # as get_close_matches scores a candidate: the candidate first, the word second
    return difflib.SequenceMatcher(None, name, word).ratio()


#: How close a spelling must be to be offered (difflib's ratio), by script. A Japanese
#: word is a few characters, each a whole syllable or word: one of two in common (攻撃 and
#: 攻勢, 0.5) or 少年時代 for 少年期 (0.57) is a slip worth naming. A romanised id is many
#: letters: at 0.5, ``nosuch`` was offered surechigai and sumaho, while a real slip of one
#: (zangyo, kekon, sakamiti) is 0.8 or more.
CUTOFF, ASCII_CUTOFF = 0.5, 0.7


def _cutoff(word: str) -> float:
    return ASCII_CUTOFF if word.isascii() else CUTOFF


def _pairs(word: str) -> set[str]:
    return {word[i:i + 2] for i in range(len(word) - 1)} or {word}


class _PairsIndex:
    """Names by the character pairs they hold, built once per candidate table."""

    def __init__(self, names: tuple[str, ...]):
        self.by_pair: dict[str, list[str]] = {}
        for name in names:
            for pair in _pairs(name):
                self.by_pair.setdefault(pair, []).append(name)

    def narrowed(self, word: str) -> list[str]:
        shared: Counter = Counter()
        for pair in _pairs(word):
            shared.update(self.by_pair.get(pair, ()))
        return [name for name, _ in heapq.nlargest(NARROWED, shared.items(),
                                                   key=lambda item: item[1])]


#: One index per table of the run (the tuple of names is the key: same names, same index).
_pairs_index = lru_cache(maxsize=8)(_PairsIndex)


@lru_cache(maxsize=8)
def _alike_index(names: tuple[str, ...]) -> dict[str, str]:
    """Each name by its ``read_alike`` form (the first of names alike), once per table: a
    project misspelling a name in each of 10,000 pages asks it 10,000 times."""
    index: dict[str, str] = {}
    for name in names:
        index.setdefault(read_alike(name), name)
    for name in names:  # a word left in kana by the IME (vocab.READINGS): after the spellings
        reading = vocab.READINGS.get(name)
        if reading is not None:
            index.setdefault(read_alike(reading), name)
    return index


@dataclass(frozen=True)
class Guess:
    """もしかして — the candidate closest to a word written wrong (``suggest``), or None;
    ``also``: the others as close (the word itself qualified otherwise: 除外 is 除外（ラン）
    or 除外（ステージ）, neither more than the other)."""

    word: str | None
    also: tuple[str, ...] = ()

    @property
    def hint(self) -> str:
        """The hint 「もしかして「…」？」 (「…」か「…」, when more are as close), or "" when no
        candidate was close enough."""
        if not self.word:
            return ""
        return "もしかして" + "か".join(f"「{w}」" for w in self.replacements) + "？"

    @property
    def replacements(self) -> tuple[str, ...]:
        """The candidates as a diagnostic's replacements (an editor's quick fixes)."""
        return (self.word, *self.also) if self.word else ()


def titled(word: str, items: dict) -> str | None:
    """The id of the item (page or enemy, by id in ``items``) whose display name — the title
    written after its id — is ``word``, read as the eye reads it (あるばいと, ｱﾙﾊﾞｲﾄ for
    アルバイト: contract.typed.read_alike): a designer writes the name they read in the
    catalog where the id belongs. The exact name first, then one read alike."""
    from contract.typed import read_alike

    for item_id, item in items.items():
        if getattr(item, "title", None) == word:
            return item_id
    seen = read_alike(word)
    for item_id, item in items.items():
        title = getattr(item, "title", None)
        if isinstance(title, str) and read_alike(title) == seen:
            return item_id
    return None


def id_hint(word: str, items: dict, what: str) -> tuple[str, tuple[str, ...]]:
    """(hint, replacements) for ``word`` where an id of ``items`` belongs and none has it:
    the id whose name it is, else the id closest to it, else what to write."""
    named = titled(word, items)
    if named is not None:
        title = items[named].title
        said = word if title == word else f"{word}（{title}）"
        return f"「{said}」は {named} の名前です。ここには id を書きます: {named}", (named,)
    found = guess(word, items)
    return found.hint or f"{what}の id を書いてください", found.replacements


def guess(word: str, candidates) -> Guess:
    """The candidate closest to ``word``, as a hint and as a replacement — every one, where
    the word is a name written without the qualifier its candidates take in brackets
    (除外 → 除外（ステージ）, 除外（ラン）: which one is meant is the designer's to say)."""
    names = tuple(candidates)
    qualified = sorted(name for name in names if name.startswith(word + "（"))
    if len(qualified) > 1 and word not in names:
        return Guess(qualified[0], tuple(qualified[1:]))
    same = _same_word(word, names)
    if same is not None:
        return Guess(same)
    tied = closest(word, names)
    if not tied or len(tied) > MOST_TIED:  # as close to many as to one: the list instead
        return Guess(None)
    return Guess(tied[0], tied[1:])


def did_you_mean(word: str, candidates) -> str:
    """The hint 「もしかして「…」？」 naming the candidate closest to ``word`` (``suggest``),
    or "" when none is close enough to be a typo."""
    return guess(word, candidates).hint


def unknown(name: Name, what: str, candidates, extra_hint: str = "",
            listing=None) -> Diagnostic:
    """E010 for a name that is not among ``candidates``: ``what`` says the kind of thing; the
    hint suggests the closest one, or else lists up to 12 Japanese candidates — or the
    first 12 names of ``listing`` when given (what can be written here, by name: a typo of
    any candidate is still named, and the check that follows says why it cannot be)."""
    candidates = tuple(candidates)
    spaced = unglued(name.text)  # 以降3プレイ: a keyword and a number run together
    if spaced is not None and spaced.split(" ")[-1] in candidates:
        hint = f"キーワードと数の間には空白が要ります: {spaced}"
        replacements: tuple[str, ...] = (spaced,)
    else:
        found = guess(name.text, candidates)
        hint, replacements = found.hint, found.replacements
    if not hint:
        # the spellings' Japanese ones, or the names given (the rest said to exist)
        names = [c for c in candidates if not c.isascii()] if listing is None else list(listing)
        # a list cut short says so (a timing list of 12 had read as complete without 被弾時)
        more = "" if len(names) <= 12 else f" ほか {len(names) - 12} 個（一覧は jibunki vocab）"
        hint = f"使える{what}: {'、'.join(names[:12])}{more}" if names else ""
    if extra_hint:
        hint = f"{hint} {extra_hint}".strip()
    return E010.at(name.span, f"「{name.text}」という{what}はありません", hint=hint,
                   replacements=replacements)


def resolve(table: str, name: Name, diags: list[Diagnostic], *, what: str | None = None):
    """The vocabulary entry spelled ``name``, or None after reporting E010."""
    entry = vocab.lookup(table, name.text)
    if entry is None:
        diags.append(unknown(name, what or TABLE_WORDS[table], vocab.tables()[table].spellings()))
    return entry
