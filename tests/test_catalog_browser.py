"""The catalog in a real browser: headless Chromium (Debian's package) driven by
Playwright, opened from disk with no network. .ci/run installs chromium and a CJK font."""

from __future__ import annotations


import pytest

from chromium import launch, needs_chromium, open_tab

from catalog.render import write
from runtime.tables import load

pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    out = tmp_path_factory.mktemp("catalog")
    index = write(load(), out)
    with sync_playwright() as p:
        browser = launch(p)
        tab = open_tab(browser, index.as_uri(), viewport={"width": 1200, "height": 900})
        tab.blocked = browser.blocked
        yield tab
        browser.close()
    assert browser.errors == []


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


@pytest.mark.parametrize("width", [375, 768, 1200])
def test_a_card_followed_by_its_anchor_is_not_under_the_sticky_header(page, width):
    """The header wraps to 120–170 px at tablet and phone widths: the card a link leads to
    starts below it, its title readable (a fixed 90 px margin hid it)."""
    last = sorted(load().pages.values(), key=lambda p: (p.year, p.id))[-8].id
    page.set_viewport_size({"width": width, "height": 800})
    try:
        # the page measures its header on resize (an event, after the resize): a busy
        # machine may follow the link first, as a hand could not
        page.wait_for_function("document.documentElement.style.scrollPaddingTop === "
                               "(document.querySelector('header').offsetHeight + 8) + 'px'")
        page.goto(page.url.split("#")[0] + f"#page-{last}")
        page.wait_for_timeout(200)
        header = page.locator("header").bounding_box()
        title = page.locator(f"#page-{last} h3").bounding_box()
        assert header is not None and title is not None
        assert title["y"] >= header["y"] + header["height"], (width, header, title)
    finally:
        page.set_viewport_size({"width": 1200, "height": 900})
