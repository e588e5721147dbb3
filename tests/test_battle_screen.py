"""The battle screen (terminal/screen.py): what it shows a designer, and that it fits an
80×24 and a 120×40 terminal, read from the text rich exports."""

from __future__ import annotations

import re
import unicodedata

import pytest
from rich.cells import cell_len
from rich.console import Console

from contract import vocabulary as vocab
from runtime.battle import Battle
from runtime.tables import load
from terminal.screen import damage_preview, pen_preview, screen

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def tables():
    return load()


def new_battle(tables, enemy="haguruma", seed=3) -> Battle:
    return Battle.new(tables, seed=seed, enemies=[enemy])


def render(battle, width=80, height=24, ascii=False) -> str:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(screen(battle, width=width, height=height, ascii=ascii))
    return console.export_text()


def uid_of(battle, page_id: str) -> int:
    return next(uid for uid in battle.hand if battle.state.pages[uid].page == page_id)


def row_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if re.match(rf"\s*\d+ {name}\b", line))


def busy(tables) -> Battle:
    """A battle with something on the board, a fuller hand and pages in every pile."""
    battle = new_battle(tables)
    battle.play(uid_of(battle, "sakamichi"))  # 攻撃力補正 for the next 2 plays
    battle.end_turn()
    battle.dev_set(hand=["juku", "himitsu_kichi"], steps=200)
    battle.play(uid_of(battle, "juku"))
    battle.tear(battle.hand[-1])
    battle.dev_set(hand=["sakamichi", "shigoto", "tabidachi", "hatsu_koe", "mago", "kekkon",
                         "nyuugaku", "tenshoku"])  # a full hand: 手札上限 8
    return battle


@pytest.mark.parametrize("width, height", SIZES)
def test_the_screen_fits_the_terminal_with_the_enemy_on_top(tables, width, height):
    for battle in (new_battle(tables), busy(tables)):
        text = render(battle, width, height)
        lines = text.splitlines()
        assert len(lines) <= height
        assert max(cell_len(line) for line in lines) <= width
        enemy = tables.enemies[battle.state.enemy["id"]]
        assert enemy.name in lines[0] and f"HP {battle.state.enemy['hp']}/{enemy.hp}" in lines[0]
        assert any(line.startswith("自分  HP") for line in lines[:6])


def test_a_hand_too_long_for_the_terminal_says_how_many_pages_are_not_shown(tables):
    battle = busy(tables)
    text = render(battle, 80, 18)
    shown = [n for n in range(1, len(battle.hand) + 1) if re.search(rf"^\s*{n} \S", text, re.M)]
    assert len(shown) < len(battle.hand)  # a full hand does not fit in 18 lines
    assert f"… あと {len(battle.hand) - len(shown)} 枚" in text
    assert len(render(battle, 120, 40).splitlines()) <= 40


@pytest.mark.parametrize("width, height", [(40, 12), (40, 23), (60, 19), (80, 16), (100, 8)])
def test_an_empty_hand_on_a_short_terminal_is_drawn(tables, width, height):
    # Nothing of the hand fits and there is no page to leave out: the screen is still drawn
    # (it raised rich's NotRenderableError on the hand table it did not make).
    battle = new_battle(tables)
    battle.dev_set(hand=["nyuugaku"])
    battle.play(battle.hand[0])
    assert battle.hand == []
    text = render(battle, width, height)
    enemy = tables.enemies[battle.state.enemy["id"]]
    assert enemy.name in text.splitlines()[0]


def test_the_board_lists_a_placed_effect_with_the_plays_it_has_left(tables):
    battle = new_battle(tables)
    battle.play(uid_of(battle, "sakamichi"))
    text = render(battle, 80, 24)
    assert "坂道の自転車 [残り 2 プレイ]: 以降 2 プレイの間、攻撃力補正+4" in text
    battle.play(uid_of(battle, "tabidachi"))
    assert "[残り 1 プレイ]" in render(battle, 80, 24)


