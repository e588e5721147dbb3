"""The rows of analysis/events.py hold in the runtime: what the analysis says a 作用 or a
rule produces is what a battle of the bundled content does (runtime/ is the reference)."""

from __future__ import annotations

import pytest

from analysis import events as ev


@pytest.fixture(scope="module")
def tables():
    from runtime.tables import load

    return load()


def _battle(tables, hand, age=50, **more):
    from runtime.battle import Battle

    battle = Battle.new(tables, seed=1, enemies=["haguruma"])
    battle.dev_set(hand=hand, age=age, steps=200, **more)
    return battle


def _uid(battle, page):
    return next(u for u in battle.hand if battle.state.pages[u].page == page)


def test_a_move_to_exile_fires_the_exile_listeners(tables):
    move = tables.pages["dansyari"].faces["future"].effects[0]
    assert "exile" in ev.produced(move)
    assert ev.BY_TIMING["on_exile"].code == "exile"
    battle = _battle(tables, ["omoide_bako", "dansyari", "kenka", "shigoto"])
    battle.play(_uid(battle, "omoide_bako"))  # 銘 53 > 刻 50: its on_exile 作用 stays
    battle.dev_set(age=50)
    battle.play(_uid(battle, "dansyari"))
    kenka = next(u for u in battle.pending.candidates if battle.state.pages[u].page == "kenka")
    events = battle.choose([kenka])
    kinds = [e.kind for e in events]
    moved = [e for e in events if e.kind == "page_moved" and e.data["uid"] == kenka]
    assert moved and moved[0].data["to"].startswith("exile")
    listened = tables.pages["omoide_bako"].faces["future"].effects[0].line
    fired = [e for e in events if e.kind == "sayou" and e.data["line"] == listened]
    assert fired and "damage" in kinds[kinds.index("page_moved"):]


def test_a_tear_raises_the_fray(tables):
    assert "fray" in ev.CHAINS["tear"][0] and "tear" in ev.SOURCES[0].events
    battle = _battle(tables, ["hatsu_koe", "kenka"])
    events = battle.tear(_uid(battle, "hatsu_koe"))
    assert [e for e in events if e.kind == "fray_gained" and e.data["amount"] > 0]


def test_the_enemys_hp_at_zero_ends_the_stage(tables):
    assert ev.CHAINS["enemy_hp_zero"][0] == ("stage_end",)
    assert ev.produced(tables.pages["omoide_bako"].faces["future"].effects[0]) == (
        "damage", "enemy_hp_zero")
    battle = _battle(tables, ["tabidachi", "kenka"], age=20, enemy_hp=1)
    events = battle.play(_uid(battle, "tabidachi"))
    assert "damage" in [e.kind for e in events] and "stage_won" in [e.kind for e in events]


def test_the_bundled_graph_links_the_exile_listener_to_its_producers(tables):
    from analysis.content import Content
    from analysis.graph import build

    graph = build(Content.of_tables(tables))
    listener = "page:omoide_bako:future:0"
    assert listener in graph.effects("page", "omoide_bako")
    (event, producers), = graph.set_off_by(listener)
    assert event == "event:exile"
    assert "page:dansyari:future:0" in producers
    heard = dict(graph.sets_off("page:dansyari:future:0"))
    assert listener in heard["event:exile"]


def test_a_multiply_of_the_enemys_hp_by_one_or_more_never_zeroes_it():
    """敵HP *= 1.5 was said to set off 敵のHPが0になった時 (analyze: 「起こす: 敵HPが0になる」):
    a positive HP times 1.5 stays positive, and an HP of 0 is left as it is. A factor
    below 1 (rounded down) or read from a reference may still reach 0."""
    import dataclasses

    from analysis.content import Content
    from analysis.events import produced
    from analysis.graph import placed_effects
    from compiler.lint import check_text
    from contract.tables import Const, Sayou, VariableRef

    result = check_text('ページ a "倍" {\n  銘 30\n  未来面 { 敵HP *= 2 }\n  過去面 { HP += 1 }\n}\n',
                        "t.page")
    [written] = [e for *_, e, _ in placed_effects(Content.of_model(result.compilation.model))
                 if e.op == "mul"]

    def multiply(base) -> Sayou:
        return dataclasses.replace(written, base=base)

    assert "enemy_hp_zero" not in produced(multiply(Const(1.5)))
    assert "enemy_hp_zero" not in produced(multiply(Const(1)))
    assert "enemy_hp_zero" in produced(multiply(Const(0.5)))
    assert "enemy_hp_zero" in produced(multiply(Const(0)))
    assert "enemy_hp_zero" in produced(multiply(VariableRef("currency")))
