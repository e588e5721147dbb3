"""作用の検査 — the effect-system rules of spec 002 for one 作用, and its six terms.

``check_sayou`` returns the 作用 as the tables carry it — a ``contract.tables.Sayou``
with all six terms explicit — or None after reporting why it is invalid. Each syntactic
form has its check (_FORMS), which decides the operation and what it acts on and hands
them to ``_sayou`` for the other terms. Defaults depend on where the 作用 is written
(CONTEXTS): the common case — a face effect with no timing — fires once on play and
leaves.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl import ast

from contract import vocabulary as vocab
from contract.tables import Const, Filter, Names, Repeat, Sayou, Scaled, Target
from .codes import (E010, E011, E013, E020, E023, E024, E026, E027, E030, E034, E035, E037, E038,
                    E040, E042, E046, E047, E050, E051, E062, E063, E064, E065, E067, W004, W005,
                    W017, W018)
from .names import guess, resolve, unknown
from .values import Ctx, check_base, check_count, check_page_ref, constant, number_of, range_hint
from contract.vocabulary import W


@dataclass(frozen=True)
class Context:
    """Defaults of a block: the timing of a one-shot 作用, and the repeat range a
    continuing 作用 gets when it does not say (None: the designer must say)."""

    timing: str | None
    continuing_range: str | None
    words: str


CONTEXTS = {
    "face": Context("on_play", None, "面"),
    "pen": Context("on_play", None, "ペン強化"),
    "tear": Context("on_tear", "run", "破却効果"),
    "reward": Context("on_reward", "run", f"{W.variable.fray}報酬"),
    "trait": Context(None, "stage", "敵の特性"),
}

#: The repeat range of a 作用 that fires once and leaves.
ONE_SHOT = Repeat("play", None, None, 1)

#: operator symbol → (operation code, direction)
_NUMERIC_OPS = {"+=": ("add", "increase"), "-=": ("add", "decrease"),
                "*=": ("mul", None), "=": ("assign", None)}

#: The Intent that blanks a face: the one way (with the pen) a face's state changes.
_BLANK_INTENT = f"予兆 [ {W.intent.blank} {W.region.hand} ]"

#: Why a variable that is nobody's target cannot be one (spec 000/002, DESIGN §6).
_NOT_TARGET_HINTS = {
    "fray": f"{W.variable.fray}が上がるのはペンと破るだけで、減ることもありません",
    "age": f"{W.variable.age}は{W.scope.play}でのみ動きます。制御できるのは「{W.operation.suppress} {W.variable.age}」だけです",
    "seat": f"{W.variable.seat}を動かせるのは敵の特性だけです",
    "face_state": f"面の{W.variable.face_state}を書き換えるのは敵の{W.intent.blank}だけです（{_BLANK_INTENT}）",
}

#: Why an operation that exists is refused on one target (DESIGN §6.1), by (target, op).
_REFUSED_OP_HINTS = {
    ("hp", "mul"): f"HP が変わるのは{W.intent.attack}・{W.operation.pay}・まれな回復だけです。掛け算で増減させることは"
                   "できません（回復なら HP += n、代償なら 支払う HP n）",
}


@dataclass(frozen=True)
class OneWay:
    """A current value that no 作用 may lower (DESIGN §6.2): the code that refuses it, what
    lowers it instead, and the hint by the side that wrote the 作用 (page, enemy)."""

    code: object
    falls_by: str
    hints: dict


#: The payment as content writes it (支払う HP n).
_PAY = vocab.KEYWORDS["pay"][0]
#: The values that fall only by the rules, never by a 作用 that lowers them
#: (vocab.FALLS_BY_RULES_ONLY, with what to say of each).
_ONE_WAY = {
    "hp": OneWay(E062, f"{W.intent.attack}（Intent）と「{_PAY} HP n」", {
        "page": f"代償として HP を払うなら {_PAY} HP 5 と書きます（払えるときだけ{W.scope.play}でき、"
                f"{W.operation.pay}で負けることはありません）",
        "enemy": f"敵が HP を削るのは Intent です: 予兆 [ {W.intent.attack} 16 ]",
    }),
    "defense": OneWay(E063, "被弾（Intent を受ける）と値の寿命", {
        "page": f"{W.variable.defense}はそれぞれの寿命（{W.lifetime.on_hit}・{W.lifetime.turn}・{W.lifetime.stage}・{W.lifetime.run}）"
                f"で消えます。増やすなら {W.variable.defense} += n、倍にするなら {W.variable.defense} *= 1.5 のように 1 以上を掛けます",
        "enemy": f"敵が{W.variable.defense}を削るのは Intent の{W.intent.attack}です: 予兆 [ {W.intent.attack} 16 ]",
    }),
}


def _lowers(op: str, direction: str | None, base) -> str:
    """How this numeric 作用 would lower its target, or "" when it never does: ``base``
    None is not checked yet (only the written direction is known)."""
    if op == "add" and direction == "decrease":
        return "-="
    if base is None:
        return ""
    if op == "add" and number_of(base) < 0:
        return "+= に負の値"
    if op == "mul" and isinstance(base, Scaled):
        return "*= に参照（0 になりうる）"
    if op == "mul" and base.value < 1:
        return "*= に 1 未満の値"
    return ""


def _refuse_fall(variable, op: str, direction, base, span, ctx: Ctx) -> bool:
    """Report a 作用 that lowers a one-way value (_ONE_WAY); True when it did."""
    rule = _ONE_WAY.get(variable.code)
    how = "" if rule is None else _lowers(op, direction, base)
    if not how:
        return False
    ctx.add(rule.code.at(span, f"「{variable.ja}」を減らす作用は書けません（{how}）。"
                               f"減らすのは{rule.falls_by}だけです",
                         hint=rule.hints["enemy" if ctx.side == "enemy" else "page"]))
    return True


def check_sayou(s: ast.Sayou, ctx: Ctx) -> Sayou | None:
    """The checked 作用 with all six terms explicit, or None after diagnostics."""
    tails = _tails(s, ctx)
    if tails is None:
        return None
    return _FORMS[s.form](s, tails, ctx)


def _tails(s: ast.Sayou, ctx: Ctx) -> dict | None:
    seen: dict[str, ast.Tail] = {}
    ok = True
    for tail in s.tails:
        if tail.kind in seen:
            ctx.add(E013.at(tail.span, "同じ項を2回書いています",
                            hint="寿命・毎・範囲・最大・着地は1つの作用に1回ずつです"))
            ok = False
        seen[tail.kind] = tail
    return seen if ok else None


# ------------------------------------------------------------------- targets


#: The kinds of variable an unknown target's hint lists, in this order: the values a
#: designer moves most, then the modifiers, 銘[ページ], the permanent parameters.
TARGET_ORDER = ("current", "modifier", "page_attr", "param")


def _target(target: ast.Target, ctx: Ctx):
    """The variable a 作用 targets (with the page for 銘[page]), or None."""
    if target.is_flag:
        return vocab.FLAG, Target("flag", flag=target.name.text[1:])
    text = target.name.text
    counter = vocab.lookup("counter", text)
    if counter is not None:
        ctx.add(E020.at(target.span, counter=counter.ja))
        return None
    variable = vocab.lookup("variable", text)
    if variable is None:
        table = vocab.tables()["variable"]
        # Listed: only what a 作用 of this side can move (綻び is read, not moved), the
        # current values first.
        movable = [entry.ja for kind in TARGET_ORDER for entry in table.entries
                   if entry.kind == kind and _allowed_ops(entry, ctx)]
        ctx.diags.append(unknown(target.name, "変数", table.spellings(), listing=movable))
        return None
    if variable.kind == "page_attr":
        if target.subscript is None or target.subscript.anchor is not None:
            named = next(iter(getattr(ctx.symbols, "pages", {})), "tabidachi")
            ctx.add(E040.at(target.span, f"どのページの{variable.ja}かを添字で書きます",
                            hint=f"添字はページの id です。例: {variable.ja}[{named}] = 30"))
            return None
        page = check_page_ref(target.subscript.name, ctx)
        return None if page is None else (variable, Target(variable.code, page=page))
    if target.subscript is not None:
        ctx.add(E040.at(target.subscript.span, f"「{variable.ja}」には添字を付けられません",
                        hint=f"添字が付くのは累計量の参照と {W.variable.year}[ページ] だけです"))
        return None
    return variable, Target(variable.code)


def _allowed_ops(variable, ctx: Ctx) -> tuple[str, ...]:
    return variable.enemy_ops if ctx.side == "enemy" else variable.page_ops


def _refuse_op(variable, op: str, span, ctx: Ctx) -> None:
    """Say precisely why ``op`` cannot apply to ``variable`` here."""
    allowed = _allowed_ops(variable, ctx)
    if op == "assign" and variable.kind == "face_state":
        # Checked before "not a target": assigning face state is the assignment spec 002
        # forbids by name (ADR-0033), and DESIGN §6.1 forbids it to enemy traits too — a
        # trait that did it would compile to nothing the runtime does. Say what to write.
        if ctx.side == "enemy":
            ctx.add(E024.at(span, f"敵の特性は「{variable.ja}」に{W.operation.assign}できません",
                            hint=f"面を白紙にするのは{W.intent.blank}の Intent です: {_BLANK_INTENT}"
                                 f"（面の{W.variable.face_state}は{W.intent.blank}とペンでだけ変わります）"))
        else:
            ctx.add(E024.at(span, f"ページの作用は「{variable.ja}」に{W.operation.assign}できません",
                            hint=f"面の{W.variable.face_state}への{W.operation.assign}は敵の白紙化専用です。ページ効果から面を書き換える"
                                 f"手段はありません（spec 002。敵なら {_BLANK_INTENT}）"))
    elif (variable.code, op) in _REFUSED_OP_HINTS and allowed and op not in allowed:
        words = {"mul": "*="}
        ctx.add(E050.at(span, f"「{variable.ja}」に {words.get(op, op)} は使えません",
                        hint=_REFUSED_OP_HINTS[variable.code, op]))
    elif variable.kind == "derived" or (not variable.page_ops and not variable.enemy_ops):
        ctx.add(E034.at(span, f"「{variable.ja}」は作用の対象になりません",
                        hint=_NOT_TARGET_HINTS.get(variable.code, "読むことはできますが、動かせません")))
    elif not allowed:
        side = "ページ" if ctx.side != "enemy" else "敵"
        ctx.add(E034.at(span, f"「{variable.ja}」は{side}の作用の対象になりません",
                        hint=_NOT_TARGET_HINTS.get(variable.code, "")))
    elif variable.kind == "param" and op != "cap":
        ctx.add(E035.at(span, f"恒久パラメータ「{variable.ja}」は{W.operation.cap}でのみ動かします",
                        hint=f"例: 上限 {variable.ja} += 1 寿命 {W.scope.stage}"))
    elif op == "assign":
        ctx.add(E024.at(span, f"「{variable.ja}」には{W.operation.assign}できません",
                        hint=f"{W.operation.assign}できるのは他ページの{W.variable.year}と内部フラグだけです"))
    elif op == "cap":
        ctx.add(E035.at(span, f"{W.operation.cap}は恒久パラメータにだけ使えます（「{variable.ja}」は"
                              f"{vocab.VARIABLE_KINDS[variable.kind]}）",
                        hint=f"{variable.ja} += n のように書いてください"))
    else:
        words = {"add": "+= / -=", "mul": "*=", "assign": "=", "cap": "上限",
                 "pay": "支払う", "suppress": W.operation.suppress}
        usable = "、".join(words.get(o, o) for o in allowed)
        ctx.add(E050.at(span, f"「{variable.ja}」に {words.get(op, op)} は使えません",
                        hint=f"「{variable.ja}」に使える演算: {usable}"))


# --------------------------------------------------------------------- forms


def _numeric(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
    found = _target(s.target, ctx)
    if found is None:
        return None
    variable, target = found
    op, direction = _NUMERIC_OPS[s.op]
    if op == "mul" and _landing(op, tails, ctx) is False:
        return None  # E023 first: a modified multiply exists for no target at all
    # Before the operations of the side: `HP -= n` in an enemy trait is told what lowers HP
    # (an Intent), not only that HP is no target of a trait.
    if _refuse_fall(variable, op, direction, None, s.span, ctx):
        return None
    if op not in _allowed_ops(variable, ctx):
        if op == "assign" and isinstance(s.value, ast.Neg) and \
                "add" in _allowed_ops(variable, ctx) and variable.code not in _ONE_WAY:
            # 防御 =- 4: the symbols of -= typed the wrong way round read as = -4
            amount = s.value.operand.text if isinstance(s.value.operand, ast.Number) else "n"
            ctx.add(E024.at(s.span, f"「{variable.ja}」には{W.operation.assign}できません",
                            hint=f"減らすのなら「{variable.ja} -= {amount}」と書きます"
                                 f"（「= -{amount}」は -{amount} にする{W.operation.assign}です）"))
            return None
        _refuse_op(variable, op, s.span, ctx)
        return None
    landing = _landing(op, tails, ctx)
    if landing is False:
        return None
    base = check_base(s.value, ctx)
    if base is None or _refuse_fall(variable, op, direction, base, s.span, ctx):
        return None
    if ctx.where == "reward" and variable.code == "hp":
        # Heals come from map rewards and rare page effects (spec 000), not from 綻び.
        ctx.add(E065.at(s.span))
        return None
    if _signed_constant(op, direction, variable, base, s, ctx):
        return None
    if op == "assign" and variable.kind == "page_attr":
        if ctx.owner is not None and target.page == ctx.owner:
            # 銘 decides which face fires; a page rewriting its own would move the ground
            # under the play that is firing (DESIGN §6.1: only another page's 銘).
            ctx.add(E024.at(s.target.span, f"このページ自身の{variable.ja}には{W.operation.assign}できません",
                            hint=f"{W.operation.assign}できるのは他のページの{variable.ja}だけです"
                                 f"（{variable.ja}[別のページ] = {W.variable.age} のように書きます）"))
            return None
        # The base is a constant 銘 or a reference read when the 作用 fires (銘[p] = 刻).
        if isinstance(base, Const) and not _in_year_range(base.value):
            ctx.add(E030.at(s.value.span, f"{W.variable.year}は 0〜{vocab.YEAR_BOUND} の整数です",
                            hint=f"0 から {vocab.YEAR_BOUND} までの整数を書きます"
                                 f"（{W.variable.lifespan_cap}を超える{W.variable.year}のページは{W.scope.play}できません）"))
            return None
    return _sayou(s, tails, ctx, variable, op=op, target=target, direction=direction,
                  landing=landing, base=base)


def _signed_constant(op: str, direction, variable, base, s: ast.Sayou, ctx: Ctx) -> bool:
    """A constant below 0 where the operator says the direction (E030; True when said):
    ``歩 += -5`` did nothing under 補正あり (a modified gain is never negative, DESIGN
    §6.1) and took 5 under 固定, and ``敵HP += -5`` was damage past 軽減 and every
    modifier; ``敵HP *= -1`` won the stage; ``座 =- 4`` put the enemy at 0. The sign is
    the operator's: ``-=``, or a factor of 0 or more, or a place of 0 or more. (A reference may still read a signed value as the game goes:
    spec 002 allows signs in references.)"""
    if not isinstance(base, Const) or base.value >= 0:
        return False
    shown = f"{base.value:g}"
    if op == "assign" and variable.kind == "current" and variable.cond_kind == "position":
        # 座 =- 4: a place on the line of ages is 0 or more; -4 was read as 座 → 0
        ctx.add(E030.at(s.value.span, f"「{variable.ja}」は 0 以上の位置です（{shown}）",
                        hint=f"動かすなら「{variable.ja} -= {-base.value:g}」と書きます"
                             f"（「= {shown}」はその位置に置く{W.operation.assign}です）"))
        return True
    if op not in ("add", "mul"):
        return False
    if op == "add":
        meant = ("増やすなら", "+=") if direction == "decrease" else ("減らすなら", "-=")
        ctx.add(E030.at(s.value.span, f"足す数・引く数は 0 以上で書きます（{shown}）",
                        hint=f"向きは演算子で書きます: {meant[0]} {variable.ja} {meant[1]} {-base.value:g}"))
    else:
        ctx.add(E030.at(s.value.span, f"掛ける数は 0 以上で書きます（{shown}）",
                        hint=f"{variable.ja} *= 0.5 は半分に、*= 0 は 0 にします。符号を変える作用はありません"))
    return True


def _cap(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
    found = _target(s.target, ctx)
    if found is None:
        return None
    variable, target = found
    if "cap" not in _allowed_ops(variable, ctx):
        _refuse_op(variable, "cap", s.span, ctx)
        return None
    if s.op not in ("+=", "-="):
        ctx.add(E050.at(s.span, f"{W.operation.cap}は += か -= で書きます",
                        hint=f"例: {vocab.KEYWORDS['cap'][0]} {variable.ja} += 1 寿命 {W.scope.run}"))
        return None
    if "landing" in tails:
        ctx.add(E051.at(tails["landing"].span,
                        f"{W.operation.cap}は補正を受けないので、着地（{W.landing.fixed}・{W.landing.modified}）は書けません"))
        return None
    base = check_base(s.value, ctx)
    if base is None:
        return None
    if variable.param_kind == "integer" and not _whole(number_of(base)):
        # An integer parameter counts pages, draws, years …: a fraction of one would be
        # truncated away where it lands (DESIGN §6.2). A coefficient keeps it.
        kind = vocab.PARAMETER_KINDS["integer"]
        ctx.add(E067.at(s.value.span, f"「{variable.ja}」は{kind}の恒久パラメータなので、"
                                      f"{W.operation.cap}は整数で書きます（{number_of(base):g}）",
                        hint=f"例: {vocab.KEYWORDS['cap'][0]} {variable.ja} += 1 寿命 {W.scope.run}。"
                             f"小数が使えるのは係数（{W.variable.defense_coef} など）だけです"))
        return None
    return _sayou(s, tails, ctx, variable, op="cap", target=target,
                  direction=_NUMERIC_OPS[s.op][1], base=base)


def _whole(number) -> bool:
    return isinstance(number, int) or float(number).is_integer()


def _pay(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
    found = _target(s.target, ctx)
    if found is None:
        return None
    variable, target = found
    if "pay" not in _allowed_ops(variable, ctx):
        _refuse_op(variable, "pay", s.span, ctx)
        return None
    landing = tails.get("landing")
    if landing is not None and landing.value.text != "fixed":
        ctx.add(E051.at(landing.span, f"{W.operation.pay}は補正を受けません（着地は{W.landing.fixed}だけ）"))
        return None
    base = check_base(s.value, ctx)
    if base is None:
        return None
    if number_of(base) < 0:
        ctx.add(E030.at(s.value.span, "支払う量は 0 以上です",
                        hint=f"{variable.ja}を増やすなら {variable.ja} += n と書きます"))
        return None
    return _sayou(s, tails, ctx, variable, op="pay", target=target, direction="decrease",
                  landing="fixed", base=base)


def _suppress(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
    found = _target(s.target, ctx)
    if found is None:
        return None
    variable, target = found
    if "suppress" not in _allowed_ops(variable, ctx):
        ctx.add(E050.at(s.span, f"{W.operation.suppress}できるのは{W.variable.age}の更新だけです（「{variable.ja}」は{W.operation.suppress}できません）",
                        hint=f"{W.operation.suppress} {W.variable.age}"))
        return None
    if not _no_landing(tails, W.operation.suppress, ctx):
        return None
    return _sayou(s, tails, ctx, variable, op="suppress", target=target)


def _no_landing(tails, what: str, ctx: Ctx) -> bool:
    """Operations outside the numeric family have no landing (spec 002 演算: 補正を受けない)."""
    if "landing" in tails:
        ctx.add(E051.at(tails["landing"].span,
                        f"{what}は補正を受けないので、着地（{W.landing.fixed}・{W.landing.modified}）は書けません"))
        return False
    return True


def _landing(op: str, tails, ctx: Ctx):
    """The landing of a numeric op: default first, 補正あり乗算 refused (E023)."""
    landings = vocab.tables()["operation"].by_code(op).landings
    tail = tails.get("landing")
    if tail is None:
        return landings[0] if landings else None
    chosen = tail.value.text
    if op == "mul" and chosen == "modified":
        ctx.add(E023.at(tail.span))
        return False
    if chosen not in landings:
        ctx.add(E051.at(tail.span, f"{W.operation.assign}には着地（{W.landing.fixed}・{W.landing.modified}）を書けません"))
        return False
    return chosen


def _region(expr: ast.RegionExpr | None, ctx: Ctx, *, single: bool, what: str):
    if expr is None:
        return None
    parts = []
    for part in expr.parts:
        entry = resolve("region", part, ctx.diags)
        if entry is None:
            return None
        parts.extend(entry.parts)
    region = vocab.region_from_parts(parts)
    if region is None:
        ctx.add(E010.at(expr.span, f"「{expr.text}」という合算はありません",
                        hint=f"合算は {W.region.deck} と {W.region.all} です"))
        return None
    if single and len(region.parts) > 1:
        ctx.add(E037.at(expr.span, f"{what}には合算ではなく1つの領域を書きます"))
        return None
    return region


def _options(s: ast.Sayou, ctx: Ctx) -> tuple[str | None, Filter] | None:
    """The pick (None: the default of the source) and the filter of a region operation."""
    picks, filters = [], {}
    for option in s.options:
        if option.kind == "pick":
            entry = resolve("pick", option.value, ctx.diags)
            if entry is None:
                return None
            picks.append(entry.code)
        elif option.kind in filters:
            ctx.add(E013.at(option.span, "同じ絞り込みを2回書いています"))
            return None
        elif option.kind == "origin":
            origins = ctx.symbols.origins
            if option.value.text not in origins:
                # pages the parser could not read may give it: their error says why
                unread = ctx.symbols.unread_origins.get(option.value.text)
                if unread is None or not unread[2]:
                    found = guess(option.value.text, origins)
                    ctx.add(E011.at(option.value.span, f"出自「{option.value.text}」のページはありません",
                                    hint=found.hint or "ページの 出自 に書かれている名前を使ってください",
                                    replacements=found.replacements))
                return None
            filters["origin"] = option.value.text
        elif option.kind == "year":
            low = constant(option.value.low, ctx, f"{W.variable.year}の範囲")
            high = constant(option.value.high, ctx, f"{W.variable.year}の範囲")
            if low is None or high is None:
                return None
            if not (_in_year_range(low) and _in_year_range(high)) or low > high:
                ctx.add(E030.at(option.value.span,
                                f"{W.variable.year}の範囲は 0〜{vocab.YEAR_BOUND} の整数で、小さい方から書きます",
                                **range_hint(low, high, _in_year_range(low) and _in_year_range(high),
                                             f"0 から {vocab.YEAR_BOUND} までの整数を書きます"
                                             f"（例: {W.variable.year} 20..40）")))
                return None
            filters["year"] = (low, high)
        elif option.kind == "page":
            page = check_page_ref(option.value, ctx)
            if page is None:
                return None
            filters["page"] = page
    if len(picks) > 1:
        ctx.add(E013.at(s.span, f"選び方（{W.pick.choice}・{W.pick.random}・{W.pick.top}）は1つだけ書きます"))
        return None
    return (picks[0] if picks else None), Filter(**filters)


def _count(s: ast.Sayou, ctx: Ctx) -> int | None:
    if s.count is None:
        return 1
    return s.count.value if check_count(s.count, ctx, "枚数", "cards") else None


#: Region operations whose source may also be the destination: a copy of a hand page may
#: join the hand (DESIGN §6.1); moving a page to where it already is does nothing.
_SAME_PLACE_OK = {"duplicate"}
#: The target of every region operation: pages, not a variable.
_PAGES = Target(vocab.PAGES.code)


def _region_op(op: str):
    def check(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
        count = _count(s, ctx)
        options = _options(s, ctx)
        if count is None or options is None or not _no_landing(tails, "領域の操作", ctx):
            return None
        source = None
        if op != "generate":
            source = _region(s.source, ctx, single=False, what="移動元")
            if source is None:
                return None
        dest = _region(s.dest, ctx, single=True, what="移動先")
        if dest is None:
            return None
        if op == "duplicate" and source.code != "hand":
            ctx.add(E037.at(s.source.span, f"{W.operation.duplicate}できるのは{W.region.hand}のページです",
                            hint=f"{W.operation.duplicate} {W.region.hand} -> {W.region.draw} のように書きます"))
            return None
        if op in ("generate", "duplicate") and dest.code == "exile":
            ctx.add(E037.at(s.dest.span,
                            f"{W.operation.generate}・{W.operation.duplicate}の差し込み先は{W.region.hand}かデッキ（{W.region.draw}・{W.region.discard}）です"))
            return None
        if source is not None and source.code == dest.code and op not in _SAME_PLACE_OK:
            ctx.add(E037.at(s.span, "移動元と移動先が同じです",
                            hint=f"移動先を移動元と別の領域にします（例: {W.region.hand} -> {W.region.discard}）"))
            return None
        chosen, filter_ = options
        if op == "generate" and _pool_is_empty(filter_, ctx):
            ctx.add(W005.at(s.span))
        pick = chosen or ("top" if source is not None and source.code == "draw" else "random")
        if pick == "top" and (source is None or source.code != "draw"):
            ctx.add(E037.at(s.span, f"「{W.pick.top}」選べるのは{W.region.draw}からだけです"))
            return None
        return _sayou(s, tails, ctx, None, op=op, target=_PAGES,
                      source=source.code if source else None, dest=dest.code, count=count,
                      pick=pick, filter=filter_)
    return check


def _pool_is_empty(filter_: Filter, ctx: Ctx) -> bool:
    """Whether no page of the run's content fits a 生成 filter (DESIGN §6.1: a warning,
    W005): the runtime draws from the pages table, which holds exactly these pages."""
    year = None if filter_.year is None else tuple(filter_.year)
    return not ctx.symbols.facts.fits_any(filter_.origin, year, filter_.page)


def _reveal(s: ast.Sayou, tails, ctx: Ctx) -> Sayou | None:
    """公開 n枚 山札: the top n pages of the draw pile, shown in order and left so, so the
    next draws take them as shown (spec 002: 山札を見せる作用は、見せた順序どおりに引けなければ
    ならない). Only the draw pile has an order to show."""
    count = _count(s, ctx)
    if count is None or not _no_landing(tails, W.operation.reveal, ctx):
        return None
    source = _region(s.source, ctx, single=False, what=f"{W.operation.reveal}する領域")
    if source is None:
        return None
    if source.code != "draw":
        ctx.add(E037.at(s.source.span, f"{W.operation.reveal}できるのは{W.region.draw}だけです（「{s.source.text}」）",
                        hint=f"{W.operation.reveal}は{W.region.draw}の{W.pick.top} n 枚を順に見せます: {W.operation.reveal} 2枚 {W.region.draw}"))
        return None
    return _sayou(s, tails, ctx, None, op="reveal", target=_PAGES, source=source.code,
                  count=count, pick="top", filter=Filter())


_FORMS = {
    "numeric": _numeric,
    "cap": _cap,
    "pay": _pay,
    "suppress": _suppress,
    "move": _region_op("move"),
    "generate": _region_op("generate"),
    "duplicate": _region_op("duplicate"),
    "reveal": _reveal,
}


def _in_year_range(value) -> bool:
    return isinstance(value, int) and 0 <= value <= vocab.YEAR_BOUND


# -------------------------------------------------------------- the six terms


def _sayou(s: ast.Sayou, tails, ctx: Ctx, variable, *, op: str, target: Target,
           direction=None, landing=None, base=None, source=None, dest=None, count=None,
           pick=None, filter=None) -> Sayou | None:
    """The 作用 of ``op`` on ``target`` (as its form checked them), with the value
    lifetime, timing and repeat range it states or its block gives; None after
    diagnostics. ``variable`` is the vocabulary entry of the target (None: pages)."""
    context = CONTEXTS[ctx.where]
    lifetime = _lifetime(op, variable, s, tails, ctx)
    timing = _timing(variable, s, tails, ctx, context)
    if lifetime is False or timing is False:
        return None
    if target.code in _SHORT_LIVED and ctx.where in _NOT_A_PAGE and lifetime not in _SHORT_LIVED[target.code]:
        ctx.add(E064.at(tails["life"].span if "life" in tails else s.span,
                        where=context.words,
                        lifetime=vocab.tables()["lifetime"].by_code(lifetime).ja))
        return None
    repeat = _repeat(op, variable, s, tails, ctx, context, timing)
    if repeat is None:
        return None
    telegraphed = "telegraphed" in tails
    if target.code == "seat":
        # Only enemy traits reach here (座 is no target of a page). The amount is shown in
        # the telegraph at step 1 and the same amount applied at step 8 (DESIGN §6.1), so
        # a seat move is a telegraphed turn-start trait or nothing the runtime can do.
        if timing != "turn_start":
            ctx.add(E046.at(tails["at"].span if "at" in tails else s.span,
                            f"{W.variable.seat}を動かせるのは 毎 {W.timing.turn_start} の特性だけです", hint=f"{W.variable.seat}を動かす作用は{W.timing.turn_start}に予告し、敵の行動の後で動かします: "
                                                              f"{W.variable.seat} += 4 毎 {W.timing.turn_start} 予告"))
            return None
        if not telegraphed:
            ctx.add(E046.at(s.span, f"{W.variable.seat}を動かす作用には 予告 が要ります",
                            hint=f"{W.variable.seat}を動かす作用は必ず予兆と一緒に見せます: {W.variable.seat} += 4 毎 {W.timing.turn_start} 予告"))
            return None
    elif telegraphed:
        ctx.add(E042.at(tails["telegraphed"].span))
        return None
    if ctx.where == "tear" and "until" in tails and repeat.scope != "run":
        # 破却効果 are run-long by definition (DESIGN §6.1); a shorter range would be
        # a second, hidden meaning of tearing.
        ctx.add(E047.at(tails["until"].span))
        return None
    if timing is not None:
        reason = _never_fires(ctx.where, timing, repeat)
        if reason:
            ctx.add(W004.at(tails["at"].span if "at" in tails else s.span, hint=reason))
        elif target.code == "defense" and lifetime == "turn" and timing in _AFTER_THE_HITS:
            ctx.add(W017.at(tails["at"].span if "at" in tails else s.span))
    elif _dies_with_its_play(ctx.where, variable, repeat, tails):
        ctx.add(W004.at(tails["until"].span, hint=_DIES_WITH_ITS_PLAY))
    if _changes_nothing(op, base):
        ctx.add(W018.at(getattr(s.value, "span", None) or s.span))
    return Sayou(op=op, direction=direction, landing=landing, target=target, base=base,
                 lifetime=lifetime, timing=timing or context.timing, repeat=repeat,
                 telegraphed=telegraphed, source=source, dest=dest, count=count, pick=pick,
                 filter=filter, line=s.span.line, names=names_of(target, repeat))


#: The value with which each operation changes nothing (W018): adding, capping or paying
#: 0, multiplying by 1.
_NO_CHANGE = {"add": 0, "cap": 0, "pay": 0, "mul": 1}


def _changes_nothing(op: str, base) -> bool:
    """Whether a 作用 of ``op`` with ``base`` changes nothing whatever the battle: its
    constant is the operation's neutral one (敵HP -= 0, 歩 *= 1), or it adds a reference
    times 0."""
    nothing = _NO_CHANGE.get(op)
    if nothing is None or base is None:
        return False
    if type(base) is Const:
        return base.value == nothing
    return nothing == 0 and type(base) is Scaled and base.coef == 0


#: Blocks that are not a page's: only a page's effects give long-lived defense (DESIGN
#: §6.2), so what these give lasts the turn.
_NOT_A_PAGE = {"trait", "reward"}
#: The lifetimes a value given by such a block may have, by target (a 被弾1回 value
#: outlives turns and stages: it vanishes only by taking a hit).
_SHORT_LIVED = {"defense": {"turn"}}


def names_of(target: Target, repeat: Repeat) -> Names:
    """The display words of a 作用's target and repeat range (events, the terminal)."""
    if target.code == "flag":
        shown = f"@{target.flag}"
    elif target.code == vocab.PAGES.code:
        shown = vocab.PAGES.ja
    else:
        shown = vocab.tables()["variable"].by_code(target.code).ja
        if target.page is not None:
            shown = f"{shown}[{target.page}]"
    if repeat.scope == vocab.ANCHORED:
        unit = vocab.tables()["anchor_unit"].by_code(repeat.unit).ja
        span = vocab.ANCHORED_PHRASE.format(n=repeat.n, unit=unit)
    else:
        span = vocab.tables()["scope"].by_code(repeat.scope).ja
    if repeat.max is not None:
        span = f"{span} {vocab.MAX_FIRES_PHRASE.format(max=repeat.max)}"
    return Names(shown, span)


