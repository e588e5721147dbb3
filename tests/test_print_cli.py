"""``jibunki print`` as a designer uses it between playtests (issue 29): the draft 17 set
(``--journey``), the 「変更」 mark on exactly the cards that changed since the last print
with the change list on its last page, a rebuild at every save (``--watch``), and the
catalog's link from each card to its printable face.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from conftest import ROOT, invoke_cli, small_content
from test_watch import Watched

SCALE = 2


def _texts(pdf) -> list[str]:
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def _cell_of(pdf, page: int, needle: str, geometry) -> tuple[int, int] | None:
    """The (row, col) of the card cell of ``page`` holding ``needle``'s first character."""
    text = pdf[page].get_textpage()
    found = text.search(needle)
    hit = found.get_next()
    if hit is None:
        return None
    left, bottom, right, top = text.get_charbox(hit[0])
    height = pdf[page].get_height()
    x_mm, y_mm = left * 25.4 / 72, (height - top) * 25.4 / 72
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            x, y = geometry.trim(row, col)
            if x <= x_mm <= x + geometry.card[0] and y <= y_mm <= y + geometry.card[1]:
                return row, col
    return None


@pytest.mark.slow
def test_the_change_mark_is_on_exactly_the_changed_card_and_the_list_names_it(tmp_path):
    import pypdfium2

    from printing.sheets import PrintOptions

    content = small_content(tmp_path / "content")
    out = tmp_path / "print" / "札.pdf"
    first = invoke_cli("print", "--content", str(content), "--out", str(out), "--date",
                       "2026-12-01")
    assert first.exit_code == 0, first.output
    assert "変更" not in "".join(_texts(pypdfium2.PdfDocument(out.read_bytes())))
    kept = json.loads(out.with_name("札.manifest.json").read_text(encoding="utf-8"))
    assert kept["date"] == "2026-12-01" and len(kept["cards"]) == 11

    page = content / "pages" / "幼少期.page"
    text = page.read_text(encoding="utf-8")
    edited = text.replace("ペン 未来面 { 歩 += 8 }", "ペン 未来面 { 歩 += 9 }", 1)
    assert edited != text  # 産声 (hatsu_koe): one number of the pen of its 未来面
    page.write_text(edited, encoding="utf-8")
    second = invoke_cli("print", "--content", str(content), "--out", str(out), "--date",
                        "2026-12-02")
    assert second.exit_code == 0, second.output
    assert "変更 1 枚・追加 0 枚・削除 0 枚" in second.output
    pdf = pypdfium2.PdfDocument(out.read_bytes())
    texts = _texts(pdf)
    marked = [i for i, t in enumerate(texts[:-1]) if "変更" in t]
    assert len(marked) == 1 and texts[marked[0]].count("変更") == 1
    geometry = PrintOptions().geometry
    cards = json.loads(out.with_name("札.manifest.json").read_text(encoding="utf-8"))["cards"]
    on_sheet = [c for c in cards if c["page"] == marked[0] + 1]
    cell = _cell_of(pdf, marked[0], "変更", geometry)
    assert cell is not None
    [holder] = [c for c in on_sheet if _cell_of(pdf, marked[0], c["title"], geometry) == cell]
    assert holder["key"] == "page/hatsu_koe"
    assert texts[-1].startswith("変更一覧")
    assert "産声（ページ hatsu_koe）" in texts[-1]
    # the pages said are the PDF's, the change list's counted (it said one fewer)
    sheets = (len(pdf) - 1) // 2
    assert f"A4 用紙 {sheets} 枚（両面）と変更一覧 1 枚（PDF で {len(pdf)} ページ）" in second.output
    assert f"A4 用紙 {sheets} 枚（両面）（PDF で {len(pdf) - 1} ページ）" in first.output


