"""TTS デッキ (printing.tts): card sheets of at most 10 × 7 whose last slot is the hidden
image (the back), and a saved object whose CustomDeck, DeckIDs and cards match the sheets
slot for slot, with the cards' own words — written only inside the folder named, the same
bytes every time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from printing import tts
from printing.cards import Card, Section

W, H = 4, 6  # a face: tiny, so a 75-card deck is fast


def _cards(n: int) -> list[Card]:
    return [Card(f"page/p{i}", "page", f"札{i}", (("銘", str(i)),),
                 (Section("未来面", (f"攻撃 {i}",)), Section("", ("歩 +1", "ドロー 1"))),
                 f"風{i}" if i % 2 else "", i) for i in range(n)]


def _face(i: int) -> Image.Image:
    """A face no other face equals, and not symmetric: its top-left pixel, its
    bottom-right pixel and the rest differ."""
    image = Image.new("RGB", (W, H), (i, 255 - i, (7 * i) % 256))
    image.putpixel((0, 0), (255, i, 0))
    image.putpixel((W - 1, H - 1), (0, 0, i))
    return image


BACK = Image.new("RGB", (W, H), (10, 20, 30))


@pytest.fixture(scope="module")
def deck75(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tts")
    cards, faces = _cards(75), [_face(i) for i in range(75)]
    deck = tts.write_deck(folder, cards, faces, BACK, replace=False)
    saved = json.loads(deck.saved_object.read_text(encoding="utf-8"))
    return folder, cards, faces, deck, saved


def _where(sheet: tts.Sheet, slot: int) -> tuple[int, int, int, int]:
    x, y = (slot % sheet.columns) * W, (slot // sheet.columns) * H
    return (x, y, x + W, y + H)


def test_75_cards_make_a_full_10_by_7_sheet_and_one_for_the_rest(deck75):
    folder, _, _, deck, _ = deck75
    assert deck.sheets == (tts.Sheet(1, 10, 7, 69), tts.Sheet(2, 7, 1, 6))
    assert sorted(p.name for p in folder.iterdir()) == [
        "jibunki-1.png", "jibunki-2.png", "jibunki-back.png", "jibunki.json"]
    assert Image.open(folder / "jibunki-1.png").size == (10 * W, 7 * H)
    assert Image.open(folder / "jibunki-2.png").size == (7 * W, 1 * H)


def test_no_sheet_is_larger_than_10_by_7_and_the_last_slot_is_always_free():
    for count in (1, 2, 9, 10, 68, 69, 70, 138, 139, 500):
        sheets = tts.layout(count)
        assert sum(s.count for s in sheets) == count
        for sheet in sheets:
            assert sheet.columns <= 10 and sheet.rows <= 7
            assert sheet.count < sheet.columns * sheet.rows  # the hidden slot
            assert sheet.count <= tts.PER_SHEET == 69


def test_every_face_lies_in_its_slot_pixel_for_pixel_and_the_back_in_the_last(deck75):
    folder, _, faces, deck, _ = deck75
    faces_left = iter(faces)
    for sheet in deck.sheets:
        image = Image.open(folder / f"jibunki-{sheet.id}.png")
        for slot in range(sheet.count):
            face = next(faces_left)
            block = image.crop(_where(sheet, slot))
            assert block.tobytes() == face.tobytes(), (sheet.id, slot)
        hidden = image.crop(_where(sheet, sheet.columns * sheet.rows - 1))
        assert hidden.tobytes() == BACK.tobytes()
    assert Image.open(folder / "jibunki-back.png").tobytes() == BACK.tobytes()


def test_the_saved_object_loads_a_deck_whose_grids_and_ids_match_the_sheets(deck75):
    folder, cards, _, deck, saved = deck75
    (obj,) = saved["ObjectStates"]
    assert obj["Name"] == "DeckCustom"
    assert set(obj["CustomDeck"]) == {"1", "2"}
    for sheet in deck.sheets:
        entry = obj["CustomDeck"][str(sheet.id)]
        width, height = Image.open(folder / f"jibunki-{sheet.id}.png").size
        assert (entry["NumWidth"], entry["NumHeight"]) == (width // W, height // H)
        assert entry["FaceURL"] == (folder / f"jibunki-{sheet.id}.png").resolve().as_uri()
        assert entry["BackURL"] == (folder / "jibunki-back.png").resolve().as_uri()
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
        assert sum(1 for i in obj["DeckIDs"] if i // 100 == sheet.id) == sheet.count
    assert obj["DeckIDs"] == [*range(100, 169), *range(200, 206)]
    assert [c["CardID"] for c in obj["ContainedObjects"]] == obj["DeckIDs"]
    for card in obj["ContainedObjects"]:
        assert card["Name"] == "Card"
        assert card["CustomDeck"] == {str(card["CardID"] // 100):
                                      obj["CustomDeck"][str(card["CardID"] // 100)]}
    assert len(obj["ContainedObjects"]) == len(cards) == 75


def test_names_and_descriptions_are_the_cards_own_words(deck75):
    _, cards, _, _, saved = deck75
    contained = saved["ObjectStates"][0]["ContainedObjects"]
    assert [c["Nickname"] for c in contained] == [card.title for card in cards]
    assert [c["GMNotes"] for c in contained] == [card.key for card in cards]
    assert contained[1]["Description"] == "銘 1\n【未来面】\n攻撃 1\n歩 +1\nドロー 1\n\n風1"
    assert contained[0]["Description"] == "銘 0\n【未来面】\n攻撃 0\n歩 +1\nドロー 1"


def test_designer_text_never_becomes_bbcode():
    card = Card("page/x", "page", "[b]太字[/b]", (), (Section("", ("[ff0000]赤 [1] [-]",)),))
    (inner,) = tts.saved_object([card], tts.layout(1), ["f"], "b", "d")["ObjectStates"]
    assert "[b]" not in inner["Nickname"] and "[ff0000]" not in inner["Description"]
    assert inner["Nickname"].replace("\u200b", "") == card.title
    assert "[1]" in inner["Description"]  # a bracket that opens no tag stays as it is


def test_one_card_is_saved_as_that_card_alone():
    (card,) = _cards(1)
    (obj,) = tts.saved_object([card], tts.layout(1), ["f"], "b", "d")["ObjectStates"]
    assert (obj["Name"], obj["CardID"], obj["Nickname"]) == ("Card", 100, card.title)
    assert obj["CustomDeck"]["1"]["FaceURL"] == "f"


def test_the_same_cards_and_images_give_the_same_bytes(tmp_path):
    outputs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        tts.write_deck(folder, _cards(3), [_face(i) for i in range(3)], BACK, replace=False,
                       url_base="https://example.invalid/deck/")
        outputs.append({p.name: p.read_bytes() for p in sorted(folder.iterdir())})
    assert outputs[0] == outputs[1]
    saved = json.loads(outputs[0]["jibunki.json"])
    assert saved["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"] == \
        "https://example.invalid/deck/jibunki-1.png"


def test_faces_too_large_for_a_sheet_are_scaled_to_fit_4096():
    faces = [Image.new("RGB", (500, 700), (i, 0, 0)) for i in range(2)]
    faces, back = tts._checked(_cards(2), faces, Image.new("RGB", (500, 700)))
    assert faces[0].size == back.size
    assert 10 * faces[0].size[0] <= 4096 and 7 * faces[0].size[1] <= 4096


@pytest.mark.parametrize("name", ["../out", "a/b", ".hidden", "", "x" * 101])
def test_a_deck_name_that_could_leave_the_folder_is_refused(tmp_path, name):
    with pytest.raises(tts.DeckError, match="ファイル名に使えません"):
        tts.write_deck(tmp_path, _cards(1), [_face(0)], BACK, replace=False, name=name)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_a_japanese_error(tmp_path):
    with pytest.raises(tts.DeckError, match="フォルダ .* がありません: ファイルかフォルダがありません"):
        tts.write_deck(tmp_path / "nowhere", _cards(1), [_face(0)], BACK, replace=False)


def test_existing_files_are_replaced_only_when_asked(tmp_path):
    tts.write_deck(tmp_path, _cards(1), [_face(0)], BACK, replace=False)
    with pytest.raises(tts.DeckError, match="すでにあります"):
        tts.write_deck(tmp_path, _cards(1), [_face(1)], BACK, replace=False)
    tts.write_deck(tmp_path, _cards(1), [_face(1)], BACK, replace=True)
    assert Image.open(tmp_path / "jibunki-1.png").crop((0, 0, W, H)).tobytes() == \
        _face(1).tobytes()


def test_a_replaced_deck_leaves_no_sheet_of_the_larger_one_before_it(tmp_path):
    """A deck of 75 cards had two sheets; the same deck printed again with 5 cards has
    one — the old second sheet goes, and nothing that is not the deck's own name."""
    tts.write_deck(tmp_path, _cards(75), [_face(i) for i in range(75)], BACK, replace=True)
    for other in ("jibunki-notes.png", "jibunki-2.png.bak", "others-2.png"):
        (tmp_path / other).write_bytes(b"mine")
    deck = tts.write_deck(tmp_path, _cards(5), [_face(i) for i in range(5)], BACK,
                          replace=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "jibunki-1.png", "jibunki-2.png.bak", "jibunki-back.png", "jibunki-notes.png",
        "jibunki.json", "others-2.png"]
    assert sorted(deck.files) == sorted(p for p in tmp_path.iterdir()
                                        if p.name.startswith("jibunki") and "notes" not in
                                        p.name and not p.name.endswith(".bak"))


