"""項目の検査 — pages, enemies, the balance and decks: fields, faces, pens, tears.

Each ``check_*`` reports diagnostics and returns the item as the tables hold it — a
``contract.tables`` Page, Enemy, Balance or Deck, every name resolved and every default
filled in — or None when the item has errors. Where an item was written (its ``Source``)
is given by the pass that checks it (compiler.sources).
"""

from __future__ import annotations

import math
from dataclasses import replace

from dsl import ast
from dsl.diagnostics import Note
from dsl.slips import OPERATORS_TAKE_EQUALS

from contract import vocabulary as vocab
from contract.tables import (Balance, Body, Deck, Enemy, Escalation, Face, Intent, Page, Source,
                             Trait)
from .codes import (E010, E011, E013, E014, E028, E029, E030, E031, E045, E052, E053, E054, E055, E066,
                    E068, E073, W002, W004)
from .effects import check_sayou
from .limits import DECK_CAP_BOUND
from .lower import STARTING_DECK
from .names import resolve
from .targets import check_target
from .values import Ctx, check_conditions, check_count, check_page_ref, constant, range_hint
from contract.vocabulary import W

_DECK_CAP_KEY = vocab.tables()["balance"].by_code("deck_cap_default")
_LIFESPAN_KEY = vocab.tables()["balance"].by_code("lifespan_cap")

#: A field's name in messages: its keyword (a field's key is its keyword's rule name).
_FIELD_WORDS = {rule: ja for rule, (ja, _) in vocab.KEYWORDS.items()}
#: A face's name in messages, by side.
_SIDE_WORDS = {face.code: face.ja for face in vocab.FACES}
#: The two faces of a page, in the order the tables list them.
SIDES = tuple(face.code for face in vocab.FACES)
#: A face that is not written (白紙, or not mentioned at all).
BLANK = Face(False, (), ())


def _fields(item, ctx: Ctx) -> dict[str, ast.Field]:
    """Fields by key; a field written twice is E013, pointing at both."""
    seen: dict[str, ast.Field] = {}
    for f in item.fields:
        if f.key in seen:
            ctx.add(E013.at(f.span, f"{_FIELD_WORDS[f.key]}を2回書いています",
                            notes=[Note("最初の記述", seen[f.key].span)]))
        else:
            seen[f.key] = f
    return seen


def _required(fields, key: str, item, ctx: Ctx, example: str) -> ast.Field | None:
    if key not in fields:
        ctx.add(E014.at(item.id.span, f"{_FIELD_WORDS[key]}がありません", hint=f"例: {example}"))
        return None
    return fields[key]


def _body(body: ast.Body, ctx: Ctx) -> Body | None:
    if body.conditions and ctx.where in ("tear", "reward"):
        # 条件は面に紐づく (spec 002 プレイ条件): what is never played has none.
        ctx.add(E053.at(body.condition_spans[0]))
        return None
    conditions = check_conditions(body.conditions, ctx)
    effects = [check_sayou(s, ctx) for s in body.sayou]
    if None in conditions or None in effects:
        return None
    return Body(tuple(conditions), tuple(effects))


# --------------------------------------------------------------------- pages