def test_the_board_counts_the_fires_left_of_a_maximum_and_the_turns_of_a_window(tables):
    battle = new_battle(tables)
    battle.dev_set(hand=["mago", "juku"])
    battle.dev_set(steps=200)
    battle.play(uid_of(battle, "mago"))   # 銘 66: 敵の行動前, at most 3 times
    battle.dev_set(age=0)
    battle.play(uid_of(battle, "juku"))   # 銘 14: for the next 2 turns
    text = render(battle, 120, 40)
    assert "[残り 3/3 回]: " in text and "[残り 2 ターン]: " in text
    battle.end_turn()
    text = render(battle, 120, 40)
    assert "[残り 2/3 回]: " in text and "[残り 1 ターン]: " in text


def test_the_pile_counts_are_the_zones(tables):
    battle = busy(tables)
    text = render(battle, 120, 40)
    zones = battle.state.zones
    w = vocab.W
    assert f"{w.region.draw} {len(zones['draw'])} " in text
    assert f"{w.region.discard} {len(zones['discard'])} " in text
    assert (f"{w.region.exile} {w.scope.stage} {len(zones['exile_stage'])}・"
            f"{w.scope.run} {len(zones['exile_run'])}") in text
    assert f"破った {len(zones['torn'])}" in text and len(zones["torn"]) == 1


def test_the_damage_multiplier_and_the_modifiers_in_force_are_shown(tables):
    battle = new_battle(tables)
    battle.dev_set(fray=50)
    battle.play(uid_of(battle, "sakamichi"))
    text = render(battle, 120, 40)
    assert "ダメージ ×1.50" in text and "攻撃力補正 +4" in text


def test_the_damage_preview_is_what_playing_the_page_then_does(tables):
    battle = new_battle(tables)
    battle.play(uid_of(battle, "sakamichi"))  # +4 to the next plays' damage
    battle.dev_set(steps=200)
    for page, name in (("tabidachi", "旅立ちの朝"), ("shigoto", "大きな仕事")):
        uid = uid_of(battle, page)
        preview = damage_preview(battle, uid)
        assert preview.dealt > 0 and not preview.chose and not preview.capped
        assert re.search(rf" {preview.dealt} 敵HP", row_of(render(battle, 120, 40), name))
        before = battle.state.enemy["hp"]
        battle.play(uid)
        assert before - battle.state.enemy["hp"] == preview.dealt


@pytest.mark.parametrize("width, height", SIZES)
def test_a_damage_the_enemys_hp_stops_short_is_marked_and_the_hand_says_why(
        tables, width, height):
    battle = new_battle(tables)
    battle.dev_set(hand=["tabidachi", "shigoto"], enemy_hp=11)
    capped = damage_preview(battle, uid_of(battle, "tabidachi"))  # 16 歩 × 0.8 = 12 > 11
    assert (capped.dealt, capped.amount, capped.capped) == (11, 12, True)
    full = damage_preview(battle, uid_of(battle, "shigoto"))  # 10: the 11 left take it all
    assert full.dealt == full.amount == 10 and not full.capped
    text = render(battle, width, height)
    assert re.search(r" 11! ", row_of(text, "旅立ちの朝"))
    assert re.search(r" 10 ", row_of(text, "大きな仕事")) and "10!" not in text
    assert "! 敵HPで頭打ち（残りの敵HPまでしか通らない）" in text


def test_a_hand_none_of_whose_damage_is_capped_has_no_cap_note(tables):
    text = render(new_battle(tables), 120, 40)
    assert "頭打ち" not in text and not re.search(r"\d! ", text)


def test_the_pen_preview_of_each_face_is_shown_with_the_fray_the_pen_adds(tables):
    battle = new_battle(tables)
    text = render(battle, 120, 40)
    uid = uid_of(battle, "tabidachi")
    fray = tables.balance.pen_fray
    assert fray > 0
    for side, word in (("future", vocab.W.face.future), ("past", vocab.W.face.past)):
        assert f"ペン {word}（綻び+{fray}）: " + " ／ ".join(pen_preview(battle, uid, side)) in text


def test_a_face_the_pen_cannot_write_shows_no_fray(tables):
    battle = new_battle(tables)
    text = render(battle, 120, 40)
    assert f"ペン {vocab.W.face.past}: {vocab.NO_PEN_UPGRADE}" in row_and_below(text, "産声")


def row_and_below(text: str, name: str) -> str:
    """The hand row of ``name`` and the lines under it, up to the next page's row."""
    lines = text.splitlines()
    start = lines.index(row_of(text, name))
    end = next((at for at in range(start + 1, len(lines))
                if re.match(r"\s*\d+ \S", lines[at])), len(lines))
    return "\n".join(lines[start:end])


