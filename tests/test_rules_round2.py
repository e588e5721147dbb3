"""Rules fidelity round 2, compiler half (issue 10; DESIGN §6.1 overrules older text).

One test per rule, named after it. Lint tests assert the code and line:col of the
diagnostic on a rejecting input and that the corrected input is clean, in the style of
tests/test_rules.py (whose ``face``/``enemy`` helpers put the first 作用 of a face on line
4, column 5, and the first trait of an enemy on line 7, column 5).
"""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from catalog.phrasing import phrase
from cli import main
from contract import vocabulary as vocab
from compiler.build import compile_content
from compiler.lint import check_text
from contract.codec import to_literal
from conftest import ROOT, bundled_balance
from conftest import codes as conftest_codes
from test_rules import OTHER, PEN, accepts, enemy, face, rejects

BALANCE = bundled_balance()


def checked_face(text: str, side: str = "future", context: dict | None = None):
    """The checked face (contract.tables.Face) of the first page; text must be clean."""
    result = check_text(text, "t.page", context)
    assert result.errors == 0, [(d.code, d.span.line, d.span.col, d.message)
                                for d in result.diagnostics]
    return result.model["pages"][0].faces[side]


def lowered_face(text: str, side: str = "future", context: dict | None = None) -> dict:
    """The body (conditions, effects) of the first page's face as the tables write it."""
    face = checked_face(text, side, context)
    return {"conditions": to_literal(face.conditions), "effects": to_literal(face.effects)}


def pen_page(face_line: str, pen_body: str) -> str:
    """Line 1 head, 2 銘, 3 the future face, 4 past blank, 5 the pen head, 6 its first line."""
    return "\n".join(["ページ t {", "  銘 30", f"  未来面 {face_line}", "  過去面 白紙",
                      "  ペン 未来面 {", *(f"    {b}" for b in pen_body.split("; ")), "  }",
                      f"  ペン 過去面 {{ {PEN} }}", "}"]) + "\n"


# ============================================================ A. pen on a written face


def test_pen_on_a_written_face_may_not_hold_conditions():
    found = rejects(pen_page("{ 条件 跨ぐ; 敵HP -= 6 }", "条件 跨がない; 敵HP -= 9"), "E045", 6, 8)
    assert "条件はそのまま残ります" in found.hint
    accepts(pen_page("{ 条件 跨ぐ; 敵HP -= 6 }", "敵HP -= 9"))


def test_pen_on_a_blank_face_writes_the_block_whole_with_its_conditions():
    accepts(pen_page("白紙", "条件 跨がない; 敵HP -= 9"))
    # a face not mentioned at all is blank too
    accepts("ページ t {\n  銘 30\n  ペン 過去面 { 条件 歩 >= 10; 防御 += 5 }\n"
            "  ペン 未来面 { 条件 跨ぐ; 敵HP -= 9 }\n}\n")


def test_pen_on_a_written_face_lowers_no_conditions_and_the_catalog_shows_the_kept_ones(
        tmp_path):
    from catalog.phrasing import text
    from catalog.render import _page_view
    from runtime.tables import from_dicts

    content = _content_with(tmp_path, "ページ penned {\n  銘 30\n  未来面 { 条件 跨ぐ; 敵HP -= 6 }\n"
                            "  過去面 白紙\n  ペン 未来面 { 敵HP -= 9 }\n"
                            "  ペン 過去面 { 条件 歩 >= 10; 防御 += 5 }\n}\n")
    compiled = compile_content(content)
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    page = compiled.tables["pages"]["pages"]["penned"]
    assert page["pens"]["future"]["conditions"] == []          # the runtime keeps the face's
    assert len(page["pens"]["past"]["conditions"]) == 1        # a blank face: written whole
    tables = from_dicts(compiled.tables)
    view = _page_view(tables.pages["penned"], tables, {}, {})
    future, past = view["faces"]

    def rows(face):  # the pen as a difference from the face (issue 18 item 4)
        return [(row["mark"], text(row["pieces"])) for row in face["pen"]]

    assert rows(future) == [("kept", "条件: このプレイで座を跨ぐ"),
                            ("removed", "敵HPに 6 のダメージ"), ("added", "敵HPに 9 のダメージ")]
    assert rows(past) == [("added", "条件: 歩 ≥ 10"), ("added", "防御+5（ターン終了まで）")]


