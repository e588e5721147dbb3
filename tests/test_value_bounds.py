"""One bound for every value (issue 32, item 15): the battle keeps every number of its
state within the bounds the loader checks (runtime/bounds.py BOUNDS, read by both), so
every state a battle reaches saves and loads — and no product of the rules overflows a
float on the way."""

from __future__ import annotations

import json
import math
import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, compiled_tables

#: Lint-clean pages whose effects grow values without end, each in a different way:
#: multiplications at each turn, additions of 30-digit numbers, modifiers of 1e300,
#: a reference times 1e300, tear effects and 綻び倍率 that make 綻び (and its rewards)
#: astronomical, rule parameters raised past any count.
EXTREME_PAGES = """
ページ x_hp_mul "敵が増える" {
  銘 57
  出自 熟年期
  未来面 { 敵HP *= 100000000000000000000 毎 ターン開始時 範囲 ラン }
  過去面 { 通貨 += 999999999999999999999999999999 毎 ターン開始時 範囲 ラン }
}

ページ x_currency "金が増える" {
  銘 12
  出自 幼少期
  未来面 { 通貨 *= 1e200 毎 ターン開始時 範囲 ラン }
  過去面 { 歩 *= 1e200 毎 ドロー後 範囲 ラン }
}

ページ x_defense "守りが増える" {
  銘 30
  出自 青年期
  未来面 { 防御 *= 1e200 毎 ターン終了宣言時 範囲 ラン }
  過去面 { 防御 += 999999999999999999999999999999 寿命 ラン }
}

ページ x_attack "倍率が増える" {
  銘 40
  出自 壮年期
  未来面 {
    攻撃倍率 *= 1e300 範囲 ラン
    敵HP -= 使用した歩[プレイ] × 1e300
  }
  過去面 {
    攻撃力補正 += 1e300 範囲 ラン
    敵HP -= 1e300
  }
  破却 { 攻撃倍率 *= 1e300 範囲 ラン }
}

ページ x_quota "規定量が増える" {
  銘 20
  出自 少年期
  未来面 { 上限 歩の規定量 += 999999999999999999999999999999 寿命 ラン }
  過去面 { 綻び倍率 *= 1e300 範囲 ラン }
}

ページ x_heal "敵が癒える" {
  銘 50
  出自 熟年期
  未来面 { 敵HP += 999999999999999999999999999999 毎 プレイ時 範囲 ラン }
  過去面 { 上限 寿命上限 += 999999999999999999999999999999 寿命 ラン }
}
"""

#: The issue's page: 敵HP × 100 at every turn start, for the run.
HUNDREDFOLD = """
ページ x_hundred "百倍" {
  銘 57
  出自 熟年期
  未来面 { 敵HP *= 100 毎 ターン開始時 範囲 ラン }
  過去面 白紙
  ペン 過去面 { 歩 += 1 }
}
"""

EXTREME_IDS = ("x_hp_mul", "x_currency", "x_defense", "x_attack", "x_quota", "x_heal")


@pytest.fixture(scope="module")
def extreme_tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extreme") / "content"
    shutil.copytree(ROOT / "content", folder)
    (folder / "pages" / "極端.page").write_text(EXTREME_PAGES + HUNDREDFOLD, encoding="utf-8")
    return compiled_tables(folder)


def _saved_and_loaded(tables, battle):
    from runtime.save import from_json, to_json

    text = to_json(battle)
    json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in a save"))
    loaded = from_json(tables, text)  # a SaveError fails the test
    assert to_json(loaded) == text
    return loaded


def test_a_value_multiplied_every_turn_stops_at_the_bound_and_the_save_loads(extreme_tables):
    """The issue's case: 敵HP *= 100 at each turn start, 12 turns."""
    from runtime.battle import Battle
    from runtime.bounds import BOUNDS

    battle = Battle.new(extreme_tables, seed=0, enemies=["haguruma"])
    battle.dev_set(hand=["x_hundred"], age=30, defense=(10 ** 9, "run"))
    battle.play(battle.hand[0])
    for _ in range(12):
        battle.dev_set(hand=["x_hundred"], age=30)  # a playable hand: the run goes on
        battle.end_turn()
    assert not battle.over and battle.state.turn == 13
    assert battle.state.enemy["hp"] == BOUNDS["enemy.hp"][1]
    loaded = _saved_and_loaded(extreme_tables, battle)
    assert [e.as_dict() for e in battle.end_turn()] == [e.as_dict() for e in loaded.end_turn()]


def _act(battle, policy: random.Random) -> list[dict]:
    """One action a seeded random policy picks (a choice answered at random): its
    events."""
    events = battle.apply(policy.choice(battle.actions()))
    return [e.as_dict() for e in events]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6),
       pages=st.lists(st.sampled_from(EXTREME_IDS), min_size=1, max_size=6),
       steps=st.integers(5, 60), split=st.integers(0, 60))
