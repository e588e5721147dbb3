"""One test per rule of the battle (spec 000) and the effect system (spec 002).

Each test is named after the rule it proves and would fail if the runtime broke that
rule. The pages and enemies are written in the DSL (tests/fixtures/rules/content) and
compiled; most scenes are set in developer mode (刻, 歩, HP and the hand), as spec 000's
own worked example sets its scene. Where DESIGN.md decides what the spec leaves open,
the test says so.

Fixture conventions: 座 is 42 for every enemy; ``quiet`` attacks for 0 so that the
player's HP never gets in the way; ``dummy`` has three Intents of 16.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import compiled_tables
from runtime import save
from runtime.battle import Battle, Refused

CONTENT = Path(__file__).parent / "fixtures" / "rules" / "content"


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(CONTENT)


# ------------------------------------------------------------------ helpers


def scene(tables, hand=(), *, age=30, steps=40, hp=200, enemy="dummy", enemies=None, deck=None,
          seed=1) -> Battle:
    battle = Battle.new(tables, seed=seed, enemies=enemies or [enemy], deck=deck)
    battle.dev_set(age=age, hp=hp, steps=steps, hand=list(hand))
    return battle


def find(battle, page: str, nth: int = 0) -> int:
    """The uid of the ``nth`` hand page with this page id."""
    return [uid for uid in battle.hand if battle.state.pages[uid].page == page][nth]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def first(events, kind: str, **match) -> int:
    """Index of the first event of ``kind`` whose data has ``match``."""
    for i, e in enumerate(events):
        if e.kind == kind and all(e.data.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {kind} {match} in {kinds(events)}")


def damage(events) -> list[int]:
    return [e.data["dealt"] for e in events if e.kind == "damage"]


def intents(battle) -> list:
    return [i["amount"] for i in battle.state.enemy["turn_intents"]]


def refused(battle, action, *args) -> str:
    with pytest.raises(Refused) as err:
        getattr(battle, action)(*args)
    return err.value.reason


# ================================================================ the board


def test_reaching_the_lifespan_cap_is_not_defeat(tables):
    battle = scene(tables, ["p80"], age=40)
    battle.play(find(battle, "p80"))
    assert battle.state.age == 80 == battle.state.param("lifespan_cap")
    assert not battle.over
    battle.end_turn()
    assert battle.state.outcome is None


def test_year_beyond_lifespan_cap_is_held_but_unplayable(tables):
    battle = scene(tables, ["beyond95", "lifeup"], age=30, steps=100)
    beyond = find(battle, "beyond95")
    assert "寿命上限" in refused(battle, "play", beyond)
    assert (battle.state.zone_of(beyond), battle.state.age, battle.state.steps) == ("hand", 30, 100)
    battle.play(find(battle, "lifeup"))  # 寿命上限 80 → 100: the year becomes livable
    battle.play(beyond)
    assert battle.state.age == 95


def test_playing_never_lowers_hp(tables):
    battle = scene(tables, ["p36", "hit10", "p22", "needcross"], hp=150, steps=100)
    for page in ("p36", "hit10", "p22"):
        battle.play(find(battle, page))
    assert battle.state.hp == 150


def test_page_specific_payment_is_the_only_hp_cost_of_a_play(tables):
    battle = scene(tables, ["payhp"], hp=150)  # ADR-0031: the page's own gamble
    battle.play(find(battle, "payhp"))
    assert battle.state.hp == 145


# ================================================================ the turn


def test_steps_refills_to_quota_each_turn_and_never_carries_over(tables):
    battle = scene(tables, ["p36"], enemy="quiet")
    battle.play(find(battle, "p36"))
    assert battle.state.steps == 34
    events = battle.end_turn()
    assert battle.state.steps == 40
    assert events[first(events, "steps_refilled")].data["steps"] == 40
    battle.dev_set(steps=3)
    battle.end_turn()
    assert battle.state.steps == 40


def test_turn_start_order_is_intents_then_refill_then_draw_then_redraw(tables):
    battle = scene(tables, ["p36"], enemy="quiet")
    events = battle.end_turn()
    start = first(events, "turn_started")
    assert start < first(events, "intents_shown") < first(events, "steps_refilled") < first(
        events, "drawn")
    # A hand at its cap of unplayable pages: no draw, then the redraw check.
    battle = scene(tables, ["fut40"] * 8, age=60, enemy="quiet")
    events = battle.end_turn()
    start = first(events, "turn_started")
    assert start < first(events, "intents_shown") < first(events, "steps_refilled") < first(
        events, "draw_skipped") < first(events, "redrawn")


def test_no_draw_when_hand_is_at_cap(tables):
    battle = scene(tables, ["p36"] * 8, enemy="quiet")
    events = battle.end_turn()
    assert "drawn" not in kinds(events)
    assert events[first(events, "draw_skipped")].data["reason"] == "hand_cap"
    assert len(battle.hand) == 8
    battle = scene(tables, ["p36"] * 7, enemy="quiet")
    events = battle.end_turn()
    assert kinds(events).count("drawn") == 1 and len(battle.hand) == 8


def test_redraw_when_nothing_is_playable_discards_hand_and_draws_stage_start_count(tables):
    battle = scene(tables, ["fut40"] * 8, age=60, enemy="quiet")  # past faces blank at 60
    old = set(battle.hand)
    events = battle.end_turn()
    assert events[first(events, "redrawn")].data["drawn"] == tables.balance.stage_start_hand
    assert len(battle.hand) == 5 and not old & set(battle.hand)
    assert old <= set(battle.state.zones["discard"])
    assert battle.playable_any()


def test_no_redraw_when_a_page_is_playable(tables):
    battle = scene(tables, ["fut40"] * 7 + ["p50"], age=60, enemy="quiet")
    events = battle.end_turn()
    assert "redrawn" not in kinds(events) and len(battle.hand) == 8


def test_redraw_happens_at_most_once_per_turn(tables):
    battle = scene(tables, ["fut40"] * 8, age=60, enemy="quiet", deck=["fut40"] * 10)
    events = battle.end_turn()
    assert kinds(events).count("redrawn") == 1
    assert "no_playable_page" in kinds(events)
    assert not battle.playable_any()


def play_any(battle) -> int:
    uid = next(u for u in battle.hand if battle.play_info(u)["playable"])
    battle.play(uid)
    return uid


def test_reshuffle_only_when_draw_pile_is_empty(tables):
    battle = Battle.new(tables, seed=3, enemies=["quiet"], deck=["f20"] * 5 + ["f25"] * 4)
    zones = battle.state.zones
    assert (len(zones["draw"]), len(battle.hand)) == (2, 7)
    play_any(battle)
    play_any(battle)
    events = battle.end_turn()
    # not after the first draw (1 page left, 2 in the discard); at once after the second
    assert [k for k in kinds(events) if k in ("drawn", "reshuffled")] == [
        "drawn", "drawn", "reshuffled"]
    assert events[first(events, "reshuffled")].data["count"] == 2
    assert (len(zones["draw"]), len(zones["discard"])) == (2, 0)


def test_only_played_pages_go_to_discard_and_the_hand_is_kept(tables):
    battle = scene(tables, ["p36", "p44", "p22"], enemy="quiet")
    played, kept = find(battle, "p36"), {find(battle, "p44"), find(battle, "p22")}
    battle.play(played)
    battle.end_turn()
    battle.end_turn()
    assert battle.state.zones["discard"] == [played]
    assert kept <= set(battle.hand)


# ================================================================ playing


def test_cost_is_distance_whichever_direction(tables):
    battle = scene(tables, ["p22", "p38"], age=30)
    assert battle.play_info(find(battle, "p22"))["cost"] == 8
    assert battle.play_info(find(battle, "p38"))["cost"] == 8
    battle.play(find(battle, "p22"))
    assert battle.state.steps == 32
    battle.play(find(battle, "p38"))  # back up through 30: 16
    assert battle.state.steps == 16


def test_age_becomes_year(tables):
    battle = scene(tables, ["p44"], age=30)
    events = battle.play(find(battle, "p44"))
    assert battle.state.age == 44
    assert events[first(events, "moved")].data == {"age": 30, "to": 44, "suppressed": False}


def test_face_is_chosen_by_year_versus_age(tables):
    battle = scene(tables, ["fut40", "past40"], age=30)
    assert battle.play_info(find(battle, "fut40"))["firing"] == ["future"]  # 銘 > 刻
    assert not battle.play_info(find(battle, "past40"))["playable"]
    battle.dev_set(age=50)
    assert battle.play_info(find(battle, "past40"))["firing"] == ["past"]  # 銘 < 刻
    assert not battle.play_info(find(battle, "fut40"))["playable"]
    events = battle.play(find(battle, "past40"))
    assert [e.data["side"] for e in events if e.kind == "face_fired"] == ["past"]
    assert battle.state.flag("past") == 1 and battle.state.flag("fut") == 0


def test_year_equal_age_fires_past_then_future_for_free(tables):
    battle = scene(tables, ["seq30"], age=30)
    events = battle.play(find(battle, "seq30"))
    assert [e.data["side"] for e in events if e.kind == "face_fired"] == ["past", "future"]
    assert battle.state.flag("seq") == 2  # the future face wrote last
    assert (battle.state.steps, battle.state.age) == (40, 30)


def test_year_equal_age_pages_are_limited_per_turn_by_cap(tables):
    hand = ["seq30", "p30", "mtcap", "hit10", "hit10", "hit10"]
    battle = scene(tables, hand, age=30, enemy="quiet")
    battle.play(find(battle, "seq30"))
    assert "銘 = 刻" in refused(battle, "play", find(battle, "p30"))
    battle.play(find(battle, "mtcap"))  # 同刻上限 1 → 2 for the stage; now at 50
    battle.play(find(battle, "hit10"))
    assert "銘 = 刻" in refused(battle, "play", find(battle, "hit10"))
    battle.end_turn()  # a new turn: two again
    battle.play(find(battle, "hit10"))
    battle.play(find(battle, "hit10"))


def test_unplayable_page_costs_nothing_and_does_not_move(tables):
    battle = scene(tables, ["past40", "needhp", "p80"], age=30, steps=30)
    logged = len(battle.log)
    reasons = {}
    for page in ("past40", "needhp", "p80"):  # blank face / failed condition / too little 歩
        uid = find(battle, page)
        reasons[page] = refused(battle, "play", uid)
        assert (battle.state.age, battle.state.steps, battle.state.zone_of(uid)) == (30, 30, "hand")
    assert "白紙" in reasons["past40"] and "条件" in reasons["needhp"]
    assert "歩が足りない" in reasons["p80"]
    assert len(battle.log) == logged and battle.state.counter("turn", "steps_used") == 0


# ================================================================ crossing


def test_crossing_removes_one_intent_from_the_head(tables):
    battle = scene(tables, ["p44", "p36", "p22"], age=30, enemy="mixed")
    assert intents(battle) == [1, 2, 3]
    battle.play(find(battle, "p44"))  # 30 → 44 crosses 42
    assert intents(battle) == [2, 3]
    battle.play(find(battle, "p36"))  # 44 → 36 crosses back
    assert intents(battle) == [3]
    battle.play(find(battle, "p22"))  # 36 → 22 stays below
    assert intents(battle) == [3]


def test_landing_on_seat_is_not_crossing(tables):
    battle = scene(tables, ["p42", "p50"], age=30, enemy="mixed")
    events = battle.play(find(battle, "p42"))  # onto 座
    assert "crossed" not in kinds(events)
    events = battle.play(find(battle, "p50"))  # off 座: not strictly opposite sides either
    assert "crossed" not in kinds(events)
    assert intents(battle) == [1, 2, 3]


def test_crossing_is_not_a_condition_for_damage(tables):
    battle = scene(tables, ["hit10"], age=44)  # 44 → 50: no crossing
    events = battle.play(find(battle, "hit10"))
    assert damage(events) == [10] and len(intents(battle)) == 3


# ================================================================ 作用 evaluation


def test_effect_list_applies_in_written_order(tables):
    battle = scene(tables, ["order"], age=30)
    events = battle.play(find(battle, "order"))  # hit, +5 modifier, hit
    assert damage(events) == [10, 15]


def test_fractions_are_kept_and_truncated_only_when_a_value_lands(tables):
    def dealt(page):
        battle = scene(tables, [page], age=30)
        battle.play(find(battle, page))
        return 999 - battle.state.enemy["hp"]

    assert dealt("half2") == 0  # two hits of 0.5: each lands as 0
    assert dealt("one1") == 1  # one hit of 1.0
    assert dealt("modfloat") == 1  # (0.5 + 0.5 + 0.5) kept as a float until it lands


def test_modifier_formula_adds_then_multiplies(tables):
    battle = scene(tables, ["formula"], age=30)
    events = battle.play(find(battle, "formula"))
    assert damage(events) == [15]  # (3 + 2) × 1.5 × 2, not 3 × 3 + 2


def test_multiply_lands_fixed_on_the_current_value(tables):
    battle = scene(tables, ["defbuff", "muldef"], age=30)
    battle.dev_set(defense=3)
    battle.play(find(battle, "defbuff"))  # 防御補正 +1: for the add, not for the multiply
    battle.play(find(battle, "muldef"))  # 防御 += 5, then 防御 *= 2 on all of it
    assert battle.state.defense_total() == (3 + 5 + 1) * 2
    battle = scene(tables, ["halfho"], age=30)
    battle.play(find(battle, "halfho"))  # 25 歩 left after the move, halved and truncated
    assert battle.state.steps == 12


def test_suppressed_play_keeps_age_and_crosses_nothing(tables):
    battle = scene(tables, ["supp"], age=30)
    events = battle.play(find(battle, "supp"))  # 抑制 刻, then 使用した歩[プレイ] × 1
    assert damage(events) == [20] and battle.state.steps == 20  # paid, and read, as a 20 move
    assert battle.state.age == 30 and "crossed" not in kinds(events)
    assert len(intents(battle)) == 3 and battle.state.counter("turn", "crossings") == 0


def test_references_read_values_from_before_age_moves(tables):
    battle = scene(tables, ["refmove", "reftoki"], age=30, steps=100)
    events = battle.play(find(battle, "refmove"))  # this play's move: |50 − 30|
    assert damage(events) == [20]
    battle.dev_set(age=30)
    battle.play(find(battle, "reftoki"))
    assert battle.state.flag("age") == 30
    # whether this play crosses: 30 → 50 crosses 42 (after the move, 50 → 50 would not)
    battle = scene(tables, ["needcross"], age=30)
    battle.play(find(battle, "needcross"))
    assert battle.state.flag("crossed") == 1
    # 跨いだ回数[ターン] does not include this play
    battle = scene(tables, ["p44", "refcrossed", "refcrossed20"], age=30, steps=100)
    battle.play(find(battle, "p44"))  # crossing 1
    assert damage(battle.play(find(battle, "refcrossed"))) == [100]  # 44 → 50
    assert damage(battle.play(find(battle, "refcrossed20"))) == [100]  # 50 → 20 crosses: 1


def test_cumulative_quantities_are_kept_per_scope(tables):
    battle = scene(tables, ["p36", "p44", "p22", "hit10"], age=30, steps=100)
    for page in ("p36", "p44", "p22", "hit10"):  # 6, 8 ×, 22 ×, 28 ×
        battle.play(find(battle, page))
    s = battle.state
    assert {k: s.counter("turn", k) for k in
            ("steps_used", "crossings", "plays", "net_displacement", "intents_removed",
             "damage_dealt")} == {"steps_used": 64, "crossings": 3, "plays": 4,
                                  "net_displacement": 20, "intents_removed": 3,
                                  "damage_dealt": 10}
    assert {k: s.counter("play", k) for k in ("steps_used", "crossings", "damage_dealt")} == {
        "steps_used": 28, "crossings": 1, "damage_dealt": 10}
    battle.end_turn()
    assert s.counter("turn", "steps_used") == 0 and s.counter("turn", "cards_drawn") == 2
    assert s.counter("stage", "steps_used") == 64 == s.counter("run", "steps_used")
    assert s.counter("stage", "defense_gained") == 8  # |50 − 42| at the end of turn 1


# ================================================================ continuing effects


def test_continuing_effect_fires_until_its_max_count_with_current_modifiers(tables):
    battle = scene(tables, ["dot", "buff"], age=30, enemy="quiet")
    battle.play(find(battle, "dot"))  # 敵HP -= 5 毎 敵の行動後 範囲 ステージ 最大 2 回
    battle.end_turn()
    assert battle.state.enemy["hp"] == 994
    battle.play(find(battle, "buff"))  # 攻撃力補正 +3 placed after: picked up at firing
    battle.end_turn()
    assert battle.state.enemy["hp"] == 986
    battle.end_turn()
    assert battle.state.enemy["hp"] == 986
    assert not any(p.effect.timing == "after_enemy" for p in battle.state.effects)


def test_anchored_repeat_range_counts_plays_from_placement(tables):
    battle = scene(tables, ["anch", "h30", "h60", "h30"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "anch"))  # 攻撃力補正 +4 範囲 以降 2 プレイ
    hits = [damage(battle.play(find(battle, page)))[0] for page in ("h30", "h60", "h30")]
    assert hits == [14, 14, 10]


def test_anchored_repeat_range_counts_turns_from_placement(tables):
    battle = scene(tables, ["anchturn", "h30", "h60", "h30"], age=30, enemy="quiet")
    battle.play(find(battle, "anchturn"))  # 攻撃力補正 +4 範囲 以降 1 ターン
    assert damage(battle.play(find(battle, "h30"))) == [14]
    battle.end_turn()
    assert damage(battle.play(find(battle, "h60"))) == [14]
    battle.end_turn()
    assert damage(battle.play(find(battle, "h30"))) == [10]


def test_anchored_reference_reads_only_the_plays_of_its_window(tables):
    hand = ["anchref", "h30", "h60", "h30", "h60"]
    battle = scene(tables, hand, age=30, steps=130, enemy="quiet")
    battle.play(find(battle, "anchref"))  # 攻撃力補正 += 使用した歩[以降 2 プレイ]
    hits = [damage(battle.play(find(battle, page)))[0] for page in ("h30", "h60", "h30", "h60")]
    # The window opens when the 作用 lands — before this play's own 刻 update, so its 20
    # 歩 count — and closes with the 2nd play after it (20, then 30): 70 from then on.
    # References never include the play being resolved (spec 002).
    assert hits == [10 + 20, 10 + 40, 10 + 70, 10 + 70]


def test_value_lifetime_is_independent_of_repeat_range(tables):
    battle = scene(tables, ["defturn"], age=30, enemy="quiet")
    battle.play(find(battle, "defturn"))  # 防御 += 5 毎 ターン開始時 範囲 ラン (寿命 ターン)
    for _ in range(3):
        events = battle.end_turn()
        assert battle.state.defense_by_expiry()["turn"] == 5  # came back this turn start
        assert battle.state.defense_total() == 5  # last turn's 5 is gone: not 10
    assert any(e.kind == "defense_expired" for e in events)
    assert any(p.effect.target.code == "defense" for p in battle.state.effects)


# ================================================================ timings


def sayou_at(events, timing) -> int:
    return first(events, "sayou", timing=timing)


def test_turn_phase_timings_fire_at_their_place(tables):
    battle = scene(tables, ["timings"], age=44)
    battle.play(find(battle, "timings"))  # 44 → 50, 6 歩: no crossing
    events = battle.end_turn()
    flag = battle.state.flag
    assert flag("end_declared") == 1
    assert flag("after_defense") == 8  # |50 − 42| already gained
    assert flag("before_enemy") == 200 and flag("after_enemy") == 200 - (48 - 8)
    assert flag("turn_end") == 34  # before the cleanup takes the 歩 away
    assert flag("turn_start") == 0 and flag("after_refill") == 40  # before / after refill
    assert flag("after_draw") == 2
    assert first(events, "end_declared") < sayou_at(events, "on_end_declared") < first(
        events, "defense_from_distance") < sayou_at(events, "after_defense") < sayou_at(
        events, "before_enemy") < first(events, "enemy_acts")
    last_hit = max(i for i, e in enumerate(events) if e.kind == "hit")
    assert last_hit < sayou_at(events, "after_enemy") < sayou_at(events, "turn_end") < first(
        events, "turn_started")
    assert first(events, "intents_shown") < sayou_at(events, "turn_start") < first(
        events, "steps_refilled") < sayou_at(events, "after_steps_refill") < first(
        events, "drawn") < sayou_at(events, "after_draw")


def test_event_timings_fire_at_their_place(tables):
    battle = scene(tables, ["timings", "p36", "exs", "penblank", "tearme"], age=44)
    battle.play(find(battle, "timings"))
    flag = battle.state.flag
    events = battle.play(find(battle, "p36"))  # 50 → 36 crosses
    assert flag("on_cross") == 1 and flag("on_play") == 1
    assert first(events, "crossed") < sayou_at(events, "on_cross")
    events = battle.play(find(battle, "exs"))  # 36 → 50 crosses, exiled for the stage
    assert flag("on_cross") == 2 and flag("on_play") == 2 and flag("on_exile") == 1
    assert first(events, "page_exiled") < sayou_at(events, "on_exile")
    events = battle.pen(find(battle, "penblank"), "future")
    assert flag("on_pen") == 1 and first(events, "pen") < sayou_at(events, "on_pen")
    events = battle.tear(find(battle, "tearme"))
    assert flag("on_tear") == 1 and first(events, "tear") < sayou_at(events, "on_tear")
    events = battle.end_turn()  # two crossings: one Intent of 16 left
    assert flag("on_hit") == 1
    assert first(events, "hit") < sayou_at(events, "on_hit")


def test_on_hit_fires_for_an_intent_fully_absorbed_by_defense(tables):
    battle = scene(tables, ["timings"], age=44, enemy="weak")  # one Intent of 16
    battle.play(find(battle, "timings"))
    battle.dev_set(defense=100)
    battle.end_turn()
    assert battle.state.hp == 200 and battle.state.flag("on_hit") == 1


def test_outer_timings_fire_at_stage_and_run_boundaries(tables):
    battle = scene(tables, ["timings", "h30", "h60"], age=44, enemies=["weak", "weak"])
    battle.play(find(battle, "timings"))
    flag = battle.state.flag
    events = battle.play(find(battle, "h30"))  # kills stage 1's enemy
    assert flag("on_down") == 1 and flag("stage_end") == 1 and flag("stage_start") == 1
    assert first(events, "damage") < sayou_at(events, "on_enemy_hp_zero")
    assert first(events, "stage_won") < sayou_at(events, "stage_end") < first(
        events, "stage_started") < sayou_at(events, "stage_start") < first(events, "turn_started")
    events = battle.play(find(battle, "h60"))
    assert flag("on_down") == 2 and flag("stage_end") == 2 and flag("run_end") == 1
    assert sayou_at(events, "run_end") < first(events, "run_won")


def test_kill_before_enemy_acts_prevents_the_remaining_intents(tables):
    battle = scene(tables, ["nuke"], age=30)
    battle.play(find(battle, "nuke"))  # 敵HP -= 9999 毎 敵の行動前
    events = battle.end_turn()
    assert "hit" not in kinds(events) and "enemy_acts" not in kinds(events)
    assert battle.state.hp == 200 and battle.state.outcome == "won"


# ================================================================ clamps


def test_hp_is_clamped_at_max(tables):
    battle = scene(tables, ["heal50"], hp=190)
    battle.play(find(battle, "heal50"))
    assert battle.state.hp == 200 == battle.state.param("max_hp")


def test_steps_never_goes_below_zero(tables):
    battle = scene(tables, ["drain"], age=30)
    battle.play(find(battle, "drain"))  # 20 left, then 歩 -= 100
    assert battle.state.steps == 0


def test_defense_has_no_upper_bound(tables):
    battle = scene(tables, ["bigdef"], age=30)
    battle.play(find(battle, "bigdef"))
    assert battle.state.defense_total() == 10000


# ================================================================ zones after play


def test_post_play_destinations(tables):
    battle = scene(tables, ["exs", "exr", "h30"], age=30, enemies=["weak", "quiet"])
    exs, exr = find(battle, "exs"), find(battle, "exr")
    battle.play(exs)
    battle.play(exr)  # 銘 = 刻, free
    assert battle.state.zone_of(exs) == "exile_stage" and battle.state.zone_of(exr) == "exile_run"
    events = battle.play(find(battle, "h30"))  # next stage
    assert "page_returned" in kinds(events)
    assert battle.state.zone_of(exs) == "discard" and battle.state.zone_of(exr) == "exile_run"


def test_generation_and_duplication_fail_silently_at_deck_cap(tables):
    battle = scene(tables, ["gensolo", "gensolo"], age=30)
    battle.play(find(battle, "gensolo"))
    assert battle.state.zone_of(find(battle, "solo")) == "hand"
    count = len(battle.state.pages)
    events = battle.play(find(battle, "gensolo"))  # 上限枚数 1 reached
    assert "generation_failed" in kinds(events) and len(battle.state.pages) == count
    battle = scene(tables, ["dupsolo", "solo"], age=30)
    count = len(battle.state.pages)
    events = battle.play(find(battle, "dupsolo"))
    assert "generation_failed" in kinds(events) and len(battle.state.pages) == count
    battle = scene(tables, ["dupsolo", "p36"], age=30)  # below the cap it works
    events = battle.play(find(battle, "dupsolo"))
    assert events[first(events, "page_generated")].data["page"] == "p36"


def test_a_choice_with_no_more_candidates_than_it_picks_is_settled_and_says_so(tables):
    """A 選択 asks the player only when there is something to choose: with one candidate
    for one pick the page moves unasked — and the battle says why no choice came
    (choice_settled), which the screen narrates; with none, nothing moves."""
    from terminal.narrate import lines

    battle = scene(tables, ["p36", "search", "f20"], age=30)
    battle.play(find(battle, "p36"))  # one page in the discard
    (only,) = battle.state.zones["discard"]
    events = battle.play(find(battle, "search"))  # 移動 1枚 捨て札 -> 手札 選択
    assert "choice_requested" not in kinds(events) and battle.pending is None
    settled = events[first(events, "choice_settled")].data
    assert settled == {"candidates": [only], "count": 1}
    assert battle.state.zone_of(only) == "hand"
    said = "\n".join(lines(events, tables))
    assert "候補が 1 枚だけ（選ぶのは 1 枚）なので、選ばずに決まった" in said

    battle = scene(tables, ["search", "f20"], age=30)  # an empty discard
    events = battle.play(find(battle, "search"))
    assert events[first(events, "choice_settled")].data == {"candidates": [], "count": 1}
    assert "候補がないので、何も選ばれない" in "\n".join(lines(events, tables))


def test_player_choice_is_atomic(tables):
    battle = scene(tables, ["p36", "p44", "search", "penup", "f20"], age=30)
    battle.play(find(battle, "p36"))
    battle.play(find(battle, "p44"))
    events = battle.play(find(battle, "search"))  # 移動 1枚 捨て札 -> 手札 選択
    request = events[first(events, "choice_requested")].data
    assert battle.pending is not None and sorted(request["candidates"]) == sorted(
        battle.state.zones["discard"])
    assert battle.state.flag("after_choice") == 0  # the list waits for the answer
    for action, args in (("play", (find(battle, "f20"),)), ("pen", (find(battle, "penup"),
                         "future")), ("tear", (find(battle, "f20"),)), ("end_turn", ())):
        refused(battle, action, *args)
    with pytest.raises(Refused):
        save.to_json(battle)
    refused(battle, "choose", request["candidates"])  # two where one is asked
    chosen = request["candidates"][0]
    battle.choose([chosen])
    assert battle.state.zone_of(chosen) == "hand" and battle.state.flag("after_choice") == 1
    assert battle.pending is None


def test_player_choice_waiting_mid_firing_is_copied_with_its_resolution(tables):
    """選択は原子的な操作 (spec 002) — and what waits in it is data: a copy taken while a
    continuing effect's 選択 waits in the middle of a firing (被弾時, the firing's second
    effect still to come) waits in the same choice. Answered alike, the copy and the
    original make the same events and reach the same state; a copy answered otherwise,
    or played on, leaves the original as it was, its placed effects' fires included."""
    battle = scene(tables, ["p36", "p44", "recall"], age=30)
    for page in ("p36", "p44", "recall"):
        battle.play(find(battle, page))
    battle.end_turn()
    pending = battle.pending
    assert pending is not None and pending.source.timing == "on_hit"
    assert battle.state.flag("after_recall") == 0  # the firing waits before its second
    waiting, fires = battle.information(), [p.fires for p in battle.state.effects]
    stray = battle.copy(record=True)
    stray.choose([pending.candidates[1]])
    assert stray.state.flag("after_recall") == 1
    assert battle.pending == pending and battle.information() == waiting
    assert [p.fires for p in battle.state.effects] == fires
    twin = battle.copy(record=True)
    while battle.pending is not None:  # every hit of the turn asks
        answer = [battle.pending.candidates[0]]
        assert [e.as_dict() for e in twin.choose(answer)] == \
            [e.as_dict() for e in battle.choose(answer)]
    assert twin.state == battle.state and battle.state.flag("after_recall") >= 1
    assert [e.as_dict() for e in twin.end_turn()] == [e.as_dict() for e in battle.end_turn()]


