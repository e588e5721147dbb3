"""The journey report's results cache (journey/lab/cache.py on sim/store.py): a re-run plays
nothing, an edit of one set-up replays exactly its deals, other code replays everything,
a damaged or foreign entry is no entry, and the figures are the same cached or not, for
any number of workers. Every test keeps its cache in a folder of its own (XDG_CACHE_HOME)."""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import os
import pickle

import pytest
from click.testing import CliRunner

import cli
from journey.lab import cache, measure
from journey.lab import load
from journey.lab.cache import DealCache, fits
from journey.lab.measure import run
import test_journey_report as uncached

#: The report the cache is tried on: the uncached tests' small one on one seed (what is
#: kept and replayed is the same per deal; a second seed only doubled every run).
SMALL = dataclasses.replace(uncached.SMALL, seeds=1)
#: The fixture of the bundled journey table.
literal = uncached.literal

#: SMALL's tasks: 7 set-ups × 1 seed × (solved + played at 1).
TASKS = 14
PER_VARIANT = 2


@pytest.fixture(scope="module")
def bare(literal) -> dict:
    """SMALL's report played whole without a cache (one worker)."""
    return run(literal, SMALL, workers=1)


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    return tmp_path / "cache" / "jibunki" / "journey"  # the deal cache's own subfolder


def measured(literal, workers: int = 1, progress=None) -> dict:
    """A report with the cache on the (test's) cache folder."""
    kept = DealCache.open(literal)
    try:
        return run(literal, SMALL, workers=workers, progress=progress, cache=kept)
    finally:
        kept.close()


def figures(report: dict) -> str:
    """The report less how its run went (played now or read): what must not change."""
    rest = {**report, "run": {k: v for k, v in report["run"].items()
                              if k not in ("played", "cached")}}
    return json.dumps(rest, sort_keys=True, ensure_ascii=False)


def entries(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.startswith("journey-")) \
        if folder.exists() else []


def with_key_bonus(literal, setup: str) -> dict:
    changed = copy.deepcopy(literal)
    changed["setups"][setup]["key_vp"] += 1
    return changed


@pytest.mark.slow
def test_a_rerun_plays_nothing_and_gives_the_same_report(literal, bare, cache_home):
    cold = measured(literal)
    assert cold["run"] == {"tasks": TASKS, "climbs": 0, "played": TASKS, "cached": 0}
    assert entries(cache_home)
    told: list = []
    warm = measured(literal, progress=lambda done, total: told.append((done, total)))
    assert warm["run"] == {"tasks": TASKS, "climbs": 0, "played": 0, "cached": TASKS}
    assert told == [(TASKS, TASKS)]  # the cached deals count as done
    assert figures(warm) == figures(cold) == figures(bare)


@pytest.mark.slow
def test_editing_one_set_up_replays_exactly_its_deals(literal, bare, cache_home):
    measured(literal)
    edited = with_key_bonus(literal, "高難易度")
    told: list = []
    after = measured(edited, progress=lambda done, total: told.append((done, total)))
    assert after["run"]["played"] == PER_VARIANT
    assert told[0] == (TASKS - PER_VARIANT, TASKS) and told[-1] == (TASKS, TASKS)
    unchanged = [r for r in after["variants"] if r["id"] != "高難易度"]
    assert unchanged == [r for r in bare["variants"] if r["id"] != "高難易度"]
    assert figures(after) == figures(run(edited, SMALL, workers=1))
    # A set-up added (measured after the sweep's, measure.OTHER_GROUP): its own deals play,
    # nothing of the others replays.
    other = copy.deepcopy(edited)
    other["setups"]["試作"] = {**copy.deepcopy(other["setups"]["草案"]), "id": "試作",
                              "name": "試作", "key_vp": 9}
    added = measured(other)
    assert added["run"]["played"] == PER_VARIANT
    assert added["variants"][-1]["id"] == "試作"


@pytest.mark.slow
def test_the_solvers_budgets_replay_the_solved_deals_only(literal, bare, cache_home):
    """A played game reads no solver budget: a change of ``nodes``, ``find_nodes`` or
    ``polish_nodes`` solves every deal again and replays no game."""

    measured(literal)
    for change in ({"nodes": 61}, {"find_nodes": 200}, {"polish_nodes": 90}):
        kept = DealCache.open(literal)
        try:
            again = run(literal, dataclasses.replace(SMALL, **change), workers=1, cache=kept)
        finally:
            kept.close()
        # the solves and the climbs of the deals they now win; not the games
        assert again["run"]["played"] == TASKS // 2 + again["run"]["climbs"]
        assert [r["players"] for r in again["variants"]] == \
            [r["players"] for r in bare["variants"]]


