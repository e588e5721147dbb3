"""Print and play (issue 29): ``jibunki print`` lays the pages' and enemies' cards on
sheets — poker size, 3 mm bleed, crop marks on the trim lines, mirrored backs — in the
catalog's words, fitted to their boxes, the same bytes for the same content and date.

The bundled content's PDF is printed once (through the command) and read back with
pypdfium2: its raster for the geometry, its text for the words.
"""

from __future__ import annotations

import dataclasses
import re

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, compiled_tables, invoke_cli
from printing.cards import Card, Section
from printing.layout import MARK_WIDTH, PAPERS, Geometry, place

DATE = "2026-12-01"
#: Raster scale (pixels per PDF point) and what one millimetre is in pixels at it.
SCALE = 4
PX_MM = SCALE * 72 / 25.4


def _squeezed(text: str) -> str:
    """Text without whitespace: a wrapped line reads the same as the unwrapped one."""
    return re.sub(r"\s+", "", text)


def _page_text(pdf, index: int) -> str:
    return pdf[index].get_textpage().get_text_range()


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The bundled content printed by ``jibunki print`` (A4, backs), opened."""
    import pypdfium2

    out = tmp_path_factory.mktemp("print") / "sub" / "札.pdf"
    result = invoke_cli("print", "--content", str(ROOT / "content"), "--out", str(out),
                        "--date", DATE)
    assert result.exit_code == 0, result.output
    return {"pdf": pypdfium2.PdfDocument(out.read_bytes()), "output": result.output,
            "bytes": out.read_bytes()}


@pytest.fixture(scope="module")
def tables():
    return compiled_tables(ROOT / "content")


def _dark_runs(values) -> list[float]:
    """Centres (in pixels) of the runs of True in ``values``."""
    runs, start = [], None
    for i, dark in enumerate(list(values) + [False]):
        if dark and start is None:
            start = i
        elif not dark and start is not None:
            runs.append((start + i - 1) / 2)
            start = None
    return runs


def _gray(pdf, index: int):
    import numpy

    return numpy.asarray(pdf[index].render(scale=SCALE).to_pil().convert("L"))


@pytest.mark.slow
def test_print_says_where_and_how_many(printed, tables):
    cards = len(tables.pages) + len(tables.enemies)
    sheets = -(-cards // 9)
    assert len(printed["pdf"]) == 2 * sheets
    assert f"札 {cards} 枚" in printed["output"]
    # the paper a designer loads: sheets printed on both sides (ページ is the game's card)
    assert f"A4 用紙 {sheets} 枚（両面）（PDF で {2 * sheets} ページ）" in printed["output"]
    assert "札.pdf" in printed["output"] and printed["bytes"].startswith(b"%PDF")


@pytest.mark.slow
def test_every_page_is_a4(printed):
    for page in printed["pdf"]:
        width, height = page.get_size()
        assert abs(width / 72 * 25.4 - 210) < 0.2 and abs(height / 72 * 25.4 - 297) < 0.2


@pytest.mark.slow
def test_crop_marks_stand_on_the_trim_lines_of_poker_cards_with_3mm_bleed(printed):
    gray = _gray(printed["pdf"], 0)
    # top margin: the vertical marks on every x trim line (A4: the grid starts 7.5 mm down)
    xs = [x / PX_MM for x in _dark_runs(gray[round(4.5 * PX_MM)] < 100)]
    assert len(xs) == 6
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    across, down = Geometry().gutters()  # A4: 2 mm between columns, 6 between rows
    assert all(abs(g - w) < 0.2 for g, w in zip(gaps, [63, across, 63, across, 63])), gaps
    # left margin: the horizontal marks on every y trim line
    ys = [y / PX_MM for y in _dark_runs(gray[:, round(0.5 * PX_MM)] < 100)]
    assert len(ys) == 6
    gaps = [b - a for a, b in zip(ys, ys[1:])]
    assert all(abs(g - h) < 0.2 for g, h in zip(gaps, [88, down, 88, down, 88])), gaps
    # the bleed: the card's colour starts 3 mm outside its trim
    row = gray[round((ys[0] + 40) * PX_MM)]
    left = next(i for i, v in enumerate(row) if v < 250) / PX_MM
    assert abs((xs[0] - left) - 3) < 0.2
    column = gray[:, round((xs[0] + 30) * PX_MM)]
    top = next(i for i, v in enumerate(column[round(PX_MM):], round(PX_MM))
               if v < 250) / PX_MM
    assert abs((ys[0] - top) - 3) < 0.2


def _faces_text(printed) -> str:
    """The words of every sheet of faces (with backs, every other page), squeezed."""
    pdf = printed["pdf"]
    return "".join(_squeezed(_page_text(pdf, i)) for i in range(0, len(pdf), 2))


@pytest.mark.slow
def test_cards_say_the_catalogs_words(printed, tables):
    """Each card says its page's rules text as the catalog does, the pages it names by
    their names (a playtester holding paper has no link to follow from an id)."""
    from catalog.phrasing import body_pieces, named, phrase_pieces
    from catalog.phrasing import text as plain
    from catalog.render import page_names

    names = page_names(tables)

    def lines(body, timing="on_play"):
        return [plain(named(line, names)) for line in body_pieces(body, timing)]

    text = _faces_text(printed)
    for page in tables.pages.values():
        assert _squeezed(page.name) in text and _squeezed(page.flavor) in text
        for face in page.faces.values():
            for line in lines(face) if face.written else ():
                assert _squeezed(line) in text, (page.id, line)
        for pen in page.pens.values():
            for line in lines(pen) if pen else ():
                assert _squeezed(line) in text, (page.id, line)
        for effect in page.tear or ():
            assert _squeezed(plain(named(phrase_pieces(effect, default_timing="on_tear"),
                                         names))) in text, page.id
    assert "自分紀" in text and DATE in text
    assert "「入学式」の銘を40にする" in text and "nyuugaku" not in text


@pytest.mark.slow
def test_enemy_cards_say_hp_seat_and_intents(printed, tables):
    from catalog.render import INTENT_TEXT

    text = _faces_text(printed)
    for enemy in tables.enemies.values():
        assert _squeezed(enemy.name) in text
        assert f"座{enemy.seat}HP{enemy.hp}突破ライン{enemy.breakthrough}" in text
        intents = "→".join(_squeezed(INTENT_TEXT[i.kind](i)) for i in enemy.intents)
        assert f"予兆{intents}" in text, enemy.id


@pytest.mark.slow
def test_same_content_and_date_print_the_same_bytes(printed, tmp_path):
    out = tmp_path / "again.pdf"
    result = invoke_cli("print", "--content", str(ROOT / "content"), "--out", str(out),
                        "--date", DATE)
    assert result.exit_code == 0
    assert out.read_bytes() == printed["bytes"]


@pytest.mark.slow
def test_the_version_stamp_is_the_contents_whatever_the_folders_name(content, tmp_path):
    """The 版 on every card: the same content gives the same one in a folder of another
    name (the tables' source paths begin with the folder's name) and with a page moved
    down its file; a changed card gives another."""
    import shutil

    from commands.print_pdf import content_digest
    from compiler.build import compile_content

    renamed = tmp_path / "elsewhere" / "試作"
    shutil.copytree(content, renamed)
    youth = renamed / "pages" / "青年期.page"
    youth.write_text("\n\n" + youth.read_text(encoding="utf-8"), encoding="utf-8")
    stamp = content_digest(compile_content(content).tables)
    moved = compile_content(renamed)
    assert moved.tables["pages"]["pages"]["arubaito"]["source"]["path"] == "試作/pages/青年期.page"
    assert content_digest(moved.tables) == stamp
    youth.write_text(youth.read_text(encoding="utf-8").replace("敵HP -= 4", "敵HP -= 5"),
                     encoding="utf-8")
    assert content_digest(compile_content(renamed).tables) != stamp


# ----------------------------------------------------------- small prints, rendered directly

def _card(key: str, title: str, lines=("敵HPに 5 のダメージ",), kind="page") -> Card:
    return Card(key=key, kind=kind, title=title, badges=(("銘", "12"),),
                sections=(Section("未来面", tuple(lines)),), mark=12, mark_top=80)


@pytest.mark.slow
def test_the_characters_no_font_has_are_read_from_the_layout_per_card():
    from printing.sheets import PrintOptions, render

    missing, other = "\U000f0000", "\U0010fffd"  # private use: no font has either
    cards = [_card("page/a", "一"), _card("page/b", f"二{missing}", (f"敵HPに{other} 5",)),
             _card("page/c", "三"), _card("page/d", f"四{other}")]
    printed = render(cards, PrintOptions(date=DATE))
    assert printed.unknown == {1: (missing, other), 3: (other,)}
    assert printed.pdf.startswith(b"%PDF")


@pytest.mark.slow
def test_backs_are_mirrored_row_by_row():
    import pypdfium2

    from printing.sheets import PrintOptions, render_pdf

    cards = [_card("page/a", "一", kind="page"), _card("enemy/b", "二", kind="enemy"),
             _card("event/c", "三", kind="event")]
    pdf = pypdfium2.PdfDocument(render_pdf(cards, PrintOptions(date=DATE)))
    assert len(pdf) == 2

    def x_of(index: int, word: str) -> float:
        page = pdf[index].get_textpage()
        found = page.search(word).get_next()
        assert found, word
        return page.get_charbox(found[0])[0]

    front = [x_of(0, t) for t in ("一", "二", "三")]
    back = [x_of(1, w) for w in ("ページ", "敵", "イベント")]
    assert front == sorted(front) and back == sorted(back, reverse=True)
    width = pdf[0].get_size()[0]
    # each back stands where its face is, seen through the sheet
    for f, b in zip(front, back):
        assert abs((width - b) - f) < 63 * 72 / 25.4


def test_the_back_places_mirror_each_row():
    geometry = Geometry()
    assert [place(i, geometry, back=True) for i in range(9)] == \
        [(0, 2), (0, 1), (0, 0), (1, 2), (1, 1), (1, 0), (2, 2), (2, 1), (2, 0)]


def test_a_narrow_gutter_is_shared_half_and_half():
    geometry = Geometry()  # A4: three cards with their bleeds and marks are wider than it
    across, down = geometry.gutters()
    assert 0 < across < 2 * geometry.bleed and down == 2 * geometry.bleed
    assert geometry.bleeds(0, 0) == (3.0, 3.0, across / 2, 3.0)
    assert geometry.bleeds(1, 1) == (across / 2, 3.0, across / 2, 3.0)
    # the margins keep room for the whole crop marks
    assert all(max(w, h) >= geometry.crop - 1e-9 for _, _, w, h in geometry.crop_marks())


@pytest.mark.parametrize("paper, crop, said", [
    ("A4", 0.0, []),  # marks take no margin: the whole bleed everywhere
    ("A4", 5.0, ["塗り足し: 外周 3 mm、札の間は左右 1 mm・上下 3 mm（用紙に入るだけ）。"]),
    ("A4", 6.0, ["塗り足し: 外周 3 mm、札の間は左右 0.5 mm・上下 3 mm（用紙に入るだけ）。",
                 "トンボ 6 mm の余白のぶん、札の間の塗り足しが減りました（既定の --crop-mark 5 "
                 "なら左右 1 mm・上下 3 mm）。"]),
    ("A4", 20.0, ["塗り足し: 外周 3 mm、札の間は左右 0 mm・上下 0 mm（用紙に入るだけ。0 mm の"
                  "札の間は隣の札と裁ち線を共有し、一度の裁ちで両方を切ります）。",
                  "トンボ: 20 mm のうち余白に入るだけ、左右の余白に 7 mm・上下の余白に 13 mm。",
                  "トンボ 20 mm の余白のぶん、札の間の塗り足しが減りました（既定の --crop-mark 5 "
                  "なら左右 1 mm・上下 3 mm）。"]),
    ("Letter", 5.0, ["塗り足し: 外周 3 mm、札の間は左右 2.4 mm・上下 0 mm（用紙に入るだけ。0 mm の"
                     "札の間は隣の札と裁ち線を共有し、一度の裁ちで両方を切ります）。",
                     "トンボ: 5 mm のうち余白に入るだけ、左右の余白に 5 mm・上下の余白に 4.2 mm。"]),
])
def test_the_print_says_the_bleed_and_marks_the_sheet_really_has(paper, crop, said):
    """The paper cannot give 3 mm of bleed between three cards on A4's width or Letter's
    height, nor always the marks' length: the print says what each sheet has — the help
    said 「塗り足し 3 mm」, and a long --crop-mark was said at its asked length where the
    margins drew 7 mm — and the figures are the layout's own."""
    from commands.print_pdf import layout_said

    assert layout_said(paper, crop) == said
    geometry = Geometry(paper=PAPERS[paper], crop=crop)
    inner = geometry.inner_bleeds()
    assert inner == (geometry.bleeds(1, 1)[0], geometry.bleeds(1, 1)[1])
    drawn = {round(max(w, h), 6) for _, _, w, h in geometry.crop_marks()}
    assert drawn <= {round(length, 6) for length in geometry.mark_lengths()}


