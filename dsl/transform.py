"""Parse tree → AST. The transformer only builds nodes; meaning is checked elsewhere —
but for a name that cannot be shown on one line (W016), which only the decoded name tells
and which the parser reports (``ToAst.broken_names``)."""

from __future__ import annotations

import unicodedata

from lark import Token, Transformer, v_args

from . import ast
from .diagnostics import Span

#: Unicode spellings of operators, normalised so later passes see one form.
_OPS = {
    "−": "-", "×": "*", "÷": "/", "≥": ">=", "≤": "<=", "≠": "!=",
    "−=": "-=", "×=": "*=",
}
#: Digits beyond this are no longer a number a designer meant; the compiler rejects them.
_MAX_DIGITS = 30


def _op(text: str) -> str:
    return _OPS.get(text, text)


def number_value(text: str) -> int | float:
    """The value of a number token: an int, a float when it has a point or an exponent, or
    infinity past _MAX_DIGITS digits (which the compiler rejects, E033)."""
    if len(text) > _MAX_DIGITS:
        return float("inf")
    if any(c in text for c in ".eE"):
        return float(text)
    return int(text)


class ToAst(Transformer):
    """Builds :mod:`dsl.ast` nodes; every node gets the span of its rule or token."""

    def __init__(self, path: str, line_offset: int = 0):
        super().__init__(visit_tokens=False)
        self.path = path
        self.line_offset = line_offset  # the parsed text starts on line line_offset + 1
        #: W016: each name holding a line break, a tab or another control character
        self.broken_names: list = []

    # ---------------------------------------------------------------- helpers
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 0, 0, 0, 0)
        off = self.line_offset
        return Span(self.path, meta.line + off, meta.column, meta.end_line + off, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        off = self.line_offset
        return Span(self.path, tok.line + off, tok.column, tok.end_line + off, tok.end_column)

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), self._tok_span(tok))

    def _number(self, tok: Token) -> ast.Number:
        return ast.Number(number_value(str(tok)), str(tok), self._tok_span(tok))

    # ---------------------------------------------------------------- file
    def start(self, children):
        return tuple(children)

    @v_args(meta=True)
    def title(self, meta, children):
        text = str(children[0])
        if text.startswith('"'):
            value = _unquote(text)
        elif text.startswith("「"):
            value = text[1:-1]
        else:
            return text
        if any(map(_control, value)):
            self.broken_names.append(_broken_name(value, text, self._tok_span(children[0])))
        return value

    # ---------------------------------------------------------------- pages
    @v_args(meta=True)
    def page(self, meta, children):
        ident, title, *parts = children
        return ast.Page(
            id=self._name(ident),
            title=title,
            fields=tuple(p for p in parts if isinstance(p, ast.Field)),
            faces=tuple(p for p in parts if isinstance(p, ast.Face)),
            pens=tuple(p for p in parts if isinstance(p, ast.Pen)),
            tears=tuple(p for p in parts if isinstance(p, ast.Tear)),
            span=self._span(meta),
        )

    def _field(key):
        @v_args(meta=True)
        def build(self, meta, children):
            value = children[0]
            if isinstance(value, Token):
                value = _unquote(str(value)) if value.type == "STRING" else self._name(value)
            return ast.Field(key, value, self._span(meta))
        return build

    year_field = _field("year")
    fray_mul_field = _field("fray_mul")
    origin_field = _field("origin")
    dest_field = _field("dest")
    deck_cap_field = _field("deck_cap")
    flavor = _field("flavor")
    hp_field = _field("hp")
    seat_field = _field("seat")
    breakthrough_field = _field("breakthrough")

    @v_args(meta=True)
    def target_field(self, meta, children):
        measure, low, _range, high = children
        target = ast.BalanceTarget(self._name(measure), low, high, self._span(meta))
        return ast.Field("target", target, self._span(meta))

    @v_args(meta=True)
    def percent(self, meta, children):
        # (PLUS | MINUS)? NUMBER PERCENT?: the tokens say which parts were written
        kinds = {tok.type: tok for tok in children}
        value = number_value(str(kinds["NUMBER"]))
        if "MINUS" in kinds:
            value = -value
        text = "".join(str(tok) for tok in children)
        return ast.Percent(value, text, "PERCENT" in kinds, self._span(meta))

    @v_args(meta=True)
    def appears_field(self, meta, children):
        exprs, _spans = children[0]
        return ast.Field("appears", exprs, self._span(meta))

    def future(self, _):
        return "future"

    def past(self, _):
        return "past"

    def blank(self, _):
        return None

    @v_args(meta=True)
    def face(self, meta, children):
        side, body = children
        return ast.Face(side, body, self._span(meta))

    @v_args(meta=True)
    def pen(self, meta, children):
        side, body = children
        return ast.Pen(side, body, self._span(meta))

    @v_args(meta=True)
    def tear(self, meta, children):
        return ast.Tear(children[0], self._span(meta))

    @v_args(meta=True)
    def body(self, meta, children):
        conditions, spans, sayou = [], [], []
        for child in children:
            if child is None:
                continue
            if isinstance(child, ast.Sayou):
                sayou.append(child)
            else:
                exprs, cspans = child
                conditions.extend(exprs)
                spans.extend(cspans)
        return ast.Body(tuple(conditions), tuple(spans), tuple(sayou), self._span(meta))

    def condition(self, children):
        return children[0]

    def conds(self, children):
        exprs = tuple(c for c in children if not isinstance(c, Token))
        return exprs, tuple(_expr_span(e) for e in exprs)

    # ---------------------------------------------------------------- 作用
    def _sayou(self, meta, form, *, target=None, op=None, value=None, count=None,
               source=None, dest=None, rest=()):
        options = tuple(r for r in rest if isinstance(r, ast.MoveOption))
        tails = tuple(r for r in rest if isinstance(r, ast.Tail))
        return ast.Sayou(form, target, _op(str(op)) if op is not None else None, value, count,
                         source, dest, options, tails, self._span(meta))

    @v_args(meta=True)
    def numeric(self, meta, children):
        target, op, value, *rest = children
        return self._sayou(meta, "numeric", target=target, op=op, value=value, rest=rest)

    @v_args(meta=True)
    def cap(self, meta, children):
        target, op, value, *rest = children
        return self._sayou(meta, "cap", target=target, op=op, value=value, rest=rest)

    @v_args(meta=True)
    def suppress(self, meta, children):
        target, *rest = children
        return self._sayou(meta, "suppress", target=target, rest=rest)

    @v_args(meta=True)
    def pay(self, meta, children):
        target, value, *rest = children
        return self._sayou(meta, "pay", target=target, value=value, rest=rest)

    @v_args(meta=True)
    def move(self, meta, children):
        count, source, _arrow, dest, *rest = children
        return self._sayou(meta, "move", count=count, source=source, dest=dest, rest=rest)

    @v_args(meta=True)
    def duplicate(self, meta, children):
        count, source, _arrow, dest, *rest = children
        return self._sayou(meta, "duplicate", count=count, source=source, dest=dest, rest=rest)

    @v_args(meta=True)
    def reveal(self, meta, children):
        count, source, *rest = children
        return self._sayou(meta, "reveal", count=count, source=source, rest=rest)

    @v_args(meta=True)
    def generate(self, meta, children):
        count, *rest = children
        arrow = next(i for i, c in enumerate(rest) if isinstance(c, Token) and c.type == "ARROW")
        options, dest, tails = rest[:arrow], rest[arrow + 1], rest[arrow + 2:]
        return self._sayou(meta, "generate", count=count, dest=dest,
                           rest=(*options, *tails))

    @v_args(meta=True)
    def target(self, meta, children):
        name = children[0]
        if name.type == "FLAG":
            return ast.Target(self._name(name), None, True, self._span(meta))
        return ast.Target(self._name(name), children[1], False, self._span(meta))

    def count(self, children):
        return self._number(children[0])

    @v_args(meta=True)
    def region(self, meta, children):
        parts = tuple(self._name(t) for t in children if t.type == "NAME")
        return ast.RegionExpr(parts, self._span(meta))

    def _option(kind):
        @v_args(meta=True)
        def build(self, meta, children):
            value = children[0]
            if isinstance(value, Token):
                value = self._name(value)
            return ast.MoveOption(kind, value, self._span(meta))
        return build

    pick = _option("pick")
    origin_filter = _option("origin")
    year_filter = _option("year")
    page_filter = _option("page")

    def _tail(kind, landing=None):
        @v_args(meta=True)
        def build(self, meta, children):
            children = [c for c in children if c is not None]
            value = children[0] if children else landing
            if isinstance(value, Token):
                value = self._number(value) if value.type == "NUMBER" else self._name(value)
            return ast.Tail(kind, value, self._span(meta))
        return build

    life = _tail("life")
    at = _tail("at")
    until = _tail("until")
    max_fires = _tail("max_fires")
    telegraphed = _tail("telegraphed")

    @v_args(meta=True)
    def fixed(self, meta, _):
        return ast.Tail("landing", ast.Name("fixed", self._span(meta)), self._span(meta))

    @v_args(meta=True)
    def modified(self, meta, _):
        return ast.Tail("landing", ast.Name("modified", self._span(meta)), self._span(meta))

    @v_args(meta=True)
    def scope(self, meta, children):
        return ast.Scope(self._name(children[0]), None, self._span(meta))

    @v_args(meta=True)
    def anchored(self, meta, children):
        n, unit = children
        return ast.Scope(self._name(unit), self._number(n), self._span(meta))

    @v_args(meta=True)
    def range(self, meta, children):
        low, _dots, high = children
        return ast.Range(low, high, self._span(meta))

    # ---------------------------------------------------------------- expressions
    @v_args(meta=True)
    def compare(self, meta, children):
        operands = tuple(children[0::2])
        ops = tuple(_op(str(t)) for t in children[1::2])
        return ast.Compare(operands, ops, self._span(meta))

    @v_args(meta=True)
    def binop(self, meta, children):
        left, op, right = children
        return ast.BinOp(_op(str(op)), left, right, self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, children):
        return ast.Neg(children[1], self._span(meta))

    @v_args(meta=True)
    def abs(self, meta, children):
        return ast.Abs(children[0], self._span(meta))

    def number(self, children):
        return self._number(children[0])

    @v_args(meta=True)
    def ref(self, meta, children):
        name = children[0]
        if name.type == "FLAG":
            return ast.Ref(self._name(name), None, True, self._span(meta))
        return ast.Ref(self._name(name), children[1], False, self._span(meta))

    def subscript(self, children):
        return children[0]

    # ---------------------------------------------------------------- enemies
    @v_args(meta=True)
    def enemy(self, meta, children):
        ident, title, *parts = children
        intents = tuple(p for p in parts if isinstance(p, _IntentList))
        traits_blocks = [p for p in parts if isinstance(p, _TraitBlock)]
        return ast.Enemy(
            id=self._name(ident),
            title=title,
            fields=tuple(p for p in parts if isinstance(p, ast.Field)),
            intents=tuple(i.intents for i in intents),
            intents_spans=tuple(i.span for i in intents),
            escalations=tuple(p for p in parts if isinstance(p, ast.Escalation)),
            traits=tuple(t for b in traits_blocks for t in b.lines if isinstance(t, ast.Trait)),
            trait_sayou=tuple(t for b in traits_blocks for t in b.lines
                              if isinstance(t, ast.Sayou)),
            span=self._span(meta),
        )

    @v_args(meta=True)
    def intents_field(self, meta, children):
        intents = tuple(c for c in children if isinstance(c, ast.Intent))
        return _IntentList(intents, self._span(meta))

    @v_args(meta=True)
    def intent(self, meta, children):
        kind, arg = children
        if isinstance(arg, Token):
            return ast.Intent(self._name(kind), self._number(arg), None, self._span(meta))
        return ast.Intent(self._name(kind), None, arg, self._span(meta))

    @v_args(meta=True)
    def escalation_field(self, meta, children):
        every, intent = children
        return ast.Escalation(self._number(every), intent, self._span(meta))

    @v_args(meta=True)
    def traits_field(self, meta, children):
        return _TraitBlock(tuple(c for c in children if c is not None))

    @v_args(meta=True)
    def trait(self, meta, children):
        name, arg = children
        return ast.Trait(self._name(name), arg, self._span(meta))

    # ---------------------------------------------------------------- balance, deck
    @v_args(meta=True)
    def balance(self, meta, children):
        title, *parts = children
        return ast.Balance(
            title=title,
            settings=tuple(p for p in parts if isinstance(p, ast.Setting)),
            rewards=tuple(p for p in parts if isinstance(p, ast.Body)),
            span=self._span(meta),
        )

    @v_args(meta=True)
    def setting(self, meta, children):
        name, value = children
        return ast.Setting(self._name(name), value, self._span(meta))

    def reward(self, children):
        return children[0]

    @v_args(meta=True)
    def deck(self, meta, children):
        ident, title, *entries = children
        return ast.Deck(self._name(ident), title,
                        tuple(e for e in entries if isinstance(e, ast.DeckEntry)),
                        self._span(meta))

    @v_args(meta=True)
    def deck_entry(self, meta, children):
        name, _times, count = children
        return ast.DeckEntry(self._name(name),
                             self._number(count) if count is not None else None,
                             self._span(meta))

    # ---------------------------------------------------------------- 旅 (spec 004)
    @v_args(meta=True)
    def journey(self, meta, children):
        kind, ident, title, *fields = children
        return ast.JourneyItem(kind, self._name(ident), title,
                               tuple(f for f in fields if isinstance(f, ast.JourneyField)),
                               self._span(meta),
                               tuple(f for f in fields if isinstance(f, ast.Field)))

    def kind_location(self, _children):
        return "location"

    def kind_event(self, _children):
        return "event"

    def kind_flag(self, _children):
        return "flag"

    def kind_item(self, _children):
        return "item"

    def kind_letter(self, _children):
        return "letter"

    def kind_setup(self, _children):
        return "setup"

    @v_args(meta=True)
    def jfield(self, meta, children):
        key, *values = children
        return ast.JourneyField(self._name(key), tuple(values), self._span(meta))

    def jname(self, children):
        return self._name(children[0])

    def jnumber(self, children):
        return self._number(children[0])

    def jtext(self, children):
        text = str(children[0])
        return ast.Text(_unquote(text) if text.startswith('"') else text[1:-1],
                        self._tok_span(children[0]))

    @v_args(meta=True)
    def jlist(self, meta, children):
        return ast.ValueList(tuple(c for c in children if c is not None), self._span(meta))

    # ---------------------------------------------------------------- examples
    @v_args(meta=True)
    def example(self, meta, children):
        title, *lines = children
        enemies, seed, deck, steps, seeds_again = [], None, None, [], []
        for line in lines:
            if isinstance(line, ast.Step):
                steps.append(line)
            elif isinstance(line, tuple) and line and line[0] == "enemy":
                enemies.extend(line[1])
            elif isinstance(line, tuple) and line and line[0] == "deck":
                deck = (deck or ()) + line[1]
            elif isinstance(line, ast.Number):
                if seed is None:
                    seed = line
                else:
                    seeds_again.append(line)
        return ast.Example(title, tuple(enemies), seed, deck, tuple(steps), self._span(meta),
                           tuple(seeds_again))

    def ex_enemy(self, children):
        return ("enemy", tuple(self._name(t) for t in children))

    def ex_seed(self, children):
        return self._number(children[0])

    def ex_deck(self, children):
        return ("deck", tuple(self._name(t) for t in children
                              if isinstance(t, Token) and t.type == "NAME"))

    def _step(kind):
        @v_args(meta=True)
        def build(self, meta, children):
            pages, side, refused, checks, settings = [], None, None, (), ()
            for child in children:
                if isinstance(child, Token) and child.type == "NAME":
                    pages.append(self._name(child))
                elif child in ("future", "past"):
                    side = child
                elif isinstance(child, _Refused):
                    refused = child.reason if child.reason is not None else True
                elif isinstance(child, ast.Setting):
                    settings += (child,)
                elif isinstance(child, tuple) and child and not isinstance(child[0], Token):
                    checks = child[0]
            return ast.Step(kind, tuple(pages), side, refused, checks, settings,
                            self._span(meta))
        return build

    set_step = _step("set")
    play_step = _step("play")
    pen_step = _step("pen")
    tear_step = _step("tear")
    end_step = _step("end")
    choose_step = _step("choose")
    expect_step = _step("expect")

    @v_args(meta=True)
    def ex_setting(self, meta, children):
        name, value = children
        return ast.Setting(self._name(name), value, self._span(meta))

    @v_args(meta=True)
    def ex_setting_sub(self, meta, children):
        # 防御[ステージ] 10: a setting of one kind (the lifetime of defense, say)
        name, sub, value = children
        return ast.Setting(self._name(name), value, self._span(meta), self._name(sub))

    @v_args(meta=True)
    def ex_setting_list(self, meta, children):
        name, *pages = children
        return ast.Setting(self._name(name), tuple(self._name(p) for p in pages if p is not None),
                           self._span(meta))

    def refused(self, children):
        text = children[0]
        return _Refused(_unquote(str(text)) if text is not None else None)

    del _field, _option, _tail, _step


