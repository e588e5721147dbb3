"""Resource bombs in content: every list and every multiplied count has a bound, checked
before the work it would cost, each an E048 at the first element past it
(compiler/limits.py); the deck cap holds with or without a balance, read as checked.

Speed is never asserted: the bombs run in a real process under a generous timeout, and
what is asserted is that they end, report E048 and exit 1 — not how fast.
"""

from __future__ import annotations

import subprocess
import sys

import re

import pytest

import dsl.parser
from compiler.lint import check_text
from compiler.items import ATTACK_BOUND
from compiler.limits import DECK_CAP_BOUND, LIMITS
from conftest import ROOT, bundled_balance

BALANCE = bundled_balance()
PAGE = "ページ p { 銘 1; 未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n"  # line 1: a page the decks below name


def bound(key: str) -> int:
    return LIMITS[key].bound


def found(text: str, path: str = "t.page", context: dict | None = None):
    return [(d.code, d.span.line, d.span.col)
            for d in check_text(text, path, context).diagnostics]


def col_of(text: str, needle: str, nth: int) -> tuple[int, int]:
    """1-based (line, col) of the nth (0-based) occurrence of ``needle``."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def lines(*parts) -> str:
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------- deck counts


@pytest.mark.parametrize("count", ["100", "100000000", "99999999999999999999"])
def test_a_deck_count_over_the_deck_cap_bound_is_E048_at_the_count(count):
    text = PAGE + lines("デッキ d {", f"  p × {count}", "}")
    assert found(text, "t.deck") == [("E048", 3, 7)]


def test_a_deck_count_at_the_bound_is_only_the_deck_cap_question():
    text = PAGE + lines("デッキ d {", f"  p × {DECK_CAP_BOUND}", "}")
    assert found(text, "t.deck") == []


def test_the_deck_cap_applies_without_a_balance():
    # No balance in scope: the page's own 上限枚数, else the bound of デッキ内上限枚数.
    text = PAGE + lines("デッキ d {", "  p × 60", "  p × 60", "}")
    assert found(text, "t.deck") == [("E055", 4, 3)]
    own = "ページ p { 銘 1; 上限枚数 2; 未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n"
    assert found(own + lines("デッキ d {", "  p × 3", "}"), "t.deck") == [("E055", 3, 3)]


def test_a_deck_over_a_page_cap_says_by_how_many_and_how_to_raise_the_cap():
    """E055's hint: the total so far, the copies too many, and the cap to raise — the
    page's own 上限枚数 when it writes one, else a 上限枚数 to write on the page."""
    own = "ページ p { 銘 1; 上限枚数 2; 未来面 { 敵HP -= 1 }; ペン 過去面 { 歩 += 5 } }\n"
    [diag] = check_text(own + lines("デッキ d {", "  p × 2", "  p", "}"), "t.deck").diagnostics
    assert diag.hint == "合計 3 枚です。1 枚減らすか、このページの 上限枚数 を 3 以上にしてください"
    context = {"b.balance": BALANCE}
    [diag] = check_text(PAGE + lines("デッキ d {", "  p × 5", "}"), "t.deck",
                        context).diagnostics
    assert diag.hint == ("合計 5 枚です。2 枚減らすか、ページに「上限枚数 5」を書いてください"
                         "（書かなければデッキ内上限枚数の 3 枚）")


@pytest.mark.parametrize("written", ["1", "0+1", "2-1", "(1)"])
def test_the_deck_cap_is_the_checked_deck_cap_of_the_page(written):
    text = f"ページ p {{ 銘 1; 上限枚数 {written}; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }} }}\n" + lines(
        "デッキ d {", "  p × 2", "}")
    assert found(text, "t.deck") == [("E055", 3, 3)]


@pytest.mark.parametrize("written", ["3", "1+2", "4-1"])
def test_the_deck_cap_is_the_checked_default_of_the_balance(written):
    assert "デッキ内上限枚数 3 " in BALANCE
    balance = BALANCE.replace("デッキ内上限枚数 3 ", f"デッキ内上限枚数 {written} ")
    context = {"b.balance": balance}
    assert found(PAGE + lines("デッキ d {", "  p × 4", "}"), "t.deck", context) == [
        ("E055", 3, 3)]
    assert found(PAGE + lines("デッキ d {", "  p × 3", "}"), "t.deck", context) == []


def test_a_page_deck_cap_is_at_most_the_deck_cap_bound():
    text = f"ページ p {{ 銘 1; 上限枚数 {DECK_CAP_BOUND + 1}; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }} }}\n"
    assert found(text) == [("E030", *col_of(text, str(DECK_CAP_BOUND + 1), 0))]


# ------------------------------------------------------------- other counts


def test_the_cards_one_effect_moves_are_bounded():
    text = lines("ページ t {", "  銘 30", "  未来面 {", "    生成 100枚 -> 手札 寿命 ステージ", "  }", "  ペン 過去面 { 歩 += 5 }", "}")
    assert found(text) == [("E048", 4, 8)]


