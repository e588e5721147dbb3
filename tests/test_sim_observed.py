"""The observed figures of the balance lab (sim/observed.py, sim/stats.py's newcombe,
t_quantile, mean_interval; sim/simulate.py's HandWatch): on cases worked out by hand,
against published examples, and in every renderer with their Japanese words."""

from __future__ import annotations

import pytest
from rich.console import Console

from sim import observed, stats
from sim.lab import NOT_DRAWN, Outcome
from sim.policies import POLICIES
from sim.simulate import play_one

from test_sim_lab import lab_tables  # noqa: F401  (the fixture: content with ippatsu)
from test_sim_report_html import sample_report


def test_newcombe_matches_the_published_examples():
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10
    for (a, m, b, n), (low, high) in [((56, 70, 48, 80), (0.0524, 0.3339)),
                                      ((9, 10, 3, 10), (0.1705, 0.8090)),
                                      ((5, 56, 0, 29), (-0.0381, 0.1926))]:
        interval = stats.newcombe(a, m, b, n)
        assert interval.estimate == pytest.approx(a / m - b / n)
        assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-4)


def test_t_quantile_and_the_mean_interval_match_the_tables():
    for df, t in [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042)]:
        assert stats.t_quantile(df) == pytest.approx(t, abs=1e-3)
    interval = stats.mean_interval([1, 2, 3, 4, 5])  # mean 3, s = √2.5, t(4) = 2.776
    assert interval.estimate == 3
    assert interval.high - 3 == pytest.approx(2.776 * (2.5 ** 0.5) / 5 ** 0.5, abs=2e-3)
    assert stats.mean_interval([]) is None


def _battle(won, turns, drawn, held=0, plays=0):
    return Outcome(won, turns, 0, 0, plays, 0, 0, 0, 0, drawn, held)


def test_the_figures_split_the_battles_by_when_the_page_was_drawn():
    # 40 in the opening hand (30 won, 4 turns, held 1), 20 drawn on turn 3 (10 won,
    # 8 turns, held 2), 40 never drawn (20 won, 4 turns)
    battles = ([_battle(int(i < 30), 4, 0, 1, 2) for i in range(40)]
               + [_battle(int(i < 10), 8, 3, 2, 1) for i in range(20)]
               + [_battle(int(i < 20), 4, NOT_DRAWN) for i in range(40)])
    got = observed.figures(battles)
    assert got["drawn"]["battles"] == 60 and got["drawn"]["win_rate"]["estimate"] == pytest.approx(40 / 60, abs=1e-6)
    assert got["opening"]["win_rate"]["estimate"] == 0.75
    assert got["later"]["win_rate"]["estimate"] == 0.5
    assert got["not_drawn"]["win_rate"]["estimate"] == 0.5
    assert got["improvement"] == stats.newcombe(40, 60, 20, 40).to_dict()
    assert got["held_unplayable"]["estimate"] == pytest.approx(80 / 60, abs=1e-6)
    assert got["play_rate"]["estimate"] == pytest.approx(100 / 100)
    assert got["turns"] == {"drawn": pytest.approx(16 / 3, abs=1e-6), "not_drawn": 4}
    assert got["flags"] == ["long_games"]  # 5.33 turns ≥ 1.25 × 4


def _weighed(battles, weight=1.0):
    return [(b, weight) for b in battles]


def test_the_flags_on_constructed_cases():
    played = [_battle(1, 5, 0, plays=1)] * 40
    same = played + [_battle(0, 5, NOT_DRAWN)] * 40
    assert observed.flags(_weighed(same[:40]), _weighed(same[40:])) == []
    assert observed.flags(_weighed(played[:29]),
                          _weighed([_battle(0, 5, NOT_DRAWN)] * 40)) == ["rarely_drawn"]
    assert observed.flags(_weighed(played), []) == ["rarely_not_drawn"]
    # 6 turns against 5: longer, not markedly (under ×1.25)
    assert observed.flags(_weighed([_battle(1, 6, 0, plays=1)] * 40),
                          _weighed([_battle(1, 5, -1)] * 40)) == []


