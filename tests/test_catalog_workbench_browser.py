"""The catalog's workbench as a designer uses it, in a real browser (Debian's chromium
driven by Playwright, opened from disk with no network): pages picked and compared side
by side, the pick kept in the URL, the pool table sorted by a column, the number line's
marks following the filter, an enemy's turns and its own examples, lab figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from chromium import DESKTOP, PHONE, launch, needs_chromium, open_tab as _open_tab

from catalog.render import example_views, write
from conftest import ROOT
from runtime.tables import load
from test_sim_report_html import sample_report

pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright.sync_api import sync_playwright
    from scenario.stage import compile_content

    compiled = compile_content(Path(ROOT / "content"))
    views = example_views(compiled.examples, compiled.sources)
    out = tmp_path_factory.mktemp("catalog")
    tables = load()
    index = write(tables, out / "catalog", views)
    # the same catalog with a lab report beside it, as jibunki sim --html leaves one
    report = sample_report()
    with_lab = write(tables, out / "lab" / "catalog", views, lab_report=report)
    with sync_playwright() as p:
        chromium = launch(p)
        chromium.index, chromium.with_lab, chromium.report = index, with_lab, report
        yield chromium
        chromium.close()
    assert chromium.blocked == [] and chromium.errors == []


def open_tab(browser, url: str | None = None, viewport=DESKTOP):
    return _open_tab(browser, url or browser.index.as_uri(), viewport)


def url(tab) -> str:
    return tab.evaluate("location.href")


def compared(tab, row: str) -> list[str]:
    """The texts a person sees in a row of the compare table, column by column."""
    return tab.eval_on_selector_all(f"#compare-table tr.{row} [data-page]",
                                    "cs => cs.filter(c => c.offsetParent !== null)"
                                    ".map(c => c.innerText.trim())")


def pool_column(tab, index: int) -> list[str]:
    """The sort values of a column (negative: from the right) in the rows shown, top down."""
    return tab.eval_on_selector_all(
        "#pool-table tbody tr", "(rs, i) => rs.filter(r => !r.hidden).map(r =>"
        " r.cells[i < 0 ? r.cells.length + i : i].getAttribute('data-v'))", index)


def visible_marks(tab) -> int:
    return tab.eval_on_selector_all("svg.line circle.mark",
                                    "ms => ms.filter(m => m.style.display !== 'none').length")


def pick(tab, page_id: str) -> None:
    tab.locator(f"#page-{page_id} input.pick").check()


def test_picked_pages_stand_side_by_side_with_their_values(browser):
    tab = open_tab(browser)
    assert tab.locator("#compare-table").is_hidden()
    pick(tab, "sakamichi")
    pick(tab, "tabidachi")
    assert tab.locator("#compare-table").is_visible()
    assert tab.inner_text("#picked") == "2" and tab.inner_text("#picked-top") == "2"
    assert compared(tab, "r-year") == ["8", "36"]
    assert compared(tab, "r-fray") == ["2.0", "1.0"]
    heads = tab.eval_on_selector_all("#compare-table thead th[data-page]:not([hidden])",
                                     "hs => hs.map(h => h.innerText)")
    assert "坂道の自転車" in heads[0] and "旅立ちの朝" in heads[1]
    # from the start age 20: 坂道 (8, past face) 12 歩, 旅立ち (36, future face) 16 歩
    cost = tab.eval_on_selector_all(
        "#compare-table tr.r-cost[data-age='20'] td:not([hidden])",
        "cs => cs.map(c => c.innerText)")
    assert cost == ["12 歩・過去面", "16 歩・未来面"]
    assert compared(tab, "r-face-past")[1] == "白紙"
    tear = compared(tab, "r-tear")
    assert "綻び 16" in tear[0]  # |8 − 0| × 2.0 at 刻 0
    assert tab.locator("#compare-table tr.r-delta").count() == 0  # no report: no lab rows
    tab.click("#compare-table button.unpick[value='sakamichi']")
    assert compared(tab, "r-year") == ["36"]
    assert not tab.locator("#page-sakamichi input.pick").is_checked()
    tab.close()


def test_the_compare_pick_survives_a_reload_through_the_url(browser):
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("坂")
    pick(tab, "sakamichi")
    assert tab.locator("#pool-table tr[data-page='sakamichi'] input.pick").is_checked()
    here = url(tab)
    assert "cmp=sakamichi" in here and "q=" in here
    tab.reload()
    assert compared(tab, "r-year") == ["8"]
    assert tab.locator("#page-sakamichi input.pick").is_checked()
    assert tab.input_value("#q") == "坂"
    again = open_tab(browser, browser.index.as_uri() + "#cmp=tabidachi,sakamichi,nothing")
    assert compared(again, "r-year") == ["8", "36"]  # the pool's order; unknown ids dropped
    again.close()
    tab.go_back()  # the pick was a step of its own
    assert compared(tab, "r-year") == []
    tab.close()


def test_a_link_to_a_card_keeps_the_filter_and_the_picks_in_the_url(browser):
    tab = open_tab(browser)
    tab.fill("#meimin", "30")
    pick(tab, "tabidachi")
    here = url(tab)
    assert "cmp=tabidachi" in here and "year=30-" in here
    tab.click("#pool-table tr[data-page='tabidachi'] a")
    assert url(tab) == here
    assert tab.evaluate("document.getElementById('page-tabidachi').getBoundingClientRect().top"
                        " < window.innerHeight")
    tab.evaluate("window.scrollTo(0, 0)")
    tab.locator("svg.line circle.mark[data-page='kekkon']").dispatch_event("click")
    assert url(tab) == here
    assert tab.evaluate("Math.abs(document.getElementById('page-kekkon')"
                        ".getBoundingClientRect().top) < window.innerHeight")
    tab.close()


def test_a_link_to_a_card_the_filter_hides_clears_the_filter_and_shows_it(browser):
    """A 誘発 link or an enemy mark naming a card the filter hides did nothing: the filter is
    cleared (the picks stay) and the card is shown."""
    tab = open_tab(browser)
    pick(tab, "tabidachi")
    tab.fill("#meimin", "40")
    # a link shown on a card (not the pool table's) whose card the filter hides, clicked
    target = tab.evaluate(
        "(() => { const a = Array.from(document.querySelectorAll(\"a[href^='#page-'], a[href^='#enemy-']\"))"
        ".filter(a => a.offsetParent !== null && !a.closest('#pool-table'))"
        ".find(a => { const t = document.getElementById(a.getAttribute('href').slice(1));"
        " return t && t.offsetParent === null; });"
        " if (!a) return null; a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); return a.getAttribute('href').slice(1); })()")
    assert target, "a visible link to a hidden card"
    assert tab.evaluate(f"document.getElementById('{target}').offsetParent !== null")
    assert tab.evaluate(f"Math.abs(document.getElementById('{target}')"
                        ".getBoundingClientRect().top) < window.innerHeight")
    assert tab.input_value("#meimin") == "" and "cmp=tabidachi" in url(tab)
    tab.close()


def test_sorting_a_column_changes_the_order(browser):
    tab = open_tab(browser)
    tables = load()
    years = pool_column(tab, 1)
    assert years == sorted(years, key=int)  # the pool's own order: by 銘
    tab.click("#pool-table thead tr.sort th:nth-child(4) button")  # 綻び倍率
    fray = [float(v) for v in pool_column(tab, 3)]
    assert fray == sorted(fray) and fray != [tables.pages[i].fray_mul for i in
                                            sorted(tables.pages, key=lambda i: (
                                                tables.pages[i].year, i))]
    assert tab.get_attribute("#pool-table thead tr.sort th:nth-child(4)", "aria-sort") == "ascending"
    tab.click("#pool-table thead tr.sort th:nth-child(4) button")
    assert [float(v) for v in pool_column(tab, 3)] == sorted(fray, reverse=True)
    tab.click("#pool-table thead tr.sort th:nth-child(2) button")  # 銘 again
    assert pool_column(tab, 1) == sorted(years, key=int)
    tab.close()


def test_sorting_by_origin_goes_in_the_order_of_life(browser):
    """出自 sorts as lives go (by each origin's youngest 銘: 幼少期 before 少年期 …), not
    by the letters of their names (熟年期, 少年期, 青年期 …)."""
    tab = open_tab(browser)
    tables = load()
    youngest: dict[str, int] = {}
    for page in tables.pages.values():
        youngest[page.origin] = min(youngest.get(page.origin, 10**6), page.year)
    lived = sorted(youngest, key=lambda origin: (youngest[origin], origin))
    tab.click("#pool-table thead tr.sort th:nth-child(5) button")  # 出自
    shown = tab.eval_on_selector_all(
        "#pool-table tbody tr", "rs => rs.filter(r => !r.hidden).map(r => r.cells[4].innerText.trim())")
    assert list(dict.fromkeys(shown)) == lived and lived != sorted(lived)
    tab.close()


def test_the_number_line_has_a_mark_per_page_shown_the_cap_and_the_enemies(browser):
    tab = open_tab(browser)
    tables = load()
    assert visible_marks(tab) == len(tables.pages)
    assert tab.locator("svg.line #cap-line").count() == 1
    assert "寿命上限 80" in tab.inner_text("#numberline")
    assert tab.locator("svg.line path.seat").count() == len(tables.enemies)
    assert tab.locator("svg.line rect.never").count() == 1
    # the enemy's 座 sits on the same axis as the ticks: haguruma (42) between 40 and 50
    seat = tab.locator("g.erow[data-enemy='haguruma'] path.seat").bounding_box()
    ticks = {t: tab.locator(f"svg.line text.tick >> text='{t}'").first.bounding_box()
             for t in (40, 50)}
    middle = seat["x"] + seat["width"] / 2
    assert ticks[40]["x"] < middle < ticks[50]["x"] + ticks[50]["width"]
    assert tab.locator("g.erow[data-enemy='haguruma'] line.move").count() == 1
    assert tab.locator("g.erow[data-enemy='yamai'] rect.block").count() == 1
    tab.locator("#q").press_sequentially("坂道")
    assert visible_marks(tab) == int(tab.inner_text("#count")) == 1
    assert browser.errors == []  # the filter and the workbench ran through
    tab.fill("#q", "")
    tab.fill("#meimin", "40")
    shown = int(tab.inner_text("#count"))
    assert visible_marks(tab) == shown == sum(1 for p in tables.pages.values() if p.year >= 40)
    assert sum(1 for v in pool_column(tab, 1) if v is not None) == shown  # the pool follows
    tab.close()


def test_an_enemy_card_draws_its_turns_with_escalation(browser):
    tab = open_tab(browser)
    timeline = "#enemy-kodoku table.timeline"
    counts = tab.eval_on_selector_all(f"{timeline} tr.shown td",
                                      "ts => ts.map(t => t.querySelectorAll('.intent').length)")
    assert counts == [3, 3, 3, 4, 4, 5, 6, 7]
    added = tab.eval_on_selector_all(f"{timeline} tr.shown td",
                                     "ts => ts.map(t => t.querySelectorAll('.new').length)")
    assert [i + 1 for i, n in enumerate(added) if n] == [4, 6, 7, 8]
    seats = tab.eval_on_selector_all(f"{timeline} tr.seats td", "ts => ts.map(t => t.innerText)")
    assert seats == [str(65 - 2 * t) for t in range(8)]
    assert "突破ライン 160" in tab.inner_text("#enemy-kodoku")
    assert "加速 1" in tab.inner_text("#enemy-kodoku")
    tab.close()


def test_an_enemy_lists_only_the_examples_written_for_it(browser):
    tab = open_tab(browser)
    summaries = tab.eval_on_selector_all("#enemy-haguruma details.example summary",
                                         "ss => ss.map(s => s.innerText)")
    assert len(summaries) == 1 and "content/enemies/日々.enemy" in summaries[0]
    assert all("content/enemies/" in s for s in tab.eval_on_selector_all(
        "article.enemy details.example summary", "ss => ss.map(s => s.innerText)"))
    tab.close()


def test_lab_figures_stand_in_the_compare_table_and_on_enemy_cards(browser):
    tab = open_tab(browser, browser.with_lab.as_uri() + "#cmp=sakamichi")
    delta = compared(tab, "r-delta")
    row = next(p for p in browser.report["pages"] if p["id"] == "sakamichi")
    assert len(delta) == 1 and " pt [" in delta[0]
    assert compared(tab, "r-play") == [f"{row['play_rate']:.2f}"]
    assert "模擬戦: 勝率" in tab.inner_text("#enemy-haguruma")
    tab.click("#pool-table thead tr.sort th:nth-last-child(3) button")  # Δ 勝率
    deltas = [float(v) for v in pool_column(tab, -3) if v]
    assert deltas == sorted(deltas) and len(deltas) > 1
    assert pool_column(tab, -3)[len(deltas):] == [""] * (len(pool_column(tab, -3)) - len(deltas))
    tab.close()


def test_screenshots_at_desktop_and_phone_widths(browser):
    paths = []
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = open_tab(browser, browser.with_lab.as_uri() + "#cmp=sakamichi,tabidachi,kekkon",
                       viewport=viewport)
        for view, selector in (("compare", "#compare"), ("line", "#numberline"),
                               ("enemy", "#enemy-kodoku"), ("pool", "#pool")):
            tab.evaluate("""(sel) => {
              const top = document.querySelector(sel).getBoundingClientRect().top
                + window.pageYOffset - document.querySelector('header').offsetHeight - 4;
              window.scrollTo(0, top);
            }""", selector)
            path = Path(f"/tmp/catalog_workbench_{view}_{name}.png")
            tab.screenshot(path=str(path), full_page=False)
            assert path.stat().st_size > 10_000
            paths.append(path)
        tab.close()
    assert len(paths) == 8 and browser.blocked == []


def test_back_from_a_search_to_a_card_link_empties_the_search_again(browser):
    """A card link's entry holds no filter in its URL: Back to it kept the search typed
    after it (the card it names hidden), and Back then Forward then Back showed the same
    URL two ways. The entry keeps the filter it was made under, and brings it back."""
    tab = open_tab(browser)
    tab.evaluate("location.hash = '#page-arubaito'")
    tab.wait_for_function("location.hash === '#page-arubaito'")
    tab.fill("#q", "産声")
    tab.wait_for_function("location.hash.indexOf('q=') >= 0")
    tab.go_back()
    tab.wait_for_function("location.hash === '#page-arubaito'")
    assert tab.input_value("#q") == ""
    assert tab.evaluate("document.getElementById('page-arubaito').offsetParent !== null")
    tab.go_forward()
    tab.wait_for_function("location.hash.indexOf('q=') >= 0")
    assert tab.input_value("#q") == "産声"
    tab.go_back()
    tab.wait_for_function("location.hash === '#page-arubaito'")
    assert tab.input_value("#q") == ""
    tab.close()


@pytest.mark.parametrize("typed, kept", [("10.5", "10"), ("1e1", "10"), ("-5", "0")])
def test_a_year_bound_the_url_cannot_hold_is_made_whole_and_a_reload_shows_the_same(
        browser, typed, kept):
    """「10.5」 filtered 8 pages and wrote #year=-10.5, which a reload read as no bound
    (71 pages); 「-5」 reloaded as 5. The bound is the whole number the URL can hold."""
    tab = open_tab(browser)
    tab.fill("#meimax", typed)
    tab.locator("#meimax").blur()
    tab.wait_for_function(f"location.hash === '#year=-{kept}'")
    count, box = tab.inner_text("#count"), tab.input_value("#meimax")
    assert box == kept
    tab.reload()
    assert tab.inner_text("#count") == count and tab.input_value("#meimax") == kept
    tab.close()


def test_removing_a_pick_from_the_keyboard_keeps_the_focus_in_the_compare_table(browser):
    """Enter on 「×」 hid the column with the focused button in it, and the focus fell to
    the page's top: it goes to the next pick's button, and with none left to the heading."""
    tab = open_tab(browser, browser.index.as_uri() + "#cmp=sakamichi,tabidachi")
    tab.wait_for_selector("#compare-wrap:not([hidden])")
    tab.focus("#compare-table button.unpick[value='sakamichi']")
    tab.keyboard.press("Enter")
    assert tab.evaluate("document.activeElement.value") == "tabidachi"
    tab.keyboard.press("Enter")
    assert tab.evaluate("document.activeElement.closest('#compare') !== null")
    assert tab.evaluate("document.activeElement.tagName") == "H2"
    tab.close()
