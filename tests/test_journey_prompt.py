"""`jibunki journey` at a real terminal, driven through tmux at 80×24 and 120×40: the
battle's line editor (Tab completion of commands and cards, ↑ recalling the previous
line, an empty line doing nothing), the Japanese aliases, the screen redrawn in place
(its status line shown once, however many actions), and the result with the exit status."""

from __future__ import annotations

import time

import pytest

from journey.screen.terminal import EXIT_UNFINISHED
from tmux import Terminal, needs_tmux

pytestmark = [needs_tmux, pytest.mark.slow]

SIZES = [(80, 24), (120, 40)]
#: The screen's first line at seed 3 (the set-up, the turn, the deck …).
STATUS = "旅の準備 草案１７  手番 1"


@pytest.fixture
def terminal():
    opened = []

    def open_(width=80, height=24):
        term = Terminal(width, height, "journey", "--seed", "3")
        opened.append(term)
        term.ready()
        return term

    yield open_
    for term in opened:
        term.close()


def _last(shown: str) -> str:
    return shown.rstrip().splitlines()[-1]


def test_tab_completes_a_command_then_a_card_then_the_black_pawn(terminal):
    term = terminal()
    term.type("pl", enter=False)
    term.key("Tab")
    term.wait(lambda s: _last(s) == "> play", "the completed command")
    term.type("白2 ", enter=False)  # the completed word is followed by its space
    term.key("Tab")
    term.wait(lambda s: _last(s) == "> play 白2 黒1", "the completed pawn")
    term.key("Enter")
    term.wait(lambda s: "白2 をプレイ: 白いポーン 1 → 3 日目" in s, "the play")


def test_tab_lists_the_cards_a_partial_name_may_be(terminal):
    term = terminal()
    term.type("play 白", enter=False)
    term.key("Tab")
    shown = term.wait(lambda s: "出す 白2 黒1" in s.split("> play 白")[-1], "the menu")
    assert "出す 白5 黒1" in shown.split("> play 白")[-1]


def test_up_arrow_recalls_the_previous_line(terminal):
    term = terminal()
    term.type("play 白2")
    term.wait(lambda s: "白2 を 3 日目に配置" in s, "the play")
    term.ready()
    term.key("Up")
    term.wait(lambda s: _last(s) == "> play 白2", "the recalled line")


def test_japanese_aliases_play_undo_and_show_the_help(terminal):
    term = terminal()
    term.type("出す 白2")
    term.wait(lambda s: "白2 をプレイ: 白いポーン 1 → 3 日目" in s, "the play")
    term.ready()
    term.type("取り消す")
    shown = term.wait(lambda s: "一手戻しました" in s, "the undo")
    assert "手札: 白2(花) 白5(星) 緑4(星) 緑6(鳥)" in shown
    term.ready()
    term.type("ヘルプ")
    shown = term.wait(lambda s: "別名: help、h、?" in s, "the help")
    assert "取り消す" in shown and "別名: undo、u、待った" in shown  # the help's last lines


def test_an_empty_line_does_nothing(terminal):
    term = terminal()
    before = term.lines()
    term.type("")
    time.sleep(0.5)
    after = term.lines()
    content = lambda lines: [line for line in lines if line != ">"]  # noqa: E731
    assert content(after) == content(before)[-len(content(after)):]  # nothing but a new prompt
    assert after[-1] == ">" and "×" not in term.screen()


@pytest.mark.parametrize("width, height", SIZES)
def test_the_screen_is_redrawn_in_place_after_every_action(terminal, width, height):
    term = terminal(width, height)
    for typed, done in (("play 白2", "白2 を 3 日目に配置"), ("進む", "次: イベント効果を選ぶ"),
                        ("効果 黒6", "> 効果 黒6"), ("actions", "> actions")):
        term.type(typed)
        term.wait(lambda s: done in s, typed)
        shown = term.ready()
        assert shown.count(STATUS) == 1, shown  # one screen: the old ones are gone
        assert shown.splitlines()[0].startswith(STATUS)  # at the top of the pane
        assert len(shown.rstrip("\n").splitlines()) <= height
    assert "> play 白2" not in shown  # what an older action said is gone with its screen


def test_quit_leaves_the_game_unfinished_with_its_result(terminal):
    term = terminal()
    term.type("play 白2")
    term.wait(lambda s: "白2 を 3 日目に配置" in s, "the play")
    term.ready()
    term.type("undo")
    term.wait(lambda s: "一手戻しました" in s, "the undo")
    term.ready()
    term.type("やめる")
    shown = term.wait(lambda s: "EXIT=" in s, "the end")
    assert "結果: 途中（手番 1）" in shown and f"EXIT={EXIT_UNFINISHED}" in shown


def test_help_printed_below_the_screen_does_not_echo_the_command_again(terminal):
    term = terminal(80, 24)
    term.type("help")
    term.wait(lambda s: "別名: help、h、?" in s and _last(s) == ">", "the help")
    scrolled = term.tmux("capture-pane", "-t", "game", "-p", "-S", "-300")  # and above
    assert scrolled.count("> help") == 1