# ================================================================ defense


def test_defense_is_consumed_shortest_lived_first(tables):
    battle = scene(tables, [], age=42)  # on 座: no defense from distance
    for value, expiry in [[7, "run"], [10, "stage"], [12, "on_hit"], [4, "turn"]]:
        battle.state.add_defense(value, expiry)  # gained longest-lived first
    assert [e for _, e in battle.state.defense] == ["on_hit", "turn", "stage", "run"]
    events = battle.end_turn()
    used = [(e.data["amount"], e.data["expiry"]) for e in events if e.kind == "defense_consumed"]
    assert used == [(12, "on_hit"), (4, "turn"), (10, "stage"), (6, "run"), (1, "run")]
    assert battle.state.hp == 200 - 15


def test_on_hit_defense_absorbs_exactly_one_intent(tables):
    battle = scene(tables, [], age=42)
    battle.state.defense = [[100, "on_hit"]]
    battle.end_turn()
    assert battle.state.hp == 200 - 32  # the first 16 only; its 84 left vanish
    battle = scene(tables, [], age=42)
    battle.state.defense = [[100, "on_hit"], [100, "on_hit"]]
    battle.end_turn()
    assert battle.state.hp == 200 - 16  # one value per Intent


# ================================================================ pen


def test_pen_on_blank_face_writes_its_pen_content(tables):
    battle = scene(tables, ["penblank"], age=30)
    uid = find(battle, "penblank")
    assert not battle.play_info(uid)["playable"]
    events = battle.pen(uid, "future")
    assert events[first(events, "pen")].data["result"] == "written"
    assert damage(battle.play(uid)) == [7]