def check_page(page: ast.Page, ctx: Ctx, source: Source, default_cap: int,
               damaged: bool = False) -> Page | None:
    """The checked page; ``default_cap`` is the deck cap of a page that writes none (the
    balance's, ``default_deck_cap``)."""
    before = len(ctx.diags)
    fields = _fields(page, ctx)
    year = _year(page, fields, ctx, damaged)
    hmul = _fray_mul(fields, ctx)
    dest = "discard"
    if "dest" in fields:
        entry = resolve("destination", fields["dest"].value, ctx.diags)
        dest = entry.code if entry else None
    deck_cap = _deck_cap(fields, ctx)
    target = check_target(fields.get("target"), "page", ctx)
    appears = []
    if "appears" in fields:
        appears = check_conditions(fields["appears"].value, ctx.at("appears"), "appears")

    faces = {}
    for face in page.faces:
        if face.side in faces:
            ctx.add(E013.at(face.span, f"{_SIDE_WORDS[face.side]}を2回書いています",
                            notes=[Note("最初の記述", faces[face.side][0].span)]))
            continue
        faces[face.side] = (face, _face(face, ctx, damaged) if face.body is not None else BLANK)

    pens = {}
    for pen in page.pens:
        if pen.side in pens:
            ctx.add(E028.at(pen.span, side=_SIDE_WORDS[pen.side],
                            notes=[Note("最初の定義", pens[pen.side][0].span)]))
            continue
        pens[pen.side] = (pen, _pen(pen, ctx.at("pen"), _written(faces, pen.side), damaged))

    if not damaged:  # recovery may have dropped a pen block: its error says so
        _blank_faces_have_pens(page, faces, pens, ctx)

    tear = None
    if len(page.tears) > 1:
        ctx.add(E013.at(page.tears[1].span, "破却を2回書いています",
                        notes=[Note("最初の記述", page.tears[0].span)]))
    if page.tears and not page.tears[0].body.sayou and not page.tears[0].body.conditions:
        ctx.add(E029.at(page.tears[0].span, "破却が書かれていますが、作用が1つもありません",
                        hint=f"破却効果の作用を書くか、破却 {{ }} を消してください（破れば{W.variable.fray}は上がります）"))
    elif page.tears:
        tear = _body(page.tears[0].body, ctx.at("tear"))
        written = [f for f, lowered in faces.values() if f.body is not None]
        # Every blank face has its pen (E066), so the 破却 is had only by a page the pen
        # has written first: torn while blank it gives 綻び only (spec 000 白紙ページ).
        if not written:
            ctx.add(W002.at(page.tears[0].span))

    if any(d.is_error for d in ctx.diags[before:]):
        return None
    checked_faces = {side: faces[side][1] if side in faces else BLANK for side in SIDES}
    checked_pens = {side: pens[side][1] if side in pens else None for side in SIDES}
    if year is None or None in checked_faces.values() or any(
            side in pens and pens[side][1] is None for side in SIDES):
        return None  # damaged: a part recovery blanked is missing, and an error says so
    return Page(
        id=page.id.text, name=page.title or page.id.text, year=year, fray_mul=hmul,
        origin=fields["origin"].value.text if "origin" in fields else None,
        after_play=dest, deck_cap=default_cap if deck_cap is None else deck_cap,
        appears=tuple(appears), flavor=fields["flavor"].value if "flavor" in fields else "",
        faces=checked_faces, pens=checked_pens,
        tear=None if tear is None else tear.effects, source=source, target=target)


def _blank_faces_have_pens(page: ast.Page, faces: dict, pens: dict, ctx: Ctx) -> None:
    """E066 for each blank face — 白紙, or not written at all — that no ペン block writes:
    what the pen writes is fixed per page and visible (spec 000, DESIGN §6.2)."""
    for side in SIDES:
        if _written(faces, side) or side in pens:
            continue
        where = faces[side][0].span if side in faces else page.id.span
        ctx.add(E066.at(where, side=_SIDE_WORDS[side]))


def _deck_cap(fields, ctx: Ctx) -> int | None:
    """The page's checked 上限枚数 (None: not written, or wrong — then reported here).
    The deck check reads a page's cap through this function too: one reading of the
    field, so ``上限枚数 0+1`` means the same to both."""
    if "deck_cap" not in fields:
        return None
    value = constant(fields["deck_cap"].value, ctx, "上限枚数")
    if value is None:
        return None
    if not isinstance(value, int) or not 1 <= value <= DECK_CAP_BOUND:
        ctx.add(E030.at(fields["deck_cap"].value.span, f"上限枚数は 1〜{DECK_CAP_BOUND} の整数です（{_as_written(fields['deck_cap'].value, value, 1, DECK_CAP_BOUND)}）",
                        hint=f"{W.balance.deck_cap_default}と同じ範囲です（バランスの項目、vocabulary.py）"))
        return None
    return value


def _year(page, fields, ctx: Ctx, damaged: bool):
    field = fields.get("year") if damaged else _required(fields, "year", page, ctx, f"{W.variable.year} 36")
    if field is None:
        return None
    value = constant(field.value, ctx, W.variable.year)
    if value is None:
        return None
    if not isinstance(value, int) or not 0 <= value <= vocab.YEAR_BOUND:
        ctx.add(E030.at(field.value.span, f"{W.variable.year}は 0〜{vocab.YEAR_BOUND} の整数です（{_as_written(field.value, value, 0, vocab.YEAR_BOUND)}）",
                        hint=f"{W.variable.year}はそのページの場面が何歳のときかを表します。{W.variable.lifespan_cap}を超えてもかまいません"))
        return None
    return value


