"""The bundled content is a real starter set: it uses every term of the vocabulary.

Every list below is read from contract/vocabulary.py, so a vocabulary item added without
content that uses it fails here. The content is compiled in memory (the same tables
`jibunki compile` writes); the scenarios are read from the checked model.
"""

from __future__ import annotations

from functools import cache

import pytest

from contract import vocabulary as vocab
from compiler.build import compile_content
from compiler.lint import check
from scenario.stage import examples_of
from conftest import ROOT

CONTENT = ROOT / "content"
SIDES = ("future", "past")


@cache
def tables() -> dict:
    compiled = compile_content(CONTENT)
    assert compiled.ok, [f"{d.span}: {d.code} {d.message}" for d in compiled.diagnostics
                         if d.is_error]
    return compiled.tables


def pages() -> dict:
    return tables()["pages"]["pages"]


def enemies() -> dict:
    return tables()["enemies"]["enemies"]


def balance() -> dict:
    return tables()["balance"]["balance"]


def page_effects() -> list[tuple[str, dict]]:
    """(where, 作用) of every page: faces, pen upgrades and tear effects."""
    found = []
    for pid, page in pages().items():
        for side in SIDES:
            found += [(f"{pid}.{side}", e) for e in page["faces"][side]["effects"]]
            if page["pens"][side] is not None:
                found += [(f"{pid}.pen.{side}", e) for e in page["pens"][side]["effects"]]
        found += [(f"{pid}.tear", e) for e in page["tear"] or []]
    return found


def all_effects() -> list[dict]:
    """Every 作用 of the content: pages, enemy traits and the 綻び reward."""
    effects = [e for _, e in page_effects()]
    for enemy in enemies().values():
        effects += enemy["trait_effects"]
    return effects + balance()["reward"]


def conditions() -> list[dict]:
    found = []
    for page in pages().values():
        for side in SIDES:
            found += page["faces"][side]["conditions"]
            if page["pens"][side] is not None:
                found += page["pens"][side]["conditions"]
    return found


def intents() -> list[dict]:
    found = []
    for enemy in enemies().values():
        found += enemy["intents"] + [e["intent"] for e in enemy["escalations"]]
    return found


def refs(effect: dict) -> list[dict]:
    base = effect["base"]
    return [base["ref"]] if base and base["kind"] == "ref" else []


def missing(wanted, used) -> list:
    return sorted(set(wanted) - set(used))


# ------------------------------------------------------------------ operations


def test_every_operation_family_is_used():
    operations = {o.code: o for o in vocab.OPERATIONS}
    used = {operations[e["op"]].family for e in all_effects()}
    if any(e["pick"] == "choice" for e in all_effects()):
        used.add("choice")  # the player-choice family is the pick 選択 of a region operation
    assert missing(vocab.OPERATION_FAMILIES, used) == []


def test_every_operation_is_used():
    assert missing((o.code for o in vocab.OPERATIONS), (e["op"] for e in all_effects())) == []


def test_add_is_used_with_every_landing_and_multiply_on_defense_and_steps():
    add = vocab.tables()["operation"].by_code("add")
    landings = {e["landing"] for _, e in page_effects() if e["op"] == "add"}
    assert missing(add.landings, landings) == []
    multiplied = {e["target"]["code"] for _, e in page_effects() if e["op"] == "mul"}
    assert {"defense", "steps"} <= multiplied


def test_assign_sets_another_pages_year_and_a_flag():
    assigned = {e["target"]["code"] for _, e in page_effects() if e["op"] == "assign"}
    assert {"year", "flag"} <= assigned


def test_cap_changes_for_a_stage_and_for_the_run():
    lifetimes = {e["lifetime"] for _, e in page_effects() if e["op"] == "cap"}
    assert set(vocab.GENERATED_LIFETIMES) <= lifetimes  # ステージ and ラン
    assert any(e["op"] == "cap" and e["target"]["code"] == "lifespan_cap"
               for _, e in page_effects()), "a page must extend the lifespan (years never lived)"


def test_payments_in_hp_and_in_currency():
    paid = {e["target"]["code"] for _, e in page_effects() if e["op"] == "pay"}
    variables = [v.code for v in vocab.VARIABLES if "pay" in v.page_ops]
    assert missing(variables, paid) == []


def test_suppress_generate_duplicate_and_move_each_on_a_page():
    ops = {e["op"] for _, e in page_effects()}
    assert {"suppress", "move", "generate", "duplicate"} <= ops


# --------------------------------------------------------------------- timings