def test_a_count_of_times_is_bounded():
    over = bound("times") + 1
    text = lines("ページ t {", "  銘 30", "  未来面 {",
                 f"    防御 += 1 毎 ターン開始時 範囲 ステージ 最大 {over} 回", "  }", "  ペン 過去面 { 歩 += 5 }", "}")
    assert found(text) == [("E048", *col_of(text, str(over), 0))]


# ------------------------------------------------------------------ lists


def _face_of(line: str, n: int, then: tuple[str, ...] = ("    防御 += 1",)) -> str:
    return lines("ページ t {", "  銘 30", "  未来面 {", *[f"    {line}"] * n, *then, "  }", "  ペン 過去面 { 歩 += 5 }", "}")


def _enemy(*body: str) -> str:
    return lines("敵 e {", "  HP 10", "  座 1", "  突破ライン 3", *body, "}")


def _nth(needle: str, key: str):
    """Where the element past the bound of ``key`` is: the next ``needle`` after ``bound``."""
    return lambda text: col_of(text, needle, bound(key))


#: limit → (text of n elements, path, where E048 points when n is past the bound)
LISTS = {
    "block_sayou": (lambda n: _face_of("防御 += 1", n, then=()), "t.page",
                    lambda _: (4 + bound("block_sayou"), 5)),
    "block_conditions": (lambda n: _face_of("条件 歩 >= 1", n), "t.page",
                         lambda _: (4 + bound("block_conditions"), 8)),
    "appears": (lambda n: lines("ページ t {", "  銘 30",
                                "  出現条件 " + ", ".join(["クリアしたステージ数 >= 1"] * n),
                                "  未来面 { 防御 += 1 }; ペン 過去面 { 歩 += 5 }", "}"), "t.page",
                _nth("クリア", "block_conditions")),
    "item_lines": (lambda n: lines("ページ t {", *["  フレーバー \"x\""] * (n - 3), "  銘 30",
                                   "  未来面 { 防御 += 1 }", "  ペン 過去面 { 歩 += 5 }", "}"), "t.page",
                   lambda _: (2 + bound("item_lines"), 3)),
    "intents": (lambda n: _enemy("  予兆 [", *["    攻撃 1"] * n, "  ]"), "t.enemy",
                lambda _: (6 + bound("intents"), 5)),
    "escalations": (lambda n: _enemy("  予兆 [攻撃 1]", *["  エスカレーション 2 ターンごと 攻撃 1"] * n),
                    "t.enemy", lambda _: (6 + bound("escalations"), 3)),
    "traits": (lambda n: _enemy("  予兆 [攻撃 1]", "  特性 {", *["    軽減 1"] * n, "  }"),
               "t.enemy", lambda _: (7 + bound("traits"), 5)),
    "trait_sayou": (lambda n: _enemy("  予兆 [攻撃 1]", "  特性 {",
                                     *["    座 += 1 毎 ターン開始時 予告"] * n, "  }"),
                    "t.enemy", lambda _: (7 + bound("block_sayou"), 5)),
    "deck_entries": (lambda n: PAGE + lines("デッキ d {", *["  p"] * n, "}"), "t.deck",
                     lambda _: (3 + bound("deck_entries"), 3)),
    "example_steps": (lambda n: lines("例 {", "  敵 e", *["  終了"] * n, "}"), "t.scenario",
                      lambda _: (3 + bound("example_steps"), 3)),
    "example_list": (lambda n: lines("例 {", "  敵 " + " ".join(["e"] * n), "  終了", "}"),
                     "t.scenario", _nth("e", "example_list")),
    "file_items": (lambda n: "".join(f"デッキ d{i} {{ p }}\n" for i in range(n)), "t.deck",
                   lambda _: (1 + bound("file_items"), 1)),
}
_BOUND_OF = {"appears": "block_conditions", "trait_sayou": "block_sayou"}


@pytest.mark.parametrize("limit", LISTS)
def test_each_list_over_its_bound_is_E048_at_the_first_element_past_it(limit):
    build, path, where = LISTS[limit]
    text = build(bound(_BOUND_OF.get(limit, limit)) + 1)
    assert found(text, path) == [("E048", *where(text))]


@pytest.mark.parametrize("limit", LISTS)
def test_each_list_at_its_bound_is_no_E048(limit):
    build, path, _ = LISTS[limit]
    codes = [code for code, *_ in found(build(bound(_BOUND_OF.get(limit, limit))), path)]
    assert "E048" not in codes


