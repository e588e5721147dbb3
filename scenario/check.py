"""例の検査 — an example (例) block → a scenario the runner plays, or diagnostics.

Expectations compare one quantity with numbers, in the condition syntax of faces:
``確認 HP == 200, 刻 == 22, Intent == 1, 出来事[ダメージを与えた] >= 1, 未来面[tabidachi] == 0``.
The quantities a scenario may read are the table QUANTITIES.
"""

from __future__ import annotations

import dataclasses

from dsl import ast
from dsl.diagnostics import Diagnostic, Note
from compiler.codes import E010, E011, E013, E021, E040, E043, E044, E056, E057

from contract import vocabulary as vocab
from contract.game import Choose, DevSet, EndTurn, Pen, Play, Tear
from compiler.names import Guess, guess, id_hint
from compiler.symbols import unread_reference
from compiler.values import Ctx, check_page_ref, constant, with_scopes
from runtime.dev import DEV_SETTINGS, DEV_WORDS, LIFETIME_WORDS
from runtime.sayou import REGION_ZONES
from contract.vocabulary import W

def _variable(code: str, *more: str) -> tuple[str, ...]:
    """The spellings of a variable of the vocabulary (and the scenario's own ``more``)."""
    return (*vocab.lookup("variable", code).spellings(), *more)


def _spelled(table: str, code: str) -> tuple[str, ...]:
    return vocab.tables()[table].by_code(code).spellings()


def _face(code: str) -> tuple[str, ...]:
    face = next(f for f in vocab.FACES if f.code == code)
    return face.ja, face.code


#: words → (quantity code, what its subscript is: None, "expiry", "fray", "event",
#: "page"). The variables and faces are spelled as the vocabulary spells them; the rest
#: are quantities of a battle that only a scenario reads.
QUANTITIES = {
    _variable("hp"): ("hp", None),
    _variable("steps"): ("steps", None),
    _variable("age"): ("age", None),
    _variable("defense", "defense"): ("defense", "expiry"),
    _spelled("quantity", "intents"): ("intents", None),
    _variable("fray"): ("fray", "fray"),
    _variable("enemy_hp"): ("enemy_hp", None),
    _variable("currency"): ("currency", None),
    _variable("seat"): ("seat", None),
    _spelled("scope", "stage"): ("stage", None),
    _spelled("scope", "turn"): ("turn", None),
    _spelled("quantity", "won"): ("won", None),
    _spelled("quantity", "lost"): ("lost", None),
    _spelled("quantity", "events"): ("events", "event"),
    _face("future"): ("future", "page"),
    _face("past"): ("past", "page"),
}
_WORDS = {word: value for words, value in QUANTITIES.items() for word in words}
#: Region zones a scenario counts: the runtime's own table (除外 is both exile zones).
_ZONES = {code: list(zones) for code, zones in REGION_ZONES.items()}
_EXPIRIES = LIFETIME_WORDS


def event_kinds() -> frozenset:
    """The kinds of event an example's 出来事[…] counts, by code (contract.vocabulary
    EVENTS, which names each kind of runtime.events)."""
    return frozenset(e.code for e in vocab.EVENTS)


#: シード, where an example's second one is reported.
_SEED_WORD = vocab.KEYWORDS["seed"][0]


