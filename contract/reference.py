"""語彙の手引き — the vocabulary as a reference a designer reads (``jibunki vocab``).

Every row is read from the vocabulary's own tables (``contract.vocabulary``): nothing
here names a term. Each section lists its terms with the Japanese name, the ASCII alias
(the term's code, accepted in content), the other spellings, a one-line meaning — the
term's own ``meaning``, from the glossary — and a detail: what its table says of it (a
variable's kind, a timing's family, an operation's symbol, a region's parts) and its
note. A counter also has its cell per scope (● allowed, ○ allowed with a note — W001,
× not allowed — E022). The catalog's vocabulary page shows the same rows.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from . import vocabulary as vocab
from .typed import read_alike
from .vocabulary import W

__all__ = ["CELL_MEANINGS", "Entry", "SECTIONS", "entries", "find", "render", "spellings"]

#: What each cell of a counter's scope table means to a designer.
CELL_MEANINGS = {
    vocab.CELL_CORE: "使える",
    vocab.CELL_UNUSED: "使えるが注意（W001: 定義されるが参照されない）",
    vocab.CELL_NONE: "使えない（E022: 意味を持たない）",
}


def _variable(term) -> str:
    kind = vocab.VARIABLE_KINDS[term.kind]
    if term.param_kind is None:
        return kind
    return f"{kind}（{vocab.PARAMETER_KINDS[term.param_kind]}）"


def _counter(term) -> str:
    return "累計量（" + ("変化量" if term.log == "change" else "操作") + "ログ）"


def _timing(term) -> str:
    family = {"phase": f"{W.scope.turn}の段階", "outer": f"{W.scope.turn}の外",
              "event": W.quantity.events, "always": W.timing.always}[term.family]
    # the words rules text says it with: once, and each time it comes
    said = (term.once(), term.first, term.every)
    return family + "（" + "／".join(dict.fromkeys(filter(None, said))) + "）"


def _region(term) -> str:
    parts = [vocab.tables()["region"].by_code(part).ja for part in term.parts]
    return "合算: " + "+".join(parts) if len(parts) > 1 else "領域"


def _lifetime(term) -> str:
    return term.phrase or "値の寿命"


def _operation(term) -> str:
    return f"{term.symbol}（{vocab.OPERATION_FAMILY_NAMES[term.family]}族）"


def _scope(term) -> str:
    return "／".join(filter(None, (term.said(), term.during)))


def _landing(term) -> str:
    return term.said() or W.landing.modified


def _pick(term) -> str:
    return f"{W.operation.move}・{W.operation.generate}・{W.operation.duplicate}の選び方"


def _condition_word(term) -> str:
    return term.said()


def _tile(term) -> str:
    return f"{vocab.TILES_PASSED.ja}［{term.ja}］で数える"


def _balance(term) -> str:
    if term.type == "page":
        return "ページ id" + ("（書かなくてもよい）" if term.optional else "")
    kind = "整数" if term.type == "int" else "数"
    default = "必須" if term.required else f"既定 {term.default:g}"
    return f"{kind} {term.low:g}〜{term.high:g}、{default}"




def _table(name: str):
    return next(t for t in vocab.VOCABULARY_TABLES if t.name == name)


def _terms(table: str) -> tuple:
    """The terms of the vocabulary table ``table`` as W names them (its entries and the
    terms beside them: 内部フラグ among the variables, the anchored scope among scopes)."""
    row = _table(table)
    return (*row.entries, *row.also)


def _titled(table: str, said=None) -> tuple:
    """The section of a table whose terms say nothing of themselves beyond their note:
    headed by the table's title, each term's detail that title (or ``said``)."""
    title = _table(table).title
    return (title, _terms(table), said or (lambda term: title))


QUANTITY_HEADING = "例で確かめる量"
KEYWORD_HEADING = "キーワード"

#: section (a vocabulary table's name) → (its heading, its terms, what a term says of
#: itself without a note).
SECTIONS = {
    "variable": ("変数", _terms("variable"), _variable),
    "counter": ("累計量", _terms("counter"), _counter),
    "timing": ("発動タイミング", _terms("timing"), _timing),
    "region": ("領域", _terms("region"), _region),
    "lifetime": ("値の寿命", _terms("lifetime"), _lifetime),
    "operation": ("演算", _terms("operation"), _operation),
    "scope": ("スコープ", _terms("scope"), _scope),
    "landing": ("着地", _terms("landing"), _landing),
    "pick": ("選び方", _terms("pick"), _pick),
    "condition_word": ("条件の語", _terms("condition_word"), _condition_word),
    "tile": ("マスの種別", _terms("tile"), _tile),
    **{table: _titled(table) for table in ("destination", "anchor_unit", "intent", "trait")},
    "balance": _titled("balance", _balance),
    "quantity": (QUANTITY_HEADING, _terms("quantity"), lambda term: QUANTITY_HEADING),
    "event": _titled("event"),
    "measure": _titled("measure"),
    "report": _titled("report"),
    "player": _titled("player"),
    "keyword": (KEYWORD_HEADING, (), None),  # its rows: KEYWORDS (_keyword_rows)
}


@dataclass(frozen=True)
class Entry:
    """One row of the reference."""

    section: str
    code: str
    ja: str
    aliases: tuple[str, ...]
    meaning: str  # the glossary's one line
    detail: str = ""  # what the table says of the term, and its note
    cells: dict[str, str] | None = None  # scope code → ● ○ × (counters only)

    @property
    def anchor(self) -> str:
        """The id of the row on the catalog's vocabulary page: section and code (a code
        alone is not unique: プレイ is a scope and a lifetime)."""
        return f"{self.section}-{self.code}"

    def as_json(self) -> dict:
        """The row as plain data for ``--format json``."""
        row = {"section": self.section, "code": self.code, "ja": self.ja,
               "aliases": list(self.aliases), "meaning": self.meaning, "detail": self.detail}
        if self.cells is not None:
            row["scopes"] = {scope: {"cell": cell, "meaning": CELL_MEANINGS[cell]}
                             for scope, cell in self.cells.items()}
        return row


def entries() -> list[Entry]:
    """Every row, section by section in the order of SECTIONS, terms in table order."""
    rows = []
    for section, (_, terms, said) in SECTIONS.items():
        for term in terms:
            cells = ({scope: term.cell(scope) for scope in vocab.SCOPE_ORDER}
                     if isinstance(term, vocab.Counter) else None)
            meaning, note = term.meaning or term.note, term.note if term.meaning else ""
            detail = " — ".join(filter(None, (said(term), note)))
            rows.append(Entry(section, term.code, term.ja, term.aliases, meaning, detail,
                              cells))
    return rows + _keyword_rows()


def _keyword_rows() -> list[Entry]:
    """The keywords of the language (ページ, 未来面, 予兆, 破却 …) with their meanings: the
    Japanese spelling first, the ASCII one as the code."""
    rows = []
    for key, spelled in vocab.KEYWORDS.items():
        ascii_ = [s for s in spelled if s.isascii()]
        code = ascii_[0] if ascii_ else key
        rows.append(Entry("keyword", code, spelled[0],
                          tuple(s for s in spelled[1:] if s != code),
                          vocab.KEYWORD_MEANINGS[key], KEYWORD_HEADING))
    return rows


def find(spelling: str) -> list[Entry]:
    """The rows spelled ``spelling`` (Japanese name, code or alias): one term can be in
    several sections (プレイ is a lifetime; 銘 a variable). Failing that, the rows it
    spells as a designer may type or copy it (``loose``)."""
    found = [e for e in entries() if spelling in (e.ja, e.code, *e.aliases)]
    if found:
        return found
    typed = loose(spelling)
    return [e for e in entries() if typed in {loose(s) for s in (e.ja, e.code, *e.aliases)}]


#: A counter's scope index, which a term copied from a page carries (使用した歩[ターン]).
_SCOPE_INDEX = re.compile(r"\[[^\[\]]*\]$")


def loose(spelling: str) -> str:
    """``spelling`` as the lookup compares it: NFKC (全角 letters and brackets as an IME
    types them: ｓｔｅｐｓ, ［ターン］), lower case, ひらがな as カタカナ and variant kanji
    as the keywords' forms (contract.typed.read_alike: らんだむ, 壽命上限), without a counter's
    scope index."""
    return _SCOPE_INDEX.sub("", read_alike(spelling).strip())


def mentions(word: str) -> list[Entry]:
    """The rows whose meaning or detail uses ``word`` (合算 is no row of its own, yet 山札+
    捨て札 is 「山札と捨て札の合算」): what a designer who looked up a word the reference
    uses but does not list is shown instead of nothing."""
    word = word.strip()
    if len(word) < 2:  # a kana or a letter alone is in nearly every meaning
        return []
    return [e for e in entries() if word in e.meaning or word in e.detail]


def spellings() -> list[str]:
    """Every spelling of every row, for did-you-mean."""
    return list(dict.fromkeys(s for e in entries() for s in (e.ja, e.code, *e.aliases)))


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def render(rows: list[Entry]) -> str:
    """The rows as text: a heading per section, one aligned line per term (Japanese name
    and its other spellings, ASCII alias, for a counter its cells per scope, meaning),
    and the legend of the cells when a counter is shown."""
    names = {id(e): e.ja + (f"（{'・'.join(e.aliases)}）" if e.aliases else "") for e in rows}
    name_w = max((_width(n) for n in names.values()), default=0) + 2
    code_w = max((len(e.code) for e in rows), default=0) + 2
    scopes = [vocab.tables()["scope"].by_code(code).ja for code in vocab.SCOPE_ORDER]
    out: list[str] = []
    for section, (heading, _, _) in SECTIONS.items():
        shown = [e for e in rows if e.section == section]
        if not shown:
            continue
        head = heading
        if section == "counter":
            head = _pad(head, name_w + code_w + 2) + " ".join(scopes)
        out += ["" if out else None, head]
        for e in shown:
            line = "  " + _pad(names[id(e)], name_w) + _pad(e.code, code_w)
            if e.cells is not None:
                line += " ".join(_pad(e.cells[s], _width(w)) for s, w in zip(vocab.SCOPE_ORDER, scopes)) + "  "
            out.append(line + e.meaning + (f" — {e.detail}" if e.detail else ""))
    if any(e.cells is not None for e in rows):
        out += ["", "凡例: " + "  ".join(f"{cell} {said}" for cell, said in CELL_MEANINGS.items())]
    return "\n".join(line for line in out if line is not None)
