"""Rules fidelity, round 2: one test per corner where the battle gave the wrong answer.

Each test is named after the rule of spec 000/002, as DESIGN §6.1 decides it, and fails
on the runtime before the fix. The pages and enemies are in tests/fixtures/round2/content
(座 is 42 everywhere; ``quiet`` attacks for 0, ``dummy`` has three Intents of 16).
"""

from __future__ import annotations

from contract.game import Play
import time
from pathlib import Path

import pytest

from conftest import compiled_tables
from runtime.battle import Battle, Refused
from runtime.state import Face

CONTENT = Path(__file__).parent / "fixtures" / "round2" / "content"


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(CONTENT)


def scene(tables, hand=(), *, age=30, steps=40, hp=200, enemy="dummy", seed=1) -> Battle:
    battle = Battle.new(tables, seed=seed, enemies=[enemy])
    battle.dev_set(age=age, hp=hp, steps=steps, hand=list(hand))
    return battle


def find(battle, page: str, nth: int = 0) -> int:
    return [uid for uid in battle.hand if battle.state.pages[uid].page == page][nth]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == kind]


def refused(battle, action, *args, **kwargs) -> str:
    with pytest.raises(Refused) as err:
        getattr(battle, action)(*args, **kwargs)
    return err.value.reason


# ============================================ 1. the stage is won the moment it is won


def test_an_enemy_that_falls_during_its_own_action_does_nothing_more(tables):
    battle = scene(tables, ["counter"], enemy="fragile")
    battle.play(find(battle, "counter"))  # 敵HP -= 100 毎 被弾時
    events = battle.end_turn()
    assert len(of(events, "hit")) == 1  # the first Intent only: the enemy fell on it
    assert battle.state.hp == 200 - max(0, 16 - abs(50 - 42))
    assert battle.state.outcome == "won"
    assert not of(events, "seat_moved")  # its telegraphed trait never runs either


def test_a_win_and_a_loss_at_the_same_moment_is_a_win(tables):
    battle = scene(tables, ["counter"], enemy="fragile", hp=1)
    battle.play(find(battle, "counter"))
    battle.dev_set(age=42)  # no defense from distance: the first Intent kills
    events = battle.end_turn()
    assert battle.state.hp <= 0 and battle.state.enemy["hp"] <= 0
    assert battle.state.outcome == "won"
    assert "run_lost" not in kinds(events)


# ============================================ 2. a pen replaces the 作用列 only


def test_a_pen_on_a_written_face_keeps_its_play_conditions(tables):
    battle = scene(tables, ["guarded"])
    uid = find(battle, "guarded")
    assert "条件" in refused(battle, "play", uid)  # 条件 HP >= 500
    battle.pen(uid, "future")
    body = battle.face_body(uid, "future")
    assert body.conditions and body.effects[0].base.value == 50
    assert "条件" in refused(battle, "play", uid)  # the condition did not vanish
    battle.dev_set(hp=200)
    assert not battle.play_info(uid)["playable"]


def test_a_pen_on_a_blank_face_writes_its_conditions_too(tables):
    battle = scene(tables, ["blankpen"], steps=40)
    uid = find(battle, "blankpen")
    battle.pen(uid, "future")
    assert "条件" in refused(battle, "play", uid)  # 条件 歩 >= 100, written by the pen
    battle.dev_set(steps=100)
    battle.play(uid)
    assert battle.state.enemy["hp"] < 999


# ============================================ 3. modifiers shape damage, not heals


def test_an_enemy_heal_lands_unmodified(tables):
    battle = scene(tables, ["power"], enemy="healer", steps=100)
    battle.dev_set(fray=100)  # 綻び multiplier 2.0 as well
    battle.play(find(battle, "power"))  # 攻撃力補正 +20, 攻撃倍率 ×2
    events = battle.end_turn()
    heals = [h for h in of(events, "healed") if h["who"] == "enemy"]
    assert heals and heals[0]["amount"] == 10
    assert battle.state.enemy["hp"] == 510


