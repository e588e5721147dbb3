"""出来事の語り — BattleEvents as short Japanese lines for the terminal.

One format per event kind (data, not an if-chain). Kinds without a line here are not
worth a line of their own (they are shown by the screen instead); a format may also say
nothing (None) for an event that another one narrates — the defense a hit consumed is
part of the hit's line, the Intent a crossing removed part of the crossing's. The words
for codes (faces, lifetimes, regions, Intents, variables) are the vocabulary's
(contract.vocabulary): no internal code reaches the player.

Every number a 作用 changed says how it came about when its event carries the runtime's
explanation (``why``, see runtime/sayou.py ``explain_base`` and ``effective``): the base
and what it was read from, Σ加算補正 with each modifier's source, Π乗算補正, the 綻び
factor, 軽減, the unrounded result and the amount that landed (``explanation``).
"""

from __future__ import annotations

from catalog.phrasing import ref_text
from contract import vocabulary as vocab
from contract.codec import from_literal
from contract.tables import Ref
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


# ------------------------------------------------------------ explanations
#: One element of the enemy's 予兆, as crossing removes it (spec 000: 「敵の Intent が1個消える」;
#: 予兆 is the whole forecast).
INTENTS_WORD = W.quantity.intents


def number(value) -> str:
    """A number of an explanation: whole numbers without ``.0``, others to 4 places
    (31.680000000000003 → 31.68), a minus sign as the other lines write it."""
    value = round(value, 4)
    text = str(int(value)) if float(value).is_integer() else repr(value)
    return text.replace("-", "−")


def _signed_term(value) -> str:
    return f"− {number(-value)}" if value < 0 else f"+ {number(value)}"


#: Origin kind of a modifier (runtime/sayou.py ``modifier_source``) → whose it is.
_ORIGIN = {
    "page": lambda src, n: n.page(src["id"]),
    "enemy": lambda src, n: n.enemy(src["id"]),
    "tear": lambda src, n: f"{n.page(src['id'])}の{vocab.KEYWORDS['tear'][0]}",
    "reward": lambda src, n: vocab.KEYWORDS["reward"][0],
}


def _source(src: dict, names) -> str:
    """One modifier as its word and whose it is: 攻撃力補正「坂道の自転車」."""
    whose = _ORIGIN.get(src["origin"])
    said = VARIABLE.get(src["modifier"], "")
    return f"{said}「{whose(src, names)}」" if whose else said


#: What a torn page's 作用 are scaled by (1 + 破却係数 × the tear's distance).
TEAR_SCALE = f"{vocab.KEYWORDS['tear'][0]}の倍率"


def _base_clause(why: dict) -> str | None:
    """What the base was read from: 使用した歩［このプレイ］ 36 × 0.8 = 28.8 (None for a
    constant base at its face value)."""
    if "ref" not in why and "scale" not in why and "times" not in why:
        return None
    if "ref" in why:
        said = f"{ref_text(from_literal(Ref, why['ref']))} {number(why['read'])}"
        if why["coef"] != 1:
            said += f" × {number(why['coef'])}"
    else:
        said = number(why.get("written", why["base"]))
    multiplier = why.get("op") == "mul"  # grows by its excess over 1 (runtime.sayou._grown)
    if "scale" in why:
        scale = f"{number(why['scale'])}（{TEAR_SCALE}）"
        said = f"1 + ({said} − 1) × {scale}" if multiplier else f"{said} × {scale}"
    if "times" in why:
        said = f"({said}) ^ {why['times']}" if multiplier else f"{said} × {why['times']}"
    return f"{said} = {number(why['base'])}"


