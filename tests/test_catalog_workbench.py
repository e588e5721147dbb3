"""The catalog's workbench, Python side: the number line's extent and cells, what an
enemy's 座 does over its first turns, the escalation timeline, the compare figures at
typical 刻, only the examples written for an enemy, and the lab figures of a report."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from catalog import compare, enemy_turns, lab, numberline
from catalog.render import example_views, histogram, render
from conftest import ROOT
from contract.tables import Const, Scaled, VariableRef
from runtime.tables import load
from test_sim_report_html import sample_report

#: Commands run whole (the CLI, subprocesses, files on disk): left out of the fast loop.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tables():
    return load()


def _with_page(tables, page):
    """The tables' figures the number line reads, with ``page`` added."""
    return SimpleNamespace(balance=tables.balance, pages={**tables.pages, page.id: page},
                           enemies=tables.enemies)


def _with_enemy(tables, enemy):
    """The tables' figures the number line reads, with ``enemy`` added."""
    return SimpleNamespace(balance=tables.balance, pages=tables.pages,
                           enemies={**tables.enemies, enemy.id: enemy})


def _seat_effect(tables, **changes):
    """haguruma's 座 += 4 毎 ターン開始時 予告, changed."""
    return dataclasses.replace(tables.enemies["haguruma"].trait_effects[0], **changes)


# ------------------------------------------------------------------ the number line


def test_the_axis_runs_to_the_larger_of_the_cap_and_every_year(tables):
    years = [p.year for p in tables.pages.values()]
    assert numberline.extent(tables) == max(tables.balance.lifespan_cap, *years)
    far = dataclasses.replace(tables.pages["soumatou"], id="far", year=300)
    assert numberline.extent(_with_page(tables, far)) == 300
    # a seat moving up stops at 寿命上限: it needs no room beyond the line
    mover = dataclasses.replace(tables.enemies["haguruma"], id="mover", seat=78)
    assert numberline.extent(_with_enemy(tables, mover)) == numberline.extent(tables)


def test_each_year_is_one_cell_of_equal_width():
    x = numberline.cells(99, width=1020, left=10, right=10)
    assert x(0) == 10 and x(100) == 1010
    assert {round(x(y + 1) - x(y), 1) for y in range(100)} == {10.0}


def test_one_mark_per_page_stacked_by_year(tables):
    pages = [{"id": "a", "name": "A", "year": 5, "in_starter": 0},
             {"id": "b", "name": "B", "year": 5, "in_starter": 1},
             {"id": "c", "name": "C", "year": 85, "in_starter": 0}]
    line = numberline.number_line(pages, list(tables.enemies.values()), tables)
    marks = {m["id"]: m for m in line["marks"]}
    assert len(line["marks"]) == 3
    assert marks["a"]["x"] == marks["b"]["x"] and marks["a"]["y"] - marks["b"]["y"] == line["gap"]
    assert marks["c"]["beyond"] and not marks["a"]["beyond"]
    x = numberline.cells(line["last"])
    assert line["cap_x"] == x(tables.balance.lifespan_cap + 1)  # 寿命上限's year is lived
    assert [e["id"] for e in line["enemies"]] == list(tables.enemies)
    # a labelled year's tick stands where its marks and seats do: the middle of its cell
    # (the ticks stood at its left edge, half a year from every mark)
    at = {t["year"]: t["x"] for t in line["ticks"]}
    assert at[0] == round(x(0) + (x(1) - x(0)) / 2, 1)
    seated = [e for e in line["enemies"] if e["seat"] in at]  # 老い's 座 70
    assert seated and all(at[e["seat"]] == e["x"] for e in seated)


def test_histogram_bands_never_straddle_the_cap():
    hist = histogram([79, 80, 85, 90], top=80)
    bands = {(b["lo"], b["hi"]): (b["count"], b["beyond"]) for b in hist["bars"]}
    assert bands[(70, 79)] == (1, False) and bands[(80, 80)] == (1, False)
    assert bands[(81, 89)] == (1, True) and bands[(90, 90)] == (1, True)


def test_histograms_share_the_number_lines_cells():
    hist = histogram([3, 47], top=80, last=120, width=1040, left=120, right=12)
    x = numberline.cells(120)
    assert all(b["x"] == round(x(b["lo"]) + 1, 1) for b in hist["bars"])
    assert hist["bars"][-1]["lo"] == 120 and hist["bars"][-1]["hi"] == 120


