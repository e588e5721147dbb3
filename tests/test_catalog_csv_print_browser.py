"""The catalog's pool table saved as CSV, the catalog on paper and its sideways scroll on
a phone, in a real browser (Debian's chromium driven by Playwright, opened from disk with
no network): the 「CSVで保存」 link saves the rows shown in the order shown, the print
styles hide every control and keep cards whole, and the number line says that it scrolls
only when it does."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from chromium import DESKTOP, launch, needs_chromium, open_tab as _open_tab

from catalog.render import POOL_CSV, write
from runtime.tables import load

pytestmark = [needs_chromium, pytest.mark.slow]

PHONE = {"width": 375, "height": 667}


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    index = write(load(), tmp_path_factory.mktemp("catalog"))
    with sync_playwright() as p:
        chromium = launch(p)
        chromium.index = index
        yield chromium
        chromium.close()
    assert chromium.blocked == [] and chromium.errors == []


def open_tab(browser, url: str | None = None, viewport=DESKTOP):
    return _open_tab(browser, url or browser.index.as_uri(), viewport)


def saved(tab) -> tuple[str, bytes]:
    """The file name and bytes 「CSVで保存」 saves."""
    with tab.expect_download() as info:
        tab.click("#pool-csv")
    download = info.value
    return download.suggested_filename, Path(download.path()).read_bytes()


def records(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def shown_ids(tab) -> list[str]:
    return tab.eval_on_selector_all("#pool-table tbody tr", "rs => rs.filter(r => !r.hidden)"
                                    ".map(r => r.getAttribute('data-page'))")


def style(tab, selector: str, prop: str, pseudo: str | None = None) -> str:
    return tab.evaluate("([s, p, x]) => getComputedStyle(document.querySelector(s), x)"
                        ".getPropertyValue(p)", [selector, prop, pseudo])


def settled(tab, selector: str, prop: str, pseudo: str | None, value: str) -> str:
    """The computed ``prop`` once it reads ``value`` (a fade's transition takes its time:
    a fixed pause raced it on a loaded machine); what it reads after 5 s otherwise."""
    try:
        tab.wait_for_function("([s, p, x, v]) => getComputedStyle(document.querySelector(s), x)"
                              ".getPropertyValue(p) === v", arg=[selector, prop, pseudo, value],
                              timeout=5000)
    except Exception:  # a timeout: the assertion that follows shows what it reads
        pass
    return style(tab, selector, prop, pseudo)


# ---------------------------------------------------------------------- CSV


def test_saving_the_whole_pool_gives_the_file_beside_the_page(browser):
    tab = open_tab(browser)
    assert tab.inner_text("#pool-csv") == "CSVで保存"
    assert "すべてのページ" in tab.get_attribute("#pool-csv", "title")
    name, data = saved(tab)
    assert name == "pool.csv"
    assert data == (browser.index.parent / POOL_CSV).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.endswith(b"\r\n")
    tab.close()


def test_a_filtered_and_sorted_table_saves_the_rows_shown_in_their_order(browser):
    tab = open_tab(browser)
    tables = load()
    tab.fill("#meimin", "40")
    tab.click("#pool-table thead tr.sort th:nth-child(4) button")  # 綻び倍率
    shown = shown_ids(tab)
    assert 0 < len(shown) < len(tables.pages)
    title = tab.get_attribute("#pool-csv", "title")
    assert f"絞り込みで表に見えている {len(shown)} 行" in title and "見えている順" in title
    assert tab.inner_text("#pool-csv-rows") == f"絞り込み後 {len(shown)} 行 / {len(tables.pages)} 行"
    name, data = saved(tab)
    assert name == "pool-絞り込み.csv"
    rows = records(data)
    assert rows[0][0] == "銘" and [r[1] for r in rows[1:]] == shown
    assert all(int(r[0]) >= 40 for r in rows[1:])
    fray = [float(r[3]) for r in rows[1:]]
    assert fray == sorted(fray)
    tab.fill("#meimin", "")
    assert tab.inner_text("#pool-csv-rows") == f"すべて {len(tables.pages)} 行"
    tab.close()


# -------------------------------------------------------------------- print


def test_on_paper_the_controls_are_hidden_and_cards_stay_whole(browser):
    tab = open_tab(browser)
    tab.emulate_media(media="print")
    for selector in ("header form", "#compare", "label.pick", "#pool-csv", "#q", "#clear",
                     "#numberline .scroll-hint"):
        assert not tab.locator(selector).first.is_visible(), selector
    assert style(tab, "article.page", "break-inside") == "avoid"
    assert style(tab, "article.enemy", "break-inside") == "avoid"
    assert style(tab, "body", "background-color") == "rgb(255, 255, 255)"
    assert style(tab, "body", "color") == "rgb(0, 0, 0)"
    assert style(tab, "header", "position") == "static"
    # a link keeps its text, black
    term = "#page-sakamichi a.w"
    assert tab.locator(term).first.is_visible() and tab.inner_text(term)
    assert style(tab, term, "color") == "rgb(0, 0, 0)"
    # the number line fits the sheet's width
    line = tab.locator("svg.line").bounding_box()
    body = tab.locator("main").bounding_box()
    assert line["x"] >= body["x"] and line["x"] + line["width"] <= body["x"] + body["width"] + 1
    assert "自分紀 カタログ" in tab.inner_text("header h1")
    pdf = tab.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) > 1
    tab.emulate_media(media="screen")
    assert tab.locator("header form").is_visible() and tab.locator("#pool-csv").is_visible()
    tab.close()


def test_on_paper_the_number_line_fits_even_from_a_phone(browser):
    tab = open_tab(browser, viewport=PHONE)
    tab.emulate_media(media="print")
    tab.set_viewport_size({"width": 700, "height": 1000})  # the sheet, as print lays it out
    box = tab.locator("svg.line").bounding_box()
    assert box["width"] <= 700
    assert style(tab, ".axis-group", "overflow-x") == "visible"
    tab.close()


# -------------------------------------------------------------- scroll hint


def test_the_number_line_says_it_scrolls_on_a_phone(browser):
    tab = open_tab(browser, viewport=PHONE)
    hint = tab.locator("#numberline .scroll-hint")
    assert hint.is_visible() and hint.inner_text() == "← スクロール →"
    group = ".hscroll:has(.axis-group)"
    assert tab.evaluate("document.querySelector('.axis-group').scrollWidth >"
                        " document.querySelector('.axis-group').clientWidth")
    frame = f"{group} .hscroll-frame"
    assert settled(tab, frame, "opacity", "::after", "1") == "1"   # more to the right
    assert settled(tab, frame, "opacity", "::before", "0") == "0"  # nothing to the left yet
    tab.evaluate("document.querySelector('.axis-group').scrollLeft = 100000")
    tab.wait_for_function("document.querySelector('.hscroll:has(.axis-group)')"
                          ".classList.contains('at-end')")
    assert settled(tab, frame, "opacity", "::after", "0") == "0"
    assert settled(tab, frame, "opacity", "::before", "1") == "1"
    # the hint and the caption stay in view while the line scrolls
    assert hint.is_visible() and 0 <= hint.bounding_box()["x"] < PHONE["width"]
    caption = tab.locator("#numberline figcaption").bounding_box()
    assert 0 <= caption["x"] < 30
    tab.close()


def test_the_hint_is_gone_where_the_line_fits(browser):
    tab = open_tab(browser)
    assert tab.locator("#numberline .scroll-hint").is_hidden()
    assert settled(tab, ".hscroll:has(.axis-group) .hscroll-frame", "opacity", "::after",
                   "0") == "0"
    # and it comes when the window narrows, and goes when it widens again
    tab.set_viewport_size(PHONE)
    tab.wait_for_function("!document.querySelector('#numberline .scroll-hint').hidden")
    tab.set_viewport_size(DESKTOP)
    tab.wait_for_function("document.querySelector('#numberline .scroll-hint').hidden")
    tab.close()


def test_without_scripts_the_catalog_reads_and_scrolls_without_the_hint(browser):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    tab = context.new_page()
    tab.route("http*://**", lambda route: (browser.blocked.append(route.request.url),
                                          route.abort()))
    tab.goto(browser.index.as_uri())
    assert tab.locator("#numberline .scroll-hint").is_hidden()
    assert tab.locator("#page-sakamichi").is_visible()
    assert tab.get_attribute("#pool-csv", "href") == "pool.csv"  # the file beside the page
    box = tab.locator(".axis-group").bounding_box()
    line = tab.locator("svg.line").bounding_box()
    assert line["width"] > box["width"]  # wider than the screen: the box scrolls
    assert style(tab, ".axis-group", "overflow-x") == "auto"
    context.close()


def test_screenshots_of_the_hint_the_pool_and_print(browser):
    shots = []
    for name, viewport, media in (("phone", PHONE, "screen"), ("desktop", DESKTOP, "screen"),
                                  ("print", {"width": 720, "height": 1000}, "print")):
        tab = open_tab(browser, viewport=viewport)
        tab.emulate_media(media=media)
        for view in ("#numberline", "#pool"):
            tab.evaluate("(s) => window.scrollTo(0, document.querySelector(s)"
                         ".getBoundingClientRect().top + window.pageYOffset - 120)", view)
            path = Path(f"/tmp/catalog_csv_print_{view[1:]}_{name}.png")
            tab.screenshot(path=str(path))
            assert path.stat().st_size > 10_000
            shots.append(path)
        tab.close()
    assert len(shots) == 6


def test_enemy_timelines_and_the_compare_table_say_they_scroll_on_a_phone(browser):
    """The Intent timelines and the compare table scrolled sideways with nothing to say
    so: the third pick cut at the screen's edge, the fourth out of sight."""
    tab = open_tab(browser, browser.index.as_uri() + "#cmp=sakamichi,shigoto,tabidachi,kekkon",
                   viewport=PHONE)
    tab.wait_for_selector("#compare-wrap:not([hidden])")
    hint = tab.locator("#compare-wrap .scroll-hint")
    tab.wait_for_function("!document.querySelector('#compare-wrap .scroll-hint').hidden")
    assert hint.is_visible() and hint.inner_text() == "← スクロール →"
    wide = tab.evaluate("Array.from(document.querySelectorAll('.turns .hscroll')).filter(r =>"
                        " r.querySelector('.hscroll-box').scrollWidth >"
                        " r.querySelector('.hscroll-box').clientWidth + 1)"
                        ".map(r => !r.querySelector('.scroll-hint').hidden)")
    assert wide and all(wide)  # every timeline wider than the phone says so
    tab.close()
    desk = open_tab(browser)
    assert not desk.locator("#enemy-haguruma .turns .scroll-hint").is_visible()  # it fits
    desk.close()