def test_pen_on_written_face_replaces_its_list(tables):
    battle = scene(tables, ["penup"], age=30)
    uid = find(battle, "penup")
    battle.pen(uid, "future")
    assert damage(battle.play(uid)) == [9]  # not 3, not 3 + 9


def test_pen_once_per_stage_unless_cap_is_raised(tables):
    battle = scene(tables, ["penblank", "penup", "pencap"], age=30)
    battle.pen(find(battle, "penblank"), "future")
    assert "使い切り" in refused(battle, "pen", find(battle, "penup"), "future")
    battle.play(find(battle, "pencap"))  # 上限 ペン回数上限 += 1 寿命 ステージ
    battle.pen(find(battle, "penup"), "future")


def test_pen_at_most_once_per_face(tables):
    battle = scene(tables, ["pencap", "penup"], age=30)
    battle.play(find(battle, "pencap"))
    battle.pen(find(battle, "penup"), "future")
    assert "1回まで" in refused(battle, "pen", find(battle, "penup"), "future")


def test_pen_only_on_hand_pages(tables):
    battle = scene(tables, ["penblank"], age=30)
    uid = find(battle, "penblank")
    battle.state.move(uid, "draw")
    assert "手札" in refused(battle, "pen", uid, "future")
    assert battle.state.fray_run == 0