def test_a_file_over_the_token_bound_is_E048_before_it_is_parsed(monkeypatch):
    def refuse(*_args):
        raise AssertionError("parsed a file over the token bound")

    monkeypatch.setattr(dsl.parser, "parse", refuse)
    # 7 tokens before the face's first line (ページ t { 銘 30 未来面 {), then 2 a line
    # (抑制 刻): the token past the bound is on line 4 + (bound - 7) // 2.
    count = bound("file_tokens")
    text = lines("ページ t {", "  銘 30", "  未来面 {", *["    抑制 刻"] * (count // 2), "  }", "  ペン 過去面 { 歩 += 5 }", "}")
    assert found(text) == [("E048", 4 + (count - 7) // 2, 5)]


def test_the_bundled_content_is_far_under_every_bound():
    # The bounds are for pasted data, not for content: the real files use a few percent.
    from compiler.limits import _TOKEN

    for path in (ROOT / "content").rglob("*.*"):
        text = path.read_text(encoding="utf-8")
        assert len(_TOKEN.findall(text)) < bound("file_tokens") / 10, path


# ------------------------------------------------------------- the bombs


def _bombs():
    deck = "デッキ d {\n  p × %s\n}\n"
    return {
        "deck-20-digits": PAGE + deck % "99999999999999999999",
        "deck-hundred-million": PAGE + deck % "100000000",
        "page-150000-effects": lines("ページ bomb {", "  銘 1", "  未来面 {",
                                     *["防御+=1"] * 150_000, "}", "}"),
        # under the token bound, so parsed: then over the 作用 of one block, not checked
        "page-12000-effects": lines("ページ bomb {", "  銘 1", "  未来面 {",
                                    *["防御+=1"] * 12_000, "}", "}"),
        "generate-a-billion": lines("ページ t {", "  銘 30", "  未来面 {",
                                    "    生成 1000000000枚 -> 手札 寿命 ステージ", "  }", "  ペン 過去面 { 歩 += 5 }", "}"),
    }


#: The bombs that take a second or more (the fast loop leaves them out, README).
HEAVY_BOMBS = ("page-12000-effects",)


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow)
                                  if name in HEAVY_BOMBS else name for name in _bombs()])
def test_each_bomb_ends_reports_E048_and_exits_1(name, tmp_path):
    suffix = ".deck" if name.startswith("deck") else ".page"
    path = tmp_path / f"bomb{suffix}"
    path.write_text(_bombs()[name], encoding="utf-8")
    # cwd is the temporary folder: no content/ around, so no balance is in scope.
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "lint", str(path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "エラー[E048]" in proc.stdout
    assert "E000" not in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("amount", [ATTACK_BOUND, ATTACK_BOUND + 1, 99999999])
def test_an_attack_over_its_bound_is_E030_naming_the_bound(amount):
    text = f"敵 e \"e\" {{ HP 10; 座 5; 突破ライン 10; 予兆 [ 攻撃 {amount} ] }}\n"
    said = [(d.code, d.message) for d in check_text(text, "t.enemy").diagnostics]
    if amount <= ATTACK_BOUND:
        assert said == []
    else:
        assert said == [("E030", f"攻撃の打点は 0〜{ATTACK_BOUND} の整数です（{amount}）")]


@pytest.mark.parametrize("start, said", [(200, False), (201, True)])
def test_a_start_hp_over_the_max_hp_is_E030_at_the_start_hp(start, said):
    # 最大HP 200 in the bundled balance: a run may not begin above it.
    text = BALANCE.replace("初期HP 200", f"初期HP {start}")
    assert text != BALANCE or start == 200
    found_ = [(d.code, d.span.line, d.message) for d in check_text(text, "t.balance").diagnostics]
    line = text[:text.index("初期HP")].count("\n") + 1
    assert found_ == ([("E030", line, f"初期HPは最大HP（200）以下です（{start}）")] if said else [])


@pytest.mark.parametrize("start, said", [(80, False), (81, True)])
def test_a_start_age_past_the_lifespan_cap_is_E030_at_the_start_age(start, said):
    """刻 stands on the number line, 0 to 寿命上限 (spec 000 盤面): a run may not begin past
    its end (the rules would raise 寿命上限 to it)."""
    assert "寿命上限 80" in BALANCE
    text = re.sub(r"初期刻 \d+", f"初期刻 {start}", BALANCE)
    found_ = [(d.code, d.span.line, d.message, d.hint)
              for d in check_text(text, "t.balance").diagnostics]
    line = text[:text.index("初期刻")].count("\n") + 1
    assert found_ == ([("E030", line, f"初期刻は寿命上限（80）以下です（{start}）",
                        "刻は寿命上限を超えられません（初期刻を下げるか、寿命上限を上げます）")]
                      if said else [])


@pytest.mark.parametrize("written, said", [
    # an exponent is said as such: 1e3 is no decimal to the eye (it is read as one)
    ("2e1", "銘は 0〜200 の整数です（2e1 は指数で書いた数で、小数として読みます。整数は 20 と書きます）"),
    ("20.0", "銘は 0〜200 の整数です（20.0 は小数です。整数は 20 と書きます）"),
    ("20.5", "銘は 0〜200 の整数です（20.5）"),
    ("1e3", "銘は 0〜200 の整数です（1e3）"),  # no 1000 offered: out of the range too
    ("201", "銘は 0〜200 の整数です（201）"),
])
def test_a_whole_number_written_as_a_decimal_is_quoted_as_written(written, said):
    # It was quoted as read, "（20.0）", under a message saying 0〜200 integers.
    text = f"ページ p \"p\" {{ 銘 {written}; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }} }}\n"
    assert [(d.code, d.message) for d in check_text(text, "t.page").diagnostics] == \
        [("E030", said)]
