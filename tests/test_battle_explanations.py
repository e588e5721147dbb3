"""A battle screen that explains itself: every number a 作用 changes says how it came about.

The runtime puts the terms of each landed number into the event it already emits (``why``
on damage, defense gains, HP changes …; ``absorbed_by`` on a hit; the crossing on
``crossed`` and ``intent_removed``), and terminal/narrate.py says them. The worked case is
the designer's: 旅立ちの朝 (敵HP -= 使用した歩[プレイ] × 0.8) after a 36-year move at
綻び 10 deals 28.8 × 1.1 = 31.68 → 31, and the line shows the × 1.1.
"""

from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner

from conftest import ROOT, compiled_tables

from runtime.battle import Battle
from runtime.tables import load
from terminal.narrate import lines

SEAT = 42  # 歯車塔の番人 (haguruma) sits at 42 and attacks 16, three times a turn
#: What the worked case's damage line has under it: the base and what it was read from,
#: then Σ加算補正 (none), the 綻び factor, the unrounded result and what landed.
WORKED_CASE = ["  使用した歩［このプレイ］ 36 × 0.8 = 28.8", "  (28.8 + 0) × 1.1 綻び = 31.68 → 31"]


@pytest.fixture(scope="module")
def tables():
    return load()


def battle(tables, *hand, enemy="haguruma", **settings) -> Battle:
    """A battle of seed 3 with ``hand`` as the hand and developer ``settings``."""
    b = Battle.new(tables, seed=3, enemies=[enemy])
    b.dev_set(hand=list(hand), **settings)
    return b


def event(events, kind):
    return next(e.data for e in events if e.kind == kind)


# ------------------------------------------------------------------ damage


def test_a_36_year_move_at_10_fray_deals_31_and_the_line_shows_the_fray_factor(tables):
    b = battle(tables, "tabidachi", age=0, fray=10, steps=40)
    events = b.play(b.hand[0])
    why = event(events, "damage")["why"]
    assert (why["read"], why["coef"], why["base"]) == (36, 0.8, 28.8)
    assert why["add"] == [] and why["mul"] == [] and why["reduction"] == 0
    assert why["fray"] == {"factor": 1.1, "fray": 10, "coef": 0.01}
    assert why["value"] == pytest.approx(31.68) and why["amount"] == 31
    said = lines(events, tables)
    at = said.index("敵に 31 ダメージ（敵HP 79）")
    assert said[at + 1:at + 3] == WORKED_CASE


def test_each_additive_modifier_is_named_with_the_page_it_came_from(tables):
    b = battle(tables, "sakamichi", "shigoto", age=20, steps=80)
    b.play(b.hand[0])  # 坂道の自転車: 以降 2 プレイ 攻撃力補正 +4
    events = b.play(b.hand[0])  # 大きな仕事: 敵HP -= 10
    why = event(events, "damage")["why"]
    assert why["add"] == [{"modifier": "attack_add", "value": 4, "origin": "page",
                           "id": "sakamichi", "line": why["add"][0]["line"]}]
    said = lines(events, tables)
    at = said.index("敵に 14 ダメージ（敵HP 96）")
    assert said[at + 1] == "  (10 + 4 攻撃力補正「坂道の自転車」) = 14"


def test_per_hit_reduction_is_an_additive_modifier_taken_before_the_multipliers(tables):
    """Spec 002 計算式: (基準値 + Σ加算補正) × Π乗算補正, 「加算が先、乗算が後」 — 軽減 is
    one of 敵HP's modifiers (DESIGN §6.1), an additive one: (10 − 2) × 1.2 = 9.6, not
    10 × 1.2 − 2 = 10."""
    b = battle(tables, "shigoto", enemy="wasure", age=20, steps=80)
    b.dev_set(fray=20)  # the 綻び multiplier ×1.2
    events = b.play(b.hand[0])
    damage = event(events, "damage")
    assert damage["why"]["reduction"] == 2 and damage["amount"] == 9
    assert "  (10 + 0 − 2 軽減) × 1.2 綻び = 9.6 → 9" in lines(events, tables)


