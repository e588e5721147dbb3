"""The progress bar of the long runs (sim/progress.py; ``Lab.plan`` in sim/lab.py): what is
counted and of how many, and the time the whole run has left — read with a fake clock,
and over a lab driven by a fake run (no battle is played)."""

from __future__ import annotations

import io
import random
from types import SimpleNamespace

import pytest
from rich.console import Console

from sim import lab as lab_module
from sim.backends import Runner
from sim.lab import Lab, Outcome, Settings
from sim.progress import RunBar, count_text, duration, time_left


# ------------------------------------------------------------------ the words


@pytest.mark.parametrize("seconds, said", [
    (0, "0秒"), (44.6, "45秒"), (80, "1分20秒"), (120, "2分"), (3900, "1時間5分"),
    (7200, "2時間"),
])
def test_a_duration_reads_in_hours_minutes_and_seconds(seconds, said):
    assert duration(seconds) == said


def test_the_count_says_what_is_counted_and_how_sure_its_total_is():
    assert count_text("対局", 123, 400) == "対局 123/400"
    assert count_text("戦", 1234, 9800, "estimate") == "戦 1,234/約 9,800"
    assert count_text("戦", 400, 2600, "floor") == "戦 400/2,600 以上"
    assert count_text("戦", 0, None) == "戦 0"


def test_the_time_left_is_the_work_still_planned_at_the_pace_so_far():
    # 100 of 500 done at 5 a second: 400 more take 80 s.
    assert time_left(5.0, 100, 500) == "残り約 1分20秒（全体）"
    assert time_left(5.0, 100, 500, "estimate") == "残り約 1分20秒（全体）"
    # Before the pilot has measured, the plan is a floor: so is the time.
    assert time_left(5.0, 100, 500, "floor") == "残り 1分20秒以上（全体・見積もり中）"


def test_the_time_left_is_not_guessed_before_there_is_a_pace():
    assert time_left(None, 0, 500) == "残り 計算中（全体）"
    assert time_left(0.0, 0, 500) == "残り 計算中（全体）"
    assert time_left(3.0, 10, None) == "残り 計算中（全体）"
    assert time_left(3.0, 500, 500) == "残り 1秒未満（全体）"
    assert time_left(3.0, 500, 500, "floor") == "残り 見積もり中（全体）"


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rendered(bar: RunBar) -> str:
    out = Console(file=io.StringIO(), width=160, color_system=None)
    out.print(bar.progress.get_renderable())
    return out.file.getvalue()


def test_the_bar_shows_its_label_count_and_whole_run_time_left_on_a_fake_clock():
    clock = FakeClock()
    bar = RunBar(Console(file=io.StringIO()), unit="対局", label="旅の測定", get_time=clock)
    bar.show(0, 400)
    assert "旅の測定" in rendered(bar) and "対局 0/400" in rendered(bar)
    assert "残り 計算中（全体）" in rendered(bar)
    clock.now += 30.0  # 100 of 400 in 30 s: the average pace, 10 s a game
    bar.show(100, 400)
    text = rendered(bar)
    assert "対局 100/400" in text and "残り約 1分30秒（全体）" in text
    clock.now += 10.0  # then 100 more in 10 s: the recent pace, 10 games a second
    bar.show(200, 400)
    assert "対局 200/400" in rendered(bar) and "残り約 20秒（全体）" in rendered(bar)


def test_the_labs_bar_names_its_phase_and_the_basis_of_its_total():
    clock = FakeClock()
    bar = RunBar(Console(file=io.StringIO()), unit="戦", get_time=clock)
    assert "準備中" in rendered(bar)
    clock.now += 10.0
    bar.show(200, 1400, "floor", label="ページ（貪欲）", details="最大半幅 ±8.0 pt（目標 ±3）")
    text = rendered(bar)
    assert "ページ（貪欲）" in text and "戦 200/1,400 以上" in text
    assert "残り 1分以上（全体・見積もり中）" in text and "最大半幅 ±8.0 pt（目標 ±3）" in text


# ------------------------------------------------------------------ the lab's plan