def test_the_help_s_bleed_is_the_default_sheets():
    from commands.print_pdf import layout_said, print_cmd, tenths

    help_text = "".join(print_cmd.help.split())
    for paper in PAPERS:
        inner = Geometry(paper=PAPERS[paper]).inner_bleeds()
        figures = f"{paper}は左右{tenths(inner[0]):g}mm・上下{tenths(inner[1]):g}mm"
        assert figures in help_text, figures
        assert f"札の間は左右 {tenths(inner[0]):g} mm・" in layout_said(paper, 5.0)[0]
    assert tenths(2.475) == 2.4 and tenths(4.199999999999989) == 4.2  # never said longer


def test_letter_keeps_the_trim_size_and_fits_the_paper():
    geometry = Geometry(paper=PAPERS["Letter"])
    xs, ys = geometry.trim_lines()
    tops = [geometry.trim(r, 0)[1] for r in range(3)]
    # Letter is too short for gutters between the rows: they share their cut lines
    assert geometry.gutters()[1] == 0 and len(ys) == 4
    assert [round(b - a, 3) for a, b in zip(tops, tops[1:])] == [88, 88]
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])][::2] == [63, 63, 63]
    assert ys[0] - geometry.bleed >= 1.0 and ys[-1] + geometry.bleed <= 279.4 - 1.0


