"""The lab's results cache (sim/cache.py): a re-run plays nothing, an edit replays exactly the
battles that read what changed, the report is the same byte for byte cached or not and for
any number of workers, and a damaged, foreign or unusable cache is no cache, never an error.
"""

from __future__ import annotations

import copy
import json
import os

import pytest

from compiler.build import compile_content
from runtime.tables import from_dicts
from sim.cache import Keys, ResultCache
from sim.lab import Lab, Outcome, Settings

SMALL = {"enemies": ("haguruma", "wasure"), "ladder": ("random",), "precision": 0.1,
         "max_pairs": 200, "batch": 100}


@pytest.fixture(scope="module")
def literal():
    from conftest import ROOT

    compiled = compile_content(ROOT / "content")
    assert compiled.ok
    return compiled.tables


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    return tmp_path / "cache" / "jibunki" / "sim"  # the battle cache's own subfolder


def run(literal, *, cache: bool = True, workers: int = 1, **settings) -> tuple[str, Lab]:
    results = (ResultCache.open if cache else ResultCache)(literal, Outcome._make,
                                                           Outcome._fields)
    try:
        lab = Lab(literal, from_dicts(literal), Settings(**{**SMALL, **settings}),
                  workers=workers, cache=results)
        return json.dumps(lab.run(), sort_keys=True, ensure_ascii=False), lab
    finally:
        results.close()


def edited(literal, page: str) -> dict:
    """The tables with one number of ``page`` changed (its year: what a battle reads)."""
    changed = copy.deepcopy(literal)
    changed["pages"]["pages"][page]["year"] += 1
    return changed


@pytest.mark.slow
def test_a_rerun_plays_no_battle_and_gives_the_same_report(literal, cache_home):
    first, cold = run(literal, pages=("sakamichi", "byouin"))
    assert 0 < cold.played <= cold.battles  # an enemy row's battle that is a baseline one: once
    assert any(name.startswith("sim-") for name in os.listdir(cache_home))
    again, warm = run(literal, pages=("sakamichi", "byouin"))
    assert again == first
    assert warm.played == 0 and warm.battles == cold.battles and warm.tasks == []


@pytest.mark.slow
def test_cached_or_not_and_for_any_worker_count_the_report_is_the_same(literal, cache_home):
    pages = ("sakamichi", "byouin", "kodomo")
    bare, _ = run(literal, cache=False, workers=1, pages=pages)
    cold, _ = run(literal, workers=2, pages=pages)
    warm, lab = run(literal, workers=2, pages=pages)
    assert bare == cold == warm and lab.played == 0


@pytest.mark.slow
def test_an_edit_replays_exactly_the_pairs_of_the_page_edited(literal, cache_home):
    """byouin is read by no battle of the starting deck (no page of it names byouin, none
    generates): its edit replays byouin's pairs and nothing else — the enemy rows, the
    baseline and sakamichi's pairs come from the cache."""
    _, before = run(literal, pages=("sakamichi", "byouin"))
    report, after = run(edited(literal, "byouin"), pages=("sakamichi", "byouin"))
    byouin = next(r for r in json.loads(report)["pages"] if r["id"] == "byouin")
    assert after.played == byouin["pairs"]
    assert {t.focus for t in after.tasks} == {"byouin"}
    _, other = run(edited(literal, "byouin"), pages=("sakamichi",))
    assert other.played == 0


@pytest.mark.slow
def test_an_edit_to_a_page_of_the_starting_deck_replays_everything(literal, cache_home):
    run(literal, pages=("byouin",))
    _, after = run(edited(literal, "sakamichi"), pages=("byouin",))
    _, bare = run(edited(literal, "sakamichi"), cache=False, pages=("byouin",))
    assert after.played == bare.played  # the cache gave nothing


def test_the_pages_a_deck_reaches_follow_names_and_a_generate_reaches_all(literal):
    keys = Keys(literal)
    pages = literal["pages"]["pages"]
    assert "nyuugaku" in keys.reach(["doukai"], ["haguruma"])  # 同窓会 names 入学式
    assert "byouin" not in keys.reach(["sakamichi"], ["haguruma"])
    assert keys.reach(["kodomo"], ["haguruma"]) == sorted(pages)  # 生成: any page


@pytest.mark.slow
def test_a_damaged_or_foreign_entry_is_no_entry(literal, cache_home):
    first, cold = run(literal, pages=("sakamichi",))
    names = [n for n in os.listdir(cache_home) if n.startswith("sim-")]
    for name in names:  # torn files: the header survives, the payload does not
        path = cache_home / name
        path.write_bytes(path.read_bytes()[:-7])
    again, lab = run(literal, pages=("sakamichi",))
    assert again == first and lab.played == cold.played
    for name in names:  # writable by others: refused before a byte is read
        os.chmod(cache_home / name, 0o666)
    again, lab = run(literal, pages=("sakamichi",))
    assert again == first and lab.played == cold.played