# -------------------------------------------------------------------- enemy turns

#: The bundled balance's 寿命上限.
CAP = 80


def test_a_constant_seat_move_each_turn_is_played_over_the_horizon(tables):
    haguruma = tables.enemies["haguruma"]  # 座 42, += 4 a turn, telegraphed
    path = enemy_turns.seat_path(haguruma, CAP)
    assert path["seats"] == [42 + 4 * t for t in range(enemy_turns.HORIZON)]
    assert path["continues"]
    assert enemy_turns.seat_range(haguruma, CAP) == (42, 42 + 4 * (enemy_turns.HORIZON - 1))


def test_a_move_of_at_most_n_times_stops_after_n(tables):
    koukai = tables.enemies["koukai"]  # 座 24, −= 3 a turn, 最大 4 回
    path = enemy_turns.seat_path(koukai, CAP)
    assert path["seats"] == [24, 21, 18, 15, 12, 12, 12, 12] and not path["continues"]
    assert enemy_turns.seat_range(koukai, CAP) == (12, 24)


def test_the_seat_never_goes_below_zero(tables):
    low = dataclasses.replace(tables.enemies["koukai"], seat=5)
    assert enemy_turns.seat_path(low, CAP)["seats"][:4] == [5, 2, 0, 0]


def test_the_seat_never_goes_beyond_the_lifespan_cap(tables):
    """Spec 000 盤面: the enemy stands on the line, whose ends are walls — 寿命上限 too."""
    high = dataclasses.replace(tables.enemies["haguruma"], seat=74)  # += 4 a turn
    path = enemy_turns.seat_path(high, CAP)
    assert path["seats"][:4] == [74, 78, 80, 80] and not path["continues"]
    assert enemy_turns.seat_range(high, 90) == (74, 90)


def test_an_immobile_enemy_never_moves(tables):
    still = dataclasses.replace(tables.enemies["oi"],
                                trait_effects=[_seat_effect(tables)])
    assert enemy_turns.seat_range(still, CAP) == (70, 70)
    assert not enemy_turns.seat_path(still, CAP)["continues"]


def test_an_assignment_moves_to_its_value_once(tables):
    to_10 = dataclasses.replace(tables.enemies["sumaho"], trait_effects=[_seat_effect(
        tables, op="assign", direction=None, base=Const(10), timing="stage_start",
        telegraphed=False)])
    assert enemy_turns.seat_path(to_10, CAP)["seats"] == [10] * enemy_turns.HORIZON


def test_a_move_that_reads_the_battle_or_fires_on_an_event_is_not_knowable(tables):
    by_age = _seat_effect(tables, base=Scaled(VariableRef("age"), 0.5))
    on_hit = _seat_effect(tables, timing="on_hit", telegraphed=False)
    enemy = dataclasses.replace(tables.enemies["sumaho"], trait_effects=[by_age, on_hit])
    known, unknown = enemy_turns.seat_moves(enemy)
    assert known == [] and unknown == [by_age, on_hit]
    assert enemy_turns.seat_range(enemy, CAP) == (45, 45)


def test_escalation_adds_at_one_plus_its_interval_and_acceleration_shortens_the_next(tables):
    def added(enemy_id):
        return [t["turn"] for t in enemy_turns.intent_turns(tables.enemies[enemy_id])
                if t["added"]]
    assert added("haguruma") == [4, 7]        # every 3
    assert added("kodoku") == [4, 6, 7, 8]    # every 3, 加速 1 (its example: 4・6・7)
    assert added("isogashisa") == [3, 4, 5, 6, 7, 8]  # every 2, 加速 1
    assert added("sumaho") == []
    shown = enemy_turns.intent_turns(tables.enemies["kodoku"])
    assert [len(t["intents"]) for t in shown] == [3, 3, 3, 4, 4, 5, 6, 7]
    assert shown[3]["intents"][-1] == tables.enemies["kodoku"].escalations[0].intent


