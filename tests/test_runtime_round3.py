"""Rules fidelity, round 3, the battle's half: one test per row of DESIGN §6.2 that the
runtime decides (issue 25).

Each test is named after the rule and fails on the runtime without it (or, where the
runtime already held the rule, would fail if it broke). The pages and enemies are in
tests/fixtures/round3/content: 座 is 42 everywhere, ``quiet`` attacks for 0, ``weak`` has
10 HP, every blank face has a pen.
"""

from __future__ import annotations

import json

from contract.game import Play
from pathlib import Path

import pytest

from conftest import compiled_tables
from runtime import save, sayou
from runtime.battle import Battle, Refused
from terminal.narrate import lines as narrated

CONTENT = Path(__file__).parent / "fixtures" / "round3" / "content"


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(CONTENT)


def scene(tables, hand=(), *, age=30, steps=40, hp=200, enemies=("dummy",), seed=1) -> Battle:
    battle = Battle.new(tables, seed=seed, enemies=list(enemies))
    battle.dev_set(age=age, hp=hp, steps=steps, hand=list(hand))
    return battle


def find(battle, page: str, nth: int = 0) -> int:
    return [uid for uid in battle.hand if battle.state.pages[uid].page == page][nth]


def of(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == kind]


def refused(battle, action, *args) -> str:
    with pytest.raises(Refused) as err:
        getattr(battle, action)(*args)
    return err.value.reason


# ====================================================== the player's HP


def test_the_players_hp_never_goes_below_zero_and_a_hit_records_the_surplus(tables):
    battle = scene(tables, age=42, enemies=["crusher"])  # no distance defense
    events = battle.end_turn()
    (hit,) = of(events, "hit")
    assert (hit["damage"], hit["hp"], hit["surplus"]) == (300, 0, 100)
    assert battle.state.hp == 0 and battle.state.outcome == "lost"
    assert battle.state.counter("run", "hp_lost") == 200  # what HP actually lost
    assert any("HP −200（0）、超過 100" in line for line in narrated(events, tables))
    save.from_json(tables, save.to_json(battle))  # a state the rules reach saves


def test_a_hit_that_hp_can_take_records_no_surplus(tables):
    battle = scene(tables, age=42, enemies=["crusher"], hp=200)
    battle.dev_set(defense=(150, "turn"))
    events = battle.end_turn()
    (hit,) = of(events, "hit")
    assert "surplus" not in hit and battle.state.hp == 50


# ================================================ after 敵HP reaches 0


def test_after_the_enemy_hp_reaches_zero_the_rest_of_the_face_runs_but_enemy_hp_stays_zero(
        tables):
    battle = scene(tables, ["killrest"], enemies=["weak", "quiet"])
    events = battle.play(find(battle, "killrest"))  # 敵HP -= 20; 防御 += 7; 敵HP += 30; ×3
    assert of(events, "stage_won")  # won at the play
    assert [d["amount"] for d in of(events, "defense_gained")] == [7]  # the face ran on
    assert battle.state.flag("after") == 1
    assert not [h for h in of(events, "healed") if h["who"] == "enemy"]
    assert [d["enemy_hp"] for d in of(events, "damage")] == [0]  # 敵HP stayed 0
    assert battle.state.stage_index == 1


def test_after_the_enemy_hp_reaches_zero_both_faces_of_year_equal_age_still_run(tables):
    battle = scene(tables, ["killboth"], enemies=["weak", "quiet"])
    events = battle.play(find(battle, "killboth"))  # 過去面 kills, then 未来面
    assert [d["side"] for d in of(events, "face_fired")] == ["past", "future"]
    assert battle.state.flag("future") == 1
    assert [d["amount"] for d in of(events, "defense_gained")] == [5]


def test_after_the_enemy_hp_reaches_zero_no_enemy_trait_runs_not_even_at_hp_zero(tables):
    battle = scene(tables, ["hit10"], enemies=["phoenix", "quiet"])
    events = battle.play(find(battle, "hit10"))  # phoenix: 敵HP += 50 毎 敵のHPが0になった時
    assert not [h for h in of(events, "healed") if h["who"] == "enemy"]
    assert [d["by"] for d in of(events, "stage_won")] == ["hp"]
    assert battle.state.stage_index == 1


