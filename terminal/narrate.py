"""出来事の語り — BattleEvents as short Japanese lines for the terminal.

One format per event kind (data, not an if-chain). Kinds without a line here are not
worth a line of their own (they are shown by the screen instead). The words for codes
(faces, lifetimes, regions, Intents, variables) are the vocabulary's (contract.vocabulary).
"""

from __future__ import annotations

from contract import vocabulary as vocab
from runtime.state import EXPIRY_ORDER
from contract.vocabulary import W

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
    "run_started": lambda d, n: f"{W.scope.run}開始（シード {d['seed']}、{len(d['stages'])} {W.scope.stage}）",
    "stage_started": lambda d, n: f"{W.scope.stage} {d['stage']}: {n.enemy(d['enemy'])}（HP {d['hp']}・{W.variable.seat} {d['seat']}・突破ライン {d['breakthrough']}）",
    "turn_started": lambda d, n: f"── {W.scope.turn} {d['turn']} ──",
    "escalated": lambda d, n: f"エスカレーション: Intent が {d['count']} 個に（{intent_text(d['intent'])}）",
    "drawn": lambda d, n: f"ドロー: {n.page(d['page'])}",
    "draw_skipped": lambda d, n: f"{W.region.hand}が上限なので引かない" if d["reason"] == "hand_cap" else f"{W.region.draw}も{W.region.discard}も空で引けない",
    "reshuffled": lambda d, n: f"{W.region.discard} {d['count']} 枚をシャッフルして{W.region.draw}に",
    "redrawn": lambda d, n: f"引き直し: {W.region.hand}を捨てて {d['drawn']} 枚引いた",
    "no_playable_page": lambda d, n: f"引き直しても出せるページがない（ペンか破るで変えられなければ、このまま{W.scope.turn}を終えると{W.quantity.lost}）",
    "played": lambda d, n: f"{n.page(d['page'])}（{W.variable.year} {d['year']}）を{W.scope.play}: {W.variable.steps} {d['cost']}、" + "・".join(SIDE[s] for s in d["faces"]) + (f"、{W.variable.seat}を{W.condition_word.crosses}" if d["crosses"] else ""),
    "moved": lambda d, n: f"{W.variable.age} {d['age']} のまま（{W.operation.suppress}）" if d["suppressed"] else f"{W.variable.age} {d['age']} → {d['to']}",
    "intent_removed": lambda d, n: f"Intent を1個消した（{intent_text(d['intent'])}、残り {d['left']}）",
    "damage": lambda d, n: f"敵に {d['dealt']} ダメージ（{W.variable.enemy_hp} {d['enemy_hp']}）",
    "healed": lambda d, n: f"{'敵' if d['who'] == 'enemy' else 'HP'} +{d['amount']}（{d['hp']}）",
    "defense_gained": lambda d, n: f"{W.variable.defense} +{d['amount']}（{EXPIRY.get(d['expiry'], d['expiry'])}）",
    "defense_consumed": lambda d, n: f"{W.variable.defense} −{d['amount']}（{EXPIRY.get(d['expiry'], d['expiry'])}）",
    "steps_changed": lambda d, n: f"{W.variable.steps} {'+' if d['delta'] >= 0 else ''}{d['delta']}（{d['steps']}）",
    "param_changed": lambda d, n: f"{d['param']} → {d['value']}",
    "flag_changed": lambda d, n: f"フラグ {d['flag']} = {d['value']}",
    "year_changed": lambda d, n: f"{n.page(d['page'])} の{W.variable.year} → {d['year']}",
    "currency_changed": lambda d, n: f"{W.variable.currency} {d['delta']:+}（{d['currency']}）",
    "paid": lambda d, n: f"{VARIABLE[d['what']]} を {d['amount']} 支払った",
    "page_exiled": lambda d, n: REGION[f"exile_{d['until']}"],
    "page_moved": lambda d, n: f"{n.page(d['page'])} → {REGION.get(d['to'], d['to'])}",
    "page_generated": lambda d, n: f"{n.page(d['page'])} を{W.operation.generate} → {REGION.get(d['to'], d['to'])}",
    "generation_failed": lambda d, n: f"{n.page(d['page'])} は{W.balance.deck_cap_default}（{d['cap']}）なので{W.operation.generate}されない",
    "hand_full": lambda d, n: f"{W.region.hand}が上限なので{W.region.discard}へ",
    "choice_requested": lambda d, n: f"{W.pick.choice}: 候補から {d['count']} 枚を選ぶ（choose 番号）",
    "effect_placed": lambda d, n: f"継続作用: {d['target']}（{d['repeat']}）",
    "effect_expired": lambda d, n: f"継続作用が尽きた: {d['target']}",
    "pen": lambda d, n: f"ペン: {SIDE[d['side']]}を" + {"written": "書き込んだ", "upgraded": "強化した", "restored": "元に戻した"}[d["result"]],
    "tear": lambda d, n: f"{n.page(d['page'])} を破った（{W.variable.distance} {d['distance']}）" + ("：白紙ページなので破却効果はない" if d["blank"] else ""),
    "fray_gained": lambda d, n: f"{W.variable.fray} +{d['amount']}（{W.scope.stage} {d['stage']}・{W.scope.run} {d['run']}）",
    "reward": lambda d, n: f"{W.variable.fray}報酬（累積 {d['threshold']} 年）" + (f" × {d['count']}" if d.get("count", 1) > 1 else ""),
    "revealed": lambda d, n: f"{W.region.draw}の{W.pick.top}{W.operation.reveal}: " + ("・".join(n.page(p) for p in d["pages"]) or f"（{W.region.draw}は空）") + "（この順に引く）",
    "steps_carried": lambda d, n: f"{W.variable.steps_carry}: 前の{W.scope.turn}の {d['amount']} を足す",
    "payment_skipped": lambda d, n: f"{VARIABLE[d['what']]} {d['amount']} を払えないので、{W.operation.pay}は行われない",
    "trait_telegraphed": lambda d, n: f"予告: {W.variable.seat}が {d['to']} へ（{d['amount']:+}）",
    "defense_from_distance": lambda d, n: f"{W.variable.defense} +{d['amount']}（|{d['age']} − {d['seat']}|）→ 合計 {d['total']}",
    "hit": lambda d, n: (f"HP −{d['amount']}（{d['hp']}）" if d["cause"] != "intent" else
                         f"被弾 {d['amount']}: HP −{d['damage']}（{d['hp']}）" if not d["absorbed"] else
                         f"被弾 {d['amount']}: {W.variable.defense}で {d['absorbed']} 吸収、HP −{d['damage']}（{d['hp']}）"),
    "blanked": lambda d, n: f"{W.intent.blank}: {n.page(d['page'])} の{SIDE[d['side']]}が白紙に",
    "blank_missed": lambda d, n: f"{W.intent.blank}: {REGION.get(d['region'], d['region'])}に書かれた発動面がなく、何も起きない",
    "seat_moved": lambda d, n: f"{W.variable.seat}は動かない（{W.trait.immobile}）" if d["immobile"] else f"{W.variable.seat} → {d['seat']}",
    "stage_won": lambda d, n: f"{W.quantity.won}！ {W.scope.stage} {d['stage']}（{W.variable.enemy_hp + ' 0' if d['by'] == 'hp' else '突破ライン到達'}）",
    "run_won": lambda d, n: f"{W.scope.run}{W.quantity.won}！",
    "run_lost": lambda d, n: f"{W.quantity.lost}（HP 0）" if d["by"] == "hp" else f"{W.quantity.lost}（出せるページが尽きた）",
    "dev_set": lambda d, n: f"[開発者] {d['what']} = {d['value']}",
}


class Names:
    """Display names of pages and enemies for narration."""

    def __init__(self, tables):
        self.tables = tables

    def page(self, page_id: str) -> str:
        """The display name of a page id (the id itself when the tables do not hold it)."""
        page = self.tables.pages.get(page_id)
        return page.name if page else page_id

    def enemy(self, enemy_id: str) -> str:
        """The display name of an enemy id (the id itself when the tables do not hold it)."""
        enemy = self.tables.enemies.get(enemy_id)
        return enemy.name if enemy else enemy_id


def lines(events, tables) -> list[str]:
    """The narration of ``events``, one line each for the kinds LINES narrates; other
    kinds are silent."""
    names = Names(tables)
    out = []
    for event in events:
        fmt = LINES.get(event.kind)
        if fmt is not None:
            out.append(fmt(event.data, names))
    return out
