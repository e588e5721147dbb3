"""The ``jibunki sim --html`` page in a real browser: headless Chromium (Debian's
package) driven by Playwright, opened from disk with no network. .ci/run installs
chromium and a CJK font."""

from __future__ import annotations


import pytest

from chromium import launch, needs_chromium

from sim.report_html import write_report
from test_sim_report_html import sample_report

pytestmark = [needs_chromium, pytest.mark.slow]
SCREENSHOT = "/tmp/sim_report.png"


@pytest.fixture(scope="module")
def report():
    return sample_report()


@pytest.fixture(scope="module")
def page(tmp_path_factory, report):
    from playwright.sync_api import sync_playwright

    index = write_report(report, tmp_path_factory.mktemp("sim"))
    with sync_playwright() as p:
        browser = launch(p)
        tab = browser.new_page(viewport={"width": 1200, "height": 900})
        tab.requests, tab.errors = [], []
        tab.on("request", lambda request: tab.requests.append(request.url))
        tab.on("console", lambda message: message.type == "error"
               and tab.errors.append(message.text))
        tab.on("pageerror", lambda error: tab.errors.append(str(error)))
        tab.route("http*://**", lambda route: route.abort())
        tab.goto(index.as_uri())
        tab.wait_for_load_state("load")
        yield tab
        browser.close()


def test_the_report_opens_from_disk_without_network_or_errors(page):
    assert page.title() == "自分紀 バランス検証"
    assert page.requests and all(url.startswith("file://") for url in page.requests), \
        page.requests
    assert page.errors == []


@pytest.mark.parametrize("figure", ["forest", "winrate", "damage"])
def test_each_plot_is_drawn_with_a_size(page, figure):
    box = page.locator(f"figure#{figure} svg").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100


def test_the_plots_draw_the_japanese_names_as_text(page, report):
    widths = page.evaluate("""() => {
      const found = {};
      for (const text of document.querySelectorAll('figure#winrate svg text')) {
        found[text.textContent] = text.getBoundingClientRect().width;
      }
      return found;
    }""")
    for enemy in report["enemies"]:
        assert widths.get(enemy["name"], 0) > 0, enemy["name"]
    forest = page.locator("figure#forest svg text", has_text="坂道の自転車").first
    assert forest.bounding_box()["width"] > 0


def test_the_plot_font_draws_kanji_not_tofu(page):
    # A missing CJK font draws every kanji as the same box: draw two kanji in the plot
    # text's own font and require different pixels.
    same = page.evaluate("""() => {
      const label = document.querySelector('figure#winrate svg text');
      const family = getComputedStyle(label).fontFamily;
      const draw = (ch) => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 64;
        const c = canvas.getContext('2d');
        c.font = '48px ' + family;
        c.fillText(ch, 4, 52);
        return Array.from(c.getImageData(0, 0, 64, 64).data).join(',');
      };
      return draw('歯') === draw('霧');
    }""")
    assert same is False


def test_the_tables_show_every_page_and_enemy(page, report):
    rows = page.locator("#page-table tbody tr")
    assert rows.count() == len(report["pages"])
    assert "坂道の自転車" in page.locator("#page-sakamichi").inner_text()
    assert page.locator("#enemy-table tbody tr").count() == len(report["enemies"])
    assert "歯車塔の番人" in page.locator("#enemy-haguruma").inner_text()


def test_a_plot_label_leads_to_its_table_row(page):
    page.locator("figure#forest svg a", has_text="坂道の自転車").click()
    assert page.url.endswith("#page-sakamichi")
    box = page.locator("#page-sakamichi").bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    page.goto(page.url.split("#")[0])


def test_on_a_phone_the_plots_and_tables_keep_their_size_and_say_they_scroll(page):
    """At 390 px a plot is not squeezed to the screen (its words would be a few pixels
    high): it keeps a readable width and scrolls sideways, as the wide tables do, each box
    with its 「← スクロール →」 hint; at desktop width the plots fit and say nothing."""
    def boxes():
        return page.evaluate("""() => Array.from(document.querySelectorAll('.hscroll')).map(
          (root) => ({plot: !!root.closest('figure.plot'),
                      width: root.querySelector('svg, table').getBoundingClientRect().width,
                      scrolls: root.querySelector('.hscroll-box').scrollWidth
                               > root.querySelector('.hscroll-box').clientWidth,
                      hint: !root.querySelector('.scroll-hint').hidden}))""")
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(200)
        narrow = boxes()
        assert {box["plot"] for box in narrow} == {True, False}  # plots and tables alike
        for box in narrow:
            assert box["scrolls"] and box["hint"], box
            if box["plot"]:
                assert box["width"] >= 800, box
    finally:
        page.set_viewport_size({"width": 1200, "height": 900})
    page.wait_for_timeout(200)
    wide = boxes()
    assert all(not box["hint"] for box in wide if box["plot"]), wide


def test_a_screenshot(page):
    page.screenshot(path=SCREENSHOT, full_page=True)
    from pathlib import Path

    assert Path(SCREENSHOT).stat().st_size > 50_000
