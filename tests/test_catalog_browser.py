"""The catalog in a real browser: headless Chromium (Debian's package) driven by
Playwright, opened from disk with no network. .ci/run installs chromium and a CJK font."""

from __future__ import annotations

import shutil

import pytest

from catalog.render import write
from runtime.tables import load

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                "(.ci/run installs it)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    out = tmp_path_factory.mktemp("catalog")
    index = write(load(), out)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        tab = browser.new_page(viewport={"width": 1200, "height": 900})
        blocked = []
        tab.route("http*://**", lambda route: (blocked.append(route.request.url), route.abort()))
        tab.goto(index.as_uri())
        tab.blocked = blocked
        yield tab
        browser.close()


def visible_pages(tab) -> int:
    return tab.locator("article.page:not(.hidden)").count()


def test_catalog_opens_from_disk_without_network(page):
    assert page.title() == "自分紀 カタログ"
    assert visible_pages(page) == len(load().pages)
    assert page.blocked == []


def test_filter_by_text_year_range_and_faces(page, tmp_path):
    tables = load()
    page.fill("#q", "旅立ち")
    assert visible_pages(page) == 1
    page.fill("#q", "")
    page.fill("#meimin", "40")
    expected = sum(1 for p in tables.pages.values() if p.year >= 40)
    assert visible_pages(page) == expected
    assert page.inner_text("#count") == str(expected)
    page.fill("#meimin", "")
    page.select_option("#faces", "both")
    both = sum(1 for p in tables.pages.values()
               if p.faces["future"].written and p.faces["past"].written)
    assert visible_pages(page) == both
    page.select_option("#faces", "")
    page.screenshot(path=str(tmp_path / "catalog.png"), full_page=False)
    assert (tmp_path / "catalog.png").stat().st_size > 10_000


def test_anchor_links_to_the_page(page):
    page.goto(page.url.split("#")[0] + "#page-tabidachi")
    card = page.locator("#page-tabidachi")
    assert card.is_visible()
    assert "旅立ちの朝" in card.inner_text()
    box = card.bounding_box()
    assert box is not None and box["y"] < 900


def test_japanese_renders_with_a_cjk_font(page):
    # A missing CJK font draws every kanji as the same tofu box: draw two different kanji
    # in the catalog's font and require different pixels.
    same = page.evaluate("""() => {
      const draw = (ch) => {
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 64;
        const c = canvas.getContext('2d');
        c.font = '48px ' + getComputedStyle(document.body).fontFamily;
        c.fillText(ch, 4, 52);
        return Array.from(c.getImageData(0, 0, 64, 64).data).join(',');
      };
      return draw('自') === draw('紀');
    }""")
    assert same is False
