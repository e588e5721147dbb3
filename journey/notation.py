"""旅の棋譜 — actions as the words a player types (and a script or a golden game keeps).

Every legal action has one label (``label``): the verb, then cards by id (赤3), black
pawns by the day they stand on (黒3), days and places 1-based (2-1: day 2, nearest
event), directions +1 / -1. ``parse`` reads a line back: a label of a legal action, or a
shorter form when it names one action only (``play 赤3`` when one black pawn can walk).
Each verb has Japanese spellings (``出す 赤3``), and so have the fixed words of mill and
letter (``ループ 捨て札``): VERB_ALIASES and WORD_ALIASES. The screen shows the Japanese
(``shown_label``); the label itself, which a 棋譜 keeps, stays ASCII.

The words are written once, for the rules' tuples (``label``, ``labels``, ``parse``: what a
golden game of the rules replays); a player of a ``Journey`` reads and writes its action
values through the same words with ``action_label``, ``action_labels`` and ``read`` —
the two conversion tables of journey/actions.py between them, nothing spelt twice.

    play 赤3 黒3            the card, and the black pawn on day 3 walks (7 − 3)
    play 赤3 黒1+2 黒3+2    地図（問題点）: the steps shared between both
    mill discard | mill bottom
    next                    go on from a moment (letters and items may be used there)
    effect 黒3 +1 | effect 黒3 | effect 2-1 4-1 | effect 地図 | effect | skip
    return 赤3
    resolve 赤 | end
    letter location 黒3 -1 | letter adventure 赤3 [緑4]
    item 地図 | item ランタン 赤 | item リュックサック 2 赤3
"""

from __future__ import annotations

import re

from contract.linebreak import clipped
from contract.vocabulary import W

from contract.game import Action

from .actions import as_tuple, from_tuple
from .effects import ITEM_EFFECTS
from .game import Journey
from .play import legal_actions
from .rules import JourneyError, UnknownAction, UnreadableLine
from .state import State
from .steps import ready_item

#: The Japanese words of each ASCII verb: the screen shows the first (``shown_label``); a
#: script, the terminal and its Tab completion read every one, and the ASCII verb too.
VERB_ALIASES = {"play": ("出す", W.scope.play), "mill": ("ループ",), "effect": ("効果",),
                "skip": ("見送る",), "return": ("戻す",), "next": ("進む",),
                "resolve": ("解決",), "end": ("終了",), "letter": ("レター",),
                "item": ("アイテム",)}
#: The Japanese words accepted for a verb's fixed second word, by verb.
WORD_ALIASES = {"mill": {"discard": (W.region.discard,), "bottom": ("山の下",)},
                "letter": {"location": ("ロケーション",), "adventure": ("アドベンチャー",)}}
VERBS = {alias: verb for verb, aliases in VERB_ALIASES.items() for alias in aliases}
_WORDS = {verb: {alias: word for word, aliases in table.items() for alias in aliases}
          for verb, table in WORD_ALIASES.items()}
LETTER_WORDS = {"location_memory": "location", "adventure_memory": "adventure"}


def label(state: State, action: tuple) -> str:
    """The words of ``action`` (full form: it names one action in any state)."""
    r = state.rules
    kind = action[0]
    if kind == "play":
        moves = action[2]
        if len(moves) == 1:
            return f"play {r.card_ids[action[1]]} 黒{moves[0][0] + 1}"
        return "play " + r.card_ids[action[1]] + "".join(f" 黒{b + 1}+{n}" for b, n in moves)
    if kind == "mill":
        return f"mill {action[1]}"
    if kind == "effect":
        return " ".join(["effect", *_effect_words(state, action[1:])])
    if kind in ("skip", "end", "next"):
        return kind
    if kind == "return":
        return f"return {r.card_ids[action[1]]}"
    if kind == "resolve":
        return f"resolve {r.suit_word(action[1])}"
    if kind == "letter":
        if action[1] == "location_memory":
            return f"letter location 黒{action[2] + 1} {action[3]:+d}"
        return " ".join(["letter adventure", *(r.card_ids[c] for c in action[2:])])
    if kind == "item":
        item = state.deal.carried[action[1]]
        words = ["item", item.id]
        if item.effect == "unresolve":
            words.append(r.suit_word(action[2]))
        elif item.effect == "swap_in":
            words += [str(action[2] + 1), r.card_ids[action[3]]]
        return " ".join(words)
    raise JourneyError(f"知らない行動です: {action!r}")