def _fray_mul(fields, ctx: Ctx):
    if "fray_mul" not in fields:
        return 1.0
    field = fields["fray_mul"]
    value = constant(field.value, ctx, W.variable.fray_mul)
    if value is None:
        return None
    if value < 0:
        ctx.add(E031.at(field.value.span, value=value))
        return None
    if value > vocab.FRAY_MUL_BOUND:
        ctx.add(E030.at(field.value.span,
                        f"{W.variable.fray_mul} {value} は大きすぎます（{vocab.FRAY_MUL_BOUND} まで）"))
        return None
    return float(value)


def _face(face: ast.Face, ctx: Ctx, damaged: bool = False) -> Face | None:
    if not face.body.sayou:
        # Its conditions are still checked: a face of one bad 条件 has two mistakes.
        check_conditions(face.body.conditions, ctx.at("face"))
        if damaged:  # the list may only look empty: recovery blanked a broken line of it
            return None
        ctx.add(E029.at(face.span, f"{_SIDE_WORDS[face.side]}は書かれていますが、作用が1つもありません",
                        hint=f"作用を書くか、{_SIDE_WORDS[face.side]} 白紙 にしてください"))
        return None
    body = _body(face.body, ctx.at("face"))
    return None if body is None else Face(True, body.conditions, body.effects)


def _written(faces: dict, side: str) -> bool:
    """Whether the page writes this face (a face not mentioned at all is blank)."""
    return side in faces and faces[side][0].body is not None


def _pen(pen: ast.Pen, ctx: Ctx, written: bool, damaged: bool = False) -> Body | None:
    if not pen.body.sayou:
        if not written:  # a pen on a blank face writes its conditions too: checked as a face's
            check_conditions(pen.body.conditions, ctx)
        if damaged:
            return None
        ctx.add(E029.at(pen.span, f"{_SIDE_WORDS[pen.side]}のペン強化に作用が1つもありません",
                        hint="ペンで書き込まれる作用列を書いてください"))
        return None
    if written and pen.body.conditions:
        # A pen on a written face replaces its 作用列 only; the face keeps its own play
        # conditions (spec 002: プレイ条件 and 作用列 are separate face variables). A pen on a
        # blank face writes the block whole, so there its conditions are the face's.
        word = _SIDE_WORDS[pen.side]
        ctx.add(E045.at(pen.body.condition_spans[0], word=word))
        return None
    return _body(pen.body, ctx)


# ------------------------------------------------------------------- enemies


