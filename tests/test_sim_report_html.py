"""The ``--html`` page of a ``jibunki sim`` report (sim/report_html.py), without a
browser: files, determinism, escaping, anchors, empty and null reports, the catalog's
links to it."""

from __future__ import annotations

import logging
import random
import re
import warnings

import pytest

from sim import report_html
from sim.report_html import FORMAT, points, write_report

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

HOSTILE = "<script>alert(1)</script>"


def _interval(rng: random.Random, centre: float, half: float) -> dict:
    return {"estimate": round(centre, 4), "low": round(centre - half, 4),
            "high": round(centre + half, 4)}


def _damage_taken(rng: random.Random, mean: float, battles: int) -> list[list[int]]:
    counts: dict[int, int] = {}
    for _ in range(battles):
        hp = max(0, int(rng.gauss(mean, mean / 2 + 1)))
        counts[hp] = counts.get(hp, 0) + 1
    return [[hp, n] for hp, n in sorted(counts.items())]


#: The bundled content's pages (id, name, 銘) and enemies (id, name), as a report names
#: them: written out, so these tests need no compiled tables.
PAGES = [
    ("arubaito", "アルバイト", 19), ("byouin", "入院の窓", 58), ("circle", "サークルの部室", 21),
    ("dansyari", "断捨離", 52), ("doukai", "同窓会", 38), ("ehon", "絵本の読み聞かせ", 4),
    ("engawa", "縁側の午後", 70), ("genson", "玄孫の結婚式", 85), ("haka_mairi", "墓参り", 72),
    ("hankouki", "反抗期", 15), ("hatsu_koe", "産声", 0), ("hatsukoi", "初恋", 17),
    ("hikkoshi", "引っ越しの朝", 31), ("himitsu_kichi", "秘密基地", 12),
    ("hitoritabi", "一人旅", 27), ("juken", "受験の冬", 18), ("juku", "塾帰りの夜道", 14),
    ("kaigo", "親の介護", 45), ("kaikoroku", "回顧録", 65), ("kanreki", "還暦", 60),
    ("kekkon", "銀婚式", 55), ("kenka", "兄弟げんか", 10), ("kenkou_shindan", "健康診断", 46),
    ("kodomo", "子の誕生", 34), ("kokuhaku", "告白", 26), ("komoriuta", "子守唄", 2),
    ("kuuhaku", "空白の一年", 28), ("loan", "住宅ローン", 39),
    ("mabushii_mirai", "まぶしい未来", 95), ("mago", "孫の来る日", 66),
    ("mayoigo", "迷子の商店街", 5), ("mitori", "親を看取る", 50), ("moetsuki", "燃え尽き", 47),
    ("moyashita_tegami", "燃やした手紙", 32), ("natsuyasumi", "夏休みの日記", 11),
    ("nikki", "日記を読み返す", 62), ("nyuugaku", "入学式", 22),
    ("omikuji", "初詣のおみくじ", 16), ("omoidasenai_natsu", "思い出せない夏", 6),
    ("omoide_bako", "思い出の箱", 53), ("otoshidama", "お年玉", 7),
    ("sakamichi", "坂道の自転車", 8), ("satori", "悟り", 68), ("seijinshiki", "成人式", 20),
    ("shigoto", "大きな仕事", 44), ("shitsuren", "失恋", 24), ("shoushin", "昇進の辞令", 42),
    ("shukuhai", "祝杯", 41), ("shuugaku_ryokou", "修学旅行", 15),
    ("shuushoku", "就職活動", 23), ("sotsugyou", "卒業アルバム", 18), ("soumatou", "走馬灯", 80),
    ("surechigai", "すれ違い", 29), ("tabidachi", "旅立ちの朝", 36),
    ("teinen", "定年の花束", 62), ("tenshoku", "転職", 48), ("umarekawari", "生まれ変わり", 120),
    ("undoukai", "運動会のリレー", 13), ("yuigon", "遺言状", 76), ("yume", "夢を語った夜", 25),
    ("zangyou", "終電の残業", 33),
]
ENEMIES = [
    ("haguruma", "歯車塔の番人"), ("isogashisa", "忙殺の渦"), ("kizuato", "古傷"),
    ("kodoku", "孤独"), ("koukai", "後悔の影"), ("oi", "老い"), ("shimekiri", "締め切り"),
    ("sumaho", "光る画面"), ("wasure", "忘却の霧"), ("yamai", "病魔"),
]