def test_a_page_drawn_and_never_played_is_flagged_as_dead():
    """死に札: the help promised it, and 生きない年's 玄孫の結婚式 (銘 85, past the 寿命上限)
    was drawn in 581 battles and played in none with only 弱い to say so."""
    dead = [_battle(0, 5, 0, held=5)] * 40
    assert observed.flags(_weighed(dead), _weighed([_battle(0, 5, NOT_DRAWN)] * 40)) \
        == ["never_played"]
    once = dead[:39] + [_battle(1, 5, 2, plays=1)]
    assert observed.flags(_weighed(once), _weighed([_battle(0, 5, NOT_DRAWN)] * 40)) == []
    # never drawn is not never played: nothing to say of the plays
    assert observed.flags([], _weighed([_battle(0, 5, NOT_DRAWN)] * 40)) == ["rarely_drawn"]
    # the report names the dead pages under its verdicts, the table flags them
    from sim.report_text import observed_table, summary_lines

    report = sample_report(pages=[("genson", "玄孫の結婚式", 85)], enemies=[])
    report["pages"][0]["observed"] = observed.figures(dead + [_battle(0, 5, NOT_DRAWN)] * 40)
    said = [str(line) for line in summary_lines(report)]
    assert "引いても一度も出さなかったページ（死に札）: 玄孫の結婚式 genson" in said
    assert "引いても一度も出さなかった" in _text(observed_table(report))


    got = observed.figures([_battle(1, 5, 0)] * 40)
    assert got["not_drawn"]["win_rate"] is None and got["improvement"] is None


def test_weighted_battles_count_as_their_weight_and_all_ones_as_unweighted():
    """The lab weighs each enemy's battles back to an equal share (sim/lab.py): a battle
    of weight 2 counts as two in every figure, and the intervals rest on Kish's effective
    size; weights of 1 give the unweighted figures exactly."""
    battles = ([_battle(1, 4, 0, 1, 2)] * 30 + [_battle(0, 8, 3, 2, 1)] * 30
               + [_battle(1, 4, NOT_DRAWN)] * 40)
    assert observed.figures(battles, [1.0] * 100) == observed.figures(battles)
    weights = [2.0] * 30 + [1.0] * 70  # the drawn-and-won battles twice
    got = observed.figures(battles, weights)
    assert got["drawn"]["win_rate"]["estimate"] == pytest.approx(60 / 90, abs=1e-6)
    assert got["turns"]["drawn"] == pytest.approx((2 * 30 * 4 + 30 * 8) / 90, abs=1e-6)
    assert got["play_rate"]["estimate"] == pytest.approx((2 * 30 * 2 + 30) / 130, abs=1e-6)
    assert got["drawn"]["battles"] == 60  # the battles, not their weight
    # unequal weights: fewer effective battles, a wider interval than the same shares
    size = stats.effective_size(weights)
    assert size == pytest.approx(130 ** 2 / 190)
    even = stats.rate_interval([1] * 60 + [0] * 40)
    uneven = stats.rate_interval([1] * 30 + [1] * 30 + [0] * 40, [1.5] * 30 + [0.5] * 30 + [1.0] * 40)
    assert even.estimate == pytest.approx(uneven.estimate)
    assert uneven.half_width > even.half_width


def test_a_deck_of_one_page_always_has_it_in_the_opening_hand(lab_tables):  # noqa: F811
    _, tables = lab_tables
    for seed in range(5):
        r = play_one(tables, ["sakamichi"] * 11, ["haguruma"], POLICIES["random"], seed, 60)
        assert r.first_drawn == {"sakamichi": 0}


def test_a_page_left_in_the_draw_pile_of_a_one_turn_battle_is_never_drawn(lab_tables):  # noqa: F811
    """Greedy fells the enemy with a 一発 on turn 1: a 坂道 not in the opening hand (7 of the
    8 pages) is never drawn, none is drawn later, and no turn's start found a page
    held unplayable but the first."""
    _, tables = lab_tables
    never = 0
    for seed in range(24):
        r = play_one(tables, ["ippatsu"] * 7 + ["sakamichi"], ["haguruma"],
                     POLICIES["greedy"], seed, 60)
        assert r.result == "won" and r.turns == 1
        assert r.first_drawn["ippatsu"] == 0 and r.first_drawn.get("sakamichi", 0) == 0
        never += "sakamichi" not in r.first_drawn
        assert all(turns <= 1 for turns in r.held_unplayable.values())
    assert never > 0