@pytest.mark.slow
def test_an_unreadable_manifest_of_ours_counts_every_card_added_as_its_warning_says(tmp_path):
    """A manifest of an older version (or damaged) is read as no previous print: the
    warning said 「全カードを追加として数えます」, and the print marked none and listed
    none. Every card is marked and listed as added: reprinting all loses nothing."""
    import pypdfium2

    content = small_content(tmp_path / "content")
    out = tmp_path / "print" / "札.pdf"
    args = ("print", "--content", str(content), "--out", str(out), "--date", "2026-12-01")
    assert invoke_cli(*args).exit_code == 0
    kept = out.with_name("札.manifest.json")
    older = kept.read_text(encoding="utf-8").replace('"version": 1', '"version": 0', 1)
    assert older != kept.read_text(encoding="utf-8")
    kept.write_text(older, encoding="utf-8")
    again = invoke_cli(*args)
    assert again.exit_code == 0, again.output
    assert "全カードに「変更」の印を付けます" in again.output
    assert "前回の印刷の控えを読めないので、すべて追加として: 変更 0 枚・追加 11 枚・削除 0 枚" \
        in again.output
    texts = _texts(pypdfium2.PdfDocument(out.read_bytes()))
    assert texts[-1].startswith("変更一覧")
    assert "控えを読めないので印を付けました" in texts[-1] and "新しく加わりました" not in texts[-1]
    assert sum(t.count("変更") for t in texts[:-1] if not t.startswith("変更一覧")) == 11