def explanation(why: dict | None, names) -> str:
    """How a landed number came about, as lines under the event's own line (each
    indented): what the base was read from (``使用した歩［このプレイ］ 36 × 0.8 = 28.8``),
    then the modified value (``(28.8 + 0) × 1.1 綻び = 31.68 → 31``) — or "" when nothing
    but the written number went into it."""
    if not why:
        return ""
    clauses = []
    base = _base_clause(why)
    if base:
        clauses.append(base)
    fray = why.get("fray", {}).get("factor", 1)
    reduction = why.get("reduction", 0)
    shaped = why.get("modified") and (why["add"] or why["mul"] or fray != 1 or reduction)
    if shaped:
        adds = " ".join(f"{_signed_term(s['value'])} {_source(s, names)}" for s in why["add"])
        if reduction:  # an additive modifier: inside the sum, before the multipliers
            adds = f"{adds or '+ 0'} − {number(reduction)} {W.trait.per_hit_reduction}"
        formula = f"({number(why['base'])} {adds or '+ 0'})"
        formula += "".join(f" × {number(s['value'])} {_source(s, names)}" for s in why["mul"])
        if fray != 1:
            formula += f" × {number(fray)} {W.variable.fray}"
        clauses.append(f"{formula} = {number(why['value'])}")
    if not clauses:
        return ""
    if number(why["value"]) != str(why["amount"]) or why["value"] < 0:
        clauses[-1] += f" → {why['amount']}"
    return "".join(f"\n  {clause}" for clause in clauses)


def _damage(d, n) -> str:
    said = f"敵に {d['dealt']} ダメージ（{W.variable.enemy_hp} {d['enemy_hp']}）"
    if d["dealt"] != d["amount"]:
        said = f"敵に {d['amount']} ダメージ（通ったのは {d['dealt']}、{W.variable.enemy_hp} {d['enemy_hp']}）"
    return said + explanation(d.get("why"), n)


def _absorbed(d) -> str:
    """防御で 16 吸収（ターン 12・ステージ 4）: how much each lifetime absorbed."""
    rows = d.get("absorbed_by")
    if not rows:
        return f"{W.variable.defense}で {d['absorbed']} 吸収"
    parts = []
    for expiry, used, vanished in rows:
        part = f"{EXPIRY.get(expiry, '')} {used}"
        if vanished:
            part += f"、残り {vanished} は消えた"
        parts.append(part)
    return f"{W.variable.defense}で {d['absorbed']} 吸収（{'・'.join(parts)}）"


def _hit(d, n) -> str:
    if d["cause"] != "intent":
        return f"HP −{d['amount']}（{d['hp']}）" + explanation(d.get("why"), n)
    surplus = d.get("surplus", 0)
    # HP stops at 0: the line says what it lost, and what the hit had beyond that.
    lost = f"HP −{d['damage'] - surplus}（{d['hp']}）" + (
        f"、超過 {surplus}（HP は 0 より下がらない）" if surplus else "")
    if not d["absorbed"] and not d.get("absorbed_by"):
        return f"被弾 {d['amount']}: {lost}"
    return f"被弾 {d['amount']}: {_absorbed(d)}→ {lost}"


def _crossed(d, n) -> str:
    said = f"{W.variable.seat} {d['seat']} を跨いだ: "
    if d.get("intent") is None:
        return said + f"取り除く{INTENTS_WORD}はもうない"
    return said + f"{INTENTS_WORD}「{intent_text(d['intent'])}」を取り除いた（残り {d['left']}）"


def _intent_removed(d, n) -> str | None:
    if "crossing" in d:  # the crossing's line names the Intent it removed
        return None
    return f"{INTENTS_WORD}「{intent_text(d['intent'])}」を取り除いた（残り {d['left']}）"


def _link(link, n) -> str:
    """One 作用 of a stopped chain: whose it is, its line, operation and timing."""
    kind, owner, line, op, timing = link
    whose = _ORIGIN[kind]({"id": owner}, n)
    return (f"{whose} {line} 行目の{vocab.tables()['operation'].by_code(op).ja}"
            f"（{vocab.tables()['timing'].by_code(timing).ja}）")


def _chain_stopped(d, n) -> str:
    links = " → ".join(_link(link, n) for link in d["links"])
    return f"作用の連鎖を止めた（1 手で {d['bound']} 回を超えた）: {links}"


#: What raised 綻び → how its line names it (a pen's is the fixed ペンの綻び of the
#: balance; the line of the tear names its own 綻び).
FRAY_CAUSE = {"pen": W.balance.pen_fray}