class _Refused:
    def __init__(self, reason):
        self.reason = reason


class _IntentList:
    def __init__(self, intents, span):
        self.intents, self.span = intents, span


class _TraitBlock:
    def __init__(self, lines):
        self.lines = lines


def _expr_span(expr) -> Span:
    return expr.span


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _control(char: str) -> bool:
    """A control character (a line break, a tab …): none belongs in a name."""
    return unicodedata.category(char) == "Cc"


def _broken_name(value: str, written: str, span: Span):
    """W016 for a name ``value`` (as ``written``) with control characters: shown with its
    escapes, and fixed by writing it without them."""
    from .codes import W016

    shown = "".join({"\n": "\\n", "\t": "\\t"}.get(c, f"\\x{ord(c):02x}") if _control(c) else c
                    for c in value)
    kinds = [word for char, word in (("\n", "改行"), ("\t", "タブ")) if char in value]
    if any(_control(c) and c not in "\n\t" for c in value):
        kinds.append("制御文字")
    kept = "".join(c for c in value if not _control(c))
    fixed = ('"' + kept.replace("\\", "\\\\").replace('"', '\\"') + '"'
             if written.startswith('"') else f"「{kept}」")
    return W016.at(span, name=shown, what="と".join(kinds), replacements=(fixed,))


def _unquote(text: str) -> str:
    """Decode a ``"..."`` string literal; unknown escapes keep their character."""
    body = text[1:-1]
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
