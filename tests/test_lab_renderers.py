"""The labs' shared parts (issue 27: one lab over Game): one runner that counts progress for
both labs (sim/backends.py ``Runner.run_counted``), one text renderer that fits a table
given as column data to the terminal (sim/render_text.py), and one page renderer — one
Jinja2 environment, the shared layout and numbers table (sim/render_html.py)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.console import Console

from journey.lab import html as journey_html
from journey.lab import text as journey_text
from journey.lab.measure import FORMAT as JOURNEY_FORMAT
from sim.backends import open_runner
from sim.render_html import HtmlColumn, environment, numbers_table
from sim.report_html import render_report as render_sim

from test_sim_report_html import sample_report

HOSTILE = "<script>alert(1)</script>"


def _prepare(shared):
    return shared


def _work(context, task: int) -> list[int]:
    """A task of ``task`` units, each the context plus the task (a result depends on the
    task alone)."""
    return [context + task] * task


@pytest.mark.parametrize("workers", [1, 2])
def test_the_runner_counts_the_units_done_from_where_the_run_stands_and_keeps_task_order(workers):
    told: list[int] = []
    with open_runner(_prepare, 100, workers=workers) as runner:
        results = runner.run_counted(_work, [1, 2, 3], told.append, done=5, size=len)
    assert results == [[101], [102, 102], [103, 103, 103]]
    # 5 before the first task; then 6 more units, one task at a time, whatever the order
    assert told[0] == 5 and told[-1] == 11 and told == sorted(told) and len(told) == 4


def test_the_runner_without_a_listener_just_runs():
    with open_runner(_prepare, 1, workers=1) as runner:
        assert runner.run_counted(_work, [2], None) == [[3, 3]]


def _player(budget: int, rate: float) -> dict:
    return {"budget": budget, "games": 2, "wins": 1,
            "win_rate": {"estimate": rate, "low": 0.1, "high": 0.9}, "turns": 21.0,
            "resolved": 3.0, "scores": [], "decisions_per_game": 61.0,
            "options_per_decision": 5.0, "contenders_per_decision": 2.0,
            "mattering_share": 0.82}


def journey_report(names: tuple[str, ...] = ("草案１７", "手札２枚＋ネクストオープン")) -> dict:
    """A journey report as ``jibunki journey report`` makes it, two budgets a variant."""
    return {
        "format": JOURNEY_FORMAT,
        "settings": {"seeds": 2, "seed": 0, "budgets": [1, 4], "nodes": 50, "margin": 5.0,
                     "pairs": False},
        "variants": [{
            "id": name, "group": "草案", "setup": name, "setup_name": name,
            "items": ["地図", "テント"],
            "solver": {"deals": 2, "won": 1, "lost": 0, "unknown": 1,
                       "winnable": {"estimate": 0.5, "low": 0.09, "high": 0.91},
                       "proven_best": 1, "scores": [10, 13], "median_score": 11.5,
                       "nodes": 51.0},
            "players": [_player(1, 0.0), _player(4, 0.5)],
        } for name in names],
        "missing": [], "run": {"tasks": 12},
    }


def _lines(renderable, width: int) -> list[str]:
    console = Console(width=width, record=True, no_color=True)
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize("table", [journey_text.outcome_table, journey_text.load_table])
def test_the_journeys_tables_fit_an_80_column_terminal_and_name_the_columns_left_out(table):
    report = journey_report()
    wide = "\n".join(_lines(table(report), 200))
    narrow = _lines(table(report), 80)
    assert all(cell_len(line) <= 80 for line in narrow)
    assert "幅が足りず省いた列" not in wide
    said = "".join(narrow)
    assert "幅が足りず省いた列" in said and "変種" in said
    # every variant is still named whole (wrapped in its column), and the win rates at
    # each budget are never left out
    names = "".join(line.split("│")[1].strip() for line in narrow if line.startswith("│"))
    assert "草案１７（地図+テント）手札２枚＋ネクストオープン（地図+テント）" == names
    if table is journey_text.outcome_table:
        assert "勝率 1想定" in said and "勝率 4想定" in said and "最高点" not in said.split("省")[0]


def test_both_labs_pages_are_drawn_from_the_one_layout():
    """The same head, style and header for both games; each page only its settings,
    sections and tables."""
    sim_page = render_sim(sample_report(pages=[], enemies=[]))
    journey_page = journey_html.render_report(journey_report(names=()))
    layout = environment().get_template("layout.html.j2").render(nav=[])
    style = layout[layout.index("<style>"):layout.index("</style>")]
    for page in (sim_page, journey_page):
        assert page.startswith("<!DOCTYPE html>") and style.splitlines()[1] in page
        assert '<dl id="settings">' in page and "<main>" in page
    assert '<nav><a href="#pages">ページ</a><a href="#observed">観測</a><a href="#enemies">敵</a></nav>' in sim_page
    assert '<a href="#numbers">数表</a></nav>' in journey_page


def test_the_one_environment_escapes_and_refuses_undefined_names():
    from jinja2 import StrictUndefined
    from jinja2.exceptions import UndefinedError

    env = environment(journey_html.TEMPLATES)
    assert env.undefined is StrictUndefined
    assert env.from_string("{{ x }}").render(x=HOSTILE) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    with pytest.raises(UndefinedError):
        env.get_template("journey.html.j2").render(plots={}, nav=[])


def test_a_numbers_table_is_drawn_from_its_columns_and_escapes_designer_text():
    from markupsafe import Markup

    columns = [HtmlColumn("名前", lambda r: Markup('{}<span class="id">#{}</span>').format(
                   r["name"], r["id"]), "name"),
               HtmlColumn(Markup("値<br>/戦"), lambda r: r["name"], title="説明")]
    rows = [{"id": "a", "name": HOSTILE}, {"id": "b", "name": "坂道"}]
    page = environment().from_string('{% from "numbers.html.j2" import numbers %}'
                                      "{{ numbers(t) }}").render(
        t=numbers_table(columns, rows, lambda i, r: f"row-{i}-{r['id']}", "t1"))
    assert HOSTILE not in page and page.count("&lt;script&gt;") == 2
    assert '<table class="numbers" id="t1">' in page
    assert '<th class="name">名前</th><th title="説明">値<br>/戦</th>' in page
    assert '<tr id="row-0-a">' in page and '<tr id="row-1-b">' in page
    assert '<td class="name">坂道<span class="id">#b</span></td><td>坂道</td>' in page


@pytest.mark.parametrize("command", ["sim", "journey"])
def test_each_labs_report_breaks_its_notes_as_japanese_within_the_terminal(command, monkeypatch):
    """Both reports' prose (the flags, the summary, the ranking, the notes) is laid out by
    sim.render_text.Prose — filled to the terminal's width, not cut at its spaces as rich's
    own wrap cuts it — and no line of the report is wider than the terminal."""
    import rich.console

    from commands.journey import _print_journey
    from commands.sim import _print_sim
    from sim.render_text import Prose
    from sim.report_text import observed_lines, summary_lines

    width = 60
    shown = Console(width=width, record=True, no_color=True)
    monkeypatch.setattr(rich.console, "Console", lambda *args, **kwargs: shown)
    if command == "sim":
        report = sample_report()
        _print_sim(report)
        notes = observed_lines(report) + summary_lines(report)
    else:
        report = {**journey_report(), "run": {"tasks": 12, "played": 12, "cached": 0}}
        _print_journey(report)
        notes = journey_text.ranking_lines(report) + list(journey_text.NOTES)
    said = shown.export_text()
    assert all(cell_len(line) <= width for line in said.splitlines())
    for note in notes:
        laid = "\n".join(_lines(Prose(note), width))
        wrapped = "\n".join(_lines(note, width))  # rich's own wrap, at the spaces
        assert laid in said
        if laid != wrapped:
            assert wrapped not in said