#: Timings that come only after 敵HP reached 0, when no enemy trait runs any more (DESIGN
#: §6.2): a trait waiting for one never fires. The player's own effects still do.
_AFTER_THE_ENEMY_FELL = {"on_enemy_hp_zero", "stage_end"}
#: Timings that are already past when a play places a continuing 作用, by the scope that
#: ends its repeat range: before the range ends they do not come again (the play is in
#: the player's part of the turn, after the turn's own start, refill and draw).
_PAST_AT_PLAY = {
    "turn": {"stage_start", "turn_start", "after_steps_refill", "after_draw"},
    "stage": {"stage_start"},
}
#: The moments of a turn after the enemy's hits, before that turn's end: 防御 of the
#: turn gained then is gone before any hit it could absorb (W017).
_AFTER_THE_HITS = {"after_enemy", "turn_end"}
#: Blocks whose 作用 are placed by a play (a face, or the face a pen wrote).
_PLACED_BY_PLAY = {"face", "pen"}
#: Moments that never come while a play resolves, by why: a 作用 of 範囲 プレイ waiting for
#: one never fires (a hit comes in the enemy's part of the turn; tearing and the pen are
#: actions of their own, never a step of a play). The events that are not
#: ``Timing.in_a_play`` (tests/test_rules_round2.py holds the two to each other).
_NOT_IN_A_PLAY = {
    "on_hit": f"被弾は{W.scope.turn}の終わりの敵の行動の時にだけ来ます",
    "on_tear": f"破るのは{W.scope.play}とは別の行動です",
    "on_pen": f"ペンを使うのは{W.scope.play}とは別の行動です",
}


