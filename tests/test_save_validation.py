"""Saves are not trusted: a hostile save file raises one documented error (SaveError)
with a message, or loads a state the rules could reach and then plays without crashing.
A valid save still loads exactly as it was (see test_runtime_properties)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime import save
from runtime.battle import Battle, Refused
from sim.policies import play_out, random_policy
from conftest import bundled_tables

TABLES = bundled_tables()
ENEMIES = sorted(TABLES.enemies)


def a_save(seed: int, steps: int) -> str:
    """A real save after ``steps`` random legal actions (no choice pending)."""
    battle = Battle.new(TABLES, seed=seed, enemies=ENEMIES[:2])
    play_out(battle, random_policy, random.Random(seed), steps)
    while battle.pending is not None and not battle.over:
        battle.choose(list(battle.pending.candidates[:battle.pending.count]))
    return save.to_json(battle)


def paths(value, prefix=()):
    """Every place in a JSON tree."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:40]):
            yield from paths(item, (*prefix, index))


HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.sampled_from([-1, 0, 1, 10**19]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from(["hand", "tabidachi", "on_hit", "turn", "won", "pen", "blank"]),
    st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                               st.integers(), max_size=2))


def mutate(data, path, how, value):
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if how == "delete":
        del parent[key]
    elif how == "add" and isinstance(parent, dict):
        parent["planted"] = value
    else:
        parent[key] = value
    return data


def play_on(battle: Battle, seed: int, steps: int = 30) -> None:
    policy = random.Random(seed)
    for _ in range(steps):
        if battle.over:
            return
        try:
            battle.apply(policy.choice(battle.actions()))
        except Refused:
            pass


SAVES = [a_save(seed, steps) for seed, steps in ((1, 0), (2, 8), (3, 25), (4, 60))]


@pytest.mark.slow  # a longer property search / lab run: the full suite's
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SAVES) - 1), pick=st.integers(0, 10**6),
       how=st.sampled_from(["replace", "replace", "delete", "add"]), value=HOSTILE,
       seed=st.integers(0, 1000))
def test_a_hostile_save_is_refused_with_a_message_or_loads_a_playable_state(
        which, pick, how, value, seed):
    data = json.loads(SAVES[which])
    places = list(paths(data))
    path = places[pick % len(places)]
    data = mutate(data, path, how, value)
    text = json.dumps(data)  # NaN/Infinity stay in as JSON extensions
    try:
        battle = save.from_json(TABLES, text)
    except save.SaveError as err:
        assert str(err).startswith("セーブを読めません: ")
        return
    play_on(battle, seed)


#: The opening of a save of this version, with the content's digests: what the rng cases
#: below need to be read as far as their rng.
HEAD = ('{"save_version": %d, "content": %s, ' % (save.SAVE_VERSION,
                                                   json.dumps(save.content_digests(TABLES))))


@pytest.mark.parametrize("text, where", [
    ("", save.WHOLE_FILE), ("{", save.WHOLE_FILE), ("[]", save.TOP_LEVEL), ("NaN", save.WHOLE_FILE),
    ('{"save_version": 1, "state": {}, "rng": [], "content": {}}', "save_version"),
    ("[" * 100_000 + "]" * 100_000, save.WHOLE_FILE),
    (HEAD + '"state": {}, "rng": {"shuffle": {"seed": 0, "count": 0},'
     ' "effects": [3, [' + "1," * 624 + '99999], null], "enemy": [3, [], null]}}',
     "rng.effects.state.624"),
    (HEAD + '"state": {}, "rng": {"shuffle": {"seed": true, "count": 0},'
     ' "effects": [3, [], null], "enemy": [3, [], null]}}', "rng.shuffle.seed"),
    (HEAD + '"state": {}, "rng": [3, [' + "1," * 624 + '0], null]}', "rng"),
    (HEAD + '"state": {}, "rng": {"shuffle": [3, [], null]}}', "rng"),
    ('{"save_version": %d, "state": {}, "rng": {}, "content": {"pages": [], "enemies": {},'
     ' "balance": "0"}}' % save.SAVE_VERSION, "content.pages"),
    ('{"save_version": %d, "state": {}, "rng": {}}' % save.SAVE_VERSION, save.TOP_LEVEL),
])
def test_malformed_saves_name_the_place(text, where):
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, text)
    assert err.value.where == where


@pytest.mark.parametrize("digits", [4_001, 5_000])
def test_an_integer_longer_than_any_bound_is_refused_in_japanese(digits):
    """Python refuses past 4,300 digits with an English message; the save says how many
    digits, before converting them."""
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, '{"save_version": ' + "9" * digits + "}")
    assert err.value.where == save.WHOLE_FILE
    assert f"{digits} 桁の整数は大きすぎます" in str(err.value)
    assert not any("a" <= ch <= "z" for ch in str(err.value))


