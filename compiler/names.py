"""名前解決 — look a written name up in the vocabulary, with a did-you-mean on failure."""

from __future__ import annotations

import difflib

from dsl.ast import Name
from dsl.diagnostics import Diagnostic, error

from contract import vocabulary as vocab

#: What each table is called in messages.
TABLE_WORDS = {
    "scope": "スコープ",
    "anchor_unit": "アンカーの単位",
    "lifetime": "値の寿命",
    "timing": "発動タイミング",
    "region": "領域",
    "destination": "プレイ後の行き先",
    "pick": "選び方",
    "variable": "変数",
    "counter": "累計量",
    "condition_word": "条件",
    "tile": "マスの種別",
    "intent": "Intent の種類",
    "trait": "特性",
    "balance": "バランスの項目",
}


def suggest(word: str, candidates) -> str | None:
    """The closest spelling among candidates, if one is close enough to be a typo."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.5)
    return found[0] if found else None


def did_you_mean(word: str, candidates) -> str:
    best = suggest(word, candidates)
    return f"もしかして「{best}」？" if best else ""


def unknown(name: Name, what: str, candidates, extra_hint: str = "") -> Diagnostic:
    hint = did_you_mean(name.text, candidates)
    if not hint:
        listed = [c for c in candidates if not c.isascii()][:12]
        hint = f"使える{what}: {'、'.join(listed)}" if listed else ""
    if extra_hint:
        hint = f"{hint} {extra_hint}".strip()
    return error("E010", f"「{name.text}」という{what}はありません", name.span, hint=hint)


def resolve(table: str, name: Name, diags: list[Diagnostic], *, what: str | None = None):
    """The vocabulary entry spelled ``name``, or None after reporting E010."""
    entry = vocab.lookup(table, name.text)
    if entry is None:
        diags.append(unknown(name, what or TABLE_WORDS[table], vocab.tables()[table].spellings()))
    return entry
