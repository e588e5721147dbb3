"""The trigger graph's lists for the places designers look (TriggerGraph.triggers and
triggered_by): only links worth a line on a page card or in a hover."""

from __future__ import annotations

from analysis.content import Content
from analysis.graph import build, effect_node
from conftest import compiled_tables
from trigger_content import LISTENER, PRODUCER, trigger_content


def _graph(tmp_path):
    return build(Content.of_tables(compiled_tables(trigger_content(tmp_path / "c"))))


def test_a_producer_triggers_the_listener_of_its_event(tmp_path):
    graph = _graph(tmp_path)
    producer = effect_node("page", PRODUCER, "future", 0)
    listener = effect_node("page", LISTENER, "future", 0)
    assert graph.triggers(producer) == [("event:exile", [listener])]


def test_a_listener_is_triggered_by_the_producers_of_its_event(tmp_path):
    graph = _graph(tmp_path)
    producer = effect_node("page", PRODUCER, "future", 0)
    listener = effect_node("page", LISTENER, "future", 0)
    [cause] = graph.triggered_by(listener)
    assert cause.event == "event:exile" and cause.effects == [producer]


def test_events_every_stage_brings_are_not_listed_as_triggered(tmp_path):
    """A hit on the enemy can end the stage (敵HP 0): no news of one page."""
    graph = _graph(tmp_path)
    damage = effect_node("page", LISTENER, "future", 0)
    assert graph.sets_off(damage)  # it does reach 敵HPが0になる …
    assert graph.triggers(damage) == []  # … which every stage brings anyway


def test_pages_exiled_after_play_are_named_as_producers_of_exile(tmp_path):
    """himitsu_kichi (幼少期) is exiled after its play: its play produces ページの除外."""
    graph = _graph(tmp_path)
    [cause] = graph.triggered_by(effect_node("page", LISTENER, "future", 0))
    assert "himitsu_kichi" in cause.pages
    assert "rules:player" in cause.sources


def test_a_one_shot_lists_nothing_that_sets_it_off(tmp_path):
    """A one-shot waits for its own page's play: nothing to list."""
    graph = _graph(tmp_path)
    assert graph.triggered_by(effect_node("page", PRODUCER, "future", 0)) == []


def test_the_graph_the_findings_build_for_themselves_is_emptied_when_they_are_done(
        tmp_path, monkeypatch):
    """A networkx graph sits in a reference cycle (its cached views): dropped, it would
    wait for the cyclic collector, which the compiler pauses in its passes. The findings
    empty the graph they built; one their caller gives them is the caller's, untouched."""
    import gc

    import analysis.graph
    from analysis.findings import findings

    content = Content.of_tables(compiled_tables(trigger_content(tmp_path / "c")))
    built = []
    real = analysis.graph.build
    monkeypatch.setattr(analysis.graph, "build",
                        lambda content: built.append(real(content)) or built[-1])
    was_on = gc.isenabled()
    gc.disable()
    try:
        findings(content)
        given = real(content)
        nodes = given.graph.number_of_nodes()
        findings(content, given)
    finally:
        if was_on:
            gc.enable()
    assert built and built[0].graph.number_of_nodes() == 0
    assert given.graph.number_of_nodes() == nodes > 0