def test_after_the_enemy_hp_reaches_zero_its_stage_end_trait_does_not_run_but_the_players_do(
        tables):
    # spiteful: 上限 歩の規定量 -= 10 寿命 ラン 毎 ステージ終了時 — it would cost the whole run
    battle = scene(tables, ["mourn", "hit10"], enemies=["spiteful", "quiet"])
    battle.play(find(battle, "mourn"))  # the player's own: 毎 敵のHPが0になった時, ステージ終了時
    battle.play(find(battle, "hit10"))
    assert battle.state.stage_index == 1
    assert battle.state.param("steps_quota") == 40
    assert (battle.state.flag("down"), battle.state.flag("end")) == (1, 1)


def test_after_the_enemy_hp_reaches_zero_its_modifiers_no_longer_apply(tables):
    battle = scene(tables, ["killrest"], enemies=["sapper", "quiet"])  # 防御補正 −5
    events = battle.play(find(battle, "killrest"))  # kills, then 防御 += 7
    assert [d["amount"] for d in of(events, "defense_gained")] == [7]


# ================================================ a hit reaction and defeat


def test_a_hit_reaction_cannot_bring_hp_back_from_zero(tables):
    battle = scene(tables, ["lastbreath"], enemies=["crusher"])
    battle.play(find(battle, "lastbreath"))  # HP += 50 毎 被弾時
    events = battle.end_turn()  # a hit of 300 against 200 HP and 6 defense
    assert of(events, "sayou")  # the reaction ran after the hit ...
    assert battle.state.hp == 0  # ... but HP that reached 0 stays 0
    assert battle.state.outcome == "lost"


def test_a_hit_reaction_that_wins_the_stage_wins_though_hp_reached_zero(tables):
    battle = scene(tables, ["counter"], enemies=["crusher"])
    battle.play(find(battle, "counter"))  # 敵HP -= 2000 毎 被弾時
    battle.end_turn()
    assert battle.state.hp == 0 and battle.state.outcome == "won"


# ================================================ references inside a play


def test_what_a_crossing_sets_off_reads_the_values_from_before_age_moves(tables):
    battle = scene(tables, ["watch", "leap"])
    battle.play(find(battle, "watch"))  # 30 → 36: places the 座を跨いだ時 readers
    battle.play(find(battle, "leap"))  # 36 → 50 crosses 42
    flag = battle.state.flag
    assert flag("age") == 36  # the old 刻
    assert flag("turncross") == 0  # 跨いだ回数[ターン] without this play
    assert flag("playcross") == 1  # this play's crossing
    assert battle.state.age == 50 and battle.state.counter("turn", "crossings") == 1


def test_what_a_play_sets_off_on_the_board_reads_the_values_from_before_age_moves(tables):
    battle = scene(tables, ["onplay", "leap"])
    battle.play(find(battle, "onplay"))  # 30 → 36: places the 毎 プレイ時 readers
    battle.play(find(battle, "leap"))  # 36 → 50 crosses 42
    flag = battle.state.flag
    assert (flag("pa"), flag("pc"), flag("pp")) == (36, 0, 1)


def test_under_suppress_written_earlier_in_the_face_the_plays_movement_reads_zero(tables):
    battle = scene(tables, ["holdread"])
    battle.play(find(battle, "holdread"))  # 抑制 刻; then reads the play's movement
    flag = battle.state.flag
    assert (flag("dist"), flag("net")) == (0, 0)
    assert flag("used") == 20  # 使用した歩 still counts the distance (DESIGN §6.1)
    assert battle.state.age == 30


# ================================================ modifiers with a count


def test_a_payment_multiplier_with_a_count_leaves_the_board_when_used_up(tables):
    battle = scene(tables, ["cheap1", "go50", "go60"])
    battle.play(find(battle, "cheap1"))  # 30 → 36 costs 6; 支払い倍率 ×0.5 最大 1 回
    assert battle.play_info(find(battle, "go50"))["cost"] == 7
    events = battle.play(find(battle, "go50"))  # 36 → 50: 14 × 0.5 = 7, its one use
    assert of(events, "effect_expired")
    assert battle.play_info(find(battle, "go60"))["cost"] == 10
    battle.play(find(battle, "go60"))  # 50 → 60: the full 10
    assert battle.state.steps == 40 - 6 - 7 - 10


def test_a_fray_multiplier_with_a_count_leaves_the_board_when_used_up(tables):
    battle = scene(tables, ["fray1", "tear30", "tear30"])
    battle.play(find(battle, "fray1"))  # 30 → 36; 綻び倍率 ×2 最大 1 回
    first = battle.tear(find(battle, "tear30"))  # distance 6 × 2
    second = battle.tear(find(battle, "tear30"))  # distance 6: the multiplier is gone
    assert [d["amount"] for d in of(first + second, "fray_gained")] == [12, 6]