# ================================================================ B. seat movement


def test_seat_moves_only_by_a_telegraphed_turn_start_trait():
    found = rejects(enemy("座 += 4 毎 ターン開始時"), "E046", 7, 5)
    assert "予告" in found.hint
    rejects(enemy("座 += 4 毎 敵の行動後 予告"), "E046", 7, 12)   # points at the timing
    rejects(enemy("座 = 50 毎 ターン終了時"), "E046", 7, 12)
    accepts(enemy("座 += 4 毎 ターン開始時 予告"))
    accepts(enemy("座 = 50 毎 ターン開始時 予告 範囲 ステージ 最大 1 回"))


def test_telegraph_on_anything_but_a_seat_move_stays_E042():
    rejects(enemy("防御 += 5 毎 ターン開始時 予告"), "E042", 7, 22)
    rejects(face("防御 += 6 予告"), "E042", 4, 13)


# ========================================================= C. forms to accept


@pytest.mark.parametrize("line", ["敵HP *= 0.5", "通貨 *= 2", "防御 *= 2", "歩 *= 0.5",
                                  "攻撃倍率 *= 1.5 範囲 ターン", "烙印 *= 1.2 範囲 ステージ",
                                  "支払い倍率 *= 0.5 範囲 以降 1 プレイ",
                                  "綻び倍率 *= 2 範囲 ラン"])
def test_multiply_is_allowed_on_enemy_hp_currency_defense_steps_and_multiply_modifiers(line):
    (effect,) = lowered_face(face(line))["effects"]
    assert (effect["op"], effect["landing"]) == ("mul", "fixed")


def test_multiply_on_the_players_hp_is_refused_with_a_hint():
    found = rejects(face("HP *= 2"), "E050", 4, 5)
    assert "攻撃・支払い・まれな回復" in found.hint
    rejects(face("敵HP *= 2 補正あり"), "E023", 4, 14)  # the landing is always 固定
    accepts(face("HP += 5"))


def test_assigning_another_pages_year_takes_a_constant_or_a_reference():
    effects = lowered_face(face("銘[tabidachi] = 刻", "銘[tabidachi] = 40") + OTHER)["effects"]
    assert effects[0]["base"] == {"kind": "ref", "ref": {"kind": "variable", "variable": "age"},
                                  "coef": 1}
    assert effects[0]["target"] == {"code": "year", "page": "tabidachi"}
    assert effects[1]["base"] == {"kind": "const", "value": 40}
    rejects(face("銘[tabidachi] = 201") + OTHER, "E030", 4, 20)  # a constant stays in 0..200


def test_a_page_may_not_assign_its_own_year():
    found = rejects(face("銘[t] = 刻") + OTHER, "E024", 4, 5)
    assert "他のページ" in found.hint
    accepts(face("銘[tabidachi] = 刻") + OTHER)


def test_duplicate_may_put_the_copy_into_the_hand():
    (effect,) = lowered_face(face("複製 手札 -> 手札 選択 寿命 ステージ"))["effects"]
    assert (effect["op"], effect["source"], effect["dest"]) == ("duplicate", "hand", "hand")
    rejects(face("移動 1枚 手札 -> 手札"), "E037", 4, 5)  # a move to where it is stays refused


def test_generate_two_pages_compiles():
    (effect,) = lowered_face(face("生成 2枚 銘 10..20 -> 手札 寿命 ステージ"))["effects"]
    assert (effect["op"], effect["count"], effect["pick"]) == ("generate", 2, "random")
    assert effect["filter"] == {"year": [10, 20]}


@pytest.mark.parametrize("written, region", [("山札+捨て札", "deck"), ("捨て札+山札", "deck"),
                                             ("山札+捨て札+手札", "all"), ("手札+山札+捨て札", "all")])