def test_a_print_without_a_kind_removes_that_kinds_old_deck_saved_object_first(tmp_path):
    """``write_files`` of the decks ``decks`` names: a deck with no cards in this print
    (its kind left out) leaves no saved object of old cards behind — removed before its
    images, which it names."""
    old, _ = tts.deck_files(tmp_path, _cards(2), [_face(0), _face(1)], BACK, name="jibunki-enemy")
    tts.write_files(tmp_path, old)
    new, _ = tts.deck_files(tmp_path, _cards(1), [_face(0)], BACK, name="jibunki-page")
    assert tts.leftovers(tmp_path, new, ("jibunki-page", "jibunki-enemy")) == [
        "jibunki-enemy.json", "jibunki-enemy-1.png", "jibunki-enemy-back.png"]
    tts.write_files(tmp_path, new, ("jibunki-page", "jibunki-enemy"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(new)


@pytest.mark.parametrize("faces, words", [
    ([_face(0), Image.new("RGB", (W + 1, H))], "表の画像の大きさがそろっていません: 札1（ページ p1）"),
    ([_face(0)], "カードが 2 枚なのに表の画像が 1 枚です"),
    ([_face(0), "face.png"], "Pillow の Image"),
])
def test_faces_that_cannot_make_a_deck_are_a_japanese_error(tmp_path, faces, words):
    with pytest.raises(tts.DeckError, match=words.replace("(", r"\(")):
        tts.write_deck(tmp_path, _cards(2), faces, BACK, replace=False)
    assert list(Path(tmp_path).iterdir()) == []


def test_a_full_disk_at_the_saved_object_leaves_the_old_deck_whole(tmp_path, monkeypatch):
    """A deck replaced is written as one set: a disk that fills at its last file (the saved
    object) leaves the old sheets beside the old object, never new sheets under old names
    and descriptions."""
    from conftest import full_disk_from

    tts.write_deck(tmp_path, _cards(2), [_face(0), _face(1)], BACK, replace=False)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    full_disk_from(monkeypatch, 3)  # sheet, back, then the saved object
    with pytest.raises(tts.DeckError, match="前のデッキはそのままです"):
        tts.write_deck(tmp_path, _cards(2), [_face(1), _face(0)], BACK, replace=True)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_full_disk_at_a_first_deck_speaks_of_no_deck_kept(tmp_path, monkeypatch):
    """「（前のデッキはそのままです）」 was said of a folder that never held a deck."""
    from conftest import full_disk_from

    full_disk_from(monkeypatch, 1)
    with pytest.raises(tts.DeckError) as refused:  # as print --tts writes it: one set
        tts.write_deck(tmp_path, _cards(2), [_face(0), _face(1)], BACK, replace=True)
    # the folder named (a full disk was said without where)
    assert str(refused.value).startswith(f"{tmp_path} に TTS のデッキを書けません: ")
    assert "前のデッキ" not in str(refused.value)


def test_a_folder_where_a_deck_file_goes_is_no_deck_kept(tmp_path):
    """Review: a folder at jibunki-page.json made the refusal say 「（前のデッキはそのままです）」
    of a place that held no deck (as compile had said 「前の表」)."""
    (tmp_path / "jibunki-page.json").mkdir()
    with pytest.raises(tts.DeckError) as refused:
        tts.write_files(tmp_path, {"jibunki-page.json": "{}"})
    assert "前のデッキ" not in str(refused.value)
