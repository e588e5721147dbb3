"""旅の札 — draft 17 「明日、旅に出ます」 as print-and-play cards (``jibunki print --journey``).

The set the draft's コンポーネント lists, in print order: the 30 イベントカード (by suit in the
vocabulary's order 赤 緑 青 黄 白, then by number), the 7 ロケーションカード (the last day
last), the 5 フラグカード, the 6 アイテムカード and the サマリーカード (早見表).

Which set-up is printed: 旅の準備「草案」, the one ``load_rules(None)`` plays (the draft's
rules body). Its アイテム一覧 is the draft's own six (ランタン 地図 ラジオ カメラ
リュックサック テント); the 問題点 items in the table (問題点のランタン …, always on, with a
cost) are a variant's pool and are not printed unless ``setup="問題点"`` is asked for.

Every word on a card comes from the journey table or from the vocabulary the terminal
and the catalog already use (スート, 数字, 枠, 赤枠, 費用, 最終日: ``W.journey_field``;
手札, 捨て札, プレイ: the shared words). Designer text (names, 文) is copied as written,
never interpreted: a card holds words, the templates escape them.

The 早見表 is the draft's turn (■ゲームの進行, phases 1–6) and its scoring (■スコア計算)
as rows of templates (``SUMMARY``) filled from the set-up's rules: the number of days,
the last day's name, the hand, the stories, the key icons and 鍵ボーナス, the variant
rules (高難易度, 効果は任意, 山札公開, 鍵の置き換え, items' 費用) — a change of the content
changes the card. The letters' two effects are the table's texts.
"""

from __future__ import annotations

from collections.abc import Mapping

from contract import vocabulary as vocab
from contract.codec import ContractError, from_literal
from contract.tables import JourneyTable
from contract.vocabulary import W
from journey.rules import JourneyError, Rules, load_rules

from .cards import KINDS, Card, Section

#: The words the draft 17 screens share with the battle's (the vocabulary's, written once).
HAND, DISCARD, PLAY, LOST, MOVE = (W.region.hand, W.region.discard, W.scope.play,
                                   W.quantity.lost, W.operation.move)
#: キーアイコン: the spec's and the journey screen's word for an event's 鍵 (the field's note).
KEY_ICON = "キーアイコン"
#: The badge label of how an item is used, and its two values (the screen's 常に有効; the
#: draft's 「使用したらカードを横倒しにし」 for the others).
ITEM_USE, PASSIVE, TAPPED = "使用", "常に有効", "使うと横倒し"

#: The heading of the summary's letters (their texts are the table's).
LETTERS_HEADING = "レター（いつでも取り除いて。何個でも同時に）"
#: 早見表 — the summary card's sections: (heading, rows); a row is (condition, template),
#: the condition a fact that must be true for the row to be printed ("" for always), the
#: template filled from ``_facts``. The draft's phases keep its numbers (１ 手札補充 …).
SUMMARY = (
    ("準備", (
        ("", "{last}を{days}日目に置き、残り{others}枚をシャッフルしてその前に並べる。ポーンを全て1日目に"),
        ("", "アイテムを{items_chosen}つ選ぶ。フラグカード{stories}枚にレターを1個ずつ置く"),
        ("", "山から{start}枚引いて{hand}にする"),
        ("next_open", "山の一番上のカードは表向きにしておく"),
    )),
    ("手番", (
        ("", "1 {hand}補充: 山から1枚引く。引けなければ{lost}"),
        ("", "2 {move}: {hand}1枚を{play}し、白いポーンを数字の分、黒いポーン1個を{days}−数字の分進める"),
        ("", "　{days}日目を越えたら1日目へ（ループ）。白いポーンのループは山から1枚を{discard}に（引けなければ{lost}）"),
        ("", "3 行動: {play}したカードを白いポーンのロケーションの直下に配置。{slots}を越えたら外側を{discard}に。"
             "{days}日目には配置せず{discard}に"),
        ("hard", "　赤いカードアイコン（{red}）は無いものとして扱う"),
        ("", "4 イベント: 白いポーンのロケーションのイベント効果をロケーションに近い順に適用（フラグカード参照）。"
             "同じスートは1回、解決済みのスートは効果なし"),
        ("optional", "　どの効果も適用しなくてよい"),
        ("", "5 解決: 全てのポーンのロケーションに同じスートのイベントがポーンの数だけあれば、その物語を1つ解決してレターを得てよい（しなくてもよい）"),
        ("", "6 終了: {stories}つの物語を全て解決し、全てのポーンが{days}日目（{last}）にいればクリア。でなければ1へ"),
    )),
    ("スコア（クリアしたとき）", (
        ("", "山の残り1枚につき1VP、残ったレター1個につき1VP"),
        ("", f"{KEY_ICON}（{{keys}}）が全て同じロケーション1つにつき{{key_vp}}VP（イベント1枚でも）"),
        ("merged", "{merged}"),
        ("costs", "携帯したアイテムの{cost}を引く"),
    )),
)