def test_every_modifier_of_damage_is_a_row_of_one_table_of_sources(tables, monkeypatch):
    def hit_for(sources) -> int:
        monkeypatch.setitem(sayou.MODIFIER_SOURCES, "enemy_hp", sources)
        battle = scene(tables, ["hit10"], enemies=["armor"])  # 軽減 2
        battle.dev_set(fray=100)  # the 綻び multiplier ×2
        return of(battle.play(find(battle, "hit10")), "damage")[0]["dealt"]

    reduction, board, fray = sayou.MODIFIER_SOURCES["enemy_hp"]
    assert hit_for((reduction, board, fray)) == (10 - 2) * 2  # 加算が先、乗算が後
    assert hit_for((reduction, board)) == 10 - 2  # each is its own row, nothing else
    assert hit_for((board,)) == 10


# ================================================ permanent parameters


def test_a_cap_change_of_a_coefficient_keeps_its_fraction(tables):
    battle = scene(tables, ["coef"])
    battle.play(find(battle, "coef"))  # 上限 防御係数 += 0.5; 刻 30 → 36
    assert battle.state.param("defense_coef") == 1.5
    assert isinstance(battle.state.param("hand_cap"), int)  # integers stay integers
    loaded = save.from_json(tables, save.to_json(battle))  # the fraction saves
    assert loaded.state.param("defense_coef") == 1.5
    events = battle.end_turn()
    assert of(events, "defense_from_distance")[0]["amount"] == 9  # 1.5 × |36 − 42|


def test_the_lifespan_cap_never_drops_below_the_current_age(tables):
    battle = scene(tables, ["shorten"], age=50)  # 座 42
    battle.play(find(battle, "shorten"))  # 寿命上限 80 − 50 at 刻 50, then 刻 → 36
    assert battle.state.param("lifespan_cap") == 50
    assert battle.state.age == 36


def test_the_lifespan_cap_never_drops_below_the_enemy_seat(tables):
    """Spec 000 盤面: the enemy stands on the line too; the wall stops at 座 as at 刻."""
    battle = scene(tables, ["shorten"], age=20)  # 座 42
    battle.play(find(battle, "shorten"))  # 寿命上限 80 − 50 at 刻 20, then 刻 → 36
    assert battle.state.param("lifespan_cap") == 42 and battle.seat == 42


def test_a_lowered_lifespan_cap_makes_room_for_the_next_stages_seat(tables):
    """Spec 000 盤面: the next enemy stands on the line too — a run-long decrease that
    stopped at this stage's 刻 gives way to the 座 of the enemy that comes next."""
    battle = scene(tables, ["shortrun", "hit10"], age=50, steps=200,
                   enemies=("weak", "climber"))  # 座 42, then 座 76
    battle.play(find(battle, "shortrun"))  # 寿命上限 80 − 50 stops at 刻 50
    assert battle.state.param("lifespan_cap") == 50
    battle.play(find(battle, "hit10"))  # 弱い敵 falls: stage 2 begins at once
    assert battle.state.stage_index == 1 and battle.seat == 76
    assert battle.state.param("lifespan_cap") == 76


# ================================================ the enemy's 座 on the line


def test_the_enemy_seat_stops_at_the_lifespan_cap(tables):
    """Spec 000 盤面: 「敵もまた、この直線上の1点に立っている」, and the line's ends are
    walls: a telegraphed +4 a turn from 76 stops at 寿命上限 80."""
    battle = scene(tables, enemies=("climber",))
    seats = []
    for _ in range(3):
        events = battle.end_turn()
        seats += [e["seat"] for e in of(events, "seat_moved")]
    assert seats == [80, 80, 80] and battle.seat == 80
    (telegraph,) = [p["telegraph"] for p in battle.placed() if p.get("telegraph")]
    assert telegraph["to"] == 80


def test_developer_mode_keeps_the_seat_on_the_line(tables):
    battle = scene(tables)
    with pytest.raises(Refused):
        battle.dev_set(seat=81)
    battle.dev_set(seat=80)
    assert battle.seat == 80


def test_a_save_with_the_seat_beyond_the_lifespan_cap_is_refused(tables):
    data = json.loads(save.to_json(scene(tables)))
    data["state"]["enemy"]["seat"] = 81
    with pytest.raises(save.SaveError, match="寿命上限 80 の先"):
        save.from_json(tables, json.dumps(data))


# ================================================ tear-scaled multipliers