def test_pages_of_one_year_are_all_on_the_number_line(tables):
    battle = new_battle(tables)
    battle.dev_set(hand=["sakamichi", "shigoto", "sakamichi", "sakamichi"])
    for width, height in SIZES:
        lines = render(battle, width, height).splitlines()
        marks = lines[next(i for i, line in enumerate(lines) if line.startswith("0 ")) + 1]
        assert "1,3,4" in marks and "2" in marks.replace("1,3,4", "")


def test_age_on_the_seat_shows_both_marks(tables):
    battle = new_battle(tables)
    seat = battle.state.enemy["seat"]
    battle.dev_set(age=seat)
    text = render(battle, 80, 24)
    axis = next(line for line in text.splitlines() if line.startswith("0 "))
    assert "◆" in axis and "●" not in axis and "▼" not in axis
    assert f"● 刻 {seat}" in text and f"▼ 座 {seat}" in text and "◆ 刻 = 座" in text
    ascii_text = render(battle, 80, 24, ascii=True)
    assert f"@ 刻 {seat}" in ascii_text and f"v 座 {seat}" in ascii_text and "X 刻 = 座" in ascii_text


@pytest.mark.parametrize("width, height", SIZES)
def test_ascii_mode_has_no_character_of_ambiguous_width(tables, width, height):
    for battle in (new_battle(tables), busy(tables)):
        text = render(battle, width, height, ascii=True)
        assert [ch for ch in set(text) if unicodedata.east_asian_width(ch) == "A"] == []
        assert len(text.splitlines()) <= height


def test_no_code_of_the_vocabulary_is_on_screen(tables):
    codes = {entry.code for table in vocab.tables().values() for entry in table.entries
             if len(entry.code) > 2}
    codes |= {v.code for v in vocab.VARIABLES}
    pattern = re.compile(r"(?<![A-Za-z_])(" + "|".join(sorted(map(re.escape, codes), key=len,
                                                              reverse=True)) + r")(?![A-Za-z_])")
    for width, height in SIZES:
        for battle in (new_battle(tables), busy(tables)):
            text = render(battle, width, height)
            assert pattern.findall(text) == []


def test_while_a_choice_waits_the_hand_shows_no_numbers_that_choose_would_misread(tables):
    """choose takes the candidates' numbers; the hand table beside them numbered other
    pages 1, 2, 3 … (choose 3 took the third candidate, not the hand's third page)."""
    battle = new_battle(tables)
    battle.dev_set(age=30, hand=["dansyari", "circle", "hatsu_koe", "tenshoku"])
    battle.play(uid_of(battle, "dansyari"))
    assert battle.pending is not None
    text = render(battle, 100, 40)
    rows = [line for line in text.splitlines() if "産声" in line]
    assert any(line.startswith("· 産声") for line in rows), rows  # the hand's row
    assert "choose の番号は候補の表の番号です（手札の番号ではありません）" in text
    battle.choose([battle.pending.candidates[0]])
    after = render(battle, 100, 40)
    assert "choose の番号は上の候補" not in after
    assert re.search(r"^\d+ 産声", after, re.M)  # numbered again once answered


def test_pen_rows_go_once_the_stages_pens_are_spent(tables):
    """「ペン強化なし」 rows stayed after the pen was used, the only pen rows left."""
    battle = new_battle(tables)
    assert "ペン強化なし" in render(battle, 100, 60)
    pen = next(a for a in battle.actions() if type(a).__name__ == "Pen")
    battle.apply(pen)
    shown = render(battle, 100, 60)
    assert "ペン強化なし" not in shown and not re.search(r"^\s+ペン (未来|過去)面", shown, re.M)


def test_a_finished_run_says_so_under_the_hand(tables):
    """The hand of a won run still read as if a page could be played."""
    battle = new_battle(tables)
    assert "ランは終わっています" not in render(battle, 100, 60)
    battle.dev_set(enemy_hp=1, age=20, hand=["tabidachi", "nyuugaku"])
    battle.play(uid_of(battle, "tabidachi"))  # its damage wins the one-stage run
    assert battle.over
    shown = render(battle, 100, 60)
    assert "ランは終わっています（もうプレイできません）" in shown and "ペン強化なし" not in shown