def test_combined_region_with_a_page_subscript_is_a_page_count(written, region):
    body = lowered_face(face(f"条件 {written}[tabidachi] >= 1",
                             f"敵HP -= {written}[tabidachi] × 2",
                             f"防御 += {written} × 0.5") + OTHER)
    page_count = {"kind": "page_count", "region": region, "page": "tabidachi"}
    assert body["conditions"][0]["terms"][0] == page_count
    assert body["effects"][0]["base"] == {"kind": "ref", "ref": page_count, "coef": 2}
    assert body["effects"][1]["base"] == {"kind": "ref", "coef": 0.5,
                                          "ref": {"kind": "region_count", "region": region}}
    # the same as the ASCII name of the 合算
    ascii_ = lowered_face(face(f"条件 {region}[tabidachi] >= 1", f"敵HP -= {region}[tabidachi] × 2",
                               f"防御 += {region} × 0.5") + OTHER)
    assert ascii_ == body


def test_combined_region_page_count_reports_an_unknown_page_at_the_subscript():
    rejects(face("条件 山札+捨て札[tabidachii] >= 1", "敵HP -= 1") + OTHER, "E011", 4, 15)
    rejects(face("敵HP -= 山札+捨て札[以降 2 プレイ]"), "E040", 4, 19)


def test_reveal_lowers_to_the_form_the_runtime_reads():
    effects = lowered_face(face("公開 3枚 山札", "reveal draw", "公開 2枚 山札 毎 ターン開始時 範囲 ステージ"))[
        "effects"]
    common = {"op": "reveal", "direction": None, "landing": None, "target": {"code": "pages"},
              "base": None, "lifetime": None, "telegraphed": False, "source": "draw",
              "dest": None, "pick": "top", "filter": {}}
    first, second, third = ({k: v for k, v in e.items() if k != "names"} for e in effects)
    assert first == {**common, "count": 3, "timing": "on_play", "line": 4,
                     "repeat": {"scope": "play", "unit": None, "n": None, "max": 1}}
    assert second == {**first, "count": 1, "line": 5}     # the count defaults to 1
    assert third == {**common, "count": 2, "timing": "turn_start", "line": 6,
                     "repeat": {"scope": "stage", "unit": None, "n": None, "max": None}}


def test_reveal_shows_only_the_draw_pile_and_at_least_one_page():
    rejects(face("公開 2枚 手札"), "E037", 4, 11)
    rejects(face("公開 山札+捨て札"), "E037", 4, 8)
    rejects(face("公開 0枚 山札"), "E039", 4, 8)
    rejects(face("公開 山札 固定"), "E051", 4, 11)
    accepts(face("公開 山札"))


def test_reveal_has_rules_text():
    (effect,) = checked_face(face("公開 3枚 山札")).effects
    assert phrase(effect) == "山札の上から 3 枚を公開する（その順に引く）"


def test_steps_carry_is_a_parameter_changed_for_a_turn_a_stage_or_the_run():
    for life in ("ターン", "ステージ", "ラン"):
        (effect,) = lowered_face(face(f"上限 歩の持ち越し += 10 寿命 {life}"))["effects"]
        assert (effect["op"], effect["target"]) == ("cap", {"code": "steps_carry"})
    accepts(face("上限 steps_carry += 10 life turn"))
    rejects(face("上限 歩の持ち越し += 10"), "E026", 4, 5)            # the lifetime is the designer's
    rejects(face("歩の持ち越し += 10 寿命 ラン"), "E035", 4, 5)        # by cap change only
    rejects(face("上限 寿命上限 += 10 寿命 ターン"), "E027", 4, 19)    # other parameters: no turn


def test_steps_carry_is_optional_in_the_balance_and_always_in_the_compiled_table(tmp_path):
    assert vocab.lookup("balance", "歩の持ち越し").default == 0
    assert check_text(BALANCE, "b.balance").diagnostics == []           # without it: clean
    written = BALANCE.replace("初期刻 20", "初期刻 20\n  歩の持ち越し 5")
    assert check_text(written, "b.balance").diagnostics == []
    assert [d.code for d in check_text(written.replace("歩の持ち越し 5", "歩の持ち越し -1"),
                                       "b.balance").diagnostics] == ["E030"]
    for text, expected in ((BALANCE, 0), (written, 5)):
        compiled = compile_content(_content_with(tmp_path, "", balance=text))
        assert compiled.ok and compiled.tables["balance"]["balance"]["steps_carry"] == expected


