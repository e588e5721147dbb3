"""Draft 17's content (spec 004) in the content language: the bundled file compiles to
the table the runtime reads, with each set-up flattened; and journey items are linted like
pages — path:line:col, a code, the source line with a caret, a hint."""

from __future__ import annotations

from click.testing import CliRunner

from cli import main
from compiler.lint import check_text
from conftest import ROOT
from dsl.diagnostics import render
from journey import load_rules
from journey.rules import read_table

CONTENT = ROOT / "content" / "journey" / "草案17.journey"


def lint(text: str, path: str = "t.journey"):
    result = check_text(text, path)
    return result, [(d.code, d.span.line, d.span.col) for d in result.diagnostics]


def test_bundled_draft_holds_seven_locations_thirty_events_five_flags_six_items_two_letters():
    table = read_table()
    assert len(table.locations) == 7 and len(table.events) == 30 and len(table.flags) == 5
    assert {i for i, it in table.items.items() if not it.passive} == {
        "ランタン", "地図", "ラジオ", "カメラ", "リュックサック", "テント"}
    assert sorted(l.effect for l in table.letters.values()) == ["adventure_memory", "location_memory"]
    numbers = sorted((e.suit, e.number) for e in table.events.values())
    assert numbers == sorted((s, n) for s in ("red", "green", "blue", "yellow", "white")
                             for n in range(1, 7))


def test_variants_are_flattened_from_their_base():
    table = read_table()
    draft, hard, proposal = (table.setups[s] for s in ("草案", "高難易度", "問題点"))
    assert (draft.hand, draft.items_chosen, draft.key_vp, draft.hard) == (3, 2, 1, False)
    assert hard.hard and hard.hand == 3 and hard.item_pool == draft.item_pool
    assert (proposal.hand, proposal.key_vp, proposal.keys) == (2, 4, ("月", "星", "花"))
    assert proposal.key_merge == {"鳥": "月"} and proposal.hard and proposal.optional_effects
    assert proposal.last_day == "千年樹" == draft.last_day
    assert all(table.items[i].passive and table.items[i].cost > 0 for i in proposal.item_pool)


def test_rules_of_a_set_up_are_found_by_id_or_by_name():
    assert load_rules("問題点の提案").setup == "問題点" == load_rules("問題点").setup


def test_lint_of_the_content_folder_includes_the_journey_file():
    result = CliRunner().invoke(main, ["lint", "content", "--format", "json"])
    assert result.exit_code == 0, result.output
    broken = CONTENT.read_text(encoding="utf-8").replace("数字 3\n", "数字 three\n", 1)
    result = check_text(broken, "content/journey/草案17.journey")
    assert [d.code for d in result.diagnostics] == ["E070"]


def test_journey_diagnostic_looks_like_a_page_diagnostic():
    text = "ロケーション 浜辺 {\n  枠 2\n  赤粋 1\n}\n"
    result, found = lint(text)
    assert found == [("E010", 3, 3)]
    shown = render(result.diagnostics[0], result.sources)
    assert shown.splitlines()[0] == "t.journey:3:3: エラー[E010]: 「赤粋」というロケーションの項目はありません"
    assert "    3 |   赤粋 1" in shown and "      |   ^^" in shown
    assert "ヒント: もしかして「赤枠」？" in shown


def test_syntax_error_in_a_journey_item_is_reported_and_the_next_item_still_checked():
    text = "ロケーション 浜辺 {\n  枠 2 }}\n}\nロケーション 駅 {\n  枠 x2y\n  色 1\n}\n"
    result, found = lint(text)
    assert found == [("E001", 2, 8), ("E001", 3, 1), ("E070", 5, 5), ("E010", 6, 3)]


def test_a_required_field_lost_to_its_syntax_error_is_not_said_missing_too():
    """枠 -2 is E001 at the "-"; recovery blanks the line, and the location then lacks 枠 —
    which it wrote: the one error says so, not a second E014 「枠がありません」. A location
    that never wrote 枠 still gets its E014."""
    result, found = lint("ロケーション 浜辺 {\n  枠 -2\n}\nロケーション 駅 {\n  文 「x」\n}\n")
    assert found == [("E001", 2, 5), ("E014", 4, 8)]
    # and the error says what is wrong with it: a count is 0 or more
    assert "負の数を書けません" in result.diagnostics[0].hint


def test_field_of_another_kind_says_whose_it_is():
    result, found = lint("イベント 赤1 { スート 赤; 数字 1; 鍵 月; 枠 3 }\n"
                         "フラグ 珍獣屋 { スート 赤; 効果 黒ポーン移動 }\n")
    assert found == [("E010", 1, 29)]
    assert "枠はロケーションの項目です" in result.diagnostics[0].hint


def test_field_written_twice_is_e013_and_a_missing_one_e014():
    _, found = lint("ロケーション 浜辺 {\n  枠 2\n  枠 3\n}\nロケーション 駅 {\n  文 「x」\n}\n")
    assert found == [("E013", 3, 3), ("E014", 5, 8)]


def test_event_number_outside_one_to_six_is_e030():
    _, found = lint("イベント 赤7 { スート 赤; 数字 7; 鍵 月 }\n"
                    "フラグ 珍獣屋 { スート 赤; 効果 黒ポーン移動 }\n")
    assert found == [("E030", 1, 21)]