def test_a_torn_multiplier_grows_by_its_excess_over_one(tables):
    battle = scene(tables, ["tearmul", "hit10"])
    battle.tear(find(battle, "tearmul"))  # distance 20: scale 1 + 0.05 × 20 = 2
    (placed,) = [p for p in battle.state.effects if p.origin == "tear:tearmul"]
    assert battle.modifier_values("enemy_hp") == {"attack_mul": pytest.approx(1.4)}
    events = battle.play(find(battle, "hit10"))
    # 10 × (1 + 0.2 × 2) × the 綻び multiplier (1 + 0.01 × 20) = 16.8 → 16
    assert of(events, "damage")[0]["dealt"] == 16
    assert placed.scale == 2.0


# ================================================ 歩 under 支払い倍率


def test_a_play_is_refused_when_the_steps_left_are_less_than_it_would_actually_pay(tables):
    battle = scene(tables, ["dear", "go60"])
    battle.play(find(battle, "dear"))  # 30 → 36 costs 6 (the multiplier is placed after)
    uid = find(battle, "go60")
    assert battle.state.steps == 34  # ≥ the distance 24, < 24 × 1.5 = 36
    assert "歩が足りない" in refused(battle, "play", uid)
    assert uid not in battle.playable_uids()


# ================================================ defense


def test_the_distance_defense_is_not_changed_by_the_defense_modifier(tables):
    battle = scene(tables, ["guardadd"])
    battle.play(find(battle, "guardadd"))  # 防御補正 +5; 刻 30 → 36
    events = battle.end_turn()
    assert of(events, "defense_from_distance")[0]["amount"] == 6  # |36 − 42| × 1.0


def test_a_blanking_intent_neither_meets_nor_uses_any_defense(tables):
    battle = scene(tables, ["f20"], age=42, enemies=["blanker"])  # [白紙化 手札, 攻撃 10]
    battle.dev_set(defense=(10, "on_hit"))
    events = battle.end_turn()
    assert of(events, "blanked")
    assert [h["absorbed"] for h in of(events, "hit")] == [10]  # the 被弾1回 met the attack
    assert battle.state.hp == 200


def test_on_hit_defense_outlives_a_stage_change(tables):
    battle = scene(tables, ["hit10"], enemies=["weak", "quiet"])
    battle.dev_set(defense=(10, "on_hit"))
    battle.play(find(battle, "hit10"))  # the stage is won
    assert battle.state.stage_index == 1
    assert battle.state.defense_by_expiry()["on_hit"] == 10


# ================================================ the pen's 綻び


def test_the_pens_fray_is_fixed_and_not_scaled_by_the_fray_multiplier(tables):
    battle = scene(tables, ["fray1", "blankpen"])
    battle.play(find(battle, "fray1"))  # 綻び倍率 ×2 最大 1 回
    events = battle.pen(find(battle, "blankpen"), "future")
    assert [d["amount"] for d in of(events, "fray_gained")] == [10]  # the balance's pen 綻び
    assert battle.modifier_values("fray") == {"fray_mul": 2}  # and the pen did not use it


# ================================================ failed redraw


def deck_of_blanks(tables) -> Battle:
    battle = Battle.new(tables, seed=3, enemies=["quiet"], deck=["blankpen"] * 10)
    assert battle.state.redraw_failed  # nothing to play, before the redraw or after
    return battle


def test_after_a_failed_redraw_no_page_may_be_played_that_turn(tables):
    battle = deck_of_blanks(tables)
    uid = battle.hand[0]
    battle.pen(uid, "future")  # the pen stays open: the face is now written
    assert "プレイできません" in refused(battle, "play", uid)
    assert Play(uid) not in battle.actions()
    battle.end_turn()  # the face the pen made playable saves the run
    assert battle.state.outcome is None and uid in battle.hand
    assert battle.play_info(uid)["playable"]  # the next turn plays again


def test_a_failed_redraw_with_nothing_made_playable_loses_at_the_declaration(tables):
    battle = deck_of_blanks(tables)
    battle.end_turn()
    assert battle.state.outcome == "lost"


# ================================================ the draw pile


def test_the_draw_pile_is_renewed_as_soon_as_a_play_fills_an_empty_piles_discard(tables):
    deck = ["f20", "f25", "p36", "go50", "go60", "hit10", "hit5"]  # all drawn at once
    battle = Battle.new(tables, seed=1, enemies=["quiet"], deck=deck)
    s = battle.state
    assert not s.zones["draw"] and not s.zones["discard"]
    uid = find(battle, "p36")
    events = battle.play(uid)
    assert of(events, "reshuffled")
    assert s.zones["draw"] == [uid] and not s.zones["discard"]