def check_example(example: ast.Example, ctx: Ctx, default_enemy: str | None) -> dict | None:
    """The scenario of an example, or None after diagnostics."""
    before = len(ctx.diags)
    enemies = []
    for name in example.enemies:
        unread = None if name.text in ctx.symbols.enemies else \
            unread_reference(ctx.symbols, name.text)
        if name.text not in ctx.symbols.enemies and unread != "":
            hint, replacements = id_hint(name.text, ctx.symbols.enemies, "敵")
            ctx.add(E011.at(name.span, f"敵「{name.text}」は定義されていません",
                            hint=unread or hint, replacements=() if unread else replacements))
        enemies.append(name.text)
    if not enemies:
        if default_enemy is None:
            ctx.add(E043.at(_head(example.span), "例に敵がありません", hint="例: 敵 haguruma"))
        else:
            enemies = [default_enemy]
    deck = None
    if example.deck is not None:
        deck = [check_page_ref(name, ctx) for name in example.deck]
    seed = 0
    if example.seed is not None:
        seed = example.seed.value
        if not isinstance(seed, int):
            ctx.add(E043.at(example.seed.span, "シードは整数です"))
    for again in example.seeds_again:  # the first is played: a later one would be ignored
        ctx.add(E013.at(again.span, f"{_SEED_WORD}を2回書いています",
                        hint=f"{_SEED_WORD}は1つだけ書きます（例は1つのシードで遊びます）",
                        notes=[Note("最初の記述", example.seed.span)]))
    steps = [_step(step, ctx) for step in example.steps]
    if len(ctx.diags) > before and any(d.is_error for d in ctx.diags[before:]):
        return None
    return {"name": example.title or f"例 {example.span.line} 行目", "path": example.span.path,
            "line": example.span.line, "end_line": example.span.end_line, "enemies": enemies, "seed": seed, "deck": deck,
            "steps": [s for s in steps if s is not None]}


def _head(span):
    return type(span)(span.path, span.line, span.col, span.line, span.col + 1)


def _step(step: ast.Step, ctx: Ctx) -> dict | None:
    base = {"kind": step.kind, "line": step.span.line, "col": step.span.col,
            "refused": step.refused}
    if step.kind == "expect":
        checks = [_check(expr, ctx) for expr in step.checks]
        return None if None in checks else {**base, "checks": checks}
    if step.kind == "set":
        settings = [_setting(s, ctx) for s in step.settings]
        if None in settings:
            return None
        # the settings in the order the designer wrote, each with where its value is
        # (a refused one is reported there: scenario.run)
        return {**base, "kind": "set_many", "settings": settings,
                "places": [_value_place(s) for s in step.settings],
                "action": DevSet(tuple(settings))}
    side = step.side
    if step.kind == "pen" and side is None:  # ペン p 未来: the face by a short name
        step, side = _pen_side(step, ctx)
        if side is None:
            return None
    pages = [check_page_ref(name, ctx) for name in step.pages]
    if None in pages:
        return None
    action = _ACTIONS[step.kind](pages, side)
    if step.kind == "choose":
        return {**base, "pages": pages, "action": action}
    if step.kind == "end":
        return {**base, "action": action}
    return {**base, "page": pages[0], "side": side, "action": action}


def _value_place(setting: ast.Setting) -> tuple[int, int, int]:
    """(line, col, end col) of a 開始 setting's value (a hand: its first page)."""
    value = setting.value
    span = value[0].span if isinstance(value, tuple) and value else getattr(
        value, "span", setting.span)
    return span.line, span.col, span.end_col if span.end_line == span.line else span.col + 1


def _pen_side(step: ast.Step, ctx: Ctx):
    """(the step with its page alone, the face's code) of a pen step whose face is written
    by one of its names (未来, as the battle's pen command takes it), or (step, None) after
    E010."""
    page, written = step.pages
    face = next((f for f in vocab.FACES if written.text in f.spellings()), None)
    if face is None:
        names = [f.ja for f in vocab.FACES] + [a for f in vocab.FACES for a in f.aliases]
        ctx.add(E010.at(written.span, f"「{written.text}」という面はありません",
                        hint=f"面は {'、'.join(names)} のどれかです"))
        return step, None
    return dataclasses.replace(step, pages=(page,)), face.code


#: A step's keyword → its action, named by page ids (runtime.named): what the runner plays.
_ACTIONS = {
    "play": lambda pages, side: Play(pages[0]),
    "pen": lambda pages, side: Pen(pages[0], side),
    "tear": lambda pages, side: Tear(pages[0]),
    "end": lambda pages, side: EndTurn(),
    "choose": lambda pages, side: Choose(tuple(pages)),
}


