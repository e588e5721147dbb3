"""Rules fidelity round 3, compile-time rows (issue 25; DESIGN §6.2 overrules older text).

One test per rule, named after it, in the style of tests/test_rules.py: a rejecting input
gives exactly one diagnostic, with its code at line:col, and the corrected input is clean.
``face`` puts the first 作用 of a face on line 4, column 5 (the other face blank, with a
pen); ``enemy`` the first trait on line 7, column 5.
"""

from __future__ import annotations

import pytest

from compiler.lint import check_text
from contract import vocabulary as vocab
from conftest import ROOT, bundled_balance, codes
from test_rules import PEN, accepts, enemy, face, rejects

BALANCE = bundled_balance()
#: The reward line of the bundled balance, which the reward tests replace.
REWARD = "綻び報酬 { 上限 歩の規定量 += 5 寿命 ラン }"


def reward(body: str) -> str:
    """The bundled balance with ``body`` as its 綻び報酬."""
    assert REWARD in BALANCE
    return BALANCE.replace(REWARD, f"綻び報酬 {{ {body} }}")


def reward_line() -> int:
    """The line of the 綻び報酬 in the bundled balance (its first 作用 is at column 10)."""
    return next(i for i, line in enumerate(BALANCE.split("\n"), 1) if REWARD in line)


def reward_codes(body: str) -> list[tuple[str, int, int]]:
    found = check_text(reward(body), "b.balance").diagnostics
    return [(d.code, d.span.line, d.span.col) for d in found]


# ================================================== the player's HP (item 1)


@pytest.mark.parametrize("bad", ["HP -= 300", "HP += -3"])
def test_hp_falls_only_by_attacks_and_payments_on_a_page(bad):
    found = rejects(face(bad), "E062", 4, 5)
    assert "支払う HP" in found.hint
    accepts(face("支払う HP 5"))
    accepts(face("HP += 5"))  # a rare heal stays a page's to give


@pytest.mark.parametrize("where", ["pen", "tear"])
def test_hp_falls_only_by_attacks_and_payments_in_a_pen_and_a_tear(where):
    after = {"pen": ("過去面 白紙", "ペン 過去面 { HP -= 10 }"),
             "tear": ("破却 { HP -= 10 }",)}[where]
    assert codes(face("敵HP -= 5", after=after)) == ["E062"]


def test_hp_falls_only_by_attacks_and_payments_in_a_reward():
    line = reward_line()
    assert reward_codes("HP -= 10") == [("E062", line, 10)]
    assert reward_codes("上限 歩の規定量 += 5 寿命 ラン") == []


def test_an_enemy_trait_lowers_hp_only_by_an_intent():
    found = rejects(enemy("HP -= 5 毎 ターン開始時"), "E062", 7, 5)
    assert "予兆 [ 攻撃" in found.hint


# ===================================================== 防御 falling (item 2)


@pytest.mark.parametrize("bad", ["防御 -= 3", "防御 += -2", "防御 *= 0.5", "防御 *= 0",
                                 "防御 *= 使用した歩[プレイ] × 2"])
def test_defense_falls_only_by_hits_and_its_lifetime_on_a_page(bad):
    rejects(face(bad), "E063", 4, 5)


@pytest.mark.parametrize("good", ["防御 += 3", "防御 *= 1.5"])
def test_defense_may_grow_or_stay_on_a_page(good):
    accepts(face(good))


def test_defense_multiplied_by_one_stays_and_changes_nothing():
    """Not E063 (it does not fall): W018 alone (it changes nothing)."""
    rejects(face("防御 *= 1"), "W018", 4, 11)


def test_defense_falls_only_by_hits_and_its_lifetime_in_an_enemy_trait_and_a_reward():
    found = rejects(enemy("防御 -= 5 毎 ターン開始時"), "E063", 7, 5)
    assert "予兆 [ 攻撃" in found.hint
    assert reward_codes("防御 -= 5") == [("E063", reward_line(), 10)]
    assert codes(face("敵HP -= 5", after=("破却 { 防御 *= 0.5 }",))) == ["E063"]


# ========================================= who gives long-lived defense (item 8)


