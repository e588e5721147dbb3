"""Print and play (issue 29, item 3): ``jibunki print --tts DIR`` writes, beside the PDF,
the printed cards as Tabletop Simulator decks — one deck a kind of card (a deck has one
back, and a card's back says its kind): card sheets of at most 10 × 7 faces drawn by the
sheets' own templates, the back, and the saved object that loads them.

A small content (one file of pages, one enemy) keeps the rendering to seconds.
"""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image, ImageChops

from conftest import compiled_tables, invoke_cli, small_content
from printing.faces import FACE_WIDTH, back_images, face_images
from printing.page_cards import enemy_cards, page_cards
from printing.cards import Card, Section
from printing.sheets import SIZES, PrintOptions, fitted_sizes

DATE = "2026-12-01"

#: The command renders and rasterises cards: the full suite's (tests/test_print_tts.py
#: checks the deck itself in the fast loop).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """The small content printed with ``--tts`` into a folder that does not exist yet,
    with its cards and the options the print stamped them with."""
    root = tmp_path_factory.mktemp("tts")
    content = small_content(root / "content")
    deck = root / "table" / "デッキ"
    result = invoke_cli("print", "--content", str(content), "--out", str(root / "札.pdf"),
                        "--date", DATE, "--tts", str(deck))
    assert result.exit_code == 0, result.output
    tables = compiled_tables(content)
    version = re.search(r"版 ([0-9a-f]{8})", result.output).group(1)
    return {"root": root, "deck": deck, "output": result.output,
            "cards": {"page": page_cards(tables), "enemy": enemy_cards(tables)},
            "options": PrintOptions(version=version, date=DATE)}


def _saved(deck, kind):
    return json.loads((deck / f"jibunki-{kind}.json").read_text(encoding="utf-8"))


def test_the_pdf_is_written_and_one_deck_a_kind_beside_it(printed):
    assert (printed["root"] / "札.pdf").read_bytes().startswith(b"%PDF")
    names = sorted(p.name for p in printed["deck"].iterdir())
    assert names == ["jibunki-enemy-1.png", "jibunki-enemy-back.png", "jibunki-enemy.json",
                     "jibunki-page-1.png", "jibunki-page-back.png", "jibunki-page.json"]
    out = printed["output"]
    assert "TTS のデッキ" in out and "札 11 枚" in out and "Saves/Saved Objects" in out
    assert str(printed["deck"] / "jibunki-page.json") in out


def test_each_sheet_is_its_grid_of_faces_and_the_saved_object_holds_every_card(printed):
    deck = printed["deck"]
    for kind, cards in printed["cards"].items():
        state = _saved(deck, kind)["ObjectStates"][0]
        if len(cards) == 1:  # a single card is saved as that card alone
            assert state["Name"] == "Card"
            contained, custom = [state], state["CustomDeck"]
        else:
            assert state["Name"] == "DeckCustom"
            contained, custom = state["ContainedObjects"], state["CustomDeck"]
            assert len(state["DeckIDs"]) == len(cards)
        assert len(contained) == len(cards)
        assert [c["Nickname"] for c in contained] == [c.title for c in cards]
        assert [c["GMNotes"] for c in contained] == [c.key for c in cards]
        for sheet_id, grid in custom.items():
            assert grid["NumWidth"] <= 10 and grid["NumHeight"] <= 7
            assert grid["NumWidth"] * grid["NumHeight"] > len(cards)  # the hidden slot
            image = Image.open(deck / f"jibunki-{kind}-{sheet_id}.png")
            face = Image.open(deck / f"jibunki-{kind}-back.png").size
            assert face[0] == FACE_WIDTH
            assert image.size == (grid["NumWidth"] * face[0], grid["NumHeight"] * face[1])
            assert grid["FaceURL"] == (deck / f"jibunki-{kind}-{sheet_id}.png").resolve().as_uri()


def test_ten_pages_take_a_10_by_2_sheet_and_one_enemy_a_2_by_1(printed):
    grids = {kind: [(g["NumWidth"], g["NumHeight"])
                    for g in _saved(printed["deck"], kind)["ObjectStates"][0]["CustomDeck"].values()]
             for kind in ("page", "enemy")}
    assert grids == {"page": [(10, 2)], "enemy": [(2, 1)]}


def test_a_face_cut_from_the_sheet_is_the_card_rendered_alone(printed):
    cards = printed["cards"]["page"]
    faces = face_images(cards, printed["options"])
    sheet = Image.open(printed["deck"] / "jibunki-page-1.png").convert("RGB")
    w, h = faces[0].size
    for slot in (0, 7, len(cards) - 1):
        x, y = (slot % 10) * w, (slot // 10) * h
        cut = sheet.crop((x, y, x + w, y + h))
        assert ImageChops.difference(cut, faces[slot]).getbbox() is None, cards[slot].key


def test_each_deck_has_its_kinds_back_in_its_file_and_its_hidden_slot(printed):
    backs = back_images(["page", "enemy"], printed["options"])
    assert ImageChops.difference(backs["page"], backs["enemy"]).getbbox() is not None
    for kind, (columns, rows) in {"page": (10, 2), "enemy": (2, 1)}.items():
        back = Image.open(printed["deck"] / f"jibunki-{kind}-back.png").convert("RGB")
        assert ImageChops.difference(back, backs[kind]).getbbox() is None
        sheet = Image.open(printed["deck"] / f"jibunki-{kind}-1.png").convert("RGB")
        w, h = back.size
        hidden = sheet.crop(((columns - 1) * w, (rows - 1) * h, columns * w, rows * h))
        assert ImageChops.difference(hidden, back).getbbox() is None


def test_printing_again_replaces_the_deck_with_the_same_bytes(printed):
    deck = printed["deck"]
    before = {p.name: p.read_bytes() for p in deck.iterdir()}
    result = invoke_cli("print", "--content", str(printed["root"] / "content"),
                        "--out", str(printed["root"] / "again.pdf"), "--date", DATE,
                        "--tts", str(deck))
    assert result.exit_code == 0, result.output
    assert {p.name: p.read_bytes() for p in deck.iterdir()} == before


def test_tts_on_a_file_is_refused_in_japanese_before_printing(tmp_path):
    content = small_content(tmp_path / "content")
    target = tmp_path / "deck.json"
    target.write_text("{}", encoding="utf-8")
    result = invoke_cli("print", "--content", str(content), "--out", str(tmp_path / "a.pdf"),
                        "--date", DATE, "--tts", str(target))
    assert result.exit_code != 0
    assert "--tts" in result.output and "ファイル" in result.output, result.output
    assert not (tmp_path / "a.pdf").exists()
    assert target.read_text(encoding="utf-8") == "{}"


def test_a_folder_that_cannot_be_made_is_a_japanese_error_without_a_traceback(tmp_path):
    content = small_content(tmp_path / "content")
    (tmp_path / "file").write_text("", encoding="utf-8")
    result = invoke_cli("print", "--content", str(content), "--out", str(tmp_path / "a.pdf"),
                        "--date", DATE, "--tts", str(tmp_path / "file" / "deck"))
    assert result.exit_code == 1
    assert "TTS のデッキを書けません" in result.output, result.output
    assert result.output.count("TTS のデッキを書けません") == 1, result.output  # said once
    assert re.search(r"[A-Za-z]{4,} [a-z]{3,}", result.output.split("TTS のデッキを書けません")[1]) \
        is None, result.output


def test_the_faces_and_backs_are_the_same_bytes_every_time(printed):
    cards = printed["cards"]["enemy"]
    first = face_images(cards, printed["options"])[0]
    second = face_images(cards, printed["options"])[0]
    assert first.tobytes() == second.tobytes()


def _long_card(lines: int) -> Card:
    return Card(key="page/long", kind="page", title="長い年",
                sections=(Section("未来面", ("攻撃+3（ターン終了まで）、防御+2",) * lines),))


@pytest.mark.parametrize("lines", [12, 20, 22])
def test_a_face_alone_fits_its_words_at_the_size_the_sheet_does(lines):
    sheet = fitted_sizes([_long_card(lines)], PrintOptions())
    alone = fitted_sizes([_long_card(lines)], PrintOptions(single=True))
    assert alone == sheet
    if lines == 20:
        assert alone[0] < SIZES[0]  # the case is one the fitting had to shrink


def test_a_face_alone_is_the_trim_only_without_bleed_marks_or_paper(printed):
    face = face_images(printed["cards"]["page"][:1], printed["options"])[0]
    assert face.width == FACE_WIDTH
    assert abs(face.height - FACE_WIDTH * 88 / 63) < 1  # 63 × 88 mm, rounded up by pdfium
    page_colour = (0xe9, 0xdc, 0xc0)  # .kind-page in sheets.css.j2, right to the edge
    for corner in [(0, 0), (face.width - 1, 0), (0, face.height - 1),
                   (face.width - 1, face.height - 1)]:
        assert all(abs(a - b) <= 2 for a, b in zip(face.getpixel(corner), page_colour)), corner


def test_a_set_up_s_decks_are_named_apart_as_its_pdf_is(tmp_path, monkeypatch):
    """``--journey --setup 問題点 --tts D`` then ``--journey --tts D``: the PDFs were kept
    apart (草案17-問題点.pdf, 草案17.pdf) but both wrote draft17-*, and 問題点's item deck
    (its items' 費用) was replaced by 草案's. The decks' names are what is checked here —
    the decks themselves are the other tests' (their rendering is most of a print's time)."""
    from commands import print_tts
    from conftest import ROOT
    from printing import sheets

    named = []
    monkeypatch.setattr(print_tts, "print_tts",
                        lambda folder, cards, options, name: named.append((name, cards)))
    monkeypatch.setattr(sheets, "render", lambda cards, options: (b"%PDF-1.7\n", {}, 1))
    for setup in (("--setup", "問題点"), ()):
        result = invoke_cli("print", "--content", str(ROOT / "content"), "--journey", *setup,
                            "--out", str(tmp_path / "pdf") + "/", "--date", DATE,
                            "--tts", str(tmp_path / "decks"), "--no-backs")
        assert result.exit_code == 0, result.output
    assert [name for name, _ in named] == ["draft17-問題点", "draft17"]
    items = {name: [c for c in cards if c.kind == "item"] for name, cards in named}
    assert items["draft17-問題点"] != items["draft17"]  # 問題点's own items, with their 費用