def test_a_modified_gain_is_never_negative(tables):
    battle = scene(tables, ["guard10", "frail", "guard3"], steps=100, enemy="quiet")
    battle.play(find(battle, "guard10"))  # 防御 10 (stage)
    battle.play(find(battle, "frail"))  # 防御補正 −5
    battle.play(find(battle, "guard3"))  # 3 − 5 → gains 0, and consumes nothing
    assert battle.state.defense_total() == 10
    assert battle.state.counter("turn", "defense_gained") == 10


# ============================================ 4. movement counters


def test_steps_used_is_the_distance_not_the_steps_paid(tables):
    battle = scene(tables, ["cheap", "far"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "cheap"))  # 支払い倍率 ×0.5; 刻 36
    assert battle.play_info(find(battle, "far"))["cost"] == 17  # 34 × 0.5
    events = battle.play(find(battle, "far"))  # distance 34
    assert of(events, "damage")[0]["dealt"] == 34  # 使用した歩[プレイ] is the distance
    assert battle.state.counter("turn", "steps_used") == 6 + 34
    assert battle.state.steps == 100 - 6 - 17  # cheap itself was paid in full


def test_a_payment_multiplier_makes_playable_what_the_steps_alone_would_not(tables):
    """支払い倍率 prices each distance: a page farther than the 歩 left is playable when
    its priced cost is not — for the policy's playable_uids as for play_info."""
    battle = scene(tables, ["cheap", "far"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "cheap"))  # 支払い倍率 ×0.5 for the next play; 刻 36
    far = find(battle, "far")  # 銘 70: distance 34, priced 17
    for steps, playable in ((33, True), (17, True), (16, False)):
        battle.dev_set(steps=steps)
        assert (far in battle.playable_uids()) is playable, steps
        assert battle.play_info(far)["playable"] is playable, steps
        assert (Play(far) in battle.actions()) is playable, steps
    battle.dev_set(steps=17)
    battle.play(far)
    assert battle.state.steps == 0 and battle.state.age == 70


def test_under_suppressed_age_steps_used_counts_but_distance_moved_is_zero(tables):
    battle = scene(tables, ["hold", "far"], age=30, steps=100, enemy="quiet")
    battle.play(find(battle, "hold"))  # 抑制 刻: this play's own move is suppressed
    assert battle.state.age == 30
    assert battle.state.counter("turn", "steps_used") == 6
    assert battle.state.counter("turn", "distance_moved") == 0
    assert battle.state.counter("turn", "net_displacement") == 0


def test_defense_gained_counts_every_gain_also_a_multiply(tables):
    battle = scene(tables, ["guard10", "double"], steps=100, enemy="quiet")
    battle.play(find(battle, "guard10"))
    battle.play(find(battle, "double"))  # 防御 *= 2: +10
    assert battle.state.defense_total() == 20
    assert battle.state.counter("turn", "defense_gained") == 20


def test_currency_spent_counts_every_decrease(tables):
    battle = scene(tables, ["spend"], enemy="quiet")
    battle.dev_set(currency=12)
    battle.play(find(battle, "spend"))  # 通貨 -= 5
    assert battle.state.currency == 7
    assert battle.state.counter("turn", "currency_spent") == 5


# ============================================ 5. every 選択 asks the player


def test_a_choice_outside_a_play_waits_for_the_player(tables):
    battle = scene(tables, ["recall", "p36", "p60"], steps=100, enemy="quiet")
    battle.play(find(battle, "recall"))  # placed: 毎 ターン開始時, 捨て札 -> 手札 選択
    battle.play(find(battle, "p36"))
    battle.play(find(battle, "p60"))
    events = battle.end_turn()
    assert "choice_requested" in kinds(events)
    request = battle.pending
    assert request is not None and len(request.candidates) == 3
    assert "選択" in refused(battle, "end_turn")  # the battle waits in the choice
    pick = next(u for u in request.candidates if battle.state.pages[u].page == "p60")
    events = battle.choose([pick])
    assert battle.state.zone_of(pick) == "hand"
    assert "drawn" in kinds(events)  # the turn then goes on: refill, draw, …
    assert battle.pending is None