def _setting(setting: ast.Setting, ctx: Ctx):
    """One developer-mode setting of 開始 (the words are runtime.dev's table):
    ``HP 200``, ``防御[ステージ] 10`` (defense of a lifetime), ``綻び[ステージ] 30``,
    ``手札 [a, b]``."""
    word = setting.name.text
    sub = setting.subscript.text if setting.subscript is not None else None
    key = DEV_WORDS.get(word)
    lifetime = None
    if sub is not None:
        if key is not None and DEV_SETTINGS[key].takes_lifetime and sub in _EXPIRIES:
            lifetime = _EXPIRIES[sub]
        else:
            key = DEV_WORDS.get(f"{word}[{sub}]")
            word = f"{word}[{sub}]"
    if key is None:
        shown = "・".join(s.words[0] for s in DEV_SETTINGS.values())
        ctx.add(E056.at(setting.name.span, f"開始で設定できない値「{word}」です", hint=f"設定できるのは {shown} です（{W.variable.defense}[{W.scope.stage}] のように寿命も書けます）"))
        return None
    if key == "hand":
        if not isinstance(setting.value, tuple):
            ctx.add(E056.at(setting.span, f"{W.region.hand}はページの並びで書きます", hint=f"例: 開始 {W.region.hand} [tabidachi, kekkon]"))
            return None
        pages = [check_page_ref(name, ctx) for name in setting.value]
        return None if None in pages else (key, pages)
    if isinstance(setting.value, tuple):
        ctx.add(E056.at(setting.span, f"{word}には数を書きます"))
        return None
    value = constant(setting.value, ctx, word)
    if value is None:
        return None
    if value != int(value):  # the battle holds whole numbers: 30.7 was set as 30, silently
        ctx.add(E056.at(setting.value.span, f"{word}は整数です（{value:g}）",
                        hint=f"例: 開始 {word} {int(value)}"))
        return None
    return key, (value, lifetime) if lifetime else value


def _check(expr, ctx: Ctx) -> dict | None:
    """One expectation: a comparison of one quantity with numbers (or 勝利・敗北 alone)."""
    span = expr.span
    text = _text(expr)
    if isinstance(expr, ast.Ref):
        term = _quantity(expr, ctx)
        if term is None:
            return None
        if term["quantity"] not in ("won", "lost", "future", "past") and term[
                "quantity"] != "flag":
            ctx.add(E057.at(span, f"「{text}」だけでは確認になりません", hint=f"比較を書きます。例: HP == 200 ／ {W.quantity.won}"))
            return None
        return {"terms": [term, {"kind": "const", "value": 1}], "ops": ["=="], "line": span.line,
                "col": span.col, "end_col": span.end_col, "text": f"{text}"}
    if not isinstance(expr, ast.Compare):
        ctx.add(E057.at(span, "確認は「量 比較 数」の形で書きます", hint=f"例: {W.variable.age} == 22"))
        return None
    terms = []
    for operand in expr.operands:
        zones = _region_sum(operand)
        by_page = _region_sum_of_page(operand)
        if zones is not None:
            term = {"kind": "quantity", "text": _text(operand), "quantity": "zone", "arg": zones}
        elif by_page is not None:
            zones, subscript = by_page
            page = check_page_ref(subscript.name, ctx)
            term = None if page is None else {"kind": "quantity", "text": _text(operand),
                                              "quantity": "page_in", "arg": [zones, page]}
        elif isinstance(operand, ast.Ref):
            term = _quantity(operand, ctx)
        elif _reads(operand):  # an expression of quantities: 刻 + 1, -HP, |刻 - 30|
            # (200 − 0 folds to a number): E036's hint of a 作用's base value misled
            ctx.add(E057.at(operand.span, f"確認では式「{_text(operand)}」は比べられません",
                            hint=f"量と数を比べます（2つの量なら 確認 を2つに: 例 HP == 150 と "
                                 f"{W.variable.age} == 20）"))
            return None
        else:
            value = constant(operand, ctx, "比べる数")
            term = None if value is None else {"kind": "const", "value": value}
        if term is None:
            return None
        terms.append(term)
    if all(term["kind"] == "const" for term in terms):  # 1 == 1: the same answer every time
        ctx.add(E057.at(span, f"「{text}」は数どうしの比べで、確認になりません",
                        hint=f"量を比べます。例: HP == 200 ／ {W.variable.age} == 22"))
        return None
    return {"terms": terms, "ops": list(expr.ops), "line": span.line, "col": span.col,
            "end_col": span.end_col if span.end_line == span.line else None, "text": text}


