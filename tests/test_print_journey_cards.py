"""Draft 17 as print-and-play cards (printing.journey_cards, issue 29 ``print --journey``):
the set the draft's コンポーネント lists, every designer text as the table holds it, the
早見表 written from the set-up's rules, and the content's errors on the journey's path."""

from __future__ import annotations

import copy
import random

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commands.common import EXIT_CONTENT
from commands.journey import journey_print_cards
from generated.journey import TABLE
from journey.rules import JourneyError
from contract import vocabulary as vocab
from printing.cards import KINDS, TINTS
from printing.journey_cards import journey_cards

SUITS = "赤緑青黄白"  # the vocabulary's order of the journey's suits


@pytest.fixture
def table():
    """A copy of the compiled journey table's literal, free to change."""
    return copy.deepcopy(TABLE)


def _by_key(cards):
    return {card.key: card for card in cards}


def _summary(cards):
    return "\n".join(line for card in cards if card.kind == "summary"
                     for section in card.sections for line in section.lines)


def test_the_set_is_the_drafts_components_30_events_7_locations_5_flags_6_items_a_summary(table):
    cards = journey_cards(table)
    kinds = [card.kind for card in cards]
    assert {kind: kinds.count(kind) for kind in set(kinds)} == {
        "event": 30, "location": 7, "flag": 5, "item": 6, "summary": 2}  # its two sides
    assert set(kinds) <= set(KINDS)


def test_the_print_order_is_events_by_suit_then_number_then_locations_flags_items_summary(table):
    cards = journey_cards(table)
    kinds = [card.kind for card in cards]
    assert kinds == sorted(kinds, key=["event", "location", "flag", "item", "summary"].index)
    assert [c.key for c in cards if c.kind == "event"] == [
        f"event/{suit}{n}" for suit in SUITS for n in range(1, 7)]
    locations = [c.key for c in cards if c.kind == "location"]
    assert locations[-1] == "location/千年樹"  # the last day is laid last
    assert [c.key for c in cards if c.kind == "flag"] == [
        "flag/珍獣屋", "flag/ワタリガラス", "flag/おしゃべり猫", "flag/歯車塔", "flag/トンボロ"]
    assert [c.key for c in cards[-2:]] == ["summary/1", "summary/2"]


def test_keys_are_unique_and_stable_whatever_the_tables_order(table):
    keys = [card.key for card in journey_cards(table)]
    assert len(keys) == len(set(keys))
    shuffled = copy.deepcopy(table)
    rng = random.Random(17)
    for name in ("events", "locations", "flags", "items", "letters", "setups"):
        entries = list(shuffled[name].items())
        rng.shuffle(entries)
        shuffled[name] = dict(entries)
    assert [card.key for card in journey_cards(shuffled)] == keys
    assert journey_cards(shuffled) == journey_cards(table)


def test_the_default_set_is_the_draft_setups_six_items_not_the_proposals(table):
    """草案 (load_rules' default) carries its アイテム一覧: the draft's six, tapped when used;
    the 問題点 items are that variant's (always on, with a 費用)."""
    items = [c for c in journey_cards(table) if c.kind == "item"]
    assert [c.key for c in items] == [f"item/{i}" for i in table["setups"]["草案"]["item_pool"]]
    assert all(dict(c.badges) == {"使用": "使うと横倒し"} for c in items)
    proposals = [c for c in journey_cards(table, "問題点") if c.kind == "item"]
    assert [c.key for c in proposals][0] == "item/問題点のランタン"
    assert dict(proposals[0].badges) == {"使用": "常に有効", "費用": "3VP"}


def test_every_designer_text_is_the_tables_text_exactly(table):
    for number, event in enumerate(table["events"].values()):
        event["text"] = f"フレーバー {number}：「そのまま」"
    cards = _by_key(journey_cards(table))
    for i, event in table["events"].items():
        card = cards[f"event/{i}"]
        assert (card.title, card.flavour) == (event["name"], event["text"])
    for i, flag in table["flags"].items():
        card = cards[f"flag/{i}"]
        assert (card.title, [line for s in card.sections for line in s.lines]) == (
            flag["name"], [flag["text"]])
    for i in table["setups"]["草案"]["item_pool"]:
        card, item = cards[f"item/{i}"], table["items"][i]
        assert (card.title, [line for s in card.sections for line in s.lines]) == (
            item["name"], [item["text"]])
    for i, place in table["locations"].items():
        assert (cards[f"location/{i}"].title, cards[f"location/{i}"].flavour) == (
            place["name"], place["text"])
    for letter in table["letters"].values():
        assert f"{letter['name']}: {letter['text']}" in _summary(list(cards.values()))


def test_badges_use_the_journeys_words(table):
    cards = _by_key(journey_cards(table))
    assert cards["event/白1"].badges == (("スート", "白"), ("数字", "1"), ("キーアイコン", "星"))
    assert cards["location/大都会"].badges == (("枠", "4"), ("赤枠", "2"))
    assert cards["location/千年樹"].badges == (("枠", "0"), ("最終日", "7日目"))
    assert cards["flag/歯車塔"].badges == (("スート", "黄"), ("効果", "引いて戻す"))


def test_the_summary_states_the_turn_and_the_score_from_the_rules(table):
    text = _summary(journey_cards(table))
    for phase in ("1 手札補充", "2 移動", "3 行動", "4 イベント", "5 解決", "6 終了"):
        assert phase in text
    assert "黒いポーン1個を7−数字の分進める" in text
    assert "全てのポーンが7日目（千年樹）にいればクリア" in text
    assert "山から3枚引いて手札にする" in text
    assert "キーアイコン（月・星・花・鳥）が全て同じロケーション1つにつき1VP" in text
    assert "赤いカードアイコン" not in text and "費用" not in text  # 草案 has neither rule