def test_every_timing_and_timing_family_is_used():
    used = {e["timing"] for e in all_effects()}
    # ラン開始時 is over before content is on the board: using it is W004 (DESIGN §6.1)
    assert missing((t.code for t in vocab.TIMINGS if t.reachable), used) == []
    assert not [t.code for t in vocab.TIMINGS if not t.reachable and t.code in used]
    families = {t.family for t in vocab.TIMINGS if t.code in used}
    assert missing(vocab.TIMING_FAMILIES, families) == []


# ---------------------------------------------------------------------- scopes


def test_every_scope_and_anchor_unit_is_used_as_a_repeat_range():
    repeats = [e["repeat"] for e in all_effects()]
    scopes = {r["scope"] for r in repeats}
    assert missing((s.code for s in vocab.SCOPES), scopes) == []
    assert "anchored" in scopes
    units = {r["unit"] for r in repeats if r["scope"] == "anchored"}
    assert missing((u.code for u in vocab.ANCHOR_UNITS), units) == []


def test_move_distance_and_net_displacement_and_crossings_are_read():
    read = {(r["counter"], r["scope"]) for e in all_effects() for r in refs(e)
            if r["kind"] == "counter"}
    assert ("steps_used", "play") in read  # attack that grows with the distance walked
    assert ("net_displacement", "play") in read
    assert any(counter == "crossings" for counter, _ in read)


# --------------------------------------------------------------------- regions


def test_every_region_is_used_by_a_page():
    used = set()
    for _, e in page_effects():
        used |= {e["source"], e["dest"]}
    for cond in conditions():
        used |= {t["region"] for t in cond["terms"] if t.get("kind") in (
            "region_count", "page_count")}
    assert missing((r.code for r in vocab.REGIONS), used) == []


def test_every_pick_is_used():
    assert missing((p.code for p in vocab.PICKS), (e["pick"] for e in all_effects())) == []


def test_every_post_play_destination_is_used():
    used = {p["after_play"] for p in pages().values()}
    assert missing((d.code for d in vocab.DESTINATIONS), used) == []


# ------------------------------------------------------------------ conditions


#: Condition kinds the content cannot use yet, and why. A flag condition (条件 @夢 >= 2)
#: lowers to {"kind": "flag", "test": ..., "terms": ...}; catalog/render.py `_refs` takes
#: any dict of kind "flag" for a flag reference and reads obj["flag"] → KeyError, so
#: `jibunki catalog` crashes on such content. The content reads its flags linearly in
#: values instead (攻撃力補正 += @夢 × 3) until the catalog is fixed.
def test_every_play_condition_kind_is_used():
    used = {c["kind"] for c in conditions()}
    kinds = [k.code for k in vocab.CONDITION_KINDS]
    assert missing(kinds, used) == []


def test_flag_condition_is_used():
    assert "flag" in {c["kind"] for c in conditions()}


def test_flags_are_written_and_read():
    written = {e["target"]["flag"] for e in all_effects() if e["target"]["code"] == "flag"}
    read = {r["flag"] for e in all_effects() for r in refs(e) if r["kind"] == "flag"}
    assert written & read, "a flag joins two effects: one writes it, another reads it"


def test_position_conditions_of_every_form():
    tests = {c["test"] for c in conditions() if c["kind"] == "position"}
    assert missing((w.code for w in vocab.CONDITION_WORDS), tests) == []  # 跨ぐ・跨がない
    terms = [t for c in conditions() for t in c["terms"]]
    assert any(t.get("kind") == "distance" for t in terms)  # |銘 − 刻| >= n
    age_ranges = [c for c in conditions() if len(c["ops"]) == 2 and any(
        t.get("variable") == "age" for t in c["terms"])]
    assert age_ranges, "a 刻 range (a <= 刻 <= b)"


def test_resource_conditions_read_hp_and_currency():
    read = {t.get("variable") for c in conditions() if c["kind"] == "resource"
            for t in c["terms"]}
    assert {"hp", "currency"} <= read


def test_remaining_conditions_read_pens_and_tears():
    read = {t.get("variable") for c in conditions() if c["kind"] == "remaining"
            for t in c["terms"]}
    assert {"pen_left", "tear_left"} <= read


# --------------------------------------------------------------------- enemies


def test_every_intent_kind_trait_and_blanking_region():
    assert missing((i.code for i in vocab.INTENT_KINDS), (i["kind"] for i in intents())) == []
    traits = {t["trait"] for e in enemies().values() for t in e["traits"]}
    assert missing((t.code for t in vocab.TRAITS), traits) == []
    blanked = {i["region"] for i in intents() if i["kind"] == "blank"}
    # 除外 cannot be blanked: the glossary's 白紙化 targets 手札／山札／捨て札／合算.
    assert missing((r.code for r in vocab.REGIONS if r.code != "exile"), blanked) == []