def _effect_words(state: State, args: tuple) -> list[str]:
    effect = state.rules.suit_effects[state.pending[0]]
    if effect == "nudge_black":
        return [f"黒{args[0] + 1}", f"{args[1]:+d}"]
    if effect == "call_black":
        return [f"黒{args[0] + 1}"]
    if effect == "swap_same_number":
        return [f"{args[0] + 1}-{args[1] + 1}", f"{args[2] + 1}-{args[3] + 1}"]
    if effect == "stand_item":
        return [state.deal.carried[args[0]].id]
    return []


def shown_label(label: str) -> str:
    """A label as the screen shows it: its verb and the verb's fixed word in Japanese, the
    first spelling of each in VERB_ALIASES and WORD_ALIASES (出す 赤3 黒3, ループ 捨て札,
    レター ロケーション 黒3 -1). ``parse`` reads it back as it reads the ASCII label, which
    a script or a golden game keeps."""
    verb, *rest = label.split(" ")
    fixed = WORD_ALIASES.get(verb, {})
    if rest and rest[0] in fixed:
        rest[0] = fixed[rest[0]][0]
    return " ".join([VERB_ALIASES.get(verb, (verb,))[0], *rest])


def shown_labels(labels) -> list[str]:
    """``shown_label`` of each of ``labels``, in their order."""
    return [shown_label(label) for label in labels]


def labels(state: State) -> dict[str, tuple]:
    """Every legal action by its label, in legal_actions' order."""
    return {label(state, action): action for action in legal_actions(state)}


#: The words a short form must hold before the one action it could name is taken: the
#: verb and what it acts on (``play 白2``: the card; ``item 地図``: the item; ``letter
#: adventure 赤1``: the letter and its card). A bare 「item」 with 地図 the only item that
#: could be used used it, and 「letter adventure」 spent a letter (one of five, and
#: score): a player typing the verb to see what is possible is shown instead.
SHORT_FORM_WORDS = {"letter": 3}


def parse(state: State, text: str) -> tuple:
    """The legal action ``text`` names (JourneyError, saying what can be typed, if none)."""
    words = normal_words(text.split())
    if not words:
        raise JourneyError("行動が空です")
    typed = " ".join(words)
    said = clipped(text.strip())  # the line as a refusal quotes it
    known = labels(state)
    if typed in known:
        return known[typed]
    prefixed = [a for lab, a in known.items() if lab.startswith(typed + " ")]
    if len(prefixed) == 1 and len(words) >= SHORT_FORM_WORDS.get(words[0], 2):
        return prefixed[0]
    whole = [lab for lab in known if typed.startswith(lab + " ")]
    if whole:  # 「end おまけ」: a whole action, then words that belong to none
        extra = typed[len(max(whole, key=len)) + 1:]
        raise UnreadableLine(f"「{said}」の「{extra}」は余分です（1 行に 1 つの行動を"
                             f"書きます: {shown_label(max(whole, key=len))}）", STOP_EXTRA)
    unknown = _unknown_card(state, words)
    if unknown:
        raise UnreadableLine(unknown, STOP_NO_CARD)
    verbs = sorted({VERB_ALIASES[lab.split()[0]][0] for lab in known})
    # A verb of another moment is the reason, not the card it names (「戻す 緑1」 while
    # nothing is returned is refused for 戻す, whether 緑1 is in the hand or not).
    idle = words[0] in VERB_ALIASES and not any(lab.split()[0] == words[0] for lab in known)
    missing = ("" if idle else _missing_card(state, words)) or _why_not(state, words)
    if missing:
        raise JourneyError(missing)
    if prefixed:
        shown = shown_labels([lab for lab in known if lab.startswith(typed + " ")][:6])
        if len(prefixed) == 1:
            raise JourneyError(f"「{said}」だけでは決まりません。いまできるのは: {shown[0]}"
                               "（使うものまで書きます）")
        raise JourneyError(f"「{said}」だけでは決まりません。例えば: {' / '.join(shown)}")
    wrong = _wrong_word(known, words)
    if wrong:
        raise JourneyError(f"「{said}」の{wrong}")
    same_verb = shown_labels([lab for lab in known if lab.split()[0] == words[0]][:6])
    if same_verb:
        raise JourneyError(f"いまはできない行動です: 「{said}」。できるのは例えば: {' / '.join(same_verb)}")
    if words[0] in VERB_ALIASES:  # a verb of the game, of another moment than this one
        raise JourneyError(f"いまは {VERB_ALIASES[words[0]][0]} はできません: 「{said}」。"
                           f"いまできるのは: {'、'.join(verbs)}（ヘルプ で書き方を表示）")
    raise UnknownAction(f"知らない行動です: 「{said}」。いまできるのは: {'、'.join(verbs)}"
                        "（ヘルプ で書き方を表示）")