def _met(interval: dict, target: dict | None) -> bool | None:
    """As the lab decides: inside, outside, or (the interval crossing an edge) null."""
    if target is None:
        return None
    if target["low"] <= interval["low"] and interval["high"] <= target["high"]:
        return True
    if interval["high"] < target["low"] or interval["low"] > target["high"]:
        return False
    return None


def sample_report(seed: int = 0, *, pages: list[tuple[str, str, int]] | None = None,
                  enemies: list[tuple[str, str]] | None = None) -> dict:
    """A report as ``jibunki sim`` makes it, numbers drawn from ``seed``: by default of
    every page and enemy of the bundled content."""
    pages = PAGES if pages is None else pages
    enemies = ENEMIES if enemies is None else enemies
    rng = random.Random(seed)
    enemy_rows = []
    for i, (ident, name) in enumerate(enemies):
        win_rate = _interval(rng, rng.uniform(0.3, 0.9), 0.04)
        target = {"low": 0.4, "high": 0.7} if i % 2 == 0 else None
        damage = _damage_taken(rng, rng.uniform(5, 60), 400)
        enemy_rows.append({
            "id": ident, "name": name, "battles": 400,
            "win_rate": win_rate,
            "turns_to_win": round(rng.uniform(4, 12), 1),
            "hp_lost": round(sum(hp * n for hp, n in damage) / 400, 1),
            "damage_taken_per_turn": round(rng.uniform(1, 8), 1),
            "breakthrough_share": round(rng.uniform(0, 0.3), 2),
            "damage_taken": damage,
            "target": target,
            "target_met": _met(win_rate, target),
        })
    page_rows = []
    for i, (ident, name, year) in enumerate(pages):
        delta = _interval(rng, rng.uniform(-0.08, 0.08), rng.uniform(0.01, 0.04))
        verdict = ("stronger" if delta["low"] > 0 else "weaker" if delta["high"] < 0
                   else "no_effect" if delta["high"] - delta["low"] < 0.06 else "undecided")
        by_random = "no_effect" if i % 6 == 0 else verdict
        target = {"low": -0.05, "high": 0.05} if i % 3 == 0 else None
        page_rows.append({
            "id": ident, "name": name, "year": year, "pairs": rng.randrange(300, 3000),
            "delta": delta,
            "discordant": {"variant_only": rng.randrange(20, 90),
                           "baseline_only": rng.randrange(20, 90)},
            "win_rate": {"variant": round(0.61 + delta["estimate"], 4), "baseline": 0.61},
            "play_rate": round(rng.uniform(0, 3), 2),
            "played_share": round(rng.uniform(0.2, 1), 2),
            "damage_per_play": round(rng.uniform(0, 12), 1) if i % 5 else None,
            "damage_per_step": round(rng.uniform(0, 2), 2) if i % 5 else None,
            "tears_per_battle": round(rng.uniform(0, 0.5), 2),
            "pens_per_battle": round(rng.uniform(0, 0.5), 2),
            "verdict": verdict,
            "verdicts_by_policy": {"random": by_random, "greedy": verdict},
            "policy_sensitive": by_random != verdict,
            "pairing_gain": round(rng.uniform(1.2, 4), 1) if i % 7 else None,
            "target": target,
            "target_met": _met(delta, target),
        })
    return {
        "format": FORMAT,
        "settings": {"policy": "greedy", "ladder": ["random", "greedy"], "mode": "pool",
                     "enemies": [e for e, _ in enemies],
                     "baseline_deck": ["hatsu_koe", "sakamichi", "nyuugaku", "nyuugaku"],
                     "baseline_page": None, "precision": 0.03, "max_pairs": 3000,
                     "turn_cap": 60, "seed": seed, "confidence": 0.95, "workers": 2},
        "baseline": {"battles": 1200, "win_rate": _interval(rng, 0.61, 0.03)},
        "enemies": enemy_rows,
        "pages": page_rows,
        "run": {"battles": 123456, "pairs_estimate": 700},
    }


