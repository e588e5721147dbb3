"""Property tests: whatever text reaches lint, it answers with diagnostics, never a crash.

(a) Programs generated from the grammar itself (``hypothesis.extra.lark.from_lark``), with
    real vocabulary words for names, so that many of them get past the parser and into
    the compiler's checks.
(b) Arbitrary text and arbitrary bytes, written to a file and linted through ``check``.

Every diagnostic must carry a code listed in ``compiler.codes.CODES`` and a span that
points inside the file (1-based line and column, end not before start).
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from contract import vocabulary as vocab
from compiler.codes import CODES
from compiler.lint import check, check_text
from dsl.diagnostics import render
from dsl.keywords import KEYWORDS
from functools import cache

from dsl.parser import build_parser
import pytest

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True, scope="module")
def _no_parse_cache():
    """Every text here is new: caching its parse on disk would only write and sweep."""
    from unittest import mock

    with mock.patch.dict(os.environ, {"JIBUNKI_NO_CACHE": "1"}):
        yield


@cache
def get_parser():
    """A parser built from the grammar (not the disk cache): from_lark walks .grammar."""
    return build_parser(use_cache=False)

#: Examples per property; raise it for a longer fuzzing run: JIBUNKI_EXAMPLES=5000 pytest …
SETTINGS = settings(max_examples=int(os.environ.get("JIBUNKI_EXAMPLES", "150")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])

# ------------------------------------------------------------------ strategies

#: Names a designer would write: the vocabulary (Japanese and ASCII), page ids, noise.
#: Keywords are left out: where a keyword and a name could both stand, the lexer reads
#: the keyword, and the text would not be the program the generator meant.
_KEYWORD_SPELLINGS = {spelling for pair in KEYWORDS.values() for spelling in pair}
_WORDS = sorted(({
    spelling
    for table in vocab.tables().values()
    for spelling in table.spellings()
    if all(ch.isalnum() or ch in "・（）_" for ch in spelling)
} | {"a", "b", "hatsu_koe", "未知", "x1", "幼少期", "青年期"}) - _KEYWORD_SPELLINGS)

_NUMBERS = st.one_of(
    st.integers(0, 250).map(str),
    st.sampled_from(["0.5", "1.0", "2", "1e3", "1e999", "9" * 40, "0.0", "1E-5", "00"]),
)

_SEPARATORS = st.sampled_from(["\n", ";", "\n\n", " ;\n", "\n  # note\n", "\r\n"])


def _spaced(strategy):
    """Tokens come out padded with spaces, so that adjacent ones lex as written."""
    return strategy.map(lambda text: f" {text} ")


def _explicit(start: str = "start") -> dict:
    """Strategies for every terminal reachable from ``start`` (from_lark refuses others)."""
    parser = get_parser()
    explicit = {
        "NAME": st.sampled_from(_WORDS),
        "FLAG": st.sampled_from(["@覚醒", "@flag", "@旅立ち"]),
        "NUMBER": _NUMBERS,
        "STRING": st.sampled_from(['"産声"', "「かぎ括弧」", '"a \\" b"', '""']),
        "ASSIGN_OP": st.sampled_from(["+=", "-=", "*=", "=", "−=", "×="]),
        "CMP": st.sampled_from([">=", "<=", "==", "!=", ">", "<", "≥", "≤", "≠"]),
        "MINUS": st.sampled_from(["-", "−"]),
        "MUL": st.sampled_from(["*", "×", "/", "÷"]),
        "TIMES": st.sampled_from(["×", "*", "x"]),
        "ARROW": st.sampled_from(["->", "→"]),
        "_COMMA": st.sampled_from([",", "、"]),
    }
    explicit = {name: _spaced(strategy) for name, strategy in explicit.items()}
    explicit["_SEP"] = _SEPARATORS
    explicit["WS"] = st.sampled_from([" ", "\t", "\u3000"])
    explicit["COMMENT"] = st.just(" ")  # a comment would swallow the rest of its line
    for term in parser.terminals:  # keywords and punctuation
        if term.pattern.type == "str" and term.name not in explicit:
            explicit[term.name] = st.just(f" {term.pattern.value} ")
    terminals, rules, ignored = parser.grammar.compile([start], ())
    reachable = ({t.name for t in terminals} | set(ignored)
                 | {sym.name for rule in rules for sym in rule.expansion if sym.is_term})
    return {name: strategy for name, strategy in explicit.items() if name in reachable}


def _programs(start: str):
    # Deferred: the grammar's strategy is built at the first draw, not when pytest imports
    # this file to collect it (building the parser and the strategy took 3 s per worker).
    return st.deferred(lambda: from_lark(get_parser(), start=start, explicit=_explicit(start)))


GRAMMAR_PROGRAMS = _programs("start")
#: Single items reach the checks of faces, 作用 and traits far more often than whole files.
ITEMS = st.one_of(_programs("page"), _programs("enemy"), _programs("balance"))
#: One 作用 or one condition list, set into each place the language allows one.
_PLACES = {
    "face": "ページ p {{ 銘 10\n 未来面 {{ {} }} }}",
    "pen": "ページ p {{ 銘 10\n 未来面 {{ 敵HP -= 1 }}\n ペン 未来面 {{ {} }} }}",
    "tear": "ページ p {{ 銘 10\n 過去面 {{ 防御 += 1 }}\n 破却 {{ {} }} }}",
    "trait": "敵 e {{ HP 10; 座 5; 突破ライン 9; 予兆 [攻撃 1]\n 特性 {{ {} }} }}",
    "condition": "ページ p {{ 銘 10\n 未来面 {{ 条件 {}\n 敵HP -= 1 }} }}",
    "appears": "ページ p {{ 銘 10\n 出現条件 {}\n 未来面 白紙 }}",
}
SAYOU_IN_PLACE = st.tuples(st.sampled_from(["face", "pen", "tear", "trait"]),
                           _programs("sayou")).map(lambda p: _PLACES[p[0]].format(p[1]))
CONDS_IN_PLACE = st.tuples(st.sampled_from(["condition", "appears"]),
                           _programs("conds")).map(lambda p: _PLACES[p[0]].format(p[1]))


# ------------------------------------------------------------------ assertions


def _assert_well_formed(result, path: str, text: str | None) -> None:
    line_count = None if text is None else text.count("\n") + 1
    for diag in result.diagnostics:
        span = diag.span
        assert diag.code in CODES, diag
        assert diag.severity == CODES[diag.code].severity, diag
        assert diag.message, diag
        assert span.path == path, diag
        assert span.line >= 1 and span.col >= 1, diag
        assert (span.end_line, span.end_col) >= (span.line, span.col), diag
        if line_count is not None:
            assert span.line <= line_count, (diag, line_count)
            line_text = text.split("\n")[span.line - 1]
            assert span.col <= len(line_text) + 1, (diag, line_text)
        assert diag.hint, diag
        render(diag, result.sources)  # rendering must not fail either
    assert not any(d.code == "E000" for d in result.diagnostics), result.diagnostics


# ------------------------------------------------------------------ (a) grammar


@SETTINGS
@given(GRAMMAR_PROGRAMS)
def test_programs_from_the_grammar_never_crash(program):
    result = check_text(program, "g.page")
    _assert_well_formed(result, "g.page", program)


@SETTINGS
@given(st.one_of(ITEMS, SAYOU_IN_PLACE, CONDS_IN_PLACE))
def test_items_and_effects_from_the_grammar_never_crash(program):
    result = check_text(program, "g.page", {"ctx.page": _CONTEXT})
    _assert_well_formed(result, "g.page", program)
    assert not any(d.code in ("E001", "E002", "E003") for d in result.diagnostics), \
        "the generator should produce text the parser accepts"


#: Pages the generated programs may name (ページ指定, 手札[id], decks).
_CONTEXT = "ページ a { 銘 1; 未来面 白紙 }\nページ hatsu_koe { 銘 0; 出自 幼少期; 未来面 白紙 }\n"


@SETTINGS
@given(st.lists(GRAMMAR_PROGRAMS, min_size=2, max_size=3))
def test_programs_across_files_never_crash(programs):
    context = {f"c{i}.page": text for i, text in enumerate(programs[1:])}
    result = check_text(programs[0], "g.page", context)
    _assert_well_formed(result, "g.page", programs[0])


# ------------------------------------------------------------------ (b) anything

#: Text with the language's own punctuation and words well represented.
_PUNCTUATION = list("{}[]()|;,、\n\r\t #@\"「」.+-=<>*×/0123456789")
_NOISY_TEXT = (
    st.text(alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(_PUNCTUATION)),
            max_size=300)
    | st.lists(st.sampled_from(_WORDS + _PUNCTUATION + [
        "ページ", "敵", "未来面", "過去面", "銘", "綻び倍率", "特性", "予兆", "-=", "+=", "..", "->",
        "1", "1e999"]), max_size=80).map(" ".join)
)


@SETTINGS
@given(st.text())
def test_arbitrary_text_never_crashes_check_text(text):
    result = check_text(text, "t.page")
    _assert_well_formed(result, "t.page", _normalised(text))


@SETTINGS
@given(_NOISY_TEXT)
def test_noisy_text_never_crashes_check(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("noisy") / "t.page"
    path.write_text(text, encoding="utf-8", newline="")
    result = check([path])
    shown = result.diagnostics[0].span.path if result.diagnostics else None
    _assert_well_formed(result, shown, _normalised(text))


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_crash_check(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "b.page"
    path.write_bytes(data)
    result = check([path])
    try:
        text = _normalised(data.decode("utf-8"))
    except UnicodeDecodeError:
        text = None
    shown = result.diagnostics[0].span.path if result.diagnostics else None
    _assert_well_formed(result, shown, text)
    if text is None:
        (diag,) = result.diagnostics
        assert diag.code == "E004"
        assert 1 <= diag.span.line <= len(re.findall(rb"\r\n|\r|\n", data)) + 1


def _normalised(text: str) -> str:
    """The text as lint positions it: a leading BOM dropped, a lone CR a line break."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return re.sub(r"\r(?!\n)", "\n", text)


def test_words_are_lexable_names():
    """The generator's names must lex as names, or (a) would test nothing but E002."""
    name = re.compile(next(t for t in get_parser().terminals if t.name == "NAME").pattern.value)
    assert all(name.fullmatch(w) for w in _WORDS)