@pytest.mark.slow
def test_letter_pages_are_letter_sized():
    import pypdfium2

    from printing.sheets import PrintOptions, render_pdf

    pdf = pypdfium2.PdfDocument(render_pdf([_card("page/a", "一")],
                                           PrintOptions(paper="Letter", backs=False)))
    width, height = pdf[0].get_size()
    assert abs(width / 72 * 25.4 - 215.9) < 0.2 and abs(height / 72 * 25.4 - 279.4) < 0.2


@pytest.mark.slow
def test_long_text_is_made_smaller_until_it_fits_and_stays_in_its_box():
    from printing.fitting import overflowing
    from printing.sheets import SIZES, PrintOptions, fitted_sizes, html, laid_out

    long = [f"{n}: このステージ中、毎ターン開始時に 防御+3（ターン終了まで）" for n in range(9)]
    cards = [_card("page/long", "長い札", long), _card("page/short", "短い札")]
    options = PrintOptions(backs=False)
    sizes = fitted_sizes(cards, options)
    assert SIZES[-1] <= sizes[0] < SIZES[0] and sizes[1] == SIZES[0]
    assert overflowing(laid_out(html(cards, options, sizes))) == set()
    # at the first size, it did overflow: the fitting is what keeps it in
    assert overflowing(laid_out(html(cards, options))) == {0}


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_every_card_that_cannot_fit_fails_naming_it():
    from printing.sheets import CardOverflow, PrintOptions, render_pdf

    absurd = ["とても長いルール文がここに続きます。" * 4] * 40
    with pytest.raises(CardOverflow) as caught:
        render_pdf([_card("page/absurd", "終わらない札", absurd), _card("page/fine", "短い札"),
                    _card("page/again", "これも長い札", absurd)], PrintOptions())
    said = str(caught.value).splitlines()
    assert len(said) == 2
    assert "（ページ absurd）" in said[0] and "終わらない札" in said[0]
    assert "（ページ again）" in said[1] and "これも長い札" in said[1]


