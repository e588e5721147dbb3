"""ルール文 — natural Japanese rules text generated from the compiled 作用.

Rules text can never drift from behaviour because it is made from the same tables the
runtime executes. Each term has its own phrasing rule (the tables below, one row per
reference class, base class, operation code, firing mode and condition test); every term
that is not implied by the others appears in the text, so two 作用 that differ in any term
never read the same. Every word of the vocabulary — names and display phrases — comes from
``contract.vocabulary``, structural keywords included (``keyword``); what is written
here is only the glue between them. docs/phrasing.md says why each phrase reads as it does.

Each rule says its text as pieces (``Piece``): the words of one vocabulary entry, which
the catalog links to that entry of its vocabulary page, or glue. ``phrase`` and
``body_lines`` join them into plain text for the terminal and the editor.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Callable

from contract import vocabulary as vocab
from contract.tables import (Condition, Const, CounterRef, DistanceRef, Filter, FlagRef,
                             PageAttrRef, PageCountRef, RegionCountRef, Repeat, Sayou, Scaled,
                             TilesPassedRef, VariableRef)
from runtime.tearing import grown

__all__ = ["Piece", "base_text", "body_lines", "body_pieces", "condition_pieces",
           "condition_text", "number", "phrase", "phrase_pieces", "ref_text", "term",
           "text", "torn", "EXCESS_GROWS", "INTENT_TEXT", "fixed_note", "escalation_text",
           "trait_text"]


@cache
def term(table: str, code: str) -> vocab.Term:
    """The vocabulary entry of ``code`` in ``table`` (the tables were checked against the
    vocabulary when they were loaded, so every code has one)."""
    entry = vocab.tables()[table].by_code(code)
    if entry is None:
        raise KeyError(f"{table} {code!r} is not in contract.vocabulary")
    return entry


def keyword(code: str) -> str:
    """The canonical (Japanese) spelling of a structural keyword (contract.vocabulary)."""
    return vocab.KEYWORDS[code][0]


def number(value) -> str:
    """A number as rules text prints it: a whole float without its ``.0`` (12.0 → 12),
    anything else as its repr."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


# ---------------------------------------------------------------------- pieces


@dataclass(frozen=True, slots=True)
class Piece:
    """語片 — a run of rules text: the words of one vocabulary entry (``section`` and
    ``code`` of its row in contract.reference, the anchor of the vocabulary page), or
    glue between entries (``section`` None). Designer text (a flag's or a page's name)
    is a piece like any other: the page escapes it as text."""

    text: str
    section: str | None = None
    code: str | None = None

    @property
    def anchor(self) -> str | None:
        """The id of the entry on the vocabulary page (contract.reference.Entry.anchor); a
        page named in the text has none."""
        return f"{self.section}-{self.code}" if self.section not in (None, PAGE) else None


#: The ``section`` of a piece that names a page by its id (「nyuugaku」): ``named`` says it
#: by the page's name where the pages are known (the catalog, the printed cards).
PAGE = "page"


def page_piece(page_id: str) -> Piece:
    """A page named in rules text, by its id until ``named``."""
    return Piece(f"「{page_id}」", PAGE, page_id)


def named(pieces: Said, names: dict[str, str]) -> Said:
    """``pieces`` with each page they name said by its name (``names``: id → name), as a
    reader of a card knows it: 「入学式」, not 「nyuugaku」."""
    return tuple(Piece(f"「{names[p.code]}」", PAGE, p.code)
                 if p.section == PAGE and p.code in names else p for p in pieces)


Said = tuple[Piece, ...]


def said(*parts) -> Said:
    """Pieces from strings (glue), pieces and nested sequences of them, in order; empty
    runs dropped and neighbouring glue joined."""
    out: list[Piece] = []

    def walk(part):
        if isinstance(part, str):
            part = Piece(part)
        if isinstance(part, Piece):
            if not part.text:
                return
            if out and part.section is None and out[-1].section is None:
                out[-1] = Piece(out[-1].text + part.text)
            else:
                out.append(part)
            return
        for item in part:
            walk(item)

    walk(parts)
    return tuple(out)


def _joined(parts, sep: str) -> list:
    """Runs of pieces with the glue ``sep`` between each two (「・」, 「、」), for ``said``."""
    return [piece for i, part in enumerate(parts) for piece in ((sep,) if i else ()) + part]


def text(pieces: Said) -> str:
    """The plain text of pieces."""
    return "".join(p.text for p in pieces)


def word(section: str, code: str, words: str) -> Piece:
    """``words`` as the entry ``code`` of the reference's ``section`` says itself."""
    return Piece(words, section, code)