def test_a_constant_at_its_face_value_says_nothing_more(tables):
    b = battle(tables, "shigoto", age=20, steps=80)
    said = lines(b.play(b.hand[0]), tables)
    at = said.index("敵に 10 ダメージ（敵HP 100）")
    assert not said[at + 1].startswith("  ")


PAGES = '''
ページ kousei "校正" {
  銘 10
  出自 幼少期
  未来面 白紙
  過去面 {
    防御補正 -= 5 範囲 ステージ
    防御 += 3
    防御 += 9
  }
  ペン 未来面 { 歩 += 5 }
}
'''


def test_a_defense_gain_shows_its_modifier_and_that_it_never_goes_below_zero(tmp_path):
    import shutil

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "pages" / "校正.page").write_text(PAGES, encoding="utf-8")
    small = compiled_tables(content)
    b = battle(small, "kousei", age=20, steps=40)
    events = b.play(b.hand[0])
    gains = [e.data for e in events if e.kind == "defense_gained"]
    assert [g["amount"] for g in gains] == [0, 4]
    assert gains[0]["why"]["value"] == -2 and gains[0]["why"]["add"][0]["id"] == "kousei"
    said = lines(events, small)
    at = said.index("防御 +0（ターン）")
    assert said[at:at + 4] == ["防御 +0（ターン）", "  (3 − 5 防御補正「校正」) = −2 → 0",
                               "防御 +4（ターン）", "  (9 − 5 防御補正「校正」) = 4"]


# --------------------------------------------------------------------- hits


def test_a_hit_absorbed_by_two_lifetimes_says_how_much_each_absorbed(tables):
    # 刻 = 座: the end of the turn adds no defense from the distance.
    b = battle(tables, age=SEAT)
    b.dev_set(defense=(6, "turn"))
    b.dev_set(defense=(4, "stage"))
    events = b.end_turn()
    hit = event(events, "hit")
    assert hit["absorbed_by"] == [["turn", 6, 0], ["stage", 4, 0]]
    assert (hit["absorbed"], hit["damage"], hit["hp"]) == (10, 6, 194)
    said = lines(events, tables)
    assert "被弾 16: 防御で 10 吸収（ターン 6・ステージ 4）→ HP −6（194）" in said
    # The absorption is part of the hit's line, not a line of its own before it.
    assert not any(x.startswith("防御 −") for x in said)
    consumed = [e.data for e in events if e.kind == "defense_consumed"]
    assert consumed == [{"amount": 6, "expiry": "turn", "during": "hit"},
                        {"amount": 4, "expiry": "stage", "during": "hit"}]


def test_a_single_hit_defense_vanishes_with_what_it_did_not_absorb(tables):
    b = battle(tables, age=SEAT)
    b.dev_set(defense=(20, "on_hit"))
    events = b.end_turn()
    assert event(events, "hit")["absorbed_by"] == [["on_hit", 16, 4]]
    assert "被弾 16: 防御で 16 吸収（被弾1回 16、残り 4 は消えた）→ HP −0（200）" in \
        lines(events, tables)


def test_a_hit_no_defense_touched_reads_as_before(tables):
    b = battle(tables, age=SEAT)
    assert "被弾 16: HP −16（184）" in lines(b.end_turn(), tables)


# ---------------------------------------------------------------- crossings


def test_a_crossing_names_the_intent_it_removed(tables):
    b = battle(tables, "tabidachi", age=20, seat=30, steps=40)  # 20 → 36 crosses 座 30
    events = b.play(b.hand[0])
    crossed, removed = event(events, "crossed"), event(events, "intent_removed")
    assert crossed == {"intent": {"kind": "attack", "amount": 16, "region": None}, "left": 2,
                       "seat": 30, "page": "tabidachi", "age": 20, "to": 36,
                       "crossing": 1}
    assert removed["page"] == "tabidachi" and removed["crossing"] == 1
    said = lines(events, tables)
    assert "座 30 を跨いだ: Intent「攻撃16」を取り除いた（残り 2）" in said
    assert sum("取り除いた" in x for x in said) == 1  # the crossing's line is the only one


