"""印刷の控え (printing.manifest): a print's manifest round-trips, the next print names
exactly the cards that changed and the part that changed, and a previous manifest that is
broken, too large, foreign or of another version is a Japanese warning — never a
traceback, and a file that is not ours is never replaced."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printing import manifest as m
from printing.cards import KINDS, Card, Section

DEAI = Card("page/deai", "page", "出会い", (("銘", "12"), ("綻び倍率", "2.0")),
            (Section("未来面", ("攻撃 10",)), Section("過去面", ("防御 5",))), "春の日", 12)
KODOKU = Card("enemy/kodoku", "enemy", "孤独", (("HP", "120"),),
              (Section("1ターン目", ("予兆 攻撃 16",)),))
SUMMARY = Card("summary", "summary", "早見表", (), (Section("", ("手札上限 8",)),))
CARDS = (DEAI, KODOKU, SUMMARY)


def _manifest(cards=CARDS):
    return m.build(cards, date="2026-12-01", content_hash="0123abcd")


def _written(tmp_path, text: str | bytes, name="sheets.manifest.json"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


# ----------------------------------------------------------------- round trip


def test_a_written_manifest_reads_back_as_the_same_manifest(tmp_path):
    path = m.beside(tmp_path / "sheets.pdf")
    assert path.name == "sheets.manifest.json"
    m.write_manifest(path, _manifest(), inside=tmp_path, previous=m.Previous(None))
    previous = m.read_previous(path)
    assert previous.warning == ""
    assert previous.manifest == _manifest()
    assert [c["key"] for c in previous.manifest["cards"]] == [c.key for c in CARDS]


def test_the_manifest_text_is_the_same_bytes_for_the_same_print():
    assert m.dumps(_manifest()) == m.dumps(_manifest())
    assert json.loads(m.dumps(_manifest())) == _manifest()
    assert json.loads(m.dumps(_manifest(()))) == _manifest(())


def test_a_card_digest_is_sha256_of_the_canonical_json_of_its_fields():
    """…of its fields but the ones a card gained later (its look), where left at their
    defaults: so an earlier print's digests still match."""
    import hashlib

    def sha(fields) -> str:
        text = json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    fields = dataclasses.asdict(DEAI)
    for name in m.LATER_FIELDS:
        del fields[name]
    assert m.digest(DEAI) == sha(fields)
    tinted = dataclasses.replace(DEAI, tint="red")
    assert m.digest(tinted) == sha({**fields, "tint": "red"})


def test_no_previous_manifest_is_a_first_print_without_warning(tmp_path):
    previous = m.read_previous(tmp_path / "none.manifest.json")
    assert previous == m.Previous(None)
    changes = m.compare(previous.manifest, CARDS)
    assert changes.added == tuple((c.key, c.title) for c in CARDS)
    assert m.change_list(changes)[0] == "前回の印刷はありません: 変更 0 枚・追加 3 枚・削除 0 枚"


def test_writing_stays_inside_the_folder_named(tmp_path):
    inside = tmp_path / "out"
    inside.mkdir()
    with pytest.raises(m.ManifestError, match="の外には書きません"):
        m.write_manifest(inside / ".." / "x.manifest.json", _manifest(), inside=inside,
                         previous=m.Previous(None))
    assert not (tmp_path / "x.manifest.json").exists()


# ----------------------------------------------------------------- changes


def _edit(card: Card, **fields) -> Card:
    return dataclasses.replace(card, **fields)


@pytest.mark.parametrize("edit, words", [
    (dict(sections=(Section("未来面", ("攻撃 10",)), Section("過去面", ("防御 6",)))),
     "過去面 の文が変わりました"),
    (dict(title="再会"), "タイトル（前回「出会い」）が変わりました"),
    (dict(badges=(("銘", "14"), ("綻び倍率", "2.0"))), "バッジ「銘」が変わりました"),
    (dict(badges=(("銘", "12"),)), "バッジ「綻び倍率」がなくなりました"),
    (dict(sections=DEAI.sections + (Section("ペン", ("攻撃 +2",)),)), "ペン の文が加わりました"),
    (dict(flavour="秋の日"), "フレーバーが変わりました"),
    (dict(mark=14), "銘の目盛りが変わりました"),
    (dict(kind="event"), "種類（裏面）が変わりました"),
    (dict(sections=tuple(reversed(DEAI.sections))), "文の順番が変わりました"),
])
def test_change_detection_marks_exactly_the_changed_card_and_names_its_part(edit, words):
    changed = _edit(DEAI, **edit)
    changes = m.compare(_manifest(), (changed, KODOKU, SUMMARY))
    assert changes.added == changes.removed == ()
    assert [c.key for c in changes.changed] == ["page/deai"]
    assert changes.changed[0].what == (words,)
    lines = m.change_list(changes)
    assert lines[0] == "前回の印刷（2026-12-01）から: 変更 1 枚・追加 0 枚・削除 0 枚"
    assert lines[1:] == [f"{changed.title}（ページ deai）: {words}"]