def check_enemy(enemy: ast.Enemy, ctx: Ctx, source: Source,
                damaged: bool = False) -> Enemy | None:
    """The checked enemy."""
    before = len(ctx.diags)
    fields = _fields(enemy, ctx)
    numbers = {}
    for key, low, high, example in (("hp", 1, 1_000_000, "HP 150"),
                                    ("seat", 0, vocab.YEAR_BOUND, f"{W.variable.seat} 42"),
                                    ("breakthrough", 1, 10_000, "突破ライン 60")):
        field = fields.get(key) if damaged else _required(fields, key, enemy, ctx, example)
        if field is None:
            continue
        value = constant(field.value, ctx, _FIELD_WORDS[key])
        # a 座 past the line is said once by _check_on_line, with the bound that fixes it
        # (寿命上限)
        beyond_line = key == "seat" and type(value) is int and value > high and \
            type(balance_setting(ctx, _LIFESPAN_KEY)) is int
        if not beyond_line and value is not None and (
                not isinstance(value, int) or not low <= value <= high):
            ctx.add(E030.at(field.value.span,
                            f"{_FIELD_WORDS[key]}は {low}〜{high} の整数です"
                            f"（{_as_written(field.value, value, low, high)}）",
                            hint=f"{_FIELD_WORDS[key]}には {low} から {high} までの整数を書きます"
                                 "（小数や負の数は書けません）"))
        numbers[key] = value
    _check_on_line(numbers.get("seat"), fields.get("seat"), ctx)
    if not enemy.intents and not damaged:
        ctx.add(E014.at(enemy.id.span, "予兆（Intent 列）がありません",
                        hint=f"例: 予兆 [ {W.intent.attack} 16, {W.intent.attack} 16, {W.intent.blank} {W.region.hand} ]"))
    if enemy.intents and not enemy.intents[0]:
        ctx.add(E068.at(enemy.intents_spans[0]))
    if len(enemy.intents) > 1:
        ctx.add(E013.at(enemy.intents_spans[1], "予兆を2回書いています",
                        notes=[Note("最初の記述", enemy.intents_spans[0])]))
    intents = [_intent(i, ctx) for i in (enemy.intents[0] if enemy.intents else ())]
    escalations = []
    for esc in enemy.escalations:
        if check_count(esc.every, ctx, f"エスカレーションの間隔（{W.scope.turn}）"):
            escalations.append(Escalation(esc.every.value, _intent(esc.intent, ctx)))
    traits = [_trait(t, ctx) for t in enemy.traits]
    target = check_target(fields.get("target"), "enemy", ctx)
    trait_ctx = ctx.at("trait", side="enemy")
    trait_effects = [check_sayou(s, trait_ctx) for s in enemy.trait_sayou]
    if any(t is not None and t.trait == "immobile" for t in traits):
        for written, effect in zip(enemy.trait_sayou, trait_effects):
            if effect is not None and effect.target.code == "seat":
                # 不動 wins (its 座 never moves): the 作用 was written for nothing
                ctx.add(W004.at(written.span, f"{W.trait.immobile}の敵の{W.variable.seat}は動かないので、"
                                f"この作用は何もしません（予告も{W.variable.seat}が動かないと告げます）",
                                hint=f"{W.trait.immobile}か、{W.variable.seat}を動かす作用のどちらかを消してください"))
    if any(d.is_error for d in ctx.diags[before:]):
        return None
    if len(numbers) < 3 or None in intents or any(e.intent is None for e in escalations):
        return None  # damaged: a field recovery blanked is missing, and an error says so
    return Enemy(id=enemy.id.text, name=enemy.title or enemy.id.text, **numbers,
                 intents=tuple(intents), escalations=tuple(escalations), traits=tuple(traits),
                 trait_effects=tuple(trait_effects),
                 flavor=fields["flavor"].value if "flavor" in fields else "", source=source,
                 target=target)


#: The largest 攻撃 an Intent may write (as large as an enemy's HP may be).
ATTACK_BOUND = 1_000_000


def _as_written(expr, value, low: int | None = None, high: int | None = None) -> str:
    """A number as the designer wrote it, where a message quotes it: ``2e1``, not the 20.0
    it is read as — and, for a whole number written so, that it is a decimal (a number
    with a decimal point or an exponent is read as one, never as an integer), with the
    integer to write when it is within ``low``〜``high`` (1e3 for a 銘 is no 1000)."""
    text = getattr(expr, "text", None)
    shown = text if isinstance(text, str) else str(value)
    inside = (low is None or value >= low) and (high is None or value <= high)
    if isinstance(value, float) and value.is_integer() and abs(value) < 10 ** 15 and inside:
        if "e" in shown.lower():  # 1e3: whole, but an exponent reads as a decimal
            return f"{shown} は指数で書いた数で、小数として読みます。整数は {int(value)} と書きます"
        return f"{shown} は小数です。整数は {int(value)} と書きます"
    return shown


def _intent(intent: ast.Intent, ctx: Ctx) -> Intent | None:
    kind = resolve("intent", intent.kind, ctx.diags)
    if kind is None:
        return None
    if kind.code == "attack":
        if intent.amount is None:
            ctx.add(E054.at(intent.span, f"{W.intent.attack}の Intent には打点（数）を書きます",
                            hint=f"例: {W.intent.attack} 16"))
            return None
        value = intent.amount.value
        if not isinstance(value, int) or not 0 <= value <= ATTACK_BOUND:
            ctx.add(E030.at(intent.span, f"{W.intent.attack}の打点は 0〜{ATTACK_BOUND} の整数です"
                                         f"（{intent.amount.text}）",
                            hint=f"打点は小数点のない 0 以上の数で書きます（例: {W.intent.attack} 12）"))
            return None
        return Intent("attack", value, None)
    if intent.region is None:
        ctx.add(E054.at(intent.span, f"{W.intent.blank}の Intent には領域を書きます", hint=f"例: {W.intent.blank} {W.region.hand}"))
        return None
    parts = []
    for part in intent.region.parts:
        entry = resolve("region", part, ctx.diags)
        if entry is None:
            return None
        parts.extend(entry.parts)
    region = vocab.region_from_parts(parts)
    if region is None or region.code == "exile":
        ctx.add(E054.at(intent.region.span, f"{W.intent.blank}できる領域は {W.region.hand}・{W.region.draw}・{W.region.discard}・合算 です"))
        return None
    return Intent("blank", None, region.code)