def test_the_same_choice_is_the_same_battle_event_for_event(tables):
    def run():
        battle = scene(tables, ["recall", "p36", "p60"], steps=100, enemy="quiet")
        for page in ("recall", "p36", "p60"):
            battle.play(find(battle, page))
        battle.end_turn()
        battle.choose([battle.pending.candidates[0]])
        battle.end_turn()
        return [e.as_dict() for e in battle.log]
    assert run() == run()


# ============================================ 6. a telegraphed seat move tells the truth


def test_the_telegraphed_seat_move_is_the_one_executed(tables):
    battle = scene(tables, ["p50", "p36"], age=30, steps=100, enemy="runner")
    # turn 1 began with no crossing: 座 += 跨いだ回数[ターン] × 5 was shown as +0
    assert [e.data["amount"] for e in battle.log if e.kind == "trait_telegraphed"] == [0]
    battle.play(find(battle, "p50"))  # crosses 42
    battle.play(find(battle, "p36"))  # crosses back: 跨いだ回数[ターン] is now 2
    events = battle.end_turn()
    moved = of(events, "seat_moved")[0]
    assert moved["delta"] == 0 and moved["seat"] == 42  # not 2 × 5 = 10, read in step 8


def test_a_seat_assignment_telegraphs_the_target_position(tables):
    battle = scene(tables, [], enemy="jumper")
    shown = [e.data for e in battle.log if e.kind == "trait_telegraphed"][0]
    assert shown["to"] == 10 and shown["amount"] == -32
    events = battle.end_turn()
    assert of(events, "seat_moved")[0]["seat"] == 10


# ============================================ 9. payments are made in full or not at all


def test_a_payment_that_cannot_be_made_in_full_refuses_the_face(tables):
    battle = scene(tables, ["paycoin", "payhp"], hp=8)
    battle.dev_set(currency=3)
    assert "通貨" in refused(battle, "play", find(battle, "paycoin"))
    assert "HP" in refused(battle, "play", find(battle, "payhp"))  # HP 8: it would kill
    assert (battle.state.currency, battle.state.hp, battle.state.age) == (3, 8, 30)
    battle.dev_set(currency=10, hp=9)
    battle.play(find(battle, "paycoin"))
    assert battle.state.currency == 0
    battle.play(find(battle, "payhp"))
    assert battle.state.hp == 1


# ============================================ 11. developer mode


def test_developer_mode_sets_every_value_the_spec_names(tables):
    battle = scene(tables, ["p36"], enemy="quiet")
    battle.dev_set(hp=150, steps=12, age=60, seat=50, enemy_hp=77, currency=9,
                   fray=40, fray_stage=30, defense=(7, "stage"))
    battle.dev_set(defense=(3, "on_hit"))
    s = battle.state
    assert (s.hp, s.steps, s.age, s.enemy["seat"], s.enemy["hp"], s.currency) == (150, 12, 60, 50, 77, 9)
    assert (s.fray_run, s.fray_stage) == (40, 30)
    assert s.defense_by_expiry() == {"on_hit": 3, "turn": 0, "stage": 7, "run": 0}


@pytest.mark.parametrize("setting", [{"age": 81}, {"age": -1}, {"steps": -1}, {"hp": 201},
                                     {"currency": -5}, {"seat": -1}, {"defense": (5, "forever")}])
def test_developer_mode_refuses_physically_impossible_values(tables, setting):
    battle = scene(tables, ["p36"], enemy="quiet")
    before = battle.state.age, battle.state.steps, battle.state.hp
    refused(battle, "dev_set", **setting)
    assert (battle.state.age, battle.state.steps, battle.state.hp) == before


def test_fray_rewards_are_granted_by_arithmetic(tables):
    battle = scene(tables, ["torn"], enemy="quiet")
    battle.dev_set(fray=10**12)
    started = time.process_time()
    events = battle.tear(find(battle, "torn"))
    assert time.process_time() - started < 5  # a loop per interval would never return
    reward = of(events, "reward")[0]
    assert reward["count"] == (10**12 + 20) // 50
    assert battle.state.rewards_given == (10**12 + 20) // 50
    # 綻び報酬 { 上限 歩の規定量 += 5 寿命 ラン }, granted that many times at once
    assert battle.state.param("steps_quota") == 40 + 5 * reward["count"]