def journey_cards(table: JourneyTable | Mapping, setup: str | None = None) -> list[Card]:
    """The print-and-play cards of ``table`` (a ``JourneyTable``, or its literal: the
    TABLE of generated/journey.py, a compile's ``tables["journey"]``) for 旅の準備
    ``setup`` (None: 草案, as ``load_rules``), in print order. A ``Rules`` alone is not
    enough: it keeps no event's or location's 文. A table the contract refuses, or a
    set-up it lacks, is a ``JourneyError`` (Japanese)."""
    if isinstance(table, Rules):
        raise TypeError("journey_cards reads the journey table, not Rules (Rules drop the 文)")
    if not isinstance(table, JourneyTable):
        try:
            table = from_literal(JourneyTable, table, "journey")
        except ContractError as exc:
            raise JourneyError(f"旅の表を読めません（{exc}）") from None
    rules = load_rules(setup, table)
    return [*_events(table, rules), *_locations(table, rules), *_flags(table, rules),
            *_items(rules), *_summary(table, rules)]


def _events(table: JourneyTable, rules: Rules) -> list[Card]:
    """イベントカード: the set-up's deck, by suit (the flags' order) then number; the 文
    is the card's flavour (the draft: タイトル、数字、特殊効果＋フレーバー). Printed as the
    draft's author asks of play cards (「色をベースにして」): framed in its suit's colour,
    its 数字 and キーアイコン large in the corner, as a playing card's index. Its effect is its
    suit's, written on the flag card (「フラグカード参照」): printed here too, under the
    flag's name, so a playtester reads it where the card lies."""
    order = sorted(range(len(rules.card_ids)), key=lambda c: (rules.suit_of[c], rules.number_of[c]))
    flags = {f.suit: f for f in table.flags.values()}
    cards = []
    for c in order:
        event = table.events[rules.card_ids[c]]
        flag = flags[rules.suits[rules.suit_of[c]]]
        cards.append(Card(
            key=f"event/{event.id}", kind="event", title=event.name,
            badges=((W.journey_field.suit, rules.suit_word(rules.suit_of[c])),
                    (W.journey_field.number, str(event.number)),
                    (KEY_ICON, event.key)),
            sections=(Section(f"{W.journey_field.effect}（{flag.name}）", (flag.text,)),),
            flavour=event.text, tint=rules.suits[rules.suit_of[c]],
            corner=(str(event.number), event.key)))
    return cards


def _locations(table: JourneyTable, rules: Rules) -> list[Card]:
    """ロケーションカード: by id, the last day last (it is always laid 7th), with its
    カードアイコン drawn, the red ones (赤枠) outermost: the ones 高難易度 takes away."""
    ids = sorted(rules.locations, key=lambda i: (i == rules.last_day, i))
    cards = []
    for i in ids:
        place = table.locations[i]
        badges = [(W.journey_field.slots, str(place.slots))]
        if place.red:
            badges.append((W.journey_field.red, str(place.red)))
        if i == rules.last_day:
            badges.append((W.journey_field.last_day, f"{rules.days}日目"))
        cards.append(Card(key=f"location/{i}", kind="location", title=place.name,
                          badges=tuple(badges), flavour=place.text,
                          card_icons=tuple(n >= place.slots - (place.red or 0)
                                           for n in range(place.slots))))
    return cards


