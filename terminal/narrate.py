"""出来事の語り — BattleEvents as short Japanese lines for the terminal.

One format per event kind (data, not an if-chain). Kinds without a line here are not
worth a line of their own (they are shown by the screen instead). The words for codes
(faces, lifetimes, regions, Intents, variables) are the vocabulary's (contract.vocabulary).
"""

from __future__ import annotations

from contract import vocabulary as vocab
from runtime.state import EXPIRY_ORDER

#: Face code → 未来面 / 過去面.
SIDE = {face.code: face.ja for face in vocab.FACES}
#: How long defense lasts (its lifetime), or ``multiply``: changed by 乗算.
EXPIRY = {**{t.code: t.ja for t in vocab.LIFETIMES if t.code in EXPIRY_ORDER},
          "multiply": vocab.tables()["operation"].by_code("mul").ja}
#: Region or destination code → its word (a page moves to a region, or is exiled).
REGION = {t.code: t.ja for t in (*vocab.REGIONS, *vocab.DESTINATIONS)}
#: Variable code → its word (what a payment takes).
VARIABLE = {v.code: v.ja for v in vocab.VARIABLES}
INTENT = {i.code: i.ja for i in vocab.INTENT_KINDS}
#: What follows an Intent's word: the attack's amount, the region it blanks.
_INTENT_ARG = {
    "attack": lambda i: str(i["amount"]),
    "blank": lambda i: f"({REGION.get(i['region'], i['region'])})",
}


def intent_text(intent: dict) -> str:
    """One Intent (as the state and the events hold it), e.g. 攻撃16, 白紙化(手札)."""
    return INTENT[intent["kind"]] + _INTENT_ARG[intent["kind"]](intent)