# ============================================ 7. 歩の持ち越し


def test_unspent_steps_carries_over_up_to_the_carry_parameter(tables):
    battle = scene(tables, ["carry"], age=30, steps=40, enemy="quiet")
    battle.play(find(battle, "carry"))  # 歩の持ち越し 10 for the run; 34 歩 left
    battle.end_turn()
    assert battle.state.steps == 40 + 10
    battle.dev_set(steps=4)
    battle.end_turn()
    assert battle.state.steps == 40 + 4


def test_without_a_carry_parameter_steps_never_carries_over(tables):
    battle = scene(tables, ["p36"], enemy="quiet")
    battle.end_turn()
    assert battle.state.steps == 40


# ============================================ 7. forms the spec has


def test_a_multiply_on_enemy_hp_is_fixed_and_counts_as_damage(tables):
    battle = scene(tables, ["power", "halve"], steps=100, enemy="quiet")
    battle.play(find(battle, "power"))  # 攻撃力補正 +20, 攻撃倍率 ×2: not for a multiply
    events = battle.play(find(battle, "halve"))  # 敵HP *= 0.5
    assert battle.state.enemy["hp"] == 499
    assert of(events, "damage")[0]["dealt"] == 500


def test_a_multiply_on_currency(tables):
    battle = scene(tables, ["coins"], enemy="quiet")
    battle.dev_set(currency=7)
    battle.play(find(battle, "coins"))  # 通貨 *= 2
    assert battle.state.currency == 14


def test_another_pages_year_can_be_assigned_from_a_reference(tables):
    battle = scene(tables, ["follow", "target"], age=30, enemy="quiet")
    battle.play(find(battle, "follow"))  # 銘[target] = 刻, read before 刻 moves
    assert battle.year(find(battle, "target")) == 30


def test_a_copy_into_the_hand_carries_pen_upgrades_and_blanked_faces(tables):
    battle = scene(tables, ["twin", "guarded", "p36"], enemy="quiet")
    guarded = find(battle, "guarded")
    battle.pen(guarded, "future")
    battle.state.set_face(find(battle, "p36"), "past", Face("blank"))  # as 白紙化
    battle.play(find(battle, "twin"))  # 複製 1枚 手札 -> 手札 選択
    battle.choose([guarded])
    copies = [u for u in battle.hand if battle.state.pages[u].page == "guarded"]
    assert len(copies) == 2
    assert battle.state.pages[copies[1]].faces == battle.state.pages[guarded].faces
    assert battle.state.pages[copies[1]].faces["future"].state == "pen"


def test_generate_n_makes_n_pages(tables):
    battle = scene(tables, ["make2"], enemy="quiet")
    events = battle.play(find(battle, "make2"))  # 生成 2枚 ページ指定 target -> 手札
    assert [e["page"] for e in of(events, "page_generated")] == ["target", "target"]
    assert sum(1 for u in battle.hand if battle.state.pages[u].page == "target") == 2


def test_revealed_pages_are_drawn_in_the_order_shown(tables):
    battle = scene(tables, ["seer"], enemy="quiet")
    events = battle.play(find(battle, "seer"))  # 公開 3枚 山札
    shown = of(events, "revealed")[0]["uids"]
    assert len(shown) == 3 and shown == battle.state.zones["draw"][:3]
    events = battle.end_turn()
    assert [e["uid"] for e in of(events, "drawn")] == shown[:2]  # ドロー枚数 2


def test_a_page_count_of_a_combined_region_reads_that_page(tables):
    battle = scene(tables, ["count2"], enemy="quiet")
    assert "条件" in refused(battle, "play", find(battle, "count2"))  # no target anywhere
    battle.state.new_page("target", "discard")
    battle.play(find(battle, "count2"))  # 山札+捨て札[target] >= 1
    assert battle.state.flag("seen") == 1