#: Why a 範囲 プレイ without 毎 on a face never fires (W004's hint).
_DIES_WITH_ITS_PLAY = (
    f"毎 を書かずに範囲だけを書いた作用は、後の{W.scope.play}のたびに発動します。範囲 {W.scope.play} は"
    f"置かれた{W.scope.play}で終わるので、一度も発動しません。この{W.scope.play}で一度だけなら範囲を消し、"
    f"後の{W.scope.play}にも効かせるなら 範囲 以降 n {W.scope.play} にしてください")


def _is_modifier(variable) -> bool:
    """Whether a 作用's target is a modifier (補正: 攻撃力補正, 攻撃倍率 …); None is pages."""
    return variable is not None and variable.kind == "modifier"


def _dies_with_its_play(where: str, variable, repeat: Repeat, tails) -> bool:
    """A 作用 of a face or pen with 範囲 プレイ and no 毎 (DESIGN §6.1): it waits for the
    next play, and its range ends with the one that placed it. A modifier is the
    exception — it acts on the 作用 after it in the same play."""
    return (where in _PLACED_BY_PLAY and "until" in tails and repeat.scope == "play"
            and not _is_modifier(variable))


def _never_fires(where: str, timing: str, repeat: Repeat) -> str:
    """Why a continuing 作用 with this timing and range never fires where it is written,
    or "" when it may (DESIGN §6.1 timings that never fire)."""
    entry = vocab.tables()["timing"].by_code(timing)
    if where == "trait" and timing in _AFTER_THE_ENEMY_FELL:
        return (f"敵の特性が動くのは敵が場にいる間だけです。{entry.ja} には敵はもう倒れているか"
                f"{W.scope.stage}が終わっていて、特性は発動しません。"
                f"{W.timing.before_enemy} や {W.timing.turn_end} にしてください")
    if not entry.reachable:
        return (f"{entry.ja} は{W.scope.run}の始まりに一度だけ来ます。ページや敵の作用が場に乗るのはその後なので、"
                f"発動しません。{W.timing.stage_start} か、タイミングを書かない一度きりの作用にしてください")
    family = entry.family
    if repeat.scope == "play" and family in ("phase", "outer"):
        return (f"範囲 {W.scope.play} の作用は、置かれた{W.scope.play}の間だけ続きます。その間にフェイズや"
                f"{W.scope.stage}の境目は来ません。範囲 {W.scope.turn} か 範囲 以降 n {W.scope.play} にしてください")
    if repeat.scope == "play" and timing in _NOT_IN_A_PLAY:
        return (f"範囲 {W.scope.play} の作用は、置かれた{W.scope.play}の間だけ続きます。"
                f"{_NOT_IN_A_PLAY[timing]}。範囲 {W.scope.turn} か 範囲 {W.scope.stage} にしてください")
    if where in _PLACED_BY_PLAY and timing in _PAST_AT_PLAY.get(repeat.scope, ()):
        name = vocab.tables()["timing"].by_code(timing).ja
        scope = vocab.tables()["scope"].by_code(repeat.scope).ja
        return (f"{W.scope.play}した時には、この{scope}の{name}はもう過ぎています。範囲を広げるか"
                f"（範囲 {W.scope.stage}）、後に来るタイミングにしてください")
    return ""