def test_the_timeline_uses_the_battles_escalation_rule(monkeypatch, tables):
    import runtime.escalation

    assert enemy_turns.escalation is runtime.escalation
    monkeypatch.setattr(runtime.escalation, "due", lambda rules, turn, speed: [0])
    assert all(t["added"] == 1 for t in enemy_turns.intent_turns(tables.enemies["oi"]))


def test_the_number_line_shows_the_blockades(tables):
    line = numberline.number_line([], list(tables.enemies.values()), tables)
    rows = {e["id"]: e for e in line["enemies"]}
    assert [(b["low"], b["high"]) for b in rows["yamai"]["blockades"]] == [(40, 49)]
    assert rows["haguruma"]["towards"] == "up" and rows["kodoku"]["towards"] == "down"
    assert rows["oi"]["low"] == rows["oi"]["high"] == 70


# -------------------------------------------------------------------------- examples


def test_an_enemy_lists_only_the_examples_written_for_it():
    from scenario.stage import compile_content

    compiled = compile_content(Path(ROOT / "content"))
    views = example_views(compiled.examples, compiled.sources)
    fought = [e for e in compiled.examples if "haguruma" in e["enemies"]]
    own = [e for e in compiled.examples if e.get("subject") == "haguruma"]
    assert len(fought) > 30 and 0 < len(own) < len(fought)
    assert [v["title"] for v in views["haguruma"]] == [e["name"] for e in own]
    assert all(v["where"].startswith("content/enemies/") for v in views["haguruma"])
    # a page still lists the examples that act on it, wherever they stand
    assert any(v["where"].startswith("content/tests/") for v in views["sakamichi"])


# ------------------------------------------------------------------------- compare


def test_typical_ages_are_zero_the_start_age_and_the_quarters_of_the_line(tables):
    assert compare.typical_ages(tables.balance) == (0, 20, 40, 60, 80)
    other = dataclasses.replace(tables.balance, start_age=33, lifespan_cap=100)
    assert compare.typical_ages(other) == (0, 25, 33, 50, 75, 100)


def test_a_play_costs_the_distance_and_fires_the_face_by_year_against_age(tables):
    sakamichi = tables.pages["sakamichi"]  # 銘 8, 過去面 only
    assert compare.play_at(sakamichi, 20, tables.balance) == {
        "age": 20, "cost": 12, "faces": "過去面", "why": None, "pending": []}
    assert "未来面" in compare.play_at(sakamichi, 0, tables.balance)["why"]  # blank side
    over = compare.play_at(sakamichi, 60, tables.balance)  # 52 歩 > 歩の規定量 40
    assert over["cost"] == 52 and str(tables.balance.steps_quota) in over["why"]
    both = next(p for p in tables.pages.values()
                if all(f.written for f in p.faces.values()))
    assert compare.play_at(both, both.year, tables.balance)["faces"] == "過去面→未来面"


def test_a_condition_of_age_or_distance_is_checked_at_each_age_and_the_rest_named(tables):
    """Spec 002: a face whose play condition fails does not fire. The table showed
    迷子の商店街 (過去面 only, |銘 − 刻| ≥ 25) playable from 刻 20 (distance 15) and 還暦's
    未来面 (40 ≤ 刻 ≤ 59) firing from 刻 20 and 60; a condition only a battle decides is
    named beside the face."""
    balance = tables.balance
    mayoigo, kanreki = tables.pages["mayoigo"], tables.pages["kanreki"]
    assert compare.play_at(mayoigo, 20, balance)["why"] == "条件 「|銘 − 刻| ≥ 25」"
    assert compare.play_at(mayoigo, 40, balance)["why"] is None  # distance 35
    assert compare.play_at(kanreki, 20, balance)["why"] == "条件 「40 ≤ 刻 ≤ 59」"
    assert compare.play_at(kanreki, 40, balance)["faces"] == "未来面"
    at_60 = compare.play_at(kanreki, 60, balance)  # 銘 = 刻: the 未来面's range fails
    assert at_60["faces"] == "過去面" and at_60["why"] is None
    assert at_60["pending"] == ["手札にある「hatsu_koe」の枚数 ≥ 1"]
    kokuhaku = compare.play_at(tables.pages["kokuhaku"], 0, balance)  # 跨ぐ: the battle's
    assert kokuhaku["why"] is None and kokuhaku["pending"] == ["このプレイで座を跨ぐ"]


