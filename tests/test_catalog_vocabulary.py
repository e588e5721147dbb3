"""The catalog's vocabulary page and what links to it, and pens shown as a difference
(issue 18 items 4 and 6)."""

from __future__ import annotations

import html as html_module
import re

import pytest

from catalog import render as render_module
from catalog.pen_diff import pen_rows
from catalog.phrasing import Piece, body_pieces, text
from catalog.render import render, render_vocabulary
from compiler.build import compile_content
from conftest import bundled_balance
from contract import reference
from contract import vocabulary as vocab
from runtime.tables import from_dicts, load

BALANCE = bundled_balance()


@pytest.fixture(scope="module")
def tables():
    return load()


@pytest.fixture(scope="module")
def vocabulary_html(tables):
    return render_vocabulary(tables)


@pytest.fixture(scope="module")
def index_html(tables):
    return render(tables)


def shown(fragment: str) -> str:
    return html_module.unescape(re.sub(r"<[^>]+>", "", fragment))


def row_of(page: str, anchor: str) -> str:
    start = page.index(f'id="{anchor}"')
    return page[start:page.index("</tr>", start)]


def card_of(page: str, ident: str) -> str:
    start = page.index(f'id="page-{ident}"')
    return page[start:page.index("</article>", start)]


def compiled(tmp_path, pages: str):
    content = tmp_path / "content"
    content.mkdir()
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    (content / "x.page").write_text(
        pages + "デッキ starter { x }\n敵 e { HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1] }\n",
        encoding="utf-8")
    result = compile_content(content)
    assert result.ok, [d.message for d in result.diagnostics]
    return from_dicts(result.tables)


# ------------------------------------------------------------- vocabulary page


def test_the_vocabulary_page_has_every_entry_with_its_meaning(vocabulary_html):
    for entry in reference.entries():
        row = row_of(vocabulary_html, entry.anchor)
        assert entry.meaning and html_module.escape(entry.meaning, quote=False) in row
        assert f">{entry.ja}<" in row and f">{entry.code}<" in row
    sections = {e.section for e in reference.entries()}
    assert {"variable", "counter", "timing", "region", "lifetime", "operation"} <= sections
    # every variable, counter, timing, region, lifetime and operation of the vocabulary
    for terms, section in (((*vocab.VARIABLES, vocab.FLAG), "variable"),
                           (vocab.COUNTERS, "counter"), (vocab.TIMINGS, "timing"),
                           (vocab.REGIONS, "region"), (vocab.LIFETIMES, "lifetime"),
                           (vocab.OPERATIONS, "operation")):
        for term in terms:
            assert f'id="{section}-{term.code}"' in vocabulary_html, (section, term.code)


def test_a_counters_row_shows_its_cell_for_each_scope(vocabulary_html):
    for counter in vocab.COUNTERS:
        row = row_of(vocabulary_html, f"counter-{counter.code}")
        cells = re.findall(r'<td class="cell"[^>]*>(.)</td>', row)
        assert cells == list(counter.cells), counter.code
    assert "E022" in vocabulary_html and "W001" in vocabulary_html  # the legend of the cells


def test_a_vocabulary_row_lists_the_pages_that_use_it(vocabulary_html, tables):
    row = row_of(vocabulary_html, "timing-on_cross")
    users = [p for p in tables.pages.values()
             if any(e.timing == "on_cross" for side in p.faces
                    for e in p.faces[side].effects)]
    assert users
    for page in users:
        assert f'href="index.html#page-{page.id}"' in row


# -------------------------------------------------------------------- term links


def test_every_term_of_a_rules_text_links_to_its_vocabulary_entry(index_html, vocabulary_html):
    links = set(re.findall(r'<a class="w" href="vocabulary\.html#([^"]+)">', index_html))
    assert links, "no rules text term links to the vocabulary page"
    ids = set(re.findall(r'<tr class="entry" id="([^"]+)"', vocabulary_html))
    assert links <= ids, links - ids
    card = card_of(index_html, "tabidachi")
    assert 'href="vocabulary.html#variable-enemy_hp">敵HP</a>' in card
    assert 'href="vocabulary.html"' in index_html.split("</header>")[0]  # the index links it


def test_a_pieces_linked_words_are_the_vocabularys_own(tables):
    # the link text of a variable, counter or timing piece is a word of its entry
    for page in tables.pages.values():
        for side in page.faces:
            for line in body_pieces(page.faces[side]):
                for piece in line:
                    if piece.section in ("counter", "region"):
                        entry = vocab.tables()[piece.section].by_code(piece.code)
                        assert piece.text == entry.ja


def test_designer_text_inside_a_linked_term_stays_text(tmp_path, monkeypatch):
    tables = compiled(tmp_path, 'ページ x {\n 銘 3\n 未来面 { 条件 @夢 >= 1; 敵HP -= 1 }\n'
                                ' 過去面 { @夢 += 1 }\n}\n')
    assert 'href="vocabulary.html#variable-flag">フラグ「夢」</a>' in render(tables)
    # whatever a piece holds is escaped text, in its link or out of it
    hostile = '<script>alert(1)</script>'
    monkeypatch.setattr(render_module, "body_pieces", lambda body, *a: [
        (Piece(hostile, "variable", "flag"), Piece(hostile))])
    page = render(tables)
    assert hostile not in page
    assert page.count(html_module.escape(hostile, quote=False)) >= 2