def _flags(table: JourneyTable, rules: Rules) -> list[Card]:
    """フラグカード: a suit's story, its effect's name (as the screen shows it) and its 文,
    framed in its suit's colour as its events are."""
    by_suit = {f.suit: f for f in table.flags.values()}
    cards = []
    for suit, code in enumerate(rules.suits):
        flag = by_suit[code]
        cards.append(Card(
            key=f"flag/{flag.id}", kind="flag", title=flag.name, tint=code,
            badges=((W.journey_field.suit, rules.suit_word(suit)),
                    (W.journey_field.effect, vocab.lookup("journey_effect", flag.effect).ja)),
            sections=(Section("", (flag.text,)),)))
    return cards


def _items(rules: Rules) -> list[Card]:
    """アイテムカード: the set-up's アイテム一覧, in its order; 費用 when it has one."""
    cards = []
    for i in rules.item_pool:
        item = rules.items[i]
        badges = [(ITEM_USE, PASSIVE if item.passive else TAPPED)]
        if item.cost > 0:
            badges.append((W.journey_field.cost, f"{item.cost}VP"))
        cards.append(Card(key=f"item/{item.id}", kind="item", title=item.name,
                          badges=tuple(badges), sections=(Section("", (item.text,)),)))
    return cards


#: The summary's sections on its two cards (a reference card's two sides): the turn, which
#: a player reads every turn, alone on the first; the set-up, the score and the letters on
#: the second. One poker card cannot hold them all at the smallest print size.
SUMMARY_CARDS = (("手番",), ("準備", "スコア（クリアしたとき）", LETTERS_HEADING))


def _summary(table: JourneyTable, rules: Rules) -> list[Card]:
    """サマリーカード（早見表）: ``SUMMARY`` filled from the rules, then the letters, on the
    cards of ``SUMMARY_CARDS`` ("summary/1", "summary/2")."""
    facts = _facts(rules, table.setups[rules.setup].key_merge)
    sections = {heading: Section(heading, tuple(template.format(**facts)
                                                for when, template in rows
                                                if not when or facts[when]))
                for heading, rows in SUMMARY}
    letters = sorted(table.letters.values(), key=lambda letter: letter.id)
    sections[LETTERS_HEADING] = Section(LETTERS_HEADING, tuple(
        f"{letter.name}: {letter.text}" for letter in letters))
    count = len(SUMMARY_CARDS)
    return [Card(key=f"summary/{n}", kind="summary", title=f"{KINDS['summary']} {n}/{count}",
                 badges=((vocab.KEYWORDS["j_setup"][0], rules.setup_name),),
                 sections=tuple(sections[heading] for heading in headings))
            for n, headings in enumerate(SUMMARY_CARDS, 1)]


def _facts(rules: Rules, key_merge: Mapping[str, str]) -> dict:
    """What ``SUMMARY``'s templates and conditions read, from the set-up's rules (and its
    鍵の置き換え, which the rules keep folded into the cards' icons)."""
    merged = "、".join(f"{KEY_ICON}の{a}は{b}として数える" for a, b in sorted(key_merge.items()))
    return {
        "hand": HAND, "discard": DISCARD, "play": PLAY, "lost": LOST, "move": MOVE,
        "cost": W.journey_field.cost,
        "slots": W.journey_field.slots, "red": W.journey_field.red,
        "days": rules.days, "others": rules.days - 1,
        "last": rules.location_names[rules.last_day],
        "items_chosen": rules.items_chosen, "stories": len(rules.suits), "start": rules.hand,
        "keys": "・".join(rules.keys), "key_vp": rules.key_vp, "merged": merged,
        "next_open": rules.next_open, "hard": rules.hard, "optional": rules.optional_effects,
        "costs": any(rules.items[i].cost > 0 for i in rules.item_pool),
    }