def test_a_page_beyond_the_lifespan_cap_is_not_playable_in_the_compare_table(tables):
    # spec 000: a 銘 past 寿命上限 is a year the player does not live to; the battle refuses
    # the play at every 刻, so the table must not show a cost one could pay
    cap = tables.balance.lifespan_cap
    genson = tables.pages["genson"]  # 銘 85 > 寿命上限 80
    assert genson.year > cap
    for age in compare.typical_ages(tables.balance):
        why = compare.play_at(genson, age, tables.balance)["why"]
        assert why and "生きない年" in why and str(cap) in why
    at_cap = dataclasses.replace(genson, year=cap)  # the cap itself is lived
    assert compare.play_at(at_cap, cap, tables.balance)["why"] is None


def test_a_tear_gives_distance_times_fray_mul_truncated_and_scales_its_effect(tables):
    page = tables.pages["tabidachi"]  # 銘 36, 綻び倍率 1.0, a 破却効果
    at = compare.tear_at(page, 80, tables.balance)
    assert at["fray"] == math.trunc(44 * page.fray_mul)
    assert at["scale"] == round(1 + tables.balance.tear_scale * 44, 3)
    mul = dataclasses.replace(page, fray_mul=0.8)
    assert compare.tear_at(mul, 31, tables.balance)["fray"] == 4  # 5 × 0.8 = 4.0
    blank = next(p for p in tables.pages.values()
                 if not any(f.written for f in p.faces.values()))
    assert compare.tear_at(blank, 0, tables.balance)["scale"] is None


# ----------------------------------------------------------------------- lab figures


def test_lab_figures_are_the_reports_and_a_bad_figure_shows_none(tables):
    report = sample_report()
    row = next(p for p in report["pages"] if p["id"] == "sakamichi")
    row["damage_per_step"] = float("nan")
    got = lab.figures(report, tables)
    fig = got["pages"]["sakamichi"]
    assert fig["delta_v"] == row["delta"]["estimate"] and fig["per_step"] == "—"
    assert fig["delta"].endswith("]") and " pt [" in fig["delta"]
    assert set(got["enemies"]) == set(tables.enemies)
    assert got["about"].startswith("方針 貪欲・")  # the player's name, not its code
    report["pages"].append({"id": "gone", "delta": row["delta"]})  # not in the tables
    assert "gone" not in lab.figures(report, tables)["pages"]
    assert lab.figures(None, tables) == {"pages": {}, "enemies": {}, "about": "",
                                         "labels": lab.LABELS}


def test_the_lab_note_names_the_enemies_of_a_narrowed_run(tables):
    """After ``sim --enemy yamai --html`` every figure answers for 病魔 alone, and the note
    said only 「敵 1 体」."""
    report = sample_report()
    report["settings"]["enemies"] = sorted(tables.enemies)
    assert f"敵 {len(tables.enemies)} 体（すべて）" in lab.figures(report, tables)["about"]
    report["settings"]["enemies"] = ["yamai"]
    name = tables.enemies["yamai"].name
    assert f"敵 1 体（{name}だけ）" in lab.figures(report, tables)["about"]
    report["settings"]["enemies"] = sorted(tables.enemies)[:4]
    assert "敵 4 体（すべてではありません）" in lab.figures(report, tables)["about"]


def test_a_target_shows_whether_the_lab_met_it_in_the_labs_words(tables):
    """目標 beside a lab figure with no verdict left the comparison to the designer: the
    card and the compare table say 達成 / 未達 / 未決, the lab's own words."""
    from sim.stats import TARGET_WORDS

    assert lab.TARGET_WORDS == TARGET_WORDS
    report = sample_report()
    page = next(p for p in report["pages"])
    enemy = next(e for e in report["enemies"])
    page["target"], page["target_met"] = {"low": -0.1, "high": 0.1}, False
    enemy["target"], enemy["target_met"] = {"low": 0.4, "high": 0.9}, None
    got = lab.figures(report, tables)
    assert got["pages"][page["id"]]["target_met"] == "未達"
    assert got["enemies"][enemy["id"]]["target_met"] == "未決"
    others = [p for p in report["pages"] if p is not page]
    assert all(got["pages"][p["id"]]["target_met"] is None for p in others if p["id"] in got["pages"]
               and p.get("target") is None)
    stated = next(p for p in sorted(tables.pages.values(), key=lambda p: p.id)
                  if p.target is not None)  # a bundled page that states a 目標
    report["pages"] = [r for r in report["pages"] if r["id"] != stated.id] + [
        {**page, "id": stated.id, "target_met": True}]
    html = render(tables, lab_report=report)
    card = html[html.index(f'id="page-{stated.id}"'):]
    assert "（模擬戦: 達成）" in card[:card.index("</article>")]
    assert f'{stated.id}" hidden>' in html and "r-target" in html