def test_a_changed_lifespan_cap_names_the_number_line_s_top_not_the_look():
    """寿命上限 80 → 90 changed the number printed at the end of every page's line, and the
    change list said 「文は同じで、見た目…が変わりました」 (the top was no part)."""
    dated = _edit(DEAI, mark_top=80)
    before = m.build((dated, KODOKU, SUMMARY), date="2026-12-01", content_hash="0" * 64)
    changes = m.compare(before, (_edit(dated, mark_top=90), KODOKU, SUMMARY))
    assert changes.changed[0].what == ("数直線の端（寿命上限）が変わりました",)
    # a manifest written before the top was a part: the change is still found, as a look
    older = json.loads(json.dumps(before))
    del older["cards"][0]["parts"]["top"]
    assert m.compare(older, (_edit(dated, mark_top=90), KODOKU, SUMMARY)).changed[0].what \
        == (m.LOOK_CHANGED,)


def test_added_and_removed_cards_are_listed_by_title_and_key():
    new = Card("event/白1", "event", "白い朝")
    changes = m.compare(_manifest(), (DEAI, new, SUMMARY))
    assert changes.changed == ()
    assert m.change_list(changes) == [
        "前回の印刷（2026-12-01）から: 変更 0 枚・追加 1 枚・削除 1 枚",
        "白い朝（イベント 白1）: 新しく加わりました",
        "孤独（敵 kodoku）: なくなりました",
    ]


def test_several_parts_of_one_card_are_named_in_one_line():
    changed = _edit(DEAI, title="再会", flavour="", badges=(("銘", "12"), ("座", "30"),
                                                          ("綻び倍率", "2.0")))
    (change,) = m.compare(_manifest(), (changed, KODOKU, SUMMARY)).changed
    assert change.what == ("タイトル（前回「出会い」）・フレーバーが変わりました",
                           "バッジ「座」が加わりました")


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
_sections = st.lists(st.builds(Section, _text, st.lists(_text, max_size=3).map(tuple)),
                     max_size=3).map(tuple)
_cards = st.lists(st.builds(Card, st.text(min_size=1, max_size=8), st.sampled_from(sorted(KINDS)),
                            _text, st.lists(st.tuples(_text, _text), max_size=3).map(tuple),
                            _sections, _text, st.none() | st.integers(-5, 120)),
                  max_size=6, unique_by=lambda c: c.key)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_cards, st.data())
def test_exactly_the_cards_whose_words_differ_are_changed(cards, data):
    """Any print against its own manifest has no change; editing some cards' flavour
    marks exactly those, whatever the rest of the cards hold."""
    before = m.build(cards, date="2026-12-01", content_hash="")
    assert m._check(json.loads(m.dumps(before))) == ""  # what we write, we read back
    assert m.compare(before, cards) == m.Changes((), (), (), "2026-12-01")
    edited = data.draw(st.sets(st.sampled_from([c.key for c in cards]))) if cards else set()
    after = [_edit(c, flavour=c.flavour + "！") if c.key in edited else c for c in cards]
    changes = m.compare(before, after)
    assert {c.key for c in changes.changed} == edited
    assert all(c.what == ("フレーバーが変わりました",) for c in changes.changed)


# ----------------------------------------------------------------- bad manifests


def _good() -> dict:
    return json.loads(m.dumps(_manifest()))