def test_a_hand_watched_for_one_page_sees_of_it_what_the_whole_watch_sees(lab_tables):  # noqa: F811
    """The lab watches the focus page alone (play_one's ``watched``): its first draw, its
    turns held unplayable and its tallies are the whole watch's, the battle itself the
    same, and a watch of no page keeps nothing by page."""
    from runtime.tables import load

    tables = load()
    deck = tables.starter()
    pages = sorted(set(deck))
    held = 0
    for seed in range(8):
        for policy in ("random", "greedy"):
            whole = play_one(tables, deck, ["kodoku"], POLICIES[policy], seed, 60)
            held += sum(whole.held_unplayable.values())
            for page in pages[seed % 3::3]:
                one = play_one(tables, deck, ["kodoku"], POLICIES[policy], seed, 60,
                               frozenset((page,)))
                assert one.first_drawn == {k: v for k, v in whole.first_drawn.items()
                                           if k == page}
                assert one.held_unplayable == {k: v for k, v in whole.held_unplayable.items()
                                               if k == page}
                for name in ("plays", "damage", "steps", "pens", "tears"):
                    assert getattr(one, name) == {k: v for k, v in getattr(whole, name).items()
                                                  if k == page}, name
                assert (one.result, one.turns, one.actions, one.events, one.damage_total) == \
                    (whole.result, whole.turns, whole.actions, whole.events, whole.damage_total)
            none = play_one(tables, deck, ["kodoku"], POLICIES[policy], seed, 60, frozenset())
            assert none.first_drawn == {} and none.held_unplayable == {} and none.plays == {}
            assert (none.result, none.turns, none.events) == \
                (whole.result, whole.turns, whole.events)
    assert held > 0  # the figures compared are not all empty


def _text(renderable, width=400) -> str:
    console = Console(width=width, record=True, no_color=True)
    console.print(renderable)
    return console.export_text()


def _with_observed(report: dict, reference: str | None) -> dict:
    battles = ([_battle(1, 4, 0, plays=1)] * 40 + [_battle(0, 12, 3)] * 10
               + [_battle(0, 4, NOT_DRAWN)] * 10)
    for row in report["pages"]:
        row["observed"] = observed.figures(battles)
        row["swap_delta"] = None if reference is None else {"pairs": 100, "delta": row["delta"]}
    report["settings"]["reference"] = reference
    return report


@pytest.mark.parametrize("reference", [None, "sakamichi"])
def test_the_renderers_name_each_figure_by_its_question(reference):
    from catalog.lab import FLAGS, LABELS, page_figures
    from sim.report_html import render_report
    from sim.report_text import HEADS, observed_lines, observed_table

    report = _with_observed(sample_report(pages=[("kekkon", "銀婚式", 55)], enemies=[]),
                            reference)
    text = _text(observed_table(report))
    words = [observed.LABELS[k] for k in ("drawn", "opening", "later", "not_drawn",
                                          "improvement", "delta")]
    swap = observed.LABELS["swap_delta"]
    for key, head in HEADS.items():
        assert "".join(head.split()) == "".join(observed.LABELS[key].split())
    keys = ("drawn", "opening", "later", "not_drawn", "improvement", "delta")
    assert all(line in text for k in keys for line in HEADS[k].split("\n"))
    assert all(line in text for line in HEADS["swap_delta"].split("\n")) \
        == (reference is not None)
    assert "長い試合で引かれがち" in text and "引かなかった試合が少ない" in text
    lines = "".join(str(line) for line in observed_lines(report))
    assert ("--reference ページ" in lines) == (reference is None)
    # Under --baseline every Δ is a swap already, and --reference is refused with it.
    swapped = {**report, "settings": {**report["settings"], "reference": None,
                                      "baseline_page": "kekkon"}}
    assert "--reference" not in "".join(str(line) for line in observed_lines(swapped))
    assert ("--reference ページ" in render_report(report)) == (reference is None)
    assert "--reference" not in render_report(swapped)
    page = render_report(report)
    assert all(w in page for w in words) and swap in page
    assert 'id="observed-table"' in page and "長い試合で引かれがち" in page
    figures = page_figures(report["pages"][0])
    assert figures["flags"] == "長い試合で引かれがち、引かなかった試合が少ない"
    assert figures["drawn"].startswith("80.0%")
    # the catalog's words are the lab's own
    assert LABELS == {k: observed.LABELS[k] for k in LABELS} and FLAGS == observed.FLAGS