def test_effect_of_another_owner_is_refused_naming_the_owner():
    result, found = lint("フラグ 珍獣屋 { スート 赤; 効果 白ポーン前進 }\n")
    assert found == [("E010", 1, 21)] and "アイテムの効果です" in result.diagnostics[0].hint


def test_two_events_of_one_suit_and_number_and_an_event_without_its_flag_are_e071():
    _, found = lint("イベント a { スート 赤; 数字 1; 鍵 月 }\nイベント b { スート 赤; 数字 1; 鍵 月 }\n"
                    "フラグ 珍獣屋 { スート 赤; 効果 黒ポーン移動 }\nイベント c { スート 緑; 数字 2; 鍵 月 }\n")
    assert found == [("E071", 2, 20), ("E071", 4, 14)]


SETUP_BASE = ("ロケーション 浜辺 { 枠 2 }\nロケーション 千年樹 { 枠 0 }\n"
              "アイテム 地図 { 効果 白ポーン前進 }\nアイテム テント { 効果 ループ回収 }\n")


def test_set_up_carrying_other_than_its_item_count_is_e071():
    _, found = lint(SETUP_BASE + "旅の準備 a { 最終日 千年樹; 鍵の種類 [月]\n"
                    "  アイテム一覧 [地図, テント]; 携帯 [地図] }\n")
    assert found == [("E071", 6, 21)]


def test_a_misspelt_carried_item_is_its_e072_alone_not_an_e071_of_the_count_too():
    """携帯 [地図, テンと]: the E072 at テンと, and an E071 「携帯するアイテムが 1 個です
    （アイテム数は 2）」 of a line that lists two."""
    result, found = lint(SETUP_BASE + "旅の準備 a { 最終日 千年樹; 鍵の種類 [月]\n"
                         "  アイテム一覧 [地図, テント]; 携帯 [地図, テンと] }\n")
    assert found == [("E072", 6, 29)], [d.message for d in result.diagnostics]


def test_variant_whose_base_leads_back_to_itself_is_e072():
    _, found = lint(SETUP_BASE + "旅の準備 a { 元 b; 最終日 千年樹; 鍵の種類 [月] }\n"
                    "旅の準備 b { 元 a }\n")
    assert ("E072", 5, 12) in found and ("E072", 6, 12) in found


def test_event_key_icon_not_among_the_set_ups_icons_is_e072_unless_merged():
    events = ("フラグ 珍獣屋 { スート 赤; 効果 黒ポーン移動 }\n"
              "イベント 赤1 { スート 赤; 数字 1; 鍵 鳥 }\n")
    _, found = lint(SETUP_BASE + events + "旅の準備 a { 最終日 千年樹; 鍵の種類 [月] }\n")
    assert found == [("E072", 6, 26)]
    _, found = lint(SETUP_BASE + events + "旅の準備 a { 最終日 千年樹; 鍵の種類 [月]; 鍵の置き換え 鳥 月 }\n")
    assert found == []


def test_too_few_locations_is_one_e071_however_many_set_ups():
    """The locations are the same for every set-up: checked once, at the first one."""
    _, found = lint("ロケーション 千年樹 { 枠 0 }\n"
                    "旅の準備 a { 最終日 千年樹; 鍵の種類 [月] }\n旅の準備 b { 元 a }\n")
    assert found == [("E071", 2, 6)]


def test_a_hand_the_deck_cannot_deal_is_e071_at_its_size():
    text = CONTENT.read_text(encoding="utf-8").replace("  初期手札 3 ", "  初期手札 30", 1)
    result, found = lint(text)
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row.startswith("  初期手札 30"))
    assert found == [("E071", line, 8)]
    assert result.diagnostics[0].message == "初期手札（30 枚）を配ると山が残りません（イベントは 30 枚）"
    assert lint(text.replace("  初期手札 30", "  初期手札 29", 1))[1] == []


_DAYS = ("ロケーション 浜辺 {{\n  枠 2\n}}\nロケーション 無人駅 {{\n  枠 2\n}}\n"
         "ロケーション 千年樹 {{\n  枠 0\n}}\n旅の準備 草案 {{\n  最終日 {last}\n  鍵の種類 [月, 星]\n}}\n"
         "旅の準備 変種 {{\n  元 草案\n}}\n")


def test_spec_004_the_last_day_holds_no_events_so_a_last_day_with_slots_is_w020():
    """Spec 004: 千年樹 is laid last, and 【７日目】 holds no events. 最終日 浜辺 linted
    clean: its 枠 went unused and the slotless 千年樹 became a day that discards every
    event played there — a report then decided no deal. Said at the 最終日 and at that
    枠 0, once, not again for the variant that inherits it."""
    result, found = lint(_DAYS.format(last="浜辺"))
    assert found == [("W020", 8, 5), ("W020", 11, 7)], found
    said = {d.span.line: d for d in result.diagnostics}
    assert said[11].message == "最終日「浜辺」の枠 2 は使われません（最終日にはイベントを置けません）"
    assert said[11].hint == "最終日には枠 0 のロケーションを選びます（例: 最終日 千年樹）"
    assert "「千年樹」が最終日より前の日になり" in said[8].message
    assert lint(_DAYS.format(last="千年樹"))[1] == []


def test_a_key_kind_written_twice_is_e013():
    """鍵の種類 [月, 星, 月] linted clean, where a doubled 携帯 is E013."""
    _, found = lint(_DAYS.format(last="千年樹").replace("[月, 星]", "[月, 星, 月]"))
    assert found == [("E013", 12, 15)], found
