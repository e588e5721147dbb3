"""The cyclic collector paused while the journey searches (contract/collector.py): what
the pause does, that the searches run under it, and why that is safe — they make no
reference cycles, so nothing is left for the collector to find."""

from __future__ import annotations

import gc

import pytest

from contract import collector
from journey import load_rules, new_game
from journey.lab import measure
from journey.player import play_game
from journey.search import JOURNEY
from journey.solve import solve

DRAFT = load_rules("草案")


@pytest.fixture(autouse=True)
def collector_on():
    """Each test starts with the collector on, as a process does, and leaves it so."""
    was_on = gc.isenabled()
    gc.enable()
    yield
    if was_on:
        gc.enable()  # a test that turned it off leaves no later test without it
    else:
        gc.disable()


def test_paused_turns_the_collector_off_inside_and_back_on_after():
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_nests_and_keeps_a_collector_its_caller_turned_off():
    with collector.paused():
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block's pause holds
    assert gc.isenabled()
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled()  # off before: left off


def test_paused_turns_the_collector_back_on_when_the_block_raises():
    with pytest.raises(ZeroDivisionError):
        with collector.paused():
            1 / 0
    assert gc.isenabled()


class _Watched:
    """The journey's rules, noting whether the collector was on at each position."""

    def __init__(self):
        self.seen = set()

    def __getattr__(self, name):
        method = getattr(JOURNEY, name)

        def watched(*args):
            self.seen.add(gc.isenabled())
            return method(*args)
        return watched


def test_settle_keeps_what_is_alive_out_of_the_collector_walks(monkeypatch):
    monkeypatch.setattr(collector, "_settled", collector._settled)  # as it was, after
    kept = [[i] for i in range(1000)]  # tracked containers, alive from here on
    try:
        collector.settle()
        assert gc.get_freeze_count() >= len(kept)
        assert not any(gc.is_tracked(x) and any(x is o for o in gc.get_objects(2))
                       for x in kept[:3])
        made_after = [[0]]
        assert any(made_after is o for o in gc.get_objects())
    finally:
        gc.unfreeze()  # the next tests' objects are walked again


@pytest.mark.slow
def test_what_a_paused_block_leaves_alive_goes_to_the_oldest_generation(monkeypatch):
    """The young collection that follows a pause walks none of what the block made and
    kept (a search's notes): it is in the oldest generation at once."""
    monkeypatch.setattr(collector, "_settled", False)  # an earlier test may have settled
    with collector.paused():
        kept = [[i] for i in range(2000)]
    young = {id(o) for generation in (0, 1) for o in gc.get_objects(generation)}
    oldest = {id(o) for o in gc.get_objects(2)}
    assert not any(id(x) in young for x in kept)
    assert all(id(x) in oldest for x in kept)


@pytest.mark.slow
def test_a_pause_leaves_what_settle_froze_frozen(monkeypatch):
    monkeypatch.setattr(collector, "_settled", collector._settled)  # as it was, after
    kept = [[i] for i in range(100)]  # noqa: F841 — alive through the settle
    try:
        collector.settle()
        frozen = gc.get_freeze_count()
        with collector.paused():
            made = [[0] for _ in range(100)]  # noqa: F841
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()  # the next tests' objects are walked again


@pytest.mark.slow
def test_the_lab_command_settles_the_compiled_content(monkeypatch, tmp_path):
    from click.testing import CliRunner

    import cli

    settled = []
    monkeypatch.setattr(collector, "settle", lambda: settled.append(True))
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    result = CliRunner().invoke(cli.main, ["sim", "--page", "arubaito", "--enemy", "haguruma",
                                           "--max-pairs", "40", "--workers", "1",
                                           "--format", "json"])
    assert result.exit_code == 0, result.output
    assert settled == [True]


def test_the_solver_searches_with_the_collector_paused():
    rules = _Watched()
    solve(rules, new_game(DRAFT, 0), budget=200)
    assert rules.seen == {False}
    assert gc.isenabled()


def test_a_report_task_runs_with_the_collector_paused(monkeypatch):
    seen = []
    monkeypatch.setitem(measure._WORK, measure.Task,
                        lambda context, task: seen.append(gc.isenabled()))
    measure.work({}, measure.Task(variant=0, setup="草案", items=None, seed=0, samples=0,
                                  nodes=100))
    assert seen == [False]
    assert gc.isenabled()


def test_the_player_searches_with_the_collector_paused(monkeypatch):
    import journey.player as player

    seen = []
    real = player.choose

    def choose(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(player, "choose", choose)
    play_game(DRAFT, 0, 1)
    assert seen and set(seen) == {False}
    assert gc.isenabled()


@pytest.mark.slow  # over a second: the full suite's (README: the fast loop)
def test_a_solve_and_a_played_deal_leave_no_reference_cycle():
    """What makes the pause safe: with the collector off, nothing it could collect is made."""
    gc.collect()
    gc.disable()
    for seed in range(2):
        solve(JOURNEY, new_game(DRAFT, seed), budget=2000)
        play_game(DRAFT, seed, 2)
    assert gc.collect() == 0