def test_battles_that_grow_values_without_end_always_save_load_and_replay(
        extreme_tables, seed, pages, steps, split):
    """Random battles with the extreme pages in hand: after any action, the state saves,
    the save loads, and the loaded run plays on to the very same events."""
    from runtime.battle import Battle

    battle = Battle.new(extreme_tables, seed=seed, enemies=["haguruma", "oi"])
    battle.dev_set(hand=[*pages, "hatsu_koe"], defense=(10 ** 12, "run"))
    policy = random.Random(seed)
    split = min(split, steps)
    for _ in range(split):
        if battle.over:
            return
        _act(battle, policy)
    while battle.pending is not None:  # a save is taken between actions
        _act(battle, policy)
    loaded = _saved_and_loaded(extreme_tables, battle)
    twin = random.Random()
    twin.setstate(policy.getstate())
    for _ in range(steps - split):
        if battle.over:
            break
        assert _act(battle, policy) == _act(loaded, twin)
    for event in battle.log:  # every number an event carries is finite
        json.dumps(event.as_dict(), allow_nan=False)
    _saved_and_loaded(extreme_tables, battle)


def test_no_product_of_the_rules_overflows_a_float():
    from runtime.bounds import MAX_MAGNITUDE, bounded, land, power

    assert power(1e300, 1000) == MAX_MAGNITUDE and power(-1e300, 3) == -MAX_MAGNITUDE
    assert power(1.2, 3) == 1.2 ** 3
    for value in (math.inf, -math.inf, 1e300, -1e300, math.nan):
        assert math.isfinite(bounded(value)) and abs(land(value)) <= MAX_MAGNITUDE
    assert land(2.9) == 2 and land(-2.9) == -2


def test_the_loader_refuses_one_past_each_bound_the_battle_keeps(extreme_tables):
    """One table: a value at a row's bound loads, one past it is refused."""
    from runtime.battle import Battle
    from runtime.bounds import BOUNDS
    from runtime.save import SaveError, from_json, to_json

    battle = Battle.new(extreme_tables, seed=0, enemies=["haguruma"])
    places = {"enemy.hp": ("enemy", "hp"), "currency": ("currency",),
              "steps": ("steps",), "fray_run": ("fray_run",), "hp": ("hp",)}
    for row, path in places.items():
        for value, loads in ((BOUNDS[row][1], True), (BOUNDS[row][1] + 1, False)):
            data = json.loads(to_json(battle))
            where = data["state"]
            for key in path[:-1]:
                where = where[key]
            where[path[-1]] = value
            if row == "hp":  # HP past its maximum is refused by its own rule
                data["state"]["params"]["max_hp"] = BOUNDS["params"][1]
                # a parameter other than the balance's loads only from a save of another
                # balance (runtime/save.py: the same balance's are its own)
                data["content"]["balance"] = "0" * 16
            if loads:
                from_json(extreme_tables, json.dumps(data))
            else:
                with pytest.raises(SaveError):
                    from_json(extreme_tables, json.dumps(data))


def test_developer_mode_refuses_a_value_no_save_could_hold():
    from runtime.battle import Battle, Refused
    from runtime.bounds import MAX_MAGNITUDE
    from runtime.tables import load

    battle = Battle.new(load())
    for key in ("enemy_hp", "currency", "steps", "fray"):  # 座: 0..寿命上限 (the line)
        with pytest.raises(Refused, match="の範囲です"):
            battle.dev_set(**{key: MAX_MAGNITUDE + 1})
        battle.dev_set(**{key: MAX_MAGNITUDE})


def test_a_run_of_any_seed_the_battle_command_takes_saves_and_loads(extreme_tables):
    from conftest import invoke_cli
    from runtime.battle import Battle
    from runtime.bounds import BOUNDS

    low, high = BOUNDS["seed"]
    for seed in (low, -1, 0, 10 ** 18 + 1, high):
        battle = Battle.new(extreme_tables, seed=seed, enemies=["haguruma"])
        battle.end_turn()
        loaded = _saved_and_loaded(extreme_tables, battle)
        assert [e.as_dict() for e in battle.end_turn()] == \
            [e.as_dict() for e in loaded.end_turn()]
    for seed in (low - 1, high + 1):  # a seed no save could hold: a usage error
        assert invoke_cli("battle", "--seed", str(seed)).exit_code == 2


def test_developer_mode_refuses_a_hand_above_the_hand_cap():
    """No draw or 作用 fills a hand past 手札上限 (spec 000: 手札が上限に達している場合は
    引かない): setting one is refused, as --with refuses it, and the hand stays."""
    from runtime.battle import Battle, Refused
    from runtime.tables import load

    tables = load()
    battle = Battle.new(tables)
    cap = battle.state.param("hand_cap")
    hand = list(battle.hand)
    with pytest.raises(Refused, match=f"手札上限の {cap} 枚まで"):
        battle.dev_set(hand=["hatsu_koe"] * (cap + 1))
    assert battle.hand == hand
    battle.dev_set(hand=["hatsu_koe"] * cap)
    assert len(battle.hand) == cap
