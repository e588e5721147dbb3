"""The catalog's trigger links (catalog/triggers.py): each card lists what its 作用 set
off and what sets them off, linked to the other cards; triggers.html draws the whole
trigger graph, the same bytes on every build; designer text stays text."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from catalog.render import TRIGGERS, write
from conftest import compiled_tables
from trigger_content import LISTENER, PRODUCER, PRODUCER_NAME, trigger_content


class _Cards(HTMLParser):
    """Per card (its id), the links inside its 誘発する and 誘発される lists."""

    def __init__(self):
        super().__init__()
        self.cards: dict[str, dict[str, list[str]]] = {}
        self._card = self._list = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "article" and a.get("id"):
            self._card = a["id"]
            self.cards[self._card] = {"sets-off": [], "set-off-by": []}
        if tag == "div" and self._card:
            if self._list:
                self._depth += 1
            elif a.get("class") in ("sets-off", "set-off-by"):
                self._list, self._depth = a["class"], 0
        if tag == "a" and self._list:
            self.cards[self._card][self._list].append(a.get("href"))

    def handle_endtag(self, tag):
        if tag == "div" and self._list:
            if self._depth:
                self._depth -= 1
            else:
                self._list = None
        if tag == "article":
            self._card = None


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The catalog of the constructed content, written twice into two folders."""
    root = tmp_path_factory.mktemp("triggers")
    tables = compiled_tables(trigger_content(root / "content"))
    return [write(tables, root / f"out{n}").parent for n in (1, 2)]


def _cards(folder) -> _Cards:
    parser = _Cards()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    return parser


@pytest.mark.slow
def test_the_producers_card_links_the_listener_it_triggers(built):
    cards = _cards(built[0]).cards
    assert cards[f"page-{PRODUCER}"]["sets-off"] == [f"#page-{LISTENER}"]


def test_the_listeners_card_links_the_producers_that_trigger_it(built):
    cards = _cards(built[0]).cards
    # the producer, and 秘密基地 (幼少期), exiled after its play
    assert cards[f"page-{LISTENER}"]["set-off-by"] == [f"#page-{PRODUCER}",
                                                        "#page-himitsu_kichi"]


def test_a_card_with_nothing_to_show_lists_nothing(built):
    """kenka only hits the enemy: 敵HP 0 comes every stage, nothing to list."""
    cards = _cards(built[0]).cards
    assert cards["page-kenka"] == {"sets-off": [], "set-off-by": []}
    assert cards[f"page-{LISTENER}"]["sets-off"] == []


def test_designer_text_in_a_page_name_stays_escaped(built):
    index = (built[0] / "index.html").read_text(encoding="utf-8")
    picture = (built[0] / TRIGGERS).read_text(encoding="utf-8")
    assert PRODUCER_NAME not in index and PRODUCER_NAME not in picture
    # the listener's card names the producer, as text
    assert f'<a href="#page-{PRODUCER}">&lt;script&gt;alert(1)&lt;/script&gt;捨てる</a>' in index


def test_the_picture_draws_the_pair_linked_to_their_cards(built):
    picture = (built[0] / TRIGGERS).read_text(encoding="utf-8")
    assert "<svg" in picture
    for ident in (PRODUCER, LISTENER):
        assert f'index.html#page-{ident}"' in picture
    assert "ページの除外" in picture


def test_the_picture_names_pages_by_their_names_as_text(built):
    # The boxes said the ids (hako, sutero); they say the names, the markup as text.
    picture = (built[0] / TRIGGERS).read_text(encoding="utf-8")
    import html

    from catalog.triggers import fitted

    assert ">箱<" in picture and ">hako<" not in picture
    for line in fitted(PRODUCER_NAME).split("\n"):  # a long name in lines, each as text
        assert f">{html.escape(line, quote=False)}</text>" in picture
    assert ">sutero<" not in picture


@pytest.mark.parametrize("name, shown", [
    ("ターン開始時", "ターン開始時"),
    ("あ" * 14, "あ" * 14),
    ("あ" * 20, "あ" * 14 + "\n" + "あ" * 6),
    ("子守唄" * 19, "子守唄子守唄子守唄子守唄子守\n唄子守唄子守唄子守唄子守唄…"),
])
def test_a_long_name_is_shown_in_two_lines_at_most_in_its_box(name, shown):
    """A 57-character page name ran past the picture's right edge, cut at 「…子守唄子」
    (and under its neighbours' boxes elsewhere): a box shows two lines of 14 at most,
    the rest cut with 「…」; the whole name is on the card the box links to."""
    from catalog.triggers import fitted

    assert fitted(name) == shown


def test_the_picture_is_the_same_bytes_on_every_build(built):
    first, second = ((folder / TRIGGERS).read_bytes() for folder in built)
    assert first == second