def test_the_report_is_left_beside_its_page_and_read_back(tmp_path):
    from sim.report_html import read_report, write_report

    report = sample_report()
    write_report(report, tmp_path)
    assert read_report(tmp_path) == report
    (tmp_path / "report.json").write_text('{"format": "something else"}', encoding="utf-8")
    assert read_report(tmp_path) is None
    (tmp_path / "report.json").write_text("{not json", encoding="utf-8")
    assert read_report(tmp_path) is None
    assert read_report(tmp_path / "nowhere") is None


def test_the_catalog_shows_lab_figures_only_with_a_report(tables):
    report = sample_report()
    with_lab = render(tables, lab_report=report)
    without = render(tables)
    assert 'class="r-delta"' in with_lab and 'class="r-delta"' not in without
    delta = lab.figures(report, tables)["pages"]["sakamichi"]["delta"]
    assert delta in with_lab
    card = with_lab[with_lab.index('id="enemy-haguruma"'):]
    assert card.index("模擬戦: 勝率") < card.index("</article>")
    assert render(tables, lab_report=report) == with_lab  # deterministic


def test_the_catalog_command_reads_the_report_beside_it(tmp_path, monkeypatch):
    from compiler.build import compile_content
    from conftest import invoke_cli
    from sim.cache import content_digest
    from sim.report_html import write_report

    def catalog() -> None:  # the command, in this process (three of them: 9 s as processes)
        assert invoke_cli("catalog", "--out", str(tmp_path / "catalog")).exit_code == 0

    monkeypatch.chdir(ROOT)
    report = sample_report()
    report["settings"]["content"] = content_digest(compile_content(ROOT / "content").tables)
    write_report(report, tmp_path / "sim")
    catalog()
    html = (tmp_path / "catalog" / "index.html").read_text(encoding="utf-8")
    assert 'class="r-delta"' in html and "模擬戦: 勝率" in html
    assert ">模擬戦の結果</a>" in html
    # a report of other content (a page edited since): its figures are not shown as current
    report["settings"]["content"] = "0" * 64
    write_report(report, tmp_path / "sim")
    catalog()
    html = (tmp_path / "catalog" / "index.html").read_text(encoding="utf-8")
    assert 'class="r-delta"' not in html and "模擬戦: 勝率" not in html
    assert "いまのコンテンツより前に測ったものなので、その数字は出していない" in html
    # its page is still linked, said to be of older content (it looked current)
    assert ">模擬戦の結果（いまのコンテンツより前に測ったもの）</a>" in html
    (tmp_path / "sim" / "report.json").unlink()
    catalog()
    assert 'class="r-delta"' not in (tmp_path / "catalog" / "index.html").read_text(
        encoding="utf-8")


def test_text_in_a_lab_report_stays_text(tables):
    report = sample_report()
    report["settings"]["policy"] = "<script>alert(1)</script>"
    html = render(tables, lab_report=report)
    assert "<script>alert(1)</script>" not in html
    assert "方針 &lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_the_compare_tables_pen_row_says_no_pen_upgrade_as_the_cards_do(tables):
    """DESIGN §6.2: a written face without a pen upgrade is 「ペン強化なし」 on the page
    cards; the compare table's ペン row said 「書き込める面なし」 for the same pages."""
    import re

    from catalog.render import render
    from contract import vocabulary as vocab

    html = render(tables)
    row = html[html.index('<tr class="r-pen">'):]
    row = row[:row.index("</tr>")]
    unpenned = [p.id for p in tables.pages.values() if all(pen is None for pen in p.pens.values())]
    assert unpenned
    for pid in unpenned:
        assert re.search(f'<td data-page="{pid}" hidden>{vocab.NO_PEN_UPGRADE}</td>', row), pid