def test_an_entry_of_the_wrong_shape_is_no_entry(literal, cache_home):
    """A well-formed entry (right key, right checksum) holding outcomes of another shape —
    a build whose Outcome had other fields — is not used."""
    import pickle

    from dsl import diskcache
    from sim import cache

    first, cold = run(literal, pages=("sakamichi",))
    folder = diskcache.open_folder(cache.KIND)
    try:
        for name in [n for n in os.listdir(cache_home) if n.startswith("sim-")]:
            payload = diskcache.read_entry(folder, name, b"", cache.FORMAT, 1 << 30)
            assert payload is None  # the key is in the header: none matches the empty one
        results = ResultCache(literal, Outcome._make, Outcome._fields, folder)
        key = results.keys.series(("x",), "random", 60, None, ("haguruma",), Outcome._fields)
        bad = pickle.dumps([(0, (1, 2, 3))], protocol=5)
        assert diskcache.write_entry(folder, cache._name(key), key.encode(), bad, cache.FORMAT,
                                     cache.MAX_ENTRY_BYTES, ".sim-")
        assert results.lookup(("x",), "random", 60, None, 0, ("haguruma",)) is None
    finally:
        os.close(folder)


#: An outcome a battle gives: won in 12 turns, 30 HP lost, the focus page played 3 times.
SOUND = Outcome(1, 12, 30, 0, 3, 40, 6, 1, 0, 2, 1)


@pytest.mark.parametrize("field, value", [
    ("won", 7), ("won", -1), ("turns", -5), ("hp_lost", -10 ** 6), ("turns", 10 ** 400),
    ("plays", -1), ("damage", -3), ("steps", 10 ** 13), ("drawn", -2), ("breakthrough", -1),
    ("held_unplayable", -1),
])
def test_an_entry_holding_an_outcome_no_battle_gives_is_no_entry(literal, cache_home, field,
                                                                  value):
    """The entry's checksum proves no author (anyone can rewrite an entry and its sum): an
    outcome no battle gives is played again, never reported — such entries made the lab
    divide by a negative count (a traceback) or report 勝率 100% and −5 turns (exit 0)."""
    import pickle

    from dsl import diskcache
    from sim import cache

    folder = diskcache.open_folder(cache.KIND)
    try:
        results = ResultCache(literal, Outcome._make, Outcome._fields, folder)
        key = results.keys.series(("x",), "random", 60, None, ("haguruma",), Outcome._fields)
        for outcome, found in ((SOUND, SOUND), (SOUND._replace(**{field: value}), None)):
            entry = pickle.dumps([(0, tuple(outcome))], protocol=5)
            assert diskcache.write_entry(folder, cache._name(key), key.encode(), entry,
                                         cache.FORMAT, cache.MAX_ENTRY_BYTES, ".sim-")
            again = ResultCache(literal, Outcome._make, Outcome._fields, folder)
            assert again.lookup(("x",), "random", 60, None, 0, ("haguruma",)) == found
    finally:
        os.close(folder)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["off", "no home", "writable by others"])
def test_no_usable_folder_plays_everything_without_an_error(literal, tmp_path, monkeypatch,
                                                             how):
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    if how == "off":
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    elif how == "no home":
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        monkeypatch.delenv("HOME", raising=False)
    else:
        (tmp_path / "cache" / "jibunki").mkdir(parents=True)
        os.chmod(tmp_path / "cache" / "jibunki", 0o777)  # anyone could plant entries
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first, cold = run(literal, pages=("sakamichi",))
    again, warm = run(literal, pages=("sakamichi",))
    assert first == again and warm.played == cold.played > 0
    if how == "off":
        assert not (tmp_path / "cache" / "jibunki").exists()