@pytest.mark.slow
def test_journey_prints_the_draft_17_set(tmp_path):
    import pypdfium2

    out = tmp_path / "草案17.pdf"
    result = invoke_cli("print", "--journey", "--content", str(ROOT / "content"), "--out",
                        str(out), "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert "札 50 枚" in result.output and "イベント 30" in result.output
    pdf = pypdfium2.PdfDocument(out.read_bytes())
    text = "".join(_texts(pdf)).replace("\r\n", "")
    for name in ("彼方へ至るトンボロ 1", "歯車塔の千年歌姫 6", "早見表", "ランタン"):
        assert name in text
    # the cards are of the draft's game, not of jibunki's: their backs, stamps and title
    assert "自分紀" not in text
    assert re.sub(r"\s", "", _texts(pdf)[1]).count("明日、旅に出ますイベント") == 9  # the backs
    # on one line, set smaller than 自分紀 (it broke after 出)
    assert len(re.findall("明 ?日 ?、 ?旅 ?に ?出 ?ま ?す", _texts(pdf)[1])) == 9
    assert f"明日、旅に出ます {re.search(r'版 ([0-9a-f]{8})', result.output)[1]} 2026-12-01" \
        in text
    assert pdf.get_metadata_dict()["Title"] == "明日、旅に出ます 印刷シート"


@pytest.mark.slow
def test_journey_prints_the_set_up_named_with_setup_into_its_own_file(tmp_path, monkeypatch):
    """--setup 問題点: that variant's always-on items with their 費用 and its 早見表, by id
    or 名前, in 草案17-問題点.pdf beside the draft's print (each its own manifest)."""
    import json

    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").symlink_to(ROOT / "content")
    result = invoke_cli("print", "--journey", "--setup", "問題点", "--date", "2026-12-01",
                        "--no-backs")
    assert result.exit_code == 0, result.output
    made = tmp_path / "generated" / "print" / "草案17-問題点.manifest.json"
    keys = [card["key"] for card in json.loads(made.read_text(encoding="utf-8"))["cards"]]
    assert "item/問題点のランタン" in keys and "item/ランタン" not in keys
    assert (made.parent / "草案17-問題点.pdf").is_file()


@pytest.mark.parametrize("given, name", [
    ("問題点", "草案17-問題点.pdf"), ("問題点の提案", "草案17-問題点.pdf"),  # its id, its 名前
    ("草案", "草案17.pdf"), ("草案１７", "草案17.pdf"),  # the set-up printed when none is named
])
def test_a_setup_s_print_is_named_by_its_id_however_it_was_named(given, name):
    """One set-up, one print and one manifest: --setup by 名前 writes where --setup by id
    does (otherwise the change marks, read from the manifest beside it, would never come)."""
    from commands.print_pdf import DEFAULT_JOURNEY_PDF, setup_named
    from compiler.build import compile_content

    compiled = compile_content(ROOT / "content")
    assert setup_named(DEFAULT_JOURNEY_PDF, compiled, given) == DEFAULT_JOURNEY_PDF.with_name(name)


@pytest.mark.parametrize("args, said, code", [
    (["--journey", "--setup", "問題点x"], "もしかして「問題点」", 2),
    (["--journey", "--setup", "問題点,草案"], "刷る旅の準備は 1 つです", 2),
    (["--setup", "問題点"], "--setup は --journey と使います", 2),
    (["--journey", "--setup", "../x"], "旅の準備の id か名前を書いてください", 2),
])
def test_a_setup_print_cannot_make_is_a_usage_error(tmp_path, args, said, code):
    result = invoke_cli("print", "--content", str(ROOT / "content"), "--out",
                        str(tmp_path / "x.pdf"), *args)
    assert result.exit_code == code and said in result.output, result.output
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.slow
def test_watch_prints_again_at_each_save(tmp_path):
    content = small_content(tmp_path / "content")
    out = tmp_path / "print" / "札.pdf"
    watched = Watched(content, tmp_path / "cache",
                      args=("print", "--watch", "--content", str(content), "--out", str(out),
                            "--date", "2026-12-01", "--no-backs"))
    try:
        watched.until(lambda line: line.startswith("印刷用 PDF"), "the first print", 120)
        page = content / "pages" / "幼少期.page"
        page.write_text(page.read_text(encoding="utf-8").replace(
            "歩 += 8 }", "歩 += 9 }", 1), encoding="utf-8")
        watched.until(lambda line: "変更 1 枚" in line, "the print after the save", 120)
        # a second save, of another card: both are marked, the sheets on the table being
        # the session's first print's (it marked only the card of the last save)
        page.write_text(page.read_text(encoding="utf-8").replace(
            "通貨 += 10", "通貨 += 11", 1), encoding="utf-8")
        watched.until(lambda line: "変更 2 枚" in line, "the print after the second save", 120)
    finally:
        said = watched.stop()
    assert "Traceback" not in said and "監視を終えました" in said, said


def test_the_catalog_links_each_printed_card_to_its_page(tmp_path):
    from printing import manifest
    from printing.cards import Card
    from printing.links import face_links

    pdf = tmp_path / "print" / "自分紀.pdf"
    catalog = tmp_path / "catalog"
    pdf.parent.mkdir()
    catalog.mkdir()
    assert face_links(pdf, catalog) == {}  # nothing printed: no link
    cards = [Card(f"page/p{i}", "page", f"札{i}") for i in range(11)]
    kept = manifest.build(cards, date="2026-12-01", content_hash="ab",
                          pages=[1] * 9 + [3, 3])
    pdf.write_bytes(b"%PDF-1.7\n")
    (tmp_path / "print" / "自分紀.manifest.json").write_text(manifest.dumps(kept),
                                                           encoding="utf-8")
    links = face_links(pdf, catalog)
    assert links["page/p0"] == "../print/自分紀.pdf#page=1"
    assert links["page/p10"] == "../print/自分紀.pdf#page=3"
    (tmp_path / "print" / "自分紀.manifest.json").write_text("{", encoding="utf-8")
    assert face_links(pdf, catalog) == {}  # a manifest that does not read: no link


@pytest.mark.slow
def test_the_catalog_shows_the_printable_face_link(tmp_path):
    from catalog.render import render
    from conftest import compiled_tables

    tables = compiled_tables(ROOT / "content")
    page = sorted(tables.pages)[0]
    enemy = sorted(tables.enemies)[0]
    html = render(tables, printed={f"page/{page}": "../print/自分紀.pdf#page=5",
                                   f"enemy/{enemy}": "../print/自分紀.pdf#page=15"})
    assert html.count("印刷用の札") == 2
    assert 'href="../print/自分紀.pdf#page=5"' in html
    assert "印刷用の札" not in render(tables)


def test_a_card_printed_before_its_page_changed_says_so_on_its_link(tmp_path):
    """The print's link of a card whose page changed since goes to a sheet with the old
    numbers: the catalog says 「いまのページより前に印刷したもの」, and only on that card
    (the manifest's digest of each card against the card the content makes now)."""
    import dataclasses

    from catalog.render import render
    from conftest import compiled_tables
    from printing import manifest
    from printing.links import older_faces
    from printing.page_cards import enemy_cards, page_cards

    tables = compiled_tables(ROOT / "content")
    cards = page_cards(tables) + enemy_cards(tables)
    pdf = tmp_path / "print" / "自分紀.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(b"%PDF-1.7\n")
    then = [dataclasses.replace(c, title=c.title + "（旧）") if i == 3 else c
            for i, c in enumerate(cards)]
    (tmp_path / "print" / "自分紀.manifest.json").write_text(manifest.dumps(manifest.build(
        then, date="2026-12-01", content_hash="ab", pages=list(range(1, len(cards) + 1)))),
        encoding="utf-8")
    older = older_faces(pdf, tables)
    assert older == {cards[3].key}
    page = cards[3].key.split("/", 1)[1]
    html = render(tables, printed={c.key: "x.pdf" for c in cards}, printed_older=frozenset(older))
    assert html.count("いまのページより前に印刷したもの") == 1
    card = html[html.index(f'id="page-{page}"'):]
    assert "いまのページより前に印刷したもの" in card[:card.index('id="page-', 5)]


@pytest.mark.parametrize("beside", ["{bad", '{"my": "notes"}', "folder"])
def test_a_file_in_the_manifests_place_stops_the_print_before_any_pdf(tmp_path, beside):
    # It is never replaced (printing.manifest), so the print is refused before it renders:
    # no PDF without its manifest, and no "counted as the first print" said first.
    content = small_content(tmp_path / "content")
    out = tmp_path / "print" / "札.pdf"
    kept = out.with_name("札.manifest.json")
    kept.parent.mkdir()
    if beside == "folder":
        kept.mkdir()
    else:
        kept.write_text(beside, encoding="utf-8")
    result = invoke_cli("print", "--content", str(content), "--out", str(out), "--date",
                        "2026-12-01")
    assert result.exit_code == 1
    assert f"前回の印刷の控え {kept} を読めません" in result.output
    assert "このファイルは上書きしません。ファイルを移すか、別の名前で印刷してください。" in result.output
    assert "PDF を書きませんでした。" in result.output
    assert "全カードに「変更」の印を付けます" not in result.output and "印刷用 PDF:" not in result.output
    assert not out.exists()
    assert kept.is_dir() if beside == "folder" else kept.read_text(encoding="utf-8") == beside


@pytest.mark.parametrize("name, before, said, code", [
    ("札.pdf", b"my notes\n", "は PDF ではないファイルです。上書きしません", 1),
    ("札", b"#!/bin/sh\n", "は .pdf の名前ではありません", 2),  # the option written wrong
    ("notes.txt", b"\xff\xfe", "は .pdf の名前ではありません", 2)])
def test_a_file_that_is_not_a_pdf_at_out_is_never_overwritten(tmp_path, name, before, said,
                                                                code):
    """--out names a PDF: a file there that is not one (a text, a script named by mistake)
    is someone's other work, and the print is refused before it renders."""
    content = small_content(tmp_path / "content")
    out = tmp_path / name
    out.write_bytes(before)
    result = invoke_cli("print", "--content", str(content), "--out", str(out), "--date",
                        "2026-12-01")
    assert result.exit_code == code
    assert f"{out} {said}" in result.output
    assert out.read_bytes() == before
    assert not out.with_name(f"{out.stem}.manifest.json").exists()


def test_a_new_file_not_named_pdf_gets_no_pdf(tmp_path):
    """``--out x.txt`` wrote a PDF, and its manifest, under a .txt name."""
    content = small_content(tmp_path / "content")
    out = tmp_path / "x.txt"
    result = invoke_cli("print", "--content", str(content), "--out", str(out), "--date",
                        "2026-12-01")
    assert result.exit_code == 2
    assert f"{out} は .pdf の名前ではありません。PDF は .pdf の名前に書きます（例: x.pdf）" \
        in result.output
    assert list(tmp_path.iterdir()) == [tmp_path / "content"]


def test_a_content_file_is_never_named_as_the_pdf(tmp_path):
    content = small_content(tmp_path / "content")
    page = next(content.rglob("*.page"))
    before = page.read_bytes()
    result = invoke_cli("print", "--content", str(content), "--out", str(page), "--date",
                        "2026-12-01")
    assert result.exit_code == 2
    assert "はコンテンツのファイルの名前です。PDF は書きません" in result.output
    assert page.read_bytes() == before
    fresh = tmp_path / "new.page"
    assert invoke_cli("print", "--content", str(content), "--out", str(fresh)).exit_code == 2
    assert not fresh.exists()


def test_an_empty_out_is_a_usage_error_as_for_tts_and_the_catalog(tmp_path, monkeypatch):
    """``--out ""`` wrote 自分紀.pdf into the current folder where ``--tts ""`` and
    ``catalog --out ""`` are refused."""
    content = small_content(tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    result = invoke_cli("print", "--content", str(content), "--out", "")
    assert result.exit_code == 2 and "空のパスです。書き出す PDF を指定してください" in result.output
    assert list(tmp_path.iterdir()) == [tmp_path / "content"]


def test_a_tts_folder_that_cannot_be_written_is_said_before_anything_is_written(tmp_path):
    """``--tts /proc/x`` rendered for seconds, wrote the PDF and its manifest, then failed:
    the next print compared against a print said to have failed. Now the folder is checked
    with the PDF's, before the rendering, and nothing is written or left."""
    content = small_content(tmp_path / "content")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = tmp_path / "new" / "sub" / "札.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out),
                        "--tts", str(blocker / "decks"))
    assert result.exit_code == 1
    assert f"{blocker / 'decks'} に TTS のデッキを書けません" in result.output
    assert "印刷用 PDF" not in result.output
    assert not (tmp_path / "new").exists()  # the PDF's new folders made and taken away


UNWRITABLE = "/sys"  # a folder there that not even root can make a file in


@pytest.mark.skipif(not os.path.isdir(UNWRITABLE), reason="no /sys on this machine")
def test_a_tts_folder_that_is_there_but_unwritable_is_said_before_the_pdf(tmp_path):
    """An existing folder that cannot be written (a read-only mount) was found only after
    the PDF and its manifest were written, the print then failing."""
    content = small_content(tmp_path / "content")
    out = tmp_path / "札.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out),
                        "--tts", UNWRITABLE)
    assert result.exit_code == 1
    assert f"{UNWRITABLE} に TTS のデッキを書けません" in result.output
    assert not out.exists() and not out.with_name("札.manifest.json").exists()
    assert not any(tmp_path.glob(".jibunki-probe-*"))