def _lifetime(op: str, variable, s, tails, ctx: Ctx):
    tail = tails.get("life")
    if op in ("generate", "duplicate"):
        if tail is None:
            ctx.add(E026.at(s.span, f"{W.operation.generate}・{W.operation.duplicate}するページの寿命がありません",
                            hint=f"寿命 {W.scope.stage}（{W.scope.stage}限り）か 寿命 {W.scope.run}（{W.scope.run}{W.lifetime.permanent}）を書いてください"))
            return False
        entry = resolve("lifetime", tail.value, ctx.diags)
        if entry is None:
            return False
        if entry.code not in vocab.GENERATED_LIFETIMES:
            ctx.add(E027.at(tail.span, f"{W.operation.generate}・{W.operation.duplicate}したページの寿命は {W.scope.stage} か {W.scope.run} です"))
            return False
        return entry.code
    if variable is None or op == "suppress":
        if tail is not None:
            ctx.add(E027.at(tail.span, "この作用に値の寿命はありません",
                            hint="いつまで続くかは 範囲 で書きます"))
            return False
        return None
    if variable.kind == "modifier":
        if tail is not None:
            ctx.add(E027.at(tail.span, f"補正「{variable.ja}」の寿命は繰り返し範囲で決まります",
                            hint=f"寿命 ではなく 範囲 {W.scope.stage} ／ 範囲 以降 3 {W.scope.play} のように書きます"))
            return False
        return None
    if tail is None:
        if variable.default_lifetime is None:
            ctx.add(E026.at(s.span, f"「{variable.ja}」の変更がいつまで続くか（値の寿命）がありません",
                            hint=f"寿命 {W.scope.stage} か 寿命 {W.scope.run} を書いてください"))
            return False
        return variable.default_lifetime
    entry = resolve("lifetime", tail.value, ctx.diags)
    if entry is None:
        return False
    if entry.code not in variable.lifetimes:
        usable = "・".join(vocab.tables()["lifetime"].by_code(c).ja for c in variable.lifetimes)
        extra = f"{W.lifetime.on_hit}で消える寿命を持てるのは{W.variable.defense}だけです。" if entry.code == "on_hit" else ""
        ctx.add(E027.at(tail.span, f"「{variable.ja}」に寿命「{entry.ja}」は意味を持ちません",
                        hint=f"{extra}「{variable.ja}」の寿命: {usable}"))
        return False
    return entry.code