#: event kind → function(data, names) → line. ``names`` maps a page id to its name.
LINES = {
    "run_started": lambda d, n: f"ラン開始（シード {d['seed']}、{len(d['stages'])} ステージ）",
    "stage_started": lambda d, n: f"ステージ {d['stage']}: {n.enemy(d['enemy'])}（HP {d['hp']}・座 {d['seat']}・突破ライン {d['breakthrough']}）",
    "turn_started": lambda d, n: f"── ターン {d['turn']} ──",
    "escalated": lambda d, n: f"エスカレーション: Intent が {d['count']} 個に（{intent_text(d['intent'])}）",
    "drawn": lambda d, n: f"ドロー: {n.page(d['page'])}",
    "draw_skipped": lambda d, n: "手札が上限なので引かない" if d["reason"] == "hand_cap" else "山札も捨て札も空で引けない",
    "reshuffled": lambda d, n: f"捨て札 {d['count']} 枚をシャッフルして山札に",
    "redrawn": lambda d, n: f"引き直し: 手札を捨てて {d['drawn']} 枚引いた",
    "no_playable_page": lambda d, n: "引き直しても出せるページがない（ペンか破るで変えられなければ、このままターンを終えると敗北）",
    "played": lambda d, n: f"{n.page(d['page'])}（銘 {d['year']}）をプレイ: 歩 {d['cost']}、" + "・".join(SIDE[s] for s in d["faces"]) + ("、座を跨ぐ" if d["crosses"] else ""),
    "moved": lambda d, n: f"刻 {d['age']} のまま（抑制）" if d["suppressed"] else f"刻 {d['age']} → {d['to']}",
    "intent_removed": lambda d, n: f"Intent を1個消した（{intent_text(d['intent'])}、残り {d['left']}）",
    "damage": lambda d, n: f"敵に {d['dealt']} ダメージ（敵HP {d['enemy_hp']}）",
    "healed": lambda d, n: f"{'敵' if d['who'] == 'enemy' else 'HP'} +{d['amount']}（{d['hp']}）",
    "defense_gained": lambda d, n: f"防御 +{d['amount']}（{EXPIRY.get(d['expiry'], d['expiry'])}）",
    "defense_consumed": lambda d, n: f"防御 −{d['amount']}（{EXPIRY.get(d['expiry'], d['expiry'])}）",
    "steps_changed": lambda d, n: f"歩 {'+' if d['delta'] >= 0 else ''}{d['delta']}（{d['steps']}）",
    "param_changed": lambda d, n: f"{d['param']} → {d['value']}",
    "flag_changed": lambda d, n: f"フラグ {d['flag']} = {d['value']}",
    "year_changed": lambda d, n: f"{n.page(d['page'])} の銘 → {d['year']}",
    "currency_changed": lambda d, n: f"通貨 {d['delta']:+}（{d['currency']}）",
    "paid": lambda d, n: f"{VARIABLE[d['what']]} を {d['amount']} 支払った",
    "page_exiled": lambda d, n: REGION[f"exile_{d['until']}"],
    "page_moved": lambda d, n: f"{n.page(d['page'])} → {REGION.get(d['to'], d['to'])}",
    "page_generated": lambda d, n: f"{n.page(d['page'])} を生成 → {REGION.get(d['to'], d['to'])}",
    "generation_failed": lambda d, n: f"{n.page(d['page'])} はデッキ内上限枚数（{d['cap']}）なので生成されない",
    "hand_full": lambda d, n: "手札が上限なので捨て札へ",
    "choice_requested": lambda d, n: f"選択: 候補から {d['count']} 枚を選ぶ（choose 番号）",
    "effect_placed": lambda d, n: f"継続作用: {d['target']}（{d['repeat']}）",
    "effect_expired": lambda d, n: f"継続作用が尽きた: {d['target']}",
    "pen": lambda d, n: f"ペン: {SIDE[d['side']]}を" + {"written": "書き込んだ", "upgraded": "強化した", "restored": "元に戻した"}[d["result"]],
    "tear": lambda d, n: f"{n.page(d['page'])} を破った（距離 {d['distance']}）" + ("：白紙ページなので破却効果はない" if d["blank"] else ""),
    "fray_gained": lambda d, n: f"綻び +{d['amount']}（ステージ {d['stage']}・ラン {d['run']}）",
    "reward": lambda d, n: f"綻び報酬（累積 {d['threshold']} 年）" + (f" × {d['count']}" if d.get("count", 1) > 1 else ""),
    "revealed": lambda d, n: "山札の上から公開: " + ("・".join(n.page(p) for p in d["pages"]) or "（山札は空）") + "（この順に引く）",
    "steps_carried": lambda d, n: f"歩の持ち越し: 前のターンの {d['amount']} を足す",
    "payment_skipped": lambda d, n: f"{VARIABLE[d['what']]} {d['amount']} を払えないので、支払いは行われない",
    "trait_telegraphed": lambda d, n: f"予告: 座が {d['to']} へ（{d['amount']:+}）",
    "defense_from_distance": lambda d, n: f"防御 +{d['amount']}（|{d['age']} − {d['seat']}|）→ 合計 {d['total']}",
    "hit": lambda d, n: (f"HP −{d['amount']}（{d['hp']}）" if d["cause"] != "intent" else
                         f"被弾 {d['amount']}: HP −{d['damage']}（{d['hp']}）" if not d["absorbed"] else
                         f"被弾 {d['amount']}: 防御で {d['absorbed']} 吸収、HP −{d['damage']}（{d['hp']}）"),
    "blanked": lambda d, n: f"白紙化: {n.page(d['page'])} の{SIDE[d['side']]}が白紙に",
    "blank_missed": lambda d, n: f"白紙化: {REGION.get(d['region'], d['region'])}に書かれた発動面がなく、何も起きない",
    "seat_moved": lambda d, n: "座は動かない（不動）" if d["immobile"] else f"座 → {d['seat']}",
    "stage_won": lambda d, n: f"勝利！ ステージ {d['stage']}（{'敵HP 0' if d['by'] == 'hp' else '突破ライン到達'}）",
    "run_won": lambda d, n: "ラン勝利！",
    "run_lost": lambda d, n: "敗北（HP 0）" if d["by"] == "hp" else "敗北（出せるページが尽きた）",
    "dev_set": lambda d, n: f"[開発者] {d['what']} = {d['value']}",
}


class Names:
    """Display names of pages and enemies for narration."""

    def __init__(self, tables):
        self.tables = tables

    def page(self, page_id: str) -> str:
        page = self.tables.pages.get(page_id)
        return page.name if page else page_id

    def enemy(self, enemy_id: str) -> str:
        enemy = self.tables.enemies.get(enemy_id)
        return enemy.name if enemy else enemy_id


def lines(events, tables) -> list[str]:
    names = Names(tables)
    out = []
    for event in events:
        fmt = LINES.get(event.kind)
        if fmt is not None:
            out.append(fmt(event.data, names))
    return out