def test_new_forms_compile_through_the_schemas(tmp_path):
    content = _content_with(tmp_path, 
        "ページ round2 {\n  銘 30\n  未来面 {\n    公開 2枚 山札\n    銘[tabidachi] = 刻\n"
        "    複製 手札 -> 手札 寿命 ステージ\n    生成 2枚 -> 手札 寿命 ステージ\n"
        "    敵HP *= 0.9\n    通貨 *= 2\n    上限 歩の持ち越し += 10 寿命 ターン\n  }\n"
        "  過去面 {\n    条件 山札+捨て札[tabidachi] >= 1\n    敵HP -= 山札+捨て札+手札[tabidachi] × 3\n"
        "  }\n}\n")
    compiled = compile_content(content)  # validates every table against schemas/
    assert compiled.ok, [(d.code, d.message) for d in compiled.diagnostics]
    ops = [e["op"] for e in compiled.tables["pages"]["pages"]["round2"]["faces"]["future"]["effects"]]
    assert ops == ["reveal", "assign", "duplicate", "generate", "mul", "mul", "cap"]
    assert "reveal" in compiled.tables["vocabulary"]["operations"]
    assert "steps_carry" in compiled.tables["vocabulary"]["variables"]


# ============================================= D. forms that compile but do nothing


def test_enemy_trait_may_not_assign_face_state():
    found = rejects(enemy("記入状態 = 0 毎 ターン開始時"), "E024", 7, 5)
    assert "予兆 [ 白紙化 手札 ]" in found.hint
    rejects(face("記入状態 = 0"), "E024", 4, 5)  # pages as before


def test_tear_repeat_range_is_the_run():
    def torn(line: str) -> str:  # the tear effect on line 4, column 8
        return (f"ページ t {{\n  銘 30\n  未来面 {{ 敵HP -= 1 }}\n  破却 {{ {line} }}\n"
                f"  ペン 過去面 {{ {PEN} }}\n}}\n")

    found = rejects(torn("防御 += 3 毎 ターン開始時 範囲 ステージ"), "E047", 4, 25)
    assert "最大" in found.hint
    rejects(torn("攻撃力補正 += 2 範囲 以降 3 プレイ"), "E047", 4, 19)
    rejects(torn("攻撃力補正 += 2 範囲 ターン"), "E047", 4, 19)
    accepts(torn("防御 += 3 毎 ターン開始時 範囲 ラン 最大 5 回"))
    accepts(torn("攻撃力補正 += 2"))


@pytest.mark.parametrize("line, col", [
    ("@来世 += 1 毎 ラン開始時 範囲 ラン", 14),
    ("@x += 1 毎 プレイ時 範囲 プレイ", 13),
    ("防御 += 2 毎 ターン終了時 範囲 プレイ", 13),
    ("防御 += 2 毎 ターン開始時 範囲 ターン", 13),     # this turn's start is before any play
    ("防御 += 2 毎 ステージ開始時 範囲 ステージ", 13),
    ("敵HP -= 2 毎 被弾時 範囲 プレイ", 14),        # a hit comes in the enemy's part of the turn
    ("@x += 1 毎 破った時 範囲 プレイ", 13),        # tearing is an action of its own
    ("@x += 1 毎 ペンを使った時 範囲 プレイ", 13),
])
def test_timing_that_never_fires_where_it_is_written_is_a_warning(line, col):
    found = rejects(face(line), "W004", 4, col)
    assert found.hint
    assert not found.is_error


def test_timing_that_never_fires_in_an_enemy_trait_or_a_tear_is_a_warning():
    rejects(enemy("@x += 1 毎 ラン開始時"), "W004", 7, 13)
    rejects("ページ t {\n  銘 30\n  未来面 { 敵HP -= 1 }\n  破却 { @x += 1 毎 ラン開始時 }\n"
            f"  ペン 過去面 {{ {PEN} }}\n}}\n", "W004", 4, 16)


@pytest.mark.parametrize("line", ["@x += 1 毎 プレイ時 範囲 ターン", "@x += 1 毎 プレイ時 範囲 以降 2 プレイ",
                                  "防御 += 2 毎 ターン開始時 範囲 ステージ", "防御 += 2 毎 ターン終了時 範囲 ターン 寿命 ステージ",
                                  "@x += 1 毎 ステージ開始時 範囲 ラン", "@x += 1 毎 座を跨いだ時 範囲 プレイ"])