@pytest.mark.slow  # a second or more
def test_changed_cards_carry_the_mark_and_extra_pages_follow():
    import pypdfium2

    from printing.sheets import PrintOptions, render_pdf

    cards = [_card("page/a", "一"), _card("page/b", "二")]
    pdf = pypdfium2.PdfDocument(render_pdf(cards, PrintOptions(
        backs=False, changed=frozenset({"page/b"}), extra=("変更の一覧\n二: 書き換え",))))
    assert len(pdf) == 2
    assert _page_text(pdf, 0).count("変更") == 1
    assert "変更の一覧" in _page_text(pdf, 1)


def test_designer_text_is_never_markup():
    from printing.sheets import PrintOptions, html

    page = html([_card("page/x", "<b>太字</b>")], PrintOptions())
    assert "<b>太字" not in page and "&lt;b&gt;太字" in page


@pytest.mark.slow
def test_small_prints_are_deterministic():
    from printing.sheets import PrintOptions, render_pdf

    cards = [_card("page/a", "一"), _card("enemy/b", "二", kind="enemy")]
    options = PrintOptions(version="abc", date=DATE)
    assert render_pdf(cards, options) == render_pdf(cards, options)


def test_a_symlinked_out_is_refused_before_rendering(tmp_path):
    elsewhere = tmp_path / "elsewhere.pdf"
    elsewhere.write_bytes(b"keep")
    link = tmp_path / "link.pdf"
    link.symlink_to(elsewhere)
    result = invoke_cli("print", "--content", str(ROOT / "content"), "--out", str(link))
    assert result.exit_code == 1 and "PDF を書けません" in result.output
    assert elsewhere.read_bytes() == b"keep"