def test_pen_raises_fray_by_the_balance_amount(tables):
    battle = scene(tables, ["penup"], age=30)
    battle.pen(find(battle, "penup"), "future")
    assert battle.state.fray_run == tables.balance.pen_fray == 10


# ================================================================ tear


def test_tear_removes_the_page_for_the_run(tables):
    battle = scene(tables, ["tearme", "h30"], age=30, enemies=["weak", "quiet"])
    uid = find(battle, "tearme")
    battle.tear(uid)
    assert battle.state.zone_of(uid) == "torn"
    battle.play(find(battle, "h30"))  # next stage: the page does not come back
    assert battle.state.stage_index == 1 and battle.state.zone_of(uid) == "torn"
    assert all(uid not in battle.state.zones[z] for z in ("draw", "hand", "discard"))


def test_tear_fray_is_distance_times_page_multiplier(tables):
    battle = scene(tables, ["tearme"], age=20)
    events = battle.tear(find(battle, "tearme"))  # |40 − 20| × 1.5
    assert events[first(events, "fray_gained")].data["amount"] == 30


def test_tear_effect_is_run_long_and_scaled_by_distance(tables):
    battle = scene(tables, ["tearme", "hit10"], age=20, steps=100, enemies=["quiet", "quiet"])
    battle.tear(find(battle, "tearme"))  # 攻撃力補正 +2 × (1 + 0.05 × 20) = +4, 綻び 30
    events = battle.play(find(battle, "hit10"))
    assert damage(events) == [int((10 + 4) * (1 + 0.01 * 30))]
    placed = [p for p in battle.state.effects if p.origin == "tear:tearme"]
    assert len(placed) == 1 and placed[0].effect.repeat.scope == "run"