#: event kind → function(data, names) → line. ``names`` maps a page id to its name.
LINES = {
    "run_started": lambda d, n: f"{W.scope.run}開始（シード {d['seed']}、{len(d['stages'])} {W.scope.stage}）",
    "stage_started": lambda d, n: f"{W.scope.stage} {d['stage']}: {n.enemy(d['enemy'])}（HP {d['hp']}・{W.variable.seat} {d['seat']}・突破ライン {d['breakthrough']}）",
    "turn_started": lambda d, n: f"── {W.scope.turn} {d['turn']} ──",
    "escalated": lambda d, n: f"エスカレーション: Intent が {d['count']} 個に（{intent_text(d['intent'])}）",
    "drawn": lambda d, n: f"ドロー: {n.page(d['page'])}",
    "draw_skipped": lambda d, n: f"{W.region.hand}が上限なので引かない" if d["reason"] == "hand_cap" else f"{W.region.draw}も{W.region.discard}も空で引けない",
    "reshuffled": lambda d, n: f"{W.region.discard} {d['count']} 枚をシャッフルして{W.region.draw}に",
    "redraw_started": lambda d, n: f"出せるページがないので引き直し: {W.region.hand} {d['discarded']} 枚を{W.region.discard}へ",
    "redrawn": lambda d, n: f"引き直しで {d['drawn']} 枚引いた",
    "no_playable_page": lambda d, n: f"引き直しても出せるページがない（ペンか破るで変えられなければ、このまま{W.scope.turn}を終えると{W.quantity.lost}）",
    "played": lambda d, n: f"{n.page(d['page'])}（{W.variable.year} {d['year']}）を{W.scope.play}: {W.variable.steps} {d['cost']}、" + "・".join(SIDE[s] for s in d["faces"]) + (f"、{W.variable.seat}を{W.condition_word.crosses}" if d["crosses"] else ""),
    "moved": lambda d, n: f"{W.variable.age} {d['age']} のまま（{W.operation.suppress}）" if d["suppressed"] else f"{W.variable.age} {d['age']} → {d['to']}",
    "crossed": _crossed,
    "intent_removed": _intent_removed,
    "damage": _damage,
    "healed": lambda d, n: f"{'敵' if d['who'] == 'enemy' else 'HP'} +{d['amount']}（{d['hp']}）" + explanation(d.get("why"), n),
    "defense_gained": lambda d, n: f"{W.variable.defense} +{d['amount']}（{EXPIRY.get(d['expiry'], '')}）" + explanation(d.get("why"), n),
    # the defense a hit consumed is part of the hit's line
    "defense_consumed": lambda d, n: None if d.get("during") == "hit" else f"{W.variable.defense} −{d['amount']}（{EXPIRY.get(d['expiry'], '')}）",
    "steps_changed": lambda d, n: f"{W.variable.steps} {'+' if d['delta'] >= 0 else ''}{d['delta']}（{d['steps']}）" + explanation(d.get("why"), n),
    "param_changed": lambda d, n: f"{VARIABLE.get(d['param'], '')} → {d['value']}",
    "flag_changed": lambda d, n: f"フラグ {d['flag']} = {d['value']}",
    "year_changed": lambda d, n: f"{n.page(d['page'])} の{W.variable.year} → {d['year']}",
    "currency_changed": lambda d, n: f"{W.variable.currency} {d['delta']:+}（{d['currency']}）" + explanation(d.get("why"), n),
    "paid": lambda d, n: f"{VARIABLE[d['what']]} を {d['amount']} 支払った",
    "page_exiled": lambda d, n: REGION[f"exile_{d['until']}"],
    "page_moved": lambda d, n: f"{n.page(d['page'])} → {REGION.get(d['to'], d['to'])}",
    "page_generated": lambda d, n: f"{n.page(d['page'])} を{W.operation.generate} → {REGION.get(d['to'], d['to'])}",
    "generation_failed": lambda d, n: f"{n.page(d['page'])} は{W.balance.deck_cap_default}（{d['cap']}）なので{W.operation.generate}されない",
    "hand_full": lambda d, n: f"{W.region.hand}が上限なので{W.region.discard}へ",
    "choice_requested": lambda d, n: f"{W.pick.choice}: 候補から {d['count']} 枚を選ぶ（choose 番号）",
    "choice_settled": lambda d, n: f"{W.pick.choice}: " + (
        f"候補が {len(d['candidates'])} 枚だけ（選ぶのは {d['count']} 枚）なので、選ばずに決まった"
        if d["candidates"] else "候補がないので、何も選ばれない"),
    "effect_placed": lambda d, n: f"継続作用: {d['target']}（{d['repeat']}）",
    "effect_expired": lambda d, n: f"継続作用が尽きた: {d['target']}",
    "chain_stopped": _chain_stopped,
    "pen": lambda d, n: f"ペン: {SIDE[d['side']]}を" + {"written": "書き込んだ", "upgraded": "強化した", "restored": "元に戻した"}[d["result"]],
    "tear": lambda d, n: f"{n.page(d['page'])} を破った（{W.variable.distance} {d['distance']}）" + ("：白紙ページなので破却効果はない" if d["blank"] else ""),
    "fray_gained": lambda d, n: f"{FRAY_CAUSE.get(d['cause'], W.variable.fray)} +{d['amount']}（{W.scope.stage} {d['stage']}・{W.scope.run} {d['run']}）",
    "reward": lambda d, n: f"{W.variable.fray}報酬（累積 {d['threshold']} 年）" + (f" × {d['count']}" if d.get("count", 1) > 1 else ""),
    "revealed": lambda d, n: f"{W.region.draw}の{W.pick.top}{W.operation.reveal}: " + ("・".join(n.page(p) for p in d["pages"]) or f"（{W.region.draw}は空）") + "（この順に引く）",
    "steps_carried": lambda d, n: f"{W.variable.steps_carry}: 前の{W.scope.turn}の {d['amount']} を足す",
    "payment_skipped": lambda d, n: f"{VARIABLE[d['what']]} {d['amount']} を払えないので、{W.operation.pay}は行われない",
    "trait_telegraphed": lambda d, n: f"予告: {W.variable.seat}が {d['to']} へ（{d['amount']:+}）",
    "defense_from_distance": lambda d, n: f"{W.variable.defense} +{d['amount']}（"
    # 防御係数 × the distance, truncated: said whenever that is not the distance itself
    + ("" if d["amount"] == abs(d["age"] - d["seat"]) else f"{W.variable.defense_coef} × ")
    + f"|{d['age']} − {d['seat']}|）→ 合計 {d['total']}",
    "hit": _hit,
    "blanked": lambda d, n: f"{W.intent.blank}: {n.page(d['page'])} の{SIDE[d['side']]}が白紙に",
    "blank_missed": lambda d, n: f"{W.intent.blank}: {REGION.get(d['region'], d['region'])}に書かれた発動面がなく、何も起きない",
    "seat_moved": lambda d, n: f"{W.variable.seat}は動かない（{W.trait.immobile}）" if d["immobile"] else f"{W.variable.seat} → {d['seat']}",
    "stage_won": lambda d, n: f"{W.quantity.won}！ {W.scope.stage} {d['stage']}（{W.variable.enemy_hp + ' 0' if d['by'] == 'hp' else '突破ライン到達'}）",
    "run_won": lambda d, n: f"{W.scope.run}{W.quantity.won}！",
    "run_lost": lambda d, n: f"{W.quantity.lost}（HP 0）" if d["by"] == "hp" else f"{W.quantity.lost}（出せるページが尽きた）",
    "dev_set": lambda d, n: f"[開発者] {d['what']} = {d['value']}",
}


#: Kinds whose line says what an action dealt or cost — its damage, the 綻び it gained,
#: each hit the enemy landed (a turn's end is mostly those), and how the stage or the run
#: ended: a narration shortened to fit the screen folds other lines, never these
#: (terminal.play).
KEPT_KINDS = frozenset({"damage", "fray_gained", "hit", "stage_won", "run_won", "run_lost"})


class Kept(str):
    """A line of narration that a shortened narration always shows (KEPT_KINDS): what
    the action dealt. A plain ``str`` everywhere else."""

    __slots__ = ()


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
    """The narration of ``events``: a line each for the kinds LINES narrates (and under
    it, indented, how its number came about); other kinds, and events a format leaves to
    another event's line (None), are silent. The line of a kind in KEPT_KINDS is Kept."""
    names = Names(tables)
    out = []
    for event in events:
        fmt = LINES.get(event.kind)
        said = None if fmt is None else fmt(event.data, names)
        if said is not None:
            first, *explained = said.split("\n")  # an explanation adds lines under it
            out.append(Kept(first) if event.kind in KEPT_KINDS else first)
            out.extend(explained)
    return out