@pytest.mark.skipif(not os.path.isdir(UNWRITABLE), reason="no /sys on this machine")
def test_when_neither_the_pdf_nor_the_decks_can_be_written_both_are_said(tmp_path):
    """Every error of a run is reported: the PDF's place was not said when the decks'
    failed too."""
    content = small_content(tmp_path / "content")
    result = invoke_cli("print", "--content", str(content), "--out", f"{UNWRITABLE}/札.pdf",
                        "--tts", f"{UNWRITABLE}/decks")
    assert result.exit_code == 1
    assert f"{UNWRITABLE}/札.pdf に PDF を書けません" in result.output
    assert f"{UNWRITABLE}/decks に TTS のデッキを書けません" in result.output


@pytest.mark.slow
def test_a_card_whose_words_do_not_fit_is_E074_at_its_flavour_line(tmp_path):
    content = small_content(tmp_path / "content")
    page = content / "pages" / "幼少期.page"
    text = page.read_text(encoding="utf-8")
    long = "フレーバー \"" + "長い文。" * 750 + "\""
    edited = text.replace("フレーバー \"最初の一年は、誰も覚えていない。\"", long, 1)
    assert edited != text
    page.write_text(edited, encoding="utf-8")
    line = edited[:edited.index(long)].count("\n") + 1
    out = tmp_path / "print" / "札.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out))
    assert result.exit_code == 1
    assert (f"{page}:{line}:3: エラー[E074]: 札「産声」（ページ hatsu_koe）の文が、"
            "最小の大きさ 6.5 pt でも枠に収まりません") in result.output
    assert f"{line} |   フレーバー \"長い文。" in result.output and "^^^" in result.output
    # the caret under フレーバー, not a row of thousands under the whole flavour
    assert "^" * 11 not in result.output
    assert "ヒント: フレーバーや面の文を短くしてください" in result.output
    assert "PDF を書きませんでした。" in result.output and not out.exists()
    assert not out.parent.exists()  # nothing written: the folder made for it is gone too
    assert "エラー[E" not in result.output.replace("エラー[E074]", "")  # the content compiles