def test_on_paper_every_enemy_timeline_fits_the_sheet(browser):
    """The print CSS promised nothing scrolls on paper, and 光る画面's turn 7 was sliced."""
    tab = open_tab(browser)
    tab.emulate_media(media="print")
    tab.set_viewport_size({"width": 703, "height": 1000})  # A4's content width
    spill = tab.evaluate("Array.from(document.querySelectorAll('table.timeline')).map(t => {"
                         " const card = t.closest('article').getBoundingClientRect();"
                         " const box = t.getBoundingClientRect();"
                         " return [t.dataset.enemy, box.right - card.right]; })")
    assert spill and all(over <= 1 for _, over in spill), spill
    tab.close()


@pytest.mark.parametrize("wrapping, where", [
    # an unbroken Latin word in a フレーバー made the index 793 px wide on a 375 px phone
    ("article.page", "article.page .flavor, article.page h3"),
    # a page named with one long Latin word: 566 px from the 出自別 list and the 量ごとの索引
    # table, outside the cards that already wrapped it
    ("main", "main .m, table.index td"),
])
def test_an_unbroken_word_wraps_rather_than_widen_the_page(browser, wrapping, where):
    tab = open_tab(browser, viewport=PHONE)
    assert style(tab, wrapping, "overflow-wrap") == "anywhere"
    tab.evaluate(f"for (const el of document.querySelectorAll('{where}'))"
                 " { el.append('Supercalifragilisticexpialidocious'.repeat(4)); }")
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tab.close()