class FakeRunner(Runner):
    """Plays no battle: each one is won or lost by a coin seeded with its seed and the
    page it measures, so a page disagrees with the baseline in about half the pairs (a
    Runner: the progress counting is the real one, Runner.run_counted)."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, work, tasks, on_done=None):
        results = []
        for index, task in enumerate(tasks):
            results.append([Outcome(int(random.Random(f"{seed}:{task.focus}").random() < 0.5),
                                    5, 10, 0, 0, 0, 0, 0, 0) for seed, _ in task.battles])
            if on_done:
                on_done(index, results[-1])
        return results


class Tables:
    """The little of the tables a lab reads: the starting deck, pages and an enemy."""

    pages = {key: SimpleNamespace(name=key, year=0, deck_cap=3) for key in ("s", "a", "b", "c")}
    enemies = {"e": SimpleNamespace(name="e")}

    def starter(self):
        return ["s", "s"]


def fake_lab(monkeypatch, **settings):
    monkeypatch.setattr("sim.backends.open_runner", FakeRunner)
    steps = []
    values = {"enemies": ("e",), "pages": ("a", "b", "c"), "ladder": ("random", "greedy"), "precision": 0.1,
              "max_pairs": 400, "batch": 40, **settings}
    lab = Lab({}, Tables(), Settings(**values), progress=steps.append)
    lab.run()
    return lab, steps


def test_the_labs_steps_count_the_whole_run_never_more_than_planned(monkeypatch):
    lab, steps = fake_lab(monkeypatch)
    done = [s.done for s in steps]
    assert done == sorted(done) and done[-1] == lab.battles
    assert all(s.done <= s.planned for s in steps)
    # Before anything is measured: every phase at its pilot round — the enemy alone, and
    # under each of the two policies the baseline (played BASELINE_AHEAD times as far as the
    # pages) and three pages.
    ahead = lab_module.BASELINE_AHEAD
    assert steps[0] == lab_module.Step("敵", 0, (1 + 2 * (ahead + 3)) * 40, "floor")


def test_the_plan_is_a_floor_until_the_main_policys_pilot_then_an_estimate(monkeypatch):
    lab, steps = fake_lab(monkeypatch)
    bases = [s.basis for s in steps]
    turn = bases.index("estimate")
    assert set(bases[:turn]) == {"floor"} and set(bases[turn:]) == {"estimate"}
    assert steps[turn].phase == "ページ（貪欲）"  # the main policy is played first
    # The estimate is the larger plan: about half the pairs disagree, so the precision
    # needs more than the pilot's 40 pairs a page.
    assert steps[turn].planned > steps[turn - 1].planned
    assert steps[-1].planned <= (1 + 2 * (1 + 3)) * 400  # never past every entry's cap


def test_each_phase_shows_its_own_width_and_target_never_the_last_phases_zero(monkeypatch):
    """QA: the 無作為 and 入れ替え phases showed 「最大半幅 ±0.0 pt（目標 ±5）」 — the previous
    phase's end, where every page had settled — against the main policy's target, where
    a lower rung plays to twice the precision."""
    from sim.progress import lab_details

    monkeypatch.setattr("sim.backends.open_runner", FakeRunner)
    seen = []
    lab = None

    def progress(step):
        seen.append((step.phase, lab_details(lab, 0.05)))

    lab = Lab({}, Tables(), Settings(enemies=("e",), pages=("a", "b", "c"), ladder=("random", "greedy"),
                                     precision=0.05, max_pairs=400, batch=40), progress=progress)
    lab.run()
    for phase in ("ページ（貪欲）", "ページ（無作為）"):
        first = next(details for p, details in seen if p == phase)
        assert "最大半幅" not in first, seen  # nothing measured yet in this phase
    lower = [details for p, details in seen if p == "ページ（無作為）" and "最大半幅" in details]
    assert lower and all("（目標 ±10）" in d and "±0.0 pt" not in d for d in lower), lower


def test_the_time_left_at_the_end_of_a_round_counts_the_rounds_still_to_come(monkeypatch):
    lab, steps = fake_lab(monkeypatch)
    # At one battle a second, the time left is the battles left.
    last_enemy = [s for s in steps if s.phase == "敵"][-1]  # the enemy's last battle …
    ahead = last_enemy.planned - last_enemy.done
    left = time_left(1.0, last_enemy.done, last_enemy.planned, last_enemy.basis)
    # … and the pages under both policies are still ahead, each at least its pilot round.
    assert ahead >= 2 * (1 + 3) * 40
    assert left == f"残り {duration(ahead)}以上（全体・見積もり中）"


def test_on_an_80_column_terminal_the_count_and_the_time_left_stay_whole_on_one_line():
    """The audit's 80×24 pane: the count and the time left were cut to 「…」 over three
    lines while the details stayed whole — the details give way first now."""
    clock = FakeClock()
    narrow = Console(file=io.StringIO(), width=80, color_system=None)
    bar = RunBar(narrow, unit="戦", get_time=clock)
    details = "最大半幅 ±4.8 pt（目標 ±3）  見込み 約 463 組/ページ"
    bar.show(0, 25000, "estimate", label="入れ替え（greedy）", details=details)
    clock.now += 30.0
    bar.show(12600, 25000, "estimate", details=details)
    narrow.print(bar.progress.get_renderable())
    lines = narrow.file.getvalue().rstrip("\n").split("\n")
    assert len(lines) == 1, lines
    assert "戦 12,600/約 25,000" in lines[0] and "残り約 30秒（全体）" in lines[0]