def _wrong_word(known: dict, words: list[str]) -> str:
    """When the line begins as some actions do (a verb and its card) and then has a word
    none of them goes on with (「出す 青1 青1」): that word, and the ones that could
    follow; "" otherwise."""
    for n in range(len(words) - 1, 1, -1):
        head = " ".join(words[:n])
        after = sorted({lab.split()[n] for lab in known
                        if lab.startswith(head + " ") and len(lab.split()) > n})
        if after:
            return (f"「{clipped(words[n])}」はここには書けません"
                    f"（{shown_label(head)} の次は {' か '.join(after)}）")
    return ""


def action_label(journey: Journey, action: Action) -> str:
    """The words of the action value ``action`` in ``journey`` (as ``label`` spells its
    tuple)."""
    rule = as_tuple(action)
    if rule is None:
        raise JourneyError(f"知らない行動です: {action!r}")
    return label(journey.state, rule)


def action_labels(journey: Journey) -> dict[str, Action]:
    """Every action ``journey`` allows now (``Journey.actions``), by its label, in that
    order."""
    return {action_label(journey, action): action for action in journey.actions()}


def read(journey: Journey, text: str) -> Action:
    """The action value ``text`` names in ``journey`` (``parse``'s words and refusals)."""
    return from_tuple(parse(journey.state, text))


#: Why a script stops at a line ``parse`` cannot read (UnreadableLine.why).
STOP_EXTRA = "行動に余分な語があったので"
STOP_NO_CARD = "ないカードを書いていたので"


def _unknown_card(state: State, words: list[str]) -> str:
    """Why a word written as a card names none of the game's cards — a suit's word and a
    number (白9), or any word where a play or a return names its card (紫1, 緑); "" when
    every such word is a card."""
    rules = state.rules
    ids = rules.card_ids
    suits = "|".join(sorted({re.match(r"\D+", card).group() for card in ids}, key=len,
                            reverse=True))
    for index, word in enumerate(words[1:], 1):
        named = re.fullmatch(rf"(?:{suits})\d+", word) or (
            index == 1 and words[0] in ("play", "return"))
        if named and word not in ids:
            # the first and the last card in the order the game lists them: 赤1〜白6
            order = sorted(range(len(ids)), key=lambda c: (rules.suit_of[c], rules.number_of[c]))
            return (f"「{clipped(word)}」というカードはありません（カードは {ids[order[0]]}〜"
                    f"{ids[order[-1]]} のように書きます）")
    return ""


def _missing_card(state: State, words: list[str]) -> str:
    """Why a card the line names cannot be meant: (play, return) not in the hand (a card
    there is none of is ``_unknown_card``'s); "" when every card it names could be."""
    ids = state.rules.card_ids
    for word in words[1:]:
        if word in ids and words[0] in ("play", "return") and ids.index(word) not in state.hand:
            hand = W.region.hand
            return f"{word} は{hand}にありません（{hand}: {' '.join(ids[c] for c in state.hand)}）"
    return ""