@pytest.mark.slow
def test_other_code_replays_everything(literal, cache_home, monkeypatch):
    measured(literal)
    digest = cache.code_digest()
    monkeypatch.setattr(cache, "_code_digest", bytes(32))
    assert measured(literal)["run"]["played"] == TASKS
    monkeypatch.setattr(cache, "_code_digest", digest)
    assert measured(literal)["run"]["played"] == 0


def test_the_code_digest_follows_what_work_reads_and_not_the_report(monkeypatch):
    """A constant ``work`` reads (MARGIN) is part of the code a result depends on; a
    function that only draws the report (best_scores) is not."""
    def digest() -> bytes:
        monkeypatch.setattr(cache, "_code_digest", None)
        return cache.code_digest()

    first = digest()
    monkeypatch.setattr(measure, "best_scores", lambda solver: "?")
    assert digest() == first
    monkeypatch.setattr(measure, "MARGIN", measure.MARGIN + 1)
    assert digest() != first
    assert set(cache.result_classes()) >= {"Solved", "Played"}


@pytest.mark.slow
def test_a_damaged_or_foreign_entry_is_no_entry(literal, bare, cache_home):
    measured(literal)
    for name in entries(cache_home):  # torn files: the payload's checksum no longer holds
        path = cache_home / name
        path.write_bytes(path.read_bytes()[:-5])
    again = measured(literal)
    assert again["run"]["played"] == TASKS and figures(again) == figures(bare)
    for name in entries(cache_home):  # writable by others: refused before a byte is read
        os.chmod(cache_home / name, 0o666)
    again = measured(literal)
    assert again["run"]["played"] == TASKS and figures(again) == figures(bare)


GOOD_SOLVED = ("Solved", ("won", 12, True, 40, (("play", 3, 1), ("end",))))
GOOD_RATING = ("Rating", (30, 12, ((11, 29, 3, 1), (10, 28, 2, None)), 140))
GOOD_PLAYED = ("Played", (1, 7, 12, 3, ((3, 2, 1, 0), (2, 2, 0, 1))))


@pytest.mark.parametrize("data", [
    ("Solved", ("won", 12, 1, 40)),                 # an int for a bool
    ("Solved", ("won", True, True, 40)),            # a bool for an int
    ("Solved", ("won", 12, True, 40)),              # a field short (an older build's)
    ("Solved", ("won", 12, True, 40, (object(),))), # a line holding no plain value
    ("Rating", (30, 12, ((11, 29, 3),), 140)),      # a rated decision short
    ("Played", (1, 7, None, 3, ((3, 2),))),         # a decision of two numbers
    ("Played", (1, 7, 12, 3, [(3, 2, 1)])),         # a list for the tuple
    ("Outcome", (1, 2, 3)),                         # a kind work does not give
    ("Solved", "won"),
    ["Solved", ("won", 12, True, 40)],
])
def test_a_result_of_the_wrong_shape_is_refused(literal, data):
    kept = DealCache(literal)
    assert kept.decode(data) is None


def test_a_result_of_the_right_shape_is_rebuilt(literal):
    kept = DealCache(literal)
    assert kept.decode(GOOD_SOLVED) == measure.Solved("won", 12, True, 40,
                                                      (("play", 3, 1), ("end",)))
    rating = kept.decode(GOOD_RATING)
    assert type(rating) is load.Rating and type(rating.rated[0]) is load.Rated
    assert rating.rated[1].rung is None and kept.encode(rating) == GOOD_RATING
    played = kept.decode(GOOD_PLAYED)
    assert type(played) is measure.Played and kept.encode(played) == GOOD_PLAYED
    assert kept.encode(measure.Solved("won", 12.0, True, 40)) is None  # not kept


def _kept(literal, task, data):
    """What a cache on disk whose entry for ``task`` holds ``data`` (right key, right
    checksum) answers for it."""
    from dsl import diskcache

    kept = DealCache.open(literal)
    try:
        key = kept.key(task)
        payload = pickle.dumps([(task.seed, data)], protocol=5)
        assert diskcache.write_entry(kept._folder, kept._name(key), key.encode(), payload,
                                     cache.FORMAT, 1 << 20, ".journey-")
        return DealCache(literal, kept._folder).lookup(task)
    finally:
        kept.close()


#: A deal of the draft solved (seed 0: won within 30,000 positions) and played (one
#: sampled order).
SOLVE_TASK = measure.Task(0, "草案", None, 0, 0, 60, find=30_000)
PLAY_TASK = measure.Task(0, "草案", None, 0, 1, 0)