def test_player_choice_in_a_tear_effect_waits_for_the_player(tables):
    battle = scene(tables, ["p36", "p44", "tearsearch", "f20"], age=30)
    battle.play(find(battle, "p36"))
    battle.play(find(battle, "p44"))
    events = battle.tear(find(battle, "tearsearch"))  # 破却 { 移動 1枚 捨て札 -> 手札 選択 }
    request = events[first(events, "choice_requested")].data
    assert "fray_gained" not in kinds(events)  # the rest of the tear waits
    refused(battle, "play", find(battle, "f20"))
    events = battle.choose([request["candidates"][1]])
    assert battle.state.zone_of(request["candidates"][1]) == "hand"
    assert "fray_gained" in kinds(events)


def test_tearing_a_blank_page_gives_fray_only(tables):
    battle = scene(tables, ["blank40"], age=20)
    events = battle.tear(find(battle, "blank40"))
    assert events[first(events, "fray_gained")].data["amount"] == 20
    assert "effect_placed" not in kinds(events)
    assert not any(p["origin"].startswith("tear:") for p in battle.state.effects)


def test_tear_once_per_stage_unless_cap_is_raised(tables):
    battle = scene(tables, ["p22", "p36", "tearcap"], age=30)
    battle.tear(find(battle, "p22"))
    assert "破れません" in refused(battle, "tear", find(battle, "p36"))
    battle.play(find(battle, "tearcap"))
    battle.tear(find(battle, "p36"))
    assert battle.state.tears_used == 2