def _trait(trait: ast.Trait, ctx: Ctx) -> Trait | None:
    variable = vocab.lookup("variable", trait.name.text)
    if variable is not None and variable.enemy_ops and vocab.lookup("trait", trait.name.text) is None:
        # 座 - 2: a 作用 whose operator lost its = reads as a trait named 座 with -2
        sign = "-=" if isinstance(trait.arg, ast.Neg) else "+="
        example = (f"（例: {trait.name.text} {sign} 2 毎 {W.timing.turn_start} "
                   f"{vocab.KEYWORDS['telegraphed'][0]}）" if variable.code == "seat" else "")
        ctx.add(E010.at(trait.name.span, f"「{trait.name.text}」という特性はありません",
                        hint=f"作用なら、{OPERATORS_TAKE_EQUALS}{example}"))
        return None
    entry = resolve("trait", trait.name, ctx.diags)
    if entry is None:
        return None
    arg = trait.arg
    if entry.arg == "none":
        if arg is not None:
            ctx.add(E052.at(trait.span, f"特性「{entry.ja}」は値を取りません"))
            return None
        return Trait(entry.code, None, None, None)
    if entry.arg == "int":
        value = None if arg is None or isinstance(arg, ast.Range) else constant(arg, ctx, entry.ja)
        if value is None or not isinstance(value, int) or value < 1:
            ctx.add(E052.at(trait.span, f"特性「{entry.ja}」には 1 以上の整数を書きます",
                            hint=f"例: {entry.ja} 3"))
            return None
        return Trait(entry.code, value, None, None)
    if not isinstance(arg, ast.Range):
        ctx.add(E052.at(trait.span, f"特性「{entry.ja}」には{W.variable.age}の範囲を書きます",
                        hint=f"例: {entry.ja} 30..40"))
        return None
    low, high = constant(arg.low, ctx, "範囲"), constant(arg.high, ctx, "範囲")
    if low is None or high is None:
        return None
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high):
        ctx.add(E030.at(arg.span, f"{W.trait.blockade}の範囲は小さい方から書いた 0 以上の整数です",
                        **range_hint(low, high, isinstance(low, int) and isinstance(high, int)
                                     and high >= 0,
                                     f"0 以上の整数で、小さい方から書きます（例: {W.trait.blockade} 28..32）")))
        return None
    return Trait(entry.code, None, low, high)


# ------------------------------------------------------------------- balance


#: Pairs of balance keys whose first may not exceed its second, with what the pair bounds
#: (the run would begin outside it: the rules raise 寿命上限 to 刻, or HP stands above max).
BALANCE_AT_MOST = (("start_hp", "max_hp", W.variable.hp),
                   ("start_age", "lifespan_cap", W.variable.age))