def _named(section: str, code: str) -> Piece:
    return word(section, code, term(section, code).ja)


def scope_pieces(scope: str, unit: str | None, n: int | None) -> Said:
    """A scope as a reference's subscript: このターン, or 以降 2 プレイ."""
    if scope == vocab.ANCHORED:
        return said(word("scope", scope, _anchored(unit, n)))
    return said(word("scope", scope, term("scope", scope).said()))


def _anchored(unit: str | None, n: int | None) -> str:
    return vocab.ANCHORED_PHRASE.format(n=n, unit=term("anchor_unit", unit).ja)


def _region(code: str) -> Piece:
    return _named("region", code)


# ------------------------------------------------------------------ references
# One row per reference class of contract.tables.REFS (a test holds them equal).

REF_TEXT: dict[type, Callable[..., Said]] = {
    CounterRef: lambda r: said(_named("counter", r.counter), "［",
                               scope_pieces(r.scope, r.unit, r.n), "］"),
    VariableRef: lambda r: said(_named("variable", r.variable)),
    FlagRef: lambda r: said(word("variable", vocab.FLAG.code,
                                 vocab.FLAG.said().format(flag=r.flag))),
    RegionCountRef: lambda r: said(_region(r.region), "の枚数"),
    PageCountRef: lambda r: said(_region(r.region), "にある", page_piece(r.page), "の枚数"),
    PageAttrRef: lambda r: said(page_piece(r.page), "の", _named("variable", r.variable)),
    DistanceRef: lambda r: said(word("variable", "distance", term("variable", "distance").said())),
    TilesPassedRef: lambda r: said(f"{vocab.TILES_PASSED.ja}［", _named("tile", r.tile), "］"),
}

#: Base values and condition terms: a constant, or a reference (× a coefficient).
BASE_TEXT: dict[type, Callable[..., Said]] = {
    **REF_TEXT,
    Const: lambda b: said(number(b.value)),
    Scaled: lambda b: (ref_pieces(b.ref) if b.coef == 1
                       else said(ref_pieces(b.ref), f"×{number(b.coef)}")),
}


def ref_pieces(ref) -> Said:
    """A reference as pieces of rules text."""
    return REF_TEXT[type(ref)](ref)


def base_pieces(base) -> Said:
    """A base value (or a condition term) as pieces; none for no base."""
    return () if base is None else BASE_TEXT[type(base)](base)


def ref_text(ref, vocabulary=None) -> str:
    """A reference as the catalog prints it: 使用した歩［このプレイ］, 手札の枚数 …"""
    return text(ref_pieces(ref))


def base_text(base, vocabulary=None) -> str:
    """A base value (or a condition term): 12, 使用した歩［このプレイ］×0.5; "" for none."""
    return text(base_pieces(base))


# ------------------------------------------------------------------ operations
# One row per operation code of contract.vocabulary.OPERATIONS: what the 作用 does
# (target, operation, base, landing), given the effect and its base already phrased.


def _target(effect: Sayou) -> Said:
    # another page's variable reads as a reference to it does (「p」の銘); names.target is
    # the display word of every other target (@name for a flag)
    if effect.target.page is not None:
        return said(page_piece(effect.target.page), "の", _named("variable", effect.target.code))
    return said(word("variable", effect.target.code, effect.names.target))


def _verb(effect: Sayou, words: str) -> Piece:
    """The words that say the operation itself, linked to it."""
    return word("operation", effect.op, words)


def _signed(effect: Sayou, base: Said) -> Said:
    sign = "−" if effect.direction == "decrease" else "+"
    return said(_target(effect), _verb(effect, sign), base)


def _damage(effect: Sayou, base: Said) -> Said:
    return said(_target(effect), "に ", base, " ", _verb(effect, "のダメージ"))


def _heal(effect: Sayou, base: Said) -> Said:
    return said(_target(effect), "を ", base, " ", _verb(effect, "回復"))


#: Adds that a card says in words, by (target, direction): 敵HP -= 12 is 12 damage, and
#: an increase of 敵HP or of HP a heal (DESIGN §6); every other add reads 防御+5.
ADD_TEXT: dict[tuple[str, str], Callable[[Sayou, Said], Said]] = {
    ("enemy_hp", "decrease"): _damage,
    ("enemy_hp", "increase"): _heal,
    ("hp", "increase"): _heal,
}


def _add(effect: Sayou, base: Said) -> Said:
    done = ADD_TEXT.get((effect.target.code, effect.direction), _signed)(effect, base)
    # The landing is said only for an add: every other numeric operation has one landing.
    landing = term("landing", effect.landing).said() if effect.landing else ""
    return said(done, ("（", word("landing", effect.landing, landing), "）") if landing else ())