def test_a_planted_effect_is_refused():
    data = json.loads(SAVES[2])
    data["state"]["effects"].append({
        "effect": {"op": "add", "target": {"code": "hp"}, "direction": "increase",
                   "base": {"kind": "const", "value": 10**6}, "timing": "turn_start",
                   "repeat": {"scope": "run", "max": None}, "landing": "fixed", "ja": {},
                   "lifetime": "permanent", "telegraphed": False, "line": 1},
        "origin": "page", "page_uid": None, "scale": 1.0, "fires": 0, "distance": 0,
        "placed": {"plays": 0, "turns": 0, "counters": {}}})
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert "表にない作用" in str(err.value)


def test_a_well_formed_effect_the_tables_do_not_hold_is_refused():
    # A real 作用 of the tables, changed in one term: the contract reads it, but no table
    # holds it, so a save cannot bring it onto the board.
    data = json.loads(SAVES[1])
    effect = data["state"]["effects"][0]["effect"]
    assert effect["base"]["kind"] in ("const", "ref")  # saved as its literal, tags and all
    effect["line"] += 1000
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == "state.effects.0.effect" and "表にない作用" in str(err.value)


def test_a_loaded_effect_is_the_tables_own_object():
    held = list(save._table_effects(TABLES))
    for text in SAVES:
        for placed in save.from_json(TABLES, text).state.effects:
            assert any(placed.effect is effect for effect in held)


def test_an_unknown_page_or_a_page_in_two_zones_is_refused():
    data = json.loads(SAVES[1])
    data["state"]["pages"][0]["page"] = "no_such_page"
    with pytest.raises(save.SaveError, match="state.pages.0.page"):
        save.from_json(TABLES, json.dumps(data))
    data = json.loads(SAVES[1])
    zones = data["state"]["zones"]
    zones["discard"].append(zones["hand"][0])
    with pytest.raises(save.SaveError):
        save.from_json(TABLES, json.dumps(data))


def test_every_valid_save_loads_as_it_was():
    for text in SAVES:
        assert save.to_json(save.from_json(TABLES, text)) == text


def test_counters_are_saved_as_the_runs_with_the_marks_of_turn_and_stage():
    """Since SAVE_VERSION 5: the run's counters, a mark per turn and stage, the play's own."""
    data = json.loads(SAVES[2])["state"]
    assert set(data["marks"]) <= {"turn", "stage"}
    battle = save.from_json(TABLES, SAVES[2])
    s = battle.state
    for name in data["counters"]:
        assert s.counter("run", name) == data["counters"][name]
        assert s.counter("turn", name) == data["counters"][name] - data["marks"].get(
            "turn", {}).get(name, 0)


def test_a_mark_of_a_scope_read_otherwise_is_refused():
    data = json.loads(SAVES[2])
    data["state"]["marks"]["play"] = {}
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where.startswith("state.marks")


def test_a_save_of_the_previous_version_is_refused_by_name():
    data = json.loads(SAVES[2])
    data["save_version"] = save.SAVE_VERSION - 1
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == "save_version" and "読めません" in str(err.value)


def test_a_save_version_written_as_text_is_said_to_be_no_integer():
    data = json.loads(SAVES[2])
    data["save_version"] = str(save.SAVE_VERSION)
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == "save_version"
    assert f'"{save.SAVE_VERSION}" は整数ではありません（このランタイムは {save.SAVE_VERSION}）' in str(err.value)


def test_a_pen_written_or_to_be_restored_on_a_face_without_one_is_refused():
    """A face's pen state, or the state a blank would restore, names a pen the page has:
    a save that writes a pen the tables never had is refused where it says so."""
    data = json.loads(SAVES[1])
    no_pen = next((i, side) for i, page in enumerate(data["state"]["pages"])
                  for side in ("future", "past")
                  if TABLES.pages[page["page"]].pens[side] is None)
    index, side = no_pen
    for field, value in (("state", "pen"), ("blanked", "pen")):
        broken = json.loads(SAVES[1])
        face = broken["state"]["pages"][index]["faces"][side]
        face.update({"state": "blank", "blanked": "base"} if field == "blanked" else {})
        face[field] = value
        with pytest.raises(save.SaveError, match=f"state.pages.{index}.faces.{side}.{field}"):
            save.from_json(TABLES, json.dumps(broken))


def test_a_rule_parameter_other_than_the_balance_it_was_saved_under_is_refused():
    """Under the balance a save was made with, the run's parameters are that balance's own
    (nothing in a run writes them; 上限変更 is kept apart): 最大HP 5000 in a save of the
    same balance was edited in, and is refused. A save of an earlier balance keeps its
    values (the load then says the balance changed)."""
    data = json.loads(SAVES[0])
    data["state"]["params"]["max_hp"] = 5000
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == "state.params.max_hp"
    assert "最大HP 5000 がバランスの値 200 と違います" in str(err.value)
    data["content"]["balance"] = "0" * 16  # saved under another balance: kept as saved
    battle, changed = save.read(TABLES, json.dumps(data))
    assert battle.state.param("max_hp") == 5000 and changed[-1] == save.BALANCE_WORD


@pytest.mark.parametrize("field, value, where", [
    (("enemy", "hp"), 0, "state.enemy.hp"), (("enemy", "hp"), -1, "state.enemy.hp"),
    (("hp",), 0, "state.hp"), (("fray_stage",), "breakthrough", "state.fray_stage")])