def check_balance(balance: ast.Balance, ctx: Ctx, damaged: bool = False) -> Balance | None:
    """The checked balance: every key of the vocabulary (defaults filled) and the reward.
    ``damaged``: recovery blanked a line of it — what it still holds is checked (a range,
    a key written twice), what it may seem to lack is not said, and none is returned."""
    before = len(ctx.diags)
    seen: dict[str, ast.Setting] = {}
    values = {}
    misspelt = set()  # keys a name written wrong was taken for (its E010's fix)
    for setting in balance.settings:
        written = len(ctx.diags)
        key = resolve("balance", setting.name, ctx.diags)
        if key is None:
            for diag in ctx.diags[written:]:
                for meant in diag.replacements:
                    entry = vocab.lookup("balance", meant)
                    if entry is not None:
                        misspelt.add(entry.code)
            continue
        if key.code in seen:
            ctx.add(E013.at(setting.span, f"{key.ja}を2回書いています",
                            notes=[Note("最初の記述", seen[key.code].span)]))
            continue
        seen[key.code] = setting
        check = _page_setting if key.type == "page" else _setting_value
        value = check(key, setting, ctx)
        if value is not None:
            values[key.code] = value
    for key in vocab.BALANCE_KEYS:
        if key.default is not None and key.code not in seen:
            values[key.code] = float(key.default) if key.type == "float" else key.default
    for low, high, bounded in BALANCE_AT_MOST:
        if low in seen and high in values and values.get(low, 0) > values[high]:
            words = {k.code: k.ja for k in vocab.BALANCE_KEYS}
            ctx.add(E030.at(seen[low].value.span,
                            f"{words[low]}は{words[high]}（{values[high]}）以下です"
                            f"（{values[low]}）",
                            hint=f"{bounded}は{words[high]}を超えられません"
                                 f"（{words[low]}を下げるか、{words[high]}を上げます）"))
    # a key written wrong (最大ＨＰ) has its E010 with the fix: not missing too
    missing = [k.ja for k in vocab.BALANCE_KEYS
               if k.code not in seen and k.code not in misspelt and k.required]
    if missing and not damaged:  # else the blanked line may hold it: its error says so
        ctx.add(E014.at(_head(balance.span), f"バランスに足りない項目があります: {'、'.join(missing)}",
                        hint="ルールが読む数はすべてバランスに書きます（jibunki vocab バランス）"))
    reward_ctx = ctx.at("reward", side="page")
    if len(balance.rewards) > 1:
        ctx.add(E013.at(balance.rewards[1].span, f"{W.variable.fray}報酬を2回書いています"))
    rewards = [_body(body, reward_ctx) for body in balance.rewards[:1]]
    if not balance.rewards and not damaged:
        ctx.add(E014.at(_head(balance.span), f"{W.variable.fray}報酬がありません",
                        hint=f"例: {W.variable.fray}報酬 {{ 上限 {W.variable.steps_quota} += 5 寿命 {W.scope.run} }}"))
    if damaged or any(d.is_error for d in ctx.diags[before:]):
        return None
    return Balance(**values, reward=rewards[0].effects)


def _setting_value(key: vocab.BalanceKey, setting: ast.Setting, ctx: Ctx):
    """The checked value of one balance setting, or None after its diagnostic."""
    value = constant(setting.value, ctx, key.ja)
    if value is None:
        return None
    if key.type == "int" and not isinstance(value, int):
        ctx.add(E030.at(setting.value.span,
                        f"{key.ja}は整数です（{_as_written(setting.value, value, key.low, key.high)}）"))
        return None
    if not key.low <= value <= key.high or not math.isfinite(value):
        ctx.add(E030.at(setting.value.span, f"{key.ja}は {key.low}〜{key.high} です（{value}）",
                        hint=key.note))
        return None
    return float(value) if key.type == "float" else value


def _page_setting(key: vocab.BalanceKey, setting: ast.Setting, ctx: Ctx) -> str | None:
    """The page a page key (基準ページ) names — a page of the starting deck — or None after
    its diagnostic: E011 (not a page id, or no page has it), E073 (not in the starting deck)."""
    value, starter = setting.value, _starter_pages(ctx)
    if not (isinstance(value, ast.Ref) and value.subscript is None and not value.is_flag):
        ctx.add(E011.at(value.span, f"{key.ja}にはページの id を1つ書きます",
                        hint=f"はじめのデッキのページ: {'、'.join(starter)}" if starter else None))
        return None
    page = check_page_ref(value.name, ctx)
    if page is None:
        return None
    if starter is not None and page not in starter:
        ctx.add(E073.at(value.name.span, page=page, deck=STARTING_DECK, pages="、".join(starter)))
        return None
    return page


def _starter_pages(ctx: Ctx) -> list[str] | None:
    """The page ids the starting deck writes, each once, in order; None without the deck
    (check_project reports that it is missing)."""
    deck = getattr(ctx.symbols, "decks", {}).get(STARTING_DECK)
    if deck is None:
        return None
    return list(dict.fromkeys(entry.page.text for entry in deck.entries))


def _head(span):
    return type(span)(span.path, span.line, span.col, span.line, span.col + 1)


# ---------------------------------------------------------------------- decks