def _filter(flt: Filter | None) -> Said:
    if flt is None:
        return ()
    parts = []
    if flt.origin is not None:
        parts.append(said(f"{keyword('origin')}「{flt.origin}」"))
    if flt.year is not None:
        parts.append(said(_named("variable", "year"), f" {flt.year[0]}〜{flt.year[1]}"))
    if flt.page is not None:
        parts.append(said(page_piece(flt.page)))
    return said(_joined(parts, "・"), "の") if parts else ()


def _pick(effect: Sayou) -> Piece:
    return word("pick", effect.pick, term("pick", effect.pick).said())


def _taken_from(effect: Sayou) -> Said:
    """Where a 移動 takes its pages, and how: 山札の上から, or 捨て札から … を選んで. A pick
    from the top is a place in the source; every other pick is how the pages are chosen."""
    if effect.pick == "top":
        return said(_region(effect.source), "の", _pick(effect), _filter(effect.filter),
                    f"{effect.count}枚を")
    return said(_region(effect.source), "から", _filter(effect.filter), f"{effect.count}枚を",
                _pick(effect))


def _op(effect: Sayou) -> vocab.Operation:
    return term("operation", effect.op)


def _times(effect: Sayou, base: Said) -> Said:
    return said(_target(effect), _verb(effect, "×"), base)


#: A multiply by the kind of its target: a modifier is a factor and reads as one
#: (攻撃倍率×1.5); a current value is scaled (防御を 2 倍にする).
MUL_TEXT: dict[str, Callable[[Sayou, Said], Said]] = {
    "modifier": _times,
    "current": lambda e, base: said(_target(e), "を ", base, " ", _verb(e, "倍にする")),
}


def _mul(effect: Sayou, base: Said) -> Said:
    kind = term("variable", effect.target.code).kind
    return MUL_TEXT.get(kind, _times)(effect, base)


OPERATION_TEXT: dict[str, Callable[[Sayou, Said], Said]] = {
    "add": _add,
    "mul": _mul,
    "assign": lambda e, base: said(_target(e), "を ", base, " ", _verb(e, "にする")),
    "cap": _signed,
    "pay": lambda e, base: said(_target(e), "を ", base, " ", _verb(e, _op(e).symbol)),
    "suppress": lambda e, base: said(_target(e), "を", _verb(e, "更新しない")),
    # shown in order and left so: the next draws take them as shown (spec 002)
    "reveal": lambda e, base: said(_region(e.source), "の", _pick(e), f" {e.count} 枚を",
                                   _verb(e, _op(e).ja), "する（その順に引く）"),
    "move": lambda e, base: said(_taken_from(e), _region(e.dest), "へ", _verb(e, "移す")),
    # the pages made join the destination (spec 002 差し込み先)
    "generate": lambda e, base: said(_filter(e.filter) or "いずれかの",
                                     f"{vocab.PAGES.ja}を{e.count}枚", _pick(e),
                                     _verb(e, _op(e).ja), "し、", _region(e.dest), "へ加える"),
    "duplicate": lambda e, base: said(_region(e.source), "の", _filter(e.filter),
                                      f"{e.count}枚を", _pick(e), _verb(e, _op(e).ja), "し、",
                                      _region(e.dest), "へ加える"),
}

#: Operations whose lifetime is that of the pages they make, not of a value.
PAGE_MAKING = frozenset({"generate", "duplicate"})


# ---------------------------------------------------------------------- 作用
# A sentence is 〔repeat range、〕〔timing〕 operation〔（lifetime、予告あり）〕. How the first
# two are said depends on the 作用's firing mode (``_mode``); each is a table by mode.


def _mode(effect: Sayou, default_timing: str) -> str:
    """How the 作用 fires: "as_written" — once, at the moment of the block it is written
    in (プレイ時 on a face, 破った時 in 破却), which goes without saying; "once" — once,
    at another moment; "first" — the first time its timing comes within its repeat range
    (最大 1 回); "every" — each time its timing comes, within its repeat range. A
    modifier (常時) is in force over its whole range, so its range is always said."""
    repeat = effect.repeat
    modifier = term("timing", effect.timing).family == "always"
    if repeat.scope == "play" and repeat.max == 1 and repeat.n is None and not modifier:
        return "as_written" if effect.timing == default_timing else "once"
    return "first" if repeat.max == 1 else "every"