def test_a_crossing_with_no_intent_left_says_so(tables):
    b = battle(tables, "tabidachi", age=20, seat=30, steps=40)
    b.state.enemy["turn_intents"].clear()
    events = b.play(b.hand[0])
    assert event(events, "crossed")["intent"] is None
    assert "intent_removed" not in [e.kind for e in events]
    assert "座 30 を跨いだ: 取り除くIntentはもうない" in lines(events, tables)


# ------------------------------------------------------------ whole battles


def random_battle(tables, seed: int, enemies: list[str]) -> Battle:
    policy = random.Random(seed)
    b = Battle.new(tables, seed=seed, enemies=enemies)
    for _ in range(300):
        if b.over:
            break
        b.apply(policy.choice(b.actions()))
    return b


#: ASCII words a player may read: the vocabulary's own words for HP and the Intents.
PLAYER_WORDS = {"HP", "Intent"}


def test_no_internal_code_appears_in_the_narration_of_whole_seeded_battles(tables):
    enemies = sorted(tables.enemies)
    explained = 0
    for seed in range(12):
        b = random_battle(tables, seed, [enemies[seed % len(enemies)]] if seed % 3
                          else enemies)
        said = lines(b.log, tables)
        words = {w for line in said for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", line)}
        assert words <= PLAYER_WORDS, (seed, words - PLAYER_WORDS)
        explained += sum(1 for line in said if line.startswith("  "))
    assert explained > 20


def test_a_redraw_is_said_before_the_draws_it_makes(tables):
    seen = 0
    # A redraw is rare in random play (a pen for every blank face gives the policy more to
    # do): enough seeds to meet a few.
    for seed in range(200):
        said = lines(random_battle(tables, seed, ["haguruma"]).log, tables)
        for at, line in enumerate(said):
            if line.startswith("出せるページがないので引き直し"):
                end = next(i for i in range(at, len(said)) if said[i].startswith("引き直しで"))
                drawn = int(said[end].split()[1])
                assert sum(x.startswith("ドロー:") for x in said[at:end]) == drawn
                seen += 1
    assert seen


def test_a_simulation_builds_no_explanation(tables, monkeypatch):
    import runtime.sayou as sayou

    def refuse(*args):
        raise AssertionError("explained in a battle that only counts")
    monkeypatch.setattr(sayou, "explain_base", refuse)
    for seed in range(5):
        b = Battle.new(tables, seed=seed, enemies=["haguruma"], record=False)
        while not b.over and b.state.turns_run < 30:
            b.play(b.playable_uids()[0]) if b.playable_uids() else b.end_turn()
        assert b.log == []


def test_the_battle_command_shows_the_worked_case_end_to_end(monkeypatch):
    from cli import main

    monkeypatch.chdir(ROOT)
    script = "set 手札 tabidachi\nset 刻 0\nset 綻び 10\nplay 1\n"
    result = CliRunner().invoke(main, ["battle", "--seed", "3", "--enemy", "haguruma"],
                                input=script)
    assert "Traceback" not in result.output, result.output
    said = result.output.splitlines()
    at = said.index("敵に 31 ダメージ（敵HP 79）")
    assert said[at + 1:at + 3] == WORKED_CASE


# ------------------------------------------------------------------ pen and tear 綻び


def test_the_narration_after_a_pen_names_the_pens_fray_with_its_amount(tables):
    b = battle(tables, "tabidachi")
    fray = tables.balance.pen_fray
    said = lines(b.pen(b.hand[0], "past"), tables)
    assert f"ペンの綻び +{fray}（ステージ {fray}・ラン {fray}）" in said


def test_the_narration_after_a_tear_says_its_fray_without_calling_it_the_pens(tables):
    b = battle(tables, "tabidachi", age=0)  # 銘 36 from 刻 0: 36 years of 綻び
    said = lines(b.tear(b.hand[0]), tables)
    assert "綻び +36（ステージ 36・ラン 36）" in said
    assert not any("ペンの綻び" in line for line in said)


def test_a_torn_pages_constant_is_explained_from_its_written_value_and_the_tear_scale(tables):
    """産声's 破却 (防御 += 3 毎 ターン開始時) torn at distance 55 grants 3 × (1 + 0.05 ×
    55) = 11.25: the line starts from the 3 written on the page, not from the grown value,
    and names the scale as 破却's (not the distance)."""
    b = battle(tables, "hatsu_koe", age=55)
    b.tear(b.hand[0])
    said = lines(b.end_turn(), tables)
    assert "  3 × 3.75（破却の倍率） = 11.25 → 11" in said, said


def test_a_torn_multiplier_grows_by_its_excess_over_one():
    from terminal.narrate import _base_clause

    assert _base_clause({"base": 1.6, "written": 1.2, "op": "mul", "scale": 3.0}) \
        == "1 + (1.2 − 1) × 3（破却の倍率） = 1.6"
    assert _base_clause({"base": 6, "written": 3, "op": "add", "times": 2}) == "3 × 2 = 6"


# ------------------------------------------------------------------ a narration that does not fit


def session_narration(tables, *commands: str) -> list[str]:
    """What the keyboard shows under the screen after the last of ``commands`` (seed 3,
    two stages, 旅立ちの朝 first in the hand)."""
    from terminal.play import narration
    from terminal.session import Session

    session = Session(tables, seed=3, enemies=["haguruma", "wasure"], deck=None,
                      with_pages=["tabidachi"])
    for command in commands:
        outcome = session.run(command)
    return [f"> {commands[-1]}", *narration(outcome.events, tables)]


def test_a_narration_folded_to_fit_never_folds_what_the_play_dealt(tables):
    from terminal.play import fit_narration

    # The play wins the stage: the next stage, its turn and its draws follow the damage.
    told = session_narration(tables, "set 敵HP 5", "play 1")
    dealt = "敵に 12 ダメージ（通ったのは 5、敵HP 0）"
    won = "勝利！ ステージ 1（敵HP 0）"
    assert told.index(dealt) == 2 and len(told) > 8
    plain = [line for line in told if not line.startswith("  ")]
    for budget in range(3, len(plain)):  # more room: only the explanation is left out
        shown = fit_narration(told, budget)
        assert dealt in shown and won in shown, (budget, shown)
        assert len(shown) <= budget
        folded = [line for line in shown if line.startswith("…（ほか")]
        assert folded == [f"…（ほか {len(told) - len(shown) + 1} 行: log で全部）"]
    assert fit_narration(told, 5)[:4] == ["> play 1", told[1], dealt, won]


def test_a_folded_narration_without_damage_keeps_its_first_and_last_lines(tables):
    from terminal.play import fit_narration

    told = session_narration(tables, "end")
    assert not any(line.startswith(("敵に ", "被弾")) for line in told[:2]) and len(told) > 6
    hits = [line for line in told if line.startswith("被弾")]
    assert len(hits) == 3
    shown = fit_narration(told, 8)  # room for all but one line
    assert shown == [*told[:2], *hits, f"…（ほか {len(told) - 7} 行: log で全部）", *told[-2:]]


def test_the_hits_of_an_enemy_turn_are_never_folded(tables):
    """After ``end`` the screen shows what the enemy did to the player — each 被弾 line —
    however little room there is (``log`` used to be the only way to see them)."""
    from terminal.play import fit_narration

    told = session_narration(tables, "end")
    hits = [line for line in told if line.startswith("被弾")]
    for budget in range(3, len(told)):
        shown = fit_narration(told, budget)
        assert [line for line in shown if line.startswith("被弾")] == hits, (budget, shown)
        assert any(line.startswith("…（ほか") for line in shown)


def test_an_explanation_left_out_is_said_even_when_every_plain_line_fits(tables):
    from terminal.narrate import Kept
    from terminal.play import fit_narration

    told = ["> p 3", "転職…", Kept("敵に 22 ダメージ"), "  (20 + 0) × 1.1 綻び = 22", "刻 36 → 48",
            "座 42 を跨いだ"]
    shown = fit_narration(told, 5)
    assert len(shown) <= 5 and "敵に 22 ダメージ" in shown
    assert any(line.startswith("…（ほか") for line in shown), shown