def test_the_paper_is_said_in_sheets_a_designer_loads():
    from commands.print_pdf import paper_said

    assert paper_said("A4", 16, 16, True) == "A4 用紙 8 枚（両面）（PDF で 16 ページ）"
    assert paper_said("A4", 16, 17, True) == "A4 用紙 8 枚（両面）と変更一覧 1 枚（PDF で 17 ページ）"
    assert paper_said("Letter", 8, 8, False) == "Letter 用紙 8 枚（片面）（PDF で 8 ページ）"
    # a change list of two sides takes one sheet printed on both sides, two on one side
    assert paper_said("A4", 16, 18, True) == "A4 用紙 8 枚（両面）と変更一覧 1 枚（PDF で 18 ページ）"
    assert paper_said("A4", 8, 10, False) == "A4 用紙 8 枚（片面）と変更一覧 2 枚（PDF で 10 ページ）"


@pytest.mark.parametrize("written, said", [
    ("12/01/2026", "YYYY-MM-DD"), ("20260101", "YYYY-MM-DD"), ("2026-W01-1", "YYYY-MM-DD"),
    # written so, but no such day: told so, not told the form it has
    ("2026-13-01", "その日はありません"), ("2026-02-30", "その日はありません"),
    ("0000-01-01", "その日はありません（年は 0001〜9999")])