@pytest.fixture(scope="module")
def worked(literal):
    """What ``work`` gives for SOLVE_TASK and PLAY_TASK, as the cache keeps it."""
    context = measure.prepare(literal)
    kept = DealCache(literal)
    return {task: kept.encode(measure.work(context, task)) for task in (SOLVE_TASK, PLAY_TASK)}


def test_an_entry_holding_a_result_of_the_wrong_shape_is_no_entry(literal, cache_home, worked):
    """A well-formed entry (right key, right checksum) holding a result of another shape —
    a build whose Solved had other fields — is not used."""
    good = worked[SOLVE_TASK]
    assert good[1][0] == "won"  # the line the soundness check replays
    assert _kept(literal, SOLVE_TASK, good) == DealCache(literal).decode(good)
    assert _kept(literal, SOLVE_TASK, ("Solved", ("won", 12, 1, 40))) is None


def _with(data, at: int, value):
    values = list(data[1])
    values[at] = value
    return (data[0], tuple(values))


@pytest.mark.parametrize("change", [
    ("solved", 1, lambda score: score + 1),           # a score its line does not reach
    ("solved", 4, lambda line: line[:-1]),            # a line that stops short of the win
    ("solved", 4, lambda line: (line[1], line[0], *line[2:])),  # actions out of order
    ("solved", 3, lambda nodes: -nodes),              # negative positions
    ("solved", 0, lambda verdict: "lost"),            # lost, with a score and a line
    ("played", 0, lambda won: 7),                     # a win counted 7 times
    ("played", 1, lambda turns: -5),                  # negative turns
    ("played", 1, lambda turns: 10 ** 400),           # turns no game plays
    ("played", 2, lambda score: None),                # a win without a score
    ("played", 4, lambda ds: ((3, 4, 1, 0), *ds[1:])),  # more contenders than options
    ("played", 4, lambda ds: ((3, 2, 2, 0), *ds[1:])),  # a flag of 2
])
def test_a_kept_result_no_deal_can_give_is_no_entry(literal, cache_home, worked, change):
    """The cache's checksum proves no author (anyone can rewrite an entry and its sum): a
    result is used only when it is one ``work`` can give — else the deal is played again
    (a tampered entry made the report divide by a negative count, or read 100%)."""
    kind, at, edit = change
    task = SOLVE_TASK if kind == "solved" else PLAY_TASK
    good = worked[task]
    assert _kept(literal, task, good) is not None
    assert _kept(literal, task, _with(good, at, edit(good[1][at]))) is None


def test_a_result_of_another_kind_of_task_is_no_entry(literal, cache_home, worked):
    """A played game kept under a solve's key (or a solve under a play's) passed the check;
    a rating under a deal's key raised AttributeError inside the lookup."""
    solved, played = worked[SOLVE_TASK], worked[PLAY_TASK]
    assert _kept(literal, SOLVE_TASK, played) is None
    assert _kept(literal, PLAY_TASK, solved) is None
    assert _kept(literal, SOLVE_TASK, GOOD_RATING) is None


def test_a_rating_s_rung_must_be_one_of_its_ladder(literal):
    """A rated decision's rung indexes the ladder of the climb's budgets."""
    climb = measure.Climb(0, "草案", None, 0, (), 0, False, (1, 2), 4, 500)
    rungs = len(load.rungs_of(climb.budgets))
    context = measure.prepare(literal)
    for rung, ok in ((None, True), (0, True), (rungs - 1, True), (rungs, False), (-1, False)):
        rating = load.Rating(30, 12, (load.Rated(11, 29, 3, rung),), 140)
        assert measure.sound(context, climb, rating) is ok


def test_fits_tells_exact_types():
    assert fits(3, int) and not fits(True, int) and not fits(3, bool) and not fits(3, float)
    assert fits(None, int | None) and fits(4, int | None) and not fits("4", int | None)
    assert fits((), tuple[int, ...]) and fits((1, 2), tuple[int, ...])
    assert not fits((1, "2"), tuple[int, ...]) and not fits([1], tuple[int, ...])
    assert fits((1, "a"), tuple[int, str]) and not fits((1,), tuple[int, str])
    assert not fits(object(), object)