def _timing(variable, s, tails, ctx: Ctx, context: Context):
    tail = tails.get("at")
    is_modifier = _is_modifier(variable)
    if tail is None:
        if is_modifier:
            return "always"
        if context.timing is None:
            ctx.add(E026.at(s.span, f"{context.words}の作用にはいつ発動するか（毎 タイミング）が要ります",
                            hint=f"例: {W.variable.seat} += 4 毎 {W.timing.turn_start} 予告"))
            return False
        return None
    entry = resolve("timing", tail.value, ctx.diags)
    if entry is None:
        return False
    if is_modifier and entry.code != "always":
        ctx.add(E038.at(tail.span, f"補正「{variable.ja}」は{W.timing.always}の継続作用です",
                        hint="毎 を書かずに 範囲 だけを書いてください"))
        return False
    if not is_modifier and entry.code == "always":
        ctx.add(E038.at(tail.span, f"{W.timing.always} は補正（{W.variable.attack_add}・{W.variable.attack_mul} など）のタイミングです",
                        hint=f"毎 {W.timing.turn_start} のように、発動する瞬間を書いてください"))
        return False
    return entry.code


def _repeat(op: str, variable, s, tails, ctx: Ctx, context: Context, timing) -> Repeat | None:
    until, max_tail = tails.get("until"), tails.get("max_fires")
    is_modifier = _is_modifier(variable)
    continuing = is_modifier or timing is not None or until is not None
    if max_tail is not None and until is None and context.continuing_range is None:
        ctx.add(E026.at(max_tail.span, "最大回数には繰り返し範囲が要ります",
                        hint=f"範囲 {W.scope.stage} 最大 3 回 のように書きます"))
        return None
    max_fires = None
    if max_tail is not None:
        if not check_count(max_tail.value, ctx, "最大発動回数"):
            return None
        max_fires = max_tail.value.value
    if max_tail is not None and not continuing:
        # A one-shot fires once; a maximum would be silently dropped (破却・綻び報酬).
        ctx.add(E026.at(max_tail.span, "最大回数は繰り返し発動する作用にだけ書けます",
                        hint=f"毎 {W.timing.turn_start} のように、いつ繰り返し発動するかを書いてください"))
        return None
    if op == "suppress" and until is None or not continuing:
        return ONE_SHOT
    if until is None:
        if context.continuing_range is None:
            what = f"補正「{variable.ja}」" if is_modifier else "継続作用"
            ctx.add(E026.at(s.span, f"{what}の繰り返し範囲がありません（いつまで発動するか）",
                            hint=f"範囲 {W.scope.turn} ／ 範囲 {W.scope.stage} ／ 範囲 以降 3 {W.scope.play} のように書きます"))
            return None
        return Repeat(context.continuing_range, None, None, max_fires)
    scope = until.value
    if scope.anchor is None:
        entry = resolve("scope", scope.name, ctx.diags)
        return None if entry is None else Repeat(entry.code, None, None, max_fires)
    unit = resolve("anchor_unit", scope.name, ctx.diags)
    if unit is None or not check_count(scope.anchor, ctx, "アンカー付きスコープの回数"):
        return None
    return Repeat(vocab.ANCHORED, unit.code, scope.anchor.value, max_fires)