def test_a_bad_date_is_a_usage_error(written, said, tmp_path):
    """The date is written as the help says, YYYY-MM-DD (Python's reader alone also took
    20260101 and week dates)."""
    out = tmp_path / "札.pdf"  # were it read, nothing lands in the project's generated/
    result = invoke_cli("print", "--date", written, "--out", str(out))
    assert result.exit_code == 2 and said in result.output
    assert not out.exists()


def test_a_pdf_name_of_blanks_is_a_usage_error(tmp_path):
    """``--out "w/ .pdf"`` wrote 「 .pdf」 and 「 .manifest.json」 (``--out w/.pdf`` is
    refused as no PDF's name)."""
    out = tmp_path / " .pdf"
    result = invoke_cli("print", "--out", str(out))
    assert result.exit_code == 2 and "「 .pdf」は名前のない .pdf です" in result.output
    assert not out.exists()
    # ".pdf" alone (a hidden file without a suffix) was told to be named 「.pdf.pdf」
    out = tmp_path / ".pdf"
    result = invoke_cli("print", "--out", str(out))
    assert result.exit_code == 2 and "「.pdf」は名前のない .pdf です" in result.output
    assert not out.exists()


def test_a_date_typed_in_full_width_digits_is_that_date():
    """２０２６－０１－０２ (a Japanese keyboard's digits) was 「その日はありません」."""
    from commands.print_pdf import _date

    assert _date("２０２６－０１－０２") == _date("2026−01−02") == "2026-01-02"


@pytest.mark.slow
def test_a_page_too_long_to_print_fails_naming_it(content, tmp_path):
    (content / "pages" / "長すぎ.page").write_text(
        'ページ nagasugi "長すぎる札" {\n  銘 30\n  出自 青年期\n'
        f'  フレーバー "{"とても長い思い出の文がここに続いている。" * 60}"\n'
        "  未来面 {\n    通貨 += 5\n  }\n  過去面 {\n    通貨 += 5\n  }\n}\n",
        encoding="utf-8")
    out = tmp_path / "x.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "（ページ nagasugi）" in result.output and "長すぎる札" in result.output
    assert not out.exists()


@pytest.mark.slow
def test_cards_are_set_in_noto_sans_cjk_jp(printed):
    import ctypes

    import pypdfium2.raw as raw

    textpage = printed["pdf"][0].get_textpage()
    names = set()
    for index in range(0, textpage.count_chars(), 7):
        buffer = ctypes.create_string_buffer(256)
        raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, 256, ctypes.byref(ctypes.c_int()))
        names.add(buffer.value.decode("ascii").split("+")[-1])
    names.discard("")  # a line break pdfium adds has no font
    assert names and all(name.startswith("Noto-Sans-CJK-JP") for name in names), names


@settings(max_examples=60, deadline=None)
@given(paper=st.sampled_from(sorted(PAPERS)), crop=st.floats(0, 20),
       bleed=st.floats(0, 4), width=st.floats(40, 66), height=st.floats(60, 89))
