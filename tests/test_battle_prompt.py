"""`jibunki battle` at a real terminal, driven through tmux at 80×24 and 120×40: the line
editor (history recall with Up, Tab completion, an empty line doing nothing), pen asking
before it writes, the screen redrawn in place so the enemy stays in view, and the closing
summary with the exit status."""

from __future__ import annotations

import time

import pytest

from tmux import Terminal, needs_tmux

pytestmark = [needs_tmux, pytest.mark.slow]

SIZES = [(80, 24), (120, 40)]
ENEMY = "歯車塔の番人"


@pytest.fixture
def terminal():
    opened = []

    def open_(width=80, height=24, *args):
        term = Terminal(width, height, "battle", "--seed", "3", *args)
        opened.append(term)
        term.ready()
        return term

    yield open_
    for term in opened:
        term.close()


def test_up_arrow_recalls_the_previous_command(terminal):
    term = terminal()
    term.type("play 1")
    term.wait(lambda s: "坂道の自転車（銘 8）をプレイ" in s, "the play")
    term.ready()
    term.key("Up")
    term.wait(lambda s: s.rstrip().splitlines()[-1] == "> play 1", "the recalled line")


def test_an_empty_line_does_nothing(terminal):
    term = terminal()
    before = term.lines()
    term.type("")
    time.sleep(0.5)
    after = term.lines()
    assert "コマンドはありません" not in term.screen()
    content = lambda lines: [line for line in lines if line != ">"]  # noqa: E731
    assert content(after) == content(before)[-len(content(after)):]  # nothing but a new prompt
    assert ENEMY in term.screen()
    assert after[-1] == ">"


def test_tab_completes_a_command_word(terminal):
    term = terminal()
    term.type("pl", enter=False)
    term.key("Tab")
    term.wait(lambda s: s.rstrip().splitlines()[-1] == "> play", "the completed word")
    # a space after the word completed, as a shell puts one: 「where」 and 1 made 「where1」
    term.type("1")
    term.wait(lambda s: "> play 1" in s and "をプレイ" in s, "the completed command run")


def test_pen_asks_first_and_n_cancels(terminal):
    term = terminal()
    term.type("pen 6 過去")  # 6: 旅立ちの朝, whose past face a pen writes
    shown = term.wait(lambda s: "実行しますか？" in s, "the question")
    assert "ペンで書き込まれる内容: 歩+5" in shown
    term.type("n")
    shown = term.wait(lambda s: "やめました" in s, "the cancel")
    assert "過去面を書き込んだ" not in shown and "ペン残り 1" in shown


@pytest.mark.parametrize("width, height", SIZES)
def test_the_enemy_stays_on_screen_after_several_actions(terminal, width, height):
    term = terminal(width, height)
    for command, done in (("play 1", "をプレイ"), ("end", "ターン 2 "),
                          ("play 1", "をプレイ"), ("end", "ターン 3 ")):
        term.type(command)
        shown = term.wait(lambda s: f"> {command}" in s and done in s, command)
        term.ready()
        shown = term.screen()
        assert ENEMY in shown and "HP" in shown.splitlines()[0] + shown.splitlines()[1]
        assert len(shown.splitlines()) <= height


@pytest.mark.parametrize("width, height", SIZES)
def test_the_end_shows_a_summary_and_the_exit_status(terminal, width, height):
    # The ended battle stays until quit: a record, a save or an undo of the ending.
    term = terminal(width, height)
    term.type("set HP 1")
    term.ready()
    term.type("end")
    shown = term.wait(lambda s: "戦闘は終わりました" in s, "the ending")
    assert "結果: 敗北" in shown and "record で例に書く" in shown and "EXIT=" not in shown
    term.type("play 1")  # refused: the run is over
    term.wait(lambda s: "このランはもう終わっています" in s, "the refusal")
    term.type("quit")
    shown = term.wait(lambda s: "EXIT=" in s, "the end")
    assert "── まとめ ──" in shown and "結果: 敗北" in shown and "EXIT=1" in shown
    assert "減ったHP" in shown


