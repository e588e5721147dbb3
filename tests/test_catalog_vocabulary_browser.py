"""The vocabulary page and the pen difference as a designer sees them, in a real browser
(Debian's chromium driven by Playwright, opened from disk with no network): a term of a
rules text clicked lands on its entry of the vocabulary page; a pen on a written face
shows what it removes and adds."""

from __future__ import annotations

from pathlib import Path

import pytest

from chromium import DESKTOP, PHONE, needs_chromium, open_catalog

from contract import vocabulary as vocab

pytestmark = [needs_chromium, pytest.mark.slow]
CROSSING = next(t for t in vocab.TIMINGS if t.code == "on_cross")


@pytest.fixture(scope="module")
def browser(catalog_browser):
    return catalog_browser


open_tab = open_catalog


IN_VIEW = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const bar = document.querySelector('header').getBoundingClientRect().bottom;
  return box.height > 0 && box.top >= bar - 1 && box.top < window.innerHeight;
}"""


def in_view(tab, selector: str) -> bool:
    """The element's top comes inside the viewport, below the sticky header (a page
    opened at an anchor scrolls there once laid out: waited for, up to 5 s)."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        tab.wait_for_function(IN_VIEW, arg=selector, timeout=5000)
    except Timeout:
        return False
    return True


def test_clicking_a_term_of_a_rules_text_lands_on_its_vocabulary_entry(browser):
    tab = open_tab(browser)
    term = tab.locator("#page-surechigai .face a.w", has_text=CROSSING.every).first
    assert term.is_visible()
    term.click()
    tab.wait_for_load_state()
    assert tab.evaluate("location.pathname").endswith("/vocabulary.html")
    assert tab.evaluate("location.hash") == "#timing-on_cross"
    row = tab.locator("#timing-on_cross")
    assert CROSSING.meaning in row.inner_text() and CROSSING.ja in row.inner_text()
    assert in_view(tab, "#timing-on_cross")
    # the entry landed on is marked (:target), and it leads back to the pages using it
    marked = tab.evaluate("getComputedStyle(document.querySelector('#timing-on_cross'))"
                          ".backgroundColor")
    assert marked not in ("rgba(0, 0, 0, 0)", "transparent")
    row.locator("a", has_text="すれ違い").click()
    tab.wait_for_load_state()
    assert tab.evaluate("location.hash") == "#page-surechigai"
    tab.close()


def test_the_index_links_to_the_vocabulary_page(browser):
    tab = open_tab(browser)
    tab.locator("header a.vocab").click()
    tab.wait_for_load_state()
    assert tab.title() == "自分紀 カタログ — 語彙の一覧"
    for section in ("variable", "counter", "timing", "region", "lifetime", "operation"):
        assert tab.locator(f"section#{section} tr.entry").count() > 0
    assert tab.locator("tr.entry").count() == tab.locator("tr.entry .meaning").count()
    tab.close()


def _right_edge(tab) -> tuple[int, int, int]:
    """The colour of the section links' line at its right edge, below the links' text."""
    import io

    from PIL import Image

    box = tab.locator("header nav").bounding_box()
    shot = Image.open(io.BytesIO(tab.screenshot())).convert("RGB")
    return shot.getpixel((int(box["x"] + box["width"]) - 4, int(box["y"] + box["height"]) - 2))


def test_the_section_links_past_the_edge_say_the_line_scrolls_on(browser):
    """At 1280 px a third of the section links lay past the nav's right edge, the last
    cut at 「例」, with nothing to say the line scrolls: a light band marks the edge while
    links lie past it, and none once they are scrolled to or when they fit — without a
    script (the page runs none)."""
    tab = open_tab(browser)
    tab.locator("header a.vocab").click()
    tab.wait_for_load_state()
    nav = "document.querySelector('header nav')"
    assert tab.evaluate(f"{nav}.scrollWidth > {nav}.clientWidth")  # the case reported
    header = tab.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
    plain = tuple(int(n) for n in header[header.index("(") + 1:-1].split(",")[:3])
    banded = _right_edge(tab)
    assert sum(banded) > sum(plain) + 60, (banded, plain)  # lighter than the header
    tab.evaluate(f"{nav}.scrollLeft = {nav}.scrollWidth")
    assert sum(_right_edge(tab)) < sum(plain) + 15
    tab.set_viewport_size({"width": 4000, "height": 900})  # every link fits: no band
    tab.evaluate(f"{nav}.scrollLeft = 0")
    assert sum(_right_edge(tab)) < sum(plain) + 15
    tab.close()


def test_a_pen_on_a_written_face_is_shown_as_a_marked_difference(browser):
    tab = open_tab(browser)
    # the past face's upgrade (the blank future face's pen is written whole, no difference)
    pen = tab.locator("#page-sakamichi .pen").filter(has=tab.locator("li.removed"))
    pen.scroll_into_view_if_needed()
    removed, added = pen.locator("li.removed del"), pen.locator("li.added ins")
    assert removed.count() == 1 and added.count() == 1
    assert removed.inner_text().endswith("攻撃力補正+4") and added.inner_text().endswith("攻撃力補正+6")
    # what marks them is visible: a struck-through old line, a shaded new one, ＋ and －
    assert "line-through" in removed.evaluate("e => getComputedStyle(e).textDecorationLine")
    marks = pen.evaluate("""p => [...p.querySelectorAll('li')].map(
        li => getComputedStyle(li, '::before').content)""")
    assert marks == ['"－"', '"＋"']
    assert tab.locator("#pages .legend ins").is_visible()
    tab.close()


def test_screenshots_at_desktop_and_phone_widths(browser):
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = open_tab(browser, viewport=viewport)
        tab.locator("#page-sakamichi .pen").first.scroll_into_view_if_needed()
        tab.evaluate("window.scrollBy(0, -document.querySelector('header').offsetHeight - 60)")
        pen_shot = Path(f"/tmp/catalog_pen_{name}.png")
        tab.screenshot(path=str(pen_shot), full_page=False)
        tab.locator("#page-surechigai .face a.w", has_text=CROSSING.every).first.click()
        tab.wait_for_load_state()
        assert in_view(tab, "#timing-on_cross")
        vocab_shot = Path(f"/tmp/catalog_vocabulary_{name}.png")
        tab.screenshot(path=str(vocab_shot), full_page=False)
        assert pen_shot.stat().st_size > 10_000 and vocab_shot.stat().st_size > 10_000
        tab.close()
    assert browser.blocked == []