def test_timings_that_can_fire_give_no_warning(line):
    accepts(face(line))


@pytest.mark.parametrize("timing", ["ターン終了時", "敵の行動後"])
def test_defense_of_the_turn_gained_after_the_enemys_hits_is_a_warning(timing):
    """W017: 防御 of 寿命 ターン (its default) gained after the enemy acted is gone at the
    turn's end before any hit — counted as 得た防御, absorbing nothing."""
    found = rejects(face(f"防御 += 4 毎 {timing} 範囲 ステージ"), "W017", 4, 13)
    assert not found.is_error and "寿命 被弾1回" in found.hint


@pytest.mark.parametrize("line", ["防御 += 4 毎 ターン終了時 範囲 ステージ 寿命 ステージ",
                                  "防御 += 4 毎 ターン終了時 範囲 ステージ 寿命 被弾1回",
                                  "防御 += 4 毎 敵の行動前 範囲 ステージ",
                                  "防御 += 4 毎 被弾時 範囲 ステージ"])
def test_defense_that_can_meet_a_hit_gives_no_warning(line):
    accepts(face(line))


@pytest.mark.parametrize("line, col", [("敵HP -= 0", 12), ("防御 += 使用した歩[プレイ] × 0", 11),
                                       ("歩 *= 1", 10), ("支払う HP 0", 12)])
def test_an_effect_that_changes_nothing_is_a_warning(line, col):
    """W018: 敵HP -= 0 printed as 「敵HPに 0 のダメージ」 and passed lint silently."""
    found = rejects(face(line), "W018", 4, col)
    assert not found.is_error


@pytest.mark.parametrize("line", ["敵HP -= 1", "歩 *= 0", "@x = 0", "防御 *= 0.5"])
def test_an_effect_that_changes_something_gives_no_nothing_warning(line):
    assert "W018" not in conftest_codes(face(line))


def test_enemy_traits_may_wait_for_the_turn_start_of_a_stage():
    accepts(enemy("防御 += 5 毎 ターン開始時 範囲 ターン"))  # not placed by a play


def test_bundled_content_uses_no_timing_that_never_fires():
    result = CliRunner().invoke(main, ["lint", str(ROOT / "content")])
    assert result.exit_code == 0, result.output
    assert "W004" not in result.output and "警告 0 件" in result.output


# ===================================== E. duplicate ids in full and one-file lint


def _two_files(tmp_path):
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "a.page").write_text("# a\nページ tabidachi {\n  銘 36\n  未来面 { 敵HP -= 12 }\n"
                                   f"  ペン 過去面 {{ {PEN} }}\n}}\n", encoding="utf-8")
    (folder / "b.page").write_text("ページ tabidachi {\n  銘 40\n  未来面 { 敵HP -= 3 }\n"
                                   f"  ペン 過去面 {{ {PEN} }}\n}}\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("args, expected", [
    ([], ["content/a.page:2:5", "content/b.page:1:5"]),
    (["content"], ["content/a.page:2:5", "content/b.page:1:5"]),
    (["content/a.page"], ["content/a.page:2:5"]),
    (["content/b.page"], ["content/b.page:1:5"]),
])
def test_duplicate_id_is_reported_at_every_definition_in_full_and_one_file_lint(
        tmp_path, monkeypatch, args, expected):
    _two_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["lint", *args])
    assert result.exit_code == 1, result.output
    found = [line.split(": エラー[")[0] for line in result.output.splitlines()
             if "エラー[E012]" in line]
    assert found == expected, result.output


def test_duplicate_id_in_json_lint_of_one_file(tmp_path, monkeypatch):
    import json

    _two_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["lint", "--format", "json", "content/a.page"])
    assert result.exit_code == 1
    assert [d["code"] for d in json.loads(result.output)] == ["E012"]


# ------------------------------------------------------------------ helpers


def _content_with(tmp_path, extra_page: str, balance: str | None = None):
    """A copy of the bundled content (pages, enemies, deck, balance) plus one page file."""
    folder = tmp_path / "content"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(ROOT / "content", folder, ignore=shutil.ignore_patterns("tests"))
    if balance is not None:
        (folder / "balance.balance").write_text(balance, encoding="utf-8")
    if extra_page:
        (folder / "pages" / "round2.page").write_text(extra_page, encoding="utf-8")
    return folder