# ================================================================ 綻び


def test_fray_never_decreases_and_carries_across_stages(tables):
    battle = scene(tables, ["p22", "h30"], age=30, enemies=["weak", "quiet"])
    battle.tear(find(battle, "p22"))
    assert battle.state.fray_run == 8
    battle.play(find(battle, "h30"))  # next stage
    assert (battle.state.fray_run, battle.state.fray_stage) == (8, 0)


def test_fray_multiplies_all_damage(tables):
    battle = scene(tables, ["hit10"], age=30)
    battle.dev_set(fray=50)
    assert damage(battle.play(find(battle, "hit10"))) == [15]  # × (1 + 0.01 × 50)


def test_stage_fray_reaching_breakthrough_wins_the_stage(tables):
    battle = scene(tables, ["p42"], age=23, enemies=["brk", "quiet"])
    battle.tear(find(battle, "p42"))  # 19 < 20
    assert battle.state.stage_index == 0
    battle = scene(tables, ["p42"], age=22, enemies=["brk", "quiet"])
    events = battle.tear(find(battle, "p42"))  # 20 ≥ 20
    assert events[first(events, "stage_won")].data["by"] == "breakthrough"
    assert battle.state.stage_index == 1 and battle.state.fray_stage == 0


def test_reward_earned_by_the_winning_fray_is_still_given(tables):
    battle = scene(tables, ["p42"], age=22, enemies=["brk", "quiet"])
    battle.dev_set(fray=40)
    events = battle.tear(find(battle, "p42"))  # 60: stage won and the 50 reward reached
    assert "stage_won" in kinds(events) and "reward" in kinds(events)
    assert battle.state.param("steps_quota") == 45 == battle.state.steps


def test_reward_timing_fires_the_board_at_each_reward(tables):
    battle = scene(tables, ["onreward", "penup"], age=30, enemy="quiet")
    battle.play(find(battle, "onreward"))  # @rewarded += 1 毎 綻び報酬時 範囲 ラン
    battle.dev_set(fray=95)
    events = battle.pen(find(battle, "penup"), "future")  # 105: the 50 and the 100 rewards
    # both rewards at once, by arithmetic (DESIGN §6.1): one event that counts two
    assert [e.data["count"] for e in events if e.kind == "reward"] == [2]
    assert battle.state.flag("rewarded") == 2


def test_fray_reward_every_interval_applies_the_balance_reward(tables):
    battle = scene(tables, ["penup", "pencap", "penblank"], age=30, enemy="quiet")
    battle.dev_set(fray=45)
    events = battle.pen(find(battle, "penup"), "future")  # 55: past 50
    assert kinds(events).count("reward") == 1
    assert battle.state.param("steps_quota") == 45  # 上限 歩の規定量 += 5 寿命 ラン
    battle.end_turn()
    assert battle.state.steps == 45


# ================================================================ enemies


def intents_by_turn(battle, turns) -> list[int]:
    counts = [len(battle.state.enemy["turn_intents"])]
    for _ in range(turns - 1):
        battle.end_turn()
        counts.append(len(battle.state.enemy["turn_intents"]))
    return counts


def test_escalation_adds_intents_by_turn_count(tables):
    assert intents_by_turn(scene(tables, [], age=42, enemy="esc"), 6) == [1, 1, 2, 2, 3, 3]


def test_acceleration_shortens_the_escalation_interval(tables):
    assert intents_by_turn(scene(tables, [], age=42, enemy="acc"), 6) == [1, 1, 2, 3, 4, 5]