@pytest.mark.parametrize("lifetime, col", [("被弾1回", 22), ("ステージ", 22), ("ラン", 22)])
def test_an_enemy_trait_gives_defense_of_lifetime_turn_only(lifetime, col):
    found = rejects(enemy(f"防御 += 5 毎 ターン開始時 寿命 {lifetime}"), "E064", 7, col)
    assert f"「{lifetime}」" in found.message and "ページの作用だけ" in found.hint
    accepts(enemy("防御 += 5 毎 ターン開始時 寿命 ターン"))
    accepts(enemy("防御 += 5 毎 ターン開始時"))  # 防御's own lifetime is ターン


@pytest.mark.parametrize("lifetime", ["被弾1回", "ステージ", "ラン"])
def test_a_reward_gives_defense_of_lifetime_turn_only(lifetime):
    line = reward_line()
    assert reward_codes(f"防御 += 5 寿命 {lifetime}") == [("E064", line, 18)]
    assert reward_codes("防御 += 5 寿命 ターン") == []


def test_a_page_may_give_long_lived_defense():
    for lifetime in ("被弾1回", "ステージ", "ラン"):
        accepts(face(f"防御 += 5 寿命 {lifetime}"))
        assert codes(face("敵HP -= 5", after=(f"破却 {{ 防御 += 2 寿命 {lifetime} }}",))) == []


def test_a_reward_may_not_raise_hp():
    line = reward_line()
    assert reward_codes("HP += 20") == [("E065", line, 10)]
    assert reward_codes("上限 最大HP += 20 寿命 ラン") == []


# ============================================ a blank face needs its pen (item 6)


def test_a_face_written_blank_must_say_what_the_pen_writes():
    text = "ページ t {\n  銘 30\n  未来面 { 敵HP -= 6 }\n  過去面 白紙\n}\n"
    found = rejects(text, "E066", 4, 3)
    assert "ペン 過去面 { … }" in found.message
    accepts(text.replace("  過去面 白紙\n", f"  過去面 白紙\n  ペン 過去面 {{ {PEN} }}\n"))


def test_a_face_not_written_at_all_must_say_what_the_pen_writes():
    # not written at all: reported at the page's id, one diagnostic per face
    text = "ページ t {\n  銘 30\n}\n"
    found = check_text(text, "t.page").diagnostics
    assert [(d.code, d.span.line, d.span.col) for d in found] == [("E066", 1, 5), ("E066", 1, 5)]
    assert {d.message[:3] for d in found} == {"未来面", "過去面"}
    accepts(f"ページ t {{\n  銘 30\n  ペン 未来面 {{ {PEN} }}\n  ペン 過去面 {{ {PEN} }}\n}}\n")


def test_a_written_face_may_have_no_pen_upgrade():
    accepts(face("敵HP -= 6", after=("過去面 { 防御 += 4 }",)))


def test_every_blank_face_of_the_bundled_content_says_what_the_pen_writes():
    from compiler.build import compile_content

    compiled = compile_content(ROOT / "content")
    assert compiled.ok
    pages = compiled.tables["pages"]["pages"]
    blank = [(pid, side) for pid, page in pages.items() for side, f in page["faces"].items()
             if not f["written"]]
    assert len(blank) >= 52
    assert [(pid, side) for pid, side in blank if pages[pid]["pens"][side] is None] == []


# ======================================= permanent parameters: integer or coefficient


PARAMETERS = [v for v in vocab.VARIABLES if v.kind == "param"]


def test_every_permanent_parameter_is_an_integer_or_a_coefficient():
    assert PARAMETERS
    assert {v.param_kind for v in PARAMETERS} <= set(vocab.PARAMETER_KINDS)
    assert None not in {v.param_kind for v in PARAMETERS}
    kinds = {v.ja: v.param_kind for v in PARAMETERS}
    assert kinds["防御係数"] == "coefficient"
    for name in ("手札上限", "ドロー枚数", "歩の規定量", "寿命上限", "ペン回数上限",
                 "破り回数上限", "同刻上限", "歩の持ち越し"):
        assert kinds[name] == "integer", name
    # no variable that is no parameter claims a kind
    assert {v.param_kind for v in vocab.VARIABLES if v.kind != "param"} == {None}