def test_cards_stay_on_the_paper_and_never_overlap_their_trims(paper, crop, bleed, width, height):
    geometry = Geometry(paper=PAPERS[paper], card=(width, height), bleed=bleed, crop=crop)
    xs, ys = geometry.trim_lines()
    assert xs[0] - bleed >= 0.999 and xs[-1] + bleed <= geometry.paper[0] - 0.999
    assert ys[0] - bleed >= 0.999 and ys[-1] + bleed <= geometry.paper[1] - 0.999
    # the next card's trim starts where the last one's ends or after (shared cut lines)
    lefts = [geometry.trim(0, c)[0] for c in range(geometry.cols)]
    tops = [geometry.trim(r, 0)[1] for r in range(geometry.rows)]
    assert all(b - a >= width - 1e-9 for a, b in zip(lefts, lefts[1:]))
    assert all(b - a >= height - 1e-9 for a, b in zip(tops, tops[1:]))
    for x, y, w, h in geometry.crop_marks():
        assert 0 <= x and x + w <= geometry.paper[0] + 1e-9 and 0 <= y \
            and y + h <= geometry.paper[1] + 1e-9 and min(w, h) <= MARK_WIDTH + 1e-9 \
            and (h if w == MARK_WIDTH else w) <= crop + 1e-9
        # a mark stands in the margin, never on a card's bleed
        assert x + w <= xs[0] - bleed or x >= xs[-1] + bleed \
            or y + h <= ys[0] - bleed or y >= ys[-1] + bleed


@given(index=st.integers(0, 8))
def test_a_back_mirrored_twice_is_its_face(index):
    geometry = Geometry()
    row, col = place(index, geometry, back=True)
    assert place(row * geometry.cols + col, geometry, back=True) == place(index, geometry)


def test_the_stamped_date_is_the_option_else_source_date_epoch(monkeypatch):
    from commands.print_pdf import _date

    assert _date("2026-12-01") == "2026-12-01"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert _date(None) == "1970-01-01"
    for epoch, says in (("soon", "秒数（整数）ではありません"),
                        ("99999999999999999", "秒数が日付にできる範囲の外です（西暦 1〜9999 年）"),
                        # negative: it was said to be too large
                        ("-99999999999999", "秒数が日付にできる範囲の外です（西暦 1〜9999 年）")):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        with pytest.raises(click.UsageError, match=re.escape(f"SOURCE_DATE_EPOCH={epoch}: {says}")):
            _date(None)


def test_content_with_errors_prints_them_and_writes_nothing(content, tmp_path):
    page = content / "pages" / "壊れ.page"
    page.write_text('ページ koware "壊れ" {\n  銘 30\n  未来面 {\n    HP -= 5\n  }\n}\n',
                    encoding="utf-8")
    out = tmp_path / "x.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1 and "PDF を書きませんでした" in result.output
    assert "壊れ.page" in result.output and not out.exists()


def test_the_command_line_starts_without_the_renderer():
    from conftest import loaded_by

    assert loaded_by("import cli", ("weasyprint", "pypdfium2", "jinja2", "printing.sheets")) == []

@pytest.mark.slow
def test_an_out_ending_in_a_slash_or_naming_a_folder_is_where_the_pdf_goes(tmp_path):
    from conftest import small_content

    folder, content = tmp_path / "new", small_content(tmp_path / "c")
    result = invoke_cli("print", "--content", str(content), "--no-backs",
                        "--out", f"{folder}/")
    assert result.exit_code == 0, result.output
    assert folder.is_dir() and (folder / "自分紀.pdf").read_bytes().startswith(b"%PDF")
    assert (folder / "自分紀.manifest.json").is_file()
    # printed again into the folder now there, with or without the slash: the same file,
    # its cards compared with the first print's
    for again in (f"{folder}/", str(folder)):
        result = invoke_cli("print", "--content", str(content), "--no-backs", "--out", again)
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["自分紀.manifest.json", "自分紀.pdf"]