def test_acceleration_in_a_copy_leaves_the_original_escalation_as_it_was(tables):
    """A battle's copy shares its escalation rules (escalation.due replaces a rule, never
    writes into it): the copy's turns move its own rules on, and the original's
    escalation goes on from where it stood."""
    original = scene(tables, [], age=42, enemy="acc")
    before = [dict(rule) for rule in original.state.enemy["escalations"]]
    twin = original.copy()
    assert intents_by_turn(twin, 6) == [1, 1, 2, 3, 4, 5]
    assert original.state.enemy["escalations"] == before
    assert intents_by_turn(original, 6) == [1, 1, 2, 3, 4, 5]


def test_escalation_progress_resets_each_stage(tables):
    battle = scene(tables, ["h30", "h60", "h30"], age=42, enemies=["escweak", "escweak"])
    assert intents_by_turn(battle, 3) == [1, 2, 3]
    battle.dev_set(steps=100)
    for page in ("h30", "h60", "h30"):  # 30 damage: stage 2
        battle.play(find(battle, page))
    assert battle.state.stage_index == 1 and battle.state.turn == 1
    assert len(battle.state.enemy["turn_intents"]) == 1


def test_blanking_intent_blanks_a_random_page_whose_active_face_is_written(tables):
    battle = scene(tables, ["fut40", "past40"], age=30, enemy="blanker")
    fut = find(battle, "fut40")
    events = battle.end_turn()
    blank = events[first(events, "blanked")].data
    assert (blank["uid"], blank["side"]) == (fut, "future")  # past40's active face is blank
    assert "白紙" in battle.play_info(fut)["reason"]
    battle.pen(fut, "future")  # the pen brings it back
    assert battle.play_info(fut)["playable"]


def test_blanking_with_no_written_active_face_in_region_misses(tables):
    battle = scene(tables, ["past40"], age=30, enemy="blanker")  # the deck is not the region
    events = battle.end_turn()
    assert "blank_missed" in kinds(events) and "blanked" not in kinds(events)


def test_seat_movement_is_telegraphed_at_turn_start_and_done_after_the_intents(tables):
    battle = scene(tables, ["p44"], age=30, enemy="mover")
    assert battle.log[first(battle.log, "trait_telegraphed")].data["amount"] == 4
    assert battle.state.enemy["seat"] == 42
    assert "crossed" in kinds(battle.play(find(battle, "p44")))  # still crosses 42
    events = battle.end_turn()  # one Intent of 16 left after the crossing
    assert events[first(events, "defense_from_distance")].data["amount"] == 2  # |44 − 42|
    assert battle.state.hp == 200 - 14
    last_hit = max(i for i, e in enumerate(events) if e.kind == "hit")
    moved = first(events, "seat_moved")
    assert last_hit < moved < first(events, "turn_started")
    assert battle.state.enemy["seat"] == 46
    assert first(events, "turn_started") < first(events, "trait_telegraphed")


def test_immobile_enemy_never_moves(tables):
    battle = scene(tables, [], age=30, enemy="still")
    battle.end_turn()
    events = battle.end_turn()
    assert battle.state.enemy["seat"] == 42
    # 予告 shows what the enemy phase will do: no move (it said 座 → 46 each turn)
    (told,) = [e for e in events if e.kind == "trait_telegraphed"]
    assert (told.data["amount"], told.data["to"]) == (0, 42)


def test_per_hit_reduction_applies_to_each_hit(tables):
    battle = scene(tables, ["hit10", "hit6x2"], age=30, enemy="armor")
    assert damage(battle.play(find(battle, "hit10"))) == [8]
    assert damage(battle.play(find(battle, "hit6x2"))) == [4, 4]


def test_blockade_forbids_landing_in_its_range(tables):
    battle = scene(tables, ["p30", "p36"], age=20, enemy="blockade")
    assert "封鎖" in refused(battle, "play", find(battle, "p30"))
    battle.play(find(battle, "p36"))  # passing over 28..32 is allowed
    assert battle.state.age == 36


# ================================================================ win and lose


def test_win_by_enemy_hp_zero(tables):
    battle = scene(tables, ["hit10", "p22"], age=30, enemy="weak")
    events = battle.play(find(battle, "hit10"))
    assert events[first(events, "stage_won")].data["by"] == "hp"
    assert "run_won" in kinds(events) and battle.over
    refused(battle, "play", find(battle, "p22"))


@pytest.mark.parametrize("values, by", [({"enemy_hp": 0}, "hp"), ({"fray_stage": 20}, "breakthrough")])
def test_a_stage_a_set_value_decides_is_won_before_any_intent_runs(tables, values, by):
    """勝利 (spec 000 勝敗条件, DESIGN §6.1: the moment 敵HP reaches 0 or 綻び the
    突破ライン, no further Intent runs): a value set in 開発者モード (an example's 開始) is
    the state the rules read — the stage is won by the set itself, not after the enemy's
    turn."""
    battle = scene(tables, ["p22"], age=30, enemies=["brk", "quiet"])
    events = battle.dev_set(**values)
    assert events[first(events, "stage_won")].data["by"] == by
    assert battle.state.stage_index == 1 and battle.state.hp == 200
    assert "hit" not in kinds(events)


def test_a_set_refused_at_a_later_value_still_decides_the_stage_its_earlier_one_did(tables):
    battle = scene(tables, [], age=30, enemy="weak")
    with pytest.raises(Refused):
        battle.dev_set(enemy_hp=0, age=-5)
    assert battle.over and battle.state.outcome == "won"


def test_a_set_hp_of_zero_loses_the_run_at_once(tables):
    battle = scene(tables, [], age=30)
    battle.dev_set(hp=0)
    assert battle.state.outcome == "lost"


def test_a_run_won_or_lost_takes_no_more_set_values_and_its_result_stands(tables):
    """spec 000 勝敗条件: a run's result is final. 開発者モード sets the state a battle plays
    from; once the run is won or lost there is nothing left to play, so a set is refused
    like every other action (README: only record, save, undo and log stay) and the state
    keeps the result it was decided on."""
    battle = scene(tables, [], age=30)
    battle.dev_set(hp=0)
    for values in ({"hp": 200}, {"enemy_hp": 0}, {"age": 10}):
        with pytest.raises(Refused, match="もう終わっています"):
            battle.dev_set(**values)
    assert battle.state.outcome == "lost" and battle.state.hp == 0


def test_lose_by_hp_zero(tables):
    battle = scene(tables, [], age=42, hp=10)
    events = battle.end_turn()
    assert events[first(events, "run_lost")].data["by"] == "hp"
    assert battle.state.outcome == "lost"


def test_lose_when_redraw_left_nothing_playable_and_turn_ends(tables):
    battle = Battle.new(tables, seed=1, enemies=["quiet"], deck=["blank40"] * 10)
    assert "no_playable_page" in kinds(battle.log)
    events = battle.end_turn()
    assert events[first(events, "run_lost")].data["by"] == "no_playable_page"