def test_a_run_still_being_played_cannot_have_its_stage_decided(field, value, where):
    """spec 000 勝敗条件: 敵HP 0 or 突破ライン wins the stage, HP 0 loses the run, and the
    battle settles that before the next action. A save with no outcome whose stage is
    decided was edited: loaded, its next action would win (or lose) what was never played,
    so it is refused where it says so."""
    data = json.loads(SAVES[1])
    state = data["state"]
    assert state["outcome"] is None
    if value == "breakthrough":
        value = TABLES.enemies[state["enemy"]["id"]].breakthrough
        state["fray_run"] = max(state["fray_run"], value)
    parent = state
    for key in field[:-1]:
        parent = parent[key]
    parent[field[-1]] = value
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == where and "勝敗が決まっていません" in str(err.value)


@pytest.mark.parametrize("turn, turns_run, where, said", [
    (0, None, "state.turn", "ターン 1 から始まっています"),
    (None, 0, "state.turn", "ステージのターン"),
    (7, 3, "state.turn", "ランのターン 3 を超えています")])
def test_a_turn_the_rules_never_count_is_refused(turn, turns_run, where, said):
    """spec 000 ターン: a stage starts its first turn as it starts (runtime/turn.py), and
    each turn of a stage is one of the run's — a save of turn 0 while the stage is still
    played, or of more turns in the stage than in the run, was edited."""
    data = json.loads(SAVES[1])
    state = data["state"]
    assert state["outcome"] is None and 1 <= state["turn"] <= state["turns_run"]
    state["turn"] = state["turn"] if turn is None else turn
    state["turns_run"] = state["turns_run"] if turns_run is None else turns_run
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert err.value.where == where and said in str(err.value), str(err.value)


def test_win_conditions_a_save_that_says_won_of_a_stage_still_being_fought_is_refused():
    """QA: ``state.outcome = "won"`` in a save made at turn 1 loaded as 「結果: 勝利」 with
    the enemy at 98/110 (spec 000 勝敗条件: 敵HP 0 or 綻び at 突破ライン wins a stage, the
    last stage won wins the run)."""
    data = json.loads(a_save(4, 3))
    data["state"]["outcome"] = "won"
    with pytest.raises(save.SaveError) as refused:
        save.from_json(TABLES, json.dumps(data))
    assert refused.value.where == "state.outcome"
    one = Battle.new(TABLES, seed=4, enemies=ENEMIES[:1])
    play_out(one, random_policy, random.Random(4), 3)
    data = json.loads(save.to_json(one))
    assert data["state"]["outcome"] is None and data["state"]["enemy"]["hp"] > 0
    data["state"]["outcome"] = "won"
    with pytest.raises(save.SaveError) as refused:
        save.from_json(TABLES, json.dumps(data))
    assert "が残り" in str(refused.value) and "に達していません" in str(refused.value)
    # A run really won loads, and says it was won.
    battle = Battle.new(TABLES, seed=4, enemies=ENEMIES[:1])
    battle.dev_set(enemy_hp=0)
    assert battle.state.outcome == "won"
    assert save.from_json(TABLES, save.to_json(battle)).state.outcome == "won"


def test_a_win_a_stage_end_sayou_could_undo_is_not_refused():
    """A 作用 of ステージ終了時 or ラン終了時 (or an event they set off) that raises 敵HP or
    lowers 綻び may leave a real win showing neither; an enemy's own after-action heal
    (からだ's 敵HP += 10 毎 敵の行動後) cannot fire after the win."""
    from contract import vocabulary as vocab

    heal = next(e for e in save._table_effects(TABLES)
                if e.target.code == "enemy_hp" and e.direction == "increase")
    assert heal.timing == "after_enemy" and not save._may_undo_the_win(heal)
    later = {t.code for t in vocab.TIMINGS} - {"turn_start", "after_steps_refill", "after_draw",
                                               "on_play", "on_end_declared", "after_defense",
                                               "before_enemy", "after_enemy", "turn_end",
                                               "stage_start", "run_start"}
    assert save._AFTER_THE_WIN == later
    import dataclasses
    assert save._may_undo_the_win(dataclasses.replace(heal, timing="run_end"))


@pytest.mark.parametrize("where, value, said", [
    # the value as the file spells it, not Python's True, 'moon' or None
    (("state", "hp"), True, "state.hp: 整数ではありません（true）"),
    (("state", "pages", 0, "zone"), "moon", 'state.pages.0.zone: "moon" はありません（'),
    (("state", "seed"), None, "state.seed: 整数ではありません（null）"),
    (("state", "pages", 1, "uid"), 0, "state.pages.1.uid: 1 のはずです（0）"),  # not 「1〜1 の外」
    (("state", "pages"), [], "state.pages: ページが 1 枚もありません"),  # not 「0〜-1 の外」
])
def test_a_refused_save_names_the_value_as_the_file_writes_it(where, value, said):
    """A designer reading why a save was refused looks for the value in the JSON file."""
    data = mutate(json.loads(SAVES[1]), where, "set", value)
    with pytest.raises(save.SaveError) as err:
        save.from_json(TABLES, json.dumps(data))
    assert said in str(err.value), str(err.value)