@pytest.mark.slow
def test_sim_no_cache_plays_again_and_reports_the_same(cache_home):
    from click.testing import CliRunner

    import cli

    args = ["sim", "--format", "json", "--enemy", "haguruma", "--page", "sakamichi",
            "--policy", "random", "--precision", "0.1", "--max-pairs", "100", "--workers", "1"]
    first = CliRunner().invoke(cli.main, args)
    assert first.exit_code == 0, first.output
    assert any(n.startswith("sim-") for n in os.listdir(cache_home))
    for name in os.listdir(cache_home):
        if name.startswith("sim-"):
            os.unlink(cache_home / name)
    bare = CliRunner().invoke(cli.main, [*args, "--no-cache"])
    assert bare.exit_code == 0 and bare.output == first.output
    # nothing was read, and what was played is kept: the next run reads it
    assert any(n.startswith("sim-") for n in os.listdir(cache_home))
    warm = CliRunner().invoke(cli.main, args)
    assert warm.exit_code == 0 and warm.stdout == first.stdout  # the report, read back
    assert "見込み" in first.output and "見込み" not in warm.output  # nothing left to play


@pytest.mark.slow
def test_other_code_replays_everything(literal, cache_home, monkeypatch):
    """The key holds the digest of the code that plays a battle: another runtime, player or
    ``work`` (here: another digest) reads nothing the first one kept."""
    from sim import cache

    _, cold = run(literal, pages=("sakamichi",))
    digest = cache.code_digest()
    monkeypatch.setattr(cache, "_code_digest", bytes(32))
    _, other = run(literal, pages=("sakamichi",))
    assert other.played == cold.played
    monkeypatch.setattr(cache, "_code_digest", digest)
    _, same = run(literal, pages=("sakamichi",))
    assert same.played == 0


def test_the_folder_a_page_was_written_in_is_not_in_the_key(literal):
    """The page's ``source`` (file, lines, text: for the catalog, read by no battle) is left
    out; any field a battle reads is in."""
    moved = copy.deepcopy(literal)
    for page in moved["pages"]["pages"].values():
        page["source"]["path"] = "elsewhere/" + page["source"]["path"]
    key = Keys(literal).series(("sakamichi",), "greedy", 60, None, ("haguruma",), ("won",))
    assert Keys(moved).series(("sakamichi",), "greedy", 60, None, ("haguruma",),
                              ("won",)) == key
    edited_tables = edited(literal, "sakamichi")
    assert Keys(edited_tables).series(("sakamichi",), "greedy", 60, None, ("haguruma",),
                                      ("won",)) != key


def test_words_only_the_designer_reads_replay_nothing(literal):
    """A page's name, its フレーバー and its 目標 are read by no battle: a typo fixed there
    keeps every series key (its pairs are not played again). The report records the 目標
    it judged, so a 目標 changed makes it another content's; a name or a フレーバー does not
    (the catalog keeps the lab's figures)."""
    from sim.cache import content_digest

    def key(tables):
        return Keys(tables).series(("sakamichi", "arubaito"), "greedy", 60, None,
                                   ("haguruma",), ("won",))

    before, recorded = key(literal), content_digest(literal)
    for field, value in (("flavor", "直した"), ("name", "新しい名前"), ("target", None)):
        changed = copy.deepcopy(literal)
        changed["pages"]["pages"]["arubaito"][field] = value
        assert key(changed) == before, field
        assert (content_digest(changed) == recorded) == (field != "target"), field
    enemy = copy.deepcopy(literal)
    enemy["enemies"]["enemies"]["haguruma"]["flavor"] = "直した"
    assert key(enemy) == before and content_digest(enemy) == recorded


def test_an_edit_to_the_journey_replays_no_battle(literal):
    """Draft 17's table (content/journey/) is read by no battle: editing it keeps every
    series key; editing the balance, which battles read, changes them."""
    key = Keys(literal).series(("sakamichi",), "greedy", 60, None, ("haguruma",), ("won",))
    journey = copy.deepcopy(literal)
    journey["journey"]["setups"]["草案"]["key_vp"] += 1
    assert Keys(journey).series(("sakamichi",), "greedy", 60, None, ("haguruma",),
                                ("won",)) == key
    assert "journey" in literal and "balance" in literal
    balance = copy.deepcopy(literal)
    balance["balance"]["balance"]["max_hp"] += 10
    assert Keys(balance).series(("sakamichi",), "greedy", 60, None, ("haguruma",),
                                ("won",)) != key


def test_a_report_records_the_content_it_measured_and_only_what_battles_read_changes_it(literal):
    """The catalog tells a report of other content by ``settings.content``: a number of a
    page changes it, the lines a page was written on (a comment above it) do not."""
    from sim.cache import content_digest

    same = content_digest(literal)
    moved = copy.deepcopy(literal)
    page = moved["pages"]["pages"]["arubaito"]
    page["source"] = {**page["source"], "line": page["source"]["line"] + 3}
    assert content_digest(moved) == same
    edited = copy.deepcopy(literal)
    edited["pages"]["pages"]["arubaito"]["year"] += 1
    assert content_digest(edited) != same