# ------------------------------------------- syntax errors: lark's example matching

@pytest.mark.parametrize("text, pos, hint", [
    ("ページ t {\n  銘 = 30\n}\n", (2, 5), "項目の値は = なしで"),
    ("ページ t \"試験\" {\n  銘 = 30\n  未来面 { 敵HP -= 1 }\n}\n", (2, 5), "項目の値は = なしで"),
    ("ページ t \"試験\" {\n  銘 3\n  未来面 敵HP -= 3\n}\n", (3, 7), "面の作用は { } で囲みます"),
    ("enemy e {\n  hp = 30\n}\n", (2, 6), "項目の値は = なしで"),
    ("ページ t {\n  銘 3\n  未来面 敵HP -= 3\n}\n", (3, 7), "面の作用は { } で囲みます"),
    ("ページ t {\n  銘 3\n  敵HP -= 3\n}\n", (3, 3), "作用は面の中に書きます"),
    ("ページ t {\n  銘 3\n  未来面 { 敵HP 3 }\n}\n", (3, 13), "作用には演算子が要ります"),
    ("page t {\n  year 3\n  past { defense >= 3 }\n}\n", (3, 18), "比較は作用ではなく条件に"),
    # a field with = wherever it stands in its item, the balance's keys too
    ("ページ t \"x\" {\n  銘 3\n  出自 少年期\n  綻び倍率 = 2.0\n}\n", (4, 8),
     "項目の値は = なしで、名前の後に書きます（綻び倍率 2.0）"),
    ("敵 e {\n  HP 3\n  座 7\n  突破ライン = 150   # メモ\n}\n", (4, 9),
     "項目の値は = なしで、名前の後に書きます（突破ライン 150）"),
    ("バランス \"b\" {\n  初期刻 20\n  防御係数 = 1.0\n}\n", (3, 8),
     "項目の値は = なしで、名前の後に書きます（防御係数 1.0）"),
    # the field itself, not the examples' 銘 30: an operator too, and after a ;
    ("ページ t {\n  銘 = 4\n}\n", (2, 5), "項目の値は = なしで、名前の後に書きます（銘 4）"),
    ("ページ t {\n  銘 -= 4\n}\n", (2, 6), "項目の値は = なしで、名前の後に書きます（銘 4）"),
    ("ページ t {\n  銘 += 4\n}\n", (2, 5), "項目の値は = なしで、名前の後に書きます（銘 4）"),
    ("ページ t {\n  銘 =- 4\n}\n", (2, 5), "項目の値は = なしで、名前の後に書きます（銘 4）"),
    ("敵 e {\n  HP 5; 座 = 1; 突破ライン 9\n}\n", (2, 11),
     "項目の値は = なしで、名前の後に書きます（座 1）"),
])
def test_syntax_errors_that_look_like_a_known_mistake_say_which(text, pos, hint):
    [found] = check_text(text, "t.page").diagnostics
    assert (found.code, (found.span.line, found.span.col)) == ("E001", pos)
    assert found.hint.startswith(hint), found.hint
    assert "ここに書けるのは" in found.hint  # the expected tokens are still listed


