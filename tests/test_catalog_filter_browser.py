"""The catalog's filter as a designer uses it, in a real browser (Debian's chromium
driven by Playwright, opened from disk with no network): the results in view under the
filter bar as you type, the filter in the URL, enemies and the overview following it."""

from __future__ import annotations

from pathlib import Path

import pytest

from chromium import DESKTOP, PHONE, needs_chromium, open_catalog

from conftest import ROOT
from runtime.tables import load

pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser(catalog_browser):
    return catalog_browser


open_tab = open_catalog


def shown_ids(tab, kind: str = "page") -> list[str]:
    return tab.eval_on_selector_all(f"article.{kind}:not(.hidden)",
                                    "cards => cards.map(c => c.id)")


def url(tab) -> str:
    """The document's URL now (``tab.url`` catches up with history changes later)."""
    return tab.evaluate("location.href")


def in_view(tab, selector: str) -> bool:
    """The element's top lies inside the viewport, below the sticky filter bar."""
    return tab.evaluate("""(sel) => {
      const box = document.querySelector(sel).getBoundingClientRect();
      const bar = document.querySelector('header').getBoundingClientRect().bottom;
      return box.height > 0 && box.top >= bar - 1 && box.top < window.innerHeight;
    }""", selector)


def test_typing_a_name_shows_that_page_in_view_with_the_count(browser):
    tab = open_tab(browser)
    total = len(load().pages) + len(load().enemies)
    assert tab.inner_text("#total") == str(total)
    tab.locator("#q").press_sequentially("坂道")
    assert shown_ids(tab) == ["page-sakamichi"]
    assert in_view(tab, "#page-sakamichi")
    assert tab.inner_text("#total") == "1" and tab.inner_text("#count") == "1"
    assert tab.locator("#pages article.page:not(.hidden)").count() == 1
    assert browser.blocked == []
    tab.close()


def test_full_width_letters_find_what_half_width_ones_do(browser):
    # An IME in full-width mode types ＨＰ: the query and the cards' words are read NFKC.
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("HP")
    half = shown_ids(tab)
    tab.locator("#q").fill("")
    tab.locator("#q").press_sequentially("ｈｐ")
    assert half and shown_ids(tab) == half
    tab.close()


def test_a_name_typed_in_hiragana_or_half_width_kana_finds_its_katakana_card(browser):
    """あるばいと and ｱﾙﾊﾞｲﾄ (an IME left unconverted, or half-width) find アルバイト: the
    query and the cards' words are read alike (contract.typed.read_alike)."""
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("アルバイト")
    katakana = shown_ids(tab)
    assert "page-arubaito" in katakana
    for typed in ("あるばいと", "ｱﾙﾊﾞｲﾄ"):
        tab.locator("#q").fill("")
        tab.locator("#q").press_sequentially(typed)
        assert shown_ids(tab) == katakana, typed
    tab.close()


def test_the_url_holds_the_filter_and_restores_it(browser):
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("坂道")
    tab.fill("#meimin", "5")
    tab.fill("#meimax", "10")
    here = url(tab)
    assert "#" in here and "year=5-10" in here and "q=" in here
    shown = shown_ids(tab)
    assert shown == ["page-sakamichi"]
    again = open_tab(browser, here)
    assert again.input_value("#q") == "坂道" and again.input_value("#meimin") == "5"
    assert shown_ids(again) == shown and in_view(again, "#page-sakamichi")
    again.close()
    tab.close()


def test_back_and_forward_walk_the_filters(browser):
    tab = open_tab(browser)
    tab.select_option("#faces", "both")
    both = shown_ids(tab)
    tab.select_option("#faces", "blank")
    blank = shown_ids(tab)
    assert both != blank
    tab.go_back()
    assert tab.input_value("#faces") == "both" and shown_ids(tab) == both
    tab.go_forward()
    assert tab.input_value("#faces") == "blank" and shown_ids(tab) == blank
    tab.close()


def test_enemy_cards_follow_the_filter(browser):
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("老い")
    assert "enemy-oi" in shown_ids(tab, "enemy")
    assert "enemy-yamai" not in shown_ids(tab, "enemy")
    tab.fill("#q", "yamai")
    assert shown_ids(tab, "enemy") == ["enemy-yamai"]
    assert in_view(tab, "#enemy-yamai")
    assert tab.inner_text("#ecount") == "1"
    tab.close()


def test_overview_counts_follow_the_filter(browser):
    tab = open_tab(browser)
    tab.locator("#q").press_sequentially("坂道")
    groups = tab.eval_on_selector_all(
        "#overview li.group:not([hidden])",
        "lis => lis.map(li => [li.querySelector('.c').textContent,"
        " Array.from(li.querySelectorAll('.m:not([hidden]) a')).map(a => a.textContent)])")
    assert len(groups) == 1 and groups[0][0] == "1" and len(groups[0][1]) == 1
    labels = tab.eval_on_selector_all("svg.hist[data-weight=''] .band .c",
                                      "ts => ts.map(t => t.textContent)")
    assert sum(1 for t in labels if t) == 1  # one band left, drawn over the whole
    starter = tab.eval_on_selector_all("svg.hist[data-weight='starter'] .band .c",
                                       "ts => ts.map(t => t.textContent)")
    tables = load()
    copies = tables.starter().count("sakamichi")  # 銘 8: the band 0〜9
    band = sum(1 for p in tables.starter() if tables.pages[p].year < 10)
    assert [t for t in starter if t] == [str(copies) if copies == band else f"{copies}/{band}"]
    tab.close()


def test_the_crossing_filter_finds_a_page_whose_condition_is_the_word(browser):
    # 告白 (content/pages/青年期.page) reads crossings only by 「条件 跨ぐ」
    source = ROOT / "content" / "pages" / "青年期.page"
    assert "条件 跨ぐ" in source.read_text(encoding="utf-8")
    tab = open_tab(browser)
    tab.select_option("#var", "crossings")
    shown = shown_ids(tab)
    assert "page-kokuhaku" in shown
    assert tab.inner_text("#count") == str(len(shown))
    assert "var=crossings" in url(tab)
    tab.close()


def test_without_script_everything_is_visible(browser):
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    tab.route("http*://**", lambda route: (browser.blocked.append(route.request.url),
                                          route.abort()))
    tab.goto(browser.index.as_uri() + "#q=nothing-matches")
    tables = load()
    assert tab.locator("article.page:visible").count() == len(tables.pages)
    assert tab.locator("article.enemy:visible").count() == len(tables.enemies)
    context.close()


def test_screenshots_at_desktop_and_phone_widths(browser):
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = open_tab(browser, viewport=viewport)
        tab.locator("#q").press_sequentially("坂")
        assert in_view(tab, "article.page:not(.hidden)")
        path = Path(f"/tmp/catalog_{name}.png")
        tab.screenshot(path=str(path), full_page=False)
        assert path.stat().st_size > 10_000
        tab.close()
    assert browser.blocked == []