@pytest.mark.slow
def test_one_or_two_workers_cached_or_not_give_the_same_report(literal, bare, cache_home):
    cold = measured(literal, workers=2)
    warm = measured(literal, workers=1)
    assert warm["run"]["played"] == 0
    assert figures(cold) == figures(warm) == figures(bare)
    measured(with_key_bonus(literal, "問題点"), workers=1)
    partly = measured(with_key_bonus(literal, "草案"), workers=2)
    assert partly["run"]["played"] == PER_VARIANT
    assert figures(partly) == figures(run(with_key_bonus(literal, "草案"), SMALL, workers=2))


ARGS = ["journey", "report", "--seeds", "1", "--budget", "1", "--nodes", "40", "--no-pairs",
        "--workers", "1"]


@pytest.mark.slow
def test_the_command_reads_the_cache_and_no_cache_plays_everything(cache_home, monkeypatch):
    runner = CliRunner()
    first = runner.invoke(cli.main, ARGS)
    assert first.exit_code == 0, first.output
    assert first.stdout.rstrip().endswith(  # 7 set-ups, 1 deal each: solved, played once
        "配り 7 件（作業 14: 解く 7・遊ぶ 7。今回 14、キャッシュから 0）")
    again = runner.invoke(cli.main, ARGS)
    assert again.stdout.rstrip().endswith("配り 7 件（作業 14: 解く 7・遊ぶ 7。今回 0、キャッシュから 14）")
    assert again.stdout.splitlines()[:-1] == first.stdout.splitlines()[:-1]
    # --no-cache reads nothing kept, plays everything, and keeps what it played: the run
    # after it is read from the cache (a refresh left a cold cache behind it)
    kept = entries(cache_home)
    bare = runner.invoke(cli.main, [*ARGS, "--no-cache", "--format", "json"])
    assert bare.exit_code == 0, bare.output
    assert json.loads(bare.stdout)["run"] == {"tasks": 14, "climbs": 0, "played": 14, "cached": 0}
    assert entries(cache_home) == kept
    for name in entries(cache_home):
        os.unlink(cache_home / name)
    runner.invoke(cli.main, [*ARGS, "--no-cache", "--format", "json"])
    after = runner.invoke(cli.main, [*ARGS, "--format", "json"])
    assert json.loads(after.stdout)["run"] == {"tasks": 14, "climbs": 0, "played": 0, "cached": 14}
    assert json.loads(after.stdout)["variants"] == json.loads(bare.stdout)["variants"]
    for name in entries(cache_home):
        os.unlink(cache_home / name)
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    off = runner.invoke(cli.main, [*ARGS, "--format", "json"])
    assert json.loads(off.stdout)["run"]["played"] == 14 and entries(cache_home) == []
    assert figures(json.loads(off.stdout)) == figures(json.loads(bare.stdout))


def test_the_report_command_explains_no_cache_in_japanese():
    result = CliRunner().invoke(cli.main, ["journey", "report", "--help"])
    assert "--no-cache" in result.output and "キャッシュ" in result.output


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_the_report_on_ray_is_the_local_one_and_fills_the_cache_a_local_run_reads(
        literal, bare, cache_home):
    """The run starts its own local Ray and stops it; its figures are the local run's, and
    what it played is kept for a local run to read."""
    import ray

    assert not ray.is_initialized()
    kept = DealCache.open(literal)
    try:
        on_ray = run(literal, SMALL, workers=2, backend="ray", cache=kept)
    finally:
        kept.close()
    assert not ray.is_initialized()
    local = measured(literal)
    assert on_ray["run"]["played"] == TASKS and local["run"]["played"] == 0
    assert figures(on_ray) == figures(local) == figures(bare)


@pytest.mark.slow
def test_the_ladders_climbs_are_kept_too(literal, cache_home):
    """The won lines' climbs (journey/lab/load.py) are tasks like the deals: a re-run
    reads them, with the same ratings."""
    from journey.lab.measure import Settings

    # the least that still wins a few deals to climb (4 of 7 at 300 positions): a third
    # of the time of the report's own budgets, for the same question of the cache
    settings = Settings(seeds=1, budgets=(1,), nodes=300, pairs=False, ladder=1,
                        ladder_nodes=50)

    def measured_with(settings):
        kept = DealCache.open(literal)
        try:
            return run(literal, settings, workers=1, cache=kept)
        finally:
            kept.close()

    cold = measured_with(settings)
    assert cold["run"]["climbs"] > 0
    assert cold["run"]["played"] == cold["run"]["tasks"] + cold["run"]["climbs"]
    warm = measured_with(settings)
    assert warm["run"]["played"] == 0
    assert warm["run"]["cached"] == cold["run"]["tasks"] + cold["run"]["climbs"]
    assert figures(warm) == figures(cold)