def null_report() -> dict:
    """Every nullable field null, and a page and an enemy with nothing counted."""
    report = sample_report(pages=[("x", "白紙", 3)], enemies=[("e", "敵")])
    page, enemy = report["pages"][0], report["enemies"][0]
    for key in ("damage_per_play", "damage_per_step", "pairing_gain", "target",
                "target_met"):
        page[key] = None
    page["verdicts_by_policy"] = {}
    for key in ("turns_to_win", "breakthrough_share", "target", "target_met"):
        enemy[key] = None
    enemy["damage_taken"] = []
    enemy["hp_lost"] = enemy["damage_taken_per_turn"] = None
    for key in ("play_rate", "played_share", "tears_per_battle", "pens_per_battle"):
        page[key] = None  # a page of no battles
    page["win_rate"] = {"variant": None, "baseline": None}
    report["settings"]["baseline_page"] = "x"
    del report["settings"]["workers"]  # a report that does not say
    return report


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    report = sample_report()
    index = write_report(report, out)
    return report, out, index


def test_the_page_is_written_and_its_path_returned(written):
    report, out, index = written
    assert index == out / "index.html" and index.is_file()
    html = index.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    # plots inline, no temporary; the report itself beside it for the catalog
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "report.json"]
    assert html.count("<svg") == 3
    for figure in ("forest", "winrate", "damage"):
        assert f'<figure class="plot" id="{figure}">' in html


def test_a_second_write_is_byte_identical(written, tmp_path):
    report, _, index = written
    again = write_report(sample_report(), tmp_path)
    assert again.read_bytes() == index.read_bytes()
    assert write_report(report, tmp_path).read_bytes() == index.read_bytes()