def test_an_ending_can_be_taken_back_at_the_keyboard(terminal):
    term = terminal()
    term.type("set HP 1")
    term.ready()
    term.type("end")
    term.wait(lambda s: "戦闘は終わりました" in s, "the ending")
    term.type("undo")
    term.wait(lambda s: "1 手戻しました" in s, "the undo")
    term.type("quit")
    shown = term.wait(lambda s: "EXIT=" in s, "the end")
    assert "結果: 途中" in shown and "EXIT=3" in shown


def test_quit_leaves_the_battle_unfinished(terminal):
    term = terminal()
    term.type("play 1")
    term.ready()
    term.type("quit")
    shown = term.wait(lambda s: "EXIT=" in s, "the end")
    assert "結果: 途中" in shown and "EXIT=3" in shown
    assert "坂道の自転車" in shown.split("── まとめ ──")[1] or "与えたダメージ: 0" in shown


def test_log_shows_how_each_number_came_about_when_the_screen_had_no_room(terminal):
    """At 80×24 an end of turn says more than fits under the screen; ``log`` prints all of
    it, every hit with what absorbed it."""
    term = terminal(80, 24)
    term.type("end")
    # the screen is drawn in more than one write: wait for its last line, the hint, too
    # (under load a capture once came between the turn's header and the hint)
    shown = term.wait(lambda s: "ターン 2 " in s and "log で全部" in s, "the next turn's hint")
    term.ready()
    assert "log で全部" in shown
    term.type("log")
    shown = term.wait(lambda s: s.count("被弾 16") >= 3, "the whole narration")
    assert "防御で 16 吸収" in shown


def test_a_play_shows_its_damage_and_how_it_came_about_at_80x24(terminal):
    term = terminal(80, 24)
    term.type("play 6")  # 6: 旅立ちの朝, 使用した歩［このプレイ］ × 0.8
    shown = term.wait(lambda s: "旅立ちの朝（銘 36）をプレイ" in s, "the play")
    term.ready()
    shown = term.screen()
    assert "敵に 12 ダメージ" in shown and "16 × 0.8 = 12.8 → 12" in shown
    assert ENEMY in shown.splitlines()[0]  # and the enemy is still the top line


def test_a_tiny_terminal_keeps_the_screens_top_line(terminal):
    # At 30×8 the notice that the screen was cut would wrap onto a second line and push
    # the top line (the stage and the turn) off the terminal: it is cut to one line.
    term = terminal(30, 8)
    term.type("end")
    shown = term.wait(lambda s: "ターン 2" in s and s.rstrip().splitlines()[-1] == ">",
                      "the next turn")
    rows = shown.splitlines()
    assert rows[0].startswith("ステージ 1/1") and "ターン 2" in rows[0]
    assert any(row.startswith("（端末が小さいので") for row in rows)


def test_a_long_answer_printed_below_does_not_echo_the_command_again(terminal):
    # log is printed under the screen, which stays: the line typed is still there above it
    term = terminal(80, 24)
    term.type("play 1")
    term.wait(lambda s: "坂道の自転車（銘 8）をプレイ" in s, "the play")
    term.ready()
    term.type("log")
    term.wait(lambda s: s.rstrip().splitlines()[-1] == ">" and "> log" in s, "the log")
    scrolled = term.tmux("capture-pane", "-t", "game", "-p", "-S", "-200")  # and above
    assert scrolled.count("> log") == 1


def test_a_small_terminal_names_the_command_that_shows_the_hand_it_leaves_out(terminal):
    """At 60×24 the screen keeps the enemy and the player and shows only the first pages of
    an 8-page hand, each on one line; it says how many it left out and that ``hand`` shows
    them, and ``hand`` prints every page with its rules whole."""
    term = terminal(60, 24, "--with", "tabidachi")
    shown = term.screen()
    assert "枚（hand で全部）" in shown and "入学式" not in shown.split("#", 1)[-1]
    assert not any(line.startswith("8 ") for line in shown.splitlines())
    term.type("hand")
    # the last page's row, in full detail (what a pen would write), at the bottom
    shown = term.wait(lambda s: any(line.startswith("8 ") for line in s.splitlines()),
                      "the hand's last page")
    assert "ペン 過去面" in shown.split("\n8 ", 1)[1]