def _range(repeat: Repeat, placing: bool = False) -> Said:
    """The repeat range that opens a continuing 作用: このターン中、 / このステージ中に
    最大 2 回、 / 以降 2 プレイの間、 — and, for a 作用 a play places (``placing``) over
    plays to come that is in force in that play's rest too — a modifier (it acts on the
    作用 after it in the same play, DESIGN §6.1: 以降 2 プレイの間に最大 1 回 spends its one
    use on the page's own hit), or one waiting for a moment that can come there (an exile,
    a crossing: ``Timing.in_a_play``) —: このプレイの残りと以降 2 プレイの間、"""
    limited = repeat.max is not None
    if repeat.scope == vocab.ANCHORED:
        shape = vocab.ANCHORED_WITHIN if limited else vocab.ANCHORED_DURING
        words = shape.format(range=_anchored(repeat.unit, repeat.n))
        if placing and repeat.unit == "play":
            words = REST_OF_THE_PLAY + words
    else:
        scope = term("scope", repeat.scope)
        words = scope.within if limited else scope.during
    most = vocab.MAX_FIRES_PHRASE.format(max=repeat.max) if limited else ""
    return said(word("scope", repeat.scope, words), most, "、")


#: What a 作用 placed by a play over plays to come also covers: its own play's rest.
REST_OF_THE_PLAY = f"{term('scope', 'play').phrase}の残りと"

#: The repeat range by firing mode (and whether the placing play's rest is in it): a
#: one-shot has none to say.
RANGE_TEXT: dict[str, Callable[[Repeat, bool], Said]] = {
    "as_written": lambda r, rest: (),
    "once": lambda r, rest: (),
    "first": _range,
    "every": _range,
}

#: The timing by firing mode: its moment (被弾時に) when it fires once, its repeated
#: moment (被弾するたびに) when it fires each time.
TIMING_TEXT: dict[str, Callable[[vocab.Timing], Said]] = {
    "as_written": lambda t: (),
    "once": lambda t: said(word("timing", t.code, t.once()), " "),
    "first": lambda t: said(word("timing", t.code, t.first or t.once()), " "),
    "every": lambda t: said(word("timing", t.code, t.every), " " if t.every else ""),
}


def _lifetime(effect: Sayou) -> Said:
    if effect.op in PAGE_MAKING:
        return said(word("lifetime", effect.lifetime,
                         vocab.GENERATED_LIFETIME_PHRASES[effect.lifetime]))
    if not effect.lifetime:
        return ()
    return said(word("lifetime", effect.lifetime, term("lifetime", effect.lifetime).said()))


def phrase_pieces(effect: Sayou, *, default_timing: str = "on_play",
                  placing: bool = False) -> Said:
    """One 作用 as the pieces of one sentence (see ``phrase``). ``placing``: as the page
    says it, the play that places it to come (a face's, a pen's), not as it stands on the
    board after (a modifier over plays to come covers that play's rest too)."""
    mode = _mode(effect, default_timing)
    timing = term("timing", effect.timing)
    # in force in the placing play's rest: a modifier, or a moment that can come there
    rest = placing and (timing.family == "always" or timing.in_a_play)
    head = said(RANGE_TEXT[mode](effect.repeat, rest), TIMING_TEXT[mode](timing))
    done = OPERATION_TEXT[effect.op](effect, base_pieces(effect.base))
    tail = [part for part in (_lifetime(effect),
                              said(keyword("telegraphed") + "あり") if effect.telegraphed else ())
            if part]
    return said(head, done, ("（", _joined(tail, "、"), "）") if tail else ())


def phrase(effect: Sayou, vocabulary=None, *, default_timing: str = "on_play") -> str:
    """One 作用 as one sentence, e.g. 「このステージ中、毎ターン開始時に 防御+5（ターン終了まで）」.

    ``default_timing`` is the timing a one-shot 作用 has where it is written (破った時 in a
    破却 block): it goes without saying. ``vocabulary`` (the tables' VocabularyTable) is
    accepted for callers that pass it; the words come from contract.vocabulary, which
    that table is generated from.
    """
    return text(phrase_pieces(effect, default_timing=default_timing))


# -------------------------------------------------------------------- enemies

#: One row per Intent kind of contract.vocabulary.INTENT_KINDS.
INTENT_TEXT = {
    "attack": lambda i: f"{term('intent', i.kind).ja} {i.amount}",
    "blank": lambda i: f"{term('intent', i.kind).ja}（{term('region', i.region).ja}）",
}


def trait_text(trait) -> str:
    """A trait as the vocabulary phrases it (軽減 4、封鎖 40〜49 …), its explanation too."""
    return term("trait", trait.trait).said().format(value=trait.value, low=trait.low,
                                                    high=trait.high)