@pytest.mark.parametrize("name", [v.ja for v in PARAMETERS if v.param_kind == "integer"])
def test_a_fractional_cap_change_of_an_integer_parameter_is_an_error(name):
    found = rejects(face(f"上限 {name} += 0.5 寿命 ステージ"), "E067", 4, 12 + len(name))
    assert "整数" in found.message
    rejects(face(f"上限 {name} -= 使用した歩[プレイ] × 0.1 寿命 ステージ"), "E067", 4, 12 + len(name))
    accepts(face(f"上限 {name} += 2 寿命 ステージ"))
    accepts(face(f"上限 {name} += 使用した歩[プレイ] × 2 寿命 ステージ"))


def test_a_cap_change_of_a_coefficient_keeps_its_fraction():
    accepts(face("上限 防御係数 += 0.5 寿命 ステージ"))
    result = check_text(face("上限 防御係数 += 0.5 寿命 ステージ"), "t.page")
    (effect,) = result.model["pages"][0].faces["future"].effects
    assert effect.base.value == 0.5


def test_the_vocabulary_reference_names_each_parameters_kind():
    from contract.reference import find

    def said(name: str) -> str:
        (row,) = [e for e in find(name) if e.section == "variable"]
        return row.detail

    assert said("手札上限").startswith("恒久パラメータ（整数）")
    assert said("防御係数").startswith("恒久パラメータ（係数）")


# ================================================== an empty 予兆 (item 7)


def test_an_empty_intent_list_is_its_own_error_not_an_internal_one():
    text = enemy("軽減 2").replace("予兆 [ 攻撃 16 ]", "予兆 [ ]")
    found = rejects(text, "E068", 5, 3)
    assert "1つの Intent" in found.hint
    accepts(enemy("軽減 2"))


# ============================================ enemy traits after the enemy fell


@pytest.mark.parametrize("timing, col", [("敵のHPが0になった時", 15), ("ステージ終了時", 15)])
def test_an_enemy_trait_after_the_enemy_fell_never_fires(timing, col):
    found = rejects(enemy(f"敵HP += 50 毎 {timing}"), "W004", 7, col)
    assert found.severity == "warning" and "倒れている" in found.hint
    accepts(enemy("敵HP += 5 毎 敵の行動前"))


def test_the_players_effects_may_wait_for_the_enemy_to_fall():
    # (a page that deals damage: in content where nothing does, 敵HP never reaches 0 — W009)
    accepts(face("敵HP -= 5", "HP += 12 毎 敵のHPが0になった時 範囲 ラン 最大 1 回"))
    accepts(face("@終 += 1 毎 ステージ終了時 範囲 ラン"))


# ======================================= a 生成 pool the filter leaves empty


def _bundled_pages() -> dict[str, str]:
    return {str(p): p.read_text(encoding="utf-8")
            for p in sorted((ROOT / "content" / "pages").glob("*.page"))}


@pytest.mark.parametrize("bad", ["生成 銘 150..160 -> 手札 寿命 ステージ",
                                 "生成 出自 夢 銘 0..12 -> 手札 寿命 ステージ",
                                 "生成 出自 幼少期 銘 13..18 -> 手札 寿命 ステージ"])
def test_a_generation_pool_empty_for_the_bundled_content_is_a_warning(bad):
    found = rejects(face(bad), "W005", 4, 5, context=_bundled_pages())
    assert found.severity == "warning"


@pytest.mark.parametrize("good", ["生成 出自 幼少期 銘 0..12 -> 手札 寿命 ステージ",
                                  "生成 出自 夢 -> 手札 寿命 ステージ",
                                  "生成 ページ指定 tabidachi -> 手札 寿命 ステージ",
                                  "生成 -> 手札 寿命 ラン"])
def test_a_generation_pool_that_holds_a_page_is_quiet(good):
    accepts(face(good), context=_bundled_pages())


def test_a_generation_pool_counts_the_page_being_written():
    """The page holding the filter is in the pages table too: its own 銘 fills a range."""
    accepts(face("生成 銘 30..30 -> 手札 寿命 ステージ"))
    rejects(face("生成 銘 31..31 -> 手札 寿命 ステージ"), "W005", 4, 5)


# ======================================== tear-scaled multipliers: the text says it


def test_the_vocabulary_says_a_torn_multiplier_grows_by_its_excess_over_one():
    note = vocab.tables()["balance"].by_code("tear_scale").note
    assert "1 + 係数 × 距離" in note
    assert "1 を超える分" in note and "×(1 + 0.2 × (1 + 係数 × 距離))" in note