def test_the_summary_says_resolution_is_a_choice_and_letters_go_any_number_at_once(table):
    """docs/journey.md decision 8 (「入手できます」: a choice), and the spec's 「同時に何個でも
    取り除いて」: the summary read 「解決してレターを得る」 and 「いつでも1個を取り除いて」."""
    text = _summary(journey_cards(table))
    assert "その物語を1つ解決してレターを得てよい（しなくてもよい）" in text
    headings = [s.heading for card in journey_cards(table) if card.kind == "summary"
                for s in card.sections]
    assert "レター（いつでも取り除いて。何個でも同時に）" in headings


def test_a_rule_number_changed_in_the_table_changes_the_summary(table):
    before = _summary(journey_cards(table))
    draft = table["setups"]["草案"]
    draft["key_vp"], draft["hand"] = 5, 4
    table["locations"]["千年樹"]["name"] = "最後の樹"
    after = _summary(journey_cards(table))
    assert after != before
    assert "ロケーション1つにつき5VP" in after and "ロケーション1つにつき1VP" not in after
    assert "山から4枚引いて手札にする" in after
    assert "全てのポーンが7日目（最後の樹）にいればクリア" in after


def test_a_variants_rules_appear_on_its_summary(table):
    text = _summary(journey_cards(table, "問題点"))
    assert "赤いカードアイコン（赤枠）は無いものとして扱う" in text  # 高難易度
    assert "どの効果も適用しなくてよい" in text  # 効果は任意
    assert "キーアイコンの鳥は月として数える" in text  # 鍵の置き換え
    assert "携帯したアイテムの費用を引く" in text
    assert "ロケーション1つにつき4VP" in text


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=20).filter(lambda t: t.strip() == t and t))
def test_designer_text_stays_plain_text_never_markup(words):
    table = copy.deepcopy(TABLE)
    table["events"]["白1"]["name"] = f"<b>{words}</b>"
    table["flags"]["トンボロ"]["text"] = f"<i>{words}</i> & {{x}}"
    cards = _by_key(journey_cards(table))
    assert cards["event/白1"].title == f"<b>{words}</b>"
    assert cards["flag/トンボロ"].sections[0].lines == (f"<i>{words}</i> & {{x}}",)


def test_a_table_the_contract_refuses_or_a_missing_setup_is_a_japanese_error(table):
    del table["events"]["白1"]["number"]
    with pytest.raises(JourneyError, match="旅の表を読めません"):
        journey_cards(table)
    with pytest.raises(JourneyError, match="旅の準備「無い」はありません"):
        journey_cards(copy.deepcopy(TABLE), "無い")


def test_the_entry_point_reads_a_content_folder_or_a_compiled_table():
    from_folder = journey_print_cards("content/journey")
    assert from_folder == journey_print_cards(TABLE)
    assert len(from_folder) == 50


def test_content_errors_take_the_journeys_content_error_path(tmp_path, capsys):
    (tmp_path / "a.journey").write_text("イベント 赤1 {\n  スート 赤\n}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        journey_print_cards(tmp_path)
    assert stop.value.code == EXIT_CONTENT
    out = capsys.readouterr()
    assert "E014" in out.out and "印刷できません" in out.err


def test_a_content_without_the_journey_is_a_clear_refusal(tmp_path):
    (tmp_path / "empty.journey").write_text("", encoding="utf-8")
    with pytest.raises(click.ClickException, match="旅の準備がありません"):
        journey_print_cards(tmp_path)


def test_an_event_card_says_its_suits_effect_as_the_flag_card_does(table):
    cards = _by_key(journey_cards(table))
    flags = {c.title: c for c in cards.values() if c.kind == "flag"}
    for card in (c for c in cards.values() if c.kind == "event"):
        (section,) = card.sections
        flag = next(f for name, f in flags.items() if name in section.heading)
        assert section.lines == flag.sections[0].lines
        assert dict(card.badges)["スート"] == dict(flag.badges)["スート"]


def test_play_cards_are_read_by_colour_first_framed_in_their_suits_with_number_and_key_in_the_corner(table):
    """Spec 004 問題点: 「プレイカードについては色をベースにして特殊効果のみを書き、後は
    キーアイコンとフレーバーにする」 — and the number is what a play moves the pawns by."""
    cards = journey_cards(table)
    suit_code = {vocab.lookup("journey_suit", code).ja: code for code in TINTS}
    for card in (c for c in cards if c.kind in ("event", "flag")):
        badges = dict(card.badges)
        assert card.tint == suit_code[badges["スート"]], card.key
        if card.kind == "event":
            assert card.corner == (badges["数字"], badges["キーアイコン"]), card.key
        else:
            assert card.corner == ()
    assert {c.tint for c in cards if c.kind == "event"} == set(TINTS)
    assert all(c.tint is None for c in cards if c.kind not in ("event", "flag"))


def test_every_suit_the_content_can_name_has_a_colour_to_print_it_in():
    assert {term.code for term in vocab.JOURNEY_SUITS} == set(TINTS)


def test_a_location_card_draws_its_card_icons_the_red_ones_outermost(table):
    for card in (c for c in journey_cards(table) if c.kind == "location"):
        badges = dict(card.badges)
        slots, red = int(badges["枠"]), int(badges.get("赤枠", 0))
        assert len(card.card_icons) == slots, card.key
        assert card.card_icons == (False,) * (slots - red) + (True,) * red, card.key
    changed = copy.deepcopy(table)
    place = next(iter(changed["locations"].values()))
    place["slots"], place["red"] = 4, 3
    card = next(c for c in journey_cards(changed) if c.key == f"location/{place['id']}")
    assert card.card_icons == (False, True, True, True)