def _reads(node) -> bool:
    """Does an expression read a quantity anywhere (else it folds to a number)?"""
    if isinstance(node, ast.Ref):
        return True
    return any(_reads(getattr(node, side)) for side in ("left", "right", "operand")
               if getattr(node, side, None) is not None)


def _quantity(ref: ast.Ref, ctx: Ctx) -> dict | None:
    word = ref.name.text
    sub = ref.subscript
    base = {"kind": "quantity", "text": _text(ref)}
    if ref.is_flag:
        return {**base, "quantity": "flag", "arg": word[1:]}
    if word in _WORDS:
        code, arg_kind = _WORDS[word]
        if sub is None:
            if arg_kind in ("event", "page"):
                ctx.add(E057.at(ref.span, f"{word} には添字が要ります", hint=f"例: {W.quantity.events}[damage] ／ {W.face.future}[tabidachi]"))
                return None
            return {**base, "quantity": code, "arg": None}
        if arg_kind is None or sub.anchor is not None:
            ctx.add(E040.at(sub.span, f"{word} には添字を付けられません"))
            return None
        key = sub.name.text
        if arg_kind == "expiry":
            if key not in _EXPIRIES:
                ctx.add(E057.at(sub.span, f"{W.variable.defense}の消滅契機「{key}」はありません", hint=f"{W.lifetime.on_hit}・{W.scope.turn}・{W.scope.stage}・{W.scope.run}"))
                return None
            return {**base, "quantity": code, "arg": _EXPIRIES[key]}
        if arg_kind == "fray":
            if key not in (W.scope.stage, "stage", W.scope.run, "run"):
                ctx.add(E057.at(sub.span, f"{W.variable.fray}の添字は {W.scope.stage} か {W.scope.run} です"))
                return None
            return {**base, "quantity": code, "arg": "stage" if key in (W.scope.stage, "stage")
                    else "run"}
        if arg_kind == "event":
            kind = vocab.lookup("event", key)
            if kind is None:
                names = [e.ja for e in vocab.EVENTS]
                found = guess(key, names + [e.code for e in vocab.EVENTS])
                ctx.add(E057.at(sub.span, f"{W.quantity.events}「{key}」はありません",
                                hint=found.hint or f"書ける{W.quantity.events}: "
                                + "、".join(names),
                                replacements=found.replacements))
                return None
            return {**base, "quantity": code, "arg": kind.code}
        page = check_page_ref(sub.name, ctx)
        return None if page is None else {**base, "quantity": code, "arg": page}
    region = vocab.lookup("region", word)
    if region is not None:
        zones = _ZONES[region.code]
        if sub is None:
            return {**base, "quantity": "zone", "arg": zones}
        page = check_page_ref(sub.name, ctx)
        return None if page is None else {**base, "quantity": "page_in", "arg": [zones, page]}
    counter = vocab.lookup("counter", word)
    if counter is not None:
        scope = vocab.lookup("scope", sub.name.text) if sub is not None and sub.anchor is None \
            else None
        if scope is None and sub is not None:  # written, but no scope (被弾1回 is a 寿命)
            scopes = "・".join(each.ja for each in vocab.SCOPES)
            written = (f"「{vocab.KEYWORDS['next'][0]} {sub.anchor.value:g} {sub.name.text}」"
                       if sub.anchor is not None else f"「{sub.name.text}」")
            ctx.add(E021.at(sub.span, f"{written}は確認で読めるスコープではありません"
                            f"（累計量「{counter.ja}」の添字は {scopes}）",
                            hint=f"例: {counter.ja}[{W.scope.turn}]"))
            return None
        if scope is None:
            ctx.add(E021.at(ref.span, f"累計量「{counter.ja}」にはスコープ添字が要ります",
                            hint=f"例: {counter.ja}[{W.scope.turn}]",
                            replacements=with_scopes(counter, ref.name.text) if sub is None
                            else ()))
            return None
        return {**base, "quantity": "counter", "arg": [counter.code, scope.code]}
    variable = vocab.lookup("variable", word)
    if variable is not None and variable.kind == "param":
        return {**base, "quantity": "param", "arg": variable.code}
    candidates = [w for words in QUANTITIES for w in words]
    counters = vocab.tables()["counter"].spellings()
    found = guess(word, candidates + vocab.tables()["region"].spellings() + counters)
    meant = vocab.lookup("counter", found.word) if found.word in counters else None
    if meant is not None:  # 「ダメージ」: the counter 与えたダメージ, which needs its scope
        # an example reads a whole stage's tally most often (the worked example does)
        scoped = with_scopes(meant, meant.ja)
        staged = [w for w in scoped if w.endswith(f"[{W.scope.stage}]")]
        found = Guess(meant.ja if sub is not None else (staged or scoped)[0])
    ctx.diags.append(E057.at(ref.name.span, f"例で確かめられる量に「{word}」はありません",
                             replacements=found.replacements, hint=found.hint
                           or f"HP・{W.variable.steps}・{W.variable.age}・{W.variable.defense}・Intent・{W.variable.fray}・{W.variable.enemy_hp}・{W.variable.seat}・{W.quantity.won}・{W.quantity.lost}・{W.quantity.events}[種類]・"
                              f"{W.region.hand}・{W.face.future}[ページ] など"))
    return None