#: A character of the supplementary private use area: no font of any machine has it.
NO_FONT = "\U000f0000"


@pytest.mark.slow
def test_a_character_no_font_has_is_W011_at_its_place_and_the_pdf_is_written(tmp_path):
    """Pango would print it as a box (☒): the print says which character, on which card,
    where it is written — a warning: the PDF is written all the same."""
    content = small_content(tmp_path / "content")
    page = content / "pages" / "幼少期.page"
    text = page.read_text(encoding="utf-8")
    edited = text.replace("最初の一年は、", f"最初の{NO_FONT}一年は、", 1)
    # the same character in a comment above: not printed, so not the place said
    flavour = edited.index("  フレーバー \"最初の")
    edited = edited[:flavour] + f"  # メモ: {NO_FONT} を使う\n" + edited[flavour:]
    assert edited != text
    page.write_text(edited, encoding="utf-8")
    before = edited[:edited.index(f"最初の{NO_FONT}") + len("最初の")]
    line, col = before.count("\n") + 1, len(before) - before.rindex("\n")
    out = tmp_path / "print" / "札.pdf"
    result = invoke_cli("print", "--content", str(content), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (f"{page}:{line}:{col}: 警告[W011]: 札「産声」（ページ hatsu_koe）の「{NO_FONT}」"
            "（U+F0000）は、この機械のどのフォントにもない字です") in result.output
    assert "ヒント: ほかの字にするか、その字のあるフォントを入れてください" in result.output
    assert result.output.count("W011") == 1 and out.is_file()
    # every other character of the content has a font: nothing else is said
    assert "警告[W" not in result.output.replace("警告[W011]", "")


@pytest.mark.slow
def test_a_journey_card_s_character_no_font_has_is_W011_at_its_journey_item(tmp_path):
    """The journey's table keeps no source: the card's item is found in the journey's
    files by its kind and id, so its warning has a place as a page's has."""
    import shutil

    content = small_content(tmp_path / "content")
    shutil.copytree(ROOT / "content" / "journey", content / "journey")
    draft = content / "journey" / "草案17.journey"
    text = draft.read_text(encoding="utf-8")
    edited = text.replace("文 「潮の香り」", f"文 「潮の{NO_FONT}香り」", 1)
    assert edited != text
    draft.write_text(edited, encoding="utf-8")
    before = edited[:edited.index(NO_FONT)]
    line, col = before.count("\n") + 1, len(before) - before.rindex("\n")
    result = invoke_cli("print", "--journey", "--content", str(content), "--out",
                        str(tmp_path / "j.pdf"), "--no-backs")
    assert result.exit_code == 0, result.output
    assert (f"{draft}:{line}:{col}: 警告[W011]: 札「浜辺」（ロケーション 浜辺）の「{NO_FONT}」"
            "（U+F0000）") in result.output
    assert f"{line} |   文 「潮の" in result.output


@pytest.mark.slow  # renders the print
def test_a_machine_without_the_scripts_font_gets_one_warning_not_one_per_character(tmp_path):
    """Some thirty characters no font has (as on a machine with no Japanese font, where
    every kanji is one): one W011 that names how many, a few of them and the font to
    install — not thousands of lines, one per character of every card."""
    content = small_content(tmp_path / "content")
    page = content / "pages" / "幼少期.page"
    missing = "".join(chr(0xF0000 + i) for i in range(30))
    text = page.read_text(encoding="utf-8")
    edited = text.replace("最初の一年は、", f"最初の{missing}一年は、", 1)
    assert edited != text
    page.write_text(edited, encoding="utf-8")
    result = invoke_cli("print", "--content", str(content), "--out", str(tmp_path / "x.pdf"),
                        "--no-backs")
    assert result.exit_code == 0, result.output
    assert result.output.count("W011") == 1
    assert "30 種の字" in result.output and "fonts-noto-cjk" in result.output


@pytest.mark.slow  # over a second: the full suite's (README: the fast loop)
def test_a_full_disk_at_the_manifest_leaves_the_last_print_and_its_manifest_together(
        tmp_path, monkeypatch):
    """The PDF and its manifest are one set: the manifest says what the next print marks
    as changed, so a new PDF beside the old manifest would mark the wrong cards."""
    from conftest import full_disk_from

    content = small_content(tmp_path)
    out = tmp_path / "print" / "自分紀.pdf"
    assert invoke_cli("print", "--content", str(content), "--out", str(out)).exit_code == 0
    files = {p.name: p.stat().st_ino for p in out.parent.iterdir()}
    full_disk_from(monkeypatch, 2)  # the PDF staged, then the manifest
    result = invoke_cli("print", "--content", str(content), "--out", str(out),
                        "--date", "2030-01-01")
    monkeypatch.undo()
    assert result.exit_code == 1 and "ディスクがいっぱいです" in result.output, result.output
    assert {p.name: p.stat().st_ino for p in out.parent.iterdir()} == files


@pytest.mark.slow
def test_an_enemy_card_that_does_not_fit_is_told_what_an_enemy_can_shorten(tmp_path):
    """The hint spoke of フレーバー and 面: an enemy has no 面, and its card is mostly its
    予兆 and the turns they give (the audit's 8 Intents, an escalation and 3 traits)."""
    content = small_content(tmp_path / "content")
    (content / "enemies" / "長い.enemy").write_text(
        '敵 nagai "とても長い名前の敵、終わらない締め切りと会議と残業の塊" {\n  HP 80\n  座 40\n'
        '  突破ライン 140\n  フレーバー "長い。"\n'
        "  予兆 [ 攻撃 10, 白紙化 山札+捨て札, 攻撃 10, 攻撃 11, 攻撃 12, 白紙化 手札, 攻撃 13, "
        "攻撃 14 ]\n  エスカレーション 1 ターンごと 白紙化 山札+捨て札+手札\n"
        "  特性 {\n    軽減 2\n    封鎖 28..32\n"
        "    座 -= 3 毎 ターン開始時 予告 範囲 ステージ 最大 4 回\n  }\n}\n", encoding="utf-8")
    result = invoke_cli("print", "--content", str(content), "--out", str(tmp_path / "札.pdf"))
    assert result.exit_code == 1, result.output
    assert "エラー[E074]: 札「とても長い名前の敵" in result.output
    assert "ヒント: 攻撃などの予兆・エスカレーション・特性を減らすか" in result.output
    assert "面の文" not in result.output


@pytest.mark.parametrize("setup", [(), ("--setup", "草案")])
def test_print_journey_on_a_content_without_one_names_that_folder(tmp_path, setup):
    """``--content mine --journey`` told the designer to write in content/journey/ (not
    mine/), and ``--setup 草案`` listed the set-ups there are as 「（ある準備: ）」."""
    import shutil

    content = small_content(tmp_path / "mine")
    shutil.rmtree(content / "journey", ignore_errors=True)
    result = invoke_cli("print", "--content", str(content), "--journey", *setup,
                        "--out", str(tmp_path / "out" / "j.pdf"))
    assert result.exit_code == 1
    assert (f"{content} に旅の準備がありません: 刷るものがありません（{content / 'journey'}/ に"
            in result.output.replace("\n", ""))
    assert "ある準備: ）" not in result.output and not (tmp_path / "out").exists()


def test_a_file_that_is_not_utf8_counts_among_the_files_checked(tmp_path):
    """A content file of bytes that are not UTF-8 was reported (E004) but not counted:
    「22 ファイル」 where lint said 23 of the same folder."""
    content = small_content(tmp_path / "content")
    before = invoke_cli("lint", str(content))
    (content / "pages" / "壊れ.page").write_bytes(b"\xff\xfe garbage")
    linted = invoke_cli("lint", str(content))
    printed = invoke_cli("print", "--content", str(content), "--out", str(tmp_path / "p.pdf"))
    def counted(output: str) -> str:  # the summary line's count of files
        return re.search(r"^(\d+) ファイル: エラー", output, re.MULTILINE).group(1)

    count = counted(linted.output)
    assert int(count) == int(counted(before.output)) + 1
    assert printed.exit_code == 1 and f"\n{count} ファイル: エラー" in printed.output