# ---------------------------------------------------------------------- pen diff


def line(words: str) -> tuple[Piece, ...]:
    return (Piece(words),)


def test_a_pen_difference_marks_kept_removed_and_added_lines():
    before = [line("条件: 歩 ≥ 10"), line("敵HPに 12 のダメージ"), line("防御+5（ターン終了まで）")]
    after = [line("条件: 歩 ≥ 10"), line("敵HPに 20 のダメージ"), line("防御+5（ターン終了まで）"),
             line("歩+4（ターン終了まで）")]
    rows = [(row["mark"], text(row["pieces"])) for row in pen_rows(before, after)]
    assert rows == [("kept", "条件: 歩 ≥ 10"), ("removed", "敵HPに 12 のダメージ"),
                    ("added", "敵HPに 20 のダメージ"), ("kept", "防御+5（ターン終了まで）"),
                    ("added", "歩+4（ターン終了まで）")]
    assert [row["mark"] for row in pen_rows([], after)] == ["added"] * 4


def test_a_pen_on_a_written_face_shows_what_it_changes_and_keeps_the_conditions(tmp_path):
    tables = compiled(tmp_path, 'ページ x {\n 銘 3\n 未来面 { 条件 歩 >= 10; 敵HP -= 12; 防御 += 5 }\n'
                                ' ペン 未来面 { 敵HP -= 20; 防御 += 5 }\n ペン 過去面 { 歩 += 5 }\n}\n')
    card = card_of(render(tables), "x")
    pen = card[card.index('<div class="pen">'):]
    pen = pen[:pen.index("</div>")]
    assert re.search(r'<li class="kept">[^<]*条件: <a[^>]*>歩</a> ≥ 10</li>', pen)
    assert shown(re.search(r"<del>(.*?)</del>", pen).group(1)) == "敵HPに 12 のダメージ"
    assert shown(re.search(r"<ins>(.*?)</ins>", pen).group(1)) == "敵HPに 20 のダメージ"
    assert pen.count('class="kept"') == 2 and pen.count("<del>") == pen.count("<ins>") == 1
    assert "作用列を差し替える" in pen


def test_a_pen_on_a_blank_face_is_all_added(tmp_path):
    tables = compiled(tmp_path, 'ページ x {\n 銘 3\n 未来面 白紙\n ペン 未来面 { 敵HP -= 9 }\n'
                                ' ペン 過去面 { 歩 += 5 }\n}\n')
    card = card_of(render(tables), "x")
    pen = card[card.index('<div class="pen">'):]
    pen = pen[:pen.index("</div>")]
    assert "<del>" not in pen and pen.count("<ins>") == 1 and "白紙の面に書き込む" in pen


def test_a_written_face_without_a_pen_upgrade_says_so(tmp_path):
    """DESIGN §6.2: a written face may have no pen upgrade, and the catalog says 「ペン強化なし」."""
    tables = compiled(tmp_path, 'ページ x {\n 銘 3\n 未来面 { 敵HP -= 9 }\n 過去面 { 防御 += 4 }\n'
                                ' ペン 過去面 { 防御 += 8 }\n}\n')
    card = card_of(render(tables), "x")
    future, past = card.split('class="face past')
    assert '<div class="pen none">ペン強化なし</div>' in future
    assert "ペン強化なし" not in past and "白紙の面に書き込む" not in past


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_the_catalog_folder_is_both_pages_and_deterministic(tmp_path, tables):
    out = tmp_path / "catalog"
    render_module.write(tables, out)
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    render_module.write(tables, out)
    assert first == {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(first) == ["index.html", "pool.csv", "triggers.html", "vocabulary.html"]
    words = first["vocabulary.html"]
    assert b"http" not in words and b"<script" not in words  # nothing to fetch, nothing to run


def test_each_entry_lists_exactly_the_pages_whose_card_links_to_it(index_html, vocabulary_html,
                                                                   tables):
    linked: dict[str, set] = {}
    for page in tables.pages:
        card = card_of(index_html, page)
        for anchor in re.findall(r'<a class="w" href="vocabulary\.html#([^"]+)">', card):
            linked.setdefault(anchor, set()).add(page)
    for entry in reference.entries():
        row = row_of(vocabulary_html, entry.anchor)
        listed = set(re.findall(r'href="index\.html#page-([^"]+)"', row))
        assert listed == linked.get(entry.anchor, set()), entry.anchor


def test_an_enemy_trait_effect_links_its_terms_to_the_vocabulary_page(tables, index_html):
    # 特性 are rules text too: a trait's 作用 says its terms as links, like a page's faces.
    enemy = next(e for e in tables.enemies.values() if e.trait_effects)
    card = index_html[index_html.index(f'id="enemy-{enemy.id}"'):]
    traits = card[card.index("特性: <ul>"):card.index("</ul>")]
    code = enemy.trait_effects[0].target.code
    assert f'href="vocabulary.html#variable-{code}"' in traits
    assert f'href="vocabulary.html#timing-{enemy.trait_effects[0].timing}"' in traits