def _region_sum(expr) -> list[str] | None:
    """The zones of a written region sum (山札+捨て札), or None if it is not one."""
    if not (isinstance(expr, ast.BinOp) and expr.op == "+"):
        return None
    parts = []
    for side in (expr.left, expr.right):
        inner = _region_sum(side)
        if inner is not None:
            parts += inner
            continue
        region = vocab.lookup("region", side.name.text) if isinstance(side, ast.Ref) and \
            side.subscript is None else None
        if region is None:
            return None
        parts += _ZONES[region.code]
    return parts


def _region_sum_of_page(expr) -> tuple[list[str], ast.Scope] | None:
    """``山札+捨て札[p]``: the zones of a region sum whose last part carries a page subscript
    (DESIGN §6.1: every combined region accepts one — the count of a page there), with
    that subscript; None for anything else."""
    if not (isinstance(expr, ast.BinOp) and expr.op == "+" and isinstance(expr.right, ast.Ref)
            and expr.right.subscript is not None and expr.right.subscript.anchor is None):
        return None
    bare = dataclasses.replace(expr, right=dataclasses.replace(expr.right, subscript=None))
    zones = _region_sum(bare)
    return None if zones is None else (zones, expr.right.subscript)


def _text(expr) -> str:
    if isinstance(expr, ast.Number):
        return expr.text
    if isinstance(expr, ast.Ref):
        sub = f"[{expr.subscript.name.text}]" if expr.subscript is not None else ""
        return expr.name.text + sub
    if isinstance(expr, ast.Compare):
        out = [_text(expr.operands[0])]
        for op, operand in zip(expr.ops, expr.operands[1:]):
            out += [op, _text(operand)]
        return " ".join(out)
    if isinstance(expr, ast.Neg):
        return "-" + _text(expr.operand)
    if isinstance(expr, ast.BinOp):
        return f"{_text(expr.left)}{expr.op}{_text(expr.right)}"
    return "…"


def run_diagnostics(results) -> list[Diagnostic]:
    """Failed scenario expectations as E044 diagnostics at their positions."""
    found = []
    for result in results:
        for failure in result.failures:
            from dsl.diagnostics import Span

            end = failure.end_col or failure.col + 1
            span = Span(result.path, failure.line, failure.col, failure.line, end)
            hint = FAILURE_HINTS["expect" if failure.expected is not None else "step"]
            found.append(E044.at(span, f"例「{result.name}」が失敗しました: {failure.message}", hint=hint))
    return found


#: What to look at for a failed example, by what failed: a 確認 that did not hold (the
#: page's 作用 or the value written), or a step the battle could not take (the example's
#: own steps or its 開始 — a page not in the hand, a refused play, a choice not asked).
FAILURE_HINTS = {
    "expect": "ページの作用か、例の期待値を直してください",
    "step": f"例の手順か 開始 の値（{W.region.hand}など）を見直してください。ページの作用のせいなら作用を直してください",
}