def test_pen_before_ending_the_turn_avoids_the_no_playable_page_defeat(tables):
    battle = Battle.new(tables, seed=1, enemies=["quiet"], deck=["blankpen"] * 10)
    assert "no_playable_page" in kinds(battle.log)
    battle.pen(battle.hand[0], "future")
    battle.end_turn()
    assert not battle.over


def test_a_turn_that_began_playable_never_ends_in_no_playable_defeat(tables):
    battle = scene(tables, ["p80"], age=30, enemy="quiet")  # 50 歩 needed, 40 held
    assert not battle.playable_any()
    battle.end_turn()
    assert not battle.over


# ================================================================ stages


def test_stage_carry_over(tables):
    hand = ["stagebuff", "penup", "tearme", "exs", "h30", "p22"]
    battle = scene(tables, hand, age=30, steps=100, hp=170, enemies=["weak", "quiet"])
    s = battle.state
    battle.play(find(battle, "stagebuff"))  # +1 stage, +100 run; defense 3 turn/4 stage/5 run
    penup = find(battle, "penup")
    battle.pen(penup, "future")  # 綻び 10
    battle.tear(find(battle, "tearme"))  # |40 − 50| × 1.5 = 15; +2 × 1.5 run-long
    exs = find(battle, "exs")
    battle.play(exs)
    kept = set(battle.hand) - {find(battle, "h30")}
    deck = set(s.zones["draw"]) | set(s.zones["discard"]) | set(battle.hand)
    battle.play(find(battle, "h30"))  # kills: stage 2
    assert s.stage_index == 1 and s.turn == 1
    # carried: HP, 刻, 綻び, hand, deck, pen upgrades, run-long effects and defense
    assert (s.hp, s.age, s.fray_run) == (170, 30, 25)
    assert kept <= set(battle.hand)
    assert set(s.zones["draw"]) | set(s.zones["discard"]) | set(battle.hand) == deck | {exs}
    assert s.pages[penup].faces["future"].state == "pen"
    adds = [p.effect.repeat.scope for p in s.effects
            if p.effect.target.code == "attack_add"]
    assert sorted(adds) == ["run", "run"]  # +100 and the tear effect; +1 (stage) is gone
    assert s.defense_by_expiry() == {"on_hit": 0, "turn": 0, "stage": 0, "run": 5}
    # reset: 歩, stage 綻び, pen and tear uses, stage counters
    assert (s.steps, s.fray_stage, s.pens_used, s.tears_used) == (40, 0, 0, 0)
    assert s.counter("stage", "steps_used") == 0 and s.counter("run", "steps_used") == 40


# ------------------------------------------------------ walls, exile, counters


def test_an_ending_raise_of_the_lifespan_cap_stops_at_the_current_age(tables):
    # DESIGN §6.2 (overrules the older "刻 is pushed back to the wall"): 寿命上限 never
    # drops below the current 刻 — the decrease stops there, and 刻 stays where it is.
    battle = scene(tables, ["nuke", "lifestage", "beyond95"], age=10, steps=300,
                   enemies=["weak", "quiet"])
    battle.play(find(battle, "nuke"))  # the enemy falls before it acts, at the turn's end
    battle.play(find(battle, "lifestage"))  # 寿命上限 100 for this stage
    battle.play(find(battle, "beyond95"))
    assert battle.state.age == 95
    battle.end_turn()  # stage won: the raise of 20 ends with the stage, but 刻 is 95
    assert battle.state.stage_index == 1
    assert battle.state.param("lifespan_cap") == 95 and battle.state.age == 95


def test_pages_exiled_for_the_run_never_come_back_by_a_region_move(tables):
    battle = scene(tables, ["exr", "exs", "fromexile"], age=30, steps=200, enemy="quiet")
    battle.play(find(battle, "exr"))
    battle.dev_set(age=30)
    battle.play(find(battle, "exs"))
    battle.dev_set(age=30)
    battle.play(find(battle, "fromexile"))
    pages = [battle.state.pages[uid].page for uid in battle.hand]
    assert "exs" in pages and "exr" not in pages
    assert [battle.state.pages[u].page for u in battle.state.zones["exile_run"]] == ["exr"]


def test_damage_outside_a_play_counts_from_the_turn_not_the_last_play(tables):
    battle = scene(tables, ["lateburn"], age=30, steps=200, enemy="quiet")
    battle.play(find(battle, "lateburn"))
    assert battle.state.counter("play", "damage_dealt") == 0
    battle.end_turn()  # 敵の行動後: 3 damage that belongs to no play
    assert battle.state.counter("play", "damage_dealt") == 0
    assert battle.state.counter("stage", "damage_dealt") == 3


def test_revealed_deck_order_is_the_draw_order(tables):
    battle = scene(tables, ["decksearch"], age=30, deck=["p08", "p22", "p36", "p44", "p50",
                                                          "f20", "f25"])
    draw_before = list(battle.state.zones["draw"])
    events = battle.play(find(battle, "decksearch"))
    shown = events[first(events, "choice_requested")].data["candidates"]
    assert shown == draw_before  # revealed in the order they would be drawn
    battle.choose([shown[1]])
    assert battle.state.zones["draw"] == [shown[0]] + shown[2:]  # the rest keeps its order


def test_a_generated_page_sent_to_a_full_hand_goes_to_the_discard(tables):
    battle = scene(tables, ["gen2solo"] + ["p08"] * 7, age=30)
    assert len(battle.hand) == battle.state.param("hand_cap")
    # The played page is still in the hand while its face resolves: the hand is full.
    events = battle.play(find(battle, "gen2solo"))
    generated = events[first(events, "page_generated")].data
    assert "hand_full" in kinds(events) and generated["to"] == "discard"
    assert battle.state.pages[generated["uid"]].zone == "discard"


def test_taking_from_an_empty_draw_pile_reshuffles_the_discard_first(tables):
    """山札が0枚になった時点で捨て札をシャッフル (spec 000): a move from 山札 alone finds the
    pile renewed, as a draw does — not an empty pile and a reshuffle after it."""
    battle = scene(tables, ["fromtop"], age=30)
    s = battle.state
    for uid in list(s.zones["draw"]):
        s.move(uid, "discard")
    assert not s.zones["draw"] and s.zones["discard"]
    hand_before = len(battle.hand)
    events = battle.play(find(battle, "fromtop"))
    assert first(events, "reshuffled") < first(events, "page_moved", to="hand")
    assert len(battle.hand) == hand_before  # fromtop left the hand, one page came in