BAD = {
    "not JSON": ("{ cards: [", "JSON として読めません（1 行目）"),
    "not UTF-8": (b"\xff\xfe{}", "UTF-8 のテキストではありません"),
    "a NaN": ('{"format": "jibunki-print-manifest", "version": NaN}', "JSON にない値 NaN"),
    "a repeated key": ('{"format": 1, "format": 2}', "同じ名前の項目が二つあります"),
    "deep nesting": ("[" * 100_000 + "]" * 100_000, None),
    "foreign": ('{"ObjectStates": []}', "jibunki の印刷の控えではありません"),
    "a list": ("[1, 2]", "jibunki の印刷の控えではありません"),
    "old version": (json.dumps({**_good(), "version": 0}), "古い形式の控えです（版 0。"),
    "newer version": (json.dumps({**_good(), "version": 2}), "新しい jibunki の控えです（版 2。"),
    "version as text": (json.dumps({**_good(), "version": "1"}), "控えの版が読めません"),
    "missing cards": (json.dumps({k: v for k, v in _good().items() if k != "cards"}),
                      "全体: 項目 cards がありません"),
    "a bad digest": (json.dumps({**_good(), "cards": [{**_good()["cards"][0], "digest": "zz"}]}),
                     "cards.0.digest: 形が違います"),
    "an unknown field": (json.dumps({**_good(), "extra": 1}), "知らない項目 extra があります"),
    # the pattern's shape, no day of any calendar: it was shown as 「前回の印刷（2026-99-99）」
    "an impossible date": (json.dumps({**_good(), "date": "2026-99-99"}), "date: ありえない日付です"),
    "a repeated card": (json.dumps({**_good(), "cards": _good()["cards"][:1] * 2}),
                        "同じキー page/deai のカードが二枚あります"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_previous_manifest_is_a_japanese_warning_and_a_first_print(tmp_path, name):
    # ... or, when the file is not one of ours (never replaced), says that the print stops
    text, words = BAD[name]
    previous = m.read_previous(_written(tmp_path, text))
    assert previous.manifest is None
    assert previous.warning.startswith(f"前回の印刷の控え {tmp_path}")
    assert previous.warning.endswith(m.AS_FIRST if previous.ours else f"このファイルは{m.LEFT_ALONE}。")
    if words:
        assert words in previous.warning
    assert "Traceback" not in previous.warning and "Error" not in previous.warning
    assert m.compare(previous.manifest, CARDS).added == tuple((c.key, c.title) for c in CARDS)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12)


@settings(max_examples=80, deadline=None)
@given(st.fixed_dictionaries({}, optional={"format": st.just(m.FORMAT) | _json,
                                           "version": st.just(m.VERSION) | _json,
                                           "date": _json, "content_hash": _json,
                                           "cards": _json, "extra": _json}) | _json)
def test_any_json_read_as_a_manifest_is_a_manifest_or_a_warning(tmp_path_factory, data):
    path = _written(tmp_path_factory.mktemp("any"), json.dumps(data))
    previous = m.read_previous(path)
    assert (previous.manifest is None) != (previous.warning == "")
    assert m.compare(previous.manifest, CARDS) is not None


def test_an_oversized_manifest_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(m, "MAX_BYTES", 1024)
    previous = m.read_previous(_written(tmp_path, " " * 1025 + "{}"))
    assert previous.manifest is None
    assert "大きすぎます（上限 1 KiB）" in previous.warning
    assert not previous.ours


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_the_manifest_place_never_hangs_and_is_not_replaced(tmp_path):
    path = tmp_path / "sheets.manifest.json"
    os.mkfifo(path)
    previous = m.read_previous(path)
    assert "通常のファイルではありません" in previous.warning
    with pytest.raises(m.ManifestError, match="上書きしません"):
        m.write_manifest(path, _manifest(), inside=tmp_path, previous=previous)


def test_a_file_that_is_not_a_manifest_is_never_replaced(tmp_path):
    path = _written(tmp_path, '{"my": "notes"}')
    previous = m.read_previous(path)
    with pytest.raises(m.ManifestError, match="jibunki の印刷の控えではないので上書きしません"):
        m.write_manifest(path, _manifest(), inside=tmp_path, previous=previous)
    assert path.read_text(encoding="utf-8") == '{"my": "notes"}'


def test_an_old_manifest_of_ours_is_replaced_by_the_new_one(tmp_path):
    path = _written(tmp_path, json.dumps({**_good(), "version": 0}))
    previous = m.read_previous(path)
    assert previous.warning and previous.ours
    m.write_manifest(path, _manifest(), inside=tmp_path, previous=previous)
    assert m.read_previous(path).manifest == _manifest()


def test_the_schema_is_valid_draft_2020_12_and_names_the_format():
    from jsonschema import Draft202012Validator

    schema = json.loads(m.SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"] == {"const": m.FORMAT}
    assert schema["properties"]["version"] == {"const": m.VERSION}


def test_a_print_from_before_cards_had_colours_calls_only_the_recoloured_cards_changed():
    """tests/fixtures/print/before-tints.manifest.json was written by the manifest's code
    before ``Card`` had its tint, corner and card icons: a page card, which has none of
    them, keeps its digest; an event card, now framed in its suit's colour, is changed —
    and the change list says that its words are the same."""
    from pathlib import Path

    previous = m.read_previous(Path(__file__).parent / "fixtures" / "print" /
                               "before-tints.manifest.json")
    assert previous.manifest is not None, previous.warning
    red1 = Card("event/赤1", "event", "珍獣屋のおじさん、現る 1",
                (("スート", "赤"), ("数字", "1"), ("キーアイコン", "星")),
                (Section("効果（珍獣屋のおじさん、現る）",
                         ("黒いポーン１個をロケーション（前後どちらでも可）１つ分移動させる",)),),
                tint="red", corner=("1", "星"))
    changes = m.compare(previous.manifest, [DEAI, red1])
    assert [c.key for c in changes.changed] == ["event/赤1"]
    assert changes.changed[0].what == (m.LOOK_CHANGED,)
    assert not changes.added and not changes.removed
    # and with the look as it was, nothing changed
    plain = dataclasses.replace(red1, tint=None, corner=())
    assert m.compare(previous.manifest, [DEAI, plain]).changed == ()