def test_another_process_writes_the_same_bytes(tmp_path):
    # a fresh interpreter (another hash seed, matplotlib imported anew) changes nothing
    import os
    import subprocess
    import sys

    from conftest import ROOT

    small = {"pages": PAGES[:3], "enemies": ENEMIES[:2]}
    here = write_report(sample_report(**small), tmp_path / "here").read_bytes()
    code = ("import sys; sys.path[:0] = ['tests', '.']\n"
            "from pathlib import Path\n"
            "from test_sim_report_html import ENEMIES, PAGES, sample_report\n"
            "from sim.report_html import write_report\n"
            f"write_report(sample_report(pages=PAGES[:3], enemies=ENEMIES[:2]), "
            f"Path({str(tmp_path / 'there')!r}))\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                   env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert (tmp_path / "there" / "index.html").read_bytes() == here


def test_the_page_opens_offline(written):
    html = written[2].read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "@import" not in html and "<link" not in html
    assert not re.search(r"<script[^>]*\bsrc\b", html)  # only the inline scroll hint's
    assert "url(http" not in html


def test_every_page_and_enemy_has_its_anchor_once(written):
    report, _, index = written
    html = index.read_text(encoding="utf-8")
    for page in report["pages"]:
        assert html.count(f'id="page-{page["id"]}"') == 1
    for enemy in report["enemies"]:
        assert html.count(f'id="enemy-{enemy["id"]}"') == 1
    ids = re.findall(r'\sid="([^"]*)"', html)
    assert len(ids) == len(set(ids)), "the three inline plots share no id"


def test_the_tables_show_the_numbers_as_the_terminal_does(written):
    report, _, index = written
    html = index.read_text(encoding="utf-8")
    for page in report["pages"]:
        assert points(page["delta"]) in html
    assert points({"estimate": 0.021, "low": -0.004, "high": 0.046}) == "+2.1 pt [−0.4, +4.6]"
    assert points({"estimate": -0.0004, "low": -0.01, "high": 0.0}) == "+0.0 pt [−1.0, +0.0]"
    for word in ("強い", "弱い", "差なし", "未決", "方針ごと", "対にした効果", "突破の"):
        assert word in html
    words = {"stronger": "強い", "weaker": "弱い", "no_effect": "差なし", "undecided": "未決"}
    for page in report["pages"]:
        by = page["verdicts_by_policy"]
        assert f"{words[by['random']]} → {words[by['greedy']]}" in html
    assert "方針ごと<br>（無作為 → 貪欲）" in html
    assert "歯車塔の番人" in html and "61.0%" in html
    for cls, word in (("met", "達成"), ("missed", "未達（"), ("undecided", "未決")):
        assert f'<span class="{cls}">{word}' in html
    assert "目標未決" in html and "目標なし" in html  # the win-rate plot's legend


def test_plot_text_stays_text_in_a_cjk_font(written):
    report, _, index = written
    html = index.read_text(encoding="utf-8")
    svg = html[html.index("<svg"):html.rindex("</svg>")]
    texts = re.findall(r"<text [^>]*>([^<]*)</text>", svg)
    for enemy in report["enemies"]:
        assert enemy["name"] in texts  # the win-rate plot's labels
    assert "font-family: 'Noto Sans CJK JP'" in svg and "<path id=\"DejaVu" not in svg
    assert "Date" not in svg and "matplotlib.org" not in html


def test_designer_text_is_escaped_in_the_tables_and_in_the_plots(tmp_path):
    report = sample_report(pages=[("evil", HOSTILE + " $x$ {{ 7*7 }}", 5),
                                  ("sakamichi", "坂道", 12)],
                           enemies=[("haguruma", '<img src=x onerror=alert(1)> id="a"')])
    html = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert HOSTILE not in html and "<img" not in html
    svg = html[html.index("<svg"):html.rindex("</svg>")]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; $x$" in svg  # no mathtext either
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg
    # the name's quotes are text: the plot's id renaming leaves them be
    assert ' id="a"</text>' in svg and '-a"' not in svg
    assert "id=&#34;a&#34;" in html  # and the tables escape them
    assert "{{ 7*7 }}" in html and "49" not in re.sub(r"<svg.*?</svg>", "", html, flags=re.S)


def test_every_in_page_link_has_its_anchor(written, tmp_path):
    stages = sample_report(pages=PAGES[:2], enemies=[("haguruma→wasure", "歯車塔の番人→忘却の霧")])
    stages["settings"].update(mode="stages", enemies=["haguruma", "wasure"])
    for html in (written[2].read_text(encoding="utf-8"),
                 write_report(stages, tmp_path).read_text(encoding="utf-8")):
        anchors = set(re.findall(r'\sid="([^"]*)"', html))
        links = set(re.findall(r'href="#([^"]*)"', html))
        assert links and links <= anchors, links - anchors


def test_a_report_with_no_pages_or_enemies_still_renders(tmp_path):
    report = sample_report(pages=[], enemies=[])
    html = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert "比べたページはありません" in html and "敵の結果はありません" in html
    assert "<svg" not in html


def test_null_fields_render_as_a_dash(tmp_path):
    html = write_report(null_report(), tmp_path).read_text(encoding="utf-8")
    assert 'id="page-x"' in html and 'id="enemy-e"' in html
    assert "データなし" in html  # the enemy with no battles counted
    assert html.count("<svg") == 3
    assert "比べ方</dt><dd>はじめのデッキの「白紙」1 枚と入れ替える" in html


def test_a_report_of_another_format_is_refused(tmp_path):
    report = sample_report(pages=[], enemies=[])
    report["format"] = "jibunki-sim-report 2"
    with pytest.raises(ValueError, match="jibunki-sim-report 1"):
        write_report(report, tmp_path)
    assert not (tmp_path / "index.html").exists()


def test_no_font_warnings_even_without_the_cjk_font(tmp_path, monkeypatch, caplog):
    monkeypatch.setitem(report_html.RC, "font.sans-serif", ["No Such Font", "DejaVu Sans"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with caplog.at_level(logging.WARNING):
            write_report(sample_report(pages=[("a", "坂道", 1)], enemies=[("e", "忘却の霧")]),
                         tmp_path)
    assert [r.getMessage() for r in caplog.records] == []


def test_importing_the_module_loads_neither_matplotlib_nor_jinja2():
    from conftest import loaded_by

    assert loaded_by("import sim.report_html", ("matplotlib", "jinja2")) == []


# -------------------------------------------------------------- catalog link


def _sim_links(html: str) -> dict[str, str]:
    return dict((m[2], m[1]) for m in
                re.finditer(r'href="(\.\./sim/index\.html#page-([^"]+))"', html))


def test_the_catalog_links_each_page_to_the_report_only_when_it_exists(tmp_path):
    from catalog.render import write
    from runtime.tables import load

    tables = load()
    report_path = tmp_path / "sim" / "index.html"
    catalog = write(tables, tmp_path / "catalog", sim_report=report_path)
    assert _sim_links(catalog.read_text(encoding="utf-8")) == {}  # no report yet: no link
    assert 'class="sim"' not in write(tables, tmp_path / "catalog").read_text(encoding="utf-8")

    report = sample_report()
    report["pages"] = [p for p in report["pages"] if p["id"] != "tabidachi"]
    write_report(report, tmp_path / "sim")
    html = write(tables, tmp_path / "catalog", sim_report=report_path).read_text(
        encoding="utf-8")
    links = _sim_links(html)
    # every page of the report the catalog has (tabidachi is not in the report)
    assert set(links) == {p["id"] for p in report["pages"]} & set(tables.pages)
    assert "tabidachi" in tables.pages and "tabidachi" not in links
    assert links["sakamichi"] == "../sim/index.html#page-sakamichi"
    card = html[html.index('id="page-sakamichi"'):]
    assert card.index('href="../sim/index.html#page-sakamichi"') < card.index("</article>")


def test_the_terminal_and_the_page_give_the_same_median_pairing_gain():
    """The median of the pages' pairing gains is one figure (stats.median): for an even
    number of pages it is the mean of the two middle gains, in the terminal as on the page."""
    from sim import report_text
    from sim.report_html import _settings_view

    report = sample_report(pages=PAGES[:4])
    for row, gain in zip(report["pages"], (1.2, 1.4, 2.0, 3.0)):
        row["pairing_gain"] = gain
    said = " ".join(t.plain for t in report_text.summary_lines(report))
    assert "中央値で ×1.7 の" in said
    assert _settings_view(report)["gain"]["median"] == "1.7"


def test_the_terminals_lists_of_what_to_look_at_name_each_item_by_name_and_id():
    from sim import report_text

    report = sample_report(pages=PAGES[:4])
    first, second = report["pages"][:2]
    first["policy_sensitive"], second["policy_sensitive"] = True, False
    first["target"], first["target_met"] = {"low": 0.2, "high": 0.3}, False
    second["target"], second["target_met"] = {"low": -0.05, "high": 0.05}, None
    said = [t.plain for t in report_text.summary_lines(report)]
    named = f"{first['name']} {first['id']}"
    assert f"方針の腕で勝率の差が変わるページ（区間が重ならない）: {named}" in said
    assert any(line.startswith("目標から外れたもの: ") and named in line for line in said)
    assert any(line.startswith("精度が足りず目標を判定できないもの: ")
               and f"{second['name']} {second['id']}" in line for line in said)


@pytest.mark.parametrize("reference", [None, "sakamichi"])
def test_the_head_names_how_pages_are_compared_and_the_reference_page_apart(reference,
                                                                           monkeypatch):
    """--baseline (how each page is measured) and the balance's 基準ページ (the page the swap
    Δ takes out) are two settings: the page's head and the terminal's first line say each
    by its own word and the page by its name, never 基準ページ for the other."""
    import rich.console
    from rich.console import Console

    from commands.sim import _print_sim

    report = sample_report(pages=[("kekkon", "銀婚式", 55)], enemies=[])
    report["settings"]["reference"] = reference
    report["settings"]["page_names"] = {"sakamichi": "坂道の自転車"}
    for row in report["pages"]:
        row["swap_delta"] = None if reference is None else {"pairs": 100, "delta": row["delta"]}
    html = report_html.render_report(report)
    assert "<dt>比べ方</dt><dd>はじめのデッキに 1 枚加える</dd>" in html
    if reference is None:
        assert "<dt>基準ページ</dt><dd>—</dd>" in html
    else:
        assert "<dt>基準ページ</dt><dd>坂道の自転車（" in html
        assert "「坂道の自転車」1 枚と入れ替え" in html and "sakamichi と入れ替え" not in html
    shown = Console(width=200, record=True, no_color=True)
    monkeypatch.setattr(rich.console, "Console", lambda *args, **kwargs: shown)
    _print_sim(report)
    head = shown.export_text().splitlines()[0]
    assert ("基準ページ 坂道の自転車（入れ替えの相手）" in head) == (reference is not None)


def test_a_failed_write_leaves_the_old_report_and_page_together(tmp_path, monkeypatch):
    """report.json (what the catalog and the editor read) and its page are one set: a full
    disk at the page never leaves a new report.json beside the old page."""
    from conftest import full_disk_from

    write_report(sample_report(), tmp_path / "sim")
    files = {p.name: p.stat().st_ino for p in (tmp_path / "sim").iterdir()}
    full_disk_from(monkeypatch, 2)  # the page's temporary, report.json's written
    with pytest.raises(OSError):
        write_report(sample_report(seed=5), tmp_path / "sim")
    monkeypatch.undo()
    assert {p.name: p.stat().st_ino for p in (tmp_path / "sim").iterdir()} == files


def test_the_terminal_says_what_wins_plus_and_minus_count():
    """「勝ち+/−」 had no legend in the terminal."""
    from sim.report_text import DISCORDANT, observed_lines

    report = sample_report()
    said = [str(line) for line in observed_lines(report)]
    assert said[0] == (f"{DISCORDANT}: 同じシードの対のうち、ページを入れたデッキだけが勝った対（+）と、"
                       "はじめのデッキだけが勝った対（−）の数")


def test_an_interval_wider_than_95_percent_is_marked_and_its_level_said():
    """A page stopped early reports the stricter interval its looks spent (99%, 99.5%)
    under a column headed [95%]: it is marked †, and the notes give the levels."""
    from sim import report_text

    report = sample_report(pages=PAGES[:3])
    first, second, third = report["pages"]
    first["delta_confidence"], second["delta_confidence"] = 0.99, 0.95
    third.pop("delta_confidence", None)
    said = [t.plain for t in report_text.summary_lines(report)]
    assert "†: 判定が決まって途中で止めたページの区間は、途中で何度も見たぶん広く取っています（信頼度 99.0%）" \
        in said
    from sim.render_text import interval_text
    from rich.console import Console
    import os

    console = Console(width=250, record=True, no_color=True, file=open(os.devnull, "w"))
    console.print(report_text.pages_table(report))
    lines = console.export_text().splitlines()
    assert any(f"{interval_text(first['delta'])}†" in line for line in lines)
    assert not any(f"{interval_text(second['delta'])}†" in line for line in lines)
    assert f"{points(first['delta'])}†" in report_html.render_report(report)