def test_seat_movement_both_ways_escalation_and_acceleration():
    moves = [e for enemy in enemies().values() for e in enemy["trait_effects"]
             if e["target"]["code"] == "seat"]
    assert any(e["telegraphed"] and e["direction"] == "increase" for e in moves)
    assert any(e["telegraphed"] and e["direction"] == "decrease" for e in moves)
    assert any(enemy["escalations"] for enemy in enemies().values())


def test_both_ways_to_win_exist():
    lowest_hp = min(e["hp"] for e in enemies().values())
    assert lowest_hp <= 100, "low-HP enemies: won by bringing HP to 0"
    assert any(e["breakthrough"] < e["hp"] / 2 for e in enemies().values()), \
        "an enemy whose 突破ライン is the realistic way"


# ---------------------------------------------------------------- the page set


def test_at_least_40_pages_and_8_enemies():
    assert len(pages()) >= 40
    assert len(enemies()) >= 8


def test_year_spread_over_the_life_and_beyond_the_lifespan():
    cap = balance()["lifespan_cap"]
    meis = sorted(p["year"] for p in pages().values())
    for low in range(0, cap, 10):  # every decade of the life has a page
        assert any(low <= m < low + 10 for m in meis), f"no page in {low}..{low + 9}"
    assert sum(m > cap for m in meis) >= 2, "years never lived (銘 > 寿命上限)"


def test_fray_multiplier_range():
    muls = [p["fray_mul"] for p in pages().values()]
    assert min(muls) <= 0.5 and max(muls) >= 2.0


def test_future_only_past_only_two_faced_and_blank_pages():
    shapes = set()
    for page in pages().values():
        written = tuple(page["faces"][side]["written"] for side in SIDES)
        shapes.add(written)
    assert shapes == {(True, False), (False, True), (True, True), (False, False)}


def test_pens_on_blank_and_on_written_faces_and_tear_effects():
    on_blank = on_written = 0
    for page in pages().values():
        for side in SIDES:
            if page["pens"][side] is not None:
                if page["faces"][side]["written"]:
                    on_written += 1
                else:
                    on_blank += 1
    assert on_blank >= 2 and on_written >= 2
    assert sum(bool(p["tear"]) for p in pages().values()) >= 3


def test_every_page_has_a_name_flavour_and_origin():
    for pid, page in pages().items():
        assert page["name"] != pid and page["flavor"], pid
        assert page["origin"], pid
    for eid, enemy in enemies().items():
        assert enemy["name"] != eid and enemy["flavor"], eid


def test_starting_deck_is_ten_pages():
    decks = tables()["decks"]
    assert len(decks["decks"][decks["starting_deck"]]["pages"]) == 10


# ------------------------------------------------------------------ scenarios


@cache
def scenario_specs() -> list[dict]:
    result = check([CONTENT])
    specs, problems = examples_of(result.compilation)
    assert not result.errors and not problems
    return specs


def acted_on(spec: dict) -> set[str]:
    """Pages a scenario plays, pens, tears or chooses."""
    found = set()
    for step in spec["steps"]:
        if step["kind"] in ("play", "pen", "tear"):
            found.add(step["page"])
        elif step["kind"] == "choose":
            found |= set(step["pages"])
    return found


@pytest.mark.parametrize("kind", ["pages", "enemies"])
def test_every_page_and_enemy_appears_in_a_scenario(kind):
    specs = scenario_specs()
    if kind == "pages":
        seen = set().union(*(acted_on(s) for s in specs))
        assert missing(pages(), seen) == []
    else:
        seen = {e for s in specs for e in s["enemies"]}
        assert missing(enemies(), seen) == []


def test_the_worked_example_is_bundled():
    names = {s["name"] for s in scenario_specs()}
    for choice in ("選択肢A", "選択肢B", "選択肢C"):
        assert any(choice in name for name in names), choice
    worked = pages()
    by_year = {}
    for page in worked.values():
        by_year.setdefault(page["year"], []).append(page)
    shapes = {8: (False, True), 22: (True, True), 36: (True, False), 44: (True, False),
              55: (True, False)}
    for year, shape in shapes.items():
        assert any(tuple(p["faces"][s]["written"] for s in SIDES) == shape
                   for p in by_year.get(year, [])), year
    assert any(p["fray_mul"] == 2.0 for p in by_year[8])
    assert any(p["fray_mul"] == 0.8 for p in by_year[55])
    assert any(e["seat"] == 42 and [i["amount"] for i in e["intents"]] == [16, 16, 16]
               and all(i["kind"] == "attack" for i in e["intents"])
               for e in enemies().values())
