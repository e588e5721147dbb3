"""キーワード — the structural keywords of the language, each with its one ASCII alias.

Names of the game's vocabulary (variables, counters, timings, regions …) are *not*
keywords: the grammar reads them as plain names and the compiler resolves them against
``contract.vocabulary``. Only the words that give a file its shape live here. The grammar
refers to each as ``_kw_<rule>``; the rules themselves are generated from this table when
the parser is built, so the Japanese form and its alias can never drift apart.
"""

from __future__ import annotations

#: rule name → (canonical Japanese keyword, ASCII alias)
KEYWORDS: dict[str, tuple[str, str]] = {
    # top-level items
    "page": ("ページ", "page"),
    "enemy": ("敵", "enemy"),
    "balance": ("バランス", "balance"),
    "deck": ("デッキ", "deck"),
    # page fields
    "mei": ("銘", "mei"),
    "hokorobi_mul": ("綻び倍率", "hokorobi_mul"),
    "origin": ("出自", "origin"),
    "dest": ("行き先", "after_play"),
    "deck_cap": ("上限枚数", "deck_cap"),
    "appears": ("出現条件", "appears_if"),
    "future": ("未来面", "future"),
    "past": ("過去面", "past"),
    "blank": ("白紙", "blank"),
    "pen": ("ペン", "pen"),
    "tear": ("破却", "tear_effect"),
    "flavor": ("フレーバー", "flavor"),
    # inside faces
    "cond": ("条件", "if"),
    # the six terms
    "life": ("寿命", "life"),
    "at": ("毎", "at"),
    "until": ("範囲", "until"),
    "max": ("最大", "max"),
    "times": ("回", "times"),
    "fixed": ("固定", "fixed"),
    "modified": ("補正あり", "modified"),
    "telegraphed": ("予告", "telegraphed"),
    "next": ("以降", "next"),
    # operation words
    "cap": ("上限", "cap"),
    "suppress": ("抑制", "suppress"),
    "move": ("移動", "move"),
    "generate": ("生成", "generate"),
    "duplicate": ("複製", "duplicate"),
    "reveal": ("公開", "reveal"),
    "pay": ("支払う", "pay"),
    "cards": ("枚", "cards"),
    "filter_page": ("ページ指定", "page_id"),
    # enemies
    "hp": ("HP", "hp"),
    "za": ("座", "za"),
    "breakthrough": ("突破ライン", "breakthrough"),
    "intents": ("予兆", "intents"),
    "escalation": ("エスカレーション", "escalation"),
    "per_turns": ("ターンごと", "turns"),
    "traits": ("特性", "traits"),
    # balance
    "reward": ("綻び報酬", "reward"),
    # examples (scenarios)
    "example": ("例", "example"),
    "seed": ("シード", "seed"),
    "setup": ("開始", "setup"),
    "play": ("出す", "play"),
    "rip": ("破る", "tear"),
    "end": ("終了", "end"),
    "choose": ("選ぶ", "choose"),
    "expect": ("確認", "expect"),
    "refused": ("拒否", "refused"),
}


def grammar_rules() -> str:
    """The ``_kw_*`` rules appended to the grammar: ``_kw_mei: "銘" | "mei"``."""
    return "\n".join(
        f'_kw_{rule}: "{ja}" | "{ascii_}"' for rule, (ja, ascii_) in KEYWORDS.items()
    )


def canonical(spelling: str) -> str:
    """The canonical Japanese form of a keyword spelling (for the formatter and messages)."""
    for ja, ascii_ in KEYWORDS.values():
        if spelling in (ja, ascii_):
            return ja
    return spelling