def test_the_draw_pile_is_renewed_as_soon_as_a_generated_page_fills_the_discard(tables):
    deck = ["f20", "f25", "p36", "go50", "go60", "hit10", "spawn"]  # all drawn at once
    battle = Battle.new(tables, seed=1, enemies=["quiet"], deck=deck)
    s = battle.state
    uid = find(battle, "spawn")
    battle.play(uid)  # 生成 f20 -> 捨て札, then the page itself to the discard
    (generated,) = [p.uid for p in s.pages if p.uid >= len(deck)]
    assert s.zones["draw"] == [generated]  # renewed before the played page came
    assert s.zones["discard"] == [uid]


def test_the_draw_stops_when_the_hand_reaches_its_cap(tables):
    battle = scene(tables, ["f20"] * 7)  # cap 8, draw 2
    events = battle.end_turn()
    assert len(of(events, "drawn")) == 1 and len(battle.hand) == 8


# ================================================ 封鎖


def test_a_play_onto_a_blockaded_year_is_refused_even_when_year_equals_age(tables):
    battle = scene(tables, ["at30"], enemies=["blockade"])  # 封鎖 28..32, 刻 30
    uid = find(battle, "at30")
    assert "封鎖" in refused(battle, "play", uid)
    assert uid not in battle.playable_uids()


# ================================================ a written face with no pen upgrade


def test_a_pen_on_a_written_face_with_no_pen_upgrade_is_refused_saying_so(tables):
    battle = scene(tables, ["hit10"])  # both faces written, no ペン block
    assert "ペン強化なし" in refused(battle, "pen", find(battle, "hit10"), "future")
    assert battle.state.pens_used == 0


def test_the_battle_screen_says_which_written_faces_have_no_pen_upgrade(tables):
    from terminal.screen import hand_table
    from rich.console import Console

    battle = scene(tables, ["hit10", "blankpen"])
    console = Console(width=120, record=True)
    console.print(hand_table(battle))
    text = console.export_text()
    row = text[text.index("hit10"):text.index("blankpen")]
    assert "未来面: ペン強化なし" in row and "過去面: ペン強化なし" in row
    assert "ペン強化なし" not in text[text.index("blankpen"):]  # its blank faces have pens


# ================================================ developer mode


def test_setting_fray_in_developer_mode_sets_the_runs_fray_gained(tables):
    battle = scene(tables)
    battle.dev_set(fray=100)
    s = battle.state
    assert s.counter("run", "fray_gained") == 100
    assert s.counter("turn", "fray_gained") == 0  # no 綻び was gained this turn
    battle.dev_set(fray_stage=120)
    assert s.fray_run == 120 and s.counter("run", "fray_gained") == 120


def test_setting_fray_below_the_rewards_given_is_refused_so_a_save_loads(tables):
    """綻び報酬 come one per 報酬間隔 of the run's 綻び: set lower than the rewards already
    given, the position is one no run reaches — its save did not load. The lowest 綻び
    that keeps them is accepted, and its save loads."""
    battle = scene(tables)
    interval = tables.balance.reward_interval
    battle.state.rewards_given = 2
    battle.dev_set(fray=2 * interval + 5)
    with pytest.raises(Refused) as refused:
        battle.dev_set(fray=2 * interval - 1)
    assert f"綻び は {2 * interval} 以上です" in refused.value.reason
    battle.dev_set(fray=2 * interval)
    assert save.from_json(tables, save.to_json(battle)).state.fray_run == 2 * interval


def test_a_play_that_suppresses_its_own_move_is_shown_and_told_crossing_nothing():
    """引っ越しの朝's face holds 抑制 刻: 刻 stays, so nothing is crossed and no Intent
    removed — the hand row said 跨ぐ ○ and the log 「座を跨ぐ」 (DESIGN §6.2 抑制)."""
    from runtime.tables import load

    battle = Battle.new(load(), seed=1, enemies=["koukai"])
    battle.dev_set(hand=["hikkoshi"], age=20, seat=25, steps=50)
    uid = battle.hand[0]
    intents = battle.intent_count()
    assert battle.play_info(uid)["crosses"] is False
    events = battle.play(uid)
    (played,) = [e for e in events if e.kind == "played"]
    assert played.data["crosses"] is False
    assert battle.state.age == 20 and battle.intent_count() == intents
    assert not [e for e in events if e.kind in ("crossed", "intent_removed")]
