"""基準値と参照 — checks of values, references and conditions (spec 002).

A base value is a constant or ``counter[scope] × coefficient``; a condition compares one
quantity with constants. Both are written in one expression language, so these checks
also catch what the grammar lets through: thresholds in values (E025), shapes the runtime
has no meaning for (E036), division by zero (E032), non-finite numbers (E033).

The checks return the contract's classes: a reference is one class per kind
(``contract.tables.REFS``), a base value is ``Const`` or ``Scaled``, a condition is a
``Condition``. What a kind of reference means to a condition is one table keyed by class
(CONDITION_FAMILIES); which vocabulary table a written name belongs to is another
(_READINGS).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from dsl import ast
from dsl.diagnostics import Diagnostic
from dsl.region_sums import region_runs
from dsl.slips import thousands_hint
from dsl.tails import tail_keyword, value_left_out

from contract import vocabulary as vocab
from contract.tables import (Condition, Const, CounterRef, DistanceRef, FlagRef, PageAttrRef,
                             PageCountRef, RegionCountRef, Scaled, TilesPassedRef, VariableRef)
from .codes import E010, E011, E021, E022, E025, E032, E033, E036, E039, E040, E041, W001
from .limits import LIMITS, over
from .names import guess, id_hint, resolve, unknown
from .symbols import unread_reference
from contract.vocabulary import W


@dataclass
class Ctx:
    """Where a check runs: who writes it and in which block."""

    diags: list[Diagnostic]
    symbols: object
    side: str = "page"  # "page" | "enemy" | "balance"
    where: str = "face"  # "face" | "pen" | "tear" | "trait" | "reward" | "appears"
    owner: str | None = None  # the id of the page being checked (its own 銘 is not a target)

    def at(self, where: str, side: str | None = None) -> "Ctx":
        """The same run and owner, checking another block."""
        return replace(self, where=where, side=side or self.side)

    def add(self, diag: Diagnostic) -> None:
        """Report a diagnostic (``ctx.add(E020.at(span, counter=…))``)."""
        self.diags.append(diag)


# ------------------------------------------------------------------ scopes


def range_hint(low, high, in_bounds: bool, example: str) -> dict:
    """The hint (and quick fix) of a range refused by E030: the same range the right way
    round when it is only written backwards (``in_bounds``: both ends are values the range
    takes), else what to write (``example``). Keywords of ``Code.at``."""
    if in_bounds and low > high:
        return {"hint": f"小さい方を先に書きます: {high}..{low}", "replacements": (f"{high}..{low}",)}
    return {"hint": example, "replacements": ()}


def check_scope(counter: vocab.Counter, scope: ast.Scope, ctx: Ctx) -> CounterRef | None:
    """The reference to ``counter`` over its scope subscript, after the ●/○/× table."""
    if scope.anchor is None:
        entry = resolve("scope", scope.name, ctx.diags)
        if entry is None:
            return None
        column, ref = entry.code, CounterRef(counter.code, entry.code, None, None)
    else:
        entry = resolve("anchor_unit", scope.name, ctx.diags)
        if entry is None or not check_count(scope.anchor, ctx, "アンカー付きスコープの回数"):
            return None
        # An anchored span of plays lies within no single turn: read the next column up.
        column = vocab.SCOPE_ORDER[vocab.SCOPE_ORDER.index(entry.code) + 1]
        ref = CounterRef(counter.code, vocab.ANCHORED, entry.code, scope.anchor.value)
    cell = counter.cell(column)
    written = scope.name.text if scope.anchor is None else f"以降 {scope.anchor.text} {scope.name.text}"
    label = f"{counter.ja}[{written}]"
    # The subscripts the ●/○/× table allows most (●): named, so the fix needs no table.
    core = "、".join(w for w in with_scopes(counter, counter.ja)
                    if counter.cell(_scope_code(w)) == vocab.CELL_CORE)
    if cell == vocab.CELL_NONE:
        reason = vocab.CELL_NONE_REASONS.get(counter.code, "")
        ctx.add(E022.at(scope.span, label=label,
                        hint=(reason + "。" if reason else "") + f"別のスコープを参照してください（{core}）"))
        return None
    if cell == vocab.CELL_UNUSED:
        ctx.add(W001.at(scope.span, label=label,
                        hint=f"{core} で足りるか確かめてください"))
    return ref


def _scope_code(subscripted: str) -> str:
    """The scope code of a counter written ``name[スコープ]`` (``with_scopes``' form)."""
    return vocab.tables()["scope"].get(subscripted.rsplit("[", 1)[1][:-1]).code


def _count_hint(value, limit: str) -> str:
    """E039's hint for a count written as ``value`` (0, or not whole) of kind ``limit``
    ("": the explanation's, as for any diagnostic with nothing more to say)."""
    if value == 0:
        return ZERO_COUNT_HINTS.get(limit, "")
    if not value <= LIMITS[limit].bound:  # 1e999 (inf) or beyond the count's bound too
        return ""
    low = math.floor(value)
    near = f"{low} か {low + 1}" if low >= 1 else "1"
    return f"小数は書けません。{near} のような整数で書きます"


#: A count of 0, by kind (a key of limits.LIMITS), where leaving it out is what it means.
ZERO_COUNT_HINTS = {"deck_count": "0 枚のつもりなら、この行ごと消してください"}


def check_count(number: ast.Number, ctx: Ctx, what: str, limit: str = "times") -> bool:
    """A count of 1 or more, within its bound (``limit``: a key of limits.LIMITS) — checked
    here, before anything is multiplied by it (a deck entry × n is n pages in a list)."""
    value = number.value
    if not isinstance(value, int) or value < 1:
        ctx.add(E039.at(number.span, f"{what}は 1 以上の整数です（{number.text}）",
                        hint=_count_hint(value, limit)))
        return False
    if value > LIMITS[limit].bound:
        ctx.diags.append(over(limit, value, number.span, what))
        return False
    return True


# -------------------------------------------------------------- references


@dataclass(frozen=True)
class Word:
    """A condition word (跨ぐ・跨がない) where a quantity was read: a condition of its own,
    never a value. Not a reference of the contract."""

    code: str


def with_scopes(counter: vocab.Counter, written: str) -> tuple[str, ...]:
    """The counter as written, subscripted with each scope it may be read over: the ● core
    ones first, then the ○ ones (a warning, W001), never a × one (E022)."""
    scopes = vocab.tables()["scope"]
    usable = [code for code in vocab.SCOPE_ORDER if counter.cell(code) != vocab.CELL_NONE]
    usable.sort(key=lambda code: counter.cell(code) != vocab.CELL_CORE)
    return tuple(f"{written}[{scopes.by_code(code).ja}]" for code in usable)


def fixing_scopes(counter: vocab.Counter, written: str) -> tuple[str, ...]:
    """The quick fixes of a counter written without its scope: the ● core scopes alone
    (a fix is to lint clean; a ○ one is W001), or the ○ ones when it has no ● one."""
    scoped = with_scopes(counter, written)
    core = tuple(label for label in scoped if counter.cell(
        vocab.lookup("scope", label[len(written) + 1:-1]).code) == vocab.CELL_CORE)
    return core or scoped


def _counter_ref(counter, ref: ast.Ref, ctx: Ctx):
    if ref.subscript is None:
        ctx.add(E021.at(ref.span, counter=counter.ja,
                        replacements=fixing_scopes(counter, ref.name.text)))
        return None
    return check_scope(counter, ref.subscript, ctx)


def _region_ref(region, ref: ast.Ref, ctx: Ctx):
    if ref.subscript is None:
        return RegionCountRef(region.code)
    if ref.subscript.anchor is not None:
        ctx.add(E040.at(ref.subscript.span, f"{region.ja}の添字はページの id です",
                        hint=f"例: {region.ja}[tabidachi] >= 1（そのページが{region.ja}にある枚数）"))
        return None
    page = check_page_ref(ref.subscript.name, ctx)
    return None if page is None else PageCountRef(region.code, page)


def _tiles_ref(tile, ref: ast.Ref, ctx: Ctx):
    if ref.subscript is None or ref.subscript.anchor is not None:
        ctx.add(E040.at(ref.span, f"{tile.ja} にはマスの種別を添字で書きます",
                        hint=f"例: {tile.ja}[{W.tile.myth}] >= 1"))
        return None
    kind = resolve("tile", ref.subscript.name, ctx.diags)
    return None if kind is None else TilesPassedRef(kind.code)


def _variable_ref(variable, ref: ast.Ref, ctx: Ctx):
    if variable.kind == "page_attr":
        if ref.subscript is None:
            return VariableRef(variable.code)  # this page's 銘
        page = check_page_ref(ref.subscript.name, ctx)
        return None if page is None else PageAttrRef(variable.code, page)
    if ref.subscript is not None:
        hint = "スコープ添字が付くのは累計量だけです"
        counter = COUNTED_BY.get(variable.code)
        if counter is not None:  # 綻び[ステージ]: the counter of its changes was meant
            hint = _counter_hint(vocab.tables()["counter"].by_code(counter), ref.subscript)
        ctx.add(E040.at(ref.subscript.span,
                        f"「{variable.ja}」は{vocab.VARIABLE_KINDS[variable.kind]}で、"
                        "スコープ添字は付きません", hint=hint))
        return None
    return VariableRef(variable.code)


def _counter_hint(counter, subscript) -> str:
    """The counter a scope on a value meant, written with that scope when the counter
    reads it (its cell is not ×), else with the scopes it reads."""
    scope = vocab.lookup("scope", subscript.name.text) if subscript.anchor is None else None
    if scope is not None and counter.cell(scope.code) != vocab.CELL_NONE:
        return f"期間の量は累計量で読みます: {counter.ja}[{scope.ja}]"
    readable = [f"{counter.ja}[{vocab.tables()['scope'].by_code(code).ja}]"
                for code in vocab.SCOPE_ORDER if counter.cell(code) != vocab.CELL_NONE]
    return f"期間の量は累計量で読みます: {' か '.join(readable)}"


#: A value (variable code) → the counter of its changes (a counter code), which a scope
#: subscript on the value meant: 綻び[ステージ] is 増えた綻び[ステージ] (the glossary's 累積綻び
#: is 増えた綻び[ラン]), ドロー枚数[ターン] is ドローした枚数[ターン].
COUNTED_BY = {"fray": "fray_gained", "hp": "hp_lost", "steps": "steps_used",
              "draw_count": "cards_drawn", "currency": "currency_spent"}


def _readable_variable(text: str):
    variable = vocab.lookup("variable", text)
    return variable if variable is not None and variable.readable else None


#: Where a written name is looked up, in this order, and how a reference of that table
#: is read: the first table that knows the name decides what the reference is.
_READINGS = (
    (lambda text: vocab.lookup("counter", text), _counter_ref),
    (lambda text: vocab.lookup("region", text), _region_ref),
    (lambda text: vocab.TILES_PASSED if text in vocab.TILES_PASSED.spellings() else None,
     _tiles_ref),
    (_readable_variable, _variable_ref),
    (lambda text: vocab.lookup("condition_word", text), lambda word, ref, ctx: Word(word.code)),
)


def _reference_spellings() -> list[str]:
    t = vocab.tables()
    return t["counter"].spellings() + t["variable"].spellings() + t["region"].spellings()


def check_ref(ref: ast.Ref, ctx: Ctx):
    """Resolve one reference: a reference class of the contract (or a ``Word``), or None
    after diagnostics."""
    if ref.is_flag:
        return FlagRef(ref.name.text[1:])
    for lookup, read in _READINGS:
        entry = lookup(ref.name.text)
        if entry is not None:
            return read(entry, ref, ctx)
    said = GLOSSARY_COUNTERS.get(ref.name.text)
    if said is not None:  # the glossary's own name of a counter with its scope: 累積綻び
        counter, scope = said
        written = (f"{vocab.tables()['counter'].by_code(counter).ja}"
                   f"[{vocab.tables()['scope'].by_code(scope).ja}]")
        # with a subscript of its own (累積綻び[ステージ]) the name alone is no fix
        ctx.add(E010.at(ref.name.span, f"「{ref.name.text}」は用語集の呼び名です",
                        hint=f"作用には {written} と書きます",
                        replacements=(written,) if ref.subscript is None else ()))
        return None
    ctx.diags.append(unknown(ref.name, "変数・累計量・領域", _reference_spellings()))
    return None


#: The glossary's names of a counter over a scope (spec 001), which rules text may say but
#: a 作用 writes as the counter with its subscript: 累積綻び is 増えた綻び[ラン].
GLOSSARY_COUNTERS = {"累積綻び": ("fray_gained", "run")}


# ------------------------------------------------------------ 合算 as names

# The spec names a 合算 by its parts joined with "+" (山札+捨て札), and the grammar reads
# that "+" as a sum: a region name is a plain NAME to it, and "+" binds looser than "×".
# So ``山札+捨て札[p] × 2`` parses as 山札 + (捨て札[p] × 2). ``regroup_regions`` gives
# the written 合算 back its meaning before anything else reads the expression: a run of
# region names joined by "+" whose parts form a 合算 becomes the one reference it names,
# the subscript (on its last name) applying to the whole — what ``deck[p]`` means in
# ASCII (DESIGN §6.1). A run whose parts form no 合算 is left alone (E010/E036 later).
# The runs are dsl/region_sums.py's, which the formatter writes tight by too.


def _region_of(node, *, bare: bool):
    """The region a plain reference names (``bare``: without a subscript), or None."""
    if not isinstance(node, ast.Ref) or node.is_flag or (bare and node.subscript is not None):
        return None
    if node.subscript is not None and node.subscript.anchor is not None:
        return None
    return vocab.lookup("region", node.name.text)


def _chain(expr, ops: str) -> tuple[list, list[str]]:
    """The operands and operators of a left-leaning chain of ``ops`` (a + b - c)."""
    if isinstance(expr, ast.BinOp) and expr.op in ops:
        operands, found = _chain(expr.left, ops)
        return operands + [expr.right], found + [expr.op]
    return [expr], []


def _rebuild(operands: list, ops: list[str]):
    tree = operands[0]
    for op, right in zip(ops, operands[1:]):
        span = replace(tree.span, end_line=right.span.end_line, end_col=right.span.end_col)
        tree = ast.BinOp(op, tree, right, span)
    return tree


def regroup_regions(expr):
    """``expr`` with every written 合算 read as one reference (see above)."""
    if isinstance(expr, ast.Compare):
        return ast.Compare(tuple(map(regroup_regions, expr.operands)), expr.ops, expr.span)
    if isinstance(expr, ast.Neg):
        return ast.Neg(regroup_regions(expr.operand), expr.span)
    if isinstance(expr, ast.Abs):
        return ast.Abs(regroup_regions(expr.operand), expr.span)
    if not isinstance(expr, ast.BinOp):
        return expr
    terms, ops = _chain(expr, "+-")
    # each term as its factors: a parenthesised sum inside is regrouped on its own
    terms = [_chain(t, "*/") for t in terms]
    terms = [([regroup_regions(f) for f in factors], fops) for factors, fops in terms]
    runs = {i: (j, region) for i, j, region in
            region_runs([factors for factors, _ in terms], ops, _region_of)}
    out_terms, out_ops = [terms[0]], []
    i = 0
    while i < len(ops):
        run = runs.get(i)
        if run is None:
            out_terms.append(terms[i + 1])
            out_ops.append(ops[i])
            i += 1
            continue
        j, region = run  # terms i..j read as one reference
        first, last = out_terms[-1], terms[j]
        names = [first[0][-1], *(terms[k][0][0] for k in range(i + 1, j + 1))]
        tail = names[-1]
        span = replace(names[0].span, end_line=tail.span.end_line, end_col=tail.span.end_col)
        name_span = replace(span, end_line=tail.name.span.end_line,
                            end_col=tail.name.span.end_col)
        merged = ast.Ref(ast.Name(region.ja, name_span), tail.subscript, False, span)
        factors = first[0][:-1] + [merged] + last[0][1:]
        out_terms[-1] = (factors, first[1] + last[1])
        i = j
    return _rebuild([_rebuild(f, fo) for f, fo in out_terms], out_ops)


def check_page_ref(name: ast.Name, ctx: Ctx) -> str | None:
    """The page id ``name`` names, or None after E011 (with a did-you-mean) when no page of
    the run has it."""
    pages = getattr(ctx.symbols, "pages", {})
    if name.text in pages:
        return name.text
    unread = unread_reference(ctx.symbols, name.text)
    if unread == "":  # its definition could not be read: that error says why
        return None
    hint, replacements = id_hint(name.text, pages, "ページ")
    ctx.add(E011.at(name.span, f"ページ「{name.text}」は定義されていません",
                    hint=unread or hint, replacements=() if unread else replacements))
    return None


# ------------------------------------------------------------------ numbers


def check_number(number: ast.Number, ctx: Ctx) -> float | int | None:
    """The value of a number literal, or None after E033 when it is not finite (a number of
    too many digits reads as infinity, dsl.transform.number_value)."""
    if not math.isfinite(number.value):
        ctx.add(E033.at(number.span, f"数「{number.text[:20]}」は大きすぎるか有限ではありません",
                        hint="年・枚数・倍率として意味のある大きさにしてください"))
        return None
    return number.value


def first_compare(expr) -> ast.Compare | None:
    """The first comparison inside an expression (depth first), or None: a base value may
    not hold one (E025)."""
    if isinstance(expr, ast.Compare):
        return expr
    for child in _children(expr):
        found = first_compare(child)
        if found is not None:
            return found
    return None


def _children(expr):
    if isinstance(expr, ast.BinOp):
        return (expr.left, expr.right)
    if isinstance(expr, (ast.Neg, ast.Abs)):
        return (expr.operand,)
    if isinstance(expr, ast.Compare):
        return expr.operands
    return ()


# -------------------------------------------------------------------- values

_SHAPE_HINT = f"基準値は 12 のような定数か、{W.counter.steps_used}[{W.scope.play}] × 0.5 のような「参照カウンタ × 係数」です"


def check_base(expr, ctx: Ctx, effect: bool = True) -> Const | Scaled | None:
    """The base value (a constant, or a reference × coefficient), or None after diagnostics.
    ``effect``: the value of a 作用 (not a field's), where a tail keyword alone is its
    value left out."""
    if effect and isinstance(expr, ast.Ref) and expr.subscript is None and \
            not expr.is_flag and tail_keyword(expr.name.text) is not None:
        # 防御 += 固定: the value left out, the keyword after it read as the value — or a
        # name misspelt (寿命 for 寿命上限), which the did-you-mean still offers
        meant = guess(expr.name.text, _reference_spellings())
        ctx.add(E010.at(expr.name.span, f"「{expr.name.text}」は値ではありません",
                        hint=value_left_out(expr.name.text) + (
                            f"。変数のつもりなら、{meant.hint}" if meant.word else ""),
                        replacements=meant.replacements))
        return None
    expr = regroup_regions(expr)
    compare = first_compare(expr)
    if compare is not None:
        ctx.add(E025.at(compare.span))
        return None
    return _fold(expr, ctx)


def _fold(expr, ctx: Ctx) -> Const | Scaled | None:
    if isinstance(expr, ast.Number):
        value = check_number(expr, ctx)
        return None if value is None else Const(value)
    if isinstance(expr, ast.Ref):
        ref = check_ref(expr, ctx)
        if ref is None:
            return None
        if isinstance(ref, Word):
            ctx.add(E036.at(expr.span, f"「{expr.name.text}」は条件の語で、値として読めません",
                            hint=f"条件 {W.condition_word.crosses} のように{W.scope.play}条件に書いてください"))
            return None
        return Scaled(ref, 1)
    if isinstance(expr, ast.Neg):
        inner = _fold(expr.operand, ctx)
        return None if inner is None else _scale(inner, -1)
    if isinstance(expr, ast.BinOp):
        left, right = _fold(expr.left, ctx), _fold(expr.right, ctx)
        if left is None or right is None:
            return None
        folded = None
        if expr.op == "*":
            if isinstance(left, Const):
                folded = _scale(right, left.value)
            elif isinstance(right, Const):
                folded = _scale(left, right.value)
        elif expr.op == "/":
            if isinstance(right, Const):
                if right.value == 0:
                    ctx.add(E032.at(expr.right.span))
                    return None
                folded = _scale(left, 1 / right.value) if isinstance(left, Scaled) \
                    else Const(left.value / right.value)
        elif isinstance(left, Const) and isinstance(right, Const):
            sign = 1 if expr.op == "+" else -1
            folded = Const(left.value + sign * right.value)
        if folded is not None:
            # Each literal is finite, but their product or sum may not be (1e300 * 1e300).
            if not _finite(number_of(folded)):
                ctx.add(E033.at(expr.span, "計算した値が大きすぎるか有限ではありません",
                                hint="年・枚数・倍率として意味のある大きさにしてください"))
                return None
            return folded
    ctx.add(E036.at(expr.span, "この形の基準値は使えません",
                    hint=_SHAPE_HINT + "。2つの量を足すなら作用を2つに分けます"))
    return None


def number_of(base: Const | Scaled):
    """The number a base value is written with: a constant's value, a coefficient."""
    return base.value if isinstance(base, Const) else base.coef


def _scale(base: Const | Scaled, factor) -> Const | Scaled:
    if isinstance(base, Const):
        return Const(base.value * factor)
    return Scaled(base.ref, base.coef * factor)


def _finite(value) -> bool:
    """Finite and representable as a float (an int of 400 digits is neither)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def constant(expr, ctx: Ctx, what: str) -> int | float | None:
    """A field value that must be a plain number (銘, HP, 座 …)."""
    base = check_base(expr, ctx, effect=False)
    if base is None:
        return None
    if not isinstance(base, Const):
        ctx.add(E036.at(expr.span, f"{what}には定数を書きます"))
        return None
    if not _finite(base.value):
        ctx.add(E033.at(expr.span, f"{what}が大きすぎます"))
        return None
    return base.value


# ---------------------------------------------------------------- conditions

#: Which condition families each kind of condition may read.
_CONDITION_KINDS = {
    "play": {"position", "budget", "region_count", "page_count", "remaining", "cumulative",
             "resource", "flag"},
    "appears": {"appearance", "flag"},
}

#: The condition family (spec 002 プレイ条件) a reference of each kind belongs to; a
#: variable's is the vocabulary's ``cond_kind`` (None: it cannot be compared).
CONDITION_FAMILIES = {
    CounterRef: lambda ref: "cumulative",
    VariableRef: lambda ref: vocab.tables()["variable"].by_code(ref.variable).cond_kind,
    FlagRef: lambda ref: "flag",
    RegionCountRef: lambda ref: "region_count",
    PageCountRef: lambda ref: "page_count",
    PageAttrRef: lambda ref: "position",
    DistanceRef: lambda ref: "position",
    TilesPassedRef: lambda ref: "appearance",
}

#: A condition written as one name alone: a condition word, or a flag that is not 0.
_BARE_CONDITIONS = {
    Word: lambda word: Condition("position", word.code, (), ()),
    FlagRef: lambda flag: Condition("flag", "nonzero", (flag,), ()),
}


def check_conditions(exprs, ctx: Ctx, purpose: str = "play") -> list[Condition | None]:
    """A list of conditions (``check_condition`` of each); a bare number split off a number
    written with a thousands separator (歩 >= 1,000: the list's comma made 000 a
    condition of its own) is told so."""
    tails = _grouped_tails(exprs)
    return [check_condition(expr, ctx, purpose, tails.get(i)) for i, expr in enumerate(exprs)]


#: The digits before a number's first thousands separator, and those each one leaves
#: after it.
_GROUP_HEAD, _GROUP_TAIL = re.compile(r"\d{1,3}"), re.compile(r"\d{3}(?:\.\d+)?")


def _grouped_tails(exprs) -> dict[int, str]:
    """Of a list of conditions, each bare number that follows a number with only a comma
    between them, three digits long: its index → the number meant (1,000,000 → 1000000)."""
    tails: dict[int, str] = {}
    for i in range(1, len(exprs)):
        before, expr = exprs[i - 1], exprs[i]
        head = before.operands[-1] if isinstance(before, ast.Compare) else before
        if isinstance(expr, ast.Number) and isinstance(head, ast.Number) and \
                _GROUP_TAIL.fullmatch(expr.text) and \
                (i - 1 in tails or _GROUP_HEAD.fullmatch(head.text)) and \
                (expr.span.line, expr.span.col) == (head.span.end_line, head.span.end_col + 1):
            tails[i] = tails.get(i - 1, head.text) + expr.text
    for i in sorted(tails, reverse=True):  # each tail of one number names all of it
        if i + 1 in tails:
            tails[i] = tails[i + 1]
    return tails


def check_condition(expr, ctx: Ctx, purpose: str = "play",
                    grouped: str | None = None) -> Condition | None:
    """One play (or appearance) condition; None after diagnostics. ``grouped``: the
    number meant when this one is the tail of a number with thousands separators."""
    allowed = _CONDITION_KINDS[purpose]
    expr = regroup_regions(expr)
    if isinstance(expr, ast.Ref) and not isinstance(expr, ast.Compare):
        ref = check_ref(expr, ctx)
        if ref is None:
            return None
        bare = _BARE_CONDITIONS.get(type(ref))
        if bare is not None and (purpose == "play" or not isinstance(ref, Word)):
            return bare(ref)
        ctx.add(E041.at(expr.span, f"「{expr.name.text}」だけでは条件になりません",
                        hint=f"比較を書いてください。例: {W.variable.steps} >= 10 ／ {W.region.hand} >= 3"))
        return None
    if not isinstance(expr, ast.Compare):
        ctx.add(E041.at(expr.span, "条件になっていません",
                        hint=thousands_hint(grouped) if grouped else
                        f"「量 比較 数」の形で書きます。例: {W.variable.age} >= 30 ／ |{W.variable.year} - {W.variable.age}| >= 10"))
        return None
    families, terms = [], []
    for operand in expr.operands:
        quantity = _quantity(operand, ctx)
        if quantity is False:
            return None
        if quantity is None:
            value = constant(operand, ctx, "比較する数")
            if value is None:
                return None
            terms.append(Const(value))
        else:
            ref, family = quantity
            families.append(family)
            terms.append(ref)
    if len(families) != 1:
        ctx.add(E041.at(expr.span, "条件は1つの量を定数と比べます",
                        hint=f"例: {W.counter.crossings}[{W.scope.turn}] >= 2 ／ 20 <= {W.variable.age} <= 40"))
        return None
    if families[0] not in allowed:
        what = "出現条件" if purpose == "appears" else f"{W.scope.play}条件"
        ctx.add(E041.at(expr.span, f"この量は{what}では読めません",
                        hint=f"出現条件が読めるのは {W.variable.stages_cleared}・通過したマス[種別]・内部フラグです"
                             if purpose == "appears" else f"{W.scope.play}条件が読めるのは spec 002 {W.scope.play}条件の表の量です"))
        return None
    return Condition(families[0], "compare", tuple(terms), tuple(expr.ops))


def _quantity(expr, ctx: Ctx):
    """(reference, condition family) of the quantity an operand reads, None for a
    constant, False after a diagnostic."""
    if isinstance(expr, (ast.Number, ast.Neg)) and not _has_ref(expr):
        return None
    if isinstance(expr, ast.Abs) and _is_distance(expr.operand):
        return DistanceRef(), "position"
    if isinstance(expr, ast.Ref):
        ref = check_ref(expr, ctx)
        if ref is None:
            return False
        family = CONDITION_FAMILIES.get(type(ref), lambda ref: None)(ref)
        if family is None:
            ctx.add(E041.at(expr.span, f"「{expr.name.text}」は比べられる量ではありません"))
            return False
        return ref, family
    ctx.add(E041.at(expr.span, "条件で比べられるのは1つの量です",
                    hint=f"例: {W.variable.age} >= 30 ／ |{W.variable.year} - {W.variable.age}| >= 10 ／ {W.region.deck} >= 5"))
    return False


def _has_ref(expr) -> bool:
    return isinstance(expr, ast.Ref) or any(_has_ref(c) for c in _children(expr))


def _is_distance(expr) -> bool:
    if not (isinstance(expr, ast.BinOp) and expr.op == "-"):
        return False
    names = {getattr(getattr(side, "name", None), "text", None) for side in (expr.left, expr.right)}
    year = set(vocab.lookup("variable", "year").spellings())
    age = set(vocab.lookup("variable", "age").spellings())
    return bool(names & year) and bool(names & age)