def test_the_page_whose_play_waits_for_a_choice_says_it_is_in_play(tables):
    """断捨離 asks which page to exile and waits in the hand meanwhile: its row said
    「× 歩が足りない」 (the 歩 it had just paid), as though it were a page left to play.
    It says it is being played and where it goes once the choice is made."""
    battle = new_battle(tables)
    battle.dev_set(age=30, steps=40, hand=["dansyari", "circle", "hatsu_koe", "tenshoku"])
    played = uid_of(battle, "dansyari")
    battle.play(played)
    assert battle.pending is not None and battle.in_play() == played
    assert not battle.play_info(played)["playable"]  # what the row said before
    text = render(battle, 120, 40)

    def choosing_row(name: str) -> str:  # a row while choosing: "· name", then its lines
        lines = text.splitlines()
        start = next(at for at, line in enumerate(lines) if line.startswith(f"· {name} "))
        end = next((at for at in range(start + 1, len(lines))
                    if not lines[at].startswith(" ")), len(lines))
        return "\n".join(lines[start:end])

    row = choosing_row("断捨離")
    assert "プレイ中（選択のあと 捨て札へ）" in row and "足りない" not in row, row
    assert "プレイ中" not in choosing_row("産声")
    battle.choose([battle.pending.candidates[0]])
    assert battle.in_play() is None and played not in battle.hand
    assert "プレイ中" not in render(battle, 120, 40)


def test_while_a_play_waits_for_a_choice_the_hand_shows_no_figure_of_the_old_age(tables):
    """迷子の商店街 at 刻 40 asks a choice before 刻 moves to its 銘 5: the hand showed 大きな
    仕事 at 4 歩, crossing, 10 damage and 旅立ちの朝 refused as blank — figures of 刻 40,
    wrong once the choice is answered (39 歩; 旅立ちの朝 fires its future face). Until
    then no page's cost, face, crossing, damage or refusal is shown, and a note says why;
    every written face's rules are shown, each under its face."""
    battle = new_battle(tables)
    battle.dev_set(age=40, steps=40, hand=["mayoigo", "shigoto", "tabidachi"])
    battle.play(uid_of(battle, "mayoigo"))
    assert battle.pending is not None and battle.in_play() is not None
    text = render(battle, 120, 40)
    row = next(line for line in text.splitlines() if line.startswith("· 大きな仕事"))
    assert re.match(r"· 大きな仕事\s+44\s+未来面: 敵HPに 10 のダメージ", row), row
    assert "白紙" not in text and "足りない" not in text
    assert "歩・面・跨ぐ・ダメージは選択のあと、刻が動いてから決まります" in text
    battle.choose(list(battle.pending.candidates[:battle.pending.count]))
    after = render(battle, 120, 40)
    row = next(line for line in after.splitlines() if re.match(r"\d 大きな仕事", line))
    assert re.match(r"\d 大きな仕事\s+44\s+39\s+未来面", row), row
    assert "刻が動いてから" not in after


@pytest.mark.parametrize("width", [40, 50])
def test_on_a_narrow_terminal_the_hand_is_a_block_a_page_with_its_rules_at_full_width(
        tables, width):
    """`hand` at 40 columns squeezed the rules column to some six characters, a word a
    line: below 60 columns each page is its facts on a line, named (no header does), and
    its rules under them as wide as the terminal."""
    battle = busy(tables)
    console = Console(width=width, record=True, color_system=None)
    console.print(screen(battle, width=width, only="hand"))
    text = console.export_text()
    assert max(cell_len(line) for line in text.splitlines()) <= width
    for number, uid in enumerate(battle.hand, 1):
        page = tables.pages[battle.state.pages[uid].page]
        head = row_of(text, re.escape(page.name))
        assert head.startswith(f"{number} {page.name}  {vocab.W.variable.year} {page.year}"), head
    # 36 cells of a rules line come whole onto one line (the table's column held 6)
    assert "このプレイの残りと以降 2 プレイの間、" in text and "ペン 未来面（" in text
    ruled = [line for line in text.splitlines() if line.startswith("  ")]
    assert max(cell_len(line.rstrip()) for line in ruled) > width - 10