def check_deck(deck: ast.Deck, ctx: Ctx, damaged: bool = False) -> Deck | None:
    """The checked deck: one page id per copy, each within its deck cap. ``damaged``: a
    syntax error's recovery blanked part of it (its list may only look empty)."""
    before = len(ctx.diags)
    counts: dict[str, int] = {}
    caps: dict[str, tuple[int, bool]] = {}
    written = []  # (page, count) of each valid entry
    for entry in deck.entries:
        page = check_page_ref(entry.page, ctx)
        n = 1
        if entry.count is not None:  # bounded before it multiplies anything
            n = entry.count.value if check_count(entry.count, ctx, "枚数", "deck_count") else 0
        if page is None or not n:
            continue
        written.append((page, n))
        counts[page] = counts.get(page, 0) + n
        if page not in caps:
            caps[page] = _cap_of(ctx.symbols.pages[page], ctx)
        cap, own = caps[page]
        if counts[page] > cap:
            ctx.add(E055.at(entry.span, page=page, cap=cap,
                            hint=_OVER_CAP_HINTS[own].format(
                                count=counts[page], over=counts[page] - cap, cap=cap,
                                word=_CAP_WORD, default=W.balance.deck_cap_default)))
    if not deck.entries and not damaged:  # else the syntax error above is the mistake
        ctx.add(E014.at(deck.id.span, "デッキにページが1枚もありません",
                        hint=f"{{ }} の中にページの id を1つずつ書きます（例: デッキ {deck.id.text} "
                             "{ tabidachi × 2; kekkon }）"))
    if damaged or any(d.is_error for d in ctx.diags[before:]):
        return None  # a deck part of which is lost is no deck to play
    return Deck(deck.id.text, deck.title or deck.id.text,
                tuple(p for p, n in written for p in [p] * n))


def _quiet(ctx: Ctx) -> Ctx:
    """The same symbols, its diagnostics dropped: for reading a fact of another item,
    whose own check reports what is wrong with it."""
    return replace(ctx, diags=[])


#: The page field that raises its deck cap (上限枚数).
_CAP_WORD = vocab.KEYWORDS["deck_cap"][0]
#: E055's hint, by whether the page writes its own cap: the entries' total so far, and the
#: two ways out — fewer copies, or a higher cap on the page.
_OVER_CAP_HINTS = {
    True: "合計 {count} 枚です。{over} 枚減らすか、このページの {word} を {count} 以上にしてください",
    False: "合計 {count} 枚です。{over} 枚減らすか、ページに「{word} {count}」を書いてください"
           "（書かなければ{default}の {cap} 枚）",
}


def _cap_of(page: ast.Page, ctx: Ctx) -> tuple[int, bool]:
    """How many copies of ``page`` a deck may hold: its own 上限枚数, else the default
    (``default_deck_cap``), each read as their own checks read them; and whether the page
    writes one (a wrong one too: its fix is on the page)."""
    fields: dict[str, ast.Field] = {}
    for f in page.fields:  # the first of a field written twice, as _fields reads it
        fields.setdefault(f.key, f)
    own = _deck_cap(fields, _quiet(ctx))
    return (default_deck_cap(ctx) if own is None else own), "deck_cap" in fields


def _check_on_line(seat, field: ast.Field | None, ctx: Ctx) -> None:
    """An enemy's 座 lies on the number line: at most the balance's 寿命上限 (spec 000 盤面:
    the enemy stands on the line, whose ends are walls; runtime/seat.py stops a move
    there). A 座 beyond it is E030 at the value."""
    cap = balance_setting(ctx, _LIFESPAN_KEY)
    if field is None or type(seat) is not int or type(cap) is not int or seat <= cap:
        return
    seat_word, cap_word = W.variable.seat, W.variable.lifespan_cap
    ctx.add(E030.at(field.value.span, f"{seat_word} {seat} は{cap_word} {cap} の先です",
                    hint=f"敵は数直線（0〜{cap_word}）の上に立ちます。{seat_word}を {cap} 以下に"
                         f"するか、バランスの{cap_word}を上げてください"))


def default_deck_cap(ctx: Ctx) -> int:
    """The deck cap of a page that writes no 上限枚数: the balance's デッキ内上限枚数, else —
    no balance in scope, or its value wrong — the bound of that setting (so a deck is
    never unbounded)."""
    value = balance_setting(ctx, _DECK_CAP_KEY)
    return DECK_CAP_BOUND if value is None else value


def balance_setting(ctx: Ctx, key):
    """The value the balance in scope writes for ``key`` (a BalanceKey), read as the
    balance's own check reads it — or None: no balance, the key not written, or its value
    wrong (the balance's check says so)."""
    for balance in ctx.symbols.balances[:1]:
        for setting in balance.settings:
            if vocab.lookup("balance", setting.name.text) is key:
                return _setting_value(key, setting, _quiet(ctx))
    return None