def escalation_text(escalation) -> str:
    """An escalation: 「3 ターンごとに 攻撃 5 が加わる」."""
    return (f"{escalation.every} {term('scope', 'turn').ja}ごとに "
            f"{INTENT_TEXT[escalation.intent.kind](escalation.intent)} が加わる")


#: How a multiplier of a 破却 grows with the tear's distance (runtime.tearing), said
#: wherever its scale is.
EXCESS_GROWS = f"{term('operation', 'mul').ja}の作用は 1 を超えるぶんが伸びる"


def fixed_note(effects) -> str:
    """What a tear leaves as written, in words: its 作用 without a base value — a number
    of pages moved, copied, made or revealed (runtime/zones.py reads the count, never
    grown), a 抑制 — named by their operations (「移動は距離で変わらない」)."""
    ops = dict.fromkeys(term("operation", effect.op).ja for effect in effects
                        if effect.base is None)
    return f"{'・'.join(ops)}は{term('variable', 'distance').ja}で変わらない"


def torn(effect: Sayou, scale: float) -> tuple[Sayou, str]:
    """A 破却 作用 as a tear at ``scale`` lands it (runtime.tearing): the 作用 with its
    grown value, to phrase (攻撃倍率 *= 1.2 at ×2.75 reads ×1.55, where 「×2.75」 beside
    「攻撃倍率×1.2」 read as ×3.3), and how that value came about, as a note
    (「1 + (1.2 − 1) × 2.75」). A multiplier read from a reference cannot be written as
    one number: it is phrased as written, the note saying how it grows."""
    base, rounded = effect.base, lambda x: round(x, 4)
    if base is None:  # a number of pages, a 抑制: landed as written
        return effect, fixed_note((effect,))
    mul = effect.op == "mul"
    if type(base) is Const:
        value = rounded(grown(effect.op, base.value, scale))
        how = (f"1 + ({number(base.value)} − 1) × {scale:.2f}" if mul
               else f"{number(base.value)} × {scale:.2f}")
        return replace(effect, base=Const(value)), how
    if type(base) is Scaled and not mul:
        return (replace(effect, base=Scaled(base.ref, rounded(base.coef * scale))),
                f"係数 {number(base.coef)} × {scale:.2f}")
    return effect, (f"1 を超えるぶんが × {scale:.2f}" if mul else f"× {scale:.2f}")


# ------------------------------------------------------------------ conditions


def _chain(cond: Condition) -> Said:
    out = [base_pieces(cond.terms[0])]
    for op, item in zip(cond.ops, cond.terms[1:]):
        out += [f" {vocab.COMPARISONS[op]} ", base_pieces(item)]
    return said(out)


#: One row per condition test of contract.vocabulary.CONDITION_TESTS.
CONDITION_TEXT: dict[str, Callable[[Condition], Said]] = {
    "compare": _chain,
    "nonzero": lambda c: said(base_pieces(c.terms[0]), " が 0 でない"),
    "crosses": lambda c: said(word("condition_word", "crosses",
                                   term("condition_word", "crosses").said())),
    "not_crosses": lambda c: said(word("condition_word", "not_crosses",
                                       term("condition_word", "not_crosses").said())),
}


def condition_pieces(cond: Condition) -> Said:
    """A play (or appearance) condition as pieces."""
    return CONDITION_TEXT[cond.test](cond)


def condition_text(cond: Condition, vocabulary=None) -> str:
    """A play (or appearance) condition: 歩 ≥ 10, このプレイで座を跨ぐ …"""
    return text(condition_pieces(cond))


def body_pieces(body, default_timing: str = "on_play") -> list[Said]:
    """A face (or pen, tear) as lines of pieces: its conditions first, then one line per
    作用 (see ``body_lines``)."""
    if body is None or getattr(body, "written", True) is False:
        return [said(keyword("blank"))]
    lines = []
    if body.conditions:
        conds = _joined([condition_pieces(c) for c in body.conditions], "、")
        lines.append(said(keyword("cond") + ": ", conds))
    lines += [phrase_pieces(e, default_timing=default_timing,
                            placing=default_timing == "on_play") for e in body.effects]
    return lines


def body_lines(body, vocabulary=None, default_timing: str = "on_play") -> list[str]:
    """A face (or pen, tear) as lines: its conditions first, then one line per 作用.

    ``body`` is a Face, a Body (anything with ``conditions`` and ``effects``) or None;
    None and a face that is not written read as the keyword for a blank face.
    """
    return [text(line) for line in body_pieces(body, default_timing)]