@pytest.mark.parametrize("text, pos, hint, fix", [
    ("ページ t {\n  銘 3\n  未来面 { 条件 歩 = 2; 敵HP -= 1 }\n}\n", (3, 14),
     "等しいかどうかは「==」と書きます", "=="),
    ("page t {\n  year 3\n  future { if steps = 2; enemy_hp -= 1 }\n}\n", (3, 21),
     "等しいかどうかは「==」と書きます", "=="),
    ("ページ t {\n  銘 3\n  未来面 { 敵HP -= 1,000 }\n}\n", (3, 17),
     "数に桁区切りの「,」は書けません。1000 と続けて書きます", None),
    ("ページ t {\n  銘 3\n  未来面 { 敵HP -= 12,345,678 }\n}\n", (3, 18),
     "数に桁区切りの「,」は書けません。12345678 と続けて書きます", None),
    ("ページ t {\n  銘 3\n  未来面 { 敵HP -= -1,000 }\n}\n", (3, 18),
     "数に桁区切りの「,」は書けません。-1000 と続けて書きます", None),
    ("敵 e {\n  HP 1,000.5\n}\n", (2, 7), "数に桁区切りの「,」は書けません。1000.5 と続けて書きます",
     None),
    ("敵 e {\n  HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1,000]\n}\n", (2, 32),
     "数に桁区切りの「,」は書けません。1000 と続けて書きます", None),
    ("ページ t {\n  銘 3\n  未来面 { 条件 歩 => 25; 敵HP -= 1 }\n}\n", (3, 14),
     "比較は「>=」と書きます", None),
    ("ページ t {\n  銘 3\n  未来面 { 条件 歩 =< 25; 敵HP -= 1 }\n}\n", (3, 14),
     "比較は「<=」と書きます", None),
])
def test_a_slip_seen_in_the_token_is_said_alone_with_its_fix(text, pos, hint, fix):
    """「=」 where a comparison goes, a number with thousands separators: the hint says the
    slip and nothing else (the list of words that could stand there would bury it)."""
    [found] = check_text(text, "t.page").diagnostics
    assert (found.code, (found.span.line, found.span.col)) == ("E001", pos)
    assert found.hint.startswith(hint) and "ここに書けるのは" not in found.hint, found.hint
    assert found.replacements == ((fix,) if fix else ())


@pytest.mark.parametrize("written, meant, cols", [
    ("1,000", "1000", [15]), ("1,000,000", "1000000", [15, 19]), ("2,500.5", "2500.5", [15]),
])
def test_a_thousands_separator_in_a_condition_list_is_told_where_the_comma_split_the_number(
        written, meant, cols):
    """The comma separates conditions, so 歩 >= 1,000 parses as 歩 >= 1 and a condition
    000: each split-off part says the number was written with a separator, and which."""
    text = f"ページ t {{\n  銘 3\n  未来面 {{\n    条件 歩 >= {written}\n    敵HP -= 3\n  }}\n  過去面 白紙; ペン 過去面 {{ 歩 += 5 }}\n}}\n"
    found = check_text(text, "t.page").diagnostics
    assert [(d.code, d.span.line, d.span.col) for d in found] == [("E041", 4, c) for c in cols]
    assert {d.hint for d in found} == {f"数に桁区切りの「,」は書けません。{meant} と続けて書きます"}


@pytest.mark.parametrize("written", ["1, 000", "1.5,000", "1000,000", "1,0000"])
def test_numbers_a_comma_separates_that_are_no_thousands_group_are_not_taken_for_one(written):
    text = f"ページ t {{\n  銘 3\n  未来面 {{\n    条件 歩 >= {written}\n    敵HP -= 3\n  }}\n  過去面 白紙; ペン 過去面 {{ 歩 += 5 }}\n}}\n"
    [found] = check_text(text, "t.page").diagnostics
    assert found.code == "E041" and "桁区切り" not in found.hint


def test_an_equals_sign_that_is_an_assignment_is_not_taken_for_a_comparison():
    [found] = check_text("ページ t {\n  銘 = 30\n}\n", "t.page").diagnostics
    assert "==" not in found.hint and found.hint.startswith("項目の値は = なしで")
    # a comma between numbers that are not a grouped number is not one either
    for number in ("1,2", "1,0000", "10,5"):
        [found] = check_text(f"ページ t {{\n  銘 3\n  未来面 {{ 敵HP -= {number} }}\n}}\n",
                             "t.page").diagnostics
        assert "桁区切り" not in found.hint, number


def test_a_syntax_error_unlike_any_known_mistake_gets_no_mistake_hint():
    [found] = check_text("ページ t {\n  銘 3\n  未来面 { 敵HP -= 3 ) }\n}\n", "t.page").diagnostics
    assert found.hint.startswith("対応する「(」のない「)」")


def test_the_moments_no_play_holds_are_the_events_the_vocabulary_says_a_play_cannot_hold():
    """W004's reasons (compiler.effects._NOT_IN_A_PLAY) and the rules text's 「このプレイの
    残りと」 (Timing.in_a_play) read one fact: which events can come while a play resolves."""
    from compiler.effects import _NOT_IN_A_PLAY
    from contract import vocabulary as vocab

    assert set(_NOT_IN_A_PLAY) == {t.code for t in vocab.TIMINGS
                                   if t.family == "event" and not t.in_a_play}