def test_a_card_says_where_its_page_goes_after_play_its_deck_limit_and_when_it_appears(tmp_path):
    """A playtester at the table has only the card: a page that leaves the game after its
    play (行き先), a deck limit of its own (上限枚数) and an 出現条件 are on it, as in the
    catalog; a page with the rules every page has says none of them."""
    from conftest import compiled_tables, small_content
    from printing.page_cards import page_cards

    content = small_content(tmp_path / "content")
    (content / "pages" / "試験.page").write_text(
        'ページ nagai "長い一日" {\n  銘 30\n  出自 少年期\n  行き先 除外（ラン）\n  上限枚数 1\n'
        '  出現条件 クリアしたステージ数 >= 2\n  未来面 { 敵HP -= 3 }\n  過去面 { 歩 += 1 }\n}\n',
        encoding="utf-8")
    cards = {card.key: card for card in page_cards(compiled_tables(content))}
    card = cards["page/nagai"]
    assert ("プレイ後", "除外（ラン）") in card.badges
    assert ("デッキ内上限", "1 枚") in card.badges
    appears = next(s for s in card.sections if s.heading == "出現条件")
    assert appears.lines == ("クリアしたステージ数 ≥ 2",)
    plain = cards["page/hatsu_koe"]
    assert [label for label, _ in plain.badges] == ["銘", "綻び倍率", "出自"]
    assert all(s.heading != "出現条件" for s in plain.sections)


@pytest.mark.slow
def test_a_tinted_card_is_framed_in_its_colour_on_its_face_and_not_on_its_back():
    """A draft 17 play card shows its suit at its edge (its frame), and a face-down deck
    does not: every back of a kind is alike, whatever its face's colour."""
    import numpy
    import pypdfium2

    from printing.cards import TINTS
    from printing.sheets import PrintOptions, render_pdf

    cards = [dataclasses.replace(_card("event/a", "一", kind="event"), tint="red",
                                 corner=("1", "星")),
             dataclasses.replace(_card("event/b", "二", kind="event"), tint="blue",
                                 corner=("2", "月")),
             _card("event/c", "三", kind="event")]
    pdf = pypdfium2.PdfDocument(render_pdf(cards, PrintOptions(date=DATE)))
    geometry = Geometry()

    def frame(page: int, slot: int, back: bool) -> tuple[int, ...]:
        image = numpy.asarray(pdf[page].render(scale=SCALE).to_pil().convert("RGB"))
        x, y = geometry.trim(*place(slot, geometry, back=back))
        px = lambda mm: round(mm / 25.4 * 72 * SCALE)  # noqa: E731
        return tuple(int(v) for v in image[px(y + 40), px(x + 1.2)])  # in the border

    def hex_rgb(code: str) -> tuple[int, ...]:
        return tuple(int(code[i:i + 2], 16) for i in (1, 3, 5))

    def near(a, b) -> bool:
        return max(abs(p - q) for p, q in zip(a, b)) <= 6

    plain = hex_rgb("#c9d6e3")  # the journey kinds' frame (sheets.css.j2)
    assert near(frame(0, 0, False), hex_rgb(TINTS["red"][0]))
    assert near(frame(0, 1, False), hex_rgb(TINTS["blue"][0]))
    assert near(frame(0, 2, False), plain)
    assert all(near(frame(1, n, True), plain) for n in range(3))
    # the corner's index is printed: its number is in the face's words
    assert _squeezed(_page_text(pdf, 0)).count("星") == 1


@pytest.mark.slow
def test_a_locations_many_card_icons_wrap_and_push_its_words_down_never_over_them():
    """枠 has no upper bound in the content: a location of 24 card icons draws them in
    rows, and its words start below the last row (not under the icons)."""
    import pypdfium2

    from printing.sheets import PrintOptions, render_pdf

    def flavour_top(icons: int) -> float:
        card = dataclasses.replace(_card("location/a", "駅", kind="location"),
                                   flavour="最後の行", card_icons=(False,) * icons)
        pdf = pypdfium2.PdfDocument(render_pdf([card], PrintOptions(date=DATE, backs=False)))
        page = pdf[0].get_textpage()
        found = page.search("最後の行").get_next()
        assert found
        return page.get_charbox(found[0])[3]  # the top, in points from the bottom

    one, many = flavour_top(1), flavour_top(24)
    row = (5.6 + 0.8) * 72 / 25.4
    assert one - many >= 2 * row - 1  # at least two rows more, each pushing the words down