#: Why an item, carried and standing, cannot be used when its moment has not come, by its
#: effect (the ones used only inside another action).
ITEM_MOMENTS = {"loop_to_bottom": "ループで引いたカードにだけ使えます（ループ 山の下）",
                "recall_extra": "アドベンチャーメモリーを使うときに一緒に使われます"}


def _lantern_idle(s: State, item) -> str:
    if not s.resolved:
        return f"{item.name} は解決した物語に使います（解決した物語はまだありません）"
    return f"{item.name} は解決した物語に使います（解決した物語はどれももう灯っています）"


def _rucksack_idle(s: State, item) -> str:
    if s.phase == "play" and len(s.hand) <= 1:
        return (f"{item.name} は、{W.region.hand}から1枚出す場面では最後の1枚を差し替えられません"
                "（その1枚を出します）")
    return (f"{item.name} は白いポーンの日（{s.white + 1} 日目）のイベントと入れ替えます"
            "（いまそこにイベントがありません）")


#: Why a carried, standing item has nothing to do now, by its effect (its ``options`` are
#: empty): the rule that stops it, as the refusal of a spent item says its own.
ITEM_IDLE = {
    "unresolve": _lantern_idle,
    "cycle_three": lambda s, item: f"{item.name} で引く山がありません（山は空です）",
    "swap_in": _rucksack_idle,
}


def _why_not(state: State, words: list[str]) -> str:
    """Why an item or a letter the line names cannot be used now, when the reason is one
    a player needs (not carried, used, no letter, only at its moment); "" otherwise."""
    if words[0] == "letter" and not state.letters:
        return "レターを持っていません（物語を1つ解決すると1個得ます）"
    if words[0] != "item" or len(words) < 2:
        return ""
    carried = state.deal.carried
    found = [i for i, item in enumerate(carried) if words[1] in (item.id, item.name)]
    if not found:
        names = "、".join(item.name for item in carried) or "なし"
        return f"アイテム「{words[1]}」は持っていません（持っているのは: {names}）"
    index = found[0]
    item = carried[index]
    if item.passive:
        return f"{item.name} は常に有効です（使う行動はありません）"
    if state.tapped >> index & 1:
        r = state.rules
        # a suit that stands items up again while it is unresolved, or lit by a standing
        # ランタン: a resolved suit loses its effect for good (spec step 5)
        lantern = ready_item(state, "unresolve")
        stands = [s for s in range(len(r.suit_effects)) if r.suit_effects[s] == "stand_item"]
        suits = "・".join(r.suit_word(s) for s in stands)
        if any(state.in_effect(s) for s in stands):
            again = f"（{'・'.join(r.suit_word(s) for s in stands if state.in_effect(s))}の" \
                    "フラグの効果で縦置きに戻せます）"
        elif stands and lantern is not None:  # resolved: only a lit suit has its effect
            again = (f"（{state.deal.carried[lantern].name}で{suits}を未解決として扱えば、"
                     f"{suits}のフラグの効果で縦置きに戻せます）")
        elif stands:
            again = f"（{suits}の物語は解決済みなので、もう縦置きに戻せません）"
        else:
            again = ""
        return f"{item.name} は使用済みです{again}"
    if item.effect in ITEM_MOMENTS:
        return f"{item.name} は{ITEM_MOMENTS[item.effect]}"
    idle = ITEM_IDLE.get(item.effect)
    if idle is not None and not ITEM_EFFECTS[item.effect].options(state):
        return idle(state, item)
    return ""


def normal_words(words: list[str]) -> list[str]:
    """Typed words as labels spell them: the verb in ASCII lower case, a verb's fixed word
    in ASCII (mill 捨て札 → mill discard), 全角 digits and signs as ASCII."""
    if not words:
        return []
    verb = VERBS.get(words[0], words[0]).lower()
    fixed = _WORDS.get(verb, {})
    return [verb, *(fixed.get(w, _normal(w)) for w in words[1:])]


def _normal(word: str) -> str:
    """One word as labels spell it: 全角 digits and signs as ASCII (黒３ → 黒3)."""
    return word.translate(str.maketrans("０１２３４５６７８９＋－", "0123456789+-"))
